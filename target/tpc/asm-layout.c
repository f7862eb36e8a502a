/*
 * TPC assembler: the encoder of the table-described forms (insn-forms.def).
 * One walk over the form's TpcLayout places each operand in its field,
 * checks it against the register files the field accepts and writes the
 * switch fields, so these forms need no hand-written encoder; the decoder
 * and the printer walk the same rows.
 */
#include <string.h>

#include "target/tpc/asm-int.h"

static const char *const kind_text[] = {
    [TPC_OP_RAW] = "a number",
    [TPC_OP_V] = "V",
    [TPC_OP_S] = "S",
    [TPC_OP_SP] = "SP",
    [TPC_OP_VP] = "VP",
    [TPC_OP_I] = "I",
    [TPC_OP_AD] = "AD",
    [TPC_OP_IMM] = "an immediate",
    [TPC_OP_VSPECIAL] = "LFSR/V_LANE_ID",
    [TPC_OP_SLFSR] = "S_LFSR",
    [TPC_OP_HWREG] = "PC",
};

/* "V, S or an immediate": the kinds an operand accepts, for messages. */
static void kinds_text(char *buf, size_t n, unsigned kinds, unsigned group)
{
    const char *names[16];
    unsigned k = 0;
    for (unsigned i = 0; i < G_N_ELEMENTS(kind_text); i++)
        if ((kinds >> i) & 1 && kind_text[i] && i != TPC_OP_SIMM)
            names[k++] = group == 2 && i == TPC_OP_V ? "a register pair D" : kind_text[i];
    buf[0] = 0;
    for (unsigned i = 0; i < k; i++)
        g_strlcat(buf, i == 0 ? "" : i + 1 == k ? " or " : ", ", n), g_strlcat(buf, names[i], n);
}

static const char *const field_text[] = {"destination", "first source", "second source",
                                         "third source", "fourth source"};

/* One operand into its field value, or -1 after a one-line error naming the
 * operand and what the form expects there. */
static int enc_operand(Stmt *st, const TpcOpSpec *s, const AOp *op, unsigned index)
{
    unsigned width = s->width ? s->width : tpc_field_pos[st->slot][s->field].width;
    uint32_t max = s->max ? s->max : width >= 32 ? 0xffffffffu : (1u << width) - 1;
    char want[96];
    if (s->kinds == TPC_K(HWREG)) {
        /* PC, or its number after mov.from_hw_reg */
        if (!asm_is_reg(op, TPC_OP_HWREG) && !(op->type == AOP_IMM && st->sw0_written)) {
            asm_error(st->c, op->col, "'%s': hardware register must be PC or a number", st->mn);
            return -1;
        }
        unsigned id = op->type == AOP_IMM ? op->value : op->num;
        if (id != 0) {
            asm_error(st->c, op->col, "hardware register %u does not exist on Gaudi (0 is PC)", id);
            return -1;
        }
        return 0; /* SRC_B bit 6 clear: from the register */
    }
    if (s->kinds == TPC_K(RAW)) {
        if (op->type == AOP_IMM && !op->bare_float && op->value <= max)
            return (int)op->value;
        asm_error(st->c, op->col, "'%s': operand %u '%s' must be a number 0..%u", st->mn,
                  index + 1, op->s ? op->s : "?", max);
        return -1;
    }
    bool ok = op->type == AOP_IMM ? (s->kinds & TPC_K(IMM)) != 0
                                  : op->type == AOP_REG && ((s->kinds >> op->kind) & 1);
    /* group 1: a source pair V(n), V(n+1), written Vn (any n) or Dn */
    if (ok && op->type == AOP_REG && (op->kind == TPC_OP_V || op->kind == TPC_OP_S)) {
        if (s->group == 2 && op->num % 2) {
            asm_error(st->c, op->col, "'%s': operand %u '%s' must be a register pair (%c%u)",
                      st->mn, index + 1, op->s, op->kind == TPC_OP_V ? 'D' : 'Z', op->num & ~1u);
            return -1;
        }
        ok = s->group != 0 || op->group == 1;
    }
    if (!ok) {
        kinds_text(want, sizeof(want), s->kinds, s->group);
        asm_error(st->c, op->col, "'%s': operand %u (%s) '%s' must be %s", st->mn, index + 1,
                  field_text[s->field], op->s ? op->s : "?", want);
        return -1;
    }
    return asm_enc(st, op, s->kinds, field_text[s->field]);
}

