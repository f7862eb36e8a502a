/*
 * Tensor descriptors and vector tensor accesses (tpc.md §3, §10 items 1-6)
 * plus the global-memory primitives every TPC access to the PA space uses.
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "target/tpc/cpu.h"
#include "target/tpc/vlane.h"
#include "nxemu/worker.h"

/* as_host_ptr, under the workers' memory lock on a worker (nxemu/worker.h) */
static uint8_t *host_ptr(TpcCpu *c, uint64_t pa, uint64_t len, bool write)
{
    nx_worker_mem_enter();
    uint8_t *p = as_host_ptr(c->m->as, pa, len, write, 0);
    nx_worker_mem_leave();
    return p;
}

/* Before a store to RAM's host bytes [p, p + len): in a stretch run in
 * parallel, the page's bytes before the stretch are kept (nxemu/worker.h). */
static inline void before_store(TpcCpu *c, const void *p, size_t len)
{
    if (G_UNLIKELY(c->undo))
        nx_worker_store(c->undo, p, len);
}

static bool is_ram(TpcCpu *c, uint64_t pa, uint64_t len)
{
    nx_worker_mem_enter();
    bool r = as_is_ram(c->m->as, pa, len, 0);
    nx_worker_mem_leave();
    return r;
}

bool tpc_global_read(TpcCpu *c, uint64_t pa, void *buf, unsigned len)
{
    uint8_t *p = host_ptr(c, pa, len, false);
    tpc_race_note(c->race, pa, len, false, c->pc, -1);
    if (p) {
        memcpy(buf, p, len);
        return true;
    }
    if (nx_worker)
        return false; /* a device: the main thread reads it (c->fault.code 0) */
    uint64_t bad = pa;
    if (as_rw_bytes(c->m->as, pa, buf, len, false, MEMTXATTRS(MEM_REQ_TPC, c->t), &bad) != MEMTX_OK)
        return tpc_fault(c, TPC_FAULT_GLOBAL_FAULT, 0, bad);
    return true;
}

bool tpc_global_check(TpcCpu *c, uint64_t pa, unsigned len)
{
    if (is_ram(c, pa, len))
        return true;
    /* report the first byte that is not memory */
    for (unsigned i = 0; i < len; i++)
        if (!is_ram(c, pa + i, 1))
            return tpc_fault(c, TPC_FAULT_GLOBAL_FAULT, 0, pa + i);
    return tpc_fault(c, TPC_FAULT_GLOBAL_FAULT, 0, pa);
}

void tpc_global_write(TpcCpu *c, uint64_t pa, const void *buf, unsigned len)
{
    uint8_t *p = host_ptr(c, pa, len, true);
    tpc_race_note(c->race, pa, len, true, c->pc, -1);
    if (p) {
        before_store(c, p, len);
        memcpy(p, buf, len);
        return;
    }
    g_assert(!nx_worker); /* worker_may_commit checked it */
    /* checked before commit; the slow path also invalidates decoded code.
     * A device write might remap memory: drop the cached code pointer. */
    c->x.code_host = NULL;
    uint64_t bad;
    as_rw_bytes(c->m->as, pa, (void *)buf, len, true, MEMTXATTRS(MEM_REQ_TPC, c->t), &bad);
}

uint64_t tpc_tensor_base(const TpcCpu *c, unsigned t)
{
    const uint32_t *w = &c->port.kv[TPC_KV_TENSOR(t & 15) / 4];
    return (uint64_t)w[0] | (uint64_t)w[1] << 32;
}

