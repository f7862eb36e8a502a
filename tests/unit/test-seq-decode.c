/*
 * Sequencer ISA table: decoder, predicates (sequencer.md §10, §13.1-2, 5,
 * 6, 9, 14, 15), the §12.4 worked encodings, assembler/disassembler round
 * trip (§11.4) and the pseudo lowering pass (machine.md §11.5, §9).
 * Expected bytes are typed from the spec, not produced by the code.
 */
#include <string.h>

#include <glib.h>

#include "nxemu/error.h"
#include "nxemu/loader.h"
#include "target/seq/asm.h"
#include "target/seq/insn.h"

#define PC0 0x01000000ull

static void asm1(const char *text, uint64_t pc, uint8_t rec[64])
{
    GString *err = g_string_new(NULL);
    if (!seq_asm_insn_text(text, pc, NULL, NULL, rec, err)) {
        g_test_message("assembling '%s': %s", text, err->str);
        g_assert_not_reached();
    }
    g_string_free(err, TRUE);
}

/* Parse "00: aa 10 ..." rows (omitted rows zero) into rec. */
static void rows(const char *spec, uint8_t rec[64])
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

static void assert_rec(const uint8_t *got, const uint8_t *want)
{
    for (unsigned i = 0; i < 64; i++) {
        if (got[i] != want[i]) {
            g_test_message("byte %u: got 0x%02x want 0x%02x", i, got[i], want[i]);
        }
    }
    g_assert_cmpmem(got, 64, want, 64);
}

/* ---- §12.4 worked encodings ----------------------------------------- */

static void test_worked_encodings(void)
{
    uint8_t got[64], want[64];

    asm1("tld.u32 {r8, r9, r10, r11}, [r3:r2], shape=(4,1), step=(1,0)", PC0 + 0x40, got);
    rows("00: aa 10 00 00 00 00 00 00 00 00 00 00 09 00 04 01\n"
         "10: 02 03 00 00 00 00 00 80 01 00 00 00 00 00 00 00\n"
         "20: 08 09 0a 0b 00 00 00 00 00 00 00 00 00 00 00 00",
         want);
    assert_rec(got, want);

    /* bne at 0x01000200 to loop = 0x01000040 */
    asm1("bne.u32 r4, 0, .-0x1c0", 0x01000200, got);
    rows("00: a9 10 00 00 00 00 00 00 00 00 00 00 04 09 03 00\n"
         "20: 04 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00\n"
         "30: 40 fe ff ff 00 00 00 00 00 00 00 00 00 00 00 00",
         want);
    assert_rec(got, want);

    asm1("write.u32 [0x2805000000], 0x5555", PC0, got);
    rows("00: a5 10 00 00 00 00 00 00 00 00 00 00 01 09 00 00\n"
         "10: 00 00 00 05 28 00 00 00 55 55 00 00 00 00 00 00",
         want);
    assert_rec(got, want);

    asm1("mov.u32 {r1, r2, r3, r4}, {0, 0x02000000, 0, 4}", PC0, got);
    rows("00: a7 10 00 00 00 00 00 00 00 00 00 00 04 09 01 00\n"
         "10: 00 00 00 00 00 00 00 00 01 02 03 04 00 00 00 00\n"
         "20: 00 00 00 00 00 00 00 02 00 00 00 00 04 00 00 00",
         want);
    assert_rec(got, want);

    asm1("add.u32 r2, r2, 16", PC0, got);
    rows("00: a8 10 00 00 00 00 00 00 00 00 00 00 04 09 01 00\n"
         "10: 02 00 00 00 02 00 00 00 10 00 00 00 00 00 00 00",
         want);
    assert_rec(got, want);

    asm1("dma src=[0x02000000] sshape=(64,1) sstep=(1,0) sesz=4 dst=[0x2000000000] "
         "dshape=(64,1) dstep=(1,0) desz=4 sem=9 inc=1",
         PC0, got);
    rows("00: b8 10 00 00 00 00 00 00 00 00 00 00 00 09 01 00\n"
         "10: 00 00 00 02 00 00 00 00 01 00 00 00 00 00 00 00\n"
         "20: 40 00 01 00 04 00 00 00 00 00 00 00 20 00 00 00\n"
         "30: 01 00 00 00 00 00 00 00 40 00 01 00 04 00 00 00",
         want);
    assert_rec(got, want);

    static const uint8_t ev1[8] = {0x05, 0x09, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00};
    asm1("tld.u32 {r1}, [0x20000000fc], shape=(1,1), step=(0,0) wait(sem9 >= 1)", PC0, got);
    g_assert_cmpmem(got + 4, 8, ev1, 8);
    static const uint8_t ev2[8] = {0x05, 0x03, 0x13, 0x04, 0x02, 0x00, 0x00, 0x00};
    asm1("nop wait(sem3 >= 2) post(sem4++)", PC0, got);
    g_assert_cmpmem(got + 4, 8, ev2, 8);
}

