/*
 * Observers must not change what a sequencer program does, and the run
 * loop's threaded path must do what its general path does (target/seq/cpu.c:
 * one run loop, the observer hook around the same code).  Random programs
 * (every ALU_OP form and dtype the decoder accepts, moves, forward
 * branches, TensorLoad/Store of every element size, writes, a loop across
 * a page boundary, optionally an icount limit or a final faulting load) run in every mode below;
 * the final registers, PC, counters, virtual times, core state, fault and data memory must equal
 * the plain run's.  The expected values are the plain run's, not computed here: the semantics are
 * checked against the spec by test-seq-exec-*, test-seq-fast and the tests/seq images.
 */
#include <string.h>

#include <glib.h>

#include "nxemu/debug.h"
#include "nxemu/machine.h"
#include "nxemu/sched.h"
#include "nxemu/trace.h"
#include "seq-testlib.h"
#include "target/seq/cpu.h"

enum {
    MODE_PLAIN,       /* nobody observes: the threaded path where it applies */
    MODE_GENERAL,     /* every record through the general path (the reference) */
    MODE_TRACED,      /* -d commit (a trace), -d exec and -d cpu */
    MODE_DEBUGGER,    /* gdb attached with a breakpoint that is never reached */
    MODE_WATCH,       /* gdb with a watchpoint never hit: no host pointers */
    MODE_GENERAL_OBS, /* the general path, observed (what -trace-json used to force) */
    MODE_JIT_EAGER,   /* the block compiler (target/seq/jit.c) at a record's first entry */
    MODE_JIT_TINY,    /* ... with a 600-byte arena: emptied again and again, or too small */
    MODE_JIT_OFF,     /* the threaded path alone (NXEMU_SEQ_JIT=off) */
    MODE_COUNT
};

static const char *const mode_name[MODE_COUNT] = {
    "plain", "general", "traced", "debugger", "watch", "general+traced", "jit-eager", "jit-tiny",
    "jit-off"};

/* Programs of ALU records and branches only (long compiled blocks). */
static bool pure_only;

#define NOWHERE 0x03F00000ull /* in HBM, never executed nor accessed */
#define MEM_LEN 0x1000u

typedef struct End {
    int status;
    uint32_t r[64];
    uint64_t pc, retired, icount, vtime, limit_vtime;
    int state;
    NxFault fault;
    uint64_t fault_pc;
    uint8_t mem[MEM_LEN];
    uint64_t jit_blocks, jit_flushes; /* not compared: how the run went */
} End;

/* ---- random programs ---------------------------------------------------- */

enum {
    U64 = 0x1,
    I8 = 0x2,
    U8 = 0x3,
    I16 = 0x4,
    U16 = 0x5,
    I32 = 0x8,
    U32 = 0x9,
    I64 = 0xC,
    F32 = 0xA
};

static uint8_t reg(GRand *g)
{
    return (uint8_t)g_rand_int_range(g, 1, 41);
}

static bool valid(const uint8_t r[64])
{
    SeqDecoded d;
    seq_decode_record(&d, r);
    return d.fn != NULL;
}

