/*
 * The ABI between libnxemu (hw/display/viewer.c) and the SDL display module
 * (hw/display/viewer-sdl.c, built as nxemu-display-sdl.so).
 *
 * The window is a loadable module so that a run without -display sdl does
 * not map SDL2 and its ~60 shared libraries (start-up time, docs/viewer.rst).
 * The module knows nothing of the machine: it shows XRGB8888 frames the host
 * drew and turns SDL events into ViewerEvent values.  It exports exactly one
 * symbol, nxemu_display_sdl_init, and calls back into the host only through
 * the ViewerHostOps it is given, so the host needs no -rdynamic.
 *
 * Bump VIEWER_MODULE_ABI on any change to these structures: a module from
 * another build then refuses to load instead of misbehaving.
 */
#ifndef HW_DISPLAY_VIEWER_MODULE_H
#define HW_DISPLAY_VIEWER_MODULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define VIEWER_MODULE_ABI    2
#define VIEWER_MODULE_SYMBOL "nxemu_display_sdl_init"
#define VIEWER_MODULE_NAME   "nxemu-display-sdl"

/* Key codes past ASCII for the up/down arrows (the same in viewer-int.h). */
#define VIEW_KEY_UP   0x100
#define VIEW_KEY_DOWN 0x101
#define VIEW_KEY_HOME 0x102
#define VIEW_KEY_END  0x103

typedef enum ViewerEventType {
    VIEWER_EV_OTHER,  /* nothing the viewer reacts to */
    VIEWER_EV_QUIT,   /* the application was asked to quit */
    VIEWER_EV_CLOSE,  /* the window's close button */
    VIEWER_EV_WINDOW, /* exposed, resized, ...: redraw */
    VIEWER_EV_LEAVE,  /* the pointer left the window */
    VIEWER_EV_KEY,    /* key: vmodel_key code (' ', 's', '\t', '+', '-', '<', '>',
                       * VIEW_KEY_UP/DOWN, 'a', 'q', '[', ']', '{', '}',
                       * VIEW_KEY_HOME/END) or 0 */
    VIEWER_EV_MOTION, /* x, y: pointer in frame coordinates */
    VIEWER_EV_WHEEL,  /* steps: > 0 away from the user */
    VIEWER_EV_CLICK,  /* x, y: left button pressed there (frame coordinates) */
} ViewerEventType;

typedef struct ViewerEvent {
    ViewerEventType type;
    int key;
    int x, y;
    int steps;
} ViewerEvent;

/* What the host offers the module. */
typedef struct ViewerHostOps {
    unsigned abi; /* VIEWER_MODULE_ABI */
    /* The module needs no host function yet; new ones go here (with an ABI
     * bump), never through symbols resolved from the executable. */
} ViewerHostOps;

typedef struct ViewerWindow ViewerWindow;

/* What the module offers the host (a static const table in the module). */
typedef struct ViewerWindowOps {
    unsigned abi; /* VIEWER_MODULE_ABI */
    /* Open a window for fw x fh frames; NULL with a one-line reason in err. */
    ViewerWindow *(*open)(const char *title, int fw, int fh, char *err, size_t errlen);
    /* Next event: waits up to timeout_ms (0: just polls); false if none. */
    bool (*next_event)(ViewerWindow *w, int timeout_ms, ViewerEvent *ev);
    /* Show a frame (fw * fh XRGB8888 pixels). */
    void (*present)(ViewerWindow *w, const uint32_t *fb);
    /* Show fb and read back what the window shows into out (same size);
     * false if the window was resized or cannot be read back. */
    bool (*read_back)(ViewerWindow *w, const uint32_t *fb, uint32_t *out);
    /* Queue a key press as if typed (vmodel_key code): lets tests drive the
     * real event path. */
    bool (*push_key)(ViewerWindow *w, int key);
    void (*close)(ViewerWindow *w);
} ViewerWindowOps;

/* The module's only export: NULL if host->abi differs from its own. */
typedef const ViewerWindowOps *(*ViewerModuleInitFn)(const ViewerHostOps *host);

#endif
