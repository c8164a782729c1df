#!/usr/bin/env bash
# examples/arepo/run.sh — writes two AREPO initial-condition files into the
# current folder with the installed `tbrf` (on the PATH, or $TBRF):
#   turb_ics.hdf5   a periodic turbulent gas box: lognormal density,
#                   solenoidal Mach-2 velocities (README.md, "Gas box")
#   cosmo_ics.hdf5  AREPO's cosmo_box_gravity_only_3d setting: 32^3 dark
#                   matter particles, 50 Mpc/h, z = 127, Zel'dovich
# then checks both (check.py); then builds ic_from_c.c and ic_from_fortran.f90
# against the installed libraries (pkg-config tbrf, tbrf-writer,
# tbrf-fortran; PKG_CONFIG_PATH=P/lib/pkgconfig for a prefix P), runs each
# in an empty folder and checks that its cosmo_ics.hdf5 is the command's,
# byte for byte (IC_EXAMPLES=require: fail when they cannot be built;
# off: skip them). GAS_CELLS and PARTICLES (per axis) scale them.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tbrf=${TBRF:-tbrf}
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
gas=${GAS_CELLS:-32}
parts=${PARTICLES:-32}
command -v "$tbrf" >/dev/null || { echo "run.sh: tbrf not found: install tbrf or set TBRF" >&2; exit 1; }

# (a) turbulent gas: box 1, jittered lattice, density exp(sigma g) with
# sigma(ln rho) = 0.5 and velocities of rms 2 c_s, both from a k^-4 power
# law between the box's fundamental and k = 64 (periodic over the box)
"$tbrf" arepo gas --out turb_ics --box 1 --jittered "$gas" --seed 1 \
    --density lognormal --sigma 0.5 --rho 1 \
    --model powerlaw --index -4 --kmin 6.283185307179586 --kmax 64 \
    --velocity solenoidal --mach 2 --sound-speed 1

# (b) cosmological dark matter, as AREPO's examples/cosmo_box_gravity_only_3d
"$tbrf" arepo cosmo --out cosmo_ics --box 50000 --particles "$parts" --redshift 127 \
    --omega-m 0.3089 --omega-lambda 0.6911 --omega-b 0.0486 --hubble 0.6774 \
    --sigma8 0.831 --seed 1 --lpt 1

"$python" "$here/check.py" turb_ics.hdf5 cosmo_ics.hdf5

# (c) the same IC from a C and a Fortran program on the installed libraries
ic_example() { # NAME SOURCE COMPILER PKGS...
    local name=$1 src=$2 cc=$3
    shift 3
    if ! pkg-config --exists "$@" 2>/dev/null || ! command -v "$cc" >/dev/null; then
        echo "run.sh: $name skipped: no $cc or pkg-config finds no $*"
        [ "${IC_EXAMPLES:-auto}" != require ] || exit 1
        return 0
    fi
    mkdir -p ic-bin
    rm -rf "ic-$name" && mkdir "ic-$name"
    # shellcheck disable=SC2046 # pkg-config's flags are words
    "$cc" -O2 "$here/$src" $(pkg-config --cflags --libs "$@") \
        -Wl,-rpath,"$(pkg-config --variable=libdir tbrf)" -o "ic-bin/$name"
    (cd "ic-$name" && "../ic-bin/$name" "$parts")
    cmp cosmo_ics.hdf5 "ic-$name/cosmo_ics.hdf5"
    echo "$name: cosmo_ics.hdf5 is the command's, byte for byte"
}
if [ "${IC_EXAMPLES:-auto}" != off ]; then
    ic_example ic_from_c ic_from_c.c "${CC:-cc}" tbrf-writer tbrf
    ic_example ic_from_fortran ic_from_fortran.f90 "${FC:-gfortran}" tbrf-fortran tbrf-writer
fi
