/*
 * Sequencer assembler: the instruction statement parser (sequencer.md
 * §11.2-§11.3).  Field legality beyond what the syntax fixes is not
 * re-implemented here: every encoded record is run through the insn.def
 * predicates, and a failure is reported by predicate name.
 */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "asm.h"
#include "insn.h"

#define P(name, v)       seq_field_put(r, SEQ_F_##name, v)
#define F(name)          seq_field_get(r, SEQ_F_##name)
#define PTR(name)        seq_field_ptr(r, SEQ_F_##name)
#define P_AT(name, k, v) seq_field_put_at(r, SEQ_F_##name, k, v)

/* shape=(n0,n1), step=(s0,s1) of mem_2d (M2D_N0/N1, M2D_S0/S1). */
static bool parse_shape_step(SeqAsmCur *c, uint8_t *r)
{
    uint64_t n0 = 0, n1 = 0, s0 = 0, s1 = 0;
    if (!seq_asm_expect(c, ",") || !seq_asm_expect_word(c, "shape") || !seq_asm_expect(c, "=") ||
        !seq_asm_expect(c, "(") || !seq_asm_uint(c, 255, &n0, "element count") ||
        !seq_asm_expect(c, ",") || !seq_asm_uint(c, 255, &n1, "element count") ||
        !seq_asm_expect(c, ")") || !seq_asm_expect(c, ",") || !seq_asm_expect_word(c, "step") ||
        !seq_asm_expect(c, "=") || !seq_asm_expect(c, "(") || !seq_asm_value(c, 32, &s0) ||
        !seq_asm_expect(c, ",") || !seq_asm_value(c, 32, &s1) || !seq_asm_expect(c, ")")) {
        return false;
    }
    P(M2D_N0, (uint8_t)n0);
    P(M2D_N1, (uint8_t)n1);
    P(M2D_S0, s0);
    P(M2D_S1, s1);
    return true;
}

/* ---- instruction forms ----------------------------------------------- */

static const char *const br_cc[7] = {NULL, "lt", "le", "eq", "ne", "ge", "gt"};
static const char *const dma_ops[5] = {NULL, "add", "mul", "max", "min"};
static const char *const dmai_modes[3] = {"gather", "scatter", "both"};

/* bCC mnemonic -> condition 1..6, else 0. */
static unsigned br_cc_code(const char *base)
{
    if (base[0] != 'b') {
        return 0;
    }
    for (unsigned cc = 1; cc < 7; cc++) {
        if (strcmp(br_cc[cc], base + 1) == 0) {
            return cc;
        }
    }
    return 0;
}

static bool need_dtype(SeqAsmCur *c, const char *sfx, int *dt)
{
    if (!sfx) {
        return seq_asm_error(c, "missing data type suffix");
    }
    *dt = seq_asm_dtype(sfx);
    if (*dt < 0) {
        return seq_asm_error(c, "unknown data type '%s'", sfx);
    }
    return true;
}

static bool form_write(SeqAsmCur *c, uint8_t *r)
{
    if (!seq_asm_addr8(c, PTR(WR_ADDR)) || !seq_asm_expect(c, ",")) {
        return false;
    }
    if (seq_asm_peek_reg(c)) {
        unsigned s;
        if (!seq_asm_reg(c, &s)) {
            return false;
        }
        P(WR_DATASRC, 0);
        P(WR_SRC_REG, (uint8_t)s);
    } else {
        uint64_t v;
        if (!seq_asm_value(c, 32, &v)) {
            return false;
        }
        P(WR_DATASRC, 1);
        P(WR_IMM, v);
    }
    return true;
}

static bool form_notify(SeqAsmCur *c, uint8_t *r)
{
    uint64_t q;
    if (!seq_asm_uint(c, 255, &q, "queue") || !seq_asm_expect(c, ",")) {
        return false;
    }
    P(NTF_QUEUE, (uint8_t)q);
    if (seq_asm_peek_reg(c)) {
        unsigned s;
        if (!seq_asm_reg(c, &s)) {
            return false;
        }
        P(NTF_SRC_REG, (uint8_t)s);
    } else {
        uint64_t v;
        if (!seq_asm_value(c, 32, &v)) {
            return false;
        }
        P(NTF_DATASRC, 1);
        P(NTF_IMM, v);
    }
    return true;
}

