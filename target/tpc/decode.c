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

#define K(x)       (1u << TPC_OP_##x)
#define K_SIMM_ANY (K(IMM) | K(SIMM))
#define K_SSRC     (K(S) | K(SLFSR) | K_SIMM_ANY) /* scalar value source */
#define K_VSRC     (K(V) | K(VSPECIAL))           /* vector register source */

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
    for (unsigned i = 0; i < l->nops; i++) {
        const TpcOpSpec *s = &l->op[i];
        if (s->flags & TPC_OPF_BIMM) /* any 32-bit value of the bundle's IMM */
            continue;
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

/* A table-described form (fv[]: the slot's raw fields by TPC_FIELD_*).  A
 * form with variants: the first that applies to the row and the type and
 * whose destination kinds take DEST. */
static bool dec_table_form(Dec *d, TpcInsn *in, const unsigned fv[5])
{
    const TpcLayout *l;
    in->var = 0;
    if (!tpc_form_variant(in->desc->form, 1))
        return dec_layout(d, in, tpc_form_layout(in->desc->form), fv);
    if (!check_type(d, in))
        return false;
    for (unsigned i = 0; (l = tpc_form_variant(in->desc->form, i)); i++) {
        if (!tpc_variant_applies(l, in->desc, in->type, in->sw))
            continue;
        /* the variants of a form differ in their DEST kinds, or have none */
        const TpcOpSpec *dst = NULL;
        for (unsigned k = 0; k < l->nops && !dst; k++)
            if (l->op[k].field == TPC_FIELD_DEST)
                dst = &l->op[k];
        if (dst) {
            TpcOperand o;
            NxFault scratch;
            Dec peek = {d->b, d->slot, &scratch};
            if (!reg(&peek, &o, TPC_FIELD_DEST, fv[TPC_FIELD_DEST], dst->kinds))
                continue;
        }
        in->var = (uint8_t)i;
        return dec_layout(d, in, l, fv);
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

/* SWITCHES bits a hand-coded form gives meaning to: its switch table's, plus
 * the ones the form's code reads (int5 dim masks, ash's st, the hardware-
 * register bit of mov, the tensor forms' bits).  The others are a later
 * generation's switches: ILLEGAL_INSTRUCTION, so that what prints keeps every
 * bit the bundle holds. */
static uint32_t legacy_sw_used(unsigned slot, const TpcInsn *in)
{
    uint32_t used = 0;
    for (const TpcSwDef *sw = tpc_sws_table(in->desc->sws); sw && sw->key; sw++)
        if (sw->field == TPC_SWF_SW && (!sw->slots || (sw->slots >> slot) & 1))
            used |= ((1u << sw->width) - 1) << sw->shift;
    bool irf = in->dst.kind == TPC_OP_I;
    switch (in->desc->form) {
    case TPC_FORM_MOV:
        if (slot == TPC_SLOT_SPU && irf)
            used |= 0x7Cu;
        if (in->a.kind == TPC_OP_HWREG)
            used |= 1u;
        return used;
    default:
        return used;
    }
}

/* MOV with SWITCHES bit 0 (SPU, load slot): a hardware-register move, SRC_B
 * = {direction (bit 6, 1 = to the register), register id (bits 5:0)}.  Gaudi
 * has one: PC (id 0), readable only (the vendor's Gaudi disassembler table). */
static bool dec_mov_hwreg(Dec *d, TpcInsn *in, unsigned fd, unsigned fb)
{
    if ((fb & 0x7f) != 0)
        return bad_insn(d, in->opc);
    in->a.kind = TPC_OP_HWREG;
    in->a.num = 0;
    in->a.raw = (uint16_t)fb;
    return reg(d, &in->dst, TPC_FIELD_DEST, fd, K(S));
}

/* ---- per-slot decoding ---- */

static bool dec_spu(Dec *d, TpcInsn *in)
{
    const uint8_t *b = d->b;
    unsigned fa = tpc_bits(b, TPC_B_SPU_SRC_A, 7);
    unsigned fb = tpc_bits(b, TPC_B_SPU_SRC_B, 7);
    unsigned fd = tpc_bits(b, TPC_B_SPU_DEST, 7);
    bool is_b;

    in->type = (uint8_t)tpc_bits(b, TPC_B_SPU_TYPE, 4);
    in->polarity = tpc_bits(b, TPC_B_SPU_POL, 1);
    in->pred = (uint8_t)tpc_bits(b, TPC_B_SPU_PRED, 4);
    in->pred_vp = false;
    in->sw = (uint8_t)tpc_bits(b, TPC_B_SPU_SW, 7);
    is_b = in->type == TPC_T_B;

    if (tpc_form_layout(in->desc->form))
        return dec_table_form(d, in, (const unsigned[5]){fd, fa, fb, 0, 0});
    switch (in->desc->form) {
    case TPC_FORM_LOOP:
        return true;
    case TPC_FORM_MOV:
        if (in->sw & 1)
            return dec_mov_hwreg(d, in, fd, fb);
        if (!reg(d, &in->dst, TPC_FIELD_DEST, fd, K(S) | K(SP) | K(I)))
            return false;
        if (in->dst.kind == TPC_OP_S) {
            if (!check_type(d, in) || is_b)
                return bad_operand(d, TPC_FIELD_TYPE, in->type);
            return reg(d, &in->a, TPC_FIELD_SRC_A, fa, K_SSRC);
        }
        if (in->dst.kind == TPC_OP_SP)
            return reg(d, &in->a, TPC_FIELD_SRC_A, fa, K_SSRC | K(SP));
        if (in->type != TPC_T_I32) /* mov bM Id, ...: the vendor writes i32, and prints none */
            return bad_operand(d, TPC_FIELD_TYPE, in->type);
        return reg(d, &in->a, TPC_FIELD_SRC_A, fa, K(S) | K(I) | K_SIMM_ANY);
    default:
        return no_decoder(d, in);
    }
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
    switch (in->desc->form) {
    case TPC_FORM_MOV:
        if (in->sw & 1) /* hardware-register moves: Gaudi has none in the VPU */
            return bad_insn(d, in->opc);
        if (!reg(d, &in->dst, TPC_FIELD_DEST, fd, K(V) | K(VP)))
            return false;
        if (in->dst.kind == TPC_OP_V) {
            if (!check_type(d, in))
                return false;
            return reg(d, &in->a, TPC_FIELD_SRC_A, fa, K_VSRC | K_SSRC);
        }
        if (!reg(d, &in->a, TPC_FIELD_SRC_A, fa, K(VP) | K(SP) | K_SSRC))
            return false;
        if (in->a.kind != TPC_OP_VP && in->a.kind != TPC_OP_SP) {
            if (fb > 8)
                return bad_operand(d, TPC_FIELD_SRC_B, fb);
            /* the vendor's assembler writes u32 here whatever the suffix */
            if (in->type != TPC_T_U32)
                return bad_operand(d, TPC_FIELD_TYPE, in->type);
            raw(&in->b, fb);
        }
        return true;
    default:
        return no_decoder(d, in);
    }
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

    if (tpc_form_layout(in->desc->form))
        return dec_table_form(d, in, (const unsigned[5]){fd, fa, fb, 0, 0});
    switch (in->desc->form) {
    case TPC_FORM_MOV:
        if (in->sw & 1)
            return dec_mov_hwreg(d, in, fd, fb);
        raw(&in->b, fb);
        if (!reg(d, &in->dst, TPC_FIELD_DEST, fd, K(V) | K(VP) | K(S) | K(SP) | K(I)))
            return false;
        switch (in->dst.kind) {
        case TPC_OP_V:
            if (!reg(d, &in->a, TPC_FIELD_SRC_A, fa, K_VSRC | K_SSRC))
                return false;
            if (in->a.kind != TPC_OP_V && in->a.kind != TPC_OP_VSPECIAL) {
                in->type = (uint8_t)(fb >> 4);
                if (in->type >= TPC_T_COUNT)
                    return bad_operand(d, TPC_FIELD_SRC_B, fb);
            }
            return true;
        case TPC_OP_VP:
            if (!reg(d, &in->a, TPC_FIELD_SRC_A, fa, K(VP) | K(SP) | K_SSRC))
                return false;
            if (in->a.kind != TPC_OP_VP && in->a.kind != TPC_OP_SP && fb > 8)
                return bad_operand(d, TPC_FIELD_SRC_B, fb);
            return true;
        case TPC_OP_S:
            in->type = (uint8_t)(fb >> 4);
            if (in->type >= TPC_T_COUNT || in->type == TPC_T_B)
                return bad_operand(d, TPC_FIELD_SRC_B, fb);
            return reg(d, &in->a, TPC_FIELD_SRC_A, fa, K_SSRC);
        case TPC_OP_SP:
            return reg(d, &in->a, TPC_FIELD_SRC_A, fa, K_SSRC);
        default: /* I */
            return reg(d, &in->a, TPC_FIELD_SRC_A, fa, K(S) | K(I) | K_SIMM_ANY);
        }
    default:
        return no_decoder(d, in);
    }
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
    l->start_reg = (uint8_t)tpc_bits(b, TPC_B_LOOP_START, 7);
    l->boundary_reg = (uint8_t)tpc_bits(b, TPC_B_LOOP_BOUNDARY, 7);
    l->step_reg = (uint8_t)tpc_bits(b, TPC_B_LOOP_STEP, 6);
    l->start_imm = tpc_bits(b, TPC_B_LOOP_START_SEL, 1);
    l->boundary_imm = tpc_bits(b, TPC_B_LOOP_BOUNDARY_SEL, 1);
    l->step_imm = tpc_bits(b, TPC_B_LOOP_STEP_SEL, 1);
    l->once = tpc_bits(b, TPC_B_LOOP_ONCE, 1);
    l->polarity = tpc_bits(b, TPC_B_SPU_POL, 1);
    l->pred = (uint8_t)tpc_bits(b, TPC_B_SPU_PRED, 4);
    l->boundary = tpc_bits(b, TPC_B_LOOP_BOUNDARY_IMM, 32);
    l->step = tpc_bits(b, TPC_B_LOOP_STEP_IMM, 32);
    l->start = tpc_bits(b, TPC_B_IMM, 32);
    l->end_offset = (uint16_t)tpc_bits(b, TPC_B_LOOP_END, 16);
    l->cmp = (uint8_t)tpc_bits(b, TPC_B_LOOP_CMP, 3);
}

static bool loop_check(const TpcLoop *l, NxFault *f)
{
    unsigned s = TPC_SLOT_BUNDLE;
    if (!l->start_imm && l->start_reg > 35)
        return nx_fault_set(f, TPC_FAULT_ILLEGAL_OPERAND,
                            s | TPC_FIELD_SRC_A << 4 | (unsigned)l->start_reg << 8, 0);
    if (!l->boundary_imm && l->boundary_reg > 35)
        return nx_fault_set(f, TPC_FAULT_ILLEGAL_OPERAND,
                            s | TPC_FIELD_SRC_B << 4 | (unsigned)l->boundary_reg << 8, 0);
    if (!l->step_imm && l->step_reg > 35)
        return nx_fault_set(f, TPC_FAULT_ILLEGAL_OPERAND,
                            s | TPC_FIELD_DEST << 4 | (unsigned)l->step_reg << 8, 0);
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
