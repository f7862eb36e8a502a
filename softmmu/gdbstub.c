/*
 * gdb stub: run control and the session (the transport is gdbstub-net.c).
 *
 * No threads: while gdb holds the machine stopped we block on the socket;
 * while it runs we call sched_round() and peek at the socket every few
 * rounds for a Ctrl-C (0x03) or a disconnect, without blocking.
 *
 * All-stop: every resume runs the whole machine (all cores, DMA), whatever
 * process gdb names, and any stop stops all of it.  A single step runs one
 * instruction (sequencer) or bundle (TPC) of one core, the others frozen;
 * an instruction that blocks is stepped by running the machine until the
 * core retires it.
 *
 * With -display sdl every loop here that runs rounds refreshes the viewer
 * between them as nxemu's own loop does (viewer_refresh: it only reads the
 * machine, so a debugged run keeps its vtime), every stop reply draws the
 * stopped machine, and the end of the run takes -screendump-at-exit's
 * picture before gdb hears of it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <arpa/inet.h>

#include "nxemu/viewer.h"
#include "nxemu/error.h"
#include "nxemu/sched.h"
#include "softmmu/gdbstub-int.h"

/* ---- run control ---- */

static bool ended(const Machine *m)
{
    return m->stop_reason != STOP_NONE && m->stop_reason != STOP_DEBUG;
}

static void note_stop(GdbStub *s, unsigned pid, int sig)
{
    GString *r = g_string_new(NULL);
    s->last_pid = pid;
    s->last_sig = sig;
    gdb_stop_reply(s, r, pid, sig);
    gdb_send_packet(s, r->str, r->len);
    g_string_free(r, TRUE);
    if (s->viewer)
        viewer_debug_stop(s->viewer, true); /* the window shows this stop */
}

/* Between two rounds of a run: false once the user closed the window. */
static bool view_refresh(GdbStub *s)
{
    if (s->viewer && !viewer_refresh(s->viewer)) {
        s->view_closed = true;
        return false;
    }
    return true;
}

/* The end of the run as without gdb: the final picture, -screendump-at-exit. */
static void view_finish(GdbStub *s)
{
    GError *err = NULL;
    if (s->viewer && !viewer_finish(s->viewer, &err)) {
        fflush(stdout);
        fprintf(stderr, "nxemu: %s\n", err->message); /* never changes the status */
        g_error_free(err);
    }
}

/* Console text to gdb (shown to the user as is). */
static void console(GdbStub *s, const char *text)
{
    GString *o = g_string_new("O");
    gdb_hex_encode(o, (const uint8_t *)text, strlen(text));
    gdb_send_packet(s, o->str, o->len);
    g_string_free(o, TRUE);
}

static unsigned report_pid(GdbStub *s, const NxCpu *cpu)
{
    unsigned pid = gdb_pid_of_cpu(s, cpu);
    if (pid && s->attached[pid - 1])
        return pid;
    /* no core named: one whose stop gdb can take (GdbStub.resumed) */
    if (s->cont_pid && s->attached[s->cont_pid - 1] && s->resumed[s->cont_pid - 1])
        return s->cont_pid;
    if (s->sel_pid && s->attached[s->sel_pid - 1] && s->resumed[s->sel_pid - 1])
        return s->sel_pid;
    for (unsigned i = 0; i < s->nr_proc; i++)
        if (s->attached[i] && s->resumed[i])
            return i + 1;
    for (unsigned i = 0; i < s->nr_proc; i++)
        if (s->attached[i])
            return i + 1;
    return s->g_pid ? s->g_pid : 1;
}

/* Ctrl-C stops the whole machine; gdb switches to the thread the stop
 * reply names and shows where it is.  Name a core that was executing
 * (running or blocked), the continued one first: after nxemu-attach-all a
 * continue from a TPC's inferior would otherwise land on an idle or halted
 * TPC, far from the code the user interrupted. */
static unsigned intr_pid(GdbStub *s)
{
    unsigned pid = report_pid(s, NULL);
    for (unsigned i = 0; i <= s->nr_proc; i++) {
        unsigned p = i ? i : pid; /* pid first, then every process in order */
        if (p < 1 || p > s->nr_proc || !s->attached[p - 1] || !s->resumed[p - 1])
            continue;
        CpuState st = s->proc[p - 1]->state;
        if (st == CPU_RUNNING || st == CPU_BLOCKED)
            return p;
    }
    return pid;
}

/* The run ended (or it had already): tell gdb the process exit.  Every
 * further resume reports the exit of the next attached process, so each
 * gdb inferior sees its end once. */
