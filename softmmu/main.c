/*
 * nxemu: command line -> device tree -> board -> images -> scheduler.
 *
 * Standard output carries only guest console bytes (machine.md §12.12);
 * every diagnostic goes to stderr.  Usage, configuration and load errors are
 * one line "nxemu: <what>: <why>" and exit 125 with nothing executed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "config-host.h"
#include "hw/nc2/fdt.h"
#include "nxemu/error.h"
#include "nxemu/loader.h"
#include "nxemu/sched.h"
#include "softmmu/options.h"

static int fail(GError *err)
{
    fflush(stdout);
    fprintf(stderr, "nxemu: %s\n", err ? err->message : "error");
    if (err) {
        g_error_free(err);
    }
    return NX_EXIT_USAGE;
}

/* Options parsed now but implemented by later issues. */
static bool refuse_unbuilt(const NxOptions *o, GError **err)
{
    const char *what = NULL;
    if (o->gdb) {
        what = "-gdb";
    } else if (o->gdb_default) {
        what = "-s";
    } else if (o->freeze) {
        what = "-S";
    } else if (o->display_sdl) {
        what = "-display sdl";
    }
    if (what) {
        g_set_error(err, NX_ERROR, NX_ERROR_USAGE, "%s: not built yet", what);
        return false;
    }
    return true;
}

static int run(NxOptions *o)
{
    GError *err = NULL;
    void *fdt = NULL;
    size_t fdt_size = 0;
    MachineConfig cfg;
    Machine *m;
    BindTable binds;
    FILE *logf = NULL;
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
    if (o->logfile) {
        logf = fopen(o->logfile, "w");
        if (!logf) {
            g_free(fdt);
            g_set_error(&err, NX_ERROR, NX_ERROR_USAGE, "-D: %s: %s", o->logfile,
                        g_strerror(errno));
            return fail(err);
        }
    }
    m = machine_new(&cfg, fdt, fdt_size, &err);
    g_free(fdt);
    if (!m) {
        if (logf) {
            fclose(logf);
        }
        return fail(err);
    }
    m->log.mask = o->log_mask;
    if (logf) {
        m->log.file = logf; /* closed by machine_free */
    }
    m->sched.has_icount_limit = o->has_icount_limit;
    m->sched.icount_limit = o->icount_limit;
    m->sched.has_cycle_limit = o->has_cycle_limit;
    m->sched.cycle_limit = o->cycle_limit;

    bind_table_init(&binds);
    bool ok = true;
    for (unsigned i = 0; ok && i < o->binds->len; i++) {
        NxBindOpt *b = &g_array_index(o->binds, NxBindOpt, i);
        ok = bind_table_add(&binds, b->var_id, b->addr, "-bind", &err);
    }
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
        machine_free(m);
        return fail(err);
    }
    rc = sched_run(m);
    fflush(stdout);
    machine_free(m);
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
        printf("nxemu version %s\n", NXEMU_VERSION);
    } else if (o.machine_help) {
        nx_machine_help(stdout);
    } else if (o.log_help) {
        /* nx_log_parse printed the list already */
    } else {
        rc = run(&o);
    }
    nx_options_free(&o);
    fflush(stdout);
    return rc;
}
