#!/bin/sh
# Sequencer interpreter speed against a floor, in one invocation: the loop
# of 6 ALU operations + sub + bne (8 instructions per iteration, ITER
# iterations, 2*10^9 instructions by default) run by nxemu and by
# bench/seq-floor.c, a minimal threaded interpreter of the same program
# compiled here with -O2 -march=native.  Both compute the same registers
# (nxemu's are written to memory and read back by the floor's check);
# prints instructions/s of each and the ratio.   usage: sh bench/seq-loop.sh BUILD_DIR
set -eu
B=${1:-build}
ITER=${ITER:-250000000}
CC=${CC:-cc}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
$CC -O2 -march=native -o "$T/floor" "$(dirname "$0")/seq-floor.c"
python3 - "$B" "$T" "$ITER" <<'PY'
import os, subprocess, sys, time
b, tmp, it = sys.argv[1], sys.argv[2], int(sys.argv[3])
# The floor first: its registers become the image's check (FAIL 1 if any differs).
t0 = time.perf_counter()
f = subprocess.run([os.path.join(tmp, "floor"), str(it)], capture_output=True, text=True,
                   check=True)
t_fl = time.perf_counter() - t0
regs = [int(x) for x in f.stdout.split()]
check = "".join(f"        bne.u32 r{r}, {v}, fail\n" for r, v in zip(range(2, 8), regs))
src = os.path.join(tmp, "loop.s")
with open(src, "w") as fh:
    fh.write(f"""        .org 0x01000000
        mov.u32 {{r1, r2, r3, r4}}, {{{it}, 1, 2, 3}}
loop:   add.u32 r2, r2, r3
        xor.u32 r3, r3, r2
        mul.u32 r4, r4, 3
        lshr.u32 r5, r4, 3
        and.u32 r6, r5, 0xff
        or.u32 r7, r6, r2
        sub.u32 r1, r1, 1
        bne.u32 r1, 0, loop
{check}        write.u32 [0x2805000000], 0x5555
        halt
fail:   write.u32 [0x2805000000], 0x13333
        halt
""")
elf = os.path.join(tmp, "loop.elf")
subprocess.run([os.path.join(b, "tools", "nxemu-as"), src, "-o", elf], check=True)
t0 = time.perf_counter()
r = subprocess.run([os.path.join(b, "nxemu"), "-kernel", elf], capture_output=True)
t_nx = time.perf_counter() - t0
if r.returncode != 0:
    sys.exit(f"seq-loop: nxemu exited {r.returncode} (1: registers differ from the floor's)")
n = 1 + 8 * it + 6 + 1  # mov, the loop, the checks, the PASS write (halt never runs)
nf = 8 * it
print(f"seq-loop: nxemu {n / t_nx / 1e6:.0f} M instructions/s ({n} in {t_nx:.3f} s); "
      f"floor {nf / t_fl / 1e6:.0f} M instructions/s ({t_fl:.3f} s); "
      f"nxemu/floor time per instruction {(t_nx / n) / (t_fl / nf):.2f}x")
PY
