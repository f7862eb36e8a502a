/*
 * Poison mode: which bytes of HBM, SBUF and PSUM were ever written, checked
 * on every read (include/nxemu/poison.h).
 *
 * The map is sparse (HBM is tens of GiB, programs touch a little of it): a
 * hash table from 4 KiB page number to two bitmaps, "written" and "already
 * reported", one bit per byte.  A page is allocated on its first write; a
 * read of a page never written needs no allocation to be reported, only to
 * remember the report.  A one-entry cache makes streams of accesses to one
 * page cheap.  This is a debugging mode: it may be slower than a plain run,
 * but a run without it pays nothing (no hook installed).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "nxemu/board-if.h"
#include "nxemu/machine.h"
#include "nxemu/poison.h"

#define POISON_PAGE_BITS 12
#define POISON_PAGE      (1ull << POISON_PAGE_BITS)

typedef struct PoisonPage {
    uint8_t written[POISON_PAGE / 8];
    uint8_t reported[POISON_PAGE / 8];
} PoisonPage;

struct NxPoison {
    Machine *m;
    GHashTable *pages; /* uint64_t page number (boxed) -> PoisonPage */
    uint64_t cached_pn;
    PoisonPage *cached;
    uint64_t reports;
    GString *out; /* NULL: stderr */
    /* TPC VLM: per TPC, POISON_VLM_SIZE bits each, dense (80 KiB is small) */
    unsigned nr_tpc;
    uint8_t *vlm_written, *vlm_reported;
};

#define POISON_VLM_MAP (POISON_VLM_SIZE / 8)

static bool poison_tracked(const NxPoison *p, uint64_t addr)
{
    return board_is_memory(p->m, addr);
}

static PoisonPage *poison_page(NxPoison *p, uint64_t pn, bool create)
{
    PoisonPage *pg;
    if (p->cached && p->cached_pn == pn) {
        return p->cached;
    }
    pg = g_hash_table_lookup(p->pages, &pn);
    if (!pg && create) {
        uint64_t *key = g_new(uint64_t, 1);
        *key = pn;
        pg = g_new0(PoisonPage, 1);
        g_hash_table_insert(p->pages, key, pg);
    }
    if (pg) {
        p->cached_pn = pn;
        p->cached = pg;
    }
    return pg;
}

static inline bool bit_get(const uint8_t *map, uint64_t i)
{
    return (map[i >> 3] >> (i & 7)) & 1;
}

static inline void bit_set(uint8_t *map, uint64_t i)
{
    map[i >> 3] |= (uint8_t)(1u << (i & 7));
}

/* Set bits [lo, hi) of a page bitmap, whole bytes where possible. */
static void bits_set_range(uint8_t *map, uint64_t lo, uint64_t hi)
{
    while (lo < hi && (lo & 7)) {
        bit_set(map, lo++);
    }
    if (hi - lo >= 8) {
        memset(map + (lo >> 3), 0xFF, (hi - lo) >> 3);
        lo += (hi - lo) & ~7ull;
    }
    while (lo < hi) {
        bit_set(map, lo++);
    }
}

static void poison_mark(NxPoison *p, uint64_t addr, uint64_t len)
{
    uint64_t end = addr + len;
    while (addr < end) {
        uint64_t pn = addr >> POISON_PAGE_BITS, off = addr & (POISON_PAGE - 1);
        uint64_t n = MIN(end - addr, POISON_PAGE - off);
        bits_set_range(poison_page(p, pn, true)->written, off, off + n);
        addr += n;
    }
}

/* Count and print one report line (freed here). */
static void poison_emit(NxPoison *p, GString *line)
{
    p->reports++;
    if (p->out) {
        g_string_append(p->out, line->str);
    } else {
        fflush(stdout); /* guest console bytes first */
        fputs(line->str, stderr);
    }
    g_string_free(line, TRUE);
}

static void poison_report(NxPoison *p, uint64_t addr, unsigned size, MemTxAttrs attrs)
{
    Machine *m = p->m;
    GString *line = g_string_new("nxemu: warning: poison: ");
    NxCpu *cpu = NULL;
    if (attrs.kind == MEM_REQ_SEQ && m->seq && attrs.id < m->cfg.nr_seq) {
        cpu = m->seq[attrs.id];
        g_string_append_printf(line, "core=%u", attrs.id);
    } else if (attrs.kind == MEM_REQ_TPC && m->tpc && attrs.id < m->cfg.nr_tpc) {
        cpu = m->tpc[attrs.id];
        g_string_append_printf(line, "tpc=%u", attrs.id);
    } else {
        g_string_append_printf(line, "dma=%u", attrs.id);
    }
    if (cpu && cpu->ops && cpu->ops->get_pc) {
        g_string_append_printf(line, " pc=0x%016" PRIx64, cpu->ops->get_pc(cpu));
    }
    g_string_append_printf(line, " read of uninitialised 0x%016" PRIx64 " (size %u)\n", addr, size);
    poison_emit(p, line);
}

/* A read: report it if any byte was never written and not yet reported, then
 * mark the unwritten bytes reported so each range is named once. */
static void poison_check(NxPoison *p, uint64_t addr, unsigned size, MemTxAttrs attrs)
{
    uint64_t end = addr + size, cur = addr;
    bool fresh = false;
    while (cur < end) {
        uint64_t pn = cur >> POISON_PAGE_BITS, off = cur & (POISON_PAGE - 1);
        uint64_t n = MIN(end - cur, POISON_PAGE - off);
        PoisonPage *pg = poison_page(p, pn, false);
        for (uint64_t i = off; i < off + n; i++) {
            if (pg && bit_get(pg->written, i)) {
                continue;
            }
            if (!pg) {
                pg = poison_page(p, pn, true);
            }
            if (!bit_get(pg->reported, i)) {
                bit_set(pg->reported, i);
                fresh = true;
            }
        }
        cur += n;
    }
    if (fresh) {
        poison_report(p, addr, size, attrs);
    }
}

