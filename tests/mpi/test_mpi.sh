#!/usr/bin/env bash
# test_mpi.sh TBRF TBRF_MPI MPIRUN H5DUMP CASE — `mpirun -n N tbrf generate`
# (doc/mpi.md) against the serial command: the /field (or /value,
# /points) bytes of 1, 2, 3 and 4 ranks equal the serial file's, the root
# attribute mpi_ranks says how many ranks wrote it, and a failing rank
# makes every rank fail and leaves no file; HDF5 and netCDF-4. TBRF is the serial command,
# TBRF_MPI the MPI build (build/mpi/tbrf).
set -euo pipefail
serial=$1 tbrf=$2 mpirun=$3 h5dump=$4 case=$5
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
fail=0
run_mpi() { # N ARGS...: N ranks of the MPI command; each rank's exit status in rc.RANK
    local n=$1
    shift
    local root=()
    [ "$(id -u)" = 0 ] && root=(--allow-run-as-root)
    "$mpirun" --oversubscribe "${root[@]}" -n "$n" sh -c '"$0" "$@"; echo $? > rc.$OMPI_COMM_WORLD_RANK' \
        "$tbrf" "$@" >mpi.out 2>&1 || true
}
all_rc() { # N: the ranks' exit statuses, "0 0 0"
    local s="" i
    for ((i = 0; i < $1; i++)); do s="$s $(cat rc.$i 2>/dev/null || echo missing)"; done
    echo $s
}
bytes() { # FILE DATASET -> FILE.DATASET.bin, the dataset's raw little-endian bytes
    "$h5dump" -d "/$2" -b LE -o "$1.$2.bin" "$1" >/dev/null
}
attr() { # FILE NAME: the integer value of a root attribute
    "$h5dump" -a "/$2" "$1" | sed -n 's/^ *(0): \([0-9]*\).*/\1/p'
}
check() { # DESCRIPTION CONDITION...
    local what=$1
    shift
    if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; sed 's/^/  | /' mpi.out 2>/dev/null | tail -20; fail=1; fi
}
same_as_serial() { # NAME DATASETS ARGS...: serial file vs 1..4 ranks, bytes and mpi_ranks
    # DATASETS: comma-separated; the output is NAME.$EXT (h5, or nc for netCDF-4)
    local name=$1 dsets=$2 ext=${EXT:-h5} d
    shift 2
    "$serial" generate "$@" --out "s_$name.$ext" --quiet
    check "$name: the serial file records mpi_ranks = 1" test "$(attr "s_$name.$ext" mpi_ranks)" = 1
    # the MPI build run alone is the serial command
    "$tbrf" generate "$@" --out "a_$name.$ext" --quiet
    for d in ${dsets//,/ }; do
        bytes "s_$name.$ext" "$d"
        bytes "a_$name.$ext" "$d"
        check "$name: /$d: the MPI build without mpirun = serial" cmp -s "s_$name.$ext.$d.bin" "a_$name.$ext.$d.bin"
    done
    for n in 1 2 3 4; do
        rm -f rc.*
        run_mpi "$n" generate "$@" --out "p${n}_$name.$ext" --quiet
        check "$name: $n ranks exit 0 ($(all_rc $n))" test "$(all_rc $n)" = "$(printf '0 %.0s' $(seq $n) | sed 's/ $//')"
        [ -f "p${n}_$name.$ext" ] || { check "$name: $n ranks wrote the file" false; continue; }
        for d in ${dsets//,/ }; do
            bytes "p${n}_$name.$ext" "$d"
            check "$name: $n ranks: /$d bytes = the serial file's" cmp -s "s_$name.$ext.$d.bin" "p${n}_$name.$ext.$d.bin"
        done
        check "$name: $n ranks: mpi_ranks = $n" test "$(attr "p${n}_$name.$ext" mpi_ranks)" = "$n"
    done
}
no_file_left() { # NAME: neither NAME nor a temporary of it
    ! ls -a | grep -q -- "$1"
}

PL=(--model powerlaw --index -3 --kmin 0.05 --kmax 3)
case $case in
grid)
    # the issue's command, on a 48^3 grid; 3 ranks split 48 planes 16/16/16,
    # 4 ranks 12 each; every rank pushes in several chunks (--chunk)
    same_as_serial grid field "${PL[@]}" --grid 48x40x36 --chunk 5000
    # fewer planes than ranks: rank 3 of 4 evaluates nothing
    same_as_serial thin field "${PL[@]}" --grid 16x12x3
    same_as_serial grid2d field --model matern --length 4 --nu 1.5 --grid 64x45
    ;;
grid_options)
    # float, compressed (collective filtered writes), a solenoidal vector
    same_as_serial vector field "${PL[@]}" --grid 30x28x26 --precision float --compress \
        --vector solenoidal --chunk 3000
    # the FFT method: one transform distributed over the ranks (FFTW-MPI)
    same_as_serial fft field --model gaussian --length 3 --grid 32x24x20 --method fft
    ;;
