/*
 * Run statistics (`-d stats`), printed to the log sink when the run ends.
 * One line per core or engine, `key=value` fields, so scripts can grep them;
 * the format is documented in docs/tracing.rst.
 */
#include <inttypes.h>

#include "hw/nc2/board.h"
#include "softmmu/trace-int.h"
#include "target/seq/cpu.h"
#include "target/tpc/cpu.h"

static const char *const stall_names[4] = {"other", "wait", "drain", "dmaq"};

void trace_stats(NxTrace *t, GString *out)
{
    Machine *m = t->m;
    uint64_t sem_total = 0;

    uint64_t vtime = machine_run_vtime(m);
    g_string_append_printf(out, "stats: run vtime=%" PRIu64 " icount=%" PRIu64 "\n", vtime,
                           m->sched.icount);
    for (unsigned i = 0; i < t->nr_seq; i++) {
        const TraceCpu *tc = &t->seq[i];
        const NxCpu *cpu = m->seq ? m->seq[i] : NULL;
        const NxBlock *nx = &m->board->nx[i];
        uint64_t stalls = 0, cycles = 0;
        for (unsigned r = 0; r < 4; r++) {
            stalls += tc->stalls[r];
            cycles += tc->stall_cycles[r];
        }
        g_string_append_printf(
            out, "stats: seq%u insns=%" PRIu64 " state=%s stalls=%" PRIu64 " stall_cycles=%" PRIu64,
            i, cpu ? cpu->retired : 0, machine_cpu_state_label(m, cpu), stalls, cycles);
        for (unsigned r = 1; r < 4; r++)
            g_string_append_printf(out, " %s=%" PRIu64 "/%" PRIu64, stall_names[r], tc->stalls[r],
                                   tc->stall_cycles[r]);
        g_string_append_printf(out,
                               " tlb_hits=%" PRIu64 " tlb_misses=%" PRIu64 " tlb_evictions=%" PRIu64,
                               nx->tlb.hits, nx->tlb.misses, nx->tlb.evictions);
        /* which path ran them: records in compiled blocks (docs/architecture.rst) */
        g_string_append_printf(out, " compiled=%" PRIu64 "\n",
                               cpu ? seq_cpu((NxCpu *)cpu)->jit.insns : 0);
    }
    for (unsigned i = 0; i < t->nr_tpc; i++) {
        const TraceCpu *tc = &t->tpc[i];
        const NxCpu *cpu = m->tpc[i];
        g_string_append_printf(out,
                               "stats: tpc%u kernels=%" PRIu64 " faults=%" PRIu64
                               " bundles=%" PRIu64 " cycles=%" PRIu64 " state=%s",
                               i, tc->kernels, tc->kernel_faults,
                               cpu ? cpu->retired : tc->kernel_bundles, tc->kernel_cycles,
                               machine_cpu_state_label(m, cpu));
        /* with the timing model (docs/timing.rst): its counters, summed as cycles= */
        const TpcCpu *c = cpu ? tpc_cpu((NxCpu *)cpu) : NULL;
        if (c && c->tm)
            g_string_append_printf(out, " stall_cycles=%" PRIu64 " hazards=%" PRIu64,
                                   c->stall_sum, c->hazard_sum);
        /* which path ran them (docs/architecture.rst, "TPC bundles") */
        if (c)
            g_string_append_printf(out, " direct=%" PRIu64 " staged=%" PRIu64,
                                   c->x.direct_total, cpu->retired - c->x.direct_total);
        g_string_append_c(out, '\n');
    }
    /* Engines nobody used are summed up in the total line only. */
    uint64_t dma_req = 0, dma_bytes = 0;
    for (unsigned i = 0; i < m->board->dma.nr; i++) {
        const DmaEngine *e = &m->board->dma.e[i];
        dma_req += e->completed;
        dma_bytes += e->bytes;
        if (!e->completed && !e->count)
            continue;
        g_string_append_printf(out,
                               "stats: dma%u requests=%" PRIu64 " bytes=%" PRIu64 " queued=%u\n", i,
                               e->completed, e->bytes, e->count);
    }
    g_string_append_printf(out, "stats: dma engines=%u requests=%" PRIu64 " bytes=%" PRIu64 "\n",
                           m->board->dma.nr, dma_req, dma_bytes);
    for (unsigned i = 0; i < NC2_NR_SEMAPHORES; i++)
        sem_total += t->sem_waits[i];
    for (unsigned i = 0; i < NC2_NR_EVENTS; i++)
        sem_total += t->evt_waits[i];
    g_string_append_printf(out, "stats: waits total=%" PRIu64, sem_total);
    for (unsigned i = 0; i < NC2_NR_SEMAPHORES; i++)
        if (t->sem_waits[i])
            g_string_append_printf(out, " sem[%u]=%" PRIu64, i, t->sem_waits[i]);
    for (unsigned i = 0; i < NC2_NR_EVENTS; i++)
        if (t->evt_waits[i])
            g_string_append_printf(out, " evt[%u]=%" PRIu64, i, t->evt_waits[i]);
    g_string_append_c(out, '\n');
}
