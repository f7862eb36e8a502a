/*
 * The semantics of ALU_OP's operations (sequencer.md §8.7: integer, the
 * body in alu-int.inc, instantiated per width; f32, seq_alu_f32), which
 * DMA compute (§8.11) applies too, and of COMPARE_BRANCH's condition
 * (§8.8), each written once, as inline functions of the operation, the
 * width and the signedness.
 *
 * Every executor is an instantiation of them, in the manner of Spike's
 * insn_template.cc: seq_alu_compute and seq_exec_branch (exec-alu.c,
 * exec-branch.c) call them with the operation read from the record; the
 * specialised execute functions and the run loop's inline forms (cpu.c)
 * call them with constant arguments, so that the compiler folds each to
 * one host operation.  The form lists below only say which instantiations
 * exist (and name the run loop's kinds), not what they compute.
 */
#ifndef TARGET_SEQ_ALU_OPS_H
#define TARGET_SEQ_ALU_OPS_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "target/seq/insn.h"

#define SEQ_SEM_INLINE static inline __attribute__((always_inline))

#define SEQ_ALU_W 32
#include "target/seq/alu-int.inc"
#undef SEQ_ALU_W
#define SEQ_ALU_W 64
#include "target/seq/alu-int.inc"
#undef SEQ_ALU_W

/* seq_alu_int32 or seq_alu_int64 (W = 32: operands and result in the low
 * 32 bits). */
SEQ_SEM_INLINE bool seq_alu_int(uint8_t op, unsigned W, bool sgn, uint64_t a, uint64_t b,
                                uint64_t *res)
{
    if (W == 64)
        return seq_alu_int64(op, sgn, a, b, res);
    uint32_t r32 = 0;
    bool ok = seq_alu_int32(op, sgn, (uint32_t)a, (uint32_t)b, &r32);
    *res = r32;
    return ok;
}

