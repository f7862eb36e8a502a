#!/usr/bin/env python3
"""End-to-end tests of nxemu-as / nxemu-objdump for the sequencer
(sequencer.md §11, §12; machine.md §11.2).  TAP output.

usage: test_seq_asm.py NXEMU_AS NXEMU_OBJDUMP
"""
import os
import random
import re
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tapkit import Tap  # noqa: E402

AS, OBJDUMP = sys.argv[1], sys.argv[2]
T = Tap("nxemu-seq-asm-")
test, path, write, run = T.test, T.path, T.write, T.run
TMP = T.tmp


def assemble(source, out, *extra):
    return T.assemble([AS], source, out, *extra)[0]


def objdump(*args):
    r = run(OBJDUMP, *args)
    assert r.returncode == 0, f"nxemu-objdump failed: {r.stderr}"
    return r.stdout


SUM = """\
        .org 0x01000000
start:  mov.u32 {r1, r2, r3, r4}, {0, 0x02000000, 0, 4}  ; sum, ptr lo, ptr hi, count
loop:   tld.u32 {r8, r9, r10, r11}, [r3:r2], shape=(4,1), step=(1,0)
        add.u32 r1, r1, r8
        add.u32 r1, r1, r9
        add.u32 r1, r1, r10
        add.u32 r1, r1, r11
        add.u32 r2, r2, 16                               ; advance 4 words
        sub.u32 r4, r4, 1
        bne.u32 r4, 0, loop                              ; at 0x01000200
        tst.u32 [0x02001000], {r1}, shape=(1,1), step=(0,0)
        beq.u32 r1, 136, pass
        write.u32 [0x2805000000], 0x00013333             ; FAIL, exit status 1
        halt
pass:   write.u32 [0x2805000000], 0x5555                 ; PASS, exit status 0
        halt
"""


