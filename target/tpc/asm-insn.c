/*
 * TPC assembler, one slot instruction, encoders: `mnemonic[.type][.SW...] [words]
 * operands[, predicate]` (tpc.md §8.2, §8.7) -> the slot's bundle fields
 * (tpc.md §4, §5).  Mnemonics, forms and switch sets come from the .def rows
 * through tpc_insn_desc() and tpc_sws_table().
 */
#include <string.h>

#include "target/tpc/asm-int.h"

/* A row whose form has no layout: loop, which asm_loop
 * assembles as a whole bundle, or a table mistake. */
static bool enc_no_layout(Stmt *st)
{
    if (st->desc->form == TPC_FORM_LOOP)
        asm_error(st->c, st->col, "'loop' occupies a whole bundle and must be alone on its line");
    else
        asm_error(st->c, st->col, "'%s' has no encoder for its form (a table mistake)", st->mn);
    return false;
}

bool asm_slot(AsmCtx *c, AsmBundle *ab, unsigned slot, char *text, int col)
{
    Stmt st;
    bool ok;
    memset(&st, 0, sizeof(st));
    st.c = c;
    st.ab = ab;
    st.slot = slot;
    st.strs = g_ptr_array_new_with_free_func(g_free);
    ok = asm_parse_stmt(&st, text, col) && asm_check_switch_types(&st);
    if (ok) {
        /* shared-field rules (tpc.md §4.1, §8.1) are checked after all slots */
        ok = tpc_form_layout(st.desc->form) ? asm_enc_layout(&st) : enc_no_layout(&st);
        if (ok) {
            ab->slot_used[slot] = st.desc->form != TPC_FORM_NOP;
            /* the slot's value of each shared field it claimed, for the
             * bundle check: two slots may share a field when they agree */
            if (slot == TPC_SLOT_LD && ab->uses_ld_b)
                ab->ld_b = tpc_bits(ab->b, TPC_B_VPU_SRC_D, 9);
            if (slot == TPC_SLOT_VPU && ab->uses_vpu_d)
                ab->vpu_d = tpc_bits(ab->b, TPC_B_VPU_SRC_D, 9);
            if (slot == TPC_SLOT_VPU && ab->uses_vpu_c)
                ab->vpu_c = tpc_bits(ab->b, TPC_B_VPU_SRC_C, 8);
            if (slot == TPC_SLOT_ST && ab->uses_st_c)
                ab->st_c = tpc_bits(ab->b, TPC_B_VPU_SRC_C, 8);
        }
    }
    g_ptr_array_free(st.strs, TRUE);
    return ok;
}

