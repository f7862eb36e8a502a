/*
 * The TPC fast paths (cached descriptors, cached host spans, quick
 * executors, skipped bundle-conflict checks) seen from outside, in the
 * situations a single kernel run of tests/tpc cannot set up: things that
 * change between bundles or between launches (access observers installed
 * and removed mid-run, pages marked as code by another core, descriptors
 * and memory rewritten by the sequencer between launches) and the
 * bundle-conflict rules of tpc.md §6.1 with -tpc-strict.  Kernels are
 * assembled with the nxemu assembler; expected values come from tpc.md.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "nxemu/debug.h"
#include "nxemu/machine.h"
#include "target/tpc/asm.h"
#include "target/tpc/cpu.h"
#include "target/tpc/vlane.h"
#include "../tpc/tpc-testlib.h"

#define SRC 0x200000ull
#define DST 0x300000ull

/* Descriptor t through the machine window: i32, one valid dim of n
 * elements, stride 1 (tpc.md §3.1). */
static void tensor1d(Machine *m, unsigned t, uint64_t base, uint32_t n, uint32_t pad)
{
    uint64_t o = TPC0 + 0x400 + 0x38 * t;
    tt_wr32(m, o, (uint32_t)base);
    tt_wr32(m, o + 4, (uint32_t)(base >> 32));
    tt_wr32(m, o + 8, pad);
    tt_wr32(m, o + 0xC, 2 | 1u << 8);
    tt_wr32(m, o + 0x10, n);
    tt_wr32(m, o + 0x14, 1);
}

/* Assemble text into KBASE and program KERNEL_BASE/SIZE (no launch). */
static void load(Machine *m, const char *text)
{
    TpcObject obj;
    tpc_object_init(&obj);
    g_assert_true(tpc_assemble_text("kernel", text, &obj, stderr));
    uint64_t bad;
    g_assert_cmpint(as_rw_bytes(m->as, KBASE, obj.text->data, obj.text->len, true,
                                MEMTXATTRS(MEM_REQ_LOADER, 0), &bad),
                    ==, MEMTX_OK);
    tt_wr32(m, TPC0 + 0x788, (uint32_t)KBASE);
    tt_wr32(m, TPC0 + 0x78C, 0);
    tt_wr32(m, TPC0 + 0x1028, obj.text->len);
    tpc_object_free(&obj);
}

static void launch(Machine *m)
{
    tt_wr32(m, TPC0 + 0x1008, 1);
    g_assert_cmpint(m->tpc[0]->state, ==, CPU_RUNNING);
}

static void run_to_end(Machine *m)
{
    NxCpu *cpu = m->tpc[0];
    for (unsigned i = 0; i < 100000 && cpu->state == CPU_RUNNING; i++)
        cpu->ops->run(cpu, 64);
    g_assert_cmpint(cpu->state, !=, CPU_RUNNING);
}

/* Run single bundles until PC reaches pc (the bundle at pc not run). */
static void run_until_pc(Machine *m, uint32_t pc)
{
    NxCpu *cpu = m->tpc[0];
    TpcCpu *c = tpc_cpu(cpu);
    for (unsigned i = 0; i < 10000 && c->pc != pc; i++) {
        g_assert_cmpint(cpu->state, ==, CPU_RUNNING);
        cpu->ops->run(cpu, 1);
    }
    g_assert_cmphex(c->pc, ==, pc);
}

/* Rewrite the bundle at KBASE + off as a DMA engine would. */
static void patch_bundle(Machine *m, uint64_t off, const char *text)
{
    TpcObject obj;
    tpc_object_init(&obj);
    g_assert_true(tpc_assemble_text("patch", text, &obj, stderr));
    uint64_t bad;
    g_assert_cmpint(as_rw_bytes(m->as, KBASE + off, obj.text->data, TPC_BUNDLE, true,
                                MEMTXATTRS(MEM_REQ_DMA, 0), &bad),
                    ==, MEMTX_OK);
    tpc_object_free(&obj);
}

static uint32_t status(Machine *m)
{
    return tt_rd32(m, TPC0 + 0x100C);
}

/* ---- access observers installed and removed mid-run ---- */

typedef struct Seen {
    uint64_t lo, hi;  /* range of interest */
    uint64_t rd, wr;  /* TPC bytes read / written in it */
    uint64_t last_wr; /* highest address written + 1 */
} Seen;