bool tpc_tensor_read(TpcCpu *c, unsigned t, TpcTensor *td)
{
    t &= 15;
    if (G_LIKELY(c->x.tdesc_gen[t] == *c->port.kv_gen + 1)) {
        *td = c->x.tdesc[t];
        return true;
    }
    const uint32_t *w = &c->port.kv[TPC_KV_TENSOR(t) / 4];
    td->base = tpc_tensor_base(c, t);
    td->padding = w[2];
    td->config = w[3];
    unsigned dt = td->config & 7u;
    if (dt > 2)
        return tpc_fault(c, TPC_FAULT_TENSOR_CONFIG, t & 15, 0);
    td->esize = 1u << dt;
    td->valid_mask = (td->config >> 8) & 0x1Fu;
    for (unsigned d = 0; d < 5; d++) {
        td->size[d] = w[4 + 2 * d];
        td->stride[d] = (int32_t)w[5 + 2 * d];
    }
    c->x.tdesc[t] = *td;
    c->x.tdesc_gen[t] = *c->port.kv_gen + 1;
    for (unsigned d = 0; d < 5; d++) {
        bool on = td->valid_mask & (1u << d);
        c->x.tfast[t].bstride[d] = on ? (int64_t)td->stride[d] * td->esize : 0;
        c->x.tfast[t].size[d] = on ? td->size[d] : (uint64_t)1 << 32;
    }
    /* tpc_tensor_fast_span sums coord * bstride over all dims in int64
     * before its bounds checks, with any int32 coordinates: only when the
     * byte strides add up to less than 2^32 can that not overflow (a guest
     * descriptor must not reach undefined behaviour); else no fast path,
     * and the general path wraps modulo 2^64 (tpc_tensor_addr). */
    uint64_t sum = 0;
    for (unsigned d = 0; d < 5; d++) {
        int64_t b = c->x.tfast[t].bstride[d];
        sum += (uint64_t)(b < 0 ? -b : b);
    }
    c->x.tfast[t].ndims = 1;
    for (unsigned d = 1; d < 5; d++)
        if (td->valid_mask & (1u << d))
            c->x.tfast[t].ndims = d + 1;
    c->x.tfast[t].last0 = (td->valid_mask & 1u) && td->stride[0] == 1 && sum < (1ull << 32)
                            ? (int64_t)td->size[0] - TPC_VBYTES / td->esize
                            : -1;
    return true;
}

unsigned tpc_tensor_id(const TpcCpu *c, const TpcInsn *in, unsigned id_reg)
{
    return (in->sw & 8u) ? (c->s[id_reg] & 15u) : (in->b.raw & 15u);
}

bool tpc_tensor_lanes(TpcCpu *c, const TpcInsn *in, bool vp, unsigned half, unsigned id_reg,
                      unsigned os_reg, TpcTensor *td, TpcTnsrLanes *w)
{
    unsigned t = tpc_tensor_id(c, in, id_reg);
    if (!tpc_tensor_read(c, t, td))
        return false;
    w->nl = (vp ? TPC_VPBYTES : TPC_VBYTES) / td->esize;
    w->lo = 0;
    w->n = w->nl;
    w->shift = 0;
    if (half == 1) {
        w->n = w->nl / 2;
    } else if (half == 2) {
        w->lo = w->nl / 2;
        w->n = w->nl / 2;
        w->shift = (int)(w->nl / 2);
    } else if (in->sw & 1u) {
        uint32_t os = c->s[os_reg];
        w->lo = (os >> 8) & 0xFFu;
        w->n = (os & 0xFFu) + 1;
    }
    return true;
}

bool tpc_tensor_fast_form(const TpcInsn *in, const TpcOperand *vreg)
{
    return !(in->sw & 0xFu) && vreg->kind == TPC_OP_V && !in->pred_vp;
}

uint8_t *tpc_tensor_fast_miss(TpcCpu *c, uint64_t pa, bool store)
{
    struct TpcVSpan *vs = store ? &c->x.wspan : &c->x.rspan;
    nx_worker_mem_enter();
    bool ok = as_host_span(c->m->as, pa, store, &vs->s); /* (len 0 when not) */
    nx_worker_mem_leave();
    vs->vlim = ok && vs->s.len >= TPC_VBYTES ? vs->s.len - TPC_VBYTES + 1 : 0;
    uint64_t o = pa - vs->s.lo;
    return o < vs->vlim ? vs->s.host + o : NULL;
}

uint64_t tpc_tensor_addr(const TpcTensor *td, const int32_t c[5])
{
    /* each product fits int64 (|c|, |stride| <= 2^31); their sum and the
     * scaling by E may not, so they wrap modulo 2^64 in uint64, which is
     * the signed 64-bit address arithmetic of tpc.md §3.2 without C's
     * undefined overflow */
    uint64_t off = 0;
    for (unsigned d = 0; d < 5; d++)
        if (td->valid_mask & (1u << d))
            off += (uint64_t)((int64_t)c[d] * td->stride[d]);
    return td->base + off * td->esize;
}

