/*
 * as_host_span / mem_span_ptr (include/nxemu/memory.h): a cached RAM span is
 * a software TLB entry, so it must cover exactly one RAM run, never cross
 * into another region or a hole, and stop matching as soon as anything that
 * changes how accesses are handled happens: a new flat view (as_commit), an
 * access observer added or removed, pages marked as code.  Write spans of a
 * region holding code are the code-free pages around the address (at most
 * 512 each way), so code writes keep taking the invalidating slow path.  Expected values come from the header's
 * contract and the 4 KiB code-page granule, not from the implementation.
 */
#include <string.h>

#include <glib.h>

#include "nxemu/memory.h"

#define SEQ0 MEMTXATTRS(MEM_REQ_SEQ, 0)
#define PAGE 0x1000ull

typedef struct Fix {
    MemoryRegion sys, ram, ram2, rom, io, over;
    AddressSpace *as;
} Fix;

/* NULL callbacks: reads 0, writes ignored (an I/O region all the same) */
static const MemoryRegionOps io_ops = {0};

/* ram [0x10000, 0x20000) directly followed by ram2 [0x20000, 0x24000),
 * a hole, rom at 0x40000 (0x2000), io at 0x50000. */
static void fix_init(Fix *f)
{
    memset(f, 0, sizeof(*f));
    mr_init_container(&f->sys, "sys", 0x100000);
    mr_init_ram(&f->ram, "ram", 0x10000, 0);
    mr_init_ram(&f->ram2, "ram2", 0x4000, 0);
    mr_init_rom(&f->rom, "rom", 0x2000, 0);
    mr_init_io(&f->io, "io", 0x1000, &io_ops, NULL);
    mr_add_subregion(&f->sys, 0x10000, &f->ram, 0);
    mr_add_subregion(&f->sys, 0x20000, &f->ram2, 0);
    mr_add_subregion(&f->sys, 0x40000, &f->rom, 0);
    mr_add_subregion(&f->sys, 0x50000, &f->io, 0);
    f->as = as_new("span", &f->sys);
}

static void fix_free(Fix *f)
{
    as_free(f->as);
    mr_destroy(&f->sys);
    mr_destroy(&f->ram);
    mr_destroy(&f->ram2);
    mr_destroy(&f->rom);
    mr_destroy(&f->io);
    if (f->over.name)
        mr_destroy(&f->over);
}

/* The span is the whole RAM run of the region, no more. */
static void test_span_extent(void)
{
    Fix f;
    fix_init(&f);
    MemHostSpan s;
    g_assert_true(as_host_span(f.as, 0x18000, false, &s));
    g_assert_cmphex(s.lo, ==, 0x10000);
    g_assert_cmphex(s.len, ==, 0x10000);
    g_assert_true(s.host == f.ram.host);
    /* same bytes as the slow path */
    g_assert_cmpint(as_write(f.as, 0x1FFFC, 4, 0x11223344, SEQ0), ==, MEMTX_OK);
    uint8_t *p = mem_span_ptr(&s, 0x1FFFC, 4);
    g_assert_nonnull(p);
    g_assert_cmphex(p[0], ==, 0x44);
    g_assert_cmphex(p[3], ==, 0x11);
    /* the last 256 bytes fit, one more byte does not, even though ram2
     * follows without a hole: a span never crosses into another region */
    g_assert_nonnull(mem_span_ptr(&s, 0x1FF00, 256));
    g_assert_null(mem_span_ptr(&s, 0x1FF01, 256));
    g_assert_null(mem_span_ptr(&s, 0x20000, 1));
    g_assert_null(mem_span_ptr(&s, 0xFFFF, 1));
    /* wrap-around lengths never match */
    g_assert_null(mem_span_ptr(&s, 0x10010, UINT64_MAX));
    g_assert_null(mem_span_ptr(&s, UINT64_MAX, 2));
    /* a span found from the other region is that region's */
    g_assert_true(as_host_span(f.as, 0x20000, true, &s));
    g_assert_cmphex(s.lo, ==, 0x20000);
    g_assert_cmphex(s.len, ==, 0x4000);
    fix_free(&f);
}

