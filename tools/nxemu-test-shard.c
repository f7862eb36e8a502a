/*
 * nxemu-test sharding and previous reports.
 *
 * A shard is chosen by every CI runner on its own, with no coordinator, so
 * the split depends only on the selected case names (and the cost report,
 * when given), never on the host, the order of directory entries or time.
 *
 * Previous --json reports feed --failed-from and --cost-from.  GLib has no
 * JSON parser; the reader below is a small strict one for that use.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "nxemu-test.h"

/* FNV-1a, 64 bit: stable across hosts and releases, unlike g_str_hash. */
guint64 nt_name_hash(const char *name)
{
    guint64 h = 0xcbf29ce484222325ull;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
        h ^= *p;
        h *= 0x100000001b3ull;
    }
    return h;
}

bool nt_parse_shard(const char *spec, unsigned *index, unsigned *count, GError **err)
{
    guint64 i = 0, n = 0;
    char **parts = g_strsplit(spec, "/", -1);
    bool ok = g_strv_length(parts) == 2 &&
              g_ascii_string_to_unsigned(parts[0], 10, 1, G_MAXUINT32, &i, NULL) &&
              g_ascii_string_to_unsigned(parts[1], 10, 1, G_MAXUINT32, &n, NULL) && i <= n;
    g_strfreev(parts);
    if (!ok) {
        g_set_error(err, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                    "--shard %s: expected I/N with 1 <= I <= N", spec);
        return false;
    }
    *index = (unsigned)i;
    *count = (unsigned)n;
    return true;
}

typedef struct Item {
    NtCase *c;
    guint64 hash;
    double cost;
} Item;

static int cmp_hash(const void *a, const void *b)
{
    const Item *x = a, *y = b;
    if (x->hash != y->hash) {
        return x->hash < y->hash ? -1 : 1;
    }
    return strcmp(x->c->name, y->c->name);
}

/* Costliest first; equal costs by name so every runner sorts identically. */
static int cmp_cost(const void *a, const void *b)
{
    const Item *x = a, *y = b;
    if (x->cost != y->cost) {
        return x->cost > y->cost ? -1 : 1;
    }
    return strcmp(x->c->name, y->c->name);
}

static gint cmp_order(gconstpointer a, gconstpointer b)
{
    const NtCase *x = *(NtCase *const *)a, *y = *(NtCase *const *)b;
    return x->order - y->order;
}

/*
 * Without costs: cases sorted by name hash, dealt round robin, so shard
 * sizes differ by at most one and a case's shard does not follow the
 * manifest's order.  With costs (wall times of a previous report): greedy
 * longest-processing-time, each case to the least loaded shard (ties: fewer
 * cases, then lower index); cases the report lacks cost the mean.
 * The shard's cases keep suite order.
 */
GPtrArray *nt_shard_select(GPtrArray *cases, unsigned index, unsigned count, GHashTable *costs)
{
    unsigned n = cases->len;
    Item *it = g_new0(Item, n ? n : 1);
    GPtrArray *out = g_ptr_array_new();
    double known = 0;
    unsigned nknown = 0;

    for (unsigned i = 0; i < n; i++) {
        it[i].c = g_ptr_array_index(cases, i);
        it[i].hash = nt_name_hash(it[i].c->name);
        NtPrev *p = costs ? g_hash_table_lookup(costs, it[i].c->name) : NULL;
        it[i].cost = p ? p->wall : -1;
        if (p) {
            known += p->wall;
            nknown++;
        }
    }
    if (!costs) {
        qsort(it, n, sizeof(*it), cmp_hash);
        for (unsigned i = 0; i < n; i++) {
            if (i % count == index - 1) {
                g_ptr_array_add(out, it[i].c);
            }
        }
    } else {
        double mean = nknown ? known / nknown : 1.0;
        double *load = g_new0(double, count);
        unsigned *num = g_new0(unsigned, count);
        for (unsigned i = 0; i < n; i++) {
            if (it[i].cost < 0) {
                it[i].cost = mean;
            }
        }
        qsort(it, n, sizeof(*it), cmp_cost);
        for (unsigned i = 0; i < n; i++) {
            unsigned best = 0;
            for (unsigned s = 1; s < count; s++) {
                if (load[s] < load[best] || (load[s] == load[best] && num[s] < num[best])) {
                    best = s;
                }
            }
            load[best] += it[i].cost;
            num[best]++;
            if (best == index - 1) {
                g_ptr_array_add(out, it[i].c);
            }
        }
        g_free(load);
        g_free(num);
    }
    g_ptr_array_sort(out, cmp_order);
    g_free(it);
    return out;
}

