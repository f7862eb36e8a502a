#!/usr/bin/env python3
"""No file under target/ may see a board header (docs/architecture.rst,
"Layers"): every target/**/*.c is preprocessed with its own flags from the
build's compile_commands.json, every target/**/*.h with the flags of a .c
beside it, and gcc -H's include tree must reach no header under hw/ or
include/hw/ (directly or through any chain of includes).

KNOWN lists the include edges still tolerated while a core moves to its
ports (issue #13); each one must still exist, so the list only shrinks.

usage: check-layers.py BUILD_DIR SOURCE_ROOT   exit 0 clean, 1 with the offenders listed
"""
import json
import os
import shlex
import subprocess
import sys

# (includer, included), source-root relative: include edges into board
# headers still tolerated while a core moves to its ports.  None left.
KNOWN = set()


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    build, src = (os.path.realpath(p) for p in sys.argv[1:])
    with open(os.path.join(build, "compile_commands.json")) as f:
        db = json.load(f)

    def rel(path, cwd):
        p = os.path.realpath(os.path.join(cwd, path))
        for root, tag in ((src, ""), (build, "<build>/")):
            r = os.path.relpath(p, root)
            if not r.startswith(".."):
                return tag + r
        return p

    def is_board(r):
        r = r.replace("<build>/", "")
        return r.startswith("hw/") or r.startswith("include/hw/")

    # One compile command per target/ source (the first one for a file
    # built twice); headers borrow the flags of a source in their directory.
    units = {}
    for e in db:
        r = rel(e["file"], e["directory"])
        if r.startswith("target/") and r not in units:
            units[r] = e
    if not units:
        sys.exit("check-layers: no target/ sources in compile_commands.json")
    jobs = dict((r, (units[r], r)) for r in units)
    for dirpath, _, names in os.walk(os.path.join(src, "target")):
        for n in names:
            if not n.endswith(".h"):
                continue
            r = os.path.relpath(os.path.join(dirpath, n), src)
            d = os.path.dirname(r)
            donor = next((u for u in sorted(units) if os.path.dirname(u) == d), None)
            if donor is None:
                donor = sorted(units)[0]
            jobs[r] = (units[donor], r)

    bad, used = [], set()
    for r in sorted(jobs):
        e, f = jobs[r]
        args = shlex.split(e["command"]) if "command" in e else list(e["arguments"])
        out, skip = [args[0]], False
        for a in args[1:]:
            if skip:
                skip = False
                continue
            if a in ("-o", "-MQ", "-MF", "-MT"):
                skip = True
                continue
            if a in ("-c", "-MD", "-MMD") or os.path.realpath(os.path.join(e["directory"], a)) == \
                    os.path.realpath(os.path.join(e["directory"], e["file"])):
                continue
            out.append(a)
        cmd = out + ["-E", "-H", "-o", os.devnull, "-x", "c", os.path.join(src, f)]
        p = subprocess.run(cmd, cwd=e["directory"], stderr=subprocess.PIPE, text=True)
        if p.returncode != 0:
            bad.append("%s: preprocessing failed:\n%s" % (f, p.stderr))
            continue
        stack = [f]
        for line in p.stderr.splitlines():
            dots = len(line) - len(line.lstrip("."))
            if dots == 0 or not line[dots:].startswith(" "):
                continue
            h = rel(line[dots + 1:], e["directory"])
            del stack[dots:]
            parent = stack[-1]
            stack.append(h)
            if not is_board(h):
                continue
            chain = stack[:]
            edges = set(zip(chain, chain[1:]))
            known = edges & KNOWN
            # tolerated only below a known edge whose included side is the board
            if any(is_board(b) and not is_board(a) for a, b in known):
                used |= known
                continue
            if is_board(parent):
                continue  # reported at the first board header of the chain
            bad.append("%s sees %s: %s" % (f, h, " -> ".join(chain)))
    stale = KNOWN - used
    for a, b in sorted(stale):
        bad.append("known exception %s -> %s no longer happens: remove it from KNOWN" % (a, b))
    if bad:
        print("target/ must not see board headers (docs/architecture.rst, Layers):")
        print("\n".join(bad))
        return 1
    print("ok: %d target/ files, no board header reached%s" %
          (len(jobs), " (known: %s)" % ", ".join("%s -> %s" % k for k in sorted(KNOWN))
           if KNOWN else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
