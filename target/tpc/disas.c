/*
 * TPC disassembler: TpcBundle -> Habana assembly text, as tpc-llvm's
 * llvm-objdump prints it (tpc.md §8): `ld; spu; vpu; st`, lowercase
 * mnemonics/switches, uppercase registers, immediates as 0x hex of IMM.
 */
#include <string.h>

#include "target/tpc/asm.h"

typedef struct P {
    GString *o;
    const TpcBundle *bd;
    uint32_t pc;
    TpcLabelFn label;
    void *opaque;
    unsigned nops; /* operands printed so far in this slot */
} P;

static const char *const vspecial_name[5] = {"LFSR", "LFSR_NO_CHANGE", "V_LANE_ID_32",
                                             "V_LANE_ID_16", "V_LANE_ID_8"};

static void sep(P *p)
{
    g_string_append(p->o, p->nops++ ? ", " : " ");
}

static void word(P *p, const char *w)
{
    g_string_append_c(p->o, ' ');
    g_string_append(p->o, w);
}

/* Register-file prefixes by operand kind (V is special-cased for pairs). */
static const char *const reg_prefix[] = {
    [TPC_OP_S] = "S", [TPC_OP_SP] = "SP", [TPC_OP_VP] = "VP", [TPC_OP_I] = "I", [TPC_OP_AD] = "AD",
};

/* Register or immediate operand; `group` 2 prints V pairs as D, 4 as A. */
static void opnd(P *p, const TpcOperand *op, unsigned group)
{
    GString *o = p->o;
    sep(p);
    switch (op->kind) {
    case TPC_OP_V:
        g_string_append_printf(o, "%c%u", group == 2 ? 'D' : group == 4 ? 'A' : 'V', op->num);
        break;
    case TPC_OP_S:
        g_string_append_printf(o, "%c%u", group == 2 ? 'Z' : 'S', op->num);
        break;
    case TPC_OP_SP:
    case TPC_OP_VP:
    case TPC_OP_I:
    case TPC_OP_AD:
        g_string_append_printf(o, "%s%u", reg_prefix[op->kind], op->num);
        break;
    case TPC_OP_IMM:
        g_string_append_printf(o, "0x%x", p->bd->imm);
        break;
    case TPC_OP_SIMM:
        g_string_append_printf(o, "0x%x", op->num);
        break;
    case TPC_OP_VSPECIAL:
        g_string_append(o, op->num < 5 ? vspecial_name[op->num] : "?");
        break;
    case TPC_OP_SLFSR:
        g_string_append(o, op->num ? "S_LFSR_NO_CHANGE" : "S_LFSR");
        break;
    case TPC_OP_HWREG:
        g_string_append(o, "PC");
        break;
    default:
        g_string_append_printf(o, "0x%x", op->raw);
        break;
    }
}

static void hexop(P *p, uint32_t v)
{
    sep(p);
    g_string_append_printf(p->o, "0x%x", v);
}

static void regop(P *p, const char *name)
{
    sep(p);
    g_string_append(p->o, name);
}

static void mnem(P *p, const TpcInsn *in, bool typed)
{
    g_string_append(p->o, in->desc->mnemonic);
    if (typed && in->type < TPC_T_COUNT)
        g_string_append_printf(p->o, ".%s", tpc_type_suffix[in->type]);
    p->nops = 0;
}

static void pred(P *p, const TpcInsn *in)
{
    if (!in->pred && !in->polarity) /* SP0 and VP0 (always true) print nothing */
        return;
    /* like tpc-llvm: no comma when no operand precedes (switch words do not count) */
    g_string_append_printf(p->o, "%s%s%s%u", p->nops ? ", " : " ", in->polarity ? "!" : "",
                           in->pred_vp ? "VP" : "SP", in->pred);
    p->nops++;
}

static void dimmask(P *p, unsigned mask, bool as_operand)
{
    char s[8] = {'b'};
    for (int d = 4, i = 1; d >= 0; d--, i++)
        s[i] = (char)('0' + ((mask >> d) & 1));
    s[6] = 0;
    if (as_operand)
        regop(p, s);
    else
        word(p, s);
}

static void target(P *p, uint32_t off, int64_t shown)
{
    const char *l = p->label ? p->label(p->opaque, off) : NULL;
    sep(p);
    if (l)
        g_string_append(p->o, l);
    else
        g_string_append_printf(p->o, "%" G_GINT64_FORMAT, shown);
}

