/*
 * Snapshots of a debugged run, for gdb reverse execution
 * (gdbstub-reverse.c): a reverse command re-executes from the last
 * snapshot before its target instead of from the start.
 *
 * A snapshot is a forked copy of the whole process, taken between two
 * scheduling rounds of a continue (run_rounds) once the run has gone
 * -replay-every steps (nx_rev_position) past the last one.  Copy-on-write
 * makes it cheap to take; the copy idles in a poll loop on a listening
 * socket (an autobound abstract AF_UNIX name) until it is given a plan or
 * the session ends.  fork() copies everything the re-execution needs that
 * an in-process checkpoint would have to serialise by hand: the cores, the
 * devices, the memories, the scheduler, even the stdio state.
 *
 * Going back to snapshot k: the active process (the one talking to gdb)
 * connects to k, sends the plan with the gdb connection (SCM_RIGHTS) and
 * waits for an acknowledgement.  k forks W, W forks W' and exits, so that
 * W' is an orphan that the kernel hands to the first nxemu process, the
 * *root* (PR_SET_CHILD_SUBREAPER).  W' tells the root its pid, cuts the
 * output files back to where they were at the snapshot
 * (nx_output_rewind_all), acknowledges and carries out the plan exactly as
 * a re-executed nxemu does (gdb_reverse_adopt_text).  The process that
 * asked ends: with _exit() if it is not the root; the root instead becomes
 * the *anchor*: whoever started nxemu (a shell, a CI harness) waits for the
 * root's pid, so the root stays, forwards the signals sent to it and ends
 * with the exit status of the process that is active when the run ends.
 *
 * Lifetime: every snapshot polls the read end of a pipe whose only write
 * end the root holds; when the root ends, for whatever reason, the
 * snapshots see end-of-file and exit.  An active W' asks for SIGKILL on the
 * root's death (PR_SET_PDEATHSIG) for the same reason.
 *
 * Memory: each snapshot is counted at its resident size when taken (an
 * upper bound: copy-on-write shares most of it).  When the snapshots would
 * exceed -replay-memory, or number GDB_SNAP_MAX, every other one is dropped
 * and the spacing doubles, so a long run keeps snapshots spread over its
 * whole length, denser towards the start than a fixed ring would be.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "nxemu/file-io.h"
#include "softmmu/gdbstub-int.h"

#define GDB_SNAP_MAX     32
#define SNAP_MSG_MAX     (256u << 10) /* a plan with its breakpoints */
#define SNAP_ACK_TIMEOUT 10000        /* ms a snapshot may take to answer */

typedef struct SnapEntry {
    pid_t pid;
    uint64_t pos;  /* nx_rev_position() when taken */
    uint64_t cost; /* bytes counted against -replay-memory */
    char name[8];  /* abstract socket name (autobind: 5 hex digits) */
    unsigned name_len;
} SnapEntry;

static struct {
    bool init;     /* every/next set from the options */
    bool disabled; /* setting up failed once: no more snapshots */
    bool ready;    /* subreaper, life and status pipes set up */
    pid_t root;
    int life_r, life_w;     /* life_w only in the root */
    int status_r, status_w; /* status_r only in the root */
    GArray *list;           /* SnapEntry, by position */
    uint64_t every, next;
} snap = {.life_r = -1, .life_w = -1, .status_r = -1, .status_w = -1};

static uint64_t used_bytes(void)
{
    uint64_t n = 0;
    for (guint i = 0; snap.list && i < snap.list->len; i++)
        n += g_array_index(snap.list, SnapEntry, i).cost;
    return n;
}

static uint64_t resident_bytes(void)
{
    unsigned long size = 0, rss = 0;
    FILE *f = fopen("/proc/self/statm", "re");
    if (f) {
        if (fscanf(f, "%lu %lu", &size, &rss) != 2)
            rss = 0;
        fclose(f);
    }
    return (uint64_t)rss * (uint64_t)sysconf(_SC_PAGESIZE);
}

/* Killed snapshots, and snapshots adopted after their parent ended. */
static void reap(void)
{
    while (waitpid(-1, NULL, WNOHANG) > 0) {
    }
}

static void drop(guint i)
{
    SnapEntry *e = &g_array_index(snap.list, SnapEntry, i);
    kill(e->pid, SIGKILL);
    g_array_remove_index(snap.list, i);
}

void gdb_snap_drop_all(void)
{
    while (snap.list && snap.list->len) {
        pid_t pid = g_array_index(snap.list, SnapEntry, snap.list->len - 1).pid;
        drop(snap.list->len - 1);
        /* gone before this returns, so that no snapshot outlives the run
         * (one this process did not fork is the root's to wait for) */
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {
        }
    }
    reap();
}

