#!/usr/bin/env bash
# test_startup.sh TBRF STUB NETCDF_SONAME CAIRO_SONAME H5DUMP [MPIRUN MPIRUN_ARGS...] —
# what the command loads (doc/design.md, "Start-up"), read from the
# dynamic loader's own report (LD_DEBUG=libs), so that no timing enters:
#  - `tbrf --version` loads libtbrf and none of HDF5, netCDF, cairo, MPI;
#  - `tbrf generate` of a 2^3 grid to HDF5 loads HDF5, not netCDF, cairo
#    or MPI; netCDF output loads netCDF; `tbrf preview` loads cairo;
#  - with netCDF and cairo standing for broken installations (STUB, a
#    library without their functions, under their sonames first on
#    LD_LIBRARY_PATH), netCDF output and preview fail with one message
#    naming the library and leave no file, HDF5 output still works;
#  - the commands' module beside the executable exports tbrf_cli_main
#    alone (a private module: no API of its own);
#  - under mpirun (when given), bin/tbrf runs the MPI command: the file
#    records mpi_ranks = 2.
set -euo pipefail
tbrf=$1 stub=$2 nc_so=$3 cairo_so=$4 h5dump=$5
shift 5
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
fail=0
check() { # DESCRIPTION CONDITION...
    local what=$1
    shift
    if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; fail=1; fi
}
loaded() { # LOG NAME: the loader opened a library whose file name starts NAME
    grep -q "calling init: .*/$2[^/]*\$" "$1"
}
gen=(generate --model gaussian --length 1 --kmax 3 --grid 2x2x2) # --kmax: no aliasing warning

LD_DEBUG=libs "$tbrf" --version >version.out 2>version.log
check "--version prints the versions" grep -q '^tbrf [0-9.]* (libtbrf [0-9.]*, HDF5 [0-9]*\.[0-9]*\.[0-9]*)$' version.out
check "--version loads libtbrf" loaded version.log libtbrf
for lib in libhdf5 libnetcdf libcairo libfontconfig libmpi; do
    check "--version does not load $lib" eval '! loaded version.log $lib'
done

LD_DEBUG=libs "$tbrf" "${gen[@]}" --out g.h5 >/dev/null 2>gen.log
check "generate 2^3 writes its file" test -s g.h5
check "generate loads HDF5" loaded gen.log libhdf5
for lib in libnetcdf libcairo libmpi; do
    check "generate to HDF5 does not load $lib" eval '! loaded gen.log $lib'
done
# a child of a singleton MPI_Init (pvpython, mpi4py) is no MPI launch
PMIX_RANK=0 OMPI_MCA_ess=singleton LD_DEBUG=libs "$tbrf" "${gen[@]}" --out s.h5 >/dev/null 2>single.log
check "under a singleton's environment generate writes its file" test -s s.h5
check "under a singleton's environment generate does not load libmpi" eval '! loaded single.log libmpi'
LD_DEBUG=libs "$tbrf" "${gen[@]}" --out g.nc >/dev/null 2>nc.log
check "netCDF output loads netCDF" loaded nc.log "$nc_so"
check "netCDF output writes its file" test -s g.nc
LD_DEBUG=libs "$tbrf" preview g.h5 --out p.png >/dev/null 2>png.log
check "preview loads cairo" loaded png.log "$cairo_so"
check "preview draws its picture" test -s p.png

module=$(dirname "$tbrf")/tbrf-commands.so
check "the module exports tbrf_cli_main alone" \
    test "$(nm -D --defined-only "$module" | awk '{print $NF}' | tr '\n' ' ')" = "tbrf_cli_main "

# broken installations of netCDF and cairo
mkdir broken
cp "$stub" "broken/$nc_so"
cp "$stub" "broken/$cairo_so"
rc=0
LD_LIBRARY_PATH=$work/broken${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} "$tbrf" "${gen[@]}" --out b.nc \
    >/dev/null 2>nc.err || rc=$?
check "netCDF output without netCDF fails with status 1" test "$rc" = 1
check "... in one line naming $nc_so" grep -q "^tbrf: .*netCDF files need $nc_so, which lacks the function nc_" nc.err
check "... one line only" test "$(wc -l <nc.err)" = 1
check "... leaving no file" test -z "$(ls -A | grep '^b\.')"
rc=0
LD_LIBRARY_PATH=$work/broken${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} "$tbrf" preview g.h5 --out b.png \
    >/dev/null 2>png.err || rc=$?
check "preview without cairo fails with status 1" test "$rc" = 1
check "... naming $cairo_so" grep -q "PNG pictures need $cairo_so, which lacks the function cairo_" png.err
check "... leaving no picture" test -z "$(ls -A | grep '^b\.')"
LD_LIBRARY_PATH=$work/broken${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} "$tbrf" "${gen[@]}" --out h.h5 \
    >/dev/null 2>&1
check "HDF5 output without netCDF and cairo works" test -s h.h5

# under mpirun: the MPI command in bin/tbrf's place
if [ $# -gt 0 ]; then
    "$@" -n 2 "$tbrf" "${gen[@]}" --out m.h5 >mpi.out 2>&1 || true
    check "mpirun -n 2 tbrf generate writes with 2 ranks" \
        test "$("$h5dump" -a /mpi_ranks m.h5 2>/dev/null | sed -n 's/^ *(0): \([0-9]*\).*/\1/p')" = 2
fi
[ "$fail" -eq 0 ] || exit 1