/* "V, V|S|imm": the operand list of a form, alternatives joined by '|'. */
static void usage_text(char *buf, size_t n, const TpcLayout *l)
{
    static const char *const brief[] = {
        [TPC_OP_RAW] = "N",        [TPC_OP_V] = "V",      [TPC_OP_S] = "S",
        [TPC_OP_SP] = "SP",        [TPC_OP_VP] = "VP",    [TPC_OP_I] = "I",
        [TPC_OP_AD] = "AD",        [TPC_OP_IMM] = "imm",  [TPC_OP_VSPECIAL] = "LFSR|V_LANE_ID",
        [TPC_OP_SLFSR] = "S_LFSR", [TPC_OP_HWREG] = "PC",
    };
    buf[0] = 0;
    for (unsigned i = 0, w = 0; i < l->nops; i++) {
        unsigned k = 0;
        if (l->op[i].flags & TPC_OPF_DIMMASK) {
            g_strlcat(buf, "bMMMMM ", n);
            continue;
        }
        if (l->op[i].flags & (TPC_OPF_TYPE | TPC_OPF_COPY))
            continue;
        if (l->op[i].flags & TPC_OPF_SWREG) {
            char r[16];
            g_snprintf(r, sizeof r, "[, S%u]", l->op[i].sreg);
            g_strlcat(buf, r, n);
            continue;
        }
        g_strlcat(buf, w++ ? ", " : "", n);
        if ((l->op[i].flags & TPC_OPF_TNSR) && l->op[i].sreg) {
            char r[16];
            g_snprintf(r, sizeof r, "N|S%u", l->op[i].sreg);
            g_strlcat(buf, r, n);
            continue;
        }
        for (unsigned j = 0; j < G_N_ELEMENTS(brief); j++) {
            if (!((l->op[i].kinds >> j) & 1) || !brief[j] || j == TPC_OP_SIMM)
                continue;
            g_strlcat(buf, k++ ? "|" : "", n);
            g_strlcat(buf, l->op[i].group == 2 && j == TPC_OP_V   ? "D"
                           : l->op[i].group == 2 && j == TPC_OP_S ? "Z"
                                                                  : brief[j],
                      n);
        }
    }
}

/* Operand specs not written as an operand: the dim mask (a word), the data
 * type (the suffix), a field repeating DEST. */
#define OPF_UNWRITTEN (TPC_OPF_DIMMASK | TPC_OPF_TYPE | TPC_OPF_COPY)

/* Operands of a variant written in the text, and how many of them may be
 * left out (TPC_OPF_SWREG). */
static unsigned written_ops(const TpcLayout *l, unsigned *optional)
{
    unsigned n = 0;
    *optional = 0;
    for (unsigned i = 0; i < l->nops; i++) {
        n += !(l->op[i].flags & OPF_UNWRITTEN);
        *optional += (l->op[i].flags & TPC_OPF_SWREG) != 0;
    }
    return n;
}

/* The switch of variant var that a bare number before (lead) or after the
 * operands sets (TPC_SWP_LEAD / TRAIL / BARE), or NULL; *idx its index. */
static const TpcSwDef *bare_switch(const Stmt *st, unsigned var, bool lead, int *idx)
{
    const TpcSwDef *t = tpc_sws_table(st->desc->sws);
    for (int i = 0; t && t[i].key; i++) {
        if ((t[i].slots && !(t[i].slots & (1u << st->slot))) ||
            (t[i].vars && !((t[i].vars >> var) & 1)))
            continue;
        if (t[i].print == TPC_SWP_BARE || t[i].print == (lead ? TPC_SWP_LEAD : TPC_SWP_TRAIL)) {
            *idx = i;
            return &t[i];
        }
    }
    return NULL;
}

