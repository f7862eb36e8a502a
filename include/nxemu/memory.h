/*
 * Memory API (softmmu/memory.c), a small cousin of QEMU's: regions form a tree
 * (RAM, ROM, MMIO, alias, container with priorities), an address space
 * flattens one tree into sorted ranges, and accesses go either through the
 * flat view (slow path: MMIO, width and alignment checks) or straight to a
 * host pointer handed out for RAM (fast path).
 *
 * Every write to guest RAM from anyone (core, DMA, loader, debugger) goes
 * through this API, so this is where decode-cache invalidation and access
 * observers (watchpoints, viewer, poison map) are hooked.
 */
#ifndef NXEMU_MEMORY_H
#define NXEMU_MEMORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum MemTxResult {
    MEMTX_OK = 0,
    MEMTX_UNMAPPED,  /* no region, or a hole */
    MEMTX_BAD_WIDTH, /* the region does not accept this access size */
    MEMTX_MISALIGNED,
    MEMTX_READONLY, /* write to ROM */
} MemTxResult;

/* Who is accessing: devices such as the NX block answer differently per core. */
typedef enum MemRequester {
    MEM_REQ_SEQ = 0, /* id = sequencer core id */
    MEM_REQ_TPC,     /* id = TPC index */
    MEM_REQ_DMA,     /* id = engine index */
    MEM_REQ_LOADER,
    MEM_REQ_DEBUG, /* gdb stub, monitor */
} MemRequester;

typedef struct MemTxAttrs {
    uint8_t kind; /* MemRequester */
    uint16_t id;
} MemTxAttrs;

#define MEMTXATTRS(k, i) ((MemTxAttrs){.kind = (k), .id = (i)})

/* Width bitmask for MemoryRegionOps.widths: bit n set = 2^n bytes accepted. */
#define MEM_W1   0x1u
#define MEM_W2   0x2u
#define MEM_W4   0x4u
#define MEM_W8   0x8u
#define MEM_W12  (MEM_W1 | MEM_W2)
#define MEM_WALL (MEM_W1 | MEM_W2 | MEM_W4 | MEM_W8)

typedef struct MemoryRegionOps {
    /* offset is relative to the region; size is 1, 2, 4 or 8 (already checked).
     * A NULL read reads 0, a NULL write is ignored (reserved/read-only space). */
    MemTxResult (*read)(void *opaque, uint64_t offset, unsigned size, uint64_t *data,
                        MemTxAttrs attrs);
    MemTxResult (*write)(void *opaque, uint64_t offset, unsigned size, uint64_t data,
                         MemTxAttrs attrs);
    uint8_t widths;    /* MEM_W* mask of accepted sizes (0 = all) */
    bool unaligned_ok; /* false: offset must be a multiple of size */
} MemoryRegionOps;

typedef enum MemoryRegionKind {
    MR_RAM,
    MR_ROM,
    MR_IO,
    MR_ALIAS,
    MR_CONTAINER,
} MemoryRegionKind;

/* Region flags (RAM and ROM only carry meaning for fetch/DMA). */
#define MR_F_FETCH 0x1u /* instruction fetch allowed */
#define MR_F_DMA   0x2u /* DMA engines may touch it ("DMA-able memory") */

typedef struct MemoryRegion MemoryRegion;

struct MemoryRegion {
    MemoryRegionKind kind;
    char *name;
    uint64_t size;
    unsigned flags; /* MR_F_* */

    /* RAM / ROM: host backing, reserved with mmap(MAP_NORESERVE) so untouched
     * pages cost nothing. */
    uint8_t *host;
    /* host belongs to someone else (mr_init_ram_ptr): mr_destroy leaves it. */
    bool host_borrowed;
    /* One bit per 4 KiB page that holds decoded instructions (see
     * as_mark_code); allocated lazily. */
    uint8_t *code_bitmap;
    /* Zero tracking (as_is_zero): one bit per MEM_ZERO_GRANULE bytes that
     * may have been written since the mapping was made or mr_ram_zero; lazy.
     * all_touched: a writable host span was handed out, so nothing is known. */
    uint8_t *touched;
    bool all_touched;

    /* MMIO */
    const MemoryRegionOps *ops;
    void *opaque;

    /* alias */
    MemoryRegion *alias;
    uint64_t alias_offset;

    /* container */
    MemoryRegion **subregions;
    unsigned nr_subregions;
    unsigned subregions_cap; /* allocated length of subregions[] */

    /* placement inside the parent container */
    MemoryRegion *parent;
    uint64_t addr;
    int priority;
};

