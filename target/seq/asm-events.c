/*
 * Sequencer assembler: the events modifiers wait(), post(), post.r() and
 * dbg() of any instruction, and the clause operands of evsem (sequencer.md
 * §4, §8.1, §11.2).
 */
#include <string.h>
#include <strings.h>

#include "asm.h"
#include "insn.h"

#define P(name, v) seq_field_put(r, SEQ_F_##name, v)

/* ---- events modifiers (§11.2) ---------------------------------------- */

typedef struct Clause {
    unsigned mode, idx;
    uint32_t v;
    bool uses_v;
} Clause;

static bool parse_evt_sem(SeqAsmCur *c, bool *sem, unsigned *idx)
{
    char id[16];
    if (!seq_asm_ident(c, id, sizeof(id))) {
        return seq_asm_error(c, "expected semN or evtN");
    }
    if (seq_asm_split_num(id, "sem", 1000, idx)) {
        *sem = true;
    } else if (seq_asm_split_num(id, "evt", 1000, idx)) {
        *sem = false;
    } else {
        return seq_asm_error(c, "expected semN or evtN, not '%s'", id);
    }
    if (*idx > 255) {
        return seq_asm_error(c, "index '%s' out of range 0..255", id);
    }
    return true;
}

/* V operand: rN (register form) or 32-bit immediate. */
static bool parse_v(SeqAsmCur *c, bool *reg, uint32_t *v)
{
    if (seq_asm_peek_reg(c)) {
        unsigned r;
        if (!seq_asm_reg(c, &r)) {
            return false;
        }
        *reg = true;
        *v = r;
        return true;
    }
    uint64_t x;
    if (!seq_asm_value(c, 32, &x)) {
        return false;
    }
    *reg = false;
    *v = (uint32_t)x;
    return true;
}

/* After "wait": "(semI OP V)" or "(evtI set [then clear])". */
static bool parse_wait(SeqAsmCur *c, Clause *w)
{
    static const char *const ops[] = {"==", "<=", ">=", "<", ">"};
    static const unsigned codes[] = {1, 3, 5, 2, 4};
    bool sem, reg;
    char id[16];
    if (!seq_asm_expect(c, "(") || !parse_evt_sem(c, &sem, &w->idx)) {
        return false;
    }
    if (sem) {
        unsigned i;
        for (i = 0; i < 5 && !seq_asm_accept(c, ops[i]); i++) {
        }
        if (i == 5) {
            return seq_asm_error(c, "expected ==, <, <=, > or >=");
        }
        if (!parse_v(c, &reg, &w->v)) {
            return false;
        }
        w->mode = codes[i] | (reg ? 0x80 : 0);
        w->uses_v = true;
    } else {
        if (!seq_asm_ident(c, id, sizeof(id)) ||
            (strcasecmp(id, "set") != 0 && strcasecmp(id, "clear") != 0)) {
            return seq_asm_error(c, "expected 'set' or 'clear'");
        }
        bool set = strcasecmp(id, "set") == 0;
        w->mode = set ? 0x06 : 0x0E;
        if (seq_asm_word(c, "then")) {
            if (!seq_asm_ident(c, id, sizeof(id)) || strcasecmp(id, set ? "clear" : "set") != 0) {
                return seq_asm_error(c, "expected '%s'", set ? "clear" : "set");
            }
            w->mode++;
        }
        w->v = 0;
        w->uses_v = false;
    }
    return seq_asm_expect(c, ")");
}

/* After "post" / "post.r". */
static bool parse_post(SeqAsmCur *c, bool complete, Clause *u)
{
    bool sem, reg = false;
    char id[16];
    if (!seq_asm_expect(c, "(") || !parse_evt_sem(c, &sem, &u->idx)) {
        return false;
    }
    u->v = 0;
    u->uses_v = false;
    if (sem) {
        if (seq_asm_accept(c, "++")) {
            u->mode = SEQ_UPD_SEM_INC;
        } else if (seq_asm_accept(c, "--")) {
            u->mode = SEQ_UPD_SEM_DEC;
        } else {
            unsigned base;
            if (seq_asm_accept(c, "+=")) {
                base = SEQ_UPD_SEM_ADD_IMM;
            } else if (seq_asm_accept(c, "-=")) {
                base = SEQ_UPD_SEM_SUB_IMM;
            } else if (seq_asm_accept(c, "=")) {
                base = SEQ_UPD_SEM_WR_IMM;
            } else {
                return seq_asm_error(c, "expected ++, --, +=, -= or =");
            }
            if (!parse_v(c, &reg, &u->v)) {
                return false;
            }
            u->mode = base + (reg ? 1 : 0);
            u->uses_v = true;
        }
    } else {
        if (!seq_asm_ident(c, id, sizeof(id))) {
            return seq_asm_error(c, "expected 'set' or 'clear'");
        }
        if (strcasecmp(id, "set") == 0) {
            u->mode = SEQ_UPD_EVT_SET;
        } else if (strcasecmp(id, "clear") == 0) {
            u->mode = SEQ_UPD_EVT_CLR;
        } else {
            return seq_asm_error(c, "expected 'set' or 'clear'");
        }
    }
    if (complete) {
        u->mode |= SEQ_UPD_COMPLETE;
    }
    return seq_asm_expect(c, ")");
}

