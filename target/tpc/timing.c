/*
 * TPC pipeline timing (timing.h, docs/timing.rst).
 *
 * Each decoded bundle is resolved once against timing.def: for every
 * executing slot the registers it reads (tpc_insn_reads, from the decoded
 * operands) with their read / forwarding stages, and the write stage of
 * each register file it may write.  At run time every committed register
 * write is recorded per register (issue cycle, producer stage, the value
 * it replaced) in a short history; a later read needs
 * max(1, max(Pw, Cs) - Cr + 1) cycles after the write.  The newest write
 * that is far enough is the value seen; the executor itself is unchanged:
 * in exposed mode the old value is put in the register for the duration
 * of the slot's executor and taken out again before the commit.
 */
#include <inttypes.h>
#include <string.h>

#include "nxemu/log.h"
#include "target/tpc/cpu.h"
#include "target/tpc/timing.h"

/* ---- the table ---- */

enum { TM_D2 = 0, TM_E1, TM_E2, TM_E3, TM_E4, TM_E5, TM_E6, TM_NONE = 0xFF };
enum { TM_T_ANY, TM_T_FLOAT, TM_T_INT, TM_T_ACC32, TM_T_NOACC, TM_T_VDST, TM_T_SDST, TM_T_IDST };
enum { TM_PROD = 1, TM_CONS = 2 }; /* TPC_IBYP roles */

typedef struct PwRow {
    uint8_t slot, types, kind, pw;
    const char *names, *src;
} PwRow;

typedef struct CrRow {
    uint8_t slot, types, field, kind, cr, cs;
    const char *names, *src;
} CrRow;

typedef struct PairRow {
    uint8_t pslot, ptypes, cslot, ctypes, cfield, dist;
    const char *pnames, *cnames, *src;
} PairRow;

typedef struct NameRow {
    uint8_t slot, role;
    const char *names, *src;
} NameRow;

