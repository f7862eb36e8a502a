/*
 * TPC lane semantics (tpc.md §5.0.4) at the edges: NaN in and out, signed
 * zeros, denormals, fused MAC, integer wrap / saturation / carry, shifts of
 * the width, compares with NaN and -0.  Every case runs through both
 * engines that execute it: the scalar ALU (tpc_alu, the SPU and the staged
 * VPU's fallback) and the whole-register loops (tpc_vl_arith / tpc_vl_cmp,
 * baseline and the host's widest variant), each lane of a 256-byte register.
 * Expected values are worked out by hand in the comments (IEEE-754 binary32,
 * round to nearest even), not computed by the host's float unit.
 */
#include <string.h>

#include <glib.h>

#include "target/tpc/cpu.h"
#include "target/tpc/lane.h"
#include "target/tpc/vlane.h"

enum {
    MAC = TPC_OPC_SPU_mac,
    MUL = TPC_OPC_SPU_mul,
    ADD = TPC_OPC_SPU_add,
    SUB = TPC_OPC_SPU_sub,
    MAX = TPC_OPC_SPU_max,
    MIN = TPC_OPC_SPU_min,
    SHR = TPC_OPC_SPU_shr,
    SHL = TPC_OPC_SPU_shl,
};
enum { SAT = 1, REV = 2 }; /* tpc_alu / tpc_vl_arith sw bits: st, neg */

typedef struct ArithCase {
    unsigned op, t, sw;
    uint32_t a, b, d, want;
    const char *why;
} ArithCase;

