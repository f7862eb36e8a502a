/*
 * gdb's `run` in extended-remote (vRun): start the run again from scratch.
 *
 * A machine has no way back to its initial state short of being built
 * again from the command line, so the stub re-executes nxemu itself
 * (/proc/self/exe with /proc/self/cmdline) and hands the new process the
 * gdb connection and the listening socket (their fds survive the exec,
 * named in NXEMU_GDB_RESTART with the no-ack state).  The new process
 * builds the same machine from the same options, adopts the connection
 * stopped at the start and answers the vRun with its stop reply, as if gdb
 * had connected to a fresh `nxemu -S`.  Everything of the old run (its
 * memory, the debug state) is gone with the old process image.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "nxemu/file-io.h"
#include "softmmu/gdbstub-int.h"

#define RESTART_ENV "NXEMU_GDB_RESTART"

static bool keep_across_exec(int fd)
{
    int fl = fcntl(fd, F_GETFD);
    return fl >= 0 && fcntl(fd, F_SETFD, fl & ~FD_CLOEXEC) == 0;
}

bool gdb_restart_exec(GdbStub *s)
{
    gchar *cmdline = NULL;
    gsize len = 0;
    if (!g_file_get_contents("/proc/self/cmdline", &cmdline, &len, NULL) || len == 0) {
        g_free(cmdline);
        return false;
    }
    /* NUL-separated arguments, the last one NUL-terminated too */
    GPtrArray *argv = g_ptr_array_new();
    for (gsize i = 0; i < len; i += strlen(cmdline + i) + 1)
        g_ptr_array_add(argv, cmdline + i);
    g_ptr_array_add(argv, NULL);
    char env[64];
    snprintf(env, sizeof(env), "%d,%d,%d", s->conn, s->listener, s->noack ? 1 : 0);
    bool ok = keep_across_exec(s->conn) && keep_across_exec(s->listener) &&
              setenv(RESTART_ENV, env, 1) == 0;
    if (ok) {
        fflush(stdout);
        fflush(stderr);
        nx_output_unlink_temporaries();
        gdb_snap_drop_all(); /* the new image takes its own */
        execv("/proc/self/exe", (char **)argv->pdata);
        /* only returns on failure: the old run is still there */
        unsetenv(RESTART_ENV);
    }
    g_ptr_array_free(argv, TRUE);
    g_free(cmdline);
    return false;
}

/* execv("/proc/self/exe") names the process "exe" (ps, top, pgrep -x):
 * give it back the name of the program the user ran. */
static void keep_process_name(void)
{
    gchar *cmdline = NULL;
    gsize len = 0;
    if (g_file_get_contents("/proc/self/cmdline", &cmdline, &len, NULL) && len) {
        gchar *base = g_path_get_basename(cmdline); /* argv[0], NUL-terminated */
        prctl(PR_SET_NAME, base, 0, 0, 0);          /* the first 15 bytes */
        g_free(base);
    }
    g_free(cmdline);
}

bool gdb_restart_adopt(GdbStub *s)
{
    const char *env = getenv(RESTART_ENV);
    int conn, listener, noack;
    if (!env || sscanf(env, "%d,%d,%d", &conn, &listener, &noack) != 3 || conn < 0 ||
        listener < 0 || fcntl(conn, F_GETFD) < 0 || fcntl(listener, F_GETFD) < 0) {
        unsetenv(RESTART_ENV);
        return false;
    }
    unsetenv(RESTART_ENV); /* a later nxemu started from the guest's run is not a restart */
    keep_process_name();
    fcntl(conn, F_SETFD, FD_CLOEXEC);
    fcntl(listener, F_SETFD, FD_CLOEXEC);
    s->conn = conn;
    s->listener = listener;
    s->noack = noack != 0;
    return true;
}
