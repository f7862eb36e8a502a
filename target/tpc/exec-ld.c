/*
 * Load slot (tpc.md §5.1, seed 004): index/address register instructions,
 * MOV between register files, LD_L (SLM / CFG), LD_G, LD_L_V* and LD_TNSR*.
 * Vector forms test a VPRF predicate per byte (§5.0.1, §10 item 6).
 */
#include <string.h>

#include "nxemu/poison.h"
#include "target/tpc/cpu.h"

/* ---- shared with the SPU and store slots ---- */

bool tpc_do_gen_addr(TpcCpu *c, const TpcInsn *in, const TpcOperand *dst, TpcSlotOut *o)
{
    if (!tpc_pred_scalar(c, in))
        return true;
    unsigned t = in->b.raw & 15u;
    TpcTensor td;
    if (!tpc_tensor_read(c, t, &td))
        return false;
    if (G_UNLIKELY(c->parent.check)) {
        const int32_t *k = c->irf[in->a.num & 31];
        if (!tpc_tensor_in_bounds_hi(&td, k) || !tpc_tensor_in_bounds_d0(&td, k[0]))
            tpc_check_tensor(c, (int)t, &td, k, false, "gen_addr");
    }
    TpcWrite *w = tpc_out_w(o, TPC_WR_AD, dst->num & 7);
    w->ad =
        (TpcAddrReg){tpc_tensor_addr(&td, c->irf[in->a.num & 31]), (uint8_t)td.esize, (uint8_t)t};
    return true;
}

bool tpc_do_prmt_indx(TpcCpu *c, const TpcInsn *in, const TpcOperand *dst, TpcSlotOut *o)
{
    if (!tpc_pred_scalar(c, in))
        return true;
    const int32_t *src = c->irf[in->a.num & 31];
    uint32_t sel = c->s[in->b.num % TPC_NR_S];
    TpcWrite *w = tpc_out_w(o, TPC_WR_I, dst->num & 31);
    w->mask = 0x1F;
    for (unsigned d = 0; d < 5; d++) {
        unsigned k = (sel >> (3 * d)) & 7u;
        w->dims[d] = k <= 4 ? src[k] : 0;
    }
    return true;
}

bool tpc_do_set_indx(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, const TpcOperand *dst,
                     unsigned mask, TpcSlotOut *o)
{
    if (!tpc_pred_scalar(c, in))
        return true;
    uint32_t v = tpc_rd_scalar(c, b, &in->a, o);
    TpcWrite *w = tpc_out_w(o, TPC_WR_I, dst->num & 31);
    w->mask = (uint8_t)(mask & 0x1F);
    for (unsigned d = 0; d < 5; d++)
        w->dims[d] = (int32_t)v;
    return true;
}

bool tpc_exec_ld_gen_addr(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o)
{
    return tpc_do_gen_addr(c, in, &in->dst, o);
}

bool tpc_exec_ld_prmt_indx(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o)
{
    return tpc_do_prmt_indx(c, in, &in->dst, o);
}

bool tpc_exec_ld_set_indx(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o)
{
    return tpc_do_set_indx(c, b, in, &in->dst, in->b.raw >> 2, o);
}

/* ---- vector destination helpers ---- */

/* Start a vector result in vbuf[0]: copy of the old destination (income),
 * and the per-byte gate of the load/store slot.  Returns false (and sets
 * *skip) when nothing executes. */
static bool ldst_gate(TpcCpu *c, const TpcInsn *in, uint8_t m[TPC_VBYTES], const uint8_t **en)
{
    bool all;
    if (!tpc_pred_mask(c, in, 1, m, &all))
        return false;
    *en = all ? NULL : m;
    return true;
}

