/*
 * The checking mode of nxemu-tpc-run (--check, docs/tpc-guide.rst) and of
 * nxemu.tpc.run(check=True): the mistakes that silicon answers with a
 * silently wrong result, reported as one line per PC.
 *
 * - the TPC target reports a tensor access with no element inside its
 *   tensor (ld_tnsr, st_tnsr, gen_addr: Machine.check);
 * - an access observer sees every TPC access to the PA space: one outside
 *   every tensor of the launch (and the kernel's own area), a write into an
 *   input tensor, and which output bytes the TPCs wrote;
 * - after the run, the output elements that no TPC wrote.
 *
 * With --check=fatal a run with any finding ends with status 121 (a run
 * that failed otherwise keeps its own status).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "hw/nc2/board.h"
#include "nxemu-tpc-run.h"
#include "nxemu/cpu.h"
#include "nxemu/machine.h"
#include "nxemu/memory.h"

struct TrCheck {
    Machine *m;
    const TrOptions *o;
    GString *report;                  /* NULL: stderr */
    GHashTable *seen;                 /* (kind, pc) reported */
    uint8_t *written[TR_MAX_TENSORS]; /* outputs: a byte per tensor byte */
    unsigned findings;
};

static void emit(TrCheck *k, const char *line)
{
    k->findings++;
    if (k->report)
        g_string_append_printf(k->report, "nxemu-tpc-run: check: %s\n", line);
    else
        fprintf(stderr, "nxemu-tpc-run: check: %s\n", line);
}

/* "tpc=N pc=0x... (bundle): what (tensor T is -i SPEC)", once per (kind, pc) */
static void report_at(TrCheck *k, NxCpu *cpu, uint64_t pc, unsigned kind, int tensor,
                      const char *what)
{
    gpointer key = GSIZE_TO_POINTER(((gsize)kind << 32) | (gsize)(pc & 0xFFFFFFFFu));
    if (g_hash_table_contains(k->seen, key))
        return;
    g_hash_table_add(k->seen, key);
    GString *l = g_string_new(NULL);
    g_string_append_printf(l, "tpc=%u pc=0x%08" PRIx64, cpu->index, pc);
    GString *d = g_string_new(NULL);
    if (cpu->ops->disas && cpu->ops->disas(cpu, pc, d)) {
        for (gsize i = 0; i < d->len; i++)
            if (d->str[i] == '\n')
                d->str[i] = ' ';
        g_string_append_printf(l, " (%s)", d->str);
    }
    g_string_free(d, TRUE);
    g_string_append_printf(l, ": %s", what);
    if (tensor >= 0 && (unsigned)tensor < k->o->ntensor) {
        const TrTensor *t = &k->o->tensor[tensor];
        g_string_append_printf(l, "; tensor %d is %s %s", tensor, t->output ? "-o" : "-i", t->spec);
    } else if (tensor >= 0) {
        g_string_append_printf(l, "; tensor %d is not one of the launch's %u", tensor,
                               k->o->ntensor);
    }
    emit(k, l->str);
    g_string_free(l, TRUE);
}

static void on_tensor(void *opaque, NxCpu *cpu, uint64_t pc, int tensor, const char *what)
{
    report_at(opaque, cpu, pc, 1, tensor, what);
}

static int tensor_at(const TrCheck *k, uint64_t addr, uint64_t len)
{
    for (unsigned i = 0; i < k->o->ntensor; i++) {
        const TrTensor *t = &k->o->tensor[i];
        if (addr >= t->addr && addr + len <= t->addr + t->bytes)
            return (int)i;
    }
    return -1;
}

static void on_access(void *opaque, uint64_t addr, unsigned size, bool is_write, MemTxAttrs attrs)
{
    TrCheck *k = opaque;
    if (attrs.kind != MEM_REQ_TPC || attrs.id >= k->m->cfg.nr_tpc || !size)
        return;
    if (addr >= TR_KERNEL_BASE && addr + size <= TR_TENSOR_BASE)
        return; /* the kernel's own area: its code */
    NxCpu *cpu = k->m->tpc[attrs.id];
    uint64_t pc = cpu->ops->get_pc(cpu);
    int t = tensor_at(k, addr, size);
    char what[160];
    if (t < 0) {
        snprintf(what, sizeof(what),
                 "%s of 0x%" PRIx64 " (%u bytes) outside every tensor of the launch",
                 is_write ? "write" : "read", addr, size);
        report_at(k, cpu, pc, is_write ? 2 : 3, -1, what);
        return;
    }
    if (!is_write)
        return;
    const TrTensor *tt = &k->o->tensor[t];
    if (!tt->output) {
        snprintf(what, sizeof(what), "write of 0x%" PRIx64 " (%u bytes) into input tensor %d", addr,
                 size, t);
        report_at(k, cpu, pc, 4, t, what);
        return;
    }
    memset(k->written[t] + (addr - tt->addr), 1, size);
}

TrCheck *tr_check_new(Machine *m, const TrOptions *o, GString *report)
{
    TrCheck *k = g_new0(TrCheck, 1);
    k->m = m;
    k->o = o;
    k->report = report;
    k->seen = g_hash_table_new(g_direct_hash, g_direct_equal);
    for (unsigned i = o->ninputs; i < o->ntensor; i++)
        k->written[i] = g_malloc0(o->tensor[i].bytes ? o->tensor[i].bytes : 1);
    m->check = on_tensor;
    m->check_opaque = k;
    as_add_access_hook(m->as, on_access, k);
    return k;
}

/* After a run that ended well: the output elements no TPC wrote. */
static void unwritten_outputs(TrCheck *k)
{
    for (unsigned i = k->o->ninputs; i < k->o->ntensor; i++) {
        const TrTensor *t = &k->o->tensor[i];
        unsigned e = t->dtype->size;
        uint64_t n = t->bytes / e, missing = 0, first = 0;
        for (uint64_t j = 0; j < n; j++) {
            bool any = false;
            for (unsigned b = 0; b < e && !any; b++)
                any = k->written[i][j * e + b] != 0;
            if (!any && missing++ == 0)
                first = j;
        }
        if (!missing)
            continue;
        GString *l = g_string_new(NULL);
        g_string_append_printf(
            l, "-o %s: %" PRIu64 " of %" PRIu64 " elements written by no TPC, the first at (",
            t->spec, missing, n);
        uint64_t rest = first;
        for (unsigned d = 0; d < t->rank; d++) {
            g_string_append_printf(l, "%s%" PRIu64, d ? ", " : "", rest % t->dim[d]);
            rest /= t->dim[d];
        }
        g_string_append(l, ") (dim 0 first): does the index space cover the tensor?");
        emit(k, l->str);
        g_string_free(l, TRUE);
    }
}

int tr_check_finish(TrCheck *k, int rc)
{
    as_remove_access_hook(k->m->as, on_access, k);
    k->m->check = NULL;
    k->m->check_opaque = NULL;
    if (rc == 0)
        unwritten_outputs(k);
    if (k->o->check == 2 && k->findings && rc == 0) {
        const char *msg = "nxemu-tpc-run: --check=fatal: the checks above fail the run\n";
        if (k->report)
            g_string_append(k->report, msg);
        else
            fputs(msg, stderr);
        rc = TR_EXIT_CHECK;
    }
    return rc;
}

unsigned tr_check_findings(const TrCheck *k)
{
    return k->findings;
}

void tr_check_free(TrCheck *k)
{
    if (!k)
        return;
    for (unsigned i = 0; i < TR_MAX_TENSORS; i++)
        g_free(k->written[i]);
    g_hash_table_destroy(k->seen);
    g_free(k);
}
