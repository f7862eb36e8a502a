/*
 * Observation never changes what a TPC kernel does, whichever tier runs it
 * (docs/architecture.rst, "TPC bundles"; the sequencer's twin is
 * test-seq-observe.c).  Seeded random kernels -- an innermost LOOP, alone
 * or nested in an outer one, whose body mixes the forms the loop plans and
 * the block compiler take (VPU lane loops with V, S and immediate operands,
 * VP and SP predicates, SPU compares and adds, LD-slot moves, tensor loads
 * and stores walking their tensors) with forms they leave to the staged
 * path (VPRF compares, selects, st_l into a descriptor, forward jumps) --
 * run on fresh machines:
 *   - staged: a watchpoint no kernel reaches puts every bundle through the
 *     interpreter, with -coverage on (the reference report);
 *   - plain: the default tiers, nobody observing;
 *   - jit: the block compiler eager for every body (NXEMU_TPC_JIT=all),
 *     every fourth kernel with an arena of 1 KiB (flushed and refilled);
 *   - observed: -coverage and -d stats on and gdb attached with
 *     breakpoints outside the loop bodies, default tiers;
 *   - observed+jit: the same with the compiler eager.
 * The registers (every one gdb reads), memory (the kernel's own code
 * included), STATUS, FAULT_PC, FAULT_ADDR, BUNDLES, the core's cycles and
 * retired counts (virtual time) and every slice's end must be the staged
 * run's, both observed runs' coverage JSON the staged run's byte for byte,
 * and the observed runs must run as many bundles by loop plans and
 * compiled bodies as the unobserved ones.  Fixed kernels add a body that
 * stores over its own code while a compiled body of it exists (the old
 * body must not run again), loads walking off the end of memory mid-loop
 * (the fault at the same bundle and trip) and a gdb breakpoint set in a
 * planned or compiled body while the machine is stopped (it must stop
 * there).  TPC_OBSERVE_N / TPC_OBSERVE_SEED: a longer soak by hand.
 */
#include <inttypes.h>
#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "nxemu/debug.h"
#include "nxemu/machine.h"
#include "nxemu/trace.h"
#include "target/tpc/asm.h"
#include "target/tpc/cpu.h"
#include "target/tpc/jit.h"
#include "../tpc/tpc-testlib.h"

#define NKERNELS 1200
#define DATA     0x200000ull /* tensors t0..t4 */
#define DATA_LEN 0x2000u
#define TOP      0x3FFFA00ull /* t3: the last 1.5 KiB of HBM, then nothing */
#define TOP_LEN  0x600u
#define CODE_LEN 0x1000u

/* Descriptor words (tpc.md §3.1): base, E code | valid dims << 8, sizes,
 * strides.  t5 and t6 are the self-modifying kernel's: its body's code and
 * the replacement bytes after its HALT (their bases set per kernel). */
typedef struct Tensor {
    uint64_t base;
    uint32_t config, size0, size1;
    int32_t stride1;
} Tensor;
static Tensor tensors[7] = {
    {DATA, 2 | 1u << 8, 512, 0, 0},            /* E4, 2 KiB */
    {DATA + 0x600, 2 | 3u << 8, 64, 6, 64},    /* E4 64x6, over t0's end */
    {DATA + 0x1000, 1 | 1u << 8, 1024, 0, 0},  /* E2, 2 KiB */
    {TOP, 2 | 1u << 8, 512, 0, 0},             /* E4, 2 KiB: a quarter past the memory */
    {DATA + 0x1800, 0 | 3u << 8, 256, 8, 256}, /* E1 256x8 */
    {KBASE, 2 | 1u << 8, 64, 0, 0},            /* code (self-modifying kernel) */
    {KBASE, 2 | 1u << 8, 64, 0, 0},            /* code (its replacement) */
};

static unsigned pick(GRand *r, unsigned n)
{
    return (unsigned)g_rand_int_range(r, 0, (gint32)n);
}

