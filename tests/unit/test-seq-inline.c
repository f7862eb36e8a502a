/*
 * The run loop's threaded fast path (target/seq/cpu.c seq_run_fast) runs
 * the common ALU_OP and COMPARE_BRANCH forms inline from operands resolved
 * at decode time, and TENSOR_LOAD/STORE with an immediate address from a
 * walk resolved at decode time (exec-mem2d.c).  Whatever path runs a
 * record, the result must be what sequencer.md says:
 *
 *  - every integer ALU form, run by the real run loop from a warm decode
 *    cache, gives seq_alu_compute's result (the general ALU, checked
 *    against the spec by test-seq-exec-alu) in the destination and nothing
 *    else changes;
 *  - every 32-bit compare-and-branch form goes where §8.8 says, computed
 *    here from the condition table, also when a loop runs off a page;
 *  - 4-byte mem_2d walks of many shapes and strides (including reversed
 *    rows, overlapping rows, runs across a page boundary, repeated and
 *    non-consecutive registers) move exactly the elements of §8.9:
 *    element k = (i0, i1), k = i1*n0 + i0, at start + 4*(i0*s0 + i1*s1).
 */
#include <string.h>

#include <glib.h>

#include "hw/nc2/board.h"
#include "nxemu/machine.h"
#include "nxemu/sched.h"
#include "seq-testlib.h"
#include "target/seq/cpu.h"

enum { U64 = 0x1, I32 = 0x8, U32 = 0x9, I64 = 0xC };

static const uint32_t edge[] = {0,    1,          2,          31,         32,
                                0x7F, 0x80000000, 0x80000001, 0xFFFFFFFE, 0xFFFFFFFF};

/* Run the record at CODE for exactly one instruction through the core's run
 * function with the given registers, twice: the first run fills the decode
 * cache (general path), the second starts from the warm cache, where the
 * fast path takes it.  Returns the status of the second run's slice. */
static uint64_t run_one(Machine *m, const uint32_t regs[64], uint32_t out[64], uint64_t *pc)
{
    NxCpu *cpu = m->seq[0];
    uint64_t n = 0;
    for (int pass = 0; pass < 2; pass++) {
        memcpy(m->board->nx[0].regs.r, regs, 64 * sizeof(uint32_t));
        m->board->nx[0].regs.pc = CODE;
        cpu->state = CPU_RUNNING;
        cpu->slice_used = 0;
        n = cpu->ops->run(cpu, 1);
    }
    memcpy(out, m->board->nx[0].regs.r, 64 * sizeof(uint32_t));
    *pc = m->board->nx[0].regs.pc;
    return n;
}

