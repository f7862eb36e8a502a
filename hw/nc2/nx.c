/* The NX register block of one sequencer (machine.md §3).  Every access is
 * decomposed into aligned u32 words: a u64 register is two words (low half at
 * the lower address) and an 8-byte access to two u32 registers touches both
 * (§12.3), so one word-level decoder serves all widths. */
#include <inttypes.h>
#include <string.h>

#include <glib.h>

#include "hw/nc2/board.h"
#include "hw/nc2/nx.h"
#include "nxemu/machine.h"
#include "nxemu/sched.h"

#define NX_NQ_STRIDE 0x20u
#define NX_NQ_END    (NX_NQ + 4 * NX_NQ_STRIDE)

static inline uint32_t lo32(uint64_t v)
{
    return (uint32_t)v;
}

static inline uint32_t hi32(uint64_t v)
{
    return (uint32_t)(v >> 32);
}

/* Replace the half of *r selected by `hi` with v. */
static inline void set_half(uint64_t *r, bool hi, uint32_t v)
{
    if (hi) {
        *r = (*r & 0xFFFFFFFFull) | ((uint64_t)v << 32);
    } else {
        *r = (*r & ~0xFFFFFFFFull) | v;
    }
}

static inline uint32_t get_half(uint64_t r, bool hi)
{
    return hi ? hi32(r) : lo32(r);
}

static unsigned nx_engines(const NxBlock *nx)
{
    unsigned n = nx->m ? nx->m->cfg.nr_dma : 0;
    return n ? n : 1;
}

unsigned nx_dma_engine(const NxBlock *nx)
{
    return nx->regs.dma_engine % nx_engines(nx);
}

static CpuState nx_state(const NxBlock *nx)
{
    return nx->cpu ? nx->cpu->state : CPU_RESET;
}

static bool nx_pc_writable(const NxBlock *nx)
{
    CpuState s = nx_state(nx);
    return s == CPU_RESET || s == CPU_HALTED || s == CPU_FAULTED;
}

static uint32_t nx_nq_read(const NxQueue *q, uint32_t r)
{
    switch (r) {
    case 0x00:
        return lo32(q->base);
    case 0x04:
        return hi32(q->base);
    case 0x08:
        return q->size;
    case 0x0C:
        return q->head;
    case 0x10:
        return q->tail;
    case 0x14:
        return q->overflow;
    default:
        return 0;
    }
}

static void nx_nq_write(NxQueue *q, uint32_t r, uint32_t v)
{
    switch (r) {
    case 0x00:
    case 0x04:
        set_half(&q->base, r == 0x04, v);
        break;
    case 0x08:
        q->size = v;
        break;
    case 0x0C:
        q->head = v;
        break;
    case 0x14:
        q->overflow = 0; /* any write clears */
        break;
    default:
        break; /* NQ_TAIL read-only, +0x18 reserved */
    }
}

