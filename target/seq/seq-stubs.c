/* Temporary stand-ins so the emulator links while the sequencer target is
 * being written.  Each function moves to its real home (and leaves this
 * file) as it is implemented; the file is deleted when empty. */
#include "nxemu/loader.h"
#include "nxemu/machine.h"

NxCpu *seq_cpu_create(Machine *m, unsigned index)
{
    return NULL;
}

uint32_t seq_dma_request_from_record(Machine *m, const uint8_t rec[64], DmaRequest **req)
{
    *req = NULL;
    return 5u << 16; /* "opcode is not 0xB8 or 0xBB": nothing is accepted yet */
}

bool seq_lower_stream(uint8_t *bytes, uint64_t len, const char *where, uint64_t file_off,
                      const BindTable *bt, LoaderSymFn sym, void *sym_opaque, GError **err)
{
    return true;
}
