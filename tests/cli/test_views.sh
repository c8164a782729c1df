#!/usr/bin/env bash
# test_views.sh TBRF IO_CHECK CASE — `tbrf preview` and `tbrf spectrum` on
# every kind of grid file tbrf writes:
#   vector    2D and 3D vector grids (HDF5 /field (ny, nx, 2), (nz, ny, nx,
#             3); netCDF field_x/_y/_z): a missing or impossible
#             --component is refused naming the valid ones; components are
#             drawn diverging (red and blue), the magnitude in a sequential
#             map; the HDF5 and netCDF files of one field give the same
#             plane pixel for pixel; a netCDF vector's wrote line names
#             field_x, field_y, field_z
#   series    `tbrf drive` series, 3D and 2D: --frame or --time required
#             (the refusal names both and the range), --time T and the
#             --frame at T give the same PNG byte for byte, times outside
#             the series and frames past the last refused, and --frame on
#             a single field refused; a series at points refused by both
#             commands as such
#   spectrum  the spectrum of a vector field: P_sol and P_comp columns; a
#             field periodic over the grid (generate --box on its lattice)
#             measured without a window, so a solenoidal field's
#             compressive part is 0 and a compressive field's solenoidal
#             part is 0 to 4 decimals, and a mixed field's solenoidal share
#             is that of its zeta (2/3 at zeta = 0.5 in 3D) within 0.09
#             (4 times the 0.022 seed-to-seed scatter of 8 seeds at this
#             size); --component x measures one component; magnitude
#             refused; a series frame without a model
#   options   --vmin/--vmax, --cmap, --log: a signed field with --cmap
#             viridis is drawn sequentially, --log refused with rdbu, an
#             inverted range, an unknown map (the refusal names them) and
#             --log over a range reaching 0 refused
set -euo pipefail
tbrf=$1 check=$2 case=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
L=6.283185307179586 H=0.19634954084936207
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
refused() { # want-rc pattern args...: exits want-rc with one line matching pattern
    local want=$1 pat=$2 rc=0
    shift 2
    "$tbrf" "$@" >out.txt 2>err.txt || rc=$?
    [ "$rc" -eq "$want" ] || fail "$* exited $rc, not $want: $(cat err.txt)"
    [ "$(wc -l <err.txt)" -eq 1 ] || fail "$*: not one line: $(cat err.txt)"
    grep -Eq -- "$pat" err.txt || fail "$*: '$(cat err.txt)' lacks /$pat/"
}
G=(--model powerlaw --index -3 --kmin 0.2 --kmax 3 --quiet)

case $case in
vector)
    "$tbrf" generate "${G[@]}" --grid 48x32 --vector mixed --zeta 0.5 --seed 1 --out v2.h5
    "$tbrf" generate "${G[@]}" --grid 24x20x16 --vector solenoidal --seed 2 --out v3.h5
    "$tbrf" generate "${G[@]}" --grid 24x20x16 --vector solenoidal --seed 2 --out v3.nc
    refused 2 'v2.h5 holds 2-component vectors: choose --component x, y or magnitude' \
        preview v2.h5 --out x.png
    refused 2 "--component 'z' is not one of v2.h5's: x, y or magnitude" \
        preview v2.h5 --component z --out x.png
    refused 2 'choose --component x, y, z or magnitude' preview v3.nc --out x.png
    [ ! -e x.png ] || fail "a refused preview wrote x.png"
    "$tbrf" preview v2.h5 --component y --out v2y.png --quiet
    "$check" png-slice v2y.png 1.5 || fail "png-slice v2y.png"
    "$tbrf" preview v2.h5 --component magnitude --out v2m.png --quiet
    "$check" png-seq v2m.png || fail "png-seq v2m.png"
    for ax in x y z; do
        "$tbrf" preview v3.h5 --component $ax --axis $ax --index 3 --out h$ax.png --quiet
        "$tbrf" preview v3.nc --component $ax --axis $ax --index 3 --out n$ax.png --quiet
        "$check" png-slice h$ax.png || fail "png-slice h$ax.png"
        "$check" png-plane h$ax.png n$ax.png || fail "HDF5 and netCDF planes differ ($ax)"
    done
    "$tbrf" preview v3.nc --component magnitude --out nm.png --quiet
    "$check" png-seq nm.png || fail "png-seq nm.png"
    # the wrote line names the netCDF variables that hold the components
    "$tbrf" generate --model powerlaw --index -3 --kmin 0.2 --kmax 3 --grid 8x6x4 \
        --vector solenoidal --out w.nc 2>err.txt
    grep -qx 'wrote w.nc: field_x, field_y, field_z 8x6x4 float64, 4.5 KiB' err.txt ||
        fail "netCDF vector wrote line: $(cat err.txt)"
    # another component draws another plane
    if "$check" png-plane hx.png hy.png 2>/dev/null; then fail "components x and y drew alike"; fi
    ;;
