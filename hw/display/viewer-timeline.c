/*
 * The viewer's timeline strip (docs/viewer.rst "Timeline"): what -trace-json
 * records -- DMA transfers, TPC kernels, sequencer waits, faults -- as bars on
 * one row per core and engine, virtual time 0 .. now on x.
 *
 * Events arrive through the run-event observer (include/nxemu/runev.h), so
 * nothing here reads device or core state; bars are kept in one growing
 * array, capped at VIEW_TL_MAX_EVENTS (later ones are only counted).
 */
#include <inttypes.h>
#include <string.h>

#include "hw/display/viewer-int.h"
#include "nxemu/fault.h"
#include "nxemu/machine.h"

typedef enum TlRowType { TL_ROW_SEQ, TL_ROW_TPC, TL_ROW_DMA } TlRowType;
typedef struct TlRow {
    TlRowType type;
    unsigned unit;
} TlRow;

static int tl_append(ViewTimeline *tl, const ViewTlEvent *e)
{
    if (tl->ev->len >= VIEW_TL_MAX_EVENTS) {
        tl->dropped++;
        return -1;
    }
    g_array_append_val(tl->ev, *e);
    return (int)tl->ev->len - 1;
}

static ViewTlEvent *tl_at(ViewTimeline *tl, int i)
{
    return &g_array_index(tl->ev, ViewTlEvent, i);
}

/* What sequencer `unit` is blocked on, as the cores panel and -trace-json's
 * span name say it, without the " current=N" tail that changes while it
 * waits; NULL if the core cannot tell. */
static const char *wait_what(ViewerModel *vm, unsigned unit)
{
    NxCpu *cpu = vm->m->seq ? vm->m->seq[unit] : NULL;
    GString *g;
    char *cur;
    const char *what = NULL;
    if (!cpu || !cpu->ops->block_info) {
        return NULL;
    }
    g = g_string_new(NULL);
    cpu->ops->block_info(cpu, g);
    if ((cur = strstr(g->str, " current="))) {
        g_string_truncate(g, (gsize)(cur - g->str));
    }
    if (g->len) {
        what = g_string_chunk_insert_const(vm->tl.names, g->str);
    }
    g_string_free(g, TRUE);
    return what;
}

void vtl_event(void *opaque, const NxRunEvent *ev)
{
    ViewerModel *vm = opaque;
    ViewTimeline *tl = &vm->tl;
    ViewTlEvent e = {.unit = (uint16_t)ev->unit, .t0 = ev->t0, .t1 = ev->t1, .code = ev->code};
    switch (ev->kind) {
    case NX_RUNEV_DMA_QUEUED: /* drawn at its completion */
    case NX_RUNEV_DMA_DUE:
    case NX_RUNEV_SEM:
        return;
    case NX_RUNEV_DMA:
        if (ev->unit >= tl->nr_dma) {
            return;
        }
        /* A queued request starts when the one before it on the engine has
         * completed (the span -trace-json draws). */
        e.kind = VIEW_TL_DMA;
        e.t0 = MIN(MAX(ev->t0, tl->dma_last[ev->unit]), ev->t1);
        e.bytes = ev->bytes;
        tl->dma_last[ev->unit] = ev->t1;
        tl->dma_used[ev->unit] = true;
        tl_append(tl, &e);
        return;
    case NX_RUNEV_KERNEL_BEGIN:
        if (ev->unit >= tl->nr_tpc) {
            return;
        }
        e.kind = VIEW_TL_KERNEL;
        e.open = 1;
        tl->tpc_used[ev->unit] = true;
        tl->open_kernel[ev->unit] = tl_append(tl, &e);
        return;
    case NX_RUNEV_KERNEL_END: {
        int i;
        if (ev->unit >= tl->nr_tpc) {
            return;
        }
        i = tl->open_kernel[ev->unit];
        tl->open_kernel[ev->unit] = -1;
        if (i >= 0) {
            ViewTlEvent *k = tl_at(tl, i);
            k->open = 0;
            k->t1 = MAX(ev->t1, k->t0);
            k->code = ev->code;
        } else {
            e.kind = VIEW_TL_KERNEL;
            tl->tpc_used[ev->unit] = true;
            tl_append(tl, &e);
        }
        return;
    }
    case NX_RUNEV_WAIT_BEGIN:
        if (ev->unit >= tl->nr_seq || tl->open_wait[ev->unit] >= 0) {
            return;
        }
        e.kind = VIEW_TL_WAIT;
        e.open = 1;
        e.what = wait_what(vm, ev->unit);
        tl->open_wait[ev->unit] = tl_append(tl, &e);
        return;
    case NX_RUNEV_WAIT_END: {
        int i;
        if (ev->unit >= tl->nr_seq || (i = tl->open_wait[ev->unit]) < 0) {
            return;
        }
        tl->open_wait[ev->unit] = -1;
        tl_at(tl, i)->open = 0;
        tl_at(tl, i)->t1 = MAX(ev->t0, tl_at(tl, i)->t0);
        return;
    }
    case NX_RUNEV_FAULT:
        e.kind = VIEW_TL_FAULT;
        e.tpc = ev->tpc;
        e.t1 = ev->t0;
        tl_append(tl, &e);
        return;
    }
}

