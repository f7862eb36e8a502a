/*
 * The viewer's insides, split by concern so that everything but the window
 * itself is testable without SDL (tests/unit/test-viewer-model.c):
 *   viewer-model.c   what is shown: access marks, colours, hover look-up, keys
 *   viewer-render.c  drawing a frame into an XRGB8888 buffer
 *   viewer-panels.c  the access-count table and the data view (values as an image)
 *   viewer-timeline.c run events (include/nxemu/runev.h) and the timeline strip
 *   viewer-scrub.c   the access log and the time cursor (marks as they were then)
 *   viewer-font.c    the built-in 5x7 bitmap font
 *   viewer-png.c     the screenshot writer
 *   viewer.c         viewer.h API: events, pacing, pause protocol; loads...
 *   viewer-sdl.c     ...the SDL window module (viewer-module.h), not in libnxemu
 *   viewer-stub.c    viewer.h when built without SDL
 * The frame layout below is part of the documented interface (docs/viewer.rst):
 * the e2e test finds the SBUF partitions in a screenshot from it.
 */
#ifndef HW_DISPLAY_VIEWER_INT_H
#define HW_DISPLAY_VIEWER_INT_H

#include <stdbool.h>
#include <stdint.h>

#include <glib.h>

#include "hw/nc2/memmap.h"
#include "nxemu/memory.h"
#include "nxemu/runev.h"

typedef struct Machine Machine;

/* ---- frame layout (pixels) ---- */
#define VIEW_W 1280
#define VIEW_H 720

#define VIEW_SBUF_X      8
#define VIEW_SBUF_Y      32
#define VIEW_SBUF_W      384 /* the shown offset range spread over these columns */
#define VIEW_PART_H      3   /* rows per partition (SBUF and PSUM) */
#define VIEW_PSUM_X      404
#define VIEW_PSUM_Y      VIEW_SBUF_Y
#define VIEW_BANK_W      8 /* columns per PSUM bank */
#define VIEW_HBM_X       480
#define VIEW_HBM_Y       VIEW_SBUF_Y
#define VIEW_HBM_CELL    6 /* pixels per HBM cell side */
#define VIEW_HBM_SIDE    64
#define VIEW_HBM_CELLS   (VIEW_HBM_SIDE * VIEW_HBM_SIDE)
#define VIEW_TEXT_X      880 /* cores, TLBs */
#define VIEW_BOTTOM_Y    (VIEW_SBUF_Y + NC2_SBUF_PARTITIONS * VIEW_PART_H + 10)
#define VIEW_CHAR_W      6
#define VIEW_LINE_H      9
#define VIEW_TEXT_BOTTOM 458 /* the cores and TLB panel ends above the data view */
#define VIEW_SEM_PER_ROW 5
#define VIEW_SEM_ROWS    3

/* Access-count table: the busiest SBUF partitions, then PSUM banks. */
#define VIEW_TABLE_X    652
#define VIEW_TABLE_Y    466 /* heading; rows from VIEW_TABLE_Y + 12 */
#define VIEW_TABLE_ROWS 8

/* Timeline strip: one row per core / engine, vtime 0..end on x. */
#define VIEW_TL_X          8   /* row labels */
#define VIEW_TL_BAR_X      56  /* vtime 0 */
#define VIEW_TL_W          576 /* the run's vtime over these columns */
#define VIEW_TL_Y          512 /* first row; heading at VIEW_TL_Y - 12 */
#define VIEW_TL_ROW_H      10
#define VIEW_TL_BAR_H      7
#define VIEW_TL_ROWS       20
#define VIEW_TL_MAX_EVENTS 65536 /* later events are counted, not kept */

/* Data view (-display sdl,data=...): the region's values as an image. */
#define VIEW_DATA_X 880
#define VIEW_DATA_Y 482 /* image; heading at VIEW_DATA_Y - 12 */
#define VIEW_DATA_W 392
#define VIEW_DATA_H 230

/* ---- access marks ---- */
#define VIEW_SBUF_BIN_BYTES 0x400u
#define VIEW_SBUF_BINS      (NC2_SBUF_PART_BYTES / VIEW_SBUF_BIN_BYTES) /* 192 */
#define VIEW_MAX_ZOOM       64u
/* A touched SBUF bin narrower than this many columns (at the current zoom) is
 * drawn this wide, so that one small write is a mark of 2 x 24 pixels. */
