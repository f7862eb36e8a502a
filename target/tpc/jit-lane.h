/*
 * lane-ops.def rows whose lane is one of exec-alu.c's element-only helpers
 * (calls and doubles: nothing a stencil can carry) have no SPU stencil.
 * Included where a row's lane is only looked at, never run by the emulator
 * (jit.c's table, which tests sizeof) or run from a stencil
 * (jit-stencils.c): with these, such a lane is a char, a lane.h
 * function's is a uint32_t.
 */
#ifndef TARGET_TPC_JIT_LANE_H
#define TARGET_TPC_JIT_LANE_H

#define alu_bf16_mac(...) ((char)0)
#define alu_fash(...)     ((char)0)
#define alu_ash(...)      ((char)0)
/* Whether lane EXPR (x, y, z, T in scope) is a lane.h function's */
#define TPC_JIT_LANE_OK(expr) (sizeof((expr)) == sizeof(uint32_t))

#endif
