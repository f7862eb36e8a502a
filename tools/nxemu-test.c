/*
 * nxemu-test: run a suite of nxemu images (manifests or directories) and
 * turn it into a CI result: verdicts, a summary, TAP/JUnit/JSON reports,
 * sharding across runners.  See docs/nxemu-test.rst.
 *
 * Exit status: 0 every selected case passed (or none was selected),
 * 1 some case did not pass, 2 usage or manifest error.
 */
#include <string.h>
#include <unistd.h>

#include "nxemu-test.h"
#include "nxemu-version.h"
#include "nxemu/file-io.h"

typedef struct Opts {
    int jobs;
    char *tags, *exclude_tags, *shard, *cost_from, *failed_from;
    char *junit, *json, *nxemu, *coverage;
    gboolean tap, list, verbose, version;
    double timeout;
    char **inputs;
} Opts;

typedef struct Out {
    GPtrArray *cases;
    unsigned reported; /* cases printed so far, in suite order */
    FILE *human;
    bool tty, tap, verbose;
    unsigned failed;
    bool progress_shown;
} Out;

static void clear_progress(Out *o)
{
    if (o->progress_shown) {
        fputs("\r\033[K", o->human);
        o->progress_shown = false;
    }
}

/* Results are printed in suite order: a case waits until every earlier case is done. */
static void on_done(NtCase *c, void *opaque)
{
    Out *o = opaque;
    o->failed += c->status != NT_PASS;
    while (o->reported < o->cases->len) {
        NtCase *x = g_ptr_array_index(o->cases, o->reported);
        if (x->status == NT_PENDING) {
            break;
        }
        o->reported++;
        clear_progress(o);
        nt_print_case(o->human, x, !o->tty || o->verbose);
        if (o->tap) {
            nt_tap_case(stdout, x, o->reported);
        }
    }
    fflush(o->human);
}

static void on_tick(unsigned done, unsigned running, unsigned total, void *opaque)
{
    Out *o = opaque;
    if (!o->tty) {
        return;
    }
    fprintf(o->human, "\r\033[K[%u/%u] %u running, %u not passed", done, total, running, o->failed);
    o->progress_shown = true;
    fflush(o->human);
}

static char **split_list(const char *s)
{
    if (!s) {
        return NULL;
    }
    char **v = g_strsplit_set(s, ",; ", -1);
    unsigned w = 0;
    for (unsigned r = 0; v[r]; r++) {
        if (*v[r]) {
            v[w++] = v[r];
        } else {
            g_free(v[r]);
        }
    }
    v[w] = NULL;
    return v;
}

static char *self_dir(const char *argv0)
{
    char *exe = g_file_read_link("/proc/self/exe", NULL);
    char *dir = g_path_get_dirname(exe ? exe : argv0);
    g_free(exe);
    return dir;
}

static int usage_error(GError *e)
{
    fprintf(stderr, "nxemu-test: error: %s\n", e->message);
    g_error_free(e);
    return NT_EXIT_USAGE;
}

/* Tags, failed-from and shard filters, applied in that order (shards split what is left). */
static GPtrArray *select_cases(GPtrArray *all, const Opts *op, GError **err)
{
    char **tags = split_list(op->tags), **xtags = split_list(op->exclude_tags);
    GHashTable *failed = NULL, *costs = NULL;
    GPtrArray *sel = g_ptr_array_new();
    unsigned si = 1, sn = 1;
    bool ok = (!op->shard || nt_parse_shard(op->shard, &si, &sn, err)) &&
              (!op->failed_from || (failed = nt_read_report(op->failed_from, err))) &&
              (!op->cost_from || (costs = nt_read_report(op->cost_from, err)));
    for (guint i = 0; ok && i < all->len; i++) {
        NtCase *c = g_ptr_array_index(all, i);
        NtPrev *p = failed ? g_hash_table_lookup(failed, c->name) : NULL;
        if ((tags && !nt_case_has_any_tag(c, tags)) || (xtags && nt_case_has_any_tag(c, xtags)) ||
            (failed && (!p || p->status == NT_PASS))) {
            continue;
        }
        g_ptr_array_add(sel, c);
    }
    if (ok && op->shard) {
        GPtrArray *sh = nt_shard_select(sel, si, sn, costs);
        g_ptr_array_unref(sel);
        sel = sh;
    }
    g_strfreev(tags);
    g_strfreev(xtags);
    if (failed) {
        g_hash_table_unref(failed);
    }
    if (costs) {
        g_hash_table_unref(costs);
    }
    if (!ok) {
        g_ptr_array_unref(sel);
        sel = NULL;
    }
    return sel;
}

/* An emulator that cannot start would give every case the same ERROR:
 * start each distinct one once (nxemu -version, a few milliseconds) and
 * stop at the first that fails, with one line. */
