/*
 * Machine fixture shared by the TPC tests that drive a TPC directly
 * (tests/tpc/run-kernel.c, tests/unit/test-tpc-fast*.c): one sequencer, one
 * TPC, 64 MiB HBM, and 32-bit pokes through the debugger's view.
 */
#ifndef TESTS_TPC_TPC_TESTLIB_H
#define TESTS_TPC_TPC_TESTLIB_H

#include <stdint.h>

#include "nxemu/machine.h"

#define TPC0  0x2804000000ull /* TPC 0's machine window (configuration space) */
#define KBASE 0x100000ull     /* where the tests put the kernel */
#define DBG   MEMTXATTRS(MEM_REQ_DEBUG, 0)

Machine *tt_machine(void);
void tt_wr32(Machine *m, uint64_t pa, uint32_t v);
uint32_t tt_rd32(Machine *m, uint64_t pa);
/* Write a kernel's text at KBASE, as the loader does, and set TPC 0's
 * KERNEL_BASE and kernel size to it. */
void tt_load_kernel(Machine *m, uint8_t *text, uint32_t len);

#endif
