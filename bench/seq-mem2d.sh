#!/bin/sh
# Sequencer mem_2d throughput: a counted loop of one 32-element TensorLoad,
# one 32-element TensorStore, sub and bne (4 instructions, 64 elements per
# iteration).  Exact counts: 1 + 4 * ITER + 1 instructions (the PASS write
# ends the run before the halt), 64 * ITER
# elements.  Prints M elements/s and M instructions/s for the whole process.
# usage: sh bench/seq-mem2d.sh BUILD_DIR
set -eu
B=${1:-build}
ITER=${ITER:-300000}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cat > "$T/m2d.s" <<ASM
        .org 0x01000000
        mov.u32 {r1}, {$ITER}
loop:   tld.u32 {r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, r12, r13, r14, r15, r16, r17, r18, r19, r20, r21, r22, r23, r24, r25, r26, r27, r28, r29, r30, r31, r32, r33}, [0x02000000], shape=(8,4), step=(1,16)
        tst.u32 [0x02001000], {r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, r12, r13, r14, r15, r16, r17, r18, r19, r20, r21, r22, r23, r24, r25, r26, r27, r28, r29, r30, r31, r32, r33}, shape=(32,1), step=(-1,0)
        sub.u32 r1, r1, 1
        bne.u32 r1, 0, loop
        write.u32 [0x2805000000], 0x5555
        halt
ASM
"$B/tools/nxemu-as" "$T/m2d.s" -o "$T/m2d.elf"
python3 - "$B/nxemu" "$T/m2d.elf" "$ITER" <<'PY'
import resource, subprocess, sys, time
nxemu, elf, it = sys.argv[1], sys.argv[2], int(sys.argv[3])
insns, elems = 1 + 4 * it + 1, 64 * it
t0 = time.perf_counter()
r = subprocess.run([nxemu, "-kernel", elf])
dt = time.perf_counter() - t0
if r.returncode != 0:
    sys.exit(f"seq-mem2d: nxemu exited {r.returncode}")
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(f"seq-mem2d: {elems} elements ({insns} instructions) in {dt:.3f} s = "
      f"{elems / dt / 1e6:.1f} M elements/s, {insns / dt / 1e6:.1f} M instructions/s"
      f" (peak RSS {rss} KiB)")
PY
