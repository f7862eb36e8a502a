#!/bin/sh
# Scheduler cost around the sequencer (softmmu/sched.c): the 8-instruction
# loop of seq-loop.sh in three machines, ITER iterations each:
#  - solo:     one core (one solo slice per 1024 rounds)
#  - waiter:   two cores, core 1 blocked on a semaphore core 0 posts at the
#              end (solo slices beside a blocked core, no retries per round)
#  - dma:      one core, a 64 KiB DMA issued every 250 iterations, so a
#              request is always in flight (solo slices up to completions)
# and, as the reference, each of them with NXEMU_SLICE_ROUNDS=1 (every
# round a slice of its own).  Prints M guest instructions/s per run; with
# CALLGRIND=1 host instructions per guest instruction under valgrind
# instead (repeatable on a loaded machine: the difference of two sizes, so
# start-up cancels).   usage: sh bench/seq-sched.sh BUILD_DIR
set -eu
B=${1:-build}
ITER=${ITER:-20000000}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
python3 - "$B" "$T" "$ITER" "${CALLGRIND:-0}" <<'PY'
import os, re, subprocess, sys, time
b, tmp, it, cg = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4] == "1"
BODY = """        add.u32 r2, r2, r3
        xor.u32 r3, r3, r2
        mul.u32 r4, r4, 3
        lshr.u32 r5, r4, 3
        and.u32 r6, r5, 0xff
        or.u32 r7, r6, r2
"""
PASS = "        write.u32 [0x2805000000], 0x5555\n        halt\n"

def prog(kind, n):
    if kind == "solo":
        return (f"        .org 0x01000000\n        mov.u32 {{r1}}, {{{n}}}\n"
                f"loop:\n{BODY}        sub.u32 r1, r1, 1\n        bne.u32 r1, 0, loop\n" + PASS)
    if kind == "waiter":
        return (f"        .org 0x01000000\n"
                f"        tld.u32 {{r9}}, [0x100158], shape=(1,1), step=(0,0)\n"
                f"        bne.u32 r9, 0, core1\n        mov.u32 {{r1}}, {{{n}}}\n"
                f"loop:\n{BODY}        sub.u32 r1, r1, 1\n        bne.u32 r1, 0, loop\n"
                f"        nop post(sem1++)\n        halt\n"
                f"core1:  nop wait(sem1 >= 1)\n" + PASS)
    outer = max(n // 250, 1)
    return (f"        .org 0x01000000\n        mov.u32 {{r10}}, {{{outer}}}\n"
            f"outer:  dma src=[0x02000000] sshape=(1,1) sstep=(0,0) sesz=65536 "
            f"dst=[0x02100000] dshape=(1,1) dstep=(0,0) desz=65536 sem=9 inc=1\n"
            f"        mov.u32 {{r1}}, {{250}}\n"
            f"loop:\n{BODY}        sub.u32 r1, r1, 1\n        bne.u32 r1, 0, loop\n"
            f"        sub.u32 r10, r10, 1\n        bne.u32 r10, 0, outer\n        drain\n" + PASS)

def build(kind, n):
    src, elf = os.path.join(tmp, f"{kind}{n}.s"), os.path.join(tmp, f"{kind}{n}.elf")
    with open(src, "w") as f:
        f.write(prog(kind, n))
    subprocess.run([os.path.join(b, "tools", "nxemu-as"), src, "-o", elf], check=True)
    if kind == "waiter":
        return ["-smp", "seq=2", "-device", f"loader,file={elf}",
                "-device", f"loader,file={elf},cpu-num=1"]
    return ["-kernel", elf]

def icount(args, env):
    r = subprocess.run([os.path.join(b, "nxemu"), "-d", "machine"] + args, env=env,
                       capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"seq-sched: nxemu exited {r.returncode}: {r.stderr}")
    return int(re.search(r"run ended: .* icount=(\d+)", r.stderr).group(1))

def host_insns(args, env):
    r = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                        os.path.join(b, "nxemu")] + args, env=env, capture_output=True,
                       text=True)
    return int(re.search(r"refs:\s+([\d,]+)", r.stderr).group(1).replace(",", ""))

for kind in ("solo", "waiter", "dma"):
    for rounds in (None, "1"):
        env = dict(os.environ)
        env.pop("NXEMU_SLICE_ROUNDS", None)
        if rounds:
            env["NXEMU_SLICE_ROUNDS"] = rounds
        mode = "one-round slices" if rounds else "default"
        if cg:
            small, big = build(kind, 25000), build(kind, 250000)
            dh = host_insns(big, env) - host_insns(small, env)
            dg = icount(big, env) - icount(small, env)
            print(f"seq-sched: {kind} ({mode}): {dh / dg:.2f} host instructions per guest "
                  f"instruction (callgrind, {dg} instructions)")
        else:
            args = build(kind, it)
            n = icount(args, env)
            t0 = time.perf_counter()
            subprocess.run([os.path.join(b, "nxemu")] + args, env=env, check=True)
            dt = time.perf_counter() - t0
            print(f"seq-sched: {kind} ({mode}): {n / dt / 1e6:.0f} M instructions/s "
                  f"({n} in {dt:.3f} s)")
PY
