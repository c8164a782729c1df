#!/usr/bin/env bash
# test_examples.sh MPIRUN C_EXAMPLE [F_EXAMPLE] — examples/mpi: each runs on
# 1, 2, 3 and 4 ranks and prints the same checksum of its field's bits
# every time (the field does not depend on the split); the Fortran example
# prints the C example's checksum.
set -euo pipefail
mpirun=$1
shift
root=()
[ "$(id -u)" = 0 ] && root=(--allow-run-as-root)
ref=""
fail=0
for ex in "$@"; do
    for n in 1 2 3 4; do
        out=$("$mpirun" --oversubscribe "${root[@]}" -n "$n" "$ex")
        sum=$(echo "$out" | sed -n 's/^checksum \([0-9a-fA-F]*\)$/\1/p' | tr 'A-F' 'a-f')
        echo "$(basename "$ex") on $n ranks: checksum $sum; $(echo "$out" | grep 'mean')"
        [ -n "$sum" ] || { echo "FAIL: no checksum"; fail=1; continue; }
        [ -n "$ref" ] || ref=$sum
        [ "$sum" = "$ref" ] || { echo "FAIL: checksum $sum differs from $ref"; fail=1; }
    done
done
exit $fail
