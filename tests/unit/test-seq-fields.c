/*
 * The sequencer field table (target/seq/fields.def) against sequencer.md
 * §2.1, §4.1, §5.1, §8 and §9, checked independently of the table: the
 * expected offsets and sizes below are copied by hand from the spec's
 * layout tables, not computed from fields.def.  Also: no two fields of one
 * format share a byte, no field lands on a byte insn.def marks reserved for
 * an opcode of that format, and the accessors apply each encoding rule
 * (element size 0 means 65536, signed steps, sub-byte flags).
 */
#include <string.h>

#include <glib.h>

#include "target/seq/fields.h"
#include "target/seq/insn.h"

typedef struct Expect {
    const char *what;
    unsigned got_off, got_bytes;
    unsigned off, bytes; /* from the spec */
} Expect;

#define E(F, off, bytes) {#F, F, seq_field_bytes(F), off, bytes}

/* A few fields of every format, from the spec's tables. */
static const Expect spec[] = {
    /* §2.1 */
    E(SEQ_F_HDR_OPCODE, 0, 1), E(SEQ_F_HDR_WORD_LEN, 1, 1), E(SEQ_F_HDR_DEBUG_CMD, 2, 1),
    E(SEQ_F_HDR_DEBUG_HINT, 3, 1),
    /* §4.1 */
    E(SEQ_F_EV_WAIT_MODE, 4, 1), E(SEQ_F_EV_WAIT_IDX, 5, 1), E(SEQ_F_EV_UPD_MODE, 6, 1),
    E(SEQ_F_EV_UPD_IDX, 7, 1), E(SEQ_F_EV_VALUE, 8, 4),
    /* §5.1 (operand-relative) */
    E(SEQ_F_ADDR8_IMM, 0, 8), E(SEQ_F_ADDR8_REG_LO, 0, 1), E(SEQ_F_ADDR8_REG_HI, 1, 1),
    E(SEQ_F_ADDR8_OFF32, 0, 4), E(SEQ_F_ADDR8_OFF48, 0, 6), E(SEQ_F_ADDR8_INDEX, 6, 1),
    E(SEQ_F_ADDR8_MARKER, 7, 1),
    /* §8.1 */
    E(SEQ_F_EVSEM_WAITB_MODE, 32, 1), E(SEQ_F_EVSEM_UPD_IDX, 35, 1),
    E(SEQ_F_EVSEM_WAITB_VALUE, 36, 4), E(SEQ_F_EVSEM_UPD_VALUE, 40, 4),
    /* §8.3 */
    E(SEQ_F_DRAIN_COUNT, 40, 1),
    /* §8.4 */
    E(SEQ_F_WR_DATASRC, 12, 1), E(SEQ_F_WR_SRC_REG, 14, 1), E(SEQ_F_WR_ADDR, 16, 8),
    E(SEQ_F_WR_IMM, 24, 4),
    /* §8.5 */
    E(SEQ_F_NTF_QUEUE, 12, 1), E(SEQ_F_NTF_DATASRC, 13, 1), E(SEQ_F_NTF_IMM, 16, 4),
    /* §8.6 */
    E(SEQ_F_MV_NUM, 12, 1), E(SEQ_F_MV_SOURCE, 14, 1), E(SEQ_F_MV_SRC, 16, 8),
    E(SEQ_F_MV_DST, 24, 8), E(SEQ_F_MV_IMM, 32, 32),
    /* §8.7 */
    E(SEQ_F_ALU_OP, 12, 1), E(SEQ_F_ALU_DST_DTYPE, 15, 1), E(SEQ_F_ALU_SRC0_LO, 16, 1),
    E(SEQ_F_ALU_SRC1_HI, 19, 1), E(SEQ_F_ALU_DST_LO, 20, 1), E(SEQ_F_ALU_DST_HI, 21, 1),
    E(SEQ_F_ALU_IMM, 24, 8),
    /* §8.8 */
    E(SEQ_F_BR_CMP_OP, 12, 1), E(SEQ_F_BR_TARGET_MODE, 14, 1), E(SEQ_F_BR_LINK, 15, 1),
    E(SEQ_F_BR_RHS_IMM, 16, 4), E(SEQ_F_BR_LHS, 32, 1), E(SEQ_F_BR_RHS, 33, 1),
    E(SEQ_F_BR_TGT_LO, 34, 1), E(SEQ_F_BR_TGT_HI, 35, 1), E(SEQ_F_BR_TARGET_IMM, 48, 8),
    /* §8.9 */
    E(SEQ_F_M2D_DTYPE, 12, 1), E(SEQ_F_M2D_DATASRC, 13, 1), E(SEQ_F_M2D_N0, 14, 1),
    E(SEQ_F_M2D_N1, 15, 1), E(SEQ_F_M2D_ADDR, 16, 8), E(SEQ_F_M2D_S0, 24, 4),
    E(SEQ_F_M2D_S1, 28, 4), E(SEQ_F_M2D_DATA, 32, 32),
    /* §9 */
    E(SEQ_F_PM2D_VAR_ID, 16, 4), E(SEQ_F_PM2D_VAR_OFFSET, 20, 4), E(SEQ_F_PCALL_NAME, 12, 36),
    E(SEQ_F_PCALL_ARGS_VAR, 48, 4), E(SEQ_F_PEXIT_SUBOP, 12, 1),
    /* §8.10 */
    E(SEQ_F_GRST_MODE, 12, 1), E(SEQ_F_GRST_FIRST, 13, 1), E(SEQ_F_GRST_LAST, 14, 1),
    E(SEQ_F_GRST_MASK, 32, 32),
    /* §8.11 */
    E(SEQ_F_DMA_CONFIGS, 12, 1), E(SEQ_F_DMA_SEM, 13, 1), E(SEQ_F_DMA_SEM_INC, 14, 1),
    E(SEQ_F_DMA_COMPUTE_OP, 15, 1), E(SEQ_F_DMA_SRC_ADDR, 16, 8), E(SEQ_F_DMA_SRC_STEP0, 24, 4),
    E(SEQ_F_DMA_SRC_N0, 32, 2), E(SEQ_F_DMA_SRC_N1, 34, 2), E(SEQ_F_DMA_SRC_ESIZE, 36, 2),
    E(SEQ_F_DMA_SRC_BOUND_REG, 38, 1), E(SEQ_F_DMA_DST_BOUND_REG, 39, 1),
    E(SEQ_F_DMA_DST_ADDR, 40, 8), E(SEQ_F_DMA_DST_STEP1, 52, 4), E(SEQ_F_DMA_DST_N0, 56, 2),
    E(SEQ_F_DMA_DST_ESIZE, 60, 2), E(SEQ_F_DMA_IN_DTYPE, 62, 1), E(SEQ_F_DMA_OUT_DTYPE, 63, 1),
    /* §8.12 */
    E(SEQ_F_DMAI_SEM, 12, 1), E(SEQ_F_DMAI_ACTIVE_CHANNELS, 14, 1), E(SEQ_F_DMAI_FLAGS, 15, 1),
    E(SEQ_F_DMAI_SRC_ADDR, 16, 8), E(SEQ_F_DMAI_SRC_STEP, 24, 4), E(SEQ_F_DMAI_SRC_N, 28, 2),
    E(SEQ_F_DMAI_SRC_ESIZE, 30, 2), E(SEQ_F_DMAI_DST_ADDR, 32, 8), E(SEQ_F_DMAI_DST_STEP, 40, 4),
    E(SEQ_F_DMAI_DST_N, 44, 2), E(SEQ_F_DMAI_DST_ESIZE, 46, 2), E(SEQ_F_DMAI_SRC_IDX, 48, 4),
    E(SEQ_F_DMAI_DST_IDX, 52, 4), E(SEQ_F_DMAI_IN_DTYPE, 56, 1),
    E(SEQ_F_DMAI_SRC_IDX_BOUND_REG, 58, 1), E(SEQ_F_DMAI_COMPUTE_OP, 60, 1),
    E(SEQ_F_DMAI_CONFIGS, 61, 1),
};

