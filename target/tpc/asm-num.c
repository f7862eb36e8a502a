/*
 * Lexical pieces of the TPC assembler: numbers in every vendor spelling
 * (tpc.md §8.2, §8.7) and register names (§8.2).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "target/tpc/asm-int.h"

static uint32_t f32_bits(double d)
{
    float f = (float)d;
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* f32 -> bf16 with round to nearest even (NaN stays a quiet NaN). */
static uint32_t bf16_bits(double d)
{
    uint32_t u = f32_bits(d);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return (u >> 16) | 0x40;
    return (u + 0x7fffu + ((u >> 16) & 1)) >> 16;
}

/* IEEE binary16, round to nearest even. */
static uint32_t f16_bits(double d)
{
    uint32_t u = f32_bits(d);
    uint32_t sign = (u >> 16) & 0x8000u;
    int32_t exp = (int32_t)((u >> 23) & 0xff);
    uint32_t man = u & 0x7fffffu;
    if (exp == 0xff)
        return sign | 0x7c00u | (man ? 0x200u : 0);
    int32_t e = exp - 127 + 15;
    if (e >= 31)
        return sign | 0x7c00u;
    if (e <= 0) {
        if (e < -10)
            return sign;
        man |= 0x800000u;
        unsigned shift = (unsigned)(14 - e);
        uint32_t h = man >> shift, rem = man & ((1u << shift) - 1), half = 1u << (shift - 1);
        if (rem > half || (rem == half && (h & 1)))
            h++;
        return sign | h;
    }
    uint32_t h = (uint32_t)e << 10 | man >> 13, rem = man & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1)))
        h++;
    return sign | h;
}

/* Range of a real literal in its target format (kind 1 f32, 2 bf16, 3 IEEE
 * half): the vendor assembler rejects values beyond the largest finite one
 * ("Type overflow") and non-zero values below the smallest normal one ("Type
 * underflow"), tpc-llvm compare/literals-e-01.  NULL when the value fits. */
static const char *real_range(double d, int kind)
{
    static const double maxv[4] = {0, 3.4028234663852886e38, 3.3895313892515355e38, 65504.0};
    static const double minn[4] = {0, 1.1754943508222875e-38, 1.1754943508222875e-38,
                                   6.103515625e-05};
    double a = fabs(d);
    if (isnan(d))
        return NULL;
    if (a > maxv[kind])
        return "floating-point literal overflows its type";
    if (a != 0 && a < minn[kind])
        return "floating-point literal underflows its type (below the smallest normal)";
    return NULL;
}

static bool all_digits(const char *s, int base)
{
    if (!*s)
        return false;
    for (; *s; s++) {
        int c = g_ascii_tolower(*s);
        bool ok = base == 16 ? g_ascii_isxdigit(c) : (c >= '0' && c < '0' + base);
        if (!ok)
            return false;
    }
    return true;
}

/* Unsigned integer in the C-like spellings: 0x.., 0b.., 0.. (octal), decimal. */
static bool parse_uint(const char *s, uint64_t *v, const char **err)
{
    int base = 10;
    const char *p = s;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
        base = 16, p += 2;
    else if (p[0] == '0' && (p[1] == 'b' || p[1] == 'B'))
        base = 2, p += 2;
    else if (p[0] == '0' && p[1])
        base = 8, p += 1;
    if (!all_digits(p, base))
        return false;
    errno = 0;
    unsigned long long x = strtoull(p, NULL, base);
    if (errno || x > 0xffffffffull) {
        *err = "number does not fit in 32 bits";
        return true;
    }
    *v = x;
    return true;
}

static bool is_real(const char *s)
{
    if (!*s)
        return false;
    char *end;
    errno = 0;
    (void)strtod(s, &end);
    return *end == 0 && strpbrk(s, ".eE") && !strpbrk(s, "xX") && !strpbrk(s, "nN");
}

