/*
 * The deterministic round scheduler (machine.md §8) and the run's end
 * (§9.2 statuses, §9.3 diagnostics).
 *
 * A round: sequencers in ascending id with a budget of Q cycles each, then
 * the DMA engines advance Q cycles, then the running TPCs get Q cycles, then
 * the end-of-round checks in their fixed order.  Everything here depends
 * only on machine state, never on host time, so runs are reproducible.
 */
#include <inttypes.h>

#include "nxemu/log.h"
#include "nxemu/sched.h"
#include "nxemu/signal.h"
#include "nxemu/threads.h"

void sched_init(Machine *m, uint64_t quantum)
{
    Sched *s = &m->sched;
    *s = (Sched){0};
    s->quantum = quantum ? quantum : 1;
    /* 1024 rounds at most per sched_rounds call: a signal is seen within
     * ~65k instructions at the default quantum */
    s->slice_rounds = 1024;
    const char *env = g_getenv("NXEMU_SLICE_ROUNDS");
    if (env && *env) {
        guint64 n = g_ascii_strtoull(env, NULL, 0);
        s->slice_rounds = n ? MIN(n, 1024) : 1;
    }
}

static bool tpc_running(const Machine *m)
{
    for (unsigned t = 0; m->tpc && t < m->cfg.nr_tpc; t++) {
        if (m->tpc[t] && m->tpc[t]->state == CPU_RUNNING) {
            return true;
        }
    }
    return false;
}

/* Requests in flight on the DMA engines (Machine.agent, nxemu/agent.h). */
static unsigned dma_queued(const Machine *m)
{
    return nx_agent_pending(&m->agent);
}

static void icount_check(Sched *s, uint64_t vtime)
{
    if (s->has_icount_limit && !s->icount_reached && s->icount >= s->icount_limit) {
        s->icount_reached = true;
        s->limit_vtime = vtime;
    }
}

/*
 * When no core can make progress on its own (none RUNNING, no TPC running),
 * only a DMA completion can change anything: skip the rounds before the one
 * in which the next completion happens.  Nothing observable differs: blocked
 * cores would only re-attempt a wait that cannot be satisfied, the engines
 * just consume budget, and the cycle limit is never jumped over.  That holds
 * only after a round in which nothing happened: a completion, a TPC change
 * or a retired instruction in the last round may have satisfied a wait,
 * whose core must re-attempt it in this round (machine.md §8).
 */
static void fast_forward(Machine *m)
{
    Sched *s = &m->sched;
    uint64_t q = s->quantum, next, k;
    if (m->stop) {
        return;
    }
    if (s->round_dma_completed || s->round_tpc_changed || s->round_retired) {
        return; /* the last round changed state: blocked cores re-check first */
    }
    /* Cheapest test first: in the common case a core is running. */
    for (unsigned i = 0; i < m->cfg.nr_seq; i++) {
        if (m->seq[i] && m->seq[i]->state == CPU_RUNNING) {
            return;
        }
    }
    if (tpc_running(m) || !dma_queued(m)) {
        return;
    }
    next = m->agent.next_event(m->agent.opaque);
    if (next == UINT64_MAX || next <= q) {
        return;
    }
    k = (next - 1) / q; /* whole rounds that end before the completion */
    if (s->has_cycle_limit) {
        /* The first round whose new T reaches the limit must really run. */
        uint64_t left = s->cycle_limit > s->vtime ? s->cycle_limit - s->vtime : 0;
        uint64_t j = left ? (left + q - 1) / q : 1;
        k = MIN(k, j - 1);
    }
    if (k == 0) {
        return;
    }
    uint64_t last_done;
    m->agent.advance(m->agent.opaque, k * q, &last_done);
    s->vtime += k * q;
}

/* The machine stopped inside the round, `used` cycles after its start. */
static StopReason stopped(Machine *m, uint64_t used)
{
    if (m->stop_reason == STOP_NONE) {
        /* m->stop without a reason: treat as a debugger stop request. */
        m->stop_reason = STOP_DEBUG;
    }
    m->sched.end_vtime = m->sched.vtime + used;
    return m->stop_reason;
}

