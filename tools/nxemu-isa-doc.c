/*
 * nxemu-isa-doc: writes the ISA references of docs/isa/ from the instruction
 * tables themselves.
 *
 * TPC (tpc-<slot>.rst): the insn-<slot>.def rows (opcode, form, types,
 * switch set, execution kind), the operand layouts of insn-forms.def, the
 * switch tables and the summaries of target/tpc/insn-doc.def.
 *
 * Sequencer (seq.rst): the SEQ_INSN/SEQ_PSEUDO rows of target/seq/insn.def
 * (opcode, name, mnemonic, reserved bytes, ordered predicates), its
 * SEQ_ALU_OP and SEQ_DTYPE rows, the record layouts of target/seq/fields.def,
 * the predicate ids of predicates.def, and the syntax and summaries of
 * target/seq/insn-doc.def.
 *
 * Every table row needs its line in the insn-doc.def of its core (and every
 * line there a row), else the generator reports it and fails.  `make
 * isa-doc` regenerates the pages; the test isa-doc-current fails when the
 * committed pages differ from what the tables say.
 *
 * usage: nxemu-isa-doc OUTDIR      (writes tpc-ld.rst ... tpc-st.rst, seq.rst)
 *        nxemu-isa-doc --check DIR (exit 1 if a page is missing or differs)
 */
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "target/seq/insn.h"
#include "target/tpc/asm.h"

static const struct {
    const char *name;
    const char *text;
} docs[] = {
#define TPC_DOC(n, t) {#n, t},
#include "target/tpc/insn-doc.def"
};

/* Prose from the .def files into reStructuredText: "|a|" would be a
 * substitution reference, so '|' is escaped. */
static void rst_text(GString *o, const char *s)
{
    for (; *s; s++) {
        if (*s == '|')
            g_string_append_c(o, '\\');
        g_string_append_c(o, *s);
    }
}

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
    /* (one literal in parentheses: clang's -Wstring-concatenation) */
    [TPC_FORM_LOOP] = ("start, boundary, step, cmp, label[, 0x1][, pred] "
                       "(docs/user-manual.rst, TPC assembler syntax)"),
};

