/*
 * ISA coverage (`-coverage FILE`): which opcodes, data types, addressing
 * modes, predicates/switches and fault kinds the executed instructions
 * exercised, per ISA.  The counting and the report are here; what each ISA
 * has and how an instruction counts is its core's NxCovIsa
 * (include/nxemu/coverage.h, target/seq/coverage.c, target/tpc/coverage.c),
 * which the board hands over in Machine.cov_isa.
 */
#include <inttypes.h>
#include <string.h>

#include "nxemu/coverage.h"
#include "softmmu/trace-int.h"

/* A key of a category hit by an instruction. */
typedef struct CovHit {
    uint32_t cat, idx;
} CovHit;

/* What one distinct instruction hits, found by decoding it once (insn):
 * an instruction executed again costs a lookup of its bytes and an add per
 * key, not a decode and a string lookup per key. */
typedef struct CovMemo {
    unsigned len;
    uint8_t bytes[64];
    bool counted; /* insn() returned true */
    unsigned nhits;
    CovHit *hits;
} CovMemo;

typedef struct CovIsa {
    const NxCovIsa *isa; /* NULL: the machine has no such core type */
    uint64_t n;          /* instructions (bundles) counted */
    NxCovCat *cats;      /* isa->nr_cats */
    GHashTable *memo;    /* CovMemo by bytes */
} CovIsa;

struct TraceCov {
    CovIsa isa[NX_CPU_KINDS];
};

static void cat_init(NxCovCat *c, const char *name)
{
    c->name = name;
    c->keys = g_ptr_array_new_with_free_func(g_free);
    c->hits = g_array_new(FALSE, TRUE, sizeof(uint64_t));
    c->index = g_hash_table_new(g_str_hash, g_str_equal);
}

static void cat_destroy(NxCovCat *c)
{
    g_hash_table_destroy(c->index);
    g_ptr_array_free(c->keys, TRUE);
    g_array_free(c->hits, TRUE);
}

static unsigned cat_add(NxCovCat *c, const char *key)
{
    gpointer v = g_hash_table_lookup(c->index, key);
    if (v)
        return GPOINTER_TO_UINT(v) - 1;
    char *k = g_strdup(key);
    uint64_t zero = 0;
    g_ptr_array_add(c->keys, k);
    g_array_append_val(c->hits, zero);
    g_hash_table_insert(c->index, k, GUINT_TO_POINTER(c->keys->len));
    return c->keys->len - 1;
}

void nx_cov_exists(NxCovCat *c, const char *key)
{
    cat_add(c, key);
    c->universe = c->keys->len;
}

void nx_cov_hit(NxCovCat *c, const char *key)
{
    if (!key)
        return;
    unsigned i = cat_add(c, key);
    if (c->record) {
        CovHit h = {c->no, i};
        g_array_append_val(c->record, h);
    } else {
        g_array_index(c->hits, uint64_t, i)++;
    }
}

static guint memo_hash(gconstpointer p)
{
    const CovMemo *e = p;
    guint h = 2166136261u; /* FNV-1a */
    for (unsigned i = 0; i < e->len; i++)
        h = (h ^ e->bytes[i]) * 16777619u;
    return h;
}

static gboolean memo_equal(gconstpointer a, gconstpointer b)
{
    const CovMemo *x = a, *y = b;
    return x->len == y->len && !memcmp(x->bytes, y->bytes, x->len);
}

static void memo_free(gpointer p)
{
    CovMemo *e = p;
    g_free(e->hits);
    g_free(e);
}

TraceCov *cov_new(const Machine *m)
{
    TraceCov *c = g_new0(TraceCov, 1);
    for (unsigned k = 0; k < NX_CPU_KINDS; k++) {
        const NxCovIsa *isa = m->cov_isa[k];
        if (!isa)
            continue;
        c->isa[k].isa = isa;
        c->isa[k].cats = g_new0(NxCovCat, isa->nr_cats);
        for (unsigned i = 0; i < isa->nr_cats; i++) {
            cat_init(&c->isa[k].cats[i], isa->cats[i]);
            c->isa[k].cats[i].no = i;
        }
        isa->universe(c->isa[k].cats);
        c->isa[k].memo = g_hash_table_new_full(memo_hash, memo_equal, memo_free, NULL);
    }
    return c;
}

void cov_free(TraceCov *c)
{
    for (unsigned k = 0; k < NX_CPU_KINDS; k++) {
        for (unsigned i = 0; c->isa[k].isa && i < c->isa[k].isa->nr_cats; i++)
            cat_destroy(&c->isa[k].cats[i]);
        g_free(c->isa[k].cats);
        if (c->isa[k].memo)
            g_hash_table_destroy(c->isa[k].memo);
    }
    g_free(c);
}

/* The memo of these bytes, decoding them the first time (their keys are
 * added to the categories then, in the order one execution adds them). */
static const CovMemo *memo_of(CovIsa *ci, const uint8_t *bytes, unsigned len)
{
    CovMemo key = {.len = len};
    memcpy(key.bytes, bytes, len);
    CovMemo *e = g_hash_table_lookup(ci->memo, &key);
    if (e)
        return e;
    GArray *rec = g_array_new(FALSE, FALSE, sizeof(CovHit));
    for (unsigned i = 0; i < ci->isa->nr_cats; i++)
        ci->cats[i].record = rec;
    bool counted = ci->isa->insn(ci->cats, bytes);
    for (unsigned i = 0; i < ci->isa->nr_cats; i++)
        ci->cats[i].record = NULL;
    e = g_new0(CovMemo, 1);
    *e = key;
    e->counted = counted;
    e->nhits = rec->len;
    e->hits = (CovHit *)(void *)g_array_free(rec, FALSE);
    g_hash_table_add(ci->memo, e);
    return e;
}