#define VIEW_MIN_MARK_COLS 24

/* Last read and write of a bin, as virtual time + 1 (0: never), and how many
 * reads and writes touched it (saturating). */
typedef struct ViewMarks {
    uint64_t rd, wr;
    uint32_t nrd, nwr;
} ViewMarks;

/* Colours (XRGB8888). */
#define VIEW_COL_BG    0x000000u
#define VIEW_COL_IDLE  0x202020u /* a cell nobody touched */
#define VIEW_COL_TEXT  0xC0C0C0u
#define VIEW_COL_LABEL 0xFFFF80u
#define VIEW_COL_FRAME 0x505050u
#define VIEW_COL_FOCUS 0xA0A0FFu /* frame of the map keys act on */

/* Timeline colours. */
#define VIEW_COL_TL_DMA    0x4080FFu
#define VIEW_COL_TL_KERNEL 0x40E0A0u
#define VIEW_COL_TL_KFAULT 0xFF8040u
#define VIEW_COL_TL_WAIT   0xFFC040u
#define VIEW_COL_TL_FAULT  0xFF2020u
#define VIEW_COL_TL_TRACK  0x181818u
#define VIEW_COL_TL_CURSOR 0xFFFFFFu /* the time cursor's line */

typedef enum ViewArea {
    VIEW_AREA_NONE,
    VIEW_AREA_SBUF,
    VIEW_AREA_PSUM,
    VIEW_AREA_HBM,
} ViewArea;

/* One bar (or mark) of the timeline. */
typedef enum ViewTlKind { VIEW_TL_DMA, VIEW_TL_KERNEL, VIEW_TL_WAIT, VIEW_TL_FAULT } ViewTlKind;
typedef struct ViewTlEvent {
    uint8_t kind; /* ViewTlKind */
    uint8_t open; /* still going: drawn up to now */
    uint8_t tpc;  /* VIEW_TL_FAULT: of a TPC (else of a sequencer) */
    uint16_t unit;
    uint32_t code; /* fault code */
    uint64_t t0, t1, bytes;
    const char *what; /* VIEW_TL_WAIT: what it waited on ("wait=sem[9] ge 1"), or NULL */
} ViewTlEvent;

typedef struct ViewTimeline {
    GArray *ev;                /* ViewTlEvent, in the order they began or completed */
    uint64_t dropped;          /* past VIEW_TL_MAX_EVENTS */
    uint64_t *dma_last;        /* per engine: its last completion (a queued request waits for it) */
    bool *dma_used, *tpc_used; /* has bars (rows are dropped when they do not fit) */
    unsigned nr_dma;
    int *open_wait, *open_kernel; /* per sequencer / TPC: index into ev of its open bar, -1 */
    GStringChunk *names;          /* the waits' "what", each kept once */
    unsigned nr_seq, nr_tpc;
} ViewTimeline;

/* The data view's region and how its values are drawn. */
typedef enum ViewDtype { VIEW_DT_U8, VIEW_DT_I32, VIEW_DT_F32, VIEW_DT_BF16 } ViewDtype;
typedef enum ViewCmap { VIEW_CMAP_GRAY, VIEW_CMAP_HEAT } ViewCmap;
typedef struct ViewData {
    bool on;
    char what[8];        /* "sbuf", "psum", "hbm" */
    uint64_t pa;         /* first byte of row 0 */
    uint64_t pitch;      /* bytes from one row to the next */
    unsigned rows;       /* partitions (sbuf, psum) or rows of HBM */
    unsigned first;      /* partition of row 0 (sbuf, psum), for the labels */
    unsigned cols;       /* elements per row */
    unsigned last_elems; /* elements in the last row (HBM: LENGTH may end mid-row) */
    uint64_t offset;     /* offset of column 0 in a partition, or HBM address of row 0 */
    uint64_t estride;    /* bytes from one element to the next in a row (may wrap: negative) */
    ViewDtype dtype;
    ViewCmap cmap;
    /* "tensor:T:ID": the geometry comes from TPC T's descriptor ID, read
     * again at every frame (vdata_refresh); tensor_ok is false while the
     * descriptor is invalid or empty. */
    bool tensor, tensor_ok, dtype_given;
    unsigned tensor_tpc, tensor_id;
} ViewData;

