/*
 * nxemu: command line -> device tree -> board -> images -> scheduler.
 *
 * Standard output carries only guest console bytes (machine.md §12.12);
 * every diagnostic goes to stderr.  Usage, configuration and load errors are
 * one line "nxemu: <what>: <why>" and exit 125 with nothing executed.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "config-host.h"
#include "nxemu-version.h"
#include "nxemu/board-if.h"
#include "nxemu/error.h"
#include "nxemu/tpc-race.h"
#include "nxemu/file-io.h"
#include "nxemu/gdbstub.h"
#include "nxemu/viewer.h"
#include "nxemu/loader.h"
#include "nxemu/poison.h"
#include "nxemu/sched.h"
#include "nxemu/signal.h"
#include "nxemu/trace.h"
#include "softmmu/monitor.h"
#include "softmmu/options.h"

/* 125, or 126 for an output that cannot be created or written. */
static int fail(GError *err)
{
    int rc = err && g_error_matches(err, NX_ERROR, NX_ERROR_OUTPUT) ? NX_EXIT_OUTPUT
                                                                   : NX_EXIT_USAGE;
    fflush(stdout);
    fprintf(stderr, "nxemu: %s\n", err ? err->message : "error");
    if (err) {
        g_error_free(err);
    }
    return rc;
}

/* After a run: report an output error, which then decides the status. */
static int output_failed(GError *err)
{
    fflush(stdout);
    fprintf(stderr, "nxemu: %s\n", err->message);
    g_error_free(err);
    return NX_EXIT_OUTPUT;
}

/* Options parsed now but implemented by later issues. */
static bool refuse_unbuilt(const NxOptions *o, GError **err)
{
    const char *what = NULL;
    bool gdb = o->gdb || o->gdb_default;
    if (o->freeze && !gdb && !o->monitor_stdio) {
        g_set_error(err, NX_ERROR, NX_ERROR_USAGE,
                    "-S: needs -s, -gdb or -monitor stdio (something to continue from)");
        return false;
    }
    if (o->monitor_stdio && (gdb || o->display_sdl)) {
        g_set_error(err, NX_ERROR, NX_ERROR_USAGE, "-monitor stdio: not with %s (%s)",
                    gdb ? "-s/-gdb" : "-display sdl",
                    gdb ? "gdb's 'monitor' runs the same commands" : "the window's keys");
        return false;
    }
    if (o->screendump_at_exit && !o->display_sdl) {
        g_set_error(err, NX_ERROR, NX_ERROR_USAGE, "-screendump-at-exit: needs -display sdl");
        return false;
    }
    if (what) {
        g_set_error(err, NX_ERROR, NX_ERROR_USAGE, "%s: not built yet", what);
        return false;
    }
    return true;
}

/* Free the machine; the -D log is committed (a complete run) or discarded. */
static bool end_machine(Machine *m, NxOutput *logout, bool commit, GError **err)
{
    bool ok = true;
    m->log.file = NULL;
    if (commit && logout) {
        ok = nx_output_commit(logout, err);
    } else {
        nx_output_discard(logout);
    }
    machine_free(m);
    return ok;
}

