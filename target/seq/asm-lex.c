/*
 * Sequencer assembler: lexer and operand parsers shared by the statement
 * parser (asm-insn.c) and the file driver (asm.c), sequencer.md §11.1, §11.3.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "asm.h"
#include "insn.h"

/* ---- lexer ----------------------------------------------------------- */

bool seq_asm_error(SeqAsmCur *c, const char *fmt, ...)
{
    if (c->err->len == 0) {
        va_list ap;
        va_start(ap, fmt);
        g_string_vprintf(c->err, fmt, ap);
        va_end(ap);
        c->err_col = (unsigned)((c->tok ? c->tok : c->p) - c->line) + 1;
    }
    return false;
}

void seq_asm_ws(SeqAsmCur *c)
{
    while (*c->p == ' ' || *c->p == '\t' || *c->p == '\r') {
        c->p++;
    }
}

bool seq_asm_at_end(SeqAsmCur *c)
{
    seq_asm_ws(c);
    c->tok = c->p;
    return *c->p == 0 || *c->p == ';' || *c->p == '\n';
}

bool seq_asm_accept(SeqAsmCur *c, const char *s)
{
    size_t n = strlen(s);
    seq_asm_ws(c);
    c->tok = c->p;
    if (strncmp(c->p, s, n) == 0) {
        c->p += n;
        return true;
    }
    return false;
}

/* The current token, for "unexpected 'x'" messages. */
void seq_asm_tok_text(SeqAsmCur *c, char *buf, size_t len)
{
    size_t i = 0;
    const char *p = c->p;
    if (*p == 0 || *p == '\n' || *p == ';') {
        g_strlcpy(buf, "end of line", len);
        return;
    }
    if (!isprint((unsigned char)*p)) {
        /* Control and non-ASCII bytes are named, never echoed. */
        snprintf(buf, len, "\\x%02x", (unsigned char)*p);
        return;
    }
    while (isprint((unsigned char)p[i]) && p[i] != ' ' && p[i] != ';' && i + 1 < len && i < 20) {
        buf[i] = p[i];
        i++;
        if (!isalnum((unsigned char)p[i - 1]) && p[i - 1] != '_' && p[i - 1] != '.') {
            break;
        }
    }
    buf[i] = 0;
}

bool seq_asm_expect(SeqAsmCur *c, const char *s)
{
    if (seq_asm_accept(c, s)) {
        return true;
    }
    char t[32];
    seq_asm_tok_text(c, t, sizeof(t));
    if (strcmp(t, "end of line") == 0) {
        return seq_asm_error(c, "expected '%s' before end of line", s);
    }
    return seq_asm_error(c, "expected '%s' before '%s'", s, t);
}

static bool ident_start(int ch)
{
    return isalpha(ch) || ch == '_' || ch == '.' || ch == '$';
}

static bool ident_char(int ch)
{
    return isalnum(ch) || ch == '_' || ch == '.' || ch == '$';
}

bool seq_asm_ident(SeqAsmCur *c, char *buf, size_t len)
{
    seq_asm_ws(c);
    c->tok = c->p;
    const char *p = c->p;
    if (!ident_start((unsigned char)*p)) {
        return false;
    }
    size_t n = 0;
    while (ident_char((unsigned char)p[n])) {
        n++;
    }
    if (n >= len) {
        return seq_asm_error(c, "name too long");
    }
    memcpy(buf, p, n);
    buf[n] = 0;
    c->p += n;
    return true;
}

/* Peek at the identifier at the cursor without consuming it. */
bool seq_asm_peek_ident(SeqAsmCur *c, char *buf, size_t len)
{
    const char *save = c->p;
    bool ok = seq_asm_ident(c, buf, len);
    c->p = save;
    return ok;
}

bool seq_asm_number(SeqAsmCur *c, SeqAsmNum *n)
{
    seq_asm_ws(c);
    c->tok = c->p;
    const char *p = c->p;
    bool neg = false;
    if (*p == '-' || *p == '+') {
        neg = *p == '-';
        p++;
    }
    if (!isdigit((unsigned char)*p)) {
        return seq_asm_error(c, "expected a number");
    }
    unsigned base = 10;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        base = 16;
        p += 2;
    } else if (p[0] == '0' && (p[1] == 'b' || p[1] == 'B')) {
        base = 2;
        p += 2;
    }
    uint64_t v = 0;
    unsigned digits = 0;
    for (;; p++) {
        int ch = (unsigned char)*p, d;
        if (ch == '_') {
            continue;
        }
        if (isdigit(ch)) {
            d = ch - '0';
        } else if (isxdigit(ch) && base == 16) {
            d = tolower(ch) - 'a' + 10;
        } else {
            break;
        }
        if ((unsigned)d >= base) {
            return seq_asm_error(c, "bad digit in number");
        }
        if (v > (UINT64_MAX - (unsigned)d) / base) {
            return seq_asm_error(c, "number does not fit in 64 bits");
        }
        v = v * base + (unsigned)d;
        digits++;
    }
    if (!digits || isalnum((unsigned char)*p) || *p == '_') {
        return seq_asm_error(c, "malformed number");
    }
    if (neg && v > (1ull << 63)) {
        return seq_asm_error(c, "number does not fit in 64 bits");
    }
    n->v = neg ? (uint64_t)0 - v : v;
    n->neg = neg && v != 0;
    c->p = p;
    return true;
}

