/*
 * TPC pipeline timing (docs/timing.rst): the latency table of timing.def
 * applied to the registers each bundle reads and writes.  A per-bundle hook
 * around the ordinary executor (cpu.c), never a second copy of semantics:
 *
 *   functional   (default) no model: every bundle costs 1 cycle, the hook
 *                is not called (cpu.c tests one pointer)
 *   interlocked  EXPOSED_PIPE_DIS = 1: a bundle whose operand is not ready
 *                stalls until it is; results as functional
 *   exposed      EXPOSED_PIPE_DIS = 0: no stalls; a read before the
 *                distance sees the register's previous value
 *
 * -tpc-hazard-warn reports each read before its distance once per bundle PC
 * (in any mode; in functional mode it only reports).
 */
#ifndef TARGET_TPC_TIMING_H
#define TARGET_TPC_TIMING_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "target/tpc/insn.h"

typedef enum TpcTimingMode {
    TPC_TIMING_FUNCTIONAL = 0,
    TPC_TIMING_INTERLOCKED = 1,
    TPC_TIMING_EXPOSED = 2,
} TpcTimingMode;

/* The distance of a producer/consumer pair without a table row. */
#define TPC_TIMING_DEFAULT 4u

/* "functional" / "interlocked" / "exposed" -> mode; false for another word. */
bool tpc_timing_parse(const char *s, TpcTimingMode *mode);
const char *tpc_timing_name(TpcTimingMode mode);

typedef struct TpcCpu TpcCpu;
typedef struct TpcTiming TpcTiming;

/* Turn the model on for every TPC of m (mode functional and !warn: off). */
typedef struct Machine Machine;
void tpc_cpu_set_timing(Machine *m, TpcTimingMode mode, bool hazard_warn);
/* The same for one TPC c of m. */
void tpc_cpu_timing_set(Machine *m, TpcCpu *c, TpcTimingMode mode, bool hazard_warn);

/* Per-core state (NULL in TpcCpu.tm while off). */
TpcTiming *tpc_timing_new(TpcTimingMode mode, bool hazard_warn, uint32_t gmem_latency,
                          uint32_t gmem_bytes_per_cycle, uint32_t sram_latency);
void tpc_timing_free(TpcTiming *tm);
/* A launch at virtual time vtime: registers start fresh, nothing is in
 * flight (the HBM bookings of other TPCs stay). */
void tpc_timing_reset(TpcTiming *tm, uint64_t vtime);
/* The kernel ended: the TPC no longer shares the HBM cap (NULL: nothing). */
void tpc_timing_finish(TpcTiming *tm);

/* The hook (cpu.c tpc_step_one), for the bundle of dcache entry idx at
 * c->pc, in this order:
 *   begin     after decode; decoded: the entry was (re)decoded.  Resolves
 *             the operands against the table, applies interlock stalls to
 *             c->cycles and reports too-early reads.
 *   enter / leave around slot s's executor (s = TPC_SLOT_BUNDLE for LOOP):
 *             in exposed mode, give too-early reads their old values.
 *   commit    before the staged register writes are committed: record them
 *             (issue cycle, producer stage, previous value). */
struct TpcBundle;
void tpc_timing_begin(TpcCpu *c, unsigned idx, const struct TpcBundle *b, bool decoded);
void tpc_timing_enter(TpcCpu *c, unsigned idx, unsigned s);
void tpc_timing_leave(TpcCpu *c, unsigned s);
void tpc_timing_commit(TpcCpu *c, unsigned idx, const uint8_t *act, unsigned nact);

/* --profile (nxemu-tpc-run): per bundle PC, from the hook's begin.  Turns
 * the model on (functional mode if it was off) for every TPC of m. */
void tpc_cpu_set_profile(Machine *m);
enum { TPC_TM_NFILES = 6 }; /* S, SP, V, VP, I, AD */
extern const char *const tpc_timing_file_names[TPC_TM_NFILES];
/* Why a bundle stalled (docs/timing.rst "Profiles"). */
typedef enum TpcStallCause {
    TPC_STALL_RAW,  /* an operand of the bundle not ready yet (register latency) */
    TPC_STALL_MEM,  /* the global-memory port busy, or the bundle's own load data */
    TPC_STALL_RULE, /* a TPC_WAW / TPC_SEQ scheduling rule (structural order) */
    TPC_STALL_LOOP, /* a LOOP bundle waiting for its start/boundary/step register */
    TPC_STALL_NCAUSES
} TpcStallCause;
extern const char *const tpc_stall_cause_names[TPC_STALL_NCAUSES];
/* A bundle the stalls of a profile row waited for: the producer of the
 * operand (RAW, LOOP), the bundle holding the memory port or the stalled
 * bundle itself waiting for its load's data (MEM), the earlier bundle of the
 * rule (RULE). */
