/*
 * The TPC's block compiler (jit.c): innermost LOOP bodies whose bundles all
 * have direct plans (cpu-direct.c), compiled by copying stencils
 * (jit-stencils.c, generated from lane-ops.def) into an arena and patching
 * their holes.  A VPU step whose (opcode, type, switches) row has a loop
 * stencil runs inline; any other step calls its direct executor, and a
 * bundle with tensor accesses calls tpc_direct_run (the same access
 * functions every tier uses), leaving the body before it when its checks
 * fail.  Off unless NXEMU_TPC_JIT=on (docs/architecture.rst).
 */
#ifndef TARGET_TPC_JIT_H
#define TARGET_TPC_JIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nxemu/stencil.h"
#include "target/tpc/jit-abi.h"

/* The stencils, named as in jit-stencils.c: per lane-ops.def row with a
 * loop tier, operand B a V register, an S register or an immediate; per
 * row (and jit-spu.def's) an SPU one, operand B an S register or an
 * immediate. */
#define TPC_ST_SPU_ROW(name, type) TPC_ST_SPU_##name##_##type##_S, TPC_ST_SPU_##name##_##type##_I,
typedef enum TpcStencilId {
#define TPC_ST_L_(name, type)                                                                      \
    TPC_ST_##name##_##type##_V, TPC_ST_##name##_##type##_S, TPC_ST_##name##_##type##_I,            \
        TPC_ST_##name##_##type##_VP, TPC_ST_##name##_##type##_SP, TPC_ST_##name##_##type##_IP,
#define TPC_ST_LA_(name, type) TPC_ST_L_(name, type)
#define TPC_ST_E_(name, type)
#define TPC_LANE(name, slots, opc, type, swm, swv, tier, expr) TPC_ST_##tier##_(name, type)
#include "target/tpc/lane-ops.def"
#undef TPC_ST_L_
#undef TPC_ST_LA_
#undef TPC_ST_E_
#define TPC_LANE(name, slots, opc, type, swm, swv, tier, expr) TPC_ST_SPU_ROW(name, type)
#include "target/tpc/lane-ops.def"
#define TPC_JIT_SPU(name, type) TPC_ST_SPU_ROW(name, type)
#include "target/tpc/jit-spu.def"
#undef TPC_ST_SPU_ROW
    TPC_ST_MOV_V,
    TPC_ST_MOV_S,
    TPC_ST_MOV_I,
    TPC_ST_PRED_SP,
    TPC_ST_CHK,
    TPC_ST_LOOP,
    TPC_ST_STEP,
    TPC_ST_PREP,
    TPC_ST_COMMIT,
    TPC_ST_EXIT,
    TPC_ST_HLD, /* hoisted trips (jit.c) */
    TPC_ST_HST,
    TPC_ST_HTOP,
    TPC_ST_HLOOP,
    TPC_ST_BR,
    TPC_ST_COV,
    TPC_ST_COUNT
} TpcStencilId;

/* The holes of a stencil (jit-stencils.c's tpc_hole_*). */
typedef enum TpcHole {
    TPC_HOLE_VD,
    TPC_HOLE_VA,
    TPC_HOLE_VB,
    TPC_HOLE_BUF,
    TPC_HOLE_SB,
    TPC_HOLE_IMM,
    TPC_HOLE_BC,
    TPC_HOLE_SP,
    TPC_HOLE_POL,
    TPC_HOLE_K,
    TPC_HOLE_S,     /* STEP: the step; HLD, HST: the access */
    TPC_HOLE_RUN,   /* TpcExec.jrun */
    TPC_HOLE_IT,    /* the innermost loop's iterator */
    TPC_HOLE_GEN,   /* TpcExec.code_gen */
    TPC_HOLE_MARK,  /* TpcExec.code_marked */
    TPC_HOLE_E,     /* MOV: the element size of a broadcast */
    TPC_HOLE_SD,    /* SPU: the destination (an S or SP register, an IRF one) */
    TPC_HOLE_SA,    /* SPU: source A (an S register) */
    TPC_HOLE_SW,    /* SPU: switches (ADD: saturate, carry in; SET_INDX: the dims) */
    TPC_HOLE_CY,    /* SPU: the carry (TpcState.s_carry) */
    TPC_HOLE_JMP,   /* BR: the SPU slot's TpcSlotOut.jump */
    TPC_HOLE_VP,    /* VP-masked: the VP register (TpcCpu.vp) */
    TPC_HOLE_VPM,   /* and its mask (TpcExec.jvpm) */
    TPC_HOLE_NEXT,  /* continuation: the next stencil */
    TPC_HOLE_TAKEN, /* PRED_SP false: past the guarded stencil; LOOP: the body's top;
                     * BR: the jump's target */
    TPC_HOLE_COUNT
} TpcHole;

typedef struct TpcStencil {
    const uint8_t *code; /* NULL: no such stencil on this host */
    uint16_t len;
    const NxStReloc *rel;
    uint8_t nrel;
    uint8_t strip; /* bytes of a trailing jump to NEXT, dropped when it follows */
    uint8_t align; /* 32: at a multiple of 32 bytes (constants after the code) */
} TpcStencil;

/* Whether this host runs compiled bodies (x86-64 with AVX2 and FMA and the
 * stencils built); tpc_jit_enabled: whether they run (unless
 * NXEMU_TPC_JIT=off). */
bool tpc_jit_available(void);
/* (tpc_jit_enabled and tpc_jit_free are declared in cpu.h, which the
 * core's creation and destruction use) */
/* Bytes of a core's arena when it is mapped (tests: a small one, flushed
 * and refilled). */
extern size_t tpc_jit_arena_bytes;
/* Arena flushes and VPU steps compiled inline since the start (tests). */
extern unsigned tpc_jit_flushes, tpc_jit_inlined;
bool tpc_jit_has_stencil(TpcStencilId id);
/* The VPU stencil of (opcode, type, switches) with operand B of kind
 * bkind (TPC_OP_V, _S, _IMM/_SIMM, _NONE), or -1. */
int tpc_jit_vpu_stencil(unsigned op, unsigned t, unsigned sw, unsigned bkind);
/* The SPU stencil of (opcode, type, switches) with operand A an S register,
 * operand B of kind bkind (TPC_OP_S, _IMM/_SIMM, _NONE) and an S result
 * (an SP one for the compares), or -1. */
int tpc_jit_spu_stencil(unsigned op, unsigned t, unsigned sw, unsigned bkind);

typedef struct TpcCpu TpcCpu;
/* Go round the innermost loop, whose body starts at c->pc, by its compiled
 * body, as tpc_enter_loop_plan does by plans: false (nothing ran) when the
 * body is not compiled and cannot be. */
bool tpc_jit_loop(TpcCpu *c, uint64_t *n, uint64_t max_bundles, uint64_t *nd);
/* The steps and bundles that called the direct path, by mnemonic, for
 * --stats ("" when none). */
/* Whether -coverage's counts of the bundles the last tpc_jit_loop ran
 * (body [body, end]) were taken bundle by bundle by its compiled code (a
 * body with jumps), not left to tpc_loop_cov; asked once after a run. */
bool tpc_jit_counted(TpcCpu *c, uint32_t body, uint32_t end);
void tpc_jit_stats(TpcCpu *c, char *out, size_t len);

#endif
