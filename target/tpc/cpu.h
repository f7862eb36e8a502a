/*
 * TPC core state and the internal interfaces of its executor (tpc.md §1,
 * §6).  One TpcCpu per TPC, owned by the Machine; nothing here is global.
 *
 * Execution of a bundle is split in two (tpc.md §6.1): every slot first
 * reads its sources and computes its results into a private TpcSlotOut
 * (nothing architectural changes), then, if no slot faulted, the outputs are
 * committed in slot order LD, SPU, VPU, ST.  That gives VLIW
 * read-before-write and precise faults without copying the register file.
 *
 * gdb register numbering (gdb_read_reg / gdb_write_reg), little-endian:
 *   0..35    S0..S35            4 bytes
 *   36..51   SP0..SP15          1 byte (0 or 1)
 *   52..91   V0..V39            256 bytes
 *   92..107  VP0..VP15          32 bytes (bit j = vector byte j, tpc.md §1.1)
 *   108..139 I0..I31            20 bytes (dims 0..4, int32 each)
 *   140..147 AD0..AD7           8 bytes (PA; the attributes are not shown)
 *   148      pc                 4 bytes (byte offset from KERNEL_BASE)
 *
 * get_pc and disas use the same PC space: byte offsets from the launched
 * KERNEL_BASE (disas reads the bundle at KERNEL_BASE + addr).
 */
#ifndef TARGET_TPC_CPU_H
#define TARGET_TPC_CPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <glib.h>

#include "nxemu/cpu.h"
#include "nxemu/machine.h"
#include "nxemu/debug.h"
#include "nxemu/tpc-port.h"
#include "target/tpc/insn.h"
#include "target/tpc/jit-abi.h"
#include "target/tpc/race.h"
#include "target/tpc/timing.h"
#include "target/tpc/vlane.h"

#define TPC_NR_S        36
#define TPC_NR_SP       16
#define TPC_NR_V        40
#define TPC_NR_VP       16
#define TPC_NR_I        32
#define TPC_NR_AD       8
#define TPC_VBYTES      256
#define TPC_VPBYTES     32
#define TPC_SLM_SIZE    1024u
#define TPC_VLM_SIZE    (80u * 1024u)
#define TPC_VLM_SMALL   (16u * 1024u)
#define TPC_LOOP_MAX    4
#define TPC_BUNDLE      32u
#define TPC_DCACHE_SIZE 256

enum {
    TPC_GDB_S = 0,
    TPC_GDB_SP = 36,
    TPC_GDB_V = 52,
    TPC_GDB_VP = 92,
    TPC_GDB_I = 108,
    TPC_GDB_AD = 140,
    TPC_GDB_PC = 148,
    TPC_GDB_NREGS = 149,
};

/* Rounding-mode codes (tpc.md §5.0.4). */
enum {
    TPC_RM_RHNE = 0,
    TPC_RM_RZ = 1,
    TPC_RM_RU = 2,
    TPC_RM_RD = 3,
    TPC_RM_SR = 4,
    TPC_RM_DEFAULT = 5,
    TPC_RM_RHAZ = 6,
};

typedef struct TpcAddrReg {
    uint64_t pa;
    uint8_t esize; /* 1, 2 or 4 */
    uint8_t tensor;
} TpcAddrReg;

typedef struct TpcLoopFrame {
    uint32_t body, end; /* byte offsets of the first and last body bundle */
    int32_t bound, step;
    uint8_t depth; /* iterator is S[32 + depth] */
    uint8_t cmp;
    bool once;
} TpcLoopFrame;

/* A LOOP decision waiting for its delay slot (tpc.md §6.3). */
typedef struct TpcLoopPending {
    bool active;
    bool push;        /* enter the body (push frame) or skip to exit_pc */
    uint32_t exit_pc; /* A + O + 32 */
    TpcLoopFrame frame;
} TpcLoopPending;

/* Kinds of staged register writes. */
enum {
    TPC_WR_S,
    TPC_WR_SP,
    TPC_WR_V,  /* data: one of the slot's vector buffers */
    TPC_WR_VP, /* data: the slot's predicate buffer */
    TPC_WR_I,  /* dims in mask */
    TPC_WR_AD,
    TPC_WR_SCARRY,
    TPC_WR_VCARRY,
};

/* A tensor descriptor (tpc.md §3.1), parsed. */
typedef struct TpcTensor {
    uint64_t base;
    uint32_t padding;
    uint32_t config;
    unsigned esize;
    unsigned valid_mask;
    uint32_t size[5];
    int32_t stride[5];
} TpcTensor;

typedef struct TpcWrite {
    uint8_t kind, idx, mask, buf;
    uint32_t val;
    int32_t dims[5];
    TpcAddrReg ad;
} TpcWrite;

typedef struct TpcCpu TpcCpu;
typedef struct TpcSlotOut TpcSlotOut;
/* Execute function of one slot instruction (named tpc_exec_<slot>_<name> by
 * the insn-*.def rows): reads sources, writes results only into *o.
 * Returns false with c->fault set on a fault. */
typedef bool (*TpcExecFn)(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o);

/* Memory side effects of the store slot, applied at commit after every
 * address has been checked (so a fault leaves memory untouched). */
enum {
    TPC_MW_NONE,
    TPC_MW_SLM,    /* off, val */
    TPC_MW_CFG,    /* off, val */
    TPC_MW_VLM,    /* off, len, data (byte-gated by bmask) */
    TPC_MW_GLOBAL, /* pa, len (1..4), val */
    TPC_MW_TENSOR, /* lane list */
    TPC_MW_ASO,    /* val = +1 / -1 */
};