static void seen_hook(void *opaque, uint64_t addr, unsigned size, bool is_write, MemTxAttrs attrs)
{
    Seen *s = opaque;
    if (attrs.kind != MEM_REQ_TPC || addr + size <= s->lo || addr >= s->hi)
        return;
    if (is_write) {
        s->wr += size;
        s->last_wr = MAX(s->last_wr, addr + size);
    } else {
        s->rd += size;
    }
}

/* Iteration k (0..7) copies SRC vector k to DST vector k with the fast
 * forms (tpc.md §3.3; the store reads I2 before the SPU's add commits).  The LOOP is at 0, its body
 * 0x40..0x60: after 2 iterations an observer is installed, after 3 more it is removed; it must have
 * seen exactly those 3 iterations' loads and stores (3 x 256 bytes each way, the last store, of
 * iteration 4, ending at DST + 5*256), and the copy must be complete and correct (behaviour does
 * not depend on observers). */
static const char copy_kernel[] = "loop 0x0, 0x8, 1, <, End\n"
                                  "nop\n"
                                  "ld_tnsr V1, 0x0, I2; nop; nop; nop\n"
                                  "nop; add.i32 b00001 I2, 0x40, I2; nop; st_tnsr 0x1, I2, V1\n"
                                  "End:\n"
                                  "halt\nnop\nnop\nnop\n";

static void test_observer_midrun(void)
{
    Machine *m = tt_machine();
    tensor1d(m, 0, SRC, 512, 0);
    tensor1d(m, 1, DST, 1024, 0);
    for (uint32_t i = 0; i < 512; i++)
        tt_wr32(m, SRC + 4 * i, 1000 + i);
    load(m, copy_kernel);
    launch(m);
    Seen s = {.lo = SRC, .hi = DST + 0x1000};
    TpcCpu *c = tpc_cpu(m->tpc[0]);
    run_until_pc(m, 0x40); /* LOOP and its delay slot done */
    for (unsigned it = 0; it < 2; it++) {
        m->tpc[0]->ops->run(m->tpc[0], 1);
        run_until_pc(m, 0x40);
    }
    g_assert_cmpuint(c->s[32], ==, 2);
    g_assert_true(as_add_access_hook(m->as, seen_hook, &s));
    for (unsigned it = 0; it < 3; it++) {
        m->tpc[0]->ops->run(m->tpc[0], 1);
        run_until_pc(m, 0x40);
    }
    g_assert_cmpuint(c->s[32], ==, 5);
    as_remove_access_hook(m->as, seen_hook, &s);
    run_to_end(m);
    g_assert_cmphex(status(m), ==, 2);
    g_assert_cmpuint(s.rd, ==, 3 * 256);
    g_assert_cmpuint(s.wr, ==, 3 * 256);
    g_assert_cmphex(s.last_wr, ==, DST + 5 * 256);
    for (uint32_t i = 0; i < 640; i++) {
        uint32_t exp = i < 512 ? 1000 + i : 0;
        if (tt_rd32(m, DST + 4 * i) != exp)
            g_error("DST[%u] = %u, expected %u", i, tt_rd32(m, DST + 4 * i), exp);
    }
    machine_free(m);
}

/* A debugger attached mid-run (docs/gdb.rst: a core's own watchpoint
 * stops it before the bundle that would touch the watched bytes): after two
 * fast iterations of copy_kernel, a write watchpoint on lane 3 of DST
 * vector 4 stops TPC 0 on the storing bundle (0x60) of iteration 4 with
 * that store not done (vector 3 written, vector 4 not); without the
 * watchpoint the run completes the copy. */
