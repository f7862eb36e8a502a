/*
 * Decoded sequencer instructions (sequencer.md §2-§8).
 *
 * seq_decode() runs phase D of §2.2 on one 64-byte record: pseudo band ->
 * PSEUDO_UNLOWERED, undefined opcode -> INVALID_OPCODE, then the opcode's
 * static predicates (target/seq/insn.def) in order -> INVALID_INSTRUCTION
 * with FAULT_INFO = predicate id.  On success the operands are also
 * extracted into SeqInsn's union (read by coverage and the fast-path
 * pre-resolution); the general executors read insn.rec through the
 * fields.def accessors (fields.h).
 *
 * This header and the decoder never reference the executor (seq_exec_*), so
 * the tools link without it.
 */
#ifndef TARGET_SEQ_INSN_H
#define TARGET_SEQ_INSN_H

#include <stdbool.h>
#include <stdint.h>

#include "nxemu/fault.h"
#include "fields.h"

/* ---- table helpers used by insn.def ---------------------------------- */

/* Bytes lo..hi (inclusive) as a 64-bit mask, bit i = byte i. */
#define SEQ_RSV(lo, hi)    ((~0ULL >> (63 - (hi))) & (~0ULL << (lo)))
#define SEQ_PR(name)       ((uint16_t)SEQ_P_##name)
#define SEQ_PRA(name, off) ((uint16_t)(SEQ_P_##name | ((off) << 8)))
#define SEQ_PRE                                                                                    \
    SEQ_PR(header_word_len), SEQ_PR(header_debug_cmd), SEQ_PR(events_wait_mode),                   \
        SEQ_PR(events_update_mode), SEQ_PR(events_unused_zero), SEQ_PR(events_reg_range)
/* Split an encoded predicate list entry. */
#define SEQ_PRED_ID(e)  ((unsigned)((e)&0xff))
#define SEQ_PRED_ARG(e) ((unsigned)((e) >> 8))

/* Predicate ids (sequencer.md §10): SEQ_P_header_word_len = 1, ... */
enum SeqPredId {
#define SEQ_PRED(id, name) SEQ_P_##name = id,
#include "predicates.def"
#undef SEQ_PRED
};

/* Opcodes: SEQ_OP_HALT = 0xA1, ..., SEQ_OP_PSEUDO_TENSOR_LOAD = 0xCE. */
enum SeqOpcode {
#define SEQ_INSN(opc, NAME, mnem, exec, rsv, ...) SEQ_OP_##NAME = opc,
#define SEQ_PSEUDO(opc, NAME, mnem, rsv, ...)     SEQ_OP_##NAME = opc,
#include "insn.def"
};

/* ALU_OP operations: SEQ_ALU_ADD = 0x04, ... */
enum SeqAluOp {
#define SEQ_ALU_OP(code, NAME, mnem, unary, fp32) SEQ_ALU_##NAME = code,
#include "insn.def"
};

#define SEQ_PSEUDO_FIRST 0xC1
#define SEQ_PSEUDO_LAST  0xDF

/* ---- data types (§3) ------------------------------------------------- */

enum SeqDtype {
    SEQ_DT_INVALID = 0x0,
#define SEQ_DTYPE(code, NAME, asmname, size) SEQ_DT_##NAME = code,
#include "insn.def"
};

/* Element size in bytes; 0 for INVALID and codes above 0xF. */
unsigned seq_dtype_size(unsigned dt);
/* Assembly suffix ("u32"); NULL for INVALID and codes above 0xF. */
const char *seq_dtype_name(unsigned dt);

/* ---- events (§4) ----------------------------------------------------- */

enum SeqWaitMode {
    SEQ_WAIT_NONE = 0x00,
    SEQ_WAIT_SEM_EQ = 0x01,
    SEQ_WAIT_SEM_LT = 0x02,
    SEQ_WAIT_SEM_LE = 0x03,
    SEQ_WAIT_SEM_GT = 0x04,
    SEQ_WAIT_SEM_GE = 0x05,
    SEQ_WAIT_EVT_SET = 0x06,
    SEQ_WAIT_EVT_SET_THEN_CLEAR = 0x07,
    SEQ_WAIT_EVT_CLEAR = 0x0E,
    SEQ_WAIT_EVT_CLEAR_THEN_SET = 0x0F,
    SEQ_WAIT_REG = 0x80, /* OR-ed into SEM_EQ..SEM_GE: compare against R[V] */
};

enum SeqUpdateMode {
    SEQ_UPD_NONE = 0x00,
    SEQ_UPD_EVT_SET = 0x01,
    SEQ_UPD_EVT_CLR = 0x02,
    SEQ_UPD_SEM_INC = 0x03,
    SEQ_UPD_SEM_DEC = 0x04,
    SEQ_UPD_SEM_ADD_IMM = 0x05,
    SEQ_UPD_SEM_ADD_REG = 0x06,
    SEQ_UPD_SEM_SUB_IMM = 0x07,
    SEQ_UPD_SEM_SUB_REG = 0x08,
    SEQ_UPD_SEM_WR_IMM = 0x09,
    SEQ_UPD_SEM_WR_REG = 0x0A,
    SEQ_UPD_COMPLETE = 0x10, /* OR-ed in: applied after the results (_COMPLETE) */
};

