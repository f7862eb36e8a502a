/*
 * nxemu-test child processes: up to N nxemu children at once, each with its
 * output captured and a wall-clock timeout, and the verdict of each case.
 *
 * Everything runs on the GLib main context of the calling thread: a child's
 * completion (both pipes drained and the process reaped) and its timeout are
 * events, so no threads and no polling.  Completion order is whatever the
 * children do; the caller reports in case order.
 */
#include <signal.h>
#include <string.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include <gio/gio.h>

#include "nxemu-test.h"

#define DIAG_NXEMU_LINES   20 /* nxemu: diagnostic lines kept (a deadlock block per core) */
#define DIAG_CONSOLE_LINES 10 /* last console lines kept */
#define NT_TERM_GRACE_MS   2000 /* SIGTERM at the timeout, SIGKILL this much later */
#define CAPTURE_HEAD       (4u << 20)
#define CAPTURE_TAIL       (64u << 10)
#define CAPTURE_CHUNK      (64u << 10)

typedef struct Run {
    GPtrArray *cases;
    unsigned next, running, done, total;
    int jobs;
    bool starting;
    NtDoneFn done_fn;
    NtTickFn tick_fn;
    void *opaque;
    GRegex *re_insns, *re_cycles;
} Run;

/*
 * One captured stream.  A guest printing in a loop until its timeout can
 * write gigabytes: keep the first CAPTURE_HEAD bytes (what patterns are
 * matched against) and the last CAPTURE_TAIL (the diagnostic's last console
 * lines), drop the middle.
 */

typedef struct Capture {
    GString *head, *tail;
    guint64 total;
} Capture;

typedef struct Child {
    Run *run;
    NtCase *c;
    GSubprocess *proc;
    guint timer;
    bool timed_out;
    bool killed; /* still alive NT_TERM_GRACE_MS after the SIGTERM */
    gint64 t0;
    Capture cap[2]; /* stdout, stderr */
    int pending;    /* the two streams' EOFs and the exit */
} Child;

const char *nt_status_name(NtStatus s)
{
    switch (s) {
    case NT_PASS:
        return "PASS";
    case NT_FAIL:
        return "FAIL";
    case NT_TIMEOUT:
        return "TIMEOUT";
    case NT_ERROR:
        return "ERROR";
    default:
        return "PENDING";
    }
}

/* machine.md §9.2 */
const char *nt_exit_meaning(int code)
{
    if (code == 0) {
        return "pass";
    } else if (code >= 1 && code <= 122) {
        return "test FAIL code";
    }
    switch (code) {
    case 123:
        return "instruction or cycle limit";
    case 124:
        return "deadlock";
    case 125:
        return "usage, configuration or load error";
    case 126:
        return "an output file could not be written";
    case 129:
        return "terminated by SIGHUP";
    case 130:
        return "terminated by SIGINT";
    case 143:
        return "terminated by SIGTERM";
    case 132:
        return "fault, SIGILL";
    case 135:
        return "fault, SIGBUS";
    case 139:
        return "fault, SIGSEGV";
    default:
        return "unexpected status";
    }
}

static char *bytes_text(GBytes *b)
{
    gsize n = 0;
    const char *p = b ? g_bytes_get_data(b, &n) : NULL;
    return g_utf8_make_valid(p ? p : "", (gssize)n);
}

/* The last @max lines of @text (a trailing newline ends the last line). */
static void tail_lines(GString *out, const char *text, unsigned max)
{
    size_t len = strlen(text);
    while (len && text[len - 1] == '\n') {
        len--;
    }
    size_t start = len;
    unsigned n = 0;
    while (start > 0 && n < max) {
        start--;
        if (text[start] == '\n' && ++n == max) {
            start++;
            break;
        }
    }
    if (len) {
        g_string_append_len(out, text + start, (gssize)(len - start));
        g_string_append_c(out, '\n');
    }
}

/*
 * The diagnostic for a failing case: nxemu's own stderr lines (fault,
 * deadlock block, limit), or the end of stderr when nxemu printed none of
 * them (a sanitizer report, a crash), then the last console lines.
 */