/* The marks of every map: what the hook keeps up to date (ViewerModel.live)
 * and what the time cursor rebuilds from the access log (ViewerModel.at). */
typedef struct ViewMarkSet {
    ViewMarks sbuf[NC2_SBUF_PARTITIONS][VIEW_SBUF_BINS];
    ViewMarks psum[NC2_PSUM_PARTITIONS][NC2_PSUM_BANKS];
    ViewMarks hbm[VIEW_HBM_CELLS];
    /* Accesses per SBUF partition (an access counts once per partition it
     * touches, however many bins); PSUM banks count in their marks. */
    uint32_t sbuf_nrd[NC2_SBUF_PARTITIONS], sbuf_nwr[NC2_SBUF_PARTITIONS];
} ViewMarkSet;

/* ---- access log (viewer-scrub.c, docs/viewer.rst "Time cursor") ---- */
/* One access to SBUF, PSUM or HBM as the hook saw it: 24 bytes. */
typedef struct ViewLogRec {
    uint64_t t;    /* vtime of the access */
    uint64_t addr; /* PA of its first byte */
    uint32_t size;
    uint32_t wr; /* 1: a write */
} ViewLogRec;
/* The log's fixed budget: 262144 records, 6 MiB, allocated once. */
#define VIEW_LOG_RECORDS (1u << 18)

/* A ring of the last cap accesses.  A record the ring overwrites is first
 * folded into `base`, so that base + the records with t <= T are exactly
 * the marks at T for any T >= floor (the newest vtime folded). */
typedef struct ViewLog {
    ViewLogRec *rec;
    size_t cap;
    uint64_t total;    /* records ever appended; the next goes to rec[total % cap] */
    ViewMarkSet *base; /* the folded records' marks (allocated when the ring first wraps) */
    uint64_t floor;    /* the newest folded vtime: no cursor before it */
} ViewLog;

typedef struct ViewerModel {
    Machine *m;

    ViewMarkSet live;   /* every access so far (the access hook) */
    unsigned hbm_shift; /* log2 of the bytes per HBM cell */
    uint64_t reads, writes;
    ViewLog log;
    /* The time cursor ('[', ']', '{', '}', Home, a click on the timeline,
     * -display sdl,scrub=T): while scrub is on, the maps, table and hover
     * read-out show `at`, the marks of the accesses made at vtime <= scrub_t.
     * at_t / at_total say what `at` was built for (rebuilt when the cursor
     * moves, topped up from the new records otherwise). */
    bool scrub, scrub_clamped; /* clamped: asked for a vtime before log.floor */
    uint64_t scrub_t;
    ViewMarkSet *at;
    bool at_valid;
    uint64_t at_t, at_total;
    ViewTimeline tl;
    ViewData data;

    /* user interface state */
    bool paused, step_req, quit;
    ViewArea focus; /* the map keys zoom and pan (Tab cycles) */
    unsigned zoom;  /* SBUF horizontal zoom: 1, 2, 4, ... VIEW_MAX_ZOOM */
    uint32_t pan;   /* first SBUF partition offset shown */
    /* PSUM zooms vertically: NC2_PSUM_PARTITIONS / psum_zoom partitions of
     * VIEW_PART_H * psum_zoom rows each, from partition psum_pan. */
    unsigned psum_zoom, psum_pan;
    /* HBM zooms the address range: the 64 x 64 squares show hbm_pan +
     * square * (cell bytes / hbm_zoom). */
    unsigned hbm_zoom;
    uint64_t hbm_pan;
    /* Activity zoom ('a', -display sdl,zoom=activity): every frame fits each
     * map to the range the run touched so far; a manual zoom or pan ends it. */
    bool activity;
    int mouse_x, mouse_y;
    bool mouse_in;
    bool ended;       /* the run is over */
    bool gdb_stopped; /* gdb holds the machine stopped (viewer_debug_stop) */
    bool gdb;         /* the gdb stub drives the run (ViewerOptions.gdb) */
} ViewerModel;

void vmodel_init(ViewerModel *vm, Machine *m);
/* Free what the model allocated (the timeline's events). */
void vmodel_destroy(ViewerModel *vm);
/* The access hook body (AccessHookFn, opaque = the model): updates marks,
 * never allocates.  Debugger reads (the hover read-out) are not marked. */
