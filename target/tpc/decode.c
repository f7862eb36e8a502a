/*
 * TPC bundle decoder (tpc.md §4.6): bundle bits -> TpcBundle.
 *
 * Each slot is decoded from its row in insn-<slot>.def; the row's form says
 * which fields are registers (and of which files) and which are raw switch
 * fields.  Operand checks are the encoding checks of tpc.md §4.2/§5 only:
 * anything that needs machine state is left to the executor.
 */
#include <string.h>

#include "target/tpc/insn.h"

/* ---- operand decoding ---- */

#define K(x) (1u << TPC_OP_##x)

/* VPU/LD/ST 8-bit register field (tpc.md §4.2 left column). */
static bool enc_vpu(unsigned v, TpcOperand *o)
{
    o->raw = (uint16_t)v;
    o->num = 0;
    if (v <= 39) {
        o->kind = TPC_OP_V, o->num = (uint8_t)v;
    } else if (v <= 44) {
        o->kind = TPC_OP_VSPECIAL, o->num = (uint8_t)(v - 40);
    } else if (v >= 64 && v <= 99) {
        o->kind = TPC_OP_S, o->num = (uint8_t)(v - 64);
    } else if (v == 104 || v == 105) {
        o->kind = TPC_OP_SLFSR, o->num = (uint8_t)(v - 104);
    } else if (v >= 111 && v <= 126) {
        o->kind = TPC_OP_SIMM, o->num = (uint8_t)(v == 111 ? 15 : v - 112);
    } else if (v == 127) {
        o->kind = TPC_OP_IMM;
    } else if (v >= 128 && v <= 159) {
        o->kind = TPC_OP_I, o->num = (uint8_t)(v - 128);
    } else if (v >= 160 && v <= 167) {
        o->kind = TPC_OP_AD, o->num = (uint8_t)(v - 160);
    } else if (v >= 224 && v <= 239) {
        o->kind = TPC_OP_SP, o->num = (uint8_t)(v - 224);
    } else if (v >= 240 && v <= 255) {
        o->kind = TPC_OP_VP, o->num = (uint8_t)(v - 240);
    } else {
        o->kind = TPC_OP_NONE;
        return false;
    }
    return true;
}

/* SPU 7-bit register field (tpc.md §4.2 right column). */
static bool enc_spu(unsigned v, TpcOperand *o)
{
    o->raw = (uint16_t)v;
    o->num = 0;
    if (v <= 35) {
        o->kind = TPC_OP_S, o->num = (uint8_t)v;
    } else if (v == 40 || v == 41) {
        o->kind = TPC_OP_SLFSR, o->num = (uint8_t)(v - 40);
    } else if (v >= 48 && v <= 63) {
        o->kind = TPC_OP_SP, o->num = (uint8_t)(v - 48);
    } else if (v >= 64 && v <= 95) {
        o->kind = TPC_OP_I, o->num = (uint8_t)(v - 64);
    } else if (v >= 96 && v <= 103) {
        o->kind = TPC_OP_AD, o->num = (uint8_t)(v - 96);
    } else if (v >= 111 && v <= 126) {
        o->kind = TPC_OP_SIMM, o->num = (uint8_t)(v == 111 ? 15 : v - 112);
    } else if (v == 127) {
        o->kind = TPC_OP_IMM;
    } else {
        o->kind = TPC_OP_NONE;
        return false;
    }
    return true;
}

typedef struct Dec {
    const uint8_t *b;
    unsigned slot;
    NxFault *f;
} Dec;

static bool bad_operand(Dec *d, unsigned field, unsigned value)
{
    return nx_fault_set(d->f, TPC_FAULT_ILLEGAL_OPERAND,
                        d->slot | (field & 0xf) << 4 | (value & 0xffffff) << 8, 0);
}

static bool bad_insn(Dec *d, unsigned opc)
{
    return nx_fault_set(d->f, TPC_FAULT_ILLEGAL_INSTRUCTION, d->slot | opc << 8, 0);
}

