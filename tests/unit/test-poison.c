/*
 * Poison mode (include/nxemu/poison.h): reads of never-written HBM, SBUF and
 * PSUM bytes are reported once, with requester, pc, address and size.
 */
#include <string.h>

#include "hw/nc2/board.h"
#include "nxemu/machine.h"
#include "nxemu/poison.h"

#define SBUF_BASE 0x2000000000ull
#define PSUM_BASE 0x2802000000ull
#define EVSEM_PA  0x2802700000ull

typedef struct Fx {
    Machine *m;
    NxPoison *p;
    GString *out;
} Fx;

static void fx_setup(Fx *f, gconstpointer data)
{
    MachineConfig cfg = {
        .hbm_size = 64ull << 20,
        .nr_seq = 2,
        .tlb_entries = 4,
        .quantum = 64,
        .nr_dma = 2,
        .dma_queue_depth = 4,
        .dma_bytes_per_cycle = 64,
        .dma_latency = 32,
    };
    GError *err = NULL;
    f->m = machine_new(&cfg, NULL, 0, &err);
    g_assert_no_error(err);
    f->p = poison_new(f->m);
    f->out = g_string_new(NULL);
    poison_set_output(f->p, f->out);
}

static void fx_teardown(Fx *f, gconstpointer data)
{
    poison_free(f->p);
    machine_free(f->m);
    g_string_free(f->out, TRUE);
}

static uint64_t rd(Fx *f, uint64_t pa, unsigned size, MemTxAttrs a)
{
    uint64_t v = 0;
    as_read(f->m->as, pa, size, &v, a);
    return v;
}

static void test_read_before_write(Fx *f, gconstpointer data)
{
    f->m->board->nx[1].regs.pc = 0x1000040;
    g_assert_cmpint(as_write(f->m->as, SBUF_BASE + 2 * 0x40000, 4, 7, MEMTXATTRS(MEM_REQ_SEQ, 1)),
                    ==, MEMTX_OK);
    g_assert_cmpuint(rd(f, SBUF_BASE + 2 * 0x40000, 4, MEMTXATTRS(MEM_REQ_SEQ, 1)), ==, 7);
    g_assert_cmpstr(f->out->str, ==, "");
    /* bytes 4..7 were never written: the read is reported, as a whole */
    rd(f, SBUF_BASE + 2 * 0x40000, 8, MEMTXATTRS(MEM_REQ_SEQ, 1));
    g_assert_cmpstr(f->out->str, ==,
                    "nxemu: warning: poison: core=1 pc=0x0000000001000040 read of uninitialised "
                    "0x0000002000080000 (size 8)\n");
    /* once per range: the same read again is silent */
    rd(f, SBUF_BASE + 2 * 0x40000, 8, MEMTXATTRS(MEM_REQ_SEQ, 1));
    rd(f, SBUF_BASE + 2 * 0x40000 + 4, 4, MEMTXATTRS(MEM_REQ_SEQ, 1));
    g_assert_cmpuint(poison_reports(f->p), ==, 1);
    /* a read overlapping one new byte is reported */
    rd(f, SBUF_BASE + 2 * 0x40000 + 6, 4, MEMTXATTRS(MEM_REQ_SEQ, 1));
    g_assert_cmpuint(poison_reports(f->p), ==, 2);
}

static void test_loader_counts_as_written(Fx *f, gconstpointer data)
{
    uint8_t img[300];
    uint64_t bad;
    memset(img, 0xAB, sizeof(img));
    /* across a 4 KiB page boundary */
    g_assert_cmpint(
        as_rw_bytes(f->m->as, 0x1F00, img, sizeof(img), true, MEMTXATTRS(MEM_REQ_LOADER, 0), &bad),
        ==, MEMTX_OK);
    g_assert_true(poison_is_written(f->p, 0x1F00, sizeof(img)));
    g_assert_false(poison_is_written(f->p, 0x1F00, sizeof(img) + 1));
    g_assert_false(poison_is_written(f->p, 0x1EFF, 1));
    rd(f, 0x2000, 8, MEMTXATTRS(MEM_REQ_SEQ, 0));
    rd(f, 0x1F00, 8, MEMTXATTRS(MEM_REQ_SEQ, 0));
    g_assert_cmpuint(poison_reports(f->p), ==, 0);
}

static void test_dma_and_debug(Fx *f, gconstpointer data)
{
    uint8_t buf[64];
    uint64_t bad;
    /* a debugger peeking is not the program relying on the value */
    g_assert_cmpint(as_rw_bytes(f->m->as, PSUM_BASE + 0x800, buf, 64, false,
                                MEMTXATTRS(MEM_REQ_DEBUG, 0), &bad),
                    ==, MEMTX_OK);
    g_assert_cmpuint(poison_reports(f->p), ==, 0);
    /* a DMA engine has no pc */
    g_assert_cmpint(
        as_rw_bytes(f->m->as, PSUM_BASE + 0x800, buf, 64, false, MEMTXATTRS(MEM_REQ_DMA, 1), &bad),
        ==, MEMTX_OK);
    g_assert_cmpstr(f->out->str, ==,
                    "nxemu: warning: poison: dma=1 read of uninitialised 0x0000002802000800 "
                    "(size 64)\n");
}

static void test_not_memory(Fx *f, gconstpointer data)
{
    /* MMIO (semaphores) and the SBUF hole after a partition's 192 KiB */
    rd(f, EVSEM_PA, 4, MEMTXATTRS(MEM_REQ_SEQ, 0));
    rd(f, SBUF_BASE + 0x30000, 4, MEMTXATTRS(MEM_REQ_SEQ, 0));
    g_assert_cmpuint(poison_reports(f->p), ==, 0);
}

static void test_free_restores_fast_path(void)
{
    MachineConfig cfg = {.hbm_size = 16ull << 20, .nr_seq = 1, .tlb_entries = 4, .quantum = 64};
    GError *err = NULL;
    Machine *m = machine_new(&cfg, NULL, 0, &err);
    g_assert_no_error(err);
    g_assert_nonnull(as_host_ptr(m->as, 0x1000, 4, false, 0));
    NxPoison *p = poison_new(m);
    /* every access must reach the check */
    g_assert_null(as_host_ptr(m->as, 0x1000, 4, false, 0));
    poison_free(p);
    g_assert_nonnull(as_host_ptr(m->as, 0x1000, 4, false, 0));
    machine_free(m);
}

#define FX_TEST(path, fn) g_test_add(path, Fx, NULL, fx_setup, fn, fx_teardown)

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    FX_TEST("/poison/read-before-write", test_read_before_write);
    FX_TEST("/poison/loader-written", test_loader_counts_as_written);
    FX_TEST("/poison/dma-and-debug", test_dma_and_debug);
    FX_TEST("/poison/not-memory", test_not_memory);
    g_test_add_func("/poison/free-restores-fast-path", test_free_restores_fast_path);
    return g_test_run();
}