static StopReason ended(Machine *m, StopReason r, uint64_t end_vtime)
{
    m->stop_reason = r;
    m->sched.end_vtime = end_vtime;
    return r;
}

/*
 * Sequencer i is blocked in a wait on semaphores or events or in a DRAIN
 * (not on a full DMA queue, whose retries build the request again, reading
 * memory) and nothing its wait reads changed since it last tried: its
 * retries fail until something does, and a retry that fails changes
 * nothing, so they may be left out.  What it reads are semaphore and event
 * values, its own registers and its count of outstanding work; all changes
 * to them count in sched.changes (sched_note_change), and its wait_mark is
 * that count after its last slice.  Only when nobody watches attempts: the
 * debugger, a trace (stall counts), -d exec, cpu and debug (a line per
 * attempt); and not in the reference mode NXEMU_SLICE_ROUNDS=1, which runs
 * every round as machine.md §8 writes it.
 */
static bool blocked_waiting(const Machine *m, unsigned i)
{
    const NxCpu *c = m->seq[i];
    if (!c->ops->blocked_on_values) {
        return false; /* not the board's sequencers (unit tests' fake cores) */
    }
    return c->state == CPU_BLOCKED && !c->debug_frozen && c->wait_mark == m->sched.changes &&
           c->ops->blocked_on_values((NxCpu *)c) && !m->debug && !c->trace &&
           !(m->log.mask & (NX_LOG_EXEC | NX_LOG_CPU | NX_LOG_DEBUG_CMD)) &&
           m->sched.slice_rounds > 1;
}

/*
 * The rounds a solo slice may cover from here (0: run a normal round): a
 * lone RUNNING sequencer, the other sequencers idle or blocked in waits
 * (blocked_waiting: the slice then ends with the round of any change their
 * waits may see, sched_note_change), no TPC running, nothing that looks at
 * the machine per round or per instruction, and never past the round that
 * reaches the cycle limit.
 *
 * DMA requests may be in flight: until one completes, an engine's progress
 * is invisible (a request moves its bytes, updates its semaphore and events
 * and leaves the queue only at completion; STATUS, COMPLETED and BYTES
 * change only then), so the engines may lag behind the core and catch up
 * after the slice (solo_slice).  The slice then ends no later than the
 * round of the next completion, which must come after the core's part of
 * that round as it does in a normal round.  A request the core queues
 * wakes the scheduler (sched_note_wake): the slice ends with that round.
 */
static uint64_t solo_rounds(Machine *m, uint64_t max_rounds, NxCpu **only, bool *watch)
{
    Sched *s = &m->sched;
    NxCpu *cpu = NULL;
    if (max_rounds < 2 || m->debug || (m->log.mask & (NX_LOG_EXEC | NX_LOG_CPU))) {
        return 0;
    }
    *watch = false;
    for (unsigned i = 0; i < m->cfg.nr_seq; i++) {
        NxCpu *c = m->seq[i];
        if (c->trace) {
            return 0; /* observed per instruction */
        }
        if (!sched_seq_active(c)) {
            continue;
        }
        if (c->state == CPU_RUNNING) {
            if (cpu) {
                return 0;
            }
            cpu = c;
        } else if (blocked_waiting(m, i)) {
            *watch = true;
        } else {
            return 0;
        }
    }
    if (!cpu || tpc_running(m)) {
        return 0;
    }
    uint64_t k = max_rounds;
    if (dma_queued(m)) {
        /* cycles to the next completion at the earliest (an engine that
         * waits for a request's issue time only finishes later) */
        uint64_t next = m->agent.next_event(m->agent.opaque);
        if (next == 0 || next == UINT64_MAX) {
            return 0;
        }
        k = MIN(k, (next - 1) / s->quantum + 1); /* rounds up to the completion's */
    }
    if (s->has_cycle_limit) {
        /* the round whose end reaches the limit is the slice's last */
        uint64_t left = s->cycle_limit > s->vtime ? s->cycle_limit - s->vtime : 0;
        k = MIN(k, left ? (left + s->quantum - 1) / s->quantum : 1);
    }
    if (k < 2 || k > UINT64_MAX / s->quantum) {
        return 0;
    }
    *only = cpu;
    return k;
}

