/*
 * Sequencer execution, mem_2d TensorLoad/TensorStore, the local window, the TLB, access observers
 * and decode-cache coherence (sequencer.md §5, §8; machine.md §2).  Records are built byte by byte
 * from the spec tables (not with the assembler), run on a real board through the scheduler, and the
 * architectural state is checked against values worked out from the spec by hand.
 */
#include <string.h>

#include <glib.h>

#include "hw/nc2/board.h"
#include "nxemu/machine.h"
#include "nxemu/sched.h"
#include "target/seq/cpu.h"

#include "seq-testlib.h"

/* ---- mem_2d ---------------------------------------------------------------- */

static void test_tld_extension(void)
{
    Machine *m = mk(1);
    Prog p = {m, CODE};
    uint8_t r[64];
    uint8_t data[16] = {0x80, 0x80, 0x00, 0x80, 0x00, 0x80, 0x11, 0x22,
                        0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x00, 0xFF};
    put(m, DATA, data, sizeof(data));
    put32(m, DATA + 0x40, 0x7FC00001); /* NaN payload kept */

    static const uint8_t a[] = {1}, b[] = {2}, c[] = {3}, d[] = {4}, e[] = {10}, f[] = {5};
    r_m2d(r, 0xAA, 0x2, 1, 1, 0, 0, a, 1); /* i8 0x80 */
    a8_imm(r + 16, DATA);
    emit(&p, r);
    r_m2d(r, 0xAA, 0x3, 1, 1, 0, 0, b, 1); /* u8 0x80 */
    a8_imm(r + 16, DATA + 1);
    emit(&p, r);
    r_m2d(r, 0xAA, 0x4, 1, 1, 0, 0, c, 1); /* i16 0x8000 */
    a8_imm(r + 16, DATA + 2);
    emit(&p, r);
    r_m2d(r, 0xAA, 0x5, 1, 1, 0, 0, d, 1); /* u16 0x8000 */
    a8_imm(r + 16, DATA + 4);
    emit(&p, r);
    r_m2d(r, 0xAA, 0x1, 1, 1, 0, 0, e, 1); /* u64 -> r10 (low), r11 (high) */
    a8_imm(r + 16, DATA + 8);
    emit(&p, r);
    r_m2d(r, 0xAA, 0xA, 1, 1, 0, 0, f, 1); /* fp32 */
    a8_imm(r + 16, DATA + 0x40);
    emit(&p, r);
    r_halt(r);
    emit(&p, r);
    start(m, 0, CODE);
    g_assert_cmpint(run(m), ==, 0);
    uint32_t *R = m->board->nx[0].regs.r;
    g_assert_cmphex(R[1], ==, 0xFFFFFF80);
    g_assert_cmphex(R[2], ==, 0x00000080);
    g_assert_cmphex(R[3], ==, 0xFFFF8000);
    g_assert_cmphex(R[4], ==, 0x00008000);
    g_assert_cmphex(R[10], ==, 0x66554433);
    g_assert_cmphex(R[11], ==, 0xFF008877);
    g_assert_cmphex(R[5], ==, 0x7FC00001);
    machine_free(m);
}

static void test_tld_negative_stride_2d(void)
{
    Machine *m = mk(1);
    Prog p = {m, CODE};
    uint8_t r[64];
    for (unsigned i = 0; i < 16; i++)
        put32(m, DATA + 4 * i, 0x100 + i);
    /* start 0x02000010, u32, n0 = 4, s0 = -1: words at 0x10, 0x0C, 0x08, 0x04 */
    static const uint8_t regs[] = {1, 2, 3, 4};
    r_m2d(r, 0xAA, 0x9, 4, 1, -1, 0, regs, 4);
    a8_imm(r + 16, DATA + 0x10);
    emit(&p, r);
    /* 2-D: n0 = 2, n1 = 3, s0 = 1, s1 = 4: i1 outer -> words 0,1,4,5,8,9 */
    static const uint8_t regs2[] = {10, 11, 12, 13, 14, 15};
    r_m2d(r, 0xAA, 0x9, 2, 3, 1, 4, regs2, 6);
    a8_imm(r + 16, DATA);
    emit(&p, r);
    r_halt(r);
    emit(&p, r);
    start(m, 0, CODE);
    g_assert_cmpint(run(m), ==, 0);
    uint32_t *R = m->board->nx[0].regs.r;
    g_assert_cmphex(R[1], ==, 0x104);
    g_assert_cmphex(R[2], ==, 0x103);
    g_assert_cmphex(R[3], ==, 0x102);
    g_assert_cmphex(R[4], ==, 0x101);
    static const uint32_t want[] = {0x100, 0x101, 0x104, 0x105, 0x108, 0x109};
    for (unsigned i = 0; i < 6; i++)
        g_assert_cmphex(R[10 + i], ==, want[i]);
    machine_free(m);
}

