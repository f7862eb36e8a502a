/* The NC2 system physical address map (machine.md §1), one const table as
 * hw/riscv/virt.c does it.  Every base/size in the emulator comes from here. */
#ifndef HW_NC2_MEMMAP_H
#define HW_NC2_MEMMAP_H

#include <stdbool.h>
#include <stdint.h>

enum {
    NC2_HBM,
    NC2_SBUF,
    NC2_PSUM,
    NC2_EVSEM,
    NC2_NX,   /* per-sequencer alias, stride 0x1000 */
    NC2_DMA,  /* per-engine, stride 0x1000 */
    NC2_TPC,  /* per-TPC, stride 0x10000 */
    NC2_TEST,
    NC2_NR_REGIONS
};

typedef struct MemMapEntry {
    const char *name;
    uint64_t base;
    uint64_t size;   /* whole window; per instance for strided entries */
    uint64_t stride; /* 0 = single instance */
    unsigned max;    /* instances at most */
} MemMapEntry;

extern const MemMapEntry nc2_memmap[NC2_NR_REGIONS];

#define NC2_SBUF_PARTITIONS  128
#define NC2_SBUF_PITCH       0x40000u
#define NC2_SBUF_PART_BYTES  0x30000u
#define NC2_PSUM_PARTITIONS  128
#define NC2_PSUM_PITCH       0x8000u
#define NC2_PSUM_PART_BYTES  0x4000u
#define NC2_PSUM_BANK_BYTES  0x800u
#define NC2_PSUM_BANKS       8
#define NC2_NX_BLOCK_BYTES   0x840u
#define NC2_NX_LOCAL_BASE    0x100000u /* Neuron address of the own block, window 0 */
#define NC2_NR_SEMAPHORES    256
#define NC2_NR_EVENTS        256

/* [lo, hi) lies in on-chip SRAM, the SBUF or the PSUM window, not in HBM:
 * such accesses take none of the HBM's bandwidth (docs/timing.rst "Memory
 * bandwidth").  An empty range is not on chip. */
bool nc2_on_chip(uint64_t lo, uint64_t hi);

/* SBUF/PSUM decode (§1.1, §1.2): offset within the window -> partition,
 * byte offset; returns 0 for a hole. */
int nc2_sbuf_decode(uint64_t off, unsigned *partition, uint32_t *offset);
int nc2_psum_decode(uint64_t off, unsigned *partition, uint32_t *offset, unsigned *bank);

#endif
