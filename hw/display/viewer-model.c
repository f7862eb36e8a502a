/*
 * What the viewer shows, computed from the machine and from the access marks
 * it keeps itself (hw/display/viewer-int.h).  No SDL here.
 *
 * Marks are per bin, not per byte: 1 KiB columns of each SBUF partition, the
 * eight banks of each PSUM partition, and 4096 equal HBM cells (at least one
 * 4 KiB page each).  The hook only stores the current virtual time into fixed
 * tables and appends one record to the access log's ring (viewer-scrub.c),
 * so an open viewer costs little and never allocates per access.
 */
#include <inttypes.h>
#include <limits.h>

#include "hw/display/viewer-int.h"
#include "hw/nc2/board.h"
#include "nxemu/machine.h"

void vmodel_init(ViewerModel *vm, Machine *m)
{
    uint64_t cell;
    *vm = (ViewerModel){0};
    vm->m = m;
    vm->focus = VIEW_AREA_SBUF;
    vm->zoom = 1;
    vm->psum_zoom = 1;
    vm->hbm_zoom = 1;
    vm->hbm_shift = 12;
    cell = (m->cfg.hbm_size + VIEW_HBM_CELLS - 1) / VIEW_HBM_CELLS;
    while ((1ull << vm->hbm_shift) < cell) {
        vm->hbm_shift++;
    }
    vm->tl.ev = g_array_new(FALSE, FALSE, sizeof(ViewTlEvent));
    vm->tl.names = g_string_chunk_new(256);
    vm->tl.nr_dma = m->cfg.nr_dma;
    vm->tl.dma_last = g_new0(uint64_t, MAX(m->cfg.nr_dma, 1u));
    vm->tl.dma_used = g_new0(bool, MAX(m->cfg.nr_dma, 1u));
    vm->tl.tpc_used = g_new0(bool, MAX(m->cfg.nr_tpc, 1u));
    vm->tl.nr_seq = m->cfg.nr_seq;
    vm->tl.open_wait = g_new(int, MAX(m->cfg.nr_seq, 1u));
    for (unsigned i = 0; i < m->cfg.nr_seq; i++) {
        vm->tl.open_wait[i] = -1;
    }
    vm->tl.nr_tpc = m->cfg.nr_tpc;
    vm->tl.open_kernel = g_new(int, MAX(m->cfg.nr_tpc, 1u));
    for (unsigned i = 0; i < m->cfg.nr_tpc; i++) {
        vm->tl.open_kernel[i] = -1;
    }
    vscrub_log_init(vm, VIEW_LOG_RECORDS);
}

void vmodel_destroy(ViewerModel *vm)
{
    if (vm->tl.ev) {
        g_array_free(vm->tl.ev, TRUE);
    }
    if (vm->tl.names) {
        g_string_chunk_free(vm->tl.names);
    }
    g_free(vm->tl.dma_last);
    g_free(vm->tl.dma_used);
    g_free(vm->tl.tpc_used);
    g_free(vm->tl.open_wait);
    g_free(vm->tl.open_kernel);
    vm->tl = (ViewTimeline){0};
    vscrub_destroy(vm);
}

static inline void mark(ViewMarks *mk, bool is_write, uint64_t t)
{
    if (is_write) {
        mk->wr = t;
        mk->nwr += mk->nwr != UINT32_MAX;
    } else {
        mk->rd = t;
        mk->nrd += mk->nrd != UINT32_MAX;
    }
}

static void mark_sbuf(ViewMarkSet *vm, uint64_t off, uint64_t last, bool is_write, uint64_t t)
{
    uint64_t cur = off, counted = UINT64_MAX;
    while (cur <= last) {
        uint64_t p = cur / NC2_SBUF_PITCH, o = cur % NC2_SBUF_PITCH;
        if (o >= NC2_SBUF_PART_BYTES) { /* the hole after each partition */
            cur = (p + 1) * NC2_SBUF_PITCH;
            continue;
        }
        if (p != counted) { /* once per partition the access touches */
            uint32_t *n = is_write ? &vm->sbuf_nwr[p] : &vm->sbuf_nrd[p];
            *n += *n != UINT32_MAX;
            counted = p;
        }
        mark(&vm->sbuf[p][o / VIEW_SBUF_BIN_BYTES], is_write, t);
        cur = (cur & ~(uint64_t)(VIEW_SBUF_BIN_BYTES - 1)) + VIEW_SBUF_BIN_BYTES;
    }
}

