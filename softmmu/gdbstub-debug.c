/*
 * Breakpoints and watchpoints (include/nxemu/debug.h).
 *
 * Breakpoints are checked by the cores before each instruction (a short
 * linear list: gdb rarely inserts more than a handful).  Watchpoints are
 * observed on m->as through the memory API's access hook, installed only
 * while at least one watchpoint exists, since a hook also disables the RAM
 * fast path (as_host_ptr).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include "nxemu/board-if.h"
#include "nxemu/debug.h"
#include "nxemu/log.h"
#include "nxemu/machine.h"

static void stop_machine(Machine *m)
{
    m->stop = true;
    /* a FINISHER or a fault in the same instruction keeps its reason */
    if (m->stop_reason == STOP_NONE)
        m->stop_reason = STOP_DEBUG;
}

int nx_debug_cpu_breakpoints(Machine *m, NxCpu *cpu, uint64_t *pcs, int max)
{
    NxDebug *d = m->debug;
    if (!d)
        return 0;
    /* watching memory, or re-executing for reverse execution: every point
     * counts (reverse.c) */
    if (nx_debug_watches_memory(m) || d->step_cpu == cpu || d->skip_cpu == cpu)
        return -1;
    int n = 0;
    for (unsigned i = 0; i < d->bps->len; i++) {
        const NxBreakpoint *b = &g_array_index(d->bps, NxBreakpoint, i);
        if (b->cpu != cpu)
            continue;
        if (n == max)
            return -1;
        pcs[n++] = b->addr;
    }
    return n;
}

bool nx_debug_needs_steps(Machine *m, NxCpu *cpu)
{
    uint64_t pcs[1];
    return nx_debug_cpu_breakpoints(m, cpu, pcs, 0) != 0;
}

bool nx_debug_bp_check(Machine *m, NxCpu *cpu, uint64_t pc)
{
    NxDebug *d = m->debug;
    if (G_UNLIKELY(d->rev))
        return nx_rev_core_point(m, cpu, pc);
    if (d->step_cpu == cpu && (d->step_first || cpu->retired != d->step_retired)) {
        stop_machine(m); /* the step is done: no hit recorded */
        return true;
    }
    if (d->skip_cpu == cpu) {
        d->skip_cpu = NULL;
        if (d->skip_pc == pc)
            return false;
    }
    for (unsigned i = 0; i < d->bps->len; i++) {
        const NxBreakpoint *b = &g_array_index(d->bps, NxBreakpoint, i);
        if (b->cpu == cpu && b->addr == pc) {
            if (d->hit == NX_HIT_NONE) {
                d->hit = NX_HIT_BREAK;
                d->hit_cpu = cpu;
                d->hit_addr = pc;
            }
            stop_machine(m);
            return true;
        }
    }
    return false;
}

bool nx_debug_quiet_range(Machine *m, NxCpu *cpu, uint64_t lo, uint64_t hi, uint64_t steps)
{
    NxDebug *d = m->debug;
    if (!d || !d->armed)
        return true; /* nx_debug_should_stop is false */
    if (d->rev)
        return nx_rev_quiet(m, cpu, lo, hi, steps);
    if (d->step_cpu == cpu || d->skip_cpu == cpu)
        return false;
    for (unsigned i = 0; i < d->bps->len; i++) {
        const NxBreakpoint *b = &g_array_index(d->bps, NxBreakpoint, i);
        if (b->cpu == cpu && b->addr >= lo && b->addr < hi)
            return false;
    }
    return true;
}

/* Does watchpoint w cover an access of [pa, pa+len)? */
static bool wp_hits(const NxWatchpoint *w, uint64_t pa, uint64_t len, bool is_write)
{
    uint64_t last = pa + (len ? len - 1 : 0);
    if (last < w->pa || pa > w->pa + w->len - 1)
        return false;
    return (w->type == NX_HIT_WATCH && is_write) || (w->type == NX_HIT_RWATCH && !is_write) ||
           w->type == NX_HIT_AWATCH;
}

/* First watchpoint matching an access, or NULL. */
static const NxWatchpoint *wp_match(NxDebug *d, uint64_t pa, uint64_t len, bool is_write)
{
    for (unsigned i = 0; i < d->wps->len; i++) {
        const NxWatchpoint *w = &g_array_index(d->wps, NxWatchpoint, i);
        if (wp_hits(w, pa, len, is_write))
            return w;
    }
    return NULL;
}

static void record_watch(NxDebug *d, const NxWatchpoint *w, bool precise)
{
    if (d->hit != NX_HIT_NONE)
        return;
    d->hit = w->type;
    d->hit_cpu = w->cpu;
    d->hit_addr = w->gaddr;
    d->hit_precise = precise;
    d->hit_by_set = false;
}