typedef struct TpcMemWrite {
    uint8_t kind;
    uint8_t esize;
    bool rmw;
    bool contig;   /* tensor: lanes are consecutive elements */
    bool all_en;   /* tensor: every lane enabled, lane_en is not filled */
    bool bit_en;   /* tensor VPRF store: lane_en[i] is the mask of the bits of byte i */
    uint8_t *host; /* tensor, contig && !rmw: host bytes of the span, or NULL */
    uint8_t rmw_dt, rmw_op;
    int8_t tensor;          /* tensor: its number for the race report (-1: none) */
    uint32_t off, len, val; /* tensor: off = element shift of the lanes */
    uint64_t pa;
    /* tensor stores: lane j is written at pa + (j - off) * lane_step */
    int64_t lane_step;
    uint8_t lane_en[TPC_VBYTES]; /* per register byte: nonzero = write it */
    uint8_t data[TPC_VBYTES];
    /* tensor stores: the register image (data, or a V register's buffer,
     * which no commit changes, see TpcCpu.v) */
    const uint8_t *src;
    unsigned lane_lo, nlanes; /* register lanes lane_lo..lane_lo+nlanes-1 */
} TpcMemWrite;

struct TpcSlotOut {
    unsigned nw;
    TpcWrite w[6];
    /* result buffers, swapped with the V registers at commit (TpcCpu.v) */
    uint8_t *vbuf[2];
    uint8_t vpbuf[TPC_VPBYTES];
    uint8_t vcarry[TPC_VPBYTES];
    /* control flow requested by the slot (SPU jumps, HALT) and LFSR reads;
     * the four flags are adjacent so that one store clears them */
    bool halt;
    bool jump;
    bool lfsr_s_read, lfsr_v_read;
    uint32_t jump_pc;
};

typedef struct TpcDCacheEntry TpcDCacheEntry;
/* Direct executor of one slot of dc's bundle (cpu-direct.c); span: its
 * prepared tensor span. */
typedef void (*TpcDirectFn)(TpcCpu *c, const TpcDCacheEntry *dc, const TpcInsn *in,
                            const uint8_t *span);

struct TpcDCacheEntry {
    bool valid;
    uint64_t gen; /* TpcCpu.code_gen when the bytes were last compared */
    /* ... with the bytes at this PC: entries are shared by every PC of one
     * index modulo TPC_DCACHE_SIZE, so a kernel longer than the cache
     * would otherwise run another PC's bundle without a compare */
    uint32_t gen_pc;
    /* direct plan (cpu-direct.c): slots in a read-before-write-safe order */
    bool direct;
    uint8_t nprep, dprep[4]; /* plan steps with a tensor span to prepare */
    bool dstore;             /* the plan stores (st_tnsr: TpcExec.st_host) */
    TpcDirectFn dfn[4];      /* per step: a direct executor or run_staged */
    const TpcInsn *din[4];   /* per step: its slot's instruction (in b) */
    TpcExecFn dexec[4];      /* per slot: the executor run_staged runs */
    TpcVlFn vfn;             /* the VPU slot's lane loop (run_vpu_vl) */
    uint8_t vbc;             /* its scalar B's broadcast (TpcExec.vbcast) */
    TpcVlFn lfn;             /* the LD slot's register fill (run_ld_tnsr) */
    /* for loop plans' span hoisting (loop-plan.c loop_hoist): no step
     * writes an SP register and every IRF write is an in-place int5 ADD or
     * a SET_INDX of a scalar that is an immediate or an S register (in
     * dadd_s, dset_s: cpu-direct.c hoist_form); dws: the S registers the
     * steps write */
    bool dhoist;
    uint64_t dws, dadd_s, dset_s;
    uint8_t raw[TPC_BUNDLE];
    TpcBundle b;
    /* executor's view, derived from b at decode: the slots that execute
     * (in slot order) and their functions, so NOPs cost nothing */
    uint8_t nact;
    uint8_t act[4];
    bool spu_jmp; /* SPU slot is a jump (illegal in a LOOP delay slot) */
    /* Writes per slot of the last execution found free of bundle conflicts.
     * Register destinations are fixed by the encoding and a slot writes all
     * of them or (predicated off) a subset, so an execution whose slots write
     * no more than these cannot conflict and skips the check. */
    uint8_t clean_nw[4];
    TpcExecFn fn[4];
};

/* A scalar broadcast to every lane: the element val of e bytes (e 0: none
 * yet) in each lane of img. */
typedef struct TpcBcast {
    uint8_t img[TPC_VBYTES];
    uint32_t val;
    unsigned e;
} TpcBcast;

/* What a TPC keeps to run fast, apart from its architectural state
 * (TpcState): the decode cache, the fetch window and code generation, the
 * parsed descriptors and host spans of the tensor fast paths, and the
 * staging of the bundle being executed.  Everything here is derived from
 * the state and memory and is rebuilt or revalidated as it is used; gdb
 * and the trace read only TpcState.  (The V registers and the slots'
 * result buffers share TpcState.vstore: a commit swaps pointers.) */
