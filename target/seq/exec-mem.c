/*
 * Address operands and single stores: ADDR8 resolution (sequencer.md §5.1),
 * side-effect-free access probes (so stores can be precise), WRITE (0xA5)
 * and NOTIFY (0xA6).
 */
#include "target/seq/cpu.h"

#define F(name) seq_field_get(r, SEQ_F_##name)

uint64_t seq_addr8_resolve(SeqCpu *s, const uint8_t *a8)
{
    const uint32_t *R = s->regs->r;
    const uint64_t *T = s->regs->addr_table;

#define A8(name) seq_field_get(a8, SEQ_F_ADDR8_##name)
    switch (A8(MARKER) & 0xFC) {
    case 0x80:
        return (uint64_t)R[A8(REG_HI) & 63] << 32 | R[A8(REG_LO) & 63];
    case 0x20:
        return T[A8(INDEX) & 63] + A8(OFF32);
    case 0x24:
        return T[A8(INDEX) & 63] + A8(OFF48);
    case 0x28:
        return T[A8(INDEX) & 63] + R[A8(REG_LO) & 63];
    case 0x2C:
        return T[A8(INDEX) & 63] + ((uint64_t)R[A8(REG_HI) & 63] << 32 | R[A8(REG_LO) & 63]);
    default:
        return A8(IMM);
    }
#undef A8
}

bool seq_local_ok(uint64_t a, unsigned size)
{
    return a >= SEQ_LOCAL_BASE && a - SEQ_LOCAL_BASE < SEQ_LOCAL_BYTES &&
           a - SEQ_LOCAL_BASE + size <= SEQ_LOCAL_BYTES && (size == 4 || size == 8) &&
           (a & (size - 1)) == 0;
}

bool seq_pa_access_ok(SeqCpu *s, uint64_t pa, unsigned size)
{
    const FlatRange *fr = as_lookup(s->as, pa);
    if (!fr)
        return false;
    if (pa + size < pa || (fr->end != 0 && pa + size > fr->end))
        return false;
    const MemoryRegion *mr = fr->mr;
    if (mr->kind == MR_RAM)
        return (pa & (size - 1)) == 0;
    if (mr->kind != MR_IO || !mr->ops)
        return false;
    uint64_t off = fr->mr_offset + (pa - fr->start);
    if (!(mr->ops->widths & size) || (!mr->ops->unaligned_ok && (off & (size - 1))))
        return false;
    /* Devices of this machine accept a write exactly where they accept a
     * read, and reads have no side effects (machine.md §1.3), so a read
     * probe tells whether the store would land. */
    uint64_t dummy;
    return !mr->ops->read || mr->ops->read(mr->opaque, off, size, &dummy, s->attrs) == MEMTX_OK;
}

/* 0xA5 WRITE: one 4-byte store to a Neuron address (one TLB lookup, W). */
SeqStatus seq_exec_write(SeqCpu *s, const SeqDecoded *d)
{
    const uint8_t *r = d->insn.rec;
    SeqRegs *nx = s->regs;
    uint64_t a = seq_addr8_resolve(s, seq_field_ptr(r, SEQ_F_WR_ADDR));
    uint64_t pa;
    bool local;

    if (!seq_addr8_is_imm(seq_field_ptr(r, SEQ_F_WR_ADDR)) && (a & 3))
        return seq_fault(s, NX_FAULT_MISALIGNED, 0, a);
    if (!seq_translate(s, a, NX_ACC_WRITE, &pa, &local))
        return SEQ_FAULT;
    if (local ? !seq_local_ok(a, 4) : !seq_pa_access_ok(s, pa, 4))
        return seq_fault(s, NX_FAULT_BUS_ERROR, 0, a);
    uint32_t v = F(NTF_QUEUE) == 0 ? nx->r[F(NTF_SRC_REG) & 63] : F(WR_IMM);
    if (!local && seq_watch(s, pa, 4, true))
        return SEQ_DEBUG;

    seq_u_pre(s, d);
    if (local)
        seq_local_write(s, a, 4, v);
    else
        as_write(s->as, pa, 4, v, s->attrs);
    seq_u_post(s, d);
    return SEQ_OK;
}

/* 0xA6 NOTIFY: append a 16-byte entry to notification queue q
 * (machine.md §3). */
SeqStatus seq_exec_notify(SeqCpu *s, const SeqDecoded *d)
{
    const uint8_t *r = d->insn.rec;
    SeqRegs *nx = s->regs;
    unsigned q = F(NTF_QUEUE) & 3;
    NxQueue *nq = &nx->nq[q];
    uint32_t payload = F(NTF_DATASRC) == 0 ? nx->r[F(NTF_SRC_REG) & 63] : F(NTF_IMM);
    bool enabled = nq->size != 0 && (nq->size & (nq->size - 1)) == 0;
    bool drop = !enabled || (uint32_t)(nq->tail - nq->head) >= nq->size;
    uint64_t pa = 0;

    if (!drop) {
        pa = (nq->base & ~0xFull) + (uint64_t)(nq->tail & (nq->size - 1)) * 16;
        if (!as_is_ram(s->as, pa, 16, 0))
            return seq_fault(s, NX_FAULT_BUS_ERROR, 0, pa);
        /* Both 8-byte stores are checked before either is made: a watch on
         * the entry stops with the ring untouched and the pc on NOTIFY. */
        if (G_UNLIKELY(s->cpu.m->debug) && seq_watch(s, pa, 16, true))
            return SEQ_DEBUG;
    }

    seq_u_pre(s, d);
    if (drop) {
        nq->overflow++;
    } else {
        uint64_t w1 = payload | (uint64_t)s->cpu.index << 32 | (uint64_t)q << 48 | 1ull << 56;
        as_write(s->as, pa, 8, nx->pc, s->attrs);
        as_write(s->as, pa + 8, 8, w1, s->attrs);
        nq->tail++;
        nx_log_mask(&s->cpu.m->log, NX_LOG_NOTIFY,
                    "notify: core=%u q=%u pc=0x%016" G_GINT64_MODIFIER "x payload=0x%08x\n",
                    s->cpu.index, q, nx->pc, payload);
    }
    seq_u_post(s, d);
    return SEQ_OK;
}
