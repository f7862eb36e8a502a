/*
 * Differential test of the TPC fast paths: random kernels made of the forms
 * the fast paths serve (ld_tnsr/st_tnsr of a full V register, the VPU
 * arithmetic and logic of the whole-register loops: f32 MAC/MUL/ADD/SUB/
 * MAX/MIN, integer SUB/MAX/MIN/shifts/logic of every width, int5 ADD,
 * compares into VPRFs, selects, VP-predicated forms, SET_INDX, forward
 * JMPR with an immediate target) mixed with
 * forms they leave to the
 * general path (VPRF predicates, MOV, compares), run three times on fresh
 * machines:
 *   - as is (cached descriptors and host spans, quick executors, direct
 *     bundles);
 *   - with an access observer installed (no host span may be used, every
 *     tensor access takes the general path);
 *   - with -d commit and -d exec on (the trace and the log hook around
 *     each bundle of the same loops), one commit line per bundle;
 *   - with a debugger attached and a TPC breakpoint that is never reached
 *     (the same fast loop, comparing each pc: gdb runs what CI runs);
 *   - with a watchpoint set that nothing reaches (the debugger's bundle
 *     loop: every bundle staged, no fast tensor spans).
 * tpc.md defines one result for a kernel whatever observes it, so the
 * final architectural state (STATUS, FAULT_PC/ADDR, SRF, SPRF, VRF, VPRF,
 * IRF, BUNDLES) and the memory the tensors cover must be identical.
 * Descriptors overlap (loads see earlier stores of other tensors), use
 * E = 1, 2, 4, 2-D shapes, strides != 1, padding, and one tensor ends
 * at the end of HBM so that some kernels fault; coordinates range from
 * below 0 to past the end; the body runs three times in a LOOP and may
 * rewrite descriptor words with `st_l mmio`.  Bundles never have two slots writing one
 * register (that is tpc-fast/conflict-*).
 * A second generator makes short LOOP bodies of direct forms that go round
 * up to 41 times (cpu-direct.c's loop plans), in slices of 1, 7 or 1000
 * bundles, whose spans leave their tensors, fault or lose their predicate
 * mid-loop; the plain and debugger's runs use the plans, the traced and
 * staged ones must not.
 */
#include <inttypes.h>
#include <string.h>

#include <glib.h>

#include "nxemu/debug.h"
#include "nxemu/trace.h"
#include "nxemu/machine.h"
#include "target/tpc/asm.h"
#include "target/tpc/cpu.h"
#include "target/tpc/jit.h"
#include "../tpc/tpc-testlib.h"

#define NKERN   60
#define NBUNDLE 40

/* Memory the tensors touch: two windows. */
static const struct {
    uint64_t base, len;
} windows[] = {{0x200000, 0x3000}, {0x3FFF000, 0x1000}};

typedef struct Desc {
    uint64_t base;
    uint32_t pad, config, size[5];
    int32_t stride[5];
} Desc;

/* t0..t6 (tpc.md §3.1: CONFIG = E code | valid dims << 8) */
static const Desc descs[] = {
    {0x200000, 0x11111111, 2 | 1u << 8, {256}, {1}},          /* E4, 1 KiB */
    {0x200400, 0x22222222, 2 | 3u << 8, {64, 8}, {1, 64}},    /* E4 64x8, overlaps t0 */
    {0x200800, 0x33333333, 1 | 1u << 8, {512}, {1}},          /* E2 */
    {0x201000, 0x44444444, 0 | 3u << 8, {300, 4}, {1, 300}},  /* E1 300x4 */
    {0x3FFFE00, 0x55555555, 2 | 1u << 8, {256}, {1}},         /* E4, ends past HBM */
    {0x201800, 0x66666666, 1 | 3u << 8, {200, 3}, {2, -400}}, /* E2, stride0 2, stride1 < 0 */
    {0x202000, 0x77777777, 2 | 0x1Fu << 8, {64, 2, 2, 2, 2}, {1, 64, 128, 256, 512}}, /* 5-D */
};

static void program(Machine *m, const GByteArray *text, GRand *r)
{
    for (unsigned t = 0; t < G_N_ELEMENTS(descs); t++) {
        const Desc *d = &descs[t];
        uint64_t o = TPC0 + 0x400 + 0x38 * t;
        tt_wr32(m, o, (uint32_t)d->base);
        tt_wr32(m, o + 4, (uint32_t)(d->base >> 32));
        tt_wr32(m, o + 8, d->pad);
        tt_wr32(m, o + 0xC, d->config);
        for (unsigned k = 0; k < 5; k++) {
            tt_wr32(m, o + 0x10 + 8 * k, d->size[k]);
            tt_wr32(m, o + 0x14 + 8 * k, (uint32_t)d->stride[k]);
        }
    }
    /* memory: a mix of small integers and f32 values of both signs */
    for (unsigned w = 0; w < G_N_ELEMENTS(windows); w++)
        for (uint64_t a = 0; a < windows[w].len; a += 4) {
            uint32_t v = g_rand_int(r);
            if (v & 1)
                v = (v & 0x807FFFFFu) | 0x3F000000u; /* +-[0.5, 2) */
            tt_wr32(m, windows[w].base + a, v);
        }
    for (unsigned i = 1; i < 8; i++) /* S1..S7 */
        tt_wr32(m, TPC0 + 0x7C0 + 4 * i, i & 1 ? 0x3FC00000u + i : i * 3);
    /* S8..S11: kernel-view offsets of t0 DIM_0_SIZE, t2 BASE_ADDR, t2
     * TENSOR_CONFIG, t1 DIM_0_SIZE; S12..S16: values for them (sizes,
     * bases, E = 4 or 2) */
    static const uint32_t sv[] = {0x410, 0x470, 0x47C, 0x448, 100, 256, 0x200900, 0x200800, 0x102};
    for (unsigned i = 0; i < G_N_ELEMENTS(sv); i++)
        tt_wr32(m, TPC0 + 0x7C0 + 4 * (8 + i), sv[i]);
    tt_load_kernel(m, text->data, text->len);
}

/* ---- random kernels ---- */

static const char *const preds[] = {"",      "",       "",      ", SP1", ", !SP1",
                                    ", SP2", ", !SP0", ", VP1", ", !VP1"};

static unsigned pick(GRand *r, unsigned n)
{
    return (unsigned)g_rand_int_range(r, 0, (gint32)n);
}

/* A tensor id; t4 (whose end is not memory) rarely, or most kernels fault;
 * direct (loop plan bodies): t5 (strided, never a span) rarely, or few
 * bodies have plans, t4 more often (a body's span reaches its end after
 * some trips) */
static unsigned tens(GRand *r, bool direct)
{
    static const uint8_t ids[] = {0, 1, 2, 3, 5, 6, 0, 1, 2, 3, 5, 6, 0, 2, 4};
    static const uint8_t dids[] = {0, 1, 2, 3, 6, 0, 1, 2, 3, 6, 4, 4, 5};
    return direct ? dids[pick(r, sizeof(dids))] : ids[pick(r, sizeof(ids))];
}

/* An SRF register for SET_INDX; direct: an even one (S0..S7 hold small
 * integers at even numbers, f32 values, far out of any tensor, at odd) */
static unsigned sidx(GRand *r, bool direct)
{
    return direct ? 2 * pick(r, 4) : pick(r, 8);
}

/* VPU arithmetic: direct forms (and, from int add and i32 mul on, staged
 * ones) */
static const char *const vpu_ops[] = {
    "add.f32",  "sub.f32",    "mul.f32", "sub.f32 neg", "mac.f32", "mac.f32 neg", "max.f32",
    "min.f32",  "sub.i32 st", "max.i16", "min.u8",      "sub.u16", "shl.i32",     "shr.u16",
    "and.i32",  "or.u16",     "xor.i8",  "sub.i8 st",   "add.i32", "max.i32",     "add.u8 st",
    "add.bf16", "mul.bf16",   "sub.u32", "min.i32",     "xor.u32",
};

/* CONVERT and NEARBYINT (direct: a lane loop of one element size, or the
 * slot's executor; sr stays staged), every mode; the lanes hold tensor
 * data (+-[0.5, 2): ties; random bits: NaN, infinities, beyond every
 * bound) */
