/*
 * nxemu-test merge: the JSON reports of the shards of one suite (--shard
 * I/N on N CI jobs) read back and written as one report, JSON, JUnit or
 * TAP, and their --coverage reports merged, so that the result is the
 * report one unsharded run would have written except for wall times, the
 * timestamp and the host.
 *
 * Cases are put back in suite order (each JSON case carries its position,
 * "order"); a case in two reports is an error, since shards partition a
 * suite.  Exit status as a run's: 0 every case passed, 1 some did not, 2 a
 * usage error or a report that cannot be read.
 */
#include <string.h>

#include "nxemu-test.h"
#include "nxemu/file-io.h"

static NtStatus status_of(const char *s)
{
    static const NtStatus all[] = {NT_PASS, NT_FAIL, NT_TIMEOUT, NT_ERROR};
    for (size_t i = 0; i < G_N_ELEMENTS(all); i++) {
        if (!strcmp(s, nt_status_name(all[i]))) {
            return all[i];
        }
    }
    return NT_PENDING;
}

static char *str_or_null(NtJson *o, const char *key)
{
    NtJson *v = nt_json_get(o, key, NT_J_STR);
    return v ? g_strdup(v->str) : NULL;
}

static gint64 int_or_unknown(NtJson *o, const char *key)
{
    NtJson *v = nt_json_get(o, key, NT_J_NUM);
    return v ? (gint64)v->num : -1;
}

/* One case of a report; NULL with *why when it is malformed. */
static NtCase *case_from_json(NtJson *j, char **why)
{
    NtJson *name = nt_json_get(j, "name", NT_J_STR), *suite = nt_json_get(j, "suite", NT_J_STR);
    NtJson *status = nt_json_get(j, "status", NT_J_STR), *cmd = nt_json_get(j, "command", NT_J_STR);
    NtJson *order = nt_json_get(j, "order", NT_J_NUM), *tags = nt_json_get(j, "tags", NT_J_ARR);
    if (!name || !suite || !status || !cmd || !order || !tags ||
        status_of(status->str) == NT_PENDING) {
        *why = g_strdup("a case lacks name, suite, status, command, order or tags "
                        "(a report of an nxemu-test older than merge?)");
        return NULL;
    }
    NtCase *c = g_new0(NtCase, 1);
    c->name = g_strdup(name->str);
    c->suite = g_strdup(suite->str);
    c->status = status_of(status->str);
    c->exit_code = (int)int_or_unknown(j, "exit_code");
    NtJson *wall = nt_json_get(j, "wall_time", NT_J_NUM);
    c->wall = wall ? wall->num : 0;
    c->instructions = int_or_unknown(j, "instructions");
    c->cycles = int_or_unknown(j, "cycles");
    c->message = str_or_null(j, "message");
    c->diag = str_or_null(j, "diagnostic");
    c->repro = g_strdup(cmd->str);
    c->repro_debug = str_or_null(j, "debug_command");
    c->order = (int)order->num;
    GPtrArray *t = g_ptr_array_new();
    for (guint i = 0; i < tags->items->len; i++) {
        NtJson *v = g_ptr_array_index(tags->items, i);
        if (v->type == NT_J_STR) {
            g_ptr_array_add(t, g_strdup(v->str));
        }
    }
    g_ptr_array_add(t, NULL);
    c->tags = (char **)g_ptr_array_free(t, FALSE);
    char *out = str_or_null(j, "stdout"), *err = str_or_null(j, "stderr");
    c->out = g_bytes_new_take(out ? out : g_strdup(""), out ? strlen(out) : 0);
    c->err = g_bytes_new_take(err ? err : g_strdup(""), err ? strlen(err) : 0);
    /* the fields a run fills and a report never reads */
    c->argv = g_ptr_array_new();
    c->expect_stdout = g_ptr_array_new();
    c->expect_stderr = g_ptr_array_new();
    c->re_stdout = g_ptr_array_new();
    c->re_stderr = g_ptr_array_new();
    c->file = g_strdup("");
    c->dir = g_strdup("");
    return c;
}