/* Holes and I/O have no span; ROM only for reads (as as_host_ptr). */
static void test_span_kinds(void)
{
    Fix f;
    fix_init(&f);
    MemHostSpan s;
    g_assert_false(as_host_span(f.as, 0x30000, false, &s));
    g_assert_cmpuint(s.len, ==, 0);
    g_assert_null(mem_span_ptr(&s, 0x30000, 1));
    g_assert_false(as_host_span(f.as, 0x50000, false, &s));
    g_assert_false(as_host_span(f.as, 0x50000, true, &s));
    g_assert_true(as_host_span(f.as, 0x40100, false, &s));
    g_assert_cmphex(s.lo, ==, 0x40000);
    g_assert_cmphex(s.len, ==, 0x2000);
    g_assert_false(as_host_span(f.as, 0x40100, true, &s));
    g_assert_cmpuint(s.len, ==, 0);
    fix_free(&f);
}

/* A new flat view invalidates every span, also when the region under the
 * span is covered by a higher-priority one. */
static void test_span_commit(void)
{
    Fix f;
    fix_init(&f);
    MemHostSpan s;
    g_assert_true(as_host_span(f.as, 0x10000, false, &s));
    g_assert_nonnull(mem_span_ptr(&s, 0x14000, 4));
    mr_init_ram(&f.over, "over", 0x1000, 0);
    mr_add_subregion(&f.sys, 0x14000, &f.over, 1);
    as_commit(f.as);
    g_assert_null(mem_span_ptr(&s, 0x14000, 4));
    g_assert_null(mem_span_ptr(&s, 0x10000, 4));
    /* the new span stops where the overlay begins */
    g_assert_true(as_host_span(f.as, 0x10000, false, &s));
    g_assert_cmphex(s.lo, ==, 0x10000);
    g_assert_cmphex(s.len, ==, 0x4000);
    g_assert_true(as_host_span(f.as, 0x14800, true, &s));
    g_assert_true(s.host == f.over.host);
    fix_free(&f);
}

static unsigned hook_calls;

static void count_hook(void *opaque, uint64_t addr, unsigned size, bool is_write, MemTxAttrs attrs)
{
    hook_calls++;
}

/* An observer must see every access: while one is installed there is no
 * span, installing one kills the spans taken before, and removing it kills
 * nothing that could still be valid but allows new spans. */
static void test_span_hooks(void)
{
    Fix f;
    fix_init(&f);
    MemHostSpan r, w;
    g_assert_true(as_host_span(f.as, 0x10000, false, &r));
    g_assert_true(as_host_span(f.as, 0x10000, true, &w));
    g_assert_true(as_add_access_hook(f.as, count_hook, NULL));
    g_assert_null(mem_span_ptr(&r, 0x10000, 4));
    g_assert_null(mem_span_ptr(&w, 0x10000, 4));
    g_assert_false(as_host_span(f.as, 0x10000, false, &r));
    g_assert_false(as_host_span(f.as, 0x10000, true, &w));
    hook_calls = 0;
    g_assert_cmpint(as_write(f.as, 0x10000, 4, 1, SEQ0), ==, MEMTX_OK);
    g_assert_cmpuint(hook_calls, ==, 1);
    as_remove_access_hook(f.as, count_hook, NULL);
    g_assert_true(as_host_span(f.as, 0x10000, false, &r));
    g_assert_nonnull(mem_span_ptr(&r, 0x10000, 4));
    /* a second observer added and removed: spans taken in between are
     * impossible and spans taken before it are dead */
    g_assert_true(as_add_access_hook(f.as, count_hook, &f));
    g_assert_null(mem_span_ptr(&r, 0x10000, 4));
    as_remove_access_hook(f.as, count_hook, &f);
    g_assert_null(mem_span_ptr(&r, 0x10000, 4));
    fix_free(&f);
}

static uint64_t code_lo, code_len;
static unsigned code_calls;

static void code_hook(void *opaque, uint64_t addr, uint64_t len)
{
    code_calls++;
    code_lo = addr;
    code_len = len;
}

/* Code pages: a write span is the run of code-free pages around its
 * address; a write on a code page has no span, so it goes through as_write
 * and its hook. */
