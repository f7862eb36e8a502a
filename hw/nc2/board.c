/*
 * The nc2 board: builds the system physical address map (machine.md §1) from
 * the const nc2_memmap table and the MachineConfig, creates the devices and
 * cores, and places the effective DTB in HBM (§10).
 *
 * Everything hangs off the Machine object; machine_free releases all of it so
 * unit tests can build and drop machines freely.
 */
#include <string.h>
#include <inttypes.h>

#include "hw/nc2/board.h"
#include "hw/nc2/fdt.h"
#include "nxemu/threads.h"
#include "nxemu/error.h"
#include "nxemu/sched.h"

/* Windows above the map's top are unmapped anyway; 1 TiB covers §1. */
#define SYSMEM_SIZE (1ull << 40)

static void map(Machine *m, uint64_t pa, MemoryRegion *mr)
{
    mr_add_subregion(&m->sysmem, pa, mr, 0);
}

/* All SBUF and PSUM partitions share one host reservation (m->board->local_ram,
 * never mapped itself): one mmap and one munmap instead of 256 each, which
 * was a fifth of nxemu's start-up.  Each partition is its own RAM region at
 * its own PA as before (§1.2), over a page-aligned slice of it. */
#define LOCAL_SBUF_BYTES ((uint64_t)NC2_SBUF_PARTITIONS * NC2_SBUF_PART_BYTES)
#define LOCAL_PSUM_BYTES ((uint64_t)NC2_PSUM_PARTITIONS * NC2_PSUM_PART_BYTES)

static bool map_memories(Machine *m, GError **err)
{
    const MemMapEntry *mm = nc2_memmap;
    if (!mr_init_backed(&m->board->local_ram, MR_RAM, "sbuf+psum",
                        LOCAL_SBUF_BYTES + LOCAL_PSUM_BYTES, 0, err)) {
        return false;
    }
    uint8_t *host = m->board->local_ram.host;
    for (unsigned p = 0; p < NC2_SBUF_PARTITIONS; p++) {
        char name[16];
        snprintf(name, sizeof(name), "sbuf%u", p);
        mr_init_ram_ptr(&m->board->sbuf[p], name, NC2_SBUF_PART_BYTES, MR_F_FETCH | MR_F_DMA,
                        host + (uint64_t)p * NC2_SBUF_PART_BYTES);
        map(m, mm[NC2_SBUF].base + (uint64_t)p * NC2_SBUF_PITCH, &m->board->sbuf[p]);
    }
    host += LOCAL_SBUF_BYTES;
    /* Partition p = q*32 + i sits at q*1 MiB + i*32 KiB = p*32 KiB (§1.2). */
    for (unsigned p = 0; p < NC2_PSUM_PARTITIONS; p++) {
        char name[16];
        snprintf(name, sizeof(name), "psum%u", p);
        mr_init_ram_ptr(&m->board->psum[p], name, NC2_PSUM_PART_BYTES, MR_F_FETCH | MR_F_DMA,
                        host + (uint64_t)p * NC2_PSUM_PART_BYTES);
        map(m, mm[NC2_PSUM].base + (uint64_t)p * NC2_PSUM_PITCH, &m->board->psum[p]);
    }
    return true;
}

