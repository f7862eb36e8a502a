/*
 * TPC core execution (tpc.md §1, §3, §6, §7.2, §9 checklist): launch, HALT,
 * predication, VLIW read-before-write, LOOP/jumps, tensors, faults.  Each
 * test builds a real machine, writes hand-encoded bundles into HBM (fields
 * from tpc.md §4.1/§4.2, or the literal bytes of the §4.5 worked examples),
 * sets the launch registers through the TPC's machine window, writes
 * EXECUTE and runs the core.  Expected values are worked out from the spec.
 */
#include "hw/nc2/board.h"
#include "tpc-harness.h"

/* ---- tests ---- */

/* §6.4, §9 item 21: HALT ends the kernel, its other slots execute, the
 * trailing NOPs are never fetched; CYCLES/BUNDLES count the HALT bundle;
 * completion semaphore incremented. */
static void test_halt(void)
{
    Machine *m = mk();
    Bun k[5] = {nop(), halt(), nop(), nop(), nop()};
    /* HALT bundle also loads: ld_l S3, 0x10 (SLM) -- LD slot executes */
    ld(&k[1], 0x0B, VS(3), VIMM, 0, 0);
    imm(&k[1], 0x10);
    kv(m, 0, 0x1000, 0x80000000u | 7); /* COMPLETION_SEM: sem 7 */
    kv(m, 0, 0x1004, 5);
    TpcCpu *c = run(m, 0, k, 5);
    assert_done(m, 0);
    g_assert_cmpuint(rd32(m, TPC_PA(0) + 0x1018), ==, 2); /* CYCLES */
    g_assert_cmpuint(rd32(m, TPC_PA(0) + 0x1038), ==, 2); /* BUNDLES */
    g_assert_cmpuint(m->board->evsem.sem[7], ==, 5);
    g_assert_cmpuint(c->s[3], ==, 0); /* SLM is zero at power-on */
    machine_free(m);
}

/* §7.2, §9 item 29: S_i from SRF_i below NUM_VALID_SRFS, I0/I1 from TID_*,
 * size 0 -> 1; SLM persists between launches. */
static void test_launch_state(void)
{
    Machine *m = mk();
    for (unsigned i = 0; i < 32; i++)
        srf(m, 0, i, 100 + i);
    kv(m, 0, 0x7B8, 3u << 2); /* NUM_VALID_SRFS = 3 */
    for (unsigned d = 0; d < 5; d++) {
        kv(m, 0, 0x790 + 8 * d, 10 * d + 1);
        kv(m, 0, 0x794 + 8 * d, d == 2 ? 0 : d + 4);
    }
    Bun k[4] = {nop(), halt(), nop(), nop()};
    /* st_l 0x20, S2: SLM[0x20] = 102 */
    st(&k[0], 0x05, VIMM, 0, VS(2), 0);
    imm(&k[0], 0x20);
    TpcCpu *c = run(m, 0, k, 4);
    assert_done(m, 0);
    /* the vector state's aligned(64) holds: -march=native uses aligned moves */
    g_assert_cmpuint((uintptr_t)c % _Alignof(TpcCpu), ==, 0);
    g_assert_cmpuint((uintptr_t)c->vlm % 64, ==, 0);
    g_assert_cmpuint(c->s[0], ==, 100);
    g_assert_cmpuint(c->s[2], ==, 102);
    g_assert_cmpuint(c->s[3], ==, 0);
    g_assert_cmpuint(c->s[31], ==, 0);
    for (unsigned d = 0; d < 5; d++) {
        g_assert_cmpint(c->irf[0][d], ==, 10 * d + 1);
        g_assert_cmpint(c->irf[1][d], ==, d == 2 ? 1 : d + 4);
    }
    /* second launch: ld_l S4, 0x20 sees the value stored by the first */
    kv(m, 0, 0x7B8, 0); /* 0 = all 32 */
    Bun k2[4] = {nop(), halt(), nop(), nop()};
    ld(&k2[0], 0x0B, VS(4), VIMM, 0, 0);
    imm(&k2[0], 0x20);
    c = run(m, 0, k2, 4);
    assert_done(m, 0);
    g_assert_cmpuint(c->s[4], ==, 102);
    g_assert_cmpuint(c->s[31], ==, 131);
    machine_free(m);
}

/* §4.5 (c) bytes: add.i32 S5, S1, 0x7b, !SP3; §9 items 1, 2. */
static void test_spu_add_polarity(void)
{
    Machine *m = mk();
    srf(m, 0, 1, 10);
    srf(m, 0, 5, 77);
    Bun k[4] = {
        hex("42 e0 5f 90 03 f8 01 00 00 00 00 00 00 00 80 0f 00 f0 81 3d 00 00 00 00 00 00 00 00 "
            "00 00 00 00"),
        halt(), nop(), nop()};
    TpcCpu *c = run(m, 0, k, 4);
    assert_done(m, 0);
    g_assert_cmpuint(c->s[5], ==, 10 + 0x7B); /* SP3 = 0, !SP3 true */

    /* same with SP3 = 1 (cmp_eq.i32 SP3, S0, S0 first): income kept */
    Bun k2[5];
    k2[0] = nop();
    spu(&k2[0], 0x09, 2, SSP(3), SS(0), SS(0), 0, 0, 0);
    k2[1] = k[0];
    k2[2] = halt();
    k2[3] = nop();
    k2[4] = nop();
    c = run(m, 0, k2, 5);
    assert_done(m, 0);
    g_assert_cmpuint(c->sp[3], ==, 1);
    g_assert_cmpuint(c->s[5], ==, 77);

    /* !SP0 never executes, SP0 always does; writes to SP0 ignored */
    Bun k3[5] = {nop(), nop(), nop(), halt(), nop()};
    spu(&k3[0], 0x02, 2, SS(6), SS(1), SIMM, 0, 0, 1); /* add S6, S1, 1, !SP0 */
    imm(&k3[0], 1);
    spu(&k3[1], 0x0A, 2, SSP(0), SS(0), SS(0), 0, 0, 0); /* cmp_neq SP0 <- 0 (ignored) */
    spu(&k3[2], 0x02, 2, SS(7), SS(1), SIMM, 0, 0, 0);   /* add S7, S1, 2 (SP0) */
    imm(&k3[2], 2);
    c = run(m, 0, k3, 5);
    assert_done(m, 0);
    g_assert_cmpuint(c->s[6], ==, 0);
    g_assert_cmpuint(c->s[7], ==, 12);
    machine_free(m);
}

