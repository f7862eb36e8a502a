#!/bin/sh
# Record fields are read and written through target/seq/fields.def only
# (seq_field_get/put): no raw byte offsets into a record (r[12], rec + 16,
# seq_le32(r + 24)) or into an ADDR8 operand (a[7], a8[0]) may appear in
# target/seq outside the table.  `rec[64]` (the record's size) is allowed.
# usage: no-raw-offsets.sh SOURCE_ROOT     exit 0 clean, 1 with the offenders listed
root=${1:?usage: no-raw-offsets.sh SOURCE_ROOT}
cd "$root/target/seq" || exit 2
hits=$(grep -nE '\b(r|rec)\[[0-9]|\b(r|rec) \+ [0-9]|\b(a|a8)\[[0-9]' \
       --include='*.c' --include='*.h' -r . | grep -v '\[64\]' | grep -v '^\./fields\.')
if [ -n "$hits" ]; then
    echo "raw record offsets in target/seq (use the fields.def accessors):"
    echo "$hits"
    exit 1
fi
echo "ok: no raw record offsets in target/seq"
