/*
 * nxemu-tpc-run command line: options, tensor specs FILE:SHAPE:DTYPE[@ADDR],
 * scalar arguments, and the placement of tensors in HBM.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "api/tpc-run.h"
#include "nxemu/tpc-race.h"
#include "nxemu/error.h"
#include "nxemu/log.h"
#include "softmmu/options.h"

const char tr_usage[] =
    "usage: nxemu-tpc-run -k KERNEL.o --index-space S0[,S1,...] [options]\n"
    "  -k, --kernel FILE        TPC kernel ELF (nxemu-as -t tpc or the vendor toolchain)\n"
    "  -n, --tpcs N             run on TPCs 0..N-1 (default 1)\n"
    "  --index-space S0,...     index-space sizes, dim 0 first (up to 5)\n"
    "  --index-base B0,...      index-space bases (default 0)\n"
    "  -i FILE:SHAPE:DTYPE[@ADDR]  input tensor (raw little-endian file)\n"
    "  -o FILE:SHAPE:DTYPE[@ADDR]  output tensor (written after the run)\n"
    "                           SHAPE = d0xd1x... (dim 0 innermost), DTYPE = f32, bf16,\n"
    "                           i32, u32, i16, u16, i8, u8; tensors are descriptors\n"
    "                           0..T-1, inputs first, then outputs, in the order given\n"
    "  --descriptors D0,...     descriptor of each -i/-o tensor in that order instead\n"
    "                           (a permutation of 0..T-1: an input after an output)\n"
    "  --arg N                  next scalar argument (integer, KERNEL_SRF_i)\n"
    "  --farg F                 next scalar argument (f32)\n"
    "  --kernel-config V        KERNEL_CONFIG (default 0)\n"
    "  --sem S                  completion semaphore (default 0)\n"
    "  -M, --machine KEY=VAL,... machine edits as for nxemu (tpc= defaults to N)\n"
    "  --dtb FILE               machine device tree (default: built-in)\n"
    "  --launcher FILE          launcher ELF (default: next to the binary)\n"
    "  --cycle-limit N          stop after N cycles (exit 123)\n"
    "  -d, --log ITEM,...       log items as for nxemu (in_asm, exec, cpu, int, ...; -d help)\n"
    "  -D, --logfile FILE       write the log to FILE instead of stderr (as it goes)\n"
    "  --time                   also print the host CPU seconds of the run itself\n"
    "  --stats                  also print per TPC the bundles by path (direct/staged)\n"
    "                           and the host seconds spent running it\n"
    "  --tpc-timing MODE        functional (default), interlocked or exposed pipeline\n"
    "                           (docs/timing.rst)\n"
    "  --tpc-hazard-warn        report reads before their producer's latency, once per PC\n"
    "  --race MODE              races between TPCs: warn (default), fault (exit 122), off\n"
    "  --threads N              run the TPCs on N host threads (default: the host's\n"
    "                           cores, at most N TPCs; 1: one thread; docs/tpc-run.rst)\n"
    "  --check[=fatal]          checking mode: tensor accesses with no element in their\n"
    "                           tensor, TPC accesses outside every tensor, writes into\n"
    "                           inputs, output elements no TPC wrote, once per PC;\n"
    "                           =fatal: any of them makes the exit status 121\n"
    "  --profile FILE           write per-TPC cycles, stalls and their producers, loops,\n"
    "                           hot spots and an annotated disassembly\n"
    "  --profile-json FILE      the same profile as JSON\n"
    "  --profile-trace FILE     the profile over time as Perfetto counter tracks (JSON)\n"
    "  -gdb DEV                 serve gdb on DEV (tcp::PORT, unix:PATH), as nxemu does\n"
    "  -s                       shorthand for -gdb tcp::1234\n"
    "  -S                       start stopped, before the launcher's first instruction\n"
    "                           (with -s, -gdb or -monitor stdio): TPC inferiors can\n"
    "                           break at bundle 0\n"
    "  -monitor stdio           nxemu's monitor commands on standard input while the\n"
    "                           run goes (info cores, xp, disas, stop, cont, quit)\n"
    "  --replay-budget N        refuse gdb reverse commands re-executing more than N\n"
    "                           steps (default 1000000000; 0: no reverse commands), as nxemu\n"
    "  --replay-memory SIZE     memory of the snapshots reverse commands re-execute from\n"
    "                           (default 512M; 0: none), as nxemu -replay-memory\n"
    "  --replay-every N         steps between two snapshots at first (default 8388608)\n"
    "  --display sdl[,OPT,...]  the memory viewer, as nxemu -display (docs/viewer.rst)\n"
    "  --screendump-at-exit FILE.png  with --display sdl: the viewer's picture of the\n"
    "                           end, then exit (no window to close)\n"
    "  -h, --help               this text\n"
    "  --version                print the version (and git revision) and exit\n"
    "Long options take one dash or two (-cycle-limit, --cycle-limit), as in nxemu;\n"
    "--name=VALUE works too.\n";

static const TrDtype dtypes[] = {
    {"f32", 4, 2}, {"bf16", 2, 1}, {"i32", 4, 2}, {"u32", 4, 2},
    {"i16", 2, 1}, {"u16", 2, 1},  {"i8", 1, 0},  {"u8", 1, 0},
};

static bool usage(GError **err, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static bool usage(GError **err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_set_error_literal(err, NX_ERROR, NX_ERROR_USAGE, msg);
    g_free(msg);
    return false;
}

static bool parse_u32(const char *s, uint32_t *out)
{
    uint64_t v;
    if (!nx_parse_u64(s, &v) || v > UINT32_MAX) {
        return false;
    }
    *out = (uint32_t)v;
    return true;
}

/* "a,b,c" -> up to TR_MAX_DIMS u32 values. */
static bool parse_list(const char *opt, const char *s, uint32_t *v, unsigned *n, GError **err)
{
    char **parts = g_strsplit(s, ",", -1);
    unsigned cnt = g_strv_length(parts);
    bool ok = cnt >= 1 && cnt <= TR_MAX_DIMS;
    if (!ok) {
        g_strfreev(parts);
        return usage(err, "%s: '%s': expected 1 to %d comma-separated values", opt, s, TR_MAX_DIMS);
    }
    for (unsigned i = 0; i < cnt; i++) {
        if (!parse_u32(parts[i], &v[i])) {
            usage(err, "%s: '%s' is not a 32-bit unsigned number", opt, parts[i]);
            g_strfreev(parts);
            return false;
        }
    }
    *n = cnt;
    g_strfreev(parts);
    return true;
}

