/*
 * nxemu-test --coverage: every case runs with its own `-coverage FILE` (a
 * temp file), and the reports ("nxemu-coverage-1", docs/tracing.rst) are
 * merged into one for the suite: hit counts summed per ISA, category and
 * name, covered/total/missing recomputed against the union of the names
 * the reports know.
 *
 * Reports are merged after the run, in suite order, and names are written
 * sorted, so the merged report depends only on the cases' reports, never on
 * completion order, -j or the selection's order.  A report is checked
 * completely before anything of it is added: a bad one contributes nothing.
 */
#include <glib/gstdio.h>
#include <string.h>

#include "nxemu-test.h"
#include "nxemu/file-io.h"

/* JSON numbers are doubles: counts beyond 2^53 would not be exact */
#define COUNT_MAX 9007199254740992.0

typedef struct CovName {
    guint64 hits;
    bool known; /* in some report's hits or missing: part of the ISA */
} CovName;

typedef struct CovCat {
    char *name;
    GHashTable *names; /* char * -> CovName * */
} CovCat;

typedef struct CovIsa {
    char *name;
    GPtrArray *counter_keys; /* "instructions", "bundles": per-ISA totals, summed */
    GArray *counters;        /* guint64, same order */
    GPtrArray *cats;         /* CovCat *, first-seen order (the emulator's order) */
} CovIsa;

struct NtCoverage {
    char *dir;
    GPtrArray *isas; /* CovIsa * */
    unsigned cases;
    GPtrArray *notes;   /* char *: cases that contributed nothing, and why */
    GPtrArray *skipped; /* char *: their names, same order */
};

static void cat_free(gpointer p)
{
    CovCat *c = p;
    g_free(c->name);
    g_hash_table_unref(c->names);
    g_free(c);
}

static void isa_free(gpointer p)
{
    CovIsa *i = p;
    g_free(i->name);
    g_ptr_array_unref(i->counter_keys);
    g_array_unref(i->counters);
    g_ptr_array_unref(i->cats);
    g_free(i);
}

NtCoverage *nt_coverage_new(GError **err)
{
    GError *e = NULL;
    char *dir = g_dir_make_tmp("nxemu-test-cov-XXXXXX", &e);
    if (!dir) {
        g_set_error(err, G_FILE_ERROR, e->code, "--coverage: no temp directory: %s", e->message);
        g_error_free(e);
        return NULL;
    }
    NtCoverage *cov = g_new0(NtCoverage, 1);
    cov->dir = dir;
    cov->isas = g_ptr_array_new_with_free_func(isa_free);
    cov->notes = g_ptr_array_new_with_free_func(g_free);
    cov->skipped = g_ptr_array_new_with_free_func(g_free);
    return cov;
}

/* Named by position, not case name: names may hold any character. */
void nt_coverage_prepare(NtCoverage *cov, NtCase *c)
{
    g_free(c->coverage);
    c->coverage = g_strdup_printf("%s/%d.json", cov->dir, c->order);
}

static bool is_count(const NtJson *v)
{
    return v && v->type == NT_J_NUM && v->num >= 0 && v->num <= COUNT_MAX &&
           v->num == (double)(guint64)v->num;
}

static bool counts_obj(const NtJson *o)
{
    for (guint i = 0; o && i < o->items->len; i++) {
        if (!is_count(g_ptr_array_index(o->items, i))) {
            return false;
        }
    }
    return o != NULL;
}

/* One category; NULL when it is well-formed and consistent, else what is wrong. */
static char *check_cat(const char *isa, const char *name, NtJson *cat)
{
    NtJson *hits = nt_json_get(cat, "hits", NT_J_OBJ),
           *miss = nt_json_get(cat, "missing", NT_J_ARR);
    NtJson *other = nt_json_get(cat, "other", NT_J_OBJ);
    NtJson *covered = nt_json_get(cat, "covered", NT_J_NUM),
           *total = nt_json_get(cat, "total", NT_J_NUM);
    if (!counts_obj(hits) || !miss || !counts_obj(other) || !is_count(covered) ||
        !is_count(total)) {
        return g_strdup_printf("%s.%s: expected covered, total, hits{name: count}, missing[], "
                               "other{name: count}",
                               isa, name);
    }
    unsigned nonzero = 0;
    for (guint i = 0; i < hits->items->len; i++) {
        nonzero += ((NtJson *)g_ptr_array_index(hits->items, i))->num > 0;
    }
    for (guint i = 0; i < miss->items->len; i++) {
        if (((NtJson *)g_ptr_array_index(miss->items, i))->type != NT_J_STR) {
            return g_strdup_printf("%s.%s: missing[] holds a non-string", isa, name);
        }
    }
    if (covered->num != nonzero || total->num != hits->items->len + miss->items->len) {
        return g_strdup_printf("%s.%s: covered %.0f / total %.0f disagree with %u hits and %u "
                               "missing names",
                               isa, name, covered->num, total->num, hits->items->len,
                               miss->items->len);
    }
    return NULL;
}

