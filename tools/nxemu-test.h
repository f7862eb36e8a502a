/*
 * nxemu-test: the regression-suite runner (docs/nxemu-test.rst).
 *
 * The runner drives the nxemu binary as one child process per case and
 * depends only on nxemu's command line, exit statuses and stderr lines
 * (machine.md §9.2, §9.3), never on emulator internals: it links GLib/GIO
 * only.  Files: manifest parsing, child processes and verdicts, reports,
 * sharding and previous-report reading, and the main program.
 */
#ifndef NXEMU_TEST_H
#define NXEMU_TEST_H

#include <glib.h>
#include <stdbool.h>
#include <stdio.h>

/* nxemu-test's own exit statuses. */
#define NT_EXIT_PASS  0
#define NT_EXIT_FAIL  1
#define NT_EXIT_USAGE 2

typedef enum NtStatus {
    NT_PENDING,
    NT_PASS,
    NT_FAIL,    /* exit status or pattern mismatch; message names which */
    NT_TIMEOUT, /* wall-clock timeout: the child was killed */
    NT_ERROR,   /* the child could not be started */
} NtStatus;

typedef struct NtCase {
    /* From the manifest (or the zero-config directory scan). */
    char *name;
    char *suite;     /* manifest or directory base name: JUnit testsuite/classname */
    char *file;      /* where the case is defined, for messages */
    int line;        /* line of its [case NAME] group (0 in zero-config mode) */
    char *dir;       /* working directory of the child: the manifest's directory */
    GPtrArray *argv; /* argv[0] = nxemu path, NULL-terminated */
    int expect_exit;
    GPtrArray *expect_stdout; /* char * patterns, all must match */
    GPtrArray *expect_stderr;
    GPtrArray *re_stdout; /* compiled GRegex *, same order */
    GPtrArray *re_stderr;
    double timeout; /* wall seconds, 0 = none */
    char **tags;    /* NULL-terminated, may be empty */
    int order;      /* position in the whole suite (deterministic report order) */

    /* Results. */
    NtStatus status;
    int exit_code; /* -1 when the child did not exit normally */
    int term_signal;
    double wall;         /* seconds */
    gint64 instructions; /* -1 = unknown (nxemu did not print it) */
    gint64 cycles;       /* -1 = unknown */
    char *message;       /* one line: why it failed */
    char *diag;          /* nxemu diagnostic lines and the last console lines */
    GBytes *out, *err;
    guint64 dropped[2]; /* stdout/stderr bytes not kept (output beyond the capture limit) */
    char *coverage;     /* --coverage: this case's -coverage file (a temp file), else NULL */
    /* A case read back from a shard's JSON report (nxemu-test merge): its
     * commands as that run printed them; argv is then empty. */
    char *repro, *repro_debug;
} NtCase;

/* What a report says about the run as a whole. */
typedef struct NtRunInfo {
    double wall;         /* seconds */
    char timestamp[32];  /* start, UTC, ISO 8601 "2026-12-07T03:09:07" */
    char hostname[256];  /* where the cases ran */
    const char *coverage; /* --coverage FILE of the run, recorded in the JSON report */
} NtRunInfo;
void nt_run_info_start(NtRunInfo *ri); /* timestamp = now, hostname = this host */

typedef struct NtSettings {
    const char *nxemu;      /* --nxemu (overrides the manifests' nxemu=) */
    const char *self_dir;   /* directory of the nxemu-test binary, for the default nxemu */
    double default_timeout; /* when neither case nor suite give one */
} NtSettings;

/* nxemu-test-manifest.c */
bool nt_load_input(const char *path, const NtSettings *set, GPtrArray *cases, GError **err);
void nt_case_free(NtCase *c);
bool nt_case_has_any_tag(const NtCase *c, char **tags);

/* nxemu-test-run.c */
typedef void (*NtDoneFn)(NtCase *c, void *opaque);
typedef void (*NtTickFn)(unsigned done, unsigned running, unsigned total, void *opaque);
void nt_run_cases(GPtrArray *cases, int jobs, NtDoneFn done, NtTickFn tick, void *opaque);
const char *nt_status_name(NtStatus s);
const char *nt_exit_meaning(int code);

/* nxemu-test-report.c */
char *nt_repro_command(const NtCase *c, bool debug);
bool nt_write_junit(GPtrArray *cases, const char *path, const NtRunInfo *ri, GError **err);
bool nt_write_json(GPtrArray *cases, const char *path, const NtRunInfo *ri, GError **err);
/* TAP into a string, as --tap prints it (for merge --tap FILE). */
void nt_tap_all(GString *s, GPtrArray *cases);
void nt_tap_plan(FILE *f, unsigned n);
void nt_tap_case(FILE *f, const NtCase *c, unsigned index);
void nt_print_case(FILE *f, const NtCase *c, bool verbose_pass);
void nt_print_summary(FILE *f, GPtrArray *cases, double wall, int jobs);
/* err = "PATH: error: WHY" from a file-io error (consumed) "PATH: WHY". */
void nt_file_error(GError **err, const char *path, GError *e);
bool nt_write_file(const char *path, GString *s, GError **err); /* frees @s */
void nt_json_str(GString *s, const char *text);                 /* a JSON string (NULL: null) */

/* nxemu-test-json.c: a small strict JSON reader */
typedef enum NtJType { NT_J_NULL, NT_J_BOOL, NT_J_NUM, NT_J_STR, NT_J_ARR, NT_J_OBJ } NtJType;
typedef struct NtJson {
    NtJType type;
    double num;
    char *str;
    GPtrArray *items; /* NtJson * (array values, object values) */
    GPtrArray *keys;  /* char * (object keys) */
} NtJson;
/* The whole of @text as one value; errors are "FILE:LINE: error: bad JSON: ..." */
NtJson *nt_json_parse(const char *text, const char *file, GError **err);
NtJson *nt_json_get(NtJson *obj, const char *key, NtJType type); /* NULL: absent or other type */
void nt_json_free(gpointer json);

/* nxemu-test-merge.c: `nxemu-test merge`, shard reports into one */
int nt_merge_main(int argc, char **argv);

/* nxemu-test-coverage.c: --coverage, merged nxemu -coverage reports */
typedef struct NtCoverage NtCoverage;
NtCoverage *nt_coverage_new(GError **err); /* makes the directory of the per-case files */
void nt_coverage_prepare(NtCoverage *cov, NtCase *c); /* sets c->coverage */
void nt_coverage_add(NtCoverage *cov, NtCase *c);     /* merges and removes its file */
bool nt_coverage_write(NtCoverage *cov, const char *path, GError **err); /* PATH and PATH.txt */
/* merge: add a merged report (a shard's --coverage FILE); its cases without
 * coverage go into skipped (name -> note, both owned by the table). */
bool nt_coverage_add_report(NtCoverage *cov, const char *path, GHashTable *skipped, GError **err);
/* merge: the cases without coverage, in the order given, with their reasons. */
void nt_coverage_set_skipped(NtCoverage *cov, GPtrArray *cases_in_order, GHashTable *skipped);
void nt_coverage_free(NtCoverage *cov);                                  /* removes the directory */

/* nxemu-test-shard.c: previous reports and sharding */
typedef struct NtPrev {
    NtStatus status;
    double wall;
} NtPrev;
GHashTable *nt_read_report(const char *path, GError **err); /* name -> NtPrev * */
bool nt_parse_shard(const char *spec, unsigned *index, unsigned *count, GError **err);
GPtrArray *nt_shard_select(GPtrArray *cases, unsigned index, unsigned count, GHashTable *costs);
guint64 nt_name_hash(const char *name);

#endif
