/*
 * Trace hooks and the commit log (`-d commit`); see include/nxemu/trace.h
 * for the hook contract and docs/tracing.rst for the line format.
 *
 * Nothing here is on a hot path unless tracing is on: the cores test
 * their own NxCpu.trace once per instruction.  With tracing on, what an instruction did
 * is found by comparing the core's architectural state before and after it,
 * so the cores need no per-result instrumentation and cannot forget one.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "nxemu/board-if.h"
#include "nxemu/error.h"
#include "nxemu/file-io.h"
#include "softmmu/trace-int.h"

bool trace_wanted(const NxTraceOptions *o)
{
    return o->commit || o->stats || o->timeline || o->coverage;
}

static void trace_meta(NxTrace *t)
{
    static const struct {
        int pid;
        const char *name;
    } procs[] = {{TL_PID_SEQ, "sequencers"},
                 {TL_PID_TPC, "TPCs"},
                 {TL_PID_DMA, "DMA engines"},
                 {TL_PID_SEM, "semaphores"}};
    GString *g = g_string_new(NULL);
    for (unsigned i = 0; i < G_N_ELEMENTS(procs); i++) {
        g_string_printf(g, "\"name\":\"%s\"", procs[i].name);
        fprintf(t->tl,
                "%s{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":0,\"args\":{%s}}",
                t->tl_first ? "\n" : ",\n", procs[i].pid, g->str);
        t->tl_first = false;
        fprintf(t->tl,
                ",\n{\"name\":\"process_sort_index\",\"ph\":\"M\",\"pid\":%d,\"tid\":0,"
                "\"args\":{\"sort_index\":%d}}",
                procs[i].pid, procs[i].pid);
    }
    for (unsigned i = 0; i < t->nr_seq; i++)
        fprintf(t->tl,
                ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":%u,"
                "\"args\":{\"name\":\"seq%u\"}}",
                TL_PID_SEQ, i, i);
    for (unsigned i = 0; i < t->nr_tpc; i++)
        fprintf(t->tl,
                ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":%u,"
                "\"args\":{\"name\":\"tpc%u\"}}",
                TL_PID_TPC, i, i);
    for (unsigned i = 0; i < t->nr_dma; i++)
        fprintf(t->tl,
                ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":%u,"
                "\"args\":{\"name\":\"dma%u\"}}",
                TL_PID_DMA, i, i);
    g_string_free(g, TRUE);
}

static void trace_runev(void *opaque, const NxRunEvent *ev);

NxTrace *trace_new(Machine *m, const NxTraceOptions *o, GError **err)
{
    NxTrace *t = g_new0(NxTrace, 1);
    t->m = m;
    t->commit = o->commit;
    t->stats = o->stats;
    t->timeline_path = g_strdup(o->timeline);
    t->coverage_path = g_strdup(o->coverage);
    t->line = g_string_new(NULL);
    t->nr_seq = m->cfg.nr_seq;
    t->nr_tpc = m->tpc ? m->cfg.nr_tpc : 0;
    t->nr_dma = board_nr_dma(m);
    t->seq = g_new0(TraceCpu, t->nr_seq ? t->nr_seq : 1);
    t->tpc = g_new0(TraceCpu, t->nr_tpc ? t->nr_tpc : 1);
    for (unsigned i = 0; i < t->nr_seq; i++) {
        t->seq[i].cpu = m->seq ? m->seq[i] : NULL;
        if (t->commit && t->seq[i].cpu)
            t->seq[i].snap = g_malloc0(t->seq[i].cpu->ops->trace->snap_size);
    }
    for (unsigned i = 0; i < t->nr_tpc; i++) {
        t->tpc[i].cpu = m->tpc[i];
        if (t->commit)
            t->tpc[i].snap = g_malloc0(t->tpc[i].cpu->ops->trace->snap_size);
    }
    t->mem = g_array_new(FALSE, FALSE, sizeof(TraceMemWrite));
    t->sems = board_sem_view(m);
    memcpy(t->sem, t->sems.sem, sizeof(t->sem));
    memcpy(t->evt, t->sems.evt, sizeof(t->evt));
    t->sem_changes = *t->sems.changes;
    t->dma_push = g_new0(GQueue *, t->nr_dma ? t->nr_dma : 1);
    t->dma_last_end = g_new0(uint64_t, t->nr_dma ? t->nr_dma : 1);
    for (unsigned i = 0; i < t->nr_dma; i++)
        t->dma_push[i] = g_queue_new();
    if (o->coverage) {
        g_autofree char *txt = g_strconcat(o->coverage, ".txt", NULL);
        t->cov = cov_new(m);
        t->cov_out = nx_output_open("-coverage", o->coverage, err);
        t->cov_txt_out = t->cov_out ? nx_output_open("-coverage", txt, err) : NULL;
        if (!t->cov_txt_out) {
            trace_free(t);
            return NULL;
        }
    }
    if (o->timeline) {
        if (!tl_open(t, o->timeline, err)) {
            trace_free(t);
            return NULL;
        }
        trace_meta(t);
    }
    if (!machine_runev_subscribe(m, trace_runev, t)) {
        g_set_error(err, NX_ERROR, NX_ERROR_USAGE, "trace: too many run-event observers");
        trace_free(t);
        return NULL;
    }
    t->subscribed = true;
    for (unsigned i = 0; i < t->nr_seq; i++)
        if (t->seq[i].cpu)
            t->seq[i].cpu->trace = t;
    for (unsigned i = 0; i < t->nr_tpc; i++)
        t->tpc[i].cpu->trace = t;
    return t;
}

static void trace_access(void *opaque, uint64_t addr, unsigned size, bool is_write,
                         MemTxAttrs attrs);
static void trace_runev(void *opaque, const NxRunEvent *ev);

/* The executions the cores counted but did not hand over yet
 * (trace_insn_count), before the coverage is reported. */