static char *check_report(NtJson *root)
{
    NtJson *fmt = nt_json_get(root, "format", NT_J_STR);
    NtJson *isas = nt_json_get(root, "isas", NT_J_OBJ);
    if (!fmt || strcmp(fmt->str, "nxemu-coverage-1")) {
        return g_strdup("not an \"nxemu-coverage-1\" report");
    }
    if (!isas) {
        return g_strdup("no \"isas\" object");
    }
    for (guint i = 0; i < isas->items->len; i++) {
        const char *iname = g_ptr_array_index(isas->keys, i);
        NtJson *isa = g_ptr_array_index(isas->items, i);
        NtJson *cats = nt_json_get(isa, "categories", NT_J_OBJ);
        if (!cats) {
            return g_strdup_printf("%s: no \"categories\" object", iname);
        }
        for (guint k = 0; k < isa->items->len; k++) {
            NtJson *v = g_ptr_array_index(isa->items, k);
            if (v != cats && !is_count(v)) {
                return g_strdup_printf("%s.%s: expected a count", iname,
                                       (char *)g_ptr_array_index(isa->keys, k));
            }
        }
        for (guint k = 0; k < cats->items->len; k++) {
            char *why = check_cat(iname, g_ptr_array_index(cats->keys, k),
                                  g_ptr_array_index(cats->items, k));
            if (why) {
                return why;
            }
        }
    }
    return NULL;
}

static CovIsa *find_isa(NtCoverage *cov, const char *name)
{
    for (guint i = 0; i < cov->isas->len; i++) {
        CovIsa *x = g_ptr_array_index(cov->isas, i);
        if (!strcmp(x->name, name)) {
            return x;
        }
    }
    CovIsa *x = g_new0(CovIsa, 1);
    x->name = g_strdup(name);
    x->counter_keys = g_ptr_array_new_with_free_func(g_free);
    x->counters = g_array_new(FALSE, TRUE, sizeof(guint64));
    x->cats = g_ptr_array_new_with_free_func(cat_free);
    g_ptr_array_add(cov->isas, x);
    return x;
}

static CovCat *find_cat(CovIsa *isa, const char *name)
{
    for (guint i = 0; i < isa->cats->len; i++) {
        CovCat *c = g_ptr_array_index(isa->cats, i);
        if (!strcmp(c->name, name)) {
            return c;
        }
    }
    CovCat *c = g_new0(CovCat, 1);
    c->name = g_strdup(name);
    c->names = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    g_ptr_array_add(isa->cats, c);
    return c;
}

static CovName *find_name(CovCat *c, const char *name)
{
    CovName *n = g_hash_table_lookup(c->names, name);
    if (!n) {
        n = g_new0(CovName, 1);
        g_hash_table_insert(c->names, g_strdup(name), n);
    }
    return n;
}

static void add_counter(CovIsa *isa, const char *key, guint64 v)
{
    guint i = 0;
    while (i < isa->counter_keys->len && strcmp(g_ptr_array_index(isa->counter_keys, i), key)) {
        i++;
    }
    if (i == isa->counter_keys->len) {
        g_ptr_array_add(isa->counter_keys, g_strdup(key));
        g_array_set_size(isa->counters, i + 1);
    }
    g_array_index(isa->counters, guint64, i) += v;
}

