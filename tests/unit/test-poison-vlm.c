/*
 * Poison mode on TPC VLM (include/nxemu/poison.h): the per-TPC written map
 * fed by the TPC target, byte-gated writes and reads, one report per range.
 */
#include <string.h>

#include "nxemu/machine.h"
#include "nxemu/poison.h"

typedef struct Fx {
    Machine *m;
    NxPoison *p;
    GString *out;
} Fx;

static void fx_setup(Fx *f, gconstpointer data)
{
    MachineConfig cfg = {
        .hbm_size = 64ull << 20,
        .nr_seq = 1,
        .nr_tpc = 2,
        .tlb_entries = 4,
        .quantum = 64,
        .nr_dma = 1,
        .dma_queue_depth = 4,
        .dma_bytes_per_cycle = 64,
        .dma_latency = 32,
    };
    GError *err = NULL;
    f->m = machine_new(&cfg, NULL, 0, &err);
    g_assert_no_error(err);
    g_assert_null(f->m->tpc[0]->poison); /* off unless asked for */
    f->p = poison_new(f->m);
    g_assert_true(f->m->tpc[0]->poison == f->p); /* on the TPCs */
    f->out = g_string_new(NULL);
    poison_set_output(f->p, f->out);
}

static void fx_teardown(Fx *f, gconstpointer data)
{
    poison_free(f->p);
    g_assert_null(f->m->tpc[0]->poison);
    machine_free(f->m);
    g_string_free(f->out, TRUE);
}

static void test_read_before_write(Fx *f, gconstpointer data)
{
    poison_vlm_write(f->p, 0, 0x100, 256, NULL);
    poison_vlm_read(f->p, 0, 0x40, 0x100, 256, NULL);
    g_assert_cmpstr(f->out->str, ==, "");
    /* 0x1f0..0x1ff written, 0x200..0x20f not: one report naming the read */
    poison_vlm_read(f->p, 0, 0x60, 0x1f0, 32, NULL);
    g_assert_cmpstr(f->out->str, ==,
                    "nxemu: warning: poison: tpc=0 pc=0x0000000000000060 read of "
                    "uninitialised VLM 0x001f0 (size 32)\n");
    g_assert_cmpuint(poison_reports(f->p), ==, 1);
    /* the same bytes again, or a part of them: reported once */
    poison_vlm_read(f->p, 0, 0x80, 0x200, 16, NULL);
    g_assert_cmpuint(poison_reports(f->p), ==, 1);
    /* one more never-written byte in a wider read: reported */
    g_string_truncate(f->out, 0);
    poison_vlm_read(f->p, 0, 0xa0, 0x200, 17, NULL);
    g_assert_cmpstr(f->out->str, ==,
                    "nxemu: warning: poison: tpc=0 pc=0x00000000000000a0 read of "
                    "uninitialised VLM 0x00200 (size 17)\n");
    g_assert_true(poison_vlm_is_written(f->p, 0, 0x100, 256));
    g_assert_false(poison_vlm_is_written(f->p, 0, 0x100, 257));
}

static void test_byte_gates(Fx *f, gconstpointer data)
{
    uint8_t en[256] = {0};
    en[4] = en[5] = 1;
    poison_vlm_write(f->p, 1, 0x400, 256, en);
    g_assert_true(poison_vlm_is_written(f->p, 1, 0x404, 2));
    g_assert_false(poison_vlm_is_written(f->p, 1, 0x403, 1));
    g_assert_false(poison_vlm_is_written(f->p, 1, 0x406, 1));
    /* a read delivering only the written bytes is silent */
    poison_vlm_read(f->p, 1, 0x20, 0x400, 256, en);
    g_assert_cmpstr(f->out->str, ==, "");
    en[6] = 1;
    poison_vlm_read(f->p, 1, 0x20, 0x400, 256, en);
    g_assert_cmpstr(f->out->str, ==,
                    "nxemu: warning: poison: tpc=1 pc=0x0000000000000020 read of "
                    "uninitialised VLM 0x00400 (size 256)\n");
}

static void test_tpcs_apart(Fx *f, gconstpointer data)
{
    /* VLM is private: TPC 0 writing does not initialise TPC 1's VLM */
    poison_vlm_write(f->p, 0, 0x0, 256, NULL);
    poison_vlm_read(f->p, 0, 0x0, 0x0, 256, NULL);
    g_assert_cmpstr(f->out->str, ==, "");
    poison_vlm_read(f->p, 1, 0x0, 0x0, 256, NULL);
    g_assert_cmpstr(f->out->str, ==,
                    "nxemu: warning: poison: tpc=1 pc=0x0000000000000000 read of "
                    "uninitialised VLM 0x00000 (size 256)\n");
}

static void test_out_of_range_ignored(Fx *f, gconstpointer data)
{
    /* the TPC faults such accesses itself; the map must just stay sane */
    poison_vlm_write(f->p, 2, 0x0, 256, NULL);
    poison_vlm_write(f->p, 0, POISON_VLM_SIZE - 128, 256, NULL);
    poison_vlm_read(f->p, 0, 0x0, POISON_VLM_SIZE - 128, 256, NULL);
    poison_vlm_read(f->p, 7, 0x0, 0x0, 256, NULL);
    g_assert_cmpuint(poison_reports(f->p), ==, 0);
    g_assert_false(poison_vlm_is_written(f->p, 0, POISON_VLM_SIZE - 128, 256));
    /* the last 256 bytes are valid */
    poison_vlm_write(f->p, 0, POISON_VLM_SIZE - 256, 256, NULL);
    g_assert_true(poison_vlm_is_written(f->p, 0, POISON_VLM_SIZE - 256, 256));
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
#define T(name, fn) g_test_add("/poison-vlm/" name, Fx, NULL, fx_setup, fn, fx_teardown)
    T("read-before-write", test_read_before_write);
    T("byte-gates", test_byte_gates);
    T("tpcs-apart", test_tpcs_apart);
    T("out-of-range-ignored", test_out_of_range_ignored);
    return g_test_run();
}