/* The operand line of a hand-coded form. */
static void legacy(GString *o, const TpcInsnDesc *d)
{
    g_string_append(o, legacy_form[d->form] ? legacy_form[d->form] : "(see docs/tpc-isa.rst)");
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
        [TPC_OP_RAW] = "number",   [TPC_OP_V] = "V",      [TPC_OP_S] = "S",
        [TPC_OP_SP] = "SP",        [TPC_OP_VP] = "VP",    [TPC_OP_I] = "I",
        [TPC_OP_AD] = "AD",        [TPC_OP_IMM] = "imm",  [TPC_OP_VSPECIAL] = "LFSR/V_LANE_ID",
        [TPC_OP_SLFSR] = "S_LFSR", [TPC_OP_HWREG] = "PC",
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

/* When a variant chosen by its source kinds (TPC_LF_BY_SRC) applies: its
 * switch bit and type rule, in parentheses. */
static void variant_when(GString *o, const TpcLayout *l, const TpcInsnDesc *d)
{
    const char *t = tpc_type_suffix[tpc_layout_type(l)];
    bool has_type = d->slot == TPC_SLOT_SPU || d->slot == TPC_SLOT_VPU;
    GString *w = g_string_new(NULL);
    if (l->cond & TPC_VC_SW0)
        g_string_append(w, ", SWITCHES bit 0 set");
    if ((l->cond & TPC_VC_I32) || (l->need & TPC_F_INT5))
        g_string_append(w, ", int5");
    if (l->cond & TPC_VC_NOT_B)
        g_string_append(w, ", any type but b");
    if ((l->flags & TPC_LF_T_NONE) || ((l->flags & TPC_LF_T_FIXED) && !has_type))
        g_string_append(w, ", no type");
    else if (l->flags & TPC_LF_T_FIXED)
        g_string_append_printf(w, ", type %s whatever the suffix", t);
    else if (l->flags & TPC_LF_T_DEFAULT)
        g_string_append_printf(w, ", type %s unless another is written", t);
    if (w->len)
        g_string_append_printf(o, "(%s) ", w->str + 2);
    g_string_free(w, TRUE);
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
        g_string_append(o, "   ");
        rst_text(o, sum ? sum : "?");
        g_string_append(o, ".\n\n");
        g_string_append_printf(o, "   - status: %s\n",
                               d->kind == TPC_KIND_NOP      ? "executes as no operation"
                               : d->kind == TPC_KIND_UNIMPL ? "decoded and printed; UNIMPLEMENTED"
                                                            : "executes");
        g_string_append(o, "   - types: ");
        types(o, d->types);
        g_string_append(o, "\n   - operands: ");
        const TpcLayout *l;
        if (tpc_form_layout(d->form)) {
            unsigned several = 0;
            for (unsigned v = 0; (l = tpc_form_variant(d->form, v)); v++)
                several += tpc_variant_applies(l, d, -1, -1);
            unsigned n = 0;
            for (unsigned v = 0; (l = tpc_form_variant(d->form, v)); v++) {
                if (!tpc_variant_applies(l, d, -1, -1))
                    continue;
                g_string_append(o, n++ ? "; or " : "");
                if (several > 1 && (l->flags & TPC_LF_BY_SRC))
                    variant_when(o, l, d);
                else if (several > 1)
                    g_string_append(o, l->cond & TPC_VC_B         ? "(type b) "
                                       : l->cond & TPC_VC_I32     ? "(int5, type i32) "
                                       : l->cond & TPC_VC_SW0     ? "(SWITCHES bit 0 set) "
                                       : l->cond & TPC_VC_NOT_SW0 ? "(SWITCHES bit 0 clear) "
                                                                  : "(other types) ");
                for (unsigned i = 0; i < l->nops; i++) {
                    const TpcOpSpec *s = &l->op[i];
                    if ((s->flags & TPC_OPF_FULL_ONLY) && tpc_insn_half(d))
                        continue; /* (no partial _low/_high access on Gaudi) */
                    g_string_append_printf(o, "%s", i ? ", " : "");
                    if (s->flags & TPC_OPF_BIMM) {
                        g_string_append(o, "number in the bundle's IMM");
                        continue;
                    }
                    if (s->flags & TPC_OPF_COPY) {
                        g_string_append_printf(o, "DEST again in %s", field_name[s->field]);
                        continue;
                    }
                    if (s->flags & TPC_OPF_TYPE) {
                        g_string_append_printf(o, "the type suffix in %s bits %u..%u",
                                               field_name[s->field], s->shift,
                                               s->shift + s->width - 1);
                        continue;
                    }
                    if (s->flags & TPC_OPF_SWREG) {
                        g_string_append_printf(
                            o, "optionally S%u (SWITCHES bit %u%s)", s->sreg, s->swbit,
                            (s->flags & TPC_OPF_NOT_VP) ? ", not with a VP value" : "");
                        continue;
                    }
                    if ((s->flags & TPC_OPF_TNSR) && s->sreg) {
                        g_string_append_printf(o,
                                               "tensor 0..%u in %s, or S%u (SWITCHES bit %u, "
                                               "%s = %u)",
                                               s->max, field_name[s->field], s->sreg, s->swbit,
                                               field_name[s->field], s->sregval);
                        continue;
                    }
                    if (s->flags & TPC_OPF_DIMMASK) {
                        g_string_append_printf(o, "dim mask bMMMMM in %s bits %u..%u",
                                               field_name[s->field], s->shift,
                                               s->shift + s->width - 1);
                        continue;
                    }
                    if (s->flags & TPC_OPF_TARGET)
                        g_string_append(o,
                                        (d->flags & TPC_F_PCREL)
                                            ? "target (a label, or an offset from this bundle) or "
                                            : "target (a label or an address) or ");
                    kinds(o, s->kinds, s->group);
                    if (s->flags & TPC_OPF_VPAIR)
                        g_string_append(o, " (D, a pair, for a wide result)");
                    if (s->flags & TPC_OPF_SPAIR)
                        g_string_append(o, " (V(n) and V(n+1), written Vn or Dn, for a pair "
                                           "source)");
                    if (s->kinds == TPC_K(RAW) && s->width)
                        g_string_append_printf(o, " in %s bits %u..%u", field_name[s->field],
                                               s->shift, s->shift + s->width - 1);
                    else
                        g_string_append_printf(o, " in %s", field_name[s->field]);
                }
            }
            l = tpc_form_layout(d->form);
            if (l->flags & TPC_LF_BARE)
                g_string_append(o, d->flags & TPC_F_NOPRED ? "none, no predicate (unconditional)"
                                                           : "none, no predicate");
            else
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

/* ---- the sequencer page (docs/isa/seq.rst) ------------------------------ */

static const struct {
    const char *name, *syntax, *text;
} seq_docs[] = {
#define SEQ_DOC(n, s, t) {#n, s, t},
#include "target/seq/insn-doc.def"
};

static const struct {
    const char *name, *text;
} seq_alu_docs[] = {
#define SEQ_ALU_DOC(n, t) {#n, t},
#include "target/seq/insn-doc.def"
};

static const struct {
    const char *name, *text;
} seq_pred_docs[] = {
#define SEQ_PRED_DOC(n, t) {#n, t},
#include "target/seq/insn-doc.def"
};

static const struct {
    unsigned code;
    const char *name, *mnemonic;
    bool unary, fp32;
} seq_alu_rows[] = {
#define SEQ_ALU_OP(c, n, m, u, f) {c, #n, m, u, f},
#include "target/seq/insn.def"
};

static const struct {
    unsigned code;
    const char *name, *suffix;
    unsigned size;
} seq_dtype_rows[] = {
#define SEQ_DTYPE(c, n, a, sz) {c, #n, a, sz},
#include "target/seq/insn.def"
};

static const struct {
    unsigned id;
    const char *name;
} seq_pred_rows[] = {
#define SEQ_PRED(i, n) {i, #n},
#include "target/seq/predicates.def"
#undef SEQ_PRED
};

/* The common header + events prefix of insn.def (SEQ_PRE). */
static const uint16_t seq_prefix[] = {SEQ_PRE};

static int seq_doc_index(const char *name)
{
    for (size_t i = 0; i < G_N_ELEMENTS(seq_docs); i++)
        if (!strcmp(seq_docs[i].name, name))
            return (int)i;
    return -1;
}

static const char *seq_alu_doc(const char *name)
{
    for (size_t i = 0; i < G_N_ELEMENTS(seq_alu_docs); i++)
        if (!strcmp(seq_alu_docs[i].name, name))
            return seq_alu_docs[i].text;
    return NULL;
}

static const char *seq_pred_doc(const char *name)
{
    for (size_t i = 0; i < G_N_ELEMENTS(seq_pred_docs); i++)
        if (!strcmp(seq_pred_docs[i].name, name))
            return seq_pred_docs[i].text;
    return NULL;
}

static bool seq_has_prefix(const SeqInsnDesc *d)
{
    if (d->nr_preds < G_N_ELEMENTS(seq_prefix))
        return false;
    for (size_t i = 0; i < G_N_ELEMENTS(seq_prefix); i++)
        if (d->preds[i] != seq_prefix[i])
            return false;
    return true;
}

/* "12..31, 44..63" from a reserved-byte mask. */
static void seq_reserved(GString *o, uint64_t m)
{
    unsigned n = 0;
    if (!m) {
        g_string_append(o, "none");
        return;
    }
    for (unsigned i = 0; i < 64;) {
        if (!(m >> i & 1)) {
            i++;
            continue;
        }
        unsigned j = i;
        while (j + 1 < 64 && (m >> (j + 1) & 1))
            j++;
        g_string_append_printf(o, "%s%u", n++ ? ", " : "", i);
        if (j > i)
            g_string_append_printf(o, "..%u", j);
        i = j + 1;
    }
}

static void seq_preds(GString *o, const SeqInsnDesc *d)
{
    size_t first = 0;
    if (seq_has_prefix(d)) {
        g_string_append_printf(o, "header and events (%u..%u)", SEQ_PRED_ID(seq_prefix[0]),
                               SEQ_PRED_ID(seq_prefix[G_N_ELEMENTS(seq_prefix) - 1]));
        first = G_N_ELEMENTS(seq_prefix);
    }
    for (size_t i = first; i < d->nr_preds; i++) {
        unsigned id = SEQ_PRED_ID(d->preds[i]), arg = SEQ_PRED_ARG(d->preds[i]);
        g_string_append_printf(o, "%s``%s`` (%u", i ? ", " : "", seq_pred_name(id), id);
        if (arg)
            g_string_append_printf(o, "; ADDR8 at byte %u", arg);
        g_string_append_c(o, ')');
    }
    if (!d->nr_preds)
        g_string_append(o, "none");
}

static void seq_insn_entry(GString *o, unsigned opc, const SeqInsnDesc *d, bool *ok)
{
    int k = seq_doc_index(d->name);
    if (k < 0) {
        fprintf(stderr, "nxemu-isa-doc: sequencer %s has no SEQ_DOC in target/seq/insn-doc.def\n",
                d->name);
        *ok = false;
    }
    g_string_append_printf(o, "``%s`` (0x%02X, %s)\n", d->mnemonic, opc, d->name);
    const char *sum = k >= 0 ? seq_docs[k].text : "?";
    g_string_append_printf(o, "   %c", g_ascii_toupper(sum[0]));
    rst_text(o, sum + 1);
    g_string_append(o, ".\n\n");
    g_string_append(o, "   ::\n\n");
    const char *s = k >= 0 ? seq_docs[k].syntax : "?";
    while (*s) {
        const char *e = strchr(s, '\n');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        g_string_append(o, "      ");
        g_string_append_len(o, s, (gssize)n);
        g_string_append_c(o, '\n');
        s += n + (e ? 1 : 0);
    }
    g_string_append(o, "\n   - reserved bytes: ");
    seq_reserved(o, d->reserved);
    g_string_append(o, "\n   - predicates, in order: ");
    seq_preds(o, d);
    g_string_append(o, "\n\n");
}

static void heading(GString *o, const char *t, char c)
{
    g_string_append_printf(o, "%s\n", t);
    for (size_t i = 0; t[i]; i++)
        g_string_append_c(o, c);
    g_string_append(o, "\n\n");
}

/* The value type of a fields.def row: "u8", "i32", "u16, 0 = 65536", "u32[8]". */
static void seq_field_type(GString *o, const SeqFieldDesc *f)
{
    if (f->nbits < 8u * f->size) {
        g_string_append_printf(o, "%u bit%s", f->nbits, f->nbits == 1 ? "" : "s");
        return;
    }
    if (f->enc == SEQ_ENC_ADDR8) {
        g_string_append(o, "ADDR8 (`ADDR8 address operand`_)");
        return;
    }
    g_string_append_printf(o, "%c%u", f->enc == SEQ_ENC_S ? 'i' : 'u', 8u * f->size);
    if (f->count > 1)
        g_string_append_printf(o, "[%u]", f->count);
    if (f->enc == SEQ_ENC_Z64K)
        g_string_append_printf(o, ", 0 = %u", SEQ_Z64K_MAX);
}

/* One table per record format of target/seq/fields.def. */
static void seq_layouts(GString *o)
{
    heading(o, "Record layouts", '-');
    g_string_append(o, "Where each operand sits in the 64-byte record, from "
                       "``target/seq/fields.def`` (the table the decoder, predicates, "
                       "assembler, disassembler, loader and executors read fields through). "
                       "Values are little-endian; ``i`` types are two's complement; an array "
                       "``uN[k]`` holds k values of N bits, element j at byte offset + j * N/8; "
                       "a bit field is bits [hi:lo] of one byte. Bytes a format does not list are "
                       "reserved or unused (see each instruction's reserved bytes).\n\n");
    for (unsigned fm = 0; fm < SEQ_FMT_COUNT; fm++) {
        heading(o, seq_format_table[fm].title, '~');
        if (seq_format_table[fm].relative)
            g_string_append(o, "Offsets are from the operand's first byte; the fields are "
                               "alternatives, chosen by the marker.\n\n");
        g_string_append(o, ".. list-table::\n   :header-rows: 1\n\n"
                           "   * - Bytes\n     - Field\n     - Type\n     - Meaning\n");
        for (unsigned i = 0; i < seq_field_count; i++) {
            const SeqFieldDesc *f = &seq_field_table[i];
            if (f->fmt != fm)
                continue;
            unsigned last = f->off + f->size * (unsigned)f->count - 1;
            g_string_append(o, "   * - ");
            if (f->nbits < 8u * f->size && f->nbits > 1)
                g_string_append_printf(o, "%u [%u:%u]", f->off, f->lsb + f->nbits - 1, f->lsb);
            else if (f->nbits < 8u * f->size)
                g_string_append_printf(o, "%u [%u]", f->off, f->lsb);
            else if (last == f->off)
                g_string_append_printf(o, "%u", f->off);
            else
                g_string_append_printf(o, "%u..%u", f->off, last);
            g_string_append_printf(o, "\n     - ``%s_%s``\n     - ", seq_format_table[fm].name,
                                   f->name);
            seq_field_type(o, f);
            g_string_append_printf(o, "\n     - %s\n", f->doc);
        }
        g_string_append(o, "\n");
    }
}

static bool seq_page(GString *o)
{
    bool ok = true;
    g_string_append(o, ".. Generated by tools/nxemu-isa-doc from target/seq/insn.def, "
                       "fields.def, predicates.def and insn-doc.def; do not edit: run "
                       "`make isa-doc`.\n\n");
    heading(o, "Sequencer instructions", '=');
    g_string_append(
        o, "Every instruction is one 64-byte record: bytes 0..3 the header, bytes 4..11 the "
           "events field (except ``evsem``), bytes 12..63 the payload. The record, the events "
           "field, address operands, registers and faults are described in "
           "``docs/seq-isa.rst``. Opcodes not listed fault INVALID_OPCODE; a pseudo opcode "
           "(0xC1..0xDF) that reaches the core faults PSEUDO_UNLOWERED.\n\n"
           "The predicates of an instruction are checked in the order listed, when the core "
           "decodes it, when ``nxemu-as`` assembles it and, for pseudo instructions, when the "
           "loader lowers them; the first that fails is the fault INVALID_INSTRUCTION with "
           "FAULT_INFO = its id (see `Validity predicates`_). \"header and events\" is the common "
           "prefix ");
    for (size_t i = 0; i < G_N_ELEMENTS(seq_prefix); i++)
        g_string_append_printf(o, "%s``%s``", i ? ", " : "", seq_pred_name(SEQ_PRED_ID(seq_prefix[i])));
    g_string_append(
        o, ". Reserved bytes must be 0 where the list has ``reserved_zero``.\n\n"
           "In the syntax, ``[A]`` is an address operand and ``TGT`` a branch target "
           "(``docs/seq-isa.rst``), ``T`` a data-type suffix (`Data types`_), ``rN`` a register "
           "r0..r63 and ``rH:rL`` a 64-bit register pair, high first. Every instruction except "
           "``evsem`` may end with the events modifiers ``wait(..)``, ``post(..)`` or "
           "``post.r(..)``, and ``dbg(CMD, HINT)``, in any order. Mnemonics and register names "
           "are case-insensitive; ``nxemu-objdump`` prints the forms shown here, lowercase, with "
           "immediates and addresses in hex.\n\n");
    for (int pseudo = 0; pseudo < 2; pseudo++) {
        heading(o, pseudo ? "Pseudo instructions" : "Instructions", '-');
        if (pseudo)
            g_string_append(o, "Compiler pseudo instructions. The loader rewrites each of them "
                               "in place into the real record named here, keeping bytes 2..11 "
                               "(debug bytes and events), after checking the predicates listed "
                               "(a failure is a load error). Details: ``docs/seq-isa.rst``.\n\n");
        for (unsigned opc = 0; opc < 256; opc++) {
            const SeqInsnDesc *d = seq_insn_desc(opc);
            if (d && d->pseudo == (bool)pseudo)
                seq_insn_entry(o, opc, d, &ok);
        }
    }
    for (size_t i = 0; i < G_N_ELEMENTS(seq_docs); i++) {
        bool found = false;
        for (unsigned opc = 0; opc < 256 && !found; opc++)
            found = seq_insn_desc(opc) && !strcmp(seq_insn_desc(opc)->name, seq_docs[i].name);
        if (!found) {
            fprintf(stderr, "nxemu-isa-doc: SEQ_DOC(%s) names no row of target/seq/insn.def\n",
                    seq_docs[i].name);
            ok = false;
        }
    }

    seq_layouts(o);

    heading(o, "ALU operations", '-');
    g_string_append(
        o, "The ``op`` byte (12) of ``ALU_OP``; the mnemonic is the instruction name in source. "
           "W is the dtype's width (32 or 64), a = src0, b = src1 or the immediate; signedness "
           "follows the dtype. Unary operations read no b. f32 marks the operations that accept "
           "dtype f32 (IEEE binary32, round to nearest even, an arithmetic NaN result is "
           "0x7FC00000). Codes not listed fail ``alu_op_supported``.\n\n"
           ".. list-table::\n   :header-rows: 1\n\n"
           "   * - Code\n     - Name\n     - Mnemonic\n     - Operands\n     - f32\n"
           "     - Result\n");
    for (size_t i = 0; i < G_N_ELEMENTS(seq_alu_rows); i++) {
        const char *t = seq_alu_doc(seq_alu_rows[i].name);
        if (!t) {
            fprintf(stderr, "nxemu-isa-doc: ALU op %s has no SEQ_ALU_DOC in target/seq/insn-doc.def\n",
                    seq_alu_rows[i].name);
            ok = false;
        }
        g_string_append_printf(o, "   * - 0x%02X\n     - %s\n     - ``%s``\n     - %s\n     - %s\n"
                                  "     - %s\n",
                               seq_alu_rows[i].code, seq_alu_rows[i].name, seq_alu_rows[i].mnemonic,
                               seq_alu_rows[i].unary ? "a" : "a, b",
                               seq_alu_rows[i].fp32 ? "yes" : "no", t ? t : "?");
    }
    g_string_append(o, "\n");
    for (size_t i = 0; i < G_N_ELEMENTS(seq_alu_docs); i++) {
        bool found = false;
        for (size_t j = 0; j < G_N_ELEMENTS(seq_alu_rows); j++)
            found = found || !strcmp(seq_alu_rows[j].name, seq_alu_docs[i].name);
        if (!found) {
            fprintf(stderr, "nxemu-isa-doc: SEQ_ALU_DOC(%s) names no SEQ_ALU_OP row\n",
                    seq_alu_docs[i].name);
            ok = false;
        }
    }

    heading(o, "Data types", '-');
    g_string_append(o, "The dtype codes; code 0 is INVALID. Which instruction accepts which is "
                       "stated by its predicates (summary table in ``docs/seq-isa.rst``).\n\n"
                       ".. list-table::\n   :header-rows: 1\n\n"
                       "   * - Code\n     - Name\n     - Suffix\n     - Bytes\n");
    for (size_t i = 0; i < G_N_ELEMENTS(seq_dtype_rows); i++)
        g_string_append_printf(o, "   * - 0x%X\n     - %s\n     - ``.%s``\n     - %u\n",
                               seq_dtype_rows[i].code, seq_dtype_rows[i].name,
                               seq_dtype_rows[i].suffix, seq_dtype_rows[i].size);
    g_string_append(o, "\n");

    heading(o, "Validity predicates", '-');
    g_string_append(o, "The id is the FAULT_INFO of INVALID_INSTRUCTION; fault lines and the "
                       "assembler print the name.\n\n"
                       ".. list-table::\n   :header-rows: 1\n\n"
                       "   * - Id\n     - Predicate\n     - Rule\n     - Checked by\n");
    unsigned nrows = 0;
    for (unsigned opc = 0; opc < 256; opc++)
        nrows += seq_insn_desc(opc) != NULL;
    for (size_t i = 0; i < G_N_ELEMENTS(seq_pred_rows); i++) {
        const char *t = seq_pred_doc(seq_pred_rows[i].name);
        if (!t) {
            fprintf(stderr,
                    "nxemu-isa-doc: predicate %s has no SEQ_PRED_DOC in target/seq/insn-doc.def\n",
                    seq_pred_rows[i].name);
            ok = false;
        }
        GString *by = g_string_new(NULL);
        unsigned users = 0;
        for (unsigned opc = 0; opc < 256; opc++) {
            const SeqInsnDesc *d = seq_insn_desc(opc);
            bool uses = false;
            for (unsigned k = 0; d && k < d->nr_preds; k++)
                uses = uses || SEQ_PRED_ID(d->preds[k]) == seq_pred_rows[i].id;
            if (uses)
                g_string_append_printf(by, "%s``%s``", users++ ? ", " : "", d->mnemonic);
        }
        g_string_append_printf(o, "   * - %u\n     - ``%s``\n     - %s\n     - %s\n",
                               seq_pred_rows[i].id, seq_pred_rows[i].name, t ? t : "?",
                               users == nrows ? "every instruction" : users ? by->str : "none");
        g_string_free(by, TRUE);
    }
    for (size_t i = 0; i < G_N_ELEMENTS(seq_pred_docs); i++) {
        bool found = false;
        for (size_t j = 0; j < G_N_ELEMENTS(seq_pred_rows); j++)
            found = found || !strcmp(seq_pred_rows[j].name, seq_pred_docs[i].name);
        if (!found) {
            fprintf(stderr, "nxemu-isa-doc: SEQ_PRED_DOC(%s) names no row of predicates.def\n",
                    seq_pred_docs[i].name);
            ok = false;
        }
    }
    return ok;
}

/* Pages in writing order: the four TPC slots, then the sequencer. */
#define NR_PAGES 5

static bool build_page(unsigned i, GString *o)
{
    return i < 4 ? page(i, o) : seq_page(o);
}

static const char *page_file(unsigned i)
{
    return i < 4 ? slot_file[i] : "seq.rst";
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
    for (unsigned s = 0; s < NR_PAGES; s++) {
        GString *o = g_string_new(NULL);
        if (!build_page(s, o))
            rc = 1;
        char *path = g_build_filename(dir, page_file(s), NULL);
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
