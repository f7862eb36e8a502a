/*
 * Guest fault records (machine.md §9).  A fault is a value handed up the call
 * chain, never a longjmp or an abort: the scheduler decides what happens next.
 */
#ifndef NXEMU_FAULT_H
#define NXEMU_FAULT_H

#include <stdbool.h>
#include <stdint.h>

typedef enum NxFaultCode {
    NX_FAULT_NONE = 0,
    NX_FAULT_INVALID_OPCODE = 1,
    NX_FAULT_INVALID_INSTRUCTION = 2,
    NX_FAULT_PSEUDO_UNLOWERED = 3,
    NX_FAULT_MISALIGNED = 4,
    NX_FAULT_WINDOW_CROSSING = 5,
    NX_FAULT_TRANSLATION_FAULT = 6,
    NX_FAULT_PERMISSION_FAULT = 7,
    NX_FAULT_BUS_ERROR = 8,
    NX_FAULT_DMA_ERROR = 9,
} NxFaultCode;

/* DMA_ERROR info values (machine.md §5.1). */
enum { NX_DMA_BAD_ADDRESS = 1, NX_DMA_OVERLAP = 2, NX_DMA_DUP_INDEX = 3 };

typedef struct NxFault {
    uint32_t code; /* NxFaultCode for sequencers; tpc.md §6.6 codes for TPCs */
    uint32_t info; /* predicate id, DMA error, pseudo opcode | sub-op << 8, ... */
    uint64_t addr; /* FAULT_ADDR */
} NxFault;

static inline bool nx_fault_set(NxFault *f, uint32_t code, uint32_t info, uint64_t addr)
{
    f->code = code;
    f->info = info;
    f->addr = addr;
    return false; /* lets handlers write `return nx_fault_set(...)` */
}

/* "BUS_ERROR" etc.; "UNKNOWN" for codes outside the table. */
const char *nx_fault_name(uint32_t code);
/* Host signal number a debugger sees (SIGILL, SIGBUS, SIGSEGV). */
int nx_fault_signal(uint32_t code);

#endif
