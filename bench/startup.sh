#!/bin/sh
# Start-up cost: nxemu with the largest HBM (-m 64G) running a two-instruction
# image (PASS write, halt).  Prints the median wall time of RUNS runs in ms
# and the peak RSS, which must stay small (HBM is reserved, not touched).
# usage: sh bench/startup.sh BUILD_DIR
set -eu
B=${1:-build}
RUNS=${RUNS:-11}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cat > "$T/pass.s" <<ASM
        .org 0x01000000
        write.u32 [0x2805000000], 0x5555
        halt
ASM
"$B/tools/nxemu-as" "$T/pass.s" -o "$T/pass.elf"
python3 - "$B/nxemu" "$T/pass.elf" "$RUNS" <<'PY'
import resource, statistics, subprocess, sys, time
nxemu, elf, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
times = []
for _ in range(runs):
    t0 = time.perf_counter()
    r = subprocess.run([nxemu, "-m", "64G", "-kernel", elf])
    times.append(time.perf_counter() - t0)
    if r.returncode != 0:
        sys.exit(f"startup: nxemu exited {r.returncode}")
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(f"startup: 2 instructions, -m 64G: median {statistics.median(times) * 1e3:.1f} ms "
      f"over {runs} runs, peak RSS {rss} KiB")
PY
