#!/usr/bin/env python3
"""docs/tpc-guide.rst as a user follows it: every file it tells to save is
saved, every `$ ` command runs in order in one folder, and what each prints
(stdout and stderr together) must be the lines shown under it.

usage: test_tpc_guide.py SOURCE_ROOT TOOLS_DIR LIBNXEMU
TOOLS_DIR holds nxemu-as and nxemu-tpc-run; this interpreter (with numpy,
pytest) is the guide's python3.  A TAP skip without numpy or pytest.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

try:
    import numpy  # noqa: F401
    import pytest  # noqa: F401
except ImportError as e:
    # a TAP skip: meson counts a TAP test's non-zero exit as an error
    print(f"1..0 # SKIP {e} (Debian: python3-numpy python3-pytest)")
    sys.exit(0)

SRC, TOOLS, LIB = sys.argv[1:4]
GUIDE = os.path.join(SRC, "docs", "tpc-guide.rst")


def literal_blocks(text):
    """(intro line, block text) for each `::` literal block, in order."""
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        if lines[i].rstrip().endswith("::"):
            intro = lines[i]
            j = i + 1
            while j < len(lines) and not lines[j].strip():
                j += 1
            block = []
            while j < len(lines) and (lines[j].startswith("   ") or not lines[j].strip()):
                block.append(lines[j][3:])
                j += 1
            while block and not block[-1].strip():
                block.pop()
            yield intro, "\n".join(block) + "\n"
            i = j
        else:
            i += 1


def main():
    with open(GUIDE) as f:
        text = f.read()
    tmp = tempfile.mkdtemp(prefix="tpc-guide-")
    bindir = os.path.join(tmp, ".bin")
    os.mkdir(bindir)
    os.symlink(sys.executable, os.path.join(bindir, "python3"))
    env = {k: v for k, v in os.environ.items() if not k.startswith("NXEMU_")}
    env["PATH"] = os.pathsep.join([bindir, os.path.abspath(TOOLS), env.get("PATH", "")])
    env["PYTHONPATH"] = os.path.join(SRC, "python")  # docs/python.rst: in the source tree
    env["NXEMU_LIBRARY"] = os.path.abspath(LIB)       # this build's library
    results = []
    files = commands = 0
    for intro, block in literal_blocks(text):
        m = re.search(r"``([\w.-]+)``(?: next to the kernels)?::$", intro.strip())
        if m and not block.lstrip().startswith("$ "):
            with open(os.path.join(tmp, m.group(1)), "w") as f:
                f.write(block)
            files += 1
            continue
        if not block.lstrip().startswith("$ "):
            continue
        cmd, want = None, []
        steps = []
        for ln in block.splitlines():
            if ln.startswith("$ "):
                if cmd:
                    steps.append((cmd, want))
                cmd, want = ln[2:], []
            elif cmd:
                want.append(ln)
        steps.append((cmd, want))
        for cmd, want in steps:
            commands += 1
            p = subprocess.run(["bash", "-c", cmd], cwd=tmp, env=env, capture_output=True,
                               text=True, timeout=300)
            got = (p.stdout + p.stderr).rstrip("\n").split("\n") if (p.stdout + p.stderr) else []
            got = [g.rstrip() for g in got]
            ok = p.returncode == 0 and got == [w.rstrip() for w in want]
            results.append((cmd, ok, f"exit {p.returncode}\nwant: {want}\ngot:  {got}"))
    shutil.rmtree(tmp, True)
    print(f"1..{len(results) + 1}")
    print(f"{'ok' if files >= 4 else 'not ok'} 1 - the guide's files saved ({files})")
    for n, (cmd, ok, diag) in enumerate(results, 2):
        print(f"{'ok' if ok else 'not ok'} {n} - {cmd[:70]}")
        if not ok:
            for d in diag.splitlines():
                print("# " + d)
    return 0 if files >= 4 and all(ok for _, ok, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
