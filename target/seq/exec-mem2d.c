/*
 * TENSOR_LOAD (0xAA) and TENSOR_STORE (0xAB): the mem_2d walk
 * (sequencer.md §8.9, seed 000_70afd1ac08d3020b).  Phase E computes every
 * element address, checks the 16 MiB window rule, makes the one TLB lookup
 * and checks every element before anything is written, so a fault leaves
 * no trace but the TLB's.
 */
#include "target/seq/cpu.h"

#define MEM2D_MAX 32

typedef struct Mem2dWalk {
    unsigned n;     /* elements */
    unsigned size;  /* bytes per element */
    uint64_t start; /* resolved start (Neuron address) */
    uint64_t addr[MEM2D_MAX];
    bool local;       /* window 0: the own NX block */
    uint64_t pa_base; /* translated case: PA of the window */
} Mem2dWalk;

static unsigned mem2d_size(uint8_t dtype)
{
    switch (dtype) {
    case 0x1:
        return 8;
    case 0x2:
    case 0x3:
        return 1;
    case 0x4:
    case 0x5:
        return 2;
    default:
        return 4;
    }
}

/* Resolve and check the walk; acc is NX_ACC_READ or NX_ACC_WRITE. */
static SeqStatus mem2d_walk(SeqCpu *s, const uint8_t *r, NxAccess acc, Mem2dWalk *w)
{
    unsigned n0 = r[14], n1 = r[15];
    int64_t s0 = (int32_t)seq_le32(r + 24), s1 = (int32_t)seq_le32(r + 28);
    int64_t minoff = INT64_MAX, maxoff = INT64_MIN;
    int64_t off[MEM2D_MAX];

    w->size = mem2d_size(r[12]);
    w->start = seq_addr8_resolve(s, r + 16);
    if (!seq_addr8_is_imm(r + 16) && (w->start & (w->size - 1)))
        return seq_fault(s, NX_FAULT_MISALIGNED, 0, w->start);

    /* The decoder guarantees 1 <= n0, n1 and n0*n1 <= 32. */
    unsigned k = 0;
    for (unsigned i1 = 0; i1 < n1 && k < MEM2D_MAX; i1++) {
        for (unsigned i0 = 0; i0 < n0 && k < MEM2D_MAX; i0++, k++) {
            off[k] = ((int64_t)i0 * s0 + (int64_t)i1 * s1) * (int64_t)w->size;
            minoff = MIN(minoff, off[k]);
            maxoff = MAX(maxoff, off[k]);
        }
    }
    w->n = k;
    if (k == 0)
        return SEQ_OK;

    /* Exact arithmetic: the window rule sees through 2^64 wraps. */
    __int128 lo = (__int128)w->start + minoff;
    __int128 hi = (__int128)w->start + maxoff + w->size - 1;
    if (lo < 0 || hi >= ((__int128)1 << 64) || (lo >> 24) != (hi >> 24))
        return seq_fault(s, NX_FAULT_WINDOW_CROSSING, 0, w->start);
    for (unsigned i = 0; i < k; i++)
        w->addr[i] = w->start + (uint64_t)off[i];

    uint64_t pa;
    if (!nx_translate(s->nx, w->start, acc, &pa, &w->local, &s->fault))
        return SEQ_FAULT;
    if (w->local) {
        for (unsigned i = 0; i < k; i++)
            if (!seq_local_ok(w->addr[i], w->size))
                return seq_fault(s, NX_FAULT_BUS_ERROR, 0, w->addr[i]);
        return SEQ_OK;
    }
    w->pa_base = pa - (w->start & 0xFFFFFF);
    return SEQ_OK;
}

static inline uint64_t elem_pa(const Mem2dWalk *w, unsigned i)
{
    return w->pa_base + (w->addr[i] & 0xFFFFFF);
}

/* Host pointer covering every element, when they all lie in one RAM range
 * that may be accessed directly. */