static const char *const round_ops[] = {
    "convert.f32 target_type=int32",
    "convert.i32 target_type=fp32",
    "convert.f32 target_type=uint32",
    "convert.u32 target_type=fp32",
    "convert.f32 target_type=int16",
    "convert.f32 target_type=int8",
    "convert.f32 target_type=uint8",
    "convert.f32 target_type=bf16",
    "convert.bf16 target_type=int16",
    "convert.i16 target_type=bf16",
    "convert.i32 target_type=int8",
    "nearbyint.f32",
    "nearbyint.bf16",
};
static const char *const round_modes[] = {"rhne", "rz", "ru", "rd", "rhaz", "sr", ""};

/* One bundle, `left` more to come in the body; wv/wi: registers written
 * so far in it (no conflicts).  direct: only forms with a direct plan
 * (no VPRF predicate on the LD/ST slots, no st_l, no jump: pass left 0),
 * for the loop plans' bodies. */
static void bundle(GString *k, GRand *r, unsigned left, bool direct)
{
    uint64_t wv = 0;
    uint32_t wi = 0;
    bool imm = false, ld_nop = false, sel = false;
    unsigned slm = 4 * pick(r, 8); /* ld_l/st_l's address: the bundle's one immediate */
    bool ldl = false;
    /* (a predicate that is off has no span: a plan's fallback) */
    const char *p = preds[direct ? (pick(r, 3) ? 0 : pick(r, 7)) : pick(r, G_N_ELEMENTS(preds))];
    /* LD */
    unsigned f = pick(r, 11);
    if (f < 6) {
        unsigned v = pick(r, 8);
        wv |= 1ull << v;
        g_string_append_printf(k, "ld_tnsr V%u, 0x%x, I%u%s; ", v, tens(r, direct), 2 + pick(r, 4), p);
    } else if (f < 8) {
        static const unsigned dim1[] = {1, 10, 100, 1000, 10000}; /* one dim, as binary digits */
        unsigned i = 2 + pick(r, 4);
        wi |= 1u << i;
        g_string_append_printf(k, "set_indx I%u, b%05u, S%u%s; ", i, dim1[pick(r, 5)],
                               sidx(r, direct), p);
    } else if (f < 9) {
        /* the load slot's MOV into V (a direct form: the softmax's
         * coefficients), from an SRF or another V the VPU may write */
        unsigned v = pick(r, 8);
        wv |= 1ull << v;
        if (pick(r, 2))
            g_string_append_printf(k, "mov.f32 V%u, S%u%s; ", v, pick(r, 8), p);
        else
            g_string_append_printf(k, "mov.i32 V%u, V%u%s; ", v, pick(r, 8), p);
    } else if (f < 10) {
        /* an SLM word into S20..S23 (st_l below may store to it too) */
        g_string_append_printf(k, "ld_l S%u, 0x%x%s; ", 20 + pick(r, 4), slm, p);
        imm = ldl = true;
    } else {
        g_string_append(k, "nop; ");
        p = ""; /* a NOP has no predicate */
        ld_nop = true;
    }
    /* SPU */
    f = pick(r, 10);
    unsigned i = 2 + pick(r, 4);
    if (f < 4 && !(wi & (1u << i)) && !imm) {
        wi |= 1u << i;
        static const char *const masks[] = {"00001", "00011", "10110", "11111",
                                            "00010", "00100", "01000", "10000"};
        /* half of the values at the interesting edges: 0/1 for the 5-D
         * tensor's small dims, one before and after a vector, -1 */
        static const int edges[] = {-1, 0, 1, 2, 63, 64, 65, 192};
        int step = pick(r, 2) ? edges[pick(r, G_N_ELEMENTS(edges))] : g_rand_int_range(r, -70, 100);
        imm = true;
        if (f & 1)
            g_string_append_printf(k, "add.i32 b%s I%u, 0x%x, I%u%s; ",
                                   masks[pick(r, G_N_ELEMENTS(masks))], i, (uint32_t)step,
                                   2 + pick(r, 4), preds[pick(r, 6)]);
        else
            g_string_append_printf(k, "set_indx I%u, b%s, 0x%x; ", i,
                                   masks[pick(r, G_N_ELEMENTS(masks))], (uint32_t)step);
    } else if (f < 6) {
        g_string_append_printf(k, "cmp_less.i32 SP%u, S%u, S%u; ", 1 + pick(r, 2), pick(r, 8),
                               pick(r, 8));
    } else if (f < 7) {
        /* scalar arithmetic (direct through the SPU's executors) */
        static const char *const sops[] = {"add.i32", "mul.f32", "max.i32", "sub.f32",
                                           "xor.u32", "shl.i32", "mac.f32", "min.i16"};
        unsigned s = 1 + pick(r, 7);
        g_string_append_printf(k, "%s S%u, S%u, S%u; ", sops[pick(r, G_N_ELEMENTS(sops))], s,
                               pick(r, 8), pick(r, 8));
    } else if (f < 8) {
        g_string_append_printf(k, "mov.i32 S%u, S%u%s; ", 1 + pick(r, 7), pick(r, 8),
                               preds[pick(r, 6)]);
    } else if (f < 9 && left >= 1 && !imm) {
        /* a forward jump over 0..2 bundles inside the body (direct: an
         * aligned immediate target), predicated on SPRFs the compares set */
        unsigned skip = 1 + pick(r, left < 3 ? left : 3);
        imm = true; /* the target is the bundle's immediate */
        g_string_append_printf(k, "jmpr 0x%x%s; ", 32 * skip, preds[pick(r, 7)]);
    } else {
        g_string_append(k, "nop; ");
    }
    /* VPU */
    f = pick(r, 12);
    unsigned v = pick(r, 8);
    if (f < 6 && !(wv & (1ull << v))) {
        unsigned o = pick(r, G_N_ELEMENTS(vpu_ops));
        wv |= 1ull << v;
        g_string_append_printf(k, "%s V%u, V%u, ", vpu_ops[o], v, pick(r, 8));
        unsigned b = pick(r, 3);
        if (b == 0)
            g_string_append_printf(k, "V%u", pick(r, 8));
        else if (b == 1 || imm)
            g_string_append_printf(k, "S%u", pick(r, 8));
        else
            g_string_append(k, "0x3fa00000"), imm = true;
        g_string_append_printf(k, "%s; ", preds[pick(r, G_N_ELEMENTS(preds))]);
    } else if (f < 7 && !(wv & (1ull << v))) {
        wv |= 1ull << v;
        g_string_append_printf(k, "mov.i32 V%u, S%u; ", v, pick(r, 8));
    } else if (f < 8) {
        /* a compare into VP1/VP2 (which later bundles are predicated on) */
        static const char *const cmp[] = {"cmp_less.f32", "cmp_geq.i32", "cmp_eq.u16", "cmp_grt.i8"};
        g_string_append_printf(k, "%s VP%u, V%u, V%u%s; ", cmp[pick(r, 4)], 1 + pick(r, 2),
                               pick(r, 8), pick(r, 8), preds[pick(r, G_N_ELEMENTS(preds))]);
    } else if (f < 9 && ld_nop && !(wv & (1ull << v))) {
        /* SRC_C/SRC_D share bits with LD SRC_B and ST SRC_C: both NOPs */
        wv |= 1ull << v;
        sel = true;
        g_string_append_printf(k, "sel_grt.f32 V%u, V%u, V%u, V%u, V%u%s; ", v, pick(r, 8),
                               pick(r, 8), pick(r, 8), pick(r, 8),
                               preds[pick(r, G_N_ELEMENTS(preds))]);
    } else if (f >= 10 && !(wv & (1ull << v))) {
        wv |= 1ull << v;
        g_string_append_printf(k, "%s %s V%u, V%u%s; ", round_ops[pick(r, G_N_ELEMENTS(round_ops))],
                               round_modes[pick(r, G_N_ELEMENTS(round_modes))], v, pick(r, 8),
                               preds[pick(r, G_N_ELEMENTS(preds))]);
    } else {
        g_string_append(k, "nop; ");
    }
    /* ST: same predicate as the LD slot (tpc.md §4.1 shares the field) */
    f = sel ? 13 : pick(r, 13);
    if (f < 5)
        g_string_append_printf(k, "st_tnsr 0x%x, I%u, V%u%s\n", tens(r, direct), 2 + pick(r, 4), pick(r, 8),
                               p);
    else if (f < 6 && !direct) /* a descriptor word rewritten by the kernel (see program) */
        g_string_append_printf(k, "st_l mmio S%u, S%u%s\n", 8 + pick(r, 4), 12 + pick(r, 5), p);
    else if (f < 8 && !(wi & (1u << (i = 2 + pick(r, 4)))))
        g_string_append_printf(k, "set_indx I%u, b%05u, S%u%s\n", i, 10 * pick(r, 2) + 1,
                               sidx(r, direct), p);
    else if (f == 12 && (!imm || ldl))
        /* an SLM word from an S register the LD slot may load */
        g_string_append_printf(k, "st_l 0x%x, S%u%s\n", slm,
                               pick(r, 2) ? 20 + pick(r, 4) : pick(r, 8), p);
    else
        g_string_append(k, "nop\n");
}

