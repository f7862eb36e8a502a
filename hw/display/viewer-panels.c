/*
 * Two panels of the viewer (docs/viewer.rst): the table of the busiest SBUF
 * partitions and PSUM banks, and the data view, which draws a region's
 * values (not its accesses) as an image with a dtype and a colour map.
 * Values are read with debug reads, which the access hook does not mark and
 * poison mode does not report.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hw/display/viewer-int.h"
#include "nxemu/error.h"
#include "nxemu/machine.h"

/* ---- access-count table ---- */

/* Counts of the shown marks: now, or at the time cursor. */
static uint64_t sbuf_count(const ViewMarkSet *ms, unsigned p)
{
    return (uint64_t)ms->sbuf_nrd[p] + ms->sbuf_nwr[p];
}

static uint64_t psum_count(const ViewMarkSet *ms, unsigned i)
{
    const ViewMarks *mk = &ms->psum[i / NC2_PSUM_BANKS][i % NC2_PSUM_BANKS];
    return (uint64_t)mk->nrd + mk->nwr;
}

/* The n largest of count(0..total-1), largest first, ties by index. */
static unsigned busiest(const ViewMarkSet *vm, uint64_t (*count)(const ViewMarkSet *, unsigned),
                        unsigned total, unsigned *idx, unsigned n)
{
    unsigned k = 0;
    for (unsigned i = 0; i < total; i++) {
        uint64_t c = count(vm, i);
        unsigned j;
        if (!c || (k == n && c <= count(vm, idx[n - 1]))) {
            continue;
        }
        j = k < n ? k++ : n - 1; /* insertion into the sorted top n */
        while (j > 0 && count(vm, idx[j - 1]) < c) {
            idx[j] = idx[j - 1];
            j--;
        }
        idx[j] = i;
    }
    return k;
}

unsigned vpanel_busiest_sbuf(ViewerModel *vm, unsigned *idx, unsigned n)
{
    return busiest(vmodel_marks(vm), sbuf_count, NC2_SBUF_PARTITIONS, idx, n);
}

unsigned vpanel_busiest_psum(ViewerModel *vm, unsigned *idx, unsigned n)
{
    return busiest(vmodel_marks(vm), psum_count, NC2_PSUM_PARTITIONS * NC2_PSUM_BANKS, idx, n);
}

void vpanel_draw_table(ViewerModel *vm, uint32_t *fb)
{
    unsigned idx[VIEW_TABLE_ROWS], n;
    int y = VIEW_TABLE_Y;
    const ViewMarkSet *ms = vmodel_marks(vm);
    vrender_text(fb, VIEW_TABLE_X, y, VIEW_COL_LABEL,
                 vm->scrub ? "busiest SBUF partitions (at cursor)" : "busiest SBUF partitions");
    y += 12;
    n = vpanel_busiest_sbuf(vm, idx, VIEW_TABLE_ROWS);
    for (unsigned i = 0; i < n; i++) {
        unsigned p = idx[i];
        vrender_textf(fb, VIEW_TABLE_X, y + (int)i * VIEW_LINE_H, VIEW_COL_TEXT,
                      "p%-3u     w=%-9" PRIu32 " r=%" PRIu32, p, ms->sbuf_nwr[p], ms->sbuf_nrd[p]);
    }
    if (!n) {
        vrender_text(fb, VIEW_TABLE_X, y, VIEW_COL_TEXT, "none accessed");
    }
    y += VIEW_TABLE_ROWS * VIEW_LINE_H + 6;
    vrender_text(fb, VIEW_TABLE_X, y, VIEW_COL_LABEL, "busiest PSUM banks");
    y += 12;
    n = vpanel_busiest_psum(vm, idx, VIEW_TABLE_ROWS);
    for (unsigned i = 0; i < n; i++) {
        const ViewMarks *mk = &ms->psum[idx[i] / NC2_PSUM_BANKS][idx[i] % NC2_PSUM_BANKS];
        vrender_textf(fb, VIEW_TABLE_X, y + (int)i * VIEW_LINE_H, VIEW_COL_TEXT,
                      "p%-3u b%u  w=%-9" PRIu32 " r=%" PRIu32, idx[i] / NC2_PSUM_BANKS,
                      idx[i] % NC2_PSUM_BANKS, mk->nwr, mk->nrd);
    }
    if (!n) {
        vrender_text(fb, VIEW_TABLE_X, y, VIEW_COL_TEXT, "none accessed");
    }
}