static void report_end(GdbStub *s)
{
    Machine *m = s->m;
    if (!s->exited) {
        GString *diag = g_string_new(NULL);
        sched_report(m, diag);
        if (diag->len)
            console(s, diag->str);
        g_string_free(diag, TRUE);
        sched_log_end(m); /* the -d machine line, as without gdb */
        view_finish(s);   /* the PNG exists when gdb hears of the end */
        s->exited = true;
    }
    unsigned pid = report_pid(s, m->fault_cpu);
    unsigned proc = gdb_proc_of(s, pid);
    if (m->stop_reason == STOP_FAULT && m->fault_cpu) {
        int sig = gdb_signal_from_host(m->fault_cpu->ops->fault_signal(m->fault_cpu));
        snprintf(s->exit_pkt, sizeof(s->exit_pkt), "X%02x;process:%x", sig, proc);
    } else {
        snprintf(s->exit_pkt, sizeof(s->exit_pkt), "W%02x;process:%x", sched_exit_status(m) & 0xff,
                 proc);
    }
    if (pid >= 1 && pid <= s->nr_proc)
        gdb_set_attached_proc(s, proc, false);
    gdb_send_packet(s, s->exit_pkt, strlen(s->exit_pkt));
}

/* A watch hit names who made the access, in `monitor last-access`
 * (GdbStub.last_access) and, when that is not the watching core itself, in
 * a console line: gdb 13 matches a watchpoint only in the inferior that set
 * it, so a hit by another core, a TPC or DMA is reported on the process
 * that set the watchpoint (docs/gdb.rst, "Who made the access"). */
static void watch_accessor_line(GdbStub *s)
{
    NxDebug *d = s->dbg;
    NxCpu *w = d->hit_cpu;
    if (!d->hit_by_set || !w || d->hit == NX_HIT_BREAK || d->hit == NX_HIT_CATCH)
        return;
    GString *who = g_string_new(NULL);
    Machine *m = s->m;
    bool self = false;
    switch ((MemRequester)d->hit_by) {
    case MEM_REQ_SEQ:
    case MEM_REQ_TPC: {
        bool tpc = d->hit_by == MEM_REQ_TPC;
        self = (w->kind == CPU_KIND_TPC) == tpc && w->index == (unsigned)d->hit_by_id;
        NxCpu *c = tpc ? (d->hit_by_id < (int)m->cfg.nr_tpc ? m->tpc[d->hit_by_id] : NULL)
                       : (d->hit_by_id < (int)m->cfg.nr_seq ? m->seq[d->hit_by_id] : NULL);
        g_string_printf(who, "%s%d", tpc ? "tpc" : "seq", d->hit_by_id);
        /* before the access: the core's pc is on the instruction; after
         * it: the pc the instruction had when it made the access */
        if (c)
            g_string_append_printf(who, " at pc=0x%" PRIx64,
                                   d->hit_precise ? c->ops->get_pc(c) : d->hit_by_pc);
        break;
    }
    case MEM_REQ_DMA:
        if (d->hit_by_engine)
            g_string_printf(who, "dma%d", d->hit_by_id);
        else if (d->hit_by_id >= 0)
            g_string_printf(who, "a DMA transfer of seq%d", d->hit_by_id);
        else
            g_string_assign(who, "a doorbell DMA transfer");
        break;
    default:
        break;
    }
    if (who->len) {
        snprintf(s->last_access, sizeof(s->last_access),
                 "watchpoint 0x%" PRIx64 " of %s%u: %s %s it (%s the access)", d->hit_addr,
                 w->kind == CPU_KIND_TPC ? "tpc" : "seq", w->index, who->str,
                 d->hit_by_write ? "writes" : "reads", d->hit_precise ? "before" : "after");
        if (!self) {
            char *msg = g_strdup_printf("nxemu: %s\n", s->last_access);
            console(s, msg);
            g_free(msg);
        }
    }
    g_string_free(who, TRUE);
}

/* Stop reply for the machine state after a round or a step. */
static void report_stop(GdbStub *s, unsigned fallback_pid)
{
    Machine *m = s->m;
    NxDebug *d = s->dbg;
    if (m->stop_reason == STOP_FAULT && m->fault_cpu && !s->fault_shown) {
        /* the machine stays inspectable: the exit comes with the next resume */
        GString *line = g_string_new(NULL);
        m->fault_cpu->ops->fault_line(m->fault_cpu, line);
        g_string_append_c(line, '\n');
        console(s, line->str);
        g_string_free(line, TRUE);
        s->fault_shown = true;
        note_stop(s, report_pid(s, m->fault_cpu),
                  gdb_signal_from_host(m->fault_cpu->ops->fault_signal(m->fault_cpu)));
        return;
    }
    if (ended(m)) {
        report_end(s);
        return;
    }
    if (d->hit == NX_HIT_CATCH)
        console(s, d->catch_msg);
    watch_accessor_line(s);
    if (d->hit != NX_HIT_NONE) {
        note_stop(s, report_pid(s, d->hit_cpu), GDB_SIGTRAP);
        return;
    }
    note_stop(s, fallback_pid, GDB_SIGTRAP);
}

