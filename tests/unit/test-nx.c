/* NX register block (machine.md §3, §2.1, §12.3, §12.10): access widths,
 * RO/RW/WO rules, u64 halves, the PC write rule, CONTROL semantics and
 * ordering, own-core CONTROL deferral and the Neuron-address view. */
#include <glib.h>

#include "hw/nc2/board.h"
#include "hw/nc2/nx.h"
#include "nxemu/machine.h"

#define HBM_SIZE    (64ull << 20)
#define NX_ALIAS(n) (0x2803000000ull + (n)*0x1000ull)

typedef struct Fix {
    Machine *m;
    NxCpu cpu[2];
} Fix;

static Fix *fix_new(void)
{
    Fix *f = g_new0(Fix, 1);
    Machine *m = f->m = g_new0(Machine, 1);
    m->board = g_new0(NxBoard, 1);
    m->cfg.nr_seq = 2;
    m->cfg.nr_dma = 3;
    m->cfg.tlb_entries = 4;
    mr_init_container(&m->sysmem, "system", 1ull << 40);
    mr_init_ram(&m->board->hbm, "hbm", HBM_SIZE, MR_F_FETCH | MR_F_DMA);
    mr_add_subregion(&m->sysmem, 0, &m->board->hbm, 0);
    m->board->nx = g_new0(NxBlock, 2);
    for (unsigned i = 0; i < 2; i++) {
        nx_init(&m->board->nx[i], m, i, 4, 2);
        f->cpu[i] = (NxCpu){.m = m, .kind = CPU_KIND_SEQ, .index = i, .state = CPU_RESET};
        m->board->nx[i].cpu = &f->cpu[i];
        mr_add_subregion(&m->sysmem, NX_ALIAS(i), &m->board->nx[i].alias, 0);
    }
    m->as = as_new("pa", &m->sysmem);
    return f;
}

static void fix_free(Fix *f)
{
    Machine *m = f->m;
    as_free(m->as);
    for (unsigned i = 0; i < 2; i++) {
        nx_destroy(&m->board->nx[i]);
    }
    g_free(m->board->nx);
    mr_destroy(&m->board->hbm);
    mr_destroy(&m->sysmem);
    g_free(m->board);
    g_free(m);
    g_free(f);
}

static const MemTxAttrs dbg = {MEM_REQ_DEBUG, 0};
static const MemTxAttrs seq0 = {MEM_REQ_SEQ, 0};
static const MemTxAttrs seq1 = {MEM_REQ_SEQ, 1};

static uint64_t rd(NxBlock *nx, uint64_t off, unsigned size)
{
    uint64_t v = 0xDEADBEEF;
    g_assert_cmpint(nx_read(nx, off, size, &v, dbg), ==, MEMTX_OK);
    return v;
}

static void wr(NxBlock *nx, uint64_t off, unsigned size, uint64_t v, MemTxAttrs a)
{
    g_assert_cmpint(nx_write(nx, off, size, v, a), ==, MEMTX_OK);
}

static void test_widths(void)
{
    Fix *f = fix_new();
    NxBlock *nx = &f->m->board->nx[0];
    uint64_t v;
    g_assert_cmpint(nx_read(nx, 0x0, 1, &v, dbg), ==, MEMTX_BAD_WIDTH);
    g_assert_cmpint(nx_read(nx, 0x0, 2, &v, dbg), ==, MEMTX_BAD_WIDTH);
    g_assert_cmpint(nx_write(nx, 0x0, 1, 1, dbg), ==, MEMTX_BAD_WIDTH);
    g_assert_cmpint(nx_read(nx, 0x2, 4, &v, dbg), ==, MEMTX_MISALIGNED);
    g_assert_cmpint(nx_read(nx, 0x104, 8, &v, dbg), ==, MEMTX_MISALIGNED);
    g_assert_cmpint(nx_read(nx, 0x840, 4, &v, dbg), ==, MEMTX_UNMAPPED);
    g_assert_cmpint(nx_read(nx, 0x83C, 4, &v, dbg), ==, MEMTX_OK);
    g_assert_cmpint(nx_read(nx, 0x838, 8, &v, dbg), ==, MEMTX_OK);

    /* Through the alias the memory API sees the same rules. */
    AddressSpace *as = f->m->as;
    g_assert_cmpint(as_read(as, NX_ALIAS(0) + 0x840, 4, &v, dbg), !=, MEMTX_OK);
    g_assert_cmpint(as_read(as, NX_ALIAS(0) + 0x0, 2, &v, dbg), !=, MEMTX_OK);
    g_assert_cmpint(as_read(as, NX_ALIAS(0) + 0x104, 8, &v, dbg), !=, MEMTX_OK);
    g_assert_cmpint(as_write(as, NX_ALIAS(1) + 0x8, 4, 0x1234, dbg), ==, MEMTX_OK);
    g_assert_cmphex(f->m->board->nx[1].regs.r[2], ==, 0x1234);
    fix_free(f);
}

