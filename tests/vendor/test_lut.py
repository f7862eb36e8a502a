#!/usr/bin/env python3
"""Accuracy of nxemu's TPC lookup tables (docs/tpc-lut.rst), in f32 ulp.

1. The tables alone: a hand-written kernel per fitted function (nxemu's
   assembler) runs GET_LUT_ENTRY_AND_INTERVAL_START, LOOKUP_1C/2C and the
   quadratic c0 + (c1 + c2*v)*v that the vendor's code evaluates, over a
   dense f32 grid of the table's domain; the result is compared with the
   function in float64.
2. The vendor's special functions (tpc-clang's v_exp_f32, v_sin_f32, ...,
   built into its compiler, whose code surrounds the lookups) over each
   function's domain, when ../shared/vendor is present.
3. The compiler's vector reductions (v_f32_reduce_add, ...: the exact
   shuffle-pattern tables) on every type the compiler offers, when
   ../shared/vendor is present.

TAP; the limits asserted are the ones docs/tpc-lut.rst states.  Skips (77)
without numpy.  usage: test_lut.py SRCROOT [--table]
"""
import os
import subprocess
import sys
import tempfile

SRC = os.path.abspath(sys.argv[1])
TABLE = "--table" in sys.argv[2:]
VENDOR = os.path.join(os.path.dirname(SRC), "shared", "vendor")
try:
    import numpy as np
except ImportError:
    print("1..0 # SKIP numpy is not installed (python3-numpy)")
    sys.exit(77)
sys.path.insert(0, os.path.join(SRC, "python"))
from nxemu import tpc  # noqa: E402

HAVE_VENDOR = os.path.isdir(os.path.join(VENDOR, "tpc-llvm"))
TMP = tempfile.mkdtemp(prefix="nxemu-lut-")
N_OK = [0]
FAILED = [0]
ROWS = []


def tap(ok, what, skip=None):
    N_OK[0] += 1
    if skip:
        print(f"ok {N_OK[0]} - {what} # SKIP {skip}")
        return
    print(f"{'ok' if ok else 'not ok'} {N_OK[0]} - {what}")
    FAILED[0] += not ok


def ulp_err(got, want):
    """|got - want| in units of the f32 spacing at want (float64 want)."""
    w32 = np.abs(want).astype(np.float32)
    sp = np.spacing(np.maximum(w32, np.finfo(np.float32).tiny)).astype(np.float64)
    return np.abs(got.astype(np.float64) - want) / sp


