/*
 * TENSOR_LOAD (0xAA) and TENSOR_STORE (0xAB): the mem_2d walk
 * (sequencer.md §8.9, seed 000_70afd1ac08d3020b).  Phase E computes every
 * element address, checks the 16 MiB window rule, makes the one TLB lookup
 * and checks every element before anything is written, so a fault leaves
 * no trace but the TLB's.
 */
#include "target/seq/cpu.h"

#define F(name)     seq_field_get(r, SEQ_F_##name)
#define FA(name, k) seq_field_get_at(r, SEQ_F_##name, k)

#define MEM2D_MAX 32

/* The walk of sequencer.md §8.9 in closed form: element k = (i0, i1) with
 * k = i1*n0 + i0 lies at start + i0*s0 + i1*s1 (strides in bytes here). */
typedef struct Mem2dWalk {
    unsigned n0, n1, n;     /* elements: n0 inner, n1 outer, n = n0*n1 */
    unsigned size;          /* bytes per element */
    int64_t s0, s1;         /* strides in bytes */
    int64_t minoff, maxoff; /* extreme element offsets from start */
    uint64_t start;         /* resolved start (Neuron address) */
    bool local;             /* window 0: the own NX block */
    uint64_t pa;            /* translated case: PA of start */
} Mem2dWalk;

static unsigned mem2d_size(uint8_t dtype)
{
    switch (dtype) {
    case SEQ_DT_U64:
        return 8;
    case SEQ_DT_I8:
    case SEQ_DT_U8:
        return 1;
    case SEQ_DT_I16:
    case SEQ_DT_U16:
        return 2;
    default:
        return 4;
    }
}

static inline int64_t elem_off(const Mem2dWalk *w, unsigned k)
{
    return (int64_t)(k % w->n0) * w->s0 + (int64_t)(k / w->n0) * w->s1;
}

static inline uint64_t elem_addr(const Mem2dWalk *w, unsigned k)
{
    return w->start + (uint64_t)elem_off(w, k);
}

/* Within one 16 MiB window (checked by mem2d_walk), PA and Neuron address
 * differ by a constant. */
static inline uint64_t elem_pa(const Mem2dWalk *w, unsigned k)
{
    return w->pa + (uint64_t)elem_off(w, k);
}

/* The window rule (sequencer.md §8.9) over the extremes of the walk. Exact
 * arithmetic: it sees through 2^64 wraps. */
static bool mem2d_window_ok(uint64_t start, int64_t minoff, int64_t maxoff, unsigned size)
{
    __int128 lo = (__int128)start + minoff;
    __int128 hi = (__int128)start + maxoff + size - 1;
    return !(lo < 0 || hi >= ((__int128)1 << 64) || (lo >> 24) != (hi >> 24));
}

/* The one TLB lookup and, for window 0, the per-element checks. */
static SeqStatus mem2d_translate(SeqCpu *s, NxAccess acc, Mem2dWalk *w)
{
    if (!seq_translate(s, w->start, acc, &w->pa, &w->local))
        return SEQ_FAULT;
    if (w->local) {
        for (unsigned k = 0; k < w->n; k++)
            if (!seq_local_ok(elem_addr(w, k), w->size))
                return seq_fault(s, NX_FAULT_BUS_ERROR, 0, elem_addr(w, k));
    }
    return SEQ_OK;
}

/* Resolve and check the walk from the record (no translation yet). */
static SeqStatus mem2d_walk(SeqCpu *s, const uint8_t *r, Mem2dWalk *w)
{
    w->n0 = F(M2D_N0);
    w->n1 = F(M2D_N1);
    w->n = w->n0 * w->n1;
    w->size = mem2d_size(F(M2D_DTYPE));
    w->start = seq_addr8_resolve(s, seq_field_ptr(r, SEQ_F_M2D_ADDR));
    if (!seq_addr8_is_imm(seq_field_ptr(r, SEQ_F_M2D_ADDR)) && (w->start & (w->size - 1)))
        return seq_fault(s, NX_FAULT_MISALIGNED, 0, w->start);
    /* The decoder guarantees 1 <= n0, n1 and n0*n1 <= 32. */
    if (w->n0 == 0 || w->n1 == 0 || w->n > MEM2D_MAX)
        return seq_fault(s, NX_FAULT_INVALID_INSTRUCTION, 0, 0); /* decoder's job; inert */

    w->s0 = (int64_t)(int32_t)F(M2D_S0) * w->size;
    w->s1 = (int64_t)(int32_t)F(M2D_S1) * w->size;
    /* A full grid: the extremes are the sums of the per-axis extremes. */
    int64_t e0 = (int64_t)(w->n0 - 1) * w->s0, e1 = (int64_t)(w->n1 - 1) * w->s1;
    w->minoff = MIN(e0, 0) + MIN(e1, 0);
    w->maxoff = MAX(e0, 0) + MAX(e1, 0);

    if (!mem2d_window_ok(w->start, w->minoff, w->maxoff, w->size))
        return seq_fault(s, NX_FAULT_WINDOW_CROSSING, 0, w->start);
    return SEQ_OK;
}

