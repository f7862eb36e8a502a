/*
 * VPU CONVERT, compares, selects and permutes (tpc.md §5.3.1, §5.3.3-5.3.5):
 * CMP_* into VPRFs, SEL_* and SEL2_*, SHUFFLE, PACK/UNPACK, MOV_DUAL_GROUP,
 * MOV_GROUP.
 */
#include <string.h>

#include "target/tpc/cpu.h"
#include "target/tpc/vlane.h"

static void put_v(TpcCpu *c, TpcSlotOut *o, unsigned idx, unsigned buf, const uint8_t *m, bool all)
{
    if (!all)
        tpc_merge(o->vbuf[buf], c->v[idx % TPC_NR_V], m);
    tpc_out_v(o, idx, buf);
}

/* ---- CONVERT ---- */

bool tpc_exec_vpu_convert(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o)
{
    unsigned st = in->type, bf = in->b.raw, dt = bf & 15u, lane_sel = (bf >> 4) & 3u;
    unsigned rm = in->sw & 7u;
    if (rm == 7)
        return tpc_fault(c, TPC_FAULT_ILLEGAL_INSTRUCTION, TPC_SLOT_VPU | (unsigned)in->opc << 8, 0);
    if (dt >= TPC_T_COUNT || dt == TPC_T_B)
        return tpc_bad_operand(c, TPC_SLOT_VPU, TPC_FIELD_SRC_B, &in->b);
    unsigned es = tpc_type_size(st), et = tpc_type_size(dt);
    bool f2b_all = tpc_convert_pair_src(st, bf);
    bool b2f = tpc_convert_pair_dest(st, bf);
    if ((f2b_all && (in->a.kind != TPC_OP_V || in->a.num + 1 >= TPC_NR_V)))
        return tpc_bad_operand(c, TPC_SLOT_VPU, TPC_FIELD_SRC_A, &in->a);
    if (b2f && (in->dst.kind != TPC_OP_V || (in->dst.num & 1u) || in->dst.num + 1 >= TPC_NR_V))
        return tpc_bad_operand(c, TPC_SLOT_VPU, TPC_FIELD_DEST, &in->dst);
    uint8_t m[TPC_VBYTES];
    bool all;
    if (!tpc_pred_mask(c, in, et, m, &all))
        return true;
    rm = tpc_resolve_rm(c, rm);
    if (rm == TPC_RM_SR)
        o->lfsr_v_read = true;
    uint8_t ta[TPC_VBYTES];
    const uint8_t *a = tpc_rd_vec(c, b, &in->a, es, ta, o);
    unsigned dn = in->dst.num % TPC_NR_V;
    uint8_t *r = o->vbuf[0];
    memcpy(r, c->v[dn], TPC_VBYTES);
#define CVT(raw, lane) tpc_convert((raw), st, dt, rm, c->lfsr_v[((lane)*es / 4) & 63])
    if (b2f) {
        for (unsigned e = 0; e < 2; e++) {
            for (unsigned i = 0; i < 64; i++)
                tpc_st_e(o->vbuf[e], i, 4, CVT(tpc_ld_e(a, 2 * i + e, 2), 2 * i + e));
        }
        put_v(c, o, dn, 0, m, all);
        put_v(c, o, dn + 1, 1, m, all);
        return true;
    }
    TpcVlFn loop = es == et ? tpc_vl_convert_fn(st, dt, rm) : NULL;
    if (loop) {
        loop(r, a, a, a); /* the same lanes, vectorised (vlane.h) */
    } else if (es == et) {
        for (unsigned i = 0; i < TPC_VBYTES / es; i++)
            tpc_st_e(r, i, et, CVT(tpc_ld_e(a, i, es), i));
    } else if (f2b_all) {
        for (unsigned e = 0; e < 2; e++) {
            const uint8_t *src = c->v[in->a.num + e];
            for (unsigned i = 0; i < 64; i++)
                tpc_st_e(r, 2 * i + e, 2, CVT(tpc_ld_e(src, i, 4), i));
        }
    } else if (et < es) {
        unsigned ratio = es / et;
        for (unsigned i = 0; i < TPC_VBYTES / es; i++)
            tpc_st_e(r, ratio * i + lane_sel % ratio, et, CVT(tpc_ld_e(a, i, es), i));
    } else {
        unsigned ratio = et / es;
        for (unsigned i = 0; i < TPC_VBYTES / et; i++) {
            unsigned k = ratio * i + lane_sel % ratio;
            tpc_st_e(r, i, et, CVT(tpc_ld_e(a, k, es), k));
        }
    }
#undef CVT
    put_v(c, o, dn, 0, m, all);
    return true;
}

/* ---- compares into a VPRF ---- */