static bool emulators_start(GPtrArray *cases)
{
    GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal);
    bool ok = true;
    for (guint i = 0; ok && i < cases->len; i++) {
        NtCase *c = g_ptr_array_index(cases, i);
        char *nx = c->argv->len > 1 ? g_ptr_array_index(c->argv, 0) : NULL;
        if (!nx || g_hash_table_contains(seen, nx)) {
            continue;
        }
        g_hash_table_add(seen, nx);
        char *av[] = {nx, "-version", NULL};
        char *out = NULL, *err = NULL;
        int wait = 0;
        GError *e = NULL;
        if (!g_spawn_sync(NULL, av, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &wait, &e)) {
            fprintf(stderr, "nxemu-test: error: %s: cannot start the emulator: %s\n", nx,
                    e->message);
            g_error_free(e);
            ok = false;
        } else if (!g_spawn_check_wait_status(wait, NULL)) {
            fprintf(stderr,
                    "nxemu-test: error: %s: the emulator does not start (%s -version failed: "
                    "%s)\n",
                    nx, nx, err && *err ? g_strchomp(err) : "no message");
            ok = false;
        }
        g_free(out);
        g_free(err);
    }
    g_hash_table_unref(seen);
    return ok;
}

/* Reports are written at the end: a path that cannot take one is found
 * before any case runs (include/nxemu/file-io.h); one line on stderr. */
