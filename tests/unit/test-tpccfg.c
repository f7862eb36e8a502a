/* TPC configuration window (machine.md §6, tpc.md §2.1): kernel-view storage,
 * constants and reserved offsets, KERNEL_SIZE reset, launch latching,
 * LAUNCHER, completion semaphore and the DRAIN bookkeeping. */
#include <glib.h>

#include "hw/nc2/board.h"
#include "hw/nc2/tpccfg.h"
#include "nxemu/machine.h"

#define TPC_PA(t) (0x2804000000ull + (t)*0x10000ull)

typedef struct Fix {
    Machine machine; /* first: fake_launch gets back to the fixture from m */
    NxBoard board;
    Machine *m;
    unsigned launches, last_launched;
    TpcLaunch at_launch; /* what the core would see when it starts */
    uint32_t status_at_launch;
} Fix;

/* The core is replaced by a recorder; tests finish kernels by hand. */
static void fake_launch(Machine *m, unsigned t)
{
    Fix *current = (Fix *)m;
    current->launches++;
    current->last_launched = t;
    current->at_launch = m->board->tpccfg[t].latched;
    current->status_at_launch = m->board->tpccfg[t].status;
}

static Fix *fix_new(void)
{
    Fix *f = g_new0(Fix, 1);
    Machine *m = f->m = &f->machine;
    m->board = &f->board;
    m->cfg.nr_seq = 2;
    m->cfg.nr_tpc = 2;
    mr_init_container(&m->sysmem, "system", 1ull << 40);
    evsem_init(&m->board->evsem, m);
    m->board->nx = g_new0(NxBlock, 2);
    for (unsigned i = 0; i < 2; i++) {
        nx_init(&m->board->nx[i], m, i, 16, 2);
    }
    m->board->tpccfg = g_new0(TpcCfg, 2);
    for (unsigned t = 0; t < 2; t++) {
        tpccfg_init(&m->board->tpccfg[t], m, t);
        m->board->tpccfg[t].launch = fake_launch;
        mr_add_subregion(&m->sysmem, TPC_PA(t), &m->board->tpccfg[t].mmio, 0);
    }
    m->as = as_new("pa", &m->sysmem);
    return f;
}

static void fix_free(Fix *f)
{
    Machine *m = f->m;
    as_free(m->as);
    for (unsigned t = 0; t < 2; t++) {
        tpccfg_destroy(&m->board->tpccfg[t]);
    }
    g_free(m->board->tpccfg);
    for (unsigned i = 0; i < 2; i++) {
        nx_destroy(&m->board->nx[i]);
    }
    g_free(m->board->nx);
    evsem_destroy(&m->board->evsem);
    mr_destroy(&m->sysmem);
    g_free(f);
}

static uint64_t rd(Fix *f, unsigned t, uint64_t off, unsigned size)
{
    uint64_t v = 0xDEAD;
    g_assert_cmpint(as_read(f->m->as, TPC_PA(t) + off, size, &v, MEMTXATTRS(MEM_REQ_SEQ, 0)), ==,
                    MEMTX_OK);
    return v;
}

static void wr_as(Fix *f, unsigned t, uint64_t off, unsigned size, uint64_t v, MemTxAttrs a)
{
    g_assert_cmpint(as_write(f->m->as, TPC_PA(t) + off, size, v, a), ==, MEMTX_OK);
}

static void wr(Fix *f, unsigned t, uint64_t off, unsigned size, uint64_t v)
{
    wr_as(f, t, off, size, v, MEMTXATTRS(MEM_REQ_SEQ, 0));
}

