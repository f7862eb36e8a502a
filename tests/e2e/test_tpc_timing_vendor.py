#!/usr/bin/env python3
"""Vendor-scheduled kernels in exposed mode (docs/timing.rst).

Habana's compiler schedules for the exposed pipeline: it places a consumer
exactly as far from its producer as the Gaudi latency database says and no
further.  Each kernel below (elementwise f32/bf16, sin, matmul, gather,
softmax, batch norm, a bf16 2-D filter, a convolution), from the vendor's
kernel library beside the repository (../shared/vendor/habana-custom-kernel),
is compiled at test time
with the vendor's tpc-clang -O2 and run by nxemu-tpc-run twice on the same
seeded inputs: functional, and --tpc-timing exposed --tpc-hazard-warn.
Exposed mode must report no hazard and write byte-identical outputs: the
latency table agrees with the schedule the vendor's compiler produced.
(The table before issue #38 reported hazards in matrix_mul_fwd_f32 and
gather_fwd_dim0_i32 and computed different values there.)  The launch
parameters are those of the library's own tests.  Skips (TAP 1..0 # SKIP)
without ../shared/vendor.
"""
import os
import random
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tapkit import Tap  # noqa: E402

TPCRUN, LAUNCHER, SRC = sys.argv[1:4]
VENDOR = os.path.join(os.path.dirname(os.path.abspath(SRC)), "shared", "vendor")
LIB = os.path.join(VENDOR, "habana-custom-kernel")
if not os.path.isdir(os.path.join(LIB, "kernels", "gaudi")):
    print(f"1..0 # SKIP {LIB} is absent (the vendor's tools sit beside the repository in CI)")
    sys.exit(0)
TOOLS = subprocess.run([os.path.join(VENDOR, "tpc-llvm", "unpack.sh")], capture_output=True,
                       text=True, check=True).stdout.strip()
os.environ["NXEMU_TPC_LAUNCHER"] = LAUNCHER
t = Tap("nxemu-timing-vendor-")

D4, D5 = [100, 5, 5, 1], [100, 5, 5, 1, 2]
# kernel: inputs (dims, dtype, (lo, hi)), outputs (dims, dtype), index space, scalar options
KERNELS = {
    "add_f32": ([(D5, "f32", (-10, 10)), (D5, "f32", (-10, 10))], [(D5, "f32")],
                [2, 2, 5, 1, 2], []),
    "customdiv_fwd_f32": ([(D5, "f32", (-10, 10)), (D5, "f32", (1, 10))], [(D5, "f32")],
                          [2, 5, 5, 1, 2], []),
    "leakyrelu_f32_gaudi": ([(D4, "f32", (-10, 10))], [(D4, "f32")], [2, 2, 5, 1],
                            ["--farg", "0.00034"]),
    "relu_fwd_bf16": ([(D4, "bf16", (-10, 10))], [(D4, "bf16")], [1, 2, 5, 1], []),
    "relu6_fwd_f32": ([(D4, "f32", (-10, 10))], [(D4, "f32")], [2, 2, 5, 1], []),
    "sin_f32": ([(D4, "f32", (-10, 10))], [(D4, "f32")], [2, 5, 5, 1], []),
    "matrix_mul_fwd_f32": ([([4, 6, 1], "f32", (1, 10)), ([65, 4, 1], "f32", (1, 10))],
                           [([65, 6, 1], "f32")], [2, 1, 1], []),
    "gather_fwd_dim0_i32": ([([4, 4, 1, 1, 1], "i32", (1, 16)), ([4, 4, 1, 1, 1], "i32", (0, 3))],
                            [([4, 4, 1, 1, 1], "i32")], [1, 1, 1, 1, 1], ["--arg", "0"]),
    "softmax_non_fcd_bf16": ([([9, 4], "bf16", (0, 8))], [([9, 4], "bf16")], [9, 1, 1, 1], []),
    "batch_norm_fwd_f32": ([([100, 3, 8, 1], "f32", (0, 10)), ([100], "f32", (50, 100)),
                            ([100], "f32", (-5, 5))],
                           [([100, 3, 8, 1], "f32"), ([100], "f32"), ([100], "f32")], [2, 1, 1, 1],
                           ["--farg", "24.0", "--farg", "0.041666668", "--farg", "0.9"]),
    "filter_fwd_2d_bf16": ([([100, 5, 5, 1], "bf16", (0, 8)), ([100, 3, 3], "bf16", (0, 8))],
                           [([100, 5, 5, 1], "bf16")], [1, 5, 5, 1],
                           [x for v in (1, 1, 3, 3, 1, 1, 1, 1) for x in ("--arg", str(v))]),
    "spatial_conv_f32": ([([2, 3, 3, 1], "f32", (0, 8)), ([2, 1, 2, 2], "f32", (0, 8))],
                         [([1, 2, 2, 1], "f32")], [1, 1, 2, 2, 1],
                         [x for v in (0, 0, 2, 2, 1, 1, 1, 1) for x in ("--arg", str(v))]),
}


def data(rng, n, dtype, lo, hi):
    if dtype == "i32":
        return struct.pack(f"<{n}i", *[rng.randint(lo, hi) for _ in range(n)])
    f = struct.pack(f"<{n}f", *[rng.uniform(lo, hi) for _ in range(n)])
    if dtype == "f32":
        return f
    return b"".join(f[i + 2:i + 4] for i in range(0, len(f), 4))   # bf16: the upper halves


def count(dims):
    n = 1
    for d in dims:
        n *= d
    return n


def check(name):
    ins, outs, ispace, opts = KERNELS[name]
    obj = t.path(name + ".o")
    r = t.run(os.path.join(TOOLS, "clang"), "-target", "tpc", "-march=gaudi", "-O2", "-I",
              os.path.join(LIB, "kernels", "include"), "-c",
              os.path.join(LIB, "kernels", "gaudi", name + ".c"), "-o", obj)
    assert r.returncode == 0, r.stderr
    rng = random.Random(name)
    argv = [TPCRUN, "-k", obj, "--index-space", ",".join(map(str, ispace))] + opts
    for i, (dims, dt, (lo, hi)) in enumerate(ins):
        p = t.path(f"{name}-in{i}.bin")
        with open(p, "wb") as f:
            f.write(data(rng, count(dims), dt, lo, hi))
        argv += ["-i", f"{p}:{'x'.join(map(str, dims))}:{dt}"]
    got = {}
    for mode in ("functional", "exposed"):
        a = list(argv) + ["--tpc-timing", mode, "--tpc-hazard-warn"]
        paths = [t.path(f"{name}-out{j}-{mode}.bin") for j in range(len(outs))]
        for p, (dims, dt) in zip(paths, outs):
            a += ["-o", f"{p}:{'x'.join(map(str, dims))}:{dt}"]
        r = t.run(*a)
        assert r.returncode == 0, f"{mode}: exit {r.returncode}: {r.stderr}"
        if mode == "exposed":
            assert "hazard pc=" not in r.stderr, r.stderr
            assert "timing=exposed stall_cycles=" in r.stderr and " hazards=0\n" in r.stderr, \
                r.stderr
        got[mode] = [open(p, "rb").read() for p in paths]
    assert got["functional"] == got["exposed"], "exposed mode wrote other values"


def case(name):
    def fn():
        check(name)
    fn.__name__ = name
    return fn


for _name in KERNELS:
    t.test(case(_name))
t.main()
