/*
 * Sequencer assembler driver (sequencer.md §11.1): source lines, labels,
 * sections and directives, two passes, ELF64 or raw output.
 *
 * Pass 1 sizes everything (every statement's size is fixed by its syntax)
 * and defines the labels; unknown labels resolve to the statement's own
 * address so no value-dependent error fires.  Pass 2 encodes with every
 * label known.  Entry point rule: the `_start` label, else `start`, if
 * defined in .text; otherwise the address of the first .text statement.
 *
 * Symbols: a label is STT_NOTYPE in .text and STT_OBJECT in .data unless a
 * `.type NAME, @function|@object|@notype` says otherwise.  Only a declared
 * function is STT_FUNC (what pseudo calls resolve to), with st_size up to
 * the next declared function of its segment or the segment's end: gdb
 * takes the innermost sized symbol as the function around a pc, so labels
 * inside a function stay labels for `until`, `next` and `bt`.
 *
 * `.include "FILE"` (an nxemu extension) is expanded before pass 1 into one
 * flat list of source lines, each remembering its file and line, so both
 * passes and every message see included text exactly like inlined text.
 *
 * With -g (seq_assemble_file_debug), pass 2 notes the file and line of each
 * instruction and .rec record in .text, and the ELF gets a DWARF line table
 * over them (nxemu/dwarf-line.h); included files are files of the table.
 */
#include <ctype.h>
#include <elf.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "nxemu/dwarf-line.h"
#include "nxemu/file-io.h"
#include "asm.h"
#include "insn.h"
#include "seq-tools.h"

#define SEQ_TEXT_DEFAULT_ORG  0x01000000ull
#define SEQ_RAW_MAX_SIZE      (256ull << 20)
#define SEQ_INCLUDE_MAX_DEPTH 16

enum { SECT_TEXT, SECT_DATA };

typedef struct AsmLabel {
    uint64_t value;
    int sect;
    unsigned line;
} AsmLabel;

typedef struct AsmSeg {
    SeqSegment s;
    unsigned line; /* statement that opened it */
    int sect;
} AsmSeg;

typedef struct AsmSect {
    bool has_org;
    uint64_t loc;
    int seg; /* index into segs receiving bytes, -1 to open a new one */
} AsmSect;

/* One source line after include expansion. */
typedef struct AsmLine {
    const char *text;
    const char *file; /* owned by Asm.owned */
    unsigned line;    /* 1-based within file */
} AsmLine;

typedef struct Asm {
    const char *file;
    bool pass1;
    unsigned errors;
    /* Statement being assembled: 1-based index into src (AsmLabel.line,
     * AsmSeg.line and data_line hold such indexes too). */
    unsigned line;
    GArray *src;        /* AsmLine */
    GPtrArray *owned;   /* file texts and names */
    GPtrArray *vecs;    /* their line vectors */
    GPtrArray *incs;    /* canonical paths of the files being included */
    GHashTable *labels; /* name -> AsmLabel* */
    GHashTable *types;  /* name -> GUINT_TO_POINTER(STT_* + 1), from .type */
    GArray *segs;       /* AsmSeg */
    AsmSect sect[2];
    int cur;
    bool have_first_text;
    uint64_t first_text;
    unsigned data_line;    /* first .data statement, for raw output errors */
    const NxAsmDebug *dbg; /* -g: NULL or what to add */
    GArray *rows;          /* NxLineRow of the records in .text (pass 2, -g) */
    GPtrArray *files;      /* their file names, first the main file */
} Asm;

/* Where the messages go: stderr, or the caller's stream
 * (seq_assemble_file_to, for the C API). */
static FILE *asm_msg_stream;
static FILE *asm_msgs(void)
{
    return asm_msg_stream ? asm_msg_stream : stderr;
}

static void report_at(Asm *a, const char *file, unsigned line, unsigned col, const char *msg)
{
    fprintf(asm_msgs(), "%s:%u:%u: error: %s\n", file, line, col, msg);
    a->errors++;
}

static const AsmLine *src_line(Asm *a, unsigned idx)
{
    return &g_array_index(a->src, AsmLine, idx - 1);
}

static void report(Asm *a, unsigned idx, unsigned col, const char *msg)
{
    const AsmLine *l = src_line(a, idx);
    report_at(a, l->file, l->line, col, msg);
}