void gdb_resume_all(GdbStub *s, unsigned cur)
{
    if (cur && gdb_proc_of(s, cur) == 1)
        s->quiet1 = false;
    /* cur 0: every thread resumed, the current inferior unknown (gdb sends
     * nothing that names it): inferior 1's stops are reported, as gdb then
     * resumed it too, and the hang stays possible only when the user
     * resumes every inferior from another one (nxemu-attach-all attaches
     * inferior 1 again to rule it out) */
    for (unsigned i = 0; i < s->nr_proc; i++)
        s->resumed[i] = gdb_proc_of(s, i + 1) != 1 || !s->quiet1 || !cur;
}

static bool resumed(const GdbStub *s, unsigned pid)
{
    return pid >= 1 && pid <= s->nr_proc && s->resumed[pid - 1];
}

/* Attached cores that reached HALTED (sequencer HALT, TPC kernel end)
 * since the resume stop the machine once, with a console line.  Only the
 * processes gdb resumed: another core's halt stays for a later resume (its
 * last_state is kept, see GdbStub.resumed). */
static bool halted_stop(GdbStub *s)
{
    for (unsigned i = 0; i < s->nr_proc; i++) {
        NxCpu *c = s->proc[i];
        CpuState was = s->last_state[i];
        if (!s->resumed[i])
            continue;
        s->last_state[i] = c->state;
        if (s->attached[i] && c->state == CPU_HALTED && was != CPU_HALTED) {
            char *msg = g_strdup_printf("nxemu: %s%u halted at pc=0x%" PRIx64 "\n",
                                        c->kind == CPU_KIND_SEQ ? "seq" : "tpc", c->index,
                                        c->ops->get_pc(c));
            console(s, msg);
            g_free(msg);
            note_stop(s, i + 1, GDB_SIGTRAP);
            return true;
        }
    }
    return false;
}

void gdb_prepare_resume(GdbStub *s)
{
    Machine *m = s->m;
    NxDebug *d = s->dbg;
    /* the core that stopped at a breakpoint executes it first */
    if (d->hit == NX_HIT_BREAK && d->hit_cpu) {
        d->skip_cpu = d->hit_cpu;
        d->skip_pc = d->hit_addr;
    } else {
        d->skip_cpu = NULL;
    }
    nx_debug_clear_hit(d);
    if (!ended(m)) { /* a debugger stop is lifted; the end of the run is not */
        m->stop = false;
        m->stop_reason = STOP_NONE;
    }
    for (unsigned i = 0; i < s->nr_proc; i++)
        s->last_state[i] = s->proc[i]->state;
    if (s->viewer)
        viewer_debug_stop(s->viewer, false);
}

/* Scan unhandled bytes for Ctrl-C (gdb sends nothing else while the
 * machine runs, so a 0x03 there is never inside a packet, and one that came
 * with the resume packet is not lost); false if gdb went away. */
bool gdb_poll_interrupt(GdbStub *s, bool *intr)
{
    struct pollfd p[2] = {{.fd = s->conn, .events = POLLIN},
                          {.fd = s->listener, .events = POLLIN}};
    if (poll(p, 2, 0) > 0) {
        if (p[0].revents && !gdb_receive(s, false))
            return false; /* a gdb that left makes room for the next */
        if (p[1].revents & POLLIN)
            gdb_refuse_second(s);
    }
    for (guint i = 0; i < s->in->len; i++) {
        if (s->in->data[i] == 0x03) {
            g_byte_array_remove_index(s->in, i);
            *intr = true;
            break;
        }
    }
    return true;
}

/* A locked resume (scheduler-locking) whose cores cannot move on their
 * own: nothing retired or completed in the last round and nothing is in
 * flight, only a held core could change that.  Reported as a stop rather
 * than spinning until Ctrl-C. */
static bool locked_stall(GdbStub *s)
{
    Machine *m = s->m;
    const Sched *sc = &m->sched;
    if (!s->locked || sc->round_retired || sc->round_dma_completed || sc->round_tpc_changed ||
        nx_agent_pending(&m->agent))
        return false;
    for (unsigned i = 0; i < s->nr_proc; i++) {
        NxCpu *c = s->proc[i];
        if (!c->debug_frozen && c->state == CPU_RUNNING)
            return false;
    }
    unsigned pid = s->cont_pid;
    for (unsigned i = 0; i < s->nr_proc; i++)
        if (s->run_set[i] && s->attached[i]) {
            pid = i + 1;
            break;
        }
    NxCpu *c = gdb_cpu_of_pid(s, pid);
    char *msg = g_strdup_printf("nxemu: scheduler-locking: %s%u cannot progress while the other "
                                "cores are held\n",
                                c && c->kind == CPU_KIND_TPC ? "tpc" : "seq", c ? c->index : 0);
    console(s, msg);
    g_free(msg);
    note_stop(s, pid, GDB_SIGTRAP);
    return true;
}

