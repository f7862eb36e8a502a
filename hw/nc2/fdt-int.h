/* Helpers shared by fdt.c (validation, extraction) and fdt-edit.c. */
#ifndef HW_NC2_FDT_INT_H
#define HW_NC2_FDT_INT_H

#include <stdbool.h>
#include <stdint.h>

#include <glib.h>

/* Sets a NX_ERROR_CONFIG error "dtb: <message>"; returns false. */
bool nc2_fdt_error(GError **err, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
/* Is the node named base or base@unit? */
bool nc2_fdt_node_is(const void *fdt, int node, const char *base);
/* #address-cells (1..2) and #size-cells (0..2) of a parent node. */
bool nc2_fdt_parent_cells(const void *fdt, int parent, int *ac, int *sc, GError **err);
/* HBM size rule: a multiple of 16 MiB in 32 MiB..64 GiB. */
bool nc2_hbm_size_ok(uint64_t s);

#endif
