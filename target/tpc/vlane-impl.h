/*
 * Body of the whole-register lane loops (vlane.c), included once per host
 * ISA with VL_ATTR (a target attribute or nothing) and VL(name) (a suffixed
 * name).  Each loop applies one lane function of lane.h to every lane with
 * the type, opcode and switches constant, so the compiler vectorises it;
 * the switches pick a loop, never a branch inside one.  Outputs never alias
 * inputs (the callers write slot buffers), hence restrict.
 */

#define VL_N(E) (TPC_VBYTES / (E))

/* One loop over the lanes of element size E as a function (a TpcVlFn):
 * VL_LANES (vlane-loop.h), with x, y, z lanes of a, b, d, T the type TY. */
#define VL_FN(name, E, TY, expr)                                                                   \
    VL_ATTR static void VL(name)(uint8_t *restrict out, const uint8_t *restrict a,                 \
                                 const uint8_t *restrict b, const uint8_t *restrict d)             \
    {                                                                                              \
        VL_LANES(E, TY, expr, out, a, b, d);                                                       \
    }

/* a whole register moved: a tensor load's span into its register image.
 * With the same vector width as the loops that read the image next, so a
 * load of the image is served by one store (with 16-byte stores under
 * 32-byte AVX2 loads, each of those waited for the stores to retire:
 * half of the add's time in bench/tpc-stream) */
VL_ATTR static void VL(mov)(uint8_t *restrict out, const uint8_t *restrict a,
                            const uint8_t *restrict b, const uint8_t *restrict d)
{
    /* (as a lane loop GCC sees a memcpy and moves 16 bytes at a time) */
    typedef uint32_t vlw __attribute__((vector_size(32), aligned(1), may_alias));
    (void)b, (void)d;
    _Pragma("GCC unroll 8") for (unsigned i = 0; i < TPC_VBYTES; i += sizeof(vlw))
    {
        *(vlw *)(out + i) = *(const vlw *)(a + i);
    }
}

/* One loop per row of lane-ops.def that has a loop tier (L, LA): VL_FN
 * with T bound to the row's type.  (VL_ROW_FN expands the element size
 * before VL_FN pastes it.) */
#define VL_E_F32                       4
#define VL_E_BF16                      2
#define VL_E_I32                       4
#define VL_E_U32                       4
#define VL_E_I16                       2
#define VL_E_U16                       2
#define VL_E_I8                        1
#define VL_E_U8                        1
#define VL_ROW_FN(name, E, type, expr) VL_FN(name, E, TPC_T_##type, expr)
#define VL_ROW_L(name, type, expr)     VL_ROW_FN(name##_##type, VL_E_##type, type, expr)
#define VL_ROW_LA(name, type, expr)    VL_ROW_L(name, type, expr)
#define VL_ROW_E(name, type, expr)
#define VL_PTR_L(name, type)                                   VL(name##_##type)
#define VL_PTR_LA(name, type)                                  VL(name##_##type)
#define VL_PTR_E(name, type)                                   NULL
#define VL_TIER_L                                              1u
#define VL_TIER_LA                                             2u
#define VL_TIER_E                                              0u
#define TPC_LANE(name, slots, opc, type, swm, swv, tier, expr) VL_ROW_##tier(name, type, expr)
#include "target/tpc/lane-ops.def"

/* [opcode][type][SWITCHES & 7] -> the VPU loop of the first lane-ops.def
 * row that applies, NULL where that row is element-only (or LA with
 * SWITCHES bit 2, or no row: integer ADD, whose carries VL(arith) runs) */
static TpcVlFn VL(tab)[64][TPC_T_COUNT][8];
static uint8_t VL(taken)[64][TPC_T_COUNT][8];

static void VL(put)(unsigned slots, unsigned op, unsigned t, unsigned swm, unsigned swv,
                    unsigned tier, TpcVlFn fn)
{
    if (!(slots & TPC_LS_VPU))
        return;
    for (unsigned sw = 0; sw < 8; sw++) {
        if ((sw & swm) != swv || VL(taken)[op][t][sw])
            continue;
        VL(taken)[op][t][sw] = 1;
        bool loop = tier == VL_TIER_L || (tier == VL_TIER_LA && !(sw & 4u));
        VL(tab)[op][t][sw] = loop ? fn : NULL;
    }
}

