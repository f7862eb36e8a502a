/*
 * The viewer's model, drawing and screenshot writer, without SDL
 * (hw/display/viewer-int.h, docs/viewer.rst).  Expected addresses come from
 * the memory map (machine.md §1) and the documented frame layout.
 */
#include <string.h>

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "config-host.h"
#include "hw/display/viewer-int.h"
#include "viewer-testlib.h"
#include "nxemu/viewer.h"
#include "nxemu/machine.h"

#define SBUF_BASE 0x2000000000ull
#define PSUM_BASE 0x2802000000ull

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

static void wr32(Machine *m, uint64_t pa, uint32_t v)
{
    g_assert_cmpint(as_write(m->as, pa, 4, v, MEMTXATTRS(MEM_REQ_SEQ, 0)), ==, MEMTX_OK);
}

static unsigned marked_sbuf_bins(const ViewerModel *vm)
{
    unsigned n = 0;
    for (unsigned p = 0; p < NC2_SBUF_PARTITIONS; p++) {
        for (unsigned b = 0; b < VIEW_SBUF_BINS; b++) {
            n += vm->live.sbuf[p][b].rd || vm->live.sbuf[p][b].wr;
        }
    }
    return n;
}

/* 64 MiB of HBM over 4096 cells: 16 KiB a cell. */
static void test_hbm_cells(Fx *f, gconstpointer data)
{
    uint64_t v;
    g_assert_cmpuint(f->vm->hbm_shift, ==, 14);
    f->m->sched.vtime = 7;
    g_assert_cmpint(as_read(f->m->as, 0x10000, 4, &v, MEMTXATTRS(MEM_REQ_SEQ, 0)), ==, MEMTX_OK);
    g_assert_cmpuint(f->vm->live.hbm[4].rd, ==, 8); /* vtime + 1 */
    g_assert_cmpuint(f->vm->live.hbm[4].wr, ==, 0);
    g_assert_cmpuint(f->vm->live.hbm[3].rd, ==, 0);
    g_assert_cmpuint(f->vm->reads, ==, 1);
}

/* SBUF partition p at PA 0x20_0000_0000 + p * 0x40000; 1 KiB bins. */
static void test_sbuf_marks(Fx *f, gconstpointer data)
{
    uint8_t buf[8] = {0};
    uint64_t bad;
    f->m->sched.vtime = 100;
    wr32(f->m, SBUF_BASE + 3 * 0x40000 + 0x1400, 1);
    g_assert_cmpuint(f->vm->live.sbuf[3][5].wr, ==, 101);
    g_assert_cmpuint(marked_sbuf_bins(f->vm), ==, 1);
    /* Bytes 0x3FE..0x401 of partition 70: bins 0 and 1. */
    g_assert_cmpint(as_rw_bytes(f->m->as, SBUF_BASE + 70 * 0x40000 + 0x3FE, buf, 4, true,
                                MEMTXATTRS(MEM_REQ_DMA, 0), &bad),
                    ==, MEMTX_OK);
    g_assert_cmpuint(f->vm->live.sbuf[70][0].wr, ==, 101);
    g_assert_cmpuint(f->vm->live.sbuf[70][1].wr, ==, 101);
    g_assert_cmpuint(marked_sbuf_bins(f->vm), ==, 3);
    /* The last bin of a partition (0x2FC00..0x2FFFF). */
    g_assert_cmpint(as_rw_bytes(f->m->as, SBUF_BASE + 127 * 0x40000 + 0x2FFF8, buf, 8, false,
                                MEMTXATTRS(MEM_REQ_SEQ, 0), &bad),
                    ==, MEMTX_OK);
    g_assert_cmpuint(f->vm->live.sbuf[127][191].rd, ==, 101);
    g_assert_cmpuint(f->vm->live.sbuf[127][191].wr, ==, 0);
}

/* Debugger reads (the hover read-out itself) leave no mark. */
static void test_debug_unmarked(Fx *f, gconstpointer data)
{
    uint8_t buf[4];
    uint64_t bad;
    g_assert_cmpint(as_rw_bytes(f->m->as, SBUF_BASE + 9 * 0x40000, buf, 4, false,
                                MEMTXATTRS(MEM_REQ_DEBUG, 0), &bad),
                    ==, MEMTX_OK);
    g_assert_cmpuint(marked_sbuf_bins(f->vm), ==, 0);
    g_assert_cmpuint(f->vm->reads, ==, 0);
}

/* PSUM partition 40 = quadrant 1, partition 8: offset 1 << 20 | 8 << 15
 * (machine.md §1.2); byte 0x900 is in bank 1 (2 KiB banks). */
static void test_psum_banks(Fx *f, gconstpointer data)
{
    wr32(f->m, PSUM_BASE + (1u << 20 | 8u << 15) + 0x900, 5);
    g_assert_cmpuint(f->vm->live.psum[40][1].wr, ==, 1);
    g_assert_cmpuint(f->vm->live.psum[40][0].wr, ==, 0);
    g_assert_cmpuint(f->vm->live.psum[8][1].wr, ==, 0);
}

