/*
 * ISA coverage (`-coverage FILE`): which opcodes, data types, addressing
 * modes, predicates/switches and fault kinds the executed instructions
 * exercised, per ISA.
 *
 * Both what was executed and what exists come from the ISA tables the
 * decoders use (target/seq/insn.def through seq_decode and seq_insn_desc,
 * the TPC insn-*.def rows through tpc_decode_bundle, tpc_insn_desc and
 * tpc_sws_table), so "N of M" can never drift from the decoder.
 */
#include <inttypes.h>

#include "softmmu/trace-int.h"
#include "target/seq/insn.h"
#include "target/tpc/asm.h"
#include "target/tpc/cpu.h"
#include "target/tpc/insn.h"

typedef struct CovCat {
    const char *name;
    GPtrArray *keys;   /* owned strings; the first `universe` are what exists */
    GArray *hits;      /* uint64_t per key */
    GHashTable *index; /* key -> index + 1 */
    unsigned universe;
} CovCat;

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

enum { TC_OPCODES, TC_DTYPES, TC_OPERANDS, TC_PREDICATES, TC_SWITCHES, TC_FAULTS, TC_COUNT };
static const char *const tpc_cat_names[TC_COUNT] = {
    "opcodes", "dtypes", "operands", "predicates", "switches", "faults",
};

struct TraceCov {
    uint64_t seq_insns, tpc_bundles;
    CovCat seq[SC_COUNT];
    CovCat tpc[TC_COUNT];
};

static void cat_init(CovCat *c, const char *name)
{
    c->name = name;
    c->keys = g_ptr_array_new_with_free_func(g_free);
    c->hits = g_array_new(FALSE, TRUE, sizeof(uint64_t));
    c->index = g_hash_table_new(g_str_hash, g_str_equal);
}

static void cat_destroy(CovCat *c)
{
    g_hash_table_destroy(c->index);
    g_ptr_array_free(c->keys, TRUE);
    g_array_free(c->hits, TRUE);
}

static unsigned cat_add(CovCat *c, const char *key)
{
    gpointer v = g_hash_table_lookup(c->index, key);
    if (v)
        return GPOINTER_TO_UINT(v) - 1;
    char *k = g_strdup(key);
    uint64_t zero = 0;
    g_ptr_array_add(c->keys, k);
    g_array_append_val(c->hits, zero);
    g_hash_table_insert(c->index, k, GUINT_TO_POINTER(c->keys->len));
    return c->keys->len - 1;
}

/* Declare what exists (call before any hit). */
static void cat_exists(CovCat *c, const char *key)
{
    cat_add(c, key);
    c->universe = c->keys->len;
}

/* Something outside the universe is kept as well, and listed as "other". */
static void cat_hit(CovCat *c, const char *key)
{
    if (key)
        g_array_index(c->hits, uint64_t, cat_add(c, key))++;
}

/* ---- sequencer ------------------------------------------------------------ */

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

static void seq_universe(TraceCov *c)
{
    CovCat *s = c->seq;
    for (unsigned i = 0; i < SC_COUNT; i++)
        cat_init(&s[i], seq_cat_names[i]);
#define SEQ_INSN(opc, NAME, mnem, exec, rsv, ...) cat_exists(&s[SC_OPCODES], mnem);
#define SEQ_ALU_OP(code, NAME, mnem, unary, fp32) cat_exists(&s[SC_ALU_OPS], mnem);
#define SEQ_DTYPE(code, NAME, asmname, size)      cat_exists(&s[SC_DTYPES], asmname);
#include "target/seq/insn.def"
    for (unsigned i = 0; i < G_N_ELEMENTS(seq_addr_mode_names); i++)
        cat_exists(&s[SC_ADDR_MODES], seq_addr_mode_names[i]);
    for (unsigned i = 0; i < G_N_ELEMENTS(seq_waits); i++)
        cat_exists(&s[SC_WAITS], seq_waits[i].name);
    for (unsigned i = 0; i < G_N_ELEMENTS(seq_update_names); i++) {
        if (!seq_update_names[i])
            continue;
        g_autofree char *r = g_strconcat(seq_update_names[i], ".read", NULL);
        g_autofree char *k = g_strconcat(seq_update_names[i], ".complete", NULL);
        cat_exists(&s[SC_UPDATES], r);
        cat_exists(&s[SC_UPDATES], k);
    }
    for (unsigned i = 0; i < G_N_ELEMENTS(seq_cond_names); i++)
        cat_exists(&s[SC_BR_CONDS], seq_cond_names[i]);
    for (unsigned i = 0; i < G_N_ELEMENTS(seq_targets); i++)
        cat_exists(&s[SC_BR_TARGETS], seq_targets[i].name);
    for (unsigned code = NX_FAULT_INVALID_OPCODE; code <= NX_FAULT_DMA_ERROR; code++)
        cat_exists(&s[SC_FAULTS], nx_fault_name(code));
}

