/*
 * The viewer's access-count table, timeline and data view, without SDL
 * (hw/display/viewer-panels.c, viewer-timeline.c, docs/viewer.rst).
 * Expected pixels are computed here from the documented layout and scales.
 */
#include <math.h>
#include <string.h>

#include "hw/nc2/board.h"
#include "hw/display/viewer-int.h"
#include "viewer-testlib.h"
#include "nxemu/machine.h"
#include "nxemu/sched.h"
#include "seq-testlib.h"

#define SBUF_BASE SBUF
#define PSUM_BASE 0x2802000000ull

typedef struct Fx {
    Machine *m;
    ViewerModel *vm;
    uint32_t *fb;
} Fx;

static void fx_setup(Fx *f, gconstpointer data)
{
    f->m = vt_machine(2, 2);
    f->vm = vt_model(f->m);
    f->fb = g_new0(uint32_t, (size_t)VIEW_W * VIEW_H);
}

static void fx_teardown(Fx *f, gconstpointer data)
{
    vt_free(f->m, f->vm);
    g_free(f->fb);
}

static void wr(Machine *m, uint64_t pa, const void *p, unsigned n, bool write)
{
    uint64_t bad;
    g_assert_cmpint(as_rw_bytes(m->as, pa, (void *)p, n, write, MEMTXATTRS(MEM_REQ_SEQ, 0), &bad),
                    ==, MEMTX_OK);
}

static void wr32(Machine *m, uint64_t pa, uint32_t v)
{
    uint32_t le = GUINT32_TO_LE(v);
    wr(m, pa, &le, 4, true);
}

/* The text s drawn at (x, y) in the frame, pixel for pixel (any colour):
 * the renderer's own font, drawn into a blank frame, is the reference. */
static bool text_at(const uint32_t *fb, int x, int y, const char *s)
{
    g_autofree uint32_t *ref = g_new0(uint32_t, (size_t)VIEW_W * VIEW_H);
    int w = (int)strlen(s) * VIEW_CHAR_W;
    vrender_text(ref, x, y, 1, s);
    for (int j = y; j < y + 7; j++) {
        for (int i = x; i < x + w && i < VIEW_W; i++) {
            if ((fb[(size_t)j * VIEW_W + i] != VIEW_COL_BG) != (ref[(size_t)j * VIEW_W + i] != 0)) {
                return false;
            }
        }
    }
    return true;
}

static unsigned run_of(const uint32_t *fb, int y, int x0, uint32_t c)
{
    unsigned n = 0;
    while (x0 + (int)n < VIEW_W && fb[(size_t)y * VIEW_W + x0 + n] == c) {
        n++;
    }
    return n;
}

/* Partitions by accesses; an access counts once per partition however
 * many 1 KiB bins it spans; PSUM per bank. */
