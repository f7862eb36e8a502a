#!/usr/bin/env python3
"""Multi-round slices against one-round slices, register by register.

usage: slice-equiv.py IMAGE.elf SOURCE.s [IMAGE.elf SOURCE.s ...]
       (NXEMU_LIBRARY and PYTHONPATH as for the Python package's tests)

Each image runs in two child processes through the C API (python/nxemu):
once as sched_run does it (solo slices of up to 1024 rounds) and once with
NXEMU_SLICE_ROUNDS=1, where every round is a slice of its own (machine.md
§8 as written).  Each child prints the exit status, the diagnostic report,
the final VTIME and icount, every sequencer's state, PC, RETIRED, fault
registers and r0..r63, and a digest of the memory the images use (MEM); its
stdout (the guest's console bytes) and stderr (the -d int,sem,dma,machine
log, which has every semaphore and event change and every DMA issue and
completion in order) are compared too.  All of it must be identical.  The
images' `; args:` lines are used (the C API's options), @IMAGE@ as in
run-image.py.
"""
import ctypes
import hashlib
import os
import shlex
import subprocess
import sys

LOG = ["-d", "int,sem,dma,machine"]
# code and data in HBM where the images put them, and the start of SBUF
MEM = [(0x01000000, 0x01800000), (0x2000000000, 0x30000)]
SEQ_FIELDS = ["pc", "status", "retired", "fault_code", "fault_info", "fault_pc", "fault_addr"]


def child(image, args):
    import nxemu
    m = nxemu.Machine(args + LOG)
    st = m.run()
    ctypes.CDLL(None).fflush(None)  # the guest's console bytes first
    out = [f"status={st} vtime={m.vtime} icount={m.icount}", "report:", m.report]
    for c in m.seq:
        regs = " ".join(f"{c[f'r{i}']:x}" for i in range(64))
        more = " ".join(f"{f}={c[f]:x}" for f in SEQ_FIELDS)
        out.append(f"seq{c.index} state={c.state} {more}\n  {regs}")
    h = hashlib.sha256()
    for base, size in MEM:
        h.update(m.read(base, size))
    out.append("mem " + h.hexdigest())
    print("\n".join(out), flush=True)
    return 0


def image_args(image, source):
    """The `; args:` options (@IMAGE@ = the image), loading the image with
    -device loader unless they do, as run-image.py does."""
    args = []
    with open(source, encoding="utf-8") as f:
        for raw in f:
            s = raw.strip().lstrip(";").strip()
            if raw.strip().startswith(";") and s.startswith("args:"):
                args += [a.replace("@IMAGE@", image) for a in shlex.split(s[len("args:"):])]
    if not any(image in a for a in args):
        args += ["-device", "loader,file=" + image]
    return args


def main(pairs):
    bad = 0
    for image, source in zip(pairs[0::2], pairs[1::2]):
        args = image_args(image, source)
        runs = []
        for rounds in (None, "1"):
            env = dict(os.environ)
            env.pop("NXEMU_SLICE_ROUNDS", None)
            if rounds:
                env["NXEMU_SLICE_ROUNDS"] = rounds
            p = subprocess.run([sys.executable, __file__, "--child", image] + args,
                               capture_output=True, env=env, timeout=120)
            runs.append(p)
        a, b = runs
        name = os.path.basename(source)
        if a.returncode != 0:
            print(f"FAIL {name}: the child failed ({a.returncode}):\n{a.stderr.decode()}")
            bad += 1
        elif (a.stdout, a.stderr) != (b.stdout, b.stderr):
            print(f"FAIL {name}: multi-round slices differ from one-round slices")
            print("--- multi-round ---\n" + a.stdout.decode() + a.stderr.decode())
            print("--- one-round ---\n" + b.stdout.decode() + b.stderr.decode())
            bad += 1
        else:
            print(f"ok {name}: " + a.stdout.decode().splitlines()[0]
                  if b"status=" in a.stdout else f"ok {name}")
    return 1 if bad else 0


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        sys.exit(child(sys.argv[2], sys.argv[3:]))
    sys.exit(main(sys.argv[1:]))
