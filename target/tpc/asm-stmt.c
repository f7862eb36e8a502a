/*
 * TPC assembler, statement level: mnemonic, type and switch suffixes,
 * switch words, dim masks and operands of one slot instruction (tpc.md §8.2,
 * §8.7), and the field helpers the per-slot encoders (asm-insn.c) share.
 */
#include <string.h>

#include "target/tpc/asm-int.h"

/* ---- field helpers ---- */

void asm_put(Stmt *st, unsigned lo, unsigned w, uint32_t v)
{
    tpc_set_bits(st->ab->b, lo, w, v);
}

static bool is_vpu_enc(unsigned slot)
{
    return slot != TPC_SLOT_SPU;
}

/* Encode operand `op` for a register field: returns the field value, or -1
 * after an error.  `allowed` is a TPC_OP_* kind mask (IMM allows a long
 * immediate, recorded as the slot's immediate). */
int asm_enc(Stmt *st, const AOp *op, unsigned allowed, const char *what)
{
    AsmCtx *c = st->c;
    if (op->type == AOP_IMM) {
        if (!(allowed & K(IMM))) {
            asm_error(c, op->col, "'%s': %s cannot be an immediate", st->mn, what);
            return -1;
        }
        ImmUse *u = &st->ab->imm[st->slot];
        u->used = true;
        u->is_label = false;
        u->value = op->value;
        u->col = op->col;
        if (op->bare_float && st->type >= 0 && st->type != TPC_T_F32)
            asm_warn(c, op->col, "bare float literal '%s' encodes f32 bits with type .%s", op->s,
                     tpc_type_suffix[st->type]);
        return 127;
    }
    if (op->type != AOP_REG || !(allowed & (1u << op->kind))) {
        asm_error(c, op->col, "'%s': invalid %s '%s'", st->mn, what, op->s);
        return -1;
    }
    if (is_vpu_enc(st->slot)) {
        switch (op->kind) {
        case TPC_OP_V:
            return (int)op->num;
        case TPC_OP_VSPECIAL:
            return 40 + (int)op->num;
        case TPC_OP_S:
            return 64 + (int)op->num;
        case TPC_OP_SLFSR:
            return 104 + (int)op->num;
        case TPC_OP_I:
            return 128 + (int)op->num;
        case TPC_OP_AD:
            return 160 + (int)op->num;
        case TPC_OP_SP:
            return 224 + (int)op->num;
        case TPC_OP_VP:
            return 240 + (int)op->num;
        }
    } else {
        switch (op->kind) {
        case TPC_OP_S:
            return (int)op->num;
        case TPC_OP_SLFSR:
            return 40 + (int)op->num;
        case TPC_OP_SP:
            return 48 + (int)op->num;
        case TPC_OP_I:
            return 64 + (int)op->num;
        case TPC_OP_AD:
            return 96 + (int)op->num;
        }
    }
    asm_error(c, op->col, "'%s': invalid %s '%s'", st->mn, what, op->s);
    return -1;
}

bool asm_is_reg(const AOp *op, int kind)
{
    return op->type == AOP_REG && op->kind == kind;
}

/* Too many operands: name the first one the form has no place for (or a
 * word that is no register, number or switch: most likely a misspelt
 * switch).  Returns false. */
bool asm_extra_operand(Stmt *st, int have, const char *takes)
{
    for (int i = 0; i < st->nops; i++) {
        if (st->ops[i].type == AOP_NAME) {
            asm_error(st->c, st->ops[i].col, "unknown switch or operand '%s' for '%s'",
                      st->ops[i].s, st->mn);
            return false;
        }
    }
    const AOp *x = &st->ops[have];
    asm_error(st->c, x->col, "'%s': unexpected operand '%s' (%s)", st->mn, x->s ? x->s : "?",
              takes);
    return false;
}

bool asm_want_ops(Stmt *st, int lo, int hi)
{
    if (st->nops > hi) {
        char takes[64];
        if (lo == hi)
            g_snprintf(takes, sizeof takes, "it takes %d operand%s and a predicate", hi,
                       hi == 1 ? "" : "s");
        else
            g_snprintf(takes, sizeof takes, "it takes %d to %d operands and a predicate", lo, hi);
        return asm_extra_operand(st, hi, takes);
    }
    if (st->nops < lo || st->nops > hi) {
        if (lo == hi)
            asm_error(st->c, st->col, "'%s' takes %d operand%s, %d given", st->mn, lo,
                      lo == 1 ? "" : "s", st->nops);
        else
            asm_error(st->c, st->col, "'%s' takes %d to %d operands, %d given", st->mn, lo, hi,
                      st->nops);
        return false;
    }
    return true;
}