static bool set_up(void)
{
    if (snap.ready)
        return true;
    int life[2], status[2];
    if (pipe2(life, O_CLOEXEC) != 0)
        return false;
    if (pipe2(status, O_CLOEXEC) != 0) {
        close(life[0]);
        close(life[1]);
        return false;
    }
    /* orphans (W', see above) come to this process, which can then wait
     * for them as the anchor */
    if (prctl(PR_SET_CHILD_SUBREAPER, 1) != 0) {
        close(life[0]);
        close(life[1]);
        close(status[0]);
        close(status[1]);
        return false;
    }
    fcntl(status[0], F_SETFL, O_NONBLOCK);
    snap.root = getpid();
    snap.life_r = life[0];
    snap.life_w = life[1];
    snap.status_r = status[0];
    snap.status_w = status[1];
    snap.ready = true;
    return true;
}

/* ---- the snapshot process ---- */

static struct sigaction saved_int, saved_hup;

/* Received with a plan: what the new active process needs. */
typedef struct SnapOrder {
    char *text; /* header line, '\n', the plan */
    int conn;   /* the gdb connection */
    int reply;  /* the accepted socket, for the acknowledgement */
} SnapOrder;

static bool receive_order(int lfd, SnapOrder *o)
{
    int c = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
    if (c < 0)
        return false;
    struct ucred cred;
    socklen_t cl = sizeof(cred);
    /* the name is reachable by any local user: only our own may order */
    if (getsockopt(c, SOL_SOCKET, SO_PEERCRED, &cred, &cl) != 0 || cred.uid != getuid()) {
        close(c);
        return false;
    }
    struct pollfd p = {.fd = c, .events = POLLIN};
    if (poll(&p, 1, SNAP_ACK_TIMEOUT) != 1) {
        close(c);
        return false;
    }
    char *buf = g_malloc(SNAP_MSG_MAX + 1);
    union {
        struct cmsghdr h;
        char space[CMSG_SPACE(sizeof(int))];
    } ctl;
    struct iovec iov = {.iov_base = buf, .iov_len = SNAP_MSG_MAX};
    struct msghdr mh = {
        .msg_iov = &iov, .msg_iovlen = 1, .msg_control = &ctl, .msg_controllen = sizeof(ctl)};
    ssize_t n = recvmsg(c, &mh, MSG_CMSG_CLOEXEC);
    struct cmsghdr *h = n > 0 ? CMSG_FIRSTHDR(&mh) : NULL;
    if (!h || h->cmsg_level != SOL_SOCKET || h->cmsg_type != SCM_RIGHTS ||
        (mh.msg_flags & (MSG_TRUNC | MSG_CTRUNC))) {
        if (h && h->cmsg_type == SCM_RIGHTS) {
            int fd;
            memcpy(&fd, CMSG_DATA(h), sizeof(fd));
            close(fd);
        }
        g_free(buf);
        close(c);
        return false;
    }
    buf[n] = 0;
    memcpy(&o->conn, CMSG_DATA(h), sizeof(int));
    o->text = buf;
    o->reply = c;
    return true;
}

static void free_order(SnapOrder *o)
{
    g_free(o->text);
    close(o->conn);
    close(o->reply);
}

/* Idle until an order (returns it in the new active process W') or the
 * end of the session (exits). */