/* The same branch written with a label resolves to the same bytes. */
static bool one_label(void *opaque, const char *name, uint64_t *v)
{
    if (strcmp(name, "loop") == 0) {
        *v = 0x01000040;
        return true;
    }
    return false;
}

static void test_label_branch(void)
{
    uint8_t a[64], b[64];
    GString *err = g_string_new(NULL);
    g_assert_true(seq_asm_insn_text("bne.u32 r4, 0, loop", 0x01000200, one_label, NULL, a, err));
    asm1("bne.u32 r4, 0, .-0x1c0", 0x01000200, b);
    g_assert_cmpmem(a, 64, b, 64);
    g_assert_false(seq_asm_insn_text("b nowhere", PC0, one_label, NULL, a, err));
    g_assert_nonnull(strstr(err->str, "undefined label 'nowhere'"));
    g_string_free(err, TRUE);
}

/* ---- decode --------------------------------------------------------- */

static void test_decode_header_faults(void)
{
    uint8_t r[64];
    SeqInsn in;
    NxFault f;

    memset(r, 0, 64);
    r[1] = 0x10;
    g_assert_cmpint(seq_decode(r, &in, &f), ==, SEQ_DECODE_FAULT); /* opcode 0x00 */
    g_assert_cmpuint(f.code, ==, NX_FAULT_INVALID_OPCODE);
    r[0] = 0xB3; /* POLL_SEM is undefined here */
    g_assert_cmpint(seq_decode(r, &in, &f), ==, SEQ_DECODE_FAULT);
    g_assert_cmpuint(f.code, ==, NX_FAULT_INVALID_OPCODE);

    /* Every pseudo-band opcode reaching the core. */
    for (unsigned op = 0xC1; op <= 0xDF; op++) {
        r[0] = (uint8_t)op;
        g_assert_cmpint(seq_decode(r, &in, &f), ==, SEQ_DECODE_FAULT);
        g_assert_cmpuint(f.code, ==, NX_FAULT_PSEUDO_UNLOWERED);
        g_assert_cmpuint(f.info, ==, op);
    }
    /* FAULT_ADDR = var_id for 0xCE, sub-op packing for 0xDF. */
    asm1("ptld.u32 {r1}, var(77)+0x10, shape=(1,1), step=(0,0)", PC0, r);
    g_assert_cmpint(seq_decode(r, &in, &f), ==, SEQ_DECODE_FAULT);
    g_assert_cmpuint(f.info, ==, 0xCE);
    g_assert_cmpuint(f.addr, ==, 77);
    asm1("pexit", PC0, r);
    r[12] = 2;
    g_assert_cmpint(seq_decode(r, &in, &f), ==, SEQ_DECODE_FAULT);
    g_assert_cmpuint(f.info, ==, 0xDF | 2 << 8);
    char buf[32];
    seq_pseudo_info_name(f.info, buf, sizeof(buf));
    g_assert_cmpstr(buf, ==, "PSEUDO_INST/2");
    seq_pseudo_info_name(0xCE, buf, sizeof(buf));
    g_assert_cmpstr(buf, ==, "PSEUDO_TENSOR_LOAD");
    seq_pseudo_info_name(0xC1, buf, sizeof(buf));
    g_assert_cmpstr(buf, ==, "0xc1");

    asm1("nop", PC0, r);
    r[1] = 0x11;
    g_assert_cmpint(seq_decode(r, &in, &f), ==, SEQ_DECODE_FAULT);
    g_assert_cmpuint(f.code, ==, NX_FAULT_INVALID_INSTRUCTION);
    g_assert_cmpuint(f.info, ==, 1);
    g_assert_cmpstr(seq_pred_name(f.info), ==, "header_word_len");
}

