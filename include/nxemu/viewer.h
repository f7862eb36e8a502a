/*
 * The SDL memory viewer (`-display sdl`, docs/viewer.rst): a live picture of
 * SBUF, PSUM and HBM accesses, the cores, the window TLBs and the semaphores.
 * This is its interface, an opaque Viewer and the calls below, for the run
 * loops of softmmu/ and tools/; hw/display implements it and is the only
 * part that sees the board (docs/architecture.rst, "Layers").
 *
 * It only observes: it installs the memory API's access hook while open (so
 * a run without it pays nothing; it chains to a hook already installed, such
 * as poison mode's, and puts it back when freed) and keeps per-bin last-read/last-write
 * virtual times in fixed tables (no allocation per access); everything else
 * is read from the machine at display rate.
 *
 * Run-loop contract (viewer_run, used by nxemu and nxemu-tpc-run):
 *     Viewer *v = viewer_new(m, &opts, &err);      before the run
 *     do {
 *         if (!viewer_refresh(v)) { the user closed the window: end the run }
 *         r = sched_round(m);
 *     } while (r == STOP_NONE);
 *     viewer_finish(v, &err);   final frame (+ hold), -screendump-at-exit
 *     viewer_free(v);
 * viewer_refresh redraws at most ~60 times a second (host time) and costs
 * one clock read otherwise; while the user has paused the machine it blocks
 * in it (handling the window) until resume, a single step (one scheduler
 * round) or close.
 *
 * Under gdb (opts.gdb, softmmu/gdbstub.c) the stub drives the run: it calls
 * viewer_refresh between rounds as above (the space and s keys do nothing,
 * gdb runs the machine, so it never blocks), viewer_debug_stop at every stop
 * and resume, viewer_idle while it waits for gdb, viewer_redraw after gdb
 * changed memory or registers, and viewer_finish when it reports the end.
 */
#ifndef NXEMU_VIEWER_H
#define NXEMU_VIEWER_H

#include <stdbool.h>
#include <stdint.h>

#include <glib.h>

typedef struct Machine Machine;
typedef struct Viewer Viewer;

typedef struct ViewerOptions {
    /* Start paused (the user presses space to run). */
    bool start_paused;
    /* viewer_end waits until the user closes the window. */
    bool hold_at_end;
    /* Start in the activity zoom (-display sdl,zoom=activity). */
    bool zoom_activity;
    /* The data view (-display sdl,data=REGION,dtype=T,cmap=M; NULL: off,
     * f32, gray): docs/viewer.rst "Data view". */
    const char *data, *dtype, *cmap;
    /* viewer_finish writes the final picture there (-screendump-at-exit). */
    const char *screendump_at_exit;
    /* The gdb stub drives the run: the pause keys are ignored. */
    bool gdb;
    /* Start with the time cursor at vtime scrub (-display sdl,scrub=T). */
    bool scrub_set;
    uint64_t scrub;
} ViewerOptions;

/* Opens the window.  NULL + err (one line) if SDL is not built in or no
 * display can be opened. */
Viewer *viewer_new(Machine *m, const ViewerOptions *o, GError **err);
/* See the contract above.  Returns false once the user closed the window. */
bool viewer_refresh(Viewer *v);
/* The run ended: draw the final state now; with hold_at_end, keep the window
 * up until the user closes it (or presses q). */
void viewer_end(Viewer *v);
/* viewer_end, then the -screendump-at-exit picture if asked for; only the
 * first call does anything.  false + err: the picture could not be written. */
bool viewer_finish(Viewer *v, GError **err);
/* sched_run with the window refreshed between rounds (the contract above):
 * the diagnostics to stderr, viewer_finish, the run's exit status (0 if the
 * user closed the window). */
int viewer_run(Machine *m, Viewer *v);
/* gdb stopped (true) or resumed the machine: the header says so, and a stop
 * is drawn at once. */
void viewer_debug_stop(Viewer *v, bool stopped);
/* While gdb holds the machine: handle the window's events (redrawing when
 * they change the picture).  false once the user closed the window. */
bool viewer_idle(Viewer *v);
/* Draw the machine as it is now (after a debugger write). */
void viewer_redraw(Viewer *v);
bool viewer_paused(const Viewer *v);
void viewer_set_paused(Viewer *v, bool paused);
/* Request one scheduler round while paused (as the 's' key does). */
void viewer_step(Viewer *v);
/* Write what the window shows (the frame last drawn, read back from it) as
 * a PNG file (monitor `screendump FILE.png`, -screendump-at-exit): a window
 * nobody refreshed gives a stale picture, as on the screen. */
bool viewer_screendump(Viewer *v, const char *path, GError **err);
void viewer_free(Viewer *v);

#endif
