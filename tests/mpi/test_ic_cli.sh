#!/usr/bin/env bash
# test_ic_cli.sh TBRF TBRF_MPI MPIRUN H5DUMP H5DIFF — `mpirun -n N tbrf arepo
# cosmo --lpt 1` (doc/mpi.md, "Initial conditions") against the serial
# command:
#  - N = 1..4 on 16^3 (FFTW-MPI's blocks of 6, 6, 4 planes at N = 3) and
#    32^3 with --files 7, and 4^3 on 3 ranks (2, 2 and none: the rank
#    without planes writes no member): every rank exits 0; one member a
#    rank with planes by default; NumFilesPerSnapshot and set_files the
#    member count; the members' Coordinates, Velocities and ParticleIDs
#    (and the gas's, --gas --paired) read in member order are the serial
#    file's bytes (the particles are the serial run's; the distributed
#    transform has rounded them the same on these sizes: test_ic_mpi holds
#    the tolerance the library states); on one rank the set is the serial
#    set of as many files, dataset for dataset;
#  - --lpt 2 (the default) is split too (no note): 16^3 with gas, paired,
#    on 2 and 4 ranks (planes 8 or 4 a rank, so member f is the serial
#    --files N set's member f): IDs the serial bytes, coordinates and
#    velocities within the bound test_ic_mpi holds at 16^3 (h5diff -d;
#    doc/mpi.md, "Values"), and with --transfer --gas on 2 ranks (the
#    gas's own first order); 4^3 on 3 ranks (a rank without planes) exits
#    0 with 2 members; --fixed-amplitude is split;
#  - --lpt 3 is split too: 16^3 with gas, paired, on 2 and 4 ranks, no
#    note, IDs the serial bytes, coordinates and velocities within the
#    bound test_ic_mpi holds for lpt 3 at 16^3;
#  - --files 1 on 2 ranks: refused on every rank (exit 2), no file;
#  - one rank's rename failing (TBRF_TEST_AREPO_SET_FAULT=fail:0 on rank 1
#    of 3, mpirun's MPMD form): every rank exits 1 and the previous set is
#    left as it was, byte for byte, with no temporary or kept file.
#  - --format gadget1 and gadget2 (float, and double --long-ids with gas)
#    are split too: 16^3 --files 4 on 1, 2 and 4 ranks, 12^3 --files 3 on
#    3 (4 planes a rank) and 4^3 on 3 ranks (a rank without planes, 2
#    members): every rank exits 0, no note, each member the serial
#    --files N set's member byte for byte and the side file's content
#    (h5dump: the Header, /tbrf with set_digest, /gadget_members) the
#    serial one's; --lpt 2 gadget2 on 2 ranks: every rank exits 0, two
#    members and the side file, which tbrf info reads, and in double the
#    serial --files 2 members' positions and velocities within the bound
#    (the other blocks exact; python3); a rename failing
#    on rank 1 of 3 leaves the previous Gadget set and side file as they
#    were.
set -euo pipefail
tbrf=$1 tbrf_mpi=$2 mpirun=$3 h5dump=$4 h5diff=$5
camb=$(cd "$(dirname "$0")/../data/transfer" && pwd)/camb_transfer_99.dat
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
fail=0
check() { # DESCRIPTION CONDITION...
    local what=$1
    shift
    if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; sed 's/^/  | /' mpi.out 2>/dev/null | tail -20; fail=1; fi
}
margs=(--oversubscribe)
[ "$(id -u)" = 0 ] && margs+=(--allow-run-as-root)
ic=(arepo cosmo --box 50000 --redshift 49 --omega-m 0.3 --omega-b 0.04 --hubble 0.7 --sigma8 0.8 --quiet)
run() { # N ARGS...: N ranks; rc.RANK
    local n=$1
    shift
    rm -f rc.*
    "$mpirun" "${margs[@]}" -n "$n" bash -c '"$0" "$@"; echo $? > rc.$OMPI_COMM_WORLD_RANK' \
        "$tbrf_mpi" "$@" >mpi.out 2>&1 || true
}
rcs() { cat rc.* 2>/dev/null | tr '\n' ' '; }
all_rc() { # N RC: every one of N ranks exited RC
    local want="" i
    for ((i = 0; i < $1; i++)); do want+="$2 "; done
    [ "$(rcs)" = "$want" ]
}
# dataset D of the set BASE (its members in order), as bytes
bytes() { # BASE FILES D OUT
    : >"$4"
    local f
    for ((f = 0; f < $2; f++)); do
        local m=$1.$f.hdf5
        [ "$2" = 1 ] && m=$1.hdf5
        "$h5dump" -b LE -d "$3" -o part.bin "$m" >/dev/null
        cat part.bin >>"$4"
    done
}
same_particles() { # BASE FILES SERIAL_BASE SERIAL_FILES DATASET...
    local b=$1 nb=$2 s=$3 ns=$4 d
    shift 4
    for d in "$@"; do
        bytes "$b" "$nb" "$d" got.bin
        bytes "$s" "$ns" "$d" ref.bin
        cmp -s got.bin ref.bin || { echo "  $d differs"; return 1; }
    done
}
attr() { # FILE NAME: the first value of a Header or /tbrf attribute
    "$h5dump" -a "$2" "$1" | sed -n 's/^ *(0): *\([^,]*\).*/\1/p' | head -1
}
dm=(/PartType1/Coordinates /PartType1/Velocities /PartType1/ParticleIDs)
gas=("${dm[@]}" /PartType0/Coordinates /PartType0/Velocities /PartType0/ParticleIDs /PartType0/InternalEnergy)

