/*
 * Logging (`-d ITEM,...`, `-D FILE`), modelled on QEMU's qemu_log_mask.
 * Off by default; a disabled item costs one predictable branch.
 */
#ifndef NXEMU_LOG_H
#define NXEMU_LOG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <glib.h>

enum {
    NX_LOG_GUEST_ERROR = 1u << 0, /* guest did something odd but legal-to-survive */
    NX_LOG_UNIMP = 1u << 1,       /* unimplemented feature used */
    NX_LOG_MMU = 1u << 2,         /* window TLB lookups, fills, evictions */
    NX_LOG_INT = 1u << 3,         /* faults and stops */
    NX_LOG_EXEC = 1u << 4,        /* one line per executed instruction (pc) */
    NX_LOG_IN_ASM = 1u << 5,      /* disassembly of each decoded instruction */
    NX_LOG_CPU = 1u << 6,         /* register dump before each instruction */
    NX_LOG_DMA = 1u << 7,         /* DMA requests: issue and completion */
    NX_LOG_NOTIFY = 1u << 8,      /* NOTIFY queue entries */
    NX_LOG_MACHINE = 1u << 9,     /* board construction, loader, scheduler ends */
    NX_LOG_DEBUG_CMD = 1u << 10,  /* nonzero debug_cmd/debug_hint bytes */
    NX_LOG_TPC = 1u << 11,        /* TPC launches and completions */
    NX_LOG_SEM = 1u << 12,        /* semaphore and event changes */
    NX_LOG_COMMIT = 1u << 13,     /* one line per retired instruction (nxemu/trace.h) */
    NX_LOG_STATS = 1u << 14,      /* run statistics at the end (nxemu/trace.h) */
};

typedef struct NxLog {
    uint32_t mask;
    FILE *file; /* stderr unless -D */
} NxLog;

#define nx_log_enabled(lg, m) __builtin_expect(((lg)->mask & (m)) != 0, 0)
#define nx_log_mask(lg, m, ...)                                                                    \
    do {                                                                                           \
        if (nx_log_enabled(lg, m))                                                                 \
            nx_log_printf(lg, __VA_ARGS__);                                                        \
    } while (0)

void nx_log_printf(NxLog *lg, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
/* Parse "item,item" (or "help" -> prints the list, returns false with no error). */
bool nx_log_parse(const char *items, uint32_t *mask, GError **err);
/* The same for a tool that does not offer the items of `hidden`: "help"
 * leaves them out (they still parse: the caller refuses them by name). */
bool nx_log_parse_hidden(const char *items, uint32_t hidden, uint32_t *mask, GError **err);
void nx_log_print_help(FILE *out, uint32_t hidden);

/* "nxemu: warning: ..." on stderr (machine.md §9.3). */
void nx_warn(const char *fmt, ...) G_GNUC_PRINTF(1, 2);

#endif