/* Decode register field `v` into *o and check its kind is in `allowed`. */
static bool reg(Dec *d, TpcOperand *o, unsigned field, unsigned v, unsigned allowed)
{
    bool ok = d->slot == TPC_SLOT_SPU ? enc_spu(v, o) : enc_vpu(v, o);
    if (!ok || !(allowed & (1u << o->kind)))
        return bad_operand(d, field, v);
    return true;
}

static void raw(TpcOperand *o, unsigned v)
{
    o->kind = TPC_OP_RAW;
    o->num = 0;
    o->raw = (uint16_t)v;
}

static bool is_pairable(Dec *d, const TpcOperand *o, unsigned field, unsigned step)
{
    if ((o->kind == TPC_OP_V || o->kind == TPC_OP_S) && (o->num % step) != 0)
        return bad_operand(d, field, o->raw);
    return true;
}

/* ---- table-described forms (insn-forms.def) ---- */

static bool check_type(Dec *d, TpcInsn *in)
{
    const TpcInsnDesc *desc = in->desc;
    if (!desc->types)
        return true;
    if (in->type >= TPC_T_COUNT || !(desc->types & (1u << in->type)))
        return bad_operand(d, TPC_FIELD_TYPE, in->type);
    return true;
}


/* Field value of switch `sw` in a decoded slot (TPC_SWF_*). */
uint32_t tpc_sw_value(const TpcInsn *in, const TpcSwDef *sw)
{
    uint32_t v;
    switch (sw->field) {
    case TPC_SWF_A:
        v = in->a.raw;
        break;
    case TPC_SWF_B:
        v = in->b.raw;
        break;
    case TPC_SWF_C:
        v = in->c.raw;
        break;
    case TPC_SWF_D:
        v = in->d.raw;
        break;
    case TPC_SWF_T:
        v = in->type;
        break;
    default:
        v = in->sw;
        break;
    }
    return (v >> sw->shift) & ((1u << sw->width) - 1);
}

/* The switches of a table-described form: a value without a name in a
 * strict field, or a set bit that no switch and no number operand of the
 * form describes (a later generation's switch), is ILLEGAL_INSTRUCTION, so
 * that every decodable bundle prints as text that keeps all its bits. */
static bool check_switches(Dec *d, const TpcInsn *in, const TpcLayout *l)
{
    /* bits described per switch field: SW, A, B, C, D, T (TPC_SWF_*) */
    uint32_t covered[6] = {0};
    for (const TpcSwDef *sw = tpc_sws_table(in->desc->sws); sw && sw->key; sw++) {
        if ((sw->slots && !(sw->slots & (1u << d->slot))) ||
            (sw->vars && !((sw->vars >> in->var) & 1)))
            continue;
        covered[sw->field] |= ((1u << sw->width) - 1) << sw->shift;
        if (sw->field == TPC_SWF_SW && l->swmask)
            covered[TPC_SWF_SW] &= l->swmask;
        if (!sw->strict)
            continue;
        uint32_t v = tpc_sw_value(in, sw);
        bool named = false;
        for (const TpcSwVal *n = sw->values; n && n->name; n++)
            named |= n->value == v;
        if (!named)
            return bad_insn(d, in->opc);
    }
    for (unsigned i = 0; i < l->nops; i++) {
        const TpcOpSpec *s = &l->op[i];
        uint32_t m = s->width ? ((1u << s->width) - 1) << s->shift : 0xFFFFFFFFu;
        if (s->kinds != TPC_K(RAW) || (s->flags & TPC_OPF_BIMM))
            continue;
        if ((s->flags & TPC_OPF_TNSR) && s->sreg)
            covered[TPC_SWF_SW] |= 1u << s->swbit;
        if (s->field == TPC_FIELD_SW)
            covered[TPC_SWF_SW] |= m;
        else if (s->field == TPC_FIELD_SRC_B)
            covered[TPC_SWF_B] |= m;
        else if (s->field == TPC_FIELD_SRC_C)
            covered[TPC_SWF_C] |= m;
        else if (s->field == TPC_FIELD_SRC_D)
            covered[TPC_SWF_D] |= m;
    }
    if (in->sw & ~covered[TPC_SWF_SW])
        return bad_insn(d, in->opc);
    if (!in->desc->types && !(l->flags & TPC_LF_TYPE_I32) && (in->type & ~covered[TPC_SWF_T]))
        return bad_insn(d, in->opc);
    if ((l->flags & TPC_LF_SW_A) && (in->a.raw & ~covered[TPC_SWF_A]))
        return bad_insn(d, in->opc);
    if ((l->flags & TPC_LF_SW_B) && (in->b.raw & ~covered[TPC_SWF_B]))
        return bad_insn(d, in->opc);
    if ((l->flags & TPC_LF_SW_C) && (in->c.raw & ~covered[TPC_SWF_C]))
        return bad_insn(d, in->opc);
    if ((l->flags & TPC_LF_SW_D) && (in->d.raw & ~covered[TPC_SWF_D]))
        return bad_insn(d, in->opc);
    return true;
}

