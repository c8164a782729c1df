#!/usr/bin/env bash
# bench/cosmo_peers.sh — tbrf's cosmological ICs against monofonIC's (and,
# when given, 2LPTic's) for one cosmology, box and P(k), then
# bench/cosmo_peers.py on the files (doc/arepo.md, "Against monofonIC /
# N-GenIC"). The peers are not part of tbrf or of CI: build them yourself
# and name them here.
#
#   MONOFONIC=/path/to/monofonIC TBRF=build/cli/tbrf bench/cosmo_peers.sh WORKDIR
#
# Environment (defaults in brackets):
#   TBRF       tbrf command [tbrf]            MONOFONIC  monofonIC binary (required)
#   PYTHON     python with numpy/h5py/scipy [/usr/bin/python3]
#   TWOLPTIC, TWOLPTIC_ZA: 2LPTic built as it comes (USE_64BITID, USE_CAMB)
#              and with -DONLY_ZA [none: 2LPTic not run]; its Seed is
#              monofonIC's (whose NGENIC generator claims 2LPTic's phases)
#   G [64] particles per axis, BOX [100] Mpc/h, Z [49], SEEDS ["1 2 3 4"],
#   ORDERS ["1 2"] (LPT orders; order 2 of tbrf needs `arepo cosmo --lpt`),
#   THREADS [2]: OMP_NUM_THREADS of every program.
# Cosmology (bench/cosmo_peers_common.sh): 2LPTic's example, flat, no
# radiation, no massive neutrinos. Both codes get the same P(k): `tbrf arepo pk`'s
# Eisenstein & Hu table at z = 0, given to tbrf as --table and to monofonIC
# as a CAMB transfer file (T = sqrt(P / k^n_s) in every column); each
# normalises it to sigma8 itself. Both cut modes at the particle Nyquist
# sphere (monofonIC: DoRemoveCornerModes), no fixing, no pairing.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=${1:?usage: MONOFONIC=... cosmo_peers.sh WORKDIR}
tbrf=${TBRF:-tbrf}
mono=${MONOFONIC:?set MONOFONIC to the monofonIC binary}
py=${PYTHON:-/usr/bin/python3}
G=${G:-64}
BOX=${BOX:-100}
Z=${Z:-49}
SEEDS=${SEEDS:-1 2 3 4}
ORDERS=${ORDERS:-1 2}
export OMP_NUM_THREADS=${THREADS:-2}
. "$here/cosmo_peers_common.sh"
py=$(peers_abs "$py")
TWOLPTIC=$(peers_abs "${TWOLPTIC:-}")
TWOLPTIC_ZA=$(peers_abs "${TWOLPTIC_ZA:-}")
peers_enter "$work"

peers_pk
# CAMB's 13-column transfer layout (monofonIC's CAMB_file plugin): k, then
# T in every column, so that whichever species it takes the spectrum is P
"$py" - "$NS" <<'EOF'
import sys, numpy as np
ns = float(sys.argv[1])
k, p = np.loadtxt("pk.txt").T
T = np.sqrt(p / k**ns)
np.savetxt("transfer_camb.txt", np.column_stack([k] + [T] * 12), fmt="%.12e",
           header="k/h CDM baryon photon nu mass_nu total no_nu total_de Weyl v_CDM v_b v_b-v_c")
# 2LPTic (USE_CAMB): k, then 6 transfer columns; its power.c takes
# Delta^2 = col^2 k^4 and P = Delta^2 / k^3 times k^(PrimordialIndex - 1),
# so P = col^2 k^n_s: the same T
np.savetxt("transfer_2lptic.txt", np.column_stack([k] + [T] * 6), fmt="%.12e")
EOF

lpt_supported=0
peers_tbrf_has_lpt && lpt_supported=1
list=()
for seed in $SEEDS; do
    for order in $ORDERS; do
        peers_mono_conf "$G" "$BOX" "$Z" "$order" $((1000 + seed)) \
            mono_s${seed}_lpt${order}.hdf5 > mono_s${seed}_lpt${order}.conf
        "$mono" mono_s${seed}_lpt${order}.conf > mono_s${seed}_lpt${order}.log 2>&1 ||
            { tail -20 mono_s${seed}_lpt${order}.log; exit 1; }
        list+=("monofonic:$seed:$order:mono_s${seed}_lpt${order}.hdf5")
        tl=${TWOLPTIC:-}
        [ "$order" = 1 ] && tl=${TWOLPTIC_ZA:-}
        if [ -n "$tl" ]; then
            mkdir -p 2lptic_s${seed}_lpt${order}
            cat > 2lptic_s${seed}_lpt${order}.param <<EOF
Nmesh $G
Nsample $G
Box $BOX
FileBase ics
OutputDir ./2lptic_s${seed}_lpt${order}
GlassFile $(dirname "$TWOLPTIC")/glass1_le
GlassTileFac $G
GlassTileFacSampleNumerator 1
GlassTileFacSampleDenom 1
Omega $OM
OmegaLambda $(echo "1 - $OM" | bc -l)
OmegaBaryon $OB
OmegaDM_2ndSpecies 0
HubbleParam $H
Redshift $Z
Sigma8 $S8
SphereMode 1
WhichSpectrum 2
FileWithInputSpectrum transfer_2lptic.txt
InputSpectrum_UnitLength_in_cm 3.085678e24
ShapeGamma 0.21
PrimordialIndex $NS
Seed $((1000 + seed))
NumFilesWrittenInParallel 1
UnitLength_in_cm 3.085678e24
UnitMass_in_g 1.989e43
UnitVelocity_in_cm_per_s 1e5
WDM_On 0
WDM_Vtherm_On 0
WDM_PartMass_in_kev 10.0
EOF
            "$tl" 2lptic_s${seed}_lpt${order}.param > 2lptic_s${seed}_lpt${order}.log 2>&1 ||
                { tail -20 2lptic_s${seed}_lpt${order}.log; exit 1; }
            list+=("2lptic:$seed:$order:$(ls 2lptic_s${seed}_lpt${order}/ics* | head -1)")
        fi
        if [ "$order" = 1 ] || [ $lpt_supported = 1 ]; then
            lptopt=()
            [ $lpt_supported = 1 ] && lptopt=(--lpt "$order")
            "$tbrf" arepo cosmo --out tbrf_s${seed}_lpt${order} --box "$BOX" --length-unit mpc \
                --particles "$G" --redshift "$Z" --omega-m $OM --omega-b $OB --hubble $H \
                --sigma8 $S8 --table pk.txt --precision double --seed "$seed" --quiet "${lptopt[@]}"
            # labelled by the order the file says tbrf ran, never by the request alone
            peers_tbrf_check tbrf_s${seed}_lpt${order}.hdf5 "$order"
            list+=("tbrf:$seed:$order:tbrf_s${seed}_lpt${order}.hdf5")
        fi
    done
done
"$py" "$here/cosmo_peers.py" --json peers.json --fig peers_ pk.txt $OM "${list[@]}" | tee peers.txt
