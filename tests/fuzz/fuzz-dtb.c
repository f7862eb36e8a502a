/*
 * Device tree and board build (hw/nc2/fdt.c, fdt-edit.c, board.c): the
 * input is a DTB (-dtb FILE) after a byte that picks the command-line edits
 * applied on top (-m, -smp, -machine tlb=/quantum=/dma=).  A tree that is
 * accepted builds the machine, which then runs a few scheduler rounds.
 */
#include "fuzz.h"

#include "hw/nc2/fdt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > FUZZ_MAX_INPUT) {
        return 0;
    }
    uint8_t e = data[0];
    FuzzFile f;
    if (!fuzz_file_open(&f, data + 1, size - 1)) {
        return 0;
    }
    Nc2Edits ed = {0};
    if (e & 1) {
        ed.has_hbm = true;
        ed.hbm = (e & 2) ? (48ull << 20) : (32ull << 20);
    }
    if (e & 4) {
        ed.has_seq = true;
        ed.seq = (e >> 6) + 1;
    }
    if (e & 8) {
        ed.has_tpc = true;
        ed.tpc = (e >> 6);
    }
    if (e & 16) {
        ed.has_tlb = true;
        ed.tlb = 4;
    }
    if (e & 32) {
        ed.has_quantum = true;
        ed.quantum = 16;
        ed.has_dma = true;
        ed.dma = 1;
    }
    void *fdt = NULL;
    size_t fdt_size = 0;
    MachineConfig cfg;
    GError *err = NULL;
    /* The whole -dtb path of main.c: load, check, edit, extract. */
    if (nc2_fdt_build_config(f.path, &ed, &fdt, &fdt_size, &cfg, &err)) {
        /* Keep the board small: the limits themselves are what the checks
         * above enforce; a huge valid board only makes the run slow. */
        if (cfg.nr_seq <= 8 && cfg.nr_tpc <= 8 && cfg.hbm_size <= (4ull << 30)) {
            Machine *m = machine_new(&cfg, fdt, fdt_size, &err);
            if (m) {
                fuzz_run(m, 8, 100, 5000);
                machine_free(m);
            }
        }
        g_free(fdt);
    }
    g_clear_error(&err);
    fuzz_file_close(&f);
    return 0;
}