fft)
    # the distributed FFT method (tbrf_mpi_fft_stream): FFTW-MPI's blocks of
    # ceil(n/P) planes, so 25 planes are 13+12 on 2 ranks, 9+9+7 on 3 and
    # 7+7+7+4 on 4, and 3 planes leave rank 3 of 4 without any; odd and
    # even n_x; float and double; 2D; vectors; a box lattice off the origin
    same_as_serial fft_nd field "${PL[@]}" --grid 25x25x25 --method fft --chunk 700
    same_as_serial fft_odd field --model gaussian --length 3 --grid 33x17x19 --method fft --precision float
    same_as_serial fft_thin field --model gaussian --length 2 --grid 16x12x3 --method fft
    same_as_serial fft_vec field "${PL[@]}" --grid 21x18x22 --method fft --vector mixed --zeta 0.3
    same_as_serial fft_vecf field "${PL[@]}" --grid 20x18x17 --method fft --vector solenoidal --precision float \
        --compress
    same_as_serial fft_2d field --model matern --length 4 --nu 1.5 --grid 64x45 --method fft
    same_as_serial fft_2dv field --model matern --length 4 --nu 1.5 --grid 51x33 --method fft --precision float \
        --vector compressive
    same_as_serial fft_box field --model powerlaw --index -3 --kmin 0.7 --kmax 3 --grid 20x20x20 --box 10,10,10 --origin 1,2,3
    # double: the serial command transforms out of place, the distributed
    # one in place, which FFTW rounds differently at some sizes (n_x = 256
    # here): any number of ranks gives the same bits, within the stated
    # bound of the serial file (doc/mpi.md: 2 log2(N) eps max|f|), and in
    # float (the serial command's transform is in place too) its bits
    "$serial" generate "${PL[@]}" --grid 256x32x32 --method fft --out tol_s.h5 --quiet
    "$serial" generate "${PL[@]}" --grid 256x32x32 --method fft --precision float --out tol_sf.h5 --quiet
    bytes tol_s.h5 field
    bytes tol_sf.h5 field
    for n in 2 3 4; do
        run_mpi "$n" generate "${PL[@]}" --grid 256x32x32 --method fft --out "tol_p$n.h5" --quiet
        bytes "tol_p$n.h5" field
        run_mpi "$n" generate "${PL[@]}" --grid 256x32x32 --method fft --precision float --out "tol_pf$n.h5" --quiet
        bytes "tol_pf$n.h5" field
        check "fft double: $n ranks = 2 ranks, bitwise" cmp -s tol_p2.h5.field.bin "tol_p$n.h5.field.bin"
        check "fft float: $n ranks = the serial file, bitwise" cmp -s tol_sf.h5.field.bin "tol_pf$n.h5.field.bin"
    done
    paste <(od -A n -v -t f8 -w8 tol_s.h5.field.bin) <(od -A n -v -t f8 -w8 tol_p3.h5.field.bin) |
        awk '{ d = $1 - $2; if (d < 0) d = -d; if (d > dm) dm = d; a = $1 < 0 ? -$1 : $1; if (a > am) am = a; n++ }
             END { printf "%d %.3g %.3g\n", n, dm, 2 * log(n) / log(2) * 2^-52 * am }' >tol.out
    check "fft double: 3 ranks within 2 log2(N) eps max|f| of the serial file (cells, max diff, bound: $(cat tol.out))" \
        awk '{ exit !($1 == 262144 && $2 <= $3) }' tol.out
    EXT=nc same_as_serial fft_nc field,x,z --model gaussian --length 3 --grid 24x20x18 --method fft \
        --precision float
    # --periodic (auto) under mpirun: the distributed FFT, said once; on a
    # grid whose default lines (capped at 16384) would be anisotropic too
    rm -f rc.*
    run_mpi 3 generate "${PL[@]}" --grid 170x8x8 --periodic --out auto.h5
    check "auto: 3 ranks exit 0 ($(all_rc 3))" test "$(all_rc 3)" = "0 0 0"
    check "auto: the distributed FFT, said once" test "$(grep -c 'the FFT method, one transform distributed over 3 ranks' mpi.out)" = 1
    check "auto: its reason, the default lines' isotropy" grep -q "isotropic only below the Nyquist" mpi.out
    "$serial" generate "${PL[@]}" --grid 170x8x8 --method fft --out auto_s.h5 --quiet
    bytes auto.h5 field
    bytes auto_s.h5 field
    check "auto: the serial FFT method's bytes" cmp -s auto.h5.field.bin auto_s.h5.field.bin
    ;;
periodic)
    # a periodic box: on its lattice (FFT) and off it (NUFFT), a vector field
    same_as_serial lattice field "${PL[@]}" --grid 24x24x24 --box 24,24,24
    same_as_serial nufft field "${PL[@]}" --grid 20x22x25 --box 12,12,12 --vector mixed --zeta 0.3
    ;;
