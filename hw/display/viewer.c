/*
 * The viewer (include/nxemu/viewer.h) in a build with SDL: model,
 * pacing, pause protocol and screenshots live here in libnxemu; the window
 * itself is the SDL display module (hw/display/viewer-module.h), opened with
 * GModule by viewer_new, so that nxemu does not link SDL2 and a run without
 * -display sdl never maps it.
 *
 * Module look-up (docs/viewer.rst): $NXEMU_MODULE_DIR if set (only there),
 * else the build tree's module directory (uninstalled runs and tests), else
 * the installed libdir/nxemu.
 */
#include <gmodule.h>

#include "hw/display/viewer-int.h"
#include "hw/display/viewer-module-dirs.h"
#include "hw/display/viewer-module.h"
#include "nxemu/viewer.h"
#include "nxemu/error.h"
#include "nxemu/machine.h"
#include "nxemu/signal.h"

#define VIEW_FRAME_US (G_USEC_PER_SEC / 60)

struct Viewer {
    ViewerModel vm;
    ViewerOptions opts;
    GModule *mod;
    const ViewerWindowOps *ops;
    ViewerWindow *win;
    uint32_t *fb;
    int64_t next_draw; /* monotonic time of the next redraw while running */
    bool hooked;
    bool closed;
    bool finished; /* viewer_finish ran */
};

static const ViewerHostOps viewer_host_ops = {
    .abi = VIEWER_MODULE_ABI,
};

/* Open the module from the first directory that has it.  NULL + err: not
 * found anywhere (listing where we looked), or found but unusable. */
static GModule *viewer_module_open(const ViewerWindowOps **ops, GError **err)
{
    const char *env = g_getenv("NXEMU_MODULE_DIR");
    const char *dirs[2] = {NULL, NULL};
    g_autofree char *file = g_strconcat(VIEWER_MODULE_NAME ".", G_MODULE_SUFFIX, NULL);
    g_autoptr(GString) looked = g_string_new(NULL);

    if (env && *env) {
        dirs[0] = env;
    } else {
        dirs[0] = NXEMU_MODULE_BUILD_DIR;
        dirs[1] = NXEMU_MODULE_INSTALL_DIR;
    }
    for (unsigned i = 0; i < G_N_ELEMENTS(dirs) && dirs[i]; i++) {
        g_autofree char *path = g_build_filename(dirs[i], file, NULL);
        GModule *mod;
        gpointer sym = NULL;
        g_string_append_printf(looked, "%s%s", looked->len ? ", " : "", dirs[i]);
        if (!g_file_test(path, G_FILE_TEST_EXISTS)) {
            continue;
        }
        /* Local binding: SDL's symbols stay out of the global namespace. */
        mod = g_module_open(path, G_MODULE_BIND_LOCAL);
        if (!mod) {
            g_set_error(err, NX_ERROR, NX_ERROR_USAGE,
                        "-display sdl: cannot load the SDL display module: %s", g_module_error());
            return NULL;
        }
        if (!g_module_symbol(mod, VIEWER_MODULE_SYMBOL, &sym) || !sym ||
            !(*ops = ((ViewerModuleInitFn)sym)(&viewer_host_ops))) {
            g_set_error(err, NX_ERROR, NX_ERROR_USAGE,
                        "-display sdl: %s: not an SDL display module of this nxemu (ABI %u)", path,
                        VIEWER_MODULE_ABI);
            g_module_close(mod);
            return NULL;
        }
        return mod;
    }
    g_set_error(err, NX_ERROR, NX_ERROR_USAGE,
                "-display sdl: SDL display module not found (looked in %s)", looked->str);
    return NULL;
}

/* The access hook while the window is open. */
static void viewer_hook(void *opaque, uint64_t addr, unsigned size, bool is_write, MemTxAttrs attrs)
{
    Viewer *v = opaque;
    vmodel_access(&v->vm, addr, size, is_write, attrs);
}

static void viewer_show(Viewer *v)
{
    vrender_frame(&v->vm, v->fb);
    v->ops->present(v->win, v->fb);
}

