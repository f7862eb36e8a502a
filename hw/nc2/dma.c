/* DMA engines (machine.md §5): a FIFO per engine, a cost per request
 * (latency + ceil(bytes / bytes_per_cycle)) paid from a per-round budget, and
 * the register file of §5.3 with the descriptor doorbell.  Requests are
 * validated by their builder at issue, so completion cannot fail.  The
 * engines moving bytes at the same time share the HBM's bytes per cycle
 * (docs/timing.rst "Memory bandwidth"). */
#include <inttypes.h>
#include <string.h>

#include <glib.h>

#include "hw/nc2/board.h"
#include "hw/nc2/dma.h"
#include "hw/nc2/fdt.h"
#include "nxemu/debug.h"
#include "nxemu/machine.h"
#include "nxemu/sched.h"
#include "nxemu/trace.h"

#define DMA_STATUS      0x00u
#define DMA_COMPLETED   0x08u
#define DMA_BYTES       0x10u
#define DMA_DESC_ADDR   0x18u
#define DMA_DOORBELL    0x20u
#define DMA_ERROR       0x24u
#define DMA_QUEUE_DEPTH 0x28u

#define DMA_RECORD_BYTES 64u

/* ERROR kinds ([31:16]) the engine itself detects; the others come from
 * seq_dma_request_from_record. */
enum { DMA_ERR_QUEUE_FULL = 3, DMA_ERR_NOT_MEMORY = 4 };

/* ---- request pool ---------------------------------------------------- */

DmaRequest *dma_pool_get(DmaController *dc, size_t size, void (*fini)(DmaRequest *req))
{
    DmaPool *p = &dc->pool;
    DmaRequest *req;

    g_assert(size >= sizeof(DmaRequest));
    if (!p->slot_size) {
        p->slot_size = size;
        p->fini = fini;
    }
    g_assert(size == p->slot_size && fini == p->fini); /* one builder per controller */
    if (p->nfree) {
        req = p->free[--p->nfree];
    } else {
        /* Only while warming up: once every slot exists, a free one is
         * always there (at most capacity - 1 are in the rings). */
        req = g_malloc0(size);
        p->slots++;
        if (p->slots > p->free_cap) {
            p->free_cap = MAX(p->slots, p->capacity);
            p->free = g_renew(DmaRequest *, p->free, p->free_cap);
        }
    }
    memset(req, 0, sizeof(*req));
    req->pool = p;
    req->release = dma_pool_put;
    p->in_use++;
    p->peak = MAX(p->peak, p->in_use);
    return req;
}

void dma_pool_put(DmaRequest *req)
{
    DmaPool *p = req->pool;
    if (p) {
        /* free_cap >= slots, and every slot is either in use or free */
        g_assert(p->in_use > 0 && p->nfree < p->free_cap); /* not given back twice */
        p->free[p->nfree++] = req;
        p->in_use--;
    } else if (req->release) {
        req->release(req);
    } else {
        g_free(req);
    }
}

void *dma_pool_scratch(DmaController *dc, size_t bytes)
{
    DmaPool *p = &dc->pool;
    if (bytes > p->scratch_size) {
        g_free(p->scratch);
        p->scratch = g_malloc(bytes);
        p->scratch_size = bytes;
    }
    return p->scratch;
}

static void dma_pool_destroy(DmaPool *p)
{
    /* The rings were drained into the free list before this: every slot
     * is back unless a builder lost one. */
    for (unsigned i = 0; i < p->nfree; i++) {
        if (p->fini) {
            p->fini(p->free[i]);
        } else {
            g_free(p->free[i]);
        }
    }
    g_free(p->free);
    g_free(p->scratch);
    memset(p, 0, sizeof(*p));
}

/* ---- engines ----------------------------------------------------------- */

/* Bytes are counted in 1/DMA_RATE_SCALE: lcm(1..16), so that an equal
 * share of the HBM cap among n <= NC2_MAX_DMA engines is exact (a machine
 * built without a device tree may have more: their share rounds down). */
