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

/* ---- operand extraction ---------------------------------------------- */

#define F(name)     seq_field_get(r, SEQ_F_##name)
#define FA(name, k) seq_field_get_at(r, SEQ_F_##name, k)
#define A8(a, name) seq_field_get(a, SEQ_F_ADDR8_##name)

static void addr8_extract(const uint8_t *a, SeqAddr8 *o)
{
    int mode = seq_addr8_mode(a);
    memset(o, 0, sizeof(*o));
    o->mode = (uint8_t)mode;
    switch (mode) {
    case SEQ_ADDR_IMM:
        o->imm = A8(a, IMM);
        break;
    case SEQ_ADDR_REG:
        o->reg_lo = A8(a, REG_LO);
        o->reg_hi = A8(a, REG_HI);
        break;
    case SEQ_ADDR_TBL_IMM32:
        o->imm = A8(a, OFF32);
        o->index = A8(a, INDEX);
        break;
    case SEQ_ADDR_TBL_IMM48:
        o->imm = A8(a, OFF48);
        o->index = A8(a, INDEX);
        break;
    case SEQ_ADDR_TBL_REG:
        o->reg_lo = A8(a, REG_LO);
        o->index = A8(a, INDEX);
        break;
    case SEQ_ADDR_TBL_REG64:
        o->reg_lo = A8(a, REG_LO);
        o->reg_hi = A8(a, REG_HI);
        o->index = A8(a, INDEX);
        break;
    }
}

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
    u->complete = (mode & SEQ_UPD_COMPLETE) != 0;
    u->idx = (uint8_t)idx;
    u->value = v;
}