static int by_order(gconstpointer a, gconstpointer b)
{
    const NtCase *x = *(NtCase *const *)a, *y = *(NtCase *const *)b;
    return x->order != y->order ? (x->order < y->order ? -1 : 1) : strcmp(x->name, y->name);
}

/* The shard's coverage file: beside the report (CI artifacts downloaded into
 * one folder), else where the run wrote it. */
static char *coverage_path(const char *report, const char *recorded)
{
    g_autofree char *dir = g_path_get_dirname(report);
    g_autofree char *base = g_path_get_basename(recorded);
    char *beside = g_build_filename(dir, base, NULL);
    if (g_file_test(beside, G_FILE_TEST_EXISTS) || !g_path_is_absolute(recorded)) {
        return beside;
    }
    g_free(beside);
    return g_strdup(recorded);
}

typedef struct MergeOpts {
    char *json, *junit, *tap, *coverage;
    char **inputs;
} MergeOpts;

int nt_merge_main(int argc, char **argv)
{
    MergeOpts op = {0};
    GOptionEntry entries[] = {
        {"json", 0, 0, G_OPTION_ARG_FILENAME, &op.json, "write the merged JSON report", "FILE"},
        {"junit", 0, 0, G_OPTION_ARG_FILENAME, &op.junit, "write a JUnit XML report", "FILE"},
        {"tap", 0, 0, G_OPTION_ARG_FILENAME, &op.tap, "write a TAP report", "FILE"},
        {"coverage", 0, 0, G_OPTION_ARG_FILENAME, &op.coverage,
         "merge the shards' --coverage reports into FILE (and FILE.txt)", "FILE"},
        {G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &op.inputs, NULL,
         "SHARD-REPORT.json..."},
        {NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    GOptionContext *ctx = g_option_context_new("SHARD-REPORT.json... - merge shard reports");
    g_option_context_add_main_entries(ctx, entries, NULL);
    g_option_context_set_description(
        ctx, "Each SHARD-REPORT is the --json report of one shard (--shard I/N) of a suite.\n"
             "Exit status: 0 every case passed, 1 some did not, 2 usage error or bad report.\n");
    GPtrArray *cases = g_ptr_array_new_with_free_func((GDestroyNotify)nt_case_free);
    GHashTable *names = g_hash_table_new(g_str_hash, g_str_equal);
    GHashTable *skipped = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    NtCoverage *cov = NULL;
    NtRunInfo ri = {0};
    GError *e = NULL;
    int rc = NT_EXIT_USAGE;
    char *hosts = NULL;

    if (!g_option_context_parse(ctx, &argc, &argv, &e)) {
        fprintf(stderr, "nxemu-test merge: error: %s\n", e->message);
        g_error_free(e);
        goto out;
    }
    if (!op.inputs || !op.inputs[0]) {
        fprintf(stderr, "nxemu-test merge: error: no shard report given (see merge --help)\n");
        goto out;
    }
    if (op.coverage && !(cov = nt_coverage_new(&e))) {
        fprintf(stderr, "nxemu-test merge: error: %s\n", e->message);
        g_error_free(e);
        goto out;
    }
    for (unsigned i = 0; op.inputs[i]; i++) {
        const char *path = op.inputs[i];
        char *text = NULL, *why = NULL;
        if (!nx_file_read(NULL, path, NX_FILE_TEXT, &text, NULL, &e)) {
            GError *f = NULL;
            nt_file_error(&f, path, e);
            fprintf(stderr, "%s\n", f->message);
            g_error_free(f);
            goto out;
        }
        NtJson *root = nt_json_parse(text, path, &e);
        g_free(text);
        if (!root) {
            fprintf(stderr, "%s\n", e->message);
            g_error_free(e);
            goto out;
        }
        NtJson *list = nt_json_get(root, "cases", NT_J_ARR);
        NtJson *wall = nt_json_get(nt_json_get(root, "summary", NT_J_OBJ), "wall_time", NT_J_NUM);
        NtJson *ts = nt_json_get(root, "timestamp", NT_J_STR);
        NtJson *host = nt_json_get(root, "hostname", NT_J_STR);
        NtJson *covf = nt_json_get(root, "coverage", NT_J_STR);
        if (!list) {
            why = g_strdup("not an nxemu-test --json report (no \"cases\")");
        }
        for (guint k = 0; !why && k < list->items->len; k++) {
            NtCase *c = case_from_json(g_ptr_array_index(list->items, k), &why);
            if (!c) {
                break;
            }
            if (g_hash_table_contains(names, c->name)) {
                why = g_strdup_printf("case '%s' is in two reports: shards of one suite do not "
                                      "overlap",
                                      c->name);
                nt_case_free(c);
                break;
            }
            g_ptr_array_add(cases, c);
            g_hash_table_add(names, c->name);
        }
        if (!why) {
            /* shards run side by side: the merged run took the longest one's time */
            ri.wall = MAX(ri.wall, wall ? wall->num : 0);
            if (ts && (!ri.timestamp[0] || strcmp(ts->str, ri.timestamp) < 0)) {
                g_strlcpy(ri.timestamp, ts->str, sizeof(ri.timestamp));
            }
            if (host && (!hosts || !strstr(hosts, host->str))) {
                char *h = hosts ? g_strconcat(hosts, ",", host->str, NULL) : g_strdup(host->str);
                g_free(hosts);
                hosts = h;
            }
        }
        if (!why && cov) {
            if (!covf) {
                why = g_strdup("no coverage: this shard ran without --coverage");
            } else {
                char *cp = coverage_path(path, covf->str);
                if (!nt_coverage_add_report(cov, cp, skipped, &e)) {
                    why = g_strdup(e->message);
                    g_clear_error(&e);
                }
                g_free(cp);
            }
        }
        nt_json_free(root);
        if (why) {
            fprintf(stderr, "%s: error: %s\n", path, why);
            g_free(why);
            goto out;
        }
    }
    g_strlcpy(ri.hostname, hosts ? hosts : "", sizeof(ri.hostname));
    ri.coverage = op.coverage; /* the merged coverage, as a run records its own */
    g_ptr_array_sort(cases, by_order);
    if (cov) {
        nt_coverage_set_skipped(cov, cases, skipped);
    }
    nt_print_summary(stdout, cases, ri.wall, 0);
    if (op.tap) {
        GString *s = g_string_new(NULL);
        nt_tap_all(s, cases);
        if (!nt_write_file(op.tap, s, &e)) {
            goto report_error;
        }
    }
    if ((op.junit && !nt_write_junit(cases, op.junit, &ri, &e)) ||
        (op.json && !nt_write_json(cases, op.json, &ri, &e)) ||
        (cov && !nt_coverage_write(cov, op.coverage, &e))) {
        goto report_error;
    }
    rc = NT_EXIT_PASS;
    for (guint i = 0; i < cases->len; i++) {
        if (((NtCase *)g_ptr_array_index(cases, i))->status != NT_PASS) {
            rc = NT_EXIT_FAIL;
        }
    }
    goto out;
report_error:
    fprintf(stderr, "%s\n", e->message);
    g_error_free(e);
out:
    g_hash_table_unref(names);
    g_hash_table_unref(skipped);
    g_ptr_array_unref(cases);
    nt_coverage_free(cov);
    g_option_context_free(ctx);
    g_free(hosts);
    g_free(op.json);
    g_free(op.junit);
    g_free(op.tap);
    g_free(op.coverage);
    g_strfreev(op.inputs);
    return rc;
}