/* Host bytes of [lo, lo + len) from the core's cached span, refreshed on a
 * miss.  A write span of a region holding code covers one page
 * (as_host_span): adjacent spans that are contiguous on both sides are
 * merged, so an access across a page boundary keeps hitting.  A merged span
 * is valid for as long as its parts are (one generation). */
static uint8_t *mem2d_span(SeqCpu *s, uint64_t lo, uint64_t len, bool is_write)
{
    MemHostSpan *sp = is_write ? &s->wr_span : &s->rd_span;
    uint8_t *h = mem_span_ptr(sp, lo, len);
    if (G_LIKELY(h))
        return h;
    if (!as_host_span(s->as, lo, is_write, sp))
        return NULL;
    while (!(h = mem_span_ptr(sp, lo, len))) {
        MemHostSpan next;
        uint64_t end = sp->lo + sp->len;
        if (end == 0 || end >= lo + len || !as_host_span(s->as, end, is_write, &next) ||
            next.lo != end || next.host != sp->host + sp->len || next.gen != sp->gen)
            return NULL;
        sp->len += next.len;
    }
    return h;
}

/* Host pointer to the lowest element's byte when every element lies in one
 * RAM range that may be accessed directly (for writes: no code page); what
 * as_host_ptr would give, from the cached spans when they cover it. */
static uint8_t *mem2d_host(SeqCpu *s, const Mem2dWalk *w, bool is_write)
{
    uint64_t lo = w->pa + (uint64_t)w->minoff;
    uint64_t len = (uint64_t)(w->maxoff - w->minoff) + w->size;
    uint8_t *h = mem2d_span(s, lo, len, is_write);
    return h ? h : as_host_ptr(s->as, lo, len, is_write, 0);
}

static inline uint64_t ld_host(const uint8_t *p, unsigned size)
{
    switch (size) {
    case 1:
        return p[0];
    case 2:
        return seq_le16(p);
    case 4:
        return seq_le32(p);
    default:
        return seq_le64(p);
    }
}

static inline void st_host(uint8_t *p, unsigned size, uint64_t v)
{
    switch (size) {
    case 1:
        p[0] = (uint8_t)v;
        break;
    case 2: {
        uint16_t x = GUINT16_TO_LE((uint16_t)v);
        memcpy(p, &x, 2);
        break;
    }
    case 4: {
        uint32_t x = GUINT32_TO_LE((uint32_t)v);
        memcpy(p, &x, 4);
        break;
    }
    default: {
        uint64_t x = GUINT64_TO_LE(v);
        memcpy(p, &x, 8);
        break;
    }
    }
}

/* ---- the walk of a pre-resolved record ---------------------------------- */

/* The walk of a qualifying record (seq_mem2d_fast) from its decoded entry:
 * what mem2d_walk computes for it, without re-reading the record. */
static inline void m2d_walk_pre(const SeqM2dPre *q, Mem2dWalk *w)
{
    w->n0 = q->n0;
    w->n1 = q->n1;
    w->n = q->n;
    w->size = 4;
    w->s0 = q->s0;
    w->s1 = q->s1;
    w->minoff = q->minoff;
    w->maxoff = q->maxoff;
    w->start = q->start;
}

/* mem2d_translate with the common case inline: translation off and not
 * window 0 (no TLB lookup, so nothing to count), where the PA is the
 * address. */
static inline SeqStatus m2d_translate(SeqCpu *s, NxAccess acc, Mem2dWalk *w)
{
    if (G_LIKELY(s->regs->wt_base == 0 && (w->start >> 24) != 0)) {
        w->pa = w->start;
        w->local = false;
        return SEQ_OK;
    }
    return mem2d_translate(s, acc, w);
}

