/*
 * The C API of include/nxemu/api.h, for libnxemu.so and the Python package
 * (docs/python.rst).  It drives the same code as nxemu's main and
 * nxemu-tpc-run (tr_execute): options through nx_options_parse, the device
 * tree through nc2_fdt_build_config, images through loader_load, runs
 * through sched_round.  No exit(), no diagnostic printed: GErrors become
 * strings for the caller, the §9.3 lines a returned report.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config-host.h"
#include "hw/nc2/fdt.h"
#include "nxemu-version.h"
#include "nxemu/api.h"
#include "nxemu/board-if.h"
#include "nxemu/error.h"
#include "nxemu/loader.h"
#include "nxemu/sched.h"
#include "nxemu/signal.h"
#include "nxemu/tpc-race.h"
#include "softmmu/options.h"
#include "target/seq/seq-tools.h"
#include "target/tpc/asm.h"
#include "target/tpc/cpu.h"
#include "api/tpc-run.h"

struct NxApi {
    Machine *m;
    BindTable binds; /* -bind entries, kept for later loads */
    char *fit_config;
    GString *console; /* the test device's console bytes (board_set_serial) */
    TpcRace *race;    /* -tpc-race: races between TPCs, at each TPC's next launch */
};

/* SIGINT during a run: the scheduler stops at the next round boundary
 * (every core at an instruction boundary, softmmu/signal.h) and the caller
 * gets NXAPI_INTERRUPTED; the interpreter's own handler is back afterwards.
 * A second SIGINT before the round ends only repeats the request. */
static void api_on_sigint(int sig)
{
    nx_signal_caught = sig;
}

typedef struct ApiSig {
    struct sigaction old;
    bool installed;
} ApiSig;

static void api_sig_install(ApiSig *s)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = api_on_sigint;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    nx_signal_caught = 0;
    s->installed = sigaction(SIGINT, &sa, &s->old) == 0;
}

static void api_sig_restore(ApiSig *s)
{
    if (s->installed)
        sigaction(SIGINT, &s->old, NULL);
    nx_signal_caught = 0;
}

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
                       : o->help || o->version || o->machine_help || o->log_help || o->help_list
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
        a->race = tpc_race_new(m, o.tpc_race);
        a->console = g_string_new(NULL);
        board_set_serial(m, &(NxSerial){.buf = a->console});
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
    tpc_race_free(a->race);
    machine_free(a->m);
    if (a->console)
        g_string_free(a->console, TRUE);
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

static int finish(Machine *m, char **report, GString *out)
{
    if (report) {
        *report = g_string_free(out, FALSE);
    } else {
        g_string_free(out, TRUE);
    }
    return sched_exit_status(m);
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
    return finish(m, report, out);
}

int nxapi_run_for(NxApi *a, uint64_t cycle_limit, uint64_t icount, char **report)
{
    Machine *m = a->m;
    Sched *s = &m->sched;
    GString *out = g_string_new(NULL);
    if (m->stop_reason != STOP_NONE) {
        return finish(m, report, out); /* ended: stays ended */
    }
    if (cycle_limit) {
        s->has_cycle_limit = true;
        s->cycle_limit = cycle_limit;
    }
    /* a pause after `icount` more instructions: an icount limit of our own
     * (the machine's own -icount-limit, if nearer, still ends the run) */
    bool own_has = s->has_icount_limit;
    uint64_t own_limit = s->icount_limit, target = s->icount + icount;
    bool pause = icount && (!own_has || target < own_limit);
    if (pause) {
        s->has_icount_limit = true;
        s->icount_limit = target;
    }
    ApiSig sig;
    api_sig_install(&sig);
    StopReason r;
    while ((r = sched_rounds(m, s->slice_rounds)) == STOP_NONE) {
    }
    int caught = nx_signal_caught;
    api_sig_restore(&sig);
    if (pause) {
        s->has_icount_limit = own_has;
        s->icount_limit = own_limit;
    }
    if (r == STOP_LIMIT && pause && s->icount_reached && s->icount >= target) {
        /* our pause, at the end of the round it fell in: the machine goes
         * on from the next round (the round's end checks before the limit,
         * normal end and deadlock, found nothing) */
        s->icount_reached = false;
        m->stop_reason = STOP_NONE;
        s->vtime += s->quantum;
        if (!(s->has_cycle_limit && s->vtime >= s->cycle_limit)) {
            g_string_free(out, TRUE);
            if (report)
                *report = g_strdup("");
            return NXAPI_PAUSED;
        }
        m->stop_reason = STOP_LIMIT;
        s->end_vtime = s->vtime;
    }
    if (r == STOP_SIGNAL && caught == SIGINT) {
        /* between rounds: the machine can go on */
        m->stop_reason = STOP_NONE;
        m->stop_signal = 0;
        g_string_printf(out,
                        "nxemu: interrupted (SIGINT): icount=%" G_GUINT64_FORMAT
                        " vtime=%" G_GUINT64_FORMAT "\n",
                        s->icount, s->vtime);
        if (report) {
            *report = g_string_free(out, FALSE);
        } else {
            g_string_free(out, TRUE);
        }
        return NXAPI_INTERRUPTED;
    }
    fflush(stdout);
    sched_report(m, out);
    sched_log_end(m);
    return finish(m, report, out);
}

