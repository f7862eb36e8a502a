/*
 * Internals of the gdb stub, shared by softmmu/gdbstub*.c:
 *   gdbstub-packet.c  framing (checksums, acks, escapes), hex helpers
 *   gdbstub-tdesc.c   target descriptions and gdb <-> core register numbers
 *   gdbstub-debug.c   breakpoints, watchpoints (include/nxemu/debug.h)
 *   gdbstub-cmds.c    packet handlers
 *   gdbstub-restart.c vRun: nxemu executes itself again, keeping the connection
 *   gdbstub-reverse.c bs/bc: reverse execution by the same re-execution
 *   gdbstub-snap.c    ... from forked snapshots of the run
 *                     (the checks while re-executing: reverse.c, reverse.h)
 *   gdbstub-net.c     transport (POSIX sockets, one client)
 *   gdbstub.c         run control and the session
 */
#ifndef SOFTMMU_GDBSTUB_INT_H
#define SOFTMMU_GDBSTUB_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <glib.h>

#include "nxemu/debug.h"
#include "nxemu/gdbstub.h"

/* Advertised PacketSize (hex in qSupported) and the receive limit. */
#define GDB_PACKET_SIZE 0x20000u
#define GDB_RX_MAX      (GDB_PACKET_SIZE + 64u)

/* gdb's own signal numbers (gdb/signals.def), not the host's. */
enum {
    GDB_SIGINT = 2,
    GDB_SIGILL = 4,
    GDB_SIGTRAP = 5,
    GDB_SIGKILL = 9,
    GDB_SIGBUS = 10,
    GDB_SIGSEGV = 11,
};

/* ---- framing (gdbstub-packet.c) ---- */

typedef enum GdbRxState { GDB_RX_IDLE, GDB_RX_DATA, GDB_RX_CSUM1, GDB_RX_CSUM2 } GdbRxState;

typedef enum GdbEvent {
    GDB_EV_NONE = 0,
    GDB_EV_PACKET,  /* rx->buf holds a complete packet with a good checksum */
    GDB_EV_BADSUM,  /* complete packet, wrong checksum (or bad hex digits) */
    GDB_EV_TOOLONG, /* complete packet longer than GDB_RX_MAX: dropped */
    GDB_EV_INTR,    /* 0x03 outside a packet */
    GDB_EV_NAK,     /* '-': resend the last packet */
} GdbEvent;

typedef struct GdbRx {
    GdbRxState st;
    GString *buf;
    uint8_t sum;
    uint8_t want;
    bool overflow;
    bool bad_digit;
} GdbRx;

void gdb_rx_init(GdbRx *rx);
void gdb_rx_destroy(GdbRx *rx);
GdbEvent gdb_rx_byte(GdbRx *rx, uint8_t c);
/* Append "$<data escaped>#cs" to out. */
void gdb_frame(GString *out, const char *data, size_t len);
/* Undo '}' escapes in place; returns the new length, or SIZE_MAX when the
 * data ends in a lone '}'. */
size_t gdb_unescape(uint8_t *buf, size_t len);
void gdb_hex_encode(GString *out, const uint8_t *p, size_t n);
/* Decode exactly 2*n hex digits; false on a bad digit. */
bool gdb_hex_decode(const char *hex, uint8_t *out, size_t n);
/* Parse hex digits at *p (at least one, no overflow); advances *p. */
bool gdb_parse_hex(const char **p, uint64_t *v);

/* ---- target descriptions (gdbstub-tdesc.c) ---- */

/* How a gdb register maps onto the core's registers. */
typedef enum GdbRegKind {
    GDB_REG_PLAIN = 0, /* the core register, same size */
    GDB_REG_MIRROR,    /* riscv xN: zero-extended copy of a 32-bit register */
    GDB_REG_PAIR,      /* 64 bit: core_reg (low 32) and core_reg + 1 (high 32) */
    GDB_REG_ZERO,      /* reads 0, writes refused: a RISC-V register with no
                          counterpart (the stack pointer of a core without stack) */
    GDB_REG_ABSENT,    /* reads unavailable, writes refused (the FPU gdb demands) */
} GdbRegKind;