/* "line N" for line index idx as seen from line index from; names the file
 * when the two are in different files. */
static void line_ref(Asm *a, unsigned idx, unsigned from, char *buf, size_t len)
{
    const AsmLine *l = src_line(a, idx);
    if (l->file == src_line(a, from)->file) {
        snprintf(buf, len, "line %u", l->line);
    } else {
        snprintf(buf, len, "line %u of %s", l->line, l->file);
    }
}

static bool cur_fail(Asm *a, SeqAsmCur *c)
{
    report(a, a->line, c->err_col, c->err->str);
    return false;
}

static bool label_lookup(void *opaque, const char *name, uint64_t *value)
{
    Asm *a = opaque;
    AsmLabel *l = g_hash_table_lookup(a->labels, name);
    if (!l) {
        return false;
    }
    *value = l->value;
    return true;
}

static void emit(Asm *a, const uint8_t *bytes, size_t n)
{
    AsmSect *s = &a->sect[a->cur];
    if (s->seg < 0) {
        AsmSeg g = {
            .s = {.addr = s->loc, .exec = a->cur == SECT_TEXT}, .line = a->line, .sect = a->cur};
        if (!a->pass1) {
            g.s.bytes = g_byte_array_new();
        }
        g_array_append_val(a->segs, g);
        s->seg = (int)a->segs->len - 1;
    }
    if (!a->pass1) {
        g_byte_array_append(g_array_index(a->segs, AsmSeg, s->seg).s.bytes, bytes, (guint)n);
    }
    s->loc += n;
}

/* Statements in .data need an address first. */
static bool need_org(Asm *a, SeqAsmCur *c)
{
    if (a->cur == SECT_DATA && !a->sect[SECT_DATA].has_org) {
        return seq_asm_error(c, ".data has no address: use .org before its first statement");
    }
    return true;
}

static bool dir_org(Asm *a, SeqAsmCur *c)
{
    uint64_t v;
    if (!seq_asm_value(c, 64, &v)) {
        return false;
    }
    AsmSect *s = &a->sect[a->cur];
    if (!s->has_org || s->loc != v || s->seg < 0) {
        s->seg = -1;
    }
    s->loc = v;
    s->has_org = true;
    return true;
}

/* .type NAME, @function (or %function; object, notype): checked in pass 2,
 * when every label is known. */
static bool dir_type(Asm *a, SeqAsmCur *c)
{
    char name[128], kind[16];
    unsigned type;
    if (!seq_asm_ident(c, name, sizeof(name))) {
        return c->err->len ? false : seq_asm_error(c, "'.type' needs a label name");
    }
    const char *at = c->tok;
    if (!seq_asm_expect(c, ",")) {
        return false;
    }
    seq_asm_ws(c);
    const char *kind_at = c->p;
    c->tok = c->p;
    if ((*c->p != '@' && *c->p != '%') || (c->p++, !seq_asm_ident(c, kind, sizeof(kind)))) {
        c->tok = kind_at;
        return seq_asm_error(c, "expected @function, @object or @notype");
    }
    c->tok = kind_at;
    if (!strcmp(kind, "function")) {
        type = STT_FUNC;
    } else if (!strcmp(kind, "object")) {
        type = STT_OBJECT;
    } else if (!strcmp(kind, "notype")) {
        type = STT_NOTYPE;
    } else {
        return seq_asm_error(c, "unknown symbol type '%s' (expected function, object or notype)",
                             kind);
    }
    if (a->pass1) {
        return true;
    }
    c->tok = at;
    AsmLabel *l = g_hash_table_lookup(a->labels, name);
    if (!l) {
        return seq_asm_error(c, "'.type': no label '%s'", name);
    }
    if (type == STT_FUNC && l->sect != SECT_TEXT) {
        return seq_asm_error(c, "'%s' is a .data label: only .text labels can be functions", name);
    }
    gpointer old = g_hash_table_lookup(a->types, name);
    if (old && GPOINTER_TO_UINT(old) != type + 1) {
        return seq_asm_error(c, "'%s' already has another .type", name);
    }
    g_hash_table_insert(a->types, g_strdup(name), GUINT_TO_POINTER(type + 1));
    return true;
}