#define DMA_RATE_SCALE 720720u
G_STATIC_ASSERT(NC2_MAX_DMA <= 16);

/* A request of more than 2^64 / DMA_RATE_SCALE bytes (25 TB) saturates. */
static uint64_t scaled_bytes(uint64_t bytes)
{
    return bytes > UINT64_MAX / DMA_RATE_SCALE ? UINT64_MAX : bytes * DMA_RATE_SCALE;
}

/* Scaled bytes one engine moves per cycle while n engines move bytes:
 * its own rate, or an equal share of the HBM's when that is less. */
static uint64_t dma_rate(const DmaController *dc, unsigned n)
{
    uint64_t full = (uint64_t)dc->bytes_per_cycle * DMA_RATE_SCALE;
    if (!dc->hbm_bytes_per_cycle || n == 0)
        return full;
    return MIN(full, (uint64_t)dc->hbm_bytes_per_cycle * DMA_RATE_SCALE / n);
}

struct DmaCursor {
    DmaRequest *req; /* the engine's request in progress, NULL: none */
    uint64_t from;   /* cycle of the advance it may start at (its issue) */
    uint64_t lat, rem;
    unsigned nfin; /* requests of the engine finished in this advance */
};

static void cursor_load(const DmaEngine *e, unsigned k, uint64_t vtime, DmaCursor *cu)
{
    cu->req = k < e->count ? e->ring[(e->head + k) % e->depth] : NULL;
    if (cu->req) {
        cu->from = cu->req->issued > vtime ? cu->req->issued - vtime : 0;
        cu->lat = cu->req->lat_left;
        cu->rem = cu->req->rem;
    }
}

/* Time only: run the queued requests for q cycles from vtime, every engine
 * at once.  A request first waits for its issue, then runs its latency, then
 * moves its bytes at dma_rate of the engines moving bytes at that time.
 * Finished requests get .fin (cycles into the advance) and count in their
 * engine's dc->cu[].nfin; the rest keep their progress.  With store false nothing is
 * written and it returns at the first finish.  Returns the cycle of the
 * first finish, UINT64_MAX if none. */
static uint64_t dma_run_time(DmaController *dc, uint64_t vtime, uint64_t q, bool store)
{
    DmaCursor *cu = dc->cu;
    uint64_t t = 0, first = UINT64_MAX;
    for (unsigned i = 0; i < dc->nr; i++) {
        cu[i].nfin = 0;
        cursor_load(&dc->e[i], 0, vtime, &cu[i]);
    }
    for (;;) {
        bool any = false;
        unsigned n = 0;
        for (unsigned i = 0; i < dc->nr; i++) {
            while (cu[i].req && cu[i].from <= t && !cu[i].lat && !cu[i].rem) {
                if (first == UINT64_MAX)
                    first = t;
                if (!store)
                    return t;
                cu[i].req->lat_left = cu[i].req->rem = 0;
                cu[i].req->fin = t;
                cursor_load(&dc->e[i], ++cu[i].nfin, vtime, &cu[i]);
                cu[i].from = MAX(cu[i].from, t);
            }
            any |= cu[i].req != NULL;
            n += cu[i].req && cu[i].from <= t && !cu[i].lat && cu[i].req->hbm;
        }
        if (!any || t >= q)
            break;
        uint64_t hrate = dma_rate(dc, n), dt = q - t;
        for (unsigned i = 0; i < dc->nr; i++) {
            const DmaCursor *c = &cu[i];
            if (!c->req)
                continue;
            uint64_t rate = c->req->hbm ? hrate : dma_rate(dc, 0);
            if (c->from > t)
                dt = MIN(dt, c->from - t);
            else if (c->lat)
                dt = MIN(dt, c->lat);
            else
                dt = MIN(dt, c->rem / rate + (c->rem % rate != 0));
        }
        for (unsigned i = 0; i < dc->nr; i++) {
            DmaCursor *c = &cu[i];
            if (!c->req || c->from > t)
                continue;
            uint64_t rate = c->req->hbm ? hrate : dma_rate(dc, 0);
            if (c->lat)
                c->lat -= dt;
            else if (dt >= c->rem / rate + (c->rem % rate != 0))
                c->rem = 0;
            else
                c->rem -= dt * rate; /* < rem: no overflow */
        }
        t += dt;
    }
    if (store) {
        for (unsigned i = 0; i < dc->nr; i++) {
            if (cu[i].req) {
                cu[i].req->lat_left = cu[i].lat;
                cu[i].req->rem = cu[i].rem;
            }
        }
    }
    return first;
}

