/*
 * The SDL display module (nxemu-display-sdl.so, hw/display/viewer-module.h):
 * SDL2 video only, one streaming texture the size of the frame, frames drawn
 * in software by the host and uploaded here.  Works the same under X11,
 * Wayland, Xvfb and SDL's offscreen driver.
 *
 * Linked against SDL2 only (not libnxemu, not GLib) and without state of its
 * own: the host passes everything in (ViewerHostOps, frame size, pixels).
 */
#include <stdio.h>
#include <stdlib.h>

#include <SDL.h>

#include "hw/display/viewer-module.h"

struct ViewerWindow {
    SDL_Window *win;
    SDL_Renderer *ren;
    SDL_Texture *tex;
    int w, h; /* frame size */
};

static void sdl_close(ViewerWindow *w)
{
    if (!w) {
        return;
    }
    if (w->tex) {
        SDL_DestroyTexture(w->tex);
    }
    if (w->ren) {
        SDL_DestroyRenderer(w->ren);
    }
    if (w->win) {
        SDL_DestroyWindow(w->win);
    }
    SDL_QuitSubSystem(SDL_INIT_VIDEO);
    if (!SDL_WasInit(0)) {
        SDL_Quit(); /* the rest of SDL's state (D-Bus connection, hints) */
    }
    free(w);
}

static ViewerWindow *sdl_open(const char *title, int fw, int fh, char *err, size_t errlen)
{
    ViewerWindow *w;
    SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1"); /* Ctrl-C stays the host's */
    /* The software renderer below draws into the window's own framebuffer,
     * not one SDL would build on a GL renderer: no GL driver is loaded. */
    SDL_SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0");
    if (SDL_InitSubSystem(SDL_INIT_VIDEO) != 0) {
        snprintf(err, errlen, "cannot open a display: %s", SDL_GetError());
        return NULL;
    }
    w = calloc(1, sizeof(*w));
    if (!w) {
        snprintf(err, errlen, "out of memory");
        SDL_QuitSubSystem(SDL_INIT_VIDEO);
        return NULL;
    }
    w->w = fw;
    w->h = fh;
    w->win = SDL_CreateWindow(title, SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED, fw, fh,
                              SDL_WINDOW_RESIZABLE);
    if (w->win) {
        /* Frames are drawn in software already: SDL's software renderer only
         * copies them, needs no GL driver (nothing dlopen'ed that leaks or
         * differs between hosts) and reads back exactly what it shows. */
        w->ren = SDL_CreateRenderer(w->win, -1, SDL_RENDERER_SOFTWARE);
        if (!w->ren) {
            w->ren = SDL_CreateRenderer(w->win, -1, 0);
        }
    }
    if (w->ren) {
        SDL_RenderSetLogicalSize(w->ren, fw, fh);
        w->tex =
            SDL_CreateTexture(w->ren, SDL_PIXELFORMAT_RGB888, SDL_TEXTUREACCESS_STREAMING, fw, fh);
    }
    if (!w->tex) {
        snprintf(err, errlen, "cannot create the window: %s", SDL_GetError());
        sdl_close(w);
        return NULL;
    }
    return w;
}

/* shift: '{' and '}' are shifted '[' and ']' on most layouts, where SDL
 * reports the unshifted keycode. */
static int map_key(SDL_Keycode k, bool shift)
{
    switch (k) {
    case SDLK_LEFTBRACKET:
        return shift ? '{' : '[';
    case SDLK_RIGHTBRACKET:
        return shift ? '}' : ']';
    case SDLK_HOME:
        return VIEW_KEY_HOME;
    case SDLK_END:
        return VIEW_KEY_END;
    case SDLK_SPACE:
        return ' ';
    case SDLK_s:
        return 's';
    case SDLK_a:
        return 'a';
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
    case SDLK_UP:
        return VIEW_KEY_UP;
    case SDLK_DOWN:
        return VIEW_KEY_DOWN;
    case SDLK_TAB:
        return '\t';
    case SDLK_q:
    case SDLK_ESCAPE:
        return 'q';
    default:
        return 0;
    }
}

