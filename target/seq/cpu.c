/*
 * The sequencer core object and its run loop (sequencer.md §2.2,
 * machine.md §8-§9).  Instruction semantics live in exec-*.c; this file
 * fetches, hands records to their execute functions, and does the
 * bookkeeping every instruction shares: blocking, retirement, precise
 * faults, logging and the debugger's view.
 */
#include <inttypes.h>

#include "nxemu/sched.h"
#include "nxemu/trace.h"
#include "target/seq/asm.h"
#include "target/seq/cpu.h"

static const NxCpuOps seq_cpu_ops;

/* ---- faults and blocking ----------------------------------------------- */

static void seq_take_fault(SeqCpu *s)
{
    NxCpu *cpu = &s->cpu;
    cpu->fault = s->fault;
    cpu->fault_pc = s->regs->pc;
    cpu->state = CPU_FAULTED;
    s->regs->block_reason = NX_BLOCK_NONE;
    s->kept = false;
    nx_log_mask(&cpu->m->log, NX_LOG_INT,
                "seq: core=%u fault %s(%u) info=%u pc=0x%016" PRIx64 " addr=0x%016" PRIx64 "\n",
                cpu->index, nx_fault_name(s->fault.code), s->fault.code, s->fault.info, s->regs->pc,
                s->fault.addr);
    machine_fault(cpu->m, cpu);
}

static void seq_block(SeqCpu *s, const SeqDecoded *d)
{
    Machine *m = s->cpu.m;
    if (d != &s->kept_rec)
        s->kept_rec = *d;
    s->kept = true;
    /* the first blocked attempt opens a wait (as -trace-json's stall) */
    if (G_UNLIKELY(m->runev) && s->cpu.state != CPU_BLOCKED) {
        NxRunEvent ev = {.kind = NX_RUNEV_WAIT_BEGIN, .unit = s->cpu.index, .t0 = machine_vtime(m)};
        s->cpu.state = CPU_BLOCKED;
        machine_runev(m, &ev);
    }
    s->cpu.state = CPU_BLOCKED;
}

/* ---- phase F ------------------------------------------------------------ */

static void seq_log_insn(SeqCpu *s, const SeqDecoded *d, uint32_t what)
{
    GString *g = g_string_new(NULL);
    seq_disas_insn(d->insn.rec, s->regs->pc, g);
    nx_log_printf(&s->cpu.m->log, "%s: core=%u 0x%016" PRIx64 ": %s\n",
                  what == NX_LOG_IN_ASM ? "in_asm" : "exec", s->cpu.index, s->regs->pc, g->str);
    g_string_free(g, TRUE);
}

/* One TLB lookup per fetched instruction (machine.md §2.3). */
static const SeqDecoded *seq_fetch_slow(SeqCpu *s)
{
    SeqRegs *nx = s->regs;
    uint64_t pc = nx->pc, pa;
    bool local;

    if (pc & 63) {
        nx_fault_set(&s->fault, NX_FAULT_MISALIGNED, 0, pc);
        return NULL;
    }
    if (!seq_translate(s, pc, NX_ACC_FETCH, &pa, &local))
        return NULL;
    if (local) {
        nx_fault_set(&s->fault, NX_FAULT_BUS_ERROR, 0, pc);
        return NULL;
    }
    const SeqDecoded *d = seq_dcache_get(s, pa, NULL);
    if (G_LIKELY(d))
        return d;
    const uint8_t *h = as_host_ptr(s->as, pa, SEQ_REC_BYTES, false, MR_F_FETCH);
    uint8_t buf[SEQ_REC_BYTES];
    if (!h) {
        /* Not RAM with the fetch flag, or an access observer is installed
         * (then nothing hands out host pointers): read through the API. */
        uint64_t bad;
        if (!as_is_ram(s->as, pa, SEQ_REC_BYTES, MR_F_FETCH) ||
            as_rw_bytes(s->as, pa, buf, SEQ_REC_BYTES, false, s->attrs, &bad) != MEMTX_OK) {
            nx_fault_set(&s->fault, NX_FAULT_BUS_ERROR, 0, pc);
            return NULL;
        }
        h = buf;
    }
    d = seq_dcache_get(s, pa, h);
    if (nx_log_enabled(&s->cpu.m->log, NX_LOG_IN_ASM))
        seq_log_insn(s, d, NX_LOG_IN_ASM);
    return d;
}

