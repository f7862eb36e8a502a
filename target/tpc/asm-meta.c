/*
 * TPC assembler: the .tpc_metadata section (tpc.md §8.6), as `field: DB|DW|DD
 * value` lines (the vendor assembler's form) or as one .ascii/.asciz string
 * (the compiler's -S output).
 */
#include <string.h>

#include "target/tpc/asm-int.h"

/* `flag` fields are booleans: the vendor assembler rejects other values
 * (tpc-llvm compare/tpc_metadata/tpc_metadata_wrong_bool_value). */
static const struct {
    const char *name;
    uint8_t off, size;
    bool flag;
} md_fields[] = {
    {"version", 0, 4, false},
    {"specialFunctionUsed", 4, 1, true},
    {"printfUsed", 5, 1, true},
    {"lockUnLock", 6, 1, true},
    {"mmioUsed", 7, 1, true},
    {"march", 8, 2, false},
    {"paramsNum", 12, 1, false},
    {"printfTensorID", 13, 1, false},
    {"numberOfThreads", 14, 1, false},
    {"directMMIOAccess", 15, 1, true},
    {"dnorm", 16, 1, true},
};

void asm_metadata_line(AsmCtx *c, AsmMetadata *m, char *line, int col0)
{
    uint8_t *md = m->bytes;
    char *colon = strchr(line, ':');
    if (!colon) {
        asm_error(c, col0, "expected 'field: DB|DW|DD value' in .tpc_metadata");
        return;
    }
    *colon = 0;
    char *name = asm_trim(line);
    char **w = g_strsplit_set(colon + 1, " \t", -1);
    char *dx = NULL, *val = NULL;
    for (int i = 0; w[i]; i++) {
        if (!*w[i])
            continue;
        if (!dx)
            dx = w[i];
        else if (!val)
            val = w[i];
        else {
            asm_error(c, col0, "unexpected text after the metadata value");
            goto out;
        }
    }
    if (!dx || !val) {
        asm_error(c, col0, "expected 'field: DB|DW|DD value' in .tpc_metadata");
        goto out;
    }
    /* scalarLd[i] / rmwStore[i] / scalarLd: DH bits */
    char *br = strchr(name, '[');
    bool is_sld = !g_ascii_strncasecmp(name, "scalarLd", 8);
    bool is_rmw = !g_ascii_strncasecmp(name, "rmwStore", 8);
    if ((is_sld || is_rmw) && (name[8] == '[' || name[8] == 0)) {
        unsigned base = is_sld ? 26 : 28, which = is_sld ? 0 : 1;
        if (!br) {
            if (g_ascii_strcasecmp(dx, "DH") != 0 || strlen(val) != 16 || strspn(val, "01") != 16) {
                asm_error(c, col0, "'%s: DH' needs 16 characters 0/1 (character i = tensor i)",
                          name);
                goto out;
            }
            for (unsigned t = 0; t < 16; t++) {
                if (m->tensor_given[which] & (1u << t)) {
                    asm_error(c, col0, "metadata field '%s[%u]' redefined", name, t);
                    goto out;
                }
                m->tensor_given[which] |= 1u << t;
                if (val[t] == '1')
                    md[base + t / 8] |= (uint8_t)(1u << (t % 8));
            }
            goto out;
        }
        char *end;
        unsigned long t = strtoul(br + 1, &end, 10);
        uint32_t v;
        bool bare;
        const char *err;
        if (end == br + 1 || *end != ']' || end[1] || t > 15) {
            asm_error(c, col0, "bad tensor index in '%s' (0..15)", name);
            goto out;
        }
        if (!asm_parse_number(val, &v, &bare, &err) || err || v > 1) {
            asm_error(c, col0, "'%s' takes 0 or 1", name);
            goto out;
        }
        if (m->tensor_given[which] & (1u << t)) {
            asm_error(c, col0, "metadata field '%s' redefined", name);
            goto out;
        }
        m->tensor_given[which] |= 1u << t;
        if (v)
            md[base + t / 8] |= (uint8_t)(1u << (t % 8));
        goto out;
    }
    for (size_t i = 0; i < G_N_ELEMENTS(md_fields); i++) {
        if (g_ascii_strcasecmp(name, md_fields[i].name) != 0)
            continue;
        uint32_t v;
        bool bare;
        const char *err;
        unsigned dsz = !g_ascii_strcasecmp(dx, "DB")   ? 1
                       : !g_ascii_strcasecmp(dx, "DW") ? 2
                       : !g_ascii_strcasecmp(dx, "DD") ? 4
                                                       : 0;
        if (!dsz) {
            asm_error(c, col0, "metadata size must be DB, DW or DD, not '%s'", dx);
            goto out;
        }
        if (!asm_parse_number(val, &v, &bare, &err) || err || bare) {
            asm_error(c, col0, "bad metadata value '%s'", val);
            goto out;
        }
        if (md_fields[i].flag && v > 1) {
            asm_error(c, col0, "metadata field '%s' takes 0 or 1, not %u", md_fields[i].name, v);
            goto out;
        }
        if (md_fields[i].size < 4 && (v >> (8 * md_fields[i].size))) {
            asm_error(c, col0, "value %u does not fit metadata field '%s'", v, md_fields[i].name);
            goto out;
        }
        if (m->given & (1u << i)) {
            asm_error(c, col0, "metadata field '%s' redefined", md_fields[i].name);
            goto out;
        }
        m->given |= 1u << i;
        for (unsigned k = 0; k < md_fields[i].size; k++)
            md[md_fields[i].off + k] = (uint8_t)(v >> (8 * k));
        goto out;
    }
    asm_error(c, col0, "unknown metadata field '%s'", name);
out:
    g_strfreev(w);
}