"$tbrf" "${ic[@]}" --particles 16 --lpt 1 --gas --paired --out s16
"$tbrf" "${ic[@]}" --particles 32 --lpt 1 --out s32 --files 7
"$tbrf" "${ic[@]}" --particles 16 --lpt 1 --gas --paired --files 4 --out s16f4
for n in 1 2 3 4; do
    members=$n
    run "$n" "${ic[@]}" --particles 16 --lpt 1 --gas --paired --out p16_$n
    check "16^3 gas paired, $n ranks: every rank exits 0 ($(rcs))" all_rc "$n" 0
    if [ "$members" = 1 ]; then m0=p16_$n.hdf5; else m0=p16_$n.0.hdf5; fi
    check "16^3, $n ranks: $members members, NumFilesPerSnapshot $members" \
        test "$(ls p16_$n*.hdf5 | wc -l)" = "$members" -a "$(attr "$m0" /Header/NumFilesPerSnapshot)" = "$members"
    check "16^3, $n ranks: the serial particles, in member order" \
        same_particles p16_$n "$members" s16 1 "${gas[@]}"
    run "$n" "${ic[@]}" --particles 32 --lpt 1 --out p32_$n --files 7
    check "32^3 --files 7, $n ranks: every rank exits 0 ($(rcs))" all_rc "$n" 0
    check "32^3 --files 7, $n ranks: set_files 7" test "$(attr p32_$n.6.hdf5 /tbrf/set_files)" = 7
    check "32^3 --files 7, $n ranks: the serial particles" same_particles p32_$n 7 s32 7 "${dm[@]}"
done
"$tbrf" "${ic[@]}" --particles 4 --lpt 1 --out s4
run 3 "${ic[@]}" --particles 4 --lpt 1 --out p4
check "4^3 on 3 ranks: every rank exits 0 ($(rcs))" all_rc 3 0
check "4^3 on 3 ranks: 2 members (none from the rank without planes)" \
    sh -c '[ "$(ls p4*.hdf5 | wc -l)" = 2 ]' && check "4^3 on 3 ranks: the serial particles" same_particles p4 2 s4 1 "${dm[@]}"
run 1 "${ic[@]}" --particles 16 --lpt 1 --gas --paired --files 4 --out q16
ok=1
for f in 0 1 2 3; do
    for d in "${gas[@]}"; do
        "$h5dump" -b LE -d "$d" -o a.bin s16f4.$f.hdf5 >/dev/null
        "$h5dump" -b LE -d "$d" -o b.bin q16.$f.hdf5 >/dev/null
        cmp -s a.bin b.bin || ok=0
    done
done
check "one rank, --files 4: the serial set's members, dataset for dataset" test "$ok" = 1

