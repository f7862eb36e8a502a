/*
 * Sequencer disassembler (sequencer.md §11.3, §11.4).  The canonical text is
 * checked by reassembling it: anything that does not come back byte for
 * byte (ignored fields set, failed predicates, unknown opcodes) is printed
 * as `.rec`, so the round trip holds by construction.
 */
#include <inttypes.h>
#include <string.h>

#include "asm.h"
#include "insn.h"

/* Fields of up to 4 bytes as unsigned (printf %u/%x), 8-byte ones as u64. */
#define F(name)     ((unsigned)seq_field_get(r, SEQ_F_##name))
#define F64(name)   seq_field_get(r, SEQ_F_##name)
#define FA(name, k) ((unsigned)seq_field_get_at(r, SEQ_F_##name, k))
#define A8(name)    ((unsigned)seq_field_get(a, SEQ_F_ADDR8_##name))
#define A864(name)  seq_field_get(a, SEQ_F_ADDR8_##name)
#define PTR(name)   seq_field_ptr(r, SEQ_F_##name)

void seq_disas_rec(const uint8_t rec[64], GString *out)
{
    g_string_append(out, ".rec");
    for (unsigned i = 0; i < 64; i++) {
        g_string_append_printf(out, " %02x", rec[i]);
    }
}

static void hex(GString *o, uint64_t v)
{
    g_string_append_printf(o, "0x%" PRIx64, v);
}

static void addr8(GString *o, const uint8_t *a)
{
    unsigned m = A8(MARKER) & 0xFC;
    switch (m) {
    case 0x80:
        g_string_append_printf(o, "[r%u:r%u]", A8(REG_HI), A8(REG_LO));
        break;
    case 0x20:
        g_string_append_printf(o, "[t%u + 0x%x]", A8(INDEX), A8(OFF32));
        break;
    case 0x24:
        g_string_append_printf(o, "[t%u + 0x%" PRIx64 " wide]", A8(INDEX), A864(OFF48));
        break;
    case 0x28:
        g_string_append_printf(o, "[t%u + r%u]", A8(INDEX), A8(REG_LO));
        break;
    case 0x2C:
        g_string_append_printf(o, "[t%u + r%u:r%u]", A8(INDEX), A8(REG_HI), A8(REG_LO));
        break;
    default:
        g_string_append_printf(o, "[0x%" PRIx64 "]", A864(IMM));
        break;
    }
}

static void wait_text(GString *o, const char *kw, unsigned mode, unsigned idx, uint32_t v)
{
    static const char *const rel[6] = {NULL, "==", "<", "<=", ">", ">="};
    unsigned base = mode & 0x7F;
    g_string_append_printf(o, " %s(", kw);
    if (base >= 1 && base <= 5) {
        g_string_append_printf(o, "sem%u %s ", idx, rel[base]);
        if (mode & 0x80) {
            g_string_append_printf(o, "r%u", v);
        } else {
            hex(o, v);
        }
    } else {
        g_string_append_printf(o, "evt%u %s", idx,
                               mode == 0x06   ? "set"
                               : mode == 0x07 ? "set then clear"
                               : mode == 0x0E ? "clear"
                                              : "clear then set");
    }
    g_string_append_c(o, ')');
}

static void post_text(GString *o, unsigned mode, unsigned idx, uint32_t v)
{
    unsigned k = mode & 0x0F;
    g_string_append_printf(o, " %s(", (mode & 0x10) ? "post" : "post.r");
    if (k == SEQ_UPD_EVT_SET || k == SEQ_UPD_EVT_CLR) {
        g_string_append_printf(o, "evt%u %s)", idx, k == SEQ_UPD_EVT_SET ? "set" : "clear");
        return;
    }
    g_string_append_printf(o, "sem%u", idx);
    if (k == SEQ_UPD_SEM_INC || k == SEQ_UPD_SEM_DEC) {
        g_string_append(o, k == SEQ_UPD_SEM_INC ? "++)" : "--)");
        return;
    }
    g_string_append(o, k <= 6 ? " += " : k <= 8 ? " -= " : " = ");
    if (k == 6 || k == 8 || k == 10) {
        g_string_append_printf(o, "r%u", v);
    } else {
        hex(o, v);
    }
    g_string_append_c(o, ')');
}

