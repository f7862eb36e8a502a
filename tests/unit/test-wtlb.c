/* Window TLB (machine.md §2.2): hits, misses, LRU eviction, the three fault
 * kinds, statistics kept across flushes.  The table lives in real guest RAM
 * behind a real AddressSpace. */
#include <glib.h>

#include "hw/nc2/wtlb.h"
#include "nxemu/memory.h"

#define HBM_SIZE (64ull << 20)
#define TABLE_PA 0x10000ull
#define RWX      (WT_V | WT_R | WT_W | WT_X)

typedef struct Fix {
    MemoryRegion root, hbm;
    AddressSpace *as;
    WTlb t;
} Fix;

static void fix_setup(Fix *f, unsigned entries)
{
    mr_init_container(&f->root, "root", 1ull << 40);
    mr_init_ram(&f->hbm, "hbm", HBM_SIZE, MR_F_FETCH | MR_F_DMA);
    mr_add_subregion(&f->root, 0, &f->hbm, 0);
    f->as = as_new("pa", &f->root);
    wtlb_init(&f->t, entries);
}

static void fix_teardown(Fix *f)
{
    wtlb_destroy(&f->t);
    as_free(f->as);
    mr_destroy(&f->hbm);
    mr_destroy(&f->root);
}

static void set_entry(Fix *f, uint64_t w, uint64_t entry)
{
    g_assert_cmpint(as_write(f->as, TABLE_PA + 8 * w, 8, entry, MEMTXATTRS(MEM_REQ_DEBUG, 0)), ==,
                    MEMTX_OK);
}

static bool tr(Fix *f, uint32_t len, uint64_t a, NxAccess acc, uint64_t *pa, NxFault *flt)
{
    return wtlb_translate(&f->t, f->as, TABLE_PA, len, a, acc, pa, flt);
}

static void test_miss_then_hit(void)
{
    Fix f;
    fix_setup(&f, 16);
    set_entry(&f, 1, 0x05000000ull | RWX);
    uint64_t pa = 0;
    NxFault flt = {0};
    g_assert_true(tr(&f, 4, 0x01000123, NX_ACC_READ, &pa, &flt));
    g_assert_cmphex(pa, ==, 0x05000123);
    g_assert_cmpuint(f.t.misses, ==, 1);
    g_assert_cmpuint(f.t.hits, ==, 0);
    g_assert_true(tr(&f, 4, 0x01FFFFF8, NX_ACC_WRITE, &pa, &flt));
    g_assert_cmphex(pa, ==, 0x05FFFFF8);
    g_assert_cmpuint(f.t.misses, ==, 1);
    g_assert_cmpuint(f.t.hits, ==, 1);
    g_assert_cmpuint(f.t.evictions, ==, 0);
    fix_teardown(&f);
}

static void test_pbase_high_bits(void)
{
    Fix f;
    fix_setup(&f, 16);
    /* PBASE is bits 63:24: a window can map SBUF at 0x20_0000_0000. */
    set_entry(&f, 3, 0x2001000000ull | WT_V | WT_R);
    uint64_t pa;
    NxFault flt;
    g_assert_true(tr(&f, 8, 0x03ABCDEF, NX_ACC_READ, &pa, &flt));
    g_assert_cmphex(pa, ==, 0x2001ABCDEFull);
    fix_teardown(&f);
}

static void test_beyond_len(void)
{
    Fix f;
    fix_setup(&f, 16);
    set_entry(&f, 4, 0x05000000ull | RWX); /* valid in memory, but beyond WT_LEN */
    uint64_t pa;
    NxFault flt = {0};
    g_assert_false(tr(&f, 4, 0x04000010, NX_ACC_READ, &pa, &flt));
    g_assert_cmpuint(flt.code, ==, NX_FAULT_TRANSLATION_FAULT);
    g_assert_cmphex(flt.addr, ==, 0x04000010);
    g_assert_cmpuint(f.t.misses, ==, 1);
    fix_teardown(&f);
}

