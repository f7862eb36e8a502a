/*
 * Memory API: region tree, flattened address spaces, slow and fast access
 * paths, decode-cache invalidation hooks.  See include/nxemu/memory.h.
 *
 * Design notes:
 * - RAM/ROM backing is an anonymous MAP_NORESERVE mapping: a 64 GiB HBM costs
 *   only the pages the guest touches, and zeroing it is madvise(DONTNEED).
 * - A container is transparent where it has no subregion (as in QEMU): a
 *   lower-priority sibling shows through its holes.  Where nothing at all is
 *   mapped, accesses are MEMTX_UNMAPPED.
 * - The flat view is a sorted array of non-overlapping ranges, rebuilt only
 *   on as_commit; lookups are a one-entry cache in front of a binary search.
 */
#include "nxemu/memory.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <glib.h>

#include "nxemu/error.h"
#include "softmmu/memory-int.h"

/* Deeper nesting than this can only be a cycle (alias of itself, container
 * placed inside itself): the flattener ignores it instead of recursing forever. */
#define MEM_MAX_DEPTH 64

void as_notify(AddressSpace *as, uint64_t addr, unsigned size, bool is_write, MemTxAttrs attrs)
{
    for (unsigned i = 0; i < as->nr_hooks; i++)
        as->hooks[i].fn(as->hooks[i].opaque, addr, size, is_write, attrs);
}

/* ---- little-endian host memory access ---- */

static inline uint64_t mem_ld_le(const uint8_t *p, unsigned size)
{
    switch (size) {
    case 1:
        return p[0];
    case 2: {
        uint16_t v;
        memcpy(&v, p, 2);
        return GUINT16_FROM_LE(v);
    }
    case 4: {
        uint32_t v;
        memcpy(&v, p, 4);
        return GUINT32_FROM_LE(v);
    }
    default: {
        uint64_t v;
        memcpy(&v, p, 8);
        return GUINT64_FROM_LE(v);
    }
    }
}

static inline void mem_st_le(uint8_t *p, unsigned size, uint64_t val)
{
    switch (size) {
    case 1:
        p[0] = (uint8_t)val;
        break;
    case 2: {
        uint16_t v = GUINT16_TO_LE((uint16_t)val);
        memcpy(p, &v, 2);
        break;
    }
    case 4: {
        uint32_t v = GUINT32_TO_LE((uint32_t)val);
        memcpy(p, &v, 4);
        break;
    }
    default: {
        uint64_t v = GUINT64_TO_LE(val);
        memcpy(p, &v, 8);
        break;
    }
    }
}

/* 1, 2, 4 or 8 */
static inline bool mem_size_ok(unsigned size)
{
    return size - 1 < 8 && (size & (size - 1)) == 0;
}

/* ---- regions ---- */

static void mr_init_common(MemoryRegion *mr, MemoryRegionKind kind, const char *name, uint64_t size)
{
    memset(mr, 0, sizeof(*mr));
    mr->kind = kind;
    mr->name = g_strdup(name ? name : "(anonymous)");
    mr->size = size;
}

static size_t mr_map_len(uint64_t size)
{
    uint64_t page = 1u << MEM_PAGE_BITS;
    return (size_t)((size + page - 1) & ~(page - 1));
}

bool mr_init_backed(MemoryRegion *mr, MemoryRegionKind kind, const char *name, uint64_t size,
                    unsigned flags, GError **err)
{
    mr_init_common(mr, kind == MR_ROM ? MR_ROM : MR_RAM, name, size);
    mr->flags = flags;
    if (size == 0)
        return true;
    if (size > (uint64_t)SIZE_MAX - (1u << MEM_PAGE_BITS)) {
        g_set_error(err, NX_ERROR, NX_ERROR_CONFIG,
                    "memory region '%s': size 0x%llx is too large for this host", mr->name,
                    (unsigned long long)size);
        mr->size = 0;
        return false;
    }
    void *p = mmap(NULL, mr_map_len(size), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
        g_set_error(err, NX_ERROR, NX_ERROR_CONFIG,
                    "memory region '%s': cannot reserve 0x%llx bytes of host memory: %s", mr->name,
                    (unsigned long long)size, g_strerror(errno));
        mr->size = 0;
        return false;
    }
    mr->host = p;
    return true;
}

