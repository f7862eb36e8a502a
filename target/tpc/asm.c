/*
 * TPC assembler driver (tpc.md §8.1, §8.6, §8.7): lines, bundles, brace
 * form, labels, sections and directives (metadata fields: asm-meta.c); the
 * compiler's -S output (one instruction per line, `{ }` groups, `%`
 * registers; slot choice: asm_group in asm-insn.c); two passes (labels are
 * resolved after the whole file is read).
 */
#include <stdarg.h>
#include <string.h>

#include "target/tpc/asm-int.h"
#include "target/tpc/insn.h"

void asm_error(AsmCtx *c, int col, const char *fmt, ...)
{
    va_list ap;
    c->errors++;
    if (c->quiet)
        return;
    fprintf(c->err, "%s:%u:%d: error: ", c->file, c->line, col > 0 ? col : 1);
    va_start(ap, fmt);
    vfprintf(c->err, fmt, ap);
    va_end(ap);
    fputc('\n', c->err);
}

void asm_warn(AsmCtx *c, int col, const char *fmt, ...)
{
    va_list ap;
    if (c->quiet)
        return;
    fprintf(c->err, "nxemu: warning: %s:%u:%d: ", c->file, c->line, col > 0 ? col : 1);
    va_start(ap, fmt);
    vfprintf(c->err, fmt, ap);
    va_end(ap);
    fputc('\n', c->err);
}

void tpc_object_init(TpcObject *obj)
{
    memset(obj, 0, sizeof(*obj));
    obj->text = g_byte_array_new();
    obj->syms = g_array_new(FALSE, TRUE, sizeof(TpcSym));
    obj->lines = g_array_new(FALSE, TRUE, sizeof(NxLineRow));
    obj->extra = g_ptr_array_new();
    /* defaults of tpc.md §7.1: version 12, march 2 (Gaudi), one thread */
    obj->metadata[0] = 12;
    obj->metadata[8] = 2;
    obj->metadata[14] = 1;
}

void tpc_object_free(TpcObject *obj)
{
    if (obj->text)
        g_byte_array_free(obj->text, TRUE);
    if (obj->syms) {
        for (guint i = 0; i < obj->syms->len; i++)
            g_free(g_array_index(obj->syms, TpcSym, i).name);
        g_array_free(obj->syms, TRUE);
    }
    if (obj->extra) {
        for (guint i = 0; i < obj->extra->len; i++) {
            TpcSection *s = g_ptr_array_index(obj->extra, i);
            g_free(s->name);
            g_byte_array_free(s->data, TRUE);
            g_free(s);
        }
        g_ptr_array_free(obj->extra, TRUE);
    }
    if (obj->lines)
        g_array_free(obj->lines, TRUE);
    memset(obj, 0, sizeof(*obj));
}

/* ---- per-file state ---- */

enum { SEC_TEXT, SEC_METADATA, SEC_OTHER };

typedef struct Label {
    uint32_t offset;
    unsigned line;
    bool global;
} Label;

typedef struct Fix {
    uint32_t offset; /* bundle offset in .text */
    AsmBundle ab;    /* ImmUse / fixup data (bytes already in .text) */
} Fix;

typedef struct File {
    AsmCtx c;
    TpcObject *obj;
    GHashTable *labels;   /* name -> Label* */
    GPtrArray *order;     /* label names in definition order */
    GPtrArray *globals;   /* names from .globl */
    GArray *global_lines; /* their source lines */
    GArray *fixes;        /* Fix: bundles needing pass 2 */
    int section;
    TpcSection *other; /* current unknown section */
    bool md_seen;
    AsmMetadata md; /* fields given so far; bytes = obj->metadata */
    bool indexmap_seen;
    /* brace form: the group's instructions, assembled at '}' */
    bool in_brace;
    unsigned brace_line;
    GArray *brace; /* AsmInsnLine */
    /* the file is the compiler's -S output (registers written %V0): lone
     * instruction lines and groups take the slot their instruction fits */
    bool by_insn;
    GPtrArray *data_syms; /* labels outside .text (tpc_metadata:) */
    unsigned group_line;  /* source line of the group being emitted (its first slot) */
} File;

