#!/usr/bin/env bash
# test_mpi_drive.sh TBRF TBRF_MPI MPIRUN H5DUMP H5DIFF CASE — `mpirun -n N
# tbrf drive` (doc/mpi.md) against the serial command: the series written
# collectively by 2 and 3 ranks, each evaluating its planes of the grid (or
# rows of the points) at every time, is the serial file but for mpi_ranks:
# /time, /field or /points and /value bytes (h5dump -b), every other root
# attribute (h5diff finds no other difference, h5dump -A the same text)
# and the XDMF side file; a failing rank leaves no file; both ranks work
# (CPU); `arepo gas` is refused under mpirun. TBRF is the serial command,
# TBRF_MPI the MPI build (build/mpi/tbrf).
set -euo pipefail
serial=$1 tbrf=$2 mpirun=$3 h5dump=$4 h5diff=$5 case=$6
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
fail=0
root=()
[ "$(id -u)" = 0 ] && root=(--allow-run-as-root)
run_mpi() { # DIR N ARGS...: N ranks of the MPI command in DIR; rc.RANK and cpu.RANK there
    local dir=$1 n=$2
    shift 2
    mkdir -p "$dir"
    rm -f "$dir"/rc.* "$dir"/cpu.*
    (cd "$dir" && "$mpirun" --oversubscribe "${root[@]}" -n "$n" bash -c \
        '"$0" "$@"; echo $? > rc.$OMPI_COMM_WORLD_RANK; times > cpu.$OMPI_COMM_WORLD_RANK' \
        "$tbrf" "$@" >mpi.out 2>&1) || true
}
all_rc() { # DIR N: the ranks' exit statuses, "0 0 0"
    local s="" i
    for ((i = 0; i < $2; i++)); do s="$s $(cat "$1/rc.$i" 2>/dev/null || echo missing)"; done
    echo $s
}
zeros() { printf '0 %.0s' $(seq "$1") | sed 's/ $//'; }
cpu() { # DIR RANK: seconds of CPU of the rank's command (user + system)
    sed -n 2p "$1/cpu.$2" | awk '{ t = 0; for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); t += 60 * a[1] + a[2] } printf "%.3f", t }'
}
check() { # DESCRIPTION CONDITION...
    local what=$1
    shift
    if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; tail -20 "$last/mpi.out" 2>/dev/null | sed 's/^/  | /'; fail=1; fi
}
bytes() { # FILE DATASET: its raw little-endian bytes into FILE.DATASET.bin
    "$h5dump" -d "/$2" -b LE -o "$1.$2.bin" "$1" >/dev/null
}
attrs() { # FILE: h5dump's text of the root attributes but mpi_ranks
    "$h5dump" -A "$1" | sed '1d' | awk '/ATTRIBUTE "mpi_ranks"/ { skip = 1 } !skip { print } skip && /^   }$/ { skip = 0 }'
}
only_mpi_ranks_differ() { # A B: h5diff's only difference is the attribute mpi_ranks
    local d
    d=$("$h5diff" -v "$1" "$2" | awk '/^(attribute|dataset|group):/ { obj = $0 } /^[1-9][0-9]* differences? found/ { print obj }' || true)
    [ "$d" = "attribute: <mpi_ranks of </>> and <mpi_ranks of </>>" ]
}
last=.
same_as_serial() { # NAME DATASETS ARGS...: the serial series vs 2 and 3 ranks
    local name=$1 dsets=$2 n d
    shift 2
    mkdir -p "s_$name"
    (cd "s_$name" && "$serial" drive "$@" --out d.h5 --quiet)
    attrs "s_$name/d.h5" >"s_$name/attrs.txt"
    for d in ${dsets//,/ }; do bytes "s_$name/d.h5" "$d"; done
    for n in 2 3; do
        last="p${n}_$name"
        run_mpi "$last" "$n" drive "$@" --out d.h5 --quiet
        check "$name: $n ranks exit 0 ($(all_rc "$last" $n))" test "$(all_rc "$last" $n)" = "$(zeros $n)"
        [ -f "$last/d.h5" ] || { check "$name: $n ranks wrote the series" false; continue; }
        for d in ${dsets//,/ }; do
            bytes "$last/d.h5" "$d"
            check "$name: $n ranks: /$d bytes = the serial series'" cmp -s "s_$name/d.h5.$d.bin" "$last/d.h5.$d.bin"
        done
        check "$name: $n ranks: h5diff finds only mpi_ranks" only_mpi_ranks_differ "s_$name/d.h5" "$last/d.h5"
        attrs "$last/d.h5" >"$last/attrs.txt"
        check "$name: $n ranks: every other attribute (command included) as the serial" \
            cmp -s "s_$name/attrs.txt" "$last/attrs.txt"
        check "$name: $n ranks: mpi_ranks = $n" \
            test "$("$h5dump" -a /mpi_ranks "$last/d.h5" | sed -n 's/^ *(0): \([0-9]*\).*/\1/p')" = "$n"
        check "$name: $n ranks: the XDMF side file as the serial" cmp -s "s_$name/d.xmf" "$last/d.xmf"
    done
}
no_file_left() { # DIR: no series nor temporary in it
    ! ls -a "$1" | grep -q 'd\.'
}

BAND=(--model band --kmin 6.283 --kmax 18.85 --zeta 0.5 --tcorr 1 --rms 1)
DOMAIN=(--domain -0.5,0,0.25:0.5,1,1.75 --model band --kmin 6.283 --kmax 12.57 --zeta 1 --tcorr 1 --rms 1
        --times 0:1:0.25)
case $case in
grid)
    # 3D: 17 planes split 9/8 and 6/6/5, each rank its planes one call a
    # plane; a restart time off 0, interpolation, the exact rms
    same_as_serial grid3d time,field --box 1 "${BAND[@]}" --times 0:1:0.1 --grid 20x18x17
    same_as_serial grid3d_opts time,field --box 1,1.5,2 "${BAND[@]}" --times 0.3:1.2:0.15 \
        --grid 16x12x10 --interpolate --exact-rms --seed 7
    # fewer planes than ranks: rank 2 of 3 writes nothing
    same_as_serial thin time,field --box 1 "${BAND[@]}" --times 0:0.5:0.1 --grid 12x10x2
    # 2D (rows), three components in 2D, and a 1D box (cells)
    same_as_serial grid2d time,field --box 1,1 "${BAND[@]}" --times 0:1:0.25 --grid 33x25
    same_as_serial grid2d_c3 time,field --box 1,1 "${BAND[@]}" --times 0:1:0.25 --grid 24x19 --components 3
    same_as_serial grid1d time,field --box 1 "${BAND[@]}" --times 0:1:0.2 --grid 37 --components 3
    # the NUFFT's interpolation
    same_as_serial nufft time,field --box 1 "${BAND[@]}" --times 0:1:0.2 --grid 18x16x15 --eval nufft
    # a non-periodic domain's grid (turning bands, whose projection of a
    # part of a grid rounds otherwise) is refused with its reason, once
    last=domain
    run_mpi domain 2 drive "${DOMAIN[@]}" --grid 14x13x11 --out d.h5
    check "domain grid: every rank fails ($(all_rc domain 2))" test "$(all_rc domain 2)" = "2 2"
    check "domain grid: the reason, once" test "$(grep -c 'domain with --grid is not split over MPI ranks' domain/mpi.out)" = 1
    check "domain grid: no file" no_file_left domain
    ;;
points)
    awk 'BEGIN { srand(5); for (i = 0; i < 2003; i++) printf "%.17g %.17g %.17g\n", rand(), rand(), rand() }' >pts.txt
    awk 'BEGIN { srand(9); for (i = 0; i < 1001; i++) printf "%.17g %.17g\n", rand(), rand() }' >pts2.txt
    same_as_serial points time,points,value --box 1 "${BAND[@]}" --times 0:1:0.1 --points ../pts.txt
    same_as_serial points2d time,points,value --box 1,1 "${BAND[@]}" --times 0:1:0.2 --points ../pts2.txt \
        --eval nufft
    # a non-periodic domain's points (turning bands): split too
    awk 'BEGIN { srand(8); for (i = 0; i < 999; i++) printf "%.17g %.17g %.17g\n", rand() - 0.5, rand(), 0.25 + 1.5 * rand() }' >ptsd.txt
    same_as_serial points_domain time,points,value "${DOMAIN[@]}" --points ../ptsd.txt
    ;;
