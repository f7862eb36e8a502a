/*
 * A small, careful ELF32/ELF64 little-endian reader for the loader
 * (machine.md §11.2, tpc.md §7.1).  It uses glibc's <elf.h> layouts but no
 * libelf: every header, table and section is range-checked once in
 * elf_parse so later code can index freely, and every error names the file
 * offset of the offending field.
 */
#ifndef NXEMU_SOFTMMU_ELF_H
#define NXEMU_SOFTMMU_ELF_H

#include <elf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <glib.h>

/* Sequencer ELF identification (machine.md §11.2). */
#define EM_NXSEQ        0x4E58
#define NXSEQ_ELF_FLAGS 2

typedef struct ElfFile {
    /* For messages: "<name>: offset 0x<base + off>: <ctx><reason>". */
    const char *name;
    uint64_t base; /* offset of the ELF image inside the named file (FIT payloads) */
    const char *ctx;
    const uint8_t *data;
    size_t size;

    unsigned cls; /* ELFCLASS32 or ELFCLASS64 */
    uint16_t type, machine;
    uint32_t flags;
    uint64_t entry;
    uint64_t phoff, shoff;
    unsigned phnum, shnum;
    unsigned phentsize, shentsize, shstrndx; /* as read, checked by elf_parse_tables */
    /* Both tables widened to the 64-bit layout, in host order. */
    Elf64_Phdr *ph;
    Elf64_Shdr *sh;
    const char *shstr; /* section name table, NULL if none */
    uint64_t shstr_size;
} ElfFile;

/* True if the buffer starts with the ELF magic. */
bool elf_is_elf(const uint8_t *data, size_t size);

/* Parse and validate the ELF header, program and section header tables, the
 * section name table, every section's file range and every symbol table's
 * layout.  `name`, `ctx` must outlive ef. */
bool elf_parse(ElfFile *ef, const char *name, uint64_t base, const char *ctx, const uint8_t *data,
               size_t size, GError **err);
/* The same in two steps, so the kind (class, machine, type) can be checked
 * from the header before the tables: a wrong-class file then gets "wrong
 * class" rather than a confusing table error. */
bool elf_parse_header(ElfFile *ef, const char *name, uint64_t base, const char *ctx,
                      const uint8_t *data, size_t size, GError **err);
bool elf_parse_tables(ElfFile *ef, GError **err);
void elf_free(ElfFile *ef);

/* Offset of an ELF header field (e_phoff, e_shstrndx, ...), for messages. */
#define ELF_EHDR_OFF(ef, field)                                                                    \
    ((ef)->cls == ELFCLASS64 ? offsetof(Elf64_Ehdr, field) : offsetof(Elf32_Ehdr, field))
/* Offset of program header i / section header i in the ELF image. */
uint64_t elf_phdr_off(const ElfFile *ef, unsigned i);
uint64_t elf_shdr_off(const ElfFile *ef, unsigned i);

/* Section name ("" when the file has no name table). */
const char *elf_section_name(const ElfFile *ef, unsigned i);
/* Index of the first section called `name`, or -1. */
int elf_find_section(const ElfFile *ef, const char *name);

/* Value of the STT_FUNC symbol `name` in any SHT_SYMTAB section. */
bool elf_find_func(const ElfFile *ef, const char *name, uint64_t *value);

/* Sets a load error "<name>: offset 0x..: <ctx><fmt>" with off relative to
 * the ELF image. */
void elf_error(const ElfFile *ef, GError **err, uint64_t off, const char *fmt, ...)
    G_GNUC_PRINTF(4, 5);

/* Checks of a segment-loaded (sequencer) ELF: each PT_LOAD's file range in the
 * file, p_memsz >= p_filesz, no address wrap, no two PT_LOAD overlapping. */
bool elf_check_load_segments(const ElfFile *ef, GError **err);

#endif