static void test_span_code(void)
{
    Fix f;
    fix_init(&f);
    as_set_code_write_hook(f.as, code_hook, NULL);
    MemHostSpan r, w;
    g_assert_true(as_host_span(f.as, 0x13000, true, &w));
    g_assert_cmphex(w.len, ==, 0x10000); /* no code yet: the whole region */
    g_assert_true(as_host_span(f.as, 0x13000, false, &r));
    /* page 0x14000 becomes code: older spans die, reads get the region */
    as_mark_code(f.as, 0x14010, 0x20);
    g_assert_null(mem_span_ptr(&w, 0x13000, 4));
    g_assert_null(mem_span_ptr(&r, 0x13000, 4));
    g_assert_true(as_host_span(f.as, 0x13000, false, &r));
    g_assert_cmphex(r.lo, ==, 0x10000);
    g_assert_cmphex(r.len, ==, 0x10000);
    g_assert_false(as_host_span(f.as, 0x14000, true, &w));
    g_assert_false(as_host_span(f.as, 0x14FFF, true, &w));
    /* the neighbours: up to the code page, from the region's start or to
     * its end */
    g_assert_true(as_host_span(f.as, 0x13F80, true, &w));
    g_assert_cmphex(w.lo, ==, 0x10000);
    g_assert_cmphex(w.len, ==, 0x4000);
    g_assert_nonnull(mem_span_ptr(&w, 0x13F00, 256));
    /* a 256-byte store ending in the code page does not fit the span */
    g_assert_null(mem_span_ptr(&w, 0x13F80, 256));
    g_assert_true(as_host_span(f.as, 0x15000, true, &w));
    g_assert_cmphex(w.lo, ==, 0x15000);
    g_assert_cmphex(w.len, ==, 0xB000);
    g_assert_null(mem_span_ptr(&w, 0x14F80, 256));
    /* the slow path of the straddling store reports the code bytes */
    code_calls = 0;
    uint8_t buf[256];
    memset(buf, 0xAB, sizeof(buf));
    uint64_t bad;
    g_assert_cmpint(as_rw_bytes(f.as, 0x13F80, buf, sizeof(buf), true, SEQ0, &bad), ==, MEMTX_OK);
    g_assert_cmpuint(code_calls, ==, 1);
    g_assert_cmphex(code_lo, ==, 0x14000);
    g_assert_cmphex(code_len, ==, 0x80);
    /* the mark is cleared by that write: a new write span covers the page
     * again, and with no code page left, the whole region */
    g_assert_true(as_host_span(f.as, 0x14000, true, &w));
    g_assert_cmphex(w.lo, ==, 0x10000);
    g_assert_cmphex(w.len, ==, 0x10000);
    /* marking code elsewhere (another region) also ends that span */
    as_mark_code(f.as, 0x20000, 0x20);
    g_assert_null(mem_span_ptr(&w, 0x14000, 4));
    fix_free(&f);
}

/* A page-limited write span in a region that does not start page aligned
 * in the address space: pages are region offsets (mr_offset), clipped to
 * the region. */
static void test_span_code_unaligned(void)
{
    MemoryRegion sys, ram;
    mr_init_container(&sys, "sys", 0x100000);
    mr_init_ram(&ram, "ram", 0x3000, 0);
    mr_add_subregion(&sys, 0x10800, &ram, 0);
    AddressSpace *as = as_new("u", &sys);
    as_mark_code(as, 0x11800, 4); /* region page 1 */
    MemHostSpan w;
    g_assert_true(as_host_span(as, 0x10900, true, &w));
    g_assert_cmphex(w.lo, ==, 0x10800);
    g_assert_cmphex(w.len, ==, PAGE);
    g_assert_true(w.host == ram.host);
    g_assert_false(as_host_span(as, 0x127FF, true, &w));
    g_assert_true(as_host_span(as, 0x12800, true, &w));
    g_assert_cmphex(w.lo, ==, 0x12800);
    g_assert_cmphex(w.len, ==, PAGE);
    g_assert_true(w.host == ram.host + 0x2000);
    as_free(as);
    mr_destroy(&sys);
    mr_destroy(&ram);
}

/* A write span reaches 512 code-free pages each way from its address, no
 * further (a miss scans no more than that), and stops before code. */