static void setup(Machine *m, const GByteArray *text, guint32 seed)
{
    for (unsigned t = 0; t < G_N_ELEMENTS(tensors); t++) {
        const Tensor *d = &tensors[t];
        uint64_t o = TPC0 + 0x400 + 0x38 * t;
        const uint32_t w[] = {
            (uint32_t)d->base, (uint32_t)(d->base >> 32), 0, d->config, d->size0, 1,
            d->size1,          (uint32_t)d->stride1};
        for (unsigned i = 0; i < G_N_ELEMENTS(w); i++)
            tt_wr32(m, o + 4 * i, w[i]);
    }
    GRand *r = g_rand_new_with_seed(seed);
    for (uint64_t a = 0; a < DATA_LEN; a += 4)
        tt_wr32(m, DATA + a,
                pick(r, 4) ? (g_rand_int(r) & 0x80FFFFFFu) | 0x3E000000u : g_rand_int(r) % 97);
    for (uint64_t a = 0; a < TOP_LEN; a += 4)
        tt_wr32(m, TOP + a, g_rand_int(r));
    /* S1..S7: f32 at odd numbers, small integers (coordinates) at even;
     * S8: t1's DIM_0_SIZE in the kernel view, S9: a value for it */
    for (unsigned i = 1; i < 8; i++)
        tt_wr32(m, TPC0 + 0x7C0 + 4 * i, i & 1 ? 0x3F800000u + (i << 18) : 4 * i);
    tt_wr32(m, TPC0 + 0x7C0 + 4 * 8, 0x448);
    tt_wr32(m, TPC0 + 0x7C0 + 4 * 9, 48);
    g_rand_free(r);
    tt_load_kernel(m, text->data, text->len);
}

/* ---- kernels ---- */

/* VPU lane-loop forms, then ones without a loop stencil */
static const char *const vops[] = {"mac.f32", "add.f32",  "mul.f32", "sub.f32", "max.f32",
                                   "min.f32", "sub.i32",  "and.i32", "xor.u16", "shl.i32",
                                   "min.u8",  "add.bf16", "max.i16", "add.i32", "or.u32"};
static const char *const spreds[] = {"", "", "", "", ", SP1", ", !SP2"};
static const char *const vpreds[] = {"", "", "", ", VP1", ", !VP2", ", SP1"};

/* A tensor: mostly the long 1-D ones (walks of many trips), t3 (which
 * ends past the memory) now and then. */
static unsigned tensor(GRand *r)
{
    static const uint8_t t[] = {0, 2, 0, 2, 4, 1, 0, 2, 4, 3};
    return t[pick(r, sizeof(t))];
}

/* One bundle of a loop body; left: bundles after it in the body (a jump
 * stays inside); fast: only forms every tier takes. */