bool asm_need_type(Stmt *st)
{
    if (st->type < 0) {
        char list[64] = "";
        unsigned n = 0;
        for (unsigned t = 0; t < TPC_T_COUNT && n < 4; t++) {
            if (st->desc->types && !((st->desc->types >> t) & 1))
                continue;
            g_strlcat(list, n++ ? ", ." : ".", sizeof list);
            g_strlcat(list, tpc_type_suffix[t], sizeof list);
        }
        asm_error(st->c, st->col, "'%s' needs a type suffix (%s%s)", st->mn, list,
                  n == 4 ? ", ..." : "");
        return false;
    }
    if (st->desc->types && !(st->desc->types & (1u << st->type))) {
        asm_error(st->c, st->type_col, "type .%s is not allowed for '%s' on Gaudi",
                  tpc_type_suffix[st->type], st->mn);
        return false;
    }
    return true;
}

bool asm_no_type(Stmt *st)
{
    if (st->type >= 0) {
        asm_error(st->c, st->type_col, "'%s' takes no type suffix", st->mn);
        return false;
    }
    return true;
}

/* Predicate of the slot. */
bool asm_put_pred(Stmt *st)
{
    unsigned n = 0, vp = 0, pol = 0;
    if (st->has_pred) {
        n = st->pred.num;
        vp = st->pred.kind == TPC_OP_VP;
        pol = st->pred.neg_pred;
    }
    switch (st->slot) {
    case TPC_SLOT_SPU:
        if (vp) {
            asm_error(st->c, st->pred.col, "'%s': the SPU takes only scalar predicates", st->mn);
            return false;
        }
        asm_put(st, TPC_B_SPU_PRED, 4, n);
        asm_put(st, TPC_B_SPU_POL, 1, pol);
        return true;
    case TPC_SLOT_VPU:
        asm_put(st, TPC_B_VPU_PRED, 4, n);
        asm_put(st, TPC_B_VPU_PRED + 4, 1, vp);
        asm_put(st, TPC_B_VPU_POL, 1, pol);
        return true;
    default: {
        unsigned v = pol << 5 | vp << 4 | n;
        AsmBundle *ab = st->ab;
        if (ab->ldst_pred_set && ab->ldst_pred != v) {
            asm_error(st->c, st->has_pred ? st->pred.col : st->col,
                      "load and store slots of one bundle must use the same predicate");
            return false;
        }
        ab->ldst_pred_set = true;
        ab->ldst_pred = v;
        asm_put(st, TPC_B_LDST_PRED, 4, n);
        asm_put(st, TPC_B_LDST_PRED + 4, 1, vp);
        asm_put(st, TPC_B_LDST_POL, 1, pol);
        return true;
    }
    }
}

/* ---- switches ---- */

uint32_t *asm_sw_field(Stmt *st, unsigned swf)
{
    switch (swf) {
    case TPC_SWF_A:
        return &st->f_a;
    case TPC_SWF_B:
        return &st->f_b;
    case TPC_SWF_C:
        return &st->f_c;
    case TPC_SWF_D:
        return &st->f_d;
    case TPC_SWF_T:
        return &st->f_t;
    default:
        return &st->f_sw;
    }
}

static const TpcSwDef *sw_find(Stmt *st, const char *key, int *idx)
{
    const TpcSwDef *t = tpc_sws_table(st->desc->sws);
    for (int i = 0; t && t[i].key; i++) {
        if (t[i].slots && !(t[i].slots & (1u << st->slot)))
            continue;
        if (!g_ascii_strcasecmp(key, t[i].key) ||
            (t[i].alias && !g_ascii_strcasecmp(key, t[i].alias))) {
            *idx = i;
            return &t[i];
        }
    }
    return NULL;
}

/* A bare value name of a multi-bit switch ("rz", "int32", "all_lanes"). */
static const TpcSwDef *sw_find_value(Stmt *st, const char *name, int *idx, unsigned *value)
{
    const TpcSwDef *t = tpc_sws_table(st->desc->sws);
    if (g_ascii_isdigit(name[0]))
        return NULL;
    for (int i = 0; t && t[i].key; i++) {
        if (!t[i].values || (t[i].slots && !(t[i].slots & (1u << st->slot))))
            continue;
        for (const TpcSwVal *v = t[i].values; v->name; v++) {
            if (!g_ascii_strcasecmp(name, v->name)) {
                *idx = i;
                *value = v->value;
                return &t[i];
            }
        }
    }
    return NULL;
}

