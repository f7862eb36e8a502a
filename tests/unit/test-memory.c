/*
 * Memory API unit tests: region tree semantics, access rules, all-or-nothing
 * byte copies, decode-cache hooks, fast path and sparse RAM.  Expected values
 * come from include/nxemu/memory.h and machine.md (little-endian, holes are
 * unmapped), not from the implementation.
 */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <glib.h>

#include "nxemu/memory.h"
#include "rss-testlib.h"

#define SEQ0   MEMTXATTRS(MEM_REQ_SEQ, 0)
#define DMA0   MEMTXATTRS(MEM_REQ_DMA, 0)
#define LOADER MEMTXATTRS(MEM_REQ_LOADER, 0)
#define DEBUG  MEMTXATTRS(MEM_REQ_DEBUG, 0)

static uint64_t rd(AddressSpace *as, uint64_t addr, unsigned size)
{
    uint64_t v = 0xdeadbeef;
    g_assert_cmpint(as_read(as, addr, size, &v, SEQ0), ==, MEMTX_OK);
    return v;
}

static void wr(AddressSpace *as, uint64_t addr, unsigned size, uint64_t val)
{
    g_assert_cmpint(as_write(as, addr, size, val, SEQ0), ==, MEMTX_OK);
}

/* ---- region tree ---- */

static void test_priority(void)
{
    MemoryRegion sys, low, high, late_low;
    mr_init_container(&sys, "sys", 0x10000);
    mr_init_ram(&low, "low", 0x1000, 0);
    mr_init_ram(&high, "high", 0x100, 0);
    mr_init_ram(&late_low, "late-low", 0x100, 0);
    /* high is added before a lower-priority region covering the same spot:
     * priority, not order, decides. */
    mr_add_subregion(&sys, 0x0, &low, 0);
    mr_add_subregion(&sys, 0x800, &high, 1);
    mr_add_subregion(&sys, 0x800, &late_low, 0);
    AddressSpace *as = as_new("t", &sys);

    const FlatRange *fr = as_lookup(as, 0x7ff);
    g_assert_nonnull(fr);
    g_assert_true(fr->mr == &low);
    fr = as_lookup(as, 0x800);
    g_assert_true(fr->mr == &high);
    g_assert_cmphex(fr->start, ==, 0x800);
    g_assert_cmphex(fr->end, ==, 0x900);
    g_assert_cmphex(fr->mr_offset, ==, 0);
    fr = as_lookup(as, 0x8ff);
    g_assert_true(fr->mr == &high);
    fr = as_lookup(as, 0x900);
    g_assert_true(fr->mr == &low);
    g_assert_cmphex(fr->mr_offset, ==, 0x900);

    /* The write lands in high's backing, not low's. */
    wr(as, 0x810, 4, 0xcafef00d);
    g_assert_cmphex(high.host[0x10], ==, 0x0d);
    g_assert_cmphex(low.host[0x810], ==, 0);
    g_assert_cmphex(late_low.host[0x10], ==, 0);

    as_free(as);
    mr_destroy(&sys);
    mr_destroy(&low);
    mr_destroy(&high);
    mr_destroy(&late_low);
}

static void test_equal_priority_later_wins(void)
{
    MemoryRegion sys, first, second;
    mr_init_container(&sys, "sys", 0x10000);
    mr_init_ram(&first, "first", 0x1000, 0);
    mr_init_ram(&second, "second", 0x1000, 0);
    mr_add_subregion(&sys, 0x0, &first, 5);
    mr_add_subregion(&sys, 0x800, &second, 5);
    AddressSpace *as = as_new("t", &sys);

    g_assert_true(as_lookup(as, 0x7ff)->mr == &first);
    g_assert_true(as_lookup(as, 0x800)->mr == &second);
    g_assert_true(as_lookup(as, 0x17ff)->mr == &second);
    g_assert_null(as_lookup(as, 0x1800));

    wr(as, 0x800, 1, 0x5a);
    g_assert_cmphex(second.host[0], ==, 0x5a);
    g_assert_cmphex(first.host[0x800], ==, 0);

    as_free(as);
    mr_destroy(&sys);
    mr_destroy(&first);
    mr_destroy(&second);
}

static void test_alias(void)
{
    MemoryRegion sys, ram, alias;
    mr_init_container(&sys, "sys", 0x10000);
    mr_init_ram(&ram, "ram", 0x1000, 0);
    mr_init_alias(&alias, "win", &ram, 0x100, 0x200);
    mr_add_subregion(&sys, 0x0, &ram, 0);
    mr_add_subregion(&sys, 0x8000, &alias, 0);
    AddressSpace *as = as_new("t", &sys);

    /* write through the alias, read directly: alias offset applies */
    wr(as, 0x8010, 4, 0x11223344);
    g_assert_cmphex(rd(as, 0x110, 4), ==, 0x11223344);
    /* write directly, read through the alias */
    wr(as, 0x2ff, 1, 0xab);
    g_assert_cmphex(rd(as, 0x81ff, 1), ==, 0xab);
    /* the alias is 0x200 long: its last byte is 0x81ff, then nothing */
    uint64_t v;
    g_assert_cmpint(as_read(as, 0x8200, 1, &v, SEQ0), ==, MEMTX_UNMAPPED);
    g_assert_cmpint(as_read(as, 0x81fe, 4, &v, SEQ0), ==, MEMTX_UNMAPPED);
    const FlatRange *fr = as_lookup(as, 0x8000);
    g_assert_true(fr->mr == &ram);
    g_assert_cmphex(fr->mr_offset, ==, 0x100);

    as_free(as);
    mr_destroy(&sys);
    mr_destroy(&ram);
    mr_destroy(&alias);
}