/* ---- a minimal strict JSON reader, enough for our own reports ---- */

typedef enum { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ } JType;

typedef struct JNode {
    JType type;
    double num;
    char *str;
    GPtrArray *items; /* JNode * (array values, object values) */
    GPtrArray *keys;  /* char * (object keys) */
} JNode;

typedef struct JParser {
    const char *text, *p;
    const char *file;
    GError **err;
    int depth;
} JParser;

static void jnode_free(gpointer p)
{
    JNode *n = p;
    if (!n) {
        return;
    }
    g_free(n->str);
    if (n->items) {
        g_ptr_array_unref(n->items);
    }
    if (n->keys) {
        g_ptr_array_unref(n->keys);
    }
    g_free(n);
}

static JNode *jfail(JParser *j, const char *what)
{
    int line = 1;
    for (const char *q = j->text; q < j->p; q++) {
        line += *q == '\n';
    }
    if (!*j->err) {
        g_set_error(j->err, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s:%d: error: bad JSON: %s", j->file,
                    line, what);
    }
    return NULL;
}

static void jws(JParser *j)
{
    while (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r') {
        j->p++;
    }
}

static char *jstring(JParser *j)
{
    GString *s = g_string_new(NULL);
    j->p++; /* opening quote */
    while (*j->p && *j->p != '"') {
        if ((unsigned char)*j->p < 0x20) {
            break;
        }
        if (*j->p != '\\') {
            g_string_append_c(s, *j->p++);
            continue;
        }
        j->p++;
        const char *esc = strchr("\"\\/bfnrt", *j->p);
        if (*j->p && esc) {
            g_string_append_c(s, "\"\\/\b\f\n\r\t"[esc - "\"\\/bfnrt"]);
            j->p++;
        } else if (*j->p == 'u' && g_ascii_isxdigit(j->p[1]) && g_ascii_isxdigit(j->p[2]) &&
                   g_ascii_isxdigit(j->p[3]) && g_ascii_isxdigit(j->p[4])) {
            char hex[5] = {j->p[1], j->p[2], j->p[3], j->p[4], 0};
            g_string_append_unichar(s, (gunichar)strtoul(hex, NULL, 16));
            j->p += 5;
        } else {
            g_string_free(s, TRUE);
            jfail(j, "bad escape in string");
            return NULL;
        }
    }
    if (*j->p != '"') {
        g_string_free(s, TRUE);
        jfail(j, "unterminated string");
        return NULL;
    }
    j->p++;
    return g_string_free(s, FALSE);
}

