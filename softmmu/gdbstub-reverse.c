/*
 * gdb reverse execution (bs, bc) by re-execution.
 *
 * The machine is deterministic: the same images and options give the same
 * run.  A point of a run is named by its position, nx_rev_position(): the
 * instructions and bundles retired by every core plus the DMA requests
 * completed, together with who acts next there (a core about to execute,
 * or a DMA request about to complete).  Nothing keeps old states: to go
 * back, the stub executes nxemu again with the same command line (the vRun
 * path of gdbstub-restart.c, which hands over the gdb connection) and the
 * new process re-executes the run with its output discarded:
 *
 *   1. a *scan* to the current position finds the target: for bs the last
 *      point at which the stepped core began an instruction it retired; for
 *      bc the last point before the current one at which a breakpoint or a
 *      watched access would have stopped (recorded, not stopped at);
 *   2. the scan process executes nxemu once more, which *goes to* the
 *      target (stops at the first point with that position and actor),
 *      puts the breakpoints and watchpoints back and answers gdb's bs/bc
 *      with the stop reply; with no target it stays at the start and
 *      answers replaylog:begin ("No more reverse-execution history").
 *
 * What the plan carries between the processes (NXEMU_GDB_REVERSE): the
 * phase, the target, the attached processes, the breakpoints and
 * watchpoints (by pid) and what the stop reply says.  The re-execution
 * follows the schedule of an undebugged run, which the stub's stops keep
 * (docs/gdb.rst); the debugger actions that change the run (register and
 * memory writes, scheduler-locking) are remembered (GdbStub.rev_changed)
 * and refuse a reverse command past them.
 */
#include <fcntl.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nxemu/sched.h"
#include "softmmu/gdbstub-int.h"
#include "softmmu/reverse.h"

#define REVERSE_ENV "NXEMU_GDB_REVERSE"

/* ---- the plan handed to the next process ---- */

typedef struct RevPlan {
    bool scan;
    uint64_t target;
    /* A scan from an earlier snapshot ends where the scan after it began
     * (0: at target): that part is known to hold nothing, so each part of
     * the run is re-executed once and a long reach costs its length. */
    uint64_t end;
    unsigned who;      /* pid acting at the target, 0: a DMA request */
    unsigned step_pid; /* scan for bs */
    bool hits;         /* scan for bc */
    unsigned rpid;     /* the stop reply names it */
    NxDebugHit hit;
    uint64_t gaddr;
    bool begin;   /* no earlier point: the start, replaylog:begin */
    bool extended;
    GString *att;  /* '0'/'1' per pid */
    GString *msg;  /* console line of the stop */
    GString *bpwp; /* " b=pid:addr" and " w=pid:type:gaddr:pa:len" items */
    uint32_t catch_mask, catch_value; /* monitor catch (kept, never hit backwards) */
    unsigned catch_sem;
    uint64_t spent; /* steps this command's scans re-executed so far */
    unsigned sel;   /* GdbStub.sel_pid: gdb's selected thread, for its next Hc0 */
    int quiet1;     /* GdbStub.quiet1 */
} RevPlan;

static void plan_init(RevPlan *p)
{
    memset(p, 0, sizeof(*p));
    p->att = g_string_new(NULL);
    p->msg = g_string_new(NULL);
    p->bpwp = g_string_new(NULL);
}

static void plan_free(RevPlan *p)
{
    g_string_free(p->att, TRUE);
    g_string_free(p->msg, TRUE);
    g_string_free(p->bpwp, TRUE);
}

static void plan_take_debug(RevPlan *p, GdbStub *s)
{
    NxDebug *d = s->dbg;
    g_string_truncate(p->bpwp, 0);
    for (unsigned i = 0; i < d->bps->len; i++) {
        const NxBreakpoint *b = &g_array_index(d->bps, NxBreakpoint, i);
        g_string_append_printf(p->bpwp, " b=%u:%" PRIx64, gdb_pid_of_cpu(s, b->cpu), b->addr);
    }
    for (unsigned i = 0; i < d->wps->len; i++) {
        const NxWatchpoint *w = &g_array_index(d->wps, NxWatchpoint, i);
        g_string_append_printf(p->bpwp, " w=%u:%d:%" PRIx64 ":%" PRIx64 ":%" PRIx64,
                               gdb_pid_of_cpu(s, w->cpu), (int)w->type, w->gaddr, w->pa, w->len);
    }
    g_string_truncate(p->att, 0);
    for (unsigned i = 0; i < s->nr_proc; i++)
        g_string_append_c(p->att, s->attached[i] ? '1' : '0');
    p->extended = s->extended;
    p->sel = s->sel_pid;
    p->quiet1 = s->quiet1;
    p->catch_mask = d->catch_mask;
    p->catch_sem = d->catch_sem;
    p->catch_value = d->catch_value;
}

