#include "nxemu/error.h"

G_DEFINE_QUARK(nxemu-error-quark, nx_error)
