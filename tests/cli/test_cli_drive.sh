#!/usr/bin/env bash
# test_cli_drive.sh TBRF H5DUMP CASE — `tbrf drive` (doc/cli.md, "drive")
# and the band/parabola models of `tbrf generate`:
#   restart  a series started at T0 = 1 holds bitwise the values of the
#            series from 0 at the same times (DT = 0.125, so the times
#            T0 + i DT of both runs are the same doubles), grid and points;
#            /time, the shapes and the recorded command are checked
#   restart_update  DT equal to the update interval and no interpolation:
#            a series from T0 = 50 (and from T0 written 0.3, a double below
#            fl(3 DT)) holds bitwise the frames of the series from 0, each
#            frame in its own update (T0 + i DT would put some an ulp before
#            their update and repeat the one before); the same /time
#   bad      bad arguments exit 2 with one "tbrf: " line, an unwritable
#            output exits 1, and neither leaves a file; --help exits 0;
#            non-finite coordinates or force, a series larger than the free
#            space (TBRF_TEST_FREE_SPACE) or the memory budget are refused
#   domain   --domain X0,Y0,Z0:X1,Y1,Z1 (no --box: turning bands): a
#            series started at T0 = 1 holds bitwise the values of the
#            series from 0, grid and points; points outside the domain,
#            --exact-rms, and --box with --domain are refused
#   output   the seed an integer attribute, --rms (of |f|) and
#            --rms-per-component give bitwise the same series, the 'wrote'
#            line names the .xmf, the progress bar, info's axis labels
#   models   generate --model band|parabola files regenerate bit for bit
#            (the model's attributes read back: model_kind, kmin, kmax)
#   turbgen  --turbgen TurbGen.par (tests/data/turbgen): its t_decay, dt,
#            sol_weight, seed and TurbGen's force rms recorded; the options
#            the file sets, an unknown key and ndim = 2.5 on a 3D grid
#            refused by name;
#            --amplitude-factor and --directions recorded as attributes
#            (fewer modes with --directions), a factor list of the wrong
#            length and --amplitude-factor beside --turbgen refused
set -euo pipefail
tbrf=$1 h5dump=$2 case=$3
tgpar=$(cd "$(dirname "${BASH_SOURCE[0]}")/../data/turbgen" && pwd)/TurbGen.par
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
K1=6.283185307179586 K3=18.84955592153876
common=(--box 1 --model band --kmin $K1 --kmax $K3 --zeta 0.6 --tcorr 0.5 --rms 2 --seed 9 --interpolate)

raw() { # file dataset start count out
    "$h5dump" -d "$2" -s "$3" -c "$4" -b LE -o "$5" "$1" >/dev/null
}

case $case in
restart)
    "$tbrf" drive "${common[@]}" --times 0:2:0.125 --grid 8x6x4 --out a.h5 --quiet
    "$tbrf" drive "${common[@]}" --times 1:2:0.125 --grid 8x6x4 --out b.h5 2>wrote.txt
    grep -q '^wrote b.h5 (+ b.xmf): 9 times of /field' wrote.txt
    "$h5dump" -H a.h5 | grep -q 'DATASPACE  SIMPLE { ( 17, 4, 6, 8, 3 )'
    raw a.h5 /field "8,0,0,0,0" "9,4,6,8,3" a.raw
    raw b.h5 /field "0,0,0,0,0" "9,4,6,8,3" b.raw
    test "$(stat -c %s b.raw)" -eq $((9 * 4 * 6 * 8 * 3 * 8))
    cmp a.raw b.raw
    raw a.h5 /time "8" "9" at.raw
    raw b.h5 /time "0" "9" bt.raw
    cmp at.raw bt.raw
    # the values are not all zero, and change in time
    raw a.h5 /field "0,0,0,0,0" "1,4,6,8,3" a0.raw
    raw a.h5 /field "1,0,0,0,0" "1,4,6,8,3" a1.raw
    if cmp -s a0.raw a1.raw; then echo 'the force does not change in time'; exit 1; fi
    "$h5dump" -a command b.h5 | grep -q -- '--times 1:2:0.125'
    # points: positions outside the box too (wrapped)
    printf '0.1 0.2 0.3\n-0.5 1.7 2.25\n0.9 0.9 0.01\n' > pts.txt
    "$tbrf" drive "${common[@]}" --times 0:1:0.125 --points pts.txt --out p.h5 --quiet
    "$tbrf" drive "${common[@]}" --times 0.5:1:0.125 --points pts.txt --out q.h5 --quiet
    "$h5dump" -H p.h5 | grep -q 'DATASPACE  SIMPLE { ( 9, 3, 3 )'
    raw p.h5 /value "4,0,0" "5,3,3" p.raw
    raw q.h5 /value "0,0,0" "5,3,3" q.raw
    cmp p.raw q.raw
    echo "drive: later starts give bitwise the values of a run from 0"
    ;;