/* Intensity: 0x80 for one access, +0x10 per doubling, 0xFF from 256 on. */
static void test_colors(Fx *f, gconstpointer data)
{
    ViewMarks never = {0}, w1 = {.wr = 1, .nwr = 1}, w3 = {.wr = 1, .nwr = 3},
              r128 = {.rd = 9, .nrd = 128}, both = {.rd = 1, .wr = 1, .nrd = 1000, .nwr = 256};
    g_assert_cmphex(vmodel_color(&never), ==, 0x202020);
    g_assert_cmphex(vmodel_color(&w1), ==, 0x802020);
    g_assert_cmphex(vmodel_color(&w3), ==, 0x902020);
    g_assert_cmphex(vmodel_color(&r128), ==, 0x20F020);
    g_assert_cmphex(vmodel_color(&both), ==, 0xFFFF20);
    g_assert_cmpuint(vmodel_level(0), ==, 0);
    g_assert_cmpuint(vmodel_level(255), ==, 0xF0);
    g_assert_cmpuint(vmodel_level(UINT32_MAX), ==, 0xFF);
    /* counts: one per access and bin, whatever the virtual time */
    f->m->sched.vtime = 5000;
    wr32(f->m, SBUF_BASE + 3 * 0x40000, 1);
    wr32(f->m, SBUF_BASE + 3 * 0x40000 + 4, 1);
    g_assert_cmpuint(f->vm->live.sbuf[3][0].nwr, ==, 2);
    g_assert_cmpuint(f->vm->live.sbuf[3][0].nrd, ==, 0);
    g_assert_cmphex(vmodel_color(&f->vm->live.sbuf[3][0]), ==, 0x902020);
}

static void test_hit(Fx *f, gconstpointer data)
{
    uint64_t pa = 0;
    const ViewMarks *mk = NULL;
    /* SBUF: rows 3p..3p+2 from VIEW_SBUF_Y, 384 columns over 0x30000 bytes. */
    g_assert_cmpint(vmodel_hit(f->vm, VIEW_SBUF_X, VIEW_SBUF_Y + 3 * 3 + 1, &pa, &mk), ==,
                    VIEW_AREA_SBUF);
    g_assert_cmphex(pa, ==, 0x20000C0000);
    g_assert_true(mk == &f->vm->live.sbuf[3][0]);
    g_assert_cmpint(vmodel_hit(f->vm, VIEW_SBUF_X + 192, VIEW_SBUF_Y, &pa, &mk), ==,
                    VIEW_AREA_SBUF);
    g_assert_cmphex(pa, ==, SBUF_BASE + 0x18000);
    /* PSUM: 8-pixel banks */
    g_assert_cmpint(vmodel_hit(f->vm, VIEW_PSUM_X + 2 * 8 + 3, VIEW_PSUM_Y + 3 * 40 + 1, &pa, &mk),
                    ==, VIEW_AREA_PSUM);
    g_assert_cmphex(pa, ==, PSUM_BASE + 40 * 0x8000 + 2 * 0x800);
    /* HBM: 64 cells a row, 6 pixels each; cell 69 starts at 69 * 16 KiB */
    g_assert_cmpint(vmodel_hit(f->vm, VIEW_HBM_X + 6 * 5, VIEW_HBM_Y + 6 * 1, &pa, &mk), ==,
                    VIEW_AREA_HBM);
    g_assert_cmphex(pa, ==, 69ull * 16384);
    g_assert_cmpint(vmodel_hit(f->vm, 2, 2, &pa, &mk), ==, VIEW_AREA_NONE);
}

static void test_hover(Fx *f, gconstpointer data)
{
    GString *s = g_string_new(NULL);
    f->m->sched.vtime = 12;
    wr32(f->m, 0x20000C0000, 0x11111111);
    vmodel_hover_text(f->vm, VIEW_SBUF_X, VIEW_SBUF_Y + 9, s);
    g_assert_cmpstr(s->str, ==,
                    "sbuf p3 +0x00000 pa=0x20000c0000 = 0x11111111 (last w@12 r@-) p3 w=1 r=0");
    g_string_truncate(s, 0);
    vmodel_hover_text(f->vm, 2, 2, s);
    g_assert_cmpstr(s->str, ==, "");
    /* the read-out is a debug read: it marked nothing */
    g_assert_cmpuint(f->vm->live.sbuf[3][0].rd, ==, 0);
    g_string_free(s, TRUE);
}

static void test_keys(Fx *f, gconstpointer data)
{
    ViewerModel *vm = f->vm;
    g_assert_false(vm->paused);
    g_assert_true(vmodel_key(vm, ' '));
    g_assert_true(vm->paused);
    g_assert_true(vmodel_key(vm, ' '));
    g_assert_false(vm->paused);
    vmodel_key(vm, 's');
    g_assert_true(vm->paused && vm->step_req);
    vmodel_key(vm, ' ');
    g_assert_false(vm->paused || vm->step_req);
    /* Zoom keeps the centre: offset 0x18000 stays under column 192. */
    vmodel_key(vm, '+');
    g_assert_cmpuint(vm->zoom, ==, 2);
    g_assert_cmphex(vmodel_sbuf_span(vm), ==, 0x18000);
    g_assert_cmphex(vm->pan, ==, 0xC000);
    g_assert_cmphex(vmodel_sbuf_offset_at(vm, 192), ==, 0x18000);
    vmodel_key(vm, '>'); /* a quarter of the span */
    g_assert_cmphex(vm->pan, ==, 0x12000);
    vmodel_key(vm, '>');
    g_assert_cmphex(vm->pan, ==, 0x18000); /* clamped: the span ends at 0x30000 */
    vmodel_key(vm, '-');
    g_assert_cmpuint(vm->zoom, ==, 1);
    g_assert_cmphex(vm->pan, ==, 0);
    vmodel_key(vm, '-');
    g_assert_cmpuint(vm->zoom, ==, 1);
    for (int i = 0; i < 10; i++) {
        vmodel_key(vm, '+');
    }
    g_assert_cmpuint(vm->zoom, ==, VIEW_MAX_ZOOM);
    g_assert_false(vmodel_key(vm, 'x'));
    vmodel_key(vm, 'q');
    g_assert_true(vm->quit);
}

