/*
 * The input and output helpers (include/nxemu/file-io.h): what is refused
 * before anything is read, size caps, temporary file and rename for regular
 * files, in-place writes elsewhere, every error kept and reported.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "nxemu/error.h"
#include "nxemu/file-io.h"

static char *tmpdir;

static char *tmp_path(const char *name)
{
    return g_build_filename(tmpdir, name, NULL);
}

static void test_read_regular(void)
{
    g_autofree char *p = tmp_path("in.txt");
    g_assert_true(g_file_set_contents(p, "abc", 3, NULL));
    char *data = NULL;
    size_t len = 0;
    GError *err = NULL;
    g_assert_true(nx_file_read("-x", p, NX_FILE_TEXT, &data, &len, &err));
    g_assert_no_error(err);
    g_assert_cmpuint(len, ==, 3);
    g_assert_cmpstr(data, ==, "abc"); /* NUL-terminated */
    g_free(data);
}

static void test_read_refusals(void)
{
    g_autofree char *fifo = tmp_path("in.fifo");
    g_autofree char *big = tmp_path("big.bin");
    g_autofree char *missing = tmp_path("missing");
    g_assert_cmpint(mkfifo(fifo, 0600), ==, 0);
    char *data = NULL;
    size_t len = 0;
    GError *err = NULL;
    /* A FIFO without a writer: refused, not waited for. */
    g_assert_false(nx_file_read("-kernel", fifo, NX_FILE_IMAGE, &data, &len, &err));
    g_autofree char *want = g_strdup_printf("-kernel %s: not a regular file", fifo);
    g_assert_cmpstr(err->message, ==, want);
    g_clear_error(&err);
    g_assert_false(nx_file_read(NULL, "/dev/zero", NX_FILE_DTB, &data, &len, &err));
    g_assert_cmpstr(err->message, ==, "/dev/zero: not a regular file");
    g_clear_error(&err);
    g_assert_false(nx_file_read(NULL, tmpdir, NX_FILE_TEXT, &data, &len, &err));
    g_assert_true(g_str_has_suffix(err->message, ": is a directory"));
    g_clear_error(&err);
    g_assert_false(nx_file_read(NULL, missing, NX_FILE_TEXT, &data, &len, &err));
    g_assert_true(g_str_has_suffix(err->message, ": cannot open: No such file or directory"));
    g_clear_error(&err);
    /* One byte over the cap: refused by size, nothing read. */
    int fd = open(big, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    g_assert_cmpint(fd, >=, 0);
    g_assert_cmpint(ftruncate(fd, (off_t)nx_file_limit(NX_FILE_DTB) + 1), ==, 0);
    close(fd);
    g_assert_false(nx_file_read("-dtb", big, NX_FILE_DTB, &data, &len, &err));
    g_autofree char *want2 = g_strdup_printf(
        "-dtb %s: file is 67108865 bytes, more than the 64 MiB limit for device trees", big);
    g_assert_cmpstr(err->message, ==, want2);
    g_clear_error(&err);
    NxInput in;
    g_assert_true(nx_input_open(&in, NULL, big, NX_FILE_IMAGE, &err));
    g_assert_cmpuint(in.size, ==, nx_file_limit(NX_FILE_DTB) + 1);
    nx_input_close(&in);
}

static void test_output_atomic(void)
{
    g_autofree char *p = tmp_path("out.txt");
    GError *err = NULL;
    g_assert_true(g_file_set_contents(p, "old", 3, NULL));
    g_assert_cmpint(chmod(p, 0640), ==, 0);
    NxOutput *o = nx_output_open("-o", p, &err);
    g_assert_nonnull(o);
    fputs("new contents", nx_output_stream(o));
    fflush(nx_output_stream(o));
    char *now = NULL;
    g_assert_true(g_file_get_contents(p, &now, NULL, NULL));
    g_assert_cmpstr(now, ==, "old"); /* nothing visible before the commit */
    g_free(now);
    g_assert_true(nx_output_commit(o, &err));
    g_assert_true(g_file_get_contents(p, &now, NULL, NULL));
    g_assert_cmpstr(now, ==, "new contents");
    g_free(now);
    struct stat st;
    g_assert_cmpint(stat(p, &st), ==, 0);
    g_assert_cmpint(st.st_mode & 0777, ==, 0640); /* the mode is kept */
    /* Discarded: the previous file stays, no temporary file is left. */
    o = nx_output_open("-o", p, &err);
    fputs("lost", nx_output_stream(o));
    nx_output_discard(o);
    g_assert_true(g_file_get_contents(p, &now, NULL, NULL));
    g_assert_cmpstr(now, ==, "new contents");
    g_free(now);
    GDir *d = g_dir_open(tmpdir, 0, NULL);
    for (const char *n; (n = g_dir_read_name(d));)
        g_assert_false(g_str_has_prefix(n, ".out.txt."));
    g_dir_close(d);
}

static void test_output_in_place(void)
{
    g_autofree char *null = tmp_path("null-link");
    g_autofree char *full = tmp_path("full-link");
    GError *err = NULL;
    g_assert_cmpint(symlink("/dev/null", null), ==, 0);
    g_assert_cmpint(symlink("/dev/full", full), ==, 0);
    g_assert_true(nx_file_write("-o", null, "x", 1, &err));
    g_assert_no_error(err);
    struct stat st;
    g_assert_cmpint(lstat(null, &st), ==, 0);
    g_assert_true(S_ISLNK(st.st_mode)); /* written through, not replaced */
    /* A full device: the write error comes back from commit. */
    g_assert_false(nx_file_write("-D", full, "x", 1, &err));
    g_autofree char *want =
        g_strdup_printf("-D: %s: write failed: No space left on device", full);
    g_assert_error(err, NX_ERROR, NX_ERROR_OUTPUT);
    g_assert_cmpstr(err->message, ==, want);
    g_clear_error(&err);
    g_assert_cmpint(lstat(full, &st), ==, 0);
    g_assert_true(S_ISLNK(st.st_mode));
}

static void test_output_refusals(void)
{
    g_autofree char *nodir = tmp_path("no-such-dir/x");
    GError *err = NULL;
    g_assert_null(nx_output_open("-coverage", tmpdir, &err));
    g_assert_error(err, NX_ERROR, NX_ERROR_USAGE);
    g_assert_true(g_str_has_suffix(err->message, ": is a directory"));
    g_clear_error(&err);
    g_assert_false(nx_output_check("-coverage", tmpdir, &err));
    g_assert_true(g_str_has_suffix(err->message, ": is a directory"));
    g_clear_error(&err);
    g_assert_false(nx_output_check("-coverage", nodir, &err));
    g_assert_true(g_str_has_suffix(err->message, ": cannot create: No such file or directory"));
    g_clear_error(&err);
    g_assert_true(nx_output_check("-o", "/dev/null", &err));
    g_autofree char *fresh = tmp_path("fresh.json");
    g_assert_true(nx_output_check("-o", fresh, &err));
    g_assert_false(g_file_test(fresh, G_FILE_TEST_EXISTS)); /* nothing created */
    g_assert_null(nx_output_open("-coverage", nodir, &err));
    g_autofree char *want =
        g_strdup_printf("-coverage: %s: cannot create: No such file or directory", nodir);
    g_assert_cmpstr(err->message, ==, want);
    g_clear_error(&err);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    tmpdir = g_dir_make_tmp("nxemu-file-io-XXXXXX", NULL);
    g_assert_nonnull(tmpdir);
    g_test_add_func("/file-io/read-regular", test_read_regular);
    g_test_add_func("/file-io/read-refusals", test_read_refusals);
    g_test_add_func("/file-io/output-atomic", test_output_atomic);
    g_test_add_func("/file-io/output-in-place", test_output_in_place);
    g_test_add_func("/file-io/output-refusals", test_output_refusals);
    int rc = g_test_run();
    g_autofree char *cmd = g_strdup_printf("rm -rf '%s'", tmpdir);
    if (system(cmd) != 0)
        rc = rc ? rc : 1;
    g_free(tmpdir);
    return rc;
}
