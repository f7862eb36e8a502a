/* Test/exit + console device (machine.md §7), modelled on QEMU's sifive_test. */
#ifndef HW_NC2_TESTDEV_H
#define HW_NC2_TESTDEV_H

#include "nxemu/memory.h"
#include "nxemu/serial.h"

typedef struct Machine Machine;

typedef struct TestDev {
    Machine *m;
    MemoryRegion mmio;
    NxSerial serial; /* where CONSOLE bytes go (board_set_serial) */
} TestDev;

void testdev_init(TestDev *td, Machine *m);
void testdev_destroy(TestDev *td);

#endif