/* One MOVE source: register, pclo/pchi (is_reg) or immediate. */
static bool mov_source(SeqAsmCur *c, bool *is_reg, uint32_t *v)
{
    char id[16];
    if (seq_asm_peek_ident(c, id, sizeof(id)) &&
        (strcasecmp(id, "pclo") == 0 || strcasecmp(id, "pchi") == 0)) {
        seq_asm_ident(c, id, sizeof(id));
        *is_reg = true;
        *v = strcasecmp(id, "pclo") == 0 ? 128 : 129;
        return true;
    }
    if (seq_asm_peek_reg(c)) {
        unsigned rr;
        *is_reg = true;
        if (!seq_asm_reg(c, &rr)) {
            return false;
        }
        *v = rr;
        return true;
    }
    uint64_t x;
    *is_reg = false;
    if (!seq_asm_value(c, 32, &x)) {
        return false;
    }
    *v = (uint32_t)x;
    return true;
}

static bool form_mov(SeqAsmCur *c, uint8_t *r)
{
    uint8_t dst[8];
    unsigned nd, ns = 0;
    bool list = seq_asm_accept(c, "{");
    if (list) {
        c->p--;
        if (!seq_asm_reg_list(c, dst, 8, &nd)) {
            return false;
        }
    } else {
        unsigned d;
        if (!seq_asm_reg(c, &d)) {
            return false;
        }
        dst[0] = (uint8_t)d;
        nd = 1;
    }
    if (!seq_asm_expect(c, ",") || (list && !seq_asm_expect(c, "{"))) {
        return false;
    }
    int kind = -1;
    do {
        bool is_reg;
        uint32_t v;
        seq_asm_ws(c);
        const char *start = c->p;
        if (ns == 8) {
            return seq_asm_error(c, "more than 8 sources");
        }
        if (!mov_source(c, &is_reg, &v)) {
            return false;
        }
        if (kind >= 0 && kind != is_reg) {
            c->tok = start;
            return seq_asm_error(c, "sources must be all registers or all immediates");
        }
        kind = is_reg;
        if (is_reg) {
            seq_field_put_at(r, SEQ_F_MV_SRC, ns, v);
        } else {
            seq_field_put_at(r, SEQ_F_MV_IMM, ns, v);
        }
        ns++;
    } while (list && seq_asm_accept(c, ","));
    if (list && !seq_asm_expect(c, "}")) {
        return false;
    }
    if (ns != nd) {
        return seq_asm_error(c, "%u destinations but %u sources", nd, ns);
    }
    if (nd == 0) {
        return seq_asm_error(c, "empty move");
    }
    P(MV_NUM, (uint8_t)nd);
    P(MV_SOURCE, kind ? 0 : 1);
    memcpy(PTR(MV_DST), dst, nd);
    return true;
}

/* ALU register operand: rN (32-bit) or rH:rL (64-bit). */
static bool alu_reg(SeqAsmCur *c, bool wide, uint8_t *lo, uint8_t *hi)
{
    unsigned a, b;
    if (wide) {
        if (!seq_asm_pair(c, &a, &b)) {
            return false;
        }
        *hi = (uint8_t)a;
        *lo = (uint8_t)b;
        return true;
    }
    if (!seq_asm_reg(c, &a)) {
        return false;
    }
    *lo = (uint8_t)a;
    return true;
}

static bool form_alu(SeqAsmCur *c, uint8_t *r, unsigned op, const char *t1, const char *t2)
{
    int dt = 0, dt2 = 0;
    if (!need_dtype(c, t1, &dt) || (t2 && !need_dtype(c, t2, &dt2))) {
        return false;
    }
    bool wide = dt == SEQ_DT_I64 || dt == SEQ_DT_U64;
    bool unary = seq_alu_unary(op);
    P(ALU_OP, (uint8_t)op);
    P(ALU_DTYPE, (uint8_t)dt);
    P(ALU_DST_DTYPE, (uint8_t)dt2);
    if (!alu_reg(c, wide, PTR(ALU_DST_LO), PTR(ALU_DST_HI)) || !seq_asm_expect(c, ",") ||
        !alu_reg(c, wide, PTR(ALU_SRC0_LO), PTR(ALU_SRC0_HI))) {
        return false;
    }
    if (unary) {
        return true;
    }
    if (!seq_asm_expect(c, ",")) {
        return false;
    }
    if (seq_asm_peek_reg(c)) {
        return alu_reg(c, wide, PTR(ALU_SRC1_LO), PTR(ALU_SRC1_HI));
    }
    uint64_t v;
    if (!seq_asm_value(c, wide ? 64 : 32, &v)) {
        return false;
    }
    P(ALU_DATASRC, 1);
    P(ALU_IMM, v);
    return true;
}

