/*
 * Image loading (machine.md §11): -kernel, -device loader (ELF, raw, data
 * words), FIT images, the binding table and start-up (§11.6).  See fit.h for
 * the two-pass structure.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include "nxemu/board-if.h"
#include "nxemu/error.h"
#include "nxemu/file-io.h"
#include "nxemu/log.h"
#include "nxemu/loader.h"
#include "softmmu/fit.h"

#define DTB_AREA_SIZE (1ull << 20) /* machine.md §10: DTB at HBM_end - 1 MiB */

typedef enum LoadOpKind { OP_WRITE, OP_ZERO, OP_ENTRY, OP_TPC } LoadOpKind;

typedef struct LoadOp {
    LoadOpKind kind;
    unsigned index;     /* core (OP_ENTRY) or TPC (OP_TPC) */
    uint64_t addr;      /* destination PA, ENTRY value or KERNEL_BASE */
    uint64_t len;       /* bytes, or KERNEL_SIZE */
    uint8_t *bytes;     /* OP_WRITE: inside a buffer in LoadCtx.owned */
    bool scan;          /* OP_WRITE: lower as an instruction stream first */
    const ElfFile *elf; /* symbols for call lowering, or NULL */
    const char *file;
    uint64_t file_off;
} LoadOp;

struct LoadCtx {
    Machine *m;
    BindTable *bt;
    GPtrArray *owned; /* file buffers and strings, g_free */
    GPtrArray *elfs;  /* ElfFile, elf_free + g_free */
    GArray *ops;      /* LoadOp */
};

Machine *lc_machine(LoadCtx *c)
{
    return c->m;
}

BindTable *lc_bindings(LoadCtx *c)
{
    return c->bt;
}

static const char *lc_keep(LoadCtx *c, char *s)
{
    g_ptr_array_add(c->owned, s);
    return s;
}

void lc_error(GError **err, const char *file, uint64_t off, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_autofree char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_set_error(err, NX_ERROR, NX_ERROR_LOAD, "%s: offset 0x%" PRIx64 ": %s", file, off, msg);
}

static void elf_file_free(gpointer p)
{
    elf_free(p);
    g_free(p);
}

static bool lc_elf_kind(const ElfFile *ef, ElfKind *kind, GError **err);
static bool lc_elf_is_tpc(const ElfFile *ef, GError **err);

ElfFile *lc_parse_elf(LoadCtx *c, const char *file, uint64_t base, const char *ctx,
                      const uint8_t *data, size_t size, ElfKind *kind, GError **err)
{
    ElfFile *ef = g_new0(ElfFile, 1);
    if (!elf_parse_header(ef, file, base, ctx ? lc_keep(c, g_strdup(ctx)) : NULL, data, size,
                          err) ||
        !lc_elf_kind(ef, kind, err) || !elf_parse_tables(ef, err) ||
        (*kind == ELF_KIND_TPC && !lc_elf_is_tpc(ef, err))) {
        elf_free(ef);
        g_free(ef);
        return NULL;
    }
    g_ptr_array_add(c->elfs, ef);
    return ef;
}

static bool lc_elf_kind(const ElfFile *ef, ElfKind *kind, GError **err)
{
    if (ef->machine == EM_NXSEQ) {
        if (ef->cls != ELFCLASS64) {
            elf_error(ef, err, EI_CLASS, "a sequencer ELF (e_machine 0x4e58) must be ELFCLASS64");
            return false;
        }
        if (ef->type != ET_EXEC) {
            elf_error(ef, err, ELF_EHDR_OFF(ef, e_type),
                      "e_type %u: a sequencer ELF must be ET_EXEC (2)", ef->type);
            return false;
        }
        if ((ef->flags & 0xff) != NXSEQ_ELF_FLAGS) {
            elf_error(ef, err, ELF_EHDR_OFF(ef, e_flags),
                      "e_flags 0x%" PRIx32 ": a sequencer ELF needs e_flags[7:0] = 2", ef->flags);
            return false;
        }
        *kind = ELF_KIND_SEQ;
        return true;
    }
    if (ef->machine == EM_386) {
        if (ef->cls != ELFCLASS32) {
            elf_error(ef, err, EI_CLASS, "a TPC kernel ELF (e_machine EM_386) must be ELFCLASS32");
            return false;
        }
        if (ef->type != ET_REL && ef->type != ET_EXEC) {
            elf_error(ef, err, ELF_EHDR_OFF(ef, e_type),
                      "e_type %u: a TPC kernel ELF must be ET_REL (1) or ET_EXEC (2)", ef->type);
            return false;
        }
        *kind = ELF_KIND_TPC;
        return true;
    }
    elf_error(ef, err, ELF_EHDR_OFF(ef, e_machine),
              "e_machine 0x%x is neither a sequencer ELF (0x4e58) nor a TPC kernel (EM_386)",
              ef->machine);
    return false;
}

