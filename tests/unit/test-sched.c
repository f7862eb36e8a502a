/*
 * Scheduler (machine.md §8, §9.2, §9.3) driven by scripted fake cores.
 * Expected values are worked out from the spec's round rules in the
 * comments next to each assertion.
 */
#include <signal.h>
#include <string.h>

#include <glib.h>

#include "hw/nc2/board.h"
#include "nxemu/machine.h"
#include "nxemu/sched.h"

typedef enum Act {
    A_RETIRE,    /* retire one instruction */
    A_WAIT_FLAG, /* block until flags[arg]; then retire */
    A_SET_FLAG,  /* flags[arg] = true; retire */
    A_HALT,      /* retire, state HALTED */
    A_FINISH,    /* retire, FINISHER with status arg */
    A_FAULT,     /* fault (not retired) */
} Act;

typedef struct Step {
    Act a;
    int arg;
} Step;

#define MAX_STEPS 4096

typedef struct FakeCpu {
    NxCpu cpu;
    Step script[MAX_STEPS];
    unsigned n, pc;
    bool *flags;
    uint64_t vtime[MAX_STEPS]; /* VTIME at which step k retired */
} FakeCpu;

static void fake_retire(FakeCpu *f, uint64_t *used)
{
    Machine *m = f->cpu.m;
    /* VTIME = T_round_start + cycles used so far in the slice (§8). */
    f->vtime[f->pc] = machine_vtime(m);
    f->pc++;
    f->cpu.retired++;
    m->sched.round_retired++;
    (*used)++;
    f->cpu.slice_used = *used;
}

static uint64_t fake_run(NxCpu *cpu, uint64_t budget)
{
    FakeCpu *f = (FakeCpu *)cpu;
    Machine *m = cpu->m;
    uint64_t used = 0;
    while (used < budget && !m->stop) {
        if (f->pc >= f->n) {
            cpu->state = CPU_HALTED;
            break;
        }
        const Step *s = &f->script[f->pc];
        switch (s->a) {
        case A_RETIRE:
            fake_retire(f, &used);
            break;
        case A_WAIT_FLAG:
            if (!f->flags[s->arg]) {
                cpu->state = CPU_BLOCKED; /* forfeits the rest of the slice */
                return used;
            }
            cpu->state = CPU_RUNNING;
            fake_retire(f, &used);
            break;
        case A_SET_FLAG:
            f->flags[s->arg] = true;
            fake_retire(f, &used);
            break;
        case A_HALT:
            fake_retire(f, &used);
            cpu->state = CPU_HALTED;
            return used;
        case A_FINISH:
            fake_retire(f, &used);
            machine_request_exit(m, s->arg);
            return used;
        case A_FAULT:
            cpu->fault = (NxFault){8, 0, 0x1234};
            cpu->fault_pc = 0x1000000 + 64ull * f->pc;
            cpu->state = CPU_FAULTED;
            machine_fault(m, cpu);
            return used;
        }
    }
    return used;
}

static uint64_t fake_get_pc(NxCpu *cpu)
{
    return 0x1000000 + 64ull * ((FakeCpu *)cpu)->pc;
}

static void fake_block_info(NxCpu *cpu, GString *out)
{
    g_string_append(out, "wait=sem[3] ge 1 current=0");
}

static void fake_fault_line(NxCpu *cpu, GString *out)
{
    g_string_append_printf(out,
                           "nxemu: fault: core=%u code=BUS_ERROR(8) info=0 pc=0x%016llx "
                           "addr=0x%016llx",
                           cpu->index, (unsigned long long)cpu->fault_pc,
                           (unsigned long long)cpu->fault.addr);
}

static int fake_fault_signal(NxCpu *cpu)
{
    return SIGBUS;
}

static const NxCpuOps fake_ops = {
    .arch = "fake",
    .run = fake_run,
    .get_pc = fake_get_pc,
    .block_info = fake_block_info,
    .fault_line = fake_fault_line,
    .fault_signal = fake_fault_signal,
};

typedef struct Rig {
    Machine *m;
    FakeCpu *cpu[4];
    bool flags[8];
    bool dma;
} Rig;

