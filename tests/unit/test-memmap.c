/* The system map table and the SBUF/PSUM decode (machine.md §1, §1.1, §1.2). */
#include <glib.h>

#include "hw/nc2/board.h"
#include "hw/nc2/memmap.h"
#include "nxemu/machine.h"

static void test_table(void)
{
    g_assert_cmphex(nc2_memmap[NC2_HBM].base, ==, 0);
    g_assert_cmphex(nc2_memmap[NC2_SBUF].base, ==, 0x2000000000ull);
    g_assert_cmphex(nc2_memmap[NC2_SBUF].size, ==, 32ull << 20);
    g_assert_cmphex(nc2_memmap[NC2_PSUM].base, ==, 0x2802000000ull);
    g_assert_cmphex(nc2_memmap[NC2_PSUM].size, ==, 4ull << 20);
    g_assert_cmphex(nc2_memmap[NC2_EVSEM].base, ==, 0x2802700000ull);
    g_assert_cmphex(nc2_memmap[NC2_EVSEM].size, ==, 1ull << 20);
    g_assert_cmphex(nc2_memmap[NC2_NX].base, ==, 0x2803000000ull);
    g_assert_cmphex(nc2_memmap[NC2_NX].stride, ==, 0x1000);
    g_assert_cmpuint(nc2_memmap[NC2_NX].max, ==, 64);
    g_assert_cmphex(nc2_memmap[NC2_DMA].base, ==, 0x2803800000ull);
    g_assert_cmphex(nc2_memmap[NC2_DMA].stride, ==, 0x1000);
    g_assert_cmpuint(nc2_memmap[NC2_DMA].max, ==, 16);
    g_assert_cmphex(nc2_memmap[NC2_TPC].base, ==, 0x2804000000ull);
    g_assert_cmphex(nc2_memmap[NC2_TPC].stride, ==, 0x10000);
    g_assert_cmpuint(nc2_memmap[NC2_TPC].max, ==, 64);
    g_assert_cmphex(nc2_memmap[NC2_TEST].base, ==, 0x2805000000ull);
    g_assert_cmphex(nc2_memmap[NC2_TEST].size, ==, 0x1000);
}

static void test_sbuf(void)
{
    unsigned p;
    uint32_t o;
    g_assert_true(nc2_sbuf_decode(0, &p, &o));
    g_assert_cmpuint(p, ==, 0);
    g_assert_cmphex(o, ==, 0);
    g_assert_true(nc2_sbuf_decode(0x2FFFF, &p, &o)); /* last populated byte: 192 KiB - 1 */
    g_assert_cmpuint(p, ==, 0);
    g_assert_cmphex(o, ==, 0x2FFFF);
    g_assert_false(nc2_sbuf_decode(0x30000, &p, &o)); /* hole up to the 256 KiB pitch */
    g_assert_false(nc2_sbuf_decode(0x3FFFF, &p, &o));
    g_assert_true(nc2_sbuf_decode(0x40000, &p, &o));
    g_assert_cmpuint(p, ==, 1);
    g_assert_cmphex(o, ==, 0);
    /* quadrant 1 ([24:23]), partition 5 in it ([22:18]) -> 37 */
    g_assert_true(nc2_sbuf_decode((1ull << 23) | (5ull << 18) | 0x1234, &p, &o));
    g_assert_cmpuint(p, ==, 37);
    g_assert_cmphex(o, ==, 0x1234);
    g_assert_true(nc2_sbuf_decode((3ull << 23) | (31ull << 18) | 0x2FFFF, &p, &o));
    g_assert_cmpuint(p, ==, 127);
    g_assert_false(nc2_sbuf_decode((3ull << 23) | (31ull << 18) | 0x30000, &p, &o));
    g_assert_false(nc2_sbuf_decode(32ull << 20, &p, &o)); /* past the window */
}