bool tpc_tensor_in_bounds_hi(const TpcTensor *td, const int32_t c[5])
{
    for (unsigned d = 1; d < 5; d++)
        if ((td->valid_mask & (1u << d)) && (c[d] < 0 || (uint32_t)c[d] >= td->size[d]))
            return false;
    return true;
}

bool tpc_tensor_in_bounds_d0(const TpcTensor *td, int64_t x)
{
    if (!(td->valid_mask & 1u))
        return true;
    return x >= 0 && x < (int64_t)td->size[0];
}

/* The tensor number of a descriptor as read (the vector accesses get the
 * descriptor, not its number): the first one with the same base. */
static int tensor_number(TpcCpu *c, const TpcTensor *td)
{
    for (unsigned t = 0; t < 16; t++) {
        const uint32_t *w = &c->port.kv[TPC_KV_TENSOR(t) / 4];
        if (((uint64_t)w[0] | (uint64_t)w[1] << 32) == td->base && w[3] == td->config)
            return (int)t;
    }
    return -1;
}

void tpc_check_tensor(TpcCpu *c, int t, const TpcTensor *td, const int32_t coord[5],
                      bool dim0_only, const char *what)
{
    TpcTensor own;
    if (!td) {
        if (!tpc_tensor_read(c, (unsigned)t, &own))
            return;
        td = &own;
    }
    if (t < 0)
        t = tensor_number(c, td);
    GString *msg = g_string_new(NULL);
    g_string_append_printf(msg, "%s tensor %d at (", what, t);
    unsigned rank = 0;
    for (unsigned d = 0; d < 5; d++)
        if (td->valid_mask & (1u << d))
            rank = d + 1;
    for (unsigned d = 0; d < MAX(rank, 1u); d++)
        g_string_append_printf(msg, "%s%" PRId32, d ? ", " : "", coord[d]);
    g_string_append(msg, "): no element inside the tensor (sizes ");
    for (unsigned d = 0; d < MAX(rank, 1u); d++)
        g_string_append_printf(msg, "%s%" PRIu32, d ? "x" : "", td->size[d]);
    g_string_append(msg, ", dim 0 first)");
    c->parent.check(c->parent.check_opaque, &c->parent, c->pc, t, coord, dim0_only, msg->str);
    g_string_free(msg, TRUE);
}

/* Some lane of [lo, lo+n) enabled by en (NULL: all), e bytes a lane. */
static bool any_lane(const uint8_t *en, unsigned lo, unsigned n, unsigned e)
{
    for (unsigned j = lo; en && j < lo + n; j++)
        for (unsigned k = 0; k < e; k++)
            if (en[j * e + k])
                return true;
    return !en && n > 0;
}

/* Lane geometry shared by loads and stores. */
typedef struct Geo {
    unsigned e, nbytes; /* element size, register image size (256 or 32) */
    uint64_t pa0;       /* address of element c[0] */
    int64_t step;       /* bytes between consecutive dim-0 elements */
    bool hi_ok;
} Geo;

static void geo_init(const int32_t coord[5], bool vp, const TpcTensor *td, Geo *g)
{
    g->e = td->esize;
    g->nbytes = vp ? TPC_VPBYTES : TPC_VBYTES;
    /* tpc_tensor_addr and tpc_tensor_in_bounds_hi in one pass */
    uint64_t off = 0; /* wraps, see tpc_tensor_addr */
    bool hi_ok = true;
    for (unsigned d = 0; d < 5; d++) {
        if (!(td->valid_mask & (1u << d)))
            continue;
        off += (uint64_t)((int64_t)coord[d] * td->stride[d]);
        if (d && (coord[d] < 0 || (uint32_t)coord[d] >= td->size[d]))
            hi_ok = false;
    }
    g->pa0 = td->base + off * td->esize;
    g->step = (int64_t)td->stride[0] * td->esize;
    g->hi_ok = hi_ok;
}

static bool lane_enabled(const uint8_t *en, unsigned b0, unsigned e)
{
    if (!en)
        return true;
    for (unsigned k = 0; k < e; k++)
        if (en[b0 + k])
            return true;
    return false;
}

