/*
 * VPU arithmetic (tpc.md §5.3): lane-wise MAC/MUL/ADD/SUB/MAX/MIN/ABS,
 * bitwise ops (also on VPRFs), shifts, MOV, and the wide (pair) results of
 * §1.2.  Each op computes a whole 256-byte result, then merges it with the
 * old destination under the predicate (income, §5.0.1).
 */
#include <math.h>
#include <string.h>

#include "target/tpc/cpu.h"
#include "target/tpc/lane.h"
#include "target/tpc/vlane.h"

/* Finish a VRF result held in o->vbuf[buf]: merge with the old value of V
 * idx under the mask and queue the write. */
static void put_v(TpcCpu *c, TpcSlotOut *o, unsigned idx, unsigned buf, const uint8_t *m, bool all)
{
    if (!all)
        tpc_merge(o->vbuf[buf], c->v[idx % TPC_NR_V], m);
    tpc_out_v(o, idx, buf);
}

/* Same for a VPRF result image in o->vpbuf; bit j is gated by m[j]. */
static void put_vp(TpcCpu *c, TpcSlotOut *o, unsigned idx, const uint8_t *m, bool all)
{
    if (!all) {
        uint8_t g[TPC_VPBYTES];
        tpc_vl_pack(g, m);
        tpc_vp_blend(o->vpbuf, c->vp[idx & 15], g);
    }
    tpc_out_vp(o, idx);
}

static bool pair_ok(TpcCpu *c, const TpcInsn *in)
{
    if (in->dst.kind == TPC_OP_V && (in->dst.num & 1u) == 0 && in->dst.num + 1 < TPC_NR_V)
        return true;
    return tpc_bad_operand(c, TPC_SLOT_VPU, TPC_FIELD_DEST, &in->dst);
}

/* MAC / MUL with a pair destination (tpc.md §1.2). */
static bool vpu_wide(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o, unsigned op,
                     const uint8_t *a, const uint8_t *bb)
{
    if (!pair_ok(c, in))
        return false;
    unsigned t = in->type, dn = in->dst.num;
    uint8_t m[TPC_VBYTES];
    bool all;
    if (!tpc_pred_mask(c, in, 4, m, &all))
        return true;
    if (t == TPC_T_I32 || t == TPC_T_U32) {
        /* {low, high} words of the 64-bit products */
        for (unsigned i = 0; i < 64; i++) {
            uint32_t x = tpc_ld_e(a, i, 4), y = tpc_ld_e(bb, i, 4);
            uint64_t p =
                t == TPC_T_I32 ? (uint64_t)((int64_t)(int32_t)x * (int32_t)y) : (uint64_t)x * y;
            tpc_st_e(o->vbuf[0], i, 4, (uint32_t)p);
            tpc_st_e(o->vbuf[1], i, 4, (uint32_t)(p >> 32));
        }
    } else {
        for (unsigned e = 0; e < 2; e++) {
            const uint8_t *acc = c->v[dn + e];
            for (unsigned i = 0; i < 64; i++) {
                uint32_t x = tpc_ld_e(a, 2 * i + e, 2), y = tpc_ld_e(bb, 2 * i + e, 2);
                uint32_t d = tpc_ld_e(acc, i, 4), r;
                if (t == TPC_T_BF16) {
                    /* f32 MAC/MUL of the widened bf16 values */
                    uint32_t fx = (x & 0xFFFFu) << 16, fy = (y & 0xFFFFu) << 16;
                    if (op == TPC_OPC_SPU_mac)
                        r = tpc_lane_f32_mac(fx, fy, d, in->sw & 2u);
                    else
                        r = tpc_lane_f32_mul(fx, fy);
                } else {
                    bool s = t == TPC_T_I16;
                    int64_t px = s ? (int16_t)x : (uint16_t)x, py = s ? (int16_t)y : (uint16_t)y;
                    int64_t p = px * py;
                    unsigned at = s ? TPC_T_I32 : TPC_T_U32;
                    if (op == TPC_OPC_SPU_mac) {
                        int64_t dv = s ? (int32_t)d : (int64_t)d;
                        r = tpc_int_result((in->sw & 2u) ? dv - p : dv + p, at, in->sw & 1u);
                    } else {
                        r = (uint32_t)p;
                    }
                }
                tpc_st_e(o->vbuf[e], i, 4, r);
            }
        }
    }
    put_v(c, o, dn, 0, m, all);
    put_v(c, o, dn + 1, 1, m, all);
    return true;
}

/* Bitwise .b ops on VPRFs: every bit on its own. */
static bool vpu_vp_logic(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o,
                         unsigned op)
{
    uint8_t m[TPC_VBYTES];
    bool all;
    if (!tpc_pred_mask(c, in, 1, m, &all))
        return true;
    uint8_t ta[TPC_VPBYTES], tb[TPC_VPBYTES];
    const uint8_t *a = tpc_rd_vp(c, &in->a, ta);
    const uint8_t *bb = in->b.kind != TPC_OP_NONE ? tpc_rd_vp(c, &in->b, tb) : a;
    for (unsigned j = 0; j < TPC_VPBYTES; j++) {
        uint8_t r;
        switch (op) {
        case TPC_OPC_SPU_or:
            r = a[j] | bb[j];
            break;
        case TPC_OPC_SPU_and:
            r = a[j] & bb[j];
            break;
        case TPC_OPC_SPU_xor:
            r = a[j] ^ bb[j];
            break;
        default:
            r = (uint8_t)~a[j];
            break;
        }
        o->vpbuf[j] = r;
    }
    put_vp(c, o, in->dst.num, m, all);
    return true;
}

