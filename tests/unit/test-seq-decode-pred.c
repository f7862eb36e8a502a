/*
 * Sequencer ISA table: predicates (sequencer.md §13.1-2, 5, 6, 9, 14, 15).
 * Expected bytes are typed from the spec, not produced by the code.
 */
#include <string.h>

#include <glib.h>

#include "nxemu/error.h"
#include "nxemu/loader.h"
#include "target/seq/asm.h"
#include "target/seq/insn.h"

#include "seq-testlib.h"

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

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/seq/predicates/each", test_predicates);
    g_test_add_func("/seq/predicates/order", test_predicate_order);
    g_test_add_func("/seq/predicates/mem2d-checklist", test_mem2d_checklist);
    return g_test_run();
}