restart_update)
    upd=(--box 1 --model band --kmin $K1 --kmax $K3 --zeta 0.6 --tcorr 1 --dt-update 0.1 --rms 2
         --seed 9 --grid 4x4x4 --quiet)
    "$tbrf" drive "${upd[@]}" --times 0:52:0.1 --out a.h5
    "$tbrf" drive "${upd[@]}" --times 50:52:0.1 --out b.h5
    "$tbrf" drive "${upd[@]}" --times 0.3:1:0.1 --out c.h5
    raw a.h5 /field "500,0,0,0,0" "21,4,4,4,3" a.raw
    raw b.h5 /field "0,0,0,0,0" "21,4,4,4,3" b.raw
    cmp a.raw b.raw
    raw a.h5 /time "500" "21" at.raw
    raw b.h5 /time "0" "21" bt.raw
    cmp at.raw bt.raw
    raw a.h5 /field "3,0,0,0,0" "8,4,4,4,3" a3.raw
    raw c.h5 /field "0,0,0,0,0" "8,4,4,4,3" c.raw
    cmp a3.raw c.raw
    # every frame its own update: consecutive frames differ
    raw b.h5 /field "0,0,0,0,0" "1,4,4,4,3" b0.raw
    raw b.h5 /field "1,0,0,0,0" "1,4,4,4,3" b1.raw
    if cmp -s b0.raw b1.raw; then echo 'two frames of one update'; exit 1; fi
    echo "drive: frames from T0 = 50 and T0 = 0.3 are the frames of a run from 0, one an update"
    ;;
