/*
 * TPC ISA tables: decoder, assembler and disassembler against the byte
 * strings and texts written in tpc.md (§4.3 special bundles, §4.5 worked
 * examples, §8.3 examples, §8.7 number forms) and the fault values of §6.6.
 */
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "target/tpc/asm.h"
#include "target/tpc/insn.h"
#include "target/tpc/tpc-tools.h"

/* ---- helpers ---- */

static void hex_to_bytes(const char *hex, uint8_t out[32])
{
    memset(out, 0, 32);
    unsigned n = 0;
    for (const char *p = hex; *p && n < 32;) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        out[n++] = (uint8_t)strtoul(p, NULL, 16);
        p += 2;
    }
}

static char *bytes_to_hex(const uint8_t *b)
{
    GString *s = g_string_new(NULL);
    for (int i = 0; i < 32; i++)
        g_string_append_printf(s, "%s%02x", i ? " " : "", b[i]);
    return g_string_free(s, FALSE);
}

/* Assemble `src`; returns the object (caller frees) or NULL with *errs set. */
static bool assemble(const char *src, TpcObject *obj, char **errs)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *err = open_memstream(&buf, &len);
    tpc_object_init(obj);
    bool ok = tpc_assemble_text("t.s", src, obj, err);
    fclose(err);
    if (errs)
        *errs = buf;
    else
        g_free(buf);
    return ok;
}

static char *disas(const uint8_t *b)
{
    GString *s = g_string_new(NULL);
    tpc_disas_bundle_gs(s, b, 0, NULL, NULL);
    return g_string_free(s, FALSE);
}

static void assert_asm_bytes(const char *src, const char *hex)
{
    TpcObject obj;
    char *errs;
    bool ok = assemble(src, &obj, &errs);
    if (!ok)
        g_test_message("errors: %s", errs);
    g_assert_true(ok);
    g_assert_cmpuint(obj.text->len, ==, 32);
    char *got = bytes_to_hex(obj.text->data);
    g_assert_cmpstr(got, ==, hex);
    g_free(got);
    g_free(errs);
    tpc_object_free(&obj);
}

/* §4.5 worked examples: 32 bytes each, byte 0 first. */
static const char *const ex_a = "c2 5f 28 14 40 10 02 04 08 04 0c 00 56 c1 80 38 38 b0 04 20 00 00 "
                                "00 00 00 00 00 00 00 00 00 00";
static const char *const ex_b = "3f 00 00 00 00 00 02 04 00 02 18 30 00 a1 a0 05 00 f0 01 00 00 00 "
                                "00 00 00 00 00 00 00 00 00 00";
static const char *const ex_c = "42 e0 5f 90 03 f8 01 00 00 00 00 00 00 00 80 0f 00 f0 81 3d 00 00 "
                                "00 00 00 00 00 00 00 00 00 00";
static const char *const ex_d = "62 00 e2 1b 03 01 00 00 e0 ff ff ff 0f 04 10 00 00 00 00 00 00 00 "
                                "00 00 00 00 00 00 00 00 00 00";
static const char *const nop_hex = "3f 00 00 00 00 f8 01 00 00 00 00 00 00 00 80 0f 00 f0 01 00 00 "
                                   "00 00 00 00 00 00 00 00 00 00 00";
static const char *const halt_hex = "20 00 00 00 00 00 01 00 00 00 00 00 00 00 80 0f 00 f0 01 00 "
                                    "00 00 00 00 00 00 00 00 00 00 00 00";

/* ---- decoder ---- */

static void test_decode_example_a(void)
{
    uint8_t b[32];
    TpcBundle bd;
    NxFault f;
    hex_to_bytes(ex_a, b);
    g_assert_true(tpc_decode_bundle(b, &bd, &f));
    g_assert_false(bd.is_loop);
    g_assert_cmphex(bd.imm, ==, 0x40);

    const TpcInsn *spu = &bd.slot[TPC_SLOT_SPU];
    g_assert_cmphex(spu->opc, ==, 0x02);
    g_assert_cmpint(spu->a.kind, ==, TPC_OP_IMM);
    g_assert_cmpint(spu->b.kind, ==, TPC_OP_I);
    g_assert_cmpuint(spu->b.num, ==, 2);
    g_assert_cmpint(spu->dst.kind, ==, TPC_OP_I);
    g_assert_cmpuint(spu->dst.num, ==, 2);
    g_assert_cmpuint(spu->type, ==, TPC_T_I32);
    g_assert_cmphex(spu->sw, ==, 0x04); /* dim mask b00001 << 2 */
    g_assert_false(spu->polarity);
    g_assert_cmpuint(spu->pred, ==, 0);

    const TpcInsn *vpu = &bd.slot[TPC_SLOT_VPU];
    g_assert_cmphex(vpu->opc, ==, 0x02);
    g_assert_cmpint(vpu->a.kind, ==, TPC_OP_V);
    g_assert_cmpuint(vpu->a.num, ==, 1);
    g_assert_cmpuint(vpu->b.num, ==, 2);
    g_assert_cmpuint(vpu->dst.num, ==, 3);
    g_assert_cmpuint(vpu->type, ==, TPC_T_F32);
    g_assert_true(vpu->polarity);
    g_assert_true(vpu->pred_vp);
    g_assert_cmpuint(vpu->pred, ==, 5);

    const TpcInsn *ld = &bd.slot[TPC_SLOT_LD];
    g_assert_cmphex(ld->opc, ==, 0x11);
    g_assert_cmpint(ld->a.kind, ==, TPC_OP_I);
    g_assert_cmpuint(ld->a.num, ==, 2);
    g_assert_cmpint(ld->dst.kind, ==, TPC_OP_V);
    g_assert_cmpuint(ld->dst.num, ==, 1);
    g_assert_cmpuint(ld->b.raw, ==, 2); /* tensor id from the shared SRC_D bits */
    g_assert_cmpuint(ld->sw, ==, 0);
    g_assert_cmpuint(ld->pred, ==, 1);
    g_assert_false(ld->pred_vp);
    g_assert_false(ld->polarity);

    const TpcInsn *st = &bd.slot[TPC_SLOT_ST];
    g_assert_cmphex(st->opc, ==, 0x0b);
    g_assert_cmpuint(st->a.num, ==, 3);
    g_assert_cmpint(st->a.kind, ==, TPC_OP_I);
    g_assert_cmpuint(st->b.raw, ==, 3);
    g_assert_cmpint(st->c.kind, ==, TPC_OP_V);
    g_assert_cmpuint(st->c.num, ==, 4); /* shared SRC_C */
    g_assert_cmpuint(st->pred, ==, 1);
}

static void test_decode_example_b(void)
{
    uint8_t b[32];
    TpcBundle bd;
    NxFault f;
    hex_to_bytes(ex_b, b);
    g_assert_true(tpc_decode_bundle(b, &bd, &f));
    const TpcInsn *vpu = &bd.slot[TPC_SLOT_VPU];
    g_assert_cmphex(vpu->opc, ==, 0x00);
    g_assert_cmpuint(vpu->dst.num, ==, 6);
    g_assert_cmphex(vpu->sw, ==, 0x4);
    g_assert_cmpuint(vpu->type, ==, TPC_T_BF16);
    const TpcInsn *ld = &bd.slot[TPC_SLOT_LD];
    g_assert_cmphex(ld->opc, ==, 0x0b);
    g_assert_cmpint(ld->a.kind, ==, TPC_OP_S);
    g_assert_cmpuint(ld->a.num, ==, 2);
    g_assert_cmpint(ld->dst.kind, ==, TPC_OP_S);
    g_assert_cmpuint(ld->dst.num, ==, 1);
    g_assert_cmphex(ld->b.raw, ==, 0x001); /* mmio */
    g_assert_cmphex(bd.slot[TPC_SLOT_SPU].opc, ==, 0x3f);
    g_assert_cmphex(bd.slot[TPC_SLOT_ST].opc, ==, 0x1f);
}

static void test_decode_example_c(void)
{
    uint8_t b[32];
    TpcBundle bd;
    NxFault f;
    hex_to_bytes(ex_c, b);
    g_assert_true(tpc_decode_bundle(b, &bd, &f));
    const TpcInsn *spu = &bd.slot[TPC_SLOT_SPU];
    g_assert_cmphex(spu->opc, ==, 0x02);
    g_assert_cmpint(spu->a.kind, ==, TPC_OP_S);
    g_assert_cmpuint(spu->a.num, ==, 1);
    g_assert_cmpint(spu->b.kind, ==, TPC_OP_IMM);
    g_assert_cmpuint(spu->dst.num, ==, 5);
    g_assert_true(spu->polarity);
    g_assert_cmpuint(spu->pred, ==, 3);
    g_assert_cmphex(bd.imm, ==, 0x7b);
}

