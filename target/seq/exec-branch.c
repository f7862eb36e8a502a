/* COMPARE_BRANCH (0xA9), sequencer.md §8.8. */
#include "target/seq/cpu.h"

#define F(name) seq_field_get(r, SEQ_F_##name)

SeqStatus seq_exec_branch(SeqCpu *s, const SeqDecoded *d)
{
    const uint8_t *r = d->insn.rec;
    uint32_t *R = s->regs->r;
    uint64_t pc = seq_cur_pc(s);
    uint8_t cmp = F(BR_CMP_OP);
    uint32_t x = R[F(BR_LHS) & 63];
    uint32_t y = cmp >= 9 ? R[F(BR_RHS) & 63] : F(BR_RHS_IMM);
    bool taken = seq_br_taken(cmp & 7, F(BR_DTYPE), x, y);
    uint64_t target = 0;

    if (taken) {
        uint64_t timm = F(BR_TARGET_IMM);
        switch (F(BR_TARGET_MODE)) {
        case SEQ_TGT_ABS_IMM:
        case SEQ_TGT_REL_IMM:
            target = seq_br_imm_target(F(BR_TARGET_MODE) == SEQ_TGT_REL_IMM, pc, timm);
            break;
        case SEQ_TGT_REGISTER:
            target = (uint64_t)R[F(BR_TGT_HI) & 63] << 32 | R[F(BR_TGT_LO) & 63];
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

/* The specialised execute functions, one per form of alu-ops.h (32-bit
 * integer compare, immediate target, no link, no events), installed by the
 * decode cache: seq_br_form_taken with constant arguments (the run loop
 * instantiates the same forms inline). */
#define BR_FORM(K, COND, DT)                                                                       \
    static SeqStatus br_##K(SeqCpu *s, const SeqDecoded *d)                                        \
    {                                                                                              \
        if (!seq_br_form_taken(s->regs->r, d, SEQ_BR_##COND, SEQ_DT_##DT))                         \
            return SEQ_OK;                                                                         \
        uint64_t target = seq_br_form_target(d, seq_cur_pc(s));                                    \
        if (G_UNLIKELY(target & 63))                                                               \
            return seq_fault(s, NX_FAULT_MISALIGNED, 0, target);                                   \
        s->next_pc = target;                                                                       \
        return SEQ_OK;                                                                             \
    }
SEQ_BR_FORMS(BR_FORM)
#undef BR_FORM

static const SeqExecFn br_kind_fn[SEQ_K_COUNT] = {
#define BR_FN(K, COND, DT) [SEQ_K_BR_##K] = br_##K,
    SEQ_BR_FORMS(BR_FN)
#undef BR_FN
};

/* The form of a decoded COMPARE_BRANCH (alu-ops.h), or SEQ_K_CALL. */
SeqKind seq_branch_kind(const SeqInsn *in)
{
    const SeqBranch *b = &in->u.br;
    if (b->link || (b->target_mode != SEQ_TGT_ABS_IMM && b->target_mode != SEQ_TGT_REL_IMM))
        return SEQ_K_CALL;
    if (b->cond == SEQ_BR_ALWAYS)
        return SEQ_K_BR_ALWAYS;
#define PICK(K, COND, DT)                                                                          \
    if (SEQ_BR_##COND != SEQ_BR_ALWAYS && b->cond == SEQ_BR_##COND && b->dtype == SEQ_DT_##DT)     \
        return SEQ_K_BR_##K;
    SEQ_BR_FORMS(PICK)
#undef PICK
    return SEQ_K_CALL;
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
    d->imm = b->target_imm; /* seq_br_form_target applies the mode */
}