static bool is_ident(const char *s)
{
    if (!g_ascii_isalpha(*s) && *s != '_' && *s != '.' && *s != '$')
        return false;
    for (s++; *s; s++)
        if (!g_ascii_isalnum(*s) && *s != '_' && *s != '.' && *s != '$')
            return false;
    return true;
}

char *asm_trim(char *s)
{
    while (*s == ' ' || *s == '\t' || *s == '\r')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
        s[--n] = 0;
    return s;
}

/* Check the shared-field rules and queue the bundle for pass 2. */
static void emit_bundle(File *f, AsmBundle *ab)
{
    AsmCtx *c = &f->c;
    /* one field, two readers: legal when both want the same bits (the
     * vendor's compiler pairs `mov V11, V3` with a flag-less form_fp_num) */
    if (ab->uses_ld_b && ab->uses_vpu_d && ab->ld_b != ab->vpu_d)
        asm_error(c, 1,
                  "the load slot's SRC_B (0x%x) and the VPU's SRC_D (0x%x) share bits 81:73: "
                  "they must be equal in one bundle",
                  ab->ld_b, ab->vpu_d);
    if (ab->uses_st_c && ab->uses_vpu_c && ab->st_c != ab->vpu_c)
        asm_error(c, 1,
                  "the store slot's SRC_C (0x%x) and the VPU's SRC_C (0x%x) share bits 72:65: "
                  "they must be equal in one bundle",
                  ab->st_c, ab->vpu_c);
    Fix fx;
    memset(&fx, 0, sizeof(fx));
    fx.offset = f->obj->text->len;
    fx.ab = *ab;
    fx.ab.line = c->line;
    NxLineRow row = {.addr = fx.offset,
                     .size = TPC_BUNDLE_BYTES,
                     .line = f->group_line ? f->group_line : c->line};
    if (f->obj->lines)
        g_array_append_val(f->obj->lines, row);
    g_byte_array_append(f->obj->text, ab->b, TPC_BUNDLE_BYTES);
    g_array_append_val(f->fixes, fx);
}

/* A bundle that is not emitted (after an error) owns its fixup label. */
static void drop_bundle(AsmBundle *ab)
{
    g_free(ab->fix_label);
    ab->fix_label = NULL;
}

/* One bundle line `ld; spu; vpu; st` (fewer slots: trailing NOPs). */
static void bundle_line(File *f, char *line, int col0)
{
    AsmCtx *c = &f->c;
    AsmBundle ab;
    char *parts[6];
    int cols[6], n = 0;
    char *p = line;

    asm_bundle_init(&ab);
    for (;;) {
        char *semi = strchr(p, ';');
        if (n == 5) {
            asm_error(c, col0 + (int)(p - line), "more than four slots in a bundle");
            return;
        }
        if (semi)
            *semi = 0;
        char *t = asm_trim(p);
        parts[n] = t;
        cols[n] = col0 + (int)(t - line);
        n++;
        if (!semi)
            break;
        p = semi + 1;
    }
    if (n > 1 && !*parts[n - 1])
        n--; /* trailing ';' */
    if (n > 4) {
        asm_error(c, cols[4], "more than four slots in a bundle");
        return;
    }
    if (n == 1) {
        char *sp = parts[0];
        size_t ml = strcspn(sp, " \t");
        if (ml == 4 && !g_ascii_strncasecmp(sp, "loop", 4)) {
            if (asm_loop(c, &ab, sp, cols[0]))
                emit_bundle(f, &ab);
            else
                drop_bundle(&ab);
            return;
        }
        if (!g_ascii_strcasecmp(sp, "halt")) {
            char h1[] = "halt", h2[] = "halt";
            if (asm_slot(c, &ab, TPC_SLOT_SPU, h1, cols[0]) &&
                asm_slot(c, &ab, TPC_SLOT_VPU, h2, cols[0]))
                emit_bundle(f, &ab);
            return;
        }
        if (f->by_insn && *sp) {
            /* -S output: a bundle of one instruction is that instruction */
            AsmInsnLine in = {sp, cols[0], c->line};
            if (asm_group(c, &ab, &in, 1, true))
                emit_bundle(f, &ab);
            else
                drop_bundle(&ab);
            return;
        }
    }
    bool ok = true;
    for (int s = 0; s < n; s++) {
        if (!*parts[s]) {
            asm_error(c, cols[s], "empty slot (write 'nop')");
            ok = false;
            continue;
        }
        ok &= asm_slot(c, &ab, (unsigned)s, parts[s], cols[s]);
    }
    if (ok)
        emit_bundle(f, &ab);
    else
        drop_bundle(&ab);
}

