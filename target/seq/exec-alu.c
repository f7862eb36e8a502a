/*
 * ALU_OP (0xA8) and MOVE (0xA7), sequencer.md §8.6-§8.7, float rules of
 * machine.md §12.13.
 */
#include <math.h>

#include "target/seq/cpu.h"

#define F(name)     seq_field_get(rec, SEQ_F_##name)
#define FA(name, k) seq_field_get_at(rec, SEQ_F_##name, k)

#define F32_QNAN 0x7FC00000u

uint32_t seq_f32_canon(float f)
{
    return isnan(f) ? F32_QNAN : seq_u32(f);
}

static inline bool f32_isnan(uint32_t u)
{
    return (u & 0x7F800000u) == 0x7F800000u && (u & 0x007FFFFFu) != 0;
}

/* Exactly one NaN: the other operand; both: canonical; signed zeros ordered
 * -0 < +0 (machine.md §12.13). */
uint32_t seq_f32_max(uint32_t a, uint32_t b)
{
    bool na = f32_isnan(a), nb = f32_isnan(b);
    if (na && nb)
        return F32_QNAN;
    if (na)
        return b;
    if (nb)
        return a;
    float fa = seq_f32(a), fb = seq_f32(b);
    if (fa == fb)
        return (a & 0x80000000u) ? b : a; /* +0 over -0; equal values are identical otherwise */
    return fa > fb ? a : b;
}

uint32_t seq_f32_min(uint32_t a, uint32_t b)
{
    bool na = f32_isnan(a), nb = f32_isnan(b);
    if (na && nb)
        return F32_QNAN;
    if (na)
        return b;
    if (nb)
        return a;
    float fa = seq_f32(a), fb = seq_f32(b);
    if (fa == fb)
        return (a & 0x80000000u) ? a : b;
    return fa < fb ? a : b;
}

static bool alu_f32(uint8_t op, uint32_t a, uint32_t b, uint32_t *res)
{
    float fa = seq_f32(a), fb = seq_f32(b);
    const uint32_t one = 0x3F800000u;

    switch (op) {
    case SEQ_ALU_BYPASS:
        *res = a;
        return true;
    case SEQ_ALU_ADD:
        *res = seq_f32_canon(fa + fb);
        return true;
    case SEQ_ALU_SUBTRACT:
        *res = seq_f32_canon(fa - fb);
        return true;
    case SEQ_ALU_MULT:
        *res = seq_f32_canon(fa * fb);
        return true;
    case SEQ_ALU_DIVIDE:
        *res = seq_f32_canon(fa / fb);
        return true;
    case SEQ_ALU_MAX:
        *res = seq_f32_max(a, b);
        return true;
    case SEQ_ALU_MIN:
        *res = seq_f32_min(a, b);
        return true;
    case SEQ_ALU_IS_EQ:
        *res = fa == fb ? one : 0;
        return true;
    case SEQ_ALU_IS_GT:
        *res = fa > fb ? one : 0;
        return true;
    case SEQ_ALU_IS_GE:
        *res = fa >= fb ? one : 0;
        return true;
    case SEQ_ALU_IS_LE:
        *res = fa <= fb ? one : 0;
        return true;
    case SEQ_ALU_IS_LT:
        *res = fa < fb ? one : 0;
        return true;
    case SEQ_ALU_ABSOLUTE_DIFF:
        *res = seq_f32_canon(fabsf(fa - fb));
        return true;
    case SEQ_ALU_IS_NE:
        *res = fa != fb ? one : 0; /* true with a NaN, as IEEE says */
        return true;
    case SEQ_ALU_ABSOLUTE_VALUE:
        *res = a & 0x7FFFFFFFu;
        return true;
    default:
        return false;
    }
}