/* ---- data view ---- */

static const char *const dtype_name[] = {"u8", "i32", "f32", "bf16"};
static const unsigned dtype_size[] = {1, 4, 4, 2};
static const char *const cmap_name[] = {"gray", "heat"};

#define DATA_DEFAULT_ELEMS 64
#define DATA_DEFAULT_COLS  64

static bool data_error(GError **err, const char *region, const char *why)
{
    g_set_error(err, NX_ERROR, NX_ERROR_USAGE, "-display sdl,data=%s: %s", region, why);
    return false;
}

/* A number (C syntax: 12, 0x1f) at *s, which moves past it. */
static bool data_num(const char **s, uint64_t *v)
{
    char *end;
    if (!g_ascii_isdigit(**s)) {
        return false;
    }
    errno = 0;
    *v = g_ascii_strtoull(*s, &end, 0);
    if (errno || end == *s) {
        return false;
    }
    *s = end;
    return true;
}

bool vdata_parse(ViewData *d, const Machine *m, const char *region, const char *dtype,
                 const char *cmap, GError **err)
{
    const uint64_t hbm_size = m->cfg.hbm_size;
    const char *s;
    unsigned es;
    uint64_t a = 0, b, off = 0, len = 0, cols = DATA_DEFAULT_COLS;
    bool have_len = false;
    *d = (ViewData){0};
    d->dtype = VIEW_DT_F32;
    d->dtype_given = dtype != NULL;
    for (unsigned i = 0; dtype && i < G_N_ELEMENTS(dtype_name); i++) {
        if (!strcmp(dtype, dtype_name[i])) {
            d->dtype = (ViewDtype)i;
            dtype = NULL;
            break;
        }
    }
    if (dtype) {
        g_set_error(err, NX_ERROR, NX_ERROR_USAGE,
                    "-display sdl,dtype=%s: unknown dtype (u8, i32, f32 or bf16)", dtype);
        return false;
    }
    for (unsigned i = 0; cmap && i < G_N_ELEMENTS(cmap_name); i++) {
        if (!strcmp(cmap, cmap_name[i])) {
            d->cmap = (ViewCmap)i;
            cmap = NULL;
            break;
        }
    }
    if (cmap) {
        g_set_error(err, NX_ERROR, NX_ERROR_USAGE,
                    "-display sdl,cmap=%s: unknown colour map (gray or heat)", cmap);
        return false;
    }
    es = dtype_size[d->dtype];
    if (!strncmp(region, "sbuf:", 5) || !strncmp(region, "psum:", 5)) {
        bool sbuf = region[0] == 's';
        uint64_t part_bytes = sbuf ? NC2_SBUF_PART_BYTES : NC2_PSUM_PART_BYTES;
        s = region + 5;
        if (!data_num(&s, &a)) {
            return data_error(err, region, "expected a partition number after ':'");
        }
        b = a;
        if (*s == '-' && (s++, !data_num(&s, &b))) {
            return data_error(err, region, "expected the last partition after '-'");
        }
        if (*s == '@' && (s++, !data_num(&s, &off))) {
            return data_error(err, region, "expected an offset after '@'");
        }
        if (*s == '+') {
            s++;
            if (!data_num(&s, &len)) {
                return data_error(err, region, "expected a length in bytes after '+'");
            }
            have_len = true;
        }
        if (*s) {
            return data_error(err, region, "expected sbuf|psum:P0[-P1][@OFFSET][+LENGTH]");
        }
        if (b < a || b >= NC2_SBUF_PARTITIONS) {
            return data_error(err, region, "partitions are 0 to 127, first <= last");
        }
        if (off >= part_bytes) {
            return data_error(err, region, "offset past the end of the partition");
        }
        if (!have_len) {
            len = MIN((uint64_t)DATA_DEFAULT_ELEMS * es, part_bytes - off);
        }
        if (!len || len % es || len > part_bytes - off || off % es) {
            return data_error(err, region,
                              "offset and length must be multiples of the element size, "
                              "inside the partition");
        }
        g_strlcpy(d->what, sbuf ? "sbuf" : "psum", sizeof(d->what));
        d->pitch = sbuf ? NC2_SBUF_PITCH : NC2_PSUM_PITCH;
        d->pa = nc2_memmap[sbuf ? NC2_SBUF : NC2_PSUM].base + a * d->pitch + off;
        d->rows = (unsigned)(b - a + 1);
        d->first = (unsigned)a;
        d->cols = (unsigned)(len / es);
        d->offset = off;
    } else if (!strncmp(region, "hbm:", 4)) {
        s = region + 4;
        if (!data_num(&s, &a) || *s != '+' || (s++, !data_num(&s, &len))) {
            return data_error(err, region, "expected hbm:ADDRESS+LENGTH[/COLUMNS]");
        }
        if (*s == '/') {
            s++;
            if (!data_num(&s, &cols) || !cols) {
                return data_error(err, region, "expected a number of columns (> 0) after '/'");
            }
        }
        if (*s) {
            return data_error(err, region, "expected hbm:ADDRESS+LENGTH[/COLUMNS]");
        }
        if (!len || len % es || a % es || a >= hbm_size || len > hbm_size - a) {
            return data_error(err, region,
                              "address and length must be multiples of the element size, "
                              "inside HBM");
        }
        g_strlcpy(d->what, "hbm", sizeof(d->what));
        d->cols = (unsigned)MIN(cols, len / es);
        d->pitch = (uint64_t)d->cols * es;
        d->rows = (unsigned)MIN((len / es + d->cols - 1) / d->cols, (uint64_t)UINT_MAX);
        d->pa = nc2_memmap[NC2_HBM].base + a;
        d->offset = a;
        /* the last row may be partial: elements past LENGTH are not drawn */
        d->last_elems = (unsigned)(len / es - (uint64_t)(d->rows - 1) * d->cols);
    } else if (!strncmp(region, "tensor:", 7)) {
        s = region + 7;
        if (!data_num(&s, &a) || *s != ':' || (s++, !data_num(&s, &b)) || *s) {
            return data_error(err, region, "expected tensor:TPC:ID");
        }
        if (a >= m->cfg.nr_tpc || b >= 16) {
            return data_error(err, region, "no such TPC, or a tensor id past 15");
        }
        g_strlcpy(d->what, "tensor", sizeof(d->what));
        d->tensor = true;
        d->tensor_tpc = (unsigned)a;
        d->tensor_id = (unsigned)b;
    } else {
        return data_error(err, region, "expected sbuf:..., psum:..., hbm:... or tensor:...");
    }
    d->estride = es;
    if (!d->last_elems) {
        d->last_elems = d->cols;
    }
    d->on = true;
    return true;
}