static void test_kernel_view_storage(void)
{
    Fix *f = fix_new();
    /* Storage at the Gaudi offsets, word for word. */
    static const uint32_t storage[] = {0x400,
                                       0x404,
                                       0x434,                    /* tensor 0 */
                                       0x400 + 0x38 * 15 + 0x34, /* last word of tensor 15 */
                                       0x780,
                                       0x784,
                                       0x790,
                                       0x7B4,
                                       0x7B8,
                                       0x7BC,
                                       0x7C0,
                                       0x83C,
                                       0x8FC,
                                       0x900,
                                       0x908,
                                       0x918,
                                       0x958,
                                       0x95C,
                                       0xA00,
                                       0xA00 + 0x38 * 16 - 4};
    for (unsigned i = 0; i < G_N_ELEMENTS(storage); i++) {
        wr(f, 0, storage[i], 4, 0xA5000000u | storage[i]);
    }
    for (unsigned i = 0; i < G_N_ELEMENTS(storage); i++) {
        g_assert_cmphex(rd(f, 0, storage[i], 4), ==, 0xA5000000u | storage[i]);
        g_assert_cmphex(tpccfg_kv_read(&f->m->board->tpccfg[0], storage[i]), ==,
                        0xA5000000u | storage[i]);
    }
    /* TPC 1 is separate storage. */
    g_assert_cmphex(rd(f, 1, 0x400, 4), ==, 0);
    /* VFLAGS/SFLAGS keep [3:0]. */
    wr(f, 0, 0x90C, 4, 0xFF);
    wr(f, 0, 0x910, 4, 0x1A);
    g_assert_cmphex(rd(f, 0, 0x90C, 4), ==, 0xF);
    g_assert_cmphex(rd(f, 0, 0x910, 4), ==, 0xA);
    /* The kernel's own path (st_l mmio / ld_l mmio) is the same storage. */
    tpccfg_kv_write(&f->m->board->tpccfg[0], 0x7C4, 77);
    g_assert_cmpuint(rd(f, 0, 0x7C4, 4), ==, 77);
    /* 8-byte accesses are two words, low first. */
    wr(f, 0, 0x410, 8, 0x0000000200000001ull);
    g_assert_cmpuint(rd(f, 0, 0x410, 4), ==, 1);
    g_assert_cmpuint(rd(f, 0, 0x414, 4), ==, 2);
    fix_free(f);
}

static void test_constants_and_reserved(void)
{
    Fix *f = fix_new();
    TpcCfg *tc = &f->m->board->tpccfg[0];
    g_assert_cmphex(rd(f, 0, 0x91C, 4), ==, 0x2E);
    g_assert_cmphex(rd(f, 0, 0x954, 4), ==, 0x400);
    wr(f, 0, 0x91C, 4, 0);
    wr(f, 0, 0x954, 4, 0);
    g_assert_cmphex(rd(f, 0, 0x91C, 4), ==, 0x2E);
    g_assert_cmphex(tpccfg_kv_read(tc, 0x954), ==, 0x400);
    static const uint32_t reserved[] = {0x000, 0x3FC,  0x840,  0x8F8,  0x904,  0x914,  0x920,
                                        0x930, 0x938,  0x93C,  0x950,  0x960,  0x9FC,  0xD80,
                                        0xFFC, 0x1014, 0x102C, 0x1040, 0x1FFC, 0x2000, 0xFFFC};
    for (unsigned i = 0; i < G_N_ELEMENTS(reserved); i++) {
        wr(f, 0, reserved[i], 4, 0xFFFFFFFF);
        g_assert_cmphex(rd(f, 0, reserved[i], 4), ==, 0);
    }
    /* TPC_EXECUTE at 0x938 is inert: no launch. */
    wr(f, 0, 0x938, 4, 1);
    g_assert_cmpuint(f->launches, ==, 0);
    /* Widths: 4 and 8 only, natural alignment. */
    uint64_t v;
    g_assert_cmpint(as_read(f->m->as, TPC_PA(0) + 0x400, 2, &v, MEMTXATTRS(MEM_REQ_SEQ, 0)), !=,
                    MEMTX_OK);
    g_assert_cmpint(as_write(f->m->as, TPC_PA(0) + 0x400, 1, 1, MEMTXATTRS(MEM_REQ_SEQ, 0)), !=,
                    MEMTX_OK);
    g_assert_cmpint(as_read(f->m->as, TPC_PA(0) + 0x404, 8, &v, MEMTXATTRS(MEM_REQ_SEQ, 0)), !=,
                    MEMTX_OK);
    fix_free(f);
}

