#!/usr/bin/env python3
"""End-to-end check that nxemu-as -t tpc / nxemu-objdump speak the vendor
syntax (tpc.md §8) as pinned by the tpc-llvm assembler tests
(HabanaAI/tpc_llvm clang/test/RC99/asm/...): accepted input spellings, the
printed text, re-assembly to identical bytes, and one-line errors for the
spellings the vendor assembler rejects.  TAP output.

usage: test_tpc_vendor_syntax.py NXEMU_AS NXEMU_OBJDUMP ASM_DIR
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tapkit import Tap, set_bits  # noqa: E402

AS, OBJDUMP, ASM_DIR = sys.argv[1], sys.argv[2], sys.argv[3]
T = Tap("nxemu-tpc-vendor-")
test, path, write, run = T.test, T.path, T.write, T.run
TMP = T.tmp


def assemble(source, out, *extra):
    return T.assemble([AS, "-t", "tpc"], source, out, *extra)



# NOP bundle, tpc.md §4.3
NOP = bytes.fromhex("3f00000000f8010000000000000080 0f00f00100".replace(" ", "")) + bytes(12)

def body(elf):
    """Label and bundle lines of the .text listing, blanks normalised."""
    r = run(OBJDUMP, "--no-leading-addr", "-d", elf)
    assert r.returncode == 0, r.stderr
    out = r.stdout.split("Disassembly of section .text:\n", 1)[1]
    out = out.split("\n.section .tpc_metadata\n", 1)[0]
    return [re.sub(r"\s+", " ", l).strip() for l in out.rstrip("\n").split("\n")]



@test
def vendor_forms_print_as_vendor():
    """Every input form of vendor-syntax.s prints the vendor text (.expect)."""
    assemble(os.path.join(ASM_DIR, "vendor-syntax.s"), path("vs.o"))
    got = body(path("vs.o"))
    with open(os.path.join(ASM_DIR, "vendor-syntax.expect")) as f:
        want = [re.sub(r"\s+", " ", l).strip() for l in f.read().rstrip("\n").split("\n")]
    diff = [f"{a!r} | {b!r}" for a, b in zip(got, want) if a != b]
    assert not diff and len(got) == len(want), "\n".join(diff) or f"{len(got)} != {len(want)}"


@test
def printed_text_reassembles_to_same_bytes():
    """The printed (canonical) text assembles to the bytes of the vendor input."""
    first, _ = assemble(os.path.join(ASM_DIR, "vendor-syntax.s"), path("vs1.bin"), "--raw")
    assemble(os.path.join(ASM_DIR, "vendor-syntax.s"), path("vs1.o"))
    text = "\n".join(body(path("vs1.o"))) + "\n"
    again, _ = assemble(write("vs2.s", text), path("vs2.bin"), "--raw")
    assert again == first


@test
def vendor_bytes():
    """Each line of vendor-bytes.txt assembles to the bytes computed by hand
    from the vendor's format classes (not by nxemu), and prints back to the
    same bytes."""
    bad = []
    with open(os.path.join(ASM_DIR, "vendor-bytes.txt")) as f:
        rows = [l.rstrip("\n").split(" | ") for l in f if l.strip() and not l.startswith("#")]
    for i, (text, hexs) in enumerate(rows):
        want = bytes.fromhex(hexs.replace(" ", ""))
        want += bytes(32 - len(want))
        got, err = assemble(write(f"vb{i}.s", text + "\n"), path(f"vb{i}.bin"), "--raw")
        if got != want:
            bad.append(f"{text}: {got.hex(' ')} != {want.hex(' ')} {err}")
    assert not bad and len(rows) >= 60, "\n".join(bad) or len(rows)


@test
def mov_section_prefix_encoding():
    """`MOV 5 VP3, S8` (compare/mov-ld-01): LD MOV, A = S8 (64 + 8), DEST = VP3
    (240 + 3), LD SRC_B (bits 81:73) = section 5 (tpc.md §4.1, §4.2, §5.1.1)."""
    got, _ = assemble(write("mv.s", "MOV 5 VP3, S8; NOP; NOP; NOP\n"), path("mv.bin"), "--raw")
    want = bytearray(NOP)
    set_bits(want, 119, 5, 0x05)
    set_bits(want, 103, 8, 72)
    set_bits(want, 111, 8, 243)
    set_bits(want, 73, 9, 5)
    assert got == bytes(want), got.hex()
    # the older trailing spelling stays accepted and means the same
    again, _ = assemble(write("mv2.s", "mov VP3, S8, 5; nop; nop; nop\n"), path("mv2.bin"), "--raw")
    assert again == got


@test
def loop_sixth_operand_sets_repeat_once():
    """`loop ..., End, 0x1` (compare/loop-01) assembles; the flag is LOOP bit 29
    (tpc.md §4.4 REPEAT_AT_MOST_ONCE), everything else as without it."""
    src = "loop S1, S2, S3, <, E, {}\nnop\nE:\nnop\n"
    with_flag, _ = assemble(write("l1.s", src.format("0x1")), path("l1.bin"), "--raw")
    without, _ = assemble(write("l0.s", src.format("0")), path("l0.bin"), "--raw")
    want = bytearray(without)
    set_bits(want, 29, 1, 1)
    assert with_flag == bytes(want)
    assert (without[3] >> 5) & 1 == 0


@test
def tnsr_low_high_vp_is_a_plain_form():
    """ld_tnsr_high VPd (compare/ld_tnsr_high-01; the vendor's compiler emits
    it) assembles without a word to the vendor assembler's bytes."""
    got, err = assemble(write("lh.s", "LD_TNSR_HIGH VP4, 0, I3, !SP1\n"), path("lh.bin"), "--raw")
    assert err == "", err
    want = bytes.fromhex("3f00000000f8010000000000 8041fa0900f007".replace(" ", ""))
    assert got == want + bytes(32 - len(want)), got.hex(" ")