/*
 * Phase 1 of up to k rounds as one slice of the lone sequencer.  Afterwards
 * the machine is where the last of those rounds would have left it after its
 * phase 1: T advanced over the rounds before it, the DMA engines advanced
 * over those rounds (no request completes in them: solo_rounds), the core's
 * slice_used and the round's retirement counted within it.  That round is
 * the one of the last cycle used, except after a block: a wait attempted at
 * a round's start belongs to that round, with nothing retired in it.  One
 * sequencer instruction takes one cycle, so cycles are instructions.
 */
static void solo_slice(Machine *m, NxCpu *cpu, uint64_t k, bool watch)
{
    Sched *s = &m->sched;
    const uint64_t q = s->quantum;
    uint64_t icount_before = s->icount, before = s->round_retired;
    s->current = cpu;
    s->solo = true;
    s->solo_wakes = s->wakes;
    s->solo_watch = watch;
    cpu->slice_used = 0;
    uint64_t used = cpu->ops->run(cpu, k * q);
    s->solo = false;
    s->solo_watch = false;
    cpu->wait_mark = s->changes;
    s->current = NULL;
    s->icount = icount_before + (s->round_retired - before);
    uint64_t last = cpu->state == CPU_BLOCKED ? used / q : (used ? (used - 1) / q : 0);
    if (last && dma_queued(m)) {
        /* the engines' phase 2 of the rounds before the last: requests the
         * core queued in its last round wait for their issue time */
        uint64_t last_done;
        unsigned done = m->agent.advance(m->agent.opaque, last * q, &last_done);
        g_assert(done == 0);
    }
    s->vtime += last * q;
    cpu->slice_used = used - last * q;
    s->round_retired = cpu->slice_used;
    icount_check(s, s->vtime + cpu->slice_used);
    s->round_used = MAX(s->round_used, cpu->slice_used);
}

/*
 * The rounds the TPCs may run ahead on worker threads from this round's
 * phase 3 (softmmu/sched-threads.c): nothing but TPCs can act in them --
 * every sequencer idle or blocked in a wait only a change can satisfy
 * (blocked_waiting), no DMA in flight -- and never past the round that
 * reaches the cycle limit.  1: this round only.
 */
static uint64_t tpc_window(Machine *m)
{
    Sched *s = &m->sched;
    uint64_t k = s->slice_rounds;
    if (k < 2 || dma_queued(m) || s->has_icount_limit) {
        return 1;
    }
    for (unsigned i = 0; i < m->cfg.nr_seq; i++) {
        if (sched_seq_active(m->seq[i]) && !blocked_waiting(m, i)) {
            return 1;
        }
    }
    if (s->has_cycle_limit) {
        uint64_t left = s->cycle_limit > s->vtime ? s->cycle_limit - s->vtime : 0;
        k = MIN(k, left ? (left + s->quantum - 1) / s->quantum : 1);
    }
    return MAX(k, 1);
}

enum SchedPhase { SCHED_PH_SEQ = 0, SCHED_PH_DMA, SCHED_PH_TPC, SCHED_PH_END };

/* A core still able to run that the debugger holds. */
static bool frozen_live(const Machine *m)
{
    for (unsigned i = 0; i < m->cfg.nr_seq; i++)
        if (m->seq[i] && m->seq[i]->debug_frozen && sched_seq_active(m->seq[i]))
            return true;
    for (unsigned t = 0; m->tpc && t < m->cfg.nr_tpc; t++)
        if (m->tpc[t] && m->tpc[t]->debug_frozen && m->tpc[t]->state == CPU_RUNNING)
            return true;
    return false;
}

