/*
 * nxemu-test reports: the human lines and summary table, TAP, JUnit XML and
 * JSON.  All reports list cases in suite order, never in completion order,
 * so two runs of the same suite give the same report modulo times.
 */
#include <stdlib.h>
#include <string.h>

#include "nxemu-test.h"
#include "nxemu/file-io.h"

/* Words made only of these are left unquoted, so the common command reads naturally. */
static bool shell_safe(const char *w)
{
    if (!*w) {
        return false;
    }
    for (const char *p = w; *p; p++) {
        if (!g_ascii_isalnum(*p) && !strchr("_./=,:+@%-", *p)) {
            return false;
        }
    }
    return true;
}

static void append_word(GString *s, const char *w)
{
    if (shell_safe(w)) {
        g_string_append(s, w);
    } else {
        char *q = g_shell_quote(w);
        g_string_append(s, q);
        g_free(q);
    }
}

/* The exact command, runnable from any directory: a subshell entering the case's directory. */
char *nt_repro_command(const NtCase *c, bool debug)
{
    if (c->repro) { /* read back from a report (merge) */
        return g_strdup(debug && c->repro_debug ? c->repro_debug : c->repro);
    }
    GString *s = g_string_new("(cd ");
    append_word(s, c->dir);
    g_string_append(s, " &&");
    for (guint i = 0; i + 1 < c->argv->len; i++) {
        g_string_append_c(s, ' ');
        append_word(s, g_ptr_array_index(c->argv, i));
        if (i == 0 && debug) {
            g_string_append(s, " -s -S");
        }
    }
    g_string_append_c(s, ')');
    return g_string_free(s, FALSE);
}

static void print_indented(FILE *f, const char *prefix, const char *text)
{
    char **lines = g_strsplit(text, "\n", -1);
    for (unsigned i = 0; lines[i]; i++) {
        if (*lines[i] || lines[i + 1]) {
            fprintf(f, "%s%s\n", prefix, lines[i]);
        }
    }
    g_strfreev(lines);
}

void nt_print_case(FILE *f, const NtCase *c, bool verbose_pass)
{
    if (c->status == NT_PASS) {
        if (verbose_pass) {
            fprintf(f, "%-7s %s (%.2f s)\n", "PASS", c->name, c->wall);
        }
        return;
    }
    fprintf(f, "%-7s %s (%.2f s): %s\n", nt_status_name(c->status), c->name, c->wall,
            c->message ? c->message : "");
    if (c->diag) {
        print_indented(f, "    ", c->diag);
    }
    char *r = nt_repro_command(c, false), *d = nt_repro_command(c, true);
    fprintf(f, "    reproduce: %s\n    debug:     %s\n", r, d);
    g_free(r);
    g_free(d);
}

void nt_tap_plan(FILE *f, unsigned n)
{
    fprintf(f, "TAP version 13\n1..%u\n", n);
    fflush(f);
}

void nt_tap_case(FILE *f, const NtCase *c, unsigned index)
{
    /* '#' in a description starts a TAP directive: keep names plain */
    char *name = g_strdelimit(g_strdup(c->name), "#", '_');
    if (c->status == NT_PASS) {
        fprintf(f, "ok %u - %s\n", index, name);
    } else {
        fprintf(f, "not ok %u - %s\n", index, name);
        fprintf(f, "# %s: %s\n", nt_status_name(c->status), c->message ? c->message : "");
        if (c->diag) {
            print_indented(f, "#   ", c->diag);
        }
        char *r = nt_repro_command(c, false), *d = nt_repro_command(c, true);
        fprintf(f, "# reproduce: %s\n# debug:     %s\n", r, d);
        g_free(r);
        g_free(d);
    }
    g_free(name);
    fflush(f);
}

void nt_tap_all(GString *s, GPtrArray *cases)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) {
        return;
    }
    nt_tap_plan(f, cases->len);
    for (guint i = 0; i < cases->len; i++) {
        nt_tap_case(f, g_ptr_array_index(cases, i), i + 1);
    }
    fclose(f);
    g_string_append_len(s, buf, (gssize)len);
    free(buf);
}

typedef struct Tally {
    const char *suite;
    unsigned n[NT_ERROR + 1];
    unsigned total;
    double wall;
} Tally;

