/*
 * Zero tracking of the memory API (include/nxemu/memory.h): RAM reads as
 * zero until written, as_is_zero knows which granules were written since
 * the mapping (or mr_ram_zero), and as_zero_bytes leaves the untouched ones
 * alone so that zeroing a large range commits no host memory.
 */
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "nxemu/memory.h"
#include "rss-testlib.h"

#define LOADER MEMTXATTRS(MEM_REQ_LOADER, 0)
#define SEQ0   MEMTXATTRS(MEM_REQ_SEQ, 0)
#define RAM_SIZE (1ull << 30)
#define G        (1ull << MEM_ZERO_GRANULE_BITS)

typedef struct {
    MemoryRegion sys, ram;
    AddressSpace *as;
} Fix;

static void fix_init(Fix *f)
{
    mr_init_container(&f->sys, "sys", 1ull << 32);
    mr_init_ram(&f->ram, "ram", RAM_SIZE, 0);
    mr_add_subregion(&f->sys, 0x10000000, &f->ram, 0);
    f->as = as_new("t", &f->sys);
}

static void fix_destroy(Fix *f)
{
    as_free(f->as);
    mr_destroy(&f->sys);
    mr_destroy(&f->ram);
}

static void test_written_granules(void)
{
    Fix f;
    uint64_t bad = 0;
    fix_init(&f);
    const uint64_t base = 0x10000000;
    g_assert_true(as_is_zero(f.as, base, RAM_SIZE));
    g_assert_false(as_is_zero(f.as, base - 1, 2)); /* a hole is not memory */
    g_assert_cmpint(as_write(f.as, base + 3 * G + 5, 4, 0x11223344, SEQ0), ==, MEMTX_OK);
    g_assert_false(as_is_zero(f.as, base, RAM_SIZE));
    g_assert_false(as_is_zero(f.as, base + 3 * G, 1));
    g_assert_true(as_is_zero(f.as, base, 3 * G));
    g_assert_true(as_is_zero(f.as, base + 4 * G, G));
    uint8_t buf[16] = {1};
    g_assert_cmpint(as_rw_bytes(f.as, base + 9 * G - 8, buf, sizeof(buf), true, LOADER, &bad),
                    ==, MEMTX_OK);
    g_assert_false(as_is_zero(f.as, base + 8 * G, 1));
    g_assert_false(as_is_zero(f.as, base + 9 * G, 1));
    uint8_t *p = as_host_ptr(f.as, base + 20 * G, 1, true, 0);
    g_assert_nonnull(p);
    g_assert_false(as_is_zero(f.as, base + 20 * G, 1));
    /* Reset: zero again. */
    mr_ram_zero(&f.ram);
    g_assert_true(as_is_zero(f.as, base, RAM_SIZE));
    /* A writable span may be written anywhere in it, untracked. */
    MemHostSpan s;
    g_assert_true(as_host_span(f.as, base, true, &s));
    g_assert_false(as_is_zero(f.as, base + RAM_SIZE - 1, 1));
    fix_destroy(&f);
}

static unsigned notified;
static uint64_t notified_bytes;

static void count_hook(void *opaque, uint64_t addr, unsigned size, bool is_write,
                       MemTxAttrs attrs)
{
    notified++;
    notified_bytes += size;
    g_assert_true(is_write);
}

static void test_zero_bytes(void)
{
    Fix f;
    uint64_t bad = 0, v = 0;
    fix_init(&f);
    const uint64_t base = 0x10000000;
    g_assert_cmpint(as_write(f.as, base + 100 * G + 8, 8, ~0ull, SEQ0), ==, MEMTX_OK);
    g_assert_cmpint(as_write(f.as, base + RAM_SIZE - 8, 8, ~0ull, SEQ0), ==, MEMTX_OK);
    long before = vm_rss_kib();
    g_assert_true(as_add_access_hook(f.as, count_hook, NULL));
    g_assert_cmpint(as_zero_bytes(f.as, base + 4, RAM_SIZE - 4, LOADER, &bad), ==, MEMTX_OK);
    as_remove_access_hook(f.as, count_hook, NULL);
    g_assert_cmpuint(notified, >=, 1);
    g_assert_cmpuint(notified_bytes, ==, RAM_SIZE - 4);
    g_assert_cmpint(as_read(f.as, base + 100 * G + 8, 8, &v, SEQ0), ==, MEMTX_OK);
    g_assert_cmphex(v, ==, 0);
    g_assert_cmpint(as_read(f.as, base + RAM_SIZE - 8, 8, &v, SEQ0), ==, MEMTX_OK);
    g_assert_cmphex(v, ==, 0);
    /* Only the written pages are committed: zeroing 1 GiB added (almost) none. */
    long growth = vm_rss_kib() - before;
    g_test_message("VmRSS growth for zeroing 1 GiB: %ld KiB", growth);
    g_assert_cmpint(growth, <, 16 * 1024);
    /* All or nothing, as as_rw_bytes. */
    g_assert_cmpint(as_write(f.as, base, 4, 0xabcd, SEQ0), ==, MEMTX_OK);
    g_assert_cmpint(as_zero_bytes(f.as, base, RAM_SIZE + 1, LOADER, &bad), ==, MEMTX_UNMAPPED);
    g_assert_cmphex(bad, ==, base + RAM_SIZE);
    g_assert_cmpint(as_read(f.as, base, 4, &v, SEQ0), ==, MEMTX_OK);
    g_assert_cmphex(v, ==, 0xabcd);
    fix_destroy(&f);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/memory-zero/written-granules", test_written_granules);
    g_test_add_func("/memory-zero/zero-bytes", test_zero_bytes);
    return g_test_run();
}
