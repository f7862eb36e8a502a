/*
 * nxemu-test's readers (tools/nxemu-test-manifest.c, nxemu-test-json.c,
 * nxemu-test-shard.c): the first byte picks
 *   0  a manifest (key file of [suite]/[case NAME] groups), loaded as
 *      nxemu-test loads one named on its command line (nothing is run)
 *   1  a --json report read back for --failed-from/--cost-from
 *   2  JSON text for the parser itself
 *   3  a --shard I/N specification
 */
#include "fuzz.h"

#include "tools/nxemu-test.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > FUZZ_MAX_INPUT) {
        return 0;
    }
    GError *err = NULL;
    const uint8_t *p = data + 1;
    size_t n = size - 1;
    switch (data[0] & 3) {
    case 0:
    case 1: {
        FuzzFile f;
        if (!fuzz_file_open(&f, p, n)) {
            return 0;
        }
        if (data[0] & 1) {
            GHashTable *h = nt_read_report(f.path, &err);
            if (h) {
                g_hash_table_unref(h);
            }
        } else {
            NtSettings set = {.nxemu = "/bin/true", .self_dir = "/nonexistent",
                              .default_timeout = 10};
            GPtrArray *cases = g_ptr_array_new_with_free_func((GDestroyNotify)nt_case_free);
            nt_load_input(f.path, &set, cases, &err);
            g_ptr_array_unref(cases);
        }
        fuzz_file_close(&f);
        break;
    }
    case 2: {
        char *text = g_strndup((const char *)p, n);
        nt_json_free(nt_json_parse(text, "fuzz.json", &err));
        g_free(text);
        break;
    }
    default: {
        char *text = g_strndup((const char *)p, n);
        unsigned idx, count;
        nt_parse_shard(text, &idx, &count, &err);
        g_free(text);
        break;
    }
    }
    g_clear_error(&err);
    return 0;
}
