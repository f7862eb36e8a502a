#!/usr/bin/env python3
"""The layers of docs/architecture.rst, "Layers", from the compiler's own
include trees: every target/**/*.c and softmmu/**/*.c is preprocessed with
its own flags from the build's compile_commands.json, every .h there with
the flags of a .c beside it, and gcc -H's include tree (directly or through
any chain of includes) must reach:

  - from target/: no header under hw/ or include/hw/ (the board);
  - from softmmu/: no header under hw/ or include/hw/ either (the board's
    public interface is include/nxemu/board-if.h), none under target/, and
    none of the programs and embedding above it (tools/, api/).

KNOWN lists the include edges still tolerated while a core moves to its
ports (issue #13); each one must still exist, so the list only shrinks.

usage: check-layers.py BUILD_DIR SOURCE_ROOT   exit 0 clean, 1 with the offenders listed
"""
import json
import os
import shlex
import subprocess
import sys

# (includer, included), source-root relative: include edges into forbidden
# headers still tolerated while a layer moves to its interfaces.  None left.
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

    def above_softmmu(r):
        r = r.replace("<build>/", "")
        return is_board(r) or r.startswith(("target/", "tools/", "api/"))

    # the directories checked, and what their include trees must not reach
    layers = (("target", is_board, "board header"),
              ("softmmu", above_softmmu, "header outside softmmu/'s layer"))

    def rule_of(r):
        return next(l for l in layers if r.startswith(l[0] + "/"))

    # One compile command per checked source (the first one for a file
    # built twice); headers borrow the flags of a source in their directory.
    units = {}
    for e in db:
        r = rel(e["file"], e["directory"])
        if r.startswith(tuple(l[0] + "/" for l in layers)) and r not in units:
            units[r] = e
    jobs = dict((r, (units[r], r)) for r in units)
    for top, _, _ in layers:
        mine = sorted(u for u in units if u.startswith(top + "/"))
        if not mine:
            sys.exit("check-layers: no %s/ sources in compile_commands.json" % top)
        for dirpath, _, names in os.walk(os.path.join(src, top)):
            for n in names:
                if not n.endswith(".h"):
                    continue
                r = os.path.relpath(os.path.join(dirpath, n), src)
                d = os.path.dirname(r)
                donor = next((u for u in mine if os.path.dirname(u) == d), mine[0])
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
        _, bad_for, what = rule_of(f)
        for line in p.stderr.splitlines():
            dots = len(line) - len(line.lstrip("."))
            if dots == 0 or not line[dots:].startswith(" "):
                continue
            h = rel(line[dots + 1:], e["directory"])
            del stack[dots:]
            parent = stack[-1]
            stack.append(h)
            if not bad_for(h):
                continue
            chain = stack[:]
            edges = set(zip(chain, chain[1:]))
            known = edges & KNOWN
            # tolerated only below a known edge whose included side is forbidden
            if any(bad_for(b) and not bad_for(a) for a, b in known):
                used |= known
                continue
            if bad_for(parent):
                continue  # reported at the first forbidden header of the chain
            bad.append("%s sees %s (%s): %s" % (f, h, what, " -> ".join(chain)))
    stale = KNOWN - used
    for a, b in sorted(stale):
        bad.append("known exception %s -> %s no longer happens: remove it from KNOWN" % (a, b))
    if bad:
        print("layer violations (docs/architecture.rst, Layers):")
        print("\n".join(bad))
        return 1
    print("ok: %d target/ and softmmu/ files, none reaches a header above its layer%s" %
          (len(jobs), " (known: %s)" % ", ".join("%s -> %s" % k for k in sorted(KNOWN))
           if KNOWN else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