static JNode *jvalue(JParser *j)
{
    JNode *n = g_new0(JNode, 1);
    jws(j);
    if (++j->depth > 64) {
        jnode_free(n);
        return jfail(j, "nested too deeply");
    }
    if (*j->p == '"') {
        n->type = J_STR;
        if (!(n->str = jstring(j))) {
            jnode_free(n);
            return NULL;
        }
    } else if (*j->p == '[' || *j->p == '{') {
        bool obj = *j->p == '{';
        char close = obj ? '}' : ']';
        n->type = obj ? J_OBJ : J_ARR;
        n->items = g_ptr_array_new_with_free_func(jnode_free);
        n->keys = g_ptr_array_new_with_free_func(g_free);
        j->p++;
        jws(j);
        if (*j->p == close) {
            j->p++;
        } else {
            for (;;) {
                jws(j);
                if (obj) {
                    char *k = *j->p == '"' ? jstring(j) : NULL;
                    if (!k) {
                        jnode_free(n);
                        return jfail(j, "expected a string key");
                    }
                    g_ptr_array_add(n->keys, k);
                    jws(j);
                    if (*j->p++ != ':') {
                        jnode_free(n);
                        return jfail(j, "expected ':'");
                    }
                }
                JNode *v = jvalue(j);
                if (!v) {
                    jnode_free(n);
                    return NULL;
                }
                g_ptr_array_add(n->items, v);
                jws(j);
                if (*j->p == ',') {
                    j->p++;
                } else if (*j->p == close) {
                    j->p++;
                    break;
                } else {
                    jnode_free(n);
                    return jfail(j, obj ? "expected ',' or '}'" : "expected ',' or ']'");
                }
            }
        }
    } else if (!strncmp(j->p, "null", 4)) {
        n->type = J_NULL;
        j->p += 4;
    } else if (!strncmp(j->p, "true", 4) || !strncmp(j->p, "false", 5)) {
        n->type = J_BOOL;
        n->num = *j->p == 't';
        j->p += *j->p == 't' ? 4 : 5;
    } else {
        char *end = NULL;
        errno = 0;
        n->type = J_NUM;
        n->num = g_ascii_strtod(j->p, &end);
        if (end == j->p || errno) {
            jnode_free(n);
            return jfail(j, "expected a value");
        }
        j->p = end;
    }
    j->depth--;
    return n;
}

static JNode *jget(JNode *obj, const char *key, JType type)
{
    for (guint i = 0; obj && obj->type == J_OBJ && i < obj->keys->len; i++) {
        if (!strcmp(g_ptr_array_index(obj->keys, i), key)) {
            JNode *v = g_ptr_array_index(obj->items, i);
            return v->type == type ? v : NULL;
        }
    }
    return NULL;
}

static NtStatus status_from_name(const char *s)
{
    static const NtStatus all[] = {NT_PASS, NT_FAIL, NT_TIMEOUT, NT_ERROR};
    for (unsigned i = 0; i < G_N_ELEMENTS(all); i++) {
        if (!strcmp(s, nt_status_name(all[i]))) {
            return all[i];
        }
    }
    return NT_PENDING;
}

GHashTable *nt_read_report(const char *path, GError **err)
{
    char *text = NULL;
    GError *e = NULL;
    if (!g_file_get_contents(path, &text, NULL, &e)) {
        g_set_error(err, G_FILE_ERROR, e->code, "%s: error: %s", path, e->message);
        g_error_free(e);
        return NULL;
    }
    JParser j = {.text = text, .p = text, .file = path, .err = err};
    JNode *root = jvalue(&j);
    GHashTable *h = NULL;
    if (root) {
        jws(&j);
        if (*j.p) {
            jfail(&j, "trailing text after the report");
        }
    }
    JNode *list = root && !*j.p ? jget(root, "cases", J_ARR) : NULL;
    if (root && !*j.p && !list) {
        g_set_error(err, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                    "%s: error: not an nxemu-test --json report (no \"cases\" array)", path);
    }
    if (list) {
        h = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
        for (guint i = 0; i < list->items->len; i++) {
            JNode *c = g_ptr_array_index(list->items, i);
            JNode *name = jget(c, "name", J_STR), *st = jget(c, "status", J_STR);
            JNode *wall = jget(c, "wall_time", J_NUM);
            if (!name || !st) {
                g_set_error(err, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                            "%s: error: case %u of the report has no name or status", path, i + 1);
                g_hash_table_unref(h);
                h = NULL;
                break;
            }
            NtPrev *p = g_new0(NtPrev, 1);
            p->status = status_from_name(st->str);
            p->wall = wall && wall->num >= 0 ? wall->num : 0;
            g_hash_table_replace(h, g_strdup(name->str), p);
        }
    }
    jnode_free(root);
    g_free(text);
    return h;
}
