/*
 * nxemu's command line with the gdb stub wired in the way softmmu/main.c
 * does it once -s/-gdb are enabled there: build the board, load images,
 * then gdb_serve() instead of sched_run().  The gdb tests run this binary
 * so they do not depend on when main.c learns -gdb; they run the real
 * nxemu too when it accepts -gdb.
 */
#include <stdio.h>

#include "hw/nc2/fdt.h"
#include "nxemu/gdbstub.h"
#include "nxemu/loader.h"
#include "nxemu/machine.h"
#include "softmmu/options.h"

static int fail(GError *err)
{
    fprintf(stderr, "nxemu: %s\n", err ? err->message : "error");
    if (err)
        g_error_free(err);
    return 125;
}

int main(int argc, char **argv)
{
    NxOptions o;
    GError *err = NULL;
    void *fdt = NULL;
    size_t fdt_size = 0;
    MachineConfig cfg;
    BindTable binds;
    int rc;

    if (!nx_options_parse(&o, argc, argv, &err)) {
        nx_options_free(&o);
        return fail(err);
    }
    const char *dev = o.gdb ? o.gdb : "tcp::1234";
    if (!o.gdb && !o.gdb_default) {
        nx_options_free(&o);
        fprintf(stderr, "gdb-harness: give -s or -gdb DEV\n");
        return 125;
    }
    if (!nc2_fdt_build_config(o.dtb, &o.edits, &fdt, &fdt_size, &cfg, &err)) {
        nx_options_free(&o);
        return fail(err);
    }
    Machine *m = machine_new(&cfg, fdt, fdt_size, &err);
    g_free(fdt);
    if (!m) {
        nx_options_free(&o);
        return fail(err);
    }
    m->log.mask = o.log_mask;
    m->sched.has_icount_limit = o.has_icount_limit;
    m->sched.icount_limit = o.icount_limit;
    m->sched.has_cycle_limit = o.has_cycle_limit;
    m->sched.cycle_limit = o.cycle_limit;
    bind_table_init(&binds);
    bool ok = true;
    for (unsigned i = 0; ok && i < o.binds->len; i++) {
        NxBindOpt *b = &g_array_index(o.binds, NxBindOpt, i);
        ok = bind_table_add(&binds, b->var_id, b->addr, "-bind", &err);
    }
    if (ok) {
        LoaderOptions lo = {
            .items = (LoaderItem *)(void *)o.items->data,
            .nr_items = o.items->len,
            .bindings = &binds,
            .fit_config = o.fit_config,
        };
        ok = loader_load(m, &lo, &err);
    }
    bind_table_destroy(&binds);
    if (!ok) {
        machine_free(m);
        nx_options_free(&o);
        return fail(err);
    }
    rc = gdb_serve(m, dev, o.freeze);
    fflush(stdout);
    machine_free(m);
    nx_options_free(&o);
    return rc;
}
