#!/bin/sh
# A TPC kernel under gdb against the same kernel without it, in one
# invocation (issue #12: a debugger that sets nothing on the hot loop must not
# switch the engine): tests/tpc-run/add-f32.s on 4096 x 4096 f32 tensors
# (64 MiB each) by nxemu-tpc-run, run three ways:
#  - alone;
#  - under gdb-multiarch, attached to the launcher and to TPC 0, `continue`;
#  - the same with a breakpoint on the kernel's halt bundle (outside the loop).
# Each figure is nxemu-tpc-run --time (host CPU seconds of the machine's run,
# so gdb's own start-up and waiting are not in it), the median of REPEAT runs
# (default 5, after one warm-up run); prints each and its ratio to the run alone (goal <= 1.5x).
# usage: sh bench/tpc-gdb.sh BUILD_DIR
set -eu
B=${1:-build}
REPEAT=${REPEAT:-5}
command -v gdb-multiarch >/dev/null || { echo "tpc-gdb: gdb-multiarch missing, skipped"; exit 0; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
"$B/tools/nxemu-as" -t tpc "$(dirname "$0")/../tests/tpc-run/add-f32.s" -o "$T/k.o"
python3 - "$B" "$T" "$REPEAT" <<'PY'
import os, re, statistics, struct, subprocess, sys, time
b, tmp, repeat = sys.argv[1], sys.argv[2], int(sys.argv[3])
n = 4096 * 4096
a = os.path.join(tmp, "a.bin")
with open(a, "wb") as f:
    f.write(struct.pack("<f", 1.5) * n)
out = os.path.join(tmp, "o.bin")
run = [os.path.join(b, "tools", "nxemu-tpc-run"), "-k", os.path.join(tmp, "k.o"),
       "--index-space", "64,4096", "-i", a + ":4096x4096:f32", "-i", a + ":4096x4096:f32",
       "-o", out + ":4096x4096:f32", "--time"]
# the halt bundle of add-f32.s (nxemu-objdump -d: "240: nop; halt; halt; nop")
HALT = 0x240

def seconds(err):
    m = re.search(r"run time (\S+) s \(host CPU\)", err)
    if not m:
        sys.exit("tpc-gdb: no run time in:\n" + err)
    return float(m.group(1))

def check():
    with open(out, "rb") as f:
        if f.read() != struct.pack("<f", 3.0) * n:
            sys.exit("tpc-gdb: wrong output")
    os.unlink(out)

def alone():
    p = subprocess.run(run, capture_output=True, text=True, check=True)
    check()
    return seconds(p.stderr)

def under_gdb(brk):
    sock = os.path.join(tmp, "g.sock")
    if os.path.exists(sock):
        os.unlink(sock)
    nx = subprocess.Popen(run + ["-S", "-gdb", "unix:" + sock], stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True)
    while not os.path.exists(sock):
        time.sleep(0.01)
    cmds = ["set pagination off", "target extended-remote " + sock,
            "add-inferior", "inferior 2", "attach 2"]
    cmds += ["break *%#x" % HALT, "continue", "delete"] if brk else []
    cmds += ["continue", "inferior 1", "continue"]
    argv = ["gdb-multiarch", "-nx", "-batch"]
    for c in cmds:
        argv += ["-ex", c]
    g = subprocess.run(argv, capture_output=True, text=True, timeout=600)
    err = nx.stderr.read()
    if nx.wait(timeout=60) != 0:
        sys.exit("tpc-gdb: nxemu-tpc-run under gdb failed:\n" + err + g.stdout + g.stderr)
    if brk and "Breakpoint 1, 0x%08x" % HALT not in g.stdout:
        sys.exit("tpc-gdb: the breakpoint did not stop:\n" + g.stdout)
    check()
    return seconds(err)

alone()   # warm-up: the tensor files in the page cache
t = {"alone": [], "gdb": [], "gdb+break": []}
for _ in range(repeat):   # interleaved, so that machine load hits all three alike
    t["alone"].append(alone())
    t["gdb"].append(under_gdb(False))
    t["gdb+break"].append(under_gdb(True))
base = statistics.median(t["alone"])
for k, v in t.items():
    m = statistics.median(v)
    print(f"tpc-gdb: add-f32 4096x4096 {k:10s} {m:.3f} s host CPU  {m / base:.2f}x the run alone")
PY
