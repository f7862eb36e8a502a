/*
 * TPC instruction semantics (tpc.md §5, §9 items 3-16, 22-26, 29): int5
 * forms, fused MAC and wide results, permutes, rounding through ROUND_CSR,
 * local memories, VPRF loads, padding for every element size, descriptor
 * math, loop corner cases, launch errors, LFSR, gdb registers.  Bundles are
 * hand-encoded with tpc-harness.h; every expected value is derived from the
 * spec text in the comment next to it.
 */
#include "tpc-harness.h"

/* 1-D tensor t of n elements of size code ecode at pa (stride 1, dim 0 valid). */
static void vec_tensor(Machine *m, unsigned t, uint64_t pa, unsigned ecode, uint32_t n,
                       uint32_t pad)
{
    uint32_t size[5] = {n};
    int32_t stride[5] = {1};
    tensor(m, 0, t, pa, pad, ecode, 0x1, size, stride);
}

/* ld_tnsr Vv, t, I31 (I31 = 0 at launch). */
static void ld_vec(Bun *k, unsigned v, unsigned t)
{
    ld(k, 0x11, V(v), VI(31), t, 0);
}

/* §5.0.5, §9 item 25: int5 masks b11011, b10100; MOV_IRF_DIM; PRMT_INDX. */
static void test_int5(void)
{
    Machine *m = mk();
    srf(m, 0, 7, 100);
    srf(m, 0, 9, 4 | 3 << 3 | 2 << 6 | 1 << 9 | 0 << 12);
    Bun k[14];
    nops(k, 14);
    for (unsigned d = 0; d < 5; d++) {
        ld(&k[d], 0x04, VI(4), VIMM, (1u << d) << 2, 0); /* set_indx I4, 1<<d, d+1 */
        imm(&k[d], d + 1);
        spu(&k[5 + d], 0x27, 2, SI(2), SIMM, 0, (1u << d) << 2, 0, 0); /* SPU set_indx I2 (i32) */
        imm(&k[5 + d], 10 * (d + 1));
    }
    spu(&k[10], 0x02, 2, SI(5), SI(4), SI(2), 0x1B << 2, 0, 0); /* add b11011 I5, I4, I2 */
    spu(&k[11], 0x03, 2, SI(6), SS(7), SI(2), 0x14 << 2, 0, 0); /* sub b10100 I6, S7, I2 */
    spu(&k[12], 0x26, 0, SS(8), SI(4), 0, 3, 0, 0);             /* mov_irf_dim 3 S8, I4 */
    ld(&k[12], 0x03, VI(7), VI(2), VS(9), 0);                   /* prmt_indx I7, I2, S9 */
    spu(&k[13], 0x08, 2, SI(8), SS(7), 0, 0x05 << 2, 0, 0);     /* mov b00101 I8, S7 */
    TpcCpu *c = run_h(m, 0, k, 14);
    assert_done(m, 0);
    static const int32_t i5[5] = {11, 22, 0, 44, 55}, i6[5] = {0, 0, 70, 0, 50};
    static const int32_t i7[5] = {50, 40, 30, 20, 10}, i8[5] = {100, 0, 100, 0, 0};
    for (unsigned d = 0; d < 5; d++) {
        g_assert_cmpint(c->irf[4][d], ==, d + 1);
        g_assert_cmpint(c->irf[5][d], ==, i5[d]);
        g_assert_cmpint(c->irf[6][d], ==, i6[d]);
        g_assert_cmpint(c->irf[7][d], ==, i7[d]);
        g_assert_cmpint(c->irf[8][d], ==, i8[d]);
    }
    g_assert_cmpuint(c->s[8], ==, 4);
    machine_free(m);
}

