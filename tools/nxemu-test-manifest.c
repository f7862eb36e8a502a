/*
 * nxemu-test manifests: GLib key files ([suite] and [case NAME] groups) and
 * the zero-configuration directory mode.
 *
 * GKeyFile parses values (escapes, numbers), but its errors carry no line
 * numbers and it silently merges duplicate groups and keys.  A manifest is
 * reviewed and edited by hand, so a line scan runs first: it checks the
 * syntax line by line, records where every group and key is, rejects
 * duplicates and collects the repeatable expect-* patterns raw (regexes
 * full of backslashes must not go through key-file unescaping).
 */
#include <errno.h>
#include <string.h>

#include "nxemu-test.h"
#include "nxemu/file-io.h"

typedef struct ScanKey {
    char *key;
    char *raw; /* value as written, surrounding whitespace removed */
    int line;
} ScanKey;

typedef struct ScanGroup {
    char *name;   /* "suite" or "case NAME", surrounding whitespace removed */
    char *kfname; /* exactly as between the brackets: GKeyFile's group name */
    int line;
    GPtrArray *keys; /* ScanKey *, file order */
} ScanGroup;

typedef struct Scan {
    const char *file;
    GPtrArray *groups; /* ScanGroup * */
} Scan;

static void scan_key_free(gpointer p)
{
    ScanKey *k = p;
    g_free(k->key);
    g_free(k->raw);
    g_free(k);
}

static void scan_group_free(gpointer p)
{
    ScanGroup *g = p;
    g_free(g->name);
    g_free(g->kfname);
    g_ptr_array_unref(g->keys);
    g_free(g);
}

static bool at(GError **err, const char *file, int line, const char *fmt, ...) G_GNUC_PRINTF(4, 5);
static bool at(GError **err, const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_set_error(err, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_PARSE, "%s:%d: error: %s", file, line, msg);
    g_free(msg);
    return false;
}

static const char *const suite_keys[] = {"nxemu", "args", "timeout", "cycle-limit", NULL};
static const char *const case_keys[] = {"images",        "args",          "expect-exit",
                                        "expect-stdout", "expect-stderr", "cycle-limit",
                                        "timeout",       "tags",          NULL};

static bool repeatable(const char *key)
{
    return !strcmp(key, "expect-stdout") || !strcmp(key, "expect-stderr");
}

static bool scan_text(Scan *s, char *text, GError **err)
{
    char **lines = g_strsplit(text, "\n", -1);
    ScanGroup *cur = NULL;
    bool ok = true;

    for (int i = 0; ok && lines[i]; i++) {
        int ln = i + 1;
        char *l = g_strstrip(lines[i]);
        if (!g_utf8_validate(l, -1, NULL)) {
            ok = at(err, s->file, ln, "line is not valid UTF-8");
        } else if (!*l || *l == '#') {
            continue;
        } else if (*l == '[') {
            size_t n = strlen(l);
            if (l[n - 1] != ']' || n < 3) {
                ok = at(err, s->file, ln,
                        "malformed group header '%s' (expected [suite] or "
                        "[case NAME])",
                        l);
                break;
            }
            char *name = g_strstrip(g_strndup(l + 1, n - 2));
            if (strpbrk(name, "[]")) {
                ok = at(err, s->file, ln, "malformed group header '%s'", l);
                g_free(name);
                break;
            }
            bool is_case = g_str_has_prefix(name, "case ") && *g_strstrip(name + 5);
            if (strcmp(name, "suite") && !is_case) {
                ok = at(err, s->file, ln, "unknown group [%s] (expected [suite] or [case NAME])",
                        name);
                g_free(name);
                break;
            }
            for (guint g = 0; g < s->groups->len; g++) {
                ScanGroup *o = g_ptr_array_index(s->groups, g);
                if (!strcmp(o->name, name)) {
                    ok = at(err, s->file, ln, "duplicate group [%s] (first at line %d)", name,
                            o->line);
                }
            }
            cur = g_new0(ScanGroup, 1);
            cur->name = name;
            cur->kfname = g_strndup(l + 1, n - 2);
            cur->line = ln;
            cur->keys = g_ptr_array_new_with_free_func(scan_key_free);
            g_ptr_array_add(s->groups, cur);
        } else {
            char *eq = strchr(l, '=');
            if (!eq) {
                ok = at(err, s->file, ln, "'%s' is not a key = value pair, group or comment", l);
                break;
            }
            if (!cur) {
                ok = at(err, s->file, ln,
                        "key outside a group (start with [suite] or [case "
                        "NAME])");
                break;
            }
            ScanKey *k = g_new0(ScanKey, 1);
            k->key = g_strstrip(g_strndup(l, eq - l));
            k->raw = g_strstrip(g_strdup(eq + 1));
            k->line = ln;
            g_ptr_array_add(cur->keys, k);
            const char *const *known = strcmp(cur->name, "suite") ? case_keys : suite_keys;
            if (!g_strv_contains(known, k->key)) {
                char *list = g_strjoinv(", ", (char **)known);
                ok = at(err, s->file, ln, "unknown key '%s' in [%s] (known: %s)", k->key, cur->name,
                        list);
                g_free(list);
                break;
            }
            for (guint j = 0; j + 1 < cur->keys->len && !repeatable(k->key); j++) {
                ScanKey *o = g_ptr_array_index(cur->keys, j);
                if (!strcmp(o->key, k->key)) {
                    ok = at(err, s->file, ln, "duplicate key '%s' in [%s] (first at line %d)",
                            k->key, cur->name, o->line);
                    break;
                }
            }
        }
    }
    g_strfreev(lines);
    return ok;
}

