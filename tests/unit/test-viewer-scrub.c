/*
 * The viewer's time cursor and its access log (hw/display/viewer-scrub.c,
 * docs/viewer.rst "Time cursor"), without SDL.  Each expected mark is
 * worked out by hand from the accesses the test makes and their vtimes
 * (marks store vtime + 1).
 */
#include <string.h>

#include "hw/display/viewer-int.h"
#include "viewer-testlib.h"
#include "nxemu/machine.h"

#define SBUF_BASE  0x2000000000ull
#define PSUM_BASE  0x2802000000ull
#define SBUF_PITCH 0x40000ull
#define PSUM_PITCH 0x8000ull /* 8 banks of 2 KiB, then a hole (machine.md §1.2) */

typedef struct Fx {
    Machine *m;
    ViewerModel *vm;
} Fx;

static void fx_setup(Fx *f, gconstpointer data)
{
    f->m = vt_machine(1, 1);
    f->vm = vt_model(f->m);
}

static void fx_teardown(Fx *f, gconstpointer data)
{
    vt_free(f->m, f->vm);
}

static void access_at(Fx *f, uint64_t vtime, uint64_t pa, unsigned len, bool wr)
{
    uint8_t buf[8] = {0};
    uint64_t bad;
    g_assert_cmpuint(len, <=, sizeof(buf));
    f->m->sched.vtime = vtime;
    g_assert_cmpint(as_rw_bytes(f->m->as, pa, buf, len, wr, MEMTXATTRS(MEM_REQ_DMA, 0), &bad), ==,
                    MEMTX_OK);
}

static const ViewMarkSet *at(Fx *f, uint64_t t)
{
    vscrub_set(f->vm, t);
    return vmodel_marks(f->vm);
}

