/*
 * Which tensor descriptors a kernel provably uses: the tensor ids its
 * instructions name as immediates (GEN_ADDR, LD_TNSR*, ST_TNSR* without the
 * "tensor in S27/S28" switch).  An id taken from a register at run time is
 * not known here.  nxemu-tpc-run checks its -i/-o count against this.
 */
#include "target/tpc/insn.h"

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
            /* (opcode 0 is also the SPU's and VPU's MAC: the form tells) */
            if (in->desc->form == TPC_FORM_GEN_ADDR_LD || in->desc->form == TPC_FORM_GEN_ADDR_ST) {
                id = in->b.raw & 15;
            } else if (in->desc->form == TPC_FORM_LD_TNSR || in->desc->form == TPC_FORM_ST_TNSR) {
                id = (in->sw & 8u) ? -1 : (in->b.raw & 15);
            }
            if (id > best) {
                best = id;
                *pc = (uint32_t)off;
                *mnemonic = in->desc->mnemonic;
            }
        }
    }
    return best;
}
