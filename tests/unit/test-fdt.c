/*
 * Machine configuration from the device tree (machine.md §10) and the board
 * built from it (§1): defaults, -machine edits, every validation rule with
 * its one-line message, -dump-dtb round trip, the PA map and the in-memory
 * DTB.  Expected values come from the spec's tables.
 */
#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <libfdt.h>

#include "hw/nc2/board.h"
#include "hw/nc2/fdt.h"
#include "nxemu/error.h"

static void *default_tree(size_t *size)
{
    void *fdt;
    GError *err = NULL;
    g_assert_true(nc2_fdt_load(NULL, &fdt, size, &err));
    g_assert_no_error(err);
    return fdt;
}

static void test_defaults(void)
{
    size_t size;
    void *fdt = default_tree(&size);
    MachineConfig cfg;
    GError *err = NULL;
    g_assert_true(nc2_fdt_extract(fdt, &cfg, &err));
    g_assert_no_error(err);
    /* §10: 1 sequencer, 1 TPC, 1 GiB HBM, TLB 16, Q 64, 16 engines of depth
     * 64, 64 bytes/cycle, latency 32, dtb-in-memory. */
    g_assert_cmpuint(cfg.hbm_size, ==, 1ull << 30);
    g_assert_cmpuint(cfg.nr_seq, ==, 1);
    g_assert_cmpuint(cfg.nr_tpc, ==, 1);
    g_assert_cmpuint(cfg.tlb_entries, ==, 16);
    g_assert_cmpuint(cfg.quantum, ==, 64);
    g_assert_cmpuint(cfg.nr_dma, ==, 16);
    g_assert_cmpuint(cfg.dma_queue_depth, ==, 64);
    g_assert_cmpuint(cfg.dma_bytes_per_cycle, ==, 64);
    g_assert_cmpuint(cfg.dma_latency, ==, 32);
    /* docs/timing.rst "Memory": a TPC's port, 0 cycles of latency, 64 B/cycle */
    g_assert_cmpuint(cfg.tpc_gmem_latency, ==, 0);
    g_assert_cmpuint(cfg.tpc_gmem_bytes_per_cycle, ==, 64);
    /* docs/timing.rst "Memory bandwidth": 820 GB/s for two NeuronCore-v2 */
    g_assert_cmpuint(cfg.hbm_bytes_per_cycle, ==, 410);
    g_assert_cmpuint(cfg.tpc_sram_latency, ==, 0);
    g_assert_true(cfg.dtb_in_memory);
    g_free(fdt);
}

static bool build(const Nc2Edits *ed, MachineConfig *cfg, void **fdt, GError **err)
{
    size_t size;
    return nc2_fdt_build_config(NULL, ed, fdt, &size, cfg, err);
}

static uint32_t prop_u32(const void *fdt, const char *path, const char *prop)
{
    int node = fdt_path_offset(fdt, path);
    int len;
    g_assert_cmpint(node, >=, 0);
    const fdt32_t *v = fdt_getprop(fdt, node, prop, &len);
    g_assert_nonnull(v);
    g_assert_cmpint(len, ==, 4);
    return fdt32_to_cpu(*v);
}