typedef struct TpcExec {
    /* Decoded bundles, direct-mapped by PC and validated by their bytes,
     * so code written by anyone is never stale and nothing must be
     * invalidated. */
    TpcDCacheEntry dcache[TPC_DCACHE_SIZE];

    /* Host bytes of PCs [code_lo, code_hi) for fetch, refreshed at every
     * tpc_cpu_step call (the memory map and the access hook only change
     * between scheduler slices) and dropped after a TPC write to a device.
     * Only a lookup cache: fetched bytes are still compared with dcache. */
    const uint8_t *code_host;
    uint32_t code_lo, code_hi;

    /* The launched kernel's pages are marked as code (as_mark_code), so any
     * write to them bumps code_gen (tpc_code_write_hook) and clears the
     * marks; while code_marked, a decoded bundle compared at the current gen
     * and at this PC needs no byte compare.  After a write, bundles are
     * compared at every fetch until the next launch. */
    uint64_t code_gen;
    bool code_hooked, code_marked;

    /* Parsed tensor descriptors, valid while tdesc_gen[t] == *port.kv_gen + 1
     * (every CFG write bumps kv_gen, so a stale one is never used). */
    TpcTensor tdesc[16];
    uint64_t tdesc_gen[16];
    /* per descriptor, for tpc_tensor_fast_span: byte strides and sizes with
     * invalid dims neutral (stride 0, size 2^32), and the last dim-0
     * coordinate of a whole in-bounds register (-1: no fast path) */
    struct {
        int64_t bstride[5];
        uint64_t size[5];
        int64_t last0;
        unsigned ndims; /* 1 + the highest valid dim (1 when only dim 0 or none) */
    } tfast[16];
    /* last RAM spans of fast tensor loads and stores (software TLB), each
     * with vlim: the offsets from its start at which a whole register
     * fits (0: none), so a hit costs one compare and the generation's */
    struct TpcVSpan {
        MemHostSpan s;
        uint64_t vlim;
    } rspan, wspan;
    bool nt_stores; /* non-temporal stores since the last fence (tensor.c) */

    /* staging of the bundle being executed */
    TpcSlotOut out[4];
    TpcMemWrite mw;
    /* the store of a direct bundle (cpu-direct.c run_st_tnsr): a fast
     * span and the V image it gets, committed after the bundle's steps */
    uint8_t *st_host;
    const uint8_t *st_src;
    /* scalar operands broadcast to every lane (cpu-direct.c vl_src_b), one
     * image per S register and one for immediates: a GEMM tile's MACs read
     * 16 of them */
    TpcBcast vbcast[TPC_NR_S + 1];
    /* the VP-masked stencils' lane masks (jit.c), each with the VP bytes
     * it was built from.  (These two caches, true to their keys, sit
     * together: a stretch's rollback, stretch.c, does not copy them.) */
    TpcJitMask jvpm[TPC_NR_VP];

    /* which path ran the bundles (-d stats, nxemu-tpc-run --stats): direct
     * bundles since creation (staged ones: parent.retired - direct_total);
     * host nanoseconds in tpc_cpu_step while time_host */
    uint64_t direct_total;
    uint64_t loop_total;  /* of them, run by loop plans (loop-plan.c) */
    uint64_t hoist_total; /* of those, with the tensor spans hoisted */
    /* the block compiler (jit.c): 0 off, 1 on (NXEMU_TPC_JIT=on), 2 on
     * for every body it can compile (=all, tests), its arena and bodies,
     * and the bundles its compiled bodies ran (in loop_total) */
    uint8_t jit_on;
    struct TpcJit *jit;
    uint64_t jit_total;
    TpcJitRun jrun; /* the running body's budget and loop (jit-abi.h) */
    /* the last two bodies the compiler declined (an inner loop's and its
     * outer one's), not asked again in this code generation (a staged
     * bundle in one would cost quant 64 host instructions a bundle) */
    uint32_t jit_no_body[2], jit_no_end[2];
    uint64_t jit_no_gen[2];
    uint8_t jit_no_next;
    /* the last loop body found without a plan, not looked at again in
     * this code generation (loop-plan.c) */
    uint32_t lp_fail_body, lp_fail_end;
    uint64_t lp_fail_gen;
    bool time_host;
    uint64_t host_ns;

    /* -coverage alone: per decode-cache entry, its executions by the direct
     * loop, loop plans and compiled bodies not yet handed to the trace
     * (tpc_cov_flush) and whether it is listed in cov_dirty, the entries
     * with counts.  (Beside the cache, not in its entries: two fields more
     * in each entry cost lrelu's direct loop 21 host instructions a bundle.) */
    uint64_t cov_n[TPC_DCACHE_SIZE];
    bool cov_listed[TPC_DCACHE_SIZE];
    uint16_t cov_dirty[TPC_DCACHE_SIZE];
    unsigned ncov_dirty;

    /* gdb breakpoints of this TPC for the direct loop's per-bundle check
     * (nx_debug_cpu_breakpoints, refreshed every slice) */
    int nbp;
    uint32_t bp_pc[8];
} TpcExec;

/* The architectural state of a TPC (tpc.md §1, §7.2): what a snapshot, gdb
 * or reverse execution must keep, and nothing that only makes the core run
 * fast.  The members are listed once, in state.def, and named twice in
 * TpcCpu: one by one (c->pc, c->s[i]: the executors' spelling) and as the
 * whole (c->st), as Linux's struct_group() does. */
typedef struct TpcState {
#include "target/tpc/state.def"
} TpcState;

struct TpcCpu {
    NxCpu parent;
    Machine *m;
    TpcPort port; /* the configuration space (nxemu/tpc-port.h), a copy */
    unsigned t;
    /* the race detector's log of this TPC (race.h, attached by
     * tpc_race_new); NULL: no detector, the only test an access pays */
    struct TpcRaceLog *race;
    /* in a stretch run in parallel: the slice whose pages each store to
     * RAM copies first (nxemu/worker.h nx_worker_store); NULL otherwise,
     * the only test a store pays */
    struct NxWorkerSlice *undo;
    /* what a rolled-back stretch restores (stretch.c), made at the first */
    struct TpcStretch *stretch;

    /* caches, staging and tier counters: how the core runs fast, never
     * state (TpcExec).  Embedded, not allocated apart: every access of the
     * direct executors would load the pointer first (+4% host instructions
     * a bundle, bench/tpc-kernels.sh CALLGRIND=1), and one core's context
     * is no other core's already. */
    TpcExec x;

