/*
 * SPU slot (tpc.md §5.2): scalar arithmetic on the SRF, SPRF logic,
 * comparisons, CONVERT, and the int5 (IRF) forms of §5.0.5.
 */
#include <math.h>
#include <string.h>

#include "target/tpc/cpu.h"
#include "target/tpc/lane.h"

/* int5 form: Id[d] = A[d] op B[d] for the dims of SW[6:2]. */
static bool spu_int5(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o, unsigned op)
{
    int32_t av[5], bv[5] = {0};
    if (in->a.kind == TPC_OP_I) {
        memcpy(av, c->irf[in->a.num & 31], sizeof(av));
    } else {
        uint32_t v = tpc_rd_scalar(c, b, &in->a, o);
        for (unsigned d = 0; d < 5; d++)
            av[d] = (int32_t)v;
    }
    if (in->b.kind == TPC_OP_I) {
        memcpy(bv, c->irf[in->b.num & 31], sizeof(bv));
    } else if (in->b.kind != TPC_OP_NONE) {
        uint32_t v = tpc_rd_scalar(c, b, &in->b, o);
        for (unsigned d = 0; d < 5; d++)
            bv[d] = (int32_t)v;
    }
    bool ok;
    (void)tpc_lane_int5(op, 0, 0, &ok);
    if (!ok)
        return tpc_fault(c, TPC_FAULT_ILLEGAL_INSTRUCTION, TPC_SLOT_SPU | op << 8, 0);
    uint32_t r[5];
    for (unsigned d = 0; d < 5; d++)
        r[d] = tpc_lane_int5(op, (uint32_t)av[d], (uint32_t)bv[d], &ok);
    /* only the masked dims are committed (tpc.md §5.2.2) */
    TpcWrite *w = tpc_out_w(o, TPC_WR_I, in->dst.num & 31);
    w->mask = (uint8_t)((in->sw >> 2) & 0x1F);
    memcpy(w->dims, r, sizeof(w->dims));
    return true;
}

bool tpc_spu_irf_add_form(const TpcInsn *in)
{
    bool scalar_a = in->a.kind == TPC_OP_S || in->a.kind == TPC_OP_IMM || in->a.kind == TPC_OP_SIMM;
    bool scalar_b = in->b.kind == TPC_OP_S || in->b.kind == TPC_OP_IMM || in->b.kind == TPC_OP_SIMM;
    return in->opc == TPC_OPC_SPU_add && in->dst.kind == TPC_OP_I && !in->pred_vp &&
           ((scalar_a && in->b.kind == TPC_OP_I) || (in->a.kind == TPC_OP_I && scalar_b));
}

/* Binary/unary arithmetic and logic, opcode op. */
static bool spu_arith(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o, unsigned op)
{
    if (!tpc_pred_scalar(c, in))
        return true;
    if (in->dst.kind == TPC_OP_I)
        return spu_int5(c, b, in, o, op);
    unsigned t = in->type;
    uint32_t a = tpc_rd_scalar(c, b, &in->a, o);
    uint32_t bb = in->b.kind != TPC_OP_NONE ? tpc_rd_scalar(c, b, &in->b, o) : 0;
    if (in->dst.kind == TPC_OP_SP || t == TPC_T_B) {
        /* SPRF logic (type b) */
        unsigned r = tpc_alu(op, TPC_T_U8, a & 1u, bb & 1u, 0, 0, NULL) & 1u;
        tpc_out_sp(o, in->dst.num, r);
        return true;
    }
    uint32_t d = c->s[in->dst.num % TPC_NR_S];
    uint32_t r;
    if (op == TPC_OPC_SPU_add && !tpc_type_is_float(t)) {
        unsigned carry = c->s_carry;
        r = tpc_ext32(tpc_alu(op, t, a, bb, d, in->sw, &carry), t);
        tpc_out_w(o, TPC_WR_SCARRY, 0)->val = carry;
    } else {
        /* acc_fp32 (bf16, SWITCHES bit 2): an f32 result (lane-ops.def) */
        unsigned rt = t == TPC_T_BF16 && (in->sw & 4u) ? TPC_T_F32 : t;
        r = tpc_ext32(tpc_alu(op, t, a, bb, d, in->sw, NULL), rt);
    }
    tpc_out_s(o, in->dst.num, r);
    return true;
}

