/*
 * The sequencer's part of ISA coverage (include/nxemu/coverage.h): the
 * categories, what exists in each (target/seq/insn.def and the decoder's
 * field values) and what one executed record hits, through seq_decode and
 * seq_insn_desc as the executor decodes it.
 */
#include "nxemu/coverage.h"
#include "nxemu/fault.h"
#include "target/seq/insn.h"

enum {
    SC_OPCODES,
    SC_ALU_OPS,
    SC_DTYPES,
    SC_ADDR_MODES,
    SC_WAITS,
    SC_UPDATES,
    SC_BR_CONDS,
    SC_BR_TARGETS,
    SC_FAULTS,
    SC_COUNT
};
static const char *const seq_cat_names[SC_COUNT] = {
    "opcodes", "alu_ops",      "dtypes",         "addr_modes", "wait_modes",
    "updates", "branch_conds", "branch_targets", "faults",
};

static const char *const seq_addr_mode_names[] = {"imm",       "reg",     "tbl_imm32",
                                                  "tbl_imm48", "tbl_reg", "tbl_reg64"};
static const char *const seq_cond_names[] = {"always", "lt", "le", "eq", "ne", "ge", "gt"};
static const struct {
    uint8_t mode;
    const char *name;
} seq_targets[] = {{SEQ_TGT_ABS_IMM, "abs_imm"},
                   {SEQ_TGT_REGISTER, "register"},
                   {SEQ_TGT_REL_IMM, "rel_imm"},
                   {SEQ_TGT_REL_REGISTER, "rel_register"}};
static const struct {
    uint8_t mode;
    const char *name;
} seq_waits[] = {
    {SEQ_WAIT_SEM_EQ, "sem_eq"},
    {SEQ_WAIT_SEM_LT, "sem_lt"},
    {SEQ_WAIT_SEM_LE, "sem_le"},
    {SEQ_WAIT_SEM_GT, "sem_gt"},
    {SEQ_WAIT_SEM_GE, "sem_ge"},
    {SEQ_WAIT_SEM_EQ | SEQ_WAIT_REG, "sem_eq_reg"},
    {SEQ_WAIT_SEM_LT | SEQ_WAIT_REG, "sem_lt_reg"},
    {SEQ_WAIT_SEM_LE | SEQ_WAIT_REG, "sem_le_reg"},
    {SEQ_WAIT_SEM_GT | SEQ_WAIT_REG, "sem_gt_reg"},
    {SEQ_WAIT_SEM_GE | SEQ_WAIT_REG, "sem_ge_reg"},
    {SEQ_WAIT_EVT_SET, "evt_set"},
    {SEQ_WAIT_EVT_SET_THEN_CLEAR, "evt_set_then_clear"},
    {SEQ_WAIT_EVT_CLEAR, "evt_clear"},
    {SEQ_WAIT_EVT_CLEAR_THEN_SET, "evt_clear_then_set"},
};
static const char *const seq_update_names[] = {
    [SEQ_UPD_EVT_SET] = "evt_set",         [SEQ_UPD_EVT_CLR] = "evt_clr",
    [SEQ_UPD_SEM_INC] = "sem_inc",         [SEQ_UPD_SEM_DEC] = "sem_dec",
    [SEQ_UPD_SEM_ADD_IMM] = "sem_add_imm", [SEQ_UPD_SEM_ADD_REG] = "sem_add_reg",
    [SEQ_UPD_SEM_SUB_IMM] = "sem_sub_imm", [SEQ_UPD_SEM_SUB_REG] = "sem_sub_reg",
    [SEQ_UPD_SEM_WR_IMM] = "sem_wr_imm",   [SEQ_UPD_SEM_WR_REG] = "sem_wr_reg",
};

static void seq_cov_universe(NxCovCat *cats)
{
    NxCovCat *s = cats;
#define SEQ_INSN(opc, NAME, mnem, exec, rsv, ...) nx_cov_exists(&s[SC_OPCODES], mnem);
#define SEQ_ALU_OP(code, NAME, mnem, unary, fp32) nx_cov_exists(&s[SC_ALU_OPS], mnem);
#define SEQ_DTYPE(code, NAME, asmname, size)      nx_cov_exists(&s[SC_DTYPES], asmname);
#include "target/seq/insn.def"
    for (unsigned i = 0; i < G_N_ELEMENTS(seq_addr_mode_names); i++)
        nx_cov_exists(&s[SC_ADDR_MODES], seq_addr_mode_names[i]);
    for (unsigned i = 0; i < G_N_ELEMENTS(seq_waits); i++)
        nx_cov_exists(&s[SC_WAITS], seq_waits[i].name);
    for (unsigned i = 0; i < G_N_ELEMENTS(seq_update_names); i++) {
        if (!seq_update_names[i])
            continue;
        g_autofree char *r = g_strconcat(seq_update_names[i], ".read", NULL);
        g_autofree char *k = g_strconcat(seq_update_names[i], ".complete", NULL);
        nx_cov_exists(&s[SC_UPDATES], r);
        nx_cov_exists(&s[SC_UPDATES], k);
    }
    for (unsigned i = 0; i < G_N_ELEMENTS(seq_cond_names); i++)
        nx_cov_exists(&s[SC_BR_CONDS], seq_cond_names[i]);
    for (unsigned i = 0; i < G_N_ELEMENTS(seq_targets); i++)
        nx_cov_exists(&s[SC_BR_TARGETS], seq_targets[i].name);
    for (unsigned code = NX_FAULT_INVALID_OPCODE; code <= NX_FAULT_DMA_ERROR; code++)
        nx_cov_exists(&s[SC_FAULTS], nx_fault_name(code));
}