static void body_bundle(GString *k, GRand *r, unsigned left, bool fast)
{
    unsigned v = pick(r, 8), ldv = 8, f;
    bool ld_busy = true, st_free = true, imm = true; /* (one immediate a bundle) */
    const char *p = fast ? "" : spreds[pick(r, G_N_ELEMENTS(spreds))];
    /* load slot: a walking load (I2 or I3), a mov of a scalar, or none */
    switch (pick(r, 6)) {
    case 0:
    case 1:
        ldv = (v + 1 + pick(r, 7)) % 8;
        g_string_append_printf(k, "ld_tnsr V%u, 0x%x, I%u%s; ", ldv, tensor(r), 2 + pick(r, 2), p);
        break;
    case 2:
        ldv = (v + 1 + pick(r, 7)) % 8;
        g_string_append_printf(k, "mov.f32 V%u, S%u%s; ", ldv, pick(r, 8), p);
        break;
    default:
        g_string_append(k, "nop; ");
        ld_busy = false;
        p = ""; /* (the store slot shares the predicate field) */
    }
    /* scalar slot: moving a coordinate, a compare for the predicates, an
     * add, a forward jump */
    f = pick(r, 10);
    if (f < 3)
        g_string_append_printf(k, "add.i32 b00001 I%u, 0x%x, I%u; ", 2 + f % 2,
                               pick(r, 3) ? f + 1 : 0xFFFFFFFEu, 2 + f % 2);
    else if (f < 5)
        g_string_append_printf(k, "cmp_less.i32 SP%u, S%u, 0x%x; ", 1 + pick(r, 2),
                               pick(r, 2) ? 32 : 2 * pick(r, 4), pick(r, 24));
    else if (f < 6)
        g_string_append_printf(k, "add.i32 S%u, S%u, 0x4; ", 2 * pick(r, 4), 2 * pick(r, 4));
    else if (f < 7 && left && !fast)
        g_string_append_printf(k, "jmpr 0x%x%s; ", 32 * (1 + pick(r, MIN(left, 2u))),
                               spreds[pick(r, G_N_ELEMENTS(spreds))]);
    else
        g_string_append(k, "nop; "), imm = false;
    /* vector slot: arithmetic of each operand B kind, a compare into a VP,
     * or a select (staged; its operands share the LD and ST fields) */
    f = pick(r, fast ? 8 : 10);
    if (f < 8 && v != ldv) {
        g_string_append_printf(k, "%s V%u, V%u, ", vops[pick(r, G_N_ELEMENTS(vops))], v,
                               pick(r, 8));
        unsigned b = pick(r, 3);
        if (b == 0 || f % 2)
            g_string_append_printf(k, "V%u", pick(r, 8));
        else if (b == 1 || imm)
            g_string_append_printf(k, "S%u", pick(r, 8));
        else
            g_string_append(k, "0x3f400000");
        g_string_append_printf(k, "%s; ", vpreds[pick(r, G_N_ELEMENTS(vpreds))]);
    } else if (f == 8) {
        g_string_append_printf(k, "cmp_grt.f32 VP%u, V%u, V%u; ", 1 + pick(r, 2), pick(r, 8),
                               pick(r, 8));
    } else if (f == 9 && !ld_busy && v != ldv) {
        g_string_append_printf(k, "sel_less.f32 V%u, V%u, V%u, V%u, V%u; ", v, pick(r, 8),
                               pick(r, 8), pick(r, 8), pick(r, 8));
        st_free = false;
    } else {
        g_string_append(k, "nop; ");
    }
    /* store slot: a walking store (its predicate is the load slot's), a
     * descriptor word rewritten, or none */
    f = pick(r, 8);
    if (st_free && f < 3)
        g_string_append_printf(k, "st_tnsr 0x%x, I%u, V%u%s\n", tensor(r), 2 + pick(r, 2),
                               pick(r, 8), p);
    else if (st_free && f == 3 && !fast)
        g_string_append_printf(k, "st_l mmio S8, S9%s\n", p);
    else
        g_string_append(k, "nop\n");
}

static GByteArray *assemble(const char *src)
{
    TpcObject obj;
    tpc_object_init(&obj);
    if (!tpc_assemble_text("observe", src, &obj, stderr))
        g_error("kernel did not assemble:\n%s", src);
    GByteArray *text = g_byte_array_new();
    g_byte_array_append(text, obj.text->data, obj.text->len);
    tpc_object_free(&obj);
    g_assert_cmpuint(text->len, <=, CODE_LEN);
    return text;
}

/* Bundles before the first loop's body: the prologue's four, the LOOP and
 * its delay slot. */
#define PROLOGUE                                                                                   \
    "nop; set_indx I2, b00001, S2; cmp_less.i32 VP1, V_LANE_ID_32, 0x29; nop\n"                    \
    "nop; set_indx I3, b00001, S4; cmp_less.i32 VP2, V_LANE_ID_32, 0x13; nop\n"                    \
    "ld_tnsr V0, 0x0, I2; nop; nop; nop\n"                                                         \
    "ld_tnsr V1, 0x2, I3; nop; nop; nop\n"

