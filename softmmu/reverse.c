/*
 * The machine's position and the checks made while re-executing a run for
 * reverse execution (softmmu/reverse.h; the stub's side is
 * softmmu/gdbstub-reverse.c).
 *
 * scan: record, never stop at, the breakpoints and watched accesses (bc) or
 * the points at which one core began an instruction it retired (bs), and
 * stop at the first point with the current position.  go: stop at the
 * first point with the target position and actor.
 */
#include <inttypes.h>
#include <stdio.h>

#include "nxemu/board-if.h"
#include "nxemu/machine.h"
#include "softmmu/reverse.h"


uint64_t nx_rev_position(const Machine *m)
{
    uint64_t n = 0;
    for (unsigned i = 0; i < m->cfg.nr_seq; i++)
        n += m->seq[i] ? m->seq[i]->retired : 0;
    for (unsigned t = 0; m->tpc && t < m->cfg.nr_tpc; t++)
        n += m->tpc[t] ? m->tpc[t]->retired : 0;
    return n + board_dma_completed(m);
}

static void rev_stop(Machine *m, NxRev *r, bool reached)
{
    r->reached = reached;
    m->stop = true;
    if (m->stop_reason == STOP_NONE)
        m->stop_reason = STOP_DEBUG;
}

static const char *kind_name(const NxCpu *c)
{
    return c->kind == CPU_KIND_SEQ ? "seq" : "tpc";
}

bool nx_rev_core_point(Machine *m, NxCpu *cpu, uint64_t pc)
{
    NxDebug *d = m->debug;
    NxRev *r = d->rev;
    uint64_t pos = nx_rev_position(m);
    if (!r->scan) {
        if (pos > r->target || (pos == r->target && cpu == r->who)) {
            rev_stop(m, r, pos == r->target);
            return true;
        }
        return false;
    }
    if (cpu == r->step_cpu) {
        /* the instruction begun at the previous point has retired */
        if (r->have_cp && cpu->retired != r->cp_retired) {
            r->found_step = true;
            r->step_pos = r->cp_pos;
        }
        r->have_cp = true;
        r->cp_pos = pos;
        r->cp_retired = cpu->retired;
    }
    if (pos >= r->target) {
        rev_stop(m, r, true);
        return true;
    }
    if (r->want_hits) {
        for (unsigned i = 0; i < d->bps->len; i++) {
            const NxBreakpoint *b = &g_array_index(d->bps, NxBreakpoint, i);
            if (b->cpu == cpu && b->addr == pc) {
                r->found = true;
                r->hit_pos = pos;
                r->hit_who = cpu;
                r->hit = NX_HIT_BREAK;
                r->hit_owner = cpu;
                r->hit_gaddr = pc;
                r->msg[0] = 0;
            }
        }
    }
    return false;
}

/* nx_rev_core_point can stop or note nothing during the next `steps`
 * instructions of cpu in [lo, hi): cpu is not the core a reverse step
 * follows, no breakpoint of it is there when the scan looks for them, and
 * those steps end before the target position (the other cores and the
 * DMA engines do not move during cpu's slice).  The compiled blocks then
 * run between the points, as forward: a scan over a long run costs about
 * what the run cost.  Accesses to watched memory are still seen: the
 * compiled records touch registers and the pc only. */
bool nx_rev_quiet(Machine *m, NxCpu *cpu, uint64_t lo, uint64_t hi, uint64_t steps)
{
    NxDebug *d = m->debug;
    NxRev *r = d->rev;
    if (d->step_cpu == cpu || d->skip_cpu == cpu || (r->scan && r->step_cpu == cpu))
        return false;
    if (r->scan && r->want_hits) {
        for (unsigned i = 0; i < d->bps->len; i++) {
            const NxBreakpoint *b = &g_array_index(d->bps, NxBreakpoint, i);
            if (b->cpu == cpu && b->addr >= lo && b->addr < hi)
                return false;
        }
    }
    uint64_t pos = nx_rev_position(m);
    return steps < r->target && pos < r->target - steps;
}

bool nx_rev_dma_point(Machine *m, unsigned engine, int owner, uint64_t bytes)
{
    NxRev *r = m->debug->rev;
    uint64_t pos = nx_rev_position(m);
    if (!r->scan) {
        if (pos > r->target || (pos == r->target && !r->who)) {
            rev_stop(m, r, pos == r->target);
            return true;
        }
        return false;
    }
    if (pos >= r->target) {
        rev_stop(m, r, true);
        return true;
    }
    r->dma_engine = engine;
    r->dma_owner = owner;
    r->dma_bytes = bytes;
    return false;
}

void nx_rev_access(NxDebug *d, uint64_t pa, unsigned size, bool is_write)
{
    NxRev *r = d->rev;
    Machine *m = d->m;
    if (!r->scan || !r->want_hits)
        return;
    uint64_t pos = nx_rev_position(m);
    const NxWatchpoint *w = nx_debug_wp_find(d, NULL, pa, size, is_write);
    if (pos >= r->target || !w)
        return;
    NxCpu *cpu = m->sched.current; /* NULL in the DMA phase */
    r->found = true;
    r->hit_pos = pos;
    r->hit_who = cpu;
    r->hit = w->type;
    r->hit_owner = w->cpu;
    r->hit_gaddr = w->gaddr;
    const char *verb = is_write ? "writes" : "reads";
    if (cpu) {
        snprintf(r->msg, sizeof(r->msg),
                 "nxemu: reverse: %s%u at pc=0x%" PRIx64 " %s PA 0x%" PRIx64 "+%u (position %" PRIu64
                 ")\n",
                 kind_name(cpu), cpu->index, cpu->ops->get_pc(cpu), verb, pa, size, pos);
    } else if (r->dma_owner >= 0) {
        snprintf(r->msg, sizeof(r->msg),
                 "nxemu: reverse: dma%u completing a request of seq%d (%" PRIu64
                 " bytes) %s PA 0x%" PRIx64 "+%u (position %" PRIu64 ")\n",
                 r->dma_engine, r->dma_owner, r->dma_bytes, verb, pa, size, pos);
    } else {
        snprintf(r->msg, sizeof(r->msg),
                 "nxemu: reverse: dma%u completing a doorbell request (%" PRIu64
                 " bytes) %s PA 0x%" PRIx64 "+%u (position %" PRIu64 ")\n",
                 r->dma_engine, r->dma_bytes, verb, pa, size, pos);
    }
}