/* Does n fit in `bits` bits read as signed or unsigned? */
static bool num_fits(const SeqAsmNum *n, unsigned bits)
{
    if (bits >= 64) {
        return true;
    }
    if (n->neg) {
        return (int64_t)n->v >= -(int64_t)(1ull << (bits - 1));
    }
    return n->v < (1ull << bits);
}

bool seq_asm_is_reg_name(const char *s)
{
    if ((s[0] != 'r' && s[0] != 'R' && s[0] != 't' && s[0] != 'T') || !s[1]) {
        return false;
    }
    for (const char *p = s + 1; *p; p++) {
        if (!isdigit((unsigned char)*p)) {
            return false;
        }
    }
    return true;
}

bool seq_asm_value(SeqAsmCur *c, unsigned bits, uint64_t *v)
{
    char name[128];
    const char *start;
    SeqAsmNum n;
    seq_asm_ws(c);
    start = c->p;
    if (ident_start((unsigned char)*c->p) && *c->p != '.') {
        if (!seq_asm_ident(c, name, sizeof(name))) {
            return false;
        }
        if (seq_asm_is_reg_name(name)) {
            c->tok = start;
            return seq_asm_error(c, "expected a number or label, not register '%s'", name);
        }
        uint64_t lv;
        if (c->labels && c->labels(c->opaque, name, &lv)) {
            n.v = lv;
        } else if (c->lax_labels) {
            n.v = c->pc;
        } else {
            c->tok = start;
            return seq_asm_error(c, "undefined label '%s'", name);
        }
        n.neg = false;
        seq_asm_ws(c);
        if (*c->p == '+' || *c->p == '-') {
            SeqAsmNum k;
            if (!seq_asm_number(c, &k)) {
                return false;
            }
            n.v += k.v;
        }
    } else if (!seq_asm_number(c, &n)) {
        return false;
    }
    if (!num_fits(&n, bits)) {
        c->tok = start;
        return seq_asm_error(c, "value does not fit in %u bits", bits);
    }
    *v = bits >= 64 ? n.v : n.v & ((1ull << bits) - 1);
    return true;
}

/* ---- operand helpers ------------------------------------------------- */

/* Parse "<prefix><decimal>" (r5, t3, sem9) from an identifier. */
bool seq_asm_split_num(const char *s, const char *prefix, unsigned max, unsigned *out)
{
    size_t n = strlen(prefix);
    if (strncasecmp(s, prefix, n) != 0 || !s[n]) {
        return false;
    }
    unsigned v = 0;
    for (const char *p = s + n; *p; p++) {
        if (!isdigit((unsigned char)*p) || v > 1000) {
            return false;
        }
        v = v * 10 + (unsigned)(*p - '0');
    }
    if (v > max) {
        return false;
    }
    *out = v;
    return true;
}

bool seq_asm_peek_reg(SeqAsmCur *c)
{
    char id[16];
    unsigned r;
    return seq_asm_peek_ident(c, id, sizeof(id)) && seq_asm_split_num(id, "r", 1000, &r);
}

bool seq_asm_reg(SeqAsmCur *c, unsigned *r)
{
    char id[16];
    if (!seq_asm_ident(c, id, sizeof(id)) || !seq_asm_split_num(id, "r", 1000, r)) {
        return seq_asm_error(c, "expected a register r0..r63");
    }
    if (*r > 63) {
        return seq_asm_error(c, "register '%s' out of range r0..r63", id);
    }
    return true;
}

/* rH:rL */
bool seq_asm_pair(SeqAsmCur *c, unsigned *hi, unsigned *lo)
{
    if (!seq_asm_reg(c, hi)) {
        return false;
    }
    if (*c->p != ':') {
        c->tok = c->p;
        return seq_asm_error(c, "expected a register pair rH:rL");
    }
    c->p++;
    return seq_asm_reg(c, lo);
}