/* Hold (or release) every core a locked resume does not name. */
static void hold_cores(GdbStub *s, bool hold)
{
    for (unsigned i = 0; i < s->nr_proc; i++)
        s->proc[i]->debug_frozen = hold && s->locked && !s->run_set[i];
}

/* The run stopped for a core of a process gdb did not resume: hold that
 * stop back (GdbStub.resumed) and let the run go on (true).  The end of
 * the run and a fault are reported as they are. */
static bool hold_back(GdbStub *s)
{
    Machine *m = s->m;
    NxDebug *d = s->dbg;
    if (m->stop_reason != STOP_DEBUG || d->hit == NX_HIT_NONE || !d->hit_cpu ||
        resumed(s, gdb_pid_of_cpu(s, d->hit_cpu)))
        return false;
    if (d->hit_cpu && (d->hit == NX_HIT_BREAK || d->hit_precise)) {
        /* stopped before its instruction: it stays there, and meets the
         * same breakpoint or access at the next resume */
        d->hit_cpu->debug_frozen = true;
    } else if (s->pend_hit == NX_HIT_NONE) {
        /* the access happened (another core's, DMA's) or a catch: told at
         * the next resume that lets every thread run */
        s->pend_hit = d->hit;
        s->pend_cpu = d->hit_cpu;
        s->pend_addr = d->hit_addr;
    }
    nx_debug_clear_hit(d);
    m->stop = false;
    m->stop_reason = STOP_NONE;
    return true;
}

/* A run in which nothing moved in the last round while some core is held
 * by hold_back: only a held core could release the resumed ones (a step
 * over a waiting instruction).  Reported on pid (a step's: its pc
 * unchanged), with a line. */
static bool held_stall(GdbStub *s, unsigned pid)
{
    Machine *m = s->m;
    const Sched *sc = &m->sched;
    bool held = false;
    if (s->locked || sc->round_retired || sc->round_dma_completed || sc->round_tpc_changed ||
        nx_agent_pending(&m->agent))
        return false;
    GString *who = g_string_new(NULL);
    for (unsigned i = 0; i < s->nr_proc; i++) {
        NxCpu *c = s->proc[i];
        if (c->debug_frozen) {
            held = true;
            g_string_append_printf(who, "%s%s%u at 0x%" PRIx64, who->len ? ", " : "",
                                   c->kind == CPU_KIND_SEQ ? "seq" : "tpc", c->index,
                                   c->ops->get_pc(c));
        }
    }
    if (held) {
        NxCpu *c = gdb_cpu_of_pid(s, pid);
        const char *k = c->kind == CPU_KIND_TPC ? "tpc" : "seq";
        char *msg = g_strdup_printf(
            "nxemu: %s%u cannot go on: it waits for %s, stopped at a breakpoint or watchpoint "
            "gdb cannot hear of now (%s)\n",
            k, c->index, who->str,
            s->action == GDB_ACT_STEP ? "disable this core's breakpoint so that gdb continues "
                                        "instead of stepping it"
                                      : "continue from inferior 1 to hear of it");
        console(s, msg);
        g_free(msg);
        note_stop(s, pid, GDB_SIGTRAP);
    }
    g_string_free(who, TRUE);
    return held;
}

/* Run rounds until the machine stops, a core halts or gdb interrupts, and
 * report the stop (on pid when nothing names a core; 0: the resumed one).
 * Stops of cores gdb did not resume are held back (hold_back). */
static void run_rounds(GdbStub *s, unsigned pid)
{
    Machine *m = s->m;
    StopReason r;
    unsigned rounds = 0;
    bool intr = false;

    for (;;) {
        if (!view_refresh(s))
            return; /* the session ends nxemu (view_closed) */
        r = sched_round(m);
        if (r == STOP_DEBUG && hold_back(s))
            r = STOP_NONE;
        if (r != STOP_NONE)
            break;
        if (halted_stop(s) || locked_stall(s) || held_stall(s, pid ? pid : report_pid(s, NULL)))
            return;
        if (gdb_snap_maybe(s))
            return; /* a snapshot given a plan: it answered gdb */
        if (rounds++ % GDB_POLL_EVERY_ROUNDS == 0) {
            if (!gdb_poll_interrupt(s, &intr))
                return; /* disconnected: the caller lets the machine run on */
            if (intr) {
                note_stop(s, pid ? pid : intr_pid(s), GDB_SIGINT);
                return;
            }
        }
    }
    /* a core that halted in the last round is shown before the end */
    if (r == STOP_NORMAL_END && halted_stop(s))
        return;
    report_stop(s, pid ? pid : report_pid(s, NULL));
}

/* A second attached core that halted in the round that stopped the machine
 * for a first one: its stop comes with the next resume, before anything
 * runs (and before the end of a run that ended normally). */
static bool pending_halt(GdbStub *s)
{
    Machine *m = s->m;
    if (s->exited || (ended(m) && m->stop_reason != STOP_NORMAL_END))
        return false;
    return halted_stop(s);
}

