/*
 * Image loading (machine.md §11, tpc.md §7.1).  Images are built here byte by
 * byte from the ELF and FIT layouts (glibc <elf.h> structs, libfdt's
 * sequential writer), written to a temporary directory and loaded into a real
 * machine; expected bytes, addresses and messages come from the spec.
 */
#include <elf.h>
#include <inttypes.h>
#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <libfdt.h>

#include "hw/nc2/fdt.h"
#include "nxemu/error.h"
#include "nxemu/loader.h"
#include "nxemu/machine.h"
#include "softmmu/elf.h"

#define HBM_SIZE  (64ull << 20)
#define TEXT_ADDR 0x1000000ull
#define DATA_ADDR 0x1100000ull
#define ENTRY     0x1000040ull

static char *tmpdir;

/* ---- machine ------------------------------------------------------------ */

static Machine *make_machine(unsigned nr_seq, unsigned nr_tpc)
{
    Nc2Edits ed = {.has_hbm = true,
                   .hbm = HBM_SIZE,
                   .has_seq = true,
                   .seq = nr_seq,
                   .has_tpc = true,
                   .tpc = nr_tpc};
    void *fdt = NULL;
    size_t size = 0;
    MachineConfig cfg;
    GError *err = NULL;
    g_assert_true(nc2_fdt_build_config(NULL, &ed, &fdt, &size, &cfg, &err));
    g_assert_no_error(err);
    g_assert_true(cfg.dtb_in_memory); /* the default tree has nxemu,dtb-in-memory */
    Machine *m = machine_new(&cfg, fdt, size, &err);
    g_assert_no_error(err);
    g_free(fdt);
    return m;
}

static void rd(Machine *m, uint64_t addr, void *buf, uint64_t len)
{
    uint64_t bad;
    g_assert_cmpint(as_rw_bytes(m->as, addr, buf, len, false, MEMTXATTRS(MEM_REQ_DEBUG, 0), &bad),
                    ==, MEMTX_OK);
}

static void fill(Machine *m, uint64_t addr, uint8_t v, uint64_t len)
{
    uint64_t bad;
    g_autofree uint8_t *b = g_malloc(len);
    memset(b, v, len);
    g_assert_cmpint(as_rw_bytes(m->as, addr, b, len, true, MEMTXATTRS(MEM_REQ_DEBUG, 0), &bad), ==,
                    MEMTX_OK);
}

/* ---- image builders ------------------------------------------------------ */

static char *write_tmp(const char *name, const void *data, size_t len)
{
    char *path = g_build_filename(tmpdir, name, NULL);
    g_assert_true(g_file_set_contents(path, data, (gssize)len, NULL));
    return path;
}

static void put(GByteArray *b, size_t off, const void *p, size_t n)
{
    if (b->len < off + n) {
        size_t old = b->len;
        g_byte_array_set_size(b, (guint)(off + n));
        memset(b->data + old, 0, off + n - old);
    }
    memcpy(b->data + off, p, n);
}

static size_t align_up(size_t v, size_t a)
{
    return (v + a - 1) / a * a;
}

typedef struct Seg {
    uint32_t flags;
    uint64_t paddr;
    const uint8_t *data;
    uint64_t filesz, memsz;
} Seg;

typedef struct Sec {
    const char *name;
    uint32_t type;
    const void *data;
    uint64_t size;
    uint32_t link, info;
    uint64_t entsize;
} Sec;

/* Offsets a test needs to corrupt a good image precisely. */
typedef struct ElfLayout {
    size_t phoff, shoff, sec_off[8];
} ElfLayout;

/* Section data goes after the segments; the name table is the last section,
 * the section header table ends the file.  Section i of `secs` is ELF
 * section i + 1. */
static GByteArray *build_elf64(uint64_t entry, const Seg *segs, unsigned nsegs, const Sec *secs,
                               unsigned nsecs, ElfLayout *lay)
{
    GByteArray *b = g_byte_array_new();
    Elf64_Ehdr eh = {0};
    size_t off = sizeof(Elf64_Ehdr) + nsegs * sizeof(Elf64_Phdr);
    GString *names = g_string_new("");
    g_string_append_c(names, '\0');

    memcpy(eh.e_ident, ELFMAG, SELFMAG);
    eh.e_ident[EI_CLASS] = ELFCLASS64;
    eh.e_ident[EI_DATA] = ELFDATA2LSB;
    eh.e_ident[EI_VERSION] = EV_CURRENT;
    eh.e_type = ET_EXEC;
    eh.e_machine = 0x4E58;
    eh.e_version = EV_CURRENT;
    eh.e_entry = entry;
    eh.e_phoff = nsegs ? sizeof(Elf64_Ehdr) : 0;
    eh.e_flags = 2;
    eh.e_ehsize = sizeof(Elf64_Ehdr);
    eh.e_phentsize = sizeof(Elf64_Phdr);
    eh.e_phnum = (uint16_t)nsegs;
    eh.e_shentsize = sizeof(Elf64_Shdr);
    if (lay) {
        memset(lay, 0, sizeof(*lay));
        lay->phoff = eh.e_phoff;
    }

    for (unsigned i = 0; i < nsegs; i++) {
        Elf64_Phdr ph = {0};
        off = align_up(off, 64);
        ph.p_type = PT_LOAD;
        ph.p_flags = segs[i].flags;
        ph.p_offset = off;
        ph.p_vaddr = ph.p_paddr = segs[i].paddr;
        ph.p_filesz = segs[i].filesz;
        ph.p_memsz = segs[i].memsz;
        ph.p_align = 64;
        put(b, sizeof(Elf64_Ehdr) + i * sizeof(Elf64_Phdr), &ph, sizeof(ph));
        if (segs[i].filesz) {
            put(b, off, segs[i].data, segs[i].filesz);
        }
        off += segs[i].filesz;
    }

    unsigned shnum = nsecs + 2; /* null + secs + .shstrtab */
    Elf64_Shdr *sh = g_new0(Elf64_Shdr, shnum);
    for (unsigned i = 0; i < nsecs; i++) {
        off = align_up(off, 8);
        sh[i + 1].sh_name = (uint32_t)names->len;
        g_string_append(names, secs[i].name);
        g_string_append_c(names, '\0');
        sh[i + 1].sh_type = secs[i].type;
        sh[i + 1].sh_offset = off;
        sh[i + 1].sh_size = secs[i].size;
        sh[i + 1].sh_link = secs[i].link;
        sh[i + 1].sh_info = secs[i].info;
        sh[i + 1].sh_entsize = secs[i].entsize;
        if (lay && i < 8) {
            lay->sec_off[i] = off;
        }
        if (secs[i].size) {
            put(b, off, secs[i].data, secs[i].size);
        }
        off += secs[i].size;
    }
    sh[shnum - 1].sh_name = (uint32_t)names->len;
    g_string_append(names, ".shstrtab");
    g_string_append_c(names, '\0');
    sh[shnum - 1].sh_type = SHT_STRTAB;
    sh[shnum - 1].sh_offset = off;
    sh[shnum - 1].sh_size = names->len;
    put(b, off, names->str, names->len);
    off = align_up(off + names->len, 8);
    eh.e_shoff = off;
    eh.e_shnum = (uint16_t)shnum;
    eh.e_shstrndx = (uint16_t)(shnum - 1);
    put(b, off, sh, shnum * sizeof(Elf64_Shdr));
    if (lay) {
        lay->shoff = off;
    }
    put(b, 0, &eh, sizeof(eh));
    g_free(sh);
    g_string_free(names, TRUE);
    return b;
}