static void test_kernel_size_reset(void)
{
    Fix *f = fix_new();
    TpcCfg *tc = &f->m->board->tpccfg[0];
    wr(f, 0, TPC_W_KERNEL_SIZE, 4, 0x200);
    g_assert_cmphex(rd(f, 0, TPC_W_KERNEL_SIZE, 4), ==, 0x200);
    wr(f, 0, TPC_KV_KERNEL_BASE_LO, 4, 0x100000);
    g_assert_cmphex(rd(f, 0, TPC_W_KERNEL_SIZE, 4), ==, 0);
    wr(f, 0, TPC_W_KERNEL_SIZE, 4, 0x300);
    wr(f, 0, TPC_KV_KERNEL_BASE_HI, 4, 0);
    g_assert_cmphex(rd(f, 0, TPC_W_KERNEL_SIZE, 4), ==, 0);
    wr(f, 0, TPC_W_KERNEL_SIZE, 4, 0x300);
    tpccfg_kv_write(tc, TPC_KV_KERNEL_BASE_LO, 0x200000); /* st_l mmio */
    g_assert_cmphex(rd(f, 0, TPC_W_KERNEL_SIZE, 4), ==, 0);
    /* Other kernel-view writes leave it alone. */
    wr(f, 0, TPC_W_KERNEL_SIZE, 4, 0x300);
    wr(f, 0, TPC_KV_TID_BASE(0), 4, 1);
    wr(f, 0, TPC_KV_KERNEL_CONFIG, 4, 1);
    g_assert_cmphex(rd(f, 0, TPC_W_KERNEL_SIZE, 4), ==, 0x300);
    g_assert_cmphex(rd(f, 0, TPC_KV_KERNEL_BASE_LO, 8), ==, 0x200000);
    fix_free(f);
}

static void setup_kernel(Fix *f, unsigned t)
{
    wr(f, t, TPC_KV_KERNEL_BASE_LO, 8, 0x0000000102000000ull);
    wr(f, t, TPC_W_KERNEL_SIZE, 4, 0x400);
    for (unsigned d = 0; d < 5; d++) {
        wr(f, t, TPC_KV_TID_BASE(d), 4, 10 + d);
        wr(f, t, TPC_KV_TID_SIZE(d), 4, 20 + d);
    }
    wr(f, t, TPC_KV_KERNEL_CONFIG, 4, 3 << 2);
    for (unsigned i = 0; i < 32; i++) {
        wr(f, t, TPC_KV_SRF(i), 4, 100 + i);
    }
}

