/*
 * FIT images (machine.md §11.3): built in memory with libfdt's sequential
 * writer (external data appended after the blob, as mkimage -E does),
 * written to a temporary directory and loaded into a real machine.
 */
#include <inttypes.h>
#include <string.h>

#include <libfdt.h>

#include "hw/nc2/board.h"
#include "loader-testlib.h"
#include "nxemu/error.h"

/* ---- FIT ------------------------------------------------------------------ */

typedef struct FitImg {
    const char *name, *type, *arch;
    const void *data;
    uint32_t len;
    bool external; /* data-offset/data-size instead of data */
    bool has_load, has_entry, load64;
    uint64_t load, entry;
    int cpu, tpc; /* -1: absent */
    const char *compression;
} FitImg;

typedef struct FitConf {
    const char *name, *firmware, *kernel;
    const char *loadables[4];
} FitConf;

#define CK(x) g_assert_cmpint((x), ==, 0)

static GByteArray *build_fit(const FitImg *imgs, unsigned nimgs, const FitConf *confs,
                             unsigned nconfs, const char *def, bool no_images)
{
    size_t cap = 64 * 1024;
    g_autofree uint8_t *fdt = g_malloc0(cap);
    GByteArray *ext = g_byte_array_new();
    CK(fdt_create(fdt, (int)cap));
    CK(fdt_finish_reservemap(fdt));
    CK(fdt_begin_node(fdt, ""));
    CK(fdt_property_string(fdt, "description", "nxemu test FIT"));
    CK(fdt_property_u32(fdt, "#address-cells", 1));
    CK(fdt_begin_node(fdt, no_images ? "pictures" : "images"));
    for (unsigned i = 0; i < nimgs; i++) {
        const FitImg *im = &imgs[i];
        CK(fdt_begin_node(fdt, im->name));
        if (im->type) {
            CK(fdt_property_string(fdt, "type", im->type));
        }
        if (im->arch) {
            CK(fdt_property_string(fdt, "arch", im->arch));
        }
        CK(fdt_property_string(fdt, "compression", im->compression ? im->compression : "none"));
        if (im->external) {
            CK(fdt_property_u32(fdt, "data-offset", ext->len));
            CK(fdt_property_u32(fdt, "data-size", im->len));
            g_byte_array_append(ext, im->data, im->len);
            while (ext->len % 4) {
                g_byte_array_append(ext, (const guint8 *)"", 1);
            }
        } else if (im->data) {
            CK(fdt_property(fdt, "data", im->data, (int)im->len));
        }
        if (im->has_load) {
            if (im->load64) {
                CK(fdt_property_u64(fdt, "load", im->load));
            } else {
                CK(fdt_property_u32(fdt, "load", (uint32_t)im->load));
            }
        }
        if (im->has_entry) {
            CK(fdt_property_u32(fdt, "entry", (uint32_t)im->entry));
        }
        if (im->cpu >= 0) {
            CK(fdt_property_u32(fdt, "nxemu,cpu", (uint32_t)im->cpu));
        }
        if (im->tpc >= 0) {
            CK(fdt_property_u32(fdt, "nxemu,tpc", (uint32_t)im->tpc));
        }
        CK(fdt_end_node(fdt));
    }
    CK(fdt_end_node(fdt));
    CK(fdt_begin_node(fdt, "configurations"));
    if (def) {
        CK(fdt_property_string(fdt, "default", def));
    }
    for (unsigned i = 0; i < nconfs; i++) {
        CK(fdt_begin_node(fdt, confs[i].name));
        if (confs[i].firmware) {
            CK(fdt_property_string(fdt, "firmware", confs[i].firmware));
        }
        if (confs[i].kernel) {
            CK(fdt_property_string(fdt, "kernel", confs[i].kernel));
        }
        GString *l = g_string_new(NULL);
        for (unsigned k = 0; k < 4 && confs[i].loadables[k]; k++) {
            g_string_append(l, confs[i].loadables[k]);
            g_string_append_c(l, '\0');
        }
        if (l->len) {
            CK(fdt_property(fdt, "loadables", l->str, (int)l->len));
        }
        g_string_free(l, TRUE);
        CK(fdt_end_node(fdt));
    }
    CK(fdt_end_node(fdt));
    CK(fdt_end_node(fdt));
    CK(fdt_finish(fdt));
    GByteArray *b = g_byte_array_new();
    g_byte_array_append(b, fdt, fdt_totalsize(fdt));
    while (b->len % 4) {
        g_byte_array_append(b, (const guint8 *)"", 1);
    }
    g_byte_array_append(b, ext->data, ext->len);
    g_byte_array_unref(ext);
    return b;
}

