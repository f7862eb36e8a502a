/*
 * The direct path's bundle runner, shared by the direct loop
 * (cpu-direct.c tpc_run_quiet) and the loop plans (loop-plan.c): inline, so
 * each caller gets it unrolled for its bundle's steps.
 */
#ifndef TARGET_TPC_DIRECT_H
#define TARGET_TPC_DIRECT_H

#include "target/tpc/cpu.h"

/* Plan step k of dc with span sp, for tpc_direct_run's unrolled step lists. */
#define DIRECT_STEP(k, sp) dc->dfn[k](c, dc, dc->din[k], sp)

/* Step k's tensor span into span[k], or false when its checks fail. */
static inline __attribute__((always_inline)) bool
tpc_direct_prep(TpcCpu *c, const TpcDCacheEntry *dc, unsigned k, const uint8_t **span)
{
    const TpcInsn *in = dc->din[k];
    span[k] = tpc_tensor_span_nodebug(c, in, in == &dc->b.slot[TPC_SLOT_ST]);
    return span[k] != NULL;
}

/* The steps of a plan in order with their spans, unrolled by their number
 * (1 to 4: the loop over them cost a tenth of a one-slot bundle, mac8),
 * then its store. */
static inline __attribute__((always_inline)) void
tpc_direct_steps(TpcCpu *c, const TpcDCacheEntry *dc, const uint8_t *const *span)
{
    switch (dc->nact) {
    case 4:
        DIRECT_STEP(0, span[0]), DIRECT_STEP(1, span[1]), DIRECT_STEP(2, span[2]);
        DIRECT_STEP(3, span[3]);
        break;
    case 3:
        DIRECT_STEP(0, span[0]), DIRECT_STEP(1, span[1]), DIRECT_STEP(2, span[2]);
        break;
    case 2:
        DIRECT_STEP(0, span[0]), DIRECT_STEP(1, span[1]);
        break;
    case 1:
        DIRECT_STEP(0, span[0]);
        break;
    default: /* (all NOPs) */
        break;
    }
    if (dc->dstore)
        tpc_tensor_store_span(c, c->x.st_host, c->x.st_src);
}

/* The spans of a plan's tensor steps into span[] (at most two: the LD and
 * the ST slot), or false when a check fails: the general path then takes
 * the whole bundle, of which nothing has happened yet. */
static inline __attribute__((always_inline)) bool
tpc_direct_prep_all(TpcCpu *c, const TpcDCacheEntry *dc, const uint8_t **span)
{
    return tpc_direct_prep(c, dc, dc->dprep[0], span) &&
           (dc->nprep < 2 || tpc_direct_prep(c, dc, dc->dprep[1], span));
}

/* A plan's bundle: prepare, then the steps (a bundle without tensor
 * accesses has nothing to check and no store to commit). */
static inline __attribute__((always_inline)) bool tpc_direct_run(TpcCpu *c,
                                                                 const TpcDCacheEntry *dc)
{
    if (G_LIKELY(dc->nprep == 0)) {
        switch (dc->nact) {
        case 4:
            DIRECT_STEP(0, NULL), DIRECT_STEP(1, NULL), DIRECT_STEP(2, NULL), DIRECT_STEP(3, NULL);
            break;
        case 3:
            DIRECT_STEP(0, NULL), DIRECT_STEP(1, NULL), DIRECT_STEP(2, NULL);
            break;
        case 2:
            DIRECT_STEP(0, NULL), DIRECT_STEP(1, NULL);
            break;
        case 1:
            DIRECT_STEP(0, NULL);
            break;
        default: /* (all NOPs) */
            break;
        }
        return true;
    }
    const uint8_t *span[4] = {NULL, NULL, NULL, NULL};
    if (!tpc_direct_prep_all(c, dc, span))
        return false;
    tpc_direct_steps(c, dc, span);
    return true;
}
#undef DIRECT_STEP

/* The bundle at pc ended the innermost loop's body: the common case, an
 * ascending '<' loop going round again, without a call; anything else as
 * tpc_loop_end_checks (tpc.md §6.3). */
static inline uint32_t tpc_loop_end_fast(TpcCpu *c, uint32_t pc)
{
    TpcLoopFrame *f = &c->loops[c->nloops - 1];
    if (f->cmp == TPC_CMP_LT && !f->once) {
        uint32_t *it = &c->s[32 + f->depth];
        int32_t v = (int32_t)((uint32_t)*it + (uint32_t)f->step);
        if (v < f->bound) {
            *it = (uint32_t)v;
            return f->body;
        }
    }
    return tpc_loop_end_checks(c, pc, pc + TPC_BUNDLE);
}

