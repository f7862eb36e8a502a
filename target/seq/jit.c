/*
 * The sequencer's block compiler (jit.h): copies stencils (jit-stencils.c,
 * turned into seq-stencils.h by scripts/seq-stencils.py) into an arena and
 * patches their holes with the decoded records' operands.
 *
 * The arena is mapped in the low 2 GiB when the host allows it (MAP_32BIT),
 * so that the few holes a compiler may address relative to the code still
 * fit 32 bits; a hole that does not fit ends the block before its record,
 * which the interpreter then runs.  The arena is written only here, between
 * an mprotect to read-write and one back to read-execute, and never while
 * compiled code runs (the run loop compiles between runs).  When it is full
 * it is emptied whole and every page's blocks are forgotten (the epoch), as
 * QEMU's tb_flush does.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <glib.h>

#include "target/seq/cpu.h"
#include "target/seq/jit.h"
#include "target/seq/seq-stencils.h"

#if !SEQ_JIT_HAVE_STENCILS
static const SeqStencil seq_stencils[SEQ_ST_COUNT];
#endif

#define SEQ_JIT_ARENA (2u << 20)

/* The stencil of each inline form (SeqKind); branches add _R or _I. */
static const int16_t seq_kind_stencil[SEQ_K_COUNT] = {
    [SEQ_K_EXIT] = -1,
    [SEQ_K_CALL] = -1,
#define KS_ALU(K, OP, W, SG) [SEQ_K_##K##_RR] = SEQ_ST_##K##_RR, [SEQ_K_##K##_RI] = SEQ_ST_##K##_RI,
    SEQ_ALU_FORMS(KS_ALU)
#undef KS_ALU
#define KS_BR(K, COND, DT) [SEQ_K_BR_##K] = SEQ_ST_BR_##K##_R,
        SEQ_BR_FORMS(KS_BR)
#undef KS_BR
};

bool seq_jit_available(void)
{
    return SEQ_JIT_HAVE_STENCILS && seq_stencils[SEQ_ST_HEAD].code &&
           seq_stencils[SEQ_ST_EXIT].code;
}

bool seq_jit_has_stencil(SeqStencilId id)
{
    return id < SEQ_ST_COUNT && seq_stencils[id].code != NULL;
}

uint8_t seq_jit_default_threshold(void)
{
    if (!seq_jit_available())
        return 0;
    const char *v = getenv("NXEMU_SEQ_JIT");
    if (!v || !*v)
        return 4;
    if (!strcmp(v, "off"))
        return 0;
    char *end;
    unsigned long n = strtoul(v, &end, 10);
    if (*end || n > 255)
        return 4; /* documented: anything else is the default */
    return (uint8_t)n;
}

void seq_jit_init(SeqJit *j)
{
    memset(j, 0, sizeof *j);
    j->threshold = seq_jit_default_threshold();
}

void seq_jit_destroy(SeqJit *j)
{
    if (j->buf)
        munmap(j->buf, j->cap);
    j->buf = NULL;
}

void seq_jit_page_reset(SeqJitPage *jp, uint32_t epoch)
{
    jp->epoch = epoch;
    jp->none = 0;
    memset(jp->heat, 0, sizeof jp->heat);
    memset(jp->entry, 0, sizeof jp->entry);
}

/* ---- emitting ------------------------------------------------------------ */

typedef struct Emit {
    SeqJit *j;
    SeqDPage *p;
    bool full; /* the arena ran out: the compile starts again after a flush */
    /* In-page links waiting for their block: the field and the target slot. */
    struct {
        uint8_t *field;
        uint8_t slot;
    } fix[64 * 2];
    unsigned nfix;
    uint8_t work[64 * 2 + 1];
    unsigned nwork;
} Emit;

/* The hole values of one stencil instance. */
typedef struct Holes {
    uint64_t v[SEQ_HOLE_COUNT];
} Holes;

/* Copy stencil id with holes h; link fields (NEXT, TAKEN) are returned in
 * links[] for the caller (NULL: the stencil has none).  False, with nothing
 * emitted, if the arena is full or a hole does not fit. */
static bool emit(Emit *e, SeqStencilId id, const Holes *h, uint8_t *links[2])
{
    const SeqStencil *st = &seq_stencils[id];
    SeqJit *j = e->j;
    links[0] = links[1] = NULL;
    if (!st->code)
        return false;
    /* Room for this stencil and an exit after it. */
    if (j->used + st->len + seq_stencils[SEQ_ST_EXIT].len > j->cap) {
        e->full = true;
        return false;
    }
    uint8_t *at = j->buf + j->used;
    memcpy(at, st->code, st->len);
    for (unsigned i = 0; i < st->nrel; i++) {
        const NxStReloc *r = &st->rel[i];
        if (r->hole == SEQ_HOLE_NEXT || r->hole == SEQ_HOLE_TAKEN) {
            links[r->hole == SEQ_HOLE_TAKEN] = at + r->off;
            continue;
        }
        if (!nx_stencil_patch32(at + r->off, r->type, r->addend, h->v[r->hole]))
            return false;
    }
    j->used += st->len;
    return true;
}

