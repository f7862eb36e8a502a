#!/bin/sh
# The images under examples/ are what nxemu-as makes of their sources: README
# and docs run them directly, so a stale image would show an old program.
# usage: examples-current.sh SRCROOT NXEMU-AS     (regenerate: make examples)
root=$1 as=$2
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
bad=0
check() {   # IMAGE: built by the remaining arguments into $t/out
    img=$1; shift
    if ! "$as" "$@" -o "$t/out" >"$t/log" 2>&1; then
        echo "examples: $*: nxemu-as failed:"; cat "$t/log"; bad=1; return
    fi
    if ! cmp -s "$t/out" "$root/$img"; then
        echo "examples: $img is not what nxemu-as makes of its source (make examples)"
        bad=1
    fi
}
check examples/prog.elf "$root/examples/prog.s"
check examples/prog.bin --raw "$root/examples/prog.s"
for s in "$root"/examples/images/*.s; do
    check "examples/images/$(basename "$s" .s).elf" "$s"
done
[ $bad = 0 ] && echo "examples: every image is current"
exit $bad
