#!/bin/sh
# TPC streaming throughput: out = a + S0 over a 64 MiB f32 tensor (4096 x
# 4096) on one TPC, launched by nxemu-tpc-run through the reference launcher.
# Two schedules of the same ld_tnsr -> add.f32 -> st_tnsr kernel:
#  - pipelined: as the TPC compiler emits a stream loop (software-pipelined,
#    one four-slot bundle per vector like tpc.md §4.5 example (a), plus one
#    bundle moving the store index): 2 bundles per 64-lane vector;
#  - naive: one slot per bundle, index recomputed per vector: 5 bundles.
# Reports the kernel's input bytes per second and, measured in the same run,
# this machine's memcpy bandwidth (bytes copied per second by a small C timer
# compiled here with cc), and the ratio (goal >= 0.5x, for the pipelined
# schedule).  The kernel makes S1 passes over the tensor; one estimate of a
# pass is a tenth of the run with 11 passes minus the run with 1, back to
# back: a pass over memory already touched (the first pass, which also
# touches the output's pages, is printed apart).  Times are host CPU seconds
# of the run alone (nxemu-tpc-run --time: start-up and tensor files are not
# in it; on this kind of shared VM they made the difference noisy) and of
# memcpy, so a loaded machine or a slow disk does not skew the ratio.
# usage: sh bench/tpc-stream.sh BUILD_DIR   (REPEAT=N repeats, default 5; each
# figure is the median over the repeats)
set -eu
B=${1:-build}
REPEAT=${REPEAT:-5}
CC=${CC:-cc}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cat > "$T/naive.s" <<'ASM'
// S1 passes of out[x, y] = a[x, y] + S0; dim 0 = 64-lane vectors, dim 1 = rows.
nop; mov_irf_dim 0x0 S10, I0; nop; nop
nop; mov_irf_dim 0x0 S11, I1; nop; nop
nop; mov_irf_dim 0x1 S12, I0; nop; nop
nop; mov_irf_dim 0x1 S13, I1; nop; nop
nop; add.i32 S11, S11, S10; nop; nop
nop; add.i32 S13, S13, S12; nop; nop
loop 0x0, S1, 1, <, End2
nop
loop S12, S13, 1, <, End1
nop
nop; set_indx I2, b00010, S33; nop; nop
loop S10, S11, 1, <, End0
nop
nop; mul.i32 S20, S34, 0x40; nop; nop
nop; set_indx I2, b00001, S20; nop; nop
ld_tnsr V1, 0x0, I2; nop; nop; nop
nop; nop; add.f32 V2, V1, S0; nop
nop; nop; nop; st_tnsr 0x1, I2, V2
End0:
nop
End1:
nop
End2:
halt
nop
nop
nop
ASM
cp "$(dirname "$0")/stream-pipelined.s" "$T/pipe.s"
cat > "$T/memcpy.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
/* Best-of-N memcpy of a 64 MiB buffer (pages touched first): bytes per CPU
 * second, like the emulator's figure (both immune to waiting on a busy host). */
int main(void)
{
    size_t n = 64u << 20;
    char *s = malloc(n), *d = malloc(n);
    double best = 1e30;
    if (!s || !d)
        return 1;
    memset(s, 1, n);
    memset(d, 2, n);
    for (int i = 0; i < 8; i++) {
        struct timespec a, b;
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
        memcpy(d, s, n);
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
        double t = (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) * 1e-9;
        if (t < best)
            best = t;
        s[i] = d[n - 1 - i]; /* keep the copies observable */
    }
    printf("%.0f\n", n / best);
    free(s);
    free(d);
    return 0;
}
C
"$CC" -O2 -o "$T/memcpy" "$T/memcpy.c"
"$B/tools/nxemu-as" -t tpc "$T/pipe.s" -o "$T/pipelined.o"
"$B/tools/nxemu-as" -t tpc "$T/naive.s" -o "$T/naive.o"
python3 - "$B/tools/nxemu-tpc-run" "$T" "$T/memcpy" "$REPEAT" <<'PY'
import os, re, resource, subprocess, sys
run, tmp, memcpy, repeat = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
W = H = 4096
nbytes = W * H * 4
fin = os.path.join(tmp, "in.bin")
with open(fin, "wb") as f:
    f.write(bytes(range(256)) * (nbytes // 256))
def once(kernel, passes):
    out = os.path.join(tmp, kernel + ".out")
    args = [run, "--time", "-k", os.path.join(tmp, kernel + ".o"), "-n", "1", "--index-space",
            f"{W // 64},{H}", "--farg", "1.5", "--arg", str(passes), "-machine", "hbm=512M",
            "-i", f"{fin}:{W}x{H}:f32", "-o", f"{out}:{W}x{H}:f32"]
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(args, capture_output=True, text=True)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    dt = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    if p.returncode != 0:
        sys.exit(f"tpc-stream: nxemu-tpc-run exited {p.returncode}: {p.stderr.strip()}")
    m = re.search(r"bundles=(\d+)", p.stderr)
    r = re.search(r"run time ([0-9.]+) s", p.stderr)
    # the run alone (nxemu-tpc-run --time): start-up and tensor files excluded
    return (float(r.group(1)) if r else dt), int(m.group(1)) if m else 0
import statistics
res = {}
mcs = []
PASSES = (0, 1, 11)
for kernel in ("pipelined", "naive"):
    t = {k: [] for k in PASSES}
    b = {}
    steadies = []
    for _ in range(repeat):
        for k in PASSES:
            dt, b[k] = once(kernel, k)
            t[k].append(dt)
        # the runs of one repeat are back to back: their difference is one
        # estimate; the median over repeats shrugs off a disturbed run
        steadies.append((t[11][-1] - t[1][-1]) / 10)
        mcs.append(float(subprocess.run([memcpy], capture_output=True, text=True,
                                        check=True).stdout))
    steady = max(statistics.median(steadies), 1e-9)  # one pass over memory already touched
    first = max(statistics.median(t[1]) - statistics.median(t[0]), 1e-9)  # incl. first touch
    nb = (b[11] - b[1]) // 10
    res[kernel] = nbytes / steady
    print(f"tpc-stream: {kernel}: {nbytes >> 20} MiB f32 ld_tnsr/add.f32/st_tnsr, {nb} bundles "
          f"per pass: {steady:.4f} s = {nbytes / steady / 1e9:.2f} GB/s input "
          f"({nb / steady / 1e6:.1f} M bundles/s); first pass {first:.3f} s (with the first "
          f"touch of the output)")
mc = statistics.median(mcs)
with open(os.path.join(tmp, "pipelined.out"), "rb") as f1, \
        open(os.path.join(tmp, "naive.out"), "rb") as f2:
    if f1.read() != f2.read():
        sys.exit("tpc-stream: the two schedules computed different outputs")
print(f"tpc-stream: memcpy {mc / 1e9:.2f} GB/s; ratio {res['pipelined'] / mc:.2f}x memcpy "
      f"pipelined (goal >= 0.5x), {res['naive'] / mc:.2f}x naive")
PY