/* Does written operand op fit operand spec s? */
static bool op_fits(const Stmt *st, const TpcOpSpec *s, const AOp *op)
{
    if (s->kinds == TPC_K(RAW) || (s->flags & TPC_OPF_BIMM))
        return op->type == AOP_IMM;
    if (s->kinds == TPC_K(HWREG))
        return asm_is_reg(op, TPC_OP_HWREG) || (op->type == AOP_IMM && st->sw0_written);
    if (op->type == AOP_IMM)
        return (s->kinds & TPC_K(IMM)) != 0;
    if (op->type == AOP_NAME)
        return (s->flags & TPC_OPF_TARGET) != 0;
    return op->type == AOP_REG && ((s->kinds >> op->kind) & 1);
}

/* Do the written operands (a predicate last, a bare switch number first or
 * last) fit every operand of variant var (a TPC_LF_BY_SRC one)? */
static bool variant_matches(const Stmt *st, const TpcLayout *l, unsigned var)
{
    unsigned nopt;
    int na = (int)written_ops(l, &nopt), n = st->nops, first = 0, idx;
    const AOp *last = n ? &st->ops[n - 1] : NULL;
    if (n > na && (asm_is_reg(last, TPC_OP_SP) || asm_is_reg(last, TPC_OP_VP)))
        n--;
    if (n == na + 1 && st->ops[0].type == AOP_IMM && bare_switch(st, var, true, &idx))
        first = 1, n--;
    else if (n == na + 1 && st->ops[n - 1].type == AOP_IMM && bare_switch(st, var, false, &idx))
        n--;
    if (n != na)
        return false;
    for (unsigned i = 0, j = (unsigned)first; i < l->nops; i++)
        if (!(l->op[i].flags & OPF_UNWRITTEN) && !op_fits(st, &l->op[i], &st->ops[j++]))
            return false;
    return true;
}

/* A tensor operand (TPC_OPF_TNSR with a register): a number 0..max, or the
 * register S<sreg>, which sets its SWITCHES bit and puts sregval in the
 * field.  The field value, or -1 after a one-line error. */
static int enc_tensor(Stmt *st, const TpcOpSpec *s, const AOp *op, uint32_t *sw)
{
    if (asm_is_reg(op, TPC_OP_S) && op->num == s->sreg) {
        *sw |= 1u << s->swbit;
        return s->sregval;
    }
    /* the vendor's assembler keeps B[4:0] of a larger number without a word
     * (`st_tnsr 0x27` writes tensor 7): refused here */
    if (op->type == AOP_IMM && !op->bare_float && op->value <= s->max)
        return (int)op->value;
    asm_error(st->c, op->col, "'%s': tensor must be 0..%u or S%u", st->mn, s->max, s->sreg);
    return -1;
}

/* A register switch operand (TPC_OPF_SWREG) once the operands are read:
 * the row's rules for its bit, whether set by the register or by the
 * switch word; false after a one-line error. */
static bool swreg_check(Stmt *st, const TpcOpSpec *s, bool written, const AOp *c_op, uint32_t *sw)
{
    if (!((*sw >> s->swbit) & 1))
        return true;
    if (!written && (s->flags & TPC_OPF_SWREG_ONLY)) {
        /* vendor behaviour (tpc.md §10 item 8): the switch alone is ignored */
        asm_warn(st->c, st->col, "'%s partial' without S%u assembles without PARTIAL", st->mn,
                 s->sreg);
        *sw &= ~(1u << s->swbit);
        return true;
    }
    if ((s->flags & TPC_OPF_FULL_ONLY) && tpc_insn_half(st->desc)) {
        asm_error(st->c, st->col, "'%s' has no partial form on Gaudi (missing feature)", st->mn);
        return false;
    }
    if ((s->flags & TPC_OPF_NOT_VP) && c_op && asm_is_reg(c_op, TPC_OP_VP)) {
        asm_error(st->c, c_op->col, "'%s': RMW store of a vector predicate", st->mn);
        return false;
    }
    return true;
}

