#!/usr/bin/env python3
"""Mutated images never crash nxemu's loader (TAP).

usage: loader_mutations.py NXEMU NXEMU_AS SEQ_DIR [--runs N] [--seed S] [--keep DIR]

Each run takes a sequencer ELF assembled from SEQ_DIR/*.s (or a FIT from a
build of them is not needed: the ELF paths are where the parsing is) and
damages it with a seeded mix of: random bit flips in the ELF and program
headers, random values in one header field (offsets, sizes, counts, p_memsz
up to 2^64), truncation, and random bytes appended.  nxemu runs it with
-kernel and an instruction limit; the run must end in a documented state
(docs/user-manual.rst): 0..126 or 132/135/139, with a one-line "nxemu: "
diagnostic for 125; never a signal, a hang, or a sanitizer report.  A
failing run names its seed: `--seed S --runs 1 --keep DIR` keeps the image.
"""
import glob
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile

SANITIZER = ("AddressSanitizer", "LeakSanitizer", "UndefinedBehaviorSanitizer", "runtime error:")
OK_STATUS = set(range(0, 127)) | {132, 135, 139}


def corpus(nxas, seq_dir, tmp):
    imgs = []
    seq_dir = os.path.abspath(seq_dir)
    for src in sorted(glob.glob(os.path.join(seq_dir, "*.s")))[:12]:
        out = os.path.join(tmp, os.path.basename(src) + ".elf")
        p = subprocess.run([nxas, src, "-o", out], capture_output=True, cwd=seq_dir)
        if p.returncode == 0:
            imgs.append(open(out, "rb").read())
    return imgs


def mutate(rnd, img):
    b = bytearray(img)
    kind = rnd.randrange(4)
    if kind == 0:  # bit flips in the headers
        phoff, = struct.unpack_from("<Q", b, 0x20)
        phnum, = struct.unpack_from("<H", b, 0x38)
        hi = min(len(b), max(64, phoff + 56 * phnum))
        for _ in range(rnd.randint(1, 8)):
            i = rnd.randrange(hi)
            b[i] ^= 1 << rnd.randrange(8)
    elif kind == 1:  # one 64-bit header or program-header field
        phoff, = struct.unpack_from("<Q", b, 0x20)
        fields = [0x18, 0x20, 0x28] + [phoff + 8 * k for k in range(1, 7)]
        off = rnd.choice([f for f in fields if f + 8 <= len(b)])
        val = rnd.choice([0, 1, 63, 64, 1 << 20, 0x7C000000, 1 << 32, (1 << 64) - 1,
                          (1 << 64) - 64, rnd.getrandbits(64), len(b), len(b) + 1])
        struct.pack_into("<Q", b, off, val)
    elif kind == 2:  # truncated
        del b[rnd.randrange(1, len(b)):]
    else:  # junk appended and a flip anywhere
        b += bytes(rnd.getrandbits(8) for _ in range(rnd.randint(1, 256)))
        i = rnd.randrange(len(b))
        b[i] ^= 0xFF
    return bytes(b)


def main():
    args = sys.argv[1:]
    opts = {"--runs": "150", "--seed": None, "--keep": None}
    pos = []
    while args:
        a = args.pop(0)
        if a in opts:
            opts[a] = args.pop(0)
        else:
            pos.append(a)
    nxemu, nxas, seq_dir = (os.path.abspath(p) for p in pos)
    tmp = tempfile.mkdtemp(prefix="nxemu-loader-fuzz-")
    imgs = corpus(nxas, seq_dir, tmp)
    if not imgs:
        print("1..0 # SKIP no sequencer image assembled")
        return 77
    runs = int(opts["--runs"])
    base = int(opts["--seed"]) if opts["--seed"] else 17
    print(f"1..{runs}")
    failed = 0
    path = os.path.join(tmp, "img.elf")
    for n in range(runs):
        seed = base + n
        rnd = random.Random(seed)
        img = mutate(rnd, rnd.choice(imgs))
        with open(path, "wb") as f:
            f.write(img)
        why = None
        try:
            p = subprocess.run([nxemu, "-icount-limit", "2000", "-kernel", path],
                               capture_output=True, timeout=30)
            err = p.stderr.decode(errors="replace")
            if p.returncode not in OK_STATUS:
                why = f"exit status {p.returncode}"
            elif any(s in err for s in SANITIZER):
                why = "sanitizer report"
            elif p.returncode == 125 and (len(err.splitlines()) != 1 or
                                          not err.startswith("nxemu: ")):
                why = "a load error that is not one 'nxemu: ' line"
        except subprocess.TimeoutExpired:
            why = "hang (30 s)"
        if why:
            failed += 1
            print(f"not ok {n + 1} seed {seed}: {why}")
            for line in (err if why != "hang (30 s)" else "").splitlines()[:10]:
                print(f"# {line}")
            if opts["--keep"]:
                os.makedirs(opts["--keep"], exist_ok=True)
                shutil.copy(path, os.path.join(opts["--keep"], f"seed-{seed}.elf"))
        else:
            print(f"ok {n + 1} seed {seed}: exit {p.returncode}")
    shutil.rmtree(tmp, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