/* Float helpers shared by ALU and DMA compute (defined in exec-alu.c). */
uint32_t seq_f32_max(uint32_t a, uint32_t b);
uint32_t seq_f32_min(uint32_t a, uint32_t b);
uint32_t seq_f32_canon(float f);
static inline float seq_f32(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static inline uint32_t seq_u32(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* The f32 ALU_OP semantics (sequencer.md §8.7, float rules of machine.md
 * §12.13), written once: seq_alu_compute and DMA compute (dma-req.c) use
 * them.  False for an operation with no f32 form. */
SEQ_SEM_INLINE bool seq_alu_f32(uint8_t op, uint32_t a, uint32_t b, uint32_t *res)
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

/* The comparison value of a 32-bit register for an integer dtype, as a
 * signed 64-bit number (sequencer.md §8.8: the low bits of the dtype's
 * width, extended as its signedness says). */
SEQ_SEM_INLINE int64_t seq_br_reduce(uint8_t dtype, uint32_t x)
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

/* Is COMPARE_BRANCH with condition `cond` (SeqBranchCond, cmp_op & 7) of x
 * and y in `dtype` taken?  Floats compare as IEEE says (ne is true with a
 * NaN, the others false). */
SEQ_SEM_INLINE bool seq_br_taken(uint8_t cond, uint8_t dtype, uint32_t x, uint32_t y)
{
    if (cond == SEQ_BR_ALWAYS)
        return true;
    if (dtype == SEQ_DT_F32) {
        float fx = seq_f32(x), fy = seq_f32(y);
        switch (cond) {
        case SEQ_BR_LT:
            return fx < fy;
        case SEQ_BR_LE:
            return fx <= fy;
        case SEQ_BR_EQ:
            return fx == fy;
        case SEQ_BR_NE:
            return fx != fy;
        case SEQ_BR_GE:
            return fx >= fy;
        default:
            return fx > fy;
        }
    }
    int64_t a = seq_br_reduce(dtype, x), b = seq_br_reduce(dtype, y);
    switch (cond) {
    case SEQ_BR_LT:
        return a < b;
    case SEQ_BR_LE:
        return a <= b;
    case SEQ_BR_EQ:
        return a == b;
    case SEQ_BR_NE:
        return a != b;
    case SEQ_BR_GE:
        return a >= b;
    default:
        return a > b;
    }
}

/* The target of a taken COMPARE_BRANCH with an immediate target: the
 * address itself (ABS_IMM) or the executing PC plus the sign-extended low
 * 32 bits (REL_IMM). */
static inline uint64_t seq_br_imm_target(bool rel, uint64_t pc, uint64_t timm)
{
    return rel ? pc + (uint64_t)(int64_t)(int32_t)(uint32_t)timm : timm;
}

/*
 * The specialised ALU_OP forms: X(KIND, OP, W, SG) instantiates
 * seq_alu_int(SEQ_ALU_<OP>, W, sgn) for records without events whose dtype
 * is INT32/UINT32 (W 32) or INT64/UINT64 (W 64, register pairs) and whose
 * signedness is SG: S signed, U unsigned, ANY both (the operation does not
 * depend on it).  Each comes in a register (_RR) and an immediate (_RI)
 * variant.  Operations not listed (DIVIDE, MOD, 64-bit compares, f32) run
 * seq_exec_alu; tests/unit/test-seq-fast.c checks every listed form against
 * it for both signednesses.
 */
#define SEQ_ALU_FORMS(X)                                                                           \
    X(ADD, ADD, 32, ANY)                                                                           \
    X(ADD_INT, ADD_INT, 32, ANY)                                                                   \
    X(SUB, SUBTRACT, 32, ANY)                                                                      \
    X(SUB_INT, SUBTRACT_INT, 32, ANY)                                                              \
    X(MUL, MULT, 32, ANY)                                                                          \
    X(MUL_INT, MULT_INT, 32, ANY)                                                                  \
    X(AND, BITWISE_AND, 32, ANY)                                                                   \
    X(OR, BITWISE_OR, 32, ANY)                                                                     \
    X(XOR, BITWISE_XOR, 32, ANY)                                                                   \
    X(ASHL, ARITH_SHIFT_LEFT, 32, ANY)                                                             \
    X(LSHL, LOGICAL_SHIFT_LEFT, 32, ANY)                                                           \
    X(LSHR, LOGICAL_SHIFT_RIGHT, 32, ANY)                                                          \
    X(ASHR, ARITH_SHIFT_RIGHT, 32, ANY)                                                            \
    X(BYP, BYPASS, 32, ANY)                                                                        \
    X(NOT, BITWISE_NOT, 32, ANY)                                                                   \
    X(LAND, LOGICAL_AND, 32, ANY)                                                                  \
    X(LOR, LOGICAL_OR, 32, ANY)                                                                    \
    X(LXOR, LOGICAL_XOR, 32, ANY)                                                                  \
    X(EQ, IS_EQ, 32, ANY)                                                                          \
    X(NE, IS_NE, 32, ANY)                                                                          \
    X(MAX_S, MAX, 32, S)                                                                           \
    X(MAX_U, MAX, 32, U)                                                                           \
    X(MIN_S, MIN, 32, S)                                                                           \
    X(MIN_U, MIN, 32, U)                                                                           \
    X(GT_S, IS_GT, 32, S)                                                                          \
    X(GT_U, IS_GT, 32, U)                                                                          \
    X(GE_S, IS_GE, 32, S)                                                                          \
    X(GE_U, IS_GE, 32, U)                                                                          \
    X(LE_S, IS_LE, 32, S)                                                                          \
    X(LE_U, IS_LE, 32, U)                                                                          \
    X(LT_S, IS_LT, 32, S)                                                                          \
    X(LT_U, IS_LT, 32, U)                                                                          \
    X(ABSDIFF_S, ABSOLUTE_DIFF, 32, S)                                                             \
    X(ABSDIFF_U, ABSOLUTE_DIFF, 32, U)                                                             \
    X(ABS_S, ABSOLUTE_VALUE, 32, S)                                                                \
    X(ABS_U, ABSOLUTE_VALUE, 32, U)                                                                \
    X(ADD64, ADD, 64, ANY)                                                                         \
    X(ADD_INT64, ADD_INT, 64, ANY)                                                                 \
    X(SUB64, SUBTRACT, 64, ANY)                                                                    \
    X(SUB_INT64, SUBTRACT_INT, 64, ANY)                                                            \
    X(AND64, BITWISE_AND, 64, ANY)                                                                 \
    X(OR64, BITWISE_OR, 64, ANY)                                                                   \
    X(XOR64, BITWISE_XOR, 64, ANY)

/* The signedness a form is instantiated with (ANY: either gives the same). */
#define SEQ_SG_S   1
#define SEQ_SG_U   0
#define SEQ_SG_ANY 0

/*
 * The specialised COMPARE_BRANCH forms: X(KIND, COND, DTYPE) instantiates
 * seq_br_taken(SEQ_BR_<COND>, SEQ_DT_<DTYPE>) for records with an
 * immediate target (absolute or relative), no link and no events, whose
 * dtype is DTYPE (ALWAYS: any dtype, it compares nothing).
 */
#define SEQ_BR_FORMS(X)                                                                            \
    X(ALWAYS, ALWAYS, U32)                                                                         \
    X(LT_S, LT, I32)                                                                               \
    X(LE_S, LE, I32)                                                                               \
    X(GE_S, GE, I32)                                                                               \
    X(GT_S, GT, I32)                                                                               \
    X(LT_U, LT, U32)                                                                               \
    X(LE_U, LE, U32)                                                                               \
    X(GE_U, GE, U32)                                                                               \
    X(GT_U, GT, U32)                                                                               \
    X(EQ_S, EQ, I32)                                                                               \
    X(EQ_U, EQ, U32)                                                                               \
    X(NE_S, NE, I32)                                                                               \
    X(NE_U, NE, U32)

/* What the run loop's fast path does with a decoded entry: SEQ_K_EXIT
 * leaves the run of pure records (not pure, not valid, or the end-of-page
 * sentinel), SEQ_K_CALL calls d->fn, the others are the forms above,
 * executed inline from the pre-resolved operands of SeqDecoded. */
typedef enum SeqKind {
    SEQ_K_EXIT = 0,
    SEQ_K_CALL,
#define SEQ_K_ALU_(K, OP, W, SG) SEQ_K_##K##_RR, SEQ_K_##K##_RI,
    SEQ_ALU_FORMS(SEQ_K_ALU_)
#undef SEQ_K_ALU_
#define SEQ_K_BR_(K, COND, DT) SEQ_K_BR_##K,
        SEQ_BR_FORMS(SEQ_K_BR_)
#undef SEQ_K_BR_
            SEQ_K_COUNT
} SeqKind;

#endif
