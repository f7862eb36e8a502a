/*
 * The nc2 board's half of the machine (docs/architecture.rst, "Layers"):
 * the devices and memories behind Machine.board.  Only hw/, api/, tools/
 * and tests include this; softmmu/ works through nxemu/board-if.h, target/
 * through nxemu/ headers and the ports the board hands each core.
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
    NxBlock *nx; /* cfg.nr_seq */
    DmaController dma;
    TpcCfg *tpccfg; /* cfg.nr_tpc */
    TestDev test;
};

#endif
