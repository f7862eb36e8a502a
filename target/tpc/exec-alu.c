/*
 * Element arithmetic of the SPU and VPU (tpc.md §5.0.4, §5.2, §5.3):
 * integer wrap / saturation, f32 with canonical NaN, bf16 rounded once,
 * shifts, comparisons.  The element tier of lane-ops.def: one element
 * at a time, for the SPU and for the VPU lanes that have no whole-register
 * loop (vlane-impl.h instantiates the same rows as loops).
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

/* ---- element-only lane functions of lane-ops.def (E rows: calls and
 * branches a lane loop would not vectorise) ---- */

/* bf16 MAC rounded once (tpc.md §5.0.4): the product of two bf16 values is
 * exact in a double; d + p is rounded to a double s with the exact error e
 * (TwoSum).  A bf16 rounding boundary is a double, so none lies strictly
 * between s and its neighbour toward e, and rounding that neighbour gives
 * the rounding of the exact d + p (a plain f32 or double sum would round
 * twice and go to the even neighbour at a near-tie). */
static uint32_t alu_bf16_mac(uint32_t x, uint32_t y, uint32_t z, bool neg)
{
    double p = (double)fval(x, TPC_T_BF16) * (double)fval(y, TPC_T_BF16);
    double dd = fval(z, TPC_T_BF16);
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
    /* to f32 by round to odd again (RN's choice, or its other neighbour
     * when that has an even last bit), then once to bf16: 24 >= 8 + 2 bits
     * keep that the one rounding of the exact value */
    float f = (float)s;
    uint32_t fb = tpc_f32_bits(f);
    if ((double)f != s && !(fb & 1u))
        fb = fabs((double)f) > fabs(s) ? fb - 1 : fb + 1;
    return tpc_lane_convert(fb, TPC_T_F32, TPC_T_BF16, TPC_RM_RHNE, 0);
}

/* ash.f32/.bf16 (VPU): a * 2^b, b the signed low byte of B's lane, rounded
 * once to the type (tpc.md §5.3) */
static uint32_t alu_fash(unsigned t, uint32_t x, uint32_t y)
{
    return fres(ldexpf(fval(x, t), (int8_t)(y & 0xFFu)), t);
}

/* integer ASH: shift left by the signed low byte of B (saturating with
 * sat), right arithmetically (rhu: rounding half up) */
static uint32_t alu_ash(unsigned t, uint32_t ra, uint32_t rb, bool sat, bool rhu)
{
    int64_t a = tpc_lane_sext(ra, t);
    int sh = (int8_t)(rb & 0xFF);
    unsigned bits = 8 * tpc_type_size(t);
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
    if (rhu) {
        /* floor(a / 2^n + 1/2), the exact quotient rounded half up; |a| <
         * 2^32, so from n = 34 on it is 0 whatever the sign (a plain shift
         * would give -1 for negative a) */
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

/* ---- the element tier of lane-ops.def ---- */

/* one function per row and type: T the type, x/y/z the A, B, old-D lanes */
#define TPC_LANE(name, slots, opc, type, swm, swv, tier, expr)                                     \
    static uint32_t alu_##name##_##type(uint32_t x, uint32_t y, uint32_t z)                        \
    {                                                                                              \
        enum { T = TPC_T_##type };                                                                 \
        (void)x, (void)y, (void)z;                                                                 \
        return (expr);                                                                             \
    }
#include "target/tpc/lane-ops.def"

/* [SPU, VPU][opcode][type][SWITCHES & 7]: the first row that applies */
static TpcLaneFn alu_tab[2][64][TPC_T_COUNT][8];

static void alu_put(unsigned slots, unsigned op, unsigned t, unsigned swm, unsigned swv,
                    TpcLaneFn fn)
{
    for (unsigned s = 0; s < 2; s++)
        for (unsigned sw = 0; sw < 8; sw++)
            if (((slots >> s) & 1u) && (sw & swm) == swv && !alu_tab[s][op][t][sw])
                alu_tab[s][op][t][sw] = fn;
}

__attribute__((constructor)) static void alu_tab_init(void)
{
#define TPC_LANE(name, slots, opc, type, swm, swv, tier, expr)                                     \
    alu_put(slots, TPC_OPC_SPU_##opc, TPC_T_##type, swm, swv, alu_##name##_##type);
#include "target/tpc/lane-ops.def"
}

TpcLaneFn tpc_alu_fn(unsigned slot, unsigned op, unsigned t, unsigned sw)
{
    if (op >= 64 || t >= TPC_T_COUNT)
        return NULL;
    return alu_tab[slot == TPC_SLOT_VPU][op][t][sw & 7u];
}

uint32_t tpc_alu(unsigned op, unsigned t, uint32_t ra, uint32_t rb, uint32_t rd, unsigned sw,
                 unsigned *carry)
{
    if (op == TPC_OPC_SPU_add && !tpc_type_is_float(t)) {
        /* integer ADD: the carry chain (lane-ops.def leaves it here) */
        unsigned cin = (sw & 2u) && carry ? (*carry & 1u) : 0u, cout;
        uint32_t r = tpc_lane_int_add(t, ra, rb, cin, sw & 1u, &cout);
        if (carry)
            *carry = cout;
        return r;
    }
    TpcLaneFn fn = tpc_alu_fn(TPC_SLOT_SPU, op, t, sw);
    /* every (op, type) the .def rows route here has a lane-ops.def row (the
     * lane-rows unit test walks them) */
    g_assert(fn);
    return fn(ra, rb, rd);
}

bool tpc_alu_cmp(unsigned op, unsigned t, uint32_t ra, uint32_t rb, bool mask_eq_zero)
{
    return tpc_lane_cmp(op, t, ra, rb, op == TPC_OPC_SPU_cmp_eq && mask_eq_zero);
}
