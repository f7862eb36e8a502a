#!/bin/sh
# Sequencer ALU/branch throughput: a counted loop of 14 ALU_OPs + sub + bne
# (16 instructions per iteration).  Dynamic instruction count is exact:
# 1 (mov) + 16 * ITER + 1 (the PASS write, which ends the run: the halt
# never executes).  Prints M instructions/s for the
# whole process (start-up included).   usage: sh bench/seq-alu.sh BUILD_DIR
set -eu
B=${1:-build}
ITER=${ITER:-1000000}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cat > "$T/alu.s" <<ASM
        .org 0x01000000
        mov.u32 {r1, r2, r3, r4}, {$ITER, 1, 2, 3}
loop:   add.u32 r2, r2, r3
        xor.u32 r3, r3, r2
        mul.u32 r4, r4, 3
        lshr.u32 r5, r4, 3
        and.u32 r6, r5, 0xff
        or.u32 r7, r6, r2
        sub.u32 r8, r7, r3
        max.i32 r9, r8, r2
        min.u32 r10, r9, r4
        add.u32 r11, r10, 1
        ashr.u32 r12, r11, 1
        eq.u32 r13, r12, r11
        add.i64 r15:r14, r15:r14, 1
        absdiff.i32 r16, r2, r3
        sub.u32 r1, r1, 1
        bne.u32 r1, 0, loop
        write.u32 [0x2805000000], 0x5555
        halt
ASM
"$B/tools/nxemu-as" "$T/alu.s" -o "$T/alu.elf"
python3 - "$B/nxemu" "$T/alu.elf" "$ITER" <<'PY'
import resource, subprocess, sys, time
nxemu, elf, it = sys.argv[1], sys.argv[2], int(sys.argv[3])
count = 1 + 16 * it + 1
t0 = time.perf_counter()
r = subprocess.run([nxemu, "-kernel", elf])
dt = time.perf_counter() - t0
if r.returncode != 0:
    sys.exit(f"seq-alu: nxemu exited {r.returncode}")
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(f"seq-alu: {count} instructions in {dt:.3f} s = {count / dt / 1e6:.1f} M instructions/s"
      f" (peak RSS {rss} KiB)")
PY
