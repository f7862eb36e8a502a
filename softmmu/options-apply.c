/*
 * What the parsed command line does to a built machine: shared by nxemu's
 * main and the C API (api/api.c), so that an option means the same in
 * both and a new one is wired in once.  Output files (-D, -trace-json,
 * -display) stay with their callers: they differ in who owns the file.
 */
#include "softmmu/options.h"

#include "nxemu/machine.h"
#include "nxemu/threads.h"

void nx_options_apply(Machine *m, const NxOptions *o)
{
    m->log.mask = o->log_mask;
    m->sched.has_icount_limit = o->has_icount_limit;
    m->sched.icount_limit = o->icount_limit;
    m->sched.has_cycle_limit = o->has_cycle_limit;
    m->sched.cycle_limit = o->cycle_limit;
    NxCpuModes modes = {
        .strict = o->tpc_strict, .timing = o->tpc_timing, .hazard_warn = o->tpc_hazard_warn};
    for (unsigned t = 0; m->tpc && t < m->cfg.nr_tpc; t++) {
        if (m->tpc[t] && m->tpc[t]->ops->set_modes)
            m->tpc[t]->ops->set_modes(m->tpc[t], &modes);
    }
    nx_threads_set(m, o->tpc_threads);
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
