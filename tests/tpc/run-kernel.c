/*
 * TPC per-instruction tests: each .s file of tests/tpc is a kernel in the
 * Habana assembly syntax plus directives in `//` comments that set up the
 * machine and state the expected results (derived from tpc.md by hand).
 * This program assembles the file with the nxemu assembler, places the
 * kernel in HBM, programs TPC 0 through its machine window, launches it
 * with EXECUTE and checks every expectation.  One GTest case per file.
 *
 * Directives (lines starting with `//@`, numbers in C syntax):
 *   //@ srf I=V ...                KERNEL_SRF_i (S_i at launch)
 *   //@ cfg OFF=V ...              kernel-view word through the window
 *   //@ mem ADDR T v v ...         guest memory, T = u8 u16 u32 i32 f32 bf16
 *   //@ tensor T ADDR ECODE S0[,S1..] [pad=V]
 *                                  descriptor T, dims S0.. all valid,
 *                                  stride[0] = 1, stride[d] = stride[d-1]*S[d-1]
 *   //@ expect S5=V | SP3=V | I2=a,b,c,d,e | AD1=PA
 *   //@ expect V2.T[*]=v           every lane of V2 viewed as type T
 *   //@ expect V2.T[k]=v           lane k
 *   //@ expect VP1.b[k]=v          bit k of VP1
 *   //@ expect mem ADDR T v v ...
 *   //@ expect fault CODE PC ADDR  STATUS = FAULT, FAULT_PC, FAULT_ADDR
 *   //@ expect bundles N
 *   //@ expect cycles N            CYCLES (tpc.md §7.2: with the timing model,
 *                                  bundles plus interlock stalls)
 *   //@ expect stalls N | hazards N  the timing model's counters (timing.h)
 *   //@ expect memstalls N | bytes N  its global-memory stall cycles and bytes
 *   //@ gmem LATENCY BYTES_PER_CYCLE  the /tpcs nxemu,gmem-* parameters
 *   //@ timing MODE ...            run once per MODE (functional, interlocked,
 *                                  exposed; default functional only), each
 *                                  timed mode twice: the runs must agree in
 *                                  every register and counter (determinism)
 *   //@ expect@MODE ...            an expectation for that mode only
 */
#include <errno.h>
#include <string.h>

#include <glib.h>

#include "nxemu/machine.h"
#include "target/tpc/asm.h"
#include "target/tpc/cpu.h"
#include "tpc-testlib.h"

static uint64_t num(const char *s)
{
    char *end;
    errno = 0;
    uint64_t v = g_ascii_strtoull(s, &end, 0);
    if (*s == '-')
        v = (uint64_t)g_ascii_strtoll(s, &end, 0);
    if (errno || end == s)
        g_error("bad number '%s'", s);
    return v;
}

/* Element value of type name t from text (floats for f32/bf16). */
static uint32_t elem(const char *t, const char *s, unsigned *size)
{
    if (!strcmp(t, "f32") || !strcmp(t, "bf16")) {
        float f = (float)g_ascii_strtod(s, NULL);
        uint32_t b;
        memcpy(&b, &f, 4);
        *size = t[0] == 'f' ? 4 : 2;
        return t[0] == 'f' ? b : b >> 16;
    }
    *size = strstr(t, "32") ? 4 : strstr(t, "16") ? 2 : 1;
    return (uint32_t)num(s);
}

static void put_mem(Machine *m, char **w, unsigned n)
{
    uint64_t addr = num(w[0]), bad;
    for (unsigned i = 2; i < n; i++) {
        unsigned sz;
        uint32_t v = elem(w[1], w[i], &sz);
        g_assert_cmpint(as_rw_bytes(m->as, addr, &v, sz, true, MEMTXATTRS(MEM_REQ_LOADER, 0), &bad),
                        ==, MEMTX_OK);
        addr += sz;
    }
}

static void check_mem(Machine *m, char **w, unsigned n, const char *file)
{
    uint64_t addr = num(w[0]), bad;
    for (unsigned i = 2; i < n; i++) {
        unsigned sz;
        uint32_t exp = elem(w[1], w[i], &sz), v = 0;
        g_assert_cmpint(as_rw_bytes(m->as, addr, &v, sz, false, DBG, &bad), ==, MEMTX_OK);
        if (v != exp)
            g_error("%s: mem 0x%llx = 0x%x, expected 0x%x", file, (unsigned long long)addr, v, exp);
        addr += sz;
    }
}