static void mr_init_backed_or_warn(MemoryRegion *mr, MemoryRegionKind kind, const char *name,
                                   uint64_t size, unsigned flags)
{
    GError *err = NULL;
    if (!mr_init_backed(mr, kind, name, size, flags, &err)) {
        /* The region stays in place with size 0, so every access to it is
         * MEMTX_UNMAPPED instead of a crash. */
        fprintf(stderr, "nxemu: error: %s\n", err->message);
        g_error_free(err);
    }
}

void mr_init_ram(MemoryRegion *mr, const char *name, uint64_t size, unsigned flags)
{
    mr_init_backed_or_warn(mr, MR_RAM, name, size, flags);
}

void mr_init_rom(MemoryRegion *mr, const char *name, uint64_t size, unsigned flags)
{
    mr_init_backed_or_warn(mr, MR_ROM, name, size, flags);
}

void mr_init_ram_ptr(MemoryRegion *mr, const char *name, uint64_t size, unsigned flags,
                     uint8_t *host)
{
    mr_init_common(mr, MR_RAM, name, size);
    mr->flags = flags;
    mr->host = host;
    mr->host_borrowed = true;
    /* Nothing is known about borrowed memory: zero tracking (as_is_zero)
     * starts with it all possibly written, until mr_ram_zero. */
    mr->all_touched = true;
}

void mr_init_io(MemoryRegion *mr, const char *name, uint64_t size, const MemoryRegionOps *ops,
                void *opaque)
{
    mr_init_common(mr, MR_IO, name, size);
    mr->ops = ops;
    mr->opaque = opaque;
}

void mr_init_alias(MemoryRegion *mr, const char *name, MemoryRegion *target, uint64_t offset,
                   uint64_t size)
{
    mr_init_common(mr, MR_ALIAS, name, size);
    mr->alias = target;
    mr->alias_offset = offset;
}

void mr_init_container(MemoryRegion *mr, const char *name, uint64_t size)
{
    mr_init_common(mr, MR_CONTAINER, name, size);
}

void mr_add_subregion(MemoryRegion *container, uint64_t addr, MemoryRegion *sub, int priority)
{
    g_return_if_fail(container->kind == MR_CONTAINER);
    g_return_if_fail(sub->parent == NULL && sub != container);

    sub->parent = container;
    sub->addr = addr;
    sub->priority = priority;

    /* Keep the array in rendering order: priority descending and, at equal
     * priority, the later-added first; so insert before the first region
     * whose priority is not higher. */
    unsigned i = 0;
    while (i < container->nr_subregions && container->subregions[i]->priority > priority)
        i++;
    /* Doubling: the board maps 280+ regions into one container, and growing
     * by one each time was a quadratic copy and a scattered heap at start-up. */
    if (container->nr_subregions == container->subregions_cap) {
        container->subregions_cap = container->subregions_cap ? 2 * container->subregions_cap : 8;
        container->subregions =
            g_renew(MemoryRegion *, container->subregions, container->subregions_cap);
    }
    memmove(&container->subregions[i + 1], &container->subregions[i],
            (container->nr_subregions - i) * sizeof(MemoryRegion *));
    container->subregions[i] = sub;
    container->nr_subregions++;
}

void mr_destroy(MemoryRegion *mr)
{
    if (mr->host && !mr->host_borrowed)
        munmap(mr->host, mr_map_len(mr->size));
    g_free(mr->code_bitmap);
    g_free(mr->touched);
    mr->touched = NULL;
    g_free(mr->subregions);
    g_free(mr->name);
    mr->host = NULL;
    mr->host_borrowed = false;
    mr->code_bitmap = NULL;
    mr->subregions = NULL;
    mr->nr_subregions = 0;
    mr->subregions_cap = 0;
    mr->name = NULL;
    mr->size = 0;
}

