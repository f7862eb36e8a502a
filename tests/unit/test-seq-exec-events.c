/*
 * Sequencer execution, decode faults, events and semaphores, deadlocks, two cores and random
 * records (sequencer.md §3-§4, §10; machine.md §9).  Records are built byte by byte from the spec
 * tables (not with the assembler), run on a real board through the scheduler, and the architectural
 * state is checked against values worked out from the spec by hand.
 */
#include <string.h>

#include <glib.h>

#include "hw/nc2/board.h"
#include "nxemu/machine.h"
#include "nxemu/sched.h"
#include "target/seq/cpu.h"

#include "seq-testlib.h"

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
    g_assert_cmphex(m->board->evsem.sem[1], ==, 0xFFFFFFFF);
    g_assert_cmpuint(m->board->evsem.sem[2], ==, 7);
    g_assert_cmpuint(m->board->evsem.sem[3], ==, 4);
    g_assert_cmpuint(m->board->nx[0].regs.r[6], ==, 9);
    g_assert_cmpuint(m->board->evsem.evt[4], ==, 0);
    g_assert_cmpuint(m->board->evsem.sem[6], ==, 1);
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
    g_assert_cmpuint(m->board->evsem.sem[2], ==, 0);
    g_assert_cmpuint(m->board->evsem.evt[3], ==, 0);
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
    g_assert_cmpint(nx_read(&m->board->nx[0], NX_STATUS, 4, &v, MEMTXATTRS(MEM_REQ_DEBUG, 0)), ==,
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
    g_assert_cmpuint(m->board->evsem.sem[6], ==, 4);
    g_assert_cmpuint(m->seq[1]->retired, ==, 2);
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
        while (m->board->dma.nr && dma_pending(&m->board->dma))
            dma_advance(&m->board->dma, 1u << 20);
    }
    g_assert_cmpuint(outcomes[0], >, 0);
    g_assert_cmpuint(outcomes[132], >, 0);
    machine_free(m);
    g_rand_free(rnd);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/seq-exec/decode-faults", test_decode_faults);
    g_test_add_func("/seq-exec/events/order", test_events_order_and_dec);
    g_test_add_func("/seq-exec/events/fault", test_events_fault_applies_nothing);
    g_test_add_func("/seq-exec/events/deadlock", test_deadlock_and_block_info);
    g_test_add_func("/seq-exec/events/two-cores", test_two_cores);
    g_test_add_func("/seq-exec/random-records", test_random_records);
    return g_test_run();
}
