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

bool seq_alu_compute(uint8_t op, uint8_t dtype, uint64_t a, uint64_t b, uint64_t *res)
{
    if (dtype == SEQ_DT_F32) {
        uint32_t r32;
        if (!seq_alu_f32(op, (uint32_t)a, (uint32_t)b, &r32))
            return false;
        *res = r32;
        return true;
    }

    switch (dtype) {
    case SEQ_DT_I32:
        return seq_alu_int(op, 32, true, a, b, res);
    case SEQ_DT_U32:
        return seq_alu_int(op, 32, false, a, b, res);
    case SEQ_DT_I64:
        return seq_alu_int(op, 64, true, a, b, res);
    case SEQ_DT_U64:
        return seq_alu_int(op, 64, false, a, b, res);
    default:
        return false;
    }
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

/* The specialised execute functions, one per form of alu-ops.h, installed
 * by the decode cache for records without events: seq_alu_form with
 * constant arguments (the run loop instantiates the same forms inline). */
#define ALU_FORM(K, OP, W, SG)                                                                     \
    static SeqStatus alu_##K##_rr(SeqCpu *s, const SeqDecoded *d)                                  \
    {                                                                                              \
        seq_alu_form(s->regs->r, d, SEQ_ALU_##OP, W, SEQ_SG_##SG, false);                          \
        return SEQ_OK;                                                                             \
    }                                                                                              \
    static SeqStatus alu_##K##_ri(SeqCpu *s, const SeqDecoded *d)                                  \
    {                                                                                              \
        seq_alu_form(s->regs->r, d, SEQ_ALU_##OP, W, SEQ_SG_##SG, true);                           \
        return SEQ_OK;                                                                             \
    }
SEQ_ALU_FORMS(ALU_FORM)
#undef ALU_FORM

static const SeqExecFn alu_kind_fn[SEQ_K_COUNT] = {
#define ALU_FN(K, OP, W, SG) [SEQ_K_##K##_RR] = alu_##K##_rr, [SEQ_K_##K##_RI] = alu_##K##_ri,
    SEQ_ALU_FORMS(ALU_FN)
#undef ALU_FN
};

/* The form of a decoded ALU_OP (alu-ops.h), or SEQ_K_CALL. */
SeqKind seq_alu_kind(const SeqInsn *in)
{
    const SeqAlu *x = &in->u.alu;
    unsigned w;
    bool sgn;
    switch (x->dtype) {
    case SEQ_DT_I32:
        w = 32, sgn = true;
        break;
    case SEQ_DT_U32:
        w = 32, sgn = false;
        break;
    case SEQ_DT_I64:
        w = 64, sgn = true;
        break;
    case SEQ_DT_U64:
        w = 64, sgn = false;
        break;
    default:
        return SEQ_K_CALL;
    }
    (void)sgn;
#define SEQ_SGOK_S   sgn
#define SEQ_SGOK_U   !sgn
#define SEQ_SGOK_ANY true
#define PICK(K, OP, W, SG)                                                                         \
    if (x->op == SEQ_ALU_##OP && w == W && (SEQ_SGOK_##SG))                                        \
        return x->src_imm ? SEQ_K_##K##_RI : SEQ_K_##K##_RR;
    SEQ_ALU_FORMS(PICK)
#undef PICK
#undef SEQ_SGOK_S
#undef SEQ_SGOK_U
#undef SEQ_SGOK_ANY
    return SEQ_K_CALL;
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
