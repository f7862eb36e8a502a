/*
 * What a sequencer core sees of the board (docs/architecture.rst, "Layers"):
 * its registers (SeqRegs, the part of the NX block it executes on), its
 * address translation and own-block window, the semaphores and events it
 * waits on and updates, and its DMA engine, as a narrow port the board fills in (hw/nc2/nx.c
 * nx_seq_port) and hands to seq_cpu_create.
 * target/seq never includes a board header; the board never includes a
 * target header.
 *
 * Reads the run loop makes on every wait (semaphore and event values) go
 * straight to board storage through const pointers; every effect is a call,
 * so the board keeps its invariants (change counters, logging, observers).
 */
#ifndef NXEMU_SEQ_PORT_H
#define NXEMU_SEQ_PORT_H

#include <stdbool.h>
#include <stdint.h>

#include <glib.h>

#include "nxemu/cpu.h"
#include "nxemu/dma-req.h"
#include "nxemu/fault.h"
#include "nxemu/memory.h"

/* Window 0 of the Neuron view: the core's own NX block (machine.md §2). */
#define SEQ_LOCAL_BASE  0x100000u
#define SEQ_LOCAL_BYTES 0x840u

/* Semaphores and events: what an 8-bit index of a wait or update names.
 * Architecture, so here; hw/nc2/evsem.c ties the board's arrays to them. */
#define SEQ_NR_SEMAPHORES 256u
#define SEQ_NR_EVENTS     256u

/* STATUS[11:8] block reasons (machine.md §3) */
enum { NX_BLOCK_NONE = 0, NX_BLOCK_WAIT = 1, NX_BLOCK_DRAIN = 2, NX_BLOCK_DMAQ = 3 };

/* What a translation is for (permission checks, machine.md §2.2). */
typedef enum NxAccess { NX_ACC_FETCH, NX_ACC_READ, NX_ACC_WRITE } NxAccess;

/* One notification queue's registers (machine.md §3). */
typedef struct NxQueue {
    uint64_t base;
    uint32_t size, head, tail, overflow;
} NxQueue;

/* The registers of the NX block the core executes on.  The board stores
 * them (its MMIO view reads and writes the same words); the core reaches
 * them through SeqPort.regs, one pointer as before the split, so the run
 * loop costs the same. */
typedef struct SeqRegs {
    uint32_t r[64];
    uint64_t pc; /* during execution: the executing instruction's address */
    uint32_t block_reason;
    uint64_t wt_base; /* 0: translation off (identity, machine.md §2.1) */
    uint32_t dma_engine;
    uint64_t addr_table[64];
    NxQueue nq[4];
    /* A core writing its own CONTROL: applied after the instruction retires. */
    uint32_t pending_control;
    /* Set by STOP/RESET/PC writes: the core drops its kept (blocked) record. */
    bool discard_kept;
    /* DMA requests and TPC launches of this core not yet complete (DRAIN).
     * CONTROL.RESET zeroes it (sequencer.md §8.3). */
    unsigned outstanding;
} SeqRegs;

typedef struct SeqPort {
    void *opaque; /* the board's per-core object, first argument of the calls */
    SeqRegs *regs;

    /* The Neuron-address view (machine.md §2): window 0 gives *local = true
     * and *pa = a (the own block; anything else there is BUS_ERROR), other
     * windows identity when wt_base == 0, else through the TLB. */
    bool (*translate)(void *opaque, uint64_t a, NxAccess acc, uint64_t *pa, bool *local,
                      NxFault *f);
    /* The same for a debugger: no TLB, statistics or permission checks;
     * window 0 is not memory: false. */
    bool (*translate_peek)(void *opaque, uint64_t a, uint64_t *pa);
    /* Own-block register access at a block offset (window 0). */
    MemTxResult (*local_read)(void *opaque, uint64_t off, unsigned size, uint64_t *val,
                              MemTxAttrs attrs);
    MemTxResult (*local_write)(void *opaque, uint64_t off, unsigned size, uint64_t val,
                               MemTxAttrs attrs);
    /* The STATUS register as the block shows it. */
    uint32_t (*status)(void *opaque);
    /* Every register to its reset value (nx_reset); state RESET. */
    void (*reset)(void *opaque);
    /* After an instruction retired: a CONTROL write the core made to itself. */
    void (*apply_pending_control)(void *opaque);
    /* One more piece of in-flight work (DRAIN); the generation to hand back
     * with it (the board's nx_work_done). */
    uint32_t (*work_begin)(void *opaque);
    /* The translation line of the register dump (-d cpu, info registers). */
    void (*dump)(void *opaque, GString *out);
    /* The translation fields of the -d stats line (docs/tracing.rst):
     * " tlb_hits=N tlb_misses=N tlb_evictions=N". */
    void (*stats)(void *opaque, GString *out);
    /* The core is going away: the block no longer refers to it. */
    void (*detach)(void *opaque, NxCpu *cpu);

    /* Semaphores and events (machine.md §4), read only here. */
    const uint32_t *sem;
    const uint8_t *evt;
    void (*sem_write)(void *opaque, unsigned i, uint32_t v);
    void (*evt_write)(void *opaque, unsigned i, bool set);
    /* An events-field update (sequencer.md §4.3) whose value is resolved. */
    void (*ev_update)(void *opaque, uint8_t mode, uint8_t idx, uint32_t value);

    /* DMA (machine.md §5): request slots, and the engine DMA_ENGINE selects
     * (the register modulo the number of engines; 0 engines: none). */
    DmaReqPool dma_pool;
    unsigned (*dma_engines)(void *opaque);
    unsigned (*dma_engine)(void *opaque);
    bool (*dma_queue_full)(void *opaque);
    /* Queue req on that engine (dma_queue_full was false). */
    void (*dma_push)(void *opaque, DmaRequest *req);
} SeqPort;

#endif
