#!/usr/bin/env bash
# run.sh — the driven isothermal MHD box of README.md in MPI-AMRVAC:
#   AMRVAC_DIR=/path/to/amrvac [TBRF_PREFIX=/tmp/tbrf-prefix] ./run.sh
# builds mod_usr.t in $WORK (default /tmp/tbrf-amrvac-EXAMPLE) and writes there, summarised in
# results.txt:
#   mach.dat        iteration, time, rms Mach number, force rms (to TMAX, default 2)
#   the solenoidal check of the blocks' force at t = 0 (AMRVAC's own blocks)
#   cost            CPU seconds per step without tbrf, with tbrf_driver_grid
#                   per block and with the points form (steps 5..25)
#   ranks           1 and 2 ranks after 20 steps: cmp of the .dat files
#   restart         20 steps straight against 10 + a restart from .dat for 10
#   box.png         a z slice of the density at TMAX (ParaView, if installed)
# MPIRUN (default "mpirun") runs the ranks; SKIP_RUN=1 skips the long run.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../common/setup.sh"
amrvac_setup 3
MPIRUN=${MPIRUN:-mpirun}
TMAX=${TMAX:-2.0}
: >run.log

# par_override NAME LINES...: a .par file of namelist lines
par() { local f=$1; shift; printf '%s\n' "$@" >"$f"; }

# 1. the run
if [ "${SKIP_RUN:-0}" != 1 ]; then
    rm -f mach.dat
    par run.par " &stoplist" "  time_max = $TMAX" " /"
    $MPIRUN -np "${NP:-1}" ./amrvac -i amrvac.par run.par >>run.log 2>&1
fi
grep -m1 'tbrf: .* modes' run.log | sed 's/^ *//' >results.txt || true

# 2. cost a step: CPU seconds of 25 steps minus those of 5, over 20
steps() {  # steps NAME ITMAX USE_TBRF USE_POINTS
    par "$1.par" " &filelist" "  base_filename = '$1'" " /" " &savelist" "  dtsave_dat = 1.d9" " /" \
        " &stoplist" "  it_max = $2" " /" " &usr_list" "  use_tbrf = $3" "  use_points = $4" " /"
    cpu_seconds ./amrvac -i amrvac.par "$1.par"
}
for mode in "off F F" "grid T F" "points T T"; do
    set -- $mode
    a=$(steps "cost_$1_5" 5 "$2" "$3")
    b=$(steps "cost_$1_25" 25 "$2" "$3")
    echo "cost $1: $(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.4f", (b - a) / 20 }') CPU s a step" >>results.txt
done

# 3. 1 and 2 ranks, 20 steps each
for np in 1 2; do
    par "ranks$np.par" " &filelist" "  base_filename = 'ranks${np}_'" " /" " &savelist" "  ditsave_dat = 20" \
        "  dtsave_dat = 1.d9" " /" " &stoplist" "  it_max = 20" " /"
    $MPIRUN -np "$np" ./amrvac -i amrvac.par "ranks$np.par" >>run.log 2>&1
done
if cmp -s ranks1_0001.dat ranks2_0001.dat; then echo "ranks: 1 and 2 ranks byte-identical after 20 steps" >>results.txt
else echo "ranks: 1 and 2 ranks DIFFER after 20 steps" >>results.txt; fi

# 4. a restart from AMRVAC's .dat (no tbrf state): 10 + 10 steps against 20
par straight.par " &filelist" "  base_filename = 'straight'" " /" " &savelist" "  ditsave_dat = 10" \
    "  dtsave_dat = 1.d9" " /" " &stoplist" "  it_max = 20" " /"
./amrvac -i amrvac.par straight.par >>run.log 2>&1
par restart.par " &filelist" "  base_filename = 'restart'" " /" " &savelist" "  ditsave_dat = 10" \
    "  dtsave_dat = 1.d9" " /" " &stoplist" "  it_max = 20" " /"
./amrvac -i amrvac.par restart.par -if straight0001.dat >>run.log 2>&1
if cmp -s straight0002.dat restart0002.dat; then echo "restart: byte-identical to the straight run" >>results.txt
else echo "restart: DIFFERS from the straight run" >>results.txt; fi

# 5. a picture of the last snapshot
if [ "${SKIP_RUN:-0}" != 1 ] && command -v pvpython >/dev/null && command -v xvfb-run >/dev/null; then
    last=$(ls box????.dat | tail -1)
    ./amrvac -i amrvac.par -if "$last" -convert >>run.log 2>&1
    xvfb-run -a -s "-screen 0 1024x768x24" pvpython "$here/../common/slice.py" "./${last%.dat}.vtu" \
        rho box.png >>run.log 2>&1 && echo "picture: $WORK/box.png (${last%.dat}.vtu)" >>results.txt
fi
cat results.txt
