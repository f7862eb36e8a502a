/*
 * The sequencer core object and its run loop (sequencer.md §2.2,
 * machine.md §8-§9).  Instruction semantics live in exec-*.c; this file
 * fetches, hands records to their execute functions, and does the
 * bookkeeping every instruction shares: blocking, retirement, precise
 * faults, logging and the debugger's view.
 */
#include <inttypes.h>

#include "nxemu/trace.h"
#include "target/seq/asm.h"
#include "target/seq/cpu.h"

static const NxCpuOps seq_cpu_ops;

/* ---- faults and blocking ----------------------------------------------- */

static void seq_take_fault(SeqCpu *s)
{
    NxCpu *cpu = &s->cpu;
    cpu->fault = s->fault;
    cpu->fault_pc = s->nx->pc;
    cpu->state = CPU_FAULTED;
    s->nx->block_reason = NX_BLOCK_NONE;
    s->kept = false;
    nx_log_mask(&cpu->m->log, NX_LOG_INT,
                "seq: core=%u fault %s(%u) info=%u pc=0x%016" PRIx64 " addr=0x%016" PRIx64 "\n",
                cpu->index, nx_fault_name(s->fault.code), s->fault.code, s->fault.info, s->nx->pc,
                s->fault.addr);
    machine_fault(cpu->m, cpu);
}

static void seq_block(SeqCpu *s, const SeqDecoded *d)
{
    if (d != &s->kept_rec)
        s->kept_rec = *d;
    s->kept = true;
    s->cpu.state = CPU_BLOCKED;
}

/* ---- phase F ------------------------------------------------------------ */

static void seq_log_insn(SeqCpu *s, const SeqDecoded *d, uint32_t what)
{
    GString *g = g_string_new(NULL);
    seq_disas_insn(d->insn.rec, s->nx->pc, g);
    nx_log_printf(&s->cpu.m->log, "%s: core=%u 0x%016" PRIx64 ": %s\n",
                  what == NX_LOG_IN_ASM ? "in_asm" : "exec", s->cpu.index, s->nx->pc, g->str);
    g_string_free(g, TRUE);
}

