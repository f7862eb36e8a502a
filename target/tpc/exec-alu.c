/*
 * Element arithmetic of the SPU and VPU (tpc.md §5.0.4, §5.2, §5.3):
 * integer wrap / saturation, f32 with canonical NaN, bf16 rounded once,
 * shifts, comparisons.  One element at a time; the VPU has its own
 * whole-register fast paths for the common cases and falls back here.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "target/tpc/cpu.h"
#include "target/tpc/lane.h"

uint32_t tpc_ext32(uint32_t v, unsigned t)
{
    return (uint32_t)tpc_lane_sext(v, t);
}

static float fval(uint32_t v, unsigned t)
{
    return t == TPC_T_F32 ? tpc_f32(v) : tpc_bf16_to_f32((uint16_t)v);
}

static uint32_t fres(float f, unsigned t)
{
    return t == TPC_T_F32 ? tpc_f32_canon(f) : tpc_f32_to_bf16_rne(f);
}

/* bf16 MAC rounded once (tpc.md §5.0.4): the product of two bf16 values is
 * exact in a double; d + p is rounded to a double s with the exact error e
 * (TwoSum).  A bf16 rounding boundary is a double, so none lies strictly
 * between s and its neighbour toward e, and rounding that neighbour gives
 * the rounding of the exact d + p (a plain f32 or double sum would round
 * twice and go to the even neighbour at a near-tie). */
static uint32_t bf16_mac(float a, float b, float d, bool neg)
{
    double p = (double)a * (double)b, dd = d;
    if (neg)
        p = -p;
    double s = p + dd;
    if (isnan(s))
        return 0x7FC0u;
    /* s = RN(p + d), e the exact rest (TwoSum).  Round to odd: an inexact
     * sum takes whichever double neighbour of the exact value has an odd
     * last bit, so the single rounding to bf16 below sees which side of a
     * bf16 tie the exact value lies (nudging an even s that RN had moved off
     * the tie would put it back on it) */
    double bv = s - p, e = (p - (s - bv)) + (dd - bv);
    uint64_t sb;
    memcpy(&sb, &s, sizeof sb);
    if (e != 0 && isfinite(s) && !(sb & 1u))
        s = nextafter(s, e > 0 ? INFINITY : -INFINITY);
    return tpc_round_to(s, false, TPC_T_F32, TPC_T_BF16, TPC_RM_RHNE, 0);
}

static uint32_t float_op(unsigned op, unsigned t, uint32_t ra, uint32_t rb, uint32_t rd,
                         unsigned sw)
{
    if (t == TPC_T_F32) {
        switch (op) {
        case TPC_OPC_SPU_mac:
            return tpc_lane_f32_mac(ra, rb, rd, sw & 2u);
        case TPC_OPC_SPU_mul:
            return tpc_lane_f32_mul(ra, rb);
        case TPC_OPC_SPU_add:
            return tpc_lane_f32_add(ra, rb);
        case TPC_OPC_SPU_sub:
            return tpc_lane_f32_sub(ra, rb, sw & 2u);
        case TPC_OPC_SPU_max:
            return tpc_lane_f32_max(ra, rb);
        case TPC_OPC_SPU_min:
            return tpc_lane_f32_min(ra, rb);
        default:
            break;
        }
    }
    /* bf16: the exact result rounded once to bf16 */
    switch (op) {
    case TPC_OPC_SPU_mac: /* MAC: one rounding */
        return bf16_mac(fval(ra, t), fval(rb, t), fval(rd, t), sw & 2u);
    case TPC_OPC_SPU_mul:
        return tpc_lane_bf16_mul(ra, rb);
    case TPC_OPC_SPU_add:
        return tpc_lane_bf16_add(ra, rb);
    case TPC_OPC_SPU_sub:
        return tpc_lane_bf16_sub(ra, rb, sw & 2u);
    case TPC_OPC_SPU_max:
        return tpc_lane_bf16_max(ra, rb);
    case TPC_OPC_SPU_min:
        return tpc_lane_bf16_min(ra, rb);
    case TPC_OPC_SPU_abs:
        return ra & (t == TPC_T_F32 ? 0x7FFFFFFFu : 0x7FFFu);
    default:
        break;
    }
    /* an opcode without float semantics cannot reach here (tpc_alu's callers
     * dispatch on the .def rows' types) */
    g_assert_not_reached();
}