static void put_vec(TpcCpu *c, const TpcOperand *dst, TpcSlotOut *o, const uint8_t *res,
                    const uint8_t *en)
{
    if (dst->kind == TPC_OP_VP) {
        /* VPRF images are gated bit by bit: bit j by predicate bit j */
        const uint8_t *old = c->vp[dst->num & 15];
        for (unsigned i = 0; i < TPC_VPBYTES; i++) {
            uint8_t g = 0xFF;
            if (en) {
                g = 0;
                for (unsigned k = 0; k < 8; k++)
                    g |= (uint8_t)((en[8 * i + k] & 1u) << k);
            }
            o->vpbuf[i] = (uint8_t)((res[i] & g) | (old[i] & ~g));
        }
        tpc_out_vp(o, dst->num);
        return;
    }
    uint8_t *r = o->vbuf[0];
    if (r != res)
        memcpy(r, res, TPC_VBYTES);
    if (en)
        tpc_merge(r, c->v[dst->num % TPC_NR_V], en);
    tpc_out_v(o, dst->num, 0);
}

/* Scalar destination write shared by LD_L and LD_G. */
static void put_scalar(TpcSlotOut *o, const TpcOperand *dst, uint32_t v)
{
    if (dst->kind == TPC_OP_SP)
        tpc_out_sp(o, dst->num, v & 1u);
    else
        tpc_out_s(o, dst->num, v);
}

static uint32_t ext_scalar(uint32_t v, unsigned t)
{
    switch (t) {
    case TPC_T_I8:
        return (uint32_t)(int32_t)(int8_t)v;
    case TPC_T_U8:
        return v & 0xFFu;
    case TPC_T_I16:
    case TPC_T_BF16:
        return t == TPC_T_I16 ? (uint32_t)(int32_t)(int16_t)v : v & 0xFFFFu;
    case TPC_T_U16:
        return v & 0xFFFFu;
    default:
        return v;
    }
}

/* MOV of the load slot (§5.1.1) and, via tpc_exec_vpu_mov, the VPU. */
bool tpc_exec_ld_mov(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o)
{
    if (in->b.kind == TPC_OP_HWREG) { /* mov Sd, PC */
        if (tpc_pred_scalar(c, in))
            tpc_out_s(o, in->dst.num, tpc_rd_scalar(c, b, &in->b, o));
        return true;
    }
    uint8_t m[TPC_VBYTES];
    const uint8_t *en = NULL;
    unsigned bfield = in->b.raw;
    switch (in->dst.kind) {
    case TPC_OP_V: {
        if (!ldst_gate(c, in, m, &en))
            return true;
        unsigned t = (bfield >> 4) & 15u;
        const uint8_t *src = tpc_rd_vec(c, b, &in->a, tpc_type_size(t), o->vbuf[0], o);
        put_vec(c, &in->dst, o, src, en);
        return true;
    }
    case TPC_OP_VP: {
        if (!ldst_gate(c, in, m, &en))
            return true;
        uint8_t img[TPC_VPBYTES];
        if (in->a.kind == TPC_OP_VP || in->a.kind == TPC_OP_SP) {
            uint8_t tmp[TPC_VPBYTES];
            memcpy(img, tpc_rd_vp(c, &in->a, tmp), TPC_VPBYTES);
        } else {
            uint32_t v = tpc_rd_scalar(c, b, &in->a, o);
            unsigned k = bfield & 15u;
            memcpy(img, c->vp[in->dst.num & 15], TPC_VPBYTES);
            for (unsigned s = 0; s < 8; s++)
                if (k >= 8 || s == k)
                    memcpy(img + 4 * s, &v, 4);
        }
        put_vec(c, &in->dst, o, img, en);
        return true;
    }
    case TPC_OP_S:
        if (tpc_pred_scalar(c, in))
            tpc_out_s(o, in->dst.num,
                      ext_scalar(tpc_rd_scalar(c, b, &in->a, o), (bfield >> 4) & 15));
        return true;
    case TPC_OP_SP:
        if (tpc_pred_scalar(c, in))
            tpc_out_sp(o, in->dst.num, tpc_rd_scalar(c, b, &in->a, o) & 1u);
        return true;
    case TPC_OP_I: {
        if (!tpc_pred_scalar(c, in))
            return true;
        TpcWrite *w = tpc_out_w(o, TPC_WR_I, in->dst.num & 31);
        w->mask = (uint8_t)((bfield >> 2) & 0x1F);
        if (in->a.kind == TPC_OP_I) {
            memcpy(w->dims, c->irf[in->a.num & 31], sizeof(w->dims));
        } else {
            uint32_t v = tpc_rd_scalar(c, b, &in->a, o);
            for (unsigned d = 0; d < 5; d++)
                w->dims[d] = (int32_t)v;
        }
        return true;
    }
    default:
        return tpc_bad_operand(c, TPC_SLOT_LD, TPC_FIELD_DEST, &in->dst);
    }
}

