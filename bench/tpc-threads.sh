#!/bin/sh
# TPCs on host threads (issue 37, docs/machine.rst "Host threads"): an
# 8-TPC kernel (each TPC: 8 vectors, ITER mac.f32 bundles per vector in a
# loop) run by nxemu-tpc-run with --threads 1 and --threads $(nproc) in the
# same invocation; prints the wall times (best of REPEAT), their ratio, the
# load average beside it (other work on the host takes cores from the
# threads).  First the host itself: $(nproc) independent --threads 1 runs
# at once (best of REPEAT) against one alone -- if they do not each keep
# their speed (other work, shared physical cores, a lower all-core clock),
# no thread count can: that ratio is what the host offers, printed beside
# the result.  Then what does not divide over threads: the same command on
# the kernel with a 1-bundle loop (process start, machine, ELF and tensors,
# the launch, the outputs, exit) is the serial part: S1 with --threads 1,
# SN with --threads N (the pool's threads made and joined, and the rounds
# run on the scheduler's thread).  The work that divides is t1 - S1, so
# Amdahl's bound for the host's cores is t1 / (SN + (t1 - S1) / N).  The
# projection for 16 cores is that with the work divided over min(16, 8)
# threads plus the synchronisation measured here -- the cost of a stretch
# on the pool (start, barrier, race check), from the runs with a stretch
# every 16 rounds (NXEMU_SLICE_ROUNDS=16: stretches shorter than 16 rounds
# run on one thread, docs/machine.rst "Host threads") -- times the windows
# a run takes.  ITER2 (default 1000000,
# 0: none) repeats the comparison on a longer kernel, where the serial part
# weighs less.  The outputs of every run are compared.
# usage: sh bench/tpc-threads.sh BUILD_DIR   (ITER default 200000, ITER2
# 1000000, REPEAT 3)
set -eu
B=${1:-build}
ITER=${ITER:-200000}
ITER2=${ITER2:-1000000}
REPEAT=${REPEAT:-3}
N=$(nproc)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# the kernel with $1 bundles per vector in $T/k$1.o
kernel() {
cat > "$T/k$1.s" <<ASM
nop; mov_irf_dim 0x0 S10, I0; nop; nop
nop; mov_irf_dim 0x0 S11, I1; nop; nop
nop; add.i32 S11, S11, S10; nop; nop
loop S10, S11, 1, <, End0
nop
nop; mul.i32 S20, S32, 0x40; nop; nop
nop; set_indx I2, b00001, S20; nop; nop
ld_tnsr V1, 0x0, I2; nop; nop; nop
loop 0x0, $1, 1, <, End1
nop
nop; nop; mac.f32 V2, V1, V1; nop
End1:
nop
nop; nop; nop; st_tnsr 0x1, I2, V2
End0:
nop
halt
nop
nop
nop
ASM
"$B/tools/nxemu-as" -t tpc -o "$T/k$1.o" "$T/k$1.s"
}
kernel "$ITER"
kernel 1
[ "$ITER2" = 0 ] || kernel "$ITER2"
python3 -c "import struct; open('$T/in.bin','wb').write(struct.pack('<4096f', *[0.001] * 4096))"
# best wall seconds of REPEAT runs of the command after "--" ($1 at once
# with "-P N": N copies, outputs par1.bin...), stderr to $ERR; timed from
# the fork to the exit of the runs alone (in Python: the shell's date and
# env processes, which cost milliseconds on a loaded host, are outside)
TIMER='
import os, subprocess, sys, time
a = sys.argv[1:]
par = int(a[1]) if a[0] == "-P" else 0
cmd = a[a.index("--") + 1:]
best = None
for _ in range(int(os.environ["REPEAT"])):
    t = time.perf_counter()
    if par:
        ps = [subprocess.Popen([x.replace("@J", str(j)) for x in cmd],
                               stderr=subprocess.DEVNULL) for j in range(1, par + 1)]
        rc = max(p.wait() for p in ps)
    else:
        with open(os.environ["ERR"], "wb") as e:
            rc = subprocess.run(cmd, stderr=e).returncode
    w = time.perf_counter() - t
    if rc:
        sys.exit("tpc-threads: %s: exit status %d" % (" ".join(cmd), rc))
    best = w if best is None or w < best else best