static void dbg_text(GString *o, const uint8_t *r)
{
    if (F(HDR_DEBUG_CMD) || F(HDR_DEBUG_HINT)) {
        g_string_append_printf(o, " dbg(%u, %u)", F(HDR_DEBUG_CMD), F(HDR_DEBUG_HINT));
    }
}

static void modifiers(GString *o, const uint8_t *r)
{
    if (F(EV_WAIT_MODE)) {
        wait_text(o, "wait", F(EV_WAIT_MODE), F(EV_WAIT_IDX), F(EV_VALUE));
    }
    if (F(EV_UPD_MODE)) {
        post_text(o, F(EV_UPD_MODE), F(EV_UPD_IDX), F(EV_VALUE));
    }
    dbg_text(o, r);
}

static void reg_list(GString *o, const uint8_t *d, unsigned n)
{
    g_string_append_c(o, '{');
    for (unsigned i = 0; i < n; i++) {
        g_string_append_printf(o, "%sr%u", i ? ", " : "", d[i]);
    }
    g_string_append_c(o, '}');
}

static void shape_step(GString *o, const uint8_t *r)
{
    g_string_append_printf(o, ", shape=(%u,%u), step=(%d,%d)", F(M2D_N0), F(M2D_N1),
                           (int32_t)F(M2D_S0), (int32_t)F(M2D_S1));
}

static void mem2d_data(GString *o, const uint8_t *r, unsigned n)
{
    if (F(M2D_DATASRC) == 1) {
        unsigned sz = seq_dtype_size(F(M2D_DTYPE));
        g_string_append(o, "#{");
        for (unsigned i = 0; i < n; i++) {
            uint64_t v = 0;
            for (unsigned b = 0; b < sz; b++) {
                v |= (uint64_t)FA(M2D_DATA, i * sz + b) << (8 * b);
            }
            if (i) {
                g_string_append(o, ", ");
            }
            hex(o, v);
        }
        g_string_append_c(o, '}');
    } else {
        reg_list(o, PTR(M2D_DATA), n);
    }
}

static void mov_src(GString *o, unsigned s)
{
    if (s == 128 || s == 129) {
        g_string_append(o, s == 128 ? "pclo" : "pchi");
    } else {
        g_string_append_printf(o, "r%u", s);
    }
}

static void alu_opnd(GString *o, bool wide, unsigned lo, unsigned hi)
{
    if (wide) {
        g_string_append_printf(o, "r%u:r%u", hi, lo);
    } else {
        g_string_append_printf(o, "r%u", lo);
    }
}

static void target(GString *o, const uint8_t *r)
{
    switch (F(BR_TARGET_MODE)) {
    case SEQ_TGT_ABS_IMM:
        g_string_append(o, "abs ");
        hex(o, F64(BR_TARGET_IMM));
        break;
    case SEQ_TGT_REGISTER:
        g_string_append_printf(o, "r%u:r%u", F(BR_TGT_HI), F(BR_TGT_LO));
        break;
    case SEQ_TGT_REL_IMM: {
        int64_t off = (int32_t)(uint32_t)F64(BR_TARGET_IMM);
        if (off < 0) {
            g_string_append_printf(o, ".-0x%" PRIx64, (uint64_t)-off);
        } else {
            g_string_append_printf(o, ".+0x%" PRIx64, (uint64_t)off);
        }
        break;
    }
    default:
        g_string_append_printf(o, ".+r%u", F(BR_TGT_LO));
        break;
    }
}