static void brace_slot(File *f, char *line, int col)
{
    size_t n = strlen(line);
    if (n && line[n - 1] == ';')
        line[--n] = 0;
    line = asm_trim(line);
    if (!*line)
        return;
    AsmInsnLine in = {g_strdup(line), col, f->c.line};
    g_array_append_val(f->brace, in);
}

static void brace_clear(File *f)
{
    for (guint i = 0; i < f->brace->len; i++)
        g_free(g_array_index(f->brace, AsmInsnLine, i).text);
    g_array_set_size(f->brace, 0);
}

/* '}': the group becomes one bundle, the other slots NOP. */
static void brace_end(File *f)
{
    AsmCtx *c = &f->c;
    unsigned end_line = c->line;
    AsmBundle ab;
    asm_bundle_init(&ab);
    if (!f->brace->len) {
        emit_bundle(f, &ab); /* `{ }`: an all-NOP bundle */
        return;
    }
    bool ok = asm_group(c, &ab, (AsmInsnLine *)(void *)f->brace->data, f->brace->len, f->by_insn);
    c->line = end_line;
    /* gdb shows a `{ ... }` bundle at its first instruction */
    f->group_line = g_array_index(f->brace, AsmInsnLine, 0).line;
    if (ok)
        emit_bundle(f, &ab);
    else
        drop_bundle(&ab);
    f->group_line = 0;
    brace_clear(f);
}

/* ---- sections and directives ---- */

static TpcSection *add_section(File *f, const char *name)
{
    for (guint i = 0; i < f->obj->extra->len; i++) {
        TpcSection *s = g_ptr_array_index(f->obj->extra, i);
        if (!strcmp(s->name, name))
            return s;
    }
    TpcSection *s = g_new0(TpcSection, 1);
    s->name = g_strdup(name);
    s->data = g_byte_array_new();
    g_ptr_array_add(f->obj->extra, s);
    return s;
}

/* Returns the number of extra source lines consumed (IndexMap). */
static size_t indexmap(File *f, const char *rest, int col, size_t *consumed)
{
    AsmCtx *c = &f->c;
    const char *b = strstr(rest, "SCEVBEGIN");
    const char *e = b ? strstr(b, "SCEVEND") : NULL;
    *consumed = 0;
    if (f->indexmap_seen) {
        asm_error(c, col, "a second .IndexMap section");
        return 0;
    }
    f->indexmap_seen = true;
    if (!b || !e) {
        asm_error(c, col, ".IndexMap without SCEVBEGIN ... SCEVEND");
        return 0;
    }
    e += strlen("SCEVEND");
    TpcSection *s = add_section(f, ".IndexMap");
    g_byte_array_append(s->data, (const guint8 *)b, (guint)(e - b));
    const char *nl = strchr(e, '\n');
    *consumed = (size_t)((nl ? nl + 1 : e + strlen(e)) - rest);
    return 0;
}

