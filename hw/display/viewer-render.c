/*
 * Drawing one viewer frame into an XRGB8888 buffer of VIEW_W x VIEW_H.
 * Software rendering keeps the picture identical in a window, under the
 * offscreen driver and in a screenshot, and testable without SDL.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "hw/nc2/board.h"
#include "hw/display/viewer-int.h"
#include "nxemu/machine.h"
#include "nxemu/sched.h"

void vrender_fill(uint32_t *fb, int x, int y, int w, int h, uint32_t c)
{
    int x1 = MIN(x + w, VIEW_W), y1 = MIN(y + h, VIEW_H);
    x = MAX(x, 0);
    y = MAX(y, 0);
    for (int j = y; j < y1; j++) {
        uint32_t *row = fb + (size_t)j * VIEW_W;
        for (int i = x; i < x1; i++) {
            row[i] = c;
        }
    }
}

static void frame_rect(uint32_t *fb, int x, int y, int w, int h, uint32_t c)
{
    vrender_fill(fb, x, y, w, 1, c);
    vrender_fill(fb, x, y + h - 1, w, 1, c);
    vrender_fill(fb, x, y, 1, h, c);
    vrender_fill(fb, x + w - 1, y, 1, h, c);
}

int vrender_text(uint32_t *fb, int x, int y, uint32_t color, const char *s)
{
    for (; *s; s++, x += VIEW_CHAR_W) {
        const uint8_t *g = vfont_glyph(*s);
        if (x + 5 > VIEW_W) {
            break;
        }
        for (int col = 0; col < 5; col++) {
            for (int row = 0; row < 7; row++) {
                if ((g[col] >> row) & 1 && x + col >= 0 && y + row >= 0 && y + row < VIEW_H) {
                    fb[(size_t)(y + row) * VIEW_W + x + col] = color;
                }
            }
        }
    }
    return x;
}

int vrender_textf(uint32_t *fb, int x, int y, uint32_t color, const char *fmt, ...)
{
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    g_vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    return vrender_text(fb, x, y, color, buf);
}

/* The focused map (the one keys zoom and pan) has a brighter frame. */
static uint32_t frame_color(const ViewerModel *vm, ViewArea a)
{
    return vm->focus == a ? VIEW_COL_FOCUS : VIEW_COL_FRAME;
}

/* One partition's row of columns: each column the colour of its bin; then a
 * run of touched columns narrower than VIEW_MIN_MARK_COLS is widened to that
 * (to the right, or to the left at the right edge) over untouched columns, so
 * that a 16-byte write is a visible mark at any zoom. */
static void sbuf_row(ViewerModel *vm, unsigned p, const uint16_t *bin, uint32_t *out)
{
    bool hit[VIEW_SBUF_W];
    for (int x = 0; x < VIEW_SBUF_W; x++) {
        out[x] = vmodel_color(&vmodel_marks(vm)->sbuf[p][bin[x]]);
        hit[x] = out[x] != VIEW_COL_IDLE;
    }
    for (int s = 0; s < VIEW_SBUF_W; s++) {
        int e = s, from, to;
        if (!hit[s] || (s && hit[s - 1])) {
            continue;
        }
        while (e + 1 < VIEW_SBUF_W && hit[e + 1]) {
            e++;
        }
        if (e - s + 1 >= VIEW_MIN_MARK_COLS) {
            continue;
        }
        from = s;
        to = s + VIEW_MIN_MARK_COLS - 1;
        if (to >= VIEW_SBUF_W) {
            to = VIEW_SBUF_W - 1;
            from = VIEW_SBUF_W - VIEW_MIN_MARK_COLS;
        }
        for (int x = from; x <= to; x++) {
            if (!hit[x]) {
                out[x] = out[s];
            }
        }
    }
}

