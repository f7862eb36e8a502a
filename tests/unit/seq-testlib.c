/* Helpers shared by the sequencer unit tests (see seq-testlib.h). */
#include "hw/nc2/board.h"
#include "seq-testlib.h"

#include <stdlib.h>
#include <string.h>

#include "nxemu/sched.h"
#include "target/seq/asm.h"

/* ---- machine fixture ---------------------------------------------------- */

Machine *mk(unsigned nr_seq)
{
    MachineConfig cfg = {
        .hbm_size = 64ull << 20,
        .nr_seq = nr_seq,
        .nr_tpc = 0,
        .tlb_entries = 4,
        .quantum = 64,
        .nr_dma = 2,
        .dma_queue_depth = 4,
        .dma_bytes_per_cycle = 64,
        .dma_latency = 32,
    };
    GError *err = NULL;
    Machine *m = machine_new(&cfg, NULL, 0, &err);
    g_assert_no_error(err);
    g_assert_nonnull(m);
    g_assert_nonnull(m->seq[0]);
    return m;
}

void put(Machine *m, uint64_t pa, const void *buf, uint64_t len)
{
    uint64_t bad;
    g_assert_cmpint(
        as_rw_bytes(m->as, pa, (void *)buf, len, true, MEMTXATTRS(MEM_REQ_LOADER, 0), &bad), ==,
        MEMTX_OK);
}

uint64_t get(Machine *m, uint64_t pa, unsigned size)
{
    uint64_t v = 0, bad;
    uint8_t b[8] = {0};
    g_assert_cmpint(as_rw_bytes(m->as, pa, b, size, false, MEMTXATTRS(MEM_REQ_DEBUG, 0), &bad), ==,
                    MEMTX_OK);
    for (unsigned i = 0; i < size; i++)
        v |= (uint64_t)b[i] << (8 * i);
    return v;
}

void put32(Machine *m, uint64_t pa, uint32_t v)
{
    uint8_t b[4] = {v, v >> 8, v >> 16, v >> 24};
    put(m, pa, b, 4);
}

void start(Machine *m, unsigned core, uint64_t pc)
{
    m->board->nx[core].entry = pc;
    m->board->nx[core].regs.pc = pc;
    m->seq[core]->state = CPU_RUNNING;
}

int run(Machine *m)
{
    return sched_run(m);
}

uint64_t emit(Prog *p, const uint8_t rec[64])
{
    uint64_t a = p->at;
    put(p->m, a, rec, 64);
    p->at += 64;
    return a;
}

/* ---- record builders (byte layouts of sequencer.md §8) ------------------ */

