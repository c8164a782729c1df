#!/usr/bin/env bash
# test_fixtures.sh TBRF DIR — every file in DIR (tests/data/before: fields
# written by the tbrf of before the restructure of issue #11, one per model,
# method, precision, geometry and format) is remade bit for bit from its
# recorded parameters by today's `tbrf regenerate --check`. A change that
# alters any field's values fails here (and must then bump the version
# recorded in files and say so in doc/).
set -euo pipefail
tbrf=$1 dir=$2
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