static const ArithCase arith[] = {
    {ADD, TPC_T_F32, 0, 0x3F800000, 0x40000000, 0, 0x40400000, "1 + 2 = 3"},
    {ADD, TPC_T_F32, 0, 0x80000000, 0x80000000, 0, 0x80000000, "-0 + -0 = -0"},
    {ADD, TPC_T_F32, 0, 0x80000000, 0x00000000, 0, 0x00000000, "-0 + +0 = +0 (RNE)"},
    {SUB, TPC_T_F32, 0, 0x3F800000, 0x3F800000, 0, 0x00000000, "1 - 1 = +0"},
    {ADD, TPC_T_F32, 0, 0x7F800000, 0xFF800000, 0, 0x7FC00000, "inf + -inf: canonical NaN"},
    {ADD, TPC_T_F32, 0, 0x7F800001, 0x3F800000, 0, 0x7FC00000, "sNaN in: canonical NaN out"},
    {MUL, TPC_T_F32, 0, 0xFFC12345, 0x3F800000, 0, 0x7FC00000, "negative NaN payload dropped"},
    {ADD, TPC_T_F32, 0, 0x00000001, 0x00000001, 0, 0x00000002, "denormal + denormal kept"},
    {SUB, TPC_T_F32, 0, 0x00800000, 0x00000001, 0, 0x007FFFFF, "min normal - 2^-149: denormal"},
    {MUL, TPC_T_F32, 0, 0x00000001, 0x3F000000, 0, 0x00000000, "2^-150: tie to even 0"},
    {MUL, TPC_T_F32, 0, 0x00000003, 0x3F000000, 0, 0x00000002, "1.5 ulp: tie to even 2"},
    {MUL, TPC_T_F32, 0, 0x80000001, 0x3F000000, 0, 0x80000000, "-2^-150 rounds to -0"},
    {MUL, TPC_T_F32, 0, 0x7F7FFFFF, 0x40000000, 0, 0x7F800000, "FLT_MAX * 2 = inf"},
    {MUL, TPC_T_F32, 0, 0x7F800000, 0x00000000, 0, 0x7FC00000, "inf * 0: NaN"},
    /* (1+2^-23)^2 - (1+2^-22) = 2^-46 exactly: fused keeps it, a rounded
     * product (1+2^-22) would give 0; 2^-46 = (127-46) << 23 */
    {MAC, TPC_T_F32, 0, 0x3F800001, 0x3F800001, 0xBF800002, 0x28800000, "MAC fused"},
    {MAC, TPC_T_F32, REV, 0x3F800001, 0x3F800001, 0x3F800002, 0xA8800000, "MAC neg: d - a*b"},
    {MAC, TPC_T_F32, 0, 0x7F800000, 0x00000000, 0x3F800000, 0x7FC00000, "MAC inf*0: NaN"},
    {MAX, TPC_T_F32, 0, 0x80000000, 0x00000000, 0, 0x00000000, "max(-0, +0) = +0"},
    {MAX, TPC_T_F32, 0, 0x00000000, 0x80000000, 0, 0x00000000, "max(+0, -0) = +0"},
    {MIN, TPC_T_F32, 0, 0x00000000, 0x80000000, 0, 0x80000000, "min(+0, -0) = -0"},
    {MAX, TPC_T_F32, 0, 0x7FC00001, 0x3F800000, 0, 0x7FC00000, "max(NaN, 1) = NaN"},
    {MIN, TPC_T_F32, 0, 0x3F800000, 0xFF800001, 0, 0x7FC00000, "min(1, NaN) = NaN"},
    {MAX, TPC_T_F32, 0, 0x00000001, 0x00000000, 0, 0x00000001, "max(denormal, 0)"},
    /* bf16: exact result rounded once (ulp of 1.0 is 2^-7) */
    {ADD, TPC_T_BF16, 0, 0x3F80, 0x3F80, 0, 0x4000, "bf16 1 + 1 = 2"},
    {ADD, TPC_T_BF16, 0, 0x3F80, 0x3B80, 0, 0x3F80, "bf16 1 + 2^-8: tie to even 1"},
    {ADD, TPC_T_BF16, 0, 0x3F81, 0x3B80, 0, 0x3F82, "bf16 (1+2^-7) + 2^-8: tie to even"},
    {MUL, TPC_T_BF16, 0, 0x3FC0, 0x3FC0, 0, 0x4010, "bf16 1.5 * 1.5 = 2.25"},
    {MUL, TPC_T_BF16, 0, 0x7F7F, 0x4000, 0, 0x7F80, "bf16 max * 2 = inf"},
    {ADD, TPC_T_BF16, 0, 0x7FC1, 0x3F80, 0, 0x7FC0, "bf16 NaN in: canonical 0x7FC0"},
    {SUB, TPC_T_BF16, 0, 0x7F80, 0x7F80, 0, 0x7FC0, "bf16 inf - inf: NaN"},
    {SUB, TPC_T_BF16, REV, 0x3F80, 0x4000, 0, 0x3F80, "bf16 neg: 2 - 1"},
    {ADD, TPC_T_BF16, 0, 0x0001, 0x0001, 0, 0x0002, "bf16 denormals kept"},
    {MAX, TPC_T_BF16, 0, 0x8000, 0x0000, 0, 0x0000, "bf16 max(-0, +0) = +0"},
    {MIN, TPC_T_BF16, 0, 0x0000, 0x8000, 0, 0x8000, "bf16 min(+0, -0) = -0"},
    {MAX, TPC_T_BF16, 0, 0x7F81, 0x3F80, 0, 0x7FC0, "bf16 max(NaN, 1) = NaN"},
    {MIN, TPC_T_BF16, 0, 0xBF80, 0x3F80, 0, 0xBF80, "bf16 min(-1, 1) = -1"},
    /* integers: wrap, saturate, carry */
    {ADD, TPC_T_I8, 0, 0x7F, 0x01, 0, 0x80, "i8 127 + 1 wraps to -128"},
    {ADD, TPC_T_I8, SAT, 0x7F, 0x01, 0, 0x7F, "i8 127 + 1 saturates"},
    {ADD, TPC_T_U8, SAT, 0xFF, 0x01, 0, 0xFF, "u8 255 + 1 saturates"},
    {SUB, TPC_T_I16, 0, 0x8000, 0x0001, 0, 0x7FFF, "i16 -32768 - 1 wraps"},
    {SUB, TPC_T_I16, SAT, 0x8000, 0x0001, 0, 0x8000, "i16 -32768 - 1 saturates"},
    {SUB, TPC_T_U16, SAT, 0x0001, 0x0002, 0, 0x0000, "u16 1 - 2 saturates to 0"},
    {SUB, TPC_T_I32, REV, 5, 7, 0, 2, "i32 neg: b - a"},
    {ADD, TPC_T_I32, SAT, 0x7FFFFFFF, 1, 0, 0x7FFFFFFF, "i32 saturates"},
    {ADD, TPC_T_U32, 0, 0xFFFFFFFF, 1, 0, 0, "u32 wraps"},
    {MAX, TPC_T_I8, 0, 0x80, 0x7F, 0, 0x7F, "i8 max(-128, 127)"},
    {MAX, TPC_T_U8, 0, 0x80, 0x7F, 0, 0x80, "u8 max(128, 127)"},
    {MIN, TPC_T_I16, 0, 0xFFFF, 0x0001, 0, 0xFFFF, "i16 min(-1, 1)"},
    {SHL, TPC_T_I32, 0, 1, 31, 0, 0x80000000, "shl 31"},
    {SHL, TPC_T_I32, 0, 1, 32, 0, 0, "shl by the width: 0"},
    {SHR, TPC_T_U8, 0, 0x80, 7, 0, 0x01, "u8 shr 7"},
    {SHR, TPC_T_I8, 0, 0x80, 8, 0, 0x00, "i8 shr by the width: 0"},
    {SHR, TPC_T_I16, 0, 0x8000, 15, 0, 0x0001, "shr is logical"},
};

