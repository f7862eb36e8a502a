/* Assembler internals: the per-file context, words of a line, bundle state. */
#ifndef TARGET_TPC_ASM_INT_H
#define TARGET_TPC_ASM_INT_H

#include "target/tpc/asm.h"

typedef struct AsmCtx {
    const char *file;
    FILE *err;
    unsigned line;
    unsigned errors;
    bool quiet; /* trial assembly (slot search): count errors, print nothing */
} AsmCtx;

void asm_error(AsmCtx *c, int col, const char *fmt, ...) G_GNUC_PRINTF(3, 4);
/* `s` without leading and trailing blanks (in place). */
char *asm_trim(char *s);
void asm_warn(AsmCtx *c, int col, const char *fmt, ...) G_GNUC_PRINTF(3, 4);

/* A word of a statement: text (NUL-terminated copy) and its 1-based column. */
typedef struct Word {
    char *s;
    int col;
} Word;

/* Parsed operand. */
enum {
    AOP_REG = 1, /* kind = TPC_OP_* register kind, num, group */
    AOP_IMM,     /* value */
    AOP_NAME,    /* label or other identifier: s */
};

typedef struct AOp {
    int type; /* AOP_* */
    int kind; /* TPC_OP_* for registers */
    unsigned num;
    unsigned group;  /* 1 V, 2 D, 4 A */
    uint32_t value;  /* immediate */
    bool bare_float; /* immediate written as a bare float (f32 bits) */
    bool neg_pred;   /* `!` before a predicate register */
    const char *s;
    int col;
} AOp;

/* Number parsing (tpc.md §8.7). Returns false if `s` is not a number;
 * *err is set when it looks like a number but is malformed/out of range. */
bool asm_parse_number(const char *s, uint32_t *value, bool *bare_float, const char **err);
/* Register names (case-insensitive); false if not a register name.
 * *err set for register-looking names out of range (S36, D3, ...). */
bool asm_parse_reg(const char *s, int *kind, unsigned *num, unsigned *group, const char **err);
/* Parse a word as an operand (register, number or name). */
bool asm_parse_operand(AsmCtx *c, const Word *w, AOp *op);

/* Bundle under construction. */
enum { FIX_NONE, FIX_JMPR, FIX_JMPA, FIX_LOOP };

typedef struct ImmUse {
    bool used;
    bool is_label; /* value comes from a label (JMPR/JMPA) */
    uint32_t value;
    int col;
} ImmUse;

typedef struct AsmBundle {
    uint8_t b[TPC_BUNDLE_BYTES];
    ImmUse imm[4]; /* per slot, slot order LD, SPU, VPU, ST */
    bool loop_start_imm;
    bool slot_used[4]; /* slot holds something other than NOP */
    bool ldst_pred_set;
    unsigned ldst_pred; /* polarity << 5 | vp << 4 | n */
    bool uses_ld_b, uses_st_c, uses_vpu_c, uses_vpu_d;
    uint32_t ld_b, st_c, vpu_c, vpu_d; /* their values, set when used */
    int fix_kind;
    char *fix_label;
    int fix_col;
    unsigned line;
} AsmBundle;

/* One slot statement being assembled (asm-stmt.c parses, asm-insn.c encodes). */
#define ASM_MAX_OPS 8
#define ASM_MAX_SW  16

typedef struct Stmt {
    AsmCtx *c;
    AsmBundle *ab;
    unsigned slot;
    const TpcInsnDesc *desc;
    const char *mn; /* mnemonic as written */
    int col;        /* column of the mnemonic */
    int type;       /* -1: none given */
    int type_col;
    bool mask_given;
    unsigned mask;
    /* switch fields */
    uint32_t f_sw, f_a, f_b, f_c, f_d, f_t;
    bool given[ASM_MAX_SW];
    int given_col[ASM_MAX_SW];
    bool sw0_written; /* SWITCHES bit 0 was written (mov.from_hw_reg), not implied */
    /* operands */
    AOp ops[ASM_MAX_OPS];
    int nops;
    bool has_pred;
    AOp pred;
    GPtrArray *strs;
} Stmt;

