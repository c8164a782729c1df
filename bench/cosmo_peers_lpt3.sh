#!/usr/bin/env bash
# bench/cosmo_peers_lpt3.sh — tbrf's third-order LPT (--lpt 3) against
# monofonIC's (LPTorder 3) for the cosmology, box and P(k) of
# bench/cosmo_peers.sh, then bench/cosmo_peers_lpt3.py on the files
# (doc/arepo.md, "Third order against monofonIC").
#
#   MONOFONIC=/path/to/monofonIC TBRF=build/cli/tbrf bench/cosmo_peers_lpt3.sh WORKDIR
#
# Environment (defaults in brackets): TBRF [tbrf], MONOFONIC (required),
# PYTHON [/usr/bin/python3], G [64], BOX [100] Mpc/h, Z [49],
# SEEDS ["1 2 3 4 5 6 7 8"], THREADS [2]. Each code writes orders 1, 2
# and 3 of every seed: Psi1 is the first file's x - q, Psi2 and Psi3 the
# differences of consecutive orders.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=${1:?usage: MONOFONIC=... cosmo_peers_lpt3.sh WORKDIR}
tbrf=${TBRF:-tbrf}
mono=${MONOFONIC:?set MONOFONIC to the monofonIC binary}
py=${PYTHON:-/usr/bin/python3}
G=${G:-64}
BOX=${BOX:-100}
Z=${Z:-49}
SEEDS=${SEEDS:-1 2 3 4 5 6 7 8}
export OMP_NUM_THREADS=${THREADS:-2}
. "$here/cosmo_peers_common.sh"
py=$(peers_abs "$py")
peers_enter "$work"
peers_pk
peers_transfer_camb
list=()
for seed in $SEEDS; do
    for order in 1 2 3; do
        m=mono_s${seed}_lpt${order}
        peers_mono_conf "$G" "$BOX" "$Z" "$order" $((1000 + seed)) $m.hdf5 > $m.conf
        "$mono" $m.conf > $m.log 2>&1 || { tail -20 $m.log; exit 1; }
        list+=("monofonic:$seed:$order:$m.hdf5")
        t=tbrf_s${seed}_lpt${order}
        "$tbrf" arepo cosmo --out $t --box "$BOX" --length-unit mpc --particles "$G" \
            --redshift "$Z" --omega-m $OM --omega-b $OB --hubble $H --sigma8 $S8 \
            --table pk.txt --precision double --seed "$seed" --quiet --lpt "$order"
        peers_tbrf_check $t.hdf5 "$order"
        list+=("tbrf:$seed:$order:$t.hdf5")
    done
done
"$py" "$here/cosmo_peers_lpt3.py" --json lpt3.json --fig lpt3.png "${list[@]}" | tee lpt3.txt
