/*
 * The machine configuration as a device tree (machine.md §10): reading and
 * validating a DTB, applying the -machine/-m/-smp edits, extracting the
 * MachineConfig and writing the effective tree (-dump-dtb).
 */
#ifndef HW_NC2_FDT_H
#define HW_NC2_FDT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <glib.h>

#include "nxemu/board-if.h"
#include "nxemu/machine.h"

/* The built-in default tree (pc-bios/nc2.dts, embedded by hw/nc2/meson.build). */
extern const uint8_t nc2_default_dtb[];
extern const size_t nc2_default_dtb_len;

/* Limits of machine.md §10 (NC2_MAX_SEQ, NC2_MAX_TPC: nxemu/board-if.h). */
#define NC2_MAX_DMA          16
#define NC2_MAX_TLB          1024
#define NC2_MAX_QUANTUM      65536
#define NC2_HBM_MIN          (32ull << 20)
#define NC2_HBM_MAX          (64ull << 30)
#define NC2_HBM_GRANULE      (16ull << 20)
#define NC2_DTB_IN_MEM_BYTES (1u << 20)

/* Nc2Edits, nc2_fdt_build_config and nc2_fdt_write are the board's public
 * interface: nxemu/board-if.h. */

/* Read a DTB: `path` NULL = the built-in default.  The header and the
 * structure are checked (fdt_check_full).  *fdt is g_malloc'ed. */
bool nc2_fdt_load(const char *path, void **fdt, size_t *size, GError **err);
/* Check a blob already in memory; `what` names it in messages. */
bool nc2_fdt_check(const void *fdt, size_t size, const char *what, GError **err);
/* Apply the edits; *fdt may be reallocated.  The result is packed. */
bool nc2_fdt_apply_edits(void **fdt, size_t *size, const Nc2Edits *ed, GError **err);
/* Extract the configuration and check every rule of machine.md §10. */
bool nc2_fdt_extract(const void *fdt, MachineConfig *cfg, GError **err);

#endif