/* §5.0.4 f32 MAC is fused; §1.2 MAC.bf16 acc_fp32 and MAC.i16 into pairs. */
static void test_mac(void)
{
    Machine *m = mk();
    uint16_t seq16[128];
    for (unsigned k = 0; k < 128; k++)
        seq16[k] = (uint16_t)k;
    uint16_t bfseq[128];
    for (unsigned k = 0; k < 128; k++) {
        float f = (float)k;
        uint32_t b;
        memcpy(&b, &f, 4);
        bfseq[k] = (uint16_t)(b >> 16); /* integers < 256 are exact in bf16 */
    }
    put(m, DATA, seq16, sizeof(seq16));
    put(m, DATA + 0x100, bfseq, sizeof(bfseq));
    vec_tensor(m, 0, DATA, 1, 128, 0);
    vec_tensor(m, 1, DATA + 0x100, 1, 128, 0);
    srf(m, 0, 1, 0x3F800800u); /* 1 + 2^-12 */
    srf(m, 0, 2, 0xBF800000u); /* -1 */
    srf(m, 0, 3, 0x3F800000u); /* 1.0f */
    Bun k[8];
    nops(k, 8);
    vpu(&k[0], 0x08, 0, V(1), VS(1), 0, 0, 0, 0);
    ld_vec(&k[0], 2, 0);                            /* V2 = i16 0..127 */
    vpu(&k[1], 0x08, 0, V(3), VS(2), 0, 0, 0, 0);   /* V3 = -1 */
    ld_vec(&k[1], 4, 1);                            /* V4 = bf16 0..127 */
    vpu(&k[2], 0x00, 0, V(3), V(1), V(1), 0, 0, 0); /* mac.f32 V3, V1, V1 */
    vpu(&k[3], 0x08, 1, V(5), VIMM, 0, 0, 0, 0);    /* mov.bf16 V5, 2.0 */
    imm(&k[3], 0x4000);
    vpu(&k[4], 0x08, 0, V(6), VS(3), 0, 0, 0, 0);   /* V6 = 1.0f, V7 = 0 */
    vpu(&k[5], 0x00, 1, V(6), V(5), V(4), 4, 0, 0); /* mac.bf16 acc_fp32 D6, V5, V4 */
    vpu(&k[6], 0x08, 7, V(10), VIMM, 0, 0, 0, 0);   /* mov.i16 V10, -3 */
    imm(&k[6], 0xFFFD);
    vpu(&k[7], 0x00, 7, V(8), V(10), V(2), 0, 0, 0); /* mac.i16 D8, V10, V2 */
    TpcCpu *c = run_h(m, 0, k, 8);
    assert_done(m, 0);
    double a = 1.0 + ldexp(1.0, -12);
    float fused = (float)(a * a - 1.0); /* exact: 2^-11 + 2^-24 */
    for (unsigned i = 0; i < 64; i++) {
        g_assert_cmpfloat(f32(vlane32(c, 3, i)), ==, fused);
        g_assert_cmpfloat(f32(vlane32(c, 6, i)), ==, 1.0f + 2.0f * (float)(2 * i));
        g_assert_cmpfloat(f32(vlane32(c, 7, i)), ==, 2.0f * (float)(2 * i + 1));
        g_assert_cmpint((int32_t)vlane32(c, 8, i), ==, -3 * (int32_t)(2 * i));
        g_assert_cmpint((int32_t)vlane32(c, 9, i), ==, -3 * (int32_t)(2 * i + 1));
    }
    machine_free(m);
}

/* §5.3.3 SHUFFLE, §5.3.4 PACK/UNPACK, §5.3.5 MOV_DG / MOV_G (§9 item 24). */
static void test_permutes(void)
{
    Machine *m = mk();
    uint32_t ctl[64];
    for (unsigned k = 0; k < 64; k++)
        ctl[k] = (k & 1) ? 0 : (0x80u | 0x20u | ((k + 1) % 8)); /* group 1 */
    put(m, DATA, ctl, sizeof(ctl));
    vec_tensor(m, 0, DATA, 2, 64, 0);
    srf(m, 0, 1, 0x77777777u);
    Bun k[12];
    nops(k, 12);
    ld_vec(&k[0], 2, 0); /* V2 = control */
    for (unsigned v = 3; v <= 8; v++) {
        vpu(&k[v - 2], 0x08, 2, V(v), VS(1), 0, 0, 0, 0); /* V3..V8 = 0x77.. */
    }
    vpu(&k[7], 0x2C, 2, V(3), 42, V(2), 0, 0, 0);      /* shuffle.i32 V3, LANE_ID_32, V2 */
    vpu(&k[8], 0x2D, 7, V(4), 43, 1, 0, 0, 0);         /* pack.i16 group 1 stride 2 */
    vpu(&k[9], 0x2E, 4, V(5), 44, 1 | 2 | 4, 0, 0, 0); /* unpack.i8 g1 s4 h1 */
    vpu(&k[10], 0x31, 0, V(6), 44, 1 | 2 << 2 | 1 << 4, 0, 0, 0); /* mov_dg s1 d2 lg */
    imm(&k[10], 0xFFFF);
    vpu(&k[11], 0x31, 0, V(7), 44, 3, 1, 0, 0); /* mov_dg.all sdg0=3, weg0=2 */
    vpu_cd(&k[11], 2, 0);
    imm(&k[11], 0xFFFFFFFFu);
    Bun k2[1];
    nops(k2, 1);
    vpu(&k2[0], 0x32, 0, V(8), 44, 1 | 1 << 2, 0, 0, 0); /* mov_g g_en=1 dg_en=1, 0x20 */
    imm(&k2[0], 0x20);
    Bun all[13];
    memcpy(all, k, sizeof(k));
    all[12] = k2[0];
    TpcCpu *c = run_h(m, 0, all, 13);
    assert_done(m, 0);
    for (unsigned k = 0; k < 64; k++) {
        /* dual group q = k/16; group 1 of q starts at lane 16q + 8 */
        uint32_t exp = (k & 1) ? 0x77777777u : 16 * (k / 16) + 8 + (k + 1) % 8;
        g_assert_cmphex(vlane32(c, 3, k), ==, exp);
    }
    for (unsigned e = 0; e < 128; e++) {
        /* pack: element 32q + 16 + i = source element 32q + 2i */
        unsigned q = e / 32, r = e % 32;
        uint16_t exp = r >= 16 ? (uint16_t)(32 * q + 2 * (r - 16)) : 0x7777;
        g_assert_cmphex(vlane16(c, 4, e), ==, exp);
    }
    for (unsigned b = 0; b < 256; b++) {
        unsigned q = b / 64, r = b % 64, i = r / 4;
        uint8_t src = (uint8_t)(64 * q + 48 + i);
        uint8_t exp = (r % 4 == 0) ? src : (src >= 128 ? 0xFF : 0);
        g_assert_cmphex(c->v[5][b], ==, exp);
        uint8_t dg = (b >= 128 && b < 144) ? (uint8_t)(b - 64) : 0x77;
        g_assert_cmphex(c->v[6][b], ==, dg);
        uint8_t all_ = (b >= 32 && b < 64) ? (uint8_t)(b + 192) : 0x77;
        g_assert_cmphex(c->v[7][b], ==, all_);
        g_assert_cmphex(c->v[8][b], ==, b == 5 ? 37 : 0x77);
    }
    machine_free(m);
}