static void test_decode_loop(void)
{
    uint8_t b[32];
    TpcBundle bd;
    NxFault f;
    hex_to_bytes(ex_d, b);
    g_assert_true(tpc_decode_bundle(b, &bd, &f));
    g_assert_true(bd.is_loop);
    g_assert_false(bd.loop.start_imm);
    g_assert_cmpuint(bd.loop.start_reg, ==, 1);
    g_assert_true(bd.loop.boundary_imm);
    g_assert_cmphex(bd.loop.boundary, ==, 0x10);
    g_assert_true(bd.loop.step_imm);
    g_assert_cmphex(bd.loop.step, ==, 0xfffffffe);
    g_assert_cmpuint(bd.loop.pred, ==, 3);
    g_assert_false(bd.loop.polarity);
    g_assert_cmpuint(bd.loop.end_offset, ==, 64);
    g_assert_cmpuint(bd.loop.cmp, ==, TPC_CMP_GE);
    g_assert_false(bd.loop.once);
}

static void test_decode_special(void)
{
    uint8_t b[32];
    TpcBundle bd;
    NxFault f;
    hex_to_bytes(nop_hex, b);
    g_assert_true(tpc_decode_bundle(b, &bd, &f));
    g_assert_false(bd.halt);
    g_assert_cmpint(bd.slot[TPC_SLOT_LD].desc->kind, ==, TPC_KIND_NOP);
    g_assert_cmpint(bd.slot[TPC_SLOT_VPU].desc->kind, ==, TPC_KIND_NOP);
    hex_to_bytes(halt_hex, b);
    g_assert_true(tpc_decode_bundle(b, &bd, &f));
    g_assert_true(bd.halt);
    g_assert_cmphex(bd.slot[TPC_SLOT_SPU].opc, ==, 0x20);
    g_assert_cmphex(bd.slot[TPC_SLOT_VPU].opc, ==, 0x20);
}

/* Decode faults and their FAULT_INFO values (tpc.md §4.6, §6.6). */
static void test_decode_faults(void)
{
    uint8_t b[32];
    TpcBundle bd;
    NxFault f;

    /* VPU opcode 0x37 (MADD) is absent on Gaudi: ILLEGAL_OPCODE, slot 2 */
    hex_to_bytes(nop_hex, b);
    tpc_set_bits(b, 43, 6, 0x37);
    g_assert_false(tpc_decode_bundle(b, &bd, &f));
    g_assert_cmpuint(f.code, ==, 1);
    g_assert_cmphex(f.info, ==, 2 | 0x37 << 8);

    /* LD LOOKUP (0x06) decodes but its tables are not public: UNIMPLEMENTED, slot 0 */
    hex_to_bytes(nop_hex, b);
    tpc_set_bits(b, 119, 5, 0x06);
    g_assert_false(tpc_decode_bundle(b, &bd, &f));
    g_assert_cmpuint(f.code, ==, 4);
    g_assert_cmphex(f.info, ==, 0 | 0x06 << 8);

    /* VPU MSAC (0x33) is not a Gaudi instruction: ILLEGAL_OPCODE, slot 2 */
    hex_to_bytes(nop_hex, b);
    tpc_set_bits(b, 43, 6, 0x33);
    g_assert_false(tpc_decode_bundle(b, &bd, &f));
    g_assert_cmpuint(f.code, ==, 1);
    g_assert_cmphex(f.info, ==, 2 | 0x33 << 8);

    /* SPU ADD.i32 S1, S36?, S2: SRC_A 36 is not an SPU register encoding */
    hex_to_bytes(nop_hex, b);
    tpc_set_bits(b, 0, 6, 0x02);
    tpc_set_bits(b, 6, 7, 36);
    tpc_set_bits(b, 13, 7, 2);
    tpc_set_bits(b, 20, 7, 1);
    tpc_set_bits(b, 27, 4, 2);
    g_assert_false(tpc_decode_bundle(b, &bd, &f));
    g_assert_cmpuint(f.code, ==, 2);
    g_assert_cmphex(f.info, ==, 1 | 1 << 4 | 36 << 8);

    /* type code 9 (later generations): ILLEGAL_OPERAND on the type field */
    tpc_set_bits(b, 6, 7, 3);
    tpc_set_bits(b, 27, 4, 9);
    g_assert_false(tpc_decode_bundle(b, &bd, &f));
    g_assert_cmpuint(f.code, ==, 2);
    g_assert_cmphex(f.info & 0xff, ==, 1 | 5 << 4);

    /* the fault is raised even when the predicate is !SP0 (never executes) */
    tpc_set_bits(b, 31, 1, 1);
    g_assert_false(tpc_decode_bundle(b, &bd, &f));
    g_assert_cmpuint(f.code, ==, 2);

    /* LOOP with comparison 6: ILLEGAL_INSTRUCTION, slot 4 */
    hex_to_bytes(ex_d, b);
    tpc_set_bits(b, 116, 3, 6);
    g_assert_false(tpc_decode_bundle(b, &bd, &f));
    g_assert_cmpuint(f.code, ==, 3);
    g_assert_cmphex(f.info, ==, 4 | 0x22 << 8);

    /* LOOP START register field 40 (S_LFSR) is not S0..S35: ILLEGAL_OPERAND */
    hex_to_bytes(ex_d, b);
    tpc_set_bits(b, 6, 7, 40);
    g_assert_false(tpc_decode_bundle(b, &bd, &f));
    g_assert_cmpuint(f.code, ==, 2);

    /* reserved bits 255:191 are ignored */
    hex_to_bytes(ex_a, b);
    b[31] = 0xff;
    b[24] = 0x80;
    g_assert_true(tpc_decode_bundle(b, &bd, &f));

    /* VPU MAC.i16 must write a pair: odd destination is ILLEGAL_OPERAND */
    hex_to_bytes(nop_hex, b);
    tpc_set_bits(b, 43, 6, 0x00);
    tpc_set_bits(b, 49, 8, 1);
    tpc_set_bits(b, 57, 8, 2);
    tpc_set_bits(b, 82, 8, 5);
    tpc_set_bits(b, 93, 4, TPC_T_I16);
    g_assert_false(tpc_decode_bundle(b, &bd, &f));
    g_assert_cmpuint(f.code, ==, 2);
    g_assert_cmphex(f.info, ==, 2 | 0 << 4 | 5 << 8);

    /* VPU mov_dg without .all: SRC_B bits 7:6 have no field (sdg3 of .all),
     * SWITCHES 2 no form: ILLEGAL_INSTRUCTION, the bits never print lost */
    hex_to_bytes(nop_hex, b);
    tpc_set_bits(b, 43, 6, 0x31);
    tpc_set_bits(b, 49, 8, 2);
    tpc_set_bits(b, 82, 8, 1);
    tpc_set_bits(b, 57, 8, 0x3f);
    g_assert_true(tpc_decode_bundle(b, &bd, &f));
    tpc_set_bits(b, 57, 8, 0x40);
    g_assert_false(tpc_decode_bundle(b, &bd, &f));
    g_assert_cmpuint(f.code, ==, 3);
    g_assert_cmphex(f.info, ==, 2 | 0x31 << 8);
    tpc_set_bits(b, 90, 3, 1); /* .all: bits 7:6 are sdg3 */
    g_assert_true(tpc_decode_bundle(b, &bd, &f));
    tpc_set_bits(b, 90, 3, 2);
    g_assert_false(tpc_decode_bundle(b, &bd, &f));
    g_assert_cmpuint(f.code, ==, 3);

    /* VPU convert.f32 all_lanes target_type=bf16 V0, V39: the pair V39, V40
     * does not exist: ILLEGAL_OPERAND on SRC_A; single_lane reads V39 alone */
    hex_to_bytes(nop_hex, b);
    tpc_set_bits(b, 43, 6, 0x16);
    tpc_set_bits(b, 49, 8, 39);
    tpc_set_bits(b, 57, 8, TPC_T_BF16);
    tpc_set_bits(b, 93, 4, TPC_T_F32);
    g_assert_false(tpc_decode_bundle(b, &bd, &f));
    g_assert_cmpuint(f.code, ==, 2);
    g_assert_cmphex(f.info, ==, 2 | 1 << 4 | 39 << 8);
    tpc_set_bits(b, 57, 8, TPC_T_BF16 | 0x40);
    g_assert_true(tpc_decode_bundle(b, &bd, &f));
    /* rounding mode 7 has no name: ILLEGAL_INSTRUCTION */
    tpc_set_bits(b, 90, 3, 7);
    g_assert_false(tpc_decode_bundle(b, &bd, &f));
    g_assert_cmpuint(f.code, ==, 3);
    g_assert_cmphex(f.info, ==, 2 | 0x16 << 8);
    /* SPU convert: SRC_B bits 6:4 (the VPU's lane_sel, num_lanes) are none
     * of the SPU's: ILLEGAL_INSTRUCTION */
    hex_to_bytes(nop_hex, b);
    tpc_set_bits(b, 0, 6, 0x16);
    tpc_set_bits(b, 13, 7, TPC_T_I32);
    tpc_set_bits(b, 27, 4, TPC_T_F32);
    g_assert_true(tpc_decode_bundle(b, &bd, &f));
    tpc_set_bits(b, 13, 7, TPC_T_I32 | 0x10);
    g_assert_false(tpc_decode_bundle(b, &bd, &f));
    g_assert_cmpuint(f.code, ==, 3);
}

