#!/usr/bin/env python3
"""End-to-end image loading tests (machine.md §11): run nxemu as a user does
with good and malformed images and check the exit status (125 for a load
error) and the single diagnostic line "nxemu: <file>: offset 0x..: <reason>".

Usage: test_loader.py NXEMU [DTC]
"""
import os
import struct
import subprocess
import sys
import tempfile

NXEMU = sys.argv[1]
DTC = sys.argv[2] if len(sys.argv) > 2 else "dtc"

EHDR64 = 64
PHDR64 = 56
SHDR64 = 64


def record(op, tag=0):
    """One 64-byte sequencer record (sequencer.md §2.1): opcode at byte 0."""
    r = bytearray(64)
    r[0] = op
    r[1] = 0x10  # inst_word_len
    r[63] = tag
    return bytes(r)


HALT = record(0xA1)


def seq_elf(segs, entry=0x1000000, sections=(), cls=2, data=1, machine=0x4E58,
            etype=2, flags=2):
    """An ELF64 sequencer image.  segs: (flags, paddr, bytes, memsz);
    sections: (name, sh_type, bytes).  Returns (image, layout) where layout
    gives the offsets a test needs."""
    phoff = EHDR64 if segs else 0
    off = EHDR64 + PHDR64 * len(segs)
    body = {}
    phdrs = b""
    for (pflags, paddr, blob, memsz) in segs:
        off = (off + 63) & ~63
        phdrs += struct.pack("<IIQQQQQQ", 1, pflags, off, paddr, paddr, len(blob), memsz, 64)
        body[off] = blob
        off += len(blob)
    names = b"\0"
    shdrs = [bytes(SHDR64)]
    sec_off = []
    for (name, sh_type, blob) in sections:
        off = (off + 7) & ~7
        shdrs.append(struct.pack("<IIQQQQIIQQ", len(names), sh_type, 0, 0, off, len(blob),
                                 0, 0, 1, 0))
        names += name.encode() + b"\0"
        body[off] = blob
        sec_off.append(off)
        off += len(blob)
    shstr_name = len(names)
    names += b".shstrtab\0"
    shdrs.append(struct.pack("<IIQQQQIIQQ", shstr_name, 3, 0, 0, off, len(names), 0, 0, 1, 0))
    body[off] = names
    off = (off + len(names) + 7) & ~7
    shoff = off
    img = bytearray(shoff + SHDR64 * len(shdrs))
    ident = b"\x7fELF" + bytes([cls, data, 1]) + bytes(9)
    img[0:EHDR64] = ident + struct.pack("<HHIQQQIHHHHHH", etype, machine, 1, entry, phoff,
                                        shoff, flags, EHDR64, PHDR64, len(segs), SHDR64,
                                        len(shdrs), len(shdrs) - 1)
    img[EHDR64:EHDR64 + len(phdrs)] = phdrs
    for o, blob in body.items():
        img[o:o + len(blob)] = blob
    img[shoff:] = b"".join(shdrs)
    return bytes(img), {"shoff": shoff, "sec_off": sec_off}


def tpc_elf(text_size=64, version=12, march=2, rel=False):
    """A TPC kernel object (tpc.md §7.1): ELF32 EM_386 ET_REL with .text and
    a 262-byte .tpc_metadata; optionally a .rel.text."""
    text = bytes((i * 3) & 0xFF for i in range(text_size))
    md = bytearray(262)
    struct.pack_into("<IxxxxH", md, 0, version, march)
    md[14] = 1
    secs = [(b".text", 1, text, 0), (b".tpc_metadata", 1, bytes(md), 0)]
    if rel:
        secs.append((b".rel.text", 9, bytes(8), 1))
    names = b"\0"
    body = b""
    off = 52
    shdrs = [bytes(40)]
    for name, sh_type, blob, info in secs:
        shdrs.append(struct.pack("<IIIIIIIIII", len(names), sh_type, 0, 0, off + len(body),
                                 len(blob), 0, info, 1, 0))
        names += name + b"\0"
        body += blob
    shdrs.append(struct.pack("<IIIIIIIIII", len(names), 3, 0, 0, off + len(body),
                             len(names) + 10, 0, 0, 1, 0))
    names += b".shstrtab\0"
    body += names
    body += bytes((-len(body)) % 4)
    shoff = off + len(body)
    ident = b"\x7fELF" + bytes([1, 1, 1]) + bytes(9)
    eh = ident + struct.pack("<HHIIIIIHHHHHH", 1, 3, 1, 0, 0, shoff, 0, 52, 0, 0, 40,
                             len(shdrs), len(shdrs) - 1)
    return eh + body + b"".join(shdrs)