/* §5.0.4 / §2.1: CONVERT with rm = default follows ROUND_CSR (§9 item 12). */
static void convert_csr(uint32_t csr, uint32_t src, int32_t expect)
{
    Machine *m = mk();
    kv(m, 0, 0x8FC, csr);
    srf(m, 0, 1, src);
    Bun k[2];
    nops(k, 2);
    vpu(&k[0], 0x08, 0, V(1), VS(1), 0, 0, 0, 0);
    vpu(&k[1], 0x16, 0, V(2), V(1), 2, 5, 0, 0); /* target int32, default */
    spu(&k[1], 0x16, 0, SS(2), SS(1), 2, 5, 0, 0);
    TpcCpu *c = run_h(m, 0, k, 2);
    assert_done(m, 0);
    g_assert_cmpint((int32_t)vlane32(c, 2, 17), ==, expect);
    g_assert_cmpint((int32_t)c->s[2], ==, expect);
    machine_free(m);
}

static void test_round_csr(void)
{
    convert_csr(1, 0x402CCCCDu, 2);          /* 2.7, rz */
    convert_csr(5, 0x402CCCCDu, 3);          /* 2.7, 5 -> rhne */
    convert_csr(0, 0x40200000u, 2);          /* 2.5, rhne: tie to even */
    convert_csr(6, 0x40200000u, 3);          /* 2.5, rhaz */
    convert_csr(6, 0xC0200000u, -3);         /* -2.5, rhaz */
    convert_csr(2, 0xC0200000u, -2);         /* -2.5, ru */
    convert_csr(3, 0xC0200000u, -3);         /* -2.5, rd */
    convert_csr(7, 0x7FC00000u, 0);          /* NaN -> 0 */
    convert_csr(0, 0x4F800000u, 0x7FFFFFFF); /* 2^32 saturates */
}

/* §9 item 12: st_l mmio to DIM_0_SIZE changes the next bundle's bounds, not
 * the same bundle's. */
static void test_mmio_descriptor(void)
{
    Machine *m = mk();
    uint32_t in[64];
    for (unsigned i = 0; i < 64; i++)
        in[i] = i + 1;
    put(m, DATA, in, sizeof(in));
    vec_tensor(m, 0, DATA, 2, 64, 0xFFFFFFFFu);
    srf(m, 0, 1, 4);
    Bun k[2];
    nops(k, 2);
    st(&k[0], 0x05, VIMM, 1, VS(1), 0); /* st_l mmio 0x410, S1 */
    imm(&k[0], 0x410);
    ld_vec(&k[0], 2, 0); /* same bundle: size still 64 */
    ld_vec(&k[1], 3, 0); /* next bundle: size 4 */
    TpcCpu *c = run_h(m, 0, k, 2);
    assert_done(m, 0);
    for (unsigned i = 0; i < 64; i++) {
        g_assert_cmpuint(vlane32(c, 2, i), ==, i + 1);
        g_assert_cmphex(vlane32(c, 3, i), ==, i < 4 ? i + 1 : 0xFFFFFFFFu);
    }
    g_assert_cmpuint(rd32(m, TPC_PA(0) + 0x410), ==, 4);
    machine_free(m);
}

/* §5.1/§5.4 LD_L_V_LOW/HIGH and ST_L_V_HIGH; per-byte VPRF gating of loads
 * (§10 item 6); VPRF images in VLM. */
static void test_vlm(void)
{
    Machine *m = mk();
    srf(m, 0, 4, 0x0000FFFFu);
    Bun k[7];
    nops(k, 7);
    vpu(&k[0], 0x08, 2, V(1), 42, 0, 0, 0, 0); /* V1 = lane id 32 */
    st(&k[1], 0x09, VIMM, 0, V(1), 0);         /* st_l_v_high 0x100, V1 */
    imm(&k[1], 0x100);
    ld(&k[2], 0x0F, V(2), VIMM, 0, 0); /* ld_l_v_low V2, 0x100 */
    imm(&k[2], 0x100);
    vpu(&k[3], 0x08, 3, VVP(2), VS(4), 0, 0, 0, 0); /* mov VP2, S4 flavor 0 */
    vpu(&k[4], 0x08, 4, V(4), 44, 0, 0, 0, 0);      /* V4 = lane id 8 */
    st(&k[5], 0x07, VIMM, 0, V(4), 0);              /* st_l_v 0x200, V4 */
    imm(&k[5], 0x200);
    ld(&k[6], 0x0E, V(5), VIMM, 0, 0); /* ld_l_v V5, 0x200, VP2 */
    imm(&k[6], 0x200);
    ldst_pred(&k[6], 16 | 2, 0);
    TpcCpu *c = run_h(m, 0, k, 7);
    assert_done(m, 0);
    for (unsigned i = 0; i < 64; i++)
        g_assert_cmpuint(vlane32(c, 2, i), ==, i < 32 ? i + 32 : 0);
    for (unsigned b = 0; b < 256; b++)
        g_assert_cmpuint(c->v[5][b], ==, b < 16 ? b : 0);
    machine_free(m);
}