/* ---- assembler: §4.5 bytes ---- */

static void test_asm_examples(void)
{
    assert_asm_bytes("ld_tnsr V1, 0x2, I2, SP1; add.i32 b00001 I2, 0x40, I2; add.f32 V3, V1, V2, "
                     "!VP5; st_tnsr 0x3, I3, V4, SP1\n",
                     ex_a);
    assert_asm_bytes("ld_l mmio S1, S2; nop; mac.bf16 acc_fp32 D6, V1, V2; nop\n", ex_b);
    assert_asm_bytes("nop; add.i32 S5, S1, 0x7b, !SP3; nop; nop\n", ex_c);
    assert_asm_bytes("nop\n", nop_hex);
    assert_asm_bytes("nop; nop; nop; nop\n", nop_hex);
    assert_asm_bytes("halt\n", halt_hex);
    assert_asm_bytes("nop; halt; halt; nop\n", halt_hex);
    /* brace form (tpc.md §8.1) */
    assert_asm_bytes("{\n  nop;\n  add.i32 S5, S1, 0x7b, !SP3;\n  nop\n  nop\n}\n", ex_c);
}

static void test_asm_loop(void)
{
    TpcObject obj;
    char *errs;
    const char *src = "loop S1, 0x10, -2, >=, End1, SP3\n"
                      "nop\n"
                      "nop\n"
                      "End1:\n"
                      "halt\n";
    g_assert_true(assemble(src, &obj, &errs));
    g_assert_cmpuint(obj.text->len, ==, 4 * 32);
    char *got = bytes_to_hex(obj.text->data);
    g_assert_cmpstr(got, ==, ex_d);
    g_free(got);
    /* disassembly names the label and prints immediates in decimal */
    GString *s = g_string_new(NULL);
    tpc_disas_text(s, obj.text->data, obj.text->len, (const TpcSym *)(void *)obj.syms->data,
                   obj.syms->len, false);
    g_assert_cmpstr(s->str, ==,
                    "loop S1, 16, 4294967294, >=, End1, SP3\n"
                    "nop; nop; nop; nop\n"
                    "nop; nop; nop; nop\n"
                    "\nEnd1:\n"
                    "nop; halt; halt; nop\n");
    g_string_free(s, TRUE);
    g_free(errs);
    tpc_object_free(&obj);
}

/* ---- §8.3: text -> bytes -> the same text ---- */

static const struct {
    const char *in, *out;
} examples[] = {
    {"ld_tnsr V4, 0x0, I3; nop; nop; nop", NULL},
    {"ld_tnsr.partial V4, S27, I3, S30; nop; nop; nop", "ld_tnsr V4, S27, I3, S30; nop; nop; nop"},
    {"ld_l mmio S1, S2, !SP3; nop; nop; nop", NULL},
    {"ld_l mmio S1, 0x7b, SP3; nop; nop; nop", NULL},
    {"ld_g V1, AD1; nop; nop; nop", NULL},
    {"gen_addr AD1, 0x6, I1; nop; nop; nop", NULL},
    {"set_indx I0, b00010, S35; nop; nop; nop", NULL},
    {"nop; add.i32 st S5, S1, S2; nop; nop", NULL},
    {"nop; add.i32 b11011 I5, I4, I2; nop; nop", NULL},
    {"nop; mov_irf_dim 0x2 S1, I3, SP1; nop; nop", NULL},
    {"nop; add.i32 S5, S1, i32_-122; nop; nop", "nop; add.i32 S5, S1, 0xffffff86; nop; nop"},
    {"nop; nop; mac.f32 neg V5, V1, V2, VP3; nop", NULL},
    {"ld_l mmio S1, S2; nop; mac.bf16 acc_fp32 D6, V1, V2; nop", NULL},
    {"nop; nop; cmp_eq.f32 VP1, V2, S3; nop", NULL},
    {"nop; nop; sel_eq.i32 V4, V5, 0x7a, V7, V8; nop", NULL},
    {"nop; nop; convert.f32 target_type=int32 rz V0, V1; nop", NULL},
    {"nop; nop; unpack.i8 source_group=1 element_stride=4 group_half=1 V1, V2; nop", NULL},
    /* convert's lanes: single_lane is f32 -> bf16's default (unprinted),
     * bf16 -> f32 prints either, the others print single_lane only; the
     * f32 -> bf16 source of all lanes is a pair */
    {"nop; nop; convert.f32 target_type=bf16 V0, V3; nop", NULL},
    {"nop; nop; convert.f32 all_lanes target_type=bf16 rz V0, D2; nop", NULL},
    {"nop; nop; convert.f32 all_lanes target_type=bf16 V0, V3; nop", NULL},
    {"nop; nop; convert.bf16 single_lane target_type=fp32 D0, V1; nop", NULL},
    {"nop; nop; convert.i32 lane_sel=2 single_lane target_type=fp32 V0, V2; nop", NULL},
    {"nop; convert.u8 target_type=bf16 rhne S1, S_LFSR; nop; nop", NULL},
    {"nop; nop; mov_dg src=1 dst=2 wr_lg=0x1 wr_ug=0x1 V1, V2, 0xffffffff; nop", NULL},
    {"nop; nop; mov_dg.all sdg0=3 sdg1=0 sdg2=1 sdg3=2 weg0=0 weg1=2 weg2=0 weg3=3 V1, V2, 0x5, "
     "SP3; nop",
     NULL},
    {"nop; nop; mov_g g_en=0b0 dg_en=0b1111 V1, V2, 0x20; nop", NULL},
    {"nop; nop; nop; st_l mmio S1, S2, SP3", NULL},
    {"nop; nop; nop; st_tnsr 0x0, I3, VP4, !SP1", NULL},
    {"nop; nop; nop; st_tnsr.rmw_sel 0x1, I3, V4", "nop; nop; nop; st_tnsr 0x1, I3, V4, S29"},
    {"nop; nop; nop; aso vpu", NULL},
    {"halt", "nop; halt; halt; nop"},
    /* vendor input forms (§8.7) */
    {"nop; nop; convert.f32 V0, V1, INT32, RZ; nop",
     "nop; nop; convert.f32 target_type=int32 rz V0, V1; nop"},
    {"nop; nop; convert.f32 V0, V1, INT16, LANE_SEL=1; nop",
     "nop; nop; convert.f32 lane_sel=1 target_type=int16 V0, V1; nop"},
    {"nop; nop; unpack.i16 V1, V2, GROUP_0, STRIDE_2, GROUP_HALF_0; nop",
     "nop; nop; unpack.i16 source_group=0 element_stride=2 group_half=0 V1, V2; nop"},
    {"nop; nop; mov_dg V1, V2, src=0, dst=0, wr_lg=0, wr_ug=0, 123; nop",
     "nop; nop; mov_dg src=0 dst=0 wr_lg=0x0 wr_ug=0x0 V1, V2, 0x7b; nop"},
    {"nop; nop; mov_g V1, V2, g_en=0, dg_en=15, 32; nop",
     "nop; nop; mov_g g_en=0b0 dg_en=0b1111 V1, V2, 0x20; nop"},
    {"NOP; ADD.I32.SAT S5, S1, S2; NOP; NOP", "nop; add.i32 st S5, S1, S2; nop; nop"},
    {"nop; nop; mov VP4, S0; nop", NULL},
    {"mov VP14, S3; nop; nop; nop", NULL},
    {"nop; mov.i32 S1, 0x5; nop; nop", NULL},
    {"nop; nop; ash.i32 rhu V1, V2, V3; nop", NULL},
    {"nop; nop; convert.bf16 all_lanes target_type=fp32 D2, V1; nop", NULL},
    {"nop; nop; convert.f32 target_type=bf16 V2, V1; nop", NULL},
};

static void test_asm_roundtrip(void)
{
    for (size_t i = 0; i < G_N_ELEMENTS(examples); i++) {
        TpcObject obj;
        char *errs;
        char *src = g_strconcat(examples[i].in, "\n", NULL);
        bool ok = assemble(src, &obj, &errs);
        if (!ok)
            g_test_message("%s: %s", examples[i].in, errs);
        g_assert_true(ok);
        g_assert_cmpuint(obj.text->len, ==, 32);
        char *text = disas(obj.text->data);
        g_assert_cmpstr(text, ==, examples[i].out ? examples[i].out : examples[i].in);
        /* and the printed text assembles to the same bytes */
        TpcObject again;
        char *src2 = g_strconcat(text, "\n", NULL);
        g_assert_true(assemble(src2, &again, NULL));
        g_assert_cmpmem(again.text->data, 32, obj.text->data, 32);
        tpc_object_free(&again);
        g_free(src2);
        g_free(text);
        g_free(src);
        g_free(errs);
        tpc_object_free(&obj);
    }
}

