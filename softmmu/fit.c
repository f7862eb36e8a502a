/*
 * FIT images (machine.md §11.3), read with libfdt.  fdt_check_full validates
 * the whole tree first, so the property reads below cannot run off the blob;
 * what remains is checking property sizes and the external data ranges.
 */
#include <inttypes.h>
#include <string.h>

#include <libfdt.h>

#include "nxemu/error.h"
#include "softmmu/fit.h"

bool fit_is_fit(const uint8_t *data, size_t size)
{
    return size >= 4 && data[0] == 0xD0 && data[1] == 0x0D && data[2] == 0xFE && data[3] == 0xED;
}

typedef struct Fit {
    LoadCtx *c;
    const char *file;
    uint8_t *data;
    size_t size;
    bool from_kernel;
} Fit;

static uint64_t node_off(const Fit *f, int node)
{
    return fdt_off_dt_struct(f->data) + (uint64_t)node;
}

static uint64_t ptr_off(const Fit *f, const void *p)
{
    return (uint64_t)((const uint8_t *)p - f->data);
}

/* A single NUL-terminated string property, NULL if absent; *bad on a
 * malformed one. */
static const char *get_str(const Fit *f, int node, const char *prop, const char *ctx, bool *bad,
                           GError **err)
{
    int len;
    const char *v = fdt_getprop(f->data, node, prop, &len);
    if (!v) {
        return NULL;
    }
    if (len < 2 || strnlen(v, (size_t)len) != (size_t)len - 1) {
        lc_error(err, f->file, ptr_off(f, v), "%s%s is not a single string", ctx, prop);
        *bad = true;
        return NULL;
    }
    return v;
}

/* `load`/`entry`: 1 cell = 32-bit, 2 cells = 64-bit, big-endian. */
static bool get_addr(const Fit *f, int node, const char *prop, const char *ctx, bool *has,
                     uint64_t *val, GError **err)
{
    int len;
    const void *v = fdt_getprop(f->data, node, prop, &len);
    *has = v != NULL;
    if (!v) {
        return true;
    }
    if (len == 4) {
        *val = fdt32_ld(v);
    } else if (len == 8) {
        *val = fdt64_ld(v);
    } else {
        lc_error(err, f->file, ptr_off(f, v), "%s%s must be 1 or 2 cells, not %d bytes", ctx, prop,
                 len);
        return false;
    }
    return true;
}

static bool get_u32(const Fit *f, int node, const char *prop, const char *ctx, bool *has,
                    uint32_t *val, GError **err)
{
    int len;
    const void *v = fdt_getprop(f->data, node, prop, &len);
    *has = v != NULL;
    if (!v) {
        return true;
    }
    if (len != 4) {
        lc_error(err, f->file, ptr_off(f, v), "%s%s must be one cell, not %d bytes", ctx, prop,
                 len);
        return false;
    }
    *val = fdt32_ld(v);
    return true;
}

/* The payload: `data`, or `data-offset` + `data-size` counted from the end
 * of the FDT blob rounded up to 4. */
static bool get_payload(const Fit *f, int node, const char *ctx, uint8_t **p, uint64_t *len,
                        uint64_t *off, GError **err)
{
    int plen;
    const uint8_t *v = fdt_getprop(f->data, node, "data", &plen);
    if (v) {
        *p = f->data + ptr_off(f, v);
        *len = (uint64_t)plen;
        *off = ptr_off(f, v);
        return true;
    }
    bool has_off, has_size;
    uint32_t doff = 0, dsize = 0;
    if (!get_u32(f, node, "data-offset", ctx, &has_off, &doff, err) ||
        !get_u32(f, node, "data-size", ctx, &has_size, &dsize, err)) {
        return false;
    }
    if (!has_off && !has_size) {
        lc_error(err, f->file, node_off(f, node), "%sno data (neither data nor data-offset)", ctx);
        return false;
    }
    if (has_off != has_size) {
        lc_error(err, f->file, node_off(f, node), "%sdata-offset and data-size must come together",
                 ctx);
        return false;
    }
    uint64_t start = (((uint64_t)fdt_totalsize(f->data) + 3) & ~3ull) + doff;
    if (start > f->size || dsize > f->size - start) {
        const void *pv = fdt_getprop(f->data, node, "data-offset", NULL);
        lc_error(err, f->file, ptr_off(f, pv),
                 "%sdata-offset 0x%" PRIx32 " + data-size 0x%" PRIx32 " (file range [0x%" PRIx64
                 ", 0x%" PRIx64 ")) outside the file (%zu bytes)",
                 ctx, doff, dsize, start, start + dsize, f->size);
        return false;
    }
    *p = f->data + start;
    *len = dsize;
    *off = start;
    return true;
}

