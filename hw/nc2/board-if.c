/*
 * The board's public interface (include/nxemu/board-if.h): what softmmu/
 * reads and sets of the nc2 board's devices, so that it needs no hw/ header.
 */
#include <inttypes.h>

#include "hw/nc2/board.h"
#include "nxemu/board-if.h"

void board_set_seq_entry(Machine *m, unsigned seq, uint64_t entry)
{
    m->board->nx[seq].entry = entry;
    m->board->nx[seq].regs.pc = entry;
}

void board_set_tpc_kernel(Machine *m, unsigned tpc, uint64_t base, uint32_t size)
{
    TpcCfg *tc = &m->board->tpccfg[tpc];
    /* KERNEL_BASE first: writing it resets KERNEL_SIZE (tpc.md §2.1). */
    tpccfg_kv_write(tc, TPC_KV_KERNEL_BASE_LO, (uint32_t)base);
    tpccfg_kv_write(tc, TPC_KV_KERNEL_BASE_HI, (uint32_t)(base >> 32));
    tc->kernel_size = size;
}

void board_set_serial(Machine *m, const NxSerial *serial)
{
    m->board->test.serial = *serial;
}

bool board_is_memory(const Machine *m, uint64_t addr)
{
    const MemMapEntry *sbuf = &nc2_memmap[NC2_SBUF], *psum = &nc2_memmap[NC2_PSUM];
    return (addr >= nc2_memmap[NC2_HBM].base &&
            addr - nc2_memmap[NC2_HBM].base < m->cfg.hbm_size) ||
           (addr >= sbuf->base && addr - sbuf->base < sbuf->size) ||
           (addr >= psum->base && addr - psum->base < psum->size);
}

uint64_t board_dtb_addr(const Machine *m)
{
    if (!m->cfg.dtb_in_memory || !m->board->nx || !m->cfg.nr_seq)
        return 0;
    return m->board->nx[0].dtb_addr;
}

unsigned board_nr_dma(const Machine *m)
{
    return m->board->dma.nr;
}

uint64_t board_dma_completed(const Machine *m)
{
    uint64_t n = 0;
    for (unsigned e = 0; e < m->board->dma.nr; e++)
        n += m->board->dma.e[e].completed;
    return n;
}

NxSemView board_sem_view(const Machine *m)
{
    const EvSem *es = &m->board->evsem;
    return (NxSemView){.sem = es->sem, .evt = es->evt, .changes = &es->changes};
}

uint64_t board_tpc_kernel_base(const Machine *m, unsigned tpc)
{
    return m->board->tpccfg[tpc].latched.kernel_base;
}

bool board_debug_translate(Machine *m, NxCpu *cpu, uint64_t a, uint64_t *pa, uint64_t *room)
{
    if (cpu->kind == CPU_KIND_TPC) {
        const TpcCfg *tc = m->board->tpccfg ? &m->board->tpccfg[cpu->index] : NULL;
        uint64_t base;
        if (!tc || a >= 0x80000000ull)
            return false;
        /* the latched base while a kernel runs or ran; else the programmed one */
        base = tc->latched.kernel_base;
        if (!base && cpu->state == CPU_RESET)
            base = (uint64_t)tc->kv[TPC_KV_KERNEL_BASE_HI / 4] << 32 |
                   tc->kv[TPC_KV_KERNEL_BASE_LO / 4];
        *pa = base + a;
        *room = 0x80000000ull - a;
        return true;
    }
    if ((a >> 24) == 0) /* window 0: the own NX block only */
        return nx_local_peek(&m->board->nx[cpu->index], a, pa, room);
    *room = 0x1000000ull - (a & 0xFFFFFF);
    return nx_translate_peek(&m->board->nx[cpu->index], a, pa);
}

void board_info_tlb(Machine *m, unsigned seq, GString *out)
{
    const NxBlock *nx = &m->board->nx[seq];
    const WTlb *t = &nx->tlb;
    g_string_append_printf(out,
                           "seq%u: wt_base=0x%016" PRIx64 " wt_len=%u entries=%u hits=%" PRIu64
                           " misses=%" PRIu64 " evictions=%" PRIu64 "\n",
                           seq, nx->regs.wt_base, nx->wt_len, t->n, t->hits, t->misses,
                           t->evictions);
    for (unsigned i = 0; i < t->n; i++) {
        if (t->e[i].valid)
            g_string_append_printf(
                out, "  [%u] window=0x%" PRIx64 " entry=0x%016" PRIx64 " lru=%" PRIu64 "\n", i,
                t->e[i].window, t->e[i].entry, t->e[i].stamp);
    }
}

void board_info_semaphores(Machine *m, GString *out)
{
    const EvSem *es = &m->board->evsem;
    for (unsigned i = 0; i < NC2_NR_SEMAPHORES; i++) {
        g_string_append_printf(out, "%ssem[%3u]=0x%08" PRIx32, i % 4 ? "  " : "", i, es->sem[i]);
        if (i % 4 == 3 || i + 1 == NC2_NR_SEMAPHORES)
            g_string_append_c(out, '\n');
    }
    g_string_append(out, "events set:");
    bool any = false;
    for (unsigned i = 0; i < NC2_NR_EVENTS; i++) {
        if (es->evt[i]) {
            g_string_append_printf(out, " %u", i);
            any = true;
        }
    }
    g_string_append(out, any ? "\n" : " none\n");
}

void board_info_dma(Machine *m, GString *out)
{
    g_string_append_printf(out, "%u engines, %u requests queued\n", m->board->dma.nr,
                           m->board->dma.nr ? dma_pending(&m->board->dma) : 0);
    for (unsigned e = 0; e < m->board->dma.nr; e++) {
        const DmaEngine *d = &m->board->dma.e[e];
        g_string_append_printf(out,
                               "dma%u: queued=%u/%u completed=%" PRIu64 " bytes=%" PRIu64
                               " desc=0x%016" PRIx64 " error=0x%08" PRIx32 "\n",
                               e, d->count, d->depth, d->completed, d->bytes, d->desc_addr,
                               d->error);
    }
}

void board_info_tpc(Machine *m, unsigned t, GString *out)
{
    const NxCpu *c = m->tpc[t];
    const TpcCfg *tc = &m->board->tpccfg[t];
    /* A running kernel's counts so far (one cycle per bundle, tpc.md §6);
     * the CYCLES/BUNDLES registers only latch them at its end. */
    uint64_t cycles = tc->cycles, bundles = tc->bundles;
    if (c->state == CPU_RUNNING)
        cycles = bundles = c->retired - tc->launch_retired;
    g_string_append_printf(out,
                           "tpc%u: state=%s pc=0x%08" PRIx64 " status=0x%08" PRIx32
                           " kernel_base=0x%016" PRIx64 " kernel_size=%" PRIu32 " cycles=%" PRIu64
                           " bundles=%" PRIu64 "\n",
                           t, cpu_state_name(c->state), c->ops->get_pc((NxCpu *)c), tc->status,
                           tc->latched.kernel_base, tc->latched.kernel_size, cycles, bundles);
}
