/*
 * Command-line parsing.  QEMU spells long options with one dash (-machine),
 * GOption with two: argv is first normalised against our own option table,
 * which also catches unknown options and missing arguments with a clear
 * message, so GOption only ever sees well-formed "--name=value" arguments.
 * Every option is a callback, which keeps -kernel/-device/-bind in
 * command-line order and lets each value be checked where it is parsed.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nxemu/tpc-race.h"
#include "nxemu/error.h"
#include "nxemu/log.h"
#include "softmmu/options.h"

typedef struct OptDesc {
    const char *name; /* long name, used with one or two dashes */
    char short_name;  /* 0 = none */
    bool has_arg;
    const char *arg_desc;
    const char *help;
} OptDesc;

static const OptDesc opt_table[] = {
    {"machine", 'M', true, "nc2[,key=val...]|help",
     "machine and its edits: hbm=SIZE,seq=N,tpc=N,tlb=N,quantum=N,dma=N,gmem-latency=N,"
     "gmem-bpc=N,hbm-bpc=N,dma-bpc=N,sram-latency=N,poison=on|off,dumpdtb=FILE"},
    {"memory", 'm', true, "[size=]SIZE", "HBM size as in QEMU: MiB, or a B/K/M/G/T suffix"},
    {"smp", 0, true, "seq=N,tpc=M", "number of sequencers and TPCs"},
    {"dtb", 0, true, "FILE", "machine device tree (default: built-in nc2 tree)"},
    {"dump-dtb", 0, true, "FILE", "write the effective device tree to FILE and exit"},
    {"kernel", 0, true, "FILE", "sequencer ELF or FIT image for core 0"},
    {"device", 0, true, "loader,...",
     "generic loader: file=F[,addr=A][,cpu-num=N][,tpc-num=M] "
     "or addr=A,data=V,data-len=L"},
    {"bind", 0, true, "VAR=ADDR", "binding table entry"},
    {"cpu", 0, true, "help", "list the machine's core types"},
    {"fit-config", 0, true, "NAME", "FIT configuration to load"},
    {"log", 'd', true, "ITEM,...", "enable log items (-d help lists them)"},
    {"logfile", 'D', true, "FILE", "write the log to FILE instead of stderr"},
    {"trace-json", 0, true, "FILE",
     "write a Chrome/Perfetto timeline (cores, TPCs, DMA engines) to FILE"},
    {"coverage", 0, true, "FILE", "write the ISA coverage report to FILE (summary in FILE.txt)"},
    {"nographic", 0, false, NULL, "no display (the default)"},
    {"serial", 0, true, "stdio|mon:stdio|none|file:PATH",
     "where the test device's CONSOLE goes (default stdio; mon:stdio adds the monitor)"},
    {"monitor", 0, true, "stdio|none", "the monitor's commands on standard input (monitor help)"},
    {"display", 0, true, "none|sdl[,zoom=activity][,data=REGION,dtype=T,cmap=M][,scrub=VTIME]",
     "display backend"},
    {"screendump-at-exit", 0, true, "FILE.png", "with -display sdl: screenshot when the run ends"},
    {"freeze", 'S', false, NULL, "do not start the cores (wait for the debugger)"},
    {"gdb-default", 's', false, NULL, "shorthand for -gdb tcp::1234"},
    {"gdb", 0, true, "DEV", "wait for a gdb connection on DEV"},
    {"replay-budget", 0, true, "N",
     "refuse gdb reverse commands that would re-execute more than N steps (default 1000000000;"
     " 0: off; docs/gdb.rst)"},
    {"replay-memory", 0, true, "SIZE",
     "memory the snapshots for gdb reverse execution may hold (default 512M; 0: none)"},
    {"replay-every", 0, true, "N", "steps between two such snapshots at first (default 8388608)"},
    {"tpc-strict", 0, false, NULL, "TPC: two slots writing one register fault (BUNDLE_CONFLICT)"},
    {"tpc-timing", 0, true, "functional|interlocked|exposed",
     "TPC pipeline model (docs/timing.rst; default functional: 1 cycle per bundle)"},
    {"tpc-hazard-warn", 0, false, NULL,
     "TPC: report each register read before its producer's latency, once per bundle"},
    {"tpc-threads", 0, true, "N",
     "run the TPCs on N host threads (default: the host's cores, at most one per TPC;"
     " 1: one thread; docs/machine.rst)"},
    {"tpc-race", 0, true, "off|warn|fault",
     "races between the TPCs of a launch: report them (warn, the default), also exit 122"
     " (fault), or do not look (off)"},
    {"icount-limit", 0, true, "N", "stop after N sequencer instructions (exit 123)"},
    {"cycle-limit", 0, true, "N", "stop at the first round ending at or after cycle N (exit 123)"},
    {"version", 0, false, NULL, "print the version and exit"},
    {"help", 'h', false, NULL, "print this help and exit"},
};

