/*
 * TPC side of nxemu-as (-t tpc) and nxemu-objdump (TPC ELF32 input).
 * Errors are `file:line:col: error: ...` (assembler) or one line naming the
 * file and what is wrong with it (objdump); both return 1 on error.
 */
#include <string.h>

#include "target/tpc/asm.h"
#include "nxemu/file-io.h"
#include "target/tpc/tpc-tools.h"

int tpc_assemble_file(const char *src, const char *out, bool raw)
{
    return tpc_assemble_file_debug(src, out, raw, NULL);
}

/* -g: the debug sections go after the object's other extra sections; the
 * loader and nxemu-objdump skip sections they do not know. */
static void add_debug_sections(TpcObject *obj, const char *src, const NxAsmDebug *dbg)
{
    const char *files[] = {src};
    GArray *d = nx_dwarf_sections(dbg, 4, files, 1, (const NxLineRow *)(void *)obj->lines->data,
                                  obj->lines->len);
    for (guint i = 0; i < d->len; i++) {
        NxDebugSection *ds = &g_array_index(d, NxDebugSection, i);
        TpcSection *s = g_new0(TpcSection, 1);
        s->name = g_strdup(ds->name);
        s->data = ds->data;
        ds->data = NULL;
        g_ptr_array_add(obj->extra, s);
    }
    g_array_free(d, TRUE);
}

int tpc_assemble_file_debug(const char *src, const char *out, bool raw, const NxAsmDebug *dbg)
{
    char *text = NULL;
    size_t len = 0;
    GError *err = NULL;
    TpcObject obj;
    int rc = 1;

    if (!nx_file_read(NULL, src, NX_FILE_TEXT, &text, &len, &err)) {
        fprintf(stderr, "nxemu-as: %s\n", err->message);
        g_error_free(err);
        return 1;
    }
    if (memchr(text, 0, len)) {
        fprintf(stderr, "%s:1:1: error: the source contains a NUL byte\n", src);
        g_free(text);
        return 1;
    }
    tpc_object_init(&obj);
    if (tpc_assemble_text(src, text, &obj, stderr)) {
        if (!raw && dbg && dbg->lines)
            add_debug_sections(&obj, src, dbg);
        GByteArray *bytes = raw ? NULL : tpc_elf32_write(&obj);
        const guint8 *data = raw ? obj.text->data : bytes->data;
        gsize n = raw ? obj.text->len : bytes->len;
        if (!nx_file_write(NULL, out, data, n, &err)) {
            fprintf(stderr, "nxemu-as: %s\n", err->message);
            g_error_free(err);
        } else {
            rc = 0;
        }
        if (bytes)
            g_byte_array_free(bytes, TRUE);
    }
    tpc_object_free(&obj);
    g_free(text);
    return rc;
}

/* ---- ELF32 reading (bounds-checked: bad files give one error line) ---- */

