#!/usr/bin/env bash
# test_fixtures.sh TBRF DIR [OLD...] — every file in DIR (tests/data/before:
# one field per model, method, precision, geometry and format, written by
# the current version) is remade bit for bit from its recorded parameters by today's `tbrf regenerate
# --check`. A change that alters any field's values fails here (and must
# then bump the version recorded in files and say so in doc/changelog.md).
# Every file in each OLD folder (tests/data/v0.1.0: fields
# the 0.2.0 change altered; tests/data/v0.3.0: the one the 0.4.0 change
# altered) must fail --check, saying that another version wrote it, and
# leave no output.
set -euo pipefail
tbrf=$1 dir=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
for f in "$dir"/*.h5 "$dir"/*.nc; do
    out=$tmp/again.${f##*.}
    "$tbrf" regenerate "$f" --out "$out" --check --quiet
    rm -f "$out" "${out%.*}.xmf"
    n=$((n + 1))
done
test "$n" -ge 7
echo "$n files regenerated bit for bit"
[ $# -gt 0 ] || exit 0
for old in "$@"; do
m=0
for f in "$old"/*.h5 "$old"/*.nc "$old"/*.hdf5; do
    [ -e "$f" ] || continue
    out=$tmp/old.${f##*.}
    case $f in *.hdf5) out=$tmp/old ;; esac # an AREPO set: --out is its base
    if "$tbrf" regenerate "$f" --out "$out" --check --quiet 2>"$tmp/err"; then
        echo "$f: --check passed on a field this version changed"; exit 1
    fi
    grep -q "was written by another version of tbrf" "$tmp/err" || { cat "$tmp/err"; exit 1; }
    [ ! -e "$out" ] && [ ! -e "$out.hdf5" ] || { echo "$f: a failed --check left its output"; exit 1; }
    m=$((m + 1))
done
test "$m" -ge 1
echo "$m files of an older version ($old) refused by --check, with the reason"
done