static void test_tld_window_and_alignment(void)
{
    uint8_t r[64], s[64];
    int st;
    static const uint8_t regs[] = {1, 2};
    /* u32 at 0x01FFFFFC, n0 = 2, s0 = 1 -> WINDOW_CROSSING, FAULT_ADDR = start */
    r_m2d(r, 0xAA, 0x9, 2, 1, 1, 0, regs, 2);
    a8_imm(r + 16, 0x01FFFFFC);
    Machine *m = run_fault(NULL, r, &st);
    g_assert_cmpint(st, ==, 128 + 11);
    g_assert_cmpuint(m->seq[0]->fault.code, ==, NX_FAULT_WINDOW_CROSSING);
    g_assert_cmphex(m->seq[0]->fault.addr, ==, 0x01FFFFFC);
    machine_free(m);
    /* 0x01FFFFF8 is accepted */
    a8_imm(r + 16, 0x01FFFFF8);
    m = run_fault(NULL, r, &st);
    g_assert_cmpint(st, ==, 0);
    machine_free(m);
    /* negative stride crossing below a window boundary */
    r_m2d(r, 0xAA, 0x9, 2, 1, -1, 0, regs, 2);
    a8_imm(r + 16, 0x02000000);
    m = run_fault(NULL, r, &st);
    g_assert_cmpuint(m->seq[0]->fault.code, ==, NX_FAULT_WINDOW_CROSSING);
    machine_free(m);
    /* misaligned register-pair start -> MISALIGNED, FAULT_ADDR = address */
    hdr(s, 0xA7); /* mov.u32 {r20, r21}, {0x02000002, 0} */
    s[12] = 2;
    s[13] = 0x9;
    s[14] = 1;
    s[24] = 20;
    s[25] = 21;
    le(s + 32, 0x02000002, 4);
    r_m2d(r, 0xAA, 0x9, 1, 1, 0, 0, regs, 1);
    a8_reg(r + 16, 20, 21);
    m = run_fault(s, r, &st);
    g_assert_cmpint(st, ==, 135);
    g_assert_cmpuint(m->seq[0]->fault.code, ==, NX_FAULT_MISALIGNED);
    g_assert_cmphex(m->seq[0]->fault.addr, ==, 0x02000002);
    g_assert_cmphex(m->seq[0]->fault_pc, ==, CODE + 64);
    machine_free(m);
    /* the same address immediate: INVALID_INSTRUCTION(valid_start_addr) */
    a8_imm(r + 16, 0x02000002);
    m = run_fault(NULL, r, &st);
    g_assert_cmpint(st, ==, 132);
    g_assert_cmpuint(m->seq[0]->fault.code, ==, NX_FAULT_INVALID_INSTRUCTION);
    g_assert_cmpuint(m->seq[0]->fault.info, ==, 10);
    GString *g = g_string_new(NULL);
    fault_line(m, g);
    g_assert_cmpstr(g->str, ==,
                    "nxemu: fault: core=0 code=INVALID_INSTRUCTION(2) info=valid_start_addr "
                    "pc=0x0000000001000000 addr=0x0000000000000000");
    g_string_free(g, TRUE);
    machine_free(m);
}

static void test_tst(void)
{
    Machine *m = mk(1);
    Prog p = {m, CODE};
    uint8_t r[64];
    r_movi(r, 1, 0x12345678);
    emit(&p, r);
    r_movi(r, 2, 0xCAFEF00D);
    emit(&p, r);
    /* u8 register store truncates: writes 0x78 */
    static const uint8_t one[] = {1};
    r_m2d(r, 0xAB, 0x3, 1, 1, 0, 0, one, 1);
    a8_imm(r + 16, DATA);
    emit(&p, r);
    /* u64 from the even/odd pair r2 (low), r3 (high) */
    static const uint8_t pair[] = {2};
    r_movi(r, 3, 0x0BADBEEF);
    emit(&p, r);
    r_m2d(r, 0xAB, 0x1, 1, 1, 0, 0, pair, 1); /* R[2] | R[3] << 32 */
    a8_imm(r + 16, DATA + 8);
    emit(&p, r);
    /* immediate store: u16 x 3, stride 2 elements: values 0x1111, 0x2222, 0x3333 */
    r_m2d(r, 0xAB, 0x5, 3, 1, 2, 0, NULL, 0);
    r[13] = 1;
    le(r + 32, 0x1111, 2);
    le(r + 34, 0x2222, 2);
    le(r + 36, 0x3333, 2);
    a8_imm(r + 16, DATA + 0x20);
    emit(&p, r);
    r_halt(r);
    emit(&p, r);
    start(m, 0, CODE);
    g_assert_cmpint(run(m), ==, 0);
    g_assert_cmphex(get(m, DATA, 4), ==, 0x00000078);
    g_assert_cmphex(get(m, DATA + 8, 8), ==, 0x0BADBEEFCAFEF00Dull);
    g_assert_cmphex(get(m, DATA + 0x20, 2), ==, 0x1111);
    g_assert_cmphex(get(m, DATA + 0x22, 2), ==, 0);
    g_assert_cmphex(get(m, DATA + 0x24, 2), ==, 0x2222);
    g_assert_cmphex(get(m, DATA + 0x28, 2), ==, 0x3333);
    machine_free(m);
}

