/* DMA engines (machine.md §5.2, §5.3): cost formula, budget carried over
 * between requests, FIFO order, independent engines, completion order (data,
 * then semaphore, then _COMPLETE update, then DRAIN bookkeeping), the
 * register file and the doorbell's memory check. */
#include <glib.h>

#include "hw/nc2/board.h"
#include "hw/nc2/dma.h"
#include "nxemu/machine.h"

#define HBM_SIZE  (64ull << 20)
#define DMA_PA(e) (0x2803800000ull + (e)*0x1000ull)

typedef struct Ctx {
    Machine *m;
    GArray *order;    /* ids in completion order */
    uint32_t seen[8]; /* sem[0] as the data mover saw it, per id */
} Ctx;

typedef struct TReq {
    DmaRequest r; /* first: the engine hands back &r */
    int id;
    Ctx *ctx;
} TReq;

static void treq_complete(Machine *m, DmaRequest *req)
{
    TReq *t = (TReq *)req;
    g_array_append_val(t->ctx->order, t->id);
    t->ctx->seen[t->id] = m->board->evsem.sem[0];
}

static void treq_release(DmaRequest *req)
{
    g_free(req);
}

static DmaRequest *treq(Ctx *c, int id, uint64_t bytes, int owner)
{
    TReq *t = g_new0(TReq, 1);
    t->r.bytes = bytes;
    t->r.owner = owner;
    t->r.complete = treq_complete;
    t->r.release = treq_release;
    t->id = id;
    t->ctx = c;
    return &t->r;
}

static void ctx_init(Ctx *c, unsigned engines, unsigned depth)
{
    *c = (Ctx){0};
    Machine *m = c->m = g_new0(Machine, 1);
    m->board = g_new0(NxBoard, 1);
    m->cfg.nr_seq = 2;
    m->cfg.nr_dma = engines;
    mr_init_container(&m->sysmem, "system", 1ull << 40);
    mr_init_ram(&m->board->hbm, "hbm", HBM_SIZE, MR_F_FETCH | MR_F_DMA);
    mr_add_subregion(&m->sysmem, 0, &m->board->hbm, 0);
    evsem_init(&m->board->evsem, m);
    m->board->nx = g_new0(NxBlock, 2);
    for (unsigned i = 0; i < 2; i++) {
        nx_init(&m->board->nx[i], m, i, 16, 2);
    }
    dma_init(&m->board->dma, m, engines, depth, 64, 32);
    for (unsigned e = 0; e < engines; e++) {
        mr_add_subregion(&m->sysmem, DMA_PA(e), &m->board->dma.e[e].mmio, 0);
    }
    m->as = as_new("pa", &m->sysmem);
    c->order = g_array_new(FALSE, FALSE, sizeof(int));
}

static void ctx_fini(Ctx *c)
{
    Machine *m = c->m;
    as_free(m->as);
    dma_destroy(&m->board->dma);
    for (unsigned i = 0; i < 2; i++) {
        nx_destroy(&m->board->nx[i]);
    }
    g_free(m->board->nx);
    evsem_destroy(&m->board->evsem);
    mr_destroy(&m->board->hbm);
    mr_destroy(&m->sysmem);
    g_free(m->board);
    g_free(m);
    g_array_free(c->order, TRUE);
}

static int order_at(Ctx *c, unsigned i)
{
    return g_array_index(c->order, int, i);
}

