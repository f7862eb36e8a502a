#!/usr/bin/env python3
"""TPC kernels run end to end, the way a user runs them (TAP output).

usage: test_tpc_run.py NXEMU NXEMU_AS

Each case assembles a TPC kernel (nxemu-as -t tpc) and a sequencer program
(nxemu-as), loads the kernel with -device loader,...,tpc-num=0 (tpc.md §7.1,
machine.md §11.1), and runs nxemu.  The sequencer writes the descriptors and
arguments through TPC 0's machine window, sets COMPLETION_SEM, writes
EXECUTE, waits for the semaphore and checks results in HBM, then reports
PASS or FAIL through the test device (machine.md §6, §7).  Fault cases check
the exact diagnostic line and exit status of tpc.md §6.6 / machine.md §9.
"""
import os
import subprocess
import sys
import tempfile

KBASE = 0x100000
OUT = 0x01100000  # HBM, also reachable by the sequencer at the same address
IN = 0x01200000

# Descriptor 0: i32 input at IN, 64 elements; descriptor 1: i32 output at OUT.
DESCS = """
        write.u32 [0x2804000400], 0x01200000
        write.u32 [0x280400040c], 0x00000102
        write.u32 [0x2804000410], 64
        write.u32 [0x2804000414], 1
        write.u32 [0x2804000438], 0x01100000
        write.u32 [0x2804000444], 0x00000102
        write.u32 [0x2804000448], 64
        write.u32 [0x280400044c], 1
"""

LAUNCH = """
        write.u32 [0x2804001000], 0x80000005
        write.u32 [0x2804001008], 1
        nop wait(sem5 >= {n})
"""

# TPC 1 runs the same kernel (loaded at KBASE for TPC 0 only, so its
# KERNEL_BASE is written here) with its own output descriptor and argument;
# both TPCs signal semaphore 5.
TPC1 = f"""
        write.u32 [0x2804010788], {KBASE:#x}
        write.u32 [0x2804010438], 0x01100100
        write.u32 [0x2804010444], 0x00000102
        write.u32 [0x2804010448], 64
        write.u32 [0x280401044c], 1
        write.u32 [0x28040107c0], 50
        write.u32 [0x2804011000], 0x80000005
        write.u32 [0x2804011008], 1
"""


def seq_program(body, checks, nwait=1):
    """Sequencer image: setup, launch, then `checks` = [(addr, value)]."""
    lines = ["        .org 0x01000000", DESCS, body, LAUNCH.format(n=nwait)]
    for i, (addr, val) in enumerate(checks):
        lines.append(f"        tld.u32 {{r1}}, [{addr:#x}], shape=(1,1), step=(0,0)")
        lines.append(f"        bne.u32 r1, {val:#x}, f{i + 1}")
    lines.append("        write.u32 [0x2805000000], 0x5555")
    lines.append("        halt")
    for i in range(len(checks)):
        lines.append(f"f{i + 1}:     write.u32 [0x2805000000], {((i + 1) << 16) | 0x3333:#x}")
        lines.append("        halt")
    return "\n".join(lines) + "\n"


TAIL = "halt\nnop\nnop\nnop\n"

