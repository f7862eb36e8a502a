#!/usr/bin/env python3
"""Habana's TPC kernel library on nxemu (docs/tpc-vendor-kernels.rst).

Every Gaudi kernel of the library snapshot in ../shared/vendor (beside the
repository) is compiled at test time with the vendor's tpc-clang, launched
through nxemu's Python API the way the library's glue code declares it
(tensors, shapes, dtypes, scalar parameters, index space), on seeded random
inputs in the ranges the library's own tests use, and compared with a numpy
reference of what that test computes, at that test's tolerance.  Nothing of
the library is copied here: the kernels, compiler and headers are used where
they lie.  TAP output; skips (status 77, saying why) without ../shared/vendor
or numpy.

usage: test_vendor_library.py SRCROOT [--table] [KERNEL...]
  --table   print the kernel | compiles | runs | matches table (rst)
"""
import os
import subprocess
import sys
import tempfile
import time
import zlib

SRC = os.path.abspath(sys.argv[1])
ARGS = sys.argv[2:]
TABLE = "--table" in ARGS
ONLY = [a for a in ARGS if not a.startswith("--")]
VENDOR = os.path.join(os.path.dirname(SRC), "shared", "vendor")
LIB = os.path.join(VENDOR, "habana-custom-kernel")


def skip(why):
    print(f"1..0 # SKIP {why}")
    sys.exit(77)


if not os.path.isdir(os.path.join(LIB, "kernels", "gaudi")):
    skip(f"{LIB} is absent (the vendor's kernel library sits beside the repository in CI)")
try:
    import numpy as np
except ImportError:
    skip("numpy is not installed (python3-numpy)")
sys.path.insert(0, os.path.join(SRC, "python"))
from nxemu import tpc  # noqa: E402

TOOLS = subprocess.run([os.path.join(VENDOR, "tpc-llvm", "unpack.sh")], capture_output=True,
                       text=True, check=True).stdout.strip()
TMP = tempfile.mkdtemp(prefix="nxemu-vlib-")
RNG = np.random.default_rng(35)


def compile_kernel(name):
    """tpc-clang -O2 of kernels/gaudi/NAME.c -> object path, or (None, error)."""
    src = os.path.join(LIB, "kernels", "gaudi", name + ".c")
    obj = os.path.join(TMP, name + ".o")
    r = subprocess.run([os.path.join(TOOLS, "clang"), "-target", "tpc", "-march=gaudi", "-O2",
                        "-I", os.path.join(LIB, "kernels", "include"), "-c", src, "-o", obj],
                       capture_output=True, text=True)
    if r.returncode:
        err = [l.split("error: ", 1)[1] for l in r.stderr.splitlines() if "error: " in l]
        err = (err[0] if err else r.stderr.strip()[:200]).replace(
            " is invalid in C99 [-Werror,-Wimplicit-function-declaration]", "")
        return None, err
    return obj, None


# ---- bf16 helpers: bf16 travels as uint16 bit patterns ----

def to_bf16(x):
    """f32 -> bf16 bits, round half to even (as CONVERT rhne)."""
    u = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    u = (u + 0x7FFF + ((u >> 16) & 1)) >> 16
    return u.astype(np.uint16)


def from_bf16(b):
    return (np.asarray(b).astype(np.uint32) << 16).view(np.float32)


def rand_f32(shape, lo, hi):
    return RNG.uniform(lo, hi, shape).astype(np.float32)


def rand_bf16(shape, lo, hi):
    return to_bf16(rand_f32(shape, lo, hi))


def ceil(a, b):
    return (a + b - 1) // b


def np_shape(dims):
    """nxemu dims (dim 0 innermost first) -> numpy shape."""
    return tuple(reversed(dims))


# ---- the kernels: each returns (got, want, tolerance) ----
KERNELS = {}


def kernel(name):
    def deco(fn):
        KERNELS[name] = fn
        return fn
    return deco


def elementwise(obj, ins, dtype, dims, vec, unroll_w, args=()):
    ispace = [ceil(dims[0], vec), ceil(dims[1], unroll_w)] + list(dims[2:])
    out = tpc.run(obj, inputs=ins, outputs=[(np_shape(dims), dtype)], index_space=ispace,
                  args=args)
    return out[0]


DIMS5 = [100, 5, 5, 1, 2]   # the library tests' depth, width, height, batch, dim 4