/* Per-suite counts in order of first appearance, plus the total in the last slot. */
static GArray *tally(GPtrArray *cases)
{
    GArray *t = g_array_new(FALSE, TRUE, sizeof(Tally));
    for (guint i = 0; i < cases->len; i++) {
        NtCase *c = g_ptr_array_index(cases, i);
        Tally *x = NULL;
        for (guint j = 0; j < t->len && !x; j++) {
            if (!strcmp(g_array_index(t, Tally, j).suite, c->suite)) {
                x = &g_array_index(t, Tally, j);
            }
        }
        if (!x) {
            Tally z = {.suite = c->suite};
            g_array_append_val(t, z);
            x = &g_array_index(t, Tally, t->len - 1);
        }
        x->n[c->status]++;
        x->total++;
        x->wall += c->wall;
    }
    Tally all = {.suite = "total"};
    for (guint j = 0; j < t->len; j++) {
        Tally *x = &g_array_index(t, Tally, j);
        for (unsigned s = 0; s <= NT_ERROR; s++) {
            all.n[s] += x->n[s];
        }
        all.total += x->total;
        all.wall += x->wall;
    }
    g_array_append_val(t, all);
    return t;
}

void nt_print_summary(FILE *f, GPtrArray *cases, double wall, int jobs)
{
    GArray *t = tally(cases);
    int w = 5;
    for (guint j = 0; j < t->len; j++) {
        w = MAX(w, (int)strlen(g_array_index(t, Tally, j).suite));
    }
    fprintf(f, "\n%-*s %6s %6s %6s %8s %6s %10s\n", w, "suite", "cases", "pass", "fail", "timeout",
            "error", "cpu-wall");
    for (guint j = 0; j < t->len; j++) {
        Tally *x = &g_array_index(t, Tally, j);
        fprintf(f, "%-*s %6u %6u %6u %8u %6u %9.2fs\n", w, x->suite, x->total, x->n[NT_PASS],
                x->n[NT_FAIL], x->n[NT_TIMEOUT], x->n[NT_ERROR], x->wall);
    }
    Tally *all = &g_array_index(t, Tally, t->len - 1);
    unsigned bad = all->total - all->n[NT_PASS];
    if (bad) {
        fprintf(f, "\nnot passed:\n");
        for (guint i = 0; i < cases->len; i++) {
            NtCase *c = g_ptr_array_index(cases, i);
            if (c->status != NT_PASS) {
                fprintf(f, "  %-7s %s", nt_status_name(c->status), c->name);
                if (c->line) {
                    fprintf(f, "  (%s:%d)", c->file, c->line);
                }
                fputc('\n', f);
            }
        }
    }
    fprintf(f, "\n%s: %u of %u cases passed in %.2f s", bad ? "FAILED" : "OK", all->n[NT_PASS],
            all->total, wall);
    if (jobs > 0) { /* merge has no -j of its own */
        fprintf(f, " (-j %d)", jobs);
    }
    fputc('\n', f);
    g_array_unref(t);
}

/* XML 1.0 text: escaped, and the characters XML cannot carry at all replaced by U+FFFD. */
static void xml_text(GString *s, const char *text)
{
    char *v = g_utf8_make_valid(text ? text : "", -1);
    for (const char *p = v; *p; p = g_utf8_next_char(p)) {
        gunichar ch = g_utf8_get_char(p);
        switch (ch) {
        case '<':
            g_string_append(s, "&lt;");
            break;
        case '>':
            g_string_append(s, "&gt;");
            break;
        case '&':
            g_string_append(s, "&amp;");
            break;
        case '"':
            g_string_append(s, "&quot;");
            break;
        case '\'':
            g_string_append(s, "&apos;");
            break;
        default:
            if ((ch < 0x20 && ch != '\t' && ch != '\n' && ch != '\r') || ch == 0xFFFE ||
                ch == 0xFFFF) {
                g_string_append_unichar(s, 0xFFFD);
            } else {
                g_string_append_len(s, p, g_utf8_next_char(p) - p);
            }
        }
    }
    g_free(v);
}

void nt_file_error(GError **err, const char *path, GError *e)
{
    const char *why = e->message;
    size_t n = strlen(path);
    if (!strncmp(why, path, n) && !strncmp(why + n, ": ", 2)) {
        why += n + 2;
    }
    g_set_error(err, G_FILE_ERROR, G_FILE_ERROR_FAILED, "%s: error: %s", path, why);
    g_error_free(e);
}