/* One slice of cpu, or the rest of it when the round's debugger stop came
 * inside it (resume_slice): cpu->slice_used then already holds what the
 * slice used before the stop. */
static void run_slice(Machine *m, NxCpu *cpu, uint64_t budget)
{
    Sched *s = &m->sched;
    uint64_t prev = s->resume_slice ? cpu->slice_used : 0;
    s->resume_slice = false;
    budget = budget > prev ? budget - prev : 0;
    s->current = cpu;
    cpu->slice_used = prev;
    cpu->slice_used = prev + cpu->ops->run(cpu, budget);
    s->current = NULL;
}

StopReason sched_round(Machine *m)
{
    return sched_rounds(m, 1);
}

/*
 * The round is a little state machine (Sched.phase, .next) so that a
 * debugger stop inside a slice (a breakpoint, a watchpoint) does not end
 * the round: sched_round returns, the debugger looks and steps
 * (sched_step), and the next sched_round goes on from the same core with
 * what is left of its budget, then the rest of the round.  Without a
 * debugger a round always runs from start to end in one call.
 */
StopReason sched_rounds(Machine *m, uint64_t max_rounds)
{
    Sched *s = &m->sched;
    const uint64_t q = s->quantum;
    bool blocked = false;
    NxCpu *only = NULL;
    uint64_t solo;
    bool watch;

    if (m->stop_reason != STOP_NONE) {
        return m->stop_reason;
    }
    if (!s->in_round) {
        if (G_UNLIKELY(nx_signal_caught)) {
            /* Between rounds every core is at an instruction boundary. */
            m->stop_signal = nx_signal_caught;
            return ended(m, STOP_SIGNAL, s->vtime);
        }
        fast_forward(m);
        s->round_retired = 0;
        s->round_dma_completed = 0;
        s->round_tpc_changed = 0;
        s->round_used = 0;
        s->round_seq_retired = 0;
        icount_check(s, s->vtime); /* -icount-limit 0: nothing executes */
        s->in_round = true;
        s->phase = SCHED_PH_SEQ;
        s->next = 0;
        s->resume_slice = false;
        /* 1. (start) After a solo slice, the cores after it in id order
         * still run in its last round: one it started there would have.
         * Never with a debugger, so never inside an interrupted round. */
        if (!s->icount_reached && (solo = solo_rounds(m, max_rounds, &only, &watch))) {
            solo_slice(m, only, solo, watch);
            s->round_seq_retired = s->round_retired;
            if (m->stop) {
                return stopped(m, only->slice_used);
            }
            s->next = only->index + 1;
        }
    }

    /* 1. Sequencers in ascending core id. */
    if (s->phase == SCHED_PH_SEQ) {
        for (; s->next < m->cfg.nr_seq && !s->icount_reached; s->next++) {
            NxCpu *cpu = m->seq[s->next];
            uint64_t budget = q, before, icount_before = s->icount;
            if (!sched_seq_active(cpu) || cpu->debug_frozen) {
                s->resume_slice = false;
                continue;
            }
            if (cpu->state == CPU_BLOCKED && !s->resume_slice && blocked_waiting(m, s->next)) {
                /* its retry would fail and change nothing: no slice */
                cpu->slice_used = 0;
                continue;
            }
            if (s->has_icount_limit) {
                uint64_t prev = s->resume_slice ? cpu->slice_used : 0;
                budget = MIN(budget, prev + (s->icount_limit - s->icount));
            }
            /* Count from the round's retirement counter, not cpu->retired: a
             * core that resets itself (CONTROL.RESET) zeroes its RETIRED. */
            before = s->round_retired;
            run_slice(m, cpu, budget);
            cpu->wait_mark = s->changes;
            s->round_seq_retired += s->round_retired - before;
            s->icount = icount_before + (s->round_retired - before);
            icount_check(s, s->vtime + cpu->slice_used);
            s->round_used = MAX(s->round_used, cpu->slice_used);
            if (m->stop) {
                /* FINISHER or fault: the run ends at once (machine.md §7,
                 * §9.1); a debugger stop is continued from this slice. */
                s->resume_slice = true;
                return stopped(m, cpu->slice_used);
            }
        }
        s->phase = SCHED_PH_DMA;
    }

    /* 2. DMA engines (idle engines have nothing to advance).  A debugger
     * stop here (a DMA watchpoint) comes after every engine advanced. */
    if (s->phase == SCHED_PH_DMA) {
        s->phase = SCHED_PH_TPC;
        s->next = 0;
        s->resume_slice = false;
        if (dma_queued(m)) {
            uint64_t last_done;
            s->round_dma_completed += m->agent.advance(m->agent.opaque, q, &last_done);
            s->round_used = MAX(s->round_used, last_done);
            if (m->stop) {
                return stopped(m, last_done);
            }
        }
    }

    /* 3. TPCs in ascending index (on worker threads: sched-threads.c). */
    if (s->phase == SCHED_PH_TPC && m->threads && !m->debug) {
        s->phase = SCHED_PH_END;
        if (!nx_threads_tpc_phase(m, tpc_window(m))) {
            return stopped(m, m->tpc[s->next]->slice_used);
        }
    }
    if (s->phase == SCHED_PH_TPC) {
        for (; m->tpc && s->next < m->cfg.nr_tpc; s->next++) {
            NxCpu *cpu = m->tpc[s->next];
            if (!cpu || cpu->state != CPU_RUNNING || cpu->debug_frozen) {
                s->resume_slice = false;
                continue;
            }
            run_slice(m, cpu, q);
            s->round_used = MAX(s->round_used, cpu->slice_used);
            if (m->stop) {
                s->resume_slice = true;
                return stopped(m, cpu->slice_used);
            }
        }
        s->phase = SCHED_PH_END;
    }

    /* 4. End-of-round checks, in order. */
    s->in_round = false;
    bool active = false;
    for (unsigned i = 0; i < m->cfg.nr_seq; i++) {
        active |= sched_seq_active(m->seq[i]);
        blocked |= m->seq[i] && m->seq[i]->state == CPU_BLOCKED;
    }
    /* The DMA and TPC queries only matter for the end and deadlock tests. */
    const uint64_t retired = s->round_seq_retired;
    bool idle_round = retired == 0 && s->round_retired == 0 && blocked;
    unsigned queued = 0;
    bool tpc_run = false;
    if (!active || idle_round) {
        queued = dma_queued(m);
        tpc_run = tpc_running(m);
    }
    if (!active && !queued && !tpc_run) {
        m->exit_status = 0;
        /* the last core or engine finished round_used cycles into the round */
        return ended(m, STOP_NORMAL_END, s->vtime + s->round_used);
    }
    if (retired == 0 && s->round_retired == 0 && blocked && !queued && !tpc_run &&
        s->round_dma_completed == 0 && s->round_tpc_changed == 0 && !frozen_live(m)) {
        return ended(m, STOP_DEADLOCK, s->vtime); /* reported with vtime before T += Q */
    }
    if (s->icount_reached) {
        return ended(m, STOP_LIMIT, s->limit_vtime);
    }
    s->vtime += q;
    if (s->has_cycle_limit && s->vtime >= s->cycle_limit) {
        return ended(m, STOP_LIMIT, s->vtime);
    }
    return STOP_NONE;
}

