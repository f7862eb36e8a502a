/*
 * nxemu-tpc-run: run a TPC kernel ELF on N TPC cores with tensors from files
 * (docs/tpc-run.rst).  It drives the whole machine in-process: the default
 * (or given) device tree with -machine edits, the reference launcher of
 * pc-bios/launcher.s on sequencer 0, the kernel loaded like
 * `-device loader,...,tpc-num=0`, the parameter block of machine.md §6 and
 * the input tensors written into HBM, then the ordinary scheduler.  Output
 * tensors are read from HBM afterwards.  Nothing bypasses the machine: the
 * launcher configures and starts the TPCs through their windows.  The launch
 * itself is tr_execute (api/tpc-run-core.c); this file is files and messages.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hw/nc2/fdt.h"
#include "api/tpc-run.h"
#include "nxemu-version.h"
#include "nxemu/error.h"
#include "nxemu/file-io.h"
#include "nxemu/loader.h"
#include "nxemu/sched.h"
#include "nxemu/signal.h"
#include "softmmu/options.h"
#include "target/tpc/cpu.h"

/* 125, or 126 for an output that cannot be written (as nxemu). */
static int fail(GError *err)
{
    int rc = err && g_error_matches(err, NX_ERROR, NX_ERROR_OUTPUT) ? NX_EXIT_OUTPUT
                                                                   : NX_EXIT_USAGE;
    fflush(stdout);
    fprintf(stderr, "nxemu-tpc-run: %s\n", err ? err->message : "error");
    g_clear_error(&err);
    return rc;
}

/* --launcher, $NXEMU_TPC_LAUNCHER, the build tree (tools/../pc-bios), the
 * install tree (bin/../share/nxemu). */
static char *find_launcher(const TrOptions *o, GError **err)
{
    if (o->launcher) {
        return g_strdup(o->launcher);
    }
    const char *env = g_getenv("NXEMU_TPC_LAUNCHER");
    if (env && *env) {
        return g_strdup(env);
    }
    char *exe = g_file_read_link("/proc/self/exe", NULL);
    if (exe) {
        char *dir = g_path_get_dirname(exe);
        char *cand[] = {
            g_build_filename(dir, "..", "pc-bios", "launcher.elf", NULL),
            g_build_filename(dir, "..", "share", "nxemu", "launcher.elf", NULL),
        };
        char *found = NULL;
        for (size_t i = 0; i < G_N_ELEMENTS(cand); i++) {
            if (!found && g_file_test(cand[i], G_FILE_TEST_IS_REGULAR)) {
                found = cand[i];
            } else {
                g_free(cand[i]);
            }
        }
        g_free(dir);
        g_free(exe);
        if (found) {
            return found;
        }
    }
    g_set_error(err, NX_ERROR, NX_ERROR_USAGE,
                "launcher.elf not found next to the binary (give --launcher FILE or set "
                "NXEMU_TPC_LAUNCHER)");
    return NULL;
}

/* The files of one run: output tensors are opened (validated) before the
 * run, written and committed after a successful one, discarded otherwise
 * (include/nxemu/file-io.h). */
typedef struct RunFiles {
    TrOptions *o;
    NxOutput *out[TR_MAX_TENSORS];
} RunFiles;

static void discard_outputs(RunFiles *f)
{
    for (unsigned i = 0; i < TR_MAX_TENSORS; i++) {
        nx_output_discard(f->out[i]);
        f->out[i] = NULL;
    }
}

static bool open_outputs(void *opaque, GError **err)
{
    RunFiles *f = opaque;
    for (unsigned i = f->o->ninputs; i < f->o->ntensor; i++) {
        const TrTensor *t = &f->o->tensor[i];
        g_autofree char *what = g_strdup_printf("-o %s", t->spec);
        f->out[i] = nx_output_open(what, t->file, err);
        if (!f->out[i]) {
            discard_outputs(f);
            return false;
        }
    }
    return true;
}

/* Input tensors from their files (the size must match the shape), output
 * tensors to theirs. */