static void test_table(Fx *f, gconstpointer data)
{
    unsigned idx[8], n;
    uint8_t buf[0x800] = {0};
    for (int i = 0; i < 3; i++) {
        wr32(f->m, SBUF_BASE + 9 * 0x40000 + 4 * i, 1);
        wr32(f->m, SBUF_BASE + 5 * 0x40000 + 0x1000 * i, 1);
    }
    wr(f->m, SBUF_BASE + 2 * 0x40000 + 0x3fe, buf, 4, false);  /* two bins, one read */
    wr(f->m, SBUF_BASE + 7 * 0x40000, buf, sizeof(buf), true); /* two bins, one write */
    g_assert_cmpuint(f->vm->live.sbuf_nrd[2], ==, 1);
    g_assert_cmpuint(f->vm->live.sbuf_nwr[7], ==, 1);
    n = vpanel_busiest_sbuf(f->vm, idx, 8);
    g_assert_cmpuint(n, ==, 4);
    /* 3, 3 (ties by partition), 1, 1 */
    g_assert_cmpuint(idx[0], ==, 5);
    g_assert_cmpuint(idx[1], ==, 9);
    g_assert_cmpuint(idx[2], ==, 2);
    g_assert_cmpuint(idx[3], ==, 7);
    /* only the top n are kept */
    g_assert_cmpuint(vpanel_busiest_sbuf(f->vm, idx, 1), ==, 1);
    g_assert_cmpuint(idx[0], ==, 5);

    /* PSUM partition 40 bank 3: two writes and a read; partition 1 bank 0 */
    wr32(f->m, PSUM_BASE + 40 * 0x8000 + 3 * 0x800, 1);
    wr32(f->m, PSUM_BASE + 40 * 0x8000 + 3 * 0x800 + 8, 1);
    wr(f->m, PSUM_BASE + 40 * 0x8000 + 3 * 0x800, buf, 4, false);
    wr32(f->m, PSUM_BASE + 1 * 0x8000, 1);
    n = vpanel_busiest_psum(f->vm, idx, 8);
    g_assert_cmpuint(n, ==, 2);
    g_assert_cmpuint(idx[0], ==, 40 * 8 + 3);
    g_assert_cmpuint(idx[1], ==, 1 * 8 + 0);

    vrender_frame(f->vm, f->fb);
    g_assert_true(text_at(f->fb, VIEW_TABLE_X, VIEW_TABLE_Y, "busiest SBUF partitions"));
    g_assert_true(text_at(f->fb, VIEW_TABLE_X, VIEW_TABLE_Y + 12, "p5       w=3         r=0"));
    g_assert_true(
        text_at(f->fb, VIEW_TABLE_X, VIEW_TABLE_Y + 12 + 2 * 9, "p2       w=0         r=1"));
    g_assert_true(text_at(f->fb, VIEW_TABLE_X, VIEW_TABLE_Y + 12 + 8 * 9 + 6 + 12,
                          "p40  b3  w=2         r=1"));
    g_assert_false(text_at(f->fb, VIEW_TABLE_X, VIEW_TABLE_Y + 12, "p9       w=3         r=0"));
}

/* Row r of the timeline: sequencers, then TPCs (none here), then engines. */
static int tl_row_y(unsigned r)
{
    return VIEW_TL_Y + (int)r * VIEW_TL_ROW_H;
}

static void runev(Fx *f, NxRunEvKind k, unsigned unit, uint64_t t0, uint64_t t1, uint64_t bytes)
{
    NxRunEvent e = {.kind = k, .unit = unit, .t0 = t0, .t1 = t1, .bytes = bytes};
    vtl_event(f->vm, &e);
}