static void tensor(Machine *m, char **w, unsigned n)
{
    unsigned t = (unsigned)num(w[0]);
    uint64_t base = num(w[1]);
    unsigned ecode = (unsigned)num(w[2]);
    g_auto(GStrv) sizes = g_strsplit(w[3], ",", 5);
    uint32_t pad = 0;
    for (unsigned i = 4; i < n; i++)
        if (g_str_has_prefix(w[i], "pad="))
            pad = (uint32_t)num(w[i] + 4);
    unsigned rank = g_strv_length(sizes);
    uint64_t o = TPC0 + 0x400 + 0x38 * t;
    tt_wr32(m, o, (uint32_t)base);
    tt_wr32(m, o + 4, (uint32_t)(base >> 32));
    tt_wr32(m, o + 8, pad);
    tt_wr32(m, o + 0xC, ecode | ((1u << rank) - 1) << 8 | (rank - 1) << 16);
    uint32_t stride = 1;
    for (unsigned d = 0; d < rank; d++) {
        uint32_t s = (uint32_t)num(sizes[d]);
        tt_wr32(m, o + 0x10 + 8 * d, s);
        tt_wr32(m, o + 0x14 + 8 * d, stride);
        stride *= s;
    }
}

static uint32_t lane(TpcCpu *c, unsigned v, const char *t, unsigned k, unsigned *sz)
{
    elem(t, "0", sz);
    uint32_t x = 0;
    memcpy(&x, &c->v[v][k * *sz], *sz);
    return x;
}

static void check_reg(TpcCpu *c, const char *lhs, const char *rhs, const char *file)
{
    unsigned r, k, sz;
    char t[8], idx[8];
    if (sscanf(lhs, "VP%u.b[%7[^]]]", &r, idx) == 2) {
        k = (unsigned)num(idx);
        unsigned got = r == 0 ? 1u : (c->vp[r][k / 8] >> (k % 8)) & 1u;
        if (got != num(rhs))
            g_error("%s: %s = %u, expected %s", file, lhs, got, rhs);
    } else if (sscanf(lhs, "V%u.%7[a-z0-9][%7[^]]]", &r, t, idx) == 3) {
        uint32_t exp = elem(t, rhs, &sz);
        unsigned n = TPC_VBYTES / sz;
        for (unsigned i = 0; i < n; i++) {
            if (strcmp(idx, "*") && i != num(idx))
                continue;
            uint32_t got = lane(c, r, t, i, &sz);
            if (got != exp)
                g_error("%s: %s lane %u = 0x%x, expected 0x%x", file, lhs, i, got, exp);
        }
    } else if (sscanf(lhs, "SP%u", &r) == 1) {
        g_assert_cmpuint(r == 0 ? 1 : c->sp[r], ==, num(rhs));
    } else if (sscanf(lhs, "S%u", &r) == 1) {
        if (c->s[r] != (uint32_t)num(rhs))
            g_error("%s: S%u = 0x%x, expected %s", file, r, c->s[r], rhs);
    } else if (sscanf(lhs, "I%u", &r) == 1) {
        g_auto(GStrv) d = g_strsplit(rhs, ",", 5);
        for (unsigned i = 0; i < 5 && d[i]; i++)
            if (c->irf[r][i] != (int32_t)num(d[i]))
                g_error("%s: I%u[%u] = %d, expected %s", file, r, i, c->irf[r][i], d[i]);
    } else if (sscanf(lhs, "AD%u", &r) == 1) {
        g_assert_cmphex(c->ad[r].pa, ==, num(rhs));
    } else {
        g_error("%s: unknown expectation '%s'", file, lhs);
    }
}

/* Architectural state and counters after a run, for the determinism check. */
typedef struct RunState {
    uint32_t s[TPC_NR_S];
    uint8_t sp[TPC_NR_SP];
    uint8_t v[TPC_NR_V][TPC_VBYTES];
    uint8_t vp[TPC_NR_VP][TPC_VPBYTES];
    int32_t irf[TPC_NR_I][5];
    uint64_t cycles, bundles, stalls, hazards;
    uint32_t status;
} RunState;

static void snapshot(TpcCpu *c, uint32_t st, RunState *r)
{
    memset(r, 0, sizeof(*r));
    memcpy(r->s, c->s, sizeof(r->s));
    memcpy(r->sp, c->sp, sizeof(r->sp));
    for (unsigned i = 0; i < TPC_NR_V; i++)
        memcpy(r->v[i], c->v[i], TPC_VBYTES);
    memcpy(r->vp, c->vp, sizeof(r->vp));
    memcpy(r->irf, c->irf, sizeof(r->irf));
    r->cycles = c->cycles;
    r->bundles = c->bundles;
    r->stalls = c->stall_cycles;
    r->hazards = c->hazards;
    r->status = st;
}

