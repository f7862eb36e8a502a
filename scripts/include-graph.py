#!/usr/bin/env python3
"""The include graph of the C sources, and what it says about the layers
(docs/architecture.rst, "Layers").

Reads every #include "..." of the files under softmmu/, hw/, target/,
tools/, api/ and include/ (.c .h .inc .def), resolving a name as the compiler does
(the includer's directory, the source root, include/); generated headers
(build directory) are left out.  Reports:

  - the softmmu/ files that include hw/nc2/board.h, any other hw/ header,
    any target/*/ header and any tools/ or api/ header, directly;
  - the module circle: a header and the source that implements it are one
    module (target/tpc/cpu.h with target/tpc/cpu.c; include/nxemu/sched.h with
    softmmu/sched.c; include/hw/nc2/dma.h with hw/nc2/dma.c), module A
    depends on B when a file of A includes a file of B, and the largest
    strongly connected set of modules is the circle: every module in it
    reaches every other through includes, so none can be built, tested or
    replaced alone.  Its size is counted in files.

usage: include-graph.py SRCROOT [--dot FILE] [--max NAME=N ...]
  --dot FILE   write the module graph (Graphviz), the circle in red
  --max NAME=N fail (exit 1) when count NAME exceeds N: a ratchet, so the
               counts only go down (the check-layers test passes the
               current figures).  NAMES: board, hw, target, tools, circle.
"""
import os
import re
import sys

DIRS = ("softmmu", "hw", "target", "tools", "api", "include")
EXTS = (".c", ".h", ".inc", ".def")
INC = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
BOARD = "include/hw/nc2/board.h"


def scan(root):
    files = []
    for d in DIRS:
        for dp, dn, fn in os.walk(os.path.join(root, d)):
            dn.sort()
            for f in sorted(fn):
                if f.endswith(EXTS):
                    files.append(os.path.relpath(os.path.join(dp, f), root))
    known = set(files)
    edges = {}
    for f in files:
        with open(os.path.join(root, f), errors="replace") as fh:
            text = fh.read()
        out = edges.setdefault(f, set())
        for name in INC.findall(text):
            for base in (os.path.dirname(f), "", "include"):
                cand = os.path.normpath(os.path.join(base, name))
                if cand in known:
                    if cand != f:
                        out.add(cand)
                    break
    return files, edges


def module_of(f, known):
    """A header's module is the source implementing it, when there is one."""
    stem, ext = os.path.splitext(f)
    if ext != ".h":
        return stem
    d, b = os.path.split(stem)
    cands = [os.path.join(d, b)]
    if d.startswith("include/nxemu"):
        cands.append(os.path.join("softmmu", b))
    elif d.startswith("include/"):
        cands.append(os.path.join(d[len("include/"):], b))
    for c in cands:
        if c + ".c" in known:
            return c
    return stem


def sccs(nodes, succ):
    """Tarjan, iterative."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]
    for start in nodes:
        if start in index:
            continue
        work = [(start, iter(sorted(succ.get(start, ()))))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            pushed = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(succ.get(w, ())))))
                    pushed = True
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            if pushed:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                out.append(sorted(comp))
    return out


def main(argv):
    args = list(argv)
    dot, limits = None, {}
    root = None
    while args:
        a = args.pop(0)
        if a == "--dot" and args:
            dot = args.pop(0)
        elif a == "--max" and args and "=" in args[0]:
            k, v = args.pop(0).split("=", 1)
            limits[k] = int(v)
        elif root is None and not a.startswith("-"):
            root = a
        else:
            sys.exit(__doc__)
    if root is None:
        sys.exit(__doc__)
    root = os.path.realpath(root)
    files, edges = scan(root)
    known = set(files)

    soft = [f for f in files if f.startswith("softmmu/")]
    groups = {
        "board": [(f, h) for f in soft for h in sorted(edges[f]) if h == BOARD],
        "hw": [(f, h) for f in soft for h in sorted(edges[f])
               if (h.startswith("include/hw/") or h.startswith("hw/")) and h != BOARD],
        "target": [(f, h) for f in soft for h in sorted(edges[f]) if h.startswith("target/")],
        "tools": [(f, h) for f in soft for h in sorted(edges[f]) if h.startswith(("tools/", "api/"))],
    }
    what = {
        "board": "softmmu/ files including hw/nc2/board.h",
        "hw": "softmmu/ files including another hw/ header",
        "target": "softmmu/ files including a target/*/ header",
        "tools": "softmmu/ files including a tools/ or api/ header",
    }
    counts = {}
    for k in ("board", "hw", "target", "tools"):
        users = sorted({f for f, _ in groups[k]})
        counts[k] = len(users)
        print("%-46s %3d" % (what[k] + ":", len(users)))
        for u in users:
            print("    %s: %s" % (u, ", ".join(h for f, h in groups[k] if f == u)))

    mod = {f: module_of(f, known) for f in files}
    members = {}
    for f in files:
        members.setdefault(mod[f], []).append(f)
    succ = {}
    for f in files:
        for h in edges[f]:
            if mod[h] != mod[f]:
                succ.setdefault(mod[f], set()).add(mod[h])
    comps = [c for c in sccs(sorted(members), succ) if len(c) > 1]
    comps.sort(key=lambda c: -sum(len(members[m]) for m in c))
    circle = comps[0] if comps else []
    nfiles = sum(len(members[m]) for m in circle)
    counts["circle"] = nfiles
    dirs = sorted({os.path.dirname(f) for m in circle for f in members[m]})
    print("%-46s %3d" % ("files in the largest include circle:", nfiles))
    if circle:
        print("    %d modules over %s" % (len(circle), ", ".join(dirs)))
        for m in circle:
            print("    %s (%s)" % (m, ", ".join(os.path.basename(f) for f in members[m])))
    for c in comps[1:]:
        print("    another circle: %s" % ", ".join(c))

    if dot:
        inside = set(circle)
        with open(dot, "w") as fh:
            fh.write("digraph includes {\n  rankdir=LR; node [shape=box,fontsize=9];\n")
            for m in sorted(members):
                fh.write('  "%s"%s;\n' % (m, " [color=red]" if m in inside else ""))
            for a in sorted(succ):
                for b in sorted(succ[a]):
                    red = a in inside and b in inside
                    fh.write('  "%s" -> "%s"%s;\n' % (a, b, " [color=red]" if red else ""))
            fh.write("}\n")

    bad = ["%s: %d, at most %d allowed" % (k, counts[k], n)
           for k, n in sorted(limits.items()) if counts.get(k, 0) > n]
    for k in limits:
        if k not in counts:
            sys.exit("include-graph: unknown count %s" % k)
    if bad:
        print("include-graph: the layers regressed (docs/architecture.rst, Layers):")
        print("\n".join("    " + b for b in bad))
        return 1
    lower = ["%s %d < %d" % (k, counts[k], n) for k, n in sorted(limits.items())
             if counts[k] < n]
    if lower:
        print("include-graph: below the ratchet, lower it in tests/meson.build: " +
              ", ".join(lower))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
