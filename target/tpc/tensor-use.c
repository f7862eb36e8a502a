/*
 * Which tensor descriptors a kernel provably uses: the tensor ids its
 * instructions name as immediates (the TPC_OPF_TNSR operands of their forms:
 * GEN_ADDR, LD_TNSR*, ST_TNSR* without the "tensor in S27/S28" switch).  An id taken from a
 * register at run time is not known here.  nxemu-tpc-run checks its -i/-o count against this.
 */
#include "target/tpc/insn.h"

int tpc_insn_tensor(const TpcInsn *in)
{
    const TpcLayout *l = in->desc ? tpc_form_variant(in->desc->form, in->var) : NULL;
    for (unsigned k = 0; l && k < l->nops; k++) {
        const TpcOpSpec *o = &l->op[k];
        if (!(o->flags & TPC_OPF_TNSR) || o->field != TPC_FIELD_SRC_B)
            continue;
        return o->sreg && ((in->sw >> o->swbit) & 1) ? -1 : (int)(in->b.raw & 15);
    }
    return -2;
}

int tpc_text_max_tensor(const uint8_t *text, size_t len, uint32_t *pc, const char **mnemonic)
{
    int best = -1;
    for (size_t off = 0; off + TPC_BUNDLE_BYTES <= len; off += TPC_BUNDLE_BYTES) {
        TpcBundle b;
        NxFault f;
        if (!tpc_decode_bundle(text + off, &b, &f) || b.is_loop) {
            continue; /* not code the kernel can execute */
        }
        for (unsigned s = 0; s < 4; s++) {
            const TpcInsn *in = &b.slot[s];
            int id = -1;
            if (!in->desc) {
                continue;
            }
            id = tpc_insn_tensor(in);
            if (id > best) {
                best = id;
                *pc = (uint32_t)off;
                *mnemonic = in->desc->mnemonic;
            }
        }
    }
    return best;
}