static void cov_collect(NxTrace *t)
{
    for (unsigned i = 0; t->cov && i < t->nr_seq + t->nr_tpc; i++) {
        NxCpu *cpu = i < t->nr_seq ? t->seq[i].cpu : t->tpc[i - t->nr_seq].cpu;
        if (cpu && cpu->trace == t && cpu->ops->trace->flush_counts)
            cpu->ops->trace->flush_counts(cpu);
    }
}

void trace_free(NxTrace *t)
{
    if (!t)
        return;
    cov_collect(t); /* (none left behind for another trace) */
    for (unsigned i = 0; i < t->nr_seq; i++)
        if (t->seq[i].cpu && t->seq[i].cpu->trace == t)
            t->seq[i].cpu->trace = NULL;
    for (unsigned i = 0; i < t->nr_tpc; i++)
        if (t->tpc[i].cpu && t->tpc[i].cpu->trace == t)
            t->tpc[i].cpu->trace = NULL;
    if (t->subscribed)
        machine_runev_unsubscribe(t->m, trace_runev, t);
    if (t->hooked && t->m) {
        as_remove_access_hook(t->m->as, trace_access, t);
        t->hooked = false;
    }
    tl_discard(t);
    nx_output_discard(t->cov_out);
    nx_output_discard(t->cov_txt_out);
    for (unsigned i = 0; i < t->nr_seq; i++)
        g_free(t->seq[i].snap);
    for (unsigned i = 0; i < t->nr_tpc; i++)
        g_free(t->tpc[i].snap);
    for (unsigned i = 0; i < t->nr_dma; i++)
        g_queue_free_full(t->dma_push[i], g_free);
    g_free(t->dma_push);
    g_free(t->dma_last_end);
    g_free(t->seq);
    g_free(t->tpc);
    g_array_free(t->mem, TRUE);
    g_string_free(t->line, TRUE);
    if (t->cov)
        cov_free(t->cov);
    g_free(t->timeline_path);
    g_free(t->coverage_path);
    g_free(t);
}

void trace_set_commit_output(NxTrace *t, GString *out)
{
    t->commit_out = out;
}

static TraceCpu *trace_cpu(NxTrace *t, NxCpu *cpu)
{
    if (cpu->kind == CPU_KIND_SEQ)
        return cpu->index < t->nr_seq ? &t->seq[cpu->index] : NULL;
    return cpu->index < t->nr_tpc ? &t->tpc[cpu->index] : NULL;
}

/* ---- memory written by an instruction ------------------------------------ */