/* The kernel's text, assembled by nxemu-as's assembler. */
static GByteArray *assemble(const GString *src)
{
    TpcObject obj;
    tpc_object_init(&obj);
    if (!tpc_assemble_text("random", src->str, &obj, stderr))
        g_error("random kernel did not assemble:\n%s", src->str);
    GByteArray *text = g_byte_array_new();
    g_byte_array_append(text, obj.text->data, obj.text->len);
    tpc_object_free(&obj);
    return text;
}

static GByteArray *kernel(GRand *r, GString *src)
{
    /* a LOOP runs the body 3 times: each decoded bundle meets new register,
     * descriptor and memory contents */
    g_string_assign(src, "nop; nop; cmp_less.i32 VP1, V_LANE_ID_32, 0x25; nop\n"
                         "loop 0x0, 0x3, 1, <, End\nnop\n");
    for (unsigned b = 0; b < NBUNDLE; b++)
        bundle(src, r, NBUNDLE - 1 - b, false);
    g_string_append(src, "End:\nhalt\nnop\nnop\nnop\n");
    return assemble(src);
}

/* The compiled bodies' kernels' start: VP1 from the lane ids, V0..V7
 * loaded from the tensors, the LOOP of trips trips and its delay slot. */
static void jit_head(GString *src, unsigned trips)
{
    g_string_assign(src, "nop; nop; cmp_less.i32 VP1, V_LANE_ID_32, 0x25; nop\n");
    for (unsigned v = 0; v < 8; v++)
        g_string_append_printf(src, "ld_tnsr V%u, 0x%x, I%u; nop; nop; nop\n", v, v % 4, 2 + v % 4);
    g_string_append_printf(src, "loop 0x0, 0x%x, 1, <, End\nnop\n", trips);
}

/* jit_head, and the bundle (of nb) that the load walking t4 into a fault
 * goes with in one body of n, else nb. */
static unsigned jit_walk(GRand *r, GString *src, unsigned trips, unsigned nb, unsigned n)
{
    jit_head(src, trips);
    return pick(r, n) == 0 ? pick(r, nb) : nb;
}

/* A LOOP body of 1 to 30 bundles going round 2 to 40 times, for the block
 * compiler (jit.c): mostly VPU arithmetic of every operand B kind and
 * predicate (vpu_ops; what has a loop stencil runs inline), with LD-slot
 * MOVs into V, the SPU's compares switching SP1/SP2 and scalar adds (calls
 * of the direct executors), and now and then a bundle of bundle()'s direct
 * forms (tensor accesses: a call of the direct path, which leaves the body
 * when a span leaves its tensor or a predicate is off).  The V registers
 * start as tensor data (f32 values, integers, NaNs). */
static GByteArray *jit_kernel(GRand *r, GString *src)
{
    unsigned nb = 1 + pick(r, 30), trips = 2 + pick(r, 39);
    jit_head(src, trips);
    /* now and then a load walking t4 until it faults past the end of HBM
     * (as loop_kernel's), in the middle of a compiled body */
    unsigned walk = pick(r, 3) == 0 ? pick(r, nb) : nb;
    for (unsigned b = 0; b < nb; b++) {
        if (b == walk)
            g_string_append(src, "ld_tnsr V0, 0x4, I6; add.i32 b00001 I6, 0x10, I6; nop; nop\n");
        if (pick(r, 8) == 0) {
            bundle(src, r, 0, true);
            continue;
        }
        unsigned v = pick(r, 8), mv = (v + 1 + pick(r, 7)) % 8;
        if (pick(r, 5) == 0)
            g_string_append_printf(src, "mov.f32 V%u, S%u; ", mv, pick(r, 8));
        else
            g_string_append(src, "nop; ");
        unsigned f = pick(r, 5);
        if (f == 0)
            g_string_append_printf(src, "cmp_less.i32 SP%u, S%u, S%u; ", 1 + pick(r, 2), pick(r, 8),
                                   pick(r, 8));
        else if (f == 1)
            g_string_append_printf(src, "add.i32 S%u, S%u, S%u; ", 1 + pick(r, 7), pick(r, 8),
                                   pick(r, 8));
        else
            g_string_append(src, "nop; ");
        g_string_append_printf(src, "%s V%u, V%u, ", vpu_ops[pick(r, G_N_ELEMENTS(vpu_ops))], v,
                               pick(r, 8));
        unsigned bk = pick(r, 3);
        if (bk == 0)
            g_string_append_printf(src, "V%u", pick(r, 8));
        else if (bk == 1)
            g_string_append_printf(src, "S%u", pick(r, 8));
        else
            g_string_append_printf(src, "0x%x", pick(r, 2) ? 0x3fa00000u : g_rand_int(r));
        g_string_append_printf(src, "%s; nop\n", preds[pick(r, G_N_ELEMENTS(preds))]);
    }
    g_string_append(src, "End:\nhalt\nnop\nnop\nnop\n");
    return assemble(src);
}

/* A LOOP body of 2 to 21 bundles going round 2 to 31 times for the block
 * compiler's MOVs into V (jit.c emit_mov) and its tensor bundles (a call
 * per access with the span checked before the bundle's steps, the store
 * after them): LD- and VPU-slot MOVs from a V register, an S register or
 * an immediate at every element size, under SP and VP predicates (the VP
 * ones call the executor), alone, beside VPU arithmetic, beside a load
 * (gemm's shape) and beside a store of the MAC before it; now and then a
 * load walking t4 until it faults mid-loop.  The MOV's destination is never
 * another slot's. */
static GByteArray *jit_mov_kernel(GRand *r, GString *src)
{
    static const char *const types[] = {".f32", ".i32", ".i16", ".u8", ".bf16", ".u16"};
    static const char *const ldpreds[] = {"", "", ", SP1", ", !SP2", ", VP1"};
    unsigned nb = 2 + pick(r, 20);
    /* (the walking load after bundle walk) */
    unsigned walk = jit_walk(r, src, 2 + pick(r, 30), nb, 3);
    for (unsigned b = 0; b < nb; b++) {
        if (b > 0 && b - 1 == walk)
            g_string_append(src, "ld_tnsr V0, 0x4, I6; add.i32 b00001 I6, 0x10, I6; nop; nop\n");
        unsigned d = pick(r, 8), o = (d + 1 + pick(r, 7)) % 8, k = pick(r, 3);
        char from[16];
        if (k == 0)
            g_snprintf(from, sizeof from, "V%u", pick(r, 8));
        else if (k == 1)
            g_snprintf(from, sizeof from, "S%u", pick(r, 8));
        else
            g_snprintf(from, sizeof from, "0x%x", pick(r, 2) ? 0x3fa00000u : g_rand_int(r));
        const char *t = types[pick(r, G_N_ELEMENTS(types))];
        switch (pick(r, 5)) {
        case 0: /* LD MOV alone or beside VPU arithmetic */
            g_string_append_printf(src, "mov%s V%u, %s%s; nop; ", t, d, from,
                                   ldpreds[pick(r, G_N_ELEMENTS(ldpreds))]);
            if (pick(r, 2))
                g_string_append_printf(src, "%s V%u, V%u, V%u; nop\n",
                                       vpu_ops[pick(r, G_N_ELEMENTS(vpu_ops))], o, pick(r, 8),
                                       pick(r, 8));
            else
                g_string_append(src, "nop; nop\n");
            break;
        case 1: /* VPU MOV */
            g_string_append_printf(src, "nop; nop; mov%s V%u, %s%s; nop\n", t, d, from,
                                   preds[pick(r, G_N_ELEMENTS(preds))]);
            break;
        case 2: /* beside a load */
            g_string_append_printf(src, "ld_tnsr V%u, 0x%x, I%u; nop; mov%s V%u, %s%s; nop\n", o,
                                   tens(r, true), 2 + pick(r, 4), t, d, from, preds[pick(r, 4)]);
            break;
        case 3: /* a MAC and a store of the register it writes */
            g_string_append_printf(src, "nop; nop; mac.f32 V%u, V%u, S%u; st_tnsr 0x%x, I%u, V%u\n",
                                   d, o, pick(r, 8), tens(r, true), 2 + pick(r, 4), d);
            break;
        default: /* an LD MOV beside a store and a VPU MOV */
            g_string_append_printf(
                src, "mov%s V%u, %s; nop; mov.f32 V%u, S%u; st_tnsr 0x%x, I%u, V%u\n", t, d, from,
                o, pick(r, 8), tens(r, true), 2 + pick(r, 4), pick(r, 8));
            break;
        }
    }
    g_string_append(src, "End:\nhalt\nnop\nnop\nnop\n");
    return assemble(src);
}

