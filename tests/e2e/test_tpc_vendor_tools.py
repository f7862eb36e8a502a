#!/usr/bin/env python3
"""nxemu's TPC encodings against the vendor's own Gaudi tools (TAP).

usage: test_tpc_vendor_tools.py NXEMU_AS NXEMU_OBJDUMP SRCDIR

The vendor's assembler, disassembler and compiler (Habana's tpc_llvm, built
for Gaudi) are run at test time from ../shared/vendor/tpc-llvm beside the
source tree; without them every test is skipped, saying so.  Nothing they
print is kept in the repository.

Samples come from the instruction description itself: the rows of
target/tpc/insn-{ld,spu,vpu,st}.def (every opcode of every slot), each with
random field values.  nxemu's disassembler prints what it decodes; that text
is then assembled by nxemu and by the vendor's `llvm-mc -mcpu=gaudi`:

  - every line the vendor accepts must give nxemu's bytes, byte for byte;
  - every row must have such lines (a row the vendor has but nxemu prints in
    a spelling the vendor refuses would show up as a row with none);
  - the vendor's `llvm-objdump` of nxemu's object must print the same
    instruction: the same text once spacing, `%` and the vendor's `//`
    comments are set aside, or a text that nxemu assembles to the same bytes.

The figures (rows, lines, bytes equal, lines the vendor refuses, by row) are
printed as TAP comments.
"""
import os
import random
import re
import struct
import subprocess
import sys
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tapkit import Tap, set_bits  # noqa: E402

AS, OBJDUMP, SRC = sys.argv[1], sys.argv[2], sys.argv[3]
VENDOR = os.path.join(os.path.dirname(os.path.abspath(SRC)), "shared", "vendor", "tpc-llvm")
if not os.path.isfile(os.path.join(VENDOR, "unpack.sh")):
    print(f"1..0 # SKIP the vendor's tools are not at {VENDOR}")
    sys.exit(0)
TOOLS = subprocess.run(["sh", os.path.join(VENDOR, "unpack.sh")], capture_output=True, text=True,
                       check=True).stdout.strip()
MC = [os.path.join(TOOLS, "llvm-mc"), "-triple", "tpc", "-mcpu=gaudi"]
VOBJDUMP = [os.path.join(TOOLS, "llvm-objdump"), "--triple", "tpc", "--mcpu=gaudi", "-d",
            "--no-show-raw-insn"]

T = Tap("nxemu-tpc-vendor-tools-")
test, path = T.test, T.path

# Field positions of each slot (tpc.md-independent: the bundle layout of the
# vendor's TPCInstrLayout for Gaudi): opcode (lo, width), then the operand,
# type, switch and predicate fields.
SLOTS = [
    ("ld", (119, 5), [(103, 8), (111, 8), (73, 9), (183, 4), (145, 6)]),
    ("spu", (0, 6), [(6, 7), (13, 7), (20, 7), (27, 4), (36, 7), (31, 5)]),
    ("vpu", (43, 6), [(49, 8), (57, 8), (65, 8), (73, 9), (82, 8), (93, 4), (90, 3), (97, 6)]),
    ("st", (140, 5), [(124, 8), (132, 8), (65, 8), (187, 4), (145, 6)]),
]
NOP = bytes.fromhex("3f00000000f8010000000000000080" "0f00f00100") + bytes(12)
V8 = [0, 1, 2, 4, 5, 6, 39, 40, 44, 64, 69, 70, 99, 104, 127, 128, 131, 132, 135, 160, 163, 224,
      230, 240, 245,
      0x21, 0x41, 0x7F]
V7 = [0, 2, 3, 4, 35, 40, 41, 48, 55, 64, 80, 96, 100, 127]
IMMS = [0, 1, 2, 5, 0x10, 0x11A, 0x8C, 64, 0x3F800000, 0xFFFFFFFF]
PER_ROW = 300


def rows():
    out = []
    for slot, (name, _, _) in enumerate(SLOTS):
        with open(os.path.join(SRC, "target", "tpc", f"insn-{name}.def")) as f:
            text = f.read()
        for m in re.finditer(r"^TPC_[A-Z]+(?:_[NU])?\((0x[0-9a-f]+),\s*(\w+),", text, re.M):
            out.append((slot, int(m.group(1), 16), m.group(2)))
    return out



