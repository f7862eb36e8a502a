/*
 * Stencils of the sequencer's block compiler (jit.c), copy-and-patch style
 * (Xu and Kjolstad, "Copy-and-Patch Compilation", OOPSLA 2021; CPython 3.13's
 * JIT is built the same way).  This file is not part of the emulator: the
 * build compiles it on its own (target/seq/meson.build: x86-64, no PIC, small
 * code model, one section per function) and scripts/seq-stencils.py turns
 * the object's machine code and relocations into target/seq/seq-stencils.h,
 * which jit.c copies and patches at run time.
 *
 * Each stencil is an instantiation of the semantics every other executor
 * uses (alu-ops.h: seq_alu_int32/64, seq_br_taken), with the operands that
 * are constants of a record -- register byte offsets, the immediate, a block
 * length, a PC -- left as holes: the addresses of undefined symbols, which
 * the compiler emits as relocations and jit.c fills in.  The continuation is
 * a tail call to another hole (seq_hole_next, seq_hole_taken), compiled to a
 * jump that jit.c points at the next stencil or strips when that one follows.
 *
 * The holes are weak so that the compiler may not assume them nonzero (a
 * hole holding 0 is an ordinary register offset or immediate).
 */
#include <stdint.h>

#include "target/seq/alu-ops.h"
#include "target/seq/jit-abi.h"

#define HOLE(name) extern const char seq_hole_##name[] __attribute__((weak))
HOLE(ra);
HOLE(ra_hi);
HOLE(rb);
HOLE(rb_hi);
HOLE(rd);
HOLE(rd_hi);
HOLE(imm_lo);
HOLE(imm_hi);
HOLE(n);
HOLE(pc_lo);
HOLE(pc_hi);
#undef HOLE
uint64_t seq_hole_next(uint32_t *R, SeqJitCtx *c, uint64_t rem);
uint64_t seq_hole_taken(uint32_t *R, SeqJitCtx *c, uint64_t rem);

#define V(h)   ((uintptr_t)seq_hole_##h)
#define REG(h) (*(uint32_t *)((char *)R + V(h)))
#define IMM64  ((uint64_t)(uint32_t)V(imm_hi) << 32 | (uint32_t)V(imm_lo))
#define PC64   ((uint64_t)(uint32_t)V(pc_hi) << 32 | (uint32_t)V(pc_lo))

#define STENCIL(name) uint64_t seq_st_##name(uint32_t *R, SeqJitCtx *c, uint64_t rem)

/* Every stencil has a prototype (-Wmissing-prototypes). */
#define PROTO_ALU(K, OP, W, SG) STENCIL(K##_RR); STENCIL(K##_RI);
#define PROTO_BR(K, COND, DT)   STENCIL(BR_##K##_R); STENCIL(BR_##K##_I);
SEQ_ALU_FORMS(PROTO_ALU)
SEQ_BR_FORMS(PROTO_BR)
STENCIL(HEAD);
STENCIL(EXIT);
#undef PROTO_ALU
#undef PROTO_BR

/* A block's head: the block's n records retire only if the slice has room
 * for all of them; otherwise the run leaves at the head's PC, and the
 * interpreter takes the records one by one up to the slice end. */
STENCIL(HEAD)
{
    if (rem < (uint32_t)V(n)) {
        c->pc = PC64;
        return rem;
    }
    return seq_hole_next(R, c, rem - (uint32_t)V(n));
}

/* Leave the compiled code: the interpreter goes on at pc. */
STENCIL(EXIT)
{
    c->pc = PC64;
    return rem;
}

/* One ALU form (alu-ops.h), as seq_alu_form computes it from a decoded
 * record: register pairs for W = 64, the low half written first. */
#define ST_ALU(K, OP, W, SG, IMM, SUFFIX)                                                          \
    STENCIL(K##_##SUFFIX)                                                                          \
    {                                                                                              \
        if (W == 64) {                                                                             \
            uint64_t a = (uint64_t)REG(ra_hi) << 32 | REG(ra), r = 0;                              \
            uint64_t b = IMM ? IMM64 : (uint64_t)REG(rb_hi) << 32 | REG(rb);                       \
            (void)seq_alu_int64(SEQ_ALU_##OP, SEQ_SG_##SG, a, b, &r);                              \
            REG(rd) = (uint32_t)r;                                                                 \
            REG(rd_hi) = (uint32_t)(r >> 32);                                                      \
        } else {                                                                                   \
            uint32_t r = 0;                                                                        \
            (void)seq_alu_int32(SEQ_ALU_##OP, SEQ_SG_##SG, REG(ra),                                \
                                IMM ? (uint32_t)V(imm_lo) : REG(rb), &r);                          \
            REG(rd) = r;                                                                           \
        }                                                                                          \
        return seq_hole_next(R, c, rem);                                                           \
    }
#define ST_ALU2(K, OP, W, SG) ST_ALU(K, OP, W, SG, 0, RR) ST_ALU(K, OP, W, SG, 1, RI)
SEQ_ALU_FORMS(ST_ALU2)

/* One COMPARE_BRANCH form (seq_br_form_taken), register or immediate
 * right-hand side; the target is a link jit.c resolves. */
#define ST_BR(K, COND, DT, IMM, SUFFIX)                                                            \
    STENCIL(BR_##K##_##SUFFIX)                                                                     \
    {                                                                                              \
        if (seq_br_taken(SEQ_BR_##COND, SEQ_DT_##DT, REG(ra), IMM ? (uint32_t)V(imm_lo) : REG(rb))) \
            return seq_hole_taken(R, c, rem);                                                      \
        return seq_hole_next(R, c, rem);                                                           \
    }
#define ST_BR2(K, COND, DT) ST_BR(K, COND, DT, 0, R) ST_BR(K, COND, DT, 1, I)
SEQ_BR_FORMS(ST_BR2)