static uint32_t ash(unsigned t, uint32_t ra, uint32_t rb, unsigned sw)
{
    int64_t a = tpc_lane_sext(ra, t);
    int sh = (int8_t)(rb & 0xFF);
    unsigned bits = 8 * tpc_type_size(t);
    bool sat = sw & 1u;
    if (sh >= 0) {
        if (a == 0)
            return 0;
        if (sh >= (int)bits) {
            if (!sat)
                return 0;
            return tpc_int_result(a < 0 ? INT64_MIN / 2 : INT64_MAX / 2, t, true);
        }
        /* |a| < 2^32 and sh < 32: fits in int64 */
        int64_t r = a * ((int64_t)1 << sh);
        return tpc_int_result(r, t, sat);
    }
    unsigned n = (unsigned)(-sh);
    if (sw & 2u) {
        /* rhu: floor(a / 2^n + 1/2), the exact quotient rounded half up;
         * |a| < 2^32, so from n = 34 on it is 0 whatever the sign (a plain
         * shift would give -1 for negative a) */
        if (n > 62)
            return 0;
        return tpc_int_result((a + ((int64_t)1 << (n - 1))) >> n, t, false);
    }
    /* an arithmetic right shift is floor(a / 2^n): -1 for negative a from
     * n = 32 on */
    if (n > 62)
        n = 62;
    return tpc_int_result(a >> n, t, false);
}

uint32_t tpc_alu(unsigned op, unsigned t, uint32_t ra, uint32_t rb, uint32_t rd, unsigned sw,
                 unsigned *carry)
{
    bool sat = sw & 1u;
    switch (op) {
    case TPC_OPC_SPU_or:
    case TPC_OPC_SPU_and:
    case TPC_OPC_SPU_xor:
    case TPC_OPC_SPU_not:
        return tpc_lane_logic(op, t, ra, rb);
    case TPC_OPC_SPU_shr:
    case TPC_OPC_SPU_shl:
        return tpc_lane_shift(op == TPC_OPC_SPU_shl, t, ra, rb);
    case TPC_OPC_SPU_ash:
        if (tpc_type_is_float(t)) {
            /* ash.f32/.bf16 (VPU): a * 2^b, b the signed low byte of B's lane,
             * rounded once to the type (tpc.md §5.3) */
            float a = fval(ra, t);
            return fres(ldexpf(a, (int8_t)(rb & 0xFFu)), t);
        }
        return ash(t, ra, rb, sw);
    default:
        break;
    }
    if (tpc_type_is_float(t))
        return float_op(op, t, ra, rb, rd, sw);
    int64_t a = tpc_lane_sext(ra, t), b = tpc_lane_sext(rb, t), d = tpc_lane_sext(rd, t);
    uint32_t wm = tpc_lane_wmask(t);
    switch (op) {
    case TPC_OPC_SPU_mac: {
        __int128 p = (__int128)a * b;
        __int128 r = (sw & 2u) ? d - p : d + p;
        if (!sat)
            return (uint32_t)(uint64_t)r & wm;
        if (r > INT64_MAX / 2)
            r = INT64_MAX / 2;
        if (r < INT64_MIN / 2)
            r = INT64_MIN / 2;
        return tpc_int_result((int64_t)r, t, sat);
    }
    case TPC_OPC_SPU_mul:
        return (uint32_t)((uint64_t)a * (uint64_t)b) & wm;
    case TPC_OPC_SPU_add: {
        unsigned cin = (sw & 2u) && carry ? (*carry & 1u) : 0u, cout;
        uint32_t r = tpc_lane_int_add(t, ra, rb, cin, sat, &cout);
        if (carry)
            *carry = cout;
        return r;
    }
    case TPC_OPC_SPU_sub:
        return tpc_lane_int_sub(t, ra, rb, sw & 2u, sat);
    case TPC_OPC_SPU_max:
        return tpc_lane_int_max(t, ra, rb);
    case TPC_OPC_SPU_min:
        return tpc_lane_int_min(t, ra, rb);
    case TPC_OPC_SPU_abs:
        return tpc_int_result(a < 0 ? -a : a, t, false);
    default:
        /* every opcode the .def rows route here is a case above */
        g_assert_not_reached();
    }
}

bool tpc_alu_cmp(unsigned op, unsigned t, uint32_t ra, uint32_t rb, bool mask_eq_zero)
{
    return tpc_lane_cmp(op, t, ra, rb, op == TPC_OPC_SPU_cmp_eq && mask_eq_zero);
}
