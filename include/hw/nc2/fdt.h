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

#include "nxemu/machine.h"

/* The built-in default tree (pc-bios/nc2.dts, embedded by hw/nc2/meson.build). */
extern const uint8_t nc2_default_dtb[];
extern const size_t nc2_default_dtb_len;

/* Limits of machine.md §10. */
#define NC2_MAX_SEQ          64
#define NC2_MAX_TPC          64
#define NC2_MAX_DMA          16
#define NC2_MAX_TLB          1024
#define NC2_MAX_QUANTUM      65536
#define NC2_HBM_MIN          (32ull << 20)
#define NC2_HBM_MAX          (64ull << 30)
#define NC2_HBM_GRANULE      (16ull << 20)
#define NC2_DTB_IN_MEM_BYTES (1u << 20)

/* Edits from -machine KEY=VAL, -m and -smp, applied to the tree before the
 * configuration is extracted.  Values are kept wide so that a range error
 * names the value the user gave. */
typedef struct Nc2Edits {
    bool has_hbm, has_seq, has_tpc, has_tlb, has_quantum, has_dma, has_gmem_lat, has_gmem_bpc;
    uint64_t hbm, seq, tpc, tlb, quantum, dma, gmem_lat, gmem_bpc; /* gmem_*: /tpcs nxemu,gmem-* */
    /* hbm_bpc: memory@0 nxemu,bytes-per-cycle; dma_bpc: the DMA node's */
    bool has_hbm_bpc, has_dma_bpc, has_sram_lat;
    uint64_t hbm_bpc, dma_bpc, sram_lat; /* sram_lat: /tpcs nxemu,sram-latency-cycles */
    const char *hbm_src; /* "-m" or "-machine hbm" (for messages); NULL = "-machine hbm" */
    char hbm_text[32];   /* the size as typed (for messages); "" = print hbm in hex */
    const char *smp_src; /* "-smp" when seq/tpc came from -smp (for messages); NULL = "-machine" */
} Nc2Edits;

/* Read a DTB: `path` NULL = the built-in default.  The header and the
 * structure are checked (fdt_check_full).  *fdt is g_malloc'ed. */
bool nc2_fdt_load(const char *path, void **fdt, size_t *size, GError **err);
/* Check a blob already in memory; `what` names it in messages. */
bool nc2_fdt_check(const void *fdt, size_t size, const char *what, GError **err);
/* Apply the edits; *fdt may be reallocated.  The result is packed. */
bool nc2_fdt_apply_edits(void **fdt, size_t *size, const Nc2Edits *ed, GError **err);
/* Extract the configuration and check every rule of machine.md §10. */
bool nc2_fdt_extract(const void *fdt, MachineConfig *cfg, GError **err);
/* Write the blob to a file (-dump-dtb). */
bool nc2_fdt_write(const void *fdt, const char *path, GError **err);

/* All of the above for main: load (default or path), edit, extract.
 * *fdt is the packed effective tree. */
bool nc2_fdt_build_config(const char *path, const Nc2Edits *ed, void **fdt, size_t *size,
                          MachineConfig *cfg, GError **err);

#endif
