/*
 * A TPC's part in a stretch run in parallel: NxCpuOps.stretch_* (nxemu/cpu.h,
 * stretch.c, softmmu/sched-threads.c).
 */
#ifndef TARGET_TPC_STRETCH_H
#define TARGET_TPC_STRETCH_H

#include <stdbool.h>
#include <stdint.h>

#include "nxemu/cpu.h"

typedef struct TpcCpu TpcCpu;

void tpc_stretch_begin(NxCpu *cpu);
bool tpc_stretch_accesses(NxCpu *cpu, void (*emit)(void *o, uint64_t lo, uint64_t hi, bool write),
                          void *o);
void tpc_stretch_restore(NxCpu *cpu);
void tpc_stretch_end(NxCpu *cpu);
/* What the core kept for it (at its destruction). */
void tpc_stretch_free(TpcCpu *c);

#endif