/* A 64-byte record with opcode `op` (no pseudo: lowering leaves it alone). */
static void rec(uint8_t *p, uint8_t op, uint8_t tag)
{
    memset(p, 0, 64);
    p[0] = op;
    p[1] = 0x10; /* inst_word_len */
    p[63] = tag;
}

static uint8_t text2[128];
static uint8_t data16[16];

static void init_payloads(void)
{
    rec(text2, 0xA4, 1);      /* NOP */
    rec(text2 + 64, 0xA1, 2); /* HALT */
    for (unsigned i = 0; i < 16; i++) {
        data16[i] = (uint8_t)(0x10 + i);
    }
}

/* The good sequencer ELF: text (R+X, 128 bytes) and data (R+W, 16 bytes of
 * file, 64 of memory) plus optional extra sections. */
static GByteArray *good_seq_elf(const Sec *secs, unsigned nsecs, ElfLayout *lay)
{
    Seg segs[2] = {
        {PF_R | PF_X, TEXT_ADDR, text2, sizeof(text2), sizeof(text2)},
        {PF_R | PF_W, DATA_ADDR, data16, sizeof(data16), 64},
    };
    return build_elf64(ENTRY, segs, 2, secs, nsecs, lay);
}

static void set16(GByteArray *b, size_t off, uint16_t v)
{
    memcpy(b->data + off, &v, 2);
}

static void set32(GByteArray *b, size_t off, uint32_t v)
{
    memcpy(b->data + off, &v, 4);
}

static void set64(GByteArray *b, size_t off, uint64_t v)
{
    memcpy(b->data + off, &v, 8);
}

/* Offsets of program header i fields in the good ELF. */
#define PH(i, field) (sizeof(Elf64_Ehdr) + (i) * sizeof(Elf64_Phdr) + offsetof(Elf64_Phdr, field))

/* ---- loader option helpers ---------------------------------------------- */

typedef struct Run {
    LoaderItem items[8];
    unsigned n;
    BindTable bt;
    const char *fit_config;
} Run;

static void run_init(Run *r)
{
    memset(r, 0, sizeof(*r));
    bind_table_init(&r->bt);
}

static LoaderItem *add_item(Run *r, LoaderKind kind, const char *file)
{
    g_assert_cmpuint(r->n, <, G_N_ELEMENTS(r->items));
    LoaderItem *it = &r->items[r->n++];
    it->kind = kind;
    it->file = (char *)file;
    return it;
}

static bool run_load(Run *r, Machine *m, GError **err)
{
    LoaderOptions o = {
        .items = r->items, .nr_items = r->n, .bindings = &r->bt, .fit_config = r->fit_config};
    bool ok = loader_load(m, &o, err);
    bind_table_destroy(&r->bt);
    return ok;
}

/* Load `path` as -device loader,file=path into a fresh 2-core machine and
 * expect a load error whose message is exactly "<path>: offset 0x<off>: "
 * followed by text containing `reason`. */
static void expect_file_error(const char *path, uint64_t off, const char *reason)
{
    Machine *m = make_machine(2, 2);
    Run r;
    GError *err = NULL;
    run_init(&r);
    add_item(&r, LOADER_FILE, path);
    g_assert_false(run_load(&r, m, &err));
    g_assert_error(err, NX_ERROR, NX_ERROR_LOAD);
    g_test_message("%s", err->message);
    g_autofree char *prefix = g_strdup_printf("%s: offset 0x%" PRIx64 ": ", path, off);
    if (!g_str_has_prefix(err->message, prefix) || !strstr(err->message, reason)) {
        g_error("message '%s' lacks prefix '%s' or '%s'", err->message, prefix, reason);
    }
    g_assert_null(strchr(err->message, '\n'));
    g_error_free(err);
    machine_free(m);
}

static void expect_elf_error(GByteArray *b, uint64_t off, const char *reason)
{
    g_autofree char *path = write_tmp("bad.elf", b->data, b->len);
    expect_file_error(path, off, reason);
    g_byte_array_unref(b);
}

/* ---- sequencer ELF -------------------------------------------------------- */

static void test_seq_elf_good(void)
{
    GByteArray *b = good_seq_elf(NULL, 0, NULL);
    g_autofree char *path = write_tmp("good.elf", b->data, b->len);
    Machine *m = make_machine(2, 1);
    Run r;
    GError *err = NULL;
    uint8_t got[128];

    /* Junk where the zero fill goes: p_memsz bytes past p_filesz must be 0. */
    fill(m, DATA_ADDR, 0xEE, 128);
    run_init(&r);
    add_item(&r, LOADER_KERNEL, path);
    g_assert_true(run_load(&r, m, &err));
    g_assert_no_error(err);

    rd(m, TEXT_ADDR, got, 128);
    g_assert_cmpmem(got, 128, text2, 128);
    rd(m, DATA_ADDR, got, 128);
    g_assert_cmpmem(got, 16, data16, 16);
    for (unsigned i = 16; i < 64; i++) {
        g_assert_cmpuint(got[i], ==, 0);
    }
    for (unsigned i = 64; i < 128; i++) {
        g_assert_cmpuint(got[i], ==, 0xEE); /* beyond p_memsz: untouched */
    }
    g_assert_cmphex(m->nx[0].entry, ==, ENTRY);
    g_assert_cmphex(m->nx[0].pc, ==, ENTRY);
    if (m->seq[0]) {
        g_assert_cmpint(m->seq[0]->state, ==, CPU_RUNNING);
    }
    /* core 1 got no entry: stays in RESET with ENTRY 0 */
    g_assert_cmphex(m->nx[1].entry, ==, 0);
    if (m->seq[1]) {
        g_assert_cmpint(m->seq[1]->state, ==, CPU_RESET);
    }
    machine_free(m);
    g_byte_array_unref(b);
}

static void test_seq_elf_cpu_num(void)
{
    GByteArray *b = good_seq_elf(NULL, 0, NULL);
    g_autofree char *path = write_tmp("core1.elf", b->data, b->len);
    Machine *m = make_machine(2, 1);
    Run r;
    GError *err = NULL;

    run_init(&r);
    LoaderItem *it = add_item(&r, LOADER_FILE, path);
    it->has_cpu = true;
    it->cpu_num = 1;
    g_assert_true(run_load(&r, m, &err));
    g_assert_no_error(err);
    g_assert_cmphex(m->nx[1].entry, ==, ENTRY);
    g_assert_cmphex(m->nx[1].pc, ==, ENTRY);
    g_assert_cmphex(m->nx[0].entry, ==, 0);
    if (m->seq[1]) {
        g_assert_cmpint(m->seq[1]->state, ==, CPU_RUNNING);
        g_assert_cmpint(m->seq[0]->state, ==, CPU_RESET);
    }
    machine_free(m);

    /* cpu-num beyond the configured cores */
    m = make_machine(2, 1);
    run_init(&r);
    it = add_item(&r, LOADER_FILE, path);
    it->has_cpu = true;
    it->cpu_num = 2;
    g_assert_false(run_load(&r, m, &err));
    g_assert_error(err, NX_ERROR, NX_ERROR_LOAD);
    g_assert_nonnull(strstr(err->message, "2 sequencer core(s)"));
    g_clear_error(&err);
    machine_free(m);

    /* addr= with a sequencer ELF */
    m = make_machine(2, 1);
    run_init(&r);
    it = add_item(&r, LOADER_FILE, path);
    it->has_addr = true;
    it->addr = TEXT_ADDR;
    g_assert_false(run_load(&r, m, &err));
    g_assert_error(err, NX_ERROR, NX_ERROR_LOAD);
    g_assert_nonnull(strstr(err->message, "addr= cannot be used with a sequencer ELF"));
    g_clear_error(&err);
    machine_free(m);
    g_byte_array_unref(b);
}