/* Needs the section table, so checked after elf_parse_tables. */
static bool lc_elf_is_tpc(const ElfFile *ef, GError **err)
{
    if (elf_find_section(ef, ".tpc_metadata") < 0) {
        elf_error(ef, err, ELF_EHDR_OFF(ef, e_shoff),
                  "32-bit EM_386 ELF without a .tpc_metadata section is not a TPC kernel");
        return false;
    }
    return true;
}

/* Destination check for [addr, addr + len): all memory (HBM, SBUF, PSUM),
 * and clear of the in-memory DTB area. */
static bool lc_check_dest(LoadCtx *c, const char *file, uint64_t off, const char *what,
                          uint64_t addr, uint64_t len, GError **err)
{
    Machine *m = c->m;
    if (len == 0) {
        return true;
    }
    if (addr + len < addr || addr + len == 0) {
        lc_error(err, file, off, "%s at 0x%" PRIx64 " (0x%" PRIx64 " bytes) wraps around", what,
                 addr, len);
        return false;
    }
    if (!as_is_ram(m->as, addr, len, 0)) {
        lc_error(err, file, off,
                 "%s [0x%" PRIx64 ", 0x%" PRIx64 ") is outside memory (HBM, SBUF or PSUM)", what,
                 addr, addr + len);
        return false;
    }
    if (m->cfg.dtb_in_memory && m->cfg.hbm_size >= DTB_AREA_SIZE) {
        uint64_t lo = m->cfg.hbm_size - DTB_AREA_SIZE, hi = m->cfg.hbm_size;
        if (addr < hi && lo < addr + len) {
            lc_error(err, file, off,
                     "%s [0x%" PRIx64 ", 0x%" PRIx64 ") overlaps the in-memory DTB area [0x%" PRIx64
                     ", 0x%" PRIx64 ")",
                     what, addr, addr + len, lo, hi);
            return false;
        }
    }
    return true;
}

static void lc_push(LoadCtx *c, const LoadOp *op)
{
    g_array_append_vals(c->ops, op, 1);
}

/* file_off names the source in messages; data_off is where the bytes sit in
 * the file (what the lowering pass reports). */
static bool lc_add_write(LoadCtx *c, const char *file, uint64_t file_off, uint64_t data_off,
                         const char *what, uint8_t *data, uint64_t len, uint64_t addr, bool scan,
                         const ElfFile *elf, GError **err)
{
    if (!lc_check_dest(c, file, file_off, what, addr, len, err)) {
        return false;
    }
    if (scan && len > 0 && (addr % 64 != 0 || len % 64 != 0)) {
        lc_error(err, file, file_off,
                 "%s at 0x%" PRIx64 " (%" PRIu64 " bytes): an instruction stream must start "
                 "64-byte aligned and be a multiple of 64 bytes long",
                 what, addr, len);
        return false;
    }
    if (len > 0) {
        LoadOp op = {.kind = OP_WRITE,
                     .addr = addr,
                     .len = len,
                     .bytes = data,
                     .scan = scan,
                     .elf = elf,
                     .file = file,
                     .file_off = data_off};
        lc_push(c, &op);
    }
    return true;
}

