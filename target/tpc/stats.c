/*
 * The TPC's fields of its -d stats line (NxCpuOps.stats, docs/tracing.rst):
 * the timing model's counters when it is on (docs/timing.rst), then which
 * path ran the bundles (docs/architecture.rst, "TPC bundles").
 */
#include <inttypes.h>

#include "target/tpc/cpu.h"

void tpc_stats(NxCpu *cpu, GString *out)
{
    const TpcCpu *c = tpc_cpu(cpu);
    if (c->tm)
        g_string_append_printf(out, " stall_cycles=%" PRIu64 " hazards=%" PRIu64, c->stall_sum,
                               c->hazard_sum);
    g_string_append_printf(out, " direct=%" PRIu64 " staged=%" PRIu64, c->x.direct_total,
                           cpu->retired - c->x.direct_total);
}