/* 1000 cycles over 576 columns: vtime t at column 56 + floor(t * 576 / 1000). */
static void test_timeline(Fx *f, gconstpointer data)
{
    GString *s = g_string_new(NULL);
    f->m->sched.vtime = 1000;
    g_assert_cmpuint(vtl_span(f->vm), ==, 1000);
    g_assert_cmpint(vtl_x(f->vm, 0), ==, VIEW_TL_BAR_X);
    g_assert_cmpint(vtl_x(f->vm, 1000), ==, VIEW_TL_BAR_X + VIEW_TL_W);
    /* 1 KiB on engine 1 queued at 100: 32 + 16 cycles */
    runev(f, NX_RUNEV_DMA, 1, 100, 148, 1024);
    /* queued at 120 behind it: starts at its completion, 148 */
    runev(f, NX_RUNEV_DMA, 1, 120, 200, 3072);
    runev(f, NX_RUNEV_WAIT_BEGIN, 0, 300, 0, 0);
    runev(f, NX_RUNEV_WAIT_END, 0, 500, 0, 0);
    runev(f, NX_RUNEV_WAIT_BEGIN, 1, 900, 0, 0); /* still blocked: up to now */
    {
        NxRunEvent fe = {.kind = NX_RUNEV_FAULT, .unit = 0, .t0 = 750, .code = 1};
        vtl_event(f->vm, &fe);
    }
    vrender_frame(f->vm, f->fb);
    /* rows: seq0, seq1, dma0, dma1 */
    g_assert_true(text_at(f->fb, VIEW_TL_X, tl_row_y(3), "dma1"));
    /* 100 -> column 57, 148 -> 85 (85.248), 200 -> 115 (115.2) */
    g_assert_cmpuint(run_of(f->fb, tl_row_y(3), VIEW_TL_BAR_X + 57, VIEW_COL_TL_DMA), ==, 115 - 57);
    g_assert_cmphex(f->fb[(size_t)tl_row_y(3) * VIEW_W + VIEW_TL_BAR_X + 56], ==,
                    VIEW_COL_TL_TRACK);
    g_assert_cmphex(f->fb[(size_t)(tl_row_y(3) + VIEW_TL_BAR_H - 1) * VIEW_W + VIEW_TL_BAR_X + 60],
                    ==, VIEW_COL_TL_DMA);
    g_assert_cmphex(f->fb[(size_t)(tl_row_y(3) + VIEW_TL_BAR_H) * VIEW_W + VIEW_TL_BAR_X + 60], ==,
                    VIEW_COL_BG);
    g_assert_cmpuint(run_of(f->fb, tl_row_y(2), VIEW_TL_BAR_X, VIEW_COL_TL_TRACK), ==, VIEW_TL_W);
    /* the wait 300..500: columns 172 (172.8) to 288; the fault mark at 432 */
    g_assert_cmpuint(run_of(f->fb, tl_row_y(0), VIEW_TL_BAR_X + 172, VIEW_COL_TL_WAIT), ==,
                     288 - 172);
    g_assert_cmpuint(run_of(f->fb, tl_row_y(0), VIEW_TL_BAR_X + 431, VIEW_COL_TL_FAULT), ==, 3);
    /* the open wait: 900 (518.4) to the right edge */
    g_assert_cmpuint(run_of(f->fb, tl_row_y(1), VIEW_TL_BAR_X + 518, VIEW_COL_TL_WAIT), ==,
                     VIEW_TL_W - 518);

    vmodel_hover_text(f->vm, VIEW_TL_BAR_X + 100, tl_row_y(3) + 3, s);
    g_assert_cmpstr(s->str, ==, "dma1 dma 3072 B vtime 148-200 (52 cycles)");
    g_string_truncate(s, 0);
    vmodel_hover_text(f->vm, VIEW_TL_BAR_X + 432, tl_row_y(0), s);
    g_assert_cmpstr(s->str, ==, "seq0 fault=INVALID_OPCODE at vtime 750");
    g_string_truncate(s, 0);
    vmodel_hover_text(f->vm, VIEW_TL_BAR_X + 520, tl_row_y(1), s);
    g_assert_cmpstr(s->str, ==, "seq1 blocked vtime 900- (going on)");
    g_string_truncate(s, 0);
    vmodel_hover_text(f->vm, VIEW_TL_BAR_X + 576 / 2, tl_row_y(2), s);
    g_assert_cmpstr(s->str, ==, "dma0 vtime 500");
    g_string_free(s, TRUE);
}

/* More cores and engines than 20 rows: only the engines with bars. */
static void test_timeline_rows(Fx *f, gconstpointer data)
{
    MachineConfig cfg = f->m->cfg;
    GError *err = NULL;
    ViewerModel *vm = g_new0(ViewerModel, 1);
    Machine *m;
    NxRunEvent e = {.kind = NX_RUNEV_DMA, .unit = 17, .t0 = 10, .t1 = 50, .bytes = 512};
    cfg.nr_dma = 24;
    m = machine_new(&cfg, NULL, 0, &err);
    g_assert_no_error(err);
    vmodel_init(vm, m);
    m->sched.vtime = 100;
    vtl_event(vm, &e);
    vrender_frame(vm, f->fb);
    g_assert_true(text_at(f->fb, VIEW_TL_X, tl_row_y(0), "seq0"));
    g_assert_true(text_at(f->fb, VIEW_TL_X, tl_row_y(1), "seq1"));
    g_assert_true(text_at(f->fb, VIEW_TL_X, tl_row_y(2), "dma17"));
    /* 10 -> 57 (57.6), 50 -> 288 */
    g_assert_cmpuint(run_of(f->fb, tl_row_y(2), VIEW_TL_BAR_X + 57, VIEW_COL_TL_DMA), ==, 288 - 57);
    g_assert_cmphex(f->fb[(size_t)tl_row_y(3) * VIEW_W + VIEW_TL_BAR_X], ==, VIEW_COL_BG);
    machine_free(m);
    vmodel_destroy(vm);
    g_free(vm);
}

