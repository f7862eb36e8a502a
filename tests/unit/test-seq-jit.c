/*
 * The sequencer's block compiler (target/seq/jit.c) as a user relies on it:
 * present on x86-64 Linux with a stencil for every inline form, switched by
 * NXEMU_SEQ_JIT, computing loops right when compiled, and dropping compiled
 * code when the program rewrites it.  Differential coverage (compiled vs.
 * threaded vs. general path on random programs, icount limits, a tiny
 * arena) is in test-seq-observe.c.  Expected values are computed by hand.
 */
#include <stdlib.h>

#include <glib.h>

#include "nxemu/debug.h"
#include "nxemu/machine.h"
#include "nxemu/sched.h"
#include "seq-testlib.h"
#include "target/seq/cpu.h"

enum { U32 = 0x9 };

/* The build made every stencil (a script or compiler change that leaves
 * some out would silently slow the emulator down). */
static void test_stencils(void)
{
#if defined(__x86_64__) && defined(__linux__)
    g_assert_true(seq_jit_available());
    for (int id = 0; id < SEQ_ST_COUNT; id++)
        if (!seq_jit_has_stencil((SeqStencilId)id))
            g_error("stencil %d missing from seq-stencils.h", id);
#else
    g_assert_false(seq_jit_available());
#endif
}

/* NXEMU_SEQ_JIT (docs/user-manual.rst). */
static void test_env(void)
{
    if (!seq_jit_available()) {
        g_test_skip("no stencils on this host");
        return;
    }
    static const struct {
        const char *v;
        unsigned want;
    } cases[] = {{NULL, 4}, {"", 4}, {"off", 0}, {"0", 0}, {"1", 1}, {"200", 200},
                 {"256", 4}, {"fast", 4}, {"3x", 4}};
    for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
        if (cases[i].v)
            g_setenv("NXEMU_SEQ_JIT", cases[i].v, TRUE);
        else
            g_unsetenv("NXEMU_SEQ_JIT");
        g_assert_cmpuint(seq_jit_default_threshold(), ==, cases[i].want);
    }
    g_unsetenv("NXEMU_SEQ_JIT");
}

static Machine *machine(unsigned threshold)
{
    Machine *m = mk(1);
    seq_cpu(m->seq[0])->jit.threshold = seq_jit_available() ? (uint8_t)threshold : 0;
    return m;
}

/* r2 = 1 + 2 + ... + 100000 (mod 2^32) by an add/sub/bne loop. */
static void test_sum_loop(void)
{
    for (unsigned th = 0; th <= 4; th += 4) {
        Machine *m = machine(th ? th : 1);
        Prog p = {m, CODE};
        uint8_t r[64];
        r_movi(r, 1, 100000), emit(&p, r);
        r_movi(r, 2, 0), emit(&p, r);
        r_alu(r, 0x04, U32, 2, 2, 1, false, 0), emit(&p, r); /* add r2, r2, r1 */
        r_alu(r, 0x05, U32, 1, 1, 0, true, 1), emit(&p, r);  /* sub r1, r1, 1 */
        r_bimm(r, 4, U32, 1, 0, -128), emit(&p, r);          /* bne r1, 0, -2 records */
        r_write(r, TESTDEV, 0x5555), emit(&p, r);
        r_halt(r), emit(&p, r);
        start(m, 0, CODE);
        g_assert_cmpint(run(m), ==, 0);
        SeqCpu *s = seq_cpu(m->seq[0]);
        /* 100000 * 100001 / 2 = 5000050000 = 705082704 + 2^32 */
        g_assert_cmpuint(s->regs->r[2], ==, 705082704u);
        g_assert_cmpuint(s->regs->r[1], ==, 0);
        /* 2 moves, 3 per iteration, the write */
        g_assert_cmpuint(m->seq[0]->retired, >=, 2 + 3 * 100000 + 1);
        if (seq_jit_available())
            g_assert_cmpuint(s->jit.blocks, >=, 1);
        machine_free(m);
    }
}

/* A loop adds 1 ten times, the program rewrites the add's immediate to
 * 100 (sequencer.md §8: ALU immediate at bytes 24..31) and runs the loop
 * again: r2 = 10 + 1000.  Compiled code from before the write must go. */
