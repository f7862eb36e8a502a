/*
 * Copy-and-patch stencils, shared by the sequencer's and the TPC's block
 * compilers (target/seq/jit.c, target/tpc/jit.c): the relocations
 * scripts/seq-stencils.py emits for a stencil, and how one is patched.
 */
#ifndef NXEMU_STENCIL_H
#define NXEMU_STENCIL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* How a relocation is patched: a 32-bit field holding the value (zero- or
 * sign-extended by the instruction) or the value minus the field's address. */
typedef enum NxRelType { NX_RT_32, NX_RT_32S, NX_RT_PC32 } NxRelType;

typedef struct NxStReloc {
    uint16_t off;
    uint8_t type; /* NxRelType */
    uint8_t hole; /* the compiler's hole enum */
    int32_t addend;
} NxStReloc;

/* Write a 32-bit field: the value `val` as the relocation type says, or
 * false if it does not fit. */
static inline bool nx_stencil_patch32(uint8_t *field, uint8_t type, int64_t addend, uint64_t val)
{
    int64_t x = (int64_t)val + addend;
    if (type == NX_RT_PC32)
        x -= (int64_t)(uintptr_t)field;
    if (type == NX_RT_32 ? (x < 0 || x > (int64_t)UINT32_MAX) : (x < INT32_MIN || x > INT32_MAX))
        return false;
    uint32_t w = (uint32_t)x;
    memcpy(field, &w, 4);
    return true;
}

#endif
