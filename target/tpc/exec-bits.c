/*
 * Integer narrowing with a shift (CONVERT_INT32, CONVERT_UINT32,
 * CONVERT_INT16, CONVERT_UINT16) and the bit-counting instructions POPCNT,
 * FIND_FIRST and BREV (tpc.md §5.5).  Each element operation is written
 * once and run on one scalar by the SPU or on every lane by the VPU.
 */
#include <string.h>

#include "target/tpc/cpu.h"

/* ---- CONVERT_INT* ---- */

/* The conversion an opcode names: source signedness and size, target size
 * (to_16 selects 16 bits for the 32-bit sources, else 8). */
typedef struct IntCvt {
    bool sgn;
    unsigned es, et; /* bytes */
} IntCvt;

static IntCvt int_cvt(unsigned opc, unsigned tfield)
{
    bool to16 = (tfield >> 3) & 1u;
    /* the SPU and VPU rows share these opcodes */
    _Static_assert(TPC_OPC_SPU_convert_int32 == TPC_OPC_VPU_convert_int32 &&
                       TPC_OPC_SPU_convert_uint32 == TPC_OPC_VPU_convert_uint32 &&
                       TPC_OPC_SPU_convert_int16 == TPC_OPC_VPU_convert_int16,
                   "convert_int* opcodes differ between SPU and VPU");
    switch (opc) {
    case TPC_OPC_SPU_convert_int32:
        return (IntCvt){true, 4, to16 ? 2u : 1u};
    case TPC_OPC_SPU_convert_uint32:
        return (IntCvt){false, 4, to16 ? 2u : 1u};
    case TPC_OPC_SPU_convert_int16:
        return (IntCvt){true, 2, 1};
    default: /* convert_uint16 */
        return (IntCvt){false, 2, 1};
    }
}

/* value / 2^shift rounded by rm (OPERANDS_TYPE[2:0]: 0 rhne, 1 rz, 2 ru,
 * 3 rd, 4 sr), a negative shift multiplying, then saturated to the target
 * (tpc.md §5.5.3).  `shift` is the signed low byte of the shift operand. */
static uint32_t int_cvt_elem(const IntCvt *k, unsigned rm, uint32_t raw, uint32_t shift_raw,
                             uint32_t sr)
{
    int64_t v = k->sgn ? (k->es == 4 ? (int64_t)(int32_t)raw : (int64_t)(int16_t)raw)
                       : (int64_t)(raw & (k->es == 4 ? 0xFFFFFFFFu : 0xFFFFu));
    int s = (int8_t)(shift_raw & 0xFF), tb = 8 * (int)k->et;
    int64_t q;
    if (s <= 0) {
        /* a nonzero value shifted left by 17 or more saturates any target
         * (at most 16 bits); 24 keeps |v| << s (|v| < 2^32) inside int64 */
        s = -s > 24 ? 24 : -s;
        q = v * ((int64_t)1 << s);
    } else {
        if (s > 40)
            s = 40;
        int64_t one = (int64_t)1 << s, fl = v >> s, rem = v - fl * one; /* 0 <= rem < one */
        q = fl;
        switch (rm) {
        case 1: /* rz */
            q += v < 0 && rem != 0;
            break;
        case 2: /* ru */
            q += rem != 0;
            break;
        case 3: /* rd */
            break;
        case 4: /* sr: up with probability rem / 2^s */
            q += rem + (int64_t)(sr & (uint32_t)(one - 1)) >= one;
            break;
        default: /* rhne */
            q += rem * 2 > one || (rem * 2 == one && (fl & 1));
            break;
        }
    }
    int64_t lo = k->sgn ? -((int64_t)1 << (tb - 1)) : 0;
    int64_t hi = k->sgn ? ((int64_t)1 << (tb - 1)) - 1 : ((int64_t)1 << tb) - 1;
    q = q < lo ? lo : q > hi ? hi : q;
    return (uint32_t)q & (tb == 32 ? 0xFFFFFFFFu : (1u << tb) - 1);
}

static bool int_cvt_check(TpcCpu *c, const TpcInsn *in, unsigned slot)
{
    if ((in->type & 7u) > 4)
        return tpc_fault(c, TPC_FAULT_ILLEGAL_INSTRUCTION, slot | (unsigned)in->opc << 8, 0);
    return true;
}

static bool spu_int_cvt(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o)
{
    if (!int_cvt_check(c, in, TPC_SLOT_SPU))
        return false;
    if (!tpc_pred_scalar(c, in))
        return true;
    IntCvt k = int_cvt(in->opc, in->type);
    unsigned rm = in->type & 7u;
    if (rm == 4)
        o->lfsr_s_read = true;
    uint32_t r = int_cvt_elem(&k, rm, tpc_rd_scalar(c, b, &in->a, o),
                              tpc_rd_scalar(c, b, &in->b, o), c->lfsr_s);
    /* the narrow result, sign- or zero-extended like other 8/16-bit scalars */
    unsigned t = k.et == 2 ? (k.sgn ? TPC_T_I16 : TPC_T_U16) : (k.sgn ? TPC_T_I8 : TPC_T_U8);
    tpc_out_s(o, in->dst.num, tpc_ext32(r, t));
    return true;
}

