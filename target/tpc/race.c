/*
 * Races between the TPCs of a launch (race.h, docs/tpc-run.rst "Races").
 */
#include "target/tpc/race.h"

#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include "nxemu/log.h"
#include "nxemu/threads.h"
#include "target/tpc/cpu.h"

/* entries per TPC and launch kept at most (24 bytes each) */
#define TPC_RACE_MAX (1u << 22)

bool tpc_race_parse(const char *s, unsigned *mode)
{
    static const char *const names[] = {"off", "warn", "fault"};
    for (unsigned i = 0; i < G_N_ELEMENTS(names); i++) {
        if (!strcmp(s, names[i])) {
            *mode = i;
            return true;
        }
    }
    return false;
}

void tpc_race_free(TpcRace *r)
{
    if (!r)
        return;
    for (unsigned t = 0; t < r->nr; t++) {
        TpcCpu *c = tpc_cpu_of(r->m, t);
        if (c && c->race == &r->log[t])
            c->race = NULL;
        g_free(r->log[t].a);
    }
    g_aligned_free(r->log);
    g_hash_table_destroy(r->seen);
    g_free(r);
}

TpcRace *tpc_race_new(Machine *m, unsigned mode)
{
    if (mode == 0 || !m->tpc || m->cfg.nr_tpc < 2)
        return NULL;
    TpcRace *r = g_new0(TpcRace, 1);
    r->m = m;
    r->nr = m->cfg.nr_tpc;
    r->log = g_aligned_alloc0(r->nr, sizeof(TpcRaceLog), 64);
    r->fatal = mode == 2;
    r->seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    for (unsigned t = 0; t < r->nr; t++) {
        TpcCpu *c = tpc_cpu_of(m, t);
        r->log[t].r = r;
        if (c)
            c->race = &r->log[t];
    }
    return r;
}

void tpc_race_set_output(TpcRace *r, GString *out)
{
    if (r)
        r->out = out;
}

static void compare(TpcRace *r);

int tpc_race_end(TpcRace *r, int rc)
{
    if (!r)
        return rc;
    compare(r);
    return r->fatal && r->reported && rc == 0 ? 122 : rc;
}

void tpc_race_launch(TpcRaceLog *l)
{
    if (l->launched)
        compare(l->r);
    l->launched = true;
}

void tpc_race_note_slow(TpcRaceLog *l, uint64_t pa, uint64_t len, bool write, uint32_t pc,
                        int tensor)
{
    if (l->n == l->cap) {
        if (l->n >= TPC_RACE_MAX) {
            l->full = true;
            return;
        }
        l->cap = l->cap ? 2 * l->cap : 256;
        l->a = g_renew(TpcRaceAcc, l->a, l->cap);
    }
    l->a[l->n++] = (TpcRaceAcc){pa, pa + len, pc, (int8_t)tensor, write};
    l->open[((pc >> 5) * 2u + write) % TPC_RACE_OPEN] = (uint32_t)l->n;
}

void tpc_race_mark(const TpcRaceLog *l, TpcRaceMark *mk)
{
    mk->n = l->n;
    mk->full = l->full;
    memcpy(mk->open, l->open, sizeof(mk->open));
    mk->nkept = 0;
    for (unsigned h = 0; h < TPC_RACE_OPEN; h++) {
        size_t e = l->open[h];
        if (!e)
            continue;
        bool dup = false;
        for (unsigned i = 0; i < mk->nkept; i++)
            dup |= mk->kept_at[i] == e - 1;
        if (!dup) {
            mk->kept_at[mk->nkept] = e - 1;
            mk->kept[mk->nkept++] = l->a[e - 1];
        }
    }
}

bool tpc_race_since(const TpcRaceLog *l, const TpcRaceMark *mk,
                    void (*emit)(void *o, uint64_t lo, uint64_t hi, bool write), void *o)
{
    for (unsigned i = 0; i < mk->nkept; i++) {
        const TpcRaceAcc *x = &l->a[mk->kept_at[i]];
        if (x->hi > mk->kept[i].hi)
            emit(o, mk->kept[i].hi, x->hi, x->write);
    }
    for (size_t i = mk->n; i < l->n; i++)
        emit(o, l->a[i].lo, l->a[i].hi, l->a[i].write);
    return !l->full;
}