static bool dir_align(Asm *a, SeqAsmCur *c)
{
    SeqAsmNum n;
    static const uint8_t zero[64];
    if (!seq_asm_number(c, &n)) {
        return false;
    }
    if (n.neg || n.v == 0 || n.v > 65536 || (n.v & (n.v - 1))) {
        return seq_asm_error(c, ".align needs a power of two up to 65536");
    }
    if (!need_org(a, c)) {
        return false;
    }
    while (a->sect[a->cur].loc % n.v) {
        uint64_t pad = n.v - a->sect[a->cur].loc % n.v;
        emit(a, zero, pad > 64 ? 64 : pad);
    }
    return true;
}

static bool dir_rec(Asm *a, SeqAsmCur *c, uint8_t rec[64])
{
    unsigned n = 0;
    while (!seq_asm_at_end(c)) {
        const char *p = c->p;
        if (n == 64) {
            return seq_asm_error(c, ".rec takes exactly 64 bytes");
        }
        if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
            p += 2;
        }
        unsigned v = 0, d = 0;
        while (isxdigit((unsigned char)*p) && d < 3) {
            v = v * 16 + (unsigned)(isdigit((unsigned char)*p)
                                        ? *p - '0'
                                        : tolower((unsigned char)*p) - 'a' + 10);
            p++;
            d++;
        }
        if (d == 0 || d > 2 || (*p && !isspace((unsigned char)*p) && *p != ',' && *p != ';')) {
            return seq_asm_error(c, "expected a hex byte");
        }
        rec[n++] = (uint8_t)v;
        c->p = p;
        seq_asm_accept(c, ",");
    }
    if (n != 64) {
        return seq_asm_error(c, ".rec takes exactly 64 bytes, got %u", n);
    }
    return true;
}

static bool dir_data(Asm *a, SeqAsmCur *c, unsigned size)
{
    if (!need_org(a, c)) {
        return false;
    }
    do {
        uint64_t v;
        uint8_t b[8];
        if (!seq_asm_value(c, size * 8, &v)) {
            return false;
        }
        for (unsigned i = 0; i < size; i++) {
            b[i] = (uint8_t)(v >> (8 * i));
        }
        emit(a, b, size);
    } while (seq_asm_accept(c, ","));
    return true;
}

/* An instruction or .rec record in .text must sit on a record boundary. */
static bool record_slot(Asm *a, SeqAsmCur *c, bool insn)
{
    if (insn && a->cur == SECT_DATA) {
        return seq_asm_error(c, "instructions are not allowed in .data");
    }
    if (!need_org(a, c)) {
        return false;
    }
    uint64_t loc = a->sect[a->cur].loc;
    if (a->cur == SECT_TEXT && loc % 64) {
        return seq_asm_error(c, "instruction at 0x%" PRIx64 " is not at a multiple of 64", loc);
    }
    return true;
}

/* -g: the record about to be emitted at the .text location came from the
 * current statement. */
static void note_line(Asm *a)
{
    if (a->pass1 || !a->rows || a->cur != SECT_TEXT) {
        return;
    }
    const AsmLine *l = src_line(a, a->line);
    unsigned f = 0;
    while (f < a->files->len && g_ptr_array_index(a->files, f) != l->file) {
        f++;
    }
    if (f == a->files->len) {
        g_ptr_array_add(a->files, (gpointer)l->file);
    }
    NxLineRow r = {.addr = a->sect[SECT_TEXT].loc, .size = 64, .file = f, .line = l->line};
    g_array_append_val(a->rows, r);
}