static void test_asm_ash_and_convert_defaults(void)
{
    TpcObject obj;
    uint8_t *b;
    /* ash always encodes SW bit 0 (st) */
    g_assert_true(assemble("nop; ash.i32 S1, S2, S3; nop; nop\n", &obj, NULL));
    b = obj.text->data;
    g_assert_cmpuint(tpc_bits(b, TPC_B_SPU_SW, 7), ==, 1);
    tpc_object_free(&obj);
    g_assert_false(assemble("nop; ash.i32.sat S1, S2, S3; nop; nop\n", &obj, NULL));
    tpc_object_free(&obj);
    /* CONVERT without rounding word: SW = 5 (default); f32 -> bf16 single lane */
    g_assert_true(assemble("nop; nop; convert.f32 target_type=bf16 V2, V1; nop\n", &obj, NULL));
    b = obj.text->data;
    g_assert_cmpuint(tpc_bits(b, TPC_B_VPU_SW, 3), ==, 5);
    g_assert_cmphex(tpc_bits(b, TPC_B_VPU_SRC_B, 8), ==, 0x41);
    tpc_object_free(&obj);
    /* rne is an alias of rhne (0) */
    g_assert_true(assemble("nop; nop; convert.f32 V0, V1, INT32, RNE; nop\n", &obj, NULL));
    g_assert_cmpuint(tpc_bits(obj.text->data, TPC_B_VPU_SW, 3), ==, 0);
    tpc_object_free(&obj);
}

/* ---- numbers (§8.2, §8.7) ---- */

static uint32_t imm_of(const char *operand)
{
    TpcObject obj;
    char *src = g_strdup_printf("nop; add.i32 S5, S1, %s; nop; nop\n", operand);
    char *errs;
    bool ok = assemble(src, &obj, &errs);
    if (!ok)
        g_test_message("%s", errs);
    g_assert_true(ok);
    uint32_t v = tpc_bits(obj.text->data, TPC_B_IMM, 32);
    tpc_object_free(&obj);
    g_free(src);
    g_free(errs);
    return v;
}

static void test_numbers(void)
{
    g_assert_cmphex(imm_of("i32_-122"), ==, 0xffffff86);
    g_assert_cmphex(imm_of("i16_-122"), ==, 0xffffff86);
    g_assert_cmphex(imm_of("i8_-122"), ==, 0xffffff86);
    g_assert_cmphex(imm_of("i16_x12C"), ==, 0x12c);
    g_assert_cmphex(imm_of("u32_x12C"), ==, 0x12c);
    g_assert_cmphex(imm_of("I32_1234"), ==, 1234);
    g_assert_cmphex(imm_of("f32_1.25"), ==, 0x3fa00000);
    g_assert_cmphex(imm_of("F32_8.000000"), ==, 0x41000000);
    g_assert_cmphex(imm_of("bf16_1.0"), ==, 0x3f80);
    g_assert_cmphex(imm_of("1.0f"), ==, 0x3f800000);
    g_assert_cmphex(imm_of("1.0bf"), ==, 0x3f80);
    g_assert_cmphex(imm_of("1.0h"), ==, 0x3c00);
    g_assert_cmphex(imm_of("1.5"), ==, 0x3fc00000);
    g_assert_cmphex(imm_of("1e5"), ==, 0x47c35000);
    g_assert_cmphex(imm_of("45876u"), ==, 45876);
    g_assert_cmphex(imm_of("0b101"), ==, 5);
    g_assert_cmphex(imm_of("010"), ==, 8);
    g_assert_cmphex(imm_of("- 45876"), ==, (uint32_t)-45876);
    g_assert_cmphex(imm_of("-2"), ==, 0xfffffffe);
    g_assert_cmphex(imm_of("0x7B"), ==, 0x7b);
}

/* ---- bundle-level rules ---- */

static void test_two_immediates(void)
{
    TpcObject obj;
    char *errs;
    /* §8.1: the last immediate in slot order is kept, with a warning */
    g_assert_true(assemble("ld_l S1, 0x10; add.i32 S2, S2, 1; nop; nop\n", &obj, &errs));
    g_assert_nonnull(strstr(errs, "nxemu: warning: "));
    g_assert_nonnull(strstr(errs, "different immediates in one bundle, keeping 0x1"));
    char *text = disas(obj.text->data);
    g_assert_cmpstr(text, ==, "ld_l S1, 0x1; add.i32 S2, S2, 0x1; nop; nop");
    g_free(text);
    g_free(errs);
    tpc_object_free(&obj);
    /* one immediate shared by two slots: no warning */
    g_assert_true(assemble("ld_l S1, 0x10; add.i32 S2, S2, 0x10; nop; nop\n", &obj, &errs));
    g_assert_cmpstr(errs, ==, "");
    g_free(errs);
    tpc_object_free(&obj);
}

static void expect_error(const char *src, const char *where, const char *msg)
{
    TpcObject obj;
    char *errs;
    g_assert_false(assemble(src, &obj, &errs));
    if (!g_str_has_prefix(errs, where) || !strstr(errs, msg))
        g_test_message("got: %s", errs);
    g_assert_true(g_str_has_prefix(errs, where));
    g_assert_nonnull(strstr(errs, ": error: "));
    g_assert_nonnull(strstr(errs, msg));
    g_free(errs);
    tpc_object_free(&obj);
}

static void test_errors(void)
{
    expect_error("ld_l S1, S2; nop; nop; st_l S3, S4, SP2\n", "t.s:1:", "same predicate");
    expect_error("ld_tnsr V1, 0x2, I2; nop; sel_eq.i32 V4, V5, V6, V7, V8; nop\n",
                 "t.s:1:", "SRC_D");
    expect_error("nop; nop; sel_eq.i32 V4, V5, V6, V7, V8; st_l S1, S2\n", "t.s:1:", "SRC_C");
    expect_error("nop; nop; madd.f32 V1, V2, V3, V4; nop\n", "t.s:1:11:", "missing feature");
    expect_error("nop\nnop; jmpr Nowhere; nop; nop\n", "t.s:2:11:", "missing label");
    expect_error("add.i32 S1, S2, S3\n", "t.s:1:1:", "not a load-slot instruction");
    expect_error("nop; add.i32 S36, S1, S2; nop; nop\n", "t.s:1:14:", "does not exist");
    expect_error("nop; add S1, S1, S2; nop; nop\n", "t.s:1:6:", "type suffix");
    expect_error("nop; nop; nop; nop; nop\n", "t.s:1:", "more than four slots");
    expect_error("nop; frobnicate S1; nop; nop\n", "t.s:1:6:", "unknown instruction");
    expect_error("nop; nop; convert.f32 V0, V1, INT32, RZ, RD; nop\n", "t.s:1:", "given twice");
    expect_error("L:\nL:\nnop\n", "t.s:2:1:", "already defined");
    expect_error(".tpc_metadata\nversion: DD 12\nversion: DD 11\n", "t.s:3:", "redefined");
    expect_error("nop; nop; mac.f32 V1, V2; nop\n", "t.s:1:11:", "takes 3 operands");
    /* Gaudi-absent forms (tpc.md §8.1) */
    expect_error("nop; cmp_eq.i32 SP1, I2, I3; nop; nop\n", "t.s:1:", "'I2' must be S or S_LFSR");
    expect_error("nop; ash.i32 b00001 I1, I2, I3; nop; nop\n", "t.s:1:", "missing feature");
    /* strict operands of the table-described forms: a trailing register is a
     * source only where the form has one, never a guess */
    expect_error("nop; fclass.f32 S6, S7, S8; nop; nop\n", "t.s:1:25:",
                 "unexpected operand 'S8' (it takes S, S and a predicate)");
    expect_error("nop; nop; nearbyint.f32 V20, V23, V3; nop\n", "t.s:1:35:",
                 "unexpected operand 'V3' (it takes V, V|S|imm|LFSR|V_LANE_ID and a predicate)");
    expect_error("nop; nearbyint.f32 S1; nop; nop\n", "t.s:1:6:", "takes 2 operands (S, S)");
    expect_error("nop; ash.i32 S1, S2, S3, S4; nop; nop\n", "t.s:1:26:", "unexpected operand 'S4'");
    expect_error("nop; nop; convert.f32 V0, V1, BF16, ALL_LANE; nop\n", "t.s:1:37:",
                 "unknown switch or operand 'ALL_LANE'");
    expect_error("nop; add.i32 b1000 I1, I2, I3; nop; nop\n", "t.s:1:14:",
                 "must be b and 5 binary digits");
    expect_error("nop; ash.i32.sat S1, S2, S3; nop; nop\n", "t.s:1:14:", "always saturates");
    expect_error("nop; mac.f32 acc_fp32 S1, S2, S3; nop; nop\n", "t.s:1:14:",
                 "not valid for type .f32");
    expect_error("nop; add.f32 st S1, S2, S3; nop; nop\n", "t.s:1:14:", "not valid for type .f32");
    expect_error("nop; nop; get_lut_entry_and_interval_start.f32 V4, V2, S4; nop\n", "t.s:1:56:",
                 "must be a number");
    expect_error("nop; nop; get_lut_entry_and_interval_start.f32 V4, V2, 32; nop\n", "t.s:1:56:",
                 "0..31");
    expect_error("nop; udiv_4step.u32 5 S3, S1; nop; nop\n", "t.s:1:23:", "register pair (Z2)");
    expect_error("nop; udiv_4step.i32 5 Z2, S1; nop; nop\n", "t.s:1:17:", "not allowed");
    expect_error("nop; fclass.f32 V1, S2; nop; nop\n", "t.s:1:17:", "must be S");
    expect_error("nop; convert_int32 rhaz S1, S2, S3; nop; nop\n", "t.s:1:20:",
                 "unknown switch or operand 'rhaz'");
    expect_error("nop; mov.i32 S4, PC; nop; nop\n", "t.s:1:", "no type");
    expect_error("nop; mov.from_hw_reg S4, 3; nop; nop\n", "t.s:1:26:", "does not exist on Gaudi");
    expect_error("nop; nop; msac.i16 V1, V2, V3, V4; nop\n", "t.s:1:11:", "unknown instruction");
    expect_error("nop; nop; add.f16 V1, V2, V3; nop\n", "t.s:1:15:", "missing feature");
    expect_error("nop; nop; nop; st_tnsr_low.partial 0x1, I3, V4, S31\n",
                 "t.s:1:", "missing feature");
    /* convert: a pair is written only where the pair rule has one */
    expect_error("nop; nop; convert.i32 target_type=fp32 V0, D2; nop\n",
                 "t.s:1:44:", "'D2' must be V or LFSR/V_LANE_ID");
    expect_error("nop; nop; convert.bf16 target_type=fp32 V1, V2; nop\n",
                 "t.s:1:41:", "must be a register pair (D0)");
    /* mov_dg: the keys of one form are not switches of the other */
    expect_error("nop; nop; mov_dg sdg0=1 V1, V2, 0x5; nop\n",
                 "t.s:1:18:", "switch 'sdg0' belongs to another form");
    expect_error("nop; nop; mov_dg.all src=1 V1, V2, 0x5; nop\n",
                 "t.s:1:22:", "switch 'src' belongs to another form");
}

