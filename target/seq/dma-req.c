/*
 * DMA requests from 0xB8 DMA_MEMCPY and 0xBB DMA_INDIRECT records
 * (sequencer.md §8.11-§8.12, machine.md §5): issue-time validation in the
 * order MISALIGNED, BAD_ADDRESS, OVERLAP, DUP_INDEX, and the data movement
 * run by the engine at the completion instant.  Shared by the sequencer
 * instructions and the engines' MMIO doorbell.
 *
 * Addresses are exact (128-bit) while validating: an element whose address
 * leaves [0, 2^64) is BAD_ADDRESS at its low 64 bits, like any other byte
 * that is not DMA-able memory.
 */
#include "target/seq/cpu.h"

#define F(name) seq_field_get(r, SEQ_F_##name)

/* Lives in a DmaPool slot (no allocation per instruction once warm). */
typedef struct SeqDmaReq {
    DmaRequest req;
    /* Owned by the slot and kept across its uses: both index arrays, grown
     * to the largest N the slot has seen. */
    uint32_t *ixbuf;
    uint32_t ixcap; /* entries per side */
    /* Set by every build. */
    bool indirect;
    uint8_t op, dtype;
    uint64_t src, dst;
    uint32_t sesz, desz;
    /* DMA_MEMCPY: 2-D walks (x inner, y outer). */
    int64_t ss[2], ds[2];
    uint32_t sn[2], dn[2];
    /* DMA_INDIRECT: N elements, index arrays (NULL = identity; else in
     * ixbuf). */
    uint32_t n;
    uint32_t *sidx, *didx;
} SeqDmaReq;

/* Element j of one side, exact. */
static __int128 dma_elem(const SeqDmaReq *q, bool dst, uint64_t j)
{
    uint64_t base = dst ? q->dst : q->src;
    uint32_t esz = dst ? q->desz : q->sesz;
    if (q->indirect) {
        const uint32_t *ix = dst ? q->didx : q->sidx;
        uint64_t i = ix ? ix[j] : j;
        int64_t step = dst ? q->ds[0] : q->ss[0];
        return (__int128)base + (__int128)i * step * esz;
    }
    const uint32_t *n = dst ? q->dn : q->sn;
    const int64_t *s = dst ? q->ds : q->ss;
    uint64_t x = j % n[0], y = j / n[0];
    return (__int128)base + ((__int128)x * s[0] + (__int128)y * s[1]) * esz;
}

static uint64_t dma_count(const SeqDmaReq *q, bool dst)
{
    if (q->indirect)
        return q->n;
    return dst ? (uint64_t)q->dn[0] * q->dn[1] : (uint64_t)q->sn[0] * q->sn[1];
}

static bool fits64(__int128 a, uint64_t len)
{
    return a >= 0 && a + len <= ((__int128)1 << 64);
}

/* First byte of [pa, pa+len) that is not DMA-able memory. */
static bool dma_first_bad(AddressSpace *as, uint64_t pa, uint64_t len, uint64_t *bad)
{
    while (len) {
        const FlatRange *fr = as_lookup(as, pa);
        if (!fr || fr->mr->kind != MR_RAM || !(fr->mr->flags & MR_F_DMA)) {
            *bad = pa;
            return true;
        }
        uint64_t chunk = fr->end == 0 ? len : MIN(len, fr->end - pa);
        pa += chunk;
        len -= chunk;
    }
    return false;
}