static const PwRow pw_rows[] = {
#define TPC_PW(slot, names, types, file, pw, src)                                                  \
    {TPC_SLOT_##slot, TM_T_##types, TPC_OP_##file, TM_##pw, names, src},
#include "target/tpc/timing.def"
};

static const CrRow cr_rows[] = {
#define TPC_CR(slot, names, types, field, file, cr, cs, src)                                       \
    {TPC_SLOT_##slot, TM_T_##types, TPC_FIELD_##field, TPC_OP_##file, TM_##cr, TM_##cs, names, src},
#include "target/tpc/timing.def"
};

static const PairRow pair_rows[] = {
#define TPC_PAIR(pslot, pnames, ptypes, cslot, cnames, ctypes, cfield, dist, src)                  \
    {TPC_SLOT_##pslot, TM_T_##ptypes, TPC_SLOT_##cslot, TM_T_##ctypes, TPC_FIELD_##cfield, dist,   \
     pnames,           cnames,        src},
#include "target/tpc/timing.def"
};
G_STATIC_ASSERT(G_N_ELEMENTS(pair_rows) <= 16); /* 16 bits of pair rows */

static const NameRow nowr_rows[] = {
#define TPC_NOWR(slot, names, src) {TPC_SLOT_##slot, 0, names, src},
#include "target/tpc/timing.def"
};

static const NameRow ibyp_rows[] = {
#define TPC_IBYP(slot, names, role, src) {TPC_SLOT_##slot, TM_##role, names, src},
#include "target/tpc/timing.def"
};

typedef struct WawRow {
    uint8_t pslot, ptypes, kind, cslot, dist;
    const char *pnames, *cnames, *src;
} WawRow;

static const WawRow waw_rows[] = {
#define TPC_WAW(pslot, pnames, ptypes, file, cslot, cnames, dist, src)                             \
    {TPC_SLOT_##pslot, TM_T_##ptypes, TPC_OP_##file, TPC_SLOT_##cslot, dist, pnames, cnames, src},
#include "target/tpc/timing.def"
};
G_STATIC_ASSERT(G_N_ELEMENTS(waw_rows) <= 8);

enum { TM_MIN, TM_NOT };
typedef struct SeqRow {
    uint8_t pslot, cslot, dist, how;
    const char *pnames, *cnames, *src;
} SeqRow;

static const SeqRow seq_rows[] = {
#define TPC_SEQ(pslot, pnames, cslot, cnames, dist, how, src)                                      \
    {TPC_SLOT_##pslot, TPC_SLOT_##cslot, dist, TM_##how, pnames, cnames, src},
#include "target/tpc/timing.def"
};
G_STATIC_ASSERT(G_N_ELEMENTS(seq_rows) <= 8);

enum { TM_LOOP_BODY, TM_JMP_LOOP_END, TM_JMP_TARGET, TM_JMP_NEXT, TM_JMP_AFTER };
typedef struct FlowRow {
    uint8_t kind, slot, bundles;
    const char *names, *src;
} FlowRow;

static const FlowRow flow_rows[] = {
#define TPC_FLOW(kind, slot, names, bundles, src) {TM_##kind, TPC_SLOT_##slot, bundles, names, src},
#include "target/tpc/timing.def"
};
static const char *const flow_names[] = {"LOOP-BODY", "JMP-LOOP-END", "JMP-TARGET", "JMP-NEXT",
                                         "JMP-AFTER"};

typedef struct MemRow {
    uint8_t slot;
    uint16_t bytes;
    uint8_t load; /* 0 posted, 1 waits, 2 waits, SBUF/PSUM tensors less */
    const char *names, *src;
} MemRow;

static const MemRow mem_rows[] = {
#define TPC_MEM(slot, names, bytes, load, src) {TPC_SLOT_##slot, bytes, load, names, src},
#include "target/tpc/timing.def"
};

/* "a|b*|c": a name, a prefix with *, or "*" for any. */
static bool name_match(const char *pat, const char *name)
{
    for (const char *p = pat;;) {
        const char *e = strchr(p, '|');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len && p[len - 1] == '*') {
            if (!strncmp(p, name, len - 1))
                return true;
        } else if (strlen(name) == len && !strncmp(p, name, len)) {
            return true;
        }
        if (!e)
            return false;
        p = e + 1;
    }
}

static bool type_match(unsigned types, const TpcInsn *in)
{
    bool f = tpc_type_is_float(in->type);
    /* bf16 accumulating in f32 (MAC/MUL acc_fp32, SWITCHES bit 2) */
    bool acc32 = in->type == TPC_T_BF16 && (in->sw & 4u);
    unsigned dk = in->dst.kind;
    switch (types) {
    case TM_T_ANY:
        return true;
    case TM_T_FLOAT:
        return f;
    case TM_T_INT:
        return !f;
    case TM_T_ACC32:
        return f && acc32;
    case TM_T_NOACC:
        return f && !acc32;
    case TM_T_VDST:
        return dk == TPC_OP_V || dk == TPC_OP_VP;
    case TM_T_SDST:
        return dk == TPC_OP_S || dk == TPC_OP_SP;
    default:
        return dk == TPC_OP_I;
    }
}

/* A member of the IRF bypass (TPC_IBYP rows) in role. */
static bool ibyp_of(unsigned slot, const TpcInsn *in, unsigned role)
{
    for (size_t i = 0; i < G_N_ELEMENTS(ibyp_rows); i++)
        if (ibyp_rows[i].slot == slot && ibyp_rows[i].role == role &&
            name_match(ibyp_rows[i].names, in->desc->mnemonic))
            return true;
    return false;
}

static unsigned pw_of(unsigned slot, const TpcInsn *in, unsigned kind)
{
    for (size_t i = 0; i < G_N_ELEMENTS(pw_rows); i++) {
        const PwRow *r = &pw_rows[i];
        if (r->slot == slot && r->kind == kind && type_match(r->types, in) &&
            name_match(r->names, in->desc->mnemonic))
            return r->pw;
    }
    return TM_NONE;
}

static const CrRow *cr_of(unsigned slot, const TpcInsn *in, unsigned field, unsigned kind)
{
    for (size_t i = 0; i < G_N_ELEMENTS(cr_rows); i++) {
        const CrRow *r = &cr_rows[i];
        if (r->slot == slot && r->field == field && r->kind == kind && type_match(r->types, in) &&
            name_match(r->names, in->desc->mnemonic))
            return r;
    }
    return NULL;
}

static unsigned prod_pairs(unsigned slot, const TpcInsn *in)
{
    unsigned m = 0;
    for (size_t i = 0; i < G_N_ELEMENTS(pair_rows); i++) {
        const PairRow *r = &pair_rows[i];
        if (r->pslot == slot && type_match(r->ptypes, in) && name_match(r->pnames, in->desc->mnemonic))
            m |= 1u << i;
    }
    return m;
}

static unsigned cons_pairs(unsigned slot, const TpcInsn *in, unsigned field)
{
    unsigned m = 0;
    for (size_t i = 0; i < G_N_ELEMENTS(pair_rows); i++) {
        const PairRow *r = &pair_rows[i];
        if (r->cslot == slot && r->cfield == field && type_match(r->ctypes, in) &&
            name_match(r->cnames, in->desc->mnemonic))
            m |= 1u << i;
    }
    return m;
}

/* The global-memory row of a slot instruction, NULL for none. */
static const MemRow *mem_of(unsigned slot, const TpcInsn *in)
{
    for (size_t i = 0; i < G_N_ELEMENTS(mem_rows); i++)
        if (mem_rows[i].slot == slot && name_match(mem_rows[i].names, in->desc->mnemonic))
            return &mem_rows[i];
    return NULL;
}

/* Bytes the access of row r moves: the row's, else the register's. */
static unsigned mem_bytes(const MemRow *r, unsigned slot, const TpcInsn *in)
{
    if (r->bytes)
        return r->bytes;
    unsigned kind = slot == TPC_SLOT_LD ? in->dst.kind : in->c.kind;
    return kind == TPC_OP_VP ? TPC_VPBYTES : TPC_VBYTES;
}

/* The rule (timing.def head).  irf: the operand is an IRF register, read at
 * D2 unless producer (pib) and consumer (cib) are both on the IRF bypass. */
static unsigned distance(unsigned pw, unsigned ppairs, bool pib, unsigned cr, unsigned cs,
                         unsigned cpairs, bool cib, bool irf)
{
    unsigned common = ppairs & cpairs;
    if (common)
        return pair_rows[__builtin_ctz(common)].dist;
    if (pw == TM_NONE || cr == TM_NONE)
        return TPC_TIMING_DEFAULT;
    if (irf && !(pib && cib))
        cr = TM_D2;
    int d = (int)MAX(pw, cs) - (int)cr + 1;
    return d < 1 ? 1u : (unsigned)d;
}

unsigned tpc_timing_distance(unsigned pslot, const TpcInsn *prod, unsigned pkind, unsigned cslot,
                             const TpcInsn *cons, unsigned cfield, unsigned ckind)
{
    const CrRow *r = cr_of(cslot, cons, cfield, ckind);
    return distance(pw_of(pslot, prod, pkind), prod_pairs(pslot, prod),
                    ibyp_of(pslot, prod, TM_PROD), r ? r->cr : TM_NONE, r ? r->cs : TM_NONE,
                    cons_pairs(cslot, cons, cfield), ibyp_of(cslot, cons, TM_CONS),
                    ckind == TPC_OP_I);
}

/* Does a row of rows name `name` exactly (not by "*" or a prefix)? */
static bool names_exactly(const char *pat, const char *name)
{
    return !strchr(pat, '*') && name_match(pat, name);
}

/* Is `name` an executing instruction of slot (the rows of insn-*.def)? */
static bool insn_exists(unsigned slot, const char *name)
{
    for (unsigned opc = 0; opc < 64; opc++) {
        const TpcInsnDesc *d = tpc_insn_desc(slot, opc);
        if (d && d->kind == TPC_KIND_EXEC && !strcmp(d->mnemonic, name))
            return true;
    }
    return false;
}

/* Each name of a producer row must be an executing instruction. */
static unsigned check_names(unsigned slot, const char *names, const char *what, FILE *err)
{
    unsigned bad = 0;
    for (const char *p = names;;) {
        const char *e = strchr(p, '|');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        g_autofree char *n = g_strndup(p, len);
        if (strchr(n, '*') || !insn_exists(slot, n)) {
            fprintf(err, "timing.def: %s row names \"%s\" (slot %u): not an instruction\n", what, n,
                    slot);
            bad++;
        }
        if (!e)
            return bad;
        p = e + 1;
    }
}

unsigned tpc_timing_check_table(FILE *err)
{
    unsigned bad = 0;
    static const struct {
        uint8_t slot;
        const char *name;
    } insns[] = {
#define TPC_LD(opc, name, f, t, s, fl) {TPC_SLOT_LD, #name},
#include "target/tpc/insn-ld.def"
#define TPC_SPU(opc, name, f, t, s, fl) {TPC_SLOT_SPU, #name},
#include "target/tpc/insn-spu.def"
#define TPC_VPU(opc, name, f, t, s, fl) {TPC_SLOT_VPU, #name},
#include "target/tpc/insn-vpu.def"
#define TPC_ST(opc, name, f, t, s, fl) {TPC_SLOT_ST, #name},
#include "target/tpc/insn-st.def"
    };
    for (size_t i = 0; i < G_N_ELEMENTS(insns); i++) {
        bool named = false;
        for (size_t r = 0; r < G_N_ELEMENTS(pw_rows) && !named; r++)
            named =
                pw_rows[r].slot == insns[i].slot && names_exactly(pw_rows[r].names, insns[i].name);
        for (size_t r = 0; r < G_N_ELEMENTS(nowr_rows) && !named; r++)
            named = nowr_rows[r].slot == insns[i].slot &&
                    names_exactly(nowr_rows[r].names, insns[i].name);
        if (!named) {
            fprintf(err, "timing.def: %s %s has no TPC_PW or TPC_NOWR row\n",
                    insns[i].slot == TPC_SLOT_LD    ? "LD"
                    : insns[i].slot == TPC_SLOT_SPU ? "SPU"
                    : insns[i].slot == TPC_SLOT_VPU ? "VPU"
                                                    : "ST",
                    insns[i].name);
            bad++;
        }
    }
    for (size_t r = 0; r < G_N_ELEMENTS(pw_rows); r++)
        bad += check_names(pw_rows[r].slot, pw_rows[r].names, "TPC_PW", err);
    for (size_t r = 0; r < G_N_ELEMENTS(nowr_rows); r++)
        bad += check_names(nowr_rows[r].slot, nowr_rows[r].names, "TPC_NOWR", err);
    return bad;
}

bool tpc_timing_parse(const char *s, TpcTimingMode *mode)
{
    for (unsigned i = 0; i <= TPC_TIMING_EXPOSED; i++) {
        if (!strcmp(s, tpc_timing_name((TpcTimingMode)i))) {
            *mode = (TpcTimingMode)i;
            return true;
        }
    }
    return false;
}

bool nx_timing_parse(const char *s, unsigned *mode)
{
    TpcTimingMode t;
    if (!tpc_timing_parse(s, &t))
        return false;
    *mode = (unsigned)t;
    return true;
}

const char *tpc_timing_name(TpcTimingMode mode)
{
    static const char *const names[] = {"functional", "interlocked", "exposed"};
    return mode <= TPC_TIMING_EXPOSED ? names[mode] : "?";
}

/* ---- per-core state ---- */

/* Flat register numbers: the gdb numbering of cpu.h (S, SP, V, VP, I, AD). */
#define TM_NREGS TPC_GDB_PC
/* Writes remembered per register: the longest distance is 7 (E6 to D2), and
 * a register is written at most once per slot per cycle. */
#define TM_HIST 8
#define TM_MAX_RD (TPC_MAX_READS + 5) /* pairs count two; up to 3 implicit S registers */

typedef struct TmRead {
    uint8_t reg, cr, cs, field;
    uint16_t pairs;
    bool ibyp; /* a consumer on the IRF bypass */
} TmRead;

typedef struct TmSlot {
    uint8_t nrd;
    uint8_t wawp, wawc;    /* TPC_WAW rows it is the producer / consumer of */
    uint8_t wdst;          /* its destination register (flat), 0xFF: none */
    uint16_t pairs;        /* producer pair rows */
    bool ibyp;             /* a producer on the IRF bypass */
    uint8_t gload;         /* the access waits for its data (TPC_MEM LOAD) */
    uint16_t gbytes;       /* global-memory bytes moved, 0: none (TPC_MEM) */
    bool gtnsr;            /* a tensor access (else LD_G/ST_G through an ADRF) */
    uint8_t pw[TPC_OP_AD + 1]; /* by TPC_OP_* kind */
    TmRead rd[TM_MAX_RD];
} TmSlot;

typedef struct TmBundle {
    bool valid;
    uint8_t seqp, seqc; /* TPC_SEQ rows one of its slots is the producer / consumer of */
    bool vpu; /* an executing VPU instruction (profile: VPU utilisation) */
    TmSlot s[5]; /* LD, SPU, VPU, ST, LOOP (TPC_SLOT_BUNDLE) */
} TmBundle;

typedef struct TmEnt {
    uint64_t t; /* issue cycle */
    uint32_t pc;
    uint8_t pw;
    bool ibyp;
    uint16_t pairs;
    uint8_t waw; /* TPC_WAW rows the producer matched */
} TmEnt;

typedef struct TmHist {
    uint64_t t; /* pipeline cycle: issue cycle less the memory stalls before it */
    uint32_t pc;
    uint8_t seqp;
} TmHist;
#define TM_BHIST 8 /* bundles remembered for TPC_SEQ (no rule spans more than 7) */

/* The HBM cap the TPCs' ports share (memory@0 nxemu,bytes-per-cycle,
 * docs/timing.rst "Memory bandwidth"): the bytes booked in each cycle of
 * virtual time over a window of TM_HBM_WIN cycles, one per machine, shared
 * by every TPC's TpcTiming.  The running TPCs share it fairly: in a cycle
 * a TPC books at most its port's rate and an equal share of the cap (cap /
 * running TPCs, rounded down, at least 1), as a round-robin arbiter gives
 * when all of them stream; the bookings never pass the cap.  A booking
 * older than the window (a TPC that lags the others by that much) sees no
 * contention. */
#define TM_HBM_WIN 4096

typedef struct TmHbm {
    unsigned refs;
    unsigned running; /* TPCs launched and not finished */
    uint32_t cap;
    uint64_t base; /* the window is [base, base + TM_HBM_WIN) */
    uint32_t used[TM_HBM_WIN];
} TmHbm;

/* Move bytes through a port of port bytes per cycle from cycle t on, each
 * cycle taking what the cap leaves; returns the cycle after the last. */
static uint64_t hbm_book(TmHbm *h, uint64_t t, uint64_t bytes, uint32_t port)
{
    uint32_t share = MAX(1u, h->cap / MAX(1u, h->running));
    port = MIN(port, share);
    while (bytes) {
        uint64_t take = MIN(bytes, port);
        if (t >= h->base + TM_HBM_WIN) {
            uint64_t nb = t - TM_HBM_WIN + 1;
            if (nb - h->base >= TM_HBM_WIN)
                memset(h->used, 0, sizeof(h->used));
            else
                for (uint64_t x = h->base; x < nb; x++)
                    h->used[x % TM_HBM_WIN] = 0;
            h->base = nb;
        }
        if (t >= h->base) {
            uint32_t *u = &h->used[t % TM_HBM_WIN];
            take = MIN(take, h->cap - *u);
            *u += (uint32_t)take;
        }
        bytes -= take;
        t++;
    }
    return t;
}

typedef struct TmSave {
    uint8_t reg;
    uint8_t *vptr;
    uint8_t bytes[32];
} TmSave;

struct TpcTiming {
    TpcTimingMode mode;
    bool warn;
    bool profile;
    /* the global-memory port (/tpcs nxemu,gmem-*): a load bundle waits
     * gmem_lat cycles; the port carries gmem_bpc bytes a cycle and is busy
     * until port_free (a cycle of c->cycles) */
    uint32_t gmem_lat, gmem_bpc, sram_lat;
    uint64_t port_free;
    TmHbm *hbm;                      /* the shared HBM cap, NULL: none */
    bool running;                    /* counted in hbm->running */
    uint64_t t0;                     /* virtual time of the launch: c->cycles 0 */
    uint64_t gmem_bytes, mem_stalls; /* since the model was turned on */
    uint64_t by_cause[TPC_STALL_NCAUSES]; /* the kernel's stall cycles by cause */
    TpcProfileRow *prof; /* by PC / 32, nprof rows */
    size_t nprof;
    GArray *edges;    /* TpcProfileEdge: backward transfers seen */
    uint32_t last_pc; /* the bundle before this one, UINT32_MAX after a launch */
    uint32_t port_pc; /* the bundle that last took the memory port */
    uint64_t pclk;    /* profile clock: cycles since profiling began */
    uint64_t window;  /* cycles per sample (a power of two) */
    size_t nsamp;
    TpcProfileSample *samp; /* TPC_PROF_NSAMP of them */
    GHashTable *warned; /* bundle PCs + 1 already reported */
    GHashTable *warned_rule; /* the same for TPC_WAW / TPC_SEQ */
    GHashTable *warned_flow; /* the same for TPC_FLOW */
    uint32_t jmp_pc;         /* the last jump bundle (TPC_FLOW) */
    uint8_t jmp_age;         /* bundles run since it, 0xFF: none near */
    unsigned bh_head, bh_count;
    TmHist bh[TM_BHIST]; /* the last bundles with a TPC_SEQ producer */
    uint64_t tc;        /* issue cycle of the bundle being executed */
    TmBundle b[TPC_DCACHE_SIZE];
    struct {
        uint8_t head, count;
        TmEnt e[TM_HIST];
    } reg[TM_NREGS];
    unsigned nsave;
    TmSave save[TM_MAX_RD];
    uint8_t sold[TM_NREGS][TM_HIST][32];
    uint8_t vold[TPC_NR_V][TM_HIST][TPC_VBYTES];
    uint8_t vscratch[5][TM_MAX_RD][TPC_VBYTES];
};

TpcTiming *tpc_timing_new(TpcTimingMode mode, bool hazard_warn, uint32_t gmem_latency,
                          uint32_t gmem_bytes_per_cycle, uint32_t sram_latency)
{
    TpcTiming *tm = g_malloc0(sizeof(*tm));
    tm->mode = mode;
    tm->warn = hazard_warn;
    tm->gmem_lat = gmem_latency;
    tm->sram_lat = sram_latency;
    tm->gmem_bpc = gmem_bytes_per_cycle; /* 0 (no DTB): no bandwidth limit */
    tm->warned = g_hash_table_new(g_direct_hash, g_direct_equal);
    tm->warned_rule = g_hash_table_new(g_direct_hash, g_direct_equal);
    tm->warned_flow = g_hash_table_new(g_direct_hash, g_direct_equal);
    tm->jmp_age = 0xFF;
    tm->last_pc = UINT32_MAX;
    return tm;
}

void tpc_timing_free(TpcTiming *tm)
{
    if (!tm)
        return;
    tpc_timing_finish(tm);
    if (tm->hbm && !--tm->hbm->refs)
        g_free(tm->hbm);
    g_hash_table_destroy(tm->warned);
    g_hash_table_destroy(tm->warned_rule);
    g_hash_table_destroy(tm->warned_flow);
    g_free(tm->prof);
    if (tm->edges)
        g_array_free(tm->edges, TRUE);
    g_free(tm->samp);
    g_free(tm);
}

void tpc_timing_finish(TpcTiming *tm)
{
    if (tm && tm->hbm && tm->running)
        tm->hbm->running--;
    if (tm)
        tm->running = false;
}

void tpc_timing_reset(TpcTiming *tm, uint64_t vtime)
{
    tm->t0 = vtime;
    if (tm->hbm && !tm->running)
        tm->hbm->running++;
    tm->running = true;
    for (unsigned r = 0; r < TM_NREGS; r++)
        tm->reg[r].count = 0;
    tm->port_free = 0;
    memset(tm->by_cause, 0, sizeof(tm->by_cause));
    tm->bh_count = 0;
    tm->last_pc = UINT32_MAX; /* no back edge from the previous launch */
    tm->jmp_age = 0xFF;
}

/* Every TPC of m shares one TmHbm (none without a cap). */
static void share_hbm(Machine *m, TpcTiming *tm)
{
    TmHbm *h = NULL;
    if (!m->cfg.hbm_bytes_per_cycle)
        return;
    for (unsigned t = 0; t < m->cfg.nr_tpc && !h; t++) {
        TpcCpu *c = tpc_cpu_of(m, t);
        if (c && c->tm && c->tm != tm)
            h = c->tm->hbm;
    }
    if (!h) {
        h = g_new0(TmHbm, 1);
        h->cap = m->cfg.hbm_bytes_per_cycle;
    }
    h->refs++;
    tm->hbm = h;
}

/* A timing model for a TPC of m, with the machine's memory parameters and
 * its share of the HBM cap. */
static TpcTiming *timing_for(Machine *m, TpcTimingMode mode, bool hazard_warn)
{
    TpcTiming *tm = tpc_timing_new(mode, hazard_warn, m->cfg.tpc_gmem_latency,
                                   m->cfg.tpc_gmem_bytes_per_cycle, m->cfg.tpc_sram_latency);
    share_hbm(m, tm);
    return tm;
}

void tpc_cpu_timing_set(Machine *m, TpcCpu *c, TpcTimingMode mode, bool hazard_warn)
{
    tpc_timing_free(c->tm);
    c->tm = NULL;
    if (mode != TPC_TIMING_FUNCTIONAL || hazard_warn)
        c->tm = timing_for(m, mode, hazard_warn);
}

void tpc_cpu_set_timing(Machine *m, TpcTimingMode mode, bool hazard_warn)
{
    for (unsigned t = 0; t < m->cfg.nr_tpc; t++) {
        TpcCpu *c = tpc_cpu_of(m, t);
        if (c)
            tpc_cpu_timing_set(m, c, mode, hazard_warn);
    }
}

void tpc_cpu_set_profile(Machine *m)
{
    for (unsigned t = 0; t < m->cfg.nr_tpc; t++) {
        TpcCpu *c = tpc_cpu_of(m, t);
        if (!c)
            continue;
        if (!c->tm)
            c->tm = timing_for(m, TPC_TIMING_FUNCTIONAL, false);
        if (!c->tm->profile) {
            c->tm->profile = true;
            c->tm->edges = g_array_new(FALSE, TRUE, sizeof(TpcProfileEdge));
            c->tm->samp = g_new0(TpcProfileSample, TPC_PROF_NSAMP);
            c->tm->window = 1;
        }
    }
}

const TpcProfileRow *tpc_timing_profile(const TpcTiming *tm, size_t *n)
{
    *n = tm && tm->profile ? tm->nprof : 0;
    return *n ? tm->prof : NULL;
}

TpcTimingMode tpc_timing_mode(const TpcTiming *tm)
{
    return tm ? tm->mode : TPC_TIMING_FUNCTIONAL;
}

const char *const tpc_timing_file_names[TPC_TM_NFILES] = {"S", "SP", "V", "VP", "I", "AD"};
const char *const tpc_stall_cause_names[TPC_STALL_NCAUSES] = {"RAW", "MEM", "RULE", "LOOP"};

const TpcProfileEdge *tpc_timing_profile_edges(const TpcTiming *tm, size_t *n)
{
    *n = tm && tm->profile ? tm->edges->len : 0;
    return *n ? &g_array_index(tm->edges, TpcProfileEdge, 0) : NULL;
}

const TpcProfileSample *tpc_timing_profile_samples(const TpcTiming *tm, size_t *n, uint64_t *window)
{
    *n = tm && tm->profile ? tm->nsamp : 0;
    *window = tm && tm->profile ? tm->window : 1;
    return *n ? tm->samp : NULL;
}

/* Count len cycles of the profile clock from cycle t as cause (or issue:
 * TPC_STALL_NCAUSES) in the windows they fall in; when the clock passes the
 * last window, pairs of windows merge and the window doubles. */
static void prof_span(TpcTiming *tm, unsigned cause, uint64_t t, uint64_t len)
{
    while (len) {
        uint64_t w = t / tm->window;
        while (w >= TPC_PROF_NSAMP) {
            for (size_t i = 0; i < TPC_PROF_NSAMP / 2; i++) {
                TpcProfileSample *a = &tm->samp[2 * i], *b = &tm->samp[2 * i + 1];
                TpcProfileSample m = {a->issue + b->issue, {0}, a->bytes + b->bytes};
                for (unsigned k = 0; k < TPC_STALL_NCAUSES; k++)
                    m.stall[k] = a->stall[k] + b->stall[k];
                tm->samp[i] = m;
            }
            memset(tm->samp + TPC_PROF_NSAMP / 2, 0, TPC_PROF_NSAMP / 2 * sizeof(TpcProfileSample));
            tm->window *= 2;
            tm->nsamp = (tm->nsamp + 1) / 2;
            w = t / tm->window;
        }
        uint64_t n = MIN(len, (w + 1) * tm->window - t);
        if (cause == TPC_STALL_NCAUSES)
            tm->samp[w].issue += n;
        else
            tm->samp[w].stall[cause] += n;
        tm->nsamp = MAX(tm->nsamp, (size_t)w + 1);
        t += n;
        len -= n;
    }
}

/* Credit cycles stalled by cause to producer pc (reg) in row r. */
static void prof_producer(TpcProfileRow *r, unsigned cause, uint32_t pc, unsigned reg,
                          uint64_t cycles)
{
    if (!cycles)
        return;
    for (unsigned i = 0; i < r->nprod; i++) {
        TpcProfileProducer *p = &r->prod[i];
        if (p->pc == pc && p->cause == cause && p->reg == reg) {
            p->cycles += cycles;
            p->times++;
            return;
        }
    }
    if (r->nprod == TPC_PROF_NPROD) {
        r->prod_other += cycles;
        return;
    }
    r->prod[r->nprod++] = (TpcProfileProducer){pc, (uint8_t)cause, (uint8_t)reg, cycles, 1};
}

/* A transfer from the previous bundle back to c->pc: a loop's back edge
 * (LOOP's when the innermost loop frame ends there and restarts here). */
static void prof_edge(TpcTiming *tm, const TpcCpu *c)
{
    uint32_t from = tm->last_pc;
    tm->last_pc = c->pc;
    const TpcLoopFrame *f = c->nloops ? &c->loops[c->nloops - 1] : NULL;
    bool back = from != UINT32_MAX && c->pc <= from;
    /* entering a LOOP's body: its edge is known before it is taken, so a
     * loop of one trip is listed too */
    bool enter = !back && f && f->body == c->pc && from != f->end;
    if (!back && !enter)
        return;
    if (enter)
        from = f->end;
    for (guint i = 0; i < tm->edges->len; i++) {
        TpcProfileEdge *e = &g_array_index(tm->edges, TpcProfileEdge, i);
        if (e->from == from && e->to == c->pc) {
            e->count += back;
            return;
        }
    }
    TpcProfileEdge e = {from, c->pc, f && f->end == from && f->body == c->pc, back};
    g_array_append_val(tm->edges, e);
}

/* The profile row of pc, grown on demand; NULL beyond 2^20 bundles (32 MiB
 * of code: more than a TPC kernel can be). */
static TpcProfileRow *prof_row(TpcTiming *tm, uint32_t pc)
{
    size_t i = pc / TPC_BUNDLE;
    if (i >= ((size_t)1 << 20))
        return NULL;
    if (i >= tm->nprof) {
        size_t n = MAX(i + 1, tm->nprof * 2);
        n = MIN(n, (size_t)1 << 20);
        tm->prof = g_renew(TpcProfileRow, tm->prof, n);
        memset(tm->prof + tm->nprof, 0, (n - tm->nprof) * sizeof(*tm->prof));
        tm->nprof = n;
    }
    return &tm->prof[i];
}

static const unsigned kind_base[TPC_OP_AD + 1] = {
    [TPC_OP_S] = TPC_GDB_S,   [TPC_OP_SP] = TPC_GDB_SP, [TPC_OP_V] = TPC_GDB_V,
    [TPC_OP_VP] = TPC_GDB_VP, [TPC_OP_I] = TPC_GDB_I,   [TPC_OP_AD] = TPC_GDB_AD,
};
static const unsigned kind_count[TPC_OP_AD + 1] = {
    [TPC_OP_S] = TPC_NR_S,   [TPC_OP_SP] = TPC_NR_SP, [TPC_OP_V] = TPC_NR_V,
    [TPC_OP_VP] = TPC_NR_VP, [TPC_OP_I] = TPC_NR_I,   [TPC_OP_AD] = TPC_NR_AD,
};

/* Kind and number of a flat register. */
static unsigned reg_kind(unsigned reg, unsigned *num)
{
    unsigned k = reg >= TPC_GDB_AD  ? TPC_OP_AD
                 : reg >= TPC_GDB_I  ? TPC_OP_I
                 : reg >= TPC_GDB_VP ? TPC_OP_VP
                 : reg >= TPC_GDB_V  ? TPC_OP_V
                 : reg >= TPC_GDB_SP ? TPC_OP_SP
                                     : TPC_OP_S;
    *num = reg - kind_base[k];
    return k;
}

void tpc_timing_reg_name(unsigned reg, char *buf, size_t len)
{
    static const char *const pfx[TPC_OP_AD + 1] = {
        [TPC_OP_S] = "S", [TPC_OP_SP] = "SP", [TPC_OP_V] = "V",
        [TPC_OP_VP] = "VP", [TPC_OP_I] = "I", [TPC_OP_AD] = "AD",
    };
    unsigned n, k = reg_kind(reg, &n);
    g_snprintf(buf, len, "%s%u", pfx[k], n);
}

/* Host bytes of a non-V register and their size. */
static uint8_t *reg_bytes(TpcCpu *c, unsigned reg, unsigned *size)
{
    unsigned n, k = reg_kind(reg, &n);
    switch (k) {
    case TPC_OP_S:
        *size = 4;
        return (uint8_t *)&c->s[n];
    case TPC_OP_SP:
        *size = 1;
        return &c->sp[n];
    case TPC_OP_VP:
        *size = TPC_VPBYTES;
        return c->vp[n];
    case TPC_OP_I:
        *size = sizeof(c->irf[n]);
        return (uint8_t *)c->irf[n];
    default:
        *size = sizeof(c->ad[n]);
        return (uint8_t *)&c->ad[n];
    }
}
G_STATIC_ASSERT(sizeof(TpcAddrReg) <= 32 && sizeof(int32_t[5]) <= 32);

static void add_read(TmSlot *ts, unsigned slot, const TpcInsn *in, unsigned field, unsigned kind,
                     unsigned num)
{
    if (kind > TPC_OP_AD || !kind_count[kind] || num >= kind_count[kind] || ts->nrd >= TM_MAX_RD)
        return;
    const CrRow *r = cr_of(slot, in, field, kind);
    ts->rd[ts->nrd++] = (TmRead){(uint8_t)(kind_base[kind] + num),
                                 r ? r->cr : TM_NONE,
                                 r ? r->cs : TM_NONE,
                                 (uint8_t)field,
                                 (uint16_t)cons_pairs(slot, in, field),
                                 ibyp_of(slot, in, TM_CONS)};
}

static void resolve(TmBundle *tb, const TpcBundle *b)
{
    memset(tb, 0, sizeof(*tb));
    tb->valid = true;
    if (b->is_loop) {
        /* LOOP's registers as SPU reads of the loop row (timing.def) */
        const TpcInsn *in = &b->slot[TPC_SLOT_SPU];
        const TpcLoop *l = &b->loop;
        TmSlot *ts = &tb->s[TPC_SLOT_BUNDLE];
        if (!in->desc)
            return;
        if (!l->start_imm)
            add_read(ts, TPC_SLOT_SPU, in, TPC_FIELD_SRC_A, TPC_OP_S, l->start_reg);
        if (!l->boundary_imm)
            add_read(ts, TPC_SLOT_SPU, in, TPC_FIELD_SRC_B, TPC_OP_S, l->boundary_reg);
        if (!l->step_imm)
            add_read(ts, TPC_SLOT_SPU, in, TPC_FIELD_SRC_C, TPC_OP_S, l->step_reg);
        if (l->pred)
            add_read(ts, TPC_SLOT_SPU, in, TPC_FIELD_PRED, TPC_OP_SP, l->pred);
        return;
    }
    for (unsigned s = 0; s < 4; s++) {
        const TpcInsn *in = &b->slot[s];
        if (!in->desc || in->desc->kind != TPC_KIND_EXEC || in->desc->form == TPC_FORM_HALT)
            continue;
        TmSlot *ts = &tb->s[s];
        tb->vpu |= s == TPC_SLOT_VPU;
        TpcRegRead rr[TPC_MAX_READS];
        unsigned n = tpc_insn_reads(in, s, rr);
        for (unsigned i = 0; i < n; i++)
            for (unsigned j = 0; j < rr[i].count; j++)
                add_read(ts, s, in, rr[i].field, rr[i].kind, rr[i].num + j);
        /* the implicit registers of the tensor accesses (tensor.c
         * tpc_tensor_lanes, exec-st.c), as their rows name them: the id in
         * S27/S28, PARTIAL's offset/size in S30/S31, RMW's S29, each read
         * when its SWITCHES bit is set (insn-forms.def TPC_OPD_TNSR/SWREG) */
        const TpcLayout *l = tpc_form_variant(in->desc->form, in->var);
        for (unsigned k = 0; l && k < l->nops; k++) {
            const TpcOpSpec *o = &l->op[k];
            if (o->sreg && (o->flags & (TPC_OPF_TNSR | TPC_OPF_SWREG)) &&
                ((in->sw >> o->swbit) & 1u) &&
                !((o->flags & TPC_OPF_FULL_ONLY) && tpc_insn_half(in->desc)))
                add_read(ts, s, in, TPC_FIELD_SW, TPC_OP_S, o->sreg);
        }
        for (unsigned k = TPC_OP_V; k <= TPC_OP_AD; k++)
            ts->pw[k] = (uint8_t)pw_of(s, in, k);
        ts->pairs = (uint16_t)prod_pairs(s, in);
        ts->ibyp = ibyp_of(s, in, TM_PROD);
        ts->wdst = 0xFF;
        unsigned dk = in->dst.kind;
        if (dk <= TPC_OP_AD && kind_count[dk] && in->dst.num < kind_count[dk] &&
            !(s == TPC_SLOT_ST))
            ts->wdst = (uint8_t)(kind_base[dk] + in->dst.num);
        for (size_t r = 0; r < G_N_ELEMENTS(waw_rows); r++) {
            const WawRow *w = &waw_rows[r];
            if (w->pslot == s && type_match(w->ptypes, in) &&
                name_match(w->pnames, in->desc->mnemonic))
                ts->wawp |= (uint8_t)(1u << r);
            if (w->cslot == s && name_match(w->cnames, in->desc->mnemonic))
                ts->wawc |= (uint8_t)(1u << r);
        }
        for (size_t r = 0; r < G_N_ELEMENTS(seq_rows); r++) {
            const SeqRow *q = &seq_rows[r];
            if (q->pslot == s && name_match(q->pnames, in->desc->mnemonic))
                tb->seqp |= (uint8_t)(1u << r);
            if (q->cslot == s && name_match(q->cnames, in->desc->mnemonic))
                tb->seqc |= (uint8_t)(1u << r);
        }
        const MemRow *mr = mem_of(s, in);
        if (mr) {
            ts->gbytes = (uint16_t)mem_bytes(mr, s, in);
            ts->gload = mr->load;
            ts->gtnsr = tpc_insn_tensor(in) != -2; /* a tensor operand */
        }
    }
}

/* Ring position of the oldest of the newest writes of r->reg that are too
 * recent for read r at cycle tc (their replaced value is what the read
 * sees), or -1 when the newest write is visible.  *bad: the newest write
 * when it is too recent, with the distance it needs. */
static int seen_pos(const TpcTiming *tm, const TmRead *r, uint64_t tc, const TmEnt **bad,
                    unsigned *need)
{
    int pos = -1;
    *bad = NULL;
    const __typeof__(tm->reg[0]) *R = &tm->reg[r->reg];
    for (unsigned i = 0; i < R->count; i++) {
        unsigned k = (R->head + TM_HIST - i) % TM_HIST;
        const TmEnt *e = &R->e[k];
        unsigned d = distance(e->pw, e->pairs, e->ibyp, r->cr, r->cs, r->pairs, r->ibyp,
                              r->reg >= TPC_GDB_I && r->reg < TPC_GDB_AD);
        if (tc - e->t >= d)
            break;
        if (i == 0) {
            *bad = e;
            *need = d;
        }
        pos = (int)k;
    }
    return pos;
}

static const char *const slot_names[5] = {"LD", "SPU", "VPU", "ST", "LOOP"};

/* Cycles a bundle issuing at cycle t must still wait for the TPC_WAW and
 * TPC_SEQ rules (0 when they hold); *pc, *need, *seen, *what: the first
 * rule broken.  WAW distances are issue cycles; TPC_SEQ ones pipeline
 * cycles, t - mem (mem: the memory stall cycles so far). */
static uint64_t rules_at(const TpcTiming *tm, const TmBundle *tb, uint64_t t, uint64_t mem,
                         uint32_t *pc, unsigned *need, uint64_t *seen, const char **what,
                         unsigned *slot, unsigned *reg)
{
    uint64_t wait = 0;
    bool first = true;
    for (unsigned s = 0; s < 4; s++) {
        const TmSlot *ts = &tb->s[s];
        if (!ts->wawc || ts->wdst == 0xFF || !tm->reg[ts->wdst].count)
            continue;
        const __typeof__(tm->reg[0]) *R = &tm->reg[ts->wdst];
        const TmEnt *e = &R->e[R->head];
        unsigned n, k = reg_kind(ts->wdst, &n);
        for (unsigned r = 0; r < G_N_ELEMENTS(waw_rows); r++) {
            if (!(ts->wawc & e->waw & (1u << r)) || waw_rows[r].kind != k ||
                t - e->t >= waw_rows[r].dist)
                continue;
            wait = MAX(wait, waw_rows[r].dist - (t - e->t));
            if (first) {
                first = false;
                *pc = e->pc, *need = waw_rows[r].dist, *seen = t - e->t, *what = "WAW";
                *slot = s, *reg = ts->wdst;
            }
        }
    }
    if (tb->seqc) {
        for (unsigned i = 0; i < tm->bh_count; i++) {
            const TmHist *h = &tm->bh[(tm->bh_head + TM_BHIST - i) % TM_BHIST];
            for (unsigned r = 0; r < G_N_ELEMENTS(seq_rows); r++) {
                const SeqRow *q = &seq_rows[r];
                if (!(tb->seqc & h->seqp & (1u << r)))
                    continue;
                uint64_t d = t - mem - h->t;
                bool bad = q->how == TM_MIN ? d < q->dist : d == q->dist;
                if (!bad)
                    continue;
                wait = MAX(wait, q->how == TM_MIN ? q->dist - d : 1u);
                if (first) {
                    first = false;
                    *pc = h->pc, *need = q->dist, *seen = d;
                    *what = q->how == TM_MIN ? "ORDER" : "ORDER-NOT";
                    *slot = q->cslot, *reg = 0xFF;
                }
            }
        }
    }
    return wait;
}

/* The rules for the bundle of c->pc about to issue at cycle t: count and
 * report a broken one; the extra stall cycles in interlocked mode (the
 * rules are checked again after each wait: a wait can break a NOT rule). */
static uint64_t rules(TpcCpu *c, TpcTiming *tm, const TmBundle *tb, uint64_t t, uint64_t mem,
                      uint32_t *rpc, unsigned *rreg)
{
    uint32_t pc = 0;
    unsigned need, slot, reg = 0xFF;
    uint64_t seen;
    const char *what;
    uint64_t w = rules_at(tm, tb, t, mem, &pc, &need, &seen, &what, &slot, &reg), extra = 0;
    *rpc = pc;
    *rreg = reg;
    if (w) {
        c->hazards++;
        if (tm->warn && !g_hash_table_contains(tm->warned_rule, GUINT_TO_POINTER(c->pc + 1))) {
            char rn[8] = "-";
            g_hash_table_add(tm->warned_rule, GUINT_TO_POINTER(c->pc + 1));
            if (reg != 0xFF)
                tpc_timing_reg_name(reg, rn, sizeof(rn));
            nx_warn("tpc=%u hazard pc=0x%08" PRIx32 " slot=%s rule=%s reg=%s producer=0x%08" PRIx32
                    " distance=%" PRIu64 " %s=%u",
                    c->t, c->pc, slot_names[slot], what, rn, pc, seen,
                    strcmp(what, "ORDER-NOT") ? "needed" : "forbidden", need);
        }
    }
    if (tm->mode == TPC_TIMING_INTERLOCKED) {
        for (unsigned i = 0; w && i < 8; i++) {
            extra += w;
            w = rules_at(tm, tb, t + extra, mem, &pc, &need, &seen, &what, &slot, &reg);
        }
    }
    if (tb->seqp) {
        tm->bh_head = (tm->bh_head + 1) % TM_BHIST;
        tm->bh_count = MIN(tm->bh_count + 1, TM_BHIST);
        tm->bh[tm->bh_head] = (TmHist){t + extra - mem, c->pc, tb->seqp};
    }
    return extra;
}

/* Report the first TPC_FLOW row the bundle of c->pc breaks (once per PC);
 * loop rules name the loop's body, jump rules the jump. */
static void flow_warn(const TpcCpu *c, TpcTiming *tm, const FlowRow *r, uint32_t a, uint32_t z,
                      unsigned dist)
{
    if (g_hash_table_contains(tm->warned_flow, GUINT_TO_POINTER(c->pc + 1)))
        return;
    g_hash_table_add(tm->warned_flow, GUINT_TO_POINTER(c->pc + 1));
    if (r->kind <= TM_JMP_TARGET)
        nx_warn("tpc=%u hazard pc=0x%08" PRIx32 " slot=%s rule=%s loop=0x%08" PRIx32
                "..0x%08" PRIx32 " bundles=%u needed=%u",
                c->t, c->pc, slot_names[r->slot], flow_names[r->kind], a, z, dist, r->bundles);
    else
        nx_warn("tpc=%u hazard pc=0x%08" PRIx32 " slot=%s rule=%s reg=- producer=0x%08" PRIx32
                " distance=%u needed=%u",
                c->t, c->pc, slot_names[r->slot], flow_names[r->kind], a, dist, r->bundles + 1);
}

/* Does slot s of b hold an instruction of the row's names?  "*": any but a
 * NOP, "halt": HALT in any slot. */
static bool flow_match(const FlowRow *r, const TpcBundle *b)
{
    if (!strcmp(r->names, "halt"))
        return b->halt;
    if (b->is_loop)
        return false;
    const TpcInsn *in = &b->slot[r->slot];
    if (!in->desc || in->desc->kind == TPC_KIND_NOP)
        return false;
    return !strcmp(r->names, "*") || name_match(r->names, in->desc->mnemonic);
}

/* The jump and loop restrictions (TPC_FLOW rows) for the bundle of c->pc,
 * with -tpc-hazard-warn: reported, not counted, no stall. */
static void flow_check(const TpcCpu *c, TpcTiming *tm, const TpcBundle *b)
{
    unsigned age = tm->jmp_age == 0xFF ? 0xFF : tm->jmp_age + 1u;
    bool taken = age == 1 && c->pc != tm->jmp_pc + 32;
    const TpcLoopFrame *f = c->nloops ? &c->loops[c->nloops - 1] : NULL;
    if (f && (c->pc < f->body || c->pc > f->end))
        f = NULL; /* outside the innermost body: no loop rule applies */
    const TpcInsn *spu = &b->slot[TPC_SLOT_SPU];
    bool jmp = !b->is_loop && spu->desc && spu->desc->form == TPC_FORM_JMP;
    for (size_t i = 0; i < G_N_ELEMENTS(flow_rows); i++) {
        const FlowRow *r = &flow_rows[i];
        unsigned n;
        switch (r->kind) {
        case TM_LOOP_BODY:
            if (!b->is_loop || b->loop.end_offset < 64)
                continue;
            n = (b->loop.end_offset - 64u) / 32u + 1u;
            if (n < r->bundles) {
                flow_warn(c, tm, r, c->pc + 64, c->pc + b->loop.end_offset, n);
                return;
            }
            continue;
        case TM_JMP_LOOP_END:
        case TM_JMP_TARGET:
            if (!f || (r->kind == TM_JMP_LOOP_END ? !jmp : !taken))
                continue;
            n = (f->end - c->pc) / 32u;
            if (n < r->bundles) {
                flow_warn(c, tm, r, f->body, f->end, n);
                return;
            }
            continue;
        default:
            if (age > r->bundles || (r->kind == TM_JMP_NEXT && (age != 1 || taken)) ||
                !flow_match(r, b))
                continue;
            flow_warn(c, tm, r, tm->jmp_pc, 0, age);
            return;
        }
    }
}

static void flow_step(const TpcCpu *c, TpcTiming *tm, const TpcBundle *b)
{
    if (tm->warn)
        flow_check(c, tm, b);
    const TpcInsn *spu = &b->slot[TPC_SLOT_SPU];
    if (!b->is_loop && spu->desc && spu->desc->form == TPC_FORM_JMP) {
        tm->jmp_pc = c->pc;
        tm->jmp_age = 0;
    } else if (tm->jmp_age != 0xFF) {
        tm->jmp_age = tm->jmp_age < 8 ? (uint8_t)(tm->jmp_age + 1) : 0xFF;
    }
}

void tpc_timing_begin(TpcCpu *c, unsigned idx, const TpcBundle *b, bool decoded)
{
    TpcTiming *tm = c->tm;
    TmBundle *tb = &tm->b[idx];
    if (decoded || !tb->valid)
        resolve(tb, b);
    flow_step(c, tm, b);
    uint64_t tc0 = c->cycles, hz = c->hazards;
    /* Global memory first (docs/timing.rst "Memory"): the bundle waits for
     * the port, and a load for its data.  Both timed modes stall here, as
     * silicon must: the vendor's schedules assume the table's latency for
     * LD_TNSR and never pad for memory.  A slot its SP predicate turns off
     * makes no access.  Bytes of SBUF/PSUM take none of the HBM cap
     * (docs/timing.rst "Memory bandwidth"). */
    uint64_t gbytes = 0, hbytes = 0, mstall = 0;
    bool gload = false;
    uint32_t lat = tm->gmem_lat; /* the load's latency: HBM's, or SBUF/PSUM's */
    static const uint8_t mem_slots[] = {TPC_SLOT_LD, TPC_SLOT_ST};
    for (unsigned i = 0; i < G_N_ELEMENTS(mem_slots); i++) {
        unsigned s = mem_slots[i];
        const TmSlot *ts = &tb->s[s];
        if (ts->gbytes && tpc_pred_scalar(c, &b->slot[s])) {
            const TpcInsn *in = &b->slot[s];
            bool chip = false;
            if (c->port.on_chip) {
                uint64_t pa =
                    ts->gtnsr ? tpc_tensor_base(c, tpc_tensor_id(c, in, s == TPC_SLOT_LD ? 27 : 28))
                              : c->ad[in->a.num & 7].pa;
                chip = c->port.on_chip(c->port.opaque, pa);
            }
            gbytes += ts->gbytes;
            hbytes += chip ? 0 : ts->gbytes;
            gload |= ts->gload != 0;
            if (ts->gload == 2 && chip)
                lat = tm->sram_lat;
        }
    }
    bool timed = tm->mode != TPC_TIMING_FUNCTIONAL;
    if (timed && gbytes)
        mstall = (tm->port_free > tc0 ? tm->port_free - tc0 : 0) + (gload ? lat : 0);
    uint64_t tc = tc0 + mstall, stall = 0;
    unsigned stall_reg = 0; /* the register of the longest wait */
    uint32_t stall_pc = 0;  /* and its producer */
    for (unsigned s = 0; s < 5; s++) {
        const TmSlot *ts = &tb->s[s];
        for (unsigned i = 0; i < ts->nrd; i++) {
            const TmEnt *bad;
            unsigned need;
            seen_pos(tm, &ts->rd[i], tc, &bad, &need);
            if (!bad)
                continue;
            uint64_t seen = tc - bad->t;
            if (need - seen > stall) {
                stall = need - seen;
                stall_reg = ts->rd[i].reg;
                stall_pc = bad->pc;
            }
            c->hazards++;
            if (tm->warn && !g_hash_table_contains(tm->warned, GUINT_TO_POINTER(c->pc + 1))) {
                char rn[8];
                g_hash_table_add(tm->warned, GUINT_TO_POINTER(c->pc + 1));
                tpc_timing_reg_name(ts->rd[i].reg, rn, sizeof(rn));
                nx_warn("tpc=%u hazard pc=0x%08" PRIx32 " slot=%s reg=%s producer=0x%08" PRIx32
                        " distance=%" PRIu64 " needed=%u",
                        c->t, c->pc, slot_names[s], rn, bad->pc, seen, need);
            }
        }
    }
    if (tm->mode != TPC_TIMING_INTERLOCKED)
        stall = 0;
    /* the rules count cycles of the pipeline: issue cycles without the
     * memory waits (nxemu's memory model, which the vendor's static
     * schedule cannot see) */
    uint32_t rule_pc;
    unsigned rule_reg;
    uint64_t rstall = rules(c, tm, tb, tc + stall, tm->mem_stalls + mstall, &rule_pc, &rule_reg);
    stall += rstall;
    c->cycles = tc + stall;
    c->stall_cycles += mstall + stall;
    tm->tc = c->cycles;
    uint32_t port_pc = tm->port_pc; /* the bundle the port waited for (profile) */
    if (timed && gbytes && tm->gmem_bpc) {
        tm->port_free = tm->tc + (gbytes + tm->gmem_bpc - 1) / tm->gmem_bpc;
        if (tm->hbm && hbytes) {
            uint64_t end = hbm_book(tm->hbm, tm->t0 + tm->tc, hbytes, tm->gmem_bpc) - tm->t0;
            tm->port_free = MAX(tm->port_free, end);
        }
        tm->port_pc = c->pc;
    }
    tm->gmem_bytes += gbytes;
    tm->mem_stalls += mstall;
    tm->by_cause[TPC_STALL_MEM] += mstall;
    tm->by_cause[b->is_loop ? TPC_STALL_LOOP : TPC_STALL_RAW] += stall - rstall;
    tm->by_cause[TPC_STALL_RULE] += rstall;
    TpcProfileRow *row = tm->profile ? prof_row(tm, c->pc) : NULL;
    if (row) {
        unsigned n, k = reg_kind(stall_reg, &n);
        static const uint8_t file_of[TPC_OP_AD + 1] = {
            [TPC_OP_S] = 0, [TPC_OP_SP] = 1, [TPC_OP_V] = 2,
            [TPC_OP_VP] = 3, [TPC_OP_I] = 4, [TPC_OP_AD] = 5,
        };
        row->execs++;
        row->stalls += mstall + stall;
        uint64_t lat = gload && mstall ? MIN(mstall, (uint64_t)tm->gmem_lat) : 0;
        unsigned raw = b->is_loop ? TPC_STALL_LOOP : TPC_STALL_RAW;
        if (b->is_loop)
            row->stall_loop += stall - rstall; /* LOOP waiting for its start/bound/step */
        else
            row->stall_by[file_of[k]] += stall - rstall;
        row->stall_rule += rstall; /* the TPC_WAW / TPC_SEQ rules: ordering of the pipes */
        row->stall_mem += mstall;
        row->bytes += gbytes;
        row->vpu += tb->vpu;
        row->hazards += c->hazards - hz;
        prof_producer(row, TPC_STALL_MEM, port_pc, 0xFF, mstall - lat);
        prof_producer(row, TPC_STALL_MEM, c->pc, 0xFF, lat);
        prof_producer(row, raw, stall_pc, stall_reg, stall - rstall);
        prof_producer(row, TPC_STALL_RULE, rule_pc, rule_reg, rstall);
        uint64_t t = tm->pclk;
        prof_span(tm, TPC_STALL_MEM, t, mstall);
        prof_span(tm, raw, t + mstall, stall - rstall);
        prof_span(tm, TPC_STALL_RULE, t + mstall + stall - rstall, rstall);
        prof_span(tm, TPC_STALL_NCAUSES, t + mstall + stall, 1);
        tm->samp[(t + mstall + stall) / tm->window].bytes += gbytes;
        tm->pclk = t + mstall + stall + 1;
        prof_edge(tm, c);
    }
}

void tpc_timing_enter(TpcCpu *c, unsigned idx, unsigned s)
{
    TpcTiming *tm = c->tm;
    tm->nsave = 0;
    if (tm->mode != TPC_TIMING_EXPOSED)
        return;
    const TmSlot *ts = &tm->b[idx].s[s];
    for (unsigned i = 0; i < ts->nrd; i++) {
        const TmRead *r = &ts->rd[i];
        const TmEnt *bad;
        unsigned need;
        int pos = seen_pos(tm, r, tm->tc, &bad, &need);
        if (pos < 0)
            continue;
        bool done = false; /* a register read twice by the slot: its first read decides */
        for (unsigned j = 0; j < tm->nsave; j++)
            done |= tm->save[j].reg == r->reg;
        if (done)
            continue;
        TmSave *sv = &tm->save[tm->nsave];
        sv->reg = r->reg;
        unsigned n, k = reg_kind(r->reg, &n);
        if (k == TPC_OP_V) {
            /* a copy that stays valid until the bundle's memory commit (a
             * tensor store reads the register image then) */
            uint8_t *v = tm->vscratch[s][tm->nsave];
            memcpy(v, tm->vold[n][pos], TPC_VBYTES);
            sv->vptr = c->v[n];
            c->v[n] = v;
        } else {
            unsigned size;
            uint8_t *p = reg_bytes(c, r->reg, &size);
            memcpy(sv->bytes, p, size);
            memcpy(p, tm->sold[r->reg][pos], size);
        }
        tm->nsave++;
    }
}

void tpc_timing_leave(TpcCpu *c, unsigned s)
{
    TpcTiming *tm = c->tm;
    (void)s;
    while (tm->nsave) {
        TmSave *sv = &tm->save[--tm->nsave];
        unsigned n, k = reg_kind(sv->reg, &n);
        if (k == TPC_OP_V) {
            c->v[n] = sv->vptr;
        } else {
            unsigned size;
            uint8_t *p = reg_bytes(c, sv->reg, &size);
            memcpy(p, sv->bytes, size);
        }
    }
}

void tpc_timing_commit(TpcCpu *c, unsigned idx, const uint8_t *act, unsigned nact)
{
    static const uint8_t wr_kind[] = {
        [TPC_WR_S] = TPC_OP_S,   [TPC_WR_SP] = TPC_OP_SP, [TPC_WR_V] = TPC_OP_V,
        [TPC_WR_VP] = TPC_OP_VP, [TPC_WR_I] = TPC_OP_I,   [TPC_WR_AD] = TPC_OP_AD,
        [TPC_WR_SCARRY] = 0,     [TPC_WR_VCARRY] = 0,
    };
    TpcTiming *tm = c->tm;
    const TmBundle *tb = &tm->b[idx];
    for (unsigned a = 0; a < nact; a++) {
        unsigned s = act[a];
        const TpcSlotOut *o = &c->x.out[s];
        for (unsigned i = 0; i < o->nw; i++) {
            const TpcWrite *w = &o->w[i];
            unsigned k = w->kind < sizeof(wr_kind) ? wr_kind[w->kind] : 0;
            /* carries are not registers a later bundle names; SP0/VP0 ignore writes */
            if (!k || w->idx >= kind_count[k] || ((k == TPC_OP_SP || k == TPC_OP_VP) && !w->idx))
                continue;
            unsigned reg = kind_base[k] + w->idx;
            __typeof__(tm->reg[0]) *R = &tm->reg[reg];
            R->head = (uint8_t)((R->head + 1) % TM_HIST);
            R->count = (uint8_t)MIN(R->count + 1u, (unsigned)TM_HIST);
            R->e[R->head] = (TmEnt){tm->tc,        c->pc,          tb->s[s].pw[k],
                                    tb->s[s].ibyp, tb->s[s].pairs, tb->s[s].wawp};
            if (k == TPC_OP_V) {
                memcpy(tm->vold[w->idx][R->head], c->v[w->idx], TPC_VBYTES);
            } else {
                unsigned size;
                const uint8_t *p = reg_bytes(c, reg, &size);
                memcpy(tm->sold[reg][R->head], p, size);
            }
        }
    }
}

uint64_t tpc_timing_gmem_bytes(const TpcTiming *tm)
{
    return tm ? tm->gmem_bytes : 0;
}

uint64_t tpc_timing_mem_stalls(const TpcTiming *tm)
{
    return tm ? tm->mem_stalls : 0;
}

void tpc_timing_stalls_by_cause(const TpcTiming *tm, uint64_t out[TPC_STALL_NCAUSES])
{
    for (unsigned i = 0; i < TPC_STALL_NCAUSES; i++)
        out[i] = tm ? tm->by_cause[i] : 0;
}
