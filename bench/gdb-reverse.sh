#!/bin/sh
# gdb reverse execution: how long one reverse-stepi and one reverse-continue
# (to a watchpoint) take at position N of a one-sequencer loop, re-executing
# from the start (-replay-memory 0) and from snapshots (the defaults), in
# one invocation; prints the seconds of each and the ratio.
# usage: sh bench/gdb-reverse.sh BUILD_DIR    (N: PASSES=10000000 -> 3*10^7 steps)
set -eu
B=${1:-build}
PASSES=${PASSES:-10000000}
command -v gdb-multiarch >/dev/null || { echo "gdb-reverse: gdb-multiarch missing, skipped"; exit 0; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
python3 - "$B" "$T" "$PASSES" <<'PY'
import os, re, subprocess, sys, time
b, tmp, passes = sys.argv[1], sys.argv[2], int(sys.argv[3])
src = os.path.join(tmp, "loop.s")
with open(src, "w") as f:
    f.write(f"""        .org 0x01000000
        mov.u32 {{r1}}, {{0}}
loop:   add.u32 r1, r1, 1
        tst.u32 [0x02000000], {{r1}}, shape=(1,1), step=(0,0)
        blt.u32 r1, {passes}, loop
        write.u32 [0x2805000000], 0x5555
        halt
""")
elf = os.path.join(tmp, "loop.elf")
subprocess.run([os.path.join(b, "tools", "nxemu-as"), src, "-o", elf], check=True)
end = 0x1000000 + 0x40 * 4   # the write after the loop

def session(extra):
    sock = os.path.join(tmp, "g.sock")
    if os.path.exists(sock):
        os.unlink(sock)
    nx = subprocess.Popen([os.path.join(b, "nxemu"), "-S", "-gdb", "unix:" + sock,
                           "-device", "loader,file=" + elf] + extra,
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while not os.path.exists(sock):
        time.sleep(0.01)
    cmds = ["set pagination off", "target extended-remote " + sock,
            "break *%#x" % end, "continue",
            "python import time; t0 = time.time()", "reverse-stepi",
            "python print('T-STEP %.3f' % (time.time() - t0))",
            "delete", "watch *(int*)0x2000000",
            "python t0 = time.time()", "reverse-continue",
            "python print('T-CONT %.3f' % (time.time() - t0))",
            "p $r1", "delete", "continue"]
    argv = ["gdb-multiarch", "-nx", "-batch"]
    for c in cmds:
        argv += ["-ex", c]
    out = subprocess.run(argv, capture_output=True, text=True, timeout=600).stdout
    rc = nx.wait(timeout=60)
    step = float(re.search(r"T-STEP (\S+)", out).group(1))
    cont = float(re.search(r"T-CONT (\S+)", out).group(1))
    r1 = re.findall(r"^\$\d+ = (\d+)", out, re.M)
    if rc != 0 or r1 != [str(passes)]:
        sys.exit("gdb-reverse: wrong run (status %d, r1 %r):\n%s" % (rc, r1, out))
    return step, cont

pos = 3 * passes
s0, c0 = session(["-replay-memory", "0"])
s1, c1 = session([])
print(f"gdb-reverse: at position {pos}: reverse-stepi {s0:.3f} s from the start, "
      f"{s1:.3f} s from snapshots ({s0 / max(s1, 1e-3):.1f}x)")
print(f"gdb-reverse: at position {pos}: reverse-continue {c0:.3f} s from the start, "
      f"{c1:.3f} s from snapshots ({c0 / max(c1, 1e-3):.1f}x)")
PY