/* Branch target TGT into BR_TARGET_MODE, BR_TGT_LO/HI, BR_TARGET_IMM. */
static bool parse_target(SeqAsmCur *c, uint8_t *r)
{
    char id[128];
    seq_asm_ws(c);
    c->tok = c->p;
    if (c->p[0] == '.' && (c->p[1] == '+' || c->p[1] == '-')) {
        bool minus = c->p[1] == '-';
        c->p += 2;
        if (!minus && seq_asm_peek_reg(c)) {
            unsigned n;
            if (!seq_asm_reg(c, &n)) {
                return false;
            }
            P(BR_TARGET_MODE, SEQ_TGT_REL_REGISTER);
            P(BR_TGT_LO, (uint8_t)n);
            return true;
        }
        SeqAsmNum n;
        if (!seq_asm_number(c, &n)) {
            return false;
        }
        if (n.neg) {
            return seq_asm_error(c, "expected .+N or .-N");
        }
        int64_t off = minus ? -(int64_t)n.v : (int64_t)n.v;
        if (n.v > 0x80000000ull || (!minus && n.v > 0x7FFFFFFF)) {
            return seq_asm_error(c, "branch offset does not fit in 32 bits");
        }
        P(BR_TARGET_MODE, SEQ_TGT_REL_IMM);
        P(BR_TARGET_IMM, (uint32_t)off); /* REL_IMM: bits 63..32 stay 0 */
        return true;
    }
    if (seq_asm_peek_reg(c)) {
        unsigned hi, lo;
        if (!seq_asm_pair(c, &hi, &lo)) {
            return false;
        }
        P(BR_TARGET_MODE, SEQ_TGT_REGISTER);
        P(BR_TGT_LO, (uint8_t)lo);
        P(BR_TGT_HI, (uint8_t)hi);
        return true;
    }
    const char *save = c->p;
    if (seq_asm_ident(c, id, sizeof(id)) && strcasecmp(id, "abs") == 0 && !seq_asm_at_end(c)) {
        uint64_t v;
        if (!seq_asm_value(c, 64, &v)) {
            return false;
        }
        P(BR_TARGET_MODE, SEQ_TGT_ABS_IMM);
        P(BR_TARGET_IMM, v);
        return true;
    }
    c->p = save;
    uint64_t v;
    if (!seq_asm_value(c, 64, &v)) {
        return false;
    }
    int64_t off = (int64_t)(v - c->pc);
    if (off < INT32_MIN || off > INT32_MAX) {
        c->tok = save;
        return seq_asm_error(c, "branch target out of range of a relative branch (use 'abs')");
    }
    P(BR_TARGET_MODE, SEQ_TGT_REL_IMM);
    P(BR_TARGET_IMM, (uint32_t)off); /* REL_IMM: bits 63..32 stay 0 */
    return true;
}

static bool form_branch(SeqAsmCur *c, uint8_t *r, unsigned cc, const char *sfx)
{
    if (cc == 0) {
        if (sfx) {
            return seq_asm_error(c, "unconditional branch takes no data type");
        }
        return parse_target(c, r);
    }
    int dt = 0;
    unsigned lhs;
    if (!need_dtype(c, sfx, &dt) || !seq_asm_reg(c, &lhs) || !seq_asm_expect(c, ",")) {
        return false;
    }
    P(BR_DTYPE, (uint8_t)dt);
    P(BR_LHS, (uint8_t)lhs);
    if (seq_asm_peek_reg(c)) {
        unsigned rhs;
        if (!seq_asm_reg(c, &rhs)) {
            return false;
        }
        P(BR_CMP_OP, (uint8_t)(cc + 8));
        P(BR_RHS, (uint8_t)rhs);
    } else {
        uint64_t v;
        if (!seq_asm_value(c, 32, &v)) {
            return false;
        }
        P(BR_CMP_OP, (uint8_t)cc);
        P(BR_RHS_IMM, v);
    }
    return seq_asm_expect(c, ",") && parse_target(c, r);
}

