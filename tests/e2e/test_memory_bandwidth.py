#!/usr/bin/env python3
"""The memory system's bandwidth from the command line (docs/timing.rst,
"Memory bandwidth"), TAP output.

usage: test_memory_bandwidth.py NXEMU NXEMU_AS NXEMU_TPC_RUN LAUNCHER_ELF SRCDIR

  - DMA engines share the HBM cap (memory@0 nxemu,bytes-per-cycle, -M
    hbm-bpc=): 16 copies of 64 KiB take 16 x (32 + 65536 / 64) cycles on one
    engine, about one copy's time on 16 engines without a binding cap, and
    at least 32 + 1 MiB / 410 with the default cap of 410 bytes per cycle;
  - TPC ports share the cap: the streaming kernel bench/stream-pipelined.s,
    bound by its port (64 bytes per cycle), is no faster on 4 TPCs than on
    one when the HBM carries 64 bytes per cycle, and about 4 times faster
    without a binding cap;
  - results never depend on the timing parameters: the kernel's output bytes
    and the DMA program's check are the same for every cap, port rate,
    latency, engine rate and TPC count, functional or interlocked;
  - a TPC load from a tensor in SBUF waits sram-latency= cycles, one from
    HBM gmem-latency= (tests/tpc-run/add-f32.s: 8 loads);
  - SBUF/PSUM traffic takes none of the cap: 16 DMA copies SBUF -> SBUF on
    16 engines and a streaming kernel on 8 TPCs with its tensors in SBUF
    take exactly as long with a cap of 64 as with no binding cap; the same
    from HBM take at least bytes / 64 cycles;
  - a bad hbm-bpc=, dma-bpc= or sram-latency= is a one-line error, exit 125.
"""
import os
import re
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tapkit import Tap  # noqa: E402

NXEMU, NXAS, TPCRUN, LAUNCHER, SRC = sys.argv[1:6]
os.environ["NXEMU_TPC_LAUNCHER"] = LAUNCHER
t = Tap("nxemu-bw-")
VTIME = re.compile(r"^stats: run vtime=(\d+) ", re.M)
RUN = re.compile(r"^nxemu-tpc-run: tpcs=(\d+) bundles=(\d+) cycles=(\d+) vtime=(\d+)$", re.M)

# 16 copies of 64 KiB (16384 f32), copy i on engine i % engines (DMA_ENGINE
# = i, taken modulo the engines); the last word of the source is checked in
# the destination after all 16 completed (FAIL exit 1 otherwise).
DMA16 = """
        .org 0x01000000
start:  write.u32 [SRCEND], 0x12345678
        mov.u32 r1, 0
loop:   write.u32 [0x100178], r1
        dma src=[SRC] sshape=(16384,1) sstep=(1,0) sesz=4 dst=[DST] dshape=(16384,1) dstep=(1,0) desz=4 sem=1 inc=1
        add.u32 r1, r1, 1
        bne.u32 r1, 16, loop
        nop wait(sem1 >= 16)
        tld.u32 {r2}, [DSTEND], shape=(1,1), step=(1,0)
        bne.u32 r2, 0x12345678, bad
        write.u32 [0x2805000000], 0x5555
        halt
bad:    write.u32 [0x2805000000], 0x13333
        halt
"""


def dma16(*machine, src=0x02000000, dst=0x04000000):
    text = DMA16
    for k, v in (("SRCEND", src + 0xfffc), ("DSTEND", dst + 0xfffc), ("SRC", src), ("DST", dst)):
        text = text.replace(k, hex(v))
    src = t.write("dma16.s", text)
    elf = t.path("dma16.elf")
    t.assemble([NXAS], src, elf)
    args = [NXEMU, "-nographic", "-kernel", elf, "-d", "stats"]
    if machine:
        args += ["-M", ",".join(machine)]
    r = t.run(*args)
    assert r.returncode == 0, (machine, r.returncode, r.stderr)
    return int(VTIME.search(r.stderr).group(1))


W, H = 4096, 16  # f32: 256 KiB in, 256 KiB out


def stream(name, tpcs, *opts):
    k = t.path("pipe.o")
    if not os.path.exists(k):
        t.assemble([NXAS, "-t", "tpc"], os.path.join(SRC, "bench/stream-pipelined.s"), k)
        with open(t.path("in.bin"), "wb") as f:
            f.write(struct.pack(f"<{W * H}f", *[float(i % 97) - 40.0 for i in range(W * H)]))
    out = t.path(name)
    r = t.run(TPCRUN, "-k", k, "-n", str(tpcs), "--index-space", f"{W // 64},{H}", "--farg",
              "1.5", "--arg", "1", "-i", t.path("in.bin") + f":{W}x{H}:f32", "-o",
              out + f":{W}x{H}:f32", *opts)
    assert r.returncode == 0, (opts, r.stderr)
    m = RUN.search(r.stderr)
    assert m, r.stderr
    with open(out, "rb") as f:
        return int(m.group(4)), f.read()