/* One wait condition.  mode is the raw §4.2 code (SEQ_WAIT_NONE if absent). */
typedef struct SeqWait {
    uint8_t mode;
    uint8_t idx;
    uint32_t value; /* immediate V, or register number for SEM_*_REG */
} SeqWait;

/* One update.  mode is the raw §4.3 code; `kind` strips the _COMPLETE bit. */
typedef struct SeqUpdate {
    uint8_t mode;
    uint8_t kind;  /* mode & 0x0F: SEQ_UPD_* without SEQ_UPD_COMPLETE */
    bool complete; /* _COMPLETE form (0x11..0x1A) */
    uint8_t idx;
    uint32_t value; /* immediate V, or register number for *_REG */
} SeqUpdate;

/* ---- address operands (§5) ------------------------------------------- */

typedef enum SeqAddrMode {
    SEQ_ADDR_IMM = 0,       /* marker 0x00: imm = the address */
    SEQ_ADDR_REG = 1,       /* marker 0x80: R[reg_hi] << 32 | R[reg_lo] */
    SEQ_ADDR_TBL_IMM32 = 2, /* marker 0x20: T[index] + imm */
    SEQ_ADDR_TBL_IMM48 = 3, /* marker 0x24: T[index] + imm */
    SEQ_ADDR_TBL_REG = 4,   /* marker 0x28: T[index] + R[reg_lo] */
    SEQ_ADDR_TBL_REG64 = 5, /* marker 0x2C: T[index] + (R[reg_hi] << 32 | R[reg_lo]) */
} SeqAddrMode;

/* SeqAddrMode of the 8 ADDR8 bytes at a, -1 for a rejected marker. */
int seq_addr8_mode(const uint8_t *a);

typedef struct SeqAddr8 {
    uint8_t mode; /* SeqAddrMode */
    uint8_t reg_lo, reg_hi;
    uint8_t index; /* ADDR_TABLE index for the table modes */
    uint64_t imm;  /* IMM address or zero-extended table offset */
} SeqAddr8;

/* ---- decoded instruction ----------------------------------------------- */

typedef struct SeqMem2d { /* 0xAA, 0xAB */
    uint8_t dtype;
    uint8_t esize;  /* element size in bytes */
    bool src_imm;   /* store only: data holds packed immediates */
    uint8_t n0, n1; /* inner, outer */
    uint8_t nelem;  /* n0 * n1 (<= 32) */
    int32_t s0, s1; /* strides in elements */
    SeqAddr8 addr;
    uint8_t data[32]; /* register numbers or immediate bytes (rec bytes 32..63) */
} SeqMem2d;

typedef struct SeqWrite { /* 0xA5 */
    bool src_imm;
    uint8_t dtype;
    uint8_t src_reg;
    uint32_t imm;
    SeqAddr8 addr;
} SeqWrite;

typedef struct SeqNotify { /* 0xA6 */
    uint8_t queue;
    bool src_imm;
    uint8_t src_reg;
    uint32_t imm;
} SeqNotify;

typedef struct SeqMove { /* 0xA7 */
    uint8_t num;
    uint8_t dtype;
    bool src_imm;
    uint8_t src[8]; /* 0..63, 128 = pclo, 129 = pchi */
    uint8_t dst[8];
    uint32_t imm[8];
} SeqMove;

typedef struct SeqAlu { /* 0xA8 */
    uint8_t op;
    uint8_t dtype;
    bool src_imm;
    bool wide; /* 64-bit (INT64/UINT64): operands are register pairs */
    uint8_t dst_dtype;
    uint8_t src0_lo, src0_hi, src1_lo, src1_hi, dst_lo, dst_hi;
    uint64_t imm;
} SeqAlu;

enum SeqBranchCond {
    SEQ_BR_ALWAYS = 0,
    SEQ_BR_LT = 1,
    SEQ_BR_LE = 2,
    SEQ_BR_EQ = 3,
    SEQ_BR_NE = 4,
    SEQ_BR_GE = 5,
    SEQ_BR_GT = 6,
};

enum SeqTargetMode {
    SEQ_TGT_ABS_IMM = 0,
    SEQ_TGT_REGISTER = 1,
    SEQ_TGT_REL_IMM = 3,
    SEQ_TGT_REL_REGISTER = 4,
};

typedef struct SeqBranch { /* 0xA9 */
    uint8_t cmp_op;        /* raw byte 12 */
    uint8_t cond;          /* SeqBranchCond (cmp_op & 7) */
    bool rhs_is_reg;       /* cmp_op 9..14 */
    uint8_t dtype;
    uint8_t target_mode; /* SeqTargetMode */
    bool link;
    uint32_t rhs_imm;
    uint8_t lhs, rhs;
    uint8_t tgt_lo, tgt_hi;
    uint64_t target_imm; /* ABS_IMM: the address; REL_IMM: see rel */
    int64_t rel;         /* REL_IMM: sext32(target_imm[31:0]) */
} SeqBranch;