static int run(NxOptions *o)
{
    GError *err = NULL;
    void *fdt = NULL;
    size_t fdt_size = 0;
    MachineConfig cfg;
    Machine *m;
    BindTable binds;
    NxOutput *logout = NULL;
    NxPoison *poison = NULL;
    int rc;

    if (!refuse_unbuilt(o, &err) ||
        !nc2_fdt_build_config(o->dtb, &o->edits, &fdt, &fdt_size, &cfg, &err)) {
        return fail(err);
    }
    if (o->dump_dtb) {
        bool ok = nc2_fdt_write(fdt, o->dump_dtb, &err);
        g_free(fdt);
        return ok ? 0 : fail(err);
    }
    /* A temporary file until the images are loaded (file-io.h): a load
     * error leaves the previous log in place; then it is published. */
    if (o->logfile && !(logout = nx_output_open("-D", o->logfile, &err))) {
        g_free(fdt);
        return fail(err);
    }
    m = machine_new(&cfg, fdt, fdt_size, &err);
    g_free(fdt);
    if (!m) {
        nx_output_discard(logout);
        return fail(err);
    }
    nx_options_apply(m, o);
    if (logout) {
        m->log.file = nx_output_stream(logout); /* end_machine commits it */
    }

    if (o->poison) {
        poison = poison_new(m); /* before the loader: loaded bytes count as written */
    }
    bind_table_init(&binds);
    bool ok = nx_options_add_binds(o, &binds, &err);
    if (ok) {
        LoaderOptions lo = {
            .items = (LoaderItem *)(void *)o->items->data,
            .nr_items = o->items->len,
            .bindings = &binds,
            .fit_config = o->fit_config,
        };
        ok = loader_load(m, &lo, &err);
    }
    bind_table_destroy(&binds);
    if (!ok) {
        poison_free(poison);
        end_machine(m, logout, false, NULL);
        return fail(err);
    }
    NxTraceOptions to = {
        .commit = (o->log_mask & NX_LOG_COMMIT) != 0,
        .stats = (o->log_mask & NX_LOG_STATS) != 0,
        .timeline = o->trace_json,
        .coverage = o->coverage,
    };
    NxTrace *trace = trace_wanted(&to) ? trace_new(m, &to, &err) : NULL;
    if (trace_wanted(&to) && !trace) {
        poison_free(poison);
        end_machine(m, logout, false, NULL);
        return fail(err);
    }
    Viewer *viewer = NULL;
    if (o->display_sdl) {
        bool gdb = o->gdb || o->gdb_default;
        /* Under gdb the window never holds the end: gdb decides when
         * nxemu exits. */
        ViewerOptions vo = {.hold_at_end = o->screendump_at_exit == NULL && !gdb,
                            .screendump_at_exit = o->screendump_at_exit,
                            .gdb = gdb,
                            .zoom_activity = o->display_zoom_activity,
                            .scrub_set = o->display_scrub_set,
                            .scrub = o->display_scrub,
                            .data = o->display_data,
                            .dtype = o->display_dtype,
                            .cmap = o->display_cmap};
        viewer = viewer_new(m, &vo, &err);
        if (!viewer) {
            trace_free(trace);
            poison_free(poison);
            end_machine(m, logout, false, NULL);
            return fail(err);
        }
    }
    /* Loaded: the log becomes the file itself, written as the run goes
     * (a load error above left the previous log). */
    if (logout) {
        nx_output_publish(logout);
    }
    /* -serial: the console is opened last, so no error path above has to
     * close it. */
    FILE *serial = NULL;
    if (o->serial_file) {
        if (!(serial = fopen(o->serial_file, "w"))) {
            fprintf(stderr, "nxemu: -serial: %s: cannot create: %s\n", o->serial_file,
                    g_strerror(errno));
            trace_free(trace);
            viewer_free(viewer);
            poison_free(poison);
            end_machine(m, logout, false, NULL);
            return NX_EXIT_USAGE;
        }
    }
    board_set_serial(m, &(NxSerial){.file = serial, .off = o->serial_off});
    /* the race detector attaches to the TPCs, and leaves them after the run */
    TpcRace *race = tpc_race_new(m, o->tpc_race);
    if (o->gdb || o->gdb_default) {
        GdbReplay replay = {
            .budget = o->replay_budget, .memory = o->replay_memory, .every = o->replay_every};
        rc = gdb_serve(m, o->gdb ? o->gdb : "tcp::1234", o->freeze, &replay, viewer);
    } else if (viewer) {
        rc = viewer_run(m, viewer);
    } else if (o->monitor_stdio) {
        rc = monitor_stdio_run(m, NULL, o->freeze); /* -display sdl runs above */
    } else {
        rc = sched_run(m);
    }
    rc = tpc_race_end(race, rc); /* -tpc-race fault: 122 */
    tpc_race_free(race);
    if (serial) {
        board_set_serial(m, &(NxSerial){0});
        if (fclose(serial) != 0) {
            fprintf(stderr, "nxemu: -serial: %s: write failed: %s\n", o->serial_file,
                    g_strerror(errno));
            rc = NX_EXIT_OUTPUT;
        }
    }
    if (trace) {
        fflush(stdout);
        if (!trace_finish(trace, &err)) {
            rc = output_failed(err);
            err = NULL;
        }
        trace_free(trace);
    }
    fflush(stdout);
    viewer_free(viewer); /* observers leave in reverse order: viewer, then poison */
    poison_free(poison);
    if (!end_machine(m, logout, true, &err)) {
        rc = output_failed(err);
    }
    return rc;
}

int main(int argc, char **argv)
{
    NxOptions o;
    GError *err = NULL;
    int rc = 0;

    if (!nx_options_parse(&o, argc, argv, &err)) {
        nx_options_free(&o);
        return fail(err);
    }
    if (o.help) {
        fputs(o.help_text, stdout);
    } else if (o.version) {
        fputs(NXEMU_VERSION_LINE("nxemu"), stdout);
    } else if (o.help_list) {
        fputs(o.help_list, stdout);
    } else if (o.machine_help) {
        nx_machine_help(stdout);
    } else if (o.log_help) {
        /* nx_log_parse printed the list already */
    } else {
        /* ^C, a runner's timeout (nxemu-test): the run ends at the next round
         * and says where it was.  Under the gdb stub the machine may not be
         * running at all, so the first signal ends nxemu at once. */
        nx_signals_install(o.gdb || o.gdb_default);
        rc = run(&o);
    }
    nx_options_free(&o);
    fflush(stdout);
    return rc;
}
