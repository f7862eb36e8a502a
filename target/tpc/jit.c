/*
 * The TPC's block compiler (jit.h): copies stencils (jit-stencils.c, turned
 * into tpc-stencils.h by scripts/seq-stencils.py --prefix tpc) into an
 * arena per core and patches their holes, as the sequencer's (seq/jit.c).
 *
 * The unit is an innermost LOOP body whose bundles all have current direct
 * plans (cpu-direct.c): each bundle's steps in the plan's order, a VPU
 * step with a loop stencil inline (the direct path's run_vpu_vl with the
 * registers as holes; under a VPRF predicate its masked stencil, the mask
 * kept while the VP register stays), a jump's bundle followed by a branch
 * to its target's code (BR), any other step a call of its
 * direct executor, and a bundle with tensor accesses a call of
 * tpc_direct_prep_all that leaves the body before the bundle when its
 * checks fail; a body whose spans hoist has a second copy with its
 * accesses inline for the trips tpc_hoist_range checks (hoist_entry).
 * tpc_jit_loop goes round the loop as the loop plans do (the budget
 * taken per bundle, the code generation checked per trip, the loop end
 * in code or by tpc_loop_end_fast).  The arena is written between an
 * mprotect to read-write and one back to read-execute, only while no
 * compiled code runs; when full it is emptied whole with every body.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <glib.h>

#include "nxemu/trace.h"
#include "target/tpc/cpu.h"
#include "target/tpc/direct.h"
#include "target/tpc/jit.h"
#include "target/tpc/jit-lane.h"
#include "target/tpc/lane.h"
#include "target/tpc/tpc-stencils.h"
#include "target/tpc/vlane-loop.h"

#if !TPC_JIT_HAVE_STENCILS
static const TpcStencil tpc_stencils[TPC_ST_COUNT];
#endif

G_STATIC_ASSERT(TPC_VL_BYTES == TPC_VBYTES);
G_STATIC_ASSERT(sizeof(TpcJitBcast) == sizeof(TpcBcast));
G_STATIC_ASSERT(offsetof(TpcJitBcast, val) == offsetof(TpcBcast, val));
G_STATIC_ASSERT(offsetof(TpcJitBcast, e) == offsetof(TpcBcast, e));

size_t tpc_jit_arena_bytes = 1u << 20;
unsigned tpc_jit_flushes, tpc_jit_inlined;
#define TPC_JIT_BODIES  32
#define TPC_JIT_MAXBODY 256 /* bundles */
#define TPC_JIT_CALLED  32  /* mnemonics counted for --stats */
#define TPC_JIT_MAP     64  /* bodies' verdicts, by their first bundle */

typedef struct TpcJitBody {
    uint32_t body, end;
    uint64_t gen;
    unsigned depth; /* the loops open (its iterator's register) */
    bool ok;        /* compiled: entry[] is its code */
    bool jumps;     /* a bundle's SPU slot jumps (BR) */
    bool cov;       /* with jumps, compiled under -coverage: COV per bundle */
    TpcJitCtx ctx;
    const void **plan;
    uint32_t nb;
    size_t *entry;        /* per bundle, its code's offset in the arena */
    uint64_t *calls;      /* the context's counts */
    const uint8_t **span; /* and spans */
    /* hoisted trips (tpc_hoist_body: the loop plans' span hoisting): a
     * second copy of the body whose accesses use the spans checked once
     * for a range of trips, hent[] its entries; its na accesses as two
     * observed trips saw them (recorded by jit_prep while rec >= 0, the
     * trip, nrec of them so far), their host bytes and moves */
    bool hoist, hemit;
    int rec;
    unsigned na, nrec;
    TpcHoistAcc *acc;
    const uint8_t **hp;
    int64_t *hs;
    size_t *hent;
} TpcJitBody;

typedef struct TpcJitCalled {
    const TpcInsnDesc *mnem; /* its slot and mnemonic */
    uint64_t n;
} TpcJitCalled;

typedef struct TpcJit {
    uint8_t *buf;
    size_t cap, used;
    bool broken; /* no arena or no exec: the plans alone */
    bool counted; /* the last run's -coverage counts were taken per bundle */
    TpcJitBody body[TPC_JIT_BODIES];
    unsigned nbody, next; /* next: the slot a new body replaces when full */
    /* what was decided for a body, by its first bundle's PC: a compiled
     * body's slot (checked against it: slots are reused) or -1, not
     * compiled in this generation (a loop entry costs a lookup, not a
     * look at every bundle: softmax alternates between four loops) */
    struct {
        uint32_t body, end;
        uint64_t gen;
        unsigned depth;
        int idx;
    } map[TPC_JIT_MAP];
    /* calls of the direct path by mnemonic, of bodies gone */
    TpcJitCalled called[TPC_JIT_CALLED];
    /* changes of anything but the bodies' call counts, and what a stretch
     * that may be rolled back kept at its start (tpc_jit_keep) */
    uint64_t epoch;
    struct TpcJitKept *kept;
} TpcJit;

/* The compiler as a stretch found it: the bodies' call counts (they grow
 * in every trip), and, for when the stretch compiled or declined a body,
 * the map, the counts of bodies gone and each body's plan. */
typedef struct TpcJitKept {
    uint64_t epoch;
    unsigned nbody;
    uint32_t nb[TPC_JIT_BODIES];
    TpcJitCalled called[TPC_JIT_CALLED];
    uint8_t map[sizeof(((TpcJit *)0)->map)];
    const void **plan; /* the bodies' plans, one after another */
    uint64_t *calls;   /* and their counts */
    size_t cap;        /* bundles plan and calls hold */
} TpcJitKept;

/* ---- the (op, type, switches) -> stencil table, from lane-ops.def ---- */

static int16_t vtab[64][TPC_T_COUNT][8];

/* A lane-ops.def row of the slot (slot: its SLOTS name it) into table
 * tab: id for the switch values it applies to that are in mask ok (bit
 * sw), -1 for the others, where no row before took them. */
static void tab_put(int16_t tab[64][TPC_T_COUNT][8], uint8_t taken[64][TPC_T_COUNT][8], bool slot,
                    unsigned op, unsigned t, unsigned swm, unsigned swv, unsigned ok, int id)
{
    if (!slot)
        return;
    for (unsigned sw = 0; sw < 8; sw++) {
        if ((sw & swm) != swv || taken[op][t][sw])
            continue;
        taken[op][t][sw] = 1;
        tab[op][t][sw] = (int16_t)((ok >> sw) & 1u ? id : -1);
    }
}