static void test_cost_formula(void)
{
    Ctx c;
    ctx_init(&c, 1, 8);
    DmaEngine *e = &c.m->board->dma.e[0];
    /* 32 + ceil(100/64) = 34; 32 + ceil(0/64) = 32; 32 + 64/64 = 33; 32 + ceil(65/64) = 34 */
    static const uint64_t bytes[] = {100, 0, 64, 65, 4096};
    static const uint64_t cost[] = {34, 32, 33, 34, 96};
    for (unsigned i = 0; i < G_N_ELEMENTS(bytes); i++) {
        DmaRequest *r = treq(&c, 0, bytes[i], -1);
        dma_push(e, r);
        g_assert_cmpuint(r->cost, ==, cost[i]);
        g_assert_cmpuint(dma_next_completion(&c.m->board->dma), ==, cost[i]);
        g_assert_cmpuint(dma_advance(&c.m->board->dma, cost[i] - 1), ==, 0);
        g_assert_cmpuint(dma_next_completion(&c.m->board->dma), ==, 1);
        g_assert_cmpuint(dma_advance(&c.m->board->dma, 1), ==, 1);
        g_assert_cmpuint(dma_pending(&c.m->board->dma), ==, 0);
    }
    g_assert_cmpuint(e->completed, ==, 5);
    g_assert_cmpuint(e->bytes, ==, 100 + 64 + 65 + 4096);
    ctx_fini(&c);
}

static void test_budget_carry_over(void)
{
    Ctx c;
    ctx_init(&c, 1, 8);
    DmaEngine *e = &c.m->board->dma.e[0];
    dma_push(e, treq(&c, 0, 100, -1)); /* 34 */
    dma_push(e, treq(&c, 1, 64, -1));  /* 33 */
    dma_push(e, treq(&c, 2, 1, -1));   /* 33 */
    /* Round of 64: request 0 takes 34, request 1 gets the other 30. */
    g_assert_cmpuint(dma_advance(&c.m->board->dma, 64), ==, 1);
    g_assert_cmpuint(dma_next_completion(&c.m->board->dma), ==, 3);
    /* Next round: 3 finish request 1, 33 finish request 2, 28 are left over. */
    g_assert_cmpuint(dma_advance(&c.m->board->dma, 64), ==, 2);
    g_assert_cmpuint(c.order->len, ==, 3);
    g_assert_cmpint(order_at(&c, 0), ==, 0);
    g_assert_cmpint(order_at(&c, 1), ==, 1);
    g_assert_cmpint(order_at(&c, 2), ==, 2);
    g_assert_cmpuint(dma_next_completion(&c.m->board->dma), ==, UINT64_MAX);
    /* Budget is not banked across rounds on an idle engine. */
    dma_push(e, treq(&c, 3, 64, -1)); /* 33 */
    g_assert_cmpuint(dma_advance(&c.m->board->dma, 32), ==, 0);
    g_assert_cmpuint(dma_advance(&c.m->board->dma, 1), ==, 1);
    ctx_fini(&c);
}

static void test_fifo_and_independent_engines(void)
{
    Ctx c;
    ctx_init(&c, 2, 8);
    /* Engine 1 gets a short request after engine 0's long one: engines run
     * in parallel, each with the full budget. */
    dma_push(&c.m->board->dma.e[0], treq(&c, 0, 64 * 40, -1)); /* 72 */
    dma_push(&c.m->board->dma.e[0], treq(&c, 1, 1, -1));       /* 33 */
    dma_push(&c.m->board->dma.e[1], treq(&c, 2, 64 * 8, -1));  /* 40 */
    dma_push(&c.m->board->dma.e[1], treq(&c, 3, 64 * 8, -1));  /* 40 */
    g_assert_cmpuint(dma_pending(&c.m->board->dma), ==, 4);
    g_assert_cmpuint(dma_next_completion(&c.m->board->dma), ==, 40);
    g_assert_cmpuint(dma_advance(&c.m->board->dma, 64), ==, 1); /* engine 1's first */
    g_assert_cmpint(order_at(&c, 0), ==, 2);
    /* Next round: engines in ascending order: engine 0 finishes 0 (8 left)
     * and then 1 (33 more = 41 <= 64); engine 1 finishes 3 (16 left). */
    g_assert_cmpuint(dma_advance(&c.m->board->dma, 64), ==, 3);
    g_assert_cmpint(order_at(&c, 1), ==, 0);
    g_assert_cmpint(order_at(&c, 2), ==, 1);
    g_assert_cmpint(order_at(&c, 3), ==, 3);
    ctx_fini(&c);
}