static SDL_Keycode unmap_key(int key)
{
    switch (key) {
    case '<':
        return SDLK_LEFT;
    case '>':
        return SDLK_RIGHT;
    case VIEW_KEY_UP:
        return SDLK_UP;
    case VIEW_KEY_DOWN:
        return SDLK_DOWN;
    case '{':
        return SDLK_LEFTBRACKET; /* with KMOD_SHIFT (sdl_push_key) */
    case '}':
        return SDLK_RIGHTBRACKET;
    case VIEW_KEY_HOME:
        return SDLK_HOME;
    case VIEW_KEY_END:
        return SDLK_END;
    default:
        return (SDL_Keycode)key; /* SDL keycodes of printable keys are their ASCII codes */
    }
}

static bool sdl_next_event(ViewerWindow *w, int timeout_ms, ViewerEvent *out)
{
    SDL_Event ev;
    if (!(timeout_ms > 0 ? SDL_WaitEventTimeout(&ev, timeout_ms) : SDL_PollEvent(&ev))) {
        return false;
    }
    *out = (ViewerEvent){.type = VIEWER_EV_OTHER};
    switch (ev.type) {
    case SDL_QUIT:
        out->type = VIEWER_EV_QUIT;
        break;
    case SDL_WINDOWEVENT:
        if (ev.window.event == SDL_WINDOWEVENT_CLOSE) {
            out->type = VIEWER_EV_CLOSE;
        } else if (ev.window.event == SDL_WINDOWEVENT_LEAVE) {
            out->type = VIEWER_EV_LEAVE;
        } else {
            out->type = VIEWER_EV_WINDOW;
        }
        break;
    case SDL_KEYDOWN:
        out->type = VIEWER_EV_KEY;
        out->key = map_key(ev.key.keysym.sym, (ev.key.keysym.mod & KMOD_SHIFT) != 0);
        break;
    case SDL_MOUSEMOTION:
        /* Logical coordinates: SDL_RenderSetLogicalSize maps them. */
        out->type = VIEWER_EV_MOTION;
        out->x = ev.motion.x;
        out->y = ev.motion.y;
        break;
    case SDL_MOUSEBUTTONDOWN:
        if (ev.button.button == SDL_BUTTON_LEFT) {
            out->type = VIEWER_EV_CLICK;
            out->x = ev.button.x;
            out->y = ev.button.y;
        }
        break;
    case SDL_MOUSEWHEEL:
        out->type = VIEWER_EV_WHEEL;
        out->steps = ev.wheel.y;
        break;
    default:
        break;
    }
    return true;
}

static void sdl_draw(ViewerWindow *w, const uint32_t *fb)
{
    SDL_UpdateTexture(w->tex, NULL, fb, w->w * 4);
    SDL_RenderClear(w->ren);
    SDL_RenderCopy(w->ren, w->tex, NULL, NULL);
}

static void sdl_present(ViewerWindow *w, const uint32_t *fb)
{
    sdl_draw(w, fb);
    SDL_RenderPresent(w->ren);
}

static bool sdl_read_back(ViewerWindow *w, const uint32_t *fb, uint32_t *out)
{
    int ow = 0, oh = 0;
    bool ok = false;
    sdl_draw(w, fb);
    if (SDL_GetRendererOutputSize(w->ren, &ow, &oh) == 0 && ow == w->w && oh == w->h) {
        ok = SDL_RenderReadPixels(w->ren, NULL, SDL_PIXELFORMAT_RGB888, out, w->w * 4) == 0;
    }
    SDL_RenderPresent(w->ren);
    return ok;
}

static bool sdl_push_key(ViewerWindow *w, int key)
{
    SDL_Event ev = {0};
    ev.type = SDL_KEYDOWN;
    ev.key.keysym.sym = unmap_key(key);
    ev.key.keysym.mod = key == '{' || key == '}' ? KMOD_SHIFT : KMOD_NONE;
    return SDL_PushEvent(&ev) == 1;
}

static const ViewerWindowOps sdl_ops = {
    .abi = VIEWER_MODULE_ABI,
    .open = sdl_open,
    .next_event = sdl_next_event,
    .present = sdl_present,
    .read_back = sdl_read_back,
    .push_key = sdl_push_key,
    .close = sdl_close,
};

/* The only exported symbol (the module is built with hidden visibility). */
__attribute__((visibility("default"))) const ViewerWindowOps *
nxemu_display_sdl_init(const ViewerHostOps *host);

const ViewerWindowOps *nxemu_display_sdl_init(const ViewerHostOps *host)
{
    return host && host->abi == VIEWER_MODULE_ABI ? &sdl_ops : NULL;
}
