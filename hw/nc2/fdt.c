/*
 * Machine configuration from a device tree (machine.md §10).
 *
 * Every rule failure is one GError line naming the node, the property and
 * the rule, e.g. "dtb: /dma@2803800000: nxemu,queue-depth = 0: must be
 * 1..255"; main prefixes "nxemu: " and exits 125.  The tree is never trusted:
 * fdt_check_full runs first, then every property length is checked before
 * its value is read.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <libfdt.h>

#include "hw/nc2/fdt-int.h"
#include "hw/nc2/fdt.h"
#include "hw/nc2/memmap.h"
#include "nxemu/error.h"
#include "nxemu/file-io.h"

#define DEF_TLB     16
#define DEF_QUANTUM 64
#define DEF_ENGINES 16
#define DEF_QDEPTH  64
#define DEF_BPC     64
#define DEF_LATENCY 32
/* a TPC's global-memory port: no public fact, PROJECT (docs/timing.rst) */
#define DEF_GMEM_LATENCY 0
#define DEF_GMEM_BPC     64
#define DEF_SRAM_LATENCY 0
/* 820 GB/s per Trainium/Inferentia2 device of 2 NeuronCore-v2, at one cycle
 * per ns (docs/timing.rst "Memory bandwidth") */
#define DEF_HBM_BPC 410

bool nc2_fdt_error(GError **err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_set_error(err, NX_ERROR, NX_ERROR_CONFIG, "dtb: %s", msg);
    g_free(msg);
    return false;
}

/* Node path for messages ("/dma@2803800000"). */
typedef struct NodePath {
    char s[256];
} NodePath;

static const char *node_path(const void *fdt, int node, NodePath *p)
{
    if (fdt_get_path(fdt, node, p->s, sizeof(p->s)) < 0) {
        g_strlcpy(p->s, "?", sizeof(p->s));
    }
    return p->s;
}

/* "name@unit" -> does the part before '@' equal base? */
bool nc2_fdt_node_is(const void *fdt, int node, const char *base)
{
    const char *name = fdt_get_name(fdt, node, NULL);
    size_t n = strlen(base);
    return name && !strncmp(name, base, n) && (name[n] == '\0' || name[n] == '@');
}

/* The only subnode of parent named base[@...]; -1 if none, -2 (error set) if
 * several. */
static int find_unique_child(const void *fdt, int parent, const char *base, GError **err)
{
    int found = -1, node;
    fdt_for_each_subnode(node, fdt, parent)
    {
        if (nc2_fdt_node_is(fdt, node, base)) {
            if (found >= 0) {
                NodePath p;
                nc2_fdt_error(err, "%s: more than one '%s' node", node_path(fdt, node, &p), base);
                return -2;
            }
            found = node;
        }
    }
    return found;
}

/* The root's children, found in one walk: libfdt's subnode iteration walks
 * each skipped child's whole subtree, so looking every fixed node up from
 * the root again made start-up pay for the 64-entry sequencer and TPC
 * subtrees once per lookup. */
typedef struct RootIdx {
    const void *fdt;
    unsigned n;
    int off[64];
    bool overflow; /* more children than off[] holds: look up the slow way */
} RootIdx;

static void root_index(const void *fdt, RootIdx *r)
{
    int node;
    r->fdt = fdt;
    r->n = 0;
    r->overflow = false;
    fdt_for_each_subnode(node, fdt, 0)
    {
        if (r->n == G_N_ELEMENTS(r->off)) {
            r->overflow = true;
            return;
        }
        r->off[r->n++] = node;
    }
}

/* find_unique_child(fdt, 0, base) through the index. */
static int root_child(const RootIdx *r, const char *base, GError **err)
{
    if (r->overflow)
        return find_unique_child(r->fdt, 0, base, err);
    int found = -1;
    for (unsigned i = 0; i < r->n; i++) {
        if (nc2_fdt_node_is(r->fdt, r->off[i], base)) {
            if (found >= 0) {
                NodePath p;
                nc2_fdt_error(err, "%s: more than one '%s' node",
                              node_path(r->fdt, r->off[i], &p), base);
                return -2;
            }
            found = r->off[i];
        }
    }
    return found;
}