static bool statement(Asm *a, SeqAsmCur *c)
{
    char id[128];
    /* Labels: `name:` (not a register pair, which never starts a line). */
    for (;;) {
        const char *save = c->p;
        if (!seq_asm_ident(c, id, sizeof(id))) {
            if (c->err->len) {
                return cur_fail(a, c);
            }
            break;
        }
        if (*c->p != ':') {
            c->p = save;
            break;
        }
        c->p++;
        if (id[0] == '.' || ((id[0] == 'r' || id[0] == 'R' || id[0] == 't' || id[0] == 'T') &&
                             id[1] && strspn(id + 1, "0123456789") == strlen(id + 1))) {
            seq_asm_error(c, "'%s' cannot be used as a label", id);
            c->err_col = (unsigned)(save - c->line) + 1 + (unsigned)strspn(save, " \t");
            return cur_fail(a, c);
        }
        if (a->pass1) {
            if (!need_org(a, c)) {
                return cur_fail(a, c);
            }
            AsmLabel *old = g_hash_table_lookup(a->labels, id);
            if (old) {
                char where[256];
                line_ref(a, old->line, a->line, where, sizeof(where));
                c->tok = save + strspn(save, " \t");
                seq_asm_error(c, "label '%s' already defined on %s", id, where);
                return cur_fail(a, c);
            }
            AsmLabel *l = g_new0(AsmLabel, 1);
            l->value = a->sect[a->cur].loc;
            l->sect = a->cur;
            l->line = a->line;
            g_hash_table_insert(a->labels, g_strdup(id), l);
        }
    }
    if (seq_asm_at_end(c)) {
        return true;
    }
    const char *save = c->p;
    if (*c->p == '.' && seq_asm_ident(c, id, sizeof(id))) {
        bool ok;
        uint8_t rec[64];
        if (!strcmp(id, ".text") || !strcmp(id, ".data")) {
            a->cur = id[1] == 't' ? SECT_TEXT : SECT_DATA;
            if (a->cur == SECT_DATA && !a->data_line) {
                a->data_line = a->line;
            }
            ok = true;
        } else if (!strcmp(id, ".org")) {
            ok = dir_org(a, c);
        } else if (!strcmp(id, ".align")) {
            ok = dir_align(a, c);
        } else if (!strcmp(id, ".type")) {
            ok = dir_type(a, c);
        } else if (!strcmp(id, ".rec")) {
            ok = record_slot(a, c, false) && dir_rec(a, c, rec);
            if (ok) {
                note_line(a);
                emit(a, rec, 64);
            }
        } else if (!strcmp(id, ".byte") || !strcmp(id, ".word") || !strcmp(id, ".quad")) {
            ok = dir_data(a, c, id[1] == 'b' ? 1 : id[1] == 'w' ? 4 : 8);
        } else if (!strcmp(id, ".include")) {
            /* Expanded before pass 1 only when it starts the line. */
            c->tok = save;
            ok = seq_asm_error(c, "'.include' must be alone on its line (no label before it)");
        } else {
            c->tok = save;
            ok = seq_asm_error(c, "unknown directive '%s'", id);
        }
        if (ok && !seq_asm_at_end(c)) {
            ok = seq_asm_error(c, "unexpected text after directive");
        }
        return ok ? true : cur_fail(a, c);
    }
    c->p = save;
    uint8_t rec[64];
    c->tok = c->p;
    if (!record_slot(a, c, true)) {
        return cur_fail(a, c);
    }
    c->pc = a->sect[SECT_TEXT].loc;
    if (!seq_asm_insn(c, rec)) {
        return cur_fail(a, c);
    }
    if (!a->have_first_text) {
        a->have_first_text = true;
        a->first_text = c->pc;
    }
    note_line(a);
    emit(a, rec, 64);
    return true;
}

static void run_pass(Asm *a)
{
    GString *err = g_string_new(NULL);
    a->sect[SECT_TEXT] = (AsmSect){.has_org = true, .loc = SEQ_TEXT_DEFAULT_ORG, .seg = -1};
    a->sect[SECT_DATA] = (AsmSect){.seg = -1};
    a->cur = SECT_TEXT;
    for (unsigned i = 0; i < a->src->len; i++) {
        const char *text = g_array_index(a->src, AsmLine, i).text;
        SeqAsmCur c = {.line = text,
                       .p = text,
                       .labels = label_lookup,
                       .opaque = a,
                       .lax_labels = a->pass1,
                       .err = err};
        g_string_truncate(err, 0);
        a->line = i + 1;
        statement(a, &c);
    }
    g_string_free(err, TRUE);
}

static gint seg_cmp(gconstpointer x, gconstpointer y)
{
    const AsmSeg *a = x, *b = y;
    return a->s.addr < b->s.addr ? -1 : a->s.addr > b->s.addr;
}