static Rig *rig_new(unsigned ncores, uint64_t quantum)
{
    Rig *r = g_new0(Rig, 1);
    Machine *m = g_new0(Machine, 1);
    m->board = g_new0(NxBoard, 1);
    r->m = m;
    m->cfg.nr_seq = ncores;
    m->cfg.quantum = (unsigned)quantum;
    m->log.file = stderr;
    m->seq = g_new0(NxCpu *, ncores);
    for (unsigned i = 0; i < ncores; i++) {
        FakeCpu *f = g_new0(FakeCpu, 1);
        f->cpu.ops = &fake_ops;
        f->cpu.m = m;
        f->cpu.index = i;
        f->cpu.state = CPU_RUNNING;
        f->flags = r->flags;
        r->cpu[i] = f;
        m->seq[i] = &f->cpu;
    }
    sched_init(m, quantum);
    return r;
}

static void rig_dma(Rig *r, unsigned depth, uint32_t bpc, uint32_t latency)
{
    dma_init(&r->m->board->dma, r->m, 1, depth, bpc, latency);
    r->m->cfg.nr_dma = 1;
    r->dma = true;
}

static void rig_free(Rig *r)
{
    if (r->dma) {
        dma_destroy(&r->m->board->dma);
    }
    for (unsigned i = 0; i < r->m->cfg.nr_seq; i++) {
        g_free(r->cpu[i]);
    }
    g_free(r->m->seq);
    g_free(r->m->board);
    g_free(r->m);
    g_free(r);
}

static void add(FakeCpu *f, Act a, int arg, unsigned times)
{
    for (unsigned i = 0; i < times; i++) {
        g_assert_cmpuint(f->n, <, MAX_STEPS);
        f->script[f->n++] = (Step){a, arg};
    }
}

/* Runs to the end; returns the status, *report gets the §9.3 lines. */
static int run(Rig *r, char **report)
{
    StopReason s;
    GString *out = g_string_new(NULL);
    unsigned guard = 0;
    do {
        s = sched_round(r->m);
        g_assert_cmpuint(++guard, <, 1000000);
    } while (s == STOP_NONE);
    sched_report(r->m, out);
    *report = g_string_free(out, FALSE);
    return sched_exit_status(r->m);
}

static void test_normal_end(void)
{
    Rig *r = rig_new(2, 4);
    char *rep;
    add(r->cpu[0], A_RETIRE, 0, 10);
    add(r->cpu[0], A_HALT, 0, 1);
    add(r->cpu[1], A_RETIRE, 0, 5);
    add(r->cpu[1], A_HALT, 0, 1);
    g_assert_cmpint(run(r, &rep), ==, 0);
    g_assert_cmpstr(rep, ==, "");
    g_assert_cmpuint(r->m->sched.icount, ==, 11 + 6);
    /* Q = 4: instruction k of a core retires in round k/4 at VTIME
     * 4*(k/4) + k%4 = k, whatever the other core did before it. */
    for (unsigned k = 0; k < 11; k++) {
        g_assert_cmpuint(r->cpu[0]->vtime[k], ==, k);
    }
    for (unsigned k = 0; k < 6; k++) {
        g_assert_cmpuint(r->cpu[1]->vtime[k], ==, k);
    }
    g_free(rep);
    rig_free(r);
}

static void test_reset_cores_do_not_run(void)
{
    Rig *r = rig_new(2, 8);
    char *rep;
    add(r->cpu[0], A_HALT, 0, 1);
    add(r->cpu[1], A_RETIRE, 0, 100);
    r->cpu[1]->cpu.state = CPU_RESET; /* never started: not scheduled, no obstacle */
    g_assert_cmpint(run(r, &rep), ==, 0);
    g_assert_cmpuint(r->cpu[1]->cpu.retired, ==, 0);
    g_free(rep);
    rig_free(r);
}