static void test_wheel(Fx *f, gconstpointer data)
{
    ViewerModel *vm = f->vm;
    /* The offset under the mouse stays: column 96 shows 0xC000 at zoom 1. */
    vmodel_wheel(vm, 2, VIEW_SBUF_X + 96, VIEW_SBUF_Y + 7);
    g_assert_cmpuint(vm->zoom, ==, 4);
    g_assert_cmphex(vmodel_sbuf_offset_at(vm, 96), ==, 0xC000);
    vmodel_wheel(vm, -5, VIEW_SBUF_X + 96, VIEW_SBUF_Y + 7);
    g_assert_cmpuint(vm->zoom, ==, 1);
    g_assert_cmphex(vm->pan, ==, 0);
    /* Outside every map the wheel zooms the focused map around its centre. */
    vmodel_wheel(vm, 1, 2, 2);
    g_assert_cmpuint(vm->zoom, ==, 2);
    g_assert_cmphex(vm->pan, ==, 0xC000);
    /* Over another map it focuses that map and leaves the SBUF zoom alone. */
    vmodel_wheel(vm, 1, VIEW_PSUM_X + 3, VIEW_PSUM_Y + 3);
    g_assert_cmpint(vm->focus, ==, VIEW_AREA_PSUM);
    g_assert_cmpuint(vm->psum_zoom, ==, 2);
    g_assert_cmpuint(vm->zoom, ==, 2);
}

static void test_focus(Fx *f, gconstpointer data)
{
    ViewerModel *vm = f->vm;
    g_assert_cmpint(vm->focus, ==, VIEW_AREA_SBUF);
    g_assert_false(vmodel_key(vm, VIEW_KEY_DOWN)); /* SBUF does not zoom vertically */
    g_assert_true(vmodel_key(vm, '\t'));
    g_assert_cmpint(vm->focus, ==, VIEW_AREA_PSUM);
    vmodel_key(vm, '+');
    g_assert_cmpuint(vm->psum_zoom, ==, 2);
    g_assert_cmpuint(vm->zoom, ==, 1);
    vmodel_key(vm, '\t');
    g_assert_cmpint(vm->focus, ==, VIEW_AREA_HBM);
    vmodel_key(vm, '+');
    g_assert_cmpuint(vm->hbm_zoom, ==, 2);
    g_assert_cmpuint(vm->psum_zoom, ==, 2);
    vmodel_key(vm, '\t');
    g_assert_cmpint(vm->focus, ==, VIEW_AREA_SBUF);
}

/* PSUM at zoom z from partition P: partition P + k takes rows 32 + 3zk to
 * 32 + 3zk + 3z - 2 (docs/viewer.rst), bank b columns 404 + 8b .. 410 + 8b. */