static void test_launch_latches(void)
{
    Fix *f = fix_new();
    Machine *m = f->m;
    TpcCfg *tc = &m->board->tpccfg[1];
    g_assert_cmphex(rd(f, 1, TPC_W_STATUS, 4), ==, TPC_ST_IDLE);
    g_assert_cmphex(rd(f, 1, TPC_W_LAUNCHER, 4), ==, 0xFFFFFFFF);
    g_assert_cmphex(rd(f, 1, TPC_W_COMPLETION_INC, 4), ==, 1);
    setup_kernel(f, 1);
    wr(f, 1, TPC_W_EXECUTE, 4, 2); /* only 1 launches */
    g_assert_cmpuint(f->launches, ==, 0);
    wr_as(f, 1, TPC_W_EXECUTE, 4, 1, MEMTXATTRS(MEM_REQ_SEQ, 1));
    g_assert_cmpuint(f->launches, ==, 1);
    g_assert_cmpuint(f->last_launched, ==, 1);
    /* Everything was in place when the core started. */
    g_assert_cmpuint(f->status_at_launch, ==, TPC_ST_RUNNING);
    g_assert_cmphex(f->at_launch.kernel_base, ==, 0x102000000ull);
    g_assert_cmphex(f->at_launch.kernel_size, ==, 0x400);
    g_assert_cmphex(f->at_launch.config, ==, 3 << 2);
    for (unsigned d = 0; d < 5; d++) {
        g_assert_cmpuint(f->at_launch.tid_base[d], ==, 10 + d);
        g_assert_cmpuint(f->at_launch.tid_size[d], ==, 20 + d);
    }
    for (unsigned i = 0; i < 32; i++) {
        g_assert_cmpuint(f->at_launch.srf[i], ==, 100 + i);
    }
    g_assert_cmphex(rd(f, 1, TPC_W_STATUS, 4), ==, TPC_ST_RUNNING);
    g_assert_cmphex(rd(f, 1, TPC_W_LAUNCHER, 4), ==, 1);
    g_assert_cmpuint(m->board->nx[1].regs.outstanding, ==, 1);
    g_assert_cmpuint(m->board->nx[0].regs.outstanding, ==, 0);

    /* Later writes change only the next launch. */
    wr(f, 1, TPC_KV_KERNEL_BASE_LO, 4, 0x3000000);
    wr(f, 1, TPC_KV_SRF(0), 4, 5);
    wr(f, 1, TPC_KV_TID_SIZE(0), 4, 1);
    g_assert_cmphex(tc->latched.kernel_base, ==, 0x102000000ull);
    g_assert_cmpuint(tc->latched.srf[0], ==, 100);
    g_assert_cmpuint(tc->latched.tid_size[0], ==, 20);

    /* EXECUTE while RUNNING is ignored, even from another core. */
    wr_as(f, 1, TPC_W_EXECUTE, 4, 1, MEMTXATTRS(MEM_REQ_SEQ, 0));
    g_assert_cmpuint(f->launches, ==, 1);
    g_assert_cmphex(rd(f, 1, TPC_W_LAUNCHER, 4), ==, 1);
    g_assert_cmpuint(m->board->nx[0].regs.outstanding, ==, 0);
    fix_free(f);
}

static void test_finish_done(void)
{
    Fix *f = fix_new();
    Machine *m = f->m;
    TpcCfg *tc = &m->board->tpccfg[0];
    m->board->evsem.sem[7] = 2;
    wr(f, 0, TPC_W_COMPLETION_SEM, 4, 0x80000107); /* bit 31 enable, index = [7:0] = 7 */
    wr(f, 0, TPC_W_COMPLETION_INC, 4, 5);
    g_assert_cmphex(rd(f, 0, TPC_W_COMPLETION_SEM, 8), ==, 0x0000000580000107ull);
    setup_kernel(f, 0);
    wr_as(f, 0, TPC_W_EXECUTE, 4, 1, MEMTXATTRS(MEM_REQ_SEQ, 0));
    unsigned changed = m->sched.round_tpc_changed;
    tpccfg_finish(tc, 0, 0, 0, 0, 0x100000003ull, 42);
    g_assert_cmphex(rd(f, 0, TPC_W_STATUS, 4), ==, TPC_ST_DONE);
    g_assert_cmpuint(m->board->evsem.sem[7], ==, 7);
    g_assert_cmphex(rd(f, 0, TPC_W_CYCLES, 8), ==, 0x100000003ull);
    g_assert_cmphex(rd(f, 0, TPC_W_CYCLES + 4, 4), ==, 1);
    g_assert_cmpuint(rd(f, 0, TPC_W_BUNDLES, 8), ==, 42);
    g_assert_cmpuint(m->board->nx[0].regs.outstanding, ==, 0);
    g_assert_cmpuint(m->sched.round_tpc_changed, >, changed);

    /* Relaunch after DONE; without the enable bit the semaphore is untouched. */
    wr(f, 0, TPC_W_COMPLETION_SEM, 4, 0x7);
    wr_as(f, 0, TPC_W_EXECUTE, 4, 1, MEMTXATTRS(MEM_REQ_SEQ, 1));
    g_assert_cmpuint(f->launches, ==, 2);
    g_assert_cmpuint(m->board->nx[1].regs.outstanding, ==, 1);
    tpccfg_finish(tc, 0, 0, 0, 0, 10, 9);
    g_assert_cmpuint(m->board->evsem.sem[7], ==, 7);
    g_assert_cmpuint(m->board->nx[1].regs.outstanding, ==, 0);
    g_assert_cmphex(rd(f, 0, TPC_W_LAUNCHER, 4), ==, 1);
    fix_free(f);
}