@kernel("add_f32")
def _add(obj):
    a, b = rand_f32(np_shape(DIMS5), -10, 10), rand_f32(np_shape(DIMS5), -10, 10)
    return elementwise(obj, [a, b], np.float32, DIMS5, 64, 4), a + b, 1e-6


@kernel("customdiv_fwd_f32")
def _div(obj):
    a, b = rand_f32(np_shape(DIMS5), -10, 10), rand_f32(np_shape(DIMS5), 1, 10)
    return elementwise(obj, [a, b], np.float32, DIMS5, 64, 1), a / b, 1e-6


@kernel("leakyrelu_f32_gaudi")
def _leaky(obj):
    dims = DIMS5[:4]
    x = rand_f32(np_shape(dims), -10, 10)
    alpha = 0.00034
    want = np.where(x > 0, x, x * np.float32(alpha)).astype(np.float32)
    return elementwise(obj, [x], np.float32, dims, 64, 4, args=(float(alpha),)), want, 0


def relu_case(obj, bf16, six, bwd):
    x = rand_f32(np_shape(DIMS5), -10, 10)
    if bf16:
        x = from_bf16(to_bf16(x))
    if not bwd:
        want = np.where(x <= 0, 0, x)
        if six:
            want = np.where(want >= 6, 6, want)
        ins = [x]
    else:
        g = rand_f32(np_shape(DIMS5), -10, 10)
        if bf16:
            g = from_bf16(to_bf16(g))
        keep = (x > 0) & ((x < 6) if six else True)
        want = np.where(keep, g, 0)
        ins = [g, x]
    want = want.astype(np.float32)
    if bf16:
        got = elementwise(obj, [(to_bf16(v), "bf16") for v in ins], "bf16", DIMS5, 128, 4)
        return from_bf16(got), want, 1e-6
    return elementwise(obj, ins, np.float32, DIMS5, 64, 4), want, 1e-6


for _six in (False, True):
    for _bwd in (False, True):
        for _bf in (False, True):
            _n = f"relu{'6' if _six else ''}_{'bwd' if _bwd else 'fwd'}_{'bf16' if _bf else 'f32'}"
            KERNELS[_n] = (lambda b, s, w: lambda obj: relu_case(obj, b, s, w))(_bf, _six, _bwd)


@kernel("sin_f32")
def _sin(obj):
    x = rand_f32(np_shape(DIMS5), -10, 10)
    return elementwise(obj, [x], np.float32, DIMS5, 64, 4), np.sin(x.astype(np.float64)), 1e-6


CAST_DIMS = [300, 8, 10, 1]


@kernel("cast_f32_to_bf16")
def _c2bf(obj):
    x = rand_f32(np_shape(CAST_DIMS), -10, 10)
    got = elementwise(obj, [x], "bf16", CAST_DIMS, 128, 1, args=(1.0,))
    return from_bf16(got), from_bf16(to_bf16(x)), 0


@kernel("cast_bf16_to_f32")
def _bf2c(obj):
    x = rand_bf16(np_shape(CAST_DIMS), -10, 10)
    got = elementwise(obj, [(x, "bf16")], np.float32, CAST_DIMS, 128, 1, args=(1.0,))
    return got, from_bf16(x), 0



def bf16_round(x):
    """Round f32 values to bf16 values (rhne), as f32."""
    return from_bf16(to_bf16(np.asarray(x, np.float32)))


@kernel("batch_norm_fwd_f32")
def _bn(obj):
    dims = [100, 3, 8, 1]   # depth, width, height, batch of the library's test
    x = rand_f32(np_shape(dims), 0, 10)
    beta, gamma = rand_f32((dims[0],), 50, 100), rand_f32((dims[0],), -5, 5)
    n = dims[1] * dims[2] * dims[3]
    out = tpc.run(obj, inputs=[x, beta, gamma],
                  outputs=[(np_shape(dims), np.float32), ((dims[0],), np.float32),
                           ((dims[0],), np.float32)],
                  index_space=[ceil(dims[0], 64), 1, 1, 1],
                  args=(float(n), float(np.float32(1.0 / n)), 0.9))
    x64 = x.astype(np.float64)
    mean = x64.mean(axis=(0, 1, 2))
    var = ((x64 - mean) ** 2).mean(axis=(0, 1, 2))
    istd = 1 / np.sqrt(var + 1e-5)
    scale = gamma * istd
    y = x64 * scale + (beta - mean * scale)
    got = np.concatenate([out[0].ravel(), out[1], out[2]])
    want = np.concatenate([y.ravel(), mean, istd])
    return got, want, 1e-5


