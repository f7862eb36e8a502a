/*
 * gdb watchpoints on TPC global-memory accesses (docs/gdb.rst,
 * "Watchpoints"): a core's own watchpoint stops it BEFORE the bundle that
 * would touch the watched bytes (pc on that bundle, nothing of it
 * committed, not retired); only bytes the access really touches count;
 * a watchpoint set by another core is reported after the access by the
 * memory API's access hook.  Real machine, hand-encoded bundles (tpc.md
 * §4), debugger state attached as the gdb stub does (m->debug).
 */
#include "nxemu/debug.h"
#include "tpc-harness.h"

typedef struct {
    Machine *m;
    NxDebug *d;
    NxCpu *cpu; /* TPC 0 */
} Fix;

static void fix_init(Fix *f)
{
    f->m = mk();
    f->d = nx_debug_new(f->m);
    f->m->debug = f->d;
    f->cpu = f->m->tpc[0];
}

static void fix_free(Fix *f)
{
    f->m->debug = NULL;
    nx_debug_free(f->d);
    machine_free(f->m);
}

/* Place k (followed by HALT and three NOPs) and launch TPC 0 without
 * running it. */
static void launch(Fix *f, const Bun *k, unsigned n)
{
    Bun all[16];
    g_assert_cmpuint(n + 4, <=, 16);
    memcpy(all, k, sizeof(Bun) * n);
    all[n] = halt();
    for (unsigned i = 1; i < 4; i++)
        all[n + i] = nop();
    put(f->m, KBASE, all, 32ull * (n + 4));
    kv(f->m, 0, 0x788, (uint32_t)KBASE);
    kv(f->m, 0, 0x78C, 0);
    wr32(f->m, TPC_PA(0) + 0x1008, 1);
    g_assert_cmpint(f->cpu->state, ==, CPU_RUNNING);
}

/* One scheduler slice of TPC 0, as the run loop gives it. */
static void slice(Fix *f)
{
    f->cpu->ops->run(f->cpu, 64);
}

/* gdb's resume: the stop is consumed, the watchpoint removed. */
static void resume_without(Fix *f, NxCpu *owner, NxDebugHit type, uint64_t gaddr, uint64_t len)
{
    g_assert_true(nx_debug_wp_remove(f->d, owner, type, gaddr, len));
    nx_debug_clear_hit(f->d);
    f->m->stop = false;
    f->m->stop_reason = STOP_NONE;
}

/* tensor 0: 64 x i32 at DATA (tpc.md §3.1) */
static void tensor64(Fix *f)
{
    uint32_t size[5] = {64};
    int32_t stride[5] = {1};
    tensor(f->m, 0, 0, DATA, 0, 2, 1, size, stride);
}

/* st_tnsr to a watched lane: stop before the bundle, then stepping it
 * stores every lane. */
static void test_st_tnsr_before(void)
{
    Fix f;
    fix_init(&f);
    tensor64(&f);
    srf(f.m, 0, 1, 0x11223344u);
    Bun k[2] = {nop(), nop()};
    vpu(&k[0], 0x08, 0, V(1), VS(1), 0, 0, 0, 0); /* mov V1, S1 */
    st(&k[1], 0x0B, VI(2), 0, V(1), 0);           /* st_tnsr 0, I2, V1 */
    /* watch lane 5 (kernel offset = PA - KERNEL_BASE, as gdb gives it) */
    uint64_t gaddr = DATA + 20 - KBASE;
    g_assert_true(nx_debug_wp_insert(f.d, f.cpu, NX_HIT_WATCH, gaddr, DATA + 20, 4));
    launch(&f, k, 2);
    slice(&f);
    TpcCpu *c = tpc_cpu(f.cpu);
    g_assert_true(f.m->stop);
    g_assert_cmpint(f.m->stop_reason, ==, STOP_DEBUG);
    g_assert_cmpint(f.d->hit, ==, NX_HIT_WATCH);
    g_assert_true(f.d->hit_cpu == f.cpu);
    g_assert_cmphex(f.d->hit_addr, ==, gaddr);
    g_assert_true(f.d->hit_precise);
    g_assert_cmpint(f.cpu->state, ==, CPU_RUNNING);
    g_assert_cmphex(c->pc, ==, 0x20);        /* on the storing bundle */
    g_assert_cmpuint(f.cpu->retired, ==, 1); /* only the mov bundle */
    for (unsigned i = 0; i < 64; i++)        /* nothing stored */
        g_assert_cmphex(rd32(f.m, DATA + 4 * i), ==, 0);
    g_assert_cmphex(vlane32(c, 1, 0), ==, 0x11223344u);

    resume_without(&f, f.cpu, NX_HIT_WATCH, gaddr, 4);
    slice(&f);
    assert_done(f.m, 0);
    g_assert_false(f.m->stop);
    for (unsigned i = 0; i < 64; i++)
        g_assert_cmphex(rd32(f.m, DATA + 4 * i), ==, 0x11223344u);
    g_assert_cmpuint(rd32(f.m, TPC_PA(0) + 0x1038), ==, 3); /* BUNDLES: mov, st, halt */
    fix_free(&f);
}

