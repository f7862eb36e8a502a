/*
 * ALU_OP (0xA8) and MOVE (0xA7), sequencer.md §8.6-§8.7, float rules of
 * machine.md §12.13.
 */
#include <math.h>

#include "target/seq/cpu.h"

enum { DT_UINT64 = 0x1, DT_INT32 = 0x8, DT_UINT32 = 0x9, DT_FP32 = 0xA, DT_INT64 = 0xC };

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
    case 0x00:
        *res = a;
        return true;
    case 0x04:
        *res = seq_f32_canon(fa + fb);
        return true;
    case 0x05:
        *res = seq_f32_canon(fa - fb);
        return true;
    case 0x06:
        *res = seq_f32_canon(fa * fb);
        return true;
    case 0x07:
        *res = seq_f32_canon(fa / fb);
        return true;
    case 0x08:
        *res = seq_f32_max(a, b);
        return true;
    case 0x09:
        *res = seq_f32_min(a, b);
        return true;
    case 0x12:
        *res = fa == fb ? one : 0;
        return true;
    case 0x13:
        *res = fa > fb ? one : 0;
        return true;
    case 0x14:
        *res = fa >= fb ? one : 0;
        return true;
    case 0x15:
        *res = fa <= fb ? one : 0;
        return true;
    case 0x16:
        *res = fa < fb ? one : 0;
        return true;
    case 0x17:
        *res = seq_f32_canon(fabsf(fa - fb));
        return true;
    case 0x18:
        *res = fa != fb ? one : 0; /* true with a NaN, as IEEE says */
        return true;
    case 0x19:
        *res = a & 0x7FFFFFFFu;
        return true;
    default:
        return false;
    }
}

