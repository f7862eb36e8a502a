/*
 * TPC assembler: the load slot's hand-coded encoder (mov, tpc.md §5.1); the
 * other load and store forms are table-described (asm-layout.c).
 */
#include <string.h>

#include "target/tpc/asm-int.h"

bool asm_enc_ld(Stmt *st)
{
    const TpcInsnDesc *d = st->desc;
    int a = 0, dst = 0;
    uint32_t b = st->f_b, sw = st->f_sw;

    if (d->form != TPC_FORM_MOV && !asm_no_type(st))
        return false;
    switch (d->form) {
    case TPC_FORM_MOV: {
        bool hw;
        if (!asm_mov_hwreg(st, &dst, &b, &sw, &hw))
            return false;
        if (hw) {
            a = dst; /* as the vendor's encoder: the destination again in SRC_A */
            break;
        }
        asm_mov_section_prefix(st);
        if (!asm_take_ops(st, 2, 3))
            return false;
        const AOp *o0 = &st->ops[0], *o1 = &st->ops[1];
        bool vsrc = asm_is_reg(o1, TPC_OP_V) || asm_is_reg(o1, TPC_OP_VSPECIAL);
        if (st->nops == 3 && !asm_is_reg(o0, TPC_OP_VP)) {
            asm_error(st->c, st->ops[2].col, "too many operands for 'mov'");
            return false;
        }
        if (asm_is_reg(o0, TPC_OP_I)) {
            if (!st->mask_given) {
                asm_error(st->c, o0->col, "'mov' to an index register needs a dim mask (bMMMMM)");
                return false;
            }
            CHK(dst = asm_enc(st, o0, K(I), "destination"));
            CHK(a = asm_enc(st, o1, K(S) | K(I) | K(IMM), "source"));
            b = st->mask << 2;
        } else if (asm_is_reg(o0, TPC_OP_VP)) {
            CHK(dst = asm_enc(st, o0, K(VP), "destination"));
            CHK(a = asm_enc(st, o1, K(VP) | K(SP) | K(S) | K(IMM), "source"));
            if (asm_is_reg(o1, TPC_OP_VP) || asm_is_reg(o1, TPC_OP_SP)) {
                if (!asm_want_ops(st, 2, 2))
                    return false;
                b = 0;
            } else {
                b = 8;
                if (st->nops == 3) {
                    if (st->ops[2].type != AOP_IMM || st->ops[2].value > 8) {
                        asm_error(st->c, st->ops[2].col,
                                  "predicate section must be 0..7, or 8 for all");
                        return false;
                    }
                    b = st->ops[2].value;
                }
            }
        } else if (asm_is_reg(o0, TPC_OP_SP)) {
            CHK(dst = asm_enc(st, o0, K(SP), "destination"));
            CHK(a = asm_enc(st, o1, K(S) | K(SLFSR) | K(IMM), "source"));
            /* `mov.u32 SP5, S3`: the vendor keeps the type in SRC_B[7:4] */
            b = st->type >= 0 ? (uint32_t)st->type << 4 : 0;
        } else if (asm_is_reg(o0, TPC_OP_V) && vsrc) {
            CHK(dst = asm_enc_vec(st, o0, 1, "destination"));
            CHK(a = asm_enc(st, o1, K(V) | K(VSPECIAL), "source"));
        } else {
            if (!asm_need_type(st))
                return false;
            if (asm_is_reg(o0, TPC_OP_S)) {
                if (st->type == TPC_T_B) {
                    asm_error(st->c, st->type_col, "'mov' to a scalar register cannot be .b");
                    return false;
                }
                CHK(dst = asm_enc(st, o0, K(S), "destination"));
            } else {
                CHK(dst = asm_enc_vec(st, o0, 1, "destination"));
            }
            CHK(a = asm_enc(st, o1, K(S) | K(SLFSR) | K(IMM), "source"));
            b = (uint32_t)st->type << 4;
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
