/*
 * Zero tracking of the memory API (include/nxemu/memory.h, "Zero
 * tracking"): which granules of RAM/ROM were written since the mapping was
 * made or reset, and zeroing that writes only those.
 */
#include <string.h>

#include "softmmu/memory-int.h"

void mr_touch_slow(MemoryRegion *mr, uint64_t off, uint64_t len)
{
    uint64_t n = (mr->size >> MEM_ZERO_GRANULE_BITS) + 1;
    if (!mr->touched)
        mr->touched = g_malloc0((n + 7) / 8);
    uint64_t first = off >> MEM_ZERO_GRANULE_BITS, last = (off + len - 1) >> MEM_ZERO_GRANULE_BITS;
    for (uint64_t g = first; g <= last; g++)
        mr->touched[g >> 3] |= (uint8_t)(1u << (g & 7));
}

bool as_is_zero(AddressSpace *as, uint64_t addr, uint64_t len)
{
    uint64_t cur = addr, left = len;
    while (left) {
        const FlatRange *fr = as_find(as, cur);
        if (!fr || !mr_is_memory(fr->mr))
            return false;
        uint64_t chunk = MIN(left, fr->end - cur);
        uint64_t off = fr->mr_offset + (cur - fr->start);
        for (uint64_t g = off >> MEM_ZERO_GRANULE_BITS;
             g <= (off + chunk - 1) >> MEM_ZERO_GRANULE_BITS; g++) {
            if (mr_granule_touched(fr->mr, g))
                return false;
        }
        cur += chunk;
        left -= chunk;
    }
    return true;
}

/* Write only the 4 KiB pieces that hold a non-zero byte: reading an
 * untouched page of the anonymous mapping commits nothing, writing would. */
static void zero_nonzero_pages(uint8_t *p, uint64_t len)
{
    const uint64_t page = 1u << MEM_PAGE_BITS;
    while (len) {
        uint64_t n = MIN(len, page - ((uintptr_t)p & (page - 1)));
        if (p[0] || memcmp(p, p + 1, n - 1) != 0)
            memset(p, 0, n);
        p += n;
        len -= n;
    }
}

MemTxResult as_zero_bytes(AddressSpace *as, uint64_t addr, uint64_t len, MemTxAttrs attrs,
                          uint64_t *bad)
{
    /* The checks of as_rw_bytes: nothing is written unless all is memory. */
    MemTxResult r = as_check_memory(as, addr, len, true, attrs, bad);
    if (r != MEMTX_OK)
        return r;
    for (uint64_t done = 0; as->nr_hooks && done < len; done += 1u << 30)
        as_notify(as, addr + done, (unsigned)MIN(len - done, 1u << 30), true, attrs);

    bool code_hit = false;
    uint64_t code_lo = 0, code_hi = 0;
    uint64_t cur = addr, left = len;
    while (left) {
        const FlatRange *fr = as_find(as, cur);
        MemoryRegion *mr = fr->mr;
        uint64_t off = fr->mr_offset + (cur - fr->start);
        uint64_t chunk = MIN(left, fr->end - cur);
        const uint64_t gsize = 1ull << MEM_ZERO_GRANULE_BITS;
        for (uint64_t o = off; o < off + chunk;) {
            uint64_t g = o >> MEM_ZERO_GRANULE_BITS;
            uint64_t end = MIN((g + 1) * gsize, off + chunk);
            if (mr_granule_touched(mr, g))
                zero_nonzero_pages(mr->host + o, end - o);
            o = end;
        }
        uint64_t lo, hi;
        if (mr->code_bitmap && mr_code_clear(mr, off, chunk, &lo, &hi)) {
            if (!code_hit)
                code_lo = cur + (lo - off);
            code_hi = cur + (hi - off);
            code_hit = true;
        }
        cur += chunk;
        left -= chunk;
    }
    if (code_hit)
        as_code_notify(as, code_lo, code_hi - code_lo + 1);
    return MEMTX_OK;
}

