/*
 * Number formats of the TPC (tpc.md §5.0.4, §5.3.1, machine.md §12.13):
 * f32/bf16 helpers, CONVERT with explicit rounding modes and integer
 * saturation.  Conversions go through an exact double: every source value
 * (f32, bf16, 32-bit integers) is exactly representable there, so each
 * result is rounded exactly once.
 */
#include <math.h>
#include <string.h>

#include "target/tpc/cpu.h"
#include "target/tpc/lane.h"

float tpc_f32(uint32_t bits)
{
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

uint32_t tpc_f32_bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

uint32_t tpc_f32_canon(float f)
{
    return isnan(f) ? 0x7FC00000u : tpc_f32_bits(f);
}

float tpc_bf16_to_f32(uint16_t b)
{
    return tpc_f32((uint32_t)b << 16);
}

uint16_t tpc_f32_to_bf16_rne(float f)
{
    return (uint16_t)tpc_lane_bf16_round(f);
}

double tpc_elem_to_double(uint32_t raw, unsigned t, bool *is_nan)
{
    float f;
    *is_nan = false;
    switch (t) {
    case TPC_T_F32:
        f = tpc_f32(raw);
        *is_nan = isnan(f);
        return f;
    case TPC_T_BF16:
        f = tpc_bf16_to_f32((uint16_t)raw);
        *is_nan = isnan(f);
        return f;
    case TPC_T_I32:
        return (int32_t)raw;
    case TPC_T_U32:
        return raw;
    case TPC_T_I16:
        return (int16_t)raw;
    case TPC_T_U16:
        return (uint16_t)raw;
    case TPC_T_I8:
        return (int8_t)raw;
    default:
        return (uint8_t)raw;
    }
}

static unsigned mant_bits(unsigned t)
{
    return t == TPC_T_F32 ? 23 : t == TPC_T_BF16 ? 7 : 0;
}

/* Magnitude neighbours lo (toward zero) and hi (away from zero) of |x| in
 * format dt, as doubles; hi may be 2^128 for "infinity". */
static void neighbours(double ax, unsigned dt, double *lo, double *hi)
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

static uint32_t int_sat(double v, unsigned dt)
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

uint32_t tpc_round_to(double x, bool is_nan, unsigned src_type, unsigned dt, unsigned rm,
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
        return int_sat(x, dt);
    }
    bool neg = signbit(x);
    double ax = fabs(x);
    double lo, hi, r;
    neighbours(ax, dt, &lo, &hi);
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
            int k = (int)mant_bits(src_type) - (int)mant_bits(dt);
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
    return int_sat(neg ? -r : r, dt);
}

uint32_t tpc_convert(uint32_t raw, unsigned st, unsigned dt, unsigned rm, uint32_t sr_state)
{
    bool nan;
    double x = tpc_elem_to_double(raw, st, &nan);
    if (!tpc_type_is_float(st) && !tpc_type_is_float(dt))
        return int_sat(x, dt); /* integer -> integer saturates */
    return tpc_round_to(x, nan, st, dt, rm, sr_state);
}

unsigned tpc_resolve_rm(TpcCpu *c, unsigned rm)
{
    if (rm != TPC_RM_DEFAULT)
        return rm;
    unsigned csr = c->port.kv[TPC_KV_ROUND_CSR / 4] & 7u;
    return (csr == 5 || csr == 7) ? TPC_RM_RHNE : csr;
}

uint32_t tpc_int_result(int64_t v, unsigned t, bool sat)
{
    return tpc_lane_int_result(v, t, sat);
}
