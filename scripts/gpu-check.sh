#!/usr/bin/env bash
# On a machine with an NVIDIA GPU: builds tbrf for that GPU, runs the GPU
# tests (CUDA conformance, statistics, known answers) and the GPU
# benchmarks of doc/benchmarks.md, and keeps the logs.
#   scripts/gpu-check.sh [LOGDIR]      (default: build-gpu/logs)
# Exits non-zero if a test fails; the benchmark figures go into
# LOGDIR/bench_gpu_{float,double}.txt for doc/benchmarks-log.md ("GPU backends"). Needs the
# packages of scripts/install-deps.sh and the CUDA toolkit; it installs
# nothing, since GPU machines often cannot fetch (doc/gpu.md).
set -uo pipefail
cd "$(dirname "$0")/.."
dir=build-gpu
logs=${1:-$dir/logs}
mkdir -p "$logs"
nvidia-smi -L 2>&1 | tee "$logs/device.txt"
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DTBRF_CUDA_ARCHITECTURES=native >"$logs/configure.txt" 2>&1 &&
  cmake --build "$dir" -j"$(nproc)" >"$logs/build.txt" 2>&1 || { tail -40 "$logs/build.txt"; exit 1; }
export TBRF_WISDOM="$PWD/$dir/wisdom"
ctest --test-dir "$dir" -R "cuda|gpu" --output-on-failure 2>&1 | tee "$logs/ctest_gpu.txt"
status=${PIPESTATUS[0]}
# a skipped CUDA test here means the GPU was not usable: that is a failure
# (gpu_cuda_no_device is the one that skips because a GPU is present)
if grep "cuda.*Skipped" "$logs/ctest_gpu.txt" | grep -vq no_device; then
  echo "CUDA tests were skipped on a machine that should have a GPU" >&2
  status=1
fi
# the issue's cases in float (1024^3 streamed: the end-to-end goal), and
# double without the 1024^3 case, whose CPU baseline alone takes minutes
"$dir/bench/bench_gpu" --backends cpu,cuda --grids 128,512 --stream 1024 --points 10000000 \
  --precision float 2>&1 | tee "$logs/bench_gpu_float.txt"
"$dir/bench/bench_gpu" --backends cpu,cuda --grids 128,512 --points 10000000 \
  --precision double 2>&1 | tee "$logs/bench_gpu_double.txt"
cp "$TBRF_WISDOM" "$logs/wisdom.txt" 2>/dev/null
exit "$status"