bool asm_sw_set(Stmt *st, const TpcSwDef *d, int idx, unsigned value, int col)
{
    uint32_t *f;
    if (idx < ASM_MAX_SW && st->given[idx]) {
        asm_error(st->c, col, "switch '%s' of '%s' given twice", d->key, st->mn);
        return false;
    }
    bool named = !d->strict || !d->values;
    for (const TpcSwVal *v = d->values; !named && v->name; v++)
        named = v->value == value;
    if (value >> d->width || !named) {
        asm_error(st->c, col, "value %u out of range for switch '%s'", value, d->key);
        return false;
    }
    if (idx < ASM_MAX_SW) {
        st->given[idx] = true;
        st->given_col[idx] = col;
    }
    f = asm_sw_field(st, d->field);
    *f = (*f & ~(((1u << d->width) - 1) << d->shift)) | value << d->shift;
    return true;
}

/* One-bit switch word or suffix. */
static bool sw_flag(Stmt *st, const TpcSwDef *d, int idx, int col)
{
    if (d->values || d->int_values) {
        asm_error(st->c, col, "switch '%s' of '%s' needs a value (%s=...)", d->key, st->mn, d->key);
        return false;
    }
    return asm_sw_set(st, d, idx, 1, col);
}

/* Returns 1 if the word was a switch, 0 if not, -1 on error. */
static int try_switch(Stmt *st, const Word *w)
{
    const char *eq = strchr(w->s, '=');
    int idx;
    unsigned value;
    const TpcSwDef *d;
    if (eq && eq != w->s && eq[1] != '=' && eq[-1] != '<' && eq[-1] != '>' && eq[-1] != '!') {
        char *key = g_strndup(w->s, (gsize)(eq - w->s));
        const char *val = eq + 1;
        d = sw_find(st, key, &idx);
        if (!d) {
            asm_error(st->c, w->col, "unknown switch '%s' for '%s'", key, st->mn);
            g_free(key);
            return -1;
        }
        g_free(key);
        if (d->values) {
            for (const TpcSwVal *v = d->values; v->name; v++) {
                if (!g_ascii_strcasecmp(val, v->name))
                    return asm_sw_set(st, d, idx, v->value, w->col) ? 1 : -1;
            }
        }
        bool bare;
        const char *err;
        uint32_t n;
        if ((d->int_values || (!d->values && d->width == 1)) &&
            asm_parse_number(val, &n, &bare, &err) && !err && !bare) {
            if (!d->int_values && n > 1) {
                asm_error(st->c, w->col, "switch '%s' takes 0 or 1", d->key);
                return -1;
            }
            return asm_sw_set(st, d, idx, n, w->col) ? 1 : -1;
        }
        asm_error(st->c, w->col, "invalid value '%s' for switch '%s'", val, d->key);
        return -1;
    }
    d = sw_find(st, w->s, &idx);
    if (d)
        return sw_flag(st, d, idx, w->col) ? 1 : -1;
    d = sw_find_value(st, w->s, &idx, &value);
    if (d)
        return asm_sw_set(st, d, idx, value, w->col) ? 1 : -1;
    return 0;
}

bool asm_check_switch_types(Stmt *st)
{
    const TpcSwDef *t = tpc_sws_table(st->desc->sws);
    for (int i = 0; t && t[i].key && i < ASM_MAX_SW; i++) {
        if (!st->given[i] || !t[i].types || st->type < 0 || ((t[i].types >> st->type) & 1))
            continue;
        asm_error(st->c, st->given_col[i], "switch '%s' of '%s' is not valid for type .%s",
                  t[i].key, st->mn, tpc_type_suffix[st->type]);
        return false;
    }
    return true;
}

/* ---- statement parsing ---- */

static const char *const suffix_switch[] = {
    "sat",     "st",      "neg",          "carry", "acc_fp32",    "mmio",
    "partial", "rmw_sel", "mask_eq_zero", "rhu",   "upper32",     "double_and_round32",
    "all",     "dec",     "vpu",          "pack",  "from_hw_reg", NULL,
};

static bool is_dimmask(const char *s)
{
    if ((s[0] != 'b' && s[0] != 'B') || strlen(s) != 6)
        return false;
    for (int i = 1; i < 6; i++)
        if (s[i] != '0' && s[i] != '1')
            return false;
    return true;
}

/* `b1000`, `b100000`, `b00012`: meant as a dim mask, but malformed. */
static bool looks_like_dimmask(const char *s)
{
    if ((s[0] != 'b' && s[0] != 'B') || !g_ascii_isdigit(s[1]))
        return false;
    for (int i = 1; s[i]; i++)
        if (!g_ascii_isdigit(s[i]))
            return false;
    return true;
}

