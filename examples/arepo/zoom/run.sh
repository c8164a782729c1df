#!/usr/bin/env bash
# examples/arepo/zoom/run.sh — a zoom of one halo of the 32^3, 50 Mpc/h box
# of ../lpt, by `tbrf arepo zoom` and by MUSIC with the parent's own phases,
# each run by AREPO to z = 0, then compared with the parent (zoom_halo.py).
#
#   AREPO=/path/to/Arepo_cosmo AREPO_ZOOM=/path/to/Arepo_zoom \
#   MUSIC=/path/to/MUSIC examples/arepo/zoom/run.sh WORKDIR
#
# AREPO: built with ../cosmo/Config.sh (the parent, ../lpt/run.sh);
# AREPO_ZOOM: built with Config.sh here (PLACEHIGHRESREGION); see
# ../README.md, "Zoom", for the make lines. Steps, each skipped when its
# output exists (so a second call resumes):
#   1. the parent: ORDERS=2 ../lpt/run.sh WORKDIR/parent (z = 49 -> 0);
#   2. halo_ids.py: one FOF halo of the parent at z = 0 -> WORKDIR/halo;
#   3. tbrf: `tbrf arepo zoom ... --region ids:WORKDIR/halo/halo_ids.txt
#      --refine REFINE --pad PAD --lpt 2` -> WORKDIR/tbrf/ics.hdf5;
#   4. music: the parent's white noise (music_noise.py from a --lpt 1 twin
#      of the parent) as MUSIC's level 5, MUSIC's 2LPT zoom of the same
#      box of parent cells (levelmin 5, levelmax 5 + log2 REFINE) ->
#      WORKDIR/music/ics.hdf5;
#   5. AREPO_ZOOM on each IC to z = 0 (output_list.txt here: snapshots at
#      a = 0.02, 0.1, 0.2, 1/3, 0.5, 1);
#   6. zoom_halo.py: the ICs' P(k) in the region, the halo at z = 0 against
#      the parent's, contamination, zoom_z0.png.
# Each IC step is timed with /usr/bin/time -v (WORKDIR/*/time.txt).
# Environment: TBRF [tbrf], MUSIC [MUSIC], PYTHON [/usr/bin/python3],
# REFINE [4], PAD [2], RUNS ["tbrf music"], RANKS [1], MPIRUN [mpirun],
# MPIRUN_FLAGS [none; e.g. --allow-run-as-root --oversubscribe],
# PARALLEL [0; 1: the AREPO runs side by side], HALO_PICK [largest:
# halo_ids.py --pick], HALO_MIN [50], MUSIC_PADDING [2: MUSIC's level-6
# cells around its fine region; halo_ids.py --max-width assumes 2],
# ICS_ONLY [0; 1: stop after the ICs], TBRF_RANKS [1; N > 1: tbrf's zoom
# made by `MPIRUN -np N TBRF_MPI arepo zoom`, each level's IC split over
# the ranks (doc/mpi.md), time.txt then rank 0's], TBRF_MPI [the MPI build's
# tbrf, e.g. build/mpi/tbrf; needed with TBRF_RANKS > 1].
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=${1:?usage: AREPO=... AREPO_ZOOM=... run.sh WORKDIR}
mkdir -p "$work"
work=$(cd "$work" && pwd)
tbrf=${TBRF:-tbrf}
music=${MUSIC:-MUSIC}
py=${PYTHON:-/usr/bin/python3}
refine=${REFINE:-4}
pad=${PAD:-2}
ranks=${RANKS:-1}
mpirun=${MPIRUN:-mpirun}
cosmo=(--box 50000 --particles 32 --redshift 49 --omega-m 0.3089 --omega-lambda 0.6911
       --omega-b 0.0486 --hubble 0.6774 --sigma8 0.831 --seed 1)
timed() { /usr/bin/time -v -o time.txt "$@"; }

# 1. the parent
parent=$work/parent/lpt2
if [ ! -f "$parent/output/snap_002.hdf5" ]; then
    : "${AREPO:?set AREPO to the AREPO built with ../cosmo/Config.sh}"
    ORDERS=2 "$here/../lpt/run.sh" "$work/parent"
fi

# 2. the halo
if [ ! -f "$work/halo/halo.txt" ]; then
    mkdir -p "$work/halo"
    "$py" "$here/halo_ids.py" "$parent/output/snap_002.hdf5" --ics "$parent/ics.hdf5" \
        --out "$work/halo" --pad "$pad" --min "${HALO_MIN:-50}" --pick "${HALO_PICK:-largest}" \
        | tee "$work/halo/candidates.txt"
fi
# the linear P(k) at z = 49 (MUSIC's noise normalisation, the ICs' P(k))
"$tbrf" arepo pk --out "$work/pk_z49.txt" --omega-m 0.3089 --omega-lambda 0.6911 --omega-b 0.0486 \
    --hubble 0.6774 --sigma8 0.831 --redshift 49 --quiet
