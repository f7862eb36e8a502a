/*
 * Poison mode (`-machine poison=on`): report reads of HBM, SBUF or PSUM bytes
 * that nobody wrote since the machine was built (machine.md §12 item 8 says
 * they read as zero; this mode tells the user they relied on it).
 *
 * It observes the memory API's access hook, so it costs nothing when off.
 * Each report is one line on stderr:
 *   nxemu: warning: poison: core=N pc=0x<16 hex> read of uninitialised 0x<16 hex> (size S)
 * ("tpc=N pc=0x..." for a TPC, "dma=E" for a DMA engine, which has no pc),
 * at most once per byte: a later read of already reported bytes is silent.
 * TPC VLM (private to each TPC, not in the PA map) is tracked here too, fed
 * by the TPC target when its NxCpu.poison is set (poison_new sets it):
 *   nxemu: warning: poison: tpc=N pc=0x<16 hex> read of uninitialised VLM 0x<5 hex> (size S)
 * with S the bytes the instruction reads and the VLM byte offset.  VLM
 * persists across launches (tpc.md §2), so does its map.  SLM is not tracked.
 */
#ifndef NXEMU_POISON_H
#define NXEMU_POISON_H

#include <stdbool.h>
#include <stdint.h>

#include <glib.h>

#include "nxemu/memory.h"

typedef struct Machine Machine;
typedef struct NxPoison NxPoison;

/* Start tracking and install the access hook on m->as (chaining to a hook
 * already installed).  Bytes already written (the in-memory DTB) count as
 * written.  Call it right after machine_new, before the loader, so loaded
 * images count as written. */
NxPoison *poison_new(Machine *m);
/* Put the previous hook back (observers chained after us must be gone:
 * free them first) and free the maps. */
void poison_free(NxPoison *p);

/* Reports go to `out` instead of stderr when set (tests); each line ends in
 * a newline. */
void poison_set_output(NxPoison *p, GString *out);
/* Number of reports so far. */
uint64_t poison_reports(const NxPoison *p);
/* True if every byte of [addr, addr+len) was written (tests, monitor). */
bool poison_is_written(const NxPoison *p, uint64_t addr, uint64_t len);

/* VLM of TPC t (offsets below POISON_VLM_SIZE, checked by the caller).
 * poison_vlm_write marks [off, off+len) written, bytes with en[i] == 0
 * excepted (en NULL: all).  poison_vlm_read reports the read by the
 * instruction at pc if a byte with en[i] != 0 (en NULL: every byte) was
 * never written and not yet reported. */
#define POISON_VLM_SIZE (80u * 1024u)
void poison_vlm_write(NxPoison *p, unsigned t, uint32_t off, unsigned len, const uint8_t *en);
void poison_vlm_read(NxPoison *p, unsigned t, uint64_t pc, uint32_t off, unsigned len,
                     const uint8_t *en);
bool poison_vlm_is_written(const NxPoison *p, unsigned t, uint32_t off, unsigned len);

#endif