/* The variant of a form with several (insn-forms.def TPC_VARIANT): the first
 * that applies to the row and the written type and whose destination kinds
 * take the first operand (a TPC_LF_BY_SRC variant: whose operand kinds take
 * all the operands; when none does, the first whose destination kinds take
 * the first register, for its operand's error); NULL after a one-line error. */
static const TpcLayout *pick_variant(Stmt *st, unsigned *var)
{
    const TpcInsnDesc *d = st->desc;
    const TpcLayout *l;
    *var = 0;
    if (!tpc_form_variant(d->form, 1))
        return tpc_form_layout(d->form);
    const AOp *o = st->nops ? &st->ops[0] : NULL;
    unsigned kinds = 0;
    for (unsigned i = 0; (l = tpc_form_variant(d->form, i)); i++) {
        *var = i;
        /* a switch bit an operand implies (mov Sd, PC) */
        int sw = (int)(st->f_sw | ((l->flags & TPC_LF_SETS_SW0) ? 1u : 0u));
        if (!tpc_variant_applies(l, d, -1, sw))
            continue;
        /* the first written operand (the destination, or the store slot's SRC_C) */
        unsigned k = 0;
        while (k < l->nops && (l->op[k].flags & OPF_UNWRITTEN))
            k++;
        if (k == l->nops)
            return l;
        kinds |= l->op[k].kinds;
        if (l->flags & TPC_LF_BY_SRC) {
            if (tpc_variant_applies(l, d, st->type, sw) && variant_matches(st, l, i))
                return l;
            continue;
        }
        if (o && o->type == AOP_REG && ((l->op[k].kinds >> o->kind) & 1) &&
            tpc_variant_applies(l, d, st->type, (int)st->f_sw))
            return l;
    }
    /* no variant takes every operand: the first whose destination takes the
     * first register operand reports the one it does not take */
    const AOp *r = o && o->type == AOP_IMM && st->nops > 1 ? &st->ops[1] : o;
    for (unsigned i = 0; r && r->type == AOP_REG && (l = tpc_form_variant(d->form, i)); i++) {
        *var = i;
        unsigned k = 0;
        while (k < l->nops && (l->op[k].flags & OPF_UNWRITTEN))
            k++;
        if (k < l->nops && ((l->op[k].kinds >> r->kind) & 1) &&
            tpc_variant_applies(l, d, st->type, (int)st->f_sw))
            return l;
    }
    if (o && asm_is_reg(o, TPC_OP_I) && st->slot == TPC_SLOT_SPU) {
        if (!(d->flags & TPC_F_INT5))
            asm_error(st->c, o->col, "'%s' has no index-register form on Gaudi (missing feature)",
                      st->mn);
        else
            asm_error(st->c, st->type_col, "index-register '%s' must be .i32", st->mn);
        return NULL;
    }
    if (o && o->type == AOP_REG && ((kinds >> o->kind) & 1) && st->type >= 0) {
        /* `mov.b S1, S2`: the destination has forms, none of this type */
        asm_error(st->c, st->type_col, "'%s' has no form of type .%s with destination '%s'", st->mn,
                  tpc_type_suffix[st->type], o->s ? o->s : "?");
        return NULL;
    }
    char want[96];
    kinds_text(want, sizeof(want), kinds, 0);
    asm_error(st->c, o ? o->col : st->col, "'%s': the destination%s%s%s must be %s%s", st->mn,
              o ? " '" : "", o && o->s ? o->s : "", o ? "'" : "", want,
              st->type >= 0 ? " for this type" : "");
    return NULL;
}

