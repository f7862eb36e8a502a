/* DMA engines: register file and queue model (machine.md §5).  What a
 * request moves is supplied by whoever built it (the sequencer's 0xB8/0xBB
 * or a doorbell record), through DmaRequest.complete. */
#ifndef HW_NC2_DMA_H
#define HW_NC2_DMA_H

#include <stdbool.h>
#include <stdint.h>

#include "nxemu/memory.h"

typedef struct Machine Machine;
typedef struct DmaRequest DmaRequest;

struct DmaRequest {
    uint64_t bytes;     /* total bytes moved; cost = latency + ceil(bytes / bpc) */
    int owner;          /* issuing sequencer core, -1 for a doorbell request */
    uint32_t owner_gen; /* the owner's NxBlock.generation at issue */
    uint8_t sem;        /* completion: sem[sem] += sem_inc if sem_inc != 0 */
    uint8_t sem_inc;
    /* The issuing instruction's _COMPLETE events update, resolved at issue
     * (mode 0 = none); applied after the semaphore increment. */
    uint8_t upd_mode, upd_idx;
    uint32_t upd_value;
    /* Moves the data, atomically, at the completion instant. */
    void (*complete)(Machine *m, DmaRequest *req);
    void (*release)(DmaRequest *req); /* frees req; NULL = g_free(req) */
    /* gdb watchpoints (only called while m->debug has watchpoints): check
     * every byte range complete() will read or write with nx_debug_wp_find
     * and, on a match, nx_debug_watch_stop(m, w, true) and return true; the
     * engine then holds the request at the head of its queue, its cost paid,
     * and completes it on the next advance without checking again.  NULL:
     * the request's accesses are only seen by the access hook (after). */
    bool (*watch)(Machine *m, DmaRequest *req);
    bool watch_passed; /* reported before its completion: not again */
    void *priv;
    /* engine bookkeeping */
    uint64_t cost, done;
};

typedef struct DmaController DmaController;

typedef struct DmaEngine {
    Machine *m;
    const DmaController *dc; /* timing parameters */
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
    /* Doorbell record validation: seq_dma_request_from_record, replaceable
     * by unit tests. */
    uint32_t (*from_record)(Machine *m, const uint8_t rec[64], DmaRequest **req);
};

void dma_init(DmaController *dc, Machine *m, unsigned engines, unsigned depth, uint32_t bpc,
              uint32_t latency);
void dma_destroy(DmaController *dc);
bool dma_queue_full(const DmaEngine *e);
/* Enqueue (caller checked dma_queue_full); computes req->cost. */
void dma_push(DmaEngine *e, DmaRequest *req);
/* Advance every engine by q cycles in ascending order, applying completions
 * in order.  Returns the number of requests completed. */
unsigned dma_advance(DmaController *dc, uint64_t q);
/* Requests queued on any engine. */
unsigned dma_pending(const DmaController *dc);
/* Cycles until the earliest completion if no one adds work (fast-forward). */
uint64_t dma_next_completion(const DmaController *dc);

#endif