static void test_nested_containers(void)
{
    MemoryRegion sys, inner, ram, clipped, under;
    mr_init_container(&sys, "sys", 0x100000);
    mr_init_container(&inner, "inner", 0x1000);
    mr_init_ram(&ram, "ram", 0x100, 0);
    mr_init_ram(&clipped, "clipped", 0x1000, 0);
    mr_init_ram(&under, "under", 0x1000, 0);
    mr_add_subregion(&inner, 0x100, &ram, 0);
    /* sticks out of inner's 4 KiB: only [0xf00, 0x1000) of inner shows it */
    mr_add_subregion(&inner, 0xf00, &clipped, 0);
    mr_add_subregion(&sys, 0x10000, &inner, 1);
    AddressSpace *as = as_new("t", &sys);

    wr(as, 0x10100, 8, 0x0102030405060708ull);
    g_assert_cmphex(ram.host[0], ==, 0x08);
    g_assert_cmphex(ram.host[7], ==, 0x01);
    const FlatRange *fr = as_lookup(as, 0x10f00);
    g_assert_true(fr->mr == &clipped);
    g_assert_cmphex(fr->end, ==, 0x11000);
    uint64_t v;
    /* holes inside the inner container and past its end */
    g_assert_cmpint(as_read(as, 0x10000, 1, &v, SEQ0), ==, MEMTX_UNMAPPED);
    g_assert_cmpint(as_read(as, 0x10200, 1, &v, SEQ0), ==, MEMTX_UNMAPPED);
    g_assert_cmpint(as_read(as, 0x11000, 1, &v, SEQ0), ==, MEMTX_UNMAPPED);

    /* a lower-priority sibling shows through the inner container's holes
     * (containers are transparent), but not where inner maps something */
    mr_add_subregion(&sys, 0x10000, &under, 0);
    as_commit(as);
    g_assert_true(as_lookup(as, 0x10000)->mr == &under);
    g_assert_true(as_lookup(as, 0x10100)->mr == &ram);
    g_assert_true(as_lookup(as, 0x10200)->mr == &under);
    g_assert_cmphex(as_lookup(as, 0x10200)->mr_offset, ==, 0x200);

    as_free(as);
    mr_destroy(&sys);
    mr_destroy(&inner);
    mr_destroy(&ram);
    mr_destroy(&clipped);
    mr_destroy(&under);
}

static void test_holes_unmapped(void)
{
    MemoryRegion sys, a, b;
    mr_init_container(&sys, "sys", 0x10000);
    mr_init_ram(&a, "a", 0x1000, 0);
    mr_init_ram(&b, "b", 0x1000, 0);
    mr_add_subregion(&sys, 0x0, &a, 0);
    mr_add_subregion(&sys, 0x2000, &b, 0);
    AddressSpace *as = as_new("t", &sys);
    uint64_t v = 1;

    g_assert_cmpint(as_read(as, 0x1000, 1, &v, SEQ0), ==, MEMTX_UNMAPPED);
    g_assert_cmpint(as_write(as, 0x1fff, 1, 0, SEQ0), ==, MEMTX_UNMAPPED);
    /* beyond the root container */
    g_assert_cmpint(as_read(as, 0x10000, 8, &v, SEQ0), ==, MEMTX_UNMAPPED);
    g_assert_cmpint(as_read(as, UINT64_MAX, 1, &v, SEQ0), ==, MEMTX_UNMAPPED);
    /* an access straddling the end of a range into a hole */
    g_assert_cmpint(as_read(as, 0xffc, 8, &v, SEQ0), ==, MEMTX_UNMAPPED);
    g_assert_cmpint(as_write(as, 0xfff, 2, 0xffff, SEQ0), ==, MEMTX_UNMAPPED);
    g_assert_cmphex(a.host[0xfff], ==, 0);
    /* sizes other than 1, 2, 4, 8 */
    g_assert_cmpint(as_read(as, 0x0, 3, &v, SEQ0), ==, MEMTX_BAD_WIDTH);
    g_assert_cmpint(as_write(as, 0x0, 16, 0, SEQ0), ==, MEMTX_BAD_WIDTH);
    g_assert_cmpint(as_read(as, 0x0, 0, &v, SEQ0), ==, MEMTX_BAD_WIDTH);
    g_assert_false(as_is_ram(as, 0xf00, 0x200, 0));
    g_assert_true(as_is_ram(as, 0xf00, 0x100, 0));

    as_free(as);
    mr_destroy(&sys);
    mr_destroy(&a);
    mr_destroy(&b);
}

