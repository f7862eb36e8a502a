/* Semaphores and events (machine.md §4): one block shared by every actor.
 * The machine runs sequentially, so each operation is trivially atomic. */
#include <inttypes.h>
#include <string.h>

#include "hw/nc2/evsem.h"
#include "nxemu/machine.h"
#include "nxemu/sched.h"
#include "nxemu/seq-port.h"

G_STATIC_ASSERT(SEQ_NR_SEMAPHORES == NC2_NR_SEMAPHORES && SEQ_NR_EVENTS == NC2_NR_EVENTS);

#define EVSEM_EVENT    0x0000u
#define EVSEM_SEM_READ 0x1000u
#define EVSEM_SEM_SET  0x1400u
#define EVSEM_SEM_INC  0x1800u
#define EVSEM_SEM_DEC  0x1C00u
#define EVSEM_DECODED  0x2000u

static void evsem_set_sem(EvSem *es, unsigned i, uint32_t v, const char *op)
{
    uint32_t old = es->sem[i];
    if (old != v) {
        es->sem[i] = v;
        es->changes++;
        if (es->m) {
            sched_note_change(es->m);
        }
    }
    if (es->m) {
        nx_log_mask(&es->m->log, NX_LOG_SEM, "sem[%u] %s: %" PRIu32 " -> %" PRIu32 "\n", i, op, old,
                    v);
    }
    /* a debugger's `catch sem N VALUE` is one subscriber */
    if (es->m && old != v && G_UNLIKELY(es->m->runev)) {
        NxRunEvent ev = {.kind = NX_RUNEV_SEM, .unit = i, .old = old, .val = v, .op = op};
        machine_runev(es->m, &ev);
    }
}

void evsem_sem_write(EvSem *es, unsigned i, uint32_t v)
{
    evsem_set_sem(es, i & 0xFF, v, "set");
}

void evsem_sem_add(EvSem *es, unsigned i, uint32_t v)
{
    i &= 0xFF;
    evsem_set_sem(es, i, es->sem[i] + v, "add");
}

void evsem_sem_sub(EvSem *es, unsigned i, uint32_t v)
{
    i &= 0xFF;
    evsem_set_sem(es, i, es->sem[i] - v, "sub");
}

void evsem_evt_write(EvSem *es, unsigned i, bool set)
{
    i &= 0xFF;
    uint8_t old = es->evt[i];
    if (old != set) {
        es->evt[i] = set;
        es->changes++;
        if (es->m) {
            sched_note_change(es->m);
        }
    }
    if (es->m) {
        nx_log_mask(&es->m->log, NX_LOG_SEM, "evt[%u] %s: %u -> %u\n", i, set ? "set" : "clear",
                    old, (unsigned)set);
    }
}

void evsem_update(EvSem *es, uint8_t mode, uint8_t idx, uint32_t value)
{
    /* _COMPLETE codes are the _READ codes with bit 4 set (sequencer.md §4.3);
     * the *_REG forms arrive with R[V] already read. */
    switch (mode & 0x0F) {
    case 0x01:
        evsem_evt_write(es, idx, true);
        break;
    case 0x02:
        evsem_evt_write(es, idx, false);
        break;
    case 0x03:
        evsem_sem_add(es, idx, 1);
        break;
    case 0x04:
        evsem_sem_sub(es, idx, 1);
        break;
    case 0x05:
    case 0x06:
        evsem_sem_add(es, idx, value);
        break;
    case 0x07:
    case 0x08:
        evsem_sem_sub(es, idx, value);
        break;
    case 0x09:
    case 0x0A:
        evsem_sem_write(es, idx, value);
        break;
    default:
        break; /* NONE; other codes never pass has_valid_neuron_events */
    }
}

static MemTxResult evsem_read(void *opaque, uint64_t off, unsigned size, uint64_t *data,
                              MemTxAttrs attrs)
{
    EvSem *es = opaque;
    if (size != 4 || (off & 3)) {
        return size != 4 ? MEMTX_BAD_WIDTH : MEMTX_MISALIGNED;
    }
    if (off < EVSEM_EVENT + 4 * NC2_NR_EVENTS) {
        *data = es->evt[off / 4];
    } else if (off >= EVSEM_SEM_READ && off < EVSEM_DECODED) {
        *data = es->sem[(off & 0x3FF) / 4];
    } else {
        return MEMTX_UNMAPPED;
    }
    return MEMTX_OK;
}

static MemTxResult evsem_write(void *opaque, uint64_t off, unsigned size, uint64_t data,
                               MemTxAttrs attrs)
{
    EvSem *es = opaque;
    uint32_t v = (uint32_t)data;
    if (size != 4 || (off & 3)) {
        return size != 4 ? MEMTX_BAD_WIDTH : MEMTX_MISALIGNED;
    }
    if (off < EVSEM_EVENT + 4 * NC2_NR_EVENTS) {
        evsem_evt_write(es, (unsigned)(off / 4), v != 0);
        return MEMTX_OK;
    }
    if (off < EVSEM_SEM_READ || off >= EVSEM_DECODED) {
        return MEMTX_UNMAPPED;
    }
    unsigned i = (unsigned)(off & 0x3FF) / 4;
    switch (off & ~0x3FFull) {
    case EVSEM_SEM_SET:
        evsem_sem_write(es, i, v);
        break;
    case EVSEM_SEM_INC:
        evsem_sem_add(es, i, v);
        break;
    case EVSEM_SEM_DEC:
        evsem_sem_sub(es, i, v);
        break;
    default:
        break; /* SEM_READ: writes ignored */
    }
    return MEMTX_OK;
}

static const MemoryRegionOps evsem_ops = {
    .read = evsem_read,
    .write = evsem_write,
    .widths = MEM_W4,
    .unaligned_ok = false,
};

void evsem_init(EvSem *es, Machine *m)
{
    memset(es, 0, sizeof(*es));
    es->m = m;
    mr_init_io(&es->mmio, "evsem", nc2_memmap[NC2_EVSEM].size, &evsem_ops, es);
}

void evsem_destroy(EvSem *es)
{
    mr_destroy(&es->mmio);
}