/* --descriptors D0,D1,...: up to TR_MAX_TENSORS numbers (checked against
 * the tensors once all are parsed). */
static bool parse_descriptors(const char *opt, const char *s, TrOptions *o, GError **err)
{
    char **parts = g_strsplit(s, ",", -1);
    unsigned cnt = g_strv_length(parts);
    bool ok = cnt >= 1 && cnt <= TR_MAX_TENSORS;
    for (unsigned i = 0; ok && i < cnt; i++) {
        ok = parse_u32(parts[i], &o->desc[i]) && o->desc[i] < TR_MAX_TENSORS;
    }
    g_strfreev(parts);
    if (!ok) {
        return usage(err, "%s: '%s': expected 1 to %d descriptor numbers 0..%d", opt, s,
                     TR_MAX_TENSORS, TR_MAX_TENSORS - 1);
    }
    o->ndesc = cnt;
    return true;
}

/* FILE:SHAPE:DTYPE[@ADDR]; the file name may itself contain ':' (split from the right). */
static bool parse_tensor(const char *opt, const char *spec, bool output, TrTensor *t, GError **err)
{
    char *s = g_strdup(spec);
    char *c2 = strrchr(s, ':');
    char *c1 = NULL;
    if (c2) {
        *c2 = '\0';
        c1 = strrchr(s, ':');
    }
    if (!c1 || c1 == s) {
        g_free(s);
        return usage(err, "%s %s: expected FILE:SHAPE:DTYPE[@ADDR]", opt, spec);
    }
    *c1 = '\0';
    char *shape = c1 + 1, *dt = c2 + 1, *at = strchr(dt, '@');
    memset(t, 0, sizeof(*t));
    t->output = output;
    if (at) {
        *at = '\0';
        if (!nx_parse_u64(at + 1, &t->addr)) {
            usage(err, "%s %s: bad address '%s'", opt, spec, at + 1);
            goto fail;
        }
        t->has_addr = true;
    }
    for (size_t i = 0; i < G_N_ELEMENTS(dtypes); i++) {
        if (!g_ascii_strcasecmp(dt, dtypes[i].name)) {
            t->dtype = &dtypes[i];
        }
    }
    if (!t->dtype) {
        usage(err, "%s %s: unknown data type '%s' (f32, bf16, i32, u32, i16, u16, i8, u8)", opt,
              spec, dt);
        goto fail;
    }
    if (t->has_addr && t->addr % t->dtype->size) {
        usage(err, "%s %s: address 0x%" G_GINT64_MODIFIER "x is not aligned to the element size",
              opt, spec, t->addr);
        goto fail;
    }
    char **dims = g_strsplit(shape, "x", -1);
    unsigned rank = g_strv_length(dims);
    uint64_t elems = 1;
    bool ok = rank >= 1 && rank <= TR_MAX_DIMS;
    for (unsigned d = 0; ok && d < rank; d++) {
        ok = parse_u32(dims[d], &t->dim[d]) && t->dim[d] >= 1;
        elems *= ok ? t->dim[d] : 1;
        /* strides are i32 element counts (tpc.md §10.4) */
        ok = ok && elems <= INT32_MAX;
    }
    g_strfreev(dims);
    if (!ok) {
        usage(err, "%s %s: bad shape '%s' (d0xd1x..., 1 to 5 sizes >= 1, < 2^31 elements)", opt,
              spec, shape);
        goto fail;
    }
    t->rank = rank;
    t->bytes = elems * t->dtype->size;
    t->file = g_strdup(s);
    t->spec = g_strdup(spec);
    g_free(s);
    return true;
fail:
    g_free(s);
    return false;
}