/* The marks at T are those of the accesses made at vtime <= T. */
static void test_replay(Fx *f, gconstpointer data)
{
    const ViewMarkSet *s;
    unsigned idx[8];
    GString *g = g_string_new(NULL);
    access_at(f, 10, SBUF_BASE + 3 * SBUF_PITCH, 4, true);         /* p3 bin 0 */
    access_at(f, 10, PSUM_BASE + 2 * PSUM_PITCH + 0x800, 4, true); /* p2 bank 1 */
    access_at(f, 20, SBUF_BASE + 3 * SBUF_PITCH, 4, true);
    access_at(f, 20, SBUF_BASE + 5 * SBUF_PITCH, 4, false);
    access_at(f, 30, SBUF_BASE + 70 * SBUF_PITCH + 0x3FE, 4, true); /* p70 bins 0 and 1 */
    access_at(f, 30, 0x5000, 4, true);                              /* HBM cell 1 */
    g_assert_true(vmodel_marks(f->vm) == &f->vm->live);

    s = at(f, 5);
    g_assert_false(f->vm->scrub_clamped);
    g_assert_true(s != &f->vm->live);
    g_assert_cmpuint(s->sbuf_nwr[3], ==, 0);
    g_assert_cmpuint(s->sbuf[3][0].wr, ==, 0);
    g_assert_cmpuint(s->psum[2][1].nwr, ==, 0);
    g_assert_cmpuint(vpanel_busiest_sbuf(f->vm, idx, 8), ==, 0);

    s = at(f, 10);
    g_assert_cmpuint(s->sbuf_nwr[3], ==, 1);
    g_assert_cmpuint(s->sbuf[3][0].nwr, ==, 1);
    g_assert_cmpuint(s->sbuf[3][0].wr, ==, 11);
    g_assert_cmpuint(s->psum[2][1].nwr, ==, 1);
    g_assert_cmpuint(s->psum[2][0].nwr, ==, 0);
    g_assert_cmpuint(s->sbuf_nrd[5], ==, 0);
    g_assert_cmpuint(vpanel_busiest_sbuf(f->vm, idx, 8), ==, 1);
    g_assert_cmpuint(idx[0], ==, 3);
    /* the hover read-out counts as then: p3 written once, last at 10 */
    vmodel_hover_text(f->vm, VIEW_SBUF_X, VIEW_SBUF_Y + 3 * VIEW_PART_H, g);
    g_assert_nonnull(strstr(g->str, "(last w@10 r@-) p3 w=1 r=0"));

    s = at(f, 25);
    g_assert_cmpuint(s->sbuf_nwr[3], ==, 2);
    g_assert_cmpuint(s->sbuf[3][0].wr, ==, 21);
    g_assert_cmpuint(s->sbuf_nrd[5], ==, 1);
    g_assert_cmpuint(s->sbuf[5][0].rd, ==, 21);
    g_assert_cmpuint(s->sbuf_nwr[70], ==, 0);
    g_assert_cmpuint(s->hbm[1].nwr, ==, 0);

    s = at(f, 30);
    g_assert_cmpuint(s->sbuf_nwr[70], ==, 1);    /* once for the partition, */
    g_assert_cmpuint(s->sbuf[70][0].nwr, ==, 1); /* in both bins */
    g_assert_cmpuint(s->sbuf[70][1].wr, ==, 31);
    g_assert_cmpuint(s->hbm[1].nwr, ==, 1);
    g_assert_cmpuint(s->hbm[0].nwr, ==, 0);
    g_assert_cmpuint(vpanel_busiest_sbuf(f->vm, idx, 8), ==, 3);
    g_assert_cmpuint(idx[0], ==, 3); /* 2 accesses, then p5 and p70 with 1 by index */
    g_assert_cmpuint(idx[1], ==, 5);
    g_assert_cmpuint(idx[2], ==, 70);
    g_assert_true(memcmp(s, &f->vm->live, sizeof(*s)) == 0);

    /* While the cursor stands, a later access changes nothing; one at an
     * earlier vtime (another core's slice) is added. */
    s = at(f, 25);
    access_at(f, 40, SBUF_BASE + 9 * SBUF_PITCH, 4, true);
    s = vmodel_marks(f->vm);
    g_assert_cmpuint(s->sbuf_nwr[9], ==, 0);
    access_at(f, 22, SBUF_BASE + 9 * SBUF_PITCH, 4, true);
    s = vmodel_marks(f->vm);
    g_assert_cmpuint(s->sbuf_nwr[9], ==, 1);
    g_assert_cmpuint(s->sbuf[9][0].wr, ==, 23);
    g_assert_cmpuint(f->vm->live.sbuf_nwr[9], ==, 2);

    vscrub_off(f->vm);
    g_assert_true(vmodel_marks(f->vm) == &f->vm->live);
    g_string_free(g, TRUE);
}

/* Pixels of colour c in the header line (rows 6 to 12) of a frame drawn now. */
static unsigned header_pixels(Fx *f, uint32_t c)
{
    uint32_t *fb = g_new0(uint32_t, (size_t)VIEW_W * VIEW_H);
    unsigned n = 0;
    vrender_frame(f->vm, fb);
    for (int y = 6; y < 13; y++) {
        for (int x = 0; x < VIEW_W; x++) {
            n += fb[y * VIEW_W + x] == c;
        }
    }
    g_free(fb);
    return n;
}