bool seq_alu_compute(uint8_t op, uint8_t dtype, uint64_t a, uint64_t b, uint64_t *res)
{
    if (dtype == DT_FP32) {
        uint32_t r32;
        if (!alu_f32(op, (uint32_t)a, (uint32_t)b, &r32))
            return false;
        *res = r32;
        return true;
    }

    unsigned W;
    bool sgn;
    switch (dtype) {
    case DT_INT32:
        W = 32, sgn = true;
        break;
    case DT_UINT32:
        W = 32, sgn = false;
        break;
    case DT_INT64:
        W = 64, sgn = true;
        break;
    case DT_UINT64:
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
    case 0x00:
        r = a;
        break;
    case 0x01:
        r = ~a;
        break;
    case 0x02:
    case 0x10:
        r = a << sh;
        break;
    case 0x03:
        /* Arithmetic: sign bit replicated for every dtype (sequencer.md §8.7). */
        r = (uint64_t)(sa >> sh);
        break;
    case 0x11:
        r = a >> sh;
        break;
    case 0x04:
    case 0xC4:
        r = a + b;
        break;
    case 0x05:
    case 0xC6:
        r = a - b;
        break;
    case 0x06:
    case 0xC5:
        r = a * b;
        break;
    case 0x07:
        if (b == 0)
            r = mask;
        else if (sgn && a == smin && sb == -1)
            r = smin;
        else if (sgn)
            r = (uint64_t)(sa / sb);
        else
            r = a / b;
        break;
    case 0x1B:
        if (b == 0)
            r = a;
        else if (sgn && a == smin && sb == -1)
            r = 0;
        else if (sgn)
            r = (uint64_t)(sa % sb);
        else
            r = a % b;
        break;
    case 0x08:
        r = GT ? a : b;
        break;
    case 0x09:
        r = LT ? a : b;
        break;
    case 0x0A:
        r = a & b;
        break;
    case 0x0B:
        r = a | b;
        break;
    case 0x0C:
        r = a ^ b;
        break;
    case 0x0D:
        r = (a != 0 && b != 0);
        break;
    case 0x0E:
        r = (a != 0 || b != 0);
        break;
    case 0x0F:
        r = ((a != 0) != (b != 0));
        break;
    case 0x12:
        r = a == b;
        break;
    case 0x13:
        r = GT;
        break;
    case 0x14:
        r = !LT;
        break;
    case 0x15:
        r = !GT;
        break;
    case 0x16:
        r = LT;
        break;
    case 0x18:
        r = a != b;
        break;
    case 0x17:
        r = GT ? a - b : b - a;
        break;
    case 0x19:
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
    uint32_t *R = s->nx->r;
    uint8_t op = rec[12], dtype = rec[13];
    bool imm = rec[14] == 1;
    bool wide = dtype == DT_INT64 || dtype == DT_UINT64;
    uint64_t a, b, res;

    if (wide) {
        a = (uint64_t)R[rec[17] & 63] << 32 | R[rec[16] & 63];
        b = imm ? seq_le64(rec + 24) : (uint64_t)R[rec[19] & 63] << 32 | R[rec[18] & 63];
    } else {
        a = R[rec[16] & 63];
        b = imm ? seq_le32(rec + 24) : R[rec[18] & 63];
    }
    if (!seq_alu_compute(op, dtype, a, b, &res))
        return seq_fault(s, NX_FAULT_INVALID_INSTRUCTION, 40, 0); /* decoder's job; inert */

    seq_u_pre(s, d);
    R[rec[20] & 63] = (uint32_t)res;
    if (wide)
        R[rec[21] & 63] = (uint32_t)(res >> 32);
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
        uint32_t *R = s->nx->r;                                                                    \
        uint32_t a = R[d->ra], b = R[d->rb];                                                       \
        (void)b;                                                                                   \
        R[d->rd] = (expr);                                                                         \
        return SEQ_OK;                                                                             \
    }                                                                                              \
    static SeqStatus alu_##name##_ri(SeqCpu *s, const SeqDecoded *d)                               \
    {                                                                                              \
        uint32_t *R = s->nx->r;                                                                    \
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
        uint32_t *R = s->nx->r;                                                                    \
        uint64_t a = (uint64_t)R[d->ra_hi] << 32 | R[d->ra];                                       \
        uint64_t b = (uint64_t)R[d->rb_hi] << 32 | R[d->rb];                                       \
        uint64_t r = (expr);                                                                       \
        R[d->rd] = (uint32_t)r;                                                                    \
        R[d->rd_hi] = (uint32_t)(r >> 32);                                                         \
        return SEQ_OK;                                                                             \
    }                                                                                              \
    static SeqStatus alu_##name##_ri(SeqCpu *s, const SeqDecoded *d)                               \
    {                                                                                              \
        uint32_t *R = s->nx->r;                                                                    \
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
    if (x->dtype == DT_INT64 || x->dtype == DT_UINT64) {
        switch (x->op) {
        case 0x04:
        case 0xC4:
            PICK(ADD64);
        case 0x05:
        case 0xC6:
            PICK(SUB64);
        case 0x0A:
            PICK(AND64);
        case 0x0B:
            PICK(OR64);
        case 0x0C:
            PICK(XOR64);
        default:
            return SEQ_K_CALL;
        }
    }
    if (x->dtype != DT_INT32 && x->dtype != DT_UINT32)
        return SEQ_K_CALL;
    bool sgn = x->dtype == DT_INT32;
#define PICK_SU(name)                                                                              \
    if (sgn)                                                                                       \
        PICK(name##_S);                                                                            \
    PICK(name##_U)
    switch (x->op) {
    case 0x00:
        PICK(BYP);
    case 0x01:
        PICK(NOT);
    case 0x02:
    case 0x10:
        PICK(LSHL);
    case 0x03:
        PICK(ASHR);
    case 0x04:
    case 0xC4:
        PICK(ADD);
    case 0x05:
    case 0xC6:
        PICK(SUB);
    case 0x06:
    case 0xC5:
        PICK(MUL);
    case 0x08:
        PICK_SU(MAX);
    case 0x09:
        PICK_SU(MIN);
    case 0x0A:
        PICK(AND);
    case 0x0B:
        PICK(OR);
    case 0x0C:
        PICK(XOR);
    case 0x0D:
        PICK(LAND);
    case 0x0E:
        PICK(LOR);
    case 0x0F:
        PICK(LXOR);
    case 0x11:
        PICK(LSHR);
    case 0x12:
        PICK(EQ);
    case 0x13:
        PICK_SU(GT);
    case 0x14:
        PICK_SU(GE);
    case 0x15:
        PICK_SU(LE);
    case 0x16:
        PICK_SU(LT);
    case 0x17:
        PICK_SU(ABSDIFF);
    case 0x18:
        PICK(NE);
    case 0x19:
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
    uint32_t *R = s->nx->r;
    unsigned n = rec[12] > 8 ? 8 : rec[12];
    uint32_t v[8];

    for (unsigned k = 0; k < n; k++) {
        if (rec[14] == 1) {
            v[k] = seq_le32(rec + 32 + 4 * k);
        } else {
            uint8_t src = rec[16 + k];
            v[k] = src == 128   ? (uint32_t)seq_cur_pc(s)
                   : src == 129 ? (uint32_t)(seq_cur_pc(s) >> 32)
                                : R[src & 63];
        }
    }
    seq_u_pre(s, d);
    for (unsigned k = 0; k < n; k++)
        R[rec[24 + k] & 63] = v[k];
    seq_u_post(s, d);
    return SEQ_OK;
}