typedef struct SeqSemclr { /* 0xB0 */
    uint8_t mode;          /* 1 range, 2 bitmask */
    uint8_t first, last;
    uint32_t mask[8]; /* resolved selection for both modes */
} SeqSemclr;

typedef struct SeqDma { /* 0xB8 */
    uint8_t prio;
    uint8_t sem, sem_inc;
    uint8_t compute_op; /* 0 NONE, 1 ADD, 2 MULTIPLY, 3 MAX, 4 MIN */
    SeqAddr8 src, dst;
    int32_t sstep[2], dstep[2];
    uint16_t sn[2], dn[2];
    uint32_t sesz, desz; /* 0 in the record = 65536 */
    uint8_t in_dtype, out_dtype;
    uint64_t bytes; /* total bytes moved (equal on both sides) */
} SeqDma;

typedef struct SeqDmai { /* 0xBB */
    uint8_t sem, sem_inc;
    uint8_t flags;
    uint8_t mode; /* 0 gather, 1 scatter, 2 both */
    bool non_unique_dst;
    SeqAddr8 src, dst;
    int32_t sstep, dstep;
    uint16_t n;          /* element count (src = dst) */
    uint32_t esz;        /* element size (src = dst), 0 in the record = 65536 */
    uint32_t sidx, didx; /* ADDR4 values; PA = 0x20_0000_0000 + value */
    uint8_t in_dtype, out_dtype;
    uint8_t compute_op;
    uint8_t prio;
} SeqDmai;

typedef struct SeqInsn {
    uint8_t opcode;
    uint8_t debug_cmd, debug_hint;
    uint8_t rec[64]; /* the fetched record, verbatim */
    /* Waits: wait[0] is the events field's wait (slot a for EVENT_SEMAPHORE),
     * wait[1] slot b (mode NONE except for EVENT_SEMAPHORE). */
    SeqWait wait[2];
    SeqUpdate update; /* events update, or the EVENT_SEMAPHORE update slot */
    union {
        SeqWrite wr;
        SeqNotify ntf;
        SeqMove mv;
        SeqAlu alu;
        SeqBranch br;
        SeqMem2d m2d;
        SeqSemclr grst;
        SeqDma dma;
        SeqDmai dmai;
        uint8_t drain_count;
    } u;
} SeqInsn;

typedef enum SeqDecodeResult {
    SEQ_DECODE_OK = 0,
    SEQ_DECODE_FAULT = 1, /* *f filled: INVALID_OPCODE, PSEUDO_UNLOWERED or INVALID_INSTRUCTION */
} SeqDecodeResult;

/*
 * Phase D.  On a fault, f gets code and info (predicate id; opcode | sub-op
 * << 8 for 0xDF, else the opcode, for PSEUDO_UNLOWERED) and addr (var_id for
 * 0xCD/0xCE, else 0); out is then only partly filled.
 */
SeqDecodeResult seq_decode(const uint8_t rec[64], SeqInsn *out, NxFault *f);

/* Run only the predicates of rec's opcode (real or pseudo); returns 0 if all
 * pass, else the id of the first failing one.  Unknown opcodes return 0. */
unsigned seq_check_predicates(const uint8_t rec[64]);

/* Predicate name for an id of §10; NULL for an unknown id. */
const char *seq_pred_name(unsigned id);

/* "TENSOR_LOAD", "PSEUDO_INST", ...; NULL for an undefined opcode. */
const char *seq_opcode_name(unsigned opcode);
/* info= text of a PSEUDO_UNLOWERED fault (machine.md §12.1) for FAULT_INFO
 * value info: "PSEUDO_TENSOR_LOAD", "PSEUDO_INST/2", "0xc1". */
void seq_pseudo_info_name(uint32_t info, char *buf, unsigned buflen);

/* True if opcode is a real (executable) opcode of §6. */
bool seq_opcode_defined(unsigned opcode);

/* The insn.def row of an opcode (real or pseudo); NULL if undefined. */
typedef struct SeqInsnDesc {
    const char *name;     /* "TENSOR_LOAD" */
    const char *mnemonic; /* "tld" */
    uint64_t reserved;    /* reserved byte mask */
    const uint16_t *preds;
    unsigned nr_preds;
    bool pseudo;
} SeqInsnDesc;
const SeqInsnDesc *seq_insn_desc(unsigned opcode);
/* ALU_OP op table (insn.def): mnemonic ("add") or NULL if the op code is
 * not supported; unary ops read only src0. */
const char *seq_alu_mnemonic(unsigned op);
bool seq_alu_unary(unsigned op);
/* FP32 is an allowed dtype for the op (alu_op_dtype). */
bool seq_alu_fp32(unsigned op);

/* Opcode whose insn.def mnemonic is `mnemonic` (lowercase), or -1. */
int seq_opcode_by_mnemonic(const char *mnemonic);

#endif
