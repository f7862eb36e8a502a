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
 * x, y, z are lanes of a, b, d.  Unrolled by 8: with AVX2 that is the
 * whole register (8 vectors of 32 bytes), so no loop counter per vector. */
#define VL_FN(name, E, expr)                                                                       \
    VL_ATTR static void VL(name)(uint8_t *restrict out, const uint8_t *restrict a,                 \
                                 const uint8_t *restrict b, const uint8_t *restrict d)             \
    {                                                                                              \
        _Pragma("GCC unroll 8") for (unsigned i = 0; i < VL_N(E); i++)                             \
        {                                                                                          \
            uint32_t x = vl_ld##E(a, i), y = vl_ld##E(b, i), z = vl_ld##E(d, i);                   \
            (void)x, (void)y, (void)z;                                                             \
            vl_st##E(out, i, (expr));                                                              \
        }                                                                                          \
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

/* bitwise: the element size does not matter */
VL_FN(or, 1, tpc_lane_logic(TPC_OPC_SPU_or, TPC_T_U8, x, y))
VL_FN(and, 1, tpc_lane_logic(TPC_OPC_SPU_and, TPC_T_U8, x, y))
VL_FN(xor, 1, tpc_lane_logic(TPC_OPC_SPU_xor, TPC_T_U8, x, y))
VL_FN(not, 1, tpc_lane_logic(TPC_OPC_SPU_not, TPC_T_U8, x, y))

VL_FN(f32_mac, 4, tpc_lane_f32_mac(x, y, z, false))
VL_FN(f32_macn, 4, tpc_lane_f32_mac(x, y, z, true))
VL_FN(f32_mul, 4, tpc_lane_f32_mul(x, y))
VL_FN(f32_add, 4, tpc_lane_f32_add(x, y))
VL_FN(f32_sub, 4, tpc_lane_f32_sub(x, y, false))
VL_FN(f32_subr, 4, tpc_lane_f32_sub(x, y, true))
VL_FN(f32_max, 4, tpc_lane_f32_max(x, y))
VL_FN(f32_min, 4, tpc_lane_f32_min(x, y))

VL_FN(bf16_mul, 2, tpc_lane_bf16_mul(x, y))
VL_FN(bf16_add, 2, tpc_lane_bf16_add(x, y))
VL_FN(bf16_sub, 2, tpc_lane_bf16_sub(x, y, false))
VL_FN(bf16_subr, 2, tpc_lane_bf16_sub(x, y, true))
VL_FN(bf16_max, 2, tpc_lane_bf16_max(x, y))
VL_FN(bf16_min, 2, tpc_lane_bf16_min(x, y))

/* the integer loops of one type T (element size E), named N_... */
#define VL_INT_FNS(T, E, N)                                                                        \
    VL_FN(N##_sub, E, tpc_lane_int_sub(T, x, y, false, false))                                     \
    VL_FN(N##_subs, E, tpc_lane_int_sub(T, x, y, false, true))                                     \
    VL_FN(N##_subr, E, tpc_lane_int_sub(T, x, y, true, false))                                     \
    VL_FN(N##_subrs, E, tpc_lane_int_sub(T, x, y, true, true))                                     \
    VL_FN(N##_max, E, tpc_lane_int_max(T, x, y))                                                   \
    VL_FN(N##_min, E, tpc_lane_int_min(T, x, y))                                                   \
    VL_FN(N##_shr, E, tpc_lane_shift(false, T, x, y))                                              \
    VL_FN(N##_shl, E, tpc_lane_shift(true, T, x, y))
VL_INT_FNS(TPC_T_I32, 4, i32)
VL_INT_FNS(TPC_T_U32, 4, u32)
VL_INT_FNS(TPC_T_I16, 2, i16)
VL_INT_FNS(TPC_T_U16, 2, u16)
VL_INT_FNS(TPC_T_I8, 1, i8)
VL_INT_FNS(TPC_T_U8, 1, u8)

#define VL_INT_CASES(T, N)                                                                         \
    case T:                                                                                        \
        switch (op) {                                                                              \
        case TPC_OPC_SPU_sub:                                                                      \
            return sat && rev ? VL(N##_subrs) : sat ? VL(N##_subs) : rev ? VL(N##_subr) : VL(N##_sub); \
        case TPC_OPC_SPU_max:                                                                      \
            return VL(N##_max);                                                                    \
        case TPC_OPC_SPU_min:                                                                      \
            return VL(N##_min);                                                                    \
        case TPC_OPC_SPU_shr:                                                                      \
            return VL(N##_shr);                                                                    \
        case TPC_OPC_SPU_shl:                                                                      \
            return VL(N##_shl);                                                                    \
        default:                                                                                   \
            return NULL;                                                                           \
        }

/* The loop of (op, t, sw) that needs no carries, or NULL (integer ADD is
 * VL(arith)'s; the rest lane by lane, tpc_alu). */
static TpcVlFn VL(resolve)(unsigned op, unsigned t, unsigned sw)
{
    bool sat = sw & 1u, rev = sw & 2u;
    switch (op) {
    case TPC_OPC_SPU_or:
        return VL(or);
    case TPC_OPC_SPU_and:
        return VL(and);
    case TPC_OPC_SPU_xor:
        return VL(xor);
    case TPC_OPC_SPU_not:
        return VL(not);
    default:
        break;
    }
    switch (t) {
    case TPC_T_F32:
        switch (op) {
        case TPC_OPC_SPU_mac:
            return rev ? VL(f32_macn) : VL(f32_mac);
        case TPC_OPC_SPU_mul:
            return VL(f32_mul);
        case TPC_OPC_SPU_add:
            return VL(f32_add);
        case TPC_OPC_SPU_sub:
            return rev ? VL(f32_subr) : VL(f32_sub);
        case TPC_OPC_SPU_max:
            return VL(f32_max);
        case TPC_OPC_SPU_min:
            return VL(f32_min);
        default:
            return NULL;
        }
    case TPC_T_BF16:
        /* (MAC, and the acc_fp32 forms of switch bit 2, lane by lane) */
        if (sw & 4u)
            return NULL;
        switch (op) {
        case TPC_OPC_SPU_mul:
            return VL(bf16_mul);
        case TPC_OPC_SPU_add:
            return VL(bf16_add);
        case TPC_OPC_SPU_sub:
            return rev ? VL(bf16_subr) : VL(bf16_sub);
        case TPC_OPC_SPU_max:
            return VL(bf16_max);
        case TPC_OPC_SPU_min:
            return VL(bf16_min);
        default:
            return NULL;
        }
        VL_INT_CASES(TPC_T_I32, i32)
        VL_INT_CASES(TPC_T_U32, u32)
        VL_INT_CASES(TPC_T_I16, i16)
        VL_INT_CASES(TPC_T_U16, u16)
        VL_INT_CASES(TPC_T_I8, i8)
        VL_INT_CASES(TPC_T_U8, u8)
    default:
        return NULL;
    }
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
#undef VL_INT_FNS
#undef VL_INT_CASES
#undef VL_ADD
#undef VL_ADD_CASE
#undef VL_CMP_LOOP
#undef VL_CMP_OPS