bad)
    expect() { # exit-code pattern args...
        local want=$1 pat=$2 rc=0
        shift 2
        "$tbrf" drive "$@" 2>err.txt >/dev/null || rc=$?
        [ "$rc" -eq "$want" ] || { echo "exit $rc (want $want): $*"; cat err.txt; exit 1; }
        [ "$(wc -l < err.txt)" -eq 1 ] && grep -q "^tbrf: .*$pat" err.txt ||
            { echo "message for $*:"; cat err.txt; exit 1; }
        ! ls -A | grep -q 'out\.h5'
    }
    g=(--grid 4x4x4 --out out.h5)
    expect 2 'T0 <= T1' "${common[@]}" --times 2:1:0.1 "${g[@]}"
    expect 2 'zeta' --box 1 --model band --kmin $K1 --kmax $K3 --zeta 2 --tcorr 1 --rms 1 --times 0:1:0.1 "${g[@]}"
    expect 2 'tcorr' --box 1 --model band --kmin $K1 --kmax $K3 --zeta 1 --rms 1 --times 0:1:0.1 "${g[@]}"
    expect 2 'kmax' --box 1 --model band --zeta 1 --tcorr 1 --rms 1 --times 0:1:0.1 "${g[@]}"
    expect 2 'fundamental' --box 1 --model band --kmin 1 --kmax 2 --zeta 1 --tcorr 1 --rms 1 --times 0:1:0.1 "${g[@]}"
    expect 2 'NaN\|finite\|number' "${common[@]}" --times 0:1:nan "${g[@]}"
    expect 2 'one of' --box 1 --model nosuch --kmax 3 --zeta 1 --tcorr 1 --rms 1 --times 0:1:0.1 "${g[@]}"
    expect 2 'at most' "${common[@]}" --times 0:1e9:1e-3 "${g[@]}"
    expect 2 'geometry is 2D' --box 1,1,1 --model band --kmin $K1 --kmax $K3 --zeta 1 --tcorr 1 --rms 1 --times 0:1:0.5 --grid 4x4 --out out.h5
    expect 1 'out.h5' "${common[@]}" --times 0:1:0.5 --grid 4x4x4 --out nodir/out.h5
    # what would make the force or a coordinate
    # non-finite is refused naming the option, before anything is written
    expect 2 '--spacing 1e308: .*not finite' "${common[@]}" --times 0:1:0.5 --grid 4x4x4 --spacing 1e308 --out out.h5
    expect 2 '--injection gives a force rms of inf' --box 1 --model band --kmin $K1 --kmax $K3 --zeta 1 --tcorr 0.25 --injection 1e308 --times 0:1:0.5 --grid 4x4x4 --out out.h5
    # a force that overflows although every parameter is finite: each
    # computed time is checked, the message names the amplitude option
    expect 1 '--rms: the force at t = 0, cell [0-9]*, component [0-2], is -*inf: not finite' --box 1 --model band --kmin $K1 --kmax $K3 --zeta 1 --tcorr 1 --rms 1.7e308 --times 0:1:0.5 --grid 8x8x8 --out out.h5
    printf '1e308 0 0\n0.5 0.5 0.5\n' > far.txt
    expect 2 '--domain .* times kmax is not finite' --domain 0,0,0:1e308,1,1 --model band --kmin $K1 --kmax $K3 --zeta 1 --tcorr 1 --rms 1 --times 0:1:0.5 --grid 4x4x4 --out out.h5
    expect 2 'one of them' "${common[@]}" --rms-per-component 1 --times 0:1:0.5 --grid 4x4x4 --out out.h5
    # a series larger than the free space is refused
    # before anything is computed, naming both sizes (the free space
    # forced by the test-only TBRF_TEST_FREE_SPACE)
    TBRF_TEST_FREE_SPACE=1000000 expect 1 'out.h5: the series (/time, /field) needs 1.0[0-9]* MiB, but the folder has 0.95[0-9]* MiB free' "${common[@]}" --times 0:1:0.5 --grid 4x4x4 --out out.h5
    TBRF_TEST_FREE_SPACE=1000000 expect 1 'needs .* MiB, but the folder has' "${common[@]}" --times 0:1:0.5 --points far.txt --out out.h5
    # the memory budget: the driver's modes and a time's values
    TBRF_MEMORY_BUDGET=1K expect 2 'memory budget' "${common[@]}" --times 0:1:0.5 --grid 4x4x4 --out out.h5
    "$tbrf" drive --help | grep -q 'usage: tbrf drive'
    echo "drive: bad input refused with one message, nothing written"
    ;;
domain)
    dom=(--domain -0.5,0,0.25:0.5,1,1.75 --model band --kmin $K1 --kmax 12.566370614359172 --zeta 1
         --tcorr 0.5 --rms 2 --seed 9 --interpolate)
    "$tbrf" drive "${dom[@]}" --times 0:2:0.125 --grid 6x5x4 --out a.h5 --quiet
    "$tbrf" drive "${dom[@]}" --times 1:2:0.125 --grid 6x5x4 --out b.h5 --quiet
    "$h5dump" -H a.h5 | grep -q 'DATASPACE  SIMPLE { ( 17, 4, 5, 6, 3 )'
    "$h5dump" -a domain_length a.h5 | grep -q '1, 1, 1.5'
    raw a.h5 /field "8,0,0,0,0" "9,4,5,6,3" a.raw
    raw b.h5 /field "0,0,0,0,0" "9,4,5,6,3" b.raw
    cmp a.raw b.raw
    raw a.h5 /field "0,0,0,0,0" "1,4,5,6,3" a0.raw
    raw a.h5 /field "1,0,0,0,0" "1,4,5,6,3" a1.raw
    if cmp -s a0.raw a1.raw; then echo 'the force does not change in time'; exit 1; fi
    printf -- '-0.4 0.2 0.3\n0.45 0.9 1.7\n0 0.5 1\n' > pts.txt
    "$tbrf" drive "${dom[@]}" --times 0:1:0.125 --points pts.txt --out p.h5 --quiet
    "$tbrf" drive "${dom[@]}" --times 0.5:1:0.125 --points pts.txt --out q.h5 --quiet
    raw p.h5 /value "4,0,0" "5,3,3" p.raw
    raw q.h5 /value "0,0,0" "5,3,3" q.raw
    cmp p.raw q.raw
    refuse() { # pattern args...
        local pat=$1 rc=0
        shift
        "$tbrf" drive "$@" 2>err.txt >/dev/null || rc=$?
        [ "$rc" -ne 0 ] && grep -q "^tbrf: .*$pat" err.txt || { echo "not refused: $*"; cat err.txt; exit 1; }
        ! ls -A | grep -q 'out\.h5'
    }
    printf '0.6 0.5 1\n' > outside.txt
    refuse 'outside the domain' "${dom[@]}" --times 0:1:0.5 --points outside.txt --out out.h5
    refuse 'Parseval' "${dom[@]}" --exact-rms --times 0:1:0.5 --grid 4x4x4 --out out.h5
    refuse 'one of them' "${dom[@]}" --box 1 --times 0:1:0.5 --grid 4x4x4 --out out.h5
    refuse 'X1 <= X0' --domain 0,0,0:1,0,1 --model band --kmin $K1 --kmax 12.57 --zeta 1 --tcorr 1 --rms 1 --times 0:1:0.5 --grid 4x4x4 --out out.h5
    echo "drive --domain: later starts give bitwise the values of a run from 0; bad input refused"
    ;;