bool dma_queue_full(const DmaEngine *e)
{
    return e->count >= e->depth;
}

void dma_push(DmaEngine *e, DmaRequest *req)
{
    DmaController *dc = e->dc;
    g_assert(!dma_queue_full(e)); /* callers check first: an internal bug otherwise */
    uint64_t bpc = dc->bytes_per_cycle;
    req->cost = dc->latency + req->bytes / bpc + (req->bytes % bpc != 0);
    req->lat_left = dc->latency;
    req->rem = scaled_bytes(req->bytes);
    req->fin = 0;
    req->issued = machine_vtime(e->m);
    req->hbm = !nc2_on_chip(req->src_lo, req->src_hi) || !nc2_on_chip(req->dst_lo, req->dst_hi);
    e->ring[(e->head + e->count) % e->depth] = req;
    e->count++;
    dc->queued++;
    sched_note_wake(e->m);
    if (G_UNLIKELY(e->m->runev)) {
        NxRunEvent ev = {
            .kind = NX_RUNEV_DMA_QUEUED, .unit = e->index, .t0 = req->issued, .owner = req->owner};
        machine_runev(e->m, &ev);
    }
    nx_log_mask(&e->m->log, NX_LOG_DMA,
                "dma: engine=%u queue owner=%d bytes=%" PRIu64 " cost=%" PRIu64 " occupancy=%u\n",
                e->index, req->owner, req->bytes, req->cost, e->count);
}

/* The head request is done: apply its effects in the order of §5.1. */
static void dma_complete_head(DmaEngine *e)
{
    Machine *m = e->m;
    DmaRequest *req = e->ring[e->head];
    e->ring[e->head] = NULL;
    e->head = (e->head + 1) % e->depth;
    e->count--;
    e->dc->queued--;

    if (req->complete) {
        /* Already reported before it moved: the access hook stays silent. */
        bool quiet = G_UNLIKELY(req->watch_passed) && m->debug;
        if (quiet) {
            m->debug->quiet = true;
        }
        req->complete(m, req);
        if (quiet) {
            m->debug->quiet = false;
        }
    }
    if (req->sem_inc) {
        evsem_sem_add(&m->board->evsem, req->sem, req->sem_inc);
    }
    if (req->upd_mode) {
        evsem_update(&m->board->evsem, req->upd_mode, req->upd_idx, req->upd_value);
    }
    if (req->owner >= 0 && m->board->nx && (unsigned)req->owner < m->cfg.nr_seq) {
        nx_work_done(&m->board->nx[req->owner], req->owner_gen);
    }
    e->completed++;
    e->bytes += req->bytes;
    nx_log_mask(&m->log, NX_LOG_DMA, "dma: engine=%u complete owner=%d bytes=%" PRIu64 "\n",
                e->index, req->owner, req->bytes);
    dma_pool_put(req);
}