/* record_watch, with who accessed (when the hit is this access's). */
static void record_watch_by(NxDebug *d, const NxWatchpoint *w, bool precise, MemRequester by,
                            int id, bool is_write)
{
    if (d->hit != NX_HIT_NONE)
        return;
    record_watch(d, w, precise);
    d->hit_by_set = true;
    d->hit_by_engine = false;
    d->hit_by = (uint8_t)by;
    d->hit_by_id = id;
    d->hit_by_write = is_write;
}

/* The precise ("before the access") check only stops a core on its own
 * watchpoints: gdb reports the hit on the process that set the watchpoint,
 * removes its watchpoints and steps that process only, so another core
 * abandoned before the access would hit again at every continue.  Such an
 * access goes ahead and the access hook reports it after it happened (the
 * hook sees only the accesses the precise checks let through: a core that
 * stopped here made no access, so nothing is reported twice). */
bool nx_debug_watch_check(Machine *m, NxCpu *cpu, uint64_t pa, uint64_t len, bool is_write)
{
    NxDebug *d = m->debug;
    const NxWatchpoint *w = NULL;
    if (G_UNLIKELY(d->rev))
        return false; /* re-executing: the access hook records it */
    for (unsigned i = 0; i < d->wps->len && !w; i++) {
        const NxWatchpoint *x = &g_array_index(d->wps, NxWatchpoint, i);
        if (x->cpu == cpu && wp_hits(x, pa, len, is_write))
            w = x;
    }
    if (!w)
        return false;
    record_watch_by(d, w, true, cpu->kind == CPU_KIND_TPC ? MEM_REQ_TPC : MEM_REQ_SEQ,
                    (int)cpu->index, is_write);
    stop_machine(m);
    return true;
}

const NxWatchpoint *nx_debug_wp_find(NxDebug *d, NxCpu *cpu, uint64_t pa, uint64_t len,
                                     bool is_write)
{
    for (unsigned i = 0; i < d->wps->len; i++) {
        const NxWatchpoint *w = &g_array_index(d->wps, NxWatchpoint, i);
        if ((!cpu || w->cpu == cpu) && wp_hits(w, pa, len, is_write))
            return w;
    }
    return NULL;
}

void nx_debug_watch_stop(Machine *m, const NxWatchpoint *w, bool precise)
{
    record_watch(m->debug, w, precise);
    stop_machine(m);
}

void nx_debug_watch_stop_by(Machine *m, const NxWatchpoint *w, bool precise, MemRequester by,
                            int id, bool is_write)
{
    record_watch_by(m->debug, w, precise, by, id, is_write);
    stop_machine(m);
}

void nx_debug_catch_stop(Machine *m, NxCpu *cpu, const char *fmt, ...)
{
    NxDebug *d = m->debug;
    if (!d || (d->hit != NX_HIT_NONE && d->hit != NX_HIT_CATCH))
        return;
    /* events of the same instant are one stop: their lines add up (the
     * first names the process the stop is reported on) */
    size_t used = d->hit == NX_HIT_CATCH ? strlen(d->catch_msg) : 0;
    va_list ap;
    va_start(ap, fmt);
    g_vsnprintf(d->catch_msg + used, sizeof(d->catch_msg) - used, fmt, ap);
    va_end(ap);
    if (d->hit == NX_HIT_CATCH)
        return;
    d->hit = NX_HIT_CATCH;
    d->hit_cpu = cpu;
    stop_machine(m);
}

/* The pc of the core making an access (0 for DMA and unknown cores). */
static uint64_t accessor_pc(Machine *m, MemRequester by, int id)
{
    NxCpu *c = NULL;
    if (by == MEM_REQ_SEQ && id >= 0 && (unsigned)id < m->cfg.nr_seq)
        c = m->seq[id];
    else if (by == MEM_REQ_TPC && id >= 0 && (unsigned)id < m->cfg.nr_tpc)
        c = m->tpc[id];
    return c ? c->ops->get_pc(c) : 0;
}

