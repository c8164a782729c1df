#!/usr/bin/env bash
# examples/nebula/run.sh — builds nebula.f90 against the installed tbrf
# (pkg-config tbrf-fortran and tbrf-writer; set PKG_CONFIG_PATH for a
# prefix of your own), runs it in the current folder and checks the run:
#   snap_000..004.h5 + .xmf   density snapshots (open the .xmf in ParaView)
#   inflow.h5 + .xmf          the wind as it entered, stacked
#   lnrho_final.h5 + .xmf     ln(rho / rho_w) at the end
#   density.png               its slice through the clump's centre (y = NY/2)
#   nebula_stats.csv, nebula_params.txt
# Arguments go to the program: NX NY NZ [CROSSINGS] (default 48 48 96 1).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
fc=${FC:-gfortran}
python=${PYTHON:-python3}
tbrf=${TBRF:-}
pkg-config --exists tbrf-fortran tbrf-writer || {
    echo "run.sh: pkg-config finds no tbrf-fortran / tbrf-writer: install tbrf (a shared build with" \
         "Fortran and HDF5) or set PKG_CONFIG_PATH to its lib/pkgconfig" >&2
    exit 1
}
prefix=$(pkg-config --variable=prefix tbrf)
libdir=$(pkg-config --variable=libdir tbrf)
[ -n "$tbrf" ] || tbrf="$prefix/bin/tbrf"
"$fc" -O2 -fopenmp -std=f2008 $(pkg-config --cflags tbrf-fortran) "$here/nebula.f90" -o nebula \
    $(pkg-config --libs tbrf-fortran tbrf-writer) -Wl,-rpath,"$libdir"
# Threads that wait should sleep, not spin: the solver and the sampler
# alternate many short parallel loops.
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
./nebula "$@"
ny=$(awk '$1 == "cells" {print $3}' nebula_params.txt)
"$tbrf" preview lnrho_final.h5 --axis y --index $((ny / 2)) --out density.png
"$python" "$here/check.py"