/* Apply the nfin requests dma_run_time finished on engine e, in order. */
static unsigned dma_engine_complete(DmaEngine *e, unsigned nfin, uint64_t *last_done)
{
    unsigned n = 0;
    while (n < nfin) {
        DmaRequest *req = e->ring[e->head];
        /* gdb watchpoints, before any byte moves: the request stays at the
         * head, its cost paid, so on resume it completes at once (at the
         * start of the next advance) without stopping again. */
        bool hold = false;
        if (G_UNLIKELY(e->m->runev)) {
            /* an observer may hold it (reverse execution stops here as a
             * watchpoint does, softmmu/gdbstub-debug.c) */
            NxRunEvent due = {.kind = NX_RUNEV_DMA_DUE,
                              .unit = e->index,
                              .bytes = req->bytes,
                              .owner = req->owner,
                              .hold = &hold};
            machine_runev(e->m, &due);
        }
        if (G_UNLIKELY(hold)) {
            req->watch_passed = true;
            break;
        }
        if (G_UNLIKELY(e->m->debug) && req->watch && !req->watch_passed && e->m->debug->wps->len) {
            /* a stop already recorded this round (another engine's hit) is
             * the one reported: this request reports its own on resume */
            bool first = e->m->debug->hit == NX_HIT_NONE;
            if (req->watch(e->m, req)) {
                req->watch_passed = first;
                break;
            }
        }
        /* dma_advance runs before the round's T moves on */
        uint64_t at = e->m->sched.vtime + req->fin;
        if (G_UNLIKELY(e->m->runev)) {
            NxRunEvent ev = {.kind = NX_RUNEV_DMA,
                             .unit = e->index,
                             .t0 = req->issued,
                             .t1 = at,
                             .bytes = req->bytes,
                             .owner = req->owner,
                             .sem = req->sem,
                             .sem_inc = req->sem_inc};
            machine_runev(e->m, &ev);
        }
        *last_done = MAX(*last_done, req->fin);
        dma_complete_head(e);
        n++;
    }
    return n;
}

unsigned dma_advance(DmaController *dc, uint64_t q)
{
    unsigned n = 0;
    dc->last_done = 0;
    if (!dc->nr)
        return 0;
    /* Left-over budget carries over to the next request (§5.2). */
    dma_run_time(dc, dc->e[0].m->sched.vtime, q, true);
    for (unsigned i = 0; i < dc->nr; i++) {
        n += dma_engine_complete(&dc->e[i], dc->cu[i].nfin, &dc->last_done);
    }
    return n;
}

uint64_t dma_next_completion(const DmaController *dc)
{
    if (!dc->nr)
        return UINT64_MAX;
    /* store false: dma_run_time writes only its scratch cursors */
    return dma_run_time((DmaController *)dc, dc->e[0].m->sched.vtime, UINT64_MAX, false);
}

static void dma_reject(DmaEngine *e, uint32_t error, const char *why)
{
    e->error = error;
    nx_warn("DMA engine %u: doorbell record at 0x%016" PRIx64 " rejected: %s (ERROR=0x%08" PRIx32
            ")",
            e->index, e->desc_addr, why, error);
}

static const char *dma_error_name(uint32_t kind)
{
    switch (kind) {
    case 1:
        return "validity predicate failed";
    case 2:
        return "issue-time error";
    case 3:
        return "queue full";
    case 4:
        return "record not in DMA-able memory";
    case 5:
        return "opcode is not 0xB8 or 0xBB";
    case 6:
        return "events field nonzero";
    case 7:
        return "ADDR8 operand not in IMM form";
    default:
        return "rejected";
    }
}

