/*
 * The sequencer's block compiler (jit.c): runs of pure records (the run
 * loop's inline forms: ALU forms and immediate-target branches) of one
 * decode page become host code, copied from stencils compiled from the same
 * semantics (jit-stencils.c) and patched with the records' operands.
 *
 * A block starts at a record the run loop enters at (after a jump, or after a
 * record that is not pure) and goes on to the first branch (included) or the
 * first record without a stencil (excluded).  Its head retires all of its
 * records at once if the slice has room for them, else leaves.  Branches to
 * records of the same page jump to those records' blocks, compiled with it;
 * anything else leaves the code with the PC to go on at.  So a loop within a
 * page runs with no return to the interpreter until the slice ends.
 *
 * Only the registers change while compiled code runs; the run loop brings
 * the PC and counters up to date when it returns, as after any run of pure
 * records.  Compiled code is a cache of the decode page: dropping the page's
 * records drops its blocks (seq_jit_page_reset).
 */
#ifndef TARGET_SEQ_JIT_H
#define TARGET_SEQ_JIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "nxemu/stencil.h"
#include "target/seq/alu-ops.h"
#include "target/seq/jit-abi.h"

/* The stencils, named as in jit-stencils.c. */
typedef enum SeqStencilId {
#define SEQ_ST_ALU_(K, OP, W, SG) SEQ_ST_##K##_RR, SEQ_ST_##K##_RI,
    SEQ_ALU_FORMS(SEQ_ST_ALU_)
#undef SEQ_ST_ALU_
#define SEQ_ST_BR_(K, COND, DT) SEQ_ST_BR_##K##_R, SEQ_ST_BR_##K##_I,
        SEQ_BR_FORMS(SEQ_ST_BR_)
#undef SEQ_ST_BR_
            SEQ_ST_HEAD,
    SEQ_ST_EXIT,
    SEQ_ST_COUNT
} SeqStencilId;

/* The holes of a stencil (jit-stencils.c's seq_hole_*). */
typedef enum SeqHole {
    SEQ_HOLE_RA,
    SEQ_HOLE_RA_HI,
    SEQ_HOLE_RB,
    SEQ_HOLE_RB_HI,
    SEQ_HOLE_RD,
    SEQ_HOLE_RD_HI,
    SEQ_HOLE_IMM_LO,
    SEQ_HOLE_IMM_HI,
    SEQ_HOLE_N,
    SEQ_HOLE_PC_LO,
    SEQ_HOLE_PC_HI,
    SEQ_HOLE_NEXT,  /* continuation: the next stencil */
    SEQ_HOLE_TAKEN, /* a taken branch's block, or an exit */
    SEQ_HOLE_COUNT
} SeqHole;

typedef struct SeqStencil {
    const uint8_t *code; /* NULL: no such stencil on this host */
    uint16_t len;
    const NxStReloc *rel;
    uint8_t nrel;
    uint8_t strip; /* bytes of a trailing jump to NEXT, dropped when it follows */
} SeqStencil;

/* Per decode page: its blocks, valid while epoch matches the arena's. */
typedef struct SeqJitPage {
    uint32_t epoch;
    uint64_t none;              /* bit i: no block can start at slot i */
    uint8_t heat[64];           /* entries at slot i before it is compiled */
    const uint8_t *entry[64];   /* the block starting at slot i, or NULL */
} SeqJitPage;

/* Per core: the code arena (mapped on the first compile). */
typedef struct SeqJit {
    uint8_t *buf;
    size_t cap; /* arena bytes; 0 before the first compile: 2 MiB (tests set less) */
    size_t used;
    uint32_t epoch;     /* bumped when the arena is emptied */
    uint8_t threshold;  /* entries before a slot is compiled; 0: compiler off */
    uint64_t blocks, flushes; /* blocks compiled, arenas emptied (for tests) */
    uint64_t insns;           /* records retired in compiled code (-d stats) */
} SeqJit;

typedef struct SeqDPage SeqDPage;

/* Does this host have stencils (x86-64 Linux builds)? */
bool seq_jit_available(void);
/* Is stencil `id` available (tests)? */
bool seq_jit_has_stencil(SeqStencilId id);
/* NXEMU_SEQ_JIT (docs/user-manual.rst): "off" or 0 turns the compiler off,
 * a number N compiles a slot at its Nth entry; default 4.  0 when the host
 * has no stencils. */
uint8_t seq_jit_default_threshold(void);
void seq_jit_init(SeqJit *j);
void seq_jit_destroy(SeqJit *j);
/* Forget the page's blocks (its records were dropped or the arena emptied). */
void seq_jit_page_reset(SeqJitPage *jp, uint32_t epoch);
/* The block starting at `slot` of p, compiled with every block of p it
 * branches to; NULL if none can start there. */
const uint8_t *seq_jit_compile(SeqJit *j, SeqDPage *p, unsigned slot);

/* Run compiled code from entry: returns the slice's remaining count, and
 * c->pc where the interpreter goes on. */
static inline uint64_t seq_jit_run(const uint8_t *entry, uint32_t *R, SeqJitCtx *c, uint64_t rem)
{
    SeqJitFn fn;
    /* An object pointer to a function pointer: memcpy, as ISO C has no cast. */
    memcpy(&fn, &entry, sizeof fn);
    return fn(R, c, rem);
}

#endif