/* mem2d_host with the cached span inline. */
static inline uint8_t *m2d_host(SeqCpu *s, const Mem2dWalk *w, bool is_write)
{
    const MemHostSpan *sp = is_write ? &s->wr_span : &s->rd_span;
    uint8_t *h =
        mem_span_ptr(sp, w->pa + (uint64_t)w->minoff, (uint64_t)(w->maxoff - w->minoff) + w->size);
    return G_LIKELY(h) ? h : mem2d_host(s, w, is_write);
}

/* Copy n 4-byte words (no overlap): fixed-size pieces the compiler turns
 * into plain moves, rather than a library call per short row. */
static inline void m2d_copy_words(void *dst, const void *src, unsigned n)
{
    uint8_t *dp = dst;
    const uint8_t *sp = src;
    for (; n >= 4; n -= 4, dp += 16, sp += 16)
        memcpy(dp, sp, 16);
    for (; n; n--, dp += 4, sp += 4)
        memcpy(dp, sp, 4);
}

/*
 * The walk, checked and translated: from the record (pre false) or from
 * the decoded entry of a record seq_mem2d_fast accepted (pre true: 4-byte
 * elements, immediate address, valid shape, no events), which gives the
 * same walk and the same faults in the same order.
 */
SEQ_SEM_INLINE SeqStatus m2d_begin(SeqCpu *s, const SeqDecoded *d, NxAccess acc, bool pre,
                                   Mem2dWalk *w)
{
    if (pre) {
        m2d_walk_pre(&d->m2d, w);
        if (G_UNLIKELY(!d->m2d.window_ok))
            return seq_fault(s, NX_FAULT_WINDOW_CROSSING, 0, w->start);
    } else if (mem2d_walk(s, d->insn.rec, w) != SEQ_OK) {
        return SEQ_FAULT;
    }
    return m2d_translate(s, acc, w);
}

/* ---- TENSOR_LOAD -------------------------------------------------------- */

/*
 * Phases E and U of TENSOR_LOAD, written once.  seq_exec_tensor_load runs
 * it on any record (pre false); tld32 is its instantiation for the records
 * of seq_mem2d_fast (pre true), where the element size is a constant 4 and
 * there are no events, so the compiler keeps only the direct path.
 */
SEQ_SEM_INLINE SeqStatus tld_exec(SeqCpu *s, const SeqDecoded *d, bool pre)
{
    const uint8_t *r = d->insn.rec;
    uint32_t *R = s->regs->r;
    Mem2dWalk w;
    uint64_t v[MEM2D_MAX];

    if (m2d_begin(s, d, NX_ACC_READ, pre, &w) != SEQ_OK)
        return SEQ_FAULT;
    const unsigned size = pre ? 4 : w.size;
    const bool events = pre ? false : d->has_events;

    if (G_UNLIKELY(s->cpu.m->debug) && !w.local)
        for (unsigned i = 0; i < w.n; i++)
            if (seq_watch(s, elem_pa(&w, i), size, false))
                return SEQ_DEBUG;

    /* All elements are read first (reads have no side effects). */
    const uint8_t *h = w.local ? NULL : m2d_host(s, &w, false);
    if (G_LIKELY(h) && size == 4 && !events) {
        /* The common case straight into the registers: RAM reads cannot
         * fail, and without events nothing comes between the reads and the
         * register writes, which keep walk order (a register named twice
         * gets its last element). */
        const uint8_t *row = h - w.minoff;
        if (pre && d->m2d.regs_seq && w.s0 == 4 && G_BYTE_ORDER == G_LITTLE_ENDIAN) {
            /* Distinct consecutive registers: a row is one copy. */
            uint32_t *dst = R + d->m2d.reg0;
            for (unsigned i1 = 0; i1 < w.n1; i1++, row += w.s1, dst += w.n0)
                m2d_copy_words(dst, row, w.n0);
            return SEQ_OK;
        }
        unsigned k = 0;
        for (unsigned i1 = 0; i1 < w.n1; i1++, row += w.s1) {
            const uint8_t *e = row;
            for (unsigned i0 = 0; i0 < w.n0; i0++, k++, e += w.s0)
                R[FA(M2D_DATA, k) & 63] = seq_le32(e);
        }
        return SEQ_OK;
    }
    if (w.local) {
        for (unsigned i = 0; i < w.n; i++)
            if (seq_local_read(s, elem_addr(&w, i), size, &v[i]) != MEMTX_OK)
                return seq_fault(s, NX_FAULT_BUS_ERROR, 0, elem_addr(&w, i));
    } else if (h) {
        unsigned k = 0;
        for (unsigned i1 = 0; i1 < w.n1; i1++) {
            const uint8_t *row = h + (i1 * w.s1 - w.minoff);
            for (unsigned i0 = 0; i0 < w.n0; i0++, k++)
                v[k] = ld_host(row + i0 * w.s0, size);
        }
    } else {
        for (unsigned i = 0; i < w.n; i++)
            if (!seq_pa_access_ok(s, elem_pa(&w, i), size) ||
                as_read(s->as, elem_pa(&w, i), size, &v[i], s->attrs) != MEMTX_OK)
                return seq_fault(s, NX_FAULT_BUS_ERROR, 0, elem_addr(&w, i));
    }

    const uint8_t dtype = pre ? SEQ_DT_U32 : F(M2D_DTYPE);
    seq_u_pre(s, d);
    for (unsigned i = 0; i < w.n; i++) {
        unsigned reg = FA(M2D_DATA, i) & 63;
        switch (dtype) {
        case SEQ_DT_I8:
            R[reg] = (uint32_t)(int32_t)(int8_t)v[i];
            break;
        case SEQ_DT_I16:
            R[reg] = (uint32_t)(int32_t)(int16_t)v[i];
            break;
        case SEQ_DT_U64: /* even/odd pair, low half in the even register */
            R[reg] = (uint32_t)v[i];
            R[(reg + 1) & 63] = (uint32_t)(v[i] >> 32);
            break;
        default:
            R[reg] = (uint32_t)v[i];
            break;
        }
    }
    seq_u_post(s, d);
    return SEQ_OK;
}

