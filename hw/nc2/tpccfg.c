/* TPC configuration space (machine.md §6, tpc.md §2.1): the kernel view
 * 0x000..0xFFF at the Gaudi offsets and the launch block at 0x1000.  The
 * window is a 64 KiB MMIO region; accesses are 4 or 8 bytes, naturally
 * aligned, and an 8-byte access is two u32 words (low word first). */
#include <inttypes.h>
#include <string.h>

#include "hw/nc2/board.h"
#include "hw/nc2/tpccfg.h"
#include "nxemu/machine.h"
#include "nxemu/trace.h"

#define TPC_KV_SIZE         0x1000u
#define TPC_KV_TENSORS_END  (TPC_KV_TENSOR(16))
#define TPC_KV_PROT         0x900u
#define TPC_KV_VFLAGS       0x90Cu
#define TPC_KV_SFLAGS       0x910u
#define TPC_KV_LFSR_POLYNOM 0x918u
#define TPC_KV_STATUS       0x91Cu
#define TPC_KV_MSS_CONFIG   0x954u
#define TPC_KV_INTR_MASK    0x95Cu
#define TPC_KV_QM_TENSOR0   0xA00u
#define TPC_KV_QM_END       (TPC_KV_QM_TENSOR0 + 0x38u * 16)

#define TPC_KV_STATUS_VALUE     0x2Eu  /* scalar pipe, vector pipe, IQ, SB empty */
#define TPC_KV_MSS_CONFIG_VALUE 0x400u /* EXPOSED_PIPE_DIS: non-exposed pipeline */

#define TPC_WINDOW_END    0x1040u
#define TPC_COMPLETION_EN 0x80000000u
#define TPC_LAUNCHER_NONE 0xFFFFFFFFu

/* What a kernel-view word is: a writable mask (0 = not storage), or a
 * read-only constant. */
typedef struct KvWord {
    uint32_t wmask;
    bool is_const;
    uint32_t value;
} KvWord;

static KvWord kv_word(uint32_t off)
{
    if (off >= TPC_KV_TENSOR(0) && off < TPC_KV_TENSORS_END) {
        return (KvWord){0xFFFFFFFFu, false, 0};
    }
    if (off >= TPC_KV_SYNC_MSG && off < TPC_KV_SRF(32)) {
        /* sync object, KERNEL_BASE, TID_*, KERNEL_CONFIG, KERNEL_ID, SRF_* */
        return (KvWord){0xFFFFFFFFu, false, 0};
    }
    if (off >= TPC_KV_QM_TENSOR0 && off < TPC_KV_QM_END) {
        return (KvWord){0xFFFFFFFFu, false, 0};
    }
    switch (off) {
    case TPC_KV_ROUND_CSR:
    case TPC_KV_PROT:
    case TPC_KV_SEMAPHORE:
    case TPC_KV_LFSR_POLYNOM:
    case TPC_KV_INTR_CAUSE:
    case TPC_KV_INTR_MASK:
        return (KvWord){0xFFFFFFFFu, false, 0};
    case TPC_KV_VFLAGS:
    case TPC_KV_SFLAGS:
        return (KvWord){0xFu, false, 0};
    case TPC_KV_STATUS:
        return (KvWord){0, true, TPC_KV_STATUS_VALUE};
    case TPC_KV_MSS_CONFIG:
        return (KvWord){0, true, TPC_KV_MSS_CONFIG_VALUE};
    default:
        return (KvWord){0, true, 0}; /* reserved, TPC_CMD/EXECUTE/STALL */
    }
}

uint32_t tpccfg_kv_read(TpcCfg *tc, uint32_t off)
{
    off &= (TPC_KV_SIZE - 1) & ~3u;
    KvWord k = kv_word(off);
    return k.is_const ? k.value : tc->kv[off / 4];
}

