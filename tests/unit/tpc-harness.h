/*
 * Shared harness of the TPC executor unit tests: a bundle encoder following
 * tpc.md §4.1 (field positions) and §4.2 (operand encodings), and helpers
 * that build a machine, program a TPC through its machine window and run a
 * kernel to its end.
 */
#ifndef TESTS_UNIT_TPC_HARNESS_H
#define TESTS_UNIT_TPC_HARNESS_H

#include <math.h>
#include <string.h>

#include <glib.h>

#include "nxemu/machine.h"
#include "target/tpc/cpu.h"

#define TPC_PA(t) (0x2804000000ull + (t)*0x10000ull)
#define KBASE     0x100000ull
#define DATA      0x200000ull
#define DBG       MEMTXATTRS(MEM_REQ_DEBUG, 0)

/* ---- operand encodings (tpc.md §4.2) ---- */
/* SPU 7-bit fields */
#define SS(n)  (n)
#define SSP(n) (48 + (n))
#define SI(n)  (64 + (n))
#define SIMM   127
/* VPU / LD / ST 8-bit fields */
#define V(n)   (n)
#define VS(n)  (64 + (n))
#define VI(n)  (128 + (n))
#define VAD(n) (160 + (n))
#define VSP(n) (224 + (n))
#define VVP(n) (240 + (n))
#define VIMM   127

typedef struct Bun {
    uint8_t b[32];
} Bun;

G_GNUC_UNUSED static void setb(Bun *k, unsigned lo, unsigned w, uint32_t v)
{
    for (unsigned i = 0; i < w; i++) {
        unsigned bit = lo + i;
        if ((v >> i) & 1u)
            k->b[bit / 8] |= (uint8_t)(1u << (bit % 8));
        else
            k->b[bit / 8] &= (uint8_t) ~(1u << (bit % 8));
    }
}

G_GNUC_UNUSED static Bun nop(void)
{
    Bun k = {{0}};
    setb(&k, 0, 6, 0x3F);
    setb(&k, 43, 6, 0x3F);
    setb(&k, 119, 5, 0x1F);
    setb(&k, 140, 5, 0x1F);
    return k;
}

G_GNUC_UNUSED static Bun halt(void)
{
    Bun k = nop();
    setb(&k, 0, 6, 0x20);
    setb(&k, 43, 6, 0x20);
    return k;
}

G_GNUC_UNUSED static void spu(Bun *k, unsigned opc, unsigned type, unsigned dst, unsigned a,
                              unsigned b, unsigned sw, unsigned pred, unsigned pol)
{
    setb(k, 0, 6, opc);
    setb(k, 6, 7, a);
    setb(k, 13, 7, b);
    setb(k, 20, 7, dst);
    setb(k, 27, 4, type);
    setb(k, 31, 1, pol);
    setb(k, 32, 4, pred);
    setb(k, 36, 7, sw);
}

/* pred: bit 4 = VPRF */
G_GNUC_UNUSED static void vpu(Bun *k, unsigned opc, unsigned type, unsigned dst, unsigned a,
                              unsigned b, unsigned sw, unsigned pred, unsigned pol)
{
    setb(k, 43, 6, opc);
    setb(k, 49, 8, a);
    setb(k, 57, 8, b);
    setb(k, 82, 8, dst);
    setb(k, 90, 3, sw);
    setb(k, 93, 4, type);
    setb(k, 97, 1, pol);
    setb(k, 98, 5, pred);
}

G_GNUC_UNUSED static void vpu_cd(Bun *k, unsigned c, unsigned d)
{
    setb(k, 65, 8, c);
    setb(k, 73, 9, d);
}

G_GNUC_UNUSED static void ld(Bun *k, unsigned opc, unsigned dst, unsigned a, unsigned b,
                             unsigned sw)
{
    setb(k, 119, 5, opc);
    setb(k, 111, 8, dst);
    setb(k, 103, 8, a);
    setb(k, 73, 9, b);
    setb(k, 183, 4, sw);
}