static bool parse_arg(const char *opt, const char *val, bool is_float, TrOptions *o, GError **err)
{
    if (o->narg >= TR_MAX_ARGS) {
        return usage(err, "%s: more than %d scalar arguments", opt, TR_MAX_ARGS);
    }
    if (is_float) {
        char *end;
        errno = 0;
        double d = g_ascii_strtod(val, &end);
        if (!*val || *end) {
            return usage(err, "%s: '%s' is not a number", opt, val);
        }
        float f = (float)d;
        memcpy(&o->arg[o->narg++], &f, 4);
        return true;
    }
    char *end;
    errno = 0;
    long long v = strtoll(val, &end, 0);
    if (!*val || *end || errno || v < INT32_MIN || v > (long long)UINT32_MAX) {
        return usage(err, "%s: '%s' is not a 32-bit integer", opt, val);
    }
    o->arg[o->narg++] = (uint32_t)v;
    return true;
}

/* --display through nxemu's own -display parser (the same suboptions and
 * messages); "none" leaves the viewer off.  The data region is checked when
 * the viewer opens, as in nxemu. */
static bool parse_display(TrOptions *o, const char *v, GError **err)
{
    NxOptions no;
    char *argv[] = {"nxemu", "-display", (char *)v, NULL};
    bool ok = nx_options_parse(&no, 3, argv, err);
    g_free(o->display);
    o->display = ok && no.display_sdl ? g_strdup(v) : NULL;
    nx_options_free(&no);
    return ok;
}

/* Long options take one or two dashes, as in nxemu (-machine, --machine,
 * -cycle-limit, --cycle-limit): a = the option as typed, canon = "--name". */
static bool opt_is(const char *a, const char *canon)
{
    return !strcmp(a, canon) || (canon[1] == '-' && !strcmp(a, canon + 1));
}

