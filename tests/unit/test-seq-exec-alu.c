/*
 * Sequencer execution, the ALU, MOVE and branches (sequencer.md §6-§7, §8).  Records are built byte
 * by byte from the spec tables (not with the assembler), run on a real board through the scheduler,
 * and the architectural state is checked against values worked out from the spec by hand.
 */
#include <string.h>

#include <glib.h>

#include "hw/nc2/board.h"
#include "nxemu/machine.h"
#include "nxemu/sched.h"
#include "target/seq/cpu.h"

#include "seq-testlib.h"

/* ---- ALU ---------------------------------------------------------------- */

static uint64_t alu(uint8_t op, uint8_t dt, uint64_t a, uint64_t b)
{
    uint64_t r = 0xDEAD;
    g_assert_true(seq_alu_compute(op, dt, a, b, &r));
    return r;
}

static void test_alu_values(void)
{
    const uint8_t I32 = 0x8, U32 = 0x9, F32 = 0xA, I64 = 0xC, U64 = 0x1;
    /* §8.7 ABSOLUTE_DIFF example */
    g_assert_cmphex(alu(0x17, I32, 0x7FFFFFFF, 0x80000000), ==, 0xFFFFFFFF);
    g_assert_cmphex(alu(0x17, U32, 3, 10), ==, 7);
    /* wraparound */
    g_assert_cmphex(alu(0x04, U32, 0xFFFFFFFF, 2), ==, 1);
    g_assert_cmphex(alu(0x05, I32, 0, 1), ==, 0xFFFFFFFF);
    g_assert_cmphex(alu(0x06, U32, 0x10000, 0x10000), ==, 0);
    g_assert_cmphex(alu(0xC5, U32, 0x10001, 0x10001), ==, 0x20001);
    /* division and modulo by zero, INT_MIN / -1 (RISC-V rules) */
    g_assert_cmphex(alu(0x07, U32, 7, 0), ==, 0xFFFFFFFF);
    g_assert_cmphex(alu(0x07, I64, 7, 0), ==, ~0ull);
    g_assert_cmphex(alu(0x07, I32, 0x80000000, 0xFFFFFFFF), ==, 0x80000000);
    g_assert_cmphex(alu(0x07, I32, (uint32_t)-7, 2), ==, (uint32_t)-3);
    g_assert_cmphex(alu(0x1B, I32, (uint32_t)-7, 2), ==, (uint32_t)-1);
    g_assert_cmphex(alu(0x1B, U32, 7, 0), ==, 7);
    g_assert_cmphex(alu(0x1B, I32, 0x80000000, 0xFFFFFFFF), ==, 0);
    /* shifts mod W; ASHR replicates the sign for every dtype */
    g_assert_cmphex(alu(0x10, U32, 1, 33), ==, 2);
    g_assert_cmphex(alu(0x11, U32, 0x80000000, 36), ==, 0x08000000);
    g_assert_cmphex(alu(0x03, U32, 0x80000000, 4), ==, 0xF8000000);
    g_assert_cmphex(alu(0x03, U64, 0x8000000000000000ull, 64 + 60), ==, 0xFFFFFFFFFFFFFFF8ull);
    g_assert_cmphex(alu(0x02, I64, 1, 65), ==, 2);
    /* signed vs unsigned compare / max */
    g_assert_cmphex(alu(0x08, I32, 0x7FFFFFFF, 0x80000000), ==, 0x7FFFFFFF);
    g_assert_cmphex(alu(0x08, U32, 0x7FFFFFFF, 0x80000000), ==, 0x80000000);
    g_assert_cmphex(alu(0x09, I64, 1, ~0ull), ==, ~0ull);
    g_assert_cmphex(alu(0x16, I32, 0xFFFFFFFF, 0), ==, 1);
    g_assert_cmphex(alu(0x16, U32, 0xFFFFFFFF, 0), ==, 0);
    g_assert_cmphex(alu(0x14, U32, 5, 5), ==, 1);
    /* logical ops */
    g_assert_cmphex(alu(0x0D, U32, 2, 4), ==, 1);
    g_assert_cmphex(alu(0x0F, U32, 2, 4), ==, 0);
    g_assert_cmphex(alu(0x0E, U32, 0, 0), ==, 0);
    g_assert_cmphex(alu(0x01, U32, 0x0F0F0F0F, 0), ==, 0xF0F0F0F0);
    /* ABS: INT_MIN stays INT_MIN; unsigned is identity */
    g_assert_cmphex(alu(0x19, I32, 0x80000000, 0), ==, 0x80000000);
    g_assert_cmphex(alu(0x19, I32, (uint32_t)-5, 0), ==, 5);
    g_assert_cmphex(alu(0x19, U32, (uint32_t)-5, 0), ==, (uint32_t)-5);
    /* 64-bit */
    g_assert_cmphex(alu(0x04, U64, 0x1FFFFFFFFull, 1), ==, 0x200000000ull);
    /* FP32 (machine.md §12.13) */
    g_assert_cmphex(alu(0x04, F32, 0x3F800000, 0x40000000), ==, 0x40400000);
    g_assert_cmphex(alu(0x06, F32, 0x00000000, 0x7F800000), ==, 0x7FC00000); /* 0*inf */
    g_assert_cmphex(alu(0x04, F32, 0x7F800001, 0x3F800000), ==, 0x7FC00000); /* sNaN in */
    g_assert_cmphex(alu(0x08, F32, 0x7FC00001, 0x3F800000), ==, 0x3F800000);
    g_assert_cmphex(alu(0x09, F32, 0x3F800000, 0xFFC00000), ==, 0x3F800000);
    g_assert_cmphex(alu(0x08, F32, 0x7FC00001, 0x7FC00002), ==, 0x7FC00000);
    g_assert_cmphex(alu(0x08, F32, 0x80000000, 0x00000000), ==, 0x00000000);
    g_assert_cmphex(alu(0x08, F32, 0x00000000, 0x80000000), ==, 0x00000000);
    g_assert_cmphex(alu(0x09, F32, 0x00000000, 0x80000000), ==, 0x80000000);
    g_assert_cmphex(alu(0x19, F32, 0xFFC00001, 0), ==, 0x7FC00001);
    g_assert_cmphex(alu(0x00, F32, 0xFFC00001, 0), ==, 0xFFC00001);
    g_assert_cmphex(alu(0x12, F32, 0x7FC00000, 0x7FC00000), ==, 0);
    g_assert_cmphex(alu(0x18, F32, 0x7FC00000, 0x7FC00000), ==, 0x3F800000);
    g_assert_cmphex(alu(0x15, F32, 0x3F800000, 0x3F800000), ==, 0x3F800000);
    g_assert_cmphex(alu(0x17, F32, 0x3F800000, 0x40400000), ==, 0x40000000);
    /* subnormals are kept: min subnormal + min subnormal = 2 * min */
    g_assert_cmphex(alu(0x04, F32, 0x00000001, 0x00000001), ==, 0x00000002);
    /* unsupported: POW */
    uint64_t r;
    g_assert_false(seq_alu_compute(0x1A, I32, 1, 1, &r));
}