static void test_gprs_and_pairs(void)
{
    Fix *f = fix_new();
    NxBlock *nx = &f->m->board->nx[0];
    wr(nx, 0x0FC, 4, 0xCAFEF00D, dbg);
    g_assert_cmphex(nx->regs.r[63], ==, 0xCAFEF00D);
    /* §12.3: 8 bytes over two u32 registers = R[n] | R[n+1] << 32. */
    wr(nx, 0x008, 8, 0x1111222233334444ull, dbg);
    g_assert_cmphex(nx->regs.r[2], ==, 0x33334444);
    g_assert_cmphex(nx->regs.r[3], ==, 0x11112222);
    nx->regs.r[4] = 5;
    nx->regs.r[5] = 6;
    g_assert_cmphex(rd(nx, 0x010, 8), ==, 0x0000000600000005ull);
    g_assert_cmphex(rd(nx, 0x014, 4), ==, 6);
    /* WT_LEN (0x138) and TLB_ENTRIES (0x13C) read as one u64. */
    wr(nx, NX_WT_LEN, 4, 9, dbg);
    g_assert_cmphex(rd(nx, NX_WT_LEN, 8), ==, (4ull << 32) | 9);
    fix_free(f);
}

static void test_u64_halves(void)
{
    Fix *f = fix_new();
    NxBlock *nx = &f->m->board->nx[0];
    wr(nx, NX_ENTRY, 4, 0x89ABCDEF, dbg);
    wr(nx, NX_ENTRY + 4, 4, 0x01234567, dbg);
    g_assert_cmphex(rd(nx, NX_ENTRY, 8), ==, 0x0123456789ABCDEFull);
    g_assert_cmphex(rd(nx, NX_ENTRY + 4, 4), ==, 0x01234567);
    wr(nx, NX_ENTRY, 4, 0x10, dbg); /* low half only */
    g_assert_cmphex(nx->entry, ==, 0x0123456700000010ull);

    wr(nx, NX_ADDR_TABLE + 8 * 63 + 4, 4, 0x28, dbg);
    wr(nx, NX_ADDR_TABLE + 8 * 63, 4, 0x02700000, dbg);
    g_assert_cmphex(nx->regs.addr_table[63], ==, 0x2802700000ull);
    g_assert_cmphex(rd(nx, NX_ADDR_TABLE + 8 * 63, 8), ==, 0x2802700000ull);
    fix_free(f);
}

