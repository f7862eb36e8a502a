/*
 * nxemu-as [-t seq|tpc] [--raw] [-g] -o OUT IN
 * nxemu-as --version
 * Assembles sequencer (default) or TPC source into an ELF or raw image.
 * Errors are `file:line:col: error: text` on stderr, exit status 1.
 * -g adds a DWARF line table and, inline in .debug_gdb_scripts,
 * scripts/nxemu-gdb.py as built with this nxemu-as (docs/gdb.rst, "Source
 * lines"); the loaded bytes do not change.
 */
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "nxemu-version.h"
#include "nxemu/dwarf-line.h"
#include "target/seq/seq-tools.h"
#include "target/tpc/tpc-tools.h"

/* scripts/nxemu-gdb.py (scripts/bin2c.py at build time) */
extern const uint8_t nxemu_gdb_py[];
extern const size_t nxemu_gdb_py_len;

int main(int argc, char **argv)
{
    gchar *target = NULL, *out = NULL;
    gboolean raw = FALSE, version = FALSE, debug = FALSE;
    GOptionEntry entries[] = {
        {"target", 't', 0, G_OPTION_ARG_STRING, &target, "seq (default) or tpc", "T"},
        {"raw", 0, 0, G_OPTION_ARG_NONE, &raw, "write raw bytes (.text only) instead of ELF", NULL},
        {"debug", 'g', 0, G_OPTION_ARG_NONE, &debug,
         "add source line information and gdb's nxemu script (ELF output)", NULL},
        {"output", 'o', 0, G_OPTION_ARG_FILENAME, &out, "output file", "OUT"},
        {"version", 0, 0, G_OPTION_ARG_NONE, &version, "print the version and exit", NULL},
        {NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    GOptionContext *ctx = g_option_context_new("IN - nxemu assembler");
    GError *err = NULL;
    g_option_context_add_main_entries(ctx, entries, NULL);
    if (!g_option_context_parse(ctx, &argc, &argv, &err)) {
        fprintf(stderr, "nxemu-as: %s\n", err->message);
        g_error_free(err);
        g_option_context_free(ctx);
        return 2;
    }
    g_option_context_free(ctx);
    int rc = 2;
    NxAsmDebug dbg = {.lines = debug,
                      .script_name = "nxemu-gdb.py",
                      .script = nxemu_gdb_py,
                      .script_len = nxemu_gdb_py_len};
    if (version) {
        fputs(NXEMU_VERSION_LINE("nxemu-as"), stdout);
        rc = 0;
    } else if (!out || argc != 2) {
        fprintf(stderr, "usage: nxemu-as [-t seq|tpc] [--raw] [-g] -o OUT IN\n");
    } else if (!target || strcmp(target, "seq") == 0) {
        rc = seq_assemble_file_debug(argv[1], out, raw, &dbg);
    } else if (strcmp(target, "tpc") == 0) {
        rc = tpc_assemble_file_debug(argv[1], out, raw, &dbg);
    } else {
        fprintf(stderr, "nxemu-as: unknown target '%s' (seq or tpc)\n", target);
    }
    g_free(target);
    g_free(out);
    return rc;
}