void tpc_race_back(TpcRaceLog *l, const TpcRaceMark *mk)
{
    l->n = mk->n;
    l->full = mk->full;
    memcpy(l->open, mk->open, sizeof(l->open));
    for (unsigned i = 0; i < mk->nkept; i++)
        l->a[mk->kept_at[i]] = mk->kept[i];
}

typedef struct Item {
    TpcRaceAcc a;
    unsigned t;
} Item;

/* The order of the sweep: by address, then TPC, PC, reads first, end. */
static inline bool item_lt(const Item *x, const Item *y)
{
    if (x->a.lo != y->a.lo)
        return x->a.lo < y->a.lo;
    if (x->t != y->t)
        return x->t < y->t;
    if (x->a.pc != y->a.pc)
        return x->a.pc < y->a.pc;
    if (x->a.write != y->a.write)
        return y->a.write;
    return x->a.hi < y->a.hi;
}

/* Sorted a[0, na) and b[0, nb) into out. */
static void merge(const Item *a, size_t na, const Item *b, size_t nb, Item *out)
{
    size_t i = 0, j = 0, k = 0;
    while (i < na && j < nb)
        out[k++] = item_lt(&b[j], &a[i]) ? b[j++] : a[i++];
    memcpy(out + k, a + i, (na - i) * sizeof(Item));
    memcpy(out + k + na - i, b + j, (nb - j) * sizeof(Item));
}

/* v[0, n) in order, tmp[0, n) as scratch: runs of 16 by insertion, then
 * merged bottom-up. */
static void sort_items(Item *v, Item *tmp, size_t n)
{
    for (size_t lo = 0; lo < n; lo += 16) {
        for (size_t i = lo + 1; i < MIN(lo + 16, n); i++) {
            Item x = v[i];
            size_t j = i;
            for (; j > lo && item_lt(&x, &v[j - 1]); j--)
                v[j] = v[j - 1];
            v[j] = x;
        }
    }
    Item *src = v, *dst = tmp;
    for (size_t w = 16; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = MIN(lo + w, n), hi = MIN(lo + 2 * w, n);
            merge(src + lo, mid - lo, src + mid, hi - mid, dst + lo);
        }
        Item *x = src;
        src = dst;
        dst = x;
    }
    if (src != v)
        memcpy(v, src, n * sizeof(Item));
}

#define RADIX_BITS 11

/* One TPC's v[0, n) in item_lt's order, tmp[0, n) as scratch: a stable
 * radix sort of the start addresses, RADIX_BITS a pass over the bits in
 * which they differ, then each run of equal starts by sort_items.  The
 * passes touch each access a few times where a comparison sort moves it
 * log2(n) times. */
static void sort_starts(Item *v, Item *tmp, size_t n)
{
    if (n < 256) {
        sort_items(v, tmp, n);
        return;
    }
    uint64_t min = UINT64_MAX, max = 0;
    for (size_t i = 0; i < n; i++) {
        min = MIN(min, v[i].a.lo);
        max = MAX(max, v[i].a.lo);
    }
    unsigned bits = max > min ? 64 - (unsigned)__builtin_clzll(max - min) : 0;
    size_t *pos = g_new(size_t, 1u << RADIX_BITS);
    Item *src = v, *dst = tmp;
    for (unsigned sh = 0; sh < bits; sh += RADIX_BITS) {
        const uint64_t mask = (1u << RADIX_BITS) - 1;
        memset(pos, 0, sizeof(size_t) << RADIX_BITS);
        for (size_t i = 0; i < n; i++)
            pos[(src[i].a.lo - min) >> sh & mask]++;
        for (size_t b = 0, sum = 0; b <= mask; b++) {
            size_t c = pos[b];
            pos[b] = sum;
            sum += c;
        }
        for (size_t i = 0; i < n; i++)
            dst[pos[(src[i].a.lo - min) >> sh & mask]++] = src[i];
        Item *x = src;
        src = dst;
        dst = x;
    }
    g_free(pos);
    if (src != v)
        memcpy(v, src, n * sizeof(Item));
    for (size_t i = 0, j; i < n; i = j) {
        for (j = i + 1; j < n && v[j].a.lo == v[i].a.lo; j++)
            ;
        if (j - i > 1)
            sort_items(v + i, tmp, j - i);
    }
}