/* Decode a form described by a TpcLayout; fv[] holds the slot's raw fields
 * indexed by TPC_FIELD_* (DEST..SRC_D; SW and TYPE are in *in already). */
static bool dec_layout(Dec *d, TpcInsn *in, const TpcLayout *l, const unsigned fv[5])
{
    TpcOperand *ops[5] = {&in->dst, &in->a, &in->b, &in->c, &in->d};
    static const uint8_t sw_field[4][2] = {{TPC_LF_SW_A, TPC_FIELD_SRC_A},
                                           {TPC_LF_SW_B, TPC_FIELD_SRC_B},
                                           {TPC_LF_SW_C, TPC_FIELD_SRC_C},
                                           {TPC_LF_SW_D, TPC_FIELD_SRC_D}};

    if (l->flags & TPC_LF_BARE)
        return true;
    if (!check_type(d, in))
        return false;
    if ((l->flags & TPC_LF_TYPE_I32) && in->type != TPC_T_I32)
        return bad_operand(d, TPC_FIELD_TYPE, in->type);
    if (((l->flags & TPC_LF_T_NONE) && in->type != 0) ||
        ((l->flags & TPC_LF_T_FIXED) && in->type != tpc_layout_type(l)))
        return bad_operand(d, TPC_FIELD_TYPE, in->type);
    for (unsigned i = 0; i < l->nops; i++) {
        const TpcOpSpec *s = &l->op[i];
        if (s->flags & TPC_OPF_BIMM) /* any 32-bit value of the bundle's IMM */
            continue;
        if (s->flags & TPC_OPF_COPY) { /* repeats DEST: another value has no spelling */
            if (fv[s->field] != fv[TPC_FIELD_DEST])
                return bad_operand(d, s->field, fv[s->field]);
            continue;
        }
        if (s->field > TPC_FIELD_SRC_D) { /* a number in SW: read from in->sw */
            unsigned v = (in->sw >> s->shift) & ((1u << s->width) - 1);
            if (s->max && v > s->max)
                return bad_insn(d, in->opc);
            /* a register switch (st_tnsr's S31 = partial) the row forbids */
            if ((s->flags & TPC_OPF_SWREG) && v &&
                (((s->flags & TPC_OPF_FULL_ONLY) && tpc_insn_half(in->desc)) ||
                 ((s->flags & TPC_OPF_NOT_VP) && in->c.kind == TPC_OP_VP)))
                return bad_insn(d, in->opc);
            continue;
        }
        TpcOperand *o = ops[s->field];
        if ((s->flags & TPC_OPF_TNSR) && s->sreg && ((in->sw >> s->swbit) & 1)) {
            /* the tensor in S27/S28: the field holds the value the
             * vendor's assembler writes for it */
            if (fv[s->field] != s->sregval)
                return bad_operand(d, s->field, fv[s->field]);
            raw(o, fv[s->field]);
            continue;
        }
        if (s->kinds == TPC_K(RAW)) {
            /* a number field (gen_addr's tensor 0..15): the rest of the
             * field must be clear unless switches share it */
            bool shared = (s->field == TPC_FIELD_SRC_B && (l->flags & TPC_LF_SW_B)) ||
                          (s->field == TPC_FIELD_SRC_C && (l->flags & TPC_LF_SW_C)) ||
                          (s->field == TPC_FIELD_SRC_D && (l->flags & TPC_LF_SW_D));
            if (s->width && !shared && (fv[s->field] & ~(((1u << s->width) - 1) << s->shift)))
                return bad_operand(d, s->field, fv[s->field]);
            raw(o, fv[s->field]);
            if (s->flags & TPC_OPF_TYPE) { /* the data type (load-slot mov: SRC_B[7:4]) */
                unsigned t = (fv[s->field] >> s->shift) & ((1u << s->width) - 1);
                if (t >= TPC_T_COUNT || !((in->desc->types >> t) & 1) ||
                    ((l->cond & TPC_VC_NOT_B) && t == TPC_T_B))
                    return bad_operand(d, s->field, fv[s->field]);
                in->type = (uint8_t)t;
            }
            continue;
        }
        if (s->kinds == TPC_K(HWREG)) { /* Gaudi's one: PC (id 0), read (bit 6 clear) */
            if (fv[s->field] != 0)
                return bad_insn(d, in->opc);
            o->kind = TPC_OP_HWREG;
            o->num = 0;
            o->raw = 0;
            continue;
        }
        if (!reg(d, o, s->field, fv[s->field], s->kinds))
            return false;
        bool pair = tpc_opd_pair(in->desc, s->flags, in->type, in->sw, fv[TPC_FIELD_SRC_B]);
        if ((s->group == 2 || ((s->flags & TPC_OPF_VPAIR) && pair)) &&
            !is_pairable(d, o, s->field, 2))
            return false;
        /* a source pair V(n), V(n+1) (convert f32 -> bf16 of all lanes) */
        if ((s->flags & TPC_OPF_SPAIR) && pair && o->kind == TPC_OP_V && o->num + 1 >= 40)
            return bad_operand(d, s->field, fv[s->field]);
    }
    for (unsigned i = 0; i < 4; i++)
        if (l->flags & sw_field[i][0])
            raw(ops[sw_field[i][1]], fv[sw_field[i][1]]);
    return check_switches(d, in, l);
}