@test
def bundle_right_after_metadata_goes_to_text():
    """tpc_metadata/* vendor tests: the field lines (tabs, mixed-case names,
    DH bitmaps) are followed directly by a bundle, which lands in .text; the
    dump follows tpc.md §8.6 (fields of version 6, then the set bits)."""
    src = (".tpc_metadata\nversion:\t\tDD\t6\nLockUnLock:\tDB\t1\n"
           "scalarld:\tDH\t0010000000000001\nmarch:\t\tDW\t2\n\nNOP;\n")
    assemble(write("md.s", src), path("md.o"))
    r = run(OBJDUMP, "--no-leading-addr", "-d", path("md.o"))
    assert r.returncode == 0, r.stderr
    text, md = r.stdout.split("Disassembly of section .text:\n", 1)[1].split(
        "\n.section .tpc_metadata\n", 1)
    assert text.strip() == "nop; nop; nop; nop", text
    want = ["version: DD 6", "specialFunctionUsed: DB 0", "printfUsed: DB 0",
            "lockUnLock: DB 1", "mmioUsed: DB 0", "march: DW 2",
            "scalarLd[2]: DB 1", "scalarLd[15]: DB 1"]
    assert md.strip().split("\n") == want, md


@test
def bundle_right_after_indexmap_goes_to_text():
    """compare/index_map/index_map.s: a bundle follows the SCEVEND directly."""
    src = ".section .IndexMap\nSCEVBEGIN IndexSpace:[0].[Input].{ 8, 1, 1, 1, 0 } #SCEVEND\n\nNOP;\n"
    assemble(write("im.s", src), path("im.o"))
    assert body(path("im.o")) == ["nop; nop; nop; nop"]


# (source, line, column or None, text in the message); each pins a vendor
# rejection (file named in the comment) or a malformed nxemu spelling.
BAD = [
    ("nop;jmpr NOWHERE, SP1; nop; nop\nTHERE:\n", 1, 10, "missing label"),  # compare/jmpr-e.s
    ("// x\nloop S1, S2, S3, <, Nope\nNOP\nYes:\nNOP\n", 2, 21, "missing label"),  # loop-e
    ("NOP; MOV.F32 S1, 4e38f\n", 1, 18, "overflow"),          # compare/literals-e-01.s
    ("NOP; MOV.F32 S1, 1e-39\n", 1, 18, "underflow"),         # compare/literals-e-01.s
    ("NOP; MOV.F32 S1, 70000.0h\n", 1, 18, "overflow"),       # compare/literals-e-01.s
    ("NOP; MOV.F32 S1, 1e-6h\n", 1, 18, "underflow"),         # compare/literals-e-01.s
    ("NOP; MOV.I32 S1, -7u\n", 1, 18, "'u' suffix"),          # compare/literals-e-01.s
    ("MOV 9 VP1, S2\n", 1, None, "section"),
    ("loop S1, S2, S3, <, L, 2\nNOP\nL:\nNOP\n", 1, None, "0 or 1"),
    ("nop\nNOP; BREV.I32 S1, S2, S3\n", 2, None, "operand"),
    # tpc_metadata/tpc_metadata_wrong_bool_value.s, _redefine.s, _wrong_type.s
    (".tpc_metadata\nprintfUsed:\tDB\t2\n\nNOP;\n", 2, None, "0 or 1"),
    (".tpc_metadata\nmmioUsed: DB 1\nmmioUsed: DB 1\nNOP;\n", 3, None, "redefined"),
    (".tpc_metadata\nrmwStore: DH 1000000000000000\nrmwStore[0]: DB 1\nNOP;\n", 3, None,
     "redefined"),
    (".tpc_metadata\nmarch:\tDX\t2\nNOP;\n", 2, None, "DB, DW or DD"),
]


@test
def rejected_spellings_give_one_line_errors():
    for i, (text, line, col, what) in enumerate(BAD):
        name = f"bad{i}.s"
        r = run(AS, "-t", "tpc", "-o", path(f"bad{i}.o"), write(name, text))
        assert r.returncode != 0, f"{name} accepted: {text!r}"
        lines = r.stderr.strip().split("\n")
        assert len(lines) == 1, f"{name}: {r.stderr!r}"
        m = re.match(rf".*{re.escape(name)}:(\d+):(\d+): error: (.*)$", lines[0])
        assert m, lines[0]
        assert int(m.group(1)) == line, lines[0]
        assert col is None or int(m.group(2)) == col, lines[0]
        assert what in m.group(3), lines[0]


T.main()