static void test_edits(void)
{
    Nc2Edits ed = {.has_seq = true,
                   .seq = 4,
                   .has_tpc = true,
                   .tpc = 3,
                   .has_hbm = true,
                   .hbm = 2ull << 30,
                   .has_tlb = true,
                   .tlb = 8,
                   .has_quantum = true,
                   .quantum = 128,
                   .has_dma = true,
                   .dma = 4,
                   .has_gmem_lat = true,
                   .gmem_lat = 7,
                   .has_gmem_bpc = true,
                   .gmem_bpc = 32,
                   .has_hbm_bpc = true,
                   .hbm_bpc = 100,
                   .has_dma_bpc = true,
                   .dma_bpc = 16};
    MachineConfig cfg;
    void *fdt;
    GError *err = NULL;
    int len, node, i;
    g_assert_true(build(&ed, &cfg, &fdt, &err));
    g_assert_no_error(err);
    g_assert_cmpuint(cfg.nr_seq, ==, 4);
    g_assert_cmpuint(cfg.nr_tpc, ==, 3);
    g_assert_cmpuint(cfg.hbm_size, ==, 2ull << 30);
    g_assert_cmpuint(cfg.tlb_entries, ==, 8);
    g_assert_cmpuint(cfg.quantum, ==, 128);
    g_assert_cmpuint(cfg.nr_dma, ==, 4);
    /* -machine gmem-latency=7,gmem-bpc=32: properties of /tpcs */
    g_assert_cmpuint(cfg.tpc_gmem_latency, ==, 7);
    g_assert_cmpuint(cfg.tpc_gmem_bytes_per_cycle, ==, 32);
    g_assert_cmpuint(prop_u32(fdt, "/tpcs", "nxemu,gmem-bytes-per-cycle"), ==, 32);
    /* hbm-bpc=100,dma-bpc=16: memory@0's and the DMA node's */
    g_assert_cmpuint(cfg.hbm_bytes_per_cycle, ==, 100);
    g_assert_cmpuint(prop_u32(fdt, "/memory@0", "nxemu,bytes-per-cycle"), ==, 100);
    g_assert_cmpuint(cfg.dma_bytes_per_cycle, ==, 16);

    /* Copies of the id-0 node, reindexed, unit addresses adjusted, in order. */
    i = 0;
    fdt_for_each_subnode(node, fdt, fdt_path_offset(fdt, "/sequencers"))
    {
        char want[32];
        g_snprintf(want, sizeof(want), "sequencer@%x", i);
        g_assert_cmpstr(fdt_get_name(fdt, node, NULL), ==, want);
        g_assert_cmpuint(prop_u32(fdt, "/sequencers", "#size-cells"), ==, 0);
        i++;
    }
    g_assert_cmpint(i, ==, 4);
    g_assert_cmpuint(prop_u32(fdt, "/sequencers/sequencer@3", "reg"), ==, 3);
    g_assert_cmpuint(prop_u32(fdt, "/sequencers/sequencer@3", "nxemu,tlb-entries"), ==, 8);
    g_assert_cmpuint(prop_u32(fdt, "/tpcs/tpc@2804020000", "nxemu,index"), ==, 2);
    node = fdt_path_offset(fdt, "/tpcs/tpc@2804010000");
    const fdt32_t *reg = fdt_getprop(fdt, node, "reg", &len);
    g_assert_cmpint(len, ==, 16);
    /* TPC 1 window: 0x28_0401_0000, 64 KiB (§1). */
    g_assert_cmpuint(fdt32_to_cpu(reg[0]), ==, 0x28);
    g_assert_cmpuint(fdt32_to_cpu(reg[1]), ==, 0x04010000);
    g_assert_cmpuint(fdt32_to_cpu(reg[2]), ==, 0);
    g_assert_cmpuint(fdt32_to_cpu(reg[3]), ==, 0x10000);
    /* memory@0 reg carries the new size. */
    reg = fdt_getprop(fdt, fdt_path_offset(fdt, "/memory@0"), "reg", &len);
    g_assert_cmpint(len, ==, 16);
    g_assert_cmpuint(fdt32_to_cpu(reg[2]), ==, 0);
    g_assert_cmpuint(fdt32_to_cpu(reg[3]), ==, 0x80000000u);
    g_assert_cmpuint(prop_u32(fdt, "/chosen", "nxemu,quantum"), ==, 128);
    g_assert_cmpuint(prop_u32(fdt, "/dma@2803800000", "nxemu,engines"), ==, 4);
    g_free(fdt);
}

static void test_tpc_zero_and_limits(void)
{
    Nc2Edits ed = {
        .has_tpc = true, .tpc = 0, .has_seq = true, .seq = 64, .has_hbm = true, .hbm = 64ull << 30};
    MachineConfig cfg;
    void *fdt;
    GError *err = NULL;
    int node, n = 0;
    g_assert_true(build(&ed, &cfg, &fdt, &err));
    g_assert_no_error(err);
    g_assert_cmpuint(cfg.nr_tpc, ==, 0);
    g_assert_cmpuint(cfg.nr_seq, ==, 64);
    g_assert_cmpuint(cfg.hbm_size, ==, 64ull << 30);
    fdt_for_each_subnode(node, fdt, fdt_path_offset(fdt, "/tpcs"))
    {
        n++;
    }
    g_assert_cmpint(n, ==, 0);
    g_free(fdt);
}