# --lpt 2 (the default): split; the values within the library's bound
# (test_ic_mpi: 2.28e-11 in position, 2.9e-12 in velocity at 16^3, gas
# paired), the IDs exact
within() { # BASE SERIAL_BASE FILES [DPOS DVEL]: member for member
    local f d dp=${4:-2.3e-11} dv=${5:-2.9e-12}
    for ((f = 0; f < $3; f++)); do
        for d in /PartType1/Coordinates /PartType0/Coordinates; do
            "$h5diff" -d "$dp" "$1.$f.hdf5" "$2.$f.hdf5" "$d" >/dev/null || { echo "  $d of $f"; return 1; }
        done
        for d in /PartType1/Velocities /PartType0/Velocities; do
            "$h5diff" -d "$dv" "$1.$f.hdf5" "$2.$f.hdf5" "$d" >/dev/null || { echo "  $d of $f"; return 1; }
        done
        for d in /PartType1/ParticleIDs /PartType0/ParticleIDs /PartType0/InternalEnergy; do
            "$h5diff" "$1.$f.hdf5" "$2.$f.hdf5" "$d" >/dev/null || { echo "  $d of $f"; return 1; }
        done
    done
}
for n in 2 4; do
    "$tbrf" "${ic[@]}" --particles 16 --gas --paired --files $n --out s2_$n
    run $n "${ic[@]}" --particles 16 --gas --paired --out p2_$n
    check "--lpt 2 on $n ranks: every rank exits 0 ($(rcs)), split (no note), $n members" \
        sh -c '! grep -q "rank 0 alone" mpi.out && [ "$(ls p2_'$n'.*.hdf5 | wc -l)" = '$n' ]'
    check "--lpt 2 on $n ranks: every rank exited 0" all_rc $n 0
    check "--lpt 2 on $n ranks: the serial particles within the bound, IDs exact" within p2_$n s2_$n $n
done
# the gas's own first order (--transfer: its plan's NUFFT at every rank's sites)
"$tbrf" "${ic[@]}" --particles 16 --gas --transfer "$camb" --files 2 --out s2_t
run 2 "${ic[@]}" --particles 16 --gas --transfer "$camb" --out p2_t
check "--lpt 2 --transfer --gas on 2 ranks: every rank exited 0 ($(rcs))" all_rc 2 0
check "--lpt 2 --transfer --gas on 2 ranks: the serial particles within the bound" within p2_t s2_t 2
run 3 "${ic[@]}" --particles 4 --out p2_4c
check "--lpt 2, 4^3 on 3 ranks: every rank exits 0 ($(rcs)), 2 members" \
    sh -c '[ "$(ls p2_4c*.hdf5 | wc -l)" = 2 ]'
check "--lpt 2, 4^3 on 3 ranks: every rank exited 0" all_rc 3 0

# fixed amplitudes are split too (their values: test_ic_mpi)
run 2 "${ic[@]}" --particles 16 --lpt 1 --fixed-amplitude --out fx
check "--fixed-amplitude on 2 ranks: both exit 0 ($(rcs)), split (no note), 2 members" \
    sh -c '! grep -q "rank 0 alone" mpi.out && [ "$(ls fx.*.hdf5 | wc -l)" = 2 ]'
check "--fixed-amplitude on 2 ranks: every rank exited 0" all_rc 2 0

# --lpt 3 is split too: the values within the library's bound at 16^3
# (test_ic_mpi: 2.28e-11 in position, 3.31e-12 in velocity; the third
# order adds its own rounding to the velocities), the IDs exact
for n in 2 4; do
    "$tbrf" "${ic[@]}" --particles 16 --lpt 3 --gas --paired --files $n --out s3_$n
    run $n "${ic[@]}" --particles 16 --lpt 3 --gas --paired --out p3_$n
    check "--lpt 3 on $n ranks: split (no note), $n members" \
        sh -c '! grep -q "rank 0 alone" mpi.out && [ "$(ls p3_'$n'.*.hdf5 | wc -l)" = '$n' ]'
    check "--lpt 3 on $n ranks: every rank exited 0 ($(rcs))" all_rc $n 0
    check "--lpt 3 on $n ranks: the serial particles within the bound, IDs exact" \
        within p3_$n s3_$n $n 2.3e-11 3.4e-12
done