static void test_seq_elf_malformed(void)
{
    GByteArray *b;
    ElfLayout lay;

    /* truncated: 10 bytes of an ELF */
    b = good_seq_elf(NULL, 0, NULL);
    g_byte_array_set_size(b, 10);
    expect_elf_error(b, 0, "truncated ELF header");
    /* truncated inside the header (magic and ident intact) */
    b = good_seq_elf(NULL, 0, NULL);
    g_byte_array_set_size(b, 40);
    expect_elf_error(b, 0, "truncated ELF header: file is 40 bytes, need 64");

    /* class 32 with the sequencer machine: the class is wrong (EI_CLASS = 4) */
    b = good_seq_elf(NULL, 0, NULL);
    b->data[EI_CLASS] = ELFCLASS32;
    expect_elf_error(b, EI_CLASS, "must be ELFCLASS64");
    b = good_seq_elf(NULL, 0, NULL);
    b->data[EI_CLASS] = 7;
    expect_elf_error(b, EI_CLASS, "bad ELF class 7");
    /* big-endian (EI_DATA = 5) */
    b = good_seq_elf(NULL, 0, NULL);
    b->data[EI_DATA] = ELFDATA2MSB;
    expect_elf_error(b, EI_DATA, "not little-endian");
    /* machine x86-64 (e_machine at 0x12) */
    b = good_seq_elf(NULL, 0, NULL);
    set16(b, offsetof(Elf64_Ehdr, e_machine), EM_X86_64);
    expect_elf_error(b, 0x12, "e_machine 0x3e");
    /* ET_DYN (e_type at 0x10) */
    b = good_seq_elf(NULL, 0, NULL);
    set16(b, offsetof(Elf64_Ehdr, e_type), ET_DYN);
    expect_elf_error(b, 0x10, "must be ET_EXEC");
    /* e_flags[7:0] = 3 (e_flags at 0x30) */
    b = good_seq_elf(NULL, 0, NULL);
    set32(b, offsetof(Elf64_Ehdr, e_flags), 0x103);
    expect_elf_error(b, 0x30, "e_flags[7:0] = 2");

    /* e_phoff beyond the file (field at 0x20) */
    b = good_seq_elf(NULL, 0, NULL);
    set64(b, offsetof(Elf64_Ehdr, e_phoff), b->len - 8);
    expect_elf_error(b, 0x20, "program header table");
    /* e_shoff beyond the file (field at 0x28) */
    b = good_seq_elf(NULL, 0, NULL);
    set64(b, offsetof(Elf64_Ehdr, e_shoff), 0xFFFFFFFFFFFFFF00ull);
    expect_elf_error(b, 0x28, "section header table");
    /* section name table index out of range (e_shstrndx at 0x3e) */
    b = good_seq_elf(NULL, 0, NULL);
    set16(b, offsetof(Elf64_Ehdr, e_shstrndx), 99);
    expect_elf_error(b, 0x3e, "section name table index 99 out of range");
    /* the name table's own range outside the file (section header 1 at e_shoff + 64) */
    b = good_seq_elf(NULL, 0, &lay);
    set64(b, lay.shoff + sizeof(Elf64_Shdr) + offsetof(Elf64_Shdr, sh_offset), b->len);
    expect_elf_error(b, lay.shoff + sizeof(Elf64_Shdr), "section header 1: file range");

    /* segment 1's file range outside the file (program header 1 at 0x78) */
    b = good_seq_elf(NULL, 0, NULL);
    set64(b, PH(1, p_offset), b->len - 4);
    expect_elf_error(b, 0x78, "program header 1: file range");
    /* p_memsz < p_filesz */
    b = good_seq_elf(NULL, 0, NULL);
    set64(b, PH(1, p_memsz), 8);
    expect_elf_error(b, 0x78, "p_memsz 0x8 is smaller than p_filesz 0x10");
    /* overlapping segments: data moved into the text */
    b = good_seq_elf(NULL, 0, NULL);
    set64(b, PH(1, p_paddr), TEXT_ADDR + 64);
    expect_elf_error(b, 0x78,
                     "program header 1: segment [0x1000040, 0x1000080) overlaps segment 0");
    /* outside the memory map: between HBM (64 MiB) and SBUF */
    b = good_seq_elf(NULL, 0, NULL);
    set64(b, PH(1, p_paddr), 0x1000000000ull);
    expect_elf_error(b, 0x78, "[0x1000000000, 0x1000000040) is outside memory");
    /* straddling the end of HBM */
    b = good_seq_elf(NULL, 0, NULL);
    set64(b, PH(0, p_paddr), HBM_SIZE - 64);
    expect_elf_error(b, 0x40, "is outside memory");
    /* into MMIO: the test device */
    b = good_seq_elf(NULL, 0, NULL);
    set64(b, PH(1, p_paddr), 0x2805000000ull);
    expect_elf_error(b, 0x78, "is outside memory");
    /* into an SBUF hole (offset 0x30000 of partition 0 is unpopulated) */
    b = good_seq_elf(NULL, 0, NULL);
    set64(b, PH(1, p_paddr), 0x2000000000ull + 0x30000 - 16);
    expect_elf_error(b, 0x78, "is outside memory");
    /* over the in-memory DTB area [HBM_end - 1 MiB, HBM_end) */
    b = good_seq_elf(NULL, 0, NULL);
    set64(b, PH(1, p_paddr), HBM_SIZE - (1 << 20) - 32);
    expect_elf_error(b, 0x78, "overlaps the in-memory DTB area [0x3f00000, 0x4000000)");
    /* executable segment whose length is not a multiple of 64 */
    b = good_seq_elf(NULL, 0, NULL);
    set64(b, PH(0, p_filesz), 100);
    set64(b, PH(0, p_memsz), 128);
    expect_elf_error(b, 0x40, "multiple of 64 bytes");
    /* executable segment not 64-byte aligned */
    b = good_seq_elf(NULL, 0, NULL);
    set64(b, PH(0, p_paddr), TEXT_ADDR + 32);
    expect_elf_error(b, 0x40, "64-byte aligned");
}

static void test_elf_parse_direct(void)
{
    GByteArray *b = good_seq_elf(NULL, 0, NULL);
    ElfFile ef;
    GError *err = NULL;

    g_assert_true(elf_parse(&ef, "x.elf", 0, NULL, b->data, b->len, &err));
    g_assert_cmpuint(ef.phnum, ==, 2);
    g_assert_cmphex(ef.entry, ==, ENTRY);
    g_assert_cmpint(elf_find_section(&ef, ".shstrtab"), ==, 1);
    elf_free(&ef);

    b->data[1] = 'X';
    g_assert_false(elf_parse(&ef, "x.elf", 0, NULL, b->data, b->len, &err));
    g_assert_error(err, NX_ERROR, NX_ERROR_LOAD);
    g_assert_cmpstr(err->message, ==, "x.elf: offset 0x0: bad ELF magic 7f 58 4c 46");
    g_clear_error(&err);
    g_byte_array_unref(b);
}