/* 1 = read, 0 = absent (and not required), -1 = error set. */
static int get_u32(const void *fdt, int node, const char *prop, bool required, uint32_t *out,
                   GError **err)
{
    int len;
    NodePath p;
    const fdt32_t *v = fdt_getprop(fdt, node, prop, &len);
    if (!v) {
        if (!required) {
            return 0;
        }
        nc2_fdt_error(err, "%s: %s: missing", node_path(fdt, node, &p), prop);
        return -1;
    }
    if (len != 4) {
        nc2_fdt_error(err, "%s: %s: malformed (expected one 32-bit cell, got %d bytes)",
                      node_path(fdt, node, &p), prop, len);
        return -1;
    }
    *out = fdt32_to_cpu(*v);
    return 1;
}

/* Optional u32 with a default and an inclusive range. */
static bool get_u32_range(const void *fdt, int node, const char *prop, uint32_t def, uint64_t lo,
                          uint64_t hi, uint32_t *out, GError **err)
{
    int r = get_u32(fdt, node, prop, false, out, err);
    if (r < 0) {
        return false;
    }
    if (r == 0) {
        *out = def;
        return true;
    }
    if (*out < lo || *out > hi) {
        NodePath p;
        return nc2_fdt_error(err, "%s: %s = %u: must be %llu..%llu", node_path(fdt, node, &p), prop,
                             *out, (unsigned long long)lo, (unsigned long long)hi);
    }
    return true;
}

static bool check_fixed_u32(const void *fdt, int node, const char *prop, uint32_t want,
                            GError **err)
{
    uint32_t v;
    if (get_u32(fdt, node, prop, true, &v, err) < 0) {
        return false;
    }
    if (v != want) {
        NodePath p;
        return nc2_fdt_error(err, "%s: %s = %u: must be %u (fixed in this version)",
                             node_path(fdt, node, &p), prop, v, want);
    }
    return true;
}

static bool check_compatible(const void *fdt, int node, const char *compat, GError **err)
{
    NodePath p;
    int len;
    if (!fdt_getprop(fdt, node, "compatible", &len)) {
        return nc2_fdt_error(err, "%s: compatible: missing (must contain \"%s\")",
                             node_path(fdt, node, &p), compat);
    }
    if (fdt_stringlist_contains(fdt_getprop(fdt, node, "compatible", NULL), len, compat) != 1) {
        return nc2_fdt_error(err, "%s: compatible: must contain \"%s\"", node_path(fdt, node, &p),
                             compat);
    }
    return true;
}

/* Cells of a parent's #address-cells / #size-cells (libfdt defaults 2 / 1). */
bool nc2_fdt_parent_cells(const void *fdt, int parent, int *ac, int *sc, GError **err)
{
    NodePath p;
    *ac = fdt_address_cells(fdt, parent);
    *sc = fdt_size_cells(fdt, parent);
    if (*ac < 1 || *ac > 2) {
        return nc2_fdt_error(err, "%s: #address-cells: must be 1 or 2", node_path(fdt, parent, &p));
    }
    if (*sc < 0 || *sc > 2) {
        return nc2_fdt_error(err, "%s: #size-cells: must be 0..2", node_path(fdt, parent, &p));
    }
    return true;
}

static uint64_t read_cells(const fdt32_t *c, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++) {
        v = (v << 32) | fdt32_to_cpu(c[i]);
    }
    return v;
}

/* The single (base, size) pair of a node's reg, in its parent's cells.  The
 * caller names the parent (it walked there): libfdt's fdt_parent_offset
 * rescans the tree from the root, which made start-up quadratic in nodes. */
static bool get_reg(const void *fdt, int parent, int node, uint64_t *base, uint64_t *size,
                    GError **err)
{
    int ac, sc, len;
    NodePath p;
    if (!nc2_fdt_parent_cells(fdt, parent, &ac, &sc, err)) {
        return false;
    }
    const fdt32_t *v = fdt_getprop(fdt, node, "reg", &len);
    if (!v) {
        return nc2_fdt_error(err, "%s: reg: missing", node_path(fdt, node, &p));
    }
    if (len != (ac + sc) * 4) {
        return nc2_fdt_error(err, "%s: reg: malformed (expected %d cells, got %d bytes)",
                             node_path(fdt, node, &p), ac + sc, len);
    }
    *base = read_cells(v, ac);
    *size = read_cells(v + ac, sc);
    return true;
}