/* An SPU scalar op for jit_spu_kernel: every opcode with a lane-ops.def
 * row, integer ADD with its carry and the compares, at every type, with
 * the switches each allows; A an S register of S24..S31 (edge values:
 * extremes, NaN, infinities, sign bits of each width), B one of them or an
 * immediate (shift counts at and past the width, extremes, a NaN) or none
 * (ABS, NOT); an S result in S24..S29, a compare's in SP1..SP3. */
static void spu_op(GString *k, GRand *r, const char *pred)
{
    static const char *const types[] = {"f32", "bf16", "i32", "u32", "i16", "u16", "i8", "u8"};
    static const char *const bin[] = {"add", "sub", "mul", "mac", "max", "min", "or",
                                      "and", "xor", "shr", "shl", "ash", "abs", "not"};
    static const char *const cmps[] = {"cmp_eq",  "cmp_neq", "cmp_less",
                                       "cmp_leq", "cmp_grt", "cmp_geq"};
    static const uint32_t imms[] = {0,           1,           7,           8,           15,
                                    16,          31,          32,          33,          0xFFFFFFFFu,
                                    0x7FFFFFFFu, 0x80000000u, 0x7FC00001u, 0x3F800000u, 0xFF80u};
    unsigned ti = pick(r, G_N_ELEMENTS(types));
    bool is_int = ti >= 2;
    const char *t = types[ti];
    char b[16];
    if (pick(r, 2))
        g_snprintf(b, sizeof b, "S%u", 24 + pick(r, 8));
    else
        g_snprintf(b, sizeof b, "0x%x",
                   pick(r, 4) ? imms[pick(r, G_N_ELEMENTS(imms))] : g_rand_int(r));
    if (pick(r, 4) == 0) {
        const char *op = cmps[pick(r, G_N_ELEMENTS(cmps))];
        bool mez = !strcmp(op, "cmp_eq") && pick(r, 2);
        g_string_append_printf(k, "%s.%s%s SP%u, S%u, %s%s; ", op, t, mez ? " mask_eq_zero" : "",
                               1 + pick(r, 3), 24 + pick(r, 8), b, pred);
        return;
    }
    const char *op = bin[pick(r, G_N_ELEMENTS(bin))];
    if (!strcmp(op, "ash") && !is_int)
        op = "shl";
    const char *sw = "";
    unsigned w = pick(r, 4);
    if (!strcmp(op, "add") && is_int)
        sw = w == 0 ? " st" : w == 1 ? " carry" : w == 2 ? " st carry" : "";
    else if (!strcmp(op, "sub") || !strcmp(op, "mac"))
        sw = w == 0 && is_int ? " st" : w == 1 ? " neg" : "";
    else if (!strcmp(op, "mul") && (ti == 2 || ti == 3))
        sw = w == 0 ? " upper32" : "";
    else if (!strcmp(op, "ash"))
        sw = w == 0 ? " rhu" : "";
    if (ti == 1 && (!strcmp(op, "mul") || !strcmp(op, "mac")) && pick(r, 2))
        sw = !strcmp(op, "mac") && w == 1 ? " acc_fp32 neg" : " acc_fp32";
    unsigned d = 24 + pick(r, 6), a = 24 + pick(r, 8);
    if (!strcmp(op, "abs") || !strcmp(op, "not"))
        g_string_append_printf(k, "%s.%s S%u, S%u%s; ", op, t, d, a, pred);
    else
        g_string_append_printf(k, "%s.%s%s S%u, S%u, %s%s; ", op, t, sw, d, a, b, pred);
}

/* A LOOP body of 1 to 30 bundles going round 2 to 40 times for the block
 * compiler's SPU stencils (jit.c emit_spu): spu_op in most bundles under
 * no, SP and negated SP predicates (the compares switch SP1..SP3), beside
 * a VPU MAC broadcasting an S register the SPU ops write (its image
 * rebuilt when the value changes) and SET_INDX in the load, SPU and store
 * slots from an S register or an immediate; now and then one of
 * bundle()'s direct forms (tensor accesses, which leave the body when
 * those coordinates take their spans off the tensor). */
static GByteArray *jit_spu_kernel(GRand *r, GString *src)
{
    static const char *const spreds[] = {"", "", "", ", SP1", ", !SP2", ", SP3", ", !SP0"};
    static const uint32_t init[] = {0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFFu, 0x7FC00001u,
                                    0xFF800000u, 0x00008000u, 0x0000007Fu, 0x3FC00000u};
    unsigned nb = 1 + pick(r, 30), trips = 2 + pick(r, 39);
    jit_head(src, trips);
    GString *pro = g_string_new(NULL);
    for (unsigned i = 0; i < 8; i++)
        g_string_append_printf(pro, "nop; mov.i32 S%u, 0x%x; nop; nop\n", 24 + i,
                               pick(r, 3) ? init[i] : g_rand_int(r));
    g_string_prepend(src, pro->str);
    g_string_free(pro, TRUE);
    for (unsigned b = 0; b < nb; b++) {
        unsigned f = pick(r, 8);
        if (f == 0) {
            bundle(src, r, 0, true);
            continue;
        }
        if (f == 1) {
            /* SET_INDX in the load and store slots (one predicate) and the SPU */
            const char *p = spreds[pick(r, G_N_ELEMENTS(spreds))];
            g_string_append_printf(src, "set_indx I%u, b%05u, S%u%s; ", 2 + pick(r, 2),
                                   pick(r, 2) ? 1 : 10011, 24 + pick(r, 8), p);
            g_string_append_printf(src, "set_indx I4, b00010, 0x%x%s; nop; ", pick(r, 4),
                                   spreds[pick(r, G_N_ELEMENTS(spreds))]);
            g_string_append_printf(src, "set_indx I5, b%05u, S%u%s\n", pick(r, 2) ? 100 : 10001,
                                   24 + pick(r, 8), p);
            continue;
        }
        g_string_append(src, "nop; ");
        spu_op(src, r, spreds[pick(r, G_N_ELEMENTS(spreds))]);
        if (pick(r, 2))
            g_string_append_printf(src, "mac.f32 V%u, V%u, S%u%s; nop\n", pick(r, 8), pick(r, 8),
                                   24 + pick(r, 8), preds[pick(r, 5)]);
        else
            g_string_append(src, "nop; nop\n");
    }
    g_string_append(src, "End:\nhalt\nnop\nnop\nnop\n");
    return assemble(src);
}