/* ---- local memories ---- */

/* SLM word or CFG word address check (tpc.md §2, §10 items 10, 11). */
bool tpc_check_local32(TpcCpu *c, uint32_t a, bool mmio)
{
    if (a & 3u)
        return tpc_fault(c, TPC_FAULT_MISALIGNED, 0, a);
    if (a >= (mmio ? 0x1000u : TPC_SLM_SIZE))
        return tpc_fault(c, TPC_FAULT_SLM_RANGE, 0, a);
    return true;
}

bool tpc_exec_ld_ld_l(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o)
{
    if (!tpc_pred_scalar(c, in))
        return true;
    uint32_t a = tpc_rd_scalar(c, b, &in->a, o);
    bool mmio = in->b.raw & 1u;
    if (!tpc_check_local32(c, a, mmio))
        return false;
    uint32_t v;
    if (mmio)
        v = c->port.kv_read(c->port.opaque, a);
    else
        memcpy(&v, c->slm + a, 4);
    put_scalar(o, &in->dst, v);
    return true;
}

bool tpc_exec_ld_ld_g(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o)
{
    uint8_t m[TPC_VBYTES];
    const uint8_t *en = NULL;
    bool vec = in->dst.kind == TPC_OP_V || in->dst.kind == TPC_OP_VP;
    if (vec) {
        if (!ldst_gate(c, in, m, &en))
            return true;
    } else if (!tpc_pred_scalar(c, in)) {
        return true;
    }
    const TpcAddrReg *ad = &c->ad[in->a.num & 7];
    unsigned e = ad->esize ? ad->esize : 4;
    if (ad->pa & (e - 1))
        return tpc_fault(c, TPC_FAULT_MISALIGNED, 0, ad->pa);
    if (tpc_watch_hit(c, ad->pa, e, false))
        return false;
    uint32_t v = 0;
    if (!tpc_global_read(c, ad->pa, &v, e))
        return false;
    if (!vec) {
        put_scalar(o, &in->dst, v);
        return true;
    }
    uint8_t *r = o->vbuf[0];
    for (unsigned i = 0; i < TPC_VBYTES; i += e)
        memcpy(r + i, &v, e);
    put_vec(c, &in->dst, o, r, en);
    return true;
}

/* VLM access check: alignment, then range (tpc.md §2). */
bool tpc_check_vlm(TpcCpu *c, uint32_t a, unsigned len, unsigned align)
{
    if (a & (align - 1))
        return tpc_fault(c, TPC_FAULT_MISALIGNED, 0, a);
    if ((uint64_t)a + len > c->vlm_size)
        return tpc_fault(c, TPC_FAULT_VLM_RANGE, 0, a);
    return true;
}

/* Poison mode: report VLM bytes the load delivers to an enabled register
 * byte (en per register byte; a VPRF image byte i holds predicate bits
 * 8i..8i+7) that were never written. */
static void ld_l_v_poison(TpcCpu *c, uint32_t a, unsigned len, unsigned half, bool vp,
                          const uint8_t *en)
{
    uint8_t used[TPC_VBYTES];
    const uint8_t *u = NULL;
    if (en && vp) {
        for (unsigned i = 0; i < len; i++) {
            used[i] = 0;
            for (unsigned k = 0; k < 8; k++)
                used[i] |= en[8 * i + k];
        }
        u = used;
    } else if (en) {
        u = en + (half == 2 ? 128 : 0);
    }
    poison_vlm_read(c->parent.poison, c->t, c->pc, a, len, u);
}

