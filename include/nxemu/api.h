/*
 * A small C API over the whole emulator, for bindings (python/nxemu, ctypes
 * over libnxemu.so; docs/python.rst).  Nothing here exits the process or
 * prints a diagnostic: host-side errors come back as nxemu's one-line
 * message (without the "nxemu: " prefix) in *err (free with nxapi_free_str)
 * and status 125; a run's diagnostic lines come back as text.
 */
#ifndef NXEMU_API_H
#define NXEMU_API_H

#include <stddef.h>
#include <stdint.h>

#define NXAPI_EXPORT __attribute__((visibility("default")))

typedef struct NxApi NxApi;

/* A machine from nxemu command-line options (argv[0] is the program name,
 * as for main): -M/-machine, -m, -smp, -dtb, -kernel, -device loader, -bind,
 * -fit-config, -d, -D, -icount-limit, -cycle-limit, -tpc-strict.  Images
 * given are loaded.  Options that need a terminal, socket or window
 * (-gdb, -s, -S, -display, -trace-json, -coverage, poison, -dump-dtb,
 * -help, -version) are refused.  NULL + *err on error. */
NXAPI_EXPORT NxApi *nxapi_new(int argc, char **argv, char **err);
NXAPI_EXPORT void nxapi_free(NxApi *a);
/* More images: -kernel FILE / -device loader,... options as above (the
 * loader's rules of machine.md §11; -kernel starts core 0).  0 or 125. */
NXAPI_EXPORT int nxapi_load(NxApi *a, int argc, char **argv, char **err);
/* Run until the machine ends or the limits hit (0 = keep the machine's
 * own; the cycle limit is absolute, the icount limit counts sequencer
 * instructions machine-wide).  Returns the exit status of machine.md §9.2;
 * *report gets the diagnostic lines (fault, deadlock, limit; "" after a
 * normal end).  A machine that has ended stays ended. */
NXAPI_EXPORT int nxapi_run(NxApi *a, uint64_t cycle_limit, uint64_t icount_limit, char **report);
/* Run on from where the machine is: until it ends, `icount` more
 * sequencer instructions (machine-wide) retired (0: no such stop), or the
 * absolute cycle_limit (0: the machine's own).  The icount stop comes at
 * the end of the round it falls in and leaves the machine able to go on:
 * NXAPI_PAUSED.  SIGINT during the run (the handler is this call's, the
 * caller's is back afterwards) stops it at the next round boundary, able
 * to go on: NXAPI_INTERRUPTED, *report saying where.  Otherwise as
 * nxapi_run. */
#define NXAPI_PAUSED      (-1)
#define NXAPI_INTERRUPTED (-2)
NXAPI_EXPORT int nxapi_run_for(NxApi *a, uint64_t cycle_limit, uint64_t icount, char **report);
/* 1 once the machine has ended (normal end, PASS/FAIL, fault, limit...). */
NXAPI_EXPORT int nxapi_ended(NxApi *a);
/* The test device's console output since the last call (free with
 * nxapi_free_str): the API's machines capture it instead of printing it. */
NXAPI_EXPORT char *nxapi_console(NxApi *a);
/* Guest memory by PA, as the debugger accesses it (no fault, no timing).
 * An aligned 4- or 8-byte access outside memory is a device register
 * access as a sequencer's load or store makes it, side effects included.
 * 0, or 125 + *err naming the first address that is not memory. */
NXAPI_EXPORT int nxapi_mem_rw(NxApi *a, uint64_t addr, void *buf, uint64_t len, int is_write,
                              char **err);
/* Number of sequencers (kind 0) or TPCs (kind 1). */
NXAPI_EXPORT unsigned nxapi_cpu_count(NxApi *a, int kind);
/* Core register access by the core's register number (include/nxemu/gdbstub.h:
 * GDB_SEQ_*, GDB_TPC_*).  Returns the bytes transferred, 0 for an unknown
 * core or register (or buflen too small). */
NXAPI_EXPORT unsigned nxapi_reg_rw(NxApi *a, int kind, unsigned index, unsigned reg, void *buf,
                                   size_t buflen, int is_write);
/* Core state (CpuState: 0 RESET .. 4 FAULTED), -1 for no such core. */
NXAPI_EXPORT int nxapi_cpu_state(NxApi *a, int kind, unsigned index);
/* Virtual time and sequencer instructions retired so far. */
NXAPI_EXPORT uint64_t nxapi_vtime(NxApi *a);
NXAPI_EXPORT uint64_t nxapi_icount(NxApi *a);

/* One TPC kernel launch as nxemu-tpc-run does it (docs/tpc-run.rst):
 * argv are its options (-k, -n, --index-space, -i/-o NAME:SHAPE:DTYPE
 * specs whose file names are ignored, --arg, -M, ...); inputs[i] hold the
 * input tensors' bytes, outputs[j] receive the output tensors' bytes after
 * a run with status 0.  stats (may be NULL) gets bundles, cycles, vtime,
 * stall cycles and early reads (the timing model's, docs/timing.rst), the
 * TPCs' host threads, the stretches run on them and those of them run again
 * one TPC after another (docs/machine.rst "Host threads").
 * Returns the exit status; *report the run's diagnostics; 125 + *err for a
 * host-side error.  SIGINT ends the run at the next round boundary: status
 * 130 (the handler is this call's, the caller's is back afterwards). */
NXAPI_EXPORT int nxapi_tpc_run(int argc, char **argv, const char *launcher,
                               const void *const *inputs, void *const *outputs, uint64_t stats[8],
                               char **report, char **err);

/* Assemble TPC source into an ELF object (nxemu-as -t tpc): 0 and the
 * bytes in *out and *len (free with nxapi_free_str), with the assembler's
 * warning lines in *err (NULL: none), or 1 and the assembler's
 * "name:line:col: error: ..." lines in *err. */
NXAPI_EXPORT int nxapi_tpc_assemble(const char *name, const char *text, uint8_t **out,
                                    size_t *len, char **err);
/* Sequencer assembly file to file (nxemu-as): 0, or 1 and *err. */
NXAPI_EXPORT int nxapi_seq_assemble_file(const char *src, const char *out, int raw, char **err);

/* The reference launcher (pc-bios/launcher.elf) that belongs to this
 * library: the build tree's, or the installed one; NULL when there is none
 * (free with nxapi_free_str). */
NXAPI_EXPORT char *nxapi_launcher_path(void);

NXAPI_EXPORT void nxapi_free_str(void *p);
/* "0.1.0 (git REV)" */
NXAPI_EXPORT const char *nxapi_version(void);

#endif
