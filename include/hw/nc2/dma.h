/* DMA engines: register file and queue model (machine.md §5).  What a
 * request moves is supplied by whoever built it (the sequencer's 0xB8/0xBB
 * or a doorbell record), through DmaRequest.complete. */
#ifndef HW_NC2_DMA_H
#define HW_NC2_DMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nxemu/dma-req.h"
#include "nxemu/memory.h"

/* struct DmaRequest, DmaReqPool: nxemu/dma-req.h */

typedef struct DmaController DmaController;
typedef struct DmaCursor DmaCursor; /* hw/nc2/dma.c */

/* Request slots, so that issuing a DMA allocates nothing once warm: one slot
 * per ring entry of every engine plus one, the slot a request is built and
 * validated in before the issuer knows whether its queue has room.  Slots
 * are allocated on first use (their size is the builder's) and kept, with
 * whatever buffers the builder hangs on them, until dma_destroy. */
struct DmaPool {
    unsigned capacity; /* ring entries of all engines + 1 */
    unsigned slots;    /* allocated so far: stays <= capacity */
    unsigned in_use;   /* handed out, not yet given back */
    unsigned peak;     /* most in use at once */
    size_t slot_size;  /* fixed by the first dma_pool_get */
    /* frees a slot and what it owns (dma_destroy); NULL = g_free */
    void (*fini)(DmaRequest *req);
    DmaRequest **free;
    unsigned nfree, free_cap;
    /* Per-controller scratch for builders (contents not kept across calls). */
    void *scratch;
    size_t scratch_size;
};

typedef struct DmaEngine {
    Machine *m;
    DmaController *dc; /* timing parameters, the machine-wide queued count */
    unsigned index;
    DmaRequest **ring;
    unsigned head, count, depth;
    uint64_t completed, bytes;
    uint64_t desc_addr;
    uint32_t error;
    MemoryRegion mmio;
} DmaEngine;

struct DmaController {
    unsigned nr;
    DmaEngine *e;
    uint32_t bytes_per_cycle, latency;
    /* the HBM's bytes per cycle, shared by the engines moving bytes at the
     * same time (memory@0 nxemu,bytes-per-cycle); 0: no cap */
    uint32_t hbm_bytes_per_cycle;
    DmaCursor *cu; /* one per engine: the time model's scratch */
    /* cycles into the last dma_advance at which its last completion happened (0: none) */
    uint64_t last_done;
    /* requests in all queues (dma_pending): kept by push and completion, so
     * that asking whether any DMA is outstanding costs one load */
    unsigned queued;
    /* Doorbell record validation: seq_dma_request_from_record, replaceable
     * by unit tests. */
    uint32_t (*from_record)(Machine *m, const DmaReqPool *pool, const uint8_t rec[64],
                            DmaRequest **req);
    DmaPool pool;
    DmaReqPool req_pool; /* pool's get and scratch for builders (dma_init) */
};

void dma_init(DmaController *dc, Machine *m, unsigned engines, unsigned depth, uint32_t bpc,
              uint32_t latency);
void dma_destroy(DmaController *dc);
/* The shared HBM cap (docs/timing.rst "Memory bandwidth"): 0 = none. */
void dma_set_hbm_cap(DmaController *dc, uint32_t hbm_bytes_per_cycle);
bool dma_queue_full(const DmaEngine *e);
/* Enqueue (caller checked dma_queue_full); computes req->cost. */
void dma_push(DmaEngine *e, DmaRequest *req);
/* A slot of `size` bytes (the same size and fini on every call for one
 * controller) whose DmaRequest is zeroed except .pool and .release
 * (= dma_pool_put); the bytes after it are as the slot's last user left
 * them (zero the first time), so a builder can keep buffers in them. */
DmaRequest *dma_pool_get(DmaController *dc, size_t size, void (*fini)(DmaRequest *req));
/* Give a request back: a pool slot returns to its pool; any other request
 * is freed by its release hook (NULL = g_free). */
void dma_pool_put(DmaRequest *req);
/* At least `bytes` of per-controller scratch, grown once and reused. */
void *dma_pool_scratch(DmaController *dc, size_t bytes);
/* Advance every engine by q cycles, the engines moving bytes at the same
 * time sharing the HBM cap; then apply the completions engine by engine in
 * ascending order, each engine's in order.  Returns the number of requests
 * completed. */
unsigned dma_advance(DmaController *dc, uint64_t q);
/* Requests queued on any engine (asked every round: one load). */
static inline unsigned dma_pending(const DmaController *dc)
{
    return dc->queued;
}
/* Cycles until the earliest completion if no one adds work (fast-forward). */
uint64_t dma_next_completion(const DmaController *dc);

#endif
