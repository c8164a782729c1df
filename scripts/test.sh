#!/usr/bin/env bash
# Builds tbrf and runs the whole test suite with ctest.
#   scripts/test.sh             Release build in build/
#   scripts/test.sh --quick     the same build, without the statistical and
#                               long tests (labels stats, long): a few
#                               minutes, for a change's first check
#   scripts/test.sh --sanitize  ASan+UBSan build in build-asan/, CUDA emulated
#   scripts/test.sh --core      the library alone, static, in build-core/:
#                               FFTW3 and OpenMP only (every optional part
#                               OFF, HDF5/netCDF/PNG/OpenCL hidden from CMake),
#                               with its tests and a static install consumer
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
dir=build
flags=(-DCMAKE_BUILD_TYPE=Release)
select=()
if [ "${1:-}" = "--quick" ]; then
  select=(-LE "stats|long")
elif [ "${1:-}" = "--sanitize" ]; then
  dir=build-asan
  # The CUDA backend runs here on the tests' CPU emulator of the CUDA
  # runtime (doc/gpu.md), so its host code and kernels are checked too.
  flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DTBRF_SANITIZE=ON -DTBRF_BUILD_BENCH=OFF -DTBRF_CUDA_EMULATOR=ON)
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
  # PoCL's and LLVM's own process-lifetime allocations (tests/support/lsan.supp)
  export LSAN_OPTIONS=suppressions=$PWD/tests/support/lsan.supp
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  # The "long" label (dieharder on a generator's output stream) tests the
  # generators, not memory safety: the Release run covers it.
  select=(-LE long)
elif [ "${1:-}" = "--core" ]; then
  dir=build-core
  flags=(-DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF -DTBRF_BUILD_BENCH=OFF
         -DTBRF_IO=AUTO -DTBRF_CLI=AUTO -DTBRF_OPENCL=AUTO -DTBRF_CUDA=OFF -DTBRF_FORTRAN=OFF
         -DTBRF_QHULL=OFF
         -DCMAKE_DISABLE_FIND_PACKAGE_HDF5=ON -DCMAKE_DISABLE_FIND_PACKAGE_PNG=ON
         -DCMAKE_DISABLE_FIND_PACKAGE_OpenCL=ON)
  # the statistical tests run in the other builds
  select=(-LE "stats|long")
fi
if [ "$dir" = build-core ]; then
  # ON means required: asking for io without HDF5 must stop the configuration
  rm -rf build-core-on
  if cmake -S . -B build-core-on -DTBRF_IO=ON -DCMAKE_DISABLE_FIND_PACKAGE_HDF5=ON >build-core-on.log 2>&1; then
    echo "TBRF_IO=ON configured without HDF5" >&2; exit 1
  fi
  grep -q "TBRF_IO=ON but HDF5" build-core-on.log || { cat build-core-on.log >&2; exit 1; }
  rm -rf build-core-on build-core-on.log
fi
cmake -S . -B "$dir" "${flags[@]}" >/dev/null
cmake --build "$dir" -j"$(nproc)"
ctest --test-dir "$dir" --output-on-failure -j"$(nproc)" "${select[@]}"