static void test_psum(void)
{
    unsigned p, bank;
    uint32_t o;
    g_assert_true(nc2_psum_decode(0, &p, &o, &bank));
    g_assert_cmpuint(p, ==, 0);
    g_assert_cmpuint(bank, ==, 0);
    g_assert_true(nc2_psum_decode(0x7FF, &p, &o, &bank));
    g_assert_cmpuint(bank, ==, 0);
    g_assert_true(nc2_psum_decode(0x800, &p, &o, &bank));
    g_assert_cmpuint(bank, ==, 1);
    g_assert_true(nc2_psum_decode(0x3FFF, &p, &o, &bank)); /* 16 KiB populated: bank 7 */
    g_assert_cmpuint(bank, ==, 7);
    g_assert_cmphex(o, ==, 0x3FFF);
    g_assert_false(nc2_psum_decode(0x4000, &p, &o, &bank)); /* hole up to the 32 KiB pitch */
    g_assert_false(nc2_psum_decode(0x7FFF, &p, &o, &bank));
    g_assert_true(nc2_psum_decode(0x8000, &p, &o, &bank));
    g_assert_cmpuint(p, ==, 1);
    g_assert_cmphex(o, ==, 0);
    /* quadrant 2 ([21:20]), partition 3 ([19:15]), offset 0x900 (bank 1) -> 67 */
    g_assert_true(nc2_psum_decode((2ull << 20) | (3ull << 15) | 0x900, &p, &o, &bank));
    g_assert_cmpuint(p, ==, 67);
    g_assert_cmphex(o, ==, 0x900);
    g_assert_cmpuint(bank, ==, 1);
    g_assert_true(nc2_psum_decode((3ull << 20) | (31ull << 15) | 0x3800, &p, &o, &bank));
    g_assert_cmpuint(p, ==, 127);
    g_assert_cmpuint(bank, ==, 7);
    g_assert_false(nc2_psum_decode(4ull << 20, &p, &o, &bank));
}

static MemTxResult probe(Machine *m, uint64_t pa, unsigned size)
{
    uint64_t v;
    return as_read(m->as, pa, size, &v, MEMTXATTRS(MEM_REQ_SEQ, 0));
}

/* The built board: populated bytes are memory, holes and absent units are
 * unmapped (§1, §12.9). */
static void test_board_map(void)
{
    MachineConfig cfg = {.hbm_size = 32ull << 20,
                         .nr_seq = 2,
                         .nr_tpc = 1,
                         .tlb_entries = 16,
                         .quantum = 64,
                         .nr_dma = 3,
                         .dma_queue_depth = 4,
                         .dma_bytes_per_cycle = 64,
                         .dma_latency = 32};
    GError *err = NULL;
    Machine *m = machine_new(&cfg, NULL, 0, &err);
    g_assert_no_error(err);
    g_assert_nonnull(m);
    MemTxAttrs a = MEMTXATTRS(MEM_REQ_SEQ, 0);

    /* SBUF partition 37 (quadrant 1, partition 5), offset 0x1234: memory
     * distinct from partition 36. */
    uint64_t p37 = 0x2000000000ull + (1ull << 23) + (5ull << 18) + 0x1234;
    g_assert_cmpint(as_write(m->as, p37, 8, 0x1122334455667788ull, a), ==, MEMTX_OK);
    uint64_t v = 0;
    g_assert_cmpint(as_read(m->as, p37, 8, &v, a), ==, MEMTX_OK);
    g_assert_cmphex(v, ==, 0x1122334455667788ull);
    g_assert_cmpint(as_read(m->as, p37 - 0x40000, 8, &v, a), ==, MEMTX_OK);
    g_assert_cmphex(v, ==, 0);
    g_assert_cmpint(probe(m, 0x2000000000ull + 0x2FFF8, 8), ==, MEMTX_OK);
    g_assert_cmpint(probe(m, 0x2000000000ull + 0x30000, 1), ==, MEMTX_UNMAPPED);
    g_assert_cmpint(probe(m, 0x2000000000ull + (32ull << 20), 1), ==, MEMTX_UNMAPPED);
    /* PSUM: 16 KiB populated per 32 KiB pitch. */
    g_assert_cmpint(probe(m, 0x2802000000ull + (2ull << 20) + (3ull << 15) + 0x3FF8, 8), ==,
                    MEMTX_OK);
    g_assert_cmpint(probe(m, 0x2802000000ull + 0x4000, 4), ==, MEMTX_UNMAPPED);
    /* HBM ends at the configured size. */
    g_assert_cmpint(probe(m, (32ull << 20) - 8, 8), ==, MEMTX_OK);
    g_assert_cmpint(probe(m, 32ull << 20, 1), ==, MEMTX_UNMAPPED);
    /* Devices present for configured units only. */
    g_assert_cmpint(probe(m, 0x2802701000ull, 4), ==, MEMTX_OK);
    g_assert_cmpint(probe(m, 0x2803001158ull, 4), ==, MEMTX_OK); /* NX alias 1, CORE_ID */
    g_assert_cmpint(as_read(m->as, 0x2803001158ull, 4, &v, a), ==, MEMTX_OK);
    g_assert_cmpuint(v, ==, 1);
    g_assert_cmpint(probe(m, 0x2803002158ull, 4), ==, MEMTX_UNMAPPED); /* no core 2 */
    g_assert_cmpint(probe(m, 0x2803802028ull, 4), ==, MEMTX_OK);       /* engine 2 */
    g_assert_cmpint(probe(m, 0x2803803028ull, 4), ==, MEMTX_UNMAPPED); /* no engine 3 */
    g_assert_cmpint(probe(m, 0x280400091Cull, 4), ==, MEMTX_OK);
    g_assert_cmpint(probe(m, 0x280401091Cull, 4), ==, MEMTX_UNMAPPED); /* no TPC 1 */
    g_assert_cmpint(probe(m, 0x2805000000ull, 4), ==, MEMTX_OK);
    g_assert_cmpint(probe(m, 0x2805001000ull, 4), ==, MEMTX_UNMAPPED);
    machine_free(m);
}

