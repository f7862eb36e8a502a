/*
 * What the parsed command line does to a built machine: shared by nxemu's
 * main and the C API (softmmu/api.c), so that an option means the same in
 * both and a new one is wired in once.  Output files (-D, -trace-json,
 * -display) stay with their callers: they differ in who owns the file.
 */
#include "softmmu/options.h"

#include "nxemu/machine.h"
#include "target/tpc/cpu.h"

void nx_options_apply(Machine *m, const NxOptions *o)
{
    m->log.mask = o->log_mask;
    m->sched.has_icount_limit = o->has_icount_limit;
    m->sched.icount_limit = o->icount_limit;
    m->sched.has_cycle_limit = o->has_cycle_limit;
    m->sched.cycle_limit = o->cycle_limit;
    m->replay_budget = o->replay_budget;
    m->replay_memory = o->replay_memory;
    m->replay_every = o->replay_every;
    if (o->tpc_strict) {
        tpc_cpu_set_strict(m, true);
    }
    tpc_cpu_set_timing(m, o->tpc_timing, o->tpc_hazard_warn);
}

bool nx_options_add_binds(const NxOptions *o, BindTable *bt, GError **err)
{
    for (unsigned i = 0; i < o->binds->len; i++) {
        const NxBindOpt *b = &g_array_index(o->binds, NxBindOpt, i);
        if (!bind_table_add(bt, b->var_id, b->addr, "-bind", err)) {
            return false;
        }
    }
    return true;
}
