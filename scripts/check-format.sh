#!/bin/sh
# The house style (.clang-format) on the lines a change touches: runs
# `git clang-format --diff` over the C sources changed since BASE (committed
# or not) and fails, printing the reformatting it wants, when any changed line
# differs.  Lines nobody touched are left alone, so an old file is brought to
# the style piece by piece instead of in one commit that conflicts with all
# work in flight (docs/architecture.rst, "Conventions").
#
# usage: scripts/check-format.sh [BASE]
# BASE defaults to $NXEMU_FORMAT_BASE, else the merge base with `main` when
# HEAD is off main (a branch: all its commits), else HEAD~1 (on main: the
# last commit, for a merge all the branch it brought in).
# Exit: 0 clean, 1 changed lines off style, 2 cannot check (no clang-format,
# not a git checkout, unknown BASE).
set -eu
cd "$(dirname "$0")/.."
if ! command -v git-clang-format >/dev/null 2>&1 && ! command -v git-clang-format-14 >/dev/null 2>&1; then
    echo "check-format: git-clang-format not found (Debian package clang-format)" >&2
    exit 2
fi
if ! git rev-parse --verify -q HEAD >/dev/null 2>&1; then
    echo "check-format: $(pwd) is not a git checkout with a commit" >&2
    exit 2
fi
base=${1:-${NXEMU_FORMAT_BASE:-}}
if [ -z "$base" ]; then
    for m in main origin/main; do
        if git rev-parse --verify -q "$m" >/dev/null; then
            mb=$(git merge-base HEAD "$m" 2>/dev/null || true)
            if [ -n "$mb" ] && [ "$mb" != "$(git rev-parse HEAD)" ]; then
                base=$mb
            fi
            break
        fi
    done
fi
if [ -z "$base" ]; then
    if git rev-parse --verify -q HEAD~1 >/dev/null; then
        base=HEAD~1
    else
        base=$(git hash-object -t tree /dev/null) # the first commit: all of it
    fi
fi
if ! git rev-parse --verify -q "$base^{tree}" >/dev/null; then
    echo "check-format: unknown base '$base'" >&2
    exit 2
fi
gcf=git-clang-format
command -v "$gcf" >/dev/null 2>&1 || gcf=git-clang-format-14
out=$($gcf --diff --extensions c,h "$base" 2>&1) || {
    echo "check-format: git-clang-format failed:" >&2
    echo "$out" >&2
    exit 2
}
case "$out" in
"diff "*)
    echo "check-format: changed lines since $(git rev-parse --short "$base") differ from .clang-format;"
    echo "check-format: fix with: git clang-format $(git rev-parse --short "$base")"
    echo "$out"
    exit 1
    ;;
esac
echo "check-format: ok, lines changed since $(git rev-parse --short "$base") follow .clang-format"