static bool vpu_arith(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o, unsigned op)
{
    unsigned t = in->type;
    if (in->dst.kind == TPC_OP_VP || t == TPC_T_B)
        return vpu_vp_logic(c, b, in, o, op);
    unsigned e = tpc_type_size(t), n = TPC_VBYTES / e;
    uint8_t ta[TPC_VBYTES], tb[TPC_VBYTES];
    const uint8_t *a = tpc_rd_vec(c, b, &in->a, e, ta, o);
    const uint8_t *bb = in->b.kind != TPC_OP_NONE ? tpc_rd_vec(c, b, &in->b, e, tb, o) : a;
    if (tpc_vpu_pair_dest(op, t, in->sw))
        return vpu_wide(c, b, in, o, op, a, bb);

    uint8_t m[TPC_VBYTES];
    bool all;
    if (!tpc_pred_mask(c, in, e, m, &all))
        return true;
    unsigned dn = in->dst.num % TPC_NR_V;
    const uint8_t *old = c->v[dn];
    uint8_t *r = o->vbuf[0];
    if (op == TPC_OPC_SPU_add && !tpc_type_is_float(t)) {
        /* integer ADD also produces V_CARRY (byte-bit layout of §1.1); the
         * carry switch takes each lane's carry in from it */
        uint8_t cin[TPC_VBYTES];
        if (in->sw & 2u)
            tpc_vl_unpack(cin, c->v_carry);
        tpc_vl_arith(op, t, in->sw, r, a, bb, NULL, (in->sw & 2u) ? cin : NULL, o->vcarry);
        if (!all) {
            uint8_t g[TPC_VPBYTES];
            tpc_vl_pack(g, m);
            tpc_vp_blend(o->vcarry, c->v_carry, g);
        }
        tpc_out_w(o, TPC_WR_VCARRY, 0);
    } else if (!tpc_vl_arith(op, t, in->sw, r, a, bb, old, NULL, NULL)) {
        /* lane-ops.def's element-only rows: lane by lane */
        TpcLaneFn fn = tpc_alu_fn(TPC_SLOT_VPU, op, t, in->sw);
        g_assert(fn);
        for (unsigned i = 0; i < n; i++)
            tpc_st_e(r, i, e, fn(tpc_ld_e(a, i, e), tpc_ld_e(bb, i, e), tpc_ld_e(old, i, e)));
    }
    put_v(c, o, dn, 0, m, all);
    return true;
}

/* the ALU operation is named by its SPU opcode (exec-alu.c); the VPU's is the same */
#define VPU_ARITH(name)                                                                            \
    _Static_assert(TPC_OPC_VPU_##name == TPC_OPC_SPU_##name, #name);                               \
    bool tpc_exec_vpu_##name(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o)      \
    {                                                                                              \
        return vpu_arith(c, b, in, o, TPC_OPC_SPU_##name);                                         \
    }
VPU_ARITH(mac)
VPU_ARITH(mul)
VPU_ARITH(add)
VPU_ARITH(sub)
VPU_ARITH(max)
VPU_ARITH(min)
VPU_ARITH(abs)
VPU_ARITH(or)
VPU_ARITH(and)
VPU_ARITH(xor)
VPU_ARITH(not)
VPU_ARITH(shr)
VPU_ARITH(shl)
VPU_ARITH(ash)

/* MOV (tpc.md §5.3.2). */
bool tpc_exec_vpu_mov(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o)
{
    if (in->sw & 1u)
        return tpc_fault(c, TPC_FAULT_ILLEGAL_INSTRUCTION, TPC_SLOT_VPU | (unsigned)in->opc << 8, 0);
    unsigned e = tpc_type_size(in->type);
    uint8_t m[TPC_VBYTES];
    bool all;
    if (in->dst.kind == TPC_OP_VP) {
        if (!tpc_pred_mask(c, in, e, m, &all))
            return true;
        if (in->a.kind == TPC_OP_VP || in->a.kind == TPC_OP_SP) {
            uint8_t tmp[TPC_VPBYTES];
            memcpy(o->vpbuf, tpc_rd_vp(c, &in->a, tmp), TPC_VPBYTES);
        } else {
            uint32_t v = tpc_rd_scalar(c, b, &in->a, o);
            unsigned k = in->b.raw & 15u;
            memcpy(o->vpbuf, c->vp[in->dst.num & 15], TPC_VPBYTES);
            for (unsigned s = 0; s < 8; s++)
                if (k >= 8 || s == k)
                    memcpy(o->vpbuf + 4 * s, &v, 4);
        }
        put_vp(c, o, in->dst.num, m, all);
        return true;
    }
    if (!tpc_pred_mask(c, in, e, m, &all))
        return true;
    const uint8_t *src = tpc_rd_vec(c, b, &in->a, e, o->vbuf[0], o);
    if (src != o->vbuf[0])
        memcpy(o->vbuf[0], src, TPC_VBYTES);
    put_v(c, o, in->dst.num, 0, m, all);
    return true;
}