static void test_psum_zoom(Fx *f, gconstpointer data)
{
    ViewerModel *vm = f->vm;
    uint64_t pa = 0;
    const ViewMarks *mk = NULL;
    GString *s = g_string_new(NULL);
    uint32_t *fb = g_new0(uint32_t, (size_t)VIEW_W * VIEW_H);

    vmodel_key(vm, '\t');
    /* the centre row 192 shows partition 64 at zoom 1 and at zoom 2: 64 - 192/6 */
    vmodel_key(vm, '+');
    g_assert_cmpuint(vm->psum_pan, ==, 32);
    g_assert_cmpint(vmodel_hit(vm, VIEW_PSUM_X + 8 * 5 + 1, VIEW_PSUM_Y + 6 * 10 + 4, &pa, &mk), ==,
                    VIEW_AREA_PSUM);
    g_assert_cmphex(pa, ==, PSUM_BASE + 42 * 0x8000 + 5 * 0x800);
    g_assert_true(mk == &vm->live.psum[42][5]);
    /* pan by a quarter of the 64 partitions shown, clamped at 128 - 64 */
    vmodel_key(vm, '>');
    g_assert_cmpuint(vm->psum_pan, ==, 48);
    vmodel_key(vm, '>');
    vmodel_key(vm, VIEW_KEY_DOWN);
    g_assert_cmpuint(vm->psum_pan, ==, 64);
    vmodel_key(vm, VIEW_KEY_UP);
    g_assert_cmpuint(vm->psum_pan, ==, 48);
    /* the wheel keeps the partition under the mouse: row 60 shows 48 + 10 */
    vmodel_wheel(vm, 1, VIEW_PSUM_X + 20, VIEW_PSUM_Y + 60);
    g_assert_cmpuint(vm->psum_zoom, ==, 4);
    g_assert_cmpuint(vm->psum_pan, ==, 58 - 60 / 12);
    g_assert_cmpint(vmodel_hit(vm, VIEW_PSUM_X + 20, VIEW_PSUM_Y + 60, &pa, &mk), ==,
                    VIEW_AREA_PSUM);
    g_assert_cmphex(pa, ==, PSUM_BASE + 58 * 0x8000 + 2 * 0x800);

    /* the read-out names the zoomed cell and reads its value */
    wr32(f->m, PSUM_BASE + 55 * 0x8000 + 2 * 0x800, 0xCAFE0001);
    vmodel_hover_text(vm, VIEW_PSUM_X + 16, VIEW_PSUM_Y + 12 * 2 + 5, s);
    g_assert_cmpstr(s->str, ==,
                    "psum p55 bank 2 pa=0x28021b9000 = 0xcafe0001 (last w@0 r@-) w=1 r=0");
    /* drawn 12 rows tall: 11 of colour and a dark separator */
    vrender_frame(vm, fb);
    g_assert_cmphex(fb[(VIEW_PSUM_Y + 24) * VIEW_W + VIEW_PSUM_X + 16], ==, 0x802020);
    g_assert_cmphex(fb[(VIEW_PSUM_Y + 34) * VIEW_W + VIEW_PSUM_X + 22], ==, 0x802020);
    g_assert_cmphex(fb[(VIEW_PSUM_Y + 35) * VIEW_W + VIEW_PSUM_X + 16], ==, VIEW_COL_BG);
    g_assert_cmphex(fb[(VIEW_PSUM_Y + 36) * VIEW_W + VIEW_PSUM_X + 16], ==, VIEW_COL_IDLE);
    g_assert_cmphex(fb[(VIEW_PSUM_Y + 23) * VIEW_W + VIEW_PSUM_X + 16], ==, VIEW_COL_BG);

    /* zooming out all the way shows all partitions again */
    for (int i = 0; i < 8; i++) {
        vmodel_key(vm, '-');
    }
    g_assert_cmpuint(vm->psum_zoom, ==, 1);
    g_assert_cmpuint(vm->psum_pan, ==, 0);
    g_free(fb);
    g_string_free(s, TRUE);
}

/* HBM at zoom z from byte P: square g shows P + g * (16 KiB / z); its cell
 * is that address / 16 KiB (64 MiB over 4096 cells). */
static void test_hbm_zoom(Fx *f, gconstpointer data)
{
    ViewerModel *vm = f->vm;
    uint64_t pa = 0, pan;
    const ViewMarks *mk = NULL;
    GString *s = g_string_new(NULL);
    uint32_t *fb = g_new0(uint32_t, (size_t)VIEW_W * VIEW_H);

    vmodel_key(vm, '\t');
    vmodel_key(vm, '\t');
    /* the centre square (row 32, column 32) keeps its address: 2080 * 16 KiB */
    vmodel_key(vm, '+');
    g_assert_cmpuint(vm->hbm_zoom, ==, 2);
    g_assert_cmphex(vmodel_hbm_square_bytes(vm), ==, 8192);
    g_assert_cmphex(vm->hbm_pan, ==, 2080ull * 16384 - 2080ull * 8192);
    g_assert_cmpint(vmodel_hit(vm, VIEW_HBM_X + 6 * 5, VIEW_HBM_Y + 6 * 1, &pa, &mk), ==,
                    VIEW_AREA_HBM);
    g_assert_cmphex(pa, ==, 2080ull * 8192 + 69 * 8192);
    g_assert_true(mk == &vm->live.hbm[(2080 + 69) / 2]);

    /* the wheel over square 1290 (row 20, column 10) keeps its address */
    vmodel_wheel(vm, 5, VIEW_HBM_X + 6 * 10 + 2, VIEW_HBM_Y + 6 * 20 + 2);
    g_assert_cmpuint(vm->hbm_zoom, ==, VIEW_MAX_ZOOM);
    g_assert_cmphex(vmodel_hbm_square_bytes(vm), ==, 16384 / 64);
    g_assert_cmpint(vmodel_hit(vm, VIEW_HBM_X + 6 * 10, VIEW_HBM_Y + 6 * 20, &pa, &mk), ==,
                    VIEW_AREA_HBM);
    g_assert_cmphex(pa, ==, (2080ull + 1290) * 8192);
    g_assert_true(mk == &vm->live.hbm[1685]);
    /* the next square is 256 bytes on */
    vmodel_hit(vm, VIEW_HBM_X + 6 * 11, VIEW_HBM_Y + 6 * 20, &pa, &mk);
    g_assert_cmphex(pa, ==, (2080ull + 1290) * 8192 + 256);

    wr32(f->m, (2080ull + 1290) * 8192 + 256, 0x12345678);
    vmodel_hover_text(vm, VIEW_HBM_X + 6 * 11 + 4, VIEW_HBM_Y + 6 * 20 + 4, s);
    g_assert_cmpstr(s->str, ==,
                    "hbm cell 1685 (16 KiB) pa=0x1a54100 = 0x12345678 (last w@0 r@-) w=1 r=0");
    /* a cell is 64 squares (one row) wide: the row below is the next cell */
    vrender_frame(vm, fb);
    g_assert_cmphex(fb[(VIEW_HBM_Y + 6 * 20) * VIEW_W + VIEW_HBM_X + 6 * 10], ==, 0x802020);
    g_assert_cmphex(fb[(VIEW_HBM_Y + 6 * 21) * VIEW_W + VIEW_HBM_X + 6 * 10], ==, VIEW_COL_IDLE);

    /* down: one row of squares; right: a quarter of the 4096 squares */
    pan = vm->hbm_pan;
    vmodel_key(vm, VIEW_KEY_DOWN);
    g_assert_cmphex(vm->hbm_pan, ==, pan + 64 * 256);
    vmodel_key(vm, '>');
    g_assert_cmphex(vm->hbm_pan, ==, pan + 64 * 256 + 1024 * 256);
    for (int i = 0; i < 8; i++) {
        vmodel_key(vm, '-');
    }
    g_assert_cmpuint(vm->hbm_zoom, ==, 1);
    g_assert_cmphex(vm->hbm_pan, ==, 0);
    g_free(fb);
    g_string_free(s, TRUE);
}