static GByteArray *random_kernel(GRand *r, GString *src, uint32_t *body_lo, uint32_t *body_hi)
{
    unsigned nb = 1 + pick(r, pick(r, 3) ? 8 : 24), trips = 2 + pick(r, 30);
    bool nest = pick(r, 3) == 0, fast = pick(r, 3) != 0;
    g_string_assign(src, PROLOGUE);
    unsigned pre = 4;
    if (nest) {
        g_string_append_printf(src, "loop 0x0, 0x%x, 1, <, End2\nnop\n", 2 + pick(r, 3));
        g_string_append(src, "nop; add.i32 b00010 I2, 0x1, I2; nop; nop\n");
        pre += 3;
    }
    g_string_append_printf(src, "loop 0x0, 0x%x, 1, <, End\nnop\n", trips);
    pre += 2;
    for (unsigned b = 0; b < nb; b++)
        body_bundle(src, r, nb - 1 - b, fast && pick(r, 6));
    g_string_append(src, nest ? "End:\nnop\nEnd2:\nhalt\nnop\nnop\nnop\nnop\n"
                              : "End:\nhalt\nnop\nnop\nnop\nnop\n");
    *body_lo = 32 * pre;
    *body_hi = 32 * (pre + nb);
    return assemble(src->str);
}

/* A body of eight bundles that stores, at trip 5, the eight bundles after
 * the HALT over itself (V7, loaded from them by t6): the same compare and
 * store, other arithmetic.  A compiled or planned body of the old code must
 * not run after the store. */
static const char self_mod[] = "nop; nop; nop; nop\n"
                               "nop; nop; nop; nop\n"
                               "ld_tnsr V7, 0x6, I0; nop; nop; nop\n"
                               "ld_tnsr V0, 0x0, I0; nop; nop; nop\n"
                               "loop 0x0, 0x14, 1, <, End\nnop\n"
                               "nop; cmp_eq.i32 SP3, S32, 0x5; add.f32 V1, V1, V0; nop\n"
                               "nop; nop; mul.f32 V2, V1, S1; nop\n"
                               "nop; nop; mac.f32 V3, V2, S3; st_tnsr 0x5, I0, V7, SP3\n"
                               "nop; nop; sub.f32 V4, V4, V3; nop\n"
                               "nop; nop; add.f32 V5, V5, 0x3f000000; nop\n"
                               "nop; nop; max.f32 V6, V5, V4; nop\n"
                               "nop; nop; add.f32 V0, V0, V6; nop\n"
                               "nop; nop; mul.f32 V1, V1, S5; nop\n"
                               "End:\nnop; nop; nop; st_tnsr 0x0, I0, V0\n"
                               "halt\nnop\nnop\nnop\n"
                               "nop; cmp_eq.i32 SP3, S32, 0x5; mul.f32 V1, V1, V0; nop\n"
                               "nop; nop; add.f32 V2, V1, S1; nop\n"
                               "nop; nop; mac.f32 V3, V2, S5; st_tnsr 0x5, I0, V7, SP3\n"
                               "nop; nop; add.f32 V4, V4, V3; nop\n"
                               "nop; nop; sub.f32 V5, V5, 0x3f000000; nop\n"
                               "nop; nop; min.f32 V6, V5, V4; nop\n"
                               "nop; nop; sub.f32 V0, V0, V6; nop\n"
                               "nop; nop; mul.f32 V1, V1, S3; nop\n";

/* Loads of t3 walking off the end of memory (16 lanes a trip, inside the
 * tensor): the fault at trip 21's first bundle, in bodies of every tier. */
static const char walk_off[] = "nop; set_indx I2, b00001, 0x0; nop; nop\n"
                               "loop 0x0, 0x20, 1, <, End\nnop\n"
                               "ld_tnsr V1, 0x3, I2; nop; mac.f32 V2, V1, V1; nop\n"
                               "nop; add.i32 b00001 I2, 0x10, I2; add.f32 V3, V3, V2; nop\n"
                               "End:\nnop; nop; nop; st_tnsr 0x0, I0, V3\n"
                               "halt\nnop\nnop\nnop\n";

/* ---- one run ---- */

enum { MODE_STAGED, MODE_PLAIN, MODE_JIT, MODE_OBSERVED, MODE_OBSERVED_JIT, MODE_COUNT };
static const char *const mode_name[MODE_COUNT] = {"staged", "plain", "jit", "observed",
                                                  "observed+jit"};

