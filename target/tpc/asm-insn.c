/*
 * TPC assembler, one slot instruction: `mnemonic[.type][.SW...] [words]
 * operands[, predicate]` (tpc.md §8.2, §8.7) -> the slot's bundle fields
 * (tpc.md §4, §5).  Mnemonics, forms and switch sets come from the .def rows
 * through tpc_insn_desc() and tpc_sws_table().
 */
#include <string.h>

#include "target/tpc/asm-int.h"

#define K(x)    (1u << TPC_OP_##x)
#define MAX_OPS 8
#define MAX_SW  16

typedef struct Stmt {
    AsmCtx *c;
    AsmBundle *ab;
    unsigned slot;
    const TpcInsnDesc *desc;
    const char *mn; /* mnemonic as written */
    int col;        /* column of the mnemonic */
    int type;       /* -1: none given */
    int type_col;
    bool mask_given;
    unsigned mask;
    /* switch fields */
    uint32_t f_sw, f_a, f_b, f_c;
    bool given[MAX_SW];
    int given_col[MAX_SW];
    bool sat_suffix;
    /* operands */
    AOp ops[MAX_OPS];
    int nops;
    bool has_pred;
    AOp pred;
    GPtrArray *strs;
} Stmt;

/* ---- field helpers ---- */

static void put(Stmt *st, unsigned lo, unsigned w, uint32_t v)
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
static int enc(Stmt *st, const AOp *op, unsigned allowed, const char *what)
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

static bool is_reg(const AOp *op, int kind)
{
    return op->type == AOP_REG && op->kind == kind;
}

static bool want_ops(Stmt *st, int lo, int hi)
{
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

/* Vector register with the right grouping (V, or D/V with even index). */
static int enc_vec(Stmt *st, const AOp *op, unsigned group, const char *what)
{
    if (op->type == AOP_REG && op->kind == TPC_OP_V) {
        if (group == 2 && op->num % 2) {
            asm_error(st->c, op->col, "'%s': %s must be a register pair (D%u)", st->mn, what,
                      op->num & ~1u);
            return -1;
        }
        if (group == 1 && op->group != 1) {
            asm_error(st->c, op->col, "'%s': %s must be a single vector register", st->mn, what);
            return -1;
        }
    }
    /* read-only vector sources (LFSR, V_LANE_ID_*) are single registers */
    return enc(st, op, group == 1 && strcmp(what, "destination") ? K(V) | K(VSPECIAL) : K(V), what);
}

static bool need_type(Stmt *st)
{
    if (st->type < 0) {
        asm_error(st->c, st->col, "'%s' needs a type suffix (.f32, .bf16, .i32, ...)", st->mn);
        return false;
    }
    if (st->desc->types && !(st->desc->types & (1u << st->type))) {
        asm_error(st->c, st->type_col, "type .%s is not allowed for '%s' on Gaudi",
                  tpc_type_suffix[st->type], st->mn);
        return false;
    }
    return true;
}

static bool no_type(Stmt *st)
{
    if (st->type >= 0) {
        asm_error(st->c, st->type_col, "'%s' takes no type suffix", st->mn);
        return false;
    }
    return true;
}

/* Predicate of the slot. */
static bool put_pred(Stmt *st)
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
        put(st, TPC_B_SPU_PRED, 4, n);
        put(st, TPC_B_SPU_POL, 1, pol);
        return true;
    case TPC_SLOT_VPU:
        put(st, TPC_B_VPU_PRED, 4, n);
        put(st, TPC_B_VPU_PRED + 4, 1, vp);
        put(st, TPC_B_VPU_POL, 1, pol);
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
        put(st, TPC_B_LDST_PRED, 4, n);
        put(st, TPC_B_LDST_PRED + 4, 1, vp);
        put(st, TPC_B_LDST_POL, 1, pol);
        return true;
    }
    }
}

/* ---- switches ---- */

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

static bool sw_set(Stmt *st, const TpcSwDef *d, int idx, unsigned value, int col)
{
    uint32_t *f;
    if (idx < MAX_SW && st->given[idx]) {
        asm_error(st->c, col, "switch '%s' of '%s' given twice", d->key, st->mn);
        return false;
    }
    if (value >> d->width) {
        asm_error(st->c, col, "value %u out of range for switch '%s'", value, d->key);
        return false;
    }
    if (idx < MAX_SW) {
        st->given[idx] = true;
        st->given_col[idx] = col;
    }
    switch (d->field) {
    case TPC_SWF_A:
        f = &st->f_a;
        break;
    case TPC_SWF_B:
        f = &st->f_b;
        break;
    case TPC_SWF_C:
        f = &st->f_c;
        break;
    default:
        f = &st->f_sw;
        break;
    }
    *f = (*f & ~(((1u << d->width) - 1) << d->shift)) | value << d->shift;
    return true;
}

/* One-bit switch word or suffix; `all` of mov_dg sets its 2-bit kind to 1. */
static bool sw_flag(Stmt *st, const TpcSwDef *d, int idx, int col)
{
    if (d->values || d->int_values) {
        asm_error(st->c, col, "switch '%s' of '%s' needs a value (%s=...)", d->key, st->mn, d->key);
        return false;
    }
    return sw_set(st, d, idx, 1, col);
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
                    return sw_set(st, d, idx, v->value, w->col) ? 1 : -1;
            }
        }
        bool bare;
        const char *err;
        uint32_t n;
        if ((d->int_values || (!d->values && d->width == 1) || !strcmp(d->key, "all")) &&
            asm_parse_number(val, &n, &bare, &err) && !err && !bare) {
            if (!d->int_values && n > 1) {
                asm_error(st->c, w->col, "switch '%s' takes 0 or 1", d->key);
                return -1;
            }
            return sw_set(st, d, idx, n, w->col) ? 1 : -1;
        }
        asm_error(st->c, w->col, "invalid value '%s' for switch '%s'", val, d->key);
        return -1;
    }
    d = sw_find(st, w->s, &idx);
    if (d)
        return sw_flag(st, d, idx, w->col) ? 1 : -1;
    d = sw_find_value(st, w->s, &idx, &value);
    if (d)
        return sw_set(st, d, idx, value, w->col) ? 1 : -1;
    return 0;
}

