/* TPC configuration space: the kernel view (0x000..0xFFF, Gaudi offsets,
 * tpc.md §2.1) and the launch block (0x1000.., machine.md §6) of one TPC. */
#ifndef HW_NC2_TPCCFG_H
#define HW_NC2_TPCCFG_H

#include <stdbool.h>
#include <stdint.h>

#include "nxemu/memory.h"
#include "nxemu/tpc-port.h"

typedef struct Machine Machine;

/* window offsets of the launch block */
#define TPC_W_COMPLETION_SEM 0x1000u
#define TPC_W_COMPLETION_INC 0x1004u
#define TPC_W_EXECUTE        0x1008u
#define TPC_W_STATUS         0x100Cu
#define TPC_W_LAUNCHER       0x1010u
#define TPC_W_CYCLES         0x1018u
#define TPC_W_FAULT_PC       0x1020u
#define TPC_W_FAULT_INFO     0x1024u
#define TPC_W_KERNEL_SIZE    0x1028u
#define TPC_W_FAULT_ADDR     0x1030u
#define TPC_W_BUNDLES        0x1038u

enum { TPC_ST_IDLE = 0, TPC_ST_RUNNING = 1, TPC_ST_DONE = 2, TPC_ST_FAULT = 3 };

typedef struct TpcCfg {
    Machine *m;
    unsigned index;
    uint32_t kv[0x1000 / 4]; /* kernel-view storage, one u32 per word */
    uint64_t kv_gen;         /* counts tpccfg_kv_write calls (descriptor caches) */
    uint32_t completion_sem, completion_inc;
    uint32_t status; /* [1:0] state, [15:8] fault code */
    uint32_t launcher;
    uint32_t launcher_gen; /* launcher's NxBlock.generation at EXECUTE */
    uint64_t cycles, bundles;
    uint64_t launch_retired; /* the core's NxCpu.retired when this kernel launched */
    uint64_t launch_vtime;   /* machine_vtime() of its launch (debugger catch lines) */
    uint32_t fault_pc, fault_info, kernel_size;
    uint64_t fault_addr;
    TpcLaunch latched; /* captured at EXECUTE */
    /* Starts the core after EXECUTE latched everything: tpc_cpu_launch,
     * replaceable by unit tests. */
    void (*launch)(Machine *m, unsigned t);
    MemoryRegion mmio;
} TpcCfg;

void tpccfg_init(TpcCfg *tc, Machine *m, unsigned index);
void tpccfg_destroy(TpcCfg *tc);
/* Kernel-view word access (ld_l/st_l mmio and the window's 0x000..0xFFF). */
uint32_t tpccfg_kv_read(TpcCfg *tc, uint32_t off);
void tpccfg_kv_write(TpcCfg *tc, uint32_t off, uint32_t val);
/* Called by the TPC core when the kernel ends (fault_code 0 = success). */
void tpccfg_finish(TpcCfg *tc, uint32_t fault_code, uint32_t fault_pc, uint32_t fault_info,
                   uint64_t fault_addr, uint64_t cycles, uint64_t bundles);
/* The port the TPC core t works through (include/nxemu/tpc-port.h). */
void tpccfg_port(TpcCfg *tc, TpcPort *port);

#endif
