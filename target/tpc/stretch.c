/*
 * A TPC's part in a stretch run in parallel (softmmu/sched-threads.c,
 * docs/machine.rst "Host threads"): what is kept at its start so that a
 * stretch whose TPCs raced can run again one TPC after another, and the
 * accesses the race check compares.
 */
#include "target/tpc/cpu.h"

typedef struct TpcStretch {
    TpcState st;
    /* the caches, staging and tier counters too: which path runs a bundle
     * depends on them (a bundle's first run is staged, for one), so a rerun
     * starting from warmer caches would count other tiers in --stats and
     * -d stats than the 1-thread run.  (The slots' result buffers share
     * vstore with the V registers: a commit swaps pointers.) */
    TpcExec x;
    /* the generic core's */
    CpuState state;
    uint64_t retired, slice_used, fault_pc;
    NxFault fault;
    bool watch_stop;
    /* the access log: the race detector's, or own while there is none */
    TpcRaceMark mark;
    TpcRaceLog own;
    bool own_on;
} TpcStretch;

void tpc_stretch_begin(NxCpu *cpu)
{
    TpcCpu *c = tpc_cpu(cpu);
    TpcStretch *s = c->stretch;
    if (!s)
        s = c->stretch = g_aligned_alloc0(1, sizeof(TpcStretch), 64);
    s->st = c->st;
    s->x = c->x;
    s->state = cpu->state;
    s->retired = cpu->retired;
    s->slice_used = cpu->slice_used;
    s->fault_pc = cpu->fault_pc;
    s->fault = cpu->fault;
    s->watch_stop = c->watch_stop;
    s->own_on = !c->race;
    if (s->own_on) {
        /* -tpc-race off: a log of this stretch only, never compared */
        s->own.n = 0;
        s->own.full = false;
        memset(s->own.open, 0, sizeof(s->own.open));
        c->race = &s->own;
    }
    tpc_race_mark(c->race, &s->mark);
}

bool tpc_stretch_accesses(NxCpu *cpu, void (*emit)(void *o, uint64_t lo, uint64_t hi, bool write),
                          void *o)
{
    TpcCpu *c = tpc_cpu(cpu);
    return tpc_race_since(c->race, &c->stretch->mark, emit, o);
}

void tpc_stretch_restore(NxCpu *cpu)
{
    TpcCpu *c = tpc_cpu(cpu);
    const TpcStretch *s = c->stretch;
    c->st = s->st; /* (v[] points into vstore: valid in this core) */
    /* all of TpcExec but what lives on apart from the stretch: the block
     * compiler's arena, without the bodies (they point at decode-cache
     * entries), and the host time */
    tpc_jit_forget(c);
    struct TpcJit *jit = c->x.jit;
    uint64_t host_ns = c->x.host_ns;
    c->x = s->x;
    c->x.jit = jit;
    c->x.host_ns = host_ns;
    cpu->state = s->state;
    cpu->retired = s->retired;
    cpu->slice_used = s->slice_used;
    cpu->fault_pc = s->fault_pc;
    cpu->fault = s->fault;
    c->watch_stop = s->watch_stop;
    tpc_race_back(c->race, &s->mark);
}

void tpc_stretch_end(NxCpu *cpu)
{
    TpcCpu *c = tpc_cpu(cpu);
    TpcStretch *s = c->stretch;
    if (s && s->own_on) {
        c->race = NULL;
        s->own_on = false;
    }
}

void tpc_stretch_free(TpcCpu *c)
{
    if (c->stretch)
        g_free(c->stretch->own.a);
    g_aligned_free(c->stretch);
    c->stretch = NULL;
}