typedef struct BadEdit {
    Nc2Edits ed;
    const char *msg;
} BadEdit;

static void test_bad_edits(void)
{
    static const BadEdit bad[] = {
        {{.has_seq = true, .seq = 0}, "-machine seq=0: must be 1..64"},
        {{.has_seq = true, .seq = 65}, "-machine seq=65: must be 1..64"},
        {{.has_tpc = true, .tpc = 65}, "-machine tpc=65: must be 0..64"},
        {{.has_tlb = true, .tlb = 0}, "-machine tlb=0: must be 1..1024"},
        {{.has_tlb = true, .tlb = 1025}, "-machine tlb=1025: must be 1..1024"},
        {{.has_quantum = true, .quantum = 0}, "-machine quantum=0: must be 1..65536"},
        {{.has_quantum = true, .quantum = 65537}, "-machine quantum=65537: must be 1..65536"},
        {{.has_dma = true, .dma = 0}, "-machine dma=0: must be 1..16"},
        {{.has_dma = true, .dma = 17}, "-machine dma=17: must be 1..16"},
        {{.has_gmem_bpc = true, .gmem_bpc = 0}, "-machine gmem-bpc=0: must be 1..1048576"},
        {{.has_hbm_bpc = true, .hbm_bpc = 0}, "-machine hbm-bpc=0: must be 1..1048576"},
        {{.has_dma_bpc = true, .dma_bpc = (1u << 20) + 1},
         "-machine dma-bpc=1048577: must be 1..1048576"},
        {{.has_gmem_lat = true, .gmem_lat = (1u << 20) + 1},
         "-machine gmem-latency=1048577: must be 0..1048576"},
        /* HBM: a multiple of 16 MiB in 32 MiB..64 GiB */
        {{.has_hbm = true, .hbm = 40ull << 20},
         "-machine hbm: 0x2800000: HBM size must be a multiple of 16 MiB in 32 MiB..64 GiB"},
        {{.has_hbm = true, .hbm = 16ull << 20, .hbm_src = "-m"},
         "-m: 0x1000000: HBM size must be a multiple of 16 MiB in 32 MiB..64 GiB"},
        {{.has_hbm = true, .hbm = (64ull << 30) + (16ull << 20)},
         "-machine hbm: 0x1001000000: HBM size must be a multiple of 16 MiB in 32 MiB..64 GiB"},
    };
    for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
        MachineConfig cfg;
        void *fdt;
        GError *err = NULL;
        g_assert_false(build(&bad[i].ed, &cfg, &fdt, &err));
        g_assert_nonnull(err);
        g_assert_cmpstr(err->message, ==, bad[i].msg);
        g_assert_null(fdt);
        g_error_free(err);
    }
    /* Boundaries that are fine: 32 MiB, 48 MiB, 1 and 64 sequencers. */
    static const Nc2Edits good[] = {
        {.has_hbm = true, .hbm = 32ull << 20},
        {.has_hbm = true, .hbm = 48ull << 20},
        {.has_seq = true, .seq = 1},
        {.has_tlb = true, .tlb = 1024, .has_quantum = true, .quantum = 65536},
    };
    for (size_t i = 0; i < G_N_ELEMENTS(good); i++) {
        MachineConfig cfg;
        void *fdt;
        GError *err = NULL;
        g_assert_true(build(&good[i], &cfg, &fdt, &err));
        g_assert_no_error(err);
        g_free(fdt);
    }
}

/* Mutations of the default tree and the exact message each must give. */
typedef void (*Mutate)(void *fdt);

static void set_u32(void *fdt, const char *path, const char *prop, uint32_t v)
{
    g_assert_cmpint(fdt_setprop_u32(fdt, fdt_path_offset(fdt, path), prop, v), ==, 0);
}