/* `.ascii "..."` / `.asciz "..."` in .tpc_metadata: the compiler's -S
 * output gives the 262 metadata bytes as one C string (escapes \ooo, \",
 * \\, \n, \t, \xHH); the bytes are the section's contents. */
bool asm_metadata_string(AsmCtx *c, AsmMetadata *m, const char *arg, int col, bool nul)
{
    GByteArray *b = g_byte_array_new();
    const char *p = arg;
    bool ok = false;
    if (*p++ != '"') {
        asm_error(c, col, "expected a quoted string");
        goto out;
    }
    while (*p && *p != '"') {
        uint8_t v;
        if (*p != '\\') {
            v = (uint8_t)*p++;
        } else if (p[1] >= '0' && p[1] <= '7') {
            unsigned o = 0;
            int k = 0;
            for (p++; k < 3 && *p >= '0' && *p <= '7'; k++, p++)
                o = o * 8 + (unsigned)(*p - '0');
            v = (uint8_t)o;
        } else if (p[1] == 'x' && g_ascii_isxdigit(p[2])) {
            unsigned h = 0;
            for (p += 2; g_ascii_isxdigit(*p); p++)
                h = h * 16 + (unsigned)g_ascii_xdigit_value(*p);
            v = (uint8_t)h;
        } else if (p[1]) {
            static const char from[] = "ntrbf", to[] = "\n\t\r\b\f";
            const char *e = strchr(from, p[1]);
            v = e ? (uint8_t)to[e - from] : (uint8_t)p[1];
            p += 2;
        } else {
            break;
        }
        g_byte_array_append(b, &v, 1);
    }
    if (*p != '"') {
        asm_error(c, col, "unterminated string");
        goto out;
    }
    if (nul)
        g_byte_array_append(b, (const guint8 *)"", 1);
    if (m->nbytes + b->len > TPC_METADATA_SIZE) {
        asm_error(c, col, ".tpc_metadata string data exceeds %d bytes", TPC_METADATA_SIZE);
        goto out;
    }
    memcpy(m->bytes + m->nbytes, b->data, b->len);
    m->nbytes += b->len;
    ok = true;
out:
    g_byte_array_free(b, TRUE);
    return ok;
}