static void test_debugger_midrun(void)
{
    Machine *m = tt_machine();
    tensor1d(m, 0, SRC, 512, 0);
    tensor1d(m, 1, DST, 512, 0);
    for (uint32_t i = 0; i < 512; i++)
        tt_wr32(m, SRC + 4 * i, 1000 + i);
    load(m, copy_kernel);
    launch(m);
    NxCpu *cpu = m->tpc[0];
    TpcCpu *c = tpc_cpu(cpu);
    run_until_pc(m, 0x40);
    for (unsigned it = 0; it < 2; it++) {
        cpu->ops->run(cpu, 1);
        run_until_pc(m, 0x40);
    }
    NxDebug *d = nx_debug_new(m);
    m->debug = d;
    uint64_t pa = DST + 4 * 256 + 12, gaddr = pa - KBASE;
    g_assert_true(nx_debug_wp_insert(d, cpu, NX_HIT_WATCH, gaddr, pa, 4));
    for (unsigned i = 0; i < 100 && !m->stop && cpu->state == CPU_RUNNING; i++)
        cpu->ops->run(cpu, 64);
    g_assert_true(m->stop);
    g_assert_cmpint(d->hit, ==, NX_HIT_WATCH);
    g_assert_cmphex(c->pc, ==, 0x60);
    g_assert_cmpuint(c->s[32], ==, 4);
    g_assert_cmpuint(tt_rd32(m, DST + 3 * 256), ==, 1000 + 3 * 64);
    g_assert_cmpuint(tt_rd32(m, DST + 4 * 256), ==, 0);
    g_assert_cmpuint(tt_rd32(m, pa), ==, 0);
    g_assert_true(nx_debug_wp_remove(d, cpu, NX_HIT_WATCH, gaddr, 4));
    nx_debug_clear_hit(d);
    m->stop = false;
    m->stop_reason = STOP_NONE;
    run_to_end(m);
    g_assert_cmphex(status(m), ==, 2);
    for (uint32_t i = 0; i < 512; i++)
        g_assert_cmpuint(tt_rd32(m, DST + 4 * i), ==, 1000 + i);
    m->debug = NULL;
    nx_debug_free(d);
    machine_free(m);
}

/* ---- a page of the store's region marked as code by another core ---- */

/* The kernel stores V1 (all 7) at DST (page 0x300000) and then at DST +
 * 0x1000 (the next page).  Between the two, the test marks the second page
 * as code (as a sequencer's decode cache does).  The second store must go
 * through the slow path, which clears the mark; a store through a stale
 * cached span would leave it set (as_host_ptr for writing stays NULL). */
static void test_code_page_midrun(void)
{
    Machine *m = tt_machine();
    tensor1d(m, 1, DST, 4096, 0);
    load(m, "nop; set_indx I3, b00001, 0x400; mov.i32 V1, S1; nop\n"
            "nop; nop; nop; st_tnsr 0x1, I2, V1\n"
            "nop; nop; nop; st_tnsr 0x1, I3, V1\n"
            "halt\nnop\nnop\nnop\n");
    tt_wr32(m, TPC0 + 0x7C0 + 4, 7); /* S1 */
    launch(m);
    run_until_pc(m, 0x40);
    g_assert_cmpuint(tt_rd32(m, DST), ==, 7);
    as_mark_code(m->as, DST + 0x1000, 32);
    g_assert_null(as_host_ptr(m->as, DST + 0x1000, 4, true, 0));
    run_to_end(m);
    g_assert_cmphex(status(m), ==, 2);
    g_assert_cmpuint(tt_rd32(m, DST + 0x1000), ==, 7);
    g_assert_cmpuint(tt_rd32(m, DST + 0x10FC), ==, 7);
    g_assert_nonnull(as_host_ptr(m->as, DST + 0x1000, 4, true, 0));
    machine_free(m);
}

/* ---- descriptors and memory changed by the sequencer between launches ---- */

/* One kernel (decoded once, its bundles stay in the decode cache) launched
 * three times: tpc.md §7.2 "Descriptors ... stay live" and §3.1 "read at
 * each instruction": a descriptor rewritten through the window between
 * launches is used by the next launch, and so is memory written in between.
 *   launch 1: tensor 0 at SRC       -> V1 lane 0 = 1000
 *   launch 2: tensor 0 at SRC + 256 -> V1 lane 0 = 1064
 *   launch 3: same descriptor, memory rewritten, DIM_0_SIZE = 10 with
 *             padding 0xAB -> lanes 0..9 new data, 10..63 padding */
/* Code rewritten by someone else while the kernel runs (a loader, DMA or
 * the sequencer between two TPC slices): the decoded bundle must not be
 * reused, although direct bundles skip the byte compare while the kernel's
 * pages stay marked as code. */