static void test_spec_offsets(void)
{
    for (size_t i = 0; i < G_N_ELEMENTS(spec); i++) {
        if (spec[i].got_off != spec[i].off || spec[i].got_bytes != spec[i].bytes) {
            g_test_message("%s: table %u+%u, spec %u+%u", spec[i].what, spec[i].got_off,
                           spec[i].got_bytes, spec[i].off, spec[i].bytes);
        }
        g_assert_cmpuint(spec[i].got_off, ==, spec[i].off);
        g_assert_cmpuint(spec[i].got_bytes, ==, spec[i].bytes);
    }
}

/* Sub-byte fields, from the spec's bit descriptions (§8.11, §8.12). */
static void test_spec_bits(void)
{
    g_assert_cmpuint(SEQ_F_DMA_PRIO, ==, 12);
    g_assert_cmpuint(SEQ_F_DMA_PRIO_LSB, ==, 0);
    g_assert_cmpuint(SEQ_F_DMA_PRIO_NB, ==, 3);
    g_assert_cmpuint(SEQ_F_DMAI_PRIO, ==, 61);
    g_assert_cmpuint(SEQ_F_DMAI_PRIO_NB, ==, 3);
    g_assert_cmpuint(SEQ_F_DMAI_MODE, ==, 15);
    g_assert_cmpuint(SEQ_F_DMAI_MODE_LSB, ==, 0);
    g_assert_cmpuint(SEQ_F_DMAI_MODE_NB, ==, 2);
    g_assert_cmpuint(SEQ_F_DMAI_IDX_BOUND_IS_ERR_LSB, ==, 2);
    g_assert_cmpuint(SEQ_F_DMAI_NON_UNIQUE_DST_LSB, ==, 3);
    g_assert_cmpuint(SEQ_F_DMAI_NON_UNIQUE_DST_NB, ==, 1);
    g_assert_cmpuint(SEQ_F_DMAI_GATHER_DIM_LSB, ==, 4);
    g_assert_cmpuint(SEQ_F_DMAI_SCATTER_DIM_LSB, ==, 6);
    g_assert_cmpuint(SEQ_F_DMAI_SCATTER_DIM_NB, ==, 2);
}

