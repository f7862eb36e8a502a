#!/usr/bin/env python3
"""End-to-end tests of nxemu-as -t tpc / nxemu-objdump on TPC kernels
(tpc.md §4.5, §7.1, §8).  TAP output.  Expected bytes and texts are typed
from the specification (tests/tpc/asm/*.hex, *.expect).

usage: test_tpc_asm.py NXEMU_AS NXEMU_OBJDUMP ASM_DIR
"""
import os
import re
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tapkit import Tap  # noqa: E402

AS, OBJDUMP, ASM_DIR = sys.argv[1], sys.argv[2], sys.argv[3]
T = Tap("nxemu-tpc-asm-")
test, path, write, run = T.test, T.path, T.write, T.run
TMP = T.tmp


def assemble(source, out, *extra):
    return T.assemble([AS, "-t", "tpc"], source, out, *extra)



def src(name):
    return os.path.join(ASM_DIR, name)

def objdump(*args):
    r = run(OBJDUMP, *args)
    assert r.returncode == 0, f"nxemu-objdump failed: {r.stderr}"
    return r.stdout


def body(dump):
    """Label and bundle lines of an objdump listing (after the .text header),
    without the metadata dump, trailing blanks normalised."""
    out = dump.split("Disassembly of section .text:\n", 1)[1]
    out = out.split("\n.section .tpc_metadata\n", 1)[0]
    return [re.sub(r"\s+", " ", l).strip() for l in out.rstrip("\n").split("\n")]


def sections(data):
    """Minimal ELF32 reader: header fields and {name: bytes}."""
    assert data[:4] == b"\x7fELF"
    (e_type, e_machine, _ver, _entry, _phoff, shoff, _flags, _ehsize, _phentsize,
     _phnum, shentsize, shnum, shstrndx) = struct.unpack_from("<HHIIIIIHHHHHH", data, 16)
    shdrs = [struct.unpack_from("<IIIIIIIIII", data, shoff + i * shentsize) for i in range(shnum)]
    strtab = shdrs[shstrndx]
    names = {}
    for h in shdrs:
        n = data[strtab[4] + h[0]:data.index(b"\0", strtab[4] + h[0])].decode()
        names[n] = data[h[4]:h[4] + h[5]]
    return {"class": data[4], "data": data[5], "type": e_type, "machine": e_machine}, names


def spec_hex(name):
    with open(src(name)) as f:
        return bytes.fromhex(f.read())


@test
def worked_examples_bytes():
    """§4.5 (a)-(d), NOP and HALT bundles: exact bytes with --raw and in .text."""
    raw, _ = assemble(src("worked.s"), path("worked.bin"), "--raw")
    assert raw == spec_hex("worked.hex"), raw.hex()
    elf, _ = assemble(src("worked.s"), path("worked.o"))
    _, secs = sections(elf)
    assert secs[".text"] == raw


@test
def elf_object_like_vendor():
    """§7.1: ELFCLASS32, LSB, EM_386, ET_REL, .tpc_metadata of 262 bytes with the defaults."""
    elf, _ = assemble(src("worked.s"), path("worked.o"))
    hdr, secs = sections(elf)
    assert hdr == {"class": 1, "data": 1, "type": 1, "machine": 3}, hdr
    md = secs[".tpc_metadata"]
    assert len(md) == 262
    want = bytearray(262)
    want[0] = 12   # version
    want[8] = 2    # march: Gaudi
    want[14] = 1   # numberOfThreads
    assert md == bytes(want), md.hex()
    assert len(secs[".text"]) == 10 * 32


@test
def examples_disassemble_as_vendor():
    """§8.3 lines and §8.7 inputs: objdump prints the canonical text."""
    assemble(src("examples.s"), path("examples.o"))
    got = body(objdump("--no-leading-addr", "-d", path("examples.o")))
    with open(src("examples.expect")) as f:
        want = [re.sub(r"\s+", " ", l).strip() for l in f.read().rstrip("\n").split("\n")]
    assert got == want, "\n".join(f"{a!r} | {b!r}" for a, b in zip(got, want) if a != b)


@test
def round_trip():
    """objdump output reassembles to the same bytes."""
    first, _ = assemble(src("examples.s"), path("rt1.bin"), "--raw")
    assemble(src("examples.s"), path("rt1.o"))
    text = "\n".join(body(objdump("--no-leading-addr", "-d", path("rt1.o")))) + "\n"
    again, _ = assemble(write("rt2.s", text), path("rt2.bin"), "--raw")
    assert again == first


