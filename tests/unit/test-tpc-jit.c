/*
 * The TPC block compiler's stencils (target/tpc/jit.c, jit-stencils.c):
 * on x86-64 Linux every stencil the table names is in tpc-stencils.h (the
 * generator leaves out one it cannot copy, with a warning only, so this is
 * where a missing one fails), and the (opcode, type, switches) -> stencil
 * table agrees with the interpreter's whole-register loops: a VPU form the
 * direct path runs by a lane loop (tpc_vl_arith_fn) has a stencil for each
 * kind of operand B, and no other form has one.  The compiled code itself
 * is compared with the interpreter by test-tpc-fast-diff
 * (/tpc-fast-diff/jit-bodies and the MODE_JIT runs).
 */
#include <glib.h>

#include "target/tpc/cpu.h"
#include "target/tpc/insn.h"
#include "target/tpc/jit.h"
#include "target/tpc/vlane.h"

static void test_stencils(void)
{
#if defined(__x86_64__) && defined(__linux__)
    for (int id = 0; id < TPC_ST_COUNT; id++)
        if (!tpc_jit_has_stencil((TpcStencilId)id))
            g_error("stencil %d missing from tpc-stencils.h", id);
    if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma"))
        g_assert_false(tpc_jit_available());
    else
        g_assert_true(tpc_jit_available());
#else
    g_assert_false(tpc_jit_available());
#endif
}

static void test_table(void)
{
    static const unsigned bk[] = {TPC_OP_V, TPC_OP_S, TPC_OP_IMM};
    unsigned n = 0;
    for (unsigned op = 0; op < 64; op++)
        for (unsigned t = 0; t < TPC_T_COUNT; t++)
            for (unsigned sw = 0; sw < 8; sw++) {
                bool loop = tpc_vl_arith_fn(op, t, sw) != NULL;
                for (unsigned k = 0; k < G_N_ELEMENTS(bk); k++) {
                    int id = tpc_jit_vpu_stencil(op, t, sw, bk[k]);
                    if (loop != (id >= 0))
                        g_error("op %u type %u switches %u B kind %u: lane loop %d, stencil %d", op,
                                t, sw, bk[k], loop, id);
                    if (id >= 0 && (id >= TPC_ST_PRED_SP || (unsigned)id % 3 != k))
                        g_error("op %u type %u switches %u: stencil %d is not a VPU row's", op, t,
                                sw, id);
                }
                n += loop;
            }
    /* f32 MAC/MUL/ADD/SUB/MAX/MIN, the bf16 and integer rows, logic */
    g_assert_cmpuint(n, >, 100);
    g_assert_cmpint(tpc_jit_vpu_stencil(TPC_OPC_SPU_mac, TPC_T_F32, 0, TPC_OP_S), ==,
                    TPC_ST_f32_mac_F32_S);
    g_assert_cmpint(tpc_jit_vpu_stencil(TPC_OPC_SPU_mac, TPC_T_F32, 2, TPC_OP_V), ==,
                    TPC_ST_f32_macn_F32_V);
    /* integer ADD (carries) and LFSR operands have none */
    g_assert_cmpint(tpc_jit_vpu_stencil(TPC_OPC_SPU_add, TPC_T_I32, 0, TPC_OP_V), <, 0);
    g_assert_cmpint(tpc_jit_vpu_stencil(TPC_OPC_SPU_add, TPC_T_F32, 0, TPC_OP_VSPECIAL), <, 0);
}

/* The SPU's table (jit.c tpc_jit_spu_stencil): a stencil only for a form
 * the interpreter computes by a lane-ops.def row, an integer ADD or a
 * compare, the immediate's right after the S register's; none for a row
 * whose lane is an exec-alu.c helper (ASH, bf16 MAC without acc_fp32) or a
 * bf16 acc_fp32 form whose row does not give an f32. */