bool seq_asm_uint(SeqAsmCur *c, uint64_t max, uint64_t *v, const char *what)
{
    SeqAsmNum n;
    if (!seq_asm_number(c, &n)) {
        return false;
    }
    if (n.neg || n.v > max) {
        return seq_asm_error(c, "%s out of range 0..%llu", what, (unsigned long long)max);
    }
    *v = n.v;
    return true;
}

#define A8P(name, v) seq_field_put(a, SEQ_F_ADDR8_##name, v)

/* Address operand [A] (§11.3) into the 8 bytes at a. */
bool seq_asm_addr8(SeqAsmCur *c, uint8_t *a)
{
    char id[16];
    unsigned t, hi, lo;
    if (!seq_asm_expect(c, "[")) {
        return false;
    }
    memset(a, 0, SEQ_F_ADDR8_IMM_W); /* the whole operand */
    if (seq_asm_peek_ident(c, id, sizeof(id)) && seq_asm_split_num(id, "t", 1000, &t)) {
        seq_asm_ident(c, id, sizeof(id));
        if (t > 63) {
            return seq_asm_error(c, "address table index out of range t0..t63");
        }
        if (!seq_asm_expect(c, "+")) {
            return false;
        }
        A8P(INDEX, t);
        if (seq_asm_peek_reg(c)) {
            if (!seq_asm_reg(c, &lo)) {
                return false;
            }
            if (*c->p == ':') {
                c->p++;
                hi = lo;
                if (!seq_asm_reg(c, &lo)) {
                    return false;
                }
                A8P(REG_LO, lo);
                A8P(REG_HI, hi);
                A8P(MARKER, 0x2C);
            } else {
                A8P(REG_LO, lo);
                A8P(MARKER, 0x28);
            }
        } else {
            SeqAsmNum n;
            if (!seq_asm_number(c, &n)) {
                return false;
            }
            if (n.neg) {
                return seq_asm_error(c, "table offset must not be negative");
            }
            if (seq_asm_word(c, "wide")) {
                if (n.v >> 48) {
                    return seq_asm_error(c, "table offset does not fit in 48 bits");
                }
                A8P(OFF48, n.v);
                A8P(INDEX, t);
                A8P(MARKER, 0x24);
            } else {
                if (n.v >> 32) {
                    return seq_asm_error(c, "table offset does not fit in 32 bits (use 'wide')");
                }
                A8P(OFF32, n.v);
                A8P(MARKER, 0x20);
            }
        }
    } else if (seq_asm_peek_reg(c)) {
        if (!seq_asm_pair(c, &hi, &lo)) {
            return false;
        }
        A8P(REG_LO, lo);
        A8P(REG_HI, hi);
        A8P(MARKER, 0x80);
    } else {
        uint64_t v;
        seq_asm_ws(c);
        const char *start = c->p;
        if (!seq_asm_value(c, 64, &v)) {
            return false;
        }
        if (v >> 58) {
            c->tok = start;
            return seq_asm_error(c, "immediate address has bits 63:58 set");
        }
        A8P(IMM, v);
    }
    return seq_asm_expect(c, "]");
}

/* `{...}` list of registers (count returned); max 32. */
bool seq_asm_reg_list(SeqAsmCur *c, uint8_t *out, unsigned max, unsigned *count)
{
    unsigned n = 0, r;
    if (!seq_asm_expect(c, "{")) {
        return false;
    }
    if (seq_asm_accept(c, "}")) {
        *count = 0;
        return true;
    }
    do {
        if (n == max) {
            return seq_asm_error(c, "more than %u entries in the list", max);
        }
        if (!seq_asm_reg(c, &r)) {
            return false;
        }
        out[n++] = (uint8_t)r;
    } while (seq_asm_accept(c, ","));
    *count = n;
    return seq_asm_expect(c, "}");
}

int seq_asm_dtype(const char *s)
{
    for (unsigned d = 1; d < 16; d++) {
        if (strcasecmp(s, seq_dtype_name(d)) == 0) {
            return (int)d;
        }
    }
    return -1;
}

bool seq_asm_word(SeqAsmCur *c, const char *w)
{
    char id[32];
    const char *save = c->p;
    if (seq_asm_ident(c, id, sizeof(id)) && strcasecmp(id, w) == 0) {
        return true;
    }
    c->p = save;
    if (c->err->len == 0) {
        c->tok = save;
    }
    return false;
}

bool seq_asm_expect_word(SeqAsmCur *c, const char *w)
{
    if (seq_asm_word(c, w)) {
        return true;
    }
    char t[32];
    seq_asm_ws(c);
    c->tok = c->p;
    seq_asm_tok_text(c, t, sizeof(t));
    return seq_asm_error(c, "expected '%s' before '%s'", w, t);
}