/* One register of gdb's numbering. */
typedef struct GdbReg {
    unsigned core_reg; /* number passed to gdb_read_reg/gdb_write_reg */
    unsigned bytes;    /* size gdb expects */
    GdbRegKind kind;
} GdbReg;

/* gdb register n of this core kind; false past the end. */
bool gdb_tdesc_reg(CpuKind kind, unsigned n, GdbReg *r);
unsigned gdb_tdesc_count(CpuKind kind);
/* Registers in the 'g' packet (the vector feature is left out). */
unsigned gdb_tdesc_g_count(CpuKind kind);
unsigned gdb_tdesc_pc_regnum(CpuKind kind);
/* Append the whole target.xml of this kind. */
void gdb_tdesc_xml(CpuKind kind, GString *out);
/* Read/write gdb register n into/from buf (size >= 256); returns bytes
 * (0: no such register, or a write refused).  A register that exists but
 * has no value (GDB_REG_ABSENT) reads as its size with *avail false. */
unsigned gdb_reg_read(NxCpu *cpu, unsigned n, uint8_t *buf, bool *avail);
unsigned gdb_reg_write(NxCpu *cpu, unsigned n, const uint8_t *buf, size_t len);

/* ---- the stub ---- */

typedef enum GdbAction {
    GDB_ACT_NONE = 0,
    GDB_ACT_CONT, /* resume (all cores) */
    GDB_ACT_STEP, /* step one core (step_pid) */
    GDB_ACT_DETACH_ALL,
    GDB_ACT_KILL,
    GDB_ACT_RUN, /* vRun: start the run again (gdbstub-restart.c) */
    GDB_ACT_REVERSE, /* bs (rev_step) / bc: gdbstub-reverse.c */
} GdbAction;

/* Inside the stub every core has a number, its "pid" below: sequencer n
 * is n + 1, TPC t is nr_seq + t + 1 (GdbStub.proc).  What gdb sees:
 *   threads (the default): every core of one architecture is a thread of
 *     one process, as QEMU's vCPUs: sequencer n is thread p1.(n+1), TPC t
 *     thread p2.(t+1), each process with its target description; the
 *     sequencers are attached at connect, the TPCs by gdb's `attach 2`
 *     (gdb 13 reads a target description for an inferior it attaches, not
 *     for one it finds in the thread list: that one would get the
 *     sequencers' registers);
 *   processes (-gdb DEV,cores=processes): every core is a process of one
 *     thread, pN.1 with N the core's number, only the boot core attached
 *     at connect (the model of nxemu before, kept for existing scripts).
 * gdb_ptid_append / the parsers of gdbstub-cmds.c translate. */
