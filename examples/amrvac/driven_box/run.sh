#!/usr/bin/env bash
# run.sh — the driven isothermal MHD box of README.md in MPI-AMRVAC:
#   AMRVAC_DIR=/path/to/amrvac [TBRF_PREFIX=/tmp/tbrf-prefix] ./run.sh
# builds mod_usr.t in $WORK (default /tmp/tbrf-amrvac-EXAMPLE) and writes there, summarised in
# results.txt:
#   mach_run.dat    iteration, time, rms Mach number, force rms, CPU s in
#                   the forcing and in all (to TMAX, default 2.05)
#   the solenoidal check of the blocks' force at t = 0 (AMRVAC's own blocks)
#   cost            the forcing's share of the CPU seconds of 60 steps, with
#                   tbrf_driver_grid per block and with the points form
#   ranks           1 and 2 ranks at step 20: cmp of the .dat files
#   restart         step 20 straight against a restart from step 10's .dat
#   box.png         a z slice of the density at TMAX (ParaView, if installed)
# MPIRUN (default "mpirun") runs the ranks; SKIP_RUN=1 skips the long run.
#
# TARGET_MACH=M runs instead only the amplitude control from rest towards
# rms Mach M (usr_list target_mach), to TMAX (default 6.05), and writes
# results_control.txt (the Mach number every half time unit and its mean over
# the last two) from
#   mach_control.dat  as mach_run.dat
#   gains_control.dat update, time, the gains, the dispersion per component / c_s
#   control.png       both against time (matplotlib in $PYTHON, default python3)
#
# OPENMP=1 runs instead only the threads check, in AMRVAC's OpenMP build
# (AMRVAC_ARCH=openmp, default then; its libamrvac in lib/3d3_openmp):
# step 20 with 1 and 2 OpenMP threads (one rank, not under mpirun, so the
# threads are not bound to one core), every thread calling the one shared
# driver from AMRVAC's block loop; results_openmp.txt says whether the
# two snapshots are byte-identical.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../common/setup.sh"
[ "${OPENMP:-0}" = 1 ] && export AMRVAC_ARCH=${AMRVAC_ARCH:-openmp}
amrvac_setup 3
MPIRUN=${MPIRUN:-mpirun}
: >run.log

# par_override NAME LINES...: a .par file of namelist lines
par() { local f=$1; shift; printf '%s\n' "$@" >"$f"; }

if [ "${OPENMP:-0}" = 1 ]; then
    for n in 1 2; do
        par "threads$n.par" " &filelist" "  base_filename = 'threads${n}_'" " /" " &savelist" \
            "  ditsave_dat = 20" "  dtsave_dat = 1.d9" " /" " &stoplist" "  it_max = 25" " /"
        OMP_NUM_THREADS=$n ./amrvac -i amrvac.par "threads$n.par" >>run.log 2>&1
    done
    if cmp -s boxthreads1_0001.dat boxthreads2_0001.dat; then
        echo "threads: 1 and 2 OpenMP threads byte-identical at step 20" >results_openmp.txt
    else echo "threads: 1 and 2 OpenMP threads DIFFER at step 20" >results_openmp.txt; fi
    cat results_openmp.txt
    exit 0
fi
if [ -n "${TARGET_MACH:-}" ]; then
    TMAX=${TMAX:-6.05}
    rm -f mach.dat gains.dat
    par control.par " &filelist" "  base_filename = 'control'" " /" " &savelist" "  dtsave_dat = 1.d0" " /" \
        " &stoplist" "  time_max = $TMAX" " /" " &usr_list" "  target_mach = $TARGET_MACH" " /"
    $MPIRUN -np "${NP:-1}" ./amrvac -i amrvac.par control.par >>run.log 2>&1
    mv mach.dat mach_control.dat
    mv gains.dat gains_control.dat
    # the first line at or after each half time unit, then the mean over
    # the last two time units
    awk -v target="$TARGET_MACH" -v tmax="$TMAX" '
        $2 >= next_t { printf "t = %.2f: Mach %.3f, force rms %.3f\n", $2, $3, $4; next_t = (int($2 * 2) + 1) / 2 }
        $2 >= tmax - 2.05 { s += $3; s2 += $3 * $3; n++ }
        BEGIN { next_t = 0.5 }
        END { m = s / n; printf "mean Mach over t >= %.2f: %.3f (target %s), rms scatter of the lines %.3f\n",
                  tmax - 2.05, m, target, sqrt(s2 / n - m * m) }' mach_control.dat >results_control.txt
    tail -1 gains_control.dat | awk '{ printf "gains at t = %.2f: %.3f %.3f %.3f\n", $2, $3, $4, $5 }' \
        >>results_control.txt
    if "${PYTHON:-python3}" -c 'import matplotlib' 2>/dev/null; then
        "${PYTHON:-python3}" "$here/plot_control.py" . "$TARGET_MACH" control.png &&
            echo "picture: $WORK/control.png" >>results_control.txt
    fi
    cat results_control.txt
    exit 0
