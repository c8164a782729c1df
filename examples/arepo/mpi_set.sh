#!/usr/bin/env bash
# examples/arepo/mpi_set.sh — public AREPO reads the multi-file initial
# condition sets of `mpirun -n P tbrf arepo cosmo` and runs from them to the
# same snapshots as from the serial command's single file:
#
#   AREPO_DIR=/path/to/arepo examples/arepo/mpi_set.sh WORKDIR
#
# 1. builds AREPO in AREPO_DIR (once: EXEC Arepo_tbrf_setG, BUILD_DIR
#    build_tbrf_setG for G = PARTICLES; no file of AREPO's is changed) from
#    its own examples/cosmo_box_gravity_only_3d/Config.sh (TreePM,
#    hierarchical gravity, FOF + Subfind, double precision inside; no
#    INPUT_IN_DOUBLEPRECISION, hence the float32 files below) with
#    PMGRID = 2 G instead of 256; -fcommon, as AREPO's tentative
#    definitions (NumPartGroup, GrNr) need it from GCC 10 on;
# 2. writes the initial conditions of that example's box (50 Mpc/h, z = 127,
#    its cosmology, seed 1, G^3 particles) into WORKDIR/NAME/ (README.md,
#    "Multi-file sets from mpirun"):
#      serial       tbrf arepo cosmo --lpt 1           one file, ics.hdf5
#      mpi          mpirun -n IC_RANKS ... --lpt 1     IC_RANKS files ics.N.hdf5
#      mpi_files8   mpirun -n IC_RANKS ... --files 8   8 files
#      lpt2_serial  tbrf arepo cosmo --lpt 2
#      lpt2_mpi     mpirun -n IC_RANKS ... --lpt 2     IC_RANKS files, split
#      lpt2_mpi_files4  the same with --files 4        4 files
#      gas_serial, gas_mpi   --lpt 1 --gas             (GAS=1 only)
#      glass        --lpt 2 on a glass: `tbrf arepo glass` of (G/2)^3
#                   particles tiled twice a side (--glass; RUNS=glass)
# 3. runs AREPO on AREPO_RANKS tasks in each folder with the example's
#    param.txt (changed: ICFormat 3, MaxMemSize 1000, TimeMax TIME_MAX,
#    softenings scaled by 32/G) and output times OUTPUT_TIMES; the gas runs
#    with OmegaBaryon 0.0486, GAS_OUTPUT_TIMES and TimeMax 0.013 (AREPO
#    wants TimeMax - TimeBegin > MaxSizeTimestep, 0.005), stopped after
#    their last output;
# 4. mpi_set.py: each set against its serial file (particles bit for bit;
#    snapshots matched by ID; AREPO's FOF catalogues); those lines and
#    AREPO's own on reading each set go to WORKDIR/summary.txt.
#
# Environment: TBRF [tbrf] the command built with MPI (without mpirun it
# writes the serial file), MPIRUN [mpirun], MPIRUN_FLAGS [--oversubscribe;
# add --allow-run-as-root as root], IC_RANKS [4], AREPO_RANKS [2],
# PARTICLES [32], JOBS [1] (runs at a time), TIME_MAX [0.015625: z = 63],
# OUTPUT_TIMES ["0.0078125 0.0110485435 0.015625"], GAS [0],
# GAS_OUTPUT_TIMES ["0.0078125 0.008"], RUNS [the names above, gas ones
# with GAS=1], PYTHON [/usr/bin/python3], MAKE_JOBS [2], HDF5_INCL,
# HDF5_LIB [Debian's serial HDF5], AREPO_MAKE_FLAGS [more make arguments].
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=${1:?usage: AREPO_DIR=/path/to/arepo mpi_set.sh WORKDIR}
arepo_dir=${AREPO_DIR:?set AREPO_DIR to the public AREPO source folder}
tbrf=${TBRF:-tbrf}
mpirun=${MPIRUN:-mpirun}
mpiflags=${MPIRUN_FLAGS:---oversubscribe}
py=${PYTHON:-/usr/bin/python3}
parts=${PARTICLES:-32}
ic_ranks=${IC_RANKS:-4}
ranks=${AREPO_RANKS:-2}
tmax=${TIME_MAX:-0.015625}
times=${OUTPUT_TIMES:-0.0078125 0.0110485435 0.015625}
gas_tmax=0.013
gas_times=${GAS_OUTPUT_TIMES:-0.0078125 0.008}
example="$arepo_dir/examples/cosmo_box_gravity_only_3d"
[ -f "$example/Config.sh" ] || { echo "mpi_set.sh: no $example/Config.sh: is AREPO_DIR the AREPO source?" >&2; exit 1; }
command -v "$tbrf" >/dev/null || { echo "mpi_set.sh: $tbrf not found: set TBRF to the MPI build of tbrf" >&2; exit 1; }
mkdir -p "$work"
work=$(cd "$work" && pwd)

