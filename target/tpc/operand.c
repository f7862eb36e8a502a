/*
 * Operand access shared by the slot executors (tpc.md §1.1, §4.2, §5.0.1,
 * §5.0.3): predicates and their per-byte lane masks, scalar and vector
 * sources (including the read-only LFSR and lane-id registers), income
 * merging.
 */
#include <string.h>

#include "target/tpc/cpu.h"
#include "target/tpc/vlane.h"

typedef uint32_t tpc_v4u __attribute__((vector_size(16)));

bool tpc_pred_mask(const TpcCpu *c, const TpcInsn *in, unsigned e, uint8_t m[TPC_VBYTES], bool *all)
{
    *all = false;
    if (!in->pred_vp) {
        *all = tpc_pred_scalar(c, in);
        return *all;
    }
    if (in->pred == 0) {
        *all = !in->polarity;
        return *all;
    }
    uint8_t g[TPC_VPBYTES], any = 0;
    tpc_vl_spread(g, c->vp[in->pred & 15], e, in->polarity);
    for (unsigned j = 0; j < TPC_VPBYTES; j++)
        any |= g[j];
    tpc_vl_unpack(m, g);
    return any != 0;
}

uint32_t tpc_rd_scalar_any(TpcCpu *c, const TpcBundle *b, const TpcOperand *op, TpcSlotOut *o)
{
    switch (op->kind) {
    case TPC_OP_S:
        return c->s[op->num % TPC_NR_S];
    case TPC_OP_SP:
        return c->sp[op->num & 15]; /* (SP0 is stored as 1: TpcCpu.sp) */
    case TPC_OP_IMM:
        return b->imm;
    case TPC_OP_SIMM:
        return op->num;
    case TPC_OP_SLFSR:
        if (op->num == 0)
            o->lfsr_s_read = true;
        return c->lfsr_s;
    case TPC_OP_HWREG: /* PC: the byte offset of this bundle (tpc.md §5.1.1) */
        return c->pc;
    default:
        return 0;
    }
}

void tpc_lane_id_init(TpcCpu *c)
{
    for (unsigned i = 0; i < 64; i++) {
        uint32_t v = i;
        memcpy(&c->lane_id[0][4 * i], &v, 4);
    }
    for (unsigned i = 0; i < 128; i++) {
        uint16_t v = (uint16_t)i;
        memcpy(&c->lane_id[1][2 * i], &v, 2);
    }
    for (unsigned i = 0; i < 256; i++)
        c->lane_id[2][i] = (uint8_t)i;
}

const uint8_t *tpc_rd_vec(TpcCpu *c, const TpcBundle *b, const TpcOperand *op, unsigned e,
                          uint8_t *tmp, TpcSlotOut *o)
{
    switch (op->kind) {
    case TPC_OP_V:
        return c->v[op->num % TPC_NR_V];
    case TPC_OP_VSPECIAL:
        switch (op->num) {
        case TPC_VS_LFSR:
            o->lfsr_v_read = true;
            /* fall through */
        case TPC_VS_LFSR_NO_CHANGE:
            memcpy(tmp, c->lfsr_v, TPC_VBYTES);
            return tmp;
        case TPC_VS_LANE_ID_32:
            return c->lane_id[0];
        case TPC_VS_LANE_ID_16:
            return c->lane_id[1];
        default:
            return c->lane_id[2];
        }
    default:
        tpc_vl_broadcast(tmp, tpc_rd_scalar(c, b, op, o), e);
        return tmp;
    }
}

const uint8_t *tpc_rd_vp(TpcCpu *c, const TpcOperand *op, uint8_t *tmp)
{
    if (op->kind == TPC_OP_VP) {
        if (op->num == 0) {
            memset(tmp, 0xFF, TPC_VPBYTES);
            return tmp;
        }
        return c->vp[op->num & 15];
    }
    unsigned v = op->kind == TPC_OP_SP ? c->sp[op->num & 15] : 0u;
    memset(tmp, v ? 0xFF : 0, TPC_VPBYTES);
    return tmp;
}

/* 16 bytes at a time: res may alias neither old nor m, which a byte loop
 * cannot tell the compiler (it stayed a byte loop, the costliest part of a
 * VP-predicated VPU op) */
void tpc_merge(uint8_t *res, const uint8_t *old, const uint8_t *m)
{
    tpc_vl_merge(res, old, m);
}

bool tpc_bad_operand(TpcCpu *c, unsigned slot, unsigned field, const TpcOperand *op)
{
    return tpc_fault(c, TPC_FAULT_ILLEGAL_OPERAND, slot | field << 4 | (uint32_t)op->raw << 8, 0);
}
