/* Entry points of the TPC toolchain used by tools/nxemu-as (-t tpc) and
 * tools/nxemu-objdump.  Same error conventions as target/seq/seq-tools.h. */
#ifndef TARGET_TPC_TOOLS_H
#define TARGET_TPC_TOOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Assemble Habana-syntax TPC assembly into an ELF32 object like the vendor's
 * (EM_386, .text bundles, .tpc_metadata); with raw, only the bundle bytes. */
int tpc_assemble_file(const char *src, const char *out, bool raw);
/* The same with `nxemu-as -g`'s debug sections (ELF output only; NULL: none). */
struct NxAsmDebug;
int tpc_assemble_file_debug(const char *src, const char *out, bool raw,
                            const struct NxAsmDebug *dbg);
/* Disassemble a TPC kernel ELF (data = whole file) or, with raw, bundles;
 * leading_addr puts each bundle's byte offset before it, as llvm-objdump does
 * unless given --no-leading-addr. */
int tpc_objdump_buffer(const char *path, const uint8_t *data, size_t len, bool raw,
                       bool leading_addr, FILE *out);

#endif
