/*
 * The floating-point helper instructions the TPC compiler builds division,
 * square roots and transcendental functions from (tpc.md §5.5): FCLASS,
 * CALC_FP_SPECIAL, FORM_FP_NUM, EXTRACT_EXP, NEARBYINT, and the scalar
 * integer division step UDIV_4STEP.
 *
 * Each instruction's element operation is written once (the *_elem
 * functions); the SPU runs it on one scalar, the VPU on every lane of a
 * 256-byte register with predication as income (tpc.md §5.0.1).
 */
#include <math.h>
#include <string.h>

#include "target/tpc/cpu.h"
#include "target/tpc/lane.h"
#include "target/tpc/vlane.h"

/* ---- element operations ---- */

typedef struct Elem {
    unsigned t;   /* OPERANDS_TYPE of the sources: TPC_T_F32 or TPC_T_BF16 */
    unsigned sw;  /* the slot's SWITCHES */
    unsigned sd;  /* switch word kept in SRC_D (FORM_FP_NUM) */
    unsigned rm;  /* resolved rounding mode (NEARBYINT) */
    uint32_t sr;  /* stochastic-rounding state (NEARBYINT sr) */
} Elem;

/* Field layout of f32 (8/23) and bf16 (8/7): the exponent bias is 127 for both. */
static unsigned mant_w(unsigned t)
{
    return t == TPC_T_F32 ? 23 : 7;
}

static unsigned sign_bit(unsigned t)
{
    return t == TPC_T_F32 ? 31 : 15;
}

/* FCLASS bit of a value (vendor class mask, tpc.md §5.5.1). */
enum {
    FC_NINF = 1u << 0,
    FC_NNORM = 1u << 1,
    FC_NDEN = 1u << 2,
    FC_NZERO = 1u << 3,
    FC_PZERO = 1u << 4,
    FC_PDEN = 1u << 5,
    FC_PNORM = 1u << 6,
    FC_PINF = 1u << 7,
    FC_SNAN = 1u << 8,
    FC_QNAN = 1u << 9,
};

static uint32_t fclass_elem(const Elem *x, uint32_t a)
{
    unsigned mw = mant_w(x->t);
    uint32_t mant = a & ((1u << mw) - 1), exp = (a >> mw) & 0xFF;
    bool neg = (a >> sign_bit(x->t)) & 1;
    if (exp == 0xFF) {
        if (mant == 0)
            return neg ? FC_NINF : FC_PINF;
        return (mant >> (mw - 1)) & 1 ? FC_QNAN : FC_SNAN;
    }
    if (exp == 0)
        return mant == 0 ? (neg ? FC_NZERO : FC_PZERO) : (neg ? FC_NDEN : FC_PDEN);
    return neg ? FC_NNORM : FC_PNORM;
}

/* Constants of the result type. */
static uint32_t fp_const(unsigned t, bool neg, unsigned what)
{
    /* what: 0 zero, 1 one, 2 infinity, 3 NaN (canonical, tpc.md §5.0.4) */
    static const uint32_t f32[4] = {0, 0x3F800000u, 0x7F800000u, 0x7FC00000u};
    static const uint32_t bf16[4] = {0, 0x3F80u, 0x7F80u, 0x7FC0u};
    uint32_t v = t == TPC_T_F32 ? f32[what] : bf16[what];
    return what == 3 || !neg ? v : v | 1u << sign_bit(t);
}

#define FC_NAN   (FC_SNAN | FC_QNAN)
#define FC_ZERO  (FC_NZERO | FC_PZERO)
#define FC_INF   (FC_NINF | FC_PINF)
#define FC_NEG   (FC_NINF | FC_NNORM | FC_NDEN | FC_NZERO)
#define FC_FINNZ (FC_NNORM | FC_NDEN | FC_PNORM | FC_PDEN) /* finite, not zero */

enum { F_RECIP, F_RSQRT, F_SQRT, F_LOG, F_EXP, F_TANH, F_DIV, F_POW };

/* CALC_FP_SPECIAL: a and b are FCLASS masks of x and y; the result for the
 * IEEE-754 special cases of the function, else `old` (the lane keeps its
 * income, so the approximation computed before stays).  The special-case
 * values are IEEE-754 / C99 Annex F (tpc.md §5.5.2). */
