/* Helpers shared by the loader unit tests (see loader-testlib.h). */
#include <inttypes.h>
#include <string.h>

#include <glib/gstdio.h>

#include "hw/nc2/fdt.h"
#include "loader-testlib.h"
#include "nxemu/error.h"

static char *tmpdir;

void loader_testlib_init(int *argc, char ***argv)
{
    g_test_init(argc, argv, NULL);
    init_payloads();
    tmpdir = g_dir_make_tmp("nxemu-loader-XXXXXX", NULL);
    g_assert_nonnull(tmpdir);
}

void loader_testlib_cleanup(void)
{
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
    g_clear_pointer(&tmpdir, g_free);
}

/* ---- machine ------------------------------------------------------------ */

Machine *make_machine(unsigned nr_seq, unsigned nr_tpc)
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

void rd(Machine *m, uint64_t addr, void *buf, uint64_t len)
{
    uint64_t bad;
    g_assert_cmpint(as_rw_bytes(m->as, addr, buf, len, false, MEMTXATTRS(MEM_REQ_DEBUG, 0), &bad),
                    ==, MEMTX_OK);
}

void fill(Machine *m, uint64_t addr, uint8_t v, uint64_t len)
{
    uint64_t bad;
    g_autofree uint8_t *b = g_malloc(len);
    memset(b, v, len);
    g_assert_cmpint(as_rw_bytes(m->as, addr, b, len, true, MEMTXATTRS(MEM_REQ_DEBUG, 0), &bad), ==,
                    MEMTX_OK);
}

/* ---- image builders ------------------------------------------------------ */

char *write_tmp(const char *name, const void *data, size_t len)
{
    char *path = g_build_filename(tmpdir, name, NULL);
    g_assert_true(g_file_set_contents(path, data, (gssize)len, NULL));
    return path;
}

void put(GByteArray *b, size_t off, const void *p, size_t n)
{
    if (b->len < off + n) {
        size_t old = b->len;
        g_byte_array_set_size(b, (guint)(off + n));
        memset(b->data + old, 0, off + n - old);
    }
    memcpy(b->data + off, p, n);
}

size_t align_up(size_t v, size_t a)
{
    return (v + a - 1) / a * a;
}

/* Section data goes after the segments; the name table is the last section,
 * the section header table ends the file.  Section i of `secs` is ELF
 * section i + 1. */
GByteArray *build_elf64(uint64_t entry, const Seg *segs, unsigned nsegs, const Sec *secs,
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
void rec(uint8_t *p, uint8_t op, uint8_t tag)
{
    memset(p, 0, 64);
    p[0] = op;
    p[1] = 0x10; /* inst_word_len */
    p[63] = tag;
}

uint8_t text2[128];
uint8_t data16[16];
uint8_t tpc_text[96];

void init_payloads(void)
{
    rec(text2, 0xA4, 1);      /* NOP */
    rec(text2 + 64, 0xA1, 2); /* HALT */
    for (unsigned i = 0; i < 16; i++) {
        data16[i] = (uint8_t)(0x10 + i);
    }
    for (unsigned i = 0; i < sizeof(tpc_text); i++) {
        tpc_text[i] = (uint8_t)(0xC0 ^ i);
    }
}

/* The good sequencer ELF: text (R+X, 128 bytes) and data (R+W, 16 bytes of
 * file, 64 of memory) plus optional extra sections. */
GByteArray *good_seq_elf(const Sec *secs, unsigned nsecs, ElfLayout *lay)
{
    Seg segs[2] = {
        {PF_R | PF_X, TEXT_ADDR, text2, sizeof(text2), sizeof(text2)},
        {PF_R | PF_W, DATA_ADDR, data16, sizeof(data16), 64},
    };
    return build_elf64(ENTRY, segs, 2, secs, nsecs, lay);
}

void set16(GByteArray *b, size_t off, uint16_t v)
{
    memcpy(b->data + off, &v, 2);
}

void set32(GByteArray *b, size_t off, uint32_t v)
{
    memcpy(b->data + off, &v, 4);
}

void set64(GByteArray *b, size_t off, uint64_t v)
{
    memcpy(b->data + off, &v, 8);
}

/* ---- loader option helpers ---------------------------------------------- */

void run_init(Run *r)
{
    memset(r, 0, sizeof(*r));
    bind_table_init(&r->bt);
}

LoaderItem *add_item(Run *r, LoaderKind kind, const char *file)
{
    g_assert_cmpuint(r->n, <, G_N_ELEMENTS(r->items));
    LoaderItem *it = &r->items[r->n++];
    it->kind = kind;
    it->file = (char *)file;
    return it;
}

bool run_load(Run *r, Machine *m, GError **err)
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
void expect_file_error(const char *path, uint64_t off, const char *reason)
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

void expect_elf_error(GByteArray *b, uint64_t off, const char *reason)
{
    g_autofree char *path = write_tmp("bad.elf", b->data, b->len);
    expect_file_error(path, off, reason);
    g_byte_array_unref(b);
}

void brec(uint8_t *p, uint32_t var, uint64_t addr)
{
    memset(p, 0, 16);
    memcpy(p, &var, 4);
    memcpy(p + 8, &addr, 8);
}

/* ---- TPC kernel ELF -------------------------------------------------------- */

GByteArray *build_tpc_elf(const TpcOpts *o, size_t *text_off)
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
