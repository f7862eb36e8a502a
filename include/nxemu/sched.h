/* Rounds, limits, normal end and deadlock detection (machine.md §8, §9). */
#ifndef NXEMU_SCHED_H
#define NXEMU_SCHED_H

#include "nxemu/machine.h"

void sched_init(Machine *m, uint64_t quantum);
/* Run until the machine ends; prints the diagnostic line(s) of §9.3 and
 * returns the exit status of §9.2. */
int sched_run(Machine *m);
/* The same, for callers that take the diagnostic lines themselves (the C
 * API, nxemu-tpc-run's library form): they are appended to report; the -d
 * machine end line is logged as usual. */
int sched_run_report(Machine *m, GString *report);
/* Run exactly one round; returns STOP_NONE while the machine goes on.  A
 * round that a debugger stop interrupted (STOP_DEBUG, then cleared) is
 * continued, not restarted: the stopped core's slice goes on with the rest
 * of its budget, then the rest of the round. */
StopReason sched_round(Machine *m);
/* A debugger's single step of cpu: at most one instruction (bundle).  When
 * cpu is the core whose slice an interrupted round stopped in, the step is
 * part of that slice (the time it takes counts there, as without a
 * debugger); otherwise it is a slice of its own, outside any round.
 * Returns the cycles used. */
uint64_t sched_step(Machine *m, NxCpu *cpu);
/* Would sched_step(m, cpu) now be part of the interrupted slice (and so
 * keep the run's timing)? */
bool sched_step_in_slice(const Machine *m, const NxCpu *cpu);
/*
 * Run up to max_rounds rounds (at least one), with the same result as
 * calling sched_round that many times: stops at the first round that ends
 * the run.  When one sequencer is the only agent that can act (every other
 * sequencer idle or blocked in a wait that nothing changed for since its
 * last attempt, no TPC running, no debugger, trace or per-instruction
 * log), the rounds are one "solo" slice of the whole budget instead of a
 * slice per round: nobody else could have observed the round boundaries in
 * between.  DMA requests in flight do not act until they complete, so the
 * slice then goes up to the round of the next completion, and the engines
 * catch up on the rounds before it afterwards.  sched_run uses it; loops
 * that look at the machine between rounds (gdb, the viewer) keep
 * sched_round.
 *
 * The contract for a core's run() in a solo slice (sched.solo is set): after
 * every instruction with effects beyond its own registers, it asks
 * sched_solo_alone(); when that is false, the slice ends at the end of the
 * current round (sched_round_end) so that the newly active agent starts in
 * that round exactly as it would have.
 */
StopReason sched_rounds(Machine *m, uint64_t max_rounds);

/* A sequencer that takes part in rounds: running, or blocked in a wait. */
static inline bool sched_seq_active(const NxCpu *cpu)
{
    return cpu && (cpu->state == CPU_RUNNING || cpu->state == CPU_BLOCKED);
}

/* Still the only agent that can act: asked after every instruction with
 * effects in a solo slice, so it is two compares.  In a solo slice only the
 * solo core acts, so only its own effects can make another agent able to
 * act: starting a sequencer (CONTROL.RUN) or queueing a DMA request, which
 * call sched_note_wake, launching a TPC (round_tpc_changed), or, with other
 * cores blocked, a change their waits may see (sched_note_change). */
static inline bool sched_solo_alone(const Machine *m)
{
    return m->sched.wakes == m->sched.solo_wakes && m->sched.round_tpc_changed == 0;
}
/* An agent other than the running core may now act (see sched_solo_alone). */
static inline void sched_note_wake(Machine *m)
{
    m->sched.wakes++;
}
/* A change a blocked sequencer's wait may depend on: a semaphore or event
 * value, a write into another core's NX block, or a core's outstanding work
 * (DRAIN) done.  While a solo slice runs
 * beside blocked cores (sched.solo_watch) it ends with the round of the
 * change, so that they re-attempt their waits when they would have. */
static inline void sched_note_change(Machine *m)
{
    m->sched.changes++;
    if (m->sched.solo_watch)
        m->sched.wakes++;
}
/* The end of the round that the cycle `used` of a slice belongs to (used
 * cycles already run: the round of the last one), as a slice budget. */
static inline uint64_t sched_round_end(const Machine *m, uint64_t used)
{
    uint64_t q = m->sched.quantum;
    return (used + q - 1) / q * q;
}
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