CASES = [
    # name, kernel, sequencer setup, checks, extra args, exit, stderr line (or
    # consecutive lines: a fault line and the disassembly of the bundle at its pc)
    ("scalar-arg-st-g",
     "gen_addr AD0, 0x1, I2; add.i32 S1, S0, 0x2; nop; nop\n"
     "nop; nop; nop; st_g AD0, S1\n" + TAIL,
     "        write.u32 [0x28040007c0], 40\n",
     [(OUT, 42)], [], 0, None),
    # V2 = V1 + V1 over the 64 input lanes, with one lane disabled by VP1
    ("vector-add-tensor",
     "ld_tnsr V1, 0x0, I2; nop; nop; nop\n"
     "nop; nop; cmp_neq.i32 VP1, V_LANE_ID_32, 0x3; nop\n"
     "nop; nop; add.i32 V2, V1, V1, VP1; nop\n"
     "nop; nop; nop; st_tnsr 0x1, I2, V2\n" + TAIL,
     "",
     [(OUT, 2 * 7), (OUT + 4, 2 * 8), (OUT + 12, 0), (OUT + 252, 2 * 9)],
     ["-device", f"loader,addr={IN:#x},data=7,data-len=4",
      "-device", f"loader,addr={IN + 4:#x},data=8,data-len=4",
      "-device", f"loader,addr={IN + 12:#x},data=5,data-len=4",
      "-device", f"loader,addr={IN + 252:#x},data=9,data-len=4"],
     0, None),
    ("two-tpcs",
     "gen_addr AD0, 0x1, I2; add.i32 S1, S0, 0x2; nop; nop\n"
     "nop; nop; nop; st_g AD0, S1\n" + TAIL,
     "        write.u32 [0x28040007c0], 40\n" + TPC1,
     [(OUT, 42), (OUT + 0x100, 52)], ["-smp", "seq=1,tpc=2"], 0, None),
    ("loop-sum",
     "loop 0x0, 0xa, 0x1, <, End\n"
     "nop; nop; nop; nop\n"
     "nop; add.i32 S1, S1, S32; nop; nop\n"
     "End:\n"
     "gen_addr AD0, 0x1, I2; nop; nop; nop\n"
     "nop; nop; nop; st_g AD0, S1\n" + TAIL,
     "", [(OUT, 45)], [], 0, None),
    ("fault-slm-range",
     "nop; nop; nop; nop\nld_l S1, 0x400; nop; nop; nop\n" + TAIL,
     "", [], [], 139,
     ["nxemu: fault: tpc=0 code=SLM_RANGE(6) info=0x00000000 pc=0x00000020 "
      "addr=0x0000000000000400",
      "nxemu:   at pc=0x00000020: ld_l S1, 0x400; nop; nop; nop"]),
    ("fault-global",
     "gen_addr AD0, 0x0, I2; nop; nop; nop\nld_g S1, AD0; nop; nop; nop\n" + TAIL,
     "        write.u32 [0x2804000404], 0x10\n",
     [], [], 135,
     ["nxemu: fault: tpc=0 code=GLOBAL_FAULT(8) info=0x00000000 pc=0x00000020 "
      "addr=0x0000001001200000",
      "nxemu:   at pc=0x00000020: ld_g S1, AD0; nop; nop; nop"]),
    ("fault-illegal-opcode",
     # SPU opcode 0x30 is not defined: hand-written bundle
     ".long 0x00000030, 0x0001f800, 0x0, 0x0f800000, 0x0001f000, 0x0, 0x0, 0x0\n" + TAIL,
     # the bundle does not decode: its words, on the line after the fault line
     "", [], [], 132, ["nxemu: fault: tpc=0 code=ILLEGAL_OPCODE(1) info=0x00003001 "
                       "pc=0x00000000 addr=0x0000000000000000",
                       "nxemu:   at pc=0x00000000: // bad bundle .long 0x00000030, 0x0001f800, "
                       "0x00000000, 0x0f800000, 0x0001f000, 0x00000000, 0x00000000, "
                       "0x00000000"]),
    # tpc.md §6.1: LD and SPU slots both write S1.  Without -tpc-strict the
    # later slot (SPU: 40 + 4) wins; the bundle has one
    # immediate, shared by both slots (SLM address 4, addend 4) and a one-time warning names the PC.
    ("bundle-conflict",
     "gen_addr AD0, 0x1, I2; nop; nop; nop\n"
     "ld_l S1, 0x4; add.i32 S1, S0, 0x4; nop; nop\n"
     "nop; nop; nop; st_g AD0, S1\n" + TAIL,
     "        write.u32 [0x28040007c0], 40\n",
     [(OUT, 44)], [], 0, "nxemu: warning: tpc=0 bundle-conflict pc=0x00000020"),
    # tpc.md §6.6 code 12: with -tpc-strict the same bundle faults; INFO is the
    # register encoding of S1 (§4.2: S0..S31 are 64..95), exit 128+SIGILL.
    ("bundle-conflict-strict",
     "gen_addr AD0, 0x1, I2; nop; nop; nop\n"
     "ld_l S1, 0x4; add.i32 S1, S0, 0x4; nop; nop\n"
     "nop; nop; nop; st_g AD0, S1\n" + TAIL,
     "        write.u32 [0x28040007c0], 40\n",
     [], ["-tpc-strict"], 132,
     ["nxemu: fault: tpc=0 code=BUNDLE_CONFLICT(12) info=0x00000041 "
      "pc=0x00000020 addr=0x0000000000000000",
      "nxemu:   at pc=0x00000020: ld_l S1, 0x4; add.i32 S1, S0, 0x4; nop; nop"]),
]


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=60, **kw)


def main():
    nxemu, nxemu_as = sys.argv[1:3]
    print(f"1..{len(CASES)}")
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for n, (name, kernel, setup, checks, extra, want_exit, want_err) in \
                enumerate(CASES, 1):
            ks, ko = os.path.join(tmp, name + ".s"), os.path.join(tmp, name + ".o")
            ss, so = os.path.join(tmp, name + "-seq.s"), os.path.join(tmp, name + ".elf")
            with open(ks, "w", encoding="utf-8") as f:
                f.write(kernel)
            with open(ss, "w", encoding="utf-8") as f:
                f.write(seq_program(setup, checks, 2 if "0x2804011008" in setup else 1))
            why = None
            for cmd in ([nxemu_as, "-t", "tpc", "-o", ko, ks], [nxemu_as, "-o", so, ss]):
                r = run(cmd)
                if r.returncode != 0:
                    why = f"{os.path.basename(cmd[-1])} did not assemble: {r.stderr.strip()}"
                    break
            if why is None:
                r = run([nxemu, "-nographic", "-kernel", so, "-device",
                         f"loader,file={ko},addr={KBASE:#x},tpc-num=0"] + extra)
                errs = r.stderr.splitlines()
                if r.returncode != want_exit:
                    why = f"exit {r.returncode}, expected {want_exit}: {r.stderr.strip()}"
                elif want_err is not None:
                    want = [want_err] if isinstance(want_err, str) else want_err
                    if not any(errs[i:i + len(want)] == want for i in range(len(errs))):
                        why = f"stderr lacks {want!r}: {r.stderr.strip()}"
            if why is None:
                print(f"ok {n} {name}")
            else:
                failures += 1
                print(f"not ok {n} {name}")
                print(f"# {why}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