/* Extent [lo, hi) of one side (exact). */
static void dma_extent(const SeqDmaReq *q, bool dst, __int128 *lo, __int128 *hi)
{
    uint32_t esz = dst ? q->desz : q->sesz;
    if (q->indirect) {
        __int128 mn = 0, mx = 0;
        for (uint64_t j = 0; j < q->n; j++) {
            __int128 a = dma_elem(q, dst, j);
            if (j == 0 || a < mn)
                mn = a;
            if (j == 0 || a > mx)
                mx = a;
        }
        *lo = mn;
        *hi = mx + esz;
        return;
    }
    const uint32_t *n = dst ? q->dn : q->sn;
    const int64_t *s = dst ? q->ds : q->ss;
    __int128 base = dst ? q->dst : q->src;
    __int128 o0 = (__int128)(n[0] - 1) * s[0] * esz, o1 = (__int128)(n[1] - 1) * s[1] * esz;
    *lo = base + (o0 < 0 ? o0 : 0) + (o1 < 0 ? o1 : 0);
    *hi = base + (o0 > 0 ? o0 : 0) + (o1 > 0 ? o1 : 0) + esz;
}

/* BAD_ADDRESS over one side's elements, walk order, bytes ascending. */
static bool dma_side_bad(AddressSpace *as, const SeqDmaReq *q, bool dst, uint64_t *bad)
{
    uint32_t esz = dst ? q->desz : q->sesz;
    __int128 lo, hi;
    dma_extent(q, dst, &lo, &hi);
    /* Whole extent in DMA-able memory: every element is. */
    if (lo >= 0 && hi <= ((__int128)1 << 64) && hi > lo &&
        !dma_first_bad(as, (uint64_t)lo, (uint64_t)(hi - lo), bad))
        return false;
    uint64_t cnt = dma_count(q, dst);
    for (uint64_t j = 0; j < cnt; j++) {
        __int128 a = dma_elem(q, dst, j);
        if (!fits64(a, esz)) {
            *bad = (uint64_t)a;
            if (a >= 0 && !dma_first_bad(as, (uint64_t)a, (uint64_t)(((__int128)1 << 64) - a), bad))
                *bad = 0; /* cannot happen: the top of the map is not memory */
            return true;
        }
        if (dma_first_bad(as, (uint64_t)a, esz, bad))
            return true;
    }
    return false;
}

/* ---- completion: the data movement --------------------------------------- */

static float bf16_to_f32(uint16_t h)
{
    return seq_f32((uint32_t)h << 16);
}

static uint16_t f32_to_bf16(uint32_t x)
{
    if ((x & 0x7F800000u) == 0x7F800000u && (x & 0x7FFFFFu))
        return 0x7FC0;
    return (uint16_t)((x + 0x7FFFu + ((x >> 16) & 1)) >> 16);
}

static float f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000) << 16;
    uint32_t e = (h >> 10) & 0x1F, m = h & 0x3FF;
    if (e == 0x1F)
        return seq_f32(sign | 0x7F800000u | m << 13);
    if (e == 0) {
        if (m == 0)
            return seq_f32(sign);
        e = 1;
        while (!(m & 0x400)) {
            m <<= 1;
            e--;
        }
        m &= 0x3FF;
        return seq_f32(sign | (uint32_t)((int)e + 112) << 23 | m << 13);
    }
    return seq_f32(sign | (e + 112) << 23 | m << 13);
}

static uint16_t f32_to_f16(uint32_t x)
{
    uint32_t sign = (x >> 16) & 0x8000;
    uint32_t ex = (x >> 23) & 0xFF, man = x & 0x7FFFFF;
    if (ex == 0xFF)
        return man ? 0x7E00 : (uint16_t)(sign | 0x7C00);
    int e = (int)ex - 127 + 15;
    if (e >= 31)
        return (uint16_t)(sign | 0x7C00);
    if (e <= 0) {
        if (e < -10)
            return (uint16_t)sign;
        man |= 0x800000;
        unsigned shift = (unsigned)(14 - e);
        uint32_t h = man >> shift, rem = man & ((1u << shift) - 1), half = 1u << (shift - 1);
        if (rem > half || (rem == half && (h & 1)))
            h++;
        return (uint16_t)(sign | h);
    }
    uint32_t h = (uint32_t)e << 10 | man >> 13, rem = man & 0x1FFF;
    if (rem > 0x1000 || (rem == 0x1000 && (h & 1)))
        h++;
    return (uint16_t)(sign | h);
}