static void extract(const uint8_t *r, SeqInsn *o)
{
    unsigned opc = F(HDR_OPCODE);
    switch (opc) {
    case SEQ_OP_EVENT_SEMAPHORE:
        set_wait(&o->wait[1], F(EVSEM_WAITB_MODE), F(EVSEM_WAITB_IDX), F(EVSEM_WAITB_VALUE));
        set_update(&o->update, F(EVSEM_UPD_MODE), F(EVSEM_UPD_IDX), F(EVSEM_UPD_VALUE));
        break;
    case SEQ_OP_DRAIN:
        o->u.drain_count = F(DRAIN_COUNT);
        break;
    case SEQ_OP_WRITE:
        o->u.wr.src_imm = F(WR_DATASRC) == 1;
        o->u.wr.dtype = F(WR_DTYPE);
        o->u.wr.src_reg = F(WR_SRC_REG);
        o->u.wr.imm = F(WR_IMM);
        addr8_extract(seq_field_ptr(r, SEQ_F_WR_ADDR), &o->u.wr.addr);
        break;
    case SEQ_OP_NOTIFY:
        o->u.ntf.queue = F(NTF_QUEUE);
        o->u.ntf.src_imm = F(NTF_DATASRC) == 1;
        o->u.ntf.src_reg = F(NTF_SRC_REG);
        o->u.ntf.imm = F(NTF_IMM);
        break;
    case SEQ_OP_MOVE:
        o->u.mv.num = F(MV_NUM);
        o->u.mv.dtype = F(MV_DTYPE);
        o->u.mv.src_imm = F(MV_SOURCE) == 1;
        for (unsigned k = 0; k < SEQ_F_MV_SRC_N; k++) {
            o->u.mv.src[k] = FA(MV_SRC, k);
            o->u.mv.dst[k] = FA(MV_DST, k);
            o->u.mv.imm[k] = FA(MV_IMM, k);
        }
        break;
    case SEQ_OP_ALU_OP: {
        SeqAlu *a = &o->u.alu;
        a->op = F(ALU_OP);
        a->dtype = F(ALU_DTYPE);
        a->src_imm = F(ALU_DATASRC) == 1;
        a->dst_dtype = F(ALU_DST_DTYPE);
        a->wide = a->dtype == SEQ_DT_I64 || a->dtype == SEQ_DT_U64;
        a->src0_lo = F(ALU_SRC0_LO);
        a->src0_hi = F(ALU_SRC0_HI);
        a->src1_lo = F(ALU_SRC1_LO);
        a->src1_hi = F(ALU_SRC1_HI);
        a->dst_lo = F(ALU_DST_LO);
        a->dst_hi = F(ALU_DST_HI);
        a->imm = F(ALU_IMM);
        break;
    }
    case SEQ_OP_COMPARE_BRANCH: {
        SeqBranch *b = &o->u.br;
        b->cmp_op = F(BR_CMP_OP);
        b->cond = b->cmp_op & 7;
        b->rhs_is_reg = b->cmp_op >= 9;
        b->dtype = F(BR_DTYPE);
        b->target_mode = F(BR_TARGET_MODE);
        b->link = F(BR_LINK) == 1;
        b->rhs_imm = F(BR_RHS_IMM);
        b->lhs = F(BR_LHS);
        b->rhs = F(BR_RHS);
        b->tgt_lo = F(BR_TGT_LO);
        b->tgt_hi = F(BR_TGT_HI);
        b->target_imm = F(BR_TARGET_IMM);
        b->rel = (int32_t)(uint32_t)b->target_imm;
        break;
    }
    case SEQ_OP_TENSOR_LOAD:
    case SEQ_OP_TENSOR_STORE: {
        SeqMem2d *m = &o->u.m2d;
        m->dtype = F(M2D_DTYPE);
        m->esize = (uint8_t)seq_dtype_size(m->dtype);
        m->src_imm = opc == SEQ_OP_TENSOR_STORE && F(M2D_DATASRC) == 1;
        m->n0 = F(M2D_N0);
        m->n1 = F(M2D_N1);
        m->nelem = (uint8_t)(m->n0 * m->n1);
        addr8_extract(seq_field_ptr(r, SEQ_F_M2D_ADDR), &m->addr);
        m->s0 = (int32_t)F(M2D_S0);
        m->s1 = (int32_t)F(M2D_S1);
        memcpy(m->data, seq_field_ptr(r, SEQ_F_M2D_DATA), seq_field_bytes(SEQ_F_M2D_DATA));
        break;
    }
    case SEQ_OP_GROUP_RESET_SEMAPHORES: {
        SeqSemclr *g = &o->u.grst;
        g->mode = F(GRST_MODE);
        g->first = F(GRST_FIRST);
        g->last = F(GRST_LAST);
        if (g->mode == 1) {
            memset(g->mask, 0, sizeof(g->mask));
            for (unsigned i = g->first; i <= g->last; i++) {
                g->mask[i >> 5] |= 1u << (i & 31);
            }
        } else {
            for (unsigned w = 0; w < SEQ_F_GRST_MASK_N; w++) {
                g->mask[w] = FA(GRST_MASK, w);
            }
        }
        break;
    }
    case SEQ_OP_DMA_MEMCPY: {
        SeqDma *d = &o->u.dma;
        d->prio = F(DMA_PRIO);
        d->sem = F(DMA_SEM);
        d->sem_inc = F(DMA_SEM_INC);
        d->compute_op = F(DMA_COMPUTE_OP);
        addr8_extract(seq_field_ptr(r, SEQ_F_DMA_SRC_ADDR), &d->src);
        d->sstep[0] = (int32_t)F(DMA_SRC_STEP0);
        d->sstep[1] = (int32_t)F(DMA_SRC_STEP1);
        d->sn[0] = F(DMA_SRC_N0);
        d->sn[1] = F(DMA_SRC_N1);
        d->sesz = F(DMA_SRC_ESIZE);
        addr8_extract(seq_field_ptr(r, SEQ_F_DMA_DST_ADDR), &d->dst);
        d->dstep[0] = (int32_t)F(DMA_DST_STEP0);
        d->dstep[1] = (int32_t)F(DMA_DST_STEP1);
        d->dn[0] = F(DMA_DST_N0);
        d->dn[1] = F(DMA_DST_N1);
        d->desz = F(DMA_DST_ESIZE);
        d->in_dtype = F(DMA_IN_DTYPE);
        d->out_dtype = F(DMA_OUT_DTYPE);
        d->bytes = (uint64_t)d->sn[0] * d->sn[1] * d->sesz;
        break;
    }
    case SEQ_OP_DMA_INDIRECT: {
        SeqDmai *d = &o->u.dmai;
        d->sem = F(DMAI_SEM);
        d->sem_inc = F(DMAI_SEM_INC);
        d->flags = F(DMAI_FLAGS);
        d->mode = F(DMAI_MODE);
        d->non_unique_dst = F(DMAI_NON_UNIQUE_DST);
        addr8_extract(seq_field_ptr(r, SEQ_F_DMAI_SRC_ADDR), &d->src);
        d->sstep = (int32_t)F(DMAI_SRC_STEP);
        d->n = F(DMAI_SRC_N);
        d->esz = F(DMAI_SRC_ESIZE);
        addr8_extract(seq_field_ptr(r, SEQ_F_DMAI_DST_ADDR), &d->dst);
        d->dstep = (int32_t)F(DMAI_DST_STEP);
        d->sidx = F(DMAI_SRC_IDX);
        d->didx = F(DMAI_DST_IDX);
        d->in_dtype = F(DMAI_IN_DTYPE);
        d->out_dtype = F(DMAI_OUT_DTYPE);
        d->compute_op = F(DMAI_COMPUTE_OP);
        d->prio = F(DMAI_PRIO);
        break;
    }
    default:
        break;
    }
}

SeqDecodeResult seq_decode(const uint8_t rec[64], SeqInsn *out, NxFault *f)
{
    const uint8_t *r = rec;
    unsigned opc = F(HDR_OPCODE);
    out->opcode = (uint8_t)opc;
    if (opc >= SEQ_PSEUDO_FIRST && opc <= SEQ_PSEUDO_LAST) {
        uint32_t info = opc == SEQ_OP_PSEUDO_INST ? opc | (uint32_t)F(PEXIT_SUBOP) << 8 : opc;
        uint64_t addr = (opc == SEQ_OP_PSEUDO_TENSOR_LOAD || opc == SEQ_OP_PSEUDO_TENSOR_STORE)
                            ? F(PM2D_VAR_ID)
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
    out->debug_cmd = F(HDR_DEBUG_CMD);
    out->debug_hint = F(HDR_DEBUG_HINT);
    set_wait(&out->wait[0], F(EV_WAIT_MODE), F(EV_WAIT_IDX), F(EV_VALUE));
    set_wait(&out->wait[1], 0, 0, 0);
    if (opc == SEQ_OP_EVENT_SEMAPHORE) {
        set_update(&out->update, 0, 0, 0);
    } else {
        set_update(&out->update, F(EV_UPD_MODE), F(EV_UPD_IDX), F(EV_VALUE));
    }
    extract(rec, out);
    return SEQ_DECODE_OK;
}