/* §3.3 VPRF tensor access: 32-byte image, E = 1; §9 item 7: padding for
 * E = 1 and E = 2 is the low E bytes of the replicated value. */
static void test_vp_tensor_padding(void)
{
    Machine *m = mk();
    uint8_t img[40];
    for (unsigned i = 0; i < 40; i++)
        img[i] = (uint8_t)(0x11 * (i % 16));
    put(m, DATA, img, sizeof(img));
    vec_tensor(m, 0, DATA, 0, 40, 0);           /* u8, 40 elements */
    vec_tensor(m, 1, DATA + 0x100, 0, 40, 0);   /* u8 output */
    vec_tensor(m, 2, DATA, 0, 10, 0xABABABABu); /* u8, 10 elements */
    vec_tensor(m, 3, DATA, 1, 3, 0x12341234u);  /* i16, 3 elements */
    Bun k[3];
    nops(k, 3);
    ld(&k[0], 0x11, VVP(3), VI(31), 0, 0); /* ld_tnsr VP3, 0, I31 */
    ld_vec(&k[1], 4, 2);
    st(&k[1], 0x0B, VI(31), 1, VVP(3), 0); /* st_tnsr 1, I31, VP3 */
    ld_vec(&k[2], 5, 3);
    TpcCpu *c = run_h(m, 0, k, 3);
    assert_done(m, 0);
    g_assert_cmpmem(c->vp[3], 32, img, 32);
    uint8_t out[40];
    get(m, DATA + 0x100, out, sizeof(out));
    g_assert_cmpmem(out, 32, img, 32);
    for (unsigned i = 32; i < 40; i++)
        g_assert_cmpuint(out[i], ==, 0);
    for (unsigned b = 0; b < 256; b++)
        g_assert_cmphex(c->v[4][b], ==, b < 10 ? img[b] : 0xAB);
    for (unsigned e = 0; e < 128; e++) {
        uint16_t exp = 0x1234;
        if (e < 3)
            memcpy(&exp, img + 2 * e, 2);
        g_assert_cmphex(vlane16(c, 5, e), ==, exp);
    }
    machine_free(m);
}

/* §3.2, §9 item 9: strides in elements x E, dims outside VALID_DIM_MASK
 * ignored, GEN_ADDR on an out-of-bounds coordinate gives the raw address. */
static void test_descriptor_math(void)
{
    Machine *m = mk();
    uint32_t size[5] = {4, 4, 4};
    int32_t stride[5] = {2, 100, 1000};
    tensor(m, 0, 5, DATA, 0, 1, 0x5, size, stride); /* i16, dims 0 and 2 valid */
    Bun k[5];
    nops(k, 5);
    ld(&k[0], 0x04, VI(2), VIMM, 0x7 << 2, 0); /* I2 = (7, 7, 7) */
    imm(&k[0], 7);
    ld(&k[1], 0x00, VAD(1), VI(2), 5, 0);      /* gen_addr AD1, 5, I2 */
    ld(&k[2], 0x04, VI(3), VIMM, 0x1 << 2, 0); /* I3 = (-3, 0, 0) */
    imm(&k[2], (uint32_t)-3);
    st(&k[3], 0x00, VI(3), 5, VAD(2), 0); /* store-slot gen_addr AD2, 5, I3 */
    TpcCpu *c = run_h(m, 0, k, 5);
    assert_done(m, 0);
    g_assert_cmphex(c->ad[1].pa, ==, DATA + 2 * (7 * 2 + 7 * 1000));
    g_assert_cmpuint(c->ad[1].esize, ==, 2);
    g_assert_cmpuint(c->ad[1].tensor, ==, 5);
    g_assert_cmphex(c->ad[2].pa, ==, DATA - 2 * 3 * 2);
    machine_free(m);
}

/* §6.2/§6.3: a jump out of a loop pops its frame; a body write to the
 * iterator changes the sequence; REPEAT_AT_MOST_ONCE; §9 items 15, 16, 20. */
