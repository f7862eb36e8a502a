#!/bin/sh
# The memory system's bandwidth (docs/timing.rst, "Memory bandwidth"): the
# virtual cycles of one bandwidth-bound and one compute-bound TPC kernel on
# 1, 4 and 8 TPCs, and of 16 DMA copies of 64 KiB on 1 and 16 engines, each
# with the default HBM cap (memory@0 nxemu,bytes-per-cycle = 410) and with
# no binding cap (hbm-bpc=1048576).  Cycles are the machine's virtual time
# (nxemu-tpc-run's vtime, nxemu -d stats' run vtime): deterministic, the
# same on any host, launch included.
#  - bandwidth-bound: bench/stream-pipelined.s (out = a + 1.5, one vector
#    loaded and one stored per 2 bundles), bound by each TPC's 64-byte port:
#    it scales with the TPCs until their ports together pass the cap;
#  - compute-bound: the same loop with 8 dependent add.f32 per vector
#    (4 cycles each interlocked): far below the cap on 8 TPCs.
# Both over a 4096 x 256 f32 tensor (4 MiB in, 4 MiB out), interlocked.
# usage: sh bench/memory-bandwidth.sh BUILD_DIR
set -eu
B=${1:-build}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cat > "$T/compute.s" <<'ASM'
// out[x, y] = a[x, y] + 8 x S0, by 8 dependent add.f32 per vector.
nop; mov_irf_dim 0x0 S10, I0; nop; nop
nop; mov_irf_dim 0x0 S11, I1; nop; nop
nop; mov_irf_dim 0x1 S12, I0; nop; nop
nop; mov_irf_dim 0x1 S13, I1; nop; nop
nop; add.i32 S11, S11, S10; nop; nop
nop; add.i32 S13, S13, S12; nop; nop
loop S12, S13, 1, <, End1
nop
nop; set_indx I2, b00010, S32; nop; nop
loop S10, S11, 1, <, End0
nop
nop; mul.i32 S20, S33, 0x40; nop; nop
nop; set_indx I2, b00001, S20; nop; nop
ld_tnsr V1, 0x0, I2; nop; nop; nop
nop; nop; add.f32 V1, V1, S0; nop
nop; nop; add.f32 V1, V1, S0; nop
nop; nop; add.f32 V1, V1, S0; nop
nop; nop; add.f32 V1, V1, S0; nop
nop; nop; add.f32 V1, V1, S0; nop
nop; nop; add.f32 V1, V1, S0; nop
nop; nop; add.f32 V1, V1, S0; nop
nop; nop; add.f32 V1, V1, S0; nop
nop; nop; nop; st_tnsr 0x1, I2, V1
End0:
nop
End1:
halt
nop
nop
nop
ASM
cat > "$T/dma16.s" <<'ASM'
        .org 0x01000000
start:  mov.u32 r1, 0
loop:   write.u32 [0x100178], r1
        dma src=[0x02000000] sshape=(16384,1) sstep=(1,0) sesz=4 dst=[0x04000000] dshape=(16384,1) dstep=(1,0) desz=4 sem=1 inc=1
        add.u32 r1, r1, 1
        bne.u32 r1, 16, loop
        nop wait(sem1 >= 16)
        write.u32 [0x2805000000], 0x5555
        halt
ASM
"$B/tools/nxemu-as" -t tpc "$(dirname "$0")/stream-pipelined.s" -o "$T/stream.o"
"$B/tools/nxemu-as" -t tpc "$T/compute.s" -o "$T/compute.o"
"$B/tools/nxemu-as" "$T/dma16.s" -o "$T/dma16.elf"
python3 - "$B" "$T" <<'PY'
import os, re, struct, subprocess, sys
b, tmp = sys.argv[1], sys.argv[2]
W, H = 4096, 256
moved = 2 * W * H * 4
with open(os.path.join(tmp, "in.bin"), "wb") as f:
    f.write(struct.pack(f"<{W * H}f", *[float(i % 251) for i in range(W * H)]))
CAPS = (("cap 410", []), ("no cap", ["-M", "hbm-bpc=1048576"]))


def tpc(kernel, n, extra):
    r = subprocess.run([os.path.join(b, "tools/nxemu-tpc-run"), "-k", os.path.join(tmp, kernel),
                        "-n", str(n), "--index-space", f"{W // 64},{H}", "--farg", "1.5",
                        "--arg", "1", "-i", os.path.join(tmp, "in.bin") + f":{W}x{H}:f32",
                        "-o", os.path.join(tmp, "out.bin") + f":{W}x{H}:f32",
                        "--tpc-timing", "interlocked", *extra], capture_output=True, text=True)
    m = re.search(r"vtime=(\d+)", r.stderr)
    if r.returncode or not m:
        sys.exit(f"memory-bandwidth: nxemu-tpc-run exited {r.returncode}: {r.stderr.strip()}")
    return int(m.group(1))


for kernel, what in (("stream.o", "bandwidth-bound"), ("compute.o", "compute-bound")):
    for label, extra in CAPS:
        one = None
        for n in (1, 4, 8):
            v = tpc(kernel, n, extra)
            one = one or v
            print(f"memory-bandwidth: tpc {what:15s} {label:7s} tpcs={n} cycles={v:7d} "
                  f"speedup={one / v:5.2f} bytes/cycle={moved / v:6.1f}")


def dma(engines, extra):
    r = subprocess.run([os.path.join(b, "nxemu"), "-nographic", "-kernel",
                        os.path.join(tmp, "dma16.elf"), "-d", "stats",
                        "-M", f"dma={engines}" + extra], capture_output=True, text=True)
    m = re.search(r"run vtime=(\d+)", r.stderr)
    if r.returncode or not m:
        sys.exit(f"memory-bandwidth: nxemu exited {r.returncode}: {r.stderr.strip()}")
    return int(m.group(1))


for label, extra in (("cap 410", ""), ("no cap", ",hbm-bpc=1048576")):
    for n in (1, 16):
        v = dma(n, extra)
        print(f"memory-bandwidth: dma 16 x 64 KiB {label:7s} engines={n:2d} cycles={v:6d} "
              f"bytes/cycle={16 * 65536 / v:6.1f}")
PY