static void test_code_rewritten_midrun(void)
{
    Machine *m = tt_machine();
    load(m, "loop 0x0, 0x100000, 1, <, End\n"
            "nop\n"
            "nop; set_indx I3, b00001, 0x5; nop; nop\n"
            "nop\n"
            "End:\n"
            "halt\nnop\nnop\nnop\n");
    launch(m);
    NxCpu *cpu = m->tpc[0];
    TpcCpu *c = tpc_cpu(cpu);
    for (unsigned i = 0; i < 8; i++)
        cpu->ops->run(cpu, 64);
    g_assert_true(c->x.code_marked); /* the path under test: no byte compares */
    g_assert_cmpint(c->irf[3][0], ==, 5);

    run_until_pc(m, 0x60);
    patch_bundle(m, 64, "nop; set_indx I3, b00001, 0x9; nop; nop\n");
    /* slices of two bundles from the NOP at 0x60: each starts with a
     * general step (after a slice nothing is cached) and runs the patched
     * bundle at 0x40 as its second, direct one */
    for (unsigned i = 0; i < 8; i++)
        cpu->ops->run(cpu, 2);
    g_assert_cmphex(c->pc, ==, 0x60);
    g_assert_cmpint(cpu->state, ==, CPU_RUNNING);
    g_assert_cmpint(c->irf[3][0], ==, 9);
    /* after a write the core compares bytes until its next launch */
    g_assert_false(c->x.code_marked);
    /* ... so a second rewrite, which no hook reports, is still noticed */
    patch_bundle(m, 64, "nop; set_indx I3, b00001, 0xB; nop; nop\n");
    for (unsigned i = 0; i < 8; i++)
        cpu->ops->run(cpu, 2);
    g_assert_cmpint(c->irf[3][0], ==, 11);
    machine_free(m);
}

/* A write next to the kernel, in one of its pages but outside its bytes,
 * unmarks that page too: a later rewrite of the kernel must still be seen. */
static void test_code_page_neighbour(void)
{
    Machine *m = tt_machine();
    load(m, "loop 0x0, 0x100000, 1, <, End\n"
            "nop\n"
            "nop; set_indx I3, b00001, 0x5; nop; nop\n"
            "nop\n"
            "End:\n"
            "halt\nnop\nnop\nnop\n");
    launch(m);
    NxCpu *cpu = m->tpc[0];
    TpcCpu *c = tpc_cpu(cpu);
    run_until_pc(m, 0x60);
    for (unsigned i = 0; i < 4; i++)
        cpu->ops->run(cpu, 2);
    g_assert_cmpint(c->irf[3][0], ==, 5);
    /* same 4 KiB page, after the kernel's last byte */
    g_assert_cmpint(as_write(m->as, KBASE + 0x800, 4, 0xABCD, MEMTXATTRS(MEM_REQ_DMA, 0)), ==,
                    MEMTX_OK);
    cpu->ops->run(cpu, 2);
    patch_bundle(m, 64, "nop; set_indx I3, b00001, 0x9; nop; nop\n");
    for (unsigned i = 0; i < 4; i++)
        cpu->ops->run(cpu, 2);
    g_assert_cmphex(c->pc, ==, 0x60);
    g_assert_cmpint(c->irf[3][0], ==, 9);
    machine_free(m);
}

static void test_desc_between_launches(void)
{
    Machine *m = tt_machine();
    tensor1d(m, 0, SRC, 512, 0xAB);
    for (uint32_t i = 0; i < 512; i++)
        tt_wr32(m, SRC + 4 * i, 1000 + i);
    load(m, "ld_tnsr V1, 0x0, I2; nop; nop; nop\nhalt\nnop\nnop\nnop\n");
    TpcCpu *c = tpc_cpu(m->tpc[0]);
    uint32_t v;

    launch(m);
    run_to_end(m);
    g_assert_cmphex(status(m), ==, 2);
    memcpy(&v, c->v[1], 4);
    g_assert_cmpuint(v, ==, 1000);
    memcpy(&v, c->v[1] + 252, 4);
    g_assert_cmpuint(v, ==, 1063);

    tt_wr32(m, TPC0 + 0x400, (uint32_t)(SRC + 256));
    launch(m);
    run_to_end(m);
    memcpy(&v, c->v[1], 4);
    g_assert_cmpuint(v, ==, 1064);

    for (uint32_t i = 0; i < 64; i++)
        tt_wr32(m, SRC + 256 + 4 * i, 5000 + i);
    tt_wr32(m, TPC0 + 0x410, 10);
    launch(m);
    run_to_end(m);
    g_assert_cmphex(status(m), ==, 2);
    for (unsigned i = 0; i < 64; i++) {
        memcpy(&v, c->v[1] + 4 * i, 4);
        g_assert_cmpuint(v, ==, i < 10 ? 5000 + i : 0xAB);
    }
    machine_free(m);
}

/* ---- bundle conflicts (tpc.md §6.1) after conflict-free executions ---- */