/* The ALU through the core: register sources, immediates, pairs, dst_dtype. */
static void test_alu_exec(void)
{
    uint8_t p[8][64];
    int st;
    r_movi(p[0], 1, 0x7FFFFFFF);
    r_movi(p[1], 2, 0x80000000);
    r_alu(p[2], 0x17, 0x8, 3, 1, 2, false, 0); /* absdiff.i32 r3, r1, r2 */
    r_alu(p[3], 0x04, 0x9, 4, 1, 0, true, 16); /* add.u32 r4, r1, 16 */
    p[3][15] = 0x9;                            /* dst_dtype = dtype is accepted */
    r_movi(p[4], 10, 0xFFFFFFFF);
    r_movi(p[5], 11, 0x1);
    /* add.u64 r21:r20, r11:r10, 1 */
    r_alu64(p[6], 0x04, 0x1, 20, 21, 10, 11, true, 1, 0, 0);
    r_halt(p[7]);
    Machine *m = run_single(p, 8, &st);
    g_assert_cmpint(st, ==, 0);
    NxBlock *nx = &m->board->nx[0];
    g_assert_cmphex(nx->regs.r[3], ==, 0xFFFFFFFF);
    g_assert_cmphex(nx->regs.r[4], ==, 0x8000000F);
    g_assert_cmphex(nx->regs.r[20], ==, 0);
    g_assert_cmphex(nx->regs.r[21], ==, 2);
    g_assert_cmpuint(m->seq[0]->state, ==, CPU_HALTED);
    g_assert_cmpuint(m->seq[0]->retired, ==, 8);
    /* HALT leaves PC at the HALT's address + 64 */
    g_assert_cmphex(nx->regs.pc, ==, CODE + 8 * 64);
    machine_free(m);
}