void mr_ram_zero(MemoryRegion *mr)
{
    if (!mr_is_memory(mr) || !mr->host)
        return;
    /* A private anonymous mapping reads back as zeros after DONTNEED, and the
     * host memory is given back. */
    if (madvise(mr->host, mr_map_len(mr->size), MADV_DONTNEED) != 0)
        memset(mr->host, 0, mr->size);
    g_free(mr->code_bitmap);
    mr->code_bitmap = NULL;
    g_free(mr->touched);
    mr->touched = NULL;
    mr->all_touched = false;
}

/* ---- code page marks ---- */

static void mr_code_mark(MemoryRegion *mr, uint64_t off, uint64_t len)
{
    uint64_t npages = (mr->size + (1u << MEM_PAGE_BITS) - 1) >> MEM_PAGE_BITS;
    if (!mr->code_bitmap)
        mr->code_bitmap = g_malloc0((npages + 7) / 8);
    uint64_t first = off >> MEM_PAGE_BITS, last = (off + len - 1) >> MEM_PAGE_BITS;
    for (uint64_t p = first; p <= last; p++)
        mr->code_bitmap[p >> 3] |= (uint8_t)(1u << (p & 7));
}

static bool mr_code_any(const MemoryRegion *mr, uint64_t off, uint64_t len)
{
    uint64_t first = off >> MEM_PAGE_BITS, last = (off + len - 1) >> MEM_PAGE_BITS;
    for (uint64_t p = first; p <= last; p++) {
        if (mr->code_bitmap[p >> 3] & (1u << (p & 7)))
            return true;
    }
    return false;
}

/* Clear the marks of the pages [off, off+len) touches.  Returns whether any
 * was set, with the written bytes on those pages in [*lo, *hi] (region
 * offsets). */
bool mr_code_clear(MemoryRegion *mr, uint64_t off, uint64_t len, uint64_t *lo, uint64_t *hi)
{
    uint64_t first = off >> MEM_PAGE_BITS, last = (off + len - 1) >> MEM_PAGE_BITS;
    bool any = false;
    for (uint64_t p = first; p <= last; p++) {
        uint8_t bit = (uint8_t)(1u << (p & 7));
        if (!(mr->code_bitmap[p >> 3] & bit))
            continue;
        mr->code_bitmap[p >> 3] &= (uint8_t)~bit;
        uint64_t ps = MAX(p << MEM_PAGE_BITS, off);
        uint64_t pe = MIN(((p + 1) << MEM_PAGE_BITS) - 1, off + len - 1);
        if (!any)
            *lo = ps;
        *hi = pe;
        any = true;
    }
    return any;
}

/* ---- flattening ---- */

/* Add [s, e) -> mr at mr_off, filling only what is not covered yet (regions
 * are rendered from highest to lowest priority). */
static void flat_insert(GArray *v, uint64_t s, uint64_t e, MemoryRegion *mr, uint64_t mr_off)
{
    guint lo = 0, hi = v->len;
    while (lo < hi) {
        guint mid = lo + (hi - lo) / 2;
        if (g_array_index(v, FlatRange, mid).end <= s)
            lo = mid + 1;
        else
            hi = mid;
    }
    guint i = lo;
    uint64_t cur = s;
    while (cur < e) {
        const FlatRange *r = i < v->len ? &g_array_index(v, FlatRange, i) : NULL;
        if (r && r->start <= cur) {
            cur = r->end;
            i++;
            continue;
        }
        uint64_t gap_end = (r && r->start < e) ? r->start : e;
        FlatRange nr = {.start = cur, .end = gap_end, .mr = mr, .mr_offset = mr_off + (cur - s)};
        g_array_insert_val(v, i, nr);
        i++;
        cur = gap_end;
    }
}

/* Render the window [off, off+len) of mr, which appears at absolute address
 * `start`. */