static char *plan_format(const RevPlan *p)
{
    GString *o = g_string_new(p->scan ? "scan" : "go");
    g_string_append_printf(o,
                           " pos=%" PRIu64 " who=%u step=%u hits=%d rpid=%u hit=%d gaddr=%" PRIx64
                           " begin=%d ext=%d catch=%" PRIx32 ":%u:%" PRIx32 " spent=%" PRIu64
                           " sel=%u q1=%d end=%" PRIu64 " att=%s msg=",
                           p->target, p->who, p->step_pid, p->hits, p->rpid, (int)p->hit, p->gaddr,
                           p->begin, p->extended, p->catch_mask, p->catch_sem, p->catch_value,
                           p->spent, p->sel, p->quiet1, p->end, p->att->len ? p->att->str : "-");
    gdb_hex_encode(o, (const uint8_t *)p->msg->str, p->msg->len);
    if (!p->msg->len)
        g_string_append_c(o, '-');
    g_string_append(o, p->bpwp->str);
    return g_string_free(o, FALSE);
}

static bool plan_parse(RevPlan *p, const char *text)
{
    gchar **tok = g_strsplit(text, " ", -1);
    bool ok = tok[0] && (!strcmp(tok[0], "scan") || !strcmp(tok[0], "go"));
    if (ok)
        p->scan = !strcmp(tok[0], "scan");
    for (unsigned i = 1; ok && tok[i]; i++) {
        const char *t = tok[i];
        unsigned a = 0, b = 0;
        int k = 0;
        uint64_t x = 0, y = 0, z = 0;
        if (sscanf(t, "pos=%" SCNu64, &p->target) == 1 || sscanf(t, "who=%u", &p->who) == 1 ||
            sscanf(t, "step=%u", &p->step_pid) == 1 || sscanf(t, "rpid=%u", &p->rpid) == 1 ||
            sscanf(t, "gaddr=%" SCNx64, &p->gaddr) == 1 ||
            sscanf(t, "spent=%" SCNu64, &p->spent) == 1 || sscanf(t, "sel=%u", &p->sel) == 1 ||
            sscanf(t, "q1=%d", &p->quiet1) == 1 || sscanf(t, "end=%" SCNu64, &p->end) == 1)
            continue;
        if (sscanf(t, "hits=%d", &k) == 1) {
            p->hits = k != 0;
        } else if (sscanf(t, "hit=%d", &k) == 1) {
            p->hit = (NxDebugHit)k;
        } else if (sscanf(t, "begin=%d", &k) == 1) {
            p->begin = k != 0;
        } else if (sscanf(t, "ext=%d", &k) == 1) {
            p->extended = k != 0;
        } else if (sscanf(t, "catch=%" SCNx32 ":%u:%" SCNx32, &p->catch_mask, &p->catch_sem,
                          &p->catch_value) == 3) {
            continue;
        } else if (g_str_has_prefix(t, "att=")) {
            g_string_assign(p->att, strcmp(t + 4, "-") ? t + 4 : "");
        } else if (g_str_has_prefix(t, "msg=")) {
            size_t n = strlen(t + 4) / 2;
            g_string_set_size(p->msg, n);
            if (strcmp(t + 4, "-") && !gdb_hex_decode(t + 4, (uint8_t *)p->msg->str, n))
                ok = false;
            if (!strcmp(t + 4, "-"))
                g_string_truncate(p->msg, 0);
        } else if (sscanf(t, "b=%u:%" SCNx64, &a, &x) == 2) {
            g_string_append_printf(p->bpwp, " %s", t);
        } else if (sscanf(t, "w=%u:%u:%" SCNx64 ":%" SCNx64 ":%" SCNx64, &a, &b, &x, &y, &z) == 5) {
            g_string_append_printf(p->bpwp, " %s", t);
        } else {
            ok = false;
        }
    }
    g_strfreev(tok);
    return ok;
}

