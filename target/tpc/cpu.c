/*
 * TPC core: creation, launch (tpc.md §7.2), the bundle loop with its
 * read / compute / commit phases (§6.1), LOOP and jumps (§6.2, §6.3), HALT
 * (§6.4) and faults (§6.6), plus the NxCpuOps glue (dump, gdb registers).
 */
#include <inttypes.h>
#include <string.h>
#include <time.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "nxemu/trace.h"
#include "target/tpc/asm.h"
#include "nxemu/debug.h"
#include "nxemu/poison.h"
#include "nxemu/worker.h"
#include "target/tpc/cpu.h"

/* ---- dispatch tables built from the ISA rows ---- */
#define TPC_LD(opc, name, f, t, s, fl) [opc] = tpc_exec_ld_##name,
static const TpcExecFn exec_ld[32] = {
#include "target/tpc/insn-ld.def"
};
#define TPC_SPU(opc, name, f, t, s, fl) [opc] = tpc_exec_spu_##name,
static const TpcExecFn exec_spu[64] = {
#include "target/tpc/insn-spu.def"
};
#define TPC_VPU(opc, name, f, t, s, fl) [opc] = tpc_exec_vpu_##name,
static const TpcExecFn exec_vpu[64] = {
#include "target/tpc/insn-vpu.def"
};
#define TPC_ST(opc, name, f, t, s, fl) [opc] = tpc_exec_st_##name,
static const TpcExecFn exec_st[32] = {
#include "target/tpc/insn-st.def"
};

static const TpcExecFn *const exec_tables[4] = {exec_ld, exec_spu, exec_vpu, exec_st};
static const unsigned exec_sizes[4] = {32, 64, 64, 32};

TpcCpu *tpc_cpu_of(Machine *m, unsigned t)
{
    if (!m->tpc || t >= m->cfg.nr_tpc || !m->tpc[t])
        return NULL;
    return tpc_cpu(m->tpc[t]);
}

/* ---- bundle loop ---- */

/* Stand-in for a slot opcode without an executor: faults when (and only
 * when) the slot is reached, as a table miss at execution time would. */
static bool exec_unimpl(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o)
{
    (void)o;
    unsigned s = (unsigned)(in - b->slot);
    return tpc_fault(c, TPC_FAULT_UNIMPLEMENTED, s | (uint32_t)in->opc << 8, 0);
}

/* Executor view of a freshly decoded bundle (see TpcDCacheEntry). */
static void prepare_entry(TpcDCacheEntry *dc)
{
    const TpcBundle *bp = &dc->b;
    dc->nact = 0;
    dc->spu_jmp = false;
    memset(dc->clean_nw, 0, sizeof(dc->clean_nw));
    for (unsigned s = 0; s < 4; s++) {
        const TpcInsn *in = &bp->slot[s];
        if (!in->desc || in->desc->kind != TPC_KIND_EXEC || in->desc->form == TPC_FORM_HALT)
            continue;
        if (s == TPC_SLOT_SPU && in->desc->form == TPC_FORM_JMP)
            dc->spu_jmp = true;
        TpcExecFn fn = in->opc < exec_sizes[s] ? exec_tables[s][in->opc] : NULL;
        TpcExecFn quick = s == TPC_SLOT_LD   ? tpc_ld_quick(in)
                          : s == TPC_SLOT_ST ? tpc_st_quick(in)
                                             : NULL;
        fn = fn && quick ? quick : fn;
        dc->act[dc->nact] = (uint8_t)s;
        dc->fn[dc->nact++] = fn ? fn : exec_unimpl;
    }
    tpc_direct_plan(dc);
}

static void lfsr_advance(uint32_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 17;
    *x ^= *x << 5;
}

static void finish(TpcCpu *c, uint32_t code, uint32_t info, uint64_t addr)
{
    c->nloops = 0;
    c->loop_pending.active = false;
    c->in_delay_slot = false;
    c->port.finish(c->port.opaque, code, c->pc, info, addr, c->cycles, c->bundles);
    tpc_timing_finish(c->tm);
    c->stall_sum += c->stall_cycles;
    c->hazard_sum += c->hazards;
    if (code) {
        c->parent.state = CPU_FAULTED;
        c->parent.fault = (NxFault){code, info, addr};
        c->parent.fault_pc = c->pc;
        nx_log_mask(&c->m->log, NX_LOG_INT, "tpc: %u fault %s at pc=0x%08" PRIx32 "\n", c->t,
                    tpc_fault_name(code), c->pc);
        machine_fault(c->m, &c->parent);
    } else {
        c->parent.state = CPU_HALTED;
    }
}