/* A store whose last element hits an unmapped PA writes nothing. */
static void test_tst_precise(void)
{
    uint8_t r[64];
    int st;
    /* HBM is 64 MiB: 0x03FFFFFC is the last word, 0x04000000 unmapped */
    r_m2d(r, 0xAB, 0x9, 2, 1, 1, 0, NULL, 0);
    r[13] = 1;
    le(r + 32, 0x11111111, 4);
    le(r + 36, 0x22222222, 4);
    a8_imm(r + 16, 0x03FFFFFC);
    /* crosses the 16 MiB window at 0x04000000: WINDOW_CROSSING first */
    Machine *m = run_fault(NULL, r, &st);
    g_assert_cmpuint(m->seq[0]->fault.code, ==, NX_FAULT_WINDOW_CROSSING);
    machine_free(m);
    /* stride -1 from an address in window 4 whose first element is unmapped */
    hdr(r, 0xAB);
    r[12] = 0x9;
    r[13] = 1;
    r[14] = 2;
    r[15] = 1;
    le(r + 24, (uint32_t)-1, 4);
    a8_imm(r + 16, 0x04000004);
    m = run_fault(NULL, r, &st);
    g_assert_cmpuint(m->seq[0]->fault.code, ==, NX_FAULT_BUS_ERROR);
    g_assert_cmphex(m->seq[0]->fault.addr, ==, 0x04000004);
    machine_free(m);
}

/* Local window: TensorLoad of the own NX block (CORE_ID, PC reads itself). */
static void test_local_window(void)
{
    uint8_t p[3][64];
    int st;
    static const uint8_t regs[] = {1, 2, 3};
    /* words at 0x100100 (PC lo), 0x100104 (PC hi): the reading instruction */
    r_m2d(p[0], 0xAA, 0x9, 2, 1, 1, 0, regs, 2);
    a8_imm(p[0] + 16, NX_LOCAL + 0x100);
    r_m2d(p[1], 0xAA, 0x3, 1, 1, 0, 0, regs, 1); /* u8 in window 0: BUS_ERROR */
    a8_imm(p[1] + 16, NX_LOCAL);
    r_halt(p[2]);
    Machine *m = run_single(p, 3, &st);
    g_assert_cmphex(m->board->nx[0].regs.r[1], ==, (uint32_t)CODE);
    g_assert_cmphex(m->board->nx[0].regs.r[2], ==, 0);
    g_assert_cmpint(st, ==, 135);
    g_assert_cmpuint(m->seq[0]->fault.code, ==, NX_FAULT_BUS_ERROR);
    g_assert_cmphex(m->seq[0]->fault.addr, ==, NX_LOCAL);
    machine_free(m);
}

/* ---- TLB -------------------------------------------------------------------- */

static void test_tlb_counts(void)
{
    Machine *m = mk(1);
    NxBlock *nx = &m->board->nx[0];
    uint64_t wt = 0x03000000;
    /* window 1 -> PA 0x01000000 RWX; window 5 -> PA 0x02000000 R only */
    uint64_t e1 = 0x01000000 | 0xF, e5 = 0x02000000 | 0x3;
    put(m, wt + 8, &e1, 8);
    put(m, wt + 40, &e5, 8);
    nx->regs.wt_base = wt;
    nx->wt_len = 8;
    Prog p = {m, CODE};
    uint8_t r[64];
    put32(m, 0x02000010, 0xABCD);
    static const uint8_t one[] = {1};
    r_m2d(r, 0xAA, 0x9, 1, 1, 0, 0, one, 1); /* fetch w1 (miss), data w5 (miss) */
    a8_imm(r + 16, 0x05000010);
    emit(&p, r);
    r_nop(r); /* fetch w1 (hit) */
    emit(&p, r);
    r_m2d(r, 0xAB, 0x9, 1, 1, 0, 0, one, 1); /* fetch hit, data w5 hit -> PERMISSION */
    a8_imm(r + 16, 0x05000020);
    emit(&p, r);
    start(m, 0, CODE);
    g_assert_cmpint(run(m), ==, 139);
    g_assert_cmphex(nx->regs.r[1], ==, 0xABCD);
    g_assert_cmpuint(m->seq[0]->fault.code, ==, NX_FAULT_PERMISSION_FAULT);
    g_assert_cmphex(m->seq[0]->fault.addr, ==, 0x05000020);
    g_assert_cmpuint(nx->tlb.misses, ==, 2);
    g_assert_cmpuint(nx->tlb.hits, ==, 3);
    machine_free(m);
}

