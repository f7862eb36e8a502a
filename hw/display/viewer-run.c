/*
 * viewer_run (include/nxemu/viewer.h): the run loop of nxemu and
 * nxemu-tpc-run with -display sdl and without gdb, in one place so both
 * tools refresh, pause, end and take the -screendump-at-exit picture alike.
 * Built with or without SDL (without it no Viewer is ever created).
 */
#include <inttypes.h>
#include <stdio.h>

#include "nxemu/viewer.h"
#include "nxemu/machine.h"
#include "nxemu/sched.h"

int viewer_run(Machine *m, Viewer *v)
{
    StopReason r = STOP_NONE;
    GError *err = NULL;
    GString *out;
    /* viewer_refresh costs one clock read except ~60 times a second, and
     * blocks while the user has paused the machine (returning for each
     * single step); it never changes the machine, so vtime is the same. */
    while (r == STOP_NONE) {
        if (!viewer_refresh(v)) {
            fflush(stdout);
            fprintf(stderr, "nxemu: viewer window closed: run stopped at vtime=%" PRIu64 "\n",
                    m->sched.vtime);
            return 0;
        }
        r = sched_round(m);
    }
    out = g_string_new(NULL);
    sched_report(m, out);
    fflush(stdout);
    fputs(out->str, stderr);
    g_string_free(out, TRUE);
    sched_log_end(m);
    if (!viewer_finish(v, &err)) {
        /* reported, but the viewer never changes a status (viewer.rst) */
        fprintf(stderr, "nxemu: %s\n", err->message);
        g_error_free(err);
    }
    return sched_exit_status(m);
}