static void flat_render(GArray *v, MemoryRegion *mr, uint64_t start, uint64_t off, uint64_t len,
                        unsigned depth)
{
    if (depth > MEM_MAX_DEPTH || off >= mr->size || len == 0)
        return;
    len = MIN(len, mr->size - off);

    switch (mr->kind) {
    case MR_RAM:
    case MR_ROM:
        if (!mr->host)
            return;
        flat_insert(v, start, start + len, mr, off);
        return;
    case MR_IO:
        flat_insert(v, start, start + len, mr, off);
        return;
    case MR_ALIAS:
        if (!mr->alias || mr->alias_offset > UINT64_MAX - off)
            return;
        flat_render(v, mr->alias, start, mr->alias_offset + off, len, depth + 1);
        return;
    case MR_CONTAINER:
        for (unsigned i = 0; i < mr->nr_subregions; i++) {
            MemoryRegion *sub = mr->subregions[i];
            uint64_t sub_end =
                sub->size > UINT64_MAX - sub->addr ? UINT64_MAX : sub->addr + sub->size;
            uint64_t lo = MAX(off, sub->addr), hi = MIN(off + len, sub_end);
            if (lo >= hi)
                continue;
            flat_render(v, sub, start + (lo - off), lo - sub->addr, hi - lo, depth + 1);
        }
        return;
    }
}

AddressSpace *as_new(const char *name, MemoryRegion *root)
{
    AddressSpace *as = g_new0(AddressSpace, 1);
    as->name = g_strdup(name ? name : "(anonymous)");
    as->root = root;
    as_commit(as);
    return as;
}

void as_free(AddressSpace *as)
{
    if (!as)
        return;
    g_free(as->ranges);
    g_free(as->name);
    g_free(as);
}

void as_commit(AddressSpace *as)
{
    as->gen++;
    GArray *v = g_array_new(FALSE, FALSE, sizeof(FlatRange));
    if (as->root)
        flat_render(v, as->root, 0, 0, as->root->size, 0);

    /* Coalesce neighbours that continue the same region, so that the fast
     * path can hand out one pointer across them. */
    guint n = 0;
    for (guint i = 0; i < v->len; i++) {
        FlatRange *r = &g_array_index(v, FlatRange, i);
        FlatRange *prev = n ? &g_array_index(v, FlatRange, n - 1) : NULL;
        if (prev && prev->end == r->start && prev->mr == r->mr &&
            prev->mr_offset + (prev->end - prev->start) == r->mr_offset) {
            prev->end = r->end;
            continue;
        }
        g_array_index(v, FlatRange, n++) = *r;
    }
    g_free(as->ranges);
    as->nr_ranges = n;
    as->ranges = (FlatRange *)g_array_free(v, FALSE);
    as->last = NULL;
}

/* ---- lookup ---- */

const FlatRange *as_lookup(AddressSpace *as, uint64_t addr)
{
    return as_find(as, addr);
}

/* ---- slow path ---- */

static MemTxResult io_check(const MemoryRegion *mr, uint64_t off, unsigned size)
{
    const MemoryRegionOps *ops = mr->ops;
    if (!ops)
        return MEMTX_OK;
    uint8_t widths = ops->widths ? ops->widths : MEM_WALL;
    /* MEM_Wn bit values equal the access sizes they accept. */
    if (!(widths & size))
        return MEMTX_BAD_WIDTH;
    if (!ops->unaligned_ok && (off & (size - 1)))
        return MEMTX_MISALIGNED;
    return MEMTX_OK;
}

void as_code_notify(AddressSpace *as, uint64_t addr, uint64_t len)
{
    for (unsigned i = 0; i < as->nr_code_hooks; i++)
        as->code_hooks[i].fn(as->code_hooks[i].opaque, addr, len);
}

/* The written bytes [addr, addr+len) are at region offset off of mr. */
static void as_code_written(AddressSpace *as, MemoryRegion *mr, uint64_t addr, uint64_t off,
                            uint64_t len)
{
    uint64_t lo, hi;
    if (mr_code_clear(mr, off, len, &lo, &hi))
        as_code_notify(as, addr + (lo - off), hi - lo + 1);
}

