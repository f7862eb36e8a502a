/*
 * TPC decoded bundles after code changes (code generation tracking of the
 * direct loop, docs/architecture.rst "TPC bundles"): whatever rewrites the
 * kernel's bytes and however the kernel is laid out, the bundle that runs
 * is the one in memory at PC (tpc.md §6: a bundle is fetched from
 * KERNEL_BASE + PC).  Expected values follow from the kernels' text and
 * tpc.md (SET_INDX/ADD on IRF dims, BUNDLES counts every executed bundle,
 * §10 item 14), never from a previous run.
 */
#include <string.h>

#include <glib.h>

#include "nxemu/machine.h"
#include "target/tpc/asm.h"
#include "target/tpc/cpu.h"
#include "../tpc/tpc-testlib.h"

#define SRC 0x200000ull

static GByteArray *assemble(const char *text)
{
    TpcObject obj;
    tpc_object_init(&obj);
    g_assert_true(tpc_assemble_text("kernel", text, &obj, stderr));
    GByteArray *out = g_byte_array_new();
    g_byte_array_append(out, obj.text->data, obj.text->len);
    tpc_object_free(&obj);
    return out;
}

static void put(Machine *m, uint64_t pa, const GByteArray *bytes, MemRequester who)
{
    uint64_t bad;
    g_assert_cmpint(as_rw_bytes(m->as, pa, bytes->data, bytes->len, true, MEMTXATTRS(who, 0), &bad),
                    ==, MEMTX_OK);
}

/* KERNEL_BASE (written first: it resets KERNEL_SIZE) and KERNEL_SIZE of TPC t. */
static void set_kernel(Machine *m, unsigned t, uint64_t base, uint32_t size)
{
    uint64_t w = TPC0 + 0x10000ull * t;
    tt_wr32(m, w + 0x788, (uint32_t)base);
    tt_wr32(m, w + 0x78C, (uint32_t)(base >> 32));
    tt_wr32(m, w + 0x1028, size);
}

static void launch(Machine *m, unsigned t)
{
    tt_wr32(m, TPC0 + 0x10000ull * t + 0x1008, 1);
    g_assert_cmpint(m->tpc[t]->state, ==, CPU_RUNNING);
}

static void run_to_end(Machine *m, unsigned t, uint64_t slice)
{
    NxCpu *cpu = m->tpc[t];
    for (unsigned i = 0; i < 200000 && cpu->state == CPU_RUNNING; i++)
        cpu->ops->run(cpu, slice);
    if (cpu->state != CPU_HALTED)
        g_test_message("TPC %u: fault %u at pc 0x%" G_GINT64_MODIFIER
                       "x, addr 0x%" G_GINT64_MODIFIER "x",
                       t, cpu->fault.code, cpu->fault_pc, cpu->fault.addr);
    g_assert_cmpint(cpu->state, ==, CPU_HALTED);
}

static uint64_t bundles(Machine *m, unsigned t)
{
    uint64_t w = TPC0 + 0x10000ull * t;
    return tt_rd32(m, w + 0x1038) | (uint64_t)tt_rd32(m, w + 0x103C) << 32;
}

/* ---- a kernel longer than the decode cache ---- */

/* Bundles 0 and 256 (PC 0 and 0x2000) fall on one decode-cache entry
 * (TPC_DCACHE_SIZE bundles): both are direct SET_INDX bundles, with
 * different destinations.  Straight-line: 0: I3.d0 = 5; 255 NOPs;
 * 0x2000: I4.d0 = 9; HALT.  Fails when a decoded bundle validated at the
 * current code generation runs at another PC of the same cache entry. */
static void test_alias_long_kernel(void)
{
    for (unsigned pass = 0; pass < 2; pass++) {
        Machine *m = tt_machine();
        GString *src = g_string_new("nop; set_indx I3, b00001, 0x5; nop; nop\n");
        for (unsigned i = 0; i < 255; i++)
            g_string_append(src, "nop\n");
        g_string_append(src, "nop; set_indx I4, b00001, 0x9; nop; nop\n"
                             "halt\nnop\nnop\nnop\n");
        GByteArray *k = assemble(src->str);
        g_string_free(src, TRUE);
        g_assert_cmpuint(k->len, ==, 261 * 32);
        put(m, KBASE, k, MEM_REQ_LOADER);
        /* pass 0 with KERNEL_SIZE (pages marked as code), pass 1 without */
        set_kernel(m, 0, KBASE, pass == 0 ? k->len : 0);
        g_byte_array_unref(k);
        launch(m, 0);
        run_to_end(m, 0, 1000);
        TpcCpu *c = tpc_cpu(m->tpc[0]);
        g_assert_cmpint(c->irf[3][0], ==, 5);
        g_assert_cmpint(c->irf[4][0], ==, 9);
        g_assert_cmpuint(bundles(m, 0), ==, 258); /* 257 + the HALT bundle */
        machine_free(m);
    }
}