static bool directive(File *f, char *line, int col, const char *rest_of_file, size_t *skip,
                      size_t *skip_lines)
{
    AsmCtx *c = &f->c;
    char *arg = line + strcspn(line, " \t");
    char save = *arg;
    *arg = 0;
    char *name = g_ascii_strdown(line, -1);
    *arg = save;
    arg = asm_trim(arg);
    bool ok = true;

    if (!strcmp(name, ".section")) {
        /* the compiler quotes some names: .section ".note.GNU-stack","",@progbits */
        char *sname = *arg == '"' ? g_strndup(arg + 1, strcspn(arg + 1, "\""))
                                  : g_strndup(arg, strcspn(arg, " \t,"));
        g_free(name);
        name = g_ascii_strdown(sname, -1);
        if (!strcmp(name, ".text")) {
            f->section = SEC_TEXT;
        } else if (!strcmp(name, ".tpc_metadata")) {
            f->section = SEC_METADATA;
        } else if (!strcmp(name, ".indexmap")) {
            g_free(sname);
            goto indexmap;
        } else {
            f->section = SEC_OTHER;
            f->other = add_section(f, sname);
        }
        if (f->section == SEC_METADATA) {
            if (f->md_seen) {
                asm_error(c, col, "a second .tpc_metadata section");
                ok = false;
            }
            f->md_seen = true;
        }
        g_free(sname);
        g_free(name);
        return ok;
    }
    if (!strcmp(name, ".text")) {
        f->section = SEC_TEXT;
    } else if (!strcmp(name, ".tpc_metadata")) {
        if (f->md_seen) {
            asm_error(c, col, "a second .tpc_metadata section");
            ok = false;
        }
        f->md_seen = true;
        f->section = SEC_METADATA;
    } else if (!strcmp(name, ".indexmap")) {
        goto indexmap;
    } else if (!strcmp(name, ".globl") || !strcmp(name, ".global")) {
        if (!is_ident(arg)) {
            asm_error(c, col, "'%s' needs a symbol name", name);
            ok = false;
        } else {
            g_ptr_array_add(f->globals, g_strdup(arg));
            g_array_append_val(f->global_lines, c->line);
        }
    } else if (!strcmp(name, ".long") && f->section == SEC_TEXT) {
        char **w = g_strsplit_set(arg, ", \t", -1);
        for (int i = 0; w[i]; i++) {
            uint32_t v;
            bool bare;
            const char *err;
            if (!*w[i])
                continue;
            if (!asm_parse_number(w[i], &v, &bare, &err) || err || bare) {
                asm_error(c, col, "bad .long value '%s'", w[i]);
                ok = false;
                break;
            }
            uint8_t le[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
            g_byte_array_append(f->obj->text, le, 4);
        }
        g_strfreev(w);
    } else if ((!strcmp(name, ".ascii") || !strcmp(name, ".asciz")) && f->section == SEC_METADATA) {
        ok = asm_metadata_string(c, &f->md, arg, col, name[6] == 'z');
    } else if (!strcmp(name, ".type") || !strcmp(name, ".size") || !strcmp(name, ".file") ||
               !strcmp(name, ".ident") || !strcmp(name, ".p2align") || !strcmp(name, ".align") ||
               !strcmp(name, ".local") || !strcmp(name, ".hidden") || !strcmp(name, ".weak") ||
               !strcmp(name, ".addrsig") || !strcmp(name, ".addrsig_sym") ||
               !strcmp(name, ".loc")) {
        /* symbol attributes, alignment, address-significance and debug
         * notes of compiler output: nothing to do for TPC kernels */
    } else {
        asm_error(c, col, "unknown directive '%s'", name);
        ok = false;
    }
    g_free(name);
    return ok;
indexmap:
    g_free(name);
    *skip_lines = indexmap(f, rest_of_file, col, skip);
    f->section = SEC_OTHER;
    f->other = NULL;
    return true;
}

static void define_label(File *f, const char *name, int col)
{
    AsmCtx *c = &f->c;
    if (f->section != SEC_TEXT) {
        asm_error(c, col, "label '%s' outside .text", name);
        return;
    }
    if (f->in_brace) {
        asm_error(c, col, "label '%s' inside a { } bundle", name);
        return;
    }
    if (g_hash_table_contains(f->labels, name)) {
        Label *l = g_hash_table_lookup(f->labels, name);
        asm_error(c, col, "label '%s' already defined on line %u", name, l->line);
        return;
    }
    if (f->obj->text->len % TPC_BUNDLE_BYTES)
        asm_error(c, col, "label '%s' inside a bundle (.long words not a multiple of 8)", name);
    Label *l = g_new0(Label, 1);
    l->offset = f->obj->text->len;
    l->line = c->line;
    char *key = g_strdup(name);
    g_hash_table_insert(f->labels, key, l);
    g_ptr_array_add(f->order, key);
}

static void text_line(File *f, char *line, int col)
{
    AsmCtx *c = &f->c;
    if (!strcmp(line, "{")) {
        if (f->in_brace) {
            asm_error(c, col, "nested '{'");
            return;
        }
        f->in_brace = true;
        f->brace_line = c->line;
        brace_clear(f);
        return;
    }
    if (!strcmp(line, "}")) {
        if (!f->in_brace) {
            asm_error(c, col, "'}' without '{'");
            return;
        }
        f->in_brace = false;
        brace_end(f);
        return;
    }
    if (f->in_brace) {
        brace_slot(f, line, col);
        return;
    }
    bundle_line(f, line, col);
}

/* Pass 2: label fixups and the shared immediate. */
static void resolve(File *f)
{
    AsmCtx *c = &f->c;
    for (guint i = 0; i < f->fixes->len; i++) {
        Fix *fx = &g_array_index(f->fixes, Fix, i);
        AsmBundle *ab = &fx->ab;
        uint8_t *b = f->obj->text->data + fx->offset;
        c->line = ab->line;
        if (ab->fix_kind != FIX_NONE) {
            Label *l = g_hash_table_lookup(f->labels, ab->fix_label);
            if (!l) {
                asm_error(c, ab->fix_col, "missing label '%s'", ab->fix_label);
            } else if (ab->fix_kind == FIX_LOOP) {
                int64_t off = (int64_t)l->offset - fx->offset - TPC_BUNDLE_BYTES;
                if (off < 0 || off > 0xffff)
                    asm_error(c, ab->fix_col, "loop end '%s' out of range (%" G_GINT64_FORMAT ")",
                              ab->fix_label, off);
                else
                    tpc_set_bits(b, TPC_B_LOOP_END, 16, (uint32_t)off);
            } else {
                ImmUse *u = &ab->imm[TPC_SLOT_SPU];
                u->value = ab->fix_kind == FIX_JMPR ? l->offset - fx->offset : l->offset;
            }
            g_free(ab->fix_label);
            ab->fix_label = NULL;
        }
        /* one immediate per bundle: the last one in slot order wins */
        int last = -1;
        bool differ = false;
        for (int s = 0; s < 4; s++) {
            if (!ab->imm[s].used)
                continue;
            if (last >= 0 && ab->imm[s].value != ab->imm[last].value)
                differ = true;
            last = s;
        }
        if (last >= 0) {
            if (differ)
                asm_warn(c, ab->imm[last].col, "different immediates in one bundle, keeping 0x%x",
                         ab->imm[last].value);
            tpc_set_bits(b, TPC_B_IMM, 32, ab->imm[last].value);
        }
    }
}

/* The bundle after a LOOP is its delay slot: it runs once, before the
 * body, not in it (tpc.md §4.4).  The vendor's assembler takes anything
 * there, but the vendor's compiler always puts a nop there, so anything
 * else is most likely a body instruction written one bundle too early: a
 * loop that computes the wrong thing with no error (issue #40). */
static void check_loop_slots(File *f)
{
    AsmCtx *c = &f->c;
    const uint8_t *text = f->obj->text->data;
    for (guint i = 0; i + 1 < f->fixes->len; i++) {
        const Fix *fx = &g_array_index(f->fixes, Fix, i);
        const Fix *nx = &g_array_index(f->fixes, Fix, i + 1);
        TpcBundle b, n;
        NxFault flt;
        if (nx->offset != fx->offset + TPC_BUNDLE_BYTES ||
            !tpc_decode_bundle(text + fx->offset, &b, &flt) || !b.is_loop)
            continue;
        bool nop = tpc_decode_bundle(text + nx->offset, &n, &flt) && !n.is_loop;
        for (unsigned s = 0; nop && s < 4; s++)
            nop = n.slot[s].desc && !strcmp(n.slot[s].desc->mnemonic, "nop");
        if (!nop) {
            c->line = nx->ab.line;
            asm_warn(c, 1,
                     "the bundle after the loop of line %u is its delay slot: it runs once, "
                     "before the loop body, not in it (the vendor's compiler puts a 'nop' "
                     "there)",
                     fx->ab.line);
        }
    }
}

/* Length of a `name:` label at the start of `s` (0: not a label). */
static size_t label_len(const char *s)
{
    size_t il = 0;
    while (s[il] && (g_ascii_isalnum(s[il]) || s[il] == '_' || s[il] == '.' || s[il] == '$'))
        il++;
    if (!il || s[il] != ':' || s[il + 1] == '=')
        return 0;
    char *name = g_strndup(s, il);
    bool ok = is_ident(name);
    g_free(name);
    return ok ? il : 0;
}

/* The compiler's -S output (tpc-llvm TPCInstPrinter with HasPercentPrefix,
 * asm formats 0 and 1) writes every register as %NAME; the bundle-per-line
 * format never does.  A register operand `%X` (after a blank, ',' or '!')
 * outside comments and directives marks the whole file as -S output. */
static bool uses_percent_regs(const char *text)
{
    const char *p = text;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        const char *q = p;
        while (q < p + len && (*q == ' ' || *q == '\t'))
            q++;
        if (*q != '.') {
            for (const char *r = q; r + 1 < p + len; r++) {
                if (r[0] == '/' && r[1] == '/')
                    break;
                if (r[0] == '%' && g_ascii_isalpha(r[1]) && r > q &&
                    (r[-1] == ' ' || r[-1] == '\t' || r[-1] == ',' || r[-1] == '!'))
                    return true;
            }
        }
        p = nl ? nl + 1 : p + len;
    }
    return false;
}