void le(uint8_t *p, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

void hdr(uint8_t r[64], uint8_t opc)
{
    memset(r, 0, 64);
    r[0] = opc;
    r[1] = 0x10;
}

void ev(uint8_t r[64], uint8_t wmode, uint8_t widx, uint8_t umode, uint8_t uidx, uint32_t v)
{
    r[4] = wmode;
    r[5] = widx;
    r[6] = umode;
    r[7] = uidx;
    le(r + 8, v, 4);
}

void r_halt(uint8_t r[64])
{
    hdr(r, 0xA1);
}

void r_nop(uint8_t r[64])
{
    hdr(r, 0xA4);
}

/* mov.u32 {dst}, {imm} */
void r_movi(uint8_t r[64], uint8_t dst, uint32_t imm)
{
    hdr(r, 0xA7);
    r[12] = 1;
    r[13] = 0x9;
    r[14] = 1;
    r[24] = dst;
    le(r + 32, imm, 4);
}

/* mov.u32 {dst}, {src} (src may be 128/129) */
void r_movr(uint8_t r[64], uint8_t dst, uint8_t src)
{
    hdr(r, 0xA7);
    r[12] = 1;
    r[13] = 0x9;
    r[14] = 0;
    r[16] = src;
    r[24] = dst;
}

/* 32-bit ALU: dst = s0 op (imm ? immediate : s1) */
void r_alu(uint8_t r[64], uint8_t op, uint8_t dt, uint8_t dst, uint8_t s0, uint8_t s1, bool use_imm,
           uint64_t imm)
{
    hdr(r, 0xA8);
    r[12] = op;
    r[13] = dt;
    r[14] = use_imm;
    r[16] = s0;
    if (!use_imm)
        r[18] = s1;
    r[20] = dst;
    if (use_imm)
        le(r + 24, imm, 8);
}

/* 64-bit ALU on pairs (hi:lo). */
void r_alu64(uint8_t r[64], uint8_t op, uint8_t dt, uint8_t dlo, uint8_t dhi, uint8_t alo,
             uint8_t ahi, bool use_imm, uint64_t imm, uint8_t blo, uint8_t bhi)
{
    hdr(r, 0xA8);
    r[12] = op;
    r[13] = dt;
    r[14] = use_imm;
    r[16] = alo;
    r[17] = ahi;
    if (!use_imm) {
        r[18] = blo;
        r[19] = bhi;
    } else {
        le(r + 24, imm, 8);
    }
    r[20] = dlo;
    r[21] = dhi;
}

/* bCC.T lhs, imm, REL_IMM offset (cmp 1..6 with immediate; 0 = always) */
void r_bimm(uint8_t r[64], uint8_t cmp, uint8_t dt, uint8_t lhs, uint32_t rhs, int32_t rel)
{
    hdr(r, 0xA9);
    r[12] = cmp;
    r[13] = cmp ? dt : 0;
    r[14] = 3;
    if (cmp)
        le(r + 16, rhs, 4);
    r[32] = cmp ? lhs : 0;
    le(r + 48, (uint32_t)rel, 4);
}

/* write.u32 [imm addr], imm */
void r_write(uint8_t r[64], uint64_t addr, uint32_t v)
{
    hdr(r, 0xA5);
    r[12] = 1;
    r[13] = 0x9;
    le(r + 16, addr, 8);
    le(r + 24, v, 4);
}

/* ADDR8 forms */
void a8_imm(uint8_t *a, uint64_t v)
{
    le(a, v, 8);
}
void a8_reg(uint8_t *a, uint8_t lo, uint8_t hi)
{
    memset(a, 0, 8);
    a[0] = lo;
    a[1] = hi;
    a[7] = 0x80;
}

/* mem_2d (tld 0xAA / tst 0xAB) with register data */
void r_m2d(uint8_t r[64], uint8_t opc, uint8_t dt, uint8_t n0, uint8_t n1, int32_t s0, int32_t s1,
           const uint8_t *regs, unsigned nregs)
{
    hdr(r, opc);
    r[12] = dt;
    r[14] = n0;
    r[15] = n1;
    le(r + 24, (uint32_t)s0, 4);
    le(r + 28, (uint32_t)s1, 4);
    for (unsigned i = 0; i < nregs; i++)
        r[32 + i] = regs[i];
}

Machine *run_single(const uint8_t (*recs)[64], unsigned n, int *status)
{
    Machine *m = mk(1);
    Prog p = {m, CODE};
    for (unsigned i = 0; i < n; i++)
        emit(&p, recs[i]);
    start(m, 0, CODE);
    *status = run(m);
    return m;
}

void fault_line(Machine *m, GString *g)
{
    m->seq[0]->ops->fault_line(m->seq[0], g);
}

Machine *run_fault(const uint8_t *setup_regs_rec, const uint8_t *insn, int *st)
{
    uint8_t p[4][64];
    unsigned n = 0;
    if (setup_regs_rec)
        memcpy(p[n++], setup_regs_rec, 64);
    memcpy(p[n++], insn, 64);
    r_halt(p[n++]);
    return run_single(p, n, st);
}

/* ---- ISA-table tests ---------------------------------------------------- */

void asm1(const char *text, uint64_t pc, uint8_t rec[64])
{
    GString *err = g_string_new(NULL);
    if (!seq_asm_insn_text(text, pc, NULL, NULL, rec, err)) {
        g_test_message("assembling '%s': %s", text, err->str);
        g_assert_not_reached();
    }
    g_string_free(err, TRUE);
}

/* Parse "00: aa 10 ..." rows (omitted rows zero) into rec. */
void rows(const char *spec, uint8_t rec[64])
{
    memset(rec, 0, 64);
    gchar **lines = g_strsplit(spec, "\n", -1);
    for (unsigned i = 0; lines[i]; i++) {
        char *p = lines[i], *end;
        if (!*p) {
            continue;
        }
        unsigned off = (unsigned)strtoul(p, &end, 16);
        g_assert_true(*end == ':');
        p = end + 1;
        for (unsigned k = 0; k < 16; k++) {
            rec[off + k] = (uint8_t)strtoul(p, &end, 16);
            g_assert_true(end != p);
            p = end;
        }
    }
    g_strfreev(lines);
}

void assert_rec(const uint8_t *got, const uint8_t *want)
{
    for (unsigned i = 0; i < 64; i++) {
        if (got[i] != want[i]) {
            g_test_message("byte %u: got 0x%02x want 0x%02x", i, got[i], want[i]);
        }
    }
    g_assert_cmpmem(got, 64, want, 64);
}
