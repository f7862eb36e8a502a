/*
 * The sequencer core (sequencer.md): its registers live in the board's NX
 * block, reached through the port (SeqRegs, nxemu/seq-port.h); this object adds what only the
 * executor needs: the decode cache, the kept record of a blocked instruction and per-attempt
 * scratch.
 *
 * Execution of one attempt follows sequencer.md §2.2:
 *   F fetch   seq_fetch()        one TLB lookup (none for a kept record)
 *   D decode  dcache fill         once per record, verdict cached by PA
 *   W wait    seq_wait_*()       a false wait blocks the core
 *   E execute handler            reads sources, resolves, checks; no side effects
 *   U update  handler + seq_u_*  wait side actions, _READ, results, _COMPLETE
 *
 * gdb register numbers (gdb_read_reg / gdb_write_reg):
 *   0..63  r0..r63            4 bytes
 *   64     pc                 8 bytes
 *   65     status             4 bytes (read only)
 *   66     fault_code         4 bytes (read only)
 *   67     fault_info         4 bytes (read only)
 *   68     fault_pc           8 bytes (read only)
 *   69     fault_addr         8 bytes (read only)
 *   70     retired            8 bytes (read only)
 * Little-endian byte order; writes to read-only numbers transfer 0 bytes.
 */
#ifndef TARGET_SEQ_CPU_H
#define TARGET_SEQ_CPU_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <glib.h>

#include "nxemu/debug.h"
#include "nxemu/machine.h"
#include "nxemu/seq-port.h"
#include "target/seq/alu-ops.h"
#include "target/seq/insn.h"
#include "target/seq/jit.h"

#define SEQ_GDB_R0         0
#define SEQ_GDB_PC         64
#define SEQ_GDB_STATUS     65
#define SEQ_GDB_FAULT_CODE 66
#define SEQ_GDB_FAULT_INFO 67
#define SEQ_GDB_FAULT_PC   68
#define SEQ_GDB_FAULT_ADDR 69
#define SEQ_GDB_RETIRED    70
#define SEQ_GDB_NUM_REGS   71

#define SEQ_REC_BYTES 64

typedef struct SeqCpu SeqCpu;
typedef struct SeqDecoded SeqDecoded;

/* Outcome of one attempt. */
typedef enum SeqStatus {
    SEQ_OK = 0, /* retired; s->next_pc holds the next PC */
    SEQ_BLOCK,  /* not retired; nx->block_reason says why; record kept */
    SEQ_FAULT,  /* s->fault filled; nothing of the instruction visible */
    SEQ_DEBUG,  /* a gdb watchpoint stops it before its access: not retired */
} SeqStatus;

/* Execute function: phases E and U (W done by the caller unless the
 * decoded entry says the handler waits itself, as EVENT_SEMAPHORE does). */
typedef SeqStatus (*SeqExecFn)(SeqCpu *s, const SeqDecoded *d);

/* TENSOR_LOAD/STORE of 4-byte elements with an immediate address and no
 * events: the walk of sequencer.md §8.9 resolved at decode time
 * (exec-mem2d.c).  Offsets and strides in bytes. */
typedef struct SeqM2dPre {
    uint64_t start;         /* Neuron address of element 0 */
    int64_t s0, s1;         /* strides */
    int64_t minoff, maxoff; /* extreme element offsets from start */
    uint8_t n0, n1, n;      /* inner, outer, total */
    bool window_ok;         /* the 16 MiB window rule holds */
    bool regs_seq;          /* registers data[0] + k, k < n, all below 64 */
    uint8_t reg0;           /* data[0] & 63 */
} SeqM2dPre;

/* One pre-decoded record.  Handlers read operands from insn.rec through the
 * fields.def accessors (seq_field_get) or from pre-resolved fields; the
 * decode verdict (phase D) is cached with it so a bad record costs one
 * decode, however often it is fetched. */
