#!/usr/bin/env python3
"""nxemu-tpc-run and the reference TPC launcher, run as users run them (TAP).

usage: test_tpc_run_launcher.py NXEMU NXEMU_AS NXEMU_TPC_RUN LAUNCHER_ELF KERNEL_SRC_DIR

Kernels (tests/tpc-run/*.s) are assembled with `nxemu-as -t tpc`.  Expected
tensors are computed here with f32 rounding of every operation (machine.md
§12.13), never taken from nxemu.  The launcher's FAIL codes are checked
through plain nxemu with a parameter block written by this script
(machine.md §6).
"""
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile
from fractions import Fraction

NXEMU, NXAS, TPCRUN, LAUNCHER, KSRC = sys.argv[1:6]
MAGIC = 0x4C50584E
STATS = re.compile(r"^nxemu-tpc-run: tpcs=(\d+) bundles=(\d+) cycles=(\d+) vtime=(\d+)$", re.M)

results = []


def check(name, cond, diag=""):
    results.append((name, bool(cond), diag))


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def f32_exact(v):
    """The f32 nearest to the exact rational v, ties to even (one rounding,
    as a fused multiply-add; float(v) alone would round twice)."""
    c = struct.unpack("<I", struct.pack("<f", float(v)))[0]
    best = None
    for bits in (c - 1, c, c + 1):
        if not 0 <= bits < 0x7F800000 and not 0x80000000 <= bits < 0xFF800000:
            continue
        x = struct.unpack("<f", struct.pack("<I", bits))[0]
        key = (abs(Fraction(x) - v), bits & 1)
        if best is None or key < best[0]:
            best = (key, x)
    return best[1]


def run(args, timeout=120):
    return subprocess.run(args, capture_output=True, text=True, timeout=timeout)