/* A row whose form no printer knows (a table mistake): its raw fields. */
static void unknown_form(P *p, const TpcInsn *in)
{
    g_string_append_printf(p->o, "%s ?", in->desc->mnemonic);
}

/* Name of value v of a multi-bit switch, or NULL. */
static const char *sw_value_name(const TpcSwDef *sw, unsigned v)
{
    for (const TpcSwVal *n = sw->values; n && n->name; n++)
        if (n->value == v)
            return n->name;
    return NULL;
}

/* The switches of a table-described form, in table order (tpc.md §8.2). */
static void sw_print(P *p, const TpcInsn *in, unsigned swmask)
{
    for (const TpcSwDef *sw = tpc_sws_table(in->desc->sws); sw && sw->key; sw++) {
        if ((sw->slots && !(sw->slots & (1u << in->desc->slot))) || sw->print == TPC_SWP_NEVER ||
            (sw->types && !((sw->types >> in->type) & 1)) ||
            (sw->vars && !((sw->vars >> in->var) & 1)) ||
            (swmask && sw->field == TPC_SWF_SW &&
             ((((1u << sw->width) - 1) << sw->shift) & ~swmask)))
            continue;
        unsigned v = tpc_sw_value(in, sw);
        if (sw->print == TPC_SWP_SUFFIX) {
            if (v)
                g_string_append_printf(p->o, ".%s", sw->key);
            continue;
        }
        if (sw->print == TPC_SWP_LANES) {
            const char *name = sw_value_name(sw, v);
            if ((int)v != tpc_sw_default(sw, in->type, in->b.raw) && name)
                word(p, name);
            continue;
        }
        if (sw->print == TPC_SWP_BARE) {
            if (v != sw->dflt)
                g_string_append_printf(p->o, " 0x%x", v);
            continue;
        }
        if (sw->print == TPC_SWP_HEX) {
            g_string_append_printf(p->o, " %s=0x%x", sw->key, v);
            continue;
        }
        if (sw->print == TPC_SWP_BIN) {
            g_string_append_printf(p->o, " %s=0b", sw->key);
            int top = v ? 31 - __builtin_clz(v) : 0;
            for (int i = top; i >= 0; i--)
                g_string_append_c(p->o, (char)('0' + ((v >> i) & 1)));
            continue;
        }
        const char *name = sw_value_name(sw, v);
        bool always = sw->print == TPC_SWP_ALWAYS || sw->print == TPC_SWP_LEAD;
        bool keyed = sw->print == TPC_SWP_KEYVAL || always;
        if (!sw->values && !sw->int_values) { /* one-bit word */
            if (v)
                word(p, sw->key);
            continue;
        }
        if (v == sw->dflt && !always && sw->print != TPC_SWP_NAME)
            continue;
        if (keyed || !name) {
            if (name)
                g_string_append_printf(p->o, " %s=%s", sw->key, name);
            else
                g_string_append_printf(p->o, " %s=%u", sw->key, v);
        } else {
            word(p, name);
        }
    }
}

/* A form described by a TpcLayout: mnemonic[.type], switches, operands in
 * the layout's order, predicate. */