void mr_init_ram(MemoryRegion *mr, const char *name, uint64_t size, unsigned flags);
void mr_init_rom(MemoryRegion *mr, const char *name, uint64_t size, unsigned flags);
/* RAM over host memory the caller owns and keeps until mr_destroy (which
 * does not unmap it): many regions carved out of one reservation cost one
 * mmap.  host must be page-aligned and private anonymous (mr_ram_zero uses
 * madvise on it). */
void mr_init_ram_ptr(MemoryRegion *mr, const char *name, uint64_t size, unsigned flags,
                     uint8_t *host);
void mr_init_io(MemoryRegion *mr, const char *name, uint64_t size, const MemoryRegionOps *ops,
                void *opaque);
void mr_init_alias(MemoryRegion *mr, const char *name, MemoryRegion *target, uint64_t offset,
                   uint64_t size);
void mr_init_container(MemoryRegion *mr, const char *name, uint64_t size);
/* mr_init_ram/mr_init_rom with the host reservation failure reported (kind is
 * MR_RAM or MR_ROM).  On failure the region is left with size 0, so it maps
 * nothing; mr_init_ram/mr_init_rom print the error and do the same. */
struct _GError;
bool mr_init_backed(MemoryRegion *mr, MemoryRegionKind kind, const char *name, uint64_t size,
                    unsigned flags, struct _GError **err);
/* Reset: RAM/ROM contents read as zero again and the host memory is released;
 * code marks are dropped (the caller flushes its decode caches on reset). */
void mr_ram_zero(MemoryRegion *mr);
/* Place sub at addr inside the container; where regions overlap, the higher
 * priority wins; at equal priority the one added later wins. */
void mr_add_subregion(MemoryRegion *container, uint64_t addr, MemoryRegion *sub, int priority);
/* Frees what the region owns (backing, name, subregion array) but not the
 * struct itself, nor its subregions. */
void mr_destroy(MemoryRegion *mr);

/* A terminal range of a flattened view. */
typedef struct FlatRange {
    uint64_t start;     /* first address */
    uint64_t end;       /* last address + 1; 0 with start > 0 would wrap: never used */
    MemoryRegion *mr;   /* RAM, ROM or IO region (aliases resolved) */
    uint64_t mr_offset; /* offset in mr of `start` */
} FlatRange;

typedef struct AddressSpace AddressSpace;

/* Called after a write landed on a page marked with as_mark_code, once per
 * as_write/as_rw_bytes, with the written bytes that lie on marked pages (for a
 * multi-page copy: from the first to the last such byte). */
typedef void (*CodeWriteFn)(void *opaque, uint64_t addr, uint64_t len);
/* Optional observer of every access (as_read, as_write, as_rw_bytes; for the
 * latter size is the length clamped to UINT_MAX).  While one is installed,
 * as_host_ptr returns NULL so that no access bypasses it: callers caching host
 * pointers must drop them when the hook is set. */
typedef void (*AccessHookFn)(void *opaque, uint64_t addr, unsigned size, bool is_write,
                             MemTxAttrs attrs);

AddressSpace *as_new(const char *name, MemoryRegion *root);
void as_free(AddressSpace *as);
/* Rebuild the flat view after the region tree changed. */
void as_commit(AddressSpace *as);

const FlatRange *as_lookup(AddressSpace *as, uint64_t addr);

MemTxResult as_read(AddressSpace *as, uint64_t addr, unsigned size, uint64_t *val,
                    MemTxAttrs attrs);
MemTxResult as_write(AddressSpace *as, uint64_t addr, unsigned size, uint64_t val,
                     MemTxAttrs attrs);
/* Byte-range copy for loaders, DMA and debuggers: only RAM/ROM ranges (ROM is
 * writable here for loaders: MEM_REQ_LOADER, MEM_REQ_DEBUG), fails as a whole
 * (nothing written) if any byte is not memory; *bad gets the first bad address. */
MemTxResult as_rw_bytes(AddressSpace *as, uint64_t addr, void *buf, uint64_t len, bool is_write,
                        MemTxAttrs attrs, uint64_t *bad);
/* A debugger's read (gdb, the monitor): as as_rw_bytes on RAM/ROM, and on
 * device (MR_IO) ranges through the device's read callback, with
 * MEM_REQ_DEBUG attributes, one naturally aligned access of the narrowest
 * accepted width of 4 or more per word touched (bytes outside the range
 * are read and dropped).  A device read has no side effect in nxemu, so
 * neither has this.  Fails as a whole if any byte is unmapped or a device
 * refuses the access; *bad gets the first failing address. */
MemTxResult as_debug_read(AddressSpace *as, uint64_t addr, void *buf, uint64_t len,
                          uint64_t *bad);

