/*
 * CONVERT and NEARBYINT (tpc.md §5.3.1, §5.5.5, §10 item 16) against
 * references written apart from the code under test: CONVERT against the
 * exact-double rounding the emulator used before its lanes became integer
 * arithmetic (each source value exact in a double, its neighbours in the
 * target format found with nextafterf / floor, the mode choosing one),
 * NEARBYINT against the host's C99 functions (truncf, ceilf, floorf,
 * roundf, rintf).  Every (source, target, mode) of the description, edge
 * values (NaN, +-inf, +-0, the largest and smallest of each format,
 * denormals, ties, just inside and beyond each saturation bound) and
 * seeded random bits, through the scalar element (tpc_convert: the SPU
 * and lane by lane) and the whole-register loops (baseline and the
 * host's widest: the staged VPU executor's and the direct plans'); a
 * few results worked out by hand besides.
 */
#include <math.h>
#include <string.h>

#include <glib.h>

#include "target/tpc/cpu.h"
#include "target/tpc/lane.h"
#include "target/tpc/vlane.h"

/* ---- the reference: rounding of an exact double ---- */

static unsigned ref_mant_bits(unsigned t)
{
    return t == TPC_T_F32 ? 23 : t == TPC_T_BF16 ? 7 : 0;
}

/* Magnitude neighbours lo (toward zero) and hi (away from zero) of |x| in
 * format dt, as doubles; hi may be 2^128 for "infinity". */
static void ref_neighbours(double ax, unsigned dt, double *lo, double *hi)
{
    if (dt == TPC_T_F32 || dt == TPC_T_BF16) {
        float t = (float)ax;
        if ((double)t > ax)
            t = nextafterf(t, 0.0f);
        if (dt == TPC_T_BF16)
            t = tpc_f32(tpc_f32_bits(t) & 0xFFFF0000u);
        *lo = t;
        if (dt == TPC_T_F32) {
            float h = nextafterf(t, INFINITY);
            *hi = isinf(h) ? ldexp(1.0, 128) : h;
        } else {
            uint32_t hb = tpc_f32_bits(t) + 0x10000u;
            float h = tpc_f32(hb);
            *hi = isinf(h) ? ldexp(1.0, 128) : h;
        }
    } else {
        *lo = floor(ax);
        *hi = *lo + 1.0;
    }
}

static uint32_t ref_int_sat(double v, unsigned dt)
{
    double mn, mx;
    switch (dt) {
    case TPC_T_I32:
        mn = -2147483648.0, mx = 2147483647.0;
        break;
    case TPC_T_U32:
        mn = 0, mx = 4294967295.0;
        break;
    case TPC_T_I16:
        mn = -32768, mx = 32767;
        break;
    case TPC_T_U16:
        mn = 0, mx = 65535;
        break;
    case TPC_T_I8:
        mn = -128, mx = 127;
        break;
    default:
        mn = 0, mx = 255;
        break;
    }
    if (v < mn)
        v = mn;
    if (v > mx)
        v = mx;
    int64_t i = (int64_t)v;
    unsigned bits = 8 * tpc_type_esize(dt);
    return bits == 32 ? (uint32_t)i : (uint32_t)i & ((1u << bits) - 1);
}

