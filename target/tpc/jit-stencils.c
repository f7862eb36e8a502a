/*
 * Stencils of the TPC's block compiler (jit.c), copy-and-patch style, as
 * the sequencer's (target/seq/jit-stencils.c).  This file is not part of
 * the emulator: the build compiles it on its own for x86-64 with AVX2 and
 * FMA (target/tpc/meson.build; jit.c uses the stencils only on a host that
 * has both) and scripts/seq-stencils.py --prefix tpc turns the object into
 * target/tpc/tpc-stencils.h.
 *
 * The VPU stencils are instantiated from lane-ops.def, the table the
 * interpreter's whole-register loops (vlane-impl.h) are instantiated from,
 * with the same loop (VL_LANES, vlane-loop.h): one stencil per row with a
 * loop tier and per kind of operand B (a V register, an S register's
 * broadcast, an immediate's).  Each does what the direct path's
 * run_vpu_vl does (cpu-direct.c): the slot's result buffer becomes the
 * destination register and the loop fills it from the sources and the old
 * value.  The register numbers are holes (byte offsets of the V and S
 * registers in the core), as are the immediate, the broadcast image, an
 * SP predicate and a bundle's index.  What has no stencil calls the
 * direct path's own executor through the context (STEP; a tensor access
 * with the span PREP took, COMMIT its store).
 */
#include <stdbool.h>
#include <stdint.h>

#include "target/tpc/jit-abi.h"
#include "target/tpc/jit-lane.h"
#include "target/tpc/lane.h"
#include "target/tpc/vlane-loop.h"
#include "target/tpc/vlane.h"

#define HOLE(name) extern const char tpc_hole_##name[] __attribute__((weak))
HOLE(vd);
HOLE(va);
HOLE(vb);
HOLE(buf);
HOLE(sb);
HOLE(imm);
HOLE(bc);
HOLE(sp);
HOLE(pol);
HOLE(k);
HOLE(s);
HOLE(run);
HOLE(it);
HOLE(gen);
HOLE(mark);
HOLE(e);
HOLE(sd);
HOLE(sa);
HOLE(sw);
HOLE(cy);
HOLE(jmp);
HOLE(vp);
HOLE(vpm);
#undef HOLE
uint32_t tpc_hole_next(char *c, const TpcJitCtx *x);
uint32_t tpc_hole_taken(char *c, const TpcJitCtx *x);

#define V(h)     ((uintptr_t)tpc_hole_##h)
#define AT(T, h) ((T *)(c + V(h)))

#define STENCIL(name) uint32_t tpc_st_##name(char *c, const TpcJitCtx *x)

/* The element size of an OPERANDS_TYPE suffix. */
#define ST_E_F32  4
#define ST_E_BF16 2
#define ST_E_I32  4
#define ST_E_U32  4
#define ST_E_I16  2
#define ST_E_U16  2
#define ST_E_I8   1
#define ST_E_U8   1

