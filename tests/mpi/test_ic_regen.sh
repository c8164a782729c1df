#!/usr/bin/env bash
# test_ic_regen.sh TBRF TBRF_MPI MPIRUN H5DUMP — `tbrf regenerate --check`
# of one member of a set that `mpirun -n N tbrf arepo cosmo --lpt 1` wrote
# with its default member count (one a rank with planes):
#  - the recorded /tbrf/command names that count (--files N), so the
#    serial regenerate remakes a set of N members and --check finds each
#    member bitwise equal (16^3 on 2 ranks, --gas on 4: FFTW-MPI's
#    blocks are even there, so member f holds the serial --files N set's
#    rows; on 3 ranks the blocks are 6, 6, 4 planes and the members keep
#    the ranks' bounds: doc/mpi.md, "Regenerating a set");
#  - the recorded count on 3 ranks, and an explicit --files recorded once.
set -euo pipefail
tbrf=$1 tbrf_mpi=$2 mpirun=$3 h5dump=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
fail=0
check() { # DESCRIPTION CONDITION...
    local what=$1
    shift
    if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; sed 's/^/  | /' out.txt 2>/dev/null | tail -20; fail=1; fi
}
margs=(--oversubscribe)
[ "$(id -u)" = 0 ] && margs+=(--allow-run-as-root)
ic=(arepo cosmo --box 50000 --redshift 49 --omega-m 0.3 --omega-b 0.04 --hubble 0.7 --sigma8 0.8
    --particles 16 --lpt 1 --quiet)
command_of() { "$h5dump" -a /tbrf/command "$1" | sed -n 's/^ *(0): "\(.*\)"$/\1/p'; }
regen_ok() { # MEMBER NEW
    "$tbrf" regenerate "$1" --out "$2" --check >out.txt 2>&1 && grep -q 'bitwise equal' out.txt
}
"$mpirun" "${margs[@]}" -n 2 "$tbrf_mpi" "${ic[@]}" --out two >out.txt 2>&1
check "2 ranks: two members" test -f two.0.hdf5 -a -f two.1.hdf5 -a ! -e two.2.hdf5
check "2 ranks: the command records --files 2" grep -q -- '--files 2$' <(command_of two.1.hdf5)
check "2 ranks: member 1 regenerates bitwise" regen_ok two.1.hdf5 re2
check "2 ranks: member 0 regenerates bitwise" regen_ok two.0.hdf5 re2b
"$mpirun" "${margs[@]}" -n 4 "$tbrf_mpi" "${ic[@]}" --gas --out four >out.txt 2>&1
check "4 ranks --gas: member 2 regenerates bitwise" regen_ok four.2.hdf5 re4
"$mpirun" "${margs[@]}" -n 3 "$tbrf_mpi" "${ic[@]}" --out three >out.txt 2>&1
check "3 ranks: the command records --files 3" grep -q -- '--files 3$' <(command_of three.2.hdf5)
"$mpirun" "${margs[@]}" -n 2 "$tbrf_mpi" "${ic[@]}" --files 3 --out given >out.txt 2>&1
check "--files given: recorded once" test "$(command_of given.0.hdf5 | grep -o -- '--files' | wc -l)" = 1
exit $fail