static void test_loop_corners(void)
{
    Machine *m = mk();
    Bun k[12];
    nops(k, 12);
    /* 0: loop 0, 10, 1, <, body [64, 128] */
    k[0] = loopb(0, 10, 1, 2, 128, true, true, true);
    spu(&k[2], 0x02, 2, SS(2), SS(2), SIMM, 0, 0, 0); /* 64: add S2, S2, 1 */
    imm(&k[2], 1);
    spu(&k[3], 0x0E, 2, SSP(1), SS(32), SIMM, 0, 0, 0); /* 96: cmp_geq SP1, S32, 2 */
    imm(&k[3], 2);
    spu(&k[4], 0x24, 0, 0, SIMM, 0, 0, 1, 0); /* 128: jmpr +32 (to 160), SP1 */
    imm(&k[4], 32);
    /* 160: loop 7, 8, 1, < -> one iteration at depth 0 again */
    k[5] = loopb(7, 8, 1, 2, 64, true, true, true);
    spu(&k[7], 0x02, 2, SS(3), SS(3), SIMM, 0, 0, 0); /* 224: add S3, S3, 1 */
    imm(&k[7], 1);
    /* 256: loop 0, 10, 1, < body [320, 320] writes S32 += 2 */
    k[8] = loopb(0, 10, 1, 2, 64, true, true, true);
    spu(&k[10], 0x02, 2, SS(32), SS(32), SIMM, 0, 0, 0);
    imm(&k[10], 2);
    spu(&k[11], 0x02, 2, SS(4), SS(4), SS(32), 0, 0, 0); /* sum of S32 after loop */
    TpcCpu *c = run_h(m, 0, k, 12);
    assert_done(m, 0);
    g_assert_cmpuint(c->s[2], ==, 3); /* iterations 0, 1, 2 */
    g_assert_cmpuint(c->s[3], ==, 1);
    g_assert_cmpuint(c->s[33], ==, 0); /* the second loop ran at depth 0 */
    /* third loop: 0 -> 2 -> 3 -> 5 -> 6 -> 8 -> 9 -> 11 -> 12: exits at 12 */
    g_assert_cmpuint(c->s[32], ==, 12);
    g_assert_cmpuint(c->s[4], ==, 12);
    machine_free(m);

    m = mk();
    Bun o[4];
    nops(o, 4);
    o[0] = loopb(0, 10, 1, 2, 64, true, true, true);
    setb(&o[0], 29, 1, 1); /* REPEAT_AT_MOST_ONCE */
    spu(&o[2], 0x02, 2, SS(2), SS(2), SIMM, 0, 0, 0);
    imm(&o[2], 1);
    c = run_h(m, 0, o, 4);
    assert_done(m, 0);
    g_assert_cmpuint(c->s[2], ==, 1);
    machine_free(m);

    /* loop with register operands: loop S5, S6, S7, != */
    m = mk();
    srf(m, 0, 5, 100);
    srf(m, 0, 6, 40);
    srf(m, 0, 7, (uint32_t)-20);
    Bun r[4];
    nops(r, 4);
    r[0] = loopb(5, 6, 7, 5, 64, false, false, false);
    spu(&r[2], 0x02, 2, SS(2), SS(2), SIMM, 0, 0, 0);
    imm(&r[2], 1);
    c = run_h(m, 0, r, 4);
    assert_done(m, 0);
    g_assert_cmpuint(c->s[2], ==, 3); /* 100, 80, 60 */
    g_assert_cmpuint(c->s[32], ==, 40);
    machine_free(m);
}

/* §6.6, §7.2: decode/ILLEGAL_INSTRUCTION faults; PC_RANGE with KERNEL_SIZE and
 * for a misaligned KERNEL_BASE; EXECUTE while RUNNING is ignored. */
static void test_launch_faults(void)
{
    Machine *m = mk();
    Bun k[5];
    nops(k, 5);
    k[0] = loopb(0, 1, 1, 2, 64, true, true, true);
    k[1] = halt(); /* HALT in the delay slot */
    run(m, 0, k, 5);
    assert_fault(m, 0, 3, 32, 1 | 0x20 << 8, 0);
    machine_free(m);

    m = mk();
    nops(k, 5);
    k[0] = loopb(0, 1, 1, 2, 32, true, true, true); /* END_PC_OFFSET < 64 */
    run(m, 0, k, 5);
    assert_fault(m, 0, 3, 0, 4 | 0x22 << 8, 0);
    machine_free(m);

    /* KERNEL_SIZE 64: the third bundle is out of range */
    m = mk();
    nops(k, 5);
    put(m, KBASE, k, sizeof(k));
    kv(m, 0, 0x788, (uint32_t)KBASE);
    kv(m, 0, 0x78C, 0);
    wr32(m, TPC_PA(0) + 0x1028, 64);
    wr32(m, TPC_PA(0) + 0x1008, 1);
    g_assert_cmpint(m->tpc[0]->state, ==, CPU_RUNNING);
    g_assert_cmphex(status(m, 0), ==, 1);
    /* EXECUTE while RUNNING: ignored (no restart, PC unchanged) */
    m->tpc[0]->ops->run(m->tpc[0], 1);
    wr32(m, TPC_PA(0) + 0x1008, 1);
    g_assert_cmpuint(tpc_cpu(m->tpc[0])->pc, ==, 32);
    while (m->tpc[0]->state == CPU_RUNNING)
        m->tpc[0]->ops->run(m->tpc[0], 64);
    assert_fault(m, 0, 11, 64, 0, KBASE + 64);
    g_assert_cmpuint(rd32(m, TPC_PA(0) + 0x1018), ==, 2);
    machine_free(m);

    /* misaligned KERNEL_BASE: PC_RANGE at EXECUTE, FAULT_PC 0 */
    m = mk();
    kv(m, 0, 0x788, (uint32_t)KBASE + 16);
    wr32(m, TPC_PA(0) + 0x1008, 1);
    g_assert_cmpint(m->tpc[0]->state, ==, CPU_FAULTED);
    assert_fault(m, 0, 11, 0, 0, KBASE + 16);
    g_assert_cmpuint(rd32(m, TPC_PA(0) + 0x1018), ==, 0);
    machine_free(m);
}

/* §1, §6.1 LFSR: reads in one bundle see one value, the generator advances
 * once after the bundle (xorshift 13/17/5), seeds per §1. */
static uint32_t xs(uint32_t x)
{
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return x;
}