static void run_mode(const char *file, const char *text, TpcObject *obj, TpcTimingMode mode,
                     RunState *out)
{
    Machine *m = tt_machine();
    tpc_cpu_set_timing(m, mode, false);
    uint64_t bad;
    g_assert_cmpint(as_rw_bytes(m->as, KBASE, obj->text->data, obj->text->len, true,
                                MEMTXATTRS(MEM_REQ_LOADER, 0), &bad),
                    ==, MEMTX_OK);

    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    GPtrArray *expects = g_ptr_array_new();
    for (unsigned i = 0; lines[i]; i++) {
        const char *l = g_str_has_prefix(lines[i], "//@") ? lines[i] + 1 : NULL;
        if (!l)
            continue;
        g_auto(GStrv) w = g_strsplit_set(g_strstrip((char *)l + 2), " \t", -1);
        unsigned n = 0;
        char *ws[64];
        for (unsigned j = 0; w[j] && n < 64; j++)
            if (*w[j])
                ws[n++] = w[j];
        if (n == 0)
            continue;
        if (!strcmp(ws[0], "srf")) {
            for (unsigned j = 1; j < n; j++) {
                char *eq = strchr(ws[j], '=');
                g_assert_nonnull(eq);
                *eq = 0;
                tt_wr32(m, TPC0 + 0x7C0 + 4 * num(ws[j]), (uint32_t)num(eq + 1));
            }
        } else if (!strcmp(ws[0], "cfg")) {
            for (unsigned j = 1; j < n; j++) {
                char *eq = strchr(ws[j], '=');
                g_assert_nonnull(eq);
                *eq = 0;
                tt_wr32(m, TPC0 + num(ws[j]), (uint32_t)num(eq + 1));
            }
        } else if (!strcmp(ws[0], "gmem") && n == 3) {
            m->cfg.tpc_gmem_latency = (uint32_t)num(ws[1]);
            m->cfg.tpc_gmem_bytes_per_cycle = (uint32_t)num(ws[2]);
            tpc_cpu_set_timing(m, mode, false);
        } else if (!strcmp(ws[0], "mem") && n >= 3) {
            put_mem(m, ws + 1, n - 1);
        } else if (!strcmp(ws[0], "tensor") && n >= 5) {
            tensor(m, ws + 1, n - 1);
        } else if (!strcmp(ws[0], "expect")) {
            g_ptr_array_add(expects, lines[i]);
        } else if (g_str_has_prefix(ws[0], "expect@")) {
            TpcTimingMode em;
            if (!tpc_timing_parse(ws[0] + 7, &em))
                g_error("%s: unknown mode in '%s'", file, ws[0]);
            if (em == mode)
                g_ptr_array_add(expects, lines[i]);
        }
    }

    tt_wr32(m, TPC0 + 0x788, (uint32_t)KBASE);
    tt_wr32(m, TPC0 + 0x78C, 0);
    tt_wr32(m, TPC0 + 0x1028, obj->text->len);
    tt_wr32(m, TPC0 + 0x1008, 1);
    NxCpu *cpu = m->tpc[0];
    for (unsigned i = 0; i < 1000000 && cpu->state == CPU_RUNNING; i++)
        cpu->ops->run(cpu, 64);
    TpcCpu *c = tpc_cpu(cpu);
    uint32_t st = tt_rd32(m, TPC0 + 0x100C);
    bool fault_expected = false;

    for (unsigned i = 0; i < expects->len; i++) {
        const char *l = (const char *)expects->pdata[i] + 1;
        g_auto(GStrv) w = g_strsplit_set(g_strstrip((char *)l + 2), " \t", -1);
        unsigned n = 0;
        char *ws[64];
        for (unsigned j = 0; w[j] && n < 64; j++)
            if (*w[j])
                ws[n++] = w[j];
        if (n >= 2 && !strcmp(ws[1], "fault")) {
            fault_expected = true;
            g_assert_cmphex(st, ==, 3 | num(ws[2]) << 8);
            if (n > 3)
                g_assert_cmphex(tt_rd32(m, TPC0 + 0x1020), ==, num(ws[3]));
            if (n > 4) {
                uint64_t fa = tt_rd32(m, TPC0 + 0x1030) | (uint64_t)tt_rd32(m, TPC0 + 0x1034) << 32;
                g_assert_cmphex(fa, ==, num(ws[4]));
            }
        } else if (n >= 3 && !strcmp(ws[1], "bundles")) {
            g_assert_cmpuint(tt_rd32(m, TPC0 + 0x1038), ==, num(ws[2]));
        } else if (n >= 3 && !strcmp(ws[1], "cycles")) {
            if (tt_rd32(m, TPC0 + 0x1018) != num(ws[2]))
                g_error("%s [%s]: CYCLES = %u, expected %s", file, tpc_timing_name(mode),
                        tt_rd32(m, TPC0 + 0x1018), ws[2]);
        } else if (n >= 3 && !strcmp(ws[1], "stalls")) {
            if (c->stall_cycles != num(ws[2]))
                g_error("%s [%s]: stall cycles = %" G_GUINT64_FORMAT ", expected %s", file,
                        tpc_timing_name(mode), c->stall_cycles, ws[2]);
        } else if (n >= 3 && !strcmp(ws[1], "memstalls")) {
            if (tpc_timing_mem_stalls(c->tm) != num(ws[2]))
                g_error("%s [%s]: memory stall cycles = %" G_GUINT64_FORMAT ", expected %s", file,
                        tpc_timing_name(mode), tpc_timing_mem_stalls(c->tm), ws[2]);
        } else if (n >= 3 && !strcmp(ws[1], "bytes")) {
            if (tpc_timing_gmem_bytes(c->tm) != num(ws[2]))
                g_error("%s [%s]: global-memory bytes = %" G_GUINT64_FORMAT ", expected %s", file,
                        tpc_timing_name(mode), tpc_timing_gmem_bytes(c->tm), ws[2]);
        } else if (n >= 3 && !strcmp(ws[1], "hazards")) {
            if (c->hazards != num(ws[2]))
                g_error("%s [%s]: hazards = %" G_GUINT64_FORMAT ", expected %s", file,
                        tpc_timing_name(mode), c->hazards, ws[2]);
        } else if (n >= 4 && !strcmp(ws[1], "mem")) {
            check_mem(m, ws + 2, n - 2, file);
        } else {
            for (unsigned j = 1; j < n; j++) {
                char *eq = strchr(ws[j], '=');
                if (!eq)
                    g_error("%s: bad expectation '%s'", file, ws[j]);
                *eq = 0;
                check_reg(c, ws[j], eq + 1, file);
            }
        }
    }
    if (!fault_expected && st != 2)
        g_error("%s: STATUS 0x%x (fault pc 0x%x addr 0x%x), expected DONE", file, st,
                tt_rd32(m, TPC0 + 0x1020), tt_rd32(m, TPC0 + 0x1030));
    snapshot(c, st, out);
    g_ptr_array_free(expects, TRUE);
    machine_free(m);
}