/* Overlaps, alignment and padding of the finished segments. */
static void check_segments(Asm *a)
{
    static const uint8_t zero[64];
    GArray *sorted = g_array_copy(a->segs);
    for (guint i = 0; i < a->segs->len; i++) {
        AsmSeg *g = &g_array_index(a->segs, AsmSeg, i);
        if (g->s.exec) {
            if (g->s.addr % 64) {
                char msg[128];
                snprintf(msg, sizeof(msg),
                         ".text segment at 0x%" PRIx64 " does not start at a multiple of 64",
                         g->s.addr);
                report(a, g->line, 1, msg);
            }
            /* Pad to whole records so data never lands in a scanned stream. */
            while (g->s.bytes->len % 64) {
                g_byte_array_append(g->s.bytes, zero, 64 - g->s.bytes->len % 64);
            }
        }
    }
    g_array_sort(sorted, seg_cmp);
    for (guint i = 1; i < sorted->len; i++) {
        AsmSeg *p = &g_array_index(sorted, AsmSeg, i - 1), *g = &g_array_index(sorted, AsmSeg, i);
        uint64_t len = p->s.bytes->len;
        if (p->s.addr + len > g->s.addr || p->s.addr + len < p->s.addr) {
            char msg[400], where[256];
            line_ref(a, p->line, g->line, where, sizeof(where));
            snprintf(msg, sizeof(msg), "bytes at 0x%" PRIx64 " overlap the ones placed on %s",
                     g->s.addr, where);
            report(a, g->line, 1, msg);
        }
    }
    g_array_free(sorted, TRUE);
}

static bool write_raw(Asm *a, const char *out)
{
    uint64_t lo = UINT64_MAX, hi = 0;
    if (a->data_line) {
        report(a, a->data_line, 1, "raw output holds only .text; .data needs ELF output");
        return false;
    }
    for (guint i = 0; i < a->segs->len; i++) {
        AsmSeg *g = &g_array_index(a->segs, AsmSeg, i);
        lo = MIN(lo, g->s.addr);
        hi = MAX(hi, g->s.addr + g->s.bytes->len);
    }
    if (a->segs->len == 0) {
        lo = hi = 0;
    }
    if (hi - lo > SEQ_RAW_MAX_SIZE) {
        fprintf(asm_msgs(), "%s: error: raw image would span 0x%" PRIx64 " bytes\n", a->file,
                hi - lo);
        return false;
    }
    uint8_t *img = g_malloc0(hi - lo + 1);
    for (guint i = 0; i < a->segs->len; i++) {
        AsmSeg *g = &g_array_index(a->segs, AsmSeg, i);
        memcpy(img + (g->s.addr - lo), g->s.bytes->data, g->s.bytes->len);
    }
    GError *err = NULL;
    bool ok = nx_file_write(NULL, out, img, (size_t)(hi - lo), &err);
    if (!ok) {
        fprintf(asm_msgs(), "nxemu-as: error: %s\n", err->message);
        g_error_free(err);
    }
    g_free(img);
    return ok;
}

static gint sym_order(gconstpointer x, gconstpointer y)
{
    const SeqSymbol *a = x, *b = y;
    if (a->value != b->value) {
        return a->value < b->value ? -1 : 1;
    }
    return strcmp(a->name, b->name);
}

