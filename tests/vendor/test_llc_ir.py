#!/usr/bin/env python3
"""Kernels written in LLVM IR, compiled by the vendor's llc, run on nxemu
(docs/tpc-vendor-kernels.rst, "Kernels from LLVM IR").

Each tests/vendor/llc-ir/NAME.ll is a kernel written for this test with the
vendor's TPC intrinsics (llvm.tpc.ld.tnsr, llvm.tpc.mac, llvm.tpc.convert,
...) and plain IR (fadd, icmp + select, loops, loads and stores to local
memory).  At test time the vendor's `llc -march=tpc -mcpu=gaudi` compiles it
at -O2 and at -O0 to an object; nxemu runs each object through the Python
API on seeded random inputs; the output is compared with a reference this
test computes from the inputs by the operation's definition (numpy, exact
single rounding where the instruction rounds once), never from nxemu.

TAP output, one line per kernel and optimisation level, the totals as a
comment; skips (status 77, saying why) without ../shared/vendor or numpy.
A kernel nxemu is known to run wrongly is listed in XFAIL with the reason
(TAP TODO): it must still fail, so that the fix shows up.

Every object also goes through nxemu's disassembler and assembler: the
text nxemu-objdump prints, and the text the vendor's llvm-objdump prints,
must both assemble with nxemu-as to the object's own bytes.  The runs use
the checking mode (tpc.run's default), which must stay quiet on these
correct kernels (CHECK_TODO: the checker's known misreadings); the -O2
objects run a second time with --tpc-timing exposed, where the vendor's
schedule must read no register early and give the same output
(EXPOSED_TODO: where nxemu's latency table disagrees with the vendor's).

usage: test_llc_ir.py SRCROOT [--as=NXEMU_AS --objdump=NXEMU_OBJDUMP] [--table] [KERNEL...]
  --table   print the kernel | compiles | runs | matches table (rst)
"""
import os
import re
import struct
import subprocess
import sys
import tempfile
import time
import zlib
from fractions import Fraction

SRC = os.path.abspath(sys.argv[1])
ARGS = sys.argv[2:]
TABLE = "--table" in ARGS
ONLY = [a for a in ARGS if not a.startswith("--")]
OPTS = dict(a[2:].split("=", 1) for a in ARGS if a.startswith("--") and "=" in a)
VENDOR = os.path.join(os.path.dirname(SRC), "shared", "vendor", "tpc-llvm")
IRDIR = os.path.join(SRC, "tests", "vendor", "llc-ir")


def skip(why):
    print(f"1..0 # SKIP {why}")
    sys.exit(77)


if not os.path.isfile(os.path.join(VENDOR, "unpack.sh")):
    skip(f"the vendor's tools are not at {VENDOR} (they sit beside the repository in CI)")
try:
    import numpy as np
except ImportError:
    skip("numpy is not installed (python3-numpy)")
sys.path.insert(0, os.path.join(SRC, "python"))
from nxemu import tpc  # noqa: E402
import warnings  # noqa: E402

warnings.simplefilter("ignore", tpc.CheckWarning)   # collected from Result.warnings instead

TOOLS = subprocess.run(["sh", os.path.join(VENDOR, "unpack.sh")], capture_output=True, text=True,
                       check=True).stdout.strip()
TMP = tempfile.mkdtemp(prefix="nxemu-llc-ir-")
LEVELS = ("-O2", "-O0")
RNG = None

# Kernels nxemu runs wrongly today, with the reason (reported as TAP TODO;
# an unexpected pass is reported too, so the entry can go).
XFAIL = {
}

# The checking mode (tpc.run's default, nxemu-tpc-run --check) must stay
# quiet on these correct kernels.  Kernels it warns about wrongly today, with
# the reason (TAP TODO until the checker is fixed):
CHECK_TODO = {
}

# The vendor's compiler schedules for the exposed pipeline: its -O2 objects
# must run hazard-free (no read before its producer's distance in nxemu's
# timing table) and give the same results with --tpc-timing exposed.  Where
# nxemu's table asks for more distance than the vendor's schedule gives, today
# (TAP TODO until the table follows the vendor):
EXPOSED_TODO = {
}


def compile_ir(name, level):
    """llc LEVEL of llc-ir/NAME.ll -> (object path, None) or (None, error)."""
    obj = os.path.join(TMP, f"{name}{level}.o")
    r = subprocess.run([os.path.join(TOOLS, "llc"), "-march=tpc", "-mcpu=gaudi", level,
                        "-filetype=obj", os.path.join(IRDIR, name + ".ll"), "-o", obj],
                       capture_output=True, text=True)
    if r.returncode:
        err = [l for l in r.stderr.splitlines() if "error" in l.lower()]
        return None, (err[0] if err else r.stderr.strip()[:200])
    return obj, None


# ---- exact references ----

def f32_round(q):
    """A Fraction rounded once to the nearest f32, ties to even (normal
    range: the tests keep results there)."""
    return np.float32(float(q)) if _tie_free(q) else _round_frac(q, 24)


def _tie_free(q):
    # float(q) rounds the exact value to f64 once; rounding that to f32 can
    # differ from rounding q only when the f64 lands exactly on an f32 tie.
    d = float(q)
    m = np.float64(d).view(np.uint64) & np.uint64((1 << 29) - 1)
    return m != (1 << 28) or Fraction(d) == q


def _round_frac(q, bits):
    if q == 0:
        return np.float32(0)
    sign = -1 if q < 0 else 1
    q = abs(q)
    e = 0
    while q >= 2:
        q /= 2
        e += 1
    while q < 1:
        q *= 2
        e -= 1
    scaled = q * (1 << (bits - 1))
    n = int(scaled)
    rem = scaled - n
    if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and n % 2):
        n += 1
    return np.float32(sign * float(Fraction(n, 1 << (bits - 1)) * Fraction(2) ** e))


def fma32(a, b, c, neg=False):
    """c + a*b (c - a*b with neg) rounded once to f32, elementwise."""
    out = np.empty(a.shape, np.float32)
    for k, (x, y, z) in enumerate(zip(a.ravel(), b.ravel(), c.ravel())):
        p = Fraction(float(x)) * Fraction(float(y))
        out.flat[k] = f32_round(Fraction(float(z)) + (-p if neg else p))
    return out


def bf16_of(x64):
    """float64 values -> bf16 bit patterns, rounded once to nearest even
    (the values here are normal and in range)."""
    u = np.asarray(x64, np.float64).view(np.uint64)
    keep = 52 - 7
    half = np.uint64(1 << (keep - 1))
    lsb = (u >> np.uint64(keep)) & np.uint64(1)
    u = (u + half - np.uint64(1) + lsb) >> np.uint64(keep) << np.uint64(keep)
    f = u.view(np.float64).astype(np.float32)   # exact: 8 significant bits
    return (f.view(np.uint32) >> 16).astype(np.uint16)