@kernel("softmax_non_fcd_bf16")
def _softmax(obj):
    dims = [9, 4]          # the library's test: 0..8 repeating, softmax along dim 1
    x = from_bf16(to_bf16(np.arange(36, dtype=np.float32).reshape(np_shape(dims)) % 9))
    got = tpc.run(obj, inputs=[(to_bf16(x), "bf16")], outputs=[(np_shape(dims), "bf16")],
                  index_space=[dims[0], 1, 1, 1])[0]
    # what the kernel and the library's reference compute, bf16 at each step
    mx = x.max(axis=0)
    y = bf16_round(np.exp((bf16_round(x - mx)).astype(np.float64)).astype(np.float32))
    s = np.zeros(dims[0], np.float32)
    for w in range(dims[1]):
        s = bf16_round(s + y[w])
    r = bf16_round((1.0 / s.astype(np.float64)).astype(np.float32))
    want = bf16_round(y * r)
    return from_bf16(got), want, 1e-7


@kernel("matrix_mul_fwd_f32")
def _matmul(obj):
    col, row, common, batch = 65, 6, 4, 1
    a = rand_f32((batch, row, common), 1, 10)
    b = rand_f32((batch, common, col), 1, 10)
    got = tpc.run(obj, inputs=[a, b], outputs=[((batch, row, col), np.float32)],
                  index_space=[ceil(col, 64), ceil(row, 6), batch])[0]
    acc = np.zeros((batch, row, col), np.float32)
    for k in range(common):   # fused multiply-add in order, as the library's reference
        acc = (a[:, :, k:k + 1].astype(np.float64) * b[:, k:k + 1, :] + acc).astype(np.float32)
    return got, acc, 1e-6


@kernel("spatial_conv_f32")
def _conv(obj):
    d, w, h, bt, k, kw, kh = 2, 3, 3, 1, 1, 2, 2
    ifm = (np.arange(d * w * h * bt) % 9).astype(np.float32).reshape(np_shape([d, w, h, bt]))
    flt = (np.arange(d * k * kw * kh) % 9).astype(np.float32).reshape(np_shape([d, k, kw, kh]))
    ow, oh = w - kw + 1, h - kh + 1
    got = tpc.run(obj, inputs=[ifm, flt], outputs=[(np_shape([k, ow, oh, bt]), np.float32)],
                  index_space=[1, k, ow, oh, bt], args=(0, 0, kw, kh, 1, 1, 1, 1))[0]
    want = np.zeros(np_shape([k, ow, oh, bt]), np.float64)
    for b_ in range(bt):
        for y in range(oh):
            for x in range(ow):
                for kk in range(k):
                    want[b_, y, x, kk] = sum(flt[j, i, kk, c] * ifm[b_, y + j, x + i, c]
                                            for c in range(d) for j in range(kh) for i in range(kw))
    return got, want, 0



def gather(obj, axis):
    dims = [4, 4, 1, 1, 1]   # the library's test; indices in range of the axis
    x = RNG.integers(1, 17, np_shape(dims)).astype(np.int32)
    idx = RNG.integers(0, dims[axis], np_shape(dims)).astype(np.int32)
    got = tpc.run(obj, inputs=[x, idx], outputs=[(np_shape(dims), np.int32)],
                  index_space=[ceil(dims[0], 64), ceil(dims[1], 4)] + dims[2:], args=(axis,))[0]
    want = np.take_along_axis(x, idx, axis=len(dims) - 1 - axis)
    return got, want, 0


KERNELS["gather_fwd_dim0_i32"] = lambda obj: gather(obj, 0)
KERNELS["gather_fwd_dim1_i32"] = lambda obj: gather(obj, 1)



@kernel("searchsorted_fwd_f32")
def _searchsorted(obj):
    d, w, wv = 3, 5, 3           # the library's test: sequences sorted along dim 1
    seq = np.sort(RNG.integers(0, 20, (1, 1, 1, w, d)), axis=3).astype(np.float32)
    val = RNG.integers(0, 21, (1, 1, 1, wv, d)).astype(np.float32)
    got = tpc.run(obj, inputs=[seq, val], outputs=[(val.shape, np.int32)],
                  index_space=[ceil(d, 64), wv, 1, 1, 1], args=(1,))[0]
    want = (seq[:, :, :, :, None, :] <= val[:, :, :, None, :, :]).sum(axis=3)  # side = right
    return got, want, 1e-6