def good_segments():
    text = HALT + record(0xA4)
    return [(5, 0x1000000, text, len(text)), (6, 0x1100000, b"\x11" * 16, 64)]


class Runner:
    def __init__(self, tmp):
        self.tmp = tmp
        self.failures = 0
        self.count = 0

    def path(self, name, data):
        p = os.path.join(self.tmp, name)
        with open(p, "wb") as f:
            f.write(data)
        return p

    def run(self, args):
        return subprocess.run([NXEMU] + args, capture_output=True, timeout=60)

    def report(self, ok, name, detail=""):
        self.count += 1
        print(("ok" if ok else "not ok") + " %d - %s" % (self.count, name))
        if not ok:
            self.failures += 1
            for line in detail.splitlines():
                print("# " + line)

    def expect_error(self, name, args, want):
        """Exit 125, nothing on stdout, one stderr line starting with want
        (a prefix) or containing it (a tuple of (prefix, substring))."""
        p = self.run(args)
        err = p.stderr.decode(errors="replace")
        lines = err.splitlines()
        prefix, sub = want if isinstance(want, tuple) else (want, "")
        ok = (p.returncode == 125 and p.stdout == b"" and len(lines) == 1 and
              lines[0].startswith(prefix) and sub in lines[0])
        self.report(ok, name, "status %d, stderr:\n%s\nwanted prefix: %s %s" %
                    (p.returncode, err, prefix, sub))

    def expect_status(self, name, args, status):
        p = self.run(args)
        self.report(p.returncode == status, name, "status %d (wanted %d), stderr:\n%s" %
                    (p.returncode, status, p.stderr.decode(errors="replace")))


def its_compile(r, name, text):
    src = r.path(name + ".its", text.encode())
    out = os.path.join(r.tmp, name + ".itb")
    subprocess.run([DTC, "-q", "-I", "dts", "-O", "dtb", "-o", out, src], check=True)
    return out


def fit_source(images, config, extra_conf=""):
    return """/dts-v1/;
/ {
    description = "nxemu e2e FIT";
    #address-cells = <1>;
    images {
%s
    };
    configurations {
        default = "conf";
        conf {
%s
        };
%s
    };
};
""" % (images, config, extra_conf)