static bool reports_writable(const char *junit, const char *json, const char *coverage)
{
    g_autofree char *cov_txt = coverage ? g_strconcat(coverage, ".txt", NULL) : NULL;
    const char *outs[] = {junit, json, coverage, cov_txt};
    for (size_t i = 0; i < G_N_ELEMENTS(outs); i++) {
        GError *why = NULL, *e = NULL;
        if (outs[i] && !nx_output_check(NULL, outs[i], &why)) {
            nt_file_error(&e, outs[i], why);
            fprintf(stderr, "%s\n", e->message);
            g_error_free(e);
            return false;
        }
    }
    return true;
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "merge")) { /* nxemu-test merge SHARD-REPORT... */
        return nt_merge_main(argc - 1, argv + 1);
    }
    Opts op = {.timeout = 300};
    GOptionEntry entries[] = {
        {"jobs", 'j', 0, G_OPTION_ARG_INT, &op.jobs, "run N cases at once (default: all cores)",
         "N"},
        {"tags", 0, 0, G_OPTION_ARG_STRING, &op.tags, "run only cases with one of these tags",
         "A,B"},
        {"exclude-tags", 0, 0, G_OPTION_ARG_STRING, &op.exclude_tags,
         "skip cases with one of these tags", "A,B"},
        {"shard", 0, 0, G_OPTION_ARG_STRING, &op.shard, "run only shard I of N (1 <= I <= N)",
         "I/N"},
        {"cost-from", 0, 0, G_OPTION_ARG_FILENAME, &op.cost_from,
         "balance shards by the wall times of a previous --json report", "REPORT.json"},
        {"failed-from", 0, 0, G_OPTION_ARG_FILENAME, &op.failed_from,
         "run only the cases that did not pass in a previous --json report", "REPORT.json"},
        {"junit", 0, 0, G_OPTION_ARG_FILENAME, &op.junit, "write a JUnit XML report", "FILE"},
        {"tap", 0, 0, G_OPTION_ARG_NONE, &op.tap, "print TAP on stdout (human output to stderr)",
         NULL},
        {"json", 0, 0, G_OPTION_ARG_FILENAME, &op.json, "write a JSON report", "FILE"},
        {"coverage", 0, 0, G_OPTION_ARG_FILENAME, &op.coverage,
         "run each case with -coverage and merge the ISA coverage into FILE (summary FILE.txt)",
         "FILE"},
        {"nxemu", 0, 0, G_OPTION_ARG_FILENAME, &op.nxemu,
         "the nxemu binary (default: the manifest's nxemu=, else next to nxemu-test, else $PATH)",
         "PATH"},
        {"timeout", 0, 0, G_OPTION_ARG_DOUBLE, &op.timeout,
         "wall-clock timeout of cases that set none (default 300, 0 = none)", "SECONDS"},
        {"list", 0, 0, G_OPTION_ARG_NONE, &op.list, "list the selected cases and exit", NULL},
        {"version", 0, 0, G_OPTION_ARG_NONE, &op.version, "print the version and exit", NULL},
        {"verbose", 'v', 0, G_OPTION_ARG_NONE, &op.verbose, "print passing cases on a terminal too",
         NULL},
        {G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &op.inputs, NULL,
         "MANIFEST|DIR..."},
        {NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    GOptionContext *ctx = g_option_context_new("- run nxemu regression images");
    g_option_context_add_main_entries(ctx, entries, NULL);
    g_option_context_set_description(
        ctx, "A DIR runs every *.elf / *.fit in it with -kernel, expecting exit 0.\n"
             "nxemu-test merge [--json|--junit|--tap|--coverage OUT] SHARD.json... merges the\n"
             "--json reports of a suite's shards into one (nxemu-test merge --help).\n"
             "Exit status: 0 all selected cases passed, 1 some did not, 2 usage or manifest "
             "error.\n");
    GError *e = NULL;
    int rc = NT_EXIT_PASS;
    GPtrArray *all = g_ptr_array_new_with_free_func((GDestroyNotify)nt_case_free);
    GPtrArray *sel = NULL;
    NtCoverage *cov = NULL;
    char *sdir = self_dir(argv[0]);
    NtSettings set = {.self_dir = sdir};

    if (!g_option_context_parse(ctx, &argc, &argv, &e)) {
        rc = usage_error(e);
        goto out;
    }
    if (op.version) {
        fputs(NXEMU_VERSION_LINE("nxemu-test"), stdout);
        goto out;
    }
    if (!op.inputs || !op.inputs[0]) {
        fprintf(stderr, "nxemu-test: error: no manifest or directory given (see --help)\n");
        rc = NT_EXIT_USAGE;
        goto out;
    }
    if (op.jobs < 0 || !(op.timeout >= 0)) {
        fprintf(stderr, "nxemu-test: error: -j and --timeout must not be negative\n");
        rc = NT_EXIT_USAGE;
        goto out;
    }
    set.nxemu = op.nxemu;
    set.default_timeout = op.timeout;
    for (unsigned i = 0; op.inputs[i]; i++) {
        if (!nt_load_input(op.inputs[i], &set, all, &e)) {
            /* the message is already "file:line: error: ..." */
            fprintf(stderr, "%s\n", e->message);
            g_error_free(e);
            rc = NT_EXIT_USAGE;
            goto out;
        }
    }
    for (guint i = 0; i < all->len; i++) {
        ((NtCase *)g_ptr_array_index(all, i))->order = (int)i;
    }
    if (!(sel = select_cases(all, &op, &e))) {
        fprintf(stderr, "%s%s\n",
                strstr(e->message, "error:") ? "" : "nxemu-test: error: ", e->message);
        g_error_free(e);
        rc = NT_EXIT_USAGE;
        goto out;
    }
    if (op.list) {
        for (guint i = 0; i < sel->len; i++) {
            printf("%s\n", ((NtCase *)g_ptr_array_index(sel, i))->name);
        }
        goto out;
    }

    if (!reports_writable(op.junit, op.json, op.coverage) || !emulators_start(sel)) {
        rc = NT_EXIT_USAGE;
        goto out;
    }
    if (op.coverage) {
        if (!(cov = nt_coverage_new(&e))) {
            rc = usage_error(e);
            goto out;
        }
        for (guint i = 0; i < sel->len; i++) {
            nt_coverage_prepare(cov, g_ptr_array_index(sel, i));
        }
    }
    int jobs = op.jobs ? op.jobs : (int)g_get_num_processors();
    Out o = {.cases = sel, .human = op.tap ? stderr : stdout, .tap = op.tap, .verbose = op.verbose};
    o.tty = isatty(fileno(o.human));
    if (op.tap) {
        nt_tap_plan(stdout, sel->len);
    }
    NtRunInfo ri = {.coverage = op.coverage};
    nt_run_info_start(&ri);
    gint64 t0 = g_get_monotonic_time();
    nt_run_cases(sel, jobs, on_done, on_tick, &o);
    double wall = (double)(g_get_monotonic_time() - t0) / G_USEC_PER_SEC;
    ri.wall = wall;
    clear_progress(&o);
    /* after the run, in suite order: the merged report does not depend on completion order */
    for (guint i = 0; cov && i < sel->len; i++) {
        nt_coverage_add(cov, g_ptr_array_index(sel, i));
    }
    nt_print_summary(o.human, sel, wall, jobs);
    if ((op.junit && !nt_write_junit(sel, op.junit, &ri, &e)) ||
        (op.json && !nt_write_json(sel, op.json, &ri, &e)) ||
        (cov && !nt_coverage_write(cov, op.coverage, &e))) {
        fprintf(stderr, "%s\n", e->message);
        g_error_free(e);
        rc = NT_EXIT_USAGE;
        goto out;
    }
    rc = o.failed ? NT_EXIT_FAIL : NT_EXIT_PASS;

out:
    fflush(stdout);
    if (sel) {
        g_ptr_array_unref(sel);
    }
    g_ptr_array_unref(all);
    nt_coverage_free(cov);
    g_option_context_free(ctx);
    g_free(sdir);
    g_free(op.tags);
    g_free(op.exclude_tags);
    g_free(op.shard);
    g_free(op.cost_from);
    g_free(op.failed_from);
    g_free(op.junit);
    g_free(op.json);
    g_free(op.coverage);
    g_free(op.nxemu);
    g_strfreev(op.inputs);
    return rc;
}
