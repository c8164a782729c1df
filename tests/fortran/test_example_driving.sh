#!/usr/bin/env bash
# test_example_driving.sh BUILD EXAMPLE_DIR FC — installs the build tree
# into a temporary prefix and runs examples/driving/run.sh against it, as
# its README says, at 8^3 cells: both programs (C and Fortran) build
# outside the source tree through find_package and pass their restart
# check (forcing after a restart bitwise identical).
set -euo pipefail
build=$1 src=$2 fc=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
libdir=$(ls -d "$tmp"/prefix/lib*)
export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
cd "$tmp"
out=$(TBRF_PREFIX="$tmp/prefix" FC="$fc" CELLS=${CELLS:-8} bash "$src/run.sh")
echo "$out"
test "$(echo "$out" | grep -c 'restart check passed')" -eq 2