MemTxResult as_read(AddressSpace *as, uint64_t addr, unsigned size, uint64_t *val, MemTxAttrs attrs)
{
    if (G_UNLIKELY(as->nr_hooks))
        as_notify(as, addr, size, false, attrs);
    const FlatRange *fr = as_find(as, addr);
    if (G_UNLIKELY(!fr)) {
        *val = 0;
        return MEMTX_UNMAPPED;
    }
    if (G_UNLIKELY(!mem_size_ok(size))) {
        *val = 0;
        return MEMTX_BAD_WIDTH;
    }
    if (G_UNLIKELY(fr->end - addr < size)) {
        *val = 0;
        return MEMTX_UNMAPPED;
    }
    MemoryRegion *mr = fr->mr;
    uint64_t off = fr->mr_offset + (addr - fr->start);
    if (G_LIKELY(mr->kind != MR_IO)) {
        *val = mem_ld_le(mr->host + off, size);
        return MEMTX_OK;
    }
    *val = 0;
    MemTxResult r = io_check(mr, off, size);
    if (r != MEMTX_OK || !mr->ops || !mr->ops->read)
        return r;
    return mr->ops->read(mr->opaque, off, size, val, attrs);
}

MemTxResult as_write(AddressSpace *as, uint64_t addr, unsigned size, uint64_t val, MemTxAttrs attrs)
{
    if (G_UNLIKELY(as->nr_hooks))
        as_notify(as, addr, size, true, attrs);
    const FlatRange *fr = as_find(as, addr);
    if (G_UNLIKELY(!fr))
        return MEMTX_UNMAPPED;
    if (G_UNLIKELY(!mem_size_ok(size)))
        return MEMTX_BAD_WIDTH;
    if (G_UNLIKELY(fr->end - addr < size))
        return MEMTX_UNMAPPED;
    MemoryRegion *mr = fr->mr;
    uint64_t off = fr->mr_offset + (addr - fr->start);
    if (G_LIKELY(mr->kind == MR_RAM) || (mr->kind == MR_ROM && mem_privileged(attrs))) {
        mem_st_le(mr->host + off, size, val);
        mr_touch(mr, off, size);
        if (G_UNLIKELY(mr->code_bitmap != NULL))
            as_code_written(as, mr, addr, off, size);
        return MEMTX_OK;
    }
    if (mr->kind == MR_ROM)
        return MEMTX_READONLY;
    MemTxResult r = io_check(mr, off, size);
    if (r != MEMTX_OK || !mr->ops || !mr->ops->write)
        return r;
    return mr->ops->write(mr->opaque, off, size, val, attrs);
}

MemTxResult as_check_memory(AddressSpace *as, uint64_t addr, uint64_t len, bool is_write,
                            MemTxAttrs attrs, uint64_t *bad)
{
    uint64_t cur = addr, left = len;
    while (left) {
        const FlatRange *fr = as_find(as, cur);
        MemTxResult r = MEMTX_OK;
        if (!fr || !mr_is_memory(fr->mr))
            r = MEMTX_UNMAPPED;
        else if (is_write && fr->mr->kind == MR_ROM && !mem_privileged(attrs))
            r = MEMTX_READONLY;
        if (r != MEMTX_OK) {
            if (bad)
                *bad = cur;
            return r;
        }
        uint64_t chunk = MIN(left, fr->end - cur);
        cur += chunk;
        left -= chunk;
    }
    return MEMTX_OK;
}

/* Width a debugger read of device region mr uses: 4 where accepted, else
 * 8, 2, 1. */
static unsigned debug_io_width(const MemoryRegion *mr)
{
    uint8_t widths = mr->ops && mr->ops->widths ? mr->ops->widths : MEM_WALL;
    static const unsigned pref[] = {4, 8, 2, 1};
    for (unsigned i = 0; i < G_N_ELEMENTS(pref); i++)
        if (widths & pref[i])
            return pref[i];
    return 4;
}

