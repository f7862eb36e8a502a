/*
 * TPC assembler: load- and store-slot encoders (tpc.md §5.1, §5.4).
 */
#include <string.h>

#include "target/tpc/asm-int.h"

/* Tensor operand of LD/ST_TNSR: number 0..15 or the S27/S28 register. */
static bool tensor_operand(Stmt *st, const AOp *op, unsigned reg, uint32_t *bfield, uint32_t *sw)
{
    if (asm_is_reg(op, TPC_OP_S) && op->num == reg) {
        *sw |= 8;
        *bfield = st->slot == TPC_SLOT_ST ? 28 : 0;
        return true;
    }
    /* Gaudi has 16 tensors.  The vendor's assembler keeps B[4:0] of a larger
     * number without a word (`st_tnsr 0x27` writes tensor 7): refused here */
    if (op->type == AOP_IMM && op->value <= 15u) {
        *bfield = op->value;
        return true;
    }
    asm_error(st->c, op->col, "'%s': tensor must be 0..15 or S%u", st->mn, reg);
    return false;
}

bool asm_enc_ld(Stmt *st)
{
    const TpcInsnDesc *d = st->desc;
    int a = 0, dst = 0;
    uint32_t b = st->f_b, sw = st->f_sw;
    bool half = tpc_insn_half(d) != 0;

    if (!asm_no_type(st))
        return false;
    switch (d->form) {
    case TPC_FORM_LD_TNSR: {
        if (!asm_take_ops(st, 3, 4))
            return false;
        bool partial_sw = sw & 1;
        sw &= ~1u;
        /* VPd in the _low/_high forms loads half of the predicate's lanes: the
         * vendor's compiler emits `ld_tnsr_high VP4, S27, I3` (docs/tpc-isa.rst) */
        CHK(dst = asm_enc(st, &st->ops[0], K(V) | K(VP), "destination"));
        if (!tensor_operand(st, &st->ops[1], 27, &b, &sw))
            return false;
        CHK(a = asm_enc(st, &st->ops[2], K(I), "coordinates"));
        if (st->nops == 4) {
            if (!asm_is_reg(&st->ops[3], TPC_OP_S) || st->ops[3].num != 30) {
                asm_error(st->c, st->ops[3].col, "'%s': the partial operand must be S30", st->mn);
                return false;
            }
            sw |= 1;
        } else if (partial_sw) {
            /* vendor behaviour (tpc.md §10 item 8): the switch alone is ignored */
            asm_warn(st->c, st->col, "'ld_tnsr.partial' without S30 assembles without PARTIAL");
        }
        if (half && (sw & 1)) {
            asm_error(st->c, st->col, "'%s' has no partial form on Gaudi (missing feature)",
                      st->mn);
            return false;
        }
        break;
    }
    default:
        if (!asm_take_ops(st, 2, 3))
            return false;
        CHK(dst = asm_enc(st, &st->ops[0], K(V), "destination"));
        CHK(a = asm_enc(st, &st->ops[1], K(V), "source"));
        if (st->nops == 3) {
            if (st->ops[2].type != AOP_IMM || st->ops[2].value > 0x1ff) {
                asm_error(st->c, st->ops[2].col, "field value out of range");
                return false;
            }
            b = st->ops[2].value;
        }
        break;
    }
    st->ab->uses_ld_b = true;
    asm_put(st, TPC_B_LD_OPC, 5, d->opc);
    asm_put(st, TPC_B_LD_SRC_A, 8, (unsigned)a);
    asm_put(st, TPC_B_LD_DEST, 8, (unsigned)dst);
    asm_put(st, TPC_B_LD_SW, 4, sw);
    if (st->ab->uses_ld_b)
        asm_put(st, TPC_B_VPU_SRC_D, 9, b);
    return asm_put_pred(st);
}

bool asm_enc_st(Stmt *st)
{
    const TpcInsnDesc *d = st->desc;
    int a = (int)st->f_a, cc = 0;
    uint32_t b = st->f_b, sw = st->f_sw;
    bool half = tpc_insn_half(d) != 0;
    bool uses_c = true;

    if (!asm_no_type(st))
        return false;
    switch (d->form) {
    case TPC_FORM_ST_TNSR:
        if (!asm_take_ops(st, 3, 5))
            return false;
        if (!tensor_operand(st, &st->ops[0], 28, &b, &sw))
            return false;
        CHK(a = asm_enc(st, &st->ops[1], K(I), "coordinates"));
        /* as for ld_tnsr_low/_high: VPv stores half of the predicate's lanes */
        CHK(cc = asm_enc(st, &st->ops[2], K(V) | K(VP), "value"));
        for (int i = 3; i < st->nops; i++) {
            const AOp *o = &st->ops[i];
            if (asm_is_reg(o, TPC_OP_S) && o->num == 29 && i == 3)
                sw |= 2;
            else if (asm_is_reg(o, TPC_OP_S) && o->num == 31 && !(i == 3 && st->nops == 5))
                sw |= 1;
            else {
                asm_error(st->c, o->col, "'%s': unexpected operand '%s' (S29 = RMW, S31 = partial)",
                          st->mn, o->s);
                return false;
            }
        }
        if (half && (sw & 1)) {
            asm_error(st->c, st->col, "'%s' has no partial form on Gaudi (missing feature)",
                      st->mn);
            return false;
        }
        if ((sw & 2) && asm_is_reg(&st->ops[2], TPC_OP_VP)) {
            asm_error(st->c, st->ops[2].col, "RMW store of a vector predicate");
            return false;
        }
        break;
    default:
        asm_error(st->c, st->col, "'%s' cannot be assembled", st->mn);
        return false;
    }
    if (uses_c)
        st->ab->uses_st_c = true;
    asm_put(st, TPC_B_ST_OPC, 5, d->opc);
    asm_put(st, TPC_B_ST_SRC_A, 8, (unsigned)a);
    asm_put(st, TPC_B_ST_SRC_B, 8, b);
    asm_put(st, TPC_B_ST_SW, 4, sw);
    if (uses_c)
        asm_put(st, TPC_B_VPU_SRC_C, 8, (unsigned)cc);
    return asm_put_pred(st);
}
