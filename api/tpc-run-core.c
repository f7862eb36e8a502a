/*
 * The TPC kernel launch of nxemu-tpc-run (docs/tpc-run.rst), shared by the
 * tool and libnxemu.so (the Python API, docs/python.rst): build the machine,
 * load the reference launcher and the kernel, write the parameter block and
 * the input tensors, run the ordinary scheduler, hand back the outputs.
 * Where tensors come from and go to is the caller's (TrIo callbacks).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hw/nc2/board.h"
#include "nxemu/threads.h"
#include "nxemu/tpc-race.h"
#include "nxemu/viewer.h"
#include "hw/nc2/fdt.h"
#include "api/tpc-run.h"
#include "nxemu/gdbstub.h"
#include "nxemu/error.h"
#include "nxemu/file-io.h"
#include "nxemu/loader.h"
#include "nxemu/poison.h"
#include "nxemu/sched.h"
#include "softmmu/monitor.h"
#include "softmmu/options.h"
#include "target/tpc/cpu.h"
#include "target/tpc/jit.h"

#define TR_MAGIC     0x4C50584Eu /* "NXPL" */
#define TR_BLOCK_LEN (0xD0 + 0x38 * TR_MAX_TENSORS)

/* The -machine value through nxemu's own parser, plus tpc=N by default. */
static bool build_config(const TrOptions *o, void **fdt, size_t *size, MachineConfig *cfg,
                         bool *poison, GError **err)
{
    NxOptions no;
    char *argv[] = {"nxemu", "-machine", o->machine ? o->machine : "", NULL};
    int argc = o->machine ? 3 : 1;
    bool ok = nx_options_parse(&no, argc, argv, err);
    if (ok && no.dump_dtb) {
        g_set_error(err, NX_ERROR, NX_ERROR_USAGE,
                    "-machine dumpdtb: not offered by nxemu-tpc-run (run the launcher under "
                    "nxemu)");
        ok = false;
    }
    *poison = ok && no.poison;
    if (ok) {
        if (!no.edits.has_tpc) {
            no.edits.has_tpc = true;
            no.edits.tpc = o->ntpc;
        } else if (no.edits.tpc < o->ntpc) {
            g_set_error(err, NX_ERROR, NX_ERROR_USAGE,
                        "-n %u: the machine has %" G_GUINT64_FORMAT " TPC(s) (-machine tpc=)",
                        o->ntpc, no.edits.tpc);
            ok = false;
        }
    }
    ok = ok && nc2_fdt_build_config(o->dtb, &no.edits, fdt, size, cfg, err);
    if (ok && cfg->nr_tpc < o->ntpc) {
        g_set_error(err, NX_ERROR, NX_ERROR_USAGE, "-n %u: the machine has %u TPC(s)", o->ntpc,
                    cfg->nr_tpc);
        ok = false;
    }
    nx_options_free(&no);
    return ok;
}

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) {
        p[i] = (uint8_t)(v >> (8 * i));
    }
}

/* Descriptor of tpc.md §3.1 as the HCK harness writes it: dense, dim 0
 * innermost, padding 0, every dim below the rank valid. */
static void fill_descriptor(uint8_t *d, const TrTensor *t)
{
    uint32_t stride = 1;
    memset(d, 0, 0x38);
    put32(d + 0x00, (uint32_t)t->addr);
    put32(d + 0x04, (uint32_t)(t->addr >> 32));
    put32(d + 0x0C, t->dtype->code | (((1u << t->rank) - 1) << 8) | ((t->rank - 1) << 16));
    for (unsigned k = 0; k < t->rank; k++) {
        put32(d + 0x10 + 8 * k, t->dim[k]);
        put32(d + 0x14 + 8 * k, stride);
        stride *= t->dim[k];
    }
}