static const OptDesc *opt_by_long(const char *name, size_t len)
{
    for (size_t i = 0; i < G_N_ELEMENTS(opt_table); i++) {
        if (strlen(opt_table[i].name) == len && !strncmp(opt_table[i].name, name, len)) {
            return &opt_table[i];
        }
    }
    return NULL;
}

static const OptDesc *opt_by_short(char c)
{
    for (size_t i = 0; i < G_N_ELEMENTS(opt_table); i++) {
        if (opt_table[i].short_name && opt_table[i].short_name == c) {
            return &opt_table[i];
        }
    }
    return NULL;
}

/* How the user would write the option in a message: QEMU spelling. */
static const char *opt_display(const OptDesc *d, char *buf, size_t len)
{
    static const struct {
        const char *name, *shown;
    } shown[] = {{"memory", "-m"},
                 {"log", "-d"},
                 {"logfile", "-D"},
                 {"freeze", "-S"},
                 {"gdb-default", "-s"}};
    for (size_t i = 0; i < G_N_ELEMENTS(shown); i++) {
        if (!strcmp(d->name, shown[i].name)) {
            return shown[i].shown;
        }
    }
    g_snprintf(buf, len, "-%s", d->name);
    return buf;
}

bool nx_parse_u64(const char *s, uint64_t *out)
{
    char *end;
    int base = 10;
    if (!s || !g_ascii_isdigit(s[0])) {
        return false;
    }
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
        if (!g_ascii_isxdigit(s[0])) {
            return false;
        }
    }
    errno = 0;
    guint64 v = g_ascii_strtoull(s, &end, base);
    if (errno || *end) {
        return false;
    }
    *out = v;
    return true;
}

void nx_machine_help(FILE *out)
{
    fprintf(out, "Supported machines are:\n");
    fprintf(out, "nc2                  NeuronCore-v2 style accelerator: sequencers, TPCs, DMA, "
                 "HBM/SBUF/PSUM (default)\n");
}

/* QEMU's ",help" answers: the properties an option takes, one a line.  Each
 * list is the one place its keys are named for users (-help shows the
 * syntax only). */
static const char machine_props_help[] =
    "nc2 machine properties (-machine nc2,KEY=VALUE,...):\n"
    "  type=nc2             the machine (the only one; -M help)\n"
    "  hbm=SIZE             HBM size: a multiple of 16M from 32M to 64G (-m SIZE)\n"
    "  seq=N                sequencers, 1..64 (-smp seq=N)\n"
    "  tpc=M                TPC cores, 0..64 (-smp tpc=M)\n"
    "  tlb=N                window-TLB entries per sequencer, 1..1024\n"
    "  quantum=N            cycles per scheduling round, 1..65536\n"
    "  dma=N                DMA engines, 1..16\n"
    "  gmem-latency=N       TPC global-memory latency in cycles (timed modes)\n"
    "  gmem-bpc=N           TPC global-memory bytes per cycle (timed modes)\n"
    "  hbm-bpc=N            HBM bytes per cycle, shared by DMA engines and TPCs\n"
    "  dma-bpc=N            bytes per cycle of each DMA engine\n"
    "  sram-latency=N       TPC load latency from SBUF/PSUM in cycles (timed modes)\n"
    "  poison=on|off        report reads of never-written memory (docs/viewer.rst)\n"
    "  dumpdtb=FILE         write the effective device tree to FILE and exit\n";
static const char device_list_help[] =
    "Devices (-device NAME,KEY=VALUE,...; -device NAME,help lists its properties):\n"
    "  loader               generic loader: an image or a value into memory\n";
static const char loader_props_help[] =
    "loader properties (-device loader,KEY=VALUE,...):\n"
    "  file=FILE            image: a sequencer ELF, a TPC kernel ELF, a FIT or raw bytes\n"
    "  addr=ADDR            physical address for raw bytes or a TPC kernel's .text\n"
    "  cpu-num=N            start sequencer N at addr (raw) or at the ELF's entry\n"
    "  tpc-num=M            preset TPC M's KERNEL_BASE and KERNEL_SIZE (TPC kernel)\n"
    "  data=VALUE           a value to store at addr (with data-len, without file)\n"
    "  data-len=L           the value's size in bytes: 1, 2, 4 or 8\n";
