/*
 * Debug sections the assemblers write with `nxemu-as -g` (softmmu/dwarf-line.c):
 * a DWARF 4 line table (.debug_line) under one compile unit (.debug_info,
 * .debug_abbrev, .debug_aranges), as GNU as -g writes for assembly source, so
 * that gdb's `list`, `break FILE:LINE`, `next`/`step` and `info line` work;
 * and optionally a .debug_gdb_scripts section carrying a Python script inline,
 * which gdb auto-loads with the symbol file (docs/gdb.rst, "Source lines").
 */
#ifndef NXEMU_DWARF_LINE_H
#define NXEMU_DWARF_LINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <glib.h>

/* What `-g` asks for; NULL or lines == false: no debug sections. */
typedef struct NxAsmDebug {
    bool lines;
    const char *script_name; /* inline .debug_gdb_scripts entry, or NULL */
    const uint8_t *script;
    size_t script_len;
} NxAsmDebug;

/* One instruction's (record's, bundle's) source position. */
typedef struct NxLineRow {
    uint64_t addr;
    uint32_t size; /* bytes the instruction occupies */
    unsigned file; /* index into the file name list */
    unsigned line; /* 1-based */
} NxLineRow;

/* One section to add to the object (name is static, data owned). */
typedef struct NxDebugSection {
    const char *name;
    GByteArray *data;
} NxDebugSection;

/*
 * The debug sections for rows (any order; rows at the same address keep
 * the first) of a program whose source files are files[0..nfiles)
 * (files[0] names the compile unit), addresses addr_size (4 or 8) bytes
 * wide.  Returns a GArray of NxDebugSection (free with nx_dwarf_free).
 */
GArray *nx_dwarf_sections(const NxAsmDebug *dbg, unsigned addr_size, const char *const *files,
                          unsigned nfiles, const NxLineRow *rows, unsigned nrows);
void nx_dwarf_free(GArray *sections);

#endif
