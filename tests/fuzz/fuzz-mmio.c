/*
 * Generic MMIO fuzzer (as QEMU's generic-fuzz): the input is a list of
 * commands on a live machine (two sequencers, two TPCs, the default DMA
 * engines): register reads and writes of 1, 2, 4 or 8 bytes to every
 * region of the memory map (hw/nc2/memmap.c: each instance of the strided
 * nx/dma/tpc windows, one past the last too), as a sequencer core, a TPC
 * or the debugger; 64-byte writes of HBM (DMA descriptors, records); core
 * starts; and scheduler rounds.  Commands and rounds are capped.
 *
 *   op % 5 == 0  read   region:u8 instance:u8 offset:u32 size:u8 who:u8
 *             1  write  region:u8 instance:u8 offset:u32 size:u8 who:u8 value:u64
 *             2  rounds n:u8 (1..8)
 *             3  HBM    offset:u16 (x 64) bytes[64]
 *             4  start  core:u8 (pc 0x1000000 + 64 * u8)
 */
#include "hw/nc2/board.h"
#include "fuzz.h"

#include "hw/nc2/memmap.h"
#include "nxemu/sched.h"

#define MAX_CMDS   512
#define MAX_ROUNDS 64

static uint64_t region_addr(Machine *m, FuzzIn *in)
{
    const MemMapEntry *e = &nc2_memmap[fuzz_take(in, 1) % NC2_NR_REGIONS];
    unsigned inst = (unsigned)fuzz_take(in, 1);
    uint64_t size = e->size, off = fuzz_take(in, 4);
    if (e == &nc2_memmap[NC2_HBM]) {
        size = m->cfg.hbm_size;
    }
    if (e->stride) {
        unsigned have = e == &nc2_memmap[NC2_NX]    ? m->cfg.nr_seq
                        : e == &nc2_memmap[NC2_DMA] ? m->cfg.nr_dma
                                                    : m->cfg.nr_tpc;
        inst %= have + 1; /* one absent instance too */
        return e->base + inst * e->stride + off % size;
    }
    return e->base + off % size;
}

static MemTxAttrs who(FuzzIn *in)
{
    unsigned w = (unsigned)fuzz_take(in, 1);
    switch (w % 4) {
    case 0:
        return MEMTXATTRS(MEM_REQ_SEQ, (w >> 2) & 1);
    case 1:
        return MEMTXATTRS(MEM_REQ_TPC, (w >> 2) & 1);
    case 2:
        return MEMTXATTRS(MEM_REQ_DMA, 0);
    default:
        return MEMTXATTRS(MEM_REQ_DEBUG, 0);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > FUZZ_MAX_INPUT) {
        return 0;
    }
    Machine *m = fuzz_machine(2, 2);
    if (!m) {
        return 0;
    }
    m->sched.has_icount_limit = true;
    m->sched.icount_limit = 500;
    m->sched.has_cycle_limit = true;
    m->sched.cycle_limit = 50000;
    FuzzIn in = {data, size};
    unsigned rounds = 0;
    for (unsigned c = 0; c < MAX_CMDS && in.n; c++) {
        unsigned op = (unsigned)fuzz_take(&in, 1) % 5;
        switch (op) {
        case 0:
        case 1: {
            uint64_t addr = region_addr(m, &in);
            unsigned sz = 1u << (fuzz_take(&in, 1) & 3);
            MemTxAttrs a = who(&in);
            uint64_t v = 0;
            if (op == 0) {
                as_read(m->as, addr, sz, &v, a);
            } else {
                v = fuzz_take(&in, 8);
                as_write(m->as, addr, sz, v, a);
            }
            break;
        }
        case 2: {
            unsigned n = 1 + (unsigned)fuzz_take(&in, 1) % 8;
            for (unsigned i = 0; i < n && rounds < MAX_ROUNDS; i++, rounds++) {
                if (m->stop_reason != STOP_NONE) {
                    break;
                }
                sched_round(m);
            }
            break;
        }
        case 3: {
            uint64_t addr = 64 * fuzz_take(&in, 2) + 0x1000000;
            uint8_t buf[64] = {0};
            for (unsigned i = 0; i < 64; i++) {
                buf[i] = (uint8_t)fuzz_take(&in, 1);
            }
            uint64_t bad;
            as_rw_bytes(m->as, addr, buf, sizeof(buf), true, MEMTXATTRS(MEM_REQ_LOADER, 0), &bad);
            break;
        }
        default: {
            unsigned core = (unsigned)fuzz_take(&in, 1) % m->cfg.nr_seq;
            uint64_t pc = 0x1000000 + 64 * fuzz_take(&in, 1);
            if (m->seq[core]->state == CPU_RESET) { /* as the loader starts a core */
                m->board->nx[core].entry = pc;
                m->board->nx[core].regs.pc = pc;
                m->seq[core]->state = CPU_RUNNING;
            }
            break;
        }
        }
    }
    GString *out = g_string_new(NULL);
    if (m->stop_reason != STOP_NONE) {
        sched_report(m, out);
    }
    g_string_free(out, TRUE);
    machine_free(m);
    return 0;
}