static void m_qdepth0(void *f)
{
    set_u32(f, "/dma@2803800000", "nxemu,queue-depth", 0);
}
static void m_qdepth256(void *f)
{
    set_u32(f, "/dma@2803800000", "nxemu,queue-depth", 256);
}
static void m_bpc0(void *f)
{
    set_u32(f, "/dma@2803800000", "nxemu,bytes-per-cycle", 0);
}
static void m_latency(void *f)
{
    set_u32(f, "/dma@2803800000", "nxemu,latency-cycles", (1u << 20) + 1);
}
static void m_sram_latency(void *f)
{
    set_u32(f, "/tpcs", "nxemu,sram-latency-cycles", (1u << 20) + 1);
}
static void m_hbm_bpc0(void *f)
{
    set_u32(f, "/memory@0", "nxemu,bytes-per-cycle", 0);
}
static void m_hbm_bpc_big(void *f)
{
    set_u32(f, "/memory@0", "nxemu,bytes-per-cycle", (1u << 20) + 1);
}
static void m_gmem_bpc0(void *f)
{
    set_u32(f, "/tpcs", "nxemu,gmem-bytes-per-cycle", 0);
}
static void m_gmem_latency(void *f)
{
    set_u32(f, "/tpcs", "nxemu,gmem-latency-cycles", (1u << 20) + 1);
}
static void m_gmem_ok(void *f)
{
    set_u32(f, "/tpcs", "nxemu,gmem-latency-cycles", 1u << 20);
    set_u32(f, "/tpcs", "nxemu,gmem-bytes-per-cycle", 1);
}
static void m_no_mem_reg(void *f)
{
    fdt_delprop(f, fdt_path_offset(f, "/memory@0"), "reg");
}
static void m_mem_size(void *f)
{
    fdt32_t reg[4] = {0, 0, 0, cpu_to_fdt32(0x3000001)};
    fdt_setprop(f, fdt_path_offset(f, "/memory@0"), "reg", reg, sizeof(reg));
}
static void m_sbuf_parts(void *f)
{
    set_u32(f, "/sbuf@2000000000", "nxemu,partitions", 64);
}
static void m_psum_banks(void *f)
{
    fdt_delprop(f, fdt_path_offset(f, "/psum@2802000000"), "nxemu,banks");
}
static void m_evsem_sems(void *f)
{
    set_u32(f, "/evsem@2802700000", "nxemu,semaphores", 128);
}
static void m_test_reg(void *f)
{
    fdt32_t reg[4] = {cpu_to_fdt32(0x28), cpu_to_fdt32(0x05001000), 0, cpu_to_fdt32(0x1000)};
    fdt_setprop(f, fdt_path_offset(f, "/test@2805000000"), "reg", reg, sizeof(reg));
}
static void m_dup_seq(void *f)
{
    int n = fdt_add_subnode(f, fdt_path_offset(f, "/sequencers"), "sequencer@1");
    fdt_setprop_string(f, n, "compatible", "nxemu,sequencer-nc2");
    fdt_setprop_u32(f, n, "reg", 0);
}
static void m_seq_gap(void *f)
{
    set_u32(f, "/sequencers/sequencer@0", "reg", 1);
}
static void m_tpc_reg(void *f)
{
    set_u32(f, "/tpcs/tpc@2804000000", "nxemu,index", 0);
    fdt32_t reg[4] = {cpu_to_fdt32(0x28), cpu_to_fdt32(0x04010000), 0, cpu_to_fdt32(0x10000)};
    fdt_setprop(f, fdt_path_offset(f, "/tpcs/tpc@2804000000"), "reg", reg, sizeof(reg));
}
static void m_no_sbuf(void *f)
{
    fdt_del_node(f, fdt_path_offset(f, "/sbuf@2000000000"));
}
static void m_tlb_bad(void *f)
{
    set_u32(f, "/sequencers/sequencer@0", "nxemu,tlb-entries", 0);
}
static void m_quantum_bad(void *f)
{
    fdt_setprop_string(f, fdt_path_offset(f, "/chosen"), "nxemu,quantum", "x");
}
static void m_compat(void *f)
{
    fdt_setprop_string(f, 0, "compatible", "other,machine");
}
static void m_unknown_node(void *f)
{
    /* Unknown nodes are ignored: not an error. */
    int n = fdt_add_subnode(f, 0, "whatever@1234");
    fdt_setprop_u32(f, n, "reg", 5);
}

