#!/bin/sh
# TPC execution speed on realistic kernel shapes (issue #12), each against
# the same algorithm in native C compiled (-O2 -march=native) and run in the
# same invocation:
#  - mac8:    8 independent mac.f32 V,V,V chains of K steps per 64-lane vector
#  - softmax: column softmax: max, polynomial exp with mac, sum, Newton
#             reciprocal, scale (three passes over the column)
#  - gemm:    4x4 tile: out[4y+i] = sum_k A[i][k] * B[4y+k], A in S0..S15
#  - lrelu:   leaky ReLU with a VP-predicated mul, sel clamping to S1 on odd
#             rows, and a jmpr on the row's parity skipping the clamp
#  - stream:  out = a + S0 by ld_tnsr -> add.f32 -> st_tnsr, software-pipelined
#             as bench/tpc-stream.sh's "pipelined" schedule (2 bundles per
#             vector), on the same bytes laid out 4096 floats wide; S1 passes.
#             Its figure is one pass over memory already touched: (run with
#             1+P passes - run with 1 pass) / P, median of REPEAT pairs, and
#             besides the native C twin it is set against memcpy of the same
#             bytes (best of REPEAT, warm) in this invocation (goal >= 0.8x)
# Every output is compared bit for bit with the native one (the same
# operations in the same order: fused MACs, so the results are identical).
# Prints per kernel: bundles, bundles/s, host cycles per bundle (CPU time x
# the clock of a dependent add chain timed in this run) and the ratio of
# the emulated run's CPU time to the native one's.  Both are warm in the
# same way: the native twin is the best of REPEAT runs over the same output
# buffer, and nxemu-tpc-run backs its output tensors before the run
# (as_populate), so neither counts the host's first touches of the output.
# With CALLGRIND=1 it instead prints host instructions per bundle under
# valgrind (repeatable on a loaded machine): the difference of two runs of
# different sizes over the difference of their bundles, so start-up cancels.
# With PROFILE=1 it prints each kernel's --tpc-timing interlocked profile
# summary (docs/timing.rst) and its five costliest bundles, on W x H.
# usage: sh bench/tpc-kernels.sh BUILD_DIR   (W, H: tensor shape, default
# 1024 x 4096 f32 = 16 MiB; REPEAT: native repeats, default 3)
set -eu
B=${1:-build}
CC=${CC:-cc}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# common prologue: S16..S17 = dim 0 range, S18..S19 = dim 1 range (S0..S15 are
# the kernels' arguments)
PRO='nop; mov_irf_dim 0x0 S16, I0; nop; nop
nop; mov_irf_dim 0x0 S17, I1; nop; nop
nop; mov_irf_dim 0x1 S18, I0; nop; nop
nop; mov_irf_dim 0x1 S19, I1; nop; nop
nop; add.i32 S17, S17, S16; nop; nop
nop; add.i32 S19, S19, S18; nop; nop'
EPI='halt
nop
nop
nop'
{
echo "$PRO"
cat <<'ASM'
// mac8: out = sum of 8 chains acc_k = fma(x, c_(k&1), acc_k), K = S2 steps
nop; nop; mov.f32 V9, S0; nop
nop; nop; mov.f32 V10, S1; nop
loop S18, S19, 1, <, End1
nop
nop; set_indx I2, b00010, S32; nop; nop
loop S16, S17, 1, <, End0
nop
nop; mul.i32 S20, S33, 0x40; nop; nop
nop; set_indx I2, b00001, S20; nop; nop
ld_tnsr V8, 0x0, I2; nop; mov.f32 V0, 0x0; nop
nop; nop; mov.f32 V1, 0x0; nop
nop; nop; mov.f32 V2, 0x0; nop
nop; nop; mov.f32 V3, 0x0; nop
nop; nop; mov.f32 V4, 0x0; nop
nop; nop; mov.f32 V5, 0x0; nop
nop; nop; mov.f32 V6, 0x0; nop
nop; nop; mov.f32 V7, 0x0; nop
loop 0x0, S2, 1, <, EndK
nop
nop; nop; mac.f32 V0, V8, V9; nop
nop; nop; mac.f32 V1, V8, V10; nop
nop; nop; mac.f32 V2, V8, V9; nop
nop; nop; mac.f32 V3, V8, V10; nop
nop; nop; mac.f32 V4, V8, V9; nop
nop; nop; mac.f32 V5, V8, V10; nop
nop; nop; mac.f32 V6, V8, V9; nop
nop; nop; mac.f32 V7, V8, V10; nop
EndK:
nop; nop; add.f32 V0, V0, V1; nop
nop; nop; add.f32 V2, V2, V3; nop
nop; nop; add.f32 V4, V4, V5; nop
nop; nop; add.f32 V6, V6, V7; nop
nop; nop; add.f32 V0, V0, V2; nop
nop; nop; add.f32 V4, V4, V6; nop
nop; nop; add.f32 V0, V0, V4; nop
nop; nop; nop; st_tnsr 0x1, I2, V0
End0:
nop
End1:
ASM
echo "$EPI"
} > "$T/mac8.s"
{
echo "$PRO"
cat <<'ASM'
// softmax over the S1 rows for every lane: m = max_y a; e_y = p(a_y - m) with
// p(t) = 1 + t(1 + t(1/2 + t(1/6 + t/24))) by mac; s = sum e_y;
// r = 1/s by 5 Newton steps from S0; out_y = e_y * r
nop; nop; mov.f32 V10, 0x3f800000; nop
nop; nop; mov.f32 V11, 0x3f000000; nop
nop; nop; mov.f32 V12, 0x3e2aaaab; nop
nop; nop; mov.f32 V13, 0x3d2aaaab; nop
nop; nop; mov.f32 V14, 0x40000000; nop
loop S16, S17, 1, <, End2
nop
nop; mul.i32 S20, S32, 0x40; nop; nop
nop; set_indx I2, b00001, S20; mov.f32 V5, 0xff800000; nop
loop 0x0, S1, 1, <, EndA
nop
nop; set_indx I2, b00010, S33; nop; nop
ld_tnsr V1, 0x0, I2; nop; nop; nop
nop; nop; max.f32 V5, V5, V1; nop
EndA:
nop; nop; mov.f32 V6, 0x0; nop
loop 0x0, S1, 1, <, EndB
nop
nop; set_indx I2, b00010, S33; nop; nop
ld_tnsr V1, 0x0, I2; nop; nop; nop
nop; nop; sub.f32 V2, V1, V5; nop
nop; nop; mov.f32 V3, V12; nop
nop; nop; mac.f32 V3, V2, V13; nop
nop; nop; mov.f32 V4, V11; nop
nop; nop; mac.f32 V4, V3, V2; nop
nop; nop; mov.f32 V3, V10; nop
nop; nop; mac.f32 V3, V4, V2; nop
nop; nop; mov.f32 V4, V10; nop
nop; nop; mac.f32 V4, V3, V2; nop
nop; nop; add.f32 V6, V6, V4; st_tnsr 0x1, I2, V4
EndB:
nop; nop; mov.f32 V7, S0; nop
loop 0x0, 0x5, 1, <, EndN
nop
nop; nop; mov.f32 V8, V14; nop
nop; nop; mac.f32 neg V8, V6, V7; nop
nop; nop; mul.f32 V7, V7, V8; nop
EndN:
loop 0x0, S1, 1, <, EndC
nop
nop; set_indx I2, b00010, S33; nop; nop
ld_tnsr V1, 0x1, I2; nop; nop; nop
nop; nop; mul.f32 V1, V1, V7; nop
nop; nop; nop; st_tnsr 0x1, I2, V1
EndC:
nop
End2:
ASM
echo "$EPI"
} > "$T/softmax.s"
{
echo "$PRO"
cat <<'ASM'
// gemm: out[x, 4y+i] = sum_k A[i][k] * B[x, 4y+k], A[i][k] = S(4i+k)
loop S18, S19, 1, <, End1
nop
nop; mul.i32 S21, S32, 0x4; nop; nop
nop; add.i32 S22, S21, 0x1; nop; nop
nop; add.i32 S23, S21, 0x2; nop; nop
nop; add.i32 S24, S21, 0x3; nop; nop
nop; set_indx I2, b00010, S21; nop; nop
nop; set_indx I3, b00010, S22; nop; nop
nop; set_indx I4, b00010, S23; nop; nop
nop; set_indx I5, b00010, S24; nop; nop
loop S16, S17, 1, <, End0
nop
nop; mul.i32 S20, S33, 0x40; nop; nop
set_indx I2, b00001, S20; set_indx I3, b00001, S20; nop; set_indx I4, b00001, S20
nop; set_indx I5, b00001, S20; nop; nop
ld_tnsr V1, 0x0, I2; nop; nop; nop
ld_tnsr V2, 0x0, I3; nop; mul.f32 V5, V1, S0; nop
ld_tnsr V3, 0x0, I4; nop; mul.f32 V6, V1, S4; nop
ld_tnsr V4, 0x0, I5; nop; mul.f32 V7, V1, S8; nop
nop; nop; mul.f32 V8, V1, S12; nop
nop; nop; mac.f32 V5, V2, S1; nop
nop; nop; mac.f32 V6, V2, S5; nop
nop; nop; mac.f32 V7, V2, S9; nop
nop; nop; mac.f32 V8, V2, S13; nop
nop; nop; mac.f32 V5, V3, S2; nop
nop; nop; mac.f32 V6, V3, S6; nop
nop; nop; mac.f32 V7, V3, S10; nop
nop; nop; mac.f32 V8, V3, S14; nop
nop; nop; mac.f32 V5, V4, S3; nop
nop; nop; mac.f32 V6, V4, S7; nop
nop; nop; mac.f32 V7, V4, S11; nop
nop; nop; mac.f32 V8, V4, S15; st_tnsr 0x1, I2, V5
nop; nop; nop; st_tnsr 0x1, I3, V6
nop; nop; nop; st_tnsr 0x1, I4, V7
nop; nop; nop; st_tnsr 0x1, I5, V8
End0:
nop
End1:
ASM
echo "$EPI"
} > "$T/gemm.s"
{
echo "$PRO"
cat <<'ASM'
// lrelu: v = a < 0 ? a * S0 : a (VP-predicated mul); on odd rows
// v = v < S1 ? v : S1 (sel), even rows skip it by a jmpr on SP2
loop S18, S19, 1, <, End1
nop
nop; set_indx I2, b00010, S32; nop; nop
nop; and.i32 S21, S32, 0x1; nop; nop
nop; cmp_eq.i32 SP2, S21, 0x0; nop; nop
loop S16, S17, 1, <, End0
nop
nop; mul.i32 S20, S33, 0x40; nop; nop
nop; set_indx I2, b00001, S20; nop; nop
ld_tnsr V1, 0x0, I2; nop; nop; nop
nop; nop; cmp_less.f32 VP1, V1, 0x0; nop
nop; nop; mov.f32 V2, V1; nop
nop; jmpr Skip, SP2; mul.f32 V2, V1, S0, VP1; nop
nop; nop; sel_less.f32 V2, V2, S1, V2, S1; nop
Skip:
nop; nop; nop; st_tnsr 0x1, I2, V2
End0:
nop
End1:
ASM
echo "$EPI"
} > "$T/lrelu.s"
# stream: the schedule of bench/tpc-stream.sh (needs >= 2 vectors per row)
cp "$(dirname "$0")/stream-pipelined.s" "$T/stream.s"
cat > "$T/native.c" <<'C'
/* The bench kernels in C, the same operations in the same order as the TPC
 * kernels (and "memcpy": the input copied to the output); usage: native
 * KERNEL W H IN OUT REPEAT ARGS... (f32 args);
 * prints the best CPU seconds of the compute over REPEAT runs, or with
 * KERNEL "clock" the clock of a dependent add chain (Hz). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static float fmax_tpc(float a, float b) /* tpc max.f32 for non-NaN inputs */
{
    return (a > b || (a == b && !signbit(a))) ? a : b;
}