@test
def raw_objdump():
    """-b binary -m nxtpc: bundle lines only."""
    assemble(src("worked.s"), path("w.bin"), "--raw")
    out = objdump("-b", "binary", "-m", "nxtpc", "--no-leading-addr", "-d", path("w.bin"))
    lines = out.rstrip("\n").split("\n")
    assert lines[0] == ("ld_tnsr V1, 0x2, I2, SP1; add.i32 b00001 I2, 0x40, I2; "
                        "add.f32 V3, V1, V2, !VP5; st_tnsr 0x3, I3, V4, SP1"), lines[0]
    assert lines[3] == "loop S1, 16, 4294967294, >=, 64, SP3", lines[3]
    assert lines[6] == "nop; halt; halt; nop"
    assert len(lines) == 10


@test
def leading_addresses_by_default():
    """Without --no-leading-addr the listing is llvm-objdump's default one:
    a label line `%08x <name>:`, each bundle after its byte offset in .text
    (`%8x: `, the pc a TPC fault line prints), 32 bytes a bundle."""
    s = write("addr.s", "main:\nnop\nnop; add.i32 S1, S1, 0x1; nop; nop\n"
                        "L1:\nnop; jmpr L1, SP1; nop; nop\nnop; halt; halt; nop\n")
    assemble(s, path("addr.o"))
    dump = objdump("-d", path("addr.o"))
    got = dump.split("Disassembly of section .text:\n", 1)[1].split("\n.section", 1)[0]
    assert got == ("\n00000000 <main>:\n"
                   "       0: nop; nop; nop; nop\n"
                   "      20: nop; add.i32 S1, S1, 0x1; nop; nop\n"
                   "\n00000040 <L1>:\n"
                   "      40: nop; jmpr L1, SP1; nop; nop\n"
                   "      60: nop; halt; halt; nop\n"), got
    # --no-leading-addr: the same lines without the offsets (the vendor text)
    plain = objdump("--no-leading-addr", "-d", path("addr.o"))
    got = plain.split("Disassembly of section .text:\n", 1)[1].split("\n.section", 1)[0]
    assert got == ("\nmain:\nnop; nop; nop; nop\nnop; add.i32 S1, S1, 0x1; nop; nop\n"
                   "\nL1:\nnop; jmpr L1, SP1; nop; nop\nnop; halt; halt; nop\n"), got
    # raw bundles too; the .long line of an undecodable one sits under its text
    bad = bytearray(spec_hex("worked.hex")[128:160])      # a NOP bundle
    bad[5] = 0xb8                                          # VPU opcode 0x37 (MADD)
    with open(path("addr.bin"), "wb") as f:
        f.write(spec_hex("worked.hex")[128:160] + bad)
    out = objdump("-b", "binary", "-m", "nxtpc", "-d", path("addr.bin")).split("\n")
    assert out[0] == "       0: nop; nop; nop; nop", out
    assert out[1] == "      20: // bad bundle", out
    assert out[2].startswith("          .long 0x0000003f, 0x0001b800, "), out


@test
def metadata_and_indexmap():
    """§8.6 directives fill .tpc_metadata; .IndexMap keeps SCEVBEGIN..SCEVEND."""
    elf, _ = assemble(src("metadata.s"), path("md.o"))
    _, secs = sections(elf)
    md = secs[".tpc_metadata"]
    assert struct.unpack_from("<I", md, 0)[0] == 12
    assert struct.unpack_from("<H", md, 8)[0] == 2
    assert md[12] == 3 and md[14] == 1
    assert struct.unpack_from("<H", md, 26)[0] == 0x0001     # scalarLd[0]
    assert struct.unpack_from("<H", md, 28)[0] == 0xc000     # rmwStore[14], [15]
    assert secs[".IndexMap"] == b"SCEVBEGIN T0:{0, 64}[0] SCEVEND"
    dump = objdump("-d", path("md.o"))
    tail = dump.split("\n.section .tpc_metadata\n", 1)[1]
    assert "version: DD 12\n" in tail and "march: DW 2\n" in tail
    assert "paramsNum: DB 3\n" in tail
    assert "scalarLd[0]: DB 1\nrmwStore[14]: DB 1\nrmwStore[15]: DB 1\n" in tail