    /* -tpc-timing / -tpc-hazard-warn (timing.h): NULL while the model is off,
     * the only test the functional path pays; stall_cycles are in cycles */
    struct TpcTiming *tm;
    uint64_t stall_cycles, hazards;
    uint64_t stall_sum, hazard_sum; /* of every kernel that ended (-d stats) */

    bool strict;                 /* -tpc-strict: bundle conflicts fault */
    GHashTable *conflict_warned; /* PCs already warned about */
    void *block;                 /* the allocation c sits in, aligned (tpc_cpu_create) */
    bool watch_stop; /* the bundle stopped at a gdb watchpoint, unretired */

    uint8_t lane_id[3][TPC_VBYTES]; /* V_LANE_ID_32/16/8 images, constant */

    union {
        struct {
#include "target/tpc/state.def"
        };
        TpcState st;
    };
};
/* the members one by one lie where the whole has them */
G_STATIC_ASSERT(offsetof(TpcCpu, vlm) - offsetof(TpcCpu, st) == offsetof(TpcState, vlm));

static inline TpcCpu *tpc_cpu(NxCpu *c)
{
    return (TpcCpu *)c;
}

/* The core of TPC t of a machine (NULL if absent). */
TpcCpu *tpc_cpu_of(Machine *m, unsigned t);

/* -tpc-strict (tpc.md §6.1): two slots writing one register fault
 * BUNDLE_CONFLICT instead of warning.  Applies to every TPC of m. */
void tpc_cpu_set_strict(Machine *m, bool strict);

/* Faster executors of ld_tnsr/st_tnsr's common form for the staged path,
 * chosen once at decode (exec-ld.c, exec-st.c); NULL: the table's. */
TpcExecFn tpc_ld_quick(const TpcInsn *in);
TpcExecFn tpc_st_quick(const TpcInsn *in);
/* The IRF ADD with a scalar, a form with a direct executor (cpu-direct.c;
 * exec-spu.c, next to its general executor). */
bool tpc_spu_irf_add_form(const TpcInsn *in);
/* Whether fn is the SPU's arithmetic, logic or compare executor
 * (exec-spu.c spu_arith, spu_cmp: the block compiler's SPU stencils). */
bool tpc_exec_is_spu_alu(TpcExecFn fn);

/* 32-byte equality without a libc call. */
static inline bool tpc_bundle_eq(const uint8_t *a, const uint8_t *b)
{
    uint64_t x[4], y[4];
    memcpy(x, a, TPC_BUNDLE);
    memcpy(y, b, TPC_BUNDLE);
    return ((x[0] ^ y[0]) | (x[1] ^ y[1]) | (x[2] ^ y[2]) | (x[3] ^ y[3])) == 0;
}

/* One bundle through the general (staged) path, false when the core stopped;
 * the loop bookkeeping after the bundle at e completed (cpu.c). */
bool tpc_step_one(TpcCpu *c);
uint32_t tpc_loop_end_checks(TpcCpu *c, uint32_t e, uint32_t next);
/* A taken JMPR/JMPA (tpc.md §6.2): pc = target, and the loops whose body
 * does not contain it are left (both paths). */
void tpc_jump_to(TpcCpu *c, uint32_t target);

/* Direct execution of plain bundles (cpu-direct.c): plan at decode, and run
 * (false: a check failed before any effect; use the general path). */
void tpc_direct_plan(TpcDCacheEntry *dc);
/* -coverage from the fast tiers (target/tpc/coverage.c): hand an entry's
 * counted executions to the trace (before its bytes change), or every
 * entry's (before a report: NxCpuTraceOps.flush_counts) */
void tpc_cov_flush_entry(TpcCpu *c, TpcDCacheEntry *dc);
void tpc_cov_flush(TpcCpu *c);
void tpc_cov_flush_counts(NxCpu *cpu);
/* Count n executions of dc's bundle (the direct loop, loop plans). */
static inline void tpc_cov_note(TpcCpu *c, TpcDCacheEntry *dc, uint64_t n)
{
    unsigned i = (unsigned)(dc - c->x.dcache);
    if (!c->x.cov_listed[i]) {
        c->x.cov_listed[i] = true;
        c->x.cov_dirty[c->x.ncov_dirty++] = (uint16_t)i;
    }
    c->x.cov_n[i] += n;
}

/* tpc_cpu_step's loop while nothing observes single bundles */
uint64_t tpc_run_quiet(TpcCpu *c, uint64_t max_bundles);
/* The block compiler (jit.c, jit.h): NXEMU_TPC_JIT's level, "on" 1
 * (bodies the loop plans would not run faster), "all" 2 (every body it
 * can: the tests), else 0, and 0 without stencils for this host
 * (tpc_jit_available); a core's arena and bodies freed. */
unsigned tpc_jit_enabled(void);
void tpc_jit_free(TpcCpu *c);
/* At a stretch's start, keep what the compiler must find again if the
 * stretch is rolled back; put it back (had: a compiler existed at the
 * start), after the decode-cache entries (stretch.c). */
void tpc_jit_keep(TpcCpu *c);
void tpc_jit_back(TpcCpu *c, bool had);
/* A TPC's part in a stretch run in parallel (stretch.c): its
 * NxCpuOps.stretch_* hooks (nxemu/cpu.h, softmmu/sched-threads.c), and its
 * snapshot freed.  (Declared here, not in a header of stretch.c's own, so
 * that cpu.c and stretch.c do not include each other.) */
void tpc_stretch_begin(NxCpu *cpu);
/* Before the stretch's first change of decode-cache entry e, or of the
 * VLM (called while c->undo, the stretch can be rolled back). */