/* Vector form: lane i of the source goes to destination element
 * ratio*i + lane_sel; the other elements keep their income, as CONVERT's
 * narrowing pairs (tpc.md §5.3.1). */
static bool vpu_int_cvt(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o)
{
    if (!int_cvt_check(c, in, TPC_SLOT_VPU))
        return false;
    IntCvt k = int_cvt(in->opc, in->type);
    unsigned rm = in->type & 7u, ratio = k.es / k.et, lane_sel = (in->sw & 3u) % ratio;
    uint8_t m[TPC_VBYTES], ta[TPC_VBYTES], tb[TPC_VBYTES];
    bool all;
    if (!tpc_pred_mask(c, in, k.et, m, &all))
        return true;
    if (rm == 4)
        o->lfsr_v_read = true;
    const uint8_t *a = tpc_rd_vec(c, b, &in->a, k.es, ta, o);
    const uint8_t *sh = tpc_rd_vec(c, b, &in->b, k.es, tb, o);
    unsigned dn = in->dst.num;
    uint8_t *r = o->vbuf[0];
    memcpy(r, c->v[dn], TPC_VBYTES);
    for (unsigned i = 0; i < TPC_VBYTES / k.es; i++)
        tpc_st_e(r, ratio * i + lane_sel, k.et,
                 int_cvt_elem(&k, rm, tpc_ld_e(a, i, k.es), tpc_ld_e(sh, i, k.es),
                              c->lfsr_v[(i * k.es / 4) & 63]));
    if (!all)
        tpc_merge(r, c->v[dn], m);
    tpc_out_v(o, dn, 0);
    return true;
}

#define INT_CVT(name)                                                                              \
    bool tpc_exec_spu_##name(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o)      \
    {                                                                                              \
        return spu_int_cvt(c, b, in, o);                                                           \
    }                                                                                              \
    bool tpc_exec_vpu_##name(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o)      \
    {                                                                                              \
        return vpu_int_cvt(c, b, in, o);                                                           \
    }
INT_CVT(convert_int32)
INT_CVT(convert_uint32)
INT_CVT(convert_int16)
INT_CVT(convert_uint16)

/* ---- POPCNT, FIND_FIRST, BREV over an element of e bytes ---- */

enum { B_POPCNT, B_FIND, B_BREV };

/* sw bit 0: count / find ones (1) or zeros (0); FIND_FIRST sw bit 1:
 * search from the MSB.  FIND_FIRST gives the bit's index counted from bit
 * 0 in both directions and 0xFF when no bit matches (tpc.md §5.5.4). */
static uint32_t bits_elem(unsigned op, unsigned sw, unsigned e, uint32_t v)
{
    unsigned w = 8 * e;
    uint32_t mask = w == 32 ? 0xFFFFFFFFu : (1u << w) - 1;
    v &= mask;
    switch (op) {
    case B_POPCNT: {
        unsigned n = (unsigned)__builtin_popcount(v);
        return sw & 1u ? n : w - n;
    }
    case B_FIND: {
        uint32_t x = (sw & 1u ? v : ~v) & mask;
        if (!x)
            return 0xFF;
        return sw & 2u ? 31u - (unsigned)__builtin_clz(x) : (unsigned)__builtin_ctz(x);
    }
    default: {
        uint32_t r = 0;
        for (unsigned i = 0; i < w; i++)
            r |= ((v >> i) & 1u) << (w - 1 - i);
        return r;
    }
    }
}

static bool spu_bits(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o, unsigned op)
{
    if (!tpc_pred_scalar(c, in))
        return true;
    unsigned e = tpc_type_size(in->type);
    uint32_t r = bits_elem(op, in->sw, e, tpc_rd_scalar(c, b, &in->a, o));
    /* counts and positions are u8; BREV's element is extended like other
     * 8/16-bit scalar results (tpc.md §5.0.3) */
    tpc_out_s(o, in->dst.num, op == B_BREV ? tpc_ext32(r, in->type) : r & 0xFFu);
    return true;
}

/* Each lane of e bytes gets its result (POPCNT/FIND_FIRST: the u8 count,
 * zero-extended to the lane). */
static bool vpu_bits(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o, unsigned op)
{
    unsigned e = tpc_type_size(in->type);
    uint8_t m[TPC_VBYTES], ta[TPC_VBYTES];
    bool all;
    if (!tpc_pred_mask(c, in, e, m, &all))
        return true;
    const uint8_t *a = tpc_rd_vec(c, b, &in->a, e, ta, o);
    uint8_t *r = o->vbuf[0];
    for (unsigned i = 0; i < TPC_VBYTES / e; i++)
        tpc_st_e(r, i, e, bits_elem(op, in->sw, e, tpc_ld_e(a, i, e)));
    if (!all)
        tpc_merge(r, c->v[in->dst.num], m);
    tpc_out_v(o, in->dst.num, 0);
    return true;
}

#define BITS(name, op)                                                                             \
    bool tpc_exec_spu_##name(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o)      \
    {                                                                                              \
        return spu_bits(c, b, in, o, op);                                                          \
    }                                                                                              \
    bool tpc_exec_vpu_##name(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o)      \
    {                                                                                              \
        return vpu_bits(c, b, in, o, op);                                                          \
    }
BITS(popcnt, B_POPCNT)
BITS(find_first, B_FIND)
BITS(brev, B_BREV)