static void access_hook(void *opaque, uint64_t addr, unsigned size, bool is_write, MemTxAttrs attrs)
{
    NxDebug *d = opaque;
    /* the debugger's own and the loader's accesses never trigger */
    if (attrs.kind == MEM_REQ_DEBUG || attrs.kind == MEM_REQ_LOADER)
        return;
    const NxWatchpoint *w;
    if (G_UNLIKELY(d->rev)) {
        nx_rev_access(d, addr, size, is_write);
        return;
    }
    if (G_UNLIKELY(d->quiet)) {
        /* A DMA transfer already reported before it moved: read and access
         * watchpoints are not reported again, but a write watchpoint is,
         * now with the new value.  gdb decides a write watchpoint on a
         * value change after stepping the process, and a step does not
         * advance the DMA engines: without this second report gdb would
         * see no change and never stop. */
        if (!is_write)
            return;
        w = NULL;
        for (unsigned i = 0; i < d->wps->len && !w; i++) {
            const NxWatchpoint *x = &g_array_index(d->wps, NxWatchpoint, i);
            if (x->type == NX_HIT_WATCH && wp_hits(x, addr, size, true))
                w = x;
        }
    } else {
        w = wp_match(d, addr, size, is_write);
    }
    if (w) {
        bool first = d->hit == NX_HIT_NONE;
        record_watch_by(d, w, false, (MemRequester)attrs.kind, attrs.id, is_write);
        d->hit_by_engine = attrs.kind == MEM_REQ_DMA;
        if (first)
            d->hit_by_pc = accessor_pc(d->m, (MemRequester)attrs.kind, attrs.id);
        stop_machine(d->m);
    }
}

/* The hook is installed only while watchpoints exist: any installed hook
 * turns off the memory API's host-pointer fast path. */
static void unhook(NxDebug *d)
{
    as_remove_access_hook(d->m->as, access_hook, d);
    d->hook_installed = false;
}

static void update_hook(NxDebug *d)
{
    bool want = d->wps->len != 0;
    if (want && !d->hook_installed) {
        d->hook_installed = as_add_access_hook(d->m->as, access_hook, d);
    } else if (!want && d->hook_installed) {
        unhook(d);
    }
    d->armed = d->bps->len != 0 || d->step_cpu || d->rev;
}

void nx_debug_rearm(NxDebug *d)
{
    update_hook(d);
}

void nx_debug_set_step(NxDebug *d, NxCpu *cpu)
{
    d->step_cpu = cpu;
    d->step_retired = cpu ? cpu->retired : 0;
    d->step_first = false;
    update_hook(d);
}

void nx_debug_set_step_first(NxDebug *d, NxCpu *cpu)
{
    nx_debug_set_step(d, cpu);
    d->step_first = cpu != NULL;
}

/* The debugger's run-event subscription (nxemu/runev.h): catchpoints, and
 * the DMA positions of a re-execution for reverse execution.  The devices
 * call neither by name.  The lines are those the devices printed before. */
static void debug_runev(void *opaque, const NxRunEvent *ev)
{
    NxDebug *d = opaque;
    Machine *m = d->m;
    if (m->debug != d) /* detached: the stub keeps d for the next gdb */
        return;
    switch (ev->kind) {
    case NX_RUNEV_DMA_DUE:
        /* a stop here holds the request exactly as a watchpoint does */
        if (d->rev)
            *ev->hold = nx_rev_dma_point(m, ev->unit, ev->owner, ev->bytes);
        return;
    case NX_RUNEV_DMA:
        if (d->catch_mask & NX_CATCH_DMA) {
            bool by_core = ev->owner >= 0 && (unsigned)ev->owner < m->cfg.nr_seq;
            nx_debug_catch_stop(m, by_core ? m->seq[ev->owner] : NULL,
                                "nxemu: catch: dma%u completed %" PRIu64 " bytes for %s%d at "
                                "vtime=%" PRIu64 "\n",
                                ev->unit, ev->bytes, by_core ? "seq" : "doorbell ",
                                by_core ? ev->owner : 0, ev->t1);
        }
        return;
    case NX_RUNEV_KERNEL_BEGIN:
        if (d->catch_mask & NX_CATCH_TPC_LAUNCH) {
            bool by_core = ev->owner >= 0 && (unsigned)ev->owner < m->cfg.nr_seq;
            nx_debug_catch_stop(m, m->tpc ? m->tpc[ev->unit] : NULL,
                                "nxemu: catch: tpc%u launched by %s%u at vtime=%" PRIu64 "\n",
                                ev->unit, by_core ? "seq" : "a non-core write ",
                                by_core ? (unsigned)ev->owner : 0, ev->t0);
        }
        return;
    case NX_RUNEV_KERNEL_END:
        if (d->catch_mask & NX_CATCH_TPC_END) {
            nx_debug_catch_stop(m, m->tpc ? m->tpc[ev->unit] : NULL,
                                "nxemu: catch: tpc%u kernel %s after %" PRIu64 " cycles, %" PRIu64
                                " bundles at vtime=%" PRIu64 "\n",
                                ev->unit, ev->code ? "faulted" : "ended", ev->t1 - ev->t0,
                                ev->bundles, ev->t1);
        }
        return;
    case NX_RUNEV_SEM:
        /* `catch sem N VALUE`: N became VALUE */
        if ((d->catch_mask & NX_CATCH_SEM) && ev->unit == d->catch_sem &&
            ev->val == d->catch_value) {
            nx_debug_catch_stop(m, NULL, "nxemu: catch: sem[%u] %s: %" PRIu32 " -> %" PRIu32 "\n",
                                ev->unit, ev->op, ev->old, ev->val);
        }
        return;
    case NX_RUNEV_DMA_QUEUED:
    case NX_RUNEV_WAIT_BEGIN:
    case NX_RUNEV_WAIT_END:
    case NX_RUNEV_FAULT:
        return;
    }
}