SeqStatus seq_exec_tensor_load(SeqCpu *s, const SeqDecoded *d)
{
    return tld_exec(s, d, false);
}

static SeqStatus tld32(SeqCpu *s, const SeqDecoded *d)
{
    return tld_exec(s, d, true);
}

/* ---- TENSOR_STORE ------------------------------------------------------- */

/* Phases E and U of TENSOR_STORE, written once; instantiated as
 * tld_exec is (tst32: from registers, 4-byte elements, no events). */
SEQ_SEM_INLINE SeqStatus tst_exec(SeqCpu *s, const SeqDecoded *d, bool pre)
{
    const uint8_t *r = d->insn.rec;
    const uint32_t *R = s->regs->r;
    Mem2dWalk w;
    uint64_t v[MEM2D_MAX];

    if (m2d_begin(s, d, NX_ACC_WRITE, pre, &w) != SEQ_OK)
        return SEQ_FAULT;
    const unsigned size = pre ? 4 : w.size;
    const bool events = pre ? false : d->has_events;
    const bool imm = pre ? false : F(M2D_DATASRC) == 1;

    uint8_t *h = w.local ? NULL : m2d_host(s, &w, true);
    if (G_LIKELY(h) && size == 4 && !imm && !events) {
        /* Registers straight to RAM in walk order (later elements win where
         * they overlap): the sources are registers, which the writes cannot
         * change.  No watchpoint is set (else there is no host pointer). */
        uint8_t *row = h - w.minoff;
        if (pre && d->m2d.regs_seq && G_BYTE_ORDER == G_LITTLE_ENDIAN) {
            const uint32_t *src = R + d->m2d.reg0;
            if (w.s0 == 4) {
                for (unsigned i1 = 0; i1 < w.n1; i1++, row += w.s1, src += w.n0)
                    m2d_copy_words(row, src, w.n0);
                return SEQ_OK;
            }
            if (w.s0 == -4) {
                /* A reversed row: element i0 at row - 4*i0; four at a time
                 * as two 8-byte stores of swapped pairs. */
                for (unsigned i1 = 0; i1 < w.n1; i1++, row += w.s1, src += w.n0) {
                    uint8_t *e = row;
                    unsigned i0 = 0;
                    for (; i0 + 4 <= w.n0; i0 += 4, e -= 16) {
                        uint64_t lo = (uint64_t)src[i0 + 2] << 32 | src[i0 + 3];
                        uint64_t hi = (uint64_t)src[i0] << 32 | src[i0 + 1];
                        memcpy(e - 12, &lo, 8);
                        memcpy(e - 4, &hi, 8);
                    }
                    for (; i0 < w.n0; i0++, e -= 4)
                        memcpy(e, &src[i0], 4);
                }
                return SEQ_OK;
            }
        }
        unsigned k = 0;
        for (unsigned i1 = 0; i1 < w.n1; i1++, row += w.s1) {
            uint8_t *e = row;
            for (unsigned i0 = 0; i0 < w.n0; i0++, k++, e += w.s0) {
                uint32_t x = GUINT32_TO_LE(R[FA(M2D_DATA, k) & 63]);
                memcpy(e, &x, 4);
            }
        }
        return SEQ_OK;
    }

    /* Source values, all read before any memory is written. */
    for (unsigned i = 0; i < w.n; i++) {
        if (imm) {
            v[i] = ld_host(seq_field_ptr(r, SEQ_F_M2D_DATA) + size * i, size);
        } else {
            unsigned reg = FA(M2D_DATA, i) & 63;
            v[i] = R[reg];
            if (size == 8)
                v[i] |= (uint64_t)R[(reg + 1) & 63] << 32;
        }
    }

    if (!w.local && !h)
        for (unsigned i = 0; i < w.n; i++)
            if (!seq_pa_access_ok(s, elem_pa(&w, i), size))
                return seq_fault(s, NX_FAULT_BUS_ERROR, 0, elem_addr(&w, i));
    if (G_UNLIKELY(s->cpu.m->debug) && !w.local)
        for (unsigned i = 0; i < w.n; i++)
            if (seq_watch(s, elem_pa(&w, i), size, true))
                return SEQ_DEBUG;

    seq_u_pre(s, d);
    for (unsigned i = 0; i < w.n; i++) {
        if (w.local)
            seq_local_write(s, elem_addr(&w, i), size, v[i]);
        else if (h)
            st_host(h + (elem_off(&w, i) - w.minoff), size, v[i]);
        else
            as_write(s->as, elem_pa(&w, i), size, v[i], s->attrs);
    }
    seq_u_post(s, d);
    return SEQ_OK;
}