/* TPC t's descriptor of tensor id, read as the TPC reads it (tpc.md §3:
 * base, padding, config with the element size in bits 2..0 and the valid
 * dimensions in bits 12..8, then size and stride of each dimension), with a
 * debug read of the TPC's configuration window. */
void vdata_refresh(ViewerModel *vm)
{
    ViewData *d = &vm->data;
    uint32_t w[8];
    unsigned dt, valid, es;
    if (!d->tensor) {
        return;
    }
    d->tensor_ok = false;
    /* word by word: the window takes naturally aligned 4-byte accesses */
    for (unsigned i = 0; i < G_N_ELEMENTS(w); i++) {
        uint64_t v;
        if (as_read(vm->m->as,
                    nc2_memmap[NC2_TPC].base + d->tensor_tpc * nc2_memmap[NC2_TPC].stride + 0x400 +
                        0x38ull * d->tensor_id + 4 * i,
                    4, &v, MEMTXATTRS(MEM_REQ_DEBUG, 0)) != MEMTX_OK) {
            return;
        }
        w[i] = (uint32_t)v;
    }
    dt = w[3] & 7;
    valid = w[3] >> 8 & 0x1F;
    if (dt > 2) {
        return; /* the TPC faults on it too */
    }
    es = 1u << dt;
    if (!d->dtype_given) { /* the element size says u8, bf16 or f32 */
        d->dtype = es == 1 ? VIEW_DT_U8 : es == 2 ? VIEW_DT_BF16 : VIEW_DT_F32;
    }
    d->pa = (uint64_t)w[0] | (uint64_t)w[1] << 32;
    d->offset = d->pa;
    /* dimension 0 across, dimension 1 down; strides are in elements */
    d->cols = valid & 1 ? w[4] : 0; /* without dimension 0 there is no picture */
    d->estride = (uint64_t)((int64_t)(int32_t)w[5] * es);
    d->rows = valid & 2 ? w[6] : 1;
    d->pitch = (uint64_t)((int64_t)(int32_t)w[7] * es);
    d->last_elems = d->cols;
    d->tensor_ok = d->cols && d->rows;
}

