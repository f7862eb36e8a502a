/*
 * Run events: the moments -trace-json draws (softmmu/trace.c), offered to
 * one more observer, the viewer's timeline (hw/display/viewer-timeline.c).
 *
 * The devices and cores that call the trace hooks call machine_runev() at
 * the same points, under one `if (G_UNLIKELY(m->runev))`, so a run without
 * an observer pays one predictable branch.  The observer learns what
 * happened and when from the event alone: it never reads device or core
 * structures of hw/nc2 or target/.
 */
#ifndef NXEMU_RUNEV_H
#define NXEMU_RUNEV_H

#include <stdbool.h>
#include <stdint.h>

typedef enum NxRunEvKind {
    NX_RUNEV_DMA,          /* a transfer completed: unit = engine, t0 = queued, t1 = completion */
    NX_RUNEV_KERNEL_BEGIN, /* unit = TPC, t0 = launch */
    NX_RUNEV_KERNEL_END,   /* unit = TPC, t0 = launch, t1 = launch + cycles, code = fault */
    NX_RUNEV_WAIT_BEGIN,   /* unit = sequencer, t0: its first blocked attempt */
    NX_RUNEV_WAIT_END,     /* unit = sequencer, t0: the attempt that retired */
    NX_RUNEV_FAULT,        /* unit = core (tpc says which kind), t0, code = fault */
} NxRunEvKind;

typedef struct NxRunEvent {
    NxRunEvKind kind;
    unsigned unit;
    bool tpc;        /* NX_RUNEV_FAULT: unit is a TPC (else a sequencer) */
    uint64_t t0, t1; /* virtual times */
    uint64_t bytes;  /* NX_RUNEV_DMA */
    uint32_t code;   /* fault code (0: none) */
} NxRunEvent;

typedef void (*NxRunEvFn)(void *opaque, const NxRunEvent *ev);

#endif