static unsigned count_px(const uint32_t *fb, int y, int x0, int w, uint32_t c)
{
    unsigned n = 0;
    for (int x = x0; x < x0 + w; x++) {
        n += fb[(size_t)y * VIEW_W + x] == c;
    }
    return n;
}

static void test_render(Fx *f, gconstpointer data)
{
    uint32_t *fb = g_new0(uint32_t, (size_t)VIEW_W * VIEW_H);
    wr32(f->m, SBUF_BASE + 70 * 0x40000, 1);
    /* the last KiB of partition 9: its mark grows to the left */
    wr32(f->m, SBUF_BASE + 9 * 0x40000 + 0x2fffc, 1);
    vrender_frame(f->vm, fb);
    /* partition 70, offset 0: written once */
    g_assert_cmphex(fb[(VIEW_SBUF_Y + 210) * VIEW_W + VIEW_SBUF_X], ==, 0x802020);
    g_assert_cmphex(fb[(VIEW_SBUF_Y + 211) * VIEW_W + VIEW_SBUF_X], ==, 0x802020);
    /* 1 KiB is two columns at zoom 1, but the mark is VIEW_MIN_MARK_COLS wide */
    g_assert_cmpuint(count_px(fb, VIEW_SBUF_Y + 210, VIEW_SBUF_X, VIEW_SBUF_W, 0x802020), ==,
                     VIEW_MIN_MARK_COLS);
    g_assert_cmphex(fb[(VIEW_SBUF_Y + 210) * VIEW_W + VIEW_SBUF_X + VIEW_MIN_MARK_COLS - 1], ==,
                    0x802020);
    g_assert_cmphex(fb[(VIEW_SBUF_Y + 210) * VIEW_W + VIEW_SBUF_X + VIEW_MIN_MARK_COLS], ==,
                    0x202020);
    g_assert_cmphex(fb[(VIEW_SBUF_Y + 213) * VIEW_W + VIEW_SBUF_X], ==, 0x202020);
    /* the separator row */
    g_assert_cmphex(fb[(VIEW_SBUF_Y + 212) * VIEW_W + VIEW_SBUF_X], ==, VIEW_COL_BG);
    g_assert_cmpuint(count_px(fb, VIEW_SBUF_Y + 27, VIEW_SBUF_W - VIEW_MIN_MARK_COLS + VIEW_SBUF_X,
                              VIEW_MIN_MARK_COLS, 0x802020),
                     ==, VIEW_MIN_MARK_COLS);
    g_free(fb);
}

/* 'a' fits every map to what was touched; a manual zoom ends it. */
static void test_activity(Fx *f, gconstpointer data)
{
    ViewerModel *vm = f->vm;
    GString *s = g_string_new(NULL);
    uint32_t *fb = g_new0(uint32_t, (size_t)VIEW_W * VIEW_H);

    /* nothing touched: every map stays at x1 */
    g_assert_true(vmodel_key(vm, 'a'));
    g_assert_true(vm->activity);
    g_assert_cmpuint(vm->zoom, ==, 1);
    vmodel_sbuf_heading(vm, s);
    g_assert_cmpstr(s->str, ==, "SBUF 0x00000-0x2ffff  x1  512 B/col  1 KiB cells  activity");

    /* SBUF bins 4 and 9 (in two partitions): 6 KiB fit in 192 KiB / 32 */
    wr32(f->m, SBUF_BASE + 3 * 0x40000 + 0x1000, 1);
    wr32(f->m, SBUF_BASE + 70 * 0x40000 + 0x2400, 1);
    wr32(f->m, PSUM_BASE + 20 * 0x8000, 1);
    wr32(f->m, PSUM_BASE + 23 * 0x8000, 1);
    wr32(f->m, 5 * 16384, 1);
    vrender_frame(vm, fb); /* refits each frame */
    g_assert_cmpuint(vm->zoom, ==, 32);
    g_assert_cmphex(vm->pan, ==, 0x1000);
    g_string_truncate(s, 0);
    vmodel_sbuf_heading(vm, s);
    g_assert_cmpstr(s->str, ==, "SBUF 0x01000-0x027ff  x32  16 B/col  1 KiB cells  activity");
    /* bin 4 of partition 3 is the first 64 columns */
    g_assert_cmpuint(count_px(fb, VIEW_SBUF_Y + 9, VIEW_SBUF_X, VIEW_SBUF_W, 0x802020), ==, 64);
    g_assert_cmpuint(vm->psum_zoom, ==, 32);
    g_assert_cmpuint(vm->psum_pan, ==, 20);
    g_assert_cmpuint(vm->hbm_zoom, ==, VIEW_MAX_ZOOM);
    g_assert_cmphex(vm->hbm_pan, ==, 5 * 16384);

    /* a manual zoom ends it; 'a' twice goes back to x1 everywhere */
    vmodel_key(vm, '-');
    g_assert_false(vm->activity);
    g_assert_cmpuint(vm->zoom, ==, 16);
    vmodel_key(vm, 'a');
    vmodel_key(vm, 'a');
    g_assert_false(vm->activity);
    g_assert_cmpuint(vm->zoom, ==, 1);
    g_assert_cmpuint(vm->psum_zoom, ==, 1);
    g_assert_cmpuint(vm->hbm_zoom, ==, 1);
    g_assert_cmphex(vm->pan, ==, 0);
    g_free(fb);
    g_string_free(s, TRUE);
}