def elf_text(path_):
    d = open(path_, "rb").read()
    shoff, = struct.unpack_from("<I", d, 32)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", d, 46)
    secs = [struct.unpack_from("<10I", d, shoff + i * shentsize) for i in range(shnum)]
    stro = secs[shstrndx][4]
    for s in secs:
        if d[stro + s[0]:d.index(b"\0", stro + s[0])] == b".text":
            return d[s[4]:s[4] + s[5]]
    raise AssertionError(f"{path_}: no .text")


def norm(s):
    s = s.split("//")[0].replace("\t", " ").replace("%", "")
    s = re.sub(r"\s+", " ", s)
    s = re.sub(r" ?; ?", "; ", s)
    return s.replace(" ,", ",").strip()


def vendor_omits(text):
    """nxemu's text as the vendor's printer shortens it (and as it prints an
    unnamed get_lut function id: the field's bits in place)."""
    text = re.sub(r"\bmov\.[a-z0-9]+ (V\w+, (V\w+|LFSR\w*))", r"mov \1", text)
    text = re.sub(r"funcid=(\d+)", lambda m: f"funcid={int(m.group(1)) << 13:#x}", text)
    return text.replace(" b00000 ", " ")


def nx_as(lines, name):
    src = T.write(name + ".s", "\n".join(lines) + "\n")
    r = T.run(AS, "-t", "tpc", "--raw", "-o", path(name + ".bin"), src)
    return r, (open(path(name + ".bin"), "rb").read() if r.returncode == 0 else None)


SAMPLES = {}


