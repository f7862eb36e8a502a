/*
 * Whole-register VPU lane operations (vlane.h): the lane functions of
 * lane.h applied to every lane of 256-byte register images, in loops the
 * compiler vectorises.  The staged executors (exec-vpu.c, exec-vpu-perm.c)
 * and the direct path (cpu-direct.c) both call these, so each operation's
 * semantics exist once (lane.h) and run at vector speed everywhere.
 *
 * The loops (vlane-impl.h) are compiled twice on x86-64: for AVX2+FMA and
 * for the baseline.  MAC.f32 must be fused; with FMA the compiler turns the
 * per-lane __builtin_fmaf into vfmadd, the baseline calls libm's fmaf per
 * lane (correct, slow).  The choice is made on the first call with two
 * CPUID leaves, not by GCC target_clones: those make libgcc's
 * __cpu_indicator_init run at every start-up, a dozen CPUID instructions
 * that cost ~0.1 ms under a hypervisor even for runs with no TPC at all
 * (bench/startup.sh).
 */
#include <string.h>

#include <glib.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "target/tpc/cpu.h"
#include "target/tpc/lane.h"
#include "target/tpc/vlane-loop.h"
#include "target/tpc/vlane.h"

void tpc_vl_pack(uint8_t vp[TPC_VPBYTES], const uint8_t bytes[TPC_VBYTES])
{
#if defined(__SSE2__)
    for (unsigned j = 0; j < TPC_VBYTES; j += 16) {
        __m128i x;
        memcpy(&x, bytes + j, 16);
        uint16_t m = (uint16_t)_mm_movemask_epi8(x);
        memcpy(vp + j / 8, &m, 2);
    }
#else
    for (unsigned j = 0; j < TPC_VPBYTES; j++) {
        uint8_t g = 0;
        for (unsigned k = 0; k < 8; k++)
            g |= (uint8_t)((bytes[8 * j + k] >> 7) << k);
        vp[j] = g;
    }
#endif
}

#define VL(name) vl_base_##name
#define VL_ATTR
#include "target/tpc/vlane-impl.h"
#undef VL
#undef VL_ATTR

/* Tensor stores of whole registers (tpc_vl_stream_fn): non-temporal, which
 * skips reading the destination lines into the cache first, when the
 * destination is aligned for the ISA's streaming stores; a plain copy
 * otherwise. */
static bool vl_base_stream(uint8_t *out, const uint8_t *a)
{
#if defined(__SSE2__)
    if (!((uintptr_t)out & 15)) {
#pragma GCC unroll 16
        for (unsigned i = 0; i < TPC_VBYTES; i += 16)
            _mm_stream_si128((__m128i *)(out + i), _mm_loadu_si128((const __m128i *)(a + i)));
        return true;
    }
#endif
    memcpy(out, a, TPC_VBYTES);
    return false;
}

typedef struct VlImpl {
    TpcVlFn mov;
    TpcVlStreamFn stream;
    TpcVlFn (*resolve)(unsigned, unsigned, unsigned);
    TpcVlFn (*cvt)(unsigned, unsigned, unsigned);
    TpcVlFn (*nbi)(unsigned, unsigned);
    bool (*arith)(unsigned, unsigned, unsigned, uint8_t *restrict, const uint8_t *restrict,
                  const uint8_t *restrict, const uint8_t *restrict, const uint8_t *restrict,
                  uint8_t *restrict);
    void (*cmp)(unsigned, unsigned, bool, uint8_t *restrict, const uint8_t *restrict,
                const uint8_t *restrict);
    void (*sel)(unsigned, unsigned, bool, uint8_t *restrict, uint8_t *restrict,
                const uint8_t *restrict, const uint8_t *restrict, const uint8_t *restrict,
                const uint8_t *restrict);
} VlImpl;

static const VlImpl vl_base = {vl_base_mov,         vl_base_stream,      vl_base_resolve,
                               vl_base_cvt_resolve, vl_base_nbi_resolve, vl_base_arith,
                               vl_base_cmp,         vl_base_sel};

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#include <immintrin.h>