def parse_elf(data):
    """Minimal ELF64 reader: header, program headers, symbols by name."""
    assert data[:4] == b"\x7fELF"
    (e_type, e_machine, e_version, e_entry, e_phoff, e_shoff, e_flags, _ehsize,
     phentsize, phnum, shentsize, shnum, shstrndx) = struct.unpack_from(
        "<HHIQQQIHHHHHH", data, 16)
    phs = []
    for i in range(phnum):
        p_type, p_flags, p_off, p_vaddr, p_paddr, p_filesz, p_memsz, p_align = \
            struct.unpack_from("<IIQQQQQQ", data, e_phoff + i * phentsize)
        phs.append(dict(type=p_type, flags=p_flags, off=p_off, vaddr=p_vaddr, paddr=p_paddr,
                        filesz=p_filesz, memsz=p_memsz))
    shs = []
    for i in range(shnum):
        shs.append(struct.unpack_from("<IIQQQQIIQQ", data, e_shoff + i * shentsize))
    syms = {}
    for sh in shs:
        if sh[1] == 2:  # SHT_SYMTAB
            strtab = shs[sh[6]]
            for k in range(1, sh[5] // 24):
                st_name, st_info, _o, st_shndx, st_value, st_size = struct.unpack_from(
                    "<IBBHQQ", data, sh[4] + 24 * k)
                name = data[strtab[4] + st_name:].split(b"\0", 1)[0].decode()
                syms[name] = (st_value, st_info & 0xF, st_shndx, st_size)
    return dict(cls=data[4], type=e_type, machine=e_machine, entry=e_entry, flags=e_flags,
                phs=phs, syms=syms)


@test
def elf_layout():
    """ELF64 per machine.md §11.2: ET_EXEC, e_machine 0x4E58, e_flags 2, PT_LOADs."""
    src = write("sum.s", SUM + "        .data\n        .org 0x02000000\nwords: .word 1, 2, 3\n")
    e = parse_elf(assemble(src, path("sum.elf")))
    assert e["cls"] == 2 and e["type"] == 2 and e["machine"] == 0x4E58 and e["flags"] == 2
    assert e["entry"] == 0x01000000
    text = [p for p in e["phs"] if p["type"] == 1 and p["flags"] & 1]
    data = [p for p in e["phs"] if p["type"] == 1 and not p["flags"] & 1]
    assert len(text) == 1 and text[0]["flags"] == 5, text            # PF_R|PF_X
    assert text[0]["paddr"] == 0x01000000 and text[0]["filesz"] == 15 * 64
    assert len(data) == 1 and data[0]["flags"] == 6 and data[0]["paddr"] == 0x02000000
    assert data[0]["filesz"] == 12
    # Labels in .text are STT_NOTYPE (0), in .data STT_OBJECT (1), size 0:
    # nothing told the assembler they are functions.
    assert e["syms"]["start"] == (0x01000000, 0, 1, 0)
    assert e["syms"]["loop"] == (0x01000040, 0, 1, 0)
    assert e["syms"]["pass"] == (0x01000340, 0, 1, 0)
    assert e["syms"]["words"] == (0x02000000, 1, 2, 0)


@test
def type_directive_makes_sized_functions():
    """`.type NAME, @function`: STT_FUNC (2) up to the next function of its
    segment or the segment's end; labels inside stay STT_NOTYPE, size 0."""
    src = write("funcs.s", """\
        .org 0x01000000
        .type main, @function
main:   nop                         ; 0x1000000
inner:  call helper                 ; 0x1000040
        halt                        ; 0x1000080
        .type helper, @function
helper: nop                         ; 0x10000c0
        b r63:r62                   ; 0x1000100
        .org 0x01100000
        .type far, %function
far:    nop                         ; 0x1100000, alone in its segment
        .type far, @function        ; the same type again is fine
        .data
        .org 0x02000000
        .type tab, @notype
tab:    .word 1
""")
    e = parse_elf(assemble(src, path("funcs.elf")))
    s = e["syms"]
    assert s["main"] == (0x01000000, 2, 1, 0xc0), s["main"]        # up to helper
    assert s["inner"] == (0x01000040, 0, 1, 0)
    assert s["helper"] == (0x010000c0, 2, 1, 0x80), s["helper"]    # to the segment end
    assert s["far"] == (0x01100000, 2, 2, 0x40), s["far"]
    assert s["tab"] == (0x02000000, 0, 3, 0), s["tab"]
    # objdump prints the .type lines back: the same file again
    dis = objdump("-d", path("funcs.elf"))
    assert re.search(r"^ +\.type main, @function\nmain:$", dis, re.M), dis
    assert re.search(r"^ +\.type tab, @notype\ntab:$", dis, re.M), dis
    assert ".type inner" not in dis, dis
    with open(path("funcs.elf"), "rb") as f:
        assert assemble(write("funcs.dis.s", dis), path("funcs2.elf")) == f.read()


@test
def worked_encoding_in_file():
    """§12.4: the bne at 0x01000200 with loop = 0x01000040 (label resolved in file)."""
    raw = assemble(write("sum-text.s", SUM), path("sum-text.elf"))
    e = parse_elf(raw)
    t = [p for p in e["phs"] if p["flags"] & 1][0]
    rec = raw[t["off"] + 0x200:t["off"] + 0x240]
    want = bytes.fromhex("a9100000000000000000000004090300" + "00" * 16 +
                         "04000000000000000000000000000000" +
                         "40feffff000000000000000000000000")
    assert rec == want, rec.hex()


@test
def raw_output():
    """--raw writes .text bytes only; equals the ELF's text segment."""
    src = write("sum-only.s", SUM)
    raw = assemble(src, path("sum.bin"), "--raw")
    elf = assemble(src, path("sum-only.elf"))
    e = parse_elf(elf)
    t = e["phs"][0]
    assert raw == elf[t["off"]:t["off"] + t["filesz"]]
    assert len(raw) == 15 * 64


@test
def entry_rules():
    """e_entry: _start label, else start, else the first .text statement."""
    e = parse_elf(assemble(write("e1.s", ".org 0x1000000\nnop\n_start: halt\n"),
                           path("e1.elf")))
    assert e["entry"] == 0x01000040
    e = parse_elf(assemble(write("e2.s", ".org 0x2000000\nnop\nnop\n"), path("e2.elf")))
    assert e["entry"] == 0x02000000


@test
def text_padding():
    """.text is padded with zero records to a multiple of 64 (.byte in .text)."""
    e_bytes = assemble(write("pad.s", "nop\n.byte 1, 2, 3\n"), path("pad.elf"))
    e = parse_elf(e_bytes)
    t = e["phs"][0]
    assert t["filesz"] == 128
    seg = e_bytes[t["off"]:t["off"] + 128]
    assert seg[64:67] == b"\x01\x02\x03" and seg[67:] == bytes(61)


@test
def objdump_elf_round_trip():
    """objdump -d output reassembles to the identical ELF (§11.4)."""
    dis = objdump("-d", path("sum.elf"))
    assert "bne.u32 r4, 0x0, .-0x1c0" in dis, dis
    assert "mov.u32 {r1, r2, r3, r4}, {0x0, 0x2000000, 0x0, 0x4}" in dis
    assert re.search(r"^loop:$", dis, re.M)
    again = assemble(write("sum.dis.s", dis), path("sum2.elf"))
    with open(path("sum.elf"), "rb") as f:
        assert f.read() == again


@test
def objdump_symbols_round_trip():
    """Labels at segment ends, shared addresses, several .org chunks: identical ELF."""
    src = write("labels.s", """\
        .org 0x01000000
a1:
a2:     nop wait(evt3 set) post.r(sem1 += 0x10) dbg(1, 2)
        call b_far
end_text:
        .org 0x01100000
b_far:  pret
        .data
        .org 0x02000003
d0:     .byte 1, 2, 3, 4, 5
d1:     .quad 0x1122334455667788, a1
d_end:
""")
    first = assemble(src, path("labels.elf"))
    dis = objdump("-d", path("labels.elf"))
    for name in ("a1:", "a2:", "end_text:", "b_far:", "d0:", "d1:", "d_end:"):
        assert re.search("^" + name + "$", dis, re.M), (name, dis)
    again = assemble(write("labels.dis.s", dis), path("labels2.elf"))
    assert first == again


@test
def objdump_raw_round_trip():
    """-b binary -m nxseq --adjust-vma: raw records at their address."""
    dis = objdump("-b", "binary", "-m", "nxseq", "--adjust-vma=0x01000000", "-d",
                  path("sum.bin"))
    assert ".org 0x1000000" in dis
    assert "; 01000200" in dis
    again = assemble(write("sumraw.dis.s", dis), path("sum2.bin"), "--raw")
    with open(path("sum.bin"), "rb") as f:
        assert f.read() == again


@test
def rec_round_trip_fuzz():
    """Random and mutated records: disassembly always reassembles byte-exact."""
    rng = random.Random(1234)
    with open(path("sum.bin"), "rb") as f:
        base = f.read()
    recs = bytearray()
    for _ in range(300):
        r = bytearray(base[64 * rng.randrange(15):][:64])
        for _ in range(rng.randrange(1, 3)):
            r[rng.randrange(64)] = rng.randrange(256)
        recs += r
    for _ in range(50):
        recs += bytes(rng.randrange(256) for _ in range(64))
    recs += bytes(64)
    with open(path("fuzz.bin"), "wb") as f:
        f.write(recs)
    dis = objdump("-b", "binary", "-m", "nxseq", "--adjust-vma=0x01000000", "-d",
                  path("fuzz.bin"))
    assert ".rec" in dis
    again = assemble(write("fuzz.s", dis), path("fuzz2.bin"), "--raw")
    assert again == bytes(recs)


@test
def pcall_symbols():
    """pcall names resolve through .symtab STT_FUNC labels: a `.type` makes one."""
    src = write("call.s", ".org 0x01000000\n_start: pcall \"func\"\n pexit\n"
                ".type func, @function\nfunc: pret\n")
    raw = assemble(src, path("call.elf"))
    e = parse_elf(raw)
    assert e["syms"]["func"][:2] == (0x01000080, 2)
    t = e["phs"][0]
    assert raw[t["off"]] == 0xD3 and raw[t["off"] + 12:t["off"] + 17] == b"func\0"


@test
def data_section():
    """.data with its own .org, .quad of a label, label values."""
    src = write("data.s", ".data\n.org 0x02000000\ntab: .quad tgt, 5\n.word 0x11223344\n"
                          ".text\ntgt: halt\n")
    raw = assemble(src, path("data.elf"))
    e = parse_elf(raw)
    d = [p for p in e["phs"] if not p["flags"] & 1][0]
    assert raw[d["off"]:d["off"] + 20] == struct.pack("<QQI", 0x01000000, 5, 0x11223344)


ERRORS = [
    ("nop\nhalt\n        frob r1\n", "3:9: error: unknown instruction 'frob'"),
    ("a: nop\na: nop\n", "2:1: error: label 'a' already defined on line 1"),
    ("nop\n  b nowhere\n", "2:5: error: undefined label 'nowhere'"),
    (".data\n.org 0x2000000\nnop\n", "3:1: error: instructions are not allowed in .data"),
    (".data\n.word 1\n", "2:1: error: .data has no address"),
    (".byte 1\nnop\n", "2:1: error: instruction at 0x1000001 is not at a multiple of 64"),
    ("nop\n.org 0x1000000\nhalt\n", "3:1: error: bytes at 0x1000000 overlap"),
    (".rec 00 11\n", "1:11: error: .rec takes exactly 64 bytes, got 2"),
    ("mov.u32 {r1, r1}, {r2, r3}\n",
     "1:1: error: invalid instruction: fails predicate ctrl_mv_unique_dst (37)"),
    ("nop\n\n   write.u32 [0x1000], r64\n", "3:24: error: register 'r64' out of range"),
    (".align 3\n", "1:8: error: .align needs a power of two"),
    ("r5: nop\n", "1:1: error: 'r5' cannot be used as a label"),
    ("nop\n .type nowhere, @function\n", "2:8: error: '.type': no label 'nowhere'"),
    (".data\n.org 0x2000000\nd: .word 1\n.type d, @function\n",
     "4:7: error: 'd' is a .data label: only .text labels can be functions"),
    ("f: nop\n.type f, @func\n", "2:10: error: unknown symbol type 'func'"),
    ("f: nop\n.type f function\n", "2:9: error: expected ',' before 'function'"),
    ("f: nop\n.type f, function\n", "2:10: error: expected @function, @object or @notype"),
    ("f: nop\n.type f, @function\n.type f, @object\n",
     "3:7: error: 'f' already has another .type"),
]


@test
def error_messages():
    """Errors are `file:line:col: error: text` with exit status 1."""
    for i, (text, want) in enumerate(ERRORS):
        src = write(f"err{i}.s", text)
        r = run(AS, "-o", path(f"err{i}.elf"), src)
        assert r.returncode == 1, (text, r.returncode, r.stderr)
        first = r.stderr.splitlines()[0]
        assert first.startswith(src + ":" + want), (first, want)


@test
def raw_rejects_data():
    src = write("rawdata.s", "nop\n.data\n.org 0x2000000\n.word 1\n")
    r = run(AS, "--raw", "-o", path("rawdata.bin"), src)
    assert r.returncode == 1
    assert r.stderr.startswith(src + ":2:1: error: raw output holds only .text"), r.stderr


@test
def usage_errors():
    assert run(AS, path("sum.s")).returncode == 2                      # no -o
    assert run(AS, "-t", "vax", "-o", path("x"), path("sum.s")).returncode == 2
    assert run(OBJDUMP, path("sum.elf")).returncode == 2               # no -d
    assert run(OBJDUMP, "-d", path("sum.s")).returncode == 1           # not ELF
    assert run(OBJDUMP, "-b", "binary", "-d", path("sum.bin")).returncode == 2  # no -m
    assert run(OBJDUMP, "-d", path("missing.elf")).returncode == 1


def as_fail(src):
    """Assemble src expecting failure; return the first stderr line."""
    r = run(AS, "-o", path("inc-fail.elf"), src)
    assert r.returncode == 1, (src, r.returncode, r.stderr)
    return r.stderr.splitlines()[0]


@test
def include_same_bytes():
    # `.include` (nxemu extension): the included text assembles exactly as if
    # pasted in place, labels in one namespace, paths relative to the
    # including file's directory (not the working directory).
    os.makedirs(path("inc/sub"), exist_ok=True)
    write("inc/sub/fails.inc", "f1:     write.u32 [0x2805000000], 0x00013333\n"
          "        halt\n"
          "        .include \"more.inc\"\n")
    write("inc/sub/more.inc", "f2:     write.u32 [0x2805000000], 0x00023333\n"
          "        halt\n")
    body = ("        .org 0x01000000\n"
            "start:  mov.u32 {r1}, {5}\n"
            "        bne.u32 r1, 5, f1\n"
            "        beq.u32 r1, 0, f2\n"
            "        halt\n")
    inl = write("inc/inline.s", body + open(path("inc/sub/fails.inc")).read()
                .replace('        .include "more.inc"\n', "")
                + open(path("inc/sub/more.inc")).read())
    viainc = write("inc/viainc.s", body + '        .include "sub/fails.inc"  ; tail\n')
    a = assemble(inl, path("inc/inline.elf"))
    # relative to the includer, wherever nxemu-as runs from
    r = subprocess.run([os.path.abspath(AS), "-o", path("inc/viainc.elf"), viainc],
                       capture_output=True, text=True, timeout=60, cwd=TMP)
    assert r.returncode == 0, r.stderr
    with open(path("inc/viainc.elf"), "rb") as f:
        b = f.read()
    assert a == b
    d = objdump("-d", path("inc/viainc.elf"))
    assert "f1:" in d and "f2:" in d, d


@test
def include_error_location():
    # An error inside an included file names that file, line and column.
    os.makedirs(path("inc"), exist_ok=True)
    inc = write("inc/bad.inc", "        nop\n\n        frob r1\n")
    src = write("inc/usebad.s", "        nop\n        .include \"bad.inc\"\n")
    first = as_fail(src)
    assert first.startswith(inc + ":3:9: error:"), first
    # A label defined twice across files: reported where the second one is.
    write("inc/lab.inc", "start:  nop\n")
    src = write("inc/duplab.s", "start:  nop\n        .include \"lab.inc\"\n")
    first = as_fail(src)
    assert first.startswith(path("inc/lab.inc") + ":1:1: error: label 'start' already defined"), first


@test
def include_cycle_and_depth():
    os.makedirs(path("inc"), exist_ok=True)
    write("inc/cyc-a.inc", "        nop\n        .include \"cyc-b.inc\"\n")
    b = write("inc/cyc-b.inc", "        .include \"cyc-a.inc\"\n")
    src = write("inc/cyc.s", "        .include \"cyc-a.inc\"\n")
    first = as_fail(src)
    assert first.startswith(b + ":1:19: error: include cycle"), first
    # Including itself is the shortest cycle.
    src = write("inc/self.s", "        nop\n  .include \"self.s\"\n")
    assert as_fail(src).startswith(src + ":2:13: error: include cycle")
    # A chain of 17 distinct files nests deeper than the limit of 16; 16 is fine.
    for i in range(18):
        write(f"inc/deep{i}.inc", f".include \"deep{i + 1}.inc\"\n" if i < 17 else "nop\n")
    ok = write("inc/deep-ok.s", ".include \"deep2.inc\"\n")  # 16 levels
    assemble(ok, path("inc/deep-ok.elf"))
    bad = write("inc/deep-bad.s", ".include \"deep1.inc\"\n")  # 17 levels
    first = as_fail(bad)
    assert first.startswith(path("inc/deep16.inc") + ":1:11: error: includes nested deeper"), first


@test
def include_missing_and_malformed():
    os.makedirs(path("inc"), exist_ok=True)
    src = write("inc/miss.s", "        nop\n        .include \"nothere.inc\"\n")
    first = as_fail(src)
    assert first.startswith(src + ":2:19: error: cannot include '"
                            + path("inc/nothere.inc") + "'"), first
    for text, col in (("        .include nothere.inc\n", 18),
                      ("        .include \"\"\n", 18),
                      ("        .include \"x.inc\" junk\n", 26),
                      ("l:      .include \"x.inc\"\n", 9)):
        src = write("inc/malformed.s", text)
        first = as_fail(src)
        assert first.startswith(f"{src}:1:{col}: error:"), (text, first)


T.main()
