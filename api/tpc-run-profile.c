/*
 * nxemu-tpc-run --profile FILE, --profile-json FILE, --profile-trace FILE:
 * per TPC, where the cycles went (docs/timing.rst, "Profiles"): a summary,
 * the hot spots sorted by cycles with the producers of their stalls, the
 * loops rolled up, and the kernel's disassembly annotated with what each
 * bundle cost; the same as JSON; and the profile over time as Perfetto
 * counter tracks.  The counts come from the timing model's hook
 * (target/tpc/timing.h); the bundle bytes are read back from the kernel in
 * memory, so the disassembly is of what ran.
 */
#include <inttypes.h>

#include "hw/nc2/board.h"
#include "api/tpc-run.h"
#include "target/tpc/asm.h"
#include "target/tpc/cpu.h"

/* A loop: the bundles from a back edge's target to its source. */
typedef struct ProfLoop {
    uint32_t start, end;
    bool loop; /* LOOP's back edge, else a jump's */
    uint64_t entries, trips, cycles, stalls, by[TPC_STALL_NCAUSES];
} ProfLoop;

/* One launched TPC's profile, summed. */
typedef struct Prof {
    unsigned t;
    const TpcCpu *c;
    const TpcProfileRow *rows;
    size_t n, last; /* rows; rows up to the last one executed */
    uint64_t total; /* cycles of all bundles: the percentages' 100 */
    uint64_t stalls, hazards, by[TPC_TM_NFILES], cause[TPC_STALL_NCAUSES], bytes, vpu;
    size_t *hot; /* indices of executed rows, by cycles, then PC */
    size_t nhot;
    ProfLoop *loops;
    size_t nloops;
} Prof;

static uint64_t row_cycles(const TpcProfileRow *r)
{
    return r->execs + r->stalls;
}

static uint64_t row_raw(const TpcProfileRow *r)
{
    uint64_t s = 0;
    for (unsigned f = 0; f < TPC_TM_NFILES; f++)
        s += r->stall_by[f];
    return s;
}

typedef struct HotKey {
    uint64_t cycles;
    size_t i;
} HotKey;