static void mac8(const float *a, float *o, long W, long H, const float *s)
{
    long K = (long)s[2];
    for (long y = 0; y < H; y++)
        for (long x = 0; x < W; x += 64) {
            const float *in = a + y * W + x;
            float acc[8][64] = {{0}};
            for (long it = 0; it < K; it++)
                for (int k = 0; k < 8; k++)
                    for (int l = 0; l < 64; l++)
                        acc[k][l] = fmaf(in[l], s[k & 1], acc[k][l]);
            for (int l = 0; l < 64; l++) {
                float v0 = acc[0][l] + acc[1][l], v2 = acc[2][l] + acc[3][l];
                float v4 = acc[4][l] + acc[5][l], v6 = acc[6][l] + acc[7][l];
                v0 = v0 + v2;
                v4 = v4 + v6;
                o[y * W + x + l] = v0 + v4;
            }
        }
}

static void softmax(const float *a, float *o, long W, long H, const float *s)
{
    for (long x = 0; x < W; x += 64) {
        float m[64], sum[64], r[64];
        for (int l = 0; l < 64; l++)
            m[l] = -INFINITY, sum[l] = 0;
        for (long y = 0; y < H; y++)
            for (int l = 0; l < 64; l++)
                m[l] = fmax_tpc(m[l], a[y * W + x + l]);
        for (long y = 0; y < H; y++)
            for (int l = 0; l < 64; l++) {
                float t = a[y * W + x + l] - m[l];
                float p = fmaf(t, 1.0f / 24, 0x1.555556p-3f);
                p = fmaf(p, t, 0.5f);
                p = fmaf(p, t, 1.0f);
                p = fmaf(p, t, 1.0f);
                sum[l] = sum[l] + p;
                o[y * W + x + l] = p;
            }
        for (int l = 0; l < 64; l++) {
            r[l] = s[0];
            for (int i = 0; i < 5; i++)
                r[l] = r[l] * fmaf(-sum[l], r[l], 2.0f);
        }
        for (long y = 0; y < H; y++)
            for (int l = 0; l < 64; l++)
                o[y * W + x + l] = o[y * W + x + l] * r[l];
    }
}