static void test_alu_forms(void)
{
    Machine *m = mk(1);
    static const uint8_t dts[] = {I32, U32, I64, U64};
    unsigned inline_seen = 0;

    for (unsigned op = 0; op < 256; op++) {
        if (!seq_alu_mnemonic(op))
            continue;
        for (unsigned t = 0; t < G_N_ELEMENTS(dts); t++) {
            bool wide = dts[t] == I64 || dts[t] == U64;
            for (int imm = 0; imm < 2; imm++) {
                for (unsigned i = 0; i < G_N_ELEMENTS(edge); i++) {
                    for (unsigned j = 0; j < G_N_ELEMENTS(edge); j += 3) {
                        uint32_t a = edge[i], b = edge[j];
                        uint64_t a64 = (uint64_t)b << 32 | a, b64 = (uint64_t)a << 32 | b;
                        uint8_t rec[64];
                        /* 32-bit: r3 = r1 op (r2 | imm); 64-bit: r5:r4 = r7:r6 op
                         * (r9:r8 | imm). */
                        if (wide)
                            r_alu64(rec, (uint8_t)op, dts[t], 4, 5, 6, 7, imm, b64, 8, 9);
                        else
                            r_alu(rec, (uint8_t)op, dts[t], 3, 1, 2, imm, b);
                        SeqDecoded d;
                        seq_decode_record(&d, rec);
                        if (!d.fn)
                            break; /* not valid for this dtype */
                        if (i == 0 && j == 0 && d.kind > SEQ_K_CALL)
                            inline_seen++;
                        put(m, CODE, rec, 64);

                        uint32_t regs[64] = {0}, out[64], want[64];
                        for (unsigned r = 0; r < 64; r++)
                            regs[r] = 0x1000u + r;
                        regs[1] = a, regs[2] = b;
                        regs[6] = a, regs[7] = b, regs[8] = b, regs[9] = a;
                        uint64_t res, pc;
                        g_assert_true(seq_alu_compute((uint8_t)op, dts[t], wide ? a64 : a,
                                                      wide ? b64 : b, &res));
                        memcpy(want, regs, sizeof(want));
                        if (wide) {
                            want[4] = (uint32_t)res;
                            want[5] = (uint32_t)(res >> 32);
                        } else {
                            want[3] = (uint32_t)res;
                        }
                        g_assert_cmpuint(run_one(m, regs, out, &pc), ==, 1);
                        g_assert_cmphex(pc, ==, CODE + 64);
                        if (memcmp(out, want, sizeof(want)) != 0)
                            g_error("op 0x%02x dt 0x%x imm %d a=0x%x b=0x%x: r3=0x%x r5:r4=%x:%x, "
                                    "want r3=0x%x r5:r4=%x:%x",
                                    op, dts[t], imm, a, b, out[3], out[5], out[4], want[3], want[5],
                                    want[4]);
                    }
                }
            }
        }
    }
    /* 31 32-bit forms and 5 64-bit ones, each rr and ri (some ops share a
     * form: more records than forms). */
    g_assert_cmpuint(inline_seen, >=, 2 * 31 + 2 * 5);
    machine_free(m);
}

/* §8.8 conditions: cmp 1..6 against an immediate, 9..14 against a register;
 * relation = cmp & 7: 1 <, 2 <=, 3 ==, 4 !=, 5 >=, 6 >. */
static bool taken(uint8_t cmp, bool sgn, uint32_t x, uint32_t y)
{
    int64_t a = sgn ? (int64_t)(int32_t)x : (int64_t)x;
    int64_t b = sgn ? (int64_t)(int32_t)y : (int64_t)y;
    switch (cmp & 7) {
    case 0:
        return true;
    case 1:
        return a < b;
    case 2:
        return a <= b;
    case 3:
        return a == b;
    case 4:
        return a != b;
    case 5:
        return a >= b;
    default:
        return a > b;
    }
}

static void test_branch_forms(void)
{
    static const uint8_t cmps[] = {0, 1, 2, 3, 4, 5, 6, 9, 10, 11, 12, 13, 14};
    static const uint8_t dts[] = {I32, U32};
    Machine *m = mk(1);

    for (unsigned c = 0; c < G_N_ELEMENTS(cmps); c++) {
        for (unsigned t = 0; t < G_N_ELEMENTS(dts); t++) {
            for (int rel = 0; rel < 2; rel++) {
                for (unsigned i = 0; i < G_N_ELEMENTS(edge); i++) {
                    for (unsigned j = 0; j < G_N_ELEMENTS(edge); j++) {
                        uint8_t cmp = cmps[c], rec[64];
                        uint32_t x = edge[i], y = edge[j];
                        /* bCC r1, (y | r2), target: abs CODE+0x800 (same
                         * page) or rel +0x2000 (another page). */
                        uint64_t target = rel ? CODE + 0x2000 : CODE + 0x800;
                        hdr(rec, 0xA9);
                        rec[12] = cmp;
                        rec[13] = cmp ? dts[t] : 0;
                        rec[14] = rel ? 3 : 0;
                        if (cmp && cmp < 9)
                            le(rec + 16, y, 4);
                        rec[32] = cmp ? 1 : 0;
                        rec[33] = cmp >= 9 ? 2 : 0;
                        le(rec + 48, rel ? 0x2000 : target, 8);
                        put(m, CODE, rec, 64);

                        uint32_t regs[64] = {0}, out[64];
                        regs[1] = x, regs[2] = y;
                        uint64_t pc;
                        if (run_one(m, regs, out, &pc) != 1)
                            g_error("cmp %u dt %u rel %d x=%x y=%x: state %d fault %u", cmp, dts[t],
                                    rel, x, y, m->seq[0]->state, m->seq[0]->fault.code);
                        bool tk = taken(cmp, dts[t] == I32, x, y);
                        g_assert_cmphex(pc, ==, tk ? target : CODE + 64);
                        g_assert_true(memcmp(out, regs, sizeof(regs)) == 0);
                        if (cmp == 0)
                            goto next_cmp;
                    }
                }
            }
        }
    next_cmp:;
    }
    machine_free(m);
}

