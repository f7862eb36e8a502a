/*
 * nxemu-isa-doc: writes the TPC ISA reference (docs/isa/tpc-<slot>.rst) from
 * the instruction tables themselves: the insn-<slot>.def rows (opcode,
 * form, types, switch set, execution kind), the operand layouts of
 * insn-forms.def, the switch tables and the summaries of insn-doc.def.
 * `make isa-doc` regenerates the pages; the test isa-doc-current fails when
 * the committed pages differ from what the tables say.
 *
 * usage: nxemu-isa-doc OUTDIR      (writes tpc-ld.rst ... tpc-st.rst)
 *        nxemu-isa-doc --check DIR (exit 1 if a page is missing or differs)
 */
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "target/tpc/asm.h"

static const struct {
    const char *name;
    const char *text;
} docs[] = {
#define TPC_DOC(n, t) {#n, t},
#include "target/tpc/insn-doc.def"
};

static const char *summary(const char *mnemonic)
{
    for (size_t i = 0; i < G_N_ELEMENTS(docs); i++)
        if (!strcmp(docs[i].name, mnemonic))
            return docs[i].text;
    return NULL;
}

/* Operand syntax of the hand-coded forms (the table-described ones are
 * printed from their layouts). */
static const char *const legacy_form[TPC_FORM_COUNT] = {
    [TPC_FORM_NOP] = "(none)",
    [TPC_FORM_HALT] = "(none; unconditional)",
    [TPC_FORM_LOOP] = "start, boundary, step, cmp, label[, 0x1][, pred] (tpc.md §4.4)",
    [TPC_FORM_BINARY] = "Dst, A, B",
    [TPC_FORM_UNARY] = "Dst, A",
    [TPC_FORM_MOV] = "Dst, Src (V, S, SP, VP, I forms; VPRF section k: mov k VPd, Src)",
    [TPC_FORM_CMP] = "SPd, Sa, Sb|imm",
    [TPC_FORM_CONVERT] = "target_type=T [rm] Dst, A",
    [TPC_FORM_PACK] = "source_group=G element_stride=2|4 [group_half=H] Vd, Va",
    [TPC_FORM_MOV_DG] = "mov_dg src= dst= wr_lg= wr_ug= Vd, Va, mask | mov_dg.all sdg0..3= weg0..3= Vd, Va, mask",
    [TPC_FORM_MOV_G] = "g_en=0bGG dg_en=0bQQQQ Vd, Va, mask",
    [TPC_FORM_JMP] = "label|Ss[, pred]",
    [TPC_FORM_SET_INDX] = "Id, bMMMMM, Ss|imm",
    [TPC_FORM_LD_TNSR] = "Vd|VPd, tensor|S27, Ic[, S30]",
    [TPC_FORM_ST_TNSR] = "tensor|S28, Ic, Vv|VPv[, S29][, S31]",
};

/* The operand line of a hand-coded form, with what depends on the slot and
 * the row's flags. */
static void legacy(GString *o, const TpcInsnDesc *d)
{
    bool spu = d->slot == TPC_SLOT_SPU, vpu = d->slot == TPC_SLOT_VPU;
    switch (d->form) {
    case TPC_FORM_BINARY:
    case TPC_FORM_UNARY: {
        bool bin = d->form == TPC_FORM_BINARY;
        if (spu)
            g_string_append(o, bin ? "Sd, Sa, Sb|imm (type b: SPd, SPa, SPb)"
                                   : "Sd, Sa (type b: SPd, SPa)");
        else
            g_string_append(o, bin ? "Vd (Dd for a pair result), Va, Vb|Sb|imm (type b: VPd, VPa, VPb)"
                                   : "Vd, Va (type b: VPd, VPa)");
        if (spu && (d->flags & TPC_F_INT5))
            g_string_append(o, bin ? "; index registers: bMMMMM Id, Ia|Sa|imm, Ib|Sb|imm"
                                   : "; index registers: bMMMMM Id, Ia|Sa");
        return;
    }
    case TPC_FORM_CONVERT:
        g_string_append(o, vpu ? "[lane_sel=N] [all_lanes|single_lane] target_type=T [rm] Vd|Dd, Va|Da"
                               : "target_type=T [rm] Sd, Sa");
        return;
    default:
        g_string_append(o, legacy_form[d->form] ? legacy_form[d->form] : "(see docs/tpc-isa.rst)");
        return;
    }
}

