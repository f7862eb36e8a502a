/*
 * The latency table (target/tpc/timing.def) through tpc_timing_distance and
 * the operand rule tpc_insn_reads, on instructions assembled and decoded as
 * a kernel's would be.  Expected distances are the worked examples of
 * docs/timing.rst, computed by hand from max(1, max(Pw, Cs) - Cr + 1).
 */
#include <glib.h>

#include "target/tpc/asm.h"
#include "target/tpc/cpu.h"
#include "target/tpc/timing.h"

/* Bundle i of an assembled two-bundle text. */
static void decode2(const char *text, TpcBundle b[2])
{
    TpcObject obj;
    tpc_object_init(&obj);
    g_autofree char *src = g_strdup_printf("%s\nhalt\n", text);
    g_assert_true(tpc_assemble_text("t.s", src, &obj, stderr));
    g_assert_cmpuint(obj.text->len, >=, 2 * TPC_BUNDLE_BYTES);
    for (unsigned i = 0; i < 2; i++) {
        NxFault f;
        g_assert_true(tpc_decode_bundle(obj.text->data + i * TPC_BUNDLE_BYTES, &b[i], &f));
    }
    tpc_object_free(&obj);
}

typedef struct Case {
    const char *text; /* producer bundle, consumer bundle */
    unsigned pslot, pkind, cslot, cfield, ckind;
    unsigned dist;
} Case;

