/*
 * Both assemblers: the sequencer's (target/seq/asm*.c, nxemu-as) and the
 * TPC's (tpc_assemble_text, target/tpc/asm*.c).  The first byte picks:
 *   0, 1  sequencer source -> ELF (0) or raw .text (1), written to a
 *         temporary directory (`.include` is refused: it would read files)
 *   2     TPC source -> object; a good object is written as ELF32 and
 *         disassembled
 *   3     a 64-byte sequencer record: its canonical disassembly must
 *         reassemble to the same 64 bytes (the contract of seq_disas_insn,
 *         asm.h)
 */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>

#include "target/seq/asm.h"
#include "target/seq/seq-tools.h"
#include "target/tpc/asm.h"

static char *tmpdir, *out_path;
static FILE *devnull;

static void cleanup(void)
{
    g_unlink(out_path);
    g_rmdir(tmpdir);
}

static void init(void)
{
    tmpdir = g_dir_make_tmp("nxemu-fuzz-asm-XXXXXX", NULL);
    if (!tmpdir) {
        abort();
    }
    out_path = g_build_filename(tmpdir, "out", NULL);
    devnull = fopen("/dev/null", "w");
    atexit(cleanup);
}

static void seq_file(const uint8_t *data, size_t size, bool raw)
{
    if (g_strstr_len((const char *)data, (gssize)size, "include")) {
        return;
    }
    FuzzFile f;
    if (fuzz_file_open(&f, data, size)) {
        seq_assemble_file(f.path, out_path, raw);
        fuzz_file_close(&f);
    }
}

static void tpc_text(const uint8_t *data, size_t size)
{
    char *text = g_strndup((const char *)data, size);
    TpcObject obj;
    tpc_object_init(&obj);
    if (tpc_assemble_text("fuzz.s", text, &obj, devnull)) {
        GByteArray *elf = tpc_elf32_write(&obj);
        g_byte_array_unref(elf);
        GString *out = g_string_new(NULL);
        tpc_disas_text(out, obj.text->data, obj.text->len, (const TpcSym *)(void *)obj.syms->data,
                       obj.syms->len, true);
        g_string_free(out, TRUE);
    }
    tpc_object_free(&obj);
    g_free(text);
}

static void seq_roundtrip(const uint8_t *data, size_t size)
{
    if (size < 64) {
        return;
    }
    const uint64_t pc = 0x1000000;
    GString *txt = g_string_new(NULL), *err = g_string_new(NULL);
    uint8_t again[64];
    /* canonical text reassembles with the one-statement assembler; the
     * `.rec` fallback is a directive (the file assembler's) */
    if (seq_disas_insn(data, pc, txt) && (!seq_asm_insn_text(txt->str, pc, NULL, NULL, again, err) || memcmp(again, data, 64))) {
        fprintf(stderr, "fuzz-asm: '%s' does not reassemble to the record (%s)\n", txt->str,
                err->str);
        abort();
    }
    g_string_free(txt, TRUE);
    g_string_free(err, TRUE);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > FUZZ_MAX_INPUT) {
        return 0;
    }
    if (!tmpdir) {
        init();
    }
    switch (data[0] & 3) {
    case 0:
    case 1:
        seq_file(data + 1, size - 1, data[0] & 1);
        break;
    case 2:
        tpc_text(data + 1, size - 1);
        break;
    default:
        seq_roundtrip(data + 1, size - 1);
        break;
    }
    return 0;
}