/* A real sequencer blocked on the semaphore a DMA posts: the wait opens at
 * its first attempt (vtime 0) and closes at the attempt that retires.  The
 * 64 KiB transfer queued at 0 completes at 32 + 1024 = 1056, inside the round
 * [1024, 1088) after the sequencers' turn: the retiring attempt is at 1088. */
static void test_timeline_wait(Fx *f, gconstpointer data)
{
    uint8_t rec[64];
    GString *s = g_string_new(NULL);
    const ViewTlEvent *e;
    DmaRequest *req = g_new0(DmaRequest, 1);
    g_assert_true(machine_runev_subscribe(f->m, vtl_event, f->vm));
    asm1("nop wait(sem5 >= 1)", CODE, rec);
    put(f->m, CODE, rec, 64);
    asm1("halt", CODE + 64, rec);
    put(f->m, CODE + 64, rec, 64);
    start(f->m, 0, CODE);
    f->m->seq[1]->state = CPU_HALTED;
    req->bytes = 1 << 16;
    req->owner = -1;
    req->sem = 5;
    req->sem_inc = 1;
    dma_push(&f->m->board->dma.e[1], req);
    sched_round(f->m);
    g_assert_cmpuint(f->vm->tl.ev->len, >=, 1);
    e = &g_array_index(f->vm->tl.ev, ViewTlEvent, 0);
    g_assert_cmpuint(e->kind, ==, VIEW_TL_WAIT);
    g_assert_cmpuint(e->t0, ==, 0);
    g_assert_cmpstr(e->what, ==, "wait=sem[5] ge 1");
    for (int i = 0; i < 40 && f->vm->tl.open_wait[0] >= 0; i++) {
        sched_round(f->m);
    }
    g_assert_cmpuint(f->vm->tl.ev->len, ==, 2);
    e = &g_array_index(f->vm->tl.ev, ViewTlEvent, 0);
    g_assert_false(e->open);
    g_assert_cmpuint(e->t1, ==, 1088);
    e = &g_array_index(f->vm->tl.ev, ViewTlEvent, 1);
    g_assert_cmpuint(e->kind, ==, VIEW_TL_DMA);
    g_assert_cmpuint(e->t1, ==, 1056);
    vrender_frame(f->vm, f->fb);
    vmodel_hover_text(f->vm, VIEW_TL_BAR_X + 10, tl_row_y(0) + 1, s);
    g_assert_cmpstr(s->str, ==, "seq0 blocked wait=sem[5] ge 1 vtime 0-1088 (1088 cycles)");
    g_string_free(s, TRUE);
}

/* Run events have several subscribers (nxemu/runev.h): the traces and the
 * viewer each get every event of a DMA, the same fields, and one that
 * leaves gets no more.  A 4096-byte doorbell request queued at 0 on an
 * engine of latency 32 and 64 bytes a cycle completes at 32 + 4096 / 64. */
typedef struct RunEvLog {
    GArray *ev; /* NxRunEvent */
} RunEvLog;

static void runev_log(void *opaque, const NxRunEvent *ev)
{
    g_array_append_val(((RunEvLog *)opaque)->ev, *ev);
}

static void dma_doorbell(Fx *f, uint64_t bytes)
{
    DmaRequest *req = g_new0(DmaRequest, 1); /* freed by the engine (release NULL) */
    req->bytes = bytes;
    req->owner = -1;
    dma_push(&f->m->board->dma.e[0], req);
    for (int i = 0; i < 8 && f->m->board->dma.queued; i++) {
        dma_advance(&f->m->board->dma, 64);
        f->m->sched.vtime += 64;
    }
    g_assert_cmpuint(f->m->board->dma.queued, ==, 0);
}

