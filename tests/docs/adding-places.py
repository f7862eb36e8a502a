#!/usr/bin/env python3
"""docs/adding-an-instruction.rst's worked example is the real list of places.

The page walks through ``brev`` and ends with "Files touched for ``brev``:",
naming the files of target/tpc/ an instruction of an existing form needs.
This test compares that list with the files of target/tpc/ that name
``brev`` as a word: a place the page leaves out (a table the build or a test
now requires, e.g. timing.def) or one it lists but the instruction does not
use fails, with the difference on one line.

usage: adding-places.py SRCROOT; exit 1 on a difference.
"""
import os
import re
import sys

root = os.path.abspath(sys.argv[1])
page = os.path.join(root, "docs", "adding-an-instruction.rst")
text = open(page, encoding="utf-8").read()
m = re.search(r"Files touched for ``brev``:(.*?)(?:\n\n|For an arithmetic)", text, re.S)
if not m:
    print(f"{page}: no 'Files touched for ``brev``:' paragraph")
    sys.exit(1)
listed = {os.path.basename(f) for f in re.findall(r"``([\w./-]+\.(?:def|c|h))``", m.group(1))}

tpc = os.path.join(root, "target", "tpc")
used = set()
for name in sorted(os.listdir(tpc)):
    path = os.path.join(tpc, name)
    if os.path.isfile(path) and re.search(r"\bbrev\b", open(path, encoding="utf-8").read()):
        used.add(name)

missing, extra = sorted(used - listed), sorted(listed - used)
if missing or extra:
    print(f"{page}: 'Files touched for brev' lists {sorted(listed)}; target/tpc/ names brev in "
          f"{sorted(used)} (not listed: {missing}; listed but unused: {extra})")
    sys.exit(1)
print(f"ok: the page lists the {len(used)} files of target/tpc/ that name brev: {sorted(used)}")