static void test_deadlock(void)
{
    Rig *r = rig_new(3, 64);
    char *rep;
    /* core 0: 3 instructions, then waits for a flag nobody sets */
    add(r->cpu[0], A_RETIRE, 0, 3);
    add(r->cpu[0], A_WAIT_FLAG, 0, 1);
    add(r->cpu[1], A_RETIRE, 0, 1);
    add(r->cpu[1], A_HALT, 0, 1);
    add(r->cpu[2], A_RETIRE, 0, 1);
    r->cpu[2]->cpu.state = CPU_RESET;
    /* Round 0 retires 5 instructions: no deadlock yet; T = 64.  Round 1
     * retires nothing with core 0 BLOCKED: deadlock at vtime 64 (the value
     * before T += Q).  One line per core not in RESET. */
    g_assert_cmpint(run(r, &rep), ==, 124);
    g_assert_cmpstr(rep, ==,
                    "nxemu: deadlock: vtime=64\n"
                    "nxemu:   core=0 pc=0x00000000010000c0 state=BLOCKED wait=sem[3] ge 1 "
                    "current=0\n"
                    "nxemu:   core=1 pc=0x0000000001000080 state=HALTED\n");
    g_free(rep);
    rig_free(r);
}

static void test_icount_limit(void)
{
    Rig *r = rig_new(2, 8);
    char *rep;
    add(r->cpu[0], A_RETIRE, 0, 100);
    add(r->cpu[1], A_RETIRE, 0, 100);
    r->m->sched.has_icount_limit = true;
    r->m->sched.icount_limit = 12;
    /* Round 0: core 0 retires 8, core 1 gets a budget of 4 and retires the
     * 12th at VTIME 0 + 4 (just after it retired). */
    g_assert_cmpint(run(r, &rep), ==, 123);
    /* then where each core was: PC = entry + 64 per retired instruction */
    g_assert_cmpstr(rep, ==,
                    "nxemu: limit: icount=12 vtime=4\n"
                    "nxemu:   core=0 pc=0x0000000001000200 state=RUNNING\n"
                    "nxemu:   core=1 pc=0x0000000001000100 state=RUNNING\n");
    g_assert_cmpuint(r->cpu[0]->cpu.retired, ==, 8);
    g_assert_cmpuint(r->cpu[1]->cpu.retired, ==, 4);
    g_free(rep);
    rig_free(r);
}

static void test_icount_limit_second_round(void)
{
    Rig *r = rig_new(1, 8);
    char *rep;
    add(r->cpu[0], A_RETIRE, 0, 100);
    r->m->sched.has_icount_limit = true;
    r->m->sched.icount_limit = 10;
    /* 8 in round 0, the 10th is the 2nd of round 1: VTIME 8 + 2. */
    g_assert_cmpint(run(r, &rep), ==, 123);
    g_assert_cmpstr(rep, ==,
                    "nxemu: limit: icount=10 vtime=10\n"
                    "nxemu:   core=0 pc=0x0000000001000280 state=RUNNING\n");
    g_assert_cmpuint(r->cpu[0]->cpu.retired, ==, 10);
    g_free(rep);
    rig_free(r);
}

static void test_icount_zero(void)
{
    Rig *r = rig_new(1, 8);
    char *rep;
    add(r->cpu[0], A_RETIRE, 0, 10);
    r->m->sched.has_icount_limit = true;
    r->m->sched.icount_limit = 0;
    /* N = 0: nothing executes; the first round ends with 123, vtime 0. */
    g_assert_cmpint(run(r, &rep), ==, 123);
    g_assert_cmpstr(rep, ==,
                    "nxemu: limit: icount=0 vtime=0\n"
                    "nxemu:   core=0 pc=0x0000000001000000 state=RUNNING\n");
    g_assert_cmpuint(r->cpu[0]->cpu.retired, ==, 0);
    g_free(rep);
    rig_free(r);

    /* ... or with 0 when there is nothing to run. */
    r = rig_new(1, 8);
    r->cpu[0]->cpu.state = CPU_RESET;
    r->m->sched.has_icount_limit = true;
    g_assert_cmpint(run(r, &rep), ==, 0);
    g_free(rep);
    rig_free(r);
}