/* Do the register fields of variant l take their operands: DEST only, or
 * with `all` every register operand (a TPC_LF_BY_SRC variant)? */
static bool variant_fits(const Dec *d, const TpcLayout *l, const unsigned fv[5], bool all)
{
    for (unsigned k = 0; k < l->nops; k++) {
        const TpcOpSpec *s = &l->op[k];
        if (s->field > TPC_FIELD_SRC_D || s->kinds == TPC_K(RAW) ||
            (s->flags & (TPC_OPF_COPY | TPC_OPF_BIMM)) || (!all && s->field != TPC_FIELD_DEST))
            continue;
        if (s->kinds == TPC_K(HWREG)) {
            if (fv[s->field] != 0)
                return false;
            continue;
        }
        TpcOperand o;
        NxFault scratch;
        Dec peek = {d->b, d->slot, &scratch};
        if (!reg(&peek, &o, s->field, fv[s->field], s->kinds))
            return false;
    }
    return true;
}

/* A table-described form (fv[]: the slot's raw fields by TPC_FIELD_*).  A
 * form with variants: the first that applies to the row and the type and
 * whose destination kinds take DEST (and, for a TPC_LF_BY_SRC variant, whose
 * source kinds take the sources); when none does, the first whose
 * destination fits reports the operand that does not. */
static bool dec_table_form(Dec *d, TpcInsn *in, const unsigned fv[5])
{
    const TpcLayout *l;
    in->var = 0;
    if (!tpc_form_variant(in->desc->form, 1))
        return dec_layout(d, in, tpc_form_layout(in->desc->form), fv);
    if (!check_type(d, in))
        return false;
    for (unsigned pass = 0; pass < 2; pass++) {
        for (unsigned i = 0; (l = tpc_form_variant(in->desc->form, i)); i++) {
            if (!tpc_variant_applies(l, in->desc, in->type, in->sw) ||
                !variant_fits(d, l, fv, pass == 0 && (l->flags & TPC_LF_BY_SRC)))
                continue;
            in->var = (uint8_t)i;
            return dec_layout(d, in, l, fv);
        }
    }
    return bad_operand(d, TPC_FIELD_DEST, fv[TPC_FIELD_DEST]);
}