static uint32_t ref_round_to(double x, bool is_nan, unsigned src_type, unsigned dt, unsigned rm,
                             uint32_t sr_state)
{
    bool tfloat = tpc_type_is_float(dt);
    if (is_nan)
        return dt == TPC_T_F32 ? 0x7FC00000u : dt == TPC_T_BF16 ? 0x7FC0u : 0;
    if (isinf(x)) {
        if (dt == TPC_T_F32)
            return x > 0 ? 0x7F800000u : 0xFF800000u;
        if (dt == TPC_T_BF16)
            return x > 0 ? 0x7F80u : 0xFF80u;
        return ref_int_sat(x, dt);
    }
    bool neg = signbit(x);
    double ax = fabs(x);
    double lo, hi, r;
    ref_neighbours(ax, dt, &lo, &hi);
    if (ax == lo) {
        r = lo;
    } else {
        switch (rm) {
        case TPC_RM_RZ:
            r = lo;
            break;
        case TPC_RM_RU:
            r = neg ? lo : hi;
            break;
        case TPC_RM_RD:
            r = neg ? hi : lo;
            break;
        case TPC_RM_SR: {
            if (!tpc_type_is_float(src_type)) {
                r = lo; /* an integer source rounds as rz (tpc.md §10.16) */
                break;
            }
            int k = (int)ref_mant_bits(src_type) - (int)ref_mant_bits(dt);
            if (k <= 0) {
                r = lo;
                break;
            }
            double add = (double)(sr_state & ((1u << k) - 1)) * (hi - lo) / (double)(1u << k);
            r = (ax + add >= hi) ? hi : lo;
            break;
        }
        default: { /* RHNE, RHAZ */
            double dl = ax - lo, dh = hi - ax;
            if (dl < dh) {
                r = lo;
            } else if (dl > dh) {
                r = hi;
            } else if (rm == TPC_RM_RHAZ) {
                r = hi;
            } else {
                /* tie: the neighbour with an even last digit */
                bool lo_even;
                if (dt == TPC_T_F32)
                    lo_even = !(tpc_f32_bits((float)lo) & 1u);
                else if (dt == TPC_T_BF16)
                    lo_even = !((tpc_f32_bits((float)lo) >> 16) & 1u);
                else
                    lo_even = fmod(lo, 2.0) == 0.0;
                r = lo_even ? lo : hi;
            }
            break;
        }
        }
    }
    if (tfloat) {
        float f = r >= ldexp(1.0, 128) ? INFINITY : (float)r;
        if (neg)
            f = -f;
        uint32_t b = tpc_f32_bits(f);
        return dt == TPC_T_BF16 ? b >> 16 : b;
    }
    return ref_int_sat(neg ? -r : r, dt);
}

static uint32_t ref_convert(uint32_t raw, unsigned st, unsigned dt, unsigned rm, uint32_t sr_state)
{
    bool nan;
    double x = tpc_elem_to_double(raw, st, &nan);
    if (!tpc_type_is_float(st) && !tpc_type_is_float(dt))
        return ref_int_sat(x, dt); /* integer -> integer saturates */
    return ref_round_to(x, nan, st, dt, rm, sr_state);
}

/* ---- the host's NEARBYINT (f32, bf16 widened) ---- */

static uint32_t ref_nearbyint(uint32_t u, unsigned rm, uint32_t sr)
{
    float f = tpc_f32(u), r;
    switch (rm) {
    case TPC_RM_RZ:
        r = truncf(f);
        break;
    case TPC_RM_RU:
        r = ceilf(f);
        break;
    case TPC_RM_RD:
        r = floorf(f);
        break;
    case TPC_RM_RHAZ:
        r = roundf(f);
        break;
    case TPC_RM_SR: /* the state's bits 8..31 at 2^-24 added, truncated */
        r = fabsf(f) >= 0x1p23f || !isfinite(f)
                ? f
                : copysignf(truncf(fabsf(f) + (float)(sr >> 8) * 0x1p-24f), f);
        break;
    default:
        r = rintf(f);
        break;
    }
    return isnan(r) ? 0x7FC00000u : tpc_f32_bits(r);
}

/* ---- values ---- */

static const unsigned modes[] = {TPC_RM_RHNE, TPC_RM_RZ, TPC_RM_RU,
                                 TPC_RM_RD,   TPC_RM_SR, TPC_RM_RHAZ};
static const unsigned types[] = {TPC_T_F32, TPC_T_BF16, TPC_T_I32, TPC_T_U32,
                                 TPC_T_I16, TPC_T_U16,  TPC_T_I8,  TPC_T_U8};

/* f32 edges: specials, format bounds, denormals, ties and the integer
 * bounds of every target with their neighbours */
