#!/usr/bin/env python3
"""Random TPC bundles never crash nxemu (TAP).

usage: tpc_random_bundles.py NXEMU_AS NXEMU_TPC_RUN CORPUS_DIR... [--runs N] [--seed S]
                             [--bundles B] [--keep DIR]

Each run builds a kernel of B (default 256) bundles from a seeded generator
and launches it through nxemu-tpc-run (reference launcher on the sequencer,
then 1 or 2 TPCs) with all 16 tensors and a cycle limit.  Bundles are a
mix, chosen per run, of: valid bundles taken from the assembled kernels of
the CORPUS_DIRs (*.s, except fault-*.s and the plain halt bundle), bundles
whose SPU/VPU/LD/ST slots are spliced from several valid ones, valid bundles
with a few random bit flips, and fully random 32-byte patterns; the kernel ends with halt + 3 nops.  Every run must
end in a documented state (tpc.md §6.6, docs/tpc-run.rst): exit 0 with the
statistics line, exit 123 (cycle limit), or exit 132/135/139 with the
`nxemu: fault: tpc=...` line; never a signal, a hang (timeout), another exit
status or a sanitizer report.  A failing run names its seed: rerun it with
`--seed S --runs 1 --keep DIR` to get the kernel object.
"""
import glob
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile

FAULT = re.compile(r"^nxemu: fault: tpc=\d+ code=[A-Z_]+\(\d+\) info=0x[0-9a-f]{8} "
                   r"pc=0x[0-9a-f]{8} addr=0x[0-9a-f]{16}$", re.M)
SANITIZER = ("AddressSanitizer", "LeakSanitizer", "UndefinedBehaviorSanitizer", "runtime error:")
CYCLE_LIMIT = 200000


def text_section(elf):
    """(offset, size) of .text in an ELF32 little-endian file."""
    shoff, = struct.unpack_from("<I", elf, 0x20)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", elf, 0x2E)
    strtab_off = struct.unpack_from("<I", elf, shoff + shstrndx * shentsize + 16)[0]
    for i in range(shnum):
        name, _, _, _, off, size = struct.unpack_from("<IIIIII", elf, shoff + i * shentsize)
        end = elf.index(b"\0", strtab_off + name)
        if elf[strtab_off + name:end] == b".text":
            return off, size
    raise ValueError("no .text section")


def build_corpus(nxas, dirs, tmp):
    bundles = set()
    for d in dirs:
        for src in sorted(glob.glob(os.path.join(d, "*.s"))):
            if os.path.basename(src).startswith("fault-"):
                continue
            obj = os.path.join(tmp, "corpus.o")
            p = subprocess.run([nxas, "-t", "tpc", src, "-o", obj], capture_output=True)
            if p.returncode != 0:
                continue
            elf = open(obj, "rb").read()
            off, size = text_section(elf)
            for i in range(off, off + size, 32):
                bundles.add(elf[i:i + 32])
    return sorted(bundles)


def _mask(*ranges):
    m = 0
    for lo, hi in ranges:
        m |= ((1 << (hi - lo + 1)) - 1) << lo
    return m


# Bits owned by one slot alone (tpc.md §4.1; shared fields excluded), for
# splicing the SPU/VPU/LD/ST instruction of one valid bundle into another.
SLOT_MASKS = (_mask((0, 42)), _mask((43, 64), (82, 102)), _mask((103, 123), (183, 186)),
              _mask((124, 144), (187, 190)))


def splice(rnd, corpus):
    x = int.from_bytes(rnd.choice(corpus), "little")
    for m in rnd.sample(SLOT_MASKS, rnd.randint(1, 3)):
        y = int.from_bytes(rnd.choice(corpus), "little")
        x = (x & ~m) | (y & m)
    return x.to_bytes(32, "little")