/* `#{v, ...}` packed immediates of esize bytes in M2D_DATA. */
static bool parse_imm_list(SeqAsmCur *c, uint8_t *r, unsigned esize, unsigned *count)
{
    unsigned n = 0;
    if (!seq_asm_expect(c, "#") || !seq_asm_expect(c, "{")) {
        return false;
    }
    if (seq_asm_accept(c, "}")) {
        *count = 0;
        return true;
    }
    do {
        uint64_t v;
        if (esize == 0 || (n + 1) * esize > seq_field_bytes(SEQ_F_M2D_DATA)) {
            return seq_asm_error(c, "too many immediates for the data field");
        }
        if (!seq_asm_value(c, esize * 8, &v)) {
            return false;
        }
        for (unsigned i = 0; i < esize; i++) {
            seq_field_put_at(r, SEQ_F_M2D_DATA, n * esize + i, v >> (8 * i));
        }
        n++;
    } while (seq_asm_accept(c, ","));
    *count = n;
    return seq_asm_expect(c, "}");
}

/* var(ID)+OFF into PM2D_VAR_ID/VAR_OFFSET of a pseudo mem_2d. */
static bool parse_var(SeqAsmCur *c, uint8_t *r)
{
    uint64_t id = 0, off = 0;
    if (!seq_asm_expect_word(c, "var") || !seq_asm_expect(c, "(") ||
        !seq_asm_uint(c, 0xFFFFFFFFu, &id, "var_id") || !seq_asm_expect(c, ")")) {
        return false;
    }
    if (seq_asm_accept(c, "+") && !seq_asm_uint(c, 0xFFFFFFFFu, &off, "var_offset")) {
        return false;
    }
    P(PM2D_VAR_ID, id);
    P(PM2D_VAR_OFFSET, off);
    return true;
}

static bool form_mem2d(SeqAsmCur *c, uint8_t *r, bool store, bool pseudo, const char *sfx)
{
    int dt = 0;
    unsigned n = 0;
    if (!need_dtype(c, sfx, &dt)) {
        return false;
    }
    P(M2D_DTYPE, (uint8_t)dt);
    const char *list_tok;
    if (!store) {
        seq_asm_ws(c);
        list_tok = c->p;
        if (!seq_asm_reg_list(c, PTR(M2D_DATA), SEQ_F_M2D_DATA_N, &n) || !seq_asm_expect(c, ",") ||
            !(pseudo ? parse_var(c, r) : seq_asm_addr8(c, PTR(M2D_ADDR)))) {
            return false;
        }
    } else {
        if (!(pseudo ? parse_var(c, r) : seq_asm_addr8(c, PTR(M2D_ADDR))) ||
            !seq_asm_expect(c, ",")) {
            return false;
        }
        seq_asm_ws(c);
        list_tok = c->p;
        if (seq_asm_accept(c, "#")) {
            c->p--;
            P(M2D_DATASRC, 1);
            if (!parse_imm_list(c, r, seq_dtype_size((unsigned)dt), &n)) {
                return false;
            }
        } else if (!seq_asm_reg_list(c, PTR(M2D_DATA), SEQ_F_M2D_DATA_N, &n)) {
            return false;
        }
    }
    if (!parse_shape_step(c, r)) {
        return false;
    }
    if (n != (unsigned)(F(M2D_N0) * F(M2D_N1))) {
        c->tok = list_tok;
        return seq_asm_error(c, "list has %u entries but shape needs %u", n,
                             (unsigned)(F(M2D_N0) * F(M2D_N1)));
    }
    return true;
}