void tpc_stretch_keep_entry(TpcCpu *c, unsigned e);
void tpc_stretch_keep_vlm(TpcCpu *c);
bool tpc_stretch_accesses(NxCpu *cpu, void (*emit)(void *o, uint64_t lo, uint64_t hi, bool write),
                          void *o);
bool tpc_stretch_code(NxCpu *cpu, uint64_t *lo, uint64_t *hi);
void tpc_stretch_restore(NxCpu *cpu);
void tpc_stretch_end(NxCpu *cpu);
void tpc_stretch_free(TpcCpu *c);

/* Execute at most `max_bundles` bundles (each 1 cycle) of a RUNNING core.
 * Returns the bundles executed; the core's state tells why it stopped. */
uint64_t tpc_cpu_step(TpcCpu *c, uint64_t max_bundles);

/* Record a fault in c->fault; always returns false. */
static inline bool tpc_fault(TpcCpu *c, uint32_t code, uint32_t info, uint64_t addr)
{
    return nx_fault_set(&c->fault, code, info, addr);
}

const char *tpc_fault_name(uint32_t code);
/* What the traces ask of a TPC (target/tpc/trace.c). */
extern const NxCpuTraceOps tpc_trace_ops;

/* gdb watchpoints (include/nxemu/debug.h), checked by the executors before
 * any global-memory access of the bundle: true = a watchpoint covers
 * [pa, pa+len), the executor returns false with c->fault left clear and the
 * bundle is abandoned unretired (pc stays on it, nothing committed).  One
 * predictable branch without a debugger. */
static inline bool tpc_watch_hit(TpcCpu *c, uint64_t pa, uint64_t len, bool is_write)
{
    return nx_debug_watch_hit(c->m, &c->parent, pa, len, is_write);
}

/* NxCpuOps members implemented in cpu-debug.c. */
void tpc_fault_line(NxCpu *cpu, GString *out);
int tpc_fault_signal(NxCpu *cpu);
void tpc_dump(NxCpu *cpu, GString *out);
/* NxCpuOps.stats (stats.c). */
void tpc_stats(NxCpu *cpu, GString *out);
unsigned tpc_disas(NxCpu *cpu, uint64_t addr, GString *out);
unsigned tpc_gdb_read_reg(NxCpu *cpu, unsigned n, uint8_t *buf, size_t buflen);
unsigned tpc_gdb_write_reg(NxCpu *cpu, unsigned n, const uint8_t *buf, size_t len);
/* Fill the V_LANE_ID_* images (operand.c). */
void tpc_lane_id_init(TpcCpu *c);

/* ---- element helpers ---- */
static inline unsigned tpc_type_esize(unsigned t)
{
    return tpc_type_size(t);
}

/* VPRF bit j. */
static inline unsigned tpc_vp_bit(const uint8_t *vp, unsigned j)
{
    return (vp[j >> 3] >> (j & 7)) & 1u;
}

/* Element i (size e) of a register image. */
static inline uint32_t tpc_ld_e(const uint8_t *p, unsigned i, unsigned e)
{
    if (e == 4) {
        uint32_t v;
        memcpy(&v, p + 4 * i, 4);
        return v;
    }
    if (e == 2) {
        uint16_t v;
        memcpy(&v, p + 2 * i, 2);
        return v;
    }
    return p[i];
}

static inline void tpc_st_e(uint8_t *p, unsigned i, unsigned e, uint32_t v)
{
    if (e == 4) {
        memcpy(p + 4 * i, &v, 4);
    } else if (e == 2) {
        uint16_t h = (uint16_t)v;
        memcpy(p + 2 * i, &h, 2);
    } else {
        p[i] = (uint8_t)v;
    }
}

/* ---- float helpers (fpu.c) ---- */
float tpc_f32(uint32_t bits);
uint32_t tpc_f32_bits(float f);
/* Canonicalise an arithmetic f32 result (NaN -> 0x7FC00000). */
uint32_t tpc_f32_canon(float f);
float tpc_bf16_to_f32(uint16_t b);
/* f32 -> bf16, RNE, NaN -> 0x7FC0. */
uint16_t tpc_f32_to_bf16_rne(float f);
/* Exact value of a raw element of type t. */
double tpc_elem_to_double(uint32_t raw, unsigned t, bool *is_nan);
/* CONVERT of one element: src type -> dst type by a resolved mode (never
 * DEFAULT), sr_state the stochastic bits (tpc_lane_convert). */
uint32_t tpc_convert(uint32_t raw, unsigned st, unsigned dt, unsigned rm, uint32_t sr_state);
/* Resolve rounding mode 5 through ROUND_CSR. */
unsigned tpc_resolve_rm(TpcCpu *c, unsigned rm);

/* Saturate a 64-bit integer to type t; wrap when !sat. */
uint32_t tpc_int_result(int64_t v, unsigned t, bool sat);

/* ---- tensors (tensor.c) ---- */

/* The common tensor access of compiled kernels, without the general path's
 * lane bookkeeping.  Form (checked once, at decode): a full V register, no
 * PARTIAL, LOW/HIGH, RMW, PACK or tensor id in a register, no VPRF
 * predicate. */
bool tpc_tensor_fast_form(const TpcInsn *in, const TpcOperand *vreg);
uint8_t *tpc_tensor_fast_miss(TpcCpu *c, uint64_t pa, bool store);

/* An SPRF predicate with its polarity (SP0 unpolarised: always true). */
static inline bool tpc_pred_sp(const TpcCpu *c, const TpcInsn *in)
{
    return (c->sp[in->pred & 15] ^ (in->polarity ? 1u : 0u)) != 0;
}

/* For such a form: the host bytes of the register's span when the scalar
 * predicate is true, the descriptor is cached, every lane is in bounds and
 * the elements are contiguous RAM; else NULL, and the general path decides
 * (and reports any fault).  The caller knows no watchpoint is set (the
 * direct loop runs only then, nx_debug_needs_steps). */
