/*
 * Debugger state hung off the Machine (m->debug, NULL when no debugger is
 * attached) and the checks the cores make.  The gdb stub owns and fills it
 * (softmmu/gdbstub-debug.c); the cores only call the inline checks below.
 *
 * Contract for a core's run() loop:
 *
 *   while (used < budget && !m->stop) {
 *       if (nx_debug_should_stop(m, cpu, pc))   // before fetching pc
 *           break;                             // pc stays at the unexecuted insn
 *       ...
 *   }
 *
 * nx_debug_should_stop costs one predictable branch without a debugger.
 * When it returns true it has already set m->stop (reason STOP_DEBUG), so
 * the scheduler ends the round and the stub reports the stop.
 *
 * Watchpoints: the stub observes every memory access through the access
 * hook of m->as; a hit stops the machine after the accessing instruction
 * retired (the core loop sees m->stop at the next boundary).  A core that
 * wants exact "before the access" reports calls nx_debug_watch_hit() in its
 * side-effect-free phase (where it checks accesses for precise faults) and,
 * when it returns true, abandons the instruction exactly as for a fault
 * but without recording one, and returns from run() with pc unchanged.
 */
#ifndef NXEMU_DEBUG_H
#define NXEMU_DEBUG_H

#include <stdbool.h>
#include <stdint.h>

#include <glib.h>

#include "nxemu/cpu.h"
#include "nxemu/memory.h"

typedef struct Machine Machine;

typedef enum NxDebugHit {
    NX_HIT_NONE = 0,
    NX_HIT_BREAK,  /* breakpoint at cpu's pc (not executed) */
    NX_HIT_WATCH,  /* write watchpoint (gdb Z2) */
    NX_HIT_RWATCH, /* read watchpoint (Z3) */
    NX_HIT_AWATCH, /* access watchpoint (Z4) */
    NX_HIT_CATCH,  /* a machine event asked for with `monitor catch` */
} NxDebugHit;

/* Machine events a debugger can stop at (`monitor catch`, docs/gdb.rst):
 * the devices report them through nx_debug_event(). */
typedef enum NxCatch {
    NX_CATCH_TPC_LAUNCH = 1u << 0, /* a write to EXECUTE started a kernel */
    NX_CATCH_TPC_END = 1u << 1,    /* a kernel finished or faulted */
    NX_CATCH_DMA = 1u << 2,        /* a DMA request completed */
    NX_CATCH_SEM = 1u << 3,        /* semaphore catch_sem became catch_value */
} NxCatch;

typedef struct NxBreakpoint {
    NxCpu *cpu;
    uint64_t addr; /* core pc value */
} NxBreakpoint;

typedef struct NxWatchpoint {
    NxCpu *cpu;     /* the process that asked (reported on) */
    uint64_t gaddr; /* address as gdb gave it */
    uint64_t pa;    /* physical address watched */
    uint64_t len;
    NxDebugHit type; /* NX_HIT_WATCH / RWATCH / AWATCH */
} NxWatchpoint;

typedef struct NxDebug {
    Machine *m;
    /* Breakpoints exist: cores take the out-of-line check. */
    bool armed;
    GArray *bps; /* NxBreakpoint */
    GArray *wps; /* NxWatchpoint */
    bool hook_installed;
    /* On resume, the core that stopped at a breakpoint does not stop again
     * at that same pc before executing one instruction. */
    NxCpu *skip_cpu;
    uint64_t skip_pc;
    /* A step of a blocked sequencer (the gdb stub): the machine runs until
     * step_cpu has retired an instruction (retired != step_retired) and
     * stops before its next one. */
    NxCpu *step_cpu;
    uint64_t step_retired;
    /* ... or, for a core that cannot run yet (a TPC before its kernel's
     * launch), until step_cpu is about to execute its first instruction. */
    bool step_first;
    /* The recorded stop (first hit wins). */
    NxDebugHit hit;
    NxCpu *hit_cpu;
    uint64_t hit_addr; /* gdb address of a watch hit */
    bool hit_precise;  /* watch hit reported before the access */
    /* Who made a watch hit's access (MemRequester; for a DMA transfer
     * hit_by_id is the issuing sequencer, -1 for a doorbell request), so
     * that the stop can name it; hit_by_set false: not known; hit_by_engine:
     * hit_by_id is the DMA engine, seen through the access hook). */
    bool hit_by_set;
    bool hit_by_engine;
    bool hit_by_write;
    uint8_t hit_by;
    int hit_by_id;
    /* The accessing core's pc when it made the access (a core's hit only):
     * its instruction or bundle, which has retired by the stop. */
    uint64_t hit_by_pc;
    /* Set by the DMA engine while a transfer that was already reported
     * before it moved completes: the access hook then reports only write
     * watchpoints (gdb needs to see the new value), see gdbstub-debug.c. */
    bool quiet;
    /* Catchpoints: NxCatch bits, the semaphore watched for NX_CATCH_SEM,
     * and the console line of the last NX_HIT_CATCH. */
    uint32_t catch_mask;
    unsigned catch_sem;
    uint32_t catch_value;
    char catch_msg[640];
    /* Reverse execution (softmmu/gdbstub-reverse.c): set while the machine
     * is re-executed towards a position; the cores' and the DMA engines'
     * checks then go to nx_rev_core_point / nx_rev_dma_point instead of
     * stopping at breakpoints and watchpoints. */
    struct NxRev *rev;
    /* Subscribed to the run events (catchpoints, reverse execution's DMA
     * positions: debug_runev in softmmu/gdbstub-debug.c). */
    bool runev;
} NxDebug;

