/*
 * nxemu-tpc-run: run one TPC kernel on N TPC cores of the full machine
 * through the reference launcher (machine.md §6).  Shared between the
 * command-line parser and the driver.
 */
#ifndef NXEMU_TPC_RUN_H
#define NXEMU_TPC_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include <glib.h>

#include "target/tpc/timing.h"

#define TR_MAX_TENSORS 16
#define TR_MAX_ARGS    32
#define TR_MAX_DIMS    5

/* Fixed placement in HBM (docs/tpc-run.rst). */
#define TR_LAUNCHER_BASE 0x01000000ull
#define TR_BLOCK_ADDR    0x01f00000ull
#define TR_KERNEL_BASE   0x02000000ull
#define TR_TENSOR_BASE   0x04000000ull /* first automatic tensor address */
#define TR_TENSOR_ALIGN  0x1000ull

typedef struct TrDtype {
    const char *name;
    unsigned size; /* E in bytes */
    unsigned code; /* TENSOR_CONFIG DATA_TYPE (tpc.md §3.1) */
} TrDtype;

typedef struct TrTensor {
    char *spec; /* as given, for messages */
    char *file;
    bool output;
    unsigned rank;
    uint32_t dim[TR_MAX_DIMS];
    const TrDtype *dtype;
    bool has_addr;
    uint64_t addr;
    uint64_t bytes;
} TrTensor;

typedef struct TrOptions {
    char *kernel;
    char *launcher; /* NULL: search next to the binary */
    char *machine;  /* -machine value, passed to the nxemu parser */
    char *dtb;
    uint32_t log_mask; /* -d items (nx_log_parse) */
    char *logfile;     /* -D */
    unsigned ntpc;
    bool has_ntpc;
    unsigned nspace;
    uint32_t space[TR_MAX_DIMS];
    unsigned nbase;
    uint32_t base[TR_MAX_DIMS];
    TrTensor tensor[TR_MAX_TENSORS]; /* inputs first, then outputs */
    unsigned ntensor, ninputs;
    /* --descriptors: descriptor number of tensor[t] (a permutation of
     * 0..ntensor-1), for kernels whose glue puts an input after an output */
    uint32_t desc[TR_MAX_TENSORS];
    unsigned ndesc; /* 0: descriptor t for tensor[t] */
    uint32_t arg[TR_MAX_ARGS];
    unsigned narg;
    uint32_t sem;
    uint32_t kernel_config;
    bool has_cycle_limit;
    uint64_t cycle_limit;
    bool help;
    bool version;             /* --version */
    bool help_shown;          /* -d help printed the item list */
    bool time;                /* --time: report the host CPU time of the run */
    bool stats;               /* --stats: bundles per TPC by path, host time per TPC */
    char *gdb;                /* -gdb DEV (tcp::PORT, unix:PATH), or NULL */
    bool gdb_default;         /* -s: -gdb tcp::1234 */
    bool freeze;              /* -S: start stopped, for the debugger or the monitor */
    bool monitor_stdio;       /* -monitor stdio: nxemu's monitor on standard input */
    uint64_t replay_budget;   /* --replay-budget N: gdb reverse execution, 0 = off */
    uint64_t replay_memory;   /* --replay-memory SIZE: its snapshots, 0 = none */
    uint64_t replay_every;    /* --replay-every N */
    TpcTimingMode timing;     /* --tpc-timing (docs/timing.rst) */
    bool hazard_warn;         /* --tpc-hazard-warn */
    unsigned threads;         /* --threads N (nxemu/threads.h); 0: the default */
    unsigned race;            /* --race: nxemu/tpc-race.h mode (1 warn, the default) */
    char *profile;            /* --profile FILE, or NULL */
    char *profile_json;       /* --profile-json FILE, or NULL */
    char *profile_trace;      /* --profile-trace FILE (Perfetto counter tracks), or NULL */
    int check;                /* --check: 0 off, 1 warnings, 2 fatal (tpc-run-check.c) */
    char *display;            /* --display sdl[,...] as nxemu's -display; NULL: none */
    char *screendump_at_exit; /* --screendump-at-exit FILE.png (with --display sdl) */
} TrOptions;

