/*
 * Races between the TPCs of a launch (-tpc-race, nxemu-tpc-run --race;
 * target/tpc/race.c, docs/tpc-run.rst "Races between TPCs").
 */
#ifndef NXEMU_TPC_RACE_H
#define NXEMU_TPC_RACE_H

#include <stdbool.h>

#include <glib.h>

typedef struct Machine Machine;
typedef struct TpcRace TpcRace;

/* "off" 0, "warn" 1 (the default), "fault" 2; false: another word. */
bool tpc_race_parse(const char *s, unsigned *mode);
/* A detector of races between m's TPCs in mode (0, or fewer than 2 TPCs:
 * none, NULL), attached to each TPC; the caller owns it.  Call before the
 * run. */
TpcRace *tpc_race_new(Machine *m, unsigned mode);
/* Its lines go to out (the API's report) instead of stderr. */
void tpc_race_set_output(TpcRace *r, GString *out);
/* After the run: compare what the last launch did; returns the run's exit
 * status rc, or 122 in fault mode when a race was reported and the run
 * otherwise ended with 0.  r may be NULL (returns rc). */
int tpc_race_end(TpcRace *r, int rc);
/* Detach it from the TPCs and free it (NULL: nothing); the machine must
 * still exist and not be running. */
void tpc_race_free(TpcRace *r);

#endif