/* Shown rows and columns, and the pixels of one element. */
static void data_geom(const ViewData *d, unsigned *rows, unsigned *cols, int *cw, int *ch)
{
    *rows = MIN(d->rows, (unsigned)VIEW_DATA_H);
    *cols = MIN(d->cols, (unsigned)VIEW_DATA_W);
    *cw = VIEW_DATA_W / (int)*cols;
    *ch = VIEW_DATA_H / (int)*rows;
}

static double data_decode(ViewDtype t, const uint8_t *p)
{
    uint32_t u;
    float f;
    switch (t) {
    case VIEW_DT_U8:
        return p[0];
    case VIEW_DT_I32:
        memcpy(&u, p, 4);
        return (int32_t)GUINT32_FROM_LE(u);
    case VIEW_DT_BF16:
        u = (uint32_t)(p[0] | p[1] << 8) << 16; /* the top half of an f32 */
        memcpy(&f, &u, 4);
        return f;
    default:
        memcpy(&u, p, 4);
        u = GUINT32_FROM_LE(u);
        memcpy(&f, &u, 4);
        return f;
    }
}

bool vdata_value(const ViewerModel *vm, unsigned r, unsigned c, double *v)
{
    const ViewData *d = &vm->data;
    unsigned es = dtype_size[d->dtype];
    uint8_t buf[4];
    uint64_t bad;
    if (!d->on || (d->tensor && !d->tensor_ok) || r >= d->rows ||
        c >= (r + 1 == d->rows ? d->last_elems : d->cols)) {
        return false;
    }
    if (as_rw_bytes(vm->m->as, d->pa + r * d->pitch + c * d->estride, buf, es, false,
                    MEMTXATTRS(MEM_REQ_DEBUG, 0), &bad) != MEMTX_OK) {
        return false;
    }
    *v = data_decode(d->dtype, buf);
    return true;
}

static unsigned unit_byte(double t)
{
    return (unsigned)lround(CLAMP(t, 0.0, 1.0) * 255.0);
}

uint32_t vdata_color(ViewCmap cmap, double t)
{
    if (isnan(t)) {
        return 0xFF00FFu;
    }
    if (cmap == VIEW_CMAP_HEAT) { /* black, red, yellow, white */
        return unit_byte(3 * t) << 16 | unit_byte(3 * t - 1) << 8 | unit_byte(3 * t - 2);
    }
    return unit_byte(t) * 0x010101u;
}

/* The region's heading: what, which partitions or addresses, dtype, map. */
static void data_heading(const ViewData *d, GString *out)
{
    if (d->tensor) {
        g_string_printf(out, "data tpc%u tensor %u %ux%u @0x%" PRIx64, d->tensor_tpc, d->tensor_id,
                        d->cols, d->rows, d->pa);
    } else if (d->what[0] == 'h') {
        g_string_printf(out, "data hbm 0x%" PRIx64 " %u x %u", d->offset, d->rows, d->cols);
    } else {
        g_string_printf(out, "data %s p%u-%u @0x%05" PRIx64 " x%u", d->what, d->first,
                        d->first + d->rows - 1, d->offset, d->cols);
    }
    g_string_append_printf(out, " %s %s", dtype_name[d->dtype], cmap_name[d->cmap]);
}