static void mark_psum(ViewMarkSet *vm, uint64_t off, uint64_t last, bool is_write, uint64_t t)
{
    uint64_t cur = off;
    while (cur <= last) {
        /* Quadrant and partition bits together are off / pitch (§1.2). */
        uint64_t p = cur / NC2_PSUM_PITCH, o = cur % NC2_PSUM_PITCH;
        if (o >= NC2_PSUM_PART_BYTES) {
            cur = (p + 1) * NC2_PSUM_PITCH;
            continue;
        }
        mark(&vm->psum[p][o / NC2_PSUM_BANK_BYTES], is_write, t);
        cur = (cur & ~(uint64_t)(NC2_PSUM_BANK_BYTES - 1)) + NC2_PSUM_BANK_BYTES;
    }
}

void vmodel_mark(const ViewerModel *vm, ViewMarkSet *s, uint64_t addr, uint64_t size, bool is_write,
                 uint64_t t)
{
    const MemMapEntry *sbuf = &nc2_memmap[NC2_SBUF], *psum = &nc2_memmap[NC2_PSUM];
    uint64_t last = addr + size - 1;
    if (addr < vm->m->cfg.hbm_size) {
        uint64_t c = addr >> vm->hbm_shift;
        uint64_t lc = MIN(last, vm->m->cfg.hbm_size - 1) >> vm->hbm_shift;
        for (; c <= lc && c < VIEW_HBM_CELLS; c++) {
            mark(&s->hbm[c], is_write, t);
        }
    } else if (addr >= sbuf->base && addr - sbuf->base < sbuf->size) {
        mark_sbuf(s, addr - sbuf->base, MIN(last - sbuf->base, sbuf->size - 1), is_write, t);
    } else if (addr >= psum->base && addr - psum->base < psum->size) {
        mark_psum(s, addr - psum->base, MIN(last - psum->base, psum->size - 1), is_write, t);
    }
}

/* Only accesses to the three maps are logged: the rest (MMIO, other RAM)
 * would use up the log's budget for nothing the cursor shows. */
static bool in_maps(const ViewerModel *vm, uint64_t addr)
{
    const MemMapEntry *sbuf = &nc2_memmap[NC2_SBUF], *psum = &nc2_memmap[NC2_PSUM];
    return addr < vm->m->cfg.hbm_size || (addr >= sbuf->base && addr - sbuf->base < sbuf->size) ||
           (addr >= psum->base && addr - psum->base < psum->size);
}

void vmodel_access(void *opaque, uint64_t addr, unsigned size, bool is_write, MemTxAttrs attrs)
{
    ViewerModel *vm = opaque;
    uint64_t t;
    if (attrs.kind == MEM_REQ_DEBUG || !size) {
        return; /* our own hover read-out, the gdb stub, the monitor */
    }
    t = machine_vtime(vm->m);
    if (is_write) {
        vm->writes++;
    } else {
        vm->reads++;
    }
    if (in_maps(vm, addr)) {
        vmodel_mark(vm, &vm->live, addr, size, is_write, t + 1);
        vscrub_log(vm, addr, size, is_write, t);
    }
}

unsigned vmodel_level(uint32_t n)
{
    unsigned l = 0x80;
    if (!n) {
        return 0;
    }
    for (; n > 1 && l < 0xFF; n >>= 1) {
        l = MIN(l + 0x10u, 0xFFu);
    }
    return l;
}

uint32_t vmodel_color(const ViewMarks *mk)
{
    unsigned w = vmodel_level(mk->nwr), r = vmodel_level(mk->nrd);
    if (!w && !r) {
        return VIEW_COL_IDLE;
    }
    return (w ? w : 0x20u) << 16 | (r ? r : 0x20u) << 8 | 0x20u;
}

uint32_t vmodel_sbuf_span(const ViewerModel *vm)
{
    return NC2_SBUF_PART_BYTES / vm->zoom;
}

uint32_t vmodel_sbuf_offset_at(const ViewerModel *vm, int x)
{
    return vm->pan + (uint32_t)((uint64_t)x * vmodel_sbuf_span(vm) / VIEW_SBUF_W);
}

uint64_t vmodel_hbm_square_bytes(const ViewerModel *vm)
{
    return (1ull << vm->hbm_shift) / vm->hbm_zoom;
}

unsigned vmodel_psum_part_at(const ViewerModel *vm, int ry)
{
    return vm->psum_pan + (unsigned)ry / (VIEW_PART_H * vm->psum_zoom);
}