static void test_little_endian(void)
{
    MemoryRegion ram;
    mr_init_ram(&ram, "ram", 0x1000, 0);
    AddressSpace *as = as_new("t", &ram); /* a RAM region as the root */

    wr(as, 0x10, 8, 0x1122334455667788ull);
    static const uint8_t expect[8] = {0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11};
    g_assert_cmpmem(ram.host + 0x10, 8, expect, 8);
    g_assert_cmphex(rd(as, 0x10, 1), ==, 0x88);
    g_assert_cmphex(rd(as, 0x11, 2), ==, 0x6677);
    g_assert_cmphex(rd(as, 0x14, 4), ==, 0x11223344);
    /* RAM itself accepts unaligned accesses (cores check their own rules) */
    g_assert_cmphex(rd(as, 0x13, 4), ==, 0x22334455);
    wr(as, 0x21, 2, 0xbeef);
    g_assert_cmphex(ram.host[0x21], ==, 0xef);
    g_assert_cmphex(ram.host[0x22], ==, 0xbe);
    /* narrower writes only touch their bytes */
    wr(as, 0x10, 1, 0xff);
    g_assert_cmphex(rd(as, 0x10, 8), ==, 0x11223344556677ffull);

    as_free(as);
    mr_destroy(&ram);
}

/* ---- IO ---- */

typedef struct Dev {
    uint32_t regs[4];
    unsigned reads, writes;
    uint64_t last_off;
    unsigned last_size;
    MemTxAttrs last_attrs;
} Dev;

static MemTxResult dev_read(void *opaque, uint64_t offset, unsigned size, uint64_t *data,
                            MemTxAttrs attrs)
{
    Dev *d = opaque;
    d->reads++;
    d->last_off = offset;
    d->last_size = size;
    d->last_attrs = attrs;
    *data = 0x100 + offset;
    return MEMTX_OK;
}

static MemTxResult dev_write(void *opaque, uint64_t offset, unsigned size, uint64_t data,
                             MemTxAttrs attrs)
{
    Dev *d = opaque;
    d->writes++;
    d->last_off = offset;
    d->last_size = size;
    d->last_attrs = attrs;
    if (offset < sizeof(d->regs))
        d->regs[offset / 4] = (uint32_t)data;
    return MEMTX_OK;
}

static void test_io_width_alignment(void)
{
    static const MemoryRegionOps strict = {
        .read = dev_read, .write = dev_write, .widths = MEM_W4 | MEM_W8, .unaligned_ok = false};
    static const MemoryRegionOps loose = {
        .read = dev_read, .write = dev_write, .widths = MEM_W12, .unaligned_ok = true};
    Dev d1 = {0}, d2 = {0};
    MemoryRegion sys, io1, io2;
    mr_init_container(&sys, "sys", 0x100000);
    mr_init_io(&io1, "strict", 0x1000, &strict, &d1);
    mr_init_io(&io2, "loose", 0x1000, &loose, &d2);
    mr_add_subregion(&sys, 0x40000, &io1, 0);
    mr_add_subregion(&sys, 0x50000, &io2, 0);
    AddressSpace *as = as_new("t", &sys);
    uint64_t v;

    g_assert_cmpint(as_read(as, 0x40008, 4, &v, MEMTXATTRS(MEM_REQ_TPC, 7)), ==, MEMTX_OK);
    g_assert_cmphex(v, ==, 0x108);
    g_assert_cmphex(d1.last_off, ==, 8);
    g_assert_cmpuint(d1.last_size, ==, 4);
    g_assert_cmpuint(d1.last_attrs.kind, ==, MEM_REQ_TPC);
    g_assert_cmpuint(d1.last_attrs.id, ==, 7);
    g_assert_cmpint(as_write(as, 0x40004, 4, 0xaabbccdd, SEQ0), ==, MEMTX_OK);
    g_assert_cmphex(d1.regs[1], ==, 0xaabbccdd);
    g_assert_cmpint(as_read(as, 0x40010, 8, &v, SEQ0), ==, MEMTX_OK);

    unsigned reads = d1.reads, writes = d1.writes;
    g_assert_cmpint(as_read(as, 0x40000, 1, &v, SEQ0), ==, MEMTX_BAD_WIDTH);
    g_assert_cmpint(as_write(as, 0x40000, 2, 0, SEQ0), ==, MEMTX_BAD_WIDTH);
    g_assert_cmpint(as_read(as, 0x40002, 4, &v, SEQ0), ==, MEMTX_MISALIGNED);
    g_assert_cmpint(as_write(as, 0x40004, 8, 0, SEQ0), ==, MEMTX_MISALIGNED);
    /* the device never sees rejected accesses */
    g_assert_cmpuint(d1.reads, ==, reads);
    g_assert_cmpuint(d1.writes, ==, writes);
    /* an access running off the end of the device */
    g_assert_cmpint(as_read(as, 0x40ffc, 8, &v, SEQ0), ==, MEMTX_UNMAPPED);

    g_assert_cmpint(as_read(as, 0x50003, 2, &v, SEQ0), ==, MEMTX_OK);
    g_assert_cmphex(d2.last_off, ==, 3);
    g_assert_cmpint(as_read(as, 0x50004, 4, &v, SEQ0), ==, MEMTX_BAD_WIDTH);
    /* IO is not memory: no fast path, no byte copies */
    g_assert_null(as_host_ptr(as, 0x50000, 1, false, 0));
    g_assert_false(as_is_ram(as, 0x50000, 1, 0));
    uint8_t buf[4];
    uint64_t bad = 0;
    g_assert_cmpint(as_rw_bytes(as, 0x50000, buf, 4, false, DEBUG, &bad), ==, MEMTX_UNMAPPED);
    g_assert_cmphex(bad, ==, 0x50000);

    as_free(as);
    mr_destroy(&sys);
    mr_destroy(&io1);
    mr_destroy(&io2);
}