/* SBUF and PSUM partitions are slices of one host reservation (start-up:
 * one mmap instead of 256), and still separate memories at their PAs. */
static void test_one_reservation(void)
{
    MachineConfig cfg = {.hbm_size = 32ull << 20, .nr_seq = 1, .nr_tpc = 1, .tlb_entries = 16,
                         .quantum = 64, .nr_dma = 1, .dma_queue_depth = 4,
                         .dma_bytes_per_cycle = 64, .dma_latency = 32};
    GError *err = NULL;
    Machine *m = machine_new(&cfg, NULL, 0, &err);
    g_assert_no_error(err);
    uint8_t *base = m->board->local_ram.host;
    g_assert_nonnull(base);
    for (unsigned p = 0; p < NC2_SBUF_PARTITIONS; p++) {
        g_assert_true(m->board->sbuf[p].host == base + (uint64_t)p * NC2_SBUF_PART_BYTES);
    }
    uint8_t *psum = base + (uint64_t)NC2_SBUF_PARTITIONS * NC2_SBUF_PART_BYTES;
    for (unsigned p = 0; p < NC2_PSUM_PARTITIONS; p++) {
        g_assert_true(m->board->psum[p].host == psum + (uint64_t)p * NC2_PSUM_PART_BYTES);
    }
    g_assert_cmpuint(m->board->local_ram.size, ==,
                     (uint64_t)NC2_SBUF_PARTITIONS * NC2_SBUF_PART_BYTES +
                         (uint64_t)NC2_PSUM_PARTITIONS * NC2_PSUM_PART_BYTES);
    /* neighbours in the reservation do not alias: last byte of SBUF 127,
     * first byte of PSUM 0 */
    MemTxAttrs a = MEMTXATTRS(MEM_REQ_SEQ, 0);
    uint64_t last_sbuf = 0x2000000000ull + 127ull * NC2_SBUF_PITCH + NC2_SBUF_PART_BYTES - 1;
    g_assert_cmpint(as_write(m->as, last_sbuf, 1, 0xa5, a), ==, MEMTX_OK);
    g_assert_cmpint(as_write(m->as, 0x2802000000ull, 1, 0x5a, a), ==, MEMTX_OK);
    g_assert_cmphex(m->board->sbuf[127].host[NC2_SBUF_PART_BYTES - 1], ==, 0xa5);
    g_assert_cmphex(m->board->psum[0].host[0], ==, 0x5a);
    uint64_t v = 0;
    g_assert_cmpint(as_read(m->as, last_sbuf, 1, &v, a), ==, MEMTX_OK);
    g_assert_cmphex(v, ==, 0xa5);
    machine_free(m);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/memmap/table", test_table);
    g_test_add_func("/memmap/sbuf", test_sbuf);
    g_test_add_func("/memmap/psum", test_psum);
    g_test_add_func("/memmap/board-map", test_board_map);
    g_test_add_func("/memmap/one-reservation", test_one_reservation);
    return g_test_run();
}
