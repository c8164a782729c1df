#!/usr/bin/env bash
# test_outputs.sh — what the `tbrf` command writes, and what it refuses
# to write (the output half; doc/guarantees-outputs.md).
#
#   test_outputs.sh TOOL MKPOINTS H5DUMP H5LS NCDUMP CASE
#
# Every case runs in its own empty temporary directory. Refused runs must
# exit non-zero (not by a signal) within their time limit, print one line
# "tbrf: ..." on stderr and nothing on stdout, and leave the directory as
# it was (no output, no temporary, no side file).
set -u

TOOL=$1
MKPOINTS=$2
H5DUMP=$3
H5LS=$4
NCDUMP=$5
CASE=$6

. "$(dirname "${BASH_SOURCE[0]}")/../support/cli_lib.sh"
RUN_TIMEOUT=60 # a refused run ends at once; a hang fails
LISTING_TIMES=1
cli_workdir tbrf-out

expect_ok() {
    run "$@"
    if [ "$rc" -ne 0 ]; then
        fail "expected success (rc $rc): $*"
        echo "  stderr: $err"
        return 1
    fi
    return 0
}

# expect_fail PATTERN CMD...: refused cleanly, the message matching PATTERN.
expect_fail() {
    local pattern=$1 before after lines
    shift
    before=$(listing)
    run "$@"
    after=$(listing)
    if [ "$rc" -eq 0 ]; then
        fail "expected failure but got rc 0: $*"
    elif [ "$rc" -ge 124 ]; then
        fail "crashed, killed or timed out (rc $rc): $*"
    fi
    lines=$(printf '%s\n' "$err" | grep -c '')
    if [ -z "$err" ] || [ "$lines" -ne 1 ] || [ "${err#tbrf: }" = "$err" ]; then
        fail "expected exactly one 'tbrf: ' stderr line: $*"
        printf '  stderr: %s\n' "$err"
    elif ! printf '%s\n' "$err" | grep -Eq -- "$pattern"; then
        fail "message does not match '$pattern': $err"
    fi
    [ -z "$out" ] || fail "unexpected stdout from failing command: $*"
    if [ "$before" != "$after" ]; then
        fail "files changed by failing command: $*"
        diff <(echo "$before") <(echo "$after") | sed 's/^/  /'
    fi
    echo "ok (rc $rc) $err"
}

no_temps() {
    local t
    t=$(ls -A "$W" | grep '\.tmp-' || true)
    [ -z "$t" ] || fail "temporary files left: $t"
}

G=(--model gaussian --length 4 --lines 32 --quiet)

# ------------------------------------------------------------------ 2
case_domain_overflow() {
    expect_fail 'double precision|not finite' "$TOOL" generate "${G[@]}" --grid 8x8x8 \
        --origin 1e308,0,0 --out a.h5
    expect_fail 'double precision|overflow|samples' "$TOOL" generate "${G[@]}" --grid 8x8x8 \
        --origin -1e308,0,0 --spacing 1e307 --out a.h5
    printf '1e308 0 0\n1e308 1 1\n1e308 2 0\n' >far.txt
    expect_fail 'double precision' "$TOOL" generate "${G[@]}" --points far.txt --out a.h5
    printf -- '-1e308 0 0\n1e308 1 1\n' >wide.txt
    expect_fail 'overflow|double precision|not finite' "$TOOL" generate "${G[@]}" \
        --points wide.txt --out a.h5
    # Large but representable coordinates still work.
    expect_ok "$TOOL" generate "${G[@]}" --grid 8x8x8 --origin 1e6,-1e6,0 --out ok.h5
    no_temps
}