/* .symtab STT_FUNC lookup, used for call lowering. */
static void test_elf_symbols(void)
{
    Elf64_Sym syms[3] = {0};
    const char strs[] = "\0main\0helper\0";
    syms[1].st_name = 1;
    syms[1].st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC);
    syms[1].st_shndx = 1;
    syms[1].st_value = 0x1000080;
    syms[2].st_name = 6;
    syms[2].st_info = ELF64_ST_INFO(STB_GLOBAL, STT_OBJECT); /* not a function */
    syms[2].st_shndx = 1;
    syms[2].st_value = 0x1100000;
    Sec secs[2] = {
        {".symtab", SHT_SYMTAB, syms, sizeof(syms), 2, 0, sizeof(Elf64_Sym)},
        {".strtab", SHT_STRTAB, strs, sizeof(strs), 0, 0, 0},
    };
    GByteArray *b = good_seq_elf(secs, 2, NULL);
    ElfFile ef;
    GError *err = NULL;
    uint64_t v = 0;

    g_assert_true(elf_parse(&ef, "s.elf", 0, NULL, b->data, b->len, &err));
    g_assert_no_error(err);
    g_assert_true(elf_find_func(&ef, "main", &v));
    g_assert_cmphex(v, ==, 0x1000080);
    g_assert_false(elf_find_func(&ef, "helper", &v));
    g_assert_false(elf_find_func(&ef, "nothere", &v));
    elf_free(&ef);
    g_byte_array_unref(b);
}

/* One 16-byte binding record (machine.md §11.4). */
static void brec(uint8_t *p, uint32_t var, uint64_t addr)
{
    memset(p, 0, 16);
    memcpy(p, &var, 4);
    memcpy(p + 8, &addr, 8);
}

/* ---- pseudo lowering through the loader (machine.md §11.5) ---------------- */

static void test_lowering(void)
{
    /* ELF text: EXIT pseudo, call to `helper` (an STT_FUNC of the same ELF),
     * then `helper` itself: a NOP at TEXT_ADDR + 128. */
    uint8_t text[192];
    rec(text, 0xDF, 0);
    text[12] = 1; /* sub-op EXIT */
    rec(text + 64, 0xD3, 0);
    memcpy(text + 64 + 12, "helper", 6);
    rec(text + 128, 0xA4, 0);
    Elf64_Sym syms[2] = {0};
    const char strs[] = "\0helper\0";
    syms[1].st_name = 1;
    syms[1].st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC);
    syms[1].st_shndx = 1;
    syms[1].st_value = TEXT_ADDR + 128;
    uint8_t binds[16];
    brec(binds, 7, 0x2400000);
    Sec secs[3] = {
        {".symtab", SHT_SYMTAB, syms, sizeof(syms), 2, 0, sizeof(Elf64_Sym)},
        {".strtab", SHT_STRTAB, strs, sizeof(strs), 0, 0, 0},
        {".nx_bindings", SHT_PROGBITS, binds, sizeof(binds), 0, 0, 0},
    };
    Seg seg = {PF_R | PF_X, TEXT_ADDR, text, sizeof(text), sizeof(text)};
    GByteArray *b = build_elf64(TEXT_ADDR, &seg, 1, secs, 3, NULL);
    g_autofree char *epath = write_tmp("lower.elf", b->data, b->len);

    /* A raw stream loaded BEFORE the ELF whose binding it uses: the binding
     * table is complete before any stream is lowered. */
    uint8_t raw[128];
    rec(raw, 0xCE, 0); /* PSEUDO_TENSOR_LOAD u32, 1x1 element into r8 */
    raw[12] = 9;
    raw[14] = 1;
    raw[15] = 1;
    uint32_t var = 7, voff = 0x10;
    memcpy(raw + 16, &var, 4);
    memcpy(raw + 20, &voff, 4);
    raw[32] = 8;
    rec(raw + 64, 0xA1, 0);
    g_autofree char *rpath = write_tmp("lower.bin", raw, sizeof(raw));

    Machine *m = make_machine(2, 1);
    Run r;
    GError *err = NULL;
    uint8_t got[192];
    uint64_t v;

    run_init(&r);
    LoaderItem *it = add_item(&r, LOADER_FILE, rpath);
    it->has_addr = true;
    it->addr = 0x2000000;
    it->has_cpu = true;
    it->cpu_num = 0;
    it = add_item(&r, LOADER_FILE, epath);
    it->has_cpu = true;
    it->cpu_num = 1;
    g_assert_true(run_load(&r, m, &err));
    g_assert_no_error(err);

    rd(m, TEXT_ADDR, got, 192);
    g_assert_cmphex(got[0], ==, 0xA1); /* EXIT -> HALT */
    g_assert_cmphex(got[1], ==, 0x10);
    g_assert_cmphex(got[64], ==, 0xA9); /* call -> absolute branch with link */
    g_assert_cmphex(got[64 + 15], ==, 1);
    memcpy(&v, got + 64 + 48, 8);
    g_assert_cmphex(v, ==, TEXT_ADDR + 128);
    g_assert_cmpmem(got + 128, 64, text + 128, 64);

    rd(m, 0x2000000, got, 128);
    g_assert_cmphex(got[0], ==, 0xAA); /* PSEUDO_TENSOR_LOAD -> TENSOR_LOAD */
    memcpy(&v, got + 16, 8);
    g_assert_cmphex(v, ==, 0x2400010); /* binding[7] + var_offset */
    g_assert_cmpmem(got + 64, 64, raw + 64, 64);
    machine_free(m);
    g_byte_array_unref(b);
}

/* ---- bindings ----------------------------------------------------------- */

