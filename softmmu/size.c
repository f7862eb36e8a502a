/*
 * Memory sizes as QEMU reads them (util/cutils.c qemu_strtosz and the
 * legacy rule of vl.c parse_memory_options for -m):
 *
 *   - an integer in decimal, optionally with a fraction ("1.5"), or in
 *     hexadecimal with 0x (no fraction, no suffix);
 *   - an optional suffix B, K, M, G, T, P or E (either case), powers of 1024;
 *     a fraction needs a suffix other than B and is rounded to the nearest
 *     byte (half up);
 *   - for -m (and our -machine hbm=): a value whose last character is a digit
 *     has no suffix and counts MiB ("-m 1024" is 1 GiB, "-m 0x400" too).
 */
#include <string.h>

#include <glib.h>

#include "softmmu/options.h"

static int suffix_shift(char c)
{
    switch (g_ascii_toupper(c)) {
    case 'B':
        return 0;
    case 'K':
        return 10;
    case 'M':
        return 20;
    case 'G':
        return 30;
    case 'T':
        return 40;
    case 'P':
        return 50;
    case 'E':
        return 60;
    default:
        return -1;
    }
}

/* round(frac / 10^ndig * 2^shift), frac < 10^ndig <= 10^18: bitwise long division. */
static uint64_t frac_bytes(uint64_t frac, uint64_t pow10, int shift)
{
    uint64_t q = 0, rem = frac;
    for (int i = 0; i < shift; i++) {
        rem *= 2;
        q = q * 2 + rem / pow10;
        rem %= pow10;
    }
    return q + (2 * rem >= pow10);
}

bool nx_parse_size(const char *s, uint64_t *out)
{
    const char *p = s;
    uint64_t val = 0, frac = 0, pow10 = 1;
    bool has_frac = false;
    int shift = 0;

    if (!s || !g_ascii_isdigit(*p)) {
        return false; /* no sign, no leading blanks, no bare fraction */
    }
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        p += 2;
        if (!g_ascii_isxdigit(*p)) {
            return false;
        }
        for (; g_ascii_isxdigit(*p); p++) {
            if (val >> 60) {
                return false;
            }
            val = val << 4 | (uint64_t)g_ascii_xdigit_value(*p);
        }
        if (*p) {
            return false; /* hexadecimal: no fraction, no suffix */
        }
        *out = val;
        return true;
    }
    for (; g_ascii_isdigit(*p); p++) {
        unsigned d = (unsigned)(*p - '0');
        if (val > (UINT64_MAX - d) / 10) {
            return false;
        }
        val = val * 10 + d;
    }
    if (*p == '.') {
        p++;
        has_frac = true;
        for (; g_ascii_isdigit(*p); p++) {
            if (pow10 < 1000000000000000000ull) { /* further digits cannot matter */
                frac = frac * 10 + (uint64_t)(*p - '0');
                pow10 *= 10;
            }
        }
    }
    if (*p) {
        shift = suffix_shift(*p);
        if (shift < 0 || p[1]) {
            return false;
        }
    }
    if (has_frac && shift == 0) {
        return false; /* a fraction needs a scale */
    }
    if (shift && val > (UINT64_MAX >> shift)) {
        return false;
    }
    uint64_t f = has_frac ? frac_bytes(frac, pow10, shift) : 0;
    if ((val << shift) > UINT64_MAX - f) {
        return false;
    }
    *out = (val << shift) + f;
    return true;
}

bool nx_parse_size_mib(const char *s, uint64_t *out)
{
    uint64_t v;
    if (!nx_parse_size(s, &v)) {
        return false;
    }
    if (g_ascii_isdigit(s[strlen(s) - 1])) { /* no suffix: MiB */
        if (v > (UINT64_MAX >> 20)) {
            return false;
        }
        v <<= 20;
    }
    *out = v;
    return true;
}
