/*
 * Monitor commands (gdb `monitor ...`, and later other front ends).
 * Every command that concerns one core names it: seq<N> or tpc<N>.
 */
#ifndef SOFTMMU_MONITOR_H
#define SOFTMMU_MONITOR_H

#include <stdbool.h>

#include <glib.h>

#include "nxemu/machine.h"

typedef struct Viewer Viewer; /* nxemu/viewer.h */

typedef enum MonAction {
    MON_NONE = 0,
    MON_STOP, /* stop the machine (it is already stopped under gdb) */
    MON_CONT, /* resume when the debugger lets go of the command */
    MON_QUIT, /* end the emulator */
} MonAction;

/* Run one command line (viewer: the -display sdl window screendump writes,
 * NULL: none); output (each line ending in '\n') goes to out.
 * Returns false for an unknown command or bad arguments, with a one-line
 * message naming the problem in out. */
bool monitor_exec(Machine *m, Viewer *viewer, const char *line, GString *out, MonAction *act);
/* -monitor stdio: run the machine while reading monitor commands from
 * standard input between scheduling rounds (stopped first with -S); answers
 * go to standard output; viewer: as for monitor_exec.  Returns the exit status, after the run's
 * report on stderr, as sched_run. */
int monitor_stdio_run(Machine *m, Viewer *viewer, bool start_stopped);
/* "seq3" / "tpc0" -> core, NULL if there is no such core. */
NxCpu *monitor_parse_core(Machine *m, const char *name);

#endif