void tpccfg_kv_write(TpcCfg *tc, uint32_t off, uint32_t val)
{
    off &= (TPC_KV_SIZE - 1) & ~3u;
    KvWord k = kv_word(off);
    if (!k.wmask) {
        return;
    }
    tc->kv[off / 4] = val & k.wmask;
    tc->kv_gen++;
    if (off == TPC_KV_KERNEL_BASE_LO || off == TPC_KV_KERNEL_BASE_HI) {
        /* A new kernel base makes the old size meaningless (tpc.md §2.1). */
        tc->kernel_size = 0;
    }
}

static void tpccfg_latch(TpcCfg *tc)
{
    TpcLaunch *l = &tc->latched;
    l->kernel_base = tc->kv[TPC_KV_KERNEL_BASE_LO / 4] | (uint64_t)tc->kv[TPC_KV_KERNEL_BASE_HI / 4]
                                                             << 32;
    l->kernel_size = tc->kernel_size;
    l->config = tc->kv[TPC_KV_KERNEL_CONFIG / 4];
    for (unsigned d = 0; d < 5; d++) {
        l->tid_base[d] = tc->kv[TPC_KV_TID_BASE(d) / 4];
        l->tid_size[d] = tc->kv[TPC_KV_TID_SIZE(d) / 4];
    }
    for (unsigned i = 0; i < 32; i++) {
        l->srf[i] = tc->kv[TPC_KV_SRF(i) / 4];
    }
}

/* The sequencer whose count of outstanding work includes this launch, or NULL. */
static NxBlock *tpccfg_launcher_nx(TpcCfg *tc)
{
    Machine *m = tc->m;
    if (tc->launcher == TPC_LAUNCHER_NONE || !m->board->nx || tc->launcher >= m->cfg.nr_seq) {
        return NULL;
    }
    return &m->board->nx[tc->launcher];
}

static void tpccfg_execute(TpcCfg *tc, MemTxAttrs attrs)
{
    Machine *m = tc->m;
    if ((tc->status & 3) == TPC_ST_RUNNING) {
        return; /* EXECUTE while RUNNING is ignored */
    }
    tpccfg_latch(tc);
    tc->status = TPC_ST_RUNNING;
    tc->launcher = attrs.kind == MEM_REQ_SEQ ? attrs.id : TPC_LAUNCHER_NONE;
    NxBlock *nx = tpccfg_launcher_nx(tc);
    if (nx) {
        /* the launcher's DRAIN waits for this kernel */
        tc->launcher_gen = nx_work_begin(nx);
    }
    m->sched.round_tpc_changed++;
    nx_log_mask(&m->log, NX_LOG_TPC,
                "tpc: %u launch by 0x%" PRIx32 " base=0x%016" PRIx64 " size=0x%" PRIx32
                " config=0x%" PRIx32 "\n",
                tc->index, tc->launcher, tc->latched.kernel_base, tc->latched.kernel_size,
                tc->latched.config);
    if (G_UNLIKELY(m->runev)) {
        NxRunEvent ev = {.kind = NX_RUNEV_KERNEL_BEGIN,
                         .unit = tc->index,
                         .t0 = machine_vtime(m),
                         .owner = (int)MIN(tc->launcher, (uint32_t)G_MAXINT)};
        machine_runev(m, &ev);
    }
    /* the running kernel's progress for a debugger (the CYCLES/BUNDLES
     * registers latch at the end, tpc.md §3) */
    tc->launch_retired = m->tpc && m->tpc[tc->index] ? m->tpc[tc->index]->retired : 0;
    tc->launch_vtime = machine_vtime(m);
    /* May finish (or fault) before returning: everything is latched first. */
    tc->launch(m, tc->index);
}