/* A row whose form has neither a layout nor a case in its slot's decoder: a
 * table mistake, reported as UNIMPLEMENTED rather than decoded by guess (the
 * every-row test finds such rows). */
static bool no_decoder(Dec *d, const TpcInsn *in)
{
    return nx_fault_set(d->f, TPC_FAULT_UNIMPLEMENTED, d->slot | (unsigned)in->opc << 8, 0);
}

/* SWITCHES bits a form without a layout gives meaning to: its switch
 * table's.  The others are a later generation's switches:
 * ILLEGAL_INSTRUCTION, so that what prints keeps every bit the bundle
 * holds. */
static uint32_t legacy_sw_used(unsigned slot, const TpcInsn *in)
{
    uint32_t used = 0;
    for (const TpcSwDef *sw = tpc_sws_table(in->desc->sws); sw && sw->key; sw++)
        if (sw->field == TPC_SWF_SW && (!sw->slots || (sw->slots >> slot) & 1))
            used |= ((1u << sw->width) - 1) << sw->shift;
    return used;
}

/* ---- per-slot decoding ---- */

static bool dec_spu(Dec *d, TpcInsn *in)
{
    const uint8_t *b = d->b;
    unsigned fa = tpc_bits(b, TPC_B_SPU_SRC_A, 7);
    unsigned fb = tpc_bits(b, TPC_B_SPU_SRC_B, 7);
    unsigned fd = tpc_bits(b, TPC_B_SPU_DEST, 7);

    in->type = (uint8_t)tpc_bits(b, TPC_B_SPU_TYPE, 4);
    in->polarity = tpc_bits(b, TPC_B_SPU_POL, 1);
    in->pred = (uint8_t)tpc_bits(b, TPC_B_SPU_PRED, 4);
    in->pred_vp = false;
    in->sw = (uint8_t)tpc_bits(b, TPC_B_SPU_SW, 7);

    if (tpc_form_layout(in->desc->form))
        return dec_table_form(d, in, (const unsigned[5]){fd, fa, fb, 0, 0});
    if (in->desc->form == TPC_FORM_LOOP) /* the whole bundle: tpc_decode_bundle_all */
        return true;
    return no_decoder(d, in);
}


static bool dec_vpu(Dec *d, TpcInsn *in)
{
    const uint8_t *b = d->b;
    unsigned fa = tpc_bits(b, TPC_B_VPU_SRC_A, 8);
    unsigned fb = tpc_bits(b, TPC_B_VPU_SRC_B, 8);
    unsigned fc = tpc_bits(b, TPC_B_VPU_SRC_C, 8);
    unsigned fdd = tpc_bits(b, TPC_B_VPU_SRC_D, 9);
    unsigned fd = tpc_bits(b, TPC_B_VPU_DEST, 8);

    in->type = (uint8_t)tpc_bits(b, TPC_B_VPU_TYPE, 4);
    in->polarity = tpc_bits(b, TPC_B_VPU_POL, 1);
    in->pred = (uint8_t)tpc_bits(b, TPC_B_VPU_PRED, 4);
    in->pred_vp = tpc_bits(b, TPC_B_VPU_PRED + 4, 1);
    in->sw = (uint8_t)tpc_bits(b, TPC_B_VPU_SW, 3);

    if (tpc_form_layout(in->desc->form))
        return dec_table_form(d, in, (const unsigned[5]){fd, fa, fb, fc, fdd});
    return no_decoder(d, in);
}

static void ldst_pred(const uint8_t *b, TpcInsn *in)
{
    in->polarity = tpc_bits(b, TPC_B_LDST_POL, 1);
    in->pred = (uint8_t)tpc_bits(b, TPC_B_LDST_PRED, 4);
    in->pred_vp = tpc_bits(b, TPC_B_LDST_PRED + 4, 1);
}