bool seq_alu_compute(uint8_t op, uint8_t dtype, uint64_t a, uint64_t b, uint64_t *res)
{
    if (dtype == SEQ_DT_F32) {
        uint32_t r32;
        if (!alu_f32(op, (uint32_t)a, (uint32_t)b, &r32))
            return false;
        *res = r32;
        return true;
    }

    unsigned W;
    bool sgn;
    switch (dtype) {
    case SEQ_DT_I32:
        W = 32, sgn = true;
        break;
    case SEQ_DT_U32:
        W = 32, sgn = false;
        break;
    case SEQ_DT_I64:
        W = 64, sgn = true;
        break;
    case SEQ_DT_U64:
        W = 64, sgn = false;
        break;
    default:
        return false;
    }
    const uint64_t mask = W == 64 ? ~0ull : 0xFFFFFFFFull;
    const uint64_t smin = 1ull << (W - 1);
    a &= mask;
    b &= mask;
    /* Signed views, sign-extended to 64 bits. */
    int64_t sa = W == 64 ? (int64_t)a : (int64_t)(int32_t)(uint32_t)a;
    int64_t sb = W == 64 ? (int64_t)b : (int64_t)(int32_t)(uint32_t)b;
    unsigned sh = (unsigned)(b & (W - 1));
#define LT (sgn ? sa < sb : a < b)
#define GT (sgn ? sa > sb : a > b)
    uint64_t r;

    switch (op) {
    case SEQ_ALU_BYPASS:
        r = a;
        break;
    case SEQ_ALU_BITWISE_NOT:
        r = ~a;
        break;
    case SEQ_ALU_ARITH_SHIFT_LEFT:
    case SEQ_ALU_LOGICAL_SHIFT_LEFT:
        r = a << sh;
        break;
    case SEQ_ALU_ARITH_SHIFT_RIGHT:
        /* Arithmetic: sign bit replicated for every dtype (sequencer.md §8.7). */
        r = (uint64_t)(sa >> sh);
        break;
    case SEQ_ALU_LOGICAL_SHIFT_RIGHT:
        r = a >> sh;
        break;
    case SEQ_ALU_ADD:
    case SEQ_ALU_ADD_INT:
        r = a + b;
        break;
    case SEQ_ALU_SUBTRACT:
    case SEQ_ALU_SUBTRACT_INT:
        r = a - b;
        break;
    case SEQ_ALU_MULT:
    case SEQ_ALU_MULT_INT:
        r = a * b;
        break;
    case SEQ_ALU_DIVIDE:
        if (b == 0)
            r = mask;
        else if (sgn && a == smin && sb == -1)
            r = smin;
        else if (sgn)
            r = (uint64_t)(sa / sb);
        else
            r = a / b;
        break;
    case SEQ_ALU_MOD:
        if (b == 0)
            r = a;
        else if (sgn && a == smin && sb == -1)
            r = 0;
        else if (sgn)
            r = (uint64_t)(sa % sb);
        else
            r = a % b;
        break;
    case SEQ_ALU_MAX:
        r = GT ? a : b;
        break;
    case SEQ_ALU_MIN:
        r = LT ? a : b;
        break;
    case SEQ_ALU_BITWISE_AND:
        r = a & b;
        break;
    case SEQ_ALU_BITWISE_OR:
        r = a | b;
        break;
    case SEQ_ALU_BITWISE_XOR:
        r = a ^ b;
        break;
    case SEQ_ALU_LOGICAL_AND:
        r = (a != 0 && b != 0);
        break;
    case SEQ_ALU_LOGICAL_OR:
        r = (a != 0 || b != 0);
        break;
    case SEQ_ALU_LOGICAL_XOR:
        r = ((a != 0) != (b != 0));
        break;
    case SEQ_ALU_IS_EQ:
        r = a == b;
        break;
    case SEQ_ALU_IS_GT:
        r = GT;
        break;
    case SEQ_ALU_IS_GE:
        r = !LT;
        break;
    case SEQ_ALU_IS_LE:
        r = !GT;
        break;
    case SEQ_ALU_IS_LT:
        r = LT;
        break;
    case SEQ_ALU_IS_NE:
        r = a != b;
        break;
    case SEQ_ALU_ABSOLUTE_DIFF:
        r = GT ? a - b : b - a;
        break;
    case SEQ_ALU_ABSOLUTE_VALUE:
        r = (sgn && sa < 0) ? (uint64_t)0 - a : a; /* INT_MIN stays INT_MIN */
        break;
    default:
        return false;
    }
#undef LT
#undef GT
    *res = r & mask;
    return true;
}

SeqStatus seq_exec_alu(SeqCpu *s, const SeqDecoded *d)
{
    const uint8_t *rec = d->insn.rec;
    uint32_t *R = s->regs->r;
    uint8_t op = F(ALU_OP), dtype = F(ALU_DTYPE);
    bool imm = F(ALU_DATASRC) == 1;
    bool wide = dtype == SEQ_DT_I64 || dtype == SEQ_DT_U64;
    uint64_t a, b, res;

    if (wide) {
        a = (uint64_t)R[F(ALU_SRC0_HI) & 63] << 32 | R[F(ALU_SRC0_LO) & 63];
        b = imm ? F(ALU_IMM) : (uint64_t)R[F(ALU_SRC1_HI) & 63] << 32 | R[F(ALU_SRC1_LO) & 63];
    } else {
        a = R[F(ALU_SRC0_LO) & 63];
        b = imm ? (uint32_t)F(ALU_IMM) : R[F(ALU_SRC1_LO) & 63];
    }
    if (!seq_alu_compute(op, dtype, a, b, &res))
        return seq_fault(s, NX_FAULT_INVALID_INSTRUCTION, 40, 0); /* decoder's job; inert */

    seq_u_pre(s, d);
    R[F(ALU_DST_LO) & 63] = (uint32_t)res;
    if (wide)
        R[F(ALU_DST_HI) & 63] = (uint32_t)(res >> 32);
    seq_u_post(s, d);
    return SEQ_OK;
}