MemTxResult as_debug_read(AddressSpace *as, uint64_t addr, void *buf, uint64_t len,
                          uint64_t *bad)
{
    const MemTxAttrs attrs = MEMTXATTRS(MEM_REQ_DEBUG, 0);
    uint8_t *p = buf;
    uint64_t cur = addr, left = len;
    while (left) {
        const FlatRange *fr = as_find(as, cur);
        MemTxResult r = MEMTX_UNMAPPED;
        uint64_t chunk = fr ? MIN(left, fr->end - cur) : 0;
        if (fr && mr_is_memory(fr->mr)) {
            r = as_rw_bytes(as, cur, p, chunk, false, attrs, bad);
            if (r != MEMTX_OK)
                return r;
        } else if (fr && fr->mr->kind == MR_IO) {
            /* word by word: the aligned word holding cur, within the region */
            unsigned w = debug_io_width(fr->mr);
            uint64_t word = cur & ~(uint64_t)(w - 1), v;
            if (word < fr->start || word + w > fr->end)
                w = 1, word = cur;
            r = as_read(as, word, w, &v, attrs);
            if (r == MEMTX_OK) {
                chunk = MIN(left, word + w - cur);
                for (uint64_t k = 0; k < chunk; k++)
                    p[k] = (uint8_t)(v >> (8 * (cur - word + k)));
            }
        }
        if (r != MEMTX_OK) {
            if (bad)
                *bad = cur;
            return r;
        }
        p += chunk;
        cur += chunk;
        left -= chunk;
    }
    return MEMTX_OK;
}

MemTxResult as_rw_bytes(AddressSpace *as, uint64_t addr, void *buf, uint64_t len, bool is_write,
                        MemTxAttrs attrs, uint64_t *bad)
{
    if (len == 0)
        return MEMTX_OK;
    if (G_UNLIKELY(as->nr_hooks))
        as_notify(as, addr, len > UINT_MAX ? UINT_MAX : (unsigned)len, is_write, attrs);

    /* Check everything first: a failed copy leaves memory untouched. */
    MemTxResult r = as_check_memory(as, addr, len, is_write, attrs, bad);
    if (r != MEMTX_OK)
        return r;

    uint8_t *p = buf;
    bool code_hit = false;
    uint64_t code_lo = 0, code_hi = 0;
    uint64_t cur = addr, left = len;
    while (left) {
        const FlatRange *fr = as_find(as, cur);
        MemoryRegion *mr = fr->mr;
        uint64_t off = fr->mr_offset + (cur - fr->start);
        uint64_t chunk = MIN(left, fr->end - cur);
        if (is_write) {
            memcpy(mr->host + off, p, chunk);
            mr_touch(mr, off, chunk);
            uint64_t lo, hi;
            if (mr->code_bitmap && mr_code_clear(mr, off, chunk, &lo, &hi)) {
                if (!code_hit)
                    code_lo = cur + (lo - off);
                code_hi = cur + (hi - off);
                code_hit = true;
            }
        } else {
            memcpy(p, mr->host + off, chunk);
        }
        p += chunk;
        cur += chunk;
        left -= chunk;
    }
    if (code_hit)
        as_code_notify(as, code_lo, code_hi - code_lo + 1);
    return MEMTX_OK;
}

/* ---- fast path ---- */

uint8_t *as_host_ptr(AddressSpace *as, uint64_t addr, uint64_t len, bool is_write,
                     unsigned need_flags)
{
    /* An observer must see every access, so nothing bypasses the slow path
     * while one is installed. */
    if (as->nr_hooks)
        return NULL;
    const FlatRange *fr = as_find(as, addr);
    if (!fr)
        return NULL;
    MemoryRegion *mr = fr->mr;
    if (mr->kind != MR_RAM && (is_write || mr->kind != MR_ROM))
        return NULL;
    if ((mr->flags & need_flags) != need_flags)
        return NULL;
    if (len == 0)
        len = 1;
    if (len > fr->end - addr)
        return NULL;
    uint64_t off = fr->mr_offset + (addr - fr->start);
    if (is_write && mr->code_bitmap && mr_code_any(mr, off, len))
        return NULL;
    if (is_write)
        mr_touch(mr, off, len);
    return mr->host + off;
}