/* The machine's position: instructions and bundles retired by every core
 * plus DMA requests completed.  The machine is deterministic, so a count
 * names one point of a run (with the core or engine about to act there). */
uint64_t nx_rev_position(const Machine *m);
/* A core about to execute pc / a DMA request about to complete, while
 * re-executing: true to stop the machine there. */
bool nx_rev_core_point(Machine *m, NxCpu *cpu, uint64_t pc);
bool nx_rev_dma_point(Machine *m, unsigned engine, int owner, uint64_t bytes);
/* An access seen by the access hook while re-executing. */
void nx_rev_access(NxDebug *d, uint64_t pa, unsigned size, bool is_write);

/* Out of line (softmmu/gdbstub-debug.c). */
bool nx_debug_bp_check(Machine *m, NxCpu *cpu, uint64_t pc);
/* Can nx_debug_should_stop(m, cpu, pc) be true for no pc in [lo, hi)
 * during the next `steps` instructions of cpu, as long as the debugger's
 * state does not change (it changes only between slices)?  No breakpoint
 * of cpu there, no step or resume of cpu; while re-executing for reverse
 * execution, also no point the re-execution looks for within those steps
 * (nx_rev_quiet).  Code compiled for such a range may run unhooked. */
bool nx_debug_quiet_range(Machine *m, NxCpu *cpu, uint64_t lo, uint64_t hi, uint64_t steps);
/* The reverse-execution part of nx_debug_quiet_range (softmmu/reverse.c). */
bool nx_rev_quiet(Machine *m, NxCpu *cpu, uint64_t lo, uint64_t hi, uint64_t steps);
/* True when the debugger may need to stop cpu between two of its
 * instructions: a breakpoint in its process, a step of it, any
 * watchpoint, or a re-execution for reverse execution.  A core for which it is false runs its ordinary fast loop
 * under gdb too (no per-instruction check is needed), so an attached gdb
 * runs the engine CI runs.  Per slice, not per instruction. */
bool nx_debug_needs_steps(Machine *m, NxCpu *cpu);
/* The same, finer: -1 when cpu needs every instruction checked (a step, a
 * watchpoint, a re-execution, more than max breakpoints), else the number
 * of breakpoints in its process, their pcs in pcs[] (a fast loop checks
 * just those, then stops through nx_debug_should_stop). */
int nx_debug_cpu_breakpoints(Machine *m, NxCpu *cpu, uint64_t *pcs, int max);
bool nx_debug_watch_check(Machine *m, NxCpu *cpu, uint64_t pa, uint64_t len, bool is_write);

/* The first watchpoint of any process (cpu NULL) or of cpu's process
 * covering an access of [pa, pa+len), or NULL; records nothing. */
const NxWatchpoint *nx_debug_wp_find(NxDebug *d, NxCpu *cpu, uint64_t pa, uint64_t len,
                                     bool is_write);
/* Record a hit of w (first hit wins), reported on w's process, and stop the
 * machine.  precise: before the access (the stop reply's pc is where the
 * process stands; the access has not happened). */