static void gemm(const float *b, float *o, long W, long H4, const float *A)
{
    for (long y = 0; y < H4 / 4; y++)
        for (long x = 0; x < W; x += 64)
            for (int i = 0; i < 4; i++)
                for (int l = 0; l < 64; l++) {
                    const float *col = b + 4 * y * W + x + l;
                    float v = col[0] * A[4 * i];
                    for (int k = 1; k < 4; k++)
                        v = fmaf(col[k * W], A[4 * i + k], v);
                    o[(4 * y + i) * W + x + l] = v;
                }
}

static void lrelu(const float *a, float *o, long W, long H, const float *s)
{
    for (long y = 0; y < H; y++)
        for (long x = 0; x < W; x++) {
            float v = a[y * W + x];
            v = v < 0 ? v * s[0] : v;
            if (y & 1)
                v = v < s[1] ? v : s[1];
            o[y * W + x] = v;
        }
}

static void stream(const float *a, float *o, long W, long H, const float *s)
{
    for (long i = 0; i < W * H; i++)
        o[i] = a[i] + s[0];
}

int main(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "clock")) {
        unsigned long x = 0, n = 400000000ul;
        double t0 = now();
        for (unsigned long i = 0; i < n; i++)
            __asm__ volatile("add $1, %0" : "+r"(x));
        printf("%.0f\n", n / (now() - t0));
        return x != n;
    }
    if (argc < 7)
        return 2;
    long W = atol(argv[2]), H = atol(argv[3]);
    int rep = atoi(argv[6]);
    float s[16] = {0};
    for (int i = 7; i < argc && i < 23; i++)
        s[i - 7] = strtof(argv[i], NULL);
    size_t n = (size_t)W * H;
    float *a = malloc(n * 4), *o = calloc(n, 4);
    FILE *f = fopen(argv[4], "rb");
    if (!a || !o || !f || fread(a, 4, n, f) != n)
        return 1;
    fclose(f);
    double best = 1e30;
    for (int r = 0; r < rep; r++) {
        double t0 = now();
        if (!strcmp(argv[1], "mac8"))
            mac8(a, o, W, H, s);
        else if (!strcmp(argv[1], "softmax"))
            softmax(a, o, W, H, s);
        else if (!strcmp(argv[1], "gemm"))
            gemm(a, o, W, H, s);
        else if (!strcmp(argv[1], "stream"))
            stream(a, o, W, H, s);
        else if (!strcmp(argv[1], "memcpy"))
            memcpy(o, a, n * 4);
        else
            lrelu(a, o, W, H, s);
        double t = now() - t0;
        best = t < best ? t : best;
    }
    f = fopen(argv[5], "wb");
    if (!f || fwrite(o, 4, n, f) != n)
        return 1;
    fclose(f);
    printf("%.6f\n", best);
    free(a);
    free(o);
    return 0;
}
C
"$CC" -O2 -march=native -o "$T/native" "$T/native.c" -lm
for k in mac8 softmax gemm lrelu stream; do
    "$B/tools/nxemu-as" -t tpc "$T/$k.s" -o "$T/$k.o"