static inline bool tpc_bp_at(const TpcCpu *c, uint32_t pc)
{
    for (int i = 0; i < c->x.nbp; i++)
        if (c->x.bp_pc[i] == pc)
            return true;
    return false;
}

/* Whether loop frame f's body was found without plans in this code
 * generation (TpcExec.lp_fail_body): neither loop plans nor the block
 * compiler take it. */
static inline bool tpc_lp_failed(const TpcCpu *c, const TpcLoopFrame *f)
{
    return f->body == c->x.lp_fail_body && f->end == c->x.lp_fail_end &&
           c->x.code_gen == c->x.lp_fail_gen;
}

/* Whether the block compiler (jit.c) declined f's body in this code
 * generation (TpcExec.jit_no_body). */
static inline bool tpc_jit_declined(const TpcCpu *c, const TpcLoopFrame *f)
{
    return (f->body == c->x.jit_no_body[0] && f->end == c->x.jit_no_end[0] &&
            c->x.code_gen == c->x.jit_no_gen[0]) ||
           (f->body == c->x.jit_no_body[1] && f->end == c->x.jit_no_end[1] &&
            c->x.code_gen == c->x.jit_no_gen[1]);
}

/* Whether a plan step is a VPU lane loop (run_vpu_vl: V result, no VP
 * predicate), which the block compiler (jit.c) runs inline. */
bool tpc_direct_is_vl(TpcDirectFn fn);
/* The same under a VPRF predicate (run_vpu_vl_vp). */
bool tpc_direct_is_vl_vp(TpcDirectFn fn);
/* Whether a plan step runs its slot's executor (run_staged); whether it
 * is a SET_INDX (of which IRF register, which dims). */
bool tpc_direct_staged(TpcDirectFn fn);
bool tpc_direct_set_indx(TpcDirectFn fn, const TpcInsn *in, unsigned *dst, unsigned *mask);

/* Span hoisting (loop-plan.c; docs/architecture.rst "span hoisting"),
 * shared by loop plans and compiled bodies (jit.c): one tensor access of
 * a body as two observed trips saw it. */
typedef struct TpcHoistAcc {
    int32_t c0[5], c1[5]; /* coordinates at the access in the two trips */
    const uint8_t *h1;    /* its host bytes in the second */
    struct TpcVSpan vs;   /* and the RAM span they are in */
    unsigned t;
    uint32_t pc; /* of its bundle */
    bool store;
    int64_t step; /* host bytes it moves per trip (tpc_hoist_range) */
} TpcHoistAcc;
/* Whether body plan[0..nb) of the loop whose iterator is S[32 + depth]
 * keeps its coordinates affine in the trip number, with *na accesses. */
bool tpc_hoist_body(const TpcDCacheEntry *const *plan, unsigned nb, unsigned depth, unsigned *na);
/* Record bundle dc's accesses (prepared into span[]) in observed trip j
 * (0 or 1), from acc[*na] on. */
void tpc_hoist_record(TpcCpu *c, const TpcDCacheEntry *dc, const uint8_t *const *span,
                      TpcHoistAcc *acc, unsigned *na, unsigned j);
/* At the body's top after the two observed trips: the trips r >= 2 left
 * (the loop's, at most left / nb) in which every access stays in bounds
 * and in its span, setting each one's move; 0 when there are none. */
uint64_t tpc_hoist_range(TpcCpu *c, TpcHoistAcc *acc, unsigned na, unsigned nb, uint64_t left);
/* The race note of access acc at host bytes host (what its check notes). */
void tpc_hoist_note(TpcCpu *c, const TpcHoistAcc *acc, const uint8_t *host);

/* Run the innermost loop's body by its plans from c->pc (loop-plan.c),
 * counting bundles into *n (the slice's, at most max_bundles) and *nd
 * (the direct ones not yet in the core's counters). */
void tpc_enter_loop_plan(TpcCpu *c, uint64_t *n, uint64_t max_bundles, uint64_t *nd);
/* -coverage: credit lnd bundles run in order round [body, end] from start */
void tpc_loop_cov(TpcCpu *c, uint32_t body, uint32_t end, uint32_t start, uint64_t lnd);
/* a gdb breakpoint of this TPC in [body, end] (fast tiers check at entry) */
bool tpc_body_has_bp(const TpcCpu *c, uint32_t body, uint32_t end);

#endif