static void dma_doorbell(DmaEngine *e)
{
    Machine *m = e->m;
    uint8_t rec[DMA_RECORD_BYTES];
    uint64_t bad;

    if (e->desc_addr > UINT64_MAX - DMA_RECORD_BYTES ||
        !as_is_ram(m->as, e->desc_addr, DMA_RECORD_BYTES, MR_F_DMA) ||
        as_rw_bytes(m->as, e->desc_addr, rec, DMA_RECORD_BYTES, false,
                    MEMTXATTRS(MEM_REQ_DMA, e->index), &bad) != MEMTX_OK) {
        dma_reject(e, (uint32_t)DMA_ERR_NOT_MEMORY << 16, dma_error_name(DMA_ERR_NOT_MEMORY));
        return;
    }
    DmaRequest *req = NULL;
    uint32_t err = e->dc->from_record(m, &e->dc->req_pool, rec, &req);
    if (err) {
        if (req) {
            dma_pool_put(req);
        }
        dma_reject(e, err, dma_error_name(err >> 16));
        return;
    }
    if (!req) {
        return; /* nothing to move (not produced by the builder today) */
    }
    if (dma_queue_full(e)) {
        dma_pool_put(req);
        dma_reject(e, (uint32_t)DMA_ERR_QUEUE_FULL << 16, dma_error_name(DMA_ERR_QUEUE_FULL));
        return;
    }
    req->owner = -1; /* no core's DRAIN waits for a doorbell request */
    dma_push(e, req);
}

static uint32_t dma_read32(DmaEngine *e, uint32_t off)
{
    switch (off) {
    case DMA_STATUS:
        return (e->count ? 1u : 0u) | (e->count & 0xFF) << 8;
    case DMA_COMPLETED:
        return (uint32_t)e->completed;
    case DMA_COMPLETED + 4:
        return (uint32_t)(e->completed >> 32);
    case DMA_BYTES:
        return (uint32_t)e->bytes;
    case DMA_BYTES + 4:
        return (uint32_t)(e->bytes >> 32);
    case DMA_DESC_ADDR:
        return (uint32_t)e->desc_addr;
    case DMA_DESC_ADDR + 4:
        return (uint32_t)(e->desc_addr >> 32);
    case DMA_ERROR:
        return e->error;
    case DMA_QUEUE_DEPTH:
        return e->depth;
    default:
        return 0; /* DOORBELL (write-only) and reserved */
    }
}

static void dma_write32(DmaEngine *e, uint32_t off, uint32_t v)
{
    switch (off) {
    case DMA_DESC_ADDR:
        e->desc_addr = (e->desc_addr & ~0xFFFFFFFFull) | v;
        break;
    case DMA_DESC_ADDR + 4:
        e->desc_addr = (e->desc_addr & 0xFFFFFFFFull) | (uint64_t)v << 32;
        break;
    case DMA_DOORBELL:
        if (v == 1) {
            dma_doorbell(e);
        }
        break;
    default:
        break; /* read-only or reserved */
    }
}

static MemTxResult dma_check(uint64_t off, unsigned size)
{
    if (size != 4 && size != 8) {
        return MEMTX_BAD_WIDTH;
    }
    if (off & (size - 1)) {
        return MEMTX_MISALIGNED;
    }
    return off < nc2_memmap[NC2_DMA].size ? MEMTX_OK : MEMTX_UNMAPPED;
}

static MemTxResult dma_mmio_read(void *opaque, uint64_t off, unsigned size, uint64_t *data,
                                 MemTxAttrs attrs)
{
    DmaEngine *e = opaque;
    MemTxResult r = dma_check(off, size);
    if (r != MEMTX_OK) {
        return r;
    }
    uint64_t v = dma_read32(e, (uint32_t)off);
    if (size == 8) {
        v |= (uint64_t)dma_read32(e, (uint32_t)off + 4) << 32;
    }
    *data = v;
    return MEMTX_OK;
}

static MemTxResult dma_mmio_write(void *opaque, uint64_t off, unsigned size, uint64_t data,
                                  MemTxAttrs attrs)
{
    DmaEngine *e = opaque;
    MemTxResult r = dma_check(off, size);
    if (r != MEMTX_OK) {
        return r;
    }
    /* With an 8-byte write at DESC_ADDR both halves land before anything
     * else; at DOORBELL the high word is ERROR (read-only). */
    dma_write32(e, (uint32_t)off, (uint32_t)data);
    if (size == 8) {
        dma_write32(e, (uint32_t)off + 4, (uint32_t)(data >> 32));
    }
    return MEMTX_OK;
}