/* The common case inline: translation off (identity, no TLB statistics,
 * machine.md §2.1), aligned PC outside window 0, record cached in the page
 * used last. */
static inline const SeqDecoded *seq_fetch(SeqCpu *s)
{
    uint64_t pc = s->regs->pc;
    const SeqDPage *p = s->dc.last;
    if (G_LIKELY(s->regs->wt_base == 0 && (pc & 63) == 0 && (pc >> 24) != 0 && p &&
                 p->page == pc >> 12 && (p->valid >> ((pc >> 6) & 63)) & 1))
        return &p->e[(pc >> 6) & 63];
    return seq_fetch_slow(s);
}

/* ---- the run loop ------------------------------------------------------- */

/* machine.md §9.2: the instruction that makes icount reach the limit ends
 * the run at its own retirement time.  `left` is how many instructions the
 * limit allowed when the slice began. */
static inline void seq_icount_check(Sched *sc, const NxCpu *cpu, uint64_t used, uint64_t left)
{
    if (sc->has_icount_limit && used == left) {
        sc->icount_reached = true;
        sc->limit_vtime = sc->vtime + cpu->slice_used;
    }
}

/* ---- observers ---------------------------------------------------------- */

/* Is anyone watching instructions one by one (gdb, -trace-json, -d exec,
 * -d cpu)?  Read once per slice: observers come and go between runs. */
static inline bool seq_observed(const NxCpu *cpu)
{
    const Machine *m = cpu->m;
    return (m->log.mask & (NX_LOG_EXEC | NX_LOG_CPU)) || m->debug || cpu->trace;
}

/* The per-instruction observer hook, the same for both paths of the run
 * loop: called once the record of an attempt at nx->pc is known, before it
 * executes, with nx->pc and the counters up to date (the debugger's
 * breakpoint check, nx_debug_should_stop, comes before the fetch). */
static G_GNUC_NO_INLINE void seq_observe_insn(SeqCpu *s, const SeqDecoded *d)
{
    NxCpu *cpu = &s->cpu;
    Machine *m = cpu->m;
    NxLog *lg = &m->log;

    if (cpu->trace)
        trace_insn_begin(m, cpu, s->regs->pc, d->insn.rec, SEQ_REC_BYTES);
    if (nx_log_enabled(lg, NX_LOG_CPU)) {
        GString *g = g_string_new(NULL);
        cpu->ops->dump(cpu, g);
        nx_log_printf(lg, "%s", g->str);
        g_string_free(g, TRUE);
    }
    if (nx_log_enabled(lg, NX_LOG_EXEC))
        seq_log_insn(s, d, NX_LOG_EXEC);
}

/* ---- the end of an attempt ---------------------------------------------- */

/*
 * Phases E and U returned st: the same bookkeeping for both paths.  A
 * status other than SEQ_OK ends the slice (blocked: the record is kept;
 * fault: taken, precise; a watchpoint stop: nothing changed).  SEQ_OK
 * retires the instruction; `used` counts the slice's instructions with it.
 * Returns false when the slice ends.  `threaded` (a constant): the caller
 * is seq_run_fast, which runs only unblocked cores without a kept record.
 * nx and sc are s->regs and the scheduler, passed in so that the caller's
 * copies serve (the handler's call would make the compiler read them again).
 */
