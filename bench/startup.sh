#!/bin/sh
# Start-up cost: nxemu with the largest HBM (-m 64G) running a two-instruction
# image (PASS write, halt), against an empty C program (int main(void){return 0;},
# built here with the same compiler) measured in the same run, runs interleaved.
# Prints the median and the 10th percentile wall time of RUNS runs of each in
# ms, the ratios nxemu/empty, and nxemu's peak RSS, which must stay small
# (HBM is reserved, not touched).
# usage: sh bench/startup.sh BUILD_DIR
set -eu
B=${1:-build}
RUNS=${RUNS:-201}
CC=${CC:-cc}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cat > "$T/pass.s" <<ASM
        .org 0x01000000
        write.u32 [0x2805000000], 0x5555
        halt
ASM
"$B/tools/nxemu-as" "$T/pass.s" -o "$T/pass.elf"
printf 'int main(void) { return 0; }\n' > "$T/empty.c"
$CC -O2 -o "$T/empty" "$T/empty.c"
python3 - "$B/nxemu" "$T/pass.elf" "$T/empty" "$RUNS" <<'PY'
import os, resource, statistics, sys, time
nxemu, elf, empty, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
cmds = {"nxemu": [nxemu, "-m", "64G", "-kernel", elf], "empty": [empty]}
times = {k: [] for k in cmds}
devnull = os.open(os.devnull, os.O_RDWR)

def once(argv):
    # posix_spawn + waitpid: the least harness overhead Python offers
    t0 = time.perf_counter()
    pid = os.posix_spawn(argv[0], argv, os.environ,
                         file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1)])
    _, st = os.waitpid(pid, 0)
    dt = time.perf_counter() - t0
    if os.waitstatus_to_exitcode(st) != 0:
        sys.exit(f"startup: {argv[0]} exited {os.waitstatus_to_exitcode(st)}")
    return dt

for _ in range(5):  # warm the page cache
    for argv in cmds.values():
        once(argv)
for _ in range(runs):
    for k, argv in cmds.items():
        times[k].append(once(argv))

def p10(v):
    return sorted(v)[len(v) // 10]

med = {k: statistics.median(v) * 1e3 for k, v in times.items()}
low = {k: p10(v) * 1e3 for k, v in times.items()}
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
for k in ("empty", "nxemu"):
    print(f"startup: {k:5}: median {med[k]:.3f} ms, p10 {low[k]:.3f} ms over {runs} runs")
print(f"startup: ratio nxemu/empty: median {med['nxemu'] / med['empty']:.2f}x, "
      f"p10 {low['nxemu'] / low['empty']:.2f}x (2 instructions, -m 64G; "
      f"peak RSS {rss} KiB)")
PY
