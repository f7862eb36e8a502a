/*
 * Sequencer records on a live machine (target/seq decode and execute): the
 * input is a flags byte and then up to 64 records of 64 bytes placed at
 * 0x1000000 and run by core 0 (and core 1 too, flag 1) for at most a few
 * hundred instructions, with the DMA engines, events and TPC launches they
 * ask for.  Flag 2 lowers pseudo instructions first, as the loader does.
 * Every record is also disassembled (seq_disas_insn).
 */
#include "hw/nc2/board.h"
#include "fuzz.h"

#include <string.h>

#include "nxemu/loader.h"
#include "target/seq/asm.h"

#define CODE 0x1000000ull

static bool no_sym(void *opaque, const char *name, uint64_t *value)
{
    return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 + 64 || size > 1 + 64 * 64) {
        return 0;
    }
    uint8_t flags = data[0];
    size_t len = (size - 1) / 64 * 64;
    uint8_t *code = g_memdup2(data + 1, len);
    GError *err = NULL;
    if (flags & 2) {
        BindTable bt;
        bind_table_init(&bt);
        bind_table_add(&bt, 1, 0x2000000, "-bind", &err);
        bool ok = seq_lower_stream(code, len, "fuzz", 0, &bt, no_sym, NULL, &err);
        g_clear_error(&err);
        bind_table_destroy(&bt);
        if (!ok) {
            g_free(code);
            return 0;
        }
    }
    GString *txt = g_string_new(NULL);
    for (size_t i = 0; i < len; i += 64) {
        g_string_truncate(txt, 0);
        seq_disas_insn(code + i, CODE + i, txt);
    }
    g_string_free(txt, TRUE);

    Machine *m = fuzz_machine(2, 1);
    if (m) {
        uint64_t bad;
        if (as_rw_bytes(m->as, CODE, code, len, true, MEMTXATTRS(MEM_REQ_LOADER, 0), &bad) ==
            MEMTX_OK) {
            for (unsigned c = 0; c < ((flags & 1) ? 2u : 1u); c++) {
                m->board->nx[c].entry = CODE;
                m->board->nx[c].regs.pc = CODE;
                m->seq[c]->state = CPU_RUNNING;
            }
            fuzz_run(m, 64, 300, 20000);
        }
        machine_free(m);
    }
    g_free(code);
    return 0;
}