/* One random record the decoder accepts (a branch skips the next record). */
static void rand_insn(GRand *g, uint8_t r[64], bool may_branch)
{
    static const uint8_t alu_dt[] = {I32, U32, I64, U64, F32};
    static const uint8_t m2d_dt[] = {U32, I32, F32, U64, I8, U8, I16, U16};
    static const uint8_t br_dt[] = {I32, U32, I8, U8, I16, U16, F32};
    for (;;) {
        unsigned kind = (unsigned)g_rand_int_range(g, 0, pure_only ? 70 : 100);
        if (pure_only && kind >= 50 && kind < 60)
            kind -= 10; /* no moves either: they end a compiled block */
        if (kind < 50) {
            uint8_t op = (uint8_t)g_rand_int_range(g, 0, 0x1C);
            if (g_rand_int_range(g, 0, 10) == 0)
                op = (uint8_t)g_rand_int_range(g, 0xC4, 0xC7);
            uint8_t dt = alu_dt[g_rand_int_range(g, 0, G_N_ELEMENTS(alu_dt))];
            bool imm = g_rand_boolean(g);
            uint64_t v =
                ((uint64_t)g_rand_int(g) << 32 | g_rand_int(g)) >> g_rand_int_range(g, 0, 64);
            if (dt == I64 || dt == U64)
                r_alu64(r, op, dt, reg(g), reg(g), reg(g), reg(g), imm, v, reg(g), reg(g));
            else
                r_alu(r, op, dt, reg(g), reg(g), reg(g), imm, (uint32_t)v);
            if (seq_alu_unary(op)) {
                /* unary: no second operand */
                memset(r + 18, 0, 2);
                memset(r + 24, 0, 8);
                r[14] = 0;
            }
        } else if (kind < 60) {
            r_movr(r, reg(g), reg(g));
        } else if (kind < 70) {
            if (!may_branch)
                continue;
            uint8_t cmp = (uint8_t)g_rand_int_range(g, 0, 7);
            r_bimm(r, cmp, br_dt[g_rand_int_range(g, 0, G_N_ELEMENTS(br_dt))], reg(g),
                   g_rand_int(g) >> g_rand_int_range(g, 0, 32), 128);
            if (pure_only && cmp && g_rand_boolean(g)) {
                /* rhs register (sequencer.md §8.8: compare ops 9..14) */
                r[12] = (uint8_t)(cmp + 8);
                memset(r + 16, 0, 4);
                r[33] = reg(g);
            }
        } else if (kind < 90) {
            uint8_t dt = m2d_dt[g_rand_int_range(g, 0, G_N_ELEMENTS(m2d_dt))];
            unsigned size = dt == U64                ? 8
                            : dt == I8 || dt == U8   ? 1
                            : dt == I16 || dt == U16 ? 2
                                                     : 4;
            uint8_t n0 = (uint8_t)g_rand_int_range(g, 1, 5),
                    n1 = (uint8_t)g_rand_int_range(g, 1, 4);
            int32_t s0 = g_rand_int_range(g, -2, 3), s1 = g_rand_int_range(g, -12, 13);
            uint8_t regs[32];
            uint8_t r0 = (uint8_t)(2 * g_rand_int_range(g, 1, 12));
            for (unsigned k = 0; k < 32; k++)
                regs[k] = g_rand_int_range(g, 0, 4) == 0 ? reg(g)
                          : dt == U64                    ? (uint8_t)(r0 + 2 * k)
                                                         : (uint8_t)(r0 + k);
            r_m2d(r, g_rand_boolean(g) ? 0xAA : 0xAB, dt, n0, n1, s0, s1, regs, n0 * n1);
            a8_imm(r + 16, DATA + 0x800 + size * (uint64_t)g_rand_int_range(g, -16, 16));
        } else {
            r_write(r, DATA + 4 * (uint64_t)g_rand_int_range(g, 0, MEM_LEN / 4), g_rand_int(g));
        }
        if (valid(r))
            return;
    }
}

/* CODE: set r1..r40, r50 = iterations; loop: body; sub r50; bne r50, loop;
 * then PASS on the test device, or (fault) a load from unmapped space.  Returns the number of
 * records. */
static unsigned program(Machine *m, GRand *g, bool fault)
{
    Prog p = {m, CODE};
    uint8_t r[64];
    for (uint8_t i = 1; i <= 40; i++) {
        r_movi(r, i, g_rand_int(g) >> g_rand_int_range(g, 0, 32));
        emit(&p, r);
    }
    r_movi(r, 50, (uint32_t)g_rand_int_range(g, 1, 40));
    emit(&p, r);
    unsigned body = (unsigned)g_rand_int_range(g, 4, 90); /* up to two pages */
    for (unsigned i = 0; i < body; i++) {
        rand_insn(g, r, i + 1 < body);
        emit(&p, r);
    }
    r_alu(r, 0x05, U32, 50, 50, 0, true, 1);
    emit(&p, r);
    r_bimm(r, 4, U32, 50, 0, -(int32_t)(64 * (body + 1)));
    emit(&p, r);
    if (fault) {
        /* a TensorLoad from unmapped space: BUS_ERROR in phase E */
        static const uint8_t regs[4] = {1, 2, 3, 4};
        r_m2d(r, 0xAA, U32, 4, 1, 1, 0, regs, 4);
        a8_imm(r + 16, 0x1000000000ull);
    } else
        r_write(r, TESTDEV, 0x5555);
    emit(&p, r);
    r_halt(r);
    emit(&p, r);
    return (unsigned)((p.at - CODE) / 64);
}