/* compute_op (sequencer.md §8.11: 1 ADD, 2 MULTIPLY, 3 MAX, 4 MIN) as the
 * ALU_OP operation it applies: the semantics are ALU_OP's (alu-int.inc,
 * seq_alu_f32).  The predicates reject other values; they act as MIN. */
static const uint8_t dma_alu_op[8] = {SEQ_ALU_BYPASS, SEQ_ALU_ADD, SEQ_ALU_MULT, SEQ_ALU_MAX,
                                      SEQ_ALU_MIN,    SEQ_ALU_MIN, SEQ_ALU_MIN,  SEQ_ALU_MIN};

static inline uint32_t f32_op(uint8_t alu_op, uint32_t a, uint32_t b)
{
    uint32_t r = 0;
    (void)seq_alu_f32(alu_op, a, b, &r);
    return r;
}

/* dst = op(dst, src) over `len` bytes of in_dtype values. */
static void dma_combine(uint8_t op, uint8_t dtype, uint8_t *d, const uint8_t *s, uint64_t len)
{
    op = dma_alu_op[op & 7];
    switch (dtype) {
    case SEQ_DT_I32:
    case SEQ_DT_U32:
        for (uint64_t i = 0; i + 4 <= len; i += 4) {
            uint32_t r = 0;
            (void)seq_alu_int32(op, dtype == SEQ_DT_I32, seq_le32(d + i), seq_le32(s + i), &r);
            r = GUINT32_TO_LE(r);
            memcpy(d + i, &r, 4);
        }
        break;
    case SEQ_DT_F32:
        for (uint64_t i = 0; i + 4 <= len; i += 4) {
            uint32_t r = GUINT32_TO_LE(f32_op(op, seq_le32(d + i), seq_le32(s + i)));
            memcpy(d + i, &r, 4);
        }
        break;
    default: /* BF16, F16: computed in f32, rounded once */
        for (uint64_t i = 0; i + 2 <= len; i += 2) {
            uint16_t a = seq_le16(d + i), b = seq_le16(s + i), r;
            if (dtype == SEQ_DT_BF16)
                r = f32_to_bf16(f32_op(op, seq_u32(bf16_to_f32(a)), seq_u32(bf16_to_f32(b))));
            else
                r = f32_to_f16(f32_op(op, seq_u32(f16_to_f32(a)), seq_u32(f16_to_f32(b))));
            d[i] = (uint8_t)r;
            d[i + 1] = (uint8_t)(r >> 8);
        }
        break;
    }
}

/* Stream the source elements' bytes into the destination elements.  Source
 * and destination never overlap (checked at issue), so moving chunk by
 * chunk is the same as reading everything first. */
static void seq_dma_complete(Machine *m, DmaRequest *req)
{
    SeqDmaReq *q = (SeqDmaReq *)req;
    AddressSpace *as = m->as;
    MemTxAttrs at = MEMTXATTRS(MEM_REQ_DMA, 0);
    uint8_t sbuf[4096], dbuf[4096];
    uint64_t scnt = dma_count(q, false), dcnt = dma_count(q, true);
    uint64_t si = 0, soff = 0, di = 0, doff = 0, bad;

    while (si < scnt && di < dcnt) {
        uint64_t sa = (uint64_t)dma_elem(q, false, si) + soff;
        uint64_t da = (uint64_t)dma_elem(q, true, di) + doff;
        uint64_t chunk = MIN(MIN(q->sesz - soff, q->desz - doff), sizeof(sbuf));
        as_rw_bytes(as, sa, sbuf, chunk, false, at, &bad);
        if (q->op) {
            as_rw_bytes(as, da, dbuf, chunk, false, at, &bad);
            dma_combine(q->op, q->dtype, dbuf, sbuf, chunk);
            as_rw_bytes(as, da, dbuf, chunk, true, at, &bad);
        } else {
            as_rw_bytes(as, da, sbuf, chunk, true, at, &bad);
        }
        soff += chunk;
        doff += chunk;
        if (soff == q->sesz) {
            si++;
            soff = 0;
        }
        if (doff == q->desz) {
            di++;
            doff = 0;
        }
    }
}