static void test_lfsr(void)
{
    Machine *m = mk();
    Bun k[2];
    nops(k, 2);
    vpu(&k[0], 0x02, 2, V(1), 40, VIMM, 0, 0, 0);  /* add.i32 V1, LFSR, 0 */
    spu(&k[0], 0x02, 2, SS(1), 40, SIMM, 0, 0, 0); /* add.i32 S1, S_LFSR, 0 */
    ld(&k[0], 0x05, V(2), 40, 2 << 4, 0);          /* LD mov V2, LFSR (same bundle) */
    imm(&k[0], 0);
    vpu(&k[1], 0x02, 2, V(3), 40, VIMM, 0, 0, 0);
    spu(&k[1], 0x02, 2, SS(2), 41, SIMM, 0, 0, 0); /* S_LFSR_NO_CHANGE */
    imm(&k[1], 0);
    TpcCpu *c = run_h(m, 0, k, 2);
    assert_done(m, 0);
    g_assert_cmphex(c->s[1], ==, 0x2545F491u);
    g_assert_cmphex(c->s[2], ==, xs(0x2545F491u));
    for (unsigned i = 0; i < 64; i++) {
        uint32_t seed = 0x9E3779B9u * (i + 1);
        g_assert_cmphex(vlane32(c, 1, i), ==, seed);
        g_assert_cmphex(vlane32(c, 2, i), ==, seed);
        g_assert_cmphex(vlane32(c, 3, i), ==, xs(seed));
    }
    machine_free(m);
}

/* gdb register numbering documented in target/tpc/cpu.h. */
static void test_gdb_regs(void)
{
    Machine *m = mk();
    srf(m, 0, 5, 0x12345678u);
    Bun k[1];
    nops(k, 1);
    TpcCpu *c = run_h(m, 0, k, 1);
    NxCpu *cpu = &c->parent;
    uint8_t buf[256];
    g_assert_cmpuint(cpu->ops->gdb_read_reg(cpu, TPC_GDB_S + 5, buf, sizeof(buf)), ==, 4);
    uint32_t v;
    memcpy(&v, buf, 4);
    g_assert_cmphex(v, ==, 0x12345678u);
    g_assert_cmpuint(cpu->ops->gdb_read_reg(cpu, TPC_GDB_SP + 0, buf, sizeof(buf)), ==, 1);
    g_assert_cmpuint(buf[0], ==, 1);
    /* SP0 is the constant 1: a write of 0 is taken and ignored */
    buf[0] = 0;
    g_assert_cmpuint(cpu->ops->gdb_write_reg(cpu, TPC_GDB_SP + 0, buf, 1), ==, 1);
    buf[0] = 0x77;
    g_assert_cmpuint(cpu->ops->gdb_read_reg(cpu, TPC_GDB_SP + 0, buf, sizeof(buf)), ==, 1);
    g_assert_cmpuint(buf[0], ==, 1);
    memset(buf, 0x5A, 256);
    g_assert_cmpuint(cpu->ops->gdb_write_reg(cpu, TPC_GDB_V + 3, buf, 256), ==, 256);
    g_assert_cmpuint(c->v[3][200], ==, 0x5A);
    g_assert_cmpuint(cpu->ops->gdb_write_reg(cpu, TPC_GDB_VP + 0, buf, 32), ==, 32);
    g_assert_cmpuint(cpu->ops->gdb_read_reg(cpu, TPC_GDB_VP + 0, buf, sizeof(buf)), ==, 32);
    g_assert_cmpuint(buf[7], ==, 0xFF); /* VP0 reads all ones */
    g_assert_cmpuint(cpu->ops->gdb_read_reg(cpu, TPC_GDB_I + 1, buf, sizeof(buf)), ==, 20);
    g_assert_cmpuint(cpu->ops->gdb_read_reg(cpu, TPC_GDB_PC, buf, sizeof(buf)), ==, 4);
    memcpy(&v, buf, 4);
    g_assert_cmpuint(v, ==, 32); /* the HALT bundle */
    g_assert_cmpuint(cpu->ops->gdb_read_reg(cpu, TPC_GDB_NREGS, buf, sizeof(buf)), ==, 0);
    machine_free(m);
}

/* §4.6, §6.6: decode faults ignore the predicate and report slot | opc. */
static void decode_fault(void (*enc)(Bun *), uint32_t code, uint32_t info)
{
    Machine *m = mk();
    Bun k[5] = {nop(), nop(), halt(), nop(), nop()};
    enc(&k[1]);
    TpcCpu *c = run(m, 0, k, 5);
    assert_fault(m, 0, code, 32, info, 0);
    g_assert_cmpuint(rd32(m, TPC_PA(0) + 0x1038), ==, 1);   /* only bundle 0 retired */
    g_assert_cmpuint(rd32(m, TPC_PA(0) + 0x958), ==, code); /* TPC_INTR_CAUSE */
    (void)c;
    machine_free(m);
}

static void enc_bad_spu(Bun *k)
{
    spu(k, 0x30, 2, SS(1), SS(1), SS(1), 0, 3, 1); /* opcode 0x30: not defined */
}

static void enc_unimp_vpu(Bun *k)
{
    /* GET_LUT_ENTRY_AND_INTERVAL_START log D2, V1, 0x1: no public description
     * of the log variant's interval selection (docs/tpc-lut.rst); FAULT_INFO
     * bits 31:16 carry the variant */
    vpu(k, 0x2f, 0, V(2), V(1), 0x81, 0, 0, 0);
}

static void enc_bad_type(Bun *k)
{
    vpu(k, 0x02, 9, V(1), V(1), V(1), 0, 0, 0); /* type 9 */
}

