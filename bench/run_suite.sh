#!/bin/sh
# bench/run_suite.sh — the speed suite of doc/benchmarks.md in one command: turning
# bands vs the FFT method on grids, points, lines, the projection against a
# straightforward loop, and peers from PyPI (gstools, FINUFFT) in a
# throw-away virtual environment. Prints tables; asserts nothing.
# Usage: bench/run_suite.sh [BUILD_DIR=build] [quick|full] [REPEATS=3]
# Environment: TBRF_PEERS_VENV (default /tmp/tbrf-peers-venv); set
# TBRF_NO_PEERS=1 to skip the peers.
set -e
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build}
mode=${2:-quick}
reps=${3:-3}
threads=${OMP_NUM_THREADS:-$(nproc)}
echo "# machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores," \
     "load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "# CPU kernels: $(grep -m1 -o -w 'avx512f' /proc/cpuinfo || grep -m1 -o -w 'avx2' /proc/cpuinfo || echo portable)"
cmake --build "$build" --target bench_suite bench_projection >/dev/null
"$build/bench/bench_suite" "$mode" "$reps"
echo
"$build/bench/bench_projection" 128 1024 "$reps"
if [ -z "$TBRF_NO_PEERS" ]; then
    venv=${TBRF_PEERS_VENV:-/tmp/tbrf-peers-venv}
    if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import gstools, finufft, numpy' 2>/dev/null; then
        python3 -m venv "$venv" && "$venv/bin/pip" install -q gstools finufft numpy ||
            echo "# peers could not be installed: skipped"
    fi
    echo
    if [ "$mode" = full ]; then sizes="10000 100000 1000000 10000000"; else sizes="10000 100000 1000000"; fi
    "$venv/bin/python" "$here/peers.py" "$threads" "$reps" $sizes || echo "# peers failed"
fi