static void draw_sbuf(ViewerModel *vm, uint32_t *fb)
{
    /* Columns map to bins once per frame, not once per partition. */
    uint16_t bin[VIEW_SBUF_W];
    for (int x = 0; x < VIEW_SBUF_W; x++) {
        bin[x] = (uint16_t)(vmodel_sbuf_offset_at(vm, x) / VIEW_SBUF_BIN_BYTES);
    }
    for (unsigned p = 0; p < NC2_SBUF_PARTITIONS; p++) {
        uint32_t *row = fb + (size_t)(VIEW_SBUF_Y + p * VIEW_PART_H) * VIEW_W + VIEW_SBUF_X;
        /* Rows 0 and 1 of the partition; row 2 stays a dark separator. */
        sbuf_row(vm, p, bin, row);
        memcpy(row + VIEW_W, row, VIEW_SBUF_W * sizeof(*row));
    }
    frame_rect(fb, VIEW_SBUF_X - 1, VIEW_SBUF_Y - 1, VIEW_SBUF_W + 2,
               NC2_SBUF_PARTITIONS * VIEW_PART_H + 1, frame_color(vm, VIEW_AREA_SBUF));
}

static void draw_psum(ViewerModel *vm, uint32_t *fb)
{
    /* Each shown partition gets VIEW_PART_H * zoom rows, the last one dark. */
    int ph = VIEW_PART_H * (int)vm->psum_zoom;
    unsigned shown = NC2_PSUM_PARTITIONS / vm->psum_zoom;
    for (unsigned i = 0; i < shown; i++) {
        unsigned p = vm->psum_pan + i;
        for (unsigned b = 0; b < NC2_PSUM_BANKS; b++) {
            vrender_fill(fb, VIEW_PSUM_X + (int)(b * VIEW_BANK_W), VIEW_PSUM_Y + (int)i * ph,
                         VIEW_BANK_W - 1, ph - 1, vmodel_color(&vmodel_marks(vm)->psum[p][b]));
        }
    }
    frame_rect(fb, VIEW_PSUM_X - 1, VIEW_PSUM_Y - 1, NC2_PSUM_BANKS * VIEW_BANK_W + 1,
               NC2_PSUM_PARTITIONS * VIEW_PART_H + 1, frame_color(vm, VIEW_AREA_PSUM));
}

/* The letter of label i (include/nxemu/machine.h NxMemLabel): 'A', 'B', ...
 * one per distinct name, so the segments of one image share theirs; '+'
 * past 'Z'. */
static char label_letter(const Machine *m, guint i)
{
    const NxMemLabel *l = &g_array_index(m->labels, NxMemLabel, i);
    unsigned k = 0;
    for (guint j = 0; j < i; j++) {
        const NxMemLabel *p = &g_array_index(m->labels, NxMemLabel, j);
        bool seen = false;
        for (guint q = 0; q < j && !seen; q++) {
            seen = !strcmp(g_array_index(m->labels, NxMemLabel, q).name, p->name);
        }
        if (!strcmp(p->name, l->name)) {
            return label_letter(m, j);
        }
        k += !seen;
    }
    return k < 26 ? (char)('A' + k) : '+';
}

/* Region labels on the HBM map: a white frame around the first square of
 * each labelled range shown, and its letter in the margin right of the map
 * on that square's row (two letters fit; the list in the text panel names
 * them all). */
static void draw_hbm_labels(ViewerModel *vm, uint32_t *fb, uint64_t sq)
{
    const Machine *m = vm->m;
    const uint64_t lo = vm->hbm_pan, hi = vm->hbm_pan + (uint64_t)VIEW_HBM_CELLS * sq;
    /* the letters drawn in each margin column, by their y (no overlap) */
    int used[2][VIEW_HBM_SIDE];
    unsigned nused[2] = {0, 0};
    for (guint i = 0; m->labels && i < m->labels->len; i++) {
        const NxMemLabel *l = &g_array_index(m->labels, NxMemLabel, i);
        uint64_t first = MAX(l->pa, lo);
        if (!l->size || l->pa >= m->cfg.hbm_size || first >= hi || first >= l->pa + l->size) {
            continue;
        }
        uint64_t g = (first - lo) / sq;
        int x = VIEW_HBM_X + (int)(g % VIEW_HBM_SIDE) * VIEW_HBM_CELL;
        int y = VIEW_HBM_Y + (int)(g / VIEW_HBM_SIDE) * VIEW_HBM_CELL;
        frame_rect(fb, x - 1, y - 1, VIEW_HBM_CELL + 1, VIEW_HBM_CELL + 1, 0xFFFFFFu);
        for (int k = 0; k < 2; k++) {
            bool free = nused[k] < VIEW_HBM_SIDE;
            for (unsigned u = 0; u < nused[k] && free; u++) {
                free = abs(used[k][u] - (y - 1)) >= VIEW_LINE_H - 1;
            }
            if (free) {
                char t[2] = {label_letter(m, i), 0};
                vrender_text(fb, VIEW_HBM_X + VIEW_HBM_SIDE * VIEW_HBM_CELL + 2 + k * VIEW_CHAR_W,
                             y - 1, 0xFFFFFFu, t);
                used[k][nused[k]++] = y - 1;
                break;
            }
        }
    }
}

