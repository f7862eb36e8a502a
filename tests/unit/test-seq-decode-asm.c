/*
 * Sequencer ISA table: assembler/disassembler round trip (§11.4) and the pseudo lowering pass
 * (machine.md §11.5, §9). Expected bytes are typed from the spec, not produced by the code.
 */
#include <string.h>

#include <glib.h>

#include "nxemu/error.h"
#include "nxemu/loader.h"
#include "target/seq/asm.h"
#include "target/seq/insn.h"

#include "seq-testlib.h"

/* ---- assembler / disassembler round trip ------------------------------ */

static const char *const forms[] = {
    "evsem",
    "evsem wait(sem1 >= 0x2)",
    "evsem wait(sem1 >= 0x2) wait(evt3 set then clear) post(sem4 += 0x5)",
    "evsem wait.b(sem2 == r7) post.r(evt9 clear)",
    "evsem wait(sem0 < 0x1) wait(sem255 <= r63) post(sem1 = r2) dbg(9, 1)",
    "halt",
    "iflush",
    "nop",
    "nop wait(sem3 >= 0x2) post(sem4++)",
    "nop wait(evt1 clear then set) post.r(sem2--) dbg(1, 2)",
    "nop wait(evt1 clear) post(evt2 set)",
    "nop post(sem5 -= r3)",
    "nop post(sem5 = 0x7)",
    "nop wait(sem0 > r63)",
    "halt dbg(3, 255)",
    "drain",
    "drain 0",
    "write.u32 [0x2805000000], 0x5555",
    "write.i32 [r3:r2], r7",
    "write.f32 [t5 + 0x10], r1",
    "write.u32 [t5 + 0x123456789ab wide], 0x1",
    "write.u32 [t63 + r9], 0x0",
    "write.u32 [t1 + r9:r8], 0xffffffff",
    "notify 3, r5",
    "notify 0, 0xdead",
    "mov.u32 r1, r2",
    "mov.i32 r1, 0x80000000",
    "mov.f32 r5, pclo",
    "mov.u32 {r1, r2}, {pclo, pchi}",
    "mov.u32 {r1, r2, r3, r4}, {0x0, 0x2000000, 0x0, 0x4}",
    "mov.u32 {r0, r1, r2, r3, r4, r5, r6, r7}, {r8, r9, r10, r11, r12, r13, r14, r15}",
    "add.u32 r2, r2, 0x10",
    "add.i64 r3:r2, r5:r4, r7:r6",
    "sub.u64 r3:r2, r5:r4, 0xffffffffffffffff",
    "not.u32 r1, r2",
    "abs.f32 r1, r2",
    "byp.i64 r1:r0, r3:r2",
    "mod.i32.i32 r1, r2, r3",
    "add_int.i32 r1, r2, 0x7",
    "b .+0x40",
    "b .-0x1c0",
    "b .+0x0",
    "b abs 0x1000040",
    "b r63:r62",
    "b .+r5",
    "call abs 0x2000000",
    "call .+0x80",
    "call r1:r0",
    "blt.i8 r1, 0xff, .+0x40",
    "bge.u32 r1, r2, .-0x40",
    "bne.f32 r4, 0x0, abs 0x1000000",
    "bgt.u16 r1, r2, r3:r2",
    "ble.i32 r1, 0x7fffffff, .+r9 wait(sem1 == 0x2)",
    "tld.u32 {r8, r9, r10, r11}, [r3:r2], shape=(4,1), step=(1,0)",
    "tld.u64 {r0, r2}, [0x1000], shape=(2,1), step=(-1,0)",
    "tld.i8 {r1}, [t2 + 0x4], shape=(1,1), step=(0,0)",
    "tld.f32 {r1, r2, r3, r4, r5, r6}, [t2 + r3:r2], shape=(2,3), step=(1,-2)",
    "tst.u32 [0x2001000], {r1}, shape=(1,1), step=(0,0)",
    "tst.u16 [0x2000], #{0x1, 0xffff}, shape=(2,1), step=(1,0)",
    "tst.u64 [0x2000], #{0x1122334455667788}, shape=(1,1), step=(0,0)",
    "tst.u8 [r1:r0], #{0x1, 0x2, 0x3, 0x4}, shape=(2,2), step=(1,-2)",
    "semclr 7..7",
    "semclr 0..255",
    "semclr {1, 5, 200}",
    "semclr {}",
    "dma src=[0x2000000] sshape=(64,1) sstep=(1,0) sesz=4 dst=[0x2000000000] dshape=(64,1) "
    "dstep=(1,0) desz=4 sem=9 inc=1",
    "dma src=[r1:r0] sshape=(2,2) sstep=(1,2) sesz=65536 dst=[t3 + 0x40] dshape=(4,1) "
    "dstep=(1,0) desz=65536 sem=0 inc=0 op=add dt=f32 prio=4 post.r(sem3++)",
    "dma src=[0x0] sshape=(1,1) sstep=(0,0) sesz=2 dst=[0x40] dshape=(1,1) dstep=(0,0) desz=2 "
    "sem=255 inc=255 op=min dt=bf16",
    "dmai.gather src=[0x2000000] sn=4 sstep=1 sesz=4 dst=[0x2000000000] dn=4 dstep=1 desz=4 "
    "sidx=0x100 sem=1 inc=1",
    "dmai.scatter src=[0x2000000] sn=4 sstep=-1 sesz=4 dst=[0x2000000000] dn=4 dstep=1 desz=4 "
    "didx=0x0 sem=1 inc=1 dupok",
    "dmai.both src=[0x2000000] sn=4 sstep=1 sesz=8 dst=[0x2000000000] dn=4 dstep=1 desz=8 "
    "sidx=0x10 didx=0x20 sem=1 inc=1 op=max dt=i32 prio=1",
    "ptld.u32 {r1, r2}, var(3)+0x10, shape=(2,1), step=(1,0)",
    "ptst.i16 var(4)+0x0, #{0x1}, shape=(1,1), step=(0,0)",
    "ptst.u32 var(4)+0x8, {r1}, shape=(1,1), step=(0,0) post(sem2++)",
    "pcall \"main\"",
    "pret",
    "pbarrier",
    "pexit",
};

