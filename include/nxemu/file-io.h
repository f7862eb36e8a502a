/*
 * Reading input files and writing output files, the one way every program
 * of the tree does it (softmmu/file-io.c).
 *
 * Inputs: only regular files are read.  The type is checked before the file
 * is opened (and again on the open descriptor, which is opened O_NONBLOCK),
 * so a FIFO or a device such as /dev/zero is refused at once instead of
 * blocking or filling memory; each kind of input has a size cap, checked
 * before anything is read.
 *
 * Outputs: a regular file (or a new one) is written to a temporary file in
 * the same directory and renamed over the target on commit, so a failed run
 * leaves the previous contents in place.  Anything else (a device such as
 * /dev/null, a FIFO, a terminal) is opened and written in place, never
 * replaced.  A directory, a missing directory or an unwritable target is
 * refused when the output is opened, which callers do before a run.  Every
 * write and close error is kept and reported by commit.
 *
 * Errors are GErrors in NX_ERROR, one line naming the file and what went
 * wrong: "WHAT PATH: why" for inputs (NX_ERROR_LOAD), "WHAT: PATH: why" for
 * outputs ("PATH: why" when @what is NULL).  An output refused by
 * nx_output_open is NX_ERROR_USAGE (nothing was done yet: exit 125 in nxemu);
 * a write, close or rename error from nx_output_commit is NX_ERROR_OUTPUT
 * (exit 126).
 */
#ifndef NXEMU_FILE_IO_H
#define NXEMU_FILE_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <glib.h>

typedef enum NxFileKind {
    NX_FILE_IMAGE, /* images, kernels, tensors, objdump input: 4 GiB */
    NX_FILE_DTB,   /* device tree blobs: 64 MiB */
    NX_FILE_TEXT,  /* sources, includes, manifests, reports: 256 MiB */
} NxFileKind;

/* Largest accepted size of an input of this kind, in bytes. */
uint64_t nx_file_limit(NxFileKind kind);

/* An open input: fd and the size it had when opened. */
typedef struct NxInput {
    int fd;
    uint64_t size;
    char *label; /* "WHAT PATH" or "PATH", for messages */
} NxInput;

bool nx_input_open(NxInput *in, const char *what, const char *path, NxFileKind kind,
                   GError **err);
/* Read [off, off + len) into buf; fewer bytes only at the end of the file
 * (*got says how many). */
bool nx_input_pread(NxInput *in, void *buf, size_t len, uint64_t off, size_t *got, GError **err);
/* The whole file (in->size bytes as opened, plus a NUL), g_free'd by the caller. */
uint8_t *nx_input_read_all(NxInput *in, size_t *len, GError **err);
void nx_input_close(NxInput *in);

/* Open + read_all + close.  *data is NUL-terminated (not counted in *len). */
bool nx_file_read(const char *what, const char *path, NxFileKind kind, char **data, size_t *len,
                  GError **err);

typedef struct NxOutput NxOutput;

/* The checks of nx_output_open without opening or creating anything, for
 * a program that writes its outputs only at the end (nxemu-test): a
 * directory, a missing or unwritable directory, an unwritable file. */
bool nx_output_check(const char *what, const char *path, GError **err);
/* Validate and open an output now; nothing is visible under @path before
 * nx_output_commit (for in-place targets, only what is written). */
NxOutput *nx_output_open(const char *what, const char *path, GError **err);
/* Make the output visible under its name now and write it line by line
 * from here on (nxemu's -D once the images are loaded, as QEMU's: `tail
 * -f` follows it, a killed run leaves what it wrote).  Until this call a
 * failure leaves the previous file. */
void nx_output_publish(NxOutput *o);
/* A stream onto the output; errors it meets are reported by commit. */
FILE *nx_output_stream(NxOutput *o);
const char *nx_output_label(const NxOutput *o);
/* Flush and close; rename the temporary file over the target.  False with
 * err on any write, close or rename error (the target is then left as it
 * was).  Frees @o in every case. */
bool nx_output_commit(NxOutput *o, GError **err);
/* Close without committing: the temporary file goes, the target stays as it
 * was.  NULL is ignored. */
void nx_output_discard(NxOutput *o);
/* Remove the temporary files of every output not yet committed or
 * discarded: the process is about to execute nxemu again (gdb's run and
 * reverse execution, softmmu/gdbstub-restart.c), whose new image opens its
 * own and never renames these. */
void nx_output_unlink_temporaries(void);
/* Snapshots of a run (gdb reverse execution, softmmu/gdbstub-snap.c): mark
 * flushes every output with a temporary file and remembers its length; in
 * a process forked at the mark, rewind cuts each one back to it, so that
 * what the process writes from there replaces what the run wrote after the
 * mark (the temporary files are shared with the process it was forked from). */
void nx_output_mark_all(void);
void nx_output_rewind_all(void);

/* Open + write + commit. */
bool nx_file_write(const char *what, const char *path, const void *data, size_t len,
                   GError **err);

#endif
