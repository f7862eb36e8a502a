#!/usr/bin/env python3
"""End-to-end TPC kernels through the sequencer launch path (TAP).

usage: test_tpc_kernels.py NXEMU_TPC_RUN KERNEL.o... [--only NAME]

Each kernel (tests/tpc-kernels/*.s, assembled at build time) runs through
nxemu-tpc-run, i.e. the reference launcher on sequencer 0 configuring and
starting the TPCs (docs/tpc-run.rst), on 1, 2 and 4 TPCs.  Expected tensors
are computed here from tpc.md §5.0.4: f32 is IEEE binary32 with RNE (the f64
result of one +, * of two f32 values is exact or correctly rounded with enough
guard bits, then struct 'f' rounds it to binary32), any NaN result is
0x7FC00000; bf16 ops round the exact result once to bf16 with RNE.  An output
"guard" tensor placed right after each result must stay zero: a store lane
that is not culled would write there (§3.4).
"""
import math
import os
import random
import struct
import subprocess
import sys
import tempfile

STATS = "nxemu-tpc-run: tpcs="
results = []


def check(name, cond, diag=""):
    results.append((name, bool(cond), diag))


def f32_bits(x):
    """binary32 bits of x rounded to nearest even; NaN -> canonical 0x7FC00000."""
    if math.isnan(x):
        return 0x7FC00000
    if abs(x) >= 2.0**128 - 2.0**103:  # at or past the halfway point to 2**128: inf
        return 0x7F800000 if x > 0 else 0xFF800000
    if abs(x) > 3.4028234663852886e38:  # rounds down to the largest finite value
        return 0x7F7FFFFF if x > 0 else 0xFF7FFFFF
    return struct.unpack("<I", struct.pack("<f", x))[0]


def bits_f32(b):
    return struct.unpack("<f", struct.pack("<I", b))[0]


def f32(x):
    return bits_f32(f32_bits(x))


def bf16_bits(x):
    """bf16 bits of the exact value x (a float holding it exactly), RNE."""
    if math.isnan(x):
        return 0x7FC0
    if x == 0.0 or math.isinf(x):
        return struct.unpack("<I", struct.pack("<f", x))[0] >> 16
    _, e = math.frexp(x)  # 2**(e-1) <= |x| < 2**e
    # 8 significant bits, or the fixed 2**-133 step of denormals (e <= -126);
    # round() of a float is round-half-even and exact here.
    step = max(e, -125) - 8
    r = math.ldexp(round(math.ldexp(x, -step)), step)
    return struct.unpack("<I", struct.pack("<f", r))[0] >> 16


def bf16_val(h):
    return bits_f32(h << 16)


def run_kernel(tpcrun, kernel, n, space, ins, outs, extra=()):
    """Run with tensors ins / outs = [(path, shape, dtype, addr)]; return (rc, stderr)."""
    args = [tpcrun, "-k", kernel, "-n", str(n), "--index-space", space]
    for p, shape, dt, addr in ins:
        args += ["-i", f"{p}:{shape}:{dt}@{addr:#x}"]
    for p, shape, dt, addr in outs:
        args += ["-o", f"{p}:{shape}:{dt}@{addr:#x}"]
    args += list(extra)
    p = subprocess.run(args, capture_output=True, text=True, timeout=120)
    return p.returncode, p.stderr


def first_diff(got, want, esize):
    for i in range(0, min(len(got), len(want)), esize):
        if got[i:i + esize] != want[i:i + esize]:
            return (f"{len(got)} bytes (want {len(want)}); element {i // esize}: "
                    f"got {got[i:i + esize].hex()} want {want[i:i + esize].hex()}")
    return f"{len(got)} bytes (want {len(want)})"


def read(p):
    return open(p, "rb").read() if os.path.exists(p) else b""


def multi_tpc(name, tmp, tpcrun, kernel, space, ins, out_shape, dtype, esize, want, extra=()):
    """Run on 1, 2 and 4 TPCs: exact expected output, zero guard, identical bytes."""
    nel = len(want) // esize
    outs = {}
    for n in (1, 2, 4):
        fo = os.path.join(tmp, f"{name.replace(' ', '_')}-out{n}.bin")
        fg = os.path.join(tmp, f"{name.replace(' ', '_')}-guard{n}.bin")
        oaddr = 0x04800000
        gaddr = oaddr + nel * esize
        rc, err = run_kernel(tpcrun, kernel, n, space, ins,
                             [(fo, out_shape, dtype, oaddr), (fg, "256", "u8", gaddr)], extra)
        check(f"{name} -n {n}: exit 0 and statistics line", rc == 0 and STATS in err,
              f"rc={rc} {err}")
        got = read(fo)
        outs[n] = got
        check(f"{name} -n {n}: output matches the reference", got == want,
              first_diff(got, want, esize))
        check(f"{name} -n {n}: lanes past the tensor end culled (guard stays 0)",
              read(fg) == bytes(256), read(fg)[:64].hex())
    check(f"{name}: byte-identical output on 1, 2 and 4 TPCs",
          outs[1] == outs[2] == outs[4] and len(outs[1]) > 0)