/* A 3-iteration loop whose body is
 *   0x40: cmp_grt.i32 SP1, S32, 0  (false in the first iteration)
 *   0x60: ld_tnsr V1 (fast) | add.i32 S5 += 1 | add.f32 V1 = V2 + V2 if SP1
 * The first execution of 0x60 writes V1 and S5 only (conflict-free, with
 * two writers); the second and third have LD and VPU both writing V1.
 * Default: the later slot (VPU) wins, S5 = 3, and the warning line is
 * printed once for PC 0x60.  -tpc-strict: BUNDLE_CONFLICT (12) at 0x60 in
 * the second iteration, FAULT_INFO = slot-independent register encoding 1
 * (V1, §4.2), nothing of that bundle committed (S5 = 1). */
static const char conflict_kernel[] = "loop 0x0, 0x3, 1, <, End\n"
                                      "nop\n"
                                      "nop; cmp_grt.i32 SP1, S32, 0x0; nop; nop\n"
                                      "ld_tnsr V1, 0x0, I2; add.i32 S5, S5, 0x1; "
                                      "add.f32 V1, V2, V2, SP1; nop\n"
                                      "End:\n"
                                      "halt\nnop\nnop\nnop\n";

static Machine *conflict_machine(void)
{
    Machine *m = tt_machine();
    tensor1d(m, 0, SRC, 64, 0);
    for (uint32_t i = 0; i < 64; i++)
        tt_wr32(m, SRC + 4 * i, 0x3F800000); /* 1.0f */
    load(m, conflict_kernel);
    return m;
}

static void conflict_default_child(void)
{
    Machine *m = conflict_machine();
    TpcCpu *c = tpc_cpu(m->tpc[0]);
    launch(m);
    run_to_end(m);
    g_assert_cmphex(status(m), ==, 2);
    g_assert_cmpuint(c->s[5], ==, 3);
    uint32_t v;
    memcpy(&v, c->v[1], 4);
    g_assert_cmphex(v, ==, 0); /* V2 + V2 = 0.0, not the loaded 1.0 */
    /* a second launch of the same decoded kernel: no new warning */
    launch(m);
    run_to_end(m);
    machine_free(m);
}

static void test_conflict_warn_once(void)
{
    if (g_test_subprocess()) {
        conflict_default_child();
        return;
    }
    g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
    g_test_trap_assert_passed();
    g_test_trap_assert_stderr("nxemu: warning: tpc=0 bundle-conflict pc=0x00000060\n");
}

static void test_conflict_strict(void)
{
    Machine *m = conflict_machine();
    TpcCpu *c = tpc_cpu(m->tpc[0]);
    tpc_cpu_set_strict(m, true);
    launch(m);
    run_to_end(m);
    g_assert_cmphex(status(m), ==, 3 | 12 << 8);
    g_assert_cmphex(tt_rd32(m, TPC0 + 0x1020), ==, 0x60);
    g_assert_cmphex(tt_rd32(m, TPC0 + 0x1024), ==, 1);
    g_assert_cmpuint(c->s[5], ==, 1);
    g_assert_cmpuint(c->s[32], ==, 1);
    uint32_t v;
    memcpy(&v, c->v[1], 4);
    g_assert_cmphex(v, ==, 0x3F800000); /* iteration 1's load only */
    machine_free(m);
}

/* Non-strict runs first (the conflicting bundle warned and ran), then the
 * same machine switches to strict: the next launch of the same decoded
 * bundle must fault, whatever the first launch recorded. */
static void strict_after_default_child(void)
{
    Machine *m = conflict_machine();
    launch(m);
    run_to_end(m);
    g_assert_cmphex(status(m), ==, 2);
    tpc_cpu_set_strict(m, true);
    launch(m);
    run_to_end(m);
    g_assert_cmphex(status(m), ==, 3 | 12 << 8);
    g_assert_cmphex(tt_rd32(m, TPC0 + 0x1020), ==, 0x60);
    machine_free(m);
}

static void test_conflict_strict_after_default(void)
{
    if (g_test_subprocess()) {
        strict_after_default_child();
        return;
    }
    g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
    g_test_trap_assert_passed();
}

/* ---- f32 vector arithmetic against a scalar reference ---- */

/* tpc.md §5.0.4: IEEE binary32 with round-to-nearest-even, denormals kept,
 * any NaN result 0x7FC00000; SUB `neg` (SW bit 1) is b - a.  One lane at a
 * time in scalar C arithmetic, which is IEEE binary32 RNE on the host. */