/* A loop whose body runs off the end of a 4 KiB page (the straight line
 * leaves one decode page for the next) and branches back: every
 * instruction retires once, in order, over many slices. */
static void test_loop_across_pages(void)
{
    const unsigned n = 100;
    uint8_t r[6][64];
    r_movi(r[0], 1, n);                       /* CODE+0xF40 */
    r_alu(r[1], 0x04, U32, 2, 2, 0, true, 1); /* loop: r2 += 1 */
    r_alu(r[2], 0x04, U32, 3, 3, 0, true, 2); /* r3 += 2 (last slot) */
    r_alu(r[3], 0x05, U32, 1, 1, 0, true, 1); /* next page: r1 -= 1 */
    r_bimm(r[4], 4, U32, 1, 0, -0xC0);        /* bne r1, 0, loop */
    r_write(r[5], TESTDEV, 0x5555);
    Machine *m = mk(1);
    Prog p = {m, CODE + 0xF40};
    for (unsigned i = 0; i < 6; i++)
        emit(&p, r[i]);
    start(m, 0, CODE + 0xF40);
    g_assert_cmpint(run(m), ==, 0);
    g_assert_cmpuint(m->seq[0]->retired, ==, 1 + 4 * n + 1);
    g_assert_cmpuint(m->sched.icount, ==, 1 + 4 * n + 1);
    g_assert_cmphex(m->board->nx[0].regs.r[1], ==, 0);
    g_assert_cmphex(m->board->nx[0].regs.r[2], ==, n);
    g_assert_cmphex(m->board->nx[0].regs.r[3], ==, 2 * n);
    machine_free(m);
}

/* ---- mem_2d -------------------------------------------------------------- */

typedef struct M2dCase {
    uint8_t n0, n1;
    int32_t s0, s1; /* elements */
    uint64_t start; /* Neuron address (= PA, translation off) */
    uint8_t reg0;   /* registers reg0 + k, or the `regs` list when nonzero */
    const uint8_t *regs;
} M2dCase;

static const uint8_t scattered[32] = {40, 3,  17, 9, 60, 22, 5,  33, 12, 48, 7,
                                      29, 54, 18, 2, 41, 26, 11, 63, 36, 8,  50,
                                      14, 31, 45, 6, 20, 57, 38, 1,  24, 47};
static const uint8_t repeated[8] = {10, 11, 10, 12, 11, 10, 13, 10};

static const M2dCase m2d_cases[] = {
    {8, 4, 1, 16, DATA + 0x100, 2, NULL},       /* rows of 8, as bench/seq-mem2d */
    {32, 1, -1, 0, DATA + 0x1000, 2, NULL},     /* reversed, across a page boundary */
    {7, 3, -1, 9, DATA + 0x2040, 20, NULL},     /* reversed rows with a tail */
    {5, 5, 1, 5, DATA + 0x2ff0, 30, NULL},      /* contiguous, across a page */
    {4, 4, 2, -3, DATA + 0x3200, 1, NULL},      /* strided, rows going down */
    {6, 3, 1, 0, DATA + 0x4000, 40, NULL},      /* rows on top of each other */
    {3, 2, 0, 1, DATA + 0x4100, 50, NULL},      /* s0 = 0 */
    {8, 4, -1, 8, DATA + 0x5000, 0, scattered}, /* scattered registers */
    {4, 2, 1, 4, DATA + 0x5800, 0, repeated},   /* repeated registers */
    {1, 1, 0, 0, DATA + 0x6000, 63, NULL},      /* one element, last register */
    {30, 1, 1, 0, DATA + 0x6100, 40, NULL},     /* regs 40..69: wraps, not consecutive */
};