/* "3 KiB", "64 B", "1.5 MiB": a size for the region list. */
static void size_text(GString *out, uint64_t n)
{
    static const char *const unit[] = {"B", "KiB", "MiB", "GiB"};
    unsigned u = 0;
    uint64_t whole = n, tenths = 0;
    while (whole >= 1024 && u < 3) {
        tenths = (n * 10 >> (10 * (u + 1))) % 10;
        whole >>= 10;
        u++;
    }
    if (tenths) {
        g_string_append_printf(out, "%" PRIu64 ".%" PRIu64 " %s", whole, tenths, unit[u]);
    } else {
        g_string_append_printf(out, "%" PRIu64 " %s", whole, unit[u]);
    }
}

/* The region list: letter, first byte, size, name; a name too long for the
 * panel ends in "...". */
static int draw_labels(ViewerModel *vm, uint32_t *fb, int y)
{
    const Machine *m = vm->m;
    const unsigned cols = (VIEW_W - VIEW_TEXT_X) / VIEW_CHAR_W;
    GString *line = g_string_new(NULL);
    guint i = 0, n = m->labels ? m->labels->len : 0;
    if (!n) {
        g_string_free(line, TRUE);
        return y;
    }
    y += 6;
    vrender_text(fb, VIEW_TEXT_X, y, VIEW_COL_LABEL, "regions (HBM squares framed in white)");
    y += 12;
    for (; i < n && y < VIEW_TEXT_BOTTOM - 2 * VIEW_LINE_H; i++) {
        const NxMemLabel *l = &g_array_index(m->labels, NxMemLabel, i);
        g_string_printf(line, "%c 0x%010" PRIx64 " ", label_letter(m, i), l->pa);
        size_text(line, l->size);
        while (line->len < 26) {
            g_string_append_c(line, ' ');
        }
        g_string_append(line, l->name);
        if (line->len > cols) {
            g_string_truncate(line, cols - 3);
            g_string_append(line, "...");
        }
        vrender_text(fb, VIEW_TEXT_X, y, VIEW_COL_TEXT, line->str);
        y += VIEW_LINE_H;
    }
    if (i < n) {
        vrender_textf(fb, VIEW_TEXT_X, y, VIEW_COL_TEXT, "(%u more)", n - i);
        y += VIEW_LINE_H;
    }
    g_string_free(line, TRUE);
    return y;
}

static void draw_hbm(ViewerModel *vm, uint32_t *fb)
{
    uint64_t sq = vmodel_hbm_square_bytes(vm);
    for (unsigned g = 0; g < VIEW_HBM_CELLS; g++) {
        uint64_t a = vm->hbm_pan + g * sq;
        if (a >= vm->m->cfg.hbm_size) {
            break;
        }
        vrender_fill(fb, VIEW_HBM_X + (int)(g % VIEW_HBM_SIDE) * VIEW_HBM_CELL,
                     VIEW_HBM_Y + (int)(g / VIEW_HBM_SIDE) * VIEW_HBM_CELL, VIEW_HBM_CELL - 1,
                     VIEW_HBM_CELL - 1, vmodel_color(&vmodel_marks(vm)->hbm[a >> vm->hbm_shift]));
    }
    frame_rect(fb, VIEW_HBM_X - 1, VIEW_HBM_Y - 1, VIEW_HBM_SIDE * VIEW_HBM_CELL + 1,
               VIEW_HBM_SIDE * VIEW_HBM_CELL + 1, frame_color(vm, VIEW_AREA_HBM));
    draw_hbm_labels(vm, fb, sq);
}

/* Colour of a core's line by its reported state (machine_cpu_state_label):
 * green only while it really runs. */
static uint32_t state_color(const char *label)
{
    if (!strcmp(label, "RUNNING")) {
        return 0x80FF80u;
    }
    if (!strcmp(label, "BLOCKED")) {
        return 0xFFC040u;
    }
    if (!strcmp(label, "FAULTED") || !strcmp(label, "STOPPED")) {
        return 0xFF6060u;
    }
    return VIEW_COL_TEXT;
}

