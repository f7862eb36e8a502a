/*
 * The C API of include/nxemu/api.h, for libnxemu.so and the Python package
 * (docs/python.rst).  It drives the same code as nxemu's main and
 * nxemu-tpc-run (tr_execute): options through nx_options_parse, the device
 * tree through nc2_fdt_build_config, images through loader_load, runs
 * through sched_round.  No exit(), no diagnostic printed: GErrors become
 * strings for the caller, the §9.3 lines a returned report.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config-host.h"
#include "hw/nc2/fdt.h"
#include "nxemu-version.h"
#include "nxemu/api.h"
#include "nxemu/error.h"
#include "nxemu/loader.h"
#include "nxemu/sched.h"
#include "softmmu/options.h"
#include "target/seq/seq-tools.h"
#include "target/tpc/asm.h"
#include "target/tpc/cpu.h"
#include "tools/nxemu-tpc-run.h"

struct NxApi {
    Machine *m;
    BindTable binds; /* -bind entries, kept for later loads */
    char *fit_config;
};

static int take_error(GError *e, char **err)
{
    if (err) {
        *err = g_strdup(e ? e->message : "error");
    }
    g_clear_error(&e);
    return NX_EXIT_USAGE;
}

/* Options of nxemu that the API cannot offer: they need a terminal, socket,
 * window or output files of their own. */
static bool refuse(const NxOptions *o, GError **e)
{
    const char *what = o->gdb || o->gdb_default ? "-gdb/-s"
                       : o->freeze              ? "-S"
                       : o->display_sdl         ? "-display"
                       : o->trace_json          ? "-trace-json"
                       : o->coverage            ? "-coverage"
                       : o->poison              ? "-machine poison=on"
                       : o->dump_dtb            ? "-dump-dtb"
                       : o->help || o->version || o->machine_help || o->log_help ||
                               o->help_list
                           ? "-help/-version"
                           : NULL;
    if (what) {
        g_set_error(e, NX_ERROR, NX_ERROR_USAGE, "%s: not offered by the API (run nxemu)", what);
        return false;
    }
    return true;
}

static bool load_items(NxApi *a, const NxOptions *o, GError **e)
{
    if (!nx_options_add_binds(o, &a->binds, e)) {
        return false;
    }
    if (o->fit_config) {
        g_free(a->fit_config);
        a->fit_config = g_strdup(o->fit_config);
    }
    LoaderOptions lo = {
        .items = (LoaderItem *)(void *)o->items->data,
        .nr_items = o->items->len,
        .bindings = &a->binds,
        .fit_config = a->fit_config,
    };
    return o->items->len == 0 || loader_load(a->m, &lo, e);
}

NxApi *nxapi_new(int argc, char **argv, char **err)
{
    NxOptions o;
    GError *e = NULL;
    void *fdt = NULL;
    size_t fdt_size = 0;
    MachineConfig cfg;
    NxApi *a = NULL;

    bool ok = nx_options_parse(&o, argc, argv, &e) && refuse(&o, &e) &&
              nc2_fdt_build_config(o.dtb, &o.edits, &fdt, &fdt_size, &cfg, &e);
    FILE *logf = NULL;
    if (ok && o.logfile && !(logf = fopen(o.logfile, "w"))) {
        g_set_error(&e, NX_ERROR, NX_ERROR_USAGE, "-D: %s: %s", o.logfile, g_strerror(errno));
        ok = false;
    }
    Machine *m = ok ? machine_new(&cfg, fdt, fdt_size, &e) : NULL;
    g_free(fdt);
    if (m) {
        nx_options_apply(m, &o);
        if (logf) {
            m->log.file = logf; /* closed by machine_free */
            logf = NULL;
        }
        a = g_new0(NxApi, 1);
        a->m = m;
        bind_table_init(&a->binds);
        if (!load_items(a, &o, &e)) {
            nxapi_free(a);
            a = NULL;
        }
    }
    if (logf) {
        fclose(logf);
    }
    nx_options_free(&o);
    if (!a) {
        take_error(e, err);
    }
    return a;
}