static void test_read_only(void)
{
    Fix *f = fix_new();
    Machine *m = f->m;
    NxBlock *nx = &m->board->nx[1];
    NxCpu *cpu = &f->cpu[1];
    nx->dtb_addr = 0x3FF00000;
    cpu->retired = 0x100000007ull;
    cpu->fault = (NxFault){NX_FAULT_BUS_ERROR, 0, 0x1234567890ull};
    cpu->fault_pc = 0x01000040;
    m->sched.vtime = 640;
    m->sched.current = cpu;
    cpu->slice_used = 5;

    static const uint32_t ro[] = {NX_STATUS,     NX_FAULT_CODE, NX_FAULT_INFO,  NX_FAULT_PC,
                                  NX_FAULT_ADDR, NX_RETIRED,    NX_TLB_ENTRIES, NX_CORE_ID,
                                  NX_NUM_CORES,  NX_DTB_ADDR,   NX_VTIME};
    uint64_t before[G_N_ELEMENTS(ro)];
    for (unsigned i = 0; i < G_N_ELEMENTS(ro); i++) {
        before[i] = rd(nx, ro[i], 4);
        wr(nx, ro[i], 4, 0xFFFFFFFF, dbg);
        g_assert_cmphex(rd(nx, ro[i], 4), ==, before[i]);
    }
    g_assert_cmphex(rd(nx, NX_CORE_ID, 4), ==, 1);
    g_assert_cmphex(rd(nx, NX_NUM_CORES, 4), ==, 2);
    g_assert_cmphex(rd(nx, NX_TLB_ENTRIES, 4), ==, 4);
    g_assert_cmphex(rd(nx, NX_DTB_ADDR, 8), ==, 0x3FF00000);
    g_assert_cmphex(rd(nx, NX_RETIRED, 8), ==, 0x100000007ull);
    g_assert_cmphex(rd(nx, NX_FAULT_CODE, 4), ==, 8);
    g_assert_cmphex(rd(nx, NX_FAULT_PC, 8), ==, 0x01000040);
    g_assert_cmphex(rd(nx, NX_FAULT_ADDR, 8), ==, 0x1234567890ull);
    /* VTIME = round start + cycles used so far by the reading core (§8). */
    g_assert_cmpuint(rd(nx, NX_VTIME, 8), ==, 645);
    /* CONTROL is write-only and reserved offsets read 0 and ignore writes. */
    g_assert_cmphex(rd(nx, NX_CONTROL, 4), ==, 0);
    wr(nx, 0x17C, 4, 0xFFFFFFFF, dbg);
    wr(nx, 0x1F8, 8, ~0ull, dbg);
    wr(nx, 0x480, 4, 0xFFFFFFFF, dbg);
    wr(nx, 0x83C, 4, 0xFFFFFFFF, dbg);
    g_assert_cmphex(rd(nx, 0x17C, 4), ==, 0);
    g_assert_cmphex(rd(nx, 0x1F8, 8), ==, 0);
    g_assert_cmphex(rd(nx, 0x480, 4), ==, 0);
    g_assert_cmphex(rd(nx, 0x83C, 4), ==, 0);
    m->sched.current = NULL;
    fix_free(f);
}

static void test_status(void)
{
    Fix *f = fix_new();
    NxBlock *nx = &f->m->board->nx[0];
    f->cpu[0].state = CPU_BLOCKED;
    nx->regs.block_reason = NX_BLOCK_DMAQ;
    g_assert_cmphex(rd(nx, NX_STATUS, 4), ==, 0x302);
    nx->regs.block_reason = NX_BLOCK_WAIT;
    g_assert_cmphex(rd(nx, NX_STATUS, 4), ==, 0x102);
    f->cpu[0].state = CPU_FAULTED;
    g_assert_cmphex(rd(nx, NX_STATUS, 4) & 0xF, ==, 4);
    fix_free(f);
}

static void test_counters_cleared_by_any_write(void)
{
    Fix *f = fix_new();
    NxBlock *nx = &f->m->board->nx[0];
    nx->tlb.hits = 0x500000001ull;
    nx->tlb.misses = 7;
    nx->tlb.evictions = 3;
    wr(nx, NX_TLB_HITS + 4, 4, 0x1234, dbg); /* even the high half with a nonzero value */
    g_assert_cmphex(rd(nx, NX_TLB_HITS, 8), ==, 0);
    wr(nx, NX_TLB_MISSES, 8, 99, dbg);
    g_assert_cmphex(rd(nx, NX_TLB_MISSES, 8), ==, 0);
    g_assert_cmphex(rd(nx, NX_TLB_EVICTIONS, 4), ==, 3);
    wr(nx, NX_TLB_EVICTIONS, 4, 0, dbg);
    g_assert_cmphex(rd(nx, NX_TLB_EVICTIONS, 4), ==, 0);
    fix_free(f);
}

