#!/bin/sh
# gdb reverse execution, in one invocation:
# 1. how long one reverse-stepi and one reverse-continue (to a watchpoint)
#    take at position N of a one-sequencer loop, re-executing from the start
#    (-replay-memory 0) and from snapshots (the defaults); the seconds of
#    each and the ratio;
# 2. "who wrote this word?" far back with the default options: a store at
#    position 1, then WHO_PASSES passes of a two-instruction loop that never
#    touches the word (10^8 instructions by default), stopped at the end;
#    `watch` and `reverse-continue` against the forward `continue` over the
#    same run in the same gdb session (docs/gdb.rst: at most twice as
#    long), REPEAT sessions (the spread shows the host's noise).
# usage: sh bench/gdb-reverse.sh BUILD_DIR
#        (PASSES=10000000 -> 3*10^7 steps; WHO_PASSES=50000000; REPEAT=3)
set -eu
B=${1:-build}
PASSES=${PASSES:-10000000}
WHO_PASSES=${WHO_PASSES:-50000000}
REPEAT=${REPEAT:-3}
command -v gdb-multiarch >/dev/null || { echo "gdb-reverse: gdb-multiarch missing, skipped"; exit 0; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
python3 - "$B" "$T" "$PASSES" "$WHO_PASSES" "$REPEAT" <<'PY'
import os, re, subprocess, sys, time
b, tmp, passes = sys.argv[1], sys.argv[2], int(sys.argv[3])
who_passes, repeat = int(sys.argv[4]), int(sys.argv[5])
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

def start(image, extra=()):
    sock = os.path.join(tmp, "g.sock")
    if os.path.exists(sock):
        os.unlink(sock)
    nx = subprocess.Popen([os.path.join(b, "nxemu"), "-S", "-gdb", "unix:" + sock,
                           "-device", "loader,file=" + image] + list(extra),
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while not os.path.exists(sock):
        time.sleep(0.01)
    return nx, sock


def session(extra):
    nx, sock = start(elf, extra)
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

# 2. who wrote this word, 2 * who_passes + 2 instructions back
who = os.path.join(tmp, "who.s")
with open(who, "w") as f:
    f.write(f"""        .org 0x01000000
        mov.u32 {{r2}}, {{0x1234}}
        tst.u32 [0x02000100], {{r2}}, shape=(1,1), step=(0,0)
loop:   add.u32 r1, r1, 1
        blt.u32 r1, {who_passes}, loop
        halt
""")
who_elf = os.path.join(tmp, "who.elf")
subprocess.run([os.path.join(b, "tools", "nxemu-as"), who, "-o", who_elf], check=True)
halt = 0x1000000 + 0x40 * 4
rows = []
for _ in range(repeat):
    nx, sock = start(who_elf)
    cmds = ["set pagination off", "target extended-remote " + sock, "break *%#x" % halt,
            "python import time; t0 = time.time()", "continue",
            "python print('T-FWD %.3f' % (time.time() - t0))",
            "monitor info replay", "delete", "watch *(int*)0x2000100",
            "python t0 = time.time()", "reverse-continue",
            "python print('T-REV %.3f' % (time.time() - t0))",
            "p/x $pc", "monitor info replay", "delete", "continue"]
    argv = ["gdb-multiarch", "-nx", "-batch"]
    for c in cmds:
        argv += ["-ex", c]
    out = subprocess.run(argv, capture_output=True, text=True, timeout=900)
    text = out.stdout + out.stderr
    rc = nx.wait(timeout=60)
    fwd = re.search(r"T-FWD (\S+)", text)
    rev = re.search(r"T-REV (\S+)", text)
    if not fwd or not rev or rc != 0 or "seq0 at pc=0x1000040 writes PA 0x2000100" not in text:
        sys.exit("gdb-reverse: who-wrote run went wrong (status %d):\n%s" % (rc, text))
    steps = re.search(r"re-executed (\d+) steps", text)
    snaps = re.search(r"(\d+) snapshots? of (\d+) bytes", text)
    rows.append((float(fwd.group(1)), float(rev.group(1)),
                 steps.group(1) if steps else "?",
                 "%s snapshots of %s bytes at the end" % snaps.groups() if snaps
                 else "no snapshots"))
for f, r, steps, snaps in rows:
    print(f"gdb-reverse: who wrote 0x2000100, {2 * who_passes + 2} instructions back, defaults: "
          f"forward continue {f:.2f} s, reverse-continue {r:.2f} s ({r / max(f, 1e-3):.2f}x), "
          f"re-executed {steps} steps ({snaps})")
ratios = sorted(r / max(f, 1e-3) for f, r, _, _ in rows)
print(f"gdb-reverse: who-wrote ratio over {len(rows)} sessions: min {ratios[0]:.2f}x, "
      f"max {ratios[-1]:.2f}x")
PY