/* A stop held back after the access (hold_back): reported before anything
 * runs, by a resume that includes its process. */
static bool pending_hit(GdbStub *s)
{
    NxDebug *d = s->dbg;
    if (s->pend_hit == NX_HIT_NONE || (s->pend_cpu && !resumed(s, gdb_pid_of_cpu(s, s->pend_cpu))))
        return false;
    nx_debug_clear_hit(d);
    d->hit = s->pend_hit;
    d->hit_cpu = s->pend_cpu;
    d->hit_addr = s->pend_addr;
    s->pend_hit = NX_HIT_NONE;
    if (d->hit == NX_HIT_CATCH)
        console(s, d->catch_msg);
    note_stop(s, report_pid(s, d->hit_cpu), GDB_SIGTRAP);
    return true;
}

/* After a vKill the machine does not run: a resume of a process still
 * attached reports it killed (SIGKILL).  True when it did. */
static bool killed_stop(GdbStub *s)
{
    if (!s->killed)
        return false;
    unsigned pid = report_pid(s, NULL);
    char pkt[32];
    snprintf(pkt, sizeof(pkt), "X%02x;process:%x", GDB_SIGKILL, gdb_proc_of(s, pid));
    if (pid >= 1 && pid <= s->nr_proc)
        gdb_set_attached_proc(s, gdb_proc_of(s, pid), false);
    gdb_send_packet(s, pkt, strlen(pkt));
    return true;
}

static void resume(GdbStub *s)
{
    if (killed_stop(s) || pending_halt(s) || pending_hit(s))
        return;
    if (ended(s->m)) {
        report_stop(s, s->g_pid); /* the fault first, then the exit */
        return;
    }
    gdb_prepare_resume(s);
    if (s->locked)
        gdb_reverse_note_change(s, "a scheduler-locked resume");
    hold_cores(s, true);
    run_rounds(s, 0);
    hold_cores(s, false);
}

bool gdb_step_core(GdbStub *s, NxCpu *cpu)
{
    gdb_prepare_resume(s);
    s->dbg->skip_cpu = cpu; /* its breakpoint at pc does not stop the step */
    s->dbg->skip_pc = cpu->ops->get_pc(cpu);
    bool can_run =
        cpu->state == CPU_RUNNING || (cpu->kind == CPU_KIND_SEQ && cpu->state == CPU_BLOCKED);
    if (can_run)
        sched_step(s->m, cpu); /* inside the interrupted slice: no time lost */
    s->dbg->skip_cpu = NULL;
    return can_run;
}

static void step(GdbStub *s, unsigned pid)
{
    Machine *m = s->m;
    NxCpu *cpu = gdb_cpu_of_pid(s, pid);
    if (killed_stop(s) || pending_halt(s) || pending_hit(s))
        return;
    if (ended(m)) {
        report_stop(s, s->g_pid); /* the fault first, then the exit */
        return;
    }
    uint64_t before = cpu->retired;
    if (!sched_step_in_slice(m, cpu))
        s->rev_offsched++; /* an instruction outside the schedule (reverse.c) */
    bool can_run = gdb_step_core(s, cpu);
    if (m->stop_reason == STOP_DEBUG)
        hold_back(s); /* its access hit the watchpoint of a process not resumed */
    if (m->stop_reason == STOP_NONE || m->stop_reason == STOP_DEBUG) {
        if (s->dbg->hit == NX_HIT_NONE) {
            m->stop = false;
            m->stop_reason = STOP_NONE;
        }
        if (s->attached[pid - 1] && cpu->state == CPU_HALTED &&
            s->last_state[pid - 1] != CPU_HALTED) {
            halted_stop(s);
            return;
        }
        if (can_run && cpu->state == CPU_BLOCKED && cpu->retired == before &&
            s->dbg->hit == NX_HIT_NONE) {
            /* The instruction waits (a semaphore, an event, a queue): only
             * the rest of the machine can release it, so run the machine as
             * a continue does (DMA, the other cores, Ctrl-C) until this core
             * has retired the instruction, and stop before its next one. */
            nx_debug_set_step(s->dbg, cpu);
            s->rev_offsched++; /* stops between rounds when it retires */
            run_rounds(s, pid);
            nx_debug_set_step(s->dbg, NULL);
            hold_cores(s, false); /* the cores hold_back held */
            return;
        }
        if (!can_run &&
            (cpu->state == CPU_HALTED || (cpu->kind == CPU_KIND_TPC && cpu->state == CPU_RESET)) &&
            s->dbg->hit == NX_HIT_NONE) {
            /* A core that cannot run yet (a TPC before its kernel's launch,
             * gdb stepping it over a breakpoint at bundle 0) or any more
             * (halted; gdb's `next` and `step` step a TPC's `halt`, which
             * leaves its pc in the line, again and again): run the
             * machine until it is about to execute its first instruction
             * (of the next launch), as a continue would, or until the run
             * ends.  The step ends there, before that instruction, where
             * gdb finds its breakpoint: the stop is the kernel's first,
             * not a stop of a core that never ran. */
            nx_debug_set_step_first(s->dbg, cpu);
            s->rev_offsched++;
            run_rounds(s, pid);
            nx_debug_set_step(s->dbg, NULL);
            hold_cores(s, false);
            return;
        }
    }
    report_stop(s, pid);
}