def random_bundles(rnd, row_list, count):
    """count random bundles of each row (that slot alone, the others NOP)
    and nxemu's text of those it prints: [(row, text)]."""
    raw, meta = bytearray(), []
    for slot, opc, name in row_list:
        _, (olo, ow), fields = SLOTS[slot]
        for _ in range(count):
            b = bytearray(NOP)
            set_bits(b, olo, ow, opc)
            for lo, w in fields:
                if lo in (31, 97, 145):  # predicates: mostly none
                    v = rnd.randrange(1 << w) if rnd.random() < 0.3 else 0
                elif w <= 4 or rnd.randrange(4) == 0:
                    v = 0 if rnd.random() < 0.5 else rnd.randrange(1 << min(w, 4))
                else:
                    v = rnd.choice(V7 if w == 7 else V8)
                if w == 4 and lo in (27, 93):  # OPERANDS_TYPE 0..8
                    v = rnd.randrange(9)
                set_bits(b, lo, w, v)
            if rnd.random() < 0.3:
                set_bits(b, 151, 32, rnd.choice(IMMS))
            raw += b
            meta.append((SLOTS[slot][0], name))
    with open(path("r.bin"), "wb") as f:
        f.write(raw)
    r = T.run(OBJDUMP, "-d", "-b", "binary", "-m", "nxtpc", path("r.bin"))
    assert r.returncode == 0, r.stderr
    out = []
    for line in r.stdout.split("\n"):
        m = re.match(r"\s*([0-9a-f]+): (.*)", line)
        if m and not m.group(2).startswith(("//", ".long")):
            out.append((meta[int(m.group(1), 16) // 32], m.group(2)))
    return out


def samples():
    """(row, nxemu's text, nxemu's bytes) for every printable random bundle."""
    if SAMPLES:
        return SAMPLES["s"]
    rnd = random.Random(2026)
    # the whole-bundle LOOP has its own test below
    all_rows = [r for r in rows() if not (r[0] == 1 and r[2] == "loop")]
    printed = random_bundles(rnd, all_rows, PER_ROW)
    # rows whose fields rarely decode get more draws
    seen = Counter(row for row, _ in printed)
    few = [r for r in all_rows if seen[(SLOTS[r[0]][0], r[2])] < 5]
    if few:
        printed += random_bundles(rnd, few, 20 * PER_ROW)
    # nxemu must assemble all it prints (one bundle may be refused: two
    # slots whose shared field disagree, which one line cannot show)
    r, _ = nx_as([t for _, t in printed], "n")
    refused = {int(m.group(1)) for m in re.finditer(r"n\.s:(\d+):\d+: error", r.stderr)}
    bad = [printed[int(n) - 1][1] + " -- " + e for n, e in
           re.findall(r"n\.s:(\d+):\d+: error: (.*)", r.stderr) if "share bits" not in e]
    assert not bad, "nxemu refuses its own text:\n" + "\n".join(bad[:20])
    printed = [p for n, p in enumerate(printed, 1) if n not in refused]
    r, nb = nx_as([t for _, t in printed], "n")
    assert r.returncode == 0, r.stderr
    SAMPLES["s"] = [(row, t, nb[k * 32:k * 32 + 32]) for k, (row, t) in enumerate(printed)]
    return SAMPLES["s"]


VENDOR_OK = {}


def vendor_assemble():
    """The samples the vendor's assembler accepts, with its bytes; the
    vendor's refusals by row."""
    if VENDOR_OK:
        return VENDOR_OK["ok"], VENDOR_OK["refused"]
    # a jump to a number: the vendor's assembler takes only labels (the
    # jumps are in the LOOP test below, with labels)
    s = [x for x in samples() if not re.search(r"\bjmp[ra] -?\d", x[1])]
    src = T.write("v.s", "\n".join(t for _, t, _ in s) + "\n")
    r = T.run(*MC, "-show-encoding", src)
    err = {}
    for m in re.finditer(r"v\.s:(\d+):\d+: error: (.*)", r.stderr):
        err.setdefault(int(m.group(1)), m.group(2))
    ok = [x for n, x in enumerate(s, 1) if n not in err]
    src = T.write("va.s", "\n".join(t for _, t, _ in ok) + "\n")
    r = T.run(*MC, "-filetype=obj", src, "-o", path("va.o"))
    assert r.returncode == 0, r.stderr[:2000]
    vt = elf_text(path("va.o"))
    assert len(vt) == 32 * len(ok), (len(vt), len(ok))
    VENDOR_OK["ok"] = [(row, t, nb, vt[k * 32:k * 32 + 32]) for k, (row, t, nb) in enumerate(ok)]
    refused = Counter()
    for n, e in err.items():
        refused[(s[n - 1][0], e)] += 1
    VENDOR_OK["refused"] = (refused, {n: (s[n - 1][1], e) for n, e in err.items()})
    return VENDOR_OK["ok"], VENDOR_OK["refused"]


@test
def vendor_assembler_gives_nxemu_bytes():
    """Every line the vendor assembles has nxemu's bytes."""
    ok, (refused, _) = vendor_assemble()
    diff = [f"{t}\n   vendor {vb.hex()}\n   nxemu  {nb.hex()}" for _, t, nb, vb in ok if nb != vb]
    rows_seen = {row for row, _, _, _ in ok}
    print(f"# {len(samples())} lines from {len({r for r, _, _ in samples()})} rows printed by "
          f"nxemu; the vendor assembles {len(ok)} ({len(rows_seen)} rows): "
          f"{len(ok) - len(diff)} byte-exact")
    assert not diff, f"{len(diff)} differ:\n" + "\n".join(diff[:15])


@test
def every_row_reaches_the_vendor():
    """Each row has lines the vendor assembles (its spelling is the vendor's)."""
    ok, (refused, texts) = vendor_assemble()
    have = {row for row, _, _, _ in ok}
    printed = {row for row, _, _ in samples()}
    missing = sorted(printed - have)
    for (row, e), n in sorted(refused.items(), key=lambda x: -x[1])[:40]:
        print(f"# vendor refuses {n:4d} x {row[0]} {row[1]}: {e}")
    # rows the vendor's Gaudi assembler does not have at all ("missing
    # feature": later generations); nxemu decodes them as no-ops (docs/tpc-isa.rst)
    not_in_vendor = {("ld", "ld_event"), ("st", "event")}
    assert set(missing) <= not_in_vendor, f"rows the vendor never accepts: {missing}"
    every = {(SLOTS[s][0], n) for s, _, n in rows()} - {("spu", "loop")}
    assert printed == every, f"rows nxemu never printed: {sorted(every - printed)}"


@test
def vendor_disassembler_prints_the_same_instruction():
    """llvm-objdump of nxemu's bytes prints nxemu's text (or text nxemu
    assembles to the same bytes)."""
    ok, _ = vendor_assemble()
    src = T.write("o.s", "\n".join(t for _, t, _, _ in ok) + "\n")
    r = T.run(AS, "-t", "tpc", "-o", path("o.o"), src)
    assert r.returncode == 0, r.stderr
    r = T.run(*VOBJDUMP, path("o.o"))
    assert r.returncode == 0, r.stderr
    vlines = [l for l in r.stdout.split("\n") if re.match(r"\s+[0-9a-f]+:", l)]
    assert len(vlines) == len(ok), (len(vlines), len(ok))
    vtext = [norm(re.sub(r"^\s*[0-9a-f]+:\s*", "", l)) for l in vlines]
    differ = [(k, vtext[k]) for k in range(len(ok)) if vtext[k] != norm(ok[k][1])]
    same_text = len(ok) - len(differ)
    # where the vendor's printer leaves out what its own assembler would then
    # not restore (a VPU `mov`'s type, an int5 op's empty dim mask), nxemu
    # prints it: the same text with those left out counts as the same
    lossy = [(k, v) for k, v in differ if v == vendor_omits(norm(ok[k][1]))]
    # bytes the vendor's own assembler wrote (test 1) that its disassembler
    # cannot print
    unknown = [(k, v) for k, v in differ if "<unknown>" in v]
    differ = [x for x in differ if x not in lossy and x not in unknown]
    print(f"# vendor disassembly: {len(unknown)} lines of its own assembler's bytes it "
          "prints as <unknown>")
    print(f"# vendor disassembly: {len(lossy)} lines print without a field nxemu shows "
          "(mov's type, an empty dim mask)")
    # the vendor's spelling, assembled by nxemu
    same = 0
    if differ:
        r, nb = nx_as([v if "<unknown>" not in v else "nop" for _, v in differ], "vt")
        refused = {int(m.group(1)) for m in re.finditer(r"vt\.s:(\d+):\d+: error", r.stderr)}
        if nb is None:  # one refused line: one at a time for the rest
            nb = bytearray()
            for n, (_, v) in enumerate(differ, 1):
                rr, b1 = nx_as([v], "vt1")
                nb += b1 if b1 else bytes(32)
        bad = []
        for n, (k, v) in enumerate(differ):
            if nb[n * 32:n * 32 + 32] == ok[k][2] and n + 1 not in refused:
                same += 1
            else:
                bad.append(f"nxemu {ok[k][1]!r}\n   vendor {v!r}")
        print(f"# vendor disassembly: {same_text} of {len(ok)} the same text, "
              f"{same} more in a spelling nxemu reads as the same bytes")
        assert not bad, f"{len(bad)} differ:\n" + "\n".join(bad[:25])


@test
def loop_and_jump_bundles_match_the_vendor():
    """LOOP (the whole bundle) in its register and immediate forms, and the
    jumps, to labels."""
    lines = ["L0:", "loop 0x0, 0x10, 0x1, <, L1", "nop", "L1:", "loop S1, S2, S3, !=, L2, SP2",
             "nop", "L2:", "loop 0x2, S4, 0x3, >=, L3, !SP1", "nop", "L3:",
             # (`jmpa LABEL` is left out: the vendor's assembler writes the
             # label's PC-relative offset there, docs/tpc-isa.rst)
             "nop; jmpr L0; nop; nop", "nop; jmpr L3, !SP3; nop; nop",
             "nop; jmpr S7; nop; nop", "halt"]
    T.write("l.s", "\n".join(lines) + "\n")
    r = T.run(AS, "-t", "tpc", "--raw", "-o", path("l.bin"), path("l.s"))
    assert r.returncode == 0, r.stderr
    r = T.run(*MC, "-filetype=obj", path("l.s"), "-o", path("l.o"))
    assert r.returncode == 0, r.stderr
    assert elf_text(path("l.o")) == open(path("l.bin"), "rb").read()


T.main()