# ------------------------------------------------------------------ 3
case_threads() {
    local t
    for t in 65536 40000 1025 -1; do
        expect_fail 'threads' "$TOOL" generate "${G[@]}" --grid 16x16x16 --threads "$t" --out a.h5
    done
    # The largest accepted count runs (capped to the machine) and gives
    # the same values as one thread.
    expect_ok "$TOOL" generate "${G[@]}" --grid 16x16x16 --threads 1024 --out a.h5 --no-xdmf &&
        expect_ok "$TOOL" generate "${G[@]}" --grid 16x16x16 --threads 1 --out b.h5 --no-xdmf
    [ "$("$H5DUMP" -d /field -y -w 0 a.h5 | sed -n '/DATA {/,/}/{p;/}/q}')" = \
      "$("$H5DUMP" -d /field -y -w 0 b.h5 | sed -n '/DATA {/,/}/{p;/}/q}')" ] || fail "1024 threads: other values"
    no_temps
}

# ------------------------------------------------------------------ 4
case_side_file() {
    expect_fail 'side file' "$TOOL" generate "${G[@]}" --grid 8x8x8 --out field.xmf
    # Without a side file the name is free.
    expect_ok "$TOOL" generate "${G[@]}" --grid 8x8x8 --out field.xmf --no-xdmf
    "$H5LS" field.xmf | grep -q '^field' || fail "field.xmf --no-xdmf: no /field"
    rm -f field.xmf
    # The side file may not be an input either.
    "$MKPOINTS" pts.xmf good3 20 || fail mkpoints
    expect_fail 'side file' "$TOOL" generate "${G[@]}" --points pts.xmf --out pts.h5
    # ... nor exist as something else than a regular file (checked before
    # any work, so nothing is published without its side file).
    mkdir d.xmf
    expect_fail 'not a regular file' "$TOOL" generate "${G[@]}" --grid 8x8x8 --out d.h5
    rmdir d.xmf
    no_temps
}

# ------------------------------------------------------------------ 5
case_not_regular() {
    mkfifo fifo.h5
    expect_fail 'not a regular file' "$TOOL" generate "${G[@]}" --grid 8x8x8 --out fifo.h5
    [ -p fifo.h5 ] || fail "the FIFO was replaced"
    rm -f fifo.h5
    # A device (through a link, so that a regression replaces the link,
    # never /dev/null itself).
    ln -s /dev/null null.h5
    expect_fail 'not a regular file' "$TOOL" generate "${G[@]}" --grid 8x8x8 --out null.h5 \
        --no-xdmf
    [ -L null.h5 ] && [ -c /dev/null ] || fail "/dev/null or its link was replaced"
    rm -f null.h5
    expect_fail 'directory' "$TOOL" generate "${G[@]}" --grid 8x8x8 --out /
    no_temps
}

case_same_input() {
    "$MKPOINTS" p.h5 good3 50 || fail mkpoints
    local sum
    sum=$(md5sum <p.h5)
    expect_fail 'points' "$TOOL" generate "${G[@]}" --points p.h5 --out p.h5
    expect_fail 'points' "$TOOL" generate "${G[@]}" --points p.h5 --out ./p.h5
    ln p.h5 hard.h5
    expect_fail 'points' "$TOOL" generate "${G[@]}" --points p.h5 --out hard.h5
    ln -s p.h5 soft.h5
    expect_fail 'points' "$TOOL" generate "${G[@]}" --points soft.h5 --out p.h5
    rm -f hard.h5 soft.h5
    [ "$(md5sum <p.h5)" = "$sum" ] || fail "the points input changed"
    printf '0.1 1\n1 0.5\n10 0.01\n' >t.txt
    expect_fail 'table' "$TOOL" generate --model table --table t.txt --grid 8x8x8 --out t.txt
    expect_fail 'table' "$TOOL" generate --model table --table t.txt --grid 8x8x8 --out ./t.txt
    # A points file regenerated onto itself.
    expect_ok "$TOOL" generate "${G[@]}" --points p.h5 --out v.h5 || return
    sum=$(md5sum <v.h5)
    expect_fail 'regenerated|points' "$TOOL" regenerate v.h5 --out v.h5 --check
    [ "$(md5sum <v.h5)" = "$sum" ] || fail "regenerate replaced its own input"
    no_temps
}

