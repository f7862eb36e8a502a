/*
 * Image loader (softmmu/loader.c, elf.c, fit.c): the input is one image
 * file (ELF, FIT or raw) after a mode byte that picks how it is named
 * (-kernel, -device loader with or without addr=, cpu-num=, tpc-num=,
 * -fit-config).  What loads then runs for at most a few hundred sequencer
 * instructions and a bounded number of cycles.
 */
#include "fuzz.h"

#include "nxemu/loader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > FUZZ_MAX_INPUT) {
        return 0;
    }
    uint8_t mode = data[0];
    FuzzFile f;
    if (!fuzz_file_open(&f, data + 1, size - 1)) {
        return 0;
    }
    Machine *m = fuzz_machine(2, 2);
    if (!m) {
        fuzz_file_close(&f);
        return 0;
    }
    LoaderItem items[2] = {{0}};
    unsigned n = 1;
    items[0].file = f.path;
    switch (mode & 3) {
    case 0:
        items[0].kind = LOADER_KERNEL;
        break;
    case 1: /* ELF or FIT by its own addresses */
        items[0].kind = LOADER_FILE;
        items[0].has_cpu = mode & 4;
        items[0].cpu_num = (mode >> 3) & 1;
        break;
    case 2: /* raw (or a TPC ELF) at addr=, optionally started */
        items[0].kind = LOADER_FILE;
        items[0].has_addr = true;
        items[0].addr = 0x1000000;
        items[0].has_cpu = mode & 4;
        items[0].cpu_num = (mode >> 3) & 1;
        break;
    default: /* a TPC kernel for TPC n */
        items[0].kind = LOADER_FILE;
        items[0].has_addr = true;
        items[0].addr = 0x100000;
        items[0].has_tpc = mode & 4;
        items[0].tpc_num = (mode >> 3) & 1;
        break;
    }
    if (mode & 0x20) { /* a data word as well, the way tests poke a flag */
        items[n].kind = LOADER_DATA;
        items[n].has_addr = true;
        items[n].addr = 0x2000000;
        items[n].data = 0x5555;
        items[n].data_len = 4;
        n++;
    }
    BindTable bt;
    bind_table_init(&bt);
    GError *err = NULL;
    if (mode & 0x40) {
        bind_table_add(&bt, 1, 0x2000000, "-bind", &err);
        g_clear_error(&err);
    }
    LoaderOptions lo = {
        .items = items,
        .nr_items = n,
        .bindings = &bt,
        .fit_config = (mode & 0x80) ? "conf-1" : NULL,
    };
    if (loader_load(m, &lo, &err)) {
        fuzz_run(m, 64, 400, 20000);
    }
    g_clear_error(&err);
    bind_table_destroy(&bt);
    machine_free(m);
    fuzz_file_close(&f);
    return 0;
}
