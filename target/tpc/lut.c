/*
 * TPC lookup instructions (docs/tpc-lut.rst): LOOKUP_1C / LOOKUP_2C read
 * the columns of a function's table at the entries of an index vector, and
 * GET_LUT_ENTRY_AND_INTERVAL_START picks, per lane, the entry and the start
 * of the interval an f32 value falls in.  The tables are generated at build
 * time (scripts/tpc-lut-gen.py): the reductions' shuffle patterns exactly,
 * the special functions with nxemu's own fitted quadratics.  A function id
 * with no table, a variant with no public description, BV16 data and the
 * upper_half switch fault UNIMPLEMENTED, the fault line naming what.
 */
#include <math.h>
#include <string.h>

#include "target/tpc/cpu.h"
#include "target/tpc/lut.h"

#include "target/tpc/lut-tables.h"

const TpcLutTable *tpc_lut_all(unsigned *n)
{
    *n = (unsigned)G_N_ELEMENTS(tpc_lut_tables);
    return tpc_lut_tables;
}

const TpcLutTable *tpc_lut_find(unsigned id)
{
    for (unsigned i = 0; i < G_N_ELEMENTS(tpc_lut_tables); i++)
        if (tpc_lut_tables[i].id == id)
            return &tpc_lut_tables[i];
    return NULL;
}

static uint32_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* |x| as a fixed-point number with 23 fraction bits, for |x| < 1 (exponent
 * e < 0); zeros and denormals give 0. */
static uint32_t fixed23(uint32_t x, int e)
{
    if (e == -127 || -e >= 32)
        return 0;
    return ((x & 0x7FFFFFu) | 0x800000u) >> -e;
}

/* Fixed-point interval of |x| < 1 for the sin_cos and tanh variants: entry
 * = floor(|x| * 2^m), start = entry / 2^m with the sign of x. */
static void fixed_interval(uint32_t x, int e, unsigned shift, unsigned m, uint32_t *entry,
                           uint32_t *start)
{
    uint32_t n = fixed23(x, e) >> shift;
    *entry = n;
    *start = f32_bits(ldexpf((float)n, -(int)m)) | (x & 0x80000000u);
}

bool tpc_lut_interval(uint32_t x, unsigned shift, unsigned variant, uint32_t *entry,
                      uint32_t *start)
{
    int e = (int)((x >> 23) & 0xFFu) - 127;
    unsigned s = shift < 23 ? shift : 23, m = 23 - s;
    uint32_t top = (x & 0x7FFFFFu) >> s;
    uint32_t trunc = x & ~((1u << s) - 1u);
    switch (variant) {
    case 0: /* default: the top m mantissa bits */
        *entry = top;
        *start = trunc;
        return true;
    case 2: /* sqrt_rsqrt: the exponent's parity selects the half of the table */
        *entry = (uint32_t)(e & 1) << m | top;
        *start = trunc;
        return true;
    case 3: /* sin_cos: fixed point on [0, 1); from 1 on, the last interval */
        if (e < 0) {
            fixed_interval(x, e, s, m, entry, start);
        } else {
            *entry = (1u << m) - 1u;
            *start = f32_bits(ldexpf((float)*entry, -(int)m)) | (x & 0x80000000u);
        }
        return true;
    case 1: /* tanh: fixed point below 1, then 2^m intervals per octave up to 16 */
        if (e < 0) {
            fixed_interval(x, e, s, m, entry, start);
        } else if (e < 4) {
            *entry = (1u << m) + ((uint32_t)e << m) + top;
            *start = trunc;
        } else { /* 16 and beyond (inf, NaN): the last entry, value 0 */
            *entry = (5u << m) - 1u;
            *start = x;
        }
        return true;
    default:
        return false;
    }
}

/* ---- executors ---- */

/* FAULT_INFO of lut.c's UNIMPLEMENTED faults: slot | opcode << 8 | what << 16 */
static bool lut_unimpl(TpcCpu *c, unsigned slot, const TpcInsn *in, uint32_t what)
{
    return tpc_fault(c, TPC_FAULT_UNIMPLEMENTED, slot | (uint32_t)in->opc << 8 | what << 16, 0);
}

/* LOOKUP_1C (column 0) and LOOKUP_2C (columns 1 and 2 into a pair): lane i
 * of each result is the column of entry index[i] (u32 lanes); an index past
 * the table reads its last entry. */