static int draw_cpu(uint32_t *fb, const Machine *m, int y, const char *kind, NxCpu *cpu,
                    GString *tmp)
{
    const char *label;
    if (!cpu) {
        return y;
    }
    label = machine_cpu_state_label(m, cpu);
    g_string_truncate(tmp, 0);
    if (cpu->state == CPU_BLOCKED && cpu->ops->block_info) {
        cpu->ops->block_info(cpu, tmp); /* what it waits on: wait=sem[3] ge 1 current=0 */
    } else if (cpu->state == CPU_FAULTED) {
        g_string_printf(tmp, "fault=%s addr=0x%" PRIx64, nx_fault_name(cpu->fault.code),
                        cpu->fault.addr);
    }
    /* Nothing is cut at the window's edge (an address losing its last
     * digits reads as another address): what does not fit goes on the next
     * line, and only a detail too long for a line of its own ends in "...". */
    const unsigned cols = (VIEW_W - VIEW_TEXT_X) / VIEW_CHAR_W;
    GString *line = g_string_new(NULL);
    g_string_printf(line, "%s%-2u %-7s pc=0x%010" PRIx64 " ret=%" PRIu64, kind, cpu->index, label,
                    cpu->ops->get_pc ? cpu->ops->get_pc(cpu) : 0, cpu->retired);
    if (tmp->len && line->len + 1 + tmp->len <= cols) {
        g_string_append_printf(line, " %s", tmp->str);
        g_string_truncate(tmp, 0);
    }
    vrender_text(fb, VIEW_TEXT_X, y, state_color(label), line->str);
    y += VIEW_LINE_H;
    if (tmp->len) {
        const unsigned room = cols - 2;
        if (tmp->len > room) {
            g_string_truncate(tmp, room - 3);
            g_string_append(tmp, "...");
        }
        vrender_text(fb, VIEW_TEXT_X + 2 * VIEW_CHAR_W, y, state_color(label), tmp->str);
        y += VIEW_LINE_H;
    }
    g_string_free(line, TRUE);
    return y;
}

static int draw_tlb(uint32_t *fb, int y, const NxBlock *nx)
{
    const WTlb *t = &nx->tlb;
    vrender_textf(fb, VIEW_TEXT_X, y, VIEW_COL_TEXT,
                  "tlb%-2u hits=%" PRIu64 " misses=%" PRIu64 " evictions=%" PRIu64 "%s", nx->id,
                  t->hits, t->misses, t->evictions, nx->regs.wt_base ? "" : " (identity)");
    y += VIEW_LINE_H;
    for (unsigned k = 0; k < t->n && y < VIEW_TEXT_BOTTOM - VIEW_LINE_H; k++) {
        const WTlbEntry *e = &t->e[k];
        if (!e->valid) {
            continue;
        }
        vrender_textf(fb, VIEW_TEXT_X + 12, y, VIEW_COL_TEXT,
                      "[%u] w%-4" PRIu64 " -> 0x%012" PRIx64 " %c%c%c", k, e->window,
                      e->entry & ~(uint64_t)0xFFFFFF, e->entry & WT_R ? 'R' : '-',
                      e->entry & WT_W ? 'W' : '-', e->entry & WT_X ? 'X' : '-');
        y += VIEW_LINE_H;
    }
    return y;
}

static void draw_text_panel(ViewerModel *vm, uint32_t *fb)
{
    Machine *m = vm->m;
    GString *tmp = g_string_new(NULL);
    int y = VIEW_SBUF_Y;
    vrender_text(fb, VIEW_TEXT_X, y - 12, VIEW_COL_LABEL, "cores");
    for (unsigned i = 0; m->seq && i < m->cfg.nr_seq; i++) {
        y = draw_cpu(fb, m, y, "seq", m->seq[i], tmp);
    }
    for (unsigned i = 0; m->tpc && i < m->cfg.nr_tpc && y < VIEW_H / 2; i++) {
        y = draw_cpu(fb, m, y, "tpc", m->tpc[i], tmp);
    }
    y += 6;
    vrender_text(fb, VIEW_TEXT_X, y, VIEW_COL_LABEL, "window TLBs");
    y += 12;
    for (unsigned i = 0; m->board->nx && i < m->cfg.nr_seq && y < VIEW_TEXT_BOTTOM - VIEW_LINE_H;
         i++) {
        y = draw_tlb(fb, y, &m->board->nx[i]);
    }
    draw_labels(vm, fb, y);
    g_string_free(tmp, TRUE);
}