void tpccfg_finish(TpcCfg *tc, uint32_t fault_code, uint32_t fault_pc, uint32_t fault_info,
                   uint64_t fault_addr, uint64_t cycles, uint64_t bundles)
{
    Machine *m = tc->m;
    tc->cycles = cycles;
    tc->bundles = bundles;
    tc->fault_pc = fault_pc;
    tc->fault_info = fault_info;
    tc->fault_addr = fault_addr;
    /* before the completion semaphore moves: the cause is reported first
     * (a debugger's catch tpc-end line before its catch sem line) */
    if (G_UNLIKELY(m->runev)) {
        /* the kernel lasts its CYCLES, as -trace-json's kernel span */
        NxRunEvent ev = {.kind = NX_RUNEV_KERNEL_END,
                         .unit = tc->index,
                         .t0 = tc->launch_vtime,
                         .t1 = tc->launch_vtime + cycles,
                         .code = fault_code,
                         .bundles = bundles};
        machine_runev(m, &ev);
    }
    if (fault_code) {
        tc->status = TPC_ST_FAULT | (fault_code & 0xFF) << 8;
        tc->kv[TPC_KV_INTR_CAUSE / 4] = fault_code;
    } else {
        tc->status = TPC_ST_DONE;
        if (tc->completion_sem & TPC_COMPLETION_EN) {
            evsem_sem_add(&m->board->evsem, tc->completion_sem & 0xFF, tc->completion_inc);
        }
    }
    NxBlock *nx = tpccfg_launcher_nx(tc);
    if (nx) {
        nx_work_done(nx, tc->launcher_gen);
    }
    m->sched.round_tpc_changed++;
    nx_log_mask(&m->log, NX_LOG_TPC,
                "tpc: %u %s code=%" PRIu32 " cycles=%" PRIu64 " bundles=%" PRIu64 "\n", tc->index,
                fault_code ? "fault" : "done", fault_code, cycles, bundles);
}

/* Launch-block word at off (0x1000..0x103F). */
static uint32_t tpccfg_win_read32(TpcCfg *tc, uint32_t off)
{
    switch (off) {
    case TPC_W_COMPLETION_SEM:
        return tc->completion_sem;
    case TPC_W_COMPLETION_INC:
        return tc->completion_inc;
    case TPC_W_STATUS:
        return tc->status;
    case TPC_W_LAUNCHER:
        return tc->launcher;
    case TPC_W_CYCLES:
        return (uint32_t)tc->cycles;
    case TPC_W_CYCLES + 4:
        return (uint32_t)(tc->cycles >> 32);
    case TPC_W_FAULT_PC:
        return tc->fault_pc;
    case TPC_W_FAULT_INFO:
        return tc->fault_info;
    case TPC_W_KERNEL_SIZE:
        return tc->kernel_size;
    case TPC_W_FAULT_ADDR:
        return (uint32_t)tc->fault_addr;
    case TPC_W_FAULT_ADDR + 4:
        return (uint32_t)(tc->fault_addr >> 32);
    case TPC_W_BUNDLES:
        return (uint32_t)tc->bundles;
    case TPC_W_BUNDLES + 4:
        return (uint32_t)(tc->bundles >> 32);
    default:
        return 0; /* EXECUTE (write-only) and reserved */
    }
}

static void tpccfg_win_write32(TpcCfg *tc, uint32_t off, uint32_t v, MemTxAttrs attrs)
{
    switch (off) {
    case TPC_W_COMPLETION_SEM:
        tc->completion_sem = v;
        break;
    case TPC_W_COMPLETION_INC:
        tc->completion_inc = v;
        break;
    case TPC_W_EXECUTE:
        if (v == 1) {
            tpccfg_execute(tc, attrs);
        }
        break;
    case TPC_W_KERNEL_SIZE:
        tc->kernel_size = v;
        break;
    default:
        break; /* read-only or reserved */
    }
}

static uint32_t tpccfg_read32(TpcCfg *tc, uint32_t off)
{
    if (off < TPC_KV_SIZE) {
        return tpccfg_kv_read(tc, off);
    }
    return off < TPC_WINDOW_END ? tpccfg_win_read32(tc, off) : 0;
}

static void tpccfg_write32(TpcCfg *tc, uint32_t off, uint32_t v, MemTxAttrs attrs)
{
    if (off < TPC_KV_SIZE) {
        tpccfg_kv_write(tc, off, v);
    } else if (off < TPC_WINDOW_END) {
        tpccfg_win_write32(tc, off, v, attrs);
    }
}

