#!/usr/bin/env python3
"""A TPC kernel longer than the decode cache, run with nxemu-tpc-run (TAP).

usage: test_tpc_codegen.py NXEMU_AS NXEMU_TPC_RUN [LAUNCHER_ELF]

The kernel computes out = (a + b) * a on f32 tensors (machine.md §12.13:
each operation rounded to f32); its inner loop body is 262 bundles, so the
add (at P) and the multiply (at P + 8 KiB) share one entry of the TPC
decode cache (256 bundles), and so do the store and a NOP.  tpc.md §6 runs
the bundle at KERNEL_BASE + PC whatever ran before, so:
  - the output is (a + b) * a, computed here, on 1 and 2 TPCs;
  - two runs give byte-identical output and statistics line (determinism);
  - with -d exec (every bundle through the staged path, one log line per
    bundle) the output and statistics are the same as without, and the log
    has one exec line per retired bundle; a run cut by --cycle-limit
    (machine.md: exit 123) ends with the same lines on both paths.
"""
import os
import random
import re
import struct
import subprocess
import sys
import tempfile

NXAS, TPCRUN = sys.argv[1:3]
if len(sys.argv) > 3:
    os.environ["NXEMU_TPC_LAUNCHER"] = sys.argv[3]
STATS = re.compile(r"^nxemu-tpc-run: tpcs=(\d+) bundles=(\d+) cycles=(\d+) vtime=(\d+)$", re.M)

HEAD = """nop; mov_irf_dim 0x0 S10, I0; nop; nop
nop; mov_irf_dim 0x0 S11, I1; nop; nop
nop; mov_irf_dim 0x1 S12, I0; nop; nop
nop; mov_irf_dim 0x1 S13, I1; nop; nop
nop; add.i32 S11, S11, S10; nop; nop
nop; add.i32 S13, S13, S12; nop; nop
loop S12, S13, 1, <, End1
nop
nop; set_indx I2, b00010, S32; nop; nop
loop S10, S11, 1, <, End0
nop
nop; mul.i32 S20, S33, 0x40; nop; nop
nop; set_indx I2, b00001, S20; nop; nop
ld_tnsr V1, 0x0, I2; nop; nop; nop
ld_tnsr V2, 0x1, I2; nop; nop; nop
nop; nop; add.f32 V3, V1, V2; nop
"""
TAIL = """nop; nop; mul.f32 V3, V3, V1; nop
nop; nop; nop; st_tnsr 0x2, I2, V3
End0:
nop
End1:
halt
nop
nop
nop
"""
KERNEL = HEAD + "nop\n" * 255 + TAIL

results = []


def check(name, cond, diag=""):
    results.append((name, bool(cond), diag))


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def run(args):
    return subprocess.run(args, capture_output=True, text=True, timeout=120)


def main():
    tmp = tempfile.mkdtemp(prefix="tpc-codegen-")
    src, obj = os.path.join(tmp, "k.s"), os.path.join(tmp, "k.o")
    with open(src, "w") as f:
        f.write(KERNEL)
    p = run([NXAS, "-t", "tpc", src, "-o", obj])
    if p.returncode != 0:
        print(f"Bail out! nxemu-as -t tpc: {p.stderr.strip()}")
        return 1
    # the add and the multiply 256 bundles apart (one decode-cache entry)
    lines = KERNEL.splitlines()
    add = next(i for i, l in enumerate(lines) if "add.f32" in l)
    mul = next(i for i, l in enumerate(lines) if "mul.f32" in l)
    check("kernel layout: add and mul 256 bundles apart", mul - add == 256, f"{add} {mul}")

    W, H = 100, 3  # 2 vectors per row (the second padded/culled), 3 rows
    rnd = random.Random(4321)
    a = [f32(rnd.uniform(-100, 100)) for _ in range(W * H)]
    b = [f32(rnd.uniform(-100, 100)) for _ in range(W * H)]
    fa, fb = os.path.join(tmp, "a.bin"), os.path.join(tmp, "b.bin")
    with open(fa, "wb") as f:
        f.write(struct.pack(f"<{W*H}f", *a))
    with open(fb, "wb") as f:
        f.write(struct.pack(f"<{W*H}f", *b))
    want = struct.pack(f"<{W*H}f", *[f32(f32(x + y) * x) for x, y in zip(a, b)])
    shape, space = f"{W}x{H}", f"2,{H}"

    def tpcrun(tag, *extra):
        fo = os.path.join(tmp, tag + ".bin")
        p = run([TPCRUN, "-k", obj, "--index-space", space, "-i", f"{fa}:{shape}:f32",
                 "-i", f"{fb}:{shape}:f32", "-o", f"{fo}:{shape}:f32", *extra])
        got = open(fo, "rb").read() if os.path.exists(fo) else b""
        return p, got

    p1, out1 = tpcrun("run1")
    m1 = STATS.search(p1.stderr)
    check("exit 0 and output = (a + b) * a", p1.returncode == 0 and out1 == want,
          f"{len(out1)} bytes; {p1.stderr}")
    check("statistics line", m1 and int(m1.group(2)) > 0, p1.stderr)

    p2, out2 = tpcrun("run2")
    check("second run: same output and stderr (determinism)",
          p2.returncode == 0 and out2 == out1 and p2.stderr == p1.stderr, p2.stderr)

    p3, out3 = tpcrun("two", "-n", "2")
    check("-n 2: output = (a + b) * a", p3.returncode == 0 and out3 == want, p3.stderr)

    flog = os.path.join(tmp, "exec.log")
    p4, out4 = tpcrun("exec", "-d", "exec", "-D", flog)
    m4 = STATS.search(p4.stderr)
    log = open(flog).read() if os.path.exists(flog) else ""
    nexec = len(re.findall(r"^exec: tpc=0 0x[0-9a-f]{8}: \S.*$", log, re.M))
    check("-d exec: same output and statistics as without",
          p4.returncode == 0 and out4 == want and m1 and m4 and m4.group(0) == m1.group(0),
          p4.stderr)
    check("-d exec: one exec line per retired bundle", m4 and nexec == int(m4.group(2)),
          f"{nexec} lines")

    # a run cut by --cycle-limit mid-kernel ends alike on both paths
    p5, _ = tpcrun("lim", "--cycle-limit", "2500")
    p6, _ = tpcrun("limx", "--cycle-limit", "2500", "-d", "exec", "-D", flog + "2")
    check("--cycle-limit: exit 123, same diagnostics with and without -d exec",
          p5.returncode == 123 and p6.returncode == 123 and p5.stderr == p6.stderr,
          p5.stderr + p6.stderr)

    print(f"1..{len(results)}")
    bad = 0
    for i, (name, ok, diag) in enumerate(results, 1):
        print(f"{'ok' if ok else 'not ok'} {i} - {name}")
        if not ok:
            bad += 1
            for line in str(diag).splitlines()[:20]:
                print(f"# {line}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
