/* Image loading (machine.md §11): ELF, raw, FIT, data words, bindings. */
#ifndef NXEMU_LOADER_H
#define NXEMU_LOADER_H

#include <stdbool.h>
#include <stdint.h>

#include <glib.h>

#include "nxemu/machine.h"

typedef enum LoaderKind {
    LOADER_KERNEL, /* -kernel FILE: sequencer ELF or FIT for core 0 */
    LOADER_FILE,   /* -device loader,file=F[,addr=A][,cpu-num=N][,tpc-num=M] */
    LOADER_DATA,   /* -device loader,addr=A,data=V,data-len=L */
} LoaderKind;

typedef struct LoaderItem {
    LoaderKind kind;
    char *file;
    bool has_addr, has_cpu, has_tpc;
    uint64_t addr;
    unsigned cpu_num, tpc_num;
    uint64_t data;
    unsigned data_len;
} LoaderItem;

/* var_id -> Neuron address (machine.md §11.4). */
typedef struct BindTable {
    GHashTable *map; /* GUINT_TO_POINTER(var_id) -> uint64_t* (the address, first member
                      * of an entry that also names its source); use the functions */
} BindTable;

void bind_table_init(BindTable *bt);
void bind_table_destroy(BindTable *bt);
/* Adds one binding; a conflicting address is an error naming `where`. */
bool bind_table_add(BindTable *bt, uint32_t var_id, uint64_t addr, const char *where, GError **err);
bool bind_table_lookup(const BindTable *bt, uint32_t var_id, uint64_t *addr);
unsigned bind_table_size(const BindTable *bt);
/* Adds 16-byte binding records (+0 u32 var_id, +4 u32 reserved 0, +8 u64
 * address); `size` must be a multiple of 16.  Messages name `file`, the
 * record's offset (file_off + 16 * i) and `what` (".nx_bindings", ...). */
bool bind_records_add(BindTable *bt, const uint8_t *rec, uint64_t size, const char *file,
                      uint64_t file_off, const char *what, GError **err);

typedef struct LoaderOptions {
    LoaderItem *items;
    unsigned nr_items;
    BindTable *bindings;    /* -bind entries already added */
    const char *fit_config; /* -fit-config NAME or NULL */
} LoaderOptions;

/* Load everything in command-line order, lower pseudo instructions, set
 * ENTRY and start cores (machine.md §11.6).  Errors name file, offset and
 * reason; the caller exits 125. */
bool loader_load(Machine *m, const LoaderOptions *opts, GError **err);

/* Symbol lookup for pseudo call lowering: value of STT_FUNC `name`. */
typedef bool (*LoaderSymFn)(void *opaque, const char *name, uint64_t *value);

/* Pseudo lowering of one scanned stream in place (target/seq implements it,
 * machine.md §11.5).  `where` names the file for messages; `file_off` is the
 * stream's offset in that file. */
bool seq_lower_stream(uint8_t *bytes, uint64_t len, const char *where, uint64_t file_off,
                      const BindTable *bt, LoaderSymFn sym, void *sym_opaque, GError **err);

#endif
