/*
 * In-tree fuzz targets (docs/fuzzing.rst).  Each fuzz-*.c defines
 * LLVMFuzzerTestOneInput; with ./configure --enable-fuzzing it links
 * libFuzzer, otherwise standalone.c (a main that runs the target once per
 * file named on the command line: the corpus replay of `make check`).
 *
 * Every target must be deterministic, free all it allocates and stay fast:
 * inputs are capped (FUZZ_MAX_INPUT) and so are instructions and rounds.
 */
#ifndef TESTS_FUZZ_FUZZ_H
#define TESTS_FUZZ_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nxemu/machine.h"

#define FUZZ_MAX_INPUT (64u << 10)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* An input as a file the emulator opens by path (a memfd behind
 * /proc/self/fd/N): the loaders and readers take paths. */
typedef struct FuzzFile {
    int fd;
    char path[48];
} FuzzFile;

bool fuzz_file_open(FuzzFile *f, const void *data, size_t size);
void fuzz_file_close(FuzzFile *f);

/* The default board with 64 MiB HBM, nr_seq sequencers and nr_tpc TPCs
 * (default tree, DTB in memory); NULL if it cannot be built. */
Machine *fuzz_machine(unsigned nr_seq, unsigned nr_tpc);
/* Run at most max_rounds scheduler rounds with an instruction limit of
 * icount and a cycle limit (so every run ends); build the end report (and
 * drop it).  Returns the stop reason. */
StopReason fuzz_run(Machine *m, unsigned max_rounds, uint64_t icount, uint64_t cycles);

/* Little-endian reads from the input; 0 past its end. */
typedef struct FuzzIn {
    const uint8_t *p;
    size_t n;
} FuzzIn;

uint64_t fuzz_take(FuzzIn *in, unsigned bytes);

#endif