/* Returns true if the picture should be redrawn. */
static bool viewer_event(Viewer *v, const ViewerEvent *ev)
{
    switch (ev->type) {
    case VIEWER_EV_QUIT:
        v->closed = true;
        return false;
    case VIEWER_EV_CLOSE:
        v->closed = true;
        return true;
    case VIEWER_EV_WINDOW:
        return true;
    case VIEWER_EV_LEAVE:
        v->vm.mouse_in = false;
        return true;
    case VIEWER_EV_KEY: {
        bool changed;
        if (v->opts.gdb && (ev->key == ' ' || ev->key == 's')) {
            return false; /* gdb runs and stops the machine, not the window */
        }
        changed = vmodel_key(&v->vm, ev->key);
        if (v->vm.quit) {
            v->closed = true;
        }
        return changed;
    }
    case VIEWER_EV_MOTION:
        v->vm.mouse_x = ev->x;
        v->vm.mouse_y = ev->y;
        v->vm.mouse_in = true;
        return true;
    case VIEWER_EV_WHEEL:
        vmodel_wheel(&v->vm, ev->steps, v->vm.mouse_x, v->vm.mouse_y);
        return true;
    case VIEWER_EV_CLICK:
        return vscrub_click(&v->vm, ev->x, ev->y);
    default:
        return false;
    }
}

static bool viewer_pump(Viewer *v)
{
    ViewerEvent ev;
    bool redraw = false;
    while (v->ops->next_event(v->win, 0, &ev)) {
        redraw |= viewer_event(v, &ev);
    }
    return redraw;
}

/* Wait (up to 100 ms) for an event and redraw if it changed the picture. */
static void viewer_wait(Viewer *v)
{
    ViewerEvent ev;
    if (v->ops->next_event(v->win, 100, &ev) && viewer_event(v, &ev)) {
        viewer_pump(v);
        viewer_show(v);
    }
}

Viewer *viewer_new(Machine *m, const ViewerOptions *o, GError **err)
{
    char why[256] = "";
    ViewData data = {0};
    Viewer *v;
    /* A bad data region is a usage error before any window opens. */
    if (o && o->data && !vdata_parse(&data, m, o->data, o->dtype, o->cmap, err)) {
        return NULL;
    }
    if (o && !o->data && (o->dtype || o->cmap)) {
        g_set_error(err, NX_ERROR, NX_ERROR_USAGE,
                    "-display sdl: dtype= and cmap= are for the data view (data=REGION)");
        return NULL;
    }
    v = g_new0(Viewer, 1);
    if (o) {
        v->opts = *o;
        /* read above only; the caller may free them (screendump_at_exit
         * must stay until viewer_finish) */
        v->opts.data = v->opts.dtype = v->opts.cmap = NULL;
    }
    v->mod = viewer_module_open(&v->ops, err);
    if (!v->mod) {
        g_free(v);
        return NULL;
    }
    v->win = v->ops->open("nxemu viewer", VIEW_W, VIEW_H, why, sizeof(why));
    if (!v->win) {
        g_set_error(err, NX_ERROR, NX_ERROR_USAGE, "-display sdl: %s", why);
        viewer_free(v);
        return NULL;
    }
    /* Without a display server (SDL's offscreen or dummy driver) nobody can
     * close the window: do not wait for it at the end. */
    const char *drv = g_getenv("SDL_VIDEODRIVER");
    if (drv && (!g_ascii_strcasecmp(drv, "offscreen") || !g_ascii_strcasecmp(drv, "dummy"))) {
        v->opts.hold_at_end = false;
    }
    vmodel_init(&v->vm, m);
    v->vm.data = data;
    v->vm.activity = v->opts.zoom_activity;
    v->vm.paused = v->opts.start_paused;
    v->vm.gdb = v->opts.gdb;
    if (v->opts.scrub_set) {
        vscrub_set(&v->vm, v->opts.scrub);
    }
    v->fb = g_new0(uint32_t, (size_t)VIEW_W * VIEW_H);
    if (!as_add_access_hook(m->as, viewer_hook, v)) {
        g_set_error(err, NX_ERROR, NX_ERROR_USAGE, "-display sdl: too many memory observers");
        viewer_free(v);
        return NULL;
    }
    v->hooked = true;
    /* The timeline's events. */
    if (!machine_runev_subscribe(m, vtl_event, &v->vm)) {
        g_set_error(err, NX_ERROR, NX_ERROR_USAGE, "-display sdl: too many run-event observers");
        viewer_free(v);
        return NULL;
    }
    viewer_pump(v);
    viewer_show(v);
    v->next_draw = g_get_monotonic_time() + VIEW_FRAME_US;
    return v;
}