static const uint32_t f32_edges[] = {
    0x00000000,
    0x80000000,
    0x7F800000,
    0xFF800000,
    0x7FC00000,
    0xFFC00000,
    0x7F800001,
    0xFFFFFFFF,
    0x7F7FFFFF,
    0xFF7FFFFF,
    0x00000001,
    0x80000001,
    0x007FFFFF,
    0x00800000,
    0x3F000000,
    0xBF000000,
    /* +-0.5 */ 0x3FC00000,
    0xBFC00000, /* +-1.5 */
    0x40200000,
    0xC0200000,
    /* +-2.5 */ 0x3F7FFFFF,
    0x3F800001,
    0x3EFFFFFF,
    0x3F000001,
    0x4B000000,
    0x4AFFFFFF,
    0x4B000001,
    0xCAFFFFFF,
    /* around 2^23 */ 0x4B7FFFFF,
    0x4B800000,
    0x4EFFFFFF,
    0x4F000000,
    0x4F000001,
    0xCF000000,
    0xCF000001,
    /* 2^31 */ 0x4F7FFFFF,
    0x4F800000,
    0x4F800001,
    /* 2^32 */ 0x46FFFE00,
    0x46FFFF00,
    0x47000000,
    0xC7000000,
    0xC7000100,
    0xC7008000,
    /* 2^15 */ 0x477FFF00,
    0x477FFF80,
    0x47800000, /* 2^16 */
    0x42FE0000,
    0x42FF0000,
    0x43000000,
    0xC3000000,
    0xC3008000,
    0xC3010000, /* 2^7 */
    0x437F0000,
    0x437F8000,
    0x43800000,
    /* 255.5, 256 */ 0xBE99999A,
    0xBF333333,
    0x3F8CCCCD,
    0x3F808000,
    0x3F818000,
    0x3F817FFF,
    0x3F818001,
    /* bf16 ties */ 0x7F7F8000,
    0x7F7F7FFF,
    0x7F7FFFFF,
    0x00008000,
    0x00018000,
    0x00017FFF,
};

static const uint32_t int_edges[] = {
    0,          1,          2,          0xFFFFFFFF, 0x7FFFFFFF, 0x80000000, 0x80000001,
    0x00FFFFFF, 0x01000000, 0x01000001, 0x01000002, 0x01000003, 0x02000006, 0xFF000001,
    0xFEFFFFFF, 0x7FFFFFC0, 0x7FFFFF80, 0xFFFFFF80, 0x7F,       0x80,       0xFF,
    0x100,      0x7FFF,     0x8000,     0xFFFF,     0x10000,    0x0101,     0x0181,
    0x0180,     0x0280,     0x8080,     0xFFFF8000, 0x123456,   0x7FFFFF,   0x800001,
};

static uint32_t width_mask(unsigned t)
{
    unsigned n = 8 * tpc_type_size(t);
    return n == 32 ? 0xFFFFFFFFu : (1u << n) - 1;
}

/* The values of source type st to try: edges, then n random raw elements */
static unsigned values(unsigned st, uint32_t *v, unsigned cap, GRand *r, unsigned n)
{
    unsigned k = 0;
    if (st == TPC_T_F32) {
        for (unsigned i = 0; i < G_N_ELEMENTS(f32_edges); i++)
            v[k++] = f32_edges[i];
    } else if (st == TPC_T_BF16) {
        for (unsigned i = 0; i < G_N_ELEMENTS(f32_edges); i++)
            v[k++] = f32_edges[i] >> 16;
    } else {
        for (unsigned i = 0; i < G_N_ELEMENTS(int_edges); i++)
            v[k++] = int_edges[i] & width_mask(st);
    }
    for (unsigned i = 0; i < n && k < cap; i++) {
        uint32_t x = g_rand_int(r);
        /* small magnitudes too: halves and ties are where modes differ */
        if (st == TPC_T_F32 && (i & 1))
            x = (x & 0x807FFFFFu) | (uint32_t)g_rand_int_range(r, 100, 160) << 23;
        v[k++] = x & width_mask(st);
    }
    return k;
}

/* ---- the tests ---- */