static void fill(uint8_t *r, uint32_t v, unsigned e)
{
    for (unsigned i = 0; i < TPC_VBYTES; i += e)
        memcpy(r + i, &v, e);
}

static void check_arith_vl(const char *variant)
{
    for (size_t k = 0; k < G_N_ELEMENTS(arith); k++) {
        const ArithCase *c = &arith[k];
        unsigned e = tpc_type_size(c->t);
        uint8_t a[TPC_VBYTES], b[TPC_VBYTES], d[TPC_VBYTES], out[TPC_VBYTES];
        fill(a, c->a, e);
        fill(b, c->b, e);
        fill(d, c->d, e);
        memset(out, 0xA5, sizeof(out));
        if (!tpc_vl_arith(c->op, c->t, c->sw, out, a, b, d, NULL, NULL))
            continue; /* not vectorised: the VPU goes lane by lane through tpc_alu */
        for (unsigned i = 0; i < TPC_VBYTES; i += e) {
            uint32_t got = 0;
            memcpy(&got, out + i, e);
            if (got != c->want)
                g_error("%s: %s: lane %u = 0x%08x, want 0x%08x", variant, c->why, i / e, got,
                        c->want);
        }
    }
}

static void test_arith(void)
{
    for (size_t k = 0; k < G_N_ELEMENTS(arith); k++) {
        const ArithCase *c = &arith[k];
        unsigned carry = 0;
        uint32_t got = tpc_alu(c->op, c->t, c->a, c->b, c->d, c->sw, &carry);
        if (got != c->want)
            g_error("tpc_alu: %s: 0x%08x, want 0x%08x", c->why, got, c->want);
    }
    tpc_vl_select(true);
    check_arith_vl("baseline");
    if (tpc_vl_select(false))
        check_arith_vl("widest");
}

/* ADD's carry out (ADD carry switch): u8 0xFF + 0x01 carries, 0xFE + 0x01 not. */
static void test_carry(void)
{
    unsigned carry = 0;
    g_assert_cmphex(tpc_alu(ADD, TPC_T_U8, 0xFF, 0x01, 0, 0, &carry), ==, 0x00);
    g_assert_cmpuint(carry & 1, ==, 1);
    carry = 0;
    g_assert_cmphex(tpc_alu(ADD, TPC_T_U8, 0xFE, 0x01, 0, 0, &carry), ==, 0xFF);
    g_assert_cmpuint(carry & 1, ==, 0);
    /* whole register: lanes alternate 0xFFFFFFFF + 1 (carry) and 1 + 1 */
    uint8_t a[TPC_VBYTES], b[TPC_VBYTES], out[TPC_VBYTES], cout[TPC_VPBYTES];
    for (unsigned i = 0; i < 64; i++) {
        uint32_t x = i & 1 ? 1u : 0xFFFFFFFFu, y = 1;
        memcpy(a + 4 * i, &x, 4);
        memcpy(b + 4 * i, &y, 4);
    }
    g_assert_true(tpc_vl_arith(ADD, TPC_T_U32, 0, out, a, b, NULL, NULL, cout));
    for (unsigned i = 0; i < 64; i++) {
        uint32_t r;
        memcpy(&r, out + 4 * i, 4);
        g_assert_cmphex(r, ==, i & 1 ? 2u : 0u);
        /* the carry image has one bit per byte: lane i is bytes 4i..4i+3 */
        for (unsigned j = 4 * i; j < 4 * i + 4; j++)
            g_assert_cmpuint((cout[j / 8] >> (j % 8)) & 1, ==, i & 1 ? 0u : 1u);
    }
}

typedef struct CmpCase {
    unsigned op, t;
    uint32_t a, b;
    bool want;
    const char *why;
} CmpCase;