/* One side's elements against the watchpoints: the extent first (one
 * lookup for the common miss), then element by element in walk order so
 * that a watch between strided elements does not stop.  Elements were
 * validated at issue, so their addresses fit in 64 bits. */
static const NxWatchpoint *dma_side_watch(NxDebug *d, const SeqDmaReq *q, bool dst, bool is_write)
{
    uint32_t esz = dst ? q->desz : q->sesz;
    uint64_t cnt = dma_count(q, dst);
    __int128 lo, hi;
    if (!cnt)
        return NULL;
    dma_extent(q, dst, &lo, &hi);
    if (!nx_debug_wp_find(d, NULL, (uint64_t)lo, (uint64_t)(hi - lo), is_write))
        return NULL;
    for (uint64_t j = 0; j < cnt; j++) {
        const NxWatchpoint *w =
            nx_debug_wp_find(d, NULL, (uint64_t)dma_elem(q, dst, j), esz, is_write);
        if (w)
            return w;
    }
    return NULL;
}

/* What seq_dma_complete accesses: the source elements (read), the
 * destination elements (read too for a compute op, then written).  The
 * transfer is atomic, so any process's watchpoint is reported before it
 * (the engine holds the request, see DmaRequest.watch); source first. */
static bool seq_dma_watch(Machine *m, DmaRequest *req)
{
    const SeqDmaReq *q = (const SeqDmaReq *)req;
    NxDebug *d = m->debug;
    /* while re-executing for reverse execution, its own check holds
     * requests (NX_RUNEV_DMA_DUE, softmmu/gdbstub-debug.c) */
    if (d->rev)
        return false;
    bool wr = false;
    const NxWatchpoint *w = dma_side_watch(d, q, false, false);
    if (!w && q->op)
        w = dma_side_watch(d, q, true, false);
    if (!w) {
        w = dma_side_watch(d, q, true, true);
        wr = true;
    }
    if (!w)
        return false;
    /* the stop names the transfer (by its issuing core) */
    nx_debug_watch_stop_by(m, w, true, MEM_REQ_DMA, req->owner, wr);
    return true;
}

/* The pool's destructor for a slot (dma_destroy). */
static void seq_dma_slot_fini(DmaRequest *req)
{
    SeqDmaReq *q = (SeqDmaReq *)req;
    g_free(q->ixbuf);
    g_free(q);
}

/* Read an index array (ADDR4, partition 0 of SBUF) into side `dst` of the
 * slot's buffer. */
static bool dma_read_index(Machine *m, SeqDmaReq *q, bool dst, uint32_t addr4, NxFault *f)
{
    uint32_t n = q->n;
    uint64_t pa = SEQ_SBUF_BASE + addr4, bad;
    if (dma_first_bad(m->as, pa, (uint64_t)n * 4, &bad))
        return nx_fault_set(f, NX_FAULT_DMA_ERROR, NX_DMA_BAD_ADDRESS, bad);
    if (n > q->ixcap) {
        /* Both sides at once: the first index array this build reads
         * grows it, so nothing in the old buffer needs keeping. */
        g_assert(!q->sidx && !q->didx);
        g_free(q->ixbuf);
        q->ixbuf = g_new(uint32_t, 2 * (size_t)n);
        q->ixcap = n;
    }
    uint32_t *ix = q->ixbuf + (dst ? q->ixcap : 0);
    as_rw_bytes(m->as, pa, ix, (uint64_t)n * 4, false, MEMTXATTRS(MEM_REQ_DMA, 0), &bad);
    for (uint32_t k = 0; k < n; k++)
        ix[k] = GUINT32_FROM_LE(ix[k]);
    if (dst)
        q->didx = ix;
    else
        q->sidx = ix;
    return true;
}

/* First k whose didx[k] equals an earlier entry, or -1: an open-addressing
 * set of the values in the controller's scratch (entries are value + 1 in
 * 64 bits, 0 = empty), at most half full. */
