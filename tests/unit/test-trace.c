/*
 * The trace layer (include/nxemu/trace.h, docs/tracing.rst) driven the way a
 * core drives it: trace_insn_begin, the instruction's effects, then
 * trace_insn_end.  The effects are applied by hand here, so these tests pin
 * down what the trace derives from state (results, blocking, hook chaining,
 * statistics) independently of the executors.
 */
#include <string.h>

#include <glib/gstdio.h>

#include "hw/nc2/board.h"
#include "nxemu/machine.h"
#include "nxemu/trace.h"
#include "target/seq/asm.h"
#include "target/seq/insn.h"
#include "target/tpc/asm.h"
#include "target/tpc/cpu.h"

#define ENTRY 0x01000000ull

typedef struct Fx {
    Machine *m;
    NxTrace *t;
    GString *out;
    char *dir;
} Fx;

static void fx_setup(Fx *f, gconstpointer data)
{
    MachineConfig cfg = {
        .hbm_size = 64ull << 20,
        .nr_seq = 2,
        .nr_tpc = 1,
        .tlb_entries = 4,
        .quantum = 64,
        .nr_dma = 2,
        .dma_queue_depth = 4,
        .dma_bytes_per_cycle = 64,
        .dma_latency = 32,
    };
    GError *err = NULL;
    f->m = machine_new(&cfg, NULL, 0, &err);
    g_assert_no_error(err);
    g_assert_null(f->m->seq[0]->trace); /* off unless asked for */
    g_assert_null(f->m->tpc[0]->trace);
    f->dir = g_dir_make_tmp("nxemu-trace-XXXXXX", &err);
    g_assert_no_error(err);
    g_autofree char *cov = g_build_filename(f->dir, "cov.json", NULL);
    NxTraceOptions o = {.commit = true, .stats = true, .coverage = cov};
    f->t = trace_new(f->m, &o, &err);
    g_assert_no_error(err);
    g_assert_true(f->m->seq[0]->trace == f->t); /* on every core */
    g_assert_true(f->m->tpc[0]->trace == f->t);
    f->out = g_string_new(NULL);
    trace_set_commit_output(f->t, f->out);
}

static void fx_teardown(Fx *f, gconstpointer data)
{
    trace_free(f->t);
    g_assert_null(f->m->seq[0]->trace); /* gone with it */
    g_assert_null(f->m->tpc[0]->trace);
    machine_free(f->m);
    g_string_free(f->out, TRUE);
    g_autofree char *cov = g_build_filename(f->dir, "cov.json", NULL);
    g_autofree char *txt = g_build_filename(f->dir, "cov.json.txt", NULL);
    g_unlink(cov);
    g_unlink(txt);
    g_rmdir(f->dir);
    g_free(f->dir);
}

static void assemble(const char *text, uint64_t pc, uint8_t rec[64])
{
    GString *err = g_string_new(NULL);
    gboolean ok = seq_asm_insn_text(text, pc, NULL, NULL, rec, err);
    if (!ok)
        g_error("%s: %s", text, err->str);
    g_string_free(err, TRUE);
}

/* "C seq0 0x<pc> <hex> <disassembly>" as docs/tracing.rst defines it. */
static GString *line_head(char kind, const char *core, uint64_t pc, const uint8_t *b, unsigned n,
                          bool seq)
{
    GString *g = g_string_new(NULL);
    if (seq)
        g_string_append_printf(g, "%c %s 0x%016" G_GINT64_MODIFIER "x ", kind, core, pc);
    else
        g_string_append_printf(g, "%c %s 0x%08" G_GINT64_MODIFIER "x ", kind, core, pc);
    for (unsigned i = 0; i < n; i++)
        g_string_append_printf(g, "%02x", b[i]);
    g_string_append_c(g, ' ');
    if (seq)
        seq_disas_insn(b, pc, g);
    else
        tpc_disas_bundle_gs(g, b, (uint32_t)pc, NULL, NULL);
    return g;
}

static void seq_running(Fx *f, unsigned core, uint64_t vtime, uint64_t used)
{
    NxCpu *cpu = f->m->seq[core];
    cpu->state = CPU_RUNNING;
    f->m->sched.vtime = vtime;
    f->m->sched.current = cpu;
    cpu->slice_used = used;
}

