/*
 * DWARF 4 line tables for the assemblers' `-g` (include/nxemu/dwarf-line.h).
 *
 * What gdb needs to map pcs to source lines, and nothing more, in the shape
 * GNU as -g gives assembly source: one compile unit DIE without children
 * (name, directory, producer, language DW_LANG_Mips_Assembler, the pc range
 * and the offset of its line program), and a line program with one row per
 * instruction.  Each run of back-to-back instructions is one sequence,
 * ended at the last one's end, so a gap (another segment, .org) is no line.
 * File names are written as given, relative to DW_AT_comp_dir (the current
 * directory, as GNU as does), so `list` finds the source from anywhere.
 */
#include <string.h>

#include "nxemu/dwarf-line.h"

enum {
    DW_TAG_compile_unit = 0x11,
    DW_AT_name = 0x03,
    DW_AT_stmt_list = 0x10,
    DW_AT_low_pc = 0x11,
    DW_AT_high_pc = 0x12,
    DW_AT_language = 0x13,
    DW_AT_comp_dir = 0x1b,
    DW_AT_producer = 0x25,
    DW_FORM_addr = 0x01,
    DW_FORM_data2 = 0x05,
    DW_FORM_data8 = 0x07,
    DW_FORM_string = 0x08,
    DW_FORM_sec_offset = 0x17,
    DW_LANG_Mips_Assembler = 0x8001,
    DW_LNS_copy = 1,
    DW_LNS_advance_pc = 2,
    DW_LNS_advance_line = 3,
    DW_LNS_set_file = 4,
    DW_LNE_end_sequence = 1,
    DW_LNE_set_address = 2,
    LINE_OPCODE_BASE = 13,
    /* .debug_gdb_scripts entry kind: Python script text (gdb's
     * include/gdb/section-scripts.h numbering) */
    GDB_SCRIPT_PYTHON_TEXT = 4,
};

static void u8(GByteArray *b, unsigned v)
{
    uint8_t x = (uint8_t)v;
    g_byte_array_append(b, &x, 1);
}

static void le(GByteArray *b, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        u8(b, (unsigned)(v >> (8 * i)) & 0xff);
}

static void uleb(GByteArray *b, uint64_t v)
{
    do {
        unsigned byte = v & 0x7f;
        v >>= 7;
        u8(b, byte | (v ? 0x80 : 0));
    } while (v);
}

static void sleb(GByteArray *b, int64_t v)
{
    for (;;) {
        unsigned byte = (unsigned)v & 0x7f;
        v >>= 7; /* arithmetic shift: gcc and clang, as C23 requires */
        bool done = (v == 0 && !(byte & 0x40)) || (v == -1 && (byte & 0x40));
        u8(b, byte | (done ? 0 : 0x80));
        if (done)
            return;
    }
}

static void str(GByteArray *b, const char *s)
{
    g_byte_array_append(b, (const guint8 *)s, (guint)strlen(s) + 1);
}

static void put32(GByteArray *b, size_t at, uint32_t v)
{
    for (unsigned i = 0; i < 4; i++)
        b->data[at + i] = (uint8_t)(v >> (8 * i));
}

typedef struct Row {
    NxLineRow r;
    unsigned order;
} Row;

static gint row_cmp(gconstpointer x, gconstpointer y)
{
    const Row *a = x, *b = y;
    if (a->r.addr != b->r.addr)
        return a->r.addr < b->r.addr ? -1 : 1;
    return a->order < b->order ? -1 : a->order > b->order;
}

static void set_address(GByteArray *b, uint64_t addr, unsigned asz)
{
    u8(b, 0);
    uleb(b, 1 + asz);
    u8(b, DW_LNE_set_address);
    le(b, addr, asz);
}

static GByteArray *line_program(unsigned asz, const char *const *files, unsigned nfiles,
                                const Row *rows, unsigned n)
{
    static const uint8_t std_lengths[LINE_OPCODE_BASE - 1] = {0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1};
    GByteArray *b = g_byte_array_new();
    le(b, 0, 4); /* unit_length, patched */
    le(b, 4, 2); /* version */
    le(b, 0, 4); /* header_length, patched */
    size_t hdr_start = b->len;
    u8(b, 1);                   /* minimum_instruction_length */
    u8(b, 1);                   /* maximum_operations_per_instruction */
    u8(b, 1);                   /* default_is_stmt */
    u8(b, (uint8_t)(int8_t)-5); /* line_base */
    u8(b, 14);                  /* line_range */
    u8(b, LINE_OPCODE_BASE);
    g_byte_array_append(b, std_lengths, sizeof(std_lengths));
    u8(b, 0); /* no include_directories: names are relative to comp_dir */
    for (unsigned i = 0; i < nfiles; i++) {
        str(b, files[i]);
        uleb(b, 0); /* directory 0: the compilation directory */
        uleb(b, 0); /* mtime unknown */
        uleb(b, 0); /* length unknown */
    }
    u8(b, 0);
    put32(b, 6, (uint32_t)(b->len - hdr_start));

    unsigned i = 0;
    while (i < n) {
        /* one sequence: rows back to back from rows[i] */
        unsigned file = 1, line = 1;
        uint64_t addr = rows[i].r.addr;
        set_address(b, addr, asz);
        for (;;) {
            const NxLineRow *r = &rows[i].r;
            if (r->addr != addr) {
                u8(b, DW_LNS_advance_pc);
                uleb(b, r->addr - addr);
                addr = r->addr;
            }
            if (r->file + 1 != file) {
                file = r->file + 1;
                u8(b, DW_LNS_set_file);
                uleb(b, file);
            }
            if (r->line != line) {
                u8(b, DW_LNS_advance_line);
                sleb(b, (int64_t)r->line - (int64_t)line);
                line = r->line;
            }
            u8(b, DW_LNS_copy);
            uint64_t end = r->addr + r->size;
            /* skip later rows at the same address: the first one names it */
            do {
                i++;
            } while (i < n && rows[i].r.addr == r->addr);
            if (i == n || rows[i].r.addr != end) {
                u8(b, DW_LNS_advance_pc);
                uleb(b, end - addr);
                u8(b, 0);
                uleb(b, 1);
                u8(b, DW_LNE_end_sequence);
                break;
            }
        }
    }
    put32(b, 0, (uint32_t)(b->len - 4));
    return b;
}