bool asm_loop(AsmCtx *c, AsmBundle *ab, char *text, int col)
{
    Stmt st;
    bool ok = false;
    memset(&st, 0, sizeof(st));
    st.c = c;
    st.ab = ab;
    st.slot = TPC_SLOT_SPU;
    st.strs = g_ptr_array_new_with_free_func(g_free);
    if (!asm_parse_stmt(&st, text, col))
        goto out;
    st.mn = "loop";
    memset(ab->b, 0, sizeof(ab->b)); /* LOOP owns the whole bundle */
    if (!asm_take_ops(&st, 5, 6) || !asm_no_type(&st))
        goto out;
    /* optional sixth operand (tpc-llvm loop-01 `loop ..., End, 0x1`): the
     * REPEAT_AT_MOST_ONCE bit, tpc.md §4.4 bit 29 */
    if (st.nops == 6) {
        const AOp *o = &st.ops[5];
        if (o->type != AOP_IMM || o->value > 1) {
            asm_error(c, o->col, "loop repeat-at-most-once flag must be 0 or 1");
            goto out;
        }
        asm_put(&st, TPC_B_LOOP_ONCE, 1, o->value);
    }
    for (int i = 0; i < 3; i++) {
        const AOp *o = &st.ops[i];
        const TpcLoopOpd *d = &tpc_loop_opd[i];
        if (asm_is_reg(o, TPC_OP_S)) {
            asm_put(&st, d->reg_lo, d->reg_w, o->num);
        } else if (o->type == AOP_IMM) {
            /* the vendor also leaves the immediate's low bits in the register field */
            asm_put(&st, d->reg_lo, d->reg_w, o->value & ((1u << d->reg_w) - 1));
            asm_put(&st, d->sel, 1, 1);
            if (d->imm_lo == TPC_B_IMM) { /* the bundle's IMM, shared with the slots */
                ab->imm[TPC_SLOT_SPU].used = true;
                ab->imm[TPC_SLOT_SPU].value = o->value;
                ab->imm[TPC_SLOT_SPU].col = o->col;
                ab->loop_start_imm = true;
            } else {
                asm_put(&st, d->imm_lo, 32, o->value);
            }
        } else {
            asm_error(c, o->col, "loop %s must be an S register or an integer", d->name);
            goto out;
        }
    }
    {
        const AOp *o = &st.ops[3];
        int cmp = -1;
        for (int i = 0; i < 6; i++)
            if (!strcmp(o->s, tpc_loop_cmp_name[i]))
                cmp = i;
        if (cmp < 0) {
            asm_error(c, o->col, "loop comparison must be one of > >= < <= == !=");
            goto out;
        }
        asm_put(&st, TPC_B_LOOP_CMP, 3, (unsigned)cmp);
    }
    {
        const AOp *o = &st.ops[4];
        if (o->type == AOP_NAME) {
            ab->fix_kind = FIX_LOOP;
            ab->fix_label = g_strdup(o->s);
            ab->fix_col = o->col;
        } else if (o->type == AOP_IMM && o->value <= 0xffff) {
            asm_put(&st, TPC_B_LOOP_END, 16, o->value);
        } else {
            asm_error(c, o->col, "loop end must be a label or an offset 0..65535");
            goto out;
        }
    }
    if (st.has_pred && st.pred.kind == TPC_OP_VP) {
        asm_error(c, st.pred.col, "'loop' takes only a scalar predicate");
        goto out;
    }
    asm_put(&st, TPC_B_SPU_OPC, 6, TPC_OPC_LOOP);
    asm_put(&st, TPC_B_SPU_PRED, 4, st.has_pred ? st.pred.num : 0);
    asm_put(&st, TPC_B_SPU_POL, 1, st.has_pred && st.pred.neg_pred);
    ab->slot_used[TPC_SLOT_SPU] = true;
    ok = true;
out:
    g_ptr_array_free(st.strs, TRUE);
    return ok;
}

void asm_bundle_init(AsmBundle *ab)
{
    /* four nops: every other field 0 */
    memset(ab, 0, sizeof(*ab));
    tpc_set_bits(ab->b, TPC_B_SPU_OPC, 6, TPC_OPC_SPU_NOP);
    tpc_set_bits(ab->b, TPC_B_VPU_OPC, 6, TPC_OPC_VPU_NOP);
    tpc_set_bits(ab->b, TPC_B_LD_OPC, 5, TPC_OPC_LD_NOP);
    tpc_set_bits(ab->b, TPC_B_ST_OPC, 5, TPC_OPC_ST_NOP);
}

/* ---- one instruction per line: slot assignment ---- */

static const char *const group_slot_name[4] = {"load", "SPU", "VPU", "store"};

/* Does `in` assemble in `slot` of an otherwise empty bundle?  Quiet: a
 * failed trial prints nothing. */
static bool fits_slot(AsmCtx *c, unsigned slot, const AsmInsnLine *in)
{
    AsmBundle t;
    unsigned e0 = c->errors;
    bool q = c->quiet;
    char *txt = g_strdup(in->text);
    asm_bundle_init(&t);
    c->quiet = true;
    bool ok = asm_slot(c, &t, slot, txt, in->col) && c->errors == e0;
    c->quiet = q;
    c->errors = e0;
    g_free(txt);
    g_free(t.fix_label);
    return ok;
}

/* Order in which an instruction tries the slots it fits: the arithmetic
 * slots first, as the compiler schedules a lone MOV or SET_INDX, then load,
 * then store (the LD/ST forms of MOV, SET_INDX, GEN_ADDR, PRMT_INDX are the
 * ones it uses to pack a second copy into a bundle). */
static const unsigned slot_pref[4] = {TPC_SLOT_SPU, TPC_SLOT_VPU, TPC_SLOT_LD, TPC_SLOT_ST};

