#!/usr/bin/env bash
# bench/cosmo_peers_time.sh — wall time, CPU time and peak memory (maximum
# resident set, /usr/bin/time -v) of one IC of G^3 particles by tbrf and by
# monofonIC, alternated PAIRS times in one run (doc/benchmarks-log.md, "Cosmological ICs against
# monofonIC"). Both write one AREPO HDF5 file in double precision, from the
# same P(k) table, with THREADS OpenMP threads (monofonIC: one MPI task,
# NumThreads THREADS).
#
#   MONOFONIC=/path/to/monofonIC TBRF=build/cli/tbrf bench/cosmo_peers_time.sh WORKDIR
#
# Environment: G [256], ORDER [2] (1 if tbrf has no --lpt), PAIRS [5],
# THREADS [2], BOX [100] Mpc/h, Z [49]. Prints one line per run and the
# medians, [min-max], and the ratios tbrf / monofonIC; then monofonIC's own
# wall seconds of its phi(1) and phi(2) stages per pair (mono_stages.txt;
# its logs are kept as monofonic_PAIR.out).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=${1:?usage: MONOFONIC=... cosmo_peers_time.sh WORKDIR}
tbrf=${TBRF:-tbrf}
mono=${MONOFONIC:?set MONOFONIC to the monofonIC binary}
G=${G:-256}
ORDER=${ORDER:-2}
PAIRS=${PAIRS:-5}
BOX=${BOX:-100}
Z=${Z:-49}
export OMP_NUM_THREADS=${THREADS:-2}
. "$here/cosmo_peers_common.sh"
peers_enter "$work"
rm -f mono_stages.txt
peers_pk
peers_transfer_camb
peers_mono_conf "$G" "$BOX" "$Z" "$ORDER" 1001 mono.hdf5 > mono.conf
lptopt=()
peers_tbrf_has_lpt && lptopt=(--lpt "$ORDER")
[ ${#lptopt[@]} -gt 0 ] || [ "$ORDER" = 1 ] ||
    { echo "cosmo_peers_time.sh: this tbrf has no --lpt: run with ORDER=1" >&2; exit 1; }
measure() { # NAME CMD...: prints "NAME wall cpu maxrss_MiB load1"
    local name=$1
    shift
    /usr/bin/time -v "$@" > "$name.out" 2> "$name.time" || { tail "$name.out" "$name.time"; exit 1; }
    echo "$(peers_time_line "$name" "$name.time") $(cut -d' ' -f1 /proc/loadavg)"
}
echo "# G = $G, LPT order $ORDER, $OMP_NUM_THREADS threads, $PAIRS pairs; load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# name wall_s cpu_s maxrss_MiB load1_after"
for i in $(seq "$PAIRS"); do
    measure tbrf "$tbrf" arepo cosmo --out tbrf_ics --box "$BOX" --length-unit mpc --particles "$G" \
        --redshift "$Z" --omega-m $OM --omega-b $OB --hubble $H --sigma8 $S8 --table pk.txt \
        --precision double --seed 1 --quiet "${lptopt[@]}"
    peers_tbrf_check tbrf_ics.hdf5 "$ORDER" || exit 1 # the order it ran, not only the one asked for
    measure monofonic "$mono" mono.conf
    cp monofonic.out monofonic_$i.out
    echo "$i $(peers_mono_stages monofonic.out)" >> mono_stages.txt
done | tee runs.txt
echo "# load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
awk '{ w[$1] = w[$1] " " $2; c[$1] = c[$1] " " $3; m[$1] = m[$1] " " $4 }
function med(s,   a, n, i, j, t) { n = split(s, a, " "); for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
    if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
    lo = a[1]; hi = a[n]; return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
END { for (k in w) { mw[k] = med(w[k]); lw[k] = lo; hw[k] = hi; mc[k] = med(c[k]); lc[k] = lo; hc[k] = hi;
        mm[k] = med(m[k]); lm[k] = lo; hm[k] = hi
        printf "%-10s wall %.2f s [%.2f-%.2f]  cpu %.2f s [%.2f-%.2f]  maxrss %.0f MiB [%.0f-%.0f]\n",
            k, mw[k], lw[k], hw[k], mc[k], lc[k], hc[k], mm[k], lm[k], hm[k] }
    printf "tbrf/monofonIC: wall %.3f, cpu %.3f, maxrss %.3f (medians)\n",
        mw["tbrf"] / mw["monofonic"], mc["tbrf"] / mc["monofonic"], mm["tbrf"] / mm["monofonic"] }' runs.txt
echo "# monofonIC's own stage wall seconds: pair phi(1) phi(2)"
cat mono_stages.txt
