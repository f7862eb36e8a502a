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

#define F(name)    seq_field_get(r, SEQ_F_##name)
#define P(name, v) seq_field_put(r, SEQ_F_##name, v)

/* The bytes a lowering keeps: debug_cmd .. the events value (2..11). */
enum {
    KEEP_LO = SEQ_F_HDR_DEBUG_CMD,
    KEEP_HI = SEQ_F_EV_VALUE + SEQ_F_EV_VALUE_W,
};

/* A fresh record r of opcode op keeping the pseudo's debug bytes and events. */
static void fresh(uint8_t *r, unsigned op)
{
    uint8_t keep[KEEP_HI - KEEP_LO];
    memcpy(keep, r + KEEP_LO, sizeof(keep));
    memset(r, 0, 64);
    P(HDR_OPCODE, op);
    P(HDR_WORD_LEN, 0x10);
    memcpy(r + KEEP_LO, keep, sizeof(keep));
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
        unsigned op = F(HDR_OPCODE);
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
            uint32_t var = F(PM2D_VAR_ID), voff = F(PM2D_VAR_OFFSET);
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
            P(HDR_OPCODE,
              op == SEQ_OP_PSEUDO_TENSOR_LOAD ? SEQ_OP_TENSOR_LOAD : SEQ_OP_TENSOR_STORE);
            P(M2D_ADDR, addr); /* IMM form: marker bits 63:58 are 0 */
            break;
        }
        case SEQ_OP_PSEUDO_FUNCTION_CALL: {
            char name[SEQ_F_PCALL_NAME_N + 1];
            uint64_t value;
            memcpy(name, seq_field_ptr(r, SEQ_F_PCALL_NAME), seq_field_bytes(SEQ_F_PCALL_NAME));
            name[seq_field_bytes(SEQ_F_PCALL_NAME)] = 0;
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
            fresh(r, SEQ_OP_COMPARE_BRANCH);
            P(BR_TARGET_MODE, SEQ_TGT_ABS_IMM);
            P(BR_LINK, 1);
            P(BR_TARGET_IMM, value);
            break;
        }
        case SEQ_OP_PSEUDO_FUNCTION_RETURN:
            fresh(r, SEQ_OP_COMPARE_BRANCH);
            P(BR_TARGET_MODE, SEQ_TGT_REGISTER);
            P(BR_TGT_LO, 62);
            P(BR_TGT_HI, 63);
            break;
        case SEQ_OP_PSEUDO_SYNC_BARRIER:
            fresh(r, SEQ_OP_DRAIN);
            P(DRAIN_COUNT, 1);
            break;
        case SEQ_OP_PSEUDO_INST:
            if (F(PEXIT_SUBOP) == 1) {
                fresh(r, SEQ_OP_HALT);
            }
            break;
        default:
            break;
        }
    }
    return true;
}