static bool parse_dbg(SeqAsmCur *c, uint8_t *r)
{
    uint64_t cmd = 0, hint = 0;
    if (!seq_asm_expect(c, "(") || !seq_asm_uint(c, 255, &cmd, "debug_cmd") ||
        !seq_asm_expect(c, ",") || !seq_asm_uint(c, 255, &hint, "debug_hint") ||
        !seq_asm_expect(c, ")")) {
        return false;
    }
    P(HDR_DEBUG_CMD, (uint8_t)cmd);
    P(HDR_DEBUG_HINT, (uint8_t)hint);
    return true;
}

/* Trailing modifiers of an ordinary instruction. */
bool seq_asm_modifiers(SeqAsmCur *c, uint8_t *r)
{
    Clause w = {0}, u = {0};
    bool have_w = false, have_u = false, have_d = false;
    char id[16];
    while (!seq_asm_at_end(c)) {
        const char *start = c->p; /* at_end skipped the blanks */
        if (!seq_asm_ident(c, id, sizeof(id))) {
            char t[32];
            seq_asm_tok_text(c, t, sizeof(t));
            return seq_asm_error(c, "unexpected '%s'", t);
        }
        if (strcasecmp(id, "wait") == 0) {
            if (have_w) {
                return seq_asm_error(c, "more than one wait()");
            }
            have_w = true;
            if (!parse_wait(c, &w)) {
                return false;
            }
        } else if (strcasecmp(id, "post") == 0 || strcasecmp(id, "post.r") == 0) {
            if (have_u) {
                return seq_asm_error(c, "more than one post()");
            }
            have_u = true;
            if (!parse_post(c, id[4] == 0, &u)) {
                return false;
            }
        } else if (strcasecmp(id, "dbg") == 0) {
            if (have_d) {
                return seq_asm_error(c, "more than one dbg()");
            }
            have_d = true;
            if (!parse_dbg(c, r)) {
                return false;
            }
        } else {
            return seq_asm_error(c, "unexpected '%s'", id);
        }
        if (w.uses_v && u.uses_v && w.v != u.v) {
            c->tok = start;
            return seq_asm_error(c, "wait and post need different values of V");
        }
    }
    P(EV_WAIT_MODE, (uint8_t)w.mode);
    P(EV_WAIT_IDX, (uint8_t)w.idx);
    P(EV_UPD_MODE, (uint8_t)u.mode);
    P(EV_UPD_IDX, (uint8_t)u.idx);
    P(EV_VALUE, w.uses_v ? w.v : u.v);
    return true;
}

/* evsem clauses: slot a (the EV_* wait fields), b (EVSEM_WAITB_*) and the
 * update (EVSEM_UPD_*). */
bool seq_asm_evsem(SeqAsmCur *c, uint8_t *r)
{
    Clause a = {0}, b = {0}, u = {0};
    bool have_a = false, have_b = false, have_u = false, have_d = false;
    char id[16];
    while (!seq_asm_at_end(c)) {
        if (!seq_asm_ident(c, id, sizeof(id))) {
            char t[32];
            seq_asm_tok_text(c, t, sizeof(t));
            return seq_asm_error(c, "unexpected '%s'", t);
        }
        if (strcasecmp(id, "wait") == 0 || strcasecmp(id, "wait.b") == 0) {
            bool to_b = id[4] != 0 || have_a;
            if (to_b && have_b) {
                return seq_asm_error(c, "more than two waits");
            }
            if (!parse_wait(c, to_b ? &b : &a)) {
                return false;
            }
            *(to_b ? &have_b : &have_a) = true;
        } else if (strcasecmp(id, "post") == 0 || strcasecmp(id, "post.r") == 0) {
            if (have_u) {
                return seq_asm_error(c, "more than one post()");
            }
            have_u = true;
            if (!parse_post(c, id[4] == 0, &u)) {
                return false;
            }
        } else if (strcasecmp(id, "dbg") == 0) {
            if (have_d) {
                return seq_asm_error(c, "more than one dbg()");
            }
            have_d = true;
            if (!parse_dbg(c, r)) {
                return false;
            }
        } else {
            return seq_asm_error(c, "unexpected '%s'", id);
        }
    }
    P(EV_WAIT_MODE, (uint8_t)a.mode);
    P(EV_WAIT_IDX, (uint8_t)a.idx);
    P(EV_VALUE, a.v);
    P(EVSEM_WAITB_MODE, (uint8_t)b.mode);
    P(EVSEM_WAITB_IDX, (uint8_t)b.idx);
    P(EVSEM_WAITB_VALUE, b.v);
    P(EVSEM_UPD_MODE, (uint8_t)u.mode);
    P(EVSEM_UPD_IDX, (uint8_t)u.idx);
    P(EVSEM_UPD_VALUE, u.v);
    return true;
}
