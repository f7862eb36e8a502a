/* The NC2 memory map (machine.md §1) and the SBUF/PSUM partition decode. */
#include "hw/nc2/memmap.h"

const MemMapEntry nc2_memmap[NC2_NR_REGIONS] = {
    [NC2_HBM] = {"hbm", 0x0000000000ull, 64ull << 30, 0, 1},
    [NC2_SBUF] = {"sbuf", 0x2000000000ull, 32ull << 20, 0, 1},
    [NC2_PSUM] = {"psum", 0x2802000000ull, 4ull << 20, 0, 1},
    [NC2_EVSEM] = {"evsem", 0x2802700000ull, 1ull << 20, 0, 1},
    [NC2_NX] = {"nx", 0x2803000000ull, 0x1000, 0x1000, 64},
    [NC2_DMA] = {"dma", 0x2803800000ull, 0x1000, 0x1000, 16},
    [NC2_TPC] = {"tpc", 0x2804000000ull, 0x10000, 0x10000, 64},
    [NC2_TEST] = {"test", 0x2805000000ull, 0x1000, 0, 1},
};

bool nc2_on_chip(uint64_t lo, uint64_t hi)
{
    for (unsigned r = NC2_SBUF; r <= NC2_PSUM; r++) {
        const MemMapEntry *e = &nc2_memmap[r];
        if (lo < hi && lo >= e->base && hi - e->base <= e->size)
            return true;
    }
    return false;
}

int nc2_sbuf_decode(uint64_t off, unsigned *partition, uint32_t *offset)
{
    if (off >= nc2_memmap[NC2_SBUF].size) {
        return 0;
    }
    /* [24:23] quadrant, [22:18] partition in quadrant: together off >> 18. */
    *partition = (unsigned)(off >> 18);
    *offset = (uint32_t)(off & 0x3FFFF);
    return *offset < NC2_SBUF_PART_BYTES;
}

int nc2_psum_decode(uint64_t off, unsigned *partition, uint32_t *offset, unsigned *bank)
{
    if (off >= nc2_memmap[NC2_PSUM].size) {
        return 0;
    }
    unsigned q = (unsigned)(off >> 20) & 3;
    *partition = q * 32 + ((unsigned)(off >> 15) & 31);
    *offset = (uint32_t)(off & 0x7FFF);
    *bank = *offset / NC2_PSUM_BANK_BYTES;
    return *offset < NC2_PSUM_PART_BYTES;
}