struct SeqDecoded {
    /* Hot fields first: the run loop reads only these before the handler. */
    SeqExecFn fn; /* NULL when the decode faulted */
    /* SeqKind: SEQ_K_EXIT unless pure (and, in a decode page, valid);
     * SEQ_K_CALL or a form the run loop inlines. */
    uint8_t kind;
    uint16_t off;    /* in a decode page: the entry's byte offset (slot * 64) */
    bool own_wait;   /* handler evaluates the wait(s) (0xA0) */
    bool has_events; /* a wait or an update: phase U has more than results */
    bool has_debug;  /* nonzero debug_cmd/debug_hint (logged with -d debug) */
    /* The handler only reads and writes registers and next_pc (ALU, MOVE,
     * branch, NOP without events or debug fields): it cannot block, stop
     * the machine, write memory or change the core's state, so the run
     * loop's fast path runs it without the per-instruction machine checks. */
    bool pure;
    /* No wait (standard or own) and no debug field: the run loop's fast
     * path may attempt it (a pure record is always fast). */
    bool fast;
    uint8_t wait_mode; /* events field, pre-extracted */
    uint8_t wait_idx;
    uint8_t upd_mode;
    uint8_t upd_idx;
    uint32_t ev_value;
    NxFault dfault; /* phase D fault when fn == NULL */
    /* Operands resolved at decode time for the specialised execute
     * functions and the inline forms (kind). */
    union {
        struct {
            /* ALU: src0, src1, dst (low/high registers of pairs), masked;
             * branch: ra = lhs, rb = rhs register. */
            uint8_t ra, ra_hi, rb, rb_hi, rd, rd_hi;
            bool rhs_reg;   /* branch: rhs is register rb, else imm32 */
            bool tgt_rel;   /* branch: target = pc + imm, else imm */
            uint32_t imm32; /* branch: rhs immediate */
            uint64_t imm;   /* ALU: immediate operand; branch: target or offset */
        };
        SeqM2dPre m2d;
    };
    SeqInsn insn; /* seq_decode() output; insn.rec = the record bytes */
};

/* One specialised ALU_OP form (alu-ops.h) on the pre-resolved operands of
 * d: seq_alu_int with the form's constant operation, width and signedness.
 * 64-bit operands are register pairs; the low half is written first, as
 * seq_exec_alu does, so dst_lo == dst_hi keeps the high half. */
SEQ_SEM_INLINE void seq_alu_form(uint32_t *R, const SeqDecoded *d, uint8_t op, unsigned W, bool sgn,
                                 bool imm)
{
    if (W == 64) {
        uint64_t a = (uint64_t)R[d->ra_hi] << 32 | R[d->ra], r = 0;
        uint64_t b = imm ? d->imm : (uint64_t)R[d->rb_hi] << 32 | R[d->rb];
        (void)seq_alu_int64(op, sgn, a, b, &r);
        R[d->rd] = (uint32_t)r;
        R[d->rd_hi] = (uint32_t)(r >> 32);
    } else {
        uint32_t r = 0;
        (void)seq_alu_int32(op, sgn, R[d->ra], imm ? (uint32_t)d->imm : R[d->rb], &r);
        R[d->rd] = r;
    }
}

/* Is the specialised COMPARE_BRANCH form (cond, dtype) of d taken:
 * seq_br_taken with constant arguments on the pre-resolved operands. */
SEQ_SEM_INLINE bool seq_br_form_taken(const uint32_t *R, const SeqDecoded *d, uint8_t cond,
                                      uint8_t dtype)
{
    return seq_br_taken(cond, dtype, R[d->ra], d->rhs_reg ? R[d->rb] : d->imm32);
}

/* Its target when executing at pc (seq_branch_preresolve). */
static inline uint64_t seq_br_form_target(const SeqDecoded *d, uint64_t pc)
{
    return seq_br_imm_target(d->tgt_rel, pc, d->imm);
}

/* Decode cache: one page of 64 records per 4 KiB PA page. */
typedef struct SeqDPage {
    uint64_t page;  /* PA >> 12 */
    uint64_t base;  /* PA of e[0] (page << 12) */
    uint64_t valid; /* bit i: e[i] holds the record at page*4096 + 64*i */
    uint64_t fast;  /* bit i: valid and e[i].fast (the run loop's fast path) */
    uint64_t pure;  /* bit i: valid and e[i].pure (a subset of fast) */
    bool marked;    /* as_mark_code done since the last invalidation */
    SeqJitPage jit; /* compiled blocks of these records (jit.h) */
    /* e[64] is a sentinel (kind SEQ_K_EXIT, off 4096) that ends straight
     * runs at the page end. */
    SeqDecoded e[65];
} SeqDPage;

typedef struct SeqDCache {
    GHashTable *pages; /* page number -> SeqDPage* (owned) */
    SeqDPage *last;    /* most recently used page, for the straight-line case */
    uint64_t fills, invalidations;
} SeqDCache;

struct SeqCpu {
    NxCpu cpu;     /* first: SeqCpu * and NxCpu * convert both ways */
    SeqRegs *regs; /* = port.regs: the registers the core executes on */
    SeqPort port;  /* the board (nxemu/seq-port.h), a copy */
    AddressSpace *as;
    MemTxAttrs attrs;
    SeqDCache dc;
    SeqJit jit; /* the block compiler's arena (jit.h), a cache like dc */

    /* A blocked instruction keeps its fetched record (sequencer.md §2.2). */
    bool kept;
    SeqDecoded kept_rec;
    /* What blocked it, for STATUS and the deadlock line. */
    uint8_t blk_wait_mode, blk_wait_idx;
    uint32_t blk_wait_value;