static void test_runev_subscribers(Fx *f, gconstpointer data)
{
    RunEvLog log = {g_array_new(FALSE, FALSE, sizeof(NxRunEvent))};
    g_assert_true(machine_runev_subscribe(f->m, runev_log, &log));
    g_assert_true(machine_runev_subscribe(f->m, vtl_event, f->vm));
    dma_doorbell(f, 4096);
    g_assert_cmpuint(log.ev->len, ==, 3);
    const NxRunEvent *q = &g_array_index(log.ev, NxRunEvent, 0);
    const NxRunEvent *due = &g_array_index(log.ev, NxRunEvent, 1);
    const NxRunEvent *d = &g_array_index(log.ev, NxRunEvent, 2);
    g_assert_cmpuint(q->kind, ==, NX_RUNEV_DMA_QUEUED);
    g_assert_cmpint(q->owner, ==, -1);
    /* before it completes, an observer could hold it (reverse execution) */
    g_assert_cmpuint(due->kind, ==, NX_RUNEV_DMA_DUE);
    g_assert_cmpuint(due->bytes, ==, 4096);
    g_assert_nonnull(due->hold);
    g_assert_cmpuint(d->kind, ==, NX_RUNEV_DMA);
    g_assert_cmpuint(d->t0, ==, 0);
    g_assert_cmpuint(d->t1, ==, 32 + 4096 / 64);
    g_assert_cmpuint(d->bytes, ==, 4096);
    g_assert_cmpuint(f->vm->tl.ev->len, ==, 1); /* the viewer drew the same transfer */
    g_assert_cmpuint(g_array_index(f->vm->tl.ev, ViewTlEvent, 0).t1, ==, 32 + 4096 / 64);
    /* the log leaves: the next transfer reaches the viewer only */
    machine_runev_unsubscribe(f->m, runev_log, &log);
    dma_doorbell(f, 64);
    g_assert_cmpuint(log.ev->len, ==, 3);
    g_assert_cmpuint(f->vm->tl.ev->len, ==, 2);
    /* NX_RUNEV_SUBS at most; a full machine refuses one more */
    for (unsigned i = f->m->runev; i < NX_RUNEV_SUBS; i++)
        g_assert_true(machine_runev_subscribe(f->m, runev_log, &log));
    g_assert_false(machine_runev_subscribe(f->m, runev_log, &log));
    g_array_free(log.ev, TRUE);
}

/* The devices report through m->runev: a real DMA on engine 0. */
static void test_timeline_hooks(Fx *f, gconstpointer data)
{
    DmaRequest *req = g_new0(DmaRequest, 1); /* freed by the engine (release NULL) */
    g_assert_true(machine_runev_subscribe(f->m, vtl_event, f->vm));
    req->bytes = 4096;
    req->owner = -1;
    dma_push(&f->m->board->dma.e[0], req);
    for (int i = 0; i < 4 && f->vm->tl.ev->len == 0; i++) {
        dma_advance(&f->m->board->dma, 64);
        f->m->sched.vtime += 64;
    }
    g_assert_cmpuint(f->vm->tl.ev->len, ==, 1);
    {
        const ViewTlEvent *e = &g_array_index(f->vm->tl.ev, ViewTlEvent, 0);
        g_assert_cmpuint(e->kind, ==, VIEW_TL_DMA);
        g_assert_cmpuint(e->t0, ==, 0);
        g_assert_cmpuint(e->t1, ==, 32 + 4096 / 64);
        g_assert_cmpuint(e->bytes, ==, 4096);
    }
    machine_fault(f->m, f->m->seq[1]);
    g_assert_cmpuint(f->vm->tl.ev->len, ==, 2);
    /* the run ends with the fault: its mark is the strip's last 3 columns */
    f->m->sched.end_vtime = f->m->sched.vtime;
    vrender_frame(f->vm, f->fb);
    g_assert_cmpuint(run_of(f->fb, tl_row_y(1), VIEW_TL_BAR_X + VIEW_TL_W - 3, VIEW_COL_TL_FAULT),
                     ==, 3);
    g_assert_cmpuint(g_array_index(f->vm->tl.ev, ViewTlEvent, 1).kind, ==, VIEW_TL_FAULT);
    g_assert_cmpuint(g_array_index(f->vm->tl.ev, ViewTlEvent, 1).unit, ==, 1);
}

