/*
 * The specialised integer ALU_OP forms (sequencer.md §8.7), listed once so
 * that the execute functions of exec-alu.c and the run loop's inline
 * dispatch (cpu.c) are built from the same expressions: a, b are the
 * operands, SA/SB their signed views (32-bit forms only).  Unary ops
 * ignore b.
 *
 * Each form comes in a register (_RR) and an immediate (_RI) variant; the
 * kind numbers (SeqKind) follow this order.
 */
#ifndef TARGET_SEQ_ALU_OPS_H
#define TARGET_SEQ_ALU_OPS_H

#define SEQ_ALU32_OPS(X)                                                                           \
    X(ADD, a + b)                                                                                  \
    X(SUB, a - b)                                                                                  \
    X(MUL, a *b)                                                                                   \
    X(AND, a &b)                                                                                   \
    X(OR, a | b)                                                                                   \
    X(XOR, a ^ b)                                                                                  \
    X(LSHL, a << (b & 31))                                                                         \
    X(LSHR, a >> (b & 31))                                                                         \
    X(ASHR, (uint32_t)(SA >> (b & 31)))                                                            \
    X(BYP, a)                                                                                      \
    X(NOT, ~a)                                                                                     \
    X(LAND, a != 0 && b != 0)                                                                      \
    X(LOR, a != 0 || b != 0)                                                                       \
    X(LXOR, (a != 0) != (b != 0))                                                                  \
    X(EQ, a == b)                                                                                  \
    X(NE, a != b)                                                                                  \
    X(MAX_S, SA > SB ? a : b)                                                                      \
    X(MAX_U, a > b ? a : b)                                                                        \
    X(MIN_S, SA < SB ? a : b)                                                                      \
    X(MIN_U, a < b ? a : b)                                                                        \
    X(GT_S, SA > SB)                                                                               \
    X(GT_U, a > b)                                                                                 \
    X(GE_S, SA >= SB)                                                                              \
    X(GE_U, a >= b)                                                                                \
    X(LE_S, SA <= SB)                                                                              \
    X(LE_U, a <= b)                                                                                \
    X(LT_S, SA < SB)                                                                               \
    X(LT_U, a < b)                                                                                 \
    X(ABSDIFF_S, SA > SB ? a - b : b - a)                                                          \
    X(ABSDIFF_U, a > b ? a - b : b - a)                                                            \
    X(ABS_S, SA < 0 ? 0u - a : a)

/* 64-bit forms: operands are register pairs (low register first). */
#define SEQ_ALU64_OPS(X)                                                                           \
    X(ADD64, a + b)                                                                                \
    X(SUB64, a - b)                                                                                \
    X(AND64, a &b)                                                                                 \
    X(OR64, a | b)                                                                                 \
    X(XOR64, a ^ b)

/* COMPARE_BRANCH forms with a 32-bit integer compare and an immediate
 * target, no link (x = lhs register, y = rhs register or immediate). */
#define SEQ_BR32_OPS(X)                                                                            \
    X(ALWAYS, true)                                                                                \
    X(LT_S, (int32_t)x < (int32_t)y)                                                               \
    X(LE_S, (int32_t)x <= (int32_t)y)                                                              \
    X(GE_S, (int32_t)x >= (int32_t)y)                                                              \
    X(GT_S, (int32_t)x > (int32_t)y)                                                               \
    X(LT_U, x < y)                                                                                 \
    X(LE_U, x <= y)                                                                                \
    X(GE_U, x >= y)                                                                                \
    X(GT_U, x > y)                                                                                 \
    X(EQ, x == y)                                                                                  \
    X(NE, x != y)

/* What the run loop's fast path does with a decoded entry: SEQ_K_EXIT
 * leaves the run of pure records (not pure, not valid, or the end-of-page
 * sentinel), SEQ_K_CALL calls d->fn, the others are executed inline from
 * the pre-resolved operands of SeqDecoded. */
typedef enum SeqKind {
    SEQ_K_EXIT = 0,
    SEQ_K_CALL,
#define SEQ_K_ALU_(name, expr) SEQ_K_##name##_RR, SEQ_K_##name##_RI,
    SEQ_ALU32_OPS(SEQ_K_ALU_) SEQ_ALU64_OPS(SEQ_K_ALU_)
#undef SEQ_K_ALU_
#define SEQ_K_BR_(name, expr) SEQ_K_BR_##name,
        SEQ_BR32_OPS(SEQ_K_BR_)
#undef SEQ_K_BR_
            SEQ_K_COUNT
} SeqKind;

#endif