static unsigned dimmask_value(const char *s)
{
    unsigned m = 0;
    for (int i = 1; i < 6; i++)
        m = m << 1 | (unsigned)(s[i] - '0');
    return m; /* leftmost digit = dim 4 */
}

static const TpcInsnDesc *find_mnemonic(unsigned slot, const char *name)
{
    static const struct {
        const char *alias, *name;
    } aliases[] = {{"mov_dual_group", "mov_dg"}, {"mov_group", "mov_g"}};
    for (size_t i = 0; i < G_N_ELEMENTS(aliases); i++)
        if (!g_ascii_strcasecmp(name, aliases[i].alias))
            name = aliases[i].name;
    for (unsigned opc = 0; opc < 64; opc++) {
        const TpcInsnDesc *d = tpc_insn_desc(slot, opc);
        if (d && !g_ascii_strcasecmp(d->mnemonic, name))
            return d;
    }
    return NULL;
}

static const char *const slot_name[4] = {"load", "SPU", "VPU", "store"};

unsigned asm_mnemonic_slots(const char *text)
{
    char *mn = g_strndup(text, strcspn(text, " \t."));
    unsigned mask = 0;
    for (unsigned s = 0; s < 4; s++)
        if (find_mnemonic(s, mn))
            mask |= 1u << s;
    g_free(mn);
    return mask;
}

/* Split the text after the mnemonic into words; commas and blanks separate,
 * a lone sign joins the next word. */
static int split_words(Stmt *st, char *text, int col, Word *w, int max)
{
    int n = 0;
    char *p = text;
    while (*p) {
        while (*p == ' ' || *p == '\t' || *p == ',')
            p++;
        if (!*p)
            break;
        char *s = p;
        while (*p && *p != ' ' && *p != '\t' && *p != ',')
            p++;
        if (n == max) {
            asm_error(st->c, col + (int)(s - text), "too many operands");
            return -1;
        }
        char *word = g_strndup(s, (gsize)(p - s));
        g_ptr_array_add(st->strs, word);
        if (n > 0 && (!strcmp(w[n - 1].s, "-") || !strcmp(w[n - 1].s, "+"))) {
            char *j = g_strconcat(w[n - 1].s, word, NULL);
            g_ptr_array_add(st->strs, j);
            w[n - 1].s = j;
            continue;
        }
        w[n].s = word;
        w[n].col = col + (int)(s - text);
        n++;
    }
    return n;
}

static bool form_has_mask(const TpcInsnDesc *d)
{
    /* IRF forms: a table variant with a dim mask (SPU arithmetic, whose rows
     * without an int5 form are diagnosed later; set_indx, mov) */
    if (d->slot == TPC_SLOT_VPU)
        return false;
    const TpcLayout *l;
    for (unsigned v = 0; (l = tpc_form_variant(d->form, v)); v++)
        for (unsigned i = 0; i < l->nops; i++)
            if (l->op[i].flags & TPC_OPF_DIMMASK)
                return true;
    return false;
}