/* One aligned word at off (< NC2_NX_BLOCK_BYTES). */
static uint32_t nx_read32(NxBlock *nx, uint32_t off)
{
    const NxCpu *cpu = nx->cpu;
    bool hi = (off & 4) != 0;

    if (off < NX_PC) {
        return nx->regs.r[off / 4];
    }
    if (off >= NX_ADDR_TABLE && off < NX_NQ) {
        return get_half(nx->regs.addr_table[(off - NX_ADDR_TABLE) / 8], hi);
    }
    if (off >= NX_NQ && off < NX_NQ_END) {
        return nx_nq_read(&nx->regs.nq[(off - NX_NQ) / NX_NQ_STRIDE], off % NX_NQ_STRIDE);
    }
    switch (off & ~4u) {
    case NX_PC:
        /* During the core's own instruction nx->regs.pc is that instruction's
         * address, which is what a core reading its own PC must see (also
         * through the alias, §12.10); otherwise it is the next instruction. */
        return get_half(nx->regs.pc, hi);
    case NX_FAULT_PC:
        return get_half(cpu ? cpu->fault_pc : 0, hi);
    case NX_FAULT_ADDR:
        return get_half(cpu ? cpu->fault.addr : 0, hi);
    case NX_RETIRED:
        return get_half(cpu ? cpu->retired : 0, hi);
    case NX_WT_BASE:
        return get_half(nx->regs.wt_base, hi);
    case NX_TLB_HITS:
        return get_half(nx->tlb.hits, hi);
    case NX_TLB_MISSES:
        return get_half(nx->tlb.misses, hi);
    case NX_TLB_EVICTIONS:
        return get_half(nx->tlb.evictions, hi);
    case NX_ENTRY:
        return get_half(nx->entry, hi);
    case NX_DTB_ADDR:
        return get_half(nx->dtb_addr, hi);
    case NX_VTIME:
        return get_half(nx->m ? machine_vtime(nx->m) : 0, hi);
    default:
        break;
    }
    switch (off) {
    case NX_STATUS: {
        CpuState s = nx_state(nx);
        uint32_t reason = s == CPU_BLOCKED ? nx->regs.block_reason & 0xF : 0;
        return (uint32_t)s | reason << 8;
    }
    case NX_FAULT_CODE:
        return cpu ? cpu->fault.code : 0;
    case NX_FAULT_INFO:
        return cpu ? cpu->fault.info : 0;
    case NX_WT_LEN:
        return nx->wt_len;
    case NX_TLB_ENTRIES:
        return nx->tlb.n;
    case NX_CORE_ID:
        return nx->id;
    case NX_NUM_CORES:
        return nx->num_cores;
    case NX_DMA_ENGINE:
        return nx->regs.dma_engine;
    default:
        return 0; /* CONTROL (write-only) and reserved offsets */
    }
}

static void nx_write32(NxBlock *nx, uint32_t off, uint32_t v, MemTxAttrs attrs)
{
    bool hi = (off & 4) != 0;

    if (nx->m && !(attrs.kind == MEM_REQ_SEQ && attrs.id == nx->id)) {
        /* another core's registers, PC or CONTROL: its wait may differ */
        sched_note_change(nx->m);
    }

    if (off < NX_PC) {
        nx->regs.r[off / 4] = v;
        return;
    }
    if (off >= NX_ADDR_TABLE && off < NX_NQ) {
        set_half(&nx->regs.addr_table[(off - NX_ADDR_TABLE) / 8], hi, v);
        return;
    }
    if (off >= NX_NQ && off < NX_NQ_END) {
        nx_nq_write(&nx->regs.nq[(off - NX_NQ) / NX_NQ_STRIDE], off % NX_NQ_STRIDE, v);
        return;
    }
    switch (off & ~4u) {
    case NX_PC:
        if (nx_pc_writable(nx)) {
            set_half(&nx->regs.pc, hi, v);
            nx->regs.discard_kept = true;
        }
        return;
    case NX_WT_BASE:
        set_half(&nx->regs.wt_base, hi, v);
        wtlb_flush(&nx->tlb);
        return;
    case NX_TLB_HITS:
        nx->tlb.hits = 0;
        return;
    case NX_TLB_MISSES:
        nx->tlb.misses = 0;
        return;
    case NX_TLB_EVICTIONS:
        nx->tlb.evictions = 0;
        return;
    case NX_ENTRY:
        set_half(&nx->entry, hi, v);
        return;
    default:
        break;
    }
    switch (off) {
    case NX_CONTROL:
        v &= NX_CTRL_RUN | NX_CTRL_STOP | NX_CTRL_RESET | NX_CTRL_TLB_FLUSH;
        if (attrs.kind == MEM_REQ_SEQ && attrs.id == nx->id) {
            /* The writing instruction must retire first (§3). */
            nx->regs.pending_control |= v;
        } else if (v) {
            nx_control(nx, v);
        }
        return;
    case NX_WT_LEN:
        nx->wt_len = v;
        wtlb_flush(&nx->tlb);
        return;
    case NX_DMA_ENGINE:
        nx->regs.dma_engine = v;
        return;
    default:
        return; /* read-only or reserved: ignored */
    }
}