/* Breakpoints and watchpoints of the plan into the stub's debug state. */
static void plan_install(const RevPlan *p, GdbStub *s)
{
    gchar **tok = g_strsplit(p->bpwp->str, " ", -1);
    for (unsigned i = 0; tok[i]; i++) {
        unsigned pid = 0, type = 0;
        uint64_t x = 0, y = 0, z = 0;
        if (sscanf(tok[i], "b=%u:%" SCNx64, &pid, &x) == 2 && gdb_cpu_of_pid(s, pid))
            nx_debug_bp_insert(s->dbg, gdb_cpu_of_pid(s, pid), x);
        else if (sscanf(tok[i], "w=%u:%u:%" SCNx64 ":%" SCNx64 ":%" SCNx64, &pid, &type, &x, &y,
                        &z) == 5 &&
                 gdb_cpu_of_pid(s, pid))
            nx_debug_wp_insert(s->dbg, gdb_cpu_of_pid(s, pid), (NxDebugHit)type, x, y, z);
    }
    g_strfreev(tok);
}

/* Hand the plan to the last snapshot before position `before`
 * (gdbstub-snap.c), else execute nxemu again with it, which re-executes
 * from the start.  Returns only on failure. */
static bool plan_handover(GdbStub *s, const RevPlan *p, uint64_t before)
{
    char *text = plan_format(p);
    gdb_snap_handover(s, text, before); /* returns if there is none */
    gdb_snap_drop_all();
    bool ok = setenv(REVERSE_ENV, text, 1) == 0;
    g_free(text);
    if (ok)
        gdb_restart_exec(s);
    unsetenv(REVERSE_ENV);
    return false;
}

/* ---- gdb's bs / bc (the old process) ---- */

void gdb_reverse_note_change(GdbStub *s, const char *what)
{
    if (!s->rev_changed) {
        s->rev_changed = what;
        s->rev_changed_pos = nx_rev_position(s->m);
    }
}