static ScanKey *scan_find(ScanGroup *g, const char *key)
{
    for (guint i = 0; g && i < g->keys->len; i++) {
        ScanKey *k = g_ptr_array_index(g->keys, i);
        if (!strcmp(k->key, key)) {
            return k;
        }
    }
    return NULL;
}

/* A key's value through GKeyFile (escape sequences), errors at its line. */
static bool kf_string(GKeyFile *kf, const char *file, ScanGroup *g, const char *key, char **out,
                      GError **err)
{
    ScanKey *k = scan_find(g, key);
    GError *e = NULL;
    *out = NULL;
    if (!k) {
        return true;
    }
    *out = g_key_file_get_string(kf, g->kfname, key, &e);
    if (!*out) {
        at(err, file, k->line, "%s: %s", key, e->message);
        g_error_free(e);
        return false;
    }
    return true;
}

static bool parse_u64(const char *file, ScanKey *k, guint64 max, guint64 *v, GError **err)
{
    GError *e = NULL;
    /* C literals as nxemu takes them (machine.md §12.7): decimal or 0x hexadecimal */
    bool hex = g_str_has_prefix(k->raw, "0x") || g_str_has_prefix(k->raw, "0X");
    if (!g_ascii_string_to_unsigned(k->raw + (hex ? 2 : 0), hex ? 16 : 10, 0, max, v, &e)) {
        g_error_free(e);
        return at(err, file, k->line, "%s: expected an integer 0..%" G_GUINT64_FORMAT ", got '%s'",
                  k->key, max, k->raw);
    }
    return true;
}

static bool parse_seconds(const char *file, ScanKey *k, double *v, GError **err)
{
    char *end = NULL;
    errno = 0;
    *v = g_ascii_strtod(k->raw, &end);
    if (!*k->raw || *end || errno || !(*v >= 0) || *v > 1e7) {
        return at(err, file, k->line, "%s: expected seconds (a number >= 0), got '%s'", k->key,
                  k->raw);
    }
    return true;
}

/* Shell-style words; an empty value is no words. */
static bool parse_words(GKeyFile *kf, const char *file, ScanGroup *g, const char *key,
                        char ***words, GError **err)
{
    char *s = NULL;
    GError *e = NULL;
    *words = NULL;
    if (!kf_string(kf, file, g, key, &s, err)) {
        return false;
    }
    if (s && *g_strstrip(s) && !g_shell_parse_argv(s, NULL, words, &e)) {
        at(err, file, scan_find(g, key)->line, "%s: %s", key, e->message);
        g_error_free(e);
        g_free(s);
        return false;
    }
    g_free(s);
    return true;
}

static char *resolve_nxemu(const char *path, const char *base)
{
    if (!strchr(path, '/')) {
        char *found = g_find_program_in_path(path);
        return found ? found : g_strdup(path);
    }
    return g_canonicalize_filename(path, base);
}

/* Without --nxemu or nxemu=: the nxemu next to this binary (build/tools/..), else $PATH. */
static char *default_nxemu(const NtSettings *set)
{
    if (set->self_dir) {
        const char *cand[] = {"nxemu", "../nxemu"};
        for (unsigned i = 0; i < G_N_ELEMENTS(cand); i++) {
            char *p = g_canonicalize_filename(cand[i], set->self_dir);
            if (g_file_test(p, G_FILE_TEST_IS_EXECUTABLE) && !g_file_test(p, G_FILE_TEST_IS_DIR)) {
                return p;
            }
            g_free(p);
        }
    }
    return resolve_nxemu("nxemu", NULL);
}