/* Bodies with jumps for the block compiler's branches (jit.c BR): each
 * bundle labelled, VPU arithmetic under every predicate (VP1 set before
 * the loop, VP2 by a VPU compare in the body, the two flipping with the
 * data), SPU compares switching SP1/SP2 (some from the iterator's parity:
 * taken on some trips, not on others) and jmpr forward inside the body,
 * to the loop's end and out of the loop, taken or not, predicated or not;
 * backward jumps behind a counter (S9 up to a bound: each goes back to or
 * before the bundle that counts).  Now and then the load walking t4 into
 * a fault.  Slices of 1, 7, 64 and 1000 bundles end at and around the
 * jumps and their targets. */
static GByteArray *jit_br_kernel(GRand *r, GString *src)
{
    static const char *const jpreds[] = {"", ", SP1", ", !SP1", ", SP2", ", !SP2", ", SP3"};
    static const char *const vps[] = {"", ", VP1", ", !VP1", ", VP2", ", !VP2"};
    unsigned nb = 3 + pick(r, 20);
    unsigned walk = jit_walk(r, src, 2 + pick(r, 30), nb, 4);
    /* a backward jump at back (behind its counter at back - 1) */
    unsigned back = nb > 4 && pick(r, 2) ? 2 + pick(r, nb - 2) : nb;
    for (unsigned b = 0; b < nb; b++) {
        g_string_append_printf(src, "B%u:\n", b);
        if (b == walk) {
            g_string_append(src, "ld_tnsr V0, 0x4, I6; add.i32 b00001 I6, 0x10, I6; nop; nop\n");
            continue;
        }
        if (b + 1 == back) {
            g_string_append_printf(src, "nop; add.i32 S9, S9, 0x1; nop; nop\n");
            continue;
        }
        g_string_append(src, "nop; ");
        if (b == back) {
            g_string_append_printf(src, "jmpr B%u, SP3; ", pick(r, b));
        } else {
            switch (pick(r, 8)) {
            case 0:
            case 1: { /* forward, to the loop's end, or out of the loop */
                unsigned t = b + 1 + pick(r, nb - b + 1);
                if (t < nb)
                    g_string_append_printf(src, "jmpr B%u%s; ", t,
                                           jpreds[pick(r, G_N_ELEMENTS(jpreds))]);
                else
                    g_string_append_printf(src, "jmpr %s%s; ", t == nb ? "End" : "Out",
                                           jpreds[1 + pick(r, G_N_ELEMENTS(jpreds) - 1)]);
                break;
            }
            case 2: /* the iterator's parity */
                g_string_append_printf(src, "and.i32 S8, S32, 0x%x; ", 1u << pick(r, 2));
                break;
            case 3:
                g_string_append_printf(src, "cmp_eq.i32 SP%u, S8, 0x0; ", 1 + pick(r, 2));
                break;
            case 4:
                g_string_append_printf(src, "cmp_less.i32 SP3, S9, 0x%x; ", 2 + pick(r, 40));
                break;
            case 5:
                g_string_append_printf(src, "cmp_less.i32 SP%u, S%u, S%u; ", 1 + pick(r, 2),
                                       pick(r, 8), pick(r, 8));
                break;
            default:
                g_string_append(src, "nop; ");
                break;
            }
        }
        unsigned v = pick(r, 8);
        if (pick(r, 4) == 0)
            g_string_append_printf(src, "cmp_less.f32 VP2, V%u, V%u; nop\n", v, pick(r, 8));
        else
            g_string_append_printf(
                src, "%s V%u, V%u, %s%u%s; nop\n", vpu_ops[pick(r, G_N_ELEMENTS(vpu_ops))], v,
                pick(r, 8), pick(r, 2) ? "V" : "S", pick(r, 8), vps[pick(r, G_N_ELEMENTS(vps))]);
    }
    /* (SP3 starts false: a backward jump before any compare falls through) */
    g_string_append(src, "End:\nhalt\nnop\nnop\nnop\n"
                         "Out:\nnop; add.i32 S10, S10, 0x7; nop; nop\nhalt\nnop\nnop\nnop\n");
    return assemble(src);
}

/* A short LOOP body of direct forms going round many times, alone or
 * nested in an outer loop, for the loop plans (cpu-direct.c
 * tpc_enter_loop_plan): the coordinates the SPU steps move the spans until
 * they leave the tensor, fault (t4) or a compare switches a predicate
 * off, mid-loop. */
static GByteArray *loop_kernel(GRand *r, GString *src)
{
    unsigned nb = 1 + pick(r, 4), trips = 2 + pick(r, 40);
    bool nest = pick(r, 3) == 0;
    g_string_assign(src, "nop; nop; cmp_less.i32 VP1, V_LANE_ID_32, 0x25; nop\n");
    if (nest)
        g_string_append(src, "loop 0x0, 0x3, 1, <, End2\nnop\n"
                             "nop; add.i32 b00001 I2, 0x1, I2; nop; nop\n");
    g_string_append_printf(src, "loop 0x0, 0x%x, 1, <, End\nnop\n", trips);
    /* now and then a load walking t4 (16 lanes a trip) until it faults past
     * the end of HBM, at the 6th trip */
    unsigned walk = pick(r, 3) == 0 ? pick(r, nb) : nb;
    for (unsigned b = 0; b < nb; b++) {
        if (b == walk)
            g_string_append(src, "ld_tnsr V0, 0x4, I6; add.i32 b00001 I6, 0x10, I6; nop; nop\n");
        bundle(src, r, 0, pick(r, 8) != 0); /* now and then one without a plan */
    }
    g_string_append(src, nest ? "End:\nnop\nEnd2:\nhalt\nnop\nnop\nnop\n"
                              : "End:\nhalt\nnop\nnop\nnop\n");
    return assemble(src);
}

/* A LOOP body whose tensor coordinates move by constants each trip, for
 * the loop plans' span hoisting (cpu-direct.c loop_hoist): loads walking
 * by in-place IRF adds of either sign, stores at the loop's iterator
 * (SET_INDX from S32, or S33 when nested), now and then a random direct
 * bundle (which may write registers that make the body not hoistable).
 * The walks leave their tensors (the general path's partial access) or,
 * on t4, the memory (a fault) at some trip, so the hoisted trips must end
 * exactly where the checked ones would. */
/* Bodies hoisting must refuse or stop in time, each a case the checks
 * exist for (a hoisted access outside them reads or writes other tensors'
 * bytes, which the comparison sees; checked by breaking each check):
 * a load walking over t0's end, its values stored; a store walking below
 * t2's start; a store at the loop's iterator (step 16) over t0's end; a
 * load whose coordinate rotates through IRF copies with period 3 (0x40,
 * 0x10, 0x10: two trips seem not to move, the third does); a walk at the
 * default quantum's slices; a load leaving the memory inside its tensor
 * (a fault); a predicate a compare in the body switches off; the loop's
 * iterator added to a coordinate (which then moves by more each trip); a
 * SET_INDX from an S register the body flips between two values. */