SeqStatus seq_exec_tensor_store(SeqCpu *s, const SeqDecoded *d)
{
    return tst_exec(s, d, false);
}

static SeqStatus tst32(SeqCpu *s, const SeqDecoded *d)
{
    return tst_exec(s, d, true);
}

SeqExecFn seq_mem2d_fast(SeqDecoded *d)
{
    const uint8_t *r = d->insn.rec;
    SeqM2dPre *q = &d->m2d;
    bool load = F(HDR_OPCODE) == SEQ_OP_TENSOR_LOAD;

    if (d->has_events || mem2d_size(F(M2D_DTYPE)) != 4 ||
        !seq_addr8_is_imm(seq_field_ptr(r, SEQ_F_M2D_ADDR)) || (!load && F(M2D_DATASRC) == 1))
        return NULL;
    unsigned n0 = F(M2D_N0), n1 = F(M2D_N1);
    if (n0 == 0 || n1 == 0 || n0 * n1 > MEM2D_MAX)
        return NULL; /* the general code's inert fault */
    q->start = F(M2D_ADDR);
    q->n0 = (uint8_t)n0;
    q->n1 = (uint8_t)n1;
    q->n = (uint8_t)(n0 * n1);
    q->s0 = (int64_t)(int32_t)F(M2D_S0) * 4;
    q->s1 = (int64_t)(int32_t)F(M2D_S1) * 4;
    int64_t e0 = (int64_t)(n0 - 1) * q->s0, e1 = (int64_t)(n1 - 1) * q->s1;
    q->minoff = MIN(e0, 0) + MIN(e1, 0);
    q->maxoff = MAX(e0, 0) + MAX(e1, 0);
    q->window_ok = mem2d_window_ok(q->start, q->minoff, q->maxoff, 4);
    q->reg0 = FA(M2D_DATA, 0) & 63;
    q->regs_seq = (unsigned)q->reg0 + q->n <= 64;
    for (unsigned k = 0; k < q->n && q->regs_seq; k++)
        q->regs_seq = FA(M2D_DATA, k) == q->reg0 + k;
    return load ? tld32 : tst32;
}