/* ---- ROM ---- */

static void test_rom_rules(void)
{
    MemoryRegion sys, rom;
    mr_init_container(&sys, "sys", 0x10000);
    mr_init_rom(&rom, "rom", 0x1000, MR_F_FETCH);
    mr_add_subregion(&sys, 0x1000, &rom, 0);
    AddressSpace *as = as_new("t", &sys);
    uint64_t bad = 0;

    g_assert_cmpint(as_write(as, 0x1000, 4, 0x12345678, LOADER), ==, MEMTX_OK);
    g_assert_cmphex(rd(as, 0x1000, 4), ==, 0x12345678);
    g_assert_cmpint(as_write(as, 0x1000, 1, 0x99, SEQ0), ==, MEMTX_READONLY);
    g_assert_cmpint(as_write(as, 0x1000, 1, 0x99, DMA0), ==, MEMTX_READONLY);
    g_assert_cmpint(as_write(as, 0x1000, 1, 0x99, MEMTXATTRS(MEM_REQ_TPC, 0)), ==, MEMTX_READONLY);
    g_assert_cmphex(rd(as, 0x1000, 4), ==, 0x12345678);
    g_assert_cmpint(as_write(as, 0x1001, 1, 0x55, DEBUG), ==, MEMTX_OK);
    g_assert_cmphex(rd(as, 0x1000, 4), ==, 0x12345578);

    uint8_t data[4] = {1, 2, 3, 4};
    g_assert_cmpint(as_rw_bytes(as, 0x1ffc, data, 4, true, DMA0, &bad), ==, MEMTX_READONLY);
    g_assert_cmphex(bad, ==, 0x1ffc);
    g_assert_cmphex(rd(as, 0x1ffc, 4), ==, 0);
    g_assert_cmpint(as_rw_bytes(as, 0x1ffc, data, 4, true, LOADER, &bad), ==, MEMTX_OK);
    g_assert_cmphex(rd(as, 0x1ffc, 4), ==, 0x04030201);
    uint8_t back[4] = {0};
    g_assert_cmpint(as_rw_bytes(as, 0x1ffc, back, 4, false, DMA0, &bad), ==, MEMTX_OK);
    g_assert_cmpmem(back, 4, data, 4);

    /* fast path: ROM is readable, never writable */
    g_assert_true(as_host_ptr(as, 0x1000, 4, false, MR_F_FETCH) == rom.host);
    g_assert_null(as_host_ptr(as, 0x1000, 4, true, 0));
    /* as_is_ram means RAM */
    g_assert_false(as_is_ram(as, 0x1000, 4, 0));

    as_free(as);
    mr_destroy(&sys);
    mr_destroy(&rom);
}

/* ---- as_rw_bytes ---- */

static void test_rw_bytes_all_or_nothing(void)
{
    MemoryRegion sys, a, b, c;
    mr_init_container(&sys, "sys", 0x10000);
    mr_init_ram(&a, "a", 0x1000, 0);
    mr_init_ram(&b, "b", 0x1000, 0);
    mr_init_ram(&c, "c", 0x1000, 0);
    mr_add_subregion(&sys, 0x0, &a, 0);
    mr_add_subregion(&sys, 0x1000, &b, 0); /* a and b are adjacent */
    mr_add_subregion(&sys, 0x3000, &c, 0); /* hole [0x2000, 0x3000) */
    AddressSpace *as = as_new("t", &sys);
    uint8_t buf[0x40], back[0x40];
    uint64_t bad = 0;
    for (unsigned i = 0; i < sizeof(buf); i++)
        buf[i] = (uint8_t)(0xa0 + i);

    /* spans two regions: fine */
    g_assert_cmpint(as_rw_bytes(as, 0xfe0, buf, 0x40, true, DMA0, &bad), ==, MEMTX_OK);
    g_assert_cmpmem(a.host + 0xfe0, 0x20, buf, 0x20);
    g_assert_cmpmem(b.host, 0x20, buf + 0x20, 0x20);
    g_assert_cmpint(as_rw_bytes(as, 0xfe0, back, 0x40, false, DMA0, &bad), ==, MEMTX_OK);
    g_assert_cmpmem(back, 0x40, buf, 0x40);

    /* runs into the hole at 0x2000: nothing written, first bad address */
    bad = 0;
    g_assert_cmpint(as_rw_bytes(as, 0x1ff0, buf, 0x40, true, DMA0, &bad), ==, MEMTX_UNMAPPED);
    g_assert_cmphex(bad, ==, 0x2000);
    for (unsigned i = 0xff0; i < 0x1000; i++)
        g_assert_cmphex(b.host[i], ==, 0);
    /* starts in the hole */
    g_assert_cmpint(as_rw_bytes(as, 0x2800, buf, 1, true, DMA0, &bad), ==, MEMTX_UNMAPPED);
    g_assert_cmphex(bad, ==, 0x2800);
    /* a read failing leaves the buffer alone */
    memset(back, 0x77, sizeof(back));
    g_assert_cmpint(as_rw_bytes(as, 0x2fe0, back, 0x40, false, DMA0, &bad), ==, MEMTX_UNMAPPED);
    g_assert_cmphex(bad, ==, 0x2fe0);
    g_assert_cmphex(back[0x3f], ==, 0x77);
    /* past the top of the address space */
    g_assert_cmpint(as_rw_bytes(as, 0x3ff0, buf, 0x20, true, DMA0, &bad), ==, MEMTX_UNMAPPED);
    g_assert_cmphex(bad, ==, 0x4000);
    g_assert_cmphex(c.host[0xff0], ==, 0);
    /* zero length is a no-op */
    g_assert_cmpint(as_rw_bytes(as, 0x2000, buf, 0, true, DMA0, &bad), ==, MEMTX_OK);

    as_free(as);
    mr_destroy(&sys);
    mr_destroy(&a);
    mr_destroy(&b);
    mr_destroy(&c);
}

