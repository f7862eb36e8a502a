/*
 * What the scheduler sees of the devices that act with time apart from the
 * cores (the board's DMA engines): phase 2 of every round advances them, and
 * the shortcuts of softmmu/sched.c (fast-forward, solo slices) ask when
 * they next complete something.  The board fills Machine.agent (dma_init in
 * hw/nc2/dma.c), so the scheduler needs no board header
 * (docs/architecture.rst, "Layers").
 */
#ifndef NXEMU_AGENT_H
#define NXEMU_AGENT_H

#include <stdint.h>

#include <glib.h>

typedef struct NxAgent {
    /* Work in flight (requests queued on any engine).  Read every round,
     * so a pointer to the count, not a call; NULL: no agent. */
    const unsigned *pending;
    /* Advance q cycles, applying completions in order; returns how many
     * completed and sets *last_done to the cycles into q at which the last
     * of them happened (0: none). */
    unsigned (*advance)(void *opaque, uint64_t q, uint64_t *last_done);
    /* Cycles until the earliest completion if nothing adds work
     * (UINT64_MAX: none). */
    uint64_t (*next_event)(const void *opaque);
    /* The -d stats lines of the engines (docs/tracing.rst). */
    void (*stats)(const void *opaque, GString *out);
    void *opaque;
} NxAgent;

static inline unsigned nx_agent_pending(const NxAgent *a)
{
    return a->pending ? *a->pending : 0;
}

#endif