/* §9 item 22: integer wrap vs saturation, f32 RNE, NaN canonical, ASH. */
static void test_spu_arith(void)
{
    Machine *m = mk();
    srf(m, 0, 1, 0x7FFFFFFFu);
    srf(m, 0, 2, 1);
    srf(m, 0, 3, 0x3F800000u); /* 1.0f */
    srf(m, 0, 4, 0x33800000u); /* 2^-24: 1 + 2^-24 is a tie -> 1.0 (RNE) */
    srf(m, 0, 5, 0x7F800000u); /* +inf */
    srf(m, 0, 6, 0xFF800000u); /* -inf */
    srf(m, 0, 7, 0xFFFFFF85u); /* -123 */
    srf(m, 0, 8, 200);         /* u8 200 */
    Bun k[9];
    for (unsigned i = 0; i < 9; i++)
        k[i] = nop();
    spu(&k[0], 0x02, 2, SS(10), SS(1), SS(2), 0, 0, 0); /* add.i32 wrap */
    spu(&k[1], 0x02, 2, SS(11), SS(1), SS(2), 1, 0, 0); /* add.i32 st */
    spu(&k[2], 0x02, 0, SS(12), SS(3), SS(4), 0, 0, 0); /* add.f32 */
    spu(&k[3], 0x02, 0, SS(13), SS(5), SS(6), 0, 0, 0); /* inf + -inf = NaN */
    spu(&k[4], 0x15, 2, SS(14), SS(7), SIMM, 1, 0, 0);  /* ash.i32 -123 >> 2 */
    imm(&k[4], (uint32_t)-2);
    spu(&k[5], 0x15, 2, SS(15), SS(7), SIMM, 3, 0, 0); /* ash rhu: (-123 + 2) >> 2 */
    imm(&k[5], (uint32_t)-2);
    spu(&k[6], 0x02, 5, SS(16), SS(8), SS(8), 0, 0, 0); /* add.u8 200+200 wrap = 144 */
    spu(&k[7], 0x02, 5, SS(17), SS(8), SS(8), 1, 0, 0); /* add.u8 st = 255 */
    k[8] = halt();
    Bun all[12];
    memcpy(all, k, sizeof(k));
    all[9] = nop();
    all[10] = nop();
    all[11] = nop();
    TpcCpu *c = run(m, 0, all, 12);
    assert_done(m, 0);
    g_assert_cmphex(c->s[10], ==, 0x80000000u);
    g_assert_cmphex(c->s[11], ==, 0x7FFFFFFFu);
    g_assert_cmphex(c->s[12], ==, 0x3F800000u);
    g_assert_cmphex(c->s[13], ==, 0x7FC00000u);
    g_assert_cmpint((int32_t)c->s[14], ==, -31); /* floor(-123/4) */
    g_assert_cmpint((int32_t)c->s[15], ==, -31); /* (-121) >> 2 = -31 */
    g_assert_cmpuint(c->s[16], ==, 144);
    g_assert_cmpuint(c->s[17], ==, 255);
    machine_free(m);
}

/* §9 item 17: the VPU reads V1's old value while the load slot writes V1;
 * the store slot stores S1's old value while the SPU writes S1. */
static void test_read_before_write(void)
{
    Machine *m = mk();
    srf(m, 0, 1, 5);
    Bun k[6] = {nop(), nop(), nop(), halt(), nop(), nop()};
    /* b0: mov.i32 V1, 3 (VPU broadcast) */
    vpu(&k[0], 0x08, 2, V(1), VIMM, 0, 0, 0, 0);
    imm(&k[0], 3);
    /* b1: st_l_v 0x100, V1 (VLM[0x100] = 3s) */
    st(&k[1], 0x07, VIMM, 0, V(1), 0);
    imm(&k[1], 0x100);
    /* b2: ld_l_v V1, 0x0 (zeros); add.i32 V2, V1, V1 (sees 3 -> 6);
     *     SPU add S1, S1, S1 (10); st_l 0x40, S1 (stores old 5) */
    ld(&k[2], 0x0E, V(1), VS(9), 0, 0); /* address S9 = 0 */
    vpu(&k[2], 0x02, 2, V(2), V(1), V(1), 0, 0, 0);
    spu(&k[2], 0x02, 2, SS(1), SS(1), SS(1), 0, 0, 0);
    st(&k[2], 0x05, VS(10), 0, VS(1), 0); /* address S10 = 0x40 */
    srf(m, 0, 9, 0);
    srf(m, 0, 10, 0x40);
    TpcCpu *c = run(m, 0, k, 6);
    assert_done(m, 0);
    g_assert_cmpuint(vlane32(c, 2, 0), ==, 6);
    g_assert_cmpuint(vlane32(c, 2, 63), ==, 6);
    g_assert_cmpuint(vlane32(c, 1, 0), ==, 0);
    g_assert_cmpuint(c->s[1], ==, 10);
    uint32_t slm;
    memcpy(&slm, c->slm + 0x40, 4);
    g_assert_cmpuint(slm, ==, 5);
    machine_free(m);
}