static void test_font(void)
{
    uint32_t *fb = g_new0(uint32_t, (size_t)VIEW_W * VIEW_H);
    unsigned lit = 0;
    const uint8_t *sp = vfont_glyph(' ');
    g_assert_true(!sp[0] && !sp[1] && !sp[2] && !sp[3] && !sp[4]);
    g_assert_true(vfont_glyph('\x01') == vfont_glyph('?'));
    g_assert_cmpint(vrender_text(fb, 10, 10, 0xABCDEF, "Hi"), ==, 10 + 2 * VIEW_CHAR_W);
    for (size_t i = 0; i < (size_t)VIEW_W * VIEW_H; i++) {
        lit += fb[i] == 0xABCDEF;
    }
    /* 'H': two full columns and a 3-pixel bar; 'i': 2 + 6 + 1 pixels */
    g_assert_cmpuint(lit, ==, 17 + 9);
    /* clipped at the right edge, no write out of the frame */
    vrender_text(fb, VIEW_W - 3, VIEW_H - 3, 0xABCDEF, "WWWW");
    g_free(fb);
}

static uint32_t crc32_ref(const uint8_t *p, size_t n)
{
    /* CRC-32 as PNG (ISO 3309) defines it */
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++) {
            c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        }
    }
    return c ^ 0xFFFFFFFFu;
}

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void test_png(void)
{
    enum { W = 7, H = 3 };
    uint32_t px[W * H];
    g_autofree char *dir = g_dir_make_tmp("nxemu-png-XXXXXX", NULL);
    g_autofree char *path = g_build_filename(dir, "shot.png", NULL);
    g_autofree char *data = NULL;
    gsize len = 0, pos = 8;
    GByteArray *idat = g_byte_array_new();
    GError *err = NULL;
    uint8_t raw[H * (1 + 3 * W)];
    gsize rd = 0, wr = 0;

    for (unsigned i = 0; i < W * H; i++) {
        px[i] = 0x010203u * i ^ 0x00FF00u;
    }
    g_assert_true(viewer_png_write(path, px, W, H, &err));
    g_assert_no_error(err);
    g_assert_true(g_file_get_contents(path, &data, &len, NULL));
    g_assert_cmpmem(data, 8, "\x89PNG\r\n\x1a\n", 8);
    while (pos < len) {
        const uint8_t *c = (const uint8_t *)data + pos;
        uint32_t n = be32(c);
        g_assert_cmpuint(pos + 12 + n, <=, len);
        g_assert_cmphex(crc32_ref(c + 4, 4 + n), ==, be32(c + 8 + n));
        if (!memcmp(c + 4, "IHDR", 4)) {
            g_assert_cmpuint(be32(c + 8), ==, W);
            g_assert_cmpuint(be32(c + 12), ==, H);
            g_assert_cmpuint(c[16], ==, 8); /* depth */
            g_assert_cmpuint(c[17], ==, 2); /* RGB */
        } else if (!memcmp(c + 4, "IDAT", 4)) {
            g_byte_array_append(idat, c + 8, n);
        }
        pos += 12 + n;
    }
    g_assert_cmpuint(pos, ==, len);
    GZlibDecompressor *z = g_zlib_decompressor_new(G_ZLIB_COMPRESSOR_FORMAT_ZLIB);
    g_assert_cmpint(g_converter_convert(G_CONVERTER(z), idat->data, idat->len, raw, sizeof(raw),
                                        G_CONVERTER_INPUT_AT_END, &rd, &wr, &err),
                    ==, G_CONVERTER_FINISHED);
    g_assert_cmpuint(wr, ==, sizeof(raw));
    for (unsigned y = 0; y < H; y++) {
        const uint8_t *row = raw + y * (1 + 3 * W);
        g_assert_cmpuint(row[0], ==, 0);
        for (unsigned x = 0; x < W; x++) {
            uint32_t c = px[y * W + x];
            g_assert_cmpuint(row[1 + 3 * x], ==, (c >> 16) & 0xFF);
            g_assert_cmpuint(row[2 + 3 * x], ==, (c >> 8) & 0xFF);
            g_assert_cmpuint(row[3 + 3 * x], ==, c & 0xFF);
        }
    }
    g_object_unref(z);
    g_byte_array_free(idat, TRUE);
    g_unlink(path);
    g_rmdir(dir);

    /* an unwritable path is an error naming it */
    g_assert_false(viewer_png_write("/nonexistent-dir/x.png", px, W, H, &err));
    g_assert_nonnull(err);
    g_assert_nonnull(strstr(err->message, "/nonexistent-dir/x.png"));
    g_error_free(err);
}

