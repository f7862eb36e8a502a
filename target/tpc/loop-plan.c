/*
 * Loop plans (docs/architecture.rst, "loop plans"): the innermost LOOP
 * body of direct bundles run trip after trip without the direct loop's
 * per-bundle top, and, where the body's coordinates move by constants,
 * with its tensor span checks taken once for the trips left.
 */
#include <string.h>

#include "target/tpc/cpu.h"
#include "target/tpc/direct.h"
#include "target/tpc/jit.h"
#include "nxemu/trace.h"

/* ---- loop plans: a LOOP body of direct bundles run as one ---- */

/* Bundles a loop plan takes: compiled inner loops are a few bundles long
 * (bench/tpc-stream: two per vector), and a longer body spends little of
 * its time at the loop top anyway. */
#define TPC_LOOP_PLAN_MAX 16

/* ---- span hoisting: a loop plan's tensor checks once for many trips ----
 *
 * When every step of the body keeps the IRF coordinates affine in the trip
 * number (hoist_form: in-place adds of invariant scalars, sets from
 * invariant scalars or the loop's iterator, no SP writes) and no step
 * writes the S registers those read, each tensor access's coordinates move
 * by the same amount every trip, so do its address and its host bytes, and
 * its predicate and descriptor do not change.  Two trips run checked, as
 * ever, and give each access's coordinates twice; the moves are their
 * differences.  If for the trips left (the loop's, within the slice's
 * budget) every access is in bounds and in its span at the first and the
 * last of them, it is at every one between (each dim moves monotonically),
 * and those trips run their steps with the spans stepped instead of
 * checked.  Any check failing leaves the plan as it was. */
#define TPC_HOIST_MAX (2 * TPC_LOOP_PLAN_MAX)

bool tpc_hoist_body(const TpcDCacheEntry *const *plan, unsigned nb, unsigned depth, unsigned *na)
{
    bool hoist = true;
    uint64_t ws = 0, adds = 0, sets = 0;
    *na = 0;
    for (unsigned k = 0; k < nb; k++) {
        hoist = hoist && plan[k]->dhoist;
        ws |= plan[k]->dws;
        adds |= plan[k]->dadd_s;
        sets |= plan[k]->dset_s;
        *na += plan[k]->nprep;
    }
    /* (no access, nothing to hoist; a scalar moving a coordinate that the
     * body writes could move it by anything, and adding the iterator, by
     * more every trip) */
    return hoist && *na && !(ws & (adds | sets)) && !(adds & (1ull << (32 + depth)));
}

void tpc_hoist_record(TpcCpu *c, const TpcDCacheEntry *dc, const uint8_t *const *span,
                      TpcHoistAcc *acc, unsigned *na, unsigned j)
{
    for (unsigned i = 0; i < dc->nprep; i++) {
        const TpcInsn *in = dc->din[dc->dprep[i]];
        TpcHoistAcc *h = &acc[(*na)++];
        memcpy(j ? h->c1 : h->c0, c->irf[in->a.num & 31], sizeof(h->c0));
        if (j) {
            bool store = in == &dc->b.slot[TPC_SLOT_ST];
            h->h1 = span[dc->dprep[i]];
            h->vs = store ? c->x.wspan : c->x.rspan;
            h->t = in->b.raw & 15u;
            h->pc = c->pc;
            h->store = store;
        }
    }
}

/* Whether access h stays in bounds and in its span for trips 1..r after
 * the second observed one, setting its per-trip move. */
static bool hoist_check(const TpcCpu *c, TpcHoistAcc *h, uint64_t r)
{
    const __typeof__(c->x.tfast[0]) *f = &c->x.tfast[h->t];
    __int128 move = 0;
    for (unsigned d = 0; d < f->ndims; d++) {
        int64_t dd = (int64_t)h->c1[d] - h->c0[d];
        /* (at most INT32_MAX: no coordinate wraps, and in 0..INT32_MAX the
         * fast check's unsigned compare is this one) */
        int64_t lo = 0, hi = MIN(d ? (int64_t)f->size[d] - 1 : f->last0, (int64_t)INT32_MAX);
        int64_t first = h->c1[d] + dd, last = h->c1[d] + (int64_t)r * dd;
        if (first < lo || first > hi || last < lo || last > hi)
            return false;
        move += (__int128)dd * f->bstride[d];
    }
    /* the host offset in the span, which is contiguous: in it at both ends */
    __int128 o1 = (__int128)(h->h1 - h->vs.s.host), first = o1 + move,
             last = o1 + (__int128)r * move;
    if (first < 0 || first >= (__int128)h->vs.vlim || last < 0 || last >= (__int128)h->vs.vlim)
        return false;
    h->step = (int64_t)move;
    return true;
}