static void test_decode_faults(void)
{
    decode_fault(enc_bad_spu, 1, 1 | 0x30 << 8);
    decode_fault(enc_unimp_vpu, 4, 2 | 0x2f << 8 | 4 << 16);
    Machine *m = mk();
    Bun k[5] = {nop(), nop(), halt(), nop(), nop()};
    enc_bad_type(&k[1]);
    run(m, 0, k, 5);
    g_assert_cmphex(status(m, 0), ==, 3 | 2 << 8); /* ILLEGAL_OPERAND */
    machine_free(m);
}

/* §5.0.4: bf16 rounds once, to nearest even. */
static void test_bf16_rounding(void)
{
    Machine *m = mk();
    srf(m, 0, 1, 0x3F80);
    srf(m, 0, 2, 0x3B80); /* 2^-8 */
    srf(m, 0, 3, 0x3F81);
    Bun k[6] = {nop(), nop(), halt(), nop(), nop(), nop()};
    spu(&k[0], 0x02, 1, SS(4), SS(1), SS(2), 0, 0, 0); /* 1 + 2^-8: tie -> 1.0 */
    spu(&k[1], 0x02, 1, SS(5), SS(3), SS(2), 0, 0, 0); /* 0x3F81 + 2^-8 -> 0x3F82 */
    vpu(&k[0], 0x08, 1, V(1), VS(3), 0, 0, 0, 0);      /* mov.bf16 V1, S3 */
    vpu(&k[1], 0x02, 1, V(2), V(1), VS(2), 0, 0, 0);   /* add.bf16 V2, V1, S2 */
    TpcCpu *c = run(m, 0, k, 6);
    assert_done(m, 0);
    g_assert_cmphex(c->s[4], ==, 0x3F80);
    g_assert_cmphex(c->s[5], ==, 0x3F82);
    for (unsigned i = 0; i < 128; i++)
        g_assert_cmphex(vlane16(c, 2, i), ==, 0x3F82);
    machine_free(m);
}

/* Three results the vendor's tools fix (docs/tpc-isa.rst "Where nxemu
 * follows the vendor"), each worked by hand:
 *  - convert_uint32 rhne to_8 of 0xfffffedf with shift byte 0xdf (-33): a
 *    left shift by 33 of a value >= 1 saturates u8 at 255;
 *  - mac.bf16 neg with d = 0x0005 (a denormal), a = 0x2430, b = 0x3434:
 *    a*b = 0x98f78000 as f32 bits is halfway between bf16 0x98f7 and 0x98f8,
 *    and d - a*b lies just on the 0x98f7 side of it, so one rounding gives
 *    0x98f7;
 *  - ld_tnsr_high / st_tnsr_high with a VPRF: the upper 16 byte lanes of a
 *    u8 predicate image (lanes 16..31, elements at coordinate lane - 16). */
static void test_vendor_fixed_results(void)
{
    Machine *m = mk();
    srf(m, 0, 7, 0xfffffedfu);
    srf(m, 0, 12, 0xffffffdfu);
    srf(m, 0, 1, 0x0005);
    srf(m, 0, 2, 0x2430);
    srf(m, 0, 3, 0x3434);
    uint8_t img[32];
    for (unsigned i = 0; i < 32; i++)
        img[i] = (uint8_t)(0x5A ^ (7 * i));
    put(m, DATA, img, sizeof(img));
    vec_tensor(m, 0, DATA, 0, 32, 0);         /* u8, 32 elements */
    vec_tensor(m, 1, DATA + 0x100, 0, 32, 0); /* u8 output */
    Bun k[5] = {nop(), nop(), nop(), halt(), nop()};
    spu(&k[0], 0x18, 0, SS(27), SS(7), SS(12), 0, 0, 0); /* convert_uint32 rhne to_8 */
    spu(&k[1], 0x00, 1, SS(1), SS(2), SS(3), 2, 0, 0);   /* mac.bf16 neg S1, S2, S3 */
    ld(&k[0], 0x13, VVP(3), VI(31), 0, 0);               /* ld_tnsr_high VP3, 0, I31 */
    st(&k[2], 0x0D, VI(31), 1, VVP(3), 0);               /* st_tnsr_high 1, I31, VP3 */
    TpcCpu *c = run(m, 0, k, 5);
    assert_done(m, 0);
    g_assert_cmphex(c->s[27], ==, 255);
    g_assert_cmphex(c->s[1] & 0xFFFF, ==, 0x98f7);
    for (unsigned i = 0; i < 32; i++)
        g_assert_cmphex(c->vp[3][i], ==, i < 16 ? 0 : img[i - 16]);
    uint8_t out[32];
    get(m, DATA + 0x100, out, sizeof(out));
    for (unsigned i = 0; i < 32; i++)
        g_assert_cmphex(out[i], ==, i < 16 ? img[i] : 0);
    machine_free(m);
}