/* §6: exactly these opcodes execute; 0xB2, 0xB3, 0xBD, 0xF1 and the rest do not. */
static void test_opcode_map(void)
{
    static const unsigned real[] = {0xA0, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5, 0xA6, 0xA7,
                                    0xA8, 0xA9, 0xAA, 0xAB, 0xB0, 0xB8, 0xBB};
    static const char *const names[] = {"EVENT_SEMAPHORE",
                                        "HALT",
                                        "DRAIN",
                                        "INSTRUCTION_FLUSH",
                                        "NOP",
                                        "WRITE",
                                        "NOTIFY",
                                        "MOVE",
                                        "ALU_OP",
                                        "COMPARE_BRANCH",
                                        "TENSOR_LOAD",
                                        "TENSOR_STORE",
                                        "GROUP_RESET_SEMAPHORES",
                                        "DMA_MEMCPY",
                                        "DMA_INDIRECT"};
    unsigned n = 0;
    for (unsigned op = 0; op < 256; op++) {
        bool want = false;
        for (unsigned i = 0; i < G_N_ELEMENTS(real); i++) {
            if (real[i] == op) {
                want = true;
                g_assert_cmpstr(seq_opcode_name(op), ==, names[i]);
            }
        }
        g_assert_cmpint(seq_opcode_defined(op), ==, want);
        n += want;
    }
    g_assert_cmpuint(n, ==, 15);
    g_assert_cmpstr(seq_opcode_name(0xCE), ==, "PSEUDO_TENSOR_LOAD");
    g_assert_cmpstr(seq_opcode_name(0xD3), ==, "PSEUDO_FUNCTION_CALL");
    g_assert_null(seq_opcode_name(0xB3));
    g_assert_cmpuint(seq_dtype_size(SEQ_DT_U64), ==, 8);
    g_assert_cmpuint(seq_dtype_size(SEQ_DT_BF16), ==, 2);
    g_assert_cmpstr(seq_dtype_name(SEQ_DT_F32), ==, "f32");
    g_assert_null(seq_pred_name(11));
    g_assert_cmpstr(seq_pred_name(76), ==, "dmai_shape");
}