static void fill_block(uint8_t *b, const TrOptions *o, uint32_t kernel_size)
{
    memset(b, 0, TR_BLOCK_LEN);
    put32(b + 0x00, TR_MAGIC);
    put32(b + 0x04, o->ntpc);
    put32(b + 0x08, (uint32_t)TR_KERNEL_BASE);
    put32(b + 0x0C, (uint32_t)(TR_KERNEL_BASE >> 32));
    put32(b + 0x10, kernel_size);
    put32(b + 0x14, o->kernel_config);
    put32(b + 0x18, o->sem);
    put32(b + 0x1C, o->ntensor);
    for (unsigned d = 0; d < o->nspace; d++) {
        put32(b + 0x20 + 8 * d, d < o->nbase ? o->base[d] : 0);
        put32(b + 0x24 + 8 * d, o->space[d]);
    }
    put32(b + 0x48, o->narg);
    for (unsigned i = 0; i < o->narg; i++) {
        put32(b + 0x50 + 4 * i, o->arg[i]);
    }
    for (unsigned t = 0; t < o->ntensor; t++) {
        unsigned d = o->ndesc ? o->desc[t] : t; /* --descriptors */
        fill_descriptor(b + 0xD0 + 0x38 * d, &o->tensor[t]);
    }
}

static bool write_mem(Machine *m, uint64_t addr, const void *buf, uint64_t len, const char *what,
                      GError **err)
{
    uint64_t bad = 0;
    if (as_rw_bytes(m->as, addr, (void *)buf, len, true, MEMTXATTRS(MEM_REQ_LOADER, 0), &bad) !=
        MEMTX_OK) {
        g_set_error(err, NX_ERROR, NX_ERROR_LOAD,
                    "%s: address 0x%" G_GINT64_MODIFIER "x is not memory", what, bad);
        return false;
    }
    return true;
}

/* The loader would take any other file as raw bytes; a kernel must be a TPC
 * ELF (tpc.md §7.1: ELFCLASS32, little-endian, EM_386); the loader checks
 * the rest (.text, .tpc_metadata). */
static bool check_kernel(const char *path, GError **err)
{
    NxInput in;
    uint8_t h[20];
    size_t len = 0;
    /* the header only: a regular file, at most 4 GiB */
    if (!nx_input_open(&in, "-k", path, NX_FILE_IMAGE, err)) {
        return false;
    }
    bool ok = nx_input_pread(&in, h, sizeof(h), 0, &len, err);
    nx_input_close(&in);
    if (!ok) {
        return false;
    }
    ok = len >= 20 &&
         !memcmp(h,
                 "\x7f"
                 "ELF",
                 4) &&
         h[4] == 1 && h[5] == 1 && h[18] == 3 && h[19] == 0;
    if (!ok) {
        g_set_error(err, NX_ERROR, NX_ERROR_LOAD,
                    "%s: not a TPC kernel ELF (ELFCLASS32, little-endian, EM_386)", path);
    }
    return ok;
}

/* Every tensor id the kernel names as an immediate needs its descriptor:
 * without a -i/-o for it the kernel would read a zero descriptor (base 0,
 * sizes 0) and silently compute nothing. */
static bool check_tensor_count(Machine *m, const TrOptions *o, uint32_t ksize, GError **err)
{
    uint8_t *text = g_malloc(ksize);
    uint64_t bad = 0;
    uint32_t pc = 0;
    const char *insn = "";
    int max = -1;
    if (as_rw_bytes(m->as, TR_KERNEL_BASE, text, ksize, false, MEMTXATTRS(MEM_REQ_DEBUG, 0),
                    &bad) == MEMTX_OK) {
        max = tpc_text_max_tensor(text, ksize, &pc, &insn);
    }
    g_free(text);
    if (max >= (int)o->ntensor) {
        g_set_error(err, NX_ERROR, NX_ERROR_USAGE,
                    "%s: %s at pc=0x%08" PRIx32 " uses tensor %d, but %u tensor%s given "
                    "(-i/-o are descriptors 0..T-1; this kernel needs at least %d)",
                    o->kernel, insn, pc, max, o->ntensor, o->ntensor == 1 ? " is" : "s are",
                    max + 1);
        return false;
    }
    return true;
}

/* Before the run: every tensor lies in guest memory (an address near 2^64 or
 * on MMIO is a usage error, not a guest fault). */
