/*
 * Pseudo lowering of a scanned instruction stream (machine.md §11.5,
 * sequencer.md §9): one record becomes one record, in place, so every
 * branch target stays valid.  Bytes 2..11 (debug bytes and events) are
 * carried over; a pseudo failing its own predicates is a load error; an
 * unbound var_id or unknown call name leaves the record as it is (executing
 * it raises PSEUDO_UNLOWERED) with a warning.
 */
#include <inttypes.h>
#include <string.h>

#include "insn.h"
#include "nxemu/error.h"
#include "nxemu/loader.h"
#include "nxemu/log.h"

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void wr64(uint8_t *p, uint64_t v)
{
    for (unsigned i = 0; i < 8; i++) {
        p[i] = (uint8_t)(v >> (8 * i));
    }
}

/* A fresh record of opcode op keeping the pseudo's bytes 2..11. */
static void fresh(uint8_t *out, const uint8_t *pseudo, unsigned op)
{
    uint8_t keep[10];
    memcpy(keep, pseudo + 2, 10);
    memset(out, 0, 64);
    out[0] = (uint8_t)op;
    out[1] = 0x10;
    memcpy(out + 2, keep, 10);
}

bool seq_lower_stream(uint8_t *bytes, uint64_t len, const char *where, uint64_t file_off,
                      const BindTable *bt, LoaderSymFn sym, void *sym_opaque, GError **err)
{
    if (len % 64) {
        g_set_error(err, NX_ERROR, NX_ERROR_LOAD,
                    "%s: offset 0x%" PRIx64 ": instruction stream length 0x%" PRIx64
                    " is not a multiple of 64",
                    where, file_off, len);
        return false;
    }
    for (uint64_t off = 0; off < len; off += 64) {
        uint8_t *r = bytes + off;
        unsigned op = r[0];
        uint64_t at = file_off + off;
        if (op < SEQ_PSEUDO_FIRST || op > SEQ_PSEUDO_LAST) {
            continue;
        }
        const SeqInsnDesc *d = seq_insn_desc(op);
        if (!d) {
            continue; /* a pseudo this machine does not lower */
        }
        unsigned bad = seq_check_predicates(r);
        if (bad) {
            g_set_error(err, NX_ERROR, NX_ERROR_LOAD,
                        "%s: offset 0x%" PRIx64 ": %s fails predicate %s (%u)", where, at, d->name,
                        seq_pred_name(bad), bad);
            return false;
        }
        switch (op) {
        case SEQ_OP_PSEUDO_TENSOR_LOAD:
        case SEQ_OP_PSEUDO_TENSOR_STORE: {
            uint32_t var = rd32(r + 16), voff = rd32(r + 20);
            uint64_t base;
            if (!bt || !bind_table_lookup(bt, var, &base)) {
                nx_warn("%s: offset 0x%" PRIx64 ": var_id %" PRIu32
                        " is not bound; %s left unlowered",
                        where, at, var, d->name);
                break;
            }
            uint64_t addr = base + voff;
            if (addr >> 58) {
                g_set_error(err, NX_ERROR, NX_ERROR_LOAD,
                            "%s: offset 0x%" PRIx64 ": %s address 0x%" PRIx64 " (var_id %" PRIu32
                            " + 0x%" PRIx32 ") does not fit an immediate address (bits 63:58 set)",
                            where, at, d->name, addr, var, voff);
                return false;
            }
            r[0] = op == SEQ_OP_PSEUDO_TENSOR_LOAD ? SEQ_OP_TENSOR_LOAD : SEQ_OP_TENSOR_STORE;
            wr64(r + 16, addr);
            break;
        }
        case SEQ_OP_PSEUDO_FUNCTION_CALL: {
            char name[37];
            uint64_t value;
            memcpy(name, r + 12, 36);
            name[36] = 0;
            if (!sym || !sym(sym_opaque, name, &value)) {
                nx_warn("%s: offset 0x%" PRIx64 ": function '%s' not found; %s left unlowered",
                        where, at, name, d->name);
                break;
            }
            if (value % 64) {
                g_set_error(err, NX_ERROR, NX_ERROR_LOAD,
                            "%s: offset 0x%" PRIx64 ": call target '%s' = 0x%" PRIx64
                            " is not a multiple of 64",
                            where, at, name, value);
                return false;
            }
            fresh(r, r, SEQ_OP_COMPARE_BRANCH);
            r[14] = SEQ_TGT_ABS_IMM;
            r[15] = 1;
            wr64(r + 48, value);
            break;
        }
        case SEQ_OP_PSEUDO_FUNCTION_RETURN:
            fresh(r, r, SEQ_OP_COMPARE_BRANCH);
            r[14] = SEQ_TGT_REGISTER;
            r[34] = 62;
            r[35] = 63;
            break;
        case SEQ_OP_PSEUDO_SYNC_BARRIER:
            fresh(r, r, SEQ_OP_DRAIN);
            r[40] = 1;
            break;
        case SEQ_OP_PSEUDO_INST:
            if (r[12] == 1) {
                fresh(r, r, SEQ_OP_HALT);
            }
            break;
        default:
            break;
        }
    }
    return true;
}