@kernel("filter_fwd_2d_bf16")
def _filter2d(obj):
    d, w, h, bt, k = 100, 5, 5, 1, 3    # the library's test: 3x3, pad 1, stride 1
    ifm = (np.arange(d * w * h * bt) % 9).astype(np.float32).reshape(np_shape([d, w, h, bt]))
    flt = (np.arange(d * k * k) % 9).astype(np.float32).reshape(np_shape([d, k, k]))
    got = tpc.run(obj, inputs=[(to_bf16(ifm), "bf16"), (to_bf16(flt), "bf16")],
                  outputs=[(ifm.shape, "bf16")], index_space=[ceil(d, 128), w, h, bt],
                  args=(1, 1, k, k, 1, 1, 1, 1))[0]
    pad = np.zeros((bt, h + 2, w + 2, d), np.float32)
    pad[:, 1:-1, 1:-1, :] = ifm
    acc = np.zeros(ifm.shape, np.float32)
    for j in range(k):
        for i in range(k):
            acc = acc + bf16_round(flt[j, i] * pad[:, j:j + h, i:i + w, :])
    return from_bf16(got), bf16_round(acc), 0


def printf_records(buf):
    """Text of the printf records tpc-clang's printf writes to the kernel's
    last tensor: per record a row of 0xCD bytes, a row holding the argument,
    then the format string four bytes a row (lane 0 of each row)."""
    rows = [bytes(r[:1].view(np.uint8)) for r in buf]
    out, i = [], 0
    while i < len(rows):
        if rows[i] != b"\xcd" * 4:
            i += 1
            continue
        arg, fmt, i = rows[i + 1], b"", i + 2
        while i < len(rows) and rows[i] != b"\xcd" * 4 and b"\n" not in fmt:
            fmt += rows[i]
            i += 1
        fmt = fmt.split(b"\0")[0].decode()
        if "%hd" in fmt:
            fmt = fmt.replace("%hd", str(int(np.frombuffer(arg, np.int32)[0])))
        elif "%f" in fmt:
            fmt = fmt.replace("%f", f"{float(np.frombuffer(arg, np.float32)[0]):f}")
        out.append(fmt)
    return "".join(out)


@kernel("printf_test")
def _printf(obj):
    x = rand_f32((64,), -10, 10)
    pos = 5
    buf = tpc.run(obj, inputs=[x], outputs=[((64, 64), np.int32)], index_space=[1],
                  args=(42, 3.25, pos))[0]
    got = printf_records(buf)
    want = (f"Test string!\nint value is 42\nfloat value is {3.25:f}\n"
            f"value in vector is {float(x[pos]):f}\n")
    # compare as text: one "element" per character
    return np.frombuffer(got.encode().ljust(len(want)), np.uint8), \
        np.frombuffer(want.encode().ljust(len(got)), np.uint8), 0


