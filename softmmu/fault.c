/* Fault names and the signals a debugger sees (machine.md §9.1). */
#include <signal.h>

#include <glib.h>

#include "nxemu/fault.h"

static const struct {
    const char *name;
    int signal;
} fault_table[] = {
    [NX_FAULT_NONE] = {"NONE", 0},
    [NX_FAULT_INVALID_OPCODE] = {"INVALID_OPCODE", SIGILL},
    [NX_FAULT_INVALID_INSTRUCTION] = {"INVALID_INSTRUCTION", SIGILL},
    [NX_FAULT_PSEUDO_UNLOWERED] = {"PSEUDO_UNLOWERED", SIGILL},
    [NX_FAULT_MISALIGNED] = {"MISALIGNED", SIGBUS},
    [NX_FAULT_WINDOW_CROSSING] = {"WINDOW_CROSSING", SIGSEGV},
    [NX_FAULT_TRANSLATION_FAULT] = {"TRANSLATION_FAULT", SIGSEGV},
    [NX_FAULT_PERMISSION_FAULT] = {"PERMISSION_FAULT", SIGSEGV},
    [NX_FAULT_BUS_ERROR] = {"BUS_ERROR", SIGBUS},
    [NX_FAULT_DMA_ERROR] = {"DMA_ERROR", SIGBUS},
};

const char *nx_fault_name(uint32_t code)
{
    return code < G_N_ELEMENTS(fault_table) ? fault_table[code].name : "UNKNOWN";
}

int nx_fault_signal(uint32_t code)
{
    return code < G_N_ELEMENTS(fault_table) && code ? fault_table[code].signal : SIGILL;
}
