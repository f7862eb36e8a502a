/*
 * ISA coverage (-coverage FILE, docs/tracing.rst).  softmmu/coverage.c keeps
 * the counts and writes the report; what an ISA has and how one executed
 * instruction counts belong to its core, described by an NxCovIsa
 * (target/seq/coverage.c, target/tpc/coverage.c) that the board hands to
 * the machine (Machine.cov_isa), so softmmu/ decodes no instruction itself
 * (docs/architecture.rst, "Layers").  Both what exists and what ran come
 * from the tables the decoders use, so "N of M" cannot drift from them.
 */
#ifndef NXEMU_COVERAGE_H
#define NXEMU_COVERAGE_H

#include <stdbool.h>
#include <stdint.h>

#include <glib.h>

/* One category of one ISA (its opcodes, its data types, ...). */
typedef struct NxCovCat {
    const char *name;
    GPtrArray *keys;   /* owned strings; the first `universe` are what exists */
    GArray *hits;      /* uint64_t per key */
    GHashTable *index; /* key -> index + 1 */
    unsigned universe;
    unsigned no;    /* its index in the ISA's categories */
    GArray *record; /* while an instruction is first decoded: its hits (softmmu/coverage.c) */
} NxCovCat;

/* Declare what exists (in universe(), before any hit). */
void nx_cov_exists(NxCovCat *c, const char *key);
/* One hit; a key outside the universe is kept as well, listed as "other".
 * NULL is ignored. */
void nx_cov_hit(NxCovCat *c, const char *key);

typedef struct NxCovIsa {
    const char *name;        /* the report's key: "seq", "tpc" */
    const char *unit;        /* what insn() counts: "instructions", "bundles" */
    const char *const *cats; /* category names, in report order */
    unsigned nr_cats;
    unsigned len;       /* bytes of one instruction as the trace hands it */
    unsigned fault_cat; /* the category of fault kinds */
    /* Declare what exists in each category (cats[nr_cats]). */
    void (*universe)(NxCovCat *cats);
    /* Count one executed instruction; false (not counted) when its bytes do
     * not decode: the fault kind is recorded at the end of the run.  A
     * function of the bytes alone: called once per distinct bytes, whose
     * hits are then repeated for every execution. */
    bool (*insn)(NxCovCat *cats, const uint8_t *bytes);
    /* The fault category's key for a fault code. */
    const char *(*fault_name)(uint32_t code);
} NxCovIsa;

#endif