static int hot_cmp(const void *a, const void *b)
{
    const HotKey *x = a, *y = b;
    if (x->cycles != y->cycles)
        return x->cycles > y->cycles ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

static int loop_cmp(const void *a, const void *b)
{
    const ProfLoop *x = a, *y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    if (x->end != y->end)
        return x->end > y->end ? -1 : 1; /* the outer loop first */
    return x->loop < y->loop ? -1 : x->loop > y->loop;
}

static void prof_init(Prof *p, unsigned t, const TpcCpu *c)
{
    memset(p, 0, sizeof(*p));
    p->t = t;
    p->c = c;
    p->rows = tpc_timing_profile(c->tm, &p->n);
    for (size_t i = 0; i < p->n; i++) {
        const TpcProfileRow *r = &p->rows[i];
        p->stalls += r->stalls;
        p->hazards += r->hazards;
        p->cause[TPC_STALL_RAW] += row_raw(r);
        p->cause[TPC_STALL_MEM] += r->stall_mem;
        p->cause[TPC_STALL_RULE] += r->stall_rule;
        p->cause[TPC_STALL_LOOP] += r->stall_loop;
        p->bytes += r->bytes;
        p->vpu += r->vpu;
        p->total += row_cycles(r);
        for (unsigned f = 0; f < TPC_TM_NFILES; f++)
            p->by[f] += r->stall_by[f];
        if (r->execs) {
            p->last = i + 1;
            p->nhot++;
        }
    }
    HotKey *keys = g_new(HotKey, p->nhot ? p->nhot : 1);
    for (size_t i = 0, k = 0; i < p->last; i++)
        if (p->rows[i].execs)
            keys[k++] = (HotKey){row_cycles(&p->rows[i]), i};
    qsort(keys, p->nhot, sizeof(HotKey), hot_cmp);
    p->hot = g_new(size_t, p->nhot ? p->nhot : 1);
    for (size_t k = 0; k < p->nhot; k++)
        p->hot[k] = keys[k].i;
    g_free(keys);

    size_t ne;
    const TpcProfileEdge *e = tpc_timing_profile_edges(c->tm, &ne);
    p->loops = g_new0(ProfLoop, ne ? ne : 1);
    for (size_t i = 0; i < ne; i++) {
        /* one loop per body: a jump and a LOOP edge over the same bundles
         * (or two jumps) are the same loop */
        ProfLoop *l = NULL;
        for (size_t j = 0; j < p->nloops; j++)
            if (p->loops[j].start == e[i].to && p->loops[j].end == e[i].from)
                l = &p->loops[j];
        if (!l) {
            l = &p->loops[p->nloops++];
            l->start = e[i].to;
            l->end = e[i].from;
        }
        l->loop |= e[i].loop;
        l->trips += e[i].count; /* back edges for now */
    }
    for (size_t j = 0; j < p->nloops; j++) {
        ProfLoop *l = &p->loops[j];
        size_t a = l->start / TPC_BUNDLE, b = l->end / TPC_BUNDLE;
        uint64_t back = l->trips;
        /* a trip is an execution of the body's first bundle */
        l->trips = a < p->n ? p->rows[a].execs : 0;
        l->entries = l->trips > back ? l->trips - back : 0;
        for (size_t i = a; i <= b && i < p->n; i++) {
            const TpcProfileRow *r = &p->rows[i];
            l->cycles += row_cycles(r);
            l->stalls += r->stalls;
            l->by[TPC_STALL_RAW] += row_raw(r);
            l->by[TPC_STALL_MEM] += r->stall_mem;
            l->by[TPC_STALL_RULE] += r->stall_rule;
            l->by[TPC_STALL_LOOP] += r->stall_loop;
        }
    }
    qsort(p->loops, p->nloops, sizeof(ProfLoop), loop_cmp);
}

static void prof_fini(Prof *p)
{
    g_free(p->hot);
    g_free(p->loops);
}

static double pct(uint64_t part, uint64_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* The disassembly of the bundle at kernel offset pc, read back from memory. */
static void disas_at(GString *d, Machine *m, const TpcCpu *c, uint32_t pc)
{
    uint8_t b[TPC_BUNDLE];
    uint64_t bad;
    if (as_rw_bytes(m->as, c->kernel_base + pc, b, TPC_BUNDLE, false, MEMTXATTRS(MEM_REQ_DEBUG, 0),
                    &bad) == MEMTX_OK)
        tpc_disas_bundle_gs(d, b, pc, NULL, NULL);
    else
        g_string_append(d, "(not readable)");
}

/* "S:12,MEM:3" */
static void causes_text(GString *on, const TpcProfileRow *r)
{
    for (unsigned f = 0; f < TPC_TM_NFILES; f++)
        if (r->stall_by[f])
            g_string_append_printf(on, "%s%s:%" PRIu64, on->len ? "," : "",
                                   tpc_timing_file_names[f], r->stall_by[f]);
    if (r->stall_mem)
        g_string_append_printf(on, "%sMEM:%" PRIu64, on->len ? "," : "", r->stall_mem);
    if (r->stall_rule)
        g_string_append_printf(on, "%sRULE:%" PRIu64, on->len ? "," : "", r->stall_rule);
    if (r->stall_loop)
        g_string_append_printf(on, "%sLOOP:%" PRIu64, on->len ? "," : "", r->stall_loop);
}

static void producer_what(GString *w, const TpcProfileProducer *pr)
{
    g_string_append(w, tpc_stall_cause_names[pr->cause]);
    if (pr->reg != 0xFF) {
        char rn[8];
        tpc_timing_reg_name(pr->reg, rn, sizeof(rn));
        g_string_append_printf(w, " %s", rn);
    }
}

static void profile_tpc(GString *out, Machine *m, const Prof *p)
{
    const TpcCpu *c = p->c;
    double cyc = c->cycles ? (double)c->cycles : 1.0;
    g_string_append_printf(out,
                           "tpc %u: cycles=%" PRIu64 " bundles=%" PRIu64 " ipc=%.3f vpu=%.1f%%"
                           " bytes=%" PRIu64 " (%.1f/cycle) stall_cycles=%" PRIu64 " (",
                           p->t, c->cycles, c->bundles, (double)c->bundles / cyc,
                           100.0 * (double)p->vpu / cyc, p->bytes, (double)p->bytes / cyc,
                           p->stalls);
    for (unsigned f = 0; f < TPC_TM_NFILES; f++)
        g_string_append_printf(out, "%s=%" PRIu64 " ", tpc_timing_file_names[f], p->by[f]);
    g_string_append_printf(
        out, "MEM=%" PRIu64 " RULE=%" PRIu64 " LOOP=%" PRIu64 ") hazards=%" PRIu64 "\n",
        p->cause[TPC_STALL_MEM], p->cause[TPC_STALL_RULE], p->cause[TPC_STALL_LOOP], p->hazards);

    /* hot spots, with the bundles their stalls waited for */
    g_string_append_printf(out,
                           "\ntpc %u hot spots: bundles by cycles (%% of the %" PRIu64
                           " cycles of its bundles), stalls by the bundle waited for\n",
                           p->t, p->total);
    g_string_append(out, "    cycles       %     stalls  pc          bundle\n");
    for (size_t k = 0; k < p->nhot; k++) {
        const TpcProfileRow *r = &p->rows[p->hot[k]];
        uint32_t pc = (uint32_t)(p->hot[k] * TPC_BUNDLE);
        GString *d = g_string_new(NULL);
        disas_at(d, m, c, pc);
        g_string_append_printf(out, "%10" PRIu64 " %6.1f%% %10" PRIu64 "  0x%08" PRIx32 "  %s\n",
                               row_cycles(r), pct(row_cycles(r), p->total), r->stalls, pc, d->str);
        for (unsigned i = 0; i < r->nprod; i++) {
            const TpcProfileProducer *pr = &r->prod[i];
            GString *w = g_string_new(NULL);
            producer_what(w, pr);
            g_string_truncate(d, 0);
            disas_at(d, m, c, pr->pc);
            g_string_append_printf(
                out, "%18s %10" PRIu64 "  <- %s of 0x%08" PRIx32 " (%" PRIu64 " time%s): %s\n", "",
                pr->cycles, w->str, pr->pc, pr->times, pr->times == 1 ? "" : "s", d->str);
            g_string_free(w, TRUE);
        }
        if (r->prod_other)
            g_string_append_printf(out, "%18s %10" PRIu64 "  <- other producers\n", "",
                                   r->prod_other);
        g_string_free(d, TRUE);
    }

    if (p->nloops) {
        g_string_append_printf(out,
                               "\ntpc %u loops: the bundles from a back edge's target to its"
                               " source\n",
                               p->t);
        g_string_append(out, "  first       last        kind  entries      trips     cycles       %"
                             "  cycles/trip  cycles/entry     stalls  causes\n");
        for (size_t j = 0; j < p->nloops; j++) {
            const ProfLoop *l = &p->loops[j];
            GString *on = g_string_new(NULL);
            for (unsigned k = 0; k < TPC_STALL_NCAUSES; k++)
                if (l->by[k])
                    g_string_append_printf(on, "%s%s:%" PRIu64, on->len ? "," : "",
                                           tpc_stall_cause_names[k], l->by[k]);
            g_string_append_printf(
                out,
                "  0x%08" PRIx32 "  0x%08" PRIx32 "  %-4s %8" PRIu64 " %10" PRIu64 " %10" PRIu64
                " %6.1f%% %12.2f  %12.2f %10" PRIu64 "  %s\n",
                l->start, l->end, l->loop ? "LOOP" : "jump", l->entries, l->trips, l->cycles,
                pct(l->cycles, p->total), l->trips ? (double)l->cycles / (double)l->trips : 0.0,
                l->entries ? (double)l->cycles / (double)l->entries : 0.0, l->stalls,
                on->len ? on->str : "-");
            g_string_free(on, TRUE);
        }
    }

    g_string_append_printf(out, "\ntpc %u bundles:\n", p->t);
    g_string_append(out, "        pc      execs     cycles     stalls  stalled-on     hazards"
                         "      bytes  bundle\n");
    for (size_t i = 0; i < p->last; i++) {
        const TpcProfileRow *r = &p->rows[i];
        uint32_t pc = (uint32_t)(i * TPC_BUNDLE);
        GString *on = g_string_new(NULL);
        causes_text(on, r);
        GString *d = g_string_new(NULL);
        disas_at(d, m, c, pc);
        g_string_append_printf(out,
                               "0x%08" PRIx32 " %10" PRIu64 " %10" PRIu64 " %10" PRIu64
                               "  %-12s %8" PRIu64 " %10" PRIu64 "  %s\n",
                               pc, r->execs, row_cycles(r), r->stalls, on->len ? on->str : "-",
                               r->hazards, r->bytes, d->str);
        g_string_free(on, TRUE);
        g_string_free(d, TRUE);
    }
}

/* The launched TPCs: those the split gave work keep no launcher sentinel. */
static bool profiled(Machine *m, unsigned t, TpcCpu **c)
{
    *c = tpc_cpu_of(m, t);
    return *c && (*c)->tm && m->board->tpccfg[t].launcher != 0xFFFFFFFFu;
}

void tr_profile_text(GString *out, Machine *m, const TrOptions *o)
{
    TpcCpu *c0 = tpc_cpu_of(m, 0);
    g_string_append_printf(
        out, "# nxemu-tpc-run profile (docs/timing.rst): kernel=%s timing=%s tpcs=%u\n", o->kernel,
        tpc_timing_name(c0 ? tpc_timing_mode(c0->tm) : o->timing), o->ntpc);
    for (unsigned t = 0; t < o->ntpc; t++) {
        TpcCpu *c;
        if (!profiled(m, t, &c))
            continue;
        Prof p;
        prof_init(&p, t, c);
        profile_tpc(out, m, &p);
        prof_fini(&p);
    }
}

static void json_str(GString *out, const char *s)
{
    g_string_append_c(out, '"');
    for (const unsigned char *q = (const unsigned char *)s; *q; q++) {
        if (*q == '"' || *q == '\\')
            g_string_append_printf(out, "\\%c", *q);
        else if (*q < 0x20)
            g_string_append_printf(out, "\\u%04x", *q);
        else
            g_string_append_c(out, (char)*q);
    }
    g_string_append_c(out, '"');
}

static void json_disas(GString *out, Machine *m, const TpcCpu *c, uint32_t pc)
{
    GString *d = g_string_new(NULL);
    disas_at(d, m, c, pc);
    json_str(out, d->str);
    g_string_free(d, TRUE);
}

static void json_causes(GString *out, const uint64_t *by, const uint64_t *cause)
{
    g_string_append(out, "{\"RAW\":{");
    for (unsigned f = 0; f < TPC_TM_NFILES; f++)
        g_string_append_printf(out, "%s\"%s\":%" PRIu64, f ? "," : "", tpc_timing_file_names[f],
                               by[f]);
    g_string_append(out, "}");
    for (unsigned k = TPC_STALL_MEM; k < TPC_STALL_NCAUSES; k++)
        g_string_append_printf(out, ",\"%s\":%" PRIu64, tpc_stall_cause_names[k], cause[k]);
    g_string_append(out, "}");
}

static void json_tpc(GString *out, Machine *m, const Prof *p)
{
    const TpcCpu *c = p->c;
    g_string_append_printf(
        out,
        "{\"tpc\":%u,\"cycles\":%" PRIu64 ",\"bundles\":%" PRIu64 ",\"profiled_cycles\":%" PRIu64
        ",\"stall_cycles\":%" PRIu64 ",\"hazards\":%" PRIu64 ",\"bytes\":%" PRIu64
        ",\"vpu_bundles\":%" PRIu64 ",\n  \"stalls\":",
        p->t, c->cycles, c->bundles, p->total, p->stalls, p->hazards, p->bytes, p->vpu);
    json_causes(out, p->by, p->cause);
    g_string_append(out, ",\n  \"hot_spots\":[");
    for (size_t k = 0; k < p->nhot; k++) {
        const TpcProfileRow *r = &p->rows[p->hot[k]];
        uint32_t pc = (uint32_t)(p->hot[k] * TPC_BUNDLE);
        uint64_t cause[TPC_STALL_NCAUSES] = {row_raw(r), r->stall_mem, r->stall_rule,
                                             r->stall_loop};
        g_string_append_printf(out, "%s\n   {\"pc\":%" PRIu32 ",\"disasm\":", k ? "," : "", pc);
        json_disas(out, m, c, pc);
        g_string_append_printf(out,
                               ",\"execs\":%" PRIu64 ",\"cycles\":%" PRIu64 ",\"percent\":%.6f"
                               ",\"stall_cycles\":%" PRIu64 ",\"hazards\":%" PRIu64
                               ",\"bytes\":%" PRIu64 ",\"stalls\":",
                               r->execs, row_cycles(r), pct(row_cycles(r), p->total), r->stalls,
                               r->hazards, r->bytes);
        json_causes(out, r->stall_by, cause);
        g_string_append(out, ",\"waited_for\":[");
        for (unsigned i = 0; i < r->nprod; i++) {
            const TpcProfileProducer *pr = &r->prod[i];
            char rn[8] = "";
            if (pr->reg != 0xFF)
                tpc_timing_reg_name(pr->reg, rn, sizeof(rn));
            g_string_append_printf(out,
                                   "%s{\"pc\":%" PRIu32 ",\"cause\":\"%s\",\"reg\":%s%s%s"
                                   ",\"cycles\":%" PRIu64 ",\"times\":%" PRIu64 ",\"disasm\":",
                                   i ? "," : "", pr->pc, tpc_stall_cause_names[pr->cause],
                                   *rn ? "\"" : "", *rn ? rn : "null", *rn ? "\"" : "", pr->cycles,
                                   pr->times);
            json_disas(out, m, c, pr->pc);
            g_string_append(out, "}");
        }
        g_string_append_printf(out, "],\"other_producers_cycles\":%" PRIu64 "}", r->prod_other);
    }
    g_string_append(out, "],\n  \"loops\":[");
    for (size_t j = 0; j < p->nloops; j++) {
        const ProfLoop *l = &p->loops[j];
        g_string_append_printf(out,
                               "%s\n   {\"first\":%" PRIu32 ",\"last\":%" PRIu32
                               ",\"kind\":\"%s\",\"entries\":%" PRIu64 ",\"trips\":%" PRIu64
                               ",\"cycles\":%" PRIu64 ",\"percent\":%.6f"
                               ",\"stall_cycles\":%" PRIu64 ",\"stalls\":{",
                               j ? "," : "", l->start, l->end, l->loop ? "LOOP" : "jump",
                               l->entries, l->trips, l->cycles, pct(l->cycles, p->total),
                               l->stalls);
        for (unsigned k = 0; k < TPC_STALL_NCAUSES; k++)
            g_string_append_printf(out, "%s\"%s\":%" PRIu64, k ? "," : "", tpc_stall_cause_names[k],
                                   l->by[k]);
        g_string_append(out, "}}");
    }
    g_string_append(out, "]}");
}

void tr_profile_json(GString *out, Machine *m, const TrOptions *o)
{
    TpcCpu *c0 = tpc_cpu_of(m, 0);
    g_string_append(out, "{\"generator\":\"nxemu-tpc-run --profile-json\",\"kernel\":");
    json_str(out, o->kernel);
    g_string_append_printf(out, ",\"timing\":\"%s\",\"tpcs\":[\n",
                           tpc_timing_name(c0 ? tpc_timing_mode(c0->tm) : o->timing));
    bool first = true;
    for (unsigned t = 0; t < o->ntpc; t++) {
        TpcCpu *c;
        if (!profiled(m, t, &c))
            continue;
        Prof p;
        prof_init(&p, t, c);
        if (!first)
            g_string_append(out, ",\n");
        first = false;
        json_tpc(out, m, &p);
        prof_fini(&p);
    }
    g_string_append(out, "\n]}\n");
}

void tr_profile_trace(GString *out, Machine *m, const TrOptions *o)
{
    g_string_append(out, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":"
                         "\"nxemu-tpc-run --profile-trace\",\"time_unit\":\"TPC cycles\"},\n"
                         "\"traceEvents\":[");
    bool first = true;
    for (unsigned t = 0; t < o->ntpc; t++) {
        TpcCpu *c;
        if (!profiled(m, t, &c))
            continue;
        size_t n;
        uint64_t w;
        const TpcProfileSample *s = tpc_timing_profile_samples(c->tm, &n, &w);
        int pid = (int)t + 1;
        g_string_append_printf(out,
                               "%s\n{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":0,"
                               "\"args\":{\"name\":\"tpc %u\"}}",
                               first ? "" : ",", pid, t);
        first = false;
        g_string_append_printf(out,
                               ",\n{\"name\":\"process_labels\",\"ph\":\"M\",\"pid\":%d,"
                               "\"tid\":0,\"args\":{\"labels\":\"window %" PRIu64 " cycles\"}}",
                               pid, w);
        /* one sample per window, and one at the end so the last lasts */
        for (size_t i = 0; i <= n; i++) {
            static const TpcProfileSample zero;
            const TpcProfileSample *x = i < n ? &s[i] : &zero;
            uint64_t ts = (uint64_t)i * w;
            g_string_append_printf(out,
                                   ",\n{\"name\":\"stall cycles\",\"ph\":\"C\",\"pid\":%d,"
                                   "\"tid\":0,\"ts\":%" PRIu64 ",\"args\":{",
                                   pid, ts);
            for (unsigned k = 0; k < TPC_STALL_NCAUSES; k++)
                g_string_append_printf(out, "%s\"%s\":%" PRIu64, k ? "," : "",
                                       tpc_stall_cause_names[k], x->stall[k]);
            g_string_append_printf(out,
                                   "}},\n{\"name\":\"issue cycles\",\"ph\":\"C\",\"pid\":%d,"
                                   "\"tid\":0,\"ts\":%" PRIu64 ",\"args\":{\"issue\":%" PRIu64
                                   "}},\n{\"name\":\"global bytes\",\"ph\":\"C\",\"pid\":%d,"
                                   "\"tid\":0,\"ts\":%" PRIu64 ",\"args\":{\"bytes\":%" PRIu64 "}}",
                                   pid, ts, x->issue, pid, ts, x->bytes);
        }
    }
    g_string_append(out, "\n]}\n");
}