static void test_spu_table(void)
{
    unsigned n = 0;
    for (unsigned op = 0; op < 64; op++)
        for (unsigned t = 0; t < TPC_T_COUNT; t++)
            for (unsigned sw = 0; sw < 8; sw++) {
                int id = tpc_jit_spu_stencil(op, t, sw, TPC_OP_S);
                g_assert_cmpint(tpc_jit_spu_stencil(op, t, sw, TPC_OP_IMM), ==,
                                id < 0 ? -1 : id + 1);
                g_assert_cmpint(tpc_jit_spu_stencil(op, t, sw, TPC_OP_NONE), ==,
                                id < 0 ? -1 : id + 1);
                if (id < 0)
                    continue;
                bool cmp = op >= TPC_OPC_SPU_cmp_eq && op <= TPC_OPC_SPU_cmp_geq;
                bool iadd = op == TPC_OPC_SPU_add && t != TPC_T_F32 && t != TPC_T_BF16;
                if (!cmp && !iadd && !tpc_alu_fn(TPC_SLOT_SPU, op, t, sw))
                    g_error("op %u type %u switches %u: a stencil and no lane-ops.def row", op, t,
                            sw);
                if (id < TPC_ST_SPU_or_F32_S || id + 1 >= TPC_ST_MOV_V)
                    g_error("op %u type %u switches %u: stencil %d is not an SPU one", op, t, sw,
                            id);
                n++;
            }
    /* the rows' (op, type, switches) on the SPU: most of 20 ops x 8 types */
    g_assert_cmpuint(n, >, 600);
    static const struct {
        unsigned op, t, sw;
        int id;
    } cases[] = {
        {TPC_OPC_SPU_mul, TPC_T_I32, 0, TPC_ST_SPU_mul_I32_S},
        {TPC_OPC_SPU_mul, TPC_T_I32, 4, TPC_ST_SPU_mul_hi_I32_S},
        {TPC_OPC_SPU_add, TPC_T_I32, 3, TPC_ST_SPU_iadd_I32_S},
        {TPC_OPC_SPU_add, TPC_T_F32, 0, TPC_ST_SPU_f32_add_F32_S},
        {TPC_OPC_SPU_mac, TPC_T_BF16, 4, TPC_ST_SPU_bf16_mac_acc_BF16_S},
        {TPC_OPC_SPU_mac, TPC_T_BF16, 6, TPC_ST_SPU_bf16_macn_acc_BF16_S},
        {TPC_OPC_SPU_cmp_less, TPC_T_U8, 0, TPC_ST_SPU_cmp_less_U8_S},
        {TPC_OPC_SPU_cmp_eq, TPC_T_F32, 1, TPC_ST_SPU_cmp_eq_F32_S},
        {TPC_OPC_SPU_ash, TPC_T_I32, 0, -1},
        {TPC_OPC_SPU_mac, TPC_T_BF16, 0, -1},
        {TPC_OPC_SPU_max, TPC_T_BF16, 4, -1},
        {TPC_OPC_SPU_set_indx, TPC_T_I32, 0, -1},
    };
    for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++)
        g_assert_cmpint(tpc_jit_spu_stencil(cases[i].op, cases[i].t, cases[i].sw, TPC_OP_S), ==,
                        cases[i].id);
}

/* NXEMU_TPC_JIT (docs/architecture.rst) */
static void test_env(void)
{
    /* only the host can excuse it: test_stencils fails when the stencils
     * are missing on a host that has them */
#if defined(__x86_64__) && defined(__linux__)
    bool host = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
    bool host = false;
#endif
    if (!host) {
        g_test_skip("the host is not x86-64 Linux with AVX2 and FMA");
        return;
    }
    static const struct {
        const char *v;
        unsigned want;
    } cases[] = {{NULL, 1}, {"", 1}, {"off", 0}, {"on", 1}, {"all", 2}, {"1", 1}, {"OFF", 1}};
    for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
        if (cases[i].v)
            g_setenv("NXEMU_TPC_JIT", cases[i].v, TRUE);
        else
            g_unsetenv("NXEMU_TPC_JIT");
        g_assert_cmpuint(tpc_jit_enabled(), ==, cases[i].want);
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/tpc-jit/stencils", test_stencils);
    g_test_add_func("/tpc-jit/table", test_table);
    g_test_add_func("/tpc-jit/spu-table", test_spu_table);
    g_test_add_func("/tpc-jit/env", test_env);
    return g_test_run();
}
