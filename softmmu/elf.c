/*
 * ELF reader for the loader.  Fields are read byte by byte as little-endian
 * (the only encoding nxemu accepts) so the host's byte order never matters,
 * and every range is checked with overflow-safe arithmetic before use.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include "nxemu/error.h"
#include "softmmu/elf.h"

static uint64_t rdn(const uint8_t *p, size_t n)
{
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        v |= (uint64_t)p[i] << (8 * i);
    }
    return v;
}

/* Read field f of on-disk struct T at p. */
#define RDF(p, T, f) rdn((p) + offsetof(T, f), sizeof(((T *)0)->f))

/* [off, off + len) inside [0, size)?  No wrap. */
static bool range_ok(uint64_t off, uint64_t len, uint64_t size)
{
    return off <= size && len <= size - off;
}

void elf_error(const ElfFile *ef, GError **err, uint64_t off, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_autofree char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_set_error(err, NX_ERROR, NX_ERROR_LOAD, "%s: offset 0x%" PRIx64 ": %s%s", ef->name,
                ef->base + off, ef->ctx ? ef->ctx : "", msg);
}

bool elf_is_elf(const uint8_t *data, size_t size)
{
    return size >= SELFMAG && memcmp(data, ELFMAG, SELFMAG) == 0;
}

uint64_t elf_phdr_off(const ElfFile *ef, unsigned i)
{
    return ef->phoff +
           (uint64_t)i * (ef->cls == ELFCLASS64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr));
}

uint64_t elf_shdr_off(const ElfFile *ef, unsigned i)
{
    return ef->shoff +
           (uint64_t)i * (ef->cls == ELFCLASS64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr));
}

const char *elf_section_name(const ElfFile *ef, unsigned i)
{
    if (!ef->shstr || i >= ef->shnum) {
        return "";
    }
    return ef->shstr + ef->sh[i].sh_name; /* validated in elf_parse */
}

int elf_find_section(const ElfFile *ef, const char *name)
{
    for (unsigned i = 1; i < ef->shnum; i++) {
        if (strcmp(elf_section_name(ef, i), name) == 0) {
            return (int)i;
        }
    }
    return -1;
}

/* The program and section header fields, once: read from either class
 * into the 64-bit form (the 32-bit structs have the same field names). */
#define PHDR_FIELDS(X)                                                                             \
    X(p_type) X(p_flags) X(p_offset) X(p_vaddr) X(p_paddr) X(p_filesz) X(p_memsz) X(p_align)
#define SHDR_FIELDS(X)                                                                             \
    X(sh_name) X(sh_type) X(sh_flags) X(sh_addr) X(sh_offset) X(sh_size) X(sh_link) X(sh_info)     \
    X(sh_addralign) X(sh_entsize)

static void read_phdr(const ElfFile *ef, const uint8_t *p, Elf64_Phdr *ph)
{
#define RD64(f) ph->f = RDF(p, Elf64_Phdr, f);
#define RD32(f) ph->f = RDF(p, Elf32_Phdr, f);
    if (ef->cls == ELFCLASS64) {
        PHDR_FIELDS(RD64)
    } else {
        PHDR_FIELDS(RD32)
    }
#undef RD64
#undef RD32
}

static void read_shdr(const ElfFile *ef, const uint8_t *p, Elf64_Shdr *sh)
{
#define RD64(f) sh->f = RDF(p, Elf64_Shdr, f);
#define RD32(f) sh->f = RDF(p, Elf32_Shdr, f);
    if (ef->cls == ELFCLASS64) {
        SHDR_FIELDS(RD64)
    } else {
        SHDR_FIELDS(RD32)
    }
#undef RD64
#undef RD32
}

static bool parse_ident(ElfFile *ef, GError **err)
{
    if (ef->size < EI_NIDENT) {
        elf_error(ef, err, 0, "truncated ELF header: file is %zu bytes, need at least %d", ef->size,
                  EI_NIDENT);
        return false;
    }
    if (!elf_is_elf(ef->data, ef->size)) {
        elf_error(ef, err, 0, "bad ELF magic %02x %02x %02x %02x", ef->data[0], ef->data[1],
                  ef->data[2], ef->data[3]);
        return false;
    }
    ef->cls = ef->data[EI_CLASS];
    if (ef->cls != ELFCLASS32 && ef->cls != ELFCLASS64) {
        elf_error(ef, err, EI_CLASS, "bad ELF class %u (neither ELFCLASS32 nor ELFCLASS64)",
                  ef->cls);
        return false;
    }
    if (ef->data[EI_DATA] != ELFDATA2LSB) {
        elf_error(ef, err, EI_DATA, "ELF data encoding %u is not little-endian (ELFDATA2LSB)",
                  ef->data[EI_DATA]);
        return false;
    }
    if (ef->data[EI_VERSION] != EV_CURRENT) {
        elf_error(ef, err, EI_VERSION, "bad ELF version %u (expected %d)", ef->data[EI_VERSION],
                  EV_CURRENT);
        return false;
    }
    return true;
}

