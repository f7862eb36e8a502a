/*
 * A console backend, as QEMU's -serial: where a device's console bytes go.
 * The test device's CONSOLE register (machine.md §7) writes to the one the
 * board was given (board_set_serial, nxemu/board-if.h); the machine itself
 * knows nothing of it.
 */
#ifndef NXEMU_SERIAL_H
#define NXEMU_SERIAL_H

#include <stdbool.h>
#include <stdio.h>

#include <glib.h>

/* buf when set (the C API hands the bytes to its caller), else nowhere when
 * off (-serial none), else file (-serial FILE), else standard output.  The
 * caller owns buf and file and keeps them until it sets another backend or
 * frees the machine.  All zero: standard output. */
typedef struct NxSerial {
    GString *buf;
    FILE *file;
    bool off;
} NxSerial;

#endif
