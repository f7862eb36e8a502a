#!/bin/sh
# Sequencer DMA issue throughput: a counted loop of four 64-byte DMA_MEMCPYs,
# one 4-element DMA_INDIRECT gather, sub and bne (5 DMA instructions per
# iteration).  The engine (64-deep queue, 32 cycles latency, 64 bytes/cycle
# by default) completes a 64-byte request in 33 cycles, far slower than the
# core issues them, so the queue stays full and most DMA instructions retry
# several times before one is accepted: this measures the whole issue path,
# validation and full-queue retries included.  Exact count: 5 * ITER DMA
# instructions.  Prints DMA instructions/s for the whole process (start-up
# and the final drain included).   usage: sh bench/seq-dma.sh BUILD_DIR
set -eu
B=${1:-build}
ITER=${ITER:-100000}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cat > "$T/dma.s" <<ASM
        .org 0x01000000
        mov.u32 {r1}, {$ITER}
        tst.u32 [0x2000003000], #{3, 0, 2, 1}, shape=(4,1), step=(1,0)
loop:   dma src=[0x02000000] sshape=(16,1) sstep=(1,0) sesz=4 dst=[0x2000000000] dshape=(16,1) dstep=(1,0) desz=4 sem=1 inc=1
        dma src=[0x02000100] sshape=(16,1) sstep=(1,0) sesz=4 dst=[0x2000000100] dshape=(16,1) dstep=(1,0) desz=4 sem=1 inc=1
        dma src=[0x02000200] sshape=(4,4) sstep=(1,8) sesz=4 dst=[0x2000000200] dshape=(16,1) dstep=(1,0) desz=4 sem=1 inc=1
        dma src=[0x02000300] sshape=(16,1) sstep=(1,0) sesz=4 dst=[0x2000000300] dshape=(16,1) dstep=(1,0) desz=4 sem=1 inc=1
        dmai.gather src=[0x02000400] sn=4 sstep=1 sesz=4 dst=[0x2000004000] dn=4 dstep=1 desz=4 sidx=0x3000 sem=2 inc=1
        sub.u32 r1, r1, 1
        bne.u32 r1, 0, loop
        drain
        write.u32 [0x2805000000], 0x5555
        halt
ASM
"$B/tools/nxemu-as" "$T/dma.s" -o "$T/dma.elf"
python3 - "$B/nxemu" "$T/dma.elf" "$ITER" <<'PY'
import resource, subprocess, sys, time
nxemu, elf, it = sys.argv[1], sys.argv[2], int(sys.argv[3])
count = 5 * it
t0 = time.perf_counter()
r = subprocess.run([nxemu, "-kernel", elf])
dt = time.perf_counter() - t0
if r.returncode != 0:
    sys.exit(f"seq-dma: nxemu exited {r.returncode}")
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(f"seq-dma: {count} DMA instructions in {dt:.3f} s = {count / dt / 1e3:.1f} k DMA instructions/s"
      f" (peak RSS {rss} KiB)")
PY