/* ---- the session ---- */

static void handle_event(GdbStub *s, GdbEvent ev)
{
    switch (ev) {
    case GDB_EV_PACKET: {
        if (!s->noack)
            gdb_send_raw(s, "+", 1);
        if (strchr("MXPG", s->rx.buf->str[0]) && s->rx.buf->str[0])
            s->view_dirty = true; /* a memory or register write: redraw */
        gdb_handle_packet(s, s->rx.buf->str, s->rx.buf->len);
        GdbAction a = s->action;
        if (a == GDB_ACT_CONT || a == GDB_ACT_STEP || a == GDB_ACT_RUN || a == GDB_ACT_REVERSE)
            return; /* the stop reply comes when the machine stops */
        if (s->rx.buf->str[0] == 'k')
            return; /* no reply to k */
        gdb_send_packet(s, s->reply->str, s->reply->len);
        if (!strcmp(s->rx.buf->str, "QStartNoAckMode"))
            s->noack = true;
        return;
    }
    case GDB_EV_BADSUM:
        if (!s->noack)
            gdb_send_raw(s, "-", 1);
        return;
    case GDB_EV_TOOLONG:
        if (!s->noack)
            gdb_send_raw(s, "+", 1);
        gdb_send_packet(s, "E01", 3);
        return;
    case GDB_EV_NAK:
        if (!s->noack && s->last->len)
            gdb_send_raw(s, s->last->str, s->last->len);
        return;
    case GDB_EV_INTR:
        /* the machine is already stopped (gdb's interrupt crossed a stop
         * reply, or came between a step's packets): gdb waits for a stop
         * reply all the same */
        s->action = GDB_ACT_NONE;
        if (s->exited)
            gdb_send_packet(s, s->exit_pkt, strlen(s->exit_pkt));
        else
            note_stop(s, s->last_pid ? s->last_pid : s->c_pid, GDB_SIGINT);
        return;
    case GDB_EV_NONE:
        return;
    }
}

/* Handle packets until one asks for an action or gdb goes away. */
static GdbAction next_action(GdbStub *s)
{
    for (;;) {
        guint used = 0;
        s->action = GDB_ACT_NONE;
        while (used < s->in->len && s->connected) {
            GdbEvent ev = gdb_rx_byte(&s->rx, s->in->data[used++]);
            if (ev == GDB_EV_NONE)
                continue;
            handle_event(s, ev);
            if (ev == GDB_EV_PACKET && s->action != GDB_ACT_NONE)
                break;
        }
        g_byte_array_remove_range(s->in, 0, used);
        if (!s->connected)
            return GDB_ACT_DETACH_ALL;
        if (s->action != GDB_ACT_NONE)
            return s->action;
        if (!gdb_wait_input(s))
            return GDB_ACT_DETACH_ALL;
    }
}

/* No process attached, gdb still connected (extended-remote after the last
 * detach): the machine runs on as without a debugger until gdb sends
 * anything (vAttach, ...) or the run ends; then the stub serves gdb again. */
static void run_detached(GdbStub *s)
{
    Machine *m = s->m;
    unsigned rounds = 0;
    nx_debug_clear(s->dbg, NULL);
    gdb_prepare_resume(s);
    while (!ended(m) && view_refresh(s) && sched_round(m) == STOP_NONE) {
        if (++rounds % GDB_POLL_EVERY_ROUNDS == 0) {
            bool intr = false;
            if (!gdb_poll_interrupt(s, &intr) || intr || s->in->len)
                break;
        }
    }
}

/* Returns true if gdb killed the machine.  restarted: this process is the
 * new run of a vRun (gdbstub-restart.c), whose stop reply it owes gdb. */