static void test_completion_order(void)
{
    Ctx c;
    ctx_init(&c, 1, 8);
    Machine *m = c.m;
    m->board->nx[1].regs.outstanding = 2;
    DmaRequest *r = treq(&c, 0, 64, 1);
    r->sem = 0;
    r->sem_inc = 5;
    /* _COMPLETE SEM_WR_IMM on the same semaphore: applied after the
     * increment, so the final value is exactly the written one. */
    r->upd_mode = 0x19;
    r->upd_idx = 0;
    r->upd_value = 100;
    m->board->evsem.sem[0] = 1;
    dma_push(&m->board->dma.e[0], r);
    DmaRequest *r2 = treq(&c, 1, 64, 1);
    r2->sem = 0;
    r2->sem_inc = 2;
    r2->upd_mode = 0x11; /* _COMPLETE EVT_SET */
    r2->upd_idx = 9;
    dma_push(&m->board->dma.e[0], r2);
    DmaRequest *r3 = treq(&c, 2, 64, -1); /* doorbell-style: no owner */
    dma_push(&m->board->dma.e[0], r3);

    g_assert_cmpuint(dma_advance(&m->board->dma, 33), ==, 1);
    g_assert_cmpuint(c.seen[0], ==, 1); /* data moved before the increment */
    g_assert_cmpuint(m->board->evsem.sem[0], ==, 100);
    g_assert_cmpuint(m->board->nx[1].regs.outstanding, ==, 1);

    g_assert_cmpuint(dma_advance(&m->board->dma, 33), ==, 1);
    g_assert_cmpuint(c.seen[1], ==, 100);
    g_assert_cmpuint(m->board->evsem.sem[0], ==, 102);
    g_assert_cmpuint(m->board->evsem.evt[9], ==, 1);
    g_assert_cmpuint(m->board->nx[1].regs.outstanding, ==, 0);

    g_assert_cmpuint(dma_advance(&m->board->dma, 33), ==, 1);
    g_assert_cmpuint(m->board->evsem.sem[0], ==, 102); /* sem_inc 0: untouched */
    g_assert_cmpuint(m->board->nx[0].regs.outstanding, ==, 0);
    g_assert_cmpuint(m->board->nx[1].regs.outstanding, ==, 0);
    ctx_fini(&c);
}

static uint64_t rd(Machine *m, unsigned e, uint64_t off, unsigned size)
{
    uint64_t v = 0xDEAD;
    g_assert_cmpint(as_read(m->as, DMA_PA(e) + off, size, &v, MEMTXATTRS(MEM_REQ_SEQ, 0)), ==,
                    MEMTX_OK);
    return v;
}

static void wr(Machine *m, unsigned e, uint64_t off, unsigned size, uint64_t v)
{
    g_assert_cmpint(as_write(m->as, DMA_PA(e) + off, size, v, MEMTXATTRS(MEM_REQ_SEQ, 0)), ==,
                    MEMTX_OK);
}