bool tr_parse_args(TrOptions *o, int argc, char **argv, GError **err)
{
    TrTensor outs[TR_MAX_TENSORS];
    unsigned nout = 0;
    bool ok = true;

    memset(o, 0, sizeof(*o));
    o->ntpc = 1;
    o->race = 1;
    o->replay_budget = NX_REPLAY_BUDGET_DEFAULT; /* as nxemu's -replay-budget */
    o->replay_memory = NX_REPLAY_MEMORY_DEFAULT;
    o->replay_every = NX_REPLAY_EVERY_DEFAULT;
    for (int i = 1; ok && i < argc; i++) {
        g_autofree char *name = g_strdup(argv[i]);
        const char *a = name, *inline_val = NULL;
        char *eq = strchr(name, '=');
        if (eq && name[0] == '-' && strlen(name) > 2 && eq > name + 2) {
            *eq = '\0'; /* --name=value, -name=value */
            inline_val = eq + 1;
        }
        if (!inline_val && (!strcmp(a, "-h") || opt_is(a, "--help"))) {
            o->help = true;
            continue;
        }
        if (!inline_val && opt_is(a, "--version")) {
            o->version = true;
            continue;
        }
        if (!inline_val && opt_is(a, "--time")) {
            o->time = true;
            continue;
        }
        if (!inline_val && opt_is(a, "--stats")) {
            o->stats = true;
            continue;
        }
        if (opt_is(a, "--check")) {
            if (!inline_val || !strcmp(inline_val, "warn")) {
                o->check = 1;
            } else if (!strcmp(inline_val, "fatal")) {
                o->check = 2;
            } else if (!strcmp(inline_val, "off")) {
                o->check = 0;
            } else {
                ok = usage(err, "--check=%s: expected warn, fatal or off", inline_val);
                break;
            }
            continue;
        }
        if (!inline_val && opt_is(a, "--tpc-hazard-warn")) {
            o->hazard_warn = true;
            continue;
        }
        if (!inline_val && !strcmp(a, "-s")) {
            o->gdb_default = true;
            continue;
        }
        if (!inline_val && !strcmp(a, "-S")) {
            o->freeze = true;
            continue;
        }
        static const char *const with_val[] = {"-k",
                                               "--kernel",
                                               "-n",
                                               "--tpcs",
                                               "--index-space",
                                               "--index-base",
                                               "-i",
                                               "-o",
                                               "--arg",
                                               "--farg",
                                               "--kernel-config",
                                               "--sem",
                                               "-M",
                                               "--machine",
                                               "--dtb",
                                               "--launcher",
                                               "--cycle-limit",
                                               "-d",
                                               "--log",
                                               "-D",
                                               "--logfile",
                                               "--gdb",
                                               "--tpc-timing",
                                               "--threads",
                                               "--race",
                                               "--profile",
                                               "--profile-json",
                                               "--profile-trace",
                                               "--display",
                                               "--screendump-at-exit",
                                               "--replay-budget",
                                               "--replay-memory",
                                               "--replay-every",
                                               "--descriptors",
                                               "--monitor"};
        bool known = false;
        for (size_t k = 0; k < G_N_ELEMENTS(with_val); k++) {
            known |= opt_is(a, with_val[k]);
        }
        if (!known) {
            ok = usage(err, "unknown option '%s' (try --help)", argv[i]);
            break;
        }
        if (!inline_val && i + 1 >= argc) {
            ok = usage(err, "%s: missing value", a);
            break;
        }
        const char *v = inline_val ? inline_val : argv[++i];
        if (!strcmp(a, "-k") || opt_is(a, "--kernel")) {
            g_free(o->kernel);
            o->kernel = g_strdup(v);
        } else if (!strcmp(a, "-n") || opt_is(a, "--tpcs")) {
            if (!parse_u32(v, &o->ntpc) || o->ntpc < 1 || o->ntpc > 64) {
                ok = usage(err, "%s: '%s': expected a TPC count 1..64", a, v);
            }
            o->has_ntpc = true;
        } else if (opt_is(a, "--race")) {
            if (!tpc_race_parse(v, &o->race)) {
                ok = usage(err, "%s: '%s': off, warn or fault", a, v);
            }
        } else if (opt_is(a, "--threads")) {
            if (!parse_u32(v, &o->threads) || o->threads < 1 || o->threads > 1024) {
                ok = usage(err, "%s: '%s': expected a thread count 1..1024", a, v);
            }
        } else if (opt_is(a, "--index-space")) {
            ok = parse_list(a, v, o->space, &o->nspace, err);
        } else if (opt_is(a, "--index-base")) {
            ok = parse_list(a, v, o->base, &o->nbase, err);
        } else if (opt_is(a, "--descriptors")) {
            ok = parse_descriptors(a, v, o, err);
        } else if (!strcmp(a, "-i") || !strcmp(a, "-o")) {
            bool out = a[1] == 'o';
            if (o->ntensor + nout >= TR_MAX_TENSORS) {
                ok = usage(err, "%s %s: more than %d tensors", a, v, TR_MAX_TENSORS);
            } else if (out) {
                ok = parse_tensor(a, v, true, &outs[nout], err);
                nout += ok;
            } else {
                ok = parse_tensor(a, v, false, &o->tensor[o->ntensor], err);
                o->ntensor += ok;
            }
        } else if (opt_is(a, "--arg") || opt_is(a, "--farg")) {
            ok = parse_arg(a, v, opt_is(a, "--farg"), o, err);
        } else if (opt_is(a, "--kernel-config")) {
            if (!parse_u32(v, &o->kernel_config)) {
                ok = usage(err, "%s: '%s' is not a 32-bit number", a, v);
            }
        } else if (opt_is(a, "--sem")) {
            if (!parse_u32(v, &o->sem) || o->sem > 255) {
                ok = usage(err, "%s: '%s': expected a semaphore index 0..255", a, v);
            }
        } else if (opt_is(a, "--machine") || !strcmp(a, "-M")) {
            g_free(o->machine);
            o->machine = g_strdup(v);
        } else if (opt_is(a, "--dtb")) {
            g_free(o->dtb);
            o->dtb = g_strdup(v);
        } else if (opt_is(a, "--launcher")) {
            g_free(o->launcher);
            o->launcher = g_strdup(v);
        } else if (!strcmp(a, "-d") || opt_is(a, "--log")) {
            /* false without an error: "help" printed the item list */
            GError *local = NULL;
            uint32_t mask = 0;
            if (!nx_log_parse_hidden(v, NX_LOG_COMMIT | NX_LOG_STATS, &mask, &local)) {
                ok = local == NULL;
                o->help_shown = ok;
                if (local) {
                    g_propagate_error(err, local);
                }
            } else if (mask & (NX_LOG_COMMIT | NX_LOG_STATS)) {
                /* they come from nxemu's trace layer, which the runner does not set up */
                ok = usage(err,
                           "-d %s: commit and stats need nxemu's trace layer; run the "
                           "kernel with nxemu for them",
                           v);
            }
            o->log_mask |= mask;
        } else if (!strcmp(a, "-D") || opt_is(a, "--logfile")) {
            g_free(o->logfile);
            o->logfile = g_strdup(v);
        } else if (opt_is(a, "--gdb")) {
            g_free(o->gdb);
            o->gdb = g_strdup(v);
        } else if (opt_is(a, "--monitor")) {
            /* nxemu's -monitor stdio|none (softmmu/monitor-stdio.c) */
            if (!strcmp(v, "stdio") || !strcmp(v, "none")) {
                o->monitor_stdio = !strcmp(v, "stdio");
            } else {
                ok = usage(err, "%s: '%s': stdio or none", a, v);
            }
        } else if (opt_is(a, "--display")) {
            ok = parse_display(o, v, err);
        } else if (opt_is(a, "--screendump-at-exit")) {
            g_free(o->screendump_at_exit);
            o->screendump_at_exit = g_strdup(v);
        } else if (opt_is(a, "--profile")) {
            g_free(o->profile);
            o->profile = g_strdup(v);
        } else if (opt_is(a, "--profile-json")) {
            g_free(o->profile_json);
            o->profile_json = g_strdup(v);
        } else if (opt_is(a, "--profile-trace")) {
            g_free(o->profile_trace);
            o->profile_trace = g_strdup(v);
        } else if (opt_is(a, "--tpc-timing")) {
            if (!tpc_timing_parse(v, &o->timing)) {
                ok = usage(err, "%s: unknown mode '%s' (functional, interlocked or exposed)", a, v);
            }
        } else if (opt_is(a, "--replay-budget")) {
            if (!nx_parse_u64(v, &o->replay_budget)) {
                ok = usage(err, "%s: '%s' is not a number", a, v);
            }
        } else if (opt_is(a, "--replay-memory")) {
            if (!nx_parse_size(v, &o->replay_memory)) {
                ok = usage(err, "%s: '%s' is not a size (e.g. 512M, 0: none)", a, v);
            }
        } else if (opt_is(a, "--replay-every")) {
            if (!nx_parse_u64(v, &o->replay_every) || !o->replay_every) {
                ok = usage(err, "%s: '%s' is not a number of steps (at least 1)", a, v);
            }
        } else if (opt_is(a, "--cycle-limit")) {
            if (!nx_parse_u64(v, &o->cycle_limit)) {
                ok = usage(err, "%s: '%s' is not a number", a, v);
            }
            o->has_cycle_limit = true;
        }
    }
    o->ninputs = o->ntensor;
    for (unsigned k = 0; k < nout; k++) {
        o->tensor[o->ntensor++] = outs[k];
    }
    if (ok && o->ndesc) {
        uint32_t seen = 0;
        for (unsigned t = 0; t < o->ndesc; t++) {
            seen |= o->desc[t] < o->ntensor ? 1u << o->desc[t] : 0;
        }
        if (o->ndesc != o->ntensor || seen != (1u << o->ntensor) - 1u) {
            return usage(err, "--descriptors: expected a permutation of 0..%u (one per -i/-o)",
                         o->ntensor ? o->ntensor - 1 : 0);
        }
    }
    if (!ok || o->help || o->help_shown || o->version) {
        return ok;
    }
    if (!o->kernel) {
        return usage(err, "no kernel given (-k FILE)");
    }
    if (o->freeze && !o->gdb && !o->gdb_default && !o->monitor_stdio) {
        return usage(err, "-S: needs -s, -gdb or -monitor stdio (something to continue from)");
    }
    if (o->monitor_stdio && (o->gdb || o->gdb_default || o->display)) {
        return usage(err, "-monitor stdio: not with %s (%s)", o->display ? "--display" : "-s/-gdb",
                     o->display ? "the window's keys" : "gdb's 'monitor' runs the same commands");
    }
    if (o->screendump_at_exit && !o->display) {
        return usage(err, "--screendump-at-exit: needs --display sdl");
    }
    if (!o->nspace) {
        return usage(err, "no index space given (--index-space S0[,S1,...])");
    }
    if (o->nbase > o->nspace) {
        return usage(err, "--index-base has %u values but --index-space only %u", o->nbase,
                     o->nspace);
    }
    return true;
}

