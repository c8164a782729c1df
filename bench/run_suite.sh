#!/bin/sh
# bench/run_suite.sh — the speed suite of doc/benchmarks.md in one command: turning
# bands vs the FFT method on grids, points, lines, the projection against
# straightforward loops, the FFT method end to end against FFTW + an HDF5
# write by hand, the core's limits for the projection (bench_limits), and
# peers from PyPI (gstools, FINUFFT) in a throw-away virtual environment.
# Prints tables and, last, the summary of issue #16's ratios for every SIMD
# path this CPU runs (TBRF_CPU_ISA forces the
# lower ones: on an AVX-512 machine the AVX2 row is the AVX2 path on that
# machine, not an AVX2-only CPU). Asserts nothing.
# Usage: bench/run_suite.sh [BUILD_DIR=build] [quick|full] [REPEATS=3]
# Environment: TBRF_PEERS_VENV (default /tmp/tbrf-peers-venv); set
# TBRF_NO_PEERS=1 to skip the peers; TBRF_SUITE_SUMMARY_ONLY=1 to run only
# the summary's programs.
set -e
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build}
mode=${2:-quick}
reps=${3:-3}
threads=${OMP_NUM_THREADS:-$(nproc)}
cpu="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores"
isas=portable
grep -q -w avx2 /proc/cpuinfo && grep -q -w fma /proc/cpuinfo && isas="avx2"
grep -q -w avx512f /proc/cpuinfo && grep -q -w avx512dq /proc/cpuinfo && isas="avx512 $isas"
grep -q -w avx512_fp16 /proc/cpuinfo && case $isas in avx512*) isas="avx512-gather $isas" ;; esac
echo "# machine: $cpu, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "# CPU kernels: $isas (best first)"
cmake --build "$build" --target bench_suite bench_projection bench_fft_write bench_limits tbrf_cli >/dev/null
if [ -z "$TBRF_SUITE_SUMMARY_ONLY" ]; then
    "$build/bench/bench_suite" "$mode" "$reps"
    echo
    "$build/bench/bench_projection" 128 1024 "$reps"
fi

# The summary: each ISA's ratios, measured in one run per ISA (every ratio's
# two sides are timed in the same run, alternating).
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for isa in $isas; do
    echo
    echo "## $isa path"
    TBRF_CPU_ISA=$isa "$build/bench/bench_projection" 128 1024 "$reps" float nodouble | tee "$out/proj-$isa"
    OMP_NUM_THREADS=1 TBRF_BENCH_CLOCK=cpu TBRF_CPU_ISA=$isa "$build/bench/bench_projection" 96 1024 "$reps" \
        float nodouble | tee "$out/core-$isa"
    TBRF_CPU_ISA=$isa "$build/bench/bench_fft_write" "$build/cli/tbrf" 256 float "$reps" "$out" 2>/dev/null |
        tee "$out/fft-$isa"
    OMP_NUM_THREADS=1 TBRF_CPU_ISA=$isa "$build/bench/bench_fft_write" "$build/cli/tbrf" 256 float "$reps" \
        "$out" 2>/dev/null | tee "$out/fftcore-$isa"
done
ratio() { sed -n "s/^RATIO $2 //p" "$out/$1"; }
rate() { sed -n "s/^RATE $2 //p" "$out/$1"; }
echo
echo "## summary (#16): $cpu, $threads threads, best of $reps, $(date -u '+%Y-%m-%d')"
printf "%-13s %10s %9s %8s %10s %9s %8s %8s %8s %8s\n" "ISA" "grid cl/s" "loop/tbrf" "pts/grid" \
    "core cl/s" "loop/tbrf" "pts/grid" "FFT/hand" "+fsync" "FFT core"
printf "%-13s %10s %9s %8s %10s %9s %8s %8s %8s %8s\n" "goal" "" ">= 4" "<= 1.5" "" ">= 4" "<= 1.5" \
    "<= 1.3" "" "<= 1.3"
for isa in $isas; do
    printf "%-13s %10s %9s %8s %10s %9s %8s %8s %8s %8s\n" "$isa" \
        "$(rate proj-$isa grid_projection_cell_lines_per_s)" \
        "$(ratio proj-$isa tbrf_vs_float_native_loop_e2e)" "$(ratio proj-$isa points_time_over_grid_time)" \
        "$(rate core-$isa grid_projection_cell_lines_per_s)" \
        "$(ratio core-$isa tbrf_vs_float_native_loop_e2e)" "$(ratio core-$isa points_time_over_grid_time)" \
        "$(ratio fft-$isa fft_e2e_over_by_hand)" "$(ratio fft-$isa fft_e2e_over_by_hand_fsync)" \
        "$(ratio fftcore-$isa fft_cpu_over_by_hand)"
done
echo "# grid cl/s, loop/tbrf, pts/grid: all threads, wall clock, 128^3 x 1024 lines: tbrf's grid"
echo "# projection rate; the float -O3 -march=native loop's end to end over tbrf's; projection time"
echo "# at 128^3 random points over the grid's. core ...: the same on one thread in CPU time, 96^3"
echo "# (not inflated by waiting for a core on a shared machine). FFT/hand: tbrf generate --method"
echo "# fft (256^3 float, to HDF5) over FFTW c2r + fill + HDF5 write by hand (+ fsync), wall clock;"
echo "# FFT core: the same on one thread, CPU seconds (user + system)."
echo
echo "## the projection's ceiling on this core (samples in L1; compare the core cl/s above)"
"$build/bench/bench_limits" "$reps" | grep -v '^LIMIT'

if [ -z "$TBRF_NO_PEERS" ] && [ -z "$TBRF_SUITE_SUMMARY_ONLY" ]; then
    venv=${TBRF_PEERS_VENV:-/tmp/tbrf-peers-venv}
    if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import gstools, finufft, numpy' 2>/dev/null; then
        python3 -m venv "$venv" && "$venv/bin/pip" install -q gstools finufft numpy ||
            echo "# peers could not be installed: skipped"
    fi
    echo
    if [ "$mode" = full ]; then sizes="10000 100000 1000000 10000000"; else sizes="10000 100000 1000000"; fi
    "$venv/bin/python" "$here/peers.py" "$threads" "$reps" $sizes || echo "# peers failed"
fi

# ---- start-up (issue #31 item 2): `tbrf --version` and a 2^3 generate
# against a bare C program linked with libtbrf (+ libtbrf_writer for the
# grid), 20 alternated pairs, CPU time of each child (goal <= 2).
if cmake --build "$build" --target tbrf_cli bench_startup startup_bare_version startup_bare_grid \
    >/dev/null 2>&1; then
    echo
    echo "## start-up: tbrf against a bare program linked with libtbrf ($cpu)"
    su_out=$(mktemp -d)
    OMP_NUM_THREADS=1 "$build/bench/bench_startup" "$build/cli/tbrf" "$build/bench/startup_bare_version" \
        "$build/bench/startup_bare_grid" 20 "$su_out" | tee "$su_out/log" | grep -v '^RATIO'
    printf "%-22s %8s %8s\n" "start-up (goal <= 2)" "version" "grid 2^3"
    printf "%-22s %8s %8s\n" "tbrf / bare, CPU" "$(sed -n 's/^RATIO startup_version_cpu //p' "$su_out/log")" \
        "$(sed -n 's/^RATIO startup_grid2_cpu //p' "$su_out/log")"
    rm -rf "$su_out"
else
    echo "# start-up: bench_startup not built (TBRF_BUILD_BENCH=ON with the command and libtbrf_writer)"
fi
