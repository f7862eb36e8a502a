/*
 * Races between the TPCs of a launch (docs/tpc-run.rst "Races"): every
 * global-memory access a TPC makes is noted in its own log (coalesced per
 * PC), and when a TPC starts its next kernel or the run ends the logs are
 * compared:
 * bytes two TPCs write, or one reads and another writes, are reported once
 * per pair of PCs, in TPC order.  The logs are per TPC, so a TPC on a
 * worker thread writes only its own (nxemu/worker.h), one cache line apart.
 * The detector is its owner's (softmmu/main.c, api/), not the machine's:
 * each TPC reaches its log through TpcCpu.race, its accesses and its
 * launches alike.
 */
#ifndef TARGET_TPC_RACE_H
#define TARGET_TPC_RACE_H

#include <stdbool.h>
#include <stdint.h>

#include "nxemu/machine.h"
#include "nxemu/tpc-race.h"

typedef struct TpcRaceAcc {
    uint64_t lo, hi; /* [lo, hi) */
    uint32_t pc;
    int8_t tensor; /* -1: not a tensor access */
    bool write;
} TpcRaceAcc;

#define TPC_RACE_OPEN 16

typedef struct TpcRaceLog {
    _Alignas(64) TpcRaceAcc *a;
    size_t n, cap;
    bool full;                    /* gave up: more than TPC_RACE_MAX entries */
    bool launched;                /* ran a kernel since the last comparison */
    uint32_t open[TPC_RACE_OPEN]; /* per PC hash: 1 + the entry it extends */
    struct TpcRace *r;            /* the detector */
} TpcRaceLog;

struct TpcRace {
    Machine *m;
    unsigned nr;
    TpcRaceLog *log; /* per TPC */
    bool fatal;      /* -tpc-race fault */
    unsigned reported;
    GHashTable *seen; /* pairs of PCs already reported */
    GString *out;     /* NULL: stderr */
};

/* The TPC of log l starts a kernel: if it ran one since the logs were last
 * compared, that launch is over: compare them now. */
void tpc_race_launch(TpcRaceLog *l);

void tpc_race_note_slow(TpcRaceLog *l, uint64_t pa, uint64_t len, bool write, uint32_t pc,
                        int tensor);

/* A log as it was when a stretch started (softmmu/sched-threads.c): its
 * length, and the entries later accesses may still extend (coalescing
 * grows an open entry's hi only). */
typedef struct TpcRaceMark {
    size_t n;
    bool full;
    uint32_t open[TPC_RACE_OPEN];
    unsigned nkept;
    size_t kept_at[TPC_RACE_OPEN];
    TpcRaceAcc kept[TPC_RACE_OPEN];
} TpcRaceMark;

void tpc_race_mark(const TpcRaceLog *l, TpcRaceMark *mk);
/* Each access logged since mark mk, to emit; false: some were not (full). */
bool tpc_race_since(const TpcRaceLog *l, const TpcRaceMark *mk,
                    void (*emit)(void *o, uint64_t lo, uint64_t hi, bool write), void *o);
/* The log back as it was at mark mk. */
void tpc_race_back(TpcRaceLog *l, const TpcRaceMark *mk);

/* The TPC of log l (NULL: no detector) accessed [pa, pa + len) at pc. */
static inline void tpc_race_note(TpcRaceLog *l, uint64_t pa, uint64_t len, bool write, uint32_t pc,
                                 int tensor)
{
    if (G_LIKELY(!l))
        return;
    unsigned h = ((pc >> 5) * 2u + write) % TPC_RACE_OPEN;
    uint32_t e = l->open[h];
    if (G_LIKELY(e)) {
        TpcRaceAcc *x = &l->a[e - 1];
        if (x->hi == pa && x->pc == pc && x->write == write) {
            x->hi = pa + len;
            return;
        }
    }
    tpc_race_note_slow(l, pa, len, write, pc, tensor);
}

#endif