/* STATUS, FAULT_PC, FAULT_ADDR and BUNDLES (tpc.md §7.2) */
static const uint32_t cfg_regs[] = {0x100C, 0x1020, 0x1030, 0x1038};
static const char *const cfg_names[] = {"STATUS", "FAULT_PC", "FAULT_ADDR", "BUNDLES"};
#define REG_BYTES 16384

typedef struct End {
    uint32_t cfg[G_N_ELEMENTS(cfg_regs)];
    uint64_t slices, cycles, retired;
    uint8_t regs[REG_BYTES]; /* every register as gdb reads it, in its order */
    uint8_t data[DATA_LEN], top[TOP_LEN], code[CODE_LEN];
} End;

typedef struct Ran {
    uint64_t loop, jit; /* bundles by loop plans (compiled bodies included), compiled */
    GString *cov;       /* the coverage JSON (staged and observed runs) */
} Ran;

static char *tmpdir;

static void read_regs(NxCpu *cpu, uint8_t *regs)
{
    size_t at = 0;
    memset(regs, 0, REG_BYTES);
    for (unsigned n = 0; n < TPC_GDB_NREGS; n++) {
        unsigned len = cpu->ops->gdb_read_reg(cpu, n, regs + at, REG_BYTES - at);
        g_assert_cmpuint(len, >, 0);
        at += len;
    }
}

static void run(const GByteArray *text, guint32 seed, int mode, unsigned slice, uint32_t body_lo,
                uint32_t body_hi, End *e, Ran *ran)
{
    Machine *m = tt_machine();
    setup(m, text, seed);
    NxTrace *tr = NULL;
    NxDebug *d = NULL;
    if (mode != MODE_PLAIN && mode != MODE_JIT) {
        d = nx_debug_new(m);
        m->debug = d;
        if (!tmpdir) /* (the coverage files, removed at the end) */
            tmpdir = g_dir_make_tmp("tpc-observe-XXXXXX", NULL);
        g_assert_nonnull(tmpdir);
        g_autofree char *cov = g_build_filename(tmpdir, "cov.json", NULL);
        NxTraceOptions o = {.coverage = cov, .stats = mode != MODE_STAGED};
        GError *err = NULL;
        tr = trace_new(m, &o, &err);
        g_assert_no_error(err);
    }
    if (mode == MODE_STAGED)
        g_assert_true(nx_debug_wp_insert(d, m->tpc[0], NX_HIT_WATCH, 0x3000000, 0x3000000, 4));
    if (mode == MODE_OBSERVED || mode == MODE_OBSERVED_JIT) {
        /* outside the bodies, never reached: before and after them */
        g_assert_true(nx_debug_bp_insert(d, m->tpc[0], text->len - 64));
        g_assert_true(nx_debug_bp_insert(d, m->tpc[0], text->len - 32));
        g_assert_true(body_hi < text->len - 64 && body_lo > 0);
        uint64_t pcs[8];
        g_assert_cmpint(nx_debug_cpu_breakpoints(m, m->tpc[0], pcs, 8), ==, 2);
    }
    tt_wr32(m, TPC0 + 0x1008, 1);
    NxCpu *cpu = m->tpc[0];
    TpcCpu *c = tpc_cpu(cpu);
    c->x.jit_on = mode == MODE_JIT || mode == MODE_OBSERVED_JIT ? 2 : 0;
    uint64_t slices = 0;
    for (unsigned n = 0; n < 200000 && cpu->state == CPU_RUNNING; n++) {
        uint64_t used = cpu->ops->run(cpu, slice);
        g_assert_cmpuint(used, <=, slice);
        g_assert_true(!d || d->hit == NX_HIT_NONE); /* (no breakpoint was reached) */
        slices = slices * 1000003u + used * 65537u + c->pc;
    }
    g_assert_cmpint(cpu->state, !=, CPU_RUNNING);
    memset(e, 0, sizeof(*e));
    for (unsigned i = 0; i < G_N_ELEMENTS(cfg_regs); i++)
        e->cfg[i] = tt_rd32(m, TPC0 + cfg_regs[i]);
    e->slices = slices;
    e->cycles = c->cycles;
    e->retired = cpu->retired;
    read_regs(cpu, e->regs);
    ran->loop = c->x.loop_total;
    ran->jit = c->x.jit_total;
    ran->cov = NULL;
    if (tr) {
        ran->cov = g_string_new(NULL);
        trace_coverage_json(tr, ran->cov);
        trace_free(tr);
    }
    if (d) {
        m->debug = NULL;
        nx_debug_free(d);
    }
    uint64_t bad;
    g_assert_cmpint(as_rw_bytes(m->as, DATA, e->data, DATA_LEN, false, DBG, &bad), ==, MEMTX_OK);
    g_assert_cmpint(as_rw_bytes(m->as, TOP, e->top, TOP_LEN, false, DBG, &bad), ==, MEMTX_OK);
    g_assert_cmpint(as_rw_bytes(m->as, KBASE, e->code, CODE_LEN, false, DBG, &bad), ==, MEMTX_OK);
    machine_free(m);
}