static void test_bindings(void)
{
    uint8_t recs[48];
    brec(recs, 7, 0x2000000);
    brec(recs + 16, 8, 0x2000100);
    brec(recs + 32, 7, 0x2000000); /* identical duplicate: allowed */
    Sec secs[1] = {{".nx_bindings", SHT_PROGBITS, recs, sizeof(recs), 0, 0, 0}};
    ElfLayout lay;
    GByteArray *b = good_seq_elf(secs, 1, &lay);
    g_autofree char *path = write_tmp("bind.elf", b->data, b->len);
    Machine *m = make_machine(1, 1);
    Run r;
    GError *err = NULL;
    uint64_t a = 0;

    run_init(&r);
    g_assert_true(bind_table_add(&r.bt, 9, 0x3000, "-bind", &err));
    add_item(&r, LOADER_FILE, path);
    LoaderOptions o = {.items = r.items, .nr_items = r.n, .bindings = &r.bt};
    g_assert_true(loader_load(m, &o, &err));
    g_assert_no_error(err);
    g_assert_cmpuint(bind_table_size(&r.bt), ==, 3);
    g_assert_true(bind_table_lookup(&r.bt, 7, &a));
    g_assert_cmphex(a, ==, 0x2000000);
    g_assert_true(bind_table_lookup(&r.bt, 8, &a));
    g_assert_cmphex(a, ==, 0x2000100);
    g_assert_true(bind_table_lookup(&r.bt, 9, &a));
    g_assert_cmphex(a, ==, 0x3000);
    g_assert_false(bind_table_lookup(&r.bt, 10, &a));
    bind_table_destroy(&r.bt);
    machine_free(m);

    /* -bind 7=0x1000 conflicts with record 0 (at the section's offset) */
    m = make_machine(1, 1);
    run_init(&r);
    g_assert_true(bind_table_add(&r.bt, 7, 0x1000, "-bind", &err));
    add_item(&r, LOADER_FILE, path);
    g_assert_false(run_load(&r, m, &err));
    g_assert_error(err, NX_ERROR, NX_ERROR_LOAD);
    g_autofree char *want = g_strdup_printf(
        "%s: offset 0x%zx: .nx_bindings record 0: var_id 7 bound to 0x2000000 conflicts with "
        "0x1000 from -bind",
        path, lay.sec_off[0]);
    g_assert_cmpstr(err->message, ==, want);
    g_clear_error(&err);
    machine_free(m);
    g_byte_array_unref(b);

    /* size not a multiple of 16 */
    secs[0].size = 20;
    b = good_seq_elf(secs, 1, &lay);
    expect_elf_error(b, lay.sec_off[0], "size 20 is not a multiple of 16");
    /* non-zero reserved word */
    recs[4] = 1;
    secs[0].size = 16;
    b = good_seq_elf(secs, 1, &lay);
    expect_elf_error(b, lay.sec_off[0], "reserved word 0x1 is not 0");
}

/* ---- raw images and data words ------------------------------------------- */

static void test_raw_and_data(void)
{
    uint8_t raw[256];
    for (unsigned i = 0; i < sizeof(raw); i++) {
        raw[i] = (uint8_t)(i * 7 + 3);
    }
    g_autofree char *path = write_tmp("prog.bin", raw, sizeof(raw));
    Machine *m = make_machine(2, 1);
    Run r;
    GError *err = NULL;
    uint8_t got[256];

    run_init(&r);
    LoaderItem *it = add_item(&r, LOADER_FILE, path);
    it->has_addr = true;
    it->addr = 0x2000000;
    it->has_cpu = true;
    it->cpu_num = 1;
    /* a later data word overwrites bytes 8..11 of the raw image */
    it = add_item(&r, LOADER_DATA, NULL);
    it->has_addr = true;
    it->addr = 0x2000008;
    it->data = 0xA1B2C3D4;
    it->data_len = 4;
    /* 8-byte data word into SBUF partition 1 */
    it = add_item(&r, LOADER_DATA, NULL);
    it->has_addr = true;
    it->addr = 0x2000040000ull;
    it->data = 0x0102030405060708ull;
    it->data_len = 8;
    g_assert_true(run_load(&r, m, &err));
    g_assert_no_error(err);

    rd(m, 0x2000000, got, sizeof(raw));
    g_assert_cmpmem(got, 8, raw, 8);
    const uint8_t word[4] = {0xD4, 0xC3, 0xB2, 0xA1};
    g_assert_cmpmem(got + 8, 4, word, 4);
    g_assert_cmpmem(got + 12, sizeof(raw) - 12, raw + 12, sizeof(raw) - 12);
    rd(m, 0x2000040000ull, got, 8);
    const uint8_t q[8] = {8, 7, 6, 5, 4, 3, 2, 1};
    g_assert_cmpmem(got, 8, q, 8);
    g_assert_cmphex(m->nx[1].entry, ==, 0x2000000);
    g_assert_cmphex(m->nx[1].pc, ==, 0x2000000);
    g_assert_cmphex(m->nx[0].entry, ==, 0);
    machine_free(m);

    /* raw image with cpu-num is a stream: 64-byte rule */
    g_autofree char *odd = write_tmp("odd.bin", raw, 100);
    m = make_machine(1, 1);
    run_init(&r);
    it = add_item(&r, LOADER_FILE, odd);
    it->has_addr = true;
    it->addr = 0x2000000;
    it->has_cpu = true;
    g_assert_false(run_load(&r, m, &err));
    g_assert_error(err, NX_ERROR, NX_ERROR_LOAD);
    g_assert_nonnull(strstr(err->message, "multiple of 64 bytes"));
    g_clear_error(&err);
    machine_free(m);

    /* raw without addr */
    m = make_machine(1, 1);
    run_init(&r);
    add_item(&r, LOADER_FILE, path);
    g_assert_false(run_load(&r, m, &err));
    g_assert_nonnull(strstr(err->message, "addr= is required"));
    g_clear_error(&err);
    machine_free(m);

    /* data only: no core has an entry point */
    m = make_machine(1, 1);
    run_init(&r);
    it = add_item(&r, LOADER_DATA, NULL);
    it->has_addr = true;
    it->addr = 0x1000;
    it->data = 1;
    it->data_len = 1;
    g_assert_false(run_load(&r, m, &err));
    g_assert_error(err, NX_ERROR, NX_ERROR_LOAD);
    g_assert_nonnull(strstr(err->message, "no core has an entry point"));
    g_clear_error(&err);
    machine_free(m);

    /* a data word into MMIO (EVSEM) is refused */
    m = make_machine(1, 1);
    run_init(&r);
    it = add_item(&r, LOADER_DATA, NULL);
    it->has_addr = true;
    it->addr = 0x2802700000ull;
    it->data = 1;
    it->data_len = 4;
    g_assert_false(run_load(&r, m, &err));
    g_assert_nonnull(strstr(err->message, "is outside memory"));
    g_clear_error(&err);
    machine_free(m);

    /* missing file */
    m = make_machine(1, 1);
    run_init(&r);
    add_item(&r, LOADER_KERNEL, "/nonexistent/nx.elf");
    g_assert_false(run_load(&r, m, &err));
    g_assert_cmpstr(err->message, ==,
                    "/nonexistent/nx.elf: cannot open: No such file or directory");
    g_clear_error(&err);
    machine_free(m);
}

/* ---- TPC kernel ELF -------------------------------------------------------- */

typedef struct TpcOpts {
    uint32_t text_size;
    uint32_t version;
    uint16_t march;
    bool with_rel;
    bool without_md;
} TpcOpts;

static uint8_t tpc_text[96];