/* §1.1, §9 items 3, 4: VPRF lane mapping; CMP writes E bits per lane. */
static void test_vp_lanes(void)
{
    Machine *m = mk();
    Bun k[8];
    for (unsigned i = 0; i < 8; i++)
        k[i] = nop();
    /* V1 = lane id (i32 lanes 0..63); V2 = 100 */
    vpu(&k[0], 0x08, 2, V(1), 42, 0, 0, 0, 0);
    ld(&k[0], 0x05, V(2), VIMM, 2 << 4, 0); /* ld-slot mov.i32 V2, 100 */
    imm(&k[0], 100);
    /* VP1 = (lane_id < 4) as i32: bits 0..15 set */
    vpu(&k[1], 0x0B, 2, VVP(1), V(1), VIMM, 0, 0, 0);
    imm(&k[1], 4);
    /* VP2 = odd bits only: mov VP2, S4 with flavor 8 (all sections), S4 = 0xAAAAAAAA */
    vpu(&k[2], 0x08, 3, VVP(2), VS(4), 8, 0, 0, 0);
    /* add.i32 V3, V1, V2, VP1: lanes 0..3 = i + 100, others keep 0 */
    vpu(&k[3], 0x02, 2, V(3), V(1), V(2), 0, 16 | 1, 0);
    /* add.i32 V4, V1, V2, VP2: bit 4i is even -> no lane runs */
    vpu(&k[4], 0x02, 2, V(4), V(1), V(2), 0, 16 | 2, 0);
    /* add.i32 V5, V1, V2, !VP1: lanes 4..63 */
    vpu(&k[5], 0x02, 2, V(5), V(1), V(2), 0, 16 | 1, 1);
    /* cmp_less.i16 VP3, V_LANE_ID_16, 3: lanes 0..2 of 2 bytes -> bits 0..5 */
    vpu(&k[6], 0x0B, 7, VVP(3), 43, VIMM, 0, 0, 0);
    imm(&k[6], 3);
    k[7] = halt();
    srf(m, 0, 4, 0xAAAAAAAAu);
    Bun all[10];
    memcpy(all, k, sizeof(k));
    all[8] = nop();
    all[9] = nop();
    TpcCpu *c = run(m, 0, all, 10);
    assert_done(m, 0);
    g_assert_cmphex(c->vp[1][0], ==, 0xFF);
    g_assert_cmphex(c->vp[1][1], ==, 0xFF);
    g_assert_cmphex(c->vp[1][2], ==, 0x00);
    g_assert_cmphex(c->vp[2][5], ==, 0xAA);
    for (unsigned i = 0; i < 64; i++) {
        g_assert_cmpuint(vlane32(c, 3, i), ==, i < 4 ? i + 100 : 0);
        g_assert_cmpuint(vlane32(c, 4, i), ==, 0);
        g_assert_cmpuint(vlane32(c, 5, i), ==, i < 4 ? 0 : i + 100);
    }
    g_assert_cmphex(c->vp[3][0], ==, 0x3F);
    g_assert_cmphex(c->vp[3][1], ==, 0x00);
    machine_free(m);
}

/* §4.5 (d) bytes: loop S1, 0x10, -2, >=, End1, SP3; §6.3, §9 items 14, 15. */
static void run_loop_d(bool sp3, uint32_t start, uint32_t *iters, uint32_t *delay, uint32_t *s32)
{
    Machine *m = mk();
    srf(m, 0, 1, start);
    Bun k[8];
    k[0] = nop();
    if (sp3)
        spu(&k[0], 0x09, 2, SSP(3), SS(0), SS(0), 0, 0, 0);
    k[1] = hex("62 00 e2 1b 03 01 00 00 e0 ff ff ff 0f 04 10 00 00 00 00 00 00 00 00 00 00 00 00 "
               "00 00 00 00 00");
    k[2] = nop(); /* delay slot: add S3, S3, 1 */
    spu(&k[2], 0x02, 2, SS(3), SS(3), SIMM, 0, 0, 0);
    imm(&k[2], 1);
    k[3] = nop(); /* body: add S2, S2, 1 */
    spu(&k[3], 0x02, 2, SS(2), SS(2), SIMM, 0, 0, 0);
    imm(&k[3], 1);
    k[4] = halt();
    k[5] = nop();
    k[6] = nop();
    k[7] = nop();
    TpcCpu *c = run(m, 0, k, 8);
    assert_done(m, 0);
    *iters = c->s[2];
    *delay = c->s[3];
    *s32 = c->s[32];
    machine_free(m);
}

static void test_loop_example(void)
{
    uint32_t it, dl, s32;
    /* start 20, >= 16, step -2: 20, 18, 16 -> 3 iterations, final S32 = 14 */
    run_loop_d(true, 20, &it, &dl, &s32);
    g_assert_cmpuint(it, ==, 3);
    g_assert_cmpuint(dl, ==, 1);
    g_assert_cmpint((int32_t)s32, ==, 14);
    /* step not dividing the range: 21, 19, 17 -> 3 iterations, 15 */
    run_loop_d(true, 21, &it, &dl, &s32);
    g_assert_cmpuint(it, ==, 3);
    g_assert_cmpint((int32_t)s32, ==, 15);
    /* zero-trip: start 15 < 16: body skipped, delay slot once, S32 = start */
    run_loop_d(true, 15, &it, &dl, &s32);
    g_assert_cmpuint(it, ==, 0);
    g_assert_cmpuint(dl, ==, 1);
    g_assert_cmpuint(s32, ==, 15);
    /* predicate false: skipped, delay slot once */
    run_loop_d(false, 20, &it, &dl, &s32);
    g_assert_cmpuint(it, ==, 0);
    g_assert_cmpuint(dl, ==, 1);
}

