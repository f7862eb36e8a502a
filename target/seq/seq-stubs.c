/* Temporary stand-ins so the emulator links while the sequencer target is
 * being written.  Each function moves to its real home (and leaves this
 * file) as it is implemented; the file is deleted when empty. */
#include "nxemu/loader.h"
#include "nxemu/machine.h"
