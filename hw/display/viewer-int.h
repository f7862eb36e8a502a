/*
 * The viewer's insides, split by concern so that everything but the window
 * itself is testable without SDL (tests/unit/test-viewer-model.c):
 *   viewer-model.c   what is shown: access marks, colours, hover look-up, keys
 *   viewer-render.c  drawing a frame into an XRGB8888 buffer
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

typedef struct Machine Machine;

/* ---- frame layout (pixels) ---- */
#define VIEW_W 1280
#define VIEW_H 720

#define VIEW_SBUF_X    8
#define VIEW_SBUF_Y    32
#define VIEW_SBUF_W    384 /* the shown offset range spread over these columns */
#define VIEW_PART_H    3   /* rows per partition (SBUF and PSUM) */
#define VIEW_PSUM_X    404
#define VIEW_PSUM_Y    VIEW_SBUF_Y
#define VIEW_BANK_W    8 /* columns per PSUM bank */
#define VIEW_HBM_X     480
#define VIEW_HBM_Y     VIEW_SBUF_Y
#define VIEW_HBM_CELL  6 /* pixels per HBM cell side */
#define VIEW_HBM_SIDE  64
#define VIEW_HBM_CELLS (VIEW_HBM_SIDE * VIEW_HBM_SIDE)
#define VIEW_TEXT_X    880 /* cores, TLBs */
#define VIEW_BOTTOM_Y  (VIEW_SBUF_Y + NC2_SBUF_PARTITIONS * VIEW_PART_H + 10)
#define VIEW_CHAR_W    6
#define VIEW_LINE_H    9

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

typedef enum ViewArea { VIEW_AREA_NONE, VIEW_AREA_SBUF, VIEW_AREA_PSUM, VIEW_AREA_HBM } ViewArea;

typedef struct ViewerModel {
    Machine *m;

    ViewMarks sbuf[NC2_SBUF_PARTITIONS][VIEW_SBUF_BINS];
    ViewMarks psum[NC2_PSUM_PARTITIONS][NC2_PSUM_BANKS];
    ViewMarks hbm[VIEW_HBM_CELLS];
    unsigned hbm_shift; /* log2 of the bytes per HBM cell */
    uint64_t reads, writes;

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
    bool ended; /* the run is over */
} ViewerModel;

void vmodel_init(ViewerModel *vm, Machine *m);
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

/* What lies under pixel (x, y): the area, the PA of the first byte the cell or
 * column stands for, and the marks of its bin. */
ViewArea vmodel_hit(const ViewerModel *vm, int x, int y, uint64_t *pa, const ViewMarks **mk);
/* The hover read-out line for pixel (x, y): "" outside the maps; else
 * "sbuf p3 +0x00000 pa=0x20000c0000 = 0x11111111 (last w@12 r@-)". */
void vmodel_hover_text(ViewerModel *vm, int x, int y, GString *out);

/* Key codes past ASCII for the up/down arrows ('<'/'>' are left/right);
 * the same in viewer-module.h. */
#define VIEW_KEY_UP   0x100
#define VIEW_KEY_DOWN 0x101

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

/* ---- rendering ---- */
void vrender_frame(ViewerModel *vm, uint32_t *fb);
/* Text with the built-in font at (x, y) (top left), clipped to the frame;
 * returns the x after the last character. */
int vrender_text(uint32_t *fb, int x, int y, uint32_t color, const char *s);
/* Column bitmap of a glyph (bit 0 = top row), 5 columns; unknown -> '?'. */
const uint8_t *vfont_glyph(char c);

/* ---- screenshot ---- */
bool viewer_png_write(const char *path, const uint32_t *xrgb, unsigned w, unsigned h, GError **err);

typedef struct Viewer Viewer;
/* Queue a key press (vmodel_key code) in the window's event queue, as if the
 * user typed it: tests drive the real event path with it.  SDL builds only. */
bool viewer_push_key(Viewer *v, int key);

#endif