static uint32_t f32_ref(unsigned op, unsigned sw, uint32_t a, uint32_t b)
{
    volatile float x, y; /* no constant folding or contraction */
    memcpy((void *)&x, &a, 4);
    memcpy((void *)&y, &b, 4);
    float r = op == 1 ? x * y : op == 2 ? x + y : (sw & 2u) ? y - x : x - y;
    uint32_t bits;
    memcpy(&bits, &r, 4);
    return isnan(r) ? 0x7FC00000u : bits;
}

static uint32_t f32_sample(GRand *r)
{
    static const uint32_t special[] = {0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000,
                                       0xFFC00000, 0x7F800001, 0xFFBFFFFF, 0x7FC12345, 0x00000001,
                                       0x80000001, 0x007FFFFF, 0x00800000, 0x7F7FFFFF, 0xFF7FFFFF,
                                       0x3F800000, 0x33800000, 0x34000000, 0xBF800000, 0x3F800001};
    switch (g_rand_int_range(r, 0, 4)) {
    case 0:
        return special[g_rand_int_range(r, 0, G_N_ELEMENTS(special))];
    case 1: /* near 1.0: sums and differences that round */
        return 0x3F800000u + (g_rand_int(r) & 0x00FFFFFFu) - 0x00800000u;
    case 2: /* tiny: denormal products and sums */
        return (g_rand_int(r) & 0x80000000u) | (g_rand_int(r) & 0x01FFFFFFu);
    default: /* anything, NaN payloads included */
        return g_rand_int(r);
    }
}

/* tpc_vl_arith (the direct and general executors' f32 loops, compiled per
 * host ISA) lane by lane against f32_ref, with B a register image and a
 * broadcast scalar, for MUL, ADD, SUB and SUB neg. */
static void check_f32_vec(const char *which, unsigned seed)
{
    GRand *r = g_rand_new_with_seed(seed);
    uint32_t a[64], b[64], sbv[64], out[64];
    for (unsigned n = 0; n < 400; n++) {
        for (unsigned i = 0; i < 64; i++) {
            a[i] = f32_sample(r);
            b[i] = f32_sample(r);
        }
        uint32_t sb = f32_sample(r);
        for (unsigned i = 0; i < 64; i++)
            sbv[i] = sb;
        for (unsigned form = 0; form < 8; form++) {
            unsigned op = (form & 3) == 3 ? 3 : 1 + (form & 3), sw = (form & 3) == 3 ? 2 : 0;
            bool scalar = form >= 4;
            g_assert_true(tpc_vl_arith(op, TPC_T_F32, sw, (uint8_t *)out, (const uint8_t *)a,
                                       (const uint8_t *)(scalar ? sbv : b), NULL, NULL, NULL));
            for (unsigned i = 0; i < 64; i++) {
                uint32_t exp = f32_ref(op, sw, a[i], scalar ? sb : b[i]);
                if (out[i] != exp)
                    g_error("%s: op %u sw %u lane %u: 0x%08x op 0x%08x = 0x%08x, expected 0x%08x",
                            which, op, sw, i, a[i], scalar ? sb : b[i], out[i], exp);
            }
        }
    }
    g_rand_free(r);
}

/* the loops this host uses */
static void test_f32_vec_reference(void)
{
    tpc_vl_select(false);
    check_f32_vec("host loops", 5);
}

/* The loops are compiled per host ISA and chosen once, at the first call,
 * from the CPU's features; test-f32-vec-reference checks the one this host
 * uses.  The baseline ones, forced. */
static void test_f32_vec_baseline_clone(void)
{
    tpc_vl_select(true);
    check_f32_vec("baseline loops", 6);
    tpc_vl_select(false);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/tpc-fast/f32-vec-reference", test_f32_vec_reference);
    g_test_add_func("/tpc-fast/f32-vec-baseline-clone", test_f32_vec_baseline_clone);
    g_test_add_func("/tpc-fast/observer-midrun", test_observer_midrun);
    g_test_add_func("/tpc-fast/debugger-midrun", test_debugger_midrun);
    g_test_add_func("/tpc-fast/code-page-midrun", test_code_page_midrun);
    g_test_add_func("/tpc-fast/code-rewritten-midrun", test_code_rewritten_midrun);
    g_test_add_func("/tpc-fast/code-page-neighbour", test_code_page_neighbour);
    g_test_add_func("/tpc-fast/desc-between-launches", test_desc_between_launches);
    g_test_add_func("/tpc-fast/conflict-warn-once", test_conflict_warn_once);
    g_test_add_func("/tpc-fast/conflict-strict", test_conflict_strict);
    g_test_add_func("/tpc-fast/conflict-strict-after-default", test_conflict_strict_after_default);
    return g_test_run();
}
