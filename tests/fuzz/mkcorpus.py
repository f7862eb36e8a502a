#!/usr/bin/env python3
"""Regenerate the seed corpora of the fuzz targets (tests/fuzz/corpus/).

usage: mkcorpus.py BUILD_DIR [OUT_DIR]

Seeds are small files made from the existing test inputs: sequencer images
and raw .text assembled from tests/seq/*.s (nxemu-as of BUILD_DIR), the FIT
of tests/fit, TPC kernels of tests/tpc, gdb packets of tests/gdb, the
tests/runner manifests, and the default device tree.  Each file starts with
the target's mode byte (see the comment at the top of tests/fuzz/fuzz-*.c).
The output is deterministic; commit it (docs/fuzzing.rst).
"""
import glob
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Small, varied sequencer programs (ALU, branches, DMA, events, TLB, faults, 2 cores).
SEQ = ["alu", "branch", "mem2d", "events", "dma", "doorbell", "addr8", "notify", "console",
       "smc", "tlb", "two-cores", "control", "deadlock", "fault-invalid-opcode",
       "fault-bus-error", "fault-dma-bad-address", "review-pseudo-call", "review-nx",
       "review-dmai-shape", "review-finisher", "review-evsem-a-value"]
TPC = ["add-f32", "loop", "jmp", "ld-tnsr", "st-tnsr", "vpu-int", "vpu-float", "convert",
       "fault-slm", "bits", "four-slot", "vp-ldst", "fdiv"]