static const char *differs(const End *a, const End *b)
{
    for (unsigned i = 0; i < G_N_ELEMENTS(cfg_regs); i++)
        if (a->cfg[i] != b->cfg[i])
            return cfg_names[i];
    if (a->slices != b->slices)
        return "slice ends";
    if (a->cycles != b->cycles || a->retired != b->retired)
        return "cycles or retired bundles";
    if (memcmp(a->regs, b->regs, REG_BYTES))
        return "registers";
    if (memcmp(a->data, b->data, DATA_LEN) || memcmp(a->top, b->top, TOP_LEN))
        return "data memory";
    return memcmp(a->code, b->code, CODE_LEN) ? "code memory" : NULL;
}

typedef struct Totals {
    unsigned kernels, faults;
    uint64_t loop[MODE_COUNT], jit[MODE_COUNT];
} Totals;

/* Every mode on one kernel against the staged run. */
static void check_kernel(const GByteArray *text, const char *src, guint32 seed, unsigned slice,
                         uint32_t body_lo, uint32_t body_hi, Totals *t)
{
    End *ref = g_new(End, 1), *e = g_new(End, 1);
    Ran ref_ran, ran;
    tpc_jit_arena_bytes = t->kernels % 4 == 1 ? 1024 : 1u << 20;
    run(text, seed, MODE_STAGED, slice, body_lo, body_hi, ref, &ref_ran);
    g_assert_cmpuint(ref_ran.loop, ==, 0);
    t->faults += (ref->cfg[0] & 3) == 3;
    for (int mode = MODE_PLAIN; mode < MODE_COUNT; mode++) {
        if ((mode == MODE_JIT || mode == MODE_OBSERVED_JIT) && !tpc_jit_available())
            continue;
        run(text, seed, mode, slice, body_lo, body_hi, e, &ran);
        const char *what = differs(ref, e);
        if (what)
            g_error("%s run differs from the staged one in %s (status 0x%x / 0x%x, slices of "
                    "%u, seed %u) for:\n%s",
                    mode_name[mode], what, e->cfg[0], ref->cfg[0], slice, seed, src);
        if (ran.cov && strcmp(ran.cov->str, ref_ran.cov->str))
            g_error("%s run's coverage differs from the staged one's (slices of %u):\n%s\n"
                    "staged:\n%s\n%s:\n%s",
                    mode_name[mode], slice, src, ref_ran.cov->str, mode_name[mode], ran.cov->str);
        t->loop[mode] += ran.loop;
        t->jit[mode] += ran.jit;
        if (ran.cov)
            g_string_free(ran.cov, TRUE);
    }
    /* the observers leave the engine as it is */
    g_string_free(ref_ran.cov, TRUE);
    t->kernels++;
    g_free(ref);
    g_free(e);
}

static const unsigned slices[] = {1000, 7, 64, 1, 1000, 300};