void vmodel_access(void *opaque, uint64_t addr, unsigned size, bool is_write, MemTxAttrs attrs);
/* Colour of a cell from its marks: VIEW_COL_IDLE if never touched; else
 * writes tint red and reads green on a log scale of their counts (the
 * channel a kind of access did not tint stays 0x20). */
uint32_t vmodel_color(const ViewMarks *mk);
/* The tint of n accesses: 0 for none, 0x80 for one, +0x10 for each doubling,
 * 0xFF from 256 on. */
unsigned vmodel_level(uint32_t n);
/* Fit each map to the ranges touched so far (the activity zoom): SBUF to the
 * offsets touched in any partition, PSUM to the partitions, HBM to the
 * cells; a map nothing touched goes back to zoom x1. */
void vmodel_fit_activity(ViewerModel *vm);
/* The SBUF map's heading: offset range, zoom, bytes per column, and
 * "activity" while the activity zoom is on. */
void vmodel_sbuf_heading(const ViewerModel *vm, GString *out);
/* Shown SBUF offset range at the current zoom and pan. */
uint32_t vmodel_sbuf_span(const ViewerModel *vm);
/* SBUF offset shown at column x (0 <= x < VIEW_SBUF_W). */
uint32_t vmodel_sbuf_offset_at(const ViewerModel *vm, int x);

/* Mark access [addr, addr + size) at vtime t into s (t is stored + 1). */
void vmodel_mark(const ViewerModel *vm, ViewMarkSet *s, uint64_t addr, uint64_t size, bool is_write,
                 uint64_t t);

/* ---- time cursor (viewer-scrub.c) ---- */
/* Allocate the log's ring of cap records (vmodel_init: VIEW_LOG_RECORDS;
 * tests ask for small rings before the first access). */
void vscrub_log_init(ViewerModel *vm, size_t cap);
void vscrub_destroy(ViewerModel *vm);
/* The hook's part: append one record (folding the one it overwrites). */
void vscrub_log(ViewerModel *vm, uint64_t addr, unsigned size, bool is_write, uint64_t t);
/* Set the cursor to vtime t (clamped to log.floor, scrub_clamped says so). */
void vscrub_set(ViewerModel *vm, uint64_t t);
/* Cursor off: the maps show now again. */
void vscrub_off(ViewerModel *vm);
/* The marks the maps show: `live`, or with the cursor on the marks at
 * scrub_t (rebuilt here when needed, so per frame only when it moved). */
const ViewMarkSet *vmodel_marks(ViewerModel *vm);
/* The cursor keys ('[' ']' one timeline column back / forward, '{' '}' a
 * sixteenth of the run, VIEW_KEY_HOME vtime 0, VIEW_KEY_END off); false for
 * other keys. */
bool vscrub_key(ViewerModel *vm, int key);
/* A mouse click at (x, y): on the timeline strip, the cursor goes to the
 * vtime of that column.  Returns true if it did. */
bool vscrub_click(ViewerModel *vm, int x, int y);

/* What lies under pixel (x, y): the area, the PA of the first byte the cell or
 * column stands for, and the marks of its bin. */
ViewArea vmodel_hit(ViewerModel *vm, int x, int y, uint64_t *pa, const ViewMarks **mk);
/* The hover read-out line for pixel (x, y): "" outside the maps; else
 * "sbuf p3 +0x00000 pa=0x20000c0000 = 0x11111111 (last w@12 r@-)". */
void vmodel_hover_text(ViewerModel *vm, int x, int y, GString *out);

/* Key codes past ASCII for the up/down arrows ('<'/'>' are left/right);
 * the same in viewer-module.h. */
#define VIEW_KEY_UP   0x100
#define VIEW_KEY_DOWN 0x101
#define VIEW_KEY_HOME 0x102
#define VIEW_KEY_END  0x103

/* Keys: ' ' pause/resume, 's' single step, '\t' focus the next map (SBUF,
 * PSUM, HBM), '+'/'=' zoom the focused map in around its centre, '-' out,
 * '<'/'>' (left/right arrows) pan it back/forward by a quarter of what it
 * shows, VIEW_KEY_UP/DOWN pan PSUM by a quarter and HBM by one row of
 * squares, 'a' activity zoom on (fit every map to what was touched) / off
 * (every map back to x1), 'q' close.  Returns true if the picture changed. */