static void test_notify_queue_regs(void)
{
    Fix *f = fix_new();
    NxBlock *nx = &f->m->board->nx[0];
    uint64_t q2 = NX_NQ + 2 * 0x20;
    wr(nx, q2, 8, 0x20000010ull, dbg);
    wr(nx, q2 + 0x08, 4, 16, dbg);
    wr(nx, q2 + 0x0C, 4, 3, dbg);
    wr(nx, q2 + 0x10, 4, 9, dbg); /* NQ_TAIL is read-only */
    nx->regs.nq[2].tail = 5;
    nx->regs.nq[2].overflow = 4;
    g_assert_cmphex(rd(nx, q2, 8), ==, 0x20000010ull);
    g_assert_cmpuint(rd(nx, q2 + 0x08, 4), ==, 16);
    g_assert_cmpuint(rd(nx, q2 + 0x0C, 4), ==, 3);
    g_assert_cmpuint(rd(nx, q2 + 0x10, 4), ==, 5);
    /* NQ_HEAD | NQ_SIZE << 0 as one u64 at +0x08 */
    g_assert_cmphex(rd(nx, q2 + 0x08, 8), ==, (3ull << 32) | 16);
    g_assert_cmpuint(rd(nx, q2 + 0x14, 4), ==, 4);
    wr(nx, q2 + 0x14, 4, 77, dbg); /* any write clears */
    g_assert_cmpuint(rd(nx, q2 + 0x14, 4), ==, 0);
    wr(nx, q2 + 0x18, 8, ~0ull, dbg);
    g_assert_cmphex(rd(nx, q2 + 0x18, 8), ==, 0);
    g_assert_cmphex(nx->regs.nq[1].base | nx->regs.nq[3].base, ==, 0);
    fix_free(f);
}

static void test_dma_engine(void)
{
    Fix *f = fix_new();
    /* Reset value n % engines (3 engines configured). */
    g_assert_cmpuint(rd(&f->m->board->nx[1], NX_DMA_ENGINE, 4), ==, 1);
    wr(&f->m->board->nx[1], NX_DMA_ENGINE, 4, 7, dbg);
    g_assert_cmpuint(nx_dma_engine(&f->m->board->nx[1]), ==, 1);
    wr(&f->m->board->nx[1], NX_DMA_ENGINE, 4, 2, dbg);
    g_assert_cmpuint(nx_dma_engine(&f->m->board->nx[1]), ==, 2);
    fix_free(f);
}

static void test_pc_write_rule(void)
{
    Fix *f = fix_new();
    NxBlock *nx = &f->m->board->nx[0];
    NxCpu *cpu = &f->cpu[0];
    static const CpuState ok[] = {CPU_RESET, CPU_HALTED, CPU_FAULTED};
    for (unsigned i = 0; i < G_N_ELEMENTS(ok); i++) {
        cpu->state = ok[i];
        nx->regs.discard_kept = false;
        wr(nx, NX_PC, 8, 0x01000040ull + 0x40 * i, dbg);
        g_assert_cmphex(rd(nx, NX_PC, 8), ==, 0x01000040ull + 0x40 * i);
        g_assert_true(nx->regs.discard_kept);
    }
    static const CpuState ignored[] = {CPU_RUNNING, CPU_BLOCKED};
    for (unsigned i = 0; i < G_N_ELEMENTS(ignored); i++) {
        cpu->state = ignored[i];
        nx->regs.pc = 0x02000000;
        nx->regs.discard_kept = false;
        wr(nx, NX_PC, 8, 0x03000000, seq1);
        wr(nx, NX_PC + 4, 4, 0x1, seq1);
        g_assert_cmphex(rd(nx, NX_PC, 8), ==, 0x02000000);
        g_assert_false(nx->regs.discard_kept);
    }
    /* Halves in a writable state. */
    cpu->state = CPU_HALTED;
    wr(nx, NX_PC + 4, 4, 0x1, dbg);
    wr(nx, NX_PC, 4, 0x80, dbg);
    g_assert_cmphex(nx->regs.pc, ==, 0x100000080ull);
    fix_free(f);
}

static void test_own_pc_through_alias(void)
{
    Fix *f = fix_new();
    NxBlock *nx = &f->m->board->nx[0];
    f->cpu[0].state = CPU_RUNNING;
    nx->regs.pc = 0x01000080; /* the executing instruction */
    uint64_t v = 0;
    g_assert_cmpint(as_read(f->m->as, NX_ALIAS(0) + NX_PC, 8, &v, seq0), ==, MEMTX_OK);
    g_assert_cmphex(v, ==, 0x01000080);
    g_assert_cmpint(nx_read(nx, NX_PC, 8, &v, seq0), ==, MEMTX_OK);
    g_assert_cmphex(v, ==, 0x01000080);
    fix_free(f);
}

