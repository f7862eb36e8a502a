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
    uint64_t pc = s->nx->pc;
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
