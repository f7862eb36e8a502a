/*
 * Pre-decoded instruction cache (design.md "decode once").  Keyed by PA in
 * 4 KiB pages of 64 records; each entry holds the decode verdict of phase D,
 * the SeqInsn and the execute function.  A page is marked with as_mark_code
 * when its first entry is filled; the memory API calls seq_code_write_hook
 * on the next write to it (core store, DMA, loader, debugger) and the page's
 * entries are dropped.  Entries stay allocated until the core is destroyed,
 * so a handler running from an entry that its own store invalidates still
 * reads intact bytes.
 */
#include "target/seq/cpu.h"

#define F(name) seq_field_get(rec, SEQ_F_##name)

/* The executor's dispatch table, generated from the instruction table. */
static const SeqExecFn seq_exec_table[256] = {
#define SEQ_INSN(opc, NAME, mnem, exec, rsv, ...) [opc] = seq_exec_##exec,
#include "target/seq/insn.def"
};

void seq_decode_record(SeqDecoded *d, const uint8_t rec[SEQ_REC_BYTES])
{
    NxFault f = {0};

    memset(&d->insn, 0, sizeof(d->insn));
    if (seq_decode(rec, &d->insn, &f) == SEQ_DECODE_OK && seq_exec_table[F(HDR_OPCODE)]) {
        d->fn = seq_exec_table[F(HDR_OPCODE)];
        d->dfault = (NxFault){0};
    } else {
        d->fn = NULL;
        if (f.code == NX_FAULT_NONE) /* decoder accepted an opcode we cannot run */
            nx_fault_set(&f, NX_FAULT_INVALID_OPCODE, 0, 0);
        d->dfault = f;
    }
    /* The decoder may stop early on a fault: keep the bytes for -d and dumps. */
    memcpy(d->insn.rec, rec, SEQ_REC_BYTES);
    d->own_wait = F(HDR_OPCODE) == SEQ_OP_EVENT_SEMAPHORE;
    d->wait_mode = F(EV_WAIT_MODE);
    d->wait_idx = F(EV_WAIT_IDX);
    d->upd_mode = d->own_wait ? 0 : F(EV_UPD_MODE);
    d->upd_idx = d->own_wait ? 0 : F(EV_UPD_IDX);
    d->ev_value = F(EV_VALUE);
    d->has_events = d->wait_mode != 0 || d->upd_mode != 0;
    d->has_debug = F(HDR_DEBUG_CMD) != 0 || F(HDR_DEBUG_HINT) != 0;
    d->pure = false;
    d->kind = SEQ_K_EXIT;
    memset(&d->m2d, 0, sizeof(d->m2d));
    if (d->fn && !d->has_events) {
        SeqExecFn fast = NULL;
        switch (F(HDR_OPCODE)) {
        case SEQ_OP_ALU_OP:
            fast = seq_alu_fast(&d->insn);
            d->kind = (uint8_t)seq_alu_kind(&d->insn);
            seq_alu_preresolve(d);
            d->pure = true;
            break;
        case SEQ_OP_COMPARE_BRANCH:
            fast = seq_branch_fast(&d->insn);
            d->kind = (uint8_t)seq_branch_kind(&d->insn);
            seq_branch_preresolve(d);
            d->pure = true;
            break;
        case SEQ_OP_MOVE:
        case SEQ_OP_NOP:
            d->pure = true;
            break;
        case SEQ_OP_TENSOR_LOAD:
        case SEQ_OP_TENSOR_STORE:
            fast = seq_mem2d_fast(d);
            break;
        default:
            break;
        }
        if (fast)
            d->fn = fast;
        d->pure = d->pure && !d->has_debug;
    }
    /* The run loop's fast path takes only pure records (cpu.c). */
    if (!d->pure)
        d->kind = SEQ_K_EXIT;
    else if (d->kind == SEQ_K_EXIT)
        d->kind = SEQ_K_CALL;
    d->fast = d->fn && !d->own_wait && !d->wait_mode && !d->has_debug;
}

