#!/bin/sh
# scripts/check-format.sh judges only the lines a change touches: in a scratch
# repository with the tree's .clang-format, an off-style line added fails the
# check (exit 1, naming the file), a styled line added to a file whose old
# lines are off style passes (exit 0), and a changed file's untouched lines
# are not reported.  Skips (77) only without git or clang-format.
# usage: check-format-test.sh SOURCE_ROOT
set -eu
src=$1
command -v git >/dev/null 2>&1 || { echo "SKIP: git not installed"; exit 77; }
if ! command -v git-clang-format >/dev/null 2>&1 && ! command -v git-clang-format-14 >/dev/null 2>&1; then
    echo "SKIP: git-clang-format not installed (Debian package clang-format)"
    exit 77
fi
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
mkdir "$t/scripts"
cp "$src/.clang-format" "$t/"
cp "$src/scripts/check-format.sh" "$t/scripts/"
cd "$t"
git init -q -b main .
git config user.email t@example.org
git config user.name t
# old.c: an old line off style (two-space indent, brace on the same line)
printf 'int old(int a) {\n  return a+1;\n}\n' > old.c
git add . && git commit -q -m base
git checkout -q -b topic
fail() { echo "FAIL: $*"; exit 1; }

# 1. a styled function added below the old one: passes, old lines untouched
printf '\nint added(int b)\n{\n    return b * 2;\n}\n' >> old.c
git commit -q -am styled
sh scripts/check-format.sh > out 2>&1 || { cat out; fail "a styled change was rejected"; }
grep -q "check-format: ok" out || fail "no ok line"

# 2. an off-style new file: fails, naming the file and the fix
printf 'int bad( int x ){ return x; }\n' > bad.c
git add bad.c && git commit -q -m bad
rc=0; sh scripts/check-format.sh > out 2>&1 || rc=$?
[ $rc = 1 ] || { cat out; fail "off-style new file: exit $rc, want 1"; }
grep -q "b/bad.c" out || { cat out; fail "the report does not name bad.c"; }
grep -q "old.c" out && { cat out; fail "old.c's untouched lines reported"; }

# 3. uncommitted off-style edit counts too; after git clang-format it passes
git reset -q --hard HEAD~1
sed -i 's/    return b \* 2;/  return b*2;/' old.c
rc=0; sh scripts/check-format.sh > out 2>&1 || rc=$?
[ $rc = 1 ] || { cat out; fail "uncommitted off-style edit: exit $rc, want 1"; }
gcf=git-clang-format; command -v $gcf >/dev/null 2>&1 || gcf=git-clang-format-14
git add -u && $gcf main >/dev/null
sh scripts/check-format.sh > out 2>&1 || { cat out; fail "still rejected after git clang-format"; }
head -2 old.c | grep -q '^  return a+1;' || fail "git clang-format touched an unchanged line"
echo "ok: check-format judges changed lines only"