static void test_invalid_not_cached(void)
{
    Fix f;
    fix_setup(&f, 16);
    set_entry(&f, 2, 0x05000000ull | WT_R);       /* V = 0 */
    set_entry(&f, 3, 0x05000000ull | RWX | 0x10); /* reserved bit 4 */
    uint64_t pa;
    NxFault flt = {0};
    g_assert_false(tr(&f, 8, 0x02000000, NX_ACC_READ, &pa, &flt));
    g_assert_cmpuint(flt.code, ==, NX_FAULT_TRANSLATION_FAULT);
    g_assert_cmphex(flt.addr, ==, 0x02000000);
    g_assert_false(tr(&f, 8, 0x02000000, NX_ACC_READ, &pa, &flt));
    g_assert_cmpuint(f.t.misses, ==, 2); /* nothing was cached */
    g_assert_cmpuint(f.t.hits, ==, 0);

    g_assert_false(tr(&f, 8, 0x03000040, NX_ACC_FETCH, &pa, &flt));
    g_assert_cmpuint(flt.code, ==, NX_FAULT_TRANSLATION_FAULT);
    g_assert_cmphex(flt.addr, ==, 0x03000040);
    g_assert_cmpuint(f.t.misses, ==, 3);

    /* Fixing the table takes effect at once: nothing stale is cached. */
    set_entry(&f, 2, 0x05000000ull | RWX);
    g_assert_true(tr(&f, 8, 0x02000004, NX_ACC_READ, &pa, &flt));
    g_assert_cmphex(pa, ==, 0x05000004);
    fix_teardown(&f);
}

static void test_entry_bus_error(void)
{
    Fix f;
    fix_setup(&f, 16);
    uint64_t pa;
    NxFault flt = {0};
    /* A table at the top of HBM: entry 2 lies past the end. */
    uint64_t base = HBM_SIZE - 16;
    g_assert_false(wtlb_translate(&f.t, f.as, base, 8, 0x02000000, NX_ACC_READ, &pa, &flt));
    g_assert_cmpuint(flt.code, ==, NX_FAULT_BUS_ERROR);
    g_assert_cmphex(flt.addr, ==, base + 16); /* the entry's PA, not the Neuron address */
    g_assert_cmpuint(f.t.misses, ==, 1);
    fix_teardown(&f);
}

static void test_low_bits_of_base_ignored(void)
{
    Fix f;
    fix_setup(&f, 16);
    set_entry(&f, 1, 0x07000000ull | RWX);
    uint64_t pa;
    NxFault flt;
    g_assert_true(wtlb_translate(&f.t, f.as, TABLE_PA | 7, 4, 0x01000010, NX_ACC_READ, &pa, &flt));
    g_assert_cmphex(pa, ==, 0x07000010);
    fix_teardown(&f);
}

static void test_permissions(void)
{
    Fix f;
    fix_setup(&f, 16);
    set_entry(&f, 1, 0x05000000ull | WT_V | WT_R);
    set_entry(&f, 2, 0x06000000ull | WT_V | WT_W);
    set_entry(&f, 3, 0x07000000ull | WT_V | WT_X);
    uint64_t pa;
    NxFault flt = {0};

    g_assert_false(tr(&f, 4, 0x01000008, NX_ACC_WRITE, &pa, &flt));
    g_assert_cmpuint(flt.code, ==, NX_FAULT_PERMISSION_FAULT);
    g_assert_cmphex(flt.addr, ==, 0x01000008);
    /* The entry stayed cached: the next lookup hits. */
    g_assert_true(tr(&f, 4, 0x01000008, NX_ACC_READ, &pa, &flt));
    g_assert_cmpuint(f.t.hits, ==, 1);
    g_assert_cmpuint(f.t.misses, ==, 1);
    g_assert_false(tr(&f, 4, 0x01000000, NX_ACC_FETCH, &pa, &flt));
    g_assert_cmpuint(flt.code, ==, NX_FAULT_PERMISSION_FAULT);

    g_assert_false(tr(&f, 4, 0x02000000, NX_ACC_READ, &pa, &flt));
    g_assert_cmpuint(flt.code, ==, NX_FAULT_PERMISSION_FAULT);
    g_assert_true(tr(&f, 4, 0x02000000, NX_ACC_WRITE, &pa, &flt));

    g_assert_false(tr(&f, 4, 0x03000000, NX_ACC_READ, &pa, &flt));
    g_assert_cmpuint(flt.code, ==, NX_FAULT_PERMISSION_FAULT);
    g_assert_true(tr(&f, 4, 0x03000040, NX_ACC_FETCH, &pa, &flt));
    g_assert_cmphex(pa, ==, 0x07000040);
    g_assert_cmpuint(f.t.misses, ==, 3);
    g_assert_cmpuint(f.t.hits, ==, 4);
    fix_teardown(&f);
}