static void test_registers(void)
{
    Ctx c;
    ctx_init(&c, 2, 3);
    Machine *m = c.m;
    DmaEngine *e = &m->board->dma.e[1];
    g_assert_cmphex(rd(m, 1, 0x00, 4), ==, 0);
    g_assert_cmpuint(rd(m, 1, 0x28, 4), ==, 3);
    dma_push(e, treq(&c, 0, 1000, -1));
    dma_push(e, treq(&c, 1, 24, -1));
    g_assert_cmphex(rd(m, 1, 0x00, 4), ==, 0x201); /* busy, occupancy 2 */
    g_assert_false(dma_queue_full(e));
    dma_push(e, treq(&c, 2, 8, -1));
    g_assert_true(dma_queue_full(e));
    g_assert_cmphex(rd(m, 1, 0x00, 4), ==, 0x301);
    g_assert_cmphex(rd(m, 0, 0x00, 4), ==, 0); /* the other engine */
    dma_advance(&m->board->dma, 1000);
    g_assert_cmphex(rd(m, 1, 0x00, 4), ==, 0);
    g_assert_cmpuint(rd(m, 1, 0x08, 8), ==, 3);
    g_assert_cmpuint(rd(m, 1, 0x10, 8), ==, 1032);
    g_assert_cmpuint(rd(m, 1, 0x10, 4), ==, 1032);
    g_assert_cmpuint(rd(m, 1, 0x14, 4), ==, 0);

    /* DESC_ADDR RW (also as halves); RO registers ignore writes. */
    wr(m, 1, 0x18, 8, 0x123456789ABCDEC0ull);
    g_assert_cmphex(rd(m, 1, 0x18, 8), ==, 0x123456789ABCDEC0ull);
    wr(m, 1, 0x1C, 4, 0x1);
    g_assert_cmphex(rd(m, 1, 0x18, 8), ==, 0x19ABCDEC0ull);
    wr(m, 1, 0x00, 4, 0xFFFF);
    wr(m, 1, 0x08, 8, 0);
    wr(m, 1, 0x28, 4, 99);
    wr(m, 1, 0x24, 4, 99);
    g_assert_cmphex(rd(m, 1, 0x08, 8), ==, 3);
    g_assert_cmpuint(rd(m, 1, 0x28, 4), ==, 3);
    g_assert_cmpuint(rd(m, 1, 0x24, 4), ==, 0);
    g_assert_cmpuint(rd(m, 1, 0x20, 4), ==, 0);  /* DOORBELL is write-only */
    g_assert_cmpuint(rd(m, 1, 0x800, 8), ==, 0); /* reserved */

    uint64_t v;
    g_assert_cmpint(as_read(m->as, DMA_PA(1) + 0x0, 2, &v, MEMTXATTRS(MEM_REQ_SEQ, 0)), !=,
                    MEMTX_OK);
    g_assert_cmpint(as_read(m->as, DMA_PA(1) + 0x4, 8, &v, MEMTXATTRS(MEM_REQ_SEQ, 0)), !=,
                    MEMTX_OK);
    ctx_fini(&c);
}

static void test_doorbell_rejections(void)
{
    Ctx c;
    ctx_init(&c, 1, 4);
    Machine *m = c.m;
    g_assert_cmphex(rd(m, 0, 0x24, 4), ==, 0);
    /* Record not in DMA-able memory: kind 4.  The EVSEM-free map has
     * nothing at 0x28_0000_0000; a record straddling the end of HBM fails too. */
    wr(m, 0, 0x18, 8, 0x2800000000ull);
    wr(m, 0, 0x20, 4, 1);
    g_assert_cmphex(rd(m, 0, 0x24, 4), ==, 4u << 16);
    g_assert_cmpuint(dma_pending(&m->board->dma), ==, 0);

    /* An all-zero record in HBM: opcode 0x00 is not 0xB8/0xBB, kind 5. */
    wr(m, 0, 0x18, 8, 0x1000);
    wr(m, 0, 0x20, 4, 1);
    g_assert_cmphex(rd(m, 0, 0x24, 4), ==, 5u << 16);

    wr(m, 0, 0x18, 8, HBM_SIZE - 32);
    wr(m, 0, 0x20, 4, 1);
    g_assert_cmphex(rd(m, 0, 0x24, 4), ==, 4u << 16);

    /* Values other than 1 do not ring. */
    wr(m, 0, 0x18, 8, 0x1000);
    wr(m, 0, 0x20, 4, 2);
    g_assert_cmphex(rd(m, 0, 0x24, 4), ==, 4u << 16);
    g_assert_cmpuint(dma_pending(&m->board->dma), ==, 0);
    ctx_fini(&c);
}