# 1. AREPO, the example's options with a particle mesh of twice the
# particles per side (256 is the example's, for its own 32^3 box too, but
# costs a 256^3 FFT every long-range step on this 2-core machine)
exe="$arepo_dir/Arepo_tbrf_set$parts"
if [ ! -x "$exe" ]; then
    sed "s/^PMGRID=[0-9]*/PMGRID=$((2 * parts))/" "$example/Config.sh" > "$work/Config.sh"
    # shellcheck disable=SC2086 # AREPO_MAKE_FLAGS are words
    make -C "$arepo_dir" -j"${MAKE_JOBS:-2}" SYSTYPE=tbrf CC=mpicc MPICH_LIB=-lmpi \
        OPTIMIZE="-std=c11 -O2 -g -fcommon -Wno-format-security -Wno-unknown-pragmas -Wno-unused-function" \
        GSL_INCL= GSL_LIB="-lgsl -lgslcblas" FFTW_INCL= FFTW_LIBS= \
        HDF5_INCL="${HDF5_INCL:--I/usr/include/hdf5/serial -DH5_USE_16_API}" \
        HDF5_LIB="${HDF5_LIB:--L/usr/lib/x86_64-linux-gnu/hdf5/serial -lhdf5 -lz}" \
        CONFIG="$work/Config.sh" BUILD_DIR="build_tbrf_set$parts" EXEC="Arepo_tbrf_set$parts" \
        ${AREPO_MAKE_FLAGS:-} > "$work/make.log" 2>&1 ||
        { tail -20 "$work/make.log" >&2; exit 1; }
fi

# 2.-3. one folder a run: the IC, then AREPO on it
cosmo=(arepo cosmo --out ics --box 50000 --particles "$parts" --redshift 127
       --omega-m 0.3089 --omega-lambda 0.6911 --omega-b 0.0486 --hubble 0.6774
       --sigma8 0.831 --seed 1 --precision float)