static void run_file(gconstpointer data)
{
    const char *file = data;
    g_autofree char *text = NULL;
    GError *err = NULL;
    g_assert_true(g_file_get_contents(file, &text, NULL, &err));
    g_assert_no_error(err);

    TpcObject obj;
    tpc_object_init(&obj);
    g_assert_true(tpc_assemble_text(file, text, &obj, stderr));
    /* the modes to run: the `//@ timing` line, else functional */
    TpcTimingMode modes[3] = {TPC_TIMING_FUNCTIONAL};
    unsigned nmodes = 1;
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    for (unsigned i = 0; lines[i]; i++) {
        if (!g_str_has_prefix(lines[i], "//@ timing "))
            continue;
        g_auto(GStrv) w = g_strsplit_set(g_strstrip(lines[i] + 11), " \t", -1);
        nmodes = 0;
        for (unsigned j = 0; w[j] && nmodes < 3; j++)
            if (*w[j] && !tpc_timing_parse(w[j], &modes[nmodes++]))
                g_error("%s: unknown timing mode '%s'", file, w[j]);
    }
    for (unsigned k = 0; k < nmodes; k++) {
        RunState *a = g_new(RunState, 1), *b = g_new(RunState, 1);
        run_mode(file, text, &obj, modes[k], a);
        if (modes[k] != TPC_TIMING_FUNCTIONAL) {
            run_mode(file, text, &obj, modes[k], b);
            if (memcmp(a, b, sizeof(*a)))
                g_error("%s [%s]: two runs differ", file, tpc_timing_name(modes[k]));
        }
        g_free(a);
        g_free(b);
    }
    tpc_object_free(&obj);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-')
            continue;
        g_autofree char *base = g_path_get_basename(argv[i]);
        g_autofree char *path = g_strdup_printf("/tpc/%s", base);
        g_test_add_data_func(path, argv[i], run_file);
    }
    return g_test_run();
}
