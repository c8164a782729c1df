#!/bin/sh
# bench/run_suite.sh — the speed suite of doc/benchmarks.md in one command: turning
# bands vs the FFT method on grids, points, lines, the projection against
# straightforward loops, the FFT method end to end against FFTW + an HDF5
# write by hand, the core's limits for the projection (bench_limits), and
# peers from PyPI (gstools, FINUFFT) in a throw-away virtual environment.
# Prints tables and, last, the summary of the projection's ratios for every SIMD
# path this CPU runs (TBRF_CPU_ISA forces the
# lower ones: on an AVX-512 machine the AVX2 row is the AVX2 path on that
# machine, not an AVX2-only CPU). Asserts nothing.
#
# Peers: the last table, "Peers", puts tbrf against each peer, one
# row per line
#     PEER <name> <ratio> <goal> <isa> <note...>
# that the blocks between "Peers: blocks" and "Peers: table" append to
# the file $peers with `peer NAME RATIO GOAL ISA NOTE...`:
#   name   one word (no spaces), e.g. fft_method_float_vs_bare_fftw;
#   ratio  tbrf's time / the peer's time, the two timed alternated in one
#          run (median of the pairs' own ratios): below 1 tbrf is faster;
#   goal   the bound the ratio should meet, "<=X" (the table says whether
#          it does), or "-" for none;
#   isa    the CPU kernels tbrf ran with: avx512-gather, avx512, avx2,
#          portable (TBRF_CPU_ISA forces a lower one), "-" for none;
#   note   how it was measured: size, threads, clock, [min-max] and pairs.
# Each block measures its peer on its own (it may use $build, $here,
# $out, $isas (best first), $best (the one tbrf picks), $preps (pairs, at
# least 5) and $cpu), appends its lines, or prints why it has none (peer
# not installed), and never stops the suite: a new peer is one more block.
# Usage: bench/run_suite.sh [BUILD_DIR=build] [quick|full] [REPEATS=3]
# Environment: TBRF_PEERS_VENV (default /tmp/tbrf-peers-venv); set
# TBRF_NO_PEERS=1 to skip the Python peers (GSTools, FINUFFT);
# TBRF_TURBGEN_DIR: the folder of TurbGen.h (github.com/chfeder/
# turbulence_generator, not part of tbrf) for the TurbGen rows;
# TBRF_SUITE_SUMMARY_ONLY=1 to run only the summaries' programs.
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
cmake --build "$build" --target bench_suite bench_projection bench_fft_write bench_limits tbrf_cli \
    bench_fft_bare bench_tb_linear tbrf >/dev/null
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
echo "## summary: $cpu, $threads threads, best of $reps, $(date -u '+%Y-%m-%d')"
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

# ---------------------------------------------------------------- Peers: blocks
peers=$out/peers
: >"$peers"
# peer NAME RATIO GOAL ISA NOTE...: one row (an empty RATIO is written "n/a")
peer() {
    name=$1 r=${2:-n/a}
    shift 2
    echo "PEER $name $r $*" >>"$peers"
}
best=${isas%% *}
preps=$((reps > 5 ? reps : 5))

# The FFT method against a bare FFTW c2r + fill, no write:
# one thread, CPU time, each ISA (the modes' Philox and passes are SIMD).
for isa in $isas; do
    if OMP_NUM_THREADS=1 TBRF_BENCH_CLOCK=cpu TBRF_CPU_ISA=$isa "$build/bench/bench_fft_bare" 256 "$preps" \
        >"$out/fftbare-$isa" 2>/dev/null; then
        for p in float double; do
            set -- $(ratio "fftbare-$isa" "fft_over_bare_$p")
            peer "fft_method_${p}_vs_bare_fftw" "$1" "<=1.15" "$isa" \
                "256^3, 1 thread, CPU time, median $2 of $preps pairs"
        done
    else
        echo "# bench_fft_bare failed: no FFT rows"
    fi
done