bool asm_parse_number(const char *s, uint32_t *value, bool *bare_float, const char **err)
{
    bool neg = false;
    uint64_t v;
    size_t n;
    char buf[128];

    *err = NULL;
    *bare_float = false;
    if (*s == '-' || *s == '+')
        neg = *s++ == '-';
    n = strlen(s);
    if (!n || n >= sizeof(buf))
        return false;
    memcpy(buf, s, n + 1);

    /* typed literal iN_V / uN_V / f32_V / bf16_V */
    const char *us = strchr(buf, '_');
    if (us && g_ascii_isalpha(buf[0])) {
        size_t pl = (size_t)(us - buf);
        const char *body = us + 1;
        char pre[8];
        if (pl >= sizeof(pre))
            return false;
        for (size_t i = 0; i < pl; i++)
            pre[i] = g_ascii_tolower(buf[i]);
        pre[pl] = 0;
        if (!strcmp(pre, "f32") || !strcmp(pre, "bf16")) {
            if (!is_real(body) && !all_digits(body, 10)) {
                *err = "malformed floating-point literal";
                return true;
            }
            double d = strtod(body, NULL) * (neg ? -1 : 1);
            *value = pre[0] == 'f' ? f32_bits(d) : bf16_bits(d);
            *err = real_range(d, pre[0] == 'f' ? 1 : 2);
            return true;
        }
        if ((pre[0] == 'i' || pre[0] == 'u') &&
            (!strcmp(pre + 1, "8") || !strcmp(pre + 1, "16") || !strcmp(pre + 1, "32"))) {
            bool bneg = neg;
            if (*body == '-')
                bneg = !bneg, body++;
            if (*body == 'x' || *body == 'X') {
                if (!all_digits(body + 1, 16) || strlen(body + 1) > 8) {
                    *err = "malformed hexadecimal literal";
                    return true;
                }
                v = strtoull(body + 1, NULL, 16);
            } else {
                if (!all_digits(body, 10)) {
                    *err = "malformed integer literal";
                    return true;
                }
                errno = 0;
                v = strtoull(body, NULL, 10);
                if (errno || v > 0xffffffffull) {
                    *err = "number does not fit in 32 bits";
                    return true;
                }
            }
            *value = (uint32_t)(bneg ? (uint32_t)(0u - (uint32_t)v) : (uint32_t)v);
            return true;
        }
        return false;
    }

    /* integer with u/U suffix */
    if (n > 1 && (buf[n - 1] == 'u' || buf[n - 1] == 'U') && g_ascii_isdigit(buf[0]) &&
        !(buf[1] == 'x' || buf[1] == 'X')) {
        buf[n - 1] = 0;
        if (!parse_uint(buf, &v, err))
            return false;
        if (neg && !*err)
            *err = "a negative number cannot have the 'u' suffix";
        *value = neg ? (uint32_t)(0u - (uint32_t)v) : (uint32_t)v;
        return true;
    }
    /* real with f / bf / h suffix */
    if (n > 1 && g_ascii_isdigit(buf[0]) && !(buf[1] == 'x' || buf[1] == 'X')) {
        int kind = 0; /* 1 f32, 2 bf16, 3 half */
        if (n > 2 && !g_ascii_strcasecmp(buf + n - 2, "bf"))
            kind = 2, buf[n - 2] = 0;
        else if (buf[n - 1] == 'f' || buf[n - 1] == 'F')
            kind = 1, buf[n - 1] = 0;
        else if (buf[n - 1] == 'h' || buf[n - 1] == 'H')
            kind = 3, buf[n - 1] = 0;
        if (kind) {
            if (!is_real(buf) && !all_digits(buf, 10))
                return false;
            double d = strtod(buf, NULL) * (neg ? -1 : 1);
            *value = kind == 1 ? f32_bits(d) : kind == 2 ? bf16_bits(d) : f16_bits(d);
            *err = real_range(d, kind);
            return true;
        }
    }
    if (g_ascii_isdigit(buf[0]) || buf[0] == '.') {
        if (parse_uint(buf, &v, err)) {
            if (!*err && neg && v > 0x80000000ull)
                *err = "number does not fit in 32 bits";
            *value = neg ? (uint32_t)(0u - (uint32_t)v) : (uint32_t)v;
            return true;
        }
        if (is_real(buf)) {
            double d = strtod(buf, NULL) * (neg ? -1 : 1);
            *value = f32_bits(d);
            *bare_float = true;
            *err = real_range(d, 1);
            return true;
        }
        *err = "malformed number";
        return true;
    }
    return false;
}

static bool reg_num(const char *p, unsigned *num)
{
    if (!all_digits(p, 10) || strlen(p) > 3 || (p[0] == '0' && p[1]))
        return false;
    *num = (unsigned)atoi(p);
    return true;
}