/* §9 item 14: every compare mode with immediates. */
static void test_loop_compare(void)
{
    static const struct {
        unsigned cmp;
        int32_t start, bound, step;
        uint32_t iters;
        int32_t final;
    } cases[] = {
        {0, 10, 0, -3, 4, -2}, /* >  : 10 7 4 1 */
        {1, 10, 1, -3, 4, -2}, /* >= : 10 7 4 1 */
        {2, 0, 10, 4, 3, 12},  /* <  : 0 4 8 */
        {3, 0, 8, 4, 3, 12},   /* <= : 0 4 8 */
        {4, 5, 5, 1, 1, 6},    /* == : 5 */
        {5, 0, 6, 2, 3, 6},    /* != : 0 2 4 */
    };
    for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
        Machine *m = mk();
        Bun k[7];
        k[0] = loopb((uint32_t)cases[i].start, (uint32_t)cases[i].bound, (uint32_t)cases[i].step,
                     cases[i].cmp, 64, true, true, true);
        k[1] = nop();
        k[2] = nop();
        spu(&k[2], 0x02, 2, SS(2), SS(2), SIMM, 0, 0, 0);
        imm(&k[2], 1);
        k[3] = halt();
        k[4] = nop();
        k[5] = nop();
        k[6] = nop();
        TpcCpu *c = run(m, 0, k, 7);
        assert_done(m, 0);
        g_assert_cmpuint(c->s[2], ==, cases[i].iters);
        g_assert_cmpint((int32_t)c->s[32], ==, cases[i].final);
        machine_free(m);
    }
}

/* §9 item 16: nested loops sharing their last bundle, S32/S33 iterators;
 * a fifth level faults LOOP_DEPTH with FAULT_INFO 4. */
static void test_loop_nested(void)
{
    Machine *m = mk();
    /* 0: loop 0, 3, 1, <  -> body [64, 160], end 160 (offset 160)
     * 32: delay
     * 64: loop 0, 2, 1, < -> body [128, 160] (offset 96)
     * 96: delay
     * 128: add S2, S2, 1
     * 160: add S4, S4, S33 (shared end)
     * 192: halt */
    Bun k[10];
    k[0] = loopb(0, 3, 1, 2, 160, true, true, true);
    k[1] = nop();
    k[2] = loopb(0, 2, 1, 2, 96, true, true, true);
    k[3] = nop();
    k[4] = nop();
    spu(&k[4], 0x02, 2, SS(2), SS(2), SIMM, 0, 0, 0);
    imm(&k[4], 1);
    k[5] = nop();
    spu(&k[5], 0x02, 2, SS(4), SS(4), SS(33), 0, 0, 0);
    k[6] = halt();
    k[7] = nop();
    k[8] = nop();
    k[9] = nop();
    TpcCpu *c = run(m, 0, k, 10);
    assert_done(m, 0);
    g_assert_cmpuint(c->s[2], ==, 6);     /* 3 x 2 */
    g_assert_cmpuint(c->s[4], ==, 3 * 1); /* sum of S33 = 0 + 1 per outer */
    g_assert_cmpuint(c->s[32], ==, 3);
    g_assert_cmpuint(c->s[33], ==, 2);
    machine_free(m);

    /* five nested levels */
    m = mk();
    Bun d[16];
    for (unsigned i = 0; i < 5; i++) {
        /* LOOP at 64i, delay at 64i+32; all bodies end at 64*5 */
        d[2 * i] = loopb(0, 1, 1, 2, 64 * 5 - 64 * i, true, true, true);
        d[2 * i + 1] = nop();
    }
    d[10] = nop();
    d[11] = halt();
    for (unsigned i = 12; i < 16; i++)
        d[i] = nop();
    run(m, 0, d, 16);
    assert_fault(m, 0, 10, 64 * 4, 4, 0);
    machine_free(m);
}

/* §6.2, §9 item 20: JMPR forward / backward, not taken, misaligned. */
static void test_jumps(void)
{
    Machine *m = mk();
    /* 0: add S2, S2, 1
     * 32: cmp_less.i32 SP1, S2, 3 ; (SPU)
     * 64: jmpr -64, SP1   (back to 0 while S2 < 3)
     * 96: jmpr +64        (skip 128)
     * 128: add S3, S3, 1  (skipped)
     * 160: halt */
    Bun k[9];
    for (unsigned i = 0; i < 9; i++)
        k[i] = nop();
    spu(&k[0], 0x02, 2, SS(2), SS(2), SIMM, 0, 0, 0);
    imm(&k[0], 1);
    spu(&k[1], 0x0B, 2, SSP(1), SS(2), SIMM, 0, 0, 0);
    imm(&k[1], 3);
    spu(&k[2], 0x24, 0, 0, SIMM, 0, 0, 1, 0);
    imm(&k[2], (uint32_t)-64);
    spu(&k[3], 0x24, 0, 0, SIMM, 0, 0, 0, 0);
    imm(&k[3], 64);
    spu(&k[4], 0x02, 2, SS(3), SS(3), SIMM, 0, 0, 0);
    imm(&k[4], 1);
    k[5] = halt();
    TpcCpu *c = run(m, 0, k, 9);
    assert_done(m, 0);
    g_assert_cmpuint(c->s[2], ==, 3);
    g_assert_cmpuint(c->s[3], ==, 0);
    /* bundles: 3 rounds of (0, 32, 64) = 9, then 96, 160 = 11 */
    g_assert_cmpuint(rd32(m, TPC_PA(0) + 0x1038), ==, 11);
    machine_free(m);

    m = mk();
    Bun j[5] = {nop(), nop(), halt(), nop(), nop()};
    spu(&j[1], 0x24, 0, 0, SIMM, 0, 0, 0, 0);
    imm(&j[1], 48);
    run(m, 0, j, 5);
    assert_fault(m, 0, 5, 32, 0, 80);
    machine_free(m);
}