NxDebug *nx_debug_new(Machine *m)
{
    NxDebug *d = g_new0(NxDebug, 1);
    d->m = m;
    d->bps = g_array_new(FALSE, FALSE, sizeof(NxBreakpoint));
    d->wps = g_array_new(FALSE, FALSE, sizeof(NxWatchpoint));
    d->runev = machine_runev_subscribe(m, debug_runev, d);
    if (!d->runev)
        nx_warn("gdb: no run-event subscription left: catchpoints and reverse execution "
                "see no DMA, TPC or semaphore event");
    return d;
}

void nx_debug_free(NxDebug *d)
{
    if (!d)
        return;
    if (d->hook_installed)
        unhook(d);
    if (d->runev)
        machine_runev_unsubscribe(d->m, debug_runev, d);
    g_array_free(d->bps, TRUE);
    g_array_free(d->wps, TRUE);
    g_free(d);
}

bool nx_debug_bp_insert(NxDebug *d, NxCpu *cpu, uint64_t addr)
{
    for (unsigned i = 0; i < d->bps->len; i++) {
        const NxBreakpoint *b = &g_array_index(d->bps, NxBreakpoint, i);
        if (b->cpu == cpu && b->addr == addr)
            return true; /* gdb may insert twice (Z0 and Z1 at one address) */
    }
    NxBreakpoint b = {.cpu = cpu, .addr = addr};
    g_array_append_val(d->bps, b);
    update_hook(d);
    return true;
}

bool nx_debug_bp_remove(NxDebug *d, NxCpu *cpu, uint64_t addr)
{
    for (unsigned i = 0; i < d->bps->len; i++) {
        const NxBreakpoint *b = &g_array_index(d->bps, NxBreakpoint, i);
        if (b->cpu == cpu && b->addr == addr) {
            g_array_remove_index(d->bps, i);
            update_hook(d);
            return true;
        }
    }
    return false;
}

bool nx_debug_wp_insert(NxDebug *d, NxCpu *cpu, NxDebugHit type, uint64_t gaddr, uint64_t pa,
                        uint64_t len)
{
    if (!len || pa + len - 1 < pa)
        return false;
    NxWatchpoint w = {.cpu = cpu, .gaddr = gaddr, .pa = pa, .len = len, .type = type};
    g_array_append_val(d->wps, w);
    update_hook(d);
    return true;
}

bool nx_debug_wp_remove(NxDebug *d, NxCpu *cpu, NxDebugHit type, uint64_t gaddr, uint64_t len)
{
    for (unsigned i = 0; i < d->wps->len; i++) {
        const NxWatchpoint *w = &g_array_index(d->wps, NxWatchpoint, i);
        if (w->cpu == cpu && w->type == type && w->gaddr == gaddr && w->len == len) {
            g_array_remove_index(d->wps, i);
            update_hook(d);
            return true;
        }
    }
    return false;
}

void nx_debug_clear(NxDebug *d, NxCpu *cpu)
{
    for (unsigned i = d->bps->len; i-- > 0;)
        if (!cpu || g_array_index(d->bps, NxBreakpoint, i).cpu == cpu)
            g_array_remove_index(d->bps, i);
    for (unsigned i = d->wps->len; i-- > 0;)
        if (!cpu || g_array_index(d->wps, NxWatchpoint, i).cpu == cpu)
            g_array_remove_index(d->wps, i);
    if (!cpu)
        d->catch_mask = 0; /* catchpoints belong to the whole connection */
    update_hook(d);
}

void nx_debug_clear_hit(NxDebug *d)
{
    d->hit_by_set = false;
    d->hit = NX_HIT_NONE;
    d->hit_cpu = NULL;
    d->hit_addr = 0;
    d->hit_precise = false;
}

bool nx_debug_translate(Machine *m, NxCpu *cpu, uint64_t a, uint64_t *pa, uint64_t *room)
{
    return board_debug_translate(m, cpu, a, pa, room);
}
