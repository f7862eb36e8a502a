/*
 * The TPC's part of ISA coverage (include/nxemu/coverage.h): the
 * categories, what exists in each (the insn-*.def rows through
 * tpc_insn_desc, the switch sets of tpc_sws_table) and what one executed
 * bundle hits, decoded by tpc_decode_bundle as the executor decodes it.
 */
#include "nxemu/coverage.h"
#include "nxemu/trace.h"
#include "target/tpc/asm.h"
#include "target/tpc/cpu.h"
#include "target/tpc/insn.h"

enum { TC_OPCODES, TC_DTYPES, TC_OPERANDS, TC_PREDICATES, TC_SWITCHES, TC_FAULTS, TC_COUNT };
static const char *const tpc_cat_names[TC_COUNT] = {
    "opcodes", "dtypes", "operands", "predicates", "switches", "faults",
};

static const char *const tpc_slot_names[4] = {"ld", "spu", "vpu", "st"};
static const char *const tpc_opkind_names[] = {
    [TPC_OP_V] = "V",          [TPC_OP_S] = "S",          [TPC_OP_SP] = "SP",
    [TPC_OP_VP] = "VP",        [TPC_OP_I] = "I",          [TPC_OP_AD] = "AD",
    [TPC_OP_IMM] = "imm",      [TPC_OP_SIMM] = "simm",    [TPC_OP_VSPECIAL] = "vspecial",
    [TPC_OP_SLFSR] = "s_lfsr", [TPC_OP_HWREG] = "hw_reg",
};
static const char *const tpc_pred_names[] = {"none", "sp", "sp_neg", "vp", "vp_neg"};

/* "spu.add.st": a switch of an instruction (one-bit, or a multi-bit field
 * counted when nonzero). */
static void tpc_switch_key(char *buf, size_t n, unsigned slot, const TpcInsnDesc *d,
                           const TpcSwDef *sw)
{
    g_snprintf(buf, n, "%s.%s.%s", tpc_slot_names[slot], d->mnemonic, sw->key);
}

static bool tpc_sw_applies(const TpcSwDef *sw, unsigned slot)
{
    return sw->slots == 0 || (sw->slots >> slot) & 1;
}

static void tpc_cov_universe(NxCovCat *cats)
{
    NxCovCat *t = cats;
    char key[96];
    for (unsigned slot = 0; slot < 4; slot++)
        for (unsigned opc = 0; opc < 64; opc++) {
            const TpcInsnDesc *d = tpc_insn_desc(slot, opc);
            if (!d)
                continue;
            g_snprintf(key, sizeof(key), "%s.%s", tpc_slot_names[slot], d->mnemonic);
            nx_cov_exists(&t[TC_OPCODES], key);
            for (const TpcSwDef *sw = tpc_sws_table(d->sws); sw && sw->key; sw++) {
                if (!tpc_sw_applies(sw, slot))
                    continue;
                tpc_switch_key(key, sizeof(key), slot, d, sw);
                nx_cov_exists(&t[TC_SWITCHES], key);
            }
        }
    for (unsigned i = 0; i < TPC_T_COUNT; i++)
        nx_cov_exists(&t[TC_DTYPES], tpc_type_suffix[i]);
    for (unsigned i = 0; i < G_N_ELEMENTS(tpc_opkind_names); i++)
        if (tpc_opkind_names[i])
            nx_cov_exists(&t[TC_OPERANDS], tpc_opkind_names[i]);
    for (unsigned i = 0; i < G_N_ELEMENTS(tpc_pred_names); i++)
        nx_cov_exists(&t[TC_PREDICATES], tpc_pred_names[i]);
    for (unsigned code = TPC_FAULT_ILLEGAL_OPCODE; code <= TPC_FAULT_BUNDLE_CONFLICT; code++)
        nx_cov_exists(&t[TC_FAULTS], tpc_fault_name(code));
}

