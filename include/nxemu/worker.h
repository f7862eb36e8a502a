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
 *
 * In a stretch run in parallel, the core calls nx_worker_store before every
 * store to RAM: the first store to a host page in the stretch, by any TPC,
 * copies the page first (NxUndo), so that a stretch whose TPCs turn out to
 * have raced can be rolled back and run again one TPC after another
 * (softmmu/sched-threads.c, docs/machine.rst "Host threads").
 */
#ifndef NXEMU_WORKER_H
#define NXEMU_WORKER_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <glib.h>

/* The pages copied before their first store in a parallel stretch
 * (sched-threads.c). */
typedef struct NxUndo NxUndo;

/* Host pages of RAM are copied whole: every RAM region's host bytes are
 * whole pages of an mmap (softmmu/memory.c, mr_init_backed). */
#define NX_UNDO_PAGE_BITS 12
#define NX_UNDO_SEEN      64

/* One per TPC, written by the thread that runs it: a cache line each, so
 * that threads running neighbouring TPCs do not share one (64-aligned
 * storage: g_aligned_alloc0). */
typedef struct NxWorkerSlice {
    _Alignas(64) uint64_t retired; /* what run() adds to the round's retirement count */
    bool escaped;                  /* stopped before an instruction the main thread must run */
    pthread_mutex_t *mem_lock;     /* held around memory-API calls */
    /* a parallel stretch: where the pages go before their first store;
     * NULL: none are kept (one thread, or the serial rerun) */
    NxUndo *undo;
    /* pages (number + 1) this TPC found copied in the stretch, by number
     * modulo NX_UNDO_SEEN: the common store tests one of them */
    uintptr_t seen[NX_UNDO_SEEN];
    uintptr_t last; /* of them, the last page (number + 1) stored to */
} NxWorkerSlice;

/* Copy page `page` (host address >> NX_UNDO_PAGE_BITS) into w->undo unless
 * a TPC of the stretch did already, and note it in w->seen. */
void nx_undo_page(NxWorkerSlice *w, uintptr_t page);

/* Before a store to host bytes [p, p + len), len > 0, in a parallel
 * stretch (w: the TPC's slice, w->undo set). */
static inline void nx_worker_store(NxWorkerSlice *w, const void *p, size_t len)
{
    uintptr_t a = (uintptr_t)p >> NX_UNDO_PAGE_BITS;
    uintptr_t b = ((uintptr_t)p + len - 1) >> NX_UNDO_PAGE_BITS;
    if (G_LIKELY(a == b && a + 1 == w->last))
        return; /* a stream's stores: most go to the page the last one did */
    for (; a <= b; a++)
        if (G_UNLIKELY(w->seen[a % NX_UNDO_SEEN] != a + 1))
            nx_undo_page(w, a);
    w->last = b + 1;
}

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