/*
 * compare's sort, on the pool's threads (nx_threads_run) while the TPCs
 * wait between rounds: each TPC's log into its run of it[] and sorted, then
 * the runs merged pairwise, a level at a time (the last merge, of two
 * halves, on one thread).  The order is item_lt's, a total one: the same
 * for every thread count.
 */
typedef struct Sort {
    TpcRace *r;
    Item *it, *tmp;
    size_t *off; /* nr + 1: TPC t's run is [off[t], off[t + 1]) */
    unsigned w;  /* merge level: runs of w TPCs into runs of 2w */
    Item *src, *dst;
} Sort;

static void sort_log(void *opaque, unsigned t)
{
    Sort *so = opaque;
    const TpcRaceLog *l = &so->r->log[t];
    Item *v = so->it + so->off[t];
    for (size_t i = 0; i < l->n; i++)
        v[i] = (Item){l->a[i], t};
    sort_starts(v, so->tmp + so->off[t], l->n);
}

static void merge_runs(void *opaque, unsigned j)
{
    Sort *so = opaque;
    unsigned nr = so->r->nr;
    size_t lo = so->off[MIN(2 * j * so->w, nr)], mid = so->off[MIN((2 * j + 1) * so->w, nr)],
           hi = so->off[MIN((2 * j + 2) * so->w, nr)];
    merge(so->src + lo, mid - lo, so->src + mid, hi - mid, so->dst + lo);
}

/* Every TPC's accesses in item_lt's order: the array (n of them), to free. */
static Item *sorted_items(TpcRace *r, size_t n)
{
    Sort so = {.r = r, .it = g_new(Item, n ? n : 1), .tmp = g_new(Item, n ? n : 1)};
    so.off = g_new(size_t, r->nr + 1);
    so.off[0] = 0;
    for (unsigned t = 0; t < r->nr; t++)
        so.off[t + 1] = so.off[t] + r->log[t].n;
    nx_threads_run(r->m, r->nr, sort_log, &so);
    so.src = so.it;
    so.dst = so.tmp;
    for (so.w = 1; so.w < r->nr; so.w *= 2) {
        nx_threads_run(r->m, (r->nr + 2 * so.w - 1) / (2 * so.w), merge_runs, &so);
        Item *x = so.src;
        so.src = so.dst;
        so.dst = x;
    }
    g_free(so.off);
    g_free(so.dst);
    return so.src;
}

typedef struct Report {
    unsigned ta, tb; /* ta < tb for write/write; ta reads otherwise */
    uint32_t pa, pb;
    bool ww;
    uint64_t lo, hi;
    unsigned tw; /* the writer whose tensor names the bytes */
    int tensor;
} Report;

