/* Semaphores and events (machine.md §4). */
#ifndef HW_NC2_EVSEM_H
#define HW_NC2_EVSEM_H

#include <stdbool.h>
#include <stdint.h>

#include "hw/nc2/memmap.h"
#include "nxemu/memory.h"

typedef struct Machine Machine;

typedef struct EvSem {
    Machine *m;
    uint32_t sem[NC2_NR_SEMAPHORES];
    uint8_t evt[NC2_NR_EVENTS];
    uint64_t changes; /* bumped on every change (observers, deadlock checks) */
    MemoryRegion mmio;
} EvSem;

void evsem_init(EvSem *es, Machine *m);
void evsem_destroy(EvSem *es);
/* All arithmetic wraps modulo 2^32. */
void evsem_sem_write(EvSem *es, unsigned i, uint32_t v);
void evsem_sem_add(EvSem *es, unsigned i, uint32_t v);
void evsem_sem_sub(EvSem *es, unsigned i, uint32_t v);
void evsem_evt_write(EvSem *es, unsigned i, bool set);
/* Apply an events-field update (sequencer.md §4.3, _READ or _COMPLETE code)
 * whose value is already resolved (R[V] read by the caller for *_REG). */
void evsem_update(EvSem *es, uint8_t mode, uint8_t idx, uint32_t value);

#endif
