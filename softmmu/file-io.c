/*
 * Input and output files: see include/nxemu/file-io.h.
 */
#include "nxemu/file-io.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nxemu/error.h"

static const struct {
    const char *noun;
    uint64_t limit;
} kinds[] = {
    [NX_FILE_IMAGE] = {"images", 4ull << 30},
    [NX_FILE_DTB] = {"device trees", 64ull << 20},
    [NX_FILE_TEXT] = {"text files", 256ull << 20},
};

uint64_t nx_file_limit(NxFileKind kind)
{
    return kinds[kind].limit;
}

/* Inputs are "WHAT PATH", outputs "WHAT: PATH" (as nxemu always named them). */
static char *make_label(const char *what, const char *sep, const char *path)
{
    return what ? g_strdup_printf("%s%s%s", what, sep, path) : g_strdup(path);
}

static void limit_text(uint64_t n, char *buf, size_t len)
{
    if (n >= (1ull << 30) && n % (1ull << 30) == 0) {
        snprintf(buf, len, "%" PRIu64 " GiB", n >> 30);
    } else if (n >= (1ull << 20) && n % (1ull << 20) == 0) {
        snprintf(buf, len, "%" PRIu64 " MiB", n >> 20);
    } else {
        snprintf(buf, len, "%" PRIu64 " bytes", n);
    }
}

static bool check_input(const char *label, const struct stat *st, NxFileKind kind, GError **err)
{
    if (S_ISDIR(st->st_mode)) {
        g_set_error(err, NX_ERROR, NX_ERROR_LOAD, "%s: is a directory", label);
        return false;
    }
    if (!S_ISREG(st->st_mode)) {
        g_set_error(err, NX_ERROR, NX_ERROR_LOAD, "%s: not a regular file", label);
        return false;
    }
    if ((uint64_t)st->st_size > kinds[kind].limit) {
        char lim[32];
        limit_text(kinds[kind].limit, lim, sizeof(lim));
        g_set_error(err, NX_ERROR, NX_ERROR_LOAD,
                    "%s: file is %" PRIu64 " bytes, more than the %s limit for %s", label,
                    (uint64_t)st->st_size, lim, kinds[kind].noun);
        return false;
    }
    return true;
}

bool nx_input_open(NxInput *in, const char *what, const char *path, NxFileKind kind,
                   GError **err)
{
    struct stat st;
    in->fd = -1;
    in->size = 0;
    in->label = make_label(what, " ", path);
    /* Before open: opening a FIFO for reading blocks until a writer comes. */
    if (stat(path, &st) < 0) {
        g_set_error(err, NX_ERROR, NX_ERROR_LOAD, "%s: cannot open: %s", in->label,
                    g_strerror(errno));
        goto fail;
    }
    if (!check_input(in->label, &st, kind, err)) {
        goto fail;
    }
    /* O_NONBLOCK: should the path have become a FIFO since, open still returns. */
    in->fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (in->fd < 0) {
        g_set_error(err, NX_ERROR, NX_ERROR_LOAD, "%s: cannot open: %s", in->label,
                    g_strerror(errno));
        goto fail;
    }
    if (fstat(in->fd, &st) < 0) {
        g_set_error(err, NX_ERROR, NX_ERROR_LOAD, "%s: cannot open: %s", in->label,
                    g_strerror(errno));
        goto fail;
    }
    if (!check_input(in->label, &st, kind, err)) {
        goto fail;
    }
    in->size = (uint64_t)st.st_size;
    return true;
fail:
    nx_input_close(in);
    return false;
}

bool nx_input_pread(NxInput *in, void *buf, size_t len, uint64_t off, size_t *got, GError **err)
{
    size_t done = 0;
    while (done < len) {
        ssize_t n = pread(in->fd, (uint8_t *)buf + done, MIN(len - done, (size_t)1 << 30),
                          (off_t)(off + done));
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            g_set_error(err, NX_ERROR, NX_ERROR_LOAD, "%s: read error at offset 0x%" PRIx64 ": %s",
                        in->label, off + done, g_strerror(errno));
            return false;
        }
        if (n == 0) {
            break;
        }
        done += (size_t)n;
    }
    *got = done;
    return true;
}

uint8_t *nx_input_read_all(NxInput *in, size_t *len, GError **err)
{
    size_t size = (size_t)in->size, got = 0;
    uint8_t *buf = g_try_malloc(size + 1);
    if (!buf) {
        g_set_error(err, NX_ERROR, NX_ERROR_LOAD, "%s: no host memory for %zu bytes", in->label,
                    size);
        return NULL;
    }
    if (!nx_input_pread(in, buf, size, 0, &got, err)) {
        g_free(buf);
        return NULL;
    }
    if (got < size) {
        g_set_error(err, NX_ERROR, NX_ERROR_LOAD, "%s: read error at offset 0x%zx: file shrank",
                    in->label, got);
        g_free(buf);
        return NULL;
    }
    buf[size] = 0;
    *len = size;
    return buf;
}

