/*
 * include/nxemu/viewer.h for a build without SDL (--disable-sdl):
 * -display sdl fails with a clear message and nothing else is reachable.
 */
#include "nxemu/viewer.h"
#include "nxemu/error.h"

Viewer *viewer_new(Machine *m, const ViewerOptions *o, GError **err)
{
    g_set_error(err, NX_ERROR, NX_ERROR_USAGE,
                "-display sdl: this nxemu was built without SDL (configure --enable-sdl)");
    return NULL;
}

bool viewer_refresh(Viewer *v)
{
    return true;
}

void viewer_end(Viewer *v) {}

bool viewer_finish(Viewer *v, GError **err)
{
    return true;
}

void viewer_debug_stop(Viewer *v, bool stopped) {}

bool viewer_idle(Viewer *v)
{
    return true;
}

void viewer_redraw(Viewer *v) {}

bool viewer_paused(const Viewer *v)
{
    return false;
}

void viewer_set_paused(Viewer *v, bool paused) {}

void viewer_step(Viewer *v) {}

bool viewer_screendump(Viewer *v, const char *path, GError **err)
{
    g_set_error(err, NX_ERROR, NX_ERROR_USAGE, "screendump: %s: no display (-display sdl)", path);
    return false;
}

void viewer_free(Viewer *v) {}