static void test_metadata(void)
{
    TpcObject obj;
    char *errs;
    const char *src = ".text\nnop\n.section .TPC_METADATA\n"
                      "version: DD 11\nnumberOfThreads: DB 2\nparamsNum: DB 3\n"
                      "scalarLd[1]: DB 1\nrmwStore: DH 0010000000000001\n";
    g_assert_true(assemble(src, &obj, &errs));
    const uint8_t *md = obj.metadata;
    g_assert_cmpuint(md[0] | md[1] << 8 | md[2] << 16 | md[3] << 24, ==, 11);
    g_assert_cmpuint(md[8] | md[9] << 8, ==, 2); /* march default: Gaudi */
    g_assert_cmpuint(md[12], ==, 3);
    g_assert_cmpuint(md[14], ==, 2);
    g_assert_cmpuint(md[26] | md[27] << 8, ==, 1u << 1);
    g_assert_cmpuint(md[28] | md[29] << 8, ==, 1u << 2 | 1u << 15);
    GString *s = g_string_new(NULL);
    tpc_disas_metadata(s, md, TPC_METADATA_SIZE);
    g_assert_nonnull(strstr(s->str, ".section .tpc_metadata\nversion: DD 11\n"));
    g_assert_nonnull(strstr(s->str, "numberOfThreads: DB 2\n"));
    g_assert_nonnull(strstr(s->str, "scalarLd[1]: DB 1\nrmwStore[2]: DB 1\nrmwStore[15]: DB 1\n"));
    g_assert_null(strstr(s->str, "dnorm")); /* dnorm exists from version 12 */
    g_string_free(s, TRUE);
    g_free(errs);
    tpc_object_free(&obj);

    /* no directive: version 12, march 2, one thread, all else 0 (tpc.md §7.1) */
    g_assert_true(assemble("nop\n", &obj, NULL));
    uint8_t want[TPC_METADATA_SIZE] = {0};
    want[0] = 12;
    want[8] = 2;
    want[14] = 1;
    g_assert_cmpmem(obj.metadata, TPC_METADATA_SIZE, want, TPC_METADATA_SIZE);
    tpc_object_free(&obj);
}

static void test_bad_bundle_print(void)
{
    uint8_t b[32];
    hex_to_bytes(nop_hex, b);
    tpc_set_bits(b, 43, 6, 0x37); /* MADD */
    char *t = disas(b);
    g_assert_cmpstr(t, ==,
                    "// bad bundle\n.long 0x0000003f, 0x0001b800, 0x00000000, 0x0f800000, "
                    "0x0001f000, 0x00000000, 0x00000000, 0x00000000");
    /* and `.long` reassembles to the same bytes */
    TpcObject obj;
    char *src = g_strconcat(t, "\n", NULL);
    g_assert_true(assemble(src, &obj, NULL));
    g_assert_cmpmem(obj.text->data, 32, b, 32);
    tpc_object_free(&obj);
    g_free(src);
    g_free(t);
    /* the char-buffer form used for logging truncates safely */
    char small[12];
    hex_to_bytes(halt_hex, b);
    g_assert_cmpuint(tpc_disas_bundle(small, sizeof small, b, 0), ==,
                     strlen("nop; halt; halt; nop"));
    g_assert_cmpstr(small, ==, "nop; halt; ");
    /* an UNIMPLEMENTED opcode still prints with its mnemonic and switches */
    hex_to_bytes(nop_hex, b);
    tpc_set_bits(b, 119, 5, 0x09); /* lookup_1c BV32 V1, V0, 0x1 */
    tpc_set_bits(b, 111, 8, 1);
    tpc_set_bits(b, 73, 9, 1);
    t = disas(b);
    g_assert_true(g_str_has_prefix(t, "lookup_1c BV32 V1, V0, 0x1; nop"));
    g_free(t);
}

/* Property: for bundles the decoder accepts, disassemble -> assemble ->
 * disassemble gives the same text (the assembler and the disassembler are
 * two views of one table).  Short immediates (later generations) print as
 * numbers and reassemble as long immediates, so those bundles are skipped. */
static bool has_short_imm(const TpcBundle *bd)
{
    for (int s = 0; s < 4; s++) {
        const TpcInsn *in = &bd->slot[s];
        const TpcOperand *ops[5] = {&in->dst, &in->a, &in->b, &in->c, &in->d};
        for (int k = 0; k < 5; k++)
            if (ops[k]->kind == TPC_OP_SIMM)
                return true;
    }
    return false;
}

static bool same_op(const TpcBundle *x, const TpcOperand *a, const TpcBundle *y,
                    const TpcOperand *b)
{
    if (a->kind != b->kind || a->num != b->num)
        return false;
    if (a->kind == TPC_OP_RAW && a->raw != b->raw)
        return false;
    return a->kind != TPC_OP_IMM || x->imm == y->imm;
}

/* Slot s of two decoded bundles means the same: opcode, type, switches,
 * predicate and every operand the form uses.  For the table-described forms
 * (insn-forms.def) every meaningful bit is in the description, so all must
 * survive; the older hand-coded forms ignore some bits (tpc.md §4.6) and are
 * compared by their text only. */
static bool same_insn(const TpcBundle *x, const TpcBundle *y, unsigned s)
{
    const TpcInsn *a = &x->slot[s], *b = &y->slot[s];
    if (a->desc != b->desc)
        return false;
    if (a->desc->form == TPC_FORM_NOP || a->desc->form == TPC_FORM_HALT)
        return true; /* nothing but the opcode is read */
    if (!tpc_form_layout(a->desc->form)) /* hand-coded: every SWITCHES bit it accepts is kept */
        return a->type == b->type && a->sw == b->sw;
    /* SP0 and VP0 without polarity both always hold and print as nothing */
    bool always = !a->pred && !a->polarity && !b->pred && !b->polarity;
    if (a->type != b->type || a->sw != b->sw || a->polarity != b->polarity ||
        (!always && (a->pred != b->pred || a->pred_vp != b->pred_vp)))
        return false;
    return same_op(x, &a->dst, y, &b->dst) && same_op(x, &a->a, y, &b->a) &&
           same_op(x, &a->b, y, &b->b) && same_op(x, &a->c, y, &b->c) &&
           same_op(x, &a->d, y, &b->d);
}