static bool check_reg(const void *fdt, int parent, int node, uint64_t want_base,
                      uint64_t want_size, GError **err)
{
    uint64_t base, size;
    if (!get_reg(fdt, parent, node, &base, &size, err)) {
        return false;
    }
    if (base != want_base || size != want_size) {
        NodePath p;
        return nc2_fdt_error(err, "%s: reg = <0x%llx 0x%llx>: must be <0x%llx 0x%llx>",
                             node_path(fdt, node, &p), (unsigned long long)base,
                             (unsigned long long)size, (unsigned long long)want_base,
                             (unsigned long long)want_size);
    }
    return true;
}

/* A required root node of a fixed device: unique, compatible, reg. */
static int fixed_node(const RootIdx *ri, const char *base, const char *compat, uint64_t pa,
                      uint64_t size, GError **err)
{
    const void *fdt = ri->fdt;
    int node = root_child(ri, base, err);
    if (node == -2) {
        return -1;
    }
    if (node < 0) {
        nc2_fdt_error(err, "/: missing node '%s@%llx'", base, (unsigned long long)pa);
        return -1;
    }
    if (!check_compatible(fdt, node, compat, err) || !check_reg(fdt, 0, node, pa, size, err)) {
        return -1;
    }
    return node;
}

typedef struct FixedProp {
    const char *name;
    uint32_t value;
} FixedProp;

static bool check_fixed_props(const void *fdt, int node, const FixedProp *fp, size_t n,
                              GError **err)
{
    for (size_t i = 0; i < n; i++) {
        if (!check_fixed_u32(fdt, node, fp[i].name, fp[i].value, err)) {
            return false;
        }
    }
    return true;
}

bool nc2_hbm_size_ok(uint64_t s)
{
    return s % NC2_HBM_GRANULE == 0 && s >= NC2_HBM_MIN && s <= NC2_HBM_MAX;
}

static bool extract_memory(const RootIdx *ri, MachineConfig *cfg, GError **err)
{
    const void *fdt = ri->fdt;
    NodePath p;
    uint64_t base, size;
    int len;
    int node = root_child(ri, "memory", err);
    if (node == -2) {
        return false;
    }
    if (node < 0) {
        return nc2_fdt_error(err, "/: missing node 'memory@0'");
    }
    const char *dt = fdt_getprop(fdt, node, "device_type", &len);
    if (!dt || len != sizeof("memory") || memcmp(dt, "memory", len)) {
        return nc2_fdt_error(err, "%s: device_type: must be \"memory\"", node_path(fdt, node, &p));
    }
    if (!get_reg(fdt, 0, node, &base, &size, err)) {
        return false;
    }
    if (base != 0) {
        return nc2_fdt_error(err, "%s: reg base 0x%llx: HBM must start at 0",
                             node_path(fdt, node, &p), (unsigned long long)base);
    }
    if (!nc2_hbm_size_ok(size)) {
        return nc2_fdt_error(err,
                             "%s: reg size 0x%llx: must be a multiple of 16 MiB in 32 MiB..64 GiB",
                             node_path(fdt, node, &p), (unsigned long long)size);
    }
    cfg->hbm_size = size;
    return get_u32_range(fdt, node, "nxemu,bytes-per-cycle", DEF_HBM_BPC, 1, 1u << 20,
                         &cfg->hbm_bytes_per_cycle, err);
}

/* Ids 0..N-1 each exactly once (sequencer reg, tpc nxemu,index). */
static bool check_ids(const void *fdt, const int *nodes, const uint32_t *ids, unsigned n,
                      const char *prop, const char *what, GError **err)
{
    bool seen[NC2_MAX_SEQ > NC2_MAX_TPC ? NC2_MAX_SEQ : NC2_MAX_TPC] = {false};
    NodePath p;
    for (unsigned i = 0; i < n; i++) {
        if (ids[i] >= n) {
            return nc2_fdt_error(err, "%s: %s = %u: %s ids must be 0..%u (one per node)",
                                 node_path(fdt, nodes[i], &p), prop, ids[i], what, n - 1);
        }
        if (seen[ids[i]]) {
            return nc2_fdt_error(err, "%s: %s = %u: duplicate %s id", node_path(fdt, nodes[i], &p),
                                 prop, ids[i], what);
        }
        seen[ids[i]] = true;
    }
    return true;
}