static void idle(int lfd, SnapOrder *o)
{
    for (;;) {
        struct pollfd p[2] = {{.fd = snap.life_r, .events = POLLIN}, {.fd = lfd, .events = POLLIN}};
        if (poll(p, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            _exit(0);
        }
        if (p[0].revents)
            _exit(0); /* the root ended */
        if (!(p[1].revents & POLLIN) || !receive_order(lfd, o))
            continue;
        pid_t w = fork();
        if (w == 0) {
            if (fork() == 0)
                return; /* W': an orphan, adopted by the root */
            _exit(0);
        }
        if (w > 0)
            while (waitpid(w, NULL, 0) < 0 && errno == EINTR) {
            }
        /* a failed fork: no acknowledgement, the asker falls back */
        free_order(o);
    }
}

/* In W': from the snapshot's copy of the stub to the active process. */
static bool take_over(GdbStub *s, SnapOrder *o, int lfd)
{
    /* adopted by the root once W is gone */
    for (int i = 0; i < 5000 && getppid() != snap.root; i++) {
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    if (getppid() != snap.root)
        _exit(125);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != snap.root)
        _exit(125); /* the root ended in between */
    close(lfd);
    sigaction(SIGINT, &saved_int, NULL);
    sigaction(SIGHUP, &saved_hup, NULL);
    pid_t me = getpid();
    if (write(snap.status_w, &me, sizeof(me)) != (ssize_t)sizeof(me))
        _exit(125);

    /* header: noack, our index, the spacing, the snapshots */
    char *nl = strchr(o->text, '\n');
    if (!nl)
        _exit(125);
    *nl = 0;
    gchar **tok = g_strsplit(o->text, " ", -1);
    unsigned noack = 0, self = 0;
    uint64_t every = 0;
    GArray *list = g_array_new(FALSE, TRUE, sizeof(SnapEntry));
    bool ok = tok[0] && sscanf(tok[0], "noack=%u", &noack) == 1 && tok[1] &&
              sscanf(tok[1], "self=%u", &self) == 1 && tok[2] &&
              sscanf(tok[2], "every=%" SCNu64, &every) == 1;
    for (unsigned i = 3; ok && tok[i]; i++) {
        SnapEntry e = {0};
        int pid = 0;
        char hex[20] = "";
        ok = sscanf(tok[i], "%d:%" SCNu64 ":%" SCNu64 ":%19s", &pid, &e.pos, &e.cost, hex) == 4 &&
             strlen(hex) % 2 == 0 && strlen(hex) / 2 <= sizeof(e.name) &&
             gdb_hex_decode(hex, (uint8_t *)e.name, strlen(hex) / 2);
        e.pid = pid;
        e.name_len = (unsigned)strlen(hex) / 2;
        g_array_append_val(list, e);
    }
    g_strfreev(tok);
    /* self: the index of the snapshot this process was forked from */
    if (!ok || self >= list->len) {
        g_array_free(list, TRUE);
        _exit(125);
    }
    if (snap.list)
        g_array_free(snap.list, TRUE);
    snap.list = list;
    snap.every = every;
    snap.next = g_array_index(list, SnapEntry, self).pos + every;

    if (send(o->reply, "ok", 2, MSG_NOSIGNAL) != 2)
        _exit(125); /* the asker went away: it keeps the session */
    close(o->reply);

    nx_output_rewind_all();
    g_byte_array_set_size(s->in, 0);
    gdb_rx_destroy(&s->rx);
    gdb_rx_init(&s->rx);
    g_string_truncate(s->last, 0);
    s->conn = o->conn;
    s->noack = noack != 0;
    s->connected = true;
    s->killed = s->exited = false;
    s->locked = false;
    s->action = GDB_ACT_NONE;
    nx_debug_clear(s->dbg, NULL);
    nx_debug_clear_hit(s->dbg);
    s->dbg->catch_mask = 0;
    bool go = g_str_has_prefix(nl + 1, "go");
    if (go) {
        /* the snapshots after ours are the future of the run we left */
        while (snap.list->len > self + 1)
            drop(snap.list->len - 1);
    }
    gdb_reverse_adopt_text(s, nl + 1, g_array_index(list, SnapEntry, self).pos);
    g_free(o->text);
    return true;
}

static bool take(GdbStub *s, uint64_t pos)
{
    int lfd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
    if (lfd < 0)
        return false;
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    socklen_t al = sizeof(a);
    SnapEntry e = {0};
    /* autobind: the kernel picks a free abstract name */
    if (bind(lfd, (struct sockaddr *)&a, sizeof(sa_family_t)) != 0 || listen(lfd, 4) != 0 ||
        getsockname(lfd, (struct sockaddr *)&a, &al) != 0 || al <= sizeof(sa_family_t) + 1 ||
        al - sizeof(sa_family_t) > sizeof(e.name)) {
        close(lfd);
        return false;
    }
    e.name_len = al - sizeof(sa_family_t);
    memcpy(e.name, a.sun_path, e.name_len);
    e.pos = pos;
    e.cost = resident_bytes();
    fflush(stdout);
    fflush(stderr);
    nx_output_mark_all();
    pid_t pid = fork();
    if (pid < 0) {
        close(lfd);
        return false;
    }
    if (pid > 0) {
        close(lfd);
        e.pid = pid;
        g_array_append_val(snap.list, e);
        return false;
    }
    /* the snapshot */
    if (s->conn >= 0)
        close(s->conn); /* gdb sees the end of the session when the active
                           process closes it */
    if (snap.life_w >= 0) {
        close(snap.life_w);
        snap.life_w = -1;
    }
    if (snap.status_r >= 0) {
        close(snap.status_r);
        snap.status_r = -1;
    }
    struct sigaction ign = {.sa_handler = SIG_IGN};
    sigemptyset(&ign.sa_mask);
    /* a Ctrl-C at the terminal goes to the whole process group */
    sigaction(SIGINT, &ign, &saved_int);
    sigaction(SIGHUP, &ign, &saved_hup);
    SnapOrder o;
    idle(lfd, &o);
    return take_over(s, &o, lfd);
}

bool gdb_snap_maybe(GdbStub *s)
{
    Machine *m = s->m;
    if (!s->replay.memory || !s->replay.budget || snap.disabled || s->viewer || s->rev_changed ||
        s->rev_offsched || s->locked)
        return false;
    if (!snap.init) {
        snap.init = true;
        snap.every = s->replay.every ? s->replay.every : 1;
        snap.next = snap.every;
    }
    uint64_t pos = nx_rev_position(m);
    if (pos < snap.next)
        return false;
    if (!snap.list)
        snap.list = g_array_new(FALSE, TRUE, sizeof(SnapEntry));
    if (!set_up()) {
        snap.disabled = true;
        return false;
    }
    reap();
    uint64_t est = resident_bytes();
    while (snap.list->len &&
           (snap.list->len >= GDB_SNAP_MAX || used_bytes() + est > s->replay.memory)) {
        /* thin out: every other one, the first kept (drop() shifts the
         * rest down, so i walks over the old odd indices) */
        for (guint i = 1; i < snap.list->len; i++)
            drop(i);
        snap.every *= 2;
        if (snap.list->len == 1 && used_bytes() + est > s->replay.memory)
            drop(0);
    }
    if (est > s->replay.memory) {
        snap.next = pos + snap.every;
        return false; /* one would not fit */
    }
    if (snap.list->len) {
        uint64_t last = g_array_index(snap.list, SnapEntry, snap.list->len - 1).pos;
        if (pos < last + snap.every) {
            snap.next = last + snap.every;
            return false;
        }
    }
    snap.next = pos + snap.every;
    return take(s, pos);
}

/* ---- going back ---- */

uint64_t gdb_snap_base(uint64_t before)
{
    uint64_t base = 0;
    for (guint i = 0; snap.list && i < snap.list->len; i++) {
        const SnapEntry *e = &g_array_index(snap.list, SnapEntry, i);
        if (e->pos < before)
            base = e->pos;
    }
    return base;
}

static bool order(GdbStub *s, guint k, const char *plan)
{
    const SnapEntry *t = &g_array_index(snap.list, SnapEntry, k);
    int c = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
    if (c < 0)
        return false;
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    memcpy(a.sun_path, t->name, t->name_len);
    if (connect(c, (struct sockaddr *)&a, (socklen_t)(sizeof(sa_family_t) + t->name_len)) != 0) {
        close(c);
        return false;
    }
    GString *msg = g_string_new(NULL);
    g_string_printf(msg, "noack=%d self=%u every=%" PRIu64, s->noack ? 1 : 0, k, snap.every);
    for (guint i = 0; i < snap.list->len; i++) {
        const SnapEntry *e = &g_array_index(snap.list, SnapEntry, i);
        g_string_append_printf(msg, " %d:%" PRIu64 ":%" PRIu64 ":", (int)e->pid, e->pos, e->cost);
        gdb_hex_encode(msg, (const uint8_t *)e->name, e->name_len);
    }
    g_string_append_c(msg, '\n');
    g_string_append(msg, plan);
    union {
        struct cmsghdr h;
        char space[CMSG_SPACE(sizeof(int))];
    } ctl;
    memset(&ctl, 0, sizeof(ctl));
    struct iovec iov = {.iov_base = msg->str, .iov_len = msg->len};
    struct msghdr mh = {
        .msg_iov = &iov, .msg_iovlen = 1, .msg_control = &ctl, .msg_controllen = sizeof(ctl)};
    struct cmsghdr *h = CMSG_FIRSTHDR(&mh);
    h->cmsg_level = SOL_SOCKET;
    h->cmsg_type = SCM_RIGHTS;
    h->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(h), &s->conn, sizeof(int));
    bool ok = msg->len <= SNAP_MSG_MAX && sendmsg(c, &mh, MSG_NOSIGNAL) == (ssize_t)msg->len;
    g_string_free(msg, TRUE);
    char ack[4] = "";
    struct pollfd p = {.fd = c, .events = POLLIN};
    ok = ok && poll(&p, 1, SNAP_ACK_TIMEOUT) == 1 && recv(c, ack, sizeof(ack), 0) == 2 &&
         !memcmp(ack, "ok", 2);
    close(c);
    return ok;
}