uint64_t tpc_hoist_range(TpcCpu *c, TpcHoistAcc *acc, unsigned na, unsigned nb, uint64_t left)
{
    const TpcLoopFrame *f = &c->loops[c->nloops - 1];
    int64_t it = (int32_t)c->s[32 + f->depth];
    if (f->cmp != TPC_CMP_LT || f->once || f->step <= 0 || it >= f->bound)
        return 0;
    uint64_t r = (uint64_t)(((int64_t)f->bound - it + f->step - 1) / f->step);
    r = MIN(r, left / nb);
    if (r < 2)
        return 0;
    for (unsigned p = 0; p < na; p++)
        if (!hoist_check(c, &acc[p], r))
            return 0;
    return r;
}

void tpc_hoist_note(TpcCpu *c, const TpcHoistAcc *acc, const uint8_t *host)
{
    tpc_race_note(c->race, acc->vs.s.lo + (uint64_t)(host - acc->vs.s.host), TPC_VBYTES, acc->store,
                  acc->pc, (int)acc->t);
}

/* The trips left after the two observed ones (the loop at its body's top
 * again, c->pc == body), with the accesses' spans stepped: false when it
 * does not apply, and nothing ran. */
static bool loop_hoist(TpcCpu *c, const TpcDCacheEntry *const *plan, unsigned nb, TpcHoistAcc *acc,
                       unsigned na, uint64_t *n, uint64_t max_bundles, uint64_t *nd)
{
    const TpcLoopFrame *f = &c->loops[c->nloops - 1];
    uint64_t r = tpc_hoist_range(c, acc, na, nb, max_bundles - *n);
    if (!r)
        return false;
    /* each bundle's span list, kept from trip to trip: only the accesses'
     * entries move (slot[p]: access p's) */
    const uint8_t *span[TPC_LOOP_PLAN_MAX][4];
    const uint8_t **slot[TPC_HOIST_MAX];
    memset(span, 0, sizeof(span));
    for (unsigned b = 0, p = 0; b < nb; b++)
        for (unsigned i = 0; i < plan[b]->nprep; i++, p++) {
            slot[p] = &span[b][plan[b]->dprep[i]];
            *slot[p] = acc[p].h1;
        }
    uint32_t body = f->body, end = f->end;
    unsigned depth = c->nloops;
    for (uint64_t k = 0; k < r; k++) {
        for (unsigned p = 0; p < na; p++)
            *slot[p] += acc[p].step;
        if (G_UNLIKELY(c->race))
            for (unsigned p = 0; p < na; p++)
                tpc_hoist_note(c, &acc[p], *slot[p]);
        for (unsigned b = 0; b < nb; b++) {
            c->pc = body + b * TPC_BUNDLE;
            tpc_direct_steps(c, plan[b], span[b]);
        }
        *n += nb;
        *nd += nb;
        c->x.hoist_total += nb;
        uint32_t next = tpc_loop_end_fast(c, end);
        c->pc = next;
        if (next != body || c->nloops != depth)
            return true; /* (the last trip: r counted the loop's) */
    }
    return true;
}

/* Go round the innermost loop, whose body is about to start again at
 * c->pc, without the per-bundle loop top of tpc_run_quiet: when every body
 * bundle has a current direct plan (decoded and compared at this code
 * generation, so no bundle of it changed), none is a jump or carries a gdb
 * breakpoint, and the caller knows nothing observes single bundles, the
 * body's plans run one after the other by the same tpc_direct_run, and the
 * loop end is the same tpc_loop_end_fast.  What that skips per bundle: the decode
 * cache lookup, the code-current and breakpoint checks and the loop-end
 * test (bench/tpc-stream, CALLGRIND=1).  Anything unusual (a plan's checks
 * failing, code written, the slice's budget spent, the loop leaving) stops
 * at a bundle boundary with c->pc at the next bundle, which the caller
 * then runs as it would have.  *n and *nd count the bundles as the
 * caller's loop does (a bundle that did not run is not counted).  A body
 * whose steps allow it has its tensor spans hoisted after two trips
 * (loop_hoist). */