static bool check_tensor_memory(Machine *m, const TrOptions *o, GError **err)
{
    for (unsigned i = 0; i < o->ntensor; i++) {
        const TrTensor *t = &o->tensor[i];
        if (t->bytes && (t->addr + t->bytes < t->addr || !as_is_ram(m->as, t->addr, t->bytes, 0))) {
            g_set_error(err, NX_ERROR, NX_ERROR_USAGE,
                        "%s %s: [0x%" G_GINT64_MODIFIER "x, +0x%" G_GINT64_MODIFIER
                        "x) is not memory (HBM, SBUF or PSUM)",
                        t->output ? "-o" : "-i", t->spec, t->addr, t->bytes);
            return false;
        }
    }
    return true;
}

static bool load_inputs(Machine *m, const TrOptions *o, const TrIo *io, GError **err)
{
    /* tensors are dense: huge pages make the loading of an input cheaper,
     * and an output's memory is backed before the run, so that the run's
     * time is the kernel's, not the host's first touches (which varied
     * 4x from run to run on a VM: bench/tpc-kernels.sh) */
    for (unsigned i = 0; i < o->ntensor; i++) {
        /* the viewer's region labels: "tensor 0: -i in.bin" */
        const TrTensor *t = &o->tensor[i];
        char *base = t->file ? g_path_get_basename(t->file) : NULL;
        char *name = g_strdup_printf("tensor %u: %s %s", o->ndesc ? o->desc[i] : i,
                                     t->output ? "-o" : "-i", base ? base : "(array)");
        machine_add_label(m, t->addr, t->bytes, name);
        g_free(name);
        g_free(base);
        as_hint_dense(m->as, o->tensor[i].addr, o->tensor[i].bytes);
        if (i >= o->ninputs)
            as_populate(m->as, o->tensor[i].addr, o->tensor[i].bytes);
    }
    for (unsigned i = 0; i < o->ninputs; i++) {
        const TrTensor *t = &o->tensor[i];
        void *data = NULL;
        if (!io->get_input(io->opaque, i, &data, err)) {
            return false;
        }
        bool ok = write_mem(m, t->addr, data, t->bytes, t->spec, err);
        if (io->free_input) {
            io->free_input(io->opaque, data);
        }
        if (!ok) {
            return false;
        }
    }
    return true;
}

static bool save_outputs(Machine *m, const TrOptions *o, const TrIo *io, GError **err)
{
    for (unsigned i = o->ninputs; i < o->ntensor; i++) {
        const TrTensor *t = &o->tensor[i];
        uint8_t *buf = g_malloc(t->bytes);
        uint64_t bad = 0;
        bool ok = as_rw_bytes(m->as, t->addr, buf, t->bytes, false, MEMTXATTRS(MEM_REQ_DEBUG, 0),
                              &bad) == MEMTX_OK;
        if (!ok) {
            /* checked before the run (check_tensor_memory) */
            g_set_error(err, NX_ERROR, NX_ERROR_LOAD,
                        "-o %s: address 0x%" G_GINT64_MODIFIER "x is not memory", t->spec, bad);
        }
        ok = ok && io->put_output(io->opaque, i, buf, err);
        g_free(buf);
        if (!ok) {
            return false;
        }
    }
    return true;
}

/* The viewer of --display sdl[,...] (nxemu's -display, parsed again by
 * nxemu's parser: tr_parse_args checked it already). */
static Viewer *open_viewer(Machine *m, const TrOptions *o, GError **err)
{
    NxOptions no;
    char *argv[] = {"nxemu", "-display", o->display, NULL};
    Viewer *v = NULL;
    if (nx_options_parse(&no, 3, argv, err)) {
        bool gdb = o->gdb || o->gdb_default;
        /* the kernel's picture by default: the activity zoom fits the maps
         * to the launch and starts the timeline at the first kernel, where
         * x1 shows the launcher's ~2000 cycles of set-up (zoom=1 keeps it) */
        bool zoom_given = strstr(o->display, ",zoom=") != NULL;
        ViewerOptions vo = {.hold_at_end = o->screendump_at_exit == NULL && !gdb,
                            .zoom_activity = zoom_given ? no.display_zoom_activity : true,
                            .scrub_set = no.display_scrub_set,
                            .scrub = no.display_scrub,
                            .data = no.display_data,
                            .dtype = no.display_dtype,
                            .cmap = no.display_cmap,
                            .screendump_at_exit = o->screendump_at_exit,
                            .gdb = gdb};
        v = viewer_new(m, &vo, err);
    }
    nx_options_free(&no);
    return v;
}