/* Is cpu the core whose slice a debugger stop interrupted? */
static bool step_same_slice(const Machine *m, const NxCpu *cpu)
{
    const Sched *s = &m->sched;
    return s->in_round && s->resume_slice &&
           ((s->phase == SCHED_PH_SEQ && cpu->kind == CPU_KIND_SEQ) ||
            (s->phase == SCHED_PH_TPC && cpu->kind == CPU_KIND_TPC)) &&
           cpu->index == s->next;
}

bool sched_step_in_slice(const Machine *m, const NxCpu *cpu)
{
    /* a step past the end of the slice cannot be part of it */
    return step_same_slice(m, cpu) && cpu->slice_used < m->sched.quantum;
}

uint64_t sched_step(Machine *m, NxCpu *cpu)
{
    Sched *s = &m->sched;
    bool same = step_same_slice(m, cpu);
    bool in_slice = sched_step_in_slice(m, cpu);
    uint64_t retired = s->round_retired, icount = s->icount, saved = cpu->slice_used;
    uint64_t prev = in_slice ? saved : 0;
    s->current = cpu;
    cpu->slice_used = prev;
    uint64_t used = cpu->ops->run(cpu, 1);
    cpu->slice_used = prev + used;
    s->current = NULL;
    if (cpu->kind == CPU_KIND_SEQ) {
        s->icount = icount + (s->round_retired - retired);
        if (in_slice)
            s->round_seq_retired += s->round_retired - retired;
    }
    if (in_slice)
        s->round_used = MAX(s->round_used, cpu->slice_used);
    else if (same)
        cpu->slice_used = saved; /* the interrupted slice keeps its count */
    return used;
}