ViewArea vmodel_hit(ViewerModel *vm, int x, int y, uint64_t *pa, const ViewMarks **mk)
{
    const ViewMarkSet *ms = vmodel_marks(vm); /* now, or at the time cursor */
    int rows = NC2_SBUF_PARTITIONS * VIEW_PART_H;
    if (x >= VIEW_SBUF_X && x < VIEW_SBUF_X + VIEW_SBUF_W && y >= VIEW_SBUF_Y &&
        y < VIEW_SBUF_Y + rows) {
        unsigned p = (unsigned)(y - VIEW_SBUF_Y) / VIEW_PART_H;
        uint32_t o = vmodel_sbuf_offset_at(vm, x - VIEW_SBUF_X) & ~3u;
        *pa = nc2_memmap[NC2_SBUF].base + (uint64_t)p * NC2_SBUF_PITCH + o;
        *mk = &ms->sbuf[p][o / VIEW_SBUF_BIN_BYTES];
        return VIEW_AREA_SBUF;
    }
    if (x >= VIEW_PSUM_X && x < VIEW_PSUM_X + NC2_PSUM_BANKS * VIEW_BANK_W && y >= VIEW_PSUM_Y &&
        y < VIEW_PSUM_Y + rows) {
        unsigned p = vmodel_psum_part_at(vm, y - VIEW_PSUM_Y);
        unsigned b = (unsigned)(x - VIEW_PSUM_X) / VIEW_BANK_W;
        *pa = nc2_memmap[NC2_PSUM].base + (uint64_t)p * NC2_PSUM_PITCH +
              (uint64_t)b * NC2_PSUM_BANK_BYTES;
        *mk = &ms->psum[p][b];
        return VIEW_AREA_PSUM;
    }
    if (x >= VIEW_HBM_X && x < VIEW_HBM_X + VIEW_HBM_SIDE * VIEW_HBM_CELL && y >= VIEW_HBM_Y &&
        y < VIEW_HBM_Y + VIEW_HBM_SIDE * VIEW_HBM_CELL) {
        unsigned g = (unsigned)(y - VIEW_HBM_Y) / VIEW_HBM_CELL * VIEW_HBM_SIDE +
                     (unsigned)(x - VIEW_HBM_X) / VIEW_HBM_CELL;
        uint64_t a = vm->hbm_pan + g * vmodel_hbm_square_bytes(vm);
        if (a >= vm->m->cfg.hbm_size) {
            return VIEW_AREA_NONE;
        }
        *pa = nc2_memmap[NC2_HBM].base + a;
        *mk = &ms->hbm[a >> vm->hbm_shift];
        return VIEW_AREA_HBM;
    }
    return VIEW_AREA_NONE;
}

static void append_time(GString *out, const char *what, uint64_t t)
{
    if (t) {
        g_string_append_printf(out, " %s@%" PRIu64, what, t - 1);
    } else {
        g_string_append_printf(out, " %s@-", what);
    }
}

void vmodel_hover_text(ViewerModel *vm, int x, int y, GString *out)
{
    uint64_t pa = 0, bad = 0;
    const ViewMarks *mk = NULL;
    uint32_t val = 0;
    ViewArea a = vmodel_hit(vm, x, y, &pa, &mk);
    if (a == VIEW_AREA_NONE) {
        /* the other panels that answer the mouse */
        vtl_hover_text(vm, x, y, out);
        if (!out->len) {
            vdata_hover_text(vm, x, y, out);
        }
        return;
    }
    if (a == VIEW_AREA_SBUF) {
        uint64_t off = pa - nc2_memmap[NC2_SBUF].base;
        g_string_append_printf(out, "sbuf p%u +0x%05" PRIx64, (unsigned)(off / NC2_SBUF_PITCH),
                               off % NC2_SBUF_PITCH);
    } else if (a == VIEW_AREA_PSUM) {
        uint64_t off = pa - nc2_memmap[NC2_PSUM].base;
        g_string_append_printf(out, "psum p%u bank %u", (unsigned)(off / NC2_PSUM_PITCH),
                               (unsigned)(off % NC2_PSUM_PITCH / NC2_PSUM_BANK_BYTES));
    } else {
        g_string_append_printf(out, "hbm cell %" PRIu64 " (%" PRIu64 " KiB)", pa >> vm->hbm_shift,
                               (uint64_t)((1ull << vm->hbm_shift) >> 10));
    }
    g_string_append_printf(out, " pa=0x%" PRIx64, pa);
    /* A debug read: the hook does not mark it, poison does not report it. */
    if (as_rw_bytes(vm->m->as, pa, &val, 4, false, MEMTXATTRS(MEM_REQ_DEBUG, 0), &bad) ==
        MEMTX_OK) {
        g_string_append_printf(out, " = 0x%08" PRIx32, GUINT32_FROM_LE(val));
    } else {
        g_string_append(out, " = ?");
    }
    g_string_append(out, " (last");
    append_time(out, "w", mk->wr);
    append_time(out, "r", mk->rd);
    g_string_append_c(out, ')');
    /* the counts of the side table: the partition's, the bank's, the cell's */
    if (a == VIEW_AREA_SBUF) {
        unsigned p = (unsigned)((pa - nc2_memmap[NC2_SBUF].base) / NC2_SBUF_PITCH);
        const ViewMarkSet *ms = vmodel_marks(vm);
        g_string_append_printf(out, " p%u w=%" PRIu32 " r=%" PRIu32, p, ms->sbuf_nwr[p],
                               ms->sbuf_nrd[p]);
    } else {
        g_string_append_printf(out, " w=%" PRIu32 " r=%" PRIu32, mk->nwr, mk->nrd);
    }
}