void vdata_draw(ViewerModel *vm, uint32_t *fb)
{
    const ViewData *d = &vm->data;
    unsigned rows, cols;
    int cw, ch;
    double lo = INFINITY, hi = -INFINITY;
    double *val;
    uint8_t *raw;
    GString *head;
    if (!d->on) {
        vrender_text(fb, VIEW_DATA_X, VIEW_DATA_Y - 12, VIEW_COL_LABEL, "data view");
        vrender_text(fb, VIEW_DATA_X, VIEW_DATA_Y, VIEW_COL_TEXT,
                     "off: -display sdl,data=sbuf:0-3,dtype=f32");
        return;
    }
    vdata_refresh(vm);
    if (d->tensor && !d->tensor_ok) {
        vrender_textf(fb, VIEW_DATA_X, VIEW_DATA_Y - 12, VIEW_COL_LABEL,
                      "data tpc%u tensor %u: no valid, non-empty descriptor", d->tensor_tpc,
                      d->tensor_id);
        return;
    }
    data_geom(d, &rows, &cols, &cw, &ch);
    val = g_new(double, (size_t)rows *cols);
    raw = g_malloc((size_t)cols * dtype_size[d->dtype]);
    for (unsigned r = 0; r < rows; r++) {
        /* one debug read a row, not one an element */
        unsigned n = r + 1 == d->rows ? MIN(d->last_elems, cols) : cols;
        uint64_t bad;
        /* one debug read a row when its elements are packed */
        bool packed = d->estride == dtype_size[d->dtype];
        bool ok =
            packed && as_rw_bytes(vm->m->as, d->pa + r * d->pitch, raw, n * dtype_size[d->dtype],
                                  false, MEMTXATTRS(MEM_REQ_DEBUG, 0), &bad) == MEMTX_OK;
        for (unsigned c = 0; c < cols; c++) {
            double v = NAN;
            if (ok && c < n) {
                v = data_decode(d->dtype, raw + c * dtype_size[d->dtype]);
            } else if (!packed && !vdata_value(vm, r, c, &v)) {
                v = NAN;
            }
            val[r * cols + c] = v;
            if (isfinite(v)) {
                lo = MIN(lo, v);
                hi = MAX(hi, v);
            }
        }
    }
    g_free(raw);
    for (unsigned r = 0; r < rows; r++) {
        for (unsigned c = 0; c < cols; c++) {
            double v = val[r * cols + c];
            /* a constant region draws as the bottom of the map */
            double t = isinf(v) ? (v > 0 ? 1.0 : 0.0) : hi > lo ? (v - lo) / (hi - lo) : 0.0;
            vrender_fill(fb, VIEW_DATA_X + (int)c * cw, VIEW_DATA_Y + (int)r * ch, cw, ch,
                         vdata_color(d->cmap, isnan(v) ? NAN : t));
        }
    }
    g_free(val);
    /* a frame just outside the image: a black cell is still seen as a cell */
    vrender_fill(fb, VIEW_DATA_X - 1, VIEW_DATA_Y - 1, (int)cols * cw + 2, 1, VIEW_COL_FRAME);
    vrender_fill(fb, VIEW_DATA_X - 1, VIEW_DATA_Y + (int)rows * ch, (int)cols * cw + 2, 1,
                 VIEW_COL_FRAME);
    vrender_fill(fb, VIEW_DATA_X - 1, VIEW_DATA_Y, 1, (int)rows * ch, VIEW_COL_FRAME);
    vrender_fill(fb, VIEW_DATA_X + (int)cols * cw, VIEW_DATA_Y, 1, (int)rows * ch, VIEW_COL_FRAME);
    head = g_string_new(NULL);
    data_heading(d, head);
    if (lo <= hi) {
        g_string_append_printf(head, " %.6g..%.6g", lo, hi);
    }
    vrender_text(fb, VIEW_DATA_X, VIEW_DATA_Y - 12, VIEW_COL_LABEL, head->str);
    g_string_free(head, TRUE);
}

void vdata_hover_text(ViewerModel *vm, int x, int y, GString *out)
{
    const ViewData *d = &vm->data;
    unsigned rows, cols, r, c;
    int cw, ch;
    double v;
    if (!d->on || x < VIEW_DATA_X || y < VIEW_DATA_Y) {
        return;
    }
    vdata_refresh(vm);
    if (d->tensor && !d->tensor_ok) {
        return;
    }
    data_geom(d, &rows, &cols, &cw, &ch);
    c = (unsigned)((x - VIEW_DATA_X) / cw);
    r = (unsigned)((y - VIEW_DATA_Y) / ch);
    if (c >= cols || r >= rows) {
        return;
    }
    if (d->tensor) {
        g_string_printf(out, "data tpc%u tensor %u [%u,%u] pa=0x%" PRIx64, d->tensor_tpc,
                        d->tensor_id, c, r, d->pa + r * d->pitch + c * d->estride);
    } else if (d->what[0] == 'h') {
        g_string_printf(out, "data hbm 0x%" PRIx64,
                        d->offset + r * d->pitch + (uint64_t)c * dtype_size[d->dtype]);
    } else {
        g_string_printf(out, "data %s p%u +0x%05" PRIx64, d->what, d->first + r,
                        d->offset + (uint64_t)c * dtype_size[d->dtype]);
    }
    if (!d->tensor) { /* a tensor's element says [column,row] already */
        g_string_append_printf(out, " [%u]", c);
    }
    g_string_append_printf(out, " %s", dtype_name[d->dtype]);
    if (vdata_value(vm, r, c, &v)) {
        g_string_append_printf(out, " = %.9g", v);
    } else {
        g_string_append(out, " = ?");
    }
}
