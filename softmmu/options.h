/*
 * Command line of nxemu (QEMU spelling: single-dash long options).  Parsing
 * only records what was asked; main acts on it.
 */
#ifndef NXEMU_OPTIONS_H
#define NXEMU_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include <glib.h>

#include "nxemu/board-if.h"
#include "nxemu/loader.h"

typedef struct NxBindOpt {
    uint32_t var_id;
    uint64_t addr;
} NxBindOpt;

typedef struct NxOptions {
    Nc2Edits edits;    /* -machine keys, -m, -smp */
    char *dtb;         /* -dtb FILE */
    char *dump_dtb;    /* -dump-dtb FILE (or -machine dumpdtb=FILE) */
    char *fit_config;  /* -fit-config NAME */
    char *logfile;     /* -D FILE */
    char *trace_json;  /* -trace-json FILE (nxemu/trace.h) */
    char *coverage;    /* -coverage FILE (nxemu/trace.h) */
    uint32_t log_mask; /* -d ITEM,... */
    GArray *items;     /* LoaderItem: -kernel and -device loader, in order */
    GArray *binds;     /* NxBindOpt: -bind VAR=ADDR, in order */
    bool has_icount_limit, has_cycle_limit;
    uint64_t icount_limit, cycle_limit;
    bool nographic;
    bool tpc_strict; /* -tpc-strict: TPC bundle conflicts fault (tpc.md §6.1) */
    unsigned tpc_timing;      /* -tpc-timing (docs/timing.rst): NxCpuModes.timing */
    bool tpc_hazard_warn;     /* -tpc-hazard-warn */
    unsigned tpc_threads;     /* -tpc-threads N (nxemu/threads.h); 0: the default */
    unsigned tpc_race;        /* -tpc-race: nxemu/tpc-race.h mode (1 warn, the default) */
    /* Options of later issues: parsed, refused by main. */
    bool freeze;              /* -S */
    bool gdb_default;         /* -s */
    char *gdb;                /* -gdb DEV */
    uint64_t replay_budget;   /* -replay-budget N (softmmu/gdbstub-reverse.c) */
    uint64_t replay_memory;   /* -replay-memory SIZE (softmmu/gdbstub-snap.c) */
    uint64_t replay_every;    /* -replay-every N */
    bool display_sdl;         /* -display sdl */
    bool display_zoom_activity; /* -display sdl,zoom=activity */
    bool display_scrub_set;     /* -display sdl,scrub=VTIME */
    uint64_t display_scrub;
    char *screendump_at_exit; /* -screendump-at-exit FILE.png (with -display sdl) */
    /* -display sdl,data=REGION,dtype=T,cmap=M: the data view (docs/viewer.rst) */
    char *display_data, *display_dtype, *display_cmap;
    bool poison;              /* -machine poison=on */
    bool monitor_stdio;       /* -monitor stdio, -serial mon:stdio */
    bool serial_off;          /* -serial none|null */
    char *serial_file;        /* -serial file:PATH */
    /* Informational requests: main prints and exits 0. */
    bool help, version, machine_help, log_help;
    char *help_text; /* filled when help is set */
    /* QEMU's ",help" lists (-machine nc2,help, -device help, -device
     * loader,help, -display help, -cpu help): the text main prints. */
    char *help_list;
} NxOptions;

/* -replay-budget when not given: steps re-executed per reverse command. */
#define NX_REPLAY_BUDGET_DEFAULT 1000000000ull
#define NX_REPLAY_MEMORY_DEFAULT (512ull << 20)
#define NX_REPLAY_EVERY_DEFAULT  (8ull << 20)

/* Parse argv (not modified).  On error: false, a one-line message in err
 * (main prints "nxemu: <message>" and exits 125). */
bool nx_options_parse(NxOptions *o, int argc, char **argv, GError **err);
void nx_options_free(NxOptions *o);

/* softmmu/options-apply.c: the run-time options (-d, -icount/-cycle limits,
 * -tpc-strict, -tpc-timing, -tpc-hazard-warn) set on a built machine, and
 * the -bind entries added to bt (false and err on a duplicate). */
struct Machine;
void nx_options_apply(struct Machine *m, const NxOptions *o);
bool nx_options_add_binds(const NxOptions *o, BindTable *bt, GError **err);

/* C integer literal: decimal or 0x hexadecimal, 64-bit (machine.md §12.7). */
bool nx_parse_u64(const char *s, uint64_t *out);
/* A size as QEMU's qemu_strtosz reads it (softmmu/size.c): decimal with an
 * optional fraction and B/K/M/G/T/P/E suffix (either case, powers of 1024),
 * or 0x hexadecimal without fraction or suffix.  No suffix: bytes. */
bool nx_parse_size(const char *s, uint64_t *out);
/* The same with QEMU's -m rule: a value without a suffix counts MiB. */
bool nx_parse_size_mib(const char *s, uint64_t *out);

/* `-M help` text. */
void nx_machine_help(FILE *out);

#endif
