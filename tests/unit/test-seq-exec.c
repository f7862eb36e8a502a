/*
 * Sequencer execution (sequencer.md §2-§8, machine.md §2, §5, §9): records
 * are built byte by byte from the spec tables (not with the assembler), run
 * on a real board through the scheduler, and the architectural state is
 * checked against values worked out from the spec by hand.
 */
#include <string.h>

#include <glib.h>

#include "nxemu/machine.h"
#include "nxemu/sched.h"
#include "target/seq/cpu.h"

#define CODE     0x01000000ull
#define DATA     0x02000000ull
#define TESTDEV  0x2805000000ull
#define SBUF     0x2000000000ull
#define NX_LOCAL 0x100000ull

/* ---- machine fixture ---------------------------------------------------- */

static Machine *mk(unsigned nr_seq)
{
    MachineConfig cfg = {
        .hbm_size = 64ull << 20,
        .nr_seq = nr_seq,
        .nr_tpc = 0,
        .tlb_entries = 4,
        .quantum = 64,
        .nr_dma = 2,
        .dma_queue_depth = 4,
        .dma_bytes_per_cycle = 64,
        .dma_latency = 32,
    };
    GError *err = NULL;
    Machine *m = machine_new(&cfg, NULL, 0, &err);
    g_assert_no_error(err);
    g_assert_nonnull(m);
    g_assert_nonnull(m->seq[0]);
    return m;
}

static void put(Machine *m, uint64_t pa, const void *buf, uint64_t len)
{
    uint64_t bad;
    g_assert_cmpint(
        as_rw_bytes(m->as, pa, (void *)buf, len, true, MEMTXATTRS(MEM_REQ_LOADER, 0), &bad), ==,
        MEMTX_OK);
}

static uint64_t get(Machine *m, uint64_t pa, unsigned size)
{
    uint64_t v = 0, bad;
    uint8_t b[8] = {0};
    g_assert_cmpint(as_rw_bytes(m->as, pa, b, size, false, MEMTXATTRS(MEM_REQ_DEBUG, 0), &bad), ==,
                    MEMTX_OK);
    for (unsigned i = 0; i < size; i++)
        v |= (uint64_t)b[i] << (8 * i);
    return v;
}

static void put32(Machine *m, uint64_t pa, uint32_t v)
{
    uint8_t b[4] = {v, v >> 8, v >> 16, v >> 24};
    put(m, pa, b, 4);
}

static void start(Machine *m, unsigned core, uint64_t pc)
{
    m->nx[core].entry = pc;
    m->nx[core].pc = pc;
    m->seq[core]->state = CPU_RUNNING;
}

static int run(Machine *m)
{
    return sched_run(m);
}

/* A program under construction: records appended from `at`. */
typedef struct Prog {
    Machine *m;
    uint64_t at;
} Prog;

static uint64_t emit(Prog *p, const uint8_t rec[64])
{
    uint64_t a = p->at;
    put(p->m, a, rec, 64);
    p->at += 64;
    return a;
}

/* ---- record builders (byte layouts of sequencer.md §8) ------------------ */