static void trace_access(void *opaque, uint64_t addr, unsigned size, bool is_write,
                         MemTxAttrs attrs)
{
    NxTrace *t = opaque;
    if (t->reading_back)
        return;
    if (is_write && attrs.kind != MEM_REQ_DEBUG && attrs.kind != MEM_REQ_LOADER) {
        TraceMemWrite w = {addr, size};
        g_array_append_val(t->mem, w);
    }
}

/* The hook is installed only while an instruction executes: an installed
 * hook turns off the memory API's host-pointer fast path. */
static void trace_hook(NxTrace *t)
{
    if (t->hooked)
        return;
    t->hooked = as_add_access_hook(t->m->as, trace_access, t);
}

static void trace_unhook(NxTrace *t)
{
    if (!t->hooked)
        return;
    as_remove_access_hook(t->m->as, trace_access, t);
    t->hooked = false;
    g_array_set_size(t->mem, 0);
}

void trace_hex(GString *g, const uint8_t *p, size_t n)
{
    static const char hx[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        g_string_append_c(g, hx[p[i] >> 4]);
        g_string_append_c(g, hx[p[i] & 15]);
    }
}

/* " ; mem[A]=V": the value read back after the instruction (RAM/ROM only:
 * reading a device register could have side effects, so those show "io"). */
static void commit_mem(NxTrace *t, GString *g)
{
    for (unsigned i = 0; i < t->mem->len; i++) {
        const TraceMemWrite *w = &g_array_index(t->mem, TraceMemWrite, i);
        const FlatRange *fr = as_lookup(t->m->as, w->addr);
        bool ram = fr && (fr->mr->kind == MR_RAM || fr->mr->kind == MR_ROM) &&
                   w->size <= fr->end - w->addr;
        if (!ram) {
            g_string_append_printf(g, " ; io[0x%016" PRIx64 "]/%u", w->addr, w->size);
            continue;
        }
        uint8_t buf[256];
        unsigned n = MIN(w->size, (unsigned)sizeof(buf));
        uint64_t bad;
        t->reading_back = true;
        as_rw_bytes(t->m->as, w->addr, buf, n, false, MEMTXATTRS(MEM_REQ_DEBUG, 0), &bad);
        t->reading_back = false;
        if (n == 1 || n == 2 || n == 4 || n == 8) {
            uint64_t v = 0;
            for (unsigned k = n; k-- > 0;)
                v = v << 8 | buf[k];
            g_string_append_printf(g, " ; mem[0x%016" PRIx64 "]=0x%0*" PRIx64, w->addr, 2 * n, v);
        } else {
            g_string_append_printf(g, " ; mem[0x%016" PRIx64 "]/%u=", w->addr, w->size);
            trace_hex(g, buf, n);
        }
    }
}

/* " ; sem[i]=v ; evt[j]=b" for what changed since the shadow copy. */
static void commit_sem(NxTrace *t, GString *g)
{
    const NxSemView *es = &t->sems;
    if (*es->changes == t->sem_changes)
        return;
    for (unsigned i = 0; i < SEQ_NR_SEMAPHORES; i++)
        if (es->sem[i] != t->sem[i])
            g_string_append_printf(g, " ; sem[%u]=%" PRIu32, i, es->sem[i]);
    for (unsigned i = 0; i < SEQ_NR_EVENTS; i++)
        if (es->evt[i] != t->evt[i])
            g_string_append_printf(g, " ; evt[%u]=%u", i, es->evt[i]);
}

/* Take the shadow copy again; on the timeline, every value that changed
 * becomes a counter sample at `at`. */
static void sem_resync(NxTrace *t, uint64_t at)
{
    const NxSemView *es = &t->sems;
    char name[16];
    if (*es->changes == t->sem_changes)
        return;
    if (t->tl) {
        for (unsigned i = 0; i < SEQ_NR_SEMAPHORES; i++)
            if (es->sem[i] != t->sem[i]) {
                g_snprintf(name, sizeof(name), "sem[%u]", i);
                tl_counter(t, TL_PID_SEM, name, at, es->sem[i]);
            }
        for (unsigned i = 0; i < SEQ_NR_EVENTS; i++)
            if (es->evt[i] != t->evt[i]) {
                g_snprintf(name, sizeof(name), "evt[%u]", i);
                tl_counter(t, TL_PID_SEM, name, at, es->evt[i]);
            }
    }
    memcpy(t->sem, es->sem, sizeof(t->sem));
    memcpy(t->evt, es->evt, sizeof(t->evt));
    t->sem_changes = *es->changes;
}

