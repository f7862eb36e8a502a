/*
 * Sequencer ISA table: the §12.4 worked encodings and the decoder (sequencer.md §10, §12.4).
 * Expected bytes are typed from the spec, not produced by the code.
 */
#include <string.h>

#include <glib.h>

#include "nxemu/error.h"
#include "nxemu/loader.h"
#include "target/seq/asm.h"
#include "target/seq/insn.h"

#include "seq-testlib.h"

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

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/seq/encodings/worked", test_worked_encodings);
    g_test_add_func("/seq/encodings/label-branch", test_label_branch);
    g_test_add_func("/seq/decode/header-faults", test_decode_header_faults);
    g_test_add_func("/seq/decode/fields", test_decode_fields);
    g_test_add_func("/seq/decode/opcode-map", test_opcode_map);
    return g_test_run();
}
