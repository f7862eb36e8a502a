/*
 * gdb remote stub (softmmu/gdbstub*.c), for Debian's stock gdb-multiarch.
 *
 * Each core is one gdb process (multiprocess extension, `target
 * extended-remote`): sequencer n is pid n + 1, TPC t is pid nr_seq + t + 1,
 * each with a single thread 1.  Sequencers pose as riscv:rv64, TPCs as
 * riscv:rv32 (docs/gdb.rst explains why and what that means for users).
 *
 * Register contract: the stub calls cpu->ops->gdb_read_reg/gdb_write_reg
 * with the CORE numbers below (little-endian bytes), and builds gdb's own
 * numbering (the target description) from them.  Reads return the byte
 * count shown; writes to read-only numbers return 0.
 */
#ifndef NXEMU_GDBSTUB_H
#define NXEMU_GDBSTUB_H

#include <stdbool.h>

#include "nxemu/machine.h"

/* Sequencer core register numbers. */
enum {
    GDB_SEQ_R0 = 0,          /* r0..r63: 4 bytes */
    GDB_SEQ_PC = 64,         /* 8 bytes, Neuron address */
    GDB_SEQ_STATUS = 65,     /* 4 bytes, read only: STATUS register */
    GDB_SEQ_FAULT_CODE = 66, /* 4 bytes, read only */
    GDB_SEQ_FAULT_INFO = 67, /* 4 bytes, read only */
    GDB_SEQ_FAULT_PC = 68,   /* 8 bytes, read only */
    GDB_SEQ_FAULT_ADDR = 69, /* 8 bytes, read only */
    GDB_SEQ_RETIRED = 70,    /* 8 bytes, read only */
    GDB_SEQ_NREGS = 71,
};

/* TPC core register numbers. */
enum {
    GDB_TPC_S = 0,    /* S0..S35: 4 bytes */
    GDB_TPC_SP = 36,  /* SP0..SP15: 1 byte (0/1); SP0 reads 1, writes ignored */
    GDB_TPC_V = 52,   /* V0..V39: 256 bytes */
    GDB_TPC_VP = 92,  /* VP0..VP15: 32 bytes (bit j = vector byte j) */
    GDB_TPC_I = 108,  /* I0..I31: 20 bytes (5 x int32) */
    GDB_TPC_AD = 140, /* AD0..AD7: 8 bytes (PA) */
    GDB_TPC_PC = 148, /* 4 bytes: byte offset from KERNEL_BASE */
    GDB_TPC_NREGS = 149,
};

/*
 * Serve gdb on dev ("tcp::PORT", "tcp:HOST:PORT", "unix:PATH"; tcp listens
 * on 127.0.0.1 unless a host is given) and run the machine under its
 * control.  With start_stopped (-S) no core runs before gdb resumes it;
 * otherwise the machine runs while waiting for gdb.  Returns the process
 * exit status (machine.md §9.2); 125 if dev cannot be used (message on
 * stderr).  replay: the reverse-execution settings (NULL: off).  viewer:
 * the -display sdl window the stub keeps drawn and answering while gdb
 * holds the machine (NULL: none; the caller owns it).
 */
typedef struct Viewer Viewer; /* nxemu/viewer.h */
typedef struct GdbReplay {
    /* most steps (nx_rev_position) one reverse command may re-execute; 0:
     * no reverse execution (-replay-budget, softmmu/gdbstub-reverse.c) */
    uint64_t budget;
    /* the memory the snapshots of the run may hold, in bytes (0: none,
     * every reverse command re-executes from the start; -replay-memory),
     * and the steps between two of them at first (-replay-every,
     * softmmu/gdbstub-snap.c) */
    uint64_t memory, every;
} GdbReplay;
int gdb_serve(Machine *m, const char *dev_opts, bool start_stopped, const GdbReplay *replay,
              Viewer *viewer);

#endif