static void refuse(GdbStub *s, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static void refuse(GdbStub *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *why = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    /* gdb shows an E.text reply as "Remote failure reply: text" */
    char *pkt = g_strdup_printf("E.nxemu: reverse: %s", why);
    gdb_send_packet(s, pkt, strlen(pkt));
    g_free(pkt);
    g_free(why);
}

static void send_stop(GdbStub *s, unsigned pid, bool begin)
{
    GString *r = g_string_new(NULL);
    gdb_stop_reply(s, r, pid, GDB_SIGTRAP);
    if (begin)
        g_string_append(r, "replaylog:begin;");
    s->last_pid = pid;
    s->last_sig = GDB_SIGTRAP;
    gdb_send_packet(s, r->str, r->len);
    g_string_free(r, TRUE);
}

void gdb_reverse_start(GdbStub *s, bool step, unsigned pid)
{
    Machine *m = s->m;
    uint64_t pos = nx_rev_position(m);
    if (!gdb_cpu_of_pid(s, pid))
        pid = s->g_pid;
    if (step && s->rev_watch_pending) {
        /* gdb steps back over the access its watchpoint reported: the stop
         * is already before it (a watchpoint reached backwards) */
        s->rev_watch_pending = false;
        nx_debug_clear_hit(s->dbg);
        send_stop(s, pid, false);
        return;
    }
    s->rev_watch_pending = false;
    if (s->killed || s->exited) {
        refuse(s, "the run is over (use run to start it again)");
        return;
    }
    if (s->rev_changed && s->rev_changed_pos < pos) {
        refuse(s, "%s at position %" PRIu64 " changed the run; re-execution cannot reproduce it",
               s->rev_changed, s->rev_changed_pos);
        return;
    }
    uint64_t base = gdb_snap_base(pos);
    if (pos - base > s->replay.budget) {
        refuse(s, "%" PRIu64 " steps to re-execute exceed -replay-budget %" PRIu64, pos - base,
               s->replay.budget);
        return;
    }
    if (pos == 0) {
        send_stop(s, pid, true); /* nothing happened yet: the start */
        return;
    }
    if (s->rev_offsched) {
        char *msg = g_strdup_printf("nxemu: reverse: %u debugger step%s ran outside the "
                                    "schedule; the re-execution follows the undebugged schedule "
                                    "(docs/gdb.rst, Reverse execution)\n",
                                    s->rev_offsched, s->rev_offsched == 1 ? "" : "s");
        GString *o = g_string_new("O");
        gdb_hex_encode(o, (const uint8_t *)msg, strlen(msg));
        gdb_send_packet(s, o->str, o->len);
        g_string_free(o, TRUE);
        g_free(msg);
    }
    RevPlan p;
    plan_init(&p);
    p.scan = true;
    p.target = pos;
    p.step_pid = step ? pid : 0;
    p.hits = !step;
    p.rpid = pid;
    plan_take_debug(&p, s);
    plan_handover(s, &p, pos);
    fflush(stdout);
    fprintf(stderr, "nxemu: gdb: cannot execute nxemu again for reverse execution\n");
    refuse(s, "cannot execute nxemu again");
    plan_free(&p);
}

/* ---- the new process ---- */

/* Run the rebuilt machine to where r stops it, its output discarded: the
 * run printed it the first time.  False when the run ended first or gdb
 * interrupted it (*intr: a Ctrl-C, or gdb went away). */
static bool replay(GdbStub *s, NxRev *r, bool *intr)
{
    Machine *m = s->m;
    fflush(stdout);
    fflush(stderr);
    int out = dup(1), err = dup(2), nul = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (nul >= 0) {
        dup2(nul, 1);
        dup2(nul, 2);
        close(nul);
    }
    s->dbg->rev = r;
    nx_debug_rearm(s->dbg);
    unsigned rounds = 0;
    *intr = false;
    while (!m->stop && sched_round(m) == STOP_NONE) {
        /* between two rounds, as a forward Ctrl-C stops */
        if (++rounds % GDB_POLL_EVERY_ROUNDS == 0 && (!gdb_poll_interrupt(s, intr) || *intr)) {
            *intr = true;
            break;
        }
    }
    s->dbg->rev = NULL;
    nx_debug_rearm(s->dbg);
    fflush(stdout);
    fflush(stderr);
    if (out >= 0) {
        dup2(out, 1);
        close(out);
    }
    if (err >= 0) {
        dup2(err, 2);
        close(err);
    }
    return m->stop_reason == STOP_DEBUG;
}

static void lift_stop(Machine *m)
{
    if (m->stop_reason == STOP_DEBUG) {
        m->stop = false;
        m->stop_reason = STOP_NONE;
    }
}

/* gdb's breakpoints, watchpoints and catchpoints back (catchpoints only
 * once the re-execution is over: they would stop it), no hit pending, and
 * the cores' states as the last stop saw them. */
static void points_back(GdbStub *s, const RevPlan *p)
{
    plan_install(p, s);
    s->dbg->catch_mask = p->catch_mask;
    s->dbg->catch_sem = p->catch_sem;
    s->dbg->catch_value = p->catch_value;
    nx_debug_clear_hit(s->dbg);
    for (unsigned i = 0; i < s->nr_proc; i++)
        s->last_state[i] = s->proc[i]->state;
}

/* A scan that cannot go on: this process, at the position the command
 * started from, carries on the session with gdb's points back. */
static void stay(GdbStub *s, const RevPlan *p)
{
    lift_stop(s->m);
    nx_debug_clear(s->dbg, NULL);
    points_back(s, p);
}

/* gdb interrupted the re-execution: the machine stays where it got to,
 * which is earlier than the command's target (re-execution runs forward
 * from the start), with gdb's breakpoints and watchpoints back. */
static void interrupted(GdbStub *s, RevPlan *p, uint64_t target)
{
    if (p->scan)
        nx_debug_clear(s->dbg, NULL); /* the scan's recording points */
    points_back(s, p);
    char *msg = g_strdup_printf("nxemu: reverse: interrupted at position %" PRIu64 " of %" PRIu64
                                ", earlier than the target; breakpoints and watchpoints in "
                                "between were not reported\n",
                                nx_rev_position(s->m), target);
    GString *r = g_string_new("O");
    gdb_hex_encode(r, (const uint8_t *)msg, strlen(msg));
    gdb_send_packet(s, r->str, r->len);
    g_free(msg);
    g_string_truncate(r, 0);
    unsigned pid = p->rpid ? p->rpid : 1;
    gdb_stop_reply(s, r, pid, GDB_SIGINT);
    s->last_pid = pid;
    s->last_sig = GDB_SIGINT;
    gdb_send_packet(s, r->str, r->len);
    g_string_free(r, TRUE);
}

bool gdb_reverse_adopt(GdbStub *s)
{
    const char *env = getenv(REVERSE_ENV);
    if (!env)
        return false;
    s->connected = true; /* the connection handed over (gdb_restart_adopt) */
    char *text = g_strdup(env);
    unsetenv(REVERSE_ENV);
    bool ok = gdb_reverse_adopt_text(s, text, 0);
    g_free(text);
    return ok;
}

bool gdb_reverse_adopt_text(GdbStub *s, const char *text, uint64_t from)
{
    RevPlan p;
    plan_init(&p);
    if (!plan_parse(&p, text)) {
        plan_free(&p);
        return false;
    }
    for (unsigned i = 0; i < s->nr_proc; i++)
        s->attached[i] = i < p.att->len ? p.att->str[i] == '1' : gdb_proc_of(s, i + 1) == 1;
    s->extended = p.extended;
    s->sel_pid = p.sel;
    s->quiet1 = p.quiet1 != 0;
    gdb_resume_all(s, 0);
    uint64_t stop_at = p.scan && p.end ? p.end : p.target;
    NxRev r = {.scan = p.scan, .target = stop_at};
    bool reached = true;
    if (p.scan) {
        /* the breakpoints and watchpoints are recorded, never stopped at */
        plan_install(&p, s);
        r.step_cpu = gdb_cpu_of_pid(s, p.step_pid);
        r.want_hits = p.hits;
        bool intr;
        reached = replay(s, &r, &intr) && r.reached;
        if (intr) {
            interrupted(s, &p, p.target);
            plan_free(&p);
            return true;
        }
        if (r.step_cpu && r.have_cp && r.step_cpu->retired != r.cp_retired) {
            r.found_step = true;
            r.step_pos = r.cp_pos;
        }
        bool none = r.step_cpu ? !r.found_step : !r.found;
        if (reached && none && from > 0) {
            /* nothing since the snapshot this process started from: the
             * answer is earlier, scan again from the snapshot before it (or
             * from the start), within the budget */
            p.spent += stop_at - from;
            uint64_t more = from - gdb_snap_base(from);
            if (p.spent + more > s->replay.budget) {
                if (stop_at != p.target) {
                    /* refused: nothing moves, so run on to where gdb
                     * stopped (this scan ended where the later one began) */
                    NxRev on = {.scan = true, .target = p.target};
                    bool on_intr;
                    lift_stop(s->m);
                    replay(s, &on, &on_intr);
                }
                stay(s, &p);
                refuse(s, "%" PRIu64 " steps to re-execute exceed -replay-budget %" PRIu64,
                       p.spent + more, s->replay.budget);
                plan_free(&p);
                return true;
            }
            p.end = from; /* [from, stop_at) held nothing */
            plan_handover(s, &p, from); /* only returns on failure */
        } else if (reached) {
            RevPlan g;
            plan_init(&g);
            plan_take_debug(&g, s);
            g.catch_mask = p.catch_mask; /* not installed while scanning */
            g.catch_sem = p.catch_sem;
            g.catch_value = p.catch_value;
            g.rpid = p.rpid;
            if (r.step_cpu && r.found_step) {
                g.target = r.step_pos;
                g.who = p.step_pid;
            } else if (!r.step_cpu && r.found) {
                g.target = r.hit_pos;
                g.who = r.hit_who ? gdb_pid_of_cpu(s, r.hit_who) : 0;
                g.hit = r.hit;
                g.gaddr = r.hit_gaddr;
                g.rpid = gdb_pid_of_cpu(s, r.hit_owner);
                g_string_assign(g.msg, r.msg);
            } else {
                g.begin = true;
            }
            g.spent = p.spent + (stop_at - from); /* this scan too */
            plan_handover(s, &g, g.begin ? 0 : g.target); /* only returns on failure */
            plan_free(&g);
        }
        fflush(stdout);
        fprintf(stderr, "nxemu: gdb: reverse execution: %s\n",
                reached ? "cannot execute nxemu again" : "the re-execution did not reach the position");
        stay(s, &p);
        send_stop(s, p.rpid, false);
        plan_free(&p);
        return true;
    }
    /* phase 2: to the target, or nowhere for the start */
    if (!p.begin) {
        r.who = p.who ? gdb_cpu_of_pid(s, p.who) : NULL;
        bool intr;
        reached = replay(s, &r, &intr) && r.reached;
        if (intr) {
            interrupted(s, &p, p.target);
            plan_free(&p);
            return true;
        }
    }
    points_back(s, &p);
    if (!reached) {
        lift_stop(s->m);
        g_string_assign(p.msg, "nxemu: reverse: the re-execution did not reach the position\n");
    } else if (p.hit != NX_HIT_NONE) {
        NxDebug *d = s->dbg;
        d->hit = p.hit;
        d->hit_cpu = gdb_cpu_of_pid(s, p.rpid);
        d->hit_addr = p.gaddr;
        d->hit_precise = true;
        s->rev_watch_pending = p.hit != NX_HIT_BREAK;
    }
    if (p.msg->len) {
        GString *o = g_string_new("O");
        gdb_hex_encode(o, (const uint8_t *)p.msg->str, p.msg->len);
        gdb_send_packet(s, o->str, o->len);
        g_string_free(o, TRUE);
    }
    gdb_snap_note(from, p.spent + (nx_rev_position(s->m) - from));
    send_stop(s, p.rpid ? p.rpid : 1, p.begin);
    plan_free(&p);
    return true;
}
