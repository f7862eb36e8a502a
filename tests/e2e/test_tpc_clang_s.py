#!/usr/bin/env python3
"""nxemu-as -t tpc reads the compiler's assembly output (tpc-clang -S, the
InstructionPerLineNoNops format of HabanaAI/tpc_llvm
llvm/lib/Target/TPC/MCTargetDesc/TPCInstPrinter.cpp printInst, registers with
the `%` prefix): each case is a program in that format, shaped like the
compiler output of the tpc_llvm file it names, and the same program written
by hand in the bundle-per-line syntax (tpc.md §8.1); both must give the same
.text bytes.  Then the one-line errors of the format.  TAP output.

usage: test_tpc_clang_s.py NXEMU_AS
"""
import os
import re
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tapkit import Tap  # noqa: E402

AS = sys.argv[1]
T = Tap("nxemu-tpc-clang-s-")
test, write, run, path = T.test, T.write, T.run, T.path


def sections(elf):
    """ELF32 little-endian: {section name: bytes}."""
    shoff, = struct.unpack_from("<I", elf, 0x20)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", elf, 0x2E)
    hdrs = [struct.unpack_from("<IIIIIIIIII", elf, shoff + i * shentsize) for i in range(shnum)]
    strtab = hdrs[shstrndx]
    names = elf[strtab[4]:strtab[4] + strtab[5]]
    out = {}
    for h in hdrs:
        name = names[h[0]:names.index(b"\0", h[0])].decode()
        out[name] = elf[h[4]:h[4] + h[5]] if h[1] != 8 else b""
    return out


def assemble_text(name, text):
    elf, err = T.assemble([AS, "-t", "tpc"], write(name + ".s", text), path(name + ".o"))
    return sections(elf), err


def same_text(name, clang_s, bundles):
    a, _ = assemble_text(name + "-s", clang_s)
    b, _ = assemble_text(name + "-bpl", bundles)
    assert len(a[".text"]) == len(b[".text"]), (len(a[".text"]), len(b[".text"]))
    for i in range(0, len(a[".text"]), 32):
        assert a[".text"][i:i + 32] == b[".text"][i:i + 32], f"bundle {i // 32} differs"
    return a


@test
def lone_instruction_lines():
    """clang/test/RC99/CodeGen/vect-01.c: one instruction per line, each its
    own bundle in the slot the instruction fits; nop lines; the directives,
    label and comment lines of a function; the two-part VLM address with
    offset 0x0 of the compiler's default target."""
    same_text("lone", """\
\t.text
\t.file\t"vect-01.c"
\t.globl\tmain                            // -- Begin function main
\t.p2align\t1
\t.type\tmain,@function
main:                                   // @main
// %bb.0:                               // %entry
\tld_l_v %V0, %S1, 0x0
\tmov.i16\t%S1, 0x0
\tnop
\tsub.i16  %S1, %S1, %S2
\tash.i16  %V0, %V0, %S1
\tST_L_V %S0, 0x0, %V0
\thalt
$func_end0:
\t.size\tmain, ($func_end0)-main
                                        // -- End function
\t.section\t".note.GNU-stack","",@progbits
\t.addrsig
""", """\
main:
ld_l_v V0, S1; nop; nop; nop
nop; mov.i16 S1, 0x0; nop; nop
nop; nop; nop; nop
nop; sub.i16 S1, S1, S2; nop; nop
nop; nop; ash.i16 V0, V0, S1; nop
nop; nop; nop; st_l_v S0, V0
nop; halt; halt; nop
""")


@test
def brace_groups():
    """TPCInstPrinter.cpp printInst: a bundle of several instructions is `{`,
    one per line, `}` in any order; the other slots are NOP; an empty bundle
    is `NOP`.  Instruction shapes: clang/test/RC99/CodeGen/irf-add-01.c
    (st_tnsr with an IRF add), set_index-01.c (set_indx), and a lone MOV or
    SET_INDX going to the SPU/VPU, a second one to the load then the store
    slot."""
    same_text("groups", """\
{
\tst_tnsr  0x1, %I2, %V0
\tadd.i32  b00001 %I2, %S0, %I2
}
{
\tset_indx  %I2, b00001, 0x0
\tset_indx  %I2, b00010, 0x0
}
{
\tmov.f32  %V4, 0x0
\tmov.f32  %V6, 0x0
\tset_indx  %I3, b00001, %S32
\tset_indx  %I4, b00001, %S32
}
{
\tmov  %V7, %V3
\tld_tnsr  %V6, 0x0, %I2
\tadd.i32  b00010 %I2, 0x1, %I2
}
\tNOP
{
\thalt
\thalt
}
""", """\
nop; add.i32 b00001 I2, S0, I2; nop; st_tnsr 0x1, I2, V0
set_indx I2, b00010, 0x0; set_indx I2, b00001, 0x0; nop; nop
mov.f32 V6, 0x0; set_indx I3, b00001, S32; mov.f32 V4, 0x0; set_indx I4, b00001, S32
ld_tnsr V6, 0x0, I2; add.i32 b00010 I2, 0x1, I2; mov V7, V3; nop
nop
halt
""")