static uint8_t *mem2d_host(SeqCpu *s, const Mem2dWalk *w, bool is_write, uint64_t *lo_pa)
{
    uint64_t lo = UINT64_MAX, hi = 0;
    for (unsigned i = 0; i < w->n; i++) {
        uint64_t p = elem_pa(w, i);
        lo = MIN(lo, p);
        hi = MAX(hi, p + w->size);
    }
    *lo_pa = lo;
    return as_host_ptr(s->as, lo, hi - lo, is_write, 0);
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

SeqStatus seq_exec_tensor_load(SeqCpu *s, const SeqDecoded *d)
{
    const uint8_t *r = d->insn.rec;
    uint32_t *R = s->nx->r;
    uint8_t dtype = r[12];
    Mem2dWalk w;
    uint64_t v[MEM2D_MAX];

    if (mem2d_walk(s, r, NX_ACC_READ, &w) != SEQ_OK)
        return SEQ_FAULT;

    /* All elements are read first (reads have no side effects). */
    if (w.local) {
        for (unsigned i = 0; i < w.n; i++)
            if (nx_read(s->nx, w.addr[i] - NC2_NX_LOCAL_BASE, w.size, &v[i], s->attrs) != MEMTX_OK)
                return seq_fault(s, NX_FAULT_BUS_ERROR, 0, w.addr[i]);
    } else {
        uint64_t lo_pa;
        const uint8_t *h = mem2d_host(s, &w, false, &lo_pa);
        if (h) {
            for (unsigned i = 0; i < w.n; i++)
                v[i] = ld_host(h + (elem_pa(&w, i) - lo_pa), w.size);
        } else {
            for (unsigned i = 0; i < w.n; i++)
                if (!seq_pa_access_ok(s, elem_pa(&w, i), w.size) ||
                    as_read(s->as, elem_pa(&w, i), w.size, &v[i], s->attrs) != MEMTX_OK)
                    return seq_fault(s, NX_FAULT_BUS_ERROR, 0, w.addr[i]);
        }
    }

    seq_u_pre(s, d);
    for (unsigned i = 0; i < w.n; i++) {
        unsigned reg = r[32 + i] & 63;
        switch (dtype) {
        case 0x2: /* INT8 */
            R[reg] = (uint32_t)(int32_t)(int8_t)v[i];
            break;
        case 0x4: /* INT16 */
            R[reg] = (uint32_t)(int32_t)(int16_t)v[i];
            break;
        case 0x1: /* UINT64: even/odd pair, low half in the even register */
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

SeqStatus seq_exec_tensor_store(SeqCpu *s, const SeqDecoded *d)
{
    const uint8_t *r = d->insn.rec;
    const uint32_t *R = s->nx->r;
    Mem2dWalk w;
    uint64_t v[MEM2D_MAX];

    if (mem2d_walk(s, r, NX_ACC_WRITE, &w) != SEQ_OK)
        return SEQ_FAULT;

    /* Source values, all read before any memory is written. */
    for (unsigned i = 0; i < w.n; i++) {
        if (r[13] == 1) {
            v[i] = ld_host(r + 32 + w.size * i, w.size);
        } else {
            unsigned reg = r[32 + i] & 63;
            v[i] = R[reg];
            if (w.size == 8)
                v[i] |= (uint64_t)R[(reg + 1) & 63] << 32;
        }
    }

    uint64_t lo_pa = 0;
    uint8_t *h = NULL;
    if (!w.local) {
        h = mem2d_host(s, &w, true, &lo_pa);
        if (!h)
            for (unsigned i = 0; i < w.n; i++)
                if (!seq_pa_access_ok(s, elem_pa(&w, i), w.size))
                    return seq_fault(s, NX_FAULT_BUS_ERROR, 0, w.addr[i]);
    }

    seq_u_pre(s, d);
    for (unsigned i = 0; i < w.n; i++) {
        if (w.local)
            nx_write(s->nx, w.addr[i] - NC2_NX_LOCAL_BASE, w.size, v[i], s->attrs);
        else if (h)
            st_host(h + (elem_pa(&w, i) - lo_pa), w.size, v[i]);
        else
            as_write(s->as, elem_pa(&w, i), w.size, v[i], s->attrs);
    }
    seq_u_post(s, d);
    return SEQ_OK;
}