/* Register lanes [*first, *end) of [lo, lo+n) whose dim-0 element
 * c0 + j - shift is in bounds (tpc.md §3.4). */
static void d0_range(const TpcTensor *td, int32_t c0, int shift, unsigned lo, unsigned n,
                     unsigned *first, unsigned *end)
{
    int64_t f = lo, e = (int64_t)lo + n;
    if (td->valid_mask & 1u) {
        int64_t a = (int64_t)shift - c0;               /* lane of element 0 */
        int64_t z = (int64_t)td->size[0] + shift - c0; /* lane of element size0 */
        f = f > a ? f : a;
        e = e < z ? e : z;
    }
    if (e < f)
        e = f;
    *first = (unsigned)f;
    *end = (unsigned)e;
}

/* dst[b] = src[b] for bytes b in [b0, b1) enabled by en (NULL: all). */
static void copy_gated(uint8_t *dst, const uint8_t *src, const uint8_t *en, unsigned b0,
                       unsigned b1)
{
    if (!en) {
        memcpy(dst + b0, src + b0, b1 - b0);
        return;
    }
    for (unsigned b = b0; b < b1; b++)
        dst[b] = en[b] ? src[b] : dst[b];
}

/* gdb watchpoints on the lanes [first, end) of a tensor access, exactly the
 * bytes the access will touch: a load reads every lane with an enabled byte
 * whole; a store writes whole lanes, or only the enabled bytes of a partly
 * enabled one, and an RMW store reads and writes every lane with an enabled
 * byte.  True = a hit (the bundle is abandoned, see tpc_watch_hit).  Only
 * called while a debugger is attached. */
static bool lanes_watch_hit(TpcCpu *c, const Geo *g, unsigned first, unsigned end, int shift,
                            const uint8_t *en, bool store, bool rmw)
{
    unsigned e = g->e;
    for (unsigned j = first; j < end; j++) {
        if (!lane_enabled(en, j * e, e))
            continue;
        uint64_t pa = g->pa0 + (uint64_t)(((int64_t)j - shift) * g->step);
        bool full = true;
        for (unsigned k = 0; en && k < e; k++)
            full &= en[j * e + k] != 0;
        if (!store || rmw || full) {
            if ((store && tpc_watch_hit(c, pa, e, true)) ||
                ((!store || rmw) && tpc_watch_hit(c, pa, e, false)))
                return true;
            continue;
        }
        for (unsigned k = 0; k < e; k++)
            if (en[j * e + k] && tpc_watch_hit(c, pa + k, 1, true))
                return true;
    }
    return false;
}

