#!/usr/bin/env bash
# Installs the build tree into a temporary prefix, then builds a program
# outside the source tree against it twice — through pkg-config and through
# find_package(tbrf) — and runs both, plus the installed tbrf command.
set -euo pipefail
build=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
libdir=$(ls -d "$tmp"/prefix/lib*)
test -f "$tmp/prefix/include/tbrf.h"
test -x "$tmp/prefix/bin/tbrf"
"$tmp/prefix/bin/tbrf" --version   # finds libtbrf through its RPATH
export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# pkg-config
export PKG_CONFIG_PATH="$libdir/pkgconfig"
cc -std=c11 $(pkg-config --cflags tbrf) "$src/consumer.c" -o "$tmp/consumer_pc" $(pkg-config --libs tbrf) ${SANITIZE_FLAGS:-}
"$tmp/consumer_pc"
# find_package
cmake -S "$src" -B "$tmp/cmake-build" -DCMAKE_PREFIX_PATH="$tmp/prefix" \
      -DCMAKE_C_FLAGS="${SANITIZE_FLAGS:-}" >/dev/null
cmake --build "$tmp/cmake-build" >/dev/null
"$tmp/cmake-build/consumer"
echo "install test passed"