uint64_t vtl_span(const ViewerModel *vm)
{
    return MAX(machine_run_vtime(vm->m) - vtl_origin(vm), 1u);
}

/* The activity zoom starts the timeline shortly before the first kernel
 * launch: a launcher's set-up (nxemu-tpc-run's counts the TPCs for ~2000
 * cycles) would otherwise leave the kernels a few columns at the end. */
uint64_t vtl_origin(const ViewerModel *vm)
{
    const ViewTimeline *tl = &vm->tl;
    uint64_t end = machine_run_vtime(vm->m);
    if (!vm->activity || !tl->ev) {
        return 0;
    }
    for (guint i = 0; i < tl->ev->len; i++) {
        const ViewTlEvent *e = &g_array_index(tl->ev, ViewTlEvent, i);
        if (e->kind == VIEW_TL_KERNEL && e->t0 < end) {
            uint64_t margin = (end - e->t0) / 16;
            return e->t0 > margin ? e->t0 - margin : 0;
        }
    }
    return 0;
}

int vtl_x(const ViewerModel *vm, uint64_t t)
{
    uint64_t span = vtl_span(vm), o = vtl_origin(vm);
    t = t > o ? t - o : 0;
    return VIEW_TL_BAR_X + (int)(MIN(t, span) * VIEW_TL_W / span);
}

/* The rows: every sequencer, TPC and DMA engine while they fit; else the
 * TPCs and engines that have bars. */
static unsigned tl_rows(const ViewerModel *vm, TlRow *rows)
{
    const ViewTimeline *tl = &vm->tl;
    bool all = tl->nr_seq + tl->nr_tpc + tl->nr_dma <= VIEW_TL_ROWS;
    unsigned n = 0;
    for (unsigned i = 0; i < tl->nr_seq && n < VIEW_TL_ROWS; i++) {
        rows[n++] = (TlRow){TL_ROW_SEQ, i};
    }
    for (unsigned i = 0; i < tl->nr_tpc && n < VIEW_TL_ROWS; i++) {
        if (all || tl->tpc_used[i]) {
            rows[n++] = (TlRow){TL_ROW_TPC, i};
        }
    }
    for (unsigned i = 0; i < tl->nr_dma && n < VIEW_TL_ROWS; i++) {
        if (all || tl->dma_used[i]) {
            rows[n++] = (TlRow){TL_ROW_DMA, i};
        }
    }
    return n;
}