static void test_data_parse(Fx *f, gconstpointer data)
{
    ViewData d;
    GError *err = NULL;
    g_assert_true(vdata_parse(&d, f->m, "sbuf:3-5", NULL, NULL, &err));
    g_assert_no_error(err);
    g_assert_cmphex(d.pa, ==, SBUF_BASE + 3 * 0x40000);
    g_assert_cmpuint(d.rows, ==, 3);
    g_assert_cmpuint(d.cols, ==, 64); /* 64 f32 by default */
    g_assert_cmpuint(d.dtype, ==, VIEW_DT_F32);
    g_assert_true(vdata_parse(&d, f->m, "psum:40@0x800+0x800", "bf16", "heat", &err));
    g_assert_cmphex(d.pa, ==, PSUM_BASE + 40 * 0x8000 + 0x800);
    g_assert_cmpuint(d.rows, ==, 1);
    g_assert_cmpuint(d.cols, ==, 1024);
    g_assert_cmpuint(d.cmap, ==, VIEW_CMAP_HEAT);
    g_assert_true(vdata_parse(&d, f->m, "hbm:0x1000+100/10", "u8", NULL, &err));
    g_assert_cmpuint(d.rows, ==, 10);
    g_assert_cmpuint(d.cols, ==, 10);
    g_assert_true(vdata_parse(&d, f->m, "hbm:0x1000+20/8", "i32", NULL, &err));
    g_assert_cmpuint(d.cols, ==, 5); /* fewer elements than the row */
    g_assert_cmpuint(d.rows, ==, 1);
    static const char *const bad[] = {
        "sbuf:",        "sbuf:5-3",       "sbuf:128",          "sbuf:0@0x30000",
        "sbuf:0+0",     "sbuf:0+6",       "sbuf:0@0x2fff0+32", "sbuf:1x",
        "hbm:0x1000",   "hbm:0x1000+8/0", "hbm:0x4000000+4",   "vlm:0",
        "psum:0+0x4004"};
    for (unsigned i = 0; i < G_N_ELEMENTS(bad); i++) {
        g_assert_false(vdata_parse(&d, f->m, bad[i], NULL, NULL, &err));
        g_assert_nonnull(err);
        g_assert_null(strchr(err->message, '\n'));
        g_assert_true(g_str_has_prefix(err->message, "-display sdl,data="));
        g_clear_error(&err);
    }
    g_assert_false(vdata_parse(&d, f->m, "sbuf:0", "f64", NULL, &err));
    g_assert_cmpstr(err->message, ==,
                    "-display sdl,dtype=f64: unknown dtype (u8, i32, f32 or bf16)");
    g_clear_error(&err);
    g_assert_false(vdata_parse(&d, f->m, "sbuf:0", NULL, "jet", &err));
    g_clear_error(&err);
}