static void map_devices(Machine *m)
{
    const MachineConfig *cfg = &m->cfg;
    const MemMapEntry *mm = nc2_memmap;

    evsem_init(&m->board->evsem, m);
    map(m, mm[NC2_EVSEM].base, &m->board->evsem.mmio);

    /* Aliases, engines and TPC windows exist only for configured units:
     * the others stay unmapped (§12.9). */
    m->board->nx = g_new0(NxBlock, cfg->nr_seq);
    for (unsigned i = 0; i < cfg->nr_seq; i++) {
        nx_init(&m->board->nx[i], m, i, cfg->tlb_entries, cfg->nr_seq);
        map(m, mm[NC2_NX].base + i * mm[NC2_NX].stride, &m->board->nx[i].alias);
    }
    dma_init(&m->board->dma, m, cfg->nr_dma, cfg->dma_queue_depth, cfg->dma_bytes_per_cycle,
             cfg->dma_latency);
    dma_set_hbm_cap(&m->board->dma, cfg->hbm_bytes_per_cycle);
    for (unsigned e = 0; e < cfg->nr_dma; e++) {
        map(m, mm[NC2_DMA].base + e * mm[NC2_DMA].stride, &m->board->dma.e[e].mmio);
    }
    m->board->tpccfg = g_new0(TpcCfg, cfg->nr_tpc ? cfg->nr_tpc : 1);
    for (unsigned t = 0; t < cfg->nr_tpc; t++) {
        tpccfg_init(&m->board->tpccfg[t], m, t);
        map(m, mm[NC2_TPC].base + t * mm[NC2_TPC].stride, &m->board->tpccfg[t].mmio);
    }
    testdev_init(&m->board->test, m);
    map(m, mm[NC2_TEST].base, &m->board->test.mmio);
}

static void create_cores(Machine *m)
{
    m->seq = g_new0(NxCpu *, m->cfg.nr_seq);
    for (unsigned i = 0; i < m->cfg.nr_seq; i++) {
        /* NULL until the sequencer target exists: tolerated everywhere. */
        SeqPort port;
        nx_seq_port(&m->board->nx[i], &port);
        m->seq[i] = seq_cpu_create(m, i, &port);
        m->board->nx[i].cpu = m->seq[i];
    }
    m->tpc = g_new0(NxCpu *, m->cfg.nr_tpc ? m->cfg.nr_tpc : 1);
    for (unsigned t = 0; t < m->cfg.nr_tpc; t++) {
        TpcPort port;
        tpccfg_port(&m->board->tpccfg[t], &port);
        m->tpc[t] = tpc_cpu_create(m, t, &port);
    }
    m->cov_isa[CPU_KIND_SEQ] = &seq_cov_isa;
    m->cov_isa[CPU_KIND_TPC] = &tpc_cov_isa;
}

/* nxemu,dtb-in-memory: the effective tree at HBM_end - 1 MiB (§10). */
static bool place_dtb(Machine *m, GError **err)
{
    uint64_t addr = m->cfg.hbm_size - NC2_DTB_IN_MEM_BYTES, bad = 0;
    if (!m->cfg.dtb_in_memory) {
        return true;
    }
    if (m->fdt_size > NC2_DTB_IN_MEM_BYTES) {
        g_set_error(err, NX_ERROR, NX_ERROR_CONFIG,
                    "dtb: effective tree is %zu bytes: nxemu,dtb-in-memory needs it to fit in "
                    "1 MiB",
                    m->fdt_size);
        return false;
    }
    if (as_rw_bytes(m->as, addr, m->fdt, m->fdt_size, true, MEMTXATTRS(MEM_REQ_LOADER, 0), &bad) !=
        MEMTX_OK) {
        g_set_error(err, NX_ERROR, NX_ERROR_CONFIG,
                    "dtb: cannot write the tree to HBM at 0x%" PRIx64 " (bad address 0x%" PRIx64
                    ")",
                    addr, bad);
        return false;
    }
    for (unsigned i = 0; i < m->cfg.nr_seq; i++) {
        m->board->nx[i].dtb_addr = addr;
    }
    machine_add_label(m, addr, m->fdt_size, "device tree");
    return true;
}

void machine_add_label(Machine *m, uint64_t pa, uint64_t size, const char *name)
{
    NxMemLabel l = {.pa = pa, .size = size, .name = NULL};
    if (m->labels && m->labels->len) {
        /* the next piece of the same thing (an image written in parts) */
        NxMemLabel *last = &g_array_index(m->labels, NxMemLabel, m->labels->len - 1);
        if (!strcmp(last->name, name) && last->pa + last->size == pa) {
            last->size += size;
            return;
        }
    }
    l.name = g_strdup(name);
    if (!m->labels) {
        m->labels = g_array_new(FALSE, FALSE, sizeof(NxMemLabel));
    }
    g_array_append_val(m->labels, l);
}

