/*
 * nxemu-objdump for the sequencer: prints an ELF or raw record stream as
 * assembly that nxemu-as turns back into the same bytes (sequencer.md
 * §11.4): sections and `.org` lines, symbols as labels (with a `.type` line
 * when the symbol's type is not its section's default), one record per line
 * with its address in a comment, data segments as `.byte` lines.
 */
#include <elf.h>
#include <inttypes.h>
#include <string.h>

#include "asm.h"
#include "seq-tools.h"
#include "softmmu/elf.h"

typedef struct Sym {
    uint64_t value;
    const char *name;
    unsigned type; /* STT_* */
    bool printed;
} Sym;

static gint sym_cmp(gconstpointer a, gconstpointer b)
{
    const Sym *x = a, *y = b;
    if (x->value != y->value) {
        return x->value < y->value ? -1 : 1;
    }
    return strcmp(x->name, y->name);
}

/* Can nxemu-as read this name back as a label? */
static bool label_ok(const char *n)
{
    size_t len = strlen(n);
    if (len == 0 || len >= 128 || !(g_ascii_isalpha(n[0]) || n[0] == '_' || n[0] == '$')) {
        return false;
    }
    for (size_t i = 0; i < len; i++) {
        if (!g_ascii_isalnum(n[i]) && !strchr("_.$", n[i])) {
            return false;
        }
    }
    return !seq_asm_is_reg_name(n);
}

/* Print the labels whose value is in [lo, hi) and that were not printed;
 * text: in .text, where a label is STT_NOTYPE by default (.data: OBJECT). */
static void labels_in(GArray *syms, uint64_t lo, uint64_t hi, bool text, FILE *out)
{
    static const char *const type_name[] = {
        [STT_NOTYPE] = "notype", [STT_OBJECT] = "object", [STT_FUNC] = "function"};
    for (guint i = 0; i < syms->len; i++) {
        Sym *s = &g_array_index(syms, Sym, i);
        if (s->printed || s->value < lo || s->value >= hi) {
            continue;
        }
        s->printed = true;
        if (label_ok(s->name)) {
            if (s->type != (text ? STT_NOTYPE : STT_OBJECT) && (text || s->type != STT_FUNC)) {
                fprintf(out, "        .type %s, @%s\n", s->name, type_name[s->type]);
            }
            fprintf(out, "%s:\n", s->name);
        } else {
            fprintf(out, "; symbol %s = 0x%" PRIx64 "\n", s->name, s->value);
        }
    }
}

static void dump_text(const uint8_t *p, uint64_t len, uint64_t addr, GArray *syms, FILE *out)
{
    GString *s = g_string_sized_new(256);
    uint64_t off = 0;
    fprintf(out, "        .text\n        .org 0x%" PRIx64 "\n", addr);
    for (; off + 64 <= len; off += 64) {
        labels_in(syms, addr + off, addr + off + 1, true, out);
        g_string_truncate(s, 0);
        seq_disas_insn(p + off, addr + off, s);
        fprintf(out, "        %-60s ; %08" PRIx64 "\n", s->str, addr + off);
    }
    /* A trailing partial record (raw input only) is plain bytes. */
    if (off < len) {
        labels_in(syms, addr + off, addr + off + 1, true, out);
        fprintf(out, "        .byte");
        for (uint64_t i = off; i < len; i++) {
            fprintf(out, "%s0x%02x", i == off ? " " : ", ", p[i]);
        }
        fprintf(out, "\n");
    }
    labels_in(syms, addr + len, addr + len + 1, true, out);
    g_string_free(s, TRUE);
}

