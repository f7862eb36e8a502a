/* Entry points of the sequencer toolchain used by tools/nxemu-as and
 * tools/nxemu-objdump.  Errors are printed to stderr in the form
 * `file:line:col: error: text`; the functions return 0 on success, 1 on error. */
#ifndef TARGET_SEQ_TOOLS_H
#define TARGET_SEQ_TOOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Assemble src into out: an ELF64 executable (default) or, with raw, the
 * bytes of .text only. */
int seq_assemble_file(const char *src, const char *out, bool raw);
/* The same with `nxemu-as -g`'s debug sections (ELF output only; NULL: none). */
struct NxAsmDebug;
int seq_assemble_file_debug(const char *src, const char *out, bool raw,
                            const struct NxAsmDebug *dbg);
/* The same with the messages written to msgs instead of stderr. */
int seq_assemble_file_to(const char *src, const char *out, bool raw, FILE *msgs);
/* Disassemble a sequencer ELF (data = whole file) or, with raw, a record
 * stream whose first byte is at Neuron address base. */
int seq_objdump_buffer(const char *path, const uint8_t *data, size_t len, bool raw, uint64_t base,
                       FILE *out);

#endif