static bool extract_sequencers(const RootIdx *ri, MachineConfig *cfg, GError **err)
{
    const void *fdt = ri->fdt;
    NodePath p;
    int nodes[NC2_MAX_SEQ] = {0};
    uint32_t ids[NC2_MAX_SEQ] = {0};
    unsigned n = 0;
    int node;
    int parent = root_child(ri, "sequencers", err);
    if (parent == -2) {
        return false;
    }
    if (parent < 0) {
        return nc2_fdt_error(err, "/: missing node 'sequencers'");
    }
    fdt_for_each_subnode(node, fdt, parent)
    {
        uint32_t tlb;
        if (!nc2_fdt_node_is(fdt, node, "sequencer")) {
            continue;
        }
        if (n == NC2_MAX_SEQ) {
            return nc2_fdt_error(err, "%s: more than %d sequencer nodes",
                                 node_path(fdt, parent, &p), NC2_MAX_SEQ);
        }
        if (!check_compatible(fdt, node, "nxemu,sequencer-nc2", err) ||
            get_u32(fdt, node, "reg", true, &ids[n], err) < 0 ||
            !get_u32_range(fdt, node, "nxemu,tlb-entries", DEF_TLB, 1, NC2_MAX_TLB, &tlb, err)) {
            return false;
        }
        if (n == 0) {
            cfg->tlb_entries = tlb;
        } else if (tlb != cfg->tlb_entries) {
            return nc2_fdt_error(err,
                                 "%s: nxemu,tlb-entries = %u: must be the same on every sequencer "
                                 "(%u on the first)",
                                 node_path(fdt, node, &p), tlb, cfg->tlb_entries);
        }
        nodes[n++] = node;
    }
    if (n == 0) {
        return nc2_fdt_error(err, "%s: no sequencer node: must have 1..%d",
                             node_path(fdt, parent, &p), NC2_MAX_SEQ);
    }
    if (!check_ids(fdt, nodes, ids, n, "reg", "core", err)) {
        return false;
    }
    cfg->nr_seq = n;
    return true;
}

static bool extract_tpcs(const RootIdx *ri, MachineConfig *cfg, GError **err)
{
    const void *fdt = ri->fdt;
    NodePath p;
    int nodes[NC2_MAX_TPC] = {0};
    uint32_t ids[NC2_MAX_TPC] = {0};
    unsigned n = 0;
    int node;
    int parent = root_child(ri, "tpcs", err);
    cfg->nr_tpc = 0;
    cfg->tpc_gmem_latency = DEF_GMEM_LATENCY;
    cfg->tpc_gmem_bytes_per_cycle = DEF_GMEM_BPC;
    cfg->tpc_sram_latency = DEF_SRAM_LATENCY;
    if (parent == -2) {
        return false;
    }
    if (parent < 0) {
        return true; /* no TPCs */
    }
    if (!get_u32_range(fdt, parent, "nxemu,gmem-latency-cycles", DEF_GMEM_LATENCY, 0, 1u << 20,
                       &cfg->tpc_gmem_latency, err) ||
        !get_u32_range(fdt, parent, "nxemu,gmem-bytes-per-cycle", DEF_GMEM_BPC, 1, 1u << 20,
                       &cfg->tpc_gmem_bytes_per_cycle, err) ||
        !get_u32_range(fdt, parent, "nxemu,sram-latency-cycles", DEF_SRAM_LATENCY, 0, 1u << 20,
                       &cfg->tpc_sram_latency, err)) {
        return false;
    }
    fdt_for_each_subnode(node, fdt, parent)
    {
        if (!nc2_fdt_node_is(fdt, node, "tpc")) {
            continue;
        }
        if (n == NC2_MAX_TPC) {
            return nc2_fdt_error(err, "%s: more than %d tpc nodes", node_path(fdt, parent, &p),
                                 NC2_MAX_TPC);
        }
        if (!check_compatible(fdt, node, "nxemu,tpc", err) ||
            get_u32(fdt, node, "nxemu,index", true, &ids[n], err) < 0) {
            return false;
        }
        nodes[n++] = node;
    }
    if (!check_ids(fdt, nodes, ids, n, "nxemu,index", "tpc", err)) {
        return false;
    }
    const MemMapEntry *t = &nc2_memmap[NC2_TPC];
    for (unsigned i = 0; i < n; i++) {
        if (!check_reg(fdt, parent, nodes[i], t->base + ids[i] * t->stride, t->size, err)) {
            return false;
        }
    }
    cfg->nr_tpc = n;
    return true;
}