/* ---- decode-cache hooks ---- */

typedef struct HookLog {
    unsigned calls;
    uint64_t addr, len;
} HookLog;

static void code_hook(void *opaque, uint64_t addr, uint64_t len)
{
    HookLog *h = opaque;
    h->calls++;
    h->addr = addr;
    h->len = len;
}

static void test_code_hook(void)
{
    MemoryRegion ram;
    mr_init_ram(&ram, "ram", 0x10000, MR_F_FETCH | MR_F_DMA);
    AddressSpace *as = as_new("t", &ram);
    HookLog h = {0};
    as_set_code_write_hook(as, code_hook, &h);

    /* writes before any mark: no hook */
    wr(as, 0x1010, 4, 1);
    g_assert_cmpuint(h.calls, ==, 0);

    as_mark_code(as, 0x1000, 4); /* marks the page [0x1000, 0x2000) */
    wr(as, 0x3000, 8, 2);        /* another page */
    g_assert_cmpuint(h.calls, ==, 0);
    wr(as, 0x1ff8, 4, 0xdeadbeef);
    g_assert_cmpuint(h.calls, ==, 1);
    g_assert_cmphex(h.addr, ==, 0x1ff8);
    g_assert_cmphex(h.len, ==, 4);
    g_assert_cmphex(rd(as, 0x1ff8, 4), ==, 0xdeadbeef); /* the write landed */
    /* the mark is gone: the next write is silent */
    wr(as, 0x1ff8, 4, 0);
    g_assert_cmpuint(h.calls, ==, 1);

    /* a byte copy over two marked pages: one call; only the bytes on the
     * marked pages [0x4000, 0x6000) are reported */
    as_mark_code(as, 0x4000, 0x2000);
    uint8_t buf[0x3000] = {0};
    uint64_t bad;
    g_assert_cmpint(as_rw_bytes(as, 0x3800, buf, 0x3000, true, DMA0, &bad), ==, MEMTX_OK);
    g_assert_cmpuint(h.calls, ==, 2);
    g_assert_cmphex(h.addr, ==, 0x4000);
    g_assert_cmphex(h.len, ==, 0x2000);
    g_assert_cmpint(as_rw_bytes(as, 0x3800, buf, 0x3000, true, DMA0, &bad), ==, MEMTX_OK);
    g_assert_cmpuint(h.calls, ==, 2);
    /* reads never fire it */
    as_mark_code(as, 0x8000, 1);
    (void)rd(as, 0x8000, 8);
    g_assert_cmpint(as_rw_bytes(as, 0x8000, buf, 16, false, DMA0, &bad), ==, MEMTX_OK);
    g_assert_cmpuint(h.calls, ==, 2);
    /* a failed (all-or-nothing) copy neither writes nor fires */
    as_mark_code(as, 0xf000, 1);
    g_assert_cmpint(as_rw_bytes(as, 0xfff0, buf, 0x20, true, DMA0, &bad), ==, MEMTX_UNMAPPED);
    g_assert_cmpuint(h.calls, ==, 2);
    /* a write straddling a marked and an unmarked page reports the marked part */
    wr(as, 0x8ffc, 8, 0x1111111111111111ull);
    g_assert_cmpuint(h.calls, ==, 3);
    g_assert_cmphex(h.addr, ==, 0x8ffc);
    g_assert_cmphex(h.len, ==, 4);

    as_free(as);
    mr_destroy(&ram);
}

static void test_fast_path(void)
{
    MemoryRegion sys, ram, dma_only;
    mr_init_container(&sys, "sys", 0x100000);
    mr_init_ram(&ram, "ram", 0x10000, MR_F_FETCH | MR_F_DMA);
    mr_init_ram(&dma_only, "dma-only", 0x1000, MR_F_DMA);
    mr_add_subregion(&sys, 0x0, &ram, 0);
    mr_add_subregion(&sys, 0x10000, &dma_only, 0);
    AddressSpace *as = as_new("t", &sys);

    g_assert_true(as_host_ptr(as, 0x2000, 0x100, true, MR_F_FETCH) == ram.host + 0x2000);
    g_assert_true(as_host_ptr(as, 0x10010, 8, true, MR_F_DMA) == dma_only.host + 0x10);
    g_assert_null(as_host_ptr(as, 0x10010, 8, false, MR_F_FETCH));
    /* crossing into another region: not one pointer */
    g_assert_null(as_host_ptr(as, 0xfff8, 16, false, 0));
    g_assert_null(as_host_ptr(as, 0x20000, 1, false, 0));
    g_assert_true(as_is_ram(as, 0xfff8, 16, MR_F_DMA));
    g_assert_false(as_is_ram(as, 0xfff8, 16, MR_F_FETCH));

    /* code pages: reads keep the fast path, writes fall back */
    as_mark_code(as, 0x2040, 64);
    g_assert_nonnull(as_host_ptr(as, 0x2000, 8, false, MR_F_FETCH));
    g_assert_null(as_host_ptr(as, 0x2ff8, 8, true, 0));
    g_assert_null(as_host_ptr(as, 0x1ff8, 16, true, 0)); /* touches the marked page */
    g_assert_nonnull(as_host_ptr(as, 0x1ff8, 8, true, 0));
    /* the slow-path write clears the mark; the fast path is back */
    wr(as, 0x2000, 1, 0);
    g_assert_true(as_host_ptr(as, 0x2ff8, 8, true, 0) == ram.host + 0x2ff8);

    as_free(as);
    mr_destroy(&sys);
    mr_destroy(&ram);
    mr_destroy(&dma_only);
}

