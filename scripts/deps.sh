#!/bin/sh
# Make sure the Debian packages nxemu needs are present.
# zlib1g-dev: the viewer's PNG screenshots (and libz.a for static_deps).
# python3-numpy: nxemu.tpc.run and the python-api test (docs/python.rst).
# help2man: the man pages, written from each program's --help (docs/man).
# python3-docutils: the docs-rst test (every docs/ page parses as reStructuredText).
# python3-pytest, python3-venv: the Python package's install test (a fresh venv,
# pip install ./python offline, then the docs' pytest example) and tpc-guide.
# As root on Debian: installs what is missing.  Otherwise: prints the one
# apt-get command to run and fails.
# Arguments name extra packages only some jobs need (CI: `deps.sh clang`;
# `make fuzz`: `deps.sh clang libclang-rt-14-dev`, libFuzzer's runtime).
set -eu
PKGS="meson ninja-build pkg-config gcc libglib2.0-dev libfdt-dev device-tree-compiler \
libsdl2-dev gdb-multiarch python3 xvfb xauth zlib1g-dev python3-numpy help2man python3-docutils python3-pytest python3-venv $*"
missing=""
for p in $PKGS; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "nxemu: installing:$missing" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    # shellcheck disable=SC2086
    apt-get install -y -qq --no-install-recommends $missing >&2
else
    echo "nxemu: missing packages:$missing" >&2
    echo "nxemu: run: sudo apt-get install$missing" >&2
    exit 1
fi