    /* Cached host spans for the mem_2d fast path (exec-mem2d.c), valid
     * while the address space's generation is unchanged. */
    MemHostSpan rd_span, wr_span;

    /* Tests only: every record through the run loop's general path, the
     * reference the threaded path is compared with (test-seq-observe.c). */
    bool threaded_off;

    /* DRAIN accounting generation; bumped by reset (sequencer.md §8.3). */
    uint32_t generation;

    /* Per-attempt scratch.  next_pc is the executing PC + 64 when a handler
     * starts (both run-loop paths set it); the fast path stores nx->pc only
     * when it leaves, so pure handlers read the PC with seq_cur_pc. */
    uint64_t next_pc;
    NxFault fault;
};

/* PC of the executing instruction, for handlers (see next_pc). */
static inline uint64_t seq_cur_pc(const SeqCpu *s)
{
    return s->next_pc - 64;
}

static inline SeqCpu *seq_cpu(NxCpu *cpu)
{
    return (SeqCpu *)cpu;
}

/* The Neuron-address view through the board (SeqPort.translate); on
 * failure s->fault is filled. */
static inline bool seq_translate(SeqCpu *s, uint64_t a, NxAccess acc, uint64_t *pa, bool *local)
{
    return s->port.translate(s->port.opaque, a, acc, pa, local, &s->fault);
}

/* Own NX block access through window 0 (a = Neuron address, seq_local_ok). */
static inline MemTxResult seq_local_read(SeqCpu *s, uint64_t a, unsigned size, uint64_t *v)
{
    return s->port.local_read(s->port.opaque, a - SEQ_LOCAL_BASE, size, v, s->attrs);
}
static inline void seq_local_write(SeqCpu *s, uint64_t a, unsigned size, uint64_t v)
{
    s->port.local_write(s->port.opaque, a - SEQ_LOCAL_BASE, size, v, s->attrs);
}

/* gdb watchpoints, checked in phase E before any access is made: true =
 * abandon the instruction (return SEQ_DEBUG), pc stays on it. */
static inline bool seq_watch(SeqCpu *s, uint64_t pa, unsigned len, bool is_write)
{
    return nx_debug_watch_hit(s->cpu.m, &s->cpu, pa, len, is_write);
}

/* Little-endian field readers over a record. */
static inline uint16_t seq_le16(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}
static inline uint32_t seq_le32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return GUINT32_FROM_LE(v);
}
static inline uint64_t seq_le64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return GUINT64_FROM_LE(v);
}

/* Decode cache (dcache.c). */
/* What the traces ask of a sequencer (target/seq/trace.c). */
extern const NxCpuTraceOps seq_trace_ops;

void seq_dcache_init(SeqDCache *dc);
void seq_dcache_destroy(SeqDCache *dc);
/* The entry for PA pa (64-aligned); fills it (phase D) on a miss. */
const SeqDecoded *seq_dcache_get(SeqCpu *s, uint64_t pa, const uint8_t *bytes_if_known);
void seq_dcache_invalidate(SeqDCache *dc, uint64_t addr, uint64_t len);
/* Phase D of one record into d (used by the cache and by tests). */
void seq_decode_record(SeqDecoded *d, const uint8_t rec[SEQ_REC_BYTES]);
/* Memory API hook: a write landed on a page marked as code. */
void seq_code_write_hook(void *opaque, uint64_t addr, uint64_t len);

/* Events field (exec-events.c). */
bool seq_wait_holds(SeqCpu *s, uint8_t mode, uint8_t idx, uint32_t value);
/* Wait side action (`*_THEN_*`) of a satisfied wait. */
void seq_wait_side_action(SeqCpu *s, uint8_t mode, uint8_t idx);
/* Standard events field: W phase; on failure records the block and returns false. */
bool seq_wait_std(SeqCpu *s, const SeqDecoded *d);
/* Phase U helpers for the standard events field: side action + _READ update
 * before results, _COMPLETE update after them. */
void seq_u_pre_slow(SeqCpu *s, const SeqDecoded *d);
void seq_u_post_slow(SeqCpu *s, const SeqDecoded *d);
static inline void seq_u_pre(SeqCpu *s, const SeqDecoded *d)
{
    if (G_UNLIKELY(d->has_events))
        seq_u_pre_slow(s, d);
}
static inline void seq_u_post(SeqCpu *s, const SeqDecoded *d)
{
    if (G_UNLIKELY(d->has_events))
        seq_u_post_slow(s, d);
}
/* Value an update applies (R[V] for *_REG modes, read now). */
uint32_t seq_update_value(SeqCpu *s, uint8_t mode, uint32_t v);
void seq_block_info(NxCpu *cpu, GString *out);
/* NxCpuOps.block_cleared: the recorded wait holds now */
bool seq_block_cleared(NxCpu *cpu);
/* NxCpuOps.blocked_on_values: blocked in a wait or a DRAIN. */
bool seq_blocked_on_values(NxCpu *cpu);

