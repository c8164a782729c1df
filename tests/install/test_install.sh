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
test -f "$tmp/prefix/include/tbrf_version.h"
# the feature headers tbrf.h includes, each compiling alone
for h in $(sed -n 's/^#include "tbrf\/\([a-z_]*\)\.h"$/\1/p' "$tmp/prefix/include/tbrf.h"); do
    test -f "$tmp/prefix/include/tbrf/$h.h"
    printf '#include <tbrf/%s.h>\n' "$h" | cc -std=c11 -fsyntax-only -I"$tmp/prefix/include" -x c -
done
# the device headers of doc/rng.md, for users' own kernels
for h in features philox saru tea lcg64 normal; do test -f "$tmp/prefix/include/tbrf/rng/$h.h"; done
if [ "${HAVE_CLI:-ON}" = "ON" ]; then
    test -x "$tmp/prefix/bin/tbrf"
    "$tmp/prefix/bin/tbrf" --version   # finds libtbrf through its RPATH
    # any other command loads the private module LIBDIR/tbrf/tbrf-commands.so
    # through the launcher's RUNPATH (doc/design.md, "Start-up")
    "$tmp/prefix/bin/tbrf" --help | grep -q '^  generate '
    # with MPI, the MPI command (run by bin/tbrf under mpirun) finds libtbrf too
    mpi_cmd=$(ls "$libdir"/tbrf/mpi/tbrf 2>/dev/null || true)
    if [ -n "$mpi_cmd" ]; then ASAN_OPTIONS=detect_leaks=0 "$mpi_cmd" --version; fi
fi
export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# pkg-config: a static libtbrf needs --static (Requires.private, Libs.private)
export PKG_CONFIG_PATH="$libdir/pkgconfig"
static=""
if [ -f "$libdir/libtbrf.a" ] && [ ! -e "$libdir/libtbrf.so" ]; then static=--static; fi
cc -std=c11 $(pkg-config --cflags tbrf) "$src/consumer.c" -o "$tmp/consumer_pc" \
   $(pkg-config $static --libs tbrf) ${SANITIZE_FLAGS:-}
"$tmp/consumer_pc"
# a user kernel's host build against the installed device headers
printf '#include <tbrf/rng/philox.h>\n#include <tbrf/rng/tea.h>\nint main(void){return 0;}\n' >"$tmp/dev.c"
cc -std=c11 $(pkg-config --cflags tbrf) -c "$tmp/dev.c" -o "$tmp/dev.o"
# the streaming writer (libtbrf_writer, shared builds with the io library):
# doc/streaming.md's example through pkg-config, a tube written and published
writer_example=""
if [ -f "$tmp/prefix/include/tbrf_writer.h" ]; then
    writer_example="$(cd "$src/../../io" && pwd)/example_writer.c"
    test -f "$writer_example"
    cc -std=c11 $(pkg-config --cflags tbrf-writer) "$writer_example" -o "$tmp/writer_pc" \
       $(pkg-config --libs tbrf-writer) ${SANITIZE_FLAGS:-}
    "$tmp/writer_pc" "$tmp/tube.h5" 16 16 100
    test -s "$tmp/tube.h5" && test -s "$tmp/tube.xmf"
fi
# every installed library has the same soname version (libtbrf.so.0.7,
# libtbrf_fortran.so.0.7, ...: doc/design.md, "Versions")
sover=""
for lib in "$libdir"/libtbrf*.so; do
    [ -e "$lib" ] || continue
    # the tests' stand-in for the CUDA runtime (emulator builds) is no
    # library of tbrf's: it carries no version
    case $(basename "$lib") in libtbrf_cuda_emulator.so) continue ;; esac
    soname=$(readelf -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
    v=${soname#*.so.}
    echo "$(basename "$lib"): soname $soname"
    [ -z "$sover" ] || [ "$v" = "$sover" ] || { echo "soname $soname: want .so.$sover"; exit 1; }
    sover=$v
done
# the MPI helpers (libtbrf_mpi, when built with MPI): pkg-config with the
# MPI compiler wrapper, one rank
mpi=""
if [ -f "$tmp/prefix/include/tbrf_mpi.h" ]; then
    mpi=1
    test -f "$libdir/pkgconfig/tbrf-mpi.pc"
    mpicc -std=c11 $(pkg-config --cflags tbrf-mpi) "$src/mpi_consumer.c" -o "$tmp/mpi_pc" \
          $(pkg-config --libs tbrf-mpi) ${SANITIZE_FLAGS:-}
    # Open MPI keeps allocations past MPI_Finalize: not this program's leaks
    ASAN_OPTIONS=detect_leaks=0 "$tmp/mpi_pc"
    # module tbrf_mpi (when built with MPI's Fortran bindings)
    if [ -f "$tmp/prefix/include/tbrf-fortran/tbrf_mpi.mod" ]; then
        test -f "$libdir/pkgconfig/tbrf-fortran-mpi.pc"
        mpif90 $(pkg-config --cflags tbrf-fortran-mpi) "$src/mpi_consumer_f.f90" -o "$tmp/mpi_f_pc" \
               $(pkg-config --libs tbrf-fortran-mpi) ${SANITIZE_FLAGS:-}
        ASAN_OPTIONS=detect_leaks=0 "$tmp/mpi_f_pc"
    fi
fi
# find_package
cmake -S "$src" -B "$tmp/cmake-build" -DCMAKE_PREFIX_PATH="$tmp/prefix" \
      -DCMAKE_C_FLAGS="${SANITIZE_FLAGS:-}" ${writer_example:+-DWRITER_EXAMPLE="$writer_example"} >/dev/null
cmake --build "$tmp/cmake-build" >/dev/null
"$tmp/cmake-build/consumer"
if [ -n "$mpi" ]; then
    ASAN_OPTIONS=detect_leaks=0 "$tmp/cmake-build/mpi_consumer"   # tbrf::tbrf_mpi
fi
if [ -n "$writer_example" ]; then
    "$tmp/cmake-build/example_writer" "$tmp/tube2.h5" 16 16 100
    cmp "$tmp/tube.xmf" "$tmp/tube2.xmf" >/dev/null || { sed 's/tube2/tube/' "$tmp/tube2.xmf" | cmp - "$tmp/tube.xmf"; }
fi
echo "install test passed"