static bool form_semclr(SeqAsmCur *c, uint8_t *r)
{
    uint64_t a = 0, b = 0;
    if (seq_asm_accept(c, "{")) {
        P(GRST_MODE, 2);
        if (seq_asm_accept(c, "}")) {
            return true;
        }
        do {
            if (!seq_asm_uint(c, 255, &a, "semaphore")) {
                return false;
            }
            P_AT(GRST_MASK, a >> 5, seq_field_get_at(r, SEQ_F_GRST_MASK, a >> 5) | 1u << (a & 31));
        } while (seq_asm_accept(c, ","));
        return seq_asm_expect(c, "}");
    }
    if (!seq_asm_uint(c, 255, &a, "semaphore") || !seq_asm_expect(c, "..") ||
        !seq_asm_uint(c, 255, &b, "semaphore")) {
        return false;
    }
    P(GRST_MODE, 1);
    P(GRST_FIRST, (uint8_t)a);
    P(GRST_LAST, (uint8_t)b);
    return true;
}

/* Key table of the dma/dmai forms. */
enum { K_ADDR, K_PAIR16, K_PAIR32, K_U16, K_I32, K_ESZ, K_U8, K_U32, K_OP, K_DT, K_FLAG };
typedef struct DmaKey {
    const char *name;
    unsigned kind, off, off2;
    bool required;
} DmaKey;

/* off: the field (fields.def); off2: the second field of a pair (shape,
 * step) or the out_dtype of dt=. */
#define K(name, kind, f, f2, req)                                                                  \
    {                                                                                              \
        name, kind, SEQ_F_##f, SEQ_F_##f2, req                                                     \
    }
static const DmaKey dma_keys[] = {
    K("src", K_ADDR, DMA_SRC_ADDR, DMA_SRC_ADDR, true),
    K("sshape", K_PAIR16, DMA_SRC_N0, DMA_SRC_N1, true),
    K("sstep", K_PAIR32, DMA_SRC_STEP0, DMA_SRC_STEP1, true),
    K("sesz", K_ESZ, DMA_SRC_ESIZE, DMA_SRC_ESIZE, true),
    K("dst", K_ADDR, DMA_DST_ADDR, DMA_DST_ADDR, true),
    K("dshape", K_PAIR16, DMA_DST_N0, DMA_DST_N1, true),
    K("dstep", K_PAIR32, DMA_DST_STEP0, DMA_DST_STEP1, true),
    K("desz", K_ESZ, DMA_DST_ESIZE, DMA_DST_ESIZE, true),
    K("sem", K_U8, DMA_SEM, DMA_SEM, true),
    K("inc", K_U8, DMA_SEM_INC, DMA_SEM_INC, true),
    K("op", K_OP, DMA_COMPUTE_OP, DMA_COMPUTE_OP, false),
    K("dt", K_DT, DMA_IN_DTYPE, DMA_OUT_DTYPE, false),
    K("prio", K_U8, DMA_CONFIGS, DMA_CONFIGS, false),
    {NULL, 0, 0, 0, false},
};

static const DmaKey dmai_keys[] = {
    K("src", K_ADDR, DMAI_SRC_ADDR, DMAI_SRC_ADDR, true),
    K("sn", K_U16, DMAI_SRC_N, DMAI_SRC_N, true),
    K("sstep", K_I32, DMAI_SRC_STEP, DMAI_SRC_STEP, true),
    K("sesz", K_ESZ, DMAI_SRC_ESIZE, DMAI_SRC_ESIZE, true),
    K("dst", K_ADDR, DMAI_DST_ADDR, DMAI_DST_ADDR, true),
    K("dn", K_U16, DMAI_DST_N, DMAI_DST_N, true),
    K("dstep", K_I32, DMAI_DST_STEP, DMAI_DST_STEP, true),
    K("desz", K_ESZ, DMAI_DST_ESIZE, DMAI_DST_ESIZE, true),
    K("sidx", K_U32, DMAI_SRC_IDX, DMAI_SRC_IDX, false),
    K("didx", K_U32, DMAI_DST_IDX, DMAI_DST_IDX, false),
    K("sem", K_U8, DMAI_SEM, DMAI_SEM, true),
    K("inc", K_U8, DMAI_SEM_INC, DMAI_SEM_INC, true),
    K("op", K_OP, DMAI_COMPUTE_OP, DMAI_COMPUTE_OP, false),
    K("dt", K_DT, DMAI_IN_DTYPE, DMAI_OUT_DTYPE, false),
    K("prio", K_U8, DMAI_CONFIGS, DMAI_CONFIGS, false),
    K("dupok", K_FLAG, DMAI_NON_UNIQUE_DST, DMAI_NON_UNIQUE_DST, false),
    {NULL, 0, 0, 0, false},
};
#undef K