def bf16_val(b):
    return (np.asarray(b).astype(np.uint32) << 16).view(np.float32)


def rand_bf16(n, lo, hi):
    return bf16_of(RNG.uniform(lo, hi, n))


def f32(n, lo=-10, hi=10):
    return RNG.uniform(lo, hi, n).astype(np.float32)


def i32(n, lo=-(1 << 31), hi=(1 << 31)):
    return RNG.integers(lo, hi, n, dtype=np.int64).astype(np.int32)


WARNED = []     # the checking mode's warnings of the current kernel's runs
TIMING = None   # None (functional) or "exposed" (the pass over the -O2 objects)
HAZARDS = []    # too-early reads of the current kernel's runs under TIMING


def run(obj, inputs, outputs, ispace, args=(), check=True):
    r = tpc.run(obj, inputs=inputs, outputs=outputs, index_space=ispace, args=args, check=check,
                timing=TIMING)
    WARNED.extend(w.removeprefix("nxemu-tpc-run: ") for w in r.warnings)
    if r.hazards:
        HAZARDS.append(r.hazards)
    return r


# ---- the kernels: NAME -> fn(obj) returning (got, want) compared exactly ----
KERNELS = {}


def kernel(name):
    def deco(fn):
        KERNELS[name] = fn
        return fn
    return deco


