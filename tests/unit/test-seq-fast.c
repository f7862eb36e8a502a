/*
 * The sequencer's fast paths (target/seq: specialised ALU and branch
 * handlers, the run loop's fast path for pure records) must be invisible:
 * every result, PC, fault, counter and limit is what sequencer.md and
 * machine.md say, exactly as on the general path.
 *
 * Handlers are checked against hand-computed spec values and, over a grid
 * of edge operands, against the general handlers (seq_exec_alu,
 * seq_exec_branch, which test-seq-exec checks against the spec).  Programs
 * are built byte by byte from the record layouts of sequencer.md §8.
 */
#include <string.h>

#include <glib.h>

#include "hw/nc2/board.h"
#include "nxemu/machine.h"
#include "nxemu/sched.h"
#include "target/seq/cpu.h"

#define CODE    0x01000000ull
#define DATA    0x02000000ull
#define TESTDEV 0x2805000000ull

enum { U64 = 0x1, I32 = 0x8, U32 = 0x9, I64 = 0xC, I8 = 0x2, U16 = 0x5, F32 = 0xA };

static Machine *mk(void)
{
    MachineConfig cfg = {
        .hbm_size = 64ull << 20,
        .nr_seq = 1,
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
    return m;
}

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

static void r_alu(uint8_t r[64], uint8_t op, uint8_t dt, bool use_imm, uint64_t imm)
{
    /* 32-bit: r3 = r1 op (r2 | imm); 64-bit: r5:r4 = r7:r6 op (r9:r8 | imm) */
    bool wide = dt == I64 || dt == U64;
    hdr(r, 0xA8);
    r[12] = op;
    r[13] = dt;
    r[14] = use_imm;
    r[16] = wide ? 6 : 1;
    r[17] = wide ? 7 : 0;
    if (seq_alu_unary(op)) {
        /* unary: src1 unused, left zero */
    } else if (!use_imm) {
        r[18] = wide ? 8 : 2;
        r[19] = wide ? 9 : 0;
    } else {
        le(r + 24, imm, wide ? 8 : 4);
    }
    r[20] = wide ? 4 : 3;
    r[21] = wide ? 5 : 0;
}

/* bCC.T r1, (rhs imm | r2), target (mode 0 abs, 3 rel) */
static void r_branch(uint8_t r[64], uint8_t cmp, uint8_t dt, uint32_t rhs, uint8_t mode,
                     uint64_t tgt)
{
    hdr(r, 0xA9);
    r[12] = cmp;
    r[13] = cmp ? dt : 0;
    r[14] = mode;
    if (cmp && cmp < 9)
        le(r + 16, rhs, 4);
    r[32] = cmp ? 1 : 0;
    r[33] = cmp >= 9 ? 2 : 0;
    le(r + 48, tgt, 8);
}

static void r_halt(uint8_t r[64])
{
    hdr(r, 0xA1);
}

/* mov.u32 {dst}, {imm} */
static void r_movi(uint8_t r[64], uint8_t dst, uint32_t imm)
{
    hdr(r, 0xA7);
    r[12] = 1;
    r[13] = U32;
    r[14] = 1;
    r[24] = dst;
    le(r + 32, imm, 4);
}

static void put(Machine *m, uint64_t pa, const void *buf, uint64_t len)
{
    uint64_t bad;
    g_assert_cmpint(
        as_rw_bytes(m->as, pa, (void *)buf, len, true, MEMTXATTRS(MEM_REQ_LOADER, 0), &bad), ==,
        MEMTX_OK);
}

/* ---- handlers against the spec ----------------------------------------- */

/* Run one decoded record on core 0 with the given registers. */
static SeqStatus exec1(Machine *m, const uint8_t rec[64], bool fast, const uint32_t regs[10],
                       uint32_t out[10], uint64_t *next_pc)
{
    SeqCpu *s = seq_cpu(m->seq[0]);
    SeqDecoded d;
    seq_decode_record(&d, rec);
    if (!d.fn)
        g_error("record %02x op %02x dt %02x: decode fault %u info %u", rec[0], rec[12], rec[13],
                d.dfault.code, d.dfault.info);
    if (!fast)
        d.fn = rec[0] == 0xA8 ? seq_exec_alu : seq_exec_branch;
    memset(s->regs->r, 0, sizeof(s->regs->r));
    memcpy(s->regs->r, regs, 10 * sizeof(uint32_t));
    s->regs->pc = CODE + 0x400;
    s->next_pc = s->regs->pc + 64;
    SeqStatus st = d.fn(s, &d);
    memcpy(out, s->regs->r, 10 * sizeof(uint32_t));
    *next_pc = s->next_pc;
    return st;
}

static uint32_t alu32(Machine *m, uint8_t op, uint8_t dt, uint32_t a, uint32_t b)
{
    uint8_t rec[64];
    uint32_t in[10] = {0, a, b}, out[10];
    uint64_t npc;
    r_alu(rec, op, dt, false, 0);
    g_assert_cmpint(exec1(m, rec, true, in, out, &npc), ==, SEQ_OK);
    return out[3];
}

static void test_alu_spec_values(void)
{
    Machine *m = mk();
    /* sequencer.md §8.7: signedness from the dtype; ashr replicates the
     * sign bit for every dtype; comparisons give 1 or 0. */
    g_assert_cmphex(alu32(m, 0x08, I32, 0xFFFFFFFF, 1), ==, 1);
    g_assert_cmphex(alu32(m, 0x08, U32, 0xFFFFFFFF, 1), ==, 0xFFFFFFFF);
    g_assert_cmphex(alu32(m, 0x09, I32, 0xFFFFFFFF, 1), ==, 0xFFFFFFFF);
    g_assert_cmphex(alu32(m, 0x09, U32, 0xFFFFFFFF, 1), ==, 1);
    g_assert_cmphex(alu32(m, 0x03, U32, 0x80000000, 4), ==, 0xF8000000);
    g_assert_cmphex(alu32(m, 0x03, I32, 0x40000000, 33), ==, 0x20000000); /* shift mod 32 */
    g_assert_cmphex(alu32(m, 0x11, U32, 0x80000000, 4), ==, 0x08000000);
    g_assert_cmphex(alu32(m, 0x10, U32, 1, 35), ==, 8);
    g_assert_cmphex(alu32(m, 0x17, I32, 0x7FFFFFFF, 0x80000000), ==, 0xFFFFFFFF);
    g_assert_cmphex(alu32(m, 0x17, U32, 3, 10), ==, 7);
    g_assert_cmphex(alu32(m, 0x12, U32, 5, 5), ==, 1);
    g_assert_cmphex(alu32(m, 0x18, U32, 5, 5), ==, 0);
    g_assert_cmphex(alu32(m, 0x13, I32, 0xFFFFFFFF, 0), ==, 0); /* -1 > 0 false */
    g_assert_cmphex(alu32(m, 0x13, U32, 0xFFFFFFFF, 0), ==, 1);
    g_assert_cmphex(alu32(m, 0x16, I32, 0x80000000, 0), ==, 1);
    g_assert_cmphex(alu32(m, 0x14, I32, 3, 3), ==, 1);
    g_assert_cmphex(alu32(m, 0x15, U32, 4, 3), ==, 0);
    g_assert_cmphex(alu32(m, 0x19, I32, 0xFFFFFFFB, 0), ==, 5);
    g_assert_cmphex(alu32(m, 0x19, I32, 0x80000000, 0), ==, 0x80000000);
    g_assert_cmphex(alu32(m, 0x01, U32, 0x0F0F0F0F, 0), ==, 0xF0F0F0F0);
    g_assert_cmphex(alu32(m, 0x0D, U32, 2, 4), ==, 1);
    g_assert_cmphex(alu32(m, 0x0F, U32, 2, 4), ==, 0);
    g_assert_cmphex(alu32(m, 0x06, U32, 0x10000, 0x10000), ==, 0);

    /* 64-bit pairs: the carry crosses into the high register. */
    uint8_t rec[64];
    uint32_t in[10] = {0}, out[10];
    uint64_t npc;
    in[6] = 0xFFFFFFFF, in[7] = 0x00000001;
    r_alu(rec, 0x04, I64, true, 1);
    g_assert_cmpint(exec1(m, rec, true, in, out, &npc), ==, SEQ_OK);
    g_assert_cmphex(out[4], ==, 0);
    g_assert_cmphex(out[5], ==, 2);
    in[8] = 1, in[9] = 0;
    r_alu(rec, 0x05, U64, false, 0);
    in[6] = 0, in[7] = 0;
    g_assert_cmpint(exec1(m, rec, true, in, out, &npc), ==, SEQ_OK);
    g_assert_cmphex(out[4], ==, 0xFFFFFFFF);
    g_assert_cmphex(out[5], ==, 0xFFFFFFFF);
    machine_free(m);
}

static const uint32_t edge32[] = {0,          1,          2,          3,          31,
                                  32,         33,         0x7F,       0x80,       0xFF,
                                  0x7FFFFFFF, 0x80000000, 0x80000001, 0xFFFFFFFE, 0xFFFFFFFF};

static void test_alu_fast_matches_general(void)
{
    Machine *m = mk();
    static const uint8_t dts[] = {I32, U32, I64, U64};
    unsigned fast_seen = 0;
    for (unsigned op = 0; op < 256; op++) {
        if (!seq_alu_mnemonic(op))
            continue;
        for (unsigned t = 0; t < G_N_ELEMENTS(dts); t++) {
            for (int imm = 0; imm < 2; imm++) {
                uint8_t rec[64];
                SeqDecoded d;
                r_alu(rec, (uint8_t)op, dts[t], imm, 0);
                seq_decode_record(&d, rec);
                if (!d.fn || d.fn == seq_exec_alu)
                    continue; /* not valid for this dtype, or no fast handler */
                g_assert_true(d.pure);
                fast_seen++;
                for (unsigned i = 0; i < G_N_ELEMENTS(edge32); i++) {
                    for (unsigned j = 0; j < G_N_ELEMENTS(edge32); j++) {
                        uint32_t in[10] = {0}, o1[10], o2[10];
                        uint64_t n1, n2;
                        uint32_t a = edge32[i], b = edge32[j];
                        in[1] = a, in[2] = b;
                        in[6] = a, in[7] = b, in[8] = b, in[9] = a;
                        r_alu(rec, (uint8_t)op, dts[t], imm,
                              dts[t] == I64 || dts[t] == U64 ? (uint64_t)b << 32 | a : b);
                        g_assert_cmpint(exec1(m, rec, true, in, o1, &n1), ==, SEQ_OK);
                        g_assert_cmpint(exec1(m, rec, false, in, o2, &n2), ==, SEQ_OK);
                        if (memcmp(o1, o2, sizeof(o1)) != 0)
                            g_error("op 0x%02x dt %u imm %d a=0x%x b=0x%x: fast r3=0x%x r4:5="
                                    "%x:%x, general r3=0x%x r4:5=%x:%x",
                                    op, dts[t], imm, a, b, o1[3], o1[5], o1[4], o2[3], o2[5],
                                    o2[4]);
                        g_assert_cmphex(n1, ==, n2);
                    }
                }
            }
        }
    }
    /* The common integer ops all have one (32-bit: 26 ops; 64-bit: 5). */
    g_assert_cmpuint(fast_seen, >=, 2 * (2 * 26 + 2 * 5));
    machine_free(m);
}

static void test_branch_fast_matches_general(void)
{
    Machine *m = mk();
    static const uint8_t cmps[] = {0, 1, 2, 3, 4, 5, 6, 9, 10, 11, 12, 13, 14};
    static const uint8_t dts[] = {I32, U32, I8, U16};
    static const uint8_t modes[] = {0, 3};
    static const uint64_t tgts[] = {CODE + 0x1000, 0xFFFFFFC0 /* rel -64 */, CODE + 0x1004};
    for (unsigned c = 0; c < G_N_ELEMENTS(cmps); c++)
        for (unsigned t = 0; t < G_N_ELEMENTS(dts); t++)
            for (unsigned md = 0; md < G_N_ELEMENTS(modes); md++)
                for (unsigned g = 0; g < G_N_ELEMENTS(tgts); g++)
                    for (unsigned i = 0; i < G_N_ELEMENTS(edge32); i++)
                        for (unsigned j = 0; j < G_N_ELEMENTS(edge32); j += 2) {
                            uint8_t rec[64];
                            uint32_t in[10] = {0, edge32[i], edge32[j]}, o1[10], o2[10];
                            uint64_t n1, n2;
                            SeqDecoded d;
                            r_branch(rec, cmps[c], dts[t], edge32[j], modes[md], tgts[g]);
                            seq_decode_record(&d, rec);
                            if (!d.fn)
                                continue; /* the decoder rejects the form */
                            SeqStatus s1 = exec1(m, rec, true, in, o1, &n1);
                            NxFault f1 = seq_cpu(m->seq[0])->fault;
                            SeqStatus s2 = exec1(m, rec, false, in, o2, &n2);
                            NxFault f2 = seq_cpu(m->seq[0])->fault;
                            g_assert_cmpint(s1, ==, s2);
                            if (s1 == SEQ_OK)
                                g_assert_cmphex(n1, ==, n2);
                            else
                                g_assert_true(memcmp(&f1, &f2, sizeof(f1)) == 0);
                        }
    /* bne.u32 r1, 0, .-64 from CODE+0x400: taken to CODE+0x3C0 (§8.8). */
    uint8_t rec[64];
    uint32_t in[10] = {0, 5}, out[10];
    uint64_t npc;
    r_branch(rec, 4, U32, 0, 3, 0xFFFFFFC0);
    g_assert_cmpint(exec1(m, rec, true, in, out, &npc), ==, SEQ_OK);
    g_assert_cmphex(npc, ==, CODE + 0x3C0);
    in[1] = 0;
    g_assert_cmpint(exec1(m, rec, true, in, out, &npc), ==, SEQ_OK);
    g_assert_cmphex(npc, ==, CODE + 0x440);
    machine_free(m);
}

/* The semantics are complete and the form lists are live: every ALU_OP
 * the decoder accepts computes (a SEQ_ALU_OP row without its case in
 * alu-int.inc or seq_alu_f32 would not), and every form of SEQ_ALU_FORMS and
 * SEQ_BR_FORMS is what some record decodes to. */
static void test_forms_complete(void)
{
    static const uint8_t dts[] = {I32, U32, I64, U64, F32};
    static const uint8_t br_dts[] = {I32, U32, I8, U16, F32};
    bool seen[SEQ_K_COUNT] = {false};
    for (unsigned op = 0; op < 256; op++) {
        if (!seq_alu_mnemonic(op))
            continue;
        for (unsigned t = 0; t < G_N_ELEMENTS(dts); t++)
            for (int imm = 0; imm < 2; imm++) {
                uint8_t rec[64];
                SeqDecoded d;
                uint64_t res;
                r_alu(rec, (uint8_t)op, dts[t], imm, 5);
                seq_decode_record(&d, rec);
                if (!d.fn)
                    continue;
                if (!seq_alu_compute((uint8_t)op, dts[t], 7, 5, &res))
                    g_error("ALU op 0x%02x dtype 0x%x: accepted by the decoder, no semantics", op,
                            dts[t]);
                seen[d.kind] = true;
            }
    }
    for (uint8_t cmp = 0; cmp <= 6; cmp++)
        for (unsigned t = 0; t < G_N_ELEMENTS(br_dts); t++)
            for (uint8_t mode = 0; mode <= 3; mode += 3) {
                uint8_t rec[64];
                SeqDecoded d;
                r_branch(rec, cmp, br_dts[t], 1, mode, CODE + 0x1000);
                seq_decode_record(&d, rec);
                if (d.fn)
                    seen[d.kind] = true;
            }
#define ALU_SEEN(K, OP, W, SG)                                                                     \
    if (!seen[SEQ_K_##K##_RR] || !seen[SEQ_K_##K##_RI])                                            \
        g_error("ALU form " #K " (" #OP ", " #W ", " #SG "): no record decodes to it");
    SEQ_ALU_FORMS(ALU_SEEN)
#undef ALU_SEEN
#define BR_SEEN(K, COND, DT)                                                                       \
    if (!seen[SEQ_K_BR_##K])                                                                       \
        g_error("branch form " #K " (" #COND ", " #DT "): no record decodes to it");
    SEQ_BR_FORMS(BR_SEEN)
#undef BR_SEEN
}

/* ---- the run loop ------------------------------------------------------- */

/* CODE: mov r1, N; loop: add r2, r2, 3; sub r1, r1, 1; bne r1, 0, loop;
 * write PASS; halt. */
static void load_loop(Machine *m, uint32_t n)
{
    uint8_t r[6][64];
    r_movi(r[0], 1, n);
    r_alu(r[1], 0x04, U32, true, 3);
    r[1][16] = 2, r[1][20] = 2;
    r_alu(r[2], 0x05, U32, true, 1);
    r[2][16] = 1, r[2][20] = 1;
    r_branch(r[3], 4, U32, 0, 3, (uint64_t)(uint32_t)-128);
    hdr(r[4], 0xA5); /* write.u32 [TESTDEV], 0x5555 */
    r[4][12] = 1;
    r[4][13] = U32;
    le(r[4] + 16, TESTDEV, 8);
    le(r[4] + 24, 0x5555, 4);
    r_halt(r[5]);
    put(m, CODE, r, sizeof(r));
    m->board->nx[0].entry = CODE;
    m->board->nx[0].regs.pc = CODE;
    m->seq[0]->state = CPU_RUNNING;
}

static void test_loop_counts(void)
{
    Machine *m = mk();
    load_loop(m, 1000);
    g_assert_cmpint(sched_run(m), ==, 0);
    /* The PASS write ends the run at once (machine.md §7): halt never runs. */
    g_assert_cmpuint(m->seq[0]->retired, ==, 1 + 3 * 1000 + 1);
    g_assert_cmpuint(m->sched.icount, ==, 1 + 3 * 1000 + 1);
    g_assert_cmphex(m->board->nx[0].regs.r[2], ==, 3000);
    g_assert_cmphex(m->board->nx[0].regs.r[1], ==, 0);
    machine_free(m);
}

/* machine.md §9.2: -icount-limit N stops after exactly N instructions, at
 * the instruction boundary, whatever path executed them. */
static void test_icount_limit(void)
{
    static const uint64_t limits[] = {1, 2, 63, 64, 65, 100, 1000};
    for (unsigned i = 0; i < G_N_ELEMENTS(limits); i++) {
        uint64_t n = limits[i];
        Machine *m = mk();
        load_loop(m, 1000);
        m->sched.has_icount_limit = true;
        m->sched.icount_limit = n;
        g_assert_cmpint(sched_run(m), ==, 123);
        g_assert_cmpuint(m->sched.icount, ==, n);
        g_assert_cmpuint(m->seq[0]->retired, ==, n);
        /* After the mov, each iteration is 3 instructions of 64 bytes. */
        uint64_t k = n - 1;
        g_assert_cmphex(m->board->nx[0].regs.pc, ==, CODE + 64 + 64 * (k % 3));
        g_assert_cmphex(m->board->nx[0].regs.r[2], ==, 3 * ((k + 2) / 3));
        /* Retirement time of the n-th instruction: one cycle each (§8). */
        g_assert_cmpuint(m->sched.limit_vtime, ==, n);
        machine_free(m);
    }
}

/* A fault right after a run of pure records is precise: PC, counters and
 * registers show exactly the instructions before it (machine.md §9.1). */
static void test_fast_fault(void)
{
    Machine *m = mk();
    uint8_t r[4][64];
    r_movi(r[0], 1, 7);
    r_alu(r[1], 0x04, U32, true, 1);
    r[1][16] = 1, r[1][20] = 1;
    hdr(r[2], 0xFF); /* not an opcode */
    r_halt(r[3]);
    put(m, CODE, r, sizeof(r));
    m->board->nx[0].regs.pc = CODE;
    m->seq[0]->state = CPU_RUNNING;
    g_assert_cmpint(sched_run(m), ==, 128 + nx_fault_signal(NX_FAULT_INVALID_OPCODE));
    g_assert_cmpuint(m->seq[0]->state, ==, CPU_FAULTED);
    g_assert_cmpuint(m->seq[0]->fault.code, ==, NX_FAULT_INVALID_OPCODE);
    g_assert_cmphex(m->seq[0]->fault_pc, ==, CODE + 128);
    g_assert_cmpuint(m->seq[0]->retired, ==, 2);
    g_assert_cmpuint(m->sched.icount, ==, 2);
    g_assert_cmphex(m->board->nx[0].regs.r[1], ==, 8);
    machine_free(m);
}

/* Code written while it runs: the next fetch of the rewritten record sees
 * the new bytes (decode-cache coherence, design.md), also for records the
 * fast path had cached as pure. */
static void test_self_modifying(void)
{
    Machine *m = mk();
    uint8_t r[8][64];
    /* 0: mov r1, 2 (loop counter)
     * 1: add r2, r2, 1          <- rewritten to add r2, r2, 100
     * 2: sub r1, r1, 1
     * 3: beq r1, 0, 6
     * 4: tst.u32 [CODE+64], {r10..r25} (16 words = the new record's first half)
     * 5: b 1
     * 6: halt */
    r_movi(r[0], 1, 2);
    r_alu(r[1], 0x04, U32, true, 1);
    r[1][16] = 2, r[1][20] = 2;
    r_alu(r[2], 0x05, U32, true, 1);
    r[2][16] = 1, r[2][20] = 1;
    r_branch(r[3], 3, U32, 0, 0, CODE + 6 * 64);
    hdr(r[4], 0xAB);
    r[4][12] = U32;
    r[4][14] = 16;
    r[4][15] = 1;
    le(r[4] + 16, CODE + 64, 8);
    le(r[4] + 24, 1, 4);
    for (unsigned i = 0; i < 16; i++)
        r[4][32 + i] = (uint8_t)(10 + i);
    r_branch(r[5], 0, 0, 0, 0, CODE + 64);
    r_halt(r[6]);
    memset(r[7], 0, 64);
    put(m, CODE, r, sizeof(r));

    uint8_t newrec[64];
    r_alu(newrec, 0x04, U32, true, 100);
    newrec[16] = 2, newrec[20] = 2;
    for (unsigned i = 0; i < 16; i++) {
        uint32_t w;
        memcpy(&w, newrec + 4 * i, 4);
        m->board->nx[0].regs.r[10 + i] = GUINT32_FROM_LE(w);
    }
    m->board->nx[0].regs.pc = CODE;
    m->seq[0]->state = CPU_RUNNING;
    g_assert_cmpint(sched_run(m), ==, 0);
    /* First pass adds 1, the second runs the rewritten record: 1 + 100. */
    g_assert_cmphex(m->board->nx[0].regs.r[2], ==, 101);
    g_assert_cmpuint(m->seq[0]->retired, ==, 1 + 5 + 3 + 1);
    machine_free(m);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/seq-fast/alu/spec-values", test_alu_spec_values);
    g_test_add_func("/seq-fast/alu/matches-general", test_alu_fast_matches_general);
    g_test_add_func("/seq-fast/branch/matches-general", test_branch_fast_matches_general);
    g_test_add_func("/seq-fast/forms/complete", test_forms_complete);
    g_test_add_func("/seq-fast/run/loop-counts", test_loop_counts);
    g_test_add_func("/seq-fast/run/icount-limit", test_icount_limit);
    g_test_add_func("/seq-fast/run/fault", test_fast_fault);
    g_test_add_func("/seq-fast/run/self-modifying", test_self_modifying);
    return g_test_run();
}
