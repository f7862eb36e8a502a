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

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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
/* (inline, as tpc_vl_broadcast: the block compiler's VP-masked stencils
 * build their masks with it) */
static inline __attribute__((always_inline)) void tpc_vl_unpack(uint8_t bytes[256],
                                                                const uint8_t vp[32])
{
#if defined(__SSE2__)
    /* 16 bytes from two VP bytes: each VP byte spread over 8 bytes, then
     * byte k tested against its bit (1 << k) (a VP-predicated VPU op
     * unpacks its gate per bundle) */
    const __m128i bit = _mm_set_epi8((char)0x80, 0x40, 0x20, 0x10, 8, 4, 2, 1, (char)0x80, 0x40,
                                     0x20, 0x10, 8, 4, 2, 1);
    for (unsigned j = 0; j < 32; j += 2) {
        uint16_t two;
        memcpy(&two, vp + j, 2);
        __m128i x = _mm_cvtsi32_si128(two);
        x = _mm_unpacklo_epi8(x, x);
        x = _mm_unpacklo_epi16(x, x);
        x = _mm_unpacklo_epi32(x, x);
        x = _mm_cmpeq_epi8(_mm_and_si128(x, bit), bit);
        memcpy(bytes + 8 * j, &x, 16);
    }
#else
    /* byte k of x * 0x0101.. & 0x8040..01 is bit k of the VP byte alone;
     * adding 0x7F to each byte moves "nonzero" to its top bit (no carry
     * between bytes: each is 0 or one power of two) */
    for (unsigned j = 0; j < 32; j++) {
        uint64_t t = (vp[j] * 0x0101010101010101ull) & 0x8040201008040201ull;
        uint64_t hi = ((t + 0x7F7F7F7F7F7F7F7Full) >> 7) & 0x0101010101010101ull;
        uint64_t m = hi * 0xFF;
        memcpy(bytes + 8 * j, &m, 8);
    }
#endif
}

/* The lane gate of a VPRF predicate for element size e: bit j = bit
 * (j rounded down to a multiple of e) of vp, inverted when pol. */
static inline __attribute__((always_inline)) void tpc_vl_spread(uint8_t g[32], const uint8_t vp[32],
                                                                unsigned e, bool pol)
{
    /* eight VP bytes per 64-bit word: the shifts below move bits within
     * their byte only (bit 0 or 4 by 1 and 2, bit 0/2/4/6 by 1), so the
     * word does what the byte loop would */
    const uint64_t inv = pol ? ~0ull : 0;
    for (unsigned j = 0; j < 32; j += 8) {
        uint64_t x;
        memcpy(&x, vp + j, 8);
        x ^= inv;
        if (e == 4) {
            x &= 0x1111111111111111ull;
            x |= x << 1;
            x |= x << 2;
        } else if (e == 2) {
            x &= 0x5555555555555555ull;
            x |= x << 1;
        }
        memcpy(g + j, &x, 8);
    }
}

/* res = res where the byte mask m is set, old elsewhere (a VP-predicated
 * result blended into the register's old value). */
static inline __attribute__((always_inline)) void tpc_vl_merge(uint8_t *res, const uint8_t *old,
                                                               const uint8_t *m)
{
    typedef uint32_t v4u __attribute__((vector_size(16)));
    for (unsigned i = 0; i < 256; i += 16) {
        v4u r, o, k;
        memcpy(&r, res + i, 16);
        memcpy(&o, old + i, 16);
        memcpy(&k, m + i, 16);
        r = (r & k) | (o & ~k);
        memcpy(res + i, &r, 16);
    }
}

/* Tests: use the baseline loops (true) or the host's best again (false;
 * returns whether that is a wider ISA than the baseline). */
bool tpc_vl_select(bool baseline);

#endif