static void merge_report(NtCoverage *cov, NtJson *root)
{
    NtJson *isas = nt_json_get(root, "isas", NT_J_OBJ);
    for (guint i = 0; i < isas->items->len; i++) {
        NtJson *ij = g_ptr_array_index(isas->items, i);
        NtJson *cats = nt_json_get(ij, "categories", NT_J_OBJ);
        CovIsa *isa = find_isa(cov, g_ptr_array_index(isas->keys, i));
        for (guint k = 0; k < ij->items->len; k++) {
            NtJson *v = g_ptr_array_index(ij->items, k);
            if (v != cats) {
                add_counter(isa, g_ptr_array_index(ij->keys, k), (guint64)v->num);
            }
        }
        for (guint k = 0; k < cats->items->len; k++) {
            NtJson *cj = g_ptr_array_index(cats->items, k);
            CovCat *cat = find_cat(isa, g_ptr_array_index(cats->keys, k));
            NtJson *hits = nt_json_get(cj, "hits", NT_J_OBJ),
                   *miss = nt_json_get(cj, "missing", NT_J_ARR);
            NtJson *other = nt_json_get(cj, "other", NT_J_OBJ);
            for (guint h = 0; h < hits->items->len; h++) {
                CovName *n = find_name(cat, g_ptr_array_index(hits->keys, h));
                n->known = true;
                n->hits += (guint64)((NtJson *)g_ptr_array_index(hits->items, h))->num;
            }
            for (guint h = 0; h < miss->items->len; h++) {
                find_name(cat, ((NtJson *)g_ptr_array_index(miss->items, h))->str)->known = true;
            }
            /* "other" hits are counted too: another report may know the name */
            for (guint h = 0; h < other->items->len; h++) {
                CovName *n = find_name(cat, g_ptr_array_index(other->keys, h));
                n->hits += (guint64)((NtJson *)g_ptr_array_index(other->items, h))->num;
            }
        }
    }
}

static char *no_report_reason(const NtCase *c)
{
    if (c->status == NT_TIMEOUT || c->status == NT_ERROR) {
        return g_strdup(nt_status_name(c->status));
    }
    if (c->term_signal) {
        return g_strdup_printf("%s, killed by signal %d", nt_status_name(c->status),
                               c->term_signal);
    }
    return g_strdup_printf("%s, nxemu exit %d: %s", nt_status_name(c->status), c->exit_code,
                           nt_exit_meaning(c->exit_code));
}

void nt_coverage_add(NtCoverage *cov, NtCase *c)
{
    char *text = NULL, *why = NULL;
    GError *e = NULL;
    if (!c->coverage) {
        return;
    }
    if (!nx_file_read(NULL, c->coverage, NX_FILE_TEXT, &text, NULL, &e)) {
        char *r = no_report_reason(c);
        g_ptr_array_add(cov->notes, g_strdup_printf("%s: no coverage file (%s)", c->name, r));
        g_ptr_array_add(cov->skipped, g_strdup(c->name));
        g_free(r);
        g_error_free(e);
    } else {
        NtJson *root = nt_json_parse(text, "coverage report", &e);
        why = root ? check_report(root) : g_strdup(e->message);
        if (why) {
            g_ptr_array_add(cov->notes,
                            g_strdup_printf("%s: coverage file ignored: %s", c->name, why));
            g_ptr_array_add(cov->skipped, g_strdup(c->name));
            fprintf(stderr, "nxemu-test: warning: case %s: coverage file ignored: %s\n", c->name,
                    why);
        } else {
            merge_report(cov, root);
            cov->cases++;
        }
        g_clear_error(&e);
        nt_json_free(root);
        g_free(why);
        g_free(text);
    }
    char *txt = g_strconcat(c->coverage, ".txt", NULL);
    g_remove(c->coverage);
    g_remove(txt);
    g_free(txt);
}

