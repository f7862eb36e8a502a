/*
 * DMA_MEMCPY (0xB8) and DMA_INDIRECT (0xBB) as instructions: resolve the
 * ADDR8 operands (PAs, no TLB), build and validate the request (dma-req.c),
 * block on a full queue, and at phase U apply the _READ update and queue the
 * request with its _COMPLETE update deferred to completion (sequencer.md
 * §4.3).
 */
#include <inttypes.h>

#include "target/seq/cpu.h"

#define F(name) seq_field_get(r, SEQ_F_##name)

static SeqStatus dma_issue(SeqCpu *s, const SeqDecoded *d, unsigned src_off, unsigned dst_off)
{
    const uint8_t *r = d->insn.rec;
    Machine *m = s->cpu.m;
    DmaRequest *req;

    if (s->port.dma_engines(s->port.opaque) == 0) /* none configured: nothing is DMA-able */
        return seq_fault(s, NX_FAULT_DMA_ERROR, NX_DMA_BAD_ADDRESS, 0);
    uint64_t src = seq_addr8_resolve(s, r + src_off);
    uint64_t dst = seq_addr8_resolve(s, r + dst_off);
    if (G_UNLIKELY(m->debug) && F(HDR_OPCODE) == SEQ_OP_DMA_INDIRECT) {
        /* DMA_INDIRECT reads its index arrays now, at issue (sequencer.md
         * §8.12): a watchpoint on them stops before this instruction. */
        uint64_t sbuf = SEQ_SBUF_BASE, n4 = 4ull * F(DMAI_SRC_N);
        uint8_t mode = F(DMAI_MODE);
        if ((mode == 0 || mode == 2) && seq_watch(s, sbuf + F(DMAI_SRC_IDX), n4, false))
            return SEQ_DEBUG;
        if ((mode == 1 || mode == 2) && seq_watch(s, sbuf + F(DMAI_DST_IDX), n4, false))
            return SEQ_DEBUG;
    }
    if (!seq_dma_build(m, &s->port.dma_pool, r, src, dst, &req, &s->fault))
        return SEQ_FAULT;
    if (s->port.dma_queue_full(s->port.opaque)) {
        /* Faults come first (sequencer.md); the slot goes back to the pool
         * and the retry builds again, allocating nothing. */
        dma_req_put(req);
        s->regs->block_reason = NX_BLOCK_DMAQ;
        return SEQ_BLOCK;
    }

    seq_u_pre(s, d); /* wait side action, _READ update: at issue */
    req->owner = (int)s->cpu.index;
    if (d->upd_mode & 0x10) {
        /* _COMPLETE: the register of a *_REG form is read now, applied later. */
        req->upd_mode = d->upd_mode;
        req->upd_idx = d->upd_idx;
        req->upd_value = seq_update_value(s, d->upd_mode, d->ev_value);
    }
    req->owner_gen = s->port.work_begin(s->port.opaque);
    nx_log_mask(&m->log, NX_LOG_DMA,
                "dma: core=%u issue %s src=0x%016" PRIx64 " dst=0x%016" PRIx64 " engine=%u\n",
                s->cpu.index, F(HDR_OPCODE) == SEQ_OP_DMA_MEMCPY ? "memcpy" : "indirect", src, dst,
                s->port.dma_engine(s->port.opaque));
    s->port.dma_push(s->port.opaque, req);
    return SEQ_OK;
}

SeqStatus seq_exec_dma_memcpy(SeqCpu *s, const SeqDecoded *d)
{
    return dma_issue(s, d, SEQ_F_DMA_SRC_ADDR, SEQ_F_DMA_DST_ADDR);
}

SeqStatus seq_exec_dma_indirect(SeqCpu *s, const SeqDecoded *d)
{
    return dma_issue(s, d, SEQ_F_DMAI_SRC_ADDR, SEQ_F_DMAI_DST_ADDR);
}