static const CmpCase cmps[] = {
    {TPC_OPC_SPU_cmp_eq, TPC_T_F32, 0x80000000, 0x00000000, true, "-0 == +0"},
    {TPC_OPC_SPU_cmp_less, TPC_T_F32, 0x80000000, 0x00000000, false, "-0 < +0 is false (IEEE)"},
    {TPC_OPC_SPU_cmp_eq, TPC_T_F32, 0x7FC00000, 0x7FC00000, false, "NaN == NaN is false"},
    {TPC_OPC_SPU_cmp_neq, TPC_T_F32, 0x7FC00000, 0x7FC00000, true, "NaN != NaN"},
    {TPC_OPC_SPU_cmp_geq, TPC_T_F32, 0x7F800001, 0x3F800000, false, "NaN >= 1 is false"},
    {TPC_OPC_SPU_cmp_leq, TPC_T_F32, 0xFF800000, 0x7F800000, true, "-inf <= inf"},
    {TPC_OPC_SPU_cmp_grt, TPC_T_F32, 0x00000001, 0x00000000, true, "denormal > 0"},
    {TPC_OPC_SPU_cmp_less, TPC_T_BF16, 0x3F80, 0x4000, true, "bf16 1 < 2"},
    {TPC_OPC_SPU_cmp_eq, TPC_T_BF16, 0x7FC1, 0x7FC1, false, "bf16 NaN == NaN is false"},
    {TPC_OPC_SPU_cmp_less, TPC_T_I8, 0xFF, 0x01, true, "i8 -1 < 1"},
    {TPC_OPC_SPU_cmp_less, TPC_T_U8, 0xFF, 0x01, false, "u8 255 < 1 is false"},
    {TPC_OPC_SPU_cmp_grt, TPC_T_I32, 0x80000000, 0x7FFFFFFF, false, "i32 INT_MIN > INT_MAX"},
    {TPC_OPC_SPU_cmp_geq, TPC_T_U16, 0x8000, 0x7FFF, true, "u16 32768 >= 32767"},
};

static void check_cmp_vl(const char *variant)
{
    for (size_t k = 0; k < G_N_ELEMENTS(cmps); k++) {
        const CmpCase *c = &cmps[k];
        unsigned e = tpc_type_size(c->t);
        uint8_t a[TPC_VBYTES], b[TPC_VBYTES], vp[TPC_VPBYTES];
        fill(a, c->a, e);
        fill(b, c->b, e);
        memset(vp, 0x5A, sizeof(vp));
        tpc_vl_cmp(c->op, c->t, false, vp, a, b);
        for (unsigned j = 0; j < TPC_VBYTES; j++)
            if (((vp[j / 8] >> (j % 8)) & 1) != c->want)
                g_error("%s: %s: VP bit %u = %d", variant, c->why, j, !c->want);
    }
}

static void test_cmp(void)
{
    for (size_t k = 0; k < G_N_ELEMENTS(cmps); k++) {
        const CmpCase *c = &cmps[k];
        if (tpc_alu_cmp(c->op, c->t, c->a, c->b, false) != c->want)
            g_error("tpc_alu_cmp: %s", c->why);
    }
    tpc_vl_select(true);
    check_cmp_vl("baseline");
    if (tpc_vl_select(false))
        check_cmp_vl("widest");
}

/* The VP predicate images (tpc.md §5.0.1): pack, unpack, the lane gate of
 * spread and the byte merge, checked bit by bit against their definitions
 * on patterns that differ in every byte. */
static void test_masks(void)
{
    uint8_t vp[TPC_VPBYTES], bytes[TPC_VBYTES], back[TPC_VPBYTES], g[TPC_VPBYTES];
    for (unsigned j = 0; j < TPC_VPBYTES; j++)
        vp[j] = (uint8_t)(j * 37u + 11u);
    tpc_vl_unpack(bytes, vp);
    for (unsigned i = 0; i < TPC_VBYTES; i++)
        g_assert_cmphex(bytes[i], ==, (vp[i / 8] >> (i % 8)) & 1 ? 0xFF : 0x00);
    tpc_vl_pack(back, bytes);
    g_assert_cmpmem(back, sizeof(back), vp, sizeof(vp));
    for (unsigned e = 1; e <= 4; e *= 2)
        for (unsigned pol = 0; pol < 2; pol++) {
            tpc_vl_spread(g, vp, e, pol);
            for (unsigned i = 0; i < TPC_VBYTES; i++) {
                unsigned l = i / e * e, want = ((vp[l / 8] >> (l % 8)) & 1) ^ pol;
                if (((g[i / 8] >> (i % 8)) & 1) != want)
                    g_error("spread e=%u pol=%u: bit %u", e, pol, i);
            }
        }
    uint8_t res[TPC_VBYTES], old[TPC_VBYTES];
    for (unsigned i = 0; i < TPC_VBYTES; i++) {
        res[i] = (uint8_t)(i * 3u);
        old[i] = (uint8_t)~i;
    }
    tpc_merge(res, old, bytes);
    for (unsigned i = 0; i < TPC_VBYTES; i++)
        g_assert_cmphex(res[i], ==, bytes[i] ? (uint8_t)(i * 3u) : (uint8_t)~i);
}