static inline __attribute__((always_inline)) uint8_t *tpc_tensor_span_nodebug(TpcCpu *c,
                                                                           const TpcInsn *in,
                                                                           bool store)
{
    if (!tpc_pred_sp(c, in))
        return NULL;
    unsigned t = in->b.raw & 15u;
    if (c->x.tdesc_gen[t] != *c->port.kv_gen + 1)
        return NULL;
    const int32_t *coord = c->irf[in->a.num & 31];
    const __typeof__(c->x.tfast[0]) *f = &c->x.tfast[t];
    if (coord[0] < 0 || coord[0] > f->last0)
        return NULL;
    /* modulo 2^64, as tpc_tensor_addr (no signed overflow for any operands);
     * dims from f->ndims up are invalid (neutral): a 2-D tensor costs 2 */
    uint64_t off = (uint64_t)coord[0] * (uint64_t)f->bstride[0];
    bool oob = false;
    switch (f->ndims) {
    case 5:
        off += (uint64_t)coord[4] * (uint64_t)f->bstride[4];
        oob |= (uint32_t)coord[4] >= f->size[4];
        /* fall through */
    case 4:
        off += (uint64_t)coord[3] * (uint64_t)f->bstride[3];
        oob |= (uint32_t)coord[3] >= f->size[3];
        /* fall through */
    case 3:
        off += (uint64_t)coord[2] * (uint64_t)f->bstride[2];
        oob |= (uint32_t)coord[2] >= f->size[2];
        /* fall through */
    case 2:
        off += (uint64_t)coord[1] * (uint64_t)f->bstride[1];
        oob |= (uint32_t)coord[1] >= f->size[1];
        /* fall through */
    default:
        break;
    }
    if (oob)
        return NULL;
    uint64_t pa = c->x.tdesc[t].base + off;
    tpc_race_note(c->race, pa, TPC_VBYTES, store, c->pc, (int)t);
    const struct TpcVSpan *vs = store ? &c->x.wspan : &c->x.rspan;
    uint64_t o = pa - vs->s.lo;
    if (G_LIKELY(o < vs->vlim && *vs->s.genp == vs->s.gen))
        return vs->s.host + o;
    return tpc_tensor_fast_miss(c, pa, store);
}

/* Fast tensor loads stream through memory; the host's prefetchers stop at
 * each 4 KiB page, so ask for the line pair four registers ahead.  A
 * prefetch never faults nor counts as an access: one past the end of the
 * mapping is harmless.  (bench/tpc-stream: about 10% faster.) */
static inline void tpc_prefetch_stream(const uint8_t *span)
{
    __builtin_prefetch(span + 4 * TPC_VBYTES);
    __builtin_prefetch(span + 4 * TPC_VBYTES + 128);
}

/* Plan a whole-register store of src (a V register's buffer) into a fast
 * span, committed with the bundle's other effects (tensor.c). */
void tpc_tensor_plan_span(TpcCpu *c, uint8_t *span, const uint8_t *src);
/* What committing that plan does (the direct path, which keeps its one
 * store's span and source itself: TpcExec.st_host, st_src). */
void tpc_tensor_store_span(TpcCpu *c, uint8_t *span, const uint8_t *src);

/* The same where the debugger may watch memory (watchpoints and reverse
 * re-execution need every access through the memory API): the staged
 * path's quick executors. */
static inline uint8_t *tpc_tensor_fast_span(TpcCpu *c, const TpcInsn *in, bool store)
{
    return G_UNLIKELY(nx_debug_watches_memory(c->m)) ? NULL
                                                     : tpc_tensor_span_nodebug(c, in, store);
}

/* Read descriptor t from CFG storage; TENSOR_CONFIG fault on a bad type. */
bool tpc_tensor_read(TpcCpu *c, unsigned t, TpcTensor *td);
/* Register lanes an ld_tnsr/st_tnsr moves: nl lanes in the register, lanes
 * [lo, lo+n) at element shift `shift`. */
typedef struct TpcTnsrLanes {
    unsigned nl, lo, n;
    int shift;
} TpcTnsrLanes;
/* The tensor id of LD_TNSR* and ST_TNSR*: the switch's S register (id_reg:
 * S27 loads, S28 stores) or the immediate. */
unsigned tpc_tensor_id(const TpcCpu *c, const TpcInsn *in, unsigned id_reg);
/* Descriptor t's base address, read without validating it. */
uint64_t tpc_tensor_base(const TpcCpu *c, unsigned t);
/* The tensor and lane window of ld_tnsr/st_tnsr (half: 0 full, 1 low, 2 high):
 * tensor id from S[id_reg] when SW bit 3 is set, else SRC_B; a full-width
 * access with SW bit 0 takes offset/count from S[os_reg]. */
bool tpc_tensor_lanes(TpcCpu *c, const TpcInsn *in, bool vp, unsigned half, unsigned id_reg,
                      unsigned os_reg, TpcTensor *td, TpcTnsrLanes *w);
/* Element address of coordinates c (no bounds check). */
uint64_t tpc_tensor_addr(const TpcTensor *td, const int32_t c[5]);
/* True when every valid dim except dim 0 is in bounds. */
bool tpc_tensor_in_bounds_hi(const TpcTensor *td, const int32_t c[5]);
/* True when coordinate x of dim 0 is in bounds (or dim 0 is not valid). */
bool tpc_tensor_in_bounds_d0(const TpcTensor *td, int64_t x);

/* Vector tensor access: register lanes [lo, lo+n) <-> elements c[0]+k
 * (k = lane - lo + elem_lo).  en: per-byte gate (VPRF predicate; NULL = all).
 * td: the descriptor as read by tpc_tensor_read.  Loads write the touched
 * lanes into dst; stores plan into c->x.mw. */