G_GNUC_UNUSED static void st(Bun *k, unsigned opc, unsigned a, unsigned b, unsigned c, unsigned sw)
{
    setb(k, 140, 5, opc);
    setb(k, 124, 8, a);
    setb(k, 132, 8, b);
    setb(k, 65, 8, c);
    setb(k, 187, 4, sw);
}

G_GNUC_UNUSED static void ldst_pred(Bun *k, unsigned pred, unsigned pol)
{
    setb(k, 145, 1, pol);
    setb(k, 146, 5, pred);
}

G_GNUC_UNUSED static void imm(Bun *k, uint32_t v)
{
    setb(k, 151, 32, v);
}

G_GNUC_UNUSED static Bun hex(const char *s)
{
    Bun k = {{0}};
    for (unsigned i = 0; i < 32; i++) {
        while (*s == ' ')
            s++;
        k.b[i] = (uint8_t)g_ascii_strtoull(s, NULL, 16);
        s += 2;
    }
    return k;
}

/* Encode a LOOP bundle (§4.4). */
G_GNUC_UNUSED static Bun loopb(uint32_t start, uint32_t bound, uint32_t step, unsigned cmp,
                               unsigned end_off, bool start_imm, bool bound_imm, bool step_imm)
{
    Bun k = {{0}};
    setb(&k, 0, 6, 0x22);
    setb(&k, 6, 7, start_imm ? (start & 0x7F) : start);
    setb(&k, 13, 7, bound_imm ? (bound & 0x7F) : bound);
    setb(&k, 20, 6, step_imm ? (step & 0x3F) : step);
    setb(&k, 26, 1, start_imm);
    setb(&k, 27, 1, bound_imm);
    setb(&k, 28, 1, step_imm);
    setb(&k, 36, 32, bound);
    setb(&k, 68, 32, step);
    setb(&k, 100, 16, end_off);
    setb(&k, 116, 3, cmp);
    setb(&k, 151, 32, start);
    return k;
}

/* ---- machine ---- */

G_GNUC_UNUSED static Machine *mk(void)
{
    MachineConfig cfg = {.hbm_size = 64ull << 20,
                         .nr_seq = 1,
                         .nr_tpc = 2,
                         .tlb_entries = 16,
                         .quantum = 64,
                         .nr_dma = 1,
                         .dma_queue_depth = 4,
                         .dma_bytes_per_cycle = 64,
                         .dma_latency = 0};
    GError *err = NULL;
    Machine *m = machine_new(&cfg, NULL, 0, &err);
    g_assert_no_error(err);
    g_assert_nonnull(m);
    g_assert_nonnull(m->tpc[0]);
    return m;
}

G_GNUC_UNUSED static void wr32(Machine *m, uint64_t pa, uint32_t v)
{
    g_assert_cmpint(as_write(m->as, pa, 4, v, DBG), ==, MEMTX_OK);
}

G_GNUC_UNUSED static uint32_t rd32(Machine *m, uint64_t pa)
{
    uint64_t v = 0;
    g_assert_cmpint(as_read(m->as, pa, 4, &v, DBG), ==, MEMTX_OK);
    return (uint32_t)v;
}

G_GNUC_UNUSED static void put(Machine *m, uint64_t pa, const void *buf, uint64_t len)
{
    uint64_t bad;
    g_assert_cmpint(
        as_rw_bytes(m->as, pa, (void *)buf, len, true, MEMTXATTRS(MEM_REQ_LOADER, 0), &bad), ==,
        MEMTX_OK);
}

G_GNUC_UNUSED static void get(Machine *m, uint64_t pa, void *buf, uint64_t len)
{
    uint64_t bad;
    g_assert_cmpint(as_rw_bytes(m->as, pa, buf, len, false, DBG, &bad), ==, MEMTX_OK);
}

/* Kernel-view word through the machine window (tpc.md §2.1). */
G_GNUC_UNUSED static void kv(Machine *m, unsigned t, uint32_t off, uint32_t v)
{
    wr32(m, TPC_PA(t) + off, v);
}

