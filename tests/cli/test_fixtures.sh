#!/usr/bin/env bash
# test_fixtures.sh TBRF DIR [older] — every file in DIR (tests/data/before:
# fields written by the current version, one per model, method, precision,
# geometry and format) is remade bit for bit from its recorded parameters
# by today's `tbrf regenerate --check`. A change that alters any field's
# values fails here (and must then bump the version recorded in files,
# say so in doc/, move the files to tests/data/v<old version>/ and write
# fresh ones).
#
# With `older` (DIR = tests/data/v0.1.0: the same fields written by 0.1.0,
# whose values 0.2.0 changed, issue #20), every regenerate must warn that
# the file comes from another version, and `--check` must fail giving the
# version difference as the reason.
set -euo pipefail
tbrf=$1 dir=$2 mode=${3:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
for f in "$dir"/*.h5 "$dir"/*.nc; do
    out=$tmp/again.${f##*.}
    if [ "$mode" = older ]; then
        rc=0
        "$tbrf" regenerate "$f" --out "$out" --check --quiet 2>"$tmp/err" >/dev/null || rc=$?
        old=$(sed -n 's/^tbrf: warning: .* was written by tbrf \([0-9.]*\), this is tbrf .*/\1/p' "$tmp/err")
        if [ "$rc" -eq 0 ] || [ -z "$old" ] ||
            ! grep -q "^tbrf: --check: .*: the file was written by tbrf $old, this is tbrf [0-9.]* (field values changed between these versions)$" "$tmp/err"; then
            echo "FAIL: $f (rc $rc): no clear version message"
            cat "$tmp/err"
            exit 1
        fi
    else
        "$tbrf" regenerate "$f" --out "$out" --check --quiet
    fi
    rm -f "$out" "${out%.*}.xmf"
    n=$((n + 1))
done
test "$n" -ge 7
if [ "$mode" = older ]; then
    echo "$n files of an older version: warned, and --check names the version difference"
else
    echo "$n files regenerated bit for bit"
fi