static int64_t dma_first_dup(const DmaReqPool *pool, const uint32_t *ix, uint32_t n)
{
    unsigned bits = 4;
    while (((size_t)1 << bits) < 2 * (size_t)n)
        bits++;
    size_t size = (size_t)1 << bits;
    uint64_t *set = pool->scratch(pool->opaque, size * sizeof(uint64_t));
    memset(set, 0, size * sizeof(uint64_t));
    for (uint32_t k = 0; k < n; k++) {
        uint64_t key = (uint64_t)ix[k] + 1;
        size_t h = (size_t)((ix[k] * 0x9E3779B97F4A7C15ull) >> (64 - bits));
        while (set[h] && set[h] != key)
            h = (h + 1) & (size - 1);
        if (set[h])
            return k;
        set[h] = key;
    }
    return -1;
}

static unsigned dtype_size(uint8_t dt)
{
    return dt == SEQ_DT_BF16 || dt == SEQ_DT_F16 ? 2 : 4;
}

bool seq_dma_build(Machine *m, const DmaReqPool *pool, const uint8_t r[SEQ_REC_BYTES], uint64_t src,
                   uint64_t dst, DmaRequest **out, NxFault *f)
{
    SeqDmaReq *q = (SeqDmaReq *)pool->get(pool->opaque, sizeof(SeqDmaReq), seq_dma_slot_fini);
    uint64_t bad;

    /* A reused slot: everything but the header (reset by the pool) and the
     * slot's own buffer starts from zero, as a fresh request did. */
    *q = (SeqDmaReq){.req = q->req, .ixbuf = q->ixbuf, .ixcap = q->ixcap};

    q->src = src;
    q->dst = dst;
    if (F(HDR_OPCODE) == SEQ_OP_DMA_MEMCPY) {
        q->op = F(DMA_COMPUTE_OP);
        q->dtype = F(DMA_IN_DTYPE);
        q->ss[0] = (int32_t)F(DMA_SRC_STEP0);
        q->ss[1] = (int32_t)F(DMA_SRC_STEP1);
        q->sn[0] = F(DMA_SRC_N0);
        q->sn[1] = F(DMA_SRC_N1);
        q->sesz = F(DMA_SRC_ESIZE);
        q->ds[0] = (int32_t)F(DMA_DST_STEP0);
        q->ds[1] = (int32_t)F(DMA_DST_STEP1);
        q->dn[0] = F(DMA_DST_N0);
        q->dn[1] = F(DMA_DST_N1);
        q->desz = F(DMA_DST_ESIZE);
        q->req.sem = F(DMA_SEM);
        q->req.sem_inc = F(DMA_SEM_INC);
    } else {
        q->indirect = true;
        q->op = F(DMAI_COMPUTE_OP);
        q->dtype = F(DMAI_IN_DTYPE);
        q->ss[0] = (int32_t)F(DMAI_SRC_STEP);
        q->n = F(DMAI_SRC_N);
        q->sesz = q->desz = F(DMAI_SRC_ESIZE); /* dmai_shape: equal sizes */
        q->ds[0] = (int32_t)F(DMAI_DST_STEP);
        q->req.sem = F(DMAI_SEM);
        q->req.sem_inc = F(DMAI_SEM_INC);
    }
    q->req.bytes = dma_count(q, false) * q->sesz;
    q->req.owner = -1;
    q->req.complete = seq_dma_complete;
    q->req.watch = seq_dma_watch;
    q->req.priv = q;

    /* 1: compute-op start alignment. */
    if (q->op) {
        unsigned sz = dtype_size(q->dtype);
        if (src & (sz - 1)) {
            nx_fault_set(f, NX_FAULT_MISALIGNED, 0, src);
            goto fail;
        }
        if (dst & (sz - 1)) {
            nx_fault_set(f, NX_FAULT_MISALIGNED, 0, dst);
            goto fail;
        }
    }
    /* 2: BAD_ADDRESS: index arrays (source, destination), then elements. */
    if (q->indirect) {
        uint8_t mode = F(DMAI_MODE);
        if ((mode == 0 || mode == 2) && !dma_read_index(m, q, false, F(DMAI_SRC_IDX), f))
            goto fail;
        if ((mode == 1 || mode == 2) && !dma_read_index(m, q, true, F(DMAI_DST_IDX), f))
            goto fail;
    }
    if (dma_side_bad(m->as, q, false, &bad) || dma_side_bad(m->as, q, true, &bad)) {
        nx_fault_set(f, NX_FAULT_DMA_ERROR, NX_DMA_BAD_ADDRESS, bad);
        goto fail;
    }
    /* 3: OVERLAP of the extents. */
    __int128 slo, shi, dlo, dhi;
    dma_extent(q, false, &slo, &shi);
    dma_extent(q, true, &dlo, &dhi);
    if (slo < dhi && dlo < shi) {
        nx_fault_set(f, NX_FAULT_DMA_ERROR, NX_DMA_OVERLAP, dst);
        goto fail;
    }
    if (q->req.bytes) { /* checked above: the extents are addresses of memory */
        q->req.src_lo = (uint64_t)slo, q->req.src_hi = (uint64_t)shi;
        q->req.dst_lo = (uint64_t)dlo, q->req.dst_hi = (uint64_t)dhi;
    }
    /* 4: DUP_INDEX for scatters without non_unique_dst_idx. */
    if (q->didx && !F(DMAI_NON_UNIQUE_DST)) {
        int64_t k = dma_first_dup(pool, q->didx, q->n);
        if (k >= 0) {
            nx_fault_set(f, NX_FAULT_DMA_ERROR, NX_DMA_DUP_INDEX,
                         SEQ_SBUF_BASE + F(DMAI_DST_IDX) + 4ull * (uint64_t)k);
            goto fail;
        }
    }
    *out = &q->req;
    return true;

fail:
    dma_req_put(&q->req);
    *out = NULL;
    return false;
}

