#!/usr/bin/env bash
# Builds tbrf and runs the whole test suite with ctest.
#   scripts/test.sh             Release build in build/
#   scripts/test.sh --sanitize  ASan+UBSan build in build-asan/, CUDA emulated
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
dir=build
flags=(-DCMAKE_BUILD_TYPE=Release)
select=()
if [ "${1:-}" = "--sanitize" ]; then
  dir=build-asan
  # The CUDA backend runs here on the tests' CPU emulator of the CUDA
  # runtime (doc/gpu.md), so its host code and kernels are checked too.
  flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DTBRF_SANITIZE=ON -DTBRF_BUILD_BENCH=OFF -DTBRF_CUDA_EMULATOR=ON)
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  # The "long" label (dieharder on a generator's output stream) tests the
  # generators, not memory safety: the Release run covers it.
  select=(-LE long)
fi
cmake -S . -B "$dir" "${flags[@]}" >/dev/null
cmake --build "$dir" -j"$(nproc)"
ctest --test-dir "$dir" --output-on-failure -j"$(nproc)" "${select[@]}"