static void test_random(void)
{
    const char *en = g_getenv("TPC_OBSERVE_N"), *es = g_getenv("TPC_OBSERVE_SEED");
    unsigned n = en ? (unsigned)g_ascii_strtoull(en, NULL, 0) : NKERNELS;
    GRand *r = g_rand_new_with_seed(es ? (guint32)g_ascii_strtoull(es, NULL, 0) : 20261207);
    GString *src = g_string_new(NULL);
    Totals t = {0};
    unsigned flushes = tpc_jit_flushes;
    for (unsigned k = 0; k < n; k++) {
        uint32_t lo, hi;
        GByteArray *text = random_kernel(r, src, &lo, &hi);
        check_kernel(text, src->str, g_rand_int(r), slices[k % G_N_ELEMENTS(slices)], lo, hi, &t);
        g_byte_array_free(text, TRUE);
    }
    g_test_message(
        "%u kernels, %u faulted; bundles by loop plans and compiled bodies: plain %" PRIu64
        ", observed %" PRIu64 ", jit %" PRIu64 " (compiled %" PRIu64 "), observed+jit %" PRIu64
        " (compiled %" PRIu64 "); %u arena flushes",
        t.kernels, t.faults, t.loop[MODE_PLAIN], t.loop[MODE_OBSERVED], t.loop[MODE_JIT],
        t.jit[MODE_JIT], t.loop[MODE_OBSERVED_JIT], t.jit[MODE_OBSERVED_JIT],
        tpc_jit_flushes - flushes);
    /* the observers run the fast tiers as the unobserved run does */
    g_assert_cmpuint(t.loop[MODE_OBSERVED], ==, t.loop[MODE_PLAIN]);
    g_assert_cmpuint(t.loop[MODE_OBSERVED_JIT], ==, t.loop[MODE_JIT]);
    g_assert_cmpuint(t.jit[MODE_OBSERVED_JIT], ==, t.jit[MODE_JIT]);
    if (!en) {
        g_assert_cmpuint(t.loop[MODE_PLAIN], >, 8u * n);
        g_assert_cmpuint(t.faults, >, 0);
        g_assert_cmpuint(t.faults, <, n / 2);
        if (tpc_jit_available()) {
            g_assert_cmpuint(t.jit[MODE_JIT], >, 8u * n);
            g_assert_cmpuint(tpc_jit_flushes - flushes, >, 0);
        }
    }
    g_string_free(src, TRUE);
    g_rand_free(r);
}

static void fixed_kernel(const char *src, uint32_t body_lo, uint32_t body_hi, bool fault)
{
    GByteArray *text = assemble(src);
    Totals t = {0};
    for (unsigned k = 0; k < G_N_ELEMENTS(slices); k++)
        check_kernel(text, src, 7 + k, slices[k], body_lo, body_hi, &t);
    g_assert_cmpuint(t.faults, ==, fault ? G_N_ELEMENTS(slices) : 0);
    g_assert_cmpuint(t.loop[MODE_OBSERVED], >, 0);
    if (tpc_jit_available())
        g_assert_cmpuint(t.jit[MODE_JIT], >, 0);
    g_byte_array_free(text, TRUE);
}

static void test_self_modifying(void)
{
    /* t5: the body (bundles 6..13), t6: its replacement (19..26) */
    tensors[5].base = KBASE + 6 * 32;
    tensors[6].base = KBASE + 19 * 32;
    fixed_kernel(self_mod, 6 * 32, 14 * 32, false);
    tensors[5].base = tensors[6].base = KBASE;
}

static void test_walk_off(void)
{
    fixed_kernel(walk_off, 3 * 32, 5 * 32, true);
}

/* gdb: a loop whose body runs by loop plans or compiled code while no
 * breakpoint lies in it, stopped between two slices (as gdb stops the
 * machine) and given a breakpoint in its body, stops there within one trip
 * (the plans and compiled bodies check at their entry), and, the
 * breakpoint removed and the machine resumed, ends as the staged run. */