/* ---- one run ------------------------------------------------------------ */

static void run_mode(guint32 seed, bool fault, uint64_t limit, int mode, End *e)
{
    Machine *m = mk(1);
    GRand *g = g_rand_new_with_seed(seed);
    program(m, g, fault);
    for (unsigned i = 0; i < MEM_LEN; i += 4)
        put32(m, DATA + i, g_rand_int(g));
    g_rand_free(g);
    start(m, 0, CODE);
    SeqCpu *s = seq_cpu(m->seq[0]);
    s->threaded_off = mode == MODE_GENERAL || mode == MODE_GENERAL_OBS;
    if (mode == MODE_JIT_EAGER || mode == MODE_JIT_TINY)
        s->jit.threshold = seq_jit_available() ? 1 : 0;
    if (mode == MODE_JIT_TINY)
        s->jit.cap = 600;
    if (mode == MODE_JIT_OFF)
        s->jit.threshold = 0;
    if (limit) {
        m->sched.has_icount_limit = true;
        m->sched.icount_limit = limit;
    }

    NxTrace *tr = NULL;
    GString *commits = NULL;
    FILE *devnull = NULL;
    if (mode == MODE_TRACED || mode == MODE_GENERAL_OBS) {
        GError *err = NULL;
        NxTraceOptions o = {.commit = true};
        tr = trace_new(m, &o, &err);
        g_assert_no_error(err);
        commits = g_string_new(NULL);
        trace_set_commit_output(tr, commits);
        devnull = fopen("/dev/null", "w");
        g_assert_nonnull(devnull);
        m->log.file = devnull;
        m->log.mask |= NX_LOG_EXEC | NX_LOG_CPU;
    }
    NxDebug *d = NULL;
    if (mode == MODE_DEBUGGER || mode == MODE_WATCH) {
        d = nx_debug_new(m);
        m->debug = d;
        if (mode == MODE_DEBUGGER)
            g_assert_true(nx_debug_bp_insert(d, m->seq[0], NOWHERE));
        else
            g_assert_true(nx_debug_wp_insert(d, m->seq[0], NX_HIT_WATCH, NOWHERE, NOWHERE, 4));
    }

    memset(e, 0, sizeof(*e));
    e->status = sched_run(m);
    SeqRegs *nx = s->regs;
    memcpy(e->r, nx->r, sizeof(e->r));
    e->pc = nx->pc;
    e->retired = m->seq[0]->retired;
    e->icount = m->sched.icount;
    e->vtime = machine_run_vtime(m);
    e->limit_vtime = m->sched.limit_vtime;
    e->state = m->seq[0]->state;
    e->fault = m->seq[0]->fault;
    e->fault_pc = m->seq[0]->fault_pc;
    e->jit_blocks = s->jit.blocks;
    e->jit_flushes = s->jit.flushes;

    if (d) {
        m->debug = NULL;
        nx_debug_free(d);
    }
    if (tr) {
        /* one commit line per retired instruction (a faulting one adds one) */
        unsigned lines = 0;
        for (const char *q = commits->str; (q = strchr(q, '\n')); q++)
            lines++;
        g_assert_cmpuint(lines, >=, e->retired);
        g_assert_cmpuint(lines, <=, e->retired + 1);
        trace_free(tr);
        g_string_free(commits, TRUE);
        m->log.mask &= ~(uint32_t)(NX_LOG_EXEC | NX_LOG_CPU);
        m->log.file = NULL;
        fclose(devnull);
    }
    for (unsigned i = 0; i < MEM_LEN; i += 4) {
        uint32_t v = (uint32_t)get(m, DATA + i, 4);
        memcpy(e->mem + i, &v, 4);
    }
    machine_free(m);
}