/* Every arithmetic row of the SPU and VPU tables (insn-spu.def,
 * insn-vpu.def: forms BINARY and UNARY but shuffle), for every type it
 * allows but b and every SWITCHES value its switch table and types accept,
 * has element semantics in lane-ops.def (tpc_alu_fn), except integer ADD
 * (the carry chain, tpc_lane_int_add) and the VPU's register-pair results
 * (vpu_wide).  A row added without its semantics fails here, not at run
 * time.  And where a whole-register loop exists it gives the element
 * function's lanes. */
static void test_rows_have_semantics(void)
{
    unsigned rows = 0, combos = 0, loops = 0;
    for (unsigned slot = TPC_SLOT_SPU; slot <= TPC_SLOT_VPU; slot++) {
        for (unsigned opc = 0; opc < 64; opc++) {
            const TpcInsnDesc *d = tpc_insn_desc(slot, opc);
            if (!d || (d->form != TPC_FORM_BINARY && d->form != TPC_FORM_UNARY) ||
                (d->flags & TPC_F_VEC_B) || d->kind != TPC_KIND_EXEC)
                continue;
            rows++;
            uint32_t swmask = 0;
            for (const TpcSwDef *sw = tpc_sws_table(d->sws); sw && sw->key; sw++)
                if (sw->field == TPC_SWF_SW && (!sw->slots || (sw->slots >> slot) & 1))
                    swmask |= ((1u << sw->width) - 1) << sw->shift;
            for (unsigned t = 0; t < TPC_T_COUNT; t++) {
                if (t == TPC_T_B || !(d->types & (1u << t)))
                    continue;
                for (unsigned sw = 0; sw < 8; sw++) {
                    TpcInsn in = {
                        .desc = d, .opc = (uint8_t)opc, .type = (uint8_t)t, .sw = (uint8_t)sw};
                    if ((sw & ~swmask) || !tpc_sw_types_ok(&in))
                        continue;
                    if (opc == TPC_OPC_SPU_add && !tpc_type_is_float(t))
                        continue;
                    if (slot == TPC_SLOT_VPU && tpc_vpu_pair_dest(opc, t, sw))
                        continue;
                    TpcLaneFn fn = tpc_alu_fn(slot, opc, t, sw);
                    if (!fn)
                        g_error("%s.%u sw=%u (%s slot) has no lane-ops.def row", d->mnemonic, t, sw,
                                slot == TPC_SLOT_SPU ? "SPU" : "VPU");
                    combos++;
                    TpcVlFn vf = slot == TPC_SLOT_VPU ? tpc_vl_arith_fn(opc, t, sw) : NULL;
                    if (!vf)
                        continue;
                    loops++;
                    uint8_t a[TPC_VBYTES], b[TPC_VBYTES], z[TPC_VBYTES], out[TPC_VBYTES];
                    for (unsigned j = 0; j < TPC_VBYTES; j++) {
                        a[j] = (uint8_t)(j * 37 + opc * 11 + t);
                        b[j] = (uint8_t)(j * 101 + sw * 7 + 3);
                        z[j] = (uint8_t)(j * 13 + 5);
                    }
                    vf(out, a, b, z);
                    unsigned e = tpc_type_size(t);
                    for (unsigned i = 0; i < TPC_VBYTES / e; i++) {
                        uint32_t x = 0, y = 0, w = 0, r = 0;
                        memcpy(&x, a + i * e, e), memcpy(&y, b + i * e, e);
                        memcpy(&w, z + i * e, e), memcpy(&r, out + i * e, e);
                        uint32_t want = fn(x, y, w) & (e == 4 ? 0xFFFFFFFFu : (1u << 8 * e) - 1);
                        if (r != want)
                            g_error("%s.%u sw=%u lane %u: loop %08x, element %08x", d->mnemonic, t,
                                    sw, i, r, want);
                    }
                }
            }
        }
    }
    g_test_message("%u rows, %u (slot, op, type, switches) with semantics, %u with loops", rows,
                   combos, loops);
    g_assert_cmpuint(rows, ==, 28);
    g_assert_cmpuint(loops, >, 50);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/tpc-lane/arith", test_arith);
    g_test_add_func("/tpc-lane/carry", test_carry);
    g_test_add_func("/tpc-lane/cmp", test_cmp);
    g_test_add_func("/tpc-lane/masks", test_masks);
    g_test_add_func("/tpc-lane/rows-have-semantics", test_rows_have_semantics);
    return g_test_run();
}
