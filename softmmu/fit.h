/*
 * FIT images (machine.md §11.3) and the loader-internal interface they share
 * with softmmu/loader.c.
 *
 * Loading happens in two passes: every image is first parsed and checked
 * into a list of operations (writes, zero fills, ENTRY and KERNEL_BASE
 * presets) while bindings are merged; then the scanned streams are lowered
 * with the complete binding table and the operations are applied in
 * command-line order.  So a binding may come from any image, and later bytes
 * still overwrite earlier ones.
 */
#ifndef NXEMU_SOFTMMU_FIT_H
#define NXEMU_SOFTMMU_FIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <glib.h>

#include "nxemu/loader.h"
#include "softmmu/elf.h"

typedef struct LoadCtx LoadCtx;

Machine *lc_machine(LoadCtx *c);
BindTable *lc_bindings(LoadCtx *c);

/* "<file>: offset 0x<off>: <message>" as a load error. */
void lc_error(GError **err, const char *file, uint64_t off, const char *fmt, ...)
    G_GNUC_PRINTF(4, 5);

typedef enum ElfKind { ELF_KIND_SEQ, ELF_KIND_TPC } ElfKind;

/* Parses an ELF of one of the two accepted kinds (machine.md §11.2), kept
 * alive until the load ends; `ctx` is copied. */
ElfFile *lc_parse_elf(LoadCtx *c, const char *file, uint64_t base, const char *ctx,
                      const uint8_t *data, size_t size, ElfKind *kind, GError **err);

/* A sequencer ELF: segments, .nx_bindings, ENTRY of `cpu`. */
bool lc_add_seq_elf(LoadCtx *c, ElfFile *ef, unsigned cpu, GError **err);
/* A TPC kernel ELF: .text to addr, optional KERNEL_BASE/KERNEL_SIZE preset. */
bool lc_add_tpc_elf(LoadCtx *c, ElfFile *ef, uint64_t addr, bool has_tpc, unsigned tpc,
                    GError **err);
/* Raw bytes (data points into a buffer that lives until the load ends);
 * `scan` lowers them as an instruction stream.  `what` names them. */
bool lc_add_raw(LoadCtx *c, const char *file, uint64_t file_off, const char *what, uint8_t *data,
                uint64_t len, uint64_t addr, bool scan, GError **err);
/* Raw TPC bundles at addr: size/alignment checks and the optional preset. */
bool lc_add_tpc_raw(LoadCtx *c, const char *file, uint64_t file_off, const char *what,
                    uint8_t *data, uint64_t len, uint64_t addr, bool has_tpc, unsigned tpc,
                    GError **err);
/* ENTRY of a sequencer core (range-checked; `what` names the source). */
bool lc_add_entry(LoadCtx *c, const char *file, uint64_t file_off, const char *what, unsigned cpu,
                  uint64_t entry, GError **err);

/* Load a FIT (data stays owned by the caller's context until the end).
 * from_kernel: given with -kernel, so the firmware image starts core 0. */
bool fit_load(LoadCtx *c, const char *file, uint8_t *data, size_t size, bool from_kernel,
              const char *config, GError **err);

/* The FDT magic, big-endian, at offset 0. */
bool fit_is_fit(const uint8_t *data, size_t size);

#endif