output)
    # the seed an integer, the |f| convention of --rms
    # and --rms-per-component, the side file named, a progress bar
    "$tbrf" drive "${common[@]}" --times 0:1:0.25 --grid 6x5x4 --out a.h5 2>wrote.txt
    grep -qx 'wrote a.h5 (+ a.xmf): 5 times of /field, [0-9]* modes' wrote.txt
    test -s a.xmf && grep -q 'CollectionType="Temporal"' a.xmf
    "$h5dump" -a seed a.h5 | grep -q 'H5T_STD_U64LE'
    "$h5dump" -a seed a.h5 | grep -q '(0): 9$'
    "$h5dump" -a rms_ensemble a.h5 | grep -q '(0): 2$'
    "$h5dump" -a rms_component_ensemble a.h5 | grep -q '(0): 1.1547'
    # --rms-per-component A is --rms A sqrt(3): the same values bit for bit
    per=("${common[@]/--rms/--rms-per-component}")
    per=("${per[@]/#2/1.1547005383792515}") # 2/sqrt(3) = 2 sqrt(3)/3, the double nearest
    "$tbrf" drive "${per[@]}" --times 0:1:0.25 --grid 6x5x4 --out b.h5 --quiet
    "$h5dump" -a rms_ensemble b.h5 | grep -q '(0): 2$'
    raw a.h5 /field "0,0,0,0,0" "5,4,5,6,3" a.raw
    raw b.h5 /field "0,0,0,0,0" "5,4,5,6,3" b.raw
    cmp a.raw b.raw
    "$tbrf" drive --help | grep -q -- '--rms A .*|f|'
    "$tbrf" drive --help | grep -q -- '--rms-per-component A'
    # the bar (forced on: stderr is no terminal here), ending at 100%, and
    # none with --quiet
    TBRF_PROGRESS=1 "$tbrf" drive "${common[@]}" --times 0:1:0.25 --grid 6x5x4 --out c.h5 2>bar.txt
    grep -q '100.0%  .* times/s' bar.txt
    TBRF_PROGRESS=1 "$tbrf" drive "${common[@]}" --times 0:1:0.25 --grid 6x5x4 --out c.h5 --quiet 2>bar.txt
    test ! -s bar.txt
    "$tbrf" info a.h5 | grep -q '/field .*(5, 4, 5, 6, 3).*\[time, nz, ny, nx, component\]'
    "$tbrf" info a.h5 | grep -q '^  seed  *= 9$'
    echo "drive: integer seed, --rms of |f| and per component, side file named, progress bar"
    ;;
models)
    for m in band parabola; do
        "$tbrf" generate --model $m --kmin 0.5 --kmax 2.5 --grid 24x20x16 --out $m.h5 2>/dev/null
        "$h5dump" -a model_kind $m.h5 | grep -q "\"$m\""
        "$tbrf" regenerate $m.h5 --out again_$m.h5 --check 2>/dev/null
    done
    echo "generate: band and parabola models round-trip through the file"
    ;;
