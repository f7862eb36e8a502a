/*
 * nxemu-test sharding and previous reports.
 *
 * A shard is chosen by every CI runner on its own, with no coordinator, so
 * the split depends only on the selected case names (and the cost report,
 * when given), never on the host, the order of directory entries or time.
 *
 * Previous --json reports (read with nxemu-test-json.c) feed --failed-from
 * and --cost-from.
 */
#include <stdlib.h>
#include <string.h>

#include "nxemu-test.h"
#include "nxemu/file-io.h"

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
    if (!nx_file_read(NULL, path, NX_FILE_TEXT, &text, NULL, &e)) {
        nt_file_error(err, path, e);
        return NULL;
    }
    NtJson *root = nt_json_parse(text, path, err);
    GHashTable *h = NULL;
    NtJson *list = root ? nt_json_get(root, "cases", NT_J_ARR) : NULL;
    if (root && !list) {
        g_set_error(err, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                    "%s: error: not an nxemu-test --json report (no \"cases\" array)", path);
    }
    if (list) {
        h = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
        for (guint i = 0; i < list->items->len; i++) {
            NtJson *c = g_ptr_array_index(list->items, i);
            NtJson *name = nt_json_get(c, "name", NT_J_STR),
                   *st = nt_json_get(c, "status", NT_J_STR);
            NtJson *wall = nt_json_get(c, "wall_time", NT_J_NUM);
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
    nt_json_free(root);
    g_free(text);
    return h;
}