@kernel("sparse_lengths_sum_bf16_2D_f32_embed")
def _sls(obj):
    rows, cols, n_idx, n_seg = 15, 23, 19, 5   # the library's test: 15 rows of 23 bf16
    data = rand_bf16((rows, cols), -100, 100)   # (its test draws the whole bf16 range)
    scale = ((RNG.integers(0, 100, rows) + 1) / 50).astype(np.float32)
    bias = (RNG.integers(0, 100, rows) - 50).astype(np.float32)
    # per row, an f32 scale at bf16 column cols-8 and an f32 bias at cols-4
    raw = data.copy()
    raw[:, cols - 8:cols - 6] = scale.view(np.uint16).reshape(rows, 2)
    raw[:, cols - 4:cols - 2] = bias.view(np.uint16).reshape(rows, 2)
    idx = RNG.integers(0, rows, n_idx).astype(np.int32)
    lengths = np.full(n_seg, n_idx // n_seg, np.int32)
    lengths[-1] = n_idx - lengths[:-1].sum()
    out_cols = cols - 8
    got = tpc.run(obj, inputs=[(raw, "bf16"), idx, lengths],
                  outputs=[((n_seg, out_cols), np.float32)],
                  index_space=[ceil(out_cols, 128), ceil(n_seg, 2)])[0]
    vals = from_bf16(data[:, :out_cols]).astype(np.float64)
    want = np.zeros((n_seg, out_cols), np.float32)
    k = 0
    for seg in range(n_seg):
        for _ in range(lengths[seg]):
            r = idx[k]
            k += 1
            fma = (vals[r] * scale[r] + bias[r]).astype(np.float32)   # one rounding
            want[seg] = want[seg] + fma
    return got, want, 0


POOL = dict(pad=1, k=3, stride=1, dil=1)       # the library's test: 3x3, pad 1, stride 1


def recip_table(k):
    """The glue's auxiliary tensor: 1/i for i = 1..k*k, 0 at 0."""
    t = np.zeros(k * k + 1, np.float32)
    t[1:] = (1.0 / np.arange(1, k * k + 1, dtype=np.float64)).astype(np.float32)
    return t


def avg_pool(obj, bwd):
    d, w, h, bt = 100, 5, 5, 1
    k, pad = POOL["k"], POOL["pad"]
    ifm = (np.arange(d * w * h * bt) % 9).astype(np.float32).reshape(np_shape([d, w, h, bt]))
    tab = recip_table(k)
    if not bwd:   # the glue's output size: (in + pad - k*dil) / stride
        ow, oh = (w + pad - k) // 1, (h + pad - k) // 1
    else:         # in * stride - pad + k*dil
        ow, oh = w - pad + k, h - pad + k
    iw, ih = (ow, oh) if not bwd else (ow, oh)   # the glue's index space is the output's
    args = (pad, pad, k, k, 1, 1, 1, 1) + (() if bwd else (1,))   # include_pads = 1
    # tensors ifm (input), ofm (output), reciprocal table (input): descriptors 0, 2, 1
    got = tpc.run(obj, inputs=[ifm, tab], outputs=[(np_shape([d, ow, oh, bt]), np.float32)],
                  index_space=[ceil(d, 64), iw, ih, bt], args=args, descriptors=(0, 2, 1))[0]
    want = np.zeros(np_shape([d, ow, oh, bt]), np.float32)
    if not bwd:
        for y in range(oh):
            for x in range(ow):
                acc = np.zeros(d, np.float32)
                for j in range(k):
                    for i in range(k):
                        yy, xx = y - pad + j, x - pad + i
                        if 0 <= yy < h and 0 <= xx < w:
                            acc = acc + ifm[0, yy, xx]
                want[0, y, x] = acc * tab[k * k]   # include_pads: k*k pixels
    else:         # the kernel's order: each index point adds its share to k*k outputs
        for y in range(ih):
            for x in range(iw):
                prop = ifm[0, y, x] if y < h and x < w else np.zeros(d, np.float32)
                hs, ws = y - pad, x - pad
                area = (min(hs + k, oh) - max(hs, 0)) * (min(ws + k, ow) - max(ws, 0))
                share = prop * tab[area]
                for j in range(k):
                    for i in range(k):
                        yy, xx = hs + j, ws + i
                        if 0 <= yy < oh and 0 <= xx < ow:
                            want[0, yy, xx] = want[0, yy, xx] + share
    return got, want, 1e-6


KERNELS["avg_pool_2d_fwd_f32"] = lambda obj: avg_pool(obj, False)
KERNELS["avg_pool_2d_bwd_f32"] = lambda obj: avg_pool(obj, True)


# Kernels this test does not launch, and why (reported as TAP TODO).
NOT_LAUNCHED = {}


# ---- driver ----

def compare(got, want, tol):
    got = np.asarray(got, np.float64)
    want = np.asarray(want, np.float64)
    abs_err = float(np.max(np.abs(got - want))) if got.size else 0.0
    den = np.maximum(np.abs(want), np.finfo(np.float32).tiny)
    rel_err = float(np.max(np.abs(got - want) / den)) if got.size else 0.0
    ok = got.shape == want.shape and bool(np.all(np.abs(got - want) <= tol)) and \
        not np.any(np.isnan(got) != np.isnan(want))
    return ok, abs_err, rel_err


def doc_blocks(page):
    """The code blocks of a docs page: [(language, text)]."""
    out, lang, buf = [], None, None
    with open(page) as f:
        for line in f.read().splitlines() + [""]:
            if buf is not None:
                if line.startswith("   ") or not line.strip():
                    buf.append(line[3:])
                    continue
                out.append((lang, "\n".join(buf).strip() + "\n"))
                buf = None
            if line.startswith(".. code-block:: "):
                lang, buf = line.split()[-1], []
    if buf is not None:
        out.append((lang, "\n".join(buf).strip() + "\n"))
    return out


def check_doc_example(i):
    """docs/tpc-vendor-kernels.rst's commands, as written, from a repository
    root with the vendor's files beside it."""
    root = tempfile.mkdtemp(prefix="nxemu-vdoc-")
    os.symlink(os.path.dirname(VENDOR), os.path.join(root, "shared"))
    cwd = os.path.join(root, "repo")
    os.mkdir(cwd)
    env = dict(os.environ)
    lib = os.environ.get("NXEMU_LIBRARY", "")
    tools = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(lib))), "tools")
    # python3 in the commands is this test's interpreter (the one with numpy)
    pybin = os.path.join(root, "bin")
    os.mkdir(pybin)
    os.symlink(sys.executable, os.path.join(pybin, "python3"))
    env["PATH"] = os.pathsep.join([pybin, tools, env.get("PATH", "")])
    env["PYTHONPATH"] = os.path.join(SRC, "python")
    for k in ("NXEMU_LIBRARY", "NXEMU_TPC_LAUNCHER"):
        if env.get(k):
            env[k] = os.path.abspath(env[k])
    out = ""
    for lang, text in doc_blocks(os.path.join(SRC, "docs", "tpc-vendor-kernels.rst")):
        cmd = ["bash", "-e", "-c", text] if lang == "sh" else [sys.executable, "-c", text]
        r = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
        if r.returncode:
            print(f"not ok {i} - docs/tpc-vendor-kernels.rst {lang} block: {r.stderr.strip()}")
            return False
        out += r.stdout
    y = np.fromfile(os.path.join(cwd, "y.bin"), np.float32)
    x = np.fromfile(os.path.join(cwd, "x.bin"), np.float32)
    ok = "max abs error 8.4e-08" in out and np.abs(y - np.sin(x.astype(np.float64))).max() < 1e-6
    print(f"{'ok' if ok else 'not ok'} {i} - docs/tpc-vendor-kernels.rst commands run as "
          f"written: {out.strip()}")
    return ok