static int report_cmp(const void *pa, const void *pb)
{
    const Report *x = pa, *y = pb;
    unsigned kx = MIN(x->ta, x->tb), ky = MIN(y->ta, y->tb);
    if (kx != ky)
        return kx < ky ? -1 : 1;
    if (x->ta != y->ta)
        return x->ta < y->ta ? -1 : 1;
    if (x->pa != y->pa)
        return x->pa < y->pa ? -1 : 1;
    if (x->tb != y->tb)
        return x->tb < y->tb ? -1 : 1;
    if (x->pb != y->pb)
        return x->pb < y->pb ? -1 : 1;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* ", coordinates d0,d1,..." of byte addr in TPC t's tensor n, dense
 * descending strides; nothing when the address is not an element of it. */
static void coords(Machine *m, unsigned t, int n, uint64_t addr, GString *out)
{
    TpcCpu *c = tpc_cpu_of(m, t);
    TpcTensor td;
    if (!c || n < 0 || !tpc_tensor_read(c, (unsigned)n, &td) || addr < td.base)
        return;
    uint64_t off = (addr - td.base) / td.esize;
    int32_t co[5] = {0};
    unsigned rank = 0, used = 0;
    for (unsigned d = 0; d < 5; d++)
        if (td.valid_mask & (1u << d))
            rank = d + 1;
    /* the dims by stride, largest first */
    for (unsigned k = 0; k < rank; k++) {
        int best = -1;
        for (unsigned d = 0; d < rank; d++)
            if ((td.valid_mask & (1u << d)) && !(used & (1u << d)) && td.stride[d] > 0 &&
                (best < 0 || td.stride[d] > td.stride[best]))
                best = (int)d;
        if (best < 0)
            break;
        used |= 1u << best;
        co[best] = (int32_t)(off / (uint64_t)td.stride[best]);
        off %= (uint64_t)td.stride[best];
    }
    if (off)
        return;
    g_string_append(out, ", coordinates ");
    for (unsigned d = 0; d < MAX(rank, 1u); d++)
        g_string_append_printf(out, "%s%" PRId32, d ? "," : "", co[d]);
}

static void add_report(TpcRace *r, GArray *reps, const Item *x, const Item *y)
{
    bool ww = x->a.write && y->a.write;
    const Item *a = x, *b = y;
    if (ww ? b->t < a->t : a->a.write) {
        a = y;
        b = x;
    }
    char *key = g_strdup_printf("%u:%x:%u:%x:%d", a->t, a->a.pc, b->t, b->a.pc, ww);
    if (g_hash_table_contains(r->seen, key)) {
        g_free(key);
        return;
    }
    g_hash_table_add(r->seen, key);
    Report rep = {.ta = a->t,
                  .tb = b->t,
                  .pa = a->a.pc,
                  .pb = b->a.pc,
                  .ww = ww,
                  .lo = MAX(a->a.lo, b->a.lo),
                  .hi = MIN(a->a.hi, b->a.hi),
                  .tw = b->t,
                  .tensor = b->a.tensor};
    g_array_append_val(reps, rep);
}

/* One line: on stderr as nx_warn's, or in the report. */
static void G_GNUC_PRINTF(2, 3) say(TpcRace *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *line = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    if (r->out)
        g_string_append_printf(r->out, "nxemu: warning: %s\n", line);
    else
        nx_warn("%s", line);
    g_free(line);
}

static void compare(TpcRace *r)
{
    Machine *m = r->m;
    size_t n = 0;
    bool full = false;
    for (unsigned t = 0; t < r->nr; t++) {
        n += r->log[t].n;
        full |= r->log[t].full;
    }
    Item *it = sorted_items(r, n);
    /* sweep in address order, keeping the accesses still open */
    GArray *reps = g_array_new(FALSE, FALSE, sizeof(Report));
    size_t *act = g_new(size_t, n ? n : 1);
    size_t nact = 0;
    for (size_t i = 0; i < n; i++) {
        const Item *x = &it[i];
        /* a repeat of the access before it (the same TPC and PC reading a
         * bias every row) meets the accesses that one met, after it: it
         * would report nothing new, and kept open it would make the sweep
         * quadratic */
        if (i && !item_lt(&it[i - 1], x))
            continue;
        size_t keep = 0;
        for (size_t j = 0; j < nact; j++) {
            const Item *y = &it[act[j]];
            if (y->a.hi <= x->a.lo)
                continue; /* closed */
            act[keep++] = act[j];
            if (y->t != x->t && (x->a.write || y->a.write))
                add_report(r, reps, x, y);
        }
        nact = keep;
        act[nact++] = i;
    }
    g_array_sort(reps, report_cmp);
    for (guint i = 0; i < reps->len; i++) {
        const Report *p = &g_array_index(reps, Report, i);
        GString *where = g_string_new(NULL);
        if (p->tensor >= 0) {
            g_string_append_printf(where, " (tensor %d", p->tensor);
            coords(m, p->tw, p->tensor, p->lo, where);
            g_string_append_c(where, ')');
        }
        say(r,
            "tpc race: tpc%u pc=0x%08" PRIx32 " and tpc%u pc=0x%08" PRIx32 " %s [0x%" PRIx64
            ", +%" PRIu64 ")%s",
            p->ta, p->pa, p->tb, p->pb, p->ww ? "write" : "read and write", p->lo, p->hi - p->lo,
            where->str);
        g_string_free(where, TRUE);
    }
    if (full)
        say(r,
            "tpc race: more than %u accesses of one TPC in a launch: the rest were not "
            "compared",
            TPC_RACE_MAX);
    r->reported += reps->len;
    g_array_free(reps, TRUE);
    g_free(act);
    g_free(it);
    for (unsigned t = 0; t < r->nr; t++) {
        r->log[t].n = 0;
        r->log[t].full = false;
        r->log[t].launched = false;
        memset(r->log[t].open, 0, sizeof(r->log[t].open));
    }
}
