/*
 * Races between the TPCs of a launch (-tpc-race, nxemu-tpc-run --race;
 * target/tpc/race.c, docs/tpc-run.rst "Races between TPCs").
 */
#ifndef NXEMU_TPC_RACE_H
#define NXEMU_TPC_RACE_H

#include <stdbool.h>

typedef struct Machine Machine;

/* "off" 0, "warn" 1 (the default), "fault" 2; false: another word. */
bool tpc_race_parse(const char *s, unsigned *mode);
/* Look for races in mode (0: not at all).  Call before the run. */
void tpc_race_set(Machine *m, unsigned mode);
void tpc_race_free(Machine *m);
/* After the run: compare what the last launch did; returns the run's exit
 * status rc, or 122 in fault mode when a race was reported and the run
 * otherwise ended with 0. */
int tpc_race_end(Machine *m, int rc);

#endif
