/*
 * The small interface both core types implement (target/seq, target/tpc).
 * The scheduler, the gdb stub and the monitor only see this.
 */
#ifndef NXEMU_CPU_H
#define NXEMU_CPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <glib.h>

#include "nxemu/fault.h"

typedef struct Machine Machine;
typedef struct NxCpu NxCpu;
typedef struct SeqPort SeqPort;
typedef struct TpcPort TpcPort;
typedef struct NxTrace NxTrace;
typedef struct NxPoison NxPoison;

/* Kernel checking mode (nxemu-tpc-run --check, docs/tpc-guide.rst): a core
 * reports what a kernel author most likely did not mean (a tensor access
 * with no element inside its tensor) as one line of text naming the core,
 * its pc, the tensor number (-1: none) and the coordinates; dim0_only:
 * only dim 0 puts them outside (a vector past a row's end, which a
 * kernel's last block of vectors may do on purpose). */
typedef void (*NxCheckFn)(void *opaque, NxCpu *cpu, uint64_t pc, int tensor, const int32_t coord[5],
                          bool dim0_only, const char *what);

/* Sequencer STATUS[3:0] values (machine.md §3); TPCs use RESET for IDLE and
 * HALTED for DONE. */
typedef enum CpuState {
    CPU_RESET = 0,
    CPU_RUNNING = 1,
    CPU_BLOCKED = 2,
    CPU_HALTED = 3,
    CPU_FAULTED = 4,
} CpuState;

typedef enum CpuKind { CPU_KIND_SEQ, CPU_KIND_TPC } CpuKind;
#define NX_CPU_KINDS 2 /* CpuKind values, for tables indexed by kind */

/* Execution modes the command line sets on the cores (-tpc-strict,
 * -tpc-timing, -tpc-hazard-warn: docs/user-manual.rst, docs/timing.rst);
 * a core type takes the ones that concern it (NxCpuOps.set_modes). */
typedef struct NxCpuModes {
    bool strict;      /* bundle conflicts fault (tpc.md §6.1); false: unchanged */
    unsigned timing;  /* the pipeline timing model: 0 functional (nx_timing_parse) */
    bool hazard_warn; /* report reads before their producer's latency */
} NxCpuModes;

/* What the traces (softmmu/trace.c: -d commit, -trace-json, -coverage;
 * docs/tracing.rst) ask of a core type, so that they read no core state
 * themselves.  The commit log finds what an instruction did by comparing
 * the core's architectural state before and after it. */
typedef struct NxCpuTraceOps {
    unsigned insn_len;  /* bytes of an instruction (64) or bundle (32) */
    unsigned pc_digits; /* hex digits of a pc in a commit line */
    /* Bytes of a snapshot, which the trace allocates zeroed. */
    size_t snap_size;
    /* Before the instruction bytes[insn_len] runs: copy what it may change. */
    void (*snap)(NxCpu *cpu, void *snap, const uint8_t *bytes);
    /* After it: append " ; NAME=VALUE" for every change since snap. */
    void (*changed)(NxCpu *cpu, const void *snap, GString *out);
    /* Disassemble bytes[insn_len] at pc. */
    void (*disas)(const uint8_t *bytes, uint64_t pc, GString *out);
    /* The name of a fault code of this core type. */
    const char *(*fault_name)(uint32_t code);
    /* Optional: a blocked core's wait: *reason (NX_BLOCK_*), and for a
     * wait on a semaphore or event its index and whether it is an event;
     * false when the core does not say. */
    bool (*wait)(NxCpu *cpu, unsigned *reason, bool *evt, unsigned *idx);
    /* Optional: the timeline's counter samples of the core (name, value),
     * each handed to emit; none when the core keeps no such counts. */
    void (*counters)(NxCpu *cpu, void (*emit)(void *o, const char *name, uint64_t v), void *o);
    /* Optional: hand the executions the core counted for trace_insn_count
     * and has not handed over yet to it, now (before a coverage report). */
    void (*flush_counts)(NxCpu *cpu);
} NxCpuTraceOps;