static bool read_input(void *opaque, unsigned i, void **data, GError **err)
{
    const TrTensor *t = &((RunFiles *)opaque)->o->tensor[i];
    NxInput in;
    size_t len = 0;
    /* a regular file of at most 4 GiB, its size checked before reading */
    if (!nx_input_open(&in, "-i", t->file, NX_FILE_IMAGE, err)) {
        return false;
    }
    if (in.size != t->bytes) {
        g_set_error(err, NX_ERROR, NX_ERROR_LOAD,
                    "-i %s: file has %" G_GUINT64_FORMAT " bytes, the shape needs %" G_GUINT64_FORMAT,
                    t->spec, in.size, t->bytes);
        nx_input_close(&in);
        return false;
    }
    *data = nx_input_read_all(&in, &len, err);
    nx_input_close(&in);
    return *data != NULL;
}

static void free_input(void *opaque, void *data)
{
    g_free(data);
}

static bool write_output(void *opaque, unsigned i, const void *data, GError **err)
{
    RunFiles *f = opaque;
    NxOutput *out = f->out[i];
    f->out[i] = NULL;
    fwrite(data, 1, f->o->tensor[i].bytes, nx_output_stream(out));
    return nx_output_commit(out, err);
}

static int run(TrOptions *o)
{
    GError *err = NULL;
    char *launcher = find_launcher(o, &err);
    if (!launcher) {
        return fail(err);
    }
    RunFiles files = {.o = o};
    TrIo io = {.opaque = &files,
               .precheck = open_outputs,
               .get_input = read_input,
               .free_input = free_input,
               .put_output = write_output};
    TrResult res = {.report = NULL}; /* diagnostics to stderr */
    int rc = tr_execute(o, launcher, &io, &res, &err);
    discard_outputs(&files); /* what a failed or stopped run did not write */
    g_free(launcher);
    if (err && res.ntpc == 0) {
        return fail(err); /* nothing ran */
    }
    if (err) {
        /* the run ended but an output could not be saved */
        fprintf(stderr, "nxemu-tpc-run: %s\n", err->message);
        g_clear_error(&err);
    } else if (rc >= 1 && rc <= 122 && !(o->check == 2 && rc == TR_EXIT_CHECK) &&
               !(o->race == 2 && rc == TR_EXIT_RACE)) {
        fprintf(stderr, "nxemu-tpc-run: launcher failed with code %d (%s)\n", rc,
                tr_fail_reason(rc));
    }
    fprintf(stderr,
            "nxemu-tpc-run: tpcs=%u bundles=%" G_GUINT64_FORMAT " cycles=%" G_GUINT64_FORMAT
            " vtime=%" G_GUINT64_FORMAT "\n",
            res.ntpc, res.bundles, res.cycles, res.vtime);
    if (o->timing != TPC_TIMING_FUNCTIONAL || o->hazard_warn) {
        fprintf(stderr,
                "nxemu-tpc-run: timing=%s stall_cycles=%" G_GUINT64_FORMAT
                " hazards=%" G_GUINT64_FORMAT "\n",
                tpc_timing_name(o->timing), res.stalls, res.hazards);
    }
    if (o->time) {
        fprintf(stderr, "nxemu-tpc-run: run time %.6f s (host CPU)\n", res.run_seconds);
    }
    if (res.paths) {
        fputs(res.paths->str, stderr);
        g_string_free(res.paths, TRUE);
    }
    return rc;
}

int main(int argc, char **argv)
{
    TrOptions o;
    GError *err = NULL;
    int rc;

    if (!tr_parse_args(&o, argc, argv, &err)) {
        tr_options_free(&o);
        return fail(err);
    }
    if (o.version) {
        fputs(NXEMU_VERSION_LINE("nxemu-tpc-run"), stdout);
        rc = 0;
    } else if (o.help || o.help_shown) {
        if (o.help) {
            fputs(tr_usage, stdout);
        }
        rc = 0;
    } else {
        nx_signals_install(false);
        rc = run(&o);
    }
    tr_options_free(&o);
    return rc;
}