/* Every stencil has a prototype (-Wmissing-prototypes). */
#define ST_PROTO_L(name, type)                                                                     \
    STENCIL(name##_##type##_V);                                                                    \
    STENCIL(name##_##type##_S);                                                                    \
    STENCIL(name##_##type##_I);                                                                    \
    STENCIL(name##_##type##_VP);                                                                   \
    STENCIL(name##_##type##_SP);                                                                   \
    STENCIL(name##_##type##_IP);
#define ST_PROTO_LA(name, type) ST_PROTO_L(name, type)
#define ST_PROTO_E(name, type)
#define TPC_LANE(name, slots, opc, type, swm, swv, tier, expr) ST_PROTO_##tier(name, type)
#include "target/tpc/lane-ops.def"
#define ST_PROTO_SPU(name, type)                                                                   \
    STENCIL(SPU_##name##_##type##_S);                                                              \
    STENCIL(SPU_##name##_##type##_I);
#define TPC_LANE(name, slots, opc, type, swm, swv, tier, expr) ST_PROTO_SPU(name, type)
#include "target/tpc/lane-ops.def"
#define TPC_JIT_SPU(name, type) ST_PROTO_SPU(name, type)
#include "target/tpc/jit-spu.def"
#undef ST_PROTO_SPU
STENCIL(MOV_V);
STENCIL(MOV_S);
STENCIL(MOV_I);
STENCIL(PRED_SP);
STENCIL(CHK);
STENCIL(LOOP);
STENCIL(STEP);
STENCIL(PREP);
STENCIL(COMMIT);
STENCIL(EXIT);
STENCIL(HLD);
STENCIL(HST);
STENCIL(HTOP);
STENCIL(HLOOP);
STENCIL(BR);
STENCIL(COV);
#undef ST_PROTO_L
#undef ST_PROTO_LA
#undef ST_PROTO_E

/* The scalar v of e bytes broadcast to every lane, in the core's image at
 * hole bc (kept while v and e stay, as the direct path's vl_src_b does). */
static inline __attribute__((always_inline)) const uint8_t *st_bcast(char *c, uint32_t v,
                                                                     unsigned e)
{
    TpcJitBcast *bc = AT(TpcJitBcast, bc);
    if (__builtin_expect(v != bc->val || e != bc->e, 0)) {
        tpc_vl_broadcast(bc->img, v, e);
        bc->val = v;
        bc->e = e;
    }
    return bc->img;
}

/* Sources pa (hole va) and pb of a row stencil, operand B of kind K: V (a
 * register: hole vb), S (an S register's broadcast: sb, bc) or I (the
 * immediate's: imm, bc). */
#define ST_SOURCES(type, K)                                                                        \
    const uint8_t *pa = *AT(uint8_t *, va);                                                        \
    const uint8_t *pb = #K[0] == 'V'   ? *AT(uint8_t *, vb)                                        \
                        : #K[0] == 'S' ? st_bcast(c, *AT(uint32_t, sb), ST_E_##type)               \
                                       : st_bcast(c, (uint32_t)V(imm), ST_E_##type)

/* One lane-ops.def row over whole registers, operand B of kind K: V (a
 * register: hole vb), S (an S register's broadcast: sb, bc) or I (the
 * immediate's: imm, bc). */
#define ST_ROW(name, type, expr, K)                                                                \
    static inline __attribute__((always_inline)) void st_loop_##name##_##type##_##K(               \
        uint8_t *restrict out, const uint8_t *restrict a, const uint8_t *restrict b,               \
        const uint8_t *restrict d)                                                                 \
    {                                                                                              \
        VL_LANES(ST_E_##type, TPC_T_##type, expr, out, a, b, d);                                   \
    }                                                                                              \
    STENCIL(name##_##type##_##K)                                                                   \
    {                                                                                              \
        uint8_t **r = AT(uint8_t *, vd), **buf = AT(uint8_t *, buf);                               \
        ST_SOURCES(type, K);                                                                       \
        uint8_t *out = *buf, *old = *r;                                                            \
        *r = out;                                                                                  \
        *buf = old;                                                                                \
        st_loop_##name##_##type##_##K(out, pa, pb, old);                                           \
        return tpc_hole_next(c, x);                                                                \
    }
/* The lane mask of the VPRF predicate at hole vp for element size e and
 * polarity pol (tpc_pred_mask's: tpc_vl_spread, tpc_vl_unpack), kept in
 * the core at hole vpm while the register's bytes and the key stay; NULL
 * when no lane is enabled. */
static inline __attribute__((always_inline)) const uint8_t *st_mask(char *c, unsigned e)
{
    TpcJitMask *k = AT(TpcJitMask, vpm);
    const uint8_t *vp = AT(uint8_t, vp);
    uint32_t key = e | (uint32_t)V(pol) << 4 | 0x100u;
    uint64_t w[4], d = 0;
    memcpy(w, vp, 32);
    for (unsigned i = 0; i < 4; i++) {
        uint64_t o;
        memcpy(&o, k->vp + 8 * i, 8);
        d |= w[i] ^ o;
    }
    if (__builtin_expect(d || k->key != key, 0)) {
        uint8_t g[32];
        uint64_t any = 0;
        tpc_vl_spread(g, vp, e, V(pol) != 0);
        for (unsigned i = 0; i < 32; i += 8) {
            uint64_t x;
            memcpy(&x, g + i, 8);
            any |= x;
        }
        tpc_vl_unpack(k->m, g);
        memcpy(k->vp, w, 32);
        k->key = key;
        k->any = any != 0;
    }
    return k->any ? k->m : NULL;
}

/* A row under a VPRF predicate (the direct path's run_vpu_vl_vp): the
 * row's loop (ST_ROW's, K the kind of B) into the slot's buffer, blended
 * into the old value over the mask (tpc_vl_merge), the buffer then the
 * register; nothing when no lane is enabled. */
#define ST_ROWP(name, type, K)                                                                     \
    STENCIL(name##_##type##_##K##P)                                                                \
    {                                                                                              \
        const uint8_t *m = st_mask(c, ST_E_##type);                                                \
        if (!m)                                                                                    \
            return tpc_hole_next(c, x);                                                            \
        uint8_t **r = AT(uint8_t *, vd), **buf = AT(uint8_t *, buf);                               \
        ST_SOURCES(type, K);                                                                       \
        uint8_t *out = *buf, *old = *r;                                                            \
        st_loop_##name##_##type##_##K(out, pa, pb, old);                                           \
        tpc_vl_merge(out, old, m);                                                                 \
        *r = out;                                                                                  \
        *buf = old;                                                                                \
        return tpc_hole_next(c, x);                                                                \
    }
#define ST_L(name, type, expr)                                                                     \
    ST_ROW(name, type, expr, V)                                                                    \
    ST_ROW(name, type, expr, S)                                                                    \
    ST_ROW(name, type, expr, I) ST_ROWP(name, type, V) ST_ROWP(name, type, S) ST_ROWP(name, type, I)
#define ST_LA(name, type, expr) ST_L(name, type, expr)
#define ST_E(name, type, expr)
#define TPC_LANE(name, slots, opc, type, swm, swv, tier, expr) ST_##tier(name, type, expr)
#include "target/tpc/lane-ops.def"

/* MOV into V (hole vd) from a V register (K = V: hole va), an S
 * register (S: sb) or an immediate (I: imm) broadcast at element size e:
 * what the LD and VPU slots' executors (exec-ld.c, exec-vpu.c mov: put_v
 * of tpc_rd_vec, which broadcasts by tpc_vl_broadcast) write without a
 * VPRF predicate.  The slot's buffer (buf) becomes the register, as in
 * ST_ROW. */
#define ST_MOV(K)                                                                                  \
    STENCIL(MOV_##K)                                                                               \
    {                                                                                              \
        uint8_t **r = AT(uint8_t *, vd), **buf = AT(uint8_t *, buf);                               \
        uint8_t *out = *buf, *old = *r;                                                            \
        if (#K[0] == 'V') {                                                                        \
            const uint8_t *restrict a = *AT(uint8_t *, va);                                        \
            uint8_t *restrict o = out;                                                             \
            VL_LANES(4, 0, x, o, a, a, a);                                                         \
        } else {                                                                                   \
            tpc_vl_broadcast(out, #K[0] == 'S' ? *AT(uint32_t, sb) : (uint32_t)V(imm),             \
                             (unsigned)V(e));                                                      \
        }                                                                                          \
        *r = out;                                                                                  \
        *buf = old;                                                                                \
        return tpc_hole_next(c, x);                                                                \
    }
ST_MOV(V)
ST_MOV(S)
ST_MOV(I)

/* ---- the SPU: scalar ops of an S register A and an S register (K = S:
 * hole sb) or an immediate (I: imm) B, written at once as the direct
 * path's run_staged commits them (exec-spu.c spu_arith, spu_cmp) ---- */
#define ST_SPU_B(K) (#K[0] == 'S' ? *AT(uint32_t, sb) : (uint32_t)V(imm))

/* A lane-ops.def row into S register sd, sign-extended to the result's
 * type (tpc_ext32: bf16's acc_fp32 rows give an f32); z is sd's old value
 * (MAC).  A row with an exec-alu.c helper has none (jit-lane.h): its
 * stencil only leaves, and the table never names it. */
#define ST_SPU_ROW(name, type, swm, swv, expr, K)                                                  \
    STENCIL(SPU_##name##_##type##_##K)                                                             \
    {                                                                                              \
        if (!st_lane_ok_##name##_##type())                                                         \
            return (uint32_t)V(k);                                                                 \
        uint32_t *d = AT(uint32_t, sd);                                                            \
        uint32_t r = st_lane_##name##_##type(*AT(uint32_t, sa), ST_SPU_B(K), *d);                  \
        *d = (uint32_t)tpc_lane_sext(                                                              \
            r, TPC_T_##type == TPC_T_BF16 && (4u & (swm) & (swv)) ? TPC_T_F32 : TPC_T_##type);     \
        return tpc_hole_next(c, x);                                                                \
    }
#define ST_SPU_LANE(name, type, swm, swv, expr)                                                    \
    static inline __attribute__((always_inline))                                                   \
    uint32_t st_lane_##name##_##type(uint32_t x, uint32_t y, uint32_t z)                           \
    {                                                                                              \
        enum { T = TPC_T_##type };                                                                 \
        (void)x, (void)y, (void)z;                                                                 \
        return (uint32_t)(expr);                                                                   \
    }                                                                                              \
    static inline __attribute__((always_inline)) int st_lane_ok_##name##_##type(void)              \
    {                                                                                              \
        enum { T = TPC_T_##type };                                                                 \
        const uint32_t x = 0, y = 0, z = 0;                                                        \
        (void)x, (void)y, (void)z;                                                                 \
        return TPC_JIT_LANE_OK(expr);                                                              \
    }                                                                                              \
    ST_SPU_ROW(name, type, swm, swv, expr, S) ST_SPU_ROW(name, type, swm, swv, expr, I)
#define TPC_LANE(name, slots, opc, type, swm, swv, tier, expr)                                     \
    ST_SPU_LANE(name, type, swm, swv, expr)
#include "target/tpc/lane-ops.def"

/* Integer ADD into sd with the carry chain (tpc_alu: switches bit 0
 * saturates, bit 1 adds the carry cy; the carry out goes to cy). */
#define ST_SPU_IADD_K(type, K)                                                                     \
    STENCIL(SPU_iadd_##type##_##K)                                                                 \
    {                                                                                              \
        uint8_t *cy = AT(uint8_t, cy);                                                             \
        unsigned sw = (unsigned)V(sw), cin = (sw & 2u) ? (*cy & 1u) : 0u, cout;                    \
        uint32_t r =                                                                               \
            tpc_lane_int_add(TPC_T_##type, *AT(uint32_t, sa), ST_SPU_B(K), cin, sw & 1u, &cout);   \
        *AT(uint32_t, sd) = (uint32_t)tpc_lane_sext(r, TPC_T_##type);                              \
        *cy = (uint8_t)(cout & 1u);                                                                \
        return tpc_hole_next(c, x);                                                                \
    }
/* A compare into SP register sd (switches bit 0 of CMP_EQ: mask_eq_zero). */
#define ST_SPU_CMP_K(op, type, K)                                                                  \
    STENCIL(SPU_##op##_##type##_##K)                                                               \
    {                                                                                              \
        bool mez = TPC_OPC_SPU_##op == TPC_OPC_SPU_cmp_eq && ((unsigned)V(sw) & 1u);               \
        *AT(uint8_t, sd) =                                                                         \
            tpc_lane_cmp(TPC_OPC_SPU_##op, TPC_T_##type, *AT(uint32_t, sa), ST_SPU_B(K), mez);     \
        return tpc_hole_next(c, x);                                                                \
    }
/* SET_INDX (any slot): the dims of mask sw of IRF register sd. */
#define ST_SPU_SETI_K(K)                                                                           \
    STENCIL(SPU_set_indx_U32_##K)                                                                  \
    {                                                                                              \
        int32_t *r = AT(int32_t, sd);                                                              \
        uint32_t v = ST_SPU_B(K);                                                                  \
        for (unsigned mk = (unsigned)V(sw) & 0x1Fu; mk; mk &= mk - 1)                              \
            r[__builtin_ctz(mk)] = (int32_t)v;                                                     \
        return tpc_hole_next(c, x);                                                                \
    }
#define ST_SPU_iadd(type, K)     ST_SPU_IADD_K(type, K)
#define ST_SPU_cmp_eq(type, K)   ST_SPU_CMP_K(cmp_eq, type, K)
#define ST_SPU_cmp_neq(type, K)  ST_SPU_CMP_K(cmp_neq, type, K)
#define ST_SPU_cmp_less(type, K) ST_SPU_CMP_K(cmp_less, type, K)
#define ST_SPU_cmp_leq(type, K)  ST_SPU_CMP_K(cmp_leq, type, K)
#define ST_SPU_cmp_grt(type, K)  ST_SPU_CMP_K(cmp_grt, type, K)
#define ST_SPU_cmp_geq(type, K)  ST_SPU_CMP_K(cmp_geq, type, K)
#define ST_SPU_set_indx(type, K) ST_SPU_SETI_K(K)
#define TPC_JIT_SPU(name, type)  ST_SPU_##name(type, S) ST_SPU_##name(type, I)
#include "target/tpc/jit-spu.def"

/* An SP predicate (tpc_pred_sp): the guarded stencil when true, else the
 * one after it (TAKEN). */
STENCIL(PRED_SP)
{
    if (!(*AT(uint8_t, sp) ^ (uint8_t)V(pol)))
        return tpc_hole_taken(c, x);
    return tpc_hole_next(c, x);
}

/* Before bundle k: leave there when the slice's budget is spent, else
 * take one bundle of it. */
STENCIL(CHK)
{
    /* one subtract of the count in memory and a branch on its borrow
     * (the compilers load, test, subtract and store: 5 instructions a
     * bundle) going on to the next stencil, which follows (its trailing
     * jump dropped); spent, it is put back to 0 */
    TpcJitRun *r = AT(TpcJitRun, run);
    __asm__ goto("subq $1, %0\n\tjnc %l[take]" : : "m"(r->left) : "cc", "memory" : take);
    r->left = 0;
    return (uint32_t)V(k);
take:
    return tpc_hole_next(c, x);
}

/* After the body's last bundle (k: their number): the loop end of an
 * ascending '<' loop going round again (direct.h tpc_loop_end_fast's
 * common case) back to the body's top (TAKEN) while the code is still
 * current (nothing in a trip writes it: a direct store's span never
 * covers marked code, as for loop plans); anything else is the caller's. */
STENCIL(LOOP)
{
    const TpcJitRun *r = AT(TpcJitRun, run);
    uint32_t *it = AT(uint32_t, it);
    int32_t v = (int32_t)(*it + (uint32_t)r->step);
    if (!r->fast || v >= r->bound || *AT(uint64_t, gen) != x->gen || !*AT(uint8_t, mark))
        return (uint32_t)V(k);
    *it = (uint32_t)v;
    return tpc_hole_taken(c, x);
}

/* Step s of bundle k through the direct path's executor. */
STENCIL(STEP)
{
    x->step(c, x, (uint32_t)V(k), (uint32_t)V(s));
    return tpc_hole_next(c, x);
}

/* Bundle k's tensor checks and spans before its steps, or leave before
 * it (giving back the bundle CHK took). */
STENCIL(PREP)
{
    if (!x->prep(c, x, (uint32_t)V(k))) {
        AT(TpcJitRun, run)->left++;
        return (uint32_t)V(k);
    }
    return tpc_hole_next(c, x);
}

/* Bundle k's store, after its steps. */
STENCIL(COMMIT)
{
    x->commit(c, x, (uint32_t)V(k));
    return tpc_hole_next(c, x);
}

/* Leave with k bundles of the trip run. */
STENCIL(EXIT)
{
    (void)c, (void)x;
    return (uint32_t)V(k);
}

/* ---- hoisted trips (jit.c): the spans checked once for a range of trips,
 * access p (hole s) at x->hspan[p], which moves by x->hstep[p] a trip ---- */

/* Access p's host bytes for this trip, moved on for the next. */
static inline __attribute__((always_inline)) const uint8_t *st_hspan(const TpcJitCtx *x)
{
    const uint8_t *p = x->hspan[V(s)];
    x->hspan[V(s)] = p + x->hstep[V(s)];
    return p;
}

/* ld_tnsr of a whole register (cpu-direct.c run_ld_tnsr): the LD slot's
 * buffer (buf) becomes the register (vd), filled by the copy loop. */
STENCIL(HLD)
{
    const uint8_t *restrict a = st_hspan(x);
    uint8_t **r = AT(uint8_t *, vd), **buf = AT(uint8_t *, buf);
    uint8_t *restrict o = *buf;
    __builtin_prefetch(a + 4 * TPC_VL_BYTES);
    __builtin_prefetch(a + 4 * TPC_VL_BYTES + 128);
    *buf = *r;
    *r = o;
    VL_LANES(4, 0, x, o, a, a, a);
    return tpc_hole_next(c, x);
}

/* st_tnsr of a whole register (run_st_tnsr): its span and the image of
 * register va, for COMMIT after the bundle's steps (buf: TpcExec.st_host,
 * followed by st_src). */
STENCIL(HST)
{
    const uint8_t *h = st_hspan(x);
    const uint8_t **st = AT(const uint8_t *, buf);
    st[0] = h;
    st[1] = *AT(uint8_t *, va);
    return tpc_hole_next(c, x);
}

/* A hoisted trip's top: its race notes, as the loop plan's (hnote).
 * (Without them, TAKEN, which jit.c links to the same place as NEXT.) */
STENCIL(HTOP)
{
    if (__builtin_expect(!AT(TpcJitRun, run)->note, 1))
        return tpc_hole_taken(c, x);
    x->hnote(c, x);
    return tpc_hole_next(c, x);
}

/* A hoisted trip's loop end: as LOOP, while trips are left of the range
 * checked (nothing in such a trip writes code); after the last one, the
 * caller's (k). */
STENCIL(HLOOP)
{
    TpcJitRun *r = AT(TpcJitRun, run);
    uint32_t *it = AT(uint32_t, it);
    int32_t v = (int32_t)(*it + (uint32_t)r->step);
    if (!--r->trips || v >= r->bound)
        return (uint32_t)V(k);
    *it = (uint32_t)v;
    return tpc_hole_taken(c, x);
}

/* After a bundle with a jump: to the target bundle's code (TAKEN: its
 * CHK, or an EXIT when the target lies outside the body) when the SPU
 * slot's executor took it (its TpcSlotOut.jump at hole jmp, as cpu.c's
 * tpc_step_one and the direct loop test it), else on to the next bundle. */
STENCIL(BR)
{
    if (*AT(bool, jmp))
        return tpc_hole_taken(c, x);
    return tpc_hole_next(c, x);
}

/* Bundle k ran (under -coverage, in a body with jumps), after its PREP. */
STENCIL(COV)
{
    x->cov(c, x, (uint32_t)V(k));
    return tpc_hole_next(c, x);
}