/* Straight-line handlers for the 32-bit integer operations and the 64-bit
 * add/sub/logic ops, installed by the decode cache for records without
 * events (alu-ops.h lists them; the run loop executes the same expressions
 * inline).  They give the results of seq_alu_compute
 * (tests/unit/test-seq-fast.c checks them against it); the ops whose result
 * depends on signedness have one handler per signedness.  Operands come
 * pre-resolved from the decoded entry (SeqDecoded.ra, rb, rd, imm). */
#define SA ((int32_t)a)
#define SB ((int32_t)b)
#define ALU32(name, expr)                                                                          \
    static SeqStatus alu_##name##_rr(SeqCpu *s, const SeqDecoded *d)                               \
    {                                                                                              \
        uint32_t *R = s->regs->r;                                                                  \
        uint32_t a = R[d->ra], b = R[d->rb];                                                       \
        (void)b;                                                                                   \
        R[d->rd] = (expr);                                                                         \
        return SEQ_OK;                                                                             \
    }                                                                                              \
    static SeqStatus alu_##name##_ri(SeqCpu *s, const SeqDecoded *d)                               \
    {                                                                                              \
        uint32_t *R = s->regs->r;                                                                  \
        uint32_t a = R[d->ra], b = (uint32_t)d->imm;                                               \
        (void)b;                                                                                   \
        R[d->rd] = (expr);                                                                         \
        return SEQ_OK;                                                                             \
    }
SEQ_ALU32_OPS(ALU32)
#undef ALU32
#undef SA
#undef SB

/* 64-bit operands are register pairs; the low half is written first, as in
 * seq_exec_alu, so dst_lo == dst_hi keeps the high half. */
#define ALU64(name, expr)                                                                          \
    static SeqStatus alu_##name##_rr(SeqCpu *s, const SeqDecoded *d)                               \
    {                                                                                              \
        uint32_t *R = s->regs->r;                                                                  \
        uint64_t a = (uint64_t)R[d->ra_hi] << 32 | R[d->ra];                                       \
        uint64_t b = (uint64_t)R[d->rb_hi] << 32 | R[d->rb];                                       \
        uint64_t r = (expr);                                                                       \
        R[d->rd] = (uint32_t)r;                                                                    \
        R[d->rd_hi] = (uint32_t)(r >> 32);                                                         \
        return SEQ_OK;                                                                             \
    }                                                                                              \
    static SeqStatus alu_##name##_ri(SeqCpu *s, const SeqDecoded *d)                               \
    {                                                                                              \
        uint32_t *R = s->regs->r;                                                                  \
        uint64_t a = (uint64_t)R[d->ra_hi] << 32 | R[d->ra];                                       \
        uint64_t b = d->imm;                                                                       \
        uint64_t r = (expr);                                                                       \
        R[d->rd] = (uint32_t)r;                                                                    \
        R[d->rd_hi] = (uint32_t)(r >> 32);                                                         \
        return SEQ_OK;                                                                             \
    }
SEQ_ALU64_OPS(ALU64)
#undef ALU64