/* §3, §9 items 7, 8, 9: dim-0 padding, other-dim padding, store culling. */
static void test_tensor_oob(void)
{
    Machine *m = mk();
    /* tensor 0: i32, 2-D, size {10, 2}, stride {1, 10}; padding 0xDEAD */
    uint32_t size[5] = {10, 2};
    int32_t stride[5] = {1, 10};
    tensor(m, 0, 0, DATA, 0xDEAD, 2, 0x3, size, stride);
    /* tensor 1: output, same shape */
    tensor(m, 0, 1, DATA + 0x1000, 0, 2, 0x3, size, stride);
    uint32_t in[20];
    for (unsigned i = 0; i < 20; i++)
        in[i] = 1000 + i;
    put(m, DATA, in, sizeof(in));
    uint32_t fill[80];
    for (unsigned i = 0; i < 80; i++)
        fill[i] = 0x55555555u;
    put(m, DATA + 0x1000, fill, sizeof(fill));
    /* I2 = (-2, 1): lanes 0,1 pad (dim0 < 0), lanes 2..11 = row 1, rest pad
     * I3 = (0, 2): dim 1 out of bounds -> all padding, store culled */
    Bun k[8];
    for (unsigned i = 0; i < 8; i++)
        k[i] = nop();
    ld(&k[0], 0x04, VI(2), VIMM, 0x1 << 2, 0); /* set_indx I2, b00001, -2 */
    imm(&k[0], (uint32_t)-2);
    st(&k[0], 0x04, VIMM + 0, 0x2 << 2, VI(2), 0); /* set_indx I2, b00010, ... (same IMM!) */
    /* IMM shared: use a separate bundle instead */
    k[0] = nop();
    ld(&k[0], 0x04, VI(2), VIMM, 0x1 << 2, 0);
    imm(&k[0], (uint32_t)-2);
    ld(&k[1], 0x04, VI(2), VIMM, 0x2 << 2, 0);
    imm(&k[1], 1);
    ld(&k[2], 0x04, VI(3), VIMM, 0x2 << 2, 0);
    imm(&k[2], 2);
    ld(&k[3], 0x11, V(1), VI(2), 0, 0); /* ld_tnsr V1, 0, I2 */
    ld(&k[4], 0x11, V(2), VI(3), 0, 0); /* ld_tnsr V2, 0, I3 */
    st(&k[4], 0x0B, VI(2), 1, V(1), 0); /* st_tnsr 1, I2, V1 */
    st(&k[5], 0x0B, VI(3), 1, V(1), 0); /* culled */
    k[6] = halt();
    Bun all[10];
    memcpy(all, k, sizeof(k));
    all[7] = nop();
    all[8] = nop();
    all[9] = nop();
    TpcCpu *c = run(m, 0, all, 10);
    assert_done(m, 0);
    for (unsigned i = 0; i < 64; i++) {
        uint32_t exp = (i >= 2 && i < 12) ? 1000 + 10 + (i - 2) : 0xDEAD;
        g_assert_cmphex(vlane32(c, 1, i), ==, exp);
        g_assert_cmphex(vlane32(c, 2, i), ==, 0xDEAD);
    }
    /* b4 stored V1 (row 1 with padding lanes) back to row 1 of tensor 1:
     * lanes 0, 1 (dim 0 < 0) and 12..63 (dim 0 >= 10) culled */
    uint32_t out[80];
    get(m, DATA + 0x1000, out, sizeof(out));
    for (unsigned i = 0; i < 80; i++) {
        uint32_t exp = (i >= 10 && i < 20) ? 1000 + i : 0x55555555u;
        g_assert_cmphex(out[i], ==, exp);
    }
    machine_free(m);
}

