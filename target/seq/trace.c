/*
 * What the traces ask of a sequencer (NxCpuTraceOps, include/nxemu/cpu.h):
 * the commit log's register snapshot and changes (docs/tracing.rst
 * "-d commit"), the record's disassembly and what a blocked core waits on
 * (the -d stats wait counts and the timeline's stall spans).
 */
#include <inttypes.h>
#include <string.h>

#include "nxemu/trace.h"
#include "target/seq/asm.h"
#include "target/seq/cpu.h"

typedef struct SeqTraceSnap {
    uint32_t r[64]; /* R0..R63 before the record */
} SeqTraceSnap;

static void seq_trace_snap(NxCpu *cpu, void *snap, const uint8_t *bytes)
{
    SeqTraceSnap *s = snap;
    (void)bytes;
    memcpy(s->r, seq_cpu(cpu)->regs->r, sizeof(s->r));
}

static void seq_trace_changed(NxCpu *cpu, const void *snap, GString *g)
{
    const SeqTraceSnap *s = snap;
    const uint32_t *r = seq_cpu(cpu)->regs->r;
    for (unsigned i = 0; i < 64; i++)
        if (r[i] != s->r[i])
            g_string_append_printf(g, " ; r%u=0x%08" PRIx32, i, r[i]);
}

static void seq_trace_disas(const uint8_t *bytes, uint64_t pc, GString *out)
{
    seq_disas_insn(bytes, pc, out);
}

static bool seq_trace_wait(NxCpu *cpu, unsigned *reason, bool *evt, unsigned *idx)
{
    SeqCpu *s = seq_cpu(cpu);
    *reason = s->regs->block_reason & 3;
    *evt = (s->blk_wait_mode & 0x7F) >= SEQ_WAIT_EVT_SET;
    *idx = s->blk_wait_idx;
    return true;
}

const NxCpuTraceOps seq_trace_ops = {
    .insn_len = 64,
    .pc_digits = 16,
    .snap_size = sizeof(SeqTraceSnap),
    .snap = seq_trace_snap,
    .changed = seq_trace_changed,
    .disas = seq_trace_disas,
    .fault_name = nx_fault_name,
    .wait = seq_trace_wait,
};