print("%.6f" % best)
'
export REPEAT
# best wall seconds of REPEAT runs with --threads $1 (env in $2) of the
# kernel with $3 bundles per vector (default ITER)
best() {
    env $2 ERR="$T/err$1" python3 -c "$TIMER" -- "$B/tools/nxemu-tpc-run" \
        -k "$T/k${3:-$ITER}.o" -n 8 --index-space 64 \
        -i "$T/in.bin:4096:f32" -o "$T/out$1.bin:4096:f32" --threads "$1"
}
# best wall seconds of REPEAT rounds of N independent 1-thread runs at once
together() {
    python3 -c "$TIMER" -P "$N" -- "$B/tools/nxemu-tpc-run" -k "$T/k$ITER.o" -n 8 \
        --index-space 64 -i "$T/in.bin:4096:f32" -o "$T/par@J.bin:4096:f32" --threads 1
}
t1=$(best 1 "X=1")
tpar=$(together)
tn=$(best "$N" "X=1")
cmp -s "$T/out1.bin" "$T/out$N.bin" || { echo "tpc-threads: outputs differ"; exit 1; }
cmp -s "$T/err1" "$T/err$N" || { echo "tpc-threads: stderr differs"; exit 1; }
vtime=$(sed -n 's/.*vtime=\([0-9]*\).*/\1/p' "$T/err1")
ts=$(best "$N" "X=1" 1)
ts1=$(best 1 "X=1" 1)
t1r=$(best 1 "NXEMU_SLICE_ROUNDS=16")
tnr=$(best "$N" "NXEMU_SLICE_ROUNDS=16")
t1b=0
tnb=0
vtimeb=0
if [ "$ITER2" != 0 ]; then
    t1b=$(best 1 "X=1" "$ITER2")
    tnb=$(best "$N" "X=1" "$ITER2")
    cmp -s "$T/out1.bin" "$T/out$N.bin" || { echo "tpc-threads: outputs differ"; exit 1; }
    cmp -s "$T/err1" "$T/err$N" || { echo "tpc-threads: stderr differs"; exit 1; }
    vtimeb=$(sed -n 's/.*vtime=\([0-9]*\).*/\1/p' "$T/err1")
fi
load=$(cut -d' ' -f1-3 /proc/loadavg)
python3 - "$t1" "$tn" "$t1r" "$tnr" "$vtime" "$N" "$load" "$tpar" "$ts" "$t1b" "$tnb" \
    "$vtimeb" "$ITER" "$ITER2" "$ts1" <<'PY'
import sys
t1, tn, t1r, tnr = map(float, sys.argv[1:5])
vtime, n = int(sys.argv[5]), int(sys.argv[6])
load = sys.argv[7]
tpar, ts, t1b, tnb = map(float, sys.argv[8:12])
vtimeb, it, it2 = map(int, sys.argv[12:15])
ts1 = float(sys.argv[15])
rounds = vtime // 64 + 1
windows = rounds // 1024 + 1
print("tpc-threads: 8 TPCs, %d rounds: --threads 1 %.3f s, --threads %d %.3f s: %.2fx"
      " (load average %s, %d cores)" % (rounds, t1, n, tn, t1 / tn, load, n))
print("tpc-threads: the host: %d independent 1-thread runs at once %.3f s against %.3f s"
      " alone: it offers %.2fx" % (n, tpar, t1, n * t1 / tpar))
# Amdahl: the serial part (the 1-bundle kernel's run) and the rest, the
# 1-thread time less its serial part, which divides over the threads
par = max(0.0, t1 - ts1)
print("tpc-threads: serial part (the same run of a 1-bundle loop): %.3f s with --threads %d,"
      " %.3f s with --threads 1 = %.1f%% of it; Amdahl's bound for %d cores %.2fx"
      % (ts, n, ts1, 100 * ts1 / t1, n, t1 / (ts + par / n)))
# a stretch every 16 rounds instead of every 1024: the difference per extra
# stretch is what starting, joining and checking a stretch costs
rounds16 = rounds // 16 + 1
sync = max(0.0, (tnr - tn) / max(1, rounds16 - windows))
print("tpc-threads: a stretch every 16 rounds (NXEMU_SLICE_ROUNDS=16): %.3f s at %d threads,"
      " %.3f s at 1: %.2f us per stretch" % (tnr, n, t1r, sync * 1e6))
t16 = ts + par / min(16, 8) + windows * sync
print("tpc-threads: projection for 16 cores: %.3f s (%.2fx): 8 TPCs use 8 of them;"
      " serial %.1f%%, %d windows x %.2f us of synchronisation"
      % (t16, t1 / t16, 100 * ts / t1, windows, sync * 1e6))
if vtimeb:
    roundsb = vtimeb // 64 + 1
    parb = max(0.0, t1b - ts1)
    print("tpc-threads: %.3gx longer kernel, %d rounds: --threads 1 %.3f s, --threads %d %.3f s:"
          " %.2fx (serial %.1f%%, Amdahl's bound %.2fx)"
          % (it2 / it, roundsb, t1b, n, tnb, t1b / tnb, 100 * ts / t1b, t1b / (ts + parb / n)))
PY
