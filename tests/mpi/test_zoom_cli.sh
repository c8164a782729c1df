#!/usr/bin/env bash
# test_zoom_cli.sh TBRF TBRF_MPI MPIRUN H5DIFF — `mpirun -n N tbrf arepo
# zoom` (doc/mpi.md, "Zoom initial conditions") against the serial
# command, each run in its own directory with the same --out, so that the
# recorded command is the same:
#  - Zel'dovich, 16^3 refined 2 in a box, on 1, 2 and 3 ranks, and in
#    gadget2 with --files 2 on 2 ranks: every rank exits 0, no note (each
#    level split), one set written, the serial set's bytes, the Gadget
#    side file's too (no object times in it) — the distributed transform
#    rounds Psi1 as the serial one at these sizes; test_ic_zoom_mpi holds
#    the stated bound;
#  - 2LPT with gas in two nested levels (16^3, refine 4, a sphere) on 2
#    and 3 ranks: every rank exits 0, the serial file's datasets and
#    attributes with the numbers within 1e-9 (test_ic_zoom_mpi's bound at
#    these sizes is 2.3e-11 kpc/h and 3.9e-12 km/s), IDs, masses and
#    energies exact (h5diff -d applies to the floats; integers must match);
#  - --lpt 3 --gas on 2 ranks: split (no note), the serial file within
#    1e-9 (integers exact); --fixed-amplitude on 2 ranks: rank 0 alone
#    (the note, once, naming the option), the serial file's bytes;
#  - an empty region on 2 ranks: every rank exits 2, the message once, no
#    file.
set -euo pipefail
tbrf=$1 tbrf_mpi=$2 mpirun=$3 h5diff=$4
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
ic=(arepo zoom --box 50000 --redshift 49 --omega-m 0.3 --omega-b 0.04 --hubble 0.7 --sigma8 0.8
    --particles 16 --quiet)
box=(--refine 2 --region box:9000,12000,15000,27000,30000,33000)
nested=(--refine 4 --levels 2 --region sphere:20000,25000,3000,7000 --lpt 2 --gas)
serial() { # DIR ARGS...: the serial command in DIR
    local d=$1
    shift
    mkdir -p "$d"
    (cd "$d" && "$tbrf" "$@" --out z)
}
run() { # DIR N ARGS...: N ranks in DIR; rc.RANK, mpi.out
    local d=$1 n=$2
    shift 2
    mkdir -p "$d"
    rm -f rc.*
    (cd "$d" && "$mpirun" "${margs[@]}" -n "$n" bash -c '"$0" "$@"; echo $? > ../rc.$OMPI_COMM_WORLD_RANK' \
        "$tbrf_mpi" "$@" --out z >../mpi.out 2>&1) || true
}
all_rc() { # N RC: every one of N ranks exited RC
    local want="" i got
    for ((i = 0; i < $1; i++)); do want+="$2 "; done
    got=$(cat rc.* 2>/dev/null | tr '\n' ' ')
    [ "$got" = "$want" ]
}
notes() { grep -c "runs on rank 0 alone" mpi.out || true; }
split_ok() { all_rc "$1" 0 && [ "$(notes)" = 0 ]; }                 # N
same_file() { [ "$(ls "$2")" = z.hdf5 ] && cmp -s "$1/z.hdf5" "$2/z.hdf5"; } # SERIAL PAR
same_set() { # SERIAL PAR: every member and the side file the serial one's
    # bytes (made seconds apart: no object times are recorded)
    local f
    [ "$(ls "$1" | wc -l)" = "$(ls "$2" | wc -l)" ] || return 1
    for f in "$1"/*; do cmp -s "$f" "$2/$(basename "$f")" || return 1; done
}
alone_ok() { all_rc 2 0 && [ "$(notes)" = 1 ] && grep -q -- "$1" mpi.out; } # OPTION
empty_ok() { [ "$(grep -c "lo must be in" mpi.out)" = 1 ] && [ -z "$(ls p_empty)" ]; }

serial s_box "${ic[@]}" "${box[@]}" --lpt 1
for n in 1 2 3; do
    run p_box$n "$n" "${ic[@]}" "${box[@]}" --lpt 1
    check "lpt 1, $n ranks: every rank exits 0, split (no note)" split_ok "$n"
    check "lpt 1, $n ranks: one file, the serial file's bytes" same_file s_box "p_box$n"
done
serial s_g2 "${ic[@]}" "${box[@]}" --lpt 1 --format gadget2 --files 2
run p_g2 2 "${ic[@]}" "${box[@]}" --lpt 1 --format gadget2 --files 2
check "gadget2 --files 2 on 2 ranks: both exit 0" all_rc 2 0
check "gadget2 --files 2 on 2 ranks: the serial members' bytes" same_set s_g2 p_g2

serial s_nest "${ic[@]}" "${nested[@]}"
for n in 2 3; do
    run p_nest$n "$n" "${ic[@]}" "${nested[@]}"
    check "2LPT, gas, 2 levels, $n ranks: every rank exits 0" all_rc "$n" 0
    check "2LPT, gas, 2 levels, $n ranks: the serial file within 1e-9, integers exact" \
        "$h5diff" -d 1e-9 s_nest/z.hdf5 p_nest$n/z.hdf5
done

serial s_lpt3 "${ic[@]}" "${box[@]}" --lpt 3 --gas
run p_lpt3 2 "${ic[@]}" "${box[@]}" --lpt 3 --gas
check "--lpt 3 --gas on 2 ranks: both exit 0, split (no note)" split_ok 2
check "--lpt 3 --gas on 2 ranks: the serial file within 1e-9, integers exact" \
    "$h5diff" -d 1e-9 s_lpt3/z.hdf5 p_lpt3/z.hdf5
serial s_fixed "${ic[@]}" "${box[@]}" --fixed-amplitude
run p_fixed 2 "${ic[@]}" "${box[@]}" --fixed-amplitude
check "--fixed-amplitude on 2 ranks: both exit 0, rank 0 alone (one note naming it)" \
    alone_ok --fixed-amplitude
check "--fixed-amplitude on 2 ranks: the serial file's bytes" cmp -s s_fixed/z.hdf5 p_fixed/z.hdf5

run p_empty 2 "${ic[@]}" --refine 2 --region box:1,1,1,1,1,1
check "an empty region on 2 ranks: both exit 2" all_rc 2 2
check "an empty region on 2 ranks: the message once, no file" empty_ok
exit $fail