/* Blocks compiled in the eager mode and arenas emptied in the tiny one,
 * over the compare() calls so far. */
static uint64_t eager_blocks, tiny_flushes, debugger_blocks;

static void compare(guint32 seed, bool fault, uint64_t limit)
{
    static End ref, got;
    run_mode(seed, fault, limit, MODE_PLAIN, &ref);
    for (int mode = 1; mode < MODE_COUNT; mode++) {
        run_mode(seed, fault, limit, mode, &got);
        if (mode == MODE_JIT_EAGER)
            eager_blocks += got.jit_blocks;
        if (mode == MODE_JIT_TINY)
            tiny_flushes += got.jit_flushes;
        if (mode == MODE_DEBUGGER || mode == MODE_WATCH)
            debugger_blocks += got.jit_blocks; /* no breakpoint in these pages */
        const char *what = NULL;
        if (got.status != ref.status)
            what = "exit status";
        else if (memcmp(got.r, ref.r, sizeof(ref.r)))
            what = "registers";
        else if (got.pc != ref.pc)
            what = "pc";
        else if (got.retired != ref.retired || got.icount != ref.icount)
            what = "instruction counts";
        else if (got.vtime != ref.vtime || got.limit_vtime != ref.limit_vtime)
            what = "virtual time";
        else if (got.state != ref.state)
            what = "core state";
        else if (memcmp(&got.fault, &ref.fault, sizeof(ref.fault)) || got.fault_pc != ref.fault_pc)
            what = "fault";
        else if (memcmp(got.mem, ref.mem, sizeof(ref.mem)))
            what = "data memory";
        if (what)
            g_error("seed %u%s limit %" G_GUINT64_FORMAT ": %s run differs from the plain one in "
                    "its %s (status %d/%d, pc 0x%" G_GINT64_MODIFIER "x/0x%" G_GINT64_MODIFIER
                    "x, retired %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT ")",
                    seed, fault ? " (fault)" : "", limit, mode_name[mode], what, got.status,
                    ref.status, got.pc, ref.pc, got.retired, ref.retired);
    }
}

static void test_programs(void)
{
    for (guint32 seed = 1; seed <= 40; seed++)
        compare(seed, seed % 4 == 0, 0);
}

/* An icount limit anywhere: inside a run of pure records, on a memory
 * record, on the loop's branch (machine.md §9.2). */
static void test_limits(void)
{
    for (guint32 seed = 100; seed < 112; seed++) {
        End e;
        run_mode(seed, false, 0, MODE_PLAIN, &e);
        GRand *g = g_rand_new_with_seed(seed);
        for (unsigned k = 0; k < 4; k++)
            compare(seed, false, (uint64_t)g_rand_int_range(g, 1, (gint32)e.retired + 1));
        g_rand_free(g);
    }
}

/* ALU records and branches only, so that the block compiler takes long
 * runs, with branches inside a page and across pages, with and without an
 * icount limit; on a host with stencils, blocks are compiled (also with a
 * debugger attached) and the tiny arena is emptied (else this tests nothing of the compiler). */
static void test_pure_programs(void)
{
    pure_only = true;
    eager_blocks = tiny_flushes = debugger_blocks = 0;
    for (guint32 seed = 200; seed < 230; seed++) {
        compare(seed, false, 0);
        End e;
        run_mode(seed, false, 0, MODE_PLAIN, &e);
        GRand *g = g_rand_new_with_seed(seed);
        for (unsigned k = 0; k < 3; k++)
            compare(seed, false, (uint64_t)g_rand_int_range(g, 1, (gint32)e.retired + 1));
        g_rand_free(g);
    }
    pure_only = false;
    if (seq_jit_available()) {
        g_assert_cmpuint(eager_blocks, >, 100);
        g_assert_cmpuint(tiny_flushes, >, 0);
        g_assert_cmpuint(debugger_blocks, >, 0);
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/seq-observe/programs", test_programs);
    g_test_add_func("/seq-observe/icount-limits", test_limits);
    g_test_add_func("/seq-observe/pure-programs", test_pure_programs);
    return g_test_run();
}