static MemTxResult tpccfg_check(uint64_t off, unsigned size)
{
    if (size != 4 && size != 8) {
        return MEMTX_BAD_WIDTH;
    }
    if (off & (size - 1)) {
        return MEMTX_MISALIGNED;
    }
    return off < nc2_memmap[NC2_TPC].size ? MEMTX_OK : MEMTX_UNMAPPED;
}

static MemTxResult tpccfg_mmio_read(void *opaque, uint64_t off, unsigned size, uint64_t *data,
                                    MemTxAttrs attrs)
{
    TpcCfg *tc = opaque;
    MemTxResult r = tpccfg_check(off, size);
    if (r != MEMTX_OK) {
        return r;
    }
    uint64_t v = tpccfg_read32(tc, (uint32_t)off);
    if (size == 8) {
        v |= (uint64_t)tpccfg_read32(tc, (uint32_t)off + 4) << 32;
    }
    *data = v;
    return MEMTX_OK;
}

static MemTxResult tpccfg_mmio_write(void *opaque, uint64_t off, unsigned size, uint64_t data,
                                     MemTxAttrs attrs)
{
    TpcCfg *tc = opaque;
    MemTxResult r = tpccfg_check(off, size);
    if (r != MEMTX_OK) {
        return r;
    }
    tpccfg_write32(tc, (uint32_t)off, (uint32_t)data, attrs);
    if (size == 8) {
        tpccfg_write32(tc, (uint32_t)off + 4, (uint32_t)(data >> 32), attrs);
    }
    return MEMTX_OK;
}

static const MemoryRegionOps tpccfg_ops = {
    .read = tpccfg_mmio_read,
    .write = tpccfg_mmio_write,
    .widths = MEM_W4 | MEM_W8,
    .unaligned_ok = false,
};

void tpccfg_init(TpcCfg *tc, Machine *m, unsigned index)
{
    memset(tc, 0, sizeof(*tc));
    tc->m = m;
    tc->index = index;
    tc->completion_inc = 1;
    tc->launcher = TPC_LAUNCHER_NONE;
    tc->launch = tpc_cpu_launch;
    g_autofree char *name = g_strdup_printf("tpc%u", index);
    mr_init_io(&tc->mmio, name, nc2_memmap[NC2_TPC].size, &tpccfg_ops, tc);
}

void tpccfg_destroy(TpcCfg *tc)
{
    mr_destroy(&tc->mmio);
}

/* The TPC core's port (include/nxemu/tpc-port.h): thin adapters so that the
 * core needs no TpcCfg. */
static uint32_t port_kv_read(void *opaque, uint32_t off)
{
    return tpccfg_kv_read(opaque, off);
}

static void port_kv_write(void *opaque, uint32_t off, uint32_t val)
{
    tpccfg_kv_write(opaque, off, val);
}

static void port_sem_add(void *opaque, uint32_t val)
{
    TpcCfg *tc = opaque;
    tc->kv[TPC_KV_SEMAPHORE / 4] += val;
}

static void port_finish(void *opaque, uint32_t fault_code, uint32_t fault_pc, uint32_t fault_info,
                        uint64_t fault_addr, uint64_t cycles, uint64_t bundles)
{
    tpccfg_finish(opaque, fault_code, fault_pc, fault_info, fault_addr, cycles, bundles);
}

static bool port_on_chip(void *opaque, uint64_t pa)
{
    (void)opaque;
    return nc2_on_chip(pa, pa + 1);
}

void tpccfg_port(TpcCfg *tc, TpcPort *port)
{
    *port = (TpcPort){
        .opaque = tc,
        .kv = tc->kv,
        .kv_gen = &tc->kv_gen,
        .latched = &tc->latched,
        .kv_read = port_kv_read,
        .kv_write = port_kv_write,
        .sem_add = port_sem_add,
        .on_chip = port_on_chip,
        .finish = port_finish,
    };
}
