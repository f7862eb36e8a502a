/*
 * Sequencer assembler, disassembler and ELF writer internals
 * (sequencer.md §11).  The tools' entry points are in seq-tools.h.
 */
#ifndef TARGET_SEQ_ASM_H
#define TARGET_SEQ_ASM_H

#include <stdbool.h>
#include <stdint.h>

#include <glib.h>

/* Label lookup used while encoding; returns false for an unknown name. */
typedef bool (*SeqAsmLabelFn)(void *opaque, const char *name, uint64_t *value);

/* Parsing cursor over one source line, shared by the statement parser
 * (asm-insn.c) and the file driver (asm.c). */
typedef struct SeqAsmCur {
    const char *line; /* start of the line, for columns */
    const char *p;    /* next character */
    const char *tok;  /* start of the token being parsed, for messages */
    uint64_t pc;      /* address of the statement */
    SeqAsmLabelFn labels;
    void *opaque;
    bool lax_labels; /* first pass: an unknown label is the statement's address */
    GString *err;    /* first error message, "" while none */
    unsigned err_col;
} SeqAsmCur;

/* Number as written: v is the two's-complement value, neg the sign. */
typedef struct SeqAsmNum {
    uint64_t v;
    bool neg;
} SeqAsmNum;

bool seq_asm_error(SeqAsmCur *c, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
void seq_asm_ws(SeqAsmCur *c);
bool seq_asm_at_end(SeqAsmCur *c);
bool seq_asm_accept(SeqAsmCur *c, const char *s);
bool seq_asm_expect(SeqAsmCur *c, const char *s);
/* Identifier [A-Za-z_.$][A-Za-z0-9_.$]*; false (no error) if none here. */
bool seq_asm_ident(SeqAsmCur *c, char *buf, size_t len);
bool seq_asm_number(SeqAsmCur *c, SeqAsmNum *n);
/* Number or label [+-number]; the result must fit `bits` (signed or
 * unsigned); the value is masked to bits. */
bool seq_asm_value(SeqAsmCur *c, unsigned bits, uint64_t *v);
/* Parse one instruction statement at the cursor (through end of line). */
bool seq_asm_insn(SeqAsmCur *c, uint8_t rec[64]);

/* Trailing wait/post/dbg modifiers; evsem's clause list (asm-events.c). */
bool seq_asm_modifiers(SeqAsmCur *c, uint8_t *r);
bool seq_asm_evsem(SeqAsmCur *c, uint8_t *r);

/* Operand helpers (asm-lex.c). */
void seq_asm_tok_text(SeqAsmCur *c, char *buf, size_t len);
bool seq_asm_peek_ident(SeqAsmCur *c, char *buf, size_t len);
/* Case-insensitive keyword: the identifier at the cursor equals w. */
bool seq_asm_word(SeqAsmCur *c, const char *w);
bool seq_asm_expect_word(SeqAsmCur *c, const char *w);
bool seq_asm_is_reg_name(const char *s);
bool seq_asm_split_num(const char *s, const char *prefix, unsigned max, unsigned *out);
bool seq_asm_peek_reg(SeqAsmCur *c);
bool seq_asm_reg(SeqAsmCur *c, unsigned *r);
bool seq_asm_pair(SeqAsmCur *c, unsigned *hi, unsigned *lo);
bool seq_asm_uint(SeqAsmCur *c, uint64_t max, uint64_t *v, const char *what);
bool seq_asm_addr8(SeqAsmCur *c, uint8_t *a);
bool seq_asm_reg_list(SeqAsmCur *c, uint8_t *out, unsigned max, unsigned *count);
int seq_asm_dtype(const char *s);

static inline void seq_put16(uint8_t *p, uint64_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static inline void seq_put32(uint8_t *p, uint64_t v)
{
    for (unsigned i = 0; i < 4; i++) {
        p[i] = (uint8_t)(v >> (8 * i));
    }
}

static inline void seq_put64(uint8_t *p, uint64_t v)
{
    for (unsigned i = 0; i < 8; i++) {
        p[i] = (uint8_t)(v >> (8 * i));
    }
}

/*
 * Assemble one instruction statement (no label, no directive) located at
 * Neuron address pc into rec.  On error returns false with err set to
 * "COL: message" (1-based column in text).  labels may be NULL.
 */
bool seq_asm_insn_text(const char *text, uint64_t pc, SeqAsmLabelFn labels, void *opaque,
                       uint8_t rec[64], GString *err);

/*
 * Disassemble one record at Neuron address pc, appending the canonical
 * §11.3 text (no newline) to out.  Returns true if canonical; otherwise the
 * record is printed as `.rec` + 64 bytes and false is returned.  The output
 * always reassembles to the same 64 bytes.
 */
bool seq_disas_insn(const uint8_t rec[64], uint64_t pc, GString *out);

/* `.rec xx xx ...` for any 64 bytes. */
void seq_disas_rec(const uint8_t rec[64], GString *out);

/* One loadable piece of an assembled image. */
typedef struct SeqSegment {
    uint64_t addr;
    bool exec; /* .text */
    GByteArray *bytes;
} SeqSegment;

typedef struct SeqSymbol {
    char *name;
    uint64_t value;
    uint64_t size; /* st_size: a function's extent, 0 for a plain label */
    unsigned type; /* STT_NOTYPE, STT_OBJECT or STT_FUNC */
    int seg;       /* index in the segment array, -1 for none */
} SeqSymbol;

/* Write an ELF64 sequencer executable (machine.md §11.2); debug (NULL for
 * none) holds NxDebugSections (nxemu/dwarf-line.h) to add, not loaded. */
bool seq_elf_write(const char *path, const SeqSegment *segs, unsigned nr_segs,
                   const SeqSymbol *syms, unsigned nr_syms, uint64_t entry, const GArray *debug,
                   GError **err);

#endif