/* ---- per-ISA state snapshots: the core's NxCpuTraceOps ------------------ */

static void snap_before(NxTrace *t, TraceCpu *tc)
{
    if (tc->snap)
        tc->cpu->ops->trace->snap(tc->cpu, tc->snap, tc->bytes);
}

/* ---- the commit line ------------------------------------------------------ */

static void commit_line(NxTrace *t, TraceCpu *tc, bool faulted)
{
    NxCpu *cpu = tc->cpu;
    const NxCpuTraceOps *to = cpu->ops->trace;
    GString *g = t->line;

    g_string_truncate(g, 0);
    g_string_append_printf(g, "%c %s%u 0x%0*" PRIx64 " ", faulted ? 'F' : 'C', cpu->ops->arch,
                           cpu->index, (int)to->pc_digits, tc->pc);
    trace_hex(g, tc->bytes, tc->len);
    g_string_append_c(g, ' ');
    if (tc->len == to->insn_len)
        to->disas(tc->bytes, tc->pc, g);
    if (faulted) {
        const NxFault *f = &cpu->fault;
        g_string_append_printf(g, " ; fault=%s(%" PRIu32 ") info=0x%" PRIx32 " addr=0x%016" PRIx64,
                               to->fault_name(f->code), f->code, f->info, f->addr);
    } else {
        if (tc->snap)
            to->changed(cpu, tc->snap, g);
        commit_mem(t, g);
        commit_sem(t, g);
    }
    g_string_append_c(g, '\n');
    if (t->commit_out)
        g_string_append_len(t->commit_out, g->str, (gssize)g->len);
    else
        fputs(g->str, t->m->log.file ? t->m->log.file : stderr);
}

/* ---- timeline pieces that belong to the instruction stream -------------- */

static void tl_insn(NxTrace *t, TraceCpu *tc)
{
    GString *a = g_string_new(NULL);
    GString *d = g_string_new(NULL);
    tc->cpu->ops->trace->disas(tc->bytes, tc->pc, d);
    g_string_append_printf(a, "\"pc\":\"0x%016" PRIx64 "\",\"insn\":", tc->pc);
    tl_json_str(a, d->str);
    /* the span is named by the mnemonic with its suffixes ("bne.u32") */
    const char *sp = strchr(d->str, ' ');
    if (sp)
        g_string_truncate(d, (gsize)(sp - d->str));
    tl_span(t, TL_PID_SEQ, tc->cpu->index, d->len ? d->str : "insn", tc->t, 1, a->str);
    g_string_free(a, TRUE);
    g_string_free(d, TRUE);
}

static void wait_end(NxTrace *t, TraceCpu *tc, uint64_t now)
{
    if (!tc->waiting)
        return;
    tc->waiting = false;
    uint64_t dur = now > tc->wait_start ? now - tc->wait_start : 0;
    tc->stall_cycles[tc->wait_reason & 3] += dur;
    if (t->tl) {
        GString *n = g_string_new("blocked ");
        g_string_append(n, tc->wait_what);
        tl_span(t, TL_PID_SEQ, tc->cpu->index, n->str, tc->wait_start, dur, NULL);
        g_string_free(n, TRUE);
    }
}

/* A blocked attempt: the first one opens a stall (sequencers only block). */
static void wait_begin(NxTrace *t, TraceCpu *tc)
{
    const NxCpuTraceOps *to = tc->cpu->ops->trace;
    unsigned reason, idx;
    bool evt;
    if (tc->waiting || !to->wait || !to->wait(tc->cpu, &reason, &evt, &idx))
        return;
    GString *g = g_string_new(NULL);
    tc->waiting = true;
    tc->wait_start = tc->t;
    tc->wait_reason = reason;
    tc->stalls[reason]++;
    if (tc->cpu->ops->block_info)
        tc->cpu->ops->block_info(tc->cpu, g);
    /* drop the " current=N" tail: the name must not change with the value */
    char *cur = strstr(g->str, " current=");
    if (cur)
        g_string_truncate(g, (gsize)(cur - g->str));
    g_strlcpy(tc->wait_what, g->str, sizeof(tc->wait_what));
    g_string_free(g, TRUE);
    if (reason == NX_BLOCK_WAIT) {
        if (evt)
            t->evt_waits[idx]++;
        else
            t->sem_waits[idx]++;
    }
}

