#!/usr/bin/env python3
"""Generate nxemu's TPC lookup tables (target/tpc/lut.c, docs/tpc-lut.rst):
tpc-lut-gen.py OUTPUT.h

Two kinds of table, each entry three 32-bit columns C0, C1, C2 (LOOKUP_1C
returns C0, LOOKUP_2C the pair C1, C2):

- exact: the shuffle patterns of the compiler's vector reductions (function
  ids 282, 140, 141), derived from what each reduction step must compute
  (a butterfly: step k exchanges elements whose index differs in bit k);
- fitted: one quadratic c0 + c1*v + c2*v*v per interval of the special
  functions, v = x - interval start, fitted here (Chebyshev nodes, then c0
  re-centred on the f32-rounded c1, c2) to the function the vendor's code
  around the lookup expects for that interval.  The coefficients are
  nxemu's own, not Habana's firmware.

Pure Python (no numpy): it runs at build time on any host."""
import math
import struct
import sys


def f32(x):
    """Round a Python float to the nearest f32 (round half even)."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def fit(f, a, h):
    """Quadratic in v on [0, h) for f(a + v): (c0, c1, c2) as f32 values."""
    nodes = [h / 2 * (1 - math.cos(math.pi * (2 * k + 1) / 6)) for k in range(3)]
    ys = [f(a + v) for v in nodes]
    # Newton divided differences, then expand to monomials in v
    d1 = (ys[1] - ys[0]) / (nodes[1] - nodes[0])
    d2 = (ys[2] - ys[1]) / (nodes[2] - nodes[1])
    c2 = (d2 - d1) / (nodes[2] - nodes[0])
    c1 = d1 - c2 * (nodes[0] + nodes[1])
    c2, c1 = f32(c2), f32(c1)
    # c0 centres the residual of the rounded c1, c2 (minimax in c0)
    lo, hi = math.inf, -math.inf
    for k in range(65):
        v = h * k / 64
        r = f(a + v) - (c1 * v + c2 * v * v)
        lo, hi = min(lo, r), max(hi, r)
    return f32((lo + hi) / 2), c1, c2


# ---- the special functions: what each entry approximates ----
# (the layout follows the interval selection of get_lut_entry_and_interval_start,
# docs/tpc-lut.rst: default variant: entry = top m mantissa bits; sqrt_rsqrt:
# + 2^m when the exponent is odd; sin_cos / tanh below 1: entry = x * 2^m
# (fixed point); tanh from 1: 2^m + 2^m * octave + top m mantissa bits)


def sinc(t):
    return math.sin(t) / t if t else 1.0


def tanhc(t):
    return math.tanh(t) / t if t else 1.0


def log2c(t):
    return math.log2(t) / (t - 1) if t != 1 else 1 / math.log(2)


def mantissa_block(f, m, scale=1.0):
    """2^m intervals of [scale, 2*scale): entry j = [scale*(1+j/2^m), ...)."""
    n = 1 << m
    return [fit(f, scale * (1 + j / n), scale / n) for j in range(n)]


def fixed_block(f, m):
    """2^m intervals of [0, 1): entry j = [j/2^m, (j+1)/2^m)."""
    n = 1 << m
    return [fit(f, j / n, 1 / n) for j in range(n)]


SPECIAL = [
    # id, name, m, variant, builder, what it approximates (docs)
    (0, "tanh", 6, "tanh",
     lambda: fixed_block(tanhc, 6) + sum((mantissa_block(math.tanh, 6, 2.0**e)
                                          for e in range(4)), []),
     "tanh(x)/x on [0,1) (64 fixed-point intervals), tanh(x) on [1,16) (64 per octave)"),
    (1, "rsqrt", 7, "sqrt_rsqrt",
     lambda: mantissa_block(lambda t: 1 / math.sqrt(t), 7) +
     mantissa_block(lambda t: 1 / math.sqrt(t), 7, 2.0),
     "1/sqrt(x) on [1,2) then [2,4), 128 intervals each"),
    (2, "log2", 7, "default",
     lambda: mantissa_block(log2c, 7) + mantissa_block(math.log2, 7),
     "log2(x)/(x-1) on [1,2) (entries 0..127), log2(x) on [1,2) (entries 128..255)"),
    (128, "sqrt", 6, "sqrt_rsqrt",
     lambda: mantissa_block(math.sqrt, 6) + mantissa_block(math.sqrt, 6, 2.0),
     "sqrt(x) on [1,2) then [2,4), 64 intervals each"),
    (129, "rcp", 7, "default",
     lambda: mantissa_block(lambda t: 1 / t, 7),
     "1/x on [1,2), 128 intervals"),
    (130, "sin_cos", 6, "sin_cos",
     lambda: fixed_block(sinc, 6) + fixed_block(math.cos, 6),
     "sin(x)/x (entries 0..63) and cos(x) (entries 64..127) on [0,1), 64 fixed-point intervals"),
    (256, "pow2", 6, "default",
     lambda: mantissa_block(lambda t: 2.0**(t - 1), 6),
     "2^(x-1) on [1,2), 64 intervals"),
]


# ---- the reductions' shuffle patterns (exact) ----
# SHUFFLE control byte of a destination element: bits 4:0 source element in
# its group, bit 5 source group, bit 7 enable.  A group is 32 bytes.


def pat(k, esize, d):
    per_group = 32 // esize
    g = (k * esize % 64) // 32
    return 0x80 | g << 5 | ((k % per_group) ^ d)


def lane_word(lane, esize, d):
    """32-bit entry for lookup lane `lane`: the control bytes of the elements
    of that lane (the low byte of each element)."""
    w = 0
    for j in range(4 // esize):
        w |= pat(lane * (4 // esize) + j, esize, d) << (8 * j * esize)
    return w


def reduction(esize):
    steps = {4: [1, 2, 4], 2: [1, 2, 4, 8], 1: [1, 2, 4, 8, 16]}[esize]
    if esize == 4:  # C0 = step 1, C1, C2 = steps 2, 3
        return [(lane_word(i, 4, 1), lane_word(i, 4, 2), lane_word(i, 4, 4)) for i in range(64)]
    if esize == 2:  # entries i: C1, C2 = steps 1, 2; entries 64+i: steps 3, 4
        return ([(0, lane_word(i, 2, 1), lane_word(i, 2, 2)) for i in range(64)] +
                [(0, lane_word(i, 2, 4), lane_word(i, 2, 8)) for i in range(64)])
    assert steps
    return ([(lane_word(i, 1, 1), lane_word(i, 1, 2), lane_word(i, 1, 4)) for i in range(64)] +
            [(0, lane_word(i, 1, 8), lane_word(i, 1, 16)) for i in range(64)])


REDUCTIONS = [(282, "reduce32", 4), (140, "reduce16", 2), (141, "reduce8", 1)]

VARIANT = {"default": 0, "tanh": 1, "sqrt_rsqrt": 2, "sin_cos": 3}


def main():
    out = []
    w = out.append
    w("/* Generated by scripts/tpc-lut-gen.py at build time: do not edit. */")
    tables = []
    for fid, name, m, var, build, what in SPECIAL:
        rows = build()
        w(f"static const uint32_t tpc_lut_{name}[{len(rows)}][3] = {{")
        for c0, c1, c2 in rows:
            w(f"    {{0x{bits(c0):08x}u, 0x{bits(c1):08x}u, 0x{bits(c2):08x}u}},")
        w("};")
        tables.append((fid, name, len(rows), m, VARIANT[var], 1, what))
    for fid, name, e in REDUCTIONS:
        rows = reduction(e)
        w(f"static const uint32_t tpc_lut_{name}[{len(rows)}][3] = {{")
        for r in rows:
            w("    {" + ", ".join(f"0x{x:08x}u" for x in r) + "},")
        w("};")
        tables.append((fid, name, len(rows), 0, 0, 0,
                       f"shuffle patterns of the {8 * e}-bit reductions (exact)"))
    w("static const TpcLutTable tpc_lut_tables[] = {")
    for fid, name, n, m, var, fitted, what in sorted(tables):
        w(f'    {{{fid}, {n}, {m}, {var}, {fitted}, "{name}", tpc_lut_{name}}}, /* {what} */')
    w("};")
    with open(sys.argv[1], "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