void nx_input_close(NxInput *in)
{
    if (in->fd >= 0) {
        close(in->fd);
    }
    in->fd = -1;
    g_free(in->label);
    in->label = NULL;
}

bool nx_file_read(const char *what, const char *path, NxFileKind kind, char **data, size_t *len,
                  GError **err)
{
    NxInput in;
    size_t n = 0;
    if (!nx_input_open(&in, what, path, kind, err)) {
        return false;
    }
    uint8_t *buf = nx_input_read_all(&in, &n, err);
    nx_input_close(&in);
    if (!buf) {
        return false;
    }
    *data = (char *)buf;
    if (len) {
        *len = n;
    }
    return true;
}

/* ---- outputs ---- */

struct NxOutput {
    char *label;
    char *target; /* what the temporary file is renamed to */
    char *tmp;    /* NULL: written in place */
    int fd;
    int error; /* first write/close errno */
    FILE *f;
    NxOutput *next_live; /* live_tmp list */
    off_t mark;          /* nx_output_mark_all: the file's length then */
};

/* The stream writes through these, so the first error's errno is kept. */
static ssize_t out_write(void *cookie, const char *buf, size_t n)
{
    NxOutput *o = cookie;
    size_t done = 0;
    if (o->error) {
        return 0;
    }
    while (done < n) {
        ssize_t r = write(o->fd, buf + done, n - done);
        if (r < 0 && errno == EINTR) {
            continue;
        }
        if (r <= 0) {
            o->error = r < 0 ? errno : EIO;
            return 0; /* fopencookie: 0 is an error */
        }
        done += (size_t)r;
    }
    return (ssize_t)n;
}

static int out_close(void *cookie)
{
    NxOutput *o = cookie;
    if (o->fd >= 0 && close(o->fd) != 0 && !o->error && errno != EINTR) {
        o->error = errno;
    }
    o->fd = -1;
    return 0;
}

/* Outputs with a temporary file, for nx_output_unlink_temporaries.  The one
 * piece of process-wide state here: an exec replaces the whole process,
 * whichever machine owns the output.  A list through the outputs
 * themselves, so keeping it allocates nothing. */
static NxOutput *live_tmp;

void nx_output_unlink_temporaries(void)
{
    for (NxOutput *o = live_tmp; o; o = o->next_live) {
        if (o->tmp) { /* a published output is the target itself */
            unlink(o->tmp);
        }
    }
}

void nx_output_mark_all(void)
{
    for (NxOutput *o = live_tmp; o; o = o->next_live) {
        fflush(o->f);
        o->mark = lseek(o->fd, 0, SEEK_CUR);
    }
}

void nx_output_rewind_all(void)
{
    for (NxOutput *o = live_tmp; o; o = o->next_live) {
        /* the stream's buffer was empty at the mark (flushed) */
        if (o->mark >= 0 && o->fd >= 0 &&
            (ftruncate(o->fd, o->mark) != 0 || lseek(o->fd, o->mark, SEEK_SET) < 0) &&
            !o->error) {
            o->error = errno;
        }
    }
}

static void out_free(NxOutput *o)
{
    for (NxOutput **p = &live_tmp; *p; p = &(*p)->next_live) {
        if (*p == o) {
            *p = o->next_live;
            break;
        }
    }
    if (o->fd >= 0) {
        close(o->fd);
    }
    g_free(o->label);
    g_free(o->target);
    g_free(o->tmp);
    g_free(o);
}

static mode_t new_file_mode(void)
{
    mode_t um = umask(0);
    umask(um);
    return 0666 & ~um;
}

bool nx_output_check(const char *what, const char *path, GError **err)
{
    struct stat st;
    g_autofree char *label = make_label(what, ": ", path);
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            g_set_error(err, NX_ERROR, NX_ERROR_USAGE, "%s: is a directory", label);
            return false;
        }
        if (access(path, W_OK) != 0) {
            g_set_error(err, NX_ERROR, NX_ERROR_USAGE, "%s: cannot write: %s", label,
                        g_strerror(errno));
            return false;
        }
        if (!S_ISREG(st.st_mode)) {
            return true; /* written in place */
        }
    }
    /* The temporary file goes next to the target. */
    char *real = realpath(path, NULL);
    g_autofree char *dir = g_path_get_dirname(real ? real : path);
    free(real);
    if (access(dir, W_OK | X_OK) != 0) {
        g_set_error(err, NX_ERROR, NX_ERROR_USAGE, "%s: cannot create: %s", label,
                    g_strerror(errno));
        return false;
    }
    return true;
}

