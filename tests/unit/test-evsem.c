/* EVSEM block (machine.md §4.1) through the system map, and the events-field
 * update codes (sequencer.md §4.3). */
#include <string.h>

#include <glib.h>

#include "hw/nc2/board.h"
#include "hw/nc2/evsem.h"
#include "nxemu/machine.h"

#define EVSEM_PA 0x2802700000ull

typedef struct Fix {
    Machine *m;
    EvSem *es;
} Fix;

static void fix_init(Fix *f)
{
    Machine *m = f->m = g_new0(Machine, 1);
    m->board = g_new0(NxBoard, 1);
    mr_init_container(&m->sysmem, "system", 1ull << 40);
    evsem_init(&m->board->evsem, m);
    mr_add_subregion(&m->sysmem, EVSEM_PA, &m->board->evsem.mmio, 0);
    m->as = as_new("pa", &m->sysmem);
    f->es = &m->board->evsem;
}

static void fix_fini(Fix *f)
{
    as_free(f->m->as);
    evsem_destroy(&f->m->board->evsem);
    mr_destroy(&f->m->sysmem);
    g_free(f->m->board);
    g_free(f->m);
}

static const MemTxAttrs seq0 = {MEM_REQ_SEQ, 0};

static uint32_t rd(Fix *f, uint64_t off)
{
    uint64_t v = 0xDEAD;
    g_assert_cmpint(as_read(f->m->as, EVSEM_PA + off, 4, &v, seq0), ==, MEMTX_OK);
    return (uint32_t)v;
}

static void wr(Fix *f, uint64_t off, uint32_t v)
{
    g_assert_cmpint(as_write(f->m->as, EVSEM_PA + off, 4, v, seq0), ==, MEMTX_OK);
}

static void test_events(void)
{
    Fix f;
    fix_init(&f);
    g_assert_cmpuint(rd(&f, 0x0), ==, 0);
    wr(&f, 4 * 5, 0x80000000); /* any nonzero value sets */
    g_assert_cmpuint(rd(&f, 4 * 5), ==, 1);
    g_assert_cmpuint(f.es->evt[5], ==, 1);
    wr(&f, 4 * 255, 7);
    g_assert_cmpuint(rd(&f, 4 * 255), ==, 1);
    wr(&f, 4 * 5, 0);
    g_assert_cmpuint(rd(&f, 4 * 5), ==, 0);
    g_assert_cmpuint(rd(&f, 4 * 255), ==, 1);
    fix_fini(&f);
}

static void test_semaphores(void)
{
    Fix f;
    fix_init(&f);
    const uint64_t READ = 0x1000, SET = 0x1400, INC = 0x1800, DEC = 0x1C00;
    wr(&f, SET + 4 * 3, 10);
    g_assert_cmpuint(rd(&f, READ + 4 * 3), ==, 10);
    /* Every view reads the value. */
    g_assert_cmpuint(rd(&f, SET + 4 * 3), ==, 10);
    g_assert_cmpuint(rd(&f, INC + 4 * 3), ==, 10);
    g_assert_cmpuint(rd(&f, DEC + 4 * 3), ==, 10);
    wr(&f, INC + 4 * 3, 5);
    g_assert_cmpuint(rd(&f, READ + 4 * 3), ==, 15);
    wr(&f, DEC + 4 * 3, 6);
    g_assert_cmpuint(rd(&f, READ + 4 * 3), ==, 9);
    wr(&f, READ + 4 * 3, 1000); /* ignored */
    g_assert_cmpuint(rd(&f, READ + 4 * 3), ==, 9);
    /* Other semaphores untouched. */
    g_assert_cmpuint(rd(&f, READ + 4 * 2), ==, 0);
    g_assert_cmpuint(rd(&f, READ + 4 * 4), ==, 0);
    wr(&f, SET + 4 * 255, 1);
    g_assert_cmpuint(f.es->sem[255], ==, 1);
    fix_fini(&f);
}

static void test_wrap(void)
{
    Fix f;
    fix_init(&f);
    wr(&f, 0x1C00, 1); /* 0 - 1 */
    g_assert_cmphex(rd(&f, 0x1000), ==, 0xFFFFFFFF);
    wr(&f, 0x1800, 3); /* 0xFFFFFFFF + 3 */
    g_assert_cmphex(rd(&f, 0x1000), ==, 2);
    wr(&f, 0x1800 + 4, 0xFFFFFFFF);
    wr(&f, 0x1800 + 4, 0xFFFFFFFF);
    g_assert_cmphex(rd(&f, 0x1004), ==, 0xFFFFFFFE);
    fix_fini(&f);
}

