/*
 * TPC assembler/disassembler internals shared by asm*.c, disas.c and
 * tpc-tools.c: the switch table (names and field positions), register and
 * type names, the assembler entry points and the ELF32 writer.
 */
#ifndef TARGET_TPC_ASM_H
#define TARGET_TPC_ASM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <glib.h>

#include "nxemu/dwarf-line.h"
#include "target/tpc/insn.h"

/* Names. */
extern const char *const tpc_type_suffix[TPC_T_COUNT];      /* "f32", ..., "u16" */
extern const char *const tpc_target_type_name[TPC_T_COUNT]; /* "fp32", ..., NULL for b */
extern const char *const tpc_round_name[8];                 /* "rhne", ..., NULL for default */
extern const char *const tpc_loop_cmp_name[6];              /* ">", ">=", ... */

/* Disassemble one bundle into `out` (appended, no newline).  `pc` is the
 * bundle's byte offset; `label` (may be NULL) names a jump/loop target
 * offset or returns NULL. */
typedef const char *(*TpcLabelFn)(void *opaque, uint32_t offset);
void tpc_disas_bundle_gs(GString *out, const uint8_t b[TPC_BUNDLE_BYTES], uint32_t pc,
                         TpcLabelFn label, void *opaque);

/* Result of assembling one source file. */
typedef struct TpcSym {
    char *name;
    uint32_t value;
    bool global;
} TpcSym;

typedef struct TpcSection {
    char *name;
    GByteArray *data;
} TpcSection;

typedef struct TpcObject {
    GByteArray *text;      /* bundles */
    uint8_t metadata[262]; /* .tpc_metadata */
    GArray *syms;          /* TpcSym, in definition order */
    GPtrArray *extra;      /* TpcSection *: .IndexMap and unknown sections */
    GArray *lines;         /* NxLineRow (nxemu/dwarf-line.h) of each bundle: its source line */
} TpcObject;

#define TPC_METADATA_SIZE 262

/* Assemble source text (name used in messages).  Errors/warnings go to
 * `err` as `file:line:col: error: ...` lines; returns false on error. */
bool tpc_assemble_text(const char *name, const char *text, TpcObject *obj, FILE *err);
void tpc_object_init(TpcObject *obj);
void tpc_object_free(TpcObject *obj);

/* ELF32 object like the vendor's (EM_386, ET_REL). */
GByteArray *tpc_elf32_write(const TpcObject *obj);

/* Disassembly of a whole object: label lines and bundles (tpc.md §8).  With
 * leading_addr, as llvm-objdump prints by default: "00000040 <L0>:" label
 * lines and "      40: " before each bundle (its byte offset, the pc of
 * fault lines); without, the vendor's --no-leading-addr text. */
void tpc_disas_text(GString *out, const uint8_t *text, size_t len, const TpcSym *syms,
                    size_t nsyms, bool leading_addr);
/* Metadata dump (tpc.md §8.6). */
void tpc_disas_metadata(GString *out, const uint8_t *md, size_t len);

#endif