static void round_trip(const char *text, bool exact)
{
    uint8_t a[64], b[64];
    GString *s = g_string_new(NULL);
    asm1(text, PC0 + 0x400, a);
    bool canon = seq_disas_insn(a, PC0 + 0x400, s);
    if (exact) {
        g_assert_true(canon);
        g_assert_cmpstr(s->str, ==, text);
    }
    asm1(s->str, PC0 + 0x400, b);
    g_assert_cmpmem(a, 64, b, 64);
    g_string_free(s, TRUE);
}

static void test_round_trip(void)
{
    for (unsigned i = 0; i < G_N_ELEMENTS(forms); i++) {
        round_trip(forms[i], true);
    }
    /* Every ALU mnemonic, 32- and 64-bit, binary or unary. */
    static const char *const alu[] = {
        "byp", "not", "ashl", "ashr",    "add", "sub",  "mul",  "div",     "max",     "min",
        "and", "or",  "xor",  "land",    "lor", "lxor", "lshl", "lshr",    "eq",      "gt",
        "ge",  "le",  "lt",   "absdiff", "ne",  "abs",  "mod",  "add_int", "mul_int", "sub_int"};
    for (unsigned i = 0; i < G_N_ELEMENTS(alu); i++) {
        bool unary = !strcmp(alu[i], "byp") || !strcmp(alu[i], "not") || !strcmp(alu[i], "abs");
        char *t = unary ? g_strdup_printf("%s.u32 r1, r2", alu[i])
                        : g_strdup_printf("%s.i32 r1, r2, 0x5", alu[i]);
        round_trip(t, true);
        g_free(t);
        t = unary ? g_strdup_printf("%s.i64 r1:r0, r3:r2", alu[i])
                  : g_strdup_printf("%s.u64 r1:r0, r3:r2, r5:r4", alu[i]);
        round_trip(t, true);
        g_free(t);
    }
    /* Accepted spellings that print differently. */
    round_trip("MOV.U32 R1, 7 ; comment", false);
    round_trip("b abs 0x1000000", true);
    round_trip("drain 1", false);
    round_trip("semclr {5, 1, 1}", false);
    round_trip("nop wait(sem9>=0b1_0000)", false);
}

static void test_rec_fallback(void)
{
    uint8_t r[64], b[64];
    GString *s = g_string_new(NULL);
    /* Ignored MOVE immediate slot set: valid but not printable canonically. */
    asm1("mov.u32 r1, r2", PC0, r);
    r[40] = 0x55;
    g_assert_cmpuint(seq_check_predicates(r), ==, 0);
    g_assert_false(seq_disas_insn(r, PC0, s));
    g_assert_true(g_str_has_prefix(s->str, ".rec a7 10 00"));
    /* Unknown opcode and failed predicates too; all reassemble via .rec. */
    memset(b, 0, 64);
    g_string_truncate(s, 0);
    for (unsigned i = 0; i < 64; i++) {
        b[i] = (uint8_t)(i * 37 + 1);
    }
    g_assert_false(seq_disas_insn(b, PC0, s));
    /* ".rec" and 64 " xx"; reassembly of .rec is covered by the e2e test. */
    g_assert_cmpuint(s->len, ==, 4 + 64 * 3);
    g_string_free(s, TRUE);
}