static inline __attribute__((always_inline)) bool seq_end_attempt(SeqCpu *s, SeqRegs *nx, Sched *sc,
                                                                  const SeqDecoded *d, SeqStatus st,
                                                                  uint64_t used, uint64_t left,
                                                                  bool threaded)
{
    NxCpu *cpu = &s->cpu;

    if (G_UNLIKELY(st != SEQ_OK)) {
        if (st == SEQ_BLOCK)
            seq_block(s, d);
        else if (st == SEQ_FAULT)
            seq_take_fault(s);
        return false;
    }
    if (!threaded) {
        s->kept = false;
        if (G_UNLIKELY(cpu->state == CPU_BLOCKED)) {
            cpu->state = CPU_RUNNING;
            Machine *m = cpu->m;
            if (G_UNLIKELY(m->runev)) {
                NxRunEvent ev = {
                    .kind = NX_RUNEV_WAIT_END, .unit = cpu->index, .t0 = machine_vtime(m)};
                machine_runev(m, &ev);
            }
        }
        nx->block_reason = NX_BLOCK_NONE;
    }
    nx->pc = s->next_pc;
    cpu->retired++;
    cpu->slice_used++;
    seq_icount_check(sc, cpu, used, left);
    if (G_UNLIKELY(nx->pending_control))
        s->port.apply_pending_control(s->port.opaque);
    return true;
}

/* Why seq_run_fast returned. */
typedef enum SeqFastExit {
    SEQ_FX_CHECK,   /* look at the loop conditions again */
    SEQ_FX_GENERAL, /* the record at nx->pc is not for the fast path */
    SEQ_FX_OUT,     /* the slice ends (fault taken, blocked, stop) */
} SeqFastExit;

/*
 * The fast path: records of decode page p (SeqDPage.fast) from nx->pc, up
 * to the slice end `end` (counted in *used), translation off (PC == PA).
 *
 * Pure records (SeqDecoded.pure) cannot change anything the run loop's
 * conditions look at (memory, hence the page; WT_BASE; the core state; the
 * counters; the stop flag), so runs of them are threaded with no checks
 * between them: each entry's kind says how to run it (SeqKind: the common
 * forms inline from their pre-resolved operands, others through their
 * execute function) or that the run ends there (SEQ_K_EXIT: not pure, not
 * valid, or the sentinel after the page's last slot), so straight-line code
 * needs no bitmap or page test.  The PC is the entry's (base + d->off) and
 * the counters are brought up to date only when leaving the run: before any
 * other record, whose handler may read them (RETIRED register, machine time
 * of a DMA issue, NOTIFY's PC), and on the way out.  After such a record,
 * everything the conditions look at is looked at again.
 *
 * Dispatch is threaded through a table of label addresses (a GNU C
 * extension, as in QEMU's interpreter): each form jumps straight to the
 * next one, which gives the host's branch predictor one indirect jump per
 * form rather than one for all.  When someone observes (`observed`, fixed
 * for the slice), the table is one whose every entry is k_observe: it
 * brings the PC and counters up to date, runs the observer hook and jumps
 * to the record's own label, so observed and unobserved runs execute the
 * same forms.
 */