# fewer files than ranks
run 2 "${ic[@]}" --particles 16 --lpt 1 --files 1 --out one
check "--files 1 on 2 ranks: every rank exits 2 ($(rcs))" all_rc 2 2
check "--files 1 on 2 ranks: a message, no file" sh -c 'grep -q "at least one file a rank" mpi.out && ! ls one* 2>/dev/null'

# a rename failing on rank 1 of 3: the previous set stays
run 3 "${ic[@]}" --particles 16 --lpt 1 --out old
mkdir keep && cp old.*.hdf5 keep/
rm -f rc.*
"$mpirun" "${margs[@]}" -n 1 bash -c '"$0" "$@"; echo $? > rc.0' "$tbrf_mpi" "${ic[@]}" --particles 16 --lpt 1 --seed 2 --out old : \
    -n 1 bash -c 'TBRF_TEST_AREPO_SET_FAULT=fail:0 "$0" "$@"; echo $? > rc.1' "$tbrf_mpi" "${ic[@]}" --particles 16 --lpt 1 --seed 2 --out old : \
    -n 1 bash -c '"$0" "$@"; echo $? > rc.2' "$tbrf_mpi" "${ic[@]}" --particles 16 --lpt 1 --seed 2 --out old >mpi.out 2>&1 || true
check "a failing rename on rank 1: every rank exits 1 ($(rcs))" all_rc 3 1
check "a failing rename on rank 1: the previous set byte for byte" \
    sh -c 'for f in 0 1 2; do cmp -s keep/old.$f.hdf5 old.$f.hdf5 || exit 1; done'
check "a failing rename on rank 1: no temporary, no kept file" test -z "$(ls -A | grep '^\.' || true)"

# Gadget sets split over the ranks: the serial set (written in ser/ under
# the same name, so the recorded command is the same) byte for byte, its
# side file's content (Header, /tbrf, /gadget_members) the same
mkdir ser
serial() { (cd ser && "$tbrf" "$@"); }
same_gadget() { # BASE FILES
    local f
    for ((f = 0; f < $2; f++)); do cmp -s "$1.$f" "ser/$1.$f" || { echo "  member $f differs"; return 1; }; done
    # the side file's content (h5dump: not the objects' times HDF5 keeps)
    [ "$("$h5dump" "$1.tbrf.h5" | tail -n +2)" = "$(cd ser && "$h5dump" "$1.tbrf.h5" | tail -n +2)" ] ||
        { echo "  side file differs"; return 1; }
}
gopt=(--format gadget1)
for fmt in gadget1 gadget2; do
    for v in float double; do
        o=(--format $fmt)
        [ $v = double ] && o+=(--precision double --long-ids --gas --paired)
        for n in 1 2 4; do
            serial "${ic[@]}" --particles 16 --lpt 1 "${o[@]}" --files 4 --out g16_$n$fmt$v
            run $n "${ic[@]}" --particles 16 --lpt 1 "${o[@]}" --files 4 --out g16_$n$fmt$v
            check "$fmt $v 16^3 --files 4 on $n ranks: split (no note)" sh -c '! grep -q "rank 0 alone" mpi.out'
            check "$fmt $v 16^3 on $n ranks: every rank exited 0 ($(rcs))" all_rc $n 0
            check "$fmt $v 16^3 on $n ranks: the serial set byte for byte" same_gadget g16_$n$fmt$v 4
        done
    done
    serial "${ic[@]}" --particles 12 --lpt 1 --format $fmt --gas --files 3 --out g12_$fmt
    run 3 "${ic[@]}" --particles 12 --lpt 1 --format $fmt --gas --files 3 --out g12_$fmt
    check "$fmt 12^3 on 3 ranks: every rank exits 0 ($(rcs))" all_rc 3 0
    check "$fmt 12^3 on 3 ranks: the serial --files 3 set byte for byte" same_gadget g12_$fmt 3
    serial "${ic[@]}" --particles 4 --lpt 1 --format $fmt --files 2 --out g4_$fmt
    run 3 "${ic[@]}" --particles 4 --lpt 1 --format $fmt --files 2 --out g4_$fmt
    check "$fmt 4^3 --files 2 on 3 ranks: 2 members (none from the rank without planes)" \
        sh -c '[ -e g4_'$fmt'.1 ] && [ ! -e g4_'$fmt'.2 ]'
    check "$fmt 4^3 on 3 ranks (one without planes): every rank exited 0" all_rc 3 0
    check "$fmt 4^3 on 3 ranks: the serial --files 2 set byte for byte" same_gadget g4_$fmt 2