static char *make_diag(const NtCase *c, const char *out, const char *err)
{
    GString *d = g_string_new(NULL);
    for (int i = 0; i < 2; i++) {
        if (c->dropped[i]) {
            g_string_append_printf(
                d, "nxemu-test: %s: %" G_GUINT64_FORMAT " bytes beyond the first %u MiB not kept\n",
                i ? "stderr" : "stdout", c->dropped[i], CAPTURE_HEAD >> 20);
        }
    }
    char **lines = g_strsplit(err, "\n", -1);
    unsigned kept = 0;
    for (unsigned i = 0; lines[i] && kept < DIAG_NXEMU_LINES; i++) {
        if (g_str_has_prefix(lines[i], "nxemu:")) {
            g_string_append_printf(d, "%s\n", lines[i]);
            kept++;
        }
    }
    g_strfreev(lines);
    if (!kept && *err) {
        g_string_append(d, "stderr (last lines):\n");
        tail_lines(d, err, DIAG_CONSOLE_LINES);
    }
    if (*out) {
        g_string_append(d, "console (last lines):\n");
        tail_lines(d, out, DIAG_CONSOLE_LINES);
    }
    return g_string_free(d, FALSE);
}

/* Retired instructions and cycles, when nxemu reports them on stderr. */
static gint64 last_number(GRegex *re, const char *err)
{
    GMatchInfo *mi = NULL;
    gint64 v = -1;
    g_regex_match(re, err, 0, &mi);
    while (g_match_info_matches(mi)) {
        char *s = g_match_info_fetch(mi, 1);
        v = g_ascii_strtoll(s, NULL, 10);
        g_free(s);
        g_match_info_next(mi, NULL);
    }
    g_match_info_free(mi);
    return v;
}

static void judge(Run *r, Child *ch, GBytes *out, GBytes *err, GError *spawn_error)
{
    NtCase *c = ch->c;
    c->out = out;
    c->err = err;
    char *o = bytes_text(out), *e = bytes_text(err);

    if (spawn_error) {
        c->status = NT_ERROR;
        c->message = g_strdup_printf("could not start %s: %s",
                                     (char *)g_ptr_array_index(c->argv, 0), spawn_error->message);
    } else if (ch->timed_out) {
        c->status = NT_TIMEOUT;
        c->message =
            ch->killed
                ? g_strdup_printf("timeout after %g s: sent SIGTERM, killed (SIGKILL) %g s later",
                                  c->timeout, NT_TERM_GRACE_MS / 1000.0)
                : g_strdup_printf("timeout after %g s: stopped with SIGTERM", c->timeout);
    } else if (!g_subprocess_get_if_exited(ch->proc)) {
        c->status = NT_FAIL;
        c->term_signal = g_subprocess_get_term_sig(ch->proc);
        c->message = g_strdup_printf("nxemu killed by signal %d (%s)", c->term_signal,
                                     g_strsignal(c->term_signal));
    } else {
        c->exit_code = g_subprocess_get_exit_status(ch->proc);
        c->status = NT_PASS;
        if (c->exit_code != c->expect_exit) {
            c->status = NT_FAIL;
            c->message = g_strdup_printf("exit status %d (%s), expected %d (%s)", c->exit_code,
                                         nt_exit_meaning(c->exit_code), c->expect_exit,
                                         nt_exit_meaning(c->expect_exit));
        }
        for (guint i = 0; c->status == NT_PASS && i < c->re_stdout->len; i++) {
            if (!g_regex_match(g_ptr_array_index(c->re_stdout, i), o, 0, NULL)) {
                c->status = NT_FAIL;
                c->message = g_strdup_printf("stdout does not match expect-stdout '%s'",
                                             (char *)g_ptr_array_index(c->expect_stdout, i));
            }
        }
        for (guint i = 0; c->status == NT_PASS && i < c->re_stderr->len; i++) {
            if (!g_regex_match(g_ptr_array_index(c->re_stderr, i), e, 0, NULL)) {
                c->status = NT_FAIL;
                c->message = g_strdup_printf("stderr does not match expect-stderr '%s'",
                                             (char *)g_ptr_array_index(c->expect_stderr, i));
            }
        }
    }
    c->instructions = last_number(r->re_insns, e);
    c->cycles = last_number(r->re_cycles, e);
    if (c->status != NT_PASS) {
        c->diag = make_diag(c, o, e);
    }
    g_free(o);
    g_free(e);
}