/* The host pages under [addr, addr + len) of one RAM range, widened to
 * `align` inside the region's mapping: false if it is not such a range. */
static bool ram_host_pages(AddressSpace *as, uint64_t addr, uint64_t len, uintptr_t align,
                           uintptr_t *lo, uintptr_t *hi)
{
    const FlatRange *fr = as_find(as, addr);
    if (!fr || len == 0 || len > fr->end - addr || fr->mr->kind != MR_RAM || !fr->mr->host)
        return false;
    uintptr_t base = (uintptr_t)fr->mr->host, end = base + mr_map_len(fr->mr->size);
    uintptr_t p = base + (uintptr_t)(fr->mr_offset + (addr - fr->start));
    *lo = p & ~(align - 1);
    *hi = (p + (uintptr_t)len + align - 1) & ~(align - 1);
    *lo = *lo < base ? base : *lo;
    *hi = *hi > end ? end : *hi;
    return *hi > *lo;
}

void as_hint_dense(AddressSpace *as, uint64_t addr, uint64_t len)
{
#if defined(MADV_HUGEPAGE)
    /* whole huge pages around the range, inside the region's mapping: the
     * ends share a huge page with their neighbours at most */
    uintptr_t lo, hi;
    if (ram_host_pages(as, addr, len, (uintptr_t)2 << 20, &lo, &hi))
        (void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE); /* advice: failure is harmless */
#else
    (void)as;
    (void)addr;
    (void)len;
#endif
}

void as_populate(AddressSpace *as, uint64_t addr, uint64_t len)
{
#if defined(MADV_POPULATE_WRITE)
    uintptr_t lo, hi;
    if (ram_host_pages(as, addr, len, (uintptr_t)sysconf(_SC_PAGESIZE), &lo, &hi))
        (void)madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE); /* Linux >= 5.14 */
#else
    (void)as;
    (void)addr;
    (void)len;
#endif
}

bool as_host_span(AddressSpace *as, uint64_t addr, bool is_write, MemHostSpan *s)
{
    s->len = 0;
    if (as->nr_hooks)
        return false;
    const FlatRange *fr = as_find(as, addr);
    if (!fr)
        return false;
    MemoryRegion *mr = fr->mr;
    if (mr->kind != MR_RAM && (is_write || mr->kind != MR_ROM))
        return false;
    uint64_t lo = fr->start, hi = fr->end; /* [lo, hi) */
    if (is_write && mr->code_bitmap) {
        /* writes to code must take the slow path: the run of code-free
         * pages around addr, at most MEM_SPAN_CODE_PAGES each way (a miss
         * scans that far; a tensor streaming through a region that also
         * holds the kernel would otherwise miss at every page).  Marking
         * a page later bumps the generation, which ends the span. */
        uint64_t off = fr->mr_offset + (addr - fr->start);
        if (mr_code_any(mr, off, 1))
            return false;
        uint64_t p = off >> MEM_PAGE_BITS, pf = p, pl = p;
        uint64_t rlo = fr->mr_offset, rhi = fr->mr_offset + (fr->end - fr->start); /* [rlo, rhi) */
        while (pf > (rlo >> MEM_PAGE_BITS) && p - pf < MEM_SPAN_CODE_PAGES &&
               !mr_code_any(mr, (pf - 1) << MEM_PAGE_BITS, 1))
            pf--;
        while (pl < ((rhi - 1) >> MEM_PAGE_BITS) && pl - p < MEM_SPAN_CODE_PAGES &&
               !mr_code_any(mr, (pl + 1) << MEM_PAGE_BITS, 1))
            pl++;
        uint64_t olo = MAX(pf << MEM_PAGE_BITS, rlo), ohi = MIN((pl + 1) << MEM_PAGE_BITS, rhi);
        lo = fr->start + (olo - fr->mr_offset);
        hi = fr->start + (ohi - fr->mr_offset);
    }
    if (is_write)
        mr->all_touched = true; /* the caller may write anywhere in it, untracked */
    s->lo = lo;
    s->len = hi - lo;
    s->host = mr->host + fr->mr_offset + (lo - fr->start);
    s->genp = &as->gen;
    s->gen = as->gen;
    return true;
}

