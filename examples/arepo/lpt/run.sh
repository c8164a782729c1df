#!/usr/bin/env bash
# examples/arepo/lpt/run.sh — the same phases from Zel'dovich (--lpt 1) and
# 2LPT (--lpt 2) initial conditions, each run to z = 0 by AREPO, then the
# friends-of-friends halo mass functions and P(k) side by side (halos.py).
#
#   AREPO=/path/to/Arepo_cosmo examples/arepo/lpt/run.sh WORKDIR
#
# AREPO built with ../cosmo/Config.sh (see ../README.md for the make line).
# Environment: TBRF [tbrf], PARTICLES [32], SEED [1], RANKS [1] (MPI tasks
# per run), MPIRUN [mpirun], MPIRUN_FLAGS [none; e.g. --allow-run-as-root for
# Open MPI as root], PYTHON [/usr/bin/python3], ORDERS ["1 2"].
# The box, cosmology and z = 49 start are param.txt's; a PARTICLES other
# than 32 needs AREPO built with PMGRID = 2 PARTICLES in Config.sh, and
# the softenings (1/39 of the mean spacing) are scaled here to match.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=${1:?usage: AREPO=... run.sh WORKDIR}
tbrf=${TBRF:-tbrf}
arepo=${AREPO:?set AREPO to the AREPO binary built with ../cosmo/Config.sh}
py=${PYTHON:-/usr/bin/python3}
parts=${PARTICLES:-32}
seed=${SEED:-1}
ranks=${RANKS:-1}
mpirun=${MPIRUN:-mpirun}
mkdir -p "$work"
labels=()
for order in ${ORDERS:-1 2}; do
    d="$work/lpt$order"
    mkdir -p "$d"
    cp "$here/output_list.txt" "$d/"
    awk -v f="$(awk -v n="$parts" 'BEGIN { print 32 / n }')" \
        '/^SofteningComovingType|^SofteningMaxPhysType/ { $2 = $2 * f } { print }' \
        "$here/param.txt" > "$d/param.txt"
    (cd "$d" &&
        "$tbrf" arepo cosmo --out ics --box 50000 --particles "$parts" --redshift 49 \
            --omega-m 0.3089 --omega-lambda 0.6911 --omega-b 0.0486 --hubble 0.6774 \
            --sigma8 0.831 --seed "$seed" --lpt "$order" &&
        "$mpirun" ${MPIRUN_FLAGS:-} -np "$ranks" "$arepo" param.txt > arepo.log 2>&1)
    labels+=("$(case $order in 1) echo ZA ;; *) echo "${order}LPT" ;; esac)=$d/output/snap_002.hdf5")
done
"$py" "$here/halos.py" --fig "$work/halos.png" "${labels[@]}" | tee "$work/halos.txt"
