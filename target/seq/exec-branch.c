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
 * per condition and signedness, so the taken test is a single compare. */
#define BR32(name, cond)                                                                           \
    static SeqStatus name(SeqCpu *s, const SeqDecoded *d)                                          \
    {                                                                                              \
        const SeqBranch *b = &d->insn.u.br;                                                        \
        const uint32_t *R = s->nx->r;                                                              \
        uint32_t x = R[b->lhs & 63];                                                               \
        uint32_t y = b->rhs_is_reg ? R[b->rhs & 63] : b->rhs_imm;                                  \
        (void)x, (void)y;                                                                          \
        if (!(cond))                                                                               \
            return SEQ_OK;                                                                         \
        uint64_t target =                                                                          \
            b->target_mode == SEQ_TGT_ABS_IMM ? b->target_imm : seq_cur_pc(s) + (uint64_t)b->rel;  \
        if (G_UNLIKELY(target & 63))                                                               \
            return seq_fault(s, NX_FAULT_MISALIGNED, 0, target);                                   \
        s->next_pc = target;                                                                       \
        return SEQ_OK;                                                                             \
    }

BR32(br_always, true)
BR32(br_lt_s, (int32_t)x < (int32_t)y)
BR32(br_le_s, (int32_t)x <= (int32_t)y)
BR32(br_ge_s, (int32_t)x >= (int32_t)y)
BR32(br_gt_s, (int32_t)x > (int32_t)y)
BR32(br_lt_u, x < y)
BR32(br_le_u, x <= y)
BR32(br_ge_u, x >= y)
BR32(br_gt_u, x > y)
BR32(br_eq, x == y)
BR32(br_ne, x != y)

SeqExecFn seq_branch_fast(const SeqInsn *in)
{
    const SeqBranch *b = &in->u.br;
    if (b->link || (b->target_mode != SEQ_TGT_ABS_IMM && b->target_mode != SEQ_TGT_REL_IMM))
        return NULL;
    if (b->cmp_op == 0)
        return br_always;
    if (b->dtype != DT_INT32 && b->dtype != DT_UINT32)
        return NULL;
    bool sgn = b->dtype == DT_INT32;
    switch (b->cond) {
    case SEQ_BR_LT:
        return sgn ? br_lt_s : br_lt_u;
    case SEQ_BR_LE:
        return sgn ? br_le_s : br_le_u;
    case SEQ_BR_EQ:
        return br_eq;
    case SEQ_BR_NE:
        return br_ne;
    case SEQ_BR_GE:
        return sgn ? br_ge_s : br_ge_u;
    case SEQ_BR_GT:
        return sgn ? br_gt_s : br_gt_u;
    default:
        return NULL;
    }
}