static const char *const hoist_fixed[] = {
    "nop; set_indx I6, b00001, 0xB0; nop; nop\n"
    "loop 0x0, 0x28, 1, <, End\nnop\n"
    "ld_tnsr V1, 0x0, I6; add.i32 b00001 I6, 0x1, I6; nop; nop\n"
    "set_indx I7, b00001, S32; nop; nop; st_tnsr 0x2, I7, V1\n",
    "nop; set_indx I6, b00001, 0x14; nop; nop\n"
    "loop 0x0, 0x30, 1, <, End\nnop\n"
    "nop; add.i32 b00001 I6, 0xffffffff, I6; nop; st_tnsr 0x2, I6, V1\n",
    "loop 0x0, 0x180, 0x10, <, End\nnop\n"
    "set_indx I7, b00001, S32; nop; add.f32 V5, V5, S1; st_tnsr 0x0, I7, V5\n",
    "nop; set_indx I3, b00001, 0x10; nop; nop\n"
    "nop; set_indx I5, b00001, 0x10; nop; nop\n"
    "nop; set_indx I6, b00001, 0x40; nop; nop\n"
    "loop 0x0, 0x60, 1, <, End\nnop\n"
    "ld_tnsr V1, 0x0, I6; add.i32 b00001 I4, 0x0, I5; nop; nop\n"
    "set_indx I7, b00001, S32; add.i32 b00001 I5, 0x0, I6; nop; st_tnsr 0x2, I7, V1\n"
    "nop; add.i32 b00001 I6, 0x0, I3; nop; nop\n"
    "nop; add.i32 b00001 I3, 0x0, I4; nop; nop\n",
    "nop; set_indx I6, b00001, 0x80; nop; nop\n"
    "loop 0x0, 0x50, 1, <, End\nnop\n"
    "ld_tnsr V1, 0x2, I6; add.i32 b00001 I6, 0x3, I6; nop; nop\n"
    "set_indx I7, b00001, S32; nop; nop; st_tnsr 0x0, I7, V1\n",
    /* t4 leaves the memory at dim-0 coordinate 65, within its bounds */
    "nop; set_indx I6, b00001, 0x30; nop; nop\n"
    "loop 0x0, 0x28, 1, <, End\nnop\n"
    "ld_tnsr V1, 0x4, I6; add.i32 b00001 I6, 0x1, I6; nop; nop\n"
    "set_indx I7, b00001, S32; nop; nop; st_tnsr 0x2, I7, V1\n",
    /* a compare in the body switches the load's predicate off at trip 9 */
    "nop; set_indx I6, b00001, 0x10; nop; nop\n"
    "loop 0x0, 0x28, 1, <, End\nnop\n"
    "ld_tnsr V1, 0x0, I6, SP1; cmp_less.i32 SP1, S32, 0x8; nop; nop\n"
    "set_indx I7, b00001, S32; add.i32 b00001 I6, 0x1, I6; nop; st_tnsr 0x2, I7, V1\n",
    /* the loop's iterator added to a coordinate: it moves by more every trip */
    "nop; set_indx I6, b00001, 0x10; nop; nop\n"
    "loop 0x0, 0x10, 1, <, End\nnop\n"
    "ld_tnsr V1, 0x0, I6; add.i32 b00001 I6, S32, I6; nop; nop\n"
    "set_indx I7, b00001, S32; nop; nop; st_tnsr 0x2, I7, V1\n",
    /* the S register a SET_INDX reads alternates in the body (6, 7, 6...) */
    "loop 0x0, 0x28, 1, <, End\nnop\n"
    "set_indx I7, b00001, S2; xor.i32 S2, S2, 0x1; nop; st_tnsr 0x2, I7, V1\n"
    "ld_tnsr V1, 0x0, I7; nop; add.f32 V2, V1, S1; nop\n",
};
/* their slices (the rotation's and the flip's at many phases) */
static const unsigned hoist_fixed_slice[G_N_ELEMENTS(hoist_fixed)] = {1000, 1000, 1000, 64, 64,
                                                                    1000, 1000, 1000, 64};

static GByteArray *hoist_kernel(GRand *r, GString *src, unsigned n)
{
    if (n < G_N_ELEMENTS(hoist_fixed)) {
        g_string_printf(src, "%sEnd:\nhalt\nnop\nnop\nnop\n", hoist_fixed[n]);
        return assemble(src);
    }
    /* (mostly the long 1-D t0 and t2: walks of many trips) */
    static const uint8_t tl[] = {0, 2, 0, 2, 0, 2, 3, 4, 1, 6};
    static const char *const masks[] = {"00001", "00001", "00010", "00011", "00100", "10001"};
    static const uint32_t steps[] = {1, 1, 2, 3, 0xFFFFFFFF, 0xFFFFFFFF, 0x10, 0x40, 0xFFFFFFC0};
    unsigned nb = 1 + pick(r, 3), trips = 3 + pick(r, 80), lstep = pick(r, 3) ? 1 : 0x10;
    bool nest = pick(r, 3) == 0;
    unsigned it = nest ? 33 : 32;
    g_string_assign(src, "nop; nop; cmp_less.i32 VP1, V_LANE_ID_32, 0x25; nop\n");
    /* start the walks inside their tensors, some way in (negative steps) */
    g_string_append_printf(src, "nop; set_indx I6, b00001, S%u; nop; nop\n", 2 * pick(r, 4));
    /* from 16..37 in, or near t0's or t2's last whole register (192,
     * 384), so walks up cross the end, into other tensors' bytes */
    static const unsigned starts[] = {0x10, 0x10, 0xA8, 0x168};
    g_string_append_printf(src, "nop; add.i32 b00001 I6, 0x%x, I6; nop; nop\n",
                           starts[pick(r, G_N_ELEMENTS(starts))]);
    if (nest)
        g_string_append(src, "loop 0x0, 0x2, 1, <, End2\nnop\n");
    g_string_append_printf(src, "loop 0x0, 0x%x, 0x%x, <, End\nnop\n", trips * lstep, lstep);
    for (unsigned b = 0; b < nb; b++) {
        switch (pick(r, 6)) {
        case 0:
        case 1:
            g_string_append_printf(src, "ld_tnsr V%u, 0x%x, I6; add.i32 b%s I6, 0x%x, I6; nop; nop\n",
                                   pick(r, 4), tl[pick(r, sizeof(tl))], masks[pick(r, 6)],
                                   steps[pick(r, G_N_ELEMENTS(steps))]);
            break;
        case 2:
            g_string_append_printf(src,
                                   "set_indx I7, b00001, S%u; nop; add.f32 V5, V%u, S1; "
                                   "st_tnsr 0x%x, I7, V%u\n",
                                   it, pick(r, 4), tl[pick(r, sizeof(tl))], 4 + pick(r, 2));
            break;
        case 3:
        case 4:
            g_string_append_printf(src, "nop; add.i32 b00010 I7, 0x1, I7; nop; st_tnsr 0x%x, I7, V%u\n",
                                   tl[pick(r, sizeof(tl))], pick(r, 4));
            break;
        default:
            bundle(src, r, 0, true);
            break;
        }
    }
    g_string_append(src, nest ? "End:\nnop\nEnd2:\nhalt\nnop\nnop\nnop\n"
                              : "End:\nhalt\nnop\nnop\nnop\n");
    return assemble(src);
}

/* ---- one run and its final state ---- */

typedef struct State {
    uint32_t status, fault_pc, fault_addr, bundles;
    /* the bundles each slice ran and the pc it stopped at, hashed: every
     * path ends a slice at the same bundle (vtime and the other cores'
     * interleaving depend on it) */
    uint64_t slices;
    uint64_t cycles, retired; /* the core's counters (virtual time) */
    uint32_t s[TPC_NR_S];
    uint8_t sp[TPC_NR_SP];
    uint8_t v[TPC_NR_V][TPC_VBYTES];
    uint8_t vp[TPC_NR_VP][TPC_VPBYTES];
    int32_t irf[TPC_NR_I][5];
    uint8_t mem[2][0x3000];
} State;

/* MODE_DEBUGGER: attached with a TPC breakpoint that is never reached
 * (the core keeps its fast loop, which compares each pc with it);
 * MODE_STAGED: a watchpoint on a word no kernel touches, which puts every
 * bundle through the general (staged) path: the reference. */
/* MODE_TRACED: -d commit and -d exec on (both observe the direct loop).
 * MODE_STATS: -d stats alone, which must leave the engine as it is.
 * MODE_JIT: the block compiler on for every body it can compile
 * (NXEMU_TPC_JIT=all), every eighth kernel with an arena of 1 KiB, which
 * holds few bodies (flushed, and then the loop plans run them), every
 * eighth with 4 KiB. */
enum { MODE_PLAIN, MODE_OBSERVED, MODE_TRACED, MODE_STATS, MODE_JIT, MODE_DEBUGGER, MODE_STAGED };

static void nop_hook(void *opaque, uint64_t addr, unsigned size, bool is_write, MemTxAttrs attrs) {}

/* bundles the last run_mode ran by loop plans (TpcExec.loop_total), and
 * of them with hoisted tensor spans (hoist_total) */
static uint64_t last_loop_bundles, last_hoist_bundles;
/* and by compiled bodies (TpcExec.jit_total) */
static uint64_t last_jit_bundles;