/* Element sizes (0 means 65536) and steps (signed) by the spec's rules. */
static void test_spec_encodings(void)
{
    g_assert_cmpuint(SEQ_F_DMA_SRC_ESIZE_E, ==, SEQ_ENC_Z64K);
    g_assert_cmpuint(SEQ_F_DMA_DST_ESIZE_E, ==, SEQ_ENC_Z64K);
    g_assert_cmpuint(SEQ_F_DMAI_SRC_ESIZE_E, ==, SEQ_ENC_Z64K);
    g_assert_cmpuint(SEQ_F_DMAI_DST_ESIZE_E, ==, SEQ_ENC_Z64K);
    g_assert_cmpuint(SEQ_F_M2D_S0_E, ==, SEQ_ENC_S);
    g_assert_cmpuint(SEQ_F_DMA_SRC_STEP1_E, ==, SEQ_ENC_S);
    g_assert_cmpuint(SEQ_F_DMAI_DST_STEP_E, ==, SEQ_ENC_S);
    g_assert_cmpuint(SEQ_F_DMA_SRC_ADDR_E, ==, SEQ_ENC_ADDR8);
    g_assert_cmpuint(SEQ_F_M2D_ADDR_E, ==, SEQ_ENC_ADDR8);
}

/* Within a format no two whole-byte fields share a byte, every field lies
 * inside the record (or its 8-byte operand), and sub-byte fields of one
 * byte do not share a bit and sit on a byte the format also lists. */