int sched_exit_status(Machine *m)
{
    switch (m->stop_reason) {
    case STOP_FINISHER:
        return m->exit_status;
    case STOP_FAULT: {
        NxCpu *cpu = m->fault_cpu;
        int sig = cpu && cpu->ops->fault_signal ? cpu->ops->fault_signal(cpu)
                                                : nx_fault_signal(cpu ? cpu->fault.code : 0);
        return 128 + sig;
    }
    case STOP_SIGNAL:
        return 128 + m->stop_signal;
    case STOP_DEADLOCK:
        return 124;
    case STOP_LIMIT:
        return 123;
    case STOP_NONE:
    case STOP_NORMAL_END:
    case STOP_DEBUG:
    default:
        return 0;
    }
}

/* "nxemu:   core=N pc=... state=..." for every sequencer that started. */
static void report_seqs(Machine *m, GString *out)
{
    for (unsigned i = 0; i < m->cfg.nr_seq; i++) {
        NxCpu *cpu = m->seq[i];
        if (!cpu || cpu->state == CPU_RESET) {
            continue;
        }
        /* a wait satisfied since the core blocked is not a wait: the core
         * is ready and retries it at its next slice */
        bool cleared = cpu->state == CPU_BLOCKED && cpu->ops->block_cleared &&
                       cpu->ops->block_cleared(cpu);
        g_string_append_printf(out, "nxemu:   core=%u pc=0x%016" PRIx64 " state=%s", i,
                               cpu->ops->get_pc(cpu), cleared ? "READY" : cpu_state_name(cpu->state));
        if (cpu->state == CPU_BLOCKED && cpu->ops->block_info) {
            g_string_append(out, cleared ? " retries " : " ");
            cpu->ops->block_info(cpu, out);
            if (cleared)
                g_string_append(out, " (holds now)");
        }
        g_string_append_c(out, '\n');
    }
}

/* "nxemu:   tpc=N pc=... state=RUNNING" for every TPC running a kernel. */
static void report_tpcs(Machine *m, GString *out)
{
    for (unsigned t = 0; m->tpc && t < m->cfg.nr_tpc; t++) {
        NxCpu *cpu = m->tpc[t];
        if (cpu && cpu->state == CPU_RUNNING) {
            g_string_append_printf(out, "nxemu:   tpc=%u pc=0x%08" PRIx64 " state=%s\n", t,
                                   cpu->ops->get_pc(cpu), cpu_state_name(cpu->state));
        }
    }
}

/* "nxemu:   at pc=...: <disassembly>" after a fault line: the instruction
 * or bundle at the fault PC, on one line (a bundle printed as raw words has
 * its two lines joined by a blank); nothing when it cannot be read. */