/* Zero tracking: RAM and ROM start out (and after mr_ram_zero read as)
 * zero without costing host memory; what anyone has written since is
 * tracked per granule.  as_is_zero: true if every byte of [addr, addr+len)
 * is RAM/ROM never written since.  as_zero_bytes: as_rw_bytes writing
 * zeros (same checks, nothing written on failure), but granules known to be
 * zero are left alone, so zeroing a large untouched range (an ELF's .bss)
 * commits no host memory.  Observers see the write (in pieces of at most
 * 1 GiB) and decode caches are invalidated as for as_rw_bytes. */
#define MEM_ZERO_GRANULE_BITS 16
bool as_is_zero(AddressSpace *as, uint64_t addr, uint64_t len);
MemTxResult as_zero_bytes(AddressSpace *as, uint64_t addr, uint64_t len, MemTxAttrs attrs,
                          uint64_t *bad);

/* Fast path: host pointer to [addr, addr+len) if the whole range is one RAM
 * (or ROM, for reads) range with the given MR_F_* flags, else NULL.  For
 * writes, NULL is also returned for pages marked as code, so the caller
 * falls back to as_write/as_rw_bytes, which invalidate. */
uint8_t *as_host_ptr(AddressSpace *as, uint64_t addr, uint64_t len, bool is_write,
                     unsigned need_flags);
/* True if every byte of [addr, addr+len) is RAM with all of `flags`. */
bool as_is_ram(AddressSpace *as, uint64_t addr, uint64_t len, unsigned flags);
/* Advice, no effect on contents: [addr, addr+len) of one RAM range will be
 * used densely (a tensor a launcher fills or a kernel writes whole), so the
 * host may back it with huge pages where it offers them (MADV_HUGEPAGE).
 * Touching such a range first then costs one page fault per 2 MiB instead
 * of one per 4 KiB.  Anything else (MMIO, several ranges, no host support)
 * is ignored. */
void as_hint_dense(AddressSpace *as, uint64_t addr, uint64_t len);
/* Also advice, no effect on contents: back [addr, addr+len) of one RAM
 * range with host memory now (MADV_POPULATE_WRITE), so that the run that
 * writes it later takes none of its page faults (first touches are slow
 * and uneven in a VM, whose host backs guest memory on demand).  Ignored
 * where the host lacks it or the range is not one RAM range. */
void as_populate(AddressSpace *as, uint64_t addr, uint64_t len);
/* A run of RAM (or ROM, for reads) around an address that callers may cache
 * as a software TLB entry: guest [lo, lo + len) is host [host, host + len),
 * for as long as *genp == gen (no new flat view, observer or code page since).
 * For writes, a region holding code pages yields the run of code-free pages
 * around the address, at most 512 (2 MiB) each way, never a code page.
 * False (len 0) where as_host_ptr would return NULL. */
typedef struct MemHostSpan {
    uint64_t lo, len;
    uint8_t *host;
    const uint64_t *genp;
    uint64_t gen;
} MemHostSpan;

bool as_host_span(AddressSpace *as, uint64_t addr, bool is_write, MemHostSpan *s);

/* Host bytes of [addr, addr + n) from a cached span, or NULL. */
static inline uint8_t *mem_span_ptr(const MemHostSpan *s, uint64_t addr, uint64_t n)
{
    if (s->len && *s->genp == s->gen && addr - s->lo < s->len && n <= s->len - (addr - s->lo))
        return s->host + (addr - s->lo);
    return NULL;
}

/* Decode-cache support: mark pages holding cached instructions; the next
 * write to such a page clears its mark and calls every hook.  A hook is
 * installed once per (fn, opaque); false when AS_MAX_CODE_HOOKS are in use. */
#define AS_MAX_CODE_HOOKS 4
/* Marks are per page of this size: a write anywhere in a marked page is
 * reported (and unmarks the whole page). */
#define MEM_CODE_PAGE_BITS 12
bool as_set_code_write_hook(AddressSpace *as, CodeWriteFn fn, void *opaque);
void as_mark_code(AddressSpace *as, uint64_t addr, uint64_t len);
/* Access observers: every as_read/as_write/as_rw_bytes calls each, in the
 * order added; while any is installed, as_host_ptr hands out nothing so no
 * access bypasses them.  Add returns false when AS_MAX_ACCESS_HOOKS are
 * installed already; remove takes the same (fn, opaque) pair, in any order. */
#define AS_MAX_ACCESS_HOOKS 8
bool as_add_access_hook(AddressSpace *as, AccessHookFn fn, void *opaque);
void as_remove_access_hook(AddressSpace *as, AccessHookFn fn, void *opaque);

/* One line per flat range into out (monitor `info mtree`). */
struct _GString;
void as_dump_flat(AddressSpace *as, struct _GString *out);

#endif