/* MOVE: all sources read first (swap), pclo/pchi = the MOVE's own address. */
static void test_move(void)
{
    uint8_t p[5][64];
    int st;
    r_movi(p[0], 1, 111);
    r_movi(p[1], 2, 222);
    hdr(p[2], 0xA7); /* mov.u32 {r3, r4, r5, r6}, {r2, r1, pclo, pchi} */
    p[2][12] = 4;
    p[2][13] = 0x9;
    p[2][16] = 2;
    p[2][17] = 1;
    p[2][18] = 128;
    p[2][19] = 129;
    p[2][24] = 3;
    p[2][25] = 4;
    p[2][26] = 5;
    p[2][27] = 6;
    r_movr(p[3], 7, 128);
    r_halt(p[4]);
    Machine *m = run_single(p, 5, &st);
    g_assert_cmpint(st, ==, 0);
    g_assert_cmpuint(m->board->nx[0].regs.r[3], ==, 222);
    g_assert_cmpuint(m->board->nx[0].regs.r[4], ==, 111);
    g_assert_cmphex(m->board->nx[0].regs.r[5], ==, (uint32_t)(CODE + 128));
    g_assert_cmphex(m->board->nx[0].regs.r[6], ==, 0);
    g_assert_cmphex(m->board->nx[0].regs.r[7], ==, (uint32_t)(CODE + 192));
    machine_free(m);
}

/* ---- branches ------------------------------------------------------------ */

static void test_branch_loop(void)
{
    /* r1 = 5; loop: r2 += 3; r1 -= 1; bne r1, 0, loop; halt */
    uint8_t p[5][64];
    int st;
    r_movi(p[0], 1, 5);
    r_alu(p[1], 0x04, 0x9, 2, 2, 0, true, 3);
    r_alu(p[2], 0x05, 0x9, 1, 1, 0, true, 1);
    r_bimm(p[3], 4, 0x9, 1, 0, -128); /* REL_IMM relative to the branch itself */
    r_halt(p[4]);
    Machine *m = run_single(p, 5, &st);
    g_assert_cmpint(st, ==, 0);
    g_assert_cmpuint(m->board->nx[0].regs.r[2], ==, 15);
    g_assert_cmpuint(m->seq[0]->retired, ==, 1 + 5 * 3 + 1);
    machine_free(m);
}