static const char *const slot_name[4] = {"load", "SPU", "VPU", "store"};
static const char *const slot_file[4] = {"tpc-ld.rst", "tpc-spu.rst", "tpc-vpu.rst", "tpc-st.rst"};
static const char *const field_name[TPC_FIELD_COUNT] = {"DEST", "SRC_A", "SRC_B", "SRC_C",
                                                        "SRC_D", "TYPE", "PRED", "SWITCHES"};
static const char *const swf_name[] = {"SWITCHES", "SRC_A", "SRC_B", "SRC_C", "SRC_D",
                                       "OPERANDS_TYPE"};

static void kinds(GString *o, unsigned k, unsigned group)
{
    static const char *const n[] = {
        [TPC_OP_RAW] = "number", [TPC_OP_V] = "V",   [TPC_OP_S] = "S",
        [TPC_OP_SP] = "SP",      [TPC_OP_VP] = "VP", [TPC_OP_I] = "I",
        [TPC_OP_AD] = "AD",      [TPC_OP_IMM] = "imm", [TPC_OP_VSPECIAL] = "LFSR/V_LANE_ID",
        [TPC_OP_SLFSR] = "S_LFSR",
    };
    unsigned c = 0;
    for (unsigned i = 0; i < G_N_ELEMENTS(n); i++) {
        if (!((k >> i) & 1) || !n[i] || i == TPC_OP_SIMM)
            continue;
        const char *s = n[i];
        if (group == 2 && i == TPC_OP_V)
            s = "D (V pair)";
        if (group == 2 && i == TPC_OP_S)
            s = "Z (S pair)";
        g_string_append_printf(o, "%s%s", c++ ? " | " : "", s);
    }
}

static void types(GString *o, unsigned tt)
{
    if (!tt) {
        g_string_append(o, "none (no type suffix)");
        return;
    }
    for (unsigned t = 0, c = 0; t < TPC_T_COUNT; t++)
        if ((tt >> t) & 1)
            g_string_append_printf(o, "%s.%s", c++ ? " " : "", tpc_type_suffix[t]);
}

static void switches(GString *o, const TpcInsnDesc *d)
{
    const TpcSwDef *t = tpc_sws_table(d->sws);
    bool any = false;
    for (; t && t->key; t++) {
        if (t->slots && !(t->slots & (1u << d->slot)))
            continue;
        g_string_append_printf(o, "%s``%s``", any ? "; " : "", t->key);
        any = true;
        if (t->alias)
            g_string_append_printf(o, " (also ``%s``)", t->alias);
        g_string_append_printf(o, " %s", swf_name[t->field]);
        if (t->width == 1)
            g_string_append_printf(o, " bit %u", t->shift);
        else
            g_string_append_printf(o, " bits %u..%u", t->shift, t->shift + t->width - 1);
        if (t->values) {
            g_string_append(o, ":");
            for (const TpcSwVal *v = t->values; v->name; v++)
                g_string_append_printf(o, " %s=%u", v->name, v->value);
        } else if (t->int_values) {
            g_string_append(o, ": a number");
        }
        if (t->dflt)
            g_string_append_printf(o, ", default %u", t->dflt);
    }
    if (!any)
        g_string_append(o, "none");
}

