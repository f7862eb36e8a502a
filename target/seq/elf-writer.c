/*
 * ELF64 writer for assembled sequencer programs (machine.md §11.2,
 * sequencer.md §11.1): one PT_LOAD per segment (.text PF_R|PF_X, .data
 * PF_R|PF_W), a section per segment, and .symtab/.strtab with the labels
 * (their type and size chosen by the assembler: STT_FUNC only for a
 * `.type NAME, @function` label, which pseudo calls resolve to), and with
 * `nxemu-as -g` the debug sections (not loaded) between the two.
 */
#include <elf.h>
#include <stdio.h>
#include <string.h>

#include "nxemu/dwarf-line.h"
#include "nxemu/file-io.h"
#include "asm.h"
#include "nxemu/error.h"

#define EM_NXSEQ_VALUE 0x4E58
#define NXSEQ_FLAGS    2

static void pad_to(GByteArray *b, size_t align, size_t rem)
{
    static const uint8_t zero[64];
    while (b->len % align != rem % align) {
        size_t n = (align + rem % align - b->len % align) % align;
        g_byte_array_append(b, zero, (guint)MIN(n, sizeof(zero)));
    }
}

static uint32_t add_str(GByteArray *tab, const char *s)
{
    uint32_t off = tab->len;
    g_byte_array_append(tab, (const uint8_t *)s, (guint)strlen(s) + 1);
    return off;
}

