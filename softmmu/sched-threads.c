/*
 * TPC slices on host threads (-tpc-threads N; docs/machine.rst "Host
 * threads").
 *
 * Phase 3 of a round runs the TPCs in ascending index.  With a pool, the
 * TPCs that may (NxCpuOps.worker_ok, and nothing watches single bundles)
 * run their slices at the same time, one per worker, each touching only its
 * own state and plain RAM (nxemu/worker.h): a bundle with any other effect
 * (a completion, a fault, a device access, a warning) ends the TPC's
 * worker slice before it, and the main thread then runs the rest of that
 * slice in TPC order, so everything another agent can see happens in the
 * order of a 1-thread run.  TPC kernels over disjoint data do not see each
 * other's stores, so their results do not depend on the interleaving; for
 * those that do, the race report (docs/tpc-run.rst) says so.
 *
 * A barrier costs microseconds and a 64-bundle slice about as much, so when
 * nothing but the TPCs can act in the rounds ahead (every sequencer idle or
 * blocked in a wait that only a change can satisfy, no DMA in flight), the
 * workers run up to `window` rounds at once.  A TPC that ran past the
 * current round is "ahead": the following rounds count its slice as used
 * and only run the rest of its last, partial one.  Its effects that others
 * can see were all handed back, so the other agents still see them in
 * (round, index) order.
 */
#include "nxemu/threads.h"

#include "nxemu/log.h"
#include "nxemu/machine.h"
#include "nxemu/sched.h"
#include "nxemu/worker.h"

#include "softmmu/memory-int.h"

_Thread_local NxWorkerSlice *nx_worker;

struct NxThreads {
    unsigned n;
    GThreadPool *pool;
    GMutex lock; /* pending, done */
    GCond done;
    unsigned pending;
    GMutex mem_lock;
    unsigned nr; /* TPCs */
    uint64_t q;  /* the quantum */
    NxCpu **cpu;
    NxWorkerSlice *slice;
    uint64_t *budget, *used;
    uint64_t *ahead; /* absolute cycle TPC t ran up to on a worker (0: not ahead) */
    bool *par;
};

static void worker(gpointer data, gpointer user)
{
    NxThreads *th = user;
    unsigned t = GPOINTER_TO_UINT(data) - 1;
    NxCpu *cpu = th->cpu[t];
    uint64_t used = 0;
    nx_worker = &th->slice[t];
    /* a slice per round, as on one thread: a core's own choices that
     * depend on the budget (which loops run as plans: --stats) stay the
     * same; it stops where it stopped short (an instruction handed back) */
    while (used < th->budget[t]) {
        uint64_t u = cpu->ops->run(cpu, th->q);
        used += u;
        if (u < th->q || cpu->state != CPU_RUNNING)
            break;
    }
    th->used[t] = used;
    nx_worker = NULL;
    g_mutex_lock(&th->lock);
    if (--th->pending == 0)
        g_cond_signal(&th->done);
    g_mutex_unlock(&th->lock);
}

unsigned nx_threads_default(const Machine *m)
{
    unsigned n = g_get_num_processors();
    unsigned nr = m->cfg.nr_tpc ? m->cfg.nr_tpc : 1;
    return MAX(1u, MIN(n, nr));
}

void nx_threads_free(Machine *m)
{
    NxThreads *th = m->threads;
    if (!th)
        return;
    g_thread_pool_free(th->pool, FALSE, TRUE);
    g_mutex_clear(&th->lock);
    g_cond_clear(&th->done);
    g_mutex_clear(&th->mem_lock);
    g_free(th->cpu);
    g_free(th->slice);
    g_free(th->budget);
    g_free(th->used);
    g_free(th->ahead);
    g_free(th->par);
    g_free(th);
    m->threads = NULL;
}

void nx_threads_set(Machine *m, unsigned n)
{
    nx_threads_free(m);
    if (n == 0)
        n = nx_threads_default(m);
    if (n <= 1 || !m->tpc || m->cfg.nr_tpc < 2)
        return;
    NxThreads *th = g_new0(NxThreads, 1);
    th->n = n;
    th->nr = m->cfg.nr_tpc;
    g_mutex_init(&th->lock);
    g_cond_init(&th->done);
    g_mutex_init(&th->mem_lock);
    th->cpu = g_new0(NxCpu *, th->nr);
    th->slice = g_new0(NxWorkerSlice, th->nr);
    th->budget = g_new0(uint64_t, th->nr);
    th->q = m->sched.quantum;
    th->used = g_new0(uint64_t, th->nr);
    th->ahead = g_new0(uint64_t, th->nr);
    th->par = g_new0(bool, th->nr);
    /* exclusive: the n threads are made now and live as long as the pool */
    th->pool = g_thread_pool_new(worker, th, (gint)n, TRUE, NULL);
    if (!th->pool) {
        m->threads = th;
        nx_threads_free(m);
        nx_warn("-tpc-threads %u: no threads (the TPCs run on one)", n);
        return;
    }
    m->threads = th;
}