typedef struct AccessLog {
    unsigned calls;
    uint64_t addr;
    unsigned size;
    bool is_write;
} AccessLog;

static void access_hook(void *opaque, uint64_t addr, unsigned size, bool is_write, MemTxAttrs attrs)
{
    AccessLog *l = opaque;
    l->calls++;
    l->addr = addr;
    l->size = size;
    l->is_write = is_write;
}

static void test_access_hook(void)
{
    MemoryRegion ram;
    mr_init_ram(&ram, "ram", 0x1000, 0);
    AddressSpace *as = as_new("t", &ram);
    AccessLog l = {0};
    uint64_t v;

    g_assert_true(as_add_access_hook(as, access_hook, &l));
    wr(as, 0x20, 4, 1);
    g_assert_cmpuint(l.calls, ==, 1);
    g_assert_true(l.is_write);
    g_assert_cmphex(l.addr, ==, 0x20);
    g_assert_cmpuint(l.size, ==, 4);
    /* unmapped accesses are observed too (a watchpoint may sit anywhere) */
    g_assert_cmpint(as_read(as, 0x2000, 2, &v, SEQ0), ==, MEMTX_UNMAPPED);
    g_assert_cmpuint(l.calls, ==, 2);
    g_assert_false(l.is_write);
    g_assert_cmphex(l.addr, ==, 0x2000);
    /* nothing may bypass the observer */
    g_assert_null(as_host_ptr(as, 0x20, 4, false, 0));
    as_remove_access_hook(as, access_hook, &l);
    g_assert_nonnull(as_host_ptr(as, 0x20, 4, false, 0));
    (void)rd(as, 0x20, 4);
    g_assert_cmpuint(l.calls, ==, 2);

    as_free(as);
    mr_destroy(&ram);
}

/* Observers (debugger, trace, viewer, poison map) come and go in any order;
 * each sees every access while installed, and the fast path returns only
 * when the last one is gone. */
static void test_access_hooks_any_order(void)
{
    MemoryRegion ram;
    mr_init_ram(&ram, "ram", 0x1000, 0);
    AddressSpace *as = as_new("t", &ram);
    AccessLog a = {0}, b = {0}, c = {0};

    g_assert_true(as_add_access_hook(as, access_hook, &a));
    g_assert_true(as_add_access_hook(as, access_hook, &b));
    g_assert_true(as_add_access_hook(as, access_hook, &c));
    wr(as, 0x10, 4, 1);
    g_assert_cmpuint(a.calls + b.calls + c.calls, ==, 3);
    as_remove_access_hook(as, access_hook, &b); /* the middle one first */
    wr(as, 0x10, 4, 1);
    g_assert_cmpuint(a.calls, ==, 2);
    g_assert_cmpuint(b.calls, ==, 1);
    g_assert_cmpuint(c.calls, ==, 2);
    as_remove_access_hook(as, access_hook, &a);
    g_assert_null(as_host_ptr(as, 0x10, 4, false, 0));
    as_remove_access_hook(as, access_hook, &c);
    g_assert_nonnull(as_host_ptr(as, 0x10, 4, false, 0));
    /* the list is bounded: adding past it fails cleanly */
    AccessLog many[AS_MAX_ACCESS_HOOKS + 1];
    for (unsigned i = 0; i < AS_MAX_ACCESS_HOOKS; i++)
        g_assert_true(as_add_access_hook(as, access_hook, &many[i]));
    g_assert_false(as_add_access_hook(as, access_hook, &many[AS_MAX_ACCESS_HOOKS]));
    for (unsigned i = 0; i < AS_MAX_ACCESS_HOOKS; i++)
        as_remove_access_hook(as, access_hook, &many[i]);
    g_assert_nonnull(as_host_ptr(as, 0x10, 4, false, 0));

    as_free(as);
    mr_destroy(&ram);
}

static void test_dump_flat(void)
{
    static const MemoryRegionOps ops = {.read = dev_read, .write = dev_write, .widths = MEM_W4};
    Dev d = {0};
    MemoryRegion sys, ram, rom, io;
    mr_init_container(&sys, "sys", 0x100000000ull);
    mr_init_ram(&ram, "hbm", 0x10000, 0);
    mr_init_rom(&rom, "boot", 0x1000, 0);
    mr_init_io(&io, "test", 0x1000, &ops, &d);
    mr_add_subregion(&sys, 0x0, &ram, 0);
    mr_add_subregion(&sys, 0x80000000ull, &io, 0);
    mr_add_subregion(&sys, 0x20000, &rom, 0);
    AddressSpace *as = as_new("t", &sys);
    GString *s = g_string_new(NULL);
    as_dump_flat(as, s);
    g_assert_cmpstr(s->str, ==,
                    "0x0000000000000000-0x000000000000ffff ram   hbm\n"
                    "0x0000000000020000-0x0000000000020fff rom   boot\n"
                    "0x0000000080000000-0x0000000080000fff io    test\n");
    g_string_free(s, TRUE);
    as_free(as);
    mr_destroy(&sys);
    mr_destroy(&ram);
    mr_destroy(&rom);
    mr_destroy(&io);
}