static uint8_t case_reg(const M2dCase *c, unsigned k)
{
    return c->regs ? c->regs[k] : (uint8_t)((c->reg0 + k) & 63);
}

static uint64_t case_addr(const M2dCase *c, unsigned k)
{
    int64_t i0 = k % c->n0, i1 = k / c->n0;
    return c->start + (uint64_t)(4 * (i0 * c->s0 + i1 * c->s1));
}

/* tld or tst of case c, then the PASS write. */
static Machine *m2d_run(const M2dCase *c, uint8_t opc, const uint32_t regs[64])
{
    uint8_t r[2][64], list[32];
    unsigned n = c->n0 * c->n1;
    for (unsigned k = 0; k < n; k++)
        list[k] = case_reg(c, k);
    r_m2d(r[0], opc, U32, c->n0, c->n1, c->s0, c->s1, list, n);
    a8_imm(r[0] + 16, c->start);
    r_write(r[1], TESTDEV, 0x5555);
    Machine *m = mk(1);
    Prog p = {m, CODE};
    emit(&p, r[0]);
    emit(&p, r[1]);
    /* Memory: a pattern that names its own address. */
    for (uint64_t a = DATA; a < DATA + 0x7000; a += 4)
        put32(m, a, (uint32_t)(a * 2654435761u));
    start(m, 0, CODE);
    memcpy(m->board->nx[0].regs.r, regs, 64 * sizeof(uint32_t));
    g_assert_cmpint(run(m), ==, 0);
    g_assert_cmpuint(m->seq[0]->retired, ==, 2);
    return m;
}

static void test_m2d_forms(void)
{
    for (unsigned ci = 0; ci < G_N_ELEMENTS(m2d_cases); ci++) {
        const M2dCase *c = &m2d_cases[ci];
        unsigned n = c->n0 * c->n1;
        uint32_t regs[64];
        for (unsigned r = 0; r < 64; r++)
            regs[r] = 0xA0000000u + r * 0x111u;

        /* Load: registers get the elements in walk order (the last one
         * wins for a repeated register); no other register changes. */
        Machine *m = m2d_run(c, 0xAA, regs);
        uint32_t want[64];
        memcpy(want, regs, sizeof(want));
        for (unsigned k = 0; k < n; k++)
            want[case_reg(c, k)] = (uint32_t)(case_addr(c, k) * 2654435761u);
        for (unsigned r = 0; r < 64; r++)
            if (m->board->nx[0].regs.r[r] != want[r])
                g_error("case %u tld: r%u = 0x%x, want 0x%x", ci, r, m->board->nx[0].regs.r[r],
                        want[r]);
        machine_free(m);

        /* Store: memory gets the registers in walk order (the last element
         * wins where elements overlap); no other word changes. */
        m = m2d_run(c, 0xAB, regs);
        GHashTable *exp = g_hash_table_new(g_int64_hash, g_int64_equal);
        uint64_t addrs[32];
        for (unsigned k = 0; k < n; k++) {
            addrs[k] = case_addr(c, k);
            g_hash_table_insert(exp, &addrs[k], GUINT_TO_POINTER(k));
        }
        for (uint64_t a = DATA; a < DATA + 0x7000; a += 4) {
            uint32_t w = (uint32_t)(a * 2654435761u);
            gpointer kp;
            if (g_hash_table_lookup_extended(exp, &a, NULL, &kp))
                w = regs[case_reg(c, GPOINTER_TO_UINT(kp))];
            uint32_t got = (uint32_t)get(m, a, 4);
            if (got != w)
                g_error("case %u tst: [0x%" G_GINT64_MODIFIER "x] = 0x%x, want 0x%x", ci, a, got,
                        w);
        }
        g_hash_table_destroy(exp);
        machine_free(m);
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/seq/inline/alu-forms", test_alu_forms);
    g_test_add_func("/seq/inline/branch-forms", test_branch_forms);
    g_test_add_func("/seq/inline/loop-across-pages", test_loop_across_pages);
    g_test_add_func("/seq/inline/m2d-forms", test_m2d_forms);
    return g_test_run();
}