/* §3.3, §9 items 6, 10: PARTIAL loads and stores, LOW/HIGH halves. */
static void test_tensor_partial_halves(void)
{
    Machine *m = mk();
    uint32_t size[5] = {256};
    int32_t stride[5] = {1};
    tensor(m, 0, 0, DATA, 0, 2, 0x1, size, stride);          /* i32 in */
    tensor(m, 0, 1, DATA + 0x1000, 0, 2, 0x1, size, stride); /* i32 out */
    uint32_t in[256];
    for (unsigned i = 0; i < 256; i++)
        in[i] = i * 3;
    put(m, DATA, in, sizeof(in));
    srf(m, 0, 30, (5 << 8) | 3);   /* load lanes 5..8 */
    srf(m, 0, 31, (60 << 8) | 10); /* store lanes 60..63 (clipped) */
    Bun k[9];
    for (unsigned i = 0; i < 9; i++)
        k[i] = nop();
    vpu(&k[0], 0x08, 2, V(1), VIMM, 0, 0, 0, 0); /* V1 = 7 */
    imm(&k[0], 7);
    vpu(&k[1], 0x08, 2, V(2), VIMM, 0, 0, 0, 0); /* V2 = 9 */
    imm(&k[1], 9);
    ld(&k[2], 0x11, V(1), VI(4), 0, 1); /* ld_tnsr V1, 0, I4, S30 (I4 = 0) */
    ld(&k[3], 0x12, V(2), VI(5), 0, 0); /* ld_tnsr_low V2, 0, I5 (I5[0] = 32) */
    ld(&k[4], 0x13, V(3), VI(4), 0, 0); /* ld_tnsr_high V3, 0, I4 */
    st(&k[5], 0x0B, VI(4), 1, V(1), 1); /* st_tnsr 1, I4, V1, S31 */
    st(&k[6], 0x0D, VI(6), 1, V(2), 0); /* st_tnsr_high 1, I6, V2 (I6[0] = 100) */
    k[7] = halt();
    Bun all[11];
    memcpy(all, k, sizeof(k));
    all[8] = nop();
    all[9] = nop();
    all[10] = nop();
    /* I5, I6 via a preceding set_indx bundle */
    Bun pre[2] = {nop(), nop()};
    ld(&pre[0], 0x04, VI(5), VIMM, 1 << 2, 0);
    imm(&pre[0], 32);
    ld(&pre[1], 0x04, VI(6), VIMM, 1 << 2, 0);
    imm(&pre[1], 100);
    Bun prog[13];
    memcpy(prog, pre, sizeof(pre));
    memcpy(prog + 2, all, sizeof(all));
    uint32_t fill[256];
    for (unsigned i = 0; i < 256; i++)
        fill[i] = 0xEEEEEEEEu;
    put(m, DATA + 0x1000, fill, sizeof(fill));
    TpcCpu *c = run(m, 0, prog, 13);
    assert_done(m, 0);
    for (unsigned i = 0; i < 64; i++) {
        g_assert_cmpuint(vlane32(c, 1, i), ==, (i >= 5 && i <= 8) ? i * 3 : 7);
        /* low: lanes 0..31 <- elements 32..63, lanes 32..63 keep 9 */
        g_assert_cmpuint(vlane32(c, 2, i), ==, i < 32 ? (32 + i) * 3 : 9);
        /* high: lanes 32..63 <- elements 0..31 */
        g_assert_cmpuint(vlane32(c, 3, i), ==, i < 32 ? 0 : (i - 32) * 3);
    }
    uint32_t out[256];
    get(m, DATA + 0x1000, out, sizeof(out));
    for (unsigned i = 0; i < 256; i++) {
        uint32_t exp = 0xEEEEEEEEu;
        if (i >= 60 && i <= 63)
            exp = 7; /* V1 lanes 60..63 */
        if (i >= 100 && i < 132)
            exp = 9; /* V2 high half lanes 32..63 -> elements 100..131 */
        g_assert_cmphex(out[i], ==, exp);
    }
    machine_free(m);
}

/* §9 items 11, 12: LD_G broadcast via GEN_ADDR; ld_l mmio reads the
 * descriptor; ld_l and ld_l mmio at the same address differ. */
static void test_ld_g_mmio(void)
{
    Machine *m = mk();
    uint32_t size[5] = {16, 4};
    int32_t stride[5] = {1, 16};
    tensor(m, 0, 2, DATA, 0, 1, 0x3, size, stride); /* i16 */
    uint16_t in[64];
    for (unsigned i = 0; i < 64; i++)
        in[i] = (uint16_t)(0x100 + i);
    put(m, DATA, in, sizeof(in));
    Bun k[8];
    for (unsigned i = 0; i < 8; i++)
        k[i] = nop();
    ld(&k[0], 0x04, VI(2), VIMM, 0x3 << 2, 0); /* I2 = (3, 3) */
    imm(&k[0], 3);
    ld(&k[1], 0x00, VAD(1), VI(2), 2, 0); /* gen_addr AD1, 2, I2 */
    ld(&k[2], 0x0C, V(4), VAD(1), 0, 0);  /* ld_g V4, AD1 */
    ld(&k[3], 0x0C, VS(5), VAD(1), 0, 0); /* ld_g S5, AD1 */
    ld(&k[4], 0x0B, VS(6), VIMM, 1, 0);   /* ld_l mmio S6, 0x400 + 0x38*2 + 0x10 */
    imm(&k[4], 0x400 + 0x38 * 2 + 0x10);
    ld(&k[5], 0x0B, VS(7), VIMM, 0, 0); /* ld_l S7, 0x90 (SLM, zero) */
    imm(&k[5], 0x90);
    k[6] = halt();
    Bun all[10];
    memcpy(all, k, sizeof(k));
    all[7] = nop();
    all[8] = nop();
    all[9] = nop();
    TpcCpu *c = run(m, 0, all, 10);
    assert_done(m, 0);
    uint16_t e = 0x100 + 3 * 16 + 3;
    g_assert_cmphex(c->ad[1].pa, ==, DATA + 2 * (3 * 16 + 3));
    for (unsigned i = 0; i < 128; i++) {
        uint16_t x;
        memcpy(&x, &c->v[4][2 * i], 2);
        g_assert_cmphex(x, ==, e);
    }
    g_assert_cmphex(c->s[5], ==, e);
    g_assert_cmpuint(c->s[6], ==, 16);
    g_assert_cmpuint(c->s[7], ==, 0);
    machine_free(m);
}

/* §6.6, §9 item 27: SLM_RANGE, VLM misalignment, GLOBAL_FAULT, TENSOR_CONFIG;
 * the faulting bundle has no effect; fault line format. */
