/* Orderly end on SIGTERM, SIGINT, SIGHUP: see include/nxemu/signal.h. */
#include "nxemu/signal.h"

#include <string.h>
#include <unistd.h>

volatile sig_atomic_t nx_signal_caught;
static volatile sig_atomic_t immediate_exit;

const char *nx_signal_name(int sig)
{
    switch (sig) {
    case SIGTERM:
        return "SIGTERM";
    case SIGINT:
        return "SIGINT";
    case SIGHUP:
        return "SIGHUP";
    default:
        return "?";
    }
}

/* Async-signal-safe: the line is built by hand and written with write(2). */
static void say_terminating(int sig)
{
    char line[64] = "nxemu: terminating on signal ";
    size_t n = strlen(line);
    char digits[4];
    int nd = 0, v = sig;
    do {
        digits[nd++] = (char)('0' + v % 10);
        v /= 10;
    } while (v && nd < 3);
    while (nd) {
        line[n++] = digits[--nd];
    }
    const char *name = nx_signal_name(sig);
    line[n++] = ' ';
    line[n++] = '(';
    for (size_t i = 0; name[i] && n < sizeof(line) - 3; i++) {
        line[n++] = name[i];
    }
    line[n++] = ')';
    line[n++] = '\n';
    ssize_t r = write(STDERR_FILENO, line, n);
    (void)r;
}

static void on_signal(int sig)
{
    if (nx_signal_caught || immediate_exit) {
        say_terminating(sig);
        _exit(128 + sig);
    }
    nx_signal_caught = sig;
}

void nx_signals_install(bool immediate)
{
    static const int sigs[] = {SIGTERM, SIGINT, SIGHUP};
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESTART; /* stdio and the loaders see no EINTR */
    sigemptyset(&sa.sa_mask);
    immediate_exit = immediate;
    for (unsigned i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
        sigaction(sigs[i], &sa, NULL);
    }
}