/* A ring of 4: the 5th and 6th access fold the 1st and 2nd into base. */
static void test_wrap(Fx *f, gconstpointer data)
{
    const ViewMarkSet *s;
    vscrub_log_init(f->vm, 4);
    for (unsigned t = 1; t <= 6; t++) {
        access_at(f, t, SBUF_BASE + t * SBUF_PITCH, 4, true); /* partition t at vtime t */
    }
    g_assert_cmpuint(f->vm->log.total, ==, 6);
    g_assert_cmpuint(f->vm->log.floor, ==, 2);
    s = at(f, 0); /* before the floor: clamped to 2 */
    g_assert_true(f->vm->scrub_clamped);
    g_assert_cmpuint(f->vm->scrub_t, ==, 2);
    g_assert_cmpuint(s->sbuf_nwr[1], ==, 1);
    g_assert_cmpuint(s->sbuf_nwr[2], ==, 1);
    g_assert_cmpuint(s->sbuf_nwr[3], ==, 0);
    g_assert_cmpuint(header_pixels(f, VIEW_COL_TL_FAULT), >, 0); /* "(clamped: ...)" in red */
    s = at(f, 4);
    g_assert_false(f->vm->scrub_clamped);
    g_assert_cmpuint(header_pixels(f, VIEW_COL_TL_FAULT), ==, 0);
    g_assert_cmpuint(s->sbuf_nwr[4], ==, 1);
    g_assert_cmpuint(s->sbuf[4][0].wr, ==, 5);
    g_assert_cmpuint(s->sbuf_nwr[5], ==, 0);
    s = at(f, 6);
    g_assert_true(memcmp(s, &f->vm->live, sizeof(*s)) == 0);
    /* a cursor standing at 3 while the ring folds vtime 3 and 4 moves to 4 */
    s = at(f, 3);
    access_at(f, 7, SBUF_BASE + 7 * SBUF_PITCH, 4, true);
    access_at(f, 8, SBUF_BASE + 8 * SBUF_PITCH, 4, true);
    s = vmodel_marks(f->vm);
    g_assert_cmpuint(f->vm->log.floor, ==, 4);
    g_assert_true(f->vm->scrub_clamped);
    g_assert_cmpuint(f->vm->scrub_t, ==, 4);
    g_assert_cmpuint(s->sbuf_nwr[4], ==, 1);
    g_assert_cmpuint(s->sbuf_nwr[5], ==, 0);
}

/* Keys and a click on the timeline; the cursor line in the frame. */
static void test_keys_click_line(Fx *f, gconstpointer data)
{
    uint32_t *fb = g_new0(uint32_t, (size_t)VIEW_W * VIEW_H);
    int x;
    f->m->sched.vtime = 5760; /* 10 vtime per timeline column */
    g_assert_true(vmodel_key(f->vm, '['));
    g_assert_true(f->vm->scrub);
    g_assert_cmpuint(f->vm->scrub_t, ==, 5750);
    vmodel_key(f->vm, ']');
    g_assert_cmpuint(f->vm->scrub_t, ==, 5760);
    vmodel_key(f->vm, '}'); /* not past now */
    g_assert_cmpuint(f->vm->scrub_t, ==, 5760);
    vmodel_key(f->vm, '{'); /* 5760 / 16 */
    g_assert_cmpuint(f->vm->scrub_t, ==, 5400);
    vmodel_key(f->vm, VIEW_KEY_HOME);
    g_assert_cmpuint(f->vm->scrub_t, ==, 0);
    vmodel_key(f->vm, VIEW_KEY_END);
    g_assert_false(f->vm->scrub);

    g_assert_false(vscrub_click(f->vm, VIEW_TL_BAR_X + 288, VIEW_SBUF_Y));
    g_assert_false(f->vm->scrub);
    g_assert_true(vscrub_click(f->vm, VIEW_TL_BAR_X + 288, VIEW_TL_Y + 3));
    g_assert_cmpuint(f->vm->scrub_t, ==, 2880);
    x = vtl_x(f->vm, f->vm->scrub_t);
    g_assert_cmpint(x, ==, VIEW_TL_BAR_X + 288);
    vrender_frame(f->vm, fb);
    g_assert_cmphex(fb[VIEW_TL_Y * VIEW_W + x], ==, VIEW_COL_TL_CURSOR);
    g_assert_cmphex(fb[VIEW_TL_Y * VIEW_W + x - 1], !=, VIEW_COL_TL_CURSOR);
    g_assert_cmphex(fb[VIEW_TL_Y * VIEW_W + x + 1], !=, VIEW_COL_TL_CURSOR);
    /* no cursor, no line */
    vscrub_off(f->vm);
    vrender_frame(f->vm, fb);
    g_assert_cmphex(fb[VIEW_TL_Y * VIEW_W + x], !=, VIEW_COL_TL_CURSOR);
    g_free(fb);
}

#define FX_TEST(path, fn) g_test_add(path, Fx, NULL, fx_setup, fn, fx_teardown)

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    FX_TEST("/viewer-scrub/replay", test_replay);
    FX_TEST("/viewer-scrub/wrap", test_wrap);
    FX_TEST("/viewer-scrub/keys-click-line", test_keys_click_line);
    return g_test_run();
}