static bool page(unsigned slot, GString *o)
{
    bool ok = true;
    const char *title = slot_name[slot];
    g_string_append_printf(o,
                           ".. Generated by tools/nxemu-isa-doc from the instruction tables "
                           "(target/tpc/insn-*.def); do not edit: run `make isa-doc`.\n\n");
    GString *h = g_string_new(NULL);
    g_string_printf(h, "TPC %s slot", title);
    g_string_append_printf(o, "%s\n", h->str);
    for (size_t i = 0; i < h->len; i++)
        g_string_append_c(o, '=');
    g_string_append(o, "\n\n");
    g_string_free(h, TRUE);
    g_string_append_printf(o,
                           "Opcodes of the %s slot on Gaudi, in opcode order.  Opcodes not listed "
                           "fault ILLEGAL_OPCODE; the fields are those of docs/tpc-isa.rst.\n\n",
                           title);
    unsigned n = slot == TPC_SLOT_LD || slot == TPC_SLOT_ST ? 32 : 64;
    for (unsigned opc = 0; opc < n; opc++) {
        const TpcInsnDesc *d = tpc_insn_desc(slot, opc);
        if (!d)
            continue;
        const char *sum = summary(d->mnemonic);
        if (!sum) {
            fprintf(stderr, "nxemu-isa-doc: %s %s has no summary in target/tpc/insn-doc.def\n",
                    title, d->mnemonic);
            ok = false;
        }
        g_string_append_printf(o, "``%s`` (0x%02x)\n", d->mnemonic, opc);
        g_string_append_printf(o, "   %s.\n\n", sum ? sum : "?");
        g_string_append_printf(o, "   - status: %s\n",
                               d->kind == TPC_KIND_NOP      ? "executes as no operation"
                               : d->kind == TPC_KIND_UNIMPL ? "decoded and printed; UNIMPLEMENTED"
                                                            : "executes");
        g_string_append(o, "   - types: ");
        types(o, d->types);
        g_string_append(o, "\n   - operands: ");
        const TpcLayout *l = tpc_form_layout(d->form);
        if (l) {
            for (unsigned i = 0; i < l->nops; i++) {
                const TpcOpSpec *s = &l->op[i];
                g_string_append_printf(o, "%s", i ? ", " : "");
                kinds(o, s->kinds, s->group);
                if (s->kinds == TPC_K(RAW) && s->width)
                    g_string_append_printf(o, " in %s bits %u..%u", field_name[s->field],
                                           s->shift, s->shift + s->width - 1);
                else
                    g_string_append_printf(o, " in %s", field_name[s->field]);
            }
            g_string_append(o, "; predicate last (table-described form)");
        } else {
            legacy(o, d);
        }
        g_string_append(o, "\n   - switches: ");
        switches(o, d);
        g_string_append(o, "\n\n");
    }
    return ok;
}

int main(int argc, char **argv)
{
    bool check = argc == 3 && !strcmp(argv[1], "--check");
    if (argc != 2 && !check) {
        fprintf(stderr, "usage: nxemu-isa-doc OUTDIR | --check DIR\n");
        return 2;
    }
    const char *dir = argv[argc - 1];
    int rc = 0;
    for (unsigned s = 0; s < 4; s++) {
        GString *o = g_string_new(NULL);
        if (!page(s, o))
            rc = 1;
        char *path = g_build_filename(dir, slot_file[s], NULL);
        if (check) {
            char *old = NULL;
            gsize len = 0;
            if (!g_file_get_contents(path, &old, &len, NULL) || len != o->len ||
                memcmp(old, o->str, len)) {
                fprintf(stderr,
                        "nxemu-isa-doc: %s is not what the tables say; run `make isa-doc`\n",
                        path);
                rc = 1;
            }
            g_free(old);
        } else {
            GError *e = NULL;
            if (!g_file_set_contents(path, o->str, (gssize)o->len, &e)) {
                fprintf(stderr, "nxemu-isa-doc: %s\n", e->message);
                g_error_free(e);
                rc = 1;
            }
        }
        g_free(path);
        g_string_free(o, TRUE);
    }
    return rc;
}