static const Case cases[] = {
    /* SPU integer -> SPU: E3 vs D2/E3 = 4 */
    {"nop; add.i32 S1, S2, S3; nop; nop\nnop; add.i32 S4, S1, S3; nop; nop", TPC_SLOT_SPU, TPC_OP_S,
     TPC_SLOT_SPU, TPC_FIELD_SRC_A, TPC_OP_S, 4},
    /* SPU float MUL -> SPU SRC_B: E5 vs D2/E3 = 6 */
    {"nop; mul.f32 S1, S2, S3; nop; nop\nnop; add.f32 S4, S3, S1; nop; nop", TPC_SLOT_SPU, TPC_OP_S,
     TPC_SLOT_SPU, TPC_FIELD_SRC_B, TPC_OP_S, 6},
    /* VPU f32 ADD -> VPU: E3 (Gaudi) vs D2/E3 = 4, the vendor's distance */
    {"nop; nop; add.f32 V1, V2, V3; nop\nnop; nop; add.f32 V4, V1, V3; nop", TPC_SLOT_VPU, TPC_OP_V,
     TPC_SLOT_VPU, TPC_FIELD_SRC_A, TPC_OP_V, 4},
    /* VPU f32 MUL -> VPU: E5 vs D2/E3 = 6 */
    {"nop; nop; mul.f32 V1, V2, V3; nop\nnop; nop; add.f32 V4, V1, V3; nop", TPC_SLOT_VPU, TPC_OP_V,
     TPC_SLOT_VPU, TPC_FIELD_SRC_A, TPC_OP_V, 6},
    /* LD_TNSR -> VPU: E3 vs D2/E3 = 4 */
    {"ld_tnsr V1, 0x0, I2; nop; nop; nop\nnop; nop; add.f32 V4, V1, V3; nop", TPC_SLOT_LD, TPC_OP_V,
     TPC_SLOT_VPU, TPC_FIELD_SRC_A, TPC_OP_V, 4},
    /* VPU f32 -> ST_TNSR value: E3 vs E6/E6 = 1 */
    {"nop; nop; add.f32 V1, V2, V3; nop\nnop; nop; nop; st_tnsr 0x1, I2, V1", TPC_SLOT_VPU,
     TPC_OP_V, TPC_SLOT_ST, TPC_FIELD_SRC_C, TPC_OP_V, 1},
    /* VPU integer -> ST_L_V value: E3 vs D2/E6 = 7 */
    {"nop; nop; add.i32 V1, V2, V3; nop\nnop; nop; nop; st_l_v S1, V1", TPC_SLOT_VPU, TPC_OP_V,
     TPC_SLOT_ST, TPC_FIELD_SRC_C, TPC_OP_V, 7},
    /* SPU -> VPU scalar operand: E3 vs E6/E6 (vendor DB) = 1 */
    {"nop; add.i32 S1, S2, S3; nop; nop\nnop; nop; add.i32 V4, V1, S1; nop", TPC_SLOT_SPU, TPC_OP_S,
     TPC_SLOT_VPU, TPC_FIELD_SRC_B, TPC_OP_S, 1},
    /* SPU compare -> SPU predicate: E2 vs E1/E2 = 2 */
    {"nop; cmp_eq.i32 SP1, S2, S3; nop; nop\nnop; add.i32 S4, S2, S3, SP1; nop; nop", TPC_SLOT_SPU,
     TPC_OP_SP, TPC_SLOT_SPU, TPC_FIELD_PRED, TPC_OP_SP, 2},
    /* VPU compare -> VPU VP predicate: E2 vs E1/E2 = 2 */
    {"nop; nop; cmp_eq.i32 VP1, V2, V3; nop\nnop; nop; add.i32 V4, V2, V3, VP1; nop", TPC_SLOT_VPU,
     TPC_OP_VP, TPC_SLOT_VPU, TPC_FIELD_PRED, TPC_OP_VP, 2},
    /* SPU IRF add -> LD_TNSR coordinates: E1 vs E1/E1 = 1 */
    {"nop; add.i32 b00001 I2, 0x40, I2; nop; nop\nld_tnsr V1, 0x0, I2; nop; nop; nop", TPC_SLOT_SPU,
     TPC_OP_I, TPC_SLOT_LD, TPC_FIELD_SRC_A, TPC_OP_I, 1},
    /* VPU float MAC -> the next float MAC's accumulator: the exact pair, 4 */
    {"nop; nop; mac.f32 V1, V2, V3; nop\nnop; nop; mac.f32 V1, V2, V3; nop", TPC_SLOT_VPU, TPC_OP_V,
     TPC_SLOT_VPU, TPC_FIELD_DEST, TPC_OP_V, 4},
    /* GEN_ADDR -> LD_G address: E6 vs D2/E3 (vendor DB) = 7 */
    {"gen_addr AD1, 0x0, I2; nop; nop; nop\nld_g S1, AD1; nop; nop; nop", TPC_SLOT_LD, TPC_OP_AD,
     TPC_SLOT_LD, TPC_FIELD_SRC_A, TPC_OP_AD, 7},
    /* SPU -> LD_L_V address from the SRF: E3 vs E6/E6 (vendor DB) = 1 */
    {"nop; add.i32 S1, S2, S3; nop; nop\nld_l_v V1, S1; nop; nop; nop", TPC_SLOT_SPU, TPC_OP_S,
     TPC_SLOT_LD, TPC_FIELD_SRC_A, TPC_OP_S, 1},
    /* SPU -> ST_G value: E3 vs D2/E6 (vendor DB) = 7 */
    {"nop; add.i32 S1, S2, S3; nop; nop\nnop; nop; nop; st_g AD1, S1", TPC_SLOT_SPU, TPC_OP_S,
     TPC_SLOT_ST, TPC_FIELD_SRC_C, TPC_OP_S, 7},
    /* SPU compare -> LD_TNSR predicate: E2 vs E2/E2 = 1; -> LD_L predicate: D2/E2 = 3 */
    {"nop; cmp_eq.i32 SP1, S2, S3; nop; nop\nld_tnsr V1, 0x0, I2, SP1; nop; nop; nop", TPC_SLOT_SPU,
     TPC_OP_SP, TPC_SLOT_LD, TPC_FIELD_PRED, TPC_OP_SP, 1},
    {"nop; cmp_eq.i32 SP1, S2, S3; nop; nop\nld_l S1, 0x10, SP1; nop; nop; nop", TPC_SLOT_SPU,
     TPC_OP_SP, TPC_SLOT_LD, TPC_FIELD_PRED, TPC_OP_SP, 3},
    /* UDIV_4STEP -> the next UDIV_4STEP of the same pair: E6 vs D2/E3 = 7 (six NOPs) */
    {"nop; udiv_4step.u32 0x1f Z2, S1; nop; nop\nnop; udiv_4step.u32 0x1b Z2, S1; nop; nop",
     TPC_SLOT_SPU, TPC_OP_S, TPC_SLOT_SPU, TPC_FIELD_DEST, TPC_OP_S, 7},
    /* SPU IRF add -> MOV_IRF_DIM: E1 vs D2/E1 = 2 */
    {"nop; add.i32 b00001 I2, 0x40, I2; nop; nop\nnop; mov_irf_dim 0x0 S1, I2; nop; nop",
     TPC_SLOT_SPU, TPC_OP_I, TPC_SLOT_SPU, TPC_FIELD_SRC_A, TPC_OP_I, 2},
    /* ---- the pairs of issue #38, by hand from the vendor's Gaudi stages ---- */
    /* VPU add.f32 -> float MAC accumulator: E3 vs E1/E4 = 4 */
    {"nop; nop; add.f32 V1, V2, V3; nop\nnop; nop; mac.f32 V1, V2, V3; nop", TPC_SLOT_VPU, TPC_OP_V,
     TPC_SLOT_VPU, TPC_FIELD_DEST, TPC_OP_V, 4},
    /* IRF mul -> ld_tnsr index: E3; mul is off the IRF bypass, so the load
     * reads at D2: 3 - 0 + 1 = 4 */
    {"nop; mul.i32 b00001 I2, 0x2, I2; nop; nop\nld_tnsr V1, 0x0, I2; nop; nop; nop", TPC_SLOT_SPU,
     TPC_OP_I, TPC_SLOT_LD, TPC_FIELD_SRC_A, TPC_OP_I, 4},
    /* IRF or -> ld_tnsr index: E3, off the bypass, D2: 4 */
    {"nop; or.i32 b00001 I2, 0x1, I2; nop; nop\nld_tnsr V1, 0x0, I2; nop; nop; nop", TPC_SLOT_SPU,
     TPC_OP_I, TPC_SLOT_LD, TPC_FIELD_SRC_A, TPC_OP_I, 4},
    /* LD prmt_indx -> ld_tnsr index: E3, off the bypass, D2: 4 */
    {"prmt_indx I2, I6, S7; nop; nop; nop\nld_tnsr V1, 0x0, I2; nop; nop; nop", TPC_SLOT_LD,
     TPC_OP_I, TPC_SLOT_LD, TPC_FIELD_SRC_A, TPC_OP_I, 4},
    /* IRF add -> IRF or: E1; or is off the bypass, reads at D2: 1 - 0 + 1 = 2 */
    {"nop; add.i32 b00001 I2, 0x1, I2; nop; nop\nnop; or.i32 b00001 I3, 0x1, I2; nop; nop",
     TPC_SLOT_SPU, TPC_OP_I, TPC_SLOT_SPU, TPC_FIELD_SRC_B, TPC_OP_I, 2},
    /* IRF shl -> ld_tnsr index: E1, both on the bypass, E1/E1: 1 */
    {"nop; shl.i32 b00001 I2, I2, 0x1; nop; nop\nld_tnsr V1, 0x0, I2; nop; nop; nop", TPC_SLOT_SPU,
     TPC_OP_I, TPC_SLOT_LD, TPC_FIELD_SRC_A, TPC_OP_I, 1},
    /* cmp -> predicate of an IRF-destination op: E2 vs D2/E2 = 3 */
    {"nop; cmp_eq.i32 SP1, S2, S3; nop; nop\nnop; add.i32 b00001 I2, 0x1, I2, SP1; nop; nop",
     TPC_SLOT_SPU, TPC_OP_SP, TPC_SLOT_SPU, TPC_FIELD_PRED, TPC_OP_SP, 3},
    /* shuffle -> float MAC accumulator: E4 vs E1/E4 = 4, + 1 (the bypass goes to D2) = 5 */
    {"nop; nop; shuffle.f32 V1, V8, V7; nop\nnop; nop; mac.f32 V1, V2, V3; nop", TPC_SLOT_VPU,
     TPC_OP_V, TPC_SLOT_VPU, TPC_FIELD_DEST, TPC_OP_V, 5},
    /* cmp -> not SP: E2 vs E1/E2 = 2 */
    {"nop; cmp_eq.i32 SP1, S2, S3; nop; nop\nnop; not.b SP2, SP1; nop; nop", TPC_SLOT_SPU,
     TPC_OP_SP, TPC_SLOT_SPU, TPC_FIELD_SRC_A, TPC_OP_SP, 2},
    /* cmp -> mov VP, SP: E2 vs E1/E2 = 2 */
    {"nop; cmp_eq.i32 SP1, S2, S3; nop; nop\nnop; nop; mov.b VP6, SP1; nop", TPC_SLOT_SPU,
     TPC_OP_SP, TPC_SLOT_VPU, TPC_FIELD_SRC_A, TPC_OP_SP, 2},
    /* SPU -> LD-slot mov V, S: E3 vs E6/E6 = 1 */
    {"nop; add.i32 S1, S2, S3; nop; nop\nmov.i32 V1, S1; nop; nop; nop", TPC_SLOT_SPU, TPC_OP_S,
     TPC_SLOT_LD, TPC_FIELD_SRC_A, TPC_OP_S, 1},
    /* LD-slot mov I -> ld_tnsr index: E1, both on the bypass, E1/E1: 1 */
    {"mov b11111 I2, I3; nop; nop; nop\nld_tnsr V1, 0x0, I2; nop; nop; nop", TPC_SLOT_LD, TPC_OP_I,
     TPC_SLOT_LD, TPC_FIELD_SRC_A, TPC_OP_I, 1},
    /* gen_addr -> ld_g with a vector destination: E6 vs E6/E3 = 1 */
    {"gen_addr AD1, 0x0, I2; nop; nop; nop\nld_g V1, AD1; nop; nop; nop", TPC_SLOT_LD, TPC_OP_AD,
     TPC_SLOT_LD, TPC_FIELD_SRC_A, TPC_OP_AD, 1},
    /* float MAC bf16 acc_fp32 -> f32 MAC: mixed accumulators, 6 */
    {"nop; nop; mac.bf16 acc_fp32 V2, V4, V5; nop\nnop; nop; mac.f32 V2, V4, V5; nop", TPC_SLOT_VPU,
     TPC_OP_V, TPC_SLOT_VPU, TPC_FIELD_DEST, TPC_OP_V, 6},
    /* bf16 acc_fp32 -> bf16 acc_fp32 MAC: 4 */
    {"nop; nop; mac.bf16 acc_fp32 V2, V4, V5; nop\nnop; nop; mac.bf16 acc_fp32 V2, V4, V5; nop",
     TPC_SLOT_VPU, TPC_OP_V, TPC_SLOT_VPU, TPC_FIELD_DEST, TPC_OP_V, 4},
    /* a producer without a row (ld_tnsr writing an SRF): the default, 4 */
    {"ld_tnsr V1, 0x0, I2; nop; nop; nop\nnop; add.i32 S4, S1, S3; nop; nop", TPC_SLOT_LD, TPC_OP_S,
     TPC_SLOT_SPU, TPC_FIELD_SRC_A, TPC_OP_S, TPC_TIMING_DEFAULT},
};