typedef struct GdbStub {
    Machine *m;
    NxDebug *dbg;
    GdbReplay replay; /* reverse execution's settings (gdb_serve) */
    Viewer *viewer;   /* -display sdl (gdb_serve); NULL: none */
    bool threads;     /* the threads model (see above) */
    unsigned nr_proc;
    NxCpu **proc;         /* proc[pid - 1] */
    bool *attached;       /* by pid - 1 */
    CpuState *last_state; /* for "core halted" stops */
    unsigned g_pid;       /* process selected by Hg (registers, memory, Z) */
    unsigned c_pid;       /* process selected by Hc (s, qC) */
    /* Process of the last register read: the thread gdb has selected (gdb
     * reads its registers when the user selects it), for Hc0 / Hc-1. */
    unsigned sel_pid;
    bool noack;
    bool extended; /* '!': gdb stays connected with no process attached */
    bool exited; /* the machine's run ended and gdb was told */
    GdbRx rx;
    GString *reply; /* reply of the packet being handled (unframed) */
    GString *last;  /* last framed packet sent, for '-' */
    int conn; /* connected socket, -1 when none */
    bool connected;
    GdbAction action;
    unsigned step_pid;
    unsigned cont_pid; /* process gdb resumed (c: Hc's, vCont: the first c's) */
    /* vCont naming threads (pP.T) only, as gdb's scheduler-locking does:
     * the resume runs the cores in run_set (by pid - 1) and holds every
     * other core (NxCpu.debug_frozen) until the stop. */
    bool locked;
    bool *run_set;
    /* The processes whose stops gdb can take in the current resume (by
     * pid - 1).  The machine always runs as a whole, but stock gdb 13 dies
     * on another thread's stop during a step it sends for one thread alone
     * (vCont;s:pP.T, stepping it over a breakpoint: only that process), and
     * hangs on a stop of inferior 1 until inferior 1 was resumed as gdb's
     * current inferior or attached again (quiet1: gdb keeps the inferior of
     * `target extended-remote` "stopping quietly" until then).  Another
     * core's stop is held back: a core at a breakpoint or before a watched
     * access is held there (it meets it again at the next resume), a hit
     * after the access (another core's or DMA's write) is kept in pend_*, a
     * halt stays in last_state; each is reported by the next resume that
     * includes its process. */
    bool *resumed;
    bool quiet1;
    NxDebugHit pend_hit;
    NxCpu *pend_cpu;
    uint64_t pend_addr;
    /* The accessor of the last watchpoint hit reported in forward
     * execution, for `monitor last-access` (empty: none yet). */
    char last_access[160];
    GString *xml[2];   /* target.xml per CpuKind, built on first use */
    unsigned last_pid; /* last stop reported: for '?' */
    int last_sig;
    char exit_pkt[32]; /* "W00;process:1" once the run ended */
    bool fault_shown;  /* the fault stop was reported; a resume reports the exit */
    bool killed;       /* vKill: the machine does not run again */
    /* -display sdl (viewer): the user closed the window, which ends
     * nxemu as without gdb; gdb changed memory or registers since the
     * window was last drawn. */
    bool view_closed, view_dirty;
    GByteArray *in;    /* received bytes not yet handled */
    int listener; /* listening socket, -1 when none */
    char *unix_path; /* removed at the end */
    bool rev_step; /* GDB_ACT_REVERSE: bs, else bc */
    /* The last stop reply was a watchpoint reached backwards, before the
     * access: gdb's next bs (its step back over the access, RISC-V
     * watchpoints being before the access) has nothing left to undo. */
    bool rev_watch_pending;
    /* The first debugger action that made the run differ from its
     * re-execution (a register or memory write, scheduler-locking), and the
     * position it was made at (gdbstub-reverse.c); NULL: none. */
    const char *rev_changed;
    uint64_t rev_changed_pos;
    /* Steps run outside the scheduling rounds, which move the interleaving
     * of the cores away from the re-execution's (warned about). */
    unsigned rev_offsched;
} GdbStub;

/* gdbstub-cmds.c */
void gdb_handle_packet(GdbStub *s, char *pkt, size_t len);
/* The stop reply for the current machine state (after a run or a step).
 * gdb takes its thread:pP.T as the stub's current thread from then on, so
 * it also selects pid for Hg and Hc, as QEMU's gdb_set_stop_cpu does. */
void gdb_stop_reply(GdbStub *s, GString *out, unsigned pid, int sig);
NxCpu *gdb_cpu_of_pid(GdbStub *s, unsigned pid);
/* gdb's process of core pid (threads: 1 for sequencers, 2 for TPCs), and
 * "pP.T" naming its thread. */
unsigned gdb_proc_of(const GdbStub *s, unsigned pid);
void gdb_ptid_append(const GdbStub *s, GString *out, unsigned pid);
/* Attach or detach every core of gdb's process proc. */
void gdb_set_attached_proc(GdbStub *s, unsigned proc, bool on);
/* Run control of softmmu/gdbstub.c, also driven by tests/fuzz/fuzz-gdb.c:
 * lift a debugger stop before a resume (the core stopped at a breakpoint
 * executes it first), and execute one instruction of cpu (false if it
 * cannot run). */
void gdb_prepare_resume(GdbStub *s);
/* A resume of every thread, gdb's current inferior being process cur
 * (0: unknown, every thread named): which stops gdb can take
 * (GdbStub.resumed, quiet1). */