static bool extract_chosen(const RootIdx *ri, MachineConfig *cfg, GError **err)
{
    const void *fdt = ri->fdt;
    uint32_t q = DEF_QUANTUM;
    int node = root_child(ri, "chosen", err);
    if (node == -2) {
        return false;
    }
    cfg->dtb_in_memory = false;
    if (node >= 0) {
        if (!get_u32_range(fdt, node, "nxemu,quantum", DEF_QUANTUM, 1, NC2_MAX_QUANTUM, &q, err)) {
            return false;
        }
        cfg->dtb_in_memory = fdt_getprop(fdt, node, "nxemu,dtb-in-memory", NULL) != NULL;
    }
    cfg->quantum = q;
    return true;
}

static bool extract_devices(const RootIdx *ri, MachineConfig *cfg, GError **err)
{
    const void *fdt = ri->fdt;
    static const FixedProp sbuf_props[] = {
        {"nxemu,partitions", NC2_SBUF_PARTITIONS},
        {"nxemu,partition-pitch", NC2_SBUF_PITCH},
        {"nxemu,partition-bytes", NC2_SBUF_PART_BYTES},
    };
    static const FixedProp psum_props[] = {
        {"nxemu,partitions", NC2_PSUM_PARTITIONS},      {"nxemu,partition-pitch", NC2_PSUM_PITCH},
        {"nxemu,partition-bytes", NC2_PSUM_PART_BYTES}, {"nxemu,banks", NC2_PSUM_BANKS},
        {"nxemu,bank-bytes", NC2_PSUM_BANK_BYTES},
    };
    static const FixedProp evsem_props[] = {
        {"nxemu,semaphores", NC2_NR_SEMAPHORES},
        {"nxemu,events", NC2_NR_EVENTS},
    };
    const MemMapEntry *mm = nc2_memmap;
    int node;
    uint32_t v;

    node = fixed_node(ri, "sbuf", "nxemu,sbuf", mm[NC2_SBUF].base, mm[NC2_SBUF].size, err);
    if (node < 0 || !check_fixed_props(fdt, node, sbuf_props, G_N_ELEMENTS(sbuf_props), err)) {
        return false;
    }
    node = fixed_node(ri, "psum", "nxemu,psum", mm[NC2_PSUM].base, mm[NC2_PSUM].size, err);
    if (node < 0 || !check_fixed_props(fdt, node, psum_props, G_N_ELEMENTS(psum_props), err)) {
        return false;
    }
    node = fixed_node(ri, "evsem", "nxemu,evsem", mm[NC2_EVSEM].base, mm[NC2_EVSEM].size, err);
    if (node < 0 || !check_fixed_props(fdt, node, evsem_props, G_N_ELEMENTS(evsem_props), err)) {
        return false;
    }
    node = fixed_node(ri, "dma", "nxemu,dma", mm[NC2_DMA].base,
                      mm[NC2_DMA].stride * mm[NC2_DMA].max, err);
    if (node < 0 ||
        !get_u32_range(fdt, node, "nxemu,engines", DEF_ENGINES, 1, NC2_MAX_DMA, &v, err)) {
        return false;
    }
    cfg->nr_dma = v;
    if (!get_u32_range(fdt, node, "nxemu,queue-depth", DEF_QDEPTH, 1, 255, &v, err)) {
        return false;
    }
    cfg->dma_queue_depth = v;
    if (!get_u32_range(fdt, node, "nxemu,bytes-per-cycle", DEF_BPC, 1, 1u << 20,
                       &cfg->dma_bytes_per_cycle, err) ||
        !get_u32_range(fdt, node, "nxemu,latency-cycles", DEF_LATENCY, 0, 1u << 20,
                       &cfg->dma_latency, err)) {
        return false;
    }
    node = fixed_node(ri, "test", "nxemu,test", mm[NC2_TEST].base, mm[NC2_TEST].size, err);
    return node >= 0;
}

