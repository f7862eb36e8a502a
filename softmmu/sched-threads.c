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
 * other's stores, so their results do not depend on the interleaving; a
 * stretch whose TPCs did is run again one TPC after another (run_parallel
 * below), and the race report (docs/tpc-run.rst) says so.
 *
 * A barrier costs microseconds and a 64-bundle slice about as much, so when
 * nothing but the TPCs can act in the rounds ahead (every sequencer idle or
 * blocked in a wait that only a change can satisfy, no DMA in flight), the
 * workers run up to `window` rounds at once (a stretch).  A TPC that ran past the
 * current round is "ahead": the following rounds count its slice as used
 * and only run the rest of its last, partial one.  Its effects that others
 * can see were all handed back, so the other agents still see them in
 * (round, index) order.
 *
 * With one thread (n == 1, no workers) the same stretches run here, one
 * after another in ascending index, so where each TPC stops -- after a
 * fault too -- does not depend on the thread count.
 */
#include "nxemu/threads.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include "nxemu/log.h"
#include "nxemu/machine.h"
#include "nxemu/sched.h"
#include "nxemu/worker.h"

#include "softmmu/memory-int.h"

_Thread_local NxWorkerSlice *nx_worker;

/*
 * The pool: n - 1 worker threads and the calling (main) thread, which runs
 * TPCs too.  A dispatch publishes the TPCs to run in `todo`, split into n
 * contiguous shares, one per thread (thread 0: the main thread), each with
 * its own ticket (generation, entries, end and next entry of the share),
 * then the new generation in `gen`.  Each thread claims the entries of its
 * own share with a compare-and-swap, then those left in the others'
 * (a thread that woke late or a TPC that stopped early: the work
 * balances), and counts what it finished in `done`.  A TPC thus runs on
 * the same thread round after round while the work is even, its state
 * staying in that core's cache.  The main thread waits for done, not for
 * the workers: one still asleep when the work ran out is not waited for,
 * and its late claims fail on the generation.  Waiting spins for up to
 * SPIN_NS first (a dispatch follows the last one within microseconds when
 * the rounds are short), then sleeps on a condition variable.  Everything
 * is C11 atomics and pthread mutexes and condition variables, so that
 * ThreadSanitizer (make tsan-check) sees the hand-over: the release store
 * of gen publishes todo, the tickets, the budgets and the slices; the
 * release increment of done publishes what a TPC's slice did.
 * nx_threads_run hands the same pool other jobs between rounds (the race
 * detector's sort): the entries of todo are then fn's arguments.
 */
#define SPIN_NS 50000

/* A thread's share of todo: generation << 32 | entries of todo << 16 |
 * the share's end << 8 | its next entry to claim (at most 255 TPCs). */
typedef struct Share {
    _Alignas(64) _Atomic uint64_t ticket;
} Share;

typedef struct Worker {
    NxThreads *th;
    unsigned k; /* its share */
} Worker;

/*
 * Races within a stretch run in parallel.  The TPCs' results equal those of
 * the stretch run one TPC after another in ascending index -- the 1-thread
 * run -- when no TPC read or wrote bytes another wrote in it: each read
 * what it would have read then, and the writes do not overlap.  So each
 * TPC logs its accesses of global memory (its race log, or one of its own
 * with -tpc-race off: NxCpuOps.stretch_*), every store to RAM first copies
 * its host page unless a TPC of the stretch already did (nx_undo_page:
 * each copy is taken before any store to the page in the stretch, whoever
 * stores first), and at the stretch's end the logs are compared
 * (clash).  A race puts the pages and the TPCs back as they were at its
 * start and runs the stretch again one TPC after another.  The pages are
 * copied whole rather than the stored bytes logged: a byte two TPCs store
 * has no "old value" either recorded that is sure to be the one from
 * before the stretch.
 */
#define UNDO_PAGE    ((size_t)1 << NX_UNDO_PAGE_BITS)
#define UNDO_STRIPES 16

typedef struct UndoStripe {
    _Alignas(64) pthread_mutex_t lock;
    GHashTable *pages; /* page number -> its bytes before the stretch */
    GPtrArray *spare;  /* copies of earlier stretches, to reuse */
} UndoStripe;

