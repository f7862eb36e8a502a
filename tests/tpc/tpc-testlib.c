/* Machine fixture of the TPC tests (see tpc-testlib.h). */
#include "tpc-testlib.h"

#include <glib.h>

Machine *tt_machine(void)
{
    MachineConfig cfg = {.hbm_size = 64ull << 20,
                         .nr_seq = 1,
                         .nr_tpc = 1,
                         .tlb_entries = 16,
                         .quantum = 64,
                         .nr_dma = 1,
                         .dma_queue_depth = 4,
                         .dma_bytes_per_cycle = 64,
                         .tpc_gmem_bytes_per_cycle = 64}; /* the DTB defaults (fdt.c) */
    GError *err = NULL;
    Machine *m = machine_new(&cfg, NULL, 0, &err);
    g_assert_no_error(err);
    return m;
}

void tt_wr32(Machine *m, uint64_t pa, uint32_t v)
{
    g_assert_cmpint(as_write(m->as, pa, 4, v, DBG), ==, MEMTX_OK);
}

uint32_t tt_rd32(Machine *m, uint64_t pa)
{
    uint64_t v = 0;
    g_assert_cmpint(as_read(m->as, pa, 4, &v, DBG), ==, MEMTX_OK);
    return (uint32_t)v;
}

void tt_load_kernel(Machine *m, uint8_t *text, uint32_t len)
{
    uint64_t bad;
    g_assert_cmpint(as_rw_bytes(m->as, KBASE, text, len, true, MEMTXATTRS(MEM_REQ_LOADER, 0), &bad),
                    ==, MEMTX_OK);
    tt_wr32(m, TPC0 + 0x788, (uint32_t)KBASE); /* KERNEL_BASE */
    tt_wr32(m, TPC0 + 0x78C, 0);
    tt_wr32(m, TPC0 + 0x1028, len); /* the kernel's size */
}