static bool dec_ld(Dec *d, TpcInsn *in)
{
    const uint8_t *b = d->b;
    unsigned fa = tpc_bits(b, TPC_B_LD_SRC_A, 8);
    unsigned fb = tpc_bits(b, TPC_B_VPU_SRC_D, 9);
    unsigned fd = tpc_bits(b, TPC_B_LD_DEST, 8);

    ldst_pred(b, in);
    in->type = 0;
    in->sw = (uint8_t)tpc_bits(b, TPC_B_LD_SW, 4);

    /* every load-slot form is table-described */
    if (!tpc_form_layout(in->desc->form))
        return no_decoder(d, in);
    return dec_table_form(d, in, (const unsigned[5]){fd, fa, fb, 0, 0});
}

static bool dec_st(Dec *d, TpcInsn *in)
{
    const uint8_t *b = d->b;
    unsigned fa = tpc_bits(b, TPC_B_ST_SRC_A, 8);
    unsigned fb = tpc_bits(b, TPC_B_ST_SRC_B, 8);
    unsigned fc = tpc_bits(b, TPC_B_VPU_SRC_C, 8);

    ldst_pred(b, in);
    in->type = 0;
    in->sw = (uint8_t)tpc_bits(b, TPC_B_ST_SW, 4);
    /* every store-slot form is table-described */
    if (!tpc_form_layout(in->desc->form))
        return no_decoder(d, in);
    return dec_table_form(d, in, (const unsigned[5]){0, fa, fb, fc, 0});
}

static void dec_loop(const uint8_t *b, TpcBundle *out)
{
    TpcLoop *l = &out->loop;
    for (unsigned i = 0; i < 3; i++) {
        const TpcLoopOpd *o = &tpc_loop_opd[i];
        uint8_t reg = (uint8_t)tpc_bits(b, o->reg_lo, o->reg_w);
        bool sel = tpc_bits(b, o->sel, 1);
        uint32_t v = tpc_bits(b, o->imm_lo, 32);
        memcpy((char *)l + o->reg_off, &reg, sizeof(reg));
        memcpy((char *)l + o->sel_off, &sel, sizeof(sel));
        memcpy((char *)l + o->val_off, &v, sizeof(v));
    }
    l->once = tpc_bits(b, TPC_B_LOOP_ONCE, 1);
    l->polarity = tpc_bits(b, TPC_B_SPU_POL, 1);
    l->pred = (uint8_t)tpc_bits(b, TPC_B_SPU_PRED, 4);
    l->end_offset = (uint16_t)tpc_bits(b, TPC_B_LOOP_END, 16);
    l->cmp = (uint8_t)tpc_bits(b, TPC_B_LOOP_CMP, 3);
}

static bool loop_check(const TpcLoop *l, NxFault *f)
{
    unsigned s = TPC_SLOT_BUNDLE;
    for (unsigned i = 0; i < 3; i++) {
        const TpcLoopOpd *o = &tpc_loop_opd[i];
        uint8_t reg;
        bool sel;
        memcpy(&reg, (const char *)l + o->reg_off, sizeof(reg));
        memcpy(&sel, (const char *)l + o->sel_off, sizeof(sel));
        if (!sel && reg > 35)
            return nx_fault_set(f, TPC_FAULT_ILLEGAL_OPERAND,
                                s | (unsigned)o->field << 4 | (unsigned)reg << 8, 0);
    }
    if (l->cmp > TPC_CMP_NE)
        return nx_fault_set(f, TPC_FAULT_ILLEGAL_INSTRUCTION, s | TPC_OPC_LOOP << 8, 0);
    return true;
}

