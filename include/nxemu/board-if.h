/*
 * The board's public interface: everything softmmu/ asks of the board
 * beyond the memory API, the cores' NxCpuOps and Machine.agent
 * (docs/architecture.rst, "Layers").  hw/nc2 implements it (board-if.c,
 * fdt.c); softmmu/ includes no other header of hw/, and check-layers
 * enforces it.  Semaphore and event counts are the architecture's
 * (SEQ_NR_SEMAPHORES, SEQ_NR_EVENTS in nxemu/seq-port.h).
 */
#ifndef NXEMU_BOARD_IF_H
#define NXEMU_BOARD_IF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <glib.h>

#include "nxemu/machine.h"
#include "nxemu/serial.h"

/* ---- configuration: the device tree (machine.md §10, hw/nc2/fdt.c) ---- */

/* Core counts a device tree may ask for (machine.md §10). */
#define NC2_MAX_SEQ 64
#define NC2_MAX_TPC 64

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

/* Load the tree (`path` NULL: the built-in default), apply the edits,
 * extract the configuration.  *fdt is the packed effective tree. */
bool nc2_fdt_build_config(const char *path, const Nc2Edits *ed, void **fdt, size_t *size,
                          MachineConfig *cfg, GError **err);
/* Write the blob to a file (-dump-dtb). */
bool nc2_fdt_write(const void *fdt, const char *path, GError **err);

/* ---- loading (softmmu/loader.c) ---- */

/* Sequencer seq starts at entry (machine.md §11.6): ENTRY and PC. */
void board_set_seq_entry(Machine *m, unsigned seq, uint64_t entry);
/* TPC tpc's kernel: KERNEL_BASE then KERNEL_SIZE (tpc.md §2.1). */
void board_set_tpc_kernel(Machine *m, unsigned tpc, uint64_t base, uint32_t size);

/* ---- the test device's console (machine.md §7), as QEMU's -serial ---- */

/* The test device's console backend becomes *serial (nxemu/serial.h). */
void board_set_serial(Machine *m, const NxSerial *serial);

/* ---- what observers read ---- */

/* Is addr in a memory (HBM up to its configured size, SBUF, PSUM)? */
bool board_is_memory(const Machine *m, uint64_t addr);
/* Where the board copied the effective device tree (0: not in memory). */
uint64_t board_dtb_addr(const Machine *m);
/* The DMA engines: how many, and the requests they completed in all. */
unsigned board_nr_dma(const Machine *m);
uint64_t board_dma_completed(const Machine *m);
/* The semaphores and events (SEQ_NR_SEMAPHORES, SEQ_NR_EVENTS) and the
 * count of their changes, bumped on every change. */
typedef struct NxSemView {
    const uint32_t *sem;
    const uint8_t *evt;
    const uint64_t *changes;
} NxSemView;
NxSemView board_sem_view(const Machine *m);
/* The kernel base TPC tpc's EXECUTE latched. */
uint64_t board_tpc_kernel_base(const Machine *m, unsigned tpc);
/* The debugger's view of a core's address a: its physical address *pa and
 * the bytes *room up to where the translation may change; false when a
 * does not translate (gdbstub-debug.c, nx_debug_translate). */
bool board_debug_translate(Machine *m, NxCpu *cpu, uint64_t a, uint64_t *pa, uint64_t *room);

/* ---- the monitor's info commands (docs/gdb.rst, "monitor"), one line each ---- */

void board_info_tlb(Machine *m, unsigned seq, GString *out);
void board_info_semaphores(Machine *m, GString *out);
void board_info_dma(Machine *m, GString *out);
void board_info_tpc(Machine *m, unsigned tpc, GString *out);

#endif