static void test_reset_zero(void)
{
    MemoryRegion ram;
    mr_init_ram(&ram, "ram", 0x100000, 0);
    AddressSpace *as = as_new("t", &ram);
    wr(as, 0x0, 8, ~0ull);
    wr(as, 0xffff8, 8, 0x1234);
    mr_ram_zero(&ram);
    g_assert_cmphex(rd(as, 0x0, 8), ==, 0);
    g_assert_cmphex(rd(as, 0xffff8, 8), ==, 0);
    as_free(as);
    mr_destroy(&ram);
}

/* as_hint_dense is advice only: contents before and after, stores into the
 * advised range, a reset and out-of-range, MMIO and empty hints behave as
 * without it (whether the host has huge pages or not). */
static void test_hint_dense(void)
{
    static const MemoryRegionOps ops = {.read = dev_read, .write = dev_write, .widths = MEM_W4};
    Dev d = {0};
    MemoryRegion sys, ram, io;
    mr_init_container(&sys, "sys", 0x100000000ull);
    mr_init_ram(&ram, "hbm", 16u << 20, 0);
    mr_init_io(&io, "test", 0x1000, &ops, &d);
    mr_add_subregion(&sys, 0x0, &ram, 0);
    mr_add_subregion(&sys, 0x80000000ull, &io, 0);
    AddressSpace *as = as_new("t", &sys);
    wr(as, 0x123458, 8, 0x1122334455667788ull);
    as_hint_dense(as, 0x100001, 5u << 20);    /* unaligned, across huge pages */
    as_hint_dense(as, (16u << 20) - 8, 64);   /* past the end of the region */
    as_hint_dense(as, 0x80000000ull, 0x1000); /* MMIO */
    as_hint_dense(as, 0x200000, 0);           /* empty */
    /* as_populate likewise, on the same ranges and over the stored word */
    as_populate(as, 0x100001, 5u << 20);
    as_populate(as, (16u << 20) - 8, 64);
    as_populate(as, 0x80000000ull, 0x1000);
    as_populate(as, 0x200000, 0);
    g_assert_cmphex(rd(as, 0x123458, 8), ==, 0x1122334455667788ull);
    g_assert_cmphex(rd(as, 0x300000, 8), ==, 0);
    wr(as, 0x400000, 4, 0xCAFEF00D);
    g_assert_cmphex(rd(as, 0x400000, 4), ==, 0xCAFEF00D);
    g_assert_cmphex(rd(as, 0x3FFFFC, 4), ==, 0);
    mr_ram_zero(&ram);
    g_assert_cmphex(rd(as, 0x400000, 4), ==, 0);
    g_assert_cmphex(rd(as, 0x123458, 8), ==, 0);
    as_free(as);
    mr_destroy(&sys);
    mr_destroy(&ram);
    mr_destroy(&io);
}

/* as_populate backs the range with host memory before anything touches it
 * (where the host kernel has MADV_POPULATE_WRITE, Linux >= 5.14): every host
 * page of a never-touched range is resident afterwards (mincore). */
static void test_populate(void)
{
#if defined(MADV_POPULATE_WRITE)
    const size_t pg = (size_t)sysconf(_SC_PAGESIZE), len = 64 * pg;
    void *probe = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    g_assert(probe != MAP_FAILED);
    bool have = madvise(probe, pg, MADV_POPULATE_WRITE) == 0;
    munmap(probe, pg);
    if (!have) {
        g_test_skip("the host kernel has no MADV_POPULATE_WRITE");
        return;
    }
    MemoryRegion sys, ram;
    mr_init_container(&sys, "sys", 0x100000000ull);
    mr_init_ram(&ram, "hbm", 16u << 20, 0);
    mr_add_subregion(&sys, 0x0, &ram, 0);
    AddressSpace *as = as_new("t", &sys);
    const uint64_t at = 0x800000;
    uint8_t *h = as_host_ptr(as, at, len, false, 0);
    g_assert_nonnull(h);
    unsigned char vec[64];
    g_assert_cmpint(mincore(h, len, vec), ==, 0);
    unsigned before = 0, after = 0;
    for (unsigned i = 0; i < 64; i++)
        before += vec[i] & 1;
    as_populate(as, at, len);
    g_assert_cmpint(mincore(h, len, vec), ==, 0);
    for (unsigned i = 0; i < 64; i++)
        after += vec[i] & 1;
    g_assert_cmpuint(before, <, 64); /* else the test shows nothing */
    g_assert_cmpuint(after, ==, 64);
    g_assert_cmphex(rd(as, at, 8), ==, 0);
    as_free(as);
    mr_destroy(&sys);
    mr_destroy(&ram);
#else
    g_test_skip("built without MADV_POPULATE_WRITE");
#endif
}