static void test_decode_fields(void)
{
    uint8_t r[64];
    SeqInsn in;
    NxFault f;

    asm1("tld.u32 {r8, r9, r10, r11}, [r3:r2], shape=(4,1), step=(1,0) wait(sem9 >= 1)", PC0, r);
    g_assert_cmpint(seq_decode(r, &in, &f), ==, SEQ_DECODE_OK);
    g_assert_cmpuint(in.opcode, ==, 0xAA);
    g_assert_cmpuint(in.wait[0].mode, ==, SEQ_WAIT_SEM_GE);
    g_assert_cmpuint(in.wait[0].idx, ==, 9);
    g_assert_cmpuint(in.wait[0].value, ==, 1);
    g_assert_cmpuint(in.wait[1].mode, ==, 0);
    g_assert_cmpuint(in.u.m2d.esize, ==, 4);
    g_assert_cmpuint(in.u.m2d.nelem, ==, 4);
    g_assert_cmpuint(in.u.m2d.addr.mode, ==, SEQ_ADDR_REG);
    g_assert_cmpuint(in.u.m2d.addr.reg_lo, ==, 2);
    g_assert_cmpuint(in.u.m2d.addr.reg_hi, ==, 3);
    g_assert_cmpint(in.u.m2d.s0, ==, 1);
    g_assert_cmpuint(in.u.m2d.data[3], ==, 11);

    asm1("bne.u32 r4, 0, .-0x1c0", 0x01000200, r);
    g_assert_cmpint(seq_decode(r, &in, &f), ==, SEQ_DECODE_OK);
    g_assert_cmpuint(in.u.br.cond, ==, SEQ_BR_NE);
    g_assert_false(in.u.br.rhs_is_reg);
    g_assert_cmpint(in.u.br.rel, ==, -0x1c0);
    g_assert_cmpuint(in.u.br.target_mode, ==, SEQ_TGT_REL_IMM);

    asm1("evsem wait(sem1 >= 2) wait(evt3 set) post.r(sem4 += 5)", PC0, r);
    g_assert_cmpint(seq_decode(r, &in, &f), ==, SEQ_DECODE_OK);
    g_assert_cmpuint(in.wait[0].mode, ==, SEQ_WAIT_SEM_GE);
    g_assert_cmpuint(in.wait[0].value, ==, 2);
    g_assert_cmpuint(in.wait[1].mode, ==, SEQ_WAIT_EVT_SET);
    g_assert_cmpuint(in.wait[1].idx, ==, 3);
    g_assert_cmpuint(in.update.kind, ==, SEQ_UPD_SEM_ADD_IMM);
    g_assert_false(in.update.complete);
    g_assert_cmpuint(in.update.value, ==, 5);

    asm1("write.u32 [t5 + 0x123456789ab wide], 1", PC0, r);
    g_assert_cmpint(seq_decode(r, &in, &f), ==, SEQ_DECODE_OK);
    g_assert_cmpuint(in.u.wr.addr.mode, ==, SEQ_ADDR_TBL_IMM48);
    g_assert_cmpuint(in.u.wr.addr.index, ==, 5);
    g_assert_cmpuint(in.u.wr.addr.imm, ==, 0x123456789abull);

    asm1("semclr 30..33", PC0, r);
    g_assert_cmpint(seq_decode(r, &in, &f), ==, SEQ_DECODE_OK);
    g_assert_cmphex(in.u.grst.mask[0], ==, 0xC0000000u);
    g_assert_cmphex(in.u.grst.mask[1], ==, 0x3u);

    asm1("dma src=[0x02000000] sshape=(64,1) sstep=(1,0) sesz=65536 dst=[0x2000000000] "
         "dshape=(64,1) dstep=(1,0) desz=65536 sem=9 inc=1",
         PC0, r);
    g_assert_cmpuint(r[36], ==, 0);
    g_assert_cmpuint(r[37], ==, 0);
    g_assert_cmpint(seq_decode(r, &in, &f), ==, SEQ_DECODE_OK);
    g_assert_cmpuint(in.u.dma.sesz, ==, 65536);
    g_assert_cmpuint(in.u.dma.bytes, ==, 64 * 65536);
}

/* ---- predicates ----------------------------------------------------- */

typedef struct PredCase {
    const char *base; /* valid instruction text */
    int off[3];       /* bytes to change (-1 ends) */
    uint8_t val[3];
    unsigned want; /* expected predicate id */
} PredCase;