/* ---- hooks ----------------------------------------------------------------- */

static void trace_close(NxTrace *t, TraceCpu *tc)
{
    NxCpu *cpu = tc->cpu;
    tc->pending = false;
    bool faulted = cpu->state == CPU_FAULTED;
    bool retired = !faulted && (cpu->kind == CPU_KIND_TPC || cpu->retired != tc->retired_before);

    if (!faulted && !retired) {
        /* blocked; anything else (a debugger stop before it ran) is no stall */
        if (cpu->state == CPU_BLOCKED)
            wait_begin(t, tc);
        trace_unhook(t);
        return;
    }
    wait_end(t, tc, tc->t);
    if (t->commit)
        commit_line(t, tc, faulted);
    if (t->tl && cpu->kind == CPU_KIND_SEQ && retired)
        tl_insn(t, tc);
    if (t->cov)
        cov_insn(t->cov, cpu->kind, tc->bytes, tc->len);
    trace_unhook(t);
    sem_resync(t, tc->t);
}

/* Perfetto counter tracks of a timed TPC (docs/timing.rst "Profiles"):
 * its cycles, stall cycles and global-memory bytes so far in the kernel,
 * sampled at most once a scheduling round and at the kernel's end. */
typedef struct TlCounterAt {
    NxTrace *t;
    uint64_t ts;
} TlCounterAt;

static void tl_counter_emit(void *o, const char *name, uint64_t v)
{
    TlCounterAt *at = o;
    tl_counter(at->t, TL_PID_TPC, name, at->ts, v);
}

static void tl_tpc_counters(NxTrace *t, TraceCpu *tc, uint64_t ts)
{
    const NxCpuTraceOps *to = tc->cpu->ops->trace;
    if (!t->tl || !to->counters)
        return;
    TlCounterAt at = {t, ts};
    to->counters(tc->cpu, tl_counter_emit, &at);
}

void trace_insn_begin(Machine *m, NxCpu *cpu, uint64_t pc, const uint8_t *bytes, unsigned len)
{
    NxTrace *t = cpu->trace;
    TraceCpu *tc = trace_cpu(t, cpu);
    if (!tc)
        return;
    if (tc->pending)
        trace_close(t, tc);
    sem_resync(t, t->ext_t);
    tc->pending = true;
    tc->pc = pc;
    tc->len = MIN(len, (unsigned)sizeof(tc->bytes));
    memcpy(tc->bytes, bytes, tc->len);
    tc->retired_before = cpu->retired;
    if (cpu->kind == CPU_KIND_SEQ) {
        tc->t = machine_vtime(m);
    } else {
        if (tc->round_vtime != m->sched.vtime) {
            tc->round_vtime = m->sched.vtime;
            tc->round_n = 0;
        }
        tc->t = MAX(m->sched.vtime + tc->round_n, tc->clock);
        tc->round_n++;
        tc->clock = tc->t + 1;
        tc->kernel_last = tc->t + 1;
        if (tc->counters_vtime != m->sched.vtime + 1) {
            tc->counters_vtime = m->sched.vtime + 1;
            tl_tpc_counters(t, tc, tc->t);
        }
    }
    if (t->commit) {
        snap_before(t, tc);
        g_array_set_size(t->mem, 0);
        trace_hook(t);
    }
}

bool trace_needs_every_insn(const NxTrace *t)
{
    /* (a pure record skipped between two hooked ones changes no stall,
     * wait or semaphore figure: wait_end and sem_resync see the same state
     * at the next hooked attempt) */
    return t && (t->commit || t->tl || t->cov);
}

bool trace_needs_insn_records(const NxTrace *t)
{
    return t && (t->commit || t->tl);
}