@t.test
def dma_engines_share_the_hbm_cap():
    one = 32 + 65536 // 64  # one copy alone: latency + bytes / 64
    v1 = dma16("dma=1")
    # one engine: the 16 copies one after the other
    assert 16 * one <= v1 < 16 * one + 200, v1
    # 16 engines, a cap above their 16 x 64: the copies overlap
    vfree = dma16("dma=16", "hbm-bpc=1048576")
    assert one <= vfree < one + 200, vfree
    # the default cap, 410 bytes per cycle: the 1 MiB needs 1048576 / 410
    # cycles after the latency at least
    vcap = dma16()
    low = 32 + -(-1048576 // 410)
    assert low <= vcap < low + 200, vcap
    # a cap of one engine's 64: 16 engines are no faster than one
    v64 = dma16("dma=16", "hbm-bpc=64")
    assert 32 + 1048576 // 64 <= v64 < 16 * one + 200, v64
    # one engine at 16 bytes per cycle (dma-bpc=16): 16 x (32 + 65536 / 16)
    v16 = dma16("dma=1", "dma-bpc=16")
    assert 16 * (32 + 4096) <= v16 < 16 * (32 + 4096) + 200, v16


@t.test
def tpc_ports_share_the_hbm_cap():
    # the kernel moves 2 x 256 KiB through ports of 64 bytes per cycle
    lo = 2 * W * H * 4 // 64
    v1, o1 = stream("s1.bin", 1, "--tpc-timing", "interlocked")
    assert v1 >= lo, v1
    # an HBM of 64 bytes per cycle: 4 TPCs together no faster than one
    v4, o4 = stream("s4.bin", 4, "--tpc-timing", "interlocked", "-M", "hbm-bpc=64")
    assert v4 >= lo and v4 >= v1 * 0.97, (v1, v4)
    # no binding cap: each TPC moves a quarter of the bytes at its port's rate
    v4f, o4f = stream("s4f.bin", 4, "--tpc-timing", "interlocked", "-M", "hbm-bpc=1048576")
    assert v4f < v1 * 0.5, (v1, v4f)
    # the default cap of 410 lies between 4 and 8 ports of 64: 8 TPCs are
    # slower than without a cap, 4 are not
    v4d, _ = stream("s4d.bin", 4, "--tpc-timing", "interlocked")
    assert v4d == v4f, (v4d, v4f)
    v8d, _ = stream("s8d.bin", 8, "--tpc-timing", "interlocked")
    v8f, _ = stream("s8f.bin", 8, "--tpc-timing", "interlocked", "-M", "hbm-bpc=1048576")
    assert v8d > v8f, (v8d, v8f)
    assert o1 == o4 == o4f


@t.test
def results_do_not_depend_on_timing_parameters():
    _, ref = stream("r0.bin", 1)
    # out = in + 1.5, by hand
    want = struct.pack(f"<{W * H}f", *[float(i % 97) - 40.0 + 1.5 for i in range(W * H)])
    assert ref == want
    n = 0
    for tpcs in (1, 4, 8):
        for mode in ("functional", "interlocked"):
            for m in ("hbm-bpc=1", "hbm-bpc=64,gmem-bpc=1", "hbm-bpc=410,gmem-latency=50",
                      "hbm-bpc=1048576,gmem-bpc=256,gmem-latency=7"):
                n += 1
                _, out = stream(f"r{n}.bin", tpcs, "--tpc-timing", mode, "-M", m)
                assert out == ref, (tpcs, mode, m)
    for m in (("dma=1", "dma-bpc=1"), ("hbm-bpc=1",), ("dma=16", "hbm-bpc=7", "dma-bpc=1000")):
        dma16(*m)  # exits 0 only if the copies' data arrived


@t.test
def sbuf_loads_take_the_sram_latency():
    # add-f32 on one row, port 256 B/cycle: 66 cycles without load latency
    # (docs/timing.rst "Profiles"); its 8 ld_tnsr each wait the latency of
    # the memory their tensor is in: 66 + 8 x 10 = 146 from HBM
    k = t.path("add.o")
    t.assemble([NXAS, "-t", "tpc"], os.path.join(SRC, "tests/tpc-run/add-f32.s"), k)
    for fn, v in (("a1.bin", [i * 0.5 for i in range(256)]),
                  ("b1.bin", [i * -0.25 for i in range(256)])):
        with open(t.path(fn), "wb") as f:
            f.write(struct.pack("<256f", *v))
    outs = set()

    def cycles(m, sbuf):
        at = ("@0x2000000000", "@0x2000040000") if sbuf else ("", "")
        r = t.run(TPCRUN, "-k", k, "--index-space", "4,1", "-i", t.path("a1.bin") +
                  ":256x1:f32" + at[0], "-i", t.path("b1.bin") + ":256x1:f32" + at[1], "-o",
                  t.path("o1.bin") + ":256x1:f32", "--tpc-timing", "interlocked", "-M", m)
        assert r.returncode == 0, r.stderr
        outs.add(open(t.path("o1.bin"), "rb").read())
        return int(RUN.search(r.stderr).group(3))
    assert cycles("gmem-latency=10,gmem-bpc=256", False) == 146
    assert cycles("gmem-latency=10,gmem-bpc=256", True) == 66  # SBUF: 0 by default
    assert cycles("gmem-latency=10,gmem-bpc=256,sram-latency=10", True) == 146
    assert cycles("gmem-latency=0,gmem-bpc=256,sram-latency=10", False) == 66
    assert cycles("gmem-latency=0,gmem-bpc=256,sram-latency=5", True) == 66 + 8 * 5
    assert len(outs) == 1


@t.test
def sbuf_traffic_is_outside_the_hbm_cap():
    sb0, sb1 = 0x2000000000, 0x2000040000  # SBUF partitions 0 and 1 (192 KiB each)
    # DMA: 16 x 64 KiB SBUF -> SBUF on 16 engines, each at its 64 bytes per
    # cycle whatever the cap: the same virtual time with a cap of 64 as
    # with none
    free = dma16("dma=16", "hbm-bpc=1048576", src=sb0, dst=sb1)
    capped = dma16("dma=16", "hbm-bpc=64", src=sb0, dst=sb1)
    assert capped == free, (capped, free)
    assert free < 32 + 65536 // 64 + 200, free
    # HBM -> HBM and HBM -> SBUF under the cap of 64: 1 MiB / 64 cycles at least
    for v in (dma16("dma=16", "hbm-bpc=64"), dma16("dma=16", "hbm-bpc=64", dst=sb1)):
        assert v >= 32 + 1048576 // 64, v
    # TPCs: the streaming kernel on 8 TPCs over 4096 x 4 f32 (64 KiB in, 64
    # KiB out) in SBUF is not slowed by a cap of 64 (as fast as in HBM with
    # no binding cap); in HBM it moves its 128 KiB at 64 bytes per cycle at
    # most
    k = t.path("pipe-sb.o")
    t.assemble([NXAS, "-t", "tpc"], os.path.join(SRC, "bench/stream-pipelined.s"), k)
    h = 4
    with open(t.path("in4.bin"), "wb") as f:
        f.write(struct.pack(f"<{W * h}f", *[float(i % 97) - 40.0 for i in range(W * h)]))
    outs = set()

    def vt(cap, sbuf):
        at = (f"@{sb0:#x}", f"@{sb1:#x}") if sbuf else ("", "")
        r = t.run(TPCRUN, "-k", k, "-n", "8", "--index-space", f"{W // 64},{h}", "--farg", "1.5",
                  "--arg", "1", "-i", t.path("in4.bin") + f":{W}x{h}:f32" + at[0], "-o",
                  t.path("o4.bin") + f":{W}x{h}:f32" + at[1], "--tpc-timing", "interlocked",
                  "-M", f"hbm-bpc={cap}")
        assert r.returncode == 0, r.stderr
        outs.add(open(t.path("o4.bin"), "rb").read())
        return int(RUN.search(r.stderr).group(4))
    a, b, c, d = vt(64, True), vt(1048576, True), vt(64, False), vt(1048576, False)
    assert a == b == d < c and c >= 2 * W * h * 4 // 64, (a, b, c, d)
    assert len(outs) == 1


@t.test
def bad_values_are_one_line_errors():
    for key, msg in (("hbm-bpc=0", "hbm-bpc=0: must be 1..1048576"),
                     ("dma-bpc=1048577", "dma-bpc=1048577: must be 1..1048576"),
                     ("hbm-bpc=x", "hbm-bpc=x: not a number"),
                     ("sram-latency=1048577", "sram-latency=1048577: must be 0..1048576")):
        r = t.run(NXEMU, "-nographic", "-M", key, "-kernel", LAUNCHER)
        assert r.returncode == 125 and r.stderr.count("\n") == 1 and msg in r.stderr, r.stderr
        r = t.run(TPCRUN, "-k", t.path("pipe.o"), "--index-space", "1", "-M", key)
        assert r.returncode == 125 and r.stderr.count("\n") == 1 and msg in r.stderr, r.stderr


t.main()
