#!/usr/bin/env python3
"""Each binary's man page (docs/man, help2man) exists, names the program and
lists every option its --help prints, so `man nxemu-as` tells what
`nxemu-as --help` does.  TAP output.

usage: test_man.py MANDIR BINARY...   (exit 77 when MANDIR has no pages:
help2man was not installed at configure time)
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tapkit import Tap  # noqa: E402

MANDIR, BINS = sys.argv[1], sys.argv[2:]
if not any(os.path.exists(os.path.join(MANDIR, os.path.basename(b) + ".1")) for b in BINS):
    print("1..0 # SKIP no man pages (help2man not found at configure time)")
    sys.exit(77)
T = Tap("nxemu-man-")


def plain(roff):
    """Text of a man page: font escapes and the escaped minus undone."""
    s = roff.replace("\\-", "-")
    s = re.sub(r"\\f[A-Z0-9]|\\f\(..|\\/|\\,|\\&", "", s)
    return s


def page_test(binary):
    name = os.path.basename(binary)

    def check():
        with open(os.path.join(MANDIR, name + ".1")) as f:
            text = plain(f.read())
        assert re.search(r"^\.TH " + re.escape(name.upper()) + r" ", text, re.M), text[:200]
        assert ".SH NAME\n" + name + " - " in text, text[:300]
        help_out = subprocess.run([binary, "--help"], capture_output=True, text=True)
        opts = set(re.findall(r"(?:^|[\s,\[])(--?[a-zA-Z][\w-]*)", help_out.stdout + help_out.stderr))
        assert len(opts) >= 3, help_out.stdout
        missing = sorted(o for o in opts if o not in text)
        assert not missing, f"{name}: not in the man page: {missing}"
    check.__name__ = f"man_page_of_{name.replace('-', '_')}"
    return check


for b in BINS:
    T.test(page_test(b))
T.main()