/* Text -> bytes -> text -> bytes for one bundle: true when it decoded,
 * printed and reassembled to a fixed point (asserts on any mismatch). */
static bool round_trips(const uint8_t b[32])
{
    TpcBundle bd;
    NxFault f, sf[4];
    if (!tpc_decode_bundle_all(b, &bd, &f, sf) && f.code != TPC_FAULT_UNIMPLEMENTED)
        return false;
    for (unsigned s = 0; s < 4; s++)
        if (sf[s].code && sf[s].code != TPC_FAULT_UNIMPLEMENTED)
            return false;
    if (has_short_imm(&bd))
        return false;
    char *t1 = disas(b);
    TpcObject o1, o2;
    char *e1, *e2, *s1 = g_strconcat(t1, "\n", NULL);
    bool ok = assemble(s1, &o1, &e1);
    if (!ok && strstr(e1, "share bits")) {
        g_free(t1), g_free(s1), g_free(e1);
        tpc_object_free(&o1);
        return false;
    }
    if (!ok)
        g_test_message("%s: %s", t1, e1);
    g_assert_true(ok);
    char *t2 = disas(o1.text->data);
    g_assert_cmpstr(t2, ==, t1);
    /* the text kept every field the decoder gave meaning to */
    TpcBundle bd2;
    NxFault f2, sf2[4];
    tpc_decode_bundle_all(o1.text->data, &bd2, &f2, sf2);
    for (unsigned s = 0; s < 4; s++)
        if (!same_insn(&bd, &bd2, s)) {
            g_test_message("%s: slot %u differs after reassembly", t1, s);
            g_assert_not_reached();
        }
    char *s2 = g_strconcat(t2, "\n", NULL);
    g_assert_true(assemble(s2, &o2, &e2));
    g_assert_cmpmem(o2.text->data, 32, o1.text->data, 32);
    g_free(t1), g_free(t2), g_free(s1), g_free(s2), g_free(e1), g_free(e2);
    tpc_object_free(&o1);
    tpc_object_free(&o2);
    return true;
}


static void test_disas_asm_property(void)
{
    static const int v8[] = {1,   5,   39,  40,  44,  64,  70,  99,  104,
                             127, 128, 131, 160, 163, 224, 230, 240, 245};
    static const int v7[] = {0, 3, 35, 40, 41, 48, 55, 64, 80, 96, 100, 127};
    static const int fields[][2] = {{6, 7},  {13, 7}, {20, 7},  {49, 8},  {57, 8},  {65, 8},
                                    {73, 9}, {82, 8}, {103, 8}, {111, 8}, {124, 8}, {132, 8}};
    GRand *r = g_rand_new_with_seed(2026);
    unsigned checked = 0;
    static const unsigned opc_range[4] = {32, 64, 64, 32};
    for (int it = 0; it < 60000; it++) {
        uint8_t b[32];
        for (int i = 0; i < 24; i++)
            b[i] = (uint8_t)g_rand_int(r);
        memset(b + 24, 0, 8);
        b[23] &= 0x7f;
        /* the opcodes come from the tables themselves: every row is drawn */
        unsigned opc[4];
        for (unsigned k = 0; k < 4; k++) {
            do
                opc[k] = (unsigned)g_rand_int_range(r, 0, (gint32)opc_range[k]);
            while (!tpc_insn_desc(k, opc[k]) || (k == TPC_SLOT_SPU && opc[k] == TPC_OPC_LOOP));
        }
        /* one or two slots under test, the others NOP */
        bool on[4];
        for (int k = 0; k < 4; k++)
            on[k] = g_rand_int_range(r, 0, 3) == 0;
        tpc_set_bits(b, 119, 5, on[0] ? opc[0] : 0x1f);
        tpc_set_bits(b, 0, 6, on[1] ? opc[1] : 0x3f);
        tpc_set_bits(b, 43, 6, on[2] ? opc[2] : 0x3f);
        tpc_set_bits(b, 140, 5, on[3] ? opc[3] : 0x1f);
        tpc_set_bits(b, 27, 4, g_rand_int_range(r, 0, 9));
        tpc_set_bits(b, 93, 4, g_rand_int_range(r, 0, 9));
        for (size_t k = 0; k < G_N_ELEMENTS(fields); k++) {
            if (g_rand_boolean(r)) {
                int w = fields[k][1];
                int v = w == 7 ? v7[g_rand_int_range(r, 0, G_N_ELEMENTS(v7))]
                               : v8[g_rand_int_range(r, 0, G_N_ELEMENTS(v8))];
                tpc_set_bits(b, fields[k][0], w, v);
            }
        }
        if (!round_trips(b))
            continue;
        checked++;
    }
    g_test_message("checked %u bundles", checked);
    g_assert_cmpuint(checked, >, 5000);
    g_rand_free(r);
}

/* Every row of the four instruction tables (walked from the tables, not a
 * hand list) has bundles that decode, print and reassemble to the same
 * bytes: random fields from the encodings of tpc.md §4.2, that slot alone. */
/* ld_tnsr / st_tnsr from their insn-forms.def rows (tpc.md §5.1, §5.4): the
 * tensor 0..15 or S27/S28 (SWITCHES bit 3; the vendor's assembler then
 * writes LD SRC_B 0, ST SRC_B 28), the register switches S30 / S29, S31,
 * and what Gaudi lacks (partial _low/_high, RMW of a predicate). */
static void tnsr_case(unsigned slot, unsigned opc, unsigned b, unsigned sw, unsigned val,
                      unsigned code, unsigned info, const char *text)
{
    uint8_t bytes[32];
    TpcBundle bd;
    NxFault f;
    hex_to_bytes(nop_hex, bytes);
    if (slot == TPC_SLOT_LD) {
        tpc_set_bits(bytes, TPC_B_LD_OPC, 5, opc);
        tpc_set_bits(bytes, TPC_B_LD_DEST, 8, val);
        tpc_set_bits(bytes, TPC_B_LD_SRC_A, 8, 128 + 2); /* I2 */
        tpc_set_bits(bytes, TPC_B_VPU_SRC_D, 9, b);
        tpc_set_bits(bytes, TPC_B_LD_SW, 4, sw);
    } else {
        tpc_set_bits(bytes, TPC_B_ST_OPC, 5, opc);
        tpc_set_bits(bytes, TPC_B_ST_SRC_A, 8, 128 + 3); /* I3 */
        tpc_set_bits(bytes, TPC_B_ST_SRC_B, 8, b);
        tpc_set_bits(bytes, TPC_B_VPU_SRC_C, 8, val);
        tpc_set_bits(bytes, TPC_B_ST_SW, 4, sw);
    }
    bool ok = tpc_decode_bundle(bytes, &bd, &f);
    if (code) {
        g_assert_false(ok);
        g_assert_cmpuint(f.code, ==, code);
        g_assert_cmphex(f.info, ==, info);
        return;
    }
    g_assert_true(ok);
    char *t = disas(bytes);
    g_assert_cmpstr(t, ==, text);
    g_free(t);
    g_assert_true(round_trips(bytes));
}