static uint32_t calc_fp_special_elem(const Elem *x, uint32_t a, uint32_t b, uint32_t old)
{
    unsigned t = x->t;
    bool xneg = (a & FC_NEG) != 0, yneg = (b & FC_NEG) != 0;
    if (a & FC_NAN && x->sw % 8 != F_POW)
        return fp_const(t, false, 3);
    switch (x->sw & 7) {
    case F_RECIP:
        if (a & FC_ZERO)
            return fp_const(t, xneg, 2);
        if (a & FC_INF)
            return fp_const(t, xneg, 0);
        return old;
    case F_RSQRT:
        if (a & FC_ZERO)
            return fp_const(t, xneg, 2);
        if (xneg)
            return fp_const(t, false, 3);
        if (a & FC_PINF)
            return fp_const(t, false, 0);
        return old;
    case F_SQRT:
        if (a & FC_ZERO)
            return fp_const(t, xneg, 0);
        if (xneg)
            return fp_const(t, false, 3);
        if (a & FC_PINF)
            return fp_const(t, false, 2);
        return old;
    case F_LOG:
        if (a & FC_ZERO)
            return fp_const(t, true, 2);
        if (xneg)
            return fp_const(t, false, 3);
        if (a & FC_PINF)
            return fp_const(t, false, 2);
        return old;
    case F_EXP:
        if (a & FC_ZERO)
            return fp_const(t, false, 1);
        if (a & FC_PINF)
            return fp_const(t, false, 2);
        if (a & FC_NINF)
            return fp_const(t, false, 0);
        return old;
    case F_TANH:
        if (a & FC_ZERO)
            return fp_const(t, xneg, 0);
        if (a & FC_INF)
            return fp_const(t, xneg, 1);
        return old;
    case F_DIV: {
        bool sneg = xneg != yneg;
        if (b & FC_NAN || (a & FC_ZERO && b & FC_ZERO) || (a & FC_INF && b & FC_INF))
            return fp_const(t, false, 3);
        if (a & FC_INF)
            return fp_const(t, sneg, 2);
        if (b & FC_ZERO)
            return fp_const(t, sneg, 2);
        if (b & FC_INF || a & FC_ZERO)
            return fp_const(t, sneg, 0);
        return old;
    }
    default: /* F_POW: the cases the classes decide alone */
        if (b & FC_ZERO)
            return fp_const(t, false, 1); /* x^0 = 1, even for NaN x */
        if (a & FC_NAN || b & FC_NAN)
            return fp_const(t, false, 3);
        if (a & (FC_ZERO | FC_PINF)) {
            bool big = (a & FC_PINF) != 0; /* 0^y and +Inf^y */
            return fp_const(t, false, (big != yneg) ? 2 : 0);
        }
        return old;
    }
}

/* FORM_FP_NUM: sign from b (or forced), exponent from a, mantissa from c. */
enum { FF_ADD_BIAS = 1, FF_SIGN0 = 2, FF_SIGN1 = 4, FF_EXP_IS_NUM = 8, FF_SIGN_LSB = 16 };

static uint32_t form_fp_num_elem(const Elem *x, uint32_t a, uint32_t b, uint32_t c)
{
    unsigned mw = mant_w(x->t), sb = sign_bit(x->t);
    uint32_t e = x->sd & FF_EXP_IS_NUM ? a & 0xFF : (a >> mw) & 0xFF;
    if (x->sd & FF_ADD_BIAS)
        e += 127;
    uint32_t sign = x->sd & FF_SIGN_LSB ? b & 1 : (b >> sb) & 1;
    if (x->sd & FF_SIGN0)
        sign = 0;
    if (x->sd & FF_SIGN1)
        sign = 1;
    return sign << sb | (e & 0xFF) << mw | (c & ((1u << mw) - 1));
}

/* EXTRACT_EXP: the exponent field, unbiased (signed) unless `biased`. */
static uint32_t extract_exp_elem(const Elem *x, uint32_t a)
{
    int32_t e = (int32_t)((a >> mant_w(x->t)) & 0xFF);
    return (uint32_t)(x->sw & 1 ? e : e - 127);
}

/* NEARBYINT: the integral value in the same format, by rounding mode
 * (lane.h, on the widened value for bf16: exact, and its NaN canonical). */
static uint32_t nearbyint_elem(const Elem *x, uint32_t a)
{
    if (x->t == TPC_T_F32)
        return tpc_lane_nearbyint(a, x->rm, x->sr);
    return tpc_lane_nearbyint((a & 0xFFFFu) << 16, x->rm, x->sr) >> 16;
}

/* ---- runners: one scalar on the SPU, every lane on the VPU ---- */

enum { OP_FCLASS, OP_CALC, OP_FORM, OP_EXTRACT, OP_NEARBY };

static uint32_t elem(unsigned op, const Elem *x, uint32_t a, uint32_t b, uint32_t c, uint32_t old)
{
    switch (op) {
    case OP_FCLASS:
        return fclass_elem(x, a);
    case OP_CALC:
        return calc_fp_special_elem(x, a, b, old);
    case OP_FORM:
        return form_fp_num_elem(x, a, b, c);
    case OP_EXTRACT:
        return extract_exp_elem(x, a);
    default:
        return nearbyint_elem(x, a);
    }
}

static void elem_setup(TpcCpu *c, const TpcInsn *in, unsigned op, Elem *x, TpcSlotOut *o, bool vpu)
{
    x->t = in->type;
    x->sw = in->sw;
    x->sd = in->d.raw;
    x->rm = 0;
    x->sr = 0;
    if (op == OP_NEARBY) {
        x->rm = tpc_resolve_rm(c, in->sw & 7u);
        if (x->rm == TPC_RM_SR) {
            x->sr = vpu ? 0 : c->lfsr_s;
            if (vpu)
                o->lfsr_v_read = true;
            else
                o->lfsr_s_read = true;
        }
    }
}