static const char long_loop[] = "loop 0x0, 0x800, 1, <, End\nnop\n"
                                "nop; nop; mac.f32 V1, V1, S1; nop\n"
                                "nop; nop; add.f32 V2, V2, V1; nop\n"
                                "nop; nop; mul.f32 V3, V2, 0x3f000000; nop\n"
                                "End:\nnop; nop; nop; st_tnsr 0x0, I0, V3\n"
                                "halt\nnop\nnop\nnop\n";

static void breakpoint_in_body(bool jit)
{
    GByteArray *text = assemble(long_loop);
    End *ref = g_new(End, 1);
    Ran ref_ran;
    tpc_jit_arena_bytes = 1u << 20;
    run(text, 3, MODE_STAGED, 1000, 64, 160, ref, &ref_ran);
    g_string_free(ref_ran.cov, TRUE);

    Machine *m = tt_machine();
    setup(m, text, 3);
    NxDebug *d = nx_debug_new(m);
    m->debug = d;
    tt_wr32(m, TPC0 + 0x1008, 1);
    NxCpu *cpu = m->tpc[0];
    TpcCpu *c = tpc_cpu(cpu);
    c->x.jit_on = jit ? 2 : 0;
    /* no breakpoint: the body runs by plans (or compiled) */
    g_assert_cmpuint(cpu->ops->run(cpu, 1000), ==, 1000);
    g_assert_cmpuint(c->x.loop_total, >, 900);
    if (jit && tpc_jit_available())
        g_assert_cmpuint(c->x.jit_total, >, 900);
    uint32_t trips = c->s[32];
    /* stopped at a slice's end, a breakpoint on the body's second bundle */
    g_assert_true(nx_debug_bp_insert(d, cpu, 96));
    uint64_t used = cpu->ops->run(cpu, 100000);
    g_assert_cmpuint(used, <=, 3);
    g_assert_true(m->stop);
    g_assert_cmpint(d->hit, ==, NX_HIT_BREAK);
    g_assert_cmpuint(d->hit_addr, ==, 96);
    g_assert_cmpuint(c->pc, ==, 96);
    g_assert_cmpuint(c->s[32], <=, trips + 1);
    /* removed, resumed: to the end as the staged run */
    g_assert_true(nx_debug_bp_remove(d, cpu, 96));
    nx_debug_clear_hit(d);
    m->stop = false;
    m->stop_reason = STOP_NONE;
    while (cpu->state == CPU_RUNNING)
        cpu->ops->run(cpu, 1000);
    g_assert_cmpuint(c->x.loop_total, >, 4000);
    g_assert_cmpuint(tt_rd32(m, TPC0 + 0x100C), ==, ref->cfg[0]);
    g_assert_cmpuint(tt_rd32(m, TPC0 + 0x1038), ==, ref->cfg[3]);
    g_assert_cmpuint(c->cycles, ==, ref->cycles);
    uint8_t *regs = g_malloc(REG_BYTES);
    read_regs(cpu, regs);
    g_assert_cmpmem(regs, REG_BYTES, ref->regs, REG_BYTES);
    g_free(regs);
    m->debug = NULL;
    nx_debug_free(d);
    machine_free(m);
    g_free(ref);
    g_byte_array_free(text, TRUE);
}

static void test_breakpoint_in_body(void)
{
    breakpoint_in_body(false);
}

static void test_breakpoint_in_compiled_body(void)
{
    breakpoint_in_body(true);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/tpc-observe/self-modifying", test_self_modifying);
    g_test_add_func("/tpc-observe/walk-off-memory", test_walk_off);
    g_test_add_func("/tpc-observe/breakpoint-in-body", test_breakpoint_in_body);
    g_test_add_func("/tpc-observe/breakpoint-in-compiled-body", test_breakpoint_in_compiled_body);
    g_test_add_func("/tpc-observe/random-kernels", test_random);
    int rc = g_test_run();
    if (tmpdir) {
        g_autofree char *cov = g_build_filename(tmpdir, "cov.json", NULL);
        g_autofree char *txt = g_strconcat(cov, ".txt", NULL);
        g_remove(cov);
        g_remove(txt);
        g_rmdir(tmpdir);
        g_free(tmpdir);
    }
    return rc;
}
