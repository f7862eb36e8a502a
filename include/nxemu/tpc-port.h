/*
 * What a TPC core sees of the board (docs/architecture.rst, "Layers"): its
 * configuration space as a narrow port the board fills in (hw/nc2/tpccfg.c
 * tpccfg_port) and hands to tpc_cpu_create.  target/tpc never includes a
 * board header; the board never includes a target header.
 *
 * The kernel-view layout (tpc.md §2.1, Gaudi offsets) is part of the TPC
 * architecture, so its offsets live here; the board stores the words.
 */
#ifndef NXEMU_TPC_PORT_H
#define NXEMU_TPC_PORT_H

#include <stdbool.h>
#include <stdint.h>

/* kernel-view offsets */
#define TPC_KV_TENSOR(t)      (0x400u + 0x38u * (t))
#define TPC_KV_SYNC_MSG       0x780u
#define TPC_KV_SYNC_ADDR      0x784u
#define TPC_KV_KERNEL_BASE_LO 0x788u
#define TPC_KV_KERNEL_BASE_HI 0x78Cu
#define TPC_KV_TID_BASE(d)    (0x790u + 8u * (d))
#define TPC_KV_TID_SIZE(d)    (0x794u + 8u * (d))
#define TPC_KV_KERNEL_CONFIG  0x7B8u
#define TPC_KV_KERNEL_ID      0x7BCu
#define TPC_KV_SRF(i)         (0x7C0u + 4u * (i))
#define TPC_KV_ROUND_CSR      0x8FCu
#define TPC_KV_SEMAPHORE      0x908u
#define TPC_KV_INTR_CAUSE     0x958u

/* The launch registers EXECUTE latched (machine.md §6). */
typedef struct TpcLaunch {
    uint64_t kernel_base;
    uint32_t kernel_size;
    uint32_t config;
    uint32_t tid_base[5], tid_size[5];
    uint32_t srf[32];
} TpcLaunch;

/* One TPC's configuration space.  Reads of plain storage words (tensor
 * descriptors, ROUND_CSR) go straight to `kv`, as the hot paths did before
 * the split; every effect goes through a call, so the board keeps its
 * invariants (write masks, kv_gen, the completion semaphore). */
typedef struct TpcPort {
    void *opaque; /* the board's per-TPC object, first argument of the calls */
    /* Kernel-view words, indexed by offset / 4 (read only here). */
    const uint32_t *kv;
    /* Counts kernel-view writes: a cached descriptor is valid while this
     * is unchanged (target/tpc/tensor.c). */
    const uint64_t *kv_gen;
    /* Launch registers of the kernel EXECUTE started (tpc_cpu_launch). */
    const TpcLaunch *latched;
    /* ld_l/st_l of the configuration space: any kernel-view word. */
    uint32_t (*kv_read)(void *opaque, uint32_t off);
    void (*kv_write)(void *opaque, uint32_t off, uint32_t val);
    /* ASO: the kernel view's SEMAPHORE word += val (kv_gen unchanged). */
    void (*sem_add)(void *opaque, uint32_t val);
    /* pa lies in on-chip SRAM (SBUF, PSUM), not in HBM: the timing model's
     * load latency (docs/timing.rst "Memory bandwidth"). */
    bool (*on_chip)(void *opaque, uint64_t pa);
    /* The kernel ended (fault_code 0 = success): status, completion
     * semaphore, the launcher's DRAIN count (machine.md §6). */
    void (*finish)(void *opaque, uint32_t fault_code, uint32_t fault_pc, uint32_t fault_info,
                   uint64_t fault_addr, uint64_t cycles, uint64_t bundles);
} TpcPort;

#endif