/* Values decoded per dtype; the image spreads min..max over the map. */
static void test_data_view(Fx *f, gconstpointer data)
{
    GError *err = NULL;
    GString *s = g_string_new(NULL);
    double v;
    float x = -2.5f;
    uint32_t u;
    /* partition p element i = 4p + i, as u32, for p, i = 0..3 */
    for (unsigned p = 0; p < 4; p++) {
        for (unsigned i = 0; i < 4; i++) {
            wr32(f->m, SBUF_BASE + p * 0x40000 + 4 * i, 4 * p + i);
        }
    }
    g_assert_true(vdata_parse(&f->vm->data, f->m, "sbuf:0-3+16", "i32", NULL, &err));
    g_assert_true(vdata_value(f->vm, 2, 1, &v));
    g_assert_cmpfloat(v, ==, 9);
    g_assert_false(vdata_value(f->vm, 4, 0, &v));
    vrender_frame(f->vm, f->fb);
    /* 4 x 4 elements of 98 x 57 pixels; grey (4p + i) * 255 / 15 */
    for (unsigned p = 0; p < 4; p++) {
        for (unsigned i = 0; i < 4; i++) {
            unsigned g = (unsigned)lround((4 * p + i) * 255.0 / 15);
            int cx = VIEW_DATA_X + (int)i * 98, cy = VIEW_DATA_Y + (int)p * 57;
            g_assert_cmphex(f->fb[(size_t)(cy + 28) * VIEW_W + cx + 49], ==, g * 0x010101u);
            g_assert_cmphex(f->fb[(size_t)cy * VIEW_W + cx], ==, g * 0x010101u);
            g_assert_cmphex(f->fb[(size_t)(cy + 56) * VIEW_W + cx + 97], ==, g * 0x010101u);
        }
    }
    g_assert_cmphex(f->fb[(size_t)(VIEW_DATA_Y - 1) * VIEW_W + VIEW_DATA_X], ==, VIEW_COL_FRAME);
    vmodel_hover_text(f->vm, VIEW_DATA_X + 98 * 3 + 5, VIEW_DATA_Y + 57 * 2 + 5, s);
    g_assert_cmpstr(s->str, ==, "data sbuf p2 +0x0000c [3] i32 = 11");
    /* the read-out and the picture are debug reads: no marks */
    g_assert_cmpuint(f->vm->live.sbuf[1][0].nrd, ==, 0);

    /* f32, bf16 (the high half of the f32), u8 of the same bytes */
    memcpy(&u, &x, 4);
    wr32(f->m, SBUF_BASE + 6 * 0x40000, u);
    g_assert_true(vdata_parse(&f->vm->data, f->m, "sbuf:6", "f32", NULL, &err));
    g_assert_true(vdata_value(f->vm, 0, 0, &v));
    g_assert_cmpfloat(v, ==, -2.5);
    g_assert_true(vdata_parse(&f->vm->data, f->m, "sbuf:6", "bf16", NULL, &err));
    g_assert_true(vdata_value(f->vm, 0, 1, &v));
    g_assert_cmpfloat(v, ==, -2.5);
    g_assert_true(vdata_value(f->vm, 0, 0, &v));
    g_assert_cmpfloat(v, ==, 0);
    g_assert_true(vdata_parse(&f->vm->data, f->m, "sbuf:6", "u8", NULL, &err));
    g_assert_true(vdata_value(f->vm, 0, 3, &v));
    g_assert_cmpfloat(v, ==, u >> 24);

    /* colour maps */
    g_assert_cmphex(vdata_color(VIEW_CMAP_GRAY, 0), ==, 0);
    g_assert_cmphex(vdata_color(VIEW_CMAP_GRAY, 1), ==, 0xFFFFFF);
    g_assert_cmphex(vdata_color(VIEW_CMAP_HEAT, 1.0 / 3), ==, 0xFF0000);
    g_assert_cmphex(vdata_color(VIEW_CMAP_HEAT, 2.0 / 3), ==, 0xFFFF00);
    g_assert_cmphex(vdata_color(VIEW_CMAP_HEAT, 1), ==, 0xFFFFFF);
    g_assert_cmphex(vdata_color(VIEW_CMAP_HEAT, NAN), ==, 0xFF00FF);
    g_string_free(s, TRUE);
}

/* A TPC tensor through its descriptor (tpc.md §3): f32, dimension 0 of 3
 * elements at stride 2, dimension 1 of 2 at stride 8, from HBM 0x10000;
 * element (r, c) at 0x10000 + 4 * (2c + 8r) holds 10r + c. */
