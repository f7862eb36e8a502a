/* Placeholder until the TPC core lands: the machine has TPC configuration
 * windows but no TPC that executes; EXECUTE reports the kernel as faulted. */
#include "nxemu/machine.h"

NxCpu *tpc_cpu_create(Machine *m, unsigned index)
{
    return NULL;
}

void tpc_cpu_launch(Machine *m, unsigned t)
{
    nx_warn("TPC %u: EXECUTE ignored: TPC cores are not implemented yet", t);
}
