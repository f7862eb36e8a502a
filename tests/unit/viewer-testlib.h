/*
 * What the viewer's unit tests share: a small machine (64 MiB of HBM, 16 KiB
 * per HBM cell) whose memory accesses the viewer model observes, as the
 * window does.
 */
#ifndef TESTS_UNIT_VIEWER_TESTLIB_H
#define TESTS_UNIT_VIEWER_TESTLIB_H

#include <glib.h>

#include "hw/display/viewer-int.h"
#include "nxemu/machine.h"

static inline Machine *vt_machine(unsigned nr_seq, unsigned nr_dma)
{
    MachineConfig cfg = {
        .hbm_size = 64ull << 20,
        .nr_seq = nr_seq,
        .tlb_entries = 4,
        .quantum = 64,
        .nr_dma = nr_dma,
        .dma_queue_depth = 4,
        .dma_bytes_per_cycle = 64,
        .dma_latency = 32,
    };
    GError *err = NULL;
    Machine *m = machine_new(&cfg, NULL, 0, &err);
    g_assert_no_error(err);
    return m;
}

/* A model observing m's memory accesses. */
static inline ViewerModel *vt_model(Machine *m)
{
    ViewerModel *vm = g_new0(ViewerModel, 1);
    vmodel_init(vm, m);
    g_assert_true(as_add_access_hook(m->as, vmodel_access, vm));
    return vm;
}

/* Undo vt_model and vt_machine. */
static inline void vt_free(Machine *m, ViewerModel *vm)
{
    as_remove_access_hook(m->as, vmodel_access, vm);
    machine_free(m);
    vmodel_destroy(vm);
    g_free(vm);
}

#endif