static bool given(Stmt *st, const char *key)
{
    int idx;
    return sw_find(st, key, &idx) && idx < MAX_SW && st->given[idx];
}

/* ---- statement parsing ---- */

static const char *const suffix_switch[] = {
    "sat",     "st",      "neg",          "carry", "acc_fp32", "mmio",
    "partial", "rmw_sel", "mask_eq_zero", "rhu",   "upper32",  "double_and_round32",
    "all",     "dec",     "vpu",          "pack",  NULL,
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
    /* IRF forms: SPU arithmetic (Gaudi-absent ones are diagnosed later), MOV, SET_INDX */
    if (d->slot == TPC_SLOT_VPU)
        return false;
    return d->form == TPC_FORM_SET_INDX || d->form == TPC_FORM_MOV || d->form == TPC_FORM_BINARY ||
           d->form == TPC_FORM_UNARY;
}

/* Parse mnemonic, suffixes, switch words and operands. */
static bool parse_stmt(Stmt *st, char *text, int col)
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
            if (!d) {
                asm_error(c, pcol, "unknown suffix '.%s' for '%s'", parts[i], st->mn);
                goto fail;
            }
            if (!g_ascii_strcasecmp(parts[i], "sat"))
                st->sat_suffix = true;
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
        if (st->nops == MAX_OPS) {
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

/* Take the last operand as the predicate when it is [!]SPn/[!]VPn and at
 * least `min` operands remain. */
static void take_pred(Stmt *st, int min)
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

/* ---- per-slot encoders ---- */

#define CHK(x)                                                                                     \
    do {                                                                                           \
        if ((x) < 0)                                                                               \
            return false;                                                                          \
    } while (0)

static bool enc_spu(Stmt *st)
{
    const TpcInsnDesc *d = st->desc;
    int a = 0, b = 0, dst = 0;
    unsigned type = 0, sw = st->f_sw;

    switch (d->form) {
    case TPC_FORM_NOP:
    case TPC_FORM_HALT:
        if (!want_ops(st, 0, 0) || !no_type(st))
            return false;
        if (d->form == TPC_FORM_HALT && st->has_pred) {
            asm_error(st->c, st->pred.col, "'halt' is unconditional");
            return false;
        }
        break;
    case TPC_FORM_BINARY:
    case TPC_FORM_UNARY: {
        int need = d->form == TPC_FORM_UNARY ? 2 : 3;
        take_pred(st, need);
        if (!want_ops(st, need, need))
            return false;
        bool int5 = is_reg(&st->ops[0], TPC_OP_I);
        if (int5) {
            if (!(d->flags & TPC_F_INT5)) {
                asm_error(st->c, st->ops[0].col,
                          "'%s' has no index-register form on Gaudi (missing feature)", st->mn);
                return false;
            }
            if (!st->mask_given) {
                asm_error(st->c, st->ops[0].col,
                          "'%s' with an index register needs a dim mask (bMMMMM)", st->mn);
                return false;
            }
            if (st->type < 0)
                st->type = TPC_T_I32;
            if (st->type != TPC_T_I32) {
                asm_error(st->c, st->type_col, "index-register '%s' must be .i32", st->mn);
                return false;
            }
            CHK(dst = enc(st, &st->ops[0], K(I), "destination"));
            CHK(a = enc(st, &st->ops[1], K(I) | K(S) | K(IMM), "first source"));
            if (need == 3)
                CHK(b = enc(st, &st->ops[2], K(I) | K(S) | K(IMM), "second source"));
            sw = (sw & 3) | st->mask << 2;
            type = TPC_T_I32;
            break;
        }
        if (st->mask_given) {
            asm_error(st->c, st->col, "a dim mask needs an index-register destination");
            return false;
        }
        if (st->type < 0 && is_reg(&st->ops[0], TPC_OP_SP))
            st->type = TPC_T_B;
        if (!need_type(st))
            return false;
        type = (unsigned)st->type;
        if (type == TPC_T_B) {
            CHK(dst = enc(st, &st->ops[0], K(SP), "destination"));
            CHK(a = enc(st, &st->ops[1], K(SP), "first source"));
            if (need == 3)
                CHK(b = enc(st, &st->ops[2], K(SP), "second source"));
        } else {
            CHK(dst = enc(st, &st->ops[0], K(S), "destination"));
            CHK(a = enc(st, &st->ops[1], K(S) | K(SLFSR), "first source"));
            if (need == 3)
                CHK(b = enc(st, &st->ops[2], K(S) | K(SLFSR) | K(IMM), "second source"));
        }
        if (d->sws == TPC_SWS_ASH) {
            if (st->sat_suffix) {
                asm_error(st->c, st->col, "'ash' always saturates; '.sat' is not accepted");
                return false;
            }
            sw |= 1;
        }
        if (d->sws == TPC_SWS_MAC && (sw & 4) && type != TPC_T_BF16) {
            asm_error(st->c, st->col, "'acc_fp32' needs .bf16");
            return false;
        }
        if (d->sws == TPC_SWS_MUL_SPU && (sw & 4)) {
            bool acc = given(st, "acc_fp32");
            if (acc != (type == TPC_T_BF16)) {
                asm_error(st->c, st->col,
                          acc ? "'acc_fp32' needs .bf16" : "'upper32' needs .i32 or .u32");
                return false;
            }
        }
        break;
    }
    case TPC_FORM_MOV:
        take_pred(st, 2);
        if (!want_ops(st, 2, 2))
            return false;
        if (is_reg(&st->ops[0], TPC_OP_I)) {
            if (!st->mask_given) {
                asm_error(st->c, st->ops[0].col,
                          "'mov' to an index register needs a dim mask (bMMMMM)");
                return false;
            }
            CHK(dst = enc(st, &st->ops[0], K(I), "destination"));
            CHK(a = enc(st, &st->ops[1], K(I) | K(S) | K(IMM), "source"));
            sw = st->mask << 2;
            type = TPC_T_I32;
        } else if (is_reg(&st->ops[0], TPC_OP_SP)) {
            CHK(dst = enc(st, &st->ops[0], K(SP), "destination"));
            CHK(a = enc(st, &st->ops[1], K(S) | K(SLFSR) | K(SP) | K(IMM), "source"));
            type = TPC_T_B;
        } else {
            if (!need_type(st))
                return false;
            CHK(dst = enc(st, &st->ops[0], K(S), "destination"));
            CHK(a = enc(st, &st->ops[1], K(S) | K(SLFSR) | K(IMM), "source"));
            type = (unsigned)st->type;
        }
        break;
    case TPC_FORM_CMP:
        take_pred(st, 3);
        if (!want_ops(st, 3, 3))
            return false;
        for (int i = 0; i < 3; i++) {
            if (is_reg(&st->ops[i], TPC_OP_I)) {
                asm_error(st->c, st->ops[i].col,
                          "index-register '%s' is not available on Gaudi (missing feature)",
                          st->mn);
                return false;
            }
        }
        if (!need_type(st))
            return false;
        type = (unsigned)st->type;
        CHK(dst = enc(st, &st->ops[0], K(SP), "destination"));
        CHK(a = enc(st, &st->ops[1], K(S) | K(SLFSR), "first source"));
        CHK(b = enc(st, &st->ops[2], K(S) | K(SLFSR) | K(IMM), "second source"));
        break;
    case TPC_FORM_CONVERT:
        take_pred(st, 2);
        if (!want_ops(st, 2, 2) || !need_type(st))
            return false;
        type = (unsigned)st->type;
        CHK(dst = enc(st, &st->ops[0], K(S), "destination"));
        CHK(a = enc(st, &st->ops[1], K(S) | K(SLFSR), "source"));
        b = (int)(st->f_b & 0xf);
        if (!given(st, "rm"))
            sw = (sw & ~7u) | 5;
        break;
    case TPC_FORM_JMP:
        take_pred(st, 1);
        if (!want_ops(st, 1, 1) || !no_type(st))
            return false;
        if (st->ops[0].type == AOP_NAME) {
            AsmBundle *ab = st->ab;
            ab->fix_kind = d->opc == 0x24 ? FIX_JMPR : FIX_JMPA;
            ab->fix_label = g_strdup(st->ops[0].s);
            ab->fix_col = st->ops[0].col;
            ab->imm[TPC_SLOT_SPU].used = true;
            ab->imm[TPC_SLOT_SPU].is_label = true;
            ab->imm[TPC_SLOT_SPU].col = st->ops[0].col;
            a = 127;
        } else {
            CHK(a = enc(st, &st->ops[0], K(S) | K(IMM), "target"));
            if (st->ops[0].type == AOP_IMM && (st->ops[0].value & 31))
                asm_warn(st->c, st->ops[0].col, "jump target %d is not a multiple of 32",
                         (int32_t)st->ops[0].value);
        }
        break;
    case TPC_FORM_MOV_IRF_DIM:
        take_pred(st, 3);
        if (!want_ops(st, 3, 3) || !no_type(st))
            return false;
        if (st->ops[0].type != AOP_IMM || st->ops[0].value > 4) {
            asm_error(st->c, st->ops[0].col, "'mov_irf_dim' dimension must be 0..4");
            return false;
        }
        sw = st->ops[0].value;
        CHK(dst = enc(st, &st->ops[1], K(S), "destination"));
        CHK(a = enc(st, &st->ops[2], K(I), "source"));
        type = TPC_T_I32;
        break;
    case TPC_FORM_SET_INDX:
        take_pred(st, 2);
        if (!want_ops(st, 2, 2) || !no_type(st))
            return false;
        if (!st->mask_given) {
            asm_error(st->c, st->col, "'set_indx' needs a dim mask (bMMMMM)");
            return false;
        }
        CHK(dst = enc(st, &st->ops[0], K(I), "destination"));
        CHK(a = enc(st, &st->ops[1], K(S) | K(IMM), "value"));
        sw = st->mask << 2;
        type = TPC_T_I32;
        break;
    default: /* GENERIC: print-only opcodes, accepted as dst, a, b */
        take_pred(st, 3);
        if (!want_ops(st, 3, 3))
            return false;
        type = st->type < 0 ? 0 : (unsigned)st->type;
        CHK(dst = enc(st, &st->ops[0], K(S) | K(SP) | K(I) | K(AD), "destination"));
        CHK(a = enc(st, &st->ops[1], ~0u, "source"));
        if (st->nops == 3)
            CHK(b = enc(st, &st->ops[2], ~0u, "source"));
        break;
    }
    put(st, TPC_B_SPU_OPC, 6, d->opc);
    put(st, TPC_B_SPU_SRC_A, 7, (unsigned)a);
    put(st, TPC_B_SPU_SRC_B, 7, (unsigned)b);
    put(st, TPC_B_SPU_DEST, 7, (unsigned)dst);
    put(st, TPC_B_SPU_TYPE, 4, type);
    put(st, TPC_B_SPU_SW, 7, sw);
    return d->form == TPC_FORM_HALT || put_pred(st);
}

static bool vpu_pair_dest(unsigned opc, unsigned t, unsigned sw)
{
    if (opc == 0x00)
        return (t == TPC_T_BF16 && (sw & 4)) || t == TPC_T_I16 || t == TPC_T_U16;
    if (opc == 0x01)
        return (t == TPC_T_BF16 && (sw & 4)) || t == TPC_T_I16 || t == TPC_T_U16 ||
               ((t == TPC_T_I32 || t == TPC_T_U32) && !(sw & 2));
    return false;
}

static bool enc_vpu(Stmt *st)
{
    const TpcInsnDesc *d = st->desc;
    int a = 0, b = 0, cc = 0, dd = 0, dst = 0;
    unsigned type = 0, sw = st->f_sw;
    const unsigned vsrc = K(V) | K(VSPECIAL);

    switch (d->form) {
    case TPC_FORM_NOP:
    case TPC_FORM_HALT:
        if (!want_ops(st, 0, 0) || !no_type(st))
            return false;
        if (d->form == TPC_FORM_HALT && st->has_pred) {
            asm_error(st->c, st->pred.col, "'halt' is unconditional");
            return false;
        }
        break;
    case TPC_FORM_BINARY:
    case TPC_FORM_UNARY: {
        int need = d->form == TPC_FORM_UNARY ? 2 : 3;
        take_pred(st, need);
        if (!want_ops(st, need, need))
            return false;
        if (st->type < 0 && is_reg(&st->ops[0], TPC_OP_VP))
            st->type = TPC_T_B;
        if (!need_type(st))
            return false;
        type = (unsigned)st->type;
        if (d->sws == TPC_SWS_ASH) {
            if (st->sat_suffix) {
                asm_error(st->c, st->col, "'ash' always saturates; '.sat' is not accepted");
                return false;
            }
            sw |= 1;
        }
        if (type == TPC_T_B) {
            CHK(dst = enc(st, &st->ops[0], K(VP), "destination"));
            CHK(a = enc(st, &st->ops[1], K(VP), "first source"));
            if (need == 3)
                CHK(b = enc(st, &st->ops[2], K(VP), "second source"));
        } else {
            bool pair = vpu_pair_dest(d->opc, type, sw);
            CHK(dst = enc_vec(st, &st->ops[0], pair ? 2 : 1, "destination"));
            CHK(a = enc(st, &st->ops[1], vsrc, "first source"));
            if (need == 3)
                CHK(b = enc(st, &st->ops[2],
                            d->opc == 0x2c ? vsrc : vsrc | K(S) | K(SLFSR) | K(IMM),
                            "second source"));
        }
        if ((sw & 4) && (d->sws == TPC_SWS_MAC || d->sws == TPC_SWS_MUL_VPU) &&
            type != TPC_T_BF16) {
            asm_error(st->c, st->col, "'acc_fp32' needs .bf16");
            return false;
        }
        break;
    }
    case TPC_FORM_MOV:
        take_pred(st, 2);
        if (!want_ops(st, 2, 3))
            return false;
        if (is_reg(&st->ops[0], TPC_OP_VP)) {
            CHK(dst = enc(st, &st->ops[0], K(VP), "destination"));
            CHK(a = enc(st, &st->ops[1], K(VP) | K(SP) | K(S) | K(IMM), "source"));
            if (is_reg(&st->ops[1], TPC_OP_VP) || is_reg(&st->ops[1], TPC_OP_SP)) {
                if (!want_ops(st, 2, 2))
                    return false;
                type = TPC_T_I32;
            } else {
                type = TPC_T_U32;
                b = 8;
                if (st->nops == 3) {
                    if (st->ops[2].type != AOP_IMM || st->ops[2].value > 7) {
                        asm_error(st->c, st->ops[2].col, "predicate section must be 0..7");
                        return false;
                    }
                    b = (int)st->ops[2].value;
                }
            }
            if (st->type >= 0 && st->type != (int)type && st->type != TPC_T_B) {
                asm_error(st->c, st->type_col, "'mov' to a vector predicate takes no type");
                return false;
            }
        } else {
            if (!want_ops(st, 2, 2))
                return false;
            CHK(dst = enc_vec(st, &st->ops[0], 1, "destination"));
            CHK(a = enc(st, &st->ops[1], vsrc | K(S) | K(SLFSR) | K(IMM), "source"));
            if (st->ops[1].type == AOP_REG &&
                (st->ops[1].kind == TPC_OP_V || st->ops[1].kind == TPC_OP_VSPECIAL)) {
                type = st->type < 0 ? 0 : (unsigned)st->type;
            } else {
                if (!need_type(st))
                    return false;
                type = (unsigned)st->type;
            }
        }
        break;
    case TPC_FORM_CMP:
        take_pred(st, 3);
        if (!want_ops(st, 3, 3) || !need_type(st))
            return false;
        type = (unsigned)st->type;
        CHK(dst = enc(st, &st->ops[0], K(VP), "destination"));
        CHK(a = enc(st, &st->ops[1], vsrc, "first source"));
        CHK(b = enc(st, &st->ops[2], vsrc | K(S) | K(SLFSR) | K(IMM), "second source"));
        break;
    case TPC_FORM_CONVERT: {
        take_pred(st, 2);
        if (!want_ops(st, 2, 2) || !need_type(st))
            return false;
        type = (unsigned)st->type;
        unsigned tt = st->f_b & 0xf;
        bool f2b = type == TPC_T_F32 && tt == TPC_T_BF16;
        bool b2f = type == TPC_T_BF16 && tt == TPC_T_F32;
        unsigned fb = st->f_b;
        if (given(st, "num_lanes")) {
            if (!f2b && !b2f) {
                asm_error(st->c, st->col,
                          "'all_lanes'/'single_lane' apply only to f32 <-> bf16 conversions");
                return false;
            }
            if (b2f && (fb & 0x40)) {
                asm_error(st->c, st->col, "bf16 -> f32 converts all lanes");
                return false;
            }
        } else if (f2b) {
            fb |= 0x40; /* single_lane is the vendor default */
        }
        if (!given(st, "rm"))
            sw = (sw & ~7u) | 5;
        CHK(dst = enc_vec(st, &st->ops[0], b2f ? 2 : 1, "destination"));
        CHK(a = enc_vec(st, &st->ops[1], f2b && !(fb & 0x40) ? 2 : 1, "source"));
        b = (int)fb;
        break;
    }
    case TPC_FORM_SEL:
    case TPC_FORM_SEL2:
        take_pred(st, 5);
        if (!want_ops(st, 5, 5) || !need_type(st))
            return false;
        type = (unsigned)st->type;
        CHK(dst = enc_vec(st, &st->ops[0], d->form == TPC_FORM_SEL2 ? 2 : 1, "destination"));
        CHK(a = enc(st, &st->ops[1], vsrc, "first source"));
        CHK(b = enc(st, &st->ops[2], vsrc | K(S) | K(SLFSR) | K(IMM), "second source"));
        CHK(cc = enc(st, &st->ops[3], vsrc, "third source"));
        CHK(dd = enc(st, &st->ops[4], vsrc | K(S) | K(SLFSR) | K(IMM), "fourth source"));
        st->ab->uses_vpu_c = st->ab->uses_vpu_d = true;
        break;
    case TPC_FORM_PACK:
        take_pred(st, 2);
        if (!want_ops(st, 2, 2) || !need_type(st))
            return false;
        type = (unsigned)st->type;
        if (tpc_type_size(type) == 4) {
            asm_error(st->c, st->type_col, "'%s' needs an 8- or 16-bit type", st->mn);
            return false;
        }
        CHK(dst = enc_vec(st, &st->ops[0], 1, "destination"));
        CHK(a = enc(st, &st->ops[1], vsrc, "source"));
        b = (int)st->f_b;
        break;
    case TPC_FORM_MOV_DG:
    case TPC_FORM_MOV_G: {
        take_pred(st, 3);
        if (!want_ops(st, 3, 3) || !no_type(st))
            return false;
        CHK(dst = enc_vec(st, &st->ops[0], 1, "destination"));
        CHK(a = enc(st, &st->ops[1], vsrc, "source"));
        if (st->ops[2].type != AOP_IMM) {
            asm_error(st->c, st->ops[2].col, "'%s' needs a byte-mask immediate", st->mn);
            return false;
        }
        ImmUse *u = &st->ab->imm[TPC_SLOT_VPU];
        u->used = true;
        u->is_label = false;
        u->value = st->ops[2].value;
        u->col = st->ops[2].col;
        b = (int)st->f_b;
        if (d->form == TPC_FORM_MOV_DG) {
            bool all = (sw & 3) == 1;
            static const char *const single[] = {"src", "dst", "wr_lg", "wr_ug"};
            static const char *const allk[] = {"sdg0", "sdg1", "sdg2", "sdg3",
                                               "weg0", "weg1", "weg2", "weg3"};
            for (size_t i = 0; i < G_N_ELEMENTS(single); i++)
                if (all && given(st, single[i])) {
                    asm_error(st->c, st->col, "'%s' belongs to the single mov_dg form", single[i]);
                    return false;
                }
            for (size_t i = 0; i < G_N_ELEMENTS(allk); i++)
                if (!all && given(st, allk[i])) {
                    asm_error(st->c, st->col, "'%s' needs mov_dg.all", allk[i]);
                    return false;
                }
            if (all) {
                cc = (int)st->f_c;
                st->ab->uses_vpu_c = true;
            }
        }
        break;
    }
    default: /* GENERIC: print-only opcodes, accepted as dst, a, b */
        take_pred(st, 3);
        if (!want_ops(st, 3, 3))
            return false;
        type = st->type < 0 ? 0 : (unsigned)st->type;
        CHK(dst = enc(st, &st->ops[0], K(V) | K(VP), "destination"));
        CHK(a = enc(st, &st->ops[1], ~0u, "source"));
        if (st->nops == 3)
            CHK(b = enc(st, &st->ops[2], ~0u, "source"));
        break;
    }
    put(st, TPC_B_VPU_OPC, 6, d->opc);
    put(st, TPC_B_VPU_SRC_A, 8, (unsigned)a);
    put(st, TPC_B_VPU_SRC_B, 8, (unsigned)b);
    if (st->ab->uses_vpu_c)
        put(st, TPC_B_VPU_SRC_C, 8, (unsigned)cc);
    if (st->ab->uses_vpu_d)
        put(st, TPC_B_VPU_SRC_D, 9, (unsigned)dd);
    put(st, TPC_B_VPU_DEST, 8, (unsigned)dst);
    put(st, TPC_B_VPU_SW, 3, sw);
    put(st, TPC_B_VPU_TYPE, 4, type);
    return d->form == TPC_FORM_HALT || put_pred(st);
}

/* Tensor operand of LD/ST_TNSR: number 0..15 or the S27/S28 register. */
static bool tensor_operand(Stmt *st, const AOp *op, unsigned reg, uint32_t *bfield, uint32_t *sw)
{
    if (is_reg(op, TPC_OP_S) && op->num == reg) {
        *sw |= 8;
        *bfield = st->slot == TPC_SLOT_ST ? 28 : 0;
        return true;
    }
    /* B[4:0] is the tensor id; a store's whole SRC_B may be written */
    if (op->type == AOP_IMM && op->value <= (st->slot == TPC_SLOT_ST ? 255u : 31u)) {
        *bfield = op->value;
        return true;
    }
    asm_error(st->c, op->col, "'%s': tensor must be 0..%u or S%u", st->mn,
              st->slot == TPC_SLOT_ST ? 255u : 31u, reg);
    return false;
}

static bool enc_ld(Stmt *st)
{
    const TpcInsnDesc *d = st->desc;
    int a = 0, dst = 0;
    uint32_t b = st->f_b, sw = st->f_sw;
    bool half = d->opc == 0x0f || d->opc == 0x10 || d->opc == 0x12 || d->opc == 0x13;

    if (d->form != TPC_FORM_MOV && !no_type(st))
        return false;
    switch (d->form) {
    case TPC_FORM_NOP:
        if (!want_ops(st, 0, 0))
            return false;
        put(st, TPC_B_LD_OPC, 5, d->opc);
        return true;
    case TPC_FORM_PRED:
        take_pred(st, 0);
        if (!want_ops(st, 0, 0))
            return false;
        break;
    case TPC_FORM_GEN_ADDR:
        take_pred(st, 3);
        if (!want_ops(st, 3, 3))
            return false;
        CHK(dst = enc(st, &st->ops[0], K(AD), "destination"));
        if (st->ops[1].type != AOP_IMM || st->ops[1].value > 15) {
            asm_error(st->c, st->ops[1].col, "'gen_addr': tensor must be 0..15");
            return false;
        }
        b = st->ops[1].value;
        CHK(a = enc(st, &st->ops[2], K(I), "coordinates"));
        break;
    case TPC_FORM_PRMT_INDX:
        take_pred(st, 3);
        if (!want_ops(st, 3, 3))
            return false;
        CHK(dst = enc(st, &st->ops[0], K(I), "destination"));
        CHK(a = enc(st, &st->ops[1], K(I), "source"));
        int bb;
        CHK(bb = enc(st, &st->ops[2], K(S), "permutation"));
        b = (uint32_t)bb;
        break;
    case TPC_FORM_SET_INDX:
        take_pred(st, 2);
        if (!want_ops(st, 2, 2))
            return false;
        if (!st->mask_given) {
            asm_error(st->c, st->col, "'set_indx' needs a dim mask (bMMMMM)");
            return false;
        }
        CHK(dst = enc(st, &st->ops[0], K(I), "destination"));
        CHK(a = enc(st, &st->ops[1], K(S) | K(IMM), "value"));
        b = st->mask << 2;
        break;
    case TPC_FORM_MOV: {
        take_pred(st, 2);
        if (!want_ops(st, 2, 3))
            return false;
        const AOp *o0 = &st->ops[0], *o1 = &st->ops[1];
        bool vsrc = is_reg(o1, TPC_OP_V) || is_reg(o1, TPC_OP_VSPECIAL);
        if (st->nops == 3 && !is_reg(o0, TPC_OP_VP)) {
            asm_error(st->c, st->ops[2].col, "too many operands for 'mov'");
            return false;
        }
        if (is_reg(o0, TPC_OP_I)) {
            if (!st->mask_given) {
                asm_error(st->c, o0->col, "'mov' to an index register needs a dim mask (bMMMMM)");
                return false;
            }
            CHK(dst = enc(st, o0, K(I), "destination"));
            CHK(a = enc(st, o1, K(S) | K(I) | K(IMM), "source"));
            b = st->mask << 2;
        } else if (is_reg(o0, TPC_OP_VP)) {
            CHK(dst = enc(st, o0, K(VP), "destination"));
            CHK(a = enc(st, o1, K(VP) | K(SP) | K(S) | K(IMM), "source"));
            if (is_reg(o1, TPC_OP_VP) || is_reg(o1, TPC_OP_SP)) {
                if (!want_ops(st, 2, 2))
                    return false;
                b = 0;
            } else {
                b = 8;
                if (st->nops == 3) {
                    if (st->ops[2].type != AOP_IMM || st->ops[2].value > 7) {
                        asm_error(st->c, st->ops[2].col, "predicate section must be 0..7");
                        return false;
                    }
                    b = st->ops[2].value;
                }
            }
        } else if (is_reg(o0, TPC_OP_SP)) {
            CHK(dst = enc(st, o0, K(SP), "destination"));
            CHK(a = enc(st, o1, K(S) | K(SLFSR) | K(IMM), "source"));
        } else if (is_reg(o0, TPC_OP_V) && vsrc) {
            CHK(dst = enc_vec(st, o0, 1, "destination"));
            CHK(a = enc(st, o1, K(V) | K(VSPECIAL), "source"));
        } else {
            if (!need_type(st))
                return false;
            if (is_reg(o0, TPC_OP_S)) {
                if (st->type == TPC_T_B) {
                    asm_error(st->c, st->type_col, "'mov' to a scalar register cannot be .b");
                    return false;
                }
                CHK(dst = enc(st, o0, K(S), "destination"));
            } else {
                CHK(dst = enc_vec(st, o0, 1, "destination"));
            }
            CHK(a = enc(st, o1, K(S) | K(SLFSR) | K(IMM), "source"));
            b = (uint32_t)st->type << 4;
        }
        break;
    }
    case TPC_FORM_LD_L:
        take_pred(st, 2);
        if (!want_ops(st, 2, 2))
            return false;
        CHK(dst = enc(st, &st->ops[0], K(S) | K(SP), "destination"));
        CHK(a = enc(st, &st->ops[1], K(S) | K(IMM), "address"));
        break;
    case TPC_FORM_LD_G:
        take_pred(st, 2);
        if (!want_ops(st, 2, 2))
            return false;
        CHK(dst = enc(st, &st->ops[0], K(S) | K(SP) | K(V) | K(VP), "destination"));
        CHK(a = enc(st, &st->ops[1], K(AD), "address"));
        break;
    case TPC_FORM_LD_L_V:
        take_pred(st, 2);
        if (!want_ops(st, 2, 2))
            return false;
        CHK(dst = enc(st, &st->ops[0], half ? K(V) : K(V) | K(VP), "destination"));
        CHK(a = enc(st, &st->ops[1], K(S) | K(IMM), "address"));
        break;
    case TPC_FORM_LD_TNSR: {
        take_pred(st, 3);
        if (!want_ops(st, 3, 4))
            return false;
        bool partial_sw = sw & 1;
        sw &= ~1u;
        CHK(dst = enc(st, &st->ops[0], half ? K(V) : K(V) | K(VP), "destination"));
        if (!tensor_operand(st, &st->ops[1], 27, &b, &sw))
            return false;
        CHK(a = enc(st, &st->ops[2], K(I), "coordinates"));
        if (st->nops == 4) {
            if (!is_reg(&st->ops[3], TPC_OP_S) || st->ops[3].num != 30) {
                asm_error(st->c, st->ops[3].col, "'%s': the partial operand must be S30", st->mn);
                return false;
            }
            sw |= 1;
        } else if (partial_sw) {
            /* vendor behaviour (tpc.md §10 item 8): the switch alone is ignored */
            asm_warn(st->c, st->col, "'ld_tnsr.partial' without S30 assembles without PARTIAL");
        }
        if (half && (sw & 1)) {
            asm_error(st->c, st->col, "'%s' has no partial form on Gaudi (missing feature)",
                      st->mn);
            return false;
        }
        break;
    }
    case TPC_FORM_PREFETCH:
        take_pred(st, 1);
        if (!want_ops(st, 1, 1))
            return false;
        CHK(a = enc(st, &st->ops[0], K(AD), "address"));
        break;
    default:
        take_pred(st, 2);
        if (!want_ops(st, 2, 3))
            return false;
        CHK(dst = enc(st, &st->ops[0], K(V), "destination"));
        CHK(a = enc(st, &st->ops[1], K(V), "source"));
        if (st->nops == 3) {
            if (st->ops[2].type != AOP_IMM || st->ops[2].value > 0x1ff) {
                asm_error(st->c, st->ops[2].col, "field value out of range");
                return false;
            }
            b = st->ops[2].value;
        }
        break;
    }
    if (d->form != TPC_FORM_PRED && d->form != TPC_FORM_LD_G && d->form != TPC_FORM_LD_L_V &&
        d->form != TPC_FORM_PREFETCH)
        st->ab->uses_ld_b = true;
    put(st, TPC_B_LD_OPC, 5, d->opc);
    put(st, TPC_B_LD_SRC_A, 8, (unsigned)a);
    put(st, TPC_B_LD_DEST, 8, (unsigned)dst);
    put(st, TPC_B_LD_SW, 4, sw);
    if (st->ab->uses_ld_b)
        put(st, TPC_B_VPU_SRC_D, 9, b);
    return put_pred(st);
}

static bool enc_st(Stmt *st)
{
    const TpcInsnDesc *d = st->desc;
    int a = (int)st->f_a, cc = 0;
    uint32_t b = st->f_b, sw = st->f_sw;
    bool half = d->opc == 0x08 || d->opc == 0x09 || d->opc == 0x0c || d->opc == 0x0d;
    bool uses_c = true;

    if (!no_type(st))
        return false;
    switch (d->form) {
    case TPC_FORM_NOP:
        if (!want_ops(st, 0, 0))
            return false;
        put(st, TPC_B_ST_OPC, 5, d->opc);
        return true;
    case TPC_FORM_PRED:
    case TPC_FORM_ASO:
        take_pred(st, 0);
        if (!want_ops(st, 0, 0))
            return false;
        uses_c = false;
        break;
    case TPC_FORM_GEN_ADDR:
        take_pred(st, 3);
        if (!want_ops(st, 3, 3))
            return false;
        CHK(cc = enc(st, &st->ops[0], K(AD), "destination"));
        if (st->ops[1].type != AOP_IMM || st->ops[1].value > 15) {
            asm_error(st->c, st->ops[1].col, "'gen_addr': tensor must be 0..15");
            return false;
        }
        b = st->ops[1].value;
        CHK(a = enc(st, &st->ops[2], K(I), "coordinates"));
        break;
    case TPC_FORM_PRMT_INDX: {
        take_pred(st, 3);
        if (!want_ops(st, 3, 3))
            return false;
        int bb;
        CHK(cc = enc(st, &st->ops[0], K(I), "destination"));
        CHK(a = enc(st, &st->ops[1], K(I), "source"));
        CHK(bb = enc(st, &st->ops[2], K(S), "permutation"));
        b = (uint32_t)bb;
        break;
    }
    case TPC_FORM_SET_INDX:
        take_pred(st, 2);
        if (!want_ops(st, 2, 2))
            return false;
        if (!st->mask_given) {
            asm_error(st->c, st->col, "'set_indx' needs a dim mask (bMMMMM)");
            return false;
        }
        CHK(cc = enc(st, &st->ops[0], K(I), "destination"));
        CHK(a = enc(st, &st->ops[1], K(S) | K(IMM), "value"));
        b = st->mask << 2;
        break;
    case TPC_FORM_ST_L:
        take_pred(st, 2);
        if (!want_ops(st, 2, 2))
            return false;
        CHK(a = enc(st, &st->ops[0], K(S) | K(IMM), "address"));
        CHK(cc = enc(st, &st->ops[1], K(S) | K(SP), "value"));
        break;
    case TPC_FORM_ST_G:
        take_pred(st, 2);
        if (!want_ops(st, 2, 2))
            return false;
        CHK(a = enc(st, &st->ops[0], K(AD), "address"));
        CHK(cc = enc(st, &st->ops[1], K(S) | K(SP), "value"));
        break;
    case TPC_FORM_ST_L_V:
        take_pred(st, 2);
        if (!want_ops(st, 2, 2))
            return false;
        CHK(a = enc(st, &st->ops[0], K(S) | K(IMM), "address"));
        CHK(cc = enc(st, &st->ops[1], half ? K(V) : K(V) | K(VP), "value"));
        break;
    case TPC_FORM_ST_TNSR:
        take_pred(st, 3);
        if (!want_ops(st, 3, 5))
            return false;
        if (!tensor_operand(st, &st->ops[0], 28, &b, &sw))
            return false;
        CHK(a = enc(st, &st->ops[1], K(I), "coordinates"));
        CHK(cc = enc(st, &st->ops[2], half ? K(V) : K(V) | K(VP), "value"));
        for (int i = 3; i < st->nops; i++) {
            const AOp *o = &st->ops[i];
            if (is_reg(o, TPC_OP_S) && o->num == 29 && i == 3)
                sw |= 2;
            else if (is_reg(o, TPC_OP_S) && o->num == 31 && !(i == 3 && st->nops == 5))
                sw |= 1;
            else {
                asm_error(st->c, o->col, "'%s': unexpected operand '%s' (S29 = RMW, S31 = partial)",
                          st->mn, o->s);
                return false;
            }
        }
        if (half && (sw & 1)) {
            asm_error(st->c, st->col, "'%s' has no partial form on Gaudi (missing feature)",
                      st->mn);
            return false;
        }
        if ((sw & 2) && is_reg(&st->ops[2], TPC_OP_VP)) {
            asm_error(st->c, st->ops[2].col, "RMW store of a vector predicate");
            return false;
        }
        break;
    default:
        asm_error(st->c, st->col, "'%s' cannot be assembled", st->mn);
        return false;
    }
    if (uses_c)
        st->ab->uses_st_c = true;
    put(st, TPC_B_ST_OPC, 5, d->opc);
    put(st, TPC_B_ST_SRC_A, 8, (unsigned)a);
    put(st, TPC_B_ST_SRC_B, 8, b);
    put(st, TPC_B_ST_SW, 4, sw);
    if (uses_c)
        put(st, TPC_B_VPU_SRC_C, 8, (unsigned)cc);
    return put_pred(st);
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
    ok = parse_stmt(&st, text, col);
    if (ok) {
        /* shared-field rules (tpc.md §4.1, §8.1) are checked after all slots */
        switch (slot) {
        case TPC_SLOT_LD:
            ok = enc_ld(&st);
            break;
        case TPC_SLOT_SPU:
            ok = enc_spu(&st);
            break;
        case TPC_SLOT_VPU:
            ok = enc_vpu(&st);
            break;
        default:
            ok = enc_st(&st);
            break;
        }
        if (ok)
            ab->slot_used[slot] = st.desc->form != TPC_FORM_NOP;
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
    if (!parse_stmt(&st, text, col))
        goto out;
    st.mn = "loop";
    memset(ab->b, 0, sizeof(ab->b)); /* LOOP owns the whole bundle */
    take_pred(&st, 5);
    if (!want_ops(&st, 5, 5) || !no_type(&st))
        goto out;
    static const unsigned pos[3] = {TPC_B_LOOP_START, TPC_B_LOOP_BOUNDARY, TPC_B_LOOP_STEP};
    static const unsigned width[3] = {7, 7, 6};
    static const unsigned sel[3] = {TPC_B_LOOP_START_SEL, TPC_B_LOOP_BOUNDARY_SEL,
                                    TPC_B_LOOP_STEP_SEL};
    static const char *const what[3] = {"start", "boundary", "step"};
    for (int i = 0; i < 3; i++) {
        const AOp *o = &st.ops[i];
        if (is_reg(o, TPC_OP_S)) {
            put(&st, pos[i], width[i], o->num);
        } else if (o->type == AOP_IMM) {
            put(&st, pos[i], width[i], o->value & ((1u << width[i]) - 1));
            put(&st, sel[i], 1, 1);
            if (i == 0) {
                ab->imm[TPC_SLOT_SPU].used = true;
                ab->imm[TPC_SLOT_SPU].value = o->value;
                ab->imm[TPC_SLOT_SPU].col = o->col;
                ab->loop_start_imm = true;
            } else {
                put(&st, i == 1 ? TPC_B_LOOP_BOUNDARY_IMM : TPC_B_LOOP_STEP_IMM, 32, o->value);
            }
        } else {
            asm_error(c, o->col, "loop %s must be an S register or an integer", what[i]);
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
        put(&st, TPC_B_LOOP_CMP, 3, (unsigned)cmp);
    }
    {
        const AOp *o = &st.ops[4];
        if (o->type == AOP_NAME) {
            ab->fix_kind = FIX_LOOP;
            ab->fix_label = g_strdup(o->s);
            ab->fix_col = o->col;
        } else if (o->type == AOP_IMM && o->value <= 0xffff) {
            put(&st, TPC_B_LOOP_END, 16, o->value);
        } else {
            asm_error(c, o->col, "loop end must be a label or an offset 0..65535");
            goto out;
        }
    }
    if (st.has_pred && st.pred.kind == TPC_OP_VP) {
        asm_error(c, st.pred.col, "'loop' takes only a scalar predicate");
        goto out;
    }
    put(&st, TPC_B_SPU_OPC, 6, TPC_OPC_LOOP);
    put(&st, TPC_B_SPU_PRED, 4, st.has_pred ? st.pred.num : 0);
    put(&st, TPC_B_SPU_POL, 1, st.has_pred && st.pred.neg_pred);
    ab->slot_used[TPC_SLOT_SPU] = true;
    ok = true;
out:
    g_ptr_array_free(st.strs, TRUE);
    return ok;
}

void asm_bundle_init(AsmBundle *ab)
{
    static const uint8_t nop[TPC_BUNDLE_BYTES] = {0x3f, 0, 0, 0, 0,    0xf8, 0x01, 0,    0,    0,
                                                  0,    0, 0, 0, 0x80, 0x0f, 0,    0xf0, 0x01, 0};
    memset(ab, 0, sizeof(*ab));
    memcpy(ab->b, nop, sizeof(nop));
}