static bool vpu_cmp(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o, unsigned op)
{
    unsigned t = in->type, e = tpc_type_size(t);
    uint8_t m[TPC_VBYTES];
    bool all;
    if (!tpc_pred_mask(c, in, e, m, &all))
        return true;
    uint8_t ta[TPC_VBYTES], tb[TPC_VBYTES];
    const uint8_t *a = tpc_rd_vec(c, b, &in->a, e, ta, o);
    const uint8_t *bb = tpc_rd_vec(c, b, &in->b, e, tb, o);
    bool mez = op == TPC_OPC_SPU_cmp_eq && (in->sw & 1u);
    tpc_vl_cmp(op, t, mez, o->vpbuf, a, bb);
    if (!all) {
        uint8_t g[TPC_VPBYTES];
        tpc_vl_pack(g, m);
        tpc_vp_blend(o->vpbuf, c->vp[in->dst.num & 15], g);
    }
    tpc_out_vp(o, in->dst.num);
    return true;
}

/* the ALU operation is named by its SPU opcode (exec-alu.c); the VPU's is the same */
#define VPU_CMP(name)                                                                              \
    _Static_assert(TPC_OPC_VPU_##name == TPC_OPC_SPU_##name, #name);                               \
    bool tpc_exec_vpu_##name(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o)      \
    {                                                                                              \
        return vpu_cmp(c, b, in, o, TPC_OPC_SPU_##name);                                           \
    }
VPU_CMP(cmp_eq)
VPU_CMP(cmp_neq)
VPU_CMP(cmp_less)
VPU_CMP(cmp_leq)
VPU_CMP(cmp_grt)
VPU_CMP(cmp_geq)

/* ---- selects ---- */

static bool vpu_sel(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o, unsigned op,
                    bool two)
{
    if (two && (in->dst.kind != TPC_OP_V || (in->dst.num & 1u) || in->dst.num + 1 >= TPC_NR_V))
        return tpc_bad_operand(c, TPC_SLOT_VPU, TPC_FIELD_DEST, &in->dst);
    unsigned t = in->type, e = tpc_type_size(t);
    uint8_t m[TPC_VBYTES];
    bool all;
    if (!tpc_pred_mask(c, in, e, m, &all))
        return true;
    uint8_t ta[TPC_VBYTES], tb[TPC_VBYTES], tc[TPC_VBYTES], td[TPC_VBYTES];
    const uint8_t *a = tpc_rd_vec(c, b, &in->a, e, ta, o);
    const uint8_t *bb = tpc_rd_vec(c, b, &in->b, e, tb, o);
    const uint8_t *cc = tpc_rd_vec(c, b, &in->c, e, tc, o);
    const uint8_t *dd = tpc_rd_vec(c, b, &in->d, e, td, o);
    bool mez = op == TPC_OPC_SPU_cmp_eq && (in->sw & 1u);
    tpc_vl_sel(op, t, mez, o->vbuf[0], two ? o->vbuf[1] : NULL, a, bb, cc, dd);
    put_v(c, o, in->dst.num, 0, m, all);
    if (two)
        put_v(c, o, in->dst.num + 1, 1, m, all);
    return true;
}

/* sel*_REL selects on the compare REL (its SPU opcode names the ALU relation) */
#define VPU_SEL(name, cmp, two)                                                                    \
    bool tpc_exec_vpu_##name(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o)      \
    {                                                                                              \
        return vpu_sel(c, b, in, o, TPC_OPC_SPU_##cmp, two);                                       \
    }
VPU_SEL(sel_eq, cmp_eq, false)
VPU_SEL(sel_neq, cmp_neq, false)
VPU_SEL(sel_less, cmp_less, false)
VPU_SEL(sel_leq, cmp_leq, false)
VPU_SEL(sel_grt, cmp_grt, false)
VPU_SEL(sel_geq, cmp_geq, false)
VPU_SEL(sel2_less, cmp_less, true)
VPU_SEL(sel2_leq, cmp_leq, true)
VPU_SEL(sel2_grt, cmp_grt, true)
VPU_SEL(sel2_geq, cmp_geq, true)

/* ---- permutes ---- */

bool tpc_exec_vpu_shuffle(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o)
{
    unsigned e = tpc_type_size(in->type);
    uint8_t m[TPC_VBYTES];
    bool all;
    if (!tpc_pred_mask(c, in, e, m, &all))
        return true;
    uint8_t ta[TPC_VBYTES], tb[TPC_VBYTES];
    const uint8_t *a = tpc_rd_vec(c, b, &in->a, e, ta, o);
    const uint8_t *ctl = tpc_rd_vec(c, b, &in->b, 1, tb, o);
    unsigned dn = in->dst.num % TPC_NR_V;
    uint8_t *r = o->vbuf[0];
    memcpy(r, c->v[dn], TPC_VBYTES);
    unsigned per_group = 32 / e;
    for (unsigned k = 0; k < TPC_VBYTES / e; k++) {
        uint8_t cb = ctl[k * e];
        if (!(cb & 0x80))
            continue;
        unsigned q = (k * e) / 64, g = (cb >> 5) & 1u, el = (cb & 31u) % per_group;
        unsigned src = (64 * q + 32 * g) / e + el;
        tpc_st_e(r, k, e, tpc_ld_e(a, src, e));
    }
    put_v(c, o, dn, 0, m, all);
    return true;
}

static bool pack_common(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o,
                        bool unpack)
{
    unsigned t = in->type, e = tpc_type_size(t);
    if (e == 4)
        return tpc_fault(c, TPC_FAULT_ILLEGAL_INSTRUCTION, TPC_SLOT_VPU | (uint32_t)in->opc << 8,
                         0);
    uint8_t m[TPC_VBYTES];
    bool all;
    if (!tpc_pred_mask(c, in, e, m, &all))
        return true;
    unsigned g = in->b.raw & 1u, s = (in->b.raw & 2u) ? 4 : 2, h = (in->b.raw >> 2) & 1u;
    uint8_t ta[TPC_VBYTES];
    const uint8_t *a = tpc_rd_vec(c, b, &in->a, e, ta, o);
    unsigned dn = in->dst.num % TPC_NR_V;
    uint8_t *r = o->vbuf[0];
    memcpy(r, c->v[dn], TPC_VBYTES);
    unsigned dg_el = 64 / e; /* elements per dual group */
    for (unsigned q = 0; q < 4; q++) {
        unsigned base = q * dg_el;
        if (!unpack) {
            unsigned cnt = dg_el / s, dst0 = (64 * q + 32 * g) / e;
            for (unsigned i = 0; i < cnt; i++)
                tpc_st_e(r, dst0 + i, e, tpc_ld_e(a, base + i * s, e));
        } else {
            unsigned src0 = (64 * q + 32 * g + (s == 4 ? 16 * h : 0)) / e;
            unsigned cnt = dg_el / s;
            bool sgn = t == TPC_T_I8 || t == TPC_T_I16;
            for (unsigned i = 0; i < cnt; i++) {
                uint32_t v = tpc_ld_e(a, src0 + i, e);
                uint32_t fill = (sgn && (v >> (8 * e - 1)) & 1u) ? 0xFFFFFFFFu : 0u;
                tpc_st_e(r, base + i * s, e, v);
                for (unsigned k = 1; k < s; k++)
                    tpc_st_e(r, base + i * s + k, e, fill);
            }
        }
    }
    put_v(c, o, dn, 0, m, all);
    return true;
}

bool tpc_exec_vpu_pack(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o)
{
    return pack_common(c, b, in, o, false);
}

bool tpc_exec_vpu_unpack(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o)
{
    return pack_common(c, b, in, o, true);
}

/* Copy group h of dual group sq of a into group h' of dual group dq of r,
 * bytes enabled by the 32-bit IMM mask. */
static void copy_group(uint8_t *r, unsigned dq, unsigned dh, const uint8_t *a, unsigned sq,
                       unsigned sh, uint32_t mask)
{
    for (unsigned k = 0; k < 32; k++)
        if ((mask >> k) & 1u)
            r[64 * dq + 32 * dh + k] = a[64 * sq + 32 * sh + k];
}

bool tpc_exec_vpu_mov_dg(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o)
{
    unsigned kind = in->sw & 3u;
    if (kind > 1)
        return tpc_fault(c, TPC_FAULT_ILLEGAL_INSTRUCTION, TPC_SLOT_VPU | (unsigned)in->opc << 8, 0);
    uint8_t m[TPC_VBYTES];
    bool all;
    if (!tpc_pred_mask(c, in, 1, m, &all))
        return true;
    uint8_t ta[TPC_VBYTES];
    const uint8_t *a = tpc_rd_vec(c, b, &in->a, 4, ta, o);
    unsigned dn = in->dst.num % TPC_NR_V;
    uint8_t *r = o->vbuf[0];
    memcpy(r, c->v[dn], TPC_VBYTES);
    uint32_t mask = b->imm, f = in->b.raw;
    if (kind == 0) {
        unsigned s = f & 3u, t = (f >> 2) & 3u;
        for (unsigned h = 0; h < 2; h++)
            if ((f >> (4 + h)) & 1u)
                copy_group(r, t, h, a, s, h, mask);
    } else {
        unsigned weg = in->c.raw;
        for (unsigned q = 0; q < 4; q++) {
            unsigned sq = (f >> (2 * q)) & 3u, we = (weg >> (2 * q)) & 3u;
            for (unsigned h = 0; h < 2; h++)
                if ((we >> h) & 1u)
                    copy_group(r, q, h, a, sq, h, mask);
        }
    }
    put_v(c, o, dn, 0, m, all);
    return true;
}

bool tpc_exec_vpu_mov_g(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o)
{
    uint8_t m[TPC_VBYTES];
    bool all;
    if (!tpc_pred_mask(c, in, 1, m, &all))
        return true;
    uint8_t ta[TPC_VBYTES];
    const uint8_t *a = tpc_rd_vec(c, b, &in->a, 4, ta, o);
    unsigned dn = in->dst.num % TPC_NR_V;
    uint8_t *r = o->vbuf[0];
    memcpy(r, c->v[dn], TPC_VBYTES);
    unsigned f = in->b.raw, gen = f & 3u, dgen = (f >> 2) & 15u;
    for (unsigned q = 0; q < 4; q++)
        if ((dgen >> q) & 1u)
            for (unsigned h = 0; h < 2; h++)
                if ((gen >> h) & 1u)
                    copy_group(r, q, h, a, q, 1 - h, b->imm);
    put_v(c, o, dn, 0, m, all);
    return true;
}
