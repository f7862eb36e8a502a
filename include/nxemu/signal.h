/*
 * SIGTERM, SIGINT and SIGHUP end a run in order (softmmu/signal.c): the
 * first one is recorded and the scheduler stops the machine at the next
 * round boundary (an instruction boundary for every core), so logs, traces,
 * coverage and statistics are written as complete files; nxemu then prints
 * "nxemu: terminating on signal N (NAME): icount= vtime=" with where the
 * cores were, and exits 128 + N.  A second signal ends the process at once
 * with "nxemu: terminating on signal N (NAME)" and the same status.
 */
#ifndef NXEMU_SIGNAL_H
#define NXEMU_SIGNAL_H

#include <signal.h>
#include <stdbool.h>

/* The first signal caught, or 0. */
extern volatile sig_atomic_t nx_signal_caught;

/* immediate: even the first signal ends the process at once (the gdb stub,
 * where the machine may not be running to notice it). */
void nx_signals_install(bool immediate);
/* "SIGTERM", "SIGINT", "SIGHUP" or "?". */
const char *nx_signal_name(int sig);

#endif