static bool lookup_cols(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o,
                        unsigned first, unsigned ncols)
{
    unsigned id = in->b.raw & 0x1FFu;
    if (in->sw & 7u) /* BV16 data, upper_half: no public table layout */
        return lut_unimpl(c, TPC_SLOT_LD, in, 0x8000u | (in->sw & 7u) << 12 | id);
    const TpcLutTable *t = tpc_lut_find(id);
    if (!t)
        return lut_unimpl(c, TPC_SLOT_LD, in, id);
    unsigned dn = in->dst.num % TPC_NR_V;
    if (ncols == 2 && (in->dst.kind != TPC_OP_V || (dn & 1u) || dn + 1 >= TPC_NR_V))
        return tpc_bad_operand(c, TPC_SLOT_LD, TPC_FIELD_DEST, &in->dst);
    uint8_t m[TPC_VBYTES], ta[TPC_VBYTES];
    bool all;
    if (!tpc_pred_mask(c, in, 1, m, &all))
        return true;
    const uint8_t *idx = tpc_rd_vec(c, b, &in->a, 4, ta, o);
    for (unsigned k = 0; k < ncols; k++) {
        for (unsigned i = 0; i < 64; i++) {
            uint32_t n = tpc_ld_e(idx, i, 4);
            n = n < t->n ? n : t->n - 1u;
            tpc_st_e(o->vbuf[k], i, 4, t->c[n][first + k]);
        }
        if (!all)
            tpc_merge(o->vbuf[k], c->v[dn + k], m);
        tpc_out_v(o, dn + k, k);
    }
    return true;
}

bool tpc_exec_ld_lookup_1c(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o)
{
    return lookup_cols(c, b, in, o, 0, 1);
}

bool tpc_exec_ld_lookup_2c(TpcCpu *c, const TpcBundle *b, const TpcInsn *in, TpcSlotOut *o)
{
    return lookup_cols(c, b, in, o, 1, 2);
}

/* GET_LUT_ENTRY_AND_INTERVAL_START.f32 Dd, Va, shift [variant]: Vd = the
 * entries (u32), Vd+1 = the interval starts (f32). */
bool tpc_exec_vpu_get_lut_entry_and_interval_start(TpcCpu *c, const TpcBundle *b, const TpcInsn *in,
                                                   TpcSlotOut *o)
{
    unsigned shift = in->b.raw & 31u, variant = (in->b.raw >> 5) & 7u;
    if (in->type != TPC_T_F32 || variant > 3)
        return lut_unimpl(c, TPC_SLOT_VPU, in, variant | (uint32_t)in->type << 4);
    unsigned dn = in->dst.num % TPC_NR_V;
    if (in->dst.kind != TPC_OP_V || (dn & 1u) || dn + 1 >= TPC_NR_V)
        return tpc_bad_operand(c, TPC_SLOT_VPU, TPC_FIELD_DEST, &in->dst);
    uint8_t m[TPC_VBYTES], ta[TPC_VBYTES];
    bool all;
    if (!tpc_pred_mask(c, in, 4, m, &all))
        return true;
    const uint8_t *a = tpc_rd_vec(c, b, &in->a, 4, ta, o);
    for (unsigned i = 0; i < 64; i++) {
        uint32_t entry, start;
        tpc_lut_interval(tpc_ld_e(a, i, 4), shift, variant, &entry, &start);
        tpc_st_e(o->vbuf[0], i, 4, entry);
        tpc_st_e(o->vbuf[1], i, 4, start);
    }
    for (unsigned k = 0; k < 2; k++) {
        if (!all)
            tpc_merge(o->vbuf[k], c->v[dn + k], m);
        tpc_out_v(o, dn + k, k);
    }
    return true;
}

void tpc_lut_fault_note(uint32_t code, uint32_t info, GString *out)
{
    if (code != TPC_FAULT_UNIMPLEMENTED || !(info >> 16))
        return;
    unsigned slot = info & 0xFFu, opc = (info >> 8) & 0xFFu, what = info >> 16;
    if (slot == TPC_SLOT_LD && (opc == TPC_OPC_LD_lookup_1c || opc == TPC_OPC_LD_lookup_2c)) {
        if (what & 0x8000u)
            g_string_append_printf(out, " (lookup function 0x%x: %s has no public table layout)",
                                   what & 0x1FFu, (what >> 12) & 4u ? "upper_half" : "BV16 data");
        else
            g_string_append_printf(out,
                                   " (lookup function 0x%x: no table, nothing public "
                                   "identifies it)",
                                   what);
    } else if (slot == TPC_SLOT_VPU && opc == TPC_OPC_VPU_get_lut_entry_and_interval_start) {
        g_string_append_printf(out,
                               " (get_lut_entry_and_interval_start: %s%u has no public "
                               "interval selection)",
                               (what >> 4) ? "operand type " : "function variant ",
                               (what >> 4) ? what >> 4 : what & 15u);
    }
}