static void test_faults(void)
{
    Machine *m = mk();
    Bun k[4] = {nop(), nop(), halt(), nop()};
    spu(&k[0], 0x02, 2, SS(2), SS(2), SIMM, 0, 0, 0);
    imm(&k[0], 0x400);
    ld(&k[1], 0x0B, VS(3), VIMM, 0, 0); /* ld_l S3, 0x400: beyond 1 KiB */
    spu(&k[1], 0x02, 2, SS(4), SS(2), SS(2), 0, 0, 0);
    imm(&k[1], 0x400);
    TpcCpu *c = run(m, 0, k, 4);
    assert_fault(m, 0, 6, 32, 0, 0x400);
    g_assert_cmpuint(c->s[4], ==, 0); /* the SPU slot of the faulting bundle had no effect */
    g_assert_cmpint(c->parent.state, ==, CPU_FAULTED);
    g_assert_true(m->stop);
    GString *line = g_string_new(NULL);
    c->parent.ops->fault_line(&c->parent, line);
    g_assert_cmpstr(line->str, ==,
                    "nxemu: fault: tpc=0 code=SLM_RANGE(6) info=0x00000000 pc=0x00000020 "
                    "addr=0x0000000000000400");
    g_string_free(line, TRUE);
    g_assert_cmpint(c->parent.ops->fault_signal(&c->parent), ==, 11);
    machine_free(m);

    /* ld_l_v at 0x80: misaligned */
    m = mk();
    Bun v[4] = {nop(), halt(), nop(), nop()};
    ld(&v[0], 0x0E, V(1), VIMM, 0, 0);
    imm(&v[0], 0x80);
    run(m, 0, v, 4);
    assert_fault(m, 0, 5, 0, 0, 0x80);
    machine_free(m);

    /* ld_tnsr from a tensor in an unmapped hole: GLOBAL_FAULT at lane 0's PA;
     * a false predicate suppresses it */
    m = mk();
    uint32_t size[5] = {64};
    int32_t stride[5] = {1};
    tensor(m, 0, 3, 0x1000000000ull, 0, 2, 1, size, stride);
    tensor(m, 0, 4, DATA, 0, 3, 1, size, stride); /* DATA_TYPE 3 */
    Bun g[5] = {nop(), nop(), halt(), nop(), nop()};
    ld(&g[0], 0x11, V(1), VI(2), 3, 0);
    ldst_pred(&g[0], 2, 0); /* SP2 = 0: not executed */
    ld(&g[1], 0x11, V(1), VI(2), 3, 0);
    run(m, 0, g, 5);
    assert_fault(m, 0, 8, 32, 0, 0x1000000000ull);
    machine_free(m);

    m = mk();
    tensor(m, 0, 4, DATA, 0, 3, 1, size, stride);
    Bun t[4] = {nop(), halt(), nop(), nop()};
    ld(&t[0], 0x11, V(1), VI(2), 4, 0);
    run(m, 0, t, 4);
    assert_fault(m, 0, 9, 0, 4, 0);
    machine_free(m);
}

/* §5.3.1, §1.2, §9 item 23: CONVERT f32 -> bf16 lane_sel, bf16 -> f32 pair,
 * f32 -> i32 rz; MUL.i32 low/high pair. */
static void test_convert_wide(void)
{
    Machine *m = mk();
    srf(m, 0, 1, 0x3FC00000u); /* 1.5f */
    srf(m, 0, 2, 0xC0200000u); /* -2.5f */
    srf(m, 0, 3, 0x10000);     /* 65536 */
    Bun k[9];
    for (unsigned i = 0; i < 9; i++)
        k[i] = nop();
    vpu(&k[0], 0x08, 0, V(1), VS(1), 0, 0, 0, 0); /* V1 = 1.5 */
    vpu(&k[1], 0x08, 0, V(2), VS(2), 0, 0, 0, 0); /* V2 = -2.5 */
    /* convert.f32 lane_sel=1 single bf16: V3 element 2i+1 = bf16(V1 lane i) */
    vpu(&k[2], 0x16, 0, V(3), V(1), 1 | (1 << 4) | (1 << 6), 0, 0, 0);
    /* convert.f32 target int32 rz: V4 = -2 */
    vpu(&k[3], 0x16, 0, V(4), V(2), 2, 1, 0, 0);
    /* convert.f32 target int32 rhne: -2.5 -> -2 (tie to even) */
    vpu(&k[4], 0x16, 0, V(5), V(2), 2, 0, 0, 0);
    /* convert.bf16 -> f32 into pair D6: V6 lane i = elem 2i (0 in V3),
     * V7 lane i = elem 2i+1 (1.5) */
    vpu(&k[5], 0x16, 1, V(6), V(3), 0, 0, 0, 0);
    /* mul.i32 D8, V9, V9 where V9 = 65536: low 0, high 1 */
    vpu(&k[6], 0x08, 2, V(9), VS(3), 0, 0, 0, 0);
    vpu(&k[7], 0x01, 2, V(8), V(9), V(9), 0, 0, 0);
    k[8] = halt();
    Bun all[11];
    memcpy(all, k, sizeof(k));
    all[9] = nop();
    all[10] = nop();
    TpcCpu *c = run(m, 0, all, 11);
    assert_done(m, 0);
    for (unsigned i = 0; i < 64; i++) {
        uint16_t lo, hi;
        memcpy(&lo, &c->v[3][4 * i], 2);
        memcpy(&hi, &c->v[3][4 * i + 2], 2);
        g_assert_cmphex(lo, ==, 0);
        g_assert_cmphex(hi, ==, 0x3FC0);
        g_assert_cmpint((int32_t)vlane32(c, 4, i), ==, -2);
        g_assert_cmpint((int32_t)vlane32(c, 5, i), ==, -2);
        g_assert_cmpfloat(f32(vlane32(c, 6, i)), ==, 0.0f);
        g_assert_cmpfloat(f32(vlane32(c, 7, i)), ==, 1.5f);
        g_assert_cmphex(vlane32(c, 8, i), ==, 0);
        g_assert_cmphex(vlane32(c, 9, i), ==, 1);
    }
    machine_free(m);
}