def main():
    tmp = tempfile.mkdtemp(prefix="tpc-run-")
    kernels = {}
    for k in ("add-f32", "axpy-f32", "fma-f32", "fault-slm"):
        out = os.path.join(tmp, k + ".o")
        p = run([NXAS, "-t", "tpc", os.path.join(KSRC, k + ".s"), "-o", out])
        if p.returncode != 0:  # the assembler is under test too: a failure, not a skip
            print("1..1")
            print(f"not ok 1 nxemu-as -t tpc cannot assemble {k}.s: {p.stderr.strip()}")
            return 1
        kernels[k] = out

    # Inputs: a 100 x 5 f32 tensor pair (100 is not a multiple of the 64 lanes,
    # so the last vector of each row is padded on load and culled on store).
    W, H = 100, 5
    rnd = random.Random(1234)
    a = [f32(rnd.uniform(-1000, 1000)) for _ in range(W * H)]
    b = [f32(rnd.uniform(-1000, 1000)) for _ in range(W * H)]
    fa, fb = os.path.join(tmp, "a.bin"), os.path.join(tmp, "b.bin")
    with open(fa, "wb") as f:
        f.write(struct.pack(f"<{W*H}f", *a))
    with open(fb, "wb") as f:
        f.write(struct.pack(f"<{W*H}f", *b))
    shape = f"{W}x{H}"
    space = "2,%d" % H  # ceil(100/64) vectors per row, H rows

    # Element-wise add on 1, 2 and 4 TPCs: H = 5 rows split 5 / 3+2 / 2+2+1
    # (the fourth part is empty and not launched).
    want_add = struct.pack(f"<{W*H}f", *[f32(x + y) for x, y in zip(a, b)])
    outs = {}
    for n in (1, 2, 4):
        fo = os.path.join(tmp, f"add{n}.bin")
        p = run([TPCRUN, "-k", kernels["add-f32"], "-n", str(n), "--index-space", space,
                 "-i", f"{fa}:{shape}:f32", "-i", f"{fb}:{shape}:f32", "-o", f"{fo}:{shape}:f32"])
        check(f"add-f32 -n {n}: exit 0", p.returncode == 0, p.stderr)
        m = STATS.search(p.stderr)
        check(f"add-f32 -n {n}: statistics line", m and int(m.group(1)) == n and
              int(m.group(2)) > 0 and int(m.group(3)) >= int(m.group(2)), p.stderr)
        got = open(fo, "rb").read() if os.path.exists(fo) else b""
        outs[n] = got
        check(f"add-f32 -n {n}: output = a + b", got == want_add,
              f"{len(got)} bytes, first difference at "
              f"{next((i for i in range(min(len(got), len(want_add))) if got[i] != want_add[i]), -1)}")
    check("add-f32: identical output on 1, 2 and 4 TPCs", outs[1] == outs[2] == outs[4])

    # -d in_asm,exec -D FILE: the log names each bundle once at decode and
    # every executed bundle once (so as many exec lines as retired bundles),
    # from the direct loop as from the staged path: same output.
    flog, fo = os.path.join(tmp, "run.log"), os.path.join(tmp, "add-log.bin")
    p = run([TPCRUN, "-k", kernels["add-f32"], "--index-space", space, "-d", "in_asm,exec",
             "-D", flog, "-machine", "hbm=256M", "-i", f"{fa}:{shape}:f32", "-i", f"{fb}:{shape}:f32",
             "-o", f"{fo}:{shape}:f32"])
    log = open(flog).read() if os.path.exists(flog) else ""
    m = STATS.search(p.stderr)
    nexec = len(re.findall(r"^exec: tpc=0 0x[0-9a-f]{8}: \S", log, re.M))
    check("-d exec -D: exit 0, output = a + b, one exec line per retired bundle",
          p.returncode == 0 and m and nexec == int(m.group(2)) and
          open(fo, "rb").read() == want_add, f"{nexec} exec lines; {p.stderr}")
    # TPC lines have the sequencer's format ("exec: core=0 0x...: <disasm>")
    # with tpc=N: add-f32.s's first two bundles, as written in the source
    check("-d in_asm: the first bundle printed in the vendor syntax",
          "in_asm: tpc=0 0x00000000: nop; mov_irf_dim 0x0 S10, I0; nop; nop\n" in log, log[:300])
    check("-d exec: TPC bundles carry their disassembly, like sequencer lines",
          "exec: tpc=0 0x00000020: nop; mov_irf_dim 0x0 S11, I1; nop; nop\n" in log and
          re.search(r"^exec: core=0 0x[0-9a-f]{16}: \S", log, re.M) is not None, log[:300])
    # -monitor stdio, as nxemu's (#41): with -S nothing has run when the
    # commands are read (TPC 0 still in RESET, the output tensor zeros); cont
    # runs it to the same result; -D is published after loading and written
    # as the run goes, so the stopped run's log already holds the loader's
    # lines while nxemu-tpc-run waits.
    fo3, flog3 = os.path.join(tmp, "add-mon.bin"), os.path.join(tmp, "mon.log")
    with open(flog3, "w") as f:
        f.write("old contents\n")
    mp = subprocess.Popen([TPCRUN, "-k", kernels["add-f32"], "--index-space", space,
                           "-monitor", "stdio", "-S", "-d", "machine", "-D", flog3,
                           "-i", f"{fa}:{shape}:f32", "-i", f"{fb}:{shape}:f32",
                           "-o", f"{fo3}:{shape}:f32"], stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    live = ""
    for _ in range(200):
        live = open(flog3).read()
        if "loader:" in live:
            break
        subprocess.run(["sleep", "0.05"])
    waiting = mp.poll() is None
    out, err = mp.communicate("info cores\nxp 0x%x 4\ncont\n" % 0x4000000, timeout=120)
    got = open(fo3, "rb").read() if os.path.exists(fo3) else b""
    check("-monitor stdio -S: info cores before the launch, cont runs to the same output",
          mp.returncode == 0 and re.search(r"^pid 2 tpc0 state=RESET ", out, re.M) and
          got == want_add and STATS.search(err), out + err)
    check("-D: the log is published after loading and written as the run goes",
          waiting and "loader:" in live and "old contents" not in live, live[:300])
    p = run([TPCRUN, "-k", kernels["add-f32"], "--index-space", space, "-S"])
    check("-S without -s, -gdb or -monitor stdio: one line, exit 125",
          p.returncode == 125 and p.stderr == "nxemu-tpc-run: -S: needs -s, -gdb or -monitor "
          "stdio (something to continue from)\n", p.stderr)
    p = run([TPCRUN, "--time", "-k", kernels["add-f32"], "--index-space", space,
             "-i", f"{fa}:{shape}:f32", "-i", f"{fb}:{shape}:f32", "-o", f"{fo}:{shape}:f32"])
    check("--time: the statistics line, then the run's host CPU seconds",
          p.returncode == 0 and STATS.search(p.stderr) and
          re.search(r"^nxemu-tpc-run: run time [0-9]+\.[0-9]{6} s \(host CPU\)$", p.stderr,
                    re.M), p.stderr)
    p = run([TPCRUN, "-d", "help"])
    check("-d help: lists the log items, exit 0, runs nothing",
          p.returncode == 0 and "in_asm" in p.stdout and "exec" in p.stdout and
          "bundles=" not in p.stderr, p.stdout + p.stderr)
    check("-d help: lists only the items it accepts (not commit, stats)",
          p.returncode == 0 and not re.search(r"^(commit|stats) ", p.stdout, re.M), p.stdout)
    p = run([TPCRUN, "-k", kernels["add-f32"], "--index-space", space, "-d", "stats"])
    check("-d stats: refused with one line, exit 125",
          p.returncode == 125 and p.stderr.count("\n") == 1 and "-d stats" in p.stderr, p.stderr)

    # nxemu's spellings work too: long options with one dash or two, and
    # --name=VALUE; -machine keys nxemu-tpc-run does not offer are refused.
    fo1 = os.path.join(tmp, "add-spell.bin")
    p = run([TPCRUN, "-kernel", kernels["add-f32"], "-tpcs=2", "-index-space", space,
             "--machine=hbm=256M", "-cycle-limit", "10000000", "-i", f"{fa}:{shape}:f32",
             "-i", f"{fb}:{shape}:f32", "-o", f"{fo1}:{shape}:f32"])
    got = open(fo1, "rb").read() if os.path.exists(fo1) else b""
    check("single-dash long options and --name=VALUE: exit 0, output = a + b",
          p.returncode == 0 and got == want_add, p.stderr)
    p = run([TPCRUN, "-k", kernels["add-f32"], "--index-space", space, "-machine", "dumpdtb=x"])
    check("-machine dumpdtb=: refused with one line, exit 125",
          p.returncode == 125 and p.stderr == "nxemu-tpc-run: -machine dumpdtb: not offered by "
          "nxemu-tpc-run (run the launcher under nxemu)\n", p.stderr)
    # poison=on: add-f32 reads only its inputs (written by the runner), so
    # nothing is reported and the result is the same
    fo2 = os.path.join(tmp, "add-poison.bin")
    p = run([TPCRUN, "-k", kernels["add-f32"], "--index-space", space, "-machine", "poison=on",
             "-i", f"{fa}:{shape}:f32", "-i", f"{fb}:{shape}:f32", "-o", f"{fo2}:{shape}:f32"])
    got = open(fo2, "rb").read() if os.path.exists(fo2) else b""
    check("-machine poison=on: a kernel reading only its inputs runs with no report",
          p.returncode == 0 and got == want_add and "poison" not in p.stderr, p.stderr)

    # Fewer tensors than the kernel names: add-f32's st_tnsr (bundle 16 of
    # tests/tpc-run/add-f32.s, pc 16 * 32 = 0x200) uses tensor 2, so two -i
    # and no -o is an error before the run, not a run over a zero descriptor.
    p = run([TPCRUN, "-k", kernels["add-f32"], "--index-space", space,
             "-i", f"{fa}:{shape}:f32", "-i", f"{fb}:{shape}:f32"])
    check("a tensor id without -i/-o: one line naming it, exit 125, nothing run",
          p.returncode == 125 and p.stderr == f"nxemu-tpc-run: {kernels['add-f32']}: st_tnsr at "
          "pc=0x00000200 uses tensor 2, but 2 tensors are given (-i/-o are descriptors 0..T-1; "
          "this kernel needs at least 3)\n", p.stderr)

    # --cycle-limit in the middle of a kernel: a LOOP of 2^24 iterations over
    # two NOP bundles never ends within 100000 cycles.  The statistics give
    # the TPC's own counts (one cycle per bundle): all of the run after the
    # launcher's start-up (about 2000 cycles, docs/tpc-run.rst), not the
    # BUNDLES/CYCLES registers, which are only latched at the kernel's end.
    spin = os.path.join(tmp, "spin.s")
    with open(spin, "w") as f:
        f.write("loop 0x0, 0x1000000, 1, <, End\nnop\nnop\nEnd:\nnop\nhalt\nnop\nnop\nnop\n")
    p = run([NXAS, "-t", "tpc", spin, "-o", spin + ".o"])
    p = run([TPCRUN, "-k", spin + ".o", "--index-space", "1", "--cycle-limit", "100000"])
    m = STATS.search(p.stderr)
    check("--cycle-limit mid-kernel: exit 123, the TPC's real bundle and cycle counts",
          p.returncode == 123 and m and int(m.group(2)) == int(m.group(3)) and
          90000 < int(m.group(2)) < int(m.group(4)) - 2000 and int(m.group(4)) >= 100000,
          p.stderr)
    # the limit line says where the cores were: the launcher blocked on its
    # completion semaphore, the TPC inside the loop body (0x20 or 0x40)
    check("--cycle-limit: the limit line is followed by the cores' positions",
          re.search(r"^nxemu: limit: icount=\d+ vtime=\d+\n"
                    r"nxemu:   core=0 pc=0x[0-9a-f]{16} state=BLOCKED wait=sem\[0\] .*\n"
                    r"nxemu:   tpc=0 pc=0x000000[24]0 state=RUNNING\n", p.stderr, re.M), p.stderr)
    bad = os.path.join(tmp, "no-such-dir", "c.bin")
    p = run([TPCRUN, "-k", kernels["add-f32"], "--index-space", space, "-i", f"{fa}:{shape}:f32",
             "-i", f"{fb}:{shape}:f32", "-o", f"{bad}:{shape}:f32"])
    check("-o into a missing directory: one line naming -o, exit 125, before the run",
          p.returncode == 125 and p.stderr.count("\n") == 1 and
          p.stderr.startswith("nxemu-tpc-run: -o ") and "bundles=" not in p.stderr, p.stderr)
    p = run([TPCRUN, "-k", kernels["add-f32"], "--index-space", space, "-d", "nosuch"])
    check("-d nosuch: one line naming the item, exit 125",
          p.returncode == 125 and p.stderr.count("\n") == 1 and "nosuch" in p.stderr, p.stderr)

    # The completion semaphore is data in the parameter block: the launcher
    # must wait on the one it was given (it patches its own wait record).
    for sem in (7, 255):
        fo = os.path.join(tmp, f"add-sem{sem}.bin")
        p = run([TPCRUN, "-k", kernels["add-f32"], "-n", "2", "--sem", str(sem),
                 "--index-space", space, "-i", f"{fa}:{shape}:f32", "-i", f"{fb}:{shape}:f32",
                 "-o", f"{fo}:{shape}:f32"])
        got = open(fo, "rb").read() if os.path.exists(fo) else b""
        check(f"add-f32 --sem {sem}: exit 0 and output = a + b",
              p.returncode == 0 and got == want_add, p.stderr)

    # Scalar argument and index base: rows 1..3 only (--index-base 0,1,
    # --index-space 2,3); the other rows of the output stay zero (HBM resets
    # to zero).  The output is given an explicit address.
    s = 0.75
    want = []
    for y in range(H):
        for x in range(W):
            i = y * W + x
            want.append(f32(f32(a[i] * s) + b[i]) if 1 <= y <= 3 else 0.0)
    want_axpy = struct.pack(f"<{W*H}f", *want)
    for n in (1, 2, 4):
        fo = os.path.join(tmp, f"axpy{n}.bin")
        p = run([TPCRUN, "-k", kernels["axpy-f32"], "-n", str(n), "--index-space", "2,3",
                 "--index-base", "0,1", "--farg", str(s), "-i", f"{fa}:{shape}:f32",
                 "-i", f"{fb}:{shape}:f32", "-o", f"{fo}:{shape}:f32@0x08000000"])
        got = open(fo, "rb").read() if os.path.exists(fo) else b""
        check(f"axpy-f32 -n {n} with --farg and --index-base: exit 0 and output", p.returncode == 0
              and got == want_axpy, p.stderr)

    # The same with mac.f32: a * s + b rounded once (a kernel using MAC, VPU
    # opcode 0, was refused as naming tensor 10 before tensor-use.c looked at
    # the form instead of the opcode).
    want = [f32_exact(Fraction(a[i]) * Fraction(s) + Fraction(b[i])) for i in range(W * H)]
    fo = os.path.join(tmp, "fma.bin")
    p = run([TPCRUN, "-k", kernels["fma-f32"], "--index-space", space, "--farg", str(s),
             "-i", f"{fa}:{shape}:f32", "-i", f"{fb}:{shape}:f32", "-o", f"{fo}:{shape}:f32"])
    got = open(fo, "rb").read() if os.path.exists(fo) else b""
    check("fma-f32 (mac.f32): exit 0 and output = a * s + b, one rounding",
          p.returncode == 0 and got == struct.pack(f"<{W*H}f", *want), p.stderr)

    # One row only: the split falls on dim 0 (4 vectors of 64 lanes over 200
    # elements, one vector per TPC with -n 4).
    row = [f32(x + y) for x, y in zip(a[:200], b[:200])]
    got1 = {}
    for n in (1, 4):
        fo = os.path.join(tmp, f"row{n}.bin")
        fa1, fb1 = os.path.join(tmp, "a1.bin"), os.path.join(tmp, "b1.bin")
        with open(fa1, "wb") as f:
            f.write(struct.pack("<200f", *a[:200]))
        with open(fb1, "wb") as f:
            f.write(struct.pack("<200f", *b[:200]))
        p = run([TPCRUN, "-k", kernels["add-f32"], "-n", str(n), "--index-space", "4",
                 "-i", f"{fa1}:200:f32", "-i", f"{fb1}:200:f32", "-o", f"{fo}:200:f32"])
        got1[n] = open(fo, "rb").read() if os.path.exists(fo) else b""
        check(f"add-f32 rank 1, split on dim 0, -n {n}", p.returncode == 0 and
              got1[n] == struct.pack("<200f", *row), p.stderr)

    # A faulting kernel: the machine's fault status and line come through,
    # with the faulting bundle on the next line.
    p = run([TPCRUN, "-k", kernels["fault-slm"], "-n", "2", "--index-space", "1,2"])
    check("faulting kernel: exit 139, the TPC fault line and its bundle", p.returncode == 139 and
          "nxemu: fault: tpc=0 code=SLM_RANGE(6) info=0x00000000 pc=0x00000020 "
          "addr=0x0000000000000400\n"
          "nxemu:   at pc=0x00000020: ld_l S1, 0x400; nop; nop; nop\n" in p.stderr, p.stderr)

    # Usage errors: exit 125 and one line.
    for name, args in (
        ("no kernel", ["--index-space", "1"]),
        ("no index space", ["-k", kernels["add-f32"]]),
        ("unknown dtype", ["-k", kernels["add-f32"], "--index-space", "1", "-i", f"{fa}:{shape}:f64"]),
        ("bad shape", ["-k", kernels["add-f32"], "--index-space", "1", "-i", f"{fa}:100x0:f32"]),
        ("file size mismatch", ["-k", kernels["add-f32"], "--index-space", "1", "-i", f"{fa}:10x5:f32"]),
        ("-n above the machine's TPCs", ["-k", kernels["add-f32"], "-n", "2", "-machine", "tpc=1",
                                         "--index-space", "1"]),
        ("kernel not an ELF", ["-k", fa, "--index-space", "1"]),
        ("unknown option", ["--frobnicate"]),
    ):
        p = run([TPCRUN] + args)
        lines = p.stderr.strip().splitlines()
        check(f"usage error ({name}): exit 125, one line", p.returncode == 125 and len(lines) == 1
              and lines[0].startswith("nxemu-tpc-run: "), f"rc={p.returncode} {p.stderr}")

    # The launcher alone through nxemu, with a hand-written parameter block.
    def block(magic, n, t=0):
        blk = struct.pack("<IIQIIII", magic, n, 0x02000000, 0, 0, 0, t)
        blk += struct.pack("<10I", 0, 1, 0, 0, 0, 0, 0, 0, 0, 0) + struct.pack("<II", 0, 0)
        return blk + bytes(128)

    def launcher(blk, tpcs):
        f = os.path.join(tmp, "block.bin")
        with open(f, "wb") as fh:
            fh.write(blk)
        return run([NXEMU, "-nographic", "-machine", f"tpc={tpcs}", "-kernel", LAUNCHER,
                    "-device", f"loader,file={f},addr=0x01f00000",
                    "-device", f"loader,file={kernels['add-f32']},addr=0x02000000"])

    p = launcher(block(0x4C50584F, 1), 1)
    check("launcher: bad magic -> FAIL 2", p.returncode == 2, p.stderr)
    for n, tpcs in ((0, 1), (2, 1), (5, 4), (65, 4)):
        p = launcher(block(MAGIC, n), tpcs)
        check(f"launcher: N={n} on {tpcs} TPC(s) -> FAIL 3", p.returncode == 3, p.stderr)
    p = launcher(block(MAGIC, 1, t=17), 1)
    check("launcher: T=17 -> FAIL 4", p.returncode == 4, p.stderr)

    # Without an in-memory DTB the launcher cannot count the TPCs and probes
    # TPC N-1 instead (docs/tpc-run.rst): a good N still works, a too large N
    # is a bus error on that TPC's STATUS before anything is launched.
    dts = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "pc-bios", "nc2.dts")
    dtc = shutil.which("dtc")
    if dtc and os.path.exists(dts):
        src = open(dts).read().replace("nxemu,dtb-in-memory;", "")
        fdts, fdtb = os.path.join(tmp, "nodtb.dts"), os.path.join(tmp, "nodtb.dtb")
        with open(fdts, "w") as f:
            f.write(src)
        run([dtc, "-q", "-I", "dts", "-O", "dtb", "-o", fdtb, fdts])
        fo = os.path.join(tmp, "nodtb.bin")
        p = run([TPCRUN, "-dtb", fdtb, "-k", kernels["add-f32"], "-n", "4", "--index-space",
                 space, "-i", f"{fa}:{shape}:f32", "-i", f"{fb}:{shape}:f32",
                 "-o", f"{fo}:{shape}:f32"])
        got = open(fo, "rb").read() if os.path.exists(fo) else b""
        check("no in-memory DTB: -n 4 still correct", p.returncode == 0 and got == want_add,
              p.stderr)
        f = os.path.join(tmp, "block.bin")
        with open(f, "wb") as fh:
            fh.write(block(MAGIC, 2))
        p = run([NXEMU, "-dtb", fdtb, "-kernel", LAUNCHER,
                 "-device", f"loader,file={f},addr=0x01f00000"])
        check("no in-memory DTB: N=2 on 1 TPC -> BUS_ERROR at TPC 1 STATUS",
              p.returncode == 135 and "addr=0x000000280401100c" in p.stderr, p.stderr)

    print(f"1..{len(results)}")
    bad = 0
    for i, (name, ok, diag) in enumerate(results, 1):
        print(f"{'ok' if ok else 'not ok'} {i} - {name}")
        if not ok:
            bad += 1
            for line in str(diag).strip().splitlines()[:10]:
                print(f"# {line}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