typedef struct TpcProfileProducer {
    uint32_t pc;
    uint8_t cause;          /* TpcStallCause */
    uint8_t reg;            /* flat register (tpc_timing_reg_name), 0xFF: none */
    uint64_t cycles, times; /* stall cycles, stalled executions */
} TpcProfileProducer;
enum { TPC_PROF_NPROD = 4 }; /* producers kept per row, the first seen */
typedef struct TpcProfileRow {
    uint64_t execs;  /* times the bundle began (a faulting one included) */
    uint64_t stalls; /* stall cycles before it: the sum of the causes below */
    uint64_t stall_by[TPC_TM_NFILES]; /* RAW: by the register file of the operand waited for */
    uint64_t stall_mem; /* waiting for the global-memory port or a load's data */
    uint64_t stall_rule; /* waiting for a TPC_WAW / TPC_SEQ scheduling rule */
    uint64_t stall_loop; /* a LOOP bundle waiting for its start/boundary/step registers */
    uint64_t hazards; /* too-early reads */
    uint64_t bytes;   /* global-memory bytes its accesses moved (timing.def TPC_MEM) */
    uint64_t vpu;     /* executions with a VPU instruction (not NOP) */
    unsigned nprod;
    TpcProfileProducer prod[TPC_PROF_NPROD];
    uint64_t prod_other; /* stall cycles of producers beyond the first TPC_PROF_NPROD */
} TpcProfileRow;
/* Rows indexed by PC / 32 (*n of them; NULL when not profiling). */
const TpcProfileRow *tpc_timing_profile(const TpcTiming *tm, size_t *n);
/* A backward control transfer seen while profiling (a loop's back edge):
 * from the last bundle of the body to its first; loop: LOOP's, else a jump. */
typedef struct TpcProfileEdge {
    uint32_t from, to;
    bool loop;
    uint64_t count;
} TpcProfileEdge;
const TpcProfileEdge *tpc_timing_profile_edges(const TpcTiming *tm, size_t *n);
/* The profile over time: cycles of each window of *window cycles of the
 * profile clock (the TPC's cycles, launches back to back) spent issuing and
 * stalled by cause; at most TPC_PROF_NSAMP windows (the window doubles). */
enum { TPC_PROF_NSAMP = 4096 };
typedef struct TpcProfileSample {
    uint64_t issue;
    uint64_t stall[TPC_STALL_NCAUSES];
    uint64_t bytes;
} TpcProfileSample;
const TpcProfileSample *tpc_timing_profile_samples(const TpcTiming *tm, size_t *n,
                                                   uint64_t *window);
/* "S20", "V3"... of a flat register of a TpcProfileProducer. */
void tpc_timing_reg_name(unsigned reg, char *buf, size_t len);
TpcTimingMode tpc_timing_mode(const TpcTiming *tm);
/* Global-memory bytes moved and cycles stalled on memory since the model
 * was turned on (0 while off). */
uint64_t tpc_timing_gmem_bytes(const TpcTiming *tm);
uint64_t tpc_timing_mem_stalls(const TpcTiming *tm);

/* The stall cycles of the running (or last) kernel by cause, indexed by
 * TPC_STALL_*: they sum to its TpcCpu.stall_cycles (-trace-json counters). */
void tpc_timing_stalls_by_cause(const TpcTiming *tm, uint64_t out[TPC_STALL_NCAUSES]);

/* The rows of timing.def resolved for one decoded slot instruction:
 * distance for a producer/consumer pair (unit tests, docs). */
unsigned tpc_timing_distance(unsigned pslot, const TpcInsn *prod, unsigned pkind, unsigned cslot,
                             const TpcInsn *cons, unsigned cfield, unsigned ckind);

/* The table is complete: every executing instruction of insn-*.def is named
 * by a producer row (TPC_PW) or a no-destination row (TPC_NOWR) of
 * timing.def, and every name those rows give is an instruction.  Prints
 * one line per failure to err; returns how many (0: complete). */
unsigned tpc_timing_check_table(FILE *err);

#endif
