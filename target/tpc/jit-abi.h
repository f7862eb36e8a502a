/*
 * What the TPC's compiled loop bodies (jit.c) and their stencils
 * (jit-stencils.c) agree on.  A body is entered as a TpcJitFn with the
 * core (TpcCpu, as bytes: the stencils address its registers by offsets
 * that are holes) and the body's context at any of its bundles, runs
 * bundles while the core's TpcJitRun.left allows, going round the loop in
 * code while its end is the common one (an ascending '<' going round
 * again), and returns the bundle k it stopped before: nb (the body's
 * bundles) when the loop end is the caller's, k < nb when the budget ran
 * out there or bundle k's checks failed (nothing of it happened; the
 * interpreter takes it).
 */
#ifndef TARGET_TPC_JIT_ABI_H
#define TARGET_TPC_JIT_ABI_H

#include <stdbool.h>
#include <stdint.h>

typedef struct TpcJitCtx TpcJitCtx;
struct TpcJitCtx {
    /* step s of bundle k's plan (with its span when prep took one) */
    void (*step)(char *c, const TpcJitCtx *x, uint32_t k, uint32_t s);
    /* bundle k's tensor checks and spans (tpc_direct_prep_all), before
     * its steps: false if they failed and nothing ran */
    bool (*prep)(char *c, const TpcJitCtx *x, uint32_t k);
    /* bundle k's store, after its steps */
    void (*commit)(char *c, const TpcJitCtx *x, uint32_t k);
    const void *const *plan; /* the bundles' TpcDCacheEntry, in body order */
    uint32_t body;           /* the PC of bundle 0 */
    uint64_t gen;            /* the code generation it was compiled in */
    /* per bundle k, step s's calls of step at [TPC_JIT_NCALLS k + s] */
    uint64_t *calls;
    /* per bundle k, the spans of its steps (4 k + s) while it runs */
    const uint8_t **span;
    /* hoisted trips (jit.c hoisted code): access p's host bytes in this
     * trip, moved by hstep[p] after its use, and the race notes of a trip */
    const uint8_t **hspan;
    const int64_t *hstep;
    void (*hnote)(char *c, const TpcJitCtx *x);
    /* -coverage: bundle k ran (a body with jumps counts each bundle) */
    void (*cov)(char *c, const TpcJitCtx *x, uint32_t k);
};
#define TPC_JIT_NCALLS 4

/* What a compiled body runs by, in the core (TpcExec.jrun): the bundles
 * the slice may still run (each bundle takes one first), and the
 * innermost loop's step and bound when its end goes round in code. */
typedef struct TpcJitRun {
    uint64_t left;
    int32_t step, bound;
    uint8_t fast; /* an ascending '<' loop: its end in code */
    uint8_t note; /* hoisted code: race notes wanted */
    uint64_t trips; /* hoisted code: the trips it may still run */
} TpcJitRun;

/* A VPRF predicate's lane mask as a VP-masked stencil keeps it (one per
 * VP register, TpcExec.jvpm): built from vp (the register's bytes when it
 * was built) for key (element size | polarity << 4 | 0x100), kept while
 * the register and the key stay; any: some lane enabled. */
typedef struct TpcJitMask {
    uint8_t m[256];
    uint8_t vp[32];
    uint32_t key;
    uint32_t any;
} TpcJitMask;

typedef uint32_t (*TpcJitFn)(char *c, const TpcJitCtx *x);

/* A scalar's broadcast image, as TpcBcast (cpu.h; jit.c checks the
 * layout): the stencils read the core's own. */
typedef struct TpcJitBcast {
    uint8_t img[256];
    uint32_t val;
    unsigned e;
} TpcJitBcast;

#endif
