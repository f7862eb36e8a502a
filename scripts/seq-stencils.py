#!/usr/bin/env python3
"""Turn the sequencer's stencil object (target/seq/jit-stencils.c compiled
for x86-64 without PIC) into target/seq/seq-stencils.h for jit.c.

For each function seq_st_NAME (its own section, -ffunction-sections) the
header gets its machine code and the places jit.c patches: relocations
against the holes (seq_hole_*).  A stencil is kept only if every relocation
is against a hole, of a type jit.c patches, and the continuations
(seq_hole_next, seq_hole_taken) are jumps, never calls: then the copied code
runs on its own.  Others are left out with a warning, and jit.c ends a block
before any record whose stencil is missing.

usage: seq-stencils.py [--prefix P] OBJECT OUTPUT.h
       seq-stencils.py [--prefix P] --none OUTPUT.h   (a host without stencils)

--prefix tpc makes the TPC's header (target/tpc/jit-stencils.c: tpc_st_*,
tpc_hole_*, TpcStencil, TPC_HOLE_*) from the same rules, and allows one
more kind of relocation there: a PC-relative one against constants in
.rodata (vector constants of the lane loops).  The constants are copied
after the stencil's code at a multiple of 32 bytes (the field patched
here: code and data move together), its trailing jump is then kept, and
the stencil's align field asks jit.c to place it at a multiple of 32.
"""
import struct
import sys

R_X86_64_PC32, R_X86_64_PLT32, R_X86_64_32, R_X86_64_32S = 2, 4, 10, 11
LINKS = ("next", "taken")
# the names' prefix: seq (seq_st_, SeqStencil, SEQ_HOLE_) or tpc
P = "seq"


def up():
    return P.upper()


def rtypes():
    return {R_X86_64_PC32: "NX_RT_PC32", R_X86_64_PLT32: "NX_RT_PC32",
            R_X86_64_32: "NX_RT_32", R_X86_64_32S: "NX_RT_32S"}


def sections(data):
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        sys.exit("seq-stencils: not a little-endian ELF64 object")
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    secs = []
    for i in range(shnum):
        name, typ, _flags, _addr, off, size, link, info, _al, entsize = struct.unpack_from(
            "<IIQQQQIIQQ", data, shoff + i * shentsize)
        secs.append(dict(name=name, type=typ, off=off, size=size, link=link, info=info,
                         entsize=entsize))
    strs = secs[shstrndx]
    for s in secs:
        s["name"] = cstr(data, strs["off"] + s["name"])
    return secs


def cstr(data, off):
    return data[off:data.index(b"\0", off)].decode()


def symbols(data, secs):
    st = next(s for s in secs if s["type"] == 2)  # SHT_SYMTAB
    strtab = secs[st["link"]]
    out = []
    for i in range(st["size"] // 24):
        name, _info, _other, shndx, value, _size = struct.unpack_from(
            "<IBBHQQ", data, st["off"] + i * 24)
        out.append((cstr(data, strtab["off"] + name), shndx, value))
    return out


def stencil(data, secs, sec, rela, syms):
    """(code, relocations, strip, align) or a reason to leave it out."""
    code = bytearray(data[sec["off"]:sec["off"] + sec["size"]])
    size = len(code)
    rels = []
    consts = {}  # .rodata section index -> its offset in the stencil
    for i in range(rela["size"] // 24 if rela else 0):
        off, info, addend = struct.unpack_from("<QQq", data, rela["off"] + i * 24)
        sym, typ = info >> 32, info & 0xFFFFFFFF
        name, shndx, value = syms[sym]
        if (P == "tpc" and 0 < shndx < len(secs) and secs[shndx]["name"].startswith(".rodata")
                and typ == R_X86_64_PC32):
            if shndx not in consts:
                code += b"\xcc" * (-len(code) % 32)
                consts[shndx] = len(code)
                cs = secs[shndx]
                code += data[cs["off"]:cs["off"] + cs["size"]]
            rel = consts[shndx] + value + addend - off
            struct.pack_into("<i", code, off, rel)
            continue
        if not name.startswith(f"{P}_hole_") or shndx != 0:
            return f"relocation against {name or 'a section'}"
        if typ not in rtypes():
            return f"relocation type {typ}"
        hole = name[len(f"{P}_hole_"):]
        if hole in LINKS:
            jmp = off >= 1 and code[off - 1] == 0xE9
            jcc = off >= 2 and code[off - 2] == 0x0F and 0x80 <= code[off - 1] <= 0x8F
            if typ not in (R_X86_64_PC32, R_X86_64_PLT32) or addend != -4 or not (jmp or jcc):
                return f"{P}_hole_{hole} is not a jump"
        rels.append((off, rtypes()[typ], hole.upper(), addend))
    # A trailing "jmp next" is dropped when the next stencil follows.
    strip = 5 if not consts and any(o == size - 4 and h == "NEXT" and code[o - 1] == 0xE9
                                    for o, _t, h, _a in rels) else 0
    return bytes(code), rels, strip, 32 if consts else 0


def main():
    global P
    args = sys.argv[1:]
    if len(args) >= 2 and args[0] == "--prefix":
        P = args[1]
        args = args[2:]
    typ = P.capitalize()
    if len(args) == 2 and args[0] == "--none":
        with open(args[1], "w") as f:
            f.write("/* Generated by scripts/seq-stencils.py: this host has no stencils. */\n"
                    f"#define {up()}_JIT_HAVE_STENCILS 0\n")
        return
    if len(args) != 2:
        sys.exit(__doc__)
    data = open(args[0], "rb").read()
    secs = sections(data)
    syms = symbols(data, secs)
    out = [f"/* Generated by scripts/seq-stencils.py from target/{P}/jit-stencils.c. */",
           f"#define {up()}_JIT_HAVE_STENCILS 1"]
    table = []
    for idx, sec in enumerate(secs):
        if not sec["name"].startswith(f".text.{P}_st_"):
            continue
        name = sec["name"][len(f".text.{P}_st_"):]
        rela = next((s for s in secs if s["type"] == 4 and s["info"] == idx), None)
        got = stencil(data, secs, sec, rela, syms)
        if isinstance(got, str):
            print(f"seq-stencils: warning: stencil {name} left out: {got}", file=sys.stderr)
            out.append(f"/* {name}: left out, {got} */")
            continue
        code, rels, strip, align = got
        out.append(f"static const uint8_t {P}_st_code_{name}[] = {{" +
                   ", ".join(f"0x{b:02x}" for b in code) + "};")
        out.append(f"static const NxStReloc {P}_st_rel_{name}[] = {{" +
                   ", ".join(f"{{{o}, {t}, {up()}_HOLE_{h}, {a}}}" for o, t, h, a in rels) +
                   ("" if rels else "{0, 0, 0, 0}") + "};")
        table.append(f"    [{up()}_ST_{name}] = {{{P}_st_code_{name}, {len(code)}, "
                     f"{P}_st_rel_{name}, {len(rels)}, {strip}" +
                     (f", {align}" if P == "tpc" else "") + "},")
    out.append(f"static const {typ}Stencil {P}_stencils[{up()}_ST_COUNT] = {{")
    out += table
    out.append("};")
    with open(args[1], "w") as f:
        f.write("\n".join(out) + "\n")


main()