def write_u32(path, words):
    with open(path, "wb") as f:
        f.write(struct.pack(f"<{len(words)}I", *words))


def write_u16(path, halves):
    with open(path, "wb") as f:
        f.write(struct.pack(f"<{len(halves)}H", *halves))


def rand_f32_bits(rnd, n, lo=-1000.0, hi=1000.0):
    return [f32_bits(rnd.uniform(lo, hi)) for _ in range(n)]


def test_add5d(tmp, tpcrun, kernel):
    # 70 is not a multiple of 64: the second vector of every row has 6 real
    # lanes; the index space is split on dim 4 (5 -> 3+2 / 2+2+1).
    shape = (70, 3, 2, 2, 5)
    nel = math.prod(shape)
    rnd = random.Random(501)
    a = rand_f32_bits(rnd, nel)
    b = rand_f32_bits(rnd, nel)
    # Special values (tpc.md §5.0.4): inf - inf is the canonical NaN, an input
    # NaN payload becomes 0x7FC00000, denormals are kept, overflow gives inf.
    specials = [(0x7F800000, 0xFF800000), (0x7FA00001, 0x3F800000), (0x00000001, 0x00000003),
                (0x7F7FFFFF, 0x7F7FFFFF), (0x80000000, 0x80000000), (0xFF800000, 0x3F800000)]
    for i, (x, y) in enumerate(specials):
        a[69 + 140 * i], b[69 + 140 * i] = x, y
    s = 0.5
    want = []
    for x, y in zip(a, b):
        fx, fy = bits_f32(x), bits_f32(y)
        t = f32(fx + fy) if not (math.isnan(fx) or math.isnan(fy)) else math.nan
        want.append(f32_bits(t + s) if not math.isnan(t) else 0x7FC00000)
    want_b = struct.pack(f"<{nel}I", *want)
    fa, fb = os.path.join(tmp, "add5d-a.bin"), os.path.join(tmp, "add5d-b.bin")
    write_u32(fa, a)
    write_u32(fb, b)
    sh = "x".join(map(str, shape))
    ins = [(fa, sh, "f32", 0x04000000), (fb, sh, "f32", 0x04400000)]
    multi_tpc("add5d-f32", tmp, tpcrun, kernel, "2,3,2,2,5", ins, sh, "f32", 4, want_b,
              ["--farg", str(s)])
    # A sub-space: dim 4 from 1 (3 planes) and dim 2 from 1 (1 of 2): the
    # kernel must honour I0/I1 in every dim; elements outside stay 0 (HBM
    # resets to zero).
    plane = math.prod(shape[:4])
    sub = []
    for i, w in enumerate(want):
        v, z = i // plane, (i // (shape[0] * shape[1])) % shape[2]
        sub.append(w if 1 <= v <= 3 and z == 1 else 0)
    multi_tpc("add5d-f32 sub-space", tmp, tpcrun, kernel, "2,3,1,2,3", ins, sh, "f32", 4,
              struct.pack(f"<{nel}I", *sub), ["--farg", str(s), "--index-base", "0,0,1,0,1"])


def test_bf16(tmp, tpcrun, kernel):
    # 300 x 3 bf16: 128 lanes per vector, 3 vectors per row (44 real lanes in
    # the last); rows split 3 / 2+1 / 1+1+1.
    W, H = 300, 3
    rnd = random.Random(1602)

    def rbf16():
        mag = rnd.uniform(0.01, 100.0) * rnd.choice((1, -1))
        return f32_bits(mag) >> 16  # truncation: any bf16 value will do as input

    a = [rbf16() for _ in range(W * H)]
    b = [rbf16() for _ in range(W * H)]
    want = []
    for x, y in zip(a, b):
        p = bf16_bits(bf16_val(x) * bf16_val(y))  # exact product (16 bits) in f64
        want.append(bf16_bits(bf16_val(p) + bf16_val(x)))  # exact sum in f64
    want_b = struct.pack(f"<{W*H}H", *want)
    fa, fb = os.path.join(tmp, "bf16-a.bin"), os.path.join(tmp, "bf16-b.bin")
    write_u16(fa, a)
    write_u16(fb, b)
    sh = f"{W}x{H}"
    multi_tpc("mac-bf16", tmp, tpcrun, kernel, "3,3",
              [(fa, sh, "bf16", 0x04000000), (fb, sh, "bf16", 0x04400000)], sh, "bf16", 2,
              want_b)


