/* COMPARE_BRANCH (0xA9), sequencer.md §8.8. */
#include "target/seq/cpu.h"

enum {
    DT_INT8 = 0x2,
    DT_UINT8 = 0x3,
    DT_INT16 = 0x4,
    DT_UINT16 = 0x5,
    DT_INT32 = 0x8,
    DT_UINT32 = 0x9,
    DT_FP32 = 0xA,
};

/* Reduce a 32-bit value to the comparison dtype as a signed 64-bit number
 * (integers only). */
static int64_t reduce(uint8_t dtype, uint32_t x)
{
    switch (dtype) {
    case DT_INT8:
        return (int8_t)x;
    case DT_UINT8:
        return (uint8_t)x;
    case DT_INT16:
        return (int16_t)x;
    case DT_UINT16:
        return (uint16_t)x;
    case DT_INT32:
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
    if (dtype == DT_FP32) {
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
    uint32_t *R = s->nx->r;
    uint64_t pc = seq_cur_pc(s);
    uint8_t cmp = r[12];
    uint32_t x = R[r[32] & 63];
    uint32_t y = cmp >= 9 ? R[r[33] & 63] : seq_le32(r + 16);
    bool taken = branch_taken(cmp, r[13], x, y);
    uint64_t target = 0;

    if (taken) {
        uint64_t timm = seq_le64(r + 48);
        switch (r[14]) {
        case 0:
            target = timm;
            break;
        case 1:
            target = (uint64_t)R[r[35] & 63] << 32 | R[r[34] & 63];
            break;
        case 3:
            target = pc + (uint64_t)(int64_t)(int32_t)(uint32_t)timm;
            break;
        default:
            target = pc + (uint64_t)(int64_t)(int32_t)R[r[34] & 63];
            break;
        }
        if (target & 63)
            return seq_fault(s, NX_FAULT_MISALIGNED, 0, target);
    }

    seq_u_pre(s, d);
    if (taken) {
        if (r[15]) {
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
        const uint32_t *R = s->nx->r;                                                              \
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
    if (b->dtype != DT_INT32 && b->dtype != DT_UINT32)
        return SEQ_K_CALL;
    bool sgn = b->dtype == DT_INT32;
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