bool nt_write_file(const char *path, GString *s, GError **err)
{
    GError *e = NULL;
    bool ok = nx_file_write(NULL, path, s->str, s->len, &e);
    if (!ok) {
        nt_file_error(err, path, e);
    }
    g_string_free(s, TRUE);
    return ok;
}

static char *failure_body(const NtCase *c)
{
    char *r = nt_repro_command(c, false), *d = nt_repro_command(c, true);
    char *b = g_strdup_printf("%s\n%sreproduce: %s\ndebug: %s\n", c->message ? c->message : "",
                              c->diag ? c->diag : "", r, d);
    g_free(r);
    g_free(d);
    return b;
}

void nt_run_info_start(NtRunInfo *ri)
{
    GDateTime *now = g_date_time_new_now_utc();
    char *ts = g_date_time_format(now, "%Y-%m-%dT%H:%M:%S");
    g_strlcpy(ri->timestamp, ts, sizeof(ri->timestamp));
    g_strlcpy(ri->hostname, g_get_host_name(), sizeof(ri->hostname));
    g_free(ts);
    g_date_time_unref(now);
}

/* A case's captured output as text (what the child printed, as kept). */
static char *case_output(const NtCase *c, bool err)
{
    GBytes *b = err ? c->err : c->out;
    gsize n = 0;
    const char *p = b ? g_bytes_get_data(b, &n) : NULL;
    return g_strndup(p ? p : "", n);
}

/* <system-out>/<system-err>: the console of every case, passing ones too,
 * so a CI page shows what a case printed without re-running it. */
static void junit_output(GString *s, const NtCase *c)
{
    for (int e = 0; e < 2; e++) {
        char *text = case_output(c, e);
        if (*text) {
            g_string_append_printf(s, "      <system-%s>", e ? "err" : "out");
            xml_text(s, text);
            g_string_append_printf(s, "</system-%s>\n", e ? "err" : "out");
        }
        g_free(text);
    }
}