bool lc_add_raw(LoadCtx *c, const char *file, uint64_t file_off, const char *what, uint8_t *data,
                uint64_t len, uint64_t addr, bool scan, GError **err)
{
    return lc_add_write(c, file, file_off, file_off, what, data, len, addr, scan, NULL, err);
}

bool lc_add_entry(LoadCtx *c, const char *file, uint64_t file_off, const char *what, unsigned cpu,
                  uint64_t entry, GError **err)
{
    if (cpu >= c->m->cfg.nr_seq) {
        lc_error(err, file, file_off, "%s %u: the machine has %u sequencer core(s)", what, cpu,
                 c->m->cfg.nr_seq);
        return false;
    }
    LoadOp op = {.kind = OP_ENTRY, .index = cpu, .addr = entry, .file = file, .file_off = file_off};
    lc_push(c, &op);
    return true;
}

static bool lc_add_tpc_preset(LoadCtx *c, const char *file, uint64_t file_off, unsigned tpc,
                              uint64_t base, uint64_t size, GError **err)
{
    if (tpc >= c->m->cfg.nr_tpc) {
        lc_error(err, file, file_off, "TPC %u: the machine has %u TPC(s)", tpc, c->m->cfg.nr_tpc);
        return false;
    }
    if (size > UINT32_MAX) {
        lc_error(err, file, file_off, "kernel of %" PRIu64 " bytes does not fit KERNEL_SIZE", size);
        return false;
    }
    LoadOp op = {.kind = OP_TPC,
                 .index = tpc,
                 .addr = base,
                 .len = size,
                 .file = file,
                 .file_off = file_off};
    lc_push(c, &op);
    return true;
}

bool lc_add_tpc_raw(LoadCtx *c, const char *file, uint64_t file_off, const char *what,
                    uint8_t *data, uint64_t len, uint64_t addr, bool has_tpc, unsigned tpc,
                    GError **err)
{
    if (len == 0 || len % 32 != 0) {
        lc_error(err, file, file_off,
                 "%s: size %" PRIu64 " is not a non-zero multiple of 32 (TPC bundles)", what, len);
        return false;
    }
    if (addr % 32 != 0) {
        lc_error(err, file, file_off, "%s: load address 0x%" PRIx64 " is not 32-byte aligned", what,
                 addr);
        return false;
    }
    if (!lc_add_write(c, file, file_off, file_off, what, data, len, addr, false, NULL, err)) {
        return false;
    }
    return !has_tpc || lc_add_tpc_preset(c, file, file_off, tpc, addr, len, err);
}

bool lc_add_seq_elf(LoadCtx *c, ElfFile *ef, unsigned cpu, GError **err)
{
    if (!elf_check_load_segments(ef, err)) {
        return false;
    }
    for (unsigned i = 0; i < ef->phnum; i++) {
        const Elf64_Phdr *ph = &ef->ph[i];
        if (ph->p_type != PT_LOAD) {
            continue;
        }
        uint64_t off = ef->base + elf_phdr_off(ef, i);
        g_autofree char *what =
            g_strdup_printf("%sprogram header %u: segment", ef->ctx ? ef->ctx : "", i);
        /* The whole [p_paddr, p_paddr + p_memsz) must be memory. */
        if (!lc_check_dest(c, ef->name, off, what, ph->p_paddr, ph->p_memsz, err)) {
            return false;
        }
        if (!lc_add_write(c, ef->name, off, ef->base + ph->p_offset, what,
                          (uint8_t *)ef->data + ph->p_offset, ph->p_filesz, ph->p_paddr,
                          (ph->p_flags & PF_X) != 0, ef, err)) {
            return false;
        }
        if (ph->p_memsz > ph->p_filesz) {
            LoadOp op = {.kind = OP_ZERO,
                         .addr = ph->p_paddr + ph->p_filesz,
                         .len = ph->p_memsz - ph->p_filesz,
                         .file = ef->name,
                         .file_off = off};
            lc_push(c, &op);
        }
    }
    for (unsigned i = 1; i < ef->shnum; i++) {
        const Elf64_Shdr *sh = &ef->sh[i];
        if (strcmp(elf_section_name(ef, i), ".nx_bindings") != 0 || sh->sh_type == SHT_NOBITS) {
            continue;
        }
        g_autofree char *what = g_strdup_printf("%s.nx_bindings", ef->ctx ? ef->ctx : "");
        if (!bind_records_add(c->bt, ef->data + sh->sh_offset, sh->sh_size, ef->name,
                              ef->base + sh->sh_offset, what, err)) {
            return false;
        }
    }
    g_autofree char *what = g_strdup_printf("%sENTRY for core", ef->ctx ? ef->ctx : "");
    return lc_add_entry(c, ef->name, ef->base + ELF_EHDR_OFF(ef, e_entry), what, cpu, ef->entry,
                        err);
}