static volatile sig_atomic_t anchor_active;

static void anchor_forward(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    /* what the terminal sends goes to the active process by itself */
    if ((si->si_code == SI_USER || si->si_code == SI_QUEUE) && anchor_active > 0)
        kill((pid_t)anchor_active, sig);
}

static void drain_status(void)
{
    pid_t p;
    while (read(snap.status_r, &p, sizeof(p)) == (ssize_t)sizeof(p))
        anchor_active = p;
}

/* The root after handing the session over: wait for the active process
 * and end as it ends. */
G_GNUC_NORETURN static void anchor(GdbStub *s)
{
    if (s->conn >= 0)
        close(s->conn);
    if (s->listener >= 0)
        close(s->listener);
    struct sigaction fw = {.sa_sigaction = anchor_forward, .sa_flags = SA_SIGINFO | SA_RESTART};
    sigemptyset(&fw.sa_mask);
    sigaction(SIGTERM, &fw, NULL);
    sigaction(SIGINT, &fw, NULL);
    sigaction(SIGHUP, &fw, NULL);
    drain_status();
    for (;;) {
        int st = 0;
        pid_t p = waitpid(-1, &st, 0);
        if (p < 0 && errno == EINTR)
            continue;
        drain_status();
        if (p < 0) {
            fprintf(stderr, "nxemu: gdb: reverse execution lost its process\n");
            _exit(125);
        }
        if (p != (pid_t)anchor_active)
            continue;
        /* the run is over: the snapshots see the end of the lifetime pipe;
         * wait for every one of them (all are children of this subreaper
         * by now), so that none outlives this process */
        close(snap.life_w);
        snap.life_w = -1;
        while (waitpid(-1, NULL, 0) > 0 || errno == EINTR) {
        }
        if (WIFEXITED(st))
            _exit(WEXITSTATUS(st));
        if (WIFSIGNALED(st)) {
            int sig = WTERMSIG(st);
            nx_output_unlink_temporaries(); /* it died before committing them */
            signal(sig, SIG_DFL);
            raise(sig);
            _exit(128 + sig);
        }
    }
}