bool nt_write_junit(GPtrArray *cases, const char *path, const NtRunInfo *ri, GError **err)
{
    double wall = ri->wall;
    GString *s = g_string_new("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    GArray *t = tally(cases);
    Tally *all = &g_array_index(t, Tally, t->len - 1);
    g_string_append_printf(s,
                           "<testsuites name=\"nxemu-test\" tests=\"%u\" failures=\"%u\" "
                           "errors=\"%u\" time=\"%.3f\">\n",
                           all->total, all->n[NT_FAIL] + all->n[NT_TIMEOUT], all->n[NT_ERROR],
                           wall);
    for (guint j = 0; j + 1 < t->len; j++) {
        Tally *x = &g_array_index(t, Tally, j);
        g_string_append(s, "  <testsuite name=\"");
        xml_text(s, x->suite);
        g_string_append_printf(s,
                               "\" tests=\"%u\" failures=\"%u\" errors=\"%u\" skipped=\"0\" "
                               "time=\"%.3f\" timestamp=\"",
                               x->total, x->n[NT_FAIL] + x->n[NT_TIMEOUT], x->n[NT_ERROR], x->wall);
        xml_text(s, ri->timestamp);
        g_string_append(s, "\" hostname=\"");
        xml_text(s, ri->hostname);
        g_string_append(s, "\">\n");
        for (guint i = 0; i < cases->len; i++) {
            NtCase *c = g_ptr_array_index(cases, i);
            if (strcmp(c->suite, x->suite)) {
                continue;
            }
            g_string_append(s, "    <testcase name=\"");
            xml_text(s, c->name);
            g_string_append(s, "\" classname=\"");
            xml_text(s, c->suite);
            g_string_append_printf(s, "\" time=\"%.3f\">\n", c->wall);
            if (c->status != NT_PASS) {
                const char *el = c->status == NT_ERROR ? "error" : "failure";
                char *body = failure_body(c);
                g_string_append_printf(s, "      <%s type=\"%s\" message=\"", el,
                                       nt_status_name(c->status));
                xml_text(s, c->message);
                g_string_append(s, "\">");
                xml_text(s, body);
                g_string_append_printf(s, "</%s>\n", el);
                g_free(body);
            }
            junit_output(s, c);
            g_string_append(s, "    </testcase>\n");
        }
        g_string_append(s, "  </testsuite>\n");
    }
    g_string_append(s, "</testsuites>\n");
    g_array_unref(t);
    return nt_write_file(path, s, err);
}

void nt_json_str(GString *s, const char *text)
{
    if (!text) {
        g_string_append(s, "null");
        return;
    }
    char *v = g_utf8_make_valid(text, -1);
    g_string_append_c(s, '"');
    for (const unsigned char *p = (const unsigned char *)v; *p; p++) {
        if (*p == '"' || *p == '\\') {
            g_string_append_printf(s, "\\%c", *p);
        } else if (*p == '\n') {
            g_string_append(s, "\\n");
        } else if (*p < 0x20) {
            g_string_append_printf(s, "\\u%04x", *p);
        } else {
            g_string_append_c(s, (char)*p);
        }
    }
    g_string_append_c(s, '"');
    g_free(v);
}

static void json_int(GString *s, gint64 v)
{
    if (v < 0) {
        g_string_append(s, "null");
    } else {
        g_string_append_printf(s, "%" G_GINT64_FORMAT, v);
    }
}

bool nt_write_json(GPtrArray *cases, const char *path, const NtRunInfo *ri, GError **err)
{
    double wall = ri->wall;
    GString *s = g_string_new("{\n  \"version\": 1,\n  \"timestamp\": ");
    nt_json_str(s, ri->timestamp);
    g_string_append(s, ",\n  \"hostname\": ");
    nt_json_str(s, ri->hostname);
    g_string_append(s, ",\n  \"coverage\": ");
    nt_json_str(s, ri->coverage); /* null without --coverage */
    g_string_append(s, ",\n");
    GArray *t = tally(cases);
    Tally *all = &g_array_index(t, Tally, t->len - 1);
    g_string_append_printf(s,
                           "  \"summary\": {\"total\": %u, \"pass\": %u, \"fail\": %u, "
                           "\"timeout\": %u, \"error\": %u, \"wall_time\": %.6f},\n",
                           all->total, all->n[NT_PASS], all->n[NT_FAIL], all->n[NT_TIMEOUT],
                           all->n[NT_ERROR], wall);
    g_array_unref(t);
    g_string_append(s, "  \"cases\": [");
    for (guint i = 0; i < cases->len; i++) {
        NtCase *c = g_ptr_array_index(cases, i);
        char *cmd = nt_repro_command(c, false);
        g_string_append(s, i ? ",\n    {\"name\": " : "\n    {\"name\": ");
        nt_json_str(s, c->name);
        g_string_append(s, ", \"suite\": ");
        nt_json_str(s, c->suite);
        g_string_append_printf(s,
                               ", \"status\": \"%s\", \"exit_code\": ", nt_status_name(c->status));
        json_int(s, c->exit_code);
        g_string_append_printf(s, ", \"wall_time\": %.6f, \"instructions\": ", c->wall);
        json_int(s, c->instructions);
        g_string_append(s, ", \"cycles\": ");
        json_int(s, c->cycles);
        g_string_append(s, ", \"tags\": [");
        for (unsigned k = 0; c->tags[k]; k++) {
            if (k) {
                g_string_append(s, ", ");
            }
            nt_json_str(s, c->tags[k]);
        }
        g_string_append(s, "], \"message\": ");
        nt_json_str(s, c->message);
        g_string_append(s, ", \"diagnostic\": ");
        nt_json_str(s, c->diag);
        g_string_append(s, ", \"command\": ");
        nt_json_str(s, cmd);
        char *dbg = nt_repro_command(c, true);
        g_string_append(s, ", \"debug_command\": ");
        nt_json_str(s, dbg);
        g_free(dbg);
        /* what merge needs to rebuild this report's cases: suite position
         * and the captured console */
        g_string_append_printf(s, ", \"order\": %d, \"stdout\": ", c->order);
        char *text = case_output(c, false);
        nt_json_str(s, text);
        g_free(text);
        g_string_append(s, ", \"stderr\": ");
        text = case_output(c, true);
        nt_json_str(s, text);
        g_free(text);
        g_string_append(s, "}");
        g_free(cmd);
    }
    g_string_append(s, "\n  ]\n}\n");
    return nt_write_file(path, s, err);
}
