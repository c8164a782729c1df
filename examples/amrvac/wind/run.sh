#!/usr/bin/env bash
# run.sh — the clumpy planar wind of README.md in MPI-AMRVAC (3D):
#   AMRVAC_DIR=/path/to/amrvac [TBRF_PREFIX=/tmp/tbrf-prefix] ./run.sh
# builds mod_usr.t in $WORK (default /tmp/tbrf-amrvac-EXAMPLE) and writes there, summarised in
# results.txt:
#   wind_stats.dat  the boundary's <rho>, <ln rho>, var ln rho over the fills so far
#   cost            CPU seconds per step with a uniform inflow and with tbrf's (steps 20..120)
#   wind.png        the density at time_max (ParaView, if installed)
# MPIRUN (default "mpirun") and NP (default 1) run the ranks.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../common/setup.sh"
amrvac_setup 3
MPIRUN=${MPIRUN:-mpirun}
: >run.log
par() { local f=$1; shift; printf '%s\n' "$@" >"$f"; }

rm -f wind_stats.dat
$MPIRUN -np "${NP:-1}" ./amrvac -i amrvac.par >>run.log 2>&1
tail -1 wind_stats.dat | awk '{ printf "boundary after t = %.3f: %d cell fills, <rho> = %.4f, <ln rho> = %.4f, var ln rho = %.4f\n", $2, $3, $4, $5, $6 }' >results.txt

steps() {  # steps NAME ITMAX USE_TBRF
    par "$1.par" " &filelist" "  base_filename = '$1'" " /" " &savelist" "  dtsave_dat = 1.d9" " /" \
        " &stoplist" "  it_max = $2" " /" " &usr_list" "  use_tbrf = $3" "  stat_every = 1000000" " /"
    cpu_seconds ./amrvac -i amrvac.par "$1.par"
}
for mode in "uniform F" "tbrf T"; do
    set -- $mode
    a=$(steps "cost_$1_20" 20 "$2")
    b=$(steps "cost_$1_120" 120 "$2")
    echo "cost $1: $(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.5f", (b - a) / 100 }') CPU s a step" >>results.txt
done

if command -v pvpython >/dev/null && command -v xvfb-run >/dev/null; then
    last=$(ls wind????.dat | tail -1)
    ./amrvac -i amrvac.par -if "$last" -convert >>run.log 2>&1
    xvfb-run -a -s "-screen 0 1024x768x24" pvpython "$here/../common/slice.py" "./${last%.dat}.vtu" \
        rho wind.png >>run.log 2>&1 && echo "picture: $WORK/wind.png (${last%.dat}.vtu)" >>results.txt
fi
cat results.txt
