/* The sequencer's window TLB (machine.md §2.2): a small fully associative
 * cache of window-table entries with LRU replacement.  It is deliberately
 * not coherent with the table in memory; software flushes it. */
#include <inttypes.h>

#include <glib.h>

#include "hw/nc2/wtlb.h"

#define WT_PBASE_MASK (~0xFFFFFFull)

#define wtlb_log(t, ...)                                                                           \
    do {                                                                                           \
        if ((t)->log)                                                                              \
            nx_log_mask((t)->log, NX_LOG_MMU, __VA_ARGS__);                                        \
    } while (0)

void wtlb_init(WTlb *t, unsigned entries)
{
    *t = (WTlb){0};
    t->n = entries ? entries : 1;
    t->e = g_new0(WTlbEntry, t->n);
}

void wtlb_destroy(WTlb *t)
{
    g_free(t->e);
    t->e = NULL;
    t->n = 0;
}

void wtlb_flush(WTlb *t)
{
    for (unsigned i = 0; i < t->n; i++) {
        t->e[i].valid = false;
    }
    t->last = 0;
    wtlb_log(t, "mmu: core=%u tlb flush\n", t->core);
}

static bool wtlb_perm_ok(uint64_t entry, NxAccess acc)
{
    static const uint64_t need[] = {
        [NX_ACC_FETCH] = WT_X, [NX_ACC_READ] = WT_R, [NX_ACC_WRITE] = WT_W};
    return (entry & need[acc]) != 0;
}

static const char *const wtlb_acc_name[] = {"fetch", "read", "write"};

/* Slot holding window w, or -1. */
static int wtlb_find(const WTlb *t, uint64_t w)
{
    const WTlbEntry *l = &t->e[t->last];
    if (l->valid && l->window == w) {
        return (int)t->last;
    }
    for (unsigned i = 0; i < t->n; i++) {
        if (t->e[i].valid && t->e[i].window == w) {
            return (int)i;
        }
    }
    return -1;
}

/* Slot for a new entry: a free one, else the least recently used (evicted). */
static unsigned wtlb_victim(WTlb *t)
{
    unsigned lru = 0;
    for (unsigned i = 0; i < t->n; i++) {
        if (!t->e[i].valid) {
            return i;
        }
        if (t->e[i].stamp < t->e[lru].stamp) {
            lru = i;
        }
    }
    t->evictions++;
    wtlb_log(t, "mmu: core=%u evict window=0x%" PRIx64 "\n", t->core, t->e[lru].window);
    return lru;
}

bool wtlb_translate(WTlb *t, AddressSpace *as, uint64_t wt_base, uint32_t wt_len, uint64_t a,
                    NxAccess acc, uint64_t *pa, NxFault *f)
{
    uint64_t w = a >> 24;
    int slot = wtlb_find(t, w);
    WTlbEntry *e;

    if (slot >= 0) {
        t->hits++;
        e = &t->e[slot];
        wtlb_log(t, "mmu: core=%u %s 0x%016" PRIx64 " hit window=0x%" PRIx64 "\n", t->core,
                 wtlb_acc_name[acc], a, w);
    } else {
        t->misses++;
        if (w >= wt_len) {
            wtlb_log(t,
                     "mmu: core=%u %s 0x%016" PRIx64 " miss: window 0x%" PRIx64
                     " >= WT_LEN %" PRIu32 "\n",
                     t->core, wtlb_acc_name[acc], a, w, wt_len);
            return nx_fault_set(f, NX_FAULT_TRANSLATION_FAULT, 0, a);
        }
        uint64_t epa = (wt_base & ~7ull) + w * 8;
        uint64_t entry;
        if (as_read(as, epa, 8, &entry, MEMTXATTRS(MEM_REQ_SEQ, t->core)) != MEMTX_OK) {
            wtlb_log(t,
                     "mmu: core=%u %s 0x%016" PRIx64 " miss: entry at 0x%016" PRIx64
                     " not readable\n",
                     t->core, wtlb_acc_name[acc], a, epa);
            return nx_fault_set(f, NX_FAULT_BUS_ERROR, 0, epa);
        }
        if (!(entry & WT_V) || (entry & WT_RESERVED)) {
            wtlb_log(t, "mmu: core=%u %s 0x%016" PRIx64 " miss: bad entry 0x%016" PRIx64 "\n",
                     t->core, wtlb_acc_name[acc], a, entry);
            return nx_fault_set(f, NX_FAULT_TRANSLATION_FAULT, 0, a);
        }
        slot = (int)wtlb_victim(t);
        e = &t->e[slot];
        e->valid = true;
        e->window = w;
        e->entry = entry;
        wtlb_log(t,
                 "mmu: core=%u %s 0x%016" PRIx64 " fill window=0x%" PRIx64 " entry=0x%016" PRIx64
                 "\n",
                 t->core, wtlb_acc_name[acc], a, w, entry);
    }
    e->stamp = ++t->clock;
    t->last = (unsigned)slot;

    if (!wtlb_perm_ok(e->entry, acc)) {
        wtlb_log(t, "mmu: core=%u %s 0x%016" PRIx64 " permission denied\n", t->core,
                 wtlb_acc_name[acc], a);
        return nx_fault_set(f, NX_FAULT_PERMISSION_FAULT, 0, a);
    }
    *pa = (e->entry & WT_PBASE_MASK) | (a & 0xFFFFFF);
    return true;
}
