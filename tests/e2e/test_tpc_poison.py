#!/usr/bin/env python3
"""Poison mode on TPC VLM, end to end (docs/viewer.rst "Poison mode").

usage: test_tpc_poison.py NXEMU NXEMU_AS

A TPC kernel (32-byte bundles from 0, tpc.md §5) reads VLM bytes it wrote
and bytes nobody wrote; the sequencer launches it twice on TPC 0 with
different scalar arguments, since VLM and so its poison map persist across
launches (tpc.md §2).  With -machine poison=on nxemu must print exactly one
warning per uninitialised read range, in program order, naming the TPC,
the bundle's pc, the VLM offset and the bytes the instruction reads; the run
itself (exit status, PASS) is unchanged, and without poison=on nothing is
printed.  TAP output.
"""
import os
import subprocess
import sys
import tempfile

KBASE = 0x100000

# S0 = address of a vector load, S1 = address of a vector store, S2 = address
# of a last vector load (KERNEL_SRF 0..2).
KERNEL = """\
nop; nop; mov.i32 V1, V_LANE_ID_32; nop
nop; nop; nop; st_l_v 0x100, V1
ld_l_v V2, 0x100; nop; nop; nop
ld_l_v V3, 0x200; nop; nop; nop
ld_l_v V3, 0x200; nop; nop; nop
ld_l_v_high V4, 0x180; nop; nop; nop
ld_l_v_low V4, 0x300; nop; nop; nop
nop; nop; cmp_eq.i32 VP1, V_LANE_ID_32, 0x0; nop
nop; nop; nop; st_l_v 0x400, V1, VP1
ld_l_v V5, 0x400, VP1; nop; nop; nop
ld_l_v V5, 0x400; nop; nop; nop
ld_l_v V6, S0; nop; nop; nop
nop; nop; nop; st_l_v S1, V1
ld_l_v V7, S2; nop; nop; nop
ld_l_v VP2, 0x600; nop; nop; nop
nop; nop; nop; st_l_v 0x700, VP1
ld_l_v VP3, 0x700; nop; nop; nop
halt
nop
nop
nop
"""

# Launch 1: S0=0x1000 (never written), S1=0x2000, S2=0x100 (written above).
# Launch 2: S0=0x2000 (written by launch 1), S2=0x3000 (never written).
SEQ = """\
        .org 0x01000000
        write.u32 [0x2804000400], 0x01200000
        write.u32 [0x280400040c], 0x00000102
        write.u32 [0x2804000410], 64
        write.u32 [0x2804000414], 1
        write.u32 [0x2804000438], 0x01100000
        write.u32 [0x2804000444], 0x00000102
        write.u32 [0x2804000448], 64
        write.u32 [0x280400044c], 1
        write.u32 [0x28040007c0], 0x1000
        write.u32 [0x28040007c4], 0x2000
        write.u32 [0x28040007c8], 0x100
        write.u32 [0x2804001000], 0x80000005
        write.u32 [0x2804001008], 1
        nop wait(sem5 >= 1)
        write.u32 [0x28040007c0], 0x2000
        write.u32 [0x28040007c8], 0x3000
        write.u32 [0x2804001008], 1
        nop wait(sem5 >= 2)
        write.u32 [0x2805000000], 0x5555
        halt
"""

W = "nxemu: warning: poison: tpc=0 pc=0x%016x read of uninitialised VLM 0x%05x (size %d)"
# Bundle n is at pc 32 * n.  Silent: bundle 2 (written at 1), 4 (0x200 already
# reported), 5 (high half 0x180..0x1ff written at 1), 9 (only the bytes
# enabled by VP1 are loaded, and bundle 8 wrote exactly those), bundle 13 of
# launch 1 (0x100 written), bundle 16 (VPRF image stored at 15), and in
# launch 2 bundles 3, 6, 10 and 14 (already reported) and 11 (0x2000 written
# by launch 1).
WANT = [
    W % (3 * 32, 0x200, 256),
    W % (6 * 32, 0x300, 128),   # ld_l_v_low reads 128 bytes
    W % (10 * 32, 0x400, 256),  # the same bytes without the predicate
    W % (11 * 32, 0x1000, 256),
    W % (14 * 32, 0x600, 32),  # a VPRF image is 32 bytes
    W % (13 * 32, 0x3000, 256),  # launch 2
]


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=60)


def main():
    nxemu, nxemu_as = sys.argv[1:3]
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        ks, ko = os.path.join(tmp, "k.s"), os.path.join(tmp, "k.o")
        ss, so = os.path.join(tmp, "seq.s"), os.path.join(tmp, "seq.elf")
        with open(ks, "w", encoding="utf-8") as f:
            f.write(KERNEL)
        with open(ss, "w", encoding="utf-8") as f:
            f.write(SEQ)
        for cmd in ([nxemu_as, "-t", "tpc", "-o", ko, ks], [nxemu_as, "-o", so, ss]):
            r = run(cmd)
            if r.returncode != 0:
                print("Bail out! %s did not assemble: %s" % (cmd[-1], r.stderr.strip()))
                return 1
        base = [nxemu, "-nographic", "-kernel", so, "-device",
                "loader,file=%s,addr=%#x,tpc-num=0" % (ko, KBASE)]
        r = run(base[:1] + ["-machine", "poison=on"] + base[1:])
        results.append(("poison=on: the run is unchanged", r.returncode == 0,
                        "exit %d: %s" % (r.returncode, r.stderr.strip())))
        got = r.stderr.splitlines()
        results.append(("poison=on: exactly the uninitialised VLM reads, once each, "
                        "across two launches", got == WANT, "got %r" % got))
        r = run(base)
        results.append(("poison off: no warning", r.returncode == 0 and r.stderr == "",
                        "exit %d: %r" % (r.returncode, r.stderr)))
    print("1..%d" % len(results))
    failures = 0
    for n, (name, ok, why) in enumerate(results, 1):
        print("%s %d %s" % ("ok" if ok else "not ok", n, name))
        if not ok:
            failures += 1
            print("# " + why)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