def test_cvt_bf16(tmp, tpcrun, kernel):
    # 300 x 3 bf16 -> f32 pair -> * S0 in f32 -> bf16 (rhne).  The product of
    # a bf16 and an f32 is exact in f64; f32() is the multiply's rounding,
    # bf16_bits() the narrowing's.
    W, H = 300, 3
    rnd = random.Random(4242)
    a = [f32_bits(rnd.uniform(-500.0, 500.0)) >> 16 for _ in range(W * H)]
    # denormal (0.3 * 2**-133 rounds to 0), a denormal result that rounds up,
    # inf, a NaN payload
    a[5], a[6], a[7], a[8] = 0x0001, 0x0005, 0x7F80, 0xFFC1
    s = f32(0.3)
    want = []
    for x in a:
        v = bf16_val(x)
        want.append(0x7FC0 if math.isnan(v) else bf16_bits(f32(v * s)))
    want_b = struct.pack(f"<{W*H}H", *want)
    fa = os.path.join(tmp, "cvt-a.bin")
    write_u16(fa, a)
    sh = f"{W}x{H}"
    multi_tpc("cvt-bf16", tmp, tpcrun, kernel, "3,3", [(fa, sh, "bf16", 0x04000000)], sh,
              "bf16", 2, want_b, ["--farg", repr(s)])


def test_sum_rows(tmp, tpcrun, kernel):
    # in: 300 x 7 f32, out[x] = sum_y in[x, y] in order y = 0..6.  Index space
    # 5 vectors of 64 lanes (the last has 44 real lanes), split on dim 0.
    W, H = 300, 7
    rnd = random.Random(77)
    a = rand_f32_bits(rnd, W * H, -100.0, 100.0)
    want = []
    for x in range(W):
        acc = 0.0
        for y in range(H):
            acc = f32(acc + bits_f32(a[y * W + x]))
        want.append(f32_bits(acc))
    want_b = struct.pack(f"<{W}I", *want)
    fa = os.path.join(tmp, "sum-a.bin")
    write_u32(fa, a)
    multi_tpc("sum-rows-f32", tmp, tpcrun, kernel, "5", [(fa, f"{W}x{H}", "f32", 0x04000000)],
              str(W), "f32", 4, want_b)


def test_rmw_sum(tmp, tpcrun, kernel):
    # in: 300 x 8 i32 over the whole i32 range (sums wrap), out[x] = sum_y
    # in[x, y] mod 2**32; rows split 8 / 4+4 / 2+2+2+2, all TPCs adding into
    # the same output.
    W, H = 300, 8
    rnd = random.Random(8128)
    a = [rnd.getrandbits(32) for _ in range(W * H)]
    want = [sum(a[y * W + x] for y in range(H)) & 0xFFFFFFFF for x in range(W)]
    want_b = struct.pack(f"<{W}I", *want)
    fa = os.path.join(tmp, "rmw-a.bin")
    write_u32(fa, a)
    multi_tpc("rmw-sum-i32", tmp, tpcrun, kernel, f"5,{H}", [(fa, f"{W}x{H}", "i32", 0x04000000)],
              str(W), "i32", 4, want_b)


def test_swap_halves(tmp, tpcrun, kernel):
    # 300 x 3 i16: blocks of 128 at 0, 128, 256 (the last has 44 elements: its
    # low half is a[256..299] + padding, its high half all padding).
    W, H = 300, 3
    rnd = random.Random(6061)
    a = [rnd.getrandbits(16) for _ in range(W * H)]
    want = []
    for y in range(H):
        row = a[y * W:(y + 1) * W]
        for i in range(W):
            k = i % 128
            j = i + 64 if k < 64 else i - 64
            want.append(row[j] if j < W else 0)  # padding value 0
    want_b = struct.pack(f"<{W*H}H", *want)
    fa = os.path.join(tmp, "swap-a.bin")
    write_u16(fa, a)
    sh = f"{W}x{H}"
    multi_tpc("swap-halves-i16", tmp, tpcrun, kernel, f"3,{H}", [(fa, sh, "i16", 0x04000000)], sh,
              "i16", 2, want_b)


