/*
 * The events field (sequencer.md §4) and the instructions that are nothing
 * but events and control: EVENT_SEMAPHORE, GROUP_RESET_SEMAPHORES, NOP,
 * INSTRUCTION_FLUSH, HALT, DRAIN.
 */
#include "target/seq/cpu.h"

#define F(name) seq_field_get(r, SEQ_F_##name)

enum {
    W_NONE = 0x00,
    W_SEM_EQ = 0x01,
    W_SEM_LT = 0x02,
    W_SEM_LE = 0x03,
    W_SEM_GT = 0x04,
    W_SEM_GE = 0x05,
    W_EVT_SET = 0x06,
    W_EVT_SET_THEN_CLEAR = 0x07,
    W_EVT_CLEAR = 0x0E,
    W_EVT_CLEAR_THEN_SET = 0x0F,
    W_REG = 0x80,
};

static inline bool upd_is_reg(uint8_t mode)
{
    uint8_t base = mode & 0x0F;
    return (mode & 0xE0) == 0 && (base == 0x06 || base == 0x08 || base == 0x0A);
}

bool seq_wait_holds(SeqCpu *s, uint8_t mode, uint8_t idx, uint32_t value)
{
    const SeqPort *pt = &s->port;
    if (mode == W_NONE)
        return true;
    if ((mode & 0x7F) >= W_SEM_EQ && (mode & 0x7F) <= W_SEM_GE) {
        uint32_t v = (mode & W_REG) ? s->regs->r[value & 63] : value;
        uint32_t cur = pt->sem[idx];
        switch (mode & 0x7F) {
        case W_SEM_EQ:
            return cur == v;
        case W_SEM_LT:
            return cur < v;
        case W_SEM_LE:
            return cur <= v;
        case W_SEM_GT:
            return cur > v;
        default:
            return cur >= v;
        }
    }
    switch (mode) {
    case W_EVT_SET:
    case W_EVT_SET_THEN_CLEAR:
        return pt->evt[idx] != 0;
    case W_EVT_CLEAR:
    case W_EVT_CLEAR_THEN_SET:
        return pt->evt[idx] == 0;
    default:
        /* The decoder rejects other codes (events_wait_mode); be inert. */
        return true;
    }
}

void seq_wait_side_action(SeqCpu *s, uint8_t mode, uint8_t idx)
{
    if (mode == W_EVT_SET_THEN_CLEAR)
        s->port.evt_write(s->port.opaque, idx, false);
    else if (mode == W_EVT_CLEAR_THEN_SET)
        s->port.evt_write(s->port.opaque, idx, true);
}

static void record_block_wait(SeqCpu *s, uint8_t mode, uint8_t idx, uint32_t value)
{
    s->regs->block_reason = NX_BLOCK_WAIT;
    s->blk_wait_mode = mode;
    s->blk_wait_idx = idx;
    s->blk_wait_value = value;
}

bool seq_wait_std(SeqCpu *s, const SeqDecoded *d)
{
    if (d->wait_mode == W_NONE || seq_wait_holds(s, d->wait_mode, d->wait_idx, d->ev_value))
        return true;
    record_block_wait(s, d->wait_mode, d->wait_idx, d->ev_value);
    return false;
}

uint32_t seq_update_value(SeqCpu *s, uint8_t mode, uint32_t v)
{
    return upd_is_reg(mode) ? s->regs->r[v & 63] : v;
}

static inline bool upd_is_read(uint8_t mode)
{
    return mode >= 0x01 && mode <= 0x0A;
}

static inline bool upd_is_complete(uint8_t mode)
{
    return mode >= 0x11 && mode <= 0x1A;
}

void seq_u_pre_slow(SeqCpu *s, const SeqDecoded *d)
{
    if (d->wait_mode)
        seq_wait_side_action(s, d->wait_mode, d->wait_idx);
    if (upd_is_read(d->upd_mode))
        s->port.ev_update(s->port.opaque, d->upd_mode, d->upd_idx,
                          seq_update_value(s, d->upd_mode, d->ev_value));
}

void seq_u_post_slow(SeqCpu *s, const SeqDecoded *d)
{
    if (upd_is_complete(d->upd_mode))
        s->port.ev_update(s->port.opaque, d->upd_mode, d->upd_idx,
                          seq_update_value(s, d->upd_mode, d->ev_value));
}

/* machine.md §12.6: "wait=sem[3] ge 1 current=0", "wait=sem[3] ge R5
 * current=0", "wait=evt[2] evt-set current=0", "drain", "dmaq=<e>". */