typedef struct NxCpuOps {
    const char *arch; /* "seq" or "tpc" */
    void (*reset)(NxCpu *cpu);
    /* Attempt instructions until `budget` cycles are used, the core blocks,
     * halts or faults, or m->stop is set.  Returns the cycles used; adds
     * retired instructions to cpu->retired and to the round's count. */
    uint64_t (*run)(NxCpu *cpu, uint64_t budget);
    uint64_t (*get_pc)(NxCpu *cpu);
    /* Deadlock report tail after "state=BLOCKED ": "wait=sem[3] ge 1 current=0",
     * "drain" or "dmaq=<e>" (machine.md §9.3). */
    void (*block_info)(NxCpu *cpu, GString *out);
    /* Optional: does what blocked the core hold no more (a DMA completion
     * satisfied its wait since)?  It then passes at its next slice, and a
     * limit report says so instead of calling it blocked. */
    bool (*block_cleared)(NxCpu *cpu);
    /* Optional: is the core blocked on values only (semaphores, events, its
     * own registers, its outstanding work: a wait or DRAIN), so that a retry
     * fails until one of them changes (sched_note_change)?  A full DMA queue
     * is not such a block: its retry builds the request again, reading
     * memory.  The scheduler then skips its slices (softmmu/sched.c). */
    bool (*blocked_on_values)(NxCpu *cpu);
    /* The whole one-line fault diagnostic without newline, e.g.
     * "nxemu: fault: core=0 code=BUS_ERROR(8) info=0 pc=0x... addr=0x..."
     * (machine.md §9.3 for sequencers, tpc.md §6.6 for TPCs). */
    void (*fault_line)(NxCpu *cpu, GString *out);
    /* Signal a debugger sees for the recorded fault. */
    int (*fault_signal)(NxCpu *cpu);
    /* Human-readable register dump (-d cpu, monitor info registers). */
    void (*dump)(NxCpu *cpu, GString *out);
    /* Optional: the core's own fields of its -d stats line, appended after
     * the generic ones (docs/tracing.rst), each with a leading space. */
    void (*stats)(NxCpu *cpu, GString *out);
    /* Disassemble the instruction at guest address addr into out; returns its
     * length in bytes, or 0 if it cannot be read. */
    unsigned (*disas)(NxCpu *cpu, uint64_t addr, GString *out);
    /* gdb register access by the stub's register number; return bytes
     * transferred, 0 for an unknown number. */
    unsigned (*gdb_read_reg)(NxCpu *cpu, unsigned n, uint8_t *buf, size_t buflen);
    unsigned (*gdb_write_reg)(NxCpu *cpu, unsigned n, const uint8_t *buf, size_t len);
    /* What the traces ask of the core (above). */
    const NxCpuTraceOps *trace;
    /* Optional: take the command line's execution modes. */
    void (*set_modes)(NxCpu *cpu, const NxCpuModes *modes);
    /* Optional: may run() now execute on a worker thread (nxemu/worker.h)?
     * Absent or false: the core's slices stay on the main thread. */
    bool (*worker_ok)(NxCpu *cpu);
    /* Optional, with worker_ok: a stretch run in parallel
     * (softmmu/sched-threads.c) starts: keep the core's state (registers,
     * counters, access log) for stretch_restore and log every access of
     * global memory from now on.  Absent: the core's stretches run one
     * after another. */
    void (*stretch_begin)(NxCpu *cpu);
    /* Each access of global memory since stretch_begin, [lo, hi), to emit;
     * false when some were not logged (then the stretch counts as a race). */
    bool (*stretch_accesses)(NxCpu *cpu,
                             void (*emit)(void *o, uint64_t lo, uint64_t hi, bool write), void *o);
    /* Optional: the bytes [*lo, *hi) the core may fetch code from in the
     * stretch; false: none.  Fetches are not logged, so a stretch in which
     * another core of it wrote them counts as a race. */
    bool (*stretch_code)(NxCpu *cpu, uint64_t *lo, uint64_t *hi);
    /* Back to what stretch_begin kept (memory is the caller's to restore). */
    void (*stretch_restore)(NxCpu *cpu);
    /* The stretch is over: what it logged only for the check goes. */
    void (*stretch_end)(NxCpu *cpu);
    void (*destroy)(NxCpu *cpu);
} NxCpuOps;

struct NxCpu {
    const NxCpuOps *ops;
    Machine *m;
    CpuKind kind;
    unsigned index;
    CpuState state;
    uint64_t retired;    /* instructions (sequencer) or bundles (TPC) */
    uint64_t slice_used; /* cycles used in the current slice (VTIME) */
    uint64_t wait_mark;  /* sched.changes after its last slice (softmmu/sched.c) */
    NxFault fault;       /* valid in CPU_FAULTED */
    uint64_t fault_pc;
    /* Held by the debugger (gdb's scheduler-locking resumes other cores
     * only): the scheduler gives it no slice and no deadlock verdict is
     * drawn while it could still run. */
    bool debug_frozen;
    /* The observers attached to this core, each set by the observer when it
     * attaches and cleared when it leaves (NULL: none), so that a core's hot
     * paths test its own context and the Machine holds no observer:
     * trace_new (-d commit, -trace-json, -coverage, -d stats), poison_new
     * (-machine poison=on: the TPCs' VLM accesses) and the checking mode
     * (TPCs only; check_opaque is its argument). */
    NxTrace *trace;
    NxPoison *poison;
    NxCheckFn check;
    void *check_opaque;
};

/* Is an observer attached to cpu that looks at its single instructions or
 * accesses (the scheduler runs such a core's slices in order)? */
static inline bool nx_cpu_observed(const NxCpu *cpu)
{
    return cpu->trace || cpu->poison || cpu->check;
}

/* Constructors implemented by the targets; the board calls them.  Each core
 * works through the port the board fills in (nxemu/seq-port.h,
 * nxemu/tpc-port.h), which it copies. */
NxCpu *seq_cpu_create(Machine *m, unsigned index, const SeqPort *port);
NxCpu *tpc_cpu_create(Machine *m, unsigned index, const TpcPort *port);
/* What -coverage counts of each (include/nxemu/coverage.h,
 * target/seq/coverage.c, target/tpc/coverage.c): the board hands them to
 * the machine beside the cores (Machine.cov_isa). */
extern const struct NxCovIsa seq_cov_isa;
extern const struct NxCovIsa tpc_cov_isa;
/* -tpc-timing MODE's names (target/tpc/timing.c): the NxCpuModes.timing
 * value of "functional", "interlocked" or "exposed"; false for another. */
bool nx_timing_parse(const char *s, unsigned *mode);

static inline const char *cpu_state_name(CpuState s)
{
    static const char *const names[] = {"RESET", "RUNNING", "BLOCKED", "HALTED", "FAULTED"};
    return (unsigned)s < 5 ? names[s] : "?";
}

#endif