/* ---- MMIO doorbell (machine.md §5.3) ------------------------------------- */

uint32_t seq_dma_request_from_record(Machine *m, const DmaReqPool *pool, const uint8_t rec[64],
                                     DmaRequest **req)
{
    NxFault f = {0};
    SeqInsn insn;

    *req = NULL;
    const uint8_t *r = rec;
    unsigned opc = F(HDR_OPCODE);
    if (opc != SEQ_OP_DMA_MEMCPY && opc != SEQ_OP_DMA_INDIRECT)
        return 5u << 16;
    for (unsigned i = SEQ_F_EV_WAIT_MODE; i < SEQ_F_EV_VALUE + SEQ_F_EV_VALUE_W; i++)
        if (rec[i])
            return 6u << 16;
    bool memcpy_ = opc == SEQ_OP_DMA_MEMCPY;
    const uint8_t *sa =
        memcpy_ ? seq_field_ptr(r, SEQ_F_DMA_SRC_ADDR) : seq_field_ptr(r, SEQ_F_DMAI_SRC_ADDR);
    const uint8_t *da =
        memcpy_ ? seq_field_ptr(r, SEQ_F_DMA_DST_ADDR) : seq_field_ptr(r, SEQ_F_DMAI_DST_ADDR);
    if (!seq_addr8_is_imm(sa) || !seq_addr8_is_imm(da))
        return 7u << 16;
    if (seq_decode(rec, &insn, &f) != SEQ_DECODE_OK)
        return 1u << 16 | (f.code == NX_FAULT_INVALID_INSTRUCTION ? (f.info & 0xFFFF) : 0);
    if (!seq_dma_build(m, pool, rec, seq_field_get(sa, SEQ_F_ADDR8_IMM),
                       seq_field_get(da, SEQ_F_ADDR8_IMM), req, &f))
        return 2u << 16 | (f.code == NX_FAULT_DMA_ERROR ? (f.info & 0xFFFF) : 0);
    return 0;
}
