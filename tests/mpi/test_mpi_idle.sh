#!/usr/bin/env bash
# test_mpi_idle.sh TBRF_MPI MPIRUN — a command that runs on rank 0 alone
# under mpirun (here `mc`, a Monte Carlo integral on one thread;
# doc/mpi.md) says so once on stderr, and the waiting rank sleeps instead
# of polling: its CPU time is small next to the working rank's. Each
# rank's CPU is its shell's children's (bash `times`). A polling rank
# burns a core for the whole run, so its CPU is about the working rank's
# or more (measured with `arepo gas`, then run on rank 0 alone: 105 s
# against 96 s); a sleeping one spends only MPI start-up and shutdown and
# about 50 MPI_Tests a second (measured: 0.08 s against 3.9 s; this `mc`
# run: 0.06 s against 1.2 s on a loaded node). The bound, a quarter of
# the working rank's CPU with the run at least 0.5 s of it, is four times
# below the polling case and five above the sleeping one: it tells
# spinning from sleeping, not a speed. Without --oversubscribe when the
# machine has two cores (the waiting rank then has a core of its own to
# spin on, as in production).
set -euo pipefail
tbrf=$1 mpirun=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
fail=0
check() { # DESCRIPTION CONDITION...
    local what=$1
    shift
    if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; sed 's/^/  | /' mpi.out | tail -20; fail=1; fi
}
args=()
[ "$(id -u)" = 0 ] && args+=(--allow-run-as-root)
[ "$(nproc)" -lt 2 ] && args+=(--oversubscribe)
run2() { # ARGS...: 2 ranks; rc.RANK and cpu.RANK (children's user and system seconds)
    rm -f rc.* cpu.*
    "$mpirun" "${args[@]}" -n 2 bash -c '"$0" "$@"; echo $? > rc.$OMPI_COMM_WORLD_RANK; times > cpu.$OMPI_COMM_WORLD_RANK' \
        "$tbrf" "$@" >mpi.out 2>&1 || true
}
cpu() { # RANK: seconds of CPU of the rank's command (user + system)
    sed -n 2p "cpu.$1" | awk '{ t = 0; for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); t += 60 * a[1] + a[2] } printf "%.3f", t }'
}

run2 mc --integrand gaussian --dim 4 --n 60000000 --algorithm sequential
check "both ranks exit 0 ($(cat rc.0 rc.1 2>/dev/null | tr '\n' ' '))" test "$(cat rc.0 rc.1 2>/dev/null | tr '\n' ' ')" = "0 0 "
check "rank 0 printed the estimate, once" test "$(grep -c '^estimate' mpi.out)" = 1
check "the note is said once" test "$(grep -c "runs on rank 0 alone under mpirun; the other rank waits asleep" mpi.out)" = 1
c0=$(cpu 0) c1=$(cpu 1)
echo "CPU: rank 0 (working) ${c0} s, rank 1 (waiting) ${c1} s"
check "the working rank's run is long enough to tell (${c0} s >= 0.5 s)" awk "BEGIN { exit !($c0 >= 0.5) }"
check "the waiting rank sleeps: ${c1} s <= 0.25 x ${c0} s" awk "BEGIN { exit !($c1 <= 0.25 * $c0) }"

# a failure on rank 0 fails every rank, and --help says nothing of ranks
run2 mc --dim 4 --n 1000
check "rank 0's bad command line fails both ranks ($(cat rc.0 rc.1 2>/dev/null | tr '\n' ' '))" \
    bash -c '! grep -qx 0 rc.0 rc.1'
run2 mc --help
check "--help: both ranks exit 0" test "$(cat rc.0 rc.1 2>/dev/null | tr '\n' ' ')" = "0 0 "
check "--help: no note" bash -c '! grep -q "rank 0 alone" mpi.out'
exit $fail