static NtCase *case_new(const char *name, const char *suite, const char *file, int line,
                        const char *dir)
{
    NtCase *c = g_new0(NtCase, 1);
    c->name = g_strdup(name);
    c->suite = g_strdup(suite);
    c->file = g_strdup(file);
    c->line = line;
    c->dir = g_strdup(dir);
    c->argv = g_ptr_array_new_with_free_func(g_free);
    c->expect_stdout = g_ptr_array_new_with_free_func(g_free);
    c->expect_stderr = g_ptr_array_new_with_free_func(g_free);
    c->re_stdout = g_ptr_array_new_with_free_func((GDestroyNotify)g_regex_unref);
    c->re_stderr = g_ptr_array_new_with_free_func((GDestroyNotify)g_regex_unref);
    c->tags = g_new0(char *, 1);
    c->exit_code = -1;
    c->instructions = -1;
    c->cycles = -1;
    return c;
}

void nt_case_free(NtCase *c)
{
    if (!c) {
        return;
    }
    g_free(c->name);
    g_free(c->suite);
    g_free(c->file);
    g_free(c->dir);
    g_free(c->coverage);
    g_free(c->repro);
    g_free(c->repro_debug);
    g_ptr_array_unref(c->argv);
    g_ptr_array_unref(c->expect_stdout);
    g_ptr_array_unref(c->expect_stderr);
    g_ptr_array_unref(c->re_stdout);
    g_ptr_array_unref(c->re_stderr);
    g_strfreev(c->tags);
    g_free(c->message);
    g_free(c->diag);
    if (c->out) {
        g_bytes_unref(c->out);
    }
    if (c->err) {
        g_bytes_unref(c->err);
    }
    g_free(c);
}

bool nt_case_has_any_tag(const NtCase *c, char **tags)
{
    for (unsigned i = 0; tags && tags[i]; i++) {
        if (g_strv_contains((const char *const *)c->tags, tags[i])) {
            return true;
        }
    }
    return false;
}

static void add_words(GPtrArray *argv, char **words)
{
    for (unsigned i = 0; words && words[i]; i++) {
        g_ptr_array_add(argv, g_strdup(words[i]));
    }
}

static bool add_patterns(const char *file, ScanGroup *g, const char *key, GPtrArray *pats,
                         GPtrArray *res, GError **err)
{
    for (guint i = 0; i < g->keys->len; i++) {
        ScanKey *k = g_ptr_array_index(g->keys, i);
        GError *e = NULL;
        if (strcmp(k->key, key)) {
            continue;
        }
        GRegex *re = g_regex_new(k->raw, G_REGEX_MULTILINE, 0, &e);
        if (!re) {
            at(err, file, k->line, "%s: bad pattern '%s': %s", key, k->raw, e->message);
            g_error_free(e);
            return false;
        }
        g_ptr_array_add(pats, g_strdup(k->raw));
        g_ptr_array_add(res, re);
    }
    return true;
}

typedef struct SuiteDefaults {
    char *nxemu;
    char **args;
    double timeout;
    bool has_timeout;
    char *cycle_limit;
} SuiteDefaults;

