/*
 * Image loading (machine.md §11, tpc.md §7.1): sequencer ELFs, raw files,
 * data words, bindings, pseudo lowering and TPC kernel ELFs.  Images are
 * built byte by byte (loader-testlib.c), written to a temporary directory and
 * loaded into a real machine; expected bytes, addresses and messages come
 * from the spec.
 */
#include <inttypes.h>
#include <string.h>

#include "hw/nc2/board.h"
#include "loader-testlib.h"
#include "nxemu/error.h"
#include "softmmu/elf.h"

/* Load r's items (the caller prepared them) into a fresh machine of nr_seq
 * cores and nr_tpc TPCs: the load must fail with NX_ERROR_LOAD and a message
 * equal to want (exact) or containing it. */
static void load_must_fail(Run *r, unsigned nr_seq, unsigned nr_tpc, const char *want, bool exact)
{
    Machine *m = make_machine(nr_seq, nr_tpc);
    GError *err = NULL;
    g_assert_false(run_load(r, m, &err));
    g_assert_error(err, NX_ERROR, NX_ERROR_LOAD);
    if (exact) {
        g_assert_cmpstr(err->message, ==, want);
    } else if (!strstr(err->message, want)) {
        g_error("'%s' lacks '%s'", err->message, want);
    }
    g_error_free(err);
    machine_free(m);
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
    g_assert_cmphex(m->board->nx[0].entry, ==, ENTRY);
    g_assert_cmphex(m->board->nx[0].regs.pc, ==, ENTRY);
    if (m->seq[0]) {
        g_assert_cmpint(m->seq[0]->state, ==, CPU_RUNNING);
    }
    /* core 1 got no entry: stays in RESET with ENTRY 0 */
    g_assert_cmphex(m->board->nx[1].entry, ==, 0);
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
    g_assert_cmphex(m->board->nx[1].entry, ==, ENTRY);
    g_assert_cmphex(m->board->nx[1].regs.pc, ==, ENTRY);
    g_assert_cmphex(m->board->nx[0].entry, ==, 0);
    if (m->seq[1]) {
        g_assert_cmpint(m->seq[1]->state, ==, CPU_RUNNING);
        g_assert_cmpint(m->seq[0]->state, ==, CPU_RESET);
    }
    machine_free(m);

    /* cpu-num beyond the configured cores */
    run_init(&r);
    it = add_item(&r, LOADER_FILE, path);
    it->has_cpu = true;
    it->cpu_num = 2;
    load_must_fail(&r, 2, 1, "2 sequencer core(s)", false);

    /* addr= with a sequencer ELF */
    run_init(&r);
    it = add_item(&r, LOADER_FILE, path);
    it->has_addr = true;
    it->addr = TEXT_ADDR;
    load_must_fail(&r, 2, 1, "addr= cannot be used with a sequencer ELF", false);
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
    run_init(&r);
    g_assert_true(bind_table_add(&r.bt, 7, 0x1000, "-bind", &err));
    add_item(&r, LOADER_FILE, path);
    g_autofree char *want = g_strdup_printf(
        "%s: offset 0x%zx: .nx_bindings record 0: var_id 7 bound to 0x2000000 conflicts with "
        "0x1000 from -bind",
        path, lay.sec_off[0]);
    load_must_fail(&r, 1, 1, want, true);
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
    g_assert_cmphex(m->board->nx[1].entry, ==, 0x2000000);
    g_assert_cmphex(m->board->nx[1].regs.pc, ==, 0x2000000);
    g_assert_cmphex(m->board->nx[0].entry, ==, 0);
    machine_free(m);

    /* raw image with cpu-num is a stream: 64-byte rule */
    g_autofree char *odd = write_tmp("odd.bin", raw, 100);
    run_init(&r);
    it = add_item(&r, LOADER_FILE, odd);
    it->has_addr = true;
    it->addr = 0x2000000;
    it->has_cpu = true;
    load_must_fail(&r, 1, 1, "multiple of 64 bytes", false);

    /* raw without addr */
    run_init(&r);
    add_item(&r, LOADER_FILE, path);
    load_must_fail(&r, 1, 1, "addr= is required", false);

    /* data only: no core has an entry point */
    run_init(&r);
    it = add_item(&r, LOADER_DATA, NULL);
    it->has_addr = true;
    it->addr = 0x1000;
    it->data = 1;
    it->data_len = 1;
    load_must_fail(&r, 1, 1, "no core has an entry point", false);

    /* a data word into MMIO (EVSEM) is refused */
    run_init(&r);
    it = add_item(&r, LOADER_DATA, NULL);
    it->has_addr = true;
    it->addr = 0x2802700000ull;
    it->data = 1;
    it->data_len = 4;
    load_must_fail(&r, 1, 1, "is outside memory", false);

    /* missing file */
    run_init(&r);
    add_item(&r, LOADER_KERNEL, "/nonexistent/nx.elf");
    load_must_fail(&r, 1, 1, "-kernel /nonexistent/nx.elf: cannot open: No such file or directory", true);
}

/* ---- TPC kernel ELF -------------------------------------------------------- */

static void test_tpc_elf(void)
{
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
    g_assert_cmphex(tpccfg_kv_read(&m->board->tpccfg[1], TPC_KV_KERNEL_BASE_LO), ==, kaddr);
    g_assert_cmphex(tpccfg_kv_read(&m->board->tpccfg[1], TPC_KV_KERNEL_BASE_HI), ==, 0);
    g_assert_cmpuint(m->board->tpccfg[1].kernel_size, ==, 64);
    /* TPC 0 untouched */
    g_assert_cmphex(tpccfg_kv_read(&m->board->tpccfg[0], TPC_KV_KERNEL_BASE_LO), ==, 0);
    g_assert_cmpuint(m->board->tpccfg[0].kernel_size, ==, 0);
    machine_free(m);
    g_byte_array_unref(s);

    /* without addr */
    run_init(&r);
    add_item(&r, LOADER_FILE, kpath);
    load_must_fail(&r, 1, 2, "needs addr=", false);

    /* addr not 32-byte aligned */
    run_init(&r);
    it = add_item(&r, LOADER_FILE, kpath);
    it->has_addr = true;
    it->addr = kaddr + 16;
    load_must_fail(&r, 1, 2, "not 32-byte aligned", false);

    /* tpc-num beyond the configured TPCs */
    run_init(&r);
    it = add_item(&r, LOADER_FILE, kpath);
    it->has_addr = true;
    it->addr = kaddr;
    it->has_tpc = true;
    it->tpc_num = 2;
    load_must_fail(&r, 1, 2, "TPC 2: the machine has 2 TPC(s)", false);
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

int main(int argc, char **argv)
{
    loader_testlib_init(&argc, &argv);
    g_test_add_func("/loader/seq-elf/good", test_seq_elf_good);
    g_test_add_func("/loader/seq-elf/cpu-num", test_seq_elf_cpu_num);
    g_test_add_func("/loader/seq-elf/malformed", test_seq_elf_malformed);
    g_test_add_func("/loader/elf/parse", test_elf_parse_direct);
    g_test_add_func("/loader/elf/symbols", test_elf_symbols);
    g_test_add_func("/loader/bindings", test_bindings);
    g_test_add_func("/loader/lowering", test_lowering);
    g_test_add_func("/loader/raw-and-data", test_raw_and_data);
    g_test_add_func("/loader/tpc-elf", test_tpc_elf);
    int rc = g_test_run();
    loader_testlib_cleanup();
    return rc;
}