struct NxUndo {
    UndoStripe s[UNDO_STRIPES];
};

struct NxThreads {
    _Alignas(64) _Atomic unsigned gen;  /* the last generation published */
    _Alignas(64) _Atomic unsigned done; /* entries of todo finished */
    _Alignas(64) pthread_mutex_t lock;  /* sleepers, and the sleeps on go and fin */
    pthread_cond_t go, fin;
    unsigned sleepers; /* workers asleep on go */
    _Atomic bool quit; /* set before a generation is published */
    unsigned n;        /* threads, the main thread included */
    pthread_t *tid;    /* the n - 1 workers */
    Worker *wk;        /* their arguments */
    Share *share;      /* n: thread k's share of todo */
    unsigned *todo;    /* the TPCs the pool runs in this dispatch */
    pthread_mutex_t mem_lock;
    unsigned nr; /* TPCs */
    uint64_t q;  /* the quantum */
    NxCpu **cpu;
    NxWorkerSlice *slice;
    uint64_t *budget, *used;
    uint64_t *ahead; /* absolute cycle TPC t ran up to on a worker (0: not ahead) */
    bool *par;
    /* nx_threads_run's jobs: the entries of todo are fn(arg, entry) (NULL:
     * TPCs, run_tpc) */
    void (*fn)(void *arg, unsigned i);
    void *arg;
    NxUndo *undo;       /* with more than one thread */
    uint64_t stretches; /* run in parallel with the race check */
    uint64_t reruns;    /* of them, run again one TPC after another */
};

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ volatile("yield");
#endif
}

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Spin until done(th, arg) or SPIN_NS passed; true if done.  It yields
 * now and then: on a host with more runnable threads than cores the thread
 * waited for may be queued on this one. */
static bool spin(bool (*done)(NxThreads *, unsigned), NxThreads *th, unsigned arg)
{
    uint64_t t0 = 0;
    for (unsigned i = 1;; i++) {
        if (done(th, arg))
            return true;
        cpu_relax();
        if (i % 256 == 0) {
            sched_yield();
            uint64_t t = now_ns();
            if (!t0)
                t0 = t;
            else if (t - t0 > SPIN_NS)
                return false;
        }
    }
}

void nx_undo_page(NxWorkerSlice *w, uintptr_t page)
{
    UndoStripe *st = &w->undo->s[page % UNDO_STRIPES];
    gpointer key = (gpointer)page;
    pthread_mutex_lock(&st->lock);
    if (!g_hash_table_contains(st->pages, key)) {
        uint8_t *copy = st->spare->len
                            ? g_ptr_array_remove_index_fast(st->spare, st->spare->len - 1)
                            : g_malloc(UNDO_PAGE);
        memcpy(copy, (const void *)(page << NX_UNDO_PAGE_BITS), UNDO_PAGE);
        g_hash_table_insert(st->pages, key, copy);
    }
    pthread_mutex_unlock(&st->lock);
    w->seen[page % NX_UNDO_SEEN] = page + 1;
}

static NxUndo *undo_new(void)
{
    NxUndo *u = g_aligned_alloc0(1, sizeof(NxUndo), 64);
    for (unsigned i = 0; i < UNDO_STRIPES; i++) {
        pthread_mutex_init(&u->s[i].lock, NULL);
        u->s[i].pages = g_hash_table_new(g_direct_hash, g_direct_equal);
        u->s[i].spare = g_ptr_array_new();
    }
    return u;
}

/* Forget the stretch's copies; back: put them into RAM first (the main
 * thread, the workers idle). */
static void undo_clear(NxUndo *u, bool back)
{
    for (unsigned i = 0; i < UNDO_STRIPES; i++) {
        if (!g_hash_table_size(u->s[i].pages))
            continue;
        GHashTableIter it;
        gpointer key, copy;
        g_hash_table_iter_init(&it, u->s[i].pages);
        while (g_hash_table_iter_next(&it, &key, &copy)) {
            if (back)
                memcpy((void *)((uintptr_t)key << NX_UNDO_PAGE_BITS), copy, UNDO_PAGE);
            g_ptr_array_add(u->s[i].spare, copy);
        }
        g_hash_table_remove_all(u->s[i].pages);
    }
}