static void dump_data(const uint8_t *p, uint64_t len, uint64_t addr, GArray *syms, FILE *out)
{
    fprintf(out, "        .data\n        .org 0x%" PRIx64 "\n", addr);
    uint64_t off = 0;
    while (off < len) {
        labels_in(syms, addr + off, addr + off + 1, false, out);
        /* A line ends at 16 bytes or before the next label. */
        uint64_t end = MIN(len, off + 16);
        for (guint i = 0; i < syms->len; i++) {
            uint64_t v = g_array_index(syms, Sym, i).value;
            if (v > addr + off && v < addr + end) {
                end = v - addr;
            }
        }
        fprintf(out, "        .byte");
        for (uint64_t i = off; i < end; i++) {
            fprintf(out, "%s0x%02x", i == off ? " " : ", ", p[i]);
        }
        fprintf(out, "\n");
        off = end;
    }
    labels_in(syms, addr + len, addr + len + 1, false, out);
}

static GArray *elf_symbols(const ElfFile *ef)
{
    GArray *syms = g_array_new(FALSE, FALSE, sizeof(Sym));
    for (unsigned i = 1; i < ef->shnum; i++) {
        const Elf64_Shdr *sh = &ef->sh[i];
        if (sh->sh_type != SHT_SYMTAB || sh->sh_link >= ef->shnum) {
            continue;
        }
        const Elf64_Shdr *st = &ef->sh[sh->sh_link];
        const char *strs = (const char *)ef->data + st->sh_offset;
        for (uint64_t k = 1; k < sh->sh_size / sizeof(Elf64_Sym); k++) {
            Elf64_Sym e;
            memcpy(&e, ef->data + sh->sh_offset + k * sizeof(e), sizeof(e));
            unsigned type = ELF64_ST_TYPE(e.st_info);
            if ((type != STT_FUNC && type != STT_OBJECT && type != STT_NOTYPE) ||
                e.st_name >= st->sh_size || !strs[e.st_name] ||
                memchr(strs + e.st_name, 0, st->sh_size - e.st_name) == NULL) {
                continue;
            }
            Sym s = {e.st_value, strs + e.st_name, type, false};
            g_array_append_val(syms, s);
        }
    }
    g_array_sort(syms, sym_cmp);
    return syms;
}

int seq_objdump_buffer(const char *path, const uint8_t *data, size_t len, bool raw, uint64_t base,
                       FILE *out)
{
    if (raw) {
        GArray *none = g_array_new(FALSE, FALSE, sizeof(Sym));
        fprintf(out, "; %s: raw nxseq records at 0x%" PRIx64 "\n", path, base);
        dump_text(data, len, base, none, out);
        g_array_free(none, TRUE);
        return 0;
    }
    ElfFile ef;
    GError *err = NULL;
    if (!elf_parse(&ef, path, 0, "", data, len, &err)) {
        fprintf(stderr, "nxemu-objdump: %s\n", err->message);
        g_error_free(err);
        return 1;
    }
    if (ef.cls != ELFCLASS64 || ef.machine != EM_NXSEQ) {
        fprintf(stderr, "nxemu-objdump: %s: not a sequencer ELF64 (e_machine 0x%x)\n", path,
                ef.machine);
        elf_free(&ef);
        return 1;
    }
    if (!elf_check_load_segments(&ef, &err)) {
        fprintf(stderr, "nxemu-objdump: %s\n", err->message);
        g_error_free(err);
        elf_free(&ef);
        return 1;
    }
    GArray *syms = elf_symbols(&ef);
    fprintf(out, "; %s: file format elf64-nxseq, entry 0x%" PRIx64 "\n", path, ef.entry);
    for (unsigned i = 0; i < ef.phnum; i++) {
        const Elf64_Phdr *ph = &ef.ph[i];
        if (ph->p_type != PT_LOAD || ph->p_filesz == 0) {
            continue;
        }
        if (ph->p_flags & PF_X) {
            dump_text(data + ph->p_offset, ph->p_filesz, ph->p_paddr, syms, out);
        } else {
            dump_data(data + ph->p_offset, ph->p_filesz, ph->p_paddr, syms, out);
        }
    }
    g_array_free(syms, TRUE);
    elf_free(&ef);
    return 0;
}