static void test_no_overlap(void)
{
    for (unsigned f = 0; f < SEQ_FMT_COUNT; f++) {
        uint8_t owner[64] = {0};
        unsigned bits[64] = {0};
        unsigned limit = seq_format_table[f].relative ? 8 : 64;
        unsigned n = 0;
        for (unsigned i = 0; i < seq_field_count; i++) {
            const SeqFieldDesc *d = &seq_field_table[i];
            if (d->fmt != f || d->nbits < 8u * d->size) {
                continue;
            }
            unsigned end = d->off + d->size * (unsigned)d->count;
            /* The accessors read one value of at most 8 bytes. */
            g_assert_cmpuint(d->size, <=, 8);
            g_assert_cmpuint(end, <=, limit);
            n++;
            if (seq_format_table[f].relative) {
                continue; /* ADDR8: alternative layouts chosen by the marker */
            }
            for (unsigned b = d->off; b < end; b++) {
                if (owner[b]) {
                    g_test_message("%s: %s and %s share byte %u", seq_format_table[f].name,
                                   seq_field_table[owner[b] - 1].name, d->name, b);
                }
                g_assert_cmpuint(owner[b], ==, 0);
                owner[b] = (uint8_t)(i + 1);
            }
        }
        g_assert_cmpuint(n, >, 0);
        for (unsigned i = 0; i < seq_field_count; i++) {
            const SeqFieldDesc *d = &seq_field_table[i];
            if (d->fmt != f || d->nbits == 8u * d->size) {
                continue;
            }
            unsigned m = ((1u << d->nbits) - 1) << d->lsb;
            g_assert_cmpuint(d->lsb + d->nbits, <=, 8);
            g_assert_cmpuint(owner[d->off], !=, 0);
            g_assert_cmpuint(bits[d->off] & m, ==, 0);
            bits[d->off] |= m;
        }
    }
}

/* Payload formats stay clear of the header/events and of the bytes insn.def
 * reserves for the opcodes that use them. */
static const struct {
    unsigned fmt, opcode;
} users[] = {
    {SEQ_FMT_EVSEM, SEQ_OP_EVENT_SEMAPHORE},
    {SEQ_FMT_DRAIN, SEQ_OP_DRAIN},
    {SEQ_FMT_WR, SEQ_OP_WRITE},
    {SEQ_FMT_NTF, SEQ_OP_NOTIFY},
    {SEQ_FMT_MV, SEQ_OP_MOVE},
    {SEQ_FMT_ALU, SEQ_OP_ALU_OP},
    {SEQ_FMT_BR, SEQ_OP_COMPARE_BRANCH},
    {SEQ_FMT_M2D, SEQ_OP_TENSOR_LOAD},
    {SEQ_FMT_M2D, SEQ_OP_TENSOR_STORE},
    {SEQ_FMT_PM2D, SEQ_OP_PSEUDO_TENSOR_LOAD},
    {SEQ_FMT_PM2D, SEQ_OP_PSEUDO_TENSOR_STORE},
    {SEQ_FMT_GRST, SEQ_OP_GROUP_RESET_SEMAPHORES},
    {SEQ_FMT_DMA, SEQ_OP_DMA_MEMCPY},
    {SEQ_FMT_DMAI, SEQ_OP_DMA_INDIRECT},
    {SEQ_FMT_PCALL, SEQ_OP_PSEUDO_FUNCTION_CALL},
    {SEQ_FMT_PEXIT, SEQ_OP_PSEUDO_INST},
};

static void test_clear_of_reserved(void)
{
    for (size_t u = 0; u < G_N_ELEMENTS(users); u++) {
        const SeqInsnDesc *desc = seq_insn_desc(users[u].opcode);
        g_assert_nonnull(desc);
        for (unsigned i = 0; i < seq_field_count; i++) {
            const SeqFieldDesc *d = &seq_field_table[i];
            if (d->fmt != users[u].fmt) {
                continue;
            }
            g_assert_cmpuint(d->off, >=, 12);
            for (unsigned b = d->off; b < d->off + d->size * (unsigned)d->count; b++) {
                g_assert_false(desc->reserved >> b & 1);
            }
        }
    }
}

