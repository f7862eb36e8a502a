/*
 * The generic machine: one object owns the address space, cores, scheduler,
 * log sink and observers (no other global state, so a test can build two
 * side by side).  The board's devices and memories hang off m->board, whose
 * type only the board defines (hw/nc2/board.h): code under target/ sees
 * this header, never a device struct (docs/architecture.rst, "Layers").
 */
#ifndef NXEMU_MACHINE_H
#define NXEMU_MACHINE_H

#include <stdbool.h>
#include <stdint.h>

#include <glib.h>

#include "nxemu/agent.h"
#include "nxemu/cpu.h"
#include "nxemu/log.h"
#include "nxemu/memory.h"
#include "nxemu/runev.h"

/* The board's devices and memories (hw/nc2/board.h). */
typedef struct NxBoard NxBoard;

/* Everything the board needs, read from the (effective) device tree. */
typedef struct MachineConfig {
    uint64_t hbm_size;
    unsigned nr_seq;
    unsigned nr_tpc;
    unsigned tlb_entries;
    unsigned quantum;
    unsigned nr_dma;
    unsigned dma_queue_depth;
    uint32_t dma_bytes_per_cycle;
    uint32_t dma_latency;
    /* memory@0 nxemu,bytes-per-cycle: the HBM's bandwidth, shared by the
     * DMA engines and by the TPCs' ports (docs/timing.rst); 0 = no cap */
    uint32_t hbm_bytes_per_cycle;
    /* /tpcs nxemu,gmem-*: each TPC's global-memory port (docs/timing.rst) */
    uint32_t tpc_gmem_latency;
    uint32_t tpc_gmem_bytes_per_cycle;
    uint32_t tpc_sram_latency; /* /tpcs nxemu,sram-latency-cycles: SBUF/PSUM loads */
    bool dtb_in_memory;
} MachineConfig;

/* Why the run ended (machine.md §9.2). */
typedef enum StopReason {
    STOP_NONE = 0,
    STOP_NORMAL_END, /* exit 0 */
    STOP_FINISHER,   /* test device: exit_status */
    STOP_FAULT,      /* 128 + signal */
    STOP_DEADLOCK,   /* 124 */
    STOP_LIMIT,      /* 123 */
    STOP_DEBUG,      /* debugger asked the machine to stop (not an end) */
    STOP_SIGNAL,     /* SIGTERM/SIGINT/SIGHUP (nxemu/signal.h): 128 + signal */
} StopReason;

typedef struct Sched {
    uint64_t vtime;   /* T at the start of the current round */
    uint64_t quantum; /* Q */
    uint64_t icount;  /* sequencer instructions retired machine-wide */
    bool has_icount_limit, has_cycle_limit;
    uint64_t icount_limit, cycle_limit;
    uint64_t limit_vtime; /* VTIME of the core that retired the N-th instruction */
    bool icount_reached;
    /* per-round activity, for the deadlock rule */
    uint64_t round_retired;
    unsigned round_dma_completed;
    unsigned round_tpc_changed;
    NxCpu *current; /* core in its slice, for VTIME reads */
    bool solo;      /* current runs a solo slice (nxemu/sched.h) */
    /* Agents made able to act (a sequencer started, a DMA request queued:
     * sched_note_wake), and the count when the solo slice began: a solo
     * core is still alone while they are equal (sched_solo_alone). */
    uint64_t wakes, solo_wakes;
    /* Changes a blocked sequencer's wait may see (sched_note_change), and
     * whether the solo slice runs beside blocked sequencers, so must end
     * with the round of the next one. */
    uint64_t changes;
    bool solo_watch;
    /* Most rounds sched_run gives one sched_rounds call, hence one solo
     * slice: 1024, or $NXEMU_SLICE_ROUNDS (1 runs every round on its own,
     * the reference the multi-round slices must equal: tests/seq). */
    uint64_t slice_rounds;
    uint64_t round_used; /* most cycles any core or engine used in this round */
    uint64_t end_vtime;  /* VTIME at which the run ended (set with stop_reason) */
    /* A round a debugger stop (STOP_DEBUG) interrupted: the next
     * sched_round goes on with it where it stopped, so a debugged run keeps
     * the timing of an undebugged one (softmmu/sched.c). */
    bool in_round;
    unsigned phase;     /* SchedPhase */
    unsigned next;      /* index of the core the phase runs next */
    bool resume_slice;  /* that core had started its slice: continue it */
    uint64_t round_seq_retired; /* sequencer instructions retired this round */
} Sched;