static void test_finish_fault(void)
{
    Fix *f = fix_new();
    Machine *m = f->m;
    TpcCfg *tc = &m->board->tpccfg[1];
    wr(f, 1, TPC_W_COMPLETION_SEM, 4, 0x80000003);
    setup_kernel(f, 1);
    wr_as(f, 1, TPC_W_EXECUTE, 4, 1, MEMTXATTRS(MEM_REQ_SEQ, 0));
    tpccfg_finish(tc, 11, 0x40, 0x1234, 0x2000000040ull, 5, 3);
    g_assert_cmphex(rd(f, 1, TPC_W_STATUS, 4), ==, 0x0B03); /* FAULT, code 11 in [15:8] */
    g_assert_cmpuint(m->board->evsem.sem[3], ==, 0);
    g_assert_cmphex(rd(f, 1, TPC_W_FAULT_PC, 4), ==, 0x40);
    g_assert_cmphex(rd(f, 1, TPC_W_FAULT_INFO, 4), ==, 0x1234);
    g_assert_cmphex(rd(f, 1, TPC_W_FAULT_ADDR, 8), ==, 0x2000000040ull);
    g_assert_cmpuint(rd(f, 1, TPC_KV_INTR_CAUSE, 4), ==, 11);
    g_assert_cmpuint(rd(f, 1, TPC_W_BUNDLES, 8), ==, 3);
    g_assert_cmpuint(m->board->nx[0].regs.outstanding, ==, 0);
    /* Read-only launch registers ignore writes. */
    wr(f, 1, TPC_W_STATUS, 4, 0);
    wr(f, 1, TPC_W_LAUNCHER, 4, 5);
    wr(f, 1, TPC_W_CYCLES, 8, 0);
    g_assert_cmphex(rd(f, 1, TPC_W_STATUS, 4), ==, 0x0B03);
    g_assert_cmphex(rd(f, 1, TPC_W_LAUNCHER, 4), ==, 0);
    g_assert_cmpuint(rd(f, 1, TPC_W_CYCLES, 8), ==, 5);
    fix_free(f);
}

static void test_non_sequencer_launcher(void)
{
    Fix *f = fix_new();
    Machine *m = f->m;
    setup_kernel(f, 0);
    wr_as(f, 0, TPC_W_EXECUTE, 4, 1, MEMTXATTRS(MEM_REQ_DEBUG, 0));
    g_assert_cmpuint(f->launches, ==, 1);
    g_assert_cmphex(rd(f, 0, TPC_W_LAUNCHER, 4), ==, 0xFFFFFFFF);
    g_assert_cmpuint(m->board->nx[0].regs.outstanding + m->board->nx[1].regs.outstanding, ==, 0);
    tpccfg_finish(&m->board->tpccfg[0], 0, 0, 0, 0, 1, 1);
    g_assert_cmpuint(m->board->nx[0].regs.outstanding + m->board->nx[1].regs.outstanding, ==, 0);
    g_assert_cmphex(rd(f, 0, TPC_W_STATUS, 4), ==, TPC_ST_DONE);
    fix_free(f);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/tpccfg/kernel-view-storage", test_kernel_view_storage);
    g_test_add_func("/tpccfg/constants-and-reserved", test_constants_and_reserved);
    g_test_add_func("/tpccfg/kernel-size-reset", test_kernel_size_reset);
    g_test_add_func("/tpccfg/launch-latches", test_launch_latches);
    g_test_add_func("/tpccfg/finish-done", test_finish_done);
    g_test_add_func("/tpccfg/finish-fault", test_finish_fault);
    g_test_add_func("/tpccfg/non-sequencer-launcher", test_non_sequencer_launcher);
    return g_test_run();
}