static const SeqExecFn alu_kind_fn[SEQ_K_COUNT] = {
#define ALU_FN(name, expr)                                                                         \
    [SEQ_K_##name##_RR] = alu_##name##_rr, [SEQ_K_##name##_RI] = alu_##name##_ri,
    SEQ_ALU32_OPS(ALU_FN) SEQ_ALU64_OPS(ALU_FN)
#undef ALU_FN
};

SeqKind seq_alu_kind(const SeqInsn *in)
{
    const SeqAlu *x = &in->u.alu;
#define PICK(name) return x->src_imm ? SEQ_K_##name##_RI : SEQ_K_##name##_RR
    if (x->dtype == SEQ_DT_I64 || x->dtype == SEQ_DT_U64) {
        switch (x->op) {
        case SEQ_ALU_ADD:
        case SEQ_ALU_ADD_INT:
            PICK(ADD64);
        case SEQ_ALU_SUBTRACT:
        case SEQ_ALU_SUBTRACT_INT:
            PICK(SUB64);
        case SEQ_ALU_BITWISE_AND:
            PICK(AND64);
        case SEQ_ALU_BITWISE_OR:
            PICK(OR64);
        case SEQ_ALU_BITWISE_XOR:
            PICK(XOR64);
        default:
            return SEQ_K_CALL;
        }
    }
    if (x->dtype != SEQ_DT_I32 && x->dtype != SEQ_DT_U32)
        return SEQ_K_CALL;
    bool sgn = x->dtype == SEQ_DT_I32;
#define PICK_SU(name)                                                                              \
    if (sgn)                                                                                       \
        PICK(name##_S);                                                                            \
    PICK(name##_U)
    switch (x->op) {
    case SEQ_ALU_BYPASS:
        PICK(BYP);
    case SEQ_ALU_BITWISE_NOT:
        PICK(NOT);
    case SEQ_ALU_ARITH_SHIFT_LEFT:
    case SEQ_ALU_LOGICAL_SHIFT_LEFT:
        PICK(LSHL);
    case SEQ_ALU_ARITH_SHIFT_RIGHT:
        PICK(ASHR);
    case SEQ_ALU_ADD:
    case SEQ_ALU_ADD_INT:
        PICK(ADD);
    case SEQ_ALU_SUBTRACT:
    case SEQ_ALU_SUBTRACT_INT:
        PICK(SUB);
    case SEQ_ALU_MULT:
    case SEQ_ALU_MULT_INT:
        PICK(MUL);
    case SEQ_ALU_MAX:
        PICK_SU(MAX);
    case SEQ_ALU_MIN:
        PICK_SU(MIN);
    case SEQ_ALU_BITWISE_AND:
        PICK(AND);
    case SEQ_ALU_BITWISE_OR:
        PICK(OR);
    case SEQ_ALU_BITWISE_XOR:
        PICK(XOR);
    case SEQ_ALU_LOGICAL_AND:
        PICK(LAND);
    case SEQ_ALU_LOGICAL_OR:
        PICK(LOR);
    case SEQ_ALU_LOGICAL_XOR:
        PICK(LXOR);
    case SEQ_ALU_LOGICAL_SHIFT_RIGHT:
        PICK(LSHR);
    case SEQ_ALU_IS_EQ:
        PICK(EQ);
    case SEQ_ALU_IS_GT:
        PICK_SU(GT);
    case SEQ_ALU_IS_GE:
        PICK_SU(GE);
    case SEQ_ALU_IS_LE:
        PICK_SU(LE);
    case SEQ_ALU_IS_LT:
        PICK_SU(LT);
    case SEQ_ALU_ABSOLUTE_DIFF:
        PICK_SU(ABSDIFF);
    case SEQ_ALU_IS_NE:
        PICK(NE);
    case SEQ_ALU_ABSOLUTE_VALUE:
        if (sgn)
            PICK(ABS_S);
        PICK(BYP);
    default:
        return SEQ_K_CALL;
    }
#undef PICK_SU
#undef PICK
}

SeqExecFn seq_alu_fast(const SeqInsn *in)
{
    SeqKind k = seq_alu_kind(in);
    return k == SEQ_K_CALL ? NULL : alu_kind_fn[k];
}

void seq_alu_preresolve(SeqDecoded *d)
{
    const SeqAlu *x = &d->insn.u.alu;
    d->ra = x->src0_lo & 63;
    d->ra_hi = x->src0_hi & 63;
    d->rb = x->src1_lo & 63;
    d->rb_hi = x->src1_hi & 63;
    d->rd = x->dst_lo & 63;
    d->rd_hi = x->dst_hi & 63;
    d->imm = x->imm;
}

/* 0xA7 MOVE: all sources read before any destination is written. */
SeqStatus seq_exec_move(SeqCpu *s, const SeqDecoded *d)
{
    const uint8_t *rec = d->insn.rec;
    uint32_t *R = s->regs->r;
    unsigned n = F(MV_NUM) > SEQ_F_MV_DST_N ? SEQ_F_MV_DST_N : F(MV_NUM);
    uint32_t v[8];

    for (unsigned k = 0; k < n; k++) {
        if (F(MV_SOURCE) == 1) {
            v[k] = FA(MV_IMM, k);
        } else {
            uint8_t src = FA(MV_SRC, k);
            v[k] = src == 128   ? (uint32_t)seq_cur_pc(s)
                   : src == 129 ? (uint32_t)(seq_cur_pc(s) >> 32)
                                : R[src & 63];
        }
    }
    seq_u_pre(s, d);
    for (unsigned k = 0; k < n; k++)
        R[FA(MV_DST, k) & 63] = v[k];
    seq_u_post(s, d);
    return SEQ_OK;
}