# ------------------------------------------------------------------ 7
# Needs cmd_regenerate.c to set request.input (doc/guarantees-outputs.md);
# registered disabled until then.
case_regenerate_self() {
    expect_ok "$TOOL" generate "${G[@]}" --grid 8x8x8 --out g.h5 || return
    local sum
    sum=$(md5sum <g.h5)
    expect_fail 'regenerated' "$TOOL" regenerate g.h5 --out g.h5 --check
    expect_fail 'regenerated' "$TOOL" regenerate g.h5 --out ./g.h5
    ln g.h5 hard.h5
    expect_fail 'regenerated' "$TOOL" regenerate g.h5 --out hard.h5
    rm -f hard.h5
    [ "$(md5sum <g.h5)" = "$sum" ] || fail "regenerate replaced its own input"
    # A failed --check leaves no output behind: damage the values of a
    # copy (bytes in the middle of its /field data).
    expect_ok "$TOOL" generate "${G[@]}" --grid 64x64x64 --out big.h5 --no-xdmf || return
    cp big.h5 damaged.h5
    printf 'XXXXXXXXXXXXXXXX' | dd of=damaged.h5 bs=1 seek=1048576 conv=notrunc 2>/dev/null
    run "$TOOL" regenerate damaged.h5 --out again.h5 --check
    [ "$rc" -ne 0 ] || fail "--check passed on a damaged file"
    [ -e again.h5 ] && fail "a failed --check left again.h5"
    [ -e again.xmf ] && fail "a failed --check left again.xmf"
    no_temps
}

# ------------------------------------------------------------------ 9
case_compress_guard() {
    local x
    for x in "" --compress; do
        expect_fail 'GB' "$TOOL" generate "${G[@]}" --grid 1000000x1000000x1000 $x --out big.h5
        expect_fail 'GB' "$TOOL" generate "${G[@]}" --grid 100000000x10000000 $x --out big.nc
    done
    no_temps
}

# ------------------------------------------------------------------ 10
case_chunks() {
    # 1024 doubles a row: 128 rows make 1 MiB. ny = 200 used to give
    # chunks of 128 rows, so each plane had a chunk 44% empty (1.28x the
    # data on disk); now 2 chunks of 100 rows.
    expect_ok "$TOOL" generate "${G[@]}" --grid 1024x200x4 --out c.h5 --no-xdmf || return
    local chunk size data
    chunk=$("$H5DUMP" -p -H -d /field c.h5 | grep -A1 CHUNKED | head -1)
    echo "chunk: $chunk"
    printf '%s' "$chunk" | grep -q '( 1, 100, 1024 )' || fail "chunk shape $chunk"
    size=$(stat -c %s c.h5)
    data=$((1024 * 200 * 4 * 8))
    [ "$size" -le $((data + data / 50 + 65536)) ] || fail "file $size bytes for $data of data"
    # Long rows are split evenly too (200000 doubles: 2 chunks of 100000).
    expect_ok "$TOOL" generate "${G[@]}" --grid 200000x2 --out r.h5 --no-xdmf || return
    chunk=$("$H5DUMP" -p -H -d /field r.h5 | grep -A1 CHUNKED | head -1)
    printf '%s' "$chunk" | grep -q '( 1, 100000 )' || fail "row chunk shape $chunk"
    # The values do not depend on the chunk shape: netCDF and HDF5 agree.
    expect_ok "$TOOL" generate "${G[@]}" --grid 1024x200x4 --out c.nc || return
    [ "$("$H5DUMP" -d /field -y -w 0 c.h5 | sed -n '/DATA {/,/}/{p;/}/q}')" = \
      "$("$H5DUMP" -d /field -y -w 0 c.nc | sed -n '/DATA {/,/}/{p;/}/q}')" ] || fail "nc and h5 differ"
    no_temps
}