static bool tl_on_row(const ViewTlEvent *e, const TlRow *r)
{
    switch (e->kind) {
    case VIEW_TL_DMA:
        return r->type == TL_ROW_DMA && e->unit == r->unit;
    case VIEW_TL_KERNEL:
        return r->type == TL_ROW_TPC && e->unit == r->unit;
    case VIEW_TL_WAIT:
        return r->type == TL_ROW_SEQ && e->unit == r->unit;
    default:
        return r->type == (e->tpc ? TL_ROW_TPC : TL_ROW_SEQ) && e->unit == r->unit;
    }
}

/* A bar's columns [x0, x1): at least one wide; an open bar reaches now. */
static void tl_bar_cols(const ViewerModel *vm, const ViewTlEvent *e, int *x0, int *x1)
{
    uint64_t t1 = e->open ? machine_run_vtime(vm->m) : e->t1;
    *x0 = vtl_x(vm, e->t0);
    *x1 = MAX(vtl_x(vm, t1), *x0 + 1);
    if (e->kind == VIEW_TL_FAULT) {
        /* a mark three columns wide around t, inside the strip: a fault
         * ends the run, so it is usually at the right edge */
        *x0 = CLAMP(*x0 - 1, VIEW_TL_BAR_X, VIEW_TL_BAR_X + VIEW_TL_W - 3);
        *x1 = *x0 + 3;
    }
}

static uint32_t tl_color(const ViewTlEvent *e)
{
    switch (e->kind) {
    case VIEW_TL_DMA:
        return VIEW_COL_TL_DMA;
    case VIEW_TL_KERNEL:
        return e->code ? VIEW_COL_TL_KFAULT : VIEW_COL_TL_KERNEL;
    case VIEW_TL_WAIT:
        return VIEW_COL_TL_WAIT;
    default:
        return VIEW_COL_TL_FAULT;
    }
}

static const char *const tl_row_name[] = {"seq", "tpc", "dma"};

void vtl_draw(ViewerModel *vm, uint32_t *fb)
{
    TlRow rows[VIEW_TL_ROWS];
    unsigned n = tl_rows(vm, rows);
    uint64_t span = vtl_span(vm);
    int x = VIEW_TL_X, y = VIEW_TL_Y - 12;
    static const struct {
        uint32_t c;
        const char *what;
    } legend[] = {{VIEW_COL_TL_DMA, "dma"},
                  {VIEW_COL_TL_KERNEL, "kernel"},
                  {VIEW_COL_TL_WAIT, "wait"},
                  {VIEW_COL_TL_FAULT, "fault"}};
    uint64_t o = vtl_origin(vm);
    x = vrender_textf(fb, x, y, VIEW_COL_LABEL,
                      "timeline  vtime %" PRIu64 "-%" PRIu64 "  %" PRIu64 ".%02" PRIu64
                      " cycles/column  ",
                      o, o + span, span / VIEW_TL_W, span % VIEW_TL_W * 100 / VIEW_TL_W);
    for (unsigned i = 0; i < G_N_ELEMENTS(legend); i++) {
        vrender_fill(fb, x, y, 12, 7, legend[i].c);
        x = vrender_text(fb, x + 16, y, VIEW_COL_TEXT, legend[i].what) + 8;
    }
    if (vm->tl.dropped) {
        vrender_textf(fb, x, y, VIEW_COL_TEXT, "(%" PRIu64 " later events not shown)",
                      vm->tl.dropped);
    }
    for (unsigned r = 0; r < n; r++) {
        int ry = VIEW_TL_Y + (int)r * VIEW_TL_ROW_H;
        vrender_textf(fb, VIEW_TL_X, ry, VIEW_COL_TEXT, "%s%u", tl_row_name[rows[r].type],
                      rows[r].unit);
        vrender_fill(fb, VIEW_TL_BAR_X, ry, VIEW_TL_W, VIEW_TL_BAR_H, VIEW_COL_TL_TRACK);
    }
    /* Bars first, fault marks on top of them. */
    for (int pass = 0; pass < 2; pass++) {
        for (guint i = 0; i < vm->tl.ev->len; i++) {
            const ViewTlEvent *e = &g_array_index(vm->tl.ev, ViewTlEvent, i);
            if ((e->kind == VIEW_TL_FAULT) != (pass == 1)) {
                continue;
            }
            for (unsigned r = 0; r < n; r++) {
                int x0, x1;
                if (!tl_on_row(e, &rows[r])) {
                    continue;
                }
                tl_bar_cols(vm, e, &x0, &x1);
                x1 = MIN(x1, VIEW_TL_BAR_X + VIEW_TL_W);
                vrender_fill(fb, x0, VIEW_TL_Y + (int)r * VIEW_TL_ROW_H, x1 - x0, VIEW_TL_BAR_H,
                             tl_color(e));
            }
        }
    }
    if (vm->scrub) {
        /* the time cursor: one column over every row, on top of the bars */
        vrender_fill(fb, vtl_x(vm, vm->scrub_t), VIEW_TL_Y - 2, 1,
                     (int)MAX(n, 1u) * VIEW_TL_ROW_H + 2, VIEW_COL_TL_CURSOR);
    }
}