static const char display_list_help[] =
    "Available display backend types:\n"
    "  none                 no display (the default)\n"
    "  sdl                  the SDL memory viewer (docs/viewer.rst); suboptions:\n"
    "                       zoom=activity|1, data=REGION, dtype=T, cmap=M, scrub=VTIME\n";
static const char cpu_list_help[] =
    "Available CPUs (the nc2 machine has both; -smp seq=N,tpc=M sets how many):\n"
    "  nxseq                sequencer: NeuronCore-v2 style control core, 64-byte records\n"
    "  tpc                  TPC: Gaudi style VLIW vector core, 256-bit bundles\n";

static void set_help_list(NxOptions *o, const char *text)
{
    g_free(o->help_list);
    o->help_list = g_strdup(text);
}

/* How -m and hbm= read sizes (softmmu/size.c), for messages. */
#define SIZE_FORMS "MiB, or a B/K/M/G/T/P/E suffix"

static bool usage_error(GError **err, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static bool usage_error(GError **err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_set_error_literal(err, NX_ERROR, NX_ERROR_USAGE, msg);
    g_free(msg);
    return false;
}

/* "key=value" -> key, value (value NULL if no '='). */
static void split_kv(char *kv, char **key, char **val)
{
    char *eq = strchr(kv, '=');
    *key = kv;
    *val = NULL;
    if (eq) {
        *eq = '\0';
        *val = eq + 1;
    }
}

static bool parse_edit(Nc2Edits *ed, const char *opt, const char *key, const char *val,
                       GError **err)
{
    uint64_t v;
    bool *has;
    uint64_t *dst;
    if (!val) {
        return usage_error(err, "%s: '%s': expected key=value", opt, key);
    }
    if (!strcmp(key, "hbm")) {
        if (!nx_parse_size_mib(val, &v)) {
            return usage_error(err, "%s: hbm=%s: not a size (%s)", opt, val, SIZE_FORMS);
        }
        ed->has_hbm = true;
        ed->hbm = v;
        ed->hbm_src = "-machine hbm";
        g_strlcpy(ed->hbm_text, val, sizeof(ed->hbm_text));
        return true;
    }
    if (!strcmp(key, "seq") || !strcmp(key, "tpc")) {
        bool seq = key[0] == 's';
        has = seq ? &ed->has_seq : &ed->has_tpc;
        dst = seq ? &ed->seq : &ed->tpc;
        ed->smp_src = strcmp(opt, "-smp") ? NULL : "-smp"; /* the last setter names errors */
    } else if (!strcmp(key, "tlb")) {
        has = &ed->has_tlb, dst = &ed->tlb;
    } else if (!strcmp(key, "quantum")) {
        has = &ed->has_quantum, dst = &ed->quantum;
    } else if (!strcmp(key, "dma")) {
        has = &ed->has_dma, dst = &ed->dma;
    } else if (!strcmp(key, "gmem-latency")) {
        has = &ed->has_gmem_lat, dst = &ed->gmem_lat;
    } else if (!strcmp(key, "gmem-bpc")) {
        has = &ed->has_gmem_bpc, dst = &ed->gmem_bpc;
    } else if (!strcmp(key, "hbm-bpc")) {
        has = &ed->has_hbm_bpc, dst = &ed->hbm_bpc;
    } else if (!strcmp(key, "dma-bpc")) {
        has = &ed->has_dma_bpc, dst = &ed->dma_bpc;
    } else if (!strcmp(key, "sram-latency")) {
        has = &ed->has_sram_lat, dst = &ed->sram_lat;
    } else {
        return usage_error(err,
                           "%s: unknown key '%s' (type, hbm, seq, tpc, tlb, quantum, dma, "
                           "gmem-latency, gmem-bpc, hbm-bpc, dma-bpc, sram-latency, poison, "
                           "dumpdtb)",
                           opt, key);
    }
    if (!nx_parse_u64(val, &v)) {
        return usage_error(err, "%s: %s=%s: not a number", opt, key, val);
    }
    *has = true;
    *dst = v;
    return true;
}

static bool opt_machine(NxOptions *o, const char *value, GError **err)
{
    g_auto(GStrv) parts = g_strsplit(value, ",", -1);
    for (char **p = parts; *p; p++) {
        char *key, *val;
        if (p == parts && !strchr(*p, '=')) {
            if (!strcmp(*p, "help")) {
                o->machine_help = true;
            } else if (strcmp(*p, "nc2") != 0) {
                return usage_error(err, "-machine: unknown machine '%s' (try -M help)", *p);
            }
            continue;
        }
        if (!strcmp(*p, "help")) { /* -machine nc2,help: QEMU's property list */
            set_help_list(o, machine_props_help);
            continue;
        }
        split_kv(*p, &key, &val);
        if (!strcmp(key, "type") && val) {
            if (strcmp(val, "nc2") != 0) {
                return usage_error(err, "-machine: unknown machine '%s' (try -M help)", val);
            }
        } else if (!strcmp(key, "poison")) {
            if (val && (!strcmp(val, "on") || !strcmp(val, "off"))) {
                o->poison = !strcmp(val, "on");
            } else {
                return usage_error(err, "-machine: poison: '%s': on or off", val ? val : "");
            }
        } else if (!strcmp(key, "dumpdtb") && val) {
            g_free(o->dump_dtb);
            o->dump_dtb = g_strdup(val);
        } else if (!parse_edit(&o->edits, "-machine", key, val, err)) {
            return false;
        }
    }
    return true;
}

/* -m [size=]SIZE, QEMU's spelling; slots= and maxmem= (hotplug) do not apply. */
static bool opt_memory(NxOptions *o, const char *value, GError **err)
{
    g_auto(GStrv) parts = g_strsplit(value, ",", -1);
    const char *size = NULL;
    uint64_t v;
    for (char **p = parts; *p; p++) {
        char *key, *val;
        if (p == parts && !strchr(*p, '=')) { /* -m 2G: the size */
            size = *p;
            continue;
        }
        split_kv(*p, &key, &val);
        if (!strcmp(key, "size") && val) {
            size = val;
        } else if (!strcmp(key, "slots") || !strcmp(key, "maxmem")) {
            return usage_error(err, "-m: %s: nc2 has no memory hotplug (only size=SIZE)", key);
        } else {
            return usage_error(err, "-m: unknown key '%s' (size)", key);
        }
    }
    if (!size) {
        return usage_error(err, "-m: '%s': no size given (-m SIZE or -m size=SIZE)", value);
    }
    if (!nx_parse_size_mib(size, &v)) {
        return usage_error(err, "-m: '%s': not a size (%s)", size, SIZE_FORMS);
    }
    o->edits.has_hbm = true;
    o->edits.hbm = v;
    o->edits.hbm_src = "-m";
    g_strlcpy(o->edits.hbm_text, size, sizeof(o->edits.hbm_text));
    return true;
}

static bool opt_smp(NxOptions *o, const char *value, GError **err)
{
    g_auto(GStrv) parts = g_strsplit(value, ",", -1);
    for (char **p = parts; *p; p++) {
        char *key, *val;
        uint64_t v;
        if (p == parts && nx_parse_u64(*p, &v)) { /* -smp N: N sequencers */
            o->edits.has_seq = true;
            o->edits.seq = v;
            o->edits.smp_src = "-smp";
            continue;
        }
        split_kv(*p, &key, &val);
        if (strcmp(key, "seq") != 0 && strcmp(key, "tpc") != 0) {
            return usage_error(err, "-smp: unknown key '%s' (seq, tpc)", key);
        }
        if (!parse_edit(&o->edits, "-smp", key, val, err)) {
            return false;
        }
    }
    return true;
}

static bool opt_device(NxOptions *o, const char *value, GError **err)
{
    g_auto(GStrv) parts = g_strsplit(value, ",", -1);
    LoaderItem it = {.kind = LOADER_FILE};
    bool has_data = false, has_len = false;
    uint64_t v;
    if (!strcmp(parts[0], "help")) {
        set_help_list(o, device_list_help);
        return true;
    }
    if (strcmp(parts[0], "loader") != 0) {
        return usage_error(err, "-device: unknown device '%s' (only 'loader'; -device help)",
                           parts[0]);
    }
    for (char **p = parts + 1; *p; p++) {
        if (!strcmp(*p, "help")) {
            set_help_list(o, loader_props_help);
            return true;
        }
    }
    for (char **p = parts + 1; *p; p++) {
        char *key, *val;
        static const char *const known[] = {"file",    "addr",    "data", "data-len",
                                            "cpu-num", "tpc-num", NULL};
        split_kv(*p, &key, &val);
        if (!g_strv_contains(known, key)) {
            g_free(it.file);
            return usage_error(err,
                               "-device loader: unknown property '%s' (file, addr, data, "
                               "data-len, cpu-num, tpc-num; -device loader,help)",
                               key);
        }
        if (!val) {
            return usage_error(err, "-device loader: '%s': expected key=value", key);
        }
        if (!strcmp(key, "file")) {
            if (!*val) {
                return usage_error(err, "-device loader: file=: empty file name");
            }
            g_free(it.file);
            it.file = g_strdup(val);
            continue;
        }
        if (!nx_parse_u64(val, &v)) {
            g_free(it.file);
            return usage_error(err, "-device loader: %s=%s: not a number", key, val);
        }
        if (!strcmp(key, "addr")) {
            it.has_addr = true, it.addr = v;
        } else if (!strcmp(key, "data")) {
            has_data = true, it.data = v;
        } else if (!strcmp(key, "data-len")) {
            has_len = true, it.data_len = (unsigned)v;
            if (v != 1 && v != 2 && v != 4 && v != 8) {
                g_free(it.file);
                return usage_error(err, "-device loader: data-len=%s: must be 1, 2, 4 or 8", val);
            }
        } else if (!strcmp(key, "cpu-num") || !strcmp(key, "tpc-num")) {
            bool cpu = key[0] == 'c';
            if (v >= (cpu ? NC2_MAX_SEQ : NC2_MAX_TPC)) {
                g_free(it.file);
                return usage_error(err, "-device loader: %s=%s: must be 0..%d", key, val,
                                   (cpu ? NC2_MAX_SEQ : NC2_MAX_TPC) - 1);
            }
            if (cpu) {
                it.has_cpu = true, it.cpu_num = (unsigned)v;
            } else {
                it.has_tpc = true, it.tpc_num = (unsigned)v;
            }
        } else {
            g_free(it.file);
            return usage_error(err, "-device loader: unknown property '%s'", key);
        }
    }
    if (has_data || has_len) {
        const char *why = NULL;
        if (!has_data || !has_len || !it.has_addr) {
            why = "data= needs addr=, data= and data-len=";
        } else if (it.file || it.has_cpu || it.has_tpc) {
            why = "data= cannot be combined with file=, cpu-num= or tpc-num=";
        } else if (it.data_len < 8 && (it.data >> (8 * it.data_len)) != 0) {
            why = "data= does not fit in data-len bytes";
        }
        if (why) {
            g_free(it.file);
            return usage_error(err, "-device loader: %s", why);
        }
        it.kind = LOADER_DATA;
    } else if (!it.file) {
        return usage_error(err, "-device loader: needs file=F or addr=A,data=V,data-len=L");
    }
    g_array_append_val(o->items, it);
    return true;
}

static bool opt_bind(NxOptions *o, const char *value, GError **err)
{
    g_autofree char *s = g_strdup(value);
    char *key, *val;
    uint64_t var;
    NxBindOpt b;
    split_kv(s, &key, &val);
    if (!val) {
        return usage_error(err, "-bind %s: expected VAR=ADDR", value);
    }
    if (!nx_parse_u64(key, &var) || var > UINT32_MAX) {
        return usage_error(err, "-bind %s: VAR '%s' is not a 32-bit number", value, key);
    }
    if (!nx_parse_u64(val, &b.addr)) {
        return usage_error(err, "-bind %s: ADDR '%s' is not a 64-bit number", value, val);
    }
    b.var_id = (uint32_t)var;
    g_array_append_val(o->binds, b);
    return true;
}

static bool opt_number(const char *opt, const char *value, bool *has, uint64_t *v, GError **err)
{
    if (!nx_parse_u64(value, v)) {
        return usage_error(err, "%s: '%s': not a number (decimal or 0x hex)", opt, value);
    }
    *has = true;
    return true;
}

static void set_str(char **dst, const char *v);

/* -display sdl[,zoom=activity|1][,data=REGION][,dtype=T][,cmap=M][,scrub=T], QEMU's
 * comma-separated suboptions.  The data region, dtype and colour map are
 * checked by the viewer when it opens (hw/display/viewer-panels.c). */
static bool parse_display_sdl(NxOptions *o, const char *value, GError **err)
{
    g_auto(GStrv) parts = g_strsplit(value, ",", -1);
    o->display_sdl = true;
    o->display_zoom_activity = false;
    o->display_scrub_set = false;
    for (unsigned i = 1; parts[i]; i++) {
        const char *p = parts[i];
        if (!strcmp(p, "zoom=activity")) {
            o->display_zoom_activity = true;
        } else if (!strcmp(p, "zoom=1")) {
            o->display_zoom_activity = false;
        } else if (!strncmp(p, "data=", 5) && p[5]) {
            set_str(&o->display_data, p + 5);
        } else if (!strncmp(p, "dtype=", 6) && p[6]) {
            set_str(&o->display_dtype, p + 6);
        } else if (!strncmp(p, "cmap=", 5) && p[5]) {
            set_str(&o->display_cmap, p + 5);
        } else if (!strncmp(p, "scrub=", 6)) {
            if (!nx_parse_u64(p + 6, &o->display_scrub)) {
                return usage_error(err, "-display sdl: scrub='%s': not a vtime (decimal or 0x hex)",
                                   p + 6);
            }
            o->display_scrub_set = true;
        } else {
            return usage_error(err,
                               "-display sdl: unknown option '%s' (zoom=activity, zoom=1, "
                               "data=REGION, dtype=T, cmap=M or scrub=VTIME)",
                               p);
        }
    }
    return true;
}

static void set_str(char **dst, const char *v)
{
    g_free(*dst);
    *dst = g_strdup(v);
}

/* The one GOption callback: option_name is "--<long>" after normalisation. */
static gboolean opt_cb(const gchar *option_name, const gchar *value, gpointer data, GError **err)
{
    NxOptions *o = data;
    const char *n = option_name + 2;

    if (!strcmp(n, "machine")) {
        return opt_machine(o, value, err);
    } else if (!strcmp(n, "memory")) {
        return opt_memory(o, value, err);
    } else if (!strcmp(n, "smp")) {
        return opt_smp(o, value, err);
    } else if (!strcmp(n, "dtb")) {
        set_str(&o->dtb, value);
    } else if (!strcmp(n, "dump-dtb")) {
        set_str(&o->dump_dtb, value);
    } else if (!strcmp(n, "kernel")) {
        LoaderItem it = {.kind = LOADER_KERNEL, .file = g_strdup(value)};
        g_array_append_val(o->items, it);
    } else if (!strcmp(n, "device")) {
        return opt_device(o, value, err);
    } else if (!strcmp(n, "bind")) {
        return opt_bind(o, value, err);
    } else if (!strcmp(n, "fit-config")) {
        set_str(&o->fit_config, value);
    } else if (!strcmp(n, "log")) {
        uint32_t mask = 0;
        GError *local = NULL;
        if (!nx_log_parse(value, &mask, &local)) {
            if (local) {
                g_propagate_error(err, local);
                return false;
            }
            o->log_help = true; /* -d help printed the list */
        }
        o->log_mask |= mask;
    } else if (!strcmp(n, "logfile")) {
        set_str(&o->logfile, value);
    } else if (!strcmp(n, "trace-json")) {
        set_str(&o->trace_json, value);
    } else if (!strcmp(n, "coverage")) {
        set_str(&o->coverage, value);
    } else if (!strcmp(n, "nographic")) {
        o->nographic = true;
    } else if (!strcmp(n, "serial")) {
        g_clear_pointer(&o->serial_file, g_free);
        o->serial_off = false;
        if (!strcmp(value, "mon:stdio")) {
            o->monitor_stdio = true;
        } else if (!strcmp(value, "none") || !strcmp(value, "null")) {
            o->serial_off = true;
        } else if (g_str_has_prefix(value, "file:") && value[5]) {
            o->serial_file = g_strdup(value + 5);
        } else if (strcmp(value, "stdio") != 0) {
            return usage_error(err, "-serial: '%s': stdio, mon:stdio, none, null or file:PATH",
                               value);
        }
    } else if (!strcmp(n, "monitor")) {
        if (!strcmp(value, "stdio")) {
            o->monitor_stdio = true;
        } else if (!strcmp(value, "none")) {
            o->monitor_stdio = false;
        } else {
            return usage_error(err, "-monitor: '%s': stdio or none (gdb's 'monitor' reaches "
                                    "the same commands)", value);
        }
    } else if (!strcmp(n, "tpc-strict")) {
        o->tpc_strict = true;
    } else if (!strcmp(n, "tpc-timing")) {
        if (!nx_timing_parse(value, &o->tpc_timing)) {
            return usage_error(err, "-tpc-timing: unknown mode '%s' (functional, interlocked or "
                                    "exposed)", value);
        }
    } else if (!strcmp(n, "tpc-hazard-warn")) {
        o->tpc_hazard_warn = true;
    } else if (!strcmp(n, "display")) {
        if (!strcmp(value, "help")) {
            set_help_list(o, display_list_help);
        } else if (!strcmp(value, "sdl") || !strncmp(value, "sdl,", 4)) {
            return parse_display_sdl(o, value, err);
        } else if (!strcmp(value, "none")) {
            o->display_sdl = false;
        } else {
            return usage_error(err, "-display: unknown display '%s' (none or sdl; -display help)",
                               value);
        }
    } else if (!strcmp(n, "screendump-at-exit")) {
        set_str(&o->screendump_at_exit, value);
    } else if (!strcmp(n, "freeze")) {
        o->freeze = true;
    } else if (!strcmp(n, "gdb-default")) {
        o->gdb_default = true;
    } else if (!strcmp(n, "gdb")) {
        set_str(&o->gdb, value);
    } else if (!strcmp(n, "replay-budget")) {
        bool has;
        return opt_number("-replay-budget", value, &has, &o->replay_budget, err);
    } else if (!strcmp(n, "replay-memory")) {
        if (!nx_parse_size(value, &o->replay_memory))
            return usage_error(err, "-replay-memory: '%s': not a size (e.g. 512M, 0: none)", value);
    } else if (!strcmp(n, "replay-every")) {
        bool has;
        if (!opt_number("-replay-every", value, &has, &o->replay_every, err))
            return false;
        if (!o->replay_every)
            return usage_error(err, "-replay-every: must be at least 1%s", "");
    } else if (!strcmp(n, "tpc-threads")) {
        uint64_t v;
        if (!nx_parse_u64(value, &v) || v < 1 || v > 1024) {
            return usage_error(err, "-tpc-threads: '%s': expected a thread count 1..1024", value);
        }
        o->tpc_threads = (unsigned)v;
    } else if (!strcmp(n, "tpc-race")) {
        if (!tpc_race_parse(value, &o->tpc_race)) {
            return usage_error(err, "-tpc-race: '%s': off, warn or fault", value);
        }
    } else if (!strcmp(n, "icount-limit")) {
        return opt_number("-icount-limit", value, &o->has_icount_limit, &o->icount_limit, err);
    } else if (!strcmp(n, "cycle-limit")) {
        return opt_number("-cycle-limit", value, &o->has_cycle_limit, &o->cycle_limit, err);
    } else if (!strcmp(n, "cpu")) {
        if (strcmp(value, "help") != 0) {
            return usage_error(err, "-cpu: '%s': the nc2 machine's core types are fixed "
                                    "(-cpu help lists them)", value);
        }
        set_help_list(o, cpu_list_help);
    } else if (!strcmp(n, "version")) {
        o->version = true;
    } else if (!strcmp(n, "help")) {
        o->help = true;
    }
    return true;
}

/* The -help text, in the QEMU spelling users type (GOption's own help would
 * show "--machine=..."). */
static char *help_text(void)
{
    GString *h = g_string_new("Usage: nxemu [options]\n\nOptions:\n");
    for (size_t i = 0; i < G_N_ELEMENTS(opt_table); i++) {
        const OptDesc *d = &opt_table[i];
        char buf[64];
        const char *shown = opt_display(d, buf, sizeof(buf));
        GString *left = g_string_new(NULL);
        if (d->short_name && strlen(shown) > 2) {
            g_string_append_printf(left, "-%c, ", d->short_name); /* -M, -machine */
        }
        g_string_append(left, shown);
        if (d->has_arg) {
            g_string_append_printf(left, " %s", d->arg_desc);
        }
        g_string_append_printf(h, "  %-36s %s\n", left->str, d->help);
        g_string_free(left, TRUE);
    }
    g_string_append(h, "\nLong options take one dash as in QEMU (-machine); two work too.\n"
                       "Exit status: 0 pass, 1..122 test fail code, 123 limit, 124 deadlock,\n"
                       "125 usage/configuration/load error, 128+signal guest fault.\n");
    return g_string_free(h, FALSE);
}

/* QEMU spelling -> "--name=value"; rejects unknown options, missing
 * arguments and stray positional arguments. */
static GStrv normalise(int argc, char **argv, GError **err)
{
    GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
    g_ptr_array_add(out, g_strdup(argc > 0 ? argv[0] : "nxemu"));
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *name, *eq;
        const OptDesc *d;
        char buf[64];
        if (a[0] != '-' || a[1] == '\0' || !strcmp(a, "--")) {
            usage_error(err, "'%s': unexpected argument (options start with '-'; try -help)", a);
            goto fail;
        }
        name = a + (a[1] == '-' ? 2 : 1);
        eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        d = (a[1] != '-' && len == 1) ? opt_by_short(name[0]) : opt_by_long(name, len);
        if (!d) {
            usage_error(err, "'%s': unknown option (try -help)", a);
            goto fail;
        }
        if (!d->has_arg) {
            if (eq) {
                usage_error(err, "%s: takes no argument", opt_display(d, buf, sizeof(buf)));
                goto fail;
            }
            g_ptr_array_add(out, g_strdup_printf("--%s", d->name));
        } else if (eq) {
            g_ptr_array_add(out, g_strdup_printf("--%s=%s", d->name, eq + 1));
        } else if (i + 1 >= argc) {
            usage_error(err, "%s: missing argument %s", opt_display(d, buf, sizeof(buf)),
                        d->arg_desc);
            goto fail;
        } else {
            g_ptr_array_add(out, g_strdup_printf("--%s=%s", d->name, argv[++i]));
        }
    }
    g_ptr_array_add(out, NULL);
    return (GStrv)g_ptr_array_free(out, FALSE);
fail:
    g_ptr_array_unref(out);
    return NULL;
}