/* Registers, memory and semaphores the instruction changed, in that order. */
static void test_commit_results(Fx *f, gconstpointer data)
{
    uint8_t rec[64];
    NxCpu *cpu = f->m->seq[0];
    assemble("write.u32 [0x02000000], 0x1234", ENTRY, rec);
    seq_running(f, 0, 0, 0);
    /* changed before the instruction (a DMA completion): not its result */
    evsem_sem_add(&f->m->board->evsem, 7, 1);

    trace_insn_begin(f->m, cpu, ENTRY, rec, 64);
    g_assert_cmpint(as_write(f->m->as, 0x02000000, 4, 0x1234, MEMTXATTRS(MEM_REQ_SEQ, 0)), ==,
                    MEMTX_OK);
    f->m->board->nx[0].regs.r[9] = 0xdeadbeef;
    f->m->board->nx[0].regs.r[2] = 0; /* unchanged: not listed */
    evsem_sem_add(&f->m->board->evsem, 3, 2);
    evsem_evt_write(&f->m->board->evsem, 4, true);
    cpu->retired++;
    trace_insn_end(f->m, cpu);
    trace_insn_end(f->m, cpu); /* nothing pending: no second line */

    g_autoptr(GString) want = line_head('C', "seq0", ENTRY, rec, 64, true);
    g_string_append(want, " ; r9=0xdeadbeef ; mem[0x0000000002000000]=0x00001234"
                          " ; sem[3]=2 ; evt[4]=1\n");
    g_assert_cmpstr(f->out->str, ==, want->str);
}

/* Multi-byte and sub-word stores, a device write, and the order they came. */
static void test_commit_memory_forms(Fx *f, gconstpointer data)
{
    uint8_t rec[64], bytes[16];
    NxCpu *cpu = f->m->seq[1];
    assemble("nop", ENTRY + 0x40, rec);
    seq_running(f, 1, 128, 3);
    for (unsigned i = 0; i < 16; i++)
        bytes[i] = (uint8_t)(0xa0 + i);
    trace_insn_begin(f->m, cpu, ENTRY + 0x40, rec, 64);
    as_write(f->m->as, 0x02000101, 1, 0x5a, MEMTXATTRS(MEM_REQ_SEQ, 1));
    as_write(f->m->as, 0x02000108, 8, 0x0102030405060708ull, MEMTXATTRS(MEM_REQ_SEQ, 1));
    as_rw_bytes(f->m->as, 0x02000200, bytes, 16, true, MEMTXATTRS(MEM_REQ_SEQ, 1), NULL);
    /* SEM_SET[1] (machine.md §4): a device register */
    as_write(f->m->as, 0x2802701404, 4, 6, MEMTXATTRS(MEM_REQ_SEQ, 1));
    cpu->retired++;
    trace_insn_end(f->m, cpu);

    g_autoptr(GString) want = line_head('C', "seq1", ENTRY + 0x40, rec, 64, true);
    g_string_append(want, " ; mem[0x0000000002000101]=0x5a"
                          " ; mem[0x0000000002000108]=0x0102030405060708"
                          " ; mem[0x0000000002000200]/16=a0a1a2a3a4a5a6a7a8a9aaabacadaeaf"
                          " ; io[0x0000002802701404]/4 ; sem[1]=6\n");
    g_assert_cmpstr(f->out->str, ==, want->str);
}

/* A blocked attempt prints nothing; the retirement later prints one line and
 * the stall lasts from the first attempt to it. */
static void test_blocked_then_retired(Fx *f, gconstpointer data)
{
    uint8_t rec[64];
    NxCpu *cpu = f->m->seq[0];
    assemble("nop wait(sem5 >= 1)", ENTRY, rec);
    seq_running(f, 0, 64, 5);
    trace_insn_begin(f->m, cpu, ENTRY, rec, 64); /* t = 69 */
    cpu->state = CPU_BLOCKED;
    f->m->board->nx[0].regs.block_reason = NX_BLOCK_WAIT;
    trace_insn_end(f->m, cpu);
    g_assert_cmpstr(f->out->str, ==, "");

    seq_running(f, 0, 128, 0);
    cpu->state = CPU_BLOCKED;
    trace_insn_begin(f->m, cpu, ENTRY, rec, 64); /* t = 128: still blocked */
    trace_insn_end(f->m, cpu);
    seq_running(f, 0, 192, 0);
    trace_insn_begin(f->m, cpu, ENTRY, rec, 64); /* t = 192: retires */
    cpu->retired++;
    trace_insn_end(f->m, cpu);

    g_autoptr(GString) want = line_head('C', "seq0", ENTRY, rec, 64, true);
    g_string_append_c(want, '\n');
    g_assert_cmpstr(f->out->str, ==, want->str);

    GString *st = g_string_new(NULL);
    trace_stats(f->t, st);
    /* one stall, 192 - 69 cycles, cause: wait */
    g_assert_nonnull(strstr(st->str, "stats: seq0 insns=1 state=RUNNING stalls=1 stall_cycles=123 "
                                     "wait=1/123 drain=0/0 dmaq=0/0 "));
    g_string_free(st, TRUE);
}