static void check_convert_pairs(void)
{
    GRand *r = g_rand_new_with_seed(36);
    uint32_t v[4096], sr[64];
    unsigned checked = 0;
    for (unsigned a = 0; a < G_N_ELEMENTS(types); a++) {
        for (unsigned b = 0; b < G_N_ELEMENTS(types); b++) {
            unsigned st = types[a], dt = types[b];
            unsigned n = values(st, v, G_N_ELEMENTS(v), r, 3000);
            for (unsigned m = 0; m < G_N_ELEMENTS(modes); m++) {
                unsigned rm = modes[m];
                for (unsigned i = 0; i < n; i++) {
                    uint32_t s = rm == TPC_RM_SR ? g_rand_int(r) : 0;
                    uint32_t want = ref_convert(v[i], st, dt, rm, s);
                    uint32_t got = tpc_convert(v[i], st, dt, rm, s);
                    if (got != want)
                        g_error("convert %u->%u rm %u of %#x (sr %#x): %#x, want %#x", st, dt, rm,
                                v[i], s, got, want);
                    checked++;
                }
                /* the whole-register loop, where there is one */
                unsigned e = tpc_type_size(st);
                if (e != tpc_type_size(dt) || rm == TPC_RM_SR)
                    continue;
                for (int wide = 0; wide < 2; wide++) {
                    if (wide ? !tpc_vl_select(false) : !tpc_vl_select(true))
                        continue;
                    TpcVlFn f = tpc_vl_convert_fn(st, dt, rm);
                    if (!f)
                        continue;
                    for (unsigned base = 0; base < n; base += TPC_VBYTES / e) {
                        uint8_t in[TPC_VBYTES] = {0}, out[TPC_VBYTES];
                        unsigned cnt = MIN(n - base, TPC_VBYTES / e);
                        for (unsigned i = 0; i < cnt; i++)
                            tpc_st_e(in, i, e, v[base + i]);
                        f(out, in, in, in);
                        for (unsigned i = 0; i < cnt; i++) {
                            uint32_t want = ref_convert(v[base + i], st, dt, rm, 0);
                            if (tpc_ld_e(out, i, e) != want)
                                g_error("convert loop %u->%u rm %u (wide %d) of %#x: %#x, "
                                        "want %#x",
                                        st, dt, rm, wide, v[base + i], tpc_ld_e(out, i, e), want);
                        }
                    }
                }
            }
        }
    }
    (void)sr;
    tpc_vl_select(false);
    g_test_message("%u conversions checked", checked);
    g_rand_free(r);
}

static void check_nearbyint(void)
{
    GRand *r = g_rand_new_with_seed(361);
    uint32_t v[4096];
    for (unsigned t = TPC_T_F32; t <= TPC_T_BF16; t++) {
        unsigned n = values(t, v, G_N_ELEMENTS(v), r, 4000), e = tpc_type_size(t);
        for (unsigned m = 0; m < G_N_ELEMENTS(modes); m++) {
            unsigned rm = modes[m];
            for (unsigned i = 0; i < n; i++) {
                uint32_t s = rm == TPC_RM_SR ? g_rand_int(r) : 0;
                uint32_t u = t == TPC_T_F32 ? v[i] : v[i] << 16;
                uint32_t want = ref_nearbyint(u, rm, s);
                uint32_t got = tpc_lane_nearbyint(u, rm, s);
                if (t == TPC_T_BF16)
                    want >>= 16, got >>= 16;
                if (got != want)
                    g_error("nearbyint t %u rm %u of %#x (sr %#x): %#x, want %#x", t, rm, v[i], s,
                            got, want);
            }
            for (int wide = 0; wide < 2 && rm != TPC_RM_SR; wide++) {
                if (wide ? !tpc_vl_select(false) : !tpc_vl_select(true))
                    continue;
                TpcVlFn f = tpc_vl_nearbyint_fn(t, rm);
                g_assert_nonnull(f);
                for (unsigned base = 0; base < n; base += TPC_VBYTES / e) {
                    uint8_t in[TPC_VBYTES] = {0}, out[TPC_VBYTES];
                    unsigned cnt = MIN(n - base, TPC_VBYTES / e);
                    for (unsigned i = 0; i < cnt; i++)
                        tpc_st_e(in, i, e, v[base + i]);
                    f(out, in, in, in);
                    for (unsigned i = 0; i < cnt; i++) {
                        uint32_t u = t == TPC_T_F32 ? v[base + i] : v[base + i] << 16;
                        uint32_t want = ref_nearbyint(u, rm, 0) >> (t == TPC_T_F32 ? 0 : 16);
                        if (tpc_ld_e(out, i, e) != want)
                            g_error("nearbyint loop t %u rm %u (wide %d) of %#x: %#x, want %#x", t,
                                    rm, wide, v[base + i], tpc_ld_e(out, i, e), want);
                    }
                }
            }
        }
    }
    tpc_vl_select(false);
    g_rand_free(r);
}