def make_kernel(rnd, corpus, nbundles, halt):
    # Per-run mix: some runs are mostly valid code (deep execution: loops,
    # tensors, jumps), others mostly noise (decoder and fault paths).
    p_random = rnd.choice((0.0, 0.02, 0.1, 0.5, 1.0))
    p_flip = rnd.choice((0.0, 0.05, 0.2, 0.5))
    p_splice = rnd.choice((0.0, 0.1, 0.3))
    out = []
    for _ in range(nbundles - 4):
        x = rnd.random()
        if rnd.random() < 0.01:  # an early halt now and then: clean ends after real work
            b = halt
        elif x < p_random or not corpus:
            b = bytes(rnd.getrandbits(8) for _ in range(32))
        elif x < p_random + p_splice:
            b = splice(rnd, corpus)
        else:
            b = bytearray(rnd.choice(corpus))
            if x < p_random + p_splice + p_flip:
                for _ in range(rnd.randint(1, 4)):
                    bit = rnd.randrange(256)
                    b[bit // 8] ^= 1 << (bit % 8)
            b = bytes(b)
        out.append(b)
    return b"".join(out), f"random={p_random} splice={p_splice} flip={p_flip}"


def main(argv):
    opts = {"--runs": "24", "--seed": "20261129", "--bundles": "256", "--keep": ""}
    rest = []
    i = 0
    while i < len(argv):
        if argv[i] in opts and i + 1 < len(argv):
            opts[argv[i]] = argv[i + 1]
            i += 2
        else:
            rest.append(argv[i])
            i += 1
    if len(rest) < 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    nxas, tpcrun, dirs = rest[0], rest[1], rest[2:]
    runs, seed0, nb = int(opts["--runs"]), int(opts["--seed"]), int(opts["--bundles"])
    if nb < 8:
        print("tpc_random_bundles: --bundles must be >= 8", file=sys.stderr)
        return 2
    tmp = tempfile.mkdtemp(prefix="tpc-fuzz-")
    results = []
    try:
        corpus = build_corpus(nxas, dirs, tmp)
        results.append(("corpus of valid bundles assembled", len(corpus) >= 20,
                        f"{len(corpus)} bundles"))
        # The kernel's tail: halt + 3 nops, taken from an assembled file.
        tail_src = os.path.join(tmp, "tail.s")
        with open(tail_src, "w") as f:
            f.write("nop; nop; nop; nop\n" * (nb - 4) + "halt\nnop\nnop\nnop\n")
        tmpl = os.path.join(tmp, "tmpl.o")
        p = subprocess.run([nxas, "-t", "tpc", tail_src, "-o", tmpl], capture_output=True,
                           text=True)
        if p.returncode != 0:  # the assembler is under test too: a failure, not a skip
            print("1..1")
            print(f"not ok 1 nxemu-as cannot assemble the template: {p.stderr.strip()}")
            return 1
        elf = bytearray(open(tmpl, "rb").read())
        toff, tsize = text_section(elf)
        assert tsize == nb * 32
        # Without the plain halt bundle in the corpus, valid runs go deeper.
        halt = bytes(elf[toff + (nb - 4) * 32:toff + (nb - 3) * 32])
        corpus = [b for b in corpus if b != halt]
        rnd_in = random.Random(1)  # fixed: a run depends on its own seed only
        # All 16 descriptors a 4-bit tensor id can name: nxemu-tpc-run refuses a
        # kernel naming an id without a -i/-o (docs/tpc-run.rst), and random
        # bundles name any.  Two input files, used for the 15 inputs in turn.
        tensors = []
        for t in range(2):
            f = os.path.join(tmp, f"in{t}.bin")
            with open(f, "wb") as fh:
                fh.write(bytes(rnd_in.getrandbits(8) for _ in range(200 * 4 * 4)))
        for t in range(15):
            tensors += ["-i", os.path.join(tmp, f"in{t % 2}.bin") + ":200x4:f32"]
        tensors += ["-o", os.path.join(tmp, "out.bin") + ":200x4:f32"]
        states = {}
        depth = []
        for r in range(runs):
            seed = seed0 + r
            rnd = random.Random(seed)
            elf[toff:toff + (nb - 4) * 32], mix = make_kernel(rnd, corpus, nb, halt)
            kobj = os.path.join(tmp, "k.o")
            with open(kobj, "wb") as f:
                f.write(elf)
            if opts["--keep"]:
                os.makedirs(opts["--keep"], exist_ok=True)
                shutil.copy(kobj, os.path.join(opts["--keep"], f"tpc-fuzz-{seed}.o"))
            n = rnd.choice((1, 2))
            args = [tpcrun, "-k", kobj, "-n", str(n), "--index-space", "4,4",
                    "--cycle-limit", str(CYCLE_LIMIT)] + tensors
            for _ in range(4):
                # Mostly 256-aligned small values, so that valid loads and stores
                # through S registers reach deeper code instead of faulting at once.
                args += ["--arg", str(rnd.choice((0, 1, 3, 256 * rnd.randrange(64))))]
            name = f"seed {seed} (-n {n}): documented end state"
            try:
                p = subprocess.run(args, capture_output=True, text=True, timeout=120)
            except subprocess.TimeoutExpired:
                results.append((name, False, "hang: no exit within 120 s"))
                continue
            err = p.stderr
            rc = p.returncode
            san = [s for s in SANITIZER if s in err]
            if san:
                ok, why = False, f"sanitizer report ({san[0]})"
            elif rc == 0:
                ok, why = "nxemu-tpc-run: tpcs=" in err, "halt"
            elif rc == 123:
                ok, why = True, "cycle limit"
            elif rc in (132, 135, 139):
                ok, why = bool(FAULT.search(err)), "tpc fault"
            else:
                ok, why = False, f"undocumented exit status {rc}"
            m = re.search(r"code=([A-Z_]+)\(\d+\) info=\S+ pc=0x([0-9a-f]+)", err)
            if m:
                why2 = m.group(1)
                depth.append(int(m.group(2), 16) // 32)
            else:
                why2 = why
            states[why2] = states.get(why2, 0) + 1
            results.append((name, ok, f"{why}; rc={rc}\n{err}"))
            if os.environ.get("TPC_FUZZ_VERBOSE"):
                last = err.strip().splitlines()[-1:] or [""]
                print(f"# seed {seed} {mix}: rc={rc} {last[0]}")
        depth.sort()
        print(f"# end states: {states}; median faulting bundle index "
              f"{depth[len(depth) // 2] if depth else 0}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"1..{len(results)}")
    bad = 0
    for i, (name, ok, diag) in enumerate(results, 1):
        print(f"{'ok' if ok else 'not ok'} {i} - {name}")
        if not ok:
            bad += 1
            for line in str(diag).strip().splitlines()[:12]:
                print(f"# {line}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
