#!/bin/sh
# nxemu-test at CI scale: N (default 1000) small sequencer images, each a
# counted loop of ITER (default 200) iterations, run through nxemu-test with
# -j = cores versus one at a time.  Prints the wall time of both, the sum of
# the single runs' wall times, images per second per core and the process
# start-up cost (an image that writes PASS at its first instruction), which
# dominates at this image size.      usage: sh bench/suite.sh BUILD_DIR
set -eu
B=${1:-build}
N=${N:-1000}
ITER=${ITER:-200}
CORES=${CORES:-$(nproc)}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cat > "$T/small.s" <<ASM
        .org 0x01000000
        mov.u32 {r1, r2}, {$ITER, 0}
loop:   add.u32 r2, r2, 3
        sub.u32 r1, r1, 1
        bne.u32 r1, 0, loop
        write.u32 [0x2805000000], 0x5555
        halt
ASM
cat > "$T/empty.s" <<ASM
        .org 0x01000000
        write.u32 [0x2805000000], 0x5555
        halt
ASM
"$B/tools/nxemu-as" "$T/small.s" -o "$T/small.elf"
"$B/tools/nxemu-as" "$T/empty.s" -o "$T/empty.elf"
mkdir "$T/suite"
i=0
while [ $i -lt "$N" ]; do
    cp "$T/small.elf" "$T/suite/img$(printf %04d $i).elf"
    i=$((i + 1))
done
python3 - "$B/tools/nxemu-test" "$B/nxemu" "$T" "$N" "$CORES" "$ITER" <<'PY'
import json, os, subprocess, sys, time
runner, nxemu, tmp, n, cores, it = sys.argv[1], sys.argv[2], sys.argv[3], *map(int, sys.argv[4:])

def suite(jobs):
    rep = os.path.join(tmp, f"j{jobs}.json")
    t0 = time.perf_counter()
    r = subprocess.run([runner, "--nxemu", nxemu, "-j", str(jobs), "--json", rep,
                        os.path.join(tmp, "suite")], stdout=subprocess.DEVNULL)
    dt = time.perf_counter() - t0
    if r.returncode != 0:
        sys.exit(f"suite: nxemu-test -j {jobs} exited {r.returncode}")
    return dt, sum(c["wall_time"] for c in json.load(open(rep))["cases"])

# start-up: fork/exec, DTB build, machine and image load, one instruction, exit
samples = []
for _ in range(30):
    t0 = time.perf_counter()
    subprocess.run([nxemu, "-kernel", os.path.join(tmp, "empty.elf")], check=True)
    samples.append(time.perf_counter() - t0)
samples.sort()
startup = samples[len(samples) // 2]

w1, sum1 = suite(1)
wj, sumj = suite(cores)
insns = 1 + 3 * it + 2
print(f"suite: {n} images of {insns} instructions each, {cores} cores")
print(f"suite: start-up (median of 30 runs of a 2-instruction image): {startup * 1e3:.2f} ms")
print(f"suite: -j 1: {w1:.2f} s wall, sum of single runs {sum1:.2f} s "
      f"({sum1 / n * 1e3:.2f} ms per image, runner overhead {(w1 - sum1) / n * 1e3:.2f} ms)")
print(f"suite: -j {cores}: {wj:.2f} s wall, speed-up {sum1 / wj:.2f}x over the sum of single runs")
print(f"suite: {n / wj:.0f} images/s, {n / wj / cores:.0f} images/s per core; "
      f"start-up is {startup / (sum1 / n) * 100:.0f}% of an image's run")
PY