#if CONFIG_SDL
static void count_access(void *opaque, uint64_t addr, unsigned size, bool is_write,
                         MemTxAttrs attrs)
{
    (*(unsigned *)opaque)++;
}

/* The real window, through the SDL display module (found in the build tree),
 * under SDL's offscreen driver: hook chaining, keys through SDL's event
 * queue, the pause/step protocol of viewer_refresh, screendump. */
/* The RGB pixels of a VIEW_W x VIEW_H screenshot as written by the viewer
 * (8-bit RGB, filter 0 on every row: checked). */
static uint8_t *read_png_rgb(const char *path)
{
    g_autofree char *data = NULL;
    gsize len = 0, pos = 8, rd = 0, wr = 0;
    GByteArray *idat = g_byte_array_new();
    size_t stride = 1 + 3 * VIEW_W;
    uint8_t *raw = g_malloc(stride * VIEW_H), *rgb = g_malloc((size_t)3 * VIEW_W * VIEW_H);
    GError *err = NULL;
    g_assert_true(g_file_get_contents(path, &data, &len, NULL));
    while (pos + 12 <= len) {
        const uint8_t *c = (const uint8_t *)data + pos;
        uint32_t n = be32(c);
        if (!memcmp(c + 4, "IDAT", 4)) {
            g_byte_array_append(idat, c + 8, n);
        }
        pos += 12 + n;
    }
    GZlibDecompressor *z = g_zlib_decompressor_new(G_ZLIB_COMPRESSOR_FORMAT_ZLIB);
    g_assert_cmpint(g_converter_convert(G_CONVERTER(z), idat->data, idat->len, raw, stride * VIEW_H,
                                        G_CONVERTER_INPUT_AT_END, &rd, &wr, &err),
                    ==, G_CONVERTER_FINISHED);
    g_assert_cmpuint(wr, ==, stride * VIEW_H);
    for (unsigned y = 0; y < VIEW_H; y++) {
        g_assert_cmpuint(raw[y * stride], ==, 0);
        memcpy(rgb + (size_t)y * 3 * VIEW_W, raw + y * stride + 1, (size_t)3 * VIEW_W);
    }
    g_object_unref(z);
    g_byte_array_free(idat, TRUE);
    g_free(raw);
    return rgb;
}

static uint32_t rgb_at(const uint8_t *rgb, int x, int y)
{
    const uint8_t *p = rgb + ((size_t)y * VIEW_W + x) * 3;
    return (uint32_t)p[0] << 16 | p[1] << 8 | p[2];
}

