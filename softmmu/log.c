/* -d items and the log sink. */
#include <stdarg.h>
#include <string.h>

#include "nxemu/error.h"
#include "nxemu/log.h"

typedef struct LogItem {
    const char *name;
    uint32_t mask;
    const char *help;
} LogItem;

/* Core-specific items are listed here too, so `-d help` is the whole truth. */
static const LogItem log_items[] = {
    {"guest_errors", NX_LOG_GUEST_ERROR, "guest actions that are legal to survive but suspect"},
    {"unimp", NX_LOG_UNIMP, "use of unimplemented features"},
    {"mmu", NX_LOG_MMU, "window TLB lookups, fills, evictions and faults"},
    {"int", NX_LOG_INT, "faults and core stops"},
    {"exec", NX_LOG_EXEC, "one line per executed instruction or bundle"},
    {"in_asm", NX_LOG_IN_ASM, "disassembly of each instruction as it is first decoded"},
    {"cpu", NX_LOG_CPU, "register state before each instruction"},
    {"dma", NX_LOG_DMA, "DMA requests at issue and completion"},
    {"notify", NX_LOG_NOTIFY, "NOTIFY queue entries written or dropped"},
    {"machine", NX_LOG_MACHINE, "board construction, image loading, run end"},
    {"debug", NX_LOG_DEBUG_CMD, "nonzero debug_cmd/debug_hint bytes of executed records"},
    {"tpc", NX_LOG_TPC, "TPC kernel launches and completions"},
    {"sem", NX_LOG_SEM, "semaphore and event changes"},
    {"commit", NX_LOG_COMMIT, "one line per retired instruction: encoding, disassembly, results"},
    {"stats", NX_LOG_STATS, "run statistics at the end: instructions, stalls, TLB, DMA, TPC"},
};

void nx_log_printf(NxLog *lg, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(lg->file ? lg->file : stderr, fmt, ap);
    va_end(ap);
}

void nx_warn(const char *fmt, ...)
{
    va_list ap;
    fputs("nxemu: warning: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

void nx_log_print_help(FILE *out, uint32_t hidden)
{
    fprintf(out, "Log items (comma separated):\n");
    for (size_t i = 0; i < G_N_ELEMENTS(log_items); i++) {
        if (!(log_items[i].mask & hidden)) {
            fprintf(out, "%-13s %s\n", log_items[i].name, log_items[i].help);
        }
    }
}

bool nx_log_parse(const char *items, uint32_t *mask, GError **err)
{
    return nx_log_parse_hidden(items, 0, mask, err);
}

bool nx_log_parse_hidden(const char *items, uint32_t hidden, uint32_t *mask, GError **err)
{
    g_auto(GStrv) parts = g_strsplit(items, ",", -1);
    uint32_t m = 0;
    for (char **p = parts; *p; p++) {
        bool found = false;
        if (!**p) {
            continue;
        }
        if (!strcmp(*p, "help")) {
            nx_log_print_help(stdout, hidden);
            *mask = 0;
            return false;
        }
        for (size_t i = 0; i < G_N_ELEMENTS(log_items); i++) {
            if (!strcmp(*p, log_items[i].name)) {
                m |= log_items[i].mask;
                found = true;
            }
        }
        if (!found) {
            g_set_error(err, NX_ERROR, NX_ERROR_USAGE, "-d: unknown log item '%s' (try -d help)",
                        *p);
            return false;
        }
    }
    *mask = m;
    return true;
}