static void start_next(Run *r);

static void finish(Child *ch, GBytes *out, GBytes *err, GError *spawn_error)
{
    Run *r = ch->run;
    ch->c->wall = (double)(g_get_monotonic_time() - ch->t0) / G_USEC_PER_SEC;
    judge(r, ch, out, err, spawn_error);
    if (ch->timer) {
        g_source_remove(ch->timer);
    }
    if (ch->proc) {
        g_object_unref(ch->proc);
    }
    r->running--;
    r->done++;
    r->done_fn(ch->c, r->opaque);
    g_free(ch);
    start_next(r);
}

static GBytes *capture_bytes(Capture *k, guint64 *dropped)
{
    GString *t = k->head;
    if (k->tail->len > CAPTURE_TAIL) { /* trimmed lazily while reading */
        g_string_erase(k->tail, 0, (gssize)(k->tail->len - CAPTURE_TAIL));
    }
    *dropped = k->total - k->head->len - k->tail->len;
    if (*dropped) {
        g_string_append_printf(t, "\n[nxemu-test: %" G_GUINT64_FORMAT " bytes not kept]\n",
                               *dropped);
    }
    g_string_append_len(t, k->tail->str, (gssize)k->tail->len);
    g_string_free(k->tail, TRUE);
    return g_string_free_to_bytes(t);
}

static void step_done(Child *ch)
{
    if (--ch->pending == 0) {
        GBytes *out = capture_bytes(&ch->cap[0], &ch->c->dropped[0]);
        GBytes *err = capture_bytes(&ch->cap[1], &ch->c->dropped[1]);
        finish(ch, out, err, NULL);
    }
}

static void read_more(Child *ch, int i);

static void on_read(GObject *src, GAsyncResult *res, gpointer data)
{
    Child *ch = data;
    int i = G_INPUT_STREAM(src) == g_subprocess_get_stdout_pipe(ch->proc) ? 0 : 1;
    Capture *k = &ch->cap[i];
    GBytes *b = g_input_stream_read_bytes_finish(G_INPUT_STREAM(src), res, NULL);
    gsize n = 0;
    const char *p = b ? g_bytes_get_data(b, &n) : NULL;

    if (!n) { /* EOF, or a read error: the stream is over either way */
        if (b) {
            g_bytes_unref(b);
        }
        step_done(ch);
        return;
    }
    k->total += n;
    gsize room = CAPTURE_HEAD - k->head->len;
    gsize h = MIN(room, n);
    g_string_append_len(k->head, p, (gssize)h);
    if (n > h) {
        g_string_append_len(k->tail, p + h, (gssize)(n - h));
        if (k->tail->len > 2 * CAPTURE_TAIL) {
            g_string_erase(k->tail, 0, (gssize)(k->tail->len - CAPTURE_TAIL));
        }
    }
    g_bytes_unref(b);
    read_more(ch, i);
}

static void read_more(Child *ch, int i)
{
    GInputStream *in =
        i ? g_subprocess_get_stderr_pipe(ch->proc) : g_subprocess_get_stdout_pipe(ch->proc);
    g_input_stream_read_bytes_async(in, CAPTURE_CHUNK, G_PRIORITY_DEFAULT, NULL, on_read, ch);
}

static void on_child_exit(GObject *src, GAsyncResult *res, gpointer data)
{
    g_subprocess_wait_finish(G_SUBPROCESS(src), res, NULL);
    step_done(data);
}

static gboolean on_grace_over(gpointer data)
{
    Child *ch = data;
    ch->timer = 0;
    ch->killed = true;
    g_subprocess_force_exit(ch->proc); /* SIGKILL: the pipes close, the wait completes */
    return G_SOURCE_REMOVE;
}