static void vtab_put(unsigned slots, unsigned op, unsigned t, unsigned swm, unsigned swv,
                     unsigned tier, int id, uint8_t taken[64][TPC_T_COUNT][8])
{
    /* the loop tiers as vlane-impl.h's table: LA only without bit 2 */
    tab_put(vtab, taken, slots & TPC_LS_VPU, op, t, swm, swv,
            tier == 1   ? 0xFFu
            : tier == 2 ? 0x0Fu
                        : 0u,
            id);
}

/* (at start-up, as exec-alu.c's table: compiling threads only read it) */
__attribute__((constructor)) static void vtab_init(void)
{
    static uint8_t taken[64][TPC_T_COUNT][8];
    memset(vtab, 0xFF, sizeof vtab);
#define JT_TIER_L      1u
#define JT_TIER_LA     2u
#define JT_TIER_E      0u
#define JT_ID_L(n, t)  TPC_ST_##n##_##t##_V
#define JT_ID_LA(n, t) TPC_ST_##n##_##t##_V
#define JT_ID_E(n, t)  -1
#define TPC_LANE(name, slots, opc, type, swm, swv, tier, expr)                                     \
    vtab_put(slots, TPC_OPC_SPU_##opc, TPC_T_##type, swm, swv, JT_TIER_##tier,                     \
             JT_ID_##tier(name, type), taken);
#include "target/tpc/lane-ops.def"
#undef JT_TIER_L
#undef JT_TIER_LA
#undef JT_TIER_E
#undef JT_ID_L
#undef JT_ID_LA
#undef JT_ID_E
}

/* Table tab's entry for (op, type, switches), or -1. */
static int tab_get(int16_t tab[64][TPC_T_COUNT][8], unsigned op, unsigned t, unsigned sw)
{
    return op < 64 && t < TPC_T_COUNT ? tab[op][t][sw & 7u] : -1;
}

int tpc_jit_vpu_stencil(unsigned op, unsigned t, unsigned sw, unsigned bkind)
{
    int id = tab_get(vtab, op, t, sw);
    if (id < 0)
        return -1;
    switch (bkind) {
    case TPC_OP_V:
    case TPC_OP_NONE:
        return id;
    case TPC_OP_S:
        return id + 1;
    case TPC_OP_IMM:
    case TPC_OP_SIMM:
        return id + 2;
    default:
        return -1;
    }
}

/* ---- the SPU's (op, type, switches) -> stencil table, from lane-ops.def
 * (and jit-spu.def): the S-operand stencil, the immediate's next ---- */

static int16_t stab[64][TPC_T_COUNT][8];

static void stab_put(unsigned slots, unsigned op, unsigned t, unsigned swm, unsigned swv, bool ok,
                     int id, uint8_t taken[64][TPC_T_COUNT][8])
{
    /* spu_arith's result type: bf16 with acc_fp32 (bit 2) gives an f32,
     * which a stencil of a row without that switch does not extend to */
    bool rt = t != TPC_T_BF16 || (swm & swv & 4u);
    tab_put(stab, taken, slots & TPC_LS_SPU, op, t, swm, swv, !ok ? 0u : rt ? 0xFFu : 0x0Fu, id);
}

__attribute__((constructor)) static void stab_init(void)
{
    static uint8_t taken[64][TPC_T_COUNT][8];
    memset(stab, 0xFF, sizeof stab);
    const uint32_t x = 0, y = 0, z = 0;
    (void)x, (void)y, (void)z;
#define TPC_LANE(name, slots, opc, type, swm, swv, tier, expr)                                     \
    {                                                                                              \
        enum { T = TPC_T_##type };                                                                 \
        stab_put(slots, TPC_OPC_SPU_##opc, TPC_T_##type, swm, swv, TPC_JIT_LANE_OK(expr),          \
                 TPC_ST_SPU_##name##_##type##_S, taken);                                           \
    }
#include "target/tpc/lane-ops.def"
    /* (integer ADD has no row; compares any switches) */
#define TPC_OPC_SPU_iadd TPC_OPC_SPU_add
#define TPC_JIT_SPU(name, type)                                                                    \
    stab_put(TPC_LS_SPU, TPC_OPC_SPU_##name, TPC_T_##type, 0, 0, true,                             \
             TPC_ST_SPU_##name##_##type##_S, taken);
#include "target/tpc/jit-spu.def"
#undef TPC_OPC_SPU_iadd
}

int tpc_jit_spu_stencil(unsigned op, unsigned t, unsigned sw, unsigned bkind)
{
    int id = op == TPC_OPC_SPU_set_indx ? -1 : tab_get(stab, op, t, sw);
    if (id < 0)
        return -1;
    switch (bkind) {
    case TPC_OP_S:
        return id;
    case TPC_OP_IMM:
    case TPC_OP_SIMM:
    case TPC_OP_NONE: /* (unary: B reads as 0) */
        return id + 1;
    default:
        return -1;
    }
}

bool tpc_jit_has_stencil(TpcStencilId id)
{
    return id < TPC_ST_COUNT && tpc_stencils[id].code != NULL;
}

bool tpc_jit_available(void)
{
#if TPC_JIT_HAVE_STENCILS && defined(__x86_64__)
    static int ok = -1;
    if (ok < 0) {
        __builtin_cpu_init();
        ok = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
             tpc_stencils[TPC_ST_EXIT].code && tpc_stencils[TPC_ST_STEP].code &&
             tpc_stencils[TPC_ST_PREP].code && tpc_stencils[TPC_ST_COMMIT].code &&
             tpc_stencils[TPC_ST_PRED_SP].code && tpc_stencils[TPC_ST_CHK].code &&
             !tpc_stencils[TPC_ST_CHK].align && tpc_stencils[TPC_ST_LOOP].code;
    }
    return ok;
#else
    return false;
#endif
}

unsigned tpc_jit_enabled(void)
{
    /* on unless NXEMU_TPC_JIT=off */
    const char *v = getenv("NXEMU_TPC_JIT");
    if (!tpc_jit_available() || (v && !strcmp(v, "off")))
        return 0;
    return v && !strcmp(v, "all") ? 2 : 1;
}

/* ---- emitting ---- */

typedef struct Holes {
    uint64_t v[TPC_HOLE_COUNT];
} Holes;

static void link_to(uint8_t *field, const uint8_t *code)
{
    int32_t w = (int32_t)((int64_t)(uintptr_t)code - ((int64_t)(uintptr_t)field + 4));
    memcpy(field, &w, 4);
}

typedef enum { EM_OK, EM_FULL, EM_NOFIT } EmitRes;

/* Copy stencil id with holes h, its NEXT link followed by what comes next
 * (the trailing jump dropped or pointed there); its TAKEN link's field in
 * *taken.  Room is kept for an EXIT after it. */
static EmitRes emit(TpcJit *j, int id, const Holes *h, uint8_t **taken)
{
    const TpcStencil *st = &tpc_stencils[id];
    if (!st->code)
        return EM_NOFIT;
    size_t pad = st->align ? -j->used % st->align : 0;
    if (j->used + pad + st->len + tpc_stencils[TPC_ST_EXIT].len > j->cap)
        return EM_FULL;
    /* (NOPs: what came before falls through or jumps into them) */
    memset(j->buf + j->used, 0x90, pad);
    j->used += pad;
    uint8_t *at = j->buf + j->used;
    memcpy(at, st->code, st->len);
    if (taken)
        *taken = NULL;
    for (unsigned i = 0; i < st->nrel; i++) {
        const NxStReloc *r = &st->rel[i];
        if (r->hole == TPC_HOLE_NEXT)
            continue; /* (below) */
        if (r->hole == TPC_HOLE_TAKEN) {
            if (taken)
                *taken = at + r->off;
            continue;
        }
        if (!nx_stencil_patch32(at + r->off, r->type, r->addend, h->v[r->hole]))
            return EM_NOFIT;
    }
    j->used += st->len - st->strip;
    /* every exit to NEXT (a stencil may have several) but the trailing
     * jump dropped */
    for (unsigned i = 0; i < st->nrel; i++)
        if (st->rel[i].hole == TPC_HOLE_NEXT && at + st->rel[i].off + 4 <= j->buf + j->used)
            link_to(at + st->rel[i].off, j->buf + j->used);
    return EM_OK;
}

static EmitRes emit_k(TpcJit *j, int id, uint32_t k, uint32_t s)
{
    Holes h = {.v = {[TPC_HOLE_K] = k, [TPC_HOLE_S] = s}};
    return emit(j, id, &h, NULL);
}

#define OFF(member) ((uint64_t)offsetof(TpcCpu, member))

/* Stencil id with holes h, behind an SP predicate's guard when in has
 * one; nothing of it kept unless all fit. */
static EmitRes emit_guarded(TpcJit *j, const TpcInsn *in, int id, const Holes *h)
{
    const size_t start = j->used;
    uint8_t *taken = NULL;
    if (in->pred & 15 || in->polarity) {
        Holes p = {.v = {[TPC_HOLE_SP] = OFF(sp) + (in->pred & 15u),
                         [TPC_HOLE_POL] = in->polarity ? 1u : 0u}};
        EmitRes r = emit(j, TPC_ST_PRED_SP, &p, &taken);
        if (r != EM_OK || !taken) {
            j->used = start;
            return r == EM_OK ? EM_NOFIT : r;
        }
    }
    EmitRes r = emit(j, id, h, NULL);
    if (r != EM_OK) {
        j->used = start;
        return r;
    }
    if (taken)
        link_to(taken, j->buf + j->used);
    __atomic_fetch_add(&tpc_jit_inlined, 1, __ATOMIC_RELAXED);
    return EM_OK;
}

/* The holes of a VPU row stencil for in of dc: the registers, the slot's
 * buffer, the broadcast image and the immediate. */
static void vpu_holes(TpcCpu *c, const TpcDCacheEntry *dc, const TpcInsn *in, Holes *hp)
{
    Holes h = {.v = {0}};
    h.v[TPC_HOLE_VD] = OFF(v) + sizeof(uint8_t *) * (in->dst.num % TPC_NR_V);
    h.v[TPC_HOLE_VA] = OFF(v) + sizeof(uint8_t *) * (in->a.num % TPC_NR_V);
    h.v[TPC_HOLE_VB] = in->b.kind == TPC_OP_V ? OFF(v) + sizeof(uint8_t *) * (in->b.num % TPC_NR_V)
                                              : h.v[TPC_HOLE_VA];
    h.v[TPC_HOLE_BUF] = OFF(x.out[TPC_SLOT_VPU].vbuf[0]);
    unsigned bc = in->b.kind == TPC_OP_S ? in->b.num % TPC_NR_S : TPC_NR_S;
    h.v[TPC_HOLE_BC] = OFF(x.vbcast) + sizeof(TpcBcast) * bc;
    h.v[TPC_HOLE_SB] = OFF(s) + 4u * (in->b.num % TPC_NR_S);
    if (in->b.kind == TPC_OP_IMM || in->b.kind == TPC_OP_SIMM)
        h.v[TPC_HOLE_IMM] = tpc_rd_scalar(c, &dc->b, &in->b, NULL);
    *hp = h;
}

/* The inline stencil of plan step s of dc, or EM_NOFIT. */
static EmitRes emit_vpu(TpcJit *j, TpcCpu *c, const TpcDCacheEntry *dc, unsigned s)
{
    const TpcInsn *in = dc->din[s];
    if (!tpc_direct_is_vl(dc->dfn[s]))
        return EM_NOFIT;
    int id = tpc_jit_vpu_stencil(in->opc, in->type, in->sw, in->b.kind);
    if (id < 0 || !tpc_stencils[id].code || in->dst.kind != TPC_OP_V || in->a.kind != TPC_OP_V)
        return EM_NOFIT;
    Holes h;
    vpu_holes(c, dc, in, &h);
    return emit_guarded(j, in, id, &h);
}

/* The VP-masked stencil of plan step s of dc (a VPU loop step under a
 * VPRF predicate other than VP0: run_vpu_vl_vp), or EM_NOFIT; its holes
 * as emit_vpu's, and the VP register and its mask's slot. */
static EmitRes emit_vpu_vp(TpcJit *j, TpcCpu *c, const TpcDCacheEntry *dc, unsigned s)
{
    const TpcInsn *in = dc->din[s];
    if (!tpc_direct_is_vl_vp(dc->dfn[s]) || !(in->pred & 15) || in->dst.kind != TPC_OP_V ||
        in->a.kind != TPC_OP_V)
        return EM_NOFIT;
    int id = tpc_jit_vpu_stencil(in->opc, in->type, in->sw, in->b.kind);
    /* (the masked ones follow the three kinds of B: jit.h) */
    if (id < 0 || !tpc_stencils[id + 3].code)
        return EM_NOFIT;
    Holes h;
    vpu_holes(c, dc, in, &h);
    h.v[TPC_HOLE_VP] = OFF(vp) + TPC_VPBYTES * (in->pred & 15u);
    h.v[TPC_HOLE_VPM] = OFF(x.jvpm) + sizeof(TpcJitMask) * (in->pred & 15u);
    h.v[TPC_HOLE_POL] = in->polarity ? 1u : 0u;
    EmitRes r = emit(j, id + 3, &h, NULL);
    if (r == EM_OK)
        __atomic_fetch_add(&tpc_jit_inlined, 1, __ATOMIC_RELAXED);
    return r;
}

/* An LD or VPU slot's MOV into V from a V register, an S register or an
 * immediate without a VPRF predicate (its executor through run_staged),
 * inline, or EM_NOFIT. */
static EmitRes emit_mov(TpcJit *j, TpcCpu *c, const TpcDCacheEntry *dc, unsigned s)
{
    const TpcInsn *in = dc->din[s];
    unsigned slot = (unsigned)(in - dc->b.slot);
    bool ld = slot == TPC_SLOT_LD && dc->dexec[slot] == tpc_exec_ld_mov;
    bool vpu = slot == TPC_SLOT_VPU && dc->dexec[slot] == tpc_exec_vpu_mov && !(in->sw & 1u);
    if (!(ld || vpu) || tpc_direct_is_vl(dc->dfn[s]) || in->dst.kind != TPC_OP_V || in->pred_vp)
        return EM_NOFIT;
    unsigned e = tpc_type_size(ld ? (in->b.raw >> 4) & 15u : in->type);
    int id = in->a.kind == TPC_OP_V                                  ? TPC_ST_MOV_V
             : in->a.kind == TPC_OP_S                                ? TPC_ST_MOV_S
             : in->a.kind == TPC_OP_IMM || in->a.kind == TPC_OP_SIMM ? TPC_ST_MOV_I
                                                                     : -1;
    if (id < 0 || (e != 1 && e != 2 && e != 4))
        return EM_NOFIT;
    Holes h = {.v = {0}};
    h.v[TPC_HOLE_VD] = OFF(v) + sizeof(uint8_t *) * (in->dst.num % TPC_NR_V);
    h.v[TPC_HOLE_VA] = OFF(v) + sizeof(uint8_t *) * (in->a.num % TPC_NR_V);
    h.v[TPC_HOLE_SB] = OFF(s) + 4u * (in->a.num % TPC_NR_S);
    h.v[TPC_HOLE_BUF] = OFF(x.out[0].vbuf[0]) + sizeof(TpcSlotOut) * slot;
    h.v[TPC_HOLE_E] = e;
    if (id == TPC_ST_MOV_I)
        h.v[TPC_HOLE_IMM] = tpc_rd_scalar(c, &dc->b, &in->a, NULL);
    return emit_guarded(j, in, id, &h);
}

G_STATIC_ASSERT(offsetof(TpcCpu, x.st_src) == offsetof(TpcCpu, x.st_host) + sizeof(uint8_t *));

/* In b's hoisted copy, step s of bundle k when it is a tensor access: the
 * load or the store's first half from its hoisted span (HLD, HST), or
 * EM_NOFIT.  (Its SP predicate held in the observed trips, and no step of
 * the body writes an SP register.) */
static EmitRes emit_hacc(TpcJit *j, const TpcJitBody *b, uint32_t k, unsigned s)
{
    const TpcDCacheEntry *dc = b->plan[k];
    if (!b->hemit)
        return EM_NOFIT;
    unsigned p = 0;
    for (uint32_t q = 0; q < k; q++)
        p += ((const TpcDCacheEntry *)b->plan[q])->nprep;
    for (unsigned i = 0; i < dc->nprep; i++, p++) {
        if (dc->dprep[i] != s)
            continue;
        const TpcInsn *in = dc->din[s];
        bool store = in == &dc->b.slot[TPC_SLOT_ST];
        Holes h = {.v = {[TPC_HOLE_S] = p}};
        if (store) {
            h.v[TPC_HOLE_VA] = OFF(v) + sizeof(uint8_t *) * (in->c.num % TPC_NR_V);
            h.v[TPC_HOLE_BUF] = OFF(x.st_host);
        } else {
            h.v[TPC_HOLE_VD] = OFF(v) + sizeof(uint8_t *) * (in->dst.num % TPC_NR_V);
            h.v[TPC_HOLE_BUF] = OFF(x.out[TPC_SLOT_LD].vbuf[0]);
        }
        return emit(j, store ? TPC_ST_HST : TPC_ST_HLD, &h, NULL);
    }
    return EM_NOFIT;
}

/* A hoisted trip's top (HTOP), both of its exits to what follows. */
static EmitRes emit_htop(TpcJit *j, const Holes *h)
{
    uint8_t *taken;
    EmitRes r = emit(j, TPC_ST_HTOP, h, &taken);
    if (r == EM_OK && !taken)
        return EM_NOFIT;
    if (r == EM_OK)
        link_to(taken, j->buf + j->used);
    return r;
}

/* An SPU step with a stencil (tpc_jit_spu_stencil: arithmetic and logic
 * into an S register, compares into an SP register, from S register A and
 * an S register or immediate B; SET_INDX of any slot from an S register or
 * an immediate), inline, or EM_NOFIT. */
static EmitRes emit_spu(TpcJit *j, TpcCpu *c, const TpcDCacheEntry *dc, unsigned s)
{
    const TpcInsn *in = dc->din[s];
    unsigned slot = (unsigned)(in - dc->b.slot), dst, mask;
    const TpcOperand *b = &in->b;
    Holes h = {.v = {0}};
    int id = -1;
    if (tpc_direct_set_indx(dc->dfn[s], in, &dst, &mask)) {
        b = &in->a;
        id = b->kind == TPC_OP_S ? TPC_ST_SPU_set_indx_U32_S : TPC_ST_SPU_set_indx_U32_I;
        h.v[TPC_HOLE_SD] = OFF(irf) + sizeof(c->irf[0]) * (dst & 31u);
        h.v[TPC_HOLE_SW] = mask;
    } else if (slot == TPC_SLOT_SPU && tpc_direct_staged(dc->dfn[s]) &&
               tpc_exec_is_spu_alu(dc->dexec[slot]) && !in->pred_vp && in->a.kind == TPC_OP_S &&
               in->type != TPC_T_B) {
        bool cmp = in->opc >= TPC_OPC_SPU_cmp_eq && in->opc <= TPC_OPC_SPU_cmp_geq;
        if (cmp ? in->dst.kind != TPC_OP_SP || !(in->dst.num & 15) || b->kind == TPC_OP_NONE
                : in->dst.kind != TPC_OP_S)
            return EM_NOFIT;
        id = tpc_jit_spu_stencil(in->opc, in->type, in->sw, b->kind);
        h.v[TPC_HOLE_SD] =
            cmp ? OFF(sp) + (in->dst.num & 15u) : OFF(s) + 4u * (in->dst.num % TPC_NR_S);
        h.v[TPC_HOLE_SA] = OFF(s) + 4u * (in->a.num % TPC_NR_S);
        h.v[TPC_HOLE_SW] = in->sw;
        h.v[TPC_HOLE_CY] = OFF(s_carry);
    }
    if (id < 0 || (b->kind != TPC_OP_S && b->kind != TPC_OP_IMM && b->kind != TPC_OP_SIMM &&
                   b->kind != TPC_OP_NONE))
        return EM_NOFIT;
    h.v[TPC_HOLE_SB] = OFF(s) + 4u * (b->num % TPC_NR_S);
    if (b->kind == TPC_OP_IMM || b->kind == TPC_OP_SIMM)
        h.v[TPC_HOLE_IMM] = tpc_rd_scalar(c, &dc->b, b, NULL);
    return emit_guarded(j, in, id, &h);
}

/* A body's jumps, linked once every bundle has its code: the TAKEN field
 * of each bundle's BR and the bundle it goes to (nb: out of the body). */
typedef struct JumpFix {
    uint8_t *field;
    uint32_t to;
} JumpFix;

/* TpcJitFn's answer for a jump out of the body: the caller applies the
 * SPU slot's target (tpc_jump_to, as the direct loop does). */
#define TPC_JIT_JUMPED UINT32_MAX

/* After bundle k of b, whose SPU slot is a jump with an immediate target
 * (cpu-direct.c spu_jump_form: the same executor ran it as a step), BR to
 * the target's code; its TAKEN field kept in *fix to link later. */
static EmitRes emit_jump(TpcJit *j, TpcCpu *c, const TpcJitBody *b, uint32_t k, JumpFix *fix)
{
    const TpcDCacheEntry *dc = b->plan[k];
    const TpcInsn *in = &dc->b.slot[TPC_SLOT_SPU];
    uint32_t t = tpc_rd_scalar(c, &dc->b, &in->a, NULL);
    if (in->desc->flags & TPC_F_PCREL)
        t += b->body + k * TPC_BUNDLE;
    fix->to = t - b->body <= b->end - b->body ? (t - b->body) / TPC_BUNDLE : b->nb;
    Holes h = {.v = {[TPC_HOLE_JMP] = OFF(x.out[TPC_SLOT_SPU].jump)}};
    EmitRes r = emit(j, TPC_ST_BR, &h, &fix->field);
    return r == EM_OK && !fix->field ? EM_NOFIT : r;
}

/* Link b's jumps (emit_jump): into the body to the target's CHK, out of
 * it to one EXIT answering TPC_JIT_JUMPED. */
static EmitRes link_jumps(TpcJit *j, const TpcJitBody *b, const JumpFix *fix, unsigned nfix)
{
    size_t out = 0;
    for (unsigned i = 0; i < nfix; i++) {
        if (fix[i].to < b->nb) {
            link_to(fix[i].field, j->buf + b->entry[fix[i].to]);
            continue;
        }
        if (!out) {
            out = j->used;
            if (emit_k(j, TPC_ST_EXIT, TPC_JIT_JUMPED, 0) != EM_OK)
                return EM_FULL;
        }
        link_to(fix[i].field, j->buf + out);
    }
    return EM_OK;
}

/* Body b's code from the arena's current end; EM_FULL if it ran out.
 * Each bundle starts with CHK (the budget: an entry point), and the body
 * ends with LOOP, going back to bundle 0's CHK. */
static EmitRes emit_body(TpcJit *j, TpcCpu *c, TpcJitBody *b)
{
    Holes h = {.v = {[TPC_HOLE_RUN] = OFF(x.jrun),
                     [TPC_HOLE_IT] = OFF(s) + 4u * (32u + b->depth - 1u),
                     [TPC_HOLE_GEN] = OFF(x.code_gen),
                     [TPC_HOLE_MARK] = OFF(x.code_marked)}};
    JumpFix fix[TPC_JIT_MAXBODY];
    unsigned nfix = 0;
    for (uint32_t k = 0; k < b->nb; k++) {
        const TpcDCacheEntry *dc = b->plan[k];
        h.v[TPC_HOLE_K] = k;
        b->entry[k] = j->used; /* (CHK has no constants: no padding) */
        if (emit(j, TPC_ST_CHK, &h, NULL) != EM_OK)
            return EM_FULL; /* (the stencils exist: tpc_jit_available) */
        /* a bundle with tensor accesses: their checks and spans first,
         * its steps (the accesses called with their spans), its store */
        if (dc->nprep && !b->hemit && emit(j, TPC_ST_PREP, &h, NULL) != EM_OK)
            return EM_FULL;
        if (b->hemit && !k && emit_htop(j, &h) != EM_OK)
            return EM_FULL;
        if (b->cov && emit(j, TPC_ST_COV, &h, NULL) != EM_OK)
            return EM_FULL;
        for (unsigned s = 0; s < dc->nact; s++) {
            EmitRes r = emit_hacc(j, b, k, s);
            if (r == EM_NOFIT)
                r = emit_vpu(j, c, dc, s);
            if (r == EM_NOFIT)
                r = emit_vpu_vp(j, c, dc, s);
            if (r == EM_NOFIT)
                r = emit_mov(j, c, dc, s);
            if (r == EM_NOFIT)
                r = emit_spu(j, c, dc, s);
            if (r == EM_FULL)
                return r;
            if (r == EM_OK)
                continue;
            if (emit_k(j, TPC_ST_STEP, k, s) != EM_OK)
                return EM_FULL;
        }
        if (dc->dstore && emit(j, TPC_ST_COMMIT, &h, NULL) != EM_OK)
            return EM_FULL;
        if (dc->spu_jmp && emit_jump(j, c, b, k, &fix[nfix++]) != EM_OK)
            return EM_FULL;
    }
    uint8_t *top;
    h.v[TPC_HOLE_K] = b->nb;
    if (emit(j, b->hemit ? TPC_ST_HLOOP : TPC_ST_LOOP, &h, &top) != EM_OK || !top)
        return EM_FULL;
    link_to(top, j->buf + b->entry[0]);
    if (emit_k(j, TPC_ST_EXIT, b->nb, 0) != EM_OK)
        return EM_FULL;
    return link_jumps(j, b, fix, nfix);
}

/* Body b's code and, when its spans can be hoisted, its hoisted copy. */
static EmitRes emit_all(TpcJit *j, TpcCpu *c, TpcJitBody *b)
{
    EmitRes r = emit_body(j, c, b);
    if (r != EM_OK || !b->hoist)
        return r;
    size_t *e = b->entry;
    b->entry = b->hent;
    b->hemit = true;
    r = emit_body(j, c, b);
    b->hemit = false;
    b->entry = e;
    return r;
}

/* ---- running ---- */

static TpcJitBody *body_of(const TpcJitCtx *x)
{
    return (TpcJitBody *)((char *)x - offsetof(TpcJitBody, ctx));
}

static bool jit_prep(char *cc, const TpcJitCtx *x, uint32_t k)
{
    TpcCpu *c = (TpcCpu *)cc;
    const TpcDCacheEntry *dc = x->plan[k];
    c->pc = x->body + k * TPC_BUNDLE;
    if (!tpc_direct_prep_all(c, dc, x->span + 4 * k))
        return false;
    TpcJitBody *b = body_of(x);
    if (G_UNLIKELY(b->rec >= 0) && b->nrec + dc->nprep <= b->na)
        tpc_hoist_record(c, dc, x->span + 4 * k, b->acc, &b->nrec, (unsigned)b->rec);
    return true;
}

/* A hoisted trip's race notes, those of the loop plan's (loop_hoist). */
static void jit_hnote(char *cc, const TpcJitCtx *x)
{
    TpcCpu *c = (TpcCpu *)cc;
    const TpcJitBody *b = body_of(x);
    for (unsigned p = 0; p < b->na; p++)
        tpc_hoist_note(c, &b->acc[p], b->hp[p]);
}

static void jit_commit(char *cc, const TpcJitCtx *x, uint32_t k)
{
    TpcCpu *c = (TpcCpu *)cc;
    (void)x, (void)k;
    tpc_tensor_store_span(c, c->x.st_host, c->x.st_src);
}

static void jit_cov(char *cc, const TpcJitCtx *x, uint32_t k)
{
    tpc_cov_note((TpcCpu *)cc, (TpcDCacheEntry *)x->plan[k], 1);
}

static void jit_step(char *cc, const TpcJitCtx *x, uint32_t k, uint32_t s)
{
    TpcCpu *c = (TpcCpu *)cc;
    const TpcDCacheEntry *dc = x->plan[k];
    c->pc = x->body + k * TPC_BUNDLE;
    dc->dfn[s](c, dc, dc->din[s], x->span[4 * k + s]);
    x->calls[k * TPC_JIT_NCALLS + s]++;
}

/* Add body b's calls of the direct path by mnemonic to t. */
static void calls_fold(const TpcJitBody *b, TpcJitCalled *t)
{
    for (uint32_t k = 0; k < b->nb && b->calls; k++) {
        const TpcDCacheEntry *dc = b->plan[k];
        for (unsigned s = 0; s < dc->nact; s++) {
            uint64_t n = b->calls[k * TPC_JIT_NCALLS + s];
            const TpcInsnDesc *mnem = dc->din[s]->desc;
            unsigned u = 0;
            while (u < TPC_JIT_CALLED && t[u].mnem && t[u].mnem != mnem)
                u++;
            if (!n || u == TPC_JIT_CALLED)
                continue;
            t[u].mnem = mnem;
            t[u].n += n;
        }
    }
}

static void body_fold(TpcJit *j, TpcJitBody *b)
{
    calls_fold(b, j->called);
    g_free(b->calls);
    g_free(b->span);
    g_free(b->acc);
    g_free(b->hp);
    g_free(b->hs);
    g_free(b->hent);
    g_free(b->entry);
    g_free(b->plan);
    memset(b, 0, sizeof *b);
}

static void flush(TpcJit *j)
{
    j->epoch++;
    for (unsigned i = 0; i < j->nbody; i++)
        body_fold(j, &j->body[i]);
    j->nbody = j->next = 0;
    j->used = 0;
}

static TpcJit *jit_of(TpcCpu *c)
{
    TpcJit *j = c->x.jit;
    if (j)
        return j;
    j = g_new0(TpcJit, 1);
    const size_t cap = tpc_jit_arena_bytes;
    void *buf = mmap(NULL, cap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (buf == MAP_FAILED) {
        j->broken = true;
    } else {
        j->buf = buf;
        j->cap = cap;
        if (mprotect(j->buf, j->cap, PROT_READ | PROT_EXEC) != 0)
            j->broken = true;
    }
    c->x.jit = j;
    return j;
}

/* Whether body b's spans can be hoisted (as a loop plan's), and room for
 * its accesses. */
static void hoist_setup(TpcCpu *c, TpcJitBody *b)
{
    b->rec = -1;
    /* (a jump may skip an access in some trips: not affine) */
    for (uint32_t k = 0; k < b->nb; k++)
        if (((const TpcDCacheEntry *)b->plan[k])->spu_jmp)
            return;
    b->hoist = tpc_jit_has_stencil(TPC_ST_HLD) && tpc_jit_has_stencil(TPC_ST_HST) &&
               tpc_jit_has_stencil(TPC_ST_HTOP) && tpc_jit_has_stencil(TPC_ST_HLOOP) &&
               tpc_hoist_body((const TpcDCacheEntry *const *)b->plan, b->nb,
                              c->loops[b->depth - 1].depth, &b->na);
    if (!b->hoist)
        return;
    b->acc = g_new0(TpcHoistAcc, b->na);
    b->hp = g_new0(const uint8_t *, b->na);
    b->hs = g_new0(int64_t, b->na);
    b->hent = g_new0(size_t, b->nb);
    b->ctx.hspan = b->hp;
    b->ctx.hstep = b->hs;
    b->ctx.hnote = jit_hnote;
}

/* Compile the body [body, end] of plans plan[0..nb), or NULL. */
static TpcJitBody *compile(TpcJit *j, TpcCpu *c, uint32_t body, uint32_t end, uint64_t gen,
                           unsigned depth, const TpcDCacheEntry *const *plan, uint32_t nb, bool cov)
{
    if (mprotect(j->buf, j->cap, PROT_READ | PROT_WRITE) != 0) {
        j->broken = true;
        return NULL;
    }
    TpcJitBody *b;
    if (j->nbody < TPC_JIT_BODIES) {
        b = &j->body[j->nbody++];
    } else {
        b = &j->body[j->next];
        j->next = (j->next + 1) % TPC_JIT_BODIES;
        body_fold(j, b);
    }
    b->body = body;
    b->end = end;
    b->gen = gen;
    b->depth = depth;
    b->nb = nb;
    b->cov = cov;
    b->plan = g_new(const void *, nb);
    memcpy(b->plan, plan, nb * sizeof *plan);
    b->entry = g_new0(size_t, nb);
    b->calls = g_new0(uint64_t, (size_t)nb * TPC_JIT_NCALLS);
    b->span = g_new0(const uint8_t *, (size_t)nb * 4);
    b->ctx.step = jit_step;
    b->ctx.plan = b->plan;
    b->ctx.body = body;
    b->ctx.gen = gen;
    b->ctx.calls = b->calls;
    b->ctx.span = b->span;
    b->ctx.prep = jit_prep;
    b->ctx.commit = jit_commit;
    b->ctx.cov = jit_cov;
    hoist_setup(c, b);
    EmitRes r = emit_all(j, c, b);
    if (r == EM_FULL) {
        /* empty the arena (every other body goes) and once more */
        TpcJitBody keep = *b;
        memset(b, 0, sizeof *b);
        flush(j);
        __atomic_fetch_add(&tpc_jit_flushes, 1, __ATOMIC_RELAXED);
        b = &j->body[j->nbody++];
        *b = keep;
        r = emit_all(j, c, b);
    }
    b->ok = r == EM_OK;
    if (mprotect(j->buf, j->cap, PROT_READ | PROT_EXEC) != 0) {
        j->broken = true;
        return NULL;
    }
    __builtin___clear_cache((char *)j->buf, (char *)j->buf + j->used);
    if (r != EM_OK) {
        /* (a body bigger than an empty arena: its slot stays empty) */
        body_fold(j, b);
        if (b == &j->body[j->nbody - 1])
            j->nbody--;
        return NULL;
    }
    return b;
}

static void run_body(TpcCpu *c, TpcJit *j, TpcJitBody *b, const TpcLoopFrame *f, uint64_t *n,
                     uint64_t max_bundles, uint64_t *nd);

/* Body [body, end] is not compiled in code generation gen: false, and
 * the direct loop does not ask again (TpcExec.jit_no_body). */
static bool declined(TpcCpu *c, uint32_t body, uint32_t end, uint64_t gen)
{
    unsigned i = c->x.jit_no_next;
    c->x.jit_no_next = (uint8_t)(i ^ 1u);
    c->x.jit_no_body[i] = body, c->x.jit_no_end[i] = end, c->x.jit_no_gen[i] = gen;
    return false;
}

/* Where body b's code is entered at bundle k while its spans may yet be
 * hoisted (*trip < 3: the whole trips from its top seen so far): trip by
 * trip (LOOP back to the caller) while two trips are observed, recording
 * their accesses (jit_prep), then, at the third trip's top, the hoisted
 * copy when tpc_hoist_range finds trips for it (b->rec = 3 says so), else
 * the body's code as ever. */
static size_t hoist_entry(TpcCpu *c, TpcJitBody *b, uint32_t k, unsigned *trip, uint64_t left)
{
    TpcJitRun *r = &c->x.jrun;
    if (k) {
        r->fast = 0; /* (the rest of a trip: then from the top) */
        return b->entry[k];
    }
    if (*trip < 2) {
        r->fast = 0;
        b->rec = (int)*trip;
        b->nrec = 0;
        return b->entry[0];
    }
    *trip = 3;
    uint64_t range = tpc_hoist_range(c, b->acc, b->na, b->nb, left);
    if (!range)
        return b->entry[0];
    for (unsigned p = 0; p < b->na; p++) {
        b->hs[p] = b->acc[p].step;
        b->hp[p] = b->acc[p].h1 + b->acc[p].step;
    }
    r->trips = range;
    r->note = c->race != NULL;
    b->rec = 3;
    return b->hent[0];
}

bool tpc_jit_loop(TpcCpu *c, uint64_t *n, uint64_t max_bundles, uint64_t *nd)
{
    const TpcLoopFrame *f = &c->loops[c->nloops - 1];
    uint32_t body = f->body, end = f->end;
    unsigned depth = c->nloops;
    if (c->pc - body > end - body || end < body || (end - body) / TPC_BUNDLE >= TPC_JIT_MAXBODY ||
        !c->x.code_marked || c->in_delay_slot)
        return false;
    uint32_t nb = (end - body) / TPC_BUNDLE + 1;
    uint64_t gen = c->x.code_gen;
    TpcJit *j = jit_of(c);
    if (j->broken)
        return false;
    /* -coverage: tpc_loop_cov credits bundles in body order, a body with
     * jumps counts its own (COV) */
    const bool counted = G_UNLIKELY(c->parent.trace) && trace_counts_insns(c->parent.trace);
    if (c->x.nbp)
        for (uint32_t k = 0; k < nb; k++)
            if (tpc_bp_at(c, body + k * TPC_BUNDLE))
                return false; /* (this slice) */
    __typeof__(j->map[0]) *m = &j->map[(body / TPC_BUNDLE) % TPC_JIT_MAP];
    TpcJitBody *b = NULL;
    if (m->body == body && m->end == end && m->gen == gen && m->depth == depth) {
        if (m->idx < 0)
            return declined(c, body, end, gen);
        b = &j->body[m->idx];
        if (!b->ok || b->body != body || b->end != end || b->gen != gen || b->depth != depth)
            b = NULL; /* (its slot was reused) */
        else if (b->jumps && b->cov != counted)
            b = NULL; /* (compiled with -coverage or without: again) */
    }
    if (!b) {
        const TpcDCacheEntry *plan[TPC_JIT_MAXBODY];
        bool any_vl = false, any_jmp = false;
        for (uint32_t k = 0; k < nb; k++) {
            uint32_t pc = body + k * TPC_BUNDLE;
            const TpcDCacheEntry *dc = &c->x.dcache[(pc / TPC_BUNDLE) % TPC_DCACHE_SIZE];
            if (dc->gen != gen || dc->gen_pc != pc)
                return false; /* (not decoded yet: later) */
            if (!dc->direct || (dc->spu_jmp && !tpc_stencils[TPC_ST_BR].code)) {
                /* (no loop plan either: as loop_plan_iterate records it;
                 * the map keeps it too, when an outer body takes that) */
                c->x.lp_fail_body = body, c->x.lp_fail_end = end, c->x.lp_fail_gen = gen;
                j->epoch++;
                m->body = body, m->end = end, m->gen = gen, m->depth = depth, m->idx = -1;
                return declined(c, body, end, gen);
            }
            for (unsigned s = 0; s < dc->nact; s++)
                any_vl = any_vl || tpc_direct_is_vl(dc->dfn[s]) || tpc_direct_is_vl_vp(dc->dfn[s]);
            any_jmp = any_jmp || dc->spu_jmp;
            plan[k] = dc;
        }
        j->epoch++;
        m->body = body, m->end = end, m->gen = gen, m->depth = depth, m->idx = -1;
        /* one without a VPU loop step gains nothing (a body with tensor
         * accesses hoists their spans as a loop plan would), unless it has
         * a jump (no loop plan then: the direct loop's lookup per bundle is
         * what it saves) */
        if (c->x.jit_on == 1 && !any_vl && !any_jmp)
            return declined(c, body, end, gen);
        b = compile(j, c, body, end, gen, depth, plan, nb, any_jmp && counted);
        if (!b)
            return declined(c, body, end, gen);
        m->idx = (int)(b - j->body);
        b->jumps = any_jmp;
    }
    uint64_t nd0 = *nd;
    run_body(c, j, b, f, n, max_bundles, nd);
    /* (tpc_loop_cov, called next when bundles ran, asks) */
    j->counted = b->cov && *nd != nd0;
    return true;
}

/* Run b from c->pc (a bundle of it) round f's loop while the budget and
 * the code last. */
static void run_body(TpcCpu *c, TpcJit *j, TpcJitBody *b, const TpcLoopFrame *f, uint64_t *n,
                     uint64_t max_bundles, uint64_t *nd)
{
    uint32_t body = b->body, end = b->end, nb = b->nb;
    uint64_t gen = b->gen;
    unsigned depth = b->depth;
    TpcJitRun *r = &c->x.jrun;
    uint32_t k = (c->pc - body) / TPC_BUNDLE;
    unsigned trip = b->hoist ? 0 : 3;
    for (;;) {
        /* the code still current; the budget is taken bundle by bundle
         * in the code, which goes round the loop while the code stays */
        if (*n >= max_bundles || !c->x.code_marked || c->x.code_gen != gen)
            return;
        uint64_t left = max_bundles - *n;
        r->left = left;
        r->step = f->step;
        r->bound = f->bound;
        r->fast = f->cmp == TPC_CMP_LT && !f->once;
        size_t at = G_UNLIKELY(trip < 3) ? hoist_entry(c, b, k, &trip, left) : b->entry[k];
        k = ((TpcJitFn)(void *)(j->buf + at))((char *)c, &b->ctx);
        uint64_t ran = left - r->left;
        *n += ran;
        *nd += ran;
        c->x.jit_total += ran;
        if (k == TPC_JIT_JUMPED) {
            tpc_jump_to(c, c->x.out[TPC_SLOT_SPU].jump_pc);
            return;
        }
        if (G_UNLIKELY(trip >= 3 && b->rec >= 0)) {
            /* (the hoisted copy ran) */
            b->rec = -1;
            c->x.hoist_total += ran;
        } else if (G_UNLIKELY(b->rec >= 0)) {
            /* an observed trip: whole, with every access recorded */
            trip = k == nb && b->nrec == b->na ? trip + 1 : 3;
            b->rec = -1;
        }
        if (k < nb) {
            c->pc = body + k * TPC_BUNDLE;
            return;
        }
        uint32_t next = tpc_loop_end_fast(c, end);
        c->pc = next;
        if (next != body || c->nloops != depth)
            return;
        k = 0;
    }
}

void tpc_jit_stats(TpcCpu *c, char *out, size_t len)
{
    TpcJit *j = c->x.jit;
    out[0] = 0;
    if (!j)
        return;
    /* fold a copy: the bodies stay */
    TpcJitCalled t[TPC_JIT_CALLED];
    memcpy(t, j->called, sizeof t);
    for (unsigned i = 0; i < j->nbody; i++)
        calls_fold(&j->body[i], t);
    size_t o = 0;
    static const char *const slot[4] = {"ld", "spu", "vpu", "st"};
    for (unsigned u = 0; u < TPC_JIT_CALLED && t[u].mnem && o < len; u++)
        o += (size_t)snprintf(out + o, len - o, " %s.%s=%" G_GUINT64_FORMAT,
                              slot[t[u].mnem->slot & 3], t[u].mnem->mnemonic, t[u].n);
}

void tpc_jit_free(TpcCpu *c)
{
    TpcJit *j = c->x.jit;
    if (!j)
        return;
    flush(j);
    if (j->kept) {
        g_free(j->kept->plan);
        g_free(j->kept->calls);
        g_free(j->kept);
    }
    if (j->buf)
        munmap(j->buf, j->cap);
    g_free(j);
    c->x.jit = NULL;
}

/* ---- a stretch rolled back (target/tpc/stretch.c) ---- */

void tpc_jit_keep(TpcCpu *c)
{
    TpcJit *j = c->x.jit;
    if (!j)
        return;
    TpcJitKept *k = j->kept;
    if (!k)
        k = j->kept = g_new0(TpcJitKept, 1);
    size_t nb = 0;
    for (unsigned i = 0; i < j->nbody; i++)
        nb += j->body[i].calls ? j->body[i].nb : 0;
    if (nb > k->cap) {
        k->cap = MAX(nb, 2 * k->cap);
        k->plan = g_renew(const void *, k->plan, k->cap);
        k->calls = g_renew(uint64_t, k->calls, k->cap * TPC_JIT_NCALLS);
    }
    k->epoch = j->epoch;
    k->nbody = j->nbody;
    memcpy(k->called, j->called, sizeof k->called);
    memcpy(k->map, j->map, sizeof k->map);
    size_t at = 0;
    for (unsigned i = 0; i < j->nbody; i++) {
        const TpcJitBody *b = &j->body[i];
        k->nb[i] = b->calls ? b->nb : 0;
        if (!k->nb[i])
            continue;
        memcpy(k->plan + at, b->plan, b->nb * sizeof *b->plan);
        memcpy(k->calls + at * TPC_JIT_NCALLS, b->calls, b->nb * TPC_JIT_NCALLS * sizeof *b->calls);
        at += b->nb;
    }
}

/* Every body gone, its calls not counted. */
static void drop(TpcJit *j)
{
    for (unsigned i = 0; i < j->nbody; i++) {
        g_free(j->body[i].calls);
        j->body[i].calls = NULL;
    }
    flush(j);
}

void tpc_jit_back(TpcCpu *c, bool had)
{
    TpcJit *j = c->x.jit;
    if (!j)
        return;
    if (!had) {
        /* made in the stretch: as new (the arena stays) */
        drop(j);
        memset(j->map, 0, sizeof j->map);
        memset(j->called, 0, sizeof j->called);
        return;
    }
    TpcJitKept *k = j->kept;
    size_t at = 0;
    if (j->epoch == k->epoch) {
        /* the same bodies (the decode-cache entries they point at are
         * back): their counts as they were */
        for (unsigned i = 0; i < j->nbody; i++) {
            if (k->nb[i])
                memcpy(j->body[i].calls, k->calls + at * TPC_JIT_NCALLS,
                       k->nb[i] * TPC_JIT_NCALLS * sizeof *k->calls);
            at += k->nb[i];
        }
        return;
    }
    /* a body compiled, declined or gone in the stretch: none now, the
     * counts of all as they were, and the rerun compiles them again */
    drop(j);
    memcpy(j->called, k->called, sizeof j->called);
    for (unsigned i = 0; i < k->nbody; i++) {
        TpcJitBody b = {0};
        b.nb = k->nb[i], b.plan = k->plan + at, b.calls = k->calls + at * TPC_JIT_NCALLS;
        calls_fold(&b, j->called);
        at += k->nb[i];
    }
    memcpy(j->map, k->map, sizeof j->map);
}

bool tpc_jit_counted(TpcCpu *c, uint32_t body, uint32_t end)
{
    TpcJit *j = c->x.jit;
    (void)body, (void)end;
    if (!j || !j->counted)
        return false;
    j->counted = false;
    return true;
}
