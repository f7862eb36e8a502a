/*
 * The checking mode of nxemu-tpc-run (--check, docs/tpc-guide.rst) and of
 * nxemu.tpc.run(check=True): the mistakes that silicon answers with a
 * silently wrong result, reported as one line per PC.
 *
 * - the TPC target reports a tensor access with no element inside its
 *   tensor (ld_tnsr, st_tnsr, gen_addr: NxCpu.check);
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
#include "api/tpc-run.h"
#include "nxemu/cpu.h"
#include "nxemu/machine.h"
#include "nxemu/memory.h"
#include "target/tpc/asm.h"
#include "target/tpc/insn.h"

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

/* A vector access with no element inside its tensor.  When only dim 0 is
 * outside, it may be the last vectors of a block that a row's length
 * does not fill (a kernel reading 128 elements at a time from rows of
 * 300): reported only when another tensor of the launch has elements at
 * that dim-0 coordinate, i.e. the tensors' shapes disagree (an input of 50
 * per row where the others have 100). */
static void on_tensor(void *opaque, NxCpu *cpu, uint64_t pc, int tensor, const int32_t coord[5],
                      bool dim0_only, const char *what)
{
    TrCheck *k = opaque;
    if (dim0_only && tensor >= 0 && (unsigned)tensor < k->o->ntensor) {
        int other = -1;
        for (unsigned i = 0; i < k->o->ntensor && other < 0; i++)
            if (i != (unsigned)tensor && coord[0] >= 0 &&
                (uint32_t)coord[0] < k->o->tensor[i].dim[0])
                other = (int)i;
        if (other < 0)
            return;
        const TrTensor *t = &k->o->tensor[other];
        char *w = g_strdup_printf("%s, but tensor %d (%s %s) has elements there: do the "
                                  "shapes agree?",
                                  what, other, t->output ? "-o" : "-i", t->spec);
        report_at(k, cpu, pc, 1, tensor, w);
        g_free(w);
        return;
    }
    report_at(k, cpu, pc, 1, tensor, what);
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

/* ---- element types: what the kernel's code does with each tensor ---- */

/* The first use of a tensor's elements as a type, seen in the code. */
typedef struct TypeUse {
    int type;          /* TPC_T_*, -1: none seen */
    uint32_t pc, ldpc; /* the VPU instruction; the ld_tnsr or the producer */
    const char *mnemonic;
    unsigned vreg;
} TypeUse;

/* Vector instructions whose type says nothing about the data (bit
 * operations, moves). */
static bool type_neutral(const char *mn)
{
    static const char *const names[] = {"and", "or", "xor", "not", "mov", "nop", "shr", "shl"};
    for (size_t i = 0; i < G_N_ELEMENTS(names); i++)
        if (!strcmp(mn, names[i]))
            return true;
    return false;
}

/* A straight walk over the code, bundle by bundle (no control flow): the
 * vector registers ld_tnsr of an immediate tensor fills, and the first VPU
 * instruction with a data type that reads one; for outputs, the type of the
 * VPU instruction whose result st_tnsr stores.  What a register-selected
 * tensor or a loop-carried value gets is not followed: no report then. */
static void text_types(const uint8_t *text, size_t len, TypeUse use[TR_MAX_TENSORS])
{
    int vsrc[64];
    int vtype[64];
    uint32_t vpc[64];
    const char *vmn[64];
    for (unsigned i = 0; i < 64; i++) {
        vsrc[i] = vtype[i] = -1;
        vpc[i] = 0;
        vmn[i] = NULL;
    }
    for (unsigned t = 0; t < TR_MAX_TENSORS; t++)
        use[t].type = -1;
    for (size_t off = 0; off + TPC_BUNDLE_BYTES <= len; off += TPC_BUNDLE_BYTES) {
        TpcBundle b;
        NxFault f;
        if (!tpc_decode_bundle(text + off, &b, &f) || b.is_loop)
            continue;
        const TpcInsn *ld = &b.slot[TPC_SLOT_LD], *vpu = &b.slot[TPC_SLOT_VPU],
                      *st = &b.slot[TPC_SLOT_ST];
        /* an untyped row's OPERANDS_TYPE is no data type (convert_int*: the
         * rounding mode; mov_dg, mov_g move bytes) */
        bool vpu_typed = vpu->desc && vpu->desc->kind == TPC_KIND_EXEC && vpu->desc->types &&
                         !type_neutral(vpu->desc->mnemonic) && vpu->type < TPC_T_COUNT &&
                         vpu->type != TPC_T_B;
        /* reads first: every slot reads before any writes; shuffle's SRC_B
         * is control bytes whatever the type (TPC_F_VEC_B) */
        bool b_typed = vpu->desc && !(vpu->desc->flags & TPC_F_VEC_B);
        const TpcOperand *ops[] = {&vpu->a, b_typed ? &vpu->b : &vpu->c, &vpu->c, &vpu->d};
        for (unsigned k = 0; vpu_typed && k < G_N_ELEMENTS(ops); k++) {
            if (ops[k]->kind != TPC_OP_V || ops[k]->num >= 64)
                continue;
            int t = vsrc[ops[k]->num];
            if (t >= 0 && t < TR_MAX_TENSORS && use[t].type < 0)
                use[t] = (TypeUse){vpu->type, (uint32_t)off, 0, vpu->desc->mnemonic, ops[k]->num};
            if (t >= 0 && t < TR_MAX_TENSORS)
                use[t].ldpc = use[t].pc == off ? vpc[ops[k]->num] : use[t].ldpc;
        }
        /* a V stored to a tensor named by number (st_tnsr*, TPC_OPF_TNSR) */
        int st_t = tpc_insn_tensor(st);
        if (st_t >= 0 && st->c.kind == TPC_OP_V && st->c.num < 64) {
            int t = st_t;
            int vt = vtype[st->c.num];
            if (vt >= 0 && use[t].type < 0)
                use[t] = (TypeUse){vt, vpc[st->c.num], (uint32_t)off, vmn[st->c.num], st->c.num};
        }
        /* then writes */
        int ld_t = ld->desc ? tpc_insn_tensor(ld) : -2;
        if (ld_t != -2 && ld->dst.kind == TPC_OP_V && ld->dst.num < 64) {
            vsrc[ld->dst.num] = ld_t; /* a tensor load (-1: from S27) */
            vtype[ld->dst.num] = -1;
            vpc[ld->dst.num] = (uint32_t)off;
        } else if (ld->desc && ld->dst.kind == TPC_OP_V && ld->dst.num < 64) {
            vsrc[ld->dst.num] = vtype[ld->dst.num] = -1;
        }
        if (vpu->desc && vpu->desc->kind == TPC_KIND_EXEC && vpu->dst.kind == TPC_OP_V &&
            vpu->dst.num < 64) {
            vsrc[vpu->dst.num] = -1;
            /* a conversion's OPERANDS_TYPE is its source's */
            bool same = strncmp(vpu->desc->mnemonic, "convert", 7) &&
                        strncmp(vpu->desc->mnemonic, "pack", 4) &&
                        strncmp(vpu->desc->mnemonic, "unpack", 6);
            /* a register-pair result (MAC/MUL's wide accumulators) or one of
             * another type (TPC_F_RES_OTHER: counts, exponents) is not of
             * OPERANDS_TYPE */
            bool res_other = (vpu->desc->flags & TPC_F_RES_OTHER) ||
                             tpc_vpu_pair_dest(vpu->opc, vpu->type, vpu->sw);
            vtype[vpu->dst.num] = vpu_typed && same && !res_other ? vpu->type : -1;
            vpc[vpu->dst.num] = (uint32_t)off;
            vmn[vpu->dst.num] = vpu->desc->mnemonic;
        }
    }
}

static int dtype_type(const char *name)
{
    for (unsigned t = 0; t < TPC_T_COUNT; t++)
        if (!strcmp(tpc_type_suffix[t], name))
            return (int)t;
    return -1;
}

void tr_check_types(TrCheck *k, const uint8_t *text, size_t len)
{
    TypeUse use[TR_MAX_TENSORS];
    text_types(text, len, use);
    for (unsigned i = 0; i < k->o->ntensor; i++) {
        const TrTensor *t = &k->o->tensor[i];
        int want = use[i].type, have = dtype_type(t->dtype->name);
        if (want < 0 || have < 0)
            continue;
        if (tpc_type_is_float((unsigned)want) == tpc_type_is_float((unsigned)have) &&
            tpc_type_size((unsigned)want) == tpc_type_size((unsigned)have))
            continue;
        char line[400];
        if (!t->output)
            snprintf(line, sizeof(line),
                     "-i %s: the kernel uses tensor %u as %s: %s.%s at pc=0x%08" PRIx32
                     " reads V%u, loaded from it at pc=0x%08" PRIx32,
                     t->spec, i, tpc_type_suffix[want], use[i].mnemonic, tpc_type_suffix[want],
                     use[i].pc, use[i].vreg, use[i].ldpc);
        else
            snprintf(line, sizeof(line),
                     "-o %s: the kernel stores %s into tensor %u: V%u of %s.%s at pc=0x%08" PRIx32
                     ", stored at pc=0x%08" PRIx32,
                     t->spec, tpc_type_suffix[want], i, use[i].vreg, use[i].mnemonic,
                     tpc_type_suffix[want], use[i].pc, use[i].ldpc);
        emit(k, line);
    }
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
    for (unsigned i = 0; i < m->cfg.nr_tpc; i++) {
        m->tpc[i]->check = on_tensor;
        m->tpc[i]->check_opaque = k;
    }
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
    for (unsigned i = 0; i < k->m->cfg.nr_tpc; i++) {
        k->m->tpc[i]->check = NULL;
        k->m->tpc[i]->check_opaque = NULL;
    }
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