static void clamp_pan(ViewerModel *vm, int64_t pan)
{
    int64_t max = (int64_t)(NC2_SBUF_PART_BYTES - vmodel_sbuf_span(vm));
    vm->pan = (uint32_t)CLAMP(pan, 0, max);
}

static void clamp_psum_pan(ViewerModel *vm, int64_t pan)
{
    int64_t max = NC2_PSUM_PARTITIONS - NC2_PSUM_PARTITIONS / vm->psum_zoom;
    vm->psum_pan = (unsigned)CLAMP(pan, 0, max);
}

/* The HBM pan stays a whole number of squares, so that each square covers
 * bytes of one mark cell only. */
static void clamp_hbm_pan(ViewerModel *vm, int64_t pan)
{
    uint64_t sq = vmodel_hbm_square_bytes(vm);
    int64_t max = (int64_t)(((uint64_t)VIEW_HBM_CELLS << vm->hbm_shift) - VIEW_HBM_CELLS * sq);
    vm->hbm_pan = (uint64_t)CLAMP(pan, 0, max) & ~(sq - 1);
}

static unsigned clamp_zoom(unsigned zoom)
{
    return CLAMP(zoom, 1u, VIEW_MAX_ZOOM);
}

/* Each zoom keeps what map position pos (a column, a row, a square; relative
 * to the map's top left) shows where it is. */
static void zoom_sbuf(ViewerModel *vm, unsigned zoom, int x)
{
    uint32_t o;
    x = CLAMP(x, 0, VIEW_SBUF_W - 1);
    o = vmodel_sbuf_offset_at(vm, x);
    vm->zoom = clamp_zoom(zoom);
    clamp_pan(vm, (int64_t)o - (int64_t)((uint64_t)x * vmodel_sbuf_span(vm) / VIEW_SBUF_W));
}

static void zoom_psum(ViewerModel *vm, unsigned zoom, int ry)
{
    unsigned p;
    ry = CLAMP(ry, 0, NC2_PSUM_PARTITIONS * VIEW_PART_H - 1);
    p = vmodel_psum_part_at(vm, ry);
    vm->psum_zoom = clamp_zoom(zoom);
    clamp_psum_pan(vm, (int64_t)p - ry / (VIEW_PART_H * (int)vm->psum_zoom));
}

static void zoom_hbm(ViewerModel *vm, unsigned zoom, unsigned g)
{
    uint64_t a;
    g = MIN(g, VIEW_HBM_CELLS - 1u);
    a = vm->hbm_pan + g * vmodel_hbm_square_bytes(vm);
    vm->hbm_zoom = clamp_zoom(zoom);
    clamp_hbm_pan(vm, (int64_t)a - (int64_t)(g * vmodel_hbm_square_bytes(vm)));
}

/* Zoom the focused map by factor 2^steps around its centre (x, y < 0) or
 * around frame pixel (x, y). */