/* Results worked out by hand (IEEE-754 binary32 / bfloat16 encodings). */
typedef struct Hand {
    unsigned st, dt, rm;
    uint32_t x, sr, want;
    const char *why;
} Hand;

static const Hand hand[] = {
    {TPC_T_F32, TPC_T_I32, TPC_RM_RHNE, 0x40200000, 0, 2, "2.5 -> 2 (tie to even)"},
    {TPC_T_F32, TPC_T_I32, TPC_RM_RHNE, 0x40600000, 0, 4, "3.5 -> 4 (tie to even)"},
    {TPC_T_F32, TPC_T_I32, TPC_RM_RHAZ, 0xC0200000, 0, 0xFFFFFFFD, "-2.5 -> -3 (away)"},
    {TPC_T_F32, TPC_T_I32, TPC_RM_RU, 0xBF000000, 0, 0, "-0.5 up -> 0"},
    {TPC_T_F32, TPC_T_I32, TPC_RM_RD, 0x00000001, 0, 0, "2^-149 down -> 0"},
    {TPC_T_F32, TPC_T_I32, TPC_RM_RU, 0x00000001, 0, 1, "2^-149 up -> 1"},
    {TPC_T_F32, TPC_T_I32, TPC_RM_RZ, 0x4F000000, 0, 0x7FFFFFFF, "2^31 saturates"},
    {TPC_T_F32, TPC_T_I32, TPC_RM_RZ, 0xCF000000, 0, 0x80000000, "-2^31 fits"},
    {TPC_T_F32, TPC_T_I32, TPC_RM_RZ, 0xFF800000, 0, 0x80000000, "-inf saturates"},
    {TPC_T_F32, TPC_T_I32, TPC_RM_RZ, 0x7FC00000, 0, 0, "NaN -> 0"},
    {TPC_T_F32, TPC_T_I8, TPC_RM_RHNE, 0x42FF0000, 0, 0x7F, "127.5 -> 128 -> 127"},
    {TPC_T_F32, TPC_T_I8, TPC_RM_RHNE, 0xC3008000, 0, 0x80, "-128.5 -> -128 (even)"},
    {TPC_T_F32, TPC_T_U8, TPC_RM_RHNE, 0xBF333333, 0, 0, "-0.7 -> -1 -> 0"},
    {TPC_T_F32, TPC_T_U8, TPC_RM_RHNE, 0x437F8000, 0, 0xFF, "255.5 -> 256 -> 255"},
    {TPC_T_F32, TPC_T_I16, TPC_RM_RD, 0xC7000100, 0, 0x8000, "-32769 saturates"},
    /* sr: 0.5 + 0x400000 * 2^-23 = 1 exactly: carried */
    {TPC_T_F32, TPC_T_I32, TPC_RM_SR, 0x3F000000, 0x400000, 1, "sr: 0.5 + 0.5 -> 1"},
    {TPC_T_F32, TPC_T_I32, TPC_RM_SR, 0x3F000000, 0x3FFFFF, 0, "sr: 0.5 + (0.5 - 2^-23) -> 0"},
    {TPC_T_I32, TPC_T_F32, TPC_RM_RHNE, 0x01000001, 0, 0x4B800000, "2^24+1 -> 2^24 (even)"},
    {TPC_T_I32, TPC_T_F32, TPC_RM_RHNE, 0x01000003, 0, 0x4B800002, "2^24+3 -> 2^24+4 (even)"},
    {TPC_T_I32, TPC_T_F32, TPC_RM_RU, 0x01000001, 0, 0x4B800001, "2^24+1 up -> 2^24+2"},
    {TPC_T_I32, TPC_T_F32, TPC_RM_RD, 0xFEFFFFFF, 0, 0xCB800001, "-(2^24+1) down -> -(2^24+2)"},
    {TPC_T_I32, TPC_T_F32, TPC_RM_SR, 0x01000001, 0xFFFFFFFF, 0x4B800000, "sr of an integer: rz"},
    {TPC_T_U32, TPC_T_F32, TPC_RM_RHNE, 0xFFFFFFFF, 0, 0x4F800000, "2^32-1 -> 2^32"},
    {TPC_T_U32, TPC_T_F32, TPC_RM_RZ, 0xFFFFFFFF, 0, 0x4F7FFFFF, "2^32-1 rz -> 2^32-256"},
    {TPC_T_F32, TPC_T_BF16, TPC_RM_RHNE, 0x3F808000, 0, 0x3F80, "1+2^-8: tie to even 1"},
    {TPC_T_F32, TPC_T_BF16, TPC_RM_RHNE, 0x3F818000, 0, 0x3F82, "1+3*2^-8: tie to even"},
    {TPC_T_F32, TPC_T_BF16, TPC_RM_RZ, 0x7F7FFFFF, 0, 0x7F7F, "FLT_MAX rz: bf16 max"},
    {TPC_T_F32, TPC_T_BF16, TPC_RM_RHNE, 0x7F7FFFFF, 0, 0x7F80, "FLT_MAX rhne: inf"},
    {TPC_T_F32, TPC_T_BF16, TPC_RM_RD, 0x80000001, 0, 0x8001, "-2^-149 down: -2^-133"},
    {TPC_T_F32, TPC_T_BF16, TPC_RM_RHNE, 0xFFC12345, 0, 0x7FC0, "NaN canonical"},
    {TPC_T_BF16, TPC_T_F32, TPC_RM_RZ, 0x8001, 0, 0x80010000, "bf16 denormal widened"},
    {TPC_T_BF16, TPC_T_I32, TPC_RM_RHNE, 0x3FC0, 0, 2, "bf16 1.5 -> 2"},
    {TPC_T_I16, TPC_T_I8, TPC_RM_RZ, 0x8000, 0, 0x80, "-32768 -> -128"},
    {TPC_T_I32, TPC_T_U16, TPC_RM_RZ, 0xFFFFFFFF, 0, 0, "-1 -> 0 unsigned"},
};