static void print_layout(P *p, const TpcInsn *in, const TpcLayout *l)
{
    const TpcOperand *ops[5] = {&in->dst, &in->a, &in->b, &in->c, &in->d};
    if (l->flags & TPC_LF_BARE) {
        g_string_append(p->o, in->desc->mnemonic);
        return;
    }
    /* the type suffix: of a typed row, unless the variant has none or a fixed
     * one, or the type is the variant's default */
    bool typed = in->desc->types != 0;
    if (l->flags & (TPC_LF_T_NONE | TPC_LF_T_FIXED | TPC_LF_TYPE_I32))
        typed = false;
    else if (l->flags & TPC_LF_T_DEFAULT)
        typed = in->type != tpc_layout_type(l);
    mnem(p, in, typed);
    sw_print(p, in, l->swmask);
    for (unsigned i = 0; i < l->nops; i++) {
        const TpcOpSpec *s = &l->op[i];
        if (s->flags & (TPC_OPF_TYPE | TPC_OPF_COPY)) /* the suffix; not written */
            continue;
        if (s->flags & TPC_OPF_BIMM) {
            hexop(p, p->bd->imm);
        } else if ((s->flags & (TPC_OPF_TNSR | TPC_OPF_SWREG)) && s->sreg &&
                   ((in->sw >> s->swbit) & 1)) {
            char r[8];
            g_snprintf(r, sizeof r, "S%u", s->sreg);
            regop(p, r);
        } else if (s->flags & TPC_OPF_SWREG) {
            continue; /* the switch is clear: no operand */
        } else if (s->kinds == TPC_K(RAW)) {
            uint32_t v = s->field == TPC_FIELD_SW ? in->sw : ops[s->field]->raw;
            if (s->width)
                v = (v >> s->shift) & ((1u << s->width) - 1);
            if (s->flags & TPC_OPF_DIMMASK)
                dimmask(p, v, (s->flags & TPC_OPF_LISTED) != 0);
            else if (s->flags & TPC_OPF_PREFIX)
                g_string_append_printf(p->o, " 0x%x", v);
            else
                hexop(p, v);
        } else if ((s->flags & TPC_OPF_TARGET) &&
                   (ops[s->field]->kind == TPC_OP_IMM || ops[s->field]->kind == TPC_OP_SIMM)) {
            const TpcOperand *o = ops[s->field];
            uint32_t v = o->kind == TPC_OP_IMM ? p->bd->imm : o->num;
            if (in->desc->flags & TPC_F_PCREL)
                target(p, p->pc + v, (int32_t)v);
            else
                target(p, v, v);
        } else {
            const TpcOperand *o = ops[s->field];
            bool pair = tpc_opd_pair(in->desc, s->flags, in->type, in->sw, in->b.raw) &&
                        (!(s->flags & TPC_OPF_SPAIR) || (o->kind == TPC_OP_V && o->num % 2 == 0));
            opnd(p, o, pair ? 2 : s->group);
        }
    }
    pred(p, in);
}

static void print_loop(P *p)
{
    const TpcLoop *l = &p->bd->loop;
    GString *o = p->o;
    g_string_append(o, "loop");
    for (unsigned i = 0; i < 3; i++) {
        const TpcLoopOpd *d = &tpc_loop_opd[i];
        uint8_t reg;
        bool sel;
        uint32_t v;
        memcpy(&reg, (const char *)l + d->reg_off, sizeof(reg));
        memcpy(&sel, (const char *)l + d->sel_off, sizeof(sel));
        memcpy(&v, (const char *)l + d->val_off, sizeof(v));
        g_string_append_printf(o, sel ? "%s%u" : "%sS%u", i ? ", " : " ", sel ? v : reg);
    }
    g_string_append_printf(o, ", %s", l->cmp < 6 ? tpc_loop_cmp_name[l->cmp] : "?");
    p->nops = 4;
    target(p, p->pc + l->end_offset + TPC_BUNDLE_BYTES, l->end_offset);
    if (l->once)
        g_string_append(o, ", 0x1");
    if (l->pred || l->polarity)
        g_string_append_printf(o, ", %sSP%u", l->polarity ? "!" : "", l->pred);
}

/* A bundle as its eight words, low word first, after a comment line. */
static void print_raw(GString *out, const uint8_t b[TPC_BUNDLE_BYTES], const char *why)
{
    g_string_append_printf(out, "%s\n.long ", why);
    for (unsigned i = 0; i < 8; i++)
        g_string_append_printf(out, "%s0x%08x", i ? ", " : "", tpc_bits(b, 32 * i, 32));
}

void tpc_disas_bundle_gs(GString *out, const uint8_t b[TPC_BUNDLE_BYTES], uint32_t pc,
                         TpcLabelFn label, void *opaque)
{
    TpcBundle bd;
    NxFault f, sf[4];
    P p = {out, &bd, pc, label, opaque, 0};

    bool ok = tpc_decode_bundle_all(b, &bd, &f, sf);
    if (!ok) {
        /* slots that are merely outside the nxemu subset still print */
        for (unsigned s = 0; s < 4; s++) {
            if (sf[s].code && sf[s].code != TPC_FAULT_UNIMPLEMENTED)
                goto bad;

        }
    }
    if (bd.is_loop) {
        print_loop(&p);
        return;
    }
    for (unsigned s = 0; s < 4; s++) {
        const TpcInsn *in = &bd.slot[s];
        const TpcLayout *l = tpc_form_variant(in->desc->form, in->var);
        if (s)
            g_string_append(out, "; ");
        if (l)
            print_layout(&p, in, l);
        else
            unknown_form(&p, in); /* a row without a layout: a table mistake */
    }
    return;
bad:
    print_raw(out, b, "// bad bundle");
}

typedef struct SymCtx {
    const TpcSym *syms;
    size_t n;
} SymCtx;

