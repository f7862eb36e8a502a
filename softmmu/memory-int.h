/*
 * Memory API internals shared by softmmu/memory.c and softmmu/memory-zero.c
 * (not for devices or cores: they use include/nxemu/memory.h).
 */
#ifndef SOFTMMU_MEMORY_INT_H
#define SOFTMMU_MEMORY_INT_H

#include <glib.h>

#include "nxemu/memory.h"

#define MEM_PAGE_BITS MEM_CODE_PAGE_BITS
/* the code-free pages a write span reaches each way from its address
 * (as_host_span): 2 MiB */
#define MEM_SPAN_CODE_PAGES 512u

struct AddressSpace {
    char *name;
    MemoryRegion *root;
    FlatRange *ranges; /* sorted by start, non-overlapping */
    unsigned nr_ranges;
    const FlatRange *last; /* last lookup hit; NULL after as_commit */
    /* code-write hooks (the decode caches of each core type) */
    struct {
        CodeWriteFn fn;
        void *opaque;
    } code_hooks[AS_MAX_CODE_HOOKS];
    unsigned nr_code_hooks;
    /* Access observers (debugger watchpoints, trace, viewer, poison map):
     * a list, so each adds and removes itself in any order. */
    struct {
        AccessHookFn fn;
        void *opaque;
    } hooks[AS_MAX_ACCESS_HOOKS];
    unsigned nr_hooks;
    /* Bumped by everything that can invalidate a MemHostSpan: a new flat
     * view, an observer added or removed, pages marked as code. */
    uint64_t gen;
};

/* Every access observer, in the order added. */
void as_notify(AddressSpace *as, uint64_t addr, unsigned size, bool is_write, MemTxAttrs attrs);
/* The code-write hooks, for written bytes [addr, addr+len) on code pages. */
void as_code_notify(AddressSpace *as, uint64_t addr, uint64_t len);
/* Clear the code marks of the pages [off, off+len) of mr touches: whether any
 * was set, with the written bytes on those pages in [*lo, *hi]. */
bool mr_code_clear(MemoryRegion *mr, uint64_t off, uint64_t len, uint64_t *lo, uint64_t *hi);
/* MEMTX_OK if every byte of [addr, addr+len) is RAM/ROM that attrs may
 * access (ROM writes: loader and debugger only); else the error, *bad = the
 * first bad address. */
MemTxResult as_check_memory(AddressSpace *as, uint64_t addr, uint64_t len, bool is_write,
                            MemTxAttrs attrs, uint64_t *bad);

static inline bool mem_privileged(MemTxAttrs attrs)
{
    return attrs.kind == MEM_REQ_LOADER || attrs.kind == MEM_REQ_DEBUG;
}

static inline bool mr_is_memory(const MemoryRegion *mr)
{
    return mr->kind == MR_RAM || mr->kind == MR_ROM;
}

static inline const FlatRange *as_find(AddressSpace *as, uint64_t addr)
{
    const FlatRange *fr = as->last;
    if (G_LIKELY(fr && addr - fr->start < fr->end - fr->start))
        return fr;
    unsigned lo = 0, hi = as->nr_ranges;
    while (lo < hi) {
        unsigned mid = lo + (hi - lo) / 2;
        const FlatRange *r = &as->ranges[mid];
        if (addr < r->start)
            hi = mid;
        else if (addr >= r->end)
            lo = mid + 1;
        else {
            as->last = r;
            return r;
        }
    }
    return NULL;
}

/* ---- zero tracking (memory-zero.c) ---- */

void mr_touch_slow(MemoryRegion *mr, uint64_t off, uint64_t len);

/* [off, off+len) of mr may be written now (len > 0). */
static inline void mr_touch(MemoryRegion *mr, uint64_t off, uint64_t len)
{
    if (G_LIKELY(mr->all_touched))
        return;
    uint64_t g = off >> MEM_ZERO_GRANULE_BITS;
    if (mr->touched && (off + len - 1) >> MEM_ZERO_GRANULE_BITS == g &&
        (mr->touched[g >> 3] & (1u << (g & 7))))
        return;
    mr_touch_slow(mr, off, len);
}

static inline bool mr_granule_touched(const MemoryRegion *mr, uint64_t g)
{
    return mr->all_touched || (mr->touched && (mr->touched[g >> 3] & (1u << (g & 7))));
}

#endif