void nxapi_free(NxApi *a)
{
    if (!a) {
        return;
    }
    machine_free(a->m);
    bind_table_destroy(&a->binds);
    g_free(a->fit_config);
    g_free(a);
}

int nxapi_load(NxApi *a, int argc, char **argv, char **err)
{
    NxOptions o;
    GError *e = NULL;
    bool ok = nx_options_parse(&o, argc, argv, &e);
    /* only images here: machine options belong to nxapi_new */
    if (ok && (o.edits.has_tpc || o.dtb || o.log_mask || o.logfile || o.has_icount_limit ||
               o.has_cycle_limit || o.tpc_strict || o.tpc_timing || o.tpc_hazard_warn)) {
        g_set_error(&e, NX_ERROR, NX_ERROR_USAGE,
                    "load: only -kernel, -device loader, -bind and -fit-config here (machine "
                    "options go to the Machine)");
        ok = false;
    }
    ok = ok && refuse(&o, &e) && load_items(a, &o, &e);
    nx_options_free(&o);
    return ok ? 0 : take_error(e, err);
}

int nxapi_run(NxApi *a, uint64_t cycle_limit, uint64_t icount_limit, char **report)
{
    Machine *m = a->m;
    if (cycle_limit) {
        m->sched.has_cycle_limit = true;
        m->sched.cycle_limit = cycle_limit;
    }
    if (icount_limit) {
        m->sched.has_icount_limit = true;
        m->sched.icount_limit = icount_limit;
    }
    GString *out = g_string_new(NULL);
    if (m->stop_reason == STOP_NONE) {
        sched_run_report(m, out);
    }
    if (report) {
        *report = g_string_free(out, FALSE);
    } else {
        g_string_free(out, TRUE);
    }
    return sched_exit_status(m);
}

int nxapi_mem_rw(NxApi *a, uint64_t addr, void *buf, uint64_t len, int is_write, char **err)
{
    uint64_t bad = 0;
    if (as_rw_bytes(a->m->as, addr, buf, len, is_write != 0,
                    MEMTXATTRS(is_write ? MEM_REQ_LOADER : MEM_REQ_DEBUG, 0), &bad) != MEMTX_OK) {
        if (err) {
            *err = g_strdup_printf("address 0x%" G_GINT64_MODIFIER "x is not memory", bad);
        }
        return NX_EXIT_USAGE;
    }
    return 0;
}

static NxCpu *cpu_of(NxApi *a, int kind, unsigned index)
{
    const Machine *m = a->m;
    if (kind == 0 && index < m->cfg.nr_seq) {
        return m->seq[index];
    }
    if (kind == 1 && index < m->cfg.nr_tpc) {
        return m->tpc[index];
    }
    return NULL;
}

unsigned nxapi_cpu_count(NxApi *a, int kind)
{
    return kind == 0 ? a->m->cfg.nr_seq : kind == 1 ? a->m->cfg.nr_tpc : 0;
}

unsigned nxapi_reg_rw(NxApi *a, int kind, unsigned index, unsigned reg, void *buf, size_t buflen,
                      int is_write)
{
    NxCpu *c = cpu_of(a, kind, index);
    if (!c) {
        return 0;
    }
    if (is_write) {
        return c->ops->gdb_write_reg ? c->ops->gdb_write_reg(c, reg, buf, buflen) : 0;
    }
    return c->ops->gdb_read_reg ? c->ops->gdb_read_reg(c, reg, buf, buflen) : 0;
}

int nxapi_cpu_state(NxApi *a, int kind, unsigned index)
{
    NxCpu *c = cpu_of(a, kind, index);
    return c ? (int)c->state : -1;
}

uint64_t nxapi_vtime(NxApi *a)
{
    return a->m->stop_reason != STOP_NONE ? a->m->sched.end_vtime : a->m->sched.vtime;
}

