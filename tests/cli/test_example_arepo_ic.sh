#!/usr/bin/env bash
# test_example_arepo_ic.sh BUILD EXAMPLE_DIR PYTHON [FC] — installs the build
# tree into a temporary prefix and runs examples/arepo/run.sh against it as
# its README says (16^3 particles, 8^3 gas cells): the installed `tbrf`
# writes cosmo_ics.hdf5, and ic_from_c.c (and, given a Fortran compiler,
# ic_from_fortran.f90), built through pkg-config and run in empty folders,
# write the same file byte for byte (cmp).
set -euo pipefail
build=$1 src=$2 python=$3 fc=${4:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
libdir=$(ls -d "$tmp"/prefix/lib*)
export PKG_CONFIG_PATH="$libdir/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
cd "$tmp"
want=1 mode=auto
if [ -n "$fc" ]; then
    want=2 mode=require
fi
out=$(TBRF="$tmp/prefix/bin/tbrf" PYTHON="$python" GAS_CELLS=8 PARTICLES=16 FC="${fc:-gfortran}" \
      IC_EXAMPLES=$mode bash "$src/run.sh")
echo "$out"
test "$(echo "$out" | grep -c "cosmo_ics.hdf5 is the command's, byte for byte")" -ge "$want"
