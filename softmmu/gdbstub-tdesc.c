/*
 * Target descriptions: how each core type poses to stock gdb-multiarch.
 *
 * gdb only accepts an architecture it was built with, so a sequencer poses
 * as riscv:rv64 and a TPC as riscv:rv32 (reference/gdb-stub-findings.md):
 * the required org.gnu.gdb.riscv.cpu feature (x0..x31 + pc) mirrors real
 * registers, and custom features carry the real registers under their real
 * names.  <osabi>none</osabi> makes gdb single-step with vCont;s instead of
 * planting RISC-V breakpoints.  gdb numbers registers in description order,
 * which is also the 'g' packet order; explicit regnum attributes keep the
 * two in step.
 *
 * gdb's RISC-V unwinder takes the caller's pc from x1 (ra) and builds frame
 * ids from x2 (sp).  So x1 carries the sequencer's real link, the pair
 * R62 (low) / R63 (high) a `call` writes (sequencer.md §2), and x2 reads 0:
 * neither core has a stack, and a data register posing as sp would make
 * gdb believe the frame changed whenever the program wrote it (`next` and
 * `until` would then run away).  A TPC has no call: its x1 reads 0 too.
 *
 * A sequencer ELF has e_flags 2 (machine.md §11.2), which gdb reads as the
 * RISC-V single-float ABI and refuses ("bfd requires flen 4, but target has
 * flen 0") unless the target has 32-bit FP registers: the sequencer
 * therefore also carries org.gnu.gdb.riscv.fpu, f0..f31, whose values are
 * unavailable (the core has no FPU); they are outside the 'g' packet.
 *
 * Sequencer (gdb numbers):
 *   0..31  x0..x31   64 bit: x0, x3..x31 zero-extended r0, r3..r31 (writes
 *                    keep the low 32); x1 = R63:R62; x2 = 0
 *   32     pc        64 bit
 *   33..96 r0..r63   32 bit
 *   97..102 status, fault_code, fault_info (32), fault_pc, fault_addr,
 *           retired (64)
 *   103..134 f0..f31 32 bit, unavailable
 * TPC:
 *   0..31    x0..x31  = S0..S31      32 bit, but x1 = x2 = 0
 *   32       pc                      32 bit (offset from KERNEL_BASE)
 *   33..68   S0..S35, 69..84 SP0..SP15 (8 bit), 85..116 I0..I31 (5 x int32),
 *   117..124 AD0..AD7 (64 bit)
 *   125..164 V0..V39 (2048 bit), 165..180 VP0..VP15 (256 bit): the vector
 *            feature, last and left out of 'g' so that every stop is cheap.
 */
#include <string.h>

#include "softmmu/gdbstub-int.h"

#define SEQ_CUSTOM 33u
#define SEQ_FPU    103u
#define SEQ_COUNT  135u
#define TPC_S      33u
#define TPC_SP     69u
#define TPC_I      85u
#define TPC_AD     117u
#define TPC_V      125u
#define TPC_VP     165u
#define TPC_COUNT  181u

static bool seq_reg(unsigned n, GdbReg *r)
{
    static const struct {
        unsigned core, bytes;
    } extra[] = {
        {GDB_SEQ_STATUS, 4},   {GDB_SEQ_FAULT_CODE, 4}, {GDB_SEQ_FAULT_INFO, 4},
        {GDB_SEQ_FAULT_PC, 8}, {GDB_SEQ_FAULT_ADDR, 8}, {GDB_SEQ_RETIRED, 8},
    };
    if (n == 1) {
        *r = (GdbReg){.core_reg = GDB_SEQ_R0 + 62, .bytes = 8, .kind = GDB_REG_PAIR};
    } else if (n == 2) {
        *r = (GdbReg){.bytes = 8, .kind = GDB_REG_ZERO};
    } else if (n < 32) {
        *r = (GdbReg){.core_reg = GDB_SEQ_R0 + n, .bytes = 8, .kind = GDB_REG_MIRROR};
    } else if (n == 32) {
        *r = (GdbReg){.core_reg = GDB_SEQ_PC, .bytes = 8};
    } else if (n < SEQ_CUSTOM + 64) {
        *r = (GdbReg){.core_reg = GDB_SEQ_R0 + n - SEQ_CUSTOM, .bytes = 4};
    } else if (n < SEQ_FPU) {
        unsigned k = n - SEQ_CUSTOM - 64;
        *r = (GdbReg){.core_reg = extra[k].core, .bytes = extra[k].bytes};
    } else if (n < SEQ_COUNT) {
        *r = (GdbReg){.bytes = 4, .kind = GDB_REG_ABSENT};
    } else {
        return false;
    }
    return true;
}

