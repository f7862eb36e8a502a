/*
 * gdb stub transport: POSIX sockets, one client at a time (the listening
 * socket, accepting, refusing a second gdb, sending and receiving bytes).
 * Run control and the session are in gdbstub.c.
 */
#include <errno.h>
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
#include "softmmu/gdbstub-int.h"

/* The transport is plain POSIX sockets: GIO would cost every nxemu run its
 * dynamic linking (about 0.6 ms, more than the rest of start-up) for the
 * few runs that use -gdb. */

void gdb_disconnect(GdbStub *s)
{
    if (s->conn >= 0) {
        close(s->conn);
        s->conn = -1;
    }
    s->connected = false;
}

void gdb_send_raw(GdbStub *s, const char *p, size_t n)
{
    while (s->connected && n) {
        ssize_t k = send(s->conn, p, n, MSG_NOSIGNAL);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            gdb_disconnect(s);
            return;
        }
        p += k;
        n -= (size_t)k;
    }
}

void gdb_send_packet(GdbStub *s, const char *data, size_t len)
{
    g_string_truncate(s->last, 0);
    gdb_frame(s->last, data, len);
    gdb_send_raw(s, s->last->str, s->last->len);
}

/* Blocking (or not) receive into s->in; false when the peer is gone. */
bool gdb_receive(GdbStub *s, bool blocking)
{
    char buf[4096];
    ssize_t n;
    do {
        n = recv(s->conn, buf, sizeof(buf), blocking ? 0 : MSG_DONTWAIT);
    } while (n < 0 && errno == EINTR);
    if (n < 0) {
        if (errno == EAGAIN || errno == EWOULDBLOCK)
            return true;
        gdb_disconnect(s);
        return false;
    }
    if (n == 0) {
        gdb_disconnect(s);
        return false;
    }
    g_byte_array_append(s->in, (const guint8 *)buf, (guint)n);
    return true;
}

/* Another gdb while one is connected: tell it why (its qSupported gets an
 * E.text reply, which gdb shows) and close. */
void gdb_refuse_second(GdbStub *s)
{
    static const char msg[] = "E.nxemu: another gdb is connected to this emulator";
    int c = gdb_accept_conn(s, false);
    char buf[512];
    size_t seen = 0;
    bool hash = false;
    if (c < 0)
        return;
    fflush(stdout);
    fprintf(stderr, "nxemu: gdb: refused a second connection (one gdb at a time)\n");
    /* read its first packet (bounded wait), so closing does not reset the
     * connection before it reads the reply */
    while (!(hash && seen >= 2)) {
        struct pollfd p = {.fd = c, .events = POLLIN};
        if (poll(&p, 1, 1000) <= 0)
            break;
        ssize_t n = recv(c, buf, sizeof(buf), MSG_DONTWAIT);
        if (n <= 0)
            break;
        for (ssize_t i = 0; i < n; i++) {
            if (hash)
                seen++;
            else if (buf[i] == '#')
                hash = true;
        }
    }
    GString *out = g_string_new("+");
    gdb_frame(out, msg, strlen(msg));
    (void)!send(c, out->str, out->len, MSG_NOSIGNAL | MSG_DONTWAIT);
    g_string_free(out, TRUE);
    shutdown(c, SHUT_WR);
    struct pollfd p = {.fd = c, .events = POLLIN};
    while (poll(&p, 1, 200) > 0 && recv(c, buf, sizeof(buf), MSG_DONTWAIT) > 0)
        ;
    close(c);
}

/* Block until gdb sends something (refusing other debuggers meanwhile);
 * false when it is gone. */
bool gdb_wait_input(GdbStub *s)
{
    Viewer *v = s->viewer;
    for (;;) {
        struct pollfd p[2] = {{.fd = s->conn, .events = POLLIN},
                              {.fd = s->listener, .events = POLLIN}};
        if (v && s->view_dirty) {
            viewer_redraw(v); /* what gdb wrote shows before its next packet */
            s->view_dirty = false;
        }
        /* with the viewer, wake up 10 times a second to keep its window
         * answering (hover, keys, expose) while gdb holds the machine */
        int n = poll(p, 2, v ? 100 : -1);
        if (n < 0 && errno == EINTR)
            continue;
        if (n == 0) {
            if (!viewer_idle(v)) {
                s->view_closed = true;
                return false;
            }
            continue;
        }
        if (n < 0 || p[0].revents)
            return gdb_receive(s, true); /* first: a gdb that left makes room */
        if (p[1].revents & POLLIN)
            gdb_refuse_second(s);
    }
}

static bool sock_error(GError **err, const char *what)
{
    g_set_error(err, NX_ERROR, NX_ERROR_USAGE, "%s: %s", what, g_strerror(errno));
    return false;
}