work)
    # both ranks evaluate, each its share: TBRF_TEST_DRIVE_SHARES=1 makes
    # each rank say how many positions it evaluated, which must be its
    # half of every time (40000 points: 20000 each, 31 times), the two
    # adding up to the whole; counted, not timed (a loaded or
    # oversubscribed node makes CPU seconds a poor witness: ranks waiting
    # in the collective writes spin). The CPU of each rank is shown.
    awk 'BEGIN { srand(3); for (i = 0; i < 40000; i++) printf "%.17g %.17g %.17g\n", rand(), rand(), rand() }' >pts.txt
    W=(--box 1 --model band --kmin 6.283 --kmax 25.2 --zeta 0.5 --tcorr 1 --rms 1 --times 0:3:0.1
       --eval direct --threads 1 --points ../pts.txt --out d.h5 --quiet)
    mkdir -p s && (cd s && bash -c '"$0" "$@"; times > cpu.0' "$serial" drive "${W[@]}")
    last=p
    TBRF_TEST_DRIVE_SHARES=1 run_mpi p 2 drive "${W[@]}"
    check "work: 2 ranks exit 0 ($(all_rc p 2))" test "$(all_rc p 2)" = "0 0"
    echo "CPU (shown, not checked): serial $(cpu s 0) s; 2 ranks: $(cpu p 0) s and $(cpu p 1) s"
    check "work: rank 0 evaluated rows 0.. of every time" \
        grep -qx "tbrf: test: rank 0 evaluated 620000 positions: 20000 a time from 0" p/mpi.out
    check "work: rank 1 evaluated rows 20000.. of every time" \
        grep -qx "tbrf: test: rank 1 evaluated 620000 positions: 20000 a time from 20000" p/mpi.out
    bytes s/d.h5 value
    bytes p/d.h5 value
    check "work: /value bytes = the serial series'" cmp -s s/d.h5.value.bin p/d.h5.value.bin
    # 3 ranks of a 3D grid's 17 planes: 6, 6 and 5 planes of 20 x 18 cells
    last=g3
    TBRF_TEST_DRIVE_SHARES=1 run_mpi g3 3 drive --box 1 "${BAND[@]}" --times 0:1:0.5 --grid 20x18x17 --out d.h5 --quiet
    check "work: 3 ranks exit 0 ($(all_rc g3 3))" test "$(all_rc g3 3)" = "0 0 0"
    for share in "0 6480 2160 0" "1 6480 2160 2160" "2 5400 1800 4320"; do
        set -- $share
        check "work: grid, rank $1 evaluated its $(($3 / 360)) planes of each of 3 times" \
            grep -qx "tbrf: test: rank $1 evaluated $2 positions: $3 a time from $4" g3/mpi.out
    done
    ;;
