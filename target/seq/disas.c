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

static uint16_t rd16(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t rd64(const uint8_t *p)
{
    return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32;
}

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
    unsigned m = a[7] & 0xFC;
    switch (m) {
    case 0x80:
        g_string_append_printf(o, "[r%u:r%u]", a[1], a[0]);
        break;
    case 0x20:
        g_string_append_printf(o, "[t%u + 0x%" PRIx32 "]", a[6], rd32(a));
        break;
    case 0x24:
        g_string_append_printf(o, "[t%u + 0x%" PRIx64 " wide]", a[6],
                               (uint64_t)(rd64(a) & 0xFFFFFFFFFFFFull));
        break;
    case 0x28:
        g_string_append_printf(o, "[t%u + r%u]", a[6], a[0]);
        break;
    case 0x2C:
        g_string_append_printf(o, "[t%u + r%u:r%u]", a[6], a[1], a[0]);
        break;
    default:
        g_string_append_printf(o, "[0x%" PRIx64 "]", rd64(a));
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
    if (r[2] || r[3]) {
        g_string_append_printf(o, " dbg(%u, %u)", r[2], r[3]);
    }
}

static void modifiers(GString *o, const uint8_t *r)
{
    if (r[4]) {
        wait_text(o, "wait", r[4], r[5], rd32(r + 8));
    }
    if (r[6]) {
        post_text(o, r[6], r[7], rd32(r + 8));
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
    g_string_append_printf(o, ", shape=(%u,%u), step=(%d,%d)", r[14], r[15], (int32_t)rd32(r + 24),
                           (int32_t)rd32(r + 28));
}

static void mem2d_data(GString *o, const uint8_t *r, unsigned n)
{
    if (r[13] == 1) {
        unsigned sz = seq_dtype_size(r[12]);
        g_string_append(o, "#{");
        for (unsigned i = 0; i < n; i++) {
            uint64_t v = 0;
            for (unsigned b = 0; b < sz; b++) {
                v |= (uint64_t)r[32 + i * sz + b] << (8 * b);
            }
            if (i) {
                g_string_append(o, ", ");
            }
            hex(o, v);
        }
        g_string_append_c(o, '}');
    } else {
        reg_list(o, r + 32, n);
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
    switch (r[14]) {
    case SEQ_TGT_ABS_IMM:
        g_string_append(o, "abs ");
        hex(o, rd64(r + 48));
        break;
    case SEQ_TGT_REGISTER:
        g_string_append_printf(o, "r%u:r%u", r[35], r[34]);
        break;
    case SEQ_TGT_REL_IMM: {
        int64_t off = (int32_t)rd32(r + 48);
        if (off < 0) {
            g_string_append_printf(o, ".-0x%" PRIx64, (uint64_t)-off);
        } else {
            g_string_append_printf(o, ".+0x%" PRIx64, (uint64_t)off);
        }
        break;
    }
    default:
        g_string_append_printf(o, ".+r%u", r[34]);
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

static unsigned esz(uint16_t v)
{
    return v ? v : 65536u;
}

/* Candidate canonical text; false when the record has no canonical form. */
static bool canon(const uint8_t *r, GString *o)
{
    const SeqInsnDesc *d = seq_insn_desc(r[0]);
    const char *T = seq_dtype_name(r[12] < 16 ? r[12] : 0);
    switch (r[0]) {
    case SEQ_OP_EVENT_SEMAPHORE:
        g_string_append(o, "evsem");
        if (r[4]) {
            wait_text(o, "wait", r[4], r[5], rd32(r + 8));
        }
        if (r[32]) {
            wait_text(o, r[4] ? "wait" : "wait.b", r[32], r[33], rd32(r + 36));
        }
        if (r[34]) {
            post_text(o, r[34], r[35], rd32(r + 40));
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
        if (r[12] != 1) {
            return false;
        }
        g_string_append(o, "pexit");
        break;
    case SEQ_OP_DRAIN:
        g_string_append(o, r[40] ? "drain" : "drain 0");
        break;
    case SEQ_OP_WRITE:
        g_string_append_printf(o, "write.%s ", seq_dtype_name(r[13]));
        addr8(o, r + 16);
        if (r[12] == 0) {
            g_string_append_printf(o, ", r%u", r[14]);
        } else {
            g_string_append(o, ", ");
            hex(o, rd32(r + 24));
        }
        break;
    case SEQ_OP_NOTIFY:
        g_string_append_printf(o, "notify %u, ", r[12]);
        if (r[13] == 0) {
            g_string_append_printf(o, "r%u", r[14]);
        } else {
            hex(o, rd32(r + 16));
        }
        break;
    case SEQ_OP_MOVE: {
        unsigned n = r[12];
        bool imm = r[14] == 1;
        g_string_append_printf(o, "mov.%s ", seq_dtype_name(r[13]));
        if (n == 1) {
            g_string_append_printf(o, "r%u, ", r[24]);
            if (imm) {
                hex(o, rd32(r + 32));
            } else {
                mov_src(o, r[16]);
            }
            break;
        }
        reg_list(o, r + 24, n);
        g_string_append(o, ", {");
        for (unsigned k = 0; k < n; k++) {
            if (k) {
                g_string_append(o, ", ");
            }
            if (imm) {
                hex(o, rd32(r + 32 + 4 * k));
            } else {
                mov_src(o, r[16 + k]);
            }
        }
        g_string_append_c(o, '}');
        break;
    }
    case SEQ_OP_ALU_OP: {
        bool wide = r[13] == SEQ_DT_I64 || r[13] == SEQ_DT_U64;
        bool unary = r[12] == 0x00 || r[12] == 0x01 || r[12] == 0x19;
        g_string_append_printf(o, "%s.%s", seq_alu_mnemonic(r[12]), seq_dtype_name(r[13]));
        if (r[15]) {
            g_string_append_printf(o, ".%s", seq_dtype_name(r[15]));
        }
        g_string_append_c(o, ' ');
        alu_opnd(o, wide, r[20], r[21]);
        g_string_append(o, ", ");
        alu_opnd(o, wide, r[16], r[17]);
        if (!unary) {
            g_string_append(o, ", ");
            if (r[14]) {
                hex(o, rd64(r + 24));
            } else {
                alu_opnd(o, wide, r[18], r[19]);
            }
        }
        break;
    }
    case SEQ_OP_COMPARE_BRANCH: {
        static const char *const cc[7] = {NULL, "lt", "le", "eq", "ne", "ge", "gt"};
        if (r[12] == 0) {
            g_string_append(o, r[15] ? "call " : "b ");
        } else {
            g_string_append_printf(o, "b%s.%s r%u, ", cc[r[12] & 7], seq_dtype_name(r[13]), r[32]);
            if (r[12] >= 9) {
                g_string_append_printf(o, "r%u, ", r[33]);
            } else {
                hex(o, rd32(r + 16));
                g_string_append(o, ", ");
            }
        }
        target(o, r);
        break;
    }
    case SEQ_OP_TENSOR_LOAD:
    case SEQ_OP_PSEUDO_TENSOR_LOAD:
        g_string_append_printf(o, "%s.%s ", d->mnemonic, T);
        reg_list(o, r + 32, r[14] * r[15]);
        g_string_append(o, ", ");
        if (r[0] == SEQ_OP_TENSOR_LOAD) {
            addr8(o, r + 16);
        } else {
            g_string_append_printf(o, "var(%" PRIu32 ")+0x%" PRIx32, rd32(r + 16), rd32(r + 20));
        }
        shape_step(o, r);
        break;
    case SEQ_OP_TENSOR_STORE:
    case SEQ_OP_PSEUDO_TENSOR_STORE:
        g_string_append_printf(o, "%s.%s ", d->mnemonic, T);
        if (r[0] == SEQ_OP_TENSOR_STORE) {
            addr8(o, r + 16);
        } else {
            g_string_append_printf(o, "var(%" PRIu32 ")+0x%" PRIx32, rd32(r + 16), rd32(r + 20));
        }
        g_string_append(o, ", ");
        mem2d_data(o, r, r[14] * r[15]);
        shape_step(o, r);
        break;
    case SEQ_OP_GROUP_RESET_SEMAPHORES:
        if (r[12] == 1) {
            g_string_append_printf(o, "semclr %u..%u", r[13], r[14]);
        } else {
            bool first = true;
            g_string_append(o, "semclr {");
            for (unsigned i = 0; i < 256; i++) {
                if (r[32 + (i >> 3)] >> (i & 7) & 1) {
                    g_string_append_printf(o, "%s%u", first ? "" : ", ", i);
                    first = false;
                }
            }
            g_string_append_c(o, '}');
        }
        break;
    case SEQ_OP_DMA_MEMCPY:
        g_string_append(o, "dma src=");
        addr8(o, r + 16);
        g_string_append_printf(o, " sshape=(%u,%u) sstep=(%d,%d) sesz=%u dst=", rd16(r + 32),
                               rd16(r + 34), (int32_t)rd32(r + 24), (int32_t)rd32(r + 28),
                               esz(rd16(r + 36)));
        addr8(o, r + 40);
        g_string_append_printf(o, " dshape=(%u,%u) dstep=(%d,%d) desz=%u", rd16(r + 56),
                               rd16(r + 58), (int32_t)rd32(r + 48), (int32_t)rd32(r + 52),
                               esz(rd16(r + 60)));
        dma_tail(o, r[13], r[14], r[15], r[62], r[12] & 7);
        break;
    case SEQ_OP_DMA_INDIRECT: {
        static const char *const modes[3] = {"gather", "scatter", "both"};
        unsigned m = r[15] & 3;
        g_string_append_printf(o, "dmai.%s src=", modes[m < 3 ? m : 0]);
        addr8(o, r + 16);
        g_string_append_printf(o, " sn=%u sstep=%d sesz=%u dst=", rd16(r + 28),
                               (int32_t)rd32(r + 24), esz(rd16(r + 30)));
        addr8(o, r + 32);
        g_string_append_printf(o, " dn=%u dstep=%d desz=%u", rd16(r + 44), (int32_t)rd32(r + 40),
                               esz(rd16(r + 46)));
        if (m == 0 || m == 2) {
            g_string_append_printf(o, " sidx=0x%" PRIx32, rd32(r + 48));
        }
        if (m == 1 || m == 2) {
            g_string_append_printf(o, " didx=0x%" PRIx32, rd32(r + 52));
        }
        dma_tail(o, r[12], r[13], r[60], r[56], r[61] & 7);
        if (r[15] & 0x08) {
            g_string_append(o, " dupok");
        }
        break;
    }
    case SEQ_OP_PSEUDO_FUNCTION_CALL: {
        const char *name = (const char *)r + 12;
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
    const SeqInsnDesc *d = seq_insn_desc(rec[0]);
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