void gdb_resume_all(GdbStub *s, unsigned cur);
bool gdb_step_core(GdbStub *s, NxCpu *cpu);
unsigned gdb_pid_of_cpu(GdbStub *s, const NxCpu *cpu);
/* Guest memory as gdb sees it for process pid (Neuron addresses for
 * sequencers, kernel-relative for TPCs); false = not memory. */
bool gdb_mem_rw(GdbStub *s, unsigned pid, uint64_t addr, uint8_t *buf, size_t len, bool is_write);
bool gdb_translate(GdbStub *s, NxCpu *cpu, uint64_t addr, uint64_t *pa);
int gdb_signal_from_host(int host_sig);

/* gdbstub-restart.c: execute nxemu again with the same command line,
 * handing over the connection (returns only on failure); and, in the new
 * process, take it over (true when this process is such a restart). */
bool gdb_restart_exec(GdbStub *s);
bool gdb_restart_adopt(GdbStub *s);

/* gdbstub-reverse.c: answer bs (step) / bc for process pid by executing
 * nxemu again (the reply is sent by the new process, or here on refusal);
 * and, in the new process, carry out the plan it was given (true: this
 * process is such a re-execution and gdb got its stop reply). */
void gdb_reverse_start(GdbStub *s, bool step, unsigned pid);
bool gdb_reverse_adopt(GdbStub *s);
/* The same for a plan given as text, by a process at position `from` (a
 * snapshot's, gdbstub-snap.c; 0: a re-execution from the start). */
bool gdb_reverse_adopt_text(GdbStub *s, const char *text, uint64_t from);

/* gdbstub-snap.c: snapshots of the run for reverse execution.  Between two
 * rounds of a continue: take one when due (true: this process is one that
 * was just given a plan, carried it out and answered gdb).  The position of
 * the last snapshot before `before` (0: none).  Hand a plan to that
 * snapshot (never returns then; false: none could take it).  Drop them
 * all (before an exec, a detach).  monitor info replay. */
bool gdb_snap_maybe(GdbStub *s);
uint64_t gdb_snap_base(uint64_t before);
bool gdb_snap_handover(GdbStub *s, const char *plan, uint64_t before);
void gdb_snap_drop_all(void);
void gdb_snap_info(GdbStub *s, GString *out);
/* What the reverse command that brought this process here re-executed:
 * from position `from` (a snapshot's, or 0), `steps` in all. */
void gdb_snap_note(uint64_t from, uint64_t steps);
/* A debugger action that changes the run (see GdbStub.rev_changed). */
void gdb_reverse_note_change(GdbStub *s, const char *what);

/* gdbstub-net.c: the transport. */
/* Send a framed packet now (also O console output); remembered for '-'. */
void gdb_send_packet(GdbStub *s, const char *data, size_t len);
void gdb_send_raw(GdbStub *s, const char *p, size_t n);
void gdb_disconnect(GdbStub *s);
/* Blocking (or not) receive into s->in; false when the peer is gone. */
bool gdb_receive(GdbStub *s, bool blocking);
/* Wait for bytes from gdb (refusing any second gdb meanwhile); false when
 * the peer is gone. */
bool gdb_wait_input(GdbStub *s);
/* A second gdb while one is connected: told why, then closed. */
void gdb_refuse_second(GdbStub *s);
/* While the machine runs (a resume, a reverse re-execution): every
 * GDB_POLL_EVERY_ROUNDS rounds, read what gdb sent without blocking and
 * take a Ctrl-C (0x03) out of it; false if gdb went away. */
#define GDB_POLL_EVERY_ROUNDS 64
bool gdb_poll_interrupt(GdbStub *s, bool *intr);
/* A listening socket for -gdb DEV, or -1 + err. */
int gdb_listen_on(const char *dev, char **unix_path, GError **err);
/* The next client, or -1 (none waiting when not blocking, or an error). */
int gdb_accept_conn(GdbStub *s, bool blocking);

#endif