enum { T_FIRMWARE, T_KERNEL, T_TPC, T_BINDINGS, T_DATA };

static bool load_image(const Fit *f, int images, const char *name, uint64_t ref_off,
                       const char *conf, bool firmware, GError **err)
{
    static const char *const types[] = {"firmware", "kernel", "tpc-kernel", "nxemu-bindings",
                                        "data"};
    LoadCtx *c = f->c;
    /* Names and strings from the image are escaped in messages: one line,
     * whatever bytes the image holds. */
    g_autofree char *ename = g_strescape(name, NULL);
    int node = name[0] ? fdt_subnode_offset(f->data, images, name) : -1;
    if (node < 0) {
        lc_error(err, f->file, ref_off, "configuration %s: unknown image '%s'", conf, ename);
        return false;
    }
    g_autofree char *ctx = g_strdup_printf("image %s: ", ename);
    bool bad = false;
    uint64_t off = node_off(f, node);

    const char *comp = get_str(f, node, "compression", ctx, &bad, err);
    if (bad) {
        return false;
    }
    if (comp && strcmp(comp, "none") != 0) {
        g_autofree char *e = g_strescape(comp, NULL);
        lc_error(err, f->file, ptr_off(f, comp),
                 "%scompression \"%s\" is not supported (must be absent or \"none\")", ctx, e);
        return false;
    }
    const char *type = get_str(f, node, "type", ctx, &bad, err);
    if (bad) {
        return false;
    }
    if (!type) {
        lc_error(err, f->file, off, "%sno type property", ctx);
        return false;
    }
    int t = -1;
    for (unsigned i = 0; i < G_N_ELEMENTS(types); i++) {
        if (strcmp(type, types[i]) == 0) {
            t = (int)i;
        }
    }
    if (t < 0) {
        g_autofree char *e = g_strescape(type, NULL);
        lc_error(err, f->file, ptr_off(f, type),
                 "%sunknown type \"%s\" (firmware, kernel, tpc-kernel, nxemu-bindings or data)",
                 ctx, e);
        return false;
    }
    const char *arch = get_str(f, node, "arch", ctx, &bad, err);
    if (bad) {
        return false;
    }
    if (arch && strcmp(arch, "nxseq") != 0 && strcmp(arch, "nxtpc") != 0) {
        g_autofree char *e = g_strescape(arch, NULL);
        lc_error(err, f->file, ptr_off(f, arch), "%sunknown arch \"%s\" (nxseq or nxtpc)", ctx, e);
        return false;
    }
    const char *want = t == T_FIRMWARE || t == T_KERNEL ? "nxseq" : t == T_TPC ? "nxtpc" : NULL;
    if (want && (!arch || strcmp(arch, want) != 0)) {
        lc_error(err, f->file, arch ? ptr_off(f, arch) : off, "%stype \"%s\" needs arch \"%s\"",
                 ctx, type, want);
        return false;
    }
    bool scan = arch && strcmp(arch, "nxseq") == 0;

    uint8_t *p;
    uint64_t len, poff;
    if (!get_payload(f, node, ctx, &p, &len, &poff, err)) {
        return false;
    }
    if (t == T_BINDINGS) {
        g_autofree char *what = g_strdup_printf("image %s", ename);
        return bind_records_add(lc_bindings(c), p, len, f->file, poff, what, err);
    }

    bool has_load, has_entry, has_cpu, has_tpc;
    uint64_t load = 0, entry = 0;
    uint32_t cpu = 0, tpc = 0;
    if (!get_addr(f, node, "load", ctx, &has_load, &load, err) ||
        !get_addr(f, node, "entry", ctx, &has_entry, &entry, err) ||
        !get_u32(f, node, "nxemu,cpu", ctx, &has_cpu, &cpu, err) ||
        !get_u32(f, node, "nxemu,tpc", ctx, &has_tpc, &tpc, err)) {
        return false;
    }
    const void *load_prop = fdt_getprop(f->data, node, "load", NULL);

    if (elf_is_elf(p, len) && t != T_DATA) {
        ElfKind kind;
        ElfFile *ef = lc_parse_elf(c, f->file, poff, ctx, p, len, &kind, err);
        if (!ef) {
            return false;
        }
        if (t == T_TPC) {
            if (kind != ELF_KIND_TPC) {
                lc_error(err, f->file, poff, "%stype tpc-kernel holds a sequencer ELF", ctx);
                return false;
            }
            if (!has_load) {
                lc_error(err, f->file, off, "%sa TPC kernel needs a load address", ctx);
                return false;
            }
            return lc_add_tpc_elf(c, ef, load, has_tpc, tpc, err);
        }
        if (kind != ELF_KIND_SEQ) {
            lc_error(err, f->file, poff, "%stype %s holds a TPC kernel ELF", ctx, type);
            return false;
        }
        if (has_load) {
            lc_error(err, f->file, ptr_off(f, load_prop),
                     "%san ELF payload must not have a load property (segments load at p_paddr)",
                     ctx);
            return false;
        }
        return lc_add_seq_elf(c, ef, has_cpu ? cpu : 0, err);
    }

    if (!has_load) {
        lc_error(err, f->file, off, "%sa raw payload needs a load address", ctx);
        return false;
    }
    g_autofree char *what = g_strdup_printf("image %s", ename);
    if (t == T_TPC) {
        return lc_add_tpc_raw(c, f->file, poff, what, p, len, load, has_tpc, tpc, err);
    }
    if (!lc_add_raw(c, f->file, poff, what, p, len, load, scan, err)) {
        return false;
    }
    if (t == T_DATA) {
        return true;
    }
    g_autofree char *ewhat = g_strdup_printf("image %s: nxemu,cpu", ename);
    if (has_cpu) {
        const void *cpu_prop = fdt_getprop(f->data, node, "nxemu,cpu", NULL);
        return lc_add_entry(c, f->file, ptr_off(f, cpu_prop), ewhat, cpu, has_entry ? entry : load,
                            err);
    }
    if (firmware && f->from_kernel) {
        return lc_add_entry(c, f->file, off, ewhat, 0, has_entry ? entry : load, err);
    }
    return true;
}