region_lo=($(sed -n 's/^region_lo = //p' "$work/halo/halo.txt"))
region_hi=($(sed -n 's/^region_hi = //p' "$work/halo/halo.txt"))

# 3. tbrf's zoom
if [[ " ${RUNS:-tbrf music} " == *" tbrf "* ]] && [ ! -f "$work/tbrf/ics.hdf5" ]; then
    mkdir -p "$work/tbrf"
    zoom=(arepo zoom --out ics "${cosmo[@]}" --lpt 2 --region "ids:$work/halo/halo_ids.txt"
          --refine "$refine" --pad "$pad")
    if [ "${TBRF_RANKS:-1}" -gt 1 ]; then
        tbrf_mpi=${TBRF_MPI:?set TBRF_MPI to the MPI build of tbrf}
        (cd "$work/tbrf" && "$mpirun" ${MPIRUN_FLAGS:-} -np "$TBRF_RANKS" bash -c \
            '/usr/bin/time -v -o "time.txt.$OMPI_COMM_WORLD_RANK" "$@"' time "$tbrf_mpi" \
            "${zoom[@]}" > tbrf.log 2>&1 && mv time.txt.0 time.txt)
    else
        (cd "$work/tbrf" && timed "$tbrf" "${zoom[@]}" > tbrf.log 2>&1)
    fi
fi

# 4. MUSIC's zoom with the parent's phases
if [[ " ${RUNS:-tbrf music} " == *" music "* ]] && [ ! -f "$work/music/ics.hdf5" ]; then
    mkdir -p "$work/music"
    cd "$work/music"
    "$tbrf" arepo cosmo --out parent_lpt1 "${cosmo[@]}" --lpt 1 > /dev/null
    "$py" "$here/music_noise.py" parent_lpt1.hdf5 "$work/pk_z49.txt" wnoise_level5.bin | tee noise.txt
    lmax=$(awk -v r="$refine" 'BEGIN { l = 5; while (r > 1) { r /= 2; l++ } print l }')
    off=$(awk -v a="${region_lo[0]}" -v b="${region_lo[1]}" -v c="${region_lo[2]}" \
        'BEGIN { printf "%.10f, %.10f, %.10f", a / 32, b / 32, c / 32 }')
    ext=$(awk -v a="${region_lo[0]}" -v b="${region_lo[1]}" -v c="${region_lo[2]}" \
        -v d="${region_hi[0]}" -v e="${region_hi[1]}" -v f="${region_hi[2]}" \
        'BEGIN { printf "%.10f, %.10f, %.10f", (d - a) / 32, (e - b) / 32, (f - c) / 32 }')
    sed -e "s/@LEVELMAX@/$lmax/" -e "s/@OFFSET@/$off/" -e "s/@EXTENT@/$ext/" \
        -e "s/@PADDING@/${MUSIC_PADDING:-2}/" "$here/music.conf.in" > music.conf
    timed "$music" music.conf > music.log 2>&1
    cd - > /dev/null
fi
[ "${ICS_ONLY:-0}" = 1 ] && exit 0

# 5. AREPO on the zooms
: "${AREPO_ZOOM:?set AREPO_ZOOM to the AREPO built with Config.sh here}"
pids=()
for run in ${RUNS:-tbrf music}; do
    d=$work/$run
    [ -f "$d/output/snap_005.hdf5" ] && continue
    cp "$here/output_list.txt" "$d/"
    # param.txt's softenings are for REFINE 4 (1/39 of the fine spacing,
    # twice that for MUSIC's intermediate level): scaled by 4 / REFINE
    awk -v f="$(awk -v r="$refine" 'BEGIN { print 4 / r }')" \
        '/^Softening(Comoving|MaxPhys)Type[012] / { $2 = $2 * f } { print }' \
        "$here/param.txt" > "$d/param.txt"
    if [ "${PARALLEL:-0}" = 1 ]; then
        (cd "$d" && "$mpirun" ${MPIRUN_FLAGS:-} -np "$ranks" "$AREPO_ZOOM" param.txt > arepo.log 2>&1) &
        pids+=($!)
    else
        (cd "$d" && "$mpirun" ${MPIRUN_FLAGS:-} -np "$ranks" "$AREPO_ZOOM" param.txt > arepo.log 2>&1)
    fi
done
for p in "${pids[@]}"; do wait "$p"; done

# 6. the comparison
zooms=()
for run in ${RUNS:-tbrf music}; do zooms+=("$run=$work/$run"); done
"$py" "$here/zoom_halo.py" --parent "$parent" --halo "$work/halo/halo.txt" \
    --pk "$work/pk_z49.txt" --pkfig "$work/zoom_ics_pk.png" --fig "$work/zoom_z0.png" "${zooms[@]}" | tee "$work/zoom_halo.txt"