static bool tpc_reg(unsigned n, GdbReg *r)
{
    *r = (GdbReg){0};
    if (n == 1 || n == 2)
        *r = (GdbReg){.bytes = 4, .kind = GDB_REG_ZERO};
    else if (n < 32)
        *r = (GdbReg){.core_reg = GDB_TPC_S + n, .bytes = 4};
    else if (n == 32)
        *r = (GdbReg){.core_reg = GDB_TPC_PC, .bytes = 4};
    else if (n < TPC_SP)
        *r = (GdbReg){.core_reg = GDB_TPC_S + n - TPC_S, .bytes = 4};
    else if (n < TPC_I)
        *r = (GdbReg){.core_reg = GDB_TPC_SP + n - TPC_SP, .bytes = 1};
    else if (n < TPC_AD)
        *r = (GdbReg){.core_reg = GDB_TPC_I + n - TPC_I, .bytes = 20};
    else if (n < TPC_V)
        *r = (GdbReg){.core_reg = GDB_TPC_AD + n - TPC_AD, .bytes = 8};
    else if (n < TPC_VP)
        *r = (GdbReg){.core_reg = GDB_TPC_V + n - TPC_V, .bytes = 256};
    else if (n < TPC_COUNT)
        *r = (GdbReg){.core_reg = GDB_TPC_VP + n - TPC_VP, .bytes = 32};
    else
        return false;
    return true;
}

bool gdb_tdesc_reg(CpuKind kind, unsigned n, GdbReg *r)
{
    return kind == CPU_KIND_SEQ ? seq_reg(n, r) : tpc_reg(n, r);
}

unsigned gdb_tdesc_count(CpuKind kind)
{
    return kind == CPU_KIND_SEQ ? SEQ_COUNT : TPC_COUNT;
}

unsigned gdb_tdesc_g_count(CpuKind kind)
{
    return kind == CPU_KIND_SEQ ? SEQ_FPU : TPC_V;
}

unsigned gdb_tdesc_pc_regnum(CpuKind kind)
{
    return 32;
}

static void reg(GString *o, const char *name, unsigned bits, unsigned regnum, const char *type,
                const char *group)
{
    g_string_append_printf(o, "<reg name=\"%s\" bitsize=\"%u\" regnum=\"%u\" type=\"%s\"", name,
                           bits, regnum, type);
    if (group)
        g_string_append_printf(o, " group=\"%s\"", group);
    g_string_append(o, "/>\n");
}

static void riscv_cpu_feature(GString *o, unsigned xlen)
{
    char name[16];
    g_string_append(o, "<feature name=\"org.gnu.gdb.riscv.cpu\">\n");
    for (unsigned i = 0; i < 32; i++) {
        snprintf(name, sizeof(name), "x%u", i);
        reg(o, name, xlen, i, i == 1 ? "code_ptr" : i == 2 ? "data_ptr" : "int", NULL);
    }
    reg(o, "pc", xlen, 32, "code_ptr", NULL);
    g_string_append(o, "</feature>\n");
}

static void seq_xml(GString *o)
{
    static const struct {
        const char *name;
        unsigned bits;
    } extra[] = {
        {"status", 32},   {"fault_code", 32}, {"fault_info", 32},
        {"fault_pc", 64}, {"fault_addr", 64}, {"retired", 64},
    };
    char name[16];
    g_string_append(o, "<architecture>riscv:rv64</architecture>\n<osabi>none</osabi>\n");
    riscv_cpu_feature(o, 64);
    g_string_append(o, "<feature name=\"org.nxemu.seq.core\">\n");
    for (unsigned i = 0; i < 64; i++) {
        snprintf(name, sizeof(name), "r%u", i);
        reg(o, name, 32, SEQ_CUSTOM + i, "uint32", "neuron");
    }
    for (unsigned i = 0; i < G_N_ELEMENTS(extra); i++)
        reg(o, extra[i].name, extra[i].bits, SEQ_CUSTOM + 64 + i,
            extra[i].bits == 32 ? "uint32" : "uint64", "neuron");
    g_string_append(o, "</feature>\n<feature name=\"org.gnu.gdb.riscv.fpu\">\n");
    for (unsigned i = 0; i < SEQ_COUNT - SEQ_FPU; i++) {
        snprintf(name, sizeof(name), "f%u", i);
        reg(o, name, 32, SEQ_FPU + i, "ieee_single", "float");
    }
    g_string_append(o, "</feature>\n");
}