static uint32_t rd_le(const uint8_t *p, unsigned n)
{
    uint32_t v = 0;
    for (unsigned i = 0; i < n; i++) {
        v |= (uint32_t)p[i] << (8 * i);
    }
    return v;
}

/* tpc.md §7.1: version <= 12, march 2 (from version 5 on); warnings only for
 * printf and multi-threaded kernels. */
static bool check_tpc_metadata(const ElfFile *ef, GError **err)
{
    int idx = elf_find_section(ef, ".tpc_metadata");
    const Elf64_Shdr *sh = &ef->sh[idx];
    if (sh->sh_type == SHT_NOBITS || sh->sh_size < 4) {
        elf_error(ef, err, elf_shdr_off(ef, idx), ".tpc_metadata has %" PRIu64 " bytes, too short",
                  sh->sh_type == SHT_NOBITS ? 0 : sh->sh_size);
        return false;
    }
    const uint8_t *md = ef->data + sh->sh_offset;
    uint32_t version = rd_le(md, 4);
    /* Fields this check reads, by the version that introduced them. */
    uint64_t need = version >= 10 ? 15 : version >= 5 ? 10 : 6;
    if (version > 12) {
        elf_error(ef, err, sh->sh_offset, ".tpc_metadata version %" PRIu32 " is newer than 12",
                  version);
        return false;
    }
    if (sh->sh_size < need) {
        elf_error(ef, err, elf_shdr_off(ef, idx),
                  ".tpc_metadata has %" PRIu64 " bytes, too short for version %" PRIu32,
                  sh->sh_size, version);
        return false;
    }
    if (version >= 5 && rd_le(md + 8, 2) != 2) {
        elf_error(ef, err, sh->sh_offset + 8, ".tpc_metadata march %" PRIu32 " is not 2 (Gaudi)",
                  rd_le(md + 8, 2));
        return false;
    }
    if (md[5] != 0) {
        nx_warn("%s: kernel uses printf, which nxemu does not support", ef->name);
    }
    if (version >= 10 && md[14] != 1) {
        nx_warn("%s: .tpc_metadata numberOfThreads is %u; nxemu runs one thread", ef->name, md[14]);
    }
    return true;
}

bool lc_add_tpc_elf(LoadCtx *c, ElfFile *ef, uint64_t addr, bool has_tpc, unsigned tpc,
                    GError **err)
{
    int text = elf_find_section(ef, ".text");
    if (text < 0) {
        elf_error(ef, err, ELF_EHDR_OFF(ef, e_shoff), "TPC kernel has no .text section");
        return false;
    }
    for (unsigned i = 1; i < ef->shnum; i++) {
        const char *name = elf_section_name(ef, i);
        const Elf64_Shdr *sh = &ef->sh[i];
        bool rel =
            strcmp(name, ".rel.text") == 0 || strcmp(name, ".rela.text") == 0 ||
            ((sh->sh_type == SHT_REL || sh->sh_type == SHT_RELA) && sh->sh_info == (unsigned)text);
        if (rel) {
            g_autofree char *e = g_strescape(name, NULL);
            elf_error(ef, err, elf_shdr_off(ef, i),
                      "section header %u: relocation section %s: TPC kernels must be fully "
                      "resolved",
                      i, e);
            return false;
        }
    }
    const Elf64_Shdr *sh = &ef->sh[text];
    if (sh->sh_type == SHT_NOBITS || sh->sh_size == 0 || sh->sh_size % 32 != 0) {
        elf_error(ef, err, elf_shdr_off(ef, text),
                  ".text size %" PRIu64 " is not a non-zero multiple of 32 (TPC bundles)",
                  sh->sh_type == SHT_NOBITS ? 0 : sh->sh_size);
        return false;
    }
    if (!check_tpc_metadata(ef, err)) {
        return false;
    }
    g_autofree char *what = g_strdup_printf("%s.text", ef->ctx ? ef->ctx : "");
    return lc_add_tpc_raw(c, ef->name, ef->base + sh->sh_offset, what,
                          (uint8_t *)ef->data + sh->sh_offset, sh->sh_size, addr, has_tpc, tpc,
                          err);
}