bool tpc_tensor_load(TpcCpu *c, const TpcTensor *tdp, const int32_t coord[5], bool vp_dst,
                     unsigned lo, unsigned n, int elem_shift, const uint8_t *en, uint8_t *dst)
{
    const TpcTensor td = *tdp;
    Geo g;
    geo_init(coord, vp_dst, &td, &g);
    unsigned nl = g.nbytes / g.e, e = g.e;
    if (lo >= nl)
        return true;
    if (n > nl - lo)
        n = nl - lo;
    unsigned first = lo, end = lo;
    if (g.hi_ok)
        d0_range(&td, coord[0], elem_shift, lo, n, &first, &end);
    if (G_UNLIKELY(c->parent.check) && first >= end && any_lane(en, lo, n, e))
        tpc_check_tensor(c, -1, &td, coord, g.hi_ok, "ld_tnsr");
    if (G_UNLIKELY(c->m->debug) && lanes_watch_hit(c, &g, first, end, elem_shift, en, false, false))
        return false;

    if (!en && first < end && g.step == (int64_t)e) {
        /* Ungated contiguous span (the common case): straight into dst.  dst
         * is staging, so a fault half way leaves nothing architectural. */
        uint64_t pa = g.pa0 + (uint64_t)(((int64_t)first - elem_shift) * g.step);
        uint8_t *p = host_ptr(c, pa, (uint64_t)(end - first) * e, false);
        if (p) {
            tpc_race_note(c->race, pa, (uint64_t)(end - first) * e, false, c->pc,
                          G_UNLIKELY(c->race) ? tensor_number(c, &td) : -1);
            for (unsigned b = lo * e; b < first * e; b += e)
                memcpy(dst + b, &td.padding, e);
            memcpy(dst + first * e, p, (size_t)(end - first) * e);
            for (unsigned b = end * e; b < (lo + n) * e; b += e)
                memcpy(dst + b, &td.padding, e);
            return true;
        }
    }
    /* image of the involved lanes: padding, then the in-bounds elements */
    uint8_t img[TPC_VBYTES];
    for (unsigned b = lo * e; b < (lo + n) * e; b += e)
        memcpy(img + b, &td.padding, e);
    if (first < end) {
        uint64_t pa = g.pa0 + (uint64_t)(((int64_t)first - elem_shift) * g.step);
        uint8_t *p =
            g.step == (int64_t)e ? host_ptr(c, pa, (uint64_t)(end - first) * e, false) : NULL;
        if (p) {
            tpc_race_note(c->race, pa, (uint64_t)(end - first) * e, false, c->pc,
                          G_UNLIKELY(c->race) ? tensor_number(c, &td) : -1);
            memcpy(img + first * e, p, (size_t)(end - first) * e);
        } else {
            /* lane by lane: only enabled lanes touch memory; the lowest
             * failing lane is reported */
            for (unsigned j = first; j < end; j++) {
                if (!lane_enabled(en, j * e, e))
                    continue;
                uint64_t la = g.pa0 + (uint64_t)(((int64_t)j - elem_shift) * g.step);
                if (!tpc_global_read(c, la, img + j * e, e))
                    return false;
            }
        }
    }
    copy_gated(dst, img, en, lo * e, (lo + n) * e);
    return true;
}

bool tpc_tensor_store_plan(TpcCpu *c, const TpcTensor *tdp, const int32_t coord[5], bool vp_src,
                           unsigned lo, unsigned n, int elem_shift, const uint8_t *en,
                           const uint8_t *src, bool rmw, uint32_t rmw_ctl)
{
    TpcMemWrite *mw = &c->x.mw;
    const TpcTensor td = *tdp;
    Geo g;
    geo_init(coord, vp_src, &td, &g);
    mw->kind = TPC_MW_NONE;
    if (rmw) {
        static const uint8_t dt_size[8] = {1, 2, 4, 1, 2, 4, 2, 4};
        unsigned dt = rmw_ctl & 7u;
        if (dt_size[dt] != g.e)
            return tpc_fault(c, TPC_FAULT_ILLEGAL_INSTRUCTION, TPC_SLOT_ST | TPC_OPC_ST_st_tnsr << 8, 0);
        mw->rmw_dt = (uint8_t)dt;
        mw->rmw_op = (uint8_t)((rmw_ctl >> 4) & 3u);
    }
    unsigned nl = g.nbytes / g.e, e = g.e;
    if (G_UNLIKELY(c->parent.check) && lo < nl) {
        unsigned cn = MIN(n, nl - lo), f = lo, z = lo;
        if (g.hi_ok)
            d0_range(&td, coord[0], elem_shift, lo, cn, &f, &z);
        if (f >= z && any_lane(en, lo, cn, vp_src ? 1 : e))
            tpc_check_tensor(c, -1, &td, coord, g.hi_ok, "st_tnsr");
    }
    if (!g.hi_ok)
        return true; /* another dim out of bounds: whole store culled */
    if (lo >= nl)
        return true;
    if (n > nl - lo)
        n = nl - lo;
    unsigned first, end;
    d0_range(&td, coord[0], elem_shift, lo, n, &first, &end);
    if (first >= end)
        return true; /* every lane culled */
    /* A VPRF image is gated bit by bit (tpc.md §1.1, §10 item 6): bit k of
     * byte i follows predicate bit 8i+k, so the per-byte gate becomes the
     * mask of the bits of each image byte. */
    uint8_t bits[TPC_VPBYTES];
    mw->bit_en = vp_src && en;
    if (mw->bit_en) {
        for (unsigned i = 0; i < TPC_VPBYTES; i++) {
            uint8_t gm = 0;
            for (unsigned k = 0; k < 8; k++)
                gm |= (uint8_t)((en[8 * i + k] & 1u) << k);
            bits[i] = gm;
        }
        en = bits;
    }
    if (G_UNLIKELY(c->m->debug) && lanes_watch_hit(c, &g, first, end, elem_shift, en, true, rmw))
        return false;
    /* the common unpredicated store does not fill lane_en at all */
    mw->all_en = en == NULL;
    if (en)
        memcpy(mw->lane_en + first * e, en + first * e, (size_t)(end - first) * e);
    const uint8_t *len_en = en ? mw->lane_en : NULL;
    /* One check for a contiguous span; lane by lane only to find the lowest
     * failing lane (tpc.md §10 item 10) or for strided tensors. */
    mw->contig = g.step == (int64_t)e;
    uint64_t span_pa = g.pa0 + (uint64_t)(((int64_t)first - elem_shift) * g.step);
    /* the span's host bytes, found once for the check and the commit (the
     * map cannot change in between: both are in this bundle) */
    mw->host = mw->contig && !rmw ? host_ptr(c, span_pa, (uint64_t)(end - first) * e, true) : NULL;
    if (!mw->host && (!mw->contig || !is_ram(c, span_pa, (uint64_t)(end - first) * e))) {
        for (unsigned j = first; j < end; j++) {
            if (!lane_enabled(len_en, j * e, e))
                continue;
            int64_t rel = (int64_t)j - elem_shift;
            if (!tpc_global_check(c, g.pa0 + (uint64_t)(rel * g.step), e))
                return false;
        }
    }
    mw->kind = TPC_MW_TENSOR;
    mw->tensor = (int8_t)(G_UNLIKELY(c->race) ? tensor_number(c, &td) : -1);
    mw->esize = (uint8_t)e;
    mw->rmw = rmw;
    mw->pa = g.pa0;
    mw->lane_step = g.step;
    mw->lane_lo = first;
    mw->nlanes = end - first;
    mw->off = (uint32_t)elem_shift;
    const uint8_t *vs_end = (const uint8_t *)c->vstore + sizeof(c->vstore);
    if (src < c->vstore[0] || src >= vs_end) {
        /* not a register buffer (a VPRF image may be a caller's temporary) */
        memcpy(mw->data + first * e, src + first * e, (size_t)(end - first) * e);
        src = mw->data;
    }
    mw->src = src;
    return true;
}