bool tpc_tensor_load(TpcCpu *c, const TpcTensor *td, const int32_t coord[5], bool vp_dst,
                     unsigned lo, unsigned n, int elem_shift, const uint8_t *en, uint8_t *dst);
bool tpc_tensor_store_plan(TpcCpu *c, const TpcTensor *td, const int32_t coord[5], bool vp_src,
                           unsigned lo, unsigned n, int elem_shift, const uint8_t *en,
                           const uint8_t *src, bool rmw, uint32_t rmw_ctl);
void tpc_tensor_store_commit(TpcCpu *c, const TpcMemWrite *mw);
/* Is every lane of the staged tensor store plain RAM outside marked code
 * (a worker thread may commit it: nxemu/worker.h)? */
bool tpc_tensor_store_in_ram(TpcCpu *c, const TpcMemWrite *mw);

/* Checking mode (NxCpu.check): report an access of tensor t at coord
 * that has no element inside the tensor ("ld_tnsr", "st_tnsr",
 * "gen_addr"); dim0_only: every other dim is inside.  td may be NULL (then
 * t's descriptor is read). */
void tpc_check_tensor(TpcCpu *c, int t, const TpcTensor *td, const int32_t coord[5],
                      bool dim0_only, const char *what);

/* Global memory, requester MEM_REQ_TPC. */
bool tpc_global_read(TpcCpu *c, uint64_t pa, void *buf, unsigned len);
bool tpc_global_check(TpcCpu *c, uint64_t pa, unsigned len);
void tpc_global_write(TpcCpu *c, uint64_t pa, const void *buf, unsigned len);

/* ---- exec functions (exec-*.c), one per executing .def row ---- */
#define TPC_EXEC_PROTO(slot, name)                                                                 \
    bool tpc_exec_##slot##_##name(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o);
#define TPC_LD(opc, name, f, t, s, fl) TPC_EXEC_PROTO(ld, name)
#include "target/tpc/insn-ld.def"
#define TPC_SPU(opc, name, f, t, s, fl) TPC_EXEC_PROTO(spu, name)
#include "target/tpc/insn-spu.def"
#define TPC_VPU(opc, name, f, t, s, fl) TPC_EXEC_PROTO(vpu, name)
#include "target/tpc/insn-vpu.def"
#define TPC_ST(opc, name, f, t, s, fl) TPC_EXEC_PROTO(st, name)
#include "target/tpc/insn-st.def"
#undef TPC_EXEC_PROTO

/* The full, _low and _high exec functions of a vector load/store row, all
 * calling fn(c, b, in, o, half) with half 0 full, 1 low, 2 high. */
#define TPC_EXEC_HALVES(slot, name, fn)                                                            \
    bool tpc_exec_##slot##_##name(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o) \
    {                                                                                              \
        return fn(c, b, in, o, 0);                                                                 \
    }                                                                                              \
    bool tpc_exec_##slot##_##name##_low(TpcCpu *c, const TpcBundle *b, const TpcInsn *in,          \
                                        TpcSlotOut *o)                                             \
    {                                                                                              \
        return fn(c, b, in, o, 1);                                                                 \
    }                                                                                              \
    bool tpc_exec_##slot##_##name##_high(TpcCpu *c, const TpcBundle *b, const TpcInsn *in,         \
                                         TpcSlotOut *o)                                            \
    {                                                                                              \
        return fn(c, b, in, o, 2);                                                                 \
    }

/* ---- operand access shared by the exec files ---- */

/* Staging helpers: queue a register write of the current slot. */
static inline TpcWrite *tpc_out_w(TpcSlotOut *o, unsigned kind, unsigned idx)
{
    TpcWrite *w = &o->w[o->nw++];
    w->kind = (uint8_t)kind;
    w->idx = (uint8_t)idx;
    w->mask = 0;
    w->buf = 0;
    return w;
}

static inline void tpc_out_s(TpcSlotOut *o, unsigned idx, uint32_t v)
{
    tpc_out_w(o, TPC_WR_S, idx)->val = v;
}

static inline void tpc_out_sp(TpcSlotOut *o, unsigned idx, bool v)
{
    tpc_out_w(o, TPC_WR_SP, idx)->val = v;
}

/* Queue vbuf[buf] as the new value of V idx. */
static inline void tpc_out_v(TpcSlotOut *o, unsigned idx, unsigned buf)
{
    tpc_out_w(o, TPC_WR_V, idx)->buf = (uint8_t)buf;
}

static inline void tpc_out_vp(TpcSlotOut *o, unsigned idx)
{
    tpc_out_w(o, TPC_WR_VP, idx);
}

/* -d in_asm / exec line of the bundle raw at c->pc. */
void tpc_log_bundle(TpcCpu *c, const uint8_t *raw, const char *what);

/* Commit one slot's staged register writes (SP0 / VP0 ignore theirs):
 * the staged path after every slot ran, the direct path right after the
 * slot (cpu-direct.c). */