/* half: 0 full, 1 low, 2 high.  A VPRF half is bytes 0..15 / 16..31 of its
 * 32-byte image: the predicate bits of the V register half (tpc.md §5.1). */
static bool ld_l_v(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o, unsigned half)
{
    bool vp = in->dst.kind == TPC_OP_VP;
    uint8_t m[TPC_VBYTES];
    const uint8_t *en = NULL;
    if (!ldst_gate(c, in, m, &en))
        return true;
    uint32_t a = tpc_rd_scalar(c, b, &in->a, o);
    unsigned len = vp ? (half ? TPC_VPBYTES / 2 : TPC_VPBYTES) : half ? 128 : TPC_VBYTES;
    if (!tpc_check_vlm(c, a, len, half ? 128 : 256))
        return false;
    if (G_UNLIKELY(c->parent.poison))
        ld_l_v_poison(c, a, len, half, vp, en);
    uint8_t *r = o->vbuf[0];
    if (vp) {
        uint8_t img[TPC_VPBYTES];
        memcpy(img, c->vp[in->dst.num & 15], TPC_VPBYTES);
        memcpy(img + (half == 2 ? TPC_VPBYTES / 2 : 0), c->vlm + a, len);
        put_vec(c, &in->dst, o, img, en);
        return true;
    }
    memcpy(r, c->v[in->dst.num % TPC_NR_V], TPC_VBYTES);
    unsigned at = half == 2 ? 128 : 0;
    memcpy(r + at, c->vlm + a, len);
    put_vec(c, &in->dst, o, r, en);
    return true;
}

TPC_EXEC_HALVES(ld, ld_l_v, ld_l_v)

/* ---- tensors ---- */

static bool ld_tnsr(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o, unsigned half)
{
    bool vp = in->dst.kind == TPC_OP_VP;
    uint8_t m[TPC_VBYTES];
    const uint8_t *en = NULL;
    if (!ldst_gate(c, in, m, &en))
        return true;
    TpcTensor td;
    TpcTnsrLanes w;
    if (!tpc_tensor_lanes(c, in, vp, half, 27, 30, &td, &w))
        return false;
    if (vp) {
        /* VPRF: load the involved lanes, then gate bit by bit */
        uint8_t img[TPC_VPBYTES];
        memcpy(img, c->vp[in->dst.num & 15], TPC_VPBYTES);
        if (!tpc_tensor_load(c, &td, c->irf[in->a.num & 31], true, w.lo, w.n, w.shift, NULL, img))
            return false;
        put_vec(c, &in->dst, o, img, en);
        return true;
    }
    uint8_t *r = o->vbuf[0];
    /* lanes the load does not write keep the old value */
    if (en || w.lo != 0 || w.n < w.nl)
        memcpy(r, c->v[in->dst.num % TPC_NR_V], TPC_VBYTES);
    if (!tpc_tensor_load(c, &td, c->irf[in->a.num & 31], false, w.lo, w.n, w.shift, en, r))
        return false;
    tpc_out_v(o, in->dst.num, 0);
    return true;
}

TPC_EXEC_HALVES(ld, ld_tnsr, ld_tnsr)

/* ld_tnsr Vd of the fast form: straight from the host span when it can */
static bool ld_tnsr_quick(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o)
{
    const uint8_t *span = tpc_tensor_fast_span(c, in, false);
    if (G_UNLIKELY(!span))
        return ld_tnsr(c, b, in, o, 0);
    tpc_prefetch_stream(span);
    tpc_vl_mov_fn()(o->vbuf[0], span, span, span);
    tpc_out_v(o, in->dst.num, 0);
    return true;
}

TpcExecFn tpc_ld_quick(const TpcInsn *in)
{
    return in->opc == TPC_OPC_LD_ld_tnsr && tpc_tensor_fast_form(in, &in->dst) ? ld_tnsr_quick : NULL;
}