bool nt_coverage_add_report(NtCoverage *cov, const char *path, GHashTable *skipped, GError **err)
{
    char *text = NULL, *why = NULL;
    GError *e = NULL;
    if (!nx_file_read(NULL, path, NX_FILE_TEXT, &text, NULL, &e)) {
        nt_file_error(err, path, e);
        return false;
    }
    NtJson *root = nt_json_parse(text, path, &e);
    NtJson *cases = root ? nt_json_get(root, "cases", NT_J_NUM) : NULL;
    NtJson *without = root ? nt_json_get(root, "cases_without_coverage", NT_J_ARR) : NULL;
    if (!root) {
        why = g_strdup(e->message);
    } else if (!(why = check_report(root)) && (!cases || !without)) {
        why = g_strdup("not a merged nxemu-test --coverage report");
    }
    if (!why) {
        merge_report(cov, root);
        cov->cases += (unsigned)cases->num;
        NtJson *notes = nt_json_get(root, "notes", NT_J_ARR);
        for (guint i = 0; i < without->items->len; i++) {
            NtJson *n = g_ptr_array_index(without->items, i);
            NtJson *note = notes && i < notes->items->len ? g_ptr_array_index(notes->items, i)
                                                          : NULL;
            if (n->type == NT_J_STR) {
                g_hash_table_insert(skipped, g_strdup(n->str),
                                    g_strdup(note && note->type == NT_J_STR ? note->str : ""));
            }
        }
    } else {
        g_set_error(err, G_FILE_ERROR, G_FILE_ERROR_FAILED, "%s: error: %s", path, why);
    }
    g_clear_error(&e);
    nt_json_free(root);
    g_free(text);
    bool ok = why == NULL;
    g_free(why);
    return ok;
}

void nt_coverage_set_skipped(NtCoverage *cov, GPtrArray *cases_in_order, GHashTable *skipped)
{
    g_ptr_array_set_size(cov->notes, 0);
    g_ptr_array_set_size(cov->skipped, 0);
    for (guint i = 0; i < cases_in_order->len; i++) {
        NtCase *c = g_ptr_array_index(cases_in_order, i);
        const char *note = g_hash_table_lookup(skipped, c->name);
        if (note && *note) {
            g_ptr_array_add(cov->notes, g_strdup(note));
            g_ptr_array_add(cov->skipped, g_strdup(c->name));
        } else if (note) { /* a report without notes: say what the case's verdict says */
            char *r = no_report_reason(c);
            g_ptr_array_add(cov->notes, g_strdup_printf("%s: no coverage file (%s)", c->name, r));
            g_ptr_array_add(cov->skipped, g_strdup(c->name));
            g_free(r);
        }
    }
}

typedef struct CatView {
    GPtrArray *hit, *missing, *other; /* sorted names (borrowed) */
} CatView;

static void cat_view(CovCat *c, CatView *v)
{
    GList *keys = g_hash_table_get_keys(c->names);
    keys = g_list_sort(keys, (GCompareFunc)strcmp);
    v->hit = g_ptr_array_new();
    v->missing = g_ptr_array_new();
    v->other = g_ptr_array_new();
    for (GList *l = keys; l; l = l->next) {
        CovName *n = g_hash_table_lookup(c->names, l->data);
        g_ptr_array_add(!n->known ? v->other : n->hits ? v->hit : v->missing, l->data);
    }
    g_list_free(keys);
}

static void cat_view_free(CatView *v)
{
    g_ptr_array_unref(v->hit);
    g_ptr_array_unref(v->missing);
    g_ptr_array_unref(v->other);
}

static void names_json(GString *s, CovCat *c, GPtrArray *names, bool counts)
{
    for (guint i = 0; i < names->len; i++) {
        const char *n = g_ptr_array_index(names, i);
        g_string_append(s, i ? "," : "");
        nt_json_str(s, n);
        if (counts) {
            g_string_append_printf(s, ":%" G_GUINT64_FORMAT,
                                   ((CovName *)g_hash_table_lookup(c->names, n))->hits);
        }
    }
}

static void cat_json(GString *s, CovCat *c)
{
    CatView v;
    cat_view(c, &v);
    nt_json_str(s, c->name);
    g_string_append_printf(s, ":{\"covered\":%u,\"total\":%u,\"hits\":{", v.hit->len,
                           v.hit->len + v.missing->len);
    names_json(s, c, v.hit, true);
    g_string_append(s, "},\"missing\":[");
    names_json(s, c, v.missing, false);
    g_string_append(s, "],\"other\":{");
    names_json(s, c, v.other, true);
    g_string_append(s, "}}");
    cat_view_free(&v);
}

