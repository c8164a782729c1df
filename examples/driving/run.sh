#!/usr/bin/env bash
# examples/driving/run.sh — builds drive.c and drive.f90 against the
# installed tbrf (find_package; TBRF_PREFIX or CMAKE_PREFIX_PATH says where,
# if not in a default place) in ./build-driving, then runs both with CELLS^3
# moving cells (default 32). Each exits non-zero if its restart check fails.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cells=${CELLS:-32}
prefix=${TBRF_PREFIX:-${CMAKE_PREFIX_PATH:-}}
cmake -S "$here" -B build-driving ${prefix:+-DCMAKE_PREFIX_PATH="$prefix"} \
      -DCMAKE_BUILD_TYPE=Release ${FC:+-DCMAKE_Fortran_COMPILER="$FC"} >/dev/null
cmake --build build-driving >/dev/null
./build-driving/drive_c "$cells"
./build-driving/drive_f "$cells"