static void dma_tail(GString *o, unsigned sem, unsigned inc, unsigned op, unsigned dt,
                     unsigned prio)
{
    static const char *const ops[5] = {NULL, "add", "mul", "max", "min"};
    g_string_append_printf(o, " sem=%u inc=%u", sem, inc);
    if (op) {
        g_string_append_printf(o, " op=%s", op < 5 ? ops[op] : "?");
    }
    if (dt) {
        g_string_append_printf(o, " dt=%s", seq_dtype_name(dt) ? seq_dtype_name(dt) : "?");
    }
    if (prio) {
        g_string_append_printf(o, " prio=%u", prio);
    }
}

/* Candidate canonical text; false when the record has no canonical form. */
static bool canon(const uint8_t *r, GString *o)
{
    const SeqInsnDesc *d = seq_insn_desc(F(HDR_OPCODE));
    const char *T = seq_dtype_name(F(M2D_DTYPE) < 16 ? F(M2D_DTYPE) : 0);
    switch (F(HDR_OPCODE)) {
    case SEQ_OP_EVENT_SEMAPHORE:
        g_string_append(o, "evsem");
        if (F(EV_WAIT_MODE)) {
            wait_text(o, "wait", F(EV_WAIT_MODE), F(EV_WAIT_IDX), F(EV_VALUE));
        }
        if (F(EVSEM_WAITB_MODE)) {
            wait_text(o, F(EV_WAIT_MODE) ? "wait" : "wait.b", F(EVSEM_WAITB_MODE),
                      F(EVSEM_WAITB_IDX), F(EVSEM_WAITB_VALUE));
        }
        if (F(EVSEM_UPD_MODE)) {
            post_text(o, F(EVSEM_UPD_MODE), F(EVSEM_UPD_IDX), F(EVSEM_UPD_VALUE));
        }
        dbg_text(o, r);
        return true;
    case SEQ_OP_HALT:
    case SEQ_OP_INSTRUCTION_FLUSH:
    case SEQ_OP_NOP:
    case SEQ_OP_PSEUDO_FUNCTION_RETURN:
    case SEQ_OP_PSEUDO_SYNC_BARRIER:
        g_string_append(o, d->mnemonic);
        break;
    case SEQ_OP_PSEUDO_INST:
        if (F(PEXIT_SUBOP) != 1) {
            return false;
        }
        g_string_append(o, "pexit");
        break;
    case SEQ_OP_DRAIN:
        g_string_append(o, F(DRAIN_COUNT) ? "drain" : "drain 0");
        break;
    case SEQ_OP_WRITE:
        g_string_append_printf(o, "write.%s ", seq_dtype_name(F(WR_DTYPE)));
        addr8(o, PTR(WR_ADDR));
        if (F(WR_DATASRC) == 0) {
            g_string_append_printf(o, ", r%u", F(WR_SRC_REG));
        } else {
            g_string_append(o, ", ");
            hex(o, F(WR_IMM));
        }
        break;
    case SEQ_OP_NOTIFY:
        g_string_append_printf(o, "notify %u, ", F(NTF_QUEUE));
        if (F(NTF_DATASRC) == 0) {
            g_string_append_printf(o, "r%u", F(NTF_SRC_REG));
        } else {
            hex(o, F(NTF_IMM));
        }
        break;
    case SEQ_OP_MOVE: {
        unsigned n = F(MV_NUM);
        bool imm = F(MV_SOURCE) == 1;
        g_string_append_printf(o, "mov.%s ", seq_dtype_name(F(MV_DTYPE)));
        if (n == 1) {
            g_string_append_printf(o, "r%u, ", FA(MV_DST, 0));
            if (imm) {
                hex(o, FA(MV_IMM, 0));
            } else {
                mov_src(o, FA(MV_SRC, 0));
            }
            break;
        }
        reg_list(o, PTR(MV_DST), n);
        g_string_append(o, ", {");
        for (unsigned k = 0; k < n; k++) {
            if (k) {
                g_string_append(o, ", ");
            }
            if (imm) {
                hex(o, FA(MV_IMM, k));
            } else {
                mov_src(o, FA(MV_SRC, k));
            }
        }
        g_string_append_c(o, '}');
        break;
    }
    case SEQ_OP_ALU_OP: {
        bool wide = F(ALU_DTYPE) == SEQ_DT_I64 || F(ALU_DTYPE) == SEQ_DT_U64;
        bool unary = seq_alu_unary(F(ALU_OP));
        g_string_append_printf(o, "%s.%s", seq_alu_mnemonic(F(ALU_OP)),
                               seq_dtype_name(F(ALU_DTYPE)));
        if (F(ALU_DST_DTYPE)) {
            g_string_append_printf(o, ".%s", seq_dtype_name(F(ALU_DST_DTYPE)));
        }
        g_string_append_c(o, ' ');
        alu_opnd(o, wide, F(ALU_DST_LO), F(ALU_DST_HI));
        g_string_append(o, ", ");
        alu_opnd(o, wide, F(ALU_SRC0_LO), F(ALU_SRC0_HI));
        if (!unary) {
            g_string_append(o, ", ");
            if (F(ALU_DATASRC)) {
                hex(o, F64(ALU_IMM));
            } else {
                alu_opnd(o, wide, F(ALU_SRC1_LO), F(ALU_SRC1_HI));
            }
        }
        break;
    }
    case SEQ_OP_COMPARE_BRANCH: {
        static const char *const cc[7] = {NULL, "lt", "le", "eq", "ne", "ge", "gt"};
        if (F(BR_CMP_OP) == 0) {
            g_string_append(o, F(BR_LINK) ? "call " : "b ");
        } else {
            g_string_append_printf(o, "b%s.%s r%u, ", cc[F(BR_CMP_OP) & 7],
                                   seq_dtype_name(F(BR_DTYPE)), F(BR_LHS));
            if (F(BR_CMP_OP) >= 9) {
                g_string_append_printf(o, "r%u, ", F(BR_RHS));
            } else {
                hex(o, F(BR_RHS_IMM));
                g_string_append(o, ", ");
            }
        }
        target(o, r);
        break;
    }
    case SEQ_OP_TENSOR_LOAD:
    case SEQ_OP_PSEUDO_TENSOR_LOAD:
        g_string_append_printf(o, "%s.%s ", d->mnemonic, T);
        reg_list(o, PTR(M2D_DATA), F(M2D_N0) * F(M2D_N1));
        g_string_append(o, ", ");
        if (F(HDR_OPCODE) == SEQ_OP_TENSOR_LOAD) {
            addr8(o, PTR(M2D_ADDR));
        } else {
            g_string_append_printf(o, "var(%" PRIu32 ")+0x%" PRIx32, F(PM2D_VAR_ID),
                                   F(PM2D_VAR_OFFSET));
        }
        shape_step(o, r);
        break;
    case SEQ_OP_TENSOR_STORE:
    case SEQ_OP_PSEUDO_TENSOR_STORE:
        g_string_append_printf(o, "%s.%s ", d->mnemonic, T);
        if (F(HDR_OPCODE) == SEQ_OP_TENSOR_STORE) {
            addr8(o, PTR(M2D_ADDR));
        } else {
            g_string_append_printf(o, "var(%" PRIu32 ")+0x%" PRIx32, F(PM2D_VAR_ID),
                                   F(PM2D_VAR_OFFSET));
        }
        g_string_append(o, ", ");
        mem2d_data(o, r, F(M2D_N0) * F(M2D_N1));
        shape_step(o, r);
        break;
    case SEQ_OP_GROUP_RESET_SEMAPHORES:
        if (F(GRST_MODE) == 1) {
            g_string_append_printf(o, "semclr %u..%u", F(GRST_FIRST), F(GRST_LAST));
        } else {
            bool first = true;
            g_string_append(o, "semclr {");
            for (unsigned i = 0; i < 256; i++) {
                if (FA(GRST_MASK, i >> 5) >> (i & 31) & 1) {
                    g_string_append_printf(o, "%s%u", first ? "" : ", ", i);
                    first = false;
                }
            }
            g_string_append_c(o, '}');
        }
        break;
    case SEQ_OP_DMA_MEMCPY:
        g_string_append(o, "dma src=");
        addr8(o, PTR(DMA_SRC_ADDR));
        g_string_append_printf(o, " sshape=(%u,%u) sstep=(%d,%d) sesz=%u dst=", F(DMA_SRC_N0),
                               F(DMA_SRC_N1), (int32_t)F(DMA_SRC_STEP0), (int32_t)F(DMA_SRC_STEP1),
                               F(DMA_SRC_ESIZE));
        addr8(o, PTR(DMA_DST_ADDR));
        g_string_append_printf(o, " dshape=(%u,%u) dstep=(%d,%d) desz=%u", F(DMA_DST_N0),
                               F(DMA_DST_N1), (int32_t)F(DMA_DST_STEP0), (int32_t)F(DMA_DST_STEP1),
                               F(DMA_DST_ESIZE));
        dma_tail(o, F(DMA_SEM), F(DMA_SEM_INC), F(DMA_COMPUTE_OP), F(DMA_IN_DTYPE), F(DMA_PRIO));
        break;
    case SEQ_OP_DMA_INDIRECT: {
        static const char *const modes[3] = {"gather", "scatter", "both"};
        unsigned m = F(DMAI_MODE);
        g_string_append_printf(o, "dmai.%s src=", modes[m < 3 ? m : 0]);
        addr8(o, PTR(DMAI_SRC_ADDR));
        g_string_append_printf(o, " sn=%u sstep=%d sesz=%u dst=", F(DMAI_SRC_N),
                               (int32_t)F(DMAI_SRC_STEP), F(DMAI_SRC_ESIZE));
        addr8(o, PTR(DMAI_DST_ADDR));
        g_string_append_printf(o, " dn=%u dstep=%d desz=%u", F(DMAI_DST_N),
                               (int32_t)F(DMAI_DST_STEP), F(DMAI_DST_ESIZE));
        if (m == 0 || m == 2) {
            g_string_append_printf(o, " sidx=0x%" PRIx32, F(DMAI_SRC_IDX));
        }
        if (m == 1 || m == 2) {
            g_string_append_printf(o, " didx=0x%" PRIx32, F(DMAI_DST_IDX));
        }
        dma_tail(o, F(DMAI_SEM), F(DMAI_SEM_INC), F(DMAI_COMPUTE_OP), F(DMAI_IN_DTYPE),
                 F(DMAI_PRIO));
        if (F(DMAI_NON_UNIQUE_DST)) {
            g_string_append(o, " dupok");
        }
        break;
    }
    case SEQ_OP_PSEUDO_FUNCTION_CALL: {
        const char *name = (const char *)PTR(PCALL_NAME);
        for (const char *p = name; *p; p++) {
            if (*p == '"' || *p < 0x21 || *p > 0x7E) {
                return false;
            }
        }
        g_string_append_printf(o, "pcall \"%s\"", name);
        break;
    }
    default:
        return false;
    }
    modifiers(o, r);
    return true;
}

bool seq_disas_insn(const uint8_t rec[64], uint64_t pc, GString *out)
{
    const SeqInsnDesc *d = seq_insn_desc(seq_field_get(rec, SEQ_F_HDR_OPCODE));
    if (d && seq_check_predicates(rec) == 0) {
        GString *t = g_string_sized_new(128);
        uint8_t re[64];
        if (canon(rec, t) && seq_asm_insn_text(t->str, pc, NULL, NULL, re, NULL) &&
            memcmp(re, rec, 64) == 0) {
            g_string_append_len(out, t->str, (gssize)t->len);
            g_string_free(t, TRUE);
            return true;
        }
        g_string_free(t, TRUE);
    }
    seq_disas_rec(rec, out);
    return false;
}
