/*
 * Lane semantics of the TPC's arithmetic (tpc.md §5.0.4, §5.2, §5.3): each
 * operation on one element, written once.  The scalar executors call them
 * for one element (tpc_alu, exec-alu.c); the VPU's whole-register loops
 * (vlane.c) call them for every lane of a 256-byte register, where they
 * inline with a constant type and the compiler vectorises the loop.  So a
 * lane function must stay branch-free enough to if-convert: selects, no
 * calls except __builtin_fmaf, no tables.
 *
 * Values are raw elements of type t in the low 8E bits (tpc_ld_e); results
 * likewise.  f32 results are canonical: any NaN becomes 0x7FC00000.
 */
#ifndef TARGET_TPC_LANE_H
#define TARGET_TPC_LANE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "target/tpc/insn.h"

#define TPC_F32_QNAN 0x7FC00000u

/* lane-ops.def: the slots a row applies to, and an element function of a
 * row (x, y, z: the SRC_A, SRC_B and old destination elements) */
#define TPC_LS_SPU  1u
#define TPC_LS_VPU  2u
#define TPC_LS_BOTH 3u
typedef uint32_t (*TpcLaneFn)(uint32_t x, uint32_t y, uint32_t z);

static inline float tpc_lane_f(uint32_t bits)
{
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

static inline uint32_t tpc_lane_bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

/* An arithmetic f32 result, NaN canonical. */
static inline uint32_t tpc_lane_f32_canon(float r)
{
    return r != r ? TPC_F32_QNAN : tpc_lane_bits(r);
}

/* MAC.f32: d + a*b (neg: d - a*b) rounded once (fused). */
static inline uint32_t tpc_lane_f32_mac(uint32_t ra, uint32_t rb, uint32_t rd, bool neg)
{
    float a = tpc_lane_f(ra);
    return tpc_lane_f32_canon(__builtin_fmaf(neg ? -a : a, tpc_lane_f(rb), tpc_lane_f(rd)));
}

static inline uint32_t tpc_lane_f32_mul(uint32_t ra, uint32_t rb)
{
    return tpc_lane_f32_canon(tpc_lane_f(ra) * tpc_lane_f(rb));
}

static inline uint32_t tpc_lane_f32_add(uint32_t ra, uint32_t rb)
{
    return tpc_lane_f32_canon(tpc_lane_f(ra) + tpc_lane_f(rb));
}

/* SUB: a - b, or with the neg switch b - a. */
static inline uint32_t tpc_lane_f32_sub(uint32_t ra, uint32_t rb, bool rev)
{
    float a = tpc_lane_f(ra), b = tpc_lane_f(rb);
    return tpc_lane_f32_canon(rev ? b - a : a - b);
}

/* MAX/MIN: a NaN operand gives the canonical NaN; +0 is above -0. */
static inline uint32_t tpc_lane_f32_max(uint32_t ra, uint32_t rb)
{
    float a = tpc_lane_f(ra), b = tpc_lane_f(rb);
    uint32_t r = (a > b || (a == b && !(ra >> 31))) ? ra : rb;
    return (a != a || b != b) ? TPC_F32_QNAN : r;
}

static inline uint32_t tpc_lane_f32_min(uint32_t ra, uint32_t rb)
{
    float a = tpc_lane_f(ra), b = tpc_lane_f(rb);
    uint32_t r = (a < b || (a == b && (ra >> 31))) ? ra : rb;
    return (a != a || b != b) ? TPC_F32_QNAN : r;
}

/* ---- bf16 (raw elements in the low 16 bits) ---- */

static inline float tpc_lane_bf16_f(uint32_t raw)
{
    return tpc_lane_f((raw & 0xFFFFu) << 16);
}

/* f rounded to bf16, nearest even; a NaN gives 0x7FC0.  Carries out of the
 * 16 discarded bits go into the exponent, overflow to infinity included. */
static inline uint32_t tpc_lane_bf16_round(float f)
{
    uint32_t b = tpc_lane_bits(f);
    b += 0x7FFFu + ((b >> 16) & 1u);
    return f != f ? 0x7FC0u : (b >> 16) & 0xFFFFu;
}

/* ADD, SUB, MUL: the exact result rounded once (tpc.md §5.0.4).  The f32
 * result of two bf16 operands, rounded again to bf16, is that: with 24 >=
 * 2*8 + 2 bits the double rounding is innocuous for +, -, * (Figueroa).
 * (MAC is not: exec-alu.c bf16_mac.) */
static inline uint32_t tpc_lane_bf16_add(uint32_t ra, uint32_t rb)
{
    return tpc_lane_bf16_round(tpc_lane_bf16_f(ra) + tpc_lane_bf16_f(rb));
}

static inline uint32_t tpc_lane_bf16_sub(uint32_t ra, uint32_t rb, bool rev)
{
    float a = tpc_lane_bf16_f(ra), b = tpc_lane_bf16_f(rb);
    return tpc_lane_bf16_round(rev ? b - a : a - b);
}

static inline uint32_t tpc_lane_bf16_mul(uint32_t ra, uint32_t rb)
{
    return tpc_lane_bf16_round(tpc_lane_bf16_f(ra) * tpc_lane_bf16_f(rb));
}

/* MAX/MIN: f32's on the widened values (exact), the chosen operand's bits. */
static inline uint32_t tpc_lane_bf16_max(uint32_t ra, uint32_t rb)
{
    return tpc_lane_f32_max((ra & 0xFFFFu) << 16, (rb & 0xFFFFu) << 16) >> 16;
}

static inline uint32_t tpc_lane_bf16_min(uint32_t ra, uint32_t rb)
{
    return tpc_lane_f32_min((ra & 0xFFFFu) << 16, (rb & 0xFFFFu) << 16) >> 16;
}

/* ---- integers ---- */

/* Width in bits of a type's element (insn.h's size table; with a constant
 * t the lookup folds, so the loops of vlane-impl.h stay branch-free). */
static inline unsigned tpc_lane_bitsof(unsigned t)
{
    return 8 * tpc_type_size(t);
}

static inline uint32_t tpc_lane_wmask(unsigned t)
{
    unsigned n = tpc_lane_bitsof(t);
    return n == 32 ? 0xFFFFFFFFu : (1u << n) - 1;
}

/* The value of a raw element: sign-extended for the signed types. */
static inline int64_t tpc_lane_sext(uint32_t v, unsigned t)
{
    switch (t) {
    case TPC_T_I32:
        return (int32_t)v;
    case TPC_T_I16:
        return (int16_t)v;
    case TPC_T_I8:
        return (int8_t)v;
    case TPC_T_U16:
    case TPC_T_BF16:
        return (uint16_t)v;
    case TPC_T_U8:
    case TPC_T_B:
        return (uint8_t)v;
    default:
        return v;
    }
}

/* v saturated to type t (sat) or wrapped to its width. */
static inline uint32_t tpc_lane_int_result(int64_t v, unsigned t, bool sat)
{
    unsigned bits = tpc_lane_bitsof(t);
    if (sat) {
        bool s = tpc_type_is_signed(t);
        int64_t mn = s ? -((int64_t)1 << (bits - 1)) : 0;
        int64_t mx = s ? ((int64_t)1 << (bits - 1)) - 1 : ((int64_t)1 << bits) - 1;
        v = v < mn ? mn : v > mx ? mx : v;
    }
    return (uint32_t)v & tpc_lane_wmask(t);
}

/* ADD with carry-in cin (0/1); *cout gets the unsigned carry out. */
static inline uint32_t tpc_lane_int_add(unsigned t, uint32_t ra, uint32_t rb, unsigned cin,
                                        bool sat, unsigned *cout)
{
    uint32_t wm = tpc_lane_wmask(t);
    uint64_t ua = ra & wm, ub = rb & wm;
    *cout = (unsigned)((ua + ub + cin) >> tpc_lane_bitsof(t)) & 1u;
    return tpc_lane_int_result(tpc_lane_sext(ra, t) + tpc_lane_sext(rb, t) + cin, t, sat);
}

static inline uint32_t tpc_lane_int_sub(unsigned t, uint32_t ra, uint32_t rb, bool rev, bool sat)
{
    int64_t a = tpc_lane_sext(ra, t), b = tpc_lane_sext(rb, t);
    return tpc_lane_int_result(rev ? b - a : a - b, t, sat);
}

static inline uint32_t tpc_lane_int_max(unsigned t, uint32_t ra, uint32_t rb)
{
    int64_t a = tpc_lane_sext(ra, t), b = tpc_lane_sext(rb, t);
    return (uint32_t)(a > b ? a : b) & tpc_lane_wmask(t);
}

static inline uint32_t tpc_lane_int_min(unsigned t, uint32_t ra, uint32_t rb)
{
    int64_t a = tpc_lane_sext(ra, t), b = tpc_lane_sext(rb, t);
    return (uint32_t)(a < b ? a : b) & tpc_lane_wmask(t);
}

static inline uint32_t tpc_lane_int_abs(unsigned t, uint32_t ra)
{
    int64_t a = tpc_lane_sext(ra, t);
    return tpc_lane_int_result(a < 0 ? -a : a, t, false);
}

/* MUL: the low bits of the product, wrapped to the type. */
static inline uint32_t tpc_lane_int_mul(unsigned t, uint32_t ra, uint32_t rb)
{
    int64_t a = tpc_lane_sext(ra, t), b = tpc_lane_sext(rb, t);
    return (uint32_t)((uint64_t)a * (uint64_t)b) & tpc_lane_wmask(t);
}

/* 32-bit MUL's upper word: bits 63:32 of the 64-bit product. */
static inline uint32_t tpc_lane_int_mul_hi(unsigned t, uint32_t ra, uint32_t rb)
{
    uint64_t p =
        t == TPC_T_I32 ? (uint64_t)((int64_t)(int32_t)ra * (int32_t)rb) : (uint64_t)ra * rb;
    return (uint32_t)(p >> 32);
}

/* 32-bit MUL double_and_round32: sat32((2ab + 2^31) >> 32). */
static inline uint32_t tpc_lane_int_mul_dr(unsigned t, uint32_t ra, uint32_t rb)
{
    __int128 p = t == TPC_T_I32 ? (__int128)(int32_t)ra * (int32_t)rb : (__int128)ra * rb;
    __int128 q = (2 * p + ((__int128)1 << 31)) >> 32;
    int64_t lim = q > INT64_MAX / 2   ? INT64_MAX / 2
                  : q < INT64_MIN / 2 ? INT64_MIN / 2
                                      : (int64_t)q;
    return tpc_lane_int_result(lim, t, true);
}

/* MAC: d + a*b (neg: d - a*b), exact, then wrapped or saturated. */
static inline uint32_t tpc_lane_int_mac(unsigned t, uint32_t ra, uint32_t rb, uint32_t rd, bool neg,
                                        bool sat)
{
    int64_t a = tpc_lane_sext(ra, t), b = tpc_lane_sext(rb, t), d = tpc_lane_sext(rd, t);
    __int128 p = (__int128)a * b;
    __int128 r = neg ? d - p : d + p;
    if (!sat)
        return (uint32_t)(uint64_t)r & tpc_lane_wmask(t);
    if (r > INT64_MAX / 2)
        r = INT64_MAX / 2;
    if (r < INT64_MIN / 2)
        r = INT64_MIN / 2;
    return tpc_lane_int_result((int64_t)r, t, true);
}

/* Bitwise OR/AND/XOR/NOT, any type. */
static inline uint32_t tpc_lane_logic(unsigned op, unsigned t, uint32_t ra, uint32_t rb)
{
    uint32_t r = op == TPC_OPC_SPU_or    ? ra | rb
                 : op == TPC_OPC_SPU_and ? ra & rb
                 : op == TPC_OPC_SPU_xor ? ra ^ rb
                                         : ~ra;
    return r & tpc_lane_wmask(t);
}

/* SHR (logical) / SHL by the low byte of B; a shift of the width or more
 * gives 0. */
static inline uint32_t tpc_lane_shift(bool left, unsigned t, uint32_t ra, uint32_t rb)
{
    uint32_t wm = tpc_lane_wmask(t), n = rb & 0xFFu;
    uint32_t r = left ? ra << (n & 31) : (ra & wm) >> (n & 31);
    return n >= tpc_lane_bitsof(t) ? 0 : r & wm;
}

/* An int5 (IRF) form's operation on one dimension (tpc.md §5.0.5): 32-bit
 * wrap-around, signed MAX/MIN/ABS, SHR (logical) / SHL by the low byte of
 * B, 0 from 32 on.  *ok false (and 0) for an opcode without an int5 form. */
static inline uint32_t tpc_lane_int5(unsigned op, uint32_t a, uint32_t b, bool *ok)
{
    *ok = true;
    switch (op) {
    case TPC_OPC_SPU_mul:
        return a * b;
    case TPC_OPC_SPU_add:
        return a + b;
    case TPC_OPC_SPU_sub:
        return a - b;
    case TPC_OPC_SPU_max:
        return (int32_t)a > (int32_t)b ? a : b;
    case TPC_OPC_SPU_min:
        return (int32_t)a < (int32_t)b ? a : b;
    case TPC_OPC_SPU_abs:
        return (int32_t)a < 0 ? 0u - a : a;
    case TPC_OPC_SPU_mov:
        return a;
    case TPC_OPC_SPU_or:
    case TPC_OPC_SPU_and:
    case TPC_OPC_SPU_xor:
    case TPC_OPC_SPU_not:
        return tpc_lane_logic(op, TPC_T_U32, a, b);
    case TPC_OPC_SPU_shr:
        return (b & 0xFFu) >= 32 ? 0u : a >> (b & 0xFFu);
    case TPC_OPC_SPU_shl:
        return (b & 0xFFu) >= 32 ? 0u : a << (b & 0xFFu);
    default:
        *ok = false;
        return 0;
    }
}

/* ---- comparisons (CMP_EQ 0x09 .. CMP_GEQ 0x0E; SEL maps onto them) ---- */

static inline bool tpc_lane_rel(unsigned op, bool lt, bool eq, bool gt)
{
    switch (op) {
    case TPC_OPC_SPU_cmp_eq:
        return eq;
    case TPC_OPC_SPU_cmp_neq:
        return !eq;
    case TPC_OPC_SPU_cmp_less:
        return lt;
    case TPC_OPC_SPU_cmp_leq:
        return lt || eq;
    case TPC_OPC_SPU_cmp_grt:
        return gt;
    default:
        return gt || eq;
    }
}

/* f32/bf16 relations are IEEE: every one but NEQ is false with a NaN. */
static inline bool tpc_lane_cmp(unsigned op, unsigned t, uint32_t ra, uint32_t rb, bool mez)
{
    if (op == TPC_OPC_SPU_cmp_eq && mez)
        return (ra & rb & tpc_lane_wmask(t)) == 0;
    if (tpc_type_is_float(t)) {
        float a = tpc_lane_f(t == TPC_T_F32 ? ra : (ra & 0xFFFFu) << 16);
        float b = tpc_lane_f(t == TPC_T_F32 ? rb : (rb & 0xFFFFu) << 16);
        return tpc_lane_rel(op, a < b, a == b, a > b);
    }
    int64_t a = tpc_lane_sext(ra, t), b = tpc_lane_sext(rb, t);
    return tpc_lane_rel(op, a < b, a == b, a > b);
}

/* ---- CONVERT and NEARBYINT (tpc.md §5.3.1, §5.5; docs/tpc-isa.rst) ----
 * Exact in integers: a value is a magnitude m * 2^-sh and a sign, rounded
 * once to an integer by the mode (the TPC_RM_* codes of cpu.h: 0 rhne,
 * 1 rz, 2 ru, 3 rd, 4 sr, 6 rhaz; any other code rounds as rhne). */
#define TPC_LANE_RM_RZ   1u
#define TPC_LANE_RM_RU   2u
#define TPC_LANE_RM_RD   3u
#define TPC_LANE_RM_SR   4u
#define TPC_LANE_RM_RHAZ 6u

/* c ? a : b as a bit blend: a loop keeps the conversions computing a and
 * b unconditional (a branch would sink them into it, and a conversion that
 * may trap cannot be if-converted back) */
static inline __attribute__((always_inline)) uint32_t tpc_lane_blend(bool c, uint32_t a, uint32_t b)
{
    uint32_t m = 0u - (uint32_t)c;
    return (a & m) | (b & ~m);
}

/* Whether (1) or not (0) a magnitude's integer part goes up by one in mode
 * rm (not sr), from its fraction: nz not zero, gt above one half, tie
 * exactly one half; odd the integer part's last bit, neg the value's sign
 * (each 0 or 1: integers, which a loop keeps in lanes of its width). */
static inline __attribute__((always_inline)) uint32_t
tpc_lane_round_up(unsigned rm, uint32_t neg, uint32_t nz, uint32_t gt, uint32_t tie, uint32_t odd)
{
    switch (rm) {
    case TPC_LANE_RM_RZ:
        return false;
    case TPC_LANE_RM_RU:
        return nz & (neg ^ 1u);
    case TPC_LANE_RM_RD:
        return nz & neg;
    case TPC_LANE_RM_RHAZ:
        return gt | tie;
    default: /* rhne: ties to the even integer (bitwise: no branches in a loop) */
        return gt | (tie & odd);
    }
}

static inline __attribute__((always_inline)) bool tpc_lane_rm_is_rhne(unsigned rm)
{
    return rm != TPC_LANE_RM_RZ && rm != TPC_LANE_RM_RU && rm != TPC_LANE_RM_RD &&
           rm != TPC_LANE_RM_SR && rm != TPC_LANE_RM_RHAZ;
}

/* m * 2^-sh rounded to an integer by rm, neg the value's sign.  sr
 * (stochastic) adds the k low bits of the state at 2^-k of the integer's
 * LSB to the magnitude and truncates (k = 0: as rz). */
static inline __attribute__((always_inline)) uint64_t
tpc_lane_round_mag(uint64_t m, unsigned sh, bool neg, unsigned rm, unsigned k, uint32_t sr)
{
    sh = sh > 62 ? 62 : sh; /* (m < 2^34: the integer part is 0 from here) */
    uint64_t ip = m >> sh, rem = m & (((uint64_t)1 << sh) - 1);
    uint64_t half = ((uint64_t)1 << sh) >> 1;
    if (rm == TPC_LANE_RM_SR) {
        uint64_t frac = sh >= k ? rem >> (sh - k) : rem << (k - sh); /* floor(rem * 2^(k-sh)) */
        return ip + (frac + (sr & ((1u << k) - 1)) >= ((uint64_t)1 << k));
    }
    return ip + tpc_lane_round_up(rm, neg, rem != 0, rem > half, rem != 0 && rem == half,
                                  (uint32_t)ip & 1u);
}

/* An f32 magnitude a < 2^23 (0 for larger values) rounded to an integer by
 * rm (not sr), in 32-bit lanes: its integer part and the exact rest. */
static inline __attribute__((always_inline)) int32_t tpc_lane_rint_small(float a, unsigned rm,
                                                                         bool neg)
{
    int32_t i = (int32_t)a;
    uint32_t fr = tpc_lane_bits(a - (float)i); /* in [0, 1): ordered as its bits */
    return i + (int32_t)tpc_lane_round_up(rm, neg, fr != 0, fr > 0x3F000000u, fr == 0x3F000000u,
                                          (uint32_t)i & 1u);
}

/* An f32 value (bits u, any sign) as magnitude mantissa *m and the power
 * *e of its last bit: |u| = m * 2^e (e >= -149; denormals included). */
static inline __attribute__((always_inline)) void tpc_lane_f32_split(uint32_t u, uint64_t *m,
                                                                     int *e)
{
    uint32_t ex = (u >> 23) & 0xFFu, mant = u & 0x7FFFFFu;
    *m = ex ? mant | 0x800000u : mant;
    *e = (int)(ex ? ex : 1u) - 150;
}

/* f32 (bits u; bf16 widened, k its fraction bits for sr: 23 or 7) to the
 * integer type dt, saturated; a NaN gives 0, infinities saturate. */
static inline __attribute__((always_inline)) uint32_t
tpc_lane_f2int(uint32_t u, unsigned dt, unsigned rm, unsigned k, uint32_t sr)
{
    uint64_t m, n;
    int e;
    bool neg = u >> 31;
    bool nan = (u & 0x7FFFFFFFu) > 0x7F800000u;
    if (rm != TPC_LANE_RM_SR && dt != TPC_T_U32) {
        /* in 32-bit lanes: below 2^23 rounded, to 2^31 exact, beyond saturated */
        uint32_t mag = u & 0x7FFFFFFFu;
        bool small = mag < 0x4B000000u, fits = mag < 0x4F000000u; /* 2^23, 2^31; not NaN */
        /* (each conversion computed either way, of a value clamped into its
         * range: a min, not a branch, so a loop if-converts the choice) */
        int32_t nr =
            tpc_lane_rint_small(tpc_lane_f(mag < 0x4B000000u ? mag : 0x4B000000u), rm, neg);
        int32_t nt = (int32_t)tpc_lane_f(mag < 0x4EFFFFFFu ? mag : 0x4EFFFFFFu);
        int32_t n32 = (int32_t)tpc_lane_blend(small, (uint32_t)nr, (uint32_t)nt);
        unsigned bits = tpc_lane_bitsof(dt);
        bool s = tpc_type_is_signed(dt);
        int32_t mn = s ? (int32_t)(0u - (1u << (bits - 1))) : 0;
        int32_t mx = s ? (int32_t)((1u << (bits - 1)) - 1) : (int32_t)((1u << bits) - 1);
        int32_t v = neg ? -n32 : n32;
        v = v < mn ? mn : v > mx ? mx : v;
        uint32_t r = tpc_lane_blend(fits, (uint32_t)v, (uint32_t)(neg ? mn : mx));
        return tpc_lane_blend(nan, 0, r) & tpc_lane_wmask(dt);
    }
    tpc_lane_f32_split(u, &m, &e);
    if (e >= 0)
        n = m << (e > 39 ? 39 : e); /* (beyond every bound) */
    else
        n = tpc_lane_round_mag(m, (unsigned)-e, neg, rm, k, sr);
    int64_t v = neg ? -(int64_t)n : (int64_t)n;
    return nan ? 0 : tpc_lane_int_result(v, dt, true);
}

/* The integer v to f32 bits (keep 24) or bf16 bits (keep 8), rounded by rm
 * (sr rounds an integer source as rz, tpc.md §10.16). */
static inline __attribute__((always_inline)) uint32_t tpc_lane_int2f(int64_t v, unsigned keep,
                                                                     unsigned rm)
{
    if (keep == 24 && tpc_lane_rm_is_rhne(rm)) /* the host's conversion rounds so */
        return tpc_lane_bits(v == (int32_t)v ? (float)(int32_t)v : (float)v);
    bool neg = v < 0;
    uint64_t n = neg ? (uint64_t)-v : (uint64_t)v;
    unsigned p = 64 - (unsigned)__builtin_clzll(n | 1u);
    unsigned sh = p > keep ? p - keep : 0;
    uint64_t q = tpc_lane_round_mag(n, sh, neg, rm == TPC_LANE_RM_SR ? TPC_LANE_RM_RZ : rm, 0, 0);
    /* q << sh has at most keep significant bits: exact in a float */
    uint32_t b = tpc_lane_bits((float)(q << sh)) | (uint32_t)neg << 31;
    return keep == 24 ? b : b >> 16;
}

/* CONVERT of one element raw of type st to type dt by rounding mode rm
 * (sr: the lane's LFSR state): every value rounded exactly once; integers
 * saturate; a NaN gives the canonical NaN (0 for an integer type). */
static inline __attribute__((always_inline)) uint32_t
tpc_lane_convert(uint32_t raw, unsigned st, unsigned dt, unsigned rm, uint32_t sr)
{
    if (!tpc_type_is_float(st)) {
        int64_t v = tpc_lane_sext(raw, st);
        if (tpc_type_is_float(dt))
            return tpc_lane_int2f(v, dt == TPC_T_F32 ? 24 : 8, rm);
        return tpc_lane_int_result(v, dt, true);
    }
    uint32_t u = st == TPC_T_F32 ? raw : (raw & 0xFFFFu) << 16;
    bool nan = (u & 0x7FFFFFFFu) > 0x7F800000u;
    if (!tpc_type_is_float(dt))
        return tpc_lane_f2int(u, dt, rm, st == TPC_T_F32 ? 23 : 7, sr);
    if (dt == TPC_T_F32 || st == TPC_T_BF16) /* exact: f32 to itself, bf16 widened */
        return nan ? (dt == TPC_T_F32 ? TPC_F32_QNAN : 0x7FC0u) : dt == TPC_T_F32 ? u : u >> 16;
    /* f32 to bf16: the magnitude's bits rounded at bit 16 (a carry goes
     * into the exponent, up to infinity); sr adds 16 state bits */
    uint32_t q = (uint32_t)tpc_lane_round_mag(u & 0x7FFFFFFFu, 16, u >> 31, rm, 16, sr);
    return nan ? 0x7FC0u : (u >> 31) << 15 | q;
}

/* NEARBYINT.f32 (bits u; bf16 widened): the integral value in the same
 * format by rm, -0 and the sign kept, NaN canonical.  sr adds the state's
 * bits 8..31 at 2^-24 to the magnitude as an f32 addition, then truncates. */
static inline __attribute__((always_inline)) uint32_t tpc_lane_nearbyint(uint32_t u, unsigned rm,
                                                                         uint32_t sr)
{
    bool neg = u >> 31;
    uint32_t mag = u & 0x7FFFFFFFu;
    bool small = mag < 0x4B000000u; /* below 2^23 (else integral already, or NaN) */
    float a = tpc_lane_f(mag < 0x4B000000u ? mag : 0x4B000000u); /* (a min: see f2int) */
    int32_t n;
    if (rm == TPC_LANE_RM_SR) /* a + frac < 2^23 + 1: an int32 truncates */
        n = (int32_t)(a + (float)(sr >> 8) * 0x1p-24f);
    else
        n = tpc_lane_rint_small(a, rm, neg);
    uint32_t r = tpc_lane_bits((float)n) | (uint32_t)neg << 31;
    bool nan = (u & 0x7FFFFFFFu) > 0x7F800000u;
    return tpc_lane_blend(nan, TPC_F32_QNAN, tpc_lane_blend(small, r, u));
}

#endif