/* On a worker thread (nxemu/worker.h): hand the bundle back to the main
 * thread, which runs it in TPC order.  Nothing of it happened: the slots
 * only staged their results (a watchpoint stops a bundle the same way). */
static bool escape(TpcCpu *c)
{
    c->fault.code = 0;
    c->watch_stop = true;
    nx_worker->escaped = true;
    return false;
}

/* The bundle faulted (c->fault): end the kernel, or on a worker thread hand
 * the bundle back (the main thread's run of it faults again). */
static bool stop(TpcCpu *c)
{
    if (G_UNLIKELY(nx_worker))
        return escape(c);
    finish(c, c->fault.code, c->fault.info, c->fault.addr);
    return false;
}

/* May a worker thread commit the bundle's memory write?  Only plain RAM
 * outside marked code; device, configuration and semaphore writes are the
 * main thread's. */
static bool worker_may_commit(TpcCpu *c)
{
    const TpcMemWrite *mw = &c->x.mw;
    switch (mw->kind) {
    case TPC_MW_SLM:
    case TPC_MW_VLM:
        return true;
    case TPC_MW_GLOBAL: {
        nx_worker_mem_enter();
        bool ok = as_host_ptr(c->m->as, mw->pa, mw->len, true, 0) != NULL;
        nx_worker_mem_leave();
        return ok;
    }
    case TPC_MW_TENSOR:
        return mw->host != NULL || tpc_tensor_store_in_ram(c, mw);
    default:
        return false;
    }
}

/* Register encoding (tpc.md §4.2, 8-bit fields) of a staged write, for the
 * BUNDLE_CONFLICT FAULT_INFO. */
static uint32_t write_encoding(const TpcWrite *w)
{
    switch (w->kind) {
    case TPC_WR_S:
        return 64u + w->idx;
    case TPC_WR_SP:
        return 224u + w->idx;
    case TPC_WR_V:
        return w->idx;
    case TPC_WR_VP:
        return 240u + w->idx;
    case TPC_WR_I:
        return 128u + w->idx;
    case TPC_WR_AD:
        return 160u + w->idx;
    default:
        return 0xFF;
    }
}

static bool writes_overlap(const TpcWrite *a, const TpcWrite *b)
{
    if (a->kind != b->kind)
        return false;
    if (a->kind == TPC_WR_SCARRY || a->kind == TPC_WR_VCARRY)
        return true;
    if (a->idx != b->idx)
        return false;
    if (a->kind == TPC_WR_I)
        return (a->mask & b->mask) != 0;
    /* writes to SP0 / VP0 are ignored, so they never conflict */
    return !((a->kind == TPC_WR_SP || a->kind == TPC_WR_VP) && a->idx == 0);
}

/* Two slots writing one register: warn once per PC, or fault in strict mode. */
static bool check_conflicts(TpcCpu *c, TpcDCacheEntry *dc)
{
    bool seen = true;
    for (unsigned k = 0; k < dc->nact; k++)
        seen &= c->x.out[dc->act[k]].nw <= dc->clean_nw[dc->act[k]];
    if (seen)
        return true;
    for (unsigned k1 = 0; k1 < dc->nact; k1++) {
        for (unsigned k2 = k1 + 1; k2 < dc->nact; k2++) {
            const TpcSlotOut *a = &c->x.out[dc->act[k1]], *b = &c->x.out[dc->act[k2]];
            for (unsigned i = 0; i < a->nw; i++) {
                for (unsigned j = 0; j < b->nw; j++) {
                    if (!writes_overlap(&a->w[i], &b->w[j]))
                        continue;
                    if (c->strict)
                        return tpc_fault(c, TPC_FAULT_BUNDLE_CONFLICT, write_encoding(&a->w[i]), 0);
                    if (!g_hash_table_contains(c->conflict_warned, GUINT_TO_POINTER(c->pc + 1))) {
                        if (nx_worker)
                            return false; /* the warning is the main thread's */
                        g_hash_table_add(c->conflict_warned, GUINT_TO_POINTER(c->pc + 1));
                        nx_warn("tpc=%u bundle-conflict pc=0x%08" PRIx32, c->t, c->pc);
                    }
                    return true;
                }
            }
        }
    }
    for (unsigned k = 0; k < dc->nact; k++)
        dc->clean_nw[dc->act[k]] = (uint8_t)c->x.out[dc->act[k]].nw;
    return true;
}