static const char *sym_at(void *opaque, uint32_t off)
{
    SymCtx *c = opaque;
    for (size_t i = 0; i < c->n; i++)
        if (c->syms[i].value == off && strcmp(c->syms[i].name, ".text") != 0 && c->syms[i].name[0])
            return c->syms[i].name;
    return NULL;
}

void tpc_disas_text(GString *out, const uint8_t *text, size_t len, const TpcSym *syms, size_t nsyms,
                    bool leading_addr)
{
    SymCtx c = {syms, nsyms};
    for (size_t off = 0; off + TPC_BUNDLE_BYTES <= len; off += TPC_BUNDLE_BYTES) {
        for (size_t i = 0; i < nsyms; i++) {
            if (syms[i].value != off || !syms[i].name[0] || strcmp(syms[i].name, ".text") == 0)
                continue;
            if (leading_addr)
                g_string_append_printf(out, "\n%08zx <%s>:\n", off, syms[i].name);
            else
                g_string_append_printf(out, "\n%s:\n", syms[i].name);
        }
        if (!leading_addr) {
            tpc_disas_bundle_gs(out, text + off, (uint32_t)off, sym_at, &c);
            g_string_append_c(out, '\n');
            continue;
        }
        /* llvm-objdump's "%8x: " before the text; the second line of a raw
         * (.long) bundle is indented under the first */
        GString *b = g_string_new(NULL);
        tpc_disas_bundle_gs(b, text + off, (uint32_t)off, sym_at, &c);
        g_string_append_printf(out, "%8zx: ", off);
        for (const char *l = b->str, *nl; *l; l = nl + 1) {
            nl = strchr(l, '\n');
            if (!nl) {
                g_string_append(out, l);
                break;
            }
            g_string_append_len(out, l, nl + 1 - l);
            g_string_append(out, "          ");
        }
        g_string_append_c(out, '\n');
        g_string_free(b, TRUE);
    }
}

/* .tpc_metadata fields: name, offset, size, first version (tpc.md §7.1). */
static const struct {
    const char *name;
    uint8_t off, size, since;
} md_fields[] = {
    {"version", 0, 4, 0},           {"specialFunctionUsed", 4, 1, 3},
    {"printfUsed", 5, 1, 3},        {"lockUnLock", 6, 1, 3},
    {"mmioUsed", 7, 1, 6},          {"march", 8, 2, 5},
    {"paramsNum", 12, 1, 8},        {"printfTensorID", 13, 1, 9},
    {"numberOfThreads", 14, 1, 10}, {"directMMIOAccess", 15, 1, 11},
    {"dnorm", 16, 1, 12},
};

void tpc_disas_metadata(GString *out, const uint8_t *md, size_t len)
{
    static const char *const dx[5] = {NULL, "DB", "DW", NULL, "DD"};
    uint32_t version;
    if (len < TPC_METADATA_SIZE)
        return;
    version =
        (uint32_t)md[0] | (uint32_t)md[1] << 8 | (uint32_t)md[2] << 16 | (uint32_t)md[3] << 24;
    g_string_append(out, ".section .tpc_metadata\n");
    for (size_t i = 0; i < G_N_ELEMENTS(md_fields); i++) {
        uint32_t v = 0;
        if (version < md_fields[i].since)
            continue;
        for (unsigned k = 0; k < md_fields[i].size; k++)
            v |= (uint32_t)md[md_fields[i].off + k] << (8 * k);
        g_string_append_printf(out, "%s: %s %u\n", md_fields[i].name, dx[md_fields[i].size], v);
    }
    for (unsigned t = 0; t < 16; t++)
        if ((md[26 + t / 8] >> (t % 8)) & 1)
            g_string_append_printf(out, "scalarLd[%u]: DB 1\n", t);
    if (version >= 4)
        for (unsigned t = 0; t < 16; t++)
            if ((md[28 + t / 8] >> (t % 8)) & 1)
                g_string_append_printf(out, "rmwStore[%u]: DB 1\n", t);
}

size_t tpc_disas_bundle(char *buf, size_t size, const uint8_t b[TPC_BUNDLE_BYTES], uint32_t pc)
{
    GString *s = g_string_new(NULL);
    tpc_disas_bundle_gs(s, b, pc, NULL, NULL);
    size_t n = s->len;
    if (size) {
        size_t k = n < size - 1 ? n : size - 1;
        memcpy(buf, s->str, k);
        buf[k] = 0;
    }
    g_string_free(s, TRUE);
    return n;
}