# Turning bands linear past the cache: the cost per
# cell.line at 512^3 (a slab of its grid) and at 8192 lines against the
# 128^3 grid with 1024 lines; one thread, CPU time, each ISA.
for isa in $isas; do
    if OMP_NUM_THREADS=1 TBRF_BENCH_CLOCK=cpu TBRF_CPU_ISA=$isa "$build/bench/bench_tb_linear" "$preps" \
        128 512 1024 8192 >"$out/linear-$isa" 2>/dev/null; then
        set -- $(ratio "linear-$isa" tb_big_grid_over_small)
        peer tb_512cube_vs_128cube_per_cell_line "$1" "<=1.1" "$isa" \
            "1024 lines, 1 thread, CPU time, median $2 of $preps pairs"
        set -- $(ratio "linear-$isa" tb_many_lines_over_small)
        peer tb_8192_vs_1024_lines_per_cell_line "$1" "<=1.1" "$isa" \
            "128^3, 1 thread, CPU time, median $2 of $preps pairs"
    else
        echo "# bench_tb_linear failed: no linearity rows"
    fi
done

# GSTools and FINUFFT from PyPI (a throw-away virtual environment) against
# tbrf's Python package on the same points, one thread, CPU time.
if [ -z "$TBRF_NO_PEERS" ] && [ -z "$TBRF_SUITE_SUMMARY_ONLY" ]; then
    venv=${TBRF_PEERS_VENV:-/tmp/tbrf-peers-venv}
    if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import gstools, finufft, numpy' 2>/dev/null; then
        python3 -m venv "$venv" && "$venv/bin/pip" install -q gstools finufft numpy ||
            echo "# peers could not be installed: skipped"
    fi
    echo
    if [ "$mode" = full ]; then sizes="10000 100000 1000000 10000000"; else sizes="10000 100000 1000000"; fi
    if PYTHONPATH="$here/../python${PYTHONPATH:+:$PYTHONPATH}" TBRF_LIBRARY="$build/c/libtbrf.so" \
        "$venv/bin/python" "$here/peers.py" 1 "$preps" "$best" $sizes >"$out/peers-py"; then
        grep -v '^PEER' "$out/peers-py" || true
        grep '^PEER' "$out/peers-py" >>"$peers" || true
    else
        echo "# peers failed"
    fi
fi

# TurbGen's driving update against tbrf's (bench/turbgen_wide.cpp), where
# TBRF_TURBGEN_DIR holds TurbGen.h: built here, run in a scratch folder.
tg=${TBRF_TURBGEN_DIR:-}
if [ -n "$tg" ] && [ -f "$tg/TurbGen.h" ] && command -v g++ >/dev/null; then
    mkdir -p "$out/turbgen"
    babs=$(cd "$build" && pwd) # the rpath must hold from the scratch folder
    if g++ -O3 -I"$tg" -I"$here/../include" -I"$babs/include" "$here/turbgen_wide.cpp" -L"$babs/c" \
        -ltbrf -Wl,-rpath,"$babs/c" -o "$out/turbgen/turbgen_wide" 2>"$out/turbgen/err" &&
        (cd "$out/turbgen" && ./turbgen_wide 200 "$preps") >"$out/turbgen.txt" 2>/dev/null; then
        echo
        cat "$out/turbgen.txt"
        # name (34 columns), TurbGen's modes, tbrf's, TurbGen us, "us", tbrf us, "us", TurbGen / tbrf
        awk -v isa="$best" -v n="$preps" '/ us / {
            name = substr($0, 1, 34); sub(/ +$/, "", name); gsub(/[^A-Za-z0-9.]+/, "_", name)
            printf "PEER turbgen_update_%s %.3g - %s TurbGen %s modes, tbrf %s; 1 thread, CPU time, median of %s rounds\n",
                name, 1 / $NF, isa, $(NF - 6), $(NF - 5), n }' "$out/turbgen.txt" >>"$peers"
    else
        echo "# TurbGen: turbgen_wide did not build or run: no TurbGen rows"
    fi
else
    echo "# TurbGen: set TBRF_TURBGEN_DIR to the folder of TurbGen.h for its rows"
fi