void vtl_hover_text(ViewerModel *vm, int x, int y, GString *out)
{
    TlRow rows[VIEW_TL_ROWS];
    unsigned n = tl_rows(vm, rows), r;
    const ViewTlEvent *hit = NULL;
    if (y < VIEW_TL_Y || x < VIEW_TL_BAR_X || x >= VIEW_TL_BAR_X + VIEW_TL_W) {
        return;
    }
    r = (unsigned)(y - VIEW_TL_Y) / VIEW_TL_ROW_H;
    if (r >= n || (y - VIEW_TL_Y) % VIEW_TL_ROW_H >= VIEW_TL_BAR_H) {
        return;
    }
    /* the last drawn (topmost) bar under the mouse */
    for (guint i = 0; i < vm->tl.ev->len; i++) {
        const ViewTlEvent *e = &g_array_index(vm->tl.ev, ViewTlEvent, i);
        int x0, x1;
        if (!tl_on_row(e, &rows[r])) {
            continue;
        }
        tl_bar_cols(vm, e, &x0, &x1);
        if (x >= x0 && x < x1 && (!hit || e->kind == VIEW_TL_FAULT || hit->kind != VIEW_TL_FAULT)) {
            hit = e;
        }
    }
    g_string_append_printf(out, "%s%u", tl_row_name[rows[r].type], rows[r].unit);
    if (!hit) {
        uint64_t span = vtl_span(vm);
        g_string_append_printf(out, " vtime %" PRIu64,
                               vtl_origin(vm) + (uint64_t)(x - VIEW_TL_BAR_X) * span / VIEW_TL_W);
        return;
    }
    switch (hit->kind) {
    case VIEW_TL_DMA:
        g_string_append_printf(out, " dma %" PRIu64 " B", hit->bytes);
        break;
    case VIEW_TL_KERNEL:
        g_string_append(out, hit->code ? " kernel (fault)" : " kernel");
        break;
    case VIEW_TL_WAIT:
        g_string_append(out, " blocked");
        if (hit->what) {
            g_string_append_printf(out, " %s", hit->what);
        }
        break;
    default:
        /* TPC fault names live with the TPC (target/tpc): the code here */
        if (hit->tpc) {
            g_string_append_printf(out, " fault code=%" PRIu32, hit->code);
        } else {
            g_string_append_printf(out, " fault=%s", nx_fault_name(hit->code));
        }
        g_string_append_printf(out, " at vtime %" PRIu64, hit->t0);
        return;
    }
    if (hit->open) {
        g_string_append_printf(out, " vtime %" PRIu64 "- (going on)", hit->t0);
    } else {
        g_string_append_printf(out, " vtime %" PRIu64 "-%" PRIu64 " (%" PRIu64 " cycles)", hit->t0,
                               hit->t1, hit->t1 - hit->t0);
    }
}
