/*
 * -machine / -m / -smp edits of the machine device tree (machine.md §10):
 * the tree is opened into a larger buffer, nodes are replaced or properties
 * set, and the result is packed.  Values are range-checked first so that the
 * message names the option the user typed.
 */
#include <string.h>

#include <libfdt.h>

#include "hw/nc2/fdt-int.h"
#include "hw/nc2/fdt.h"
#include "hw/nc2/memmap.h"
#include "nxemu/error.h"

/* Room for the nodes an edit may add (64 sequencers + 64 TPCs, a few hundred
 * bytes each); the result is packed afterwards. */
#define EDIT_HEADROOM (256u * 1024u)

static bool edit_error(GError **err, const char *what, int r)
{
    return nc2_fdt_error(err, "editing the tree for %s: %s", what, fdt_strerror(r));
}

static bool range_ok(GError **err, const char *opt, const char *key, uint64_t v, uint64_t lo,
                     uint64_t hi)
{
    if (v < lo || v > hi) {
        g_set_error(err, NX_ERROR, NX_ERROR_USAGE, "%s %s=%llu: must be %llu..%llu", opt, key,
                    (unsigned long long)v, (unsigned long long)lo, (unsigned long long)hi);
        return false;
    }
    return true;
}

/* Offset of the child of `parent` named base[@..] whose u32 property `prop`
 * equals id; -1 if none. */
static int find_by_id(const void *fdt, int parent, const char *base, const char *prop, uint32_t id)
{
    int node, len;
    fdt_for_each_subnode(node, fdt, parent)
    {
        const fdt32_t *v = fdt_getprop(fdt, node, prop, &len);
        if (nc2_fdt_node_is(fdt, node, base) && v && len == 4 && fdt32_to_cpu(*v) == id) {
            return node;
        }
    }
    return -1;
}

typedef struct PropCopy {
    char *name;
    void *data;
    int len;
} PropCopy;

static void prop_copy_free(gpointer p)
{
    PropCopy *pc = p;
    g_free(pc->name);
    g_free(pc->data);
    g_free(pc);
}

static void set_cells(fdt32_t *c, int n, uint64_t v)
{
    for (int i = n - 1; i >= 0; i--) {
        c[i] = cpu_to_fdt32((uint32_t)v);
        v >>= 32;
    }
}

/*
 * seq=N / tpc=M: replace every `base` child of `parent_path` by n copies of
 * the one whose `id_prop` is 0, with id_prop = i and, for TPCs, reg and the
 * unit address following the TPC window of index i.
 */
static bool replicate(void *fdt, const char *parent_path, const char *base, const char *id_prop,
                      bool tpc, unsigned n, const char *what, GError **err)
{
    int parent = fdt_path_offset(fdt, parent_path);
    int tmpl, prop, node, r = 0;
    GPtrArray *props;
    if (parent < 0) {
        if (n == 0) {
            return true;
        }
        return nc2_fdt_error(err, "%s: missing: nothing to copy for %s", parent_path, what);
    }
    tmpl = find_by_id(fdt, parent, base, id_prop, 0);
    if (tmpl < 0 && n > 0) {
        return nc2_fdt_error(err, "%s: no %s node with %s = 0 to copy for %s", parent_path, base,
                             id_prop, what);
    }
    props = g_ptr_array_new_with_free_func(prop_copy_free);
    if (tmpl >= 0) {
        fdt_for_each_property_offset(prop, fdt, tmpl)
        {
            const char *name;
            int len;
            const void *data = fdt_getprop_by_offset(fdt, prop, &name, &len);
            PropCopy *pc = g_new0(PropCopy, 1);
            pc->name = g_strdup(name);
            pc->data = g_memdup2(data, len);
            pc->len = len;
            g_ptr_array_add(props, pc);
        }
    }
    /* Remove every existing node of the kind. */
    for (;;) {
        int victim = -1;
        parent = fdt_path_offset(fdt, parent_path);
        fdt_for_each_subnode(node, fdt, parent)
        {
            if (nc2_fdt_node_is(fdt, node, base)) {
                victim = node;
                break;
            }
        }
        if (victim < 0) {
            break;
        }
        r = fdt_del_node(fdt, victim);
        if (r) {
            goto fail;
        }
    }
    /* fdt_add_subnode inserts before the existing subnodes: add the highest
     * index first so the result reads in ascending order. */
    for (unsigned i = n; i-- > 0;) {
        const MemMapEntry *t = &nc2_memmap[NC2_TPC];
        uint64_t pa = t->base + (uint64_t)i * t->stride;
        char *name = tpc ? g_strdup_printf("%s@%llx", base, (unsigned long long)pa)
                         : g_strdup_printf("%s@%x", base, i);
        int ac = 0, sc = 0;
        parent = fdt_path_offset(fdt, parent_path);
        if (tpc) {
            ac = fdt_address_cells(fdt, parent);
            sc = fdt_size_cells(fdt, parent);
            if (ac < 1 || ac > 2 || sc < 1 || sc > 2) {
                g_free(name);
                g_ptr_array_unref(props);
                return nc2_fdt_error(err, "%s: #address-cells/#size-cells: must be 1 or 2",
                                     parent_path);
            }
        }
        node = fdt_add_subnode(fdt, parent, name);
        g_free(name);
        if (node < 0) {
            r = node;
            goto fail;
        }
        /* A new property goes in front of the node's others: copy the
         * template's last property first to keep its order. */
        for (unsigned k = props->len; k-- > 0 && !r;) {
            PropCopy *pc = g_ptr_array_index(props, k);
            if (!strcmp(pc->name, id_prop)) {
                r = fdt_setprop_u32(fdt, node, pc->name, i);
            } else if (tpc && !strcmp(pc->name, "reg")) {
                fdt32_t reg[4];
                set_cells(reg, ac, pa);
                set_cells(reg + ac, sc, t->size);
                r = fdt_setprop(fdt, node, "reg", reg, (ac + sc) * 4);
            } else {
                r = fdt_setprop(fdt, node, pc->name, pc->data, pc->len);
            }
        }
        if (r) {
            goto fail;
        }
    }
    g_ptr_array_unref(props);
    return true;
fail:
    g_ptr_array_unref(props);
    return edit_error(err, what, r);
}