run() { # NAME SERIAL|MPI TBRF-OPTIONS...
    local name=$1 how=$2 d="$work/$1" tm=$tmax ob=0.0 gas=0
    shift 2
    rm -rf "$d" && mkdir -p "$d"
    case "$name" in gas*) tm=$gas_tmax ob=0.0486 gas=1 ;; esac
    # shellcheck disable=SC2086 # the output times are words
    if [ $gas = 1 ]; then printf '%s\n' $gas_times; else printf '%s\n' $times; fi \
        > "$d/output_list.txt"
    # the example's param.txt, these values changed (their comments dropped)
    awk -v tm="$tm" -v ob="$ob" -v soft="$(awk -v n="$parts" 'BEGIN { print 40 * 32 / n }')" '
        function set(v) { $0 = sprintf("%-37s %s", $1, v) }
        $1 == "MaxMemSize" { set(1000) } $1 == "TimeMax" { set(tm) }
        $1 == "OmegaBaryon" { set(ob) } $1 == "ICFormat" { set(3) }
        $1 ~ /^SofteningComovingType/ { set(soft) } $1 ~ /^SofteningMaxPhysType/ { set(soft / 2) }
        { print }' "$example/param.txt" > "$d/param.txt"
    (
        cd "$d"
        if [ "$how" = mpi ]; then
            # shellcheck disable=SC2086 # MPIRUN_FLAGS are words
            "$mpirun" $mpiflags -n "$ic_ranks" "$tbrf" "${cosmo[@]}" "$@" > tbrf.log 2>&1
        else
            "$tbrf" "${cosmo[@]}" "$@" > tbrf.log 2>&1
        fi
        local t0=$SECONDS pid last
        # shellcheck disable=SC2086
        "$mpirun" $mpiflags -n "$ranks" "$exe" param.txt > arepo.log 2>&1 &
        pid=$!
        # the gas runs end at their last output time through AREPO's stop
        # file (output/stop: a restart file, then a normal exit), since
        # TimeMax cannot be closer to TimeBegin than MaxSizeTimestep
        last=$(printf 'output/snap_%03d.hdf5' $(($(wc -l < output_list.txt) - 1)))
        while [ $gas = 1 ] && kill -0 $pid 2>/dev/null; do
            if [ -f "$last" ]; then touch output/stop; break; fi
            sleep 1
        done
        wait $pid || { echo "mpi_set.sh: AREPO failed in $d:" >&2; tail -20 arepo.log >&2; exit 1; }
        set -- ics*.hdf5
        echo "$name: $# IC file(s); AREPO $((SECONDS - t0)) s wall," \
             "$(grep -c '^Sync-Point' arepo.log) steps"
        grep -E '^READIC: (Reading file|Type [01] )|^READIC: Total number of particles|^INIT: success' arepo.log |
            sed 's/^/    /' | sort -u
    ) | tee -a "$work/summary.txt"
}
: > "$work/summary.txt"
default_runs="serial mpi mpi_files8 lpt2_serial lpt2_mpi lpt2_mpi_files4"
[ "${GAS:-0}" = 1 ] && default_runs="$default_runs gas_serial gas_mpi"
for name in ${RUNS:-$default_runs}; do
    # JOBS runs at a time: each run is its own folder, its summary lines
    # are written in one go when its AREPO has finished
    while [ "$(jobs -rp | wc -l)" -ge "${JOBS:-1}" ]; do wait -n; done
    case "$name" in
        serial)      run serial serial --lpt 1 ;;
        mpi)         run mpi mpi --lpt 1 ;;
        mpi_files8)  run mpi_files8 mpi --lpt 1 --files 8 ;;
        lpt2_serial) run lpt2_serial serial --lpt 2 ;;
        lpt2_mpi)    run lpt2_mpi mpi --lpt 2 ;;
        lpt2_mpi_files4) run lpt2_mpi_files4 mpi --lpt 2 --files 4 ;;
        gas_serial)  run gas_serial serial --lpt 1 --gas ;;
        gas_mpi)     run gas_mpi mpi --lpt 1 --gas ;;
        glass)       "$tbrf" arepo glass --out "$work/glass" --particles $((parts / 2)) --quiet &&
                     run glass serial --lpt 2 --glass "$work/glass.hdf5" ;;
        *) echo "mpi_set.sh: unknown run $name" >&2; exit 1 ;;
    esac &
done
while [ "$(jobs -rp | wc -l)" -gt 0 ]; do wait -n; done

# 4. each set against its serial file
status=0
cmp_runs() { # REF OTHER...
    local ref=$1 others=() o
    shift
    for o in "$@"; do [ -d "$work/$o/output" ] && others+=("$work/$o"); done
    [ -d "$work/$ref/output" ] && [ ${#others[@]} -gt 0 ] || return 0
    "$py" "$here/mpi_set.py" "$work/$ref" "${others[@]}" | tee -a "$work/summary.txt" || status=1
}
cmp_runs serial mpi mpi_files8
cmp_runs lpt2_serial lpt2_mpi lpt2_mpi_files4
cmp_runs gas_serial gas_mpi
exit $status