static bool form_dma(SeqAsmCur *c, uint8_t *r, const DmaKey *keys)
{
    bool seen[20] = {false};
    char id[32];
    while (!seq_asm_at_end(c)) {
        const char *save = c->p;
        if (!seq_asm_peek_ident(c, id, sizeof(id))) {
            char t[32];
            seq_asm_tok_text(c, t, sizeof(t));
            return seq_asm_error(c, "unexpected '%s'", t);
        }
        unsigned k;
        for (k = 0; keys[k].name && strcasecmp(keys[k].name, id) != 0; k++) {
        }
        if (!keys[k].name) {
            /* Not a key: the modifiers follow. */
            if (!strcasecmp(id, "wait") || !strcasecmp(id, "post") || !strcasecmp(id, "post.r") ||
                !strcasecmp(id, "dbg")) {
                break;
            }
            seq_asm_ident(c, id, sizeof(id));
            return seq_asm_error(c, "unknown operand '%s'", id);
        }
        seq_asm_ident(c, id, sizeof(id));
        if (seen[k]) {
            c->tok = save;
            return seq_asm_error(c, "operand '%s' given twice", keys[k].name);
        }
        seen[k] = true;
        const DmaKey *d = &keys[k];
        uint64_t a = 0, b = 0;
        if (d->kind == K_FLAG) {
            P(DMAI_NON_UNIQUE_DST, 1); /* the only flag key */
            continue;
        }
        if (!seq_asm_expect(c, "=")) {
            return false;
        }
        switch (d->kind) {
        case K_ADDR:
            if (!seq_asm_addr8(c, r + d->off)) {
                return false;
            }
            break;
        case K_PAIR16:
            if (!seq_asm_expect(c, "(") || !seq_asm_uint(c, 0xFFFF, &a, "element count") ||
                !seq_asm_expect(c, ",") || !seq_asm_uint(c, 0xFFFF, &b, "element count") ||
                !seq_asm_expect(c, ")")) {
                return false;
            }
            seq_le_put(r + d->off, 2, a);
            seq_le_put(r + d->off2, 2, b);
            break;
        case K_PAIR32:
            if (!seq_asm_expect(c, "(") || !seq_asm_value(c, 32, &a) || !seq_asm_expect(c, ",") ||
                !seq_asm_value(c, 32, &b) || !seq_asm_expect(c, ")")) {
                return false;
            }
            seq_le_put(r + d->off, 4, a);
            seq_le_put(r + d->off2, 4, b);
            break;
        case K_U16:
            if (!seq_asm_uint(c, 0xFFFF, &a, "element count")) {
                return false;
            }
            seq_le_put(r + d->off, 2, a);
            break;
        case K_I32:
            if (!seq_asm_value(c, 32, &a)) {
                return false;
            }
            seq_le_put(r + d->off, 4, a);
            break;
        case K_ESZ:
            if (!seq_asm_uint(c, SEQ_Z64K_MAX, &a, "element size")) {
                return false;
            }
            seq_le_put(r + d->off, 2, a); /* Z64K: SEQ_Z64K_MAX is stored as 0 */
            break;
        case K_U8:
            if (!seq_asm_uint(c, 255, &a, keys[k].name)) {
                return false;
            }
            r[d->off] = (uint8_t)(r[d->off] | a);
            break;
        case K_U32:
            if (!seq_asm_uint(c, 0xFFFFFFFFu, &a, keys[k].name)) {
                return false;
            }
            seq_le_put(r + d->off, 4, a);
            break;
        case K_OP: {
            unsigned o;
            if (!seq_asm_ident(c, id, sizeof(id))) {
                return seq_asm_error(c, "expected add, mul, max or min");
            }
            for (o = 1; o < 5 && strcasecmp(dma_ops[o], id) != 0; o++) {
            }
            if (o == 5) {
                return seq_asm_error(c, "expected add, mul, max or min");
            }
            r[d->off] = (uint8_t)o;
            break;
        }
        case K_DT: {
            int dt = 0;
            if (!seq_asm_ident(c, id, sizeof(id)) || (dt = seq_asm_dtype(id)) < 0) {
                return seq_asm_error(c, "expected a data type");
            }
            r[d->off] = r[d->off2] = (uint8_t)dt;
            break;
        }
        }
    }
    for (unsigned k = 0; keys[k].name; k++) {
        if (keys[k].required && !seen[k]) {
            return seq_asm_error(c, "missing operand '%s='", keys[k].name);
        }
    }
    return true;
}

