/*
 * The binding table (machine.md §11.4): var_id -> Neuron address, merged
 * from -bind options, .nx_bindings ELF sections and FIT binding images.
 */
#include <inttypes.h>

#include "nxemu/error.h"
#include "nxemu/loader.h"

/* The map's value: `addr` first, so the value is also a valid uint64_t *
 * (the documented view of the map); `where` names the first source, for the
 * conflict message. */
typedef struct BindEntry {
    uint64_t addr;
    char *where;
} BindEntry;

static void bind_entry_free(gpointer p)
{
    BindEntry *e = p;
    g_free(e->where);
    g_free(e);
}

void bind_table_init(BindTable *bt)
{
    bt->map = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, bind_entry_free);
}

void bind_table_destroy(BindTable *bt)
{
    g_clear_pointer(&bt->map, g_hash_table_destroy);
}

bool bind_table_add(BindTable *bt, uint32_t var_id, uint64_t addr, const char *where, GError **err)
{
    BindEntry *old = g_hash_table_lookup(bt->map, GUINT_TO_POINTER(var_id));
    if (old) {
        if (old->addr == addr) {
            return true; /* identical duplicates are allowed */
        }
        g_set_error(err, NX_ERROR, NX_ERROR_LOAD,
                    "%s: var_id %" PRIu32 " bound to 0x%" PRIx64 " conflicts with 0x%" PRIx64
                    " from %s",
                    where, var_id, addr, old->addr, old->where);
        return false;
    }
    BindEntry *e = g_new(BindEntry, 1);
    e->addr = addr;
    e->where = g_strdup(where);
    g_hash_table_insert(bt->map, GUINT_TO_POINTER(var_id), e);
    return true;
}

bool bind_table_lookup(const BindTable *bt, uint32_t var_id, uint64_t *addr)
{
    const BindEntry *e = bt->map ? g_hash_table_lookup(bt->map, GUINT_TO_POINTER(var_id)) : NULL;
    if (!e) {
        return false;
    }
    *addr = e->addr;
    return true;
}

unsigned bind_table_size(const BindTable *bt)
{
    return bt->map ? g_hash_table_size(bt->map) : 0;
}

bool bind_records_add(BindTable *bt, const uint8_t *rec, uint64_t size, const char *file,
                      uint64_t file_off, const char *what, GError **err)
{
    if (size % 16 != 0) {
        g_set_error(err, NX_ERROR, NX_ERROR_LOAD,
                    "%s: offset 0x%" PRIx64 ": %s: size %" PRIu64
                    " is not a multiple of 16 (binding records)",
                    file, file_off, what, size);
        return false;
    }
    for (uint64_t i = 0; i < size / 16; i++) {
        const uint8_t *p = rec + 16 * i;
        uint32_t var_id =
            (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
        uint32_t rsv =
            (uint32_t)p[4] | (uint32_t)p[5] << 8 | (uint32_t)p[6] << 16 | (uint32_t)p[7] << 24;
        uint64_t addr = 0;
        for (int b = 0; b < 8; b++) {
            addr |= (uint64_t)p[8 + b] << (8 * b);
        }
        g_autofree char *where = g_strdup_printf("%s: offset 0x%" PRIx64 ": %s record %" PRIu64,
                                                 file, file_off + 16 * i, what, i);
        if (rsv != 0) {
            g_set_error(err, NX_ERROR, NX_ERROR_LOAD, "%s: reserved word 0x%" PRIx32 " is not 0",
                        where, rsv);
            return false;
        }
        if (!bind_table_add(bt, var_id, addr, where, err)) {
            return false;
        }
    }
    return true;
}