static MemTxResult nx_check(uint64_t off, unsigned size)
{
    if (size != 4 && size != 8) {
        return MEMTX_BAD_WIDTH;
    }
    if (off & (size - 1)) {
        return MEMTX_MISALIGNED;
    }
    if (off >= NC2_NX_BLOCK_BYTES) {
        return MEMTX_UNMAPPED;
    }
    return MEMTX_OK;
}

MemTxResult nx_read(NxBlock *nx, uint64_t off, unsigned size, uint64_t *val, MemTxAttrs attrs)
{
    MemTxResult r = nx_check(off, size);
    if (r != MEMTX_OK) {
        return r;
    }
    uint64_t v = nx_read32(nx, (uint32_t)off);
    if (size == 8) {
        v |= (uint64_t)nx_read32(nx, (uint32_t)off + 4) << 32;
    }
    *val = v;
    return MEMTX_OK;
}

MemTxResult nx_write(NxBlock *nx, uint64_t off, unsigned size, uint64_t val, MemTxAttrs attrs)
{
    MemTxResult r = nx_check(off, size);
    if (r != MEMTX_OK) {
        return r;
    }
    nx_write32(nx, (uint32_t)off, lo32(val), attrs);
    if (size == 8) {
        nx_write32(nx, (uint32_t)off + 4, hi32(val), attrs);
    }
    return MEMTX_OK;
}

static void nx_clear_fault(NxBlock *nx)
{
    if (nx->cpu) {
        nx->cpu->fault = (NxFault){0};
        nx->cpu->fault_pc = 0;
    }
}

void nx_reset(NxBlock *nx)
{
    memset(nx->regs.r, 0, sizeof(nx->regs.r));
    nx->regs.pc = nx->entry;
    nx->regs.block_reason = NX_BLOCK_NONE;
    nx->regs.wt_base = 0;
    nx->wt_len = 0;
    wtlb_flush(&nx->tlb);
    nx->tlb.hits = nx->tlb.misses = nx->tlb.evictions = 0;
    nx->regs.dma_engine = nx->id % nx_engines(nx);
    memset(nx->regs.addr_table, 0, sizeof(nx->regs.addr_table));
    memset(nx->regs.nq, 0, sizeof(nx->regs.nq));
    nx->regs.discard_kept = true;
    /* Requests in flight still complete, but no longer count for DRAIN. */
    nx->regs.outstanding = 0;
    nx->generation++;
    if (nx->cpu) {
        nx->cpu->state = CPU_RESET;
        nx->cpu->retired = 0;
    }
    nx_clear_fault(nx);
}

void nx_control(NxBlock *nx, uint32_t bits)
{
    if (bits & NX_CTRL_RESET) {
        nx_reset(nx);
    }
    if (bits & NX_CTRL_TLB_FLUSH) {
        wtlb_flush(&nx->tlb);
    }
    if (bits & NX_CTRL_STOP) {
        CpuState s = nx_state(nx);
        if (s == CPU_RUNNING || s == CPU_BLOCKED) {
            /* A pending wait is abandoned; PC keeps the blocked
             * instruction's address, which the core leaves in nx->regs.pc. */
            nx->cpu->state = CPU_HALTED;
            nx->regs.block_reason = NX_BLOCK_NONE;
            nx->regs.discard_kept = true;
        }
    }
    if (bits & NX_CTRL_RUN) {
        CpuState s = nx_state(nx);
        if (nx->cpu && (s == CPU_RESET || s == CPU_HALTED || s == CPU_FAULTED)) {
            nx_clear_fault(nx);
            nx->regs.block_reason = NX_BLOCK_NONE;
            nx->regs.discard_kept = true; /* fetch again at PC, from phase F */
            nx->cpu->state = CPU_RUNNING;
            if (nx->m) {
                sched_note_wake(nx->m);
            }
        }
    }
    if (nx->m) {
        nx_log_mask(&nx->m->log, NX_LOG_INT, "nx: core=%u control=0x%x state=%s\n", nx->id, bits,
                    cpu_state_name(nx_state(nx)));
    }
}