void cov_insn_n(TraceCov *c, CpuKind kind, const uint8_t *bytes, unsigned len, uint64_t n)
{
    CovIsa *ci = &c->isa[kind];
    if (!ci->isa || len != ci->isa->len || len > sizeof(((CovMemo *)0)->bytes) || !n)
        return;
    const CovMemo *e = memo_of(ci, bytes, len);
    for (unsigned i = 0; i < e->nhits; i++)
        g_array_index(ci->cats[e->hits[i].cat].hits, uint64_t, e->hits[i].idx) += n;
    if (e->counted)
        ci->n += n;
}

void cov_insn(TraceCov *c, CpuKind kind, const uint8_t *bytes, unsigned len)
{
    cov_insn_n(c, kind, bytes, len, 1);
}

void cov_fault(TraceCov *c, CpuKind kind, uint32_t code)
{
    CovIsa *ci = &c->isa[kind];
    if (ci->isa)
        nx_cov_hit(&ci->cats[ci->isa->fault_cat], ci->isa->fault_name(code));
}

static unsigned cat_covered(const NxCovCat *c)
{
    unsigned n = 0;
    for (unsigned i = 0; i < c->universe; i++)
        n += g_array_index(c->hits, uint64_t, i) != 0;
    return n;
}

static void cat_json(const NxCovCat *c, GString *out)
{
    bool first;
    tl_json_str(out, c->name);
    g_string_append_printf(out, ":{\"covered\":%u,\"total\":%u,\"hits\":{", cat_covered(c),
                           c->universe);
    first = true;
    for (unsigned i = 0; i < c->universe; i++) {
        uint64_t h = g_array_index(c->hits, uint64_t, i);
        if (!h)
            continue;
        g_string_append(out, first ? "" : ",");
        tl_json_str(out, g_ptr_array_index(c->keys, i));
        g_string_append_printf(out, ":%" PRIu64, h);
        first = false;
    }
    g_string_append(out, "},\"missing\":[");
    first = true;
    for (unsigned i = 0; i < c->universe; i++) {
        if (g_array_index(c->hits, uint64_t, i))
            continue;
        g_string_append(out, first ? "" : ",");
        tl_json_str(out, g_ptr_array_index(c->keys, i));
        first = false;
    }
    g_string_append(out, "],\"other\":{");
    first = true;
    for (unsigned i = c->universe; i < c->keys->len; i++) {
        g_string_append(out, first ? "" : ",");
        tl_json_str(out, g_ptr_array_index(c->keys, i));
        g_string_append_printf(out, ":%" PRIu64, g_array_index(c->hits, uint64_t, i));
        first = false;
    }
    g_string_append(out, "}}");
}

static void isa_json(const char *name, uint64_t n, const char *unit, const NxCovCat *cats,
                     unsigned nr, GString *out)
{
    g_string_append_printf(out, "\"%s\":{\"%s\":%" PRIu64 ",\"categories\":{", name, unit, n);
    for (unsigned i = 0; i < nr; i++) {
        if (i)
            g_string_append(out, ",\n    ");
        cat_json(&cats[i], out);
    }
    g_string_append(out, "}}");
}

static void isa_summary(const char *name, uint64_t n, const char *unit, const NxCovCat *cats,
                        unsigned nr, GString *out)
{
    g_string_append_printf(out, "%s: %" PRIu64 " %s\n", name, n, unit);
    for (unsigned i = 0; i < nr; i++) {
        const NxCovCat *c = &cats[i];
        unsigned cov = cat_covered(c);
        g_string_append_printf(out, "  %-15s %4u of %-4u (%5.1f%%)", c->name, cov, c->universe,
                               c->universe ? 100.0 * cov / c->universe : 0.0);
        if (cov < c->universe && c->universe - cov <= 24) {
            g_string_append(out, "  missing:");
            for (unsigned k = 0; k < c->universe; k++)
                if (!g_array_index(c->hits, uint64_t, k))
                    g_string_append_printf(out, " %s", (const char *)g_ptr_array_index(c->keys, k));
        }
        g_string_append_c(out, '\n');
    }
}

void cov_json(TraceCov *c, GString *out)
{
    bool first = true;
    g_string_append(out, "{\"format\":\"nxemu-coverage-1\",\"isas\":{\n  ");
    for (unsigned k = 0; k < NX_CPU_KINDS; k++) {
        const CovIsa *ci = &c->isa[k];
        if (!ci->isa)
            continue;
        if (!first)
            g_string_append(out, ",\n  ");
        isa_json(ci->isa->name, ci->n, ci->isa->unit, ci->cats, ci->isa->nr_cats, out);
        first = false;
    }
    g_string_append(out, "}}\n");
}

void cov_summary(TraceCov *c, GString *out)
{
    g_string_append(out, "nxemu ISA coverage\n");
    for (unsigned k = 0; k < NX_CPU_KINDS; k++) {
        const CovIsa *ci = &c->isa[k];
        if (ci->isa)
            isa_summary(ci->isa->name, ci->n, ci->isa->unit, ci->cats, ci->isa->nr_cats, out);
    }
}
