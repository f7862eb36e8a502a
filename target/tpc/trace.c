/*
 * What the traces ask of a TPC (NxCpuTraceOps, include/nxemu/cpu.h): the
 * commit log's snapshot and changes (docs/tracing.rst "-d commit"), the
 * bundle's disassembly and the timing model's counter tracks of the
 * timeline (docs/timing.rst "Profiles").  softmmu/trace.c reads no TPC
 * state itself.
 */
#include <inttypes.h>
#include <string.h>

#include "nxemu/trace.h"
#include "target/tpc/asm.h"
#include "target/tpc/cpu.h"

/* TPC registers before a bundle (only with -d commit). */
typedef struct TpcTraceSnap {
    uint32_t s[TPC_NR_S];
    uint8_t sp[TPC_NR_SP];
    uint8_t v[TPC_NR_V][TPC_VBYTES];
    uint8_t vp[TPC_NR_VP][TPC_VPBYTES];
    int32_t irf[TPC_NR_I][5];
    uint64_t ad[TPC_NR_AD];
    /* local memory, copied only before bundles whose store slot can write it */
    bool slm_saved, vlm_saved;
    uint8_t slm[TPC_SLM_SIZE];
    uint8_t vlm[TPC_VLM_SIZE];
} TpcTraceSnap;

static bool tpc_is_loop(const uint8_t *b)
{
    return tpc_bits(b, TPC_B_SPU_OPC, 6) == TPC_OPC_LOOP;
}

static void tpc_trace_snap(NxCpu *cpu, void *snap, const uint8_t *bytes)
{
    TpcCpu *c = tpc_cpu(cpu);
    TpcTraceSnap *s = snap;
    memcpy(s->s, c->s, sizeof(s->s));
    memcpy(s->sp, c->sp, sizeof(s->sp));
    for (unsigned i = 0; i < TPC_NR_V; i++)
        memcpy(s->v[i], c->v[i], TPC_VBYTES);
    memcpy(s->vp, c->vp, sizeof(s->vp));
    memcpy(s->irf, c->irf, sizeof(s->irf));
    for (unsigned i = 0; i < TPC_NR_AD; i++)
        s->ad[i] = c->ad[i].pa;
    /* The store slot's form says whether local memory may change. */
    const TpcInsnDesc *st =
        tpc_is_loop(bytes) ? NULL : tpc_insn_desc(TPC_SLOT_ST, tpc_bits(bytes, TPC_B_ST_OPC, 5));
    s->slm_saved = st && st->form == TPC_FORM_ST_L;
    s->vlm_saved = st && st->form == TPC_FORM_ST_L_V;
    if (s->slm_saved)
        memcpy(s->slm, c->slm, sizeof(s->slm));
    if (s->vlm_saved)
        memcpy(s->vlm, c->vlm, sizeof(s->vlm));
}

static void tpc_regs_changed(const TpcCpu *c, const TpcTraceSnap *s, GString *g)
{
    for (unsigned i = 0; i < TPC_NR_S; i++)
        if (c->s[i] != s->s[i])
            g_string_append_printf(g, " ; S%u=0x%08" PRIx32, i, c->s[i]);
    for (unsigned i = 0; i < TPC_NR_SP; i++)
        if (c->sp[i] != s->sp[i])
            g_string_append_printf(g, " ; SP%u=%u", i, c->sp[i]);
    for (unsigned i = 0; i < TPC_NR_V; i++)
        if (memcmp(c->v[i], s->v[i], TPC_VBYTES)) {
            g_string_append_printf(g, " ; V%u=", i);
            trace_hex(g, c->v[i], TPC_VBYTES);
        }
    for (unsigned i = 0; i < TPC_NR_VP; i++)
        if (memcmp(c->vp[i], s->vp[i], TPC_VPBYTES)) {
            g_string_append_printf(g, " ; VP%u=", i);
            trace_hex(g, c->vp[i], TPC_VPBYTES);
        }
    for (unsigned i = 0; i < TPC_NR_I; i++)
        if (memcmp(c->irf[i], s->irf[i], sizeof(s->irf[i]))) {
            const int32_t *d = c->irf[i];
            g_string_append_printf(g, " ; I%u=[%d,%d,%d,%d,%d]", i, d[0], d[1], d[2], d[3], d[4]);
        }
    for (unsigned i = 0; i < TPC_NR_AD; i++)
        if (c->ad[i].pa != s->ad[i])
            g_string_append_printf(g, " ; AD%u=0x%016" PRIx64, i, c->ad[i].pa);
}