bool asm_enc_layout(Stmt *st)
{
    const TpcInsnDesc *d = st->desc;
    unsigned var;
    st->sw0_written = st->f_sw & 1;
    const TpcLayout *l = pick_variant(st, &var);
    const TpcFieldPos *pos = tpc_field_pos[st->slot];
    uint32_t fields[TPC_FIELD_COUNT] = {0};
    bool used[TPC_FIELD_COUNT] = {false};

    if (!l)
        return false;
    if (l->flags & TPC_LF_SETS_SW0)
        st->f_sw |= 1;
    /* a switch of another variant (mov_dg's sdg0 without .all) */
    for (int i = 0; d->sws && tpc_sws_table(d->sws)[i].key && i < ASM_MAX_SW; i++) {
        const TpcSwDef *sw = &tpc_sws_table(d->sws)[i];
        if (st->given[i] && sw->vars && !((sw->vars >> var) & 1)) {
            asm_error(st->c, st->given_col[i], "'%s': switch '%s' belongs to another form of it",
                      st->mn, sw->key);
            return false;
        }
    }
    if (l->flags & TPC_LF_BARE) {
        /* nop, halt: the mnemonic alone, every other field 0 */
        if (st->nops) {
            asm_take_pred(st, 0);
            if (st->has_pred && (d->flags & TPC_F_NOPRED) && st->nops == 0) {
                asm_error(st->c, st->pred.col, "'%s' is unconditional", st->mn);
                return false;
            }
            return asm_extra_operand(st, 0, "it takes no operands");
        }
        if (!asm_no_type(st))
            return false;
        asm_put(st, pos[TPC_FPOS_OPC].lo, pos[TPC_FPOS_OPC].width, d->opc);
        return true;
    }
    unsigned nopt, na = written_ops(l, &nopt);
    bool has_mask = false;
    for (unsigned i = 0; i < l->nops; i++)
        has_mask |= (l->op[i].flags & TPC_OPF_DIMMASK) != 0;
    asm_take_pred(st, (int)(na - nopt));
    if ((l->flags & TPC_LF_ADDR_OFF) && st->nops == (int)na + 1) {
        for (unsigned i = 0; i < na; i++)
            if (l->op[i].field == TPC_FIELD_SRC_A && !asm_drop_zero_offset(st, (int)i))
                return false;
    }
    const TpcSwDef *t = tpc_sws_table(d->sws), *bs;
    int bi;
    if (st->nops == (int)na + 1 && st->ops[0].type == AOP_IMM &&
        (bs = bare_switch(st, var, true, &bi)) != NULL) {
        /* `popcnt.f32 1 S1, S2`, `mov 0x3 VP4, S1`: the vendor's bare value
         * of a switch before the operands */
        if (!asm_sw_set(st, bs, bi, st->ops[0].value, st->ops[0].col))
            return false;
        memmove(&st->ops[0], &st->ops[1], (size_t)(st->nops - 1) * sizeof(st->ops[0]));
        st->nops--;
    }
    if (st->nops == (int)na + 1 && st->ops[na].type == AOP_IMM &&
        (bs = bare_switch(st, var, false, &bi)) != NULL) {
        /* a bare value after the operands for the switch that takes one */
        if (!asm_sw_set(st, bs, bi, st->ops[na].value, st->ops[na].col))
            return false;
        st->nops--;
    }
    if (st->nops > (int)na) {
        char want[256], takes[300];
        usage_text(want, sizeof(want), l);
        g_snprintf(takes, sizeof takes, "it takes %s and a predicate", na ? want : "none");
        return asm_extra_operand(st, (int)na, takes);
    }
    if (st->nops < (int)(na - nopt)) {
        char want[256];
        usage_text(want, sizeof(want), l);
        asm_error(st->c, st->col, "'%s' takes %u operand%s (%s) and a predicate, %d given", st->mn,
                  na - nopt, na - nopt == 1 ? "" : "s", want, st->nops);
        return false;
    }
    if (st->mask_given && !has_mask) {
        asm_error(st->c, st->col, "'%s' takes no dim mask", st->mn);
        return false;
    }
    if (has_mask && !st->mask_given) {
        asm_error(st->c, st->nops ? st->ops[0].col : st->col, "'%s' needs a dim mask (bMMMMM)",
                  st->mn);
        return false;
    }
    /* a variant that requires a type takes it as the default */
    if (st->type < 0 && (l->cond & TPC_VC_B))
        st->type = TPC_T_B;
    if (st->type < 0 && (l->cond & TPC_VC_I32))
        st->type = TPC_T_I32;
    if (st->type < 0 && (l->flags & (TPC_LF_T_DEFAULT | TPC_LF_T_FIXED)))
        st->type = (int)tpc_layout_type(l);
    if (l->swmask && (st->f_sw & ~(uint32_t)l->swmask)) {
        asm_error(st->c, st->col, "'%s': a switch of SWITCHES bits 0x%x does not exist in this form",
                  st->mn, st->f_sw & ~(uint32_t)l->swmask);
        return false;
    }
    if (d->types && !(l->flags & TPC_LF_T_NONE) ? !asm_need_type(st) : !asm_no_type(st))
        return false;
    /* switches: defaults for those not written */
    for (int i = 0; t && t[i].key; i++) {
        int dflt = tpc_sw_default(&t[i], st->type < 0 ? 0u : (unsigned)st->type, st->f_b);
        if ((t[i].slots && !(t[i].slots & (1u << st->slot))) || dflt <= 0 ||
            (t[i].vars && !((t[i].vars >> var) & 1)) || (i < ASM_MAX_SW && st->given[i]))
            continue;
        *asm_sw_field(st, t[i].field) |= (uint32_t)dflt << t[i].shift;
    }
    fields[TPC_FIELD_SW] = st->f_sw;
    fields[TPC_FIELD_TYPE] = (l->flags & TPC_LF_T_NONE)     ? 0u
                             : (l->flags & TPC_LF_T_FIXED)  ? tpc_layout_type(l)
                             : d->types                     ? (uint32_t)st->type
                             : (l->flags & TPC_LF_TYPE_I32) ? TPC_T_I32
                                                            : st->f_t;
    used[TPC_FIELD_SW] = used[TPC_FIELD_TYPE] = true;
    static const struct {
        uint8_t flag, field, swf;
    } swf[] = {{TPC_LF_SW_A, TPC_FIELD_SRC_A, TPC_SWF_A},
               {TPC_LF_SW_B, TPC_FIELD_SRC_B, TPC_SWF_B},
               {TPC_LF_SW_C, TPC_FIELD_SRC_C, TPC_SWF_C},
               {TPC_LF_SW_D, TPC_FIELD_SRC_D, TPC_SWF_D}};
    for (size_t i = 0; i < G_N_ELEMENTS(swf); i++) {
        if (l->flags & swf[i].flag) {
            fields[swf[i].field] = *asm_sw_field(st, swf[i].swf);
            used[swf[i].field] = true;
        }
    }
    const AOp *c_op = NULL; /* the operand in SRC_C (TPC_OPF_NOT_VP) */
    unsigned j = 0;
    for (unsigned i = 0; i < l->nops; i++) {
        TpcOpSpec s_pair, *sp = NULL;
        const TpcOpSpec *s = &l->op[i];
        int v;
        if (s->flags & TPC_OPF_SWREG) {
            /* optional: the register S<sreg> sets the bit (a word may too) */
            const AOp *op = j < (unsigned)st->nops ? &st->ops[j] : NULL;
            bool written = op && asm_is_reg(op, TPC_OP_S) && op->num == s->sreg;
            if (written) {
                fields[TPC_FIELD_SW] |= 1u << s->swbit;
                j++;
            }
            if (!swreg_check(st, s, written, c_op, &fields[TPC_FIELD_SW]))
                return false;
            continue;
        }
        if ((s->flags & TPC_OPF_TNSR) && s->sreg) {
            CHK(v = enc_tensor(st, s, &st->ops[j++], &fields[TPC_FIELD_SW]));
            fields[s->field] = (uint32_t)v;
            used[s->field] = true;
            continue;
        }
        if (s->field == TPC_FIELD_SRC_C && j < (unsigned)st->nops)
            c_op = &st->ops[j];
        if (s->flags & TPC_OPF_BIMM) {
            /* a number in the bundle's IMM alone: no field of the slot */
            const AOp *op = &st->ops[j];
            if (op->type != AOP_IMM || op->bare_float) {
                asm_error(st->c, op->col, "'%s': operand %u '%s' must be a 32-bit number", st->mn,
                          j + 1, op->s ? op->s : "?");
                return false;
            }
            st->ab->imm[st->slot] = (ImmUse){.used = true, .value = op->value, .col = op->col};
            j++;
            continue;
        }
        if (s->flags & TPC_OPF_COPY) {
            v = (int)fields[TPC_FIELD_DEST];
        } else if (s->flags & TPC_OPF_TYPE) {
            v = st->type;
        } else if (s->flags & TPC_OPF_DIMMASK) {
            v = (int)st->mask;
        } else {
            if (((s->flags & TPC_OPF_VPAIR) &&
                 tpc_opd_pair(d, s->flags, (unsigned)st->type, fields[TPC_FIELD_SW],
                              fields[TPC_FIELD_SRC_B])) ||
                ((s->flags & TPC_OPF_SPAIR) &&
                 tpc_opd_src_pair_spelling(d, (unsigned)st->type, fields[TPC_FIELD_SRC_B]))) {
                s_pair = *s;
                s_pair.group = (s->flags & TPC_OPF_SPAIR) ? 1 : 2;
                sp = &s_pair;
            }
            const AOp *op = &st->ops[j];
            if ((s->flags & TPC_OPF_TARGET) && op->type == AOP_NAME) {
                /* a label: the bundle's IMM, fixed up when labels are known */
                AsmBundle *ab = st->ab;
                ab->fix_kind = (d->flags & TPC_F_PCREL) ? FIX_JMPR : FIX_JMPA;
                ab->fix_label = g_strdup(op->s);
                ab->fix_col = op->col;
                ab->imm[st->slot] = (ImmUse){.used = true, .is_label = true, .col = op->col};
                v = 127;
            } else {
                CHK(v = enc_operand(st, sp ? sp : s, op, j));
                if ((s->flags & TPC_OPF_TARGET) && op->type == AOP_IMM && (op->value & 31))
                    asm_warn(st->c, op->col, "jump target %d is not a multiple of 32",
                             (int32_t)op->value);
            }
            j++;
        }
        if (s->flags & TPC_OPF_IMM) {
            ImmUse *u = &st->ab->imm[st->slot];
            *u = (ImmUse){.used = true, .value = (uint32_t)v, .col = st->ops[j - 1].col};
        }
        if (s->kinds == TPC_K(RAW) && s->width) {
            uint32_t m = ((1u << s->width) - 1) << s->shift;
            fields[s->field] = (fields[s->field] & ~m) | (uint32_t)v << s->shift;
        } else {
            fields[s->field] = (uint32_t)v;
        }
        used[s->field] = true;
    }
    if (j < (unsigned)st->nops) {
        /* an optional register switch out of place or a wrong register */
        char want[256], takes[300];
        usage_text(want, sizeof(want), l);
        g_snprintf(takes, sizeof takes, "it takes %s and a predicate", want);
        return asm_extra_operand(st, (int)j, takes);
    }
    /* the shared fields (tpc.md §4.1) are claimed for the bundle checks */
    if (st->slot == TPC_SLOT_LD && used[TPC_FIELD_SRC_B])
        st->ab->uses_ld_b = true;
    if (st->slot == TPC_SLOT_ST && used[TPC_FIELD_SRC_C])
        st->ab->uses_st_c = true;
    if (st->slot == TPC_SLOT_VPU && used[TPC_FIELD_SRC_C])
        st->ab->uses_vpu_c = true;
    if (st->slot == TPC_SLOT_VPU && used[TPC_FIELD_SRC_D])
        st->ab->uses_vpu_d = true;
    for (unsigned f = 0; f < TPC_FIELD_COUNT; f++)
        if (used[f] && pos[f].width)
            asm_put(st, pos[f].lo, pos[f].width, fields[f]);
    asm_put(st, pos[TPC_FPOS_OPC].lo, pos[TPC_FPOS_OPC].width, d->opc);
    return asm_put_pred(st);
}