/* One TLB lookup per fetched instruction (machine.md §2.3). */
static const SeqDecoded *seq_fetch_slow(SeqCpu *s)
{
    NxBlock *nx = s->nx;
    uint64_t pc = nx->pc, pa;
    bool local;

    if (pc & 63) {
        nx_fault_set(&s->fault, NX_FAULT_MISALIGNED, 0, pc);
        return NULL;
    }
    if (!nx_translate(nx, pc, NX_ACC_FETCH, &pa, &local, &s->fault))
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
    uint64_t pc = s->nx->pc;
    const SeqDPage *p = s->dc.last;
    if (G_LIKELY(s->nx->wt_base == 0 && (pc & 63) == 0 && (pc >> 24) != 0 && p &&
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

/*
 * Pure records (SeqDecoded.pure) of decode page p back to back from pc, at
 * most max of them: they cannot change anything the run loop's conditions
 * look at (memory, hence the page; WT_BASE; the core state; the counters;
 * the stop flag), so none is checked between them.  Returns how many
 * retired; *st = SEQ_FAULT (s->fault filled, nx->pc at the faulting record)
 * if one faulted.  nx->pc is only stored on the way out: pure handlers take
 * the executing PC from s->next_pc (seq_cur_pc).  Kept out of line so its
 * few live values stay in registers across the indirect calls.
 */
static G_GNUC_NO_INLINE uint64_t seq_run_pure(SeqCpu *s, const SeqDPage *p, uint64_t pc,
                                              uint64_t max, SeqStatus *st)
{
    uint64_t rem = max;
    while (rem) {
        uint64_t off = pc - p->base;
        /* Same page and 64-aligned in one test. */
        if ((off & ~0xFC0ull) != 0 || !((p->pure >> (off >> 6)) & 1))
            break;
        const SeqDecoded *d = &p->e[off >> 6];
        s->next_pc = pc + SEQ_REC_BYTES;
        if (G_UNLIKELY(d->fn(s, d) != SEQ_OK)) {
            *st = SEQ_FAULT;
            break;
        }
        pc = s->next_pc;
        rem--;
    }
    s->nx->pc = pc;
    return max - rem;
}

/*
 * Two paths.  The general one does everything sequencer.md §2.2 asks of an
 * attempt (kept records, logging, phase D faults, waits, blocking, pending
 * CONTROL writes, the machine stop flag) and is where debugger and trace
 * hooks belong.  The fast one takes records without waits or debug fields
 * (SeqDecoded.fast) from the decode page used last, with translation off,
 * and is only used without a debugger, trace or per-instruction logging:
 * runs of pure records go through seq_run_pure with no checks between
 * them, any other record is followed by the general path's checks.
 *
 * sched.round_retired and sched.icount are only read between slices, so they
 * are added once at the end; cpu->retired and cpu->slice_used are brought up
 * to date before any handler that may read them (RETIRED register, machine
 * time of a DMA issue) runs.
 */
static uint64_t seq_run(NxCpu *cpu, uint64_t budget)
{
    SeqCpu *s = seq_cpu(cpu);
    NxBlock *nx = s->nx;
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
    const bool fast_ok =
        !(lg->mask & (NX_LOG_EXEC | NX_LOG_CPU)) && m->debug == NULL && m->trace == NULL;

    while (used < budget && !m->stop) {
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

        if (fast_ok && cpu->state == CPU_RUNNING && !s->kept && nx->wt_base == 0 && s->dc.last &&
            (s->dc.last->page >> 12) != 0) {
            /* Records without waits or debug fields in the decode page used
             * last (SeqDPage.fast): runs of pure ones in seq_run_pure, the
             * others here, after which everything the loop conditions look
             * at is looked at again.  A PC outside the page or a record not
             * in the bitmap leaves the instruction to the general path. */
            const SeqDPage *p = s->dc.last;
            nx->block_reason = NX_BLOCK_NONE;
            for (;;) {
                SeqStatus st = SEQ_OK;
                uint64_t n = seq_run_pure(s, p, nx->pc, end - used, &st);
                cpu->retired += n;
                cpu->slice_used += n;
                used += n;
                if (n)
                    seq_icount_check(sc, cpu, used, left);
                if (G_UNLIKELY(st != SEQ_OK)) {
                    seq_take_fault(s);
                    goto out;
                }
                if (used >= end)
                    break;
                uint64_t off = nx->pc - p->base;
                if ((off & ~0xFC0ull) != 0 || !((p->fast >> (off >> 6)) & 1))
                    goto general;
                const SeqDecoded *d = &p->e[off >> 6];
                s->next_pc = nx->pc + SEQ_REC_BYTES;
                st = d->fn(s, d);
                if (st != SEQ_OK) {
                    if (st == SEQ_BLOCK)
                        seq_block(s, d);
                    else if (st == SEQ_FAULT)
                        seq_take_fault(s);
                    /* SEQ_DEBUG needs a debugger, which keeps this path off. */
                    goto out;
                }
                nx->pc = s->next_pc;
                cpu->retired++;
                cpu->slice_used++;
                used++;
                seq_icount_check(sc, cpu, used, left);
                if (G_UNLIKELY(nx->pending_control))
                    nx_apply_pending_control(nx);
                if (G_UNLIKELY(m->stop || nx->discard_kept || cpu->state != CPU_RUNNING ||
                               nx->wt_base != 0 || s->dc.last != p || used >= end))
                    break;
            }
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
        if (G_UNLIKELY(m->trace))
            trace_insn_begin(m, cpu, nx->pc, d->insn.rec, SEQ_REC_BYTES);
        if (G_UNLIKELY(lg->mask & (NX_LOG_EXEC | NX_LOG_CPU))) {
            if (nx_log_enabled(lg, NX_LOG_CPU)) {
                GString *g = g_string_new(NULL);
                cpu->ops->dump(cpu, g);
                nx_log_printf(lg, "%s", g->str);
                g_string_free(g, TRUE);
            }
            if (nx_log_enabled(lg, NX_LOG_EXEC))
                seq_log_insn(s, d, NX_LOG_EXEC);
        }
        if (G_UNLIKELY(d->has_debug) && nx_log_enabled(lg, NX_LOG_DEBUG_CMD))
            nx_log_printf(lg, "debug: core=%u pc=0x%016" PRIx64 " cmd=%u hint=%u\n", cpu->index,
                          nx->pc, d->insn.rec[2], d->insn.rec[3]);

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
        SeqStatus st = d->fn(s, d);
        if (st == SEQ_BLOCK) {
            seq_block(s, d);
            break;
        }
        if (st == SEQ_FAULT) {
            seq_take_fault(s);
            break;
        }
        if (st == SEQ_DEBUG)
            break; /* stopped before a watched access; nothing changed */

        /* Retired. */
        s->kept = false;
        if (cpu->state == CPU_BLOCKED)
            cpu->state = CPU_RUNNING;
        nx->block_reason = NX_BLOCK_NONE;
        nx->pc = s->next_pc;
        cpu->retired++;
        cpu->slice_used++;
        used++;
        seq_icount_check(sc, cpu, used, left);
        if (G_UNLIKELY(nx->pending_control))
            nx_apply_pending_control(nx);
    }
out:
    sc->round_retired += used;
    sc->icount += used;
    if (nx->discard_kept) {
        s->kept = false;
        nx->discard_kept = false;
    }
    if (G_UNLIKELY(m->trace))
        trace_insn_end(m, cpu);
    return used;
}

/* ---- NxCpuOps ----------------------------------------------------------- */

static void seq_reset(NxCpu *cpu)
{
    SeqCpu *s = seq_cpu(cpu);
    nx_reset(s->nx);
    s->kept = false;
    s->nx->discard_kept = false;
    s->generation++;
}

static uint64_t seq_get_pc(NxCpu *cpu)
{
    return seq_cpu(cpu)->nx->pc;
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
    NxBlock *nx = s->nx;

    g_string_append_printf(out, "core=%u pc=0x%016" PRIx64 " state=%s retired=%" PRIu64 "\n",
                           cpu->index, nx->pc, cpu_state_name(cpu->state), cpu->retired);
    for (unsigned i = 0; i < 64; i++)
        g_string_append_printf(out, "r%-2u=%08x%s", i, nx->r[i], (i & 7) == 7 ? "\n" : " ");
    if (cpu->state == CPU_FAULTED)
        g_string_append_printf(
            out, "fault=%s(%u) info=%u fault_pc=0x%016" PRIx64 " fault_addr=0x%016" PRIx64 "\n",
            nx_fault_name(cpu->fault.code), cpu->fault.code, cpu->fault.info, cpu->fault_pc,
            cpu->fault.addr);
    g_string_append_printf(out,
                           "wt_base=0x%016" PRIx64 " wt_len=%u tlb hits=%" PRIu64 " misses=%" PRIu64
                           " evictions=%" PRIu64 "\n",
                           nx->wt_base, nx->wt_len, nx->tlb.hits, nx->tlb.misses,
                           nx->tlb.evictions);
}

static unsigned seq_disas(NxCpu *cpu, uint64_t addr, GString *out)
{
    SeqCpu *s = seq_cpu(cpu);
    uint8_t rec[SEQ_REC_BYTES];
    uint64_t pa, bad;

    if (!nx_translate_peek(s->nx, addr, &pa) ||
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
    NxBlock *nx = s->nx;
    if (n < 64)
        return put_le(buf, buflen, nx->r[n], 4);
    switch (n) {
    case SEQ_GDB_PC:
        return put_le(buf, buflen, nx->pc, 8);
    case SEQ_GDB_STATUS: {
        uint64_t st;
        if (nx_read(nx, NX_STATUS, 4, &st, MEMTXATTRS(MEM_REQ_DEBUG, 0)) != MEMTX_OK)
            st = cpu->state;
        return put_le(buf, buflen, st, 4);
    }
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
        s->nx->r[n] = (uint32_t)v;
    } else {
        /* A debugger moving PC drops the kept record (sequencer.md §2.2). */
        s->nx->pc = v;
        s->kept = false;
        if (cpu->state == CPU_BLOCKED) {
            cpu->state = CPU_RUNNING;
            s->nx->block_reason = NX_BLOCK_NONE;
        }
    }
    return width;
}

static void seq_destroy(NxCpu *cpu)
{
    SeqCpu *s = seq_cpu(cpu);
    seq_dcache_destroy(&s->dc);
    if (s->nx && s->nx->cpu == cpu)
        s->nx->cpu = NULL;
    g_free(s);
}

static const NxCpuOps seq_cpu_ops = {
    .arch = "seq",
    .reset = seq_reset,
    .run = seq_run,
    .get_pc = seq_get_pc,
    .block_info = seq_block_info,
    .fault_line = seq_fault_line,
    .fault_signal = seq_fault_signal,
    .dump = seq_dump,
    .disas = seq_disas,
    .gdb_read_reg = seq_gdb_read_reg,
    .gdb_write_reg = seq_gdb_write_reg,
    .destroy = seq_destroy,
};

NxCpu *seq_cpu_create(Machine *m, unsigned index)
{
    SeqCpu *s = g_new0(SeqCpu, 1);
    NxCpu *cpu = &s->cpu;

    cpu->ops = &seq_cpu_ops;
    cpu->m = m;
    cpu->kind = CPU_KIND_SEQ;
    cpu->index = index;
    cpu->state = CPU_RESET;
    s->nx = &m->nx[index];
    s->nx->cpu = cpu;
    s->as = m->as;
    s->attrs = MEMTXATTRS(MEM_REQ_SEQ, index);
    seq_dcache_init(&s->dc);
    /* One hook for all sequencer cores: it walks m->seq. */
    as_set_code_write_hook(m->as, seq_code_write_hook, m);
    return cpu;
}