/* Parse mnemonic, suffixes, switch words and operands. */
bool asm_parse_stmt(Stmt *st, char *text, int col)
{
    AsmCtx *c = st->c;
    char *p = text;
    Word w[24];
    int n;

    while (*p && *p != ' ' && *p != '\t')
        p++;
    char *mn = g_strndup(text, (gsize)(p - text));
    g_ptr_array_add(st->strs, mn);
    char **parts = g_strsplit(mn, ".", -1);
    st->mn = g_strdup(parts[0]);
    g_ptr_array_add(st->strs, (char *)st->mn);
    st->col = col;
    st->desc = find_mnemonic(st->slot, parts[0]);
    if (!st->desc) {
        if (!g_ascii_strcasecmp(parts[0], "madd"))
            asm_error(c, col, "'madd' is not available on Gaudi (missing feature)");
        else if (!g_ascii_strcasecmp(parts[0], "loop"))
            asm_error(c, col, "'loop' occupies a whole bundle and must be alone on its line");
        else {
            int other = -1;
            for (unsigned s = 0; s < 4 && other < 0; s++)
                if (find_mnemonic(s, parts[0]))
                    other = (int)s;
            if (other >= 0)
                asm_error(c, col,
                          "'%s' is not a %s-slot instruction (slots are load; SPU; VPU; store)",
                          parts[0], slot_name[st->slot]);
            else
                asm_error(c, col, "unknown instruction '%s'", parts[0]);
        }
        g_strfreev(parts);
        return false;
    }
    st->type = -1;
    int pcol = col + (int)strlen(parts[0]);
    for (int i = 1; parts[i]; i++) {
        int t, idx;
        pcol += 1;
        for (t = 0; t < TPC_T_COUNT; t++)
            if (!g_ascii_strcasecmp(parts[i], tpc_type_suffix[t]))
                break;
        if (t < TPC_T_COUNT) {
            if (st->type >= 0) {
                asm_error(c, pcol, "two type suffixes on '%s'", st->mn);
                goto fail;
            }
            st->type = t;
            st->type_col = pcol;
        } else if (!g_ascii_strcasecmp(parts[i], "i4") || !g_ascii_strcasecmp(parts[i], "u4") ||
                   !g_ascii_strcasecmp(parts[i], "f16") || !g_ascii_strcasecmp(parts[i], "i64") ||
                   !g_ascii_strcasecmp(parts[i], "f8_152") ||
                   !g_ascii_strcasecmp(parts[i], "f8_143")) {
            asm_error(c, pcol, "type .%s is not available on Gaudi (missing feature)", parts[i]);
            goto fail;
        } else {
            bool known = false;
            for (int k = 0; suffix_switch[k]; k++)
                known |= !g_ascii_strcasecmp(parts[i], suffix_switch[k]);
            const TpcSwDef *d = known ? sw_find(st, parts[i], &idx) : NULL;
            if (!d && st->desc->sws == TPC_SWS_ASH &&
                (!g_ascii_strcasecmp(parts[i], "sat") || !g_ascii_strcasecmp(parts[i], "st"))) {
                asm_error(c, pcol, "'ash' always saturates; '.%s' is not accepted", parts[i]);
                goto fail;
            }
            if (!d) {
                asm_error(c, pcol, "unknown suffix '.%s' for '%s'", parts[i], st->mn);
                goto fail;
            }
            if (!sw_flag(st, d, idx, pcol))
                goto fail;
        }
        pcol += (int)strlen(parts[i]);
    }
    g_strfreev(parts);
    parts = NULL;

    n = split_words(st, p, col + (int)(p - text), w, (int)G_N_ELEMENTS(w));
    if (n < 0)
        return false;
    for (int i = 0; i < n; i++) {
        if (form_has_mask(st->desc) && !is_dimmask(w[i].s) && looks_like_dimmask(w[i].s)) {
            asm_error(c, w[i].col, "dim mask '%s' must be b and 5 binary digits (bMMMMM, dim 4 first)",
                      w[i].s);
            return false;
        }
        if (form_has_mask(st->desc) && is_dimmask(w[i].s)) {
            if (st->mask_given) {
                asm_error(c, w[i].col, "two dim masks");
                return false;
            }
            st->mask_given = true;
            st->mask = dimmask_value(w[i].s);
            continue;
        }
        int r = try_switch(st, &w[i]);
        if (r < 0)
            return false;
        if (r > 0)
            continue;
        if (st->nops == ASM_MAX_OPS) {
            asm_error(c, w[i].col, "too many operands");
            return false;
        }
        if (!asm_parse_operand(c, &w[i], &st->ops[st->nops]))
            return false;
        st->nops++;
    }
    return true;
fail:
    g_strfreev(parts);
    return false;
}

/* The compiler prints local-memory vector addresses as two parts, register
 * and offset (`ld_l_v %V0, %S1, 0x0`, tpc-llvm TPCInstPrinter
 * printAddrOperand, clang/test/RC99/CodeGen/vect-01.c).  Gaudi has no offset
 * field: a zero offset is dropped, any other is an error. */
bool asm_drop_zero_offset(Stmt *st, int at)
{
    if (st->nops < at + 2 || !asm_is_reg(&st->ops[at], TPC_OP_S) || st->ops[at + 1].type != AOP_IMM)
        return true;
    if (st->ops[at + 1].value) {
        asm_error(st->c, st->ops[at + 1].col,
                  "'%s': address offset 0x%x needs a two-part address (not on Gaudi; only 0x0)",
                  st->mn, st->ops[at + 1].value);
        return false;
    }
    for (int i = at + 1; i + 1 < st->nops; i++)
        st->ops[i] = st->ops[i + 1];
    st->nops--;
    return true;
}

/* Take the last operand as the predicate when it is [!]SPn/[!]VPn and at
 * least `min` operands remain. */
void asm_take_pred(Stmt *st, int min)
{
    AOp *last;
    if (st->nops <= min)
        return;
    last = &st->ops[st->nops - 1];
    if (last->type == AOP_REG && (last->kind == TPC_OP_SP || last->kind == TPC_OP_VP)) {
        st->pred = *last;
        st->has_pred = true;
        st->nops--;
    }
}
