/* Placeholder until the TPC toolchain lands (issue: TPC target). */
#include "target/tpc/tpc-tools.h"

int tpc_assemble_file(const char *src, const char *out, bool raw)
{
    fprintf(stderr, "nxemu-as: %s: the TPC assembler is not built yet\n", src);
    return 1;
}

int tpc_objdump_buffer(const char *path, const uint8_t *data, size_t len, bool raw, FILE *out)
{
    fprintf(stderr, "nxemu-objdump: %s: the TPC disassembler is not built yet\n", path);
    return 1;
}
