/*
 * Without libFuzzer (a normal build): run a fuzz target once per file named
 * on the command line, directories meaning every file in them (sorted), as
 * `fuzz-NAME CORPUS_DIR...` does with libFuzzer and -runs=0.  `make check`
 * replays the in-tree corpora and crash regressions this way.  Exit status
 * 0, or 1 when a file cannot be read; a bug shows as a crash or a
 * sanitizer report (the sanitizer builds run this too).
 */
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "fuzz.h"

static int run_file(const char *path)
{
    gchar *data = NULL;
    gsize len = 0;
    GError *err = NULL;
    if (!g_file_get_contents(path, &data, &len, &err)) {
        fprintf(stderr, "%s\n", err->message);
        g_error_free(err);
        return 1;
    }
    LLVMFuzzerTestOneInput((const uint8_t *)data, len);
    g_free(data);
    return 0;
}

static gint cmp_str(gconstpointer a, gconstpointer b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
    unsigned n = 0;
    int rc = 0;
    for (int i = 1; i < argc; i++) {
        if (!g_file_test(argv[i], G_FILE_TEST_IS_DIR)) {
            rc |= run_file(argv[i]);
            n++;
            continue;
        }
        GDir *d = g_dir_open(argv[i], 0, NULL);
        GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
        const char *e;
        while (d && (e = g_dir_read_name(d))) {
            g_ptr_array_add(names, g_build_filename(argv[i], e, NULL));
        }
        if (d) {
            g_dir_close(d);
        }
        g_ptr_array_sort(names, cmp_str);
        for (guint k = 0; k < names->len; k++) {
            rc |= run_file(g_ptr_array_index(names, k));
            n++;
        }
        g_ptr_array_unref(names);
    }
    printf("%s: %u inputs\n", argv[0], n);
    return rc;
}