G_STATIC_ASSERT(TPC_VLM_SIZE == POISON_VLM_SIZE);

static void commit_mem(TpcCpu *c)
{
    TpcMemWrite *mw = &c->x.mw;
    switch (mw->kind) {
    case TPC_MW_SLM:
        memcpy(c->slm + mw->off, &mw->val, 4);
        break;
    case TPC_MW_CFG:
        c->port.kv_write(c->port.opaque, mw->off, mw->val);
        break;
    case TPC_MW_VLM:
        if (G_UNLIKELY(c->undo))
            tpc_stretch_keep_vlm(c);
        for (unsigned i = 0; i < mw->len; i++)
            if (mw->lane_en[i])
                c->vlm[mw->off + i] = mw->data[i];
        if (G_UNLIKELY(c->parent.poison))
            poison_vlm_write(c->parent.poison, c->t, mw->off, mw->len, mw->lane_en);
        break;
    case TPC_MW_GLOBAL:
        tpc_global_write(c, mw->pa, &mw->val, mw->len);
        break;
    case TPC_MW_TENSOR:
        tpc_tensor_store_commit(c, mw);
        break;
    case TPC_MW_ASO:
        c->port.sem_add(c->port.opaque, mw->val);
        break;
    default:
        break;
    }
    mw->kind = TPC_MW_NONE;
}

/* The bundle bytes at pc: a pointer straight into RAM when possible (no
 * copy), else a copy into buf. */
static const uint8_t *fetch(TpcCpu *c, uint8_t buf[TPC_BUNDLE])
{
    uint32_t pc = c->pc;
    if (G_LIKELY(c->x.code_host && pc >= c->x.code_lo && (uint64_t)pc + TPC_BUNDLE <= c->x.code_hi))
        return c->x.code_host + (pc - c->x.code_lo);
    uint64_t pa = c->kernel_base + pc;
    if (c->kernel_size && pc >= c->kernel_size) {
        tpc_fault(c, TPC_FAULT_PC_RANGE, 0, pa);
        return NULL;
    }
    nx_worker_mem_enter();
    const uint8_t *p = as_host_ptr(c->m->as, pa, TPC_BUNDLE, false, 0);
    if (p) {
        /* cache the whole kernel when it is one RAM range, else this bundle */
        const uint8_t *k = c->kernel_size
                               ? as_host_ptr(c->m->as, c->kernel_base,
                                             c->kernel_size & ~(TPC_BUNDLE - 1), false, 0)
                               : NULL;
        if (k) {
            c->x.code_host = k;
            c->x.code_lo = 0;
            c->x.code_hi = c->kernel_size & ~(TPC_BUNDLE - 1);
        } else {
            c->x.code_host = p;
            c->x.code_lo = pc;
            c->x.code_hi = pc + TPC_BUNDLE;
        }
        nx_worker_mem_leave();
        return p;
    }
    nx_worker_mem_leave();
    if (nx_worker)
        return NULL; /* not RAM: the main thread fetches it (c->fault.code 0) */
    uint64_t bad;
    if (as_rw_bytes(c->m->as, pa, buf, TPC_BUNDLE, false, MEMTXATTRS(MEM_REQ_TPC, c->t), &bad) !=
        MEMTX_OK) {
        tpc_fault(c, TPC_FAULT_PC_RANGE, 0, pa);
        return NULL;
    }
    return buf;
}

static bool loop_cmp(unsigned cmp, int32_t a, int32_t b)
{
    switch (cmp) {
    case TPC_CMP_GT:
        return a > b;
    case TPC_CMP_GE:
        return a >= b;
    case TPC_CMP_LT:
        return a < b;
    case TPC_CMP_LE:
        return a <= b;
    case TPC_CMP_EQ:
        return a == b;
    default:
        return a != b;
    }
}

static bool loop_reg_ok(TpcCpu *c, unsigned reg, unsigned field)
{
    if (reg < TPC_NR_S)
        return true;
    return tpc_fault(c, TPC_FAULT_ILLEGAL_OPERAND, TPC_SLOT_BUNDLE | field << 4 | reg << 8, 0);
}

/* LOOP bundle at c->pc: decide, and leave the decision pending until the
 * delay slot has executed. */