bool trace_counts_insns(const NxTrace *t)
{
    return t && t->cov;
}

void trace_insn_count(NxCpu *cpu, const uint8_t *bytes, unsigned len, uint64_t n)
{
    NxTrace *t = cpu->trace;
    if (t && t->cov)
        cov_insn_n(t->cov, cpu->kind, bytes, len, n);
}

void trace_insn_end(Machine *m, NxCpu *cpu)
{
    NxTrace *t = cpu->trace;
    TraceCpu *tc = trace_cpu(t, cpu);
    if (tc && tc->pending)
        trace_close(t, tc);
}

static void trace_dma_push(NxTrace *t, unsigned e, uint64_t queued)
{
    if (!t->tl || e >= t->nr_dma)
        return;
    uint64_t *at = g_new(uint64_t, 1);
    *at = queued;
    g_queue_push_tail(t->dma_push[e], at);
}

static void trace_dma_complete(NxTrace *t, unsigned e, const NxRunEvent *req, uint64_t at)
{
    if (!t->tl || e >= t->nr_dma)
        return;
    /* the previous completion's semaphore effects, then this one's time */
    sem_resync(t, t->ext_t);
    t->ext_t = at;
    uint64_t *pushed = g_queue_pop_head(t->dma_push[e]);
    uint64_t start = t->dma_last_end[e];
    if (pushed) {
        start = MAX(start, *pushed);
        g_free(pushed);
    }
    start = MIN(start, at);
    GString *a = g_string_new(NULL);
    g_string_append_printf(a, "\"owner\":%d,\"bytes\":%" PRIu64 ",\"sem\":%u,\"sem_inc\":%u",
                           req->owner, req->bytes, req->sem, req->sem_inc);
    tl_span(t, TL_PID_DMA, e, req->owner >= 0 ? "dma" : "dma (doorbell)", start, at - start,
            a->str);
    g_string_free(a, TRUE);
    t->dma_last_end[e] = at;
}

static void trace_tpc_launch(NxTrace *t, unsigned tpc)
{
    Machine *m = t->m;
    if (tpc >= t->nr_tpc)
        return;
    TraceCpu *tc = &t->tpc[tpc];
    tc->kernel_open = true;
    tc->launch_t = machine_vtime(m);
    tc->kernel_last = tc->launch_t;
    tc->clock = MAX(tc->clock, tc->launch_t);
    if (t->tl) {
        GString *a = g_string_new(NULL);
        g_string_append_printf(a, "\"base\":\"0x%016" PRIx64 "\"", board_tpc_kernel_base(m, tpc));
        tl_instant(t, TL_PID_TPC, tpc, "launch", tc->launch_t, a->str);
        g_string_free(a, TRUE);
    }
}

static void trace_tpc_finish(NxTrace *t, unsigned tpc, uint32_t code, uint64_t cycles,
                             uint64_t bundles)
{
    Machine *m = t->m;
    if (tpc >= t->nr_tpc)
        return;
    TraceCpu *tc = &t->tpc[tpc];
    tc->kernels++;
    tc->kernel_faults += code != 0;
    tc->kernel_bundles += bundles;
    tc->kernel_cycles += cycles;
    if (t->tl) {
        uint64_t start = tc->launch_t;
        uint64_t end = MAX(tc->kernel_last, start + cycles); /* stalls included */
        GString *a = g_string_new(NULL);
        g_string_append_printf(a,
                               "\"base\":\"0x%016" PRIx64 "\",\"bundles\":%" PRIu64
                               ",\"cycles\":%" PRIu64 ",\"fault\":%" PRIu32,
                               board_tpc_kernel_base(m, tpc), bundles, cycles, code);
        tl_span(t, TL_PID_TPC, tpc, code ? "kernel (fault)" : "kernel", start, end - start, a->str);
        g_string_free(a, TRUE);
        tl_tpc_counters(t, tc, end);
    }
    tc->kernel_open = false;
    tc->counters_vtime = 0;
}