Machine *machine_new(const MachineConfig *cfg, const void *fdt, size_t fdt_size, GError **err)
{
    Machine *m = g_new0(Machine, 1);
    m->board = g_new0(NxBoard, 1);
    m->cfg = *cfg;
    m->fdt = fdt ? g_memdup2(fdt, fdt_size) : NULL;
    m->fdt_size = fdt ? fdt_size : 0;
    m->log.file = stderr;
    m->log.mask = 0;
    sched_init(m, cfg->quantum);

    mr_init_container(&m->sysmem, "system", SYSMEM_SIZE);
    if (!mr_init_backed(&m->board->hbm, MR_RAM, "hbm", cfg->hbm_size, MR_F_FETCH | MR_F_DMA, err)) {
        machine_free(m);
        return NULL;
    }
    map(m, nc2_memmap[NC2_HBM].base, &m->board->hbm);
    if (!map_memories(m, err)) {
        machine_free(m);
        return NULL;
    }
    map_devices(m);
    m->as = as_new("system", &m->sysmem);
    create_cores(m);
    if (m->fdt && !place_dtb(m, err)) {
        machine_free(m);
        return NULL;
    }
    nx_log_mask(&m->log, NX_LOG_MACHINE,
                "machine: nc2 hbm=0x%" PRIx64 " seq=%u tpc=%u dma=%u quantum=%u\n", cfg->hbm_size,
                cfg->nr_seq, cfg->nr_tpc, cfg->nr_dma, cfg->quantum);
    return m;
}

void machine_free(Machine *m)
{
    if (!m) {
        return;
    }
    for (guint i = 0; m->labels && i < m->labels->len; i++) {
        g_free(g_array_index(m->labels, NxMemLabel, i).name);
    }
    if (m->labels) {
        g_array_free(m->labels, TRUE);
    }
    nx_threads_free(m); /* the workers run cores: stopped before them */
    /* Cores first: they may hold pointers into devices and memory. */
    for (unsigned i = 0; m->seq && i < m->cfg.nr_seq; i++) {
        if (m->seq[i] && m->seq[i]->ops->destroy) {
            m->seq[i]->ops->destroy(m->seq[i]);
        }
    }
    for (unsigned t = 0; m->tpc && t < m->cfg.nr_tpc; t++) {
        if (m->tpc[t] && m->tpc[t]->ops->destroy) {
            m->tpc[t]->ops->destroy(m->tpc[t]);
        }
    }
    g_free(m->seq);
    g_free(m->tpc);
    as_free(m->as);
    /* Devices exist only if the memories were built (map_devices ran). */
    if (m->board->nx) {
        for (unsigned i = 0; i < m->cfg.nr_seq; i++) {
            nx_destroy(&m->board->nx[i]);
        }
        g_free(m->board->nx);
        dma_destroy(&m->board->dma);
        for (unsigned t = 0; t < m->cfg.nr_tpc; t++) {
            tpccfg_destroy(&m->board->tpccfg[t]);
        }
        g_free(m->board->tpccfg);
        testdev_destroy(&m->board->test);
        evsem_destroy(&m->board->evsem);
        for (unsigned p = 0; p < NC2_SBUF_PARTITIONS; p++) {
            mr_destroy(&m->board->sbuf[p]);
        }
        for (unsigned p = 0; p < NC2_PSUM_PARTITIONS; p++) {
            mr_destroy(&m->board->psum[p]);
        }
    }
    mr_destroy(&m->board->local_ram); /* after the partitions carved out of it */
    mr_destroy(&m->board->hbm);
    mr_destroy(&m->sysmem);
    if (m->log.file && m->log.file != stderr && m->log.file != stdout) {
        fclose(m->log.file); /* -D FILE: the machine owns it */
    }
    g_free(m->fdt);
    g_free(m->board);
    g_free(m);
}
