#!/bin/sh
# docs/vendor-names.rst lists the names Habana's tpc-intrinsics.h declares for
# Gaudi and the sequencer's AWS opcode names (scripts/gen-vendor-names.py).
# Run where the vendor files sit beside the clone (../shared/vendor); skipped
# (77) without them.  usage: vendor-names.sh SRCROOT
root=$1
h=$root/../shared/vendor/habana-custom-kernel/doc/tpc-intrinsics.h
if [ ! -f "$h" ]; then
    echo "vendor-names: $h not found (../shared/vendor beside the clone): skipped"
    exit 77
fi
exec python3 "$root/scripts/gen-vendor-names.py" "$root" "$h" --check "$root/docs/vendor-names.rst"
