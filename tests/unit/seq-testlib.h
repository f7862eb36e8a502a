/*
 * Helpers shared by the sequencer unit tests (test-seq-exec-*.c,
 * test-seq-decode*.c): a real board with small sizes, memory pokes, a
 * program builder, and records built byte by byte from the layouts of
 * sequencer.md §8 (not with the assembler, so that the assembler is not
 * trusted by the execution tests); for the ISA-table tests, one-line
 * assembly and hex-row records.
 */
#ifndef TESTS_UNIT_SEQ_TESTLIB_H
#define TESTS_UNIT_SEQ_TESTLIB_H

#include <stdbool.h>
#include <stdint.h>

#include <glib.h>

#include "nxemu/machine.h"

#define CODE     0x01000000ull
#define DATA     0x02000000ull
#define TESTDEV  0x2805000000ull
#define SBUF     0x2000000000ull
#define NX_LOCAL 0x100000ull

/* ---- machine fixture ---------------------------------------------------- */

/* nr_seq cores, 64 MiB HBM, 4 TLB entries, quantum 64, 2 DMA engines of
 * queue depth 4, 64 bytes/cycle, latency 32. */
Machine *mk(unsigned nr_seq);
void put(Machine *m, uint64_t pa, const void *buf, uint64_t len);
uint64_t get(Machine *m, uint64_t pa, unsigned size);
void put32(Machine *m, uint64_t pa, uint32_t v);
void start(Machine *m, unsigned core, uint64_t pc);
int run(Machine *m);

/* A program under construction: records appended from `at`. */
typedef struct Prog {
    Machine *m;
    uint64_t at;
} Prog;

uint64_t emit(Prog *p, const uint8_t rec[64]);

/* ---- record builders (byte layouts of sequencer.md §8) ------------------ */

void le(uint8_t *p, uint64_t v, unsigned n);
void hdr(uint8_t r[64], uint8_t opc);
void ev(uint8_t r[64], uint8_t wmode, uint8_t widx, uint8_t umode, uint8_t uidx, uint32_t v);
void r_halt(uint8_t r[64]);
void r_nop(uint8_t r[64]);
/* mov.u32 {dst}, {imm} */
void r_movi(uint8_t r[64], uint8_t dst, uint32_t imm);
/* mov.u32 {dst}, {src} (src may be 128/129) */
void r_movr(uint8_t r[64], uint8_t dst, uint8_t src);
/* 32-bit ALU: dst = s0 op (imm ? immediate : s1) */
void r_alu(uint8_t r[64], uint8_t op, uint8_t dt, uint8_t dst, uint8_t s0, uint8_t s1, bool use_imm,
           uint64_t imm);
/* 64-bit ALU on pairs (hi:lo). */
void r_alu64(uint8_t r[64], uint8_t op, uint8_t dt, uint8_t dlo, uint8_t dhi, uint8_t alo,
             uint8_t ahi, bool use_imm, uint64_t imm, uint8_t blo, uint8_t bhi);
/* bCC.T lhs, imm, REL_IMM offset (cmp 1..6 with immediate; 0 = always) */
void r_bimm(uint8_t r[64], uint8_t cmp, uint8_t dt, uint8_t lhs, uint32_t rhs, int32_t rel);
/* write.u32 [imm addr], imm */
void r_write(uint8_t r[64], uint64_t addr, uint32_t v);
/* ADDR8 forms */
void a8_imm(uint8_t *a, uint64_t v);
void a8_reg(uint8_t *a, uint8_t lo, uint8_t hi);
/* mem_2d (tld 0xAA / tst 0xAB) with register data */
void r_m2d(uint8_t r[64], uint8_t opc, uint8_t dt, uint8_t n0, uint8_t n1, int32_t s0, int32_t s1,
           const uint8_t *regs, unsigned nregs);

/* ---- running ------------------------------------------------------------ */

/* A fresh one-core machine running recs from CODE: *status = sched_run. */
Machine *run_single(const uint8_t (*recs)[64], unsigned n, int *status);
void fault_line(Machine *m, GString *g);
/* One faulting instruction after setting r1..: returns the machine. */
Machine *run_fault(const uint8_t *setup_regs_rec, const uint8_t *insn, int *st);

/* ---- ISA-table tests ---------------------------------------------------- */

#define PC0 0x01000000ull

/* Assemble one instruction (aborts the test with the message on error). */
void asm1(const char *text, uint64_t pc, uint8_t rec[64]);
/* Parse "00: aa 10 ..." rows (omitted rows zero) into rec. */
void rows(const char *spec, uint8_t rec[64]);
/* Byte-exact record comparison, naming every differing byte. */
void assert_rec(const uint8_t *got, const uint8_t *want);

#endif