/* A faulted instruction: an F line with the fault and no results. */
static void test_fault_line(Fx *f, gconstpointer data)
{
    uint8_t rec[64];
    NxCpu *cpu = f->m->seq[0];
    assemble("tld.u32 {r1}, [0x7000000], shape=(1,1), step=(0,0)", ENTRY, rec);
    seq_running(f, 0, 0, 0);
    trace_insn_begin(f->m, cpu, ENTRY, rec, 64);
    f->m->board->nx[0].regs.r[1] = 5; /* a core never does this on a fault; must not show */
    cpu->state = CPU_FAULTED;
    nx_fault_set(&cpu->fault, NX_FAULT_BUS_ERROR, 0, 0x7000000);
    trace_insn_end(f->m, cpu);
    g_autoptr(GString) want = line_head('F', "seq0", ENTRY, rec, 64, true);
    g_string_append(want, " ; fault=BUS_ERROR(8) info=0x0 addr=0x0000000007000000\n");
    g_assert_cmpstr(f->out->str, ==, want->str);
}

static int chained_writes;
static void other_hook(void *opaque, uint64_t addr, unsigned size, bool is_write, MemTxAttrs a)
{
    if (is_write)
        chained_writes++;
}

/* The trace's access hook exists only during an instruction and chains to
 * the one already installed (poison mode, the viewer). */
static void test_hook_chain(Fx *f, gconstpointer data)
{
    uint8_t rec[64];
    int tag;
    NxCpu *cpu = f->m->seq[0];
    chained_writes = 0;
    g_assert_true(as_add_access_hook(f->m->as, other_hook, &tag));
    assemble("nop", ENTRY, rec);
    seq_running(f, 0, 0, 0);
    trace_insn_begin(f->m, cpu, ENTRY, rec, 64);
    as_write(f->m->as, 0x02000000, 4, 1, MEMTXATTRS(MEM_REQ_SEQ, 0));
    cpu->retired++;
    trace_insn_end(f->m, cpu);
    /* both observers saw the write; the other one stays after the trace
     * removed its own hook */
    g_assert_cmpint(chained_writes, ==, 1);
    g_assert_nonnull(strstr(f->out->str, " ; mem[0x0000000002000000]=0x00000001\n"));
    as_write(f->m->as, 0x02000004, 4, 1, MEMTXATTRS(MEM_REQ_SEQ, 0));
    g_assert_cmpint(chained_writes, ==, 2);
    as_remove_access_hook(f->m->as, other_hook, &tag);
}

/* TPC bundles: registers by their assembly names, vectors in full. */
static void test_tpc_bundle(Fx *f, gconstpointer data)
{
    TpcCpu *c = tpc_cpu_of(f->m, 0);
    NxCpu *cpu = f->m->tpc[0];
    uint8_t b[32] = {0};
    g_assert_nonnull(c);
    /* a bundle of four NOPs (tpc.md §4.1 field positions) */
    tpc_set_bits(b, TPC_B_SPU_OPC, 6, TPC_OPC_SPU_NOP);
    tpc_set_bits(b, TPC_B_VPU_OPC, 6, TPC_OPC_VPU_NOP);
    tpc_set_bits(b, TPC_B_LD_OPC, 5, TPC_OPC_LD_NOP);
    tpc_set_bits(b, TPC_B_ST_OPC, 5, TPC_OPC_ST_NOP);
    cpu->state = CPU_RUNNING;
    f->m->sched.current = cpu;
    trace_insn_begin(f->m, cpu, 0x40, b, 32);
    c->s[1] = 42;
    c->sp[3] = 1;
    memset(c->v[2], 0x11, TPC_VBYTES);
    c->irf[4][2] = -3;
    c->x.mw.kind = TPC_MW_NONE;
    cpu->retired++;
    trace_insn_end(f->m, cpu);

    g_autoptr(GString) want = line_head('C', "tpc0", 0x40, b, 32, false);
    g_string_append(want, " ; S1=0x0000002a ; SP3=1 ; V2=");
    for (unsigned i = 0; i < TPC_VBYTES; i++)
        g_string_append(want, "11");
    g_string_append(want, " ; I4=[0,0,-3,0,0]\n");
    g_assert_cmpstr(f->out->str, ==, want->str);

    /* a VLM store (st_l_v in the store slot): local memory from the first to
     * the last byte that changed */
    int st_l_v = -1;
    for (unsigned opc = 0; opc < 32; opc++) {
        const TpcInsnDesc *d = tpc_insn_desc(TPC_SLOT_ST, opc);
        if (d && !strcmp(d->mnemonic, "st_l_v"))
            st_l_v = (int)opc;
    }
    g_assert_cmpint(st_l_v, >=, 0);
    tpc_set_bits(b, TPC_B_ST_OPC, 5, (uint32_t)st_l_v);
    g_string_truncate(f->out, 0);
    trace_insn_begin(f->m, cpu, 0x60, b, 32);
    c->vlm[0x102] = 0xab;
    c->vlm[0x105] = 0xcd;
    cpu->retired++;
    trace_insn_end(f->m, cpu);
    g_autoptr(GString) want2 = line_head('C', "tpc0", 0x60, b, 32, false);
    g_string_append(want2, " ; vlm[0x00102]/4=ab0000cd\n");
    g_assert_cmpstr(f->out->str, ==, want2->str);
}