static void seq_dtype_hit(TraceCov *c, unsigned dt)
{
    cat_hit(&c->seq[SC_DTYPES], seq_dtype_name(dt));
}

static void seq_addr_hit(TraceCov *c, const SeqAddr8 *a)
{
    if (a->mode < G_N_ELEMENTS(seq_addr_mode_names))
        cat_hit(&c->seq[SC_ADDR_MODES], seq_addr_mode_names[a->mode]);
}

static void seq_wait_hit(TraceCov *c, uint8_t mode)
{
    if (mode == SEQ_WAIT_NONE)
        return;
    for (unsigned i = 0; i < G_N_ELEMENTS(seq_waits); i++)
        if (seq_waits[i].mode == mode) {
            cat_hit(&c->seq[SC_WAITS], seq_waits[i].name);
            return;
        }
}

void cov_seq(TraceCov *c, const uint8_t rec[64])
{
    SeqInsn in;
    NxFault f;
    if (seq_decode(rec, &in, &f) != SEQ_DECODE_OK)
        return; /* the fault kind is recorded at the end of the run */
    const SeqInsnDesc *d = seq_insn_desc(in.opcode);
    c->seq_insns++;
    if (d)
        cat_hit(&c->seq[SC_OPCODES], d->mnemonic);
    seq_wait_hit(c, in.wait[0].mode);
    seq_wait_hit(c, in.wait[1].mode);
    if (in.update.kind && in.update.kind < G_N_ELEMENTS(seq_update_names) &&
        seq_update_names[in.update.kind]) {
        g_autofree char *k = g_strconcat(seq_update_names[in.update.kind],
                                         in.update.complete ? ".complete" : ".read", NULL);
        cat_hit(&c->seq[SC_UPDATES], k);
    }
    switch (in.opcode) {
    case SEQ_OP_WRITE:
        seq_dtype_hit(c, in.u.wr.dtype);
        seq_addr_hit(c, &in.u.wr.addr);
        break;
    case SEQ_OP_MOVE:
        seq_dtype_hit(c, in.u.mv.dtype);
        break;
    case SEQ_OP_ALU_OP:
        cat_hit(&c->seq[SC_ALU_OPS], seq_alu_mnemonic(in.u.alu.op));
        seq_dtype_hit(c, in.u.alu.dtype);
        if (in.u.alu.dst_dtype != in.u.alu.dtype)
            seq_dtype_hit(c, in.u.alu.dst_dtype);
        break;
    case SEQ_OP_COMPARE_BRANCH:
        seq_dtype_hit(c, in.u.br.dtype);
        if (in.u.br.cond < G_N_ELEMENTS(seq_cond_names))
            cat_hit(&c->seq[SC_BR_CONDS], seq_cond_names[in.u.br.cond]);
        for (unsigned i = 0; i < G_N_ELEMENTS(seq_targets); i++)
            if (seq_targets[i].mode == in.u.br.target_mode)
                cat_hit(&c->seq[SC_BR_TARGETS], seq_targets[i].name);
        break;
    case SEQ_OP_TENSOR_LOAD:
    case SEQ_OP_TENSOR_STORE:
        seq_dtype_hit(c, in.u.m2d.dtype);
        seq_addr_hit(c, &in.u.m2d.addr);
        break;
    case SEQ_OP_DMA_MEMCPY:
        seq_dtype_hit(c, in.u.dma.in_dtype);
        if (in.u.dma.out_dtype != in.u.dma.in_dtype)
            seq_dtype_hit(c, in.u.dma.out_dtype);
        seq_addr_hit(c, &in.u.dma.src);
        seq_addr_hit(c, &in.u.dma.dst);
        break;
    case SEQ_OP_DMA_INDIRECT:
        seq_dtype_hit(c, in.u.dmai.in_dtype);
        if (in.u.dmai.out_dtype != in.u.dmai.in_dtype)
            seq_dtype_hit(c, in.u.dmai.out_dtype);
        seq_addr_hit(c, &in.u.dmai.src);
        seq_addr_hit(c, &in.u.dmai.dst);
        break;
    default:
        break;
    }
}

/* ---- TPC -------------------------------------------------------------------- */

static const char *const tpc_slot_names[4] = {"ld", "spu", "vpu", "st"};
static const char *const tpc_opkind_names[] = {
    [TPC_OP_V] = "V",          [TPC_OP_S] = "S",       [TPC_OP_SP] = "SP",
    [TPC_OP_VP] = "VP",        [TPC_OP_I] = "I",       [TPC_OP_AD] = "AD",
    [TPC_OP_IMM] = "imm",      [TPC_OP_SIMM] = "simm", [TPC_OP_VSPECIAL] = "vspecial",
    [TPC_OP_SLFSR] = "s_lfsr",  [TPC_OP_HWREG] = "hw_reg",
};
static const char *const tpc_pred_names[] = {"none", "sp", "sp_neg", "vp", "vp_neg"};

