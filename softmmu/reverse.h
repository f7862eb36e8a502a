/*
 * Re-execution towards a position (softmmu/reverse.c), for the gdb stub's
 * reverse execution (softmmu/gdbstub-reverse.c).  While NxDebug.rev points
 * at an NxRev the cores' and the DMA engines' debugger checks come here
 * (include/nxemu/debug.h: nx_rev_*) instead of stopping at breakpoints and
 * watchpoints.  Kept apart from the stub so that a program linking the
 * devices and the debugger checks does not pull in the stub and its
 * transport.
 */
#ifndef SOFTMMU_REVERSE_H
#define SOFTMMU_REVERSE_H

#include "nxemu/debug.h"

typedef struct NxRev {
    bool scan;       /* phase 1; else phase 2 (go to the target) */
    uint64_t target; /* scan: stop there; go: the target position */
    NxCpu *who;      /* go: the core acting at the target (NULL: a DMA request) */
    bool reached;
    /* scan for bs: the points at which step_cpu began an instruction */
    NxCpu *step_cpu;
    bool have_cp, found_step;
    uint64_t cp_pos, cp_retired, step_pos;
    /* scan for bc: the latest breakpoint or watched access */
    bool want_hits, found;
    uint64_t hit_pos;
    NxCpu *hit_who; /* NULL: a DMA request */
    NxDebugHit hit;
    NxCpu *hit_owner; /* the process whose breakpoint/watchpoint it is */
    uint64_t hit_gaddr;
    char msg[256];
    /* the DMA request about to complete (scan), for the message */
    unsigned dma_engine;
    int dma_owner;
    uint64_t dma_bytes;
} NxRev;

#endif
