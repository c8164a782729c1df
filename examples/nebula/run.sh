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
# A Python with numpy and h5py for the check, found before the run: $PYTHON
# when set (only it), else the first of python3 and /usr/bin/python3
# (Debian's, to which scripts/install-deps.sh gives python3-h5py) that
# imports both. A pyenv or conda python3 without h5py is passed over.
find_python() {
    local p
    for p in ${PYTHON:-python3 /usr/bin/python3}; do
        if command -v "$p" >/dev/null 2>&1 && "$p" -c 'import numpy, h5py' 2>/dev/null; then
            echo "$p"
            return 0
        fi
    done
    return 1
}
python=$(find_python) || {
    echo "run.sh: no Python that imports numpy and h5py (tried ${PYTHON:-python3 /usr/bin/python3}):" \
         "install them (Debian: python3-numpy python3-h5py; pip: numpy h5py) or set" \
         "PYTHON=/path/to/python that has them" >&2
    exit 1
}
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