__attribute__((constructor)) static void VL(tab_init)(void)
{
#define TPC_LANE(name, slots, opc, type, swm, swv, tier, expr)                                     \
    VL(put)                                                                                        \
    (slots, TPC_OPC_SPU_##opc, TPC_T_##type, swm, swv, VL_TIER_##tier, VL_PTR_##tier(name, type));
#include "target/tpc/lane-ops.def"
}

/* The loop of (op, t, sw) that needs no carries, or NULL (integer ADD is
 * VL(arith)'s; the rest lane by lane, tpc_alu_fn). */
static TpcVlFn VL(resolve)(unsigned op, unsigned t, unsigned sw)
{
    if (op >= 64 || t >= TPC_T_COUNT)
        return NULL;
    return VL(tab)[op][t][sw & 7u];
}

/* CONVERT between types of one size and NEARBYINT, one loop per (source,
 * target, rounding mode) of lane.h's tpc_lane_convert / tpc_lane_nearbyint
 * (not sr, whose state is per lane and advances after the bundle: lane by
 * lane in exec-vpu-perm.c / exec-fpspecial.c, by the same functions). */
#define VL_CVT_RMS(ST, DT, E)                                                                      \
    VL_FN(cvt_##ST##_##DT##_0, E, TPC_T_##ST, tpc_lane_convert(x, T, TPC_T_##DT, 0, 0))            \
    VL_FN(cvt_##ST##_##DT##_1, E, TPC_T_##ST, tpc_lane_convert(x, T, TPC_T_##DT, 1, 0))            \
    VL_FN(cvt_##ST##_##DT##_2, E, TPC_T_##ST, tpc_lane_convert(x, T, TPC_T_##DT, 2, 0))            \
    VL_FN(cvt_##ST##_##DT##_3, E, TPC_T_##ST, tpc_lane_convert(x, T, TPC_T_##DT, 3, 0))            \
    VL_FN(cvt_##ST##_##DT##_6, E, TPC_T_##ST, tpc_lane_convert(x, T, TPC_T_##DT, 6, 0))
#define VL_CVT_PAIRS(X)                                                                            \
    X(F32, I32, 4)                                                                                 \
    X(F32, U32, 4)                                                                                 \
    X(I32, F32, 4)                                                                                 \
    X(U32, F32, 4)                                                                                 \
    X(BF16, I16, 2)                                                                                \
    X(BF16, U16, 2)                                                                                \
    X(I16, BF16, 2)                                                                                \
    X(U16, BF16, 2)
VL_CVT_PAIRS(VL_CVT_RMS)
#define VL_NBI_RMS(TY, E, expr)                                                                    \
    VL_FN(nbi_##TY##_0, E, TPC_T_##TY, expr(x, 0))                                                 \
    VL_FN(nbi_##TY##_1, E, TPC_T_##TY, expr(x, 1))                                                 \
    VL_FN(nbi_##TY##_2, E, TPC_T_##TY, expr(x, 2))                                                 \
    VL_FN(nbi_##TY##_3, E, TPC_T_##TY, expr(x, 3))                                                 \
    VL_FN(nbi_##TY##_6, E, TPC_T_##TY, expr(x, 6))
#define VL_NBI_F32(x, rm)  tpc_lane_nearbyint(x, rm, 0)
#define VL_NBI_BF16(x, rm) (tpc_lane_nearbyint((x) << 16, rm, 0) >> 16)
VL_NBI_RMS(F32, 4, VL_NBI_F32)
VL_NBI_RMS(BF16, 2, VL_NBI_BF16)

/* [source][target][rounding mode] -> CONVERT's loop; [type][mode] -> NEARBYINT's */
static TpcVlFn VL(cvt_tab)[TPC_T_COUNT][TPC_T_COUNT][8];
static TpcVlFn VL(nbi_tab)[2][8];

__attribute__((constructor)) static void VL(cvt_init)(void)
{
#define VL_CVT_PUT(ST, DT, E)                                                                      \
    VL(cvt_tab)[TPC_T_##ST][TPC_T_##DT][0] = VL(cvt_##ST##_##DT##_0);                              \
    VL(cvt_tab)[TPC_T_##ST][TPC_T_##DT][1] = VL(cvt_##ST##_##DT##_1);                              \
    VL(cvt_tab)[TPC_T_##ST][TPC_T_##DT][2] = VL(cvt_##ST##_##DT##_2);                              \
    VL(cvt_tab)[TPC_T_##ST][TPC_T_##DT][3] = VL(cvt_##ST##_##DT##_3);                              \
    VL(cvt_tab)[TPC_T_##ST][TPC_T_##DT][6] = VL(cvt_##ST##_##DT##_6);
    VL_CVT_PAIRS(VL_CVT_PUT)
#undef VL_CVT_PUT
#define VL_NBI_PUT(TY)                                                                             \
    VL(nbi_tab)[TPC_T_##TY][0] = VL(nbi_##TY##_0);                                                 \
    VL(nbi_tab)[TPC_T_##TY][1] = VL(nbi_##TY##_1);                                                 \
    VL(nbi_tab)[TPC_T_##TY][2] = VL(nbi_##TY##_2);                                                 \
    VL(nbi_tab)[TPC_T_##TY][3] = VL(nbi_##TY##_3);                                                 \
    VL(nbi_tab)[TPC_T_##TY][6] = VL(nbi_##TY##_6);
    VL_NBI_PUT(F32)
    VL_NBI_PUT(BF16)
#undef VL_NBI_PUT
}

static TpcVlFn VL(cvt_resolve)(unsigned st, unsigned dt, unsigned rm)
{
    return st < TPC_T_COUNT && dt < TPC_T_COUNT && rm < 8 ? VL(cvt_tab)[st][dt][rm] : NULL;
}

static TpcVlFn VL(nbi_resolve)(unsigned t, unsigned rm)
{
    return t < 2 && rm < 8 ? VL(nbi_tab)[t][rm] : NULL;
}

/* ADD also produces V_CARRY: lane-wide all-ones bytes in cb, packed after */
#define VL_ADD(T, E, SAT)                                                                          \
    do {                                                                                           \
        uint8_t cb[TPC_VBYTES];                                                                    \
        for (unsigned i = 0; i < VL_N(E); i++) {                                                   \
            unsigned co;                                                                           \
            uint32_t r = tpc_lane_int_add(T, vl_ld##E(a, i), vl_ld##E(b, i),                       \
                                          vl_ld##E(ci, i) & 1u, SAT, &co);                         \
            vl_st##E(out, i, r);                                                                   \
            vl_st##E(cb, i, 0u - co);                                                              \
        }                                                                                          \
        tpc_vl_pack(cout, cb);                                                                     \
        return true;                                                                               \
    } while (0)

#define VL_ADD_CASE(T, E)                                                                          \
    case T:                                                                                        \
        if (sat)                                                                                   \
            VL_ADD(T, E, true);                                                                    \
        else                                                                                       \
            VL_ADD(T, E, false);

VL_ATTR static bool VL(arith)(unsigned op, unsigned t, unsigned sw, uint8_t *restrict out,
                              const uint8_t *restrict a, const uint8_t *restrict b,
                              const uint8_t *restrict d, const uint8_t *restrict ci,
                              uint8_t *restrict cout)
{
    TpcVlFn f = VL(resolve)(op, t, sw);
    if (f) {
        f(out, a, b, d);
        return true;
    }
    bool sat = sw & 1u;
    if (op != TPC_OPC_SPU_add)
        return false;
    switch (t) {
        VL_ADD_CASE(TPC_T_I32, 4)
        VL_ADD_CASE(TPC_T_U32, 4)
        VL_ADD_CASE(TPC_T_I16, 2)
        VL_ADD_CASE(TPC_T_U16, 2)
        VL_ADD_CASE(TPC_T_I8, 1)
        VL_ADD_CASE(TPC_T_U8, 1)
    default:
        return false;
    }
}

/* compare lanes of type T into lane-wide all-ones bytes of rb */
#define VL_CMP_LOOP(T, E, OP, MEZ)                                                                 \
    for (unsigned i = 0; i < VL_N(E); i++)                                                         \
        vl_st##E(rb, i, 0u - (uint32_t)tpc_lane_cmp(OP, T, vl_ld##E(a, i), vl_ld##E(b, i), MEZ))

#define VL_CMP_OPS(T, E)                                                                           \
    case T:                                                                                        \
        switch (op) {                                                                              \
        case TPC_OPC_SPU_cmp_eq:                                                                   \
            if (mez)                                                                               \
                VL_CMP_LOOP(T, E, TPC_OPC_SPU_cmp_eq, true);                                       \
            else                                                                                   \
                VL_CMP_LOOP(T, E, TPC_OPC_SPU_cmp_eq, false);                                      \
            break;                                                                                 \
        case TPC_OPC_SPU_cmp_neq:                                                                  \
            VL_CMP_LOOP(T, E, TPC_OPC_SPU_cmp_neq, false);                                         \
            break;                                                                                 \
        case TPC_OPC_SPU_cmp_less:                                                                 \
            VL_CMP_LOOP(T, E, TPC_OPC_SPU_cmp_less, false);                                        \
            break;                                                                                 \
        case TPC_OPC_SPU_cmp_leq:                                                                  \
            VL_CMP_LOOP(T, E, TPC_OPC_SPU_cmp_leq, false);                                         \
            break;                                                                                 \
        case TPC_OPC_SPU_cmp_grt:                                                                  \
            VL_CMP_LOOP(T, E, TPC_OPC_SPU_cmp_grt, false);                                         \
            break;                                                                                 \
        default:                                                                                   \
            VL_CMP_LOOP(T, E, TPC_OPC_SPU_cmp_geq, false);                                         \
            break;                                                                                 \
        }                                                                                          \
        break;

/* The relation op of a and b per lane of type t, as lane-wide all-ones
 * bytes in rb (0 where false). */
VL_ATTR static void VL(cmp_bytes)(unsigned op, unsigned t, bool mez, uint8_t *restrict rb,
                                  const uint8_t *restrict a, const uint8_t *restrict b)
{
    switch (t) {
        VL_CMP_OPS(TPC_T_F32, 4)
        VL_CMP_OPS(TPC_T_BF16, 2)
        VL_CMP_OPS(TPC_T_I32, 4)
        VL_CMP_OPS(TPC_T_U32, 4)
        VL_CMP_OPS(TPC_T_I16, 2)
        VL_CMP_OPS(TPC_T_U16, 2)
        VL_CMP_OPS(TPC_T_I8, 1)
    default:
        VL_CMP_OPS(TPC_T_U8, 1)
    }
}

VL_ATTR static void VL(cmp)(unsigned op, unsigned t, bool mez, uint8_t *restrict vp,
                            const uint8_t *restrict a, const uint8_t *restrict b)
{
    uint8_t rb[TPC_VBYTES];
    VL(cmp_bytes)(op, t, mez, rb, a, b);
    tpc_vl_pack(vp, rb);
}

/* SEL: out = rel ? c : d; SEL2 (out2 != NULL) also out2 = rel ? a : b.
 * A byte blend over the relation's lane-wide bytes is the lane select. */
VL_ATTR static void VL(sel)(unsigned op, unsigned t, bool mez, uint8_t *restrict out,
                            uint8_t *restrict out2, const uint8_t *restrict a,
                            const uint8_t *restrict b, const uint8_t *restrict c,
                            const uint8_t *restrict d)
{
    uint8_t rb[TPC_VBYTES];
    VL(cmp_bytes)(op, t, mez, rb, a, b);
    for (unsigned j = 0; j < TPC_VBYTES; j++)
        out[j] = (uint8_t)((c[j] & rb[j]) | (d[j] & ~rb[j]));
    if (out2)
        for (unsigned j = 0; j < TPC_VBYTES; j++)
            out2[j] = (uint8_t)((a[j] & rb[j]) | (b[j] & ~rb[j]));
}

#undef VL_N
#undef VL_FN
#undef VL_E_F32
#undef VL_E_BF16
#undef VL_E_I32
#undef VL_E_U32
#undef VL_E_I16
#undef VL_E_U16
#undef VL_E_I8
#undef VL_E_U8
#undef VL_ROW_FN
#undef VL_ROW_L
#undef VL_ROW_LA
#undef VL_ROW_E
#undef VL_PTR_L
#undef VL_PTR_LA
#undef VL_PTR_E
#undef VL_TIER_L
#undef VL_TIER_LA
#undef VL_TIER_E
#undef VL_ADD
#undef VL_ADD_CASE
#undef VL_CMP_LOOP
#undef VL_CMP_OPS
#undef VL_CVT_RMS
#undef VL_CVT_PAIRS
#undef VL_NBI_RMS
#undef VL_NBI_F32
#undef VL_NBI_BF16