bool nc2_fdt_extract(const void *fdt, MachineConfig *cfg, GError **err)
{
    MachineConfig c = {0};
    RootIdx ri;
    root_index(fdt, &ri);
    if (!check_compatible(fdt, 0, "nxemu,nc2-machine", err) || !extract_chosen(&ri, &c, err) ||
        !extract_sequencers(&ri, &c, err) || !extract_memory(&ri, &c, err) ||
        !extract_devices(&ri, &c, err) || !extract_tpcs(&ri, &c, err)) {
        return false;
    }
    *cfg = c;
    return true;
}

bool nc2_fdt_check(const void *fdt, size_t size, const char *what, GError **err)
{
    int r;
    if (size < sizeof(struct fdt_header)) {
        return nc2_fdt_error(err, "%s: %zu bytes: too short for a device tree blob", what, size);
    }
    if (fdt_magic(fdt) != FDT_MAGIC) {
        return nc2_fdt_error(err, "%s: bad magic 0x%08x: not a device tree blob", what,
                             fdt_magic(fdt));
    }
    r = fdt_check_header(fdt);
    if (r) {
        return nc2_fdt_error(err, "%s: bad header: %s", what, fdt_strerror(r));
    }
    if (fdt_totalsize(fdt) > size) {
        return nc2_fdt_error(err, "%s: totalsize %u exceeds the file size %zu: truncated", what,
                             fdt_totalsize(fdt), size);
    }
    /* Debian 12's libfdt (1.6.1) dereferences NULL in fdt_check_full() on
     * trees older than version 16 and can loop forever on a structure block
     * whose tags do not move forward: refuse both first.  dtc writes
     * version 17. */
    if (fdt_version(fdt) < 17) {
        return nc2_fdt_error(err, "%s: device tree version %u: nxemu reads version 17", what,
                             fdt_version(fdt));
    }
    for (int off = 0, next = 0, tag = FDT_NOP; tag != FDT_END; off = next) {
        tag = fdt_next_tag(fdt, off, &next);
        if (next <= off || (uint32_t)next > fdt_size_dt_struct(fdt)) {
            return nc2_fdt_error(err, "%s: malformed device tree: structure block tag at 0x%x",
                                 what, (unsigned)off);
        }
    }
    r = fdt_check_full(fdt, size);
    if (r) {
        return nc2_fdt_error(err, "%s: malformed device tree: %s", what, fdt_strerror(r));
    }
    return true;
}

bool nc2_fdt_load(const char *path, void **fdt, size_t *size, GError **err)
{
    char *buf;
    size_t len;
    if (!path) {
        *fdt = g_memdup2(nc2_default_dtb, nc2_default_dtb_len);
        *size = nc2_default_dtb_len;
        return nc2_fdt_check(*fdt, *size, "built-in tree", err);
    }
    GError *local = NULL;
    if (!nx_file_read(NULL, path, NX_FILE_DTB, &buf, &len, &local)) {
        nc2_fdt_error(err, "%s", local->message);
        g_error_free(local);
        return false;
    }
    *fdt = buf;
    *size = len;
    return nc2_fdt_check(buf, len, path, err);
}

bool nc2_fdt_write(const void *fdt, const char *path, GError **err)
{
    return nx_file_write("-dump-dtb", path, fdt, fdt_totalsize(fdt), err);
}

bool nc2_fdt_build_config(const char *path, const Nc2Edits *ed, void **fdt, size_t *size,
                          MachineConfig *cfg, GError **err)
{
    Nc2Edits none = {0};
    *fdt = NULL;
    if (!nc2_fdt_load(path, fdt, size, err) ||
        !nc2_fdt_apply_edits(fdt, size, ed ? ed : &none, err) || !nc2_fdt_extract(*fdt, cfg, err)) {
        g_free(*fdt);
        *fdt = NULL;
        return false;
    }
    return true;
}
