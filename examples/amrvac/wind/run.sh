#!/usr/bin/env bash
# run.sh — the clumpy planar wind of README.md in MPI-AMRVAC:
#   AMRVAC_DIR=/path/to/amrvac [TBRF_PREFIX=/tmp/tbrf-prefix] [DIM=2] ./run.sh
# builds mod_usr.t in $WORK (default /tmp/tbrf-amrvac-wind, with DIM=2
# /tmp/tbrf-amrvac-wind2d) in 3D with amrvac.par (DIM=3, the default) or
# in 2D with amrvac_2d.par (DIM=2), and writes there, summarised in
# results.txt:
#   wind_stats_run.dat  the boundary's <rho>, <ln rho>, var ln rho over the
#                   fills so far, CPU s in the fills and in all
#   cost            the fills' share of the CPU seconds of 120 steps
#   wind.png        the density at time_max (ParaView, if installed)
# MPIRUN (default "mpirun") and NP (default 1) run the ranks.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../common/setup.sh"
DIM=${DIM:-3}
case $DIM in
    3) amrvac_setup 3 ;;
    2) WORK=${WORK:-${TMPDIR:-/tmp}/tbrf-amrvac-wind2d}
       amrvac_setup 2 amrvac_2d.par ;;
    *) echo "run.sh: DIM is 2 or 3, not $DIM" >&2; exit 1 ;;
esac
MPIRUN=${MPIRUN:-mpirun}
: >run.log
par() { local f=$1; shift; printf '%s\n' "$@" >"$f"; }

rm -f wind_stats.dat
$MPIRUN -np "${NP:-1}" ./amrvac -i amrvac.par >>run.log 2>&1
prog='{ printf "boundary after t = %.3f: %d cell fills, <rho> = %.4f, <ln rho> = %.4f, var ln rho = %.4f; '
prog+='%.2f of %.2f CPU s in the fills (%.1f%%)\n", $2, $3, $4, $5, $6, $7, $8, 100 * $7 / $8 }'
tail -1 wind_stats.dat | awk "$prog" >results.txt
grep -m2 'tbrf: ' run.log | sed 's/^ *//' >>results.txt || true

# the cost of the boundary: the CPU seconds inside its fills against those
# of the whole run, over 120 steps (a share inside one run, since on a
# loaded machine runs' CPU seconds vary by tens of per cent; the long
# run's share is in results.txt's first line too)
mv wind_stats.dat wind_stats_run.dat
par cost.par " &filelist" "  base_filename = 'cost'" " /" " &savelist" "  dtsave_dat = 1.d9" " /" \
    " &stoplist" "  it_max = 121" " /" " &usr_list" "  stat_every = 120" " /"
./amrvac -i amrvac.par cost.par >>run.log 2>&1
prog='{ printf "cost: %.2f of %.2f CPU s in the boundary fills over 120 steps (%.1f%%)\n", $7, $8, 100 * $7 / $8 }'
tail -1 wind_stats.dat | awk "$prog" >>results.txt
rm -f wind_stats.dat

if command -v pvpython >/dev/null && command -v xvfb-run >/dev/null; then
    last=$(ls wind[0-9][0-9][0-9][0-9].dat | tail -1)
    ./amrvac -i amrvac.par -if "$last" -convert >>run.log 2>&1
    xvfb-run -a -s "-screen 0 1024x768x24" pvpython "$here/../common/slice.py" "./${last%.dat}.vtu" \
        rho wind.png >>run.log 2>&1 && echo "picture: $WORK/wind.png (${last%.dat}.vtu)" >>results.txt
fi
cat results.txt
