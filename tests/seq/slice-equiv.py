#!/usr/bin/env python3
"""Multi-round slices against one-round slices, register by register.

usage: slice-equiv.py [--random COUNT SEED] [IMAGE.elf SOURCE.s ...]
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
run-image.py.  --random adds COUNT generated programs of 1-3 cores
(random_program), each under -cycle-limit 8000.
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


def random_program(rng, cores):
    """Per-core straight-line code from blocks that cross rounds and touch
    what other agents see: loops, semaphore posts and waits (each wait with
    a post of its semaphore somewhere in another core, so that cores block
    while others run), DMA requests on either engine, DRAIN, reads of VTIME,
    of DMA destinations and of an engine's COMPLETED register.  Waits may
    still deadlock and loops may run into the cycle limit: either way the
    run must end the same in both modes."""
    blocks = [[] for _ in range(cores)]
    for c in range(cores):
        for _ in range(rng.randrange(3, 9)):
            kind = rng.choice("llllpwwddrrvc" + ("n" if c == 0 else ""))
            if kind in "pw":
                sem = rng.randrange(1, 3)
                blocks[c].append((kind, sem))
                if kind == "w" and cores > 1:
                    other = rng.choice([o for o in range(cores) if o != c])
                    at = rng.randrange(len(blocks[other]) + 1)
                    # and the poster runs on: only the post can end its slice
                    blocks[other][at:at] = [("p", sem), ("l", None)]
            else:
                blocks[c].append((kind, None))
    # the word of the DMA source that the reads of a destination look at:
    # nonzero, so that they show whether the copy landed
    out = ["        .org 0x01000000",
           f"        write.u32 [0x0200003c], {rng.randrange(1, 1 << 31)}",
           "        tld.u32 {r1}, [0x100158], shape=(1,1), step=(0,0)"]
    for c in range(1, cores):
        out.append(f"        beq.u32 r1, {c}, core{c}")
    for c in range(cores):
        out.append(f"core{c}:")
        reads = 20
        for b, (kind, sem) in enumerate(blocks[c]):
            if kind == "l":
                out += [f"        mov.u32 {{r2}}, {{{rng.randrange(1, 300)}}}",
                        f"c{c}l{b}:  add.u32 r3, r3, r2",
                        "        xor.u32 r4, r4, r3",
                        "        sub.u32 r2, r2, 1",
                        f"        bne.u32 r2, 0, c{c}l{b}"]
            elif kind == "p":
                out.append(f"        nop post(sem{sem}++)")
            elif kind == "w":
                out.append(f"        nop wait(sem{sem} >= 1)")
            elif kind == "d":
                size = rng.choice([64, 256, 4096, 8192])
                dst = 0x02100000 + rng.randrange(8) * 0x4000
                out += [f"        write.u32 [0x100178], {rng.randrange(2)}",
                        f"        dma src=[0x02000000] sshape=(1,1) sstep=(0,0) sesz={size} "
                        f"dst=[{dst:#x}] dshape=(1,1) dstep=(0,0) desz={size} "
                        f"sem={rng.randrange(3, 5)} inc=1"]
            elif kind == "n":
                out.append("        drain")
            elif reads < 60:
                addr = {"r": 0x02100000 + rng.randrange(8) * 0x4000 + 0x3c,
                        "v": 0x100170, "c": 0x2803800008}[kind]
                out.append(f"        tld.u32 {{r{reads}}}, [{addr:#x}], shape=(1,1), step=(0,0)")
                reads += 1
        out.append("        halt")
    return "\n".join(out) + "\n"


def random_images(count, seed, tmp):
    """count random programs (random_program) as (image, source, args)."""
    import random
    import nxemu
    rng = random.Random(seed)
    for i in range(count):
        cores = rng.randrange(1, 4)
        src = os.path.join(tmp, f"rand{i}.s")
        with open(src, "w", encoding="utf-8") as f:
            f.write(random_program(rng, cores))
        img = src[:-2] + ".elf"
        with open(img, "wb") as f:
            f.write(nxemu.seq.assemble(open(src, encoding="utf-8").read()))
        args = [f"-smp", f"seq={cores}", "-cycle-limit", "8000"]
        for c in range(cores):
            args += ["-device", f"loader,file={img}" + (f",cpu-num={c}" if c else "")]
        yield img, src, args


def main(argv):
    bad = 0
    todo = []
    tmp = None
    if argv and argv[0] == "--random":
        import tempfile
        tmp = tempfile.TemporaryDirectory(prefix="slice-equiv-")
        todo += list(random_images(int(argv[1]), int(argv[2]), tmp.name))
        argv = argv[3:]
    for image, source in zip(argv[0::2], argv[1::2]):
        todo.append((image, source, image_args(image, source)))
    for image, source, args in todo:
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
