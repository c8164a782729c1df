#!/usr/bin/env bash
# test_inputs.sh — the command against hostile inputs (doc/guarantees-inputs.md), one case per ctest test (inputs_CASE).
#
#   test_inputs.sh TOOL HOSTILE H5DUMP CASE
#
# HOSTILE is tests/io/io_hostile (`make KIND OUT [BASE]` crafts a file).
# Bad input must exit 1 or 2 (never a signal, never a run that is killed
# for time or memory), print exactly one "tbrf: " line that says what is
# wrong, print nothing on stdout and leave no file behind. Each command
# runs under `timeout`, and in a build without sanitizers under a 4 GiB
# address-space limit, so a reader that trusts a size it read fails here.
set -u

TOOL=$(realpath "$1")
HOSTILE=$(realpath "$2")
H5DUMP=$3
CASE=$4

. "$(dirname "${BASH_SOURCE[0]}")/../support/cli_lib.sh"
RUN_TIMEOUT=60 # a hostile input must not make a run hang
cli_workdir tbrf-inputs
# Sanitizer runtimes reserve terabytes of address space: no limit there.
# Two threads keep the per-thread malloc arenas small on a many-core box.
export OMP_NUM_THREADS=2
if ! ldd "$TOOL" 2>/dev/null | grep -Eq 'lib(a|ub)san'; then
    ulimit -v 4194304
fi

expect_ok() {
    run "$@"
    if [ "$rc" -ne 0 ]; then
        fail "expected success (rc $rc): $*"
        printf '  stderr: %s\n' "$err"
        return 1
    fi
    return 0
}

# expect_fail PATTERN CMD...: rc 1 or 2, one "tbrf: " line matching the
# extended regular expression PATTERN, empty stdout, no file changed.
expect_fail() {
    local pat=$1 before after lines
    shift
    before=$(listing)
    run "$@"
    after=$(listing)
    if [ "$rc" -eq 0 ]; then
        fail "expected failure but got rc 0: $*"
    elif [ "$rc" -ne 1 ] && [ "$rc" -ne 2 ]; then
        fail "crashed, killed or timed out (rc $rc): $*"
    fi
    lines=$(printf '%s\n' "$err" | grep -c '')
    if [ -z "$err" ] || [ "$lines" -ne 1 ] || [ "${err#tbrf: }" = "$err" ]; then
        fail "expected one 'tbrf: ' line on stderr, got $lines: $*"
        printf '  stderr: %s\n' "$err" | head -5
    elif ! printf '%s\n' "$err" | grep -Eq -- "$pat"; then
        fail "message does not match '$pat': $*"
        printf '  stderr: %s\n' "$err"
    fi
    [ -z "$out" ] || fail "unexpected stdout from failing command: $*"
    [ "$before" = "$after" ] || fail "files changed by failing command: $*"
}

make_file() {
    "$HOSTILE" make "$@" || fail "io_hostile make $*"
}

G=(generate --model gaussian --length 2 --lines 32 --seed 5)

# Item 1: string attributes stored as arrays never overflow a buffer;
# every string type (fixed NULLPAD without a NUL, variable-length UTF-8)
# is read.
case_strings() {
    expect_ok "$TOOL" "${G[@]}" --grid 16x16x16 --out base.h5 || return
    expect_ok "$TOOL" "${G[@]}" --grid 16x16x16 --out base.nc || return
    local k
    for k in strarray vlarray; do
        make_file "$k" "$k.h5" base.h5
        expect_fail 'model_kind is not one string' "$TOOL" regenerate "$k.h5" --out r.h5
        expect_fail 'model_kind is not one string' "$TOOL" spectrum "$k.h5"
        expect_ok "$TOOL" info "$k.h5"
    done
    for k in utf8 nullpad; do
        make_file "$k" "$k.h5" base.h5
        expect_ok "$TOOL" regenerate "$k.h5" --out "r_$k.h5" --check || continue
        expect_ok "$TOOL" info "$k.h5" &&
            printf '%s\n' "$out" | grep -q 'model_kind *= "gaussian"' ||
            fail "$k: info does not show model_kind = \"gaussian\""
        expect_ok "$TOOL" spectrum "$k.h5"
    done
    # netCDF text attributes (fixed length, no NUL) and the same as UTF-8.
    make_file utf8 utf8.nc base.nc
    expect_ok "$TOOL" regenerate utf8.nc --out r_nc.h5 --check
}