done
python3 - "$B/tools/nxemu-tpc-run" "$T" "${W:-1024}" "${H:-4096}" "${REPEAT:-3}" \
    "${CALLGRIND:-0}" "${PROFILE:-0}" <<'PY'
import os, re, struct, subprocess, sys
run, tmp, W, H, rep, cg = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), \
    int(sys.argv[5]), sys.argv[6] == "1"
prof = sys.argv[7] == "1"
native = os.path.join(tmp, "native")
A = [0.5, -0.25, 0.125, 1.0, 0.75, 0.5, -1.5, 0.25, -0.5, 2.0, 0.375, -0.125, 1.25, 0.0625, -0.75, 1.5]
MAC_K = 16
# kernel: index space from W, H; scalar args (float: --farg, int: --arg)
def kernels(W, H, passes=1):
    return {
        "mac8": ((W // 64, H), [0.5, -0.75, MAC_K]),
        "softmax": ((W // 64, 1), [1.0 / H, H]),
        "gemm": ((W // 64, H // 4), A),
        "lrelu": ((W // 64, H), [0.125, 0.75]),
        "stream": ((W // 64, H), [1.5, passes]),
    }
KERNELS = ("mac8", "softmax", "gemm", "lrelu", "stream")
STREAM_PASSES = 10
def shape(k, W, H):
    """the stream kernel's rows are 4096 floats (64 vectors) wide, as in
    bench/tpc-stream.sh, so the per-row bundles do not weigh on it"""
    if k == "stream" and W * H % 4096 == 0:
        return 4096, W * H // 4096
    return W, H
def inputs(W, H):
    import random
    rnd = random.Random(12)
    vals = [rnd.random() * 2 - 1 for _ in range(4096)]
    data = struct.pack(f"<{4096}f", *vals)
    fin = os.path.join(tmp, f"in-{W}x{H}.bin")
    with open(fin, "wb") as f:
        for _ in range(W * H // 4096):
            f.write(data)
    return fin
def emu(k, W, H, prefix=(), extra=(), passes=1):
    W, H = shape(k, W, H)
    space, fargs = kernels(W, H, passes)[k]
    fin = inputs(W, H)
    out = os.path.join(tmp, f"{k}.emu")
    args = list(prefix) + [run, "--time", "-k", os.path.join(tmp, k + ".o"), "-n", "1",
            "--index-space", f"{space[0]},{space[1]}", "-machine", "hbm=512M",
            "-i", f"{fin}:{W}x{H}:f32", "-o", f"{out}:{W}x{H}:f32"] + list(extra)
    for v in fargs:
        args += ["--arg", str(v)] if isinstance(v, int) else ["--farg", repr(v)]
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"tpc-kernels: {k}: nxemu-tpc-run exited {p.returncode}: {p.stderr.strip()}")
    b = int(re.search(r"bundles=(\d+)", p.stderr).group(1))
    t = re.search(r"run time ([0-9.]+) s", p.stderr)
    ir = None
    if prefix:
        with open(prefix[-1].split("=", 1)[1]) as f:
            ir = int(re.search(r"^summary: (\d+)", f.read(), re.M).group(1))
    return b, float(t.group(1)) if t else 0.0, out, fin, ir
if prof:
    for k in KERNELS:
        pf = os.path.join(tmp, f"{k}.prof")
        emu(k, W, H, extra=("--tpc-timing", "interlocked", "--profile", pf))
        lines = open(pf).read().splitlines()
        print(f"tpc-kernels: {k} ({W}x{H}): {lines[1]}")
        j = lines.index("tpc 0 bundles:")
        rows = [ln for ln in lines[j + 2:] if ln.split()[1] != "0"]
        rows.sort(key=lambda ln: -int(ln.split()[2]))
        print("    " + lines[j + 1].strip())
        for ln in rows[:5]:
            print("    " + ln)
    sys.exit(0)
if cg:
    for k in KERNELS:
        res = []
        for h in (64, 128):
            cgo = os.path.join(tmp, f"cg.{k}.{h}")
            b, _, _, _, ir = emu(k, 256, h, ("valgrind", "--tool=callgrind", f"--callgrind-out-file={cgo}"))
            res.append((b, ir))
        (b1, i1), (b2, i2) = res
        print(f"tpc-kernels: {k}: {(i2 - i1) / (b2 - b1):.0f} host instructions per bundle "
              f"(callgrind, 256x128 minus 256x64: {b2 - b1} bundles)")
    sys.exit(0)
hz = float(subprocess.run([native, "clock"], capture_output=True, text=True, check=True).stdout)
print(f"tpc-kernels: host clock {hz / 1e9:.2f} GHz (dependent add chain); tensors {W}x{H} f32")
bad = 0
def native_run(k, fin, nout):
    sw, sh = shape(k, W, H)
    nargs = [repr(v) for v in kernels(sw, sh)[k][1]] if k != "memcpy" else []
    return float(subprocess.run([native, k, str(sw), str(sh), fin, nout, str(rep)] + nargs,
                                capture_output=True, text=True, check=True).stdout)
for k in KERNELS:
    b, t, out, fin, _ = emu(k, W, H)
    nout = os.path.join(tmp, f"{k}.native")
    tn = native_run(k, fin, nout)
    with open(out, "rb") as f1, open(nout, "rb") as f2:
        same = f1.read() == f2.read()
    bad += not same
    differs = '' if same else '  OUTPUT DIFFERS from native C'
    if k == "stream":
        import statistics
        steadies, nbs = [], []
        for _ in range(rep):
            b1, t1, _, _, _ = emu(k, W, H, passes=1)
            bp, tp, _, _, _ = emu(k, W, H, passes=1 + STREAM_PASSES)
            steadies.append(max((tp - t1) / STREAM_PASSES, 1e-9))
            nbs.append((bp - b1) // STREAM_PASSES)
        ts, nb = statistics.median(steadies), nbs[-1]
        tm = native_run("memcpy", fin, os.path.join(tmp, "memcpy.native"))
        nbytes = W * H * 4
        print(f"tpc-kernels: stream: {nb} bundles per pass over {nbytes >> 20} MiB in {ts:.4f} s "
              f"= {nb / ts / 1e6:.1f} M bundles/s, {ts * hz / nb:.0f} host cycles/bundle, "
              f"{nbytes / ts / 1e9:.2f} GB/s; native C {tn:.4f} s; ratio {ts / tn:.1f}x; "
              f"memcpy {tm:.4f} s = {nbytes / tm / 1e9:.2f} GB/s; {tm / ts:.2f}x memcpy"
              f" (goal >= 0.8x){differs}")
        continue
    print(f"tpc-kernels: {k}: {b} bundles in {t:.3f} s = {b / t / 1e6:.1f} M bundles/s, "
          f"{t * hz / b:.0f} host cycles/bundle; native C {tn:.4f} s; ratio {t / tn:.1f}x"
          f"{differs}")
sys.exit(1 if bad else 0)
PY