static void test_bus_errors(void)
{
    Fix f;
    fix_init(&f);
    AddressSpace *as = f.m->as;
    uint64_t v;
    /* 4-byte accesses only, 4-aligned. */
    g_assert_cmpint(as_read(as, EVSEM_PA + 0x1000, 8, &v, seq0), !=, MEMTX_OK);
    g_assert_cmpint(as_read(as, EVSEM_PA + 0x1000, 2, &v, seq0), !=, MEMTX_OK);
    g_assert_cmpint(as_write(as, EVSEM_PA + 0x1000, 1, 1, seq0), !=, MEMTX_OK);
    g_assert_cmpint(as_read(as, EVSEM_PA + 0x1002, 4, &v, seq0), !=, MEMTX_OK);
    /* Undecoded offsets of the 1 MiB window. */
    static const uint64_t holes[] = {0x400, 0xFFC, 0x2000, 0x80000, 0xFFFFC};
    for (unsigned i = 0; i < G_N_ELEMENTS(holes); i++) {
        g_assert_cmpint(as_read(as, EVSEM_PA + holes[i], 4, &v, seq0), ==, MEMTX_UNMAPPED);
        g_assert_cmpint(as_write(as, EVSEM_PA + holes[i], 4, 1, seq0), ==, MEMTX_UNMAPPED);
    }
    for (unsigned i = 0; i < NC2_NR_SEMAPHORES; i++) {
        g_assert_cmpuint(f.es->sem[i], ==, 0);
    }
    fix_fini(&f);
}

static void test_update_codes(void)
{
    Fix f;
    fix_init(&f);
    EvSem *es = f.es;
    for (uint8_t base = 0x00; base <= 0x10; base += 0x10) { /* _READ, then _COMPLETE */
        memset(es->sem, 0, sizeof(es->sem));
        memset(es->evt, 0, sizeof(es->evt));
        evsem_update(es, base | 0x01, 7, 0);
        g_assert_cmpuint(es->evt[7], ==, 1);
        evsem_update(es, base | 0x02, 7, 0);
        g_assert_cmpuint(es->evt[7], ==, 0);
        evsem_update(es, base | 0x03, 9, 0);
        g_assert_cmpuint(es->sem[9], ==, 1);
        evsem_update(es, base | 0x04, 9, 0);
        evsem_update(es, base | 0x04, 9, 0);
        g_assert_cmphex(es->sem[9], ==, 0xFFFFFFFF);
        evsem_update(es, base | 0x05, 1, 40);
        evsem_update(es, base | 0x06, 1, 2); /* value = R[V], already read */
        g_assert_cmpuint(es->sem[1], ==, 42);
        evsem_update(es, base | 0x07, 1, 30);
        evsem_update(es, base | 0x08, 1, 2);
        g_assert_cmpuint(es->sem[1], ==, 10);
        evsem_update(es, base | 0x09, 2, 0x12345678);
        g_assert_cmphex(es->sem[2], ==, 0x12345678);
        evsem_update(es, base | 0x0A, 2, 3);
        g_assert_cmphex(es->sem[2], ==, 3);
    }
    /* NONE changes nothing. */
    uint64_t changes = es->changes;
    evsem_update(es, 0x00, 0, 0);
    g_assert_cmpuint(es->changes, ==, changes);
    fix_fini(&f);
}

static void test_changes_counter(void)
{
    Fix f;
    fix_init(&f);
    uint64_t c0 = f.es->changes;
    wr(&f, 0x1800, 1);
    g_assert_cmpuint(f.es->changes, >, c0);
    uint64_t c1 = f.es->changes;
    wr(&f, 0x10, 1);
    g_assert_cmpuint(f.es->changes, >, c1);
    fix_fini(&f);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/evsem/events", test_events);
    g_test_add_func("/evsem/semaphores", test_semaphores);
    g_test_add_func("/evsem/wrap", test_wrap);
    g_test_add_func("/evsem/bus-errors", test_bus_errors);
    g_test_add_func("/evsem/update-codes", test_update_codes);
    g_test_add_func("/evsem/changes", test_changes_counter);
    return g_test_run();
}
