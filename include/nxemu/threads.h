/*
 * The TPC worker threads of a machine (-tpc-threads N, softmmu/sched-threads.c,
 * docs/machine.rst "Host threads").
 */
#ifndef NXEMU_THREADS_H
#define NXEMU_THREADS_H

#include <stdbool.h>
#include <stdint.h>

typedef struct Machine Machine;
typedef struct NxThreads NxThreads;

/* The default: the host's cores, at most one per TPC. */
unsigned nx_threads_default(const Machine *m);
/* Run the TPCs' stretches on n threads (0: the default); 1: no pool, the
 * stretches run on the calling thread one after another.  Without this call
 * the TPCs take turns every round.  Call before the run. */
void nx_threads_set(Machine *m, unsigned n);
/* The threads in use (1 without a pool). */
unsigned nx_threads_count(const Machine *m);
void nx_threads_free(Machine *m);
/* fn(arg, i) for every i in [0, n), returning when all ran: on the pool's
 * threads at once when there is a pool and n is at most the TPC count, else
 * one after another on the calling thread.  Call it from the scheduler's
 * thread outside a TPC phase (from a TPC's slice: one after another); jobs
 * running at once must touch disjoint data. */
void nx_threads_run(Machine *m, unsigned n, void (*fn)(void *arg, unsigned i), void *arg);

/* Phase 3 of a round (softmmu/sched.c) when m->threads is set: the running
 * TPCs in ascending index, those that may (NxCpuOps.worker_ok) for a stretch
 * of up to window rounds (on the workers, or one after another with one
 * thread) when nothing but TPCs can act in them.
 * Returns false when the machine stopped in the phase (m->stop). */
bool nx_threads_tpc_phase(Machine *m, uint64_t window);
/* The stretches run in parallel, and of them those whose TPCs raced, run
 * again one TPC after another (docs/machine.rst "Host threads"). */
void nx_threads_stretches(const Machine *m, uint64_t *par, uint64_t *rerun);
/* Has TPC t already run past the start of the current round on a worker
 * (it is ahead of the round)? */
bool nx_threads_ahead(const Machine *m, unsigned t);

#endif