extern const char tr_usage[];

/* Parse argv into o (tensors still without addresses).  false + a one-line
 * message on a usage error. */
bool tr_parse_args(TrOptions *o, int argc, char **argv, GError **err);
void tr_options_free(TrOptions *o);
/* Give every tensor without @ADDR an address and check that none overlaps
 * another or the runner's own area; hbm_top is the first byte not usable. */
bool tr_place_tensors(TrOptions *o, uint64_t hbm_top, GError **err);

/* Where tensors come from and go to.  get_input hands over tensor i's
 * t->bytes bytes (released with free_input if set); put_output receives
 * output tensor i (i >= ninputs) after a run with status 0; precheck (may be
 * NULL) runs once the machine configuration is known, before anything is
 * built. */
typedef struct TrIo {
    void *opaque;
    bool (*precheck)(void *opaque, GError **err);
    bool (*get_input)(void *opaque, unsigned i, void **data, GError **err);
    void (*free_input)(void *opaque, void *data);
    bool (*put_output)(void *opaque, unsigned i, const void *data, GError **err);
} TrIo;

typedef struct TrResult {
    GString *report; /* in: NULL = diagnostics to stderr (sched_run); else appended here */
    unsigned ntpc;   /* 0: the run did not start */
    uint64_t bundles, cycles, vtime;
    uint64_t stalls, hazards; /* timing model (timing.h): interlock stall cycles, early reads */
    double run_seconds;       /* host CPU time of the run alone */
    /* the TPCs' host threads, the stretches run on them and those run
     * again one TPC after another (docs/machine.rst "Host threads") */
    unsigned threads;
    uint64_t stretches, reruns;
    GString *paths;           /* --stats: one line per launched TPC (the caller frees) */
} TrResult;

/* Launch o's kernel through the launcher ELF at `launcher` (docs/tpc-run.rst).
 * Returns the run's exit status (machine.md §9.2; 1..122 a launcher FAIL
 * code, see tr_fail_reason), or 125 with err set for a host-side error:
 * before the run (res->ntpc == 0) or when saving an output. */
int tr_execute(TrOptions *o, const char *launcher, const TrIo *io, TrResult *res, GError **err);
const char *tr_fail_reason(int rc);
/* The checking mode (tpc-run-check.c): installed on the machine before the
 * run, its lines go to report (NULL: stderr) as they are found;
 * tr_check_finish adds the after-run checks and returns the run's status,
 * TR_EXIT_CHECK for --check=fatal with findings. */
#define TR_EXIT_CHECK 121
/* --race=fault with a race reported (nxemu/tpc-race.h) */
#define TR_EXIT_RACE 122
typedef struct TrCheck TrCheck;
typedef struct Machine Machine;
TrCheck *tr_check_new(Machine *m, const TrOptions *o, GString *report);
int tr_check_finish(TrCheck *k, int rc);
/* Before the run: each tensor whose element type (-i/-o DTYPE) is not the
 * type the kernel's code text uses it as (float vs integer, or size). */
void tr_check_types(TrCheck *k, const uint8_t *text, size_t len);
unsigned tr_check_findings(const TrCheck *k);
void tr_check_free(TrCheck *k);

/* The --profile text of a machine after its run (tpc-run-profile.c). */
void tr_profile_text(GString *out, Machine *m, const TrOptions *o);
/* The same as JSON (--profile-json) and as Perfetto counter tracks
 * (--profile-trace), docs/timing.rst "Profiles". */
void tr_profile_json(GString *out, Machine *m, const TrOptions *o);
void tr_profile_trace(GString *out, Machine *m, const TrOptions *o);

#endif