/* Lanes culled by the tensor bounds or the byte predicate are not touched,
 * so a watchpoint on them does not trigger. */
static void test_st_tnsr_untouched_bytes(void)
{
    Fix f;
    fix_init(&f);
    uint32_t size[5] = {4}; /* lanes 4..63 culled */
    int32_t stride[5] = {1};
    tensor(f.m, 0, 0, DATA, 0, 2, 1, size, stride);
    srf(f.m, 0, 1, 0xAABBCCDDu);
    Bun k[2] = {nop(), nop()};
    vpu(&k[0], 0x08, 0, V(1), VS(1), 0, 0, 0, 0);
    st(&k[1], 0x0B, VI(2), 0, V(1), 0);
    g_assert_true(nx_debug_wp_insert(f.d, f.cpu, NX_HIT_AWATCH, 0, DATA + 16, 4 * 60));
    /* a read watchpoint on a stored lane: stores do not read */
    g_assert_true(nx_debug_wp_insert(f.d, f.cpu, NX_HIT_RWATCH, 0, DATA, 16));
    launch(&f, k, 2);
    slice(&f);
    assert_done(f.m, 0);
    g_assert_cmpint(f.d->hit, ==, NX_HIT_NONE);
    g_assert_false(f.m->stop);
    for (unsigned i = 0; i < 4; i++)
        g_assert_cmphex(rd32(f.m, DATA + 4 * i), ==, 0xAABBCCDDu);
    g_assert_cmphex(rd32(f.m, DATA + 16), ==, 0);
    fix_free(&f);
}

/* An RMW store reads as well: a read watchpoint stops it before. */
static void test_st_tnsr_rmw_reads(void)
{
    Fix f;
    fix_init(&f);
    tensor64(&f);
    for (unsigned i = 0; i < 64; i++)
        wr32(f.m, DATA + 4 * i, 100 + i);
    srf(f.m, 0, 1, 5);
    srf(f.m, 0, 29, 2 | 0 << 4); /* i32 add */
    Bun k[2] = {nop(), nop()};
    vpu(&k[0], 0x08, 0, V(1), VS(1), 0, 0, 0, 0);
    st(&k[1], 0x0B, VI(2), 0, V(1), 2); /* st_tnsr rmw 0, I2, V1, S29 */
    g_assert_true(nx_debug_wp_insert(f.d, f.cpu, NX_HIT_RWATCH, 0xFC, DATA + 0xFC, 4));
    launch(&f, k, 2);
    slice(&f);
    g_assert_cmpint(f.d->hit, ==, NX_HIT_RWATCH);
    g_assert_cmphex(tpc_cpu(f.cpu)->pc, ==, 0x20);
    for (unsigned i = 0; i < 64; i++)
        g_assert_cmpuint(rd32(f.m, DATA + 4 * i), ==, 100 + i);
    resume_without(&f, f.cpu, NX_HIT_RWATCH, 0xFC, 4);
    slice(&f);
    assert_done(f.m, 0);
    for (unsigned i = 0; i < 64; i++)
        g_assert_cmpuint(rd32(f.m, DATA + 4 * i), ==, 105 + i);
    fix_free(&f);
}

/* ld_tnsr and ld_g: a read watchpoint stops before the loading bundle,
 * whose other slots commit nothing either; a write watchpoint does not
 * trigger on loads. */
