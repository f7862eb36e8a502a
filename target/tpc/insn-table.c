/*
 * The TPC instruction description as data: the per-slot descriptor tables
 * built from insn-<slot>.def, the table-described operand forms of
 * insn-forms.def, and the bundle position of every slot field (tpc.md §4.1).
 * Decoder, disassembler, assembler, coverage and the ISA reference
 * (scripts/tpc-isa-doc.py) all read these.
 */
#include "target/tpc/insn.h"

/* ---- descriptor tables, one per slot, from the .def rows ---- */

#define ROW(slot, opc, name, form, types, sws, flags, kind)                                        \
    [opc] = {#name, slot, opc, TPC_FORM_##form, TPC_SWS_##sws, TPC_TT_##types, flags, kind},

static const TpcInsnDesc ld_desc[32] = {
#define TPC_LD(o, n, fm, t, s, fl)   ROW(TPC_SLOT_LD, o, n, fm, t, s, fl, TPC_KIND_EXEC)
#define TPC_LD_N(o, n, fm, t, s, fl) ROW(TPC_SLOT_LD, o, n, fm, t, s, fl, TPC_KIND_NOP)
#define TPC_LD_U(o, n, fm, t, s, fl) ROW(TPC_SLOT_LD, o, n, fm, t, s, fl, TPC_KIND_UNIMPL)
#include "target/tpc/insn-ld.def"
};

static const TpcInsnDesc spu_desc[64] = {
#define TPC_SPU(o, n, fm, t, s, fl)   ROW(TPC_SLOT_SPU, o, n, fm, t, s, fl, TPC_KIND_EXEC)
#define TPC_SPU_N(o, n, fm, t, s, fl) ROW(TPC_SLOT_SPU, o, n, fm, t, s, fl, TPC_KIND_NOP)
#define TPC_SPU_U(o, n, fm, t, s, fl) ROW(TPC_SLOT_SPU, o, n, fm, t, s, fl, TPC_KIND_UNIMPL)
#include "target/tpc/insn-spu.def"
};

static const TpcInsnDesc vpu_desc[64] = {
#define TPC_VPU(o, n, fm, t, s, fl)   ROW(TPC_SLOT_VPU, o, n, fm, t, s, fl, TPC_KIND_EXEC)
#define TPC_VPU_N(o, n, fm, t, s, fl) ROW(TPC_SLOT_VPU, o, n, fm, t, s, fl, TPC_KIND_NOP)
#define TPC_VPU_U(o, n, fm, t, s, fl) ROW(TPC_SLOT_VPU, o, n, fm, t, s, fl, TPC_KIND_UNIMPL)
#include "target/tpc/insn-vpu.def"
};

static const TpcInsnDesc st_desc[32] = {
#define TPC_ST(o, n, fm, t, s, fl)   ROW(TPC_SLOT_ST, o, n, fm, t, s, fl, TPC_KIND_EXEC)
#define TPC_ST_N(o, n, fm, t, s, fl) ROW(TPC_SLOT_ST, o, n, fm, t, s, fl, TPC_KIND_NOP)
#define TPC_ST_U(o, n, fm, t, s, fl) ROW(TPC_SLOT_ST, o, n, fm, t, s, fl, TPC_KIND_UNIMPL)
#include "target/tpc/insn-st.def"
};

#undef ROW

const TpcInsnDesc *tpc_insn_desc(unsigned slot, unsigned opc)
{
    const TpcInsnDesc *d = NULL;
    switch (slot) {
    case TPC_SLOT_LD:
        d = opc < 32 ? &ld_desc[opc] : NULL;
        break;
    case TPC_SLOT_SPU:
        d = opc < 64 ? &spu_desc[opc] : NULL;
        break;
    case TPC_SLOT_VPU:
        d = opc < 64 ? &vpu_desc[opc] : NULL;
        break;
    case TPC_SLOT_ST:
        d = opc < 32 ? &st_desc[opc] : NULL;
        break;
    default:
        break;
    }
    return d && d->mnemonic ? d : NULL;
}

/* ---- table-described forms ---- */

/* a single layout applies always: no variant condition, all switch bits */
#define TPC_LAYOUT(name, flags, ...)                                                               \
    [TPC_FORM_##name] = {(flags) | TPC_LF_DEFINED,                                                \
                         (uint8_t)(sizeof((TpcOpSpec[]){__VA_ARGS__}) / sizeof(TpcOpSpec)),        \
                         {__VA_ARGS__}, 0, 0, 0},
#define TPC_LAYOUT0(name, flags) [TPC_FORM_##name] = {(flags) | TPC_LF_DEFINED, 0, {{0}}, 0, 0, 0},
static const TpcLayout layouts[TPC_FORM_COUNT] = {
#include "target/tpc/insn-forms.def"
};

/* The TPC_VARIANT rows, in table order. */
#define TPC_VARIANT(name, flags_, cond_, need_, swmask_, ...)                                      \
    {TPC_FORM_##name,                                                                              \
     {(flags_) | TPC_LF_DEFINED, (uint8_t)(sizeof((TpcOpSpec[]){__VA_ARGS__}) / sizeof(TpcOpSpec)), \
      {__VA_ARGS__}, (cond_), (need_), (swmask_)}},
static const struct {
    uint8_t form;
    TpcLayout l;
} variants[] = {
#include "target/tpc/insn-forms.def"
};

const TpcLayout *tpc_form_variant(unsigned form, unsigned i)
{
    if (form >= TPC_FORM_COUNT)
        return NULL;
    if (layouts[form].flags & TPC_LF_DEFINED)
        return i == 0 ? &layouts[form] : NULL;
    for (size_t k = 0; k < sizeof(variants) / sizeof(variants[0]); k++)
        if (variants[k].form == form && i-- == 0)
            return &variants[k].l;
    return NULL;
}

const TpcLayout *tpc_form_layout(unsigned form)
{
    return tpc_form_variant(form, 0);
}

bool tpc_variant_applies(const TpcLayout *l, const TpcInsnDesc *d, int type, int sw)
{
    if (sw >= 0 &&
        (((l->cond & TPC_VC_SW0) && !(sw & 1)) || ((l->cond & TPC_VC_NOT_SW0) && (sw & 1))))
        return false;
    if (((l->cond & TPC_VC_SPU) && d->slot != TPC_SLOT_SPU) ||
        ((l->cond & TPC_VC_VPU) && d->slot != TPC_SLOT_VPU) ||
        ((l->cond & TPC_VC_LD) && d->slot != TPC_SLOT_LD) ||
        ((l->cond & TPC_VC_ST) && d->slot != TPC_SLOT_ST) ||
        ((l->cond & TPC_VC_NOT_VPU) && d->slot == TPC_SLOT_VPU) || (l->need & ~d->flags))
        return false;
    if (type < 0)
        return true;
    return !(((l->cond & TPC_VC_B) && type != TPC_T_B) ||
             ((l->cond & TPC_VC_NOT_B) && type == TPC_T_B) ||
             ((l->cond & TPC_VC_I32) && type != TPC_T_I32));
}

/* ---- LOOP's operands (tpc.md §4.4) ---- */

#define LOOP_OPD(name, NAME, w, imm, field)                                                        \
    {                                                                                              \
#name, TPC_B_LOOP_##NAME, w, TPC_B_LOOP_##NAME##_SEL, imm, TPC_FIELD_##field,              \
            offsetof(TpcLoop, name##_reg), offsetof(TpcLoop, name##_imm), offsetof(TpcLoop, name)  \
    }
const TpcLoopOpd tpc_loop_opd[3] = {
    LOOP_OPD(start, START, 7, TPC_B_IMM, SRC_A),
    LOOP_OPD(boundary, BOUNDARY, 7, TPC_B_LOOP_BOUNDARY_IMM, SRC_B),
    LOOP_OPD(step, STEP, 6, TPC_B_LOOP_STEP_IMM, DEST),
};
#undef LOOP_OPD

/* ---- field positions (tpc.md §4.1) ---- */

#define FP(lo, w) {lo, w}
const TpcFieldPos tpc_field_pos[4][TPC_FPOS_COUNT] = {
    [TPC_SLOT_LD] =
        {
            [TPC_FIELD_DEST] = FP(TPC_B_LD_DEST, 8),
            [TPC_FIELD_SRC_A] = FP(TPC_B_LD_SRC_A, 8),
            [TPC_FIELD_SRC_B] = FP(TPC_B_VPU_SRC_D, 9), /* shared with VPU SRC_D */
            [TPC_FPOS_OPC] = FP(TPC_B_LD_OPC, 5),
            [TPC_FIELD_SW] = FP(TPC_B_LD_SW, 4),
        },
    [TPC_SLOT_SPU] =
        {
            [TPC_FIELD_DEST] = FP(TPC_B_SPU_DEST, 7),
            [TPC_FIELD_SRC_A] = FP(TPC_B_SPU_SRC_A, 7),
            [TPC_FIELD_SRC_B] = FP(TPC_B_SPU_SRC_B, 7),
            [TPC_FPOS_OPC] = FP(TPC_B_SPU_OPC, 6),
            [TPC_FIELD_SW] = FP(TPC_B_SPU_SW, 7),
            [TPC_FIELD_TYPE] = FP(TPC_B_SPU_TYPE, 4),
        },
    [TPC_SLOT_VPU] =
        {
            [TPC_FIELD_DEST] = FP(TPC_B_VPU_DEST, 8),
            [TPC_FIELD_SRC_A] = FP(TPC_B_VPU_SRC_A, 8),
            [TPC_FIELD_SRC_B] = FP(TPC_B_VPU_SRC_B, 8),
            [TPC_FIELD_SRC_C] = FP(TPC_B_VPU_SRC_C, 8),
            [TPC_FIELD_SRC_D] = FP(TPC_B_VPU_SRC_D, 9),
            [TPC_FPOS_OPC] = FP(TPC_B_VPU_OPC, 6),
            [TPC_FIELD_SW] = FP(TPC_B_VPU_SW, 3),
            [TPC_FIELD_TYPE] = FP(TPC_B_VPU_TYPE, 4),
        },
    [TPC_SLOT_ST] =
        {
            [TPC_FIELD_SRC_A] = FP(TPC_B_ST_SRC_A, 8),
            [TPC_FIELD_SRC_B] = FP(TPC_B_ST_SRC_B, 8),
            [TPC_FIELD_SRC_C] = FP(TPC_B_VPU_SRC_C, 8), /* shared with VPU SRC_C */
            [TPC_FPOS_OPC] = FP(TPC_B_ST_OPC, 5),
            [TPC_FIELD_SW] = FP(TPC_B_ST_SW, 4),
        },
};

/* ---- rules several consumers share (insn.h) ---- */

bool tpc_vpu_pair_dest(unsigned opc, unsigned t, unsigned sw)
{
    const TpcInsnDesc *d = tpc_insn_desc(TPC_SLOT_VPU, opc);
    unsigned f = d ? d->flags : 0;
    bool wide16 = (t == TPC_T_BF16 && (sw & 4)) || t == TPC_T_I16 || t == TPC_T_U16;
    bool wide32 = (t == TPC_T_I32 || t == TPC_T_U32) && !(sw & 2);
    return ((f & TPC_F_PAIR16) && wide16) || ((f & TPC_F_PAIR32) && wide32);
}

bool tpc_convert_pair_dest(unsigned st, unsigned b)
{
    return st == TPC_T_BF16 && (b & 15u) == TPC_T_F32;
}

bool tpc_convert_pair_src(unsigned st, unsigned b)
{
    return st == TPC_T_F32 && (b & 15u) == TPC_T_BF16 && !(b & 0x40u);
}

bool tpc_opd_pair(const TpcInsnDesc *d, unsigned flags, unsigned t, unsigned sw, unsigned b)
{
    if (d->flags & TPC_F_CVT_PAIR)
        return (flags & TPC_OPF_VPAIR)   ? tpc_convert_pair_dest(t, b)
               : (flags & TPC_OPF_SPAIR) ? tpc_convert_pair_src(t, b)
                                         : false;
    return (flags & TPC_OPF_VPAIR) && d->slot == TPC_SLOT_VPU && tpc_vpu_pair_dest(d->opc, t, sw);
}

bool tpc_opd_src_pair_spelling(const TpcInsnDesc *d, unsigned t, unsigned b)
{
    return (d->flags & TPC_F_CVT_PAIR) && tpc_convert_pair_src(t, b & ~0x40u);
}

int tpc_sw_default(const TpcSwDef *sw, unsigned type, unsigned b)
{
    if (sw->print != TPC_SWP_LANES)
        return sw->dflt;
    if (tpc_convert_pair_dest(type, b))
        return -1;
    return type == TPC_T_F32 && (b & 15u) == TPC_T_BF16;
}

bool tpc_sw_types_ok(const TpcInsn *in)
{
    uint32_t typed = 0, ok = 0; /* SWITCHES bits described by typed switches / valid */
    for (const TpcSwDef *sw = tpc_sws_table(in->desc->sws); sw && sw->key; sw++) {
        if (!sw->types || sw->field != TPC_SWF_SW ||
            (sw->slots && !(sw->slots & (1u << in->desc->slot))))
            continue;
        uint32_t m = ((1u << sw->width) - 1) << sw->shift;
        typed |= m;
        if (in->type < TPC_T_COUNT && (sw->types >> in->type) & 1)
            ok |= m;
    }
    return !(in->sw & typed & ~ok);
}

static bool is_reg_kind(unsigned k)
{
    return k == TPC_OP_S || k == TPC_OP_SP || k == TPC_OP_V || k == TPC_OP_VP || k == TPC_OP_I ||
           k == TPC_OP_AD;
}

unsigned tpc_insn_reads(const TpcInsn *in, unsigned slot, TpcRegRead out[TPC_MAX_READS])
{
    unsigned n = 0;
    const TpcInsnDesc *d = in->desc;
    if (!d)
        return 0;
    /* SP0 / VP0 read as constant 1 */
    if (!(d->flags & TPC_F_NOPRED) && in->pred != 0)
        out[n++] = (TpcRegRead){TPC_FIELD_PRED, in->pred_vp ? TPC_OP_VP : TPC_OP_SP, in->pred, 1};
    /* the store slot names its IRF/ADRF destination in SRC_C */
    const TpcLayout *l = tpc_form_variant(d->form, in->var);
    bool c_is_dest = l && (l->flags & TPC_LF_C_DEST);
    const TpcOperand *src[4] = {&in->a, &in->b, c_is_dest ? NULL : &in->c, &in->d};
    static const uint8_t field[4] = {TPC_FIELD_SRC_A, TPC_FIELD_SRC_B, TPC_FIELD_SRC_C,
                                     TPC_FIELD_SRC_D};
    for (unsigned i = 0; i < 4; i++) {
        if (!src[i] || !is_reg_kind(src[i]->kind))
            continue;
        /* f32 -> bf16 CONVERT of all lanes reads a source pair (tpc.md §1.2) */
        bool pair =
            i == 0 && (d->flags & TPC_F_CVT_PAIR) && tpc_convert_pair_src(in->type, in->b.raw);
        out[n++] = (TpcRegRead){field[i], src[i]->kind, src[i]->num, pair ? 2 : 1};
    }
    /* accumulators (TPC_F_ACC): MAC adds to its destination, udiv_4step
     * steps its pair (a TPC_OPD2 destination) */
    if ((d->flags & TPC_F_ACC) && is_reg_kind(in->dst.kind)) {
        bool pair = slot == TPC_SLOT_VPU && tpc_vpu_pair_dest(in->opc, in->type, in->sw);
        for (unsigned i = 0; l && i < l->nops; i++)
            pair |= l->op[i].field == TPC_FIELD_DEST && l->op[i].group == 2;
        out[n++] = (TpcRegRead){TPC_FIELD_DEST, in->dst.kind, in->dst.num, pair ? 2 : 1};
    }
    return n;
}