static const MemoryRegionOps dma_ops = {
    .read = dma_mmio_read,
    .write = dma_mmio_write,
    .widths = MEM_W4 | MEM_W8,
    .unaligned_ok = false,
};

/* Builders' view of the pool (nxemu/dma-req.h). */
static DmaRequest *req_pool_get(void *opaque, size_t size, void (*fini)(DmaRequest *req))
{
    return dma_pool_get(opaque, size, fini);
}

static void *req_pool_scratch(void *opaque, size_t bytes)
{
    return dma_pool_scratch(opaque, bytes);
}

/* Machine.agent (nxemu/agent.h): the scheduler's view of the engines. */
static unsigned dma_agent_advance(void *opaque, uint64_t q, uint64_t *last_done)
{
    DmaController *dc = opaque;
    unsigned n = dma_advance(dc, q);
    *last_done = dc->last_done;
    return n;
}

static uint64_t dma_agent_next_event(const void *opaque)
{
    return dma_next_completion(opaque);
}

/* -d stats: engines nobody used are summed up in the total line only. */
static void dma_agent_stats(const void *opaque, GString *out)
{
    const DmaController *dc = opaque;
    uint64_t req = 0, bytes = 0;
    for (unsigned i = 0; i < dc->nr; i++) {
        const DmaEngine *e = &dc->e[i];
        req += e->completed;
        bytes += e->bytes;
        if (!e->completed && !e->count)
            continue;
        g_string_append_printf(out,
                               "stats: dma%u requests=%" PRIu64 " bytes=%" PRIu64 " queued=%u\n", i,
                               e->completed, e->bytes, e->count);
    }
    g_string_append_printf(out, "stats: dma engines=%u requests=%" PRIu64 " bytes=%" PRIu64 "\n",
                           dc->nr, req, bytes);
}

void dma_init(DmaController *dc, Machine *m, unsigned engines, unsigned depth, uint32_t bpc,
              uint32_t latency)
{
    memset(dc, 0, sizeof(*dc));
    dc->nr = engines;
    dc->cu = g_new0(DmaCursor, engines);
    dc->bytes_per_cycle = bpc ? bpc : 1;
    dc->latency = latency;
    dc->from_record = seq_dma_request_from_record;
    dc->req_pool = (DmaReqPool){.opaque = dc, .get = req_pool_get, .scratch = req_pool_scratch};
    dc->e = g_new0(DmaEngine, engines);
    for (unsigned i = 0; i < engines; i++) {
        DmaEngine *e = &dc->e[i];
        e->m = m;
        e->dc = dc;
        e->index = i;
        e->depth = depth ? depth : 1;
        e->ring = g_new0(DmaRequest *, e->depth);
        g_autofree char *name = g_strdup_printf("dma%u", i);
        mr_init_io(&e->mmio, name, nc2_memmap[NC2_DMA].size, &dma_ops, e);
        dc->pool.capacity += e->depth;
    }
    dc->pool.capacity++; /* the slot being built */
    m->agent = (NxAgent){.pending = &dc->queued,
                         .advance = dma_agent_advance,
                         .next_event = dma_agent_next_event,
                         .stats = dma_agent_stats,
                         .opaque = dc};
}

void dma_set_hbm_cap(DmaController *dc, uint32_t hbm_bytes_per_cycle)
{
    dc->hbm_bytes_per_cycle = hbm_bytes_per_cycle;
}

void dma_destroy(DmaController *dc)
{
    for (unsigned i = 0; i < dc->nr; i++) {
        DmaEngine *e = &dc->e[i];
        while (e->count) {
            DmaRequest *req = e->ring[e->head];
            e->head = (e->head + 1) % e->depth;
            e->count--;
            dc->queued--;
            dma_pool_put(req);
        }
        g_free(e->ring);
        mr_destroy(&e->mmio);
    }
    dma_pool_destroy(&dc->pool);
    g_free(dc->e);
    dc->e = NULL;
    g_free(dc->cu);
    dc->cu = NULL;
    dc->nr = 0;
}
