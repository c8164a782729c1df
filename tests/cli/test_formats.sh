#!/usr/bin/env bash
# test_formats.sh TBRF NCCOPY SRC CASE — io by format in both directions:
#   reader    netCDF files are read through the netCDF reader of the
#             reader table, not as HDF5: a CDF5 copy of tbrf's netCDF-4
#             output (nccopy -k cdf5: no HDF5 inside) answers `tbrf info`
#             with its dimensions and variables, `regenerate --check`
#             bitwise for a scalar grid, a 2D float grid, a 2D vector
#             grid (field_x, field_y) and points, and `sample`, `preview` and `spectrum`
#             give what they give on the netCDF-4 original (the same
#             spectrum, the same sampled values); a netCDF file without
#             the grid's variable is refused naming netCDF's variable,
#             not an HDF5 dataset
#   registry  --format takes the registry's names (an unknown one is
#             refused listing them), --format netcdf writes netCDF
#             whatever the name, the wrote line names the format's own
#             objects, --no-xdmf is refused for netCDF; a file of no
#             format the readers know is refused naming the formats
#   confined  (SRC: the source root) no file of io/ outside the HDF5
#             format's (hdf5_*.c, hdf5_format.h) calls or includes HDF5;
#             the writer struct holds no format's field and no file
#             compares w->ops with a format
set -euo pipefail
tbrf=$1 nccopy=$2 src=$3 case=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
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
reader)
    printf '0 0 0\n1 2 3\n0.5 0.25 4\n2 2 2\n' >pts.txt
    "$tbrf" generate "${G[@]}" --grid 24x20x16 --seed 4 --out g.nc
    "$tbrf" generate "${G[@]}" --grid 24x20 --vector compressive --seed 5 --out v.nc
    "$tbrf" generate "${G[@]}" --grid 20x12 --precision float --compress --seed 7 --out f.nc
    "$tbrf" generate "${G[@]}" --points pts.txt --seed 6 --out p.nc
    for f in g v p f; do
        "$nccopy" -k cdf5 $f.nc ${f}5.nc || fail "nccopy -k cdf5 $f.nc"
        [ "$(head -c 3 ${f}5.nc)" = CDF ] || fail "${f}5.nc is no classic netCDF file"
        ! grep -q HDF ${f}5.nc || fail "${f}5.nc holds HDF5"
    done
    "$tbrf" info g5.nc >info.txt || fail "info g5.nc"
    grep -q '^file: g5.nc (netCDF classic)' info.txt || fail "info g5.nc: no netCDF file line"
    grep -q '^dimensions:' info.txt || fail "info g5.nc: no dimensions"
    grep -Eq '^  field +float64  \(z 16, y 20, x 24\)' info.txt || fail "info g5.nc: no field(z, y, x)"
    grep -Eq '^  model_kind +.*= "powerlaw"' info.txt || fail "info g5.nc: no model_kind"
    "$tbrf" info g.nc | grep -q '^file: g.nc (netCDF-4)' || fail "info g.nc: not read as netCDF-4"
    for f in g g5 v v5 p p5 f f5; do
        "$tbrf" regenerate $f.nc --out r_$f.h5 --check --quiet 2>err.txt >out.txt ||
            fail "regenerate --check $f.nc: $(cat err.txt)"
        grep -q "bitwise equal to $f.nc" out.txt || fail "regenerate --check $f.nc: $(cat out.txt)"
    done
    "$tbrf" spectrum g.nc >s4.txt || fail "spectrum g.nc"
    "$tbrf" spectrum g5.nc >s5.txt || fail "spectrum g5.nc"
    diff <(grep -v '^#' s4.txt) <(grep -v '^#' s5.txt) >/dev/null || fail "spectrum g5.nc differs from g.nc's"
    grep -qv '^#' s5.txt || fail "spectrum g5.nc: no bins"
    "$tbrf" preview g5.nc --out g5.png --quiet || fail "preview g5.nc"
    [ -s g5.png ] || fail "preview g5.nc wrote no picture"
    "$tbrf" preview v5.nc --component magnitude --out v5.png --quiet || fail "preview v5.nc"
    "$tbrf" sample g.nc --points pts.txt --out s4.nc --quiet || fail "sample g.nc"
    "$tbrf" sample g5.nc --points pts.txt --out s5.nc --quiet || fail "sample g5.nc"
    "$tbrf" regenerate s5.nc --out rs5.h5 --check --quiet >/dev/null || fail "regenerate --check s5.nc"
    # the samples of the two copies hold the same values
    ncdump=$(dirname "$nccopy")/ncdump
    [ "$("$ncdump" -v value s4.nc | sed -n '/^data:/,$p')" = "$("$ncdump" -v value s5.nc | sed -n '/^data:/,$p')" ] ||
        fail "sample of g5.nc differs from g.nc's"
    "$ncdump" -v value s5.nc | grep -q 'value = ' || fail "sample s5.nc: no values"
    "$nccopy" -k cdf5 -V x,y,z g.nc nofield.nc || fail "nccopy -V"
    refused 1 'nofield.nc has no variable field' preview nofield.nc --out x.png
    ;;