static bool edit_hbm(void *fdt, uint64_t hbm, GError **err)
{
    int node = -1, n, ac, sc, r;
    fdt32_t reg[4];
    fdt_for_each_subnode(n, fdt, 0)
    {
        if (nc2_fdt_node_is(fdt, n, "memory")) {
            node = n;
            break;
        }
    }
    if (node < 0) {
        return nc2_fdt_error(err, "/: missing node 'memory@0' to set the HBM size");
    }
    if (!nc2_fdt_parent_cells(fdt, 0, &ac, &sc, err)) {
        return false;
    }
    if (sc < 2 && hbm > UINT32_MAX) {
        return nc2_fdt_error(err, "/: #size-cells = %d cannot express an HBM size of 0x%llx", sc,
                             (unsigned long long)hbm);
    }
    set_cells(reg, ac, 0);
    set_cells(reg + ac, sc, hbm);
    r = fdt_setprop(fdt, node, "reg", reg, (ac + sc) * 4);
    return r ? edit_error(err, "hbm", r) : true;
}

/* Set nxemu,tlb-entries on every sequencer. */
static bool edit_tlb(void *fdt, uint32_t tlb, GError **err)
{
    for (unsigned k = 0;; k++) {
        int parent = fdt_path_offset(fdt, "/sequencers");
        int node, target = -1;
        unsigned i = 0;
        if (parent < 0) {
            return nc2_fdt_error(err, "/: missing node 'sequencers' to set tlb=");
        }
        fdt_for_each_subnode(node, fdt, parent)
        {
            if (nc2_fdt_node_is(fdt, node, "sequencer") && i++ == k) {
                target = node;
                break;
            }
        }
        if (target < 0) {
            return true;
        }
        int r = fdt_setprop_u32(fdt, target, "nxemu,tlb-entries", tlb);
        if (r) {
            return edit_error(err, "tlb", r);
        }
    }
}

static bool edit_quantum(void *fdt, uint32_t q, GError **err)
{
    int node = fdt_path_offset(fdt, "/chosen");
    int r;
    if (node < 0) {
        node = fdt_add_subnode(fdt, 0, "chosen");
        if (node < 0) {
            return edit_error(err, "quantum", node);
        }
    }
    r = fdt_setprop_u32(fdt, node, "nxemu,quantum", q);
    return r ? edit_error(err, "quantum", r) : true;
}

static bool edit_dma(void *fdt, uint32_t engines, GError **err)
{
    int node = -1, n, r;
    fdt_for_each_subnode(n, fdt, 0)
    {
        if (nc2_fdt_node_is(fdt, n, "dma")) {
            node = n;
            break;
        }
    }
    if (node < 0) {
        return nc2_fdt_error(err, "/: missing node 'dma@2803800000' to set dma=");
    }
    r = fdt_setprop_u32(fdt, node, "nxemu,engines", engines);
    return r ? edit_error(err, "dma", r) : true;
}

/* gmem-latency= / gmem-bpc=: a property of /tpcs (docs/timing.rst "Memory"). */
static bool edit_tpcs_u32(void *fdt, const char *prop, uint32_t v, const char *key, GError **err)
{
    int node = fdt_path_offset(fdt, "/tpcs");
    if (node < 0) {
        return nc2_fdt_error(err, "/: missing node 'tpcs' to set %s=", key);
    }
    int r = fdt_setprop_u32(fdt, node, prop, v);
    return r ? edit_error(err, key, r) : true;
}

/* hbm-bpc= / dma-bpc=: nxemu,bytes-per-cycle of the root's child named
 * name (any unit address: memory@0, dma@2803800000). */
