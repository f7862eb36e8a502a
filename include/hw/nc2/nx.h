/* The sequencer's NX register block (machine.md §3): the architectural state
 * of one sequencer core, visible at Neuron 0x100000 (own) and at PA
 * 0x28_0300_0000 + n*0x1000 (everyone).  target/seq executes on the SeqRegs
 * part of it through the port nx_seq_port fills in (nxemu/seq-port.h). */
#ifndef HW_NC2_NX_H
#define HW_NC2_NX_H

#include <stdbool.h>
#include <stdint.h>

#include "hw/nc2/wtlb.h"
#include "nxemu/cpu.h"
#include "nxemu/memory.h"
#include "nxemu/seq-port.h"

typedef struct Machine Machine;

/* Register offsets */
#define NX_R0            0x000
#define NX_PC            0x100
#define NX_STATUS        0x108
#define NX_CONTROL       0x10C
#define NX_FAULT_CODE    0x110
#define NX_FAULT_INFO    0x114
#define NX_FAULT_PC      0x118
#define NX_FAULT_ADDR    0x120
#define NX_RETIRED       0x128
#define NX_WT_BASE       0x130
#define NX_WT_LEN        0x138
#define NX_TLB_ENTRIES   0x13C
#define NX_TLB_HITS      0x140
#define NX_TLB_MISSES    0x148
#define NX_TLB_EVICTIONS 0x150
#define NX_CORE_ID       0x158
#define NX_NUM_CORES     0x15C
#define NX_ENTRY         0x160
#define NX_DTB_ADDR      0x168
#define NX_VTIME         0x170
#define NX_DMA_ENGINE    0x178
#define NX_ADDR_TABLE    0x200
#define NX_NQ            0x400 /* + 0x20*q */

#define NX_CTRL_RUN       0x1u
#define NX_CTRL_STOP      0x2u
#define NX_CTRL_RESET     0x4u
#define NX_CTRL_TLB_FLUSH 0x8u

/* NX_BLOCK_* reasons, NxQueue and the registers the core executes on
 * (SeqRegs): nxemu/seq-port.h. */

typedef struct NxBlock {
    Machine *m;
    NxCpu *cpu; /* state, retired count, fault record live in the core */
    unsigned id;

    /* r[], pc, block reason, WT_BASE, DMA_ENGINE, the address table, the
     * queues, pending CONTROL, discard_kept and the DRAIN count: the words
     * the core executes on, handed to it as SeqPort.regs. */
    SeqRegs regs;
    uint32_t wt_len;
    WTlb tlb;
    uint32_t num_cores;
    uint64_t entry;
    uint64_t dtb_addr;
    /* CONTROL.RESET zeroes regs.outstanding and bumps `generation`; work
     * issued before the reset carries the old generation and no longer
     * counts (sequencer.md §8.3). */
    uint32_t generation;

    MemoryRegion alias; /* the global alias window */
} NxBlock;

void nx_init(NxBlock *nx, Machine *m, unsigned id, unsigned tlb_entries, unsigned num_cores);
void nx_destroy(NxBlock *nx);
/* Register access at a block offset; 4 or 8 bytes, naturally aligned. */
MemTxResult nx_read(NxBlock *nx, uint64_t off, unsigned size, uint64_t *val, MemTxAttrs attrs);
MemTxResult nx_write(NxBlock *nx, uint64_t off, unsigned size, uint64_t val, MemTxAttrs attrs);
/* CONTROL actions in the order RESET, TLB_FLUSH, STOP, RUN. */
void nx_control(NxBlock *nx, uint32_t bits);
/* Reset every register to its reset value (PC = ENTRY; ENTRY, CORE_ID,
 * NUM_CORES, DTB_ADDR kept), empty the TLB; state RESET. */
void nx_reset(NxBlock *nx);
/* After an instruction retired: apply a CONTROL write the core made to itself. */
void nx_apply_pending_control(NxBlock *nx);
/* Count one more piece of in-flight work (DMA request, TPC launch) issued
 * now; returns the generation to hand back to nx_work_done. */
uint32_t nx_work_begin(NxBlock *nx);
void nx_work_done(NxBlock *nx, uint32_t generation);

/* The Neuron-address view (machine.md §2): translate a for this core.
 * Window 0: *local = true and *pa = a (caller accesses the own block for
 * a in [0x100000, 0x100840), anything else is BUS_ERROR).  Window >= 1:
 * identity when WT_BASE == 0, else through the TLB. */
bool nx_translate(NxBlock *nx, uint64_t a, NxAccess acc, uint64_t *pa, bool *local, NxFault *f);
/* The same view for a debugger: the window table is read directly, so the
 * TLB, its LRU order and statistics stay untouched; no permission checks.
 * Window 0 (the own NX block) is not memory: false. */
bool nx_translate_peek(const NxBlock *nx, uint64_t a, uint64_t *pa);
/* Window 0 for a debugger: a in the own NX block [0x100000, 0x100840) is
 * the block's PA alias (*pa; *room bytes left in the block); false for
 * any other address. */
bool nx_local_peek(const NxBlock *nx, uint64_t a, uint64_t *pa, uint64_t *room);

/* The DMA engine this core's DMA instructions use: DMA_ENGINE modulo the
 * number of engines (the register keeps the value as written). */
unsigned nx_dma_engine(const NxBlock *nx);

/* The port sequencer core nx->id works through (include/nxemu/seq-port.h). */
void nx_seq_port(NxBlock *nx, SeqPort *port);

#endif
