/*
 * Run events: the moments of a run (DMA requests queued, due and
 * completed, kernel launches and ends, semaphore changes, sequencer waits,
 * faults), handed to every subscriber (machine_runev_subscribe): the traces
 * (softmmu/trace.c: -trace-json, -d stats), the viewer's timeline
 * (hw/display/viewer-timeline.c) and the debugger (softmmu/gdbstub-debug.c:
 * catchpoints, and reverse execution's DMA positions).  Devices and cores
 * call no observer by name.
 *
 * They call machine_runev() under one `if (G_UNLIKELY(m->runev))` (the
 * count of subscribers), so a run without an observer pays one predictable
 * branch.  A subscriber learns what happened and when from the event alone:
 * it never reads device or core structures of hw/nc2 or target/, and
 * ignores the kinds it does not draw.
 */
#ifndef NXEMU_RUNEV_H
#define NXEMU_RUNEV_H

#include <stdbool.h>
#include <stdint.h>

typedef enum NxRunEvKind {
    NX_RUNEV_DMA_QUEUED,   /* a request was queued: unit = engine, t0 = then, owner */
    NX_RUNEV_DMA,          /* a transfer completed: unit = engine, t0 = queued, t1 = completion,
                            * bytes, owner, sem, sem_inc */
    NX_RUNEV_DMA_DUE,      /* a request is about to complete (before any byte moves): unit =
                            * engine, bytes, owner; a subscriber sets *hold to keep it at its
                            * engine's head (it completes on resume, without this event) */
    NX_RUNEV_KERNEL_BEGIN, /* unit = TPC, t0 = launch, owner = the launching sequencer (nr_seq
                            * or more: a write by no core) */
    NX_RUNEV_KERNEL_END,   /* unit = TPC, t0 = launch, t1 = launch + cycles, code = fault,
                            * bundles; before the completion semaphore moves */
    NX_RUNEV_SEM,          /* a semaphore changed: unit = its index, old -> val by op */
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
    int owner;       /* NX_RUNEV_DMA*: the issuing sequencer, -1 for a doorbell */
    uint8_t sem, sem_inc; /* NX_RUNEV_DMA: the completion's semaphore update */
    uint64_t bundles;     /* NX_RUNEV_KERNEL_END */
    uint32_t old, val;    /* NX_RUNEV_SEM */
    const char *op;       /* NX_RUNEV_SEM: "set", "add", ... (as -d sem) */
    bool *hold;           /* NX_RUNEV_DMA_DUE */
} NxRunEvent;

typedef void (*NxRunEvFn)(void *opaque, const NxRunEvent *ev);

/* Subscribers a machine holds at most (the traces, the viewer, the
 * debugger, tests). */
#define NX_RUNEV_SUBS 6

#endif