series)
    common=(--model band --kmin 1 --kmax 3 --zeta 0.5 --tcorr 0.5 --rms 1 --times 0:2:0.25 --quiet)
    "$tbrf" drive --box $L "${common[@]}" --grid 16x16x16 --out s3.h5
    "$tbrf" drive --box $L,$L "${common[@]}" --grid 16x16 --out s2.h5
    refused 2 's3.h5 holds 3-component vectors: choose --component x, y, z or magnitude' \
        preview s3.h5 --out x.png
    refused 2 's3.h5 is a series of 9 frames, t = 0 .. 2: choose one with --frame 0..8 or --time T' \
        preview s3.h5 --component x --out x.png
    refused 2 '--frame and --time both' preview s3.h5 --component x --frame 1 --time 1 --out x.png
    refused 2 "--time 2.2 is outside s3.h5's times 0 .. 2" preview s3.h5 --component x --time 2.2 --out x.png
    refused 2 's3.h5 has frames 0..8' preview s3.h5 --component x --frame 9 --out x.png
    "$tbrf" generate "${G[@]}" --grid 16x16 --out one.h5
    refused 2 'one.h5 is a single field, not a series' preview one.h5 --frame 0 --out x.png
    refused 2 'one.h5 holds a scalar field' preview one.h5 --component x --out x.png
    "$tbrf" preview s3.h5 --component z --time 1.1 --out t.png --quiet
    "$tbrf" preview s3.h5 --component z --frame 4 --out f.png --quiet
    cmp t.png f.png || fail "--time 1.1 and --frame 4 drew differently"
    "$check" png-slice f.png 1 || fail "png-slice f.png"
    "$tbrf" preview s3.h5 --component z --frame 5 --out f5.png --quiet
    if "$check" png-plane f.png f5.png 2>/dev/null; then fail "frames 4 and 5 drew alike"; fi
    "$tbrf" preview s2.h5 --component magnitude --frame 8 --out m2.png --quiet
    "$check" png-seq m2.png || fail "png-seq m2.png"
    printf '0.1 0.2 0.3\n0.5 0.5 0.5\n' >pts.txt
    "$tbrf" drive --box $L "${common[@]}" --points pts.txt --out sp.h5
    refused 1 'sp.h5 is a series at points .*preview needs a grid' preview sp.h5 --out x.png
    refused 1 'sp.h5 is a series at points .*spectrum needs a grid' spectrum sp.h5
    "$tbrf" info s3.h5 | grep -q '/field .*(9, 16, 16, 16, 3).*\[time, nz, ny, nx, component\]' ||
        fail "info labels the series' axes: $("$tbrf" info s3.h5 | grep /field)"
    ;;
