/*
 * Store slot (tpc.md §5.4).  Every store reads its sources and checks every
 * address in the compute phase and leaves one planned memory effect in
 * c->x.mw, applied after the register commit, so a fault anywhere in the
 * bundle leaves memory untouched and stores see pre-bundle register values.
 */
#include <string.h>

#include "target/tpc/cpu.h"

bool tpc_exec_st_gen_addr(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o)
{
    return tpc_do_gen_addr(c, in, &in->c, o);
}

bool tpc_exec_st_prmt_indx(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o)
{
    return tpc_do_prmt_indx(c, in, &in->c, o);
}

bool tpc_exec_st_set_indx(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o)
{
    return tpc_do_set_indx(c, b, in, &in->c, in->b.raw >> 2, o);
}

static uint32_t scalar_value(TpcCpu *c, const TpcBundle *b, const TpcOperand *op, TpcSlotOut *o)
{
    uint32_t v = tpc_rd_scalar(c, b, op, o);
    return op->kind == TPC_OP_SP ? (v & 1u) : v;
}

bool tpc_exec_st_st_l(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o)
{
    if (!tpc_pred_scalar(c, in))
        return true;
    uint32_t a = tpc_rd_scalar(c, b, &in->a, o);
    bool mmio = in->b.raw & 1u;
    if (!tpc_check_local32(c, a, mmio))
        return false;
    c->x.mw.kind = mmio ? TPC_MW_CFG : TPC_MW_SLM;
    c->x.mw.off = a;
    c->x.mw.val = scalar_value(c, b, &in->c, o);
    return true;
}

bool tpc_exec_st_st_g(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o)
{
    if (!tpc_pred_scalar(c, in))
        return true;
    const TpcAddrReg *ad = &c->ad[in->a.num & 7];
    unsigned e = ad->esize ? ad->esize : 4;
    if (ad->pa & (e - 1))
        return tpc_fault(c, TPC_FAULT_MISALIGNED, 0, ad->pa);
    if (!tpc_global_check(c, ad->pa, e) || tpc_watch_hit(c, ad->pa, e, true))
        return false;
    c->x.mw.kind = TPC_MW_GLOBAL;
    c->x.mw.pa = ad->pa;
    c->x.mw.len = e;
    c->x.mw.val = scalar_value(c, b, &in->c, o);
    return true;
}

/* Vector value of the store (V or VP image) and its per-byte gate. */
static bool st_gate(TpcCpu *c, const TpcInsn *in, uint8_t m[TPC_VBYTES], const uint8_t **en)
{
    bool all;
    if (!tpc_pred_mask(c, in, 1, m, &all))
        return false;
    *en = all ? NULL : m;
    return true;
}

static const uint8_t *st_value(TpcCpu *c, const TpcOperand *op, uint8_t *tmp)
{
    if (op->kind == TPC_OP_VP || op->kind == TPC_OP_SP)
        return tpc_rd_vp(c, op, tmp);
    return c->v[op->num % TPC_NR_V];
}

/* half: 0 full, 1 low, 2 high; a VPRF half is bytes 0..15 / 16..31 of its
 * image (as ld_l_v_low/high) */
static bool st_l_v(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o, unsigned half)
{
    bool vp = in->c.kind == TPC_OP_VP;
    uint8_t m[TPC_VBYTES], tmp[TPC_VPBYTES];
    const uint8_t *en = NULL;
    if (!st_gate(c, in, m, &en))
        return true;
    uint32_t a = tpc_rd_scalar(c, b, &in->a, o);
    unsigned len = vp ? (half ? TPC_VPBYTES / 2 : TPC_VPBYTES) : half ? 128 : TPC_VBYTES;
    if (!tpc_check_vlm(c, a, len, half ? 128 : 256))
        return false;
    const uint8_t *src = st_value(c, &in->c, tmp);
    unsigned from = half == 2 ? (vp ? TPC_VPBYTES / 2 : 128) : 0;
    TpcMemWrite *mw = &c->x.mw;
    mw->kind = TPC_MW_VLM;
    mw->off = a;
    mw->len = len;
    memcpy(mw->data, src + from, len);
    for (unsigned i = 0; i < len; i++)
        mw->lane_en[i] = en && !vp ? en[from + i] : 1;
    if (vp && en) {
        /* VPRF image: bit j gated by predicate bit j (VLM is private, so the
         * merge with the old bits can be made here) */
        for (unsigned i = 0; i < len; i++) {
            uint8_t g = 0;
            for (unsigned k = 0; k < 8; k++)
                g |= (uint8_t)((en[8 * (from + i) + k] & 1u) << k);
            mw->data[i] = (uint8_t)((src[from + i] & g) | (c->vlm[a + i] & ~g));
            mw->lane_en[i] = 1;
        }
    }
    return true;
}