static void test_branch_compare_dtypes(void)
{
    /* INT8: 0xFF immediate equals r1 = 0xFFFFFFFF (-1) -> taken over a FAIL */
    uint8_t p[8][64];
    int st;
    r_movi(p[0], 1, 0xFFFFFFFF);
    r_bimm(p[1], 3, 0x2, 1, 0xFF, 128); /* beq.i8 r1, 0xff, +128 */
    r_write(p[2], TESTDEV, 0x00013333);
    /* UINT8: 0x1FF reduces to 0xFF; r1 (0xFF) < 0x1FF? no: equal -> not LT */
    r_bimm(p[3], 1, 0x3, 1, 0x1FF, 128);
    r_bimm(p[4], 0, 0, 0, 0, 128); /* b +128 */
    r_write(p[5], TESTDEV, 0x00023333);
    r_write(p[6], TESTDEV, 0x5555);
    r_halt(p[7]);
    Machine *m = run_single(p, 8, &st);
    g_assert_cmpint(st, ==, 0);
    machine_free(m);

    /* FP32 NaN: every relation false except NE */
    uint8_t q[6][64];
    r_movi(q[0], 1, 0x7FC00000);
    r_bimm(q[1], 3, 0xA, 1, 0x7FC00000, 128); /* beq: not taken */
    r_bimm(q[2], 4, 0xA, 1, 0x7FC00000, 128); /* bne: taken */
    r_write(q[3], TESTDEV, 0x00033333);
    r_write(q[4], TESTDEV, 0x5555);
    r_halt(q[5]);
    m = run_single(q, 6, &st);
    g_assert_cmpint(st, ==, 0); /* beq falls through, bne jumps over the FAIL */
    machine_free(m);
}

static void test_branch_link_and_misaligned(void)
{
    /* call (ABS_IMM, link) then misaligned not-taken, then a taken misaligned */
    uint8_t p[6][64];
    int st;
    hdr(p[0], 0xA9); /* call abs CODE+192 */
    p[0][14] = 0;
    p[0][15] = 1;
    le(p[0] + 48, CODE + 192, 8);
    r_halt(p[1]);
    r_halt(p[2]);
    /* CODE+192: beq.u32 r0, 1, .+0x20 would be rejected statically
     * (br_rel_imm_range), so use REL_REGISTER with r9 = 0x20. */
    r_movi(p[3], 9, 0x20);
    hdr(p[4], 0xA9); /* beq.u32 r0, 0 -> taken, target PC + R9 misaligned */
    p[4][12] = 3;
    p[4][13] = 0x9;
    p[4][14] = 4;
    p[4][32] = 0;
    p[4][34] = 9;
    r_halt(p[5]);
    Machine *m = run_single(p, 6, &st);
    g_assert_cmpint(st, ==, 128 + 7); /* SIGBUS */
    NxCpu *cpu = m->seq[0];
    g_assert_cmpuint(cpu->fault.code, ==, NX_FAULT_MISALIGNED);
    g_assert_cmphex(cpu->fault.addr, ==, CODE + 256 + 0x20);
    g_assert_cmphex(cpu->fault_pc, ==, CODE + 256);
    g_assert_cmphex(m->board->nx[0].regs.r[62], ==, (uint32_t)(CODE + 64));
    g_assert_cmphex(m->board->nx[0].regs.r[63], ==, 0);
    machine_free(m);

    /* not taken: no fault */
    uint8_t q[3][64];
    r_movi(q[0], 9, 0x20);
    hdr(q[1], 0xA9); /* bne.u32 r0, 0 -> not taken */
    q[1][12] = 4;
    q[1][13] = 0x9;
    q[1][14] = 4;
    q[1][34] = 9;
    r_halt(q[2]);
    m = run_single(q, 3, &st);
    g_assert_cmpint(st, ==, 0);
    machine_free(m);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/seq-exec/alu/values", test_alu_values);
    g_test_add_func("/seq-exec/alu/exec", test_alu_exec);
    g_test_add_func("/seq-exec/move", test_move);
    g_test_add_func("/seq-exec/branch/loop", test_branch_loop);
    g_test_add_func("/seq-exec/branch/dtypes", test_branch_compare_dtypes);
    g_test_add_func("/seq-exec/branch/link-misaligned", test_branch_link_and_misaligned);
    return g_test_run();
}