/* A named range of physical memory: a loaded image's segment, a tensor of
 * nxemu-tpc-run, the in-memory device tree.  The viewer labels its maps
 * with them (docs/viewer.rst, "Region labels"). */
typedef struct NxMemLabel {
    uint64_t pa, size;
    char *name; /* owned */
} NxMemLabel;

typedef struct Machine {
    MachineConfig cfg;
    void *fdt; /* effective device tree (owned) */
    size_t fdt_size;

    MemoryRegion sysmem; /* root container: the system PA map */
    AddressSpace *as;
    NxBoard *board; /* owned; opaque outside hw/ */

    /* The devices the scheduler advances beside the cores (nxemu/agent.h),
     * filled by the board. */
    NxAgent agent;

    NxCpu **seq; /* cfg.nr_seq */
    NxCpu **tpc; /* cfg.nr_tpc */

    Sched sched;
    /* TPC worker threads (nxemu/threads.h); NULL: the TPCs run on the
     * scheduler's thread. */
    struct NxThreads *threads;
    NxLog log;

    /* Set to stop every core's slice at the next instruction boundary. */
    bool stop;
    StopReason stop_reason;
    int exit_status;
    int stop_signal; /* STOP_SIGNAL: which */
    NxCpu *fault_cpu;

    /* Debugger state (include/nxemu/debug.h); NULL without a debugger. */
    struct NxDebug *debug;
    /* What -coverage counts of each core type (nxemu/coverage.h), by
     * CpuKind, filled by the board; NULL: no such core. */
    const struct NxCovIsa *cov_isa[NX_CPU_KINDS];
    /* Run-event subscribers (include/nxemu/runev.h): the traces, the
     * viewer's timeline; runev counts them (0: nobody observes). */
    unsigned runev;
    struct {
        NxRunEvFn fn;
        void *opaque;
    } runev_sub[NX_RUNEV_SUBS];
    /* What was put where (NxMemLabel, in the order added); NULL: none. */
    GArray *labels;
} Machine;

/* Build the board from a configuration (and the effective DTB, copied into
 * guest memory when cfg->dtb_in_memory).  NULL + err on failure. */
Machine *machine_new(const MachineConfig *cfg, const void *fdt, size_t fdt_size, GError **err);
void machine_free(Machine *m);
/* Name [pa, pa + size) for the viewer (a copy of name is kept). */
void machine_add_label(Machine *m, uint64_t pa, uint64_t size, const char *name);

/* Test device FINISHER: end the run after the current instruction retires. */
void machine_request_exit(Machine *m, int status);
/* A core faulted: stop the whole machine now (machine.md §9.1). */
void machine_fault(Machine *m, NxCpu *cpu);
/* Hand ev to every run-event subscriber, in the order they subscribed
 * (callers test m->runev first). */
static inline void machine_runev(Machine *m, const NxRunEvent *ev)
{
    for (unsigned i = 0; i < m->runev; i++)
        m->runev_sub[i].fn(m->runev_sub[i].opaque, ev);
}
/* Add a subscriber; false when NX_RUNEV_SUBS are there already. */
bool machine_runev_subscribe(Machine *m, NxRunEvFn fn, void *opaque);
/* Remove it (nothing if it is not subscribed). */
void machine_runev_unsubscribe(Machine *m, NxRunEvFn fn, void *opaque);
/* VTIME as seen by the requester (machine.md §8). */
uint64_t machine_vtime(Machine *m);
/* The run's virtual time for reports (-d stats, the viewer): once the run
 * has ended, the VTIME it ended at (sched.end_vtime); before, machine_vtime. */
uint64_t machine_run_vtime(Machine *m);
/* A core's state for reports (docs/tracing.rst): once the run has ended, a
 * core still RUNNING was cut short: ENDED when the test device or a normal
 * end stopped the run, STOPPED for a limit, another core's fault or a
 * debugger.  TPCs say IDLE and DONE for RESET and HALTED.  "-" for NULL. */
const char *machine_cpu_state_label(const Machine *m, const NxCpu *cpu);

/* Target entry points used by devices (implemented in target/): a device
 * never includes a target header, it calls these (more in hw/nc2/board.h). */
/* EXECUTE on TPC t (machine.md §6); the launch registers are latched already. */
void tpc_cpu_launch(Machine *m, unsigned t);

#endif
