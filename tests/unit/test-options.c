/* Command-line values as QEMU reads them (softmmu/size.c, softmmu/options.c). */
#include <glib.h>

#include "softmmu/options.h"

typedef struct SizeCase {
    const char *in;
    bool ok;
    uint64_t bytes; /* nx_parse_size */
    uint64_t mib;   /* nx_parse_size_mib */
} SizeCase;

/* Expected values worked out by hand from QEMU's qemu_strtosz and -m rules. */
static const SizeCase size_cases[] = {
    {"1024", true, 1024, 1024ull * 1048576},       /* plain number: bytes / MiB */
    {"0x400", true, 1024, 1024ull * 1048576},      /* hex, last char a digit: MiB for -m */
    {"0x40B", true, 0x40B, 0x40B},                 /* 'B' is a hex digit: bytes */
    {"512M", true, 536870912, 536870912},          /* 512 * 2^20 */
    {"512m", true, 536870912, 536870912},          /* suffixes in either case */
    {"1G", true, 1073741824, 1073741824},
    {"1g", true, 1073741824, 1073741824},
    {"64G", true, 68719476736ull, 68719476736ull}, /* 64 * 2^30 */
    {"1048576k", true, 1073741824, 1073741824},    /* 2^20 * 2^10 */
    {"2T", true, 2199023255552ull, 2199023255552ull},
    {"1P", true, 1125899906842624ull, 1125899906842624ull},
    {"1E", true, 1152921504606846976ull, 1152921504606846976ull},
    {"4096B", true, 4096, 4096},
    {"1.5G", true, 1610612736, 1610612736},        /* 1.5 * 2^30 */
    {"0.5M", true, 524288, 524288},
    {"1.1K", true, 1126, 1126},                    /* 1126.4 rounds down */
    {"1.9K", true, 1946, 1946},                    /* 1945.6 rounds up */
    {"1.5", false, 0, 0},                          /* a fraction needs a scale */
    {"1.5B", false, 0, 0},
    {"0x10M", false, 0, 0},                        /* hex takes no suffix */
    {"0x1.8", false, 0, 0},
    {"16E", false, 0, 0},                          /* 2^64: overflow */
    {"16MB", false, 0, 0},
    {"-1", false, 0, 0},
    {" 1", false, 0, 0},
    {"", false, 0, 0},
    {"M", false, 0, 0},
    {"0x", false, 0, 0},
    {"1X", false, 0, 0},
};

static void test_sizes(void)
{
    for (size_t i = 0; i < G_N_ELEMENTS(size_cases); i++) {
        const SizeCase *c = &size_cases[i];
        uint64_t b = 7, m = 7;
        g_test_message("%s", c->in);
        g_assert_cmpint(nx_parse_size(c->in, &b), ==, c->ok);
        g_assert_cmpint(nx_parse_size_mib(c->in, &m), ==, c->ok);
        if (c->ok) {
            g_assert_cmpuint(b, ==, c->bytes);
            g_assert_cmpuint(m, ==, c->mib);
        }
    }
    /* 2^44 MiB = 2^64 bytes: the MiB scaling overflows */
    uint64_t v;
    g_assert_true(nx_parse_size("17592186044416", &v));
    g_assert_false(nx_parse_size_mib("17592186044416", &v));
}

static void test_memory_option(void)
{
    struct {
        const char *arg;
        uint64_t hbm;
    } ok[] = {
        {"1024", 1ull << 30}, {"size=512M", 512ull << 20}, {"size=2048", 2ull << 30}, {"1.5G", 3ull << 29}};
    for (size_t i = 0; i < G_N_ELEMENTS(ok); i++) {
        NxOptions o;
        GError *err = NULL;
        char *argv[] = {"nxemu", "-m", (char *)ok[i].arg, NULL};
        g_assert_true(nx_options_parse(&o, 3, argv, &err));
        g_assert_no_error(err);
        g_assert_true(o.edits.has_hbm);
        g_assert_cmpuint(o.edits.hbm, ==, ok[i].hbm);
        nx_options_free(&o);
    }
    NxOptions o;
    GError *err = NULL;
    char *argv[] = {"nxemu", "-m", "slots=2", NULL};
    g_assert_false(nx_options_parse(&o, 3, argv, &err));
    g_assert_cmpstr(err->message, ==, "-m: slots: nc2 has no memory hotplug (only size=SIZE)");
    g_clear_error(&err);
    nx_options_free(&o);
    char *argv2[] = {"nxemu", "-M", "nc2,hbm=2048", NULL};
    g_assert_true(nx_options_parse(&o, 3, argv2, &err));
    g_assert_cmpuint(o.edits.hbm, ==, 2ull << 30);
    g_assert_cmpstr(o.edits.hbm_text, ==, "2048");
    nx_options_free(&o);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/options/sizes", test_sizes);
    g_test_add_func("/options/memory", test_memory_option);
    return g_test_run();
}
