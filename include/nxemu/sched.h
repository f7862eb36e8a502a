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

#endif