bool seq_elf_write(const char *path, const SeqSegment *segs, unsigned nr_segs,
                   const SeqSymbol *syms, unsigned nr_syms, uint64_t entry, const GArray *debug,
                   GError **err)
{
    unsigned ndebug = debug ? debug->len : 0;
    GByteArray *f = g_byte_array_new();
    GByteArray *shstr = g_byte_array_new(), *str = g_byte_array_new(), *sym = g_byte_array_new();
    /* null, segments, debug sections, .symtab, .strtab, .shstrtab */
    unsigned nsec = nr_segs + ndebug + 4;
    Elf64_Shdr *sh = g_new0(Elf64_Shdr, nsec);
    Elf64_Phdr *ph = g_new0(Elf64_Phdr, nr_segs + 1);
    Elf64_Ehdr eh;
    unsigned ntext = 0, ndata = 0;

    add_str(shstr, "");
    add_str(str, "");
    g_byte_array_set_size(f, (guint)(sizeof(Elf64_Ehdr) + nr_segs * sizeof(Elf64_Phdr)));
    for (unsigned i = 0; i < nr_segs; i++) {
        const SeqSegment *s = &segs[i];
        char name[32];
        unsigned *cnt = s->exec ? &ntext : &ndata;
        if (*cnt) {
            snprintf(name, sizeof(name), "%s.%u", s->exec ? ".text" : ".data", *cnt);
        } else {
            snprintf(name, sizeof(name), "%s", s->exec ? ".text" : ".data");
        }
        (*cnt)++;
        /* File offset congruent to the address modulo 64 (p_align). */
        pad_to(f, 64, (size_t)(s->addr % 64));
        ph[i] = (Elf64_Phdr){.p_type = PT_LOAD,
                             .p_flags = s->exec ? PF_R | PF_X : PF_R | PF_W,
                             .p_offset = f->len,
                             .p_vaddr = s->addr,
                             .p_paddr = s->addr,
                             .p_filesz = s->bytes->len,
                             .p_memsz = s->bytes->len,
                             .p_align = 64};
        sh[i + 1] = (Elf64_Shdr){.sh_name = add_str(shstr, name),
                                 .sh_type = SHT_PROGBITS,
                                 .sh_flags = SHF_ALLOC | (s->exec ? SHF_EXECINSTR : SHF_WRITE),
                                 .sh_addr = s->addr,
                                 .sh_offset = f->len,
                                 .sh_size = s->bytes->len,
                                 .sh_addralign = s->exec ? 64 : 1};
        g_byte_array_append(f, s->bytes->data, s->bytes->len);
    }
    for (unsigned i = 0; i < ndebug; i++) {
        const NxDebugSection *d = &g_array_index(debug, NxDebugSection, i);
        sh[nr_segs + 1 + i] = (Elf64_Shdr){.sh_name = add_str(shstr, d->name),
                                           .sh_type = SHT_PROGBITS,
                                           .sh_offset = f->len,
                                           .sh_size = d->data->len,
                                           .sh_addralign = 1};
        g_byte_array_append(f, d->data->data, d->data->len);
    }
    /* Symbols: the null symbol, then the labels (all global). */
    Elf64_Sym z = {0};
    g_byte_array_append(sym, (const uint8_t *)&z, sizeof(z));
    for (unsigned i = 0; i < nr_syms; i++) {
        Elf64_Sym s = {
            .st_name = add_str(str, syms[i].name),
            .st_info = ELF64_ST_INFO(STB_GLOBAL, syms[i].type),
            .st_shndx = syms[i].seg >= 0 ? (Elf64_Section)(syms[i].seg + 1) : SHN_ABS,
            .st_value = syms[i].value,
            .st_size = syms[i].size,
        };
        g_byte_array_append(sym, (const uint8_t *)&s, sizeof(s));
    }
    unsigned isym = nr_segs + ndebug + 1, istr = isym + 1, ishstr = isym + 2;
    pad_to(f, 8, 0);
    sh[isym] = (Elf64_Shdr){.sh_name = add_str(shstr, ".symtab"),
                            .sh_type = SHT_SYMTAB,
                            .sh_offset = f->len,
                            .sh_size = sym->len,
                            .sh_link = istr,
                            .sh_info = 1,
                            .sh_addralign = 8,
                            .sh_entsize = sizeof(Elf64_Sym)};
    g_byte_array_append(f, sym->data, sym->len);
    sh[istr] = (Elf64_Shdr){.sh_name = add_str(shstr, ".strtab"),
                            .sh_type = SHT_STRTAB,
                            .sh_offset = f->len,
                            .sh_size = str->len,
                            .sh_addralign = 1};
    g_byte_array_append(f, str->data, str->len);
    sh[ishstr].sh_name = add_str(shstr, ".shstrtab");
    sh[ishstr] = (Elf64_Shdr){.sh_name = sh[ishstr].sh_name,
                              .sh_type = SHT_STRTAB,
                              .sh_offset = f->len,
                              .sh_size = shstr->len,
                              .sh_addralign = 1};
    g_byte_array_append(f, shstr->data, shstr->len);
    pad_to(f, 8, 0);
    uint64_t shoff = f->len;
    g_byte_array_append(f, (const uint8_t *)sh, (guint)(nsec * sizeof(Elf64_Shdr)));

    memset(&eh, 0, sizeof(eh));
    memcpy(eh.e_ident, ELFMAG, SELFMAG);
    eh.e_ident[EI_CLASS] = ELFCLASS64;
    eh.e_ident[EI_DATA] = ELFDATA2LSB;
    eh.e_ident[EI_VERSION] = EV_CURRENT;
    eh.e_ident[EI_OSABI] = ELFOSABI_NONE;
    eh.e_type = ET_EXEC;
    eh.e_machine = EM_NXSEQ_VALUE;
    eh.e_version = EV_CURRENT;
    eh.e_entry = entry;
    eh.e_phoff = nr_segs ? sizeof(Elf64_Ehdr) : 0;
    eh.e_shoff = shoff;
    eh.e_flags = NXSEQ_FLAGS;
    eh.e_ehsize = sizeof(Elf64_Ehdr);
    eh.e_phentsize = sizeof(Elf64_Phdr);
    eh.e_phnum = (Elf64_Half)nr_segs;
    eh.e_shentsize = sizeof(Elf64_Shdr);
    eh.e_shnum = (Elf64_Half)nsec;
    eh.e_shstrndx = (Elf64_Half)ishstr;
    memcpy(f->data, &eh, sizeof(eh));
    memcpy(f->data + sizeof(eh), ph, nr_segs * sizeof(Elf64_Phdr));

    bool ok = nx_file_write(NULL, path, f->data, f->len, err);
    g_byte_array_free(f, TRUE);
    g_byte_array_free(shstr, TRUE);
    g_byte_array_free(str, TRUE);
    g_byte_array_free(sym, TRUE);
    g_free(sh);
    g_free(ph);
    return ok;
}