void tr_options_free(TrOptions *o)
{
    for (unsigned i = 0; i < o->ntensor; i++) {
        g_free(o->tensor[i].file);
        g_free(o->tensor[i].spec);
    }
    g_free(o->kernel);
    g_free(o->launcher);
    g_free(o->machine);
    g_free(o->dtb);
    g_free(o->logfile);
    g_free(o->gdb);
    g_free(o->profile);
    g_free(o->profile_json);
    g_free(o->profile_trace);
    g_free(o->display);
    g_free(o->screendump_at_exit);
}

static bool overlaps(uint64_t a, uint64_t alen, uint64_t b, uint64_t blen)
{
    return a < b + blen && b < a + alen;
}

bool tr_place_tensors(TrOptions *o, uint64_t hbm_top, GError **err)
{
    /* Explicit addresses first: not in the runner's area, not on each other. */
    for (unsigned i = 0; i < o->ntensor; i++) {
        TrTensor *t = &o->tensor[i];
        if (!t->has_addr) {
            continue;
        }
        if (overlaps(t->addr, t->bytes, TR_LAUNCHER_BASE, TR_TENSOR_BASE - TR_LAUNCHER_BASE)) {
            return usage(err,
                         "%s: overlaps the runner's area [0x%llx, 0x%llx) (launcher, parameter "
                         "block, kernel)",
                         t->spec, TR_LAUNCHER_BASE, TR_TENSOR_BASE);
        }
        for (unsigned j = 0; j < i; j++) {
            TrTensor *u = &o->tensor[j];
            if (u->has_addr && overlaps(t->addr, t->bytes, u->addr, u->bytes)) {
                return usage(err, "%s: overlaps %s", t->spec, u->spec);
            }
        }
    }
    /* Then the others, in descriptor order, skipping explicit ranges. */
    uint64_t cur = TR_TENSOR_BASE;
    for (unsigned i = 0; i < o->ntensor; i++) {
        TrTensor *t = &o->tensor[i];
        if (t->has_addr) {
            continue;
        }
        bool moved = true;
        while (moved) {
            moved = false;
            cur = (cur + TR_TENSOR_ALIGN - 1) & ~(TR_TENSOR_ALIGN - 1);
            for (unsigned j = 0; j < o->ntensor; j++) {
                TrTensor *u = &o->tensor[j];
                if ((u->has_addr || j < i) && j != i &&
                    overlaps(cur, t->bytes, u->addr, u->bytes)) {
                    cur = u->addr + u->bytes;
                    moved = true;
                }
            }
        }
        if (cur + t->bytes > hbm_top) {
            return usage(err,
                         "%s: does not fit in HBM below 0x%" G_GINT64_MODIFIER "x "
                         "(use -machine hbm=SIZE)",
                         t->spec, hbm_top);
        }
        t->addr = cur;
        cur += t->bytes;
    }
    return true;
}