static bool form_pcall(SeqAsmCur *c, uint8_t *r)
{
    seq_asm_ws(c);
    c->tok = c->p;
    if (*c->p != '"') {
        return seq_asm_error(c, "expected a quoted function name");
    }
    const char *s = c->p + 1, *e = strchr(s, '"');
    if (!e) {
        return seq_asm_error(c, "unterminated string");
    }
    if (e == s || e - s > (ptrdiff_t)seq_field_bytes(SEQ_F_PCALL_NAME) - 1) {
        return seq_asm_error(c, "function name must have 1..35 characters");
    }
    memcpy(PTR(PCALL_NAME), s, (size_t)(e - s));
    c->p = e + 1;
    return true;
}

bool seq_asm_insn(SeqAsmCur *c, uint8_t rec[64])
{
    char mn[64];
    char *parts[4] = {NULL};
    unsigned np = 0;
    uint8_t *r = rec;
    memset(r, 0, 64);
    P(HDR_WORD_LEN, 0x10);
    if (!seq_asm_ident(c, mn, sizeof(mn))) {
        return seq_asm_error(c, "expected an instruction");
    }
    const char *mn_tok = c->tok;
    for (char *p = mn; *p; p++) {
        *p = (char)tolower((unsigned char)*p);
    }
    for (char *s = mn, *save = NULL; np < 4 && (s = strtok_r(s, ".", &save)); s = NULL) {
        parts[np++] = s;
    }
    if (np == 0 || mn[0] == '.') {
        c->tok = mn_tok;
        return seq_asm_error(c, "unknown instruction '%s'", mn);
    }
    const char *base = parts[0], *t1 = np > 1 ? parts[1] : NULL, *t2 = np > 2 ? parts[2] : NULL;
    /* The mnemonic column of insn.def names every fixed-mnemonic form;
     * conditional branches, call and the ALU op names are derived. */
    int opc = seq_opcode_by_mnemonic(base);
    unsigned cc = br_cc_code(base), alu_op = 0;
    if (!strcmp(base, "call") || cc) {
        opc = SEQ_OP_COMPARE_BRANCH;
    } else if (opc < 0 || opc == SEQ_OP_ALU_OP) {
        for (alu_op = 0; alu_op < 256; alu_op++) {
            if (seq_alu_mnemonic(alu_op) && !strcmp(seq_alu_mnemonic(alu_op), base)) {
                break;
            }
        }
        opc = alu_op < 256 ? SEQ_OP_ALU_OP : -1;
    }
    if (opc < 0) {
        c->tok = mn_tok;
        return seq_asm_error(c, "unknown instruction '%s'", base);
    }
    unsigned max_sfx = 0;
    switch (opc) {
    case SEQ_OP_ALU_OP:
        max_sfx = 2;
        break;
    case SEQ_OP_WRITE:
    case SEQ_OP_MOVE:
    case SEQ_OP_COMPARE_BRANCH:
    case SEQ_OP_TENSOR_LOAD:
    case SEQ_OP_TENSOR_STORE:
    case SEQ_OP_PSEUDO_TENSOR_LOAD:
    case SEQ_OP_PSEUDO_TENSOR_STORE:
    case SEQ_OP_DMA_INDIRECT:
        max_sfx = 1;
        break;
    }
    if (np - 1 > max_sfx) {
        c->tok = mn_tok;
        return seq_asm_error(c, "unexpected suffix '.%s'", parts[max_sfx + 1]);
    }
    bool ok = true, mods = true;
    int dt = 0;
    P(HDR_OPCODE, (uint8_t)opc);
    switch (opc) {
    case SEQ_OP_EVENT_SEMAPHORE:
        ok = seq_asm_evsem(c, r);
        mods = false;
        break;
    case SEQ_OP_PSEUDO_INST:
        P(PEXIT_SUBOP, 1); /* pexit: sub-op EXIT */
        break;
    case SEQ_OP_DRAIN:
        P(DRAIN_COUNT, 1);
        seq_asm_ws(c);
        if (isdigit((unsigned char)*c->p)) {
            uint64_t v = 0;
            ok = seq_asm_uint(c, 1, &v, "drain count");
            P(DRAIN_COUNT, (uint8_t)v);
        }
        break;
    case SEQ_OP_WRITE:
        ok = need_dtype(c, t1, &dt) && form_write(c, r);
        P(WR_DTYPE, (uint8_t)dt);
        break;
    case SEQ_OP_NOTIFY:
        ok = form_notify(c, r);
        break;
    case SEQ_OP_MOVE:
        ok = need_dtype(c, t1, &dt) && form_mov(c, r);
        P(MV_DTYPE, (uint8_t)dt);
        break;
    case SEQ_OP_ALU_OP:
        ok = form_alu(c, r, alu_op, t1, t2);
        break;
    case SEQ_OP_COMPARE_BRANCH:
        P(BR_LINK, !strcmp(base, "call"));
        ok = form_branch(c, r, cc, t1);
        break;
    case SEQ_OP_TENSOR_LOAD:
    case SEQ_OP_TENSOR_STORE:
    case SEQ_OP_PSEUDO_TENSOR_LOAD:
    case SEQ_OP_PSEUDO_TENSOR_STORE:
        ok = form_mem2d(c, r, opc == SEQ_OP_TENSOR_STORE || opc == SEQ_OP_PSEUDO_TENSOR_STORE,
                        opc >= SEQ_PSEUDO_FIRST, t1);
        break;
    case SEQ_OP_GROUP_RESET_SEMAPHORES:
        ok = form_semclr(c, r);
        break;
    case SEQ_OP_DMA_MEMCPY:
        ok = form_dma(c, r, dma_keys);
        break;
    case SEQ_OP_DMA_INDIRECT: {
        unsigned m;
        P(DMAI_ACTIVE_CHANNELS, 128); /* idx_num_active_channels: the only accepted value */
        for (m = 0; m < 3 && (!t1 || strcmp(dmai_modes[m], t1) != 0); m++) {
        }
        if (m == 3) {
            c->tok = mn_tok;
            return seq_asm_error(c, "dmai needs a mode suffix .gather, .scatter or .both");
        }
        P(DMAI_FLAGS, (uint8_t)m);
        ok = form_dma(c, r, dmai_keys);
        break;
    }
    case SEQ_OP_PSEUDO_FUNCTION_CALL:
        ok = form_pcall(c, r);
        break;
    default: /* halt, iflush, nop, pret, pbarrier: no operands */
        break;
    }
    if (!ok) {
        return false;
    }
    if (mods && !seq_asm_modifiers(c, r)) {
        return false;
    }
    if (!seq_asm_at_end(c)) {
        char t[32];
        seq_asm_tok_text(c, t, sizeof(t));
        return seq_asm_error(c, "unexpected '%s'", t);
    }
    unsigned bad = seq_check_predicates(r);
    if (bad) {
        c->tok = mn_tok;
        return seq_asm_error(c, "invalid instruction: fails predicate %s (%u)", seq_pred_name(bad),
                             bad);
    }
    return true;
}

bool seq_asm_insn_text(const char *text, uint64_t pc, SeqAsmLabelFn labels, void *opaque,
                       uint8_t rec[64], GString *err)
{
    GString *e = g_string_new(NULL);
    SeqAsmCur c = {.line = text, .p = text, .pc = pc, .labels = labels, .opaque = opaque, .err = e};
    bool ok = seq_asm_insn(&c, rec);
    if (!ok && err) {
        g_string_printf(err, "%u: %s", c.err_col, e->str);
    }
    g_string_free(e, TRUE);
    return ok;
}