typedef struct TreeCase {
    Mutate fn;
    const char *msg; /* NULL = must be accepted */
} TreeCase;

static void test_tree_rules(void)
{
    static const TreeCase cases[] = {
        {m_qdepth0, "dtb: /dma@2803800000: nxemu,queue-depth = 0: must be 1..255"},
        {m_qdepth256, "dtb: /dma@2803800000: nxemu,queue-depth = 256: must be 1..255"},
        {m_bpc0, "dtb: /dma@2803800000: nxemu,bytes-per-cycle = 0: must be 1..1048576"},
        {m_latency, "dtb: /dma@2803800000: nxemu,latency-cycles = 1048577: must be 0..1048576"},
        {m_gmem_bpc0, "dtb: /tpcs: nxemu,gmem-bytes-per-cycle = 0: must be 1..1048576"},
        {m_gmem_latency, "dtb: /tpcs: nxemu,gmem-latency-cycles = 1048577: must be 0..1048576"},
        {m_gmem_ok, NULL},
        {m_sram_latency, "dtb: /tpcs: nxemu,sram-latency-cycles = 1048577: must be 0..1048576"},
        {m_hbm_bpc0, "dtb: /memory@0: nxemu,bytes-per-cycle = 0: must be 1..1048576"},
        {m_hbm_bpc_big, "dtb: /memory@0: nxemu,bytes-per-cycle = 1048577: must be 1..1048576"},
        {m_no_mem_reg, "dtb: /memory@0: reg: missing"},
        {m_mem_size,
         "dtb: /memory@0: reg size 0x3000001: must be a multiple of 16 MiB in 32 MiB..64 GiB"},
        {m_sbuf_parts,
         "dtb: /sbuf@2000000000: nxemu,partitions = 64: must be 128 (fixed in this version)"},
        {m_psum_banks, "dtb: /psum@2802000000: nxemu,banks: missing"},
        {m_evsem_sems,
         "dtb: /evsem@2802700000: nxemu,semaphores = 128: must be 256 (fixed in this version)"},
        {m_test_reg, "dtb: /test@2805000000: reg = <0x2805001000 0x1000>: must be "
                     "<0x2805000000 0x1000>"},
        {m_dup_seq, "dtb: /sequencers/sequencer@0: reg = 0: duplicate core id"},
        {m_seq_gap, "dtb: /sequencers/sequencer@0: reg = 1: core ids must be 0..0 (one per node)"},
        {m_tpc_reg, "dtb: /tpcs/tpc@2804000000: reg = <0x2804010000 0x10000>: must be "
                    "<0x2804000000 0x10000>"},
        {m_no_sbuf, "dtb: /: missing node 'sbuf@2000000000'"},
        {m_tlb_bad, "dtb: /sequencers/sequencer@0: nxemu,tlb-entries = 0: must be 1..1024"},
        {m_quantum_bad,
         "dtb: /chosen: nxemu,quantum: malformed (expected one 32-bit cell, got 2 bytes)"},
        {m_compat, "dtb: /: compatible: must contain \"nxemu,nc2-machine\""},
        {m_unknown_node, NULL},
    };
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        size_t size;
        void *base = default_tree(&size);
        size_t bufsize = size + 4096;
        void *fdt = g_malloc0(bufsize);
        MachineConfig cfg;
        GError *err = NULL;
        g_assert_cmpint(fdt_open_into(base, fdt, (int)bufsize), ==, 0);
        cases[i].fn(fdt);
        bool ok = nc2_fdt_extract(fdt, &cfg, &err);
        if (cases[i].msg) {
            g_assert_false(ok);
            g_assert_nonnull(err);
            g_assert_cmpstr(err->message, ==, cases[i].msg);
            g_assert_true(g_error_matches(err, NX_ERROR, NX_ERROR_CONFIG));
            g_error_free(err);
        } else {
            g_assert_true(ok);
            g_assert_no_error(err);
        }
        g_free(fdt);
        g_free(base);
    }
}