void nx_apply_pending_control(NxBlock *nx)
{
    uint32_t bits = nx->regs.pending_control;
    if (bits) {
        nx->regs.pending_control = 0;
        nx_control(nx, bits);
    }
}

bool nx_translate(NxBlock *nx, uint64_t a, NxAccess acc, uint64_t *pa, bool *local, NxFault *f)
{
    if ((a >> 24) == 0) {
        *local = true;
        *pa = a;
        return true;
    }
    *local = false;
    if (nx->regs.wt_base == 0) {
        *pa = a;
        return true;
    }
    return wtlb_translate(&nx->tlb, nx->m->as, nx->regs.wt_base, nx->wt_len, a, acc, pa, f);
}

bool nx_local_peek(const NxBlock *nx, uint64_t a, uint64_t *pa, uint64_t *room)
{
    if (a < NC2_NX_LOCAL_BASE || a - NC2_NX_LOCAL_BASE >= NC2_NX_BLOCK_BYTES)
        return false;
    *pa = nc2_memmap[NC2_NX].base + (uint64_t)nx->id * nc2_memmap[NC2_NX].stride +
          (a - NC2_NX_LOCAL_BASE);
    *room = NC2_NX_BLOCK_BYTES - (a - NC2_NX_LOCAL_BASE);
    return true;
}

bool nx_translate_peek(const NxBlock *nx, uint64_t a, uint64_t *pa)
{
    uint64_t w = a >> 24, e;
    if (w == 0)
        return false;
    if (nx->regs.wt_base == 0) {
        *pa = a;
        return true;
    }
    if (w >= nx->wt_len ||
        as_read(nx->m->as, (nx->regs.wt_base & ~7ull) + 8 * w, 8, &e,
                MEMTXATTRS(MEM_REQ_DEBUG, 0)) != MEMTX_OK ||
        !(e & WT_V) || (e & WT_RESERVED))
        return false;
    *pa = (e & ~0xFFFFFFull) | (a & 0xFFFFFF);
    return true;
}

static MemTxResult nx_alias_read(void *opaque, uint64_t off, unsigned size, uint64_t *data,
                                 MemTxAttrs attrs)
{
    return nx_read(opaque, off, size, data, attrs);
}

static MemTxResult nx_alias_write(void *opaque, uint64_t off, unsigned size, uint64_t data,
                                  MemTxAttrs attrs)
{
    return nx_write(opaque, off, size, data, attrs);
}

static const MemoryRegionOps nx_alias_ops = {
    .read = nx_alias_read,
    .write = nx_alias_write,
    .widths = MEM_W4 | MEM_W8,
    .unaligned_ok = false,
};

void nx_init(NxBlock *nx, Machine *m, unsigned id, unsigned tlb_entries, unsigned num_cores)
{
    *nx = (NxBlock){0};
    nx->m = m;
    nx->id = id;
    nx->num_cores = num_cores;
    wtlb_init(&nx->tlb, tlb_entries);
    nx->tlb.core = id;
    nx->tlb.log = m ? &m->log : NULL;
    nx->regs.dma_engine = id % nx_engines(nx);

    g_autofree char *name = g_strdup_printf("nx%u", id);
    mr_init_io(&nx->alias, name, nc2_memmap[NC2_NX].size, &nx_alias_ops, nx);
}

void nx_destroy(NxBlock *nx)
{
    wtlb_destroy(&nx->tlb);
    mr_destroy(&nx->alias);
}

uint32_t nx_work_begin(NxBlock *nx)
{
    nx->regs.outstanding++;
    return nx->generation;
}

void nx_work_done(NxBlock *nx, uint32_t generation)
{
    if (generation == nx->generation && nx->regs.outstanding) {
        nx->regs.outstanding--;
        if (nx->m) {
            sched_note_change(nx->m); /* what its DRAIN waits for */
        }
    }
}

/* ---- the sequencer core's port (include/nxemu/seq-port.h) ---------------- */

static void port_sem_write(void *opaque, unsigned i, uint32_t v)
{
    NxBlock *nx = opaque;
    evsem_sem_write(&nx->m->board->evsem, i, v);
}