/* "spu.add.st": a switch of an instruction (one-bit, or a multi-bit field
 * counted when nonzero). */
static void tpc_switch_key(char *buf, size_t n, unsigned slot, const TpcInsnDesc *d,
                           const TpcSwDef *sw)
{
    g_snprintf(buf, n, "%s.%s.%s", tpc_slot_names[slot], d->mnemonic, sw->key);
}

static bool tpc_sw_applies(const TpcSwDef *sw, unsigned slot)
{
    return sw->slots == 0 || (sw->slots >> slot) & 1;
}

static void tpc_universe(TraceCov *c)
{
    CovCat *t = c->tpc;
    char key[96];
    for (unsigned i = 0; i < TC_COUNT; i++)
        cat_init(&t[i], tpc_cat_names[i]);
    for (unsigned slot = 0; slot < 4; slot++)
        for (unsigned opc = 0; opc < 64; opc++) {
            const TpcInsnDesc *d = tpc_insn_desc(slot, opc);
            if (!d)
                continue;
            g_snprintf(key, sizeof(key), "%s.%s", tpc_slot_names[slot], d->mnemonic);
            cat_exists(&t[TC_OPCODES], key);
            for (const TpcSwDef *sw = tpc_sws_table(d->sws); sw && sw->key; sw++) {
                if (!tpc_sw_applies(sw, slot))
                    continue;
                tpc_switch_key(key, sizeof(key), slot, d, sw);
                cat_exists(&t[TC_SWITCHES], key);
            }
        }
    for (unsigned i = 0; i < TPC_T_COUNT; i++)
        cat_exists(&t[TC_DTYPES], tpc_type_suffix[i]);
    for (unsigned i = 0; i < G_N_ELEMENTS(tpc_opkind_names); i++)
        if (tpc_opkind_names[i])
            cat_exists(&t[TC_OPERANDS], tpc_opkind_names[i]);
    for (unsigned i = 0; i < G_N_ELEMENTS(tpc_pred_names); i++)
        cat_exists(&t[TC_PREDICATES], tpc_pred_names[i]);
    for (unsigned code = TPC_FAULT_ILLEGAL_OPCODE; code <= TPC_FAULT_BUNDLE_CONFLICT; code++)
        cat_exists(&t[TC_FAULTS], tpc_fault_name(code));
}

static void tpc_operand_hit(TraceCov *c, const TpcOperand *o)
{
    if (o->kind < G_N_ELEMENTS(tpc_opkind_names) && tpc_opkind_names[o->kind])
        cat_hit(&c->tpc[TC_OPERANDS], tpc_opkind_names[o->kind]);
}

void cov_tpc(TraceCov *c, const uint8_t bundle[32])
{
    TpcBundle b;
    NxFault f;
    char key[96];
    if (!tpc_decode_bundle(bundle, &b, &f))
        return;
    c->tpc_bundles++;
    if (b.is_loop) {
        const TpcInsnDesc *d = b.slot[TPC_SLOT_SPU].desc;
        if (d) {
            g_snprintf(key, sizeof(key), "spu.%s", d->mnemonic);
            cat_hit(&c->tpc[TC_OPCODES], key);
        }
        return;
    }
    for (unsigned slot = 0; slot < 4; slot++) {
        const TpcInsn *in = &b.slot[slot];
        const TpcInsnDesc *d = in->desc;
        if (!d)
            continue;
        g_snprintf(key, sizeof(key), "%s.%s", tpc_slot_names[slot], d->mnemonic);
        cat_hit(&c->tpc[TC_OPCODES], key);
        if (d->form == TPC_FORM_NOP)
            continue;
        if (d->types != TPC_TT_NONE && in->type < TPC_T_COUNT)
            cat_hit(&c->tpc[TC_DTYPES], tpc_type_suffix[in->type]);
        tpc_operand_hit(c, &in->dst);
        tpc_operand_hit(c, &in->a);
        tpc_operand_hit(c, &in->b);
        tpc_operand_hit(c, &in->c);
        tpc_operand_hit(c, &in->d);
        if (!(d->flags & TPC_F_NOPRED)) {
            unsigned p = 0;
            if (in->pred || in->pred_vp || in->polarity)
                p = (in->pred_vp ? 3 : 1) + (in->polarity ? 1 : 0);
            cat_hit(&c->tpc[TC_PREDICATES], tpc_pred_names[p]);
        }
        for (const TpcSwDef *sw = tpc_sws_table(d->sws); sw && sw->key; sw++) {
            if (!tpc_sw_applies(sw, slot) || !tpc_sw_value(in, sw))
                continue;
            tpc_switch_key(key, sizeof(key), slot, d, sw);
            cat_hit(&c->tpc[TC_SWITCHES], key);
        }
    }
}