static void poison_access(void *opaque, uint64_t addr, unsigned size, bool is_write,
                          MemTxAttrs attrs)
{
    NxPoison *p = opaque;
    if (!size || !poison_tracked(p, addr)) {
        return;
    }
    /* The hook runs before the access: a hole or an access running off the
     * memory fails as a whole and neither writes nor reads anything. */
    if (!as_is_ram(p->m->as, addr, size, 0)) {
        return;
    }
    if (is_write) {
        poison_mark(p, addr, size);
    } else if (attrs.kind != MEM_REQ_DEBUG && attrs.kind != MEM_REQ_LOADER) {
        /* A debugger or the loader looking at memory is not the program
         * relying on it. */
        poison_check(p, addr, size, attrs);
    }
}

NxPoison *poison_new(Machine *m)
{
    NxPoison *p = g_new0(NxPoison, 1);
    p->m = m;
    p->pages = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, g_free);
    /* The board copied the effective tree into HBM before we were there. */
    uint64_t dtb = board_dtb_addr(m);
    if (dtb && m->fdt_size) {
        poison_mark(p, dtb, m->fdt_size);
    }
    as_add_access_hook(m->as, poison_access, p); /* the first observer: cannot be full */
    p->nr_tpc = m->tpc ? m->cfg.nr_tpc : 0;
    if (p->nr_tpc) {
        p->vlm_written = g_malloc0((size_t)p->nr_tpc * POISON_VLM_MAP);
        p->vlm_reported = g_malloc0((size_t)p->nr_tpc * POISON_VLM_MAP);
    }
    for (unsigned i = 0; i < p->nr_tpc; i++)
        m->tpc[i]->poison = p; /* the TPCs feed their VLM accesses */
    return p;
}

void poison_free(NxPoison *p)
{
    if (!p) {
        return;
    }
    as_remove_access_hook(p->m->as, poison_access, p);
    for (unsigned i = 0; i < p->nr_tpc; i++)
        if (p->m->tpc[i]->poison == p)
            p->m->tpc[i]->poison = NULL;
    g_free(p->vlm_written);
    g_free(p->vlm_reported);
    g_hash_table_destroy(p->pages);
    g_free(p);
}

void poison_set_output(NxPoison *p, GString *out)
{
    p->out = out;
}

uint64_t poison_reports(const NxPoison *p)
{
    return p->reports;
}

bool poison_is_written(const NxPoison *p, uint64_t addr, uint64_t len)
{
    for (uint64_t a = addr; a < addr + len; a++) {
        uint64_t pn = a >> POISON_PAGE_BITS;
        const PoisonPage *pg = g_hash_table_lookup(p->pages, &pn);
        if (!pg || !bit_get(pg->written, a & (POISON_PAGE - 1))) {
            return false;
        }
    }
    return true;
}

/* Bounds of a VLM access in the maps, or false if t or the range is out of
 * them (the TPC checked the range against its VLM size already). */
static bool poison_vlm_range(const NxPoison *p, unsigned t, uint32_t off, unsigned len)
{
    return t < p->nr_tpc && (uint64_t)off + len <= POISON_VLM_SIZE;
}

void poison_vlm_write(NxPoison *p, unsigned t, uint32_t off, unsigned len, const uint8_t *en)
{
    if (!poison_vlm_range(p, t, off, len)) {
        return;
    }
    uint8_t *map = p->vlm_written + (size_t)t * POISON_VLM_MAP;
    if (!en) {
        bits_set_range(map, off, (uint64_t)off + len);
        return;
    }
    for (unsigned i = 0; i < len; i++) {
        if (en[i]) {
            bit_set(map, (uint64_t)off + i);
        }
    }
}

void poison_vlm_read(NxPoison *p, unsigned t, uint64_t pc, uint32_t off, unsigned len,
                     const uint8_t *en)
{
    if (!poison_vlm_range(p, t, off, len)) {
        return;
    }
    const uint8_t *wr = p->vlm_written + (size_t)t * POISON_VLM_MAP;
    uint8_t *rep = p->vlm_reported + (size_t)t * POISON_VLM_MAP;
    bool fresh = false;
    for (unsigned i = 0; i < len; i++) {
        uint64_t b = (uint64_t)off + i;
        if ((en && !en[i]) || bit_get(wr, b) || bit_get(rep, b)) {
            continue;
        }
        bit_set(rep, b);
        fresh = true;
    }
    if (fresh) {
        GString *line = g_string_new(NULL);
        g_string_printf(line,
                        "nxemu: warning: poison: tpc=%u pc=0x%016" PRIx64
                        " read of uninitialised VLM 0x%05x (size %u)\n",
                        t, pc, off, len);
        poison_emit(p, line);
    }
}

bool poison_vlm_is_written(const NxPoison *p, unsigned t, uint32_t off, unsigned len)
{
    if (!poison_vlm_range(p, t, off, len)) {
        return false;
    }
    const uint8_t *wr = p->vlm_written + (size_t)t * POISON_VLM_MAP;
    for (unsigned i = 0; i < len; i++) {
        if (!bit_get(wr, (uint64_t)off + i)) {
            return false;
        }
    }
    return true;
}