void seq_block_info(NxCpu *cpu, GString *out)
{
    SeqCpu *s = seq_cpu(cpu);
    const SeqPort *pt = &s->port;
    static const char *const rel[] = {"", "eq", "lt", "le", "gt", "ge"};

    switch (s->regs->block_reason) {
    case NX_BLOCK_DRAIN:
        g_string_append(out, "drain");
        return;
    case NX_BLOCK_DMAQ:
        g_string_append_printf(out, "dmaq=%u", s->port.dma_engine(s->port.opaque));
        return;
    case NX_BLOCK_WAIT:
        break;
    default:
        return;
    }
    uint8_t mode = s->blk_wait_mode, idx = s->blk_wait_idx;
    uint8_t base = mode & 0x7F;
    if (base >= W_SEM_EQ && base <= W_SEM_GE) {
        if (mode & W_REG)
            g_string_append_printf(out, "wait=sem[%u] %s R%u current=%u", idx, rel[base],
                                   s->blk_wait_value & 63, pt->sem[idx]);
        else
            g_string_append_printf(out, "wait=sem[%u] %s %u current=%u", idx, rel[base],
                                   s->blk_wait_value, pt->sem[idx]);
    } else {
        bool want_set = mode == W_EVT_SET || mode == W_EVT_SET_THEN_CLEAR;
        g_string_append_printf(out, "wait=evt[%u] %s current=%u", idx,
                               want_set ? "evt-set" : "evt-clear", pt->evt[idx] ? 1u : 0u);
    }
}

bool seq_block_cleared(NxCpu *cpu)
{
    SeqCpu *s = seq_cpu(cpu);
    return s->regs->block_reason == NX_BLOCK_WAIT &&
           seq_wait_holds(s, s->blk_wait_mode, s->blk_wait_idx, s->blk_wait_value);
}

bool seq_blocked_on_values(NxCpu *cpu)
{
    uint32_t why = seq_cpu(cpu)->regs->block_reason;
    return why == NX_BLOCK_WAIT || why == NX_BLOCK_DRAIN;
}

/* 0xA0: two waits (a: the EV_* wait fields; b: EVSEM_WAITB_*) that must
 * hold at the same instant, and one update (EVSEM_UPD_*). */
SeqStatus seq_exec_evsem(SeqCpu *s, const SeqDecoded *d)
{
    const uint8_t *r = d->insn.rec;
    uint8_t wa = F(EV_WAIT_MODE), ia = F(EV_WAIT_IDX), wb = F(EVSEM_WAITB_MODE),
            ib = F(EVSEM_WAITB_IDX);
    uint32_t va = F(EV_VALUE), vb = F(EVSEM_WAITB_VALUE);
    uint8_t um = F(EVSEM_UPD_MODE), ui = F(EVSEM_UPD_IDX);
    uint32_t uv = F(EVSEM_UPD_VALUE);

    if (!seq_wait_holds(s, wa, ia, va)) {
        record_block_wait(s, wa, ia, va);
        return SEQ_BLOCK;
    }
    if (!seq_wait_holds(s, wb, ib, vb)) {
        record_block_wait(s, wb, ib, vb);
        return SEQ_BLOCK;
    }
    seq_wait_side_action(s, wa, ia);
    seq_wait_side_action(s, wb, ib);
    /* No results: _READ and _COMPLETE forms both land here, in order. */
    if (um)
        s->port.ev_update(s->port.opaque, um, ui, seq_update_value(s, um, uv));
    return SEQ_OK;
}

/* 0xB0: selected semaphores to 0 between the _READ and _COMPLETE updates. */
SeqStatus seq_exec_semclr(SeqCpu *s, const SeqDecoded *d)
{
    const uint8_t *r = d->insn.rec;
    const SeqPort *pt = &s->port;

    seq_u_pre(s, d);
    if (F(GRST_MODE) == 1) {
        for (unsigned i = F(GRST_FIRST); i <= F(GRST_LAST); i++)
            pt->sem_write(pt->opaque, i, 0);
    } else {
        for (unsigned i = 0; i < 256; i++)
            if (seq_field_get_at(r, SEQ_F_GRST_MASK, i >> 5) & (1u << (i & 31)))
                pt->sem_write(pt->opaque, i, 0);
    }
    seq_u_post(s, d);
    return SEQ_OK;
}

SeqStatus seq_exec_nop(SeqCpu *s, const SeqDecoded *d)
{
    seq_u_pre(s, d);
    seq_u_post(s, d);
    return SEQ_OK;
}

SeqStatus seq_exec_iflush(SeqCpu *s, const SeqDecoded *d)
{
    /* The decode cache is coherent through the memory API's code-write
     * hook, so there is nothing to flush: behaves as NOP (sequencer.md §6). */
    return seq_exec_nop(s, d);
}

SeqStatus seq_exec_halt(SeqCpu *s, const SeqDecoded *d)
{
    seq_u_pre(s, d);
    s->cpu.state = CPU_HALTED;
    seq_u_post(s, d);
    return SEQ_OK;
}

/* 0xA2: phase E blocks until this core's DMA requests and launched TPCs
 * are complete (nx->outstanding counts both, zeroed by CONTROL.RESET). */
SeqStatus seq_exec_drain(SeqCpu *s, const SeqDecoded *d)
{
    if (s->regs->outstanding != 0) {
        s->regs->block_reason = NX_BLOCK_DRAIN;
        return SEQ_BLOCK;
    }
    return seq_exec_nop(s, d);
}