static GByteArray *build_tpc_elf(const TpcOpts *o, size_t *text_off)
{
    GByteArray *b = g_byte_array_new();
    Elf32_Ehdr eh = {0};
    uint8_t md[262] = {0};
    uint32_t version = o->version ? o->version : 12;
    memcpy(md, &version, 4);
    uint16_t march = o->march ? o->march : 2;
    memcpy(md + 8, &march, 2);
    md[14] = 1;
    const char names[] = "\0.text\0.tpc_metadata\0.rel.text\0.shstrtab\0";
    /* name offsets: .text 1, .tpc_metadata 7, .rel.text 21, .shstrtab 31 */
    uint8_t relent[8] = {0};

    memcpy(eh.e_ident, ELFMAG, SELFMAG);
    eh.e_ident[EI_CLASS] = ELFCLASS32;
    eh.e_ident[EI_DATA] = ELFDATA2LSB;
    eh.e_ident[EI_VERSION] = EV_CURRENT;
    eh.e_type = ET_REL;
    eh.e_machine = EM_386;
    eh.e_version = EV_CURRENT;
    eh.e_ehsize = sizeof(eh);
    eh.e_shentsize = sizeof(Elf32_Shdr);

    Elf32_Shdr sh[5] = {0};
    unsigned n = 1;
    size_t off = 64;
    sh[n] = (Elf32_Shdr){
        .sh_name = 1, .sh_type = SHT_PROGBITS, .sh_offset = off, .sh_size = o->text_size};
    put(b, off, tpc_text, o->text_size);
    *text_off = off;
    off += o->text_size;
    n++;
    if (!o->without_md) {
        sh[n] = (Elf32_Shdr){
            .sh_name = 7, .sh_type = SHT_PROGBITS, .sh_offset = off, .sh_size = sizeof(md)};
        put(b, off, md, sizeof(md));
        off += sizeof(md);
        n++;
    }
    if (o->with_rel) {
        sh[n] = (Elf32_Shdr){.sh_name = 21,
                             .sh_type = SHT_REL,
                             .sh_offset = off,
                             .sh_size = 8,
                             .sh_info = 1,
                             .sh_entsize = 8};
        put(b, off, relent, 8);
        off += 8;
        n++;
    }
    sh[n] = (Elf32_Shdr){
        .sh_name = 31, .sh_type = SHT_STRTAB, .sh_offset = off, .sh_size = sizeof(names)};
    put(b, off, names, sizeof(names));
    off = align_up(off + sizeof(names), 4);
    n++;
    eh.e_shoff = off;
    eh.e_shnum = (uint16_t)n;
    eh.e_shstrndx = (uint16_t)(n - 1);
    put(b, off, sh, n * sizeof(Elf32_Shdr));
    put(b, 0, &eh, sizeof(eh));
    return b;
}

static void test_tpc_elf(void)
{
    for (unsigned i = 0; i < sizeof(tpc_text); i++) {
        tpc_text[i] = (uint8_t)(0xC0 ^ i);
    }
    TpcOpts o = {.text_size = 64};
    size_t toff;
    GByteArray *b = build_tpc_elf(&o, &toff);
    g_autofree char *kpath = write_tmp("k.o", b->data, b->len);
    GByteArray *s = good_seq_elf(NULL, 0, NULL);
    g_autofree char *spath = write_tmp("launch.elf", s->data, s->len);
    Machine *m = make_machine(1, 2);
    Run r;
    GError *err = NULL;
    uint8_t got[64];
    const uint64_t kaddr = 0x2200000;

    run_init(&r);
    add_item(&r, LOADER_KERNEL, spath);
    LoaderItem *it = add_item(&r, LOADER_FILE, kpath);
    it->has_addr = true;
    it->addr = kaddr;
    it->has_tpc = true;
    it->tpc_num = 1;
    g_assert_true(run_load(&r, m, &err));
    g_assert_no_error(err);
    rd(m, kaddr, got, 64);
    g_assert_cmpmem(got, 64, tpc_text, 64);
    g_assert_cmphex(tpccfg_kv_read(&m->tpccfg[1], TPC_KV_KERNEL_BASE_LO), ==, kaddr);
    g_assert_cmphex(tpccfg_kv_read(&m->tpccfg[1], TPC_KV_KERNEL_BASE_HI), ==, 0);
    g_assert_cmpuint(m->tpccfg[1].kernel_size, ==, 64);
    /* TPC 0 untouched */
    g_assert_cmphex(tpccfg_kv_read(&m->tpccfg[0], TPC_KV_KERNEL_BASE_LO), ==, 0);
    g_assert_cmpuint(m->tpccfg[0].kernel_size, ==, 0);
    machine_free(m);
    g_byte_array_unref(s);

    /* without addr */
    m = make_machine(1, 2);
    run_init(&r);
    add_item(&r, LOADER_FILE, kpath);
    g_assert_false(run_load(&r, m, &err));
    g_assert_nonnull(strstr(err->message, "needs addr="));
    g_clear_error(&err);
    machine_free(m);

    /* addr not 32-byte aligned */
    m = make_machine(1, 2);
    run_init(&r);
    it = add_item(&r, LOADER_FILE, kpath);
    it->has_addr = true;
    it->addr = kaddr + 16;
    g_assert_false(run_load(&r, m, &err));
    g_assert_nonnull(strstr(err->message, "not 32-byte aligned"));
    g_clear_error(&err);
    machine_free(m);

    /* tpc-num beyond the configured TPCs */
    m = make_machine(1, 2);
    run_init(&r);
    it = add_item(&r, LOADER_FILE, kpath);
    it->has_addr = true;
    it->addr = kaddr;
    it->has_tpc = true;
    it->tpc_num = 2;
    g_assert_false(run_load(&r, m, &err));
    g_assert_nonnull(strstr(err->message, "TPC 2: the machine has 2 TPC(s)"));
    g_clear_error(&err);
    machine_free(m);
    g_byte_array_unref(b);

    /* malformed kernels: each error names the section header / field */
    struct {
        TpcOpts o;
        const char *reason;
    } bad[] = {
        {{.text_size = 48}, ".text size 48 is not a non-zero multiple of 32"},
        {{.text_size = 0}, ".text size 0 is not"},
        {{.text_size = 64, .with_rel = true}, "relocation section .rel.text"},
        {{.text_size = 64, .version = 13}, ".tpc_metadata version 13 is newer than 12"},
        {{.text_size = 64, .march = 4}, "march 4 is not 2"},
        {{.text_size = 64, .without_md = true}, "without a .tpc_metadata section"},
    };
    for (unsigned i = 0; i < G_N_ELEMENTS(bad); i++) {
        GByteArray *k = build_tpc_elf(&bad[i].o, &toff);
        g_autofree char *p = write_tmp("bad.o", k->data, k->len);
        m = make_machine(1, 2);
        run_init(&r);
        it = add_item(&r, LOADER_FILE, p);
        it->has_addr = true;
        it->addr = kaddr;
        g_assert_false(run_load(&r, m, &err));
        g_assert_error(err, NX_ERROR, NX_ERROR_LOAD);
        if (!strstr(err->message, bad[i].reason) || !g_str_has_prefix(err->message, p)) {
            g_error("case %u: '%s' lacks '%s'", i, err->message, bad[i].reason);
        }
        g_clear_error(&err);
        machine_free(m);
        g_byte_array_unref(k);
    }
}

/* ---- FIT ------------------------------------------------------------------ */

typedef struct FitImg {
    const char *name, *type, *arch;
    const void *data;
    uint32_t len;
    bool external; /* data-offset/data-size instead of data */
    bool has_load, has_entry, load64;
    uint64_t load, entry;
    int cpu, tpc; /* -1: absent */
    const char *compression;
} FitImg;

typedef struct FitConf {
    const char *name, *firmware, *kernel;
    const char *loadables[4];
} FitConf;

#define CK(x) g_assert_cmpint((x), ==, 0)