static void draw_bottom(ViewerModel *vm, uint32_t *fb)
{
    GString *s = g_string_new(NULL);
    int y = VIEW_BOTTOM_Y, x;
    unsigned shown = 0;
    if (vm->mouse_in) {
        vmodel_hover_text(vm, vm->mouse_x, vm->mouse_y, s);
    }
    /* the hint is for a live window: a picture of the end (the
     * -screendump-at-exit one) has no pointer to hover with */
    vrender_text(fb, VIEW_SBUF_X, y, 0xFFFFFFu,
                 s->len ? s->str : vm->ended ? "" : "(hover a cell for its address and value)");
    y += 12;
    x = vrender_text(fb, VIEW_SBUF_X, y, VIEW_COL_TEXT, "legend: ");
    vrender_fill(fb, x, y, 12, 7, 0xFF2020u);
    x = vrender_text(fb, x + 16, y, VIEW_COL_TEXT, "write  ");
    vrender_fill(fb, x, y, 12, 7, 0x20FF20u);
    x = vrender_text(fb, x + 16, y, VIEW_COL_TEXT, "read  ");
    vrender_fill(fb, x, y, 12, 7, 0xFFFF20u);
    x = vrender_text(fb, x + 16, y, VIEW_COL_TEXT, "both  ");
    /* unequal counts mix the two levels (vmodel_color): orange, lime */
    vrender_fill(fb, x, y, 12, 7, vmodel_color(&(ViewMarks){.nwr = 256, .nrd = 1}));
    x = vrender_text(fb, x + 16, y, VIEW_COL_TEXT, "more writes  ");
    vrender_fill(fb, x, y, 12, 7, vmodel_color(&(ViewMarks){.nwr = 1, .nrd = 256}));
    x = vrender_text(fb, x + 16, y, VIEW_COL_TEXT, "more reads   accesses:");
    for (uint32_t n = 1; n <= 256; n *= 16) {
        vrender_fill(fb, x + 4, y, 12, 7, vmodel_level(n) << 16 | 0x2020u);
        x = vrender_text(fb, x + 20, y, VIEW_COL_TEXT, n == 1 ? "1" : n == 16 ? "16" : "256+");
    }
    /* under gdb the pause keys do nothing (viewer.rst "Under gdb") */
    vrender_text(fb, x + 16, y, VIEW_COL_TEXT,
                 vm->gdb ? "keys: gdb runs the machine  Tab map  +/- wheel zoom  arrows pan  a "
                           "activity  q close  [ ] { } Home End scrub"
                         : "keys: space pause  s step  Tab map  +/- wheel zoom  arrows pan  a "
                           "activity  q close  [ ] { } Home End scrub");
    y += 16;
    vrender_text(fb, VIEW_SBUF_X, y, VIEW_COL_LABEL, "semaphores (non-zero)");
    y += 12;
    for (unsigned i = 0; i < NC2_NR_SEMAPHORES; i++) {
        if (!vm->m->board->evsem.sem[i]) {
            continue;
        }
        g_string_printf(s, "sem[%u]=%" PRIu32, i, vm->m->board->evsem.sem[i]);
        /* left of the access-count table, above the timeline */
        x = VIEW_SBUF_X + (int)(shown % VIEW_SEM_PER_ROW) * 20 * VIEW_CHAR_W;
        if (shown < VIEW_SEM_PER_ROW * VIEW_SEM_ROWS) {
            vrender_text(fb, x, y + (int)(shown / VIEW_SEM_PER_ROW) * VIEW_LINE_H, VIEW_COL_TEXT,
                         s->str);
        }
        shown++;
    }
    if (!shown) {
        vrender_text(fb, VIEW_SBUF_X, y, VIEW_COL_TEXT, "all zero");
    } else if (shown > VIEW_SEM_PER_ROW * VIEW_SEM_ROWS) {
        vrender_textf(fb, VIEW_SBUF_X + 21 * VIEW_CHAR_W, y - 12, VIEW_COL_TEXT, "(%u more)",
                      shown - VIEW_SEM_PER_ROW * VIEW_SEM_ROWS);
    }
    g_string_free(s, TRUE);
}