# Peers row "NUFFT vs FINUFFT": tbrf's periodic field at
# 10^6 random points (bench/nufft_peer.py driving bench_nufft_peer) against
# FINUFFT type 2 from PyPI, same points, modes and accuracy, one thread,
# alternated pairs (at least 5), CPU seconds; the table's ratio is FINUFFT /
# tbrf (> 1 when tbrf is faster), its PEER lines tbrf / FINUFFT. quick:
# 64^3 modes; full: 64^3 and 128^3.
if [ -z "$TBRF_NO_PEERS" ] && [ -z "$TBRF_SUITE_SUMMARY_ONLY" ]; then
    nuvenv=${TBRF_PEERS_VENV:-/tmp/tbrf-peers-venv}
    if [ ! -x "$nuvenv/bin/python" ] || ! "$nuvenv/bin/python" -c 'import finufft, numpy' 2>/dev/null; then
        python3 -m venv "$nuvenv" && "$nuvenv/bin/pip" install -q finufft numpy ||
            echo "# FINUFFT could not be installed: NUFFT row skipped"
    fi
    if "$nuvenv/bin/python" -c 'import finufft, numpy' 2>/dev/null &&
        cmake --build "$build" --target bench_nufft_peer >/dev/null; then
        nupairs=$((reps > 5 ? reps : 5))
        nucases=""
        for nun in 64 128; do
            [ "$mode" = full ] || [ "$nun" = 64 ] || continue
            for nue in 1e-6:float 1e-6:double 1e-9:double 1e-12:double; do
                for nuc in 1 3; do
                    nucases="$nucases${nucases:+,}$nun:${nue%%:*}:${nue#*:}:$nuc"
                done
            done
        done
        echo
        echo "## Peers: NUFFT vs FINUFFT ($cpu; tbrf's CPU kernels: ${isas%% *})"
        nuout=$(mktemp)
        if OMP_NUM_THREADS=1 "$nuvenv/bin/python" "$here/nufft_peer.py" "$build/bench/bench_nufft_peer" \
            "$nupairs" 1000000 "$nucases" "${isas%% *}" >"$nuout"; then
            grep -v '^PEER' "$nuout" || true
            # the Peers table's rows (tbrf / FINUFFT), where the suite keeps one
            if [ -n "${peers:-}" ]; then grep '^PEER' "$nuout" >>"$peers" || true; else grep '^PEER' "$nuout"; fi
        else
            echo "# NUFFT vs FINUFFT failed"
        fi
        rm -f "$nuout"
    fi
fi

# ---- start-up: `tbrf --version` and a 2^3 generate
# against a bare C program linked with libtbrf (+ libtbrf_writer for the
# grid), 20 alternated pairs, CPU time of each child (goal <= 2).
if cmake --build "$build" --target tbrf_cli bench_startup startup_bare_version startup_bare_grid \
    >/dev/null 2>&1; then
    echo
    echo "## start-up: tbrf against a bare program linked with libtbrf ($cpu)"
    su_out=$(mktemp -d)
    OMP_NUM_THREADS=1 "$build/bench/bench_startup" "$build/cli/tbrf" "$build/bench/startup_bare_version" \
        "$build/bench/startup_bare_grid" 20 "$su_out" | tee "$su_out/log" | grep -v '^RATIO'
    suv=$(sed -n 's/^RATIO startup_version_cpu //p' "$su_out/log")
    sug=$(sed -n 's/^RATIO startup_grid2_cpu //p' "$su_out/log")
    printf "%-22s %8s %8s\n" "start-up (goal <= 2)" "version" "grid 2^3"
    printf "%-22s %8s %8s\n" "tbrf / bare, CPU" "$suv" "$sug"
    peer startup_version "$suv" "<=2" "$best" "tbrf --version / a bare libtbrf program, CPU time, 20 pairs"
    peer startup_grid2 "$sug" "<=2" "$best" "tbrf generate 2^3 / a bare libtbrf + writer program, CPU time, 20 pairs"
    rm -rf "$su_out"
else
    echo "# start-up: bench_startup not built (TBRF_BUILD_BENCH=ON with the command and libtbrf_writer)"
fi

# ---------------------------------------------------------------- Peers: table
echo
echo "## Peers: tbrf's time / the peer's (below 1: tbrf faster), alternated in one run"
echo "# $cpu, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u '+%Y-%m-%d %H:%M UTC')"
printf "%-48s %8s %7s %-6s %-13s %s\n" "row" "ratio" "goal" "" "ISA" "measured"
awk '{ note = ""; for (i = 6; i <= NF; i++) note = note (i > 6 ? " " : "") $i
       ok = ""
       if ($4 ~ /^<=/ && $3 ~ /^[0-9.]+$/) ok = $3 + 0 <= substr($4, 3) + 0 ? "met" : "MISSED"
       printf "%-48s %8s %7s %-6s %-13s %s\n", $2, $3, $4, ok, $5, note }' "$peers"