/* Neuron-address helpers (exec-mem.c). */
/* Resolve the ADDR8 at rec[off] (register and table forms read now). */
uint64_t seq_addr8_resolve(SeqCpu *s, const uint8_t *a8);
static inline bool seq_addr8_is_imm(const uint8_t *a8)
{
    return (seq_field_get(a8, SEQ_F_ADDR8_MARKER) & 0xFC) == 0;
}
/* Can a `size`-byte access at PA pa succeed (width, alignment, mapping)?
 * Never has a side effect (probes MMIO with a read, which has none). */
bool seq_pa_access_ok(SeqCpu *s, uint64_t pa, unsigned size);
/* Own NX block access through window 0 (a = Neuron address). */
bool seq_local_ok(uint64_t a, unsigned size);

/* Fault helpers. */
static inline SeqStatus seq_fault(SeqCpu *s, uint32_t code, uint32_t info, uint64_t addr)
{
    nx_fault_set(&s->fault, code, info, addr);
    return SEQ_FAULT;
}

/* DMA requests (dma-req.c). */
/* Build (phase E of 0xB8/0xBB) a request from a record whose predicates
 * passed.  src/dst are the resolved start PAs.  Returns false with *f set
 * on an issue-time error (MISALIGNED, DMA_ERROR). */
bool seq_dma_build(Machine *m, const DmaReqPool *pool, const uint8_t rec[SEQ_REC_BYTES],
                   uint64_t src, uint64_t dst, DmaRequest **out, NxFault *f);
/* SBUF partition 0: where DMA_INDIRECT's ADDR4 index arrays live (the
 * sequencer's view of machine.md §1.1). */
#define SEQ_SBUF_BASE 0x2000000000ull

/* Execute functions named by insn.def. */
SeqStatus seq_exec_evsem(SeqCpu *s, const SeqDecoded *d);
SeqStatus seq_exec_halt(SeqCpu *s, const SeqDecoded *d);
SeqStatus seq_exec_drain(SeqCpu *s, const SeqDecoded *d);
SeqStatus seq_exec_iflush(SeqCpu *s, const SeqDecoded *d);
SeqStatus seq_exec_nop(SeqCpu *s, const SeqDecoded *d);
SeqStatus seq_exec_write(SeqCpu *s, const SeqDecoded *d);
SeqStatus seq_exec_notify(SeqCpu *s, const SeqDecoded *d);
SeqStatus seq_exec_move(SeqCpu *s, const SeqDecoded *d);
SeqStatus seq_exec_alu(SeqCpu *s, const SeqDecoded *d);
SeqStatus seq_exec_branch(SeqCpu *s, const SeqDecoded *d);
SeqStatus seq_exec_tensor_load(SeqCpu *s, const SeqDecoded *d);
SeqStatus seq_exec_tensor_store(SeqCpu *s, const SeqDecoded *d);
SeqStatus seq_exec_semclr(SeqCpu *s, const SeqDecoded *d);
SeqStatus seq_exec_dma_memcpy(SeqCpu *s, const SeqDecoded *d);
SeqStatus seq_exec_dma_indirect(SeqCpu *s, const SeqDecoded *d);

/* ALU core, exposed for unit tests: returns false for an unsupported
 * op/dtype pair (the decoder rejects those first). */
bool seq_alu_compute(uint8_t op, uint8_t dtype, uint64_t a, uint64_t b, uint64_t *res);
/* A specialised execute function for a common 32-bit integer ALU_OP without
 * events (the decode cache installs it), or NULL. */
SeqExecFn seq_alu_fast(const SeqInsn *in);
/* Likewise for COMPARE_BRANCH (exec-branch.c): 32-bit integer compares with
 * an immediate target and no link, or NULL. */
SeqExecFn seq_branch_fast(const SeqInsn *in);
/* The inline form of a decoded ALU_OP / COMPARE_BRANCH (SEQ_K_CALL if none;
 * the execute function seq_*_fast returns runs the same form) and the
 * operand pre-resolution both read. */
SeqKind seq_alu_kind(const SeqInsn *in);
SeqKind seq_branch_kind(const SeqInsn *in);
void seq_alu_preresolve(SeqDecoded *d);
void seq_branch_preresolve(SeqDecoded *d);
/* TENSOR_LOAD/STORE with a pre-resolved walk (d->m2d), or NULL if the
 * record does not qualify; fills d->m2d. */
SeqExecFn seq_mem2d_fast(SeqDecoded *d);

#endif