bool fit_load(LoadCtx *c, const char *file, uint8_t *data, size_t size, bool from_kernel,
              const char *config, GError **err)
{
    Fit f = {.c = c, .file = file, .data = data, .size = size, .from_kernel = from_kernel};
    bool bad = false;
    int r = fdt_check_full(data, size);
    if (r < 0) {
        lc_error(err, file, 0, "malformed FIT (device tree): %s", fdt_strerror(r));
        return false;
    }
    int images = fdt_path_offset(data, "/images");
    if (images < 0) {
        lc_error(err, file, 0, "FIT has no /images node");
        return false;
    }
    int confs = fdt_path_offset(data, "/configurations");
    if (confs < 0) {
        lc_error(err, file, 0, "FIT has no /configurations node");
        return false;
    }
    const char *name = config;
    if (!name) {
        name = get_str(&f, confs, "default", "/configurations: ", &bad, err);
        if (bad) {
            return false;
        }
        if (!name) {
            lc_error(err, file, node_off(&f, confs),
                     "/configurations has no default (use -fit-config NAME)");
            return false;
        }
    }
    g_autofree char *ename = g_strescape(name, NULL);
    int conf = fdt_subnode_offset(data, confs, name);
    if (conf < 0) {
        lc_error(err, file, node_off(&f, confs), "configuration '%s' not found", ename);
        return false;
    }
    g_autofree char *cctx = g_strdup_printf("configuration %s: ", ename);

    const char *fw = get_str(&f, conf, "firmware", cctx, &bad, err);
    if (bad) {
        return false;
    }
    if (!fw) {
        lc_error(err, file, node_off(&f, conf), "configuration %s has no firmware", ename);
        return false;
    }
    if (!load_image(&f, images, fw, ptr_off(&f, fw), ename, true, err)) {
        return false;
    }
    const char *kernel = get_str(&f, conf, "kernel", cctx, &bad, err);
    if (bad ||
        (kernel && !load_image(&f, images, kernel, ptr_off(&f, kernel), ename, false, err))) {
        return false;
    }
    int len;
    const char *lst = fdt_getprop(data, conf, "loadables", &len);
    if (lst) {
        if (len < 1 || lst[len - 1] != '\0') {
            lc_error(err, file, ptr_off(&f, lst), "%sloadables is not a string list", cctx);
            return false;
        }
        for (int pos = 0; pos < len; pos += (int)strlen(lst + pos) + 1) {
            if (!load_image(&f, images, lst + pos, ptr_off(&f, lst + pos), ename, false, err)) {
                return false;
            }
        }
    }
    return true;
}