/* Point a link (a jump's rel32, addend -4) at code. */
static void link_to(uint8_t *field, const uint8_t *code)
{
    int64_t rel = (int64_t)(uintptr_t)code - ((int64_t)(uintptr_t)field + 4);
    int32_t w = (int32_t)rel; /* one arena: within 2 GiB */
    memcpy(field, &w, 4);
}

/* An exit to pc, or NULL with e->full set when the arena has no room. */
static const uint8_t *emit_exit(Emit *e, uint64_t pc)
{
    Holes h = {.v = {[SEQ_HOLE_PC_LO] = (uint32_t)pc, [SEQ_HOLE_PC_HI] = pc >> 32}};
    uint8_t *links[2];
    const uint8_t *at = e->j->buf + e->j->used;
    if (e->j->used + seq_stencils[SEQ_ST_EXIT].len > e->j->cap) {
        e->full = true;
        return NULL;
    }
    /* An exit's holes are a PC: a 32-bit field always holds its halves. */
    return emit(e, SEQ_ST_EXIT, &h, links) ? at : NULL;
}

/* The stencil and holes of record d at pc, or -1 if it has none here. */
static int record_stencil(const SeqDecoded *d, uint64_t pc, Holes *h, uint64_t *target)
{
    if (d->kind >= SEQ_K_COUNT || seq_kind_stencil[d->kind] < 0)
        return -1;
    int id = seq_kind_stencil[d->kind];
    memset(h, 0, sizeof *h);
    h->v[SEQ_HOLE_RA] = 4u * d->ra;
    h->v[SEQ_HOLE_RA_HI] = 4u * d->ra_hi;
    h->v[SEQ_HOLE_RB] = 4u * d->rb;
    h->v[SEQ_HOLE_RB_HI] = 4u * d->rb_hi;
    h->v[SEQ_HOLE_RD] = 4u * d->rd;
    h->v[SEQ_HOLE_RD_HI] = 4u * d->rd_hi;
    if (id >= SEQ_ST_BR_ALWAYS_R && id < SEQ_ST_HEAD) {
        if (!d->rhs_reg)
            id++; /* the _I variant */
        h->v[SEQ_HOLE_IMM_LO] = d->imm32;
        *target = seq_br_form_target(d, pc);
        if (*target & 63)
            return -1; /* misaligned: the interpreter takes the fault */
    } else {
        h->v[SEQ_HOLE_IMM_LO] = (uint32_t)d->imm;
        h->v[SEQ_HOLE_IMM_HI] = d->imm >> 32;
    }
    return seq_stencils[id].code ? id : -1;
}

/* Link `field` to the block at in-page slot t (now or once it exists), or
 * to an exit to pc when t is outside the page; false if the arena filled. */
static bool link_slot(Emit *e, uint8_t *field, uint64_t pc)
{
    const uint64_t base = e->p->base;
    if (pc - base >= 4096) {
        const uint8_t *x = emit_exit(e, pc);
        if (!x)
            return false;
        link_to(field, x);
        return true;
    }
    unsigned t = (unsigned)((pc - base) >> 6);
    if (e->p->jit.entry[t]) {
        link_to(field, e->p->jit.entry[t]);
        return true;
    }
    /* At most two links per block and one block per slot: fix[] and
     * work[] cannot overflow. */
    g_assert(e->nfix < G_N_ELEMENTS(e->fix) && e->nwork < G_N_ELEMENTS(e->work));
    e->fix[e->nfix].field = field;
    e->fix[e->nfix].slot = (uint8_t)t;
    e->nfix++;
    e->work[e->nwork++] = (uint8_t)t;
    return true;
}

/* Stencil id was just emitted and what comes next in the arena (the next
 * record's stencil or an exit) is its continuation: drop its trailing jump
 * to NEXT, or point a jump elsewhere in it there. */
static void fall_through(Emit *e, SeqStencilId id, uint8_t *next)
{
    if (seq_stencils[id].strip)
        e->j->used -= seq_stencils[id].strip;
    else if (next)
        link_to(next, e->j->buf + e->j->used);
}

/* Blocks from slot k on, each falling through into the next one while that
 * one is new; false if the arena filled. */