static uint8_t fw_raw[128], blob[40];

static void fit_payloads(void)
{
    rec(fw_raw, 0xA4, 0x11);
    rec(fw_raw + 64, 0xA1, 0x12);
    for (unsigned i = 0; i < sizeof(blob); i++) {
        blob[i] = (uint8_t)(0x80 + i);
    }
}

static void test_fit_good(void)
{
    fit_payloads();
    uint8_t binds[32];
    brec(binds, 1, 0x2400000);
    brec(binds + 16, 2, 0x2400100);
    GByteArray *seq = good_seq_elf(NULL, 0, NULL);
    TpcOpts ko = {.text_size = 96};
    size_t koff;
    GByteArray *kelf = build_tpc_elf(&ko, &koff);
    FitImg imgs[] = {
        {.name = "fw",
         .type = "firmware",
         .arch = "nxseq",
         .data = fw_raw,
         .len = 128,
         .has_load = true,
         .load = 0x3000000,
         .has_entry = true,
         .entry = 0x3000040,
         .cpu = -1,
         .tpc = -1},
        {.name = "app",
         .type = "kernel",
         .arch = "nxseq",
         .data = seq->data,
         .len = seq->len,
         .external = true,
         .cpu = 1,
         .tpc = -1},
        {.name = "blob",
         .type = "data",
         .data = blob,
         .len = sizeof(blob),
         .external = true,
         .has_load = true,
         .load64 = true,
         .load = 0x2000000100ull,
         .cpu = -1,
         .tpc = -1},
        {.name = "tbl", .type = "nxemu-bindings", .data = binds, .len = 32, .cpu = -1, .tpc = -1},
        {.name = "tk-raw",
         .type = "tpc-kernel",
         .arch = "nxtpc",
         .data = tpc_text,
         .len = 64,
         .has_load = true,
         .load = 0x2300000,
         .cpu = -1,
         .tpc = 0},
        {.name = "tk-elf",
         .type = "tpc-kernel",
         .arch = "nxtpc",
         .data = kelf->data,
         .len = kelf->len,
         .has_load = true,
         .load = 0x2300100,
         .cpu = -1,
         .tpc = 1},
        {.name = "over",
         .type = "data",
         .data = blob,
         .len = 4,
         .has_load = true,
         .load = 0x3000000,
         .cpu = -1,
         .tpc = -1},
    };
    FitConf confs[] = {
        {.name = "conf-1",
         .firmware = "fw",
         .kernel = "app",
         .loadables = {"blob", "tbl", "tk-raw", "tk-elf"}},
        {.name = "conf-2", .firmware = "fw", .loadables = {"over"}},
    };
    GByteArray *b = build_fit(imgs, G_N_ELEMENTS(imgs), confs, 2, "conf-1", false);
    g_autofree char *path = write_tmp("img.itb", b->data, b->len);
    Machine *m = make_machine(2, 2);
    Run r;
    GError *err = NULL;
    uint8_t got[128];
    uint64_t a;

    run_init(&r);
    add_item(&r, LOADER_KERNEL, path);
    LoaderOptions o = {.items = r.items, .nr_items = r.n, .bindings = &r.bt};
    g_assert_true(loader_load(m, &o, &err));
    g_assert_no_error(err);
    rd(m, 0x3000000, got, 128);
    g_assert_cmpmem(got, 128, fw_raw, 128);
    rd(m, TEXT_ADDR, got, 128);
    g_assert_cmpmem(got, 128, text2, 128);
    rd(m, 0x2000000100ull, got, sizeof(blob));
    g_assert_cmpmem(got, sizeof(blob), blob, sizeof(blob));
    /* the -kernel firmware without nxemu,cpu starts core 0 at `entry` */
    g_assert_cmphex(m->board->nx[0].entry, ==, 0x3000040);
    g_assert_cmphex(m->board->nx[0].regs.pc, ==, 0x3000040);
    /* the ELF kernel image with nxemu,cpu = 1: ENTRY from e_entry */
    g_assert_cmphex(m->board->nx[1].entry, ==, ENTRY);
    g_assert_true(bind_table_lookup(&r.bt, 2, &a));
    g_assert_cmphex(a, ==, 0x2400100);
    /* TPC kernels: raw bundles and a kernel ELF's .text, with presets */
    rd(m, 0x2300000, got, 64);
    g_assert_cmpmem(got, 64, tpc_text, 64);
    rd(m, 0x2300100, got, 96);
    g_assert_cmpmem(got, 96, tpc_text, 96);
    g_assert_cmphex(tpccfg_kv_read(&m->board->tpccfg[0], TPC_KV_KERNEL_BASE_LO), ==, 0x2300000);
    g_assert_cmpuint(m->board->tpccfg[0].kernel_size, ==, 64);
    g_assert_cmphex(tpccfg_kv_read(&m->board->tpccfg[1], TPC_KV_KERNEL_BASE_LO), ==, 0x2300100);
    g_assert_cmpuint(m->board->tpccfg[1].kernel_size, ==, 96);
    bind_table_destroy(&r.bt);
    machine_free(m);

    /* -fit-config conf-2: firmware then `over`, which overwrites its first bytes */
    m = make_machine(2, 1);
    run_init(&r);
    r.fit_config = "conf-2";
    add_item(&r, LOADER_KERNEL, path);
    g_assert_true(run_load(&r, m, &err));
    g_assert_no_error(err);
    rd(m, 0x3000000, got, 128);
    g_assert_cmpmem(got, 4, blob, 4);
    g_assert_cmpmem(got + 4, 124, fw_raw + 4, 124);
    g_assert_cmphex(m->board->nx[1].entry, ==, 0); /* no kernel image in conf-2 */
    machine_free(m);

    /* the same FIT through -device loader: firmware starts no core */
    m = make_machine(2, 1);
    run_init(&r);
    r.fit_config = "conf-2";
    add_item(&r, LOADER_FILE, path);
    g_assert_false(run_load(&r, m, &err));
    g_assert_nonnull(strstr(err->message, "no core has an entry point"));
    g_clear_error(&err);
    machine_free(m);
    g_byte_array_unref(b);
    g_byte_array_unref(seq);
    g_byte_array_unref(kelf);
}