static void test_data_tensor(Fx *f, gconstpointer data)
{
    MachineConfig cfg = f->m->cfg;
    GError *err = NULL;
    ViewerModel *vm = g_new0(ViewerModel, 1);
    GString *s = g_string_new(NULL);
    const uint64_t td = 0x2804000000ull + 0x400 + 0x38 * 3; /* TPC 0, tensor 3 */
    const uint32_t words[8] = {0x10000, 0, 0, 2 | 3u << 8, 3, 2, 2, 8};
    Machine *m;
    double v;
    g_assert_false(vdata_parse(&vm->data, f->m, "tensor:0:3", NULL, NULL, &err)); /* no TPC */
    g_clear_error(&err);
    cfg.nr_tpc = 1;
    m = machine_new(&cfg, NULL, 0, &err);
    g_assert_no_error(err);
    vmodel_init(vm, m);
    g_assert_false(vdata_parse(&vm->data, m, "tensor:0:16", NULL, NULL, &err));
    g_clear_error(&err);
    g_assert_false(vdata_parse(&vm->data, m, "tensor:1:0", NULL, NULL, &err));
    g_clear_error(&err);
    g_assert_true(vdata_parse(&vm->data, m, "tensor:0:3", NULL, NULL, &err));
    g_assert_no_error(err);
    vm->data.on = true;
    /* an all-zero descriptor: u8 of size 0, nothing to draw */
    vrender_frame(vm, f->fb);
    g_assert_false(vm->data.tensor_ok);
    g_assert_true(text_at(f->fb, VIEW_DATA_X, VIEW_DATA_Y - 12,
                          "data tpc0 tensor 3: no valid, non-empty descriptor"));
    for (unsigned i = 0; i < 8; i++) {
        g_assert_cmpint(as_write(m->as, td + 4 * i, 4, words[i], MEMTXATTRS(MEM_REQ_SEQ, 0)), ==,
                        MEMTX_OK);
    }
    for (unsigned r = 0; r < 2; r++) {
        for (unsigned c = 0; c < 3; c++) {
            float x = (float)(10 * r + c);
            uint32_t u;
            memcpy(&u, &x, 4);
            wr32(m, 0x10000 + 4 * (2 * c + 8 * r), u);
        }
    }
    vrender_frame(vm, f->fb);
    g_assert_true(vm->data.tensor_ok);
    g_assert_cmpuint(vm->data.dtype, ==, VIEW_DT_F32); /* from the element size */
    g_assert_true(vdata_value(vm, 1, 2, &v));
    g_assert_cmpfloat(v, ==, 12);
    g_assert_true(vdata_value(vm, 0, 1, &v));
    g_assert_cmpfloat(v, ==, 1);
    g_assert_true(text_at(f->fb, VIEW_DATA_X, VIEW_DATA_Y - 12,
                          "data tpc0 tensor 3 3x2 @0x10000 f32 gray 0..12"));
    /* 3 x 2 elements of 130 x 115 pixels: grey (10r + c) * 255 / 12 */
    g_assert_cmphex(f->fb[(size_t)(VIEW_DATA_Y + 115 + 50) * VIEW_W + VIEW_DATA_X + 2 * 130 + 60],
                    ==, 0xFFFFFF);
    g_assert_cmphex(f->fb[(size_t)(VIEW_DATA_Y + 50) * VIEW_W + VIEW_DATA_X + 130 + 60], ==,
                    (unsigned)lround(255.0 / 12) * 0x010101u);
    g_assert_cmphex(f->fb[(size_t)(VIEW_DATA_Y + 115 + 50) * VIEW_W + VIEW_DATA_X + 60], ==,
                    (unsigned)lround(10 * 255.0 / 12) * 0x010101u);
    vmodel_hover_text(vm, VIEW_DATA_X + 2 * 130 + 3, VIEW_DATA_Y + 115 + 3, s);
    g_assert_cmpstr(s->str, ==, "data tpc0 tensor 3 [2,1] pa=0x10030 f32 = 12");
    machine_free(m);
    vmodel_destroy(vm);
    g_free(vm);
    g_string_free(s, TRUE);
}

#define FX_TEST(path, fn) g_test_add(path, Fx, NULL, fx_setup, fn, fx_teardown)

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    FX_TEST("/viewer/table", test_table);
    FX_TEST("/viewer/timeline", test_timeline);
    FX_TEST("/viewer/timeline-rows", test_timeline_rows);
    FX_TEST("/viewer/timeline-hooks", test_timeline_hooks);
    FX_TEST("/viewer/runev-subscribers", test_runev_subscribers);
    FX_TEST("/viewer/timeline-wait", test_timeline_wait);
    FX_TEST("/viewer/data-parse", test_data_parse);
    FX_TEST("/viewer/data-view", test_data_view);
    FX_TEST("/viewer/data-tensor", test_data_tensor);
    return g_test_run();
}
