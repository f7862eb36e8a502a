/*
 * Sequencer execution, DMA_MEMCPY and DMA_INDIRECT (sequencer.md §8.11-§8.12, machine.md §5).
 * Records are built byte by byte from the spec tables (not with the assembler), run on a real board
 * through the scheduler, and the architectural state is checked against values worked out from the
 * spec by hand.
 */
#include <string.h>

#include <glib.h>

#include "hw/nc2/board.h"
#include "nxemu/machine.h"
#include "nxemu/sched.h"
#include "target/seq/cpu.h"

#include "seq-testlib.h"

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
    g_assert_cmpuint(m->board->nx[0].regs.r[1], ==, 1); /* _READ fired at issue */
    g_assert_cmpuint(m->board->nx[0].regs.r[2], ==, 0); /* _COMPLETE not yet */
    g_assert_cmphex(m->board->nx[0].regs.r[4], ==, 0xDEADBEEF);
    g_assert_cmphex(get(m, SBUF + 0x10FC, 4), ==, 0xDEADBEEF);
    g_assert_cmpuint(m->board->evsem.sem[9], ==, 1);
    g_assert_cmpuint(m->board->evsem.sem[10], ==, 1);
    g_assert_cmpuint(m->board->evsem.sem[21], ==, 1);
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
    g_assert_cmpuint(m->board->dma.e[0].count, ==, 0);
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
    g_assert_cmpuint(m->board->nx[0].regs.outstanding, ==, 0);
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
    g_assert_cmpuint(m->board->nx[0].regs.block_reason, ==, NX_BLOCK_DMAQ);
    g_assert_cmphex(m->board->nx[0].regs.pc, ==, CODE + 4 * 64);
    m->seq[0]->ops->block_info(m->seq[0], g);
    g_assert_cmpstr(g->str, ==, "dmaq=0");
    /* round 2: the engine freed one slot in round 1: the fifth and sixth
     * issue (the sixth only if a slot is free), then DRAIN blocks */
    while (m->board->nx[0].regs.pc < CODE + 6 * 64)
        g_assert_cmpint(sched_round(m), ==, STOP_NONE);
    g_assert_cmpint(sched_round(m), ==, STOP_NONE);
    if (m->seq[0]->state == CPU_BLOCKED) {
        g_string_truncate(g, 0);
        m->seq[0]->ops->block_info(m->seq[0], g);
        g_assert_cmpstr(g->str, ==, "drain");
    }
    g_string_free(g, TRUE);
    g_assert_cmpint(run(m), ==, 0);
    g_assert_cmpuint(m->board->evsem.sem[2], ==, 6);
    g_assert_cmpuint(m->seq[0]->retired, ==, 8);
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
    g_assert_cmphex(seq_dma_request_from_record(m, &m->board->dma.req_pool, r, &req), ==, 5u << 16);
    g_assert_null(req);
    r_dma(r, DATA, 0x03000000, 4, 4, 1, 1);
    r[6] = 0x03; /* events field nonzero */
    g_assert_cmphex(seq_dma_request_from_record(m, &m->board->dma.req_pool, r, &req), ==, 6u << 16);
    r_dma(r, DATA, 0x03000000, 4, 4, 1, 1);
    a8_reg(r + 40, 1, 2); /* register ADDR8 */
    g_assert_cmphex(seq_dma_request_from_record(m, &m->board->dma.req_pool, r, &req), ==, 7u << 16);
    r_dma(r, DATA, 0x03000000, 4, 4, 1, 1);
    r[60] = 8; /* byte counts differ: dma_byte_count (65) */
    g_assert_cmphex(seq_dma_request_from_record(m, &m->board->dma.req_pool, r, &req), ==,
                    1u << 16 | 65);
    r_dma(r, DATA, DATA + 8, 4, 4, 1, 1); /* overlap */
    g_assert_cmphex(seq_dma_request_from_record(m, &m->board->dma.req_pool, r, &req), ==,
                    2u << 16 | NX_DMA_OVERLAP);
    r_dma(r, DATA + 2, 0x03000000, 4, 4, 1, 1);
    r[15] = 1; /* i32 add from a misaligned start: issue error with detail 0 */
    g_assert_cmphex(seq_dma_request_from_record(m, &m->board->dma.req_pool, r, &req), ==, 2u << 16);
    g_assert_null(req);
    r_dma(r, DATA, 0x03000000, 4, 4, 1, 1);
    g_assert_cmphex(seq_dma_request_from_record(m, &m->board->dma.req_pool, r, &req), ==, 0);
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