static void test_control_run_stop(void)
{
    Fix *f = fix_new();
    NxBlock *nx = &f->m->board->nx[1];
    NxCpu *cpu = &f->cpu[1];
    cpu->state = CPU_FAULTED;
    cpu->fault = (NxFault){NX_FAULT_MISALIGNED, 9, 0x41};
    cpu->fault_pc = 0x01000000;
    nx->regs.pc = 0x01000100;
    wr(nx, NX_CONTROL, 4, NX_CTRL_RUN, seq0);
    g_assert_cmpint(cpu->state, ==, CPU_RUNNING);
    g_assert_cmphex(nx->regs.pc, ==, 0x01000100);
    g_assert_cmphex(rd(nx, NX_FAULT_CODE, 4), ==, 0);
    g_assert_cmphex(rd(nx, NX_FAULT_INFO, 4), ==, 0);
    g_assert_cmphex(rd(nx, NX_FAULT_PC, 8), ==, 0);
    g_assert_cmphex(rd(nx, NX_FAULT_ADDR, 8), ==, 0);

    /* RUN on a running core changes nothing. */
    wr(nx, NX_CONTROL, 4, NX_CTRL_RUN, seq0);
    g_assert_cmpint(cpu->state, ==, CPU_RUNNING);

    cpu->state = CPU_BLOCKED;
    nx->regs.block_reason = NX_BLOCK_WAIT;
    nx->regs.discard_kept = false;
    wr(nx, NX_CONTROL, 4, NX_CTRL_STOP, seq0);
    g_assert_cmpint(cpu->state, ==, CPU_HALTED);
    g_assert_true(nx->regs.discard_kept);
    g_assert_cmphex(nx->regs.pc, ==, 0x01000100); /* PC keeps the blocked instruction */
    g_assert_cmphex(rd(nx, NX_STATUS, 4), ==, 3);

    /* STOP on a halted or reset core does nothing. */
    wr(nx, NX_CONTROL, 4, NX_CTRL_STOP, seq0);
    g_assert_cmpint(cpu->state, ==, CPU_HALTED);
    fix_free(f);
}

static void test_control_reset(void)
{
    Fix *f = fix_new();
    Machine *m = f->m;
    NxBlock *nx = &m->board->nx[1];
    NxCpu *cpu = &f->cpu[1];
    nx->entry = 0x01000000;
    nx->dtb_addr = 0x3FF00000;
    cpu->state = CPU_RUNNING;
    cpu->retired = 12;
    nx->regs.pc = 0x01000400;
    nx->regs.r[7] = 7;
    nx->regs.addr_table[3] = 3;
    nx->regs.nq[0].size = 8;
    nx->regs.wt_base = 0x10000;
    nx->wt_len = 4;
    nx->regs.dma_engine = 0;
    nx->tlb.hits = 5;
    wr(nx, NX_CONTROL, 4, NX_CTRL_RESET, seq0);
    g_assert_cmpint(cpu->state, ==, CPU_RESET);
    g_assert_cmphex(rd(nx, NX_PC, 8), ==, 0x01000000);
    g_assert_cmphex(rd(nx, NX_ENTRY, 8), ==, 0x01000000);
    g_assert_cmphex(rd(nx, NX_DTB_ADDR, 8), ==, 0x3FF00000);
    g_assert_cmpuint(rd(nx, NX_CORE_ID, 4), ==, 1);
    g_assert_cmpuint(rd(nx, NX_NUM_CORES, 4), ==, 2);
    g_assert_cmpuint(rd(nx, NX_RETIRED, 8), ==, 0);
    g_assert_cmpuint(rd(nx, 0x1C, 4), ==, 0);
    g_assert_cmpuint(rd(nx, NX_ADDR_TABLE + 24, 8), ==, 0);
    g_assert_cmpuint(rd(nx, NX_NQ + 8, 4), ==, 0);
    g_assert_cmpuint(rd(nx, NX_WT_BASE, 8), ==, 0);
    g_assert_cmpuint(rd(nx, NX_WT_LEN, 4), ==, 0);
    g_assert_cmpuint(rd(nx, NX_TLB_HITS, 8), ==, 0);
    g_assert_cmpuint(rd(nx, NX_DMA_ENGINE, 4), ==, 1);
    g_assert_true(nx->regs.discard_kept);
    fix_free(f);
}