bool tpc_assemble_text(const char *name, const char *text, TpcObject *obj, FILE *err)
{
    File f;
    memset(&f, 0, sizeof(f));
    f.c.file = name;
    f.c.err = err;
    f.obj = obj;
    f.labels = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    f.order = g_ptr_array_new();
    f.globals = g_ptr_array_new_with_free_func(g_free);
    f.global_lines = g_array_new(FALSE, FALSE, sizeof(unsigned));
    f.fixes = g_array_new(FALSE, TRUE, sizeof(Fix));
    f.brace = g_array_new(FALSE, TRUE, sizeof(AsmInsnLine));
    f.data_syms = g_ptr_array_new_with_free_func(g_free);
    f.section = SEC_TEXT;
    f.md.bytes = obj->metadata;
    f.by_insn = uses_percent_regs(text);

    const char *p = text;
    unsigned lineno = 0;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        const char *next = nl ? nl + 1 : p + len;
        char *raw = g_strndup(p, len);
        lineno++;
        f.c.line = lineno;

        if (f.section == SEC_OTHER && f.other) {
            /* unknown sections keep their text verbatim, up to a section switch */
            char *t = asm_trim(raw);
            if (t[0] != '.' || (g_ascii_strncasecmp(t, ".section", 8) != 0 &&
                                g_ascii_strcasecmp(t, ".text") != 0 &&
                                g_ascii_strncasecmp(t, ".tpc_metadata", 13) != 0 &&
                                g_ascii_strncasecmp(t, ".indexmap", 9) != 0)) {
                g_byte_array_append(f.other->data, (const guint8 *)p, (guint)len);
                g_byte_array_append(f.other->data, (const guint8 *)"\n", 1);
                g_free(raw);
                p = next;
                continue;
            }
        }
        char *cm = strstr(raw, "//");
        if (cm)
            *cm = 0;
        char *line = asm_trim(raw);
        int col = 1 + (int)(line - raw);
        if (!*line) {
            g_free(raw);
            p = next;
            continue;
        }
        if (line[0] == '.' && !f.in_brace && !label_len(line)) {
            size_t skip = 0, skip_lines = 0;
            directive(&f, line, col, p, &skip, &skip_lines);
            g_free(raw);
            if (skip) {
                /* .IndexMap consumed source text up to its SCEVEND line */
                for (const char *q = p; q < p + skip; q++)
                    lineno += *q == '\n';
                lineno--;
                p += skip;
            } else {
                p = next;
            }
            continue;
        }
        if ((f.section == SEC_METADATA && !strchr(line, ':')) || f.section == SEC_OTHER) {
            /* a bundle right after the metadata fields or the IndexMap text
             * goes to .text, as in the vendor's own tests
             * (compare/tpc_metadata/..., compare/index_map/index_map.s) */
            f.section = SEC_TEXT;
        }
        if (f.section == SEC_METADATA && label_len(line) && !line[label_len(line) + 1]) {
            /* the compiler's `tpc_metadata:` data symbol */
            g_ptr_array_add(f.data_syms, g_strndup(line, label_len(line)));
        } else if (f.section == SEC_METADATA) {
            asm_metadata_line(&f.c, &f.md, line, col);
        } else {
            /* `name:` label, possibly followed by a statement */
            size_t il = 0;
            while (line[il] && (g_ascii_isalnum(line[il]) || line[il] == '_' || line[il] == '.' ||
                                line[il] == '$'))
                il++;
            bool is_label = il && line[il] == ':' && line[il + 1] != '=';
            if (is_label) {
                line[il] = 0;
                is_label = is_ident(line);
                if (!is_label)
                    line[il] = ':';
            }
            if (is_label) {
                define_label(&f, line, col);
                char *rest = asm_trim(line + il + 1);
                if (*rest)
                    text_line(&f, rest, col + (int)(rest - line));
            } else {
                text_line(&f, line, col);
            }
        }
        g_free(raw);
        p = next;
    }
    if (f.in_brace) {
        f.c.line = f.brace_line;
        asm_error(&f.c, 1, "'{' without '}' (unterminated bundle)");
    }
    brace_clear(&f);
    if (f.obj->text->len % TPC_BUNDLE_BYTES) {
        asm_error(&f.c, 1, ".text is not a whole number of 32-byte bundles");
    }
    resolve(&f);
    if (!f.c.errors)
        check_loop_slots(&f);
    if (!f.obj->text->len && !f.c.errors) {
        f.c.line = lineno ? lineno : 1;
        asm_error(&f.c, 1, "no bundles in .text");
    }

    for (guint i = 0; i < f.globals->len; i++) {
        const char *g = g_ptr_array_index(f.globals, i);
        bool data = false;
        for (guint k = 0; k < f.data_syms->len; k++)
            data |= !strcmp(g_ptr_array_index(f.data_syms, k), g);
        if (!data && !g_hash_table_contains(f.labels, g)) {
            /* the vendor's assembler (and GNU as) accept it: a TPC object has
             * no relocations, so the name is simply not in the symbol table */
            f.c.line = g_array_index(f.global_lines, unsigned, i);
            asm_warn(&f.c, 1, ".globl '%s' is not defined in this file", g);
        }
    }
    for (guint i = 0; i < f.order->len; i++) {
        const char *n = g_ptr_array_index(f.order, i);
        Label *l = g_hash_table_lookup(f.labels, n);
        TpcSym s = {g_strdup(n), l->offset, false};
        for (guint k = 0; k < f.globals->len; k++)
            s.global |= !strcmp(g_ptr_array_index(f.globals, k), n);
        g_array_append_val(obj->syms, s);
    }
    for (guint i = 0; i < f.fixes->len; i++)
        g_free(g_array_index(f.fixes, Fix, i).ab.fix_label);
    g_array_free(f.fixes, TRUE);
    g_array_free(f.brace, TRUE);
    g_ptr_array_free(f.data_syms, TRUE);
    g_ptr_array_free(f.globals, TRUE);
    g_array_free(f.global_lines, TRUE);
    g_ptr_array_free(f.order, TRUE);
    g_hash_table_destroy(f.labels);
    return f.c.errors == 0;
}