#define VL(name) vl_avx2_##name
#define VL_ATTR  __attribute__((target("avx2,fma")))
#include "target/tpc/vlane-impl.h"
#undef VL
#undef VL_ATTR

/* the same 32 bytes at a time: half the instructions, and a register
 * image written by the 32-byte stores of the lane loops is read back by
 * loads of the same width */
__attribute__((target("avx2"))) static bool vl_avx2_stream(uint8_t *out, const uint8_t *a)
{
    if ((uintptr_t)out & 31)
        return vl_base_stream(out, a);
#pragma GCC unroll 8
    for (unsigned i = 0; i < TPC_VBYTES; i += 32)
        _mm256_stream_si256((__m256i *)(out + i), _mm256_loadu_si256((const __m256i *)(a + i)));
    return true;
}

static const VlImpl vl_avx2 = {vl_avx2_mov,         vl_avx2_stream,      vl_avx2_resolve,
                               vl_avx2_cvt_resolve, vl_avx2_nbi_resolve, vl_avx2_arith,
                               vl_avx2_cmp,         vl_avx2_sel};

/* AVX2 and FMA need the CPU features and the OS saving YMM state (XCR0
 * bits 1-2). */
static bool host_has_avx2_fma(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_OSXSAVE) || !(c & bit_AVX) || !(c & bit_FMA))
        return false;
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    if ((lo & 6u) != 6u)
        return false;
    return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & bit_AVX2);
}
#define VL_HOST_BEST (host_has_avx2_fma() ? &vl_avx2 : &vl_base)
#define VL_HAVE_WIDE 1
#else
#define VL_HOST_BEST (&vl_base)
#define VL_HAVE_WIDE 0
#endif

static const VlImpl *vl_impl;

static inline const VlImpl *impl(void)
{
    const VlImpl *p = __atomic_load_n(&vl_impl, __ATOMIC_RELAXED);
    if (G_UNLIKELY(!p)) {
        p = VL_HOST_BEST;
        __atomic_store_n(&vl_impl, p, __ATOMIC_RELAXED);
    }
    return p;
}

bool tpc_vl_select(bool baseline)
{
    if (baseline) {
        __atomic_store_n(&vl_impl, &vl_base, __ATOMIC_RELAXED);
        return true;
    }
    __atomic_store_n(&vl_impl, NULL, __ATOMIC_RELAXED);
    return VL_HAVE_WIDE && impl() != &vl_base;
}

static const uint8_t vl_zero[TPC_VBYTES];

bool tpc_vl_arith(unsigned op, unsigned t, unsigned sw, uint8_t *out, const uint8_t *a,
                  const uint8_t *b, const uint8_t *d, const uint8_t *cin, uint8_t *cout)
{
    uint8_t dummy[TPC_VPBYTES];
    return impl()->arith(op, t, sw, out, a, b, d ? d : vl_zero, cin ? cin : vl_zero,
                         cout ? cout : dummy);
}

TpcVlFn tpc_vl_mov_fn(void)
{
    return impl()->mov;
}

TpcVlStreamFn tpc_vl_stream_fn(void)
{
    return impl()->stream;
}

TpcVlFn tpc_vl_arith_fn(unsigned op, unsigned t, unsigned sw)
{
    return impl()->resolve(op, t, sw);
}

TpcVlFn tpc_vl_convert_fn(unsigned st, unsigned dt, unsigned rm)
{
    return impl()->cvt(st, dt, rm);
}

TpcVlFn tpc_vl_nearbyint_fn(unsigned t, unsigned rm)
{
    return impl()->nbi(t, rm);
}

void tpc_vl_cmp(unsigned op, unsigned t, bool mez, uint8_t vp[TPC_VPBYTES], const uint8_t *a,
                const uint8_t *b)
{
    impl()->cmp(op, t, mez, vp, a, b);
}

void tpc_vl_sel(unsigned op, unsigned t, bool mez, uint8_t *out, uint8_t *out2, const uint8_t *a,
                const uint8_t *b, const uint8_t *c, const uint8_t *d)
{
    impl()->sel(op, t, mez, out, out2, a, b, c, d);
}