/* ---- common ----------------------------------------------------------------- */

TraceCov *cov_new(void)
{
    TraceCov *c = g_new0(TraceCov, 1);
    seq_universe(c);
    tpc_universe(c);
    return c;
}

void cov_free(TraceCov *c)
{
    for (unsigned i = 0; i < SC_COUNT; i++)
        cat_destroy(&c->seq[i]);
    for (unsigned i = 0; i < TC_COUNT; i++)
        cat_destroy(&c->tpc[i]);
    g_free(c);
}

void cov_fault(TraceCov *c, bool tpc, uint32_t code)
{
    if (tpc)
        cat_hit(&c->tpc[TC_FAULTS], tpc_fault_name(code));
    else
        cat_hit(&c->seq[SC_FAULTS], nx_fault_name(code));
}

static unsigned cat_covered(const CovCat *c)
{
    unsigned n = 0;
    for (unsigned i = 0; i < c->universe; i++)
        n += g_array_index(c->hits, uint64_t, i) != 0;
    return n;
}

static void cat_json(const CovCat *c, GString *out)
{
    bool first;
    tl_json_str(out, c->name);
    g_string_append_printf(out, ":{\"covered\":%u,\"total\":%u,\"hits\":{", cat_covered(c),
                           c->universe);
    first = true;
    for (unsigned i = 0; i < c->universe; i++) {
        uint64_t h = g_array_index(c->hits, uint64_t, i);
        if (!h)
            continue;
        g_string_append(out, first ? "" : ",");
        tl_json_str(out, g_ptr_array_index(c->keys, i));
        g_string_append_printf(out, ":%" PRIu64, h);
        first = false;
    }
    g_string_append(out, "},\"missing\":[");
    first = true;
    for (unsigned i = 0; i < c->universe; i++) {
        if (g_array_index(c->hits, uint64_t, i))
            continue;
        g_string_append(out, first ? "" : ",");
        tl_json_str(out, g_ptr_array_index(c->keys, i));
        first = false;
    }
    g_string_append(out, "],\"other\":{");
    first = true;
    for (unsigned i = c->universe; i < c->keys->len; i++) {
        g_string_append(out, first ? "" : ",");
        tl_json_str(out, g_ptr_array_index(c->keys, i));
        g_string_append_printf(out, ":%" PRIu64, g_array_index(c->hits, uint64_t, i));
        first = false;
    }
    g_string_append(out, "}}");
}

static void isa_json(const char *name, uint64_t n, const char *unit, const CovCat *cats,
                     unsigned nr, GString *out)
{
    g_string_append_printf(out, "\"%s\":{\"%s\":%" PRIu64 ",\"categories\":{", name, unit, n);
    for (unsigned i = 0; i < nr; i++) {
        if (i)
            g_string_append(out, ",\n    ");
        cat_json(&cats[i], out);
    }
    g_string_append(out, "}}");
}

void cov_json(TraceCov *c, GString *out)
{
    g_string_append(out, "{\"format\":\"nxemu-coverage-1\",\"isas\":{\n  ");
    isa_json("seq", c->seq_insns, "instructions", c->seq, SC_COUNT, out);
    g_string_append(out, ",\n  ");
    isa_json("tpc", c->tpc_bundles, "bundles", c->tpc, TC_COUNT, out);
    g_string_append(out, "}}\n");
}

static void isa_summary(const char *name, uint64_t n, const char *unit, const CovCat *cats,
                        unsigned nr, GString *out)
{
    g_string_append_printf(out, "%s: %" PRIu64 " %s\n", name, n, unit);
    for (unsigned i = 0; i < nr; i++) {
        const CovCat *c = &cats[i];
        unsigned cov = cat_covered(c);
        g_string_append_printf(out, "  %-15s %4u of %-4u (%5.1f%%)", c->name, cov, c->universe,
                               c->universe ? 100.0 * cov / c->universe : 0.0);
        if (cov < c->universe && c->universe - cov <= 24) {
            g_string_append(out, "  missing:");
            for (unsigned k = 0; k < c->universe; k++)
                if (!g_array_index(c->hits, uint64_t, k))
                    g_string_append_printf(out, " %s", (const char *)g_ptr_array_index(c->keys, k));
        }
        g_string_append_c(out, '\n');
    }
}

void cov_summary(TraceCov *c, GString *out)
{
    g_string_append(out, "nxemu ISA coverage\n");
    isa_summary("seq", c->seq_insns, "instructions", c->seq, SC_COUNT, out);
    isa_summary("tpc", c->tpc_bundles, "bundles", c->tpc, TC_COUNT, out);
}