static bool session(GdbStub *s, bool restarted, bool reversed)
{
    /* a re-execution (gdbstub-reverse.c) may have seen gdb go away already:
     * then there is no session, the machine runs on */
    s->connected = s->conn >= 0;
    if (!s->connected)
        return false;
    if (!restarted)
        s->noack = false;
    s->exited = false;
    s->fault_shown = false;
    s->killed = false;
    s->locked = false;
    g_byte_array_set_size(s->in, 0);
    gdb_rx_destroy(&s->rx);
    gdb_rx_init(&s->rx);
    if (reversed) {
        /* gdbstub-reverse.c restored the processes and answered bs/bc */
    } else {
        s->extended = restarted; /* only extended-remote sends vRun */
        s->g_pid = s->c_pid = 1;
        s->sel_pid = 0;
        s->quiet1 = !restarted; /* vRun: gdb's run, not a quiet connect */
        gdb_resume_all(s, 0);
        s->last_pid = 0;
        s->last_sig = 0;
        for (unsigned i = 0; i < s->nr_proc; i++) {
            /* threads: every sequencer; processes: the boot core */
            s->attached[i] = gdb_proc_of(s, i + 1) == 1;
            s->last_state[i] = s->proc[i]->state;
        }
    }
    if (restarted && !reversed)
        note_stop(s, 1, GDB_SIGTRAP); /* the reply to vRun: stopped at the start */
    else if (s->viewer && !ended(s->m))
        viewer_debug_stop(s->viewer, true); /* gdb holds the machine from here */

    for (;;) {
        GdbAction a = next_action(s);
        if (a != GDB_ACT_REVERSE)
            s->rev_watch_pending = false;
        if (s->view_closed) {
            /* as without gdb (viewer_run): the run stops, nxemu exits 0 */
            fflush(stdout);
            fprintf(stderr, "nxemu: viewer window closed: run stopped at vtime=%" PRIu64 "\n",
                    s->m->sched.vtime);
            gdb_disconnect(s);
            return true;
        }
        switch (a) {
        case GDB_ACT_RUN:
            if (!gdb_restart_exec(s)) {
                fflush(stdout);
                fprintf(stderr, "nxemu: gdb: cannot start the run again: %s\n",
                        g_strerror(errno));
                gdb_send_packet(s, "E01", 3);
            }
            break;
        case GDB_ACT_CONT:
            resume(s); /* the packet set cont_pid */
            break;
        case GDB_ACT_REVERSE:
            gdb_reverse_start(s, s->rev_step, s->step_pid); /* returns if refused */
            break;
        case GDB_ACT_STEP:
            step(s, s->step_pid);
            break;
        case GDB_ACT_KILL:
            gdb_disconnect(s);
            return true;
        case GDB_ACT_DETACH_ALL:
            if (s->killed) {
                gdb_disconnect(s);
                return true; /* the rest of a killed machine let go */
            }
            if (s->connected && s->extended) {
                run_detached(s); /* gdb may attach again */
                break;
            }
            gdb_disconnect(s);
            return false;
        case GDB_ACT_NONE:
        default:
            gdb_disconnect(s);
            return false;
        }
        if (s->view_closed)
            continue; /* reported at the top */
        if (!s->connected)
            return false;
    }
}

static void stub_free(GdbStub *s)
{
    gdb_snap_drop_all(); /* none outlives the run */
    gdb_disconnect(s);
    if (s->listener >= 0)
        close(s->listener);
    if (s->unix_path) {
        unlink(s->unix_path);
        g_free(s->unix_path);
    }
    if (s->m->debug == s->dbg)
        s->m->debug = NULL;
    nx_debug_free(s->dbg);
    gdb_rx_destroy(&s->rx);
    g_string_free(s->reply, TRUE);
    g_string_free(s->last, TRUE);
    for (unsigned k = 0; k < 2; k++)
        if (s->xml[k])
            g_string_free(s->xml[k], TRUE);
    g_byte_array_free(s->in, TRUE);
    g_free(s->proc);
    g_free(s->attached);
    g_free(s->last_state);
    g_free(s->run_set);
    g_free(s->resumed);
}

/* Without a debugger any more: run to the end the way sched_run does.  A
 * run whose end gdb already heard of (report_end logged its -d machine
 * line) prints its diagnostics on stderr, as without gdb, but does not log
 * the end a second time. */
static int run_to_end(GdbStub *s)
{
    Machine *m = s->m;
    if (s->exited && !s->viewer) {
        GString *out = g_string_new(NULL);
        fflush(stdout);
        sched_report(m, out);
        fputs(out->str, stderr);
        g_string_free(out, TRUE);
        return sched_exit_status(m);
    }
    if (m->stop_reason == STOP_DEBUG || m->stop_reason == STOP_NONE) {
        m->stop = false;
        m->stop_reason = STOP_NONE;
    }
    if (s->viewer) {
        viewer_debug_stop(s->viewer, false);
        return viewer_run(m, s->viewer); /* a closed window: its line, status 0 */
    }
    return sched_run(m);
}

/* Run the machine without a debugger until a gdb connects (true) or the
 * run ends (false). */
static bool run_until_gdb(GdbStub *s)
{
    Machine *m = s->m;
    unsigned rounds = 0;
    if (m->stop_reason == STOP_DEBUG) {
        m->stop = false;
        m->stop_reason = STOP_NONE;
    }
    while (m->stop_reason == STOP_NONE) {
        if (!view_refresh(s) || sched_round(m) != STOP_NONE)
            return false;
        if (++rounds % GDB_POLL_EVERY_ROUNDS == 0 && (s->conn = gdb_accept_conn(s, false)) >= 0)
            return true;
    }
    return false;
}

