/*
 * A TPC's part in a stretch run in parallel (softmmu/sched-threads.c,
 * docs/machine.rst "Host threads"): what is kept at its start so that a
 * stretch whose TPCs raced can run again one TPC after another, and the
 * accesses the race check compares.
 *
 * The rerun must find the TPC as the 1-thread run has it at the stretch's
 * start: its state, and the caches too, since which tier runs a bundle
 * depends on them (a bundle's first run is staged, a loop body is compiled
 * once), and --stats and -d stats count the tiers.  Most of it a stretch
 * rarely changes, so it is kept when it first changes, not at every start
 * (a stretch of a race-free kernel is a few microseconds and a barrier):
 *   - TpcState but the VLM, and the small parts of TpcExec: copied at the
 *     start (about 16 KB, the V registers' storage most of it);
 *   - the VLM: at the stretch's first VLM store (tpc_stretch_keep_vlm);
 *   - a decode-cache entry: before the stretch's first change of it
 *     (tpc_stretch_keep_entry; only the staged path changes entries);
 *   - the block compiler's bodies: their call counts at the start, the
 *     rest before its first change (jit.c tpc_jit_keep).
 * Not kept: the scalar broadcasts and the VP lane masks (TpcExec.vbcast,
 * jvpm), caches whose every image stays true to its key, and the -coverage
 * counts and breakpoints, which do not change in a stretch run in parallel
 * (an observed TPC runs none: sched-threads.c quiet).
 */
#include "target/tpc/cpu.h"

typedef struct TpcStretch {
    bool vlm_kept; /* st.vlm holds the VLM */
    bool had_jit;
    /* the decode-cache entries kept: ndc of them, entry dc_at[i] as
     * dc[i]; dc_stamp[e] == stamp: entry e is kept */
    uint32_t stamp;
    unsigned ndc;
    uint32_t dc_stamp[TPC_DCACHE_SIZE];
    uint16_t dc_at[TPC_DCACHE_SIZE];
    /* the generic core's */
    CpuState state;
    uint64_t retired, slice_used, fault_pc;
    NxFault fault;
    bool watch_stop;
    /* the access log: the race detector's, or own while there is none */
    TpcRaceMark mark;
    TpcRaceLog own;
    bool own_on;
    /* last, not cleared when made (pages a kernel without VLM stores or
     * staged bundles never touches): TpcState up to the VLM, then the VLM
     * if vlm_kept; TpcExec's small parts (exec_copy); the entries */
    TpcState st;
    TpcExec x;
    TpcDCacheEntry dc[TPC_DCACHE_SIZE];
} TpcStretch;

/* TpcExec's parts a stretch may change and the rerun reads, from `from`
 * to `to`: all but the decode cache (kept entry by entry), the broadcasts,
 * the lane masks and the coverage counts (above). */
static void exec_copy(TpcExec *to, const TpcExec *from)
{
#define SPAN(a, b)                                                                                 \
    memcpy((char *)to + offsetof(TpcExec, a), (const char *)from + offsetof(TpcExec, a),           \
           offsetof(TpcExec, b) - offsetof(TpcExec, a))
    SPAN(code_host, vbcast);
    SPAN(direct_total, cov_n);
#undef SPAN
    memcpy((char *)to + offsetof(TpcExec, nbp), (const char *)from + offsetof(TpcExec, nbp),
           sizeof(TpcExec) - offsetof(TpcExec, nbp));
}

void tpc_stretch_begin(NxCpu *cpu)
{
    TpcCpu *c = tpc_cpu(cpu);
    TpcStretch *s = c->stretch;
    if (!s) {
        s = c->stretch = g_aligned_alloc(1, sizeof(TpcStretch), 64);
        memset(s, 0, offsetof(TpcStretch, st));
    }
    memcpy(&s->st, &c->st, offsetof(TpcState, vlm));
    s->vlm_kept = false;
    exec_copy(&s->x, &c->x);
    s->had_jit = c->x.jit != NULL;
    tpc_jit_keep(c);
    if (++s->stamp == 0) {
        memset(s->dc_stamp, 0, sizeof(s->dc_stamp));
        s->stamp = 1;
    }
    s->ndc = 0;
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

void tpc_stretch_keep_entry(TpcCpu *c, unsigned e)
{
    TpcStretch *s = c->stretch;
    if (s->dc_stamp[e] == s->stamp)
        return;
    s->dc_stamp[e] = s->stamp;
    s->dc_at[s->ndc] = (uint16_t)e;
    s->dc[s->ndc++] = c->x.dcache[e];
}

void tpc_stretch_keep_vlm(TpcCpu *c)
{
    TpcStretch *s = c->stretch;
    if (s->vlm_kept)
        return;
    s->vlm_kept = true;
    memcpy(s->st.vlm, c->vlm, c->vlm_size);
}

bool tpc_stretch_accesses(NxCpu *cpu, void (*emit)(void *o, uint64_t lo, uint64_t hi, bool write),
                          void *o)
{
    TpcCpu *c = tpc_cpu(cpu);
    return tpc_race_since(c->race, &c->stretch->mark, emit, o);
}

/* The kernel's bytes: a fetch at PC reads [KERNEL_BASE + PC, +32) for PC
 * below KERNEL_SIZE, any 32-bit PC when it is 0 (docs/machine.rst). */
bool tpc_stretch_code(NxCpu *cpu, uint64_t *lo, uint64_t *hi)
{
    const TpcCpu *c = tpc_cpu(cpu);
    uint64_t span = (c->kernel_size ? c->kernel_size : (uint64_t)1 << 32) + TPC_BUNDLE;
    *lo = c->kernel_base;
    *hi = c->kernel_base + MIN(span, UINT64_MAX - c->kernel_base);
    return true;
}

void tpc_stretch_restore(NxCpu *cpu)
{
    TpcCpu *c = tpc_cpu(cpu);
    TpcStretch *s = c->stretch;
    /* (v[] points into vstore: valid in this core) */
    memcpy(&c->st, &s->st, offsetof(TpcState, vlm));
    if (s->vlm_kept)
        memcpy(c->vlm, s->st.vlm, c->vlm_size);
    /* the entries back first: the compiled bodies point at them */
    for (unsigned i = s->ndc; i-- > 0;)
        c->x.dcache[s->dc_at[i]] = s->dc[i];
    s->ndc = 0;
    /* what lives on apart from the stretch: the compiler and the host time */
    struct TpcJit *jit = c->x.jit;
    uint64_t host_ns = c->x.host_ns;
    exec_copy(&c->x, &s->x);
    c->x.jit = jit;
    c->x.host_ns = host_ns;
    tpc_jit_back(c, s->had_jit);
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