/* Coverage counts retired instructions against the whole ISA table. */
static void test_coverage(Fx *f, gconstpointer data)
{
    uint8_t rec[64];
    NxCpu *cpu = f->m->seq[0];
    const char *prog[] = {"add.u32 r3, r1, r2", "add.i32 r3, r1, 5",
                          "tld.u16 {r1}, [0x02000000], shape=(1,1), step=(0,0)",
                          "nop post(sem1++)"};
    seq_running(f, 0, 0, 0);
    for (unsigned i = 0; i < G_N_ELEMENTS(prog); i++) {
        assemble(prog[i], ENTRY + 64 * i, rec);
        trace_insn_begin(f->m, cpu, ENTRY + 64 * i, rec, 64);
        cpu->retired++;
        trace_insn_end(f->m, cpu);
    }
    /* a blocked attempt is not an executed instruction */
    assemble("halt", ENTRY + 0x100, rec);
    trace_insn_begin(f->m, cpu, ENTRY + 0x100, rec, 64);
    cpu->state = CPU_BLOCKED;
    trace_insn_end(f->m, cpu);

    GString *s = g_string_new(NULL);
    trace_coverage_summary(f->t, s);
    unsigned defined = 0;
    for (unsigned op = 0; op < 256; op++)
        defined += seq_opcode_defined(op);
    g_assert_cmpuint(defined, ==, 15); /* sequencer.md §6 */
    g_autofree char *opl = g_strdup_printf("  opcodes            3 of %-4u", defined);
    g_assert_nonnull(strstr(s->str, "seq: 4 instructions\n"));
    g_assert_nonnull(strstr(s->str, opl));
    g_assert_nonnull(strstr(s->str, "  dtypes             3 of 15  "));
    g_assert_nonnull(strstr(s->str, "  updates            1 of 20  "));
    g_string_truncate(s, 0);
    trace_coverage_json(f->t, s);
    g_assert_nonnull(strstr(s->str, "\"hits\":{\"add\":2}"));
    g_assert_nonnull(strstr(s->str, "\"hits\":{\"nop\":1,\"alu\":2,\"tld\":1}"));
    g_string_free(s, TRUE);

    /* the run's fault is recorded when it ends */
    f->m->stop_reason = STOP_FAULT;
    f->m->fault_cpu = cpu;
    cpu->state = CPU_FAULTED;
    nx_fault_set(&cpu->fault, NX_FAULT_MISALIGNED, 0, 0);
    GError *err = NULL;
    FILE *saved = f->m->log.file;
    g_autofree char *logp = g_build_filename(f->dir, "stats.log", NULL);
    f->m->log.file = fopen(logp, "w");
    g_assert_true(trace_finish(f->t, &err));
    g_assert_no_error(err);
    fclose(f->m->log.file);
    f->m->log.file = saved;
    g_autofree char *cov = g_build_filename(f->dir, "cov.json", NULL);
    g_autofree char *json = NULL;
    g_assert_true(g_file_get_contents(cov, &json, NULL, NULL));
    g_assert_nonnull(
        strstr(json, "\"faults\":{\"covered\":1,\"total\":9,\"hits\":{\"MISALIGNED\":1}"));
    g_autofree char *log = NULL;
    g_assert_true(g_file_get_contents(logp, &log, NULL, NULL));
    g_assert_true(g_str_has_prefix(log, "stats: run vtime=0 icount=0\n"));
    g_unlink(logp);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add("/trace/commit-results", Fx, NULL, fx_setup, test_commit_results, fx_teardown);
    g_test_add("/trace/commit-memory-forms", Fx, NULL, fx_setup, test_commit_memory_forms,
               fx_teardown);
    g_test_add("/trace/blocked-then-retired", Fx, NULL, fx_setup, test_blocked_then_retired,
               fx_teardown);
    g_test_add("/trace/fault-line", Fx, NULL, fx_setup, test_fault_line, fx_teardown);
    g_test_add("/trace/hook-chain", Fx, NULL, fx_setup, test_hook_chain, fx_teardown);
    g_test_add("/trace/tpc-bundle", Fx, NULL, fx_setup, test_tpc_bundle, fx_teardown);
    g_test_add("/trace/coverage", Fx, NULL, fx_setup, test_coverage, fx_teardown);
    return g_test_run();
}