static void test_loads_before(void)
{
    Fix f;
    fix_init(&f);
    tensor64(&f);
    for (unsigned i = 0; i < 64; i++)
        wr32(f.m, DATA + 4 * i, 0x5000 + i);
    Bun k[3] = {nop(), nop(), nop()};
    ld(&k[0], 0x00, VAD(1), VI(2), 0, 0);             /* gen_addr AD1, 0, I2 */
    ld(&k[1], 0x11, V(1), VI(2), 0, 0);               /* ld_tnsr V1, 0, I2 */
    spu(&k[1], 0x02, 2, SS(6), SS(6), SIMM, 0, 0, 0); /* add.i32 S6, S6, 1 */
    imm(&k[1], 1);
    ld(&k[2], 0x0C, VS(5), VAD(1), 0, 0); /* ld_g S5, AD1 */
    g_assert_true(nx_debug_wp_insert(f.d, f.cpu, NX_HIT_WATCH, 0, DATA, 0x100));
    g_assert_true(nx_debug_wp_insert(f.d, f.cpu, NX_HIT_RWATCH, 0x40, DATA + 0x40, 1));
    launch(&f, k, 3);
    slice(&f);
    TpcCpu *c = tpc_cpu(f.cpu);
    g_assert_cmpint(f.d->hit, ==, NX_HIT_RWATCH);
    g_assert_cmphex(c->pc, ==, 0x20);
    g_assert_cmpuint(c->s[6], ==, 0); /* the SPU slot of the bundle: not committed */
    g_assert_cmphex(vlane32(c, 1, 16), ==, 0);
    resume_without(&f, f.cpu, NX_HIT_RWATCH, 0x40, 1);

    /* now watch lane 0 for reads: ld_tnsr reads it too, then ld_g */
    g_assert_true(nx_debug_wp_insert(f.d, f.cpu, NX_HIT_AWATCH, 0, DATA, 4));
    slice(&f);
    g_assert_cmphex(c->pc, ==, 0x20);
    /* one bundle with it removed (gdb's step), then it is back */
    resume_without(&f, f.cpu, NX_HIT_AWATCH, 0, 4);
    f.cpu->ops->run(f.cpu, 1);
    g_assert_cmphex(c->pc, ==, 0x40);
    g_assert_cmpuint(c->s[6], ==, 1);
    g_assert_cmphex(vlane32(c, 1, 16), ==, 0x5010);
    g_assert_true(nx_debug_wp_insert(f.d, f.cpu, NX_HIT_AWATCH, 0, DATA, 4));
    slice(&f);
    g_assert_cmpint(f.d->hit, ==, NX_HIT_AWATCH);
    g_assert_cmphex(c->pc, ==, 0x40); /* the ld_g bundle */
    g_assert_cmpuint(c->s[5], ==, 0);
    resume_without(&f, f.cpu, NX_HIT_AWATCH, 0, 4);
    slice(&f);
    assert_done(f.m, 0);
    g_assert_cmphex(c->s[5], ==, 0x5000);
    fix_free(&f);
}

/* st_g: stop before; a watchpoint of another core (the sequencer's process)
 * is reported after the store instead, by the access hook, on that core. */
static void test_st_g_own_and_other(void)
{
    Fix f;
    fix_init(&f);
    tensor64(&f);
    srf(f.m, 0, 3, 0xCAFEu);
    Bun k[2] = {nop(), nop()};
    ld(&k[0], 0x00, VAD(1), VI(2), 0, 0); /* gen_addr AD1, 0, I2 = DATA */
    st(&k[1], 0x06, VAD(1), 0, VS(3), 0); /* st_g AD1, S3 */
    g_assert_true(nx_debug_wp_insert(f.d, f.cpu, NX_HIT_WATCH, 0, DATA + 2, 1));
    launch(&f, k, 2);
    slice(&f);
    TpcCpu *c = tpc_cpu(f.cpu);
    g_assert_cmpint(f.d->hit, ==, NX_HIT_WATCH);
    g_assert_true(f.d->hit_precise);
    g_assert_cmphex(c->pc, ==, 0x20);
    g_assert_cmphex(rd32(f.m, DATA), ==, 0);
    resume_without(&f, f.cpu, NX_HIT_WATCH, 0, 1);

    NxCpu *seq = f.m->seq[0];
    g_assert_true(nx_debug_wp_insert(f.d, seq, NX_HIT_WATCH, 0x7000, DATA, 4));
    slice(&f);
    g_assert_true(f.m->stop);
    g_assert_cmpint(f.d->hit, ==, NX_HIT_WATCH);
    g_assert_true(f.d->hit_cpu == seq);
    g_assert_cmphex(f.d->hit_addr, ==, 0x7000);
    g_assert_false(f.d->hit_precise);
    g_assert_cmphex(rd32(f.m, DATA), ==, 0xCAFEu); /* stored */
    g_assert_cmphex(c->pc, ==, 0x40);              /* stopped after it */
    resume_without(&f, seq, NX_HIT_WATCH, 0x7000, 4);
    slice(&f);
    assert_done(f.m, 0);
    fix_free(&f);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/tpc-watch/st-tnsr-before", test_st_tnsr_before);
    g_test_add_func("/tpc-watch/st-tnsr-untouched-bytes", test_st_tnsr_untouched_bytes);
    g_test_add_func("/tpc-watch/st-tnsr-rmw-reads", test_st_tnsr_rmw_reads);
    g_test_add_func("/tpc-watch/loads-before", test_loads_before);
    g_test_add_func("/tpc-watch/st-g-own-and-other", test_st_g_own_and_other);
    return g_test_run();
}