/* 0xBB record: n elements of 4 bytes, unit steps, u32; mode 0 gather (sidx),
 * 1 scatter (didx), 2 both; index arrays at SBUF offsets sidx/didx. */
static void r_dmai(uint8_t r[64], uint8_t mode, uint64_t src, uint64_t dst, uint16_t n,
                   uint32_t sidx, uint32_t didx, uint8_t sem, uint8_t inc)
{
    hdr(r, 0xBB);
    r[12] = sem;
    r[13] = inc;
    r[14] = 128;
    r[15] = mode;
    le(r + 16, src, 8);
    le(r + 24, 1, 4);
    le(r + 28, n, 2);
    le(r + 30, 4, 2);
    le(r + 32, dst, 8);
    le(r + 40, 1, 4);
    le(r + 44, n, 2);
    le(r + 46, 4, 2);
    le(r + 48, sidx, 4);
    le(r + 52, didx, 4);
    r[56] = r[57] = 0x9;
}

/* Many DMA instructions through one engine whose queue (depth 4) is full
 * most of the time: every blocked issue is retried, building and
 * validating the request again.  Requests live in the controller's pool,
 * so the number of slots ever allocated is the ring depth plus the one a
 * request is validated in before the issuer knows whether there is room
 * (engine 1 is never used), however many instructions issue; and the
 * results are the spec's. */
static void test_dma_pool_full_queue(void)
{
    enum { ITER = 60 };
    static const uint32_t gidx[4] = {3, 0, 2, 1}, sidx[4] = {1, 3, 0, 2};
    Machine *m = mk(1);
    Prog p = {m, CODE};
    uint8_t r[64];
    for (unsigned i = 0; i < 0x600 / 4; i++)
        put32(m, DATA + 4 * i, 0x1000 + i);
    for (unsigned k = 0; k < 4; k++) {
        put32(m, SBUF + 0x100 + 4 * k, gidx[k]);
        put32(m, SBUF + 0x200 + 4 * k, sidx[k]);
    }
    r_movi(r, 1, ITER);
    emit(&p, r);
    uint64_t loop = p.at;
    for (unsigned i = 0; i < 3; i++) { /* 64 bytes each: 33 cycles */
        r_dma(r, DATA + 0x100 * i, 0x03000000 + 0x100 * i, 16, 4, 2, 1);
        emit(&p, r);
    }
    r_dmai(r, 0, DATA + 0x400, 0x03000400, 4, 0x100, 0, 3, 1); /* gather */
    emit(&p, r);
    r_dmai(r, 1, DATA + 0x500, 0x03000500, 4, 0, 0x200, 3, 1); /* scatter */
    emit(&p, r);
    r_alu(r, 0x05, 0x9, 1, 1, 0, true, 1);
    emit(&p, r);
    r_bimm(r, 4, 0x9, 1, 0, -(int32_t)(p.at - loop));
    emit(&p, r);
    hdr(r, 0xA2); /* drain */
    r[40] = 1;
    emit(&p, r);
    r_halt(r);
    emit(&p, r);
    start(m, 0, CODE);

    unsigned blocked = 0;
    while (m->seq[0]->state == CPU_RUNNING || m->seq[0]->state == CPU_BLOCKED) {
        int stop = sched_round(m);
        g_assert_cmpuint(m->board->dma.pool.in_use, <=, 4 + 1);
        if (stop != STOP_NONE)
            break; /* the halt */
        if (m->seq[0]->state == CPU_BLOCKED && m->board->nx[0].regs.block_reason == NX_BLOCK_DMAQ)
            blocked++;
    }
    g_assert_cmpuint(m->seq[0]->state, ==, CPU_HALTED);
    g_assert_cmpuint(blocked, >, ITER); /* the queue really was full, often */

    /* the pool: depth + 1 slots, all back once the queue drained */
    g_assert_cmpuint(m->board->dma.pool.capacity, ==, 2 * 4 + 1);
    g_assert_cmpuint(m->board->dma.pool.slots, ==, 4 + 1);
    g_assert_cmpuint(m->board->dma.pool.peak, ==, 4 + 1);
    g_assert_cmpuint(m->board->dma.pool.in_use, ==, 0);
    g_assert_cmpuint(dma_pending(&m->board->dma), ==, 0);

    /* the results */
    g_assert_cmpuint(m->seq[0]->retired, ==, 1 + 7 * ITER + 2);
    g_assert_cmpuint(m->board->dma.e[0].completed, ==, 5 * ITER);
    g_assert_cmpuint(m->board->dma.e[0].bytes, ==, ITER * (3 * 64 + 2 * 16));
    g_assert_cmpuint(m->board->dma.e[1].completed, ==, 0);
    g_assert_cmpuint(m->board->evsem.sem[2], ==, 3 * ITER);
    g_assert_cmpuint(m->board->evsem.sem[3], ==, 2 * ITER);
    for (unsigned i = 0; i < 3; i++) { /* 16 words per 0x100 block, the rest untouched */
        for (unsigned w = 0; w < 16; w++)
            g_assert_cmphex(get(m, 0x03000000 + 0x100 * i + 4 * w, 4), ==, 0x1000 + 0x40 * i + w);
        g_assert_cmphex(get(m, 0x03000000 + 0x100 * i + 4 * 16, 4), ==, 0);
    }
    for (unsigned k = 0; k < 4; k++) {
        /* gather: dst[k] = src[gidx[k]]; scatter: dst[sidx[k]] = src[k] */
        g_assert_cmphex(get(m, 0x03000400 + 4 * k, 4), ==, 0x1000 + 0x100 + gidx[k]);
        g_assert_cmphex(get(m, 0x03000500 + 4 * sidx[k], 4), ==, 0x1000 + 0x140 + k);
    }
    g_assert_cmpuint(m->board->nx[0].regs.outstanding, ==, 0);
    machine_free(m);
}