/* slice: bundles per cpu->ops->run call */
static void run_mode(const GByteArray *text, guint32 seed, int mode, unsigned slice, State *st)
{
    Machine *m = tt_machine();
    GRand *r = g_rand_new_with_seed(seed);
    program(m, text, r);
    g_rand_free(r);
    NxDebug *d = NULL;
    if (mode == MODE_OBSERVED)
        g_assert_true(as_add_access_hook(m->as, nop_hook, NULL));
    NxTrace *tr = NULL;
    GString *commits = NULL;
    FILE *devnull = NULL;
    if (mode == MODE_TRACED) {
        GError *err = NULL;
        NxTraceOptions o = {.commit = true};
        tr = trace_new(m, &o, &err);
        g_assert_no_error(err);
        commits = g_string_new(NULL);
        trace_set_commit_output(tr, commits);
        devnull = fopen("/dev/null", "w");
        g_assert_nonnull(devnull);
        m->log.file = devnull;
        m->log.mask |= NX_LOG_EXEC;
    }
    if (mode == MODE_STATS) {
        GError *err = NULL;
        NxTraceOptions o = {.stats = true};
        tr = trace_new(m, &o, &err);
        g_assert_no_error(err);
    }
    if (mode == MODE_DEBUGGER || mode == MODE_STAGED) {
        d = nx_debug_new(m);
        m->debug = d;
    }
    uint64_t pcs[8];
    if (mode == MODE_DEBUGGER) {
        g_assert_true(nx_debug_bp_insert(d, m->tpc[0], 0xFFFFFFE0u));
        g_assert_cmpint(nx_debug_cpu_breakpoints(m, m->tpc[0], pcs, 8), ==, 1);
    }
    if (mode == MODE_STAGED)
        g_assert_true(nx_debug_wp_insert(d, m->tpc[0], NX_HIT_WATCH, 0x3000000, 0x3000000, 4));
    g_assert_true(nx_debug_needs_steps(m, m->tpc[0]) == (mode >= MODE_DEBUGGER));
    g_assert_true((nx_debug_cpu_breakpoints(m, m->tpc[0], pcs, 8) < 0) == (mode == MODE_STAGED));
    tt_wr32(m, TPC0 + 0x1008, 1);
    NxCpu *cpu = m->tpc[0];
    TpcCpu *c = tpc_cpu(cpu);
    c->x.jit_on = mode == MODE_JIT ? 2 : 0;
    uint64_t slices = 0;
    for (unsigned n = 0; n < 100000 && cpu->state == CPU_RUNNING; n++) {
        uint64_t used = cpu->ops->run(cpu, slice); /* odd slices: bundles straddle slice ends */
        g_assert_cmpuint(used, <=, slice);
        slices = slices * 1000003u + used * 65537u + c->pc;
    }
    g_assert_cmpint(cpu->state, !=, CPU_RUNNING);
    last_loop_bundles = c->x.loop_total;
    last_hoist_bundles = c->x.hoist_total;
    last_jit_bundles = c->x.jit_total;
    memset(st, 0, sizeof(*st));
    st->slices = slices;
    st->cycles = c->cycles;
    st->retired = cpu->retired;
    st->status = tt_rd32(m, TPC0 + 0x100C);
    st->fault_pc = tt_rd32(m, TPC0 + 0x1020);
    st->fault_addr = tt_rd32(m, TPC0 + 0x1030);
    st->bundles = tt_rd32(m, TPC0 + 0x1038);
    memcpy(st->s, c->s, sizeof(st->s));
    memcpy(st->sp, c->sp, sizeof(st->sp));
    for (unsigned i = 0; i < TPC_NR_V; i++)
        memcpy(st->v[i], c->v[i], TPC_VBYTES);
    memcpy(st->vp, c->vp, sizeof(st->vp));
    memcpy(st->irf, c->irf, sizeof(st->irf));
    if (d) {
        m->debug = NULL;
        nx_debug_free(d);
    }
    if (tr && !commits) {
        trace_free(tr);
    } else if (tr) {
        /* one commit line per retired bundle (a faulting one adds an F line) */
        unsigned lines = 0;
        for (const char *q = commits->str; (q = strchr(q, '\n')); q++)
            lines++;
        g_assert_cmpuint(lines, >=, st->bundles);
        g_assert_cmpuint(lines, <=, st->bundles + 1);
        trace_free(tr);
        g_string_free(commits, TRUE);
        m->log.mask &= ~(uint32_t)NX_LOG_EXEC;
        m->log.file = NULL;
        fclose(devnull);
    }
    if (mode == MODE_OBSERVED)
        as_remove_access_hook(m->as, nop_hook, NULL);
    uint64_t bad;
    for (unsigned w = 0; w < G_N_ELEMENTS(windows); w++)
        g_assert_cmpint(
            as_rw_bytes(m->as, windows[w].base, st->mem[w], windows[w].len, false, DBG, &bad), ==,
            MEMTX_OK);
    machine_free(m);
}

static void compare(const State *a, const State *b, const char *what, const GString *src)
{
    if (!memcmp(a, b, sizeof(*a)))
        return;
    const char *part = a->status != b->status                   ? "STATUS"
                       : a->fault_pc != b->fault_pc             ? "FAULT_PC"
                       : a->fault_addr != b->fault_addr         ? "FAULT_ADDR"
                       : a->bundles != b->bundles               ? "BUNDLES"
                       : a->slices != b->slices                 ? "slice ends"
                       : a->cycles != b->cycles                 ? "cycles"
                       : a->retired != b->retired               ? "retired"
                       : memcmp(a->s, b->s, sizeof(a->s))       ? "SRF"
                       : memcmp(a->sp, b->sp, sizeof(a->sp))    ? "SPRF"
                       : memcmp(a->v, b->v, sizeof(a->v))       ? "VRF"
                       : memcmp(a->vp, b->vp, sizeof(a->vp))    ? "VPRF"
                       : memcmp(a->irf, b->irf, sizeof(a->irf)) ? "IRF"
                                                                : "memory";
    g_error("fast path and %s differ in %s (status 0x%x / 0x%x) for:\n%s", what, part, a->status,
            b->status, src->str);
}

/* Every kernel of one generator in every mode, against the plain run.
 * loops: the loop-plan kernels, run in slices of 1, 7 or 1000 bundles (a
 * plan stops at a slice's end); the plain run must use the plans, the
 * traced and staged runs must not (the observed one may, for bodies
 * without tensor accesses). */
enum {
    GEN_RANDOM,
    GEN_LOOPS,
    GEN_HOIST,
    GEN_JIT,
    GEN_JIT_MOV,
    GEN_JIT_HOIST,
    GEN_JIT_SPU,
    GEN_JIT_BR
};