#define E -1
static const PredCase pred_cases[] = {
    {"nop", {1, E}, {0x11}, 1},
    {"nop", {2, E}, {2}, 2},
    {"nop", {4, E}, {0x08}, 3},
    {"nop", {4, E}, {0x86}, 3},
    {"nop", {6, E}, {0x0B}, 4},
    {"nop", {6, E}, {0x10}, 4},
    {"nop", {5, E}, {1}, 5},
    {"nop", {8, E}, {1}, 5},                /* V without a user */
    {"nop wait(evt1 set)", {8, E}, {1}, 5}, /* EVT waits take no V */
    {"nop post(sem1++)", {8, E}, {1}, 5},   /* INC ignores V: must be 0 */
    {"nop wait(sem1 == r5)", {8, E}, {64}, 6},
    {"nop post(sem1 += r5)", {8, E}, {64}, 6},
    {"nop", {12, E}, {1}, 7},
    {"halt", {63, E}, {1}, 7},
    {"drain", {41, E}, {1}, 7},
    {"write.u32 [0x1000], 1", {23, E}, {0x40}, 8}, /* shape-from-register marker */
    {"write.u32 [0x1000], 1", {23, E}, {0x10}, 8}, /* pseudo VAR_ID bit */
    {"write.u32 [r3:r2], 1", {23, E}, {0x81}, 8},
    {"write.u32 [r3:r2], 1", {16, E}, {64}, 9},
    {"write.u32 [r3:r2], 1", {18, E}, {1}, 9},
    {"write.u32 [t1 + 0x10], 1", {22, E}, {64}, 9},
    {"write.u32 [t1 + r2], 1", {17, E}, {1}, 9},
    {"write.u32 [0x1000], 1", {16, E}, {0x02}, 10},
    {"tld.u16 {r1}, [0x1000], shape=(1,1), step=(0,0)", {16, E}, {0x01}, 10},
    {"tld.u32 {r1}, [0x1000], shape=(1,1), step=(0,0)", {14, E}, {0}, 16},
    {"tld.u32 {r1}, [0x1000], shape=(1,1), step=(0,0)", {14, E}, {33}, 16},
    {"tld.u32 {r1}, [0x1000], shape=(1,1), step=(0,0)", {15, E}, {33}, 16},
    {"tld.u32 {r1}, [0x1000], shape=(1,1), step=(0,0)", {12, E}, {0x06}, 17},
    {"tld.u32 {r1}, [0x1000], shape=(1,1), step=(0,0)", {12, E}, {0x0C}, 17},
    {"ptld.u32 {r1}, var(1)+0x0, shape=(1,1), step=(0,0)", {12, E}, {0x01}, 18},
    {"tld.u32 {r1}, [0x1000], shape=(1,1), step=(0,0)", {13, E}, {1}, 19},
    {"tst.u32 [0x1000], {r1}, shape=(1,1), step=(0,0)", {13, E}, {2}, 20},
    {"tld.u32 {r1}, [0x1000], shape=(1,1), step=(0,0)", {14, 15, E}, {3, 11}, 21},
    {"tst.u32 [0x1000], #{1}, shape=(1,1), step=(0,0)", {14, E}, {9}, 22},
    {"tld.u64 {r2}, [0x1000], shape=(1,1), step=(0,0)", {40, E}, {1}, 23}, /* unused slot */
    {"tld.u32 {r1}, [0x1000], shape=(1,1), step=(0,0)", {32, E}, {64}, 24},
    {"tst.u32 [0x1000], {r1}, shape=(1,1), step=(0,0)", {32, E}, {200}, 24},
    {"mov.u32 r1, r2", {12, E}, {0}, 32},
    {"mov.u32 r1, r2", {12, E}, {9}, 32},
    {"mov.u32 r1, r2", {15, E}, {1}, 33},
    {"mov.u32 r1, r2", {13, E}, {0x03}, 34},
    {"mov.u32 r1, r2", {14, E}, {2}, 35},
    {"mov.u32 r1, r2", {16, E}, {64}, 36},
    {"mov.u32 r1, r2", {24, E}, {64}, 36},
    {"mov.u32 r1, r2", {17, E}, {1}, 36}, /* src beyond num_mov must be 0 */
    {"mov.u32 r1, 5", {16, E}, {130}, 36},
    {"mov.u32 {r1, r2}, {r3, r4}", {25, E}, {1}, 37},
    {"mov.u32 {r1, r2}, {r3, r4}", {17, E}, {1}, 38},
    {"add.u32 r1, r2, r3", {12, E}, {0x1A}, 40}, /* POW */
    {"add.u32 r1, r2, r3", {12, E}, {0x1C}, 40},
    {"add.u32 r1, r2, r3", {13, E}, {0x04}, 41},
    {"add.u32 r1, r2, r3", {15, E}, {0x08}, 42},
    {"add.u32 r1, r2, r3", {14, E}, {2}, 43},
    {"add.u32 r1, r2, r3", {24, E}, {1}, 43},
    {"add.u32 r1, r2, 5", {18, E}, {1}, 43},
    {"not.u32 r1, r2", {18, E}, {1}, 43},
    {"add.u32 r1, r2, r3", {16, E}, {64}, 44},
    {"add.u32 r1, r2, r3", {17, E}, {1}, 44},
    {"add.u64 r1:r0, r3:r2, r5:r4", {21, E}, {0}, 44},
    {"add.u32 r1, r2, 5", {28, E}, {1}, 45},
    {"add.f32 r1, r2, r3", {12, E}, {0x0A}, 46},
    {"add.f32 r1, r2, r3", {12, E}, {0xC4}, 46},
    {"b .+0x40", {12, E}, {7}, 48},
    {"b .+0x40", {12, E}, {15}, 48},
    {"b .+0x40", {13, E}, {9}, 49},
    {"beq.u32 r1, 0, .+0x40", {13, E}, {0x01}, 49},
    {"b .+0x40", {14, E}, {2}, 50},
    {"b .+0x40", {32, E}, {1}, 51},
    {"b .+0x40", {52, E}, {1}, 51},
    {"b r3:r2", {48, E}, {0x40}, 51},
    {"beq.u32 r1, 0, .+0x40", {33, E}, {1}, 51},
    {"beq.u32 r1, r2, .+0x40", {16, E}, {1}, 51},
    {"beq.u32 r1, r2, .+0x40", {33, E}, {64}, 52},
    {"b r3:r2", {35, E}, {64}, 52},
    {"b .+0x40", {15, E}, {2}, 53},
    {"beq.u32 r1, 0, .+0x40", {15, E}, {1}, 53},
    {"b .+0x40", {48, E}, {0x20}, 54},
    {"b abs 0x1000000", {48, E}, {0x04}, 54},
    {"write.u32 [0x1000], 1", {13, E}, {0x03}, 56},
    {"write.u32 [0x1000], r1", {24, E}, {1}, 56},
    {"write.u32 [0x1000], 1", {14, E}, {1}, 56},
    {"write.u32 [0x1000], 1", {12, E}, {2}, 56},
    {"notify 3, r1", {12, E}, {4}, 57},
    {"notify 3, 5", {14, E}, {1}, 57},
    {"evsem", {6, E}, {1}, 58},
    {"evsem", {7, E}, {1}, 58},
    {"evsem", {32, E}, {0x08}, 59},
    {"evsem", {34, E}, {0x0B}, 59},
    {"evsem", {40, E}, {1}, 59},
    {"evsem wait(evt1 set)", {36, E}, {1}, 59},
    {"evsem post(sem1 += r3)", {40, E}, {64}, 59},
    {"evsem", {35, E}, {1}, 59},
    {"semclr 1..2", {12, E}, {3}, 60},
    {"semclr 1..2", {13, 14, E}, {3, 2}, 61},
    {"semclr 1..2", {40, E}, {1}, 61},
    {"semclr {1}", {13, E}, {1}, 61},
    {"drain", {40, E}, {2}, 62},
};
#undef E

