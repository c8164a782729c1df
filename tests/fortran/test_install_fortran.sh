#!/usr/bin/env bash
# test_install_fortran.sh BUILD CONSUMER_DIR FC H5DUMP
# Installs the build tree into a temporary prefix, builds a Fortran program
# outside the source tree against it through pkg-config (tbrf-fortran) and
# through find_package(tbrf) (tbrf::tbrf_fortran), and checks that both give
# bit for bit the values the installed `tbrf generate` writes for the same
# parameters.
set -euo pipefail
build=$1 src=$2 fc=$3 h5dump=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
libdir=$(ls -d "$tmp"/prefix/lib*)
test -f "$tmp/prefix/include/tbrf-fortran/tbrf.mod"
test -f "$libdir/pkgconfig/tbrf-fortran.pc"
export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

# The command's fields, as raw little-endian values.
tbrf=$tmp/prefix/bin/tbrf
"$tbrf" generate --model powerlaw --index -3 --kmin 0.05 --kmax 3 --grid 24x20x16 \
        --out "$tmp/a.h5"
"$tbrf" generate --model matern --length 3 --nu 1.5 --variance 2 --grid 30x20 \
        --spacing 0.5,0.8 --origin 1,-2 --seed 7 --realization 3 --lines 256 --precision float \
        --out "$tmp/b.h5"
"$h5dump" -d /field -b LE -o "$tmp/a.raw" "$tmp/a.h5" >/dev/null
"$h5dump" -d /field -b LE -o "$tmp/b.raw" "$tmp/b.h5" >/dev/null
test "$(stat -c %s "$tmp/a.raw")" -eq $((24 * 20 * 16 * 8))
test "$(stat -c %s "$tmp/b.raw")" -eq $((30 * 20 * 4))

same() { # program output dir
    cmp "$tmp/a.raw" "$2/a.bin" && cmp "$tmp/b.raw" "$2/b.bin" \
        && echo "$1: values identical to tbrf generate"
}

# pkg-config
export PKG_CONFIG_PATH="$libdir/pkgconfig"
mkdir "$tmp/pc"
"$fc" $(pkg-config --cflags tbrf-fortran) "$src/consumer.f90" -o "$tmp/pc/consumer" \
      $(pkg-config --libs tbrf-fortran) ${SANITIZE_FLAGS:-}
"$tmp/pc/consumer" "$tmp/pc"
same pkg-config "$tmp/pc"

# find_package
cmake -S "$src" -B "$tmp/cmake-build" -DCMAKE_PREFIX_PATH="$tmp/prefix" \
      -DCMAKE_Fortran_COMPILER="$fc" -DCMAKE_Fortran_FLAGS="${SANITIZE_FLAGS:-}" \
      -DCMAKE_C_FLAGS="${SANITIZE_FLAGS:-}" >/dev/null
cmake --build "$tmp/cmake-build" >/dev/null
"$tmp/cmake-build/consumer" "$tmp/cmake-build"
same find_package "$tmp/cmake-build"
echo "fortran install test passed"