bool gdb_snap_handover(GdbStub *s, const char *plan, uint64_t before)
{
    fflush(stdout);
    fflush(stderr);
    for (;;) {
        reap();
        int k = -1;
        for (guint i = 0; snap.list && i < snap.list->len; i++)
            if (g_array_index(snap.list, SnapEntry, i).pos < before)
                k = (int)i;
        if (k < 0)
            return false;
        if (order(s, (guint)k, plan))
            break;
        drop((guint)k); /* gone or stuck: the one before */
    }
    if (getpid() == snap.root)
        anchor(s);
    _exit(0);
}

static struct {
    bool have;
    uint64_t from, steps;
} last_cmd;

void gdb_snap_note(uint64_t from, uint64_t steps)
{
    last_cmd.have = true;
    last_cmd.from = from;
    last_cmd.steps = steps;
}

void gdb_snap_info(GdbStub *s, GString *out)
{
    Machine *m = s->m;
    const char *why = !s->replay.budget   ? " (off: -replay-budget 0)"
                      : !s->replay.memory ? " (off: -replay-memory 0)"
                      : s->viewer         ? " (off with -display sdl)"
                      : snap.disabled     ? " (off: could not be set up)"
                      : s->rev_changed    ? " (none after the run was changed)"
                      : s->rev_offsched   ? " (none after steps outside the schedule)"
                                          : "";
    guint n = snap.list ? snap.list->len : 0;
    g_string_append_printf(out,
                           "position %" PRIu64 ", -replay-budget %" PRIu64
                           ", %u snapshot%s of %" PRIu64 " bytes (-replay-memory %" PRIu64
                           "), every %" PRIu64 " steps%s\n",
                           nx_rev_position(m), s->replay.budget, n, n == 1 ? "" : "s", used_bytes(),
                           s->replay.memory, snap.init ? snap.every : s->replay.every, why);
    for (guint i = 0; i < n; i++) {
        const SnapEntry *e = &g_array_index(snap.list, SnapEntry, i);
        g_string_append_printf(out,
                               "  snapshot %u at position %" PRIu64 " (%" PRIu64 " KiB, pid %d)\n",
                               i, e->pos, e->cost >> 10, (int)e->pid);
    }
    if (last_cmd.have)
        g_string_append_printf(
            out, "last reverse command: re-executed %" PRIu64 " steps, from %s%" PRIu64 "\n",
            last_cmd.steps, last_cmd.from ? "the snapshot at position " : "the start, position ",
            last_cmd.from);
}