static void test_span_code_reach(void)
{
    MemoryRegion sys, ram;
    mr_init_container(&sys, "sys", 0x10000000);
    mr_init_ram(&ram, "ram", 0x800000, 0); /* 8 MiB: 2048 pages */
    mr_add_subregion(&sys, 0x1000000, &ram, 0);
    AddressSpace *as = as_new("r", &sys);
    as_mark_code(as, 0x1000000, 4); /* region page 0 */
    MemHostSpan w;
    /* page 1024: pages 512..1536 */
    g_assert_true(as_host_span(as, 0x1400010, true, &w));
    g_assert_cmphex(w.lo, ==, 0x1000000 + 512 * PAGE);
    g_assert_cmphex(w.len, ==, 1025 * PAGE);
    g_assert_true(w.host == ram.host + 512 * PAGE);
    /* page 100: back to page 1 (page 0 is code), on to page 612 */
    g_assert_true(as_host_span(as, 0x1000000 + 100 * PAGE, true, &w));
    g_assert_cmphex(w.lo, ==, 0x1000000 + PAGE);
    g_assert_cmphex(w.len, ==, 612 * PAGE);
    /* page 2000: from page 1488 to the region's last, 2047 */
    g_assert_true(as_host_span(as, 0x1000000 + 2000 * PAGE, true, &w));
    g_assert_cmphex(w.lo, ==, 0x1000000 + 1488 * PAGE);
    g_assert_cmphex(w.len, ==, 560 * PAGE);
    as_free(as);
    mr_destroy(&sys);
    mr_destroy(&ram);
}

/* Code-write hooks: every installed hook hears a write to a marked page,
 * one (fn, opaque) is installed once, and there is a limit. */
typedef struct Heard {
    unsigned n;
    uint64_t addr, len;
} Heard;

static void heard(void *opaque, uint64_t addr, uint64_t len)
{
    Heard *h = opaque;
    h->n++;
    h->addr = addr;
    h->len = len;
}

static void test_code_hooks_list(void)
{
    Fix f;
    fix_init(&f);
    Heard a = {0}, b = {0}, extra[AS_MAX_CODE_HOOKS] = {{0}};
    g_assert_true(as_set_code_write_hook(f.as, heard, &a));
    g_assert_true(as_set_code_write_hook(f.as, heard, &a)); /* again: no second slot */
    g_assert_true(as_set_code_write_hook(f.as, heard, &b));
    unsigned used = 2;
    for (unsigned i = 0; used < AS_MAX_CODE_HOOKS; i++, used++)
        g_assert_true(as_set_code_write_hook(f.as, heard, &extra[i]));
    Heard more = {0};
    g_assert_false(as_set_code_write_hook(f.as, heard, &more)); /* full */

    as_mark_code(f.as, 0x10000 + PAGE, 16);
    g_assert_cmpint(as_write(f.as, 0x10000 + PAGE + 8, 4, 0x1234, SEQ0), ==, MEMTX_OK);
    g_assert_cmpuint(a.n, ==, 1); /* once, although installed twice */
    g_assert_cmpuint(b.n, ==, 1);
    g_assert_cmphex(b.addr, ==, 0x10000 + PAGE + 8);
    g_assert_cmpuint(b.len, ==, 4);
    g_assert_cmpuint(more.n, ==, 0);
    /* the write cleared the mark: the next write is not reported */
    g_assert_cmpint(as_write(f.as, 0x10000 + PAGE + 8, 4, 0x5678, SEQ0), ==, MEMTX_OK);
    g_assert_cmpuint(a.n, ==, 1);
    fix_free(&f);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/memory-span/extent", test_span_extent);
    g_test_add_func("/memory-span/kinds", test_span_kinds);
    g_test_add_func("/memory-span/commit", test_span_commit);
    g_test_add_func("/memory-span/hooks", test_span_hooks);
    g_test_add_func("/memory-span/code", test_span_code);
    g_test_add_func("/memory-span/code-unaligned", test_span_code_unaligned);
    g_test_add_func("/memory-span/code-reach", test_span_code_reach);
    g_test_add_func("/memory-span/code-hooks", test_code_hooks_list);
    return g_test_run();
}