/* A listening socket for dev, or -1 + err. */
int gdb_listen_on(const char *dev, char **unix_path, GError **err)
{
    int fd = -1;

    if (g_str_has_prefix(dev, "unix:")) {
        const char *path = dev + 5;
        struct sockaddr_un sun = {.sun_family = AF_UNIX};
        struct stat st;
        if (!*path) {
            g_set_error(err, NX_ERROR, NX_ERROR_USAGE, "empty socket path");
            return -1;
        }
        if (strlen(path) >= sizeof(sun.sun_path)) {
            g_set_error(err, NX_ERROR, NX_ERROR_USAGE, "socket path longer than %zu bytes",
                        sizeof(sun.sun_path) - 1);
            return -1;
        }
        memcpy(sun.sun_path, path, strlen(path) + 1);
        /* a stale socket from an earlier run would make bind fail */
        if (stat(path, &st) == 0 && S_ISSOCK(st.st_mode))
            unlink(path);
        fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0) {
            sock_error(err, "socket");
            return -1;
        }
        if (bind(fd, (struct sockaddr *)&sun, sizeof(sun)) != 0 || listen(fd, 1) != 0) {
            sock_error(err, "cannot listen");
            close(fd);
            return -1;
        }
        *unix_path = g_strdup(path);
        return fd;
    }
    if (!g_str_has_prefix(dev, "tcp:")) {
        g_set_error(err, NX_ERROR, NX_ERROR_USAGE,
                    "unknown device (tcp::PORT, tcp:HOST:PORT or unix:PATH)");
        return -1;
    }
    const char *hp = dev + 4, *colon = strrchr(hp, ':');
    char *end;
    if (!colon) {
        g_set_error(err, NX_ERROR, NX_ERROR_USAGE, "expected tcp::PORT or tcp:HOST:PORT");
        return -1;
    }
    unsigned long port = strtoul(colon + 1, &end, 10);
    if (!colon[1] || *end || port > 65535) {
        g_set_error(err, NX_ERROR, NX_ERROR_USAGE, "bad port '%s'", colon + 1);
        return -1;
    }
    char *host = g_strndup(hp, (gsize)(colon - hp));
    /* "" and "localhost" are the IPv4 loopback, as before */
    const char *node = (!*host || !strcmp(host, "localhost")) ? "127.0.0.1" : host;
    if (node[0] == '[') { /* tcp:[::1]:PORT */
        size_t l = strlen(node);
        if (l > 2 && node[l - 1] == ']') {
            memmove(host, node + 1, l - 2);
            host[l - 2] = '\0';
            node = host;
        }
    }
    struct addrinfo hints = {.ai_socktype = SOCK_STREAM, .ai_flags = AI_NUMERICSERV};
    struct addrinfo *res = NULL;
    char portstr[8];
    snprintf(portstr, sizeof(portstr), "%lu", port);
    if (getaddrinfo(node, portstr, &hints, &res) != 0 || !res) {
        g_set_error(err, NX_ERROR, NX_ERROR_USAGE, "cannot resolve host '%s'", host);
        g_free(host);
        return -1;
    }
    g_free(host);
    fd = socket(res->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        freeaddrinfo(res);
        sock_error(err, "socket");
        return -1;
    }
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    if (bind(fd, res->ai_addr, res->ai_addrlen) != 0 || listen(fd, 1) != 0) {
        freeaddrinfo(res);
        sock_error(err, "cannot listen");
        close(fd);
        return -1;
    }
    freeaddrinfo(res);
    struct sockaddr_storage la;
    socklen_t lalen = sizeof(la);
    if (g_str_has_suffix(dev, ":0") &&
        getsockname(fd, (struct sockaddr *)&la, &lalen) == 0) {
        unsigned p = la.ss_family == AF_INET6 ? ntohs(((struct sockaddr_in6 *)&la)->sin6_port)
                                              : ntohs(((struct sockaddr_in *)&la)->sin_port);
        if (p != 0)
            fprintf(stderr, "nxemu: gdb: listening on port %u\n", p);
    }
    return fd;
}

/* The next client, or -1 (none waiting when not blocking, or an error). */
int gdb_accept_conn(GdbStub *s, bool blocking)
{
    int c;
    Viewer *v = s->viewer;
    /* -S with the viewer: keep its window answering until gdb connects */
    while (blocking && v) {
        struct pollfd p = {.fd = s->listener, .events = POLLIN};
        int n = poll(&p, 1, 100);
        if (n > 0 || (n < 0 && errno != EINTR))
            break;
        if (n == 0 && !viewer_idle(v)) {
            s->view_closed = true;
            return -1;
        }
    }
    if (!blocking) {
        /* SOCK_NONBLOCK below is the accepted socket's flag: the listening
         * socket blocks, so ask first whether anyone is waiting */
        struct pollfd p = {.fd = s->listener, .events = POLLIN};
        if (poll(&p, 1, 0) <= 0 || !(p.revents & POLLIN))
            return -1;
    }
    do {
        c = accept4(s->listener, NULL, NULL, SOCK_CLOEXEC | (blocking ? 0 : SOCK_NONBLOCK));
    } while (c < 0 && errno == EINTR);
    if (c < 0)
        return -1;
    if (!blocking) {
        int fl = fcntl(c, F_GETFL);
        fcntl(c, F_SETFL, fl & ~O_NONBLOCK);
    }
    struct sockaddr_storage sa;
    socklen_t len = sizeof(sa);
    int one = 1;
    if (getsockname(c, (struct sockaddr *)&sa, &len) == 0 && sa.ss_family != AF_UNIX)
        setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    return c;
}