# ------------------------------------------------------------------ 11
case_stale_side_file() {
    expect_ok "$TOOL" generate "${G[@]}" --grid 8x8x8 --out s.h5 || return
    [ -f s.xmf ] || fail "no s.xmf"
    expect_ok "$TOOL" generate "${G[@]}" --grid 8x8x8 --out s.h5 --no-xdmf
    [ -e s.xmf ] && fail "--no-xdmf left the earlier grid's s.xmf"
    "$MKPOINTS" p.h5 good3 30 || fail mkpoints
    expect_ok "$TOOL" generate "${G[@]}" --grid 8x8x8 --out s.h5 &&
        expect_ok "$TOOL" generate "${G[@]}" --points p.h5 --out s.h5
    grep -q Polyvertex s.xmf || fail "points run: s.xmf still describes the grid"
    # netCDF output s.nc does not touch s.h5's side file; a file the user
    # wrote that does not describe the output is kept.
    expect_ok "$TOOL" generate "${G[@]}" --grid 8x8x8 --out s.nc
    [ -f s.xmf ] || fail "s.nc removed s.h5's side file"
    echo '<note>mine</note>' >u.xmf
    expect_ok "$TOOL" generate "${G[@]}" --grid 8x8x8 --out u.h5 --no-xdmf
    grep -q mine u.xmf || fail "an unrelated u.xmf was removed"
    no_temps
}

# A run killed by SIG: rc is the signal's (or 0 if it had finished); no
# temporary either way; a finished file is complete.
killed_run() {
    local sig=$1 o=$2
    env --default-signal "$TOOL" generate --model gaussian --length 4 --lines 2048 --quiet \
        --grid 256x256x256 --out "$o" >/dev/null 2>&1 &
    local pid=$! waited=0
    # signalled once its temporary exists: mid-run on any machine (a run
    # of many seconds), not after a fixed sleep that a fast run outlives
    while [ -z "$(ls -A | grep "^\.$o\.tmp-" || true)" ] && [ $waited -lt 200 ]; do
        sleep 0.05
        waited=$((waited + 1))
    done
    kill -s "$sig" "$pid" 2>/dev/null
    wait "$pid"
    local rc=$?
    no_temps
    if [ "$rc" -eq 0 ]; then
        "$H5LS" "$o" >/dev/null || fail "SIG$sig: finished $o unreadable"
    elif [ "$rc" -lt 128 ]; then
        fail "SIG$sig: rc $rc"
    elif [ -e "$o" ]; then
        fail "SIG$sig: killed run (rc $rc) left $o"
    fi
    rm -f "$o" "${o%.*}.xmf"
    echo "SIG$sig: rc $rc"
}

case_signals() {
    if ! env --default-signal true 2>/dev/null; then
        echo "env --default-signal missing (coreutils < 8.31): skipped"
        exit 77
    fi
    # A signal while the writer makes and opens the temporary (HDF5 or
    # netCDF writing its header): the writer raises SIGTERM there itself
    # (TBRF_TEST_IO_CREATE_SIGNAL, io/writer.c), so the window that
    # the timed kills below hit only by chance is hit on every run. The
    # command lists the temporary before it exists (cli_guard_new_temp).
    local when o sig
    for when in made opened; do
        for o in c.h5 c.nc; do
            run env --default-signal=TERM TBRF_TEST_IO_CREATE_SIGNAL=$when "$TOOL" generate \
                "${G[@]}" --grid 8x8x8 --out "$o"
            [ "$rc" -eq 143 ] || fail "signal while creating $o ($when): rc $rc, not 143 (SIGTERM)"
            [ -e "$o" ] && fail "signal while creating $o ($when): $o published"
            no_temps
            rm -f .c.*.tmp-* # a failure's leftovers are not the next check's
        done
        # a drive series (cmd_drive.c) writes through the same writer
        run env --default-signal=TERM TBRF_TEST_IO_CREATE_SIGNAL=$when "$TOOL" drive --box 1 \
            --model band --kmin 6.283185307179586 --kmax 18.84955592153876 --zeta 0.6 \
            --tcorr 0.5 --rms 2 --seed 9 --times 0:1:0.5 --grid 4x4x4 --out d.h5 --quiet
        [ "$rc" -eq 143 ] || fail "signal while creating series d.h5 ($when): rc $rc, not 143"
        [ -e d.h5 ] && fail "signal while creating series d.h5 ($when): d.h5 published"
        no_temps
        rm -f .d.h5.tmp-*
    done
    for sig in QUIT USR1 USR2 ALRM XCPU VTALRM PROF HUP TERM INT PIPE; do
        killed_run "$sig" k.h5
    done
    killed_run QUIT k.nc
    killed_run XCPU k.nc
}