bool vmodel_key(ViewerModel *vm, int key);
/* Mouse wheel at frame pixel (x, y): over a map, focus it and zoom in
 * (steps > 0) or out keeping what is under the pixel in place; elsewhere,
 * zoom the focused map around its centre. */
void vmodel_wheel(ViewerModel *vm, int steps, int x, int y);

/* Bytes of HBM one square stands for at the current HBM zoom. */
uint64_t vmodel_hbm_square_bytes(const ViewerModel *vm);
/* PSUM partition shown at map row ry (0 <= ry < 128 * VIEW_PART_H). */
unsigned vmodel_psum_part_at(const ViewerModel *vm, int ry);

/* ---- access-count table and data view (viewer-panels.c) ---- */
/* The busiest SBUF partitions / PSUM banks (partition * 8 + bank): up to n
 * indices, most accesses (reads + writes) first, ties by index; returns how
 * many had any access. */
unsigned vpanel_busiest_sbuf(ViewerModel *vm, unsigned *idx, unsigned n);
unsigned vpanel_busiest_psum(ViewerModel *vm, unsigned *idx, unsigned n);
void vpanel_draw_table(ViewerModel *vm, uint32_t *fb);
/* Parse the data view's options (docs/viewer.rst "Data view"): region
 * "sbuf:P0[-P1][@OFF][+LEN]", "psum:...", "hbm:ADDR+LEN[/COLS]" or
 * "tensor:T:ID"; dtype
 * u8|i32|f32|bf16 (NULL: f32); cmap gray|heat (NULL: gray).  false + err
 * (one line) on a bad spelling or a region outside the memory. */
bool vdata_parse(ViewData *d, const Machine *m, const char *region, const char *dtype,
                 const char *cmap, GError **err);
/* A tensor view: its geometry from the TPC's descriptor now. */
void vdata_refresh(ViewerModel *vm);
/* Element (row r, column c) of the data view as a double; false if it
 * cannot be read. */
bool vdata_value(const ViewerModel *vm, unsigned r, unsigned c, double *v);
/* Colour of t in [0, 1] in the colour map (NaN: magenta). */
uint32_t vdata_color(ViewCmap cmap, double t);
void vdata_draw(ViewerModel *vm, uint32_t *fb);
/* The hover read-out over the data view: "" outside it. */
void vdata_hover_text(ViewerModel *vm, int x, int y, GString *out);

/* ---- timeline (viewer-timeline.c) ---- */
/* The run-event observer (NxRunEvFn, opaque = the model). */
void vtl_event(void *opaque, const NxRunEvent *ev);
/* The vtime the strip's right edge stands for (the run's vtime, at least 1). */
uint64_t vtl_span(const ViewerModel *vm);
/* First vtime the timeline shows: 0, or with the activity zoom shortly
 * before the first kernel launch. */
uint64_t vtl_origin(const ViewerModel *vm);
/* Column of vtime t (VIEW_TL_BAR_X for 0). */
int vtl_x(const ViewerModel *vm, uint64_t t);
void vtl_draw(ViewerModel *vm, uint32_t *fb);
/* The hover read-out over the timeline: "" outside its bars. */
void vtl_hover_text(ViewerModel *vm, int x, int y, GString *out);

/* ---- rendering ---- */
void vrender_frame(ViewerModel *vm, uint32_t *fb);
/* Text with the built-in font at (x, y) (top left), clipped to the frame;
 * returns the x after the last character. */
int vrender_text(uint32_t *fb, int x, int y, uint32_t color, const char *s);
int vrender_textf(uint32_t *fb, int x, int y, uint32_t color, const char *fmt, ...)
    G_GNUC_PRINTF(5, 6);
/* A w x h rectangle at (x, y), clipped to the frame. */
void vrender_fill(uint32_t *fb, int x, int y, int w, int h, uint32_t c);
/* Column bitmap of a glyph (bit 0 = top row), 5 columns; unknown -> '?'. */
const uint8_t *vfont_glyph(char c);

/* ---- screenshot ---- */
bool viewer_png_write(const char *path, const uint32_t *xrgb, unsigned w, unsigned h, GError **err);

typedef struct Viewer Viewer;
/* Queue a key press (vmodel_key code) in the window's event queue, as if the
 * user typed it: tests drive the real event path with it.  SDL builds only. */
bool viewer_push_key(Viewer *v, int key);

#endif