static void test_tnsr_rows(void)
{
    const unsigned LD = TPC_SLOT_LD, ST = TPC_SLOT_ST, ILL_OP = TPC_FAULT_ILLEGAL_OPERAND,
                   ILL_IN = TPC_FAULT_ILLEGAL_INSTRUCTION;
    const unsigned ldt = TPC_OPC_LD_ld_tnsr, ldl = TPC_OPC_LD_ld_tnsr_low,
                   ldh = TPC_OPC_LD_ld_tnsr_high, stt = TPC_OPC_ST_st_tnsr,
                   stl = TPC_OPC_ST_st_tnsr_low;
    tnsr_case(LD, ldt, 3, 0, 1, 0, 0, "ld_tnsr V1, 0x3, I2; nop; nop; nop");
    tnsr_case(LD, ldt, 0, 8, 1, 0, 0, "ld_tnsr V1, S27, I2; nop; nop; nop");
    tnsr_case(LD, ldt, 15, 1, 1, 0, 0, "ld_tnsr V1, 0xf, I2, S30; nop; nop; nop");
    tnsr_case(LD, ldh, 0, 8, 244, 0, 0, "ld_tnsr_high VP4, S27, I2; nop; nop; nop");
    /* S27 with another SRC_B, a tensor past 15: ILLEGAL_OPERAND on SRC_B */
    tnsr_case(LD, ldt, 5, 8, 1, ILL_OP, LD | 2 << 4 | 5 << 8, NULL);
    tnsr_case(LD, ldt, 0x23, 0, 1, ILL_OP, LD | 2 << 4 | 0x23 << 8, NULL);
    tnsr_case(LD, ldt, 0x10, 0, 1, ILL_OP, LD | 2 << 4 | 0x10 << 8, NULL);
    /* a later generation's switch, partial of a half load */
    tnsr_case(LD, ldt, 3, 2, 1, ILL_IN, LD | ldt << 8, NULL);
    tnsr_case(LD, ldl, 3, 1, 1, ILL_IN, LD | ldl << 8, NULL);
    /* a scalar destination */
    tnsr_case(LD, ldt, 3, 0, 64 + 1, ILL_OP, LD | 0 << 4 | 65 << 8, NULL);

    tnsr_case(ST, stt, 1, 2, 4, 0, 0, "nop; nop; nop; st_tnsr 0x1, I3, V4, S29");
    tnsr_case(ST, stt, 28, 8 | 4 | 1, 244, 0, 0, "nop; nop; nop; st_tnsr pack S28, I3, VP4, S31");
    tnsr_case(ST, stt, 1, 3, 4, 0, 0, "nop; nop; nop; st_tnsr 0x1, I3, V4, S29, S31");
    tnsr_case(ST, stl, 2, 4, 244, 0, 0, "nop; nop; nop; st_tnsr_low pack 0x2, I3, VP4");
    /* S28 with another SRC_B */
    tnsr_case(ST, stt, 0, 8, 4, ILL_OP, ST | 2 << 4 | 0 << 8, NULL);
    /* RMW of a predicate, partial of a half store */
    tnsr_case(ST, stt, 1, 2, 244, ILL_IN, ST | stt << 8, NULL);
    tnsr_case(ST, stl, 1, 1, 4, ILL_IN, ST | stl << 8, NULL);

    /* the assembler's side of the same rules */
    expect_error("ld_tnsr V1, S28, I2; nop; nop; nop\n",
                 "t.s:1:13:", "tensor must be 0..15 or S27");
    expect_error("nop; nop; nop; st_tnsr 0x10, I2, V3\n",
                 "t.s:1:24:", "tensor must be 0..15 or S28");
    expect_error("nop; nop; nop; st_tnsr 0x1, I2, VP3, S29\n",
                 "t.s:1:33:", "RMW store of a vector predicate");
    expect_error("nop; nop; nop; st_tnsr 0x1, I2, V3, S31, S29\n",
                 "t.s:1:42:", "unexpected operand 'S29'");
    expect_error("ld_tnsr_low V1, 0x1, I2, S30; nop; nop; nop\n", "t.s:1:1:", "missing feature");

    /* the tensors a kernel names (tensor-use.c): immediates, not S27/S28 */
    TpcObject obj;
    uint32_t pc = 0;
    const char *mn = NULL;
    g_assert_true(assemble("ld_tnsr V1, S27, I2; nop; nop; st_tnsr 0x4, I2, V1\n"
                           "ld_tnsr V1, 0x6, I2; nop; nop; st_tnsr S28, I2, V1\n"
                           "gen_addr AD1, 0x2, I2; nop; nop; nop\n",
                           &obj, NULL));
    g_assert_cmpint(tpc_text_max_tensor(obj.text->data, obj.text->len, &pc, &mn), ==, 6);
    g_assert_cmpuint(pc, ==, 32);
    g_assert_cmpstr(mn, ==, "ld_tnsr");
    tpc_object_free(&obj);
}

static void test_every_row_round_trips(void)
{
    static const int v8[] = {0,   1,   2,   4,   5,   6,   39,  40,  44,  64,  70,  99, 104,
                             127, 128, 131, 160, 163, 224, 230, 240, 245, 0x21, 0x41, 0x7F};
    static const int v7[] = {0, 2, 3, 4, 35, 40, 41, 48, 55, 64, 80, 96, 100, 127};
    static const struct {
        unsigned opc_lo, opc_w, nf;
        int f[7][2];
    } slot[4] = {
        {119, 5, 4, {{103, 8}, {111, 8}, {73, 9}, {183, 4}}},
        {0, 6, 5, {{6, 7}, {13, 7}, {20, 7}, {27, 4}, {36, 7}}},
        {43, 6, 7, {{49, 8}, {57, 8}, {65, 8}, {73, 9}, {82, 8}, {93, 4}, {90, 3}}},
        {140, 5, 4, {{124, 8}, {132, 8}, {65, 8}, {187, 4}}},
    };
    GRand *r = g_rand_new_with_seed(11);
    unsigned rows = 0;
    for (unsigned k = 0; k < 4; k++) {
        for (unsigned o = 0; o < (1u << slot[k].opc_w); o++) {
            const TpcInsnDesc *d = tpc_insn_desc(k, o);
            if (!d || (k == TPC_SLOT_SPU && o == TPC_OPC_LOOP))
                continue;
            unsigned ok = 0;
            for (int it = 0; it < 50000 && ok < 3; it++) {
                uint8_t b[32];
                hex_to_bytes(nop_hex, b);
                tpc_set_bits(b, slot[k].opc_lo, slot[k].opc_w, o);
                for (unsigned i = 0; i < slot[k].nf; i++) {
                    unsigned lo = (unsigned)slot[k].f[i][0], w = (unsigned)slot[k].f[i][1];
                    unsigned v;
                    /* switch-like fields are mostly clear (a form rejects bits it
                     * does not describe); register fields use real encodings */
                    if (w <= 4 || g_rand_int_range(r, 0, 4) == 0)
                        v = g_rand_boolean(r) ? 0u
                                              : (unsigned)g_rand_int_range(r, 0, 1 << (w < 4 ? w : 4));
                    else
                        v = (unsigned)(w == 7 ? v7[g_rand_int_range(r, 0, G_N_ELEMENTS(v7))]
                                              : v8[g_rand_int_range(r, 0, G_N_ELEMENTS(v8))]);
                    if (w == 4 && (lo == 27 || lo == 93)) /* OPERANDS_TYPE: 0..8 */
                        v = (unsigned)g_rand_int_range(r, 0, 9);
                    tpc_set_bits(b, lo, w, v);
                }
                ok += round_trips(b);
            }
            if (ok < 3)
                g_test_message("slot %u %s: only %u round trips", k, d->mnemonic, ok);
            g_assert_cmpuint(ok, >=, 3);
            rows++;
        }
    }
    g_test_message("%u rows round-trip", rows);
    g_rand_free(r);
}

/* mov, every slot and operand kind (insn-forms.def MOV): the fields each
 * text assembles to, from the field positions and register encodings of
 * tpc.md §4.1/§4.2 (S4 in the SPU is 4, in a load-slot field 64+4; VPn
 * 240+n; SPn 224+n (SPU 48+n); In 128+n (SPU 64+n)), and back to the same
 * text.  `mov S4, PC` is the vendor's encoding of the issue text (SPU word 0
 * 0x00400108: SRC_A repeats DEST). */