case_stale_temp() {
    # kill -9 cannot be caught: the temporary stays, without the mark of a
    # complete file, and the next run to the same name removes it.
    local fmt o tmp
    for fmt in h5 nc; do
        o=big.$fmt
        # a run of many seconds, killed once its temporary exists (a fixed
        # sleep raced with the run once the projection got faster)
        "$TOOL" generate --model gaussian --length 4 --lines 2048 --quiet --grid 256x256x256 \
            --out "$o" >/dev/null 2>&1 &
        local pid=$! waited=0
        while [ -z "$(ls -A | grep "^\.$o\.tmp-" || true)" ] && [ $waited -lt 200 ]; do
            sleep 0.05
            waited=$((waited + 1))
        done
        sleep 0.2 # into the run: the temporary holds some of the field
        kill -9 "$pid"
        wait "$pid" 2>/dev/null
        tmp=$(ls -A | grep "^\.$o\.tmp-" || true)
        if [ -z "$tmp" ]; then
            fail "$fmt: kill -9 left no temporary (run too short?)"
            continue
        fi
        if "$H5DUMP" -A "$tmp" 2>/dev/null | grep -q tbrf_complete; then
            fail "$fmt: the killed temporary is marked complete"
        fi
        # A temporary of a live process (this shell) is not stale.
        touch ".$o.tmp-$$"
        expect_ok "$TOOL" generate "${G[@]}" --grid 8x8x8 --out "$o" || continue
        [ -e "$tmp" ] && fail "$fmt: stale temporary $tmp not removed"
        [ -e ".$o.tmp-$$" ] || fail "$fmt: a live process's temporary was removed"
        rm -f ".$o.tmp-$$"
        "$H5DUMP" -A "$o" | grep -q 'tbrf_complete' || fail "$o not marked complete"
    done
    no_temps
}

case_mode() {
    expect_ok "$TOOL" generate "${G[@]}" --grid 8x8x8 --out m.h5 || return
    chmod 640 m.h5
    chmod 604 m.xmf
    expect_ok "$TOOL" generate "${G[@]}" --grid 8x8x8 --seed 3 --out m.h5
    [ "$(stat -c %a m.h5)" = 640 ] || fail "replaced m.h5 has mode $(stat -c %a m.h5), not 640"
    [ "$(stat -c %a m.xmf)" = 604 ] || fail "replaced m.xmf has mode $(stat -c %a m.xmf), not 604"
    chmod 600 m.nc 2>/dev/null
    expect_ok "$TOOL" generate "${G[@]}" --grid 8x8x8 --out m.nc && chmod 600 m.nc &&
        expect_ok "$TOOL" generate "${G[@]}" --grid 8x8x8 --seed 4 --out m.nc
    [ "$(stat -c %a m.nc)" = 600 ] || fail "replaced m.nc has mode $(stat -c %a m.nc)"
    no_temps
}

case_long_name() {
    local base
    base=$(printf 'n%.0s' $(seq 1 249))
    expect_ok "$TOOL" generate "${G[@]}" --grid 8x8x8 --out "$base.h5" || return
    [ -f "$base.h5" ] && [ -f "$base.xmf" ] || fail "249-byte name: output or side file missing"
    expect_ok "$TOOL" generate "${G[@]}" --grid 8x8x8 --out "$base.nc"
    [ -f "$base.nc" ] || fail "249-byte .nc name not written"
    # A name too long for the file system is refused cleanly.
    expect_fail 'too long|File name' "$TOOL" generate "${G[@]}" --grid 8x8x8 \
        --out "$(printf 'n%.0s' $(seq 1 300)).h5"
    no_temps
}

if ! declare -F "case_$CASE" >/dev/null; then
    echo "unknown case $CASE"
    exit 2
fi
"case_$CASE"
if [ "$failures" -ne 0 ]; then
    echo "$CASE: $failures failure(s)"
    exit 1
fi
echo "$CASE: ok"
