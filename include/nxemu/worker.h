/*
 * TPC slices on host threads (-tpc-threads, nxemu-tpc-run --threads;
 * softmmu/sched-threads.c, docs/machine.rst "Host threads").
 *
 * While a core's run() executes on a worker thread, nx_worker points at the
 * slice's record.  The core then touches nothing but its own state and
 * plain RAM: whatever another agent could observe or that is shared (a
 * device or MMIO access, a write to code, a semaphore, a completion, a
 * fault, a warning) is not done but handed back: the core stops *before*
 * that instruction as if its budget had ended there and sets escaped, and
 * the main thread runs the rest of its slice in (round, TPC index) order.
 * Memory-API calls (slow paths and span look-ups, not per instruction) are
 * made under mem_lock: the map's look-up cache and the written-granule
 * bitmap are shared, and what they compute does not depend on the order.
 */
#ifndef NXEMU_WORKER_H
#define NXEMU_WORKER_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <glib.h>

/* One per TPC, written by the thread that runs it: a cache line each, so
 * that threads running neighbouring TPCs do not share one (64-aligned
 * storage: g_aligned_alloc0). */
typedef struct NxWorkerSlice {
    _Alignas(64) uint64_t retired; /* what run() adds to the round's retirement count */
    bool escaped;                  /* stopped before an instruction the main thread must run */
    pthread_mutex_t *mem_lock;     /* held around memory-API calls */
} NxWorkerSlice;

/* The slice the calling thread runs; NULL on the main thread. */
extern _Thread_local NxWorkerSlice *nx_worker;

static inline void nx_worker_mem_enter(void)
{
    if (G_UNLIKELY(nx_worker))
        pthread_mutex_lock(nx_worker->mem_lock);
}

static inline void nx_worker_mem_leave(void)
{
    if (G_UNLIKELY(nx_worker))
        pthread_mutex_unlock(nx_worker->mem_lock);
}

#endif