static void test_self_modifying(void)
{
    for (unsigned th = 1; th <= 4; th += 3) {
        Machine *m = machine(th);
        Prog p = {m, CODE};
        uint8_t r[64];
        r_movi(r, 1, 10), emit(&p, r);                       /* 0 */
        r_movi(r, 2, 0), emit(&p, r);                        /* 1 */
        r_movi(r, 3, 0), emit(&p, r);                        /* 2 */
        r_alu(r, 0x04, U32, 2, 2, 0, true, 1), emit(&p, r);  /* 3: add r2, r2, 1 */
        r_alu(r, 0x05, U32, 1, 1, 0, true, 1), emit(&p, r);  /* 4: sub r1, r1, 1 */
        r_bimm(r, 4, U32, 1, 0, -128), emit(&p, r);          /* 5: bne r1, 0, 3 */
        r_bimm(r, 4, U32, 3, 0, 5 * 64), emit(&p, r);        /* 6: bne r3, 0, 11 */
        r_write(r, CODE + 3 * 64 + 24, 100), emit(&p, r);    /* 7: imm of 3 = 100 */
        r_movi(r, 3, 1), emit(&p, r);                        /* 8 */
        r_movi(r, 1, 10), emit(&p, r);                       /* 9 */
        r_bimm(r, 0, 0, 0, 0, -7 * 64), emit(&p, r);         /* 10: b 3 */
        r_write(r, TESTDEV, 0x5555), emit(&p, r);            /* 11 */
        r_halt(r), emit(&p, r);                              /* 12 */
        start(m, 0, CODE);
        g_assert_cmpint(run(m), ==, 0);
        SeqCpu *s = seq_cpu(m->seq[0]);
        g_assert_cmpuint(s->regs->r[2], ==, 1010);
        if (seq_jit_available() && th == 1)
            g_assert_cmpuint(s->jit.blocks, >=, 2); /* before the write and after */
        machine_free(m);
    }
}

/* With a debugger attached the loop is compiled (no breakpoint in its
 * page); a breakpoint inserted between rounds, as the gdb stub does, stops
 * the core at its first arrival there, compiled code or not. */
static void test_breakpoint_after_compile(void)
{
    Machine *m = machine(1);
    Prog p = {m, CODE};
    uint8_t r[64];
    r_movi(r, 1, 1000000), emit(&p, r);
    r_movi(r, 2, 0), emit(&p, r);
    r_alu(r, 0x04, U32, 2, 2, 1, false, 0), emit(&p, r); /* 2: add */
    r_alu(r, 0x05, U32, 1, 1, 0, true, 1), emit(&p, r);  /* 3: sub */
    r_bimm(r, 4, U32, 1, 0, -128), emit(&p, r);          /* 4: bne 2 */
    r_write(r, TESTDEV, 0x5555), emit(&p, r);
    r_halt(r), emit(&p, r);
    start(m, 0, CODE);
    NxDebug *d = nx_debug_new(m);
    m->debug = d;
    for (unsigned i = 0; i < 50; i++)
        g_assert_cmpint(sched_round(m), ==, STOP_NONE);
    SeqCpu *s = seq_cpu(m->seq[0]);
    if (seq_jit_available())
        g_assert_cmpuint(s->jit.blocks, >=, 1);
    const uint64_t r0 = m->seq[0]->retired;
    g_assert_cmpuint(r0, >=, 2);
    g_assert_true(nx_debug_bp_insert(d, m->seq[0], CODE + 3 * 64));
    StopReason st;
    while ((st = sched_round(m)) == STOP_NONE) {
    }
    g_assert_cmpint(st, ==, STOP_DEBUG);
    g_assert_cmpuint(s->regs->pc, ==, CODE + 3 * 64);
    /* After R retired (R >= 2) the next record is 2 + (R - 2) % 3: the sub
     * comes next first at the least R >= r0 with (R - 2) % 3 == 1. */
    uint64_t want = r0;
    while ((want - 2) % 3 != 1)
        want++;
    g_assert_cmpuint(m->seq[0]->retired, ==, want);
    m->debug = NULL;
    nx_debug_free(d);
    machine_free(m);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/seq-jit/stencils", test_stencils);
    g_test_add_func("/seq-jit/env", test_env);
    g_test_add_func("/seq-jit/sum-loop", test_sum_loop);
    g_test_add_func("/seq-jit/self-modifying", test_self_modifying);
    g_test_add_func("/seq-jit/breakpoint-after-compile", test_breakpoint_after_compile);
    return g_test_run();
}