static void test_bad_blobs(void)
{
    size_t size;
    void *fdt = default_tree(&size);
    uint8_t garbage[256];
    GError *err = NULL;
    for (size_t i = 0; i < sizeof(garbage); i++) {
        garbage[i] = (uint8_t)(i * 37 + 11);
    }
    g_assert_false(nc2_fdt_check(garbage, sizeof(garbage), "junk.bin", &err));
    g_assert_true(g_str_has_prefix(err->message, "dtb: junk.bin: bad magic 0x"));
    g_clear_error(&err);
    g_assert_false(nc2_fdt_check(garbage, 10, "tiny.bin", &err));
    g_assert_cmpstr(err->message, ==, "dtb: tiny.bin: 10 bytes: too short for a device tree blob");
    g_clear_error(&err);
    /* A truncated copy of a good blob. */
    g_assert_false(nc2_fdt_check(fdt, size - 8, "cut.dtb", &err));
    g_assert_true(strstr(err->message, "cut.dtb") != NULL);
    g_clear_error(&err);
    /* A corrupted structure block must be caught before anyone walks it. */
    uint8_t *bad = g_memdup2(fdt, size);
    uint32_t off = fdt_off_dt_struct(fdt);
    memset(bad + off + 8, 0xFF, 16);
    g_assert_false(nc2_fdt_check(bad, size, "bad.dtb", &err));
    g_assert_true(g_str_has_prefix(err->message, "dtb: bad.dtb: malformed device tree"));
    g_clear_error(&err);
    void *none = NULL;
    size_t nsize = 0;
    g_assert_false(nc2_fdt_load("/nonexistent/x.dtb", &none, &nsize, &err));
    g_assert_true(g_str_has_prefix(err->message, "dtb: "));
    g_assert_true(strstr(err->message, "/nonexistent/x.dtb") != NULL);
    g_clear_error(&err);
    g_free(bad);
    g_free(fdt);
}

/* Found by tests/fuzz/fuzz-dtb: Debian's libfdt 1.6.1 dereferences NULL in
 * fdt_check_full() on old tree versions and loops forever on some
 * structure blocks; nc2_fdt_check refuses both before calling it. */
static void test_libfdt_traps(void)
{
    size_t size;
    uint8_t *fdt = default_tree(&size);
    GError *err = NULL;
    uint8_t *old = g_memdup2(fdt, size);
    fdt_set_version(old, 5);
    fdt_set_last_comp_version(old, 1);
    g_assert_false(nc2_fdt_check(old, size, "v5.dtb", &err));
    g_assert_cmpstr(err->message, ==, "dtb: v5.dtb: device tree version 5: nxemu reads version 17");
    g_clear_error(&err);
    g_free(old);
    static const char *const inputs[] = {"version-5-null-deref", "check-full-loop-1",
                                         "check-full-loop-2"};
    for (unsigned i = 0; i < G_N_ELEMENTS(inputs); i++) {
        /* fuzz-dtb inputs: a mode byte, then the blob */
        g_autofree char *path =
            g_test_build_filename(G_TEST_DIST, "..", "fuzz", "regress", "dtb", inputs[i], NULL);
        g_autofree gchar *data = NULL;
        gsize len = 0;
        g_assert_true(g_file_get_contents(path, &data, &len, NULL));
        g_autofree void *blob = g_memdup2(data + 1, len - 1); /* aligned, as loaded */
        g_assert_false(nc2_fdt_check(blob, len - 1, inputs[i], &err));
        g_assert_true(strstr(err->message, "version") || strstr(err->message, "structure block"));
        g_clear_error(&err);
    }
    g_free(fdt);
}