static void test_distances(void)
{
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        const Case *k = &cases[i];
        TpcBundle b[2];
        decode2(k->text, b);
        /* the consumer really reads that operand */
        TpcRegRead rr[TPC_MAX_READS];
        unsigned nr = tpc_insn_reads(&b[1].slot[k->cslot], k->cslot, rr);
        bool found = false;
        for (unsigned j = 0; j < nr; j++)
            found |= rr[j].field == k->cfield && rr[j].kind == k->ckind;
        if (!found)
            g_error("case %zu (%s): the consumer does not read field %u kind %u", i, k->text,
                    k->cfield, k->ckind);
        unsigned d = tpc_timing_distance(k->pslot, &b[0].slot[k->pslot], k->pkind, k->cslot,
                                         &b[1].slot[k->cslot], k->cfield, k->ckind);
        if (d != k->dist)
            g_error("case %zu (%s): distance %u, expected %u", i, k->text, d, k->dist);
    }
}

/* The operands a consumer reads come from its decoded form. */
static void test_reads(void)
{
    TpcBundle b[2];
    TpcRegRead r[TPC_MAX_READS];
    /* MAC reads SRC_A, SRC_B and its destination, and its VP predicate */
    decode2("nop; nop; mac.f32 V1, V2, S3, VP4; nop\nnop", b);
    unsigned n = tpc_insn_reads(&b[0].slot[TPC_SLOT_VPU], TPC_SLOT_VPU, r);
    g_assert_cmpuint(n, ==, 4);
    g_assert_cmpuint(r[0].field, ==, TPC_FIELD_PRED);
    g_assert_cmpuint(r[0].kind, ==, TPC_OP_VP);
    g_assert_cmpuint(r[0].num, ==, 4);
    g_assert_cmpuint(r[1].kind, ==, TPC_OP_V);
    g_assert_cmpuint(r[1].num, ==, 2);
    g_assert_cmpuint(r[2].kind, ==, TPC_OP_S);
    g_assert_cmpuint(r[2].num, ==, 3);
    g_assert_cmpuint(r[3].field, ==, TPC_FIELD_DEST);
    g_assert_cmpuint(r[3].num, ==, 1);
    /* the store slot's gen_addr names its destination in SRC_C: only I2 is read */
    decode2("nop; nop; nop; gen_addr AD3, 0x1, I2\nnop", b);
    n = tpc_insn_reads(&b[0].slot[TPC_SLOT_ST], TPC_SLOT_ST, r);
    g_assert_cmpuint(n, ==, 1);
    g_assert_cmpuint(r[0].kind, ==, TPC_OP_I);
    g_assert_cmpuint(r[0].num, ==, 2);
    /* an unpredicated add with an immediate reads one register */
    decode2("nop; add.i32 S1, S2, 0x5; nop; nop\nnop", b);
    n = tpc_insn_reads(&b[0].slot[TPC_SLOT_SPU], TPC_SLOT_SPU, r);
    g_assert_cmpuint(n, ==, 1);
    g_assert_cmpuint(r[0].num, ==, 2);
}

/* A row without timing is an error: every executing instruction of
 * insn-*.def is named by a producer or no-destination row of timing.def. */
static void test_table_complete(void)
{
    g_assert_cmpuint(tpc_timing_check_table(stderr), ==, 0);
}

static void test_modes(void)
{
    TpcTimingMode m;
    g_assert_true(tpc_timing_parse("interlocked", &m) && m == TPC_TIMING_INTERLOCKED);
    g_assert_true(tpc_timing_parse("exposed", &m) && m == TPC_TIMING_EXPOSED);
    g_assert_true(tpc_timing_parse("functional", &m) && m == TPC_TIMING_FUNCTIONAL);
    g_assert_false(tpc_timing_parse("Exposed", &m));
    g_assert_false(tpc_timing_parse("", &m));
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/tpc-timing/distances", test_distances);
    g_test_add_func("/tpc-timing/reads", test_reads);
    g_test_add_func("/tpc-timing/modes", test_modes);
    g_test_add_func("/tpc-timing/table-complete", test_table_complete);
    return g_test_run();
}