static G_GNUC_NO_INLINE SeqFastExit seq_run_fast(SeqCpu *s, SeqDPage *p, uint64_t *used,
                                                 uint64_t end, uint64_t left, bool observed)
{
    static const void *const lbl[SEQ_K_COUNT] = {[SEQ_K_EXIT] = &&k_exit,
                                                 [SEQ_K_CALL] = &&k_call,
#define L_ALU(K, OP, W, SG) [SEQ_K_##K##_RR] = &&k_##K##_rr, [SEQ_K_##K##_RI] = &&k_##K##_ri,
                                                 SEQ_ALU_FORMS(L_ALU)
#undef L_ALU
#define L_BR(K, COND, DT) [SEQ_K_BR_##K] = &&k_br_##K,
                                                     SEQ_BR_FORMS(L_BR)
#undef L_BR
    };
    /* Observed: every entry goes through k_observe first. */
    static const void *const obs[SEQ_K_COUNT] = {[0 ... SEQ_K_COUNT - 1] = &&k_observe};
    const void *const *const tbl = observed ? obs : lbl;
    NxCpu *cpu = &s->cpu;
    SeqRegs *nx = s->regs;
    Machine *m = cpu->m;
    Sched *sc = &m->sched;
    uint32_t *R = nx->r;
    const uint64_t base = p->base;
    uint64_t pc = nx->pc, t;
    /* rem counts down to the slice end; mark is rem when the counters were
     * last brought up to date. */
    uint64_t rem = end - *used, mark = rem;
    SeqFastExit ex = SEQ_FX_CHECK;
    const SeqDecoded *d;
    /* Compiled blocks (jit.h) run when the per-record hook would do
     * nothing for this page's records: nobody observes, or only a debugger
     * that can stop at none of them (its state changes only between
     * slices) or a trace that needs no pure record (-d stats alone).  A
     * trace or -d exec/cpu hooks every record: the threaded code below, the
     * same semantics. */
    const bool jit_ok = !observed || (!trace_needs_every_insn(cpu->trace) &&
                                      !(m->log.mask & (NX_LOG_EXEC | NX_LOG_CPU)) &&
                                      nx_debug_quiet_range(m, cpu, base, base + 4096, end - *used));
    const unsigned jit_heat = jit_ok ? s->jit.threshold : 0;
    SeqJitCtx jc;

#define SEQ_FLUSH()                                                                                \
    do {                                                                                           \
        nx->pc = pc;                                                                               \
        cpu->retired += mark - rem;                                                                \
        cpu->slice_used += mark - rem;                                                             \
        mark = rem;                                                                                \
    } while (0)
#define DISPATCH() goto *tbl[d->kind]
    /* The record at d retired and the next one is d + 1. */
#define NEXT()                                                                                     \
    do {                                                                                           \
        d++;                                                                                       \
        if (G_UNLIKELY(--rem == 0))                                                                \
            goto leave_d;                                                                          \
        DISPATCH();                                                                                \
    } while (0)

reload:
    if (((pc - base) & ~0xFC0ull) != 0) { /* other page or misaligned */
        ex = SEQ_FX_GENERAL;
        goto leave;
    }
    d = &p->e[(pc - base) >> 6];
    if (jit_heat) {
        const unsigned slot = (unsigned)(pc - base) >> 6;
        SeqJitPage *jp = &p->jit;
        if (G_UNLIKELY(jp->epoch != s->jit.epoch))
            seq_jit_page_reset(jp, s->jit.epoch);
        const uint8_t *code = jp->entry[slot];
        if (!code && !((jp->none >> slot) & 1) && ++jp->heat[slot] >= jit_heat)
            code = seq_jit_compile(&s->jit, p, slot);
        if (code) {
            /* The same records as the threaded code below would run, with
             * the counters brought up to date the same way on the way out.
             * A block that did not fit the slice returns rem unchanged: the
             * records go one by one below. */
            const uint64_t r = seq_jit_run(code, R, &jc, rem);
            if (r != rem) {
                s->jit.insns += rem - r;
                rem = r;
                pc = jc.pc;
                if (rem == 0)
                    goto leave;
                goto reload;
            }
        }
    }
    DISPATCH();

    /* The forms of alu-ops.h, instantiated from the same semantics as their
     * execute functions (seq_alu_form, seq_br_form_taken). */
#define K_ALU(K, OP, W, SG)                                                                        \
    k_##K##_rr:                                                                                    \
    {                                                                                              \
        seq_alu_form(R, d, SEQ_ALU_##OP, W, SEQ_SG_##SG, false);                                   \
        NEXT();                                                                                    \
    }                                                                                              \
    k_##K##_ri:                                                                                    \
    {                                                                                              \
        seq_alu_form(R, d, SEQ_ALU_##OP, W, SEQ_SG_##SG, true);                                    \
        NEXT();                                                                                    \
    }
    SEQ_ALU_FORMS(K_ALU)
#undef K_ALU
#define K_BR(K, COND, DT)                                                                          \
    k_br_##K:                                                                                      \
    {                                                                                              \
        if (!seq_br_form_taken(R, d, SEQ_BR_##COND, SEQ_DT_##DT))                                  \
            NEXT();                                                                                \
        t = seq_br_form_target(d, base + d->off);                                                  \
        if (G_UNLIKELY(t & 63)) {                                                                  \
            nx_fault_set(&s->fault, NX_FAULT_MISALIGNED, 0, t);                                    \
            goto fault_d;                                                                          \
        }                                                                                          \
        goto jump;                                                                                 \
    }
    SEQ_BR_FORMS(K_BR)
#undef K_BR

k_call:
    /* Other pure records: their execute function (which reads the executing
     * PC as s->next_pc - 64). */
    s->next_pc = base + d->off + SEQ_REC_BYTES;
    if (G_UNLIKELY(d->fn(s, d) != SEQ_OK))
        goto fault_d;
    t = s->next_pc;
    if (t == base + d->off + SEQ_REC_BYTES)
        NEXT();
    goto jump;

jump:
    /* The record at d retired with next PC t. */
    pc = t;
    if (G_UNLIKELY(--rem == 0))
        goto leave;
    goto reload;

k_observe:
    /* Observed (seq_observed): the same code with the observer hook before
     * each record.  A record left to the general path is observed there. */
    pc = base + d->off;
    if (d->kind == SEQ_K_EXIT &&
        (((pc - base) & ~0xFC0ull) != 0 || !((p->fast >> ((pc - base) >> 6)) & 1)))
        goto k_exit;
    SEQ_FLUSH();
    if (nx_debug_should_stop(m, cpu, pc)) {
        *used = end - rem;
        return SEQ_FX_OUT;
    }
    seq_observe_insn(s, d);
    goto *lbl[d->kind];

k_exit:
    /* Not a pure record of this page: a fast one, or one for the general
     * path (also the sentinel: the straight line ran off the page). */
    pc = base + d->off;
    if (((pc - base) & ~0xFC0ull) != 0 || !((p->fast >> ((pc - base) >> 6)) & 1)) {
        ex = SEQ_FX_GENERAL;
        goto leave;
    }
    /* A record with effects beyond the registers and PC: bring the
     * counters up to date first.  rem > 0: no icount limit reached yet. */
    SEQ_FLUSH();
    s->next_pc = pc + SEQ_REC_BYTES;
    if (!seq_end_attempt(s, nx, sc, d, d->fn(s, d), end - rem + 1, left, true)) {
        *used = end - rem;
        return SEQ_FX_OUT;
    }
    pc = nx->pc;
    rem--;
    mark = rem;
    /* A solo slice that is no longer alone: the run loop ends it with the
     * round (nxemu/sched.h). */
    if (G_UNLIKELY(m->stop || nx->discard_kept || cpu->state != CPU_RUNNING || nx->wt_base != 0 ||
                   s->dc.last != p || (sc->solo && !sched_solo_alone(m)))) {
        *used = end - rem;
        return SEQ_FX_CHECK;
    }
    /* Its stores may have dropped records of this page: the kinds say so. */
    if (rem)
        goto reload;
    goto leave;

leave_d:
    pc = base + d->off;
leave:
    if (mark != rem) {
        SEQ_FLUSH();
        seq_icount_check(sc, cpu, end - rem, left);
    }
    *used = end - rem;
    return ex;

fault_d:
    /* Precise: the PC stays on the faulting record, which did not retire. */
    pc = base + d->off;
    if (mark != rem) {
        SEQ_FLUSH();
        seq_icount_check(sc, cpu, end - rem, left);
    }
    nx->pc = pc;
    *used = end - rem;
    seq_take_fault(s);
    return SEQ_FX_OUT;
#undef NEXT
#undef DISPATCH
#undef SEQ_FLUSH
}

/*
 * One run loop, two paths, the same observers and the same end of an
 * attempt (seq_end_attempt).  The general path does everything
 * sequencer.md §2.2 asks of an attempt (kept records, phase D faults,
 * waits, blocking, translation, a PC outside the decode page used last);
 * the threaded one (seq_run_fast) takes the records without waits or debug
 * fields (SeqDecoded.fast) from the decode page used last, with
 * translation off: runs of pure records go back to back with no checks
 * between them, any other record is followed by the general path's checks.
 * Observers (gdb, -trace-json, -d exec, -d cpu) do not choose the path: both
 * call the same hook before each attempt (nx_debug_should_stop,
 * seq_observe_insn), which costs one predictable branch per record in the
 * general path and nothing in the threaded one when nobody observes (the
 * dispatch table is chosen once per slice), so gdb runs what CI runs.
 *
 * sched.round_retired and sched.icount are only read between slices, so they
 * are added once at the end; cpu->retired and cpu->slice_used are brought up
 * to date before any handler that may read them (RETIRED register, machine
 * time of a DMA issue) runs.
 */
static uint64_t seq_run(NxCpu *cpu, uint64_t budget)
{
    SeqCpu *s = seq_cpu(cpu);
    SeqRegs *nx = s->regs;
    Machine *m = cpu->m;
    Sched *sc = &m->sched;
    NxLog *lg = &m->log;
    uint64_t used = 0;
    /* The icount limit folded into the budget. */
    uint64_t left = UINT64_MAX, end = budget;
    if (sc->has_icount_limit) {
        left = sc->icount_limit > sc->icount ? sc->icount_limit - sc->icount : 0;
        end = MIN(budget, left);
    }
    const bool observed = seq_observed(cpu);

    while (used < budget && !m->stop) {
        if (G_UNLIKELY(sc->solo) && used && !sched_solo_alone(m)) {
            /* Another agent became active: this round is the slice's last
             * (nxemu/sched.h, solo slices). */
            sc->solo = false;
            budget = sched_round_end(m, used);
            end = MIN(end, budget);
            if (used >= budget)
                break;
        }
        if (nx->discard_kept) {
            s->kept = false;
            nx->discard_kept = false;
        }
        if (cpu->state != CPU_RUNNING && cpu->state != CPU_BLOCKED)
            break;
        if (used >= end) {
            sc->icount_reached = true;
            break;
        }

        if (!s->threaded_off && cpu->state == CPU_RUNNING && !s->kept && nx->wt_base == 0 &&
            s->dc.last && (s->dc.last->page >> 12) != 0) {
            /* Records without waits or debug fields in the decode page used
             * last (SeqDPage.fast), in seq_run_fast.  A PC outside the page
             * or a record not in the bitmap leaves the instruction to the
             * general path. */
            nx->block_reason = NX_BLOCK_NONE;
            SeqFastExit ex = seq_run_fast(s, s->dc.last, &used, end, left, observed);
            if (ex == SEQ_FX_OUT)
                goto out;
            if (ex == SEQ_FX_GENERAL && used < end)
                goto general;
            continue;
        }

    general:;
        /* gdb breakpoints, before the fetch; a blocked (kept) record is not
         * re-reported at each attempt. */
        if (!s->kept && nx_debug_should_stop(m, cpu, nx->pc))
            break;
        const SeqDecoded *d;
        if (s->kept) {
            /* A blocked instruction restarts at phase W: no fetch, no lookup. */
            d = &s->kept_rec;
        } else {
            d = seq_fetch(s);
            if (!d) {
                seq_take_fault(s);
                break;
            }
        }
        if (G_UNLIKELY(observed))
            seq_observe_insn(s, d);
        if (G_UNLIKELY(d->has_debug) && nx_log_enabled(lg, NX_LOG_DEBUG_CMD))
            nx_log_printf(lg, "debug: core=%u pc=0x%016" PRIx64 " cmd=%u hint=%u\n", cpu->index,
                          nx->pc, (unsigned)seq_field_get(d->insn.rec, SEQ_F_HDR_DEBUG_CMD),
                          (unsigned)seq_field_get(d->insn.rec, SEQ_F_HDR_DEBUG_HINT));

        /* Phase D verdict, cached with the record. */
        if (G_UNLIKELY(!d->fn)) {
            s->fault = d->dfault;
            seq_take_fault(s);
            break;
        }
        /* Phase W. */
        if (!d->own_wait && d->wait_mode && !seq_wait_std(s, d)) {
            seq_block(s, d);
            break;
        }
        /* Phases E and U. */
        s->next_pc = nx->pc + SEQ_REC_BYTES;
        if (!seq_end_attempt(s, nx, sc, d, d->fn(s, d), used + 1, left, false))
            break;
        used++;
    }
out:
    sc->round_retired += used;
    sc->icount += used;
    if (nx->discard_kept) {
        s->kept = false;
        nx->discard_kept = false;
    }
    if (G_UNLIKELY(cpu->trace))
        trace_insn_end(m, cpu);
    return used;
}

/* ---- NxCpuOps ----------------------------------------------------------- */

static void seq_reset(NxCpu *cpu)
{
    SeqCpu *s = seq_cpu(cpu);
    s->port.reset(s->port.opaque);
    s->kept = false;
    s->regs->discard_kept = false;
    s->generation++;
}

static uint64_t seq_get_pc(NxCpu *cpu)
{
    return seq_cpu(cpu)->regs->pc;
}

static const char *dma_error_name(uint32_t info)
{
    switch (info) {
    case NX_DMA_BAD_ADDRESS:
        return "BAD_ADDRESS";
    case NX_DMA_OVERLAP:
        return "OVERLAP";
    case NX_DMA_DUP_INDEX:
        return "DUP_INDEX";
    default:
        return NULL;
    }
}

/* machine.md §9.3 and §12.1. */
static void seq_fault_line(NxCpu *cpu, GString *out)
{
    const NxFault *f = &cpu->fault;
    char info[48];
    const char *name = NULL;

    switch (f->code) {
    case NX_FAULT_INVALID_INSTRUCTION:
        name = seq_pred_name(f->info);
        break;
    case NX_FAULT_DMA_ERROR:
        name = dma_error_name(f->info);
        break;
    case NX_FAULT_PSEUDO_UNLOWERED:
        seq_pseudo_info_name(f->info, info, sizeof(info));
        name = info;
        break;
    default:
        name = "0";
        break;
    }
    if (!name) {
        g_snprintf(info, sizeof(info), "%u", f->info);
        name = info;
    }
    g_string_append_printf(
        out, "nxemu: fault: core=%u code=%s(%u) info=%s pc=0x%016" PRIx64 " addr=0x%016" PRIx64,
        cpu->index, nx_fault_name(f->code), f->code, name, cpu->fault_pc, f->addr);
}

static int seq_fault_signal(NxCpu *cpu)
{
    return nx_fault_signal(cpu->fault.code);
}

static void seq_dump(NxCpu *cpu, GString *out)
{
    SeqCpu *s = seq_cpu(cpu);
    SeqRegs *nx = s->regs;

    g_string_append_printf(out, "core=%u pc=0x%016" PRIx64 " state=%s retired=%" PRIu64 "\n",
                           cpu->index, nx->pc, cpu_state_name(cpu->state), cpu->retired);
    for (unsigned i = 0; i < 64; i++)
        g_string_append_printf(out, "r%-2u=%08x%s", i, nx->r[i], (i & 7) == 7 ? "\n" : " ");
    if (cpu->state == CPU_FAULTED)
        g_string_append_printf(
            out, "fault=%s(%u) info=%u fault_pc=0x%016" PRIx64 " fault_addr=0x%016" PRIx64 "\n",
            nx_fault_name(cpu->fault.code), cpu->fault.code, cpu->fault.info, cpu->fault_pc,
            cpu->fault.addr);
    s->port.dump(s->port.opaque, out);
}

static unsigned seq_disas(NxCpu *cpu, uint64_t addr, GString *out)
{
    SeqCpu *s = seq_cpu(cpu);
    uint8_t rec[SEQ_REC_BYTES];
    uint64_t pa, bad;

    if (!s->port.translate_peek(s->port.opaque, addr, &pa) ||
        as_rw_bytes(s->as, pa, rec, sizeof(rec), false, MEMTXATTRS(MEM_REQ_DEBUG, 0), &bad) !=
            MEMTX_OK)
        return 0;
    seq_disas_insn(rec, addr, out);
    return SEQ_REC_BYTES;
}

static unsigned put_le(uint8_t *buf, size_t buflen, uint64_t v, unsigned n)
{
    if (buflen < n)
        return 0;
    for (unsigned i = 0; i < n; i++)
        buf[i] = (uint8_t)(v >> (8 * i));
    return n;
}

static unsigned seq_gdb_read_reg(NxCpu *cpu, unsigned n, uint8_t *buf, size_t buflen)
{
    SeqCpu *s = seq_cpu(cpu);
    SeqRegs *nx = s->regs;
    if (n < 64)
        return put_le(buf, buflen, nx->r[n], 4);
    switch (n) {
    case SEQ_GDB_PC:
        return put_le(buf, buflen, nx->pc, 8);
    case SEQ_GDB_STATUS:
        return put_le(buf, buflen, s->port.status(s->port.opaque), 4);
    case SEQ_GDB_FAULT_CODE:
        return put_le(buf, buflen, cpu->fault.code, 4);
    case SEQ_GDB_FAULT_INFO:
        return put_le(buf, buflen, cpu->fault.info, 4);
    case SEQ_GDB_FAULT_PC:
        return put_le(buf, buflen, cpu->fault_pc, 8);
    case SEQ_GDB_FAULT_ADDR:
        return put_le(buf, buflen, cpu->fault.addr, 8);
    case SEQ_GDB_RETIRED:
        return put_le(buf, buflen, cpu->retired, 8);
    default:
        return 0;
    }
}

static unsigned seq_gdb_write_reg(NxCpu *cpu, unsigned n, const uint8_t *buf, size_t len)
{
    SeqCpu *s = seq_cpu(cpu);
    uint64_t v = 0;
    unsigned width = n < 64 ? 4 : n == SEQ_GDB_PC ? 8 : 0;
    if (!width || len < width)
        return 0;
    for (unsigned i = 0; i < width; i++)
        v |= (uint64_t)buf[i] << (8 * i);
    if (n < 64) {
        s->regs->r[n] = (uint32_t)v;
    } else {
        /* A debugger moving PC drops the kept record (sequencer.md §2.2). */
        s->regs->pc = v;
        s->kept = false;
        if (cpu->state == CPU_BLOCKED) {
            cpu->state = CPU_RUNNING;
            s->regs->block_reason = NX_BLOCK_NONE;
        }
    }
    return width;
}

static void seq_destroy(NxCpu *cpu)
{
    SeqCpu *s = seq_cpu(cpu);
    seq_dcache_destroy(&s->dc);
    seq_jit_destroy(&s->jit);
    if (s->port.detach)
        s->port.detach(s->port.opaque, cpu);
    g_free(s);
}

/* NxCpuOps.stats: the translation counters, then the records that ran in
 * compiled blocks (docs/architecture.rst, "Sequencer instructions"). */
static void seq_stats(NxCpu *cpu, GString *out)
{
    SeqCpu *s = seq_cpu(cpu);
    s->port.stats(s->port.opaque, out);
    g_string_append_printf(out, " compiled=%" PRIu64, s->jit.insns);
}

static const NxCpuOps seq_cpu_ops = {
    .arch = "seq",
    .reset = seq_reset,
    .run = seq_run,
    .get_pc = seq_get_pc,
    .block_info = seq_block_info,
    .block_cleared = seq_block_cleared,
    .blocked_on_values = seq_blocked_on_values,
    .fault_line = seq_fault_line,
    .fault_signal = seq_fault_signal,
    .dump = seq_dump,
    .stats = seq_stats,
    .disas = seq_disas,
    .gdb_read_reg = seq_gdb_read_reg,
    .gdb_write_reg = seq_gdb_write_reg,
    .trace = &seq_trace_ops,
    .destroy = seq_destroy,
};

NxCpu *seq_cpu_create(Machine *m, unsigned index, const SeqPort *port)
{
    SeqCpu *s = g_new0(SeqCpu, 1);
    NxCpu *cpu = &s->cpu;

    cpu->ops = &seq_cpu_ops;
    cpu->m = m;
    cpu->kind = CPU_KIND_SEQ;
    cpu->index = index;
    cpu->state = CPU_RESET;
    s->port = *port;
    s->regs = port->regs;
    s->as = m->as;
    s->attrs = MEMTXATTRS(MEM_REQ_SEQ, index);
    seq_dcache_init(&s->dc);
    seq_jit_init(&s->jit);
    /* One hook for all sequencer cores: it walks m->seq. */
    as_set_code_write_hook(m->as, seq_code_write_hook, m);
    return cpu;
}