def test_rowscale(tmp, tpcrun, kernel):
    # 150 x 5 f32 (3 vectors per row, 22 real lanes in the last), s: 5 f32.
    W, H = 150, 5
    rnd = random.Random(9191)
    a = rand_f32_bits(rnd, W * H)
    sc = rand_f32_bits(rnd, H, -4.0, 4.0)
    want = [f32_bits(bits_f32(a[y * W + x]) * bits_f32(sc[y])) for y in range(H) for x in range(W)]
    want_b = struct.pack(f"<{W*H}I", *want)
    fa, fs = os.path.join(tmp, "rowscale-a.bin"), os.path.join(tmp, "rowscale-s.bin")
    write_u32(fa, a)
    write_u32(fs, sc)
    sh = f"{W}x{H}"
    multi_tpc("rowscale-f32", tmp, tpcrun, kernel, f"3,{H}",
              [(fa, sh, "f32", 0x04000000), (fs, str(H), "f32", 0x04400000)], sh, "f32", 4,
              want_b)


def test_max_u8(tmp, tpcrun, kernel):
    # 600 x 3 u8: 256 lanes per vector, 3 vectors per row (88 real lanes in
    # the last); equal elements included.
    W, H = 600, 3
    rnd = random.Random(2718)
    a = bytes(rnd.getrandbits(8) for _ in range(W * H))
    b = bytes(x if rnd.random() < 0.1 else rnd.getrandbits(8) for x in a)
    want_b = bytes(max(x, y) for x, y in zip(a, b))
    fa, fb = os.path.join(tmp, "max-a.bin"), os.path.join(tmp, "max-b.bin")
    with open(fa, "wb") as f:
        f.write(a)
    with open(fb, "wb") as f:
        f.write(b)
    sh = f"{W}x{H}"
    multi_tpc("max-u8", tmp, tpcrun, kernel, f"3,{H}",
              [(fa, sh, "u8", 0x04000000), (fb, sh, "u8", 0x04400000)], sh, "u8", 1, want_b)


def test_spill(tmp, tpcrun, kernel):
    # 200 x 4 f32 (4 vectors per row, 8 real lanes in the last); rows split
    # 4 / 2+2 / 1+1+1+1.
    W, H = 200, 4
    rnd = random.Random(3003)
    a = rand_f32_bits(rnd, W * H)
    b = rand_f32_bits(rnd, W * H)
    s = -0.75
    want = []
    for x, y in zip(a, b):
        fx, fy = bits_f32(x), bits_f32(y)
        t = f32(fx + fy) if fx < fy else fy
        want.append(f32_bits(t * s))
    want_b = struct.pack(f"<{W*H}I", *want)
    fa, fb = os.path.join(tmp, "spill-a.bin"), os.path.join(tmp, "spill-b.bin")
    write_u32(fa, a)
    write_u32(fb, b)
    sh = f"{W}x{H}"
    multi_tpc("spill-f32", tmp, tpcrun, kernel, "4,4",
              [(fa, sh, "f32", 0x04000000), (fb, sh, "f32", 0x04400000)], sh, "f32", 4, want_b,
              ["--farg", str(s)])


TESTS = {"add5d-f32": test_add5d, "mac-bf16": test_bf16, "cvt-bf16": test_cvt_bf16,
         "sum-rows-f32": test_sum_rows, "rmw-sum-i32": test_rmw_sum,
         "swap-halves-i16": test_swap_halves, "rowscale-f32": test_rowscale,
         "max-u8": test_max_u8, "spill-f32": test_spill}


def main(argv):
    only = None
    if "--only" in argv:
        i = argv.index("--only")
        only = argv[i + 1]
        argv = argv[:i] + argv[i + 2:]
    if len(argv) < 2:
        print("usage: test_tpc_kernels.py NXEMU_TPC_RUN KERNEL.o... [--only NAME]",
              file=sys.stderr)
        return 2
    tpcrun, objs = argv[0], argv[1:]
    kernels = {os.path.basename(o)[:-2]: o for o in objs if o.endswith(".o")}
    with tempfile.TemporaryDirectory(prefix="tpc-kernels-") as tmp:
        for name, fn in TESTS.items():
            if only and name != only:
                continue
            if name not in kernels:
                check(f"{name}: kernel object given", False, "missing from the command line")
                continue
            fn(tmp, tpcrun, kernels[name])
    print(f"1..{len(results)}")
    bad = 0
    for i, (name, ok, diag) in enumerate(results, 1):
        print(f"{'ok' if ok else 'not ok'} {i} - {name}")
        if not ok:
            bad += 1
            for line in str(diag).strip().splitlines()[:10]:
                print(f"# {line}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