static void test_control_order(void)
{
    Fix *f = fix_new();
    NxBlock *nx = &f->m->board->nx[1];
    NxCpu *cpu = &f->cpu[1];
    /* STOP then RUN: a running core ends up running again (RUN first would
     * leave it halted). */
    cpu->state = CPU_RUNNING;
    wr(nx, NX_CONTROL, 4, NX_CTRL_STOP | NX_CTRL_RUN, seq0);
    g_assert_cmpint(cpu->state, ==, CPU_RUNNING);
    /* RESET then RUN: running at ENTRY. */
    nx->entry = 0x01000000;
    nx->regs.pc = 0x01000200;
    wr(nx, NX_CONTROL, 4, NX_CTRL_RESET | NX_CTRL_RUN, seq0);
    g_assert_cmpint(cpu->state, ==, CPU_RUNNING);
    g_assert_cmphex(nx->regs.pc, ==, 0x01000000);
    /* RESET then STOP: STOP finds the core in RESET and does nothing. */
    wr(nx, NX_CONTROL, 4, NX_CTRL_RESET | NX_CTRL_STOP, seq0);
    g_assert_cmpint(cpu->state, ==, CPU_RESET);
    fix_free(f);
}

static void test_control_own_core_pending(void)
{
    Fix *f = fix_new();
    NxBlock *nx = &f->m->board->nx[0];
    NxCpu *cpu = &f->cpu[0];
    cpu->state = CPU_RUNNING;
    /* Core 0 writes its own CONTROL through the global alias. */
    g_assert_cmpint(as_write(f->m->as, NX_ALIAS(0) + NX_CONTROL, 4, NX_CTRL_STOP, seq0), ==,
                    MEMTX_OK);
    g_assert_cmpint(cpu->state, ==, CPU_RUNNING); /* not before the write retires */
    g_assert_cmphex(nx->regs.pending_control, ==, NX_CTRL_STOP);
    nx_apply_pending_control(nx);
    g_assert_cmpint(cpu->state, ==, CPU_HALTED);
    g_assert_cmphex(nx->regs.pending_control, ==, 0);

    /* Another core's write (or the debugger's) acts at once. */
    cpu->state = CPU_RUNNING;
    wr(nx, NX_CONTROL, 4, NX_CTRL_STOP, seq1);
    g_assert_cmpint(cpu->state, ==, CPU_HALTED);
    fix_free(f);
}

static void put_entry(Machine *m, uint64_t pa, uint64_t v)
{
    g_assert_cmpint(as_write(m->as, pa, 8, v, dbg), ==, MEMTX_OK);
}

/* sequencer.md §8.3: RESET zeroes the DRAIN count; work issued before the
 * reset completes without touching the new count. */
static void test_reset_drain_generation(void)
{
    Fix *f = fix_new();
    NxBlock *nx = &f->m->board->nx[0];
    uint32_t old_a = nx_work_begin(nx);
    uint32_t old_b = nx_work_begin(nx);
    g_assert_cmpuint(nx->regs.outstanding, ==, 2);
    nx_control(nx, NX_CTRL_RESET);
    g_assert_cmpuint(nx->regs.outstanding, ==, 0);
    uint32_t fresh = nx_work_begin(nx);
    nx_work_done(nx, old_a); /* pre-reset completion: ignored */
    g_assert_cmpuint(nx->regs.outstanding, ==, 1);
    nx_work_done(nx, fresh);
    g_assert_cmpuint(nx->regs.outstanding, ==, 0);
    nx_work_done(nx, old_b); /* never underflows */
    g_assert_cmpuint(nx->regs.outstanding, ==, 0);
    fix_free(f);
}