static bool parse_ehdr(ElfFile *ef, unsigned *phentsize, unsigned *shentsize, unsigned *shstrndx,
                       GError **err)
{
    const uint8_t *p = ef->data;
    size_t need = ef->cls == ELFCLASS64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
    if (ef->size < need) {
        elf_error(ef, err, 0, "truncated ELF header: file is %zu bytes, need %zu", ef->size, need);
        return false;
    }
    if (ef->cls == ELFCLASS64) {
        ef->type = RDF(p, Elf64_Ehdr, e_type);
        ef->machine = RDF(p, Elf64_Ehdr, e_machine);
        ef->entry = RDF(p, Elf64_Ehdr, e_entry);
        ef->phoff = RDF(p, Elf64_Ehdr, e_phoff);
        ef->shoff = RDF(p, Elf64_Ehdr, e_shoff);
        ef->flags = RDF(p, Elf64_Ehdr, e_flags);
        *phentsize = RDF(p, Elf64_Ehdr, e_phentsize);
        ef->phnum = RDF(p, Elf64_Ehdr, e_phnum);
        *shentsize = RDF(p, Elf64_Ehdr, e_shentsize);
        ef->shnum = RDF(p, Elf64_Ehdr, e_shnum);
        *shstrndx = RDF(p, Elf64_Ehdr, e_shstrndx);
    } else {
        ef->type = RDF(p, Elf32_Ehdr, e_type);
        ef->machine = RDF(p, Elf32_Ehdr, e_machine);
        ef->entry = RDF(p, Elf32_Ehdr, e_entry);
        ef->phoff = RDF(p, Elf32_Ehdr, e_phoff);
        ef->shoff = RDF(p, Elf32_Ehdr, e_shoff);
        ef->flags = RDF(p, Elf32_Ehdr, e_flags);
        *phentsize = RDF(p, Elf32_Ehdr, e_phentsize);
        ef->phnum = RDF(p, Elf32_Ehdr, e_phnum);
        *shentsize = RDF(p, Elf32_Ehdr, e_shentsize);
        ef->shnum = RDF(p, Elf32_Ehdr, e_shnum);
        *shstrndx = RDF(p, Elf32_Ehdr, e_shstrndx);
    }
    return true;
}

static bool parse_phdrs(ElfFile *ef, unsigned phentsize, GError **err)
{
    size_t ent = ef->cls == ELFCLASS64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr);
    if (ef->phnum == 0) {
        return true;
    }
    if (ef->phnum == PN_XNUM) {
        elf_error(ef, err, ELF_EHDR_OFF(ef, e_phnum),
                  "extended program header numbering (e_phnum 0xffff) is not supported");
        return false;
    }
    if (phentsize != ent) {
        elf_error(ef, err, ELF_EHDR_OFF(ef, e_phentsize), "e_phentsize %u is not %zu", phentsize,
                  ent);
        return false;
    }
    if (!range_ok(ef->phoff, (uint64_t)ef->phnum * ent, ef->size)) {
        elf_error(ef, err, ELF_EHDR_OFF(ef, e_phoff),
                  "e_phoff 0x%" PRIx64 ": program header table (%u x %zu bytes) outside the file "
                  "(%zu bytes)",
                  ef->phoff, ef->phnum, ent, ef->size);
        return false;
    }
    ef->ph = g_new0(Elf64_Phdr, ef->phnum);
    for (unsigned i = 0; i < ef->phnum; i++) {
        read_phdr(ef, ef->data + elf_phdr_off(ef, i), &ef->ph[i]);
    }
    return true;
}

/* A string table must end with NUL so any in-range index is a C string. */
static bool check_strtab(const ElfFile *ef, unsigned i, const char *what, GError **err)
{
    const Elf64_Shdr *sh = &ef->sh[i];
    if (sh->sh_type == SHT_NOBITS) {
        elf_error(ef, err, elf_shdr_off(ef, i), "section header %u: %s has no file data", i, what);
        return false;
    }
    if (sh->sh_size > 0 && ef->data[sh->sh_offset + sh->sh_size - 1] != 0) {
        elf_error(ef, err, sh->sh_offset + sh->sh_size - 1,
                  "section header %u: %s is not NUL-terminated", i, what);
        return false;
    }
    return true;
}