static void test_sdl_window(Fx *f, gconstpointer data)
{
    ViewerOptions vo = {0};
    GError *err = NULL;
    unsigned seen = 0;
    uint64_t v;
    g_autofree char *dir = g_dir_make_tmp("nxemu-viewer-XXXXXX", NULL);
    g_autofree char *path = g_build_filename(dir, "shot.png", NULL);
    g_autofree char *png = NULL;
    gsize len = 0;

    g_setenv("SDL_VIDEODRIVER", "offscreen", TRUE);
    g_assert_true(as_add_access_hook(f->m->as, count_access, &seen)); /* an earlier observer */
    Viewer *vw = viewer_new(f->m, &vo, &err);
    g_assert_no_error(err);
    g_assert_nonnull(vw);
    /* both observers see accesses */
    as_read(f->m->as, 0x1000, 4, &v, MEMTXATTRS(MEM_REQ_SEQ, 0));
    g_assert_cmpuint(seen, ==, 1);

    g_usleep(20000); /* past the 60 Hz pacing: the next refresh looks at events */
    g_assert_true(viewer_push_key(vw, ' '));
    /* through the window's key mapping: focus PSUM, zoom x2, pan down */
    g_assert_true(viewer_push_key(vw, '\t'));
    g_assert_true(viewer_push_key(vw, '+'));
    g_assert_true(viewer_push_key(vw, VIEW_KEY_DOWN));
    g_assert_true(viewer_push_key(vw, 's'));
    /* space pauses, s asks for one round: refresh returns to run it */
    g_assert_true(viewer_refresh(vw));
    g_assert_true(viewer_paused(vw));
    /* PSUM now shows partitions 48-111 (64 - 192/6, then a quarter of 64
     * down), 6 rows each: partition 50 bank 0 is at rows 44-48, column 404 */
    wr32(f->m, PSUM_BASE + 50 * 0x8000, 7);
    /* screendump is what the window shows: the write is not drawn yet */
    g_assert_true(viewer_screendump(vw, path, &err));
    g_assert_no_error(err);
    {
        g_autofree uint8_t *rgb = read_png_rgb(path);
        g_assert_cmphex(rgb_at(rgb, VIEW_PSUM_X, VIEW_PSUM_Y + 12), ==, VIEW_COL_IDLE);
    }
    viewer_redraw(vw); /* as the gdb stub does after a stop or a write */
    g_assert_true(viewer_paused(vw));
    g_assert_true(viewer_screendump(vw, path, &err));
    g_assert_no_error(err);
    {
        g_autofree uint8_t *rgb = read_png_rgb(path);
        g_assert_cmphex(rgb_at(rgb, VIEW_PSUM_X, VIEW_PSUM_Y + 12), ==, 0x802020);
        g_assert_cmphex(rgb_at(rgb, VIEW_PSUM_X + 6, VIEW_PSUM_Y + 16), ==, 0x802020);
        g_assert_cmphex(rgb_at(rgb, VIEW_PSUM_X, VIEW_PSUM_Y + 18), ==, VIEW_COL_IDLE);
        /* the focused map's frame is highlighted, the others' are not */
        g_assert_cmphex(rgb_at(rgb, VIEW_PSUM_X - 1, VIEW_PSUM_Y - 1), ==, VIEW_COL_FOCUS);
        g_assert_cmphex(rgb_at(rgb, VIEW_SBUF_X - 1, VIEW_SBUF_Y - 1), ==, VIEW_COL_FRAME);
    }
    /* The time cursor through the window's key mapping: shift-'[' is '{',
     * a sixteenth of 5760 back from now (a plain '[' would be 10 back, at
     * column 631); the line is at 56 + 5400 * 576 / 5760 (viewer.rst). */
    f->m->sched.vtime = 5760;
    g_assert_true(viewer_push_key(vw, '{'));
    viewer_redraw(vw);
    g_assert_true(viewer_screendump(vw, path, &err));
    g_assert_no_error(err);
    {
        g_autofree uint8_t *rgb = read_png_rgb(path);
        g_assert_cmphex(rgb_at(rgb, 596, VIEW_TL_Y + 8), ==, VIEW_COL_TL_CURSOR);
        g_assert_cmphex(rgb_at(rgb, 631, VIEW_TL_Y + 8), !=, VIEW_COL_TL_CURSOR);
    }
    g_assert_true(viewer_push_key(vw, VIEW_KEY_END)); /* off again */
    viewer_redraw(vw);
    g_assert_true(viewer_screendump(vw, path, &err));
    g_assert_no_error(err);
    {
        g_autofree uint8_t *rgb = read_png_rgb(path);
        g_assert_cmphex(rgb_at(rgb, 596, VIEW_TL_Y + 8), !=, VIEW_COL_TL_CURSOR);
    }
    g_assert_true(viewer_push_key(vw, 'q'));
    g_assert_false(viewer_refresh(vw)); /* q closes the window */
    g_assert_false(viewer_refresh(vw));

    g_assert_true(viewer_screendump(vw, path, &err));
    g_assert_no_error(err);
    g_assert_true(g_file_get_contents(path, &png, &len, NULL));
    g_assert_cmpuint(len, >, 33);
    g_assert_cmpmem(png, 8, "\x89PNG\r\n\x1a\n", 8);
    g_assert_cmpuint(be32((const uint8_t *)png + 16), ==, VIEW_W);
    g_assert_cmpuint(be32((const uint8_t *)png + 20), ==, VIEW_H);

    viewer_free(vw);
    /* the earlier observer is still in place */
    unsigned before = seen;
    as_read(f->m->as, 0x1000, 4, &v, MEMTXATTRS(MEM_REQ_SEQ, 0));
    g_assert_cmpuint(seen, ==, before + 1);
    as_remove_access_hook(f->m->as, count_access, &seen);
    g_unlink(path);
    g_rmdir(dir);
}
#endif

#define FX_TEST(path, fn) g_test_add(path, Fx, NULL, fx_setup, fn, fx_teardown)

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    FX_TEST("/viewer/hbm-cells", test_hbm_cells);
    FX_TEST("/viewer/sbuf-marks", test_sbuf_marks);
    FX_TEST("/viewer/debug-unmarked", test_debug_unmarked);
    FX_TEST("/viewer/psum-banks", test_psum_banks);
    FX_TEST("/viewer/colors", test_colors);
    FX_TEST("/viewer/hit", test_hit);
    FX_TEST("/viewer/hover", test_hover);
    FX_TEST("/viewer/keys", test_keys);
    FX_TEST("/viewer/wheel", test_wheel);
    FX_TEST("/viewer/focus", test_focus);
    FX_TEST("/viewer/psum-zoom", test_psum_zoom);
    FX_TEST("/viewer/hbm-zoom", test_hbm_zoom);
    FX_TEST("/viewer/render", test_render);
    FX_TEST("/viewer/activity", test_activity);
    g_test_add_func("/viewer/font", test_font);
    g_test_add_func("/viewer/png", test_png);
#if CONFIG_SDL
    FX_TEST("/viewer/sdl-window", test_sdl_window);
#endif
    return g_test_run();
}