static bool exec_loop(TpcCpu *c, const TpcLoop *l)
{
    const uint32_t ill = TPC_SLOT_BUNDLE | TPC_OPC_LOOP << 8;
    if (c->in_delay_slot || l->end_offset < 64 || (l->end_offset & 31) || l->cmp > TPC_CMP_NE)
        return tpc_fault(c, TPC_FAULT_ILLEGAL_INSTRUCTION, ill, 0);
    if ((!l->start_imm && !loop_reg_ok(c, l->start_reg, TPC_FIELD_SRC_A)) ||
        (!l->boundary_imm && !loop_reg_ok(c, l->boundary_reg, TPC_FIELD_SRC_B)) ||
        (!l->step_imm && !loop_reg_ok(c, l->step_reg, TPC_FIELD_DEST)))
        return false;
    int32_t start = (int32_t)(l->start_imm ? l->start : c->s[l->start_reg]);
    int32_t bound = (int32_t)(l->boundary_imm ? l->boundary : c->s[l->boundary_reg]);
    int32_t step = (int32_t)(l->step_imm ? l->step : c->s[l->step_reg]);
    uint32_t a = c->pc;
    TpcLoopPending *p = &c->loop_pending;
    bool on = (c->sp[l->pred & 15] ^ (l->polarity ? 1u : 0u)) != 0;
    p->exit_pc = a + l->end_offset + 32;
    p->push = false;
    if (on) {
        unsigned d = c->nloops;
        if (d >= TPC_LOOP_MAX)
            return tpc_fault(c, TPC_FAULT_LOOP_DEPTH, 4, 0);
        c->s[32 + d] = (uint32_t)start;
        p->push = loop_cmp(l->cmp, start, bound);
        p->frame = (TpcLoopFrame){.body = a + 64,
                                  .end = a + l->end_offset,
                                  .bound = bound,
                                  .step = step,
                                  .depth = (uint8_t)d,
                                  .cmp = l->cmp,
                                  .once = l->once};
    }
    p->active = true;
    c->in_delay_slot = true;
    c->pc = a + 32;
    return true;
}

/* After the bundle at e completed (no taken jump): close loops ending there. */
uint32_t tpc_loop_end_checks(TpcCpu *c, uint32_t e, uint32_t next)
{
    while (c->nloops && c->loops[c->nloops - 1].end == e) {
        TpcLoopFrame *f = &c->loops[c->nloops - 1];
        uint32_t *it = &c->s[32 + f->depth];
        *it = *it + (uint32_t)f->step; /* wraps, no signed overflow */
        if (!f->once && loop_cmp(f->cmp, (int32_t)*it, f->bound))
            return f->body;
        c->nloops--;
        next = e + 32;
    }
    return next;
}

void tpc_jump_to(TpcCpu *c, uint32_t target)
{
    c->pc = target;
    while (c->nloops) {
        const TpcLoopFrame *f = &c->loops[c->nloops - 1];
        if (target >= f->body && target <= f->end)
            break;
        c->nloops--;
    }
}

/* One bundle.  Returns false when the core stopped (halt or fault). */
/* A write hit marked pages (and cleared their marks): every TPC compares
 * its bundles' bytes again, at every fetch, until its next launch marks its
 * kernel anew.  Marking again at once would make a kernel that stores into
 * its own pages (or shares a page with a tensor) pay a re-mark, and the loss
 * of every cached host span, per store. */
static void tpc_code_write_hook(void *opaque, uint64_t addr, uint64_t len)
{
    Machine *m = opaque;
    for (unsigned t = 0; t < m->cfg.nr_tpc; t++) {
        TpcCpu *c = tpc_cpu_of(m, t);
        /* Other pages (a sequencer patching its own program) are none of
         * this core's business; its own are the kernel's pages, whole: a
         * write next to the kernel in one of them unmarked it too. */
        uint64_t page = (uint64_t)1 << MEM_CODE_PAGE_BITS;
        uint64_t lo = c ? c->kernel_base & ~(page - 1) : 0;
        uint64_t hi = c ? (c->kernel_base + c->kernel_size + page - 1) & ~(page - 1) : 0;
        if (c && c->x.code_marked && addr < hi && lo < addr + len) {
            c->x.code_gen++;
            c->x.code_marked = false;
        }
    }
}

static void mark_kernel(TpcCpu *c)
{
    c->x.code_marked = c->x.code_hooked && c->kernel_size != 0;
    if (c->x.code_marked)
        as_mark_code(c->m->as, c->kernel_base, c->kernel_size);
}