void nx_debug_watch_stop(Machine *m, const NxWatchpoint *w, bool precise);
/* The same, naming the access: by a MemRequester, id its index (DMA: the
 * issuing sequencer, -1 for a doorbell request), is_write its direction. */
void nx_debug_watch_stop_by(Machine *m, const NxWatchpoint *w, bool precise, MemRequester by,
                            int id, bool is_write);

/* Record a catch hit, reported on cpu's process (NULL: the one gdb
 * resumed) with the console line fmt, and stop the machine at the next
 * instruction boundary.  A second catch before that stop adds its line to
 * the same stop; a breakpoint or watchpoint hit already recorded wins. */
void nx_debug_catch_stop(Machine *m, NxCpu *cpu, const char *fmt, ...) G_GNUC_PRINTF(3, 4);

/* Is a debugger catching event kind? (one predictable branch without one) */
static inline bool nx_debug_catching(Machine *m, NxCatch kind);

/* Debugger state lifetime and editing (the stub and unit tests). */
NxDebug *nx_debug_new(Machine *m);
void nx_debug_free(NxDebug *d);
bool nx_debug_bp_insert(NxDebug *d, NxCpu *cpu, uint64_t addr);

bool nx_debug_bp_remove(NxDebug *d, NxCpu *cpu, uint64_t addr);
/* pa is the translated address of gaddr. */
bool nx_debug_wp_insert(NxDebug *d, NxCpu *cpu, NxDebugHit type, uint64_t gaddr, uint64_t pa,
                        uint64_t len);
bool nx_debug_wp_remove(NxDebug *d, NxCpu *cpu, NxDebugHit type, uint64_t gaddr, uint64_t len);
/* Start (cpu) or end (NULL) a step that runs the machine, see step_cpu;
 * _first: one that ends before cpu's first instruction (step_first). */
void nx_debug_set_step(NxDebug *d, NxCpu *cpu);
void nx_debug_set_step_first(NxDebug *d, NxCpu *cpu);
/* Drop every breakpoint and watchpoint of cpu (NULL: of every core, and
 * the catchpoints). */
void nx_debug_clear(NxDebug *d, NxCpu *cpu);
void nx_debug_clear_hit(NxDebug *d);
/* Recompute armed and the access hook after d->rev changed. */
void nx_debug_rearm(NxDebug *d);
/* Debugger address translation of core-view address a to a PA, without
 * touching TLBs or their statistics: sequencers see Neuron addresses (the
 * window table is read directly; in window 0 the own NX block is its PA
 * alias, the rest unmapped), TPCs see byte offsets from KERNEL_BASE (below
 * 0x80000000). */
bool nx_debug_translate(Machine *m, NxCpu *cpu, uint64_t a, uint64_t *pa, uint64_t *room);

/* Must a core stop before executing the instruction at pc? */
static inline bool nx_debug_should_stop(Machine *m, NxCpu *cpu, uint64_t pc);
/* Would a data access of [pa, pa+len) by cpu hit a watchpoint?  (optional,
 * for exact "before the access" reports; see above). */
static inline bool nx_debug_watch_hit(Machine *m, NxCpu *cpu, uint64_t pa, uint64_t len,
                                      bool is_write);

/* The Machine layout is needed for the inline fast path. */
#include "nxemu/machine.h"

/* A watchpoint is set or a reverse re-execution records accesses: every
 * memory access must go through the memory API (no host-pointer fast path). */
static inline bool nx_debug_watches_memory(Machine *m)
{
    return m->debug && (m->debug->wps->len || m->debug->rev);
}

static inline bool nx_debug_should_stop(Machine *m, NxCpu *cpu, uint64_t pc)
{
    if (__builtin_expect(m->debug == NULL, 1))
        return false;
    return m->debug->armed && nx_debug_bp_check(m, cpu, pc);
}

static inline bool nx_debug_catching(Machine *m, NxCatch kind)
{
    if (__builtin_expect(m->debug == NULL, 1))
        return false;
    return (m->debug->catch_mask & kind) != 0;
}

static inline bool nx_debug_watch_hit(Machine *m, NxCpu *cpu, uint64_t pa, uint64_t len,
                                      bool is_write)
{
    if (__builtin_expect(m->debug == NULL, 1))
        return false;
    return m->debug->wps->len && nx_debug_watch_check(m, cpu, pa, len, is_write);
}

#endif
