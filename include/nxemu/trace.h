/*
 * The picture of a run: per-instruction commit log (`-d commit`), a
 * Chrome/Perfetto timeline (`-trace-json FILE`), an ISA coverage report
 * (`-coverage FILE`) and run statistics (`-d stats`).  docs/tracing.rst
 * documents the formats.
 *
 * trace_new attaches it to every core (NxCpu.trace, NULL unless one of those
 * options is given): the cores call the hooks below under a single
 *   if (G_UNLIKELY(cpu->trace)) ...
 * so a run without them pays one predictable branch per instruction.
 *
 * The cores need exactly two calls: trace_insn_begin() once the instruction
 * (record or bundle) is fetched, before it executes, and trace_insn_end()
 * when the core's run() returns (or after every attempt; both work).  Every
 * begin closes the previous attempt of that core, so one end per run() is
 * enough.  Everything else (registers and memory written, semaphores changed,
 * retired/blocked/faulted, disassembly, coverage) is derived here from the
 * core's state before and after.
 */
#ifndef NXEMU_TRACE_H
#define NXEMU_TRACE_H

#include <stdbool.h>
#include <stdint.h>

#include <glib.h>

typedef struct Machine Machine;
typedef struct NxCpu NxCpu;
typedef struct DmaRequest DmaRequest;
typedef struct NxTrace NxTrace;

typedef struct NxTraceOptions {
    bool commit;          /* -d commit: one line per retired instruction to the log sink */
    bool stats;           /* -d stats: statistics to the log sink at the end */
    const char *timeline; /* -trace-json FILE */
    const char *coverage; /* -coverage FILE (JSON; summary in FILE.txt) */
} NxTraceOptions;

/* True if o asks for anything (else there is no reason to create a trace). */
bool trace_wanted(const NxTraceOptions *o);
/* Create the trace and attach it to every core (NxCpu.trace).  Opens the timeline file now, so
 * an unwritable path fails before anything runs: NULL + err. */
NxTrace *trace_new(Machine *m, const NxTraceOptions *o, GError **err);
/* The run ended: close open spans, record the fault kind, write the timeline
 * and coverage files and print the statistics.  false + err if a file could
 * not be written. */
bool trace_finish(NxTrace *t, GError **err);
/* Detach from the cores and free (after trace_finish, or on an error path). */
void trace_free(NxTrace *t);

/* ---- hooks --------------------------------------------------------------- */

/* cpu is about to execute the len bytes at pc (sequencer: the 64-byte record
 * at its Neuron PC; TPC: the 32-byte bundle at its PC offset). */
void trace_insn_begin(Machine *m, NxCpu *cpu, uint64_t pc, const uint8_t *bytes, unsigned len);
/* Does the trace need trace_insn_begin for every instruction, or only for
 * those that can block, fault or touch semaphores?  Only -d stats asked: its
 * counters come from attempts that block and from the cores' own counters,
 * so a core may run pure ALU/branch records without the hook (the
 * sequencer's compiled blocks).  NULL: false. */
bool trace_needs_every_insn(const NxTrace *t);
/* Of those, does it need the record around each instruction (-d commit,
 * -trace-json)?  When only -coverage wants every instruction
 * (trace_counts_insns), a core may instead count the executions of each
 * instruction that cannot block, fault or touch semaphores and hand them
 * over in bulk with trace_insn_count (the TPC's direct bundles, loop plans
 * and compiled bodies).  NULL: false. */
bool trace_needs_insn_records(const NxTrace *t);
bool trace_counts_insns(const NxTrace *t);
/* n executions, all retired, of the len bytes (as trace_insn_begin's) that
 * no trace_insn_begin reported: what the coverage report counts of them. */
void trace_insn_count(NxCpu *cpu, const uint8_t *bytes, unsigned len, uint64_t n);
/* Close cpu's pending attempt, if any (no-op otherwise). */
void trace_insn_end(Machine *m, NxCpu *cpu);
/* Append p[0..n) as lower-case hex, the commit log's byte format. */
void trace_hex(GString *g, const uint8_t *p, size_t n);
/* DMA requests queued and completed, kernels launched and ended reach the
 * trace as run events (nxemu/runev.h): trace_new subscribes. */

/* ---- for tests and the monitor ------------------------------------------ */

/* Commit lines go to out instead of the log sink. */
void trace_set_commit_output(NxTrace *t, GString *out);
/* The coverage report so far (JSON object / readable summary). */
void trace_coverage_json(NxTrace *t, GString *out);
void trace_coverage_summary(NxTrace *t, GString *out);
/* The statistics block printed at the end by -d stats. */
void trace_stats(NxTrace *t, GString *out);

#endif