static void le(uint8_t *p, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void hdr(uint8_t r[64], uint8_t opc)
{
    memset(r, 0, 64);
    r[0] = opc;
    r[1] = 0x10;
}

static void ev(uint8_t r[64], uint8_t wmode, uint8_t widx, uint8_t umode, uint8_t uidx, uint32_t v)
{
    r[4] = wmode;
    r[5] = widx;
    r[6] = umode;
    r[7] = uidx;
    le(r + 8, v, 4);
}

static void r_halt(uint8_t r[64])
{
    hdr(r, 0xA1);
}

static void r_nop(uint8_t r[64])
{
    hdr(r, 0xA4);
}

/* mov.u32 {dst}, {imm} */
static void r_movi(uint8_t r[64], uint8_t dst, uint32_t imm)
{
    hdr(r, 0xA7);
    r[12] = 1;
    r[13] = 0x9;
    r[14] = 1;
    r[24] = dst;
    le(r + 32, imm, 4);
}

/* mov.u32 {dst}, {src} (src may be 128/129) */
static void r_movr(uint8_t r[64], uint8_t dst, uint8_t src)
{
    hdr(r, 0xA7);
    r[12] = 1;
    r[13] = 0x9;
    r[14] = 0;
    r[16] = src;
    r[24] = dst;
}

/* 32-bit ALU: dst = s0 op (imm ? immediate : s1) */
static void r_alu(uint8_t r[64], uint8_t op, uint8_t dt, uint8_t dst, uint8_t s0, uint8_t s1,
                  bool use_imm, uint64_t imm)
{
    hdr(r, 0xA8);
    r[12] = op;
    r[13] = dt;
    r[14] = use_imm;
    r[16] = s0;
    if (!use_imm)
        r[18] = s1;
    r[20] = dst;
    if (use_imm)
        le(r + 24, imm, 8);
}

/* 64-bit ALU on pairs (hi:lo). */
static void r_alu64(uint8_t r[64], uint8_t op, uint8_t dt, uint8_t dlo, uint8_t dhi, uint8_t alo,
                    uint8_t ahi, bool use_imm, uint64_t imm, uint8_t blo, uint8_t bhi)
{
    hdr(r, 0xA8);
    r[12] = op;
    r[13] = dt;
    r[14] = use_imm;
    r[16] = alo;
    r[17] = ahi;
    if (!use_imm) {
        r[18] = blo;
        r[19] = bhi;
    } else {
        le(r + 24, imm, 8);
    }
    r[20] = dlo;
    r[21] = dhi;
}

/* bCC.T lhs, imm, REL_IMM offset (cmp 1..6 with immediate; 0 = always) */
static void r_bimm(uint8_t r[64], uint8_t cmp, uint8_t dt, uint8_t lhs, uint32_t rhs, int32_t rel)
{
    hdr(r, 0xA9);
    r[12] = cmp;
    r[13] = cmp ? dt : 0;
    r[14] = 3;
    if (cmp)
        le(r + 16, rhs, 4);
    r[32] = cmp ? lhs : 0;
    le(r + 48, (uint32_t)rel, 4);
}

/* write.u32 [imm addr], imm */
static void r_write(uint8_t r[64], uint64_t addr, uint32_t v)
{
    hdr(r, 0xA5);
    r[12] = 1;
    r[13] = 0x9;
    le(r + 16, addr, 8);
    le(r + 24, v, 4);
}

/* ADDR8 forms */
static void a8_imm(uint8_t *a, uint64_t v)
{
    le(a, v, 8);
}
static void a8_reg(uint8_t *a, uint8_t lo, uint8_t hi)
{
    memset(a, 0, 8);
    a[0] = lo;
    a[1] = hi;
    a[7] = 0x80;
}

/* mem_2d (tld 0xAA / tst 0xAB) with register data */
static void r_m2d(uint8_t r[64], uint8_t opc, uint8_t dt, uint8_t n0, uint8_t n1, int32_t s0,
                  int32_t s1, const uint8_t *regs, unsigned nregs)
{
    hdr(r, opc);
    r[12] = dt;
    r[14] = n0;
    r[15] = n1;
    le(r + 24, (uint32_t)s0, 4);
    le(r + 28, (uint32_t)s1, 4);
    for (unsigned i = 0; i < nregs; i++)
        r[32 + i] = regs[i];
}

static Machine *run_single(const uint8_t (*recs)[64], unsigned n, int *status)
{
    Machine *m = mk(1);
    Prog p = {m, CODE};
    for (unsigned i = 0; i < n; i++)
        emit(&p, recs[i]);
    start(m, 0, CODE);
    *status = run(m);
    return m;
}

static void fault_line(Machine *m, GString *g)
{
    m->seq[0]->ops->fault_line(m->seq[0], g);
}

/* ---- ALU ---------------------------------------------------------------- */

static uint64_t alu(uint8_t op, uint8_t dt, uint64_t a, uint64_t b)
{
    uint64_t r = 0xDEAD;
    g_assert_true(seq_alu_compute(op, dt, a, b, &r));
    return r;
}

static void test_alu_values(void)
{
    const uint8_t I32 = 0x8, U32 = 0x9, F32 = 0xA, I64 = 0xC, U64 = 0x1;
    /* §8.7 ABSOLUTE_DIFF example */
    g_assert_cmphex(alu(0x17, I32, 0x7FFFFFFF, 0x80000000), ==, 0xFFFFFFFF);
    g_assert_cmphex(alu(0x17, U32, 3, 10), ==, 7);
    /* wraparound */
    g_assert_cmphex(alu(0x04, U32, 0xFFFFFFFF, 2), ==, 1);
    g_assert_cmphex(alu(0x05, I32, 0, 1), ==, 0xFFFFFFFF);
    g_assert_cmphex(alu(0x06, U32, 0x10000, 0x10000), ==, 0);
    g_assert_cmphex(alu(0xC5, U32, 0x10001, 0x10001), ==, 0x20001);
    /* division and modulo by zero, INT_MIN / -1 (RISC-V rules) */
    g_assert_cmphex(alu(0x07, U32, 7, 0), ==, 0xFFFFFFFF);
    g_assert_cmphex(alu(0x07, I64, 7, 0), ==, ~0ull);
    g_assert_cmphex(alu(0x07, I32, 0x80000000, 0xFFFFFFFF), ==, 0x80000000);
    g_assert_cmphex(alu(0x07, I32, (uint32_t)-7, 2), ==, (uint32_t)-3);
    g_assert_cmphex(alu(0x1B, I32, (uint32_t)-7, 2), ==, (uint32_t)-1);
    g_assert_cmphex(alu(0x1B, U32, 7, 0), ==, 7);
    g_assert_cmphex(alu(0x1B, I32, 0x80000000, 0xFFFFFFFF), ==, 0);
    /* shifts mod W; ASHR replicates the sign for every dtype */
    g_assert_cmphex(alu(0x10, U32, 1, 33), ==, 2);
    g_assert_cmphex(alu(0x11, U32, 0x80000000, 36), ==, 0x08000000);
    g_assert_cmphex(alu(0x03, U32, 0x80000000, 4), ==, 0xF8000000);
    g_assert_cmphex(alu(0x03, U64, 0x8000000000000000ull, 64 + 60), ==, 0xFFFFFFFFFFFFFFF8ull);
    g_assert_cmphex(alu(0x02, I64, 1, 65), ==, 2);
    /* signed vs unsigned compare / max */
    g_assert_cmphex(alu(0x08, I32, 0x7FFFFFFF, 0x80000000), ==, 0x7FFFFFFF);
    g_assert_cmphex(alu(0x08, U32, 0x7FFFFFFF, 0x80000000), ==, 0x80000000);
    g_assert_cmphex(alu(0x09, I64, 1, ~0ull), ==, ~0ull);
    g_assert_cmphex(alu(0x16, I32, 0xFFFFFFFF, 0), ==, 1);
    g_assert_cmphex(alu(0x16, U32, 0xFFFFFFFF, 0), ==, 0);
    g_assert_cmphex(alu(0x14, U32, 5, 5), ==, 1);
    /* logical ops */
    g_assert_cmphex(alu(0x0D, U32, 2, 4), ==, 1);
    g_assert_cmphex(alu(0x0F, U32, 2, 4), ==, 0);
    g_assert_cmphex(alu(0x0E, U32, 0, 0), ==, 0);
    g_assert_cmphex(alu(0x01, U32, 0x0F0F0F0F, 0), ==, 0xF0F0F0F0);
    /* ABS: INT_MIN stays INT_MIN; unsigned is identity */
    g_assert_cmphex(alu(0x19, I32, 0x80000000, 0), ==, 0x80000000);
    g_assert_cmphex(alu(0x19, I32, (uint32_t)-5, 0), ==, 5);
    g_assert_cmphex(alu(0x19, U32, (uint32_t)-5, 0), ==, (uint32_t)-5);
    /* 64-bit */
    g_assert_cmphex(alu(0x04, U64, 0x1FFFFFFFFull, 1), ==, 0x200000000ull);
    /* FP32 (machine.md §12.13) */
    g_assert_cmphex(alu(0x04, F32, 0x3F800000, 0x40000000), ==, 0x40400000);
    g_assert_cmphex(alu(0x06, F32, 0x00000000, 0x7F800000), ==, 0x7FC00000); /* 0*inf */
    g_assert_cmphex(alu(0x04, F32, 0x7F800001, 0x3F800000), ==, 0x7FC00000); /* sNaN in */
    g_assert_cmphex(alu(0x08, F32, 0x7FC00001, 0x3F800000), ==, 0x3F800000);
    g_assert_cmphex(alu(0x09, F32, 0x3F800000, 0xFFC00000), ==, 0x3F800000);
    g_assert_cmphex(alu(0x08, F32, 0x7FC00001, 0x7FC00002), ==, 0x7FC00000);
    g_assert_cmphex(alu(0x08, F32, 0x80000000, 0x00000000), ==, 0x00000000);
    g_assert_cmphex(alu(0x08, F32, 0x00000000, 0x80000000), ==, 0x00000000);
    g_assert_cmphex(alu(0x09, F32, 0x00000000, 0x80000000), ==, 0x80000000);
    g_assert_cmphex(alu(0x19, F32, 0xFFC00001, 0), ==, 0x7FC00001);
    g_assert_cmphex(alu(0x00, F32, 0xFFC00001, 0), ==, 0xFFC00001);
    g_assert_cmphex(alu(0x12, F32, 0x7FC00000, 0x7FC00000), ==, 0);
    g_assert_cmphex(alu(0x18, F32, 0x7FC00000, 0x7FC00000), ==, 0x3F800000);
    g_assert_cmphex(alu(0x15, F32, 0x3F800000, 0x3F800000), ==, 0x3F800000);
    g_assert_cmphex(alu(0x17, F32, 0x3F800000, 0x40400000), ==, 0x40000000);
    /* subnormals are kept: min subnormal + min subnormal = 2 * min */
    g_assert_cmphex(alu(0x04, F32, 0x00000001, 0x00000001), ==, 0x00000002);
    /* unsupported: POW */
    uint64_t r;
    g_assert_false(seq_alu_compute(0x1A, I32, 1, 1, &r));
}

/* The ALU through the core: register sources, immediates, pairs, dst_dtype. */
static void test_alu_exec(void)
{
    uint8_t p[8][64];
    int st;
    r_movi(p[0], 1, 0x7FFFFFFF);
    r_movi(p[1], 2, 0x80000000);
    r_alu(p[2], 0x17, 0x8, 3, 1, 2, false, 0); /* absdiff.i32 r3, r1, r2 */
    r_alu(p[3], 0x04, 0x9, 4, 1, 0, true, 16); /* add.u32 r4, r1, 16 */
    p[3][15] = 0x9;                            /* dst_dtype = dtype is accepted */
    r_movi(p[4], 10, 0xFFFFFFFF);
    r_movi(p[5], 11, 0x1);
    /* add.u64 r21:r20, r11:r10, 1 */
    r_alu64(p[6], 0x04, 0x1, 20, 21, 10, 11, true, 1, 0, 0);
    r_halt(p[7]);
    Machine *m = run_single(p, 8, &st);
    g_assert_cmpint(st, ==, 0);
    NxBlock *nx = &m->nx[0];
    g_assert_cmphex(nx->r[3], ==, 0xFFFFFFFF);
    g_assert_cmphex(nx->r[4], ==, 0x8000000F);
    g_assert_cmphex(nx->r[20], ==, 0);
    g_assert_cmphex(nx->r[21], ==, 2);
    g_assert_cmpuint(m->seq[0]->state, ==, CPU_HALTED);
    g_assert_cmpuint(m->seq[0]->retired, ==, 8);
    /* HALT leaves PC at the HALT's address + 64 */
    g_assert_cmphex(nx->pc, ==, CODE + 8 * 64);
    machine_free(m);
}

/* MOVE: all sources read first (swap), pclo/pchi = the MOVE's own address. */
static void test_move(void)
{
    uint8_t p[5][64];
    int st;
    r_movi(p[0], 1, 111);
    r_movi(p[1], 2, 222);
    hdr(p[2], 0xA7); /* mov.u32 {r3, r4, r5, r6}, {r2, r1, pclo, pchi} */
    p[2][12] = 4;
    p[2][13] = 0x9;
    p[2][16] = 2;
    p[2][17] = 1;
    p[2][18] = 128;
    p[2][19] = 129;
    p[2][24] = 3;
    p[2][25] = 4;
    p[2][26] = 5;
    p[2][27] = 6;
    r_movr(p[3], 7, 128);
    r_halt(p[4]);
    Machine *m = run_single(p, 5, &st);
    g_assert_cmpint(st, ==, 0);
    g_assert_cmpuint(m->nx[0].r[3], ==, 222);
    g_assert_cmpuint(m->nx[0].r[4], ==, 111);
    g_assert_cmphex(m->nx[0].r[5], ==, (uint32_t)(CODE + 128));
    g_assert_cmphex(m->nx[0].r[6], ==, 0);
    g_assert_cmphex(m->nx[0].r[7], ==, (uint32_t)(CODE + 192));
    machine_free(m);
}

/* ---- branches ------------------------------------------------------------ */

static void test_branch_loop(void)
{
    /* r1 = 5; loop: r2 += 3; r1 -= 1; bne r1, 0, loop; halt */
    uint8_t p[5][64];
    int st;
    r_movi(p[0], 1, 5);
    r_alu(p[1], 0x04, 0x9, 2, 2, 0, true, 3);
    r_alu(p[2], 0x05, 0x9, 1, 1, 0, true, 1);
    r_bimm(p[3], 4, 0x9, 1, 0, -128); /* REL_IMM relative to the branch itself */
    r_halt(p[4]);
    Machine *m = run_single(p, 5, &st);
    g_assert_cmpint(st, ==, 0);
    g_assert_cmpuint(m->nx[0].r[2], ==, 15);
    g_assert_cmpuint(m->seq[0]->retired, ==, 1 + 5 * 3 + 1);
    machine_free(m);
}

static void test_branch_compare_dtypes(void)
{
    /* INT8: 0xFF immediate equals r1 = 0xFFFFFFFF (-1) -> taken over a FAIL */
    uint8_t p[8][64];
    int st;
    r_movi(p[0], 1, 0xFFFFFFFF);
    r_bimm(p[1], 3, 0x2, 1, 0xFF, 128); /* beq.i8 r1, 0xff, +128 */
    r_write(p[2], TESTDEV, 0x00013333);
    /* UINT8: 0x1FF reduces to 0xFF; r1 (0xFF) < 0x1FF? no: equal -> not LT */
    r_bimm(p[3], 1, 0x3, 1, 0x1FF, 128);
    r_bimm(p[4], 0, 0, 0, 0, 128); /* b +128 */
    r_write(p[5], TESTDEV, 0x00023333);
    r_write(p[6], TESTDEV, 0x5555);
    r_halt(p[7]);
    Machine *m = run_single(p, 8, &st);
    g_assert_cmpint(st, ==, 0);
    machine_free(m);

    /* FP32 NaN: every relation false except NE */
    uint8_t q[6][64];
    r_movi(q[0], 1, 0x7FC00000);
    r_bimm(q[1], 3, 0xA, 1, 0x7FC00000, 128); /* beq: not taken */
    r_bimm(q[2], 4, 0xA, 1, 0x7FC00000, 128); /* bne: taken */
    r_write(q[3], TESTDEV, 0x00033333);
    r_write(q[4], TESTDEV, 0x5555);
    r_halt(q[5]);
    m = run_single(q, 6, &st);
    g_assert_cmpint(st, ==, 0); /* beq falls through, bne jumps over the FAIL */
    machine_free(m);
}

static void test_branch_link_and_misaligned(void)
{
    /* call (ABS_IMM, link) then misaligned not-taken, then a taken misaligned */
    uint8_t p[6][64];
    int st;
    hdr(p[0], 0xA9); /* call abs CODE+192 */
    p[0][14] = 0;
    p[0][15] = 1;
    le(p[0] + 48, CODE + 192, 8);
    r_halt(p[1]);
    r_halt(p[2]);
    /* CODE+192: beq.u32 r0, 1, .+0x20 would be rejected statically
     * (br_rel_imm_range), so use REL_REGISTER with r9 = 0x20. */
    r_movi(p[3], 9, 0x20);
    hdr(p[4], 0xA9); /* beq.u32 r0, 0 -> taken, target PC + R9 misaligned */
    p[4][12] = 3;
    p[4][13] = 0x9;
    p[4][14] = 4;
    p[4][32] = 0;
    p[4][34] = 9;
    r_halt(p[5]);
    Machine *m = run_single(p, 6, &st);
    g_assert_cmpint(st, ==, 128 + 7); /* SIGBUS */
    NxCpu *cpu = m->seq[0];
    g_assert_cmpuint(cpu->fault.code, ==, NX_FAULT_MISALIGNED);
    g_assert_cmphex(cpu->fault.addr, ==, CODE + 256 + 0x20);
    g_assert_cmphex(cpu->fault_pc, ==, CODE + 256);
    g_assert_cmphex(m->nx[0].r[62], ==, (uint32_t)(CODE + 64));
    g_assert_cmphex(m->nx[0].r[63], ==, 0);
    machine_free(m);

    /* not taken: no fault */
    uint8_t q[3][64];
    r_movi(q[0], 9, 0x20);
    hdr(q[1], 0xA9); /* bne.u32 r0, 0 -> not taken */
    q[1][12] = 4;
    q[1][13] = 0x9;
    q[1][14] = 4;
    q[1][34] = 9;
    r_halt(q[2]);
    m = run_single(q, 3, &st);
    g_assert_cmpint(st, ==, 0);
    machine_free(m);
}

/* ---- mem_2d ---------------------------------------------------------------- */

static void test_tld_extension(void)
{
    Machine *m = mk(1);
    Prog p = {m, CODE};
    uint8_t r[64];
    uint8_t data[16] = {0x80, 0x80, 0x00, 0x80, 0x00, 0x80, 0x11, 0x22,
                        0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x00, 0xFF};
    put(m, DATA, data, sizeof(data));
    put32(m, DATA + 0x40, 0x7FC00001); /* NaN payload kept */

    static const uint8_t a[] = {1}, b[] = {2}, c[] = {3}, d[] = {4}, e[] = {10}, f[] = {5};
    r_m2d(r, 0xAA, 0x2, 1, 1, 0, 0, a, 1); /* i8 0x80 */
    a8_imm(r + 16, DATA);
    emit(&p, r);
    r_m2d(r, 0xAA, 0x3, 1, 1, 0, 0, b, 1); /* u8 0x80 */
    a8_imm(r + 16, DATA + 1);
    emit(&p, r);
    r_m2d(r, 0xAA, 0x4, 1, 1, 0, 0, c, 1); /* i16 0x8000 */
    a8_imm(r + 16, DATA + 2);
    emit(&p, r);
    r_m2d(r, 0xAA, 0x5, 1, 1, 0, 0, d, 1); /* u16 0x8000 */
    a8_imm(r + 16, DATA + 4);
    emit(&p, r);
    r_m2d(r, 0xAA, 0x1, 1, 1, 0, 0, e, 1); /* u64 -> r10 (low), r11 (high) */
    a8_imm(r + 16, DATA + 8);
    emit(&p, r);
    r_m2d(r, 0xAA, 0xA, 1, 1, 0, 0, f, 1); /* fp32 */
    a8_imm(r + 16, DATA + 0x40);
    emit(&p, r);
    r_halt(r);
    emit(&p, r);
    start(m, 0, CODE);
    g_assert_cmpint(run(m), ==, 0);
    uint32_t *R = m->nx[0].r;
    g_assert_cmphex(R[1], ==, 0xFFFFFF80);
    g_assert_cmphex(R[2], ==, 0x00000080);
    g_assert_cmphex(R[3], ==, 0xFFFF8000);
    g_assert_cmphex(R[4], ==, 0x00008000);
    g_assert_cmphex(R[10], ==, 0x66554433);
    g_assert_cmphex(R[11], ==, 0xFF008877);
    g_assert_cmphex(R[5], ==, 0x7FC00001);
    machine_free(m);
}

static void test_tld_negative_stride_2d(void)
{
    Machine *m = mk(1);
    Prog p = {m, CODE};
    uint8_t r[64];
    for (unsigned i = 0; i < 16; i++)
        put32(m, DATA + 4 * i, 0x100 + i);
    /* start 0x02000010, u32, n0 = 4, s0 = -1: words at 0x10, 0x0C, 0x08, 0x04 */
    static const uint8_t regs[] = {1, 2, 3, 4};
    r_m2d(r, 0xAA, 0x9, 4, 1, -1, 0, regs, 4);
    a8_imm(r + 16, DATA + 0x10);
    emit(&p, r);
    /* 2-D: n0 = 2, n1 = 3, s0 = 1, s1 = 4: i1 outer -> words 0,1,4,5,8,9 */
    static const uint8_t regs2[] = {10, 11, 12, 13, 14, 15};
    r_m2d(r, 0xAA, 0x9, 2, 3, 1, 4, regs2, 6);
    a8_imm(r + 16, DATA);
    emit(&p, r);
    r_halt(r);
    emit(&p, r);
    start(m, 0, CODE);
    g_assert_cmpint(run(m), ==, 0);
    uint32_t *R = m->nx[0].r;
    g_assert_cmphex(R[1], ==, 0x104);
    g_assert_cmphex(R[2], ==, 0x103);
    g_assert_cmphex(R[3], ==, 0x102);
    g_assert_cmphex(R[4], ==, 0x101);
    static const uint32_t want[] = {0x100, 0x101, 0x104, 0x105, 0x108, 0x109};
    for (unsigned i = 0; i < 6; i++)
        g_assert_cmphex(R[10 + i], ==, want[i]);
    machine_free(m);
}

/* One faulting instruction after setting r1..: returns the machine. */
static Machine *run_fault(const uint8_t *setup_regs_rec, const uint8_t *insn, int *st)
{
    uint8_t p[4][64];
    unsigned n = 0;
    if (setup_regs_rec)
        memcpy(p[n++], setup_regs_rec, 64);
    memcpy(p[n++], insn, 64);
    r_halt(p[n++]);
    return run_single(p, n, st);
}

static void test_tld_window_and_alignment(void)
{
    uint8_t r[64], s[64];
    int st;
    static const uint8_t regs[] = {1, 2};
    /* u32 at 0x01FFFFFC, n0 = 2, s0 = 1 -> WINDOW_CROSSING, FAULT_ADDR = start */
    r_m2d(r, 0xAA, 0x9, 2, 1, 1, 0, regs, 2);
    a8_imm(r + 16, 0x01FFFFFC);
    Machine *m = run_fault(NULL, r, &st);
    g_assert_cmpint(st, ==, 128 + 11);
    g_assert_cmpuint(m->seq[0]->fault.code, ==, NX_FAULT_WINDOW_CROSSING);
    g_assert_cmphex(m->seq[0]->fault.addr, ==, 0x01FFFFFC);
    machine_free(m);
    /* 0x01FFFFF8 is accepted */
    a8_imm(r + 16, 0x01FFFFF8);
    m = run_fault(NULL, r, &st);
    g_assert_cmpint(st, ==, 0);
    machine_free(m);
    /* negative stride crossing below a window boundary */
    r_m2d(r, 0xAA, 0x9, 2, 1, -1, 0, regs, 2);
    a8_imm(r + 16, 0x02000000);
    m = run_fault(NULL, r, &st);
    g_assert_cmpuint(m->seq[0]->fault.code, ==, NX_FAULT_WINDOW_CROSSING);
    machine_free(m);
    /* misaligned register-pair start -> MISALIGNED, FAULT_ADDR = address */
    hdr(s, 0xA7); /* mov.u32 {r20, r21}, {0x02000002, 0} */
    s[12] = 2;
    s[13] = 0x9;
    s[14] = 1;
    s[24] = 20;
    s[25] = 21;
    le(s + 32, 0x02000002, 4);
    r_m2d(r, 0xAA, 0x9, 1, 1, 0, 0, regs, 1);
    a8_reg(r + 16, 20, 21);
    m = run_fault(s, r, &st);
    g_assert_cmpint(st, ==, 135);
    g_assert_cmpuint(m->seq[0]->fault.code, ==, NX_FAULT_MISALIGNED);
    g_assert_cmphex(m->seq[0]->fault.addr, ==, 0x02000002);
    g_assert_cmphex(m->seq[0]->fault_pc, ==, CODE + 64);
    machine_free(m);
    /* the same address immediate: INVALID_INSTRUCTION(valid_start_addr) */
    a8_imm(r + 16, 0x02000002);
    m = run_fault(NULL, r, &st);
    g_assert_cmpint(st, ==, 132);
    g_assert_cmpuint(m->seq[0]->fault.code, ==, NX_FAULT_INVALID_INSTRUCTION);
    g_assert_cmpuint(m->seq[0]->fault.info, ==, 10);
    GString *g = g_string_new(NULL);
    fault_line(m, g);
    g_assert_cmpstr(g->str, ==,
                    "nxemu: fault: core=0 code=INVALID_INSTRUCTION(2) info=valid_start_addr "
                    "pc=0x0000000001000000 addr=0x0000000000000000");
    g_string_free(g, TRUE);
    machine_free(m);
}

static void test_tst(void)
{
    Machine *m = mk(1);
    Prog p = {m, CODE};
    uint8_t r[64];
    r_movi(r, 1, 0x12345678);
    emit(&p, r);
    r_movi(r, 2, 0xCAFEF00D);
    emit(&p, r);
    /* u8 register store truncates: writes 0x78 */
    static const uint8_t one[] = {1};
    r_m2d(r, 0xAB, 0x3, 1, 1, 0, 0, one, 1);
    a8_imm(r + 16, DATA);
    emit(&p, r);
    /* u64 from the even/odd pair r2 (low), r3 (high) */
    static const uint8_t pair[] = {2};
    r_movi(r, 3, 0x0BADBEEF);
    emit(&p, r);
    r_m2d(r, 0xAB, 0x1, 1, 1, 0, 0, pair, 1); /* R[2] | R[3] << 32 */
    a8_imm(r + 16, DATA + 8);
    emit(&p, r);
    /* immediate store: u16 x 3, stride 2 elements: values 0x1111, 0x2222, 0x3333 */
    r_m2d(r, 0xAB, 0x5, 3, 1, 2, 0, NULL, 0);
    r[13] = 1;
    le(r + 32, 0x1111, 2);
    le(r + 34, 0x2222, 2);
    le(r + 36, 0x3333, 2);
    a8_imm(r + 16, DATA + 0x20);
    emit(&p, r);
    r_halt(r);
    emit(&p, r);
    start(m, 0, CODE);
    g_assert_cmpint(run(m), ==, 0);
    g_assert_cmphex(get(m, DATA, 4), ==, 0x00000078);
    g_assert_cmphex(get(m, DATA + 8, 8), ==, 0x0BADBEEFCAFEF00Dull);
    g_assert_cmphex(get(m, DATA + 0x20, 2), ==, 0x1111);
    g_assert_cmphex(get(m, DATA + 0x22, 2), ==, 0);
    g_assert_cmphex(get(m, DATA + 0x24, 2), ==, 0x2222);
    g_assert_cmphex(get(m, DATA + 0x28, 2), ==, 0x3333);
    machine_free(m);
}

/* A store whose last element hits an unmapped PA writes nothing. */
static void test_tst_precise(void)
{
    uint8_t r[64];
    int st;
    /* HBM is 64 MiB: 0x03FFFFFC is the last word, 0x04000000 unmapped */
    r_m2d(r, 0xAB, 0x9, 2, 1, 1, 0, NULL, 0);
    r[13] = 1;
    le(r + 32, 0x11111111, 4);
    le(r + 36, 0x22222222, 4);
    a8_imm(r + 16, 0x03FFFFFC);
    /* crosses the 16 MiB window at 0x04000000: WINDOW_CROSSING first */
    Machine *m = run_fault(NULL, r, &st);
    g_assert_cmpuint(m->seq[0]->fault.code, ==, NX_FAULT_WINDOW_CROSSING);
    machine_free(m);
    /* stride -1 from an address in window 4 whose first element is unmapped */
    hdr(r, 0xAB);
    r[12] = 0x9;
    r[13] = 1;
    r[14] = 2;
    r[15] = 1;
    le(r + 24, (uint32_t)-1, 4);
    a8_imm(r + 16, 0x04000004);
    m = run_fault(NULL, r, &st);
    g_assert_cmpuint(m->seq[0]->fault.code, ==, NX_FAULT_BUS_ERROR);
    g_assert_cmphex(m->seq[0]->fault.addr, ==, 0x04000004);
    machine_free(m);
}

/* Local window: TensorLoad of the own NX block (CORE_ID, PC reads itself). */
static void test_local_window(void)
{
    uint8_t p[3][64];
    int st;
    static const uint8_t regs[] = {1, 2, 3};
    /* words at 0x100100 (PC lo), 0x100104 (PC hi): the reading instruction */
    r_m2d(p[0], 0xAA, 0x9, 2, 1, 1, 0, regs, 2);
    a8_imm(p[0] + 16, NX_LOCAL + 0x100);
    r_m2d(p[1], 0xAA, 0x3, 1, 1, 0, 0, regs, 1); /* u8 in window 0: BUS_ERROR */
    a8_imm(p[1] + 16, NX_LOCAL);
    r_halt(p[2]);
    Machine *m = run_single(p, 3, &st);
    g_assert_cmphex(m->nx[0].r[1], ==, (uint32_t)CODE);
    g_assert_cmphex(m->nx[0].r[2], ==, 0);
    g_assert_cmpint(st, ==, 135);
    g_assert_cmpuint(m->seq[0]->fault.code, ==, NX_FAULT_BUS_ERROR);
    g_assert_cmphex(m->seq[0]->fault.addr, ==, NX_LOCAL);
    machine_free(m);
}

/* ---- decode faults --------------------------------------------------------- */

static void check_decode_fault(uint8_t rec[64], uint32_t code, uint32_t info, uint64_t addr,
                               const char *info_text)
{
    int st;
    Machine *m = run_fault(NULL, rec, &st);
    g_assert_cmpuint(m->seq[0]->fault.code, ==, code);
    g_assert_cmpuint(m->seq[0]->fault.info, ==, info);
    g_assert_cmphex(m->seq[0]->fault.addr, ==, addr);
    g_assert_cmpint(st, ==, 132);
    GString *g = g_string_new(NULL);
    fault_line(m, g);
    g_autofree char *want = g_strdup_printf(" info=%s pc=", info_text);
    g_assert_nonnull(strstr(g->str, want));
    g_string_free(g, TRUE);
    g_assert_cmpuint(m->seq[0]->retired, ==, 0);
    machine_free(m);
}

static void test_decode_faults(void)
{
    uint8_t r[64];
    r_nop(r);
    r[1] = 0x08;
    check_decode_fault(r, NX_FAULT_INVALID_INSTRUCTION, 1, 0, "header_word_len");
    r_nop(r);
    r[2] = 2;
    check_decode_fault(r, NX_FAULT_INVALID_INSTRUCTION, 2, 0, "header_debug_cmd");
    r_nop(r);
    r[40] = 1;
    check_decode_fault(r, NX_FAULT_INVALID_INSTRUCTION, 7, 0, "reserved_zero");
    hdr(r, 0xB3);
    check_decode_fault(r, NX_FAULT_INVALID_OPCODE, 0, 0, "0");
    hdr(r, 0x00);
    check_decode_fault(r, NX_FAULT_INVALID_OPCODE, 0, 0, "0");
    hdr(r, 0xCE);
    r[12] = 0x9;
    r[14] = 1;
    r[15] = 1;
    le(r + 16, 77, 4);
    check_decode_fault(r, NX_FAULT_PSEUDO_UNLOWERED, 0xCE, 77, "PSEUDO_TENSOR_LOAD");
    /* ALU POW */
    r_alu(r, 0x1A, 0x9, 1, 1, 2, false, 0);
    check_decode_fault(r, NX_FAULT_INVALID_INSTRUCTION, 40, 0, "alu_op_supported");
    /* MOVE with num 0 */
    r_movi(r, 1, 0);
    r[12] = 0;
    check_decode_fault(r, NX_FAULT_INVALID_INSTRUCTION, 32, 0, "ctrl_mv_valid_num");
}

/* ---- events ------------------------------------------------------------------ */

static void test_events_order_and_dec(void)
{
    uint8_t p[7][64];
    int st;
    /* nop post.r(sem1--): from 0 gives 0xFFFFFFFF */
    r_nop(p[0]);
    ev(p[0], 0, 0, 0x04, 1, 0);
    /* mov r5, 7 post(sem2 = r5): the _COMPLETE REG update sees the new r5 */
    r_movi(p[1], 5, 7);
    ev(p[1], 0, 0, 0x1A, 2, 5);
    /* r6 = 4; mov r6, 9 post.r(sem3 = r6): _READ sees the old r6 */
    r_movi(p[2], 6, 9);
    ev(p[2], 0, 0, 0x0A, 3, 6);
    r_movi(p[6], 6, 4);
    /* nop post(evt4 set), then wait(evt4 set then clear) */
    r_nop(p[3]);
    ev(p[3], 0, 0, 0x11, 4, 0);
    r_nop(p[4]);
    ev(p[4], 0x07, 4, 0x13, 6, 0);
    r_halt(p[5]);
    /* order: p6 (r6 = 4) first */
    uint8_t q[7][64];
    memcpy(q[0], p[6], 64);
    memcpy(q[1], p, 6 * 64);
    Machine *m = run_single(q, 7, &st);
    g_assert_cmpint(st, ==, 0);
    g_assert_cmphex(m->evsem.sem[1], ==, 0xFFFFFFFF);
    g_assert_cmpuint(m->evsem.sem[2], ==, 7);
    g_assert_cmpuint(m->evsem.sem[3], ==, 4);
    g_assert_cmpuint(m->nx[0].r[6], ==, 9);
    g_assert_cmpuint(m->evsem.evt[4], ==, 0);
    g_assert_cmpuint(m->evsem.sem[6], ==, 1);
    machine_free(m);
}

static void test_events_fault_applies_nothing(void)
{
    uint8_t r[64];
    int st;
    static const uint8_t regs[] = {1, 2};
    r_m2d(r, 0xAA, 0x9, 2, 1, 1, 0, regs, 2);
    a8_imm(r + 16, 0x01FFFFFC); /* WINDOW_CROSSING */
    ev(r, 0x0F, 3, 0x03, 2, 0); /* wait(evt3 clear then set) post.r(sem2++) */
    Machine *m = run_fault(NULL, r, &st);
    g_assert_cmpuint(m->seq[0]->fault.code, ==, NX_FAULT_WINDOW_CROSSING);
    g_assert_cmpuint(m->evsem.sem[2], ==, 0);
    g_assert_cmpuint(m->evsem.evt[3], ==, 0);
    machine_free(m);
}

static void test_deadlock_and_block_info(void)
{
    uint8_t p[3][64];
    int st;
    r_movi(p[0], 7, 1);
    r_nop(p[1]);
    ev(p[1], 0x85, 3, 0, 0, 7); /* wait(sem3 >= r7) */
    r_halt(p[2]);
    Machine *m = run_single(p, 3, &st);
    g_assert_cmpint(st, ==, 124);
    g_assert_cmpuint(m->seq[0]->state, ==, CPU_BLOCKED);
    GString *g = g_string_new(NULL);
    m->seq[0]->ops->block_info(m->seq[0], g);
    g_assert_cmpstr(g->str, ==, "wait=sem[3] ge R7 current=0");
    g_string_free(g, TRUE);
    /* STATUS: BLOCKED, reason 1 */
    uint64_t v;
    g_assert_cmpint(nx_read(&m->nx[0], NX_STATUS, 4, &v, MEMTXATTRS(MEM_REQ_DEBUG, 0)), ==,
                    MEMTX_OK);
    g_assert_cmphex(v & 0xF0F, ==, 0x102);
    machine_free(m);
}

/* Core 1 waits for a semaphore core 0 posts after some work: no deadlock;
 * EVENT_SEMAPHORE needs both waits at once. */
static void test_two_cores(void)
{
    Machine *m = mk(2);
    Prog a = {m, CODE}, b = {m, CODE + 0x10000};
    uint8_t r[64];
    for (unsigned i = 0; i < 100; i++) {
        r_nop(r);
        emit(&a, r);
    }
    r_nop(r);
    ev(r, 0, 0, 0x13, 5, 0); /* post(sem5++) */
    emit(&a, r);
    r_nop(r);
    ev(r, 0, 0, 0x11, 9, 0); /* post(evt9 set) */
    emit(&a, r);
    r_halt(r);
    emit(&a, r);

    hdr(r, 0xA0); /* evsem wait(sem5 >= 1) wait.b(evt9 set) post(sem6 += 4) */
    r[4] = 0x05;
    r[5] = 5;
    le(r + 8, 1, 4);
    r[32] = 0x06;
    r[33] = 9;
    r[34] = 0x15;
    r[35] = 6;
    le(r + 40, 4, 4);
    emit(&b, r);
    r_halt(r);
    emit(&b, r);
    start(m, 0, CODE);
    start(m, 1, CODE + 0x10000);
    g_assert_cmpint(run(m), ==, 0);
    g_assert_cmpuint(m->evsem.sem[6], ==, 4);
    g_assert_cmpuint(m->seq[1]->retired, ==, 2);
    machine_free(m);
}

/* ---- TLB -------------------------------------------------------------------- */

static void test_tlb_counts(void)
{
    Machine *m = mk(1);
    NxBlock *nx = &m->nx[0];
    uint64_t wt = 0x03000000;
    /* window 1 -> PA 0x01000000 RWX; window 5 -> PA 0x02000000 R only */
    uint64_t e1 = 0x01000000 | 0xF, e5 = 0x02000000 | 0x3;
    put(m, wt + 8, &e1, 8);
    put(m, wt + 40, &e5, 8);
    nx->wt_base = wt;
    nx->wt_len = 8;
    Prog p = {m, CODE};
    uint8_t r[64];
    put32(m, 0x02000010, 0xABCD);
    static const uint8_t one[] = {1};
    r_m2d(r, 0xAA, 0x9, 1, 1, 0, 0, one, 1); /* fetch w1 (miss), data w5 (miss) */
    a8_imm(r + 16, 0x05000010);
    emit(&p, r);
    r_nop(r); /* fetch w1 (hit) */
    emit(&p, r);
    r_m2d(r, 0xAB, 0x9, 1, 1, 0, 0, one, 1); /* fetch hit, data w5 hit -> PERMISSION */
    a8_imm(r + 16, 0x05000020);
    emit(&p, r);
    start(m, 0, CODE);
    g_assert_cmpint(run(m), ==, 139);
    g_assert_cmphex(nx->r[1], ==, 0xABCD);
    g_assert_cmpuint(m->seq[0]->fault.code, ==, NX_FAULT_PERMISSION_FAULT);
    g_assert_cmphex(m->seq[0]->fault.addr, ==, 0x05000020);
    g_assert_cmpuint(nx->tlb.misses, ==, 2);
    g_assert_cmpuint(nx->tlb.hits, ==, 3);
    machine_free(m);
}

/* ---- DMA ---------------------------------------------------------------------- */

static void r_dma(uint8_t r[64], uint64_t src, uint64_t dst, uint16_t n, uint16_t esz, uint8_t sem,
                  uint8_t inc)
{
    hdr(r, 0xB8);
    r[13] = sem;
    r[14] = inc;
    le(r + 16, src, 8);
    le(r + 24, 1, 4);
    le(r + 32, n, 2);
    le(r + 34, 1, 2);
    le(r + 36, esz, 2);
    le(r + 40, dst, 8);
    le(r + 48, 1, 4);
    le(r + 56, n, 2);
    le(r + 58, 1, 2);
    le(r + 60, esz, 2);
    r[62] = r[63] = 0x9;
}

static void test_dma_copy(void)
{
    Machine *m = mk(1);
    Prog p = {m, CODE};
    uint8_t r[64];
    put32(m, 0x020000FC, 0xDEADBEEF);
    /* §12.4 worked encoding of the §12.3 dma */
    static const uint8_t enc[64] = {
        0xb8, 0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0,    0, 0,    0x09, 0x01, 0, 0, 0, 0, 2, 0, 0,
        0,    0,    1, 0, 0, 0, 0, 0, 0, 0, 0x40, 0, 1,    0,    4,    0, 0, 0, 0, 0, 0, 0,
        0x20, 0,    0, 0, 1, 0, 0, 0, 0, 0, 0,    0, 0x40, 0,    1,    0, 4, 0, 0, 0};
    memcpy(r, enc, 64);
    ev(r, 0, 0, 0x03, 20, 0); /* post.r(sem20++): at issue */
    r[6] = 0x03;
    emit(&p, r);
    memcpy(r, enc, 64);
    r[13] = 10;
    le(r + 40, 0x2000001000ull, 8);
    ev(r, 0, 0, 0x13, 21, 0); /* post(sem21++): at completion, after sem10 */
    emit(&p, r);
    /* right after issue: r1..r3 = SEM_READ[20..22] through the EVSEM window */
    static const uint8_t regs[] = {1, 2, 3};
    r_m2d(r, 0xAA, 0x9, 3, 1, 1, 0, regs, 3);
    a8_imm(r + 16, 0x2802700000ull + 0x1000 + 4 * 20);
    emit(&p, r);
    static const uint8_t r4[] = {4};
    r_m2d(r, 0xAA, 0x9, 1, 1, 0, 0, r4, 1);
    a8_imm(r + 16, SBUF + 0xFC);
    ev(r, 0x05, 10, 0, 0, 1); /* wait(sem10 >= 1) */
    emit(&p, r);
    r_halt(r);
    emit(&p, r);
    start(m, 0, CODE);
    g_assert_cmpint(run(m), ==, 0);
    g_assert_cmpuint(m->nx[0].r[1], ==, 1); /* _READ fired at issue */
    g_assert_cmpuint(m->nx[0].r[2], ==, 0); /* _COMPLETE not yet */
    g_assert_cmphex(m->nx[0].r[4], ==, 0xDEADBEEF);
    g_assert_cmphex(get(m, SBUF + 0x10FC, 4), ==, 0xDEADBEEF);
    g_assert_cmpuint(m->evsem.sem[9], ==, 1);
    g_assert_cmpuint(m->evsem.sem[10], ==, 1);
    g_assert_cmpuint(m->evsem.sem[21], ==, 1);
    machine_free(m);
}

static void test_dma_errors(void)
{
    uint8_t r[64];
    int st;
    /* overlap: dst inside the source extent */
    r_dma(r, DATA, DATA + 0x80, 64, 4, 0, 0);
    Machine *m = run_fault(NULL, r, &st);
    g_assert_cmpuint(m->seq[0]->fault.code, ==, NX_FAULT_DMA_ERROR);
    g_assert_cmpuint(m->seq[0]->fault.info, ==, NX_DMA_OVERLAP);
    g_assert_cmphex(m->seq[0]->fault.addr, ==, DATA + 0x80);
    GString *g = g_string_new(NULL);
    fault_line(m, g);
    g_assert_nonnull(strstr(g->str, "code=DMA_ERROR(9) info=OVERLAP "));
    g_string_free(g, TRUE);
    machine_free(m);
    /* unmapped source: first bad byte is the first byte past HBM */
    r_dma(r, 0x03FFFFF0, DATA, 8, 4, 0, 0);
    m = run_fault(NULL, r, &st);
    g_assert_cmpuint(m->seq[0]->fault.info, ==, NX_DMA_BAD_ADDRESS);
    g_assert_cmphex(m->seq[0]->fault.addr, ==, 0x04000000);
    g_assert_cmpuint(m->dma.e[0].count, ==, 0);
    machine_free(m);
    /* element size 0 = 64 KiB: one element copies 65536 bytes */
    m = mk(1);
    Prog p = {m, CODE};
    put32(m, DATA + 0xFFFC, 0x600DF00D);
    r_dma(r, DATA, 0x03000000, 1, 0, 1, 1);
    emit(&p, r);
    r_nop(r);
    ev(r, 0x05, 1, 0, 0, 1);
    emit(&p, r);
    r_halt(r);
    emit(&p, r);
    start(m, 0, CODE);
    g_assert_cmpint(run(m), ==, 0);
    g_assert_cmphex(get(m, 0x03000000 + 0xFFFC, 4), ==, 0x600DF00D);
    machine_free(m);
}

/* DMA compute (FP32 add) and DRAIN. */
static void test_dma_compute_drain(void)
{
    Machine *m = mk(1);
    Prog p = {m, CODE};
    uint8_t r[64];
    put32(m, DATA, 0x3F800000);       /* 1.0 */
    put32(m, DATA + 4, 0x7F800000);   /* +inf */
    put32(m, 0x03000000, 0x40000000); /* 2.0 */
    put32(m, 0x03000004, 0xFF800000); /* -inf: inf + -inf = NaN -> canonical */
    r_dma(r, DATA, 0x03000000, 2, 4, 0, 0);
    r[15] = 1; /* ADD */
    r[62] = r[63] = 0xA;
    emit(&p, r);
    hdr(r, 0xA2); /* drain */
    r[40] = 1;
    emit(&p, r);
    r_halt(r);
    emit(&p, r);
    start(m, 0, CODE);
    g_assert_cmpint(run(m), ==, 0);
    g_assert_cmphex(get(m, 0x03000000, 4), ==, 0x40400000);
    g_assert_cmphex(get(m, 0x03000004, 4), ==, 0x7FC00000);
    g_assert_cmpuint(m->nx[0].outstanding, ==, 0);
    machine_free(m);
}

/* A full engine queue blocks the issuing core (reason 3, "dmaq=<e>") until a
 * completion frees a slot; DRAIN blocks with "drain". */
static void test_dma_queue_full_and_drain_block(void)
{
    Machine *m = mk(1); /* queue depth 4, latency 32, 64 bytes/cycle */
    Prog p = {m, CODE};
    uint8_t r[64];
    for (unsigned i = 0; i < 6; i++) {
        r_dma(r, DATA, 0x03000000 + 0x100 * i, 16, 4, 2, 1); /* 64 bytes: 33 cycles */
        emit(&p, r);
    }
    hdr(r, 0xA2);
    r[40] = 1;
    emit(&p, r);
    r_halt(r);
    emit(&p, r);
    start(m, 0, CODE);
    GString *g = g_string_new(NULL);
    /* round 1: four issued, the fifth finds the queue full */
    g_assert_cmpint(sched_round(m), ==, STOP_NONE);
    g_assert_cmpuint(m->seq[0]->state, ==, CPU_BLOCKED);
    g_assert_cmpuint(m->nx[0].block_reason, ==, NX_BLOCK_DMAQ);
    g_assert_cmphex(m->nx[0].pc, ==, CODE + 4 * 64);
    m->seq[0]->ops->block_info(m->seq[0], g);
    g_assert_cmpstr(g->str, ==, "dmaq=0");
    /* round 2: the engine freed one slot in round 1: the fifth and sixth
     * issue (the sixth only if a slot is free), then DRAIN blocks */
    while (m->nx[0].pc < CODE + 6 * 64)
        g_assert_cmpint(sched_round(m), ==, STOP_NONE);
    g_assert_cmpint(sched_round(m), ==, STOP_NONE);
    if (m->seq[0]->state == CPU_BLOCKED) {
        g_string_truncate(g, 0);
        m->seq[0]->ops->block_info(m->seq[0], g);
        g_assert_cmpstr(g->str, ==, "drain");
    }
    g_string_free(g, TRUE);
    g_assert_cmpint(run(m), ==, 0);
    g_assert_cmpuint(m->evsem.sem[2], ==, 6);
    g_assert_cmpuint(m->seq[0]->retired, ==, 8);
    machine_free(m);
}

/* With an access observer installed (watchpoints, viewer) the memory API
 * hands out no host pointers: fetch and data accesses take the slow path,
 * and the observer sees the data accesses. */
static void count_access(void *opaque, uint64_t addr, unsigned size, bool is_write,
                         MemTxAttrs attrs)
{
    if (addr >= DATA && addr < DATA + 0x100)
        (*(unsigned *)opaque)++;
}

static void test_access_observer(void)
{
    Machine *m = mk(1);
    Prog p = {m, CODE};
    uint8_t r[64];
    unsigned seen = 0;
    put32(m, DATA, 41);
    static const uint8_t one[] = {1};
    r_m2d(r, 0xAA, 0x9, 1, 1, 0, 0, one, 1);
    a8_imm(r + 16, DATA);
    emit(&p, r);
    r_alu(r, 0x04, 0x9, 1, 1, 0, true, 1);
    emit(&p, r);
    r_m2d(r, 0xAB, 0x9, 1, 1, 0, 0, one, 1);
    a8_imm(r + 16, DATA + 4);
    emit(&p, r);
    r_halt(r);
    emit(&p, r);
    g_assert_true(as_add_access_hook(m->as, count_access, &seen));
    start(m, 0, CODE);
    g_assert_cmpint(run(m), ==, 0);
    as_remove_access_hook(m->as, count_access, &seen);
    g_assert_cmphex(get(m, DATA + 4, 4), ==, 42);
    g_assert_cmpuint(seen, >=, 2);
    machine_free(m);
}

/* seq_dma_request_from_record: the doorbell's checks in the order of
 * machine.md §5.3 (kinds 5, 6, 7, 1, 2), and an accepted record. */
static void test_doorbell_record(void)
{
    Machine *m = mk(1);
    uint8_t r[64];
    DmaRequest *req = (DmaRequest *)&r; /* must be overwritten */

    r_nop(r);
    g_assert_cmphex(seq_dma_request_from_record(m, r, &req), ==, 5u << 16);
    g_assert_null(req);
    r_dma(r, DATA, 0x03000000, 4, 4, 1, 1);
    r[6] = 0x03; /* events field nonzero */
    g_assert_cmphex(seq_dma_request_from_record(m, r, &req), ==, 6u << 16);
    r_dma(r, DATA, 0x03000000, 4, 4, 1, 1);
    a8_reg(r + 40, 1, 2); /* register ADDR8 */
    g_assert_cmphex(seq_dma_request_from_record(m, r, &req), ==, 7u << 16);
    r_dma(r, DATA, 0x03000000, 4, 4, 1, 1);
    r[60] = 8; /* byte counts differ: dma_byte_count (65) */
    g_assert_cmphex(seq_dma_request_from_record(m, r, &req), ==, 1u << 16 | 65);
    r_dma(r, DATA, DATA + 8, 4, 4, 1, 1); /* overlap */
    g_assert_cmphex(seq_dma_request_from_record(m, r, &req), ==, 2u << 16 | NX_DMA_OVERLAP);
    r_dma(r, DATA + 2, 0x03000000, 4, 4, 1, 1);
    r[15] = 1; /* i32 add from a misaligned start: issue error with detail 0 */
    g_assert_cmphex(seq_dma_request_from_record(m, r, &req), ==, 2u << 16);
    g_assert_null(req);
    r_dma(r, DATA, 0x03000000, 4, 4, 1, 1);
    g_assert_cmphex(seq_dma_request_from_record(m, r, &req), ==, 0);
    g_assert_nonnull(req);
    g_assert_cmpuint(req->bytes, ==, 16);
    g_assert_cmpint(req->owner, ==, -1);
    g_assert_cmpuint(req->sem, ==, 1);
    g_assert_cmpuint(req->sem_inc, ==, 1);
    put32(m, DATA + 12, 0xFEEDFACE);
    req->complete(m, req);
    g_assert_cmphex(get(m, 0x0300000C, 4), ==, 0xFEEDFACE);
    req->release(req);
    machine_free(m);
}

/* DMA_INDIRECT mode "both": element k moves from src[sidx[k]] to
 * dst[didx[k]]; strides are in elements of esz bytes. */
static void test_dmai_both(void)
{
    Machine *m = mk(1);
    Prog p = {m, CODE};
    uint8_t r[64];
    for (unsigned i = 0; i < 8; i++)
        put32(m, DATA + 8 * i, 0xA0 + i); /* src stride 2 elements of 4 bytes */
    put32(m, SBUF + 0x100, 5);            /* sidx */
    put32(m, SBUF + 0x104, 1);
    put32(m, SBUF + 0x200, 3); /* didx */
    put32(m, SBUF + 0x204, 0);
    hdr(r, 0xBB);
    r[12] = 4; /* sem */
    r[13] = 1;
    r[14] = 128;
    r[15] = 2; /* both */
    le(r + 16, DATA, 8);
    le(r + 24, 2, 4);
    le(r + 28, 2, 2);
    le(r + 30, 4, 2);
    le(r + 32, 0x03000000, 8);
    le(r + 40, 1, 4);
    le(r + 44, 2, 2);
    le(r + 46, 4, 2);
    le(r + 48, 0x100, 4);
    le(r + 52, 0x200, 4);
    r[56] = r[57] = 0x9;
    emit(&p, r);
    r_nop(r);
    ev(r, 0x05, 4, 0, 0, 1);
    emit(&p, r);
    r_halt(r);
    emit(&p, r);
    start(m, 0, CODE);
    g_assert_cmpint(run(m), ==, 0);
    g_assert_cmphex(get(m, 0x03000000 + 12, 4), ==, 0xA5); /* dst[3] = src[5] */
    g_assert_cmphex(get(m, 0x03000000, 4), ==, 0xA1);      /* dst[0] = src[1] */
    g_assert_cmphex(get(m, 0x03000004, 4), ==, 0);
    machine_free(m);
}

/* ---- decode cache coherence --------------------------------------------------- */

static void test_self_modifying(void)
{
    /* loop twice over slot X: first pass X = mov r1, 1; the store then
     * rewrites X to mov r1, 2 through TensorStore (immediates). */
    Machine *m = mk(1);
    Prog p = {m, CODE};
    uint8_t r[64], newx[64];
    r_movi(newx, 1, 2);
    r_movi(r, 3, 2); /* r3 = loop count */
    emit(&p, r);
    r_movi(r, 1, 1);
    uint64_t x = emit(&p, r);               /* X */
    r_alu(r, 0x04, 0x9, 4, 4, 1, false, 0); /* r4 += r1 */
    emit(&p, r);
    /* tst.u64 [X], #{...} x4 (32 bytes), twice to cover the 64 bytes */
    for (unsigned half = 0; half < 2; half++) {
        hdr(r, 0xAB);
        r[12] = 0x1;
        r[13] = 1;
        r[14] = 4;
        r[15] = 1;
        le(r + 24, 1, 4);
        a8_imm(r + 16, x + 32 * half);
        memcpy(r + 32, newx + 32 * half, 32);
        emit(&p, r);
    }
    r_alu(r, 0x05, 0x9, 3, 3, 0, true, 1);
    emit(&p, r);
    r_bimm(r, 4, 0x9, 3, 0, -(int32_t)(p.at - x));
    emit(&p, r);
    r_halt(r);
    emit(&p, r);
    start(m, 0, CODE);
    g_assert_cmpint(run(m), ==, 0);
    g_assert_cmpuint(m->nx[0].r[4], ==, 1 + 2);
    machine_free(m);
}

/* ---- random records ---------------------------------------------------------- */

/* Seeded random records, biased towards the defined opcodes and mostly-zero
 * bytes so that many pass the predicates and reach phase E.  Each must end
 * in one documented state: HALTED (exit 0 or a FINISHER status), FAULTED
 * (128 + signal), a deadlock (124) or the instruction limit (123). */
static void test_random_records(void)
{
    static const uint8_t ops[] = {0xA0, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5, 0xA6, 0xA7,
                                  0xA8, 0xA9, 0xAA, 0xAB, 0xB0, 0xB8, 0xBB, 0xCE};
    GRand *rnd = g_rand_new_with_seed(0x5EC0E8EC);
    Machine *m = mk(1);
    unsigned outcomes[256] = {0};
    for (unsigned iter = 0; iter < 400; iter++) {
        uint8_t r[64];
        hdr(r, ops[g_rand_int_range(rnd, 0, sizeof(ops))]);
        unsigned nz = g_rand_int_range(rnd, 0, 12);
        for (unsigned k = 0; k < nz; k++) {
            unsigned at = g_rand_int_range(rnd, 2, 64);
            r[at] = (uint8_t)g_rand_int_range(rnd, 0, 256);
        }
        if (g_rand_boolean(rnd))
            memset(r + 4, 0, 8);
        /* fresh core state, same memory (records may scribble on it) */
        sched_init(m, 64);
        m->stop = false;
        m->stop_reason = STOP_NONE;
        m->fault_cpu = NULL;
        m->exit_status = 0;
        m->seq[0]->ops->reset(m->seq[0]);
        m->sched.has_icount_limit = true;
        m->sched.icount_limit = 500;
        uint8_t h[64];
        r_halt(h);
        put(m, CODE, r, 64);
        put(m, CODE + 64, h, 64);
        start(m, 0, CODE);
        int st = run(m);
        g_assert_true(st == 0 || (st >= 1 && st <= 124) || st == 132 || st == 135 || st == 139);
        CpuState s = m->seq[0]->state;
        if (st == 132 || st == 135 || st == 139)
            g_assert_cmpuint(s, ==, CPU_FAULTED);
        else if (st == 124)
            g_assert_cmpuint(s, ==, CPU_BLOCKED);
        outcomes[st]++;
        /* drain anything still queued so the next record starts clean */
        while (m->dma.nr && dma_pending(&m->dma))
            dma_advance(&m->dma, 1u << 20);
    }
    g_assert_cmpuint(outcomes[0], >, 0);
    g_assert_cmpuint(outcomes[132], >, 0);
    machine_free(m);
    g_rand_free(rnd);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/seq-exec/alu/values", test_alu_values);
    g_test_add_func("/seq-exec/alu/exec", test_alu_exec);
    g_test_add_func("/seq-exec/move", test_move);
    g_test_add_func("/seq-exec/branch/loop", test_branch_loop);
    g_test_add_func("/seq-exec/branch/dtypes", test_branch_compare_dtypes);
    g_test_add_func("/seq-exec/branch/link-misaligned", test_branch_link_and_misaligned);
    g_test_add_func("/seq-exec/mem2d/extension", test_tld_extension);
    g_test_add_func("/seq-exec/mem2d/strides", test_tld_negative_stride_2d);
    g_test_add_func("/seq-exec/mem2d/window-align", test_tld_window_and_alignment);
    g_test_add_func("/seq-exec/mem2d/store", test_tst);
    g_test_add_func("/seq-exec/mem2d/store-precise", test_tst_precise);
    g_test_add_func("/seq-exec/mem2d/local", test_local_window);
    g_test_add_func("/seq-exec/decode-faults", test_decode_faults);
    g_test_add_func("/seq-exec/events/order", test_events_order_and_dec);
    g_test_add_func("/seq-exec/events/fault", test_events_fault_applies_nothing);
    g_test_add_func("/seq-exec/events/deadlock", test_deadlock_and_block_info);
    g_test_add_func("/seq-exec/events/two-cores", test_two_cores);
    g_test_add_func("/seq-exec/tlb", test_tlb_counts);
    g_test_add_func("/seq-exec/dma/copy", test_dma_copy);
    g_test_add_func("/seq-exec/dma/errors", test_dma_errors);
    g_test_add_func("/seq-exec/dma/compute-drain", test_dma_compute_drain);
    g_test_add_func("/seq-exec/dma/queue-full-drain", test_dma_queue_full_and_drain_block);
    g_test_add_func("/seq-exec/dma/doorbell-record", test_doorbell_record);
    g_test_add_func("/seq-exec/dma/indirect-both", test_dmai_both);
    g_test_add_func("/seq-exec/self-modifying", test_self_modifying);
    g_test_add_func("/seq-exec/access-observer", test_access_observer);
    g_test_add_func("/seq-exec/random-records", test_random_records);
    return g_test_run();
}