void asm_put(Stmt *st, unsigned lo, unsigned w, uint32_t v);
/* The statement's accumulator of switch field TPC_SWF_*. */
uint32_t *asm_sw_field(Stmt *st, unsigned swf);
/* Set switch d (index idx of its table) to value; error if given twice or out of range. */
bool asm_sw_set(Stmt *st, const TpcSwDef *d, int idx, unsigned value, int col);
/* The compiler's two-part VLM address (`ld_l_v %V0, %S1, 0x0`): a zero offset
 * after operand `at` is dropped, any other is an error.  False after an error. */
bool asm_drop_zero_offset(Stmt *st, int at);
/* Encoder of the table-described forms (asm-layout.c). */
bool asm_enc_layout(Stmt *st);
/* Register-field value of `op` (kinds in `allowed`, a TPC_OP_* bit mask; IMM
 * records the slot's long immediate), or -1 after an error. */
int asm_enc(Stmt *st, const AOp *op, unsigned allowed, const char *what);
bool asm_is_reg(const AOp *op, int kind);
bool asm_want_ops(Stmt *st, int lo, int hi);
/* Error naming operand `have` (the first one too many); `takes` says what fits. */
bool asm_extra_operand(Stmt *st, int have, const char *takes);
bool asm_need_type(Stmt *st);
bool asm_no_type(Stmt *st);
bool asm_put_pred(Stmt *st);
/* A written switch whose TpcSwDef.types excludes the written type: error. */
bool asm_check_switch_types(Stmt *st);
bool asm_parse_stmt(Stmt *st, char *text, int col);
/* Take the last operand as the predicate when it is [!]SPn/[!]VPn and at
 * least `min` operands remain. */
void asm_take_pred(Stmt *st, int min);
/* The predicate as above, then lo..hi operands must remain. */
static inline bool asm_take_ops(Stmt *st, int lo, int hi)
{
    asm_take_pred(st, lo);
    return asm_want_ops(st, lo, hi);
}

/* Operand-kind mask for asm_enc. */
#define K(x) (1u << TPC_OP_##x)
/* In an encoder: return false when an asm_enc* result is an error (< 0). */
#define CHK(x)                                                                                     \
    do {                                                                                           \
        if ((x) < 0)                                                                               \
            return false;                                                                          \
    } while (0)

void asm_bundle_init(AsmBundle *ab);
/* Assemble one slot's text (`text` is the slot, trimmed; col its column). */
bool asm_slot(AsmCtx *c, AsmBundle *ab, unsigned slot, char *text, int col);
/* .tpc_metadata being assembled (asm-meta.c): the 262 bytes and what the
 * file already gave (a field twice is an error). */
typedef struct AsmMetadata {
    uint8_t *bytes;
    uint32_t given;           /* bit per field of the field table */
    uint32_t tensor_given[2]; /* scalarLd / rmwStore, bit per tensor */
    unsigned nbytes;          /* bytes given by .ascii/.asciz */
} AsmMetadata;
/* One `field: DB|DW|DD value` line of .tpc_metadata. */
void asm_metadata_line(AsmCtx *c, AsmMetadata *m, char *line, int col0);
/* `.ascii "..."` / `.asciz "..."` (arg: the quoted string) in .tpc_metadata. */
bool asm_metadata_string(AsmCtx *c, AsmMetadata *m, const char *arg, int col, bool nul);

/* One instruction of a bundle written one instruction per line (a `{ }`
 * group or a lone line): its text, column and source line. */
typedef struct AsmInsnLine {
    char *text;
    int col;
    unsigned line;
} AsmInsnLine;
/* Slots (bit mask, bit = TPC_SLOT_*) whose instruction table has the
 * mnemonic that starts `text`; 0 for an unknown mnemonic. */
unsigned asm_mnemonic_slots(const char *text);
/* Assemble n (1..4) instructions into one bundle.  by_insn: each goes to a
 * slot its mnemonic and operands fit (the compiler's -S format); otherwise
 * instruction i goes to slot i (the brace form of tpc.md §8.1).  Errors
 * carry each instruction's own line. */
bool asm_group(AsmCtx *c, AsmBundle *ab, const AsmInsnLine *ins, unsigned n, bool by_insn);
/* Assemble a `loop` statement filling the bundle. */
bool asm_loop(AsmCtx *c, AsmBundle *ab, char *text, int col);

#endif