static const char *dma_base = "dma src=[0x2000000] sshape=(64,1) sstep=(1,0) sesz=4 "
                              "dst=[0x2000000000] dshape=(64,1) dstep=(1,0) desz=4 sem=9 inc=1";
static const char *dmai_base = "dmai.both src=[0x2000000] sn=4 sstep=1 sesz=4 "
                               "dst=[0x2000000000] dn=4 dstep=1 desz=4 sidx=0x100 didx=0x200 "
                               "sem=1 inc=1";

static unsigned check_mut(const char *base, const int *off, const uint8_t *val)
{
    uint8_t r[64];
    asm1(base, PC0, r);
    g_assert_cmpuint(seq_check_predicates(r), ==, 0);
    for (unsigned i = 0; i < 3 && off[i] >= 0; i++) {
        r[off[i]] = val[i];
    }
    SeqInsn in;
    NxFault f;
    unsigned id = seq_check_predicates(r);
    if (r[0] < 0xC1) {
        /* Real opcodes: seq_decode reports the same id as a fault. */
        g_assert_cmpint(seq_decode(r, &in, &f), ==, id ? SEQ_DECODE_FAULT : SEQ_DECODE_OK);
        if (id) {
            g_assert_cmpuint(f.code, ==, NX_FAULT_INVALID_INSTRUCTION);
            g_assert_cmpuint(f.info, ==, id);
        }
    }
    return id;
}