TPC_EXEC_HALVES(st, st_l_v, st_l_v)

bool tpc_exec_st_aso(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o)
{
    if (!tpc_pred_scalar(c, in))
        return true;
    c->x.mw.kind = TPC_MW_ASO;
    c->x.mw.val = (in->a.raw & 1u) ? 0xFFFFFFFFu : 1u;
    return true;
}

/* The PACK switch of ST_TNSR (docs/tpc-lut.rst "Pack stores"): the value
 * holds the elements of r = 4/E 32-bit lanes' worth interleaved, element
 * r*i + k being element 64*k + i of the stored row (what CONVERT f32->bf16
 * all_lanes leaves); packing puts them back in order.  E = 4: unchanged. */
static void tpc_st_pack(uint8_t *out, const uint8_t *in, unsigned e)
{
    if (e >= 4) {
        memcpy(out, in, TPC_VBYTES);
        return;
    }
    unsigned r = 4 / e;
    for (unsigned k = 0; k < r; k++)
        for (unsigned i = 0; i < 64; i++)
            memcpy(out + (64 * k + i) * e, in + (r * i + k) * e, e);
}

static bool st_tnsr(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o, unsigned half)
{
    bool vp = in->c.kind == TPC_OP_VP;
    /* a VPRF has no packed layout: pack is for 8/16-bit V rows */
    bool pack = (in->sw & 4u) != 0;
    if (vp && pack)
        return tpc_bad_operand(c, TPC_SLOT_ST, TPC_FIELD_SRC_C, &in->c);
    uint8_t m[TPC_VBYTES], tmp[TPC_VPBYTES];
    const uint8_t *en = NULL;
    if (!st_gate(c, in, m, &en))
        return true;
    TpcTensor td;
    TpcTnsrLanes w;
    if (!tpc_tensor_lanes(c, in, vp, half, 28, 31, &td, &w))
        return false;
    bool rmw = (in->sw & 2u) != 0;
    const uint8_t *val = st_value(c, &in->c, tmp);
    uint8_t packed[TPC_VBYTES], pm[TPC_VBYTES];
    if (pack) {
        tpc_st_pack(packed, val, td.esize);
        if (en) {
            tpc_st_pack(pm, en, td.esize);
            en = pm;
        }
        val = packed;
    }
    return tpc_tensor_store_plan(c, &td, c->irf[in->a.num & 31], vp, w.lo, w.n, w.shift, en, val,
                                 rmw, c->s[29]);
}

TPC_EXEC_HALVES(st, st_tnsr, st_tnsr)

/* st_tnsr of the fast form: one planned copy into the host span */
static bool st_tnsr_quick(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o)
{
    uint8_t *span = tpc_tensor_fast_span(c, in, true);
    if (G_UNLIKELY(!span))
        return st_tnsr(c, b, in, o, 0);
    tpc_tensor_plan_span(c, span, c->v[in->c.num % TPC_NR_V]);
    return true;
}

TpcExecFn tpc_st_quick(const TpcInsn *in)
{
    return in->opc == TPC_OPC_ST_st_tnsr && tpc_tensor_fast_form(in, &in->c) ? st_tnsr_quick : NULL;
}
