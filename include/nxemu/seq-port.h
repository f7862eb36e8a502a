/*
 * What a sequencer core sees of the board (docs/architecture.rst, "Layers"):
 * the semaphores and events it waits on and updates, as a narrow port the
 * board fills in (hw/nc2/nx.c nx_seq_port) and hands to seq_cpu_create.
 * target/seq never includes a board header; the board never includes a
 * target header.
 *
 * Reads the run loop makes on every wait (semaphore and event values) go
 * straight to board storage through const pointers; every effect is a call,
 * so the board keeps its invariants (change counters, logging, observers).
 */
#ifndef NXEMU_SEQ_PORT_H
#define NXEMU_SEQ_PORT_H

#include <stdbool.h>
#include <stdint.h>

typedef struct SeqPort {
    void *opaque; /* the board's per-core object, first argument of the calls */

    /* Semaphores and events (machine.md §4), read only here. */
    const uint32_t *sem;
    const uint8_t *evt;
    void (*sem_write)(void *opaque, unsigned i, uint32_t v);
    void (*evt_write)(void *opaque, unsigned i, bool set);
    /* An events-field update (sequencer.md §4.3) whose value is resolved. */
    void (*ev_update)(void *opaque, uint8_t mode, uint8_t idx, uint32_t value);
} SeqPort;

#endif