/* -d in_asm / -d exec line, the sequencer's format with tpc=N for core=N:
 * "exec: tpc=0 0x00000020: <bundle disassembly>" (docs/tracing.rst). */
void tpc_log_bundle(TpcCpu *c, const uint8_t *raw, const char *what)
{
    GString *d = g_string_new(NULL);
    tpc_disas_bundle_gs(d, raw, c->pc, NULL, NULL);
    nx_log_printf(&c->m->log, "%s: tpc=%u 0x%08" PRIx32 ": %s\n", what, c->t, c->pc, d->str);
    g_string_free(d, TRUE);
}

bool tpc_step_one(TpcCpu *c)
{
    uint8_t rawbuf[TPC_BUNDLE];
    c->fault.code = 0;
    const uint8_t *raw = fetch(c, rawbuf);
    if (!raw)
        return stop(c);
    unsigned dci = (c->pc / TPC_BUNDLE) % TPC_DCACHE_SIZE;
    TpcDCacheEntry *dc = &c->x.dcache[dci];
    if (G_UNLIKELY(c->undo))
        tpc_stretch_keep_entry(c, dci); /* (changed below) */
    bool decoded = false;
    if (!dc->valid || !tpc_bundle_eq(dc->raw, raw)) {
        decoded = true;
        if (G_UNLIKELY(c->x.cov_n[dc - c->x.dcache]))
            tpc_cov_flush_entry(c, dc); /* (counted with the old bytes) */
        dc->valid = dc->direct = false;
        if (!tpc_decode_bundle(raw, &dc->b, &c->fault))
            return stop(c);
        memcpy(dc->raw, raw, TPC_BUNDLE);
        prepare_entry(dc);
        dc->valid = true;
        if (nx_log_enabled(&c->m->log, NX_LOG_IN_ASM))
            tpc_log_bundle(c, raw, "in_asm");
    }
    dc->gen = c->x.code_gen; /* the bytes were just compared (or decoded) */
    dc->gen_pc = c->pc;    /* entries are shared by PCs 8 KiB apart (cpu.h) */
    const TpcBundle *bp = &dc->b;
    if (G_UNLIKELY(bp->halt) && nx_worker)
        return escape(c); /* the kernel's end (its completion) is the main thread's */
    if (G_UNLIKELY(c->parent.trace))
        trace_insn_begin(c->m, &c->parent, c->pc, raw, TPC_BUNDLE);
    if (nx_log_enabled(&c->m->log, NX_LOG_EXEC))
        tpc_log_bundle(c, raw, "exec");
    /* timing model (timing.h): stalls, then old values around each slot */
    TpcTiming *tm = c->tm;
    if (G_UNLIKELY(tm))
        tpc_timing_begin(c, dci, bp, decoded);

    if (bp->is_loop) {
        if (G_UNLIKELY(tm))
            tpc_timing_enter(c, dci, TPC_SLOT_BUNDLE);
        bool ok = exec_loop(c, &bp->loop);
        if (G_UNLIKELY(tm))
            tpc_timing_leave(c, TPC_SLOT_BUNDLE);
        if (!ok)
            return stop(c);
        c->cycles++;
        c->bundles++;
        c->parent.retired++;
        return true;
    }

    bool delay = c->in_delay_slot;
    /* only the executing slots' staging is reset, used and committed */
    c->x.mw.kind = TPC_MW_NONE;
    if (delay && bp->halt)
        goto ill_delay;
    unsigned nwriters = 0, nact = dc->nact;
    bool bad_jmp = delay && dc->spu_jmp, lfsr_s = false, lfsr_v = false;
    for (unsigned k = 0; k < nact; k++) {
        unsigned s = dc->act[k];
        if (G_UNLIKELY(bad_jmp) && s == TPC_SLOT_SPU)
            goto ill_delay;
        TpcSlotOut *o = &c->x.out[s];
        o->nw = 0;
        o->halt = o->jump = o->lfsr_s_read = o->lfsr_v_read = false;
        if (G_UNLIKELY(tm))
            tpc_timing_enter(c, dci, s);
        bool ok = dc->fn[k](c, bp, &bp->slot[s], o);
        if (G_UNLIKELY(tm))
            tpc_timing_leave(c, s);
        if (G_UNLIKELY(!ok)) {
            if (G_UNLIKELY(!c->fault.code)) {
                /* a gdb watchpoint before the access: not retired */
                c->watch_stop = true;
                return false;
            }
            return stop(c);
        }
        nwriters += o->nw != 0;
        lfsr_s |= o->lfsr_s_read;
        lfsr_v |= o->lfsr_v_read;
    }
    /* a conflict needs two slots writing registers */
    if (nwriters > 1 && !check_conflicts(c, dc))
        return stop(c);
    if (G_UNLIKELY(nx_worker) && c->x.mw.kind != TPC_MW_NONE && !worker_may_commit(c))
        return escape(c);

    /* commit: LD, SPU, VPU, ST registers, then the store slot's memory */
    if (G_UNLIKELY(tm) && nwriters)
        tpc_timing_commit(c, dci, dc->act, nact);
    if (nwriters)
        for (unsigned k = 0; k < nact; k++)
            tpc_commit_slot(c, &c->x.out[dc->act[k]]);
    if (c->x.mw.kind != TPC_MW_NONE)
        commit_mem(c);
    if (lfsr_s)
        lfsr_advance(&c->lfsr_s);
    if (lfsr_v)
        for (unsigned i = 0; i < 64; i++)
            lfsr_advance(&c->lfsr_v[i]);
    c->cycles++;
    c->bundles++;
    c->parent.retired++;

    if (bp->halt) {
        finish(c, 0, 0, 0);
        return false;
    }
    uint32_t e = c->pc, next = e + 32;
    const TpcSlotOut *spu = &c->x.out[TPC_SLOT_SPU];
    if (dc->spu_jmp && spu->jump) { /* only JMP executors set jump */
        tpc_jump_to(c, spu->jump_pc);
        return true;
    }
    if (delay) {
        TpcLoopPending *p = &c->loop_pending;
        c->in_delay_slot = false;
        if (p->active) {
            p->active = false;
            if (p->push) {
                c->loops[c->nloops++] = p->frame;
                next = p->frame.body;
            } else {
                next = p->exit_pc;
            }
        }
    }
    c->pc = tpc_loop_end_checks(c, e, next);
    return true;

ill_delay:
    tpc_fault(c, TPC_FAULT_ILLEGAL_INSTRUCTION, TPC_SLOT_SPU | (uint32_t)bp->slot[1].opc << 8, 0);
    return stop(c);
}