def main():
    with tempfile.TemporaryDirectory(prefix="nxemu-e2e-loader-") as tmp:
        r = Runner(tmp)
        good, lay = seq_elf(good_segments())
        good_path = r.path("good.elf", good)

        # A good image runs: HALT at ENTRY is the normal end (exit 0).
        r.expect_status("good ELF runs to HALT", ["-kernel", good_path], 0)
        raw = r.path("halt.bin", HALT)
        r.expect_status("raw stream with cpu-num runs to HALT",
                        ["-device", "loader,file=%s,addr=0x2000000,cpu-num=0" % raw], 0)

        p = r.path("trunc.elf", good[:10])
        r.expect_error("truncated ELF", ["-kernel", p],
                       "nxemu: %s: offset 0x0: truncated ELF header" % p)
        p = r.path("magic.elf", b"NOTANELF" * 16)
        r.expect_error("bad magic", ["-kernel", p],
                       ("nxemu: %s: offset 0x0: " % p, "sequencer ELF or a FIT"))
        p = r.path("class.elf", good[:4] + b"\x01" + good[5:])
        r.expect_error("wrong class", ["-kernel", p],
                       "nxemu: %s: offset 0x4: a sequencer ELF (e_machine 0x4e58) must be "
                       "ELFCLASS64" % p)
        p = r.path("endian.elf", good[:5] + b"\x02" + good[6:])
        r.expect_error("wrong endianness", ["-kernel", p],
                       "nxemu: %s: offset 0x5: ELF data encoding 2 is not little-endian" % p)
        img, _ = seq_elf(good_segments(), machine=0x3E)
        p = r.path("machine.elf", img)
        r.expect_error("wrong machine", ["-kernel", p], "nxemu: %s: offset 0x12: e_machine 0x3e" % p)
        img, _ = seq_elf(good_segments(), etype=1)
        p = r.path("type.elf", img)
        r.expect_error("wrong type", ["-kernel", p],
                       "nxemu: %s: offset 0x10: e_type 1: a sequencer ELF must be ET_EXEC" % p)
        bad = bytearray(good)
        struct.pack_into("<Q", bad, 0x20, len(good) + 0x100)
        p = r.path("phoff.elf", bad)
        r.expect_error("e_phoff out of range", ["-kernel", p],
                       "nxemu: %s: offset 0x20: e_phoff 0x%x: program header table" %
                       (p, len(good) + 0x100))
        bad = bytearray(good)
        struct.pack_into("<Q", bad, 0x28, len(good) - 8)
        p = r.path("shoff.elf", bad)
        r.expect_error("e_shoff out of range", ["-kernel", p],
                       "nxemu: %s: offset 0x28: e_shoff" % p)
        bad = bytearray(good)
        struct.pack_into("<Q", bad, EHDR64 + PHDR64 + 8, len(good))  # p_offset of segment 1
        p = r.path("segfile.elf", bad)
        r.expect_error("segment file range outside the file", ["-kernel", p],
                       "nxemu: %s: offset 0x78: program header 1: file range" % p)
        text = HALT * 16
        img, _ = seq_elf([(5, 0x1000000, text, 0x400), (6, 0x1000000, b"\0" * 16, 16)])
        p = r.path("prog.elf", img)
        r.expect_error("overlapping segments", ["-kernel", p],
                       "nxemu: %s: offset 0x78: program header 1: segment [0x1000000, 0x1000010) "
                       "overlaps segment 0" % p)
        img, _ = seq_elf([(5, 0x1000000, HALT, 64), (6, 0x1800000000, b"\0" * 16, 16)])
        p = r.path("unmapped.elf", img)
        r.expect_error("segment outside the memory map", ["-kernel", p],
                       "nxemu: %s: offset 0x78: program header 1: segment [0x1800000000, "
                       "0x1800000010) is outside memory" % p)
        img, _ = seq_elf([(5, 0x1000000, HALT, 64), (6, 0x2805000000, b"\0" * 4, 4)])
        p = r.path("mmio.elf", img)
        r.expect_error("segment into MMIO", ["-kernel", p],
                       ("nxemu: %s: offset 0x78: " % p, "is outside memory"))
        img, _ = seq_elf([(5, 0x1000000, HALT, 64), (6, 0x3FF00000, b"\0" * 4, 4)])
        p = r.path("dtb.elf", img)
        r.expect_error("segment over the in-memory DTB", ["-kernel", p],
                       ("nxemu: %s: offset 0x78: " % p, "overlaps the in-memory DTB area"))
        img, _ = seq_elf([(5, 0x1000000, HALT, 64), (6, 0x1100000, b"\0" * 32, 16)])
        p = r.path("memsz.elf", img)
        r.expect_error("p_memsz < p_filesz", ["-kernel", p],
                       "nxemu: %s: offset 0x78: program header 1: p_memsz 0x10 is smaller than "
                       "p_filesz 0x20" % p)
        bad = bytearray(good)
        struct.pack_into("<H", bad, 0x3E, 77)
        p = r.path("shstrndx.elf", bad)
        r.expect_error("section name table out of range", ["-kernel", p],
                       "nxemu: %s: offset 0x3e: section name table index 77 out of range" % p)

        # bindings: size, conflicts (machine.md §11.4)
        img, lay = seq_elf(good_segments(), sections=[(".nx_bindings", 1, bytes(24))])
        p = r.path("bind24.elf", img)
        r.expect_error("bindings size not a multiple of 16", ["-kernel", p],
                       "nxemu: %s: offset 0x%x: .nx_bindings: size 24 is not a multiple of 16" %
                       (p, lay["sec_off"][0]))
        recs = struct.pack("<IIQ", 5, 0, 0x2000000)
        img, lay = seq_elf(good_segments(), sections=[(".nx_bindings", 1, recs)])
        p = r.path("bind.elf", img)
        r.expect_status("bindings identical to -bind", ["-bind", "5=0x2000000", "-kernel", p], 0)
        r.expect_error("conflicting bindings", ["-bind", "5=0x1000", "-kernel", p],
                       "nxemu: %s: offset 0x%x: .nx_bindings record 0: var_id 5 bound to "
                       "0x2000000 conflicts with 0x1000" % (p, lay["sec_off"][0]))

        # starting cores (§11.6)
        r.expect_error("no entry point",
                       ["-device", "loader,addr=0x1000,data=0x1,data-len=4"],
                       ("nxemu: ", "no core has an entry point"))
        r.expect_error("cpu-num beyond the cores",
                       ["-device", "loader,file=%s,cpu-num=3" % good_path],
                       ("nxemu: %s: offset 0x18: " % good_path, "the machine has 1 sequencer"))
        r.expect_error("missing file", ["-kernel", os.path.join(tmp, "nope.elf")],
                       "nxemu: -kernel %s: cannot open: No such file or directory" %
                       os.path.join(tmp, "nope.elf"))

        # TPC kernel ELF (tpc.md §7.1)
        k = r.path("k.o", tpc_elf())
        r.expect_status("TPC kernel ELF with tpc-num loads",
                        ["-kernel", good_path,
                         "-device", "loader,file=%s,addr=0x2200000,tpc-num=0" % k], 0)
        k = r.path("k48.o", tpc_elf(text_size=48))
        r.expect_error("TPC .text not a multiple of 32",
                       ["-kernel", good_path, "-device", "loader,file=%s,addr=0x2200000" % k],
                       ("nxemu: %s: offset 0x" % k, ".text size 48 is not a non-zero multiple "
                        "of 32"))
        k = r.path("krel.o", tpc_elf(rel=True))
        r.expect_error("TPC .rel.text",
                       ["-kernel", good_path, "-device", "loader,file=%s,addr=0x2200000" % k],
                       ("nxemu: %s: offset 0x" % k, "relocation section .rel.text"))
        k = r.path("kv13.o", tpc_elf(version=13))
        r.expect_error("TPC metadata version 13",
                       ["-kernel", good_path, "-device", "loader,file=%s,addr=0x2200000" % k],
                       ("nxemu: %s: offset 0x" % k, ".tpc_metadata version 13 is newer than 12"))
        k = r.path("kmarch.o", tpc_elf(march=4))
        r.expect_error("TPC metadata march",
                       ["-kernel", good_path, "-device", "loader,file=%s,addr=0x2200000" % k],
                       ("nxemu: %s: offset 0x" % k, "march 4 is not 2"))
        k = r.path("k.o", tpc_elf())
        r.expect_error("TPC kernel needs addr=",
                       ["-kernel", good_path, "-device", "loader,file=%s" % k],
                       ("nxemu: %s: offset 0x0: " % k, "needs addr="))
        r.expect_error("tpc-num beyond the TPCs",
                       ["-kernel", good_path,
                        "-device", "loader,file=%s,addr=0x2200000,tpc-num=1" % k],
                       ("nxemu: %s: offset 0x" % k, "TPC 1: the machine has 1 TPC(s)"))
        r.expect_error("TPC kernel given to -kernel", ["-kernel", k],
                       ("nxemu: %s: offset 0x12: " % k, "not a TPC kernel"))

        # FIT (§11.3)
        halt_hex = " ".join("%02x" % b for b in HALT)
        fw = """        fw {
            type = "firmware";
            arch = "nxseq";
            compression = "%s";
            data = [%s];
            load = <0x1000000>;
        };"""
        ok_fit = its_compile(r, "ok", fit_source(fw % ("none", halt_hex), 'firmware = "fw";'))
        r.expect_status("FIT firmware starts core 0", ["-kernel", ok_fit], 0)
        p = its_compile(r, "noimages", """/dts-v1/;
/ { configurations { default = "conf"; conf { firmware = "fw"; }; }; };
""")
        r.expect_error("FIT without /images", ["-kernel", p],
                       "nxemu: %s: offset 0x0: FIT has no /images node" % p)
        p = its_compile(r, "gzip", fit_source(fw % ("gzip", halt_hex), 'firmware = "fw";'))
        r.expect_error("FIT compression", ["-kernel", p],
                       ("nxemu: %s: offset 0x" % p,
                        'image fw: compression "gzip" is not supported'))
        p = its_compile(r, "nodata", fit_source(
            '        fw { type = "firmware"; arch = "nxseq"; load = <0x1000000>; };',
            'firmware = "fw";'))
        r.expect_error("FIT missing data", ["-kernel", p],
                       ("nxemu: %s: offset 0x" % p, "image fw: no data"))
        p = its_compile(r, "dataoff", fit_source(
            '        fw { type = "firmware"; arch = "nxseq"; load = <0x1000000>;\n'
            '             data-offset = <0x1000>; data-size = <0x40>; };',
            'firmware = "fw";'))
        r.expect_error("FIT bad data-offset", ["-kernel", p],
                       ("nxemu: %s: offset 0x" % p, "image fw: data-offset 0x1000 + data-size 0x40"))
        p = its_compile(r, "ghost", fit_source(fw % ("none", halt_hex),
                                               'firmware = "fw"; loadables = "ghost";'))
        r.expect_error("FIT unknown image", ["-kernel", p],
                       ("nxemu: %s: offset 0x" % p, "configuration conf: unknown image 'ghost'"))
        r.expect_error("FIT unknown -fit-config", ["-fit-config", "other", "-kernel", ok_fit],
                       ("nxemu: %s: offset 0x" % ok_fit, "configuration 'other' not found"))

        print("1..%d" % r.count)
        return 1 if r.failures else 0


if __name__ == "__main__":
    sys.exit(main())