turbgen)
    "$tbrf" drive --turbgen "$tgpar" --times 0:0.1:0.05 --grid 8x8x8 --out t.h5 --quiet
    "$h5dump" -H t.h5 | grep -q 'DATASPACE  SIMPLE { ( 3, 8, 8, 8, 3 )'
    "$h5dump" -a tcorr t.h5 | grep -q '(0): 0.5$'
    "$h5dump" -a dt_update t.h5 | grep -q '(0): 0.05$'
    "$h5dump" -a zeta t.h5 | grep -q '(0): 0.5$'
    "$h5dump" -a seed t.h5 | grep -q '(0): 140281$'
    "$h5dump" -a model_kind t.h5 | grep -q '"turbgen"'
    "$h5dump" -a rms_ensemble t.h5 | grep -q '(0): 2.2847'
    tg_refuse() { # pattern file args...
        local pat=$1 rc=0
        shift
        "$tbrf" drive --turbgen "$@" --times 0:0.1:0.05 --out r.h5 2>err.txt || rc=$?
        [ "$rc" -eq 2 ] && grep -q "^tbrf: .*$pat" err.txt || { echo "want '$pat':"; cat err.txt; exit 1; }
        [ ! -e r.h5 ]
    }
    tg_refuse '--zeta is set by --turbgen' "$tgpar" --zeta 1 --grid 8x8x8
    sed 's/^random_seed /randseed /' "$tgpar" > bad.par
    tg_refuse "'randseed' is not one tbrf honours" bad.par --grid 8x8x8
    sed 's/^ndim  *= 3 /ndim = 2.5 /' "$tgpar" > half.par
    # ndim = 2.5 is a 2D box of three components (drive_components.py)
    tg_refuse 'a 2D box (ndim), but the geometry is 3D' half.par --grid 8x8x8
    tg_refuse 'amplitude-factor is set by --turbgen' "$tgpar" --amplitude-factor 1,2,3 --grid 8x8x8
    # a power law's modes as TurbGen samples them (its 1032 for k = 1..16,
    # angles_exp 1): directions 7, 928 modes; --directions 0 every mode
    sed -e 's/^spect_form  *= 1 /spect_form = 2 /' -e 's/^k_max  *= 3.0 /k_max = 16.0 /' "$tgpar" > pl.par
    "$tbrf" drive --turbgen pl.par --times 0:0.1:0.05 --grid 4x4x4 --out p.h5 --quiet
    "$tbrf" drive --turbgen pl.par --directions 0 --times 0:0.1:0.05 --grid 4x4x4 --out a.h5 --quiet
    "$h5dump" -a directions p.h5 | grep -q '(0): 7$'
    "$h5dump" -a modes p.h5 | grep -q '(0): 928$'
    "$h5dump" -a directions a.h5 | grep -q '(0): 0$'
    "$h5dump" -a modes a.h5 | grep -q '(0): 8538$'
    wide=(--box 1 --model powerlaw --index -4 --kmin $K1 --kmax 100.6 --zeta 0.5 --tcorr 0.5 --rms 1
          --times 0:0.1:0.05 --grid 8x8x8 --quiet)
    "$tbrf" drive "${wide[@]}" --amplitude-factor 1,0.5,2 --directions 8 --out w.h5
    "$tbrf" drive "${wide[@]}" --out f.h5
    "$h5dump" -a amplitude_factor w.h5 | grep -q '(0): 1, 0.5, 2$'
    "$h5dump" -a directions w.h5 | grep -q '(0): 8$'
    "$h5dump" -a directions f.h5 | grep -q '(0): 0$'
    mw=$("$h5dump" -a modes w.h5 | sed -n 's/.*(0): //p') mf=$("$h5dump" -a modes f.h5 | sed -n 's/.*(0): //p')
    [ "$mf" -eq 8538 ] && [ "$mw" -lt 1300 ] || { echo "modes: full $mf, directions 8 $mw"; exit 1; }
    rc=0
    "$tbrf" drive "${wide[@]}" --amplitude-factor 1,2 --out r.h5 2>err.txt || rc=$?
    [ "$rc" -eq 2 ] && grep -q "amplitude-factor has 2 values" err.txt && [ ! -e r.h5 ]
    echo "drive --turbgen: TurbGen's parameters and force rms recorded, refusals named; a power law's directions as TurbGen's count; factors and directions recorded"
    ;;
*)
    echo "unknown case $case"
    exit 1
    ;;
esac
