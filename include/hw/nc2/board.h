/*
 * The nc2 board's half of the machine (docs/architecture.rst, "Layers"):
 * the devices and memories behind Machine.board.  Only hw/, softmmu/ and
 * tools/tests include this; target/ works through nxemu/ headers and the
 * ports the board hands each core.
 */
#ifndef HW_NC2_BOARD_H
#define HW_NC2_BOARD_H

#include "hw/nc2/dma.h"
#include "hw/nc2/evsem.h"
#include "hw/nc2/memmap.h"
#include "hw/nc2/nx.h"
#include "hw/nc2/testdev.h"
#include "hw/nc2/tpccfg.h"
#include "nxemu/machine.h"

struct NxBoard {
    MemoryRegion hbm;
    MemoryRegion local_ram; /* one host reservation behind all of sbuf[] and psum[] */
    MemoryRegion sbuf[NC2_SBUF_PARTITIONS];
    MemoryRegion psum[NC2_PSUM_PARTITIONS];

    EvSem evsem;
    NxBlock *nx;    /* cfg.nr_seq */
    DmaController dma;
    TpcCfg *tpccfg; /* cfg.nr_tpc */
    TestDev test;
};

/* Target entry point used by the DMA doorbell (implemented in target/seq).
 * Validate the record and build a request (machine.md §5.3).  Returns 0
 * with *req set, or the ERROR register value (kind << 16 | detail). */
uint32_t seq_dma_request_from_record(Machine *m, const uint8_t rec[64], DmaRequest **req);

#endif