static inline void tpc_commit_slot(TpcCpu *c, TpcSlotOut *o)
{
    for (const TpcWrite *w = o->w, *end = o->w + o->nw; w < end; w++) {
        switch (w->kind) {
        case TPC_WR_S:
            c->s[w->idx % TPC_NR_S] = w->val;
            break;
        case TPC_WR_SP:
            if (w->idx)
                c->sp[w->idx & 15] = w->val & 1u;
            break;
        case TPC_WR_V: {
            uint8_t **r = &c->v[w->idx % TPC_NR_V], *t = *r;
            *r = o->vbuf[w->buf];
            o->vbuf[w->buf] = t;
            break;
        }
        case TPC_WR_VP:
            if (w->idx)
                memcpy(c->vp[w->idx & 15], o->vpbuf, TPC_VPBYTES);
            break;
        case TPC_WR_I: {
            int32_t *r = c->irf[w->idx & 31];
            for (unsigned mk = w->mask; mk; mk &= mk - 1) /* the masked dims only */
                r[__builtin_ctz(mk)] = w->dims[__builtin_ctz(mk)];
            break;
        }
        case TPC_WR_AD:
            c->ad[w->idx & 7] = w->ad;
            break;
        case TPC_WR_SCARRY:
            c->s_carry = w->val & 1u;
            break;
        case TPC_WR_VCARRY:
            memcpy(c->v_carry, o->vcarry, TPC_VPBYTES);
            break;
        }
    }
}

/* Scalar predicate of a slot instruction (VPRF predicates: bit 0). */
static inline bool tpc_pred_scalar(const TpcCpu *c, const TpcInsn *in)
{
    if (!in->pred_vp)
        return tpc_pred_sp(c, in);
    unsigned p = in->pred == 0 ? 1u : (c->vp[in->pred & 15][0] & 1u);
    return (p ^ (unsigned)in->polarity) != 0;
}

/* Per-byte enable mask for element size e (tpc.md §1.1): m[b] = 0xFF when
 * lane b/e runs.  Returns false when no lane runs; *all when every lane does
 * (m is then left unset). */
bool tpc_pred_mask(const TpcCpu *c, const TpcInsn *in, unsigned e, uint8_t m[TPC_VBYTES],
                   bool *all);

/* Scalar source (SRF, SPRF, immediates, S_LFSR). */
uint32_t tpc_rd_scalar_any(TpcCpu *c, const TpcBundle *b, const TpcOperand *op, TpcSlotOut *o);
/* Scalar source: SRF and the immediates inline, the rest out of line. */
static inline uint32_t tpc_rd_scalar(TpcCpu *c, const TpcBundle *b, const TpcOperand *op,
                                     TpcSlotOut *o)
{
    /* decoded register numbers are in range (tpc_decode_bundle, TpcOperand) */
    if (G_LIKELY(op->kind == TPC_OP_S))
        return c->s[op->num];
    if (op->kind == TPC_OP_IMM)
        return b->imm;
    if (op->kind == TPC_OP_SIMM)
        return op->num;
    return tpc_rd_scalar_any(c, b, op, o);
}
/* Vector source: a VRF or special register image, or an SRF/immediate
 * broadcast with element size e into tmp. */
const uint8_t *tpc_rd_vec(TpcCpu *c, const TpcBundle *b, const TpcOperand *op, unsigned e,
                          uint8_t *tmp, TpcSlotOut *o);
/* VPRF source image (32 bytes); SP sources give all bits = SP. */
const uint8_t *tpc_rd_vp(TpcCpu *c, const TpcOperand *op, uint8_t *tmp);
/* VPRF income: res = g ? res : old bit by bit, for 32 bytes. */
static inline void tpc_vp_blend(uint8_t *res, const uint8_t *old, const uint8_t *g)
{
    for (unsigned j = 0; j < TPC_VPBYTES; j++)
        res[j] = (uint8_t)((res[j] & g[j]) | (old[j] & ~g[j]));
}
/* Merge: dst = m ? res : old, for 256 bytes. */
void tpc_merge(uint8_t *res, const uint8_t *old, const uint8_t *m);
/* IRF/ADRF instructions present in several slots (exec-ld.c); dst is the
 * operand naming the destination register (DEST or, in the store slot, C). */
bool tpc_do_gen_addr(TpcCpu *c, const TpcInsn *in, const TpcOperand *dst, TpcSlotOut *o);
bool tpc_do_prmt_indx(TpcCpu *c, const TpcInsn *in, const TpcOperand *dst, TpcSlotOut *o);
bool tpc_do_set_indx(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, const TpcOperand *dst,
                     unsigned mask, TpcSlotOut *o);
/* SLM/CFG word and VLM address checks (alignment, then range). */
bool tpc_check_local32(TpcCpu *c, uint32_t a, bool mmio);
bool tpc_check_vlm(TpcCpu *c, uint32_t a, unsigned len, unsigned align);
/* Lane arithmetic shared by the SPU and the VPU (exec-alu.c).  op is the
 * common SPU/VPU opcode (TPC_OPC_SPU_mac .. _ash); values are raw elements of
 * type t in the low 8E bits; d is the old destination (MAC).  *carry: in =
 * carry-in (ADD carry switch), out = unsigned carry out. */
uint32_t tpc_alu(unsigned op, unsigned t, uint32_t a, uint32_t b, uint32_t d, unsigned sw,
                 unsigned *carry);
/* The element function of lane-ops.def for (slot, op, t, sw) (slot
 * TPC_SLOT_SPU or TPC_SLOT_VPU), or NULL: integer ADD (tpc_lane_int_add,
 * its carries) and the register-pair forms are not rows. */
uint32_t (*tpc_alu_fn(unsigned slot, unsigned op, unsigned t, unsigned sw))(uint32_t, uint32_t,
                                                                            uint32_t);
/* CMP_EQ (0x09) .. CMP_GEQ (0x0E) relation, also used by SEL/SEL2 with the
 * SEL opcodes mapped onto it. */
bool tpc_alu_cmp(unsigned op, unsigned t, uint32_t a, uint32_t b, bool mask_eq_zero);
/* Sign/zero extension of a raw element to 32 bits (scalar results). */
uint32_t tpc_ext32(uint32_t v, unsigned t);
/* Operand error: ILLEGAL_OPERAND for slot/field/value. */
bool tpc_bad_operand(TpcCpu *c, unsigned slot, unsigned field, const TpcOperand *op);

#endif
