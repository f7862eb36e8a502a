/*
 * Body of the whole-register lane loops (vlane.c), included once per host
 * ISA with VL_ATTR (a target attribute or nothing) and VL(name) (a suffixed
 * name).  Each loop applies one lane function of lane.h to every lane with
 * the type, opcode and switches constant, so the compiler vectorises it;
 * the switches pick a loop, never a branch inside one.  Outputs never alias
 * inputs (the callers write slot buffers), hence restrict.
 */

#define VL_N(E) (TPC_VBYTES / (E))

/* one loop over the lanes of element size E: x, y, z are lanes of a, b, d */
#define VL_LOOP(E, expr)                                                                           \
    for (unsigned i = 0; i < VL_N(E); i++) {                                                       \
        uint32_t x = vl_ld##E(a, i), y = vl_ld##E(b, i), z = vl_ld##E(d, i);                       \
        (void)x, (void)y, (void)z;                                                                 \
        vl_st##E(out, i, (expr));                                                                  \
    }                                                                                              \
    return true

/* the integer ops of one type T (element size E) */
#define VL_INT_CASES(T, E)                                                                         \
    case T:                                                                                        \
        switch (op) {                                                                              \
        case TPC_OPC_SPU_add:                                                                      \
            if (sat)                                                                               \
                VL_ADD(T, E, true);                                                                \
            else                                                                                   \
                VL_ADD(T, E, false);                                                               \
        case TPC_OPC_SPU_sub:                                                                      \
            if (sat && rev) {                                                                      \
                VL_LOOP(E, tpc_lane_int_sub(T, x, y, true, true));                                 \
            } else if (sat) {                                                                      \
                VL_LOOP(E, tpc_lane_int_sub(T, x, y, false, true));                                \
            } else if (rev) {                                                                      \
                VL_LOOP(E, tpc_lane_int_sub(T, x, y, true, false));                                \
            } else {                                                                               \
                VL_LOOP(E, tpc_lane_int_sub(T, x, y, false, false));                               \
            }                                                                                      \
        case TPC_OPC_SPU_max:                                                                      \
            VL_LOOP(E, tpc_lane_int_max(T, x, y));                                                 \
        case TPC_OPC_SPU_min:                                                                      \
            VL_LOOP(E, tpc_lane_int_min(T, x, y));                                                 \
        case TPC_OPC_SPU_shr:                                                                      \
            VL_LOOP(E, tpc_lane_shift(false, T, x, y));                                            \
        case TPC_OPC_SPU_shl:                                                                      \
            VL_LOOP(E, tpc_lane_shift(true, T, x, y));                                             \
        default:                                                                                   \
            return false;                                                                          \
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

VL_ATTR static bool VL(arith)(unsigned op, unsigned t, unsigned sw, uint8_t *restrict out,
                              const uint8_t *restrict a, const uint8_t *restrict b,
                              const uint8_t *restrict d, const uint8_t *restrict ci,
                              uint8_t *restrict cout)
{
    bool sat = sw & 1u, rev = sw & 2u;
    if (op >= TPC_OPC_SPU_or && op <= TPC_OPC_SPU_not) {
        /* bitwise: the element size does not matter */
        switch (op) {
        case TPC_OPC_SPU_or:
            VL_LOOP(1, x | y);
        case TPC_OPC_SPU_and:
            VL_LOOP(1, x & y);
        case TPC_OPC_SPU_xor:
            VL_LOOP(1, x ^ y);
        default:
            VL_LOOP(1, ~x);
        }
    }
    switch (t) {
    case TPC_T_F32:
        switch (op) {
        case TPC_OPC_SPU_mac:
            if (rev) {
                VL_LOOP(4, tpc_lane_f32_mac(x, y, z, true));
            } else {
                VL_LOOP(4, tpc_lane_f32_mac(x, y, z, false));
            }
        case TPC_OPC_SPU_mul:
            VL_LOOP(4, tpc_lane_f32_mul(x, y));
        case TPC_OPC_SPU_add:
            VL_LOOP(4, tpc_lane_f32_add(x, y));
        case TPC_OPC_SPU_sub:
            if (rev) {
                VL_LOOP(4, tpc_lane_f32_sub(x, y, true));
            } else {
                VL_LOOP(4, tpc_lane_f32_sub(x, y, false));
            }
        case TPC_OPC_SPU_max:
            VL_LOOP(4, tpc_lane_f32_max(x, y));
        case TPC_OPC_SPU_min:
            VL_LOOP(4, tpc_lane_f32_min(x, y));
        default:
            return false;
        }
    case TPC_T_BF16:
        /* (MAC, and the acc_fp32 forms of switch bit 2, lane by lane) */
        if (sw & 4u)
            return false;
        switch (op) {
        case TPC_OPC_SPU_mul:
            VL_LOOP(2, tpc_lane_bf16_mul(x, y));
        case TPC_OPC_SPU_add:
            VL_LOOP(2, tpc_lane_bf16_add(x, y));
        case TPC_OPC_SPU_sub:
            if (rev) {
                VL_LOOP(2, tpc_lane_bf16_sub(x, y, true));
            } else {
                VL_LOOP(2, tpc_lane_bf16_sub(x, y, false));
            }
        case TPC_OPC_SPU_max:
            VL_LOOP(2, tpc_lane_bf16_max(x, y));
        case TPC_OPC_SPU_min:
            VL_LOOP(2, tpc_lane_bf16_min(x, y));
        default:
            return false;
        }
        VL_INT_CASES(TPC_T_I32, 4)
        VL_INT_CASES(TPC_T_U32, 4)
        VL_INT_CASES(TPC_T_I16, 2)
        VL_INT_CASES(TPC_T_U16, 2)
        VL_INT_CASES(TPC_T_I8, 1)
        VL_INT_CASES(TPC_T_U8, 1)
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
#undef VL_LOOP
#undef VL_INT_CASES
#undef VL_ADD
#undef VL_CMP_LOOP
#undef VL_CMP_OPS
