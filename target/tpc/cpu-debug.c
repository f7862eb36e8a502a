/*
 * Debug-facing NxCpuOps of the TPC core: fault names and diagnostic line
 * (tpc.md §6.6), register dump, disassembly, gdb register access (numbering
 * in cpu.h).
 */
#include <inttypes.h>
#include <signal.h>
#include <string.h>

#include "target/tpc/asm.h"
#include "target/tpc/cpu.h"
#include "target/tpc/lut.h"

const char *tpc_fault_name(uint32_t code)
{
    static const char *const n[] = {
        "NONE",       "ILLEGAL_OPCODE", "ILLEGAL_OPERAND", "ILLEGAL_INSTRUCTION", "UNIMPLEMENTED",
        "MISALIGNED", "SLM_RANGE",      "VLM_RANGE",       "GLOBAL_FAULT",        "TENSOR_CONFIG",
        "LOOP_DEPTH", "PC_RANGE",       "BUNDLE_CONFLICT",
    };
    return code < G_N_ELEMENTS(n) ? n[code] : "UNKNOWN";
}

static int tpc_signal_of(uint32_t code)
{
    switch (code) {
    case TPC_FAULT_MISALIGNED:
    case TPC_FAULT_GLOBAL_FAULT:
        return SIGBUS;
    case TPC_FAULT_SLM_RANGE:
    case TPC_FAULT_VLM_RANGE:
    case TPC_FAULT_PC_RANGE:
        return SIGSEGV;
    default:
        return SIGILL;
    }
}

void tpc_fault_line(NxCpu *cpu, GString *out)
{
    const NxFault *f = &cpu->fault;
    g_string_append_printf(out,
                           "nxemu: fault: tpc=%u code=%s(%" PRIu32 ") info=0x%08" PRIx32
                           " pc=0x%08" PRIx32 " addr=0x%016" PRIx64,
                           cpu->index, tpc_fault_name(f->code), f->code, f->info,
                           (uint32_t)cpu->fault_pc, f->addr);
    tpc_lut_fault_note(f->code, f->info, out);
}

int tpc_fault_signal(NxCpu *cpu)
{
    return tpc_signal_of(cpu->fault.code);
}

void tpc_dump(NxCpu *cpu, GString *out)
{
    TpcCpu *c = tpc_cpu(cpu);
    g_string_append_printf(out, "tpc=%u pc=0x%08" PRIx32 " state=%s loops=%u\n", c->t, c->pc,
                           cpu_state_name(cpu->state), c->nloops);
    for (unsigned i = 0; i < TPC_NR_S; i++)
        g_string_append_printf(out, "S%-2u=%08" PRIx32 "%s", i, c->s[i], (i % 6 == 5) ? "\n" : " ");
    g_string_append(out, "SP=");
    for (unsigned i = 0; i < TPC_NR_SP; i++)
        g_string_append_c(out, c->sp[i] ? '1' : '0');
    g_string_append_c(out, '\n');
    for (unsigned i = 0; i < TPC_NR_I; i++) {
        const int32_t *d = c->irf[i];
        if (i < 2 || d[0] || d[1] || d[2] || d[3] || d[4])
            g_string_append_printf(out, "I%u=[%d,%d,%d,%d,%d]\n", i, d[0], d[1], d[2], d[3], d[4]);
    }
    for (unsigned i = 0; i < c->nloops; i++) {
        const TpcLoopFrame *f = &c->loops[i];
        g_string_append_printf(out,
                               "loop%u body=0x%08" PRIx32 " end=0x%08" PRIx32 " bound=%" PRId32
                               " step=%" PRId32 " cmp=%u%s\n",
                               f->depth, f->body, f->end, f->bound, f->step, f->cmp,
                               f->once ? " once" : "");
    }
    if (c->loop_pending.active)
        g_string_append_printf(out, "loop pending: %s exit=0x%08" PRIx32 "\n",
                               c->loop_pending.push ? "enter" : "skip", c->loop_pending.exit_pc);
    for (unsigned i = 0; i < TPC_NR_AD; i++)
        if (c->ad[i].pa)
            g_string_append_printf(out, "AD%u=0x%016" PRIx64 " e=%u t=%u\n", i, c->ad[i].pa,
                                   c->ad[i].esize, c->ad[i].tensor);
}

/* addr is a PC value (byte offset from KERNEL_BASE), like get_pc. */
unsigned tpc_disas(NxCpu *cpu, uint64_t addr, GString *out)
{
    TpcCpu *c = tpc_cpu(cpu);
    uint8_t raw[TPC_BUNDLE];
    uint64_t bad;
    if (as_rw_bytes(c->m->as, c->kernel_base + addr, raw, TPC_BUNDLE, false,
                    MEMTXATTRS(MEM_REQ_DEBUG, 0), &bad) != MEMTX_OK)
        return 0;
    tpc_disas_bundle_gs(out, raw, (uint32_t)addr, NULL, NULL);
    return TPC_BUNDLE;
}

static void *gdb_reg(TpcCpu *c, unsigned n, unsigned *len, uint8_t *tmp)
{
    if (n < TPC_GDB_SP) {
        *len = 4;
        return &c->s[n];
    }
    if (n < TPC_GDB_V) {
        *len = 1;
        tmp[0] = c->sp[n - TPC_GDB_SP]; /* (SP0: the stored 1) */
        return NULL;
    }
    if (n < TPC_GDB_VP) {
        *len = TPC_VBYTES;
        return c->v[n - TPC_GDB_V];
    }
    if (n < TPC_GDB_I) {
        *len = TPC_VPBYTES;
        if (n == TPC_GDB_VP) {
            memset(tmp, 0xFF, TPC_VPBYTES);
            return NULL;
        }
        return c->vp[n - TPC_GDB_VP];
    }
    if (n < TPC_GDB_AD) {
        *len = 20;
        return c->irf[n - TPC_GDB_I];
    }
    if (n < TPC_GDB_PC) {
        *len = 8;
        return &c->ad[n - TPC_GDB_AD].pa;
    }
    if (n == TPC_GDB_PC) {
        *len = 4;
        return &c->pc;
    }
    *len = 0;
    return NULL;
}

unsigned tpc_gdb_read_reg(NxCpu *cpu, unsigned n, uint8_t *buf, size_t buflen)
{
    uint8_t tmp[TPC_VPBYTES];
    unsigned len;
    void *p = gdb_reg(tpc_cpu(cpu), n, &len, tmp);
    if (!len || buflen < len)
        return 0;
    memcpy(buf, p ? p : tmp, len);
    return len;
}

unsigned tpc_gdb_write_reg(NxCpu *cpu, unsigned n, const uint8_t *buf, size_t blen)
{
    TpcCpu *c = tpc_cpu(cpu);
    uint8_t tmp[TPC_VPBYTES];
    unsigned len;
    void *p = gdb_reg(c, n, &len, tmp);
    if (!len || blen < len)
        return 0;
    if (n >= TPC_GDB_SP && n < TPC_GDB_V) {
        if (n != TPC_GDB_SP)
            c->sp[n - TPC_GDB_SP] = buf[0] & 1u;
        return len;
    }
    if (p) /* SP0/VP0 are constants: writes ignored */
        memcpy(p, buf, len);
    return len;
}
