/*
 * The viewer's time cursor (docs/viewer.rst "Time cursor"): the maps, the
 * access-count table and the hover read-out as they were at an earlier
 * vtime, in -S runs, while paused or after the end.
 *
 * The marks are counts and last times, which cannot be run backwards, so the
 * hook also appends every SBUF/PSUM/HBM access to a ring of fixed size
 * (ViewLog, VIEW_LOG_RECORDS records).  The marks at vtime T are rebuilt by
 * replaying the records with t <= T onto the marks of the records the ring
 * already overwrote (log.base).  That is exact for T >= log.floor, the
 * newest vtime folded into base; a cursor before it is clamped to it (the
 * header says so).  Only values are not recorded: the data view and the
 * hover's "= 0x..." always show memory now.
 *
 * A rebuild replays the whole ring (262144 records at most), so it happens
 * only when the cursor moves; new records while it stands are applied one
 * by one (those after the cursor change nothing).
 */
#include <string.h>

#include "hw/display/viewer-int.h"
#include "nxemu/machine.h"

void vscrub_log_init(ViewerModel *vm, size_t cap)
{
    g_free(vm->log.rec);
    g_free(vm->log.base);
    vm->log = (ViewLog){.rec = g_new(ViewLogRec, cap), .cap = cap};
    vm->at_valid = false;
}

void vscrub_destroy(ViewerModel *vm)
{
    g_free(vm->log.rec);
    g_free(vm->log.base);
    g_free(vm->at);
    vm->log = (ViewLog){0};
    vm->at = NULL;
    vm->at_valid = false;
}

static void replay(ViewerModel *vm, ViewMarkSet *s, const ViewLogRec *r)
{
    vmodel_mark(vm, s, r->addr, r->size, r->wr, r->t + 1);
}

void vscrub_log(ViewerModel *vm, uint64_t addr, unsigned size, bool is_write, uint64_t t)
{
    ViewLog *l = &vm->log;
    ViewLogRec *r = &l->rec[l->total % l->cap];
    if (l->total >= l->cap) {
        /* The oldest record leaves the ring: its marks stay in base.  base
         * is allocated once, the first time the ring is full. */
        if (!l->base) {
            l->base = g_new0(ViewMarkSet, 1);
        }
        replay(vm, l->base, r);
        l->floor = MAX(l->floor, r->t);
    }
    *r = (ViewLogRec){.t = t, .addr = addr, .size = size, .wr = is_write};
    l->total++;
}

/* A cursor before the floor cannot be rebuilt: it goes to the floor. */
static void apply_floor(ViewerModel *vm)
{
    if (vm->scrub && vm->scrub_t < vm->log.floor) {
        vm->scrub_t = vm->log.floor;
        vm->scrub_clamped = true;
    }
}

void vscrub_set(ViewerModel *vm, uint64_t t)
{
    vm->scrub = true;
    vm->scrub_clamped = false;
    vm->scrub_t = t;
    apply_floor(vm);
}

void vscrub_off(ViewerModel *vm)
{
    vm->scrub = false;
    vm->scrub_clamped = false;
}

static void rebuild(ViewerModel *vm)
{
    const ViewLog *l = &vm->log;
    uint64_t first = l->total > l->cap ? l->total - l->cap : 0;
    if (!vm->at) {
        vm->at = g_new(ViewMarkSet, 1);
    }
    if (l->base) {
        *vm->at = *l->base;
    } else {
        memset(vm->at, 0, sizeof(*vm->at));
    }
    /* vtimes are not strictly ordered across cores: look at every record */
    for (uint64_t i = first; i < l->total; i++) {
        const ViewLogRec *r = &l->rec[i % l->cap];
        if (r->t <= vm->scrub_t) {
            replay(vm, vm->at, r);
        }
    }
    vm->at_valid = true;
    vm->at_t = vm->scrub_t;
    vm->at_total = l->total;
}

const ViewMarkSet *vmodel_marks(ViewerModel *vm)
{
    const ViewLog *l = &vm->log;
    if (!vm->scrub) {
        return &vm->live;
    }
    apply_floor(vm);
    if (!vm->at_valid || vm->at_t != vm->scrub_t || l->total - vm->at_total > l->cap) {
        rebuild(vm);
    } else {
        /* Top up with the records since the last look (all still in the
         * ring: else the test above rebuilt).  That base grew meanwhile does
         * not matter: what it took in was in `at` already. */
        for (uint64_t i = vm->at_total; i < l->total; i++) {
            const ViewLogRec *r = &l->rec[i % l->cap];
            if (r->t <= vm->scrub_t) {
                replay(vm, vm->at, r);
            }
        }
        vm->at_total = l->total;
    }
    return vm->at;
}

/* The vtime one timeline column stands for (at least 1). */
static uint64_t column_vtime(ViewerModel *vm)
{
    return MAX(vtl_span(vm) / VIEW_TL_W, 1u);
}

/* Move the cursor by d (from now if it is off), within floor .. now. */
static void step(ViewerModel *vm, int64_t d)
{
    uint64_t now = machine_run_vtime(vm->m);
    uint64_t t = vm->scrub ? MIN(vm->scrub_t, now) : now;
    if (d < 0) {
        t = (uint64_t)-d > t ? 0 : t - (uint64_t)-d;
    } else {
        t = MIN(t + (uint64_t)d, now);
    }
    vscrub_set(vm, t);
}

bool vscrub_key(ViewerModel *vm, int key)
{
    int64_t big = (int64_t)MAX(vtl_span(vm) / 16, 1u);
    switch (key) {
    case '[':
        step(vm, -(int64_t)column_vtime(vm));
        return true;
    case ']':
        step(vm, (int64_t)column_vtime(vm));
        return true;
    case '{':
        step(vm, -big);
        return true;
    case '}':
        step(vm, big);
        return true;
    case VIEW_KEY_HOME:
        vscrub_set(vm, 0);
        return true;
    case VIEW_KEY_END:
        vscrub_off(vm);
        return true;
    default:
        return false;
    }
}

bool vscrub_click(ViewerModel *vm, int x, int y)
{
    /* the strip's rows and its heading line */
    if (x < VIEW_TL_BAR_X || x > VIEW_TL_BAR_X + VIEW_TL_W || y < VIEW_TL_Y - 12 ||
        y >= VIEW_TL_Y + VIEW_TL_ROWS * VIEW_TL_ROW_H) {
        return false;
    }
    /* the inverse of vtl_x, rounded up so that vtl_x(t) is x again */
    vscrub_set(vm, vtl_origin(vm) +
                       ((uint64_t)(x - VIEW_TL_BAR_X) * vtl_span(vm) + VIEW_TL_W - 1) / VIEW_TL_W);
    return true;
}