/* TPC-local memory is not on the address space: compare it with the copy
 * taken before a bundle whose store slot writes SLM (each changed u32) or
 * VLM (the bytes from the first to the last that changed). */
static void tpc_local_written(const TpcCpu *c, const TpcTraceSnap *s, GString *g)
{
    if (s->slm_saved) {
        for (unsigned off = 0; off < TPC_SLM_SIZE; off += 4) {
            uint32_t v;
            if (!memcmp(c->slm + off, s->slm + off, 4))
                continue;
            memcpy(&v, c->slm + off, 4);
            g_string_append_printf(g, " ; slm[0x%03x]=0x%08" PRIx32, off, v);
        }
    }
    if (s->vlm_saved) {
        unsigned lo = 0, hi = TPC_VLM_SIZE;
        while (lo < hi && c->vlm[lo] == s->vlm[lo])
            lo++;
        while (hi > lo && c->vlm[hi - 1] == s->vlm[hi - 1])
            hi--;
        if (lo < hi) {
            g_string_append_printf(g, " ; vlm[0x%05x]/%u=", lo, hi - lo);
            trace_hex(g, c->vlm + lo, hi - lo);
        }
    }
}

static void tpc_trace_changed(NxCpu *cpu, const void *snap, GString *out)
{
    const TpcCpu *c = tpc_cpu(cpu);
    tpc_regs_changed(c, snap, out);
    tpc_local_written(c, snap, out);
}

static void tpc_trace_disas(const uint8_t *bytes, uint64_t pc, GString *out)
{
    tpc_disas_bundle_gs(out, bytes, (uint32_t)pc, NULL, NULL);
}

/* Perfetto counter tracks of a timed TPC: its cycles, stall cycles (in all
 * and by cause) and global-memory bytes so far in the kernel. */
static void tpc_trace_counters(NxCpu *cpu, void (*emit)(void *o, const char *name, uint64_t v),
                               void *o)
{
    TpcCpu *c = tpc_cpu(cpu);
    if (!c->tm)
        return;
    char name[48];
    unsigned i = cpu->index;
    g_snprintf(name, sizeof(name), "tpc%u cycles", i);
    emit(o, name, c->cycles);
    g_snprintf(name, sizeof(name), "tpc%u stall cycles", i);
    emit(o, name, c->stall_cycles);
    uint64_t by[TPC_STALL_NCAUSES];
    tpc_timing_stalls_by_cause(c->tm, by);
    for (unsigned k = 0; k < TPC_STALL_NCAUSES; k++) {
        g_snprintf(name, sizeof(name), "tpc%u stall cycles %s", i, tpc_stall_cause_names[k]);
        emit(o, name, by[k]);
    }
    g_snprintf(name, sizeof(name), "tpc%u gmem bytes", i);
    emit(o, name, tpc_timing_gmem_bytes(c->tm));
}

const NxCpuTraceOps tpc_trace_ops = {
    .insn_len = TPC_BUNDLE_BYTES,
    .pc_digits = 8,
    .snap_size = sizeof(TpcTraceSnap),
    .snap = tpc_trace_snap,
    .changed = tpc_trace_changed,
    .disas = tpc_trace_disas,
    .fault_name = tpc_fault_name,
    .counters = tpc_trace_counters,
    .flush_counts = tpc_cov_flush_counts,
};
