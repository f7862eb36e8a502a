/*
 * One lane loop over a 256-byte register image, written once: the
 * whole-register loops of vlane-impl.h (the interpreter's) and the block
 * compiler's stencils (jit-stencils.c) both expand VL_LANES around a row
 * of lane-ops.def, so a stencil is the interpreter's loop with its
 * pointers taken from holes.  Self-contained (no cpu.h): the stencils are
 * compiled apart from the emulator.
 */
#ifndef TARGET_TPC_VLANE_LOOP_H
#define TARGET_TPC_VLANE_LOOP_H

#include <stdint.h>
#include <string.h>

#define TPC_VL_BYTES 256

static inline uint32_t vl_ld4(const uint8_t *p, unsigned i)
{
    uint32_t v;
    memcpy(&v, p + 4 * i, 4);
    return v;
}

static inline uint32_t vl_ld2(const uint8_t *p, unsigned i)
{
    uint16_t v;
    memcpy(&v, p + 2 * i, 2);
    return v;
}

static inline uint32_t vl_ld1(const uint8_t *p, unsigned i)
{
    return p[i];
}

static inline void vl_st4(uint8_t *p, unsigned i, uint32_t v)
{
    memcpy(p + 4 * i, &v, 4);
}

static inline void vl_st2(uint8_t *p, unsigned i, uint32_t v)
{
    uint16_t h = (uint16_t)v;
    memcpy(p + 2 * i, &h, 2);
}

static inline void vl_st1(uint8_t *p, unsigned i, uint32_t v)
{
    p[i] = (uint8_t)v;
}

/* out = expr for every lane of element size E: x, y, z the lanes of a, b,
 * d, T the type TY (an OPERANDS_TYPE code).  Unrolled by 8: with AVX2 that
 * is the whole register (8 vectors of 32 bytes), so no loop counter per
 * vector.  (E is expanded before it is pasted.)  The pointers must be
 * restrict-qualified by the caller (out aliases none of a, b, d). */
/* No dependence between the lanes' iterations: the stencils' pointers
 * come from holes, where the compiler cannot see that out aliases no
 * source (and would test it at run time). */
#if defined(__clang__)
/* A hint, not a demand: an instrumented build (sanitizers, the fuzzers)
 * may leave the loop scalar, which clang reports as -Wpass-failed. */
#define VL_IVDEP                                                                                   \
    _Pragma("clang diagnostic ignored \"-Wpass-failed\"")                                          \
        _Pragma("clang loop vectorize(assume_safety)")
#else
#define VL_IVDEP _Pragma("GCC ivdep")
#endif
#define VL_LANES(E, TY, expr, out, a, b, d) VL_LANES_(E, TY, expr, out, a, b, d)
#define VL_LANES_(E, TY, expr, out, a, b, d)                                                       \
    do {                                                                                           \
        enum { T = TY };                                                                           \
        VL_IVDEP _Pragma("GCC unroll 8") for (unsigned i = 0; i < TPC_VL_BYTES / (E); i++)         \
        {                                                                                          \
            uint32_t x = vl_ld##E(a, i), y = vl_ld##E(b, i), z = vl_ld##E(d, i);                   \
            (void)x, (void)y, (void)z;                                                             \
            vl_st##E(out, i, (expr));                                                              \
        }                                                                                          \
    } while (0)

#endif
