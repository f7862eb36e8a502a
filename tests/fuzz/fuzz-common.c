/* Helpers shared by the fuzz targets (fuzz.h). */
#include "fuzz.h"

#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "hw/nc2/fdt.h"
#include "nxemu/sched.h"

bool fuzz_file_open(FuzzFile *f, const void *data, size_t size)
{
    f->fd = memfd_create("nxemu-fuzz", MFD_CLOEXEC);
    if (f->fd < 0) {
        return false;
    }
    const uint8_t *p = data;
    while (size) {
        ssize_t k = write(f->fd, p, size);
        if (k <= 0) {
            fuzz_file_close(f);
            return false;
        }
        p += k;
        size -= (size_t)k;
    }
    snprintf(f->path, sizeof(f->path), "/proc/self/fd/%d", f->fd);
    return true;
}

void fuzz_file_close(FuzzFile *f)
{
    if (f->fd >= 0) {
        close(f->fd);
    }
    f->fd = -1;
}

Machine *fuzz_machine(unsigned nr_seq, unsigned nr_tpc)
{
    Nc2Edits ed = {.has_hbm = true,
                   .hbm = 64ull << 20,
                   .has_seq = true,
                   .seq = nr_seq,
                   .has_tpc = true,
                   .tpc = nr_tpc};
    void *fdt = NULL;
    size_t size = 0;
    MachineConfig cfg;
    GError *err = NULL;
    if (!nc2_fdt_build_config(NULL, &ed, &fdt, &size, &cfg, &err)) {
        g_clear_error(&err);
        return NULL;
    }
    Machine *m = machine_new(&cfg, fdt, size, &err);
    g_free(fdt);
    g_clear_error(&err);
    return m;
}

StopReason fuzz_run(Machine *m, unsigned max_rounds, uint64_t icount, uint64_t cycles)
{
    StopReason r = STOP_NONE;
    m->sched.has_icount_limit = true;
    m->sched.icount_limit = icount;
    m->sched.has_cycle_limit = true;
    m->sched.cycle_limit = cycles;
    for (unsigned i = 0; i < max_rounds && r == STOP_NONE; i++) {
        r = sched_round(m);
    }
    if (r != STOP_NONE) {
        GString *out = g_string_new(NULL);
        sched_report(m, out);
        g_string_free(out, TRUE);
    }
    return r;
}

uint64_t fuzz_take(FuzzIn *in, unsigned bytes)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < bytes && in->n; i++) {
        v |= (uint64_t)in->p[0] << (8 * i);
        in->p++;
        in->n--;
    }
    return v;
}
