/*
 * Run statistics (`-d stats`), printed to the log sink when the run ends.
 * One line per core or engine, `key=value` fields, so scripts can grep them;
 * the format is documented in docs/tracing.rst.
 */
#include <inttypes.h>

#include "softmmu/trace-int.h"

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
        /* the core's own: translation counters, compiled records */
        if (cpu && cpu->ops->stats)
            cpu->ops->stats((NxCpu *)cpu, out);
        g_string_append_c(out, '\n');
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
        /* the core's own: timing-model counters, which path ran the bundles */
        if (cpu && cpu->ops->stats)
            cpu->ops->stats((NxCpu *)cpu, out);
        g_string_append_c(out, '\n');
    }
    /* the DMA engines' lines (Machine.agent) */
    if (m->agent.stats)
        m->agent.stats(m->agent.opaque, out);
    for (unsigned i = 0; i < SEQ_NR_SEMAPHORES; i++)
        sem_total += t->sem_waits[i];
    for (unsigned i = 0; i < SEQ_NR_EVENTS; i++)
        sem_total += t->evt_waits[i];
    g_string_append_printf(out, "stats: waits total=%" PRIu64, sem_total);
    for (unsigned i = 0; i < SEQ_NR_SEMAPHORES; i++)
        if (t->sem_waits[i])
            g_string_append_printf(out, " sem[%u]=%" PRIu64, i, t->sem_waits[i]);
    for (unsigned i = 0; i < SEQ_NR_EVENTS; i++)
        if (t->evt_waits[i])
            g_string_append_printf(out, " evt[%u]=%" PRIu64, i, t->evt_waits[i]);
    g_string_append_c(out, '\n');
}