static void test_dump_round_trip(void)
{
    Nc2Edits ed = {.has_seq = true, .seq = 2, .has_quantum = true, .quantum = 32};
    MachineConfig cfg, cfg2;
    void *fdt, *back;
    size_t size, size2;
    GError *err = NULL;
    g_autofree char *dir = g_dir_make_tmp("nxemu-fdt-XXXXXX", &err);
    g_assert_no_error(err);
    g_autofree char *path = g_build_filename(dir, "out.dtb", NULL);
    g_assert_true(nc2_fdt_build_config(NULL, &ed, &fdt, &size, &cfg, &err));
    g_assert_true(nc2_fdt_write(fdt, path, &err));
    g_assert_no_error(err);
    g_assert_true(nc2_fdt_build_config(path, NULL, &back, &size2, &cfg2, &err));
    g_assert_no_error(err);
    g_assert_cmpuint(size2, ==, size);
    g_assert_cmpmem(fdt, size, back, size2);
    g_assert_cmpuint(cfg2.nr_seq, ==, 2);
    g_assert_cmpuint(cfg2.quantum, ==, 32);
    g_remove(path);
    g_rmdir(dir);
    g_free(fdt);
    g_free(back);
}

/* ---- the board ---- */

static Machine *board(const Nc2Edits *ed)
{
    void *fdt;
    size_t size;
    MachineConfig cfg;
    GError *err = NULL;
    g_assert_true(nc2_fdt_build_config(NULL, ed, &fdt, &size, &cfg, &err));
    Machine *m = machine_new(&cfg, fdt, size, &err);
    g_assert_no_error(err);
    g_assert_nonnull(m);
    g_free(fdt);
    return m;
}

static MemTxResult rd(Machine *m, uint64_t pa, unsigned size, uint64_t *v)
{
    return as_read(m->as, pa, size, v, MEMTXATTRS(MEM_REQ_DEBUG, 0));
}

static void test_board_map(void)
{
    Nc2Edits ed = {.has_seq = true,
                   .seq = 2,
                   .has_tpc = true,
                   .tpc = 1,
                   .has_dma = true,
                   .dma = 4,
                   .has_hbm = true,
                   .hbm = 64ull << 20};
    Machine *m = board(&ed);
    uint64_t v;
    /* HBM: 64 MiB from 0; the byte after it is unmapped. */
    g_assert_cmpint(rd(m, 0x1000000, 8, &v), ==, MEMTX_OK);
    g_assert_cmpuint(v, ==, 0);
    g_assert_cmpint(rd(m, (64ull << 20) - 8, 8, &v), ==, MEMTX_OK);
    g_assert_cmpint(rd(m, 64ull << 20, 1, &v), ==, MEMTX_UNMAPPED);
    /* SBUF partition 5 populated [0, 0x30000), hole up to the 0x40000 pitch. */
    g_assert_cmpint(rd(m, 0x2000000000ull + 5 * 0x40000 + 0x2FFF8, 8, &v), ==, MEMTX_OK);
    g_assert_cmpint(rd(m, 0x2000000000ull + 5 * 0x40000 + 0x30000, 1, &v), ==, MEMTX_UNMAPPED);
    g_assert_cmpint(rd(m, 0x2000000000ull + 127 * 0x40000, 4, &v), ==, MEMTX_OK);
    g_assert_cmpint(rd(m, 0x2000000000ull + (32ull << 20), 1, &v), ==, MEMTX_UNMAPPED);
    /* PSUM: partition 33 = quadrant 1, partition 1: 0x100000 + 0x8000. */
    g_assert_cmpint(rd(m, 0x2802000000ull + 0x108000 + 0x3FF8, 8, &v), ==, MEMTX_OK);
    g_assert_cmpint(rd(m, 0x2802000000ull + 0x108000 + 0x4000, 1, &v), ==, MEMTX_UNMAPPED);
    /* NX aliases only for existing cores: CORE_ID of core 1, nothing for 2. */
    g_assert_cmpint(rd(m, 0x2803000000ull + 0x1000 + 0x158, 4, &v), ==, MEMTX_OK);
    g_assert_cmpuint(v, ==, 1);
    g_assert_cmpint(rd(m, 0x2803000000ull + 0x1000 + 0x15C, 4, &v), ==, MEMTX_OK);
    g_assert_cmpuint(v, ==, 2);
    g_assert_cmpint(rd(m, 0x2803000000ull + 0x2000 + 0x158, 4, &v), ==, MEMTX_UNMAPPED);
    /* DMA engines 0..3: QUEUE_DEPTH 64; engine 4 unmapped. */
    g_assert_cmpint(rd(m, 0x2803800000ull + 3 * 0x1000 + 0x28, 4, &v), ==, MEMTX_OK);
    g_assert_cmpuint(v, ==, 64);
    g_assert_cmpint(rd(m, 0x2803800000ull + 4 * 0x1000 + 0x28, 4, &v), ==, MEMTX_UNMAPPED);
    /* TPC 0 window: LAUNCHER reads 0xFFFFFFFF before any launch; TPC 1 absent. */
    g_assert_cmpint(rd(m, 0x2804000000ull + 0x1010, 4, &v), ==, MEMTX_OK);
    g_assert_cmpuint(v, ==, 0xFFFFFFFFu);
    g_assert_cmpint(rd(m, 0x2804010000ull + 0x1010, 4, &v), ==, MEMTX_UNMAPPED);
    /* EVSEM and TEST exist; between regions nothing. */
    g_assert_cmpint(rd(m, 0x2802700000ull + 0x1000, 4, &v), ==, MEMTX_OK);
    g_assert_cmpint(rd(m, 0x2805000000ull, 4, &v), ==, MEMTX_OK);
    g_assert_cmpint(rd(m, 0x2806000000ull, 4, &v), ==, MEMTX_UNMAPPED);
    g_assert_cmpint(rd(m, 0x1000000000ull, 4, &v), ==, MEMTX_UNMAPPED);
    machine_free(m);
}