static uint32_t r32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint16_t r16(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

typedef struct Sec {
    const char *name;
    uint32_t type, offset, size, link;
} Sec;

static bool in_file(size_t len, uint64_t off, uint64_t size)
{
    return off <= len && size <= len - off;
}

static const char *str_at(const uint8_t *data, size_t len, const Sec *tab, uint32_t off)
{
    if (!tab || off >= tab->size)
        return NULL;
    const char *s = (const char *)data + tab->offset + off;
    if (!memchr(s, 0, tab->size - off))
        return NULL;
    return s;
}

static int objdump_elf(const char *path, const uint8_t *d, size_t len, bool leading_addr,
                       FILE *out)
{
    if (len < 52 || memcmp(d,
                           "\x7f"
                           "ELF",
                           4) != 0) {
        fprintf(stderr, "nxemu-objdump: %s: not an ELF file\n", path);
        return 1;
    }
    if (d[4] != 1 || d[5] != 1) {
        fprintf(stderr,
                "nxemu-objdump: %s: not a little-endian ELF32 file (TPC kernels are ELF32)\n",
                path);
        return 1;
    }
    if (r16(d + 18) != 3) {
        fprintf(stderr, "nxemu-objdump: %s: e_machine %u is not a TPC kernel (expected 3)\n", path,
                r16(d + 18));
        return 1;
    }
    uint32_t shoff = r32(d + 32);
    uint16_t shentsize = r16(d + 46), shnum = r16(d + 48), shstrndx = r16(d + 50);
    if (shentsize != 40 || !in_file(len, shoff, (uint64_t)shnum * 40) || shstrndx >= shnum) {
        fprintf(stderr, "nxemu-objdump: %s: bad section header table\n", path);
        return 1;
    }
    Sec *secs = g_new0(Sec, shnum ? shnum : 1);
    int rc = 1;
    for (unsigned i = 0; i < shnum; i++) {
        const uint8_t *h = d + shoff + 40 * i;
        secs[i].type = r32(h + 4);
        secs[i].offset = r32(h + 16);
        secs[i].size = r32(h + 20);
        secs[i].link = r32(h + 24);
        if (secs[i].type != 8 /* NOBITS */ && !in_file(len, secs[i].offset, secs[i].size)) {
            fprintf(stderr, "nxemu-objdump: %s: section %u lies outside the file\n", path, i);
            goto out;
        }
    }
    for (unsigned i = 0; i < shnum; i++) {
        const uint8_t *h = d + shoff + 40 * i;
        secs[i].name = str_at(d, len, &secs[shstrndx], r32(h));
        if (!secs[i].name)
            secs[i].name = "";
    }
    const Sec *text = NULL, *md = NULL, *symtab = NULL;
    for (unsigned i = 0; i < shnum; i++) {
        if (!strcmp(secs[i].name, ".text"))
            text = &secs[i];
        else if (!strcmp(secs[i].name, ".tpc_metadata"))
            md = &secs[i];
        else if (secs[i].type == 2)
            symtab = &secs[i];
    }
    if (!text) {
        fprintf(stderr, "nxemu-objdump: %s: no .text section\n", path);
        goto out;
    }
    if (text->size % TPC_BUNDLE_BYTES) {
        fprintf(stderr, "nxemu-objdump: %s: .text size %u is not a multiple of 32\n", path,
                text->size);
        goto out;
    }
    GArray *syms = g_array_new(FALSE, TRUE, sizeof(TpcSym));
    unsigned text_idx = (unsigned)(text - secs);
    if (symtab && symtab->link < shnum) {
        const Sec *strs = &secs[symtab->link];
        for (uint32_t off = 16; off + 16 <= symtab->size; off += 16) {
            const uint8_t *e = d + symtab->offset + off;
            unsigned type = e[12] & 0xf;
            if (r16(e + 14) != text_idx || type == 3 /* STT_SECTION */ || type == 4)
                continue;
            const char *n = str_at(d, len, strs, r32(e));
            if (!n || !*n)
                continue;
            TpcSym s = {(char *)n, r32(e + 4), (e[12] >> 4) != 0};
            g_array_append_val(syms, s);
        }
    }
    GString *o = g_string_new(NULL);
    g_string_append_printf(o, "\n%s:\tfile format elf32-tpc\n\n\nDisassembly of section .text:\n",
                           path);
    tpc_disas_text(o, d + text->offset, text->size, (const TpcSym *)(void *)syms->data, syms->len,
                   leading_addr);
    if (md && md->size >= TPC_METADATA_SIZE) {
        g_string_append_c(o, '\n');
        tpc_disas_metadata(o, d + md->offset, md->size);
    }
    fputs(o->str, out);
    g_string_free(o, TRUE);
    g_array_free(syms, TRUE);
    rc = 0;
out:
    g_free(secs);
    return rc;
}

int tpc_objdump_buffer(const char *path, const uint8_t *data, size_t len, bool raw,
                       bool leading_addr, FILE *out)
{
    if (!raw)
        return objdump_elf(path, data, len, leading_addr, out);
    if (len % TPC_BUNDLE_BYTES) {
        fprintf(stderr, "nxemu-objdump: %s: size %zu is not a multiple of 32-byte TPC bundles\n",
                path, len);
        return 1;
    }
    GString *o = g_string_new(NULL);
    tpc_disas_text(o, data, len, NULL, 0, leading_addr);
    fputs(o->str, out);
    g_string_free(o, TRUE);
    return 0;
}
