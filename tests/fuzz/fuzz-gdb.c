/*
 * gdb remote protocol (softmmu/gdbstub-packet.c, gdbstub-cmds.c): the input
 * is the byte stream gdb would send, fed through the stub's receiver
 * (gdb_rx_byte) and packet handler (gdb_handle_packet) on a live machine
 * (two sequencers, one TPC; core 0 runs tests/gdb/loop.s), as the session
 * loop of softmmu/gdbstub.c does but without a socket (replies go
 * nowhere).  Resumes run at most a few scheduler rounds, steps one
 * instruction; kill and detach end the session (extended-remote: the
 * machine runs on a few rounds and gdb may attach again).
 */
#include "hw/nc2/board.h"
#include "fuzz.h"

#include <string.h>

#include "nxemu/debug.h"
#include "nxemu/sched.h"
#include "softmmu/gdbstub-int.h"
#include "target/seq/asm.h"

#define CODE 0x1000000ull

static const char *const loop_s[] = {
    "mov.u32 {r1}, {0}",
    "add.u32 r1, r1, 1",
    "tst.u32 [0x02000000], {r1}, shape=(1,1), step=(0,0)",
    "blt.u32 r1, 5, loop",
    "mov.u32 {r2}, {0x5555}",
    "write.u32 [0x2805000000], r2",
    "halt",
};
static uint8_t prog[G_N_ELEMENTS(loop_s)][64];
static bool have_prog;

static bool label(void *opaque, const char *name, uint64_t *value)
{
    if (strcmp(name, "loop")) {
        return false;
    }
    *value = CODE + 64;
    return true;
}

static void build_prog(void)
{
    GString *err = g_string_new(NULL);
    have_prog = true;
    for (unsigned i = 0; i < G_N_ELEMENTS(loop_s); i++) {
        if (!seq_asm_insn_text(loop_s[i], CODE + 64 * i, label, NULL, prog[i], err)) {
            g_error("fuzz-gdb: '%s': %s", loop_s[i], err->str);
        }
    }
    g_string_free(err, TRUE);
}

/* Run control of softmmu/gdbstub.c (resume/step), bounded. */
static void act(GdbStub *s, GString *out)
{
    Machine *m = s->m;
    bool ended = m->stop_reason != STOP_NONE && m->stop_reason != STOP_DEBUG;
    unsigned pid = s->action == GDB_ACT_STEP ? s->step_pid : s->g_pid;
    if (!ended) {
        if (s->action == GDB_ACT_CONT) {
            gdb_prepare_resume(s);
            for (unsigned r = 0; r < 4 && fuzz_run(m, 1, 2000, 100000) == STOP_NONE; r++) {
            }
        } else {
            NxCpu *cpu = gdb_cpu_of_pid(s, pid);
            if (cpu) {
                gdb_step_core(s, cpu);
            }
        }
    }
    g_string_truncate(out, 0);
    if (gdb_cpu_of_pid(s, pid)) {
        gdb_stop_reply(s, out, pid, GDB_SIGTRAP);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > FUZZ_MAX_INPUT) {
        return 0;
    }
    if (!have_prog) {
        build_prog();
    }
    Machine *m = fuzz_machine(2, 1);
    if (!m) {
        return 0;
    }
    uint64_t bad;
    as_rw_bytes(m->as, CODE, prog, sizeof(prog), true, MEMTXATTRS(MEM_REQ_LOADER, 0), &bad);
    m->board->nx[0].entry = CODE;
    m->board->nx[0].regs.pc = CODE;
    m->seq[0]->state = CPU_RUNNING;

    /* gdb_serve() and session() without the transport */
    GdbStub st = {0}, *s = &st;
    s->m = m;
    s->conn = -1;
    s->listener = -1;
    s->nr_proc = m->cfg.nr_seq + m->cfg.nr_tpc;
    s->proc = g_new0(NxCpu *, s->nr_proc);
    s->attached = g_new0(bool, s->nr_proc);
    s->last_state = g_new0(CpuState, s->nr_proc);
    s->run_set = g_new0(bool, s->nr_proc);
    s->resumed = g_new0(bool, s->nr_proc);
    for (unsigned i = 0; i < m->cfg.nr_seq; i++) {
        s->proc[i] = m->seq[i];
    }
    for (unsigned t = 0; t < m->cfg.nr_tpc; t++) {
        s->proc[m->cfg.nr_seq + t] = m->tpc[t];
    }
    s->reply = g_string_sized_new(1024);
    s->last = g_string_sized_new(1024);
    s->in = g_byte_array_new();
    gdb_rx_init(&s->rx);
    s->dbg = nx_debug_new(m);
    m->debug = s->dbg;
    s->g_pid = s->c_pid = 1;
    /* the stub's default model: the sequencers are threads of process 1,
     * attached at connect, the TPCs threads of process 2 (vAttach;2) */
    s->threads = true;
    for (unsigned i = 0; i < s->nr_proc; i++) {
        s->attached[i] = gdb_proc_of(s, i + 1) == 1;
    }
    for (unsigned i = 0; i < s->nr_proc; i++) {
        s->last_state[i] = s->proc[i]->state;
    }

    GString *stop = g_string_new(NULL);
    bool done = false;
    for (size_t i = 0; i < size && !done; i++) {
        GdbEvent ev = gdb_rx_byte(&s->rx, data[i]);
        if (ev != GDB_EV_PACKET) {
            continue;
        }
        gdb_handle_packet(s, s->rx.buf->str, s->rx.buf->len);
        switch (s->action) {
        case GDB_ACT_CONT:
        case GDB_ACT_STEP:
            act(s, stop);
            break;
        case GDB_ACT_DETACH_ALL:
            if (s->extended && !s->killed) {
                /* extended-remote: the machine runs on, gdb may attach again */
                nx_debug_clear(s->dbg, NULL);
                fuzz_run(s->m, 4, 2000, 100000);
                break;
            }
            done = true;
            break;
        case GDB_ACT_KILL:
            done = true;
            break;
        case GDB_ACT_RUN:     /* would execute nxemu again: not in a fuzzer */
        case GDB_ACT_REVERSE: /* the same (gdbstub-reverse.c) */
        case GDB_ACT_NONE:
            break;
        }
    }
    g_string_free(stop, TRUE);

    m->debug = NULL;
    nx_debug_free(s->dbg);
    gdb_rx_destroy(&s->rx);
    g_string_free(s->reply, TRUE);
    g_string_free(s->last, TRUE);
    for (unsigned k = 0; k < 2; k++) {
        if (s->xml[k]) {
            g_string_free(s->xml[k], TRUE);
        }
    }
    g_byte_array_free(s->in, TRUE);
    g_free(s->proc);
    g_free(s->attached);
    g_free(s->last_state);
    g_free(s->run_set);
    g_free(s->resumed);
    machine_free(m);
    return 0;
}