bool viewer_refresh(Viewer *v)
{
    int64_t now;
    if (v->closed) {
        return false;
    }
    now = g_get_monotonic_time();
    if (!v->vm.paused && now < v->next_draw) {
        return true;
    }
    viewer_pump(v);
    viewer_show(v);
    v->next_draw = now + VIEW_FRAME_US;
    /* Paused: hold the run here, keeping the window alive, until resumed,
     * a step (one round: return, and come back here at the next call) or
     * closed. */
    while (v->vm.paused && !v->closed) {
        if (nx_signal_caught) {
            break; /* the round ends the run in order (nxemu's SIGTERM rule) */
        }
        if (v->vm.step_req) {
            v->vm.step_req = false;
            break;
        }
        viewer_wait(v);
    }
    return !v->closed;
}

void viewer_end(Viewer *v)
{
    if (!v) {
        return;
    }
    v->vm.ended = true;
    v->vm.paused = false;
    viewer_pump(v);
    viewer_show(v);
    /* Held until closed, but a signal ends nxemu at once (timeout(1), a
     * runner, Ctrl-C): the window is no reason to ignore it. */
    while (v->opts.hold_at_end && !v->closed && !nx_signal_caught) {
        viewer_wait(v);
    }
}

bool viewer_finish(Viewer *v, GError **err)
{
    if (!v || v->finished) {
        return true;
    }
    v->finished = true;
    v->vm.gdb_stopped = false;
    if (v->opts.screendump_at_exit) {
        /* the picture of the end does not depend on where the pointer
         * happens to be (under Xvfb: the window's middle) */
        v->vm.mouse_in = false;
    }
    viewer_end(v);
    return !v->opts.screendump_at_exit || viewer_screendump(v, v->opts.screendump_at_exit, err);
}

void viewer_debug_stop(Viewer *v, bool stopped)
{
    v->vm.gdb_stopped = stopped;
    if (stopped && !v->closed) {
        viewer_redraw(v);
    }
}

bool viewer_idle(Viewer *v)
{
    if (!v->closed && viewer_pump(v) && !v->closed) {
        viewer_show(v);
    }
    return !v->closed;
}

void viewer_redraw(Viewer *v)
{
    viewer_pump(v);
    viewer_show(v);
    v->next_draw = g_get_monotonic_time() + VIEW_FRAME_US;
}

bool viewer_paused(const Viewer *v)
{
    return v && v->vm.paused;
}

void viewer_set_paused(Viewer *v, bool paused)
{
    v->vm.paused = paused;
    v->vm.step_req = false;
}

void viewer_step(Viewer *v)
{
    v->vm.paused = true;
    v->vm.step_req = true;
}

bool viewer_screendump(Viewer *v, const char *path, GError **err)
{
    bool ok;
    /* Read the picture back from the window, so the file is what it shows
     * (v->fb is the frame last presented: not drawn again here, so a run
     * loop that stopped refreshing the window shows in the file); if the
     * window was resized (or read-back is not supported) fall back to that
     * frame, which has the documented layout. */
    g_autofree uint32_t *px = g_new(uint32_t, (size_t)VIEW_W * VIEW_H);
    ok = v->ops->read_back(v->win, v->fb, px);
    return viewer_png_write(path, ok ? px : v->fb, VIEW_W, VIEW_H, err);
}

bool viewer_push_key(Viewer *v, int key)
{
    return v->ops->push_key(v->win, key);
}

void viewer_free(Viewer *v)
{
    if (!v) {
        return;
    }
    if (v->hooked) {
        as_remove_access_hook(v->vm.m->as, viewer_hook, v);
    }
    if (v->vm.m) {
        machine_runev_unsubscribe(v->vm.m, vtl_event, &v->vm);
    }
    vmodel_destroy(&v->vm);
    if (v->win) {
        v->ops->close(v->win);
    }
    /* Stays mapped: SDL may leave threads or atexit handlers behind, and a
     * later viewer_new in the same process finds it already loaded. */
    g_module_make_resident(v->mod);
    g_module_close(v->mod);
    g_free(v->fb);
    g_free(v);
}