bool asm_parse_reg(const char *s, int *kind, unsigned *num, unsigned *group, const char **err)
{
    static const struct {
        const char *name;
        int kind;
        unsigned num;
    } specials[] = {
        {"s_lfsr_no_change", TPC_OP_SLFSR, 1},
        {"s_lfsr", TPC_OP_SLFSR, 0},
        {"lfsr_no_change", TPC_OP_VSPECIAL, TPC_VS_LFSR_NO_CHANGE},
        {"lfsr", TPC_OP_VSPECIAL, TPC_VS_LFSR},
        {"v_lane_id_32", TPC_OP_VSPECIAL, TPC_VS_LANE_ID_32},
        {"v_lane_id_16", TPC_OP_VSPECIAL, TPC_VS_LANE_ID_16},
        {"v_lane_id_8", TPC_OP_VSPECIAL, TPC_VS_LANE_ID_8},
        {"pc", TPC_OP_HWREG, 0},
    };
    static const struct {
        const char *prefix;
        int kind;
        unsigned limit, group;
    } files[] = {
        {"sp", TPC_OP_SP, 16, 1}, {"vp", TPC_OP_VP, 16, 1}, {"ad", TPC_OP_AD, 8, 1},
        {"s", TPC_OP_S, 36, 1},   {"v", TPC_OP_V, 40, 1},   {"d", TPC_OP_V, 40, 2},
        {"a", TPC_OP_V, 40, 4},   {"i", TPC_OP_I, 32, 1},   {"z", TPC_OP_S, 36, 2},
    };
    *err = NULL;
    *group = 1;
    for (size_t i = 0; i < G_N_ELEMENTS(specials); i++) {
        if (!g_ascii_strcasecmp(s, specials[i].name)) {
            *kind = specials[i].kind;
            *num = specials[i].num;
            return true;
        }
    }
    for (size_t i = 0; i < G_N_ELEMENTS(files); i++) {
        size_t pl = strlen(files[i].prefix);
        if (g_ascii_strncasecmp(s, files[i].prefix, pl) != 0 || !reg_num(s + pl, num))
            continue;
        *kind = files[i].kind;
        *group = files[i].group;
        if (*num >= files[i].limit)
            *err = "register does not exist on Gaudi";
        else if (*num % files[i].group)
            *err = files[i].group == 2 ? "pair registers (D, Z) must have an even number"
                                       : "quad registers A must have a multiple of 4";
        return true;
    }
    return false;
}

bool asm_parse_operand(AsmCtx *c, const Word *w, AOp *op)
{
    const char *s = w->s, *err = NULL;
    memset(op, 0, sizeof(*op));
    op->col = w->col;
    op->s = s;
    for (int i = 0; i < 6; i++) {
        if (!strcmp(s, tpc_loop_cmp_name[i])) { /* LOOP comparison */
            op->type = AOP_NAME;
            return true;
        }
    }
    if (*s == '!') {
        op->neg_pred = true;
        s++;
    }
    /* the compiler's -S output writes registers as %V0, !%SP1 */
    bool percent = *s == '%';
    if (percent)
        s++;
    if (asm_parse_reg(s, &op->kind, &op->num, &op->group, &err)) {
        if (err) {
            asm_error(c, w->col, "%s: '%s'", err, s);
            return false;
        }
        if (op->neg_pred && op->kind != TPC_OP_SP && op->kind != TPC_OP_VP) {
            asm_error(c, w->col, "'!' applies only to a predicate register: '%s'", w->s);
            return false;
        }
        op->type = AOP_REG;
        return true;
    }
    if (percent) {
        asm_error(c, w->col, "'%%' must be followed by a register name: '%s'", w->s);
        return false;
    }
    if (op->neg_pred) {
        asm_error(c, w->col, "'!' applies only to a predicate register: '%s'", w->s);
        return false;
    }
    /* `.LBB0_3` (the compiler's block labels) is a name, not a number */
    bool dot_name = s[0] == '.' && (g_ascii_isalpha(s[1]) || s[1] == '_');
    if (!dot_name && asm_parse_number(s, &op->value, &op->bare_float, &err)) {
        if (err) {
            asm_error(c, w->col, "%s: '%s'", err, s);
            return false;
        }
        op->type = AOP_IMM;
        return true;
    }
    if (g_ascii_isalpha(*s) || *s == '_' || *s == '.' || *s == '$') {
        for (const char *p = s; *p; p++) {
            if (!g_ascii_isalnum(*p) && *p != '_' && *p != '.' && *p != '$') {
                asm_error(c, w->col, "unexpected operand '%s'", s);
                return false;
            }
        }
        op->type = AOP_NAME;
        return true;
    }
    asm_error(c, w->col, "unexpected operand '%s'", s);
    return false;
}