static void tpc_operand_hit(NxCovCat *cats, const TpcOperand *o)
{
    if (o->kind < G_N_ELEMENTS(tpc_opkind_names) && tpc_opkind_names[o->kind])
        nx_cov_hit(&cats[TC_OPERANDS], tpc_opkind_names[o->kind]);
}

static bool tpc_cov_insn(NxCovCat *cats, const uint8_t *bundle)
{
    TpcBundle b;
    NxFault f;
    char key[96];
    if (!tpc_decode_bundle(bundle, &b, &f))
        return false;
    if (b.is_loop) {
        const TpcInsnDesc *d = b.slot[TPC_SLOT_SPU].desc;
        if (d) {
            g_snprintf(key, sizeof(key), "spu.%s", d->mnemonic);
            nx_cov_hit(&cats[TC_OPCODES], key);
        }
        return true;
    }
    for (unsigned slot = 0; slot < 4; slot++) {
        const TpcInsn *in = &b.slot[slot];
        const TpcInsnDesc *d = in->desc;
        if (!d)
            continue;
        g_snprintf(key, sizeof(key), "%s.%s", tpc_slot_names[slot], d->mnemonic);
        nx_cov_hit(&cats[TC_OPCODES], key);
        if (d->form == TPC_FORM_NOP)
            continue;
        if (d->types != TPC_TT_NONE && in->type < TPC_T_COUNT)
            nx_cov_hit(&cats[TC_DTYPES], tpc_type_suffix[in->type]);
        tpc_operand_hit(cats, &in->dst);
        tpc_operand_hit(cats, &in->a);
        tpc_operand_hit(cats, &in->b);
        tpc_operand_hit(cats, &in->c);
        tpc_operand_hit(cats, &in->d);
        if (!(d->flags & TPC_F_NOPRED)) {
            unsigned p = 0;
            if (in->pred || in->pred_vp || in->polarity)
                p = (in->pred_vp ? 3 : 1) + (in->polarity ? 1 : 0);
            nx_cov_hit(&cats[TC_PREDICATES], tpc_pred_names[p]);
        }
        for (const TpcSwDef *sw = tpc_sws_table(d->sws); sw && sw->key; sw++) {
            if (!tpc_sw_applies(sw, slot) || !tpc_sw_value(in, sw))
                continue;
            tpc_switch_key(key, sizeof(key), slot, d, sw);
            nx_cov_hit(&cats[TC_SWITCHES], key);
        }
    }
    return true;
}

const NxCovIsa tpc_cov_isa = {
    .name = "tpc",
    .unit = "bundles",
    .cats = tpc_cat_names,
    .nr_cats = TC_COUNT,
    .len = 32,
    .fault_cat = TC_FAULTS,
    .universe = tpc_cov_universe,
    .insn = tpc_cov_insn,
    .fault_name = tpc_fault_name,
};

/* ---- counts from the fast tiers ----
 *
 * With -coverage alone, the direct loop, the loop plans and the compiled
 * bodies count executions per decode-cache entry (tpc_cov_note: an add, and
 * the entry listed on its first count) instead of opening a trace record
 * per bundle; the counts reach the report here, before the entry is
 * decoded anew and when the report is made (NxCpuTraceOps.flush_counts),
 * so it is the one the staged path would have written. */

void tpc_cov_flush_entry(TpcCpu *c, TpcDCacheEntry *dc)
{
    uint64_t *n = &c->x.cov_n[dc - c->x.dcache];
    if (*n)
        trace_insn_count(&c->parent, dc->raw, TPC_BUNDLE, *n);
    *n = 0;
}

void tpc_cov_flush(TpcCpu *c)
{
    for (unsigned i = 0; i < c->x.ncov_dirty; i++) {
        unsigned e = c->x.cov_dirty[i];
        tpc_cov_flush_entry(c, &c->x.dcache[e]);
        c->x.cov_listed[e] = false;
    }
    c->x.ncov_dirty = 0;
}

void tpc_cov_flush_counts(NxCpu *cpu)
{
    tpc_cov_flush(tpc_cpu(cpu));
}