static bool parse_case(GKeyFile *kf, Scan *s, ScanGroup *g, const SuiteDefaults *d,
                       const char *suite, const char *dir, const NtSettings *set, NtCase **out,
                       GError **err)
{
    const char *name = g->name + 5 + strspn(g->name + 5, " \t");
    NtCase *c = case_new(name, suite, s->file, g->line, dir);
    char **images = NULL, **args = NULL, *tags = NULL;
    ScanKey *k;
    bool ok = parse_words(kf, s->file, g, "images", &images, err) &&
              parse_words(kf, s->file, g, "args", &args, err) &&
              kf_string(kf, s->file, g, "tags", &tags, err) &&
              add_patterns(s->file, g, "expect-stdout", c->expect_stdout, c->re_stdout, err) &&
              add_patterns(s->file, g, "expect-stderr", c->expect_stderr, c->re_stderr, err);
    if (ok && (k = scan_find(g, "expect-exit"))) {
        guint64 v;
        ok = parse_u64(s->file, k, 255, &v, err);
        c->expect_exit = (int)v;
    }
    c->timeout = d->has_timeout ? d->timeout : set->default_timeout;
    if (ok && (k = scan_find(g, "timeout"))) {
        ok = parse_seconds(s->file, k, &c->timeout, err);
    }
    const char *limit = d->cycle_limit;
    if (ok && (k = scan_find(g, "cycle-limit"))) {
        guint64 v;
        ok = parse_u64(s->file, k, G_MAXUINT64, &v, err);
        limit = k->raw;
    }
    if (ok && !(images && images[0]) && !(args && args[0])) {
        ok = at(err, s->file, g->line, "case '%s' has neither images nor args", name);
    }
    if (ok) {
        g_ptr_array_add(c->argv, g_strdup(d->nxemu));
        add_words(c->argv, d->args);
        /* The first image boots core 0; further ones go through the generic loader. */
        for (unsigned i = 0; images && images[i]; i++) {
            g_ptr_array_add(c->argv, g_strdup(i ? "-device" : "-kernel"));
            g_ptr_array_add(c->argv,
                            i ? g_strdup_printf("loader,file=%s", images[i]) : g_strdup(images[i]));
        }
        add_words(c->argv, args);
        if (limit) {
            g_ptr_array_add(c->argv, g_strdup("-cycle-limit"));
            g_ptr_array_add(c->argv, g_strdup(limit));
        }
        g_ptr_array_add(c->argv, NULL);
        if (tags) {
            g_strfreev(c->tags);
            c->tags = g_strsplit_set(tags, ",; \t", -1);
            /* drop the empty words between separators */
            unsigned w = 0;
            for (unsigned r = 0; c->tags[r]; r++) {
                if (*c->tags[r]) {
                    c->tags[w++] = c->tags[r];
                } else {
                    g_free(c->tags[r]);
                }
            }
            c->tags[w] = NULL;
        }
    }
    g_strfreev(images);
    g_strfreev(args);
    g_free(tags);
    if (!ok) {
        nt_case_free(c);
        c = NULL;
    }
    *out = c;
    return ok;
}

static bool parse_suite(GKeyFile *kf, Scan *s, const char *dir, const NtSettings *set,
                        SuiteDefaults *d, GError **err)
{
    ScanGroup *g = NULL;
    ScanKey *k;
    char *nx = NULL;
    for (guint i = 0; i < s->groups->len; i++) {
        ScanGroup *x = g_ptr_array_index(s->groups, i);
        if (!strcmp(x->name, "suite")) {
            g = x;
        }
    }
    if (!g) {
        d->nxemu = set->nxemu ? resolve_nxemu(set->nxemu, NULL) : default_nxemu(set);
        return true;
    }
    if (!kf_string(kf, s->file, g, "nxemu", &nx, err) ||
        !parse_words(kf, s->file, g, "args", &d->args, err)) {
        g_free(nx); /* a good nxemu = before a bad args = must not leak */
        return false;
    }
    if (set->nxemu) {
        d->nxemu = resolve_nxemu(set->nxemu, NULL);
    } else if (nx && *nx) {
        d->nxemu = resolve_nxemu(nx, dir);
    } else {
        d->nxemu = default_nxemu(set);
    }
    g_free(nx);
    if ((k = scan_find(g, "timeout"))) {
        if (!parse_seconds(s->file, k, &d->timeout, err)) {
            return false;
        }
        d->has_timeout = true;
    }
    if ((k = scan_find(g, "cycle-limit"))) {
        guint64 v;
        if (!parse_u64(s->file, k, G_MAXUINT64, &v, err)) {
            return false;
        }
        d->cycle_limit = g_strdup(k->raw);
    }
    return true;
}

static char *suite_name(const char *path)
{
    char *base = g_path_get_basename(path);
    char *dot = strrchr(base, '.');
    if (dot && dot != base) {
        *dot = 0;
    }
    return base;
}

