/* Test/exit device (machine.md §7, §12.11): FINISHER statuses and the FAIL
 * code clamps, ignored values, CONSOLE bytes on stdout, reserved offsets and
 * widths. */
#include <stdio.h>

#include <glib.h>

#include "hw/nc2/board.h"
#include "hw/nc2/testdev.h"
#include "nxemu/machine.h"

#define TEST_PA 0x2805000000ull

typedef struct Fix {
    Machine m;
    NxBoard board;
} Fix;

static Fix *fix_new(void)
{
    Fix *f = g_new0(Fix, 1);
    Machine *m = &f->m;
    m->board = &f->board;
    mr_init_container(&m->sysmem, "system", 1ull << 40);
    testdev_init(&m->board->test, m);
    mr_add_subregion(&m->sysmem, TEST_PA, &m->board->test.mmio, 0);
    m->as = as_new("pa", &m->sysmem);
    return f;
}

static void fix_free(Fix *f)
{
    as_free(f->m.as);
    testdev_destroy(&f->m.board->test);
    mr_destroy(&f->m.sysmem);
    g_free(f);
}

static void wr(Fix *f, uint64_t off, unsigned size, uint64_t v)
{
    g_assert_cmpint(as_write(f->m.as, TEST_PA + off, size, v, MEMTXATTRS(MEM_REQ_SEQ, 0)), ==,
                    MEMTX_OK);
}

/* Status after one 4-byte FINISHER write of v, or -1 if the run goes on. */
static int finish_with(uint32_t v)
{
    Fix *f = fix_new();
    wr(f, 0, 4, v);
    int st = f->m.stop ? f->m.exit_status : -1;
    if (f->m.stop) {
        g_assert_cmpint(f->m.stop_reason, ==, STOP_FINISHER);
    }
    fix_free(f);
    return st;
}

static void test_pass(void)
{
    g_assert_cmpint(finish_with(0x5555), ==, 0);
    g_assert_cmpint(finish_with(0xABCD5555), ==, 0); /* upper bits do not matter for PASS */
}

static void test_fail_codes(void)
{
    g_assert_cmpint(finish_with(0x3333), ==, 1); /* code 0 becomes 1 */
    g_assert_cmpint(finish_with(0x00013333), ==, 1);
    g_assert_cmpint(finish_with(0x00073333), ==, 7);
    g_assert_cmpint(finish_with(0x007A3333), ==, 122);
    g_assert_cmpint(finish_with(0x007B3333), ==, 122); /* 123 would look like a limit */
    g_assert_cmpint(finish_with(0x00C83333), ==, 122); /* 200 */
    g_assert_cmpint(finish_with(0x00FF3333), ==, 122);
    g_assert_cmpint(finish_with(0x12053333), ==, 5); /* only bits 23:16 */
}

static void test_ignored_values(void)
{
    g_assert_cmpint(finish_with(0), ==, -1);
    g_assert_cmpint(finish_with(0x4444), ==, -1);
    g_assert_cmpint(finish_with(0x55550000), ==, -1);
    g_assert_cmpint(finish_with(0x5556), ==, -1);
}

static void test_last_write_decides(void)
{
    Fix *f = fix_new();
    wr(f, 0, 4, 0x00053333);
    wr(f, 0, 4, 0x5555);
    g_assert_true(f->m.stop);
    g_assert_cmpint(f->m.exit_status, ==, 0);
    fix_free(f);
}

static void test_reserved(void)
{
    Fix *f = fix_new();
    /* FINISHER only as a 4-byte write at offset 0. */
    wr(f, 0, 2, 0x5555);
    wr(f, 0, 8, 0x5555);
    wr(f, 8, 4, 0x5555);
    wr(f, 0xFFC, 4, 0x3333);
    g_assert_false(f->m.stop);
    static const struct {
        uint64_t off;
        unsigned size;
    } rds[] = {{0, 4}, {4, 4}, {4, 1}, {8, 8}, {0xFF8, 8}, {0, 1}, {6, 2}};
    for (unsigned i = 0; i < G_N_ELEMENTS(rds); i++) {
        uint64_t v = 0xDEAD;
        g_assert_cmpint(
            as_read(f->m.as, TEST_PA + rds[i].off, rds[i].size, &v, MEMTXATTRS(MEM_REQ_SEQ, 0)), ==,
            MEMTX_OK);
        g_assert_cmphex(v, ==, 0);
    }
    fix_free(f);
}

static void test_console(void)
{
    if (g_test_subprocess()) {
        Fix *f = fix_new();
        wr(f, 4, 1, 'H');
        wr(f, 4, 2, 0x4100 | 'i'); /* low byte only */
        wr(f, 4, 4, 0x12345600 | '!');
        wr(f, 0, 8, 'X'); /* 8 bytes: reserved */
        wr(f, 5, 1, 'Y'); /* other offsets: reserved */
        wr(f, 0, 1, 'Z');
        wr(f, 4, 1, '\n');
        fflush(stdout);
        fix_free(f);
        return;
    }
    g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
    g_test_trap_assert_passed();
    g_test_trap_assert_stdout("Hi!\n");
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/testdev/pass", test_pass);
    g_test_add_func("/testdev/fail-codes", test_fail_codes);
    g_test_add_func("/testdev/ignored-values", test_ignored_values);
    g_test_add_func("/testdev/last-write-decides", test_last_write_decides);
    g_test_add_func("/testdev/reserved", test_reserved);
    g_test_add_func("/testdev/console", test_console);
    return g_test_run();
}