static bool write_elf(Asm *a, const char *out)
{
    SeqSegment *segs = g_new0(SeqSegment, a->segs->len + 1);
    GArray *syms = g_array_new(FALSE, TRUE, sizeof(SeqSymbol));
    GHashTableIter it;
    gpointer k, v;
    uint64_t entry = a->have_first_text ? a->first_text : SEQ_TEXT_DEFAULT_ORG;
    AsmLabel *l;
    if ((l = g_hash_table_lookup(a->labels, "_start")) && l->sect == SECT_TEXT) {
        entry = l->value;
    } else if ((l = g_hash_table_lookup(a->labels, "start")) && l->sect == SECT_TEXT) {
        entry = l->value;
    }
    for (guint i = 0; i < a->segs->len; i++) {
        segs[i] = g_array_index(a->segs, AsmSeg, i).s;
    }
    g_hash_table_iter_init(&it, a->labels);
    while (g_hash_table_iter_next(&it, &k, &v)) {
        AsmLabel *lab = v;
        guint declared = GPOINTER_TO_UINT(g_hash_table_lookup(a->types, k));
        SeqSymbol s = {.name = k,
                       .value = lab->value,
                       .type = declared ? declared - 1
                               : lab->sect == SECT_TEXT ? STT_NOTYPE
                                                        : STT_OBJECT,
                       .seg = -1};
        for (guint i = 0; i < a->segs->len; i++) {
            AsmSeg *g = &g_array_index(a->segs, AsmSeg, i);
            if (g->sect == lab->sect && lab->value >= g->s.addr &&
                lab->value <= g->s.addr + g->s.bytes->len) {
                s.seg = (int)i;
                break;
            }
        }
        g_array_append_val(syms, s);
    }
    /* A stable symbol order, so objdump output reassembles to the same file. */
    g_array_sort(syms, sym_order);
    /* A function extends to the next function of its segment, or its end. */
    for (guint i = 0; i < syms->len; i++) {
        SeqSymbol *f = &g_array_index(syms, SeqSymbol, i);
        if (f->type != STT_FUNC || f->seg < 0) {
            continue;
        }
        const SeqSegment *g = &segs[f->seg];
        uint64_t end = g->addr + g->bytes->len;
        for (guint j = i + 1; j < syms->len; j++) {
            const SeqSymbol *n = &g_array_index(syms, SeqSymbol, j);
            if (n->type == STT_FUNC && n->seg == f->seg && n->value > f->value) {
                end = n->value;
                break;
            }
        }
        f->size = end - f->value;
    }
    GError *err = NULL;
    GArray *debug = NULL;
    if (a->rows) {
        debug = nx_dwarf_sections(a->dbg, 8, (const char *const *)a->files->pdata, a->files->len,
                                  (const NxLineRow *)(void *)a->rows->data, a->rows->len);
    }
    bool ok = seq_elf_write(out, segs, a->segs->len, (SeqSymbol *)(void *)syms->data, syms->len,
                            entry, debug, &err);
    nx_dwarf_free(debug);
    if (!ok) {
        fprintf(asm_msgs(), "nxemu-as: error: %s\n", err->message);
        g_error_free(err);
    }
    g_array_free(syms, TRUE);
    g_free(segs);
    return ok;
}

static void free_segs(GArray *segs)
{
    for (guint i = 0; i < segs->len; i++) {
        AsmSeg *g = &g_array_index(segs, AsmSeg, i);
        if (g->s.bytes) {
            g_byte_array_free(g->s.bytes, TRUE);
        }
    }
    g_array_free(segs, TRUE);
}

static bool load_file(Asm *a, const char *path, const char *ifile, unsigned iline, unsigned icol,
                      unsigned depth);

/*
 * `.include "FILE"` at the start of line text (file:line): parse it, and
 * append the named file's lines.  Returns false if text is no include.
 */
static bool try_include(Asm *a, const char *file, unsigned line, const char *text, unsigned depth)
{
    GString *err = g_string_new(NULL);
    SeqAsmCur c = {.line = text, .p = text, .err = err};
    char id[16];
    seq_asm_ws(&c);
    if (*c.p != '.' || !seq_asm_ident(&c, id, sizeof(id)) || strcmp(id, ".include")) {
        g_string_free(err, TRUE);
        return false;
    }
    seq_asm_ws(&c);
    const char *name = c.p + 1, *end = NULL;
    c.tok = c.p;
    if (*c.p != '"' || !(end = strchr(name, '"')) || end == name) {
        seq_asm_error(&c, "'.include' needs a file name in double quotes");
    } else {
        c.p = end + 1;
        if (!seq_asm_at_end(&c)) {
            seq_asm_error(&c, "unexpected text after directive");
        }
    }
    if (err->len) {
        report_at(a, file, line, c.err_col, err->str);
    } else {
        char *fname = g_strndup(name, (gsize)(end - name));
        char *path;
        if (g_path_is_absolute(fname)) {
            path = g_strdup(fname);
        } else {
            char *dir = g_path_get_dirname(file);
            path = strcmp(dir, ".") ? g_build_filename(dir, fname, NULL) : g_strdup(fname);
            g_free(dir);
        }
        load_file(a, path, file, line, (unsigned)(name - text) + 1, depth + 1);
        g_free(path);
        g_free(fname);
    }
    g_string_free(err, TRUE);
    return true;
}

/*
 * Append path's lines to a->src, expanding its includes.  ifile is NULL for
 * the top-level file; otherwise the include statement's location, where
 * open, depth and cycle errors are reported.
 */