int tr_execute(TrOptions *o, const char *launcher, const TrIo *io, TrResult *res, GError **err)
{
    void *fdt = NULL;
    size_t fdt_size = 0;
    MachineConfig cfg;

    GString *report = res->report;
    memset(res, 0, sizeof(*res));
    res->report = report;
    bool want_poison = false;
    if (!check_kernel(o->kernel, err) ||
        !build_config(o, &fdt, &fdt_size, &cfg, &want_poison, err)) {
        g_free(fdt);
        return NX_EXIT_USAGE;
    }
    if (io->precheck && !io->precheck(io->opaque, err)) {
        g_free(fdt);
        return NX_EXIT_USAGE;
    }
    uint64_t top = cfg.hbm_size - (cfg.dtb_in_memory ? NC2_DTB_IN_MEM_BYTES : 0);
    if (!tr_place_tensors(o, top, err)) {
        g_free(fdt);
        return NX_EXIT_USAGE;
    }
    /* -D as nxemu's: a temporary file until the run is loaded (a load
     * error keeps the previous log), then published and written as it
     * goes, so tail -f follows the run (file-io.h). */
    NxOutput *logout = NULL;
    if (o->logfile && !(logout = nx_output_open("-D", o->logfile, err))) {
        g_free(fdt);
        return NX_EXIT_USAGE;
    }
    /* --profile, --profile-json, --profile-trace the same way: checked
     * now, written when the run ends */
    static const char *const prof_opt[3] = {"--profile", "--profile-json", "--profile-trace"};
    static void (*const prof_fmt[3])(GString *, Machine *, const TrOptions *) = {
        tr_profile_text, tr_profile_json, tr_profile_trace};
    const char *prof_file[3] = {o->profile, o->profile_json, o->profile_trace};
    NxOutput *profout[3] = {NULL, NULL, NULL};
    bool profiling = false;
    for (unsigned i = 0; i < 3; i++) {
        if (prof_file[i] && !(profout[i] = nx_output_open(prof_opt[i], prof_file[i], err))) {
            for (unsigned j = 0; j < i; j++)
                nx_output_discard(profout[j]);
            nx_output_discard(logout);
            g_free(fdt);
            return NX_EXIT_USAGE;
        }
        profiling |= prof_file[i] != NULL;
    }
    Machine *m = machine_new(&cfg, fdt, fdt_size, err);
    g_free(fdt);
    if (!m) {
        nx_output_discard(logout);
        for (unsigned i = 0; i < 3; i++)
            nx_output_discard(profout[i]);
        return NX_EXIT_USAGE;
    }
    /* -machine poison=on as nxemu's: reads of bytes nobody wrote, the
     * launcher's, the kernel's and the inputs' counting as written (the
     * outputs start as zeros nobody wrote) */
    NxPoison *poison = want_poison ? poison_new(m) : NULL;
    if (poison && res->report)
        poison_set_output(poison, res->report);
    m->log.mask = o->log_mask;
    if (logout) {
        m->log.file = nx_output_stream(logout); /* committed below, not by machine_free */
    }
    tpc_cpu_set_timing(m, o->timing, o->hazard_warn);
    nx_threads_set(m, o->threads);
    if (profiling)
        tpc_cpu_set_profile(m);
    if (o->has_cycle_limit) {
        m->sched.has_cycle_limit = true;
        m->sched.cycle_limit = o->cycle_limit;
    }

    /* -kernel launcher.elf -device loader,file=K.o,addr=KBASE,tpc-num=0 */
    LoaderItem items[2] = {
        {.kind = LOADER_KERNEL, .file = (char *)launcher},
        {.kind = LOADER_FILE,
         .file = o->kernel,
         .has_addr = true,
         .addr = TR_KERNEL_BASE,
         .has_tpc = true,
         .tpc_num = 0},
    };
    BindTable binds;
    bind_table_init(&binds);
    LoaderOptions lo = {.items = items, .nr_items = 2, .bindings = &binds};
    bool ok = loader_load(m, &lo, err);
    bind_table_destroy(&binds);

    uint8_t block[TR_BLOCK_LEN];
    if (ok) {
        /* the loader set TPC 0's KERNEL_SIZE from the .text size (tpc.md §7.1) */
        uint32_t ksize = m->board->tpccfg[0].kernel_size;
        if (ksize == 0 || TR_KERNEL_BASE + ksize > TR_TENSOR_BASE) {
            g_set_error(err, NX_ERROR, NX_ERROR_LOAD,
                        "%s: .text of %u bytes (must be 32..%llu bytes)", o->kernel, ksize,
                        TR_TENSOR_BASE - TR_KERNEL_BASE);
            ok = false;
        }
        fill_block(block, o, ksize);
    }
    ok = ok && check_tensor_memory(m, o, err) &&
         write_mem(m, TR_BLOCK_ADDR, block, sizeof(block), "parameter block", err) &&
         (machine_add_label(m, TR_BLOCK_ADDR, sizeof(block), "launch parameters"), true) &&
         load_inputs(m, o, io, err) &&
         check_tensor_count(m, o, m->board->tpccfg[0].kernel_size, err);
    /* --display sdl: opened after loading, as nxemu does, so the window
     * shows what the run does (the loader's writes are not marks). */
    Viewer *viewer = NULL;
    if (ok && o->display) {
        ok = (viewer = open_viewer(m, o, err)) != NULL;
    }
    if (!ok) {
        m->log.file = NULL;
        nx_output_discard(logout);
        for (unsigned i = 0; i < 3; i++)
            nx_output_discard(profout[i]);
        viewer_free(viewer);
        poison_free(poison);
        machine_free(m);
        return NX_EXIT_USAGE;
    }

    if (logout) {
        nx_output_publish(logout);
    }

    /* --check: after loading (the loader's and our writes are not the
     * kernel's), before the run */
    TrCheck *check = o->check ? tr_check_new(m, o, res->report) : NULL;
    if (check) {
        uint32_t ksize = m->board->tpccfg[0].kernel_size;
        uint8_t *text = g_malloc(ksize);
        uint64_t bad = 0;
        if (as_rw_bytes(m->as, TR_KERNEL_BASE, text, ksize, false, MEMTXATTRS(MEM_REQ_DEBUG, 0),
                        &bad) == MEMTX_OK)
            tr_check_types(check, text, ksize);
        g_free(text);
    }
    for (unsigned t = 0; o->stats && t < o->ntpc; t++) {
        TpcCpu *c = tpc_cpu_of(m, t);
        if (c)
            c->x.time_host = true; /* host time per TPC (cpu.c tpc_cpu_step) */
    }
    /* races between the TPCs: the caller's report takes their lines as the
     * checks' */
    TpcRace *race = tpc_race_new(m, o->race);
    tpc_race_set_output(race, res->report);
    /* the run alone: no start-up, tensor files or first-touch of the inputs */
    struct timespec t0, t1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    int rc;
    if (res->report) {
        /* the caller takes the diagnostic lines instead of stderr */
        rc = sched_run_report(m, res->report);
    } else if (o->gdb || o->gdb_default) {
        /* the same stub as nxemu -s/-gdb: the launcher and the TPCs are
         * inferiors; with -S nothing has run yet.  Reverse execution
         * re-executes this command line (softmmu/gdbstub-reverse.c): the
         * tensors are read again from their files, the outputs written
         * only at the end */
        GdbReplay replay = {
            .budget = o->replay_budget, .memory = o->replay_memory, .every = o->replay_every};
        rc = gdb_serve(m, o->gdb ? o->gdb : "tcp::1234", o->freeze, &replay, viewer);
    } else if (o->monitor_stdio) {
        rc = monitor_stdio_run(m, viewer, o->freeze); /* nxemu's -monitor stdio */
    } else if (viewer) {
        rc = viewer_run(m, viewer); /* nxemu's loop: refresh, end, screenshot */
    } else {
        rc = sched_run(m);
    }
    rc = tpc_race_end(race, rc); /* --race=fault: 122 */
    tpc_race_free(race);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
    if (check) {
        rc = tr_check_finish(check, rc);
        tr_check_free(check);
    }

    /* The cores' own counters: the BUNDLES/CYCLES registers are only latched
     * when a kernel ends, and a limit can stop one in the middle. */
    uint64_t bundles = 0, cycles = 0;
    for (unsigned t = 0; t < o->ntpc; t++) {
        TpcCpu *c = tpc_cpu_of(m, t);
        if (m->board->tpccfg[t].launcher != 0xFFFFFFFFu && c) {
            bundles += c->bundles;
            cycles += c->cycles;
            res->stalls += c->stall_cycles;
            res->hazards += c->hazards;
        }
    }
    if (o->stats) {
        /* which path ran each TPC's bundles, and how long (docs/tpc-run.rst) */
        res->paths = g_string_new(NULL);
        for (unsigned t = 0; t < o->ntpc; t++) {
            TpcCpu *c = tpc_cpu_of(m, t);
            if (!c || m->board->tpccfg[t].launcher == 0xFFFFFFFFu)
                continue;
            g_string_append_printf(
                res->paths,
                "nxemu-tpc-run: tpc%u bundles=%" PRIu64 " direct=%" PRIu64 " staged=%" PRIu64
                " loop=%" PRIu64 " hoist=%" PRIu64 " host=%.6f s\n",
                t, c->parent.retired, c->x.direct_total, c->parent.retired - c->x.direct_total,
                c->x.loop_total, c->x.hoist_total, (double)c->x.host_ns * 1e-9);
            if (c->x.jit_on) {
                /* the block compiler's bundles and the steps its bodies
                 * left to the direct path, by mnemonic (jit.h) */
                char called[512];
                tpc_jit_stats(c, called, sizeof called);
                g_string_append_printf(res->paths,
                                       "nxemu-tpc-run: tpc%u jit=%" PRIu64 " called:%s\n", t,
                                       c->x.jit_total, called[0] ? called : " none");
            }
        }
    }
    /* the stretches the pool ran, and those run again one TPC after
     * another because their TPCs raced (machine.rst) */
    res->threads = nx_threads_count(m);
    nx_threads_stretches(m, &res->stretches, &res->reruns);
    if (o->stats && res->threads > 1) {
        g_string_append_printf(
            res->paths, "nxemu-tpc-run: threads=%u stretches=%" PRIu64 " rerun=%" PRIu64 "\n",
            res->threads, res->stretches, res->reruns);
    }
    fflush(stdout);
    res->ntpc = o->ntpc;
    res->bundles = bundles;
    res->cycles = cycles;
    res->vtime = m->sched.end_vtime;
    res->run_seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    if (rc == 0 && !save_outputs(m, o, io, err)) {
        /* 126: the run ended, an output could not be written (file-io.h) */
        rc = err && g_error_matches(*err, NX_ERROR, NX_ERROR_OUTPUT) ? NX_EXIT_OUTPUT
                                                                     : NX_EXIT_USAGE;
    }
    for (unsigned i = 0; i < 3; i++) {
        if (!profout[i])
            continue;
        /* also after a fault or a limit: where the cycles went so far */
        GString *p = g_string_new(NULL);
        prof_fmt[i](p, m, o);
        fputs(p->str, nx_output_stream(profout[i]));
        g_string_free(p, TRUE);
        GError *perr = NULL;
        if (!nx_output_commit(profout[i], err && !*err ? err : &perr)) {
            if (perr) {
                fprintf(stderr, "nxemu-tpc-run: %s\n", perr->message);
                g_error_free(perr);
            }
            rc = NX_EXIT_OUTPUT;
        }
        profout[i] = NULL;
    }
    m->log.file = NULL;
    GError *lerr = NULL;
    if (logout && !nx_output_commit(logout, err && !*err ? err : &lerr)) {
        if (lerr) {
            /* an output error came first: this one only on stderr */
            fprintf(stderr, "nxemu-tpc-run: %s\n", lerr->message);
            g_error_free(lerr);
        }
        rc = NX_EXIT_OUTPUT;
    }
    viewer_free(viewer); /* its access hook leaves before the machine */
    poison_free(poison); /* after the viewer, which hooked after it */
    machine_free(m);
    return rc;
}

const char *tr_fail_reason(int rc)
{
    return rc == 2   ? "bad parameter block magic"
           : rc == 3 ? "bad TPC count"
           : rc == 4 ? "malformed parameter block"
                     : "unknown";
}
