/*
 * Sequencer decoder (sequencer.md §2.2 phase D): the tables generated from
 * insn.def and the operand extraction into SeqInsn.  The predicates
 * themselves are in predicates.c.
 */
#include <stdio.h>
#include <string.h>

#include "insn.h"

/* ---- tables generated from insn.def ----------------------------------- */

#define SEQ_INSN(opc, NAME, mn, ex, rsv, ...) static const uint16_t preds_##NAME[] = {__VA_ARGS__};
#define SEQ_PSEUDO(opc, NAME, mn, rsv, ...)   static const uint16_t preds_##NAME[] = {__VA_ARGS__};
#include "insn.def"

#define NPREDS(a) ((unsigned)(sizeof(a) / sizeof((a)[0])))
static const SeqInsnDesc seq_descs[256] = {
#define SEQ_INSN(opc, NAME, mn, ex, rsv, ...)                                                      \
    [opc] = {#NAME, mn, rsv, preds_##NAME, NPREDS(preds_##NAME), false},
#define SEQ_PSEUDO(opc, NAME, mn, rsv, ...)                                                        \
    [opc] = {#NAME, mn, rsv, preds_##NAME, NPREDS(preds_##NAME), true},
#include "insn.def"
};

typedef struct SeqAluDesc {
    const char *mnemonic;
    bool unary, fp32;
} SeqAluDesc;

static const SeqAluDesc seq_alu_ops[256] = {
#define SEQ_ALU_OP(code, NAME, mn, un, fp) [code] = {mn, un, fp},
#include "insn.def"
};

const char *seq_alu_mnemonic(unsigned op)
{
    return op < 256 ? seq_alu_ops[op].mnemonic : NULL;
}

bool seq_alu_unary(unsigned op)
{
    return op < 256 && seq_alu_ops[op].unary;
}

bool seq_alu_fp32(unsigned op)
{
    return op < 256 && seq_alu_ops[op].fp32;
}

static const char *const seq_pred_names[128] = {
#define SEQ_PRED(id, name) [id] = #name,
#include "predicates.def"
#undef SEQ_PRED
};

const SeqInsnDesc *seq_insn_desc(unsigned opcode)
{
    if (opcode > 255 || !seq_descs[opcode].name) {
        return NULL;
    }
    return &seq_descs[opcode];
}

bool seq_opcode_defined(unsigned opcode)
{
    const SeqInsnDesc *d = seq_insn_desc(opcode);
    return d && !d->pseudo;
}

int seq_opcode_by_mnemonic(const char *mnemonic)
{
    for (unsigned op = 0; op < 256; op++) {
        if (seq_descs[op].name && strcmp(seq_descs[op].mnemonic, mnemonic) == 0) {
            return (int)op;
        }
    }
    return -1;
}

const char *seq_opcode_name(unsigned opcode)
{
    const SeqInsnDesc *d = seq_insn_desc(opcode);
    return d ? d->name : NULL;
}

const char *seq_pred_name(unsigned id)
{
    return id < 128 ? seq_pred_names[id] : NULL;
}

void seq_pseudo_info_name(uint32_t info, char *buf, unsigned buflen)
{
    unsigned opc = info & 0xff;
    const SeqInsnDesc *d = seq_insn_desc(opc);
    if (opc == SEQ_OP_PSEUDO_INST) {
        snprintf(buf, buflen, "PSEUDO_INST/%u", (unsigned)(info >> 8) & 0xff);
    } else if (d && d->pseudo) {
        snprintf(buf, buflen, "%s", d->name);
    } else {
        snprintf(buf, buflen, "0x%02x", opc);
    }
}

/* ---- dtypes ---------------------------------------------------------- */

static const struct {
    const char *name;
    uint8_t size;
} seq_dtypes[16] = {
#define SEQ_DTYPE(code, NAME, asmname, sz) [code] = {asmname, sz},
#include "insn.def"
};

unsigned seq_dtype_size(unsigned dt)
{
    return dt < 16 ? seq_dtypes[dt].size : 0;
}

const char *seq_dtype_name(unsigned dt)
{
    return dt < 16 ? seq_dtypes[dt].name : NULL;
}

/* ---- byte helpers ---------------------------------------------------- */

static inline uint16_t rd16(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t rd64(const uint8_t *p)
{
    return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32;
}

static uint32_t esz_decode(uint16_t v)
{
    return v ? v : 65536u;
}

static void addr8_extract(const uint8_t *a, SeqAddr8 *o)
{
    int mode = seq_addr8_mode(a);
    memset(o, 0, sizeof(*o));
    o->mode = (uint8_t)mode;
    switch (mode) {
    case SEQ_ADDR_IMM:
        o->imm = rd64(a);
        break;
    case SEQ_ADDR_REG:
        o->reg_lo = a[0];
        o->reg_hi = a[1];
        break;
    case SEQ_ADDR_TBL_IMM32:
        o->imm = rd32(a);
        o->index = a[6];
        break;
    case SEQ_ADDR_TBL_IMM48:
        o->imm = rd64(a) & 0xFFFFFFFFFFFFULL;
        o->index = a[6];
        break;
    case SEQ_ADDR_TBL_REG:
        o->reg_lo = a[0];
        o->index = a[6];
        break;
    case SEQ_ADDR_TBL_REG64:
        o->reg_lo = a[0];
        o->reg_hi = a[1];
        o->index = a[6];
        break;
    }
}

/* ---- operand extraction ---------------------------------------------- */

static void set_wait(SeqWait *w, unsigned mode, unsigned idx, uint32_t v)
{
    w->mode = (uint8_t)mode;
    w->idx = (uint8_t)idx;
    w->value = v;
}

static void set_update(SeqUpdate *u, unsigned mode, unsigned idx, uint32_t v)
{
    u->mode = (uint8_t)mode;
    u->kind = (uint8_t)(mode & 0x0F);
    u->complete = (mode & 0x10) != 0;
    u->idx = (uint8_t)idx;
    u->value = v;
}

static void extract(const uint8_t *r, SeqInsn *o)
{
    switch (r[0]) {
    case SEQ_OP_EVENT_SEMAPHORE:
        set_wait(&o->wait[1], r[32], r[33], rd32(r + 36));
        set_update(&o->update, r[34], r[35], rd32(r + 40));
        break;
    case SEQ_OP_DRAIN:
        o->u.drain_count = r[40];
        break;
    case SEQ_OP_WRITE:
        o->u.wr.src_imm = r[12] == 1;
        o->u.wr.dtype = r[13];
        o->u.wr.src_reg = r[14];
        o->u.wr.imm = rd32(r + 24);
        addr8_extract(r + 16, &o->u.wr.addr);
        break;
    case SEQ_OP_NOTIFY:
        o->u.ntf.queue = r[12];
        o->u.ntf.src_imm = r[13] == 1;
        o->u.ntf.src_reg = r[14];
        o->u.ntf.imm = rd32(r + 16);
        break;
    case SEQ_OP_MOVE:
        o->u.mv.num = r[12];
        o->u.mv.dtype = r[13];
        o->u.mv.src_imm = r[14] == 1;
        memcpy(o->u.mv.src, r + 16, 8);
        memcpy(o->u.mv.dst, r + 24, 8);
        for (unsigned k = 0; k < 8; k++) {
            o->u.mv.imm[k] = rd32(r + 32 + 4 * k);
        }
        break;
    case SEQ_OP_ALU_OP: {
        SeqAlu *a = &o->u.alu;
        a->op = r[12];
        a->dtype = r[13];
        a->src_imm = r[14] == 1;
        a->dst_dtype = r[15];
        a->wide = r[13] == SEQ_DT_I64 || r[13] == SEQ_DT_U64;
        a->src0_lo = r[16];
        a->src0_hi = r[17];
        a->src1_lo = r[18];
        a->src1_hi = r[19];
        a->dst_lo = r[20];
        a->dst_hi = r[21];
        a->imm = rd64(r + 24);
        break;
    }
    case SEQ_OP_COMPARE_BRANCH: {
        SeqBranch *b = &o->u.br;
        b->cmp_op = r[12];
        b->cond = r[12] & 7;
        b->rhs_is_reg = r[12] >= 9;
        b->dtype = r[13];
        b->target_mode = r[14];
        b->link = r[15] == 1;
        b->rhs_imm = rd32(r + 16);
        b->lhs = r[32];
        b->rhs = r[33];
        b->tgt_lo = r[34];
        b->tgt_hi = r[35];
        b->target_imm = rd64(r + 48);
        b->rel = (int32_t)rd32(r + 48);
        break;
    }
    case SEQ_OP_TENSOR_LOAD:
    case SEQ_OP_TENSOR_STORE: {
        SeqMem2d *m = &o->u.m2d;
        m->dtype = r[12];
        m->esize = (uint8_t)seq_dtype_size(r[12]);
        m->src_imm = r[0] == SEQ_OP_TENSOR_STORE && r[13] == 1;
        m->n0 = r[14];
        m->n1 = r[15];
        m->nelem = (uint8_t)(r[14] * r[15]);
        addr8_extract(r + 16, &m->addr);
        m->s0 = (int32_t)rd32(r + 24);
        m->s1 = (int32_t)rd32(r + 28);
        memcpy(m->data, r + 32, 32);
        break;
    }
    case SEQ_OP_GROUP_RESET_SEMAPHORES: {
        SeqSemclr *g = &o->u.grst;
        g->mode = r[12];
        g->first = r[13];
        g->last = r[14];
        if (g->mode == 1) {
            memset(g->mask, 0, sizeof(g->mask));
            for (unsigned i = g->first; i <= g->last; i++) {
                g->mask[i >> 5] |= 1u << (i & 31);
            }
        } else {
            for (unsigned w = 0; w < 8; w++) {
                g->mask[w] = rd32(r + 32 + 4 * w);
            }
        }
        break;
    }
    case SEQ_OP_DMA_MEMCPY: {
        SeqDma *d = &o->u.dma;
        d->prio = r[12] & 7;
        d->sem = r[13];
        d->sem_inc = r[14];
        d->compute_op = r[15];
        addr8_extract(r + 16, &d->src);
        d->sstep[0] = (int32_t)rd32(r + 24);
        d->sstep[1] = (int32_t)rd32(r + 28);
        d->sn[0] = rd16(r + 32);
        d->sn[1] = rd16(r + 34);
        d->sesz = esz_decode(rd16(r + 36));
        addr8_extract(r + 40, &d->dst);
        d->dstep[0] = (int32_t)rd32(r + 48);
        d->dstep[1] = (int32_t)rd32(r + 52);
        d->dn[0] = rd16(r + 56);
        d->dn[1] = rd16(r + 58);
        d->desz = esz_decode(rd16(r + 60));
        d->in_dtype = r[62];
        d->out_dtype = r[63];
        d->bytes = (uint64_t)d->sn[0] * d->sn[1] * d->sesz;
        break;
    }
    case SEQ_OP_DMA_INDIRECT: {
        SeqDmai *d = &o->u.dmai;
        d->sem = r[12];
        d->sem_inc = r[13];
        d->flags = r[15];
        d->mode = r[15] & 3;
        d->non_unique_dst = (r[15] >> 3) & 1;
        addr8_extract(r + 16, &d->src);
        d->sstep = (int32_t)rd32(r + 24);
        d->n = rd16(r + 28);
        d->esz = esz_decode(rd16(r + 30));
        addr8_extract(r + 32, &d->dst);
        d->dstep = (int32_t)rd32(r + 40);
        d->sidx = rd32(r + 48);
        d->didx = rd32(r + 52);
        d->in_dtype = r[56];
        d->out_dtype = r[57];
        d->compute_op = r[60];
        d->prio = r[61] & 7;
        break;
    }
    default:
        break;
    }
}

SeqDecodeResult seq_decode(const uint8_t rec[64], SeqInsn *out, NxFault *f)
{
    unsigned opc = rec[0];
    out->opcode = (uint8_t)opc;
    if (opc >= SEQ_PSEUDO_FIRST && opc <= SEQ_PSEUDO_LAST) {
        uint32_t info = opc == SEQ_OP_PSEUDO_INST ? opc | (uint32_t)rec[12] << 8 : opc;
        uint64_t addr = (opc == SEQ_OP_PSEUDO_TENSOR_LOAD || opc == SEQ_OP_PSEUDO_TENSOR_STORE)
                            ? rd32(rec + 16)
                            : 0;
        nx_fault_set(f, NX_FAULT_PSEUDO_UNLOWERED, info, addr);
        return SEQ_DECODE_FAULT;
    }
    if (!seq_opcode_defined(opc)) {
        nx_fault_set(f, NX_FAULT_INVALID_OPCODE, 0, 0);
        return SEQ_DECODE_FAULT;
    }
    unsigned bad = seq_check_predicates(rec);
    if (bad) {
        nx_fault_set(f, NX_FAULT_INVALID_INSTRUCTION, bad, 0);
        return SEQ_DECODE_FAULT;
    }
    memcpy(out->rec, rec, 64);
    out->debug_cmd = rec[2];
    out->debug_hint = rec[3];
    set_wait(&out->wait[0], rec[4], rec[5], rd32(rec + 8));
    set_wait(&out->wait[1], 0, 0, 0);
    if (opc == SEQ_OP_EVENT_SEMAPHORE) {
        set_update(&out->update, 0, 0, 0);
    } else {
        set_update(&out->update, rec[6], rec[7], rd32(rec + 8));
    }
    extract(rec, out);
    return SEQ_DECODE_OK;
}