/* With an access observer installed (watchpoints, viewer) the memory API
 * hands out no host pointers: fetch and data accesses take the slow path,
 * and the observer sees the data accesses. */
static void count_access(void *opaque, uint64_t addr, unsigned size, bool is_write,
                         MemTxAttrs attrs)
{
    if (addr >= DATA && addr < DATA + 0x100)
        (*(unsigned *)opaque)++;
}

static void test_access_observer(void)
{
    Machine *m = mk(1);
    Prog p = {m, CODE};
    uint8_t r[64];
    unsigned seen = 0;
    put32(m, DATA, 41);
    static const uint8_t one[] = {1};
    r_m2d(r, 0xAA, 0x9, 1, 1, 0, 0, one, 1);
    a8_imm(r + 16, DATA);
    emit(&p, r);
    r_alu(r, 0x04, 0x9, 1, 1, 0, true, 1);
    emit(&p, r);
    r_m2d(r, 0xAB, 0x9, 1, 1, 0, 0, one, 1);
    a8_imm(r + 16, DATA + 4);
    emit(&p, r);
    r_halt(r);
    emit(&p, r);
    g_assert_true(as_add_access_hook(m->as, count_access, &seen));
    start(m, 0, CODE);
    g_assert_cmpint(run(m), ==, 0);
    as_remove_access_hook(m->as, count_access, &seen);
    g_assert_cmphex(get(m, DATA + 4, 4), ==, 42);
    g_assert_cmpuint(seen, >=, 2);
    machine_free(m);
}

/* ---- decode cache coherence --------------------------------------------------- */

static void test_self_modifying(void)
{
    /* loop twice over slot X: first pass X = mov r1, 1; the store then
     * rewrites X to mov r1, 2 through TensorStore (immediates). */
    Machine *m = mk(1);
    Prog p = {m, CODE};
    uint8_t r[64], newx[64];
    r_movi(newx, 1, 2);
    r_movi(r, 3, 2); /* r3 = loop count */
    emit(&p, r);
    r_movi(r, 1, 1);
    uint64_t x = emit(&p, r);               /* X */
    r_alu(r, 0x04, 0x9, 4, 4, 1, false, 0); /* r4 += r1 */
    emit(&p, r);
    /* tst.u64 [X], #{...} x4 (32 bytes), twice to cover the 64 bytes */
    for (unsigned half = 0; half < 2; half++) {
        hdr(r, 0xAB);
        r[12] = 0x1;
        r[13] = 1;
        r[14] = 4;
        r[15] = 1;
        le(r + 24, 1, 4);
        a8_imm(r + 16, x + 32 * half);
        memcpy(r + 32, newx + 32 * half, 32);
        emit(&p, r);
    }
    r_alu(r, 0x05, 0x9, 3, 3, 0, true, 1);
    emit(&p, r);
    r_bimm(r, 4, 0x9, 3, 0, -(int32_t)(p.at - x));
    emit(&p, r);
    r_halt(r);
    emit(&p, r);
    start(m, 0, CODE);
    g_assert_cmpint(run(m), ==, 0);
    g_assert_cmpuint(m->board->nx[0].regs.r[4], ==, 1 + 2);
    machine_free(m);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/seq-exec/mem2d/extension", test_tld_extension);
    g_test_add_func("/seq-exec/mem2d/strides", test_tld_negative_stride_2d);
    g_test_add_func("/seq-exec/mem2d/window-align", test_tld_window_and_alignment);
    g_test_add_func("/seq-exec/mem2d/store", test_tst);
    g_test_add_func("/seq-exec/mem2d/store-precise", test_tst_precise);
    g_test_add_func("/seq-exec/mem2d/local", test_local_window);
    g_test_add_func("/seq-exec/tlb", test_tlb_counts);
    g_test_add_func("/seq-exec/self-modifying", test_self_modifying);
    g_test_add_func("/seq-exec/access-observer", test_access_observer);
    return g_test_run();
}