# Item 8: sizes read from files or inputs are checked before anything is
# allocated or read.
case_budgets() {
    expect_ok "$TOOL" "${G[@]}" --grid 16x16x16 --out base.h5 || return
    # Unbounded text: /dev/zero, one huge line.
    expect_fail 'binary|NUL' "$TOOL" generate --model table --table /dev/zero --grid 8x8x8 --out o.h5
    expect_fail 'binary' "$TOOL" "${G[@]}" --points /dev/zero --out o.h5
    head -c 3000000 /dev/zero | tr '\0' ' ' >wide.txt
    printf '\n' >>wide.txt
    expect_fail 'line longer' "$TOOL" generate --model table --table wide.txt --grid 8x8x8 --out o.h5
    expect_fail 'line longer' "$TOOL" "${G[@]}" --points wide.txt --out o.h5
    rm -f wide.txt
    # 2 KB declaring 2e8 points that were never written.
    make_file points2e8 p.h5
    expect_fail 'stores only|memory budget' "$TOOL" "${G[@]}" --points p.h5 --out o.h5
    rm -f p.h5
    # spectrum: the dataset's real shape against the attributes and budget.
    make_file bigfield big.h5 base.h5
    expect_fail 'stores only|grid_counts' "$TOOL" spectrum big.h5
    make_file shape shape.h5 base.h5
    expect_fail 'grid_counts says 16x16x16' "$TOOL" spectrum shape.h5
    TBRF_MEMORY_BUDGET=64K expect_fail 'memory budget' "$TOOL" spectrum base.h5
    expect_ok "$TOOL" spectrum base.h5
    rm -f big.h5 shape.h5
    # preview refuses a plane too large to draw before reading it.
    make_file wideplane wide.h5 base.h5
    expect_fail 'too large for an image|stores only' "$TOOL" preview wide.h5 --axis z --index 0 \
        --out s.png
    rm -f wide.h5
    # regenerate: a 2e7-row /model_table, and lines x samples of terabytes.
    make_file bigtable table.h5 base.h5
    expect_fail 'model_table' "$TOOL" regenerate table.h5 --out r.h5
    make_file biglines lines.h5 base.h5
    TBRF_MEMORY_BUDGET=1G expect_fail 'memory budget' "$TOOL" regenerate lines.h5 --out r.h5
    rm -f table.h5 lines.h5
    # The budget variable itself.
    TBRF_MEMORY_BUDGET=lots expect_fail 'not a size' "$TOOL" spectrum base.h5
}

# Item 13: a negative seed, control characters, netCDF coordinates.
case_attributes() {
    expect_ok "$TOOL" "${G[@]}" --grid 8x8x8 --out base.h5 || return
    make_file seedneg neg.h5 base.h5
    expect_fail 'seed' "$TOOL" regenerate neg.h5 --out r.h5
    make_file ctrl ctrl.h5
    expect_ok "$TOOL" info ctrl.h5 || return
    if printf '%s' "$out" | LC_ALL=C grep -q "$(printf '[\001-\010\013-\037\177]')"; then
        fail "info printed raw control characters"
    fi
    printf '%s\n' "$out" | grep -Fq 'evil\x1b]0;title\x07' || fail "info: escaped attribute name"
    printf '%s\n' "$out" | grep -Fq '"line1\nline2\x1b[2J\r"' || fail "info: escaped value"
    printf '%s\n' "$out" | grep -Fq '"a\x07b"' || fail "info: escaped fixed string"
    # File contents quoted in messages are escaped too.
    printf '0.1 1\n\033[2Jx 1\n' >esc.txt
    expect_fail 'esc.txt:2: "\?\[2Jx" is not a number' "$TOOL" generate --model table --table esc.txt \
        --grid 8x8x8 --out o.h5
    printf '1 2 3\n\033[31m 2 3\n' >escp.txt
    expect_fail "escp.txt:2: '.x1b\[31m' is not a number" "$TOOL" "${G[@]}" --points escp.txt --out o.h5
    make_file ctrl "$(printf 'bad\033name.h5')"
    expect_fail 'bad.x1bname.h5' "$TOOL" spectrum "$(printf 'bad\033name.h5')"
    rm -f esc.txt escp.txt bad*
    make_file ncint int.nc
    expect_fail 'floating-point' "$TOOL" "${G[@]}" --points int.nc --out o.h5
    make_file ncfill fill.nc
    expect_fail 'fill value' "$TOOL" "${G[@]}" --points fill.nc --out o.h5
}

# Item 6: long comments in a table; /model_table equals the table that
# made the field.
case_table_comments() {
    {
        printf '# %s 0.05 7\n' "$(head -c 5000 /dev/zero | tr '\0' c)"
        printf '0.1 1\n'
        printf '#%s\n' "$(head -c 6000 /dev/zero | tr '\0' x)"
        printf '0.5 0.5 # trailing\n2 0.25\n'
    } >t.txt
    expect_ok "$TOOL" generate --model table --table t.txt --grid 8x8x8 --lines 16 --out t.h5 || return
    local rows
    rows=$("$H5DUMP" -d /model_table -y -w 0 t.h5 | sed -n '/DATA {/,/}/p' | tr -d ' \n')
    [ "$rows" = 'DATA{0.1,1,0.5,0.5,2,0.25}' ] || fail "/model_table holds $rows"
    expect_ok "$TOOL" regenerate t.h5 --out r.h5 --check
    printf '1 0.1\n' >>t.txt
    expect_fail 't.txt:6:' "$TOOL" generate --model table --table t.txt --grid 8x8x8 --out o.h5
}

"case_$CASE"
if [ "$failures" -ne 0 ]; then
    echo "$CASE: $failures failure(s)"
    exit 1
fi
echo "$CASE: ok"