unsigned nx_threads_count(const Machine *m)
{
    return m->threads ? m->threads->n : 1;
}

bool nx_threads_ahead(const Machine *m, unsigned t)
{
    const NxThreads *th = m->threads;
    return th && t < th->nr && th->ahead[t] > m->sched.vtime;
}

/* Nothing looks at single bundles or at memory accesses: no debugger, no
 * observer on a TPC (trace, coverage, poison or checking mode: NxCpu), no
 * memory hooks (the viewer, poison) and no per-instruction log. */
static bool quiet(const Machine *m)
{
    for (unsigned t = 0; t < m->cfg.nr_tpc; t++)
        if (nx_cpu_observed(m->tpc[t]))
            return false;
    return !m->debug && !m->as->nr_hooks &&
           !(m->log.mask & (NX_LOG_EXEC | NX_LOG_IN_ASM | NX_LOG_CPU));
}

/* The rest of TPC t's slice in this round on this thread, from `prev`
 * cycles into it. */
static void rest(Machine *m, NxCpu *cpu, uint64_t prev)
{
    Sched *s = &m->sched;
    cpu->slice_used = prev;
    if (cpu->state == CPU_RUNNING && prev < s->quantum && !m->stop) {
        s->current = cpu;
        cpu->slice_used = prev + cpu->ops->run(cpu, s->quantum - prev);
        s->current = NULL;
    }
}

bool nx_threads_tpc_phase(Machine *m, uint64_t window)
{
    NxThreads *th = m->threads;
    Sched *s = &m->sched;
    const uint64_t q = s->quantum;
    unsigned npar = 0;
    bool ok = quiet(m);
    window = MAX(window, 1);
    if (window > UINT64_MAX / q / 2)
        window = 1;
    for (unsigned t = 0; t < th->nr; t++) {
        NxCpu *cpu = m->tpc[t];
        th->par[t] = false;
        if (!cpu || cpu->state != CPU_RUNNING || cpu->debug_frozen || th->ahead[t] > s->vtime)
            continue;
        th->ahead[t] = 0;
        if (ok && cpu->ops->worker_ok && cpu->ops->worker_ok(cpu)) {
            th->par[t] = true;
            th->cpu[t] = cpu;
            th->budget[t] = window * q;
            th->slice[t] = (NxWorkerSlice){.mem_lock = &th->mem_lock};
            cpu->slice_used = 0;
            npar++;
        }
    }
    if (npar == 1) {
        for (unsigned t = 0; t < th->nr; t++)
            th->par[t] = false; /* one TPC: no worker to wake */
        npar = 0;
    }
    if (npar) {
        th->pending = npar;
        for (unsigned t = 0; t < th->nr; t++)
            if (th->par[t])
                g_thread_pool_push(th->pool, GUINT_TO_POINTER(t + 1), NULL);
        g_mutex_lock(&th->lock);
        while (th->pending)
            g_cond_wait(&th->done, &th->lock);
        g_mutex_unlock(&th->lock);
    }
    /* In ascending index: what the workers did, then what only this thread
     * may do, as a 1-thread round runs them. */
    for (unsigned t = 0; t < th->nr; t++) {
        NxCpu *cpu = m->tpc[t];
        if (th->par[t]) {
            uint64_t used = th->used[t];
            s->round_retired += th->slice[t].retired;
            if (used >= q) {
                cpu->slice_used = q;
                if (used > q)
                    th->ahead[t] = s->vtime + used;
            } else {
                rest(m, cpu, used);
            }
        } else if (cpu && th->ahead[t] > s->vtime) {
            uint64_t prev = th->ahead[t] - s->vtime;
            if (prev >= q) {
                cpu->slice_used = q;
                s->round_retired++; /* it ran in this round */
            } else {
                th->ahead[t] = 0;
                rest(m, cpu, prev);
            }
        } else if (cpu && cpu->state == CPU_RUNNING && !cpu->debug_frozen) {
            rest(m, cpu, 0);
        } else {
            continue;
        }
        s->round_used = MAX(s->round_used, cpu->slice_used);
        if (m->stop) {
            s->next = t;
            return false;
        }
    }
    return true;
}