static void undo_free(NxUndo *u)
{
    if (!u)
        return;
    undo_clear(u, false);
    for (unsigned i = 0; i < UNDO_STRIPES; i++) {
        pthread_mutex_destroy(&u->s[i].lock);
        g_hash_table_destroy(u->s[i].pages);
        for (guint k = 0; k < u->s[i].spare->len; k++)
            g_free(g_ptr_array_index(u->s[i].spare, k));
        g_ptr_array_free(u->s[i].spare, TRUE);
    }
    g_aligned_free(u);
}

/* TPC t's slices of this dispatch, on the calling thread. */
static void run_tpc(NxThreads *th, unsigned t)
{
    NxCpu *cpu = th->cpu[t];
    uint64_t used = 0;
    nx_worker = &th->slice[t];
    /* reset here, not by the main thread: the line stays this thread's */
    nx_worker->retired = 0;
    nx_worker->escaped = false;
    if (nx_worker->undo) {
        /* a stretch that may be rolled back: kept by the thread that runs
         * it (one core's state, in its cache), not one after another by
         * the main thread */
        memset(nx_worker->seen, 0, sizeof(nx_worker->seen));
        nx_worker->last = 0;
        cpu->ops->stretch_begin(cpu);
    }
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
}

/* Claim and run entries of todo while generation gen lasts: share k's,
 * then the others'. */
static void drain(NxThreads *th, unsigned gen, unsigned k)
{
    for (unsigned j = 0; j < th->n; j++) {
        Share *sh = &th->share[(k + j) % th->n];
        uint64_t tk = atomic_load_explicit(&sh->ticket, memory_order_acquire);
        for (;;) {
            unsigned ntodo = (tk >> 16) & 0xff, end = (tk >> 8) & 0xff, i = tk & 0xff;
            if ((unsigned)(tk >> 32) != gen || i >= end)
                break;
            if (!atomic_compare_exchange_weak_explicit(&sh->ticket, &tk, tk + 1,
                                                       memory_order_acquire, memory_order_acquire))
                continue;
            if (th->fn)
                th->fn(th->arg, th->todo[i]);
            else
                run_tpc(th, th->todo[i]);
            if (atomic_fetch_add_explicit(&th->done, 1, memory_order_acq_rel) + 1 == ntodo) {
                pthread_mutex_lock(&th->lock);
                pthread_cond_signal(&th->fin);
                pthread_mutex_unlock(&th->lock);
                return;
            }
            tk = atomic_load_explicit(&sh->ticket, memory_order_acquire);
        }
    }
}

static bool new_gen(NxThreads *th, unsigned seen)
{
    return atomic_load_explicit(&th->gen, memory_order_acquire) != seen;
}

static void *worker(void *opaque)
{
    Worker *w = opaque;
    NxThreads *th = w->th;
    unsigned seen = 0;
    for (;;) {
        if (!spin(new_gen, th, seen)) {
            pthread_mutex_lock(&th->lock);
            th->sleepers++;
            while (!new_gen(th, seen))
                pthread_cond_wait(&th->go, &th->lock);
            th->sleepers--;
            pthread_mutex_unlock(&th->lock);
        }
        seen = atomic_load_explicit(&th->gen, memory_order_acquire);
        if (atomic_load_explicit(&th->quit, memory_order_relaxed))
            return NULL;
        drain(th, seen, w->k);
    }
}

static bool all_done(NxThreads *th, unsigned ntodo)
{
    return atomic_load_explicit(&th->done, memory_order_acquire) == ntodo;
}

/* Start a generation: todo[0, ntodo) for every thread, or quit; returns
 * the generation. */
static unsigned publish(NxThreads *th, unsigned ntodo, bool quit)
{
    unsigned gen = atomic_load_explicit(&th->gen, memory_order_relaxed) + 1;
    atomic_store_explicit(&th->done, 0, memory_order_relaxed);
    atomic_store_explicit(&th->quit, quit, memory_order_relaxed);
    for (unsigned k = 0; k < th->n; k++) {
        uint64_t lo = k * ntodo / th->n, end = (k + 1) * ntodo / th->n;
        atomic_store_explicit(&th->share[k].ticket,
                              (uint64_t)gen << 32 | (uint64_t)ntodo << 16 | end << 8 | lo,
                              memory_order_relaxed);
    }
    pthread_mutex_lock(&th->lock);
    atomic_store_explicit(&th->gen, gen, memory_order_release);
    if (th->sleepers)
        pthread_cond_broadcast(&th->go);
    pthread_mutex_unlock(&th->lock);
    return gen;
}