#define SPU_ARITH(name)                                                                            \
    bool tpc_exec_spu_##name(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o)      \
    {                                                                                              \
        return spu_arith(c, b, in, o, TPC_OPC_SPU_##name);                                         \
    }
SPU_ARITH(mac)
SPU_ARITH(mul)
SPU_ARITH(add)
SPU_ARITH(sub)
SPU_ARITH(max)
SPU_ARITH(min)
SPU_ARITH(abs)
SPU_ARITH(or)
SPU_ARITH(and)
SPU_ARITH(xor)
SPU_ARITH(not)
SPU_ARITH(shr)
SPU_ARITH(shl)
SPU_ARITH(ash)

static bool spu_cmp(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o, unsigned op)
{
    if (!tpc_pred_scalar(c, in))
        return true;
    uint32_t a = tpc_rd_scalar(c, b, &in->a, o);
    uint32_t bb = tpc_rd_scalar(c, b, &in->b, o);
    tpc_out_sp(o, in->dst.num, tpc_alu_cmp(op, in->type, a, bb, op == TPC_OPC_SPU_cmp_eq && (in->sw & 1u)));
    return true;
}

#define SPU_CMP(name)                                                                              \
    bool tpc_exec_spu_##name(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o)      \
    {                                                                                              \
        return spu_cmp(c, b, in, o, TPC_OPC_SPU_##name);                                           \
    }
SPU_CMP(cmp_eq)
SPU_CMP(cmp_neq)
SPU_CMP(cmp_less)
SPU_CMP(cmp_leq)
SPU_CMP(cmp_grt)
SPU_CMP(cmp_geq)

bool tpc_exec_is_spu_alu(TpcExecFn fn)
{
    static const TpcExecFn alu[] = {
        tpc_exec_spu_mac,      tpc_exec_spu_mul,     tpc_exec_spu_add,     tpc_exec_spu_sub,
        tpc_exec_spu_max,      tpc_exec_spu_min,     tpc_exec_spu_abs,     tpc_exec_spu_or,
        tpc_exec_spu_and,      tpc_exec_spu_xor,     tpc_exec_spu_not,     tpc_exec_spu_shr,
        tpc_exec_spu_shl,      tpc_exec_spu_ash,     tpc_exec_spu_cmp_eq,  tpc_exec_spu_cmp_neq,
        tpc_exec_spu_cmp_less, tpc_exec_spu_cmp_leq, tpc_exec_spu_cmp_grt, tpc_exec_spu_cmp_geq};
    for (unsigned i = 0; i < sizeof alu / sizeof alu[0]; i++)
        if (fn == alu[i])
            return true;
    return false;
}

bool tpc_exec_spu_mov(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o)
{
    if (!tpc_pred_scalar(c, in))
        return true;
    if (in->b.kind == TPC_OP_HWREG) { /* mov Sd, PC */
        tpc_out_s(o, in->dst.num, tpc_rd_scalar(c, b, &in->b, o));
        return true;
    }
    if (in->dst.kind == TPC_OP_I)
        return spu_int5(c, b, in, o, TPC_OPC_SPU_mov);
    uint32_t v = tpc_rd_scalar(c, b, &in->a, o);
    if (in->dst.kind == TPC_OP_SP)
        tpc_out_sp(o, in->dst.num, v & 1u);
    else
        tpc_out_s(o, in->dst.num, tpc_ext32(v, in->type));
    return true;
}

bool tpc_exec_spu_convert(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o)
{
    unsigned rm = in->sw & 7u, dt = in->b.raw & 15u;
    if (rm == 7)
        return tpc_fault(c, TPC_FAULT_ILLEGAL_INSTRUCTION, TPC_SLOT_SPU | (unsigned)in->opc << 8, 0);
    if (dt >= TPC_T_COUNT || dt == TPC_T_B)
        return tpc_bad_operand(c, TPC_SLOT_SPU, TPC_FIELD_SRC_B, &in->b);
    if (!tpc_pred_scalar(c, in))
        return true;
    rm = tpc_resolve_rm(c, rm);
    if (rm == TPC_RM_SR)
        o->lfsr_s_read = true;
    uint32_t a = tpc_rd_scalar(c, b, &in->a, o);
    uint32_t r = tpc_convert(a, in->type, dt, rm, c->lfsr_s);
    tpc_out_s(o, in->dst.num, tpc_ext32(r, dt));
    return true;
}

bool tpc_exec_spu_mov_irf_dim(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o)
{
    unsigned dim = in->sw & 7u;
    if (dim > 4)
        return tpc_fault(c, TPC_FAULT_ILLEGAL_INSTRUCTION, TPC_SLOT_SPU | (unsigned)in->opc << 8, 0);
    if (!tpc_pred_scalar(c, in))
        return true;
    tpc_out_s(o, in->dst.num, (uint32_t)c->irf[in->a.num & 31][dim]);
    return true;
}

bool tpc_exec_spu_set_indx(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o)
{
    return tpc_do_set_indx(c, b, in, &in->dst, in->sw >> 2, o);
}

/* ---- control flow (tpc.md §6.2, §6.4); the LOOP bundle is run by cpu.c ---- */

static bool jump(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o, bool rel)
{
    if (!tpc_pred_scalar(c, in))
        return true;
    uint32_t t = tpc_rd_scalar(c, b, &in->a, o);
    uint32_t target = rel ? c->pc + t : t;
    if (target % TPC_BUNDLE)
        return tpc_fault(c, TPC_FAULT_MISALIGNED, 0, target);
    o->jump = true;
    o->jump_pc = target;
    return true;
}

bool tpc_exec_spu_jmpr(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o)
{
    return jump(c, b, in, o, true);
}

bool tpc_exec_spu_jmpa(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o)
{
    return jump(c, b, in, o, false);
}

bool tpc_exec_spu_halt(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o)
{
    o->halt = true;
    return true;
}

bool tpc_exec_vpu_halt(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o)
{
    o->halt = true;
    return true;
}

bool tpc_exec_spu_loop(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o)
{
    /* LOOP occupies the whole bundle and never reaches a slot executor */
    return tpc_fault(c, TPC_FAULT_ILLEGAL_INSTRUCTION, TPC_SLOT_BUNDLE | TPC_OPC_LOOP << 8, 0);
}