static void test_asm_errors(void)
{
    static const struct {
        const char *text;
        const char *msg; /* "COL: message start" */
    } cases[] = {
        {"mov.u32 r1, r64", "13: register 'r64' out of range"},
        {"frob r1", "1: unknown instruction 'frob'"},
        {"add.u32 r1, r2", "15: expected ','"},
        {"write.u32 [0x1002], 1", "1: invalid instruction: fails predicate valid_start_addr"},
        {"tld.u32 {r1, r2}, [0x1000], shape=(1,1), step=(0,0)", "9: list has 2 entries"},
        {"nop wait(sem1 >= 2) post(sem2 += 3)", "21: wait and post need different values"},
        {"mov.u32 {r1, r2}, {r3, 4}", "24: sources must be all registers"},
        {"add.u32 r1, r2, 0x100000000", "17: value does not fit in 32 bits"},
        {"write.u32 [0xfc00000000000000], 1", "12: immediate address has bits 63:58 set"},
        {"nop wait(sem256 >= 1)", "10: index 'sem256' out of range"},
        {"b .+0x20", "1: invalid instruction: fails predicate br_rel_imm_range"},
        {"mov.u32 {r1, r1}, {r2, r3}",
         "1: invalid instruction: fails predicate ctrl_mv_unique_dst"},
        {"add.f32 r1, r2, r3 extra", "20: unexpected 'extra'"},
        {"dma src=[0x0] sshape=(1,1)", "27: missing operand 'sstep='"},
        {"ptld.u64 {r2}, var(1)+0x0, shape=(1,1), step=(0,0)",
         "1: invalid instruction: fails predicate pseudo_mem2d_dtype_check"},
        {"tld.u32 {r1}, [0x1000], shape=(1,1)", "36: expected ','"},
    };
    GString *err = g_string_new(NULL);
    uint8_t r[64];
    for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_string_truncate(err, 0);
        g_assert_false(seq_asm_insn_text(cases[i].text, PC0, NULL, NULL, r, err));
        if (!g_str_has_prefix(err->str, cases[i].msg)) {
            g_test_message("'%s': got '%s' want '%s...'", cases[i].text, err->str, cases[i].msg);
        }
        g_assert_true(g_str_has_prefix(err->str, cases[i].msg));
    }
    g_string_free(err, TRUE);
}

/* ---- lowering ------------------------------------------------------- */

static bool test_sym(void *opaque, const char *name, uint64_t *value)
{
    if (strcmp(name, "func") == 0) {
        *value = 0x01000400;
        return true;
    }
    if (strcmp(name, "odd") == 0) {
        *value = 0x01000404;
        return true;
    }
    return false;
}

