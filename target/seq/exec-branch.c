/* COMPARE_BRANCH (0xA9), sequencer.md §8.8. */
#include "target/seq/cpu.h"

#define F(name) seq_field_get(r, SEQ_F_##name)

/* Reduce a 32-bit value to the comparison dtype as a signed 64-bit number
 * (integers only). */
static int64_t reduce(uint8_t dtype, uint32_t x)
{
    switch (dtype) {
    case SEQ_DT_I8:
        return (int8_t)x;
    case SEQ_DT_U8:
        return (uint8_t)x;
    case SEQ_DT_I16:
        return (int16_t)x;
    case SEQ_DT_U16:
        return (uint16_t)x;
    case SEQ_DT_I32:
        return (int32_t)x;
    default:
        return x;
    }
}

static bool branch_taken(uint8_t cmp, uint8_t dtype, uint32_t x, uint32_t y)
{
    unsigned rel = cmp & 7;
    if (cmp == 0)
        return true;
    if (dtype == SEQ_DT_F32) {
        float fx = seq_f32(x), fy = seq_f32(y);
        switch (rel) {
        case 1:
            return fx < fy;
        case 2:
            return fx <= fy;
        case 3:
            return fx == fy;
        case 4:
            return fx != fy; /* true with a NaN */
        case 5:
            return fx >= fy;
        default:
            return fx > fy;
        }
    }
    int64_t a = reduce(dtype, x), b = reduce(dtype, y);
    switch (rel) {
    case 1:
        return a < b;
    case 2:
        return a <= b;
    case 3:
        return a == b;
    case 4:
        return a != b;
    case 5:
        return a >= b;
    default:
        return a > b;
    }
}

SeqStatus seq_exec_branch(SeqCpu *s, const SeqDecoded *d)
{
    const uint8_t *r = d->insn.rec;
    uint32_t *R = s->regs->r;
    uint64_t pc = seq_cur_pc(s);
    uint8_t cmp = F(BR_CMP_OP);
    uint32_t x = R[F(BR_LHS) & 63];
    uint32_t y = cmp >= 9 ? R[F(BR_RHS) & 63] : F(BR_RHS_IMM);
    bool taken = branch_taken(cmp, F(BR_DTYPE), x, y);
    uint64_t target = 0;

    if (taken) {
        uint64_t timm = F(BR_TARGET_IMM);
        switch (F(BR_TARGET_MODE)) {
        case SEQ_TGT_ABS_IMM:
            target = timm;
            break;
        case SEQ_TGT_REGISTER:
            target = (uint64_t)R[F(BR_TGT_HI) & 63] << 32 | R[F(BR_TGT_LO) & 63];
            break;
        case SEQ_TGT_REL_IMM:
            target = pc + (uint64_t)(int64_t)(int32_t)(uint32_t)timm;
            break;
        default: /* SEQ_TGT_REL_REGISTER */
            target = pc + (uint64_t)(int64_t)(int32_t)R[F(BR_TGT_LO) & 63];
            break;
        }
        if (target & 63)
            return seq_fault(s, NX_FAULT_MISALIGNED, 0, target);
    }

    seq_u_pre(s, d);
    if (taken) {
        if (F(BR_LINK)) {
            R[62] = (uint32_t)(pc + 64);
            R[63] = (uint32_t)((pc + 64) >> 32);
        }
        s->next_pc = target;
    }
    seq_u_post(s, d);
    return SEQ_OK;
}

/* Specialised COMPARE_BRANCH for the common forms: 32-bit integer compare,
 * immediate target (absolute or relative), no link, no events.  One handler
 * per condition and signedness (alu-ops.h; the run loop executes the same
 * conditions inline), so the taken test is a single compare.  Operands come
 * pre-resolved from the decoded entry (seq_branch_preresolve). */
#define BR32(name, cond)                                                                           \
    static SeqStatus br_##name(SeqCpu *s, const SeqDecoded *d)                                     \
    {                                                                                              \
        const uint32_t *R = s->regs->r;                                                            \
        uint32_t x = R[d->ra];                                                                     \
        uint32_t y = d->rhs_reg ? R[d->rb] : d->imm32;                                             \
        (void)x, (void)y;                                                                          \
        if (!(cond))                                                                               \
            return SEQ_OK;                                                                         \
        uint64_t target = d->tgt_rel ? seq_cur_pc(s) + d->imm : d->imm;                            \
        if (G_UNLIKELY(target & 63))                                                               \
            return seq_fault(s, NX_FAULT_MISALIGNED, 0, target);                                   \
        s->next_pc = target;                                                                       \
        return SEQ_OK;                                                                             \
    }
SEQ_BR32_OPS(BR32)
#undef BR32

static const SeqExecFn br_kind_fn[SEQ_K_COUNT] = {
#define BR_FN(name, cond) [SEQ_K_BR_##name] = br_##name,
    SEQ_BR32_OPS(BR_FN)
#undef BR_FN
};

SeqKind seq_branch_kind(const SeqInsn *in)
{
    const SeqBranch *b = &in->u.br;
    if (b->link || (b->target_mode != SEQ_TGT_ABS_IMM && b->target_mode != SEQ_TGT_REL_IMM))
        return SEQ_K_CALL;
    if (b->cmp_op == 0)
        return SEQ_K_BR_ALWAYS;
    if (b->dtype != SEQ_DT_I32 && b->dtype != SEQ_DT_U32)
        return SEQ_K_CALL;
    bool sgn = b->dtype == SEQ_DT_I32;
    switch (b->cond) {
    case SEQ_BR_LT:
        return sgn ? SEQ_K_BR_LT_S : SEQ_K_BR_LT_U;
    case SEQ_BR_LE:
        return sgn ? SEQ_K_BR_LE_S : SEQ_K_BR_LE_U;
    case SEQ_BR_EQ:
        return SEQ_K_BR_EQ;
    case SEQ_BR_NE:
        return SEQ_K_BR_NE;
    case SEQ_BR_GE:
        return sgn ? SEQ_K_BR_GE_S : SEQ_K_BR_GE_U;
    case SEQ_BR_GT:
        return sgn ? SEQ_K_BR_GT_S : SEQ_K_BR_GT_U;
    default:
        return SEQ_K_CALL;
    }
}

SeqExecFn seq_branch_fast(const SeqInsn *in)
{
    SeqKind k = seq_branch_kind(in);
    return k == SEQ_K_CALL ? NULL : br_kind_fn[k];
}

void seq_branch_preresolve(SeqDecoded *d)
{
    const SeqBranch *b = &d->insn.u.br;
    d->ra = b->lhs & 63;
    d->rb = b->rhs & 63;
    d->rhs_reg = b->rhs_is_reg;
    d->imm32 = b->rhs_imm;
    d->tgt_rel = b->target_mode == SEQ_TGT_REL_IMM;
    d->imm = d->tgt_rel ? (uint64_t)b->rel : b->target_imm;
}