static void test_board_dtb_in_memory(void)
{
    Machine *m = board(NULL);
    uint64_t v, addr = (1ull << 30) - (1u << 20);
    uint8_t *copy = g_malloc(m->fdt_size);
    /* Effective tree at HBM_end - 1 MiB; DTB_ADDR of every core points there. */
    g_assert_cmpuint(m->board->nx[0].dtb_addr, ==, addr);
    g_assert_cmpint(
        as_rw_bytes(m->as, addr, copy, m->fdt_size, false, MEMTXATTRS(MEM_REQ_DEBUG, 0), NULL), ==,
        MEMTX_OK);
    g_assert_cmpmem(copy, m->fdt_size, m->fdt, m->fdt_size);
    g_assert_cmpint(rd(m, addr, 4, &v), ==, MEMTX_OK);
    g_assert_cmpuint(v, ==, 0xEDFE0DD0u); /* 0xD00DFEED stored big-endian */
    g_free(copy);
    machine_free(m);

    /* Two machines side by side, different sizes: no shared state. */
    Nc2Edits ed = {.has_hbm = true, .hbm = 32ull << 20};
    Machine *a = board(&ed), *b = board(NULL);
    g_assert_cmpuint(a->board->nx[0].dtb_addr, ==, (32ull << 20) - (1u << 20));
    g_assert_cmpuint(b->board->nx[0].dtb_addr, ==, addr);
    machine_free(a);
    machine_free(b);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/fdt/defaults", test_defaults);
    g_test_add_func("/fdt/edits", test_edits);
    g_test_add_func("/fdt/tpc-zero-and-limits", test_tpc_zero_and_limits);
    g_test_add_func("/fdt/bad-edits", test_bad_edits);
    g_test_add_func("/fdt/tree-rules", test_tree_rules);
    g_test_add_func("/fdt/bad-blobs", test_bad_blobs);
    g_test_add_func("/fdt/libfdt-traps", test_libfdt_traps);
    g_test_add_func("/fdt/dump-round-trip", test_dump_round_trip);
    g_test_add_func("/board/map", test_board_map);
    g_test_add_func("/board/dtb-in-memory", test_board_dtb_in_memory);
    return g_test_run();
}