NxOutput *nx_output_open(const char *what, const char *path, GError **err)
{
    NxOutput *o = g_new0(NxOutput, 1);
    struct stat st;
    bool exists = stat(path, &st) == 0;
    o->label = make_label(what, ": ", path);
    o->fd = -1;
    if (exists && S_ISDIR(st.st_mode)) {
        g_set_error(err, NX_ERROR, NX_ERROR_USAGE, "%s: is a directory", o->label);
        goto fail;
    }
    if (exists && !S_ISREG(st.st_mode)) {
        /* A device, FIFO or terminal: written in place, never replaced. */
        o->fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
        if (o->fd < 0) {
            g_set_error(err, NX_ERROR, NX_ERROR_USAGE, "%s: cannot open: %s", o->label,
                        g_strerror(errno));
            goto fail;
        }
    } else {
        /* A regular file (through a symlink: the file it names) or a new one. */
        char *real = exists ? realpath(path, NULL) : NULL;
        o->target = real ? g_strdup(real) : g_strdup(path);
        free(real);
        if (exists && access(o->target, W_OK) != 0) {
            g_set_error(err, NX_ERROR, NX_ERROR_USAGE, "%s: cannot write: %s", o->label,
                        g_strerror(errno));
            goto fail;
        }
        g_autofree char *dir = g_path_get_dirname(o->target);
        g_autofree char *base = g_path_get_basename(o->target);
        o->tmp = g_strdup_printf("%s/.%s.XXXXXX", dir, base);
        o->fd = g_mkstemp_full(o->tmp, O_WRONLY | O_CLOEXEC, 0600);
        if (o->fd < 0) {
            int e = errno;
            g_free(o->tmp);
            o->tmp = NULL;
            g_set_error(err, NX_ERROR, NX_ERROR_USAGE, "%s: cannot create: %s", o->label,
                        g_strerror(e));
            goto fail;
        }
        if (fchmod(o->fd, exists ? (st.st_mode & 07777) : new_file_mode()) != 0) {
            /* not fatal: the file keeps mode 0600 */
        }
    }
    static const cookie_io_functions_t io = {.write = out_write, .close = out_close};
    o->f = fopencookie(o, "w", io);
    if (!o->f) {
        g_set_error(err, NX_ERROR, NX_ERROR_USAGE, "%s: %s", o->label, g_strerror(errno));
        goto fail;
    }
    if (o->tmp) {
        o->next_live = live_tmp;
        live_tmp = o;
    }
    return o;
fail:
    if (o->tmp) {
        unlink(o->tmp);
    }
    out_free(o);
    return NULL;
}

void nx_output_publish(NxOutput *o)
{
    if (fflush(o->f) != 0 && !o->error) {
        o->error = errno ? errno : EIO;
    }
    if (o->tmp && rename(o->tmp, o->target) == 0) {
        /* the open descriptor now writes the target itself; commit renames
         * nothing, and the snapshots' rewind (live list) still applies */
        g_free(o->tmp);
        o->tmp = NULL;
    }
    setvbuf(o->f, NULL, _IOLBF, 0); /* whole lines reach the file as written */
}

FILE *nx_output_stream(NxOutput *o)
{
    return o->f;
}

const char *nx_output_label(const NxOutput *o)
{
    return o->label;
}

bool nx_output_commit(NxOutput *o, GError **err)
{
    if (fflush(o->f) != 0 && !o->error) {
        o->error = errno ? errno : EIO;
    }
    if (ferror(o->f) && !o->error) {
        o->error = EIO;
    }
    fclose(o->f); /* out_close keeps a close error */
    o->f = NULL;
    bool ok = o->error == 0;
    if (!ok) {
        g_set_error(err, NX_ERROR, NX_ERROR_OUTPUT, "%s: write failed: %s", o->label,
                    g_strerror(o->error));
    } else if (o->tmp && rename(o->tmp, o->target) != 0) {
        g_set_error(err, NX_ERROR, NX_ERROR_OUTPUT, "%s: cannot replace: %s", o->label,
                    g_strerror(errno));
        ok = false;
    } else if (o->tmp) {
        g_free(o->tmp);
        o->tmp = NULL;
    }
    if (o->tmp) {
        unlink(o->tmp);
    }
    out_free(o);
    return ok;
}

void nx_output_discard(NxOutput *o)
{
    if (!o) {
        return;
    }
    if (o->f) {
        o->error = o->error ? o->error : ECANCELED;
        fclose(o->f);
        o->f = NULL;
    }
    if (o->tmp) {
        unlink(o->tmp);
    }
    out_free(o);
}

bool nx_file_write(const char *what, const char *path, const void *data, size_t len,
                   GError **err)
{
    NxOutput *o = nx_output_open(what, path, err);
    if (!o) {
        return false;
    }
    if (len) {
        fwrite(data, 1, len, o->f);
    }
    return nx_output_commit(o, err);
}