static bool spu_run(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o, unsigned op)
{
    if (!tpc_pred_scalar(c, in))
        return true;
    Elem x;
    elem_setup(c, in, op, &x, o, false);
    uint32_t a = tpc_rd_scalar(c, b, &in->a, o);
    uint32_t bb = in->b.kind != TPC_OP_NONE ? tpc_rd_scalar(c, b, &in->b, o) : 0;
    uint32_t r = elem(op, &x, a, bb, 0, c->s[in->dst.num]);
    /* 16-bit results: the low half, zero-extended (extract_exp: sign-extended) */
    tpc_out_s(o, in->dst.num, tpc_ext32(r, op == OP_EXTRACT && x.t == TPC_T_BF16 ? TPC_T_I16 : x.t));
    return true;
}

static bool vpu_run(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o, unsigned op)
{
    unsigned e = tpc_type_size(in->type);
    uint8_t m[TPC_VBYTES], ta[TPC_VBYTES], tb[TPC_VBYTES], tc[TPC_VBYTES];
    bool all;
    if (!tpc_pred_mask(c, in, e, m, &all))
        return true;
    Elem x;
    elem_setup(c, in, op, &x, o, true);
    const uint8_t *va = tpc_rd_vec(c, b, &in->a, e, ta, o);
    const uint8_t *vb = in->b.kind != TPC_OP_NONE && in->b.kind != TPC_OP_RAW
                            ? tpc_rd_vec(c, b, &in->b, e, tb, o)
                            : va;
    const uint8_t *vc = in->c.kind != TPC_OP_NONE ? tpc_rd_vec(c, b, &in->c, e, tc, o) : va;
    const uint8_t *old = c->v[in->dst.num];
    uint8_t *res = o->vbuf[0];
    TpcVlFn loop = op == OP_NEARBY ? tpc_vl_nearbyint_fn(x.t, x.rm) : NULL;
    for (unsigned i = 0; i < TPC_VBYTES / e && !loop; i++) {
        if (op == OP_NEARBY && x.rm == TPC_RM_SR)
            x.sr = c->lfsr_v[(i * e) / 4];
        tpc_st_e(res, i, e,
                 elem(op, &x, tpc_ld_e(va, i, e), tpc_ld_e(vb, i, e), tpc_ld_e(vc, i, e),
                      tpc_ld_e(old, i, e)));
    }
    if (loop)
        loop(res, va, va, va); /* NEARBYINT's lanes, vectorised (vlane.h) */
    if (!all)
        tpc_merge(res, old, m);
    tpc_out_v(o, in->dst.num, 0);
    return true;
}

#define FP_SPECIAL(name, op)                                                                       \
    bool tpc_exec_spu_##name(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o)      \
    {                                                                                              \
        return spu_run(c, b, in, o, op);                                                           \
    }                                                                                              \
    bool tpc_exec_vpu_##name(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o)      \
    {                                                                                              \
        return vpu_run(c, b, in, o, op);                                                           \
    }
FP_SPECIAL(fclass, OP_FCLASS)
FP_SPECIAL(calc_fp_special, OP_CALC)
FP_SPECIAL(extract_exp, OP_EXTRACT)
FP_SPECIAL(nearbyint, OP_NEARBY)

bool tpc_exec_vpu_form_fp_num(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o)
{
    return vpu_run(c, b, in, o, OP_FORM);
}

/* ---- UDIV_4STEP (tpc.md §5.5.6) ---- */

/* Steps step, step-1, step-2, step-3 (those >= 0) of restoring division
 * on the pair Z = {S2n: remainder (the numerator before the first step),
 * S2n+1: quotient}: for step i, when divisor << i fits in the remainder,
 * subtract it and set quotient bit i.  Eight groups from step 31 down
 * (u32; u16 from 15, u8 from 7) leave the quotient and the remainder. */
bool tpc_exec_spu_udiv_4step(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o)
{
    if (!tpc_pred_scalar(c, in))
        return true;
    unsigned n = in->dst.num, e = tpc_type_size(in->type);
    uint64_t mask = e == 4 ? 0xFFFFFFFFu : (1u << (8 * e)) - 1;
    uint64_t div = tpc_rd_scalar(c, b, &in->a, o) & mask;
    uint64_t rem = c->s[n] & mask, quo = c->s[n + 1] & mask;
    int step = (int)(in->sw & 31u);
    for (int i = step; i > step - 4 && i >= 0; i--) {
        if ((div << i) <= rem) {
            rem -= div << i;
            quo |= 1ull << i;
        }
    }
    tpc_out_s(o, n, (uint32_t)(rem & mask));
    tpc_out_s(o, n + 1, (uint32_t)(quo & mask));
    return true;
}