/* Whole file into an owned buffer (lowering edits it in place), through the
 * one input helper (include/nxemu/file-io.h): regular files only, at most
 * 4 GiB.  With @need_magic only a sequencer/TPC ELF or a FIT is wanted, so
 * the first bytes are checked before the rest is read: a large file of
 * anything else costs one small read. */
static uint8_t *lc_read_file(LoadCtx *c, const char *what, const char *file, bool need_magic,
                             size_t *size, GError **err)
{
    NxInput in;
    uint8_t head[8];
    size_t got = 0;
    if (!nx_input_open(&in, what, file, NX_FILE_IMAGE, err)) {
        return NULL;
    }
    if (need_magic && (!nx_input_pread(&in, head, sizeof(head), 0, &got, err) ||
                       (!fit_is_fit(head, got) && !elf_is_elf(head, got)))) {
        if (!(err && *err)) {
            lc_error(err, file, 0, "%s needs a sequencer ELF or a FIT image (bad magic)", what);
        }
        nx_input_close(&in);
        return NULL;
    }
    uint8_t *buf = nx_input_read_all(&in, size, err);
    nx_input_close(&in);
    if (buf) {
        g_ptr_array_add(c->owned, buf);
    }
    return buf;
}

static bool load_kernel(LoadCtx *c, const LoaderItem *it, const char *fit_config, GError **err)
{
    size_t size;
    if (!it->file) {
        g_set_error(err, NX_ERROR, NX_ERROR_LOAD, "-kernel: no file given");
        return false;
    }
    uint8_t *buf = lc_read_file(c, "-kernel", it->file, true, &size, err);
    if (!buf) {
        return false;
    }
    if (fit_is_fit(buf, size)) {
        return fit_load(c, it->file, buf, size, true, fit_config, err);
    }
    if (!elf_is_elf(buf, size)) {
        lc_error(err, it->file, 0, "-kernel needs a sequencer ELF or a FIT image (bad magic)");
        return false;
    }
    ElfKind kind;
    ElfFile *ef = lc_parse_elf(c, it->file, 0, NULL, buf, size, &kind, err);
    if (!ef) {
        return false;
    }
    if (kind != ELF_KIND_SEQ) {
        elf_error(ef, err, ELF_EHDR_OFF(ef, e_machine),
                  "-kernel needs a sequencer ELF, not a TPC kernel");
        return false;
    }
    return lc_add_seq_elf(c, ef, 0, err);
}