static void zoom_focused(ViewerModel *vm, int steps, int x, int y)
{
    unsigned *z = vm->focus == VIEW_AREA_PSUM  ? &vm->psum_zoom
                  : vm->focus == VIEW_AREA_HBM ? &vm->hbm_zoom
                                               : &vm->zoom;
    unsigned nz = *z;
    vm->activity = false; /* the user takes over */
    for (; steps > 0 && nz < VIEW_MAX_ZOOM; steps--) {
        nz *= 2;
    }
    for (; steps < 0 && nz > 1; steps++) {
        nz /= 2;
    }
    switch (vm->focus) {
    case VIEW_AREA_PSUM:
        zoom_psum(vm, nz, y < 0 ? NC2_PSUM_PARTITIONS * VIEW_PART_H / 2 : y - VIEW_PSUM_Y);
        break;
    case VIEW_AREA_HBM: {
        unsigned g = VIEW_HBM_CELLS / 2 + VIEW_HBM_SIDE / 2; /* the centre square */
        if (x >= 0) {
            g = (unsigned)(y - VIEW_HBM_Y) / VIEW_HBM_CELL * VIEW_HBM_SIDE +
                (unsigned)(x - VIEW_HBM_X) / VIEW_HBM_CELL;
        }
        zoom_hbm(vm, nz, g);
        break;
    }
    default:
        zoom_sbuf(vm, nz, x < 0 ? VIEW_SBUF_W / 2 : x - VIEW_SBUF_X);
        break;
    }
}

static bool touched(const ViewMarks *mk)
{
    return mk->nrd || mk->nwr;
}

/* The largest zoom (a power of two up to VIEW_MAX_ZOOM) at which total / zoom
 * still covers n units. */
static unsigned fit_zoom(uint64_t total, uint64_t n)
{
    unsigned z = 1;
    while (z < VIEW_MAX_ZOOM && total / (z * 2u) >= n) {
        z *= 2;
    }
    return z;
}

void vmodel_fit_activity(ViewerModel *vm)
{
    const ViewMarkSet *ms = vmodel_marks(vm);
    unsigned lo = UINT_MAX, hi = 0;
    for (unsigned p = 0; p < NC2_SBUF_PARTITIONS; p++) {
        for (unsigned b = 0; b < VIEW_SBUF_BINS; b++) {
            if (touched(&ms->sbuf[p][b])) {
                lo = MIN(lo, b);
                hi = MAX(hi, b);
            }
        }
    }
    if (lo == UINT_MAX) {
        vm->zoom = 1;
        vm->pan = 0;
    } else {
        vm->zoom = fit_zoom(VIEW_SBUF_BINS, hi - lo + 1);
        clamp_pan(vm, (int64_t)lo * VIEW_SBUF_BIN_BYTES);
    }

    lo = UINT_MAX, hi = 0;
    for (unsigned p = 0; p < NC2_PSUM_PARTITIONS; p++) {
        for (unsigned b = 0; b < NC2_PSUM_BANKS; b++) {
            if (touched(&ms->psum[p][b])) {
                lo = MIN(lo, p);
                hi = MAX(hi, p);
            }
        }
    }
    vm->psum_zoom = lo == UINT_MAX ? 1 : fit_zoom(NC2_PSUM_PARTITIONS, hi - lo + 1);
    clamp_psum_pan(vm, lo == UINT_MAX ? 0 : lo);

    /* The in-memory device tree at the top of HBM is the machine's, not the
     * program's: a launcher that reads it (nxemu-tpc-run's counts the TPCs)
     * would stretch the fit over all of HBM.  It counts only when nothing
     * else was touched. */
    unsigned dlo = UINT_MAX, dhi = 0;
    if (vm->m->cfg.dtb_in_memory && vm->m->board && vm->m->board->nx && vm->m->cfg.nr_seq &&
        vm->m->fdt_size) {
        uint64_t a = vm->m->board->nx[0].dtb_addr;
        dlo = (unsigned)(a >> vm->hbm_shift);
        dhi = (unsigned)((a + vm->m->fdt_size - 1) >> vm->hbm_shift);
    }
    for (int pass = 0; pass < 2; pass++) {
        lo = UINT_MAX, hi = 0;
        for (unsigned c = 0; c < VIEW_HBM_CELLS; c++) {
            if (touched(&ms->hbm[c]) && (pass || c < dlo || c > dhi)) {
                lo = MIN(lo, c);
                hi = MAX(hi, c);
            }
        }
        if (lo != UINT_MAX) {
            break;
        }
    }
    vm->hbm_zoom = lo == UINT_MAX ? 1 : fit_zoom(VIEW_HBM_CELLS, hi - lo + 1);
    clamp_hbm_pan(vm, lo == UINT_MAX ? 0 : (int64_t)((uint64_t)lo << vm->hbm_shift));
}