/* The run-time table says what the compile-time constants say. */
static void test_table_matches_constants(void)
{
    static const struct {
        unsigned fmt;
        const char *name;
        unsigned off, size, count;
    } c[] = {
        {SEQ_FMT_DMA, "SRC_ESIZE", SEQ_F_DMA_SRC_ESIZE, SEQ_F_DMA_SRC_ESIZE_W, 1},
        {SEQ_FMT_MV, "IMM", SEQ_F_MV_IMM, SEQ_F_MV_IMM_W, SEQ_F_MV_IMM_N},
        {SEQ_FMT_BR, "TARGET_IMM", SEQ_F_BR_TARGET_IMM, SEQ_F_BR_TARGET_IMM_W, 1},
    };
    for (size_t k = 0; k < G_N_ELEMENTS(c); k++) {
        bool found = false;
        for (unsigned i = 0; i < seq_field_count; i++) {
            const SeqFieldDesc *d = &seq_field_table[i];
            if (d->fmt == c[k].fmt && !strcmp(d->name, c[k].name)) {
                g_assert_cmpuint(d->off, ==, c[k].off);
                g_assert_cmpuint(d->size, ==, c[k].size);
                g_assert_cmpuint(d->count, ==, c[k].count);
                found = true;
            }
        }
        g_assert_true(found);
    }
}

/* get/put on a record built byte by byte from the spec's layouts. */
static void test_accessors(void)
{
    uint8_t r[64] = {0};
    /* DMA_MEMCPY src_elem_size at 36..37, little-endian; 0 means 65536. */
    g_assert_cmpuint(seq_field_get(r, SEQ_F_DMA_SRC_ESIZE), ==, 65536);
    r[36] = 0x34;
    r[37] = 0x12;
    g_assert_cmpuint(seq_field_get(r, SEQ_F_DMA_SRC_ESIZE), ==, 0x1234);
    seq_field_put(r, SEQ_F_DMA_SRC_ESIZE, 65536);
    g_assert_cmpuint(r[36], ==, 0);
    g_assert_cmpuint(r[37], ==, 0);
    /* src_step_elem[0] at 24..27, i32: 0xFFFFFFFE is -2. */
    memset(r + 24, 0xFF, 4);
    r[24] = 0xFE;
    g_assert_cmpint((int64_t)seq_field_get(r, SEQ_F_DMA_SRC_STEP0), ==, -2);
    g_assert_cmpint((int32_t)seq_field_get(r, SEQ_F_DMA_SRC_STEP0), ==, -2);
    /* DMA_INDIRECT flags at byte 15: mode [1:0], non_unique_dst_idx [3]. */
    r[15] = 0x0A;
    g_assert_cmpuint(seq_field_get(r, SEQ_F_DMAI_MODE), ==, 2);
    g_assert_cmpuint(seq_field_get(r, SEQ_F_DMAI_NON_UNIQUE_DST), ==, 1);
    seq_field_put(r, SEQ_F_DMAI_MODE, 1);
    g_assert_cmpuint(r[15], ==, 0x09);
    /* MOVE immediates: u32 k at 32 + 4k. */
    seq_field_put_at(r, SEQ_F_MV_IMM, 3, 0xA1B2C3D4u);
    g_assert_cmpuint(r[44], ==, 0xD4);
    g_assert_cmpuint(r[47], ==, 0xA1);
    g_assert_cmpuint(seq_field_get_at(r, SEQ_F_MV_IMM, 3), ==, 0xA1B2C3D4u);
    /* ADDR8 sub-fields through the operand pointer: WRITE address at 16. */
    memset(r, 0, sizeof(r));
    r[16 + 6] = 5;
    r[16 + 7] = 0x20;
    g_assert_cmpuint(seq_field_get(seq_field_ptr(r, SEQ_F_WR_ADDR), SEQ_F_ADDR8_INDEX), ==, 5);
    g_assert_cmpuint(seq_field_get(seq_field_ptr(r, SEQ_F_WR_ADDR), SEQ_F_ADDR8_MARKER), ==, 0x20);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/seq/fields/spec-offsets", test_spec_offsets);
    g_test_add_func("/seq/fields/spec-bits", test_spec_bits);
    g_test_add_func("/seq/fields/spec-encodings", test_spec_encodings);
    g_test_add_func("/seq/fields/no-overlap", test_no_overlap);
    g_test_add_func("/seq/fields/clear-of-reserved", test_clear_of_reserved);
    g_test_add_func("/seq/fields/table-matches-constants", test_table_matches_constants);
    g_test_add_func("/seq/fields/accessors", test_accessors);
    return g_test_run();
}