/* Make this slice's non-temporal tensor stores visible to other threads
 * (a viewer window) in order, as ordinary stores would be. */
static void fence_stores(TpcCpu *c)
{
#if defined(__SSE2__)
    if (c->x.nt_stores) {
        _mm_sfence();
        c->x.nt_stores = false;
    }
#endif
}

static uint64_t cpu_step(TpcCpu *c, uint64_t max_bundles)
{
    uint64_t n = 0;
    c->x.code_host = NULL; /* see TpcExec.code_host */
    /* the direct loop has no timing hook: the model runs the general path;
     * an attached debugger needs no per-bundle check beyond this core's
     * breakpoints, which the direct loop compares itself, and -d exec and
     * the trace observe the direct loop too */
    uint64_t bps[G_N_ELEMENTS(c->x.bp_pc)];
    /* the checking mode looks at every tensor access on the general path */
    int nbp = c->tm || c->parent.check
                  ? -1
                  : nx_debug_cpu_breakpoints(c->m, &c->parent, bps, G_N_ELEMENTS(bps));
    if (nbp >= 0) {
        c->x.nbp = nbp;
        for (int i = 0; i < nbp; i++)
            c->x.bp_pc[i] = (uint32_t)bps[i];
        n = tpc_run_quiet(c, max_bundles);
        if (G_UNLIKELY(c->parent.trace))
            trace_insn_end(c->m, &c->parent); /* the slice's last staged bundle */
        fence_stores(c);
        return n;
    }
    /* n counts cycles: a bundle is one plus its interlock stalls */
    n = c->cycle_debt;
    c->cycle_debt = 0;
    while (n < max_bundles && c->parent.state == CPU_RUNNING && !c->m->stop) {
        if (nx_debug_should_stop(c->m, &c->parent, c->pc))
            break; /* gdb breakpoint: the bundle at pc is not executed */
        uint64_t stalls = c->stall_cycles;
        n++;
        bool ok = tpc_step_one(c);
        n += c->stall_cycles - stalls;
        if (!ok) {
            if (G_UNLIKELY(c->watch_stop)) {
                c->watch_stop = false;
                n--; /* abandoned: nothing of it happened (its stall did) */
            }
            break;
        }
    }
    if (n > max_bundles && c->parent.state == CPU_RUNNING) {
        c->cycle_debt = n - max_bundles; /* a stall crossed the slice's end */
        n = max_bundles;
    }
    if (G_UNLIKELY(c->parent.trace))
        trace_insn_end(c->m, &c->parent);
    fence_stores(c);
    return n;
}