static void seq_dtype_hit(NxCovCat *cats, unsigned dt)
{
    nx_cov_hit(&cats[SC_DTYPES], seq_dtype_name(dt));
}

static void seq_addr_hit(NxCovCat *cats, const SeqAddr8 *a)
{
    if (a->mode < G_N_ELEMENTS(seq_addr_mode_names))
        nx_cov_hit(&cats[SC_ADDR_MODES], seq_addr_mode_names[a->mode]);
}

static void seq_wait_hit(NxCovCat *cats, uint8_t mode)
{
    if (mode == SEQ_WAIT_NONE)
        return;
    for (unsigned i = 0; i < G_N_ELEMENTS(seq_waits); i++)
        if (seq_waits[i].mode == mode) {
            nx_cov_hit(&cats[SC_WAITS], seq_waits[i].name);
            return;
        }
}

static bool seq_cov_insn(NxCovCat *cats, const uint8_t *rec)
{
    SeqInsn in;
    NxFault f;
    if (seq_decode(rec, &in, &f) != SEQ_DECODE_OK)
        return false;
    const SeqInsnDesc *d = seq_insn_desc(in.opcode);
    if (d)
        nx_cov_hit(&cats[SC_OPCODES], d->mnemonic);
    seq_wait_hit(cats, in.wait[0].mode);
    seq_wait_hit(cats, in.wait[1].mode);
    if (in.update.kind && in.update.kind < G_N_ELEMENTS(seq_update_names) &&
        seq_update_names[in.update.kind]) {
        g_autofree char *k = g_strconcat(seq_update_names[in.update.kind],
                                         in.update.complete ? ".complete" : ".read", NULL);
        nx_cov_hit(&cats[SC_UPDATES], k);
    }
    switch (in.opcode) {
    case SEQ_OP_WRITE:
        seq_dtype_hit(cats, in.u.wr.dtype);
        seq_addr_hit(cats, &in.u.wr.addr);
        break;
    case SEQ_OP_MOVE:
        seq_dtype_hit(cats, in.u.mv.dtype);
        break;
    case SEQ_OP_ALU_OP:
        nx_cov_hit(&cats[SC_ALU_OPS], seq_alu_mnemonic(in.u.alu.op));
        seq_dtype_hit(cats, in.u.alu.dtype);
        if (in.u.alu.dst_dtype != in.u.alu.dtype)
            seq_dtype_hit(cats, in.u.alu.dst_dtype);
        break;
    case SEQ_OP_COMPARE_BRANCH:
        seq_dtype_hit(cats, in.u.br.dtype);
        if (in.u.br.cond < G_N_ELEMENTS(seq_cond_names))
            nx_cov_hit(&cats[SC_BR_CONDS], seq_cond_names[in.u.br.cond]);
        for (unsigned i = 0; i < G_N_ELEMENTS(seq_targets); i++)
            if (seq_targets[i].mode == in.u.br.target_mode)
                nx_cov_hit(&cats[SC_BR_TARGETS], seq_targets[i].name);
        break;
    case SEQ_OP_TENSOR_LOAD:
    case SEQ_OP_TENSOR_STORE:
        seq_dtype_hit(cats, in.u.m2d.dtype);
        seq_addr_hit(cats, &in.u.m2d.addr);
        break;
    case SEQ_OP_DMA_MEMCPY:
        seq_dtype_hit(cats, in.u.dma.in_dtype);
        if (in.u.dma.out_dtype != in.u.dma.in_dtype)
            seq_dtype_hit(cats, in.u.dma.out_dtype);
        seq_addr_hit(cats, &in.u.dma.src);
        seq_addr_hit(cats, &in.u.dma.dst);
        break;
    case SEQ_OP_DMA_INDIRECT:
        seq_dtype_hit(cats, in.u.dmai.in_dtype);
        if (in.u.dmai.out_dtype != in.u.dmai.in_dtype)
            seq_dtype_hit(cats, in.u.dmai.out_dtype);
        seq_addr_hit(cats, &in.u.dmai.src);
        seq_addr_hit(cats, &in.u.dmai.dst);
        break;
    default:
        break;
    }
    return true;
}

const NxCovIsa seq_cov_isa = {
    .name = "seq",
    .unit = "instructions",
    .cats = seq_cat_names,
    .nr_cats = SC_COUNT,
    .len = 64,
    .fault_cat = SC_FAULTS,
    .universe = seq_cov_universe,
    .insn = seq_cov_insn,
    .fault_name = nx_fault_name,
};