G_GNUC_UNUSED static void srf(Machine *m, unsigned t, unsigned i, uint32_t v)
{
    kv(m, t, 0x7C0 + 4 * i, v);
}

/* Tensor descriptor t: E code, sizes/strides for dims 0..rank-1, valid mask. */
G_GNUC_UNUSED static void tensor(Machine *m, unsigned tpc, unsigned t, uint64_t base, uint32_t pad,
                                 unsigned ecode, unsigned mask, const uint32_t *size,
                                 const int32_t *stride)
{
    uint32_t o = 0x400 + 0x38 * t;
    kv(m, tpc, o + 0, (uint32_t)base);
    kv(m, tpc, o + 4, (uint32_t)(base >> 32));
    kv(m, tpc, o + 8, pad);
    kv(m, tpc, o + 0xC, ecode | mask << 8);
    for (unsigned d = 0; d < 5; d++) {
        kv(m, tpc, o + 0x10 + 8 * d, size ? size[d] : 0);
        kv(m, tpc, o + 0x14 + 8 * d, stride ? (uint32_t)stride[d] : 0);
    }
}

/* Place the kernel, launch TPC t through EXECUTE and run it to the end. */
G_GNUC_UNUSED static TpcCpu *run(Machine *m, unsigned t, const Bun *k, unsigned n)
{
    uint64_t base = KBASE + t * 0x10000;
    put(m, base, k, 32ull * n);
    kv(m, t, 0x788, (uint32_t)base);
    kv(m, t, 0x78C, (uint32_t)(base >> 32));
    wr32(m, TPC_PA(t) + 0x1008, 1);
    NxCpu *cpu = m->tpc[t];
    for (unsigned i = 0; i < 100000 && cpu->state == CPU_RUNNING; i++)
        cpu->ops->run(cpu, 64);
    g_assert_cmpint(cpu->state, !=, CPU_RUNNING);
    return tpc_cpu(cpu);
}

/* Run k[0..n-1] followed by HALT and three NOPs. */
G_GNUC_UNUSED static TpcCpu *run_h(Machine *m, unsigned t, const Bun *k, unsigned n)
{
    Bun *all = g_new(Bun, n + 4);
    memcpy(all, k, sizeof(Bun) * n);
    all[n] = halt();
    for (unsigned i = 1; i < 4; i++)
        all[n + i] = nop();
    TpcCpu *c = run(m, t, all, n + 4);
    g_free(all);
    return c;
}

/* n NOP bundles. */
G_GNUC_UNUSED static void nops(Bun *k, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        k[i] = nop();
}

G_GNUC_UNUSED static uint16_t vlane16(TpcCpu *c, unsigned v, unsigned i)
{
    uint16_t x;
    memcpy(&x, &c->v[v][2 * i], 2);
    return x;
}

G_GNUC_UNUSED static uint32_t status(Machine *m, unsigned t)
{
    return rd32(m, TPC_PA(t) + 0x100C);
}

G_GNUC_UNUSED static void assert_done(Machine *m, unsigned t)
{
    g_assert_cmphex(status(m, t), ==, 2);
}

G_GNUC_UNUSED static void assert_fault(Machine *m, unsigned t, uint32_t code, uint32_t pc,
                                       uint32_t info, uint64_t addr)
{
    g_assert_cmphex(status(m, t), ==, 3 | code << 8);
    g_assert_cmphex(rd32(m, TPC_PA(t) + 0x1020), ==, pc);
    g_assert_cmphex(rd32(m, TPC_PA(t) + 0x1024), ==, info);
    uint64_t fa = rd32(m, TPC_PA(t) + 0x1030) | (uint64_t)rd32(m, TPC_PA(t) + 0x1034) << 32;
    g_assert_cmphex(fa, ==, addr);
}

G_GNUC_UNUSED static float f32(uint32_t b)
{
    float f;
    memcpy(&f, &b, 4);
    return f;
}

G_GNUC_UNUSED static uint32_t vlane32(TpcCpu *c, unsigned v, unsigned i)
{
    uint32_t x;
    memcpy(&x, &c->v[v][4 * i], 4);
    return x;
}

#endif
