/*
 * The viewer window (include/hw/display/viewer.h): SDL2 video only, one
 * streaming texture the size of the frame, software-drawn frames
 * (viewer-render.c) uploaded at display rate.  Works the same under X11,
 * Wayland, Xvfb and SDL's offscreen driver.
 */
#include <SDL.h>

#include "hw/display/viewer-int.h"
#include "hw/display/viewer.h"
#include "nxemu/error.h"
#include "nxemu/machine.h"

#define VIEW_FRAME_US (G_USEC_PER_SEC / 60)

struct Viewer {
    ViewerModel vm;
    ViewerOptions opts;
    SDL_Window *win;
    SDL_Renderer *ren;
    SDL_Texture *tex;
    uint32_t *fb;
    int64_t next_draw;    /* monotonic time of the next redraw while running */
    bool hooked;
    bool closed;
};

/* The access hook while the window is open. */
static void viewer_hook(void *opaque, uint64_t addr, unsigned size, bool is_write, MemTxAttrs attrs)
{
    Viewer *v = opaque;
    vmodel_access(&v->vm, addr, size, is_write, attrs);
}

static void viewer_draw(Viewer *v)
{
    vrender_frame(&v->vm, v->fb);
    SDL_UpdateTexture(v->tex, NULL, v->fb, VIEW_W * 4);
    SDL_RenderClear(v->ren);
    SDL_RenderCopy(v->ren, v->tex, NULL, NULL);
}

static void viewer_show(Viewer *v)
{
    viewer_draw(v);
    SDL_RenderPresent(v->ren);
}

static int map_key(SDL_Keycode k)
{
    switch (k) {
    case SDLK_SPACE:
        return ' ';
    case SDLK_s:
        return 's';
    case SDLK_PLUS:
    case SDLK_EQUALS:
    case SDLK_KP_PLUS:
        return '+';
    case SDLK_MINUS:
    case SDLK_KP_MINUS:
        return '-';
    case SDLK_LEFT:
        return '<';
    case SDLK_RIGHT:
        return '>';
    case SDLK_q:
    case SDLK_ESCAPE:
        return 'q';
    default:
        return 0;
    }
}

/* Returns true if the picture should be redrawn. */
static bool viewer_event(Viewer *v, const SDL_Event *ev)
{
    switch (ev->type) {
    case SDL_QUIT:
        v->closed = true;
        return false;
    case SDL_WINDOWEVENT:
        if (ev->window.event == SDL_WINDOWEVENT_CLOSE) {
            v->closed = true;
        } else if (ev->window.event == SDL_WINDOWEVENT_LEAVE) {
            v->vm.mouse_in = false;
        }
        return true;
    case SDL_KEYDOWN: {
        bool changed = vmodel_key(&v->vm, map_key(ev->key.keysym.sym));
        if (v->vm.quit) {
            v->closed = true;
        }
        return changed;
    }
    case SDL_MOUSEMOTION:
        /* Logical coordinates: SDL_RenderSetLogicalSize maps them. */
        v->vm.mouse_x = ev->motion.x;
        v->vm.mouse_y = ev->motion.y;
        v->vm.mouse_in = true;
        return true;
    case SDL_MOUSEWHEEL:
        vmodel_wheel(&v->vm, ev->wheel.y, v->vm.mouse_x - VIEW_SBUF_X);
        return true;
    default:
        return false;
    }
}

static bool viewer_pump(Viewer *v)
{
    SDL_Event ev;
    bool redraw = false;
    while (SDL_PollEvent(&ev)) {
        redraw |= viewer_event(v, &ev);
    }
    return redraw;
}