static bool parse_shdrs(ElfFile *ef, unsigned shentsize, unsigned shstrndx, GError **err)
{
    size_t ent = ef->cls == ELFCLASS64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr);
    if (ef->shoff == 0 || ef->shnum == 0) {
        /* No section table (or extended numbering, which no nxemu tool emits:
         * treated as none, so .symtab/.nx_bindings are simply absent). */
        ef->shnum = 0;
        return true;
    }
    if (shentsize != ent) {
        elf_error(ef, err, ELF_EHDR_OFF(ef, e_shentsize), "e_shentsize %u is not %zu", shentsize,
                  ent);
        return false;
    }
    if (!range_ok(ef->shoff, (uint64_t)ef->shnum * ent, ef->size)) {
        elf_error(ef, err, ELF_EHDR_OFF(ef, e_shoff),
                  "e_shoff 0x%" PRIx64 ": section header table (%u x %zu bytes) outside the file "
                  "(%zu bytes)",
                  ef->shoff, ef->shnum, ent, ef->size);
        return false;
    }
    ef->sh = g_new0(Elf64_Shdr, ef->shnum);
    for (unsigned i = 0; i < ef->shnum; i++) {
        read_shdr(ef, ef->data + elf_shdr_off(ef, i), &ef->sh[i]);
    }
    for (unsigned i = 1; i < ef->shnum; i++) {
        const Elf64_Shdr *sh = &ef->sh[i];
        if (sh->sh_type != SHT_NOBITS && !range_ok(sh->sh_offset, sh->sh_size, ef->size)) {
            elf_error(ef, err, elf_shdr_off(ef, i),
                      "section header %u: file range [0x%" PRIx64 ", 0x%" PRIx64
                      ") outside the file (%zu bytes)",
                      i, sh->sh_offset, sh->sh_offset + sh->sh_size, ef->size);
            return false;
        }
    }
    if (shstrndx == SHN_UNDEF) {
        return true;
    }
    if (shstrndx >= ef->shnum) {
        elf_error(ef, err, ELF_EHDR_OFF(ef, e_shstrndx),
                  "section name table index %u out of range (%u sections)", shstrndx, ef->shnum);
        return false;
    }
    if (!check_strtab(ef, shstrndx, "section name table", err)) {
        return false;
    }
    ef->shstr = (const char *)ef->data + ef->sh[shstrndx].sh_offset;
    ef->shstr_size = ef->sh[shstrndx].sh_size;
    for (unsigned i = 1; i < ef->shnum; i++) {
        if (ef->sh[i].sh_name >= ef->shstr_size) {
            elf_error(ef, err, elf_shdr_off(ef, i),
                      "section header %u: name offset 0x%x outside the section name table "
                      "(%" PRIu64 " bytes)",
                      i, ef->sh[i].sh_name, ef->shstr_size);
            return false;
        }
    }
    return true;
}

static bool check_symtabs(const ElfFile *ef, GError **err)
{
    size_t ent = ef->cls == ELFCLASS64 ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym);
    for (unsigned i = 1; i < ef->shnum; i++) {
        const Elf64_Shdr *sh = &ef->sh[i];
        if (sh->sh_type != SHT_SYMTAB) {
            continue;
        }
        g_autofree char *sname = g_strescape(elf_section_name(ef, i), NULL);
        if (sh->sh_entsize != ent || sh->sh_size % ent != 0) {
            elf_error(ef, err, elf_shdr_off(ef, i),
                      "section header %u (%s): symbol table entry size %" PRIu64 " / size %" PRIu64
                      " do not match %zu-byte symbols",
                      i, sname, sh->sh_entsize, sh->sh_size, ent);
            return false;
        }
        if (sh->sh_link == 0 || sh->sh_link >= ef->shnum ||
            ef->sh[sh->sh_link].sh_type != SHT_STRTAB) {
            elf_error(ef, err, elf_shdr_off(ef, i),
                      "section header %u (%s): sh_link %u is not a string table", i, sname,
                      sh->sh_link);
            return false;
        }
        if (!check_strtab(ef, sh->sh_link, "symbol string table", err)) {
            return false;
        }
    }
    return true;
}