done
# --lpt 2: a set identical across rank counts is not promised (the
# distributed transform's rounding); the IDs exact, the set complete
run 2 "${ic[@]}" --particles 16 --format gadget2 --gas --paired --out pg2l
check "gadget2 --lpt 2 on 2 ranks: every rank exits 0 ($(rcs)), 2 members, a side file" \
    sh -c '[ -e pg2l.0 ] && [ -e pg2l.1 ] && [ -e pg2l.tbrf.h5 ] && [ ! -e pg2l.2 ]'
check "gadget2 --lpt 2 on 2 ranks: every rank exited 0" all_rc 2 0
check "gadget2 --lpt 2 on 2 ranks: the set checks (tbrf info)" "$tbrf" info pg2l.tbrf.h5 >/dev/null
# double precision: the positions and velocities within the bound above
# (one float ulp could flip), every other block (header, IDs, U) exact
serial "${ic[@]}" --particles 16 --format gadget2 --precision double --gas --paired --files 2 --out pg2d
run 2 "${ic[@]}" --particles 16 --format gadget2 --precision double --gas --paired --out pg2d
check "gadget2 --lpt 2 double on 2 ranks: every rank exited 0 ($(rcs))" all_rc 2 0
gclose() { # A B: Gadget-2 members, record for record
    python3 - "$1" "$2" <<'PY'
import struct, sys
def recs(path):
    b = open(path, 'rb').read(); i = 0
    while i < len(b):
        n = struct.unpack_from('<i', b, i)[0]
        yield b[i + 4:i + 4 + n]; i += n + 8
label, bad = b'', 0
for x, y in zip(list(recs(sys.argv[1])), list(recs(sys.argv[2]))):
    if len(x) == 8 and len(y) == 8:
        label = x[:4]
    if len(x) != len(y):
        bad = 1
    elif label in (b'POS ', b'VEL ') and len(x) > 8:
        a, c = struct.unpack('<%dd' % (len(x) // 8), x), struct.unpack('<%dd' % (len(y) // 8), y)
        tol = 2.3e-11 if label == b'POS ' else 2.9e-12
        bad |= max(abs(p - q) for p, q in zip(a, c)) > tol
    else:
        bad |= x != y
sys.exit(bad)
PY
}
if command -v python3 >/dev/null; then
    check "gadget2 --lpt 2 double on 2 ranks: the serial members within the bound" \
        sh -c 'for f in 0 1; do '"$(declare -f gclose)"'; gclose pg2d.$f ser/pg2d.$f || exit 1; done'
fi

# a rename failing on rank 1 of 3: the previous Gadget set stays
run 3 "${ic[@]}" --particles 12 --lpt 1 "${gopt[@]}" --out gold
mkdir gkeep && cp gold.* gkeep/
rm -f rc.*
"$mpirun" "${margs[@]}" -n 1 bash -c '"$0" "$@"; echo $? > rc.0' "$tbrf_mpi" "${ic[@]}" --particles 12 --lpt 1 "${gopt[@]}" --seed 2 --out gold : \
    -n 1 bash -c 'TBRF_TEST_AREPO_SET_FAULT=fail:0 "$0" "$@"; echo $? > rc.1' "$tbrf_mpi" "${ic[@]}" --particles 12 --lpt 1 "${gopt[@]}" --seed 2 --out gold : \
    -n 1 bash -c '"$0" "$@"; echo $? > rc.2' "$tbrf_mpi" "${ic[@]}" --particles 12 --lpt 1 "${gopt[@]}" --seed 2 --out gold >mpi.out 2>&1 || true
check "gadget1, a failing rename on rank 1: every rank exits 1 ($(rcs))" all_rc 3 1
check "gadget1, a failing rename on rank 1: the previous set and side file byte for byte" \
    sh -c 'for f in 0 1 2 tbrf.h5; do cmp -s gkeep/gold.$f gold.$f || exit 1; done'
check "gadget1, a failing rename on rank 1: no temporary, no kept file" test -z "$(ls -A | grep '^\.' || true)"
exit "$fail"
