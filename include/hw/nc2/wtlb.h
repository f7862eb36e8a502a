/* The sequencer's window TLB (machine.md §2.2). */
#ifndef HW_NC2_WTLB_H
#define HW_NC2_WTLB_H

#include <stdbool.h>
#include <stdint.h>

#include "nxemu/fault.h"
#include "nxemu/log.h"
#include "nxemu/memory.h"
#include "nxemu/seq-port.h" /* NxAccess */

#define WT_V        0x1ull
#define WT_R        0x2ull
#define WT_W        0x4ull
#define WT_X        0x8ull
#define WT_RESERVED 0xFFFFF0ull

typedef struct WTlbEntry {
    bool valid;
    uint64_t window; /* tag */
    uint64_t entry;  /* the table entry as read */
    uint64_t stamp;  /* LRU: larger = more recently used */
} WTlbEntry;

typedef struct WTlb {
    WTlbEntry *e;
    unsigned n;
    unsigned last; /* slot of the last hit or fill: checked first */
    uint64_t clock;
    uint64_t hits, misses, evictions;
    NxLog *log;    /* NX_LOG_MMU sink; NULL = silent (set by nx_init) */
    unsigned core; /* owning sequencer: requester of table reads, log prefix */
} WTlb;

/* entries >= 1 (0 is taken as 1); the owner sets log and core afterwards. */
void wtlb_init(WTlb *t, unsigned entries);
void wtlb_destroy(WTlb *t);
/* Empties the TLB; statistics are kept (§2.2). */
void wtlb_flush(WTlb *t);
/* Translate Neuron address a (window >= 1, translation enabled).  Table
 * entries are read from `as` (the PA view).  On failure fills *f
 * (TRANSLATION_FAULT, PERMISSION_FAULT, BUS_ERROR) and returns false. */
bool wtlb_translate(WTlb *t, AddressSpace *as, uint64_t wt_base, uint32_t wt_len, uint64_t a,
                    NxAccess acc, uint64_t *pa, NxFault *f);

#endif