static void expect_fit_error(GByteArray *b, const char *config, const char *reason)
{
    g_autofree char *path = write_tmp("bad.itb", b->data, b->len);
    Machine *m = make_machine(2, 1);
    Run r;
    GError *err = NULL;
    run_init(&r);
    r.fit_config = config;
    add_item(&r, LOADER_KERNEL, path);
    g_assert_false(run_load(&r, m, &err));
    g_assert_error(err, NX_ERROR, NX_ERROR_LOAD);
    g_test_message("%s", err->message);
    g_autofree char *prefix = g_strdup_printf("%s: offset 0x", path);
    if (!g_str_has_prefix(err->message, prefix) || !strstr(err->message, reason)) {
        g_error("message '%s' lacks '%s'", err->message, reason);
    }
    g_error_free(err);
    machine_free(m);
    g_byte_array_unref(b);
}

static void test_fit_malformed(void)
{
    fit_payloads();
    FitImg fw = {.name = "fw",
                 .type = "firmware",
                 .arch = "nxseq",
                 .data = fw_raw,
                 .len = 128,
                 .has_load = true,
                 .load = 0x3000000,
                 .cpu = -1,
                 .tpc = -1};
    FitConf conf = {.name = "c", .firmware = "fw"};
    FitImg im;
    GByteArray *b;

    b = build_fit(&fw, 1, &conf, 1, "c", true);
    expect_fit_error(b, NULL, "FIT has no /images node");

    im = fw;
    im.data = NULL;
    b = build_fit(&im, 1, &conf, 1, "c", false);
    expect_fit_error(b, NULL, "image fw: no data");

    /* data-offset pointing past the end of the file */
    b = build_fit(&fw, 1, &conf, 1, "c", false);
    im = fw;
    im.external = true;
    g_byte_array_unref(b);
    b = build_fit(&im, 1, &conf, 1, "c", false);
    g_byte_array_set_size(b, b->len - 64); /* external data cut short */
    expect_fit_error(b, NULL, "image fw: data-offset 0x0 + data-size 0x80");

    im = fw;
    im.compression = "gzip";
    b = build_fit(&im, 1, &conf, 1, "c", false);
    expect_fit_error(b, NULL, "compression \"gzip\" is not supported");

    FitConf ghost = {.name = "c", .firmware = "fw", .loadables = {"ghost"}};
    b = build_fit(&fw, 1, &ghost, 1, "c", false);
    expect_fit_error(b, NULL, "configuration c: unknown image 'ghost'");

    b = build_fit(&fw, 1, &conf, 1, "c", false);
    expect_fit_error(b, "nope", "configuration 'nope' not found");

    b = build_fit(&fw, 1, &conf, 1, NULL, false);
    expect_fit_error(b, NULL, "/configurations has no default");

    uint8_t binds[20] = {0};
    FitImg imgs2[2] = {
        fw,
        {.name = "tbl", .type = "nxemu-bindings", .data = binds, .len = 20, .cpu = -1, .tpc = -1}};
    FitConf c2 = {.name = "c", .firmware = "fw", .loadables = {"tbl"}};
    b = build_fit(imgs2, 2, &c2, 1, "c", false);
    expect_fit_error(b, NULL, "image tbl: size 20 is not a multiple of 16");

    /* two binding images disagreeing on var_id 3 */
    uint8_t b1[16], b2[16];
    brec(b1, 3, 0x100);
    brec(b2, 3, 0x200);
    FitImg imgs3[3] = {
        fw,
        {.name = "t1", .type = "nxemu-bindings", .data = b1, .len = 16, .cpu = -1, .tpc = -1},
        {.name = "t2", .type = "nxemu-bindings", .data = b2, .len = 16, .cpu = -1, .tpc = -1}};
    FitConf c3 = {.name = "c", .firmware = "fw", .loadables = {"t1", "t2"}};
    b = build_fit(imgs3, 3, &c3, 1, "c", false);
    expect_fit_error(b, NULL, "image t2 record 0: var_id 3 bound to 0x200 conflicts with 0x100");

    /* an ELF payload with a load property */
    GByteArray *seq = good_seq_elf(NULL, 0, NULL);
    im = fw;
    im.data = seq->data;
    im.len = seq->len;
    b = build_fit(&im, 1, &conf, 1, "c", false);
    expect_fit_error(b, NULL, "an ELF payload must not have a load property");
    g_byte_array_unref(seq);

    /* a raw sequencer image without load */
    im = fw;
    im.has_load = false;
    b = build_fit(&im, 1, &conf, 1, "c", false);
    expect_fit_error(b, NULL, "needs a load address");

    im = fw;
    im.type = "kernel-noload";
    b = build_fit(&im, 1, &conf, 1, "c", false);
    expect_fit_error(b, NULL, "unknown type \"kernel-noload\"");

    /* nxemu,cpu beyond the cores */
    im = fw;
    im.cpu = 5;
    b = build_fit(&im, 1, &conf, 1, "c", false);
    expect_fit_error(b, NULL, "nxemu,cpu 5: the machine has 2 sequencer core(s)");

    /* corrupt FDT structure */
    b = build_fit(&fw, 1, &conf, 1, "c", false);
    set32(b, 8, 0xFFFFFF); /* off_dt_struct far outside */
    expect_fit_error(b, NULL, "malformed FIT");
}

int main(int argc, char **argv)
{
    loader_testlib_init(&argc, &argv);
    g_test_add_func("/loader/fit/good", test_fit_good);
    g_test_add_func("/loader/fit/malformed", test_fit_malformed);
    int rc = g_test_run();
    loader_testlib_cleanup();
    return rc;
}