static void check_by_hand(void)
{
    for (unsigned i = 0; i < G_N_ELEMENTS(hand); i++) {
        const Hand *h = &hand[i];
        uint32_t got = tpc_convert(h->x, h->st, h->dt, h->rm, h->sr);
        if (got != h->want)
            g_error("%s: %#x, want %#x", h->why, got, h->want);
    }
    /* NEARBYINT: -0.5 rhne -> -0, rhaz -> -1; 2.5 rhne -> 2; -0.3 up -> -0 */
    g_assert_cmphex(tpc_lane_nearbyint(0xBF000000, TPC_RM_RHNE, 0), ==, 0x80000000);
    g_assert_cmphex(tpc_lane_nearbyint(0xBF000000, TPC_RM_RHAZ, 0), ==, 0xBF800000);
    g_assert_cmphex(tpc_lane_nearbyint(0x40200000, TPC_RM_RHNE, 0), ==, 0x40000000);
    g_assert_cmphex(tpc_lane_nearbyint(0xBE99999A, TPC_RM_RU, 0), ==, 0x80000000);
    g_assert_cmphex(tpc_lane_nearbyint(0x00000001, TPC_RM_RU, 0), ==, 0x3F800000);
    g_assert_cmphex(tpc_lane_nearbyint(0x4B000001, TPC_RM_RZ, 0), ==, 0x4B000001);
    g_assert_cmphex(tpc_lane_nearbyint(0x7F800001, TPC_RM_RZ, 0), ==, 0x7FC00000);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/tpc-convert/by-hand", check_by_hand);
    g_test_add_func("/tpc-convert/pairs", check_convert_pairs);
    g_test_add_func("/tpc-convert/nearbyint", check_nearbyint);
    return g_test_run();
}
