/*
 * TPC lookup tables (docs/tpc-lut.rst): the tables LOOKUP_1C / LOOKUP_2C
 * read, generated at build time by scripts/tpc-lut-gen.py, and the interval
 * selection of GET_LUT_ENTRY_AND_INTERVAL_START that indexes them.
 */
#ifndef TARGET_TPC_LUT_H
#define TARGET_TPC_LUT_H

#include <stdbool.h>
#include <stdint.h>

#include <glib.h>

/* One function's table: n entries of three 32-bit columns (C0, C1, C2). */
typedef struct TpcLutTable {
    uint16_t id;     /* function id, as in the LOOKUP instruction */
    uint16_t n;      /* entries */
    uint8_t m;       /* mantissa bits per interval it was fitted for (0: exact table) */
    uint8_t variant; /* GET_LUT function variant its entries follow */
    bool fitted;     /* nxemu's own coefficients (false: exact by construction) */
    const char *name;
    const uint32_t (*c)[3];
} TpcLutTable;

/* The table of function `id`, or NULL when nothing public identifies it. */
const TpcLutTable *tpc_lut_find(unsigned id);
/* All tables, for tools and tests: *n gets the count. */
const TpcLutTable *tpc_lut_all(unsigned *n);

/* GET_LUT_ENTRY_AND_INTERVAL_START of one f32 lane (raw bits x): the entry
 * and the interval start (f32 bits) for mantissa shift `shift` (0..31) and
 * function variant `variant` (0 default, 1 tanh, 2 sqrt_rsqrt, 3 sin_cos).
 * Returns false for a variant without a public description (4, log, and
 * 5..7). */
bool tpc_lut_interval(uint32_t x, unsigned shift, unsigned variant, uint32_t *entry,
                      uint32_t *start);

/* Append to a fault line what an UNIMPLEMENTED fault raised by lut.c is
 * about (FAULT_INFO bits 31:16 carry the function id, or the variant and
 * operand type); nothing for other faults. */
void tpc_lut_fault_note(uint32_t code, uint32_t info, GString *out);

#endif