fi
TMAX=${TMAX:-2.05}   # past 2, so that the snapshot of t = 2 is written

# 1. the run (AMRVAC appends each .par's base_filename to amrvac.par's
# 'box', so the files below are box*)
if [ "${SKIP_RUN:-0}" != 1 ]; then
    rm -f mach.dat
    par run.par " &stoplist" "  time_max = $TMAX" " /"
    $MPIRUN -np "${NP:-1}" ./amrvac -i amrvac.par run.par >>run.log 2>&1
    mv mach.dat mach_run.dat
fi
grep -m1 'tbrf: .* modes' run.log | sed 's/^ *//' >results.txt || true

# 2. the cost of the forcing: the CPU seconds inside it (tbrf's force and
# the kick) against those of the whole run, in one run of 60 steps each
# way (a share inside one run, since on a loaded machine runs' CPU
# seconds vary by tens of per cent between runs)
for mode in "grid F" "points T"; do
    set -- $mode
    rm -f mach.dat
    par "cost_$1.par" " &filelist" "  base_filename = 'cost_$1'" " /" " &savelist" "  dtsave_dat = 1.d9" " /" \
        " &stoplist" "  it_max = 61" " /" " &usr_list" "  use_points = $2" "  mach_every = 60" " /"
    ./amrvac -i amrvac.par "cost_$1.par" >>run.log 2>&1
    prog='{ printf "cost %s: %.2f of %.2f CPU s in the forcing over 60 steps (%.1f%%): '
    prog+='the step costs %.3f x the undriven one\n", m, $5, $6, 100 * $5 / $6, 1 / (1 - $5 / $6) }'
    tail -1 mach.dat | awk -v m="$1" "$prog" >>results.txt
done
rm -f mach.dat

# 3. 1 and 2 ranks: the snapshot of step 20
for np in 1 2; do
    par "ranks$np.par" " &filelist" "  base_filename = 'ranks${np}_'" " /" " &savelist" "  ditsave_dat = 20" \
        "  dtsave_dat = 1.d9" " /" " &stoplist" "  it_max = 25" " /"
    $MPIRUN -np "$np" ./amrvac -i amrvac.par "ranks$np.par" >>run.log 2>&1
done
if cmp -s boxranks1_0001.dat boxranks2_0001.dat; then
    echo "ranks: 1 and 2 ranks byte-identical at step 20" >>results.txt
else echo "ranks: 1 and 2 ranks DIFFER at step 20" >>results.txt; fi

# 4. a restart from AMRVAC's .dat of step 10 (no tbrf state) against the
# straight run, at step 20
par straight.par " &filelist" "  base_filename = 'straight'" " /" " &savelist" "  ditsave_dat = 10" \
    "  dtsave_dat = 1.d9" " /" " &stoplist" "  it_max = 25" " /"
./amrvac -i amrvac.par straight.par >>run.log 2>&1
par restart.par " &filelist" "  base_filename = 'restart'" " /" " &savelist" "  ditsave_dat = 10" \
    "  dtsave_dat = 1.d9" " /" " &stoplist" "  it_max = 25" " /"
./amrvac -i amrvac.par restart.par -if boxstraight0001.dat >>run.log 2>&1
if cmp -s boxstraight0002.dat boxrestart0002.dat; then
    echo "restart: step 20 byte-identical to the straight run" >>results.txt
else echo "restart: step 20 DIFFERS from the straight run" >>results.txt; fi

# 5. a picture of the last snapshot
if [ "${SKIP_RUN:-0}" != 1 ] && command -v pvpython >/dev/null && command -v xvfb-run >/dev/null; then
    last=$(ls box[0-9][0-9][0-9][0-9].dat | tail -1)
    ./amrvac -i amrvac.par -if "$last" -convert >>run.log 2>&1
    xvfb-run -a -s "-screen 0 1024x768x24" pvpython "$here/../common/slice.py" "./${last%.dat}.vtu" \
        rho box.png >>run.log 2>&1 && echo "picture: $WORK/box.png (${last%.dat}.vtu)" >>results.txt
fi
cat results.txt
