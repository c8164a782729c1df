# setup.sh — sourced by the examples' run.sh: builds the problem of the
# calling example's folder against $AMRVAC_DIR and the installed tbrf.
#   amrvac_setup NDIM [PAR]  in $WORK (default /tmp/tbrf-amrvac-EXAMPLE):
#                       copies mod_usr.t, PAR (default amrvac.par) as
#                       amrvac.par and common/local.make, runs setup.pl
#                       -d=NDIM and make
# TBRF_PREFIX: the installed tbrf (default /tmp/tbrf-prefix, where
# `cmake --install build --prefix /tmp/tbrf-prefix` puts this build's).
# JOBS: make's jobs (default 2). AMRVAC_ARCH: setup.pl's -arch (an
# arch/*.defs of AMRVAC, e.g. openmp; default AMRVAC's default). AMRVAC_SRC_DIRS: the source folders of
# libamrvac to build (make's SRC_DIRS; default all of them), for a library
# built with only some physics modules (this example needs those of
# src, modules, amr, io, limiter, physics, mhd and particle). AMRVAC's
# makefile needs rsync.
set -euo pipefail
: "${AMRVAC_DIR:?set AMRVAC_DIR to an MPI-AMRVAC checkout (github.com/amrvac/amrvac)}"
export AMRVAC_DIR
TBRF_PREFIX=${TBRF_PREFIX:-/tmp/tbrf-prefix}
common=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
pc=$(find "$TBRF_PREFIX" -name tbrf-fortran.pc -print -quit 2>/dev/null || true)
if [ -z "$pc" ]; then
    echo "no tbrf-fortran.pc under TBRF_PREFIX=$TBRF_PREFIX: install tbrf there" \
         "(cmake --install build --prefix $TBRF_PREFIX)" >&2
    exit 1
fi
export PKG_CONFIG_PATH=$(dirname "$pc")${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
export TBRF_BLOCKS_DIR=$common

amrvac_setup() {
    local ndim=$1 par=${2:-amrvac.par} src
    src=$(cd "$(dirname "${BASH_SOURCE[1]}")" && pwd)
    WORK=${WORK:-${TMPDIR:-/tmp}/tbrf-amrvac-$(basename "$src")}
    mkdir -p "$WORK"
    cp "$src/mod_usr.t" "$WORK/"
    cp "$src/$par" "$WORK/amrvac.par"
    cp "$common/local.make" "$WORK/"
    cd "$WORK"
    "$AMRVAC_DIR/setup.pl" -d="$ndim" ${AMRVAC_ARCH:+-arch="$AMRVAC_ARCH"} </dev/null >/dev/null
    make -j"${JOBS:-2}" ${AMRVAC_SRC_DIRS:+"SRC_DIRS=$AMRVAC_SRC_DIRS"} >make.log 2>&1 ||
        { tail -30 make.log >&2; exit 1; }
}

# cpu_seconds CMD...: runs CMD, prints its user + system CPU seconds
# (children included) on stdout, its own output to run.log.
cpu_seconds() {
    /usr/bin/time -f '%U %S' -o cpu.tmp "$@" >>run.log 2>&1
    awk '{ printf "%.2f\n", $1 + $2 }' cpu.tmp
}
