/*
 * nxemu-test's JSON reader.  GLib has no JSON parser and the runner takes
 * no other library: this small strict reader is enough for the files it
 * reads back, its own --json reports (--failed-from, --cost-from) and
 * nxemu's -coverage reports (--coverage).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "nxemu-test.h"

typedef struct JParser {
    const char *text, *p;
    const char *file;
    GError **err;
    int depth;
} JParser;

void nt_json_free(gpointer p)
{
    NtJson *n = p;
    if (!n) {
        return;
    }
    g_free(n->str);
    if (n->items) {
        g_ptr_array_unref(n->items);
    }
    if (n->keys) {
        g_ptr_array_unref(n->keys);
    }
    g_free(n);
}

static NtJson *jfail(JParser *j, const char *what)
{
    int line = 1;
    for (const char *q = j->text; q < j->p; q++) {
        line += *q == '\n';
    }
    if (j->err && !*j->err) {
        g_set_error(j->err, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s:%d: error: bad JSON: %s", j->file,
                    line, what);
    }
    return NULL;
}

static void jws(JParser *j)
{
    while (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r') {
        j->p++;
    }
}

static char *jstring(JParser *j)
{
    GString *s = g_string_new(NULL);
    j->p++; /* opening quote */
    while (*j->p && *j->p != '"') {
        if ((unsigned char)*j->p < 0x20) {
            break;
        }
        if (*j->p != '\\') {
            g_string_append_c(s, *j->p++);
            continue;
        }
        j->p++;
        const char *esc = strchr("\"\\/bfnrt", *j->p);
        if (*j->p && esc) {
            g_string_append_c(s, "\"\\/\b\f\n\r\t"[esc - "\"\\/bfnrt"]);
            j->p++;
        } else if (*j->p == 'u' && g_ascii_isxdigit(j->p[1]) && g_ascii_isxdigit(j->p[2]) &&
                   g_ascii_isxdigit(j->p[3]) && g_ascii_isxdigit(j->p[4])) {
            char hex[5] = {j->p[1], j->p[2], j->p[3], j->p[4], 0};
            g_string_append_unichar(s, (gunichar)strtoul(hex, NULL, 16));
            j->p += 5;
        } else {
            g_string_free(s, TRUE);
            jfail(j, "bad escape in string");
            return NULL;
        }
    }
    if (*j->p != '"') {
        g_string_free(s, TRUE);
        jfail(j, "unterminated string");
        return NULL;
    }
    j->p++;
    return g_string_free(s, FALSE);
}

static NtJson *jvalue(JParser *j)
{
    NtJson *n = g_new0(NtJson, 1);
    jws(j);
    if (++j->depth > 64) {
        nt_json_free(n);
        return jfail(j, "nested too deeply");
    }
    if (*j->p == '"') {
        n->type = NT_J_STR;
        if (!(n->str = jstring(j))) {
            nt_json_free(n);
            return NULL;
        }
    } else if (*j->p == '[' || *j->p == '{') {
        bool obj = *j->p == '{';
        char close = obj ? '}' : ']';
        n->type = obj ? NT_J_OBJ : NT_J_ARR;
        n->items = g_ptr_array_new_with_free_func(nt_json_free);
        n->keys = g_ptr_array_new_with_free_func(g_free);
        j->p++;
        jws(j);
        if (*j->p == close) {
            j->p++;
        } else {
            for (;;) {
                jws(j);
                if (obj) {
                    char *k = *j->p == '"' ? jstring(j) : NULL;
                    if (!k) {
                        nt_json_free(n);
                        return jfail(j, "expected a string key");
                    }
                    g_ptr_array_add(n->keys, k);
                    jws(j);
                    if (*j->p++ != ':') {
                        nt_json_free(n);
                        return jfail(j, "expected ':'");
                    }
                }
                NtJson *v = jvalue(j);
                if (!v) {
                    nt_json_free(n);
                    return NULL;
                }
                g_ptr_array_add(n->items, v);
                jws(j);
                if (*j->p == ',') {
                    j->p++;
                } else if (*j->p == close) {
                    j->p++;
                    break;
                } else {
                    nt_json_free(n);
                    return jfail(j, obj ? "expected ',' or '}'" : "expected ',' or ']'");
                }
            }
        }
    } else if (!strncmp(j->p, "null", 4)) {
        n->type = NT_J_NULL;
        j->p += 4;
    } else if (!strncmp(j->p, "true", 4) || !strncmp(j->p, "false", 5)) {
        n->type = NT_J_BOOL;
        n->num = *j->p == 't';
        j->p += *j->p == 't' ? 4 : 5;
    } else {
        char *end = NULL;
        errno = 0;
        n->type = NT_J_NUM;
        n->num = g_ascii_strtod(j->p, &end);
        if (end == j->p || errno) {
            nt_json_free(n);
            return jfail(j, "expected a value");
        }
        j->p = end;
    }
    j->depth--;
    return n;
}

NtJson *nt_json_get(NtJson *obj, const char *key, NtJType type)
{
    for (guint i = 0; obj && obj->type == NT_J_OBJ && i < obj->keys->len; i++) {
        if (!strcmp(g_ptr_array_index(obj->keys, i), key)) {
            NtJson *v = g_ptr_array_index(obj->items, i);
            return v->type == type ? v : NULL;
        }
    }
    return NULL;
}

NtJson *nt_json_parse(const char *text, const char *file, GError **err)
{
    JParser j = {.text = text, .p = text, .file = file, .err = err};
    NtJson *root = jvalue(&j);
    if (root) {
        jws(&j);
        if (*j.p) {
            jfail(&j, "trailing text after the value");
            nt_json_free(root);
            root = NULL;
        }
    }
    return root;
}