static void test_predicates(void)
{
    bool seen[128] = {false};
    for (unsigned i = 0; i < G_N_ELEMENTS(pred_cases); i++) {
        const PredCase *c = &pred_cases[i];
        unsigned got = check_mut(c->base, c->off, c->val);
        if (got != c->want) {
            g_test_message("case %u '%s': got %u (%s) want %u", i, c->base, got,
                           got ? seq_pred_name(got) : "-", c->want);
        }
        g_assert_cmpuint(got, ==, c->want);
        seen[c->want] = true;
    }
    /* DMA family. */
    static const struct {
        int off[3];
        uint8_t val[3];
        unsigned want;
        bool indirect;
    } dc[] = {
        {{32, 33, -1}, {0, 0}, 64, false},
        {{60, -1}, {8}, 65, false},
        {{15, -1}, {5}, 66, false},
        {{62, -1}, {9}, 67, false},
        {{15, 62, 63}, {1, 0x03, 0x03}, 67, false}, /* u8 compute is not allowed */
        {{38, -1}, {1}, 68, false},
        {{12, -1}, {5}, 69, false},
        {{12, -1}, {0x08}, 69, false},
        {{23, -1}, {0x40}, 8, false},
        {{47, -1}, {0x81}, 8, false},
        {{15, -1}, {0x06}, 72, true},
        {{15, -1}, {0x13}, 72, true},
        {{15, -1}, {0x42}, 72, true},
        {{28, 29, -1}, {0, 0}, 73, true},
        {{28, 29, -1}, {0x01, 0x10}, 73, true},
        {{48, -1}, {0x02}, 74, true},
        {{50, -1}, {0x03}, 74, true},
        {{14, -1}, {64}, 75, true},
        {{44, -1}, {5}, 76, true},
        {{46, -1}, {8}, 76, true},
        {{60, -1}, {5}, 66, true},
        {{56, -1}, {9}, 67, true},
        {{58, -1}, {1}, 68, true},
        {{61, -1}, {7}, 69, true},
        {{62, -1}, {1}, 7, true},
    };
    for (unsigned i = 0; i < G_N_ELEMENTS(dc); i++) {
        unsigned got = check_mut(dc[i].indirect ? dmai_base : dma_base, dc[i].off, dc[i].val);
        if (got != dc[i].want) {
            g_test_message("dma case %u: got %u want %u", i, got, dc[i].want);
        }
        g_assert_cmpuint(got, ==, dc[i].want);
        seen[dc[i].want] = true;
    }
    /* Index array unused by a gather must be 0. */
    {
        int off[] = {52, -1};
        uint8_t val[] = {4};
        g_assert_cmpuint(
            check_mut("dmai.gather src=[0x2000000] sn=4 sstep=1 sesz=4 dst=[0x2000000000] dn=4 "
                      "dstep=1 desz=4 sidx=0x100 sem=1 inc=1",
                      off, val),
            ==, 74);
    }
    /* Pseudo predicates. */
    {
        int off[] = {48, -1};
        uint8_t val[] = {1};
        g_assert_cmpuint(check_mut("pcall \"f\"", off, val), ==, 80);
        int off2[] = {12, -1};
        uint8_t val2[] = {0};
        g_assert_cmpuint(check_mut("pcall \"f\"", off2, val2), ==, 80);
        uint8_t r[64];
        asm1("pcall \"f\"", PC0, r);
        memset(r + 12, 'a', 36); /* not NUL-terminated */
        g_assert_cmpuint(seq_check_predicates(r), ==, 80);
        int off3[] = {12, -1};
        uint8_t val3[] = {3};
        g_assert_cmpuint(check_mut("pexit", off3, val3), ==, 81);
        seen[80] = seen[81] = true;
    }
    /* Every §10 id has a case. */
#define SEQ_PRED(id, name)                                                                         \
    if (!seen[id]) {                                                                               \
        g_test_message("predicate %s (%d) untested", #name, id);                                   \
    }                                                                                              \
    g_assert_true(seen[id]);
#include "target/seq/predicates.def"
#undef SEQ_PRED
}

static void test_predicate_order(void)
{
    /* n0 = 0 and dtype bf16: mem2d_num_elem_range (16) before mem2d_dtype_check (17). */
    int o1[] = {14, 12, -1};
    uint8_t v1[] = {0, 0x06};
    g_assert_cmpuint(check_mut("tld.u32 {r1}, [0x1000], shape=(1,1), step=(0,0)", o1, v1), ==, 16);
    /* word_len and debug_cmd both wrong: 1. */
    int o2[] = {1, 2, -1};
    uint8_t v2[] = {0x20, 2};
    g_assert_cmpuint(check_mut("nop", o2, v2), ==, 1);
    /* num_mov 0 and reserved byte 15: 32 before 33. */
    int o3[] = {12, 15, -1};
    uint8_t v3[] = {0, 1};
    g_assert_cmpuint(check_mut("mov.u32 r1, r2", o3, v3), ==, 32);
    /* Events before opcode fields; reserved_zero last. */
    int o4[] = {63, 4, -1};
    uint8_t v4[] = {1, 0x09};
    g_assert_cmpuint(check_mut("halt", o4, v4), ==, 3);
    /* POW with dtype i16: alu_op_supported first. */
    int o5[] = {12, 13, -1};
    uint8_t v5[] = {0x1A, 0x04};
    g_assert_cmpuint(check_mut("add.u32 r1, r2, r3", o5, v5), ==, 40);
    /* Misaligned immediate and bad marker-free fields: addr8_fields (9) is before 10. */
    int o6[] = {16, 23, 18};
    uint8_t v6[] = {0x02, 0x80, 1};
    g_assert_cmpuint(check_mut("write.u32 [0x1000], 1", o6, v6), ==, 9);
}

/* §13 items 5, 6 and 9 with values from the checklist. */
static void test_mem2d_checklist(void)
{
    uint8_t r[64];
    /* 5: u64 with an odd byte in an unused slot fails; the same bytes with u32 pass. */
    asm1("tld.u64 {r2}, [0x1000], shape=(1,1), step=(0,0)", PC0, r);
    r[63] = 7;
    g_assert_cmpuint(seq_check_predicates(r), ==, SEQ_P_mem2d_u64_register_check);
    r[12] = SEQ_DT_U32;
    g_assert_cmpuint(seq_check_predicates(r), ==, 0);
    /* 6: n0 = 33 / 0 -> 16; 3 x 11 -> 21; 4 x 8 = 32 accepted. */
    asm1("tld.u32 {r1}, [0x1000], shape=(1,1), step=(0,0)", PC0, r);
    r[14] = 4;
    r[15] = 8;
    g_assert_cmpuint(seq_check_predicates(r), ==, 0);
    r[14] = 3;
    r[15] = 11;
    g_assert_cmpuint(seq_check_predicates(r), ==, SEQ_P_mem2d_32_elem_check);
    /* 9: immediate store caps per dtype; register stores take 32. */
    static const struct {
        const char *t;
        unsigned ok;
    } caps[] = {{"u8", 32}, {"i8", 32}, {"u16", 16}, {"i16", 16},
                {"u32", 8}, {"i32", 8}, {"f32", 8},  {"u64", 4}};
    for (unsigned i = 0; i < G_N_ELEMENTS(caps); i++) {
        char *s = g_strdup_printf("tst.%s [0x1000], #{1}, shape=(1,1), step=(0,0)", caps[i].t);
        asm1(s, PC0, r);
        g_free(s);
        r[14] = (uint8_t)caps[i].ok;
        g_assert_cmpuint(seq_check_predicates(r), ==, 0);
        /* ok + 1 elements; 33 as 3 x 11 to stay inside mem2d_num_elem_range */
        r[14] = (uint8_t)(caps[i].ok == 32 ? 3 : caps[i].ok + 1);
        r[15] = (uint8_t)(caps[i].ok == 32 ? 11 : 1);
        g_assert_cmpuint(seq_check_predicates(r), ==, SEQ_P_mem2d_store_num_elem_check);
        r[13] = 0; /* register source */
        r[14] = 32;
        r[15] = 1;
        memset(r + 32, 0, 32);
        g_assert_cmpuint(seq_check_predicates(r), ==, 0);
    }
}

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
    g_test_add_func("/seq/encodings/worked", test_worked_encodings);
    g_test_add_func("/seq/encodings/label-branch", test_label_branch);
    g_test_add_func("/seq/decode/header-faults", test_decode_header_faults);
    g_test_add_func("/seq/decode/fields", test_decode_fields);
    g_test_add_func("/seq/decode/opcode-map", test_opcode_map);
    g_test_add_func("/seq/predicates/each", test_predicates);
    g_test_add_func("/seq/predicates/order", test_predicate_order);
    g_test_add_func("/seq/predicates/mem2d-checklist", test_mem2d_checklist);
    g_test_add_func("/seq/asm/round-trip", test_round_trip);
    g_test_add_func("/seq/asm/rec-fallback", test_rec_fallback);
    g_test_add_func("/seq/asm/errors", test_asm_errors);
    g_test_add_func("/seq/lower/cases", test_lowering);
    return g_test_run();
}