def run_1d(obj, x):
    """Run a 1-D f32 kernel (tensor 0 in, tensor 1 out, 64 lanes per index)."""
    n = x.size
    return tpc.run(obj, inputs=[x], outputs=[((n,), np.float32)],
                   index_space=[(n + 63) // 64])[0]


# ---- 1. the tables alone ----
TABLE_KERNEL = """
nop; mov_irf_dim 0x0 S10, I0; nop; nop
nop; mov_irf_dim 0x0 S11, I1; nop; nop
nop; add.i32 S11, S11, S10; nop; nop
loop S10, S11, 1, <, End0
nop
nop; mul.i32 S20, S32, 0x40; nop; nop
nop; set_indx I2, b00001, S20; nop; nop
ld_tnsr V1, 0x0, I2; nop; nop; nop
nop; nop; get_lut_entry_and_interval_start.f32 {variant} D2, V1, {shift}; nop
nop; nop; add.i32 V2, V2, {offset}; nop
nop; nop; sub.f32 V4, V1, V3; nop
lookup_1c BV32 V5, V2, {fid}; nop; nop; nop
lookup_2c BV32 D6, V2, {fid}; nop; nop; nop
nop; nop; mac.f32 V6, V7, V4; nop
nop; nop; mac.f32 V5, V6, V4; nop
nop; nop; nop; st_tnsr 0x1, I2, V5
End0:
nop
halt
nop
nop
nop
"""


def grid(lo, hi, n=1 << 16):
    x = np.linspace(lo, hi, n, endpoint=False).astype(np.float32)
    return x[(x >= lo) & (x < hi)]


def sinc(t):
    return np.where(t == 0, 1.0, np.sin(t) / np.where(t == 0, 1, t))


def tanhc(t):
    return np.where(t == 0, 1.0, np.tanh(t) / np.where(t == 0, 1, t))


def log2c(t):
    return np.where(t == 1, 1 / np.log(2), np.log2(t) / np.where(t == 1, 2, t - 1))


# name, function id, shift, variant, entry offset, domain, f, ulp limit
TABLES = [
    ("pow2: 2^(x-1)", 0x100, 17, "", 0, (1, 2), lambda t: 2.0 ** (t - 1), 2),
    ("rcp: 1/x", 0x81, 16, "", 0, (1, 2), lambda t: 1 / t, 2),
    ("sqrt", 0x80, 17, "sqrt_rsqrt", 0, (1, 4), np.sqrt, 2),
    ("rsqrt: 1/sqrt(x)", 0x1, 16, "sqrt_rsqrt", 0, (1, 4), lambda t: 1 / np.sqrt(t), 2),
    ("sin(x)/x", 0x82, 17, "sin_cos", 0, (0, 1), sinc, 2),
    ("cos", 0x82, 17, "sin_cos", 64, (0, 1), np.cos, 2),
    ("tanh(x)/x below 1", 0x0, 17, "tanh", 0, (0, 1), tanhc, 2),
    ("tanh from 1 to 16", 0x0, 17, "tanh", 0, (1, 16), np.tanh, 2),
    ("log2(x)/(x-1)", 0x2, 16, "", 0, (1, 2), log2c, 2),
    ("log2", 0x2, 16, "", 128, (1, 2), np.log2, 3),
]


def check_tables():
    for name, fid, shift, variant, offset, (lo, hi), f, lim in TABLES:
        src = TABLE_KERNEL.format(variant=variant, shift=hex(shift), offset=hex(offset),
                                  fid=hex(fid))
        obj = tpc.assemble(src, name="lut-" + str(fid))
        x = grid(lo, hi)
        got = run_1d(obj, x)
        want = f(x.astype(np.float64))
        e = ulp_err(got, want)
        if name == "log2":   # log2 -> 0 at 1: the absolute error near 1, in ulp of 1
            e = np.abs(got - want) / np.spacing(np.float32(1))
        m = float(e.max())
        ROWS.append(("table " + name, f"[{lo}, {hi})", x.size, m, lim))
        tap(m <= lim, f"table {name} (id {fid:#x}) on [{lo}, {hi}): max {m:.2f} ulp (limit {lim})")


FAULTS = [
    # instruction, text the fault line must carry
    ("lookup_1c BV32 V5, V2, 0x5; nop; nop; nop",
     "code=UNIMPLEMENTED(4) info=0x00050900 pc=0x00000020",
     "(lookup function 0x5: no table, nothing public identifies it)"),
    ("lookup_2c BV32 D6, V2, 0x18f; nop; nop; nop",
     "code=UNIMPLEMENTED(4) info=0x018f0700 pc=0x00000020",
     "(lookup function 0x18f: no table, nothing public identifies it)"),
    ("lookup_1c BV16 V5, V2, 0x81; nop; nop; nop",
     "code=UNIMPLEMENTED(4)", "(lookup function 0x81: BV16 data has no public table layout)"),
    ("nop; nop; get_lut_entry_and_interval_start.f32 log D4, V2, 0x10; nop",
     "code=UNIMPLEMENTED(4) info=0x00042f02",
     "(get_lut_entry_and_interval_start: function variant 4 has no public interval selection)"),
]


def check_faults():
    """Ids nothing public identifies (0x5; 0x18f = e_bf16_rcp_linear_m2, named but
    with no public layout), BV16 data and the log variant fault UNIMPLEMENTED,
    the fault line naming what."""
    for insn, head, note in FAULTS:
        src = f"nop; nop; mov.i32 V2, 0x3; nop\n{insn}\nhalt\nnop\nnop\nnop\n"
        try:
            tpc.run(tpc.assemble(src), index_space=(1,))
            msg = "(no fault)"
        except tpc.Error as e:
            msg = str(e)
        what = next(p.strip() for p in insn.split(';') if p.strip() != 'nop')
        tap(head in msg and msg.endswith(note), f"{what}: {msg}")


COPY_KERNEL = """
nop; nop; nop; nop
ld_tnsr V1, 0x0, I0; nop; nop; nop
nop; nop; add.f32 V2, V1, 0x3f800000; nop
nop; nop; nop; st_tnsr 0x1, I0, V2
halt
nop
nop
nop
"""


def check_descriptors():
    """--descriptors / descriptors=: tensor k of the -i/-o list becomes
    descriptor D[k] (the vendor's avg_pool glue puts an input after its
    output); anything but a permutation is a usage error naming the option."""
    obj = tpc.assemble(COPY_KERNEL, name="copy")
    x = np.arange(64, dtype=np.float32)
    y = tpc.run(obj, inputs=[x, x * 0], outputs=[((64,), np.float32)], index_space=(1,),
                descriptors=(0, 2, 1))[0]
    # descriptor 1 is the output: out = x + 1; descriptor 2 (the zeros) unused
    tap(np.array_equal(y, x + 1), "descriptors=(0, 2, 1): the output is descriptor 1")
    y = tpc.run(obj, inputs=[x, x + 10], outputs=[((64,), np.float32)], index_space=(1,))[0]
    tap(np.array_equal(y, np.zeros(64, np.float32)), "without: the output is descriptor 2")
    try:
        tpc.run(obj, inputs=[x, x], outputs=[((64,), np.float32)], index_space=(1,),
                descriptors=(0, 0, 1))
        msg = "(no error)"
    except tpc.Error as e:
        msg = str(e)
    tap("--descriptors: expected a permutation of 0..2" in msg, f"descriptors=(0, 0, 1): {msg}")


# ---- 2. the vendor's special functions ----
FN_KERNEL = """
void main(tensor in, tensor out)
{
    const int5 s = get_index_space_offset();
    const int5 e = get_index_space_size() + s;
    for (int d = s[0] * 64; d < e[0] * 64; d += 64) {
        int5 c = {d, 0, 0, 0, 0};
        float64 x = v_f32_ld_tnsr_b(c, in);
        v_f32_st_tnsr(c, out, FN(x));
    }
}
"""

# function, domain (f32 values), reference, measure: "ulp" or "abs", limit
FUNCS = [
    ("v_exp_f32", (-87.0, 88.0), np.exp, "ulp", 3),
    ("v_pow2_f32", (-125.0, 127.0), np.exp2, "ulp", 3),
    ("v_reciprocal_f32", (2.0 ** -125, 2.0 ** 125), lambda x: 1 / x, "ulp", 2),
    ("v_sqrt_f32", (2.0 ** -125, 2.0 ** 125), np.sqrt, "ulp", 2),
    ("v_rsqrt_f32", (2.0 ** -125, 2.0 ** 125), lambda x: 1 / np.sqrt(x), "ulp", 2),
    ("v_sin_f32", (-100.0, 100.0), np.sin, "abs", 3e-7),
    ("v_cos_f32", (-100.0, 100.0), np.cos, "abs", 3e-7),
    ("v_tanh_f32", (-10.0, 10.0), np.tanh, "ulp", 3),
]


def fn_inputs(lo, hi, n=1 << 15):
    rng = np.random.default_rng(35)
    if lo > 0 and hi / lo > 1e6:   # log-uniform over many octaves
        x = np.exp(rng.uniform(np.log(lo), np.log(hi), n))
        x = np.concatenate([x, -x[: n // 4]])
    else:
        x = rng.uniform(lo, hi, n)
    return x.astype(np.float32)


def check_functions():
    if not HAVE_VENDOR:
        for fn, *_ in FUNCS:
            tap(True, fn, skip=f"{VENDOR} is absent (tpc-clang)")
        return
    tools = subprocess.run([os.path.join(VENDOR, "tpc-llvm", "unpack.sh")], capture_output=True,
                           text=True, check=True).stdout.strip()
    for fn, (lo, hi), ref, how, lim in FUNCS:
        c = os.path.join(TMP, fn + ".c")
        with open(c, "w") as f:
            f.write(FN_KERNEL.replace("FN", fn))
        obj = os.path.join(TMP, fn + ".o")
        subprocess.run([os.path.join(tools, "clang"), "-target", "tpc", "-march=gaudi", "-O2",
                        "-c", c, "-o", obj], check=True)
        x = fn_inputs(lo, hi)
        got = run_1d(obj, x)
        with np.errstate(invalid="ignore"):
            want = ref(x.astype(np.float64))
        if fn in ("v_reciprocal_f32", "v_rsqrt_f32", "v_sqrt_f32"):
            # negative inputs: -1/|x| for the reciprocal, NaN (left out) for the roots
            want = np.where(x < 0, -1 / np.abs(x.astype(np.float64))
                            if fn == "v_reciprocal_f32" else np.nan, want)
            keep = ~np.isnan(want)
            got, want, x = got[keep], want[keep], x[keep]
        if how == "ulp":
            m = float(ulp_err(got, want).max())
        else:
            m = float(np.abs(got - want).max())
        ROWS.append((fn, f"[{lo:g}, {hi:g}]", x.size, m, lim))
        unit = "ulp" if how == "ulp" else "abs"
        tap(m <= lim, f"{fn} on [{lo:g}, {hi:g}]: max error {m:.3g} {unit} (limit {lim:g})")


# ---- 3. the reductions ----
RED_KERNEL = """
void main(tensor in, tensor out)
{
    int5 c = {0};
    VT x = v_T_ld_tnsr_b(c, in);
    x = v_T_reduce_OP(x);
    v_T_st_tnsr(c, out, x);
}
"""
ARG_KERNEL = """
void main(tensor in, tensor out, tensor idx)
{
    int5 c = {0};
    VT x = v_T_ld_tnsr_b(c, in);
    uint64_VT_pair_t y = v_T_reduce_OP(x);
    v_T_st_tnsr(c, out, y.v2);
    v_u32_st_tnsr(c, idx, y.v1);
}
"""
# type, vector type, numpy type, lanes, ops the compiler offers (gaudi)
REDS = [
    ("f32", "float64", np.float32, 64, ["add", "mul", "min", "max", "argmin", "argmax"]),
    ("i32", "int64", np.int32, 64, ["add", "max", "argmin", "argmax"]),
    ("u32", "uint64", np.uint32, 64, ["add"]),
    ("bf16", "bfloat128", np.uint16, 128, ["add", "min", "max"]),
    ("i16", "short128", np.int16, 128, ["min", "max"]),
    ("u16", "ushort128", np.uint16, 128, ["add"]),
    ("i8", "char256", np.int8, 256, ["min", "max"]),
    ("u8", "uchar256", np.uint8, 256, ["min", "max"]),
]


def bf16_val(b):
    return (b.astype(np.uint32) << 16).view(np.float32)


def check_reductions():
    if not HAVE_VENDOR:
        tap(True, "reductions", skip=f"{VENDOR} is absent (tpc-clang)")
        return
    tools = subprocess.run([os.path.join(VENDOR, "tpc-llvm", "unpack.sh")], capture_output=True,
                           text=True, check=True).stdout.strip()
    rng = np.random.default_rng(7)
    for t, vt, npt, n, ops in REDS:
        for op in ops:
            arg = op.startswith("arg")
            src = (ARG_KERNEL if arg else RED_KERNEL).replace("VT", vt).replace("v_T", "v_" + t)
            src = src.replace("OP", op)
            c = os.path.join(TMP, f"red_{t}_{op}.c")
            with open(c, "w") as f:
                f.write(src)
            obj = c[:-2] + ".o"
            subprocess.run([os.path.join(tools, "clang"), "-target", "tpc", "-march=gaudi",
                            "-O2", "-c", c, "-o", obj], check=True)
            bad = []
            for trial in range(4):
                if t == "bf16":
                    x = (rng.permutation(n).astype(np.float32) - 40).view(np.uint32)
                    x = (x >> 16).astype(np.uint16)
                    v = bf16_val(x).astype(np.float64)
                elif t == "f32":
                    x = (rng.permutation(n) - 20).astype(np.float32) if op != "mul" else \
                        rng.choice([0.5, 1, 2, -1], n).astype(np.float32)
                    v = x.astype(np.float64)
                else:
                    info = np.iinfo(npt)
                    x = rng.permutation(n) if arg else rng.integers(info.min, info.max, n,
                                                                    endpoint=True)
                    x = x.astype(npt)
                    v = x.astype(np.int64)
                outs = [((n,), "bf16" if t == "bf16" else npt)]
                if arg:
                    outs.append(((n,), np.uint32))
                ins = [(x, "bf16")] if t == "bf16" else [x]
                r = tpc.run(obj, inputs=ins, outputs=outs, index_space=(1,))
                got = bf16_val(r[0]).astype(np.float64) if t == "bf16" else \
                    r[0].astype(np.float64)
                if op == "add":
                    want = v.sum()
                    if t not in ("f32", "bf16"):   # integer wraparound of the lane type
                        mask = (1 << 8 * np.dtype(npt).itemsize) - 1
                        want = float(np.array(int(want) & mask, np.uint64).astype(npt))
                elif op == "mul":
                    want = np.prod(v)
                elif op in ("min", "argmin"):
                    want = v.min()
                else:
                    want = v.max()
                tol = 0 if t != "bf16" or op != "add" else abs(want) * 2.0 ** -7
                ok = np.all(got == got[0]) and abs(got[0] - want) <= tol
                if arg:
                    wi = int(np.argmin(v) if op == "argmin" else np.argmax(v))
                    ok = ok and bool(np.all(r[1][:64] == wi))
                if not ok:
                    bad.append(f"got {got[:2]} want {want}")
            tap(not bad, f"v_{t}_reduce_{op}: every lane holds the reduction of the {n} "
                f"lanes" + (f" ({bad[0]})" if bad else ""))


def main():
    print(f"1..{len(TABLES) + len(FAULTS) + 3 + len(FUNCS) + (sum(len(r[4]) for r in REDS) if HAVE_VENDOR else 1)}")
    check_tables()
    check_faults()
    check_descriptors()
    check_functions()
    check_reductions()
    if TABLE:
        print("function | domain | points | max error | limit")
        for r in ROWS:
            print(f"{r[0]} | {r[1]} | {r[2]} | {r[3]:.3g} | {r[4]:g}")
    return 1 if FAILED[0] else 0


if __name__ == "__main__":
    sys.exit(main())