void seq_dcache_init(SeqDCache *dc)
{
    dc->pages = g_hash_table_new_full(g_int64_hash, g_int64_equal, NULL, g_free);
    dc->last = NULL;
    dc->fills = dc->invalidations = 0;
}

void seq_dcache_destroy(SeqDCache *dc)
{
    if (dc->pages)
        g_hash_table_destroy(dc->pages);
    dc->pages = NULL;
    dc->last = NULL;
}

static SeqDPage *dcache_page(SeqDCache *dc, uint64_t page, bool create)
{
    SeqDPage *p = dc->last;
    if (p && p->page == page)
        return p;
    p = g_hash_table_lookup(dc->pages, &page);
    if (!p && create) {
        p = g_new(SeqDPage, 1);
        p->page = page;
        p->base = page << 12;
        p->valid = 0;
        p->fast = 0;
        p->pure = 0;
        p->marked = false;
        /* No arena epoch matches: reset on first use (jit.h). */
        seq_jit_page_reset(&p->jit, UINT32_MAX);
        for (unsigned i = 0; i <= 64; i++) {
            p->e[i].kind = SEQ_K_EXIT;
            p->e[i].off = (uint16_t)(i * SEQ_REC_BYTES);
        }
        g_hash_table_insert(dc->pages, &p->page, p);
    }
    if (p)
        dc->last = p;
    return p;
}

const SeqDecoded *seq_dcache_get(SeqCpu *s, uint64_t pa, const uint8_t *bytes)
{
    SeqDPage *p = dcache_page(&s->dc, pa >> 12, bytes != NULL);
    unsigned slot = (unsigned)(pa >> 6) & 63;

    if (!p)
        return NULL;
    if (p->valid & (1ull << slot))
        return &p->e[slot];
    if (!bytes)
        return NULL;
    if (!p->marked) {
        as_mark_code(s->as, pa & ~0xFFFull, 4096);
        p->marked = true;
    }
    seq_decode_record(&p->e[slot], bytes);
    p->valid |= 1ull << slot;
    p->fast = (p->fast & ~(1ull << slot)) | (uint64_t)p->e[slot].fast << slot;
    p->pure = (p->pure & ~(1ull << slot)) | (uint64_t)p->e[slot].pure << slot;
    /* A block may start here now (the compiler had seen no record). */
    p->jit.none &= ~(1ull << slot);
    s->dc.fills++;
    return &p->e[slot];
}

static void dcache_drop(SeqDPage *p)
{
    p->valid = 0;
    p->fast = 0;
    p->pure = 0;
    p->marked = false;
    for (unsigned i = 0; i < 64; i++)
        p->e[i].kind = SEQ_K_EXIT;
    /* Compiled code is a cache of these records: it goes with them. */
    seq_jit_page_reset(&p->jit, p->jit.epoch);
}

void seq_dcache_invalidate(SeqDCache *dc, uint64_t addr, uint64_t len)
{
    if (!dc->pages || len == 0)
        return;
    uint64_t first = addr >> 12;
    uint64_t last = (addr + len - 1) >> 12;
    if (last < first) /* wrapped */
        last = UINT64_MAX >> 12;
    dc->invalidations++;
    if (last - first >= g_hash_table_size(dc->pages)) {
        GHashTableIter it;
        gpointer k, v;
        g_hash_table_iter_init(&it, dc->pages);
        while (g_hash_table_iter_next(&it, &k, &v)) {
            SeqDPage *p = v;
            if (p->page >= first && p->page <= last)
                dcache_drop(p);
        }
        return;
    }
    for (uint64_t pg = first;; pg++) {
        SeqDPage *p = g_hash_table_lookup(dc->pages, &pg);
        if (p)
            dcache_drop(p);
        if (pg == last)
            break;
    }
}

void seq_code_write_hook(void *opaque, uint64_t addr, uint64_t len)
{
    Machine *m = opaque;
    if (!m->seq)
        return;
    for (unsigned i = 0; i < m->cfg.nr_seq; i++)
        if (m->seq[i])
            seq_dcache_invalidate(&seq_cpu(m->seq[i])->dc, addr, len);
}