static void differential(int gen, guint32 seed0)
{
    /* TPC_FAST_DIFF_SEED / TPC_FAST_DIFF_N: a longer soak by hand */
    const char *es = g_getenv("TPC_FAST_DIFF_SEED"), *en = g_getenv("TPC_FAST_DIFF_N");
    unsigned nkern = en ? (unsigned)g_ascii_strtoull(en, NULL, 0)
                     : gen == GEN_HOIST || gen == GEN_JIT_HOIST ? 2 * NKERN
                     : gen >= GEN_JIT                           ? 4 * NKERN
                                                                : NKERN;
    GRand *r = g_rand_new_with_seed(es ? (guint32)g_ascii_strtoull(es, NULL, 0) : seed0);
    GString *src = g_string_new(NULL);
    State *a = g_new(State, 1), *b = g_new(State, 1);
    unsigned faults = 0, fused = 0, hoisted = 0, jit_kernels = 0, flushes0 = tpc_jit_flushes;
    unsigned inl0 = tpc_jit_inlined;
    uint64_t jit_bundles = 0, jit_hoisted = 0;
    unsigned jit_hoist_kernels = 0;
    uint64_t fused_bundles = 0, hoisted_bundles = 0;
    static const unsigned slices[] = {7, 1, 1000, 7}, hslices[] = {1000, 64, 1000, 7},
                          jslices[] = {1000, 64, 1000, 7}, jhslices[] = {1, 7, 64, 1000},
                          sslices[] = {1, 7, 64, 1000}, brslices[] = {1000, 64, 7, 1};
    for (unsigned n = 0; n < nkern; n++) {
        bool loops = gen != GEN_RANDOM;
        GByteArray *text = gen == GEN_HOIST || gen == GEN_JIT_HOIST ? hoist_kernel(r, src, n)
                           : gen == GEN_LOOPS                       ? loop_kernel(r, src)
                           : gen == GEN_JIT                         ? jit_kernel(r, src)
                           : gen == GEN_JIT_MOV                     ? jit_mov_kernel(r, src)
                           : gen == GEN_JIT_SPU                     ? jit_spu_kernel(r, src)
                           : gen == GEN_JIT_BR                      ? jit_br_kernel(r, src)
                                                                    : kernel(r, src);
        guint32 seed = g_rand_int(r);
        /* (hoisting needs slices of a few trips: the default quantum, 64) */
        unsigned sl = gen == GEN_JIT_HOIST ? jhslices[n % G_N_ELEMENTS(jhslices)]
                      : gen == GEN_HOIST
                          ? (n < G_N_ELEMENTS(hoist_fixed) ? hoist_fixed_slice[n]
                                                           : hslices[n % G_N_ELEMENTS(hslices)])
                      : gen == GEN_JIT_SPU ? sslices[n % G_N_ELEMENTS(sslices)]
                      : gen == GEN_JIT_BR  ? brslices[n % G_N_ELEMENTS(brslices)]
                      : gen >= GEN_JIT     ? jslices[n % G_N_ELEMENTS(jslices)]
                      : loops              ? slices[n % G_N_ELEMENTS(slices)]
                                           : 7;
        run_mode(text, seed, MODE_PLAIN, sl, a);
        uint64_t plain_loops = last_loop_bundles, a_hoist = last_hoist_bundles;
        faults += (a->status & 3) == 3;
        fused += last_loop_bundles != 0;
        fused_bundles += last_loop_bundles;
        hoisted += last_hoist_bundles != 0;
        if (last_hoist_bundles && g_getenv("SHOWH"))
            g_printerr("hoisted %u, slice %u:\n%s\n", (unsigned)last_hoist_bundles, sl, src->str);
        hoisted_bundles += last_hoist_bundles;
        if (loops && (gen == GEN_HOIST ? !last_hoist_bundles : !last_loop_bundles) && g_getenv("SHOWNF"))
            g_printerr("slice %u status %x loops %u:\n%s\n", sl, a->status, (unsigned)last_loop_bundles, src->str);
        run_mode(text, seed, MODE_OBSERVED, sl, b);
        compare(a, b, "the observed run", src);
        run_mode(text, seed, MODE_TRACED, sl, b);
        compare(a, b, "the traced run (-d commit, -d exec)", src);
        g_assert_cmpuint(last_loop_bundles, ==, 0);
        run_mode(text, seed, MODE_STATS, sl, b);
        compare(a, b, "the run under -d stats", src);
        g_assert_cmpuint(b->slices, ==, a->slices);
        g_assert_cmpuint(last_loop_bundles, ==, plain_loops); /* the same engine */
        g_assert_cmpuint(last_hoist_bundles, ==, a_hoist);
        if (tpc_jit_available()) {
            tpc_jit_arena_bytes = n % 8 == 1 ? 1024 : n % 8 == 3 ? 4096 : 1u << 20;
            run_mode(text, seed, MODE_JIT, sl, b);
            compare(a, b, "the compiled run (NXEMU_TPC_JIT=all)", src);
            jit_kernels += last_jit_bundles != 0;
            jit_bundles += last_jit_bundles;
            jit_hoist_kernels += last_hoist_bundles != 0;
            jit_hoisted += last_hoist_bundles;
        }
        run_mode(text, seed, MODE_DEBUGGER, sl, b);
        compare(a, b, "the debugger's run", src);
        run_mode(text, seed, MODE_STAGED, sl, b);
        compare(a, b, "the staged run (a watchpoint set)", src);
        g_assert_cmpuint(last_loop_bundles, ==, 0);
        g_byte_array_free(text, TRUE);
    }
    g_test_message("%u of %u kernels faulted, %u ran %" PRIu64 " bundles by loop plans, %u %" PRIu64
                   " of them with hoisted spans",
                   faults, nkern, fused, fused_bundles, hoisted, hoisted_bundles);
    g_test_message("%u kernels ran %" PRIu64 " bundles by compiled bodies, %u arena flushes, "
                   "%u steps compiled inline",
                   jit_kernels, jit_bundles, tpc_jit_flushes - flushes0, tpc_jit_inlined - inl0);
    g_test_message("%u kernels ran %" PRIu64 " compiled bundles with hoisted spans",
                   jit_hoist_kernels, jit_hoisted);
    /* the loop kernels' bodies are compiled (on x86-64 with AVX2 and FMA),
     * with VPU steps inline, and the small arenas fill */
    if (gen != GEN_RANDOM && !en && tpc_jit_available()) {
        g_assert_cmpuint(jit_kernels, >, nkern / 5);
        if (gen == GEN_JIT || gen == GEN_JIT_MOV || gen == GEN_JIT_BR) {
            /* (bodies with jumps: most of their VPU steps are predicated) */
            g_assert_cmpuint(tpc_jit_inlined - inl0, >, gen == GEN_JIT_BR ? nkern / 4 : 4u * nkern);
            g_assert_cmpuint(tpc_jit_flushes - flushes0, >, 0);
        }
    }
    /* many bodies have plans that go round more than once (others leave
     * at once: a span off its tensor or a predicate off, every trip) */
    if (gen != GEN_RANDOM && gen < GEN_JIT && !en)
        g_assert_cmpuint(fused, >, nkern / 5);
    /* and the coordinate walks' are hoisted, some of them past many trips */
    if (gen == GEN_HOIST && !en) {
        g_assert_cmpuint(hoisted, >, nkern / 8);
        g_assert_cmpuint(hoisted_bundles, >, 10u * nkern);
    }
    /* and compiled bodies hoist them too, mostly in the slices of 64 and
     * 1000 (the kernels differ with the compiler: the generator's calls
     * pass several pick()s as arguments, in an unspecified order) */
    if (gen == GEN_JIT_HOIST && !en && tpc_jit_available()) {
        g_assert_cmpuint(jit_hoist_kernels, >, nkern / 8);
        g_assert_cmpuint(jit_hoisted, >, 5u * nkern);
    }
    /* the generator must reach both outcomes */
    g_assert_cmpuint(faults, >, 0);
    g_assert_cmpuint(faults, <, nkern);
    g_free(a);
    g_free(b);
    g_string_free(src, TRUE);
    g_rand_free(r);
}

static void test_differential(void)
{
    differential(GEN_RANDOM, 20261130);
}

static void test_loop_plans(void)
{
    differential(GEN_LOOPS, 20261204);
}

static void test_hoisted_spans(void)
{
    differential(GEN_HOIST, 20261206);
}

static void test_jit_bodies(void)
{
    differential(GEN_JIT, 20261207);
}

static void test_jit_moves(void)
{
    differential(GEN_JIT_MOV, 20261208);
}

/* The span-hoisting kernels (their fixed ones walk over a tensor's end
 * and off the memory mid-range, lose a predicate mid-loop, move by the
 * iterator or through IRF copies) compiled, in slices of 1, 7, 64 and
 * 1000 bundles: compiled bodies hoist their spans as loop plans do
 * (jit.c hoist_entry), and every result is the staged run's. */
static void test_jit_hoisted(void)
{
    differential(GEN_JIT_HOIST, 20261209);
}

static void test_jit_spu(void)
{
    differential(GEN_JIT_SPU, 20261209);
}

static void test_jit_branches(void)
{
    differential(GEN_JIT_BR, 20261210);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/tpc-fast-diff/random-kernels", test_differential);
    g_test_add_func("/tpc-fast-diff/loop-plans", test_loop_plans);
    g_test_add_func("/tpc-fast-diff/hoisted-spans", test_hoisted_spans);
    g_test_add_func("/tpc-fast-diff/jit-bodies", test_jit_bodies);
    g_test_add_func("/tpc-fast-diff/jit-moves", test_jit_moves);
    g_test_add_func("/tpc-fast-diff/jit-hoisted", test_jit_hoisted);
    g_test_add_func("/tpc-fast-diff/jit-spu", test_jit_spu);
    g_test_add_func("/tpc-fast-diff/jit-branches", test_jit_branches);
    return g_test_run();
}
