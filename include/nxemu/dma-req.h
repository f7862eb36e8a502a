/*
 * A DMA request as its builder hands it to an engine (machine.md §5): the
 * contract between whoever builds one (the sequencer's 0xB8/0xBB, or a
 * doorbell record, both in target/seq) and the board's engines
 * (hw/nc2/dma.c), so that neither side sees the other's structs
 * (docs/architecture.rst, "Layers").  What a request moves is supplied by
 * its builder, through DmaRequest.complete.
 */
#ifndef NXEMU_DMA_REQ_H
#define NXEMU_DMA_REQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <glib.h>

typedef struct Machine Machine;
typedef struct DmaRequest DmaRequest;
typedef struct DmaPool DmaPool; /* the engines' slot pool (hw/nc2/dma.h) */

struct DmaRequest {
    uint64_t bytes;     /* total bytes moved; cost = latency + ceil(bytes / bpc) */
    int owner;          /* issuing sequencer core, -1 for a doorbell request */
    uint32_t owner_gen; /* the owner's NX block generation at issue */
    uint8_t sem;        /* completion: sem[sem] += sem_inc if sem_inc != 0 */
    uint8_t sem_inc;
    /* The issuing instruction's _COMPLETE events update, resolved at issue
     * (mode 0 = none); applied after the semaphore increment. */
    uint8_t upd_mode, upd_idx;
    uint32_t upd_value;
    /* Moves the data, atomically, at the completion instant. */
    void (*complete)(Machine *m, DmaRequest *req);
    /* The engine is done with req: frees it (NULL = g_free(req)); for a pool
     * slot dma_pool_put, which gives it back. */
    void (*release)(DmaRequest *req);
    /* gdb watchpoints (only called while m->debug has watchpoints): check
     * every byte range complete() will read or write with nx_debug_wp_find
     * and, on a match, nx_debug_watch_stop(m, w, true) and return true; the
     * engine then holds the request at the head of its queue, its cost paid,
     * and completes it on the next advance without checking again.  NULL:
     * the request's accesses are only seen by the access hook (after). */
    bool (*watch)(Machine *m, DmaRequest *req);
    bool watch_passed; /* reported before its completion: not again */
    void *priv;
    /* The byte ranges [lo, hi) it reads and writes, set by the builder: a
     * request whose both ranges lie in SBUF/PSUM takes none of the HBM's
     * bytes per cycle (docs/timing.rst "Memory bandwidth"); empty ranges
     * (a builder that does not say) count as HBM. */
    uint64_t src_lo, src_hi, dst_lo, dst_hi;
    bool hbm;      /* engine bookkeeping: it draws from the HBM cap */
    DmaPool *pool; /* the pool this slot belongs to, NULL = not pooled */
    /* engine bookkeeping: cost = latency + ceil(bytes / bpc), the cycles
     * the request takes alone; lat_left its latency cycles still to run,
     * rem its bytes still to move times DMA_RATE_SCALE (hw/nc2/dma.c: the
     * engines share the HBM's bytes per cycle) */
    uint64_t cost, lat_left, rem;
    uint64_t fin;    /* cycles into the current advance it finished at */
    uint64_t issued; /* vtime queued: the engine cannot start it earlier */
};

/* Where a builder gets request slots, so that issuing a DMA allocates
 * nothing once warm (the board's dma_pool_get / dma_pool_scratch). */
typedef struct DmaReqPool {
    void *opaque;
    /* A slot of `size` bytes (the same size and fini on every call) whose
     * DmaRequest is zeroed except .pool and .release; the bytes after it
     * are as the slot's last user left them (zero the first time). */
    DmaRequest *(*get)(void *opaque, size_t size, void (*fini)(DmaRequest *req));
    /* At least `bytes` of scratch, grown once and reused (contents not kept). */
    void *(*scratch)(void *opaque, size_t bytes);
} DmaReqPool;

/* Give a request back: a pool slot's release returns it to its pool, any
 * other request is freed by its release hook (NULL = g_free). */
static inline void dma_req_put(DmaRequest *req)
{
    if (req->release)
        req->release(req);
    else
        g_free(req);
}

/* The doorbell's record validation (machine.md §5.3, implemented in
 * target/seq): build a request from a 64-byte record with slots from pool.
 * Returns 0 with *req set, or the ERROR register value (kind << 16 | detail). */
uint32_t seq_dma_request_from_record(Machine *m, const DmaReqPool *pool, const uint8_t rec[64],
                                     DmaRequest **req);

#endif