@test
def predicates_numbers_labels():
    """clang/test/RC99/Intrinsics/v_xx_st_l_v.c (CHECK-GEN2, Gaudi):
    `%SPn` / `!%SPn` predicates and an immediate address; negative hex
    immediates (formatHex); `.LBB` block labels as jump and loop targets."""
    same_text("preds", """\
main:
\tst_l_v  %S1, %V0, %SP1
\tst_l_v  %S2, %V0, !%SP1
\tst_l_v  0x100, %V0
\tadd.i32  %S1, %S0, -0x1
\tmov.f32  %V9, -0x800000
\tjmpr .LBB0_1, !%SP1
.LBB0_1:                                // %for.body
\tloop 0, %S0, 4, <, .LBB0_2
\tnop
.LBB0_2:
\thalt
""", """\
main:
nop; nop; nop; st_l_v S1, V0, SP1
nop; nop; nop; st_l_v S2, V0, !SP1
nop; nop; nop; st_l_v 0x100, V0
nop; add.i32 S1, S0, 0xffffffff; nop; nop
nop; nop; mov.f32 V9, 0xff800000; nop
nop; jmpr .LBB0_1, !SP1; nop; nop
.LBB0_1:
loop 0, S0, 4, <, .LBB0_2
nop
.LBB0_2:
halt
""")


@test
def metadata_as_string():
    """The compiler writes .tpc_metadata as a `tpc_metadata:` symbol and one
    .asciz string (octal escapes); its bytes are the section contents."""
    secs, err = assemble_text("md", """\
\t.text
main:
\thalt
\t.type\ttpc_metadata,@object
\t.section\t.tpc_metadata,"aw",@progbits
\t.globl\ttpc_metadata
\t.p2align\t4
tpc_metadata:
\t.asciz\t"\\f\\000\\000\\000\\001\\000\\000\\001\\002\\000\\000\\000\\003\\017\\001"
\t.size\ttpc_metadata, 262
""")
    md = secs[".tpc_metadata"]
    assert len(md) == 262, len(md)
    # version 12, specialFunctionUsed 1, mmioUsed 1, march 2, paramsNum 3,
    # printfTensorID 15, numberOfThreads 1, then the NUL of .asciz and zeros
    want = bytes([12, 0, 0, 0, 1, 0, 0, 1, 2, 0, 0, 0, 3, 15, 1]) + bytes(262 - 15)
    assert md == want, md[:20].hex()
    assert err == "", err


@test
def bundle_per_line_files_unchanged():
    """A file without `%` registers keeps the positional rule of tpc.md §8.1:
    a lone SPU instruction is not a load-slot instruction."""
    r = run(AS, "-t", "tpc", "-o", path("pos.o"), write("pos.s", "add.i32 S1, S2, S3\n"))
    assert r.returncode != 0
    assert "pos.s:1:1: error:" in r.stderr and "load-slot" in r.stderr, r.stderr


def one_error(name, text, where, words):
    r = run(AS, "-t", "tpc", "-o", path(name + ".o"), write(name + ".s", text))
    assert r.returncode != 0, "assembled"
    lines = [l for l in r.stderr.splitlines() if l]
    assert len(lines) == 1, r.stderr
    assert re.match(re.escape(path(name + ".s")) + ":" + where + ": error: ", lines[0]), lines[0]
    for w in words:
        assert w in lines[0], lines[0]


@test
def error_two_for_one_slot():
    one_error("clash", "{\n\tld_tnsr  %V1, 0x0, %I2\n\tld_l_v %V2, %S1\n}\n", "3:2",
              ["two instructions for one slot", "ld_l_v", "load slot (taken by line 2)"])


@test
def error_fits_no_slot():
    one_error("nofit", "\tst_tnsr  0x1, %I2\n", "1:2", ["st_tnsr"])
    one_error("unknown", "{\n\tadd.i32 %S1, %S1, %S2\n\tfrob %V1\n}\n", "3:2",
              ["unknown instruction 'frob'"])


@test
def error_unterminated_group():
    one_error("open", "main:\n{\n\tadd.i32 %S1, %S1, %S2\n", "2:1", ["'{' without '}'"])


@test
def error_five_in_a_group():
    one_error("five", "{\n\tadd.i32 %S1, %S1, %S2\n" + "\tnop\n" * 4 + "}\n", "6:2",
              ["more than four instructions in a bundle"])


@test
def error_percent_not_register():
    one_error("pct", "\tadd.i32 %S1, %S1, %Q7\n", "1:20", ["'%' must be followed by a register"])


T.main()