def binary_f32(name, op, n=320):
    def fn(obj):
        a, b = f32(n), f32(n)
        got = run(obj, [a, b], [((n,), np.float32)], [-(-n // 64)])[0]
        return got, op(a, b)
    KERNELS[name] = fn


binary_f32("f32_add", lambda a, b: a + b, n=300)
binary_f32("f32_sub_mul", lambda a, b: (a - b) * a)
binary_f32("f32_maxnum", np.maximum)
binary_f32("f32_abs_neg", lambda a, b: np.abs(a) + (-b))
binary_f32("f32_fcmp_select", lambda a, b: np.where(a < b, b - a, a * np.float32(0.5)))


def mac_case(neg):
    def fn(obj):
        n = 256
        a, b, c = f32(n), f32(n), f32(n, -100, 100)
        got = run(obj, [a, b, c], [((n,), np.float32)], [n // 64])[0]
        return got, fma32(a, b, c, neg)
    return fn


KERNELS["f32_mac"] = mac_case(False)
KERNELS["f32_mac_neg"] = mac_case(True)


@kernel("f32_min_scalar")
def _min_scalar(obj):
    a, s = f32(256), 1.25
    return run(obj, [a], [((256,), np.float32)], [4], args=(s,))[0], \
        np.minimum(a, np.float32(s))


@kernel("f32_sel_grt")
def _sel_grt(obj):
    a, b, c, d = f32(256), f32(256), f32(256), f32(256)
    b[::7] = a[::7]                                       # some equal: not greater
    return run(obj, [a, b, c, d], [((256,), np.float32)], [4])[0], np.where(a > b, c, d)


@kernel("f32_vpred_add")
def _vpred(obj):
    a, b, c = f32(256), f32(256), f32(256)
    return run(obj, [a, b, c], [((256,), np.float32)], [4])[0], np.where(a > b, a + b, c)


@kernel("f32_scale_bias")
def _scale_bias(obj):
    a, s, t = f32(256), 0.7, -3.5
    return run(obj, [a], [((256,), np.float32)], [4], args=(s, t))[0], \
        a * np.float32(s) + np.float32(t)


def binary_i32(name, op, gen=None, n=256):
    def fn(obj):
        a, b = (gen or i32)(n), (gen or i32)(n)
        with np.errstate(over="ignore"):
            want = op(a, b)
        return run(obj, [a, b], [((n,), np.int32)], [n // 64])[0], want
    KERNELS[name] = fn


def u32v(x):
    return x.view(np.uint32)


binary_i32("i32_add_sub", lambda a, b: a + b - np.int32(7))
binary_i32("i32_mul", lambda a, b: a * b)
binary_i32("i32_logic", lambda a, b: ((a & b) | (a ^ np.int32(0x0F0F0F0F))) ^ ~b)
binary_i32("u32_shr_var", lambda a, b: (u32v(a) >> (u32v(b) & np.uint32(31))).view(np.int32))
binary_i32("i32_minmax", lambda a, b: np.maximum(a, np.minimum(b, np.int32(100))),
           gen=lambda n: i32(n, -300, 300))
binary_i32("i32_max_abs", lambda a, b: np.maximum(np.abs(a.astype(np.int64)), b).astype(np.int32),
           gen=lambda n: i32(n, -(1 << 31) + 1))
binary_i32("i32_sub_sat", lambda a, b: np.clip(a.astype(np.int64) - b, -(1 << 31),
                                                (1 << 31) - 1).astype(np.int32))
binary_i32("u32_add_sat", lambda a, b: np.minimum(u32v(a).astype(np.int64) + u32v(b),
                                                  (1 << 32) - 1).astype(np.uint32).view(np.int32))
binary_i32("u32_cmp_sel", lambda a, b: np.where(u32v(a) < u32v(b), a, b ^ np.int32(1)))


@kernel("i32_shift")
def _shift(obj):
    a, b, s = i32(256), i32(256), 5
    with np.errstate(over="ignore"):
        want = (a << np.int32(3)) + (b >> np.int32(s))
    return run(obj, [a, b], [((256,), np.int32)], [4], args=(s,))[0], want


@kernel("u32_sel_less")
def _sel_less(obj):
    a, b, c, d = i32(256), i32(256), i32(256), i32(256)
    b[::5] = a[::5]
    return run(obj, [a, b, c, d], [((256,), np.int32)], [4])[0], np.where(u32v(a) < u32v(b), c, d)


def binary_bf16(name, op, lo=-10, hi=10):
    def fn(obj):
        n = 384
        a, b = rand_bf16(n, lo, hi), rand_bf16(n, lo, hi)
        got = run(obj, [(a, "bf16"), (b, "bf16")], [((n,), "bf16")], [n // 128])[0]
        return got, op(bf16_val(a).astype(np.float64), bf16_val(b).astype(np.float64))
    KERNELS[name] = fn


binary_bf16("bf16_add", lambda a, b: bf16_of(a + b))     # exact in f64, rounded once
binary_bf16("bf16_mul", lambda a, b: bf16_of(a * b))
binary_bf16("bf16_max", lambda a, b: bf16_of(np.maximum(a, b)))


@kernel("bf16_mac")
def _bf16_mac(obj):
    n = 384
    a, b, c = rand_bf16(n, -10, 10), rand_bf16(n, -10, 10), rand_bf16(n, -100, 100)
    got = run(obj, [(a, "bf16"), (b, "bf16"), (c, "bf16")], [((n,), "bf16")], [n // 128])[0]
    av, bv, cv = (bf16_val(v).astype(np.float64) for v in (a, b, c))
    return got, bf16_of(cv + av * bv)    # a*b exact (16 bits), the sum exact in f64


@kernel("bf16_mac_neg")
def _bf16_mac_neg(obj):
    n = 384
    a, b, c = rand_bf16(n, -10, 10), rand_bf16(n, -10, 10), rand_bf16(n, -100, 100)
    # an exact tie once a*b is rounded, broken by the tiny (denormal) c:
    # c - a*b lies just above the midpoint of 0x98f7 and 0x98f8 in magnitude
    a[0], b[0], c[0] = 0x2430, 0x3434, 0x0005
    got = run(obj, [(a, "bf16"), (b, "bf16"), (c, "bf16")], [((n,), "bf16")], [n // 128])[0]
    want = []
    for x, y, z in zip(*(bf16_val(v).tolist() for v in (a, b, c))):
        q = Fraction(z) - Fraction(x) * Fraction(y)     # exact, rounded once below
        want.append(int(_round_frac(q, 8).view(np.uint32)) >> 16)
    return got, np.array(want, np.uint16)


def binary_small(name, dt, vec, op):
    def fn(obj):
        n = vec * 3
        info = np.iinfo(dt)
        a = RNG.integers(info.min, info.max + 1, n).astype(dt)
        b = RNG.integers(info.min, info.max + 1, n).astype(dt)
        with np.errstate(over="ignore"):
            want = op(a, b)
        return run(obj, [a, b], [((n,), dt)], [3])[0], want
    KERNELS[name] = fn


def sat(x, dt):
    info = np.iinfo(dt)
    return np.clip(x.astype(np.int64), info.min, info.max).astype(dt)


binary_small("i16_add", np.int16, 128, lambda a, b: a + b)
binary_small("i16_min", np.int16, 128, np.minimum)
binary_small("i8_add_sat", np.int8, 256, lambda a, b: sat(a.astype(np.int64) + b, np.int8))
binary_small("i8_sub", np.int8, 256, lambda a, b: a - b)
binary_small("u8_max", np.uint8, 256, np.maximum)


@kernel("cvt_f32_i32_rz")
def _cvt_rz(obj):
    a = f32(256, -1e6, 1e6)
    a[:8] = [2.5, -2.5, 0.999, -0.999, 7.0, -7.0, 3.5, -1e-3]
    return run(obj, [a], [((256,), np.int32)], [4])[0], np.trunc(a).astype(np.int32)


@kernel("cvt_f32_i32_rd")
def _cvt_rd(obj):
    a = f32(256, -1e6, 1e6)
    a[:8] = [2.5, -2.5, 0.999, -0.999, 7.0, -7.0, 3.5, -1e-3]
    return run(obj, [a], [((256,), np.int32)], [4])[0], np.floor(a).astype(np.int32)


@kernel("cvt_i32_f32")
def _cvt_i2f(obj):
    a = i32(256)          # most need rounding to 24 bits: nearest, ties to even
    a[:4] = [(1 << 24) + 1, (1 << 24) + 3, -(1 << 24) - 1, 16777217 * 2 + 2]
    return run(obj, [a], [((256,), np.float32)], [4])[0], \
        np.array([f32_round(Fraction(int(v))) for v in a], np.float32)


@kernel("cvt_f32_bf16")
def _cvt_f2bf(obj):
    n = 384                # 3 index points of 128 f32 -> 128 bf16
    a = f32(n, -1000, 1000)
    want = bf16_of(a.astype(np.float64)).reshape(3, 2, 64)   # per point: two f32 vectors
    want = want.transpose(0, 2, 1).ravel()    # interleaved: lane 2i from the first, 2i+1 second
    return run(obj, [a], [((n,), "bf16")], [3])[0], want


@kernel("cvt_bf16_f32")
def _cvt_bf2f(obj):
    n = 384
    a = rand_bf16(n, -1000, 1000)
    want = bf16_val(a).reshape(3, 64, 2)      # per point: even lanes to the first vector,
    want = want.transpose(0, 2, 1).ravel()    # odd lanes to the second
    return run(obj, [(a, "bf16")], [((n,), np.float32)], [3])[0], want


@kernel("cvt_i32_i16")
def _cvt_i2s(obj):
    n = 256                # 4 index points: 64 i32 -> the even lanes of 128 i16
    a = i32(n, -70000, 70000)
    b = RNG.integers(-32768, 32768, 2 * n).astype(np.int16)
    got = run(obj, [a, b], [((2 * n,), np.int16)], [4])[0]
    want = b.copy()
    want[0::2] = sat(a, np.int16)
    return got, want


def rshift_rhne(a, s):
    """a / 2^s rounded to nearest, ties to even (exact integers)."""
    out = []
    for v in a.tolist():
        q, r = v >> s, v & ((1 << s) - 1)
        half = 1 << (s - 1)
        if r > half or (r == half and q & 1):
            q += 1
        out.append(q)
    return np.array(out, np.int64)


@kernel("cvt_i32_i8_shift")
def _cvt_i2c(obj):
    n, s = 256, 3          # 64 i32 -> i8 lanes 4k + 1 of 256, the others from b
    a = i32(n, -1500, 1500)
    a[:6] = [4, 12, 20, -4, -12, 1023]        # exact ties (x.5 after / 8), saturation
    b = RNG.integers(-128, 128, 4 * n).astype(np.int8)
    got = run(obj, [a, b], [((4 * n,), np.int8)], [4], args=(s,))[0]
    want = b.copy()
    want[1::4] = sat(rshift_rhne(a, s), np.int8)
    return got, want


@kernel("i32_shuffle")
def _shuffle(obj):
    n = 256
    a = i32(n)
    m = RNG.integers(0, 256, 4 * n).astype(np.uint8)
    m[4 * 5::4 * 9] &= 0x7F                   # some lanes disabled (bit 7 clear)
    got = run(obj, [a, m.view(np.int8)], [((n,), np.int32)], [4])[0]
    want = np.zeros(n, np.int32)              # the kernel's income: zero
    for k in range(n):
        c, v = m[4 * k], k % 64
        if c & 0x80:                          # 8 i32 per 32-byte group, 2 groups a dual group
            want[k] = a[k - v + 16 * (v // 16) + 8 * ((c >> 5) & 1) + (c & 31) % 8]
    return got, want


@kernel("f32_sum_rows")
def _sum_rows(obj):
    w, h = 200, 7
    a = f32((h, w))
    want = np.zeros(w, np.float32)
    for y in range(h):
        want = want + a[y]
    return run(obj, [a], [((w,), np.float32)], [-(-w // 64)], args=(h,))[0], want


@kernel("i32_index_2d")
def _index_2d(obj):
    w, h = 128, 5
    a = i32((h, w), -1000, 1000)
    want = a * (np.arange(h, dtype=np.int32)[:, None] + 1) + np.arange(w, dtype=np.int32)
    return run(obj, [a], [((h, w), np.int32)], [w // 64, h])[0], want


@kernel("scalar_slm")
def _slm(obj):
    a, s, t = i32(640, -1000, 1000), 37, -11
    want = a + np.repeat(s * np.arange(10, dtype=np.int32) + t, 64)
    return run(obj, [a], [((640,), np.int32)], [10], args=(s, t))[0], want


@kernel("vector_vlm")
def _vlm(obj):
    a, b = f32(256), f32(256)
    return run(obj, [a, b], [((256,), np.float32)], [4])[0], (a + a) - b


@kernel("pred_store")
def _pred_store(obj):
    a, k = i32(384, -1000, 1000), 4
    # the output tensor starts zeroed (tpc.run's outputs): points >= k leave it
    want = np.where(np.arange(384) < 64 * k, a + 1, 0).astype(np.int32)
    # points >= k write nothing, on purpose: no checking mode
    return run(obj, [a], [((384,), np.int32)], [6], args=(k,), check=False)[0], want


@kernel("pred_load_income")
def _pred_load(obj):
    a = i32(384, -1000, 1000)
    odd = (np.arange(384) // 64) % 2 == 1
    return run(obj, [a], [((384,), np.int32)], [6])[0], np.where(odd, 7, a) * 3


@kernel("pred_inverted")
def _pred_inv(obj):
    a, b, c, k = f32(384), f32(384), f32(384), 2
    want = np.where(np.arange(384) >= 64 * k, a + b, c)
    return run(obj, [a, b, c], [((384,), np.float32)], [6], args=(k,))[0], want


@kernel("scalar_arith")
def _scalar_arith(obj):
    a, s, t = i32(320, -1000, 1000), 123457, -98765
    i = np.arange(5, dtype=np.int64)
    v = (((s * i) & 0xFFFFFFFF) ^ (t & 0xFFFFFFFF)) + (t >> 2) - (s & 0xFF)
    v = ((v + (1 << 31)) % (1 << 32) - (1 << 31)).astype(np.int32)
    with np.errstate(over="ignore"):
        want = a + np.repeat(v, 64)
    return run(obj, [a], [((320,), np.int32)], [5], args=(s, t))[0], want


# -- wide results (pairs), bit operations, permutes, scalar division --
# A pair result is two registers: element 2i + e of the 128-element result is
# lane i of register e; the IR's <128 x T> holds register 0 then register 1.

@kernel("i32_mul_wide")
def _mul_wide(obj):
    a, b = i32(256), i32(256)
    got = run(obj, [a, b], [((256,), np.int32), ((256,), np.int32)], [4])
    p = a.astype(np.int64) * b
    lo = (p & 0xFFFFFFFF).astype(np.uint32).view(np.int32)
    hi = (p >> 32).astype(np.int32)
    return np.concatenate(list(got)), np.concatenate([lo, hi])


def pair_layout(v, n):
    """128 results per index point, element 2i + e -> out[128p + 64e + i]."""
    return v.reshape(n // 128, 64, 2).transpose(0, 2, 1).ravel()


@kernel("bf16_mac_acc32")
def _mac_acc32(obj):
    n = 384
    a, b = rand_bf16(n, -10, 10), rand_bf16(n, -10, 10)
    c = f32(n, -100, 100)
    got = run(obj, [(a, "bf16"), (b, "bf16"), c], [((n,), np.float32)], [n // 128])[0]
    prod = fma32(pair_layout(bf16_val(a), n), pair_layout(bf16_val(b), n), c)
    return got, prod


@kernel("i16_mac_sat")
def _mac_i16(obj):
    n = 384
    a = RNG.integers(-32768, 32768, n).astype(np.int16)
    b = RNG.integers(-32768, 32768, n).astype(np.int16)
    c = i32(n)
    c[:8] = [2**31 - 1, -2**31, 2**31 - 5, -2**31 + 5, 0, 1, -1, 2**30]
    got = run(obj, [a, b, c], [((n,), np.int32)], [n // 128])[0]
    prod = pair_layout(a.astype(np.int64), n) * pair_layout(b.astype(np.int64), n)
    return got, sat(c.astype(np.int64) + prod, np.int32)


def bits_case(name, fn_bits):
    def fn(obj):
        a = i32(256)
        a[:6] = [0, -1, 1, -2**31, 2**30, 12 << 20]
        got = run(obj, [a], [((1024,), np.int8)], [4])[0].view(np.uint8)
        return got[0::4], np.array([fn_bits(int(v) & 0xFFFFFFFF) for v in a], np.uint8)
    KERNELS[name] = fn


bits_case("i32_popcnt", lambda v: bin(v).count("1"))
bits_case("i32_find_first", lambda v: (v & -v).bit_length() - 1 if v else 0xFF)


@kernel("i32_brev")
def _brev(obj):
    a = i32(256)
    want = np.array([int(f"{int(v) & 0xFFFFFFFF:032b}"[::-1], 2) for v in a],
                    np.uint32).view(np.int32)
    return run(obj, [a], [((256,), np.int32)], [4])[0], want


@kernel("f32_nearbyint")
def _nearbyint(obj):
    a = f32(256, -100, 100)
    a[:8] = [0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 3.0, -1e-3]
    got = run(obj, [a], [((256,), np.float32), ((256,), np.float32)], [4])
    return np.concatenate(list(got)), np.concatenate([np.rint(a), np.floor(a)])


@kernel("f32_extract_exp")
def _extract_exp(obj):
    a = f32(256, -1, 1) * np.float32(2.0) ** RNG.integers(-100, 100, 256).astype(np.float32)
    a[:4] = [1.0, -1.0, 2.0 ** 127, 1.5 * 2.0 ** -126]
    return run(obj, [a], [((256,), np.int32)], [4])[0], (np.frexp(a)[1] - 1).astype(np.int32)


@kernel("i32_ash_rhu")
def _ash(obj):
    a = i32(256, -100000, 100000)
    n = RNG.integers(-12, 7, 256).astype(np.int32)
    a[:4], n[:4] = [5, -5, 6, -6], [-1, -1, -2, -2]          # x.5 and x.5: half up
    want = np.array([v << k if k >= 0 else (v + (1 << (-k - 1))) >> -k
                     for v, k in zip(a.tolist(), n.tolist())], np.int32)
    return run(obj, [a, n], [((256,), np.int32)], [4])[0], want


@kernel("f32_sel2_less")
def _sel2(obj):
    a, b, c, d = f32(256), f32(256), f32(256), f32(256)
    b[::6] = a[::6]
    got = run(obj, [a, b, c, d], [((256,), np.float32), ((256,), np.float32)], [4])
    lt = a < b
    return np.concatenate(list(got)), np.concatenate([np.where(lt, c, d), np.where(lt, a, b)])


FCLASS = [(0xFF800000, 0), (0xBF800000, 1), (0x80000001, 2), (0x80000000, 3), (0x00000000, 4),
          (0x007FFFFF, 5), (0x3F800000, 6), (0x7F800000, 7), (0x7F800001, 8), (0x7FC00000, 9)]


@kernel("f32_fclass")
def _fclass(obj):
    pick = RNG.integers(0, len(FCLASS), 256)
    bits = np.array([FCLASS[k][0] for k in pick], np.uint32)
    bits[:10] = [v for v, _ in FCLASS]
    got = run(obj, [bits.view(np.float32)], [((256,), np.float32)], [4])[0]
    want = np.array([1 << FCLASS[k][1] for k in pick], np.int32)
    want[:10] = [1 << c for _, c in FCLASS]
    return got.view(np.int32), want


@kernel("i32_mov_vpred")
def _mov_vpred(obj):
    s = 17
    a = i32(256, 0, 40)                       # many lanes equal s
    return run(obj, [a], [((256,), np.int32)], [4], args=(s,))[0], np.where(a == s, s + 1000, a)


@kernel("u16_add_sat")
def _u16_add_sat(obj):
    a = RNG.integers(0, 65536, 384).astype(np.uint16)
    b = RNG.integers(0, 65536, 384).astype(np.uint16)
    return run(obj, [a, b], [((384,), np.uint16)], [3])[0], \
        np.minimum(a.astype(np.int64) + b, 65535).astype(np.uint16)


@kernel("i32_mov_dual_group")
def _mov_dg(obj):
    a, b = i32(256), i32(256)
    want = b.copy()
    for p in range(4):      # per vector: lane 16q + 8h + j is lane j of group h of dual group q
        for j in range(8):
            if (0xFFFF00FF >> (4 * j)) & 0xF:   # the 4 mask bits of the lane's bytes (all or none)
                want[64 * p + 32 + j] = a[64 * p + 16 + j]
    return run(obj, [a, b], [((256,), np.int32)], [4])[0], want


@kernel("i16_pack")
def _pack(obj):
    a = RNG.integers(-32768, 32768, 384).astype(np.int16)
    b = RNG.integers(-32768, 32768, 384).astype(np.int16)
    want = b.copy()
    for q in range(0, 384, 32):               # 64-byte dual groups of 32 i16
        want[q:q + 16] = a[q:q + 32:2]
    return run(obj, [a, b], [((384,), np.int16)], [3])[0], want


@kernel("u32_udiv")
def _udiv(obj):
    num, den = 0xF0000001, 12345
    got = run(obj, [], [((64,), np.uint32), ((64,), np.uint32)], [1],
              args=(np.uint32(num), den))
    return np.concatenate(list(got)), np.concatenate([np.full(64, num // den, np.uint32),
                                                      np.full(64, num % den, np.uint32)])


# -- rounding modes, saturation, more permutes, padding, scalar code --

@kernel("cvt_i32_f32_rz")
def _cvt_i2f_rz(obj):
    a = i32(256)
    a[:4] = [(1 << 24) + 1, -(1 << 24) - 1, 2**31 - 1, -2**31]
    want = []
    for v in a.tolist():                      # truncate to 24 significant bits
        m = abs(v)
        drop = max(0, m.bit_length() - 24)
        want.append(np.float32((m >> drop << drop) * (1 if v >= 0 else -1)))
    return run(obj, [a], [((256,), np.float32)], [4])[0], np.array(want, np.float32)


@kernel("cvt_f32_i32_sat")
def _cvt_sat(obj):
    a = f32(256, -4e9, 4e9)                   # about half beyond the i32 range
    a[:6] = [2.5, 3.5, -2.5, 2.0**31, -2.0**31, -2.0**32]
    want = np.clip(np.rint(a.astype(np.float64)), -2**31, 2**31 - 1).astype(np.int32)
    return run(obj, [a], [((256,), np.int32)], [4])[0], want


@kernel("cvt_f32_bf16_rz")
def _cvt_f2bf_rz(obj):
    n = 384
    a = f32(n, -1000, 1000)
    want = (a.view(np.uint32) >> 16).astype(np.uint16)     # truncation = toward zero
    want = want.reshape(3, 2, 64).transpose(0, 2, 1).ravel()
    return run(obj, [a], [((n,), "bf16")], [3])[0], want


@kernel("i8_shuffle")
def _shuffle8(obj):
    n = 768
    a = RNG.integers(-128, 128, n).astype(np.int8)
    m = RNG.integers(0, 256, n).astype(np.uint8)
    b = RNG.integers(-128, 128, n).astype(np.int8)
    got = run(obj, [a, m.view(np.int8), b], [((n,), np.int8)], [3])[0]
    want = b.copy()
    for k in range(n):
        c = int(m[k])
        if c & 0x80:
            want[k] = a[k - k % 64 + 32 * ((c >> 5) & 1) + (c & 31)]
    return got, want


@kernel("i16_unpack")
def _unpack(obj):
    a = RNG.integers(-32768, 32768, 384).astype(np.int16)
    b = RNG.integers(-32768, 32768, 384).astype(np.int16)
    want = np.empty(384, np.int16)
    for q in range(0, 384, 32):               # 64-byte dual groups of 32 i16
        src = a[q + 16:q + 32]                # group 1: 16 elements
        want[q:q + 32:2] = src
        want[q + 1:q + 32:2] = np.where(src < 0, -1, 0)
    return run(obj, [a, b], [((384,), np.int16)], [3])[0], want


@kernel("f32_pad_read")
def _pad_read(obj):
    h = 6
    a = f32((h, 64))
    want = a + np.concatenate([a[1:], np.zeros((1, 64), np.float32)])
    # the last row's read outside the tensor is the point: no checking mode
    return run(obj, [a], [((h, 64), np.float32)], [1, h], check=False)[0], want


@kernel("f32_dot_rows")
def _dot_rows(obj):
    w, h = 128, 9
    a, b = f32((h, w)), f32((h, w))
    acc = np.zeros(w, np.float32)
    for y in range(h):
        acc = fma32(a[y], b[y], acc)
    return run(obj, [a, b], [((w,), np.float32)], [w // 64], args=(h,))[0], acc


@kernel("scalar_f32")
def _scalar_f32(obj):
    a, s, t = f32(320), 1.75, -0.3
    s32, t32 = np.float32(s), np.float32(t)
    v = np.array([(s32 * np.float32(i) + t32) - s32 for i in range(5)], np.float32)
    return run(obj, [a], [((320,), np.float32)], [5], args=(s, t))[0], a * np.repeat(v, 64)


@kernel("scalar_select")
def _scalar_select(obj):
    a, k = i32(384, -1000, 1000), 8
    v = np.array([3 * i if 3 * i < k else k - i for i in range(6)], np.int32)
    return run(obj, [a], [((384,), np.int32)], [6], args=(k,))[0], a + np.repeat(v, 64)


@kernel("f32_mac_vpred")
def _mac_vpred(obj):
    a, b, c = f32(256), f32(256), f32(256)
    a[::9] = 0.0
    return run(obj, [a, b, c], [((256,), np.float32)], [4])[0], \
        np.where(a > 0, fma32(a, b, c), c)


# -- scalar converts and products, loops of every shape, 5-D, register pressure --

def div_pow2(v, n, mode):
    """v / 2^n (a negative n multiplies), exact, rounded by mode (rhne, rz)."""
    q = Fraction(v) / Fraction(2) ** n
    fl = q.numerator // q.denominator
    rem = q - fl
    if mode == "rz":
        return fl + 1 if q < 0 and rem else fl
    if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and fl % 2):
        return fl + 1
    return fl


@kernel("scalar_convert")
def _scalar_convert(obj):
    s, t, pts = 0x2F1A3B7, 0x55AA, 40
    got = run(obj, [], [((pts * 64,), np.int32), ((pts * 64,), np.int32)], [pts], args=(s, t))
    u8, s16 = [], []
    for i in range(pts):
        v = ((s * (i + 1)) & 0xFFFFFFFF) ^ t
        n = ((i * 7) & 127) - 64
        u8.append(min(max(div_pow2(v, n, "rhne"), 0), 255))            # v as u32
        sv = v - (1 << 32) if v >= 1 << 31 else v
        s16.append(min(max(div_pow2(sv, n, "rz"), -32768), 32767))     # v as i32
    return np.concatenate(list(got)), np.repeat(np.array(u8 + s16, np.int32), 64)


@kernel("scalar_mul_mac")
def _scalar_mul_mac(obj):
    s, t, z, pts = -123456789, 987654, 0.1, 6
    got = run(obj, [], [((pts * 64,), np.int32), ((pts * 64,), np.float32)], [pts],
              args=(s, t, z))
    hi = [((s * (t + i)) >> 32) for i in range(pts)]
    f = [f32_round(Fraction(3, 2) * i + Fraction(float(np.float32(z)))) for i in range(pts)]
    return np.concatenate([got[0], got[1].view(np.int32)]), \
        np.concatenate([np.repeat(np.array(hi, np.int32), 64),
                        np.repeat(np.array(f, np.float32), 64).view(np.int32)])


@kernel("loop_down_order")
def _loop_down(obj):
    pts, acc, want = 9, 1, [0] * 9
    for i in range(pts - 1, -1, -1):
        acc = (acc * 3 + i) & 0xFFFFFFFF
        want[i] = acc
    got = run(obj, [], [((pts * 64,), np.int32)], [pts])[0]
    return got, np.repeat(np.array(want, np.uint32).view(np.int32), 64)


@kernel("loop_while")
def _loop_while(obj):
    s, pts = 27, 8
    want = []
    for i in range(pts):
        v, k = s + i, 0
        while True:
            v = 3 * v + 1 if v & 1 else v >> 1
            k += 1
            if v <= 1:
                break
        want.append(k)
    return run(obj, [], [((pts * 64,), np.int32)], [pts], args=(s,))[0], \
        np.repeat(np.array(want, np.int32), 64)


@kernel("i32_5d")
def _five_d(obj):
    dims = (2, 3, 2, 4)                       # d4, d3, d2, d1 (numpy order), 64 along dim 0
    a = i32(dims + (64,), -1000, 1000)
    d4, d3, d2, d1 = np.meshgrid(*[np.arange(k) for k in dims], indexing="ij")
    want = a + (d1 + 10 * d2 + 100 * d3 + 1000 * d4)[..., None].astype(np.int32)
    return run(obj, [a], [(a.shape, np.int32)], [1, 4, 2, 3, 2])[0], want


@kernel("f32_many_live")
def _many_live(obj):
    rows = 40
    a = f32((rows, 128), 0.9, 1.1)
    s = a[0] + a[1]
    for r in range(2, rows):
        s = s + a[r]
    for r in range(rows - 1, -1, -1):
        s = s * a[r]
    return run(obj, [a], [((128,), np.float32)], [2])[0], s


# -- read-modify-write stores, half vectors, predicates in memory, global access --

@kernel("f32_st_rmw")
def _st_rmw(obj):
    a, b = f32(256), f32(256)
    got = run(obj, [a, b], [((256,), np.float32), ((256,), np.float32)], [4])
    return np.concatenate(list(got)), np.concatenate([a + b, a - b])


@kernel("i32_st_rmw_max")
def _st_rmw_max(obj):
    a, b = i32(256), i32(256)
    return run(obj, [a, b], [((256,), np.int32)], [4])[0], np.maximum(a, b)


@kernel("f32_ld_low_high")
def _ld_low_high(obj):
    pts = 4
    a = f32((2, 32 * pts))
    want = np.concatenate([a[:, 32 * i:32 * i + 32].ravel() for i in range(pts)])
    return run(obj, [a], [((64 * pts,), np.float32)], [pts])[0], want


@kernel("f32_st_low_high")
def _st_low_high(obj):
    pts = 4
    v = f32(64 * pts)
    want = v.reshape(pts, 2, 32).transpose(1, 0, 2).reshape(2, 32 * pts)
    return run(obj, [v], [((2, 32 * pts), np.float32)], [pts])[0], want


@kernel("vpred_tensor")
def _vpred_tensor(obj):
    pts = 4
    a, b = f32(64 * pts), f32(64 * pts)
    img = RNG.integers(0, 256, 32 * pts).astype(np.uint8)
    bits = np.unpackbits(img, bitorder="little")            # bit j of the image, j = 8m + t
    lane_on = bits.reshape(pts, 256)[:, 0::4].ravel() == 1  # f32 lane k: bit 4k
    got = run(obj, [a, b, img], [((64 * pts,), np.float32), ((32 * pts,), np.uint8)], [pts])
    gt = np.repeat(a > b, 4)                                # lane k's result in bits 4k..4k+3
    want_img = np.packbits(gt.astype(np.uint8), bitorder="little")
    return np.concatenate([got[0].view(np.uint32), got[1].astype(np.uint32)]), \
        np.concatenate([np.where(lane_on, a + b, a).view(np.uint32), want_img.astype(np.uint32)])


@kernel("global_ld_st")
def _global(obj):
    pts = 6
    a, b = i32(pts, -1000, 1000), i32(256)
    got = run(obj, [a, b], [((pts,), np.int32), ((64 * pts,), np.int32)], [pts])
    want = np.repeat(b[64 * (np.arange(pts) % 4)], 64)      # ld_g to a vector broadcasts
    return np.concatenate(list(got)), np.concatenate([a * 3 + 1, want])


# -- single-lane (ratio) conversions --

@kernel("cvt_i16_f32_lane")
def _cvt_i16_f32(obj):
    pts = 3
    a = RNG.integers(-32768, 32768, 128 * pts).astype(np.int16)
    got = run(obj, [a], [((64 * pts,), np.float32), ((64 * pts,), np.float32)], [pts])
    return np.concatenate(list(got)), np.concatenate([a[0::2], a[1::2]]).astype(np.float32)


@kernel("cvt_f32_i8_lane")
def _cvt_f32_i8(obj):
    pts = 3
    a = f32(64 * pts, -300, 300)
    a[:4] = [127.9, -128.9, 2.5, -2.5]
    want = np.zeros(256 * pts, np.int8)
    want[2::4] = sat(np.trunc(a), np.int8)
    return run(obj, [a], [((256 * pts,), np.int8)], [pts])[0], want


@kernel("cvt_f32_i16_lane")
def _cvt_f32_i16(obj):
    pts = 3
    a = f32(64 * pts, -70000, 70000)
    a[:4] = [0.5, 1.5, -2.5, 32767.5]
    want = np.zeros(128 * pts, np.int16)
    want[1::2] = sat(np.rint(a), np.int16)
    return run(obj, [a], [((128 * pts,), np.int16)], [pts])[0], want


# ---- driver ----

def compare(got, want):
    got, want = np.asarray(got), np.asarray(want)
    if got.shape != want.shape:
        return False, f"shape {got.shape} != {want.shape}"
    if got.dtype.kind == "f" or want.dtype.kind == "f":
        bad = ~((got == want) | (np.isnan(got) & np.isnan(want)))
    else:
        bad = got != want
    if not bad.any():
        return True, f"{got.size} elements equal"
    k = int(np.flatnonzero(bad.ravel())[0])
    return False, (f"{int(bad.sum())} of {got.size} elements differ; first at {k}: "
                   f"got {got.ravel()[k]!r}, want {want.ravel()[k]!r}")


def run_exposed(fn, obj, name):
    """The kernel again, same inputs, with --tpc-timing exposed: None when it
    reads nothing too early and gives the same output, else what differs."""
    global RNG, TIMING
    RNG = np.random.default_rng(zlib.crc32(name.encode()))
    TIMING = "exposed"
    HAZARDS.clear()
    try:
        got, want = fn(obj)
    except tpc.Error as e:
        return f"{str(e).splitlines()[0]}"
    finally:
        TIMING = None
    ok, why = compare(got, want)
    if ok and not HAZARDS:
        return None
    return f"{sum(HAZARDS)} too-early reads; " + ("output equal" if ok else why)


def elf_text(path):
    """The .text bytes of an ELF32 object."""
    with open(path, "rb") as f:
        d = f.read()
    shoff, = struct.unpack_from("<I", d, 0x20)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", d, 0x2E)
    secs = [struct.unpack_from("<10I", d, shoff + i * shentsize) for i in range(shnum)]
    names = secs[shstrndx][4]
    for sec in secs:
        if d[names + sec[0]:d.index(b"\0", names + sec[0])] == b".text":
            return d[sec[4]:sec[4] + sec[5]]
    return b""


def round_trips(obj):
    """nxemu-objdump's text and the vendor's llvm-objdump text of obj, each
    assembled by nxemu-as -> [(which, problem)] for those not giving obj's
    .text back byte for byte."""
    want, bad = elf_text(obj), []
    if not want:
        return [("llc", "the object has no .text")]
    ours = subprocess.run([OPTS["objdump"], "-d", "--no-leading-addr", obj], capture_output=True,
                          text=True).stdout.split("Disassembly of section .text:", 1)[-1]
    vendor = subprocess.run([os.path.join(TOOLS, "llvm-objdump"), "--triple", "tpc",
                             "--mcpu=gaudi", "-d", "--no-show-raw-insn", obj],
                            capture_output=True, text=True).stdout
    vtext = []
    for line in vendor.splitlines():       # "  1a0: <bundle> // comment", "00000000 main:"
        m = re.match(r"\s+[0-9a-f]+:\s+(.*)", line) or re.match(r"[0-9a-f]{8} (\S+:)$", line)
        if m:
            vtext.append(m.group(1).split("//")[0].rstrip())
    for which, text in (("nxemu-objdump", ours), ("llvm-objdump", "\n".join(vtext) + "\n")):
        src, out = obj + f".{which}.s", obj + f".{which}.o"
        with open(src, "w") as f:
            f.write(text)
        r = subprocess.run([OPTS["as"], "-t", "tpc", src, "-o", out], capture_output=True,
                           text=True)
        if r.returncode:
            bad.append((which, r.stderr.strip().splitlines()[0] if r.stderr.strip() else "failed"))
        elif elf_text(out) != want:
            got = elf_text(out)
            k = next((i for i in range(min(len(got), len(want))) if got[i] != want[i]),
                     min(len(got), len(want)))
            bad.append((which, f"bytes differ from bundle {k // 32} ({len(got)} vs {len(want)})"))
    return bad


def doc_example():
    """The sh blocks of docs/tpc-vendor-kernels.rst's "Kernels from LLVM IR"
    section, as written, from a repository root with ../shared beside it
    and nxemu's tools on PATH -> (ok, what it printed)."""
    page = open(os.path.join(SRC, "docs", "tpc-vendor-kernels.rst")).read()
    section = page.split("\nKernels from LLVM IR\n", 1)[1]
    blocks, buf = [], None
    for line in section.splitlines() + [""]:
        if buf is not None:
            if line.startswith("   ") or not line.strip():
                buf.append(line[3:])
                continue
            blocks.append("\n".join(buf).strip() + "\n")
            buf = None
        if line.startswith(".. code-block:: sh"):
            buf = []
    root = tempfile.mkdtemp(prefix="nxemu-llc-doc-")
    os.symlink(os.path.dirname(os.path.dirname(VENDOR)), os.path.join(root, "shared"))
    cwd = os.path.join(root, "repo")
    os.mkdir(cwd)
    pybin = os.path.join(root, "bin")      # python3 in the commands: this one (with numpy)
    os.mkdir(pybin)
    os.symlink(sys.executable, os.path.join(pybin, "python3"))
    env = dict(os.environ)
    lib = os.path.abspath(env.get("NXEMU_LIBRARY", os.path.join(SRC, "build", "python", "x")))
    tools = os.path.join(os.path.dirname(os.path.dirname(lib)), "tools")
    env["PATH"] = os.pathsep.join([pybin, tools, env.get("PATH", "")])
    out = ""
    for text in blocks:
        r = subprocess.run(["bash", "-e", "-c", text], cwd=cwd, env=env, capture_output=True,
                           text=True)
        out += r.stdout
        if r.returncode:
            return False, (out + r.stderr).strip()
    return bool(blocks) and "min(a * s, 100): 256 of 256 equal" in out, out.strip()


def main():
    global RNG
    names = sorted(f[:-3] for f in os.listdir(IRDIR) if f.endswith(".ll"))
    if ONLY:
        names = [n for n in names if n in ONLY]
    missing = [n for n in names if n not in KERNELS]
    todo_check = [k for k in CHECK_TODO if k in names]
    todo_exposed = [k for k in EXPOSED_TODO if k in names]
    ntrip = 2 if "as" in OPTS else 0
    print(f"1..{len(names) * len(LEVELS) + 4 + ntrip + len(todo_check) + len(todo_exposed)}")
    t0 = time.monotonic()
    rows, n, failed = [], 0, 0
    warned, exposed = {}, {}
    trips, tripbad = 0, {}
    totals = {"compiled": 0, "ran": 0, "matched": 0}
    for name in names:
        cells = {"compiles": [], "runs": [], "matches": []}
        for level in LEVELS:
            n += 1
            label = f"{name} {level}"
            todo = f" # TODO {XFAIL[name]}" if name in XFAIL else ""
            obj, err = compile_ir(name, level)
            if obj is None:
                cells["compiles"].append("no")
                cells["runs"].append("-")
                cells["matches"].append("-")
                print(f"not ok {n} - {label}: llc: {err}{todo}")
                failed += not todo
                continue
            totals["compiled"] += 1
            cells["compiles"].append("yes")
            if "as" in OPTS:
                trips += 1
                for which, why in round_trips(obj):
                    tripbad.setdefault(which, []).append(f"{label}: {why}")
            fn = KERNELS.get(name)
            if fn is None:
                cells["runs"].append("-")
                cells["matches"].append("-")
                print(f"not ok {n} - {label}: no reference in this test")
                failed += 1
                continue
            RNG = np.random.default_rng(zlib.crc32(name.encode()))   # same inputs, both levels
            WARNED.clear()
            try:
                got, want = fn(obj)
            except tpc.Error as e:
                cells["runs"].append("no")
                cells["matches"].append("-")
                print(f"not ok {n} - {label}: {str(e).splitlines()[0]}{todo}")
                failed += not todo
                continue
            totals["ran"] += 1
            if WARNED:
                warned.setdefault(name, WARNED[0])
            cells["runs"].append("yes")
            ok, why = compare(got, want)
            totals["matched"] += ok
            cells["matches"].append("yes" if ok else "NO")
            if ok and todo:
                print(f"ok {n} - {label}: {why} # TODO passes: remove it from XFAIL")
            else:
                print(f"{'ok' if ok else 'not ok'} {n} - {label}: {why}{todo}")
                failed += not ok and not todo
            if level == "-O2" and ok:
                exposed[name] = run_exposed(fn, obj, name)
        rows.append((name,) + tuple("/".join(cells[k]) for k in ("compiles", "runs", "matches")))
    total = len(names) * len(LEVELS)
    print(f"# {len(names)} kernels x {len(LEVELS)} levels ({' '.join(LEVELS)}): "
          f"{totals['compiled']}/{total} compiled, {totals['ran']}/{total} ran, "
          f"{totals['matched']}/{total} matched, in {time.monotonic() - t0:.1f} s")
    n += 1
    unexpected = [k for k in list(XFAIL) + list(CHECK_TODO) + list(EXPOSED_TODO)
                  if k not in names and not ONLY]
    print(f"{'not ok' if missing or unexpected else 'ok'} {n} - every kernel has a reference and "
          f"every XFAIL/CHECK_TODO entry a kernel {' '.join(missing + unexpected)}".rstrip())
    failed += bool(missing or unexpected)
    for which in ("nxemu-objdump", "llvm-objdump")[:ntrip]:
        n += 1
        bad = tripbad.get(which, [])
        print(f"{'not ok' if bad else 'ok'} {n} - {which} text of the objects, assembled by "
              f"nxemu-as: {trips - len(bad)} of {trips} give the object's bytes")
        for b in bad[:10]:
            print(f"# {b}")
        failed += bool(bad)
    n += 1
    ok, what = doc_example()
    print(f"{'ok' if ok else 'not ok'} {n} - docs/tpc-vendor-kernels.rst's llc example runs as "
          f"written: {what.splitlines()[-1] if what else 'no output'}")
    failed += not ok
    noisy = {k: w for k, w in warned.items() if k not in CHECK_TODO}
    n += 1
    print(f"{'not ok' if noisy else 'ok'} {n} - the checking mode is quiet on the correct kernels")
    for k, w in noisy.items():
        print(f"# {k}: {w}")
    failed += bool(noisy)
    for k in todo_check:
        n += 1
        if k in warned:
            print(f"not ok {n} - {k}: checking mode: {warned[k]} # TODO {CHECK_TODO[k]}")
        else:
            print(f"ok {n} - {k}: checking mode quiet # TODO passes: remove it from CHECK_TODO")
    bad = {k: v for k, v in exposed.items() if v and k not in EXPOSED_TODO}
    n += 1
    clean = sum(1 for v in exposed.values() if not v)
    print(f"{'not ok' if bad else 'ok'} {n} - --tpc-timing exposed: the vendor's -O2 schedules "
          f"run hazard-free with the same results ({clean} of {len(exposed)}; the rest TODO)")
    for k, v in bad.items():
        print(f"# {k}: {v}")
    failed += bool(bad)
    for k in todo_exposed:
        n += 1
        if exposed.get(k):
            print(f"not ok {n} - {k}: exposed pipeline: {exposed[k]} # TODO {EXPOSED_TODO[k]}")
        elif k in exposed:
            print(f"ok {n} - {k}: exposed pipeline clean # TODO passes: remove it from "
                  "EXPOSED_TODO")
        else:
            print(f"not ok {n} - {k}: no -O2 object that ran right # TODO {EXPOSED_TODO[k]}")
    if TABLE:
        head = ("kernel", "compiles", "runs", "matches")
        w = [max(len(r[k]) for r in rows + [head]) for k in range(4)]
        line = "  ".join("=" * x for x in w)
        print(line)
        print("  ".join(h.ljust(x) for h, x in zip(head, w)))
        print(line)
        for r in rows:
            print("  ".join(c.ljust(x) for c, x in zip(r, w)).rstrip())
        print(line)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