static void fault_at_line(NxCpu *cpu, GString *out)
{
    GString *d;
    if (!cpu->ops->disas) {
        return;
    }
    d = g_string_new(NULL);
    if (cpu->ops->disas(cpu, cpu->fault_pc, d)) {
        for (gsize i = 0; i < d->len; i++) {
            if (d->str[i] == '\n') {
                d->str[i] = ' ';
            }
        }
        g_string_append_printf(out, "nxemu:   at pc=0x%0*" PRIx64 ": %s\n",
                               cpu->kind == CPU_KIND_TPC ? 8 : 16, cpu->fault_pc, d->str);
    }
    g_string_free(d, TRUE);
}

void sched_report(Machine *m, GString *out)
{
    const Sched *s = &m->sched;
    switch (m->stop_reason) {
    case STOP_FINISHER:
        /* A FAIL says so on stderr like every other unsuccessful end, so a
         * log shows why the status is not 0 (PASS stays silent). */
        if (m->exit_status != 0) {
            g_string_append_printf(out,
                                   "nxemu: fail: code=%d (test device FINISHER) icount=%" PRIu64
                                   " vtime=%" PRIu64 "\n",
                                   m->exit_status, s->icount, s->end_vtime);
        }
        break;
    case STOP_FAULT:
        if (m->fault_cpu && m->fault_cpu->ops->fault_line) {
            m->fault_cpu->ops->fault_line(m->fault_cpu, out);
            g_string_append_c(out, '\n');
            fault_at_line(m->fault_cpu, out);
        } else {
            g_string_append(out, "nxemu: fault\n");
        }
        break;
    case STOP_DEADLOCK:
        g_string_append_printf(out, "nxemu: deadlock: vtime=%" PRIu64 "\n", s->vtime);
        report_seqs(m, out);
        break;
    case STOP_SIGNAL:
        /* where the run was, as for a limit (a runner's timeout shows it) */
        g_string_append_printf(out,
                               "nxemu: terminating on signal %d (%s): icount=%" PRIu64
                               " vtime=%" PRIu64 "\n",
                               m->stop_signal, nx_signal_name(m->stop_signal), s->icount,
                               s->end_vtime);
        report_seqs(m, out);
        report_tpcs(m, out);
        break;
    case STOP_LIMIT:
        g_string_append_printf(out, "nxemu: limit: icount=%" PRIu64 " vtime=%" PRIu64 "\n",
                               s->icount, s->icount_reached ? s->limit_vtime : s->vtime);
        /* where everything was: the deadlock block's lines, and the TPCs
         * still running a kernel */
        report_seqs(m, out);
        report_tpcs(m, out);
        break;
    default:
        break;
    }
}

int sched_run_report(Machine *m, GString *report)
{
    while (sched_rounds(m, m->sched.slice_rounds) == STOP_NONE) {
    }
    fflush(stdout); /* guest console bytes first, then the diagnostic */
    sched_report(m, report);
    sched_log_end(m);
    return sched_exit_status(m);
}

int sched_run(Machine *m)
{
    GString *out = g_string_new(NULL);
    int rc = sched_run_report(m, out);
    fputs(out->str, stderr);
    g_string_free(out, TRUE);
    return rc;
}

const char *stop_reason_name(StopReason r)
{
    static const char *const names[] = {"NONE",  "NORMAL_END", "FINISHER", "FAULT", "DEADLOCK",
                                        "LIMIT", "DEBUG",      "SIGNAL"};
    return (unsigned)r < G_N_ELEMENTS(names) ? names[r] : "?";
}

void sched_log_end(Machine *m)
{
    nx_log_mask(&m->log, NX_LOG_MACHINE,
                "machine: run ended: reason=%s status=%d icount=%" PRIu64 " vtime=%" PRIu64 "\n",
                stop_reason_name(m->stop_reason), sched_exit_status(m), m->sched.icount,
                m->sched.end_vtime);
}