/* Run todo[0, ntodo) on the pool and this thread; return when all ran. */
static void dispatch(NxThreads *th, unsigned ntodo)
{
    drain(th, publish(th, ntodo, false), 0);
    if (spin(all_done, th, ntodo))
        return;
    pthread_mutex_lock(&th->lock);
    while (!all_done(th, ntodo))
        pthread_cond_wait(&th->fin, &th->lock);
    pthread_mutex_unlock(&th->lock);
}

void nx_threads_run(Machine *m, unsigned n, void (*fn)(void *arg, unsigned i), void *arg)
{
    NxThreads *th = m->threads;
    if (!th || th->n == 1 || n < 2 || n > th->nr || nx_worker) {
        for (unsigned i = 0; i < n; i++)
            fn(arg, i);
        return;
    }
    /* read by a thread only after it claimed an entry: set until all ran */
    th->fn = fn;
    th->arg = arg;
    for (unsigned i = 0; i < n; i++)
        th->todo[i] = i;
    dispatch(th, n);
    th->fn = NULL;
    th->arg = NULL;
}

unsigned nx_threads_default(const Machine *m)
{
    unsigned n = g_get_num_processors();
    unsigned nr = m->cfg.nr_tpc ? m->cfg.nr_tpc : 1;
    return MAX(1u, MIN(n, nr));
}

/* Stop and join the first `started` workers and free the pool. */
static void pool_free(NxThreads *th, unsigned started)
{
    publish(th, 0, true);
    for (unsigned i = 0; i < started; i++)
        pthread_join(th->tid[i], NULL);
    pthread_mutex_destroy(&th->lock);
    pthread_cond_destroy(&th->go);
    pthread_cond_destroy(&th->fin);
    pthread_mutex_destroy(&th->mem_lock);
    g_free(th->tid);
    g_free(th->wk);
    g_aligned_free(th->share);
    g_free(th->todo);
    g_free(th->cpu);
    g_aligned_free(th->slice);
    g_free(th->budget);
    g_free(th->used);
    g_free(th->ahead);
    g_free(th->par);
    undo_free(th->undo);
    g_aligned_free(th);
}

void nx_threads_free(Machine *m)
{
    NxThreads *th = m->threads;
    if (!th)
        return;
    pool_free(th, th->n - 1);
    m->threads = NULL;
}

void nx_threads_set(Machine *m, unsigned n)
{
    nx_threads_free(m);
    if (n == 0)
        n = nx_threads_default(m);
    if (!m->tpc || m->cfg.nr_tpc < 2)
        return;
    if (n > 1 && m->cfg.nr_tpc > 255) {
        nx_warn("-tpc-threads %u: more than 255 TPCs: the TPCs run on one thread", n);
        n = 1;
    }
    n = MAX(n, 1);
    NxThreads *th = g_aligned_alloc0(1, sizeof(NxThreads), 64);
    th->n = n;
    th->nr = m->cfg.nr_tpc;
    pthread_mutex_init(&th->lock, NULL);
    pthread_cond_init(&th->go, NULL);
    pthread_cond_init(&th->fin, NULL);
    pthread_mutex_init(&th->mem_lock, NULL);
    th->tid = g_new0(pthread_t, n - 1);
    th->wk = g_new0(Worker, n - 1);
    th->share = g_aligned_alloc0(n, sizeof(Share), 64);
    th->todo = g_new0(unsigned, th->nr);
    th->cpu = g_new0(NxCpu *, th->nr);
    th->slice = g_aligned_alloc0(th->nr, sizeof(NxWorkerSlice), 64);
    for (unsigned t = 0; t < th->nr; t++)
        th->slice[t].mem_lock = &th->mem_lock;
    th->budget = g_new0(uint64_t, th->nr);
    th->q = m->sched.quantum;
    th->used = g_new0(uint64_t, th->nr);
    th->ahead = g_new0(uint64_t, th->nr);
    th->par = g_new0(bool, th->nr);
    /* made now; they live as long as the pool */
    for (unsigned i = 0; i < n - 1; i++) {
        th->wk[i] = (Worker){th, i + 1};
        int err = pthread_create(&th->tid[i], NULL, worker, &th->wk[i]);
        if (err) {
            /* the stretches run on this thread (n == 1 below) */
            nx_warn("-tpc-threads %u: no threads (%s): the TPCs run on one", n, g_strerror(err));
            publish(th, 0, true);
            for (unsigned j = 0; j < i; j++)
                pthread_join(th->tid[j], NULL);
            atomic_store_explicit(&th->quit, false, memory_order_relaxed);
            th->n = 1;
            break;
        }
    }
    if (th->n > 1)
        th->undo = undo_new();
    m->threads = th;
}