/* The same aliasing inside a LOOP whose body spans more than the decode
 * cache: every iteration runs both bundles (I3 += 1 at body start, I4 += 2
 * 256 bundles later); 3 iterations give I3.d0 = 3 and I4.d0 = 6. */
static void test_alias_long_loop(void)
{
    Machine *m = tt_machine();
    GString *src = g_string_new("loop 0x0, 0x3, 1, <, End\nnop\n"
                                "nop; add.i32 b00001 I3, 0x1, I3; nop; nop\n");
    for (unsigned i = 0; i < 255; i++)
        g_string_append(src, "nop\n");
    g_string_append(src, "nop; add.i32 b00001 I4, 0x2, I4; nop; nop\n"
                         "nop\nEnd:\nhalt\nnop\nnop\nnop\n");
    GByteArray *k = assemble(src->str);
    g_string_free(src, TRUE);
    put(m, KBASE, k, MEM_REQ_LOADER);
    set_kernel(m, 0, KBASE, k->len);
    g_byte_array_unref(k);
    launch(m, 0);
    run_to_end(m, 0, 4096);
    TpcCpu *c = tpc_cpu(m->tpc[0]);
    g_assert_cmpint(c->irf[3][0], ==, 3);
    g_assert_cmpint(c->irf[4][0], ==, 6);
    /* LOOP + delay slot, 3 x 258 body bundles, HALT */
    g_assert_cmpuint(bundles(m, 0), ==, 2 + 3 * 258 + 1);
    machine_free(m);
}

/* ---- relaunch at another KERNEL_BASE ---- */

/* Kernel A at KBASE and kernel B at KBASE + 64 KiB differ only in their
 * second bundle (I3.d0 = 5 / 9).  A runs, then B is launched with A's
 * bundles still decoded at the same offsets: B must give 9.  And back to
 * A: 5 again. */
static void test_relaunch_other_base(void)
{
    Machine *m = tt_machine();
    GByteArray *a = assemble("nop\nnop; set_indx I3, b00001, 0x5; nop; nop\nhalt\nnop\nnop\nnop\n");
    GByteArray *b = assemble("nop\nnop; set_indx I3, b00001, 0x9; nop; nop\nhalt\nnop\nnop\nnop\n");
    put(m, KBASE, a, MEM_REQ_LOADER);
    put(m, KBASE + 0x10000, b, MEM_REQ_LOADER);
    TpcCpu *c = tpc_cpu(m->tpc[0]);
    static const int32_t want[3] = {5, 9, 5};
    for (unsigned i = 0; i < 3; i++) {
        set_kernel(m, 0, KBASE + (i == 1 ? 0x10000 : 0), a->len);
        launch(m, 0);
        run_to_end(m, 0, 64);
        g_assert_cmpint(c->irf[3][0], ==, want[i]);
        g_assert_cmpuint(bundles(m, 0), ==, 3);
    }
    g_byte_array_unref(a);
    g_byte_array_unref(b);
    machine_free(m);
}

/* ---- the kernel rewriting itself ---- */

/* A LOOP of 2 iterations over 0x40..0x200.  Bundle 0x100 adds 1 to I3.d0;
 * at the end of the body, st_tnsr writes 256 bytes (bundles 0x100..0x1E0)
 * taken from SRC, where bundle 0x100 adds 0x10 instead.  Iteration 1 runs
 * the original (+1), iteration 2 the rewritten one (+0x10): I3.d0 = 0x11.
 * With KERNEL_SIZE (pages marked: the store leaves the direct path) and
 * without (the store writes through a host span: bytes compared). */
static const char self_kernel[] = "loop 0x0, 0x2, 1, <, End\n"
                                  "nop\n"
                                  "ld_tnsr V1, 0x0, I2; nop; nop; nop\n"        /* 0x40 */
                                  "nop\nnop\nnop\nnop\nnop\n"                   /* 0x60..0xE0 */
                                  "nop; add.i32 b00001 I3, 0x1, I3; nop; nop\n" /* 0x100 */
                                  "nop\nnop\nnop\nnop\nnop\nnop\nnop\n"         /* 0x120..0x1E0 */
                                  "nop; nop; nop; st_tnsr 0x1, I2, V1\n"        /* 0x200 */
                                  "End:\n"
                                  "halt\nnop\nnop\nnop\n";

static void tensor1d(Machine *m, unsigned t, uint64_t base, uint32_t n)
{
    uint64_t o = TPC0 + 0x400 + 0x38 * t;
    tt_wr32(m, o, (uint32_t)base);
    tt_wr32(m, o + 4, (uint32_t)(base >> 32));
    tt_wr32(m, o + 8, 0);
    tt_wr32(m, o + 0xC, 2 | 1u << 8);
    tt_wr32(m, o + 0x10, n);
    tt_wr32(m, o + 0x14, 1);
}