/* Stands in for the sequencer's record validator: 0xB8 builds a request of
 * rec[16] bytes, 0xBB fails predicate 7, anything else is kind 5. */
static uint32_t fake_from_record(Machine *m, const DmaReqPool *pool, const uint8_t rec[64],
                                 DmaRequest **req)
{
    *req = NULL;
    if (rec[0] == 0xBB) {
        return 1u << 16 | 7;
    }
    if (rec[0] != 0xB8) {
        return 5u << 16;
    }
    DmaRequest *r = g_new0(DmaRequest, 1);
    r->bytes = rec[16];
    r->owner = 1; /* the engine must make it a doorbell request (-1) */
    r->sem = 4;
    r->sem_inc = 1;
    *req = r;
    return 0;
}

static void test_doorbell_accept_and_full(void)
{
    Ctx c;
    ctx_init(&c, 2, 2);
    Machine *m = c.m;
    m->board->dma.from_record = fake_from_record;
    m->board->nx[1].regs.outstanding = 0;
    uint8_t rec[64] = {0xB8};
    uint64_t bad;
    rec[16] = 64;
    g_assert_cmpint(as_rw_bytes(m->as, 0x4000, rec, 64, true, MEMTXATTRS(MEM_REQ_DEBUG, 0), &bad),
                    ==, MEMTX_OK);
    rec[0] = 0xBB;
    g_assert_cmpint(as_rw_bytes(m->as, 0x4040, rec, 64, true, MEMTXATTRS(MEM_REQ_DEBUG, 0), &bad),
                    ==, MEMTX_OK);

    wr(m, 1, 0x18, 8, 0x4040);
    wr(m, 1, 0x20, 4, 1);
    g_assert_cmphex(rd(m, 1, 0x24, 4), ==, 0x10007); /* predicate id in [15:0] */

    wr(m, 1, 0x18, 8, 0x4000);
    wr(m, 1, 0x20, 4, 1);
    wr(m, 1, 0x20, 8, 1); /* an 8-byte write at DOORBELL rings too */
    g_assert_cmpuint(m->board->dma.e[1].count, ==, 2);
    g_assert_cmpuint(m->board->dma.e[0].count, ==, 0);
    g_assert_cmpint(m->board->dma.e[1].ring[0]->owner, ==, -1);
    g_assert_cmphex(rd(m, 1, 0x24, 4), ==, 0x10007); /* success does not clear ERROR */
    g_assert_cmphex(rd(m, 1, 0x00, 4), ==, 0x201);

    wr(m, 1, 0x20, 4, 1); /* queue full: kind 3, request dropped */
    g_assert_cmphex(rd(m, 1, 0x24, 4), ==, 3u << 16);
    g_assert_cmpuint(m->board->dma.e[1].count, ==, 2);
    g_assert_cmpuint(dma_pending(&m->board->dma), ==, 2); /* the dropped one is not counted */

    g_assert_cmpuint(dma_advance(&m->board->dma, 66), ==, 2);
    g_assert_cmpuint(dma_pending(&m->board->dma), ==, 0);
    g_assert_cmpuint(m->board->evsem.sem[4], ==, 2);
    g_assert_cmpuint(m->board->nx[1].regs.outstanding, ==, 0); /* no core owns a doorbell request */
    g_assert_cmpuint(rd(m, 1, 0x10, 8), ==, 128);
    ctx_fini(&c);
}

static void test_destroy_releases_queued(void)
{
    Ctx c;
    ctx_init(&c, 1, 4);
    dma_push(&c.m->board->dma.e[0], treq(&c, 0, 64, -1));
    dma_push(&c.m->board->dma.e[0], treq(&c, 1, 64, -1));
    ctx_fini(&c); /* the sanitizer build checks nothing leaks */
}