/* nxemu's FILE.txt layout (docs/tracing.rst), so both read alike. */
static void cat_txt(GString *s, CovCat *c)
{
    CatView v;
    cat_view(c, &v);
    unsigned cov = v.hit->len, total = v.hit->len + v.missing->len;
    g_string_append_printf(s, "  %-15s %4u of %-4u (%5.1f%%)", c->name, cov, total,
                           total ? 100.0 * cov / total : 0.0);
    if (v.missing->len && v.missing->len <= 24) {
        g_string_append(s, "  missing:");
        for (guint i = 0; i < v.missing->len; i++) {
            g_string_append_printf(s, " %s", (char *)g_ptr_array_index(v.missing, i));
        }
    }
    if (v.other->len) {
        g_string_append(s, "  other:");
        for (guint i = 0; i < v.other->len; i++) {
            g_string_append_printf(s, " %s", (char *)g_ptr_array_index(v.other, i));
        }
    }
    g_string_append_c(s, '\n');
    cat_view_free(&v);
}

bool nt_coverage_write(NtCoverage *cov, const char *path, GError **err)
{
    GString *s = g_string_new(NULL), *t = g_string_new(NULL);
    unsigned all = cov->cases + cov->notes->len;
    g_string_append_printf(s, "{\"format\":\"nxemu-coverage-1\",\"cases\":%u,\"isas\":{",
                           cov->cases);
    g_string_append_printf(t, "nxemu ISA coverage, merged from %u of %u case%s\n", cov->cases, all,
                           all == 1 ? "" : "s");
    for (guint i = 0; i < cov->isas->len; i++) {
        CovIsa *isa = g_ptr_array_index(cov->isas, i);
        g_string_append(s, i ? ",\n  " : "\n  ");
        nt_json_str(s, isa->name);
        g_string_append(s, ":{");
        g_string_append_printf(t, "%s:", isa->name);
        for (guint k = 0; k < isa->counter_keys->len; k++) {
            const char *key = g_ptr_array_index(isa->counter_keys, k);
            guint64 v = g_array_index(isa->counters, guint64, k);
            nt_json_str(s, key);
            g_string_append_printf(s, ":%" G_GUINT64_FORMAT ",", v);
            g_string_append_printf(t, "%s %" G_GUINT64_FORMAT " %s", k ? "," : "", v, key);
        }
        g_string_append(s, "\"categories\":{");
        g_string_append_c(t, '\n');
        for (guint k = 0; k < isa->cats->len; k++) {
            g_string_append(s, k ? ",\n    " : "");
            cat_json(s, g_ptr_array_index(isa->cats, k));
            cat_txt(t, g_ptr_array_index(isa->cats, k));
        }
        g_string_append(s, "}}");
    }
    g_string_append(s, "},\n \"cases_without_coverage\":[");
    if (cov->notes->len) {
        g_string_append_printf(t, "no coverage from %u case%s:\n", cov->notes->len,
                               cov->notes->len == 1 ? "" : "s");
    }
    for (guint i = 0; i < cov->notes->len; i++) {
        g_string_append(s, i ? "," : "");
        nt_json_str(s, g_ptr_array_index(cov->skipped, i));
        g_string_append_printf(t, "  %s\n", (char *)g_ptr_array_index(cov->notes, i));
    }
    /* why each contributed nothing, so that a merge of shard reports
     * (nxemu-test merge) can say it too */
    g_string_append(s, "],\n \"notes\":[");
    for (guint i = 0; i < cov->notes->len; i++) {
        g_string_append(s, i ? "," : "");
        nt_json_str(s, g_ptr_array_index(cov->notes, i));
    }
    g_string_append(s, "]}\n");
    char *txt = g_strconcat(path, ".txt", NULL);
    bool ok = nt_write_file(path, s, err);
    if (ok) {
        ok = nt_write_file(txt, t, err);
    } else {
        g_string_free(t, TRUE);
    }
    g_free(txt);
    return ok;
}

void nt_coverage_free(NtCoverage *cov)
{
    if (!cov) {
        return;
    }
    g_rmdir(cov->dir); /* each case removed its files: the directory is empty */
    g_free(cov->dir);
    g_ptr_array_unref(cov->isas);
    g_ptr_array_unref(cov->notes);
    g_ptr_array_unref(cov->skipped);
    g_free(cov);
}