static bool load_manifest(const char *path, const NtSettings *set, GPtrArray *cases, GError **err)
{
    char *text = NULL;
    gsize len = 0;
    Scan s = {.file = path, .groups = g_ptr_array_new_with_free_func(scan_group_free)};
    GKeyFile *kf = g_key_file_new();
    SuiteDefaults d = {0};
    char *abs = g_canonicalize_filename(path, NULL);
    char *dir = g_path_get_dirname(abs);
    char *suite = suite_name(path);
    GError *e = NULL;
    bool ok = nx_file_read(NULL, path, NX_FILE_TEXT, &text, &len, &e);

    if (!ok) {
        nt_file_error(err, path, e);
    } else if (strlen(text) != len) {
        /* a NUL byte: find its line for the message */
        int line = 1;
        for (const char *p = text; *p; p++) {
            line += *p == '\n';
        }
        ok = at(err, path, line, "NUL byte in manifest");
    }
    ok = ok && scan_text(&s, text, err);
    if (ok && !g_key_file_load_from_data(kf, text, len, G_KEY_FILE_NONE, &e)) {
        /* The line scan accepts only what GKeyFile accepts; keep a message anyway. */
        ok = at(err, path, 1, "%s", e->message);
        g_error_free(e);
    }
    ok = ok && parse_suite(kf, &s, dir, set, &d, err);
    unsigned ncases = 0;
    for (guint i = 0; ok && i < s.groups->len; i++) {
        ScanGroup *g = g_ptr_array_index(s.groups, i);
        NtCase *c;
        if (strcmp(g->name, "suite")) {
            ok = parse_case(kf, &s, g, &d, suite, dir, set, &c, err);
            if (ok) {
                g_ptr_array_add(cases, c);
                ncases++;
            }
        }
    }
    if (ok && !ncases) {
        ok = at(err, path, 1, "no [case NAME] groups");
    }
    g_free(d.nxemu);
    g_strfreev(d.args);
    g_free(d.cycle_limit);
    g_free(text);
    g_free(abs);
    g_free(dir);
    g_free(suite);
    g_key_file_free(kf);
    g_ptr_array_unref(s.groups);
    return ok;
}

static gint cmp_str(gconstpointer a, gconstpointer b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Zero-config: every *.elf / *.fit of DIR, booted with -kernel, must exit 0. */
static bool load_dir(const char *path, const NtSettings *set, GPtrArray *cases, GError **err)
{
    GError *e = NULL;
    GDir *d = g_dir_open(path, 0, &e);
    if (!d) {
        g_set_error(err, G_FILE_ERROR, e->code, "%s: error: %s", path, e->message);
        g_error_free(e);
        return false;
    }
    char *abs = g_canonicalize_filename(path, NULL);
    char *suite = g_path_get_basename(abs);
    char *nxemu = set->nxemu ? resolve_nxemu(set->nxemu, NULL) : default_nxemu(set);
    GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
    const char *n;
    while ((n = g_dir_read_name(d))) {
        if (g_str_has_suffix(n, ".elf") || g_str_has_suffix(n, ".fit")) {
            char *full = g_build_filename(abs, n, NULL);
            if (g_file_test(full, G_FILE_TEST_IS_REGULAR)) {
                g_ptr_array_add(names, g_strdup(n));
            }
            g_free(full);
        }
    }
    g_dir_close(d);
    g_ptr_array_sort(names, cmp_str); /* directory order is not deterministic */
    for (guint i = 0; i < names->len; i++) {
        const char *img = g_ptr_array_index(names, i);
        NtCase *c = case_new(img, suite, path, 0, abs);
        c->timeout = set->default_timeout;
        g_ptr_array_add(c->argv, g_strdup(nxemu));
        g_ptr_array_add(c->argv, g_strdup("-kernel"));
        g_ptr_array_add(c->argv, g_strdup(img));
        g_ptr_array_add(c->argv, NULL);
        g_ptr_array_add(cases, c);
    }
    bool ok = names->len > 0;
    if (!ok) {
        g_set_error(err, G_FILE_ERROR, G_FILE_ERROR_NOENT, "%s: error: no *.elf or *.fit images",
                    path);
    }
    g_ptr_array_unref(names);
    g_free(abs);
    g_free(suite);
    g_free(nxemu);
    return ok;
}

bool nt_load_input(const char *path, const NtSettings *set, GPtrArray *cases, GError **err)
{
    guint first = cases->len;
    bool ok = g_file_test(path, G_FILE_TEST_IS_DIR) ? load_dir(path, set, cases, err)
                                                    : load_manifest(path, set, cases, err);
    /* Case names identify results across runs (--failed-from, --cost-from, sharding). */
    for (guint i = first; ok && i < cases->len; i++) {
        NtCase *c = g_ptr_array_index(cases, i);
        for (guint j = 0; j < i; j++) {
            NtCase *o = g_ptr_array_index(cases, j);
            if (!strcmp(o->name, c->name)) {
                ok = at(err, c->file, c->line, "duplicate case name '%s' (also at %s:%d)", c->name,
                        o->file, o->line);
                break;
            }
        }
    }
    return ok;
}