static bool load_file(LoadCtx *c, const LoaderItem *it, const char *fit_config, GError **err)
{
    size_t size;
    if (!it->file) {
        g_set_error(err, NX_ERROR, NX_ERROR_LOAD, "-device loader: file= or data= is required");
        return false;
    }
    uint8_t *buf = lc_read_file(c, "-device loader", it->file, false, &size, err);
    if (!buf) {
        return false;
    }
    if (it->has_cpu && it->has_tpc) {
        lc_error(err, it->file, 0, "cpu-num= and tpc-num= cannot be combined");
        return false;
    }
    if (elf_is_elf(buf, size)) {
        ElfKind kind;
        ElfFile *ef = lc_parse_elf(c, it->file, 0, NULL, buf, size, &kind, err);
        if (!ef) {
            return false;
        }
        if (kind == ELF_KIND_SEQ) {
            if (it->has_addr) {
                lc_error(err, it->file, 0,
                         "addr= cannot be used with a sequencer ELF (segments load at p_paddr)");
                return false;
            }
            if (it->has_tpc) {
                lc_error(err, it->file, 0, "tpc-num= needs a TPC kernel, not a sequencer ELF");
                return false;
            }
            return lc_add_seq_elf(c, ef, it->has_cpu ? it->cpu_num : 0, err);
        }
        if (!it->has_addr) {
            lc_error(err, it->file, 0, "a TPC kernel ELF needs addr= (where .text goes)");
            return false;
        }
        if (it->has_cpu) {
            lc_error(err, it->file, 0, "cpu-num= cannot be used with a TPC kernel");
            return false;
        }
        return lc_add_tpc_elf(c, ef, it->addr, it->has_tpc, it->tpc_num, err);
    }
    if (!it->has_addr) {
        if (fit_is_fit(buf, size)) {
            return fit_load(c, it->file, buf, size, false, fit_config, err);
        }
        lc_error(err, it->file, 0, "addr= is required for a raw image");
        return false;
    }
    if (it->has_tpc) {
        return lc_add_tpc_raw(c, it->file, 0, "raw TPC kernel", buf, size, it->addr, true,
                              it->tpc_num, err);
    }
    if (!lc_add_raw(c, it->file, 0, "raw image", buf, size, it->addr, it->has_cpu, err)) {
        return false;
    }
    return !it->has_cpu || lc_add_entry(c, it->file, 0, "cpu-num=", it->cpu_num, it->addr, err);
}

static bool load_data(LoadCtx *c, const LoaderItem *it, GError **err)
{
    const char *where = lc_keep(c, g_strdup_printf("-device loader,addr=0x%" PRIx64, it->addr));
    unsigned len = it->data_len;
    if (len != 1 && len != 2 && len != 4 && len != 8) {
        g_set_error(err, NX_ERROR, NX_ERROR_LOAD, "%s: data-len=%u is not 1, 2, 4 or 8", where,
                    len);
        return false;
    }
    if (len < 8 && (it->data >> (8 * len)) != 0) {
        g_set_error(err, NX_ERROR, NX_ERROR_LOAD, "%s: data=0x%" PRIx64 " does not fit in %u bytes",
                    where, it->data, len);
        return false;
    }
    uint8_t *bytes = g_malloc(8);
    g_ptr_array_add(c->owned, bytes);
    for (unsigned i = 0; i < 8; i++) {
        bytes[i] = (uint8_t)(it->data >> (8 * i));
    }
    return lc_add_raw(c, where, 0, "data", bytes, len, it->addr, false, err);
}

static bool loader_sym(void *opaque, const char *name, uint64_t *value)
{
    const ElfFile *ef = opaque;
    return ef && elf_find_func(ef, name, value);
}