int nxapi_ended(NxApi *a)
{
    return a->m->stop_reason != STOP_NONE && a->m->stop_reason != STOP_DEBUG;
}

char *nxapi_console(NxApi *a)
{
    char *s = g_strndup(a->console->str, a->console->len);
    g_string_truncate(a->console, 0);
    return s;
}

int nxapi_mem_rw(NxApi *a, uint64_t addr, void *buf, uint64_t len, int is_write, char **err)
{
    uint64_t bad = 0;
    if (!as_is_ram(a->m->as, addr, len, 0) && (len == 4 || len == 8) && addr % len == 0) {
        /* a device register: the access a sequencer's store or load would
         * make, side effects included (a TPC window's launch) */
        uint64_t v = 0;
        MemTxResult r;
        if (is_write) {
            memcpy(&v, buf, len);
            r = as_write(a->m->as, addr, (unsigned)len, v, MEMTXATTRS(MEM_REQ_SEQ, 0));
        } else {
            r = as_read(a->m->as, addr, (unsigned)len, &v, MEMTXATTRS(MEM_REQ_SEQ, 0));
            memcpy(buf, &v, len);
        }
        if (r == MEMTX_OK) {
            return 0;
        }
        if (err) {
            *err = g_strdup_printf("address 0x%" G_GINT64_MODIFIER "x: the device refused the "
                                   "%" G_GUINT64_FORMAT "-byte %s",
                                   addr, len, is_write ? "write" : "read");
        }
        return NX_EXIT_USAGE;
    }
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
                  void *const *outputs, uint64_t stats[8], char **report, char **err)
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
    ApiSig sig;
    api_sig_install(&sig);
    rc = tr_execute(&o, launcher, &io, &res, &e);
    api_sig_restore(&sig);
    if (rc >= 1 && rc <= 122 && !e && !(o.check == 2 && rc == TR_EXIT_CHECK) &&
        !(o.race == 2 && rc == TR_EXIT_RACE)) {
        g_string_append_printf(rep, "nxemu-tpc-run: launcher failed with code %d (%s)\n", rc,
                               tr_fail_reason(rc));
    }
    if (stats) {
        stats[0] = res.bundles;
        stats[1] = res.cycles;
        stats[2] = res.vtime;
        stats[3] = res.stalls;
        stats[4] = res.hazards;
        stats[5] = res.threads;
        stats[6] = res.stretches;
        stats[7] = res.reruns;
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
    if (ok && err) {
        /* the warnings of a successful assembly, or NULL */
        *err = msgs && *msgs ? g_strdup(g_strchomp(msgs)) : NULL;
    }
    free(msgs);
    tpc_object_free(&obj);
    return ok ? 0 : 1;
}

int nxapi_seq_assemble_file(const char *src, const char *out, int raw, char **err)
{
    char *msgs = NULL;
    size_t msglen = 0;
    FILE *ef = open_memstream(&msgs, &msglen);
    int rc = seq_assemble_file_to(src, out, raw != 0, ef ? ef : stderr);
    if (ef) {
        fclose(ef);
    }
    if (rc != 0 && err) {
        *err = g_strdup(msgs && *msgs ? g_strchomp(msgs) : "assembly failed");
    }
    free(msgs);
    return rc;
}

/* Where this library's own data lives: the build tree keeps launcher.elf in
 * pc-bios/ beside python/, an installed tree in DATADIR/nxemu (compiled in,
 * and also looked up relative to the library, for a DESTDIR or moved
 * prefix: lib/ or lib/<multiarch>/ up to share/nxemu). */
char *nxapi_launcher_path(void)
{
    Dl_info info;
    char *found = NULL;
    char *dir = NULL;
    if (dladdr((void *)nxapi_launcher_path, &info) && info.dli_fname && *info.dli_fname) {
        char *real = realpath(info.dli_fname, NULL);
        dir = g_path_get_dirname(real ? real : info.dli_fname);
        free(real);
    }
    char *cand[] = {
        dir ? g_build_filename(dir, "..", "pc-bios", "launcher.elf", NULL) : NULL,
        dir ? g_build_filename(dir, "..", "share", "nxemu", "launcher.elf", NULL) : NULL,
        dir ? g_build_filename(dir, "..", "..", "share", "nxemu", "launcher.elf", NULL) : NULL,
#ifdef NXAPI_DATADIR
        g_build_filename(NXAPI_DATADIR, "launcher.elf", NULL),
#endif
    };
    for (size_t i = 0; i < G_N_ELEMENTS(cand); i++) {
        if (!found && cand[i] && g_file_test(cand[i], G_FILE_TEST_IS_REGULAR)) {
            found = cand[i];
        } else {
            g_free(cand[i]);
        }
    }
    g_free(dir);
    return found;
}

void nxapi_free_str(void *p)
{
    g_free(p);
}

const char *nxapi_version(void)
{
    return NXEMU_VERSION " (git " NXEMU_GIT_REV ")";
}
