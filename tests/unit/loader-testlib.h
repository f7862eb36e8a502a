/*
 * Helpers shared by the loader unit tests (test-loader.c, test-loader-fit.c):
 * a real machine, byte-exact ELF builders (glibc <elf.h> layouts) and
 * LoaderOptions plumbing.  Images are written to a per-process temporary
 * directory so they are loaded exactly as a user's files are.
 */
#ifndef TESTS_UNIT_LOADER_TESTLIB_H
#define TESTS_UNIT_LOADER_TESTLIB_H

#include <elf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <glib.h>

#include "nxemu/loader.h"
#include "nxemu/machine.h"

#define HBM_SIZE  (64ull << 20)
#define TEXT_ADDR 0x1000000ull
#define DATA_ADDR 0x1100000ull
#define ENTRY     0x1000040ull

typedef struct Seg {
    uint32_t flags;
    uint64_t paddr;
    const uint8_t *data;
    uint64_t filesz, memsz;
} Seg;

typedef struct Sec {
    const char *name;
    uint32_t type;
    const void *data;
    uint64_t size;
    uint32_t link, info;
    uint64_t entsize;
} Sec;

/* Offsets a test needs to corrupt a good image precisely. */
typedef struct ElfLayout {
    size_t phoff, shoff, sec_off[8];
} ElfLayout;

typedef struct Run {
    LoaderItem items[8];
    unsigned n;
    BindTable bt;
    const char *fit_config;
} Run;

typedef struct TpcOpts {
    uint32_t text_size;
    uint32_t version;
    uint16_t march;
    bool with_rel;
    bool without_md;
} TpcOpts;

/* Offsets of program header i fields in the good ELF. */
#define PH(i, field) (sizeof(Elf64_Ehdr) + (i) * sizeof(Elf64_Phdr) + offsetof(Elf64_Phdr, field))

/* Payloads of the good images (filled by loader_testlib_init). */
extern uint8_t text2[128];
extern uint8_t data16[16];
extern uint8_t tpc_text[96];

/* g_test_init, payloads, temporary directory; cleanup removes it. */
void loader_testlib_init(int *argc, char ***argv);
void loader_testlib_cleanup(void);

/* Default tree with HBM_SIZE, nr_seq sequencers, nr_tpc TPCs (DTB in memory). */
Machine *make_machine(unsigned nr_seq, unsigned nr_tpc);
/* Debug-attribute reads/fills of guest memory (must succeed). */
void rd(Machine *m, uint64_t addr, void *buf, uint64_t len);
void fill(Machine *m, uint64_t addr, uint8_t v, uint64_t len);
/* Image file in the temporary directory; returns its path. */
char *write_tmp(const char *name, const void *data, size_t len);
void put(GByteArray *b, size_t off, const void *p, size_t n);
size_t align_up(size_t v, size_t a);
/* ELF64 sequencer image: PT_LOAD per seg, secs as sections 1.., then .shstrtab. */
GByteArray *build_elf64(uint64_t entry, const Seg *segs, unsigned nsegs, const Sec *secs,
                        unsigned nsecs, ElfLayout *lay);
/* A 64-byte record: opcode, inst_word_len 0x10, tag in byte 63. */
void rec(uint8_t *p, uint8_t op, uint8_t tag);
void init_payloads(void);
/* text2 (R+X) at TEXT_ADDR, data16 (R+W, memsz 64) at DATA_ADDR, entry ENTRY. */
GByteArray *good_seq_elf(const Sec *secs, unsigned nsecs, ElfLayout *lay);
void set16(GByteArray *b, size_t off, uint16_t v);
void set32(GByteArray *b, size_t off, uint32_t v);
void set64(GByteArray *b, size_t off, uint64_t v);
/* LoaderOptions plumbing; run_load destroys the run's binding table. */
void run_init(Run *r);
LoaderItem *add_item(Run *r, LoaderKind kind, const char *file);
bool run_load(Run *r, Machine *m, GError **err);
/* Load error "<path>: offset 0x<off>: ...<reason>..." on one line. */
void expect_file_error(const char *path, uint64_t off, const char *reason);
void expect_elf_error(GByteArray *b, uint64_t off, const char *reason);
/* One 16-byte binding record (machine.md §11.4). */
void brec(uint8_t *p, uint32_t var, uint64_t addr);
/* ELF32 EM_386 TPC kernel: .text (tpc_text), .tpc_metadata, optional .rel.text. */
GByteArray *build_tpc_elf(const TpcOpts *o, size_t *text_off);

#endif
