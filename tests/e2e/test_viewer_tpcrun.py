#!/usr/bin/env python3
"""nxemu-tpc-run's viewer picture zooms to the kernel's memory (#41): with
zoom=activity the HBM map fits the launcher, kernel and tensors at
0x0100_0000.. instead of staying at x1 because the launcher read the
in-memory device tree at the top of HBM; the heading is whole.  Decoded-PNG
check; exit 77 without SDL.

usage: test_viewer_tpcrun.py NXEMU-TPC-RUN DOUBLE-F32.o
"""
import os
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_viewer as tv  # noqa: E402  (PNG reader, font, frame layout)


def main(tpcrun, kernel):
    with tempfile.TemporaryDirectory() as tmp:
        inp, out, shot = (os.path.join(tmp, n) for n in ("in.bin", "out.bin", "run.png"))
        with open(inp, "wb") as f:
            f.write(struct.pack("<256f", *range(256)))
        r = subprocess.run([tpcrun, "-k", kernel, "-n", "4", "--index-space", "4",
                            "-i", inp + ":256:f32", "-o", out + ":256:f32",
                            "--display", "sdl,zoom=activity", "--screendump-at-exit", shot],
                           capture_output=True, text=True, timeout=120,
                           env=dict(os.environ, SDL_VIDEODRIVER="offscreen"))
        if r.returncode == 125 and "without SDL" in r.stderr:
            print("1..0 # SKIP " + r.stderr.strip())
            return 77
        tv.check(r.returncode == 0, "tpc-run with the viewer: status 0 (%d, %s)"
                 % (r.returncode, r.stderr.strip()))
        _, _, rows = tv.read_png(shot)
        head = tv.read_text(rows, 480, tv.SBUF_Y - 12, 66)
        tv.check(head.startswith("HBM 0x1000000-") and " x1 " not in head + " "
                 and head.endswith("activity"),
                 "the HBM map fits the launcher, kernel and tensors, heading whole (%r)" % head)
    print("1..%d" % tv.checks)
    return 1 if tv.failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