static uint32_t rmw_apply(unsigned dt, unsigned op, uint32_t mem, uint32_t val)
{
    static const uint8_t dt_type[8] = {TPC_T_I8,  TPC_T_I16, TPC_T_I32,  TPC_T_U8,
                                       TPC_T_U16, TPC_T_U32, TPC_T_BF16, TPC_T_F32};
    unsigned t = dt_type[dt];
    if (tpc_type_is_float(t)) {
        float a = t == TPC_T_F32 ? tpc_f32(mem) : tpc_bf16_to_f32((uint16_t)mem);
        float b = t == TPC_T_F32 ? tpc_f32(val) : tpc_bf16_to_f32((uint16_t)val);
        float r;
        if (op == 0)
            r = a + b;
        else if (op == 1)
            r = a - b;
        else if (isnan(a) || isnan(b))
            r = NAN;
        else if (op == 2)
            r = (a < b || (a == b && signbit(a))) ? a : b;
        else
            r = (a > b || (a == b && !signbit(a))) ? a : b;
        return t == TPC_T_F32 ? tpc_f32_canon(r) : tpc_f32_to_bf16_rne(r);
    }
    bool nan;
    int64_t a = (int64_t)tpc_elem_to_double(mem, t, &nan);
    int64_t b = (int64_t)tpc_elem_to_double(val, t, &nan);
    int64_t r = op == 0 ? a + b : op == 1 ? a - b : op == 2 ? (a < b ? a : b) : (a > b ? a : b);
    return tpc_int_result(r, t, false);
}

void tpc_tensor_plan_span(TpcCpu *c, uint8_t *span, const uint8_t *src)
{
    TpcMemWrite *mw = &c->x.mw;
    mw->kind = TPC_MW_TENSOR;
    mw->host = span;
    mw->src = src;
    mw->all_en = mw->contig = true;
    mw->rmw = mw->bit_en = false;
    mw->esize = 1;
    mw->lane_lo = 0;
    mw->nlanes = TPC_VBYTES;
}