def write(out, target, name, data):
    d = os.path.join(out, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def asm(nxas, src, dst, *args):
    subprocess.run([nxas, *args, "-o", dst, src], check=True, stderr=subprocess.DEVNULL)
    with open(dst, "rb") as f:
        return f.read()


def text_of(elf):
    """The bytes of the first executable PT_LOAD of an ELF64 image."""
    phoff, = struct.unpack_from("<Q", elf, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", elf, 0x36)
    for i in range(phnum):
        p_type, p_flags, p_off, _, _, p_filesz = struct.unpack_from("<IIQQQQ", elf, phoff + i * phentsize)
        if p_type == 1 and p_flags & 1:
            return elf[p_off:p_off + p_filesz]
    return b""


def gdb_frame(p):
    return b"$" + p + b"#%02x" % (sum(p) & 0xff)


def gdb_packets():
    text = open(os.path.join(SRC, "tests/gdb/test_proto.py")).read()
    pk = sorted(set(re.findall(r"c\.cmd\('([^'%\\]*)'\)", text)))
    return [p.encode() for p in pk]


def main():
    build = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(SRC, "tests/fuzz/corpus")
    nxas = os.path.join(build, "tools/nxemu-as")
    shutil.rmtree(out, ignore_errors=True)
    tmp = tempfile.mkdtemp()
    try:
        seq_raw = {}
        for n in SEQ:
            s = os.path.join(SRC, "tests/seq", n + ".s")
            elf = asm(nxas, s, os.path.join(tmp, n + ".elf"))
            raw = text_of(elf)
            seq_raw[n] = raw
            write(out, "loader", "kernel-" + n, b"\x00" + elf)
            src = open(s, "rb").read()
            if b"include" not in src:
                write(out, "asm", "seq-" + n, b"\x00" + src)
            # the first 16 records, run by one core; two for two-cores
            write(out, "seq", n, (b"\x01" if n == "two-cores" else b"\x00") + raw[:64 * 16])
            write(out, "asm", "rec-" + n, b"\x03" + raw[:64])
        write(out, "seq", "pseudo-lowered", b"\x02" + seq_raw["review-pseudo-call"][:64 * 16])
        for n in ("alu", "branch"):
            write(out, "loader", "raw-" + n, b"\x06" + seq_raw[n][:64 * 16])
            write(out, "loader", "file-" + n,
                  b"\x01" + open(os.path.join(tmp, n + ".elf"), "rb").read())
        fit = os.path.join(build, "tests/fit/sum.fit")
        write(out, "loader", "fit-sum", b"\x00" + open(fit, "rb").read())
        write(out, "loader", "fit-sum-conf", b"\x80" + open(fit, "rb").read())
        for n in TPC:
            s = os.path.join(SRC, "tests/tpc", n + ".s")
            obj = asm(nxas, s, os.path.join(tmp, n + ".o"), "-t", "tpc")
            raw = asm(nxas, s, os.path.join(tmp, n + ".tbin"), "-t", "tpc", "--raw")
            write(out, "tpc", n, b"\x00" + raw[:32 * 128])
            write(out, "tpc", n + "-strict", b"\x09" + raw[:32 * 128])
            write(out, "asm", "tpc-" + n, b"\x02" + open(s, "rb").read())
            if n in ("add-f32", "loop", "ld-tnsr"):
                write(out, "loader", "tpc-elf-" + n, b"\x07" + obj)
                write(out, "loader", "tpc-raw-" + n, b"\x07" + raw)
        dtb = open(os.path.join(build, "pc-bios/nc2.dtb"), "rb").read()
        for e in (0x00, 0x01, 0x0d, 0x3f, 0x4c):
            write(out, "dtb", "nc2-%02x" % e, bytes([e]) + dtb)

        pk = gdb_packets()
        for i, p in enumerate(pk):
            write(out, "gdb", "pkt-%02d" % i, gdb_frame(p))
        sessions = {
            "attach-step-cont": [b"qSupported:multiprocess+", b"?", b"Hgp1.1", b"g",
                                 b"vCont;s:p1.1", b"p20", b"Z0,1000080,4", b"vCont;c",
                                 b"z0,1000080,4", b"Z2,2000000,4", b"c", b"m2000000,4",
                                 b"vAttach;3", b"Hgp3.1", b"g", b"s", b"D;3", b"k"],
            "threads-xml": [b"qfThreadInfo", b"qsThreadInfo", b"qXfer:features:read:target.xml:0,400",
                            b"qRcmd," + b"info registers".hex().encode(), b"qC", b"D"],
            "noack-mem": [b"QStartNoAckMode", b"M1000000,4:deadbeef", b"m1000000,40",
                          b"X2000000,2:ab", b"P23=2a000000", b"vCont;c", b"vKill;1"],
        }
        for n, seq in sessions.items():
            write(out, "gdb", n, b"+".join(gdb_frame(p) for p in seq))

        for n in ("suite.ini", "binary.ini"):
            write(out, "manifest", n, b"\x00" + open(os.path.join(SRC, "tests/runner", n), "rb").read())
        report = {"nxemu_test": 1, "wall_time": 0.5, "cases": [
            {"name": "a", "status": "pass", "wall_time": 0.25},
            {"name": "b", "status": "fail", "wall_time": 1e-3, "message": "exit 1 \"x\\u00e9\""}]}
        js = json.dumps(report).encode()
        write(out, "manifest", "report.json", b"\x01" + js)
        write(out, "manifest", "parse.json", b"\x02" + js)
        write(out, "manifest", "parse-nested", b"\x02" + b'[1,-2.5e3,true,false,null,{"k":[[]]}]')
        for n, s in (("shard-1", b"1/3"), ("shard-2", b"4/4")):
            write(out, "manifest", n, b"\x03" + s)

        # mmio: op 1 write (region, inst, off32, size, who, value64), 2 rounds, 3 HBM, 4 start
        def w(reg, inst, off, size, who, val):
            return struct.pack("<BBBIBBQ", 1, reg, inst, off, size, who, val)

        def r(reg, inst, off, size, who):
            return struct.pack("<BBBIBB", 0, reg, inst, off, size, who)

        def hbm(rec_off, data):
            return struct.pack("<BH", 3, rec_off) + data.ljust(64, b"\0")[:64]

        rounds = b"\x02\x07"
        alu = seq_raw["alu"]
        prog = b"".join(hbm(i, alu[64 * i:64 * i + 64]) for i in range(8))
        write(out, "mmio", "start-alu", prog + b"\x04\x00\x00" + rounds * 3)
        dma = seq_raw["dma"]
        prog = b"".join(hbm(i, dma[64 * i:64 * i + 64]) for i in range(12))
        write(out, "mmio", "start-dma", prog + b"\x04\x00\x00" + rounds * 4)
        regs = b""
        for reg in range(3, 8):  # evsem, nx, dma, tpc, test
            for off in (0, 4, 8, 0x10, 0x40, 0x100, 0x800, 0x1000, 0x1008, 0x100c):
                regs += r(reg, 0, off, 2, 3) + w(reg, 0, off, 2, 0, 0x1)
        write(out, "mmio", "regs", regs + rounds)
        # TPC 0 EXECUTE of an empty kernel, then rounds
        write(out, "mmio", "tpc-execute", w(6, 0, 0x788, 2, 3, 0x100000) + w(6, 0, 0x1008, 2, 0, 1)
              + rounds * 2 + r(6, 0, 0x100c, 2, 0))
        write(out, "mmio", "finisher", w(7, 0, 0, 2, 0, 0x5555) + rounds)
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