static void test_lowering(void)
{
    BindTable bt;
    GError *err = NULL;
    uint8_t s[64 * 8], orig[64 * 8], want[64];
    bind_table_init(&bt);
    g_assert_true(bind_table_add(&bt, 3, 0x02000000, "test", &err));
    g_assert_true(bind_table_add(&bt, 9, 0x03FFFFFFFFFFFFF0ull, "test", &err));

    asm1("ptld.u32 {r1, r2}, var(3)+0x10, shape=(2,1), step=(1,0) wait(sem1 >= 2) dbg(1, 2)", PC0,
         s);
    asm1("ptst.u8 var(5)+0x0, #{0x7}, shape=(1,1), step=(0,0)", PC0, s + 64); /* unbound */
    asm1("pcall \"func\" post(sem3++)", PC0, s + 128);
    asm1("pret", PC0, s + 192);
    asm1("pbarrier wait(evt2 set)", PC0, s + 256);
    asm1("pexit", PC0, s + 320);
    asm1("pcall \"missing\"", PC0, s + 384);
    asm1("nop", PC0, s + 448);
    s[320 + 3] = 0x42; /* debug_hint is carried over */
    memcpy(orig, s, sizeof(s));
    g_assert_true(seq_lower_stream(s, sizeof(s), "t.bin", 0, &bt, test_sym, NULL, &err));
    g_assert_no_error(err);

    /* 0xCE -> 0xAA at binding + offset, every other byte unchanged. */
    memcpy(want, orig, 64);
    want[0] = 0xAA;
    static const uint8_t a[8] = {0x10, 0x00, 0x00, 0x02, 0, 0, 0, 0};
    memcpy(want + 16, a, 8);
    assert_rec(s, want);
    /* Unbound var_id and unknown call name stay as they are. */
    g_assert_cmpmem(s + 64, 64, orig + 64, 64);
    g_assert_cmpmem(s + 384, 64, orig + 384, 64);
    /* call: 0xA9 cmp 0, mode 0, link 1, +48 = symbol; events kept. */
    rows("00: a9 10 00 00 00 00 13 03 00 00 00 00 00 00 00 01\n"
         "30: 00 04 00 01 00 00 00 00 00 00 00 00 00 00 00 00",
         want);
    assert_rec(s + 128, want);
    rows("00: a9 10 00 00 00 00 00 00 00 00 00 00 00 00 01 00\n"
         "20: 00 00 3e 3f 00 00 00 00 00 00 00 00 00 00 00 00",
         want);
    assert_rec(s + 192, want);
    rows("00: a2 10 00 00 06 02 00 00 00 00 00 00 00 00 00 00\n"
         "20: 00 00 00 00 00 00 00 00 01 00 00 00 00 00 00 00",
         want);
    assert_rec(s + 256, want);
    rows("00: a1 10 00 42 00 00 00 00 00 00 00 00 00 00 00 00", want);
    assert_rec(s + 320, want);
    g_assert_cmpmem(s + 448, 64, orig + 448, 64);

    /* The lowered records decode. */
    SeqInsn in;
    NxFault f;
    for (unsigned i = 0; i < 8; i++) {
        if (i == 1 || i == 6) {
            continue;
        }
        g_assert_cmpint(seq_decode(s + 64 * i, &in, &f), ==, SEQ_DECODE_OK);
    }

    /* u64 pseudo: load error naming the predicate and the offset. */
    asm1("ptld.u32 {r2}, var(3)+0x0, shape=(1,1), step=(0,0)", PC0, s + 64);
    s[64 + 12] = SEQ_DT_U64;
    g_assert_false(seq_lower_stream(s, 128, "t.bin", 0x1000, &bt, test_sym, NULL, &err));
    g_assert_error(err, NX_ERROR, NX_ERROR_LOAD);
    g_assert_nonnull(strstr(err->message, "t.bin: offset 0x1040"));
    g_assert_nonnull(strstr(err->message, "pseudo_mem2d_dtype_check"));
    g_clear_error(&err);

    /* Resolved address with bits 63:58 set. */
    asm1("ptld.u32 {r2}, var(9)+0x400000, shape=(1,1), step=(0,0)", PC0, s);
    g_assert_false(seq_lower_stream(s, 64, "t.bin", 0, &bt, test_sym, NULL, &err));
    g_assert_error(err, NX_ERROR, NX_ERROR_LOAD);
    g_clear_error(&err);
    /* Just below the limit lowers. */
    asm1("ptld.u32 {r2}, var(9)+0x0, shape=(1,1), step=(0,0)", PC0, s);
    g_assert_true(seq_lower_stream(s, 64, "t.bin", 0, &bt, test_sym, NULL, &err));
    g_assert_cmpuint(s[0], ==, 0xAA);

    /* Call target not a multiple of 64. */
    asm1("pcall \"odd\"", PC0, s);
    g_assert_false(seq_lower_stream(s, 64, "t.bin", 0, &bt, test_sym, NULL, &err));
    g_assert_nonnull(strstr(err->message, "multiple of 64"));
    g_clear_error(&err);

    /* Length not a multiple of 64. */
    g_assert_false(seq_lower_stream(s, 63, "t.bin", 0, &bt, test_sym, NULL, &err));
    g_clear_error(&err);

    /* EXIT sub-op 2 (LIBRARY_RELOAD_INDEX) is left alone. */
    asm1("pexit", PC0, s);
    s[12] = 2;
    memcpy(orig, s, 64);
    g_assert_true(seq_lower_stream(s, 64, "t.bin", 0, &bt, NULL, NULL, &err));
    g_assert_cmpmem(s, 64, orig, 64);
    bind_table_destroy(&bt);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/seq/asm/round-trip", test_round_trip);
    g_test_add_func("/seq/asm/rec-fallback", test_rec_fallback);
    g_test_add_func("/seq/asm/errors", test_asm_errors);
    g_test_add_func("/seq/lower/cases", test_lowering);
    return g_test_run();
}
