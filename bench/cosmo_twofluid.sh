#!/usr/bin/env bash
# bench/cosmo_twofluid.sh — tbrf's two-fluid ICs (`arepo cosmo --gas
# --transfer`) against monofonIC's (DoBaryons = yes, DoBaryonVrel,
# its CAMB_file plugin) from one real CAMB transfer file, then
# bench/cosmo_twofluid.py on the files (doc/arepo.md, "Two fluids against
# monofonIC"). monofonIC is not part of tbrf or of CI: build it yourself.
#
#   MONOFONIC=/path/to/monofonIC TBRF=build/cli/tbrf bench/cosmo_twofluid.sh WORKDIR
#
# Environment (defaults in brackets): TBRF [tbrf], MONOFONIC (required),
# PYTHON [/usr/bin/python3], G [64], BOX [100] Mpc/h, SEEDS ["1 2 3"],
# THREADS [2], VREL [yes] (monofonIC's DoBaryonVrel: its baryon-CDM
# relative velocity from theta_bc; no: both species move with the matter's
# growing mode), TRANSFER [tests/data/transfer/camb_transfer_99.dat: CAMB at
# z = 99, 13 columns]. The run starts at the file's z = 99 (monofonIC:
# ztarget = zstart, so that it scales nothing back), Zel'dovich (the
# species' first orders are what differ), flat, no radiation.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=${1:?usage: MONOFONIC=... cosmo_twofluid.sh WORKDIR}
tbrf=${TBRF:-tbrf}
mono=${MONOFONIC:?set MONOFONIC to the monofonIC binary}
py=${PYTHON:-/usr/bin/python3}
G=${G:-64}
BOX=${BOX:-100}
SEEDS=${SEEDS:-1 2 3}
TRANSFER=${TRANSFER:-$here/../tests/data/transfer/camb_transfer_99.dat}
export OMP_NUM_THREADS=${THREADS:-2}
. "$here/cosmo_peers_common.sh"
# the file's own baryon fraction (its total is (1 - f_b) CDM + f_b baryon)
OM=0.2814 H=0.697 S8=0.810 NS=0.971 Z=99
OB=$("$py" -c "
import numpy as np
r = np.loadtxt('$TRANSFER'); s = r[:, 0] > 1e-2
print('%.6f' % ($OM * np.median((r[s, 1] - r[s, 6]) / (r[s, 1] - r[s, 2]))))")
py=$(peers_abs "$py")
TRANSFER=$(peers_abs "$TRANSFER")
peers_enter "$work"
cp "$TRANSFER" transfer.dat
for seed in $SEEDS; do
    "$tbrf" arepo cosmo --out "tbrf_$seed" --box $((BOX * 1000)) --particles "$G" \
        --redshift $Z --omega-m $OM --omega-b "$OB" --hubble $H --sigma8 $S8 --ns $NS \
        --seed "$seed" --lpt 1 --gas --transfer transfer.dat --quiet
    peers_mono_conf "$G" "$BOX" "$Z" 1 "$seed" "mono_$seed.hdf5" transfer.dat yes "${VREL:-yes}" \
        > "mono_$seed.conf"
    "$mono" "mono_$seed.conf" > "mono_$seed.log" 2>&1 || { tail -20 "mono_$seed.log"; exit 1; }
done
"$py" "$here/cosmo_twofluid.py" --transfer transfer.dat --box "$BOX" --grid "$G" --z $Z \
    --omega-m $OM --omega-b "$OB" --hubble $H --seeds $SEEDS
