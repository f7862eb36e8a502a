/*
 * Internals shared by softmmu/trace.c (hooks, commit log), trace-json.c
 * (timeline), coverage.c and stats.c.  Not an interface: include
 * nxemu/trace.h outside these files.
 */
#ifndef SOFTMMU_TRACE_INT_H
#define SOFTMMU_TRACE_INT_H

#include <stdio.h>

#include "nxemu/board-if.h"
#include "nxemu/machine.h"
#include "nxemu/seq-port.h"
#include "nxemu/trace.h"

/* Virtual-time track owners in the timeline (Chrome "pid"). */
enum { TL_PID_SEQ = 1, TL_PID_TPC = 2, TL_PID_DMA = 3, TL_PID_SEM = 4 };

typedef struct TraceMemWrite {
    uint64_t addr;
    unsigned size;
} TraceMemWrite;

/* Per-core bookkeeping. */
typedef struct TraceCpu {
    NxCpu *cpu;
    /* the attempt between trace_insn_begin and its close */
    bool pending;
    uint64_t pc;
    uint8_t bytes[64];
    unsigned len;
    uint64_t retired_before;
    uint64_t t;     /* virtual time of the attempt */
    void *snap;     /* the core's state before (commit): NxCpuTraceOps.snap */
    /* a blocked instruction, from its first attempt to its retirement */
    bool waiting;
    uint64_t wait_start;
    unsigned wait_reason; /* NX_BLOCK_* */
    char wait_what[64];
    /* TPC: its virtual time is the round's T plus the bundles it executed in
     * the round, but never before the kernel's launch or its previous bundle
     * (the scheduler runs TPCs from T even when the launch came later) */
    uint64_t round_vtime, round_n, clock;
    /* TPC: the kernel being executed */
    bool kernel_open;
    uint64_t counters_vtime; /* the round of the last TPC counter samples (+1; 0 none) */
    uint64_t launch_t, kernel_last;
    /* statistics */
    uint64_t stalls[4], stall_cycles[4]; /* by NX_BLOCK_* reason */
    uint64_t kernels, kernel_faults, kernel_bundles, kernel_cycles;
} TraceCpu;

typedef struct TraceCov TraceCov;

struct NxTrace {
    Machine *m;
    bool commit, stats;
    char *timeline_path, *coverage_path;
    GString *commit_out; /* tests: instead of the log sink */
    GString *line;       /* scratch for one commit line */
    TraceCpu *seq, *tpc;
    unsigned nr_seq, nr_tpc;

    /* memory written by the pending instruction (commit) */
    GArray *mem; /* TraceMemWrite */
    bool hooked, reading_back;
    bool subscribed; /* to the run events (trace_runev) */

    /* shadow of the semaphores and events, resynchronised before each
     * instruction if anything else changed them */
    NxSemView sems; /* the board's (nxemu/board-if.h) */
    uint32_t sem[SEQ_NR_SEMAPHORES];
    uint8_t evt[SEQ_NR_EVENTS];
    uint64_t sem_changes;
    uint64_t ext_t; /* time of the last change made outside instructions (DMA) */
    uint64_t sem_waits[SEQ_NR_SEMAPHORES], evt_waits[SEQ_NR_EVENTS];

    /* timeline: tl is the stream of tl_out (include/nxemu/file-io.h) */
    FILE *tl;
    struct NxOutput *tl_out;
    bool tl_first;
    GQueue **dma_push; /* per engine: uint64_t * queue times, FIFO like the engine */
    uint64_t *dma_last_end;
    unsigned nr_dma;

    TraceCov *cov;
    /* -coverage FILE and FILE.txt, opened (validated) before the run */
    struct NxOutput *cov_out, *cov_txt_out;
};

/* trace-json.c */
bool tl_open(NxTrace *t, const char *path, GError **err);
bool tl_close(NxTrace *t, GError **err);
/* Close an unfinished timeline (error paths): the target is left as it was. */
void tl_discard(NxTrace *t);
/* A complete span ("X") and an instant ("i"); args is a JSON object body
 * without braces (may be NULL), already escaped. */
void tl_span(NxTrace *t, int pid, unsigned tid, const char *name, uint64_t ts, uint64_t dur,
             const char *args);
void tl_instant(NxTrace *t, int pid, unsigned tid, const char *name, uint64_t ts, const char *args);
/* A counter sample ("C"): name = value at ts. */
void tl_counter(NxTrace *t, int pid, const char *name, uint64_t ts, uint64_t value);
/* Append s to out as a JSON string literal (with the quotes). */
void tl_json_str(GString *out, const char *s);

/* coverage.c */
TraceCov *cov_new(const Machine *m);
void cov_free(TraceCov *c);
/* One executed instruction of len bytes (counted when len is its ISA's). */
void cov_insn(TraceCov *c, CpuKind kind, const uint8_t *bytes, unsigned len);
/* n executions of the same bytes, decoded once */
void cov_insn_n(TraceCov *c, CpuKind kind, const uint8_t *bytes, unsigned len, uint64_t n);
void cov_fault(TraceCov *c, CpuKind kind, uint32_t code);
void cov_json(TraceCov *c, GString *out);
void cov_summary(TraceCov *c, GString *out);

#endif