static GByteArray *build_fit(const FitImg *imgs, unsigned nimgs, const FitConf *confs,
                             unsigned nconfs, const char *def, bool no_images)
{
    size_t cap = 64 * 1024;
    g_autofree uint8_t *fdt = g_malloc0(cap);
    GByteArray *ext = g_byte_array_new();
    CK(fdt_create(fdt, (int)cap));
    CK(fdt_finish_reservemap(fdt));
    CK(fdt_begin_node(fdt, ""));
    CK(fdt_property_string(fdt, "description", "nxemu test FIT"));
    CK(fdt_property_u32(fdt, "#address-cells", 1));
    CK(fdt_begin_node(fdt, no_images ? "pictures" : "images"));
    for (unsigned i = 0; i < nimgs; i++) {
        const FitImg *im = &imgs[i];
        CK(fdt_begin_node(fdt, im->name));
        if (im->type) {
            CK(fdt_property_string(fdt, "type", im->type));
        }
        if (im->arch) {
            CK(fdt_property_string(fdt, "arch", im->arch));
        }
        CK(fdt_property_string(fdt, "compression", im->compression ? im->compression : "none"));
        if (im->external) {
            CK(fdt_property_u32(fdt, "data-offset", ext->len));
            CK(fdt_property_u32(fdt, "data-size", im->len));
            g_byte_array_append(ext, im->data, im->len);
            while (ext->len % 4) {
                g_byte_array_append(ext, (const guint8 *)"", 1);
            }
        } else if (im->data) {
            CK(fdt_property(fdt, "data", im->data, (int)im->len));
        }
        if (im->has_load) {
            if (im->load64) {
                CK(fdt_property_u64(fdt, "load", im->load));
            } else {
                CK(fdt_property_u32(fdt, "load", (uint32_t)im->load));
            }
        }
        if (im->has_entry) {
            CK(fdt_property_u32(fdt, "entry", (uint32_t)im->entry));
        }
        if (im->cpu >= 0) {
            CK(fdt_property_u32(fdt, "nxemu,cpu", (uint32_t)im->cpu));
        }
        if (im->tpc >= 0) {
            CK(fdt_property_u32(fdt, "nxemu,tpc", (uint32_t)im->tpc));
        }
        CK(fdt_end_node(fdt));
    }
    CK(fdt_end_node(fdt));
    CK(fdt_begin_node(fdt, "configurations"));
    if (def) {
        CK(fdt_property_string(fdt, "default", def));
    }
    for (unsigned i = 0; i < nconfs; i++) {
        CK(fdt_begin_node(fdt, confs[i].name));
        if (confs[i].firmware) {
            CK(fdt_property_string(fdt, "firmware", confs[i].firmware));
        }
        if (confs[i].kernel) {
            CK(fdt_property_string(fdt, "kernel", confs[i].kernel));
        }
        GString *l = g_string_new(NULL);
        for (unsigned k = 0; k < 4 && confs[i].loadables[k]; k++) {
            g_string_append(l, confs[i].loadables[k]);
            g_string_append_c(l, '\0');
        }
        if (l->len) {
            CK(fdt_property(fdt, "loadables", l->str, (int)l->len));
        }
        g_string_free(l, TRUE);
        CK(fdt_end_node(fdt));
    }
    CK(fdt_end_node(fdt));
    CK(fdt_end_node(fdt));
    CK(fdt_finish(fdt));
    GByteArray *b = g_byte_array_new();
    g_byte_array_append(b, fdt, fdt_totalsize(fdt));
    while (b->len % 4) {
        g_byte_array_append(b, (const guint8 *)"", 1);
    }
    g_byte_array_append(b, ext->data, ext->len);
    g_byte_array_unref(ext);
    return b;
}

static uint8_t fw_raw[128], blob[40];

static void fit_payloads(void)
{
    rec(fw_raw, 0xA4, 0x11);
    rec(fw_raw + 64, 0xA1, 0x12);
    for (unsigned i = 0; i < sizeof(blob); i++) {
        blob[i] = (uint8_t)(0x80 + i);
    }
}

static void test_fit_good(void)
{
    fit_payloads();
    uint8_t binds[32];
    brec(binds, 1, 0x2400000);
    brec(binds + 16, 2, 0x2400100);
    GByteArray *seq = good_seq_elf(NULL, 0, NULL);
    FitImg imgs[] = {
        {.name = "fw",
         .type = "firmware",
         .arch = "nxseq",
         .data = fw_raw,
         .len = 128,
         .has_load = true,
         .load = 0x3000000,
         .has_entry = true,
         .entry = 0x3000040,
         .cpu = -1,
         .tpc = -1},
        {.name = "app",
         .type = "kernel",
         .arch = "nxseq",
         .data = seq->data,
         .len = seq->len,
         .external = true,
         .cpu = 1,
         .tpc = -1},
        {.name = "blob",
         .type = "data",
         .data = blob,
         .len = sizeof(blob),
         .external = true,
         .has_load = true,
         .load64 = true,
         .load = 0x2000000100ull,
         .cpu = -1,
         .tpc = -1},
        {.name = "tbl", .type = "nxemu-bindings", .data = binds, .len = 32, .cpu = -1, .tpc = -1},
        {.name = "over",
         .type = "data",
         .data = blob,
         .len = 4,
         .has_load = true,
         .load = 0x3000000,
         .cpu = -1,
         .tpc = -1},
    };
    FitConf confs[] = {
        {.name = "conf-1", .firmware = "fw", .kernel = "app", .loadables = {"blob", "tbl"}},
        {.name = "conf-2", .firmware = "fw", .loadables = {"over"}},
    };
    GByteArray *b = build_fit(imgs, G_N_ELEMENTS(imgs), confs, 2, "conf-1", false);
    g_autofree char *path = write_tmp("img.itb", b->data, b->len);
    Machine *m = make_machine(2, 1);
    Run r;
    GError *err = NULL;
    uint8_t got[128];
    uint64_t a;

    run_init(&r);
    add_item(&r, LOADER_KERNEL, path);
    LoaderOptions o = {.items = r.items, .nr_items = r.n, .bindings = &r.bt};
    g_assert_true(loader_load(m, &o, &err));
    g_assert_no_error(err);
    rd(m, 0x3000000, got, 128);
    g_assert_cmpmem(got, 128, fw_raw, 128);
    rd(m, TEXT_ADDR, got, 128);
    g_assert_cmpmem(got, 128, text2, 128);
    rd(m, 0x2000000100ull, got, sizeof(blob));
    g_assert_cmpmem(got, sizeof(blob), blob, sizeof(blob));
    /* the -kernel firmware without nxemu,cpu starts core 0 at `entry` */
    g_assert_cmphex(m->nx[0].entry, ==, 0x3000040);
    g_assert_cmphex(m->nx[0].pc, ==, 0x3000040);
    /* the ELF kernel image with nxemu,cpu = 1: ENTRY from e_entry */
    g_assert_cmphex(m->nx[1].entry, ==, ENTRY);
    g_assert_true(bind_table_lookup(&r.bt, 2, &a));
    g_assert_cmphex(a, ==, 0x2400100);
    bind_table_destroy(&r.bt);
    machine_free(m);

    /* -fit-config conf-2: firmware then `over`, which overwrites its first bytes */
    m = make_machine(2, 1);
    run_init(&r);
    r.fit_config = "conf-2";
    add_item(&r, LOADER_KERNEL, path);
    g_assert_true(run_load(&r, m, &err));
    g_assert_no_error(err);
    rd(m, 0x3000000, got, 128);
    g_assert_cmpmem(got, 4, blob, 4);
    g_assert_cmpmem(got + 4, 124, fw_raw + 4, 124);
    g_assert_cmphex(m->nx[1].entry, ==, 0); /* no kernel image in conf-2 */
    machine_free(m);

    /* the same FIT through -device loader: firmware starts no core */
    m = make_machine(2, 1);
    run_init(&r);
    r.fit_config = "conf-2";
    add_item(&r, LOADER_FILE, path);
    g_assert_false(run_load(&r, m, &err));
    g_assert_nonnull(strstr(err->message, "no core has an entry point"));
    g_clear_error(&err);
    machine_free(m);
    g_byte_array_unref(b);
    g_byte_array_unref(seq);
}