static void add(GArray *out, const char *name, GByteArray *data)
{
    NxDebugSection s = {name, data};
    g_array_append_val(out, s);
}

GArray *nx_dwarf_sections(const NxAsmDebug *dbg, unsigned asz, const char *const *files,
                          unsigned nfiles, const NxLineRow *rows, unsigned nrows)
{
    GArray *out = g_array_new(FALSE, TRUE, sizeof(NxDebugSection));
    if (!dbg || !dbg->lines)
        return out;
    GArray *sorted = g_array_sized_new(FALSE, TRUE, sizeof(Row), nrows);
    uint64_t lo = UINT64_MAX, hi = 0;
    for (unsigned i = 0; i < nrows; i++) {
        Row r = {rows[i], i};
        g_array_append_val(sorted, r);
        lo = MIN(lo, rows[i].addr);
        hi = MAX(hi, rows[i].addr + rows[i].size);
    }
    g_array_sort(sorted, row_cmp);
    if (!nrows)
        lo = hi = 0;

    GByteArray *abbrev = g_byte_array_new();
    uleb(abbrev, 1);
    uleb(abbrev, DW_TAG_compile_unit);
    u8(abbrev, 0); /* DW_CHILDREN_no */
    static const unsigned attrs[][2] = {
        {DW_AT_stmt_list, DW_FORM_sec_offset}, {DW_AT_low_pc, DW_FORM_addr},
        {DW_AT_high_pc, DW_FORM_data8},        {DW_AT_name, DW_FORM_string},
        {DW_AT_comp_dir, DW_FORM_string},      {DW_AT_producer, DW_FORM_string},
        {DW_AT_language, DW_FORM_data2},
    };
    for (unsigned i = 0; i < G_N_ELEMENTS(attrs); i++) {
        uleb(abbrev, attrs[i][0]);
        uleb(abbrev, attrs[i][1]);
    }
    u8(abbrev, 0);
    u8(abbrev, 0);
    u8(abbrev, 0); /* end of the abbreviations */

    char *cwd = g_get_current_dir();
    GByteArray *info = g_byte_array_new();
    le(info, 0, 4); /* unit_length, patched */
    le(info, 4, 2); /* version */
    le(info, 0, 4); /* .debug_abbrev offset */
    u8(info, asz);
    uleb(info, 1);
    le(info, 0, 4); /* DW_AT_stmt_list: the only line program */
    le(info, lo, asz);
    le(info, hi - lo, 8);
    str(info, nfiles ? files[0] : "");
    str(info, cwd);
    str(info, "nxemu-as");
    le(info, DW_LANG_Mips_Assembler, 2);
    put32(info, 0, (uint32_t)(info->len - 4));
    g_free(cwd);

    /* .debug_aranges: the unit's range, for tools that index by it */
    GByteArray *ar = g_byte_array_new();
    le(ar, 0, 4);
    le(ar, 2, 2); /* version */
    le(ar, 0, 4); /* .debug_info offset */
    u8(ar, asz);
    u8(ar, 0); /* segment selector size */
    while ((ar->len) % (2 * asz))
        u8(ar, 0); /* the tuples are aligned to their size */
    le(ar, lo, asz);
    le(ar, hi - lo, asz);
    le(ar, 0, asz);
    le(ar, 0, asz);
    put32(ar, 0, (uint32_t)(ar->len - 4));

    add(out, ".debug_info", info);
    add(out, ".debug_abbrev", abbrev);
    add(out, ".debug_aranges", ar);
    add(out, ".debug_line",
        line_program(asz, files, nfiles, (const Row *)(void *)sorted->data, sorted->len));
    g_array_free(sorted, TRUE);

    if (dbg->script_name && dbg->script) {
        GByteArray *s = g_byte_array_new();
        u8(s, GDB_SCRIPT_PYTHON_TEXT);
        g_byte_array_append(s, (const guint8 *)dbg->script_name, (guint)strlen(dbg->script_name));
        u8(s, '\n');
        g_byte_array_append(s, dbg->script, (guint)dbg->script_len);
        u8(s, 0);
        add(out, ".debug_gdb_scripts", s);
    }
    return out;
}

void nx_dwarf_free(GArray *sections)
{
    if (!sections)
        return;
    for (guint i = 0; i < sections->len; i++)
        g_byte_array_free(g_array_index(sections, NxDebugSection, i).data, TRUE);
    g_array_free(sections, TRUE);
}
