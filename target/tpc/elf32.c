/*
 * ELF32 relocatable object in the layout the TPC toolchain writes
 * (tpc.md §7.1): ELFCLASS32, little-endian, e_machine EM_386, ET_REL;
 * .text (bundles), .tpc_metadata (262 bytes), optional .IndexMap and other
 * sections, .symtab/.strtab with the labels, .shstrtab.
 */
#include <string.h>

#include "target/tpc/asm.h"

static void w16(GByteArray *a, uint16_t v)
{
    uint8_t b[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
    g_byte_array_append(a, b, 2);
}

static void w32(GByteArray *a, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    g_byte_array_append(a, b, 4);
}

static void pad(GByteArray *a, unsigned align)
{
    static const uint8_t z[64];
    while (a->len % align)
        g_byte_array_append(a, z, 1);
}

typedef struct Shdr {
    uint32_t name, type, flags, offset, size, link, info, align, entsize;
} Shdr;

static uint32_t add_str(GByteArray *tab, const char *s)
{
    uint32_t off = tab->len;
    g_byte_array_append(tab, (const guint8 *)s, (guint)strlen(s) + 1);
    return off;
}

GByteArray *tpc_elf32_write(const TpcObject *obj)
{
    GByteArray *out = g_byte_array_new();
    GByteArray *shstr = g_byte_array_new(), *str = g_byte_array_new(), *sym = g_byte_array_new();
    GArray *sh = g_array_new(FALSE, TRUE, sizeof(Shdr));
    Shdr s;
    unsigned nlocal = 1;

    g_byte_array_append(shstr, (const guint8 *)"", 1);
    g_byte_array_append(str, (const guint8 *)"", 1);
    memset(&s, 0, sizeof(s));
    g_array_append_val(sh, s); /* SHN_UNDEF */

    /* header placeholder */
    g_byte_array_set_size(out, 52);
    memset(out->data, 0, 52);

    pad(out, 32);
    memset(&s, 0, sizeof(s));
    s.name = add_str(shstr, ".text");
    s.type = 1;      /* SHT_PROGBITS */
    s.flags = 2 | 4; /* SHF_ALLOC | SHF_EXECINSTR */
    s.offset = out->len;
    s.size = obj->text->len;
    s.align = 32;
    g_byte_array_append(out, obj->text->data, obj->text->len);
    g_array_append_val(sh, s);

    memset(&s, 0, sizeof(s));
    s.name = add_str(shstr, ".tpc_metadata");
    s.type = 1;
    s.offset = out->len;
    s.size = TPC_METADATA_SIZE;
    s.align = 1;
    g_byte_array_append(out, obj->metadata, TPC_METADATA_SIZE);
    g_array_append_val(sh, s);

    for (guint i = 0; obj->extra && i < obj->extra->len; i++) {
        const TpcSection *x = g_ptr_array_index(obj->extra, i);
        memset(&s, 0, sizeof(s));
        s.name = add_str(shstr, x->name);
        s.type = 1;
        s.offset = out->len;
        s.size = x->data->len;
        s.align = 1;
        g_byte_array_append(out, x->data->data, x->data->len);
        g_array_append_val(sh, s);
    }

    /* symbols: null, then locals, then globals (ELF ordering rule) */
    g_byte_array_set_size(sym, 16);
    memset(sym->data, 0, 16);
    for (int pass = 0; pass < 2; pass++) {
        for (guint i = 0; obj->syms && i < obj->syms->len; i++) {
            const TpcSym *y = &g_array_index(obj->syms, TpcSym, i);
            if (y->global != (pass == 1))
                continue;
            w32(sym, add_str(str, y->name));
            w32(sym, y->value);
            w32(sym, 0);
            uint8_t info = (uint8_t)((y->global ? 1 : 0) << 4 | (y->global ? 2 : 0));
            uint8_t rest[4] = {info, 0, 1, 0}; /* st_info, st_other, st_shndx = .text */
            g_byte_array_append(sym, rest, 4);
            if (!pass)
                nlocal++;
        }
    }
    unsigned symtab_idx = sh->len;
    pad(out, 4);
    memset(&s, 0, sizeof(s));
    s.name = add_str(shstr, ".symtab");
    s.type = 2; /* SHT_SYMTAB */
    s.offset = out->len;
    s.size = sym->len;
    s.link = symtab_idx + 1;
    s.info = nlocal;
    s.align = 4;
    s.entsize = 16;
    g_byte_array_append(out, sym->data, sym->len);
    g_array_append_val(sh, s);

    memset(&s, 0, sizeof(s));
    s.name = add_str(shstr, ".strtab");
    s.type = 3; /* SHT_STRTAB */
    s.offset = out->len;
    s.size = str->len;
    s.align = 1;
    g_byte_array_append(out, str->data, str->len);
    g_array_append_val(sh, s);

    memset(&s, 0, sizeof(s));
    s.name = add_str(shstr, ".shstrtab");
    s.type = 3;
    s.offset = out->len;
    s.size = shstr->len + (uint32_t)strlen(".shstrtab") + 1;
    s.align = 1;
    /* the name was added to shstr above, so its size is shstr->len now */
    s.size = shstr->len;
    g_byte_array_append(out, shstr->data, shstr->len);
    g_array_append_val(sh, s);

    pad(out, 4);
    uint32_t shoff = out->len;
    for (guint i = 0; i < sh->len; i++) {
        const Shdr *h = &g_array_index(sh, Shdr, i);
        w32(out, h->name);
        w32(out, h->type);
        w32(out, h->flags);
        w32(out, 0); /* sh_addr */
        w32(out, h->offset);
        w32(out, h->size);
        w32(out, h->link);
        w32(out, h->info);
        w32(out, h->align);
        w32(out, h->entsize);
    }

    /* ELF header */
    GByteArray *hdr = g_byte_array_new();
    static const uint8_t ident[16] = {0x7f, 'E', 'L', 'F', 1, 1, 1, 0};
    g_byte_array_append(hdr, ident, 16);
    w16(hdr, 1); /* ET_REL */
    w16(hdr, 3); /* EM_386, as the vendor toolchain */
    w32(hdr, 1); /* EV_CURRENT */
    w32(hdr, 0); /* e_entry */
    w32(hdr, 0); /* e_phoff */
    w32(hdr, shoff);
    w32(hdr, 0);  /* e_flags */
    w16(hdr, 52); /* e_ehsize */
    w16(hdr, 0);  /* e_phentsize */
    w16(hdr, 0);  /* e_phnum */
    w16(hdr, 40); /* e_shentsize */
    w16(hdr, (uint16_t)sh->len);
    w16(hdr, (uint16_t)(sh->len - 1)); /* .shstrtab is last */
    memcpy(out->data, hdr->data, 52);

    g_byte_array_free(hdr, TRUE);
    g_byte_array_free(shstr, TRUE);
    g_byte_array_free(str, TRUE);
    g_byte_array_free(sym, TRUE);
    g_array_free(sh, TRUE);
    return out;
}