uint64_t tpc_cpu_step(TpcCpu *c, uint64_t max_bundles)
{
    if (G_LIKELY(!c->x.time_host))
        return cpu_step(c, max_bundles);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    uint64_t n = cpu_step(c, max_bundles);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    c->x.host_ns += (uint64_t)((t1.tv_sec - t0.tv_sec) * 1000000000ll + (t1.tv_nsec - t0.tv_nsec));
    return n;
}

/* ---- launch ---- */

void tpc_cpu_launch(Machine *m, unsigned t)
{
    TpcCpu *c = tpc_cpu_of(m, t);
    if (!c) {
        nx_warn("TPC %u: EXECUTE ignored: no such TPC core", t);
        return;
    }
    const TpcLaunch *l = c->port.latched;
    unsigned nv = (l->config >> 2) & 0x3Fu;
    if (nv == 0 || nv > 32)
        nv = 32;
    memset(c->s, 0, sizeof(c->s));
    for (unsigned i = 0; i < nv; i++)
        c->s[i] = l->srf[i];
    memset(c->sp, 0, sizeof(c->sp));
    c->sp[0] = 1; /* (SP0 reads as 1: TpcCpu.sp) */
    for (unsigned i = 0; i < TPC_NR_V; i++)
        memset(c->v[i], 0, TPC_VBYTES);
    memset(c->vp, 0, sizeof(c->vp));
    memset(c->irf, 0, sizeof(c->irf));
    for (unsigned d = 0; d < 5; d++) {
        c->irf[0][d] = (int32_t)l->tid_base[d];
        c->irf[1][d] = (int32_t)(l->tid_size[d] ? l->tid_size[d] : 1u);
    }
    for (unsigned i = 0; i < TPC_NR_AD; i++)
        c->ad[i] = (TpcAddrReg){0, 4, 0};
    c->s_carry = 0;
    memset(c->v_carry, 0, sizeof(c->v_carry));
    c->nloops = 0;
    c->loop_pending.active = false;
    c->in_delay_slot = false;
    c->lfsr_s = 0x2545F491u;
    for (unsigned i = 0; i < 64; i++)
        c->lfsr_v[i] = 0x9E3779B9u * (i + 1);
    if (c->race)
        tpc_race_launch(c->race);
    c->pc = 0;
    c->kernel_base = l->kernel_base;
    c->kernel_size = l->kernel_size;
    c->x.code_host = NULL; /* the launch may come from a CFG write mid-slice */
    c->x.code_gen++;       /* another kernel may sit at the same offsets */
    mark_kernel(c);
    c->vlm_size = (l->config & 1u) ? TPC_VLM_SMALL : TPC_VLM_SIZE;
    c->cycles = c->bundles = 0;
    c->stall_cycles = c->hazards = c->cycle_debt = 0;
    if (c->tm)
        tpc_timing_reset(c->tm, machine_vtime(m));
    c->parent.state = CPU_RUNNING;
    if (c->kernel_base % TPC_BUNDLE) {
        finish(c, TPC_FAULT_PC_RANGE, 0, c->kernel_base);
        return;
    }
}

void tpc_cpu_set_strict(Machine *m, bool strict)
{
    for (unsigned t = 0; t < m->cfg.nr_tpc; t++) {
        TpcCpu *c = tpc_cpu_of(m, t);
        if (c)
            c->strict = strict;
    }
}

/* ---- NxCpuOps ---- */

static void tpc_set_modes(NxCpu *cpu, const NxCpuModes *mo)
{
    TpcCpu *c = tpc_cpu(cpu);
    Machine *m = cpu->m;
    if (mo->strict)
        c->strict = true;
    tpc_cpu_timing_set(m, c, (TpcTimingMode)mo->timing, mo->hazard_warn);
}

static void tpc_reset(NxCpu *cpu)
{
    TpcCpu *c = tpc_cpu(cpu);
    cpu->state = CPU_RESET;
    c->x.code_host = NULL;
    c->pc = 0;
    c->nloops = 0;
    c->loop_pending.active = false;
    c->in_delay_slot = false;
}