/* The trace's run-event subscription (nxemu/runev.h). */
static void trace_runev(void *opaque, const NxRunEvent *ev)
{
    NxTrace *t = opaque;
    switch (ev->kind) {
    case NX_RUNEV_DMA_QUEUED:
        trace_dma_push(t, ev->unit, ev->t0);
        return;
    case NX_RUNEV_DMA:
        trace_dma_complete(t, ev->unit, ev, ev->t1);
        return;
    case NX_RUNEV_KERNEL_BEGIN:
        trace_tpc_launch(t, ev->unit);
        return;
    case NX_RUNEV_KERNEL_END:
        trace_tpc_finish(t, ev->unit, ev->code, ev->t1 - ev->t0, ev->bundles);
        return;
    case NX_RUNEV_WAIT_BEGIN:
    case NX_RUNEV_WAIT_END:
    case NX_RUNEV_FAULT:
        return; /* the instruction hooks see these */
    case NX_RUNEV_DMA_DUE:
    case NX_RUNEV_SEM:
        return; /* -d sem logs the changes */
    }
}

/* The first error is kept; later ones are printed (one line each). */
static void keep_error(GError **first, GError **e)
{
    if (!*first) {
        *first = *e;
    } else {
        fprintf(stderr, "nxemu: %s\n", (*e)->message);
        g_error_free(*e);
    }
    *e = NULL;
}

bool trace_finish(NxTrace *t, GError **err)
{
    if (!t)
        return true;
    Machine *m = t->m;
    uint64_t now = m->sched.vtime;
    for (unsigned i = 0; i < t->nr_seq; i++) {
        if (t->seq[i].pending)
            trace_close(t, &t->seq[i]);
        now = MAX(now, t->seq[i].t);
    }
    for (unsigned i = 0; i < t->nr_tpc; i++)
        if (t->tpc[i].pending)
            trace_close(t, &t->tpc[i]);
    /* still blocked at the end (deadlock, limit): the stall lasts to the end */
    for (unsigned i = 0; i < t->nr_seq; i++)
        wait_end(t, &t->seq[i], now);
    trace_unhook(t);
    sem_resync(t, t->ext_t);
    cov_collect(t);
    if (m->stop_reason == STOP_FAULT && m->fault_cpu) {
        NxCpu *f = m->fault_cpu;
        if (t->cov)
            cov_fault(t->cov, f->kind, f->fault.code);
        if (t->tl) {
            GString *a = g_string_new(NULL);
            g_string_append_printf(a, "\"pc\":\"0x%016" PRIx64 "\",\"code\":%" PRIu32, f->fault_pc,
                                   f->fault.code);
            tl_instant(t, f->kind == CPU_KIND_TPC ? TL_PID_TPC : TL_PID_SEQ, f->index,
                       f->ops->trace->fault_name(f->fault.code), machine_run_vtime(m),
                       a->str); /* when the run ended: at the fault */
            g_string_free(a, TRUE);
        }
    }
    if (t->stats) {
        GString *g = g_string_new(NULL);
        trace_stats(t, g);
        fputs(g->str, m->log.file ? m->log.file : stderr);
        g_string_free(g, TRUE);
    }
    /* Every output is finished even after an error; the first is returned. */
    GError *first = NULL, *e2 = NULL;
    if (!tl_close(t, &e2))
        keep_error(&first, &e2);
    if (t->cov_out) {
        GString *g = g_string_new(NULL);
        cov_json(t->cov, g);
        fputs(g->str, nx_output_stream(t->cov_out));
        NxOutput *o = t->cov_out;
        t->cov_out = NULL;
        if (!nx_output_commit(o, &e2))
            keep_error(&first, &e2);
        g_string_truncate(g, 0);
        cov_summary(t->cov, g);
        fputs(g->str, nx_output_stream(t->cov_txt_out));
        o = t->cov_txt_out;
        t->cov_txt_out = NULL;
        if (!nx_output_commit(o, &e2))
            keep_error(&first, &e2);
        g_string_free(g, TRUE);
    }
    if (first) {
        g_propagate_error(err, first);
        return false;
    }
    return true;
}

void trace_coverage_json(NxTrace *t, GString *out)
{
    cov_collect(t);
    if (t->cov)
        cov_json(t->cov, out);
}

void trace_coverage_summary(NxTrace *t, GString *out)
{
    cov_collect(t);
    if (t->cov)
        cov_summary(t->cov, out);
}