static void test_translate_views(void)
{
    Fix *f = fix_new();
    Machine *m = f->m;
    NxBlock *nx = &m->board->nx[0];
    uint64_t pa;
    bool local;
    NxFault flt;

    /* Window 0 is local: never the TLB. */
    g_assert_true(nx_translate(nx, 0x100010, NX_ACC_READ, &pa, &local, &flt));
    g_assert_true(local);
    g_assert_cmphex(pa, ==, 0x100010);

    /* WT_BASE == 0: identity, statistics unchanged. */
    g_assert_true(nx_translate(nx, 0x2805000000ull, NX_ACC_WRITE, &pa, &local, &flt));
    g_assert_false(local);
    g_assert_cmphex(pa, ==, 0x2805000000ull);
    g_assert_cmpuint(nx->tlb.hits + nx->tlb.misses, ==, 0);

    put_entry(m, 0x20000 + 8, 0x06000000ull | WT_V | WT_R | WT_W | WT_X);
    wr(nx, NX_WT_BASE, 8, 0x20000, dbg);
    wr(nx, NX_WT_LEN, 4, 2, dbg);
    g_assert_true(nx_translate(nx, 0x01000044, NX_ACC_FETCH, &pa, &local, &flt));
    g_assert_cmphex(pa, ==, 0x06000044);
    g_assert_true(nx_translate(nx, 0x01000048, NX_ACC_READ, &pa, &local, &flt));
    g_assert_cmpuint(nx->tlb.misses, ==, 1);
    g_assert_cmpuint(nx->tlb.hits, ==, 1);
    /* Window 0 still bypasses the TLB with translation on. */
    g_assert_true(nx_translate(nx, 0x100000, NX_ACC_READ, &pa, &local, &flt));
    g_assert_true(local);
    g_assert_cmpuint(nx->tlb.hits + nx->tlb.misses, ==, 2);

    /* Rewriting WT_BASE (same value) flushes, statistics kept. */
    put_entry(m, 0x20000 + 8, 0x07000000ull | WT_V | WT_R);
    wr(nx, NX_WT_BASE, 8, 0x20000, dbg);
    g_assert_cmpuint(nx->tlb.misses, ==, 1);
    g_assert_cmpuint(nx->tlb.hits, ==, 1);
    g_assert_true(nx_translate(nx, 0x01000048, NX_ACC_READ, &pa, &local, &flt));
    g_assert_cmphex(pa, ==, 0x07000048);
    g_assert_cmpuint(nx->tlb.misses, ==, 2);

    /* WT_LEN write flushes too; CONTROL.TLB_FLUSH likewise. */
    put_entry(m, 0x20000 + 8, 0x08000000ull | WT_V | WT_R);
    wr(nx, NX_WT_LEN, 4, 2, dbg);
    g_assert_true(nx_translate(nx, 0x01000000, NX_ACC_READ, &pa, &local, &flt));
    g_assert_cmphex(pa, ==, 0x08000000);
    g_assert_cmpuint(nx->tlb.misses, ==, 3);
    put_entry(m, 0x20000 + 8, 0x09000000ull | WT_V | WT_R);
    wr(nx, NX_CONTROL, 4, NX_CTRL_TLB_FLUSH, seq1);
    g_assert_true(nx_translate(nx, 0x01000000, NX_ACC_READ, &pa, &local, &flt));
    g_assert_cmphex(pa, ==, 0x09000000);
    g_assert_cmpuint(nx->tlb.misses, ==, 4);

    /* A fault through the core's view. */
    g_assert_false(nx_translate(nx, 0x02000000, NX_ACC_READ, &pa, &local, &flt));
    g_assert_cmpuint(flt.code, ==, NX_FAULT_TRANSLATION_FAULT);
    g_assert_cmphex(flt.addr, ==, 0x02000000);
    fix_free(f);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/nx/widths", test_widths);
    g_test_add_func("/nx/gprs-and-pairs", test_gprs_and_pairs);
    g_test_add_func("/nx/u64-halves", test_u64_halves);
    g_test_add_func("/nx/read-only", test_read_only);
    g_test_add_func("/nx/status", test_status);
    g_test_add_func("/nx/counters-clear", test_counters_cleared_by_any_write);
    g_test_add_func("/nx/notify-queue-regs", test_notify_queue_regs);
    g_test_add_func("/nx/dma-engine", test_dma_engine);
    g_test_add_func("/nx/pc-write-rule", test_pc_write_rule);
    g_test_add_func("/nx/own-pc-through-alias", test_own_pc_through_alias);
    g_test_add_func("/nx/control-run-stop", test_control_run_stop);
    g_test_add_func("/nx/control-reset", test_control_reset);
    g_test_add_func("/nx/control-order", test_control_order);
    g_test_add_func("/nx/control-own-core", test_control_own_core_pending);
    g_test_add_func("/nx/translate-views", test_translate_views);
    g_test_add_func("/nx/reset-drain-generation", test_reset_drain_generation);
    return g_test_run();
}