Viewer *viewer_new(Machine *m, const ViewerOptions *o, GError **err)
{
    Viewer *v;
    SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1"); /* Ctrl-C stays ours */
    /* The software renderer below draws into the window's own framebuffer,
     * not one SDL would build on a GL renderer: no GL driver is loaded. */
    SDL_SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0");
    if (SDL_InitSubSystem(SDL_INIT_VIDEO) != 0) {
        g_set_error(err, NX_ERROR, NX_ERROR_USAGE, "-display sdl: cannot open a display: %s",
                    SDL_GetError());
        return NULL;
    }
    v = g_new0(Viewer, 1);
    if (o) {
        v->opts = *o;
    }
    vmodel_init(&v->vm, m, v->opts.fade_cycles);
    v->vm.paused = v->opts.start_paused;
    v->fb = g_new0(uint32_t, (size_t)VIEW_W * VIEW_H);
    v->win = SDL_CreateWindow("nxemu viewer", SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED,
                              VIEW_W, VIEW_H, SDL_WINDOW_RESIZABLE);
    if (v->win) {
        /* Frames are drawn in software already: SDL's software renderer only
         * copies them, needs no GL driver (nothing dlopen'ed that leaks or
         * differs between hosts) and reads back exactly what it shows. */
        v->ren = SDL_CreateRenderer(v->win, -1, SDL_RENDERER_SOFTWARE);
        if (!v->ren) {
            v->ren = SDL_CreateRenderer(v->win, -1, 0);
        }
    }
    if (v->ren) {
        SDL_RenderSetLogicalSize(v->ren, VIEW_W, VIEW_H);
        v->tex = SDL_CreateTexture(v->ren, SDL_PIXELFORMAT_RGB888, SDL_TEXTUREACCESS_STREAMING,
                                   VIEW_W, VIEW_H);
    }
    if (!v->tex) {
        g_set_error(err, NX_ERROR, NX_ERROR_USAGE, "-display sdl: cannot create the window: %s",
                    SDL_GetError());
        viewer_free(v);
        return NULL;
    }
    if (!as_add_access_hook(m->as, viewer_hook, v)) {
        g_set_error(err, NX_ERROR, NX_ERROR_USAGE, "-display sdl: too many memory observers");
        viewer_free(v);
        return NULL;
    }
    v->hooked = true;
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
        SDL_Event ev;
        if (v->vm.step_req) {
            v->vm.step_req = false;
            break;
        }
        if (SDL_WaitEventTimeout(&ev, 100) && viewer_event(v, &ev)) {
            viewer_pump(v);
            viewer_show(v);
        }
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
    while (v->opts.hold_at_end && !v->closed) {
        SDL_Event ev;
        if (SDL_WaitEventTimeout(&ev, 100) && viewer_event(v, &ev)) {
            viewer_pump(v);
            viewer_show(v);
        }
    }
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
    int w = 0, h = 0;
    bool ok;
    uint32_t *shot = v->fb;
    /* Read the picture back from the renderer, so the file is what the
     * window shows; if the window was resized (or read-back is not
     * supported) fall back to the frame we drew, which has the documented
     * layout. */
    viewer_draw(v);
    if (SDL_GetRendererOutputSize(v->ren, &w, &h) == 0 && w == VIEW_W && h == VIEW_H) {
        uint32_t *px = g_new(uint32_t, (size_t)VIEW_W * VIEW_H);
        if (SDL_RenderReadPixels(v->ren, NULL, SDL_PIXELFORMAT_RGB888, px, VIEW_W * 4) == 0) {
            shot = px;
        } else {
            g_free(px);
        }
    }
    SDL_RenderPresent(v->ren);
    ok = viewer_png_write(path, shot, VIEW_W, VIEW_H, err);
    if (shot != v->fb) {
        g_free(shot);
    }
    return ok;
}

void viewer_free(Viewer *v)
{
    if (!v) {
        return;
    }
    if (v->hooked) {
        as_remove_access_hook(v->vm.m->as, viewer_hook, v);
    }
    if (v->tex) {
        SDL_DestroyTexture(v->tex);
    }
    if (v->ren) {
        SDL_DestroyRenderer(v->ren);
    }
    if (v->win) {
        SDL_DestroyWindow(v->win);
    }
    SDL_QuitSubSystem(SDL_INIT_VIDEO);
    if (!SDL_WasInit(0)) {
        SDL_Quit(); /* the rest of SDL's state (D-Bus connection, hints) */
    }
    g_free(v->fb);
    g_free(v);
}
