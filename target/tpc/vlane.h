/*
 * Whole-register VPU lane operations (vlane.c): lane.h's semantics over
 * 256-byte register images, vectorised.  Opcodes are the common SPU/VPU
 * codes (TPC_OPC_SPU_mac .. TPC_OPC_SPU_ash, CMP_EQ .. CMP_GEQ); types are
 * OPERANDS_TYPE codes.  Outputs must not alias inputs; inputs may alias
 * each other.
 */
#ifndef TARGET_TPC_VLANE_H
#define TARGET_TPC_VLANE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* Vectorised here: f32 MAC/MUL/ADD/SUB/MAX/MIN, bf16 MUL/ADD/SUB/MAX/MIN,
 * the integer types' ADD/SUB/MAX/MIN/SHR/SHL, and OR/AND/XOR/NOT of any
 * type.  (The register-pair MAC/MUL forms, bf16 MAC and the acc_fp32
 * forms, ABS and ASH stay lane by lane.) */
/* out = op(a, b) lane by lane; d: the old destination (MAC), may be NULL
 * otherwise.  Integer ADD: cin is V_CARRY unpacked to bytes (tpc_vl_unpack;
 * NULL = no carry in), cout gets the packed carry out of every lane (may
 * be NULL).  False (nothing written) for an (op, t) not vectorised here:
 * the caller then goes lane by lane with tpc_alu. */
bool tpc_vl_arith(unsigned op, unsigned t, unsigned sw, uint8_t *out, const uint8_t *a,
                  const uint8_t *b, const uint8_t *d, const uint8_t *cin, uint8_t *cout);

/* The loop tpc_vl_arith runs for (op, t, sw) when that needs no carry
 * (all but integer ADD), for callers that choose it once (the direct
 * path's plans): out = op(a, b) with d the old destination (MAC; must be
 * a readable image otherwise too, e.g. the destination), or NULL where
 * tpc_vl_arith would return false or needs carries.  The host ISA's loop
 * at the time of the call (tpc_vl_select). */
typedef void (*TpcVlFn)(uint8_t *restrict out, const uint8_t *restrict a,
                        const uint8_t *restrict b, const uint8_t *restrict d);
TpcVlFn tpc_vl_arith_fn(unsigned op, unsigned t, unsigned sw);
/* CONVERT of every lane of a (type st) to type dt of the same size by
 * the resolved rounding mode rm (not sr), and NEARBYINT of type t (f32,
 * bf16): out = f(a) (b and d unused: pass a); NULL for other pairs and
 * modes, which go lane by lane through the same lane.h functions. */
TpcVlFn tpc_vl_convert_fn(unsigned st, unsigned dt, unsigned rm);
TpcVlFn tpc_vl_nearbyint_fn(unsigned t, unsigned rm);
/* The loop copying image a to out (b and d unused: pass a), at the width
 * of the other loops: tensor loads fill register images with it. */
TpcVlFn tpc_vl_mov_fn(void);
/* A whole register image a stored at out (tensor memory), with the host's
 * non-temporal stores where out is aligned for them: then true, and the
 * caller must fence (sfence) before another thread reads out. */
typedef bool (*TpcVlStreamFn)(uint8_t *out, const uint8_t *a);
TpcVlStreamFn tpc_vl_stream_fn(void);

/* CMP: VPRF image vp (bit j = byte j) of a op b per lane of type t, every
 * bit of a lane equal; mez: CMP_EQ's mask_eq_zero. */
void tpc_vl_cmp(unsigned op, unsigned t, bool mez, uint8_t vp[32], const uint8_t *a,
                const uint8_t *b);

/* SEL_<op>: out = (a op b) ? c : d per lane; SEL2 (out2 != NULL) also
 * out2 = (a op b) ? a : b. */
void tpc_vl_sel(unsigned op, unsigned t, bool mez, uint8_t *out, uint8_t *out2, const uint8_t *a,
                const uint8_t *b, const uint8_t *c, const uint8_t *d);

/* dst = element v (of e bytes) in every lane, 16 bytes at a time (a
 * scalar operand of a vector op; inline everywhere: a stencil of the
 * block compiler may call nothing, jit-stencils.c). */
static inline __attribute__((always_inline)) void tpc_vl_broadcast(uint8_t *dst, uint32_t v,
                                                                   unsigned e)
{
    typedef uint32_t v4u __attribute__((vector_size(16)));
    uint32_t w = e == 4 ? v : e == 2 ? (v & 0xFFFFu) * 0x10001u : (v & 0xFFu) * 0x01010101u;
    const v4u q = {w, w, w, w};
    for (unsigned i = 0; i < 256; i += 16)
        memcpy(dst + i, &q, 16);
}

/* VPRF image <-> byte mask: vp bit j = top bit of bytes[j]; bytes[j] =
 * 0xFF or 0 from bit j. */
void tpc_vl_pack(uint8_t vp[32], const uint8_t bytes[256]);
void tpc_vl_unpack(uint8_t bytes[256], const uint8_t vp[32]);
/* The lane gate of a VPRF predicate for element size e: bit j = bit
 * (j rounded down to a multiple of e) of vp, inverted when pol. */
void tpc_vl_spread(uint8_t g[32], const uint8_t vp[32], unsigned e, bool pol);

/* Tests: use the baseline loops (true) or the host's best again (false;
 * returns whether that is a wider ISA than the baseline). */
bool tpc_vl_select(bool baseline);

#endif