registry)
    refused 2 'unknown output format raw \(available: hdf5, netcdf\)' \
        generate "${G[@]}" --grid 8x8 --format raw --out r.h5
    [ ! -e r.h5 ] || fail "a refused format wrote r.h5"
    "$tbrf" generate "${G[@]}" --grid 8x8 --format netcdf --out plain 2>/dev/null || fail "--format netcdf"
    "$tbrf" info plain | grep -q '(netCDF-4)' || fail "--format netcdf did not write netCDF"
    "$tbrf" generate "${G[@]}" --grid 8x8 --format hdf5 --out h.nc || fail "--format hdf5 h.nc"
    "$tbrf" info h.nc | grep -q '^objects:' || fail "--format hdf5 h.nc did not write HDF5"
    G2=(--model powerlaw --index -3 --kmin 0.2 --kmax 3)
    "$tbrf" generate "${G2[@]}" --grid 8x8x8 --vector solenoidal --out v.nc 2>err.txt
    grep -q 'wrote v.nc: field_x, field_y, field_z 8x8x8 float64' err.txt || fail "wrote line (netCDF): $(cat err.txt)"
    "$tbrf" generate "${G2[@]}" --grid 8x8x8 --vector solenoidal --out v.h5 2>err.txt
    grep -q 'wrote v.h5 (+ v.xmf): /field 8x8x8x3 float64' err.txt || fail "wrote line (HDF5): $(cat err.txt)"
    refused 2 'no-xdmf applies to HDF5 output only' generate "${G[@]}" --grid 8x8 --out n.nc --no-xdmf
    # a file of no format the readers know is refused naming the formats
    echo "not a field" >notes.nc
    refused 1 'notes.nc is not a file of a format tbrf reads \(netCDF, HDF5\)' info notes.nc
    refused 1 'input file notes.nc is not a file of a format tbrf reads' regenerate notes.nc --out r.h5
    ;;
confined)
    cd "$src/io"
    for f in *.c *.h; do
        case $f in hdf5_*) continue ;; esac
        # code lines only (comments may name HDF5's functions)
        if grep -vE '^ *(/?\*|//)' "$f" | grep -Eq '\bH5[A-Za-z_]*[0-9]*[[:space:]]*\(|\bhid_t\b|\bhsize_t\b|#include <hdf5'; then
            fail "io/$f calls or includes HDF5 outside the HDF5 format's files"
        fi
    done
    struct=$(sed -n '/^struct tbrf_io_writer {/,/^};/p' io_internal.h)
    [ -n "$struct" ] || fail "no struct tbrf_io_writer in io_internal.h"
    ! grep -Eq 'hid_t|ncid|nc_|pts_dset|val_dset' <<<"$struct" || fail "the writer struct holds a format's field"
    ! grep -nE 'ops *[!=]= *&io_' *.c || fail "a file compares w->ops with a format"
    ;;
*)
    echo "unknown case $case"
    exit 2
    ;;
esac
[ "$fails" -eq 0 ] || exit 1
echo "test_formats $case: ok"