void vrender_frame(ViewerModel *vm, uint32_t *fb)
{
    Machine *m = vm->m;
    GString *head = g_string_new(NULL);
    if (vm->activity) {
        vmodel_fit_activity(vm);
    }
    vrender_fill(fb, 0, 0, VIEW_W, VIEW_H, VIEW_COL_BG);
    /* The run's own end vtime and reason once it is over (as -d stats). */
    if (m->stop_reason == STOP_DEBUG || (vm->gdb_stopped && m->stop_reason == STOP_NONE)) {
        /* a debugger stop is not an end: the run goes on when gdb resumes
         * (a fault gdb stopped at is one, and says so) */
        g_string_assign(head, "STOPPED (gdb)");
    } else if (m->stop_reason != STOP_NONE) {
        g_string_printf(head, "ENDED %s status=%d", stop_reason_name(m->stop_reason),
                        sched_exit_status(m));
    } else {
        g_string_assign(head, vm->ended ? "ENDED" : vm->paused ? "PAUSED" : "RUNNING");
    }
    {
        int x =
            vrender_textf(fb, 8, 6, 0xFFFFFFu,
                          "nxemu viewer   vtime=%" PRIu64 "   %s   icount=%" PRIu64
                          "   accesses r=%" PRIu64 " w=%" PRIu64,
                          machine_run_vtime(m), head->str, m->sched.icount, vm->reads, vm->writes);
        if (vm->scrub) {
            vmodel_marks(vm); /* applies the log's floor to the cursor first */
            x = vrender_textf(fb, x + 18, 6, VIEW_COL_TL_CURSOR, "scrub vtime=%" PRIu64,
                              vm->scrub_t);
            if (vm->scrub_clamped) {
                vrender_textf(fb, x + 6, 6, VIEW_COL_TL_FAULT,
                              "(clamped: log from vtime %" PRIu64 ")", vm->log.floor);
            }
        }
    }
    g_string_truncate(head, 0);
    vmodel_sbuf_heading(vm, head);
    vrender_text(fb, VIEW_SBUF_X, VIEW_SBUF_Y - 12, VIEW_COL_LABEL, head->str);
    g_string_free(head, TRUE);
    if (vm->psum_zoom > 1) {
        vrender_textf(fb, VIEW_PSUM_X, VIEW_PSUM_Y - 12, VIEW_COL_LABEL, "p%u-%u", vm->psum_pan,
                      vm->psum_pan + NC2_PSUM_PARTITIONS / vm->psum_zoom - 1);
    } else {
        vrender_text(fb, VIEW_PSUM_X, VIEW_PSUM_Y - 12, VIEW_COL_LABEL, "PSUM");
    }
    if (vm->hbm_zoom > 1) {
        /* short enough for the map's width (66 characters): nothing cut */
        uint64_t sq = vmodel_hbm_square_bytes(vm);
        vrender_textf(fb, VIEW_HBM_X, VIEW_HBM_Y - 12, VIEW_COL_LABEL,
                      "HBM 0x%" PRIx64 "-  %" PRIu64 " %s/square  %" PRIu64 " KiB cells  x%u%s",
                      vm->hbm_pan, sq >= 1024 && sq % 1024 == 0 ? sq >> 10 : sq,
                      sq >= 1024 && sq % 1024 == 0 ? "KiB" : "B",
                      (uint64_t)((1ull << vm->hbm_shift) >> 10), vm->hbm_zoom,
                      vm->activity ? "  activity" : "");
    } else {
        vrender_textf(fb, VIEW_HBM_X, VIEW_HBM_Y - 12, VIEW_COL_LABEL,
                      "HBM (%" PRIu64 " KiB per cell)", (uint64_t)((1ull << vm->hbm_shift) >> 10));
    }
    draw_sbuf(vm, fb);
    draw_psum(vm, fb);
    draw_hbm(vm, fb);
    draw_text_panel(vm, fb);
    draw_bottom(vm, fb);
    vpanel_draw_table(vm, fb);
    vtl_draw(vm, fb);
    vdata_draw(vm, fb);
}