/* A region tree that refers to itself must not hang or crash the flattener. */
static void test_alias_cycle(void)
{
    MemoryRegion sys, loop;
    mr_init_container(&sys, "sys", 0x1000);
    mr_init_alias(&loop, "loop", &loop, 0, 0x100);
    mr_add_subregion(&sys, 0, &loop, 0);
    AddressSpace *as = as_new("t", &sys);
    g_assert_null(as_lookup(as, 0));
    as_free(as);
    mr_destroy(&sys);
    mr_destroy(&loop);
}

/* ---- sparse RAM ---- */

static void test_sparse_64g(void)
{
    const uint64_t size = 64ull << 30;
    MemoryRegion sys, hbm;
    long before = vm_rss_kib();
    mr_init_container(&sys, "sys", 0x40ull << 32);
    mr_init_ram(&hbm, "hbm", size, MR_F_FETCH | MR_F_DMA);
    g_assert_nonnull(hbm.host);
    mr_add_subregion(&sys, 0, &hbm, 0);
    AddressSpace *as = as_new("t", &sys);

    wr(as, 0x12345, 1, 0x42);
    wr(as, size - 8, 8, 0x8877665544332211ull);
    as_mark_code(as, size - 4096, 4096); /* 2 MiB bitmap, one page touched */
    g_assert_cmphex(rd(as, 0x12345, 1), ==, 0x42);
    g_assert_cmphex(rd(as, size - 8, 8), ==, 0x8877665544332211ull);
    g_assert_cmphex(rd(as, size - 1, 1), ==, 0x88);
    g_assert_cmphex(rd(as, size / 2, 8), ==, 0);
    uint64_t v;
    g_assert_cmpint(as_read(as, size, 1, &v, SEQ0), ==, MEMTX_UNMAPPED);
    g_assert_cmpint(as_read(as, size - 4, 8, &v, SEQ0), ==, MEMTX_UNMAPPED);
    g_assert_true(as_is_ram(as, 0, size, MR_F_DMA));

    long growth = vm_rss_kib() - before;
    g_test_message("VmRSS growth for a 64 GiB RAM region: %ld KiB", growth);
    g_assert_cmpint(growth, <, 16 * 1024);

    as_free(as);
    mr_destroy(&sys);
    mr_destroy(&hbm);
}

/* mr_init_ram_ptr: RAM over borrowed host memory, which mr_destroy leaves
 * mapped and mr_ram_zero clears. */
static void test_ram_ptr(void)
{
    uint8_t *buf = mmap(NULL, 0x2000, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    g_assert_true(buf != MAP_FAILED);
    MemoryRegion sys, a, b;
    mr_init_container(&sys, "sys", 0x10000);
    mr_init_ram_ptr(&a, "a", 0x1000, 0, buf);
    mr_init_ram_ptr(&b, "b", 0x1000, 0, buf + 0x1000);
    mr_add_subregion(&sys, 0x4000, &a, 0);
    mr_add_subregion(&sys, 0x8000, &b, 0);
    AddressSpace *as = as_new("t", &sys);
    MemTxAttrs at = MEMTXATTRS(MEM_REQ_SEQ, 0);
    g_assert_cmpint(as_write(as, 0x4010, 4, 0x11223344, at), ==, MEMTX_OK);
    g_assert_cmpint(as_write(as, 0x8010, 4, 0x55667788, at), ==, MEMTX_OK);
    g_assert_cmphex(buf[0x10], ==, 0x44);
    g_assert_cmphex(buf[0x1010], ==, 0x88);
    mr_ram_zero(&a);
    g_assert_cmphex(buf[0x10], ==, 0);
    g_assert_cmphex(buf[0x1010], ==, 0x88);
    as_free(as);
    mr_destroy(&a);
    mr_destroy(&b);
    mr_destroy(&sys);
    buf[0x1fff] = 1; /* still mapped: the regions did not own it */
    g_assert_cmpint(munmap(buf, 0x2000), ==, 0);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/memory/priority", test_priority);
    g_test_add_func("/memory/equal-priority-later-wins", test_equal_priority_later_wins);
    g_test_add_func("/memory/alias", test_alias);
    g_test_add_func("/memory/nested-containers", test_nested_containers);
    g_test_add_func("/memory/holes-unmapped", test_holes_unmapped);
    g_test_add_func("/memory/little-endian", test_little_endian);
    g_test_add_func("/memory/io-width-alignment", test_io_width_alignment);
    g_test_add_func("/memory/rom-rules", test_rom_rules);
    g_test_add_func("/memory/rw-bytes-all-or-nothing", test_rw_bytes_all_or_nothing);
    g_test_add_func("/memory/code-hook", test_code_hook);
    g_test_add_func("/memory/fast-path", test_fast_path);
    g_test_add_func("/memory/access-hook", test_access_hook);
    g_test_add_func("/memory/access-hooks-any-order", test_access_hooks_any_order);
    g_test_add_func("/memory/dump-flat", test_dump_flat);
    g_test_add_func("/memory/reset-zero", test_reset_zero);
    g_test_add_func("/memory/hint-dense", test_hint_dense);
    g_test_add_func("/memory/populate", test_populate);
    g_test_add_func("/memory/alias-cycle", test_alias_cycle);
    g_test_add_func("/memory/sparse-64g", test_sparse_64g);
    g_test_add_func("/memory/ram-ptr", test_ram_ptr);
    return g_test_run();
}
