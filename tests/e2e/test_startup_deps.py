#!/usr/bin/env python3
"""Start-up: the shared libraries the emulator binaries load.  nxemu,
nxemu-tpc-run, nxemu-as and nxemu-objdump link no GIO/GObject (the gdb stub
uses POSIX sockets); with static_deps (STATIC=1) no GLib, libfdt or zlib
either, only the C library (bench/startup.sh).  TAP output.

usage: test_startup_deps.py STATIC BINARY...
"""
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tapkit import Tap  # noqa: E402

STATIC = sys.argv[1] == "1"
T = Tap("startup-deps-")
test = T.test


def needed(path):
    """DT_NEEDED entries of a little-endian ELF64 file."""
    with open(path, "rb") as f:
        data = f.read()
    assert data[:4] == b"\x7fELF" and data[4] == 2 and data[5] == 1, "not an ELF64 LE file"
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
    secs = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    out = []
    for s in secs:
        if s[1] != 6:  # SHT_DYNAMIC
            continue
        strtab = secs[s[6]]  # sh_link
        for off in range(s[4], s[4] + s[5], 16):
            tag, val = struct.unpack_from("<qQ", data, off)
            if tag == 0:
                break
            if tag == 1:  # DT_NEEDED
                start = strtab[4] + val
                out.append(data[start:data.index(b"\0", start)].decode())
    return out


for binary in sys.argv[2:]:
    name = os.path.basename(binary)

    def no_gio(binary=binary):
        bad = [lib for lib in needed(binary) if lib.startswith(("libgio-", "libgobject-"))]
        assert not bad, f"{binary} loads {bad}"
    no_gio.__name__ = f"{name}-no-gio"
    test(no_gio)

    if STATIC:
        def static_deps(binary=binary):
            bad = [lib for lib in needed(binary)
                   if lib.startswith(("libglib-", "libgmodule-", "libfdt", "libz.", "libpcre2"))]
            assert not bad, f"{binary} loads {bad} (built with static_deps)"
        static_deps.__name__ = f"{name}-static-deps"
        test(static_deps)

T.main()
