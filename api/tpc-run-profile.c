/*
 * nxemu-tpc-run --profile FILE: per TPC, a summary and the kernel's
 * disassembly annotated with what each bundle cost (docs/timing.rst,
 * "Profiles").  The counts come from the timing model's hook
 * (target/tpc/timing.h); the bundle bytes are read back from the kernel
 * in memory, so the disassembly is of what ran.
 */
#include <inttypes.h>

#include "hw/nc2/board.h"
#include "api/tpc-run.h"
#include "target/tpc/asm.h"
#include "target/tpc/cpu.h"

static void profile_tpc(GString *out, Machine *m, unsigned t, const TpcCpu *c)
{
    size_t n;
    const TpcProfileRow *rows = tpc_timing_profile(c->tm, &n);
    uint64_t stalls = 0, hazards = 0, by[TPC_TM_NFILES] = {0}, mem = 0, loop = 0, bytes = 0,
             vpu = 0;
    size_t last = 0;
    for (size_t i = 0; i < n; i++) {
        stalls += rows[i].stalls;
        hazards += rows[i].hazards;
        mem += rows[i].stall_mem;
        loop += rows[i].stall_loop;
        bytes += rows[i].bytes;
        vpu += rows[i].vpu;
        for (unsigned f = 0; f < TPC_TM_NFILES; f++)
            by[f] += rows[i].stall_by[f];
        if (rows[i].execs)
            last = i + 1;
    }
    double cyc = c->cycles ? (double)c->cycles : 1.0;
    g_string_append_printf(out,
                           "tpc %u: cycles=%" PRIu64 " bundles=%" PRIu64 " ipc=%.3f vpu=%.1f%%"
                           " bytes=%" PRIu64 " (%.1f/cycle) stall_cycles=%" PRIu64 " (",
                           t, c->cycles, c->bundles, (double)c->bundles / cyc,
                           100.0 * (double)vpu / cyc, bytes, (double)bytes / cyc, stalls);
    for (unsigned f = 0; f < TPC_TM_NFILES; f++)
        g_string_append_printf(out, "%s=%" PRIu64 " ", tpc_timing_file_names[f], by[f]);
    g_string_append_printf(out, "MEM=%" PRIu64 " LOOP=%" PRIu64 ") hazards=%" PRIu64 "\n", mem,
                           loop, hazards);
    g_string_append(out, "        pc      execs     cycles     stalls  stalled-on     hazards"
                         "      bytes  bundle\n");
    for (size_t i = 0; i < last; i++) {
        const TpcProfileRow *r = &rows[i];
        uint32_t pc = (uint32_t)(i * TPC_BUNDLE);
        GString *on = g_string_new(NULL);
        for (unsigned f = 0; f < TPC_TM_NFILES; f++)
            if (r->stall_by[f])
                g_string_append_printf(on, "%s%s:%" PRIu64, on->len ? "," : "",
                                       tpc_timing_file_names[f], r->stall_by[f]);
        if (r->stall_mem)
            g_string_append_printf(on, "%sMEM:%" PRIu64, on->len ? "," : "", r->stall_mem);
        if (r->stall_loop)
            g_string_append_printf(on, "%sLOOP:%" PRIu64, on->len ? "," : "", r->stall_loop);
        uint8_t b[TPC_BUNDLE];
        uint64_t bad;
        GString *d = g_string_new(NULL);
        if (as_rw_bytes(m->as, c->kernel_base + pc, b, TPC_BUNDLE, false,
                        MEMTXATTRS(MEM_REQ_DEBUG, 0), &bad) == MEMTX_OK)
            tpc_disas_bundle_gs(d, b, pc, NULL, NULL);
        else
            g_string_append(d, "(not readable)");
        g_string_append_printf(out,
                               "0x%08" PRIx32 " %10" PRIu64 " %10" PRIu64 " %10" PRIu64
                               "  %-12s %8" PRIu64 " %10" PRIu64 "  %s\n",
                               pc, r->execs, r->execs + r->stalls, r->stalls,
                               on->len ? on->str : "-", r->hazards, r->bytes, d->str);
        g_string_free(on, TRUE);
        g_string_free(d, TRUE);
    }
}

void tr_profile_text(GString *out, Machine *m, const TrOptions *o)
{
    TpcCpu *c0 = tpc_cpu_of(m, 0);
    g_string_append_printf(
        out, "# nxemu-tpc-run profile (docs/timing.rst): kernel=%s timing=%s tpcs=%u\n", o->kernel,
        tpc_timing_name(c0 ? tpc_timing_mode(c0->tm) : o->timing), o->ntpc);
    for (unsigned t = 0; t < o->ntpc; t++) {
        TpcCpu *c = tpc_cpu_of(m, t);
        /* TPCs the split did not launch keep the launcher sentinel */
        if (c && c->tm && m->board->tpccfg[t].launcher != 0xFFFFFFFFu)
            profile_tpc(out, m, t, c);
    }
}