failures)
    # a rank whose --points file is missing fails every rank, once, and
    # leaves neither the series nor a temporary
    awk 'BEGIN { for (i = 0; i < 100; i++) printf "%g %g %g\n", (i % 10) / 10, (i % 7) / 7, (i % 3) / 3 }' >pts.txt
    mkdir -p one/elsewhere && cp pts.txt one/
    last=one
    (cd one && "$mpirun" --oversubscribe "${root[@]}" \
        -n 2 bash -c '"$0" "$@"; echo $? > rc.$OMPI_COMM_WORLD_RANK' "$tbrf" drive --box 1 "${BAND[@]}" \
        --times 0:1:0.5 --points pts.txt --out "$work/one/d.h5" : \
        -n 1 -wdir "$work/one/elsewhere" bash -c '"$0" "$@"; echo $? > '"$work"'/one/rc.$OMPI_COMM_WORLD_RANK' \
        "$tbrf" drive --box 1 "${BAND[@]}" --times 0:1:0.5 --points pts.txt --out "$work/one/d.h5" \
        >mpi.out 2>&1) || true
    check "one rank's bad input: every rank fails ($(all_rc one 3))" bash -c '! grep -qx 0 one/rc.0 one/rc.1 one/rc.2'
    check "one rank's bad input: it says why" grep -q "rank 2: .*pts.txt" one/mpi.out
    check "one rank's bad input: no series, no temporary" no_file_left one
    # a rank failing in its evaluation: the last point, rank 2's, lies
    # outside the domain; the driver refuses it at the first time, every
    # rank stops there, the reason is said once, and nothing is left
    awk 'BEGIN { for (i = 0; i < 299; i++) printf "%g %g %g\n", (i % 10) / 10 - 0.45, (i % 7) / 7, 0.3 + (i % 3) / 3 }
         END { print "0.7 0.5 1" }' >out.txt
    last=outside
    run_mpi outside 3 drive "${DOMAIN[@]}" --points ../out.txt --out d.h5
    check "a rank's failed evaluation: every rank fails ($(all_rc outside 3))" \
        bash -c '! grep -qx 0 outside/rc.0 outside/rc.1 outside/rc.2'
    check "a rank's failed evaluation: rank 2 says why, once" \
        test "$(grep -c "rank 2: drive: this rank's points start at row 200 of --points: .*point 99 .*outside the domain" outside/mpi.out)" = 1
    check "a rank's failed evaluation: nothing else said" test "$(grep -c . outside/mpi.out)" = 1
    check "a rank's failed evaluation: no series, no temporary" no_file_left outside
    # an unwritable folder: every rank fails, no file
    last=nodir
    run_mpi nodir 2 drive --box 1 "${BAND[@]}" --times 0:1:0.5 --grid 8x8x8 --out nodir/d.h5
    check "unwritable path: every rank fails ($(all_rc nodir 2))" bash -c '! grep -qx 0 nodir/rc.0 nodir/rc.1'
    check "unwritable path: the reason" grep -q "cannot write in the folder nodir" nodir/mpi.out
    # drive writes HDF5 only (no --format, serial or not): refused as the
    # serial command refuses it, on every rank, no file
    last=nc
    run_mpi nc 2 drive --box 1 "${BAND[@]}" --times 0:1:0.5 --grid 8x8x8 --format netcdf --out d.nc
    check "--format netcdf: every rank fails ($(all_rc nc 2))" test "$(all_rc nc 2)" = "2 2"
    check "--format netcdf: refused" grep -q "drive: unknown option '--format'" nc/mpi.out
    check "--format netcdf: no file" no_file_left nc
    # ranks given different command lines (a series of mixed seeds)
    last=mix
    mkdir -p mix
    (cd mix && "$mpirun" --oversubscribe "${root[@]}" \
        -n 1 bash -c '"$0" "$@"; echo $? > rc.$OMPI_COMM_WORLD_RANK' "$tbrf" drive --box 1 "${BAND[@]}" \
        --times 0:1:0.5 --grid 8x8x8 --seed 1 --out d.h5 : \
        -n 1 bash -c '"$0" "$@"; echo $? > rc.$OMPI_COMM_WORLD_RANK' "$tbrf" drive --box 1 "${BAND[@]}" \
        --times 0:1:0.5 --grid 8x8x8 --seed 2 --out d.h5 >mpi.out 2>&1) || true
    check "different command lines: every rank fails ($(all_rc mix 2))" bash -c '! grep -qx 0 mix/rc.0 mix/rc.1'
    check "different command lines: said so" grep -q "different command lines" mix/mpi.out
    check "different command lines: no file" no_file_left mix
    # a series written by 3 ranks regenerates bitwise with the serial command
    last=regen
    run_mpi regen 3 drive --box 1 "${BAND[@]}" --times 0:1:0.25 --grid 10x9x8 --out d.h5 --quiet
    check "regenerate --check of a 3-rank series" "$serial" regenerate regen/d.h5 --out regen/again.h5 --check --quiet
    # --help: the usage once, every rank 0
    last=help
    run_mpi help 2 drive --help
    check "--help: both ranks exit 0" test "$(all_rc help 2)" = "0 0"
    check "--help: the usage once" test "$(grep -c '^usage: tbrf drive' help/mpi.out)" = 1
    ;;
arepo_gas)
    # arepo gas is not split over ranks: refused under mpirun with its
    # reason, once, non-zero on every rank, no file
    last=gas
    run_mpi gas 2 arepo gas --out g --box 1 --lattice 8 --density lognormal --sigma 0.5 --model gaussian \
        --length 0.1 --temperature 1e4
    check "arepo gas: every rank fails ($(all_rc gas 2))" bash -c '! grep -qx 0 gas/rc.0 gas/rc.1'
    check "arepo gas: the reason, once" test "$(grep -c 'arepo gas: not split over MPI ranks' gas/mpi.out)" = 1
    check "arepo gas: it says how to run it" grep -q "run it without mpirun" gas/mpi.out
    check "arepo gas: no file" bash -c '! ls gas | grep -q "^g"'
    # the MPI build without mpirun is the serial command
    (cd gas && "$tbrf" arepo gas --out g --box 1 --lattice 8 --density lognormal --sigma 0.5 --model gaussian \
        --length 0.1 --temperature 1e4 --quiet)
    check "arepo gas: without mpirun it runs" test -s gas/g.hdf5
    ;;
*)
    echo "unknown case $case"
    exit 2
    ;;
esac
exit $fail
