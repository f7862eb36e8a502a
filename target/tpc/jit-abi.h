/*
 * What the TPC's compiled loop bodies (jit.c) and their stencils
 * (jit-stencils.c) agree on.  A body is entered as a TpcJitFn with the
 * core (TpcCpu, as bytes: the stencils address its registers by offsets
 * that are holes) and the body's context, runs one trip of the loop body
 * and returns how many of its bundles ran: all of them, or k when bundle
 * k's checks failed (nothing of it happened; the interpreter takes it).
 */
#ifndef TARGET_TPC_JIT_ABI_H
#define TARGET_TPC_JIT_ABI_H

#include <stdbool.h>
#include <stdint.h>

typedef struct TpcJitCtx TpcJitCtx;
struct TpcJitCtx {
    /* bundle k of the body by its direct plan (tpc_direct_run): false if
     * its checks failed and nothing ran */
    bool (*run)(char *c, const TpcJitCtx *x, uint32_t k);
    /* step s of bundle k's plan, which has no tensor access */
    void (*step)(char *c, const TpcJitCtx *x, uint32_t k, uint32_t s);
    const void *const *plan; /* the bundles' TpcDCacheEntry, in body order */
    uint32_t body;           /* the PC of bundle 0 */
};

typedef uint32_t (*TpcJitFn)(char *c, const TpcJitCtx *x);

/* A scalar's broadcast image, as TpcBcast (cpu.h; jit.c checks the
 * layout): the stencils read the core's own. */
typedef struct TpcJitBcast {
    uint8_t img[256];
    uint32_t val;
    unsigned e;
} TpcJitBcast;

#endif