static void test_icount_priority(void)
{
    Rig *r = rig_new(1, 8);
    char *rep;
    /* The 10th instruction is the HALT: normal end in the same round wins. */
    add(r->cpu[0], A_RETIRE, 0, 9);
    add(r->cpu[0], A_HALT, 0, 1);
    r->m->sched.has_icount_limit = true;
    r->m->sched.icount_limit = 10;
    g_assert_cmpint(run(r, &rep), ==, 0);
    g_assert_cmpstr(rep, ==, "");
    g_free(rep);
    rig_free(r);

    /* The 10th writes FINISHER FAIL 5: its status wins at once. */
    r = rig_new(1, 8);
    add(r->cpu[0], A_RETIRE, 0, 9);
    add(r->cpu[0], A_FINISH, 5, 1);
    add(r->cpu[0], A_RETIRE, 0, 100);
    r->m->sched.has_icount_limit = true;
    r->m->sched.icount_limit = 10;
    g_assert_cmpint(run(r, &rep), ==, 5);
    /* no limit line: the FAIL's own line (#41) */
    g_assert_cmpstr(rep, ==, "nxemu: fail: code=5 (test device FINISHER) icount=10 vtime=10\n");
    g_free(rep);
    rig_free(r);
}

static void test_cycle_limit(void)
{
    Rig *r = rig_new(1, 16);
    char *rep;
    add(r->cpu[0], A_RETIRE, 0, 200);
    r->m->sched.has_cycle_limit = true;
    r->m->sched.cycle_limit = 40;
    /* Rounds end at T = 16, 32, 48: the first T >= 40 is 48. */
    g_assert_cmpint(run(r, &rep), ==, 123);
    g_assert_cmpstr(rep, ==,
                    "nxemu: limit: icount=48 vtime=48\n"
                    "nxemu:   core=0 pc=0x0000000001000c00 state=RUNNING\n");
    g_free(rep);
    rig_free(r);
}

static void test_finisher_and_fault(void)
{
    Rig *r = rig_new(2, 8);
    char *rep;
    add(r->cpu[0], A_FINISH, 7, 1);
    add(r->cpu[1], A_RETIRE, 0, 10);
    /* The run ends right after the writing instruction: core 1 never runs. */
    g_assert_cmpint(run(r, &rep), ==, 7);
    g_assert_cmpuint(r->cpu[1]->cpu.retired, ==, 0);
    g_free(rep);
    rig_free(r);

    r = rig_new(1, 8);
    add(r->cpu[0], A_RETIRE, 0, 1);
    add(r->cpu[0], A_FAULT, 0, 1);
    g_assert_cmpint(run(r, &rep), ==, 128 + SIGBUS);
    g_assert_cmpstr(rep, ==,
                    "nxemu: fault: core=0 code=BUS_ERROR(8) info=0 pc=0x0000000001000040 "
                    "addr=0x0000000000001234\n");
    g_free(rep);
    rig_free(r);
}

/* Core 1 waits for a flag core 0 sets as its 6th instruction (Q = 4). */
static Rig *cross_core_rig(void)
{
    Rig *r = rig_new(2, 4);
    add(r->cpu[0], A_RETIRE, 0, 5);
    add(r->cpu[0], A_SET_FLAG, 0, 1);
    add(r->cpu[0], A_HALT, 0, 1);
    add(r->cpu[1], A_WAIT_FLAG, 0, 1);
    add(r->cpu[1], A_RETIRE, 0, 1);
    add(r->cpu[1], A_HALT, 0, 1);
    return r;
}

static void test_cross_core_and_determinism(void)
{
    Rig *a = cross_core_rig(), *b = cross_core_rig();
    char *ra, *rb;
    g_assert_cmpint(run(a, &ra), ==, 0);
    g_assert_cmpint(run(b, &rb), ==, 0);
    /* Round 1 (T = 4): core 0 sets the flag at VTIME 5; core 1, later in the
     * same round, sees it at once: its wait retires at VTIME 4 + 0. */
    g_assert_cmpuint(a->cpu[0]->vtime[5], ==, 5);
    g_assert_cmpuint(a->cpu[1]->vtime[0], ==, 4);
    g_assert_cmpuint(a->cpu[1]->vtime[2], ==, 6);
    g_assert_cmpmem(a->cpu[0]->vtime, sizeof(a->cpu[0]->vtime), b->cpu[0]->vtime,
                    sizeof(b->cpu[0]->vtime));
    g_assert_cmpmem(a->cpu[1]->vtime, sizeof(a->cpu[1]->vtime), b->cpu[1]->vtime,
                    sizeof(b->cpu[1]->vtime));
    g_assert_cmpuint(a->m->sched.vtime, ==, b->m->sched.vtime);
    g_free(ra);
    g_free(rb);
    rig_free(a);
    rig_free(b);
}