unsigned nx_threads_count(const Machine *m)
{
    return m->threads ? m->threads->n : 1;
}

void nx_threads_stretches(const Machine *m, uint64_t *par, uint64_t *rerun)
{
    const NxThreads *th = m->threads;
    *par = th ? th->stretches : 0;
    *rerun = th ? th->reruns : 0;
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

/* The race check: per TPC, how far up its reads and its writes reach
 * among the accesses sorted so far (all starting at or below the current
 * one). */
typedef struct Acc {
    uint64_t lo, hi;
    unsigned t;
    bool write;
} Acc;

/* Per TPC, the hull of its reads ([0]) and of its writes ([1]): [lo, hi),
 * none while lo >= hi */
typedef uint64_t Hull[2][2];

typedef struct AccList {
    GArray *a;
    unsigned t;
    Hull *hull;
} AccList;

static void acc_add(void *o, uint64_t lo, uint64_t hi, bool write)
{
    AccList *l = o;
    if (lo < hi) {
        Acc x = {lo, hi, l->t, write};
        g_array_append_val(l->a, x);
        uint64_t *h = l->hull[l->t][write];
        h[0] = MIN(h[0], lo);
        h[1] = MAX(h[1], hi);
    }
}

static bool hulls_meet(const uint64_t *a, const uint64_t *b)
{
    return a[0] < a[1] && b[0] < b[1] && a[0] < b[1] && b[0] < a[1];
}

/* No TPC's writes near another's accesses, by their hulls: the common
 * race-free stretch (each TPC its own rows) needs no sort. */
static bool hulls_apart(NxThreads *th, const Hull *hull)
{
    for (unsigned t = 0; t < th->nr; t++)
        for (unsigned u = 0; u < th->nr && th->par[t]; u++)
            if (u != t && th->par[u] &&
                (hulls_meet(hull[t][1], hull[u][0]) || hulls_meet(hull[t][1], hull[u][1])))
                return false;
    return true;
}

static gint acc_cmp(gconstpointer pa, gconstpointer pb)
{
    const Acc *x = pa, *y = pb;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Did a TPC of the stretch write code another fetches (stretch_code)?
 * Fetches are not logged: the other saw the new bytes at a time that
 * depends on the host.  (A write to code the launch marked ended the
 * writer's stretch before it instead: nxemu/worker.h.) */
static bool code_written(NxThreads *th, Machine *m, const AccList *l)
{
    for (unsigned u = 0; u < th->nr; u++) {
        NxCpu *cpu = m->tpc[u];
        uint64_t code[2];
        if (!th->par[u] || !cpu->ops->stretch_code ||
            !cpu->ops->stretch_code(cpu, &code[0], &code[1]))
            continue;
        for (unsigned t = 0; t < th->nr; t++) {
            if (t == u || !th->par[t] || !hulls_meet(l->hull[t][1], code))
                continue;
            for (guint i = 0; i < l->a->len; i++) {
                const Acc *x = &g_array_index(l->a, Acc, i);
                if (x->t == t && x->write && x->lo < code[1] && code[0] < x->hi)
                    return true;
            }
        }
    }
    return false;
}

/* Did a TPC of the stretch read or write bytes another wrote in it, or
 * code another fetches (or did one not log them all)? */
static bool clash(NxThreads *th, Machine *m)
{
    AccList l = {g_array_new(FALSE, FALSE, sizeof(Acc)), 0, g_new(Hull, th->nr)};
    bool hit = false;
    for (unsigned t = 0; t < th->nr; t++)
        l.hull[t][0][0] = l.hull[t][1][0] = UINT64_MAX, l.hull[t][0][1] = l.hull[t][1][1] = 0;
    for (unsigned t = 0; t < th->nr && !hit; t++) {
        NxCpu *cpu = m->tpc[t];
        l.t = t;
        if (th->par[t] && !cpu->ops->stretch_accesses(cpu, acc_add, &l))
            hit = true;
    }
    hit = hit || code_written(th, m, &l);
    if (!hit && hulls_apart(th, l.hull))
        g_array_set_size(l.a, 0); /* nothing to sweep */
    g_free(l.hull);
    g_array_sort(l.a, acc_cmp);
    uint64_t *rd = g_new0(uint64_t, 2 * th->nr), *wr = rd + th->nr;
    for (guint i = 0; i < l.a->len && !hit; i++) {
        const Acc *x = &g_array_index(l.a, Acc, i);
        for (unsigned t = 0; t < th->nr && !hit; t++)
            hit = t != x->t && (wr[t] > x->lo || (x->write && rd[t] > x->lo));
        uint64_t *up = x->write ? &wr[x->t] : &rd[x->t];
        *up = MAX(*up, x->hi);
    }
    g_free(rd);
    g_array_free(l.a, TRUE);
    return hit;
}

/* The stretch's TPCs (th->par) on the pool; if two of them raced, again one
 * after another, as with one thread. */
static void run_parallel(NxThreads *th, Machine *m, unsigned ntodo)
{
    bool check = th->undo != NULL;
    for (unsigned t = 0; t < th->nr && check; t++)
        check = !th->par[t] || m->tpc[t]->ops->stretch_begin;
    if (check)
        for (unsigned t = 0; t < th->nr; t++)
            if (th->par[t])
                th->slice[t].undo = th->undo; /* (run_tpc: stretch_begin) */
    dispatch(th, ntodo);
    if (!check)
        return;
    th->stretches++;
    bool again = clash(th, m);
    undo_clear(th->undo, again);
    for (unsigned t = 0; t < th->nr; t++) {
        if (!th->par[t])
            continue;
        th->slice[t].undo = NULL;
        if (again)
            m->tpc[t]->ops->stretch_restore(m->tpc[t]);
    }
    if (again) {
        th->reruns++;
        for (unsigned t = 0; t < th->nr; t++)
            if (th->par[t])
                run_tpc(th, t);
    }
    for (unsigned t = 0; t < th->nr; t++)
        if (th->par[t])
            m->tpc[t]->ops->stretch_end(m->tpc[t]);
}

/*
 * A stretch of fewer rounds runs on this thread.  On the pool it costs a
 * dispatch and each TPC's stretch_begin, tens of microseconds with 8 TPCs
 * (bench/tpc-threads.sh), while a round of 8 TPCs is about 5 us of work:
 * 1-round stretches ran 13x slower on 2 threads than on one.  Such rounds
 * come while a sequencer is still running (tpc_window: 1), e.g. while the
 * launcher starts the TPCs one by one; the stretches after it, once every
 * sequencer waits, are the window's 1024 rounds.
 */
#define PAR_MIN_ROUNDS 16

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
            /* written only when they change: the workers' copies of
             * these lines stay valid from one dispatch to the next */
            if (th->cpu[t] != cpu)
                th->cpu[t] = cpu;
            if (th->budget[t] != window * q)
                th->budget[t] = window * q;
            cpu->slice_used = 0;
            npar++;
        }
    }
    if (npar && (th->n == 1 || npar == 1 || window < PAR_MIN_ROUNDS)) {
        /* one thread, one TPC (no worker to wake) or a short stretch: the
         * same stretches here, in ascending index */
        for (unsigned t = 0; t < th->nr; t++)
            if (th->par[t])
                run_tpc(th, t);
    } else if (npar) {
        unsigned k = 0;
        for (unsigned t = 0; t < th->nr; t++)
            if (th->par[t])
                th->todo[k++] = t;
        run_parallel(th, m, k);
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