bool as_is_ram(AddressSpace *as, uint64_t addr, uint64_t len, unsigned flags)
{
    uint64_t cur = addr, left = len;
    while (left) {
        const FlatRange *fr = as_find(as, cur);
        if (!fr || fr->mr->kind != MR_RAM || (fr->mr->flags & flags) != flags)
            return false;
        uint64_t chunk = MIN(left, fr->end - cur);
        cur += chunk;
        left -= chunk;
    }
    return true;
}

/* ---- hooks ---- */

bool as_set_code_write_hook(AddressSpace *as, CodeWriteFn fn, void *opaque)
{
    for (unsigned i = 0; i < as->nr_code_hooks; i++)
        if (as->code_hooks[i].fn == fn && as->code_hooks[i].opaque == opaque)
            return true; /* once per (fn, opaque) */
    if (as->nr_code_hooks == AS_MAX_CODE_HOOKS)
        return false;
    as->code_hooks[as->nr_code_hooks].fn = fn;
    as->code_hooks[as->nr_code_hooks++].opaque = opaque;
    return true;
}

void as_mark_code(AddressSpace *as, uint64_t addr, uint64_t len)
{
    as->gen++;
    uint64_t cur = addr, left = len;
    while (left) {
        const FlatRange *fr = as_find(as, cur);
        uint64_t chunk;
        if (!fr) {
            /* skip the hole up to the next range, if any */
            unsigned i = 0;
            while (i < as->nr_ranges && as->ranges[i].start <= cur)
                i++;
            if (i == as->nr_ranges || as->ranges[i].start - cur >= left)
                return;
            chunk = as->ranges[i].start - cur;
        } else {
            chunk = MIN(left, fr->end - cur);
            if (mr_is_memory(fr->mr))
                mr_code_mark(fr->mr, fr->mr_offset + (cur - fr->start), chunk);
        }
        cur += chunk;
        left -= chunk;
    }
}

bool as_add_access_hook(AddressSpace *as, AccessHookFn fn, void *opaque)
{
    if (as->nr_hooks == AS_MAX_ACCESS_HOOKS)
        return false;
    as->hooks[as->nr_hooks].fn = fn;
    as->hooks[as->nr_hooks].opaque = opaque;
    as->nr_hooks++;
    as->gen++;
    return true;
}

void as_remove_access_hook(AddressSpace *as, AccessHookFn fn, void *opaque)
{
    for (unsigned i = 0; i < as->nr_hooks; i++) {
        if (as->hooks[i].fn == fn && as->hooks[i].opaque == opaque) {
            /* keep the others in the order they were added */
            memmove(&as->hooks[i], &as->hooks[i + 1],
                    (as->nr_hooks - i - 1) * sizeof(as->hooks[0]));
            as->nr_hooks--;
            as->gen++;
            return;
        }
    }
}

void as_dump_flat(AddressSpace *as, GString *out)
{
    static const char *const kind_names[] = {
        [MR_RAM] = "ram",     [MR_ROM] = "rom",        [MR_IO] = "io",
        [MR_ALIAS] = "alias", [MR_CONTAINER] = "cont",
    };
    for (unsigned i = 0; i < as->nr_ranges; i++) {
        const FlatRange *r = &as->ranges[i];
        g_string_append_printf(out, "0x%016llx-0x%016llx %-5s %s\n", (unsigned long long)r->start,
                               (unsigned long long)(r->end - 1), kind_names[r->mr->kind],
                               r->mr->name);
    }
}
