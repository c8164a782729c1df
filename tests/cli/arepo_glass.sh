#!/bin/sh
# `tbrf arepo glass` (doc/arepo.md, "Making a glass"): an 8^3 glass as
# AREPO HDF5 and as a Gadget format-1 binary, each accepted by `tbrf arepo
# cosmo --glass` (tiled twice: 16^3 particles); the HDF5 glass made on
# one thread remade bitwise on two (regenerate --check); bad input refused
# with its exit status and a line naming the problem.
# usage: arepo_glass.sh TBRF WORK_DIR
set -u
T=$1; W=$2
rm -rf "$W" && mkdir -p "$W" && cd "$W" || exit 1
fail() { echo "FAIL: $*" >&2; exit 1; }
COSMO="--box 50000 --particles 16 --redshift 127 --omega-m 0.3 --omega-b 0.05 --hubble 0.7 --sigma8 0.8"
OMP_NUM_THREADS=1 "$T" arepo glass --out g --particles 8 --seed 5 2>log || fail "glass: $(cat log)"
test -s g.hdf5 || fail "no g.hdf5"
grep -q "low-k power" log || fail "no summary line: $(cat log)"
# shellcheck disable=SC2086
"$T" arepo cosmo --out ic --glass g.hdf5 $COSMO --quiet || fail "cosmo --glass g.hdf5"
test -s ic.hdf5 || fail "no ic.hdf5"
OMP_NUM_THREADS=2 "$T" regenerate g.hdf5 --out g2 --check --quiet || fail "two threads: other bits"
"$T" arepo glass --out gb --particles 8 --seed 5 --format gadget1 --quiet || fail "gadget1 glass"
test -s gb && test -s gb.tbrf.h5 || fail "no gb, gb.tbrf.h5"
# shellcheck disable=SC2086
"$T" arepo cosmo --out icb --glass gb $COSMO --quiet || fail "cosmo --glass gb (Gadget)"
# refusals: exit 2 for the command line and the budget, 1 for the folder
refuse() { # want pattern args...
  want=$1; pat=$2; shift 2
  "$T" arepo glass "$@" 2>err; rc=$?
  [ "$rc" = "$want" ] || fail "$*: exit $rc, not $want"
  grep -q -- "$pat" err || fail "$*: no '$pat' in: $(cat err)"
}
refuse 2 "--particles" --out x --particles 0
refuse 2 "memory budget" --out x --particles 2048
refuse 2 "--mesh" --out x --particles 8 --mesh 7
refuse 2 "required" --particles 8
refuse 1 "cannot write" --out "$W/missing/x" --particles 8
test ! -e x.hdf5 || fail "a refused run wrote x.hdf5"
echo "arepo_glass: all passed"