bool nx_options_parse(NxOptions *o, int argc, char **argv, GError **err)
{
    GOptionEntry entries[G_N_ELEMENTS(opt_table) + 1];
    GOptionContext *ctx;
    GOptionGroup *group;
    GStrv args;
    bool ok;

    memset(o, 0, sizeof(*o));
    o->replay_budget = NX_REPLAY_BUDGET_DEFAULT;
    o->replay_memory = NX_REPLAY_MEMORY_DEFAULT;
    o->replay_every = NX_REPLAY_EVERY_DEFAULT;
    o->tpc_race = 1; /* warn */
    o->items = g_array_new(FALSE, TRUE, sizeof(LoaderItem));
    o->binds = g_array_new(FALSE, TRUE, sizeof(NxBindOpt));

    args = normalise(argc, argv, err);
    if (!args) {
        return false;
    }
    memset(entries, 0, sizeof(entries));
    for (size_t i = 0; i < G_N_ELEMENTS(opt_table); i++) {
        const OptDesc *d = &opt_table[i];
        entries[i] = (GOptionEntry){
            .long_name = d->name,
            .short_name = d->short_name,
            /* FILENAME: GLib hands the argument over as bytes.  Without it
             * every argument goes through g_locale_to_utf8, which loads
             * iconv's module cache on each start (~25k instructions, two
             * file opens) and would refuse a non-UTF-8 file name. */
            .flags = d->has_arg ? G_OPTION_FLAG_FILENAME : G_OPTION_FLAG_NO_ARG,
            .arg = G_OPTION_ARG_CALLBACK,
            .arg_data = (gpointer)opt_cb,
            .description = d->help,
            .arg_description = d->arg_desc,
        };
    }
    ctx = g_option_context_new("- NC-v2 style accelerator emulator");
    g_option_context_set_help_enabled(ctx, FALSE);
    group = g_option_group_new("nxemu", "nxemu options", "nxemu options", o, NULL);
    g_option_group_add_entries(group, entries);
    g_option_context_set_main_group(ctx, group);
    ok = g_option_context_parse_strv(ctx, &args, err);
    if (ok && o->help) {
        o->help_text = help_text();
    }
    g_option_context_free(ctx);
    g_strfreev(args);
    return ok;
}

void nx_options_free(NxOptions *o)
{
    if (o->items) {
        for (unsigned i = 0; i < o->items->len; i++) {
            g_free(g_array_index(o->items, LoaderItem, i).file);
        }
        g_array_free(o->items, TRUE);
    }
    if (o->binds) {
        g_array_free(o->binds, TRUE);
    }
    g_free(o->dtb);
    g_free(o->dump_dtb);
    g_free(o->fit_config);
    g_free(o->logfile);
    g_free(o->serial_file);
    g_free(o->trace_json);
    g_free(o->coverage);
    g_free(o->gdb);
    g_free(o->screendump_at_exit);
    g_free(o->display_data);
    g_free(o->display_dtype);
    g_free(o->display_cmap);
    g_free(o->help_text);
    g_free(o->help_list);
    memset(o, 0, sizeof(*o));
}