static bool load_file(Asm *a, const char *path, const char *ifile, unsigned iline, unsigned icol,
                      unsigned depth)
{
    char *text = NULL;
    size_t len;
    GError *err = NULL;
    char msg[600];
    if (depth > SEQ_INCLUDE_MAX_DEPTH) {
        snprintf(msg, sizeof(msg), "includes nested deeper than %d levels (at '%s')",
                 SEQ_INCLUDE_MAX_DEPTH, path);
        report_at(a, ifile, iline, icol, msg);
        return false;
    }
    /* Regular files only, at most 256 MiB (nxemu/file-io.h). */
    if (!nx_file_read(NULL, path, NX_FILE_TEXT, &text, &len, &err)) {
        if (ifile) {
            snprintf(msg, sizeof(msg), "cannot include '%s': %s", path, err->message);
            report_at(a, ifile, iline, icol, msg);
        } else {
            fprintf(asm_msgs(), "nxemu-as: error: %s\n", err->message);
            a->errors++;
        }
        g_error_free(err);
        return false;
    }
    char *canon = realpath(path, NULL);
    if (!canon) {
        canon = g_strdup(path);
    }
    for (guint i = 0; i < a->incs->len; i++) {
        if (!strcmp(g_ptr_array_index(a->incs, i), canon)) {
            snprintf(msg, sizeof(msg), "include cycle: '%s' is already being included", path);
            report_at(a, ifile, iline, icol, msg);
            free(canon);
            g_free(text);
            return false;
        }
    }
    g_ptr_array_add(a->owned, text);
    char *name = g_strdup(path);
    g_ptr_array_add(a->owned, name);
    if (!ifile && a->files) {
        g_ptr_array_add(a->files, name); /* the compile unit's name */
    }
    if (memchr(text, 0, len)) {
        fprintf(asm_msgs(), "%s: error: source contains a NUL byte\n", name);
        a->errors++;
        free(canon);
        return false;
    }
    g_ptr_array_add(a->incs, canon);
    char **lines = g_strsplit(text, "\n", -1);
    g_ptr_array_add(a->vecs, lines);
    for (unsigned i = 0; lines[i]; i++) {
        if (!try_include(a, name, i + 1, lines[i], depth)) {
            AsmLine l = {.text = lines[i], .file = name, .line = i + 1};
            g_array_append_val(a->src, l);
        }
    }
    g_ptr_array_set_size(a->incs, a->incs->len - 1);
    return true;
}

int seq_assemble_file_to(const char *src, const char *out, bool raw, FILE *msgs)
{
    asm_msg_stream = msgs;
    int rc = seq_assemble_file(src, out, raw);
    asm_msg_stream = NULL;
    return rc;
}

int seq_assemble_file(const char *src, const char *out, bool raw)
{
    return seq_assemble_file_debug(src, out, raw, NULL);
}

int seq_assemble_file_debug(const char *src, const char *out, bool raw, const NxAsmDebug *dbg)
{
    Asm a = {.file = src,
             .dbg = dbg,
             .labels = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free),
             .types = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL)};
    a.src = g_array_new(FALSE, FALSE, sizeof(AsmLine));
    a.owned = g_ptr_array_new_with_free_func(g_free);
    a.vecs = g_ptr_array_new_with_free_func((GDestroyNotify)g_strfreev);
    a.incs = g_ptr_array_new_with_free_func(free);
    a.segs = g_array_new(FALSE, TRUE, sizeof(AsmSeg));
    if (dbg && dbg->lines && !raw) {
        a.rows = g_array_new(FALSE, FALSE, sizeof(NxLineRow));
        a.files = g_ptr_array_new();
    }
    load_file(&a, src, NULL, 0, 0, 0);
    if (a.errors == 0) {
        a.pass1 = true;
        run_pass(&a);
    }
    if (a.errors == 0) {
        free_segs(a.segs);
        a.segs = g_array_new(FALSE, TRUE, sizeof(AsmSeg));
        a.pass1 = false;
        a.data_line = 0;
        a.have_first_text = false;
        run_pass(&a);
    }
    if (a.errors == 0) {
        check_segments(&a);
    }
    bool ok = a.errors == 0 && (raw ? write_raw(&a, out) : write_elf(&a, out));
    free_segs(a.segs);
    if (a.rows) {
        g_array_free(a.rows, TRUE);
        g_ptr_array_free(a.files, TRUE);
    }
    g_hash_table_destroy(a.labels);
    g_hash_table_destroy(a.types);
    g_array_free(a.src, TRUE);
    g_ptr_array_free(a.incs, TRUE);
    g_ptr_array_free(a.vecs, TRUE);
    g_ptr_array_free(a.owned, TRUE);
    return ok ? 0 : 1;
}
