/*
 * -monitor stdio (and -serial mon:stdio): the monitor's commands, the same
 * ones gdb's `monitor` runs (monitor.c), typed on standard input while the
 * machine runs, as QEMU's human monitor on stdio.
 *
 * Commands are read between scheduling rounds, when every core is between
 * two instructions: they only read state, and stop/cont only decide whether
 * the next round runs, so a run's results do not depend on when a command
 * arrives.  While running, input is polled without waiting; while stopped
 * (-S, `stop`), nxemu waits for the next line.  End of input while stopped
 * ends nxemu as `quit` does (a script cannot forget its `cont` and hang).
 */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

#include "nxemu/sched.h"
#include "nxemu/signal.h"
#include "softmmu/monitor.h"

typedef struct StdioMon {
    GString *in; /* bytes read, not yet a whole line */
    bool eof;
    bool tty;
    Viewer *viewer; /* screendump's window (NULL: none) */
} StdioMon;

static void prompt(StdioMon *s)
{
    if (s->tty) {
        fputs("(nxemu) ", stdout);
        fflush(stdout);
    }
}

/* Read what stdin has; wait up to timeout_ms (-1: until input or a signal). */
static void fill(StdioMon *s, int timeout_ms)
{
    struct pollfd pfd = {.fd = STDIN_FILENO, .events = POLLIN};
    char buf[4096];
    if (s->eof) {
        return;
    }
    int r = poll(&pfd, 1, timeout_ms);
    if (r <= 0) {
        return; /* nothing yet, or EINTR: the caller looks at signals */
    }
    ssize_t n = read(STDIN_FILENO, buf, sizeof(buf));
    if (n > 0) {
        g_string_append_len(s->in, buf, n);
    } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
        s->eof = true;
    }
}

/* Run every complete line; *stopped follows stop/cont.  False on quit. */
static bool run_lines(Machine *m, StdioMon *s, bool *stopped)
{
    char *nl;
    while ((nl = memchr(s->in->str, '\n', s->in->len)) != NULL) {
        g_autofree char *line = g_strndup(s->in->str, nl - s->in->str);
        GString *out = g_string_new(NULL);
        MonAction act;
        g_string_erase(s->in, 0, nl - s->in->str + 1);
        g_strstrip(line);
        if (*line) {
            monitor_exec(m, s->viewer, line, out, &act);
            fputs(out->str, stdout);
        } else {
            act = MON_NONE;
        }
        g_string_free(out, TRUE);
        if (act == MON_QUIT) {
            return false;
        }
        if (act == MON_STOP) {
            *stopped = true;
        } else if (act == MON_CONT) {
            *stopped = false;
        }
        if (*stopped) {
            prompt(s);
        }
        fflush(stdout);
    }
    return true;
}

int monitor_stdio_run(Machine *m, Viewer *viewer, bool start_stopped)
{
    StdioMon s = {.in = g_string_new(NULL), .tty = isatty(STDIN_FILENO), .viewer = viewer};
    bool stopped = start_stopped;
    bool quit = false;
    GString *report = g_string_new(NULL);
    int rc;

    if (stopped) {
        prompt(&s);
    }
    for (;;) {
        fill(&s, stopped ? -1 : 0);
        if (!run_lines(m, &s, &stopped)) {
            quit = true;
            break;
        }
        if (stopped && s.eof) {
            quit = true; /* end of input while stopped: as quit */
            break;
        }
        if (stopped && !nx_signal_caught) {
            continue;
        }
        /* a signal while stopped ends the run at the next round, as always */
        if (sched_rounds(m, stopped ? 1 : m->sched.slice_rounds) != STOP_NONE) {
            break;
        }
    }
    if (quit && m->stop_reason == STOP_NONE) {
        /* quit: the run ends where it stands, status 0, as QEMU's quit */
        m->stop = true;
        m->stop_reason = STOP_DEBUG;
        m->sched.end_vtime = m->sched.vtime;
    }
    fflush(stdout);
    sched_report(m, report);
    sched_log_end(m);
    rc = sched_exit_status(m);
    fputs(report->str, stderr);
    g_string_free(report, TRUE);
    g_string_free(s.in, TRUE);
    return rc;
}