static bool edit_node_u32(void *fdt, const char *name, const char *prop, uint32_t v,
                          const char *key, GError **err)
{
    int node;
    size_t len = strlen(name);
    fdt_for_each_subnode(node, fdt, 0)
    {
        const char *n = fdt_get_name(fdt, node, NULL);
        if (n && !strncmp(n, name, len) && (n[len] == '@' || !n[len])) {
            int r = fdt_setprop_u32(fdt, node, prop, v);
            return r ? edit_error(err, key, r) : true;
        }
    }
    return nc2_fdt_error(err, "/: missing node '%s' to set %s=", name, key);
}

static bool check_edit_values(const Nc2Edits *ed, GError **err)
{
    if (ed->has_hbm && !nc2_hbm_size_ok(ed->hbm)) {
        char hex[24];
        g_snprintf(hex, sizeof(hex), "0x%llx", (unsigned long long)ed->hbm);
        g_set_error(err, NX_ERROR, NX_ERROR_USAGE,
                    "%s: %s: HBM size must be a multiple of 16 MiB in 32 MiB..64 GiB",
                    ed->hbm_src ? ed->hbm_src : "-machine hbm",
                    ed->hbm_text[0] ? ed->hbm_text : hex);
        return false;
    }
    /* seq and tpc name the option that set them: -smp or -machine */
    const char *smp = ed->smp_src ? ed->smp_src : "-machine";
    return (!ed->has_seq || range_ok(err, smp, "seq", ed->seq, 1, NC2_MAX_SEQ)) &&
           (!ed->has_tpc || range_ok(err, smp, "tpc", ed->tpc, 0, NC2_MAX_TPC)) &&
           (!ed->has_tlb || range_ok(err, "-machine", "tlb", ed->tlb, 1, NC2_MAX_TLB)) &&
           (!ed->has_quantum ||
            range_ok(err, "-machine", "quantum", ed->quantum, 1, NC2_MAX_QUANTUM)) &&
           (!ed->has_dma || range_ok(err, "-machine", "dma", ed->dma, 1, NC2_MAX_DMA)) &&
           (!ed->has_gmem_lat ||
            range_ok(err, "-machine", "gmem-latency", ed->gmem_lat, 0, 1u << 20)) &&
           (!ed->has_gmem_bpc ||
            range_ok(err, "-machine", "gmem-bpc", ed->gmem_bpc, 1, 1u << 20)) &&
           (!ed->has_hbm_bpc || range_ok(err, "-machine", "hbm-bpc", ed->hbm_bpc, 1, 1u << 20)) &&
           (!ed->has_dma_bpc || range_ok(err, "-machine", "dma-bpc", ed->dma_bpc, 1, 1u << 20)) &&
           (!ed->has_sram_lat ||
            range_ok(err, "-machine", "sram-latency", ed->sram_lat, 0, 1u << 20));
}

bool nc2_fdt_apply_edits(void **fdt, size_t *size, const Nc2Edits *ed, GError **err)
{
    size_t bufsize = fdt_totalsize(*fdt) + EDIT_HEADROOM;
    void *buf;
    int r;
    bool ok;
    if (!check_edit_values(ed, err)) {
        return false;
    }
    buf = g_malloc0(bufsize);
    r = fdt_open_into(*fdt, buf, (int)bufsize);
    if (r) {
        g_free(buf);
        return edit_error(err, "-machine", r);
    }
    ok = (!ed->has_hbm || edit_hbm(buf, ed->hbm, err)) &&
         (!ed->has_seq || replicate(buf, "/sequencers", "sequencer", "reg", false,
                                    (unsigned)ed->seq, "seq=", err)) &&
         (!ed->has_tpc ||
          replicate(buf, "/tpcs", "tpc", "nxemu,index", true, (unsigned)ed->tpc, "tpc=", err)) &&
         (!ed->has_tlb || edit_tlb(buf, (uint32_t)ed->tlb, err)) &&
         (!ed->has_quantum || edit_quantum(buf, (uint32_t)ed->quantum, err)) &&
         (!ed->has_dma || edit_dma(buf, (uint32_t)ed->dma, err)) &&
         (!ed->has_gmem_lat || edit_tpcs_u32(buf, "nxemu,gmem-latency-cycles",
                                             (uint32_t)ed->gmem_lat, "gmem-latency", err)) &&
         (!ed->has_gmem_bpc || edit_tpcs_u32(buf, "nxemu,gmem-bytes-per-cycle",
                                             (uint32_t)ed->gmem_bpc, "gmem-bpc", err)) &&
         (!ed->has_hbm_bpc || edit_node_u32(buf, "memory", "nxemu,bytes-per-cycle",
                                            (uint32_t)ed->hbm_bpc, "hbm-bpc", err)) &&
         (!ed->has_dma_bpc || edit_node_u32(buf, "dma", "nxemu,bytes-per-cycle",
                                            (uint32_t)ed->dma_bpc, "dma-bpc", err)) &&
         (!ed->has_sram_lat || edit_tpcs_u32(buf, "nxemu,sram-latency-cycles",
                                             (uint32_t)ed->sram_lat, "sram-latency", err));
    if (!ok) {
        g_free(buf);
        return false;
    }
    fdt_pack(buf);
    g_free(*fdt);
    *size = fdt_totalsize(buf);
    *fdt = g_realloc(buf, *size);
    return true;
}