static void lookup(Fix *f, uint64_t w)
{
    uint64_t pa;
    NxFault flt;
    g_assert_true(tr(f, 16, w << 24, NX_ACC_READ, &pa, &flt));
    g_assert_cmphex(pa, ==, (0x10 + w) << 24);
}

static void test_lru_eviction(void)
{
    Fix f;
    fix_setup(&f, 2);
    for (uint64_t w = 1; w < 8; w++) {
        set_entry(&f, w, ((0x10 + w) << 24) | RWX);
    }
    lookup(&f, 1); /* miss: {1} */
    lookup(&f, 2); /* miss: {1, 2} */
    lookup(&f, 1); /* hit: 2 is now least recently used */
    g_assert_cmpuint(f.t.evictions, ==, 0);
    lookup(&f, 3); /* miss: evicts 2 -> {1, 3} */
    g_assert_cmpuint(f.t.evictions, ==, 1);
    lookup(&f, 1); /* hit */
    g_assert_cmpuint(f.t.hits, ==, 2);
    lookup(&f, 2); /* miss: evicts 3 (1 was used more recently) -> {1, 2} */
    lookup(&f, 1); /* hit */
    lookup(&f, 3); /* miss: evicts 2 */
    lookup(&f, 1); /* hit */
    g_assert_cmpuint(f.t.hits, ==, 4);
    g_assert_cmpuint(f.t.misses, ==, 5);
    g_assert_cmpuint(f.t.evictions, ==, 3);
    fix_teardown(&f);
}

static void test_flush_keeps_stats_and_is_needed(void)
{
    Fix f;
    fix_setup(&f, 4);
    set_entry(&f, 1, 0x05000000ull | RWX);
    uint64_t pa;
    NxFault flt;
    g_assert_true(tr(&f, 4, 0x01000000, NX_ACC_READ, &pa, &flt));
    /* Not coherent with the table: the cached entry wins until a flush. */
    set_entry(&f, 1, 0x09000000ull | RWX);
    g_assert_true(tr(&f, 4, 0x01000000, NX_ACC_READ, &pa, &flt));
    g_assert_cmphex(pa, ==, 0x05000000);
    wtlb_flush(&f.t);
    g_assert_cmpuint(f.t.hits, ==, 1);
    g_assert_cmpuint(f.t.misses, ==, 1);
    g_assert_true(tr(&f, 4, 0x01000000, NX_ACC_READ, &pa, &flt));
    g_assert_cmphex(pa, ==, 0x09000000);
    g_assert_cmpuint(f.t.misses, ==, 2);
    g_assert_cmpuint(f.t.evictions, ==, 0); /* a flush is not an eviction */
    fix_teardown(&f);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/wtlb/miss-then-hit", test_miss_then_hit);
    g_test_add_func("/wtlb/pbase-high-bits", test_pbase_high_bits);
    g_test_add_func("/wtlb/beyond-len", test_beyond_len);
    g_test_add_func("/wtlb/invalid-not-cached", test_invalid_not_cached);
    g_test_add_func("/wtlb/entry-bus-error", test_entry_bus_error);
    g_test_add_func("/wtlb/base-low-bits", test_low_bits_of_base_ignored);
    g_test_add_func("/wtlb/permissions", test_permissions);
    g_test_add_func("/wtlb/lru-eviction", test_lru_eviction);
    g_test_add_func("/wtlb/flush", test_flush_keeps_stats_and_is_needed);
    return g_test_run();
}