bool elf_parse_header(ElfFile *ef, const char *name, uint64_t base, const char *ctx,
                      const uint8_t *data, size_t size, GError **err)
{
    memset(ef, 0, sizeof(*ef));
    ef->name = name;
    ef->base = base;
    ef->ctx = ctx;
    ef->data = data;
    ef->size = size;
    return parse_ident(ef, err) &&
           parse_ehdr(ef, &ef->phentsize, &ef->shentsize, &ef->shstrndx, err);
}

bool elf_parse_tables(ElfFile *ef, GError **err)
{
    if (!parse_phdrs(ef, ef->phentsize, err) ||
        !parse_shdrs(ef, ef->shentsize, ef->shstrndx, err) || !check_symtabs(ef, err)) {
        elf_free(ef);
        return false;
    }
    return true;
}

bool elf_parse(ElfFile *ef, const char *name, uint64_t base, const char *ctx, const uint8_t *data,
               size_t size, GError **err)
{
    return elf_parse_header(ef, name, base, ctx, data, size, err) && elf_parse_tables(ef, err);
}

void elf_free(ElfFile *ef)
{
    g_clear_pointer(&ef->ph, g_free);
    g_clear_pointer(&ef->sh, g_free);
}

bool elf_find_func(const ElfFile *ef, const char *name, uint64_t *value)
{
    bool is64 = ef->cls == ELFCLASS64;
    size_t ent = is64 ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym);
    for (unsigned i = 1; i < ef->shnum; i++) {
        const Elf64_Shdr *sh = &ef->sh[i];
        if (sh->sh_type != SHT_SYMTAB) {
            continue;
        }
        const Elf64_Shdr *st = &ef->sh[sh->sh_link];
        const char *strs = (const char *)ef->data + st->sh_offset;
        for (uint64_t k = 1; k < sh->sh_size / ent; k++) {
            const uint8_t *p = ef->data + sh->sh_offset + k * ent;
            uint32_t st_name = is64 ? RDF(p, Elf64_Sym, st_name) : RDF(p, Elf32_Sym, st_name);
            uint8_t st_info = is64 ? RDF(p, Elf64_Sym, st_info) : RDF(p, Elf32_Sym, st_info);
            uint16_t shndx = is64 ? RDF(p, Elf64_Sym, st_shndx) : RDF(p, Elf32_Sym, st_shndx);
            if (ELF64_ST_TYPE(st_info) != STT_FUNC || shndx == SHN_UNDEF ||
                st_name >= st->sh_size || strcmp(strs + st_name, name) != 0) {
                continue;
            }
            *value = is64 ? RDF(p, Elf64_Sym, st_value) : RDF(p, Elf32_Sym, st_value);
            return true;
        }
    }
    return false;
}

bool elf_check_load_segments(const ElfFile *ef, GError **err)
{
    for (unsigned i = 0; i < ef->phnum; i++) {
        const Elf64_Phdr *ph = &ef->ph[i];
        uint64_t off = elf_phdr_off(ef, i);
        if (ph->p_type != PT_LOAD) {
            continue;
        }
        if (!range_ok(ph->p_offset, ph->p_filesz, ef->size)) {
            elf_error(ef, err, off,
                      "program header %u: file range [0x%" PRIx64 ", 0x%" PRIx64
                      ") outside the file (%zu bytes)",
                      i, ph->p_offset, ph->p_offset + ph->p_filesz, ef->size);
            return false;
        }
        if (ph->p_memsz < ph->p_filesz) {
            elf_error(ef, err, off,
                      "program header %u: p_memsz 0x%" PRIx64
                      " is smaller than p_filesz 0x%" PRIx64,
                      i, ph->p_memsz, ph->p_filesz);
            return false;
        }
        if (ph->p_paddr + ph->p_memsz < ph->p_paddr) {
            elf_error(ef, err, off,
                      "program header %u: segment at 0x%" PRIx64 " size 0x%" PRIx64
                      " wraps around the address space",
                      i, ph->p_paddr, ph->p_memsz);
            return false;
        }
        for (unsigned j = 0; j < i; j++) {
            const Elf64_Phdr *q = &ef->ph[j];
            if (q->p_type != PT_LOAD || q->p_memsz == 0 || ph->p_memsz == 0) {
                continue;
            }
            if (ph->p_paddr < q->p_paddr + q->p_memsz && q->p_paddr < ph->p_paddr + ph->p_memsz) {
                elf_error(ef, err, off,
                          "program header %u: segment [0x%" PRIx64 ", 0x%" PRIx64
                          ") overlaps segment %u",
                          i, ph->p_paddr, ph->p_paddr + ph->p_memsz, j);
                return false;
            }
        }
    }
    return true;
}