static void tpc_xml(GString *o)
{
    char name[16];
    g_string_append(o, "<architecture>riscv:rv32</architecture>\n<osabi>none</osabi>\n");
    riscv_cpu_feature(o, 32);
    g_string_append(o, "<feature name=\"org.nxemu.tpc.core\">\n"
                       "<vector id=\"irf5\" type=\"int32\" count=\"5\"/>\n");
    for (unsigned i = 0; i < 36; i++) {
        snprintf(name, sizeof(name), "S%u", i);
        reg(o, name, 32, TPC_S + i, "uint32", "neuron");
    }
    for (unsigned i = 0; i < 16; i++) {
        snprintf(name, sizeof(name), "SP%u", i);
        reg(o, name, 8, TPC_SP + i, "uint8", "neuron");
    }
    for (unsigned i = 0; i < 32; i++) {
        snprintf(name, sizeof(name), "I%u", i);
        reg(o, name, 160, TPC_I + i, "irf5", "neuron");
    }
    for (unsigned i = 0; i < 8; i++) {
        snprintf(name, sizeof(name), "AD%u", i);
        reg(o, name, 64, TPC_AD + i, "uint64", "neuron");
    }
    g_string_append(o, "</feature>\n<feature name=\"org.nxemu.tpc.vector\">\n"
                       "<vector id=\"v64f32\" type=\"ieee_single\" count=\"64\"/>\n"
                       "<vector id=\"v128bf16\" type=\"bfloat16\" count=\"128\"/>\n"
                       "<vector id=\"v64i32\" type=\"int32\" count=\"64\"/>\n"
                       "<vector id=\"v128i16\" type=\"int16\" count=\"128\"/>\n"
                       "<vector id=\"v256i8\" type=\"int8\" count=\"256\"/>\n"
                       "<union id=\"vreg\">\n"
                       "<field name=\"f32\" type=\"v64f32\"/>\n"
                       "<field name=\"bf16\" type=\"v128bf16\"/>\n"
                       "<field name=\"i32\" type=\"v64i32\"/>\n"
                       "<field name=\"i16\" type=\"v128i16\"/>\n"
                       "<field name=\"i8\" type=\"v256i8\"/>\n"
                       "</union>\n"
                       "<vector id=\"v32u8\" type=\"uint8\" count=\"32\"/>\n"
                       "<vector id=\"v4u64\" type=\"uint64\" count=\"4\"/>\n"
                       "<union id=\"vpreg\">\n"
                       "<field name=\"u8\" type=\"v32u8\"/>\n"
                       "<field name=\"u64\" type=\"v4u64\"/>\n"
                       "</union>\n");
    for (unsigned i = 0; i < 40; i++) {
        snprintf(name, sizeof(name), "V%u", i);
        reg(o, name, 2048, TPC_V + i, "vreg", "vector");
    }
    for (unsigned i = 0; i < 16; i++) {
        snprintf(name, sizeof(name), "VP%u", i);
        reg(o, name, 256, TPC_VP + i, "vpreg", "vector");
    }
    g_string_append(o, "</feature>\n");
}

void gdb_tdesc_xml(CpuKind kind, GString *out)
{
    g_string_append(out, "<?xml version=\"1.0\"?>\n"
                         "<!DOCTYPE target SYSTEM \"gdb-target.dtd\">\n"
                         "<target version=\"1.0\">\n");
    if (kind == CPU_KIND_SEQ)
        seq_xml(out);
    else
        tpc_xml(out);
    g_string_append(out, "</target>\n");
}

unsigned gdb_reg_read(NxCpu *cpu, unsigned n, uint8_t *buf, bool *avail)
{
    GdbReg r;
    *avail = true;
    if (!gdb_tdesc_reg(cpu->kind, n, &r) || !cpu->ops->gdb_read_reg)
        return 0;
    memset(buf, 0, r.bytes);
    switch (r.kind) {
    case GDB_REG_ABSENT:
        *avail = false;
        return r.bytes;
    case GDB_REG_ZERO:
        return r.bytes;
    case GDB_REG_PAIR:
        if (cpu->ops->gdb_read_reg(cpu, r.core_reg, buf, 4) != 4 ||
            cpu->ops->gdb_read_reg(cpu, r.core_reg + 1, buf + 4, 4) != 4)
            return 0;
        return r.bytes;
    case GDB_REG_MIRROR:
        /* zero-extended: the core fills the low 4 bytes */
        cpu->ops->gdb_read_reg(cpu, r.core_reg, buf, r.bytes);
        return r.bytes;
    case GDB_REG_PLAIN:
    default:
        return cpu->ops->gdb_read_reg(cpu, r.core_reg, buf, r.bytes) ? r.bytes : 0;
    }
}

unsigned gdb_reg_write(NxCpu *cpu, unsigned n, const uint8_t *buf, size_t len)
{
    GdbReg r;
    if (!gdb_tdesc_reg(cpu->kind, n, &r) || len != r.bytes || !cpu->ops->gdb_write_reg)
        return 0;
    switch (r.kind) {
    case GDB_REG_ABSENT:
    case GDB_REG_ZERO:
        return 0;
    case GDB_REG_PAIR:
        return cpu->ops->gdb_write_reg(cpu, r.core_reg, buf, 4) &&
                       cpu->ops->gdb_write_reg(cpu, r.core_reg + 1, buf + 4, 4)
                   ? r.bytes
                   : 0;
    case GDB_REG_MIRROR:
        /* x5 = r5: the core register is 32 bits, gdb's is 64 */
        return cpu->ops->gdb_write_reg(cpu, r.core_reg, buf, 4) ? r.bytes : 0;
    case GDB_REG_PLAIN:
    default:
        return cpu->ops->gdb_write_reg(cpu, r.core_reg, buf, len);
    }
}