void vmodel_sbuf_heading(const ViewerModel *vm, GString *out)
{
    uint32_t span = vmodel_sbuf_span(vm);
    /* marks are kept per 1 KiB bin: below that a column shows its bin's
     * marks, and the heading says so */
    g_string_append_printf(out, "SBUF 0x%05" PRIx32 "-0x%05" PRIx32 "  x%u  %" PRIu32 " B/col%s%s",
                           vm->pan, vm->pan + span - 1, vm->zoom, span / VIEW_SBUF_W,
                           span / VIEW_SBUF_W < VIEW_SBUF_BIN_BYTES ? "  1 KiB cells" : "",
                           vm->activity ? "  activity" : "");
}

void vmodel_wheel(ViewerModel *vm, int steps, int x, int y)
{
    uint64_t pa;
    const ViewMarks *mk;
    ViewArea a = vmodel_hit(vm, x, y, &pa, &mk);
    if (a == VIEW_AREA_NONE && x >= VIEW_HBM_X && x < VIEW_HBM_X + VIEW_HBM_SIDE * VIEW_HBM_CELL &&
        y >= VIEW_HBM_Y && y < VIEW_HBM_Y + VIEW_HBM_SIDE * VIEW_HBM_CELL) {
        a = VIEW_AREA_HBM; /* a square past the end of HBM is still in the map */
    }
    if (a == VIEW_AREA_NONE) {
        zoom_focused(vm, steps, -1, -1);
        return;
    }
    vm->focus = a;
    zoom_focused(vm, steps, x, y);
}

/* Pan the focused map by dir (-1, +1) quarters of what it shows, or by one
 * row of squares (HBM) or partition (PSUM) when fine. */
static bool pan_focused(ViewerModel *vm, int dir, bool fine)
{
    if (!fine || vm->focus != VIEW_AREA_SBUF) {
        vm->activity = false; /* the user takes over */
    }
    switch (vm->focus) {
    case VIEW_AREA_PSUM: {
        int step = MAX(NC2_PSUM_PARTITIONS / (int)vm->psum_zoom / 4, 1);
        clamp_psum_pan(vm, (int64_t)vm->psum_pan + dir * step);
        return true;
    }
    case VIEW_AREA_HBM: {
        uint64_t sq = vmodel_hbm_square_bytes(vm);
        int64_t step = (int64_t)(fine ? VIEW_HBM_SIDE * sq : VIEW_HBM_CELLS / 4 * sq);
        clamp_hbm_pan(vm, (int64_t)vm->hbm_pan + dir * step);
        return true;
    }
    default:
        if (fine) {
            return false; /* SBUF has no vertical zoom */
        }
        clamp_pan(vm, (int64_t)vm->pan + dir * (int64_t)(vmodel_sbuf_span(vm) / 4));
        return true;
    }
}

bool vmodel_key(ViewerModel *vm, int key)
{
    switch (key) {
    case ' ':
        vm->paused = !vm->paused;
        vm->step_req = false;
        return true;
    case 's':
        vm->paused = true;
        vm->step_req = true;
        return true;
    case '\t':
        vm->focus = vm->focus == VIEW_AREA_SBUF   ? VIEW_AREA_PSUM
                    : vm->focus == VIEW_AREA_PSUM ? VIEW_AREA_HBM
                                                  : VIEW_AREA_SBUF;
        return true;
    case '+':
    case '=':
        zoom_focused(vm, 1, -1, -1);
        return true;
    case '-':
        zoom_focused(vm, -1, -1, -1);
        return true;
    case '<':
        return pan_focused(vm, -1, false);
    case '>':
        return pan_focused(vm, 1, false);
    case VIEW_KEY_UP:
        return pan_focused(vm, -1, true);
    case VIEW_KEY_DOWN:
        return pan_focused(vm, 1, true);
    case 'a':
        vm->activity = !vm->activity;
        if (vm->activity) {
            vmodel_fit_activity(vm);
        } else {
            vm->zoom = vm->psum_zoom = vm->hbm_zoom = 1;
            vm->pan = vm->psum_pan = 0;
            vm->hbm_pan = 0;
        }
        return true;
    case 'q':
        vm->quit = true;
        return true;
    default:
        return vscrub_key(vm, key);
    }
}