/* Second pass: lower, then apply in order, then start the cores. */
static bool lc_apply(LoadCtx *c, GError **err)
{
    Machine *m = c->m;
    const MemTxAttrs attrs = MEMTXATTRS(MEM_REQ_LOADER, 0);
    unsigned nr_seq = m->cfg.nr_seq;
    g_autofree bool *has_entry = g_new0(bool, nr_seq ? nr_seq : 1);
    g_autofree uint64_t *entry = g_new0(uint64_t, nr_seq ? nr_seq : 1);
    unsigned started = 0;

    for (guint i = 0; i < c->ops->len; i++) {
        const LoadOp *op = &g_array_index(c->ops, LoadOp, i);
        if (op->kind == OP_ENTRY && !has_entry[op->index]) {
            has_entry[op->index] = true;
            started++;
        }
    }
    if (started == 0) {
        g_set_error(err, NX_ERROR, NX_ERROR_LOAD,
                    "no core has an entry point (use -kernel, a sequencer ELF, or "
                    "-device loader,...,cpu-num=N)");
        return false;
    }
    for (guint i = 0; i < c->ops->len; i++) {
        const LoadOp *op = &g_array_index(c->ops, LoadOp, i);
        if (op->kind == OP_WRITE && op->scan &&
            !seq_lower_stream(op->bytes, op->len, op->file, op->file_off, c->bt, loader_sym,
                              (void *)op->elf, err)) {
            return false;
        }
    }

    for (guint i = 0; i < c->ops->len; i++) {
        const LoadOp *op = &g_array_index(c->ops, LoadOp, i);
        uint64_t bad = 0;
        MemTxResult r = MEMTX_OK;
        switch (op->kind) {
        case OP_WRITE:
            nx_log_mask(&m->log, NX_LOG_MACHINE,
                        "loader: %s: [0x%" PRIx64 ", 0x%" PRIx64 ") from offset 0x%" PRIx64 "%s\n",
                        op->file, op->addr, op->addr + op->len, op->file_off,
                        op->scan ? " (stream)" : "");
            r = as_rw_bytes(m->as, op->addr, op->bytes, op->len, true, attrs, &bad);
            if (r == MEMTX_OK && op->len) {
                /* the viewer names the image's segments by its file */
                char *base = g_path_get_basename(op->file ? op->file : "data");
                machine_add_label(m, op->addr, op->len, base);
                g_free(base);
            }
            break;
        case OP_ZERO:
            /* Fresh RAM is zero already: only what was written is zeroed,
             * so a large .bss commits no host memory (memory.h). */
            r = as_zero_bytes(m->as, op->addr, op->len, attrs, &bad);
            break;
        case OP_ENTRY:
            entry[op->index] = op->addr;
            break;
        case OP_TPC: {
            board_set_tpc_kernel(m, op->index, op->addr, (uint32_t)op->len);
            break;
        }
        }
        if (r != MEMTX_OK) {
            /* Checked in the first pass; only a changed memory map gets here. */
            lc_error(err, op->file, op->file_off, "write to 0x%" PRIx64 " failed at 0x%" PRIx64,
                     op->addr, bad);
            return false;
        }
    }

    /* §11.6: cores that received an ENTRY start RUNNING at PC = ENTRY. */
    for (unsigned n = 0; n < nr_seq; n++) {
        if (!has_entry[n]) {
            continue;
        }
        board_set_seq_entry(m, n, entry[n]);
        if (m->seq && m->seq[n]) {
            m->seq[n]->state = CPU_RUNNING;
        }
        nx_log_mask(&m->log, NX_LOG_MACHINE, "loader: core %u entry 0x%" PRIx64 "\n", n, entry[n]);
    }
    return true;
}

bool loader_load(Machine *m, const LoaderOptions *opts, GError **err)
{
    BindTable local;
    LoadCtx c = {.m = m};
    bool ok = true;

    if (opts->bindings) {
        c.bt = opts->bindings;
    } else {
        bind_table_init(&local);
        c.bt = &local;
    }
    c.owned = g_ptr_array_new_with_free_func(g_free);
    c.elfs = g_ptr_array_new_with_free_func(elf_file_free);
    c.ops = g_array_new(FALSE, FALSE, sizeof(LoadOp));

    for (unsigned i = 0; ok && i < opts->nr_items; i++) {
        const LoaderItem *it = &opts->items[i];
        switch (it->kind) {
        case LOADER_KERNEL:
            ok = load_kernel(&c, it, opts->fit_config, err);
            break;
        case LOADER_FILE:
            ok = load_file(&c, it, opts->fit_config, err);
            break;
        case LOADER_DATA:
            ok = load_data(&c, it, err);
            break;
        }
    }
    if (ok) {
        ok = lc_apply(&c, err);
    }

    g_array_free(c.ops, TRUE);
    g_ptr_array_free(c.elfs, TRUE);
    g_ptr_array_free(c.owned, TRUE);
    if (!opts->bindings) {
        bind_table_destroy(&local);
    }
    return ok;
}