@test
def immediates_warning():
    """§8.1: two different immediates: the last one is kept, with a warning."""
    s = write("imm.s", "ld_l S1, 0x10; add.i32 S2, S2, 1; nop; nop\n")
    raw, err = assemble(s, path("imm.bin"), "--raw")
    assert "nxemu: warning:" in err and "keeping 0x1" in err, err
    out = objdump("-b", "binary", "-m", "nxtpc", "--no-leading-addr", "-d", path("imm.bin"))
    assert out.strip() == "ld_l S1, 0x1; add.i32 S2, S2, 0x1; nop; nop", out


ERRORS = [
    ("nop; nop; madd.f32 V1, V2, V3, V4; nop\n", 1, 11, "missing feature"),
    ("nop\nnop; jmpr Nowhere; nop; nop\n", 2, 11, "missing label"),
    ("ld_l S1, S2; nop; nop; st_l S3, S4, SP2\n", 1, None, "same predicate"),
    ("nop; add S1, S1, S2; nop; nop\n", 1, 6, "type suffix"),
    ("nop; nop; nop; nop; nop\n", 1, None, "more than four slots"),
    ("nop; add.i32 S36, S1, S2; nop; nop\n", 1, 14, "does not exist"),
    ("nop\n.frob 3\n", 2, 1, "unknown directive"),
]


@test
def error_messages():
    """Bad input: `file:line:col: error: ...`, exit status 1, no crash."""
    for i, (text, line, col, msg) in enumerate(ERRORS):
        s = write(f"err{i}.s", text)
        r = run(AS, "-t", "tpc", "-o", path(f"err{i}.o"), s)
        assert r.returncode == 1, (text, r.returncode, r.stderr)
        first = r.stderr.splitlines()[0]
        prefix = f"{s}:{line}:" + (f"{col}:" if col else "")
        assert first.startswith(prefix) and ": error: " in first and msg in first, (text, first)


@test
def objdump_rejects_garbage():
    """Truncated or foreign files give one error line, never a crash."""
    elf, _ = assemble(src("worked.s"), path("g.o"))
    for cut in (3, 20, 51, 60, len(elf) - 1):
        with open(path("cut.o"), "wb") as f:
            f.write(elf[:cut])
        r = run(OBJDUMP, "-d", path("cut.o"))
        assert r.returncode in (0, 1), (cut, r.returncode, r.stderr)
        assert "Traceback" not in r.stderr and r.returncode >= 0
    with open(path("odd.bin"), "wb") as f:
        f.write(b"\0" * 33)
    r = run(OBJDUMP, "-b", "binary", "-m", "nxtpc", "-d", path("odd.bin"))
    assert r.returncode == 1 and "multiple of 32" in r.stderr, r.stderr
    # undecodable bundle: `// bad bundle` and .long words that reassemble
    bad = bytearray(spec_hex("worked.hex")[128:160])      # a NOP bundle
    bad[5] = 0xb8                                          # VPU opcode 0x37 (MADD)
    with open(path("bad.bin"), "wb") as f:
        f.write(bad)
    out = objdump("-b", "binary", "-m", "nxtpc", "--no-leading-addr", "-d", path("bad.bin"))
    assert out.startswith("// bad bundle\n.long 0x0000003f, 0x0001b800"), out
    again, _ = assemble(write("bad.s", out), path("bad2.bin"), "--raw")
    assert again == bytes(bad)



@test
def loop_once_round_trips():
    """REPEAT_AT_MOST_ONCE (tpc.md §4.4 bit 29) prints as the vendor's sixth
    LOOP operand `0x1` (compare/loop-01) and reassembles to the same bytes."""
    loop = bytearray(spec_hex("worked.hex")[96:128])  # loop S1, 16, 4294967294, >=, 64, SP3
    loop[3] |= 0x20                                    # bit 29
    with open(path("once.bin"), "wb") as f:
        f.write(loop)
    out = objdump("-b", "binary", "-m", "nxtpc", "--no-leading-addr", "-d", path("once.bin"))
    want = "loop S1, 16, 4294967294, >=, 64, 0x1, SP3"
    assert out.strip().split("\n")[-1].strip() == want, out
    again, _ = assemble(write("once.s", out), path("once2.bin"), "--raw")
    assert again == bytes(loop)


T.main()