static void set_flag_on_complete(Machine *m, DmaRequest *req)
{
    *(bool *)req->priv = true;
}

static void noop_complete(Machine *m, DmaRequest *req) {}

static void push_dma(Rig *r, uint64_t bytes, void (*cb)(Machine *, DmaRequest *))
{
    DmaRequest *req = g_new0(DmaRequest, 1);
    req->bytes = bytes;
    req->owner = -1;
    req->complete = cb;
    req->priv = &r->flags[0];
    dma_push(&r->m->board->dma.e[0], req);
}

static void test_dma_wakeup(void)
{
    Rig *r = rig_new(1, 16);
    char *rep;
    rig_dma(r, 4, 64, 32);
    /* cost = 32 + 64000/64 = 1032 cycles: cumulative budget 16*(r+1) first
     * reaches 1032 in round 64 (T = 1024).  The core re-attempts in round 65
     * and its wait retires at VTIME 1040.  The rounds in between (skipped by
     * fast-forward or not) are not deadlocks: a request is queued. */
    push_dma(r, 64000, set_flag_on_complete);
    add(r->cpu[0], A_WAIT_FLAG, 0, 1);
    add(r->cpu[0], A_HALT, 0, 1);
    r->cpu[0]->cpu.state = CPU_RUNNING;
    g_assert_cmpint(run(r, &rep), ==, 0);
    g_assert_cmpuint(r->cpu[0]->vtime[0], ==, 1040);
    g_assert_cmpuint(r->m->board->dma.e[0].completed, ==, 1);
    g_free(rep);
    rig_free(r);
}

static void test_dma_completion_then_deadlock(void)
{
    Rig *r = rig_new(1, 16);
    char *rep;
    rig_dma(r, 4, 64, 32);
    /* The completion (round 64) satisfies nothing: deadlock reported at the
     * end of the next round, vtime 1040. */
    push_dma(r, 64000, noop_complete);
    add(r->cpu[0], A_WAIT_FLAG, 0, 1);
    g_assert_cmpint(run(r, &rep), ==, 124);
    g_assert_true(g_str_has_prefix(rep, "nxemu: deadlock: vtime=1040\n"));
    g_free(rep);
    rig_free(r);
}

static void test_dma_cycle_limit(void)
{
    Rig *r = rig_new(1, 16);
    char *rep;
    rig_dma(r, 4, 64, 32);
    push_dma(r, 64000, noop_complete);
    add(r->cpu[0], A_WAIT_FLAG, 0, 1);
    r->m->sched.has_cycle_limit = true;
    r->m->sched.cycle_limit = 100;
    /* Rounds end at 16, 32, ..., 112: fast-forward must not jump past it. */
    g_assert_cmpint(run(r, &rep), ==, 123);
    g_assert_cmpstr(rep, ==,
                    "nxemu: limit: icount=0 vtime=112\n"
                    "nxemu:   core=0 pc=0x0000000001000000 state=BLOCKED wait=sem[3] ge 1 "
                    "current=0\n");
    g_free(rep);
    rig_free(r);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/sched/normal-end", test_normal_end);
    g_test_add_func("/sched/reset-cores", test_reset_cores_do_not_run);
    g_test_add_func("/sched/deadlock", test_deadlock);
    g_test_add_func("/sched/icount-limit", test_icount_limit);
    g_test_add_func("/sched/icount-limit-round2", test_icount_limit_second_round);
    g_test_add_func("/sched/icount-zero", test_icount_zero);
    g_test_add_func("/sched/icount-priority", test_icount_priority);
    g_test_add_func("/sched/cycle-limit", test_cycle_limit);
    g_test_add_func("/sched/finisher-fault", test_finisher_and_fault);
    g_test_add_func("/sched/determinism", test_cross_core_and_determinism);
    g_test_add_func("/sched/dma-wakeup", test_dma_wakeup);
    g_test_add_func("/sched/dma-deadlock", test_dma_completion_then_deadlock);
    g_test_add_func("/sched/dma-cycle-limit", test_dma_cycle_limit);
    return g_test_run();
}
