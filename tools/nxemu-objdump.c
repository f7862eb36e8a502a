/*
 * nxemu-objdump -d FILE
 * nxemu-objdump -b binary -m nxseq|nxtpc [--adjust-vma=ADDR] -d FILE
 * nxemu-objdump --version
 * GNU objdump spelling; --no-leading-addr (llvm-objdump's) drops the offsets
 * of a TPC listing, giving the vendor tpc-llvm text.  ELF files are recognised by their header:
 * ELF64 e_machine 0x4E58 = sequencer, ELF32 EM_386 = TPC kernel.
 */
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "nxemu-version.h"
#include "nxemu/file-io.h"
#include "target/seq/seq-tools.h"
#include "target/tpc/tpc-tools.h"

int main(int argc, char **argv)
{
    gboolean disas = FALSE, no_addr = FALSE, version = FALSE;
    gchar *bfd = NULL, *arch = NULL, *vma = NULL;
    GOptionEntry entries[] = {
        {"disassemble", 'd', 0, G_OPTION_ARG_NONE, &disas, "disassemble", NULL},
        {"target", 'b', 0, G_OPTION_ARG_STRING, &bfd, "input format: binary for raw files", "BFD"},
        {"architecture", 'm', 0, G_OPTION_ARG_STRING, &arch, "nxseq or nxtpc (raw files)",
         "MACHINE"},
        {"adjust-vma", 0, 0, G_OPTION_ARG_STRING, &vma, "address of the first raw byte", "ADDR"},
        {"no-leading-addr", 0, 0, G_OPTION_ARG_NONE, &no_addr,
         "TPC: no offsets before bundles and labels (the vendor's text)", NULL},
        {"version", 0, 0, G_OPTION_ARG_NONE, &version, "print the version and exit", NULL},
        {NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    GOptionContext *ctx = g_option_context_new("FILE - nxemu disassembler");
    GError *err = NULL;
    int rc = 2;
    char *data = NULL;
    size_t len = 0;
    g_option_context_add_main_entries(ctx, entries, NULL);
    if (!g_option_context_parse(ctx, &argc, &argv, &err)) {
        fprintf(stderr, "nxemu-objdump: %s\n", err->message);
        g_error_free(err);
        goto out;
    }
    if (version) {
        fputs(NXEMU_VERSION_LINE("nxemu-objdump"), stdout);
        rc = 0;
        goto out;
    }
    if (!disas || argc != 2) {
        fprintf(stderr, "usage: nxemu-objdump [-b binary -m nxseq|nxtpc [--adjust-vma=ADDR]] "
                        "[--no-leading-addr] -d FILE\n");
        goto out;
    }
    if (!nx_file_read(NULL, argv[1], NX_FILE_IMAGE, &data, &len, &err)) {
        fprintf(stderr, "nxemu-objdump: %s\n", err->message);
        g_error_free(err);
        rc = 1;
        goto out;
    }
    const uint8_t *p = (const uint8_t *)data;
    if (bfd) {
        uint64_t base = 0;
        if (strcmp(bfd, "binary") != 0) {
            fprintf(stderr, "nxemu-objdump: unknown input format '%s' (binary)\n", bfd);
            goto out;
        }
        if (vma) {
            char *end;
            errno = 0;
            base = g_ascii_strtoull(vma, &end, 0);
            if (errno || *end || end == vma) {
                fprintf(stderr, "nxemu-objdump: bad --adjust-vma value '%s'\n", vma);
                goto out;
            }
        }
        if (arch && strcmp(arch, "nxseq") == 0) {
            rc = seq_objdump_buffer(argv[1], p, len, true, base, stdout);
        } else if (arch && strcmp(arch, "nxtpc") == 0) {
            rc = tpc_objdump_buffer(argv[1], p, len, true, !no_addr, stdout);
        } else {
            fprintf(stderr, "nxemu-objdump: -b binary needs -m nxseq or -m nxtpc\n");
        }
        goto out;
    }
    if (len < EI_NIDENT || memcmp(p, ELFMAG, SELFMAG) != 0) {
        fprintf(stderr, "nxemu-objdump: %s: not an ELF file (use -b binary -m nxseq|nxtpc)\n",
                argv[1]);
        rc = 1;
        goto out;
    }
    uint16_t machine = len >= 20 ? (uint16_t)(p[18] | p[19] << 8) : 0;
    if (p[EI_CLASS] == ELFCLASS64 && machine == 0x4E58) {
        rc = seq_objdump_buffer(argv[1], p, len, false, 0, stdout);
    } else if (p[EI_CLASS] == ELFCLASS32 && machine == EM_386) {
        rc = tpc_objdump_buffer(argv[1], p, len, false, !no_addr, stdout);
    } else {
        fprintf(stderr, "nxemu-objdump: %s: unknown ELF machine 0x%x (class %u)\n", argv[1],
                machine, p[EI_CLASS]);
        rc = 1;
    }
out:
    g_option_context_free(ctx);
    g_free(data);
    g_free(bfd);
    g_free(arch);
    g_free(vma);
    return rc;
}