static void test_self_modifying(void)
{
    for (unsigned pass = 0; pass < 2; pass++) {
        Machine *m = tt_machine();
        GByteArray *k = assemble(self_kernel);
        g_assert_cmpuint(k->len, ==, 0x2A0);
        put(m, KBASE, k, MEM_REQ_LOADER);
        GByteArray *patch = assemble("nop; add.i32 b00001 I3, 0x10, I3; nop; nop\n");
        GByteArray *img = g_byte_array_new();
        g_byte_array_append(img, k->data + 0x100, 0x100);
        memcpy(img->data, patch->data, 32);
        put(m, SRC, img, MEM_REQ_LOADER);
        tensor1d(m, 0, SRC, 64);
        tensor1d(m, 1, KBASE + 0x100, 64);
        set_kernel(m, 0, KBASE, pass == 0 ? k->len : 0);
        launch(m, 0);
        run_to_end(m, 0, 4096);
        TpcCpu *c = tpc_cpu(m->tpc[0]);
        g_assert_cmphex(tt_rd32(m, TPC0 + 0x100C), ==, 2); /* DONE */
        g_assert_cmpint(c->irf[3][0], ==, 0x11);
        g_assert_cmpuint(bundles(m, 0), ==, 2 + 2 * 15 + 1);
        /* memory holds the rewritten kernel */
        uint8_t now[32];
        uint64_t bad;
        g_assert_cmpint(as_rw_bytes(m->as, KBASE + 0x100, now, 32, false, DBG, &bad), ==, MEMTX_OK);
        g_assert_cmpmem(now, 32, patch->data, 32);
        g_byte_array_unref(img);
        g_byte_array_unref(patch);
        g_byte_array_unref(k);
        machine_free(m);
    }
}

/* ---- two TPCs running one kernel ---- */

static Machine *two_tpc_machine(void)
{
    MachineConfig cfg = {.hbm_size = 64ull << 20,
                         .nr_seq = 1,
                         .nr_tpc = 2,
                         .tlb_entries = 16,
                         .quantum = 64,
                         .nr_dma = 1,
                         .dma_queue_depth = 4,
                         .dma_bytes_per_cycle = 64};
    GError *err = NULL;
    Machine *m = machine_new(&cfg, NULL, 0, &err);
    g_assert_no_error(err);
    return m;
}

/* Both TPCs run one long LOOP at one KERNEL_BASE whose body is 0x40
 * (I3.d0 = 5) and 0x60 (NOP).  The bundle at 0x40 is rewritten (I3.d0 = 9)
 * by a DMA write while both run; then once more (I3.d0 = 7): the second
 * write must be heard too (the pages marked again).  Slices of 2 bundles
 * from PC 0x60: the NOP runs in the general step (a slice starts with no
 * fetch window), the bundle at 0x40 as a direct one. */
static void test_two_tpcs_one_kernel(void)
{
    Machine *m = two_tpc_machine();
    GByteArray *k = assemble("loop 0x0, 0x100000, 1, <, End\n"
                             "nop\n"
                             "nop; set_indx I3, b00001, 0x5; nop; nop\n"
                             "nop\n"
                             "End:\n"
                             "halt\nnop\nnop\nnop\n");
    put(m, KBASE, k, MEM_REQ_LOADER);
    for (unsigned t = 0; t < 2; t++) {
        set_kernel(m, t, KBASE, k->len);
        launch(m, t);
    }
    g_byte_array_unref(k);
    static const unsigned imm[3] = {5, 9, 7};
    for (unsigned round = 0; round < 3; round++) {
        if (round) {
            char text[64];
            g_snprintf(text, sizeof(text), "nop; set_indx I3, b00001, 0x%x; nop; nop\n",
                       imm[round]);
            GByteArray *p = assemble(text);
            put(m, KBASE + 0x40, p, MEM_REQ_DMA);
            g_byte_array_unref(p);
        }
        for (unsigned t = 0; t < 2; t++) {
            NxCpu *cpu = m->tpc[t];
            for (unsigned i = 0; i < 4 && tpc_cpu(cpu)->pc != 0x60; i++)
                cpu->ops->run(cpu, 1);
            g_assert_cmphex(tpc_cpu(cpu)->pc, ==, 0x60);
        }
        for (unsigned i = 0; i < 4; i++)
            for (unsigned t = 0; t < 2; t++)
                m->tpc[t]->ops->run(m->tpc[t], 2);
        for (unsigned t = 0; t < 2; t++) {
            g_assert_cmpint(m->tpc[t]->state, ==, CPU_RUNNING);
            g_assert_cmphex(tpc_cpu(m->tpc[t])->pc, ==, 0x60);
            g_assert_cmpint(tpc_cpu(m->tpc[t])->irf[3][0], ==, (int)imm[round]);
        }
    }
    machine_free(m);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/tpc-codegen/alias-long-kernel", test_alias_long_kernel);
    g_test_add_func("/tpc-codegen/alias-long-loop", test_alias_long_loop);
    g_test_add_func("/tpc-codegen/relaunch-other-base", test_relaunch_other_base);
    g_test_add_func("/tpc-codegen/self-modifying", test_self_modifying);
    g_test_add_func("/tpc-codegen/two-tpcs-one-kernel", test_two_tpcs_one_kernel);
    return g_test_run();
}
