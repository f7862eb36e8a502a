/* Run-control entry points of the machine object shared by devices and cores. */
#include <string.h>

#include "nxemu/machine.h"

void machine_request_exit(Machine *m, int status)
{
    /* The last FINISHER write of an instruction decides (machine.md §12.4);
     * cores stop at the next instruction boundary. */
    m->stop = true;
    m->stop_reason = STOP_FINISHER;
    m->exit_status = status;
}

bool machine_runev_subscribe(Machine *m, NxRunEvFn fn, void *opaque)
{
    if (m->runev >= NX_RUNEV_SUBS)
        return false;
    m->runev_sub[m->runev].fn = fn;
    m->runev_sub[m->runev].opaque = opaque;
    m->runev++;
    return true;
}

void machine_runev_unsubscribe(Machine *m, NxRunEvFn fn, void *opaque)
{
    for (unsigned i = 0; i < m->runev; i++) {
        if (m->runev_sub[i].fn == fn && m->runev_sub[i].opaque == opaque) {
            memmove(&m->runev_sub[i], &m->runev_sub[i + 1],
                    (m->runev - i - 1) * sizeof(m->runev_sub[0]));
            m->runev--;
            return;
        }
    }
}

void machine_fault(Machine *m, NxCpu *cpu)
{
    m->stop = true;
    m->stop_reason = STOP_FAULT;
    m->fault_cpu = cpu;
    if (G_UNLIKELY(m->runev) && cpu) {
        NxRunEvent ev = {.kind = NX_RUNEV_FAULT,
                         .unit = cpu->index,
                         .tpc = cpu->kind == CPU_KIND_TPC,
                         .t0 = machine_vtime(m),
                         .code = cpu->fault.code};
        machine_runev(m, &ev);
    }
}

uint64_t machine_vtime(Machine *m)
{
    const NxCpu *cur = m->sched.current;
    return m->sched.vtime + (cur ? cur->slice_used : 0);
}

uint64_t machine_run_vtime(Machine *m)
{
    return m->stop_reason != STOP_NONE ? m->sched.end_vtime : machine_vtime(m);
}

const char *machine_cpu_state_label(const Machine *m, const NxCpu *cpu)
{
    if (!cpu) {
        return "-";
    }
    if (cpu->state == CPU_RUNNING && m->stop_reason != STOP_NONE) {
        return m->stop_reason == STOP_FINISHER || m->stop_reason == STOP_NORMAL_END ? "ENDED"
                                                                                    : "STOPPED";
    }
    if (cpu->kind == CPU_KIND_TPC && cpu->state == CPU_RESET) {
        return "IDLE";
    }
    if (cpu->kind == CPU_KIND_TPC && cpu->state == CPU_HALTED) {
        return "DONE";
    }
    return cpu_state_name(cpu->state);
}