spectrum)
    box=(--box $L --spacing $H --grid 32x32x32 --model matern --length 0.5 --nu 1 --quiet)
    "$tbrf" generate "${box[@]}" --vector solenoidal --seed 1 --out sol.h5 2>/dev/null
    "$tbrf" generate "${box[@]}" --vector compressive --seed 1 --out comp.nc 2>/dev/null
    "$tbrf" generate "${box[@]}" --vector mixed --zeta 0.5 --seed 1 --out mix.h5 2>/dev/null
    "$tbrf" spectrum sol.h5 --plot sol.png --quiet >sol.txt
    grep -q '^# .*P_sol .*P_comp' sol.txt || fail "no P_sol/P_comp columns"
    grep -q 'no window (periodic over the grid)' sol.txt || fail "a periodic grid was windowed"
    grep -q '^solenoidal fraction: measured 1.0000 .* zeta = 1 gives 1.0000' sol.txt ||
        fail "solenoidal: $(grep fraction sol.txt)"
    "$check" png-plot sol.png || fail "png-plot sol.png"
    "$tbrf" spectrum comp.nc --quiet >comp.txt
    grep -q '^solenoidal fraction: measured 0.0000 .* zeta = 0 gives 0.0000' comp.txt ||
        fail "compressive: $(grep fraction comp.txt)"
    "$tbrf" spectrum mix.h5 --quiet >mix.txt
    f=$(awk '/^solenoidal fraction/ {print $4}' mix.txt)
    grep -q 'zeta = 0.5 gives 0.6667' mix.txt || fail "mixed: $(grep fraction mix.txt)"
    awk -v f="$f" 'BEGIN { d = f - 2 / 3; exit !(d < 0.09 && d > -0.09) }' ||
        fail "mixed: solenoidal share $f, not 2/3 within 0.09"
    "$tbrf" spectrum mix.h5 --component y --quiet >y.txt
    grep -q '^# tbrf spectrum mix.h5 (y component)' y.txt || fail "--component y: $(head -1 y.txt)"
    if grep -q 'P_sol\|solenoidal fraction' y.txt; then fail "one component has no parts"; fi
    refused 2 "--component 'magnitude' is not one of mix.h5's: x, y or z" \
        spectrum mix.h5 --component magnitude
    "$tbrf" drive --box $L --model band --kmin 1 --kmax 3 --zeta 0.5 --tcorr 0.5 --rms 1 \
        --times 0:1:0.5 --grid 16x16x16 --out s.h5 --quiet
    refused 2 'choose one with --frame 0..2 or --time T' spectrum s.h5
    "$tbrf" spectrum s.h5 --time 0.5 --plot s.png --quiet >s.txt
    grep -q '^# tbrf spectrum s.h5 (all components, t = 0.5, frame 1 of 0..2)' s.txt ||
        fail "series spectrum header: $(head -1 s.txt)"
    grep -q '^solenoidal fraction: measured .* zeta = 0.5 gives 0.6667' s.txt ||
        fail "series fraction: $(grep fraction s.txt)"
    grep -q '^slope: not fitted (a series' s.txt || fail "a series' slope: $(tail -1 s.txt)"
    ;;
options)
    "$tbrf" generate "${G[@]}" --grid 32x32 --seed 4 --out f.h5
    "$tbrf" preview f.h5 --cmap viridis --out seq.png --quiet
    "$check" png-seq seq.png || fail "--cmap viridis on signed data"
    "$tbrf" preview f.h5 --vmin -0.5 --vmax 0.5 --out lim.png --quiet
    "$check" png-slice lim.png 1 || fail "png-slice lim.png"
    "$tbrf" preview f.h5 --out auto.png --quiet
    if "$check" png-plane lim.png auto.png 2>/dev/null; then fail "--vmin/--vmax changed nothing"; fi
    refused 2 '--log needs a sequential map' preview f.h5 --log --cmap rdbu --out x.png
    refused 2 '--vmin 1 is not below --vmax 0' preview f.h5 --vmin 1 --vmax 0 --out x.png
    refused 2 "--cmap 'jet' is not one of rdbu, viridis, magma, gray" preview f.h5 --cmap jet --out x.png
    refused 1 '--log needs a positive range' preview f.h5 --log --vmin 0 --out x.png
    [ ! -e x.png ] || fail "a refused preview wrote x.png"
    "$tbrf" generate "${G[@]}" --grid 32x32 --vector compressive --seed 4 --out v.h5
    "$tbrf" preview v.h5 --component magnitude --log --cmap magma --out log.png --quiet
    [ -s log.png ] || fail "--log --cmap magma"
    ;;
*)
    echo "unknown case $case"
    exit 2
    ;;
esac
[ "$fails" -eq 0 ] || { echo "$case: $fails failure(s)"; exit 1; }
echo "$case: ok"