static void expect_fit_error(GByteArray *b, const char *config, const char *reason)
{
    g_autofree char *path = write_tmp("bad.itb", b->data, b->len);
    Machine *m = make_machine(2, 1);
    Run r;
    GError *err = NULL;
    run_init(&r);
    r.fit_config = config;
    add_item(&r, LOADER_KERNEL, path);
    g_assert_false(run_load(&r, m, &err));
    g_assert_error(err, NX_ERROR, NX_ERROR_LOAD);
    g_test_message("%s", err->message);
    g_autofree char *prefix = g_strdup_printf("%s: offset 0x", path);
    if (!g_str_has_prefix(err->message, prefix) || !strstr(err->message, reason)) {
        g_error("message '%s' lacks '%s'", err->message, reason);
    }
    g_error_free(err);
    machine_free(m);
    g_byte_array_unref(b);
}

static void test_fit_malformed(void)
{
    fit_payloads();
    FitImg fw = {.name = "fw",
                 .type = "firmware",
                 .arch = "nxseq",
                 .data = fw_raw,
                 .len = 128,
                 .has_load = true,
                 .load = 0x3000000,
                 .cpu = -1,
                 .tpc = -1};
    FitConf conf = {.name = "c", .firmware = "fw"};
    FitImg im;
    GByteArray *b;

    b = build_fit(&fw, 1, &conf, 1, "c", true);
    expect_fit_error(b, NULL, "FIT has no /images node");

    im = fw;
    im.data = NULL;
    b = build_fit(&im, 1, &conf, 1, "c", false);
    expect_fit_error(b, NULL, "image fw: no data");

    /* data-offset pointing past the end of the file */
    b = build_fit(&fw, 1, &conf, 1, "c", false);
    im = fw;
    im.external = true;
    g_byte_array_unref(b);
    b = build_fit(&im, 1, &conf, 1, "c", false);
    g_byte_array_set_size(b, b->len - 64); /* external data cut short */
    expect_fit_error(b, NULL, "image fw: data-offset 0x0 + data-size 0x80");

    im = fw;
    im.compression = "gzip";
    b = build_fit(&im, 1, &conf, 1, "c", false);
    expect_fit_error(b, NULL, "compression \"gzip\" is not supported");

    FitConf ghost = {.name = "c", .firmware = "fw", .loadables = {"ghost"}};
    b = build_fit(&fw, 1, &ghost, 1, "c", false);
    expect_fit_error(b, NULL, "configuration c: unknown image 'ghost'");

    b = build_fit(&fw, 1, &conf, 1, "c", false);
    expect_fit_error(b, "nope", "configuration 'nope' not found");

    b = build_fit(&fw, 1, &conf, 1, NULL, false);
    expect_fit_error(b, NULL, "/configurations has no default");

    uint8_t binds[20] = {0};
    FitImg imgs2[2] = {
        fw,
        {.name = "tbl", .type = "nxemu-bindings", .data = binds, .len = 20, .cpu = -1, .tpc = -1}};
    FitConf c2 = {.name = "c", .firmware = "fw", .loadables = {"tbl"}};
    b = build_fit(imgs2, 2, &c2, 1, "c", false);
    expect_fit_error(b, NULL, "image tbl: size 20 is not a multiple of 16");

    /* two binding images disagreeing on var_id 3 */
    uint8_t b1[16], b2[16];
    brec(b1, 3, 0x100);
    brec(b2, 3, 0x200);
    FitImg imgs3[3] = {
        fw,
        {.name = "t1", .type = "nxemu-bindings", .data = b1, .len = 16, .cpu = -1, .tpc = -1},
        {.name = "t2", .type = "nxemu-bindings", .data = b2, .len = 16, .cpu = -1, .tpc = -1}};
    FitConf c3 = {.name = "c", .firmware = "fw", .loadables = {"t1", "t2"}};
    b = build_fit(imgs3, 3, &c3, 1, "c", false);
    expect_fit_error(b, NULL, "image t2 record 0: var_id 3 bound to 0x200 conflicts with 0x100");

    /* an ELF payload with a load property */
    GByteArray *seq = good_seq_elf(NULL, 0, NULL);
    im = fw;
    im.data = seq->data;
    im.len = seq->len;
    b = build_fit(&im, 1, &conf, 1, "c", false);
    expect_fit_error(b, NULL, "an ELF payload must not have a load property");
    g_byte_array_unref(seq);

    /* a raw sequencer image without load */
    im = fw;
    im.has_load = false;
    b = build_fit(&im, 1, &conf, 1, "c", false);
    expect_fit_error(b, NULL, "needs a load address");

    im = fw;
    im.type = "kernel-noload";
    b = build_fit(&im, 1, &conf, 1, "c", false);
    expect_fit_error(b, NULL, "unknown type \"kernel-noload\"");

    /* nxemu,cpu beyond the cores */
    im = fw;
    im.cpu = 5;
    b = build_fit(&im, 1, &conf, 1, "c", false);
    expect_fit_error(b, NULL, "nxemu,cpu 5: the machine has 2 sequencer core(s)");

    /* corrupt FDT structure */
    b = build_fit(&fw, 1, &conf, 1, "c", false);
    set32(b, 8, 0xFFFFFF); /* off_dt_struct far outside */
    expect_fit_error(b, NULL, "malformed FIT");
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    init_payloads();
    tmpdir = g_dir_make_tmp("nxemu-loader-XXXXXX", NULL);
    g_assert_nonnull(tmpdir);

    g_test_add_func("/loader/seq-elf/good", test_seq_elf_good);
    g_test_add_func("/loader/seq-elf/cpu-num", test_seq_elf_cpu_num);
    g_test_add_func("/loader/seq-elf/malformed", test_seq_elf_malformed);
    g_test_add_func("/loader/elf/parse", test_elf_parse_direct);
    g_test_add_func("/loader/elf/symbols", test_elf_symbols);
    g_test_add_func("/loader/bindings", test_bindings);
    g_test_add_func("/loader/lowering", test_lowering);
    g_test_add_func("/loader/raw-and-data", test_raw_and_data);
    g_test_add_func("/loader/tpc-elf", test_tpc_elf);
    g_test_add_func("/loader/fit/good", test_fit_good);
    g_test_add_func("/loader/fit/malformed", test_fit_malformed);
    int rc = g_test_run();

    GDir *d = g_dir_open(tmpdir, 0, NULL);
    const char *n;
    while (d && (n = g_dir_read_name(d))) {
        g_autofree char *p = g_build_filename(tmpdir, n, NULL);
        g_unlink(p);
    }
    if (d) {
        g_dir_close(d);
    }
    g_rmdir(tmpdir);
    g_free(tmpdir);
    return rc;
}