def main():
    names = sorted(os.path.basename(f)[:-2] for f in os.listdir(os.path.join(LIB, "kernels", "gaudi"))
                   if f.endswith(".c"))
    if ONLY:
        names = [n for n in names if n in ONLY]
    rows, failed = [], 0
    print(f"1..{len(names) + 1}")
    t0 = time.monotonic()
    for i, name in enumerate(names, 1):
        obj, err = compile_kernel(name)
        if obj is None:
            rows.append((name, "no: " + err, "-", "-"))
            print(f"ok {i} - {name} # SKIP the vendor's compiler rejects it: {err}")
            continue
        fn = KERNELS.get(name)
        if fn is None:
            why = NOT_LAUNCHED.get(name, "no launch description in this test yet")
            rows.append((name, "yes", "not launched", why))
            print(f"not ok {i} - {name} # TODO not launched: {why}")
            continue
        global RNG
        RNG = np.random.default_rng(zlib.crc32(name.encode()))   # each kernel its own inputs
        try:
            got, want, tol = fn(obj)
        except tpc.Error as e:
            rows.append((name, "yes", f"no: {str(e).splitlines()[0]}", "-"))
            print(f"not ok {i} - {name}: {e}")
            failed += 1
            continue
        ok, ea, er = compare(got, want, tol)
        rows.append((name, "yes", "yes", f"{'yes' if ok else 'NO'} (abs {ea:.3g}, rel {er:.3g}, "
                     f"tolerance {tol:g})"))
        print(f"{'ok' if ok else 'not ok'} {i} - {name}: max abs err {ea:.3g}, rel {er:.3g} "
              f"(tolerance {tol:g})")
        failed += not ok
    print(f"# {len(names)} kernels in {time.monotonic() - t0:.1f} s")
    failed += not check_doc_example(len(names) + 1)
    if TABLE:
        w = [max(len(r[k]) for r in rows + [("kernel", "compiles", "runs", "matches")])
             for k in range(4)]
        line = "  ".join("=" * x for x in w)
        print(line)
        print("  ".join(h.ljust(x) for h, x in zip(("kernel", "compiles", "runs", "matches"), w)))
        print(line)
        for r in rows:
            print("  ".join(c.ljust(x) for c, x in zip(r, w)))
        print(line)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