/* §5.4.1: RMW max in i32 and sub; dt size must match E. */
static void test_rmw_int(void)
{
    Machine *m = mk();
    uint32_t size[5] = {64};
    int32_t stride[5] = {1};
    tensor(m, 0, 0, DATA, 0, 2, 1, size, stride);
    int32_t in[64];
    for (int i = 0; i < 64; i++)
        in[i] = i - 32;
    put(m, DATA, in, sizeof(in));
    srf(m, 0, 29, 2 | 3 << 4); /* i32 max */
    Bun k[4] = {nop(), nop(), halt(), nop()};
    vpu(&k[0], 0x08, 2, V(1), VIMM, 0, 0, 0, 0);
    imm(&k[0], 0);
    st(&k[1], 0x0B, VI(2), 0, V(1), 2);
    run(m, 0, k, 4);
    assert_done(m, 0);
    int32_t out[64];
    get(m, DATA, out, sizeof(out));
    for (int i = 0; i < 64; i++)
        g_assert_cmpint(out[i], ==, i - 32 > 0 ? i - 32 : 0);
    machine_free(m);

    m = mk();
    tensor(m, 0, 0, DATA, 0, 2, 1, size, stride);
    srf(m, 0, 29, 1); /* i16 on an E = 4 tensor */
    run(m, 0, k, 4);
    assert_fault(m, 0, 3, 32, 3 | 0x0B << 8, 0);
    machine_free(m);
}

/* §10 item 16: stochastic rounding adds the low k = 16 bits of lane i's
 * LFSR state (seed 0x9E3779B9 * (i + 1)) below the bf16 LSB and truncates;
 * 1 + 2^-8 (low half 0x8000) rounds up iff those bits are >= 0x8000.  The
 * generator advances after the bundle (second CONVERT uses the next state). */
static void test_convert_sr(void)
{
    Machine *m = mk();
    srf(m, 0, 1, 0x3F808000u);
    Bun k[3];
    nops(k, 3);
    vpu(&k[0], 0x08, 0, V(1), VS(1), 0, 0, 0, 0);
    vpu(&k[1], 0x16, 0, V(2), V(1), 1 | 1 << 6, 4, 0, 0); /* bf16 single lane_sel 0, sr */
    vpu(&k[2], 0x16, 0, V(3), V(1), 1 | 1 << 6, 4, 0, 0);
    TpcCpu *c = run_h(m, 0, k, 3);
    assert_done(m, 0);
    for (unsigned i = 0; i < 64; i++) {
        uint32_t st = 0x9E3779B9u * (i + 1);
        uint16_t e1 = (st & 0xFFFF) >= 0x8000 ? 0x3F81 : 0x3F80;
        uint32_t st2 = st;
        st2 ^= st2 << 13;
        st2 ^= st2 >> 17;
        st2 ^= st2 << 5;
        uint16_t e2 = (st2 & 0xFFFF) >= 0x8000 ? 0x3F81 : 0x3F80;
        g_assert_cmphex(vlane16(c, 2, 2 * i), ==, e1);
        g_assert_cmphex(vlane16(c, 3, 2 * i), ==, e2);
    }
    machine_free(m);
}

/* machine.md §8, tpc.md §6.3: a run budget of one cycle per call gives the
 * same result as one long slice (the LOOP decision pending across calls);
 * each call retires exactly one bundle. */
static void test_budget_one(void)
{
    Machine *m = mk();
    Bun k[8];
    nops(k, 8);
    k[0] = loopb(0, 5, 1, 2, 64, true, true, true);
    spu(&k[2], 0x02, 2, SS(2), SS(2), SS(32), 0, 0, 0);
    k[3] = halt();
    put(m, KBASE, k, sizeof(k));
    kv(m, 0, 0x788, (uint32_t)KBASE);
    wr32(m, TPC_PA(0) + 0x1008, 1);
    NxCpu *cpu = m->tpc[0];
    unsigned calls = 0;
    while (cpu->state == CPU_RUNNING) {
        g_assert_cmpuint(cpu->ops->run(cpu, 1), ==, 1);
        calls++;
    }
    assert_done(m, 0);
    /* LOOP + delay + 5 body bundles + HALT */
    g_assert_cmpuint(calls, ==, 8);
    g_assert_cmpuint(tpc_cpu(cpu)->s[2], ==, 0 + 1 + 2 + 3 + 4);
    g_assert_cmpuint(rd32(m, TPC_PA(0) + 0x1018), ==, 8);
    machine_free(m);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/tpc-ops/int5", test_int5);
    g_test_add_func("/tpc-ops/mac", test_mac);
    g_test_add_func("/tpc-ops/permutes", test_permutes);
    g_test_add_func("/tpc-ops/round-csr", test_round_csr);
    g_test_add_func("/tpc-ops/mmio-descriptor", test_mmio_descriptor);
    g_test_add_func("/tpc-ops/vlm", test_vlm);
    g_test_add_func("/tpc-ops/vp-tensor-padding", test_vp_tensor_padding);
    g_test_add_func("/tpc-ops/descriptor-math", test_descriptor_math);
    g_test_add_func("/tpc-ops/loop-corners", test_loop_corners);
    g_test_add_func("/tpc-ops/launch-faults", test_launch_faults);
    g_test_add_func("/tpc-ops/lfsr", test_lfsr);
    g_test_add_func("/tpc-ops/gdb-regs", test_gdb_regs);
    g_test_add_func("/tpc-ops/decode-faults", test_decode_faults);
    g_test_add_func("/tpc-ops/bf16-rounding", test_bf16_rounding);
    g_test_add_func("/tpc-ops/rmw-int", test_rmw_int);
    g_test_add_func("/tpc-ops/budget-one", test_budget_one);
    g_test_add_func("/tpc-ops/convert-sr", test_convert_sr);
    g_test_add_func("/tpc-ops/vendor-fixed-results", test_vendor_fixed_results);
    return g_test_run();
}