static void loop_plan_iterate(TpcCpu *c, uint64_t *n, uint64_t max_bundles, uint64_t *nd)
{
    const TpcLoopFrame *f = &c->loops[c->nloops - 1];
    uint32_t body = f->body, end = f->end;
    unsigned depth = c->nloops;
    if (c->pc != body || end < body || (end - body) / TPC_BUNDLE >= TPC_LOOP_PLAN_MAX ||
        !c->x.code_marked || c->in_delay_slot)
        return;
    unsigned nb = (end - body) / TPC_BUNDLE + 1;
    const TpcDCacheEntry *plan[TPC_LOOP_PLAN_MAX];
    uint64_t gen = c->x.code_gen;
    /* (a body with a jump or a bundle without a plan keeps them in this
     * generation: lrelu's would cost 18 host instructions per bundle) */
    if (body == c->x.lp_fail_body && end == c->x.lp_fail_end && gen == c->x.lp_fail_gen)
        return;
    for (unsigned k = 0; k < nb; k++) {
        uint32_t pc = body + k * TPC_BUNDLE;
        const TpcDCacheEntry *dc = &c->x.dcache[(pc / TPC_BUNDLE) % TPC_DCACHE_SIZE];
        if (dc->gen != gen || dc->gen_pc != pc || (c->x.nbp && tpc_bp_at(c, pc)))
            return; /* (not yet decoded here, or a breakpoint: this slice) */
        if (!dc->direct || dc->spu_jmp) {
            c->x.lp_fail_body = body;
            c->x.lp_fail_end = end;
            c->x.lp_fail_gen = gen;
            return;
        }
        plan[k] = dc;
    }
    unsigned na;
    bool hoist = tpc_hoist_body(plan, nb, f->depth, &na);
    TpcHoistAcc acc[TPC_HOIST_MAX];
    for (unsigned trip = 0;; trip++) {
        /* Once per trip: a budget for the whole body (the caller's loop
         * goes on bundle by bundle near the slice's end), and the code
         * still current.  Nothing in a trip can change the code: a direct
         * store's span never covers a marked page (as_host_span keeps
         * writes to code on the slow path), and nothing here decodes. */
        if (max_bundles - *n < nb || !c->x.code_marked || c->x.code_gen != gen)
            return;
        if (hoist && trip == 2) {
            hoist = false;
            if (loop_hoist(c, plan, nb, acc, na, n, max_bundles, nd))
                return;
        }
        unsigned np = 0;
        for (unsigned k = 0; k < nb; k++) {
            const TpcDCacheEntry *dc = plan[k];
            c->pc = body + k * TPC_BUNDLE;
            if (G_UNLIKELY(hoist) && dc->nprep) {
                /* (the two observed trips: as tpc_direct_run, recording) */
                const uint8_t *span[4] = {NULL, NULL, NULL, NULL};
                if (!tpc_direct_prep_all(c, dc, span))
                    return;
                tpc_hoist_record(c, dc, span, acc, &np, trip);
                tpc_direct_steps(c, dc, span);
            } else if (!tpc_direct_run(c, dc)) {
                return;
            }
            (*n)++;
            (*nd)++;
        }
        uint32_t next = tpc_loop_end_fast(c, end);
        c->pc = next;
        if (next != body || c->nloops != depth)
            return;
    }
}

/* -coverage: the lnd bundles a loop plan or a compiled body ran from the
 * bundle at start, in order and round the body trip after trip (neither
 * jumps inside the body), each bundle's entry current all along (checked
 * at entry, and nothing decodes meanwhile).  (Loop plans and compiled
 * bodies run only while no trace records every bundle.) */
void tpc_loop_cov(TpcCpu *c, uint32_t body, uint32_t end, uint32_t start, uint64_t lnd)
{
    uint64_t nb = (end - body) / TPC_BUNDLE + 1, trips = lnd / nb, part = lnd % nb;
    uint64_t s0 = (start - body) / TPC_BUNDLE;
    if (tpc_jit_counted(c, body, end))
        return;
    for (uint64_t k = 0; k < nb; k++) {
        uint32_t pc = body + (uint32_t)k * TPC_BUNDLE;
        uint64_t from_start = (k + nb - s0) % nb; /* bundles before it in a trip from start */
        tpc_cov_note(c, &c->x.dcache[(pc / TPC_BUNDLE) % TPC_DCACHE_SIZE],
                     trips + (from_start < part));
    }
}

/* a gdb breakpoint of this TPC in [body, end] */
bool tpc_body_has_bp(const TpcCpu *c, uint32_t body, uint32_t end)
{
    for (int i = 0; i < c->x.nbp; i++)
        if (c->x.bp_pc[i] >= body && c->x.bp_pc[i] <= end)
            return true;
    return false;
}

/* The same, counting its bundles (TpcExec.loop_total: the tests see the
 * plans run). */
void tpc_enter_loop_plan(TpcCpu *c, uint64_t *n, uint64_t max_bundles, uint64_t *nd)
{
    /* (counters of its own, which the direct executors cannot alias, stay
     * in registers: through the caller's, 13 host instructions a bundle) */
    uint64_t ln = *n, lnd = 0;
    /* (a body found without plans has no compiled body either, checked
     * once for both: lrelu's, with a jmpr, comes here every trip) */
    const TpcLoopFrame *f = &c->loops[c->nloops - 1];
    uint32_t body = f->body, end = f->end;
    /* a gdb breakpoint in the body (set while the core was stopped, since
     * the body was compiled): this slice runs it bundle by bundle, and
     * stops there (nx_debug_quiet_range's rule, checked at entry) */
    if (G_UNLIKELY(c->x.nbp) && tpc_body_has_bp(c, body, end))
        return;
    if (tpc_lp_failed(c, f))
        return;
    if (!c->x.jit_on || tpc_jit_declined(c, f) || !tpc_jit_loop(c, &ln, max_bundles, &lnd))
        loop_plan_iterate(c, &ln, max_bundles, &lnd);
    *n = ln;
    *nd += lnd;
    c->x.loop_total += lnd;
    if (G_UNLIKELY(c->parent.trace) && lnd && trace_counts_insns(c->parent.trace))
        tpc_loop_cov(c, body, end, body, lnd);
}