static bool dec_slot(const uint8_t *b, unsigned slot, TpcInsn *in, NxFault *f)
{
    static const uint8_t opc_pos[4] = {TPC_B_LD_OPC, TPC_B_SPU_OPC, TPC_B_VPU_OPC, TPC_B_ST_OPC};
    static const uint8_t opc_w[4] = {5, 6, 6, 5};
    Dec d = {b, slot, f};
    bool ok;

    memset(in, 0, sizeof(*in));
    in->opc = (uint8_t)tpc_bits(b, opc_pos[slot], opc_w[slot]);
    in->desc = tpc_insn_desc(slot, in->opc);
    if (!in->desc)
        return nx_fault_set(f, TPC_FAULT_ILLEGAL_OPCODE, slot | (unsigned)in->opc << 8, 0);
    switch (slot) {
    case TPC_SLOT_LD:
        ok = dec_ld(&d, in);
        break;
    case TPC_SLOT_SPU:
        ok = dec_spu(&d, in);
        break;
    case TPC_SLOT_VPU:
        ok = dec_vpu(&d, in);
        break;
    default:
        ok = dec_st(&d, in);
        break;
    }
    if (!ok)
        return false;
    if (in->desc->types && !tpc_sw_types_ok(in)) /* e.g. acc_fp32 on a .f32 MAC */
        return nx_fault_set(f, TPC_FAULT_ILLEGAL_INSTRUCTION, slot | (unsigned)in->opc << 8, 0);
    if (!tpc_form_layout(in->desc->form) && (in->sw & ~legacy_sw_used(slot, in)))
        return nx_fault_set(f, TPC_FAULT_ILLEGAL_INSTRUCTION, slot | (unsigned)in->opc << 8, 0);
    /* ash: the vendor's format forces SWITCHES bit 0 (st) to 1; a clear bit has
     * no spelling */
    if (in->desc->sws == TPC_SWS_ASH && !(in->sw & 1u))
        return nx_fault_set(f, TPC_FAULT_ILLEGAL_INSTRUCTION, slot | (unsigned)in->opc << 8, 0);
    /* untyped hand-coded SPU/VPU forms: OPERANDS_TYPE as the vendor writes it
     * (set_indx i32, the others 0), since nothing prints it */
    if (!tpc_form_layout(in->desc->form) && !in->desc->types &&
        (slot == TPC_SLOT_SPU || slot == TPC_SLOT_VPU) && in->type != 0)
        return bad_operand(&(Dec){b, slot, f}, TPC_FIELD_TYPE, in->type);
    if (in->desc->kind == TPC_KIND_UNIMPL)
        return nx_fault_set(f, TPC_FAULT_UNIMPLEMENTED, slot | (unsigned)in->opc << 8, 0);
    return true;
}

bool tpc_decode_bundle_all(const uint8_t b[TPC_BUNDLE_BYTES], TpcBundle *out, NxFault *f,
                           NxFault slot_fault[4])
{
    bool ok = true;
    NxFault dummy[4];

    if (!slot_fault)
        slot_fault = dummy;
    memset(slot_fault, 0, 4 * sizeof(NxFault));
    f->code = 0;
    out->imm = tpc_bits(b, TPC_B_IMM, 32);
    out->halt = false;
    out->is_loop = tpc_bits(b, TPC_B_SPU_OPC, 6) == TPC_OPC_LOOP;
    if (out->is_loop) {
        memset(out->slot, 0, sizeof(out->slot));
        out->slot[TPC_SLOT_SPU].opc = TPC_OPC_LOOP;
        out->slot[TPC_SLOT_SPU].desc = tpc_insn_desc(TPC_SLOT_SPU, TPC_OPC_LOOP);
        dec_loop(b, out);
        if (!loop_check(&out->loop, &slot_fault[TPC_SLOT_SPU])) {
            *f = slot_fault[TPC_SLOT_SPU];
            return false;
        }
        return true;
    }
    memset(&out->loop, 0, sizeof(out->loop));
    for (unsigned s = 0; s < 4; s++) {
        if (!dec_slot(b, s, &out->slot[s], &slot_fault[s])) {
            if (ok)
                *f = slot_fault[s];
            ok = false;
        }
    }
    out->halt =
        out->slot[TPC_SLOT_SPU].opc == TPC_OPC_HALT || out->slot[TPC_SLOT_VPU].opc == TPC_OPC_HALT;
    return ok;
}

bool tpc_decode_bundle(const uint8_t b[TPC_BUNDLE_BYTES], TpcBundle *out, NxFault *f)
{
    return tpc_decode_bundle_all(b, out, f, NULL);
}