/* SIGTERM first: nxemu then prints where the run was and exits; SIGKILL
 * only if it is still there after the grace period. */
static gboolean on_timeout(gpointer data)
{
    Child *ch = data;
    ch->timed_out = true;
    g_subprocess_send_signal(ch->proc, SIGTERM);
    ch->timer = g_timeout_add(NT_TERM_GRACE_MS, on_grace_over, ch);
    return G_SOURCE_REMOVE;
}

/*
 * A CI job that is cancelled usually kills the runner alone: make its
 * children die with it instead of emulating on (possibly hung) forever.
 * Runs in the child between fork and exec: async-signal-safe calls only.
 */
static void child_setup(gpointer data)
{
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
}

static void start_one(Run *r, NtCase *c)
{
    Child *ch = g_new0(Child, 1);
    GError *e = NULL;
    GSubprocessLauncher *l =
        g_subprocess_launcher_new(G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
    g_subprocess_launcher_set_cwd(l, c->dir);
    g_subprocess_launcher_set_child_setup(l, child_setup, NULL, NULL);
    ch->run = r;
    ch->c = c;
    ch->t0 = g_get_monotonic_time();
    r->running++;
    /* --coverage appends its own option; c->argv stays the user's command (repro lines) */
    GPtrArray *argv = g_ptr_array_new();
    for (guint i = 0; i + 1 < c->argv->len; i++) {
        g_ptr_array_add(argv, g_ptr_array_index(c->argv, i));
    }
    if (c->coverage) {
        g_ptr_array_add(argv, "-coverage");
        g_ptr_array_add(argv, c->coverage);
    }
    g_ptr_array_add(argv, NULL);
    ch->proc = g_subprocess_launcher_spawnv(l, (const char *const *)argv->pdata, &e);
    g_ptr_array_unref(argv);
    g_object_unref(l);
    if (!ch->proc) {
        finish(ch, NULL, NULL, e);
        g_error_free(e);
        return;
    }
    if (c->timeout > 0) {
        guint ms = c->timeout * 1000 > G_MAXUINT ? G_MAXUINT : (guint)(c->timeout * 1000);
        ch->timer = g_timeout_add(ms ? ms : 1, on_timeout, ch);
    }
    /* stdin is /dev/null (GSubprocess's default): a guest never waits on the host's input */
    for (int i = 0; i < 2; i++) {
        ch->cap[i].head = g_string_new(NULL);
        ch->cap[i].tail = g_string_new(NULL);
        read_more(ch, i);
    }
    ch->pending = 3;
    g_subprocess_wait_async(ch->proc, NULL, on_child_exit, ch);
}

static void start_next(Run *r)
{
    /* finish() of a child that could not start calls back here: let the outer loop go on */
    if (r->starting) {
        return;
    }
    r->starting = true;
    while (r->next < r->total && r->running < (unsigned)r->jobs) {
        NtCase *c = g_ptr_array_index(r->cases, r->next++);
        start_one(r, c);
    }
    r->starting = false;
    if (r->tick_fn) {
        r->tick_fn(r->done, r->running, r->total, r->opaque);
    }
}

void nt_run_cases(GPtrArray *cases, int jobs, NtDoneFn done, NtTickFn tick, void *opaque)
{
    Run r = {
        .cases = cases,
        .total = cases->len,
        .jobs = jobs > 0 ? jobs : 1,
        .done_fn = done,
        .tick_fn = tick,
        .opaque = opaque,
        /* any nxemu: line carrying a count: the limit line (icount=, vtime=) or a statistics line
         */
        .re_insns = g_regex_new("^nxemu:.*\\b(?:icount|instructions|retired)=(\\d+)",
                                G_REGEX_MULTILINE, 0, NULL),
        .re_cycles = g_regex_new("^nxemu:.*\\b(?:cycles|vtime)=(\\d+)", G_REGEX_MULTILINE, 0, NULL),
    };
    start_next(&r);
    while (r.done < r.total) {
        g_main_context_iteration(NULL, TRUE);
    }
    g_regex_unref(r.re_insns);
    g_regex_unref(r.re_cycles);
}