/* The HBM cap (docs/timing.rst "Memory bandwidth"): engines moving bytes
 * at the same time share it equally, each at most its own 64 bytes per
 * cycle; latency cycles move nothing and take no share.  Expected cycles by
 * hand from the cap, the rate and the latency (32). */
static void test_hbm_cap(void)
{
    Ctx c;
    DmaController *dc;

    /* Four 4096-byte requests on four engines, cap 128: after the 32
     * latency cycles each moves 128 / 4 = 32 bytes a cycle, 4096 / 32 = 128
     * cycles: all finish at 160 (alone: 32 + 4096 / 64 = 96). */
    ctx_init(&c, 4, 4);
    dc = &c.m->board->dma;
    dma_set_hbm_cap(dc, 128);
    for (int e = 0; e < 4; e++)
        dma_push(&dc->e[e], treq(&c, e, 4096, -1));
    g_assert_cmpuint(dma_next_completion(dc), ==, 160);
    g_assert_cmpuint(dma_advance(dc, 159), ==, 0);
    g_assert_cmpuint(dma_advance(dc, 1), ==, 4);
    g_assert_cmpuint(dc->last_done, ==, 1);
    ctx_fini(&c);

    /* A cap at least the engines' sum changes nothing: 96. */
    ctx_init(&c, 4, 4);
    dc = &c.m->board->dma;
    dma_set_hbm_cap(dc, 256);
    for (int e = 0; e < 4; e++)
        dma_push(&dc->e[e], treq(&c, e, 4096, -1));
    g_assert_cmpuint(dma_next_completion(dc), ==, 96);
    g_assert_cmpuint(dma_advance(dc, 96), ==, 4);
    g_assert_cmpuint(dc->last_done, ==, 96);
    ctx_fini(&c);

    /* Unequal requests, cap 64: 1024 and 4096 bytes share 32 bytes a cycle
     * each; the first is done 1024 / 32 = 32 cycles after its latency (64),
     * the second has 4096 - 1024 = 3072 bytes left at its full 64: 48 more,
     * 112. */
    ctx_init(&c, 2, 4);
    dc = &c.m->board->dma;
    dma_set_hbm_cap(dc, 64);
    dma_push(&dc->e[0], treq(&c, 0, 1024, -1));
    dma_push(&dc->e[1], treq(&c, 1, 4096, -1));
    g_assert_cmpuint(dma_advance(dc, 100), ==, 1);
    g_assert_cmpuint(dc->last_done, ==, 64);
    g_assert_cmpuint(dma_next_completion(dc), ==, 12);
    g_assert_cmpuint(dma_advance(dc, 12), ==, 1);
    g_assert_cmpuint(order_at(&c, 0), ==, 0);
    g_assert_cmpuint(order_at(&c, 1), ==, 1);
    ctx_fini(&c);

    /* One engine, cap 16 below its 64: 32 + 4096 / 16 = 288. */
    ctx_init(&c, 1, 4);
    dc = &c.m->board->dma;
    dma_set_hbm_cap(dc, 16);
    dma_push(&dc->e[0], treq(&c, 0, 4096, -1));
    g_assert_cmpuint(dma_next_completion(dc), ==, 288);
    ctx_fini(&c);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/dma/cost-formula", test_cost_formula);
    g_test_add_func("/dma/budget-carry-over", test_budget_carry_over);
    g_test_add_func("/dma/fifo-and-engines", test_fifo_and_independent_engines);
    g_test_add_func("/dma/completion-order", test_completion_order);
    g_test_add_func("/dma/registers", test_registers);
    g_test_add_func("/dma/doorbell-rejections", test_doorbell_rejections);
    g_test_add_func("/dma/doorbell-accept-and-full", test_doorbell_accept_and_full);
    g_test_add_func("/dma/destroy-releases", test_destroy_releases_queued);
    g_test_add_func("/dma/hbm-cap", test_hbm_cap);
    return g_test_run();
}
