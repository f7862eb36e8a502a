/* Rounds, limits, normal end and deadlock detection (machine.md §8, §9). */
#ifndef NXEMU_SCHED_H
#define NXEMU_SCHED_H

#include "nxemu/machine.h"

void sched_init(Machine *m, uint64_t quantum);
/* Run until the machine ends; prints the diagnostic line(s) of §9.3 and
 * returns the exit status of §9.2. */
int sched_run(Machine *m);
/* Run exactly one round; returns STOP_NONE while the machine goes on. */
StopReason sched_round(Machine *m);
/* The exit status for the stop reason already recorded in m. */
int sched_exit_status(Machine *m);
/* The §9.3 diagnostic lines (each ending in a newline) for the recorded stop
 * reason: fault line (and the "at pc=" line with its disassembly), deadlock
 * block or limit line; nothing for a normal end
 * or a FINISHER.  sched_run writes them to stderr. */
void sched_report(Machine *m, GString *out);
/* "FINISHER", "LIMIT", ... (the enum's names without STOP_). */
const char *stop_reason_name(StopReason r);
/* The -d machine line "machine: run ended: reason=NAME status=S icount=N
 * vtime=T" (docs/tracing.rst). */
void sched_log_end(Machine *m);

/* Accounting: a core's run() adds its retired instructions to cpu->retired
 * and to sched.round_retired; the scheduler derives sched.icount from the
 * cpu->retired deltas of each slice and sets cpu->slice_used. */

#endif