static uint64_t tpc_run(NxCpu *cpu, uint64_t budget)
{
    TpcCpu *c = tpc_cpu(cpu);
    uint64_t b0 = c->parent.retired;
    /* a stretch run in parallel: stores copy their pages first */
    c->undo = nx_worker && nx_worker->undo ? nx_worker : NULL;
    uint64_t n = tpc_cpu_step(c, budget);
    c->undo = NULL;
    /* bundles (with the timing model n also counts interlock stalls) */
    uint64_t r = c->tm ? c->parent.retired - b0 : n;
    if (nx_worker)
        nx_worker->retired += r; /* the main thread adds it in TPC order */
    else
        c->m->sched.round_retired += r;
    return n;
}

/* Not with the timing model: its HBM ledger is shared by all TPCs and
 * must see their accesses in (round, TPC) order (timing.c). */
static bool tpc_worker_ok(NxCpu *cpu)
{
    return !tpc_cpu(cpu)->tm;
}

static uint64_t tpc_get_pc(NxCpu *cpu)
{
    return tpc_cpu(cpu)->pc;
}

static void tpc_block_info(NxCpu *cpu, GString *out) {}

static void tpc_destroy(NxCpu *cpu)
{
    TpcCpu *c = tpc_cpu(cpu);
    g_hash_table_destroy(c->conflict_warned);
    tpc_timing_free(c->tm);
    tpc_jit_free(c);
    tpc_stretch_free(c);
    g_free(c->block);
}

static const NxCpuOps tpc_ops = {
    .arch = "tpc",
    .reset = tpc_reset,
    .run = tpc_run,
    .get_pc = tpc_get_pc,
    .block_info = tpc_block_info,
    .fault_line = tpc_fault_line,
    .fault_signal = tpc_fault_signal,
    .dump = tpc_dump,
    .stats = tpc_stats,
    .disas = tpc_disas,
    .gdb_read_reg = tpc_gdb_read_reg,
    .gdb_write_reg = tpc_gdb_write_reg,
    .trace = &tpc_trace_ops,
    .set_modes = tpc_set_modes,
    .worker_ok = tpc_worker_ok,
    .stretch_begin = tpc_stretch_begin,
    .stretch_accesses = tpc_stretch_accesses,
    .stretch_code = tpc_stretch_code,
    .stretch_restore = tpc_stretch_restore,
    .stretch_end = tpc_stretch_end,
    .destroy = tpc_destroy,
};

NxCpu *tpc_cpu_create(Machine *m, unsigned index, const TpcPort *port)
{
    /* SLM/VLM are zero at power-on and persist across launches.  Aligned to
     * the aligned(64) vector members: g_malloc0 gives 16 bytes, and a
     * -march=native build uses aligned 64-byte moves on them.  Over-allocated
     * rather than g_aligned_alloc0, which memsets all ~190 KB: calloc's
     * fresh pages are zero already, and a TPC that never runs a kernel
     * should not cost start-up ~45 page faults. */
    void *block = g_malloc0(sizeof(TpcCpu) + _Alignof(TpcCpu));
    TpcCpu *c = (TpcCpu *)(((uintptr_t)block + _Alignof(TpcCpu) - 1) &
                           ~(uintptr_t)(_Alignof(TpcCpu) - 1));
    c->block = block;
    c->parent.ops = &tpc_ops;
    c->parent.m = m;
    c->parent.kind = CPU_KIND_TPC;
    c->parent.index = index;
    c->parent.state = CPU_RESET;
    c->m = m;
    c->t = index;
    c->port = *port;
    c->vlm_size = TPC_VLM_SIZE;
    c->sp[0] = 1;
    for (unsigned i = 0; i < TPC_NR_V; i++)
        c->v[i] = c->vstore[i];
    for (unsigned s = 0; s < 4; s++)
        for (unsigned k = 0; k < 2; k++)
            c->x.out[s].vbuf[k] = c->vstore[TPC_NR_V + 2 * s + k];
    tpc_lane_id_init(c);
    c->conflict_warned = g_hash_table_new(g_direct_hash, g_direct_equal);
    c->x.jit_on = (uint8_t)tpc_jit_enabled();
    /* one hook for all TPCs of the machine (installed once) */
    c->x.code_hooked = as_set_code_write_hook(m->as, tpc_code_write_hook, m);
    if (!c->x.code_hooked)
        nx_warn("TPC %u: no code-write hook left; bundles are compared at every fetch", index);
    return &c->parent;
}