points)
    "$serial" generate "${PL[@]}" --grid 2x2x2 --out seed.h5 --quiet # a file to make points from
    awk 'BEGIN { srand(7); for (i = 0; i < 20011; i++) printf "%.17g %.17g %.17g\n", 10*rand(), 10*rand(), 10*rand() }' >pts.txt
    same_as_serial points_text value --model gaussian --length 2 --points pts.txt
    same_as_serial points_text_pos points --model gaussian --length 2 --points pts.txt --compress
    same_as_serial points_box value "${PL[@]}" --points pts.txt --box 10,10,10 --vector compressive
    # positions read in pieces from an HDF5 /points (a points file tbrf wrote),
    # and from a netCDF one
    same_as_serial points_h5 value --model exponential --length 1.5 --points s_points_text.h5
    "$serial" generate --model gaussian --length 2 --points pts.txt --out pts.nc --quiet
    same_as_serial points_nc value --model exponential --length 1.5 --points pts.nc
    ;;
netcdf)
    # netCDF-4 (CF) written in parallel: the field, its coordinates and
    # bounds; compressed float vector components; points with positions
    EXT=nc same_as_serial nc_grid field,x,y,z,x_bnds,z_bnds "${PL[@]}" --grid 36x28x22 --chunk 4000
    EXT=nc same_as_serial nc_vector field_x,field_y,field_z "${PL[@]}" --grid 24x20x18 --precision float \
        --compress --vector solenoidal
    EXT=nc same_as_serial nc_grid2d field,x,y --model matern --length 4 --nu 1.5 --grid 50x33
    awk 'BEGIN { srand(3); for (i = 0; i < 3001; i++) printf "%.17g %.17g %.17g\n", 5*rand(), 5*rand(), 5*rand() }' >pts.txt
    EXT=nc same_as_serial nc_points value,x,y,z --model gaussian --length 2 --points pts.txt
    ;;
failures)
    # an unwritable output: every rank fails, nothing is left
    rm -f rc.*
    run_mpi 3 generate "${PL[@]}" --grid 16x16x16 --out nodir/f.h5
    check "unwritable path: every rank fails ($(all_rc 3))" bash -c '! grep -qx 0 rc.0 rc.1 rc.2'
    # checked before the work on every rank (cli_check_output), each saying why
    check "unwritable path: the file and the system's reason" \
        grep -q "nodir/f.h5: cannot write in the folder nodir: No such file or directory" mpi.out
    # bad input on one rank: rank 2 starts in a directory without the points
    # file; it fails, so every rank fails and no file is left
    mkdir elsewhere
    awk 'BEGIN { for (i = 0; i < 100; i++) printf "%d %d %d\n", i % 10, (i / 10) % 10, i % 7 }' >pts.txt
    root=()
    [ "$(id -u)" = 0 ] && root=(--allow-run-as-root)
    rm -f rc.*
    "$mpirun" --oversubscribe "${root[@]}" \
        -n 2 sh -c '"$0" "$@"; echo $? > '"$work"'/rc.$OMPI_COMM_WORLD_RANK' "$tbrf" generate --model gaussian \
        --length 2 --points pts.txt --out "$work/one.h5" : \
        -n 1 -wdir "$work/elsewhere" sh -c '"$0" "$@"; echo $? > '"$work"'/rc.$OMPI_COMM_WORLD_RANK' "$tbrf" \
        generate --model gaussian --length 2 --points pts.txt --out "$work/one.h5" >mpi.out 2>&1 || true
    check "one rank's bad input: every rank fails ($(all_rc 3))" bash -c '! grep -qx 0 rc.0 rc.1 rc.2'
    check "one rank's bad input: it says why" grep -q "rank 2: cannot read points file pts.txt" mpi.out
    check "one rank's bad input: no file, no temporary" no_file_left one.h5
    # ranks given different parameters (a field of mixed seeds) are refused
    rm -f rc.*
    "$mpirun" --oversubscribe "${root[@]}" \
        -n 1 sh -c '"$0" "$@"; echo $? > rc.$OMPI_COMM_WORLD_RANK' "$tbrf" generate "${PL[@]}" --grid 8x8x8 --seed 1 --out mix.h5 : \
        -n 1 sh -c '"$0" "$@"; echo $? > rc.$OMPI_COMM_WORLD_RANK' "$tbrf" generate "${PL[@]}" --grid 8x8x8 --seed 2 --out mix.h5 \
        >mpi.out 2>&1 || true
    check "different command lines: every rank fails ($(all_rc 2))" bash -c '! grep -qx 0 rc.0 rc.1'
    check "different command lines: said so" grep -q "different command lines" mpi.out
    check "different command lines: no file" no_file_left mix.h5
    # netCDF: an unwritable output fails every rank too
    rm -f rc.*
    run_mpi 2 generate "${PL[@]}" --grid 8x8x8 --out nodir/f.nc
    check "netCDF, unwritable path: every rank fails ($(all_rc 2))" bash -c '! grep -qx 0 rc.0 rc.1'
    check "netCDF, unwritable path: the reason" \
        grep -q "nodir/f.nc: cannot write in the folder nodir: No such file or directory" mpi.out
    # a file written by 3 ranks regenerates bitwise with the serial command
    run_mpi 3 generate "${PL[@]}" --grid 20x20x20 --out r.h5 --quiet
    check "regenerate --check of a 3-rank file" "$serial" regenerate r.h5 --out again.h5 --check --quiet
    ;;
*)
    echo "unknown case $case"
    exit 2
    ;;
esac
exit $fail
