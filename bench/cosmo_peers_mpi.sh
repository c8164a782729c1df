#!/usr/bin/env bash
# bench/cosmo_peers_mpi.sh — monofonIC's IC of G^3 particles on 1, 2, 4, ...
# MPI ranks: each rank's peak memory (maximum resident set) and CPU time
# (user + system), from /usr/bin/time -v run inside every rank, with
# monofonIC's own phi(1) and phi(2) stage wall seconds; when TBRF_MPI is
# set, tbrf's MPI `arepo cosmo` of the same IC on the same ranks, each
# right before monofonIC's run of that rank count, timed the same way; and,
# when TBRF is set, tbrf's serial `arepo cosmo` of the same IC in the same
# run, as the reference beside them. The cosmology, P(k) and monofonIC
# configuration are bench/cosmo_peers_time.sh's (bench/cosmo_peers_common.sh).
#
#   MONOFONIC=/path/to/mpi/monofonIC TBRF=build/cli/tbrf TBRF_MPI=build/mpi/tbrf \
#       bench/cosmo_peers_mpi.sh WORKDIR
#
# Environment: MONOFONIC: a monofonIC built with MPI (required); TBRF
# [none: no serial tbrf run]; TBRF_MPI [none: no tbrf run on ranks];
# G [128], ORDER [2], RANKS ["1 2 4"], ROUNDS [1]
# (the rank counts are run in turn ROUNDS times, alternated), THREADS [1]
# threads a rank (NumThreads, OMP_NUM_THREADS), BOX [100] Mpc/h, Z [49],
# MPIRUN ["mpirun --oversubscribe"]: the launcher, given -n N.
# Prints one line per rank: "code run ranks rank wall_s cpu_s maxrss_MiB
# phi1_s phi2_s load1_after" (code: tbrf or mono; phi: monofonIC rank 0's
# log, "-" elsewhere); the serial tbrf's line has ranks "serial".
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=${1:?usage: MONOFONIC=... cosmo_peers_mpi.sh WORKDIR}
mono=${MONOFONIC:?set MONOFONIC to a monofonIC binary built with MPI}
tbrf=${TBRF:-}
tbrf_mpi=${TBRF_MPI:-}
G=${G:-128}
ORDER=${ORDER:-2}
RANKS=${RANKS:-1 2 4}
ROUNDS=${ROUNDS:-1}
BOX=${BOX:-100}
Z=${Z:-49}
read -r -a mpirun <<< "${MPIRUN:-mpirun --oversubscribe}"
export OMP_NUM_THREADS=${THREADS:-1}
. "$here/cosmo_peers_common.sh"
# the serial tbrf, if any, makes pk.txt and checks the files; else the MPI one
[ -z "$tbrf" ] && tbrf=$tbrf_mpi
tbrf_mpi=$(peers_abs "$tbrf_mpi")
peers_enter "$work"
# the P(k) table needs a tbrf; without one, a pk.txt already in WORKDIR
if [ -n "$tbrf" ]; then
    peers_pk
elif [ ! -s pk.txt ]; then
    echo "cosmo_peers_mpi.sh: set TBRF, or put the P(k) table pk.txt into $work" >&2
    exit 1
fi
peers_transfer_camb
peers_mono_conf "$G" "$BOX" "$Z" "$ORDER" 1001 mono.hdf5 > mono.conf

echo "# G = $G, LPT order $ORDER, $OMP_NUM_THREADS thread(s) a rank, ranks: $RANKS, $ROUNDS round(s); load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
lptopt=()
[ -n "$tbrf" ] && peers_tbrf_has_lpt && lptopt=(--lpt "$ORDER")
tbrf_ic=(arepo cosmo --out tbrf_ics --box "$BOX" --length-unit mpc --particles "$G"
    --redshift "$Z" --omega-m $OM --omega-b $OB --hubble $H --sigma8 $S8 --table pk.txt
    --precision double --seed 1 --quiet "${lptopt[@]}")

# on_ranks CODE BASE N STAGES CMD...: CMD under the launcher on N ranks,
# each rank timing itself into BASE.time.RANK (Open MPI's
# OMPI_COMM_WORLD_RANK, MPICH's PMI_RANK); then one line a rank, rank 0's
# with the stage times STAGES names: "mono" monofonIC's, read from BASE.out
# after the run; "-" none. The round is the caller's $r.
on_ranks() {
    local code=$1 base=$2 n=$3 stages=$4 load k st
    shift 4
    rm -f "$base".time.*
    "${mpirun[@]}" -n "$n" sh -c \
        'exec /usr/bin/time -v -o "$0.time.${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-0}}" "$@"' \
        "$base" "$@" > "$base.out" 2>&1 || { tail -20 "$base.out" >&2; return 1; }
    load=$(cut -d' ' -f1 /proc/loadavg)
    [ "$stages" = mono ] && stages=$(peers_mono_stages "$base.out")
    [ "$stages" = - ] && stages="- -"
    for k in $(seq 0 $((n - 1))); do
        [ -s "$base.time.$k" ] || { echo "$base: rank $k wrote no time report" >&2; return 1; }
        st="- -"
        [ "$k" = 0 ] && st=$stages
        echo "$code $r $n $k $(peers_time_line x "$base.time.$k" | cut -d' ' -f2-) $st $load"
    done
}

echo "# code run ranks rank wall_s cpu_s maxrss_MiB phi1_s phi2_s load1_after"
for r in $(seq "$ROUNDS"); do
    if [ -n "${TBRF:-}" ]; then
        rm -f tbrf_ics.hdf5 tbrf_ics.*.hdf5
        /usr/bin/time -v -o tbrf_$r.time "$tbrf" "${tbrf_ic[@]}" > tbrf_$r.out 2>&1 ||
            { tail tbrf_$r.out >&2; exit 1; }
        peers_tbrf_check tbrf_ics.hdf5 "$ORDER"
        echo "tbrf $r serial 0 $(peers_time_line tbrf tbrf_$r.time | cut -d' ' -f2-) - - $(cut -d' ' -f1 /proc/loadavg)"
    fi
    for n in $RANKS; do
        if [ -n "$tbrf_mpi" ]; then
            # on P ranks a set of P files (doc/mpi.md), member 0 first; on
            # one rank the one file: no earlier run's file may be checked
            rm -f tbrf_ics.hdf5 tbrf_ics.*.hdf5
            on_ranks tbrf tbrf_r${r}_n$n "$n" - "$tbrf_mpi" "${tbrf_ic[@]}" || exit 1
            first=tbrf_ics.0.hdf5
            [ -e "$first" ] || first=tbrf_ics.hdf5
            peers_tbrf_check "$first" "$ORDER"
        fi
        on_ranks mono mono_r${r}_n$n "$n" mono "$mono" mono.conf || exit 1
    done
done | tee runs_mpi.txt
echo "# load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
