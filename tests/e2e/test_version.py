#!/usr/bin/env python3
"""--version of every tool: exit 0, nothing on stderr, and one line
`TOOL version VERSION (git REV)` on stdout, where VERSION is meson's
project version (passed by tests/e2e/meson.build) and REV what
`git describe --always --dirty --abbrev=12` says of the source tree at
build time ("unknown" when the sources are not a git checkout).  TAP output.

usage: test_version.py VERSION SOURCE_ROOT NXEMU NXEMU_AS NXEMU_OBJDUMP NXEMU_TEST NXEMU_TPC_RUN
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tapkit import Tap  # noqa: E402

VERSION, SRC = sys.argv[1], sys.argv[2]
TOOLS = dict(zip(("nxemu", "nxemu-as", "nxemu-objdump", "nxemu-test", "nxemu-tpc-run"),
                 sys.argv[3:8]))
T = Tap("nxemu-version-")
test, run = T.test, T.run


def expected_rev():
    if not os.path.exists(os.path.join(SRC, ".git")):
        return "unknown"
    try:
        r = subprocess.run(["git", "-C", SRC, "describe", "--always", "--dirty", "--abbrev=12"],
                           capture_output=True, text=True, timeout=30)
    except OSError:
        return "unknown"
    return r.stdout.strip() if r.returncode == 0 else "unknown"


REV = expected_rev()


def check(tool, *args):
    r = run(TOOLS[tool], *args)
    assert r.returncode == 0 and r.stderr == "", (tool, args, r.returncode, r.stderr)
    assert r.stdout == f"{tool} version {VERSION} (git {REV})\n", (tool, args, r.stdout)


@test
def project_version_is_meson_s():
    """The version handed over is a real one (meson.build's project())."""
    assert re.fullmatch(r"\d+\.\d+\.\d+", VERSION), VERSION


@test
def nxemu():
    """nxemu takes -version (QEMU's spelling) and --version."""
    check("nxemu", "-version")
    check("nxemu", "--version")


@test
def nxemu_as():
    check("nxemu-as", "--version")


@test
def nxemu_objdump():
    check("nxemu-objdump", "--version")


@test
def nxemu_test():
    check("nxemu-test", "--version")


@test
def nxemu_tpc_run():
    """Like its other long options, one dash or two."""
    check("nxemu-tpc-run", "--version")
    check("nxemu-tpc-run", "-version")


T.main()