/* DUP_INDEX over the largest index array (N = 4096): the reported entry is
 * the first one repeating an earlier value, not the earlier one; values that
 * differ only in their high bits are distinct; an array without a repeat
 * (and the same one with non_unique_dst_idx) issues. */
static void test_dma_dup_index_large(void)
{
    enum { N = 4096 };
    uint8_t r[64];
    int st;
    for (unsigned pass = 0; pass < 3; pass++) {
        Machine *m = mk(1);
        for (unsigned k = 0; k < N; k++) /* distinct: k << 20 | k % 7 */
            put32(m, SBUF + 0x1000 + 4 * k, (uint32_t)k << 20 | k % 7);
        if (pass == 0) {
            put32(m, SBUF + 0x1000 + 4 * 3000, 1000u << 20 | 1000 % 7); /* = entry 1000 */
            put32(m, SBUF + 0x1000 + 4 * 3500, 2000u << 20 | 2000 % 7); /* later repeat */
        }
        /* destination step 0: every di lands on the same element, so the
         * elements stay in memory whatever the index values */
        r_dmai(r, 1, DATA, 0x03000000, N, 0, 0x1000, 0, 0);
        le(r + 40, 0, 4);
        if (pass == 2) {
            put32(m, SBUF + 0x1000 + 4 * 10, 5u << 20 | 5 % 7); /* = entry 5 */
            r[15] |= 0x8;                                       /* non_unique_dst_idx */
        }
        Prog p = {m, CODE};
        emit(&p, r);
        r_halt(r);
        emit(&p, r);
        start(m, 0, CODE);
        st = run(m);
        if (pass == 0) {
            g_assert_cmpint(st, ==, 135);
            g_assert_cmpuint(m->seq[0]->fault.code, ==, NX_FAULT_DMA_ERROR);
            g_assert_cmpuint(m->seq[0]->fault.info, ==, NX_DMA_DUP_INDEX);
            g_assert_cmphex(m->seq[0]->fault.addr, ==, SBUF + 0x1000 + 4 * 3000);
        } else {
            g_assert_cmpint(st, ==, 0);
            g_assert_cmpuint(m->board->dma.e[0].completed, ==, 1);
        }
        g_assert_cmpuint(m->board->dma.pool.in_use, ==, 0);
        machine_free(m);
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/seq-exec/dma/copy", test_dma_copy);
    g_test_add_func("/seq-exec/dma/errors", test_dma_errors);
    g_test_add_func("/seq-exec/dma/compute-drain", test_dma_compute_drain);
    g_test_add_func("/seq-exec/dma/queue-full-drain", test_dma_queue_full_and_drain_block);
    g_test_add_func("/seq-exec/dma/doorbell-record", test_doorbell_record);
    g_test_add_func("/seq-exec/dma/indirect-both", test_dmai_both);
    g_test_add_func("/seq-exec/dma/pool-full-queue", test_dma_pool_full_queue);
    g_test_add_func("/seq-exec/dma/dup-index-large", test_dma_dup_index_large);
    return g_test_run();
}
