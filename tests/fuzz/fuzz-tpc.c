/*
 * TPC bundles on a live TPC (target/tpc decode and execute): the input is a
 * flags byte and then up to 128 bundles of 32 bytes, placed as a kernel
 * (followed by HALT and three NOPs, as tests/unit/tpc-harness.h does) and
 * launched on TPC 0 through EXECUTE with four tensors, then run for a
 * bounded number of bundles.  Flag 1 is strict mode (nxemu -tpc-strict).
 */
#include "fuzz.h"

#include "../unit/tpc-harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 + 32 || size > 1 + 128 * 32) {
        return 0;
    }
    uint8_t flags = data[0];
    unsigned n = (unsigned)((size - 1) / 32);
    Bun *k = g_new(Bun, n + 4);
    memcpy(k, data + 1, 32ull * n);
    k[n] = halt();
    for (unsigned i = 1; i < 4; i++) {
        k[n + i] = nop();
    }
    Machine *m = mk();
    tpc_cpu_set_strict(m, flags & 1);
    /* i32/f32 tensors: 2-D {64, 4} (dim 0 contiguous); tensor 3 in SBUF */
    uint32_t sz[5] = {64, 4, 1, 1, 1};
    int32_t stride[5] = {1, 64, 256, 256, 256};
    for (unsigned t = 0; t < 4; t++) {
        uint64_t base = t == 3 ? 0x2000000000ull : DATA + t * 0x1000;
        tensor(m, 0, t, base, t == 0 ? 0xDEAD : 0, (flags >> 1) & 3, (flags & 8) ? 0x1f : 0x3, sz,
               stride);
    }
    for (unsigned i = 0; i < 4; i++) {
        srf(m, 0, i, 16u * i);
    }
    uint64_t base = KBASE;
    put(m, base, k, 32ull * (n + 4));
    kv(m, 0, 0x788, (uint32_t)base);
    kv(m, 0, 0x78C, (uint32_t)(base >> 32));
    wr32(m, TPC_PA(0) + 0x1008, 1);
    NxCpu *cpu = m->tpc[0];
    for (unsigned i = 0; i < 64 && cpu->state == CPU_RUNNING; i++) {
        cpu->ops->run(cpu, 64);
    }
    GString *out = g_string_new(NULL);
    if (cpu->state == CPU_FAULTED) {
        tpc_fault_line(cpu, out);
    }
    tpc_dump(cpu, out);
    g_string_free(out, TRUE);
    machine_free(m);
    g_free(k);
    return 0;
}