static bool emit_chain(Emit *e, unsigned k)
{
    SeqDPage *p = e->p;
    SeqJit *j = e->j;
    while (k < 64 && !p->jit.entry[k] && !((p->jit.none >> k) & 1)) {
        const size_t start = j->used;
        const uint64_t head_pc = p->base + 64ull * k;
        uint8_t *links[2];
        Holes h = {.v = {[SEQ_HOLE_PC_LO] = (uint32_t)head_pc, [SEQ_HOLE_PC_HI] = head_pc >> 32}};
        if (!emit(e, SEQ_ST_HEAD, &h, links))
            return false; /* the head has no value that cannot fit: full */
        /* The head's n is patched once the block's length is known. */
        fall_through(e, SEQ_ST_HEAD, links[0]);
        p->jit.entry[k] = j->buf + start;
        unsigned n = 0, i = k;
        uint8_t *next = NULL;
        bool branch = false;
        for (; i < 64; i++) {
            uint64_t target = 0;
            int id = record_stencil(&p->e[i], p->base + 64ull * i, &h, &target);
            if (id < 0 || !emit(e, (SeqStencilId)id, &h, links))
                break;
            n++;
            if (id >= SEQ_ST_BR_ALWAYS_R && id < SEQ_ST_HEAD) {
                if (links[1] && !link_slot(e, links[1], target))
                    return false;
                next = links[0];
                branch = true;
                i++;
                break;
            }
            fall_through(e, (SeqStencilId)id, links[0]);
        }
        if (e->full)
            return false;
        if (n == 0) {
            /* Nothing compiles here: the slot stays with the interpreter. */
            j->used = start;
            p->jit.entry[k] = NULL;
            p->jit.none |= 1ull << k;
            return true;
        }
        /* The head's length. */
        const SeqStencil *hs = &seq_stencils[SEQ_ST_HEAD];
        for (unsigned r = 0; r < hs->nrel; r++)
            if (hs->rel[r].hole == SEQ_HOLE_N)
                nx_stencil_patch32(j->buf + start + hs->rel[r].off, hs->rel[r].type,
                                   hs->rel[r].addend, n);
        j->blocks++;
        if (!branch) {
            /* Ended before record i, which has no stencil: leave there. */
            return emit_exit(e, p->base + 64ull * i) != NULL;
        }
        if (!next)
            return true; /* an unconditional branch: no fall-through */
        if (i < 64 && !p->jit.entry[i] && !((p->jit.none >> i) & 1) &&
            next == j->buf + j->used - 4) {
            /* The fall-through block comes next: drop the jump to it. */
            j->used -= 5;
            const size_t before = j->used;
            k = i;
            /* If it turns out empty, the dropped jump becomes an exit. */
            if (!emit_chain(e, k))
                return false;
            if (j->used == before && !p->jit.entry[k])
                return emit_exit(e, p->base + 64ull * k) != NULL;
            return true;
        }
        return link_slot(e, next, p->base + 64ull * i);
    }
    return true;
}

static bool compile_page(Emit *e, unsigned slot)
{
    e->nfix = e->nwork = 0;
    e->work[e->nwork++] = (uint8_t)slot;
    while (e->nwork) {
        unsigned k = e->work[--e->nwork];
        if (!emit_chain(e, k))
            return false;
    }
    for (unsigned f = 0; f < e->nfix; f++) {
        unsigned t = e->fix[f].slot;
        const uint8_t *code = e->p->jit.entry[t];
        if (!code && !(code = emit_exit(e, e->p->base + 64ull * t)))
            return false;
        link_to(e->fix[f].field, code);
    }
    return true;
}

const uint8_t *seq_jit_compile(SeqJit *j, SeqDPage *p, unsigned slot)
{
    if (!seq_jit_available() || !j->threshold)
        return NULL;
    if (!j->buf) {
        const size_t cap = j->cap ? j->cap : SEQ_JIT_ARENA;
        void *b = mmap(NULL, cap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT,
                       -1, 0);
        if (b == MAP_FAILED)
            b = mmap(NULL, cap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (b == MAP_FAILED) {
            j->threshold = 0; /* the interpreter alone, as without stencils */
            return NULL;
        }
        j->buf = b;
        j->cap = cap;
    } else if (mprotect(j->buf, j->cap, PROT_READ | PROT_WRITE) != 0) {
        j->threshold = 0;
        return NULL;
    }
    if (p->jit.epoch != j->epoch)
        seq_jit_page_reset(&p->jit, j->epoch);

    Emit *e = g_new0(Emit, 1);
    e->j = j;
    e->p = p;
    bool ok = compile_page(e, slot);
    if (!ok && e->full) {
        /* Empty the arena (every page's blocks go) and compile once more. */
        j->used = 0;
        j->epoch++;
        j->flushes++;
        seq_jit_page_reset(&p->jit, j->epoch);
        memset(e, 0, sizeof *e);
        e->j = j;
        e->p = p;
        ok = compile_page(e, slot);
    }
    g_free(e);
    if (!ok) /* a page too big for an empty arena (a test's tiny one; 2 MiB holds any) */
        seq_jit_page_reset(&p->jit, j->epoch), p->jit.none = ~0ull;
    if (mprotect(j->buf, j->cap, PROT_READ | PROT_EXEC) != 0) {
        /* Not executable: never run it. */
        j->threshold = 0;
        seq_jit_page_reset(&p->jit, j->epoch);
        return NULL;
    }
    __builtin___clear_cache((char *)j->buf, (char *)j->buf + j->used);
    if (!p->jit.entry[slot])
        p->jit.none |= 1ull << slot;
    return p->jit.entry[slot];
}