static int gdb_serve_on(GdbStub *s, const char *dev, bool start_stopped)
{
    Machine *m = s->m;
    GError *err = NULL;
    int rc;

    bool restarted = gdb_restart_adopt(s);
    if (restarted)
        s->unix_path = g_str_has_prefix(dev, "unix:") ? g_strdup(dev + 5) : NULL;
    else
        s->listener = gdb_listen_on(dev, &s->unix_path, &err);
    if (s->listener < 0) {
        fflush(stdout);
        fprintf(stderr, "nxemu: -gdb %s: %s\n", dev, err ? err->message : "cannot listen");
        if (err)
            g_error_free(err);
        g_free(s->unix_path);
        return 125;
    }
    s->nr_proc = m->cfg.nr_seq + m->cfg.nr_tpc;
    s->proc = g_new0(NxCpu *, s->nr_proc ? s->nr_proc : 1);
    s->attached = g_new0(bool, s->nr_proc ? s->nr_proc : 1);
    s->last_state = g_new0(CpuState, s->nr_proc ? s->nr_proc : 1);
    s->run_set = g_new0(bool, s->nr_proc ? s->nr_proc : 1);
    s->resumed = g_new0(bool, s->nr_proc ? s->nr_proc : 1);
    gdb_resume_all(s, 0);
    for (unsigned i = 0; i < m->cfg.nr_seq; i++)
        s->proc[i] = m->seq[i];
    for (unsigned t = 0; t < m->cfg.nr_tpc; t++)
        s->proc[m->cfg.nr_seq + t] = m->tpc[t];
    s->reply = g_string_sized_new(1024);
    s->last = g_string_sized_new(1024);
    s->in = g_byte_array_new();
    gdb_rx_init(&s->rx);
    s->dbg = nx_debug_new(m);
    m->debug = s->dbg;

    /* a re-execution for bs/bc replays here and answers gdb */
    bool reversed = restarted && gdb_reverse_adopt(s);
    if (restarted) {
        /* gdb is waiting for the reply to its vRun (or got its bs/bc reply) */
    } else if (start_stopped) {
        s->conn = gdb_accept_conn(s, true);
        if (s->conn < 0 && s->view_closed) {
            fflush(stdout);
            fprintf(stderr, "nxemu: viewer window closed: run stopped at vtime=%" PRIu64 "\n",
                    m->sched.vtime);
            stub_free(s);
            return 0;
        }
        if (s->conn < 0) {
            fflush(stdout);
            fprintf(stderr, "nxemu: -gdb %s: accept failed\n", dev);
            stub_free(s);
            return 125;
        }
    } else {
        /* QEMU's behaviour: the guest runs while the stub waits */
        if (!run_until_gdb(s)) {
            rc = run_to_end(s); /* prints the diagnostics, returns the status */
            stub_free(s);
            return rc;
        }
    }

    for (;;) {
        m->debug = s->dbg;
        if (session(s, restarted, reversed) || s->killed) {
            stub_free(s);
            return 0;
        }
        restarted = reversed = false;
        gdb_snap_drop_all(); /* no reverse execution without a debugger */
        /* detached or disconnected: no debugger any more, run on, and serve
         * the next gdb that connects (as QEMU does) */
        nx_debug_clear(s->dbg, NULL);
        nx_debug_clear_hit(s->dbg);
        m->debug = NULL;
        if (!run_until_gdb(s))
            break;
    }
    rc = run_to_end(s);
    stub_free(s);
    return rc;
}

/* -gdb DEV[,cores=threads|processes]: how gdb sees the cores (GdbStub);
 * false on an unknown option. */
static bool parse_cores(GdbStub *s, const char *dev, char **name)
{
    const char *comma = strchr(dev, ',');
    s->threads = true;
    *name = g_strndup(dev, comma ? (size_t)(comma - dev) : strlen(dev));
    if (!comma || !strcmp(comma, ",cores=threads"))
        return true;
    if (!strcmp(comma, ",cores=processes")) {
        s->threads = false;
        return true;
    }
    return false;
}

int gdb_serve(Machine *m, const char *dev_opts, bool start_stopped, const GdbReplay *replay,
              Viewer *viewer)
{
    GdbStub st = {0}, *s = &st;
    char *dev = NULL;
    int rc;

    if (!parse_cores(s, dev_opts, &dev)) {
        fflush(stdout);
        fprintf(stderr, "nxemu: -gdb %s: unknown option '%s' (cores=threads or cores=processes)\n",
                dev_opts, strchr(dev_opts, ',') + 1);
        g_free(dev);
        return 125;
    }
    s->m = m;
    s->viewer = viewer;
    if (replay)
        s->replay = *replay;
    s->conn = -1;
    rc = gdb_serve_on(s, dev, start_stopped);
    g_free(dev);
    return rc;
}