uint64_t nxapi_icount(NxApi *a)
{
    return a->m->sched.icount;
}

/* ---- TPC kernel launches (tr_execute with in-memory tensors) ---- */

typedef struct ApiIo {
    const TrOptions *o;
    const void *const *inputs;
    void *const *outputs;
} ApiIo;

static bool api_get_input(void *opaque, unsigned i, void **data, GError **err)
{
    ApiIo *io = opaque;
    *data = (void *)io->inputs[i];
    return true;
}

static bool api_put_output(void *opaque, unsigned i, const void *data, GError **err)
{
    ApiIo *io = opaque;
    memcpy(io->outputs[i - io->o->ninputs], data, io->o->tensor[i].bytes);
    return true;
}

int nxapi_tpc_run(int argc, char **argv, const char *launcher, const void *const *inputs,
                  void *const *outputs, uint64_t stats[3], char **report, char **err)
{
    TrOptions o;
    GError *e = NULL;
    int rc;
    if (!tr_parse_args(&o, argc, argv, &e)) {
        tr_options_free(&o);
        return take_error(e, err);
    }
    if (o.help || o.version || o.help_shown) {
        tr_options_free(&o);
        g_set_error(&e, NX_ERROR, NX_ERROR_USAGE, "--help/--version: not offered by the API");
        return take_error(e, err);
    }
    ApiIo aio = {.o = &o, .inputs = inputs, .outputs = outputs};
    TrIo io = {.opaque = &aio, .get_input = api_get_input, .put_output = api_put_output};
    TrResult res;
    GString *rep = g_string_new(NULL);
    memset(&res, 0, sizeof(res));
    res.report = rep;
    rc = tr_execute(&o, launcher, &io, &res, &e);
    if (rc >= 1 && rc <= 122 && !e) {
        g_string_append_printf(rep, "nxemu-tpc-run: launcher failed with code %d (%s)\n", rc,
                               tr_fail_reason(rc));
    }
    if (stats) {
        stats[0] = res.bundles;
        stats[1] = res.cycles;
        stats[2] = res.vtime;
    }
    tr_options_free(&o);
    if (report) {
        *report = g_string_free(rep, FALSE);
    } else {
        g_string_free(rep, TRUE);
    }
    if (e) {
        return take_error(e, err);
    }
    return rc;
}

/* ---- assemblers ---- */

int nxapi_tpc_assemble(const char *name, const char *text, uint8_t **out, size_t *len, char **err)
{
    char *msgs = NULL;
    size_t msglen = 0;
    FILE *ef = open_memstream(&msgs, &msglen);
    if (!ef) {
        if (err) {
            *err = g_strdup_printf("open_memstream: %s", g_strerror(errno));
        }
        return 1;
    }
    TpcObject obj;
    tpc_object_init(&obj);
    bool ok = tpc_assemble_text(name ? name : "<text>", text, &obj, ef);
    fclose(ef);
    if (ok) {
        GByteArray *elf = tpc_elf32_write(&obj);
        *len = elf->len;
        *out = g_byte_array_free(elf, FALSE);
    } else if (err) {
        *err = g_strdup(msgs && *msgs ? g_strchomp(msgs) : "assembly failed");
    }
    free(msgs);
    tpc_object_free(&obj);
    return ok ? 0 : 1;
}

int nxapi_seq_assemble_file(const char *src, const char *out, int raw, char **err)
{
    /* the sequencer assembler reports its lines on stderr */
    fflush(stdout);
    int rc = seq_assemble_file(src, out, raw != 0);
    if (rc != 0 && err) {
        *err = g_strdup_printf("%s: assembly failed (the assembler's messages are on stderr)", src);
    }
    return rc;
}

void nxapi_free_str(void *p)
{
    g_free(p);
}

const char *nxapi_version(void)
{
    return NXEMU_VERSION " (git " NXEMU_GIT_REV ")";
}