/* §9 item 26: RMW add in f32, ASO increments SEMAPHORE; §9 item 18 warning. */
static void test_rmw_aso(void)
{
    Machine *m = mk();
    uint32_t size[5] = {64};
    int32_t stride[5] = {1};
    tensor(m, 0, 0, DATA, 0, 2, 1, size, stride);
    float in[64];
    for (unsigned i = 0; i < 64; i++)
        in[i] = (float)i;
    put(m, DATA, in, sizeof(in));
    srf(m, 0, 1, 0x3F000000u); /* 0.5f */
    srf(m, 0, 29, 7 | 0 << 4); /* f32 add */
    Bun k[5] = {nop(), nop(), halt(), nop(), nop()};
    vpu(&k[0], 0x08, 0, V(1), VS(1), 0, 0, 0, 0);
    st(&k[1], 0x0B, VI(2), 0, V(1), 2); /* st_tnsr rmw 0, I2, V1, S29 */
    st(&k[2], 0x0A, 0, 0, 0, 0);        /* aso (in the HALT bundle) */
    TpcCpu *c = run(m, 0, k, 5);
    assert_done(m, 0);
    float out[64];
    get(m, DATA, out, sizeof(out));
    for (unsigned i = 0; i < 64; i++)
        g_assert_cmpfloat(out[i], ==, (float)i + 0.5f);
    g_assert_cmpuint(rd32(m, TPC_PA(0) + 0x908), ==, 1);
    (void)c;
    machine_free(m);
}

/* §6.1, §9 item 18: two slots write S1: the later slot wins; strict faults. */
static void test_conflict(void)
{
    Machine *m = mk();
    Bun k[4] = {nop(), halt(), nop(), nop()};
    ld(&k[0], 0x05, VS(1), VIMM, 2 << 4, 0);          /* LD mov.i32 S1, 9 */
    spu(&k[0], 0x02, 2, SS(1), SS(0), SIMM, 0, 0, 0); /* SPU add S1, S0, 9 */
    imm(&k[0], 9);
    srf(m, 0, 0, 1);
    TpcCpu *c = run(m, 0, k, 4);
    assert_done(m, 0);
    g_assert_cmpuint(c->s[1], ==, 10); /* SPU (later) wins */
    c->strict = true;
    run(m, 0, k, 4);
    assert_fault(m, 0, 12, 0, 64 + 1, 0);
    machine_free(m);
}

/* §5.3 SEL / SEL2: V4 = lane < 8 ? V5 : V6; D10 = {lane > 60 ? V5 : V6,
 * lane > 60 ? lane : 60}. */
static void test_sel(void)
{
    Machine *m = mk();
    Bun k[6] = {nop(), nop(), nop(), halt(), nop(), nop()};
    vpu(&k[0], 0x08, 2, V(5), VIMM, 0, 0, 0, 0);
    imm(&k[0], 1);
    vpu(&k[1], 0x08, 2, V(6), VIMM, 0, 0, 0, 0);
    imm(&k[1], 2);
    vpu(&k[2], 0x24, 2, V(4), 42, VIMM, 0, 0, 0); /* sel_less.i32 */
    vpu_cd(&k[2], V(5), V(6));
    imm(&k[2], 8);
    vpu(&k[3], 0x2A, 2, V(10), 42, VIMM, 0, 0, 0); /* sel2_grt.i32 in the HALT bundle */
    vpu_cd(&k[3], V(5), V(6));
    setb(&k[3], 0, 6, 0x20); /* HALT stays in the SPU */
    imm(&k[3], 60);
    TpcCpu *c = run(m, 0, k, 6);
    assert_done(m, 0);
    for (unsigned i = 0; i < 64; i++) {
        g_assert_cmpuint(vlane32(c, 4, i), ==, i < 8 ? 1 : 2);
        g_assert_cmpuint(vlane32(c, 10, i), ==, i > 60 ? 1 : 2);
        g_assert_cmpuint(vlane32(c, 11, i), ==, i > 60 ? i : 60);
    }
    machine_free(m);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/tpc-exec/halt", test_halt);
    g_test_add_func("/tpc-exec/launch-state", test_launch_state);
    g_test_add_func("/tpc-exec/spu-add-polarity", test_spu_add_polarity);
    g_test_add_func("/tpc-exec/spu-arith", test_spu_arith);
    g_test_add_func("/tpc-exec/read-before-write", test_read_before_write);
    g_test_add_func("/tpc-exec/vp-lanes", test_vp_lanes);
    g_test_add_func("/tpc-exec/loop-example", test_loop_example);
    g_test_add_func("/tpc-exec/loop-compare", test_loop_compare);
    g_test_add_func("/tpc-exec/loop-nested", test_loop_nested);
    g_test_add_func("/tpc-exec/jumps", test_jumps);
    g_test_add_func("/tpc-exec/tensor-oob", test_tensor_oob);
    g_test_add_func("/tpc-exec/tensor-partial-halves", test_tensor_partial_halves);
    g_test_add_func("/tpc-exec/ld-g-mmio", test_ld_g_mmio);
    g_test_add_func("/tpc-exec/faults", test_faults);
    g_test_add_func("/tpc-exec/convert-wide", test_convert_wide);
    g_test_add_func("/tpc-exec/rmw-aso", test_rmw_aso);
    g_test_add_func("/tpc-exec/conflict", test_conflict);
    g_test_add_func("/tpc-exec/sel", test_sel);
    return g_test_run();
}