/* First assignment (instruction i, in line order, tries the slots in
 * slot_pref order) with every instruction in a slot it fits and no slot
 * used twice. */
static bool assign(const unsigned fits[4], unsigned n, unsigned i, unsigned used, int slot[4])
{
    if (i == n)
        return true;
    for (unsigned k = 0; k < 4; k++) {
        unsigned s = slot_pref[k];
        if ((used & (1u << s)) || !(fits[i] & (1u << s)))
            continue;
        slot[i] = (int)s;
        if (assign(fits, n, i + 1, used | (1u << s), slot))
            return true;
    }
    return false;
}

/* Diagnose an instruction that fits no slot: the error of its first table
 * slot (operand forms), or of the load slot for an unknown mnemonic. */
static void no_fit_error(AsmCtx *c, AsmBundle *ab, const AsmInsnLine *in)
{
    unsigned m = asm_mnemonic_slots(in->text);
    unsigned s = 0;
    while (m && !(m & (1u << s)))
        s++;
    AsmBundle t = *ab;
    char *txt = g_strdup(in->text);
    unsigned e0 = c->errors;
    if (asm_slot(c, &t, s, txt, in->col) && c->errors == e0)
        asm_error(c, in->col, "'%s' fits no free slot of this bundle", txt);
    if (t.fix_label != ab->fix_label)
        g_free(t.fix_label);
    g_free(txt);
}

/* Two instructions for one slot: name the first one left without a slot
 * when the others are placed first-fit in line order. */
static void slot_clash_error(AsmCtx *c, const AsmInsnLine *ins, const unsigned fits[4], unsigned n)
{
    unsigned used = 0;
    int owner[4] = {-1, -1, -1, -1};
    for (unsigned i = 0; i < n; i++) {
        unsigned k = 0, s = 4;
        for (; k < 4; k++) {
            s = slot_pref[k];
            if ((fits[i] & (1u << s)) && !(used & (1u << s)))
                break;
        }
        if (k < 4) {
            used |= 1u << s;
            owner[s] = (int)i;
            continue;
        }
        GString *m = g_string_new(NULL);
        for (unsigned k = 0; k < 4; k++) {
            if (!(fits[i] & (1u << k)))
                continue;
            g_string_append_printf(m, "%s%s slot (taken by line %u)", m->len ? ", " : "",
                                   group_slot_name[k], owner[k] >= 0 ? ins[owner[k]].line : 0);
        }
        size_t ml = strcspn(ins[i].text, " \t");
        c->line = ins[i].line;
        asm_error(c, ins[i].col, "two instructions for one slot: '%.*s' fits only the %s", (int)ml,
                  ins[i].text, m->str);
        g_string_free(m, TRUE);
        return;
    }
}

bool asm_group(AsmCtx *c, AsmBundle *ab, const AsmInsnLine *ins, unsigned n, bool by_insn)
{
    int slot[4] = {0, 1, 2, 3};
    unsigned fits[4] = {0};
    bool ok = true;
    if (n > 4) {
        c->line = ins[4].line;
        asm_error(c, ins[4].col, "more than four %s in a bundle",
                  by_insn ? "instructions" : "slots");
        return false;
    }
    if (by_insn) {
        for (unsigned i = 0; i < n; i++) {
            c->line = ins[i].line;
            for (unsigned s = 0; s < 4; s++)
                if (fits_slot(c, s, &ins[i]))
                    fits[i] |= 1u << s;
            if (!fits[i]) {
                no_fit_error(c, ab, &ins[i]);
                ok = false;
            }
        }
        if (!ok)
            return false;
        if (!assign(fits, n, 0, 0, slot)) {
            slot_clash_error(c, ins, fits, n);
            return false;
        }
    }
    /* assemble in slot order, as a bundle line would: the LD/ST predicate
     * and immediate rules see the slots in the same order */
    for (unsigned s = 0; s < 4; s++) {
        for (unsigned i = 0; i < n; i++) {
            if (slot[i] != (int)s)
                continue;
            char *txt = g_strdup(ins[i].text);
            c->line = ins[i].line;
            ok &= asm_slot(c, ab, s, txt, ins[i].col);
            g_free(txt);
        }
    }
    return ok;
}