static void test_mov_variants(void)
{
    static const struct {
        const char *text;
        unsigned f[6][3]; /* lo, width, value; width 0 ends */
    } c[] = {
        {"nop; mov S4, PC; nop; nop", {{0, 32, 0x00400108}, {36, 7, 1}, {27, 4, 0}}},
        {"mov S4, PC; nop; nop; nop", {{111, 8, 68}, {103, 8, 68}, {73, 9, 0}, {183, 4, 1}}},
        {"nop; mov.i16 S2, S3; nop; nop", {{20, 7, 2}, {6, 7, 3}, {27, 4, 7}, {36, 7, 0}}},
        {"nop; mov SP1, SP2; nop; nop", {{20, 7, 49}, {6, 7, 50}, {27, 4, 6}}},
        {"nop; mov.u32 SP1, S2; nop; nop", {{20, 7, 49}, {6, 7, 2}, {27, 4, 3}}},
        {"nop; mov b00101 I2, S1; nop; nop", {{20, 7, 66}, {6, 7, 1}, {27, 4, 2}, {36, 7, 0x14}}},
        {"nop; nop; mov VP4, VP5; nop", {{82, 8, 244}, {49, 8, 245}, {57, 8, 0}, {93, 4, 2}}},
        {"nop; nop; mov VP4, S1; nop", {{82, 8, 244}, {49, 8, 65}, {57, 8, 8}, {93, 4, 3}}},
        {"nop; nop; mov 0x3 VP4, S1; nop", {{82, 8, 244}, {49, 8, 65}, {57, 8, 3}, {93, 4, 3}}},
        {"nop; nop; mov V1, V2; nop", {{82, 8, 1}, {49, 8, 2}, {93, 4, 0}}},
        {"nop; nop; mov.i8 V1, V2; nop", {{82, 8, 1}, {49, 8, 2}, {93, 4, 4}}},
        {"nop; nop; mov.bf16 V1, S2; nop", {{82, 8, 1}, {49, 8, 66}, {93, 4, 1}}},
        {"mov b00101 I2, S1; nop; nop; nop", {{111, 8, 130}, {103, 8, 65}, {73, 9, 0x14}}},
        {"mov VP4, VP5; nop; nop; nop", {{111, 8, 244}, {103, 8, 245}, {73, 9, 0}}},
        {"mov 0x3 VP4, S1; nop; nop; nop", {{111, 8, 244}, {103, 8, 65}, {73, 9, 3}}},
        {"mov.u32 SP5, S3; nop; nop; nop", {{111, 8, 229}, {103, 8, 67}, {73, 9, 0x30}}},
        {"mov.i16 S2, S3; nop; nop; nop", {{111, 8, 66}, {103, 8, 67}, {73, 9, 0x70}}},
        {"mov V1, V2; nop; nop; nop", {{111, 8, 1}, {103, 8, 2}, {73, 9, 0}}},
        {"mov.f32 V1, S2; nop; nop; nop", {{111, 8, 1}, {103, 8, 66}, {73, 9, 0x00}}},
        {"mov.i8 V1, S2; nop; nop; nop", {{111, 8, 1}, {103, 8, 66}, {73, 9, 0x40}}},
    };
    for (size_t i = 0; i < G_N_ELEMENTS(c); i++) {
        TpcObject obj;
        char *src = g_strconcat(c[i].text, "\n", NULL), *errs;
        bool ok = assemble(src, &obj, &errs);
        if (!ok)
            g_test_message("%s: %s", c[i].text, errs);
        g_assert_true(ok);
        for (unsigned k = 0; k < 6 && c[i].f[k][1]; k++) {
            unsigned got = tpc_bits(obj.text->data, c[i].f[k][0], c[i].f[k][1]);
            if (got != c[i].f[k][2])
                g_test_message("%s: bits %u+%u = 0x%x, expected 0x%x", c[i].text, c[i].f[k][0],
                               c[i].f[k][1], got, c[i].f[k][2]);
            g_assert_cmphex(got, ==, c[i].f[k][2]);
        }
        char *t = disas(obj.text->data);
        g_assert_cmpstr(t, ==, c[i].text);
        g_free(t), g_free(src), g_free(errs);
        tpc_object_free(&obj);
    }

    /* bits a mov's text cannot show are refused, not dropped */
    uint8_t b[32];
    TpcBundle bd;
    NxFault f;
    TpcObject obj;
    g_assert_true(
        assemble("nop; mov S4, PC; nop; nop\nmov.i16 S2, S3; nop; nop; nop\n", &obj, NULL));
    memcpy(b, obj.text->data, 32);
    g_assert_true(tpc_decode_bundle(b, &bd, &f));
    tpc_set_bits(b, 6, 7, 0); /* SRC_A no longer repeats DEST */
    g_assert_false(tpc_decode_bundle(b, &bd, &f));
    g_assert_cmpuint(f.code, ==, TPC_FAULT_ILLEGAL_OPERAND);
    g_assert_cmphex(f.info, ==, 1 | 1 << 4 | 0 << 8);
    memcpy(b, obj.text->data, 32);
    tpc_set_bits(b, 27, 4, 2); /* a type on a hardware-register move */
    g_assert_false(tpc_decode_bundle(b, &bd, &f));
    g_assert_cmpuint(f.code, ==, TPC_FAULT_ILLEGAL_OPERAND);
    memcpy(b, obj.text->data + 32, 32);
    g_assert_true(tpc_decode_bundle(b, &bd, &f));
    g_assert_cmpuint(bd.slot[TPC_SLOT_LD].type, ==, TPC_T_I16);
    tpc_set_bits(b, 73, 9, 0x71); /* SRC_B[3:0] beside the type */
    g_assert_false(tpc_decode_bundle(b, &bd, &f));
    g_assert_cmpuint(f.code, ==, TPC_FAULT_ILLEGAL_OPERAND);
    g_assert_cmphex(f.info, ==, 0 | 2 << 4 | 0x71 << 8);
    tpc_object_free(&obj);
    /* a VPRF section beyond 8 (all) has no spelling */
    g_assert_true(assemble("nop; nop; mov VP4, S1; nop\n", &obj, NULL));
    memcpy(b, obj.text->data, 32);
    tpc_set_bits(b, 57, 8, 9);
    g_assert_false(tpc_decode_bundle(b, &bd, &f));
    tpc_object_free(&obj);
}

static void test_jumps(void)
{
    TpcObject obj;
    const char *src = "L0:\nnop\nnop; jmpr L0, SP1; nop; nop\nnop; jmpa L0; nop; nop\n";
    g_assert_true(assemble(src, &obj, NULL));
    /* jmpr: PC-relative (-32); jmpa: absolute offset (0) */
    g_assert_cmphex(tpc_bits(obj.text->data + 32, TPC_B_IMM, 32), ==, (uint32_t)-32);
    g_assert_cmphex(tpc_bits(obj.text->data + 64, TPC_B_IMM, 32), ==, 0);
    g_assert_cmpuint(tpc_bits(obj.text->data + 32, TPC_B_SPU_SRC_A, 7), ==, 0x7f);
    tpc_object_free(&obj);
    /* numeric targets print in decimal when no symbol is there */
    g_assert_true(assemble("nop; jmpr 64; nop; nop\n", &obj, NULL));
    char *t = disas(obj.text->data);
    g_assert_cmpstr(t, ==, "nop; jmpr 64; nop; nop");
    g_free(t);
    tpc_object_free(&obj);
}

static void test_elf(void)
{
    TpcObject obj;
    g_assert_true(assemble(".globl main\nmain:\nnop\nhalt\n", &obj, NULL));
    GByteArray *e = tpc_elf32_write(&obj);
    const uint8_t *d = e->data;
    g_assert_cmpmem(d, 4,
                    "\x7f"
                    "ELF",
                    4);
    g_assert_cmpuint(d[4], ==, 1);               /* ELFCLASS32 */
    g_assert_cmpuint(d[5], ==, 1);               /* little-endian */
    g_assert_cmpuint(d[16] | d[17] << 8, ==, 1); /* ET_REL */
    g_assert_cmpuint(d[18] | d[19] << 8, ==, 3); /* EM_386 */
    char *dump = NULL;
    size_t dlen = 0;
    FILE *f = open_memstream(&dump, &dlen);
    g_assert_cmpint(tpc_objdump_buffer("k.o", d, e->len, false, false, f), ==, 0);
    fclose(f);
    g_assert_nonnull(strstr(dump, "Disassembly of section .text:\n\nmain:\n"
                                  "nop; nop; nop; nop\nnop; halt; halt; nop\n"));
    g_assert_nonnull(strstr(dump, "version: DD 12\n"));
    g_assert_nonnull(strstr(dump, "march: DW 2\n"));
    free(dump);
    /* a truncated file is an error, not a crash */
    f = open_memstream(&dump, &dlen);
    for (size_t cut = 0; cut < e->len; cut += 61)
        (void)tpc_objdump_buffer("k.o", d, cut, false, true, f);
    fclose(f);
    free(dump);
    g_byte_array_free(e, TRUE);
    tpc_object_free(&obj);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/tpc-decode/decode/example-a", test_decode_example_a);
    g_test_add_func("/tpc-decode/decode/example-b", test_decode_example_b);
    g_test_add_func("/tpc-decode/decode/example-c", test_decode_example_c);
    g_test_add_func("/tpc-decode/decode/loop", test_decode_loop);
    g_test_add_func("/tpc-decode/decode/special", test_decode_special);
    g_test_add_func("/tpc-decode/decode/faults", test_decode_faults);
    g_test_add_func("/tpc-decode/asm/examples", test_asm_examples);
    g_test_add_func("/tpc-decode/asm/loop", test_asm_loop);
    g_test_add_func("/tpc-decode/asm/roundtrip", test_asm_roundtrip);
    g_test_add_func("/tpc-decode/asm/ash-convert", test_asm_ash_and_convert_defaults);
    g_test_add_func("/tpc-decode/asm/numbers", test_numbers);
    g_test_add_func("/tpc-decode/asm/two-immediates", test_two_immediates);
    g_test_add_func("/tpc-decode/asm/errors", test_errors);
    g_test_add_func("/tpc-decode/asm/metadata", test_metadata);
    g_test_add_func("/tpc-decode/asm/jumps", test_jumps);
    g_test_add_func("/tpc-decode/asm/mov-variants", test_mov_variants);
    g_test_add_func("/tpc-decode/disas/bad-bundle", test_bad_bundle_print);
    g_test_add_func("/tpc-decode/disas/asm-property", test_disas_asm_property);
    g_test_add_func("/tpc-decode/disas/every-row", test_every_row_round_trips);
    g_test_add_func("/tpc-decode/tnsr-rows", test_tnsr_rows);
    g_test_add_func("/tpc-decode/elf", test_elf);
    return g_test_run();
}