/* A whole-register tensor store: non-temporal (tpc_vl_stream_fn), which
 * skips reading the destination lines into the cache first.  Kernels
 * stream their outputs, and for them that read is a third of the memory
 * traffic (bench/tpc-stream: about a third faster).  The stores are weakly
 * ordered only towards other threads; tpc_cpu_step fences once per slice
 * (c->x.nt_stores), and this thread sees its own stores in order. */
static void store_stream(TpcCpu *c, uint8_t *p, const uint8_t *src, unsigned len)
{
    if (len == TPC_VBYTES) {
        if (tpc_vl_stream_fn()(p, src))
            c->x.nt_stores = true;
        return;
    }
    memcpy(p, src, len);
}

void tpc_tensor_store_span(TpcCpu *c, uint8_t *span, const uint8_t *src)
{
    before_store(c, span, TPC_VBYTES);
    store_stream(c, span, src, TPC_VBYTES);
}

bool tpc_tensor_store_in_ram(TpcCpu *c, const TpcMemWrite *mw)
{
    unsigned e = mw->esize;
    for (unsigned j = mw->lane_lo; j < mw->lane_lo + mw->nlanes; j++) {
        uint64_t pa = mw->pa + (uint64_t)(((int64_t)j - (int64_t)mw->off) * mw->lane_step);
        if (!host_ptr(c, pa, e, true))
            return false;
    }
    return true;
}

void tpc_tensor_store_commit(TpcCpu *c, const TpcMemWrite *mw)
{
    unsigned e = mw->esize;
    if (mw->host) {
        unsigned b0 = mw->lane_lo * e, len = mw->nlanes * e;
        uint8_t *p = mw->host;
        if (G_UNLIKELY(c->race)) {
            uint64_t pa =
                mw->pa + (uint64_t)(((int64_t)mw->lane_lo - (int64_t)mw->off) * mw->lane_step);
            tpc_race_note(c->race, pa, len, true, c->pc, mw->tensor);
        }
        before_store(c, p, len);
        if (mw->all_en) {
            store_stream(c, p, mw->src + b0, len);
            return;
        }
        if (mw->bit_en) {
            for (unsigned i = 0; i < len; i++) {
                uint8_t gm = mw->lane_en[b0 + i];
                p[i] = (uint8_t)((mw->src[b0 + i] & gm) | (p[i] & ~gm));
            }
            return;
        }
        for (unsigned i = 0; i < len; i++)
            if (mw->lane_en[b0 + i])
                p[i] = mw->src[b0 + i];
        return;
    }
    for (unsigned j = mw->lane_lo; j < mw->lane_lo + mw->nlanes; j++) {
        unsigned b0 = j * e;
        bool full = true, some = false;
        for (unsigned k = 0; k < e; k++) {
            bool on = mw->all_en || mw->lane_en[b0 + k] != 0;
            full &= on && (!mw->bit_en || mw->lane_en[b0 + k] == 0xFF);
            some |= on;
        }
        if (!some)
            continue;
        uint64_t pa = mw->pa + (uint64_t)(((int64_t)j - (int64_t)mw->off) * mw->lane_step);
        if (mw->rmw) {
            uint32_t mem = 0, val = 0;
            tpc_global_read(c, pa, &mem, e);
            memcpy(&val, mw->src + b0, e);
            uint32_t r = rmw_apply(mw->rmw_dt, mw->rmw_op, mem, val);
            tpc_global_write(c, pa, &r, e);
        } else if (full) {
            tpc_global_write(c, pa, mw->src + b0, e);
        } else {
            for (unsigned k = 0; k < e; k++) {
                uint8_t gm = mw->lane_en[b0 + k], v = mw->src[b0 + k];
                if (!gm)
                    continue;
                if (mw->bit_en && gm != 0xFF) {
                    uint8_t old = 0;
                    tpc_global_read(c, pa + k, &old, 1);
                    v = (uint8_t)((v & gm) | (old & ~gm));
                }
                tpc_global_write(c, pa + k, &v, 1);
            }
        }
    }
}
