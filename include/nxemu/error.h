/* Host-side errors (bad option, image, configuration) are GErrors in this
 * domain; main prints "nxemu: <message>" and exits 125. */
#ifndef NXEMU_ERROR_H
#define NXEMU_ERROR_H

#include <glib.h>

#define NX_ERROR nx_error_quark()
GQuark nx_error_quark(void);

enum { NX_ERROR_USAGE = 1, NX_ERROR_CONFIG, NX_ERROR_LOAD, NX_ERROR_OUTPUT };

#define NX_EXIT_USAGE 125
/* The run ended but an output (-D, -trace-json, -coverage, ...) could not be
 * written completely (docs/user-manual.rst). */
#define NX_EXIT_OUTPUT 126

#endif
