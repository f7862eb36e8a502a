/*
 * What the sequencer's compiled blocks (jit.c) and their stencils
 * (jit-stencils.c) agree on: compiled code is entered as a SeqJitFn with the
 * core's 64 registers, a context and the slice's remaining instruction count,
 * and returns the count left when it leaves, with the PC to go on at in
 * ctx->pc.  Every record it ran was pure (registers and PC only).
 */
#ifndef TARGET_SEQ_JIT_ABI_H
#define TARGET_SEQ_JIT_ABI_H

#include <stdint.h>

typedef struct SeqJitCtx {
    uint64_t pc; /* out: where the interpreter goes on */
} SeqJitCtx;

typedef uint64_t (*SeqJitFn)(uint32_t *R, SeqJitCtx *c, uint64_t rem);

#endif