static void port_evt_write(void *opaque, unsigned i, bool set)
{
    NxBlock *nx = opaque;
    evsem_evt_write(&nx->m->board->evsem, i, set);
}

static void port_ev_update(void *opaque, uint8_t mode, uint8_t idx, uint32_t value)
{
    NxBlock *nx = opaque;
    evsem_update(&nx->m->board->evsem, mode, idx, value);
}

static bool port_translate(void *opaque, uint64_t a, NxAccess acc, uint64_t *pa, bool *local,
                           NxFault *f)
{
    return nx_translate(opaque, a, acc, pa, local, f);
}

static bool port_translate_peek(void *opaque, uint64_t a, uint64_t *pa)
{
    return nx_translate_peek(opaque, a, pa);
}

static uint32_t port_status(void *opaque)
{
    return nx_read32(opaque, NX_STATUS);
}

static void port_reset(void *opaque)
{
    nx_reset(opaque);
}

static void port_apply_pending_control(void *opaque)
{
    nx_apply_pending_control(opaque);
}

static uint32_t port_work_begin(void *opaque)
{
    return nx_work_begin(opaque);
}

static void port_stats(void *opaque, GString *out)
{
    NxBlock *nx = opaque;
    g_string_append_printf(out,
                           " tlb_hits=%" PRIu64 " tlb_misses=%" PRIu64 " tlb_evictions=%" PRIu64,
                           nx->tlb.hits, nx->tlb.misses, nx->tlb.evictions);
}

static void port_dump(void *opaque, GString *out)
{
    NxBlock *nx = opaque;
    g_string_append_printf(out,
                           "wt_base=0x%016" PRIx64 " wt_len=%u tlb hits=%" PRIu64 " misses=%" PRIu64
                           " evictions=%" PRIu64 "\n",
                           nx->regs.wt_base, nx->wt_len, nx->tlb.hits, nx->tlb.misses,
                           nx->tlb.evictions);
}

static void port_detach(void *opaque, NxCpu *cpu)
{
    NxBlock *nx = opaque;
    if (nx->cpu == cpu) {
        nx->cpu = NULL;
    }
}

static unsigned port_dma_engines(void *opaque)
{
    NxBlock *nx = opaque;
    return nx->m->board->dma.nr;
}

static unsigned port_dma_engine(void *opaque)
{
    return nx_dma_engine(opaque);
}

/* The engine this core's DMA instructions use (callers know there is one). */
static DmaEngine *port_engine(NxBlock *nx)
{
    DmaController *dc = &nx->m->board->dma;
    return &dc->e[nx->regs.dma_engine % dc->nr];
}

static bool port_dma_queue_full(void *opaque)
{
    return dma_queue_full(port_engine(opaque));
}

static void port_dma_push(void *opaque, DmaRequest *req)
{
    dma_push(port_engine(opaque), req);
}

G_STATIC_ASSERT(SEQ_LOCAL_BASE == NC2_NX_LOCAL_BASE && SEQ_LOCAL_BYTES == NC2_NX_BLOCK_BYTES);

void nx_seq_port(NxBlock *nx, SeqPort *port)
{
    EvSem *es = &nx->m->board->evsem;
    *port = (SeqPort){
        .opaque = nx,
        .regs = &nx->regs,
        .translate = port_translate,
        .translate_peek = port_translate_peek,
        .local_read = nx_alias_read, /* the same forwarding as the alias window */
        .local_write = nx_alias_write,
        .status = port_status,
        .reset = port_reset,
        .apply_pending_control = port_apply_pending_control,
        .work_begin = port_work_begin,
        .dump = port_dump,
        .stats = port_stats,
        .detach = port_detach,
        .sem = es->sem,
        .evt = es->evt,
        .sem_write = port_sem_write,
        .evt_write = port_evt_write,
        .ev_update = port_ev_update,
        .dma_pool = nx->m->board->dma.req_pool,
        .dma_engines = port_dma_engines,
        .dma_engine = port_dma_engine,
        .dma_queue_full = port_dma_queue_full,
        .dma_push = port_dma_push,
    };
}
