#!/usr/bin/env bash
# test_cli_rng.sh — tests of `tbrf rng` and `tbrf mc`.
#
#   test_cli_rng.sh TOOL KAT_FILE CASE
#
# CASE: kat (every vector of KAT_FILE through `tbrf rng --hex`), raw (raw
# words equal the hex words, counts, endless output), layouts (pair
# symmetry, particle/system consistency), mc (JSON fields, estimate within
# 4 standard errors, algorithms agree), bad_args (one "tbrf: " line on
# stderr, nothing on stdout, exit 2), dieharder (optional, exit 77 = skip).
set -u
TOOL=$1
KAT=$2
CASE=$3
failures=0
fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}
hexwords() { tr -s ' \n' '  ' | sed 's/^ *//; s/ *$//'; }

case $CASE in
kat)
    n=0
    while read -r name rest; do
        case $name in '#'* | '') continue ;; esac
        in=${rest%%->*}
        want=$(echo "${rest##*->}" | hexwords)
        set -- $in
        case $name in
        philox4x32) shift; args="--gen philox --counter 0x$1,0x$2,0x$3,0x$4 --key 0x$5,0x$6" ;;
        saru1) args="--gen saru --seeds 0x$1" ;;
        saru2) args="--gen saru --seeds 0x$1,0x$2" ;;
        saru3) args="--gen saru --seeds 0x$1,0x$2,0x$3" ;;
        tea8) args="--gen tea8 --input 0x$1,0x$2 --key 0x$3,0x$4,0x$5,0x$6" ;;
        lcg64 | lcg64-permuted) args="--gen $name --seed $(printf '%u' 0x$1$2)" ;;
        *) continue ;;
        esac
        cnt=$(echo "$want" | wc -w)
        got=$("$TOOL" rng $args --count "$cnt" --hex | hexwords)
        [ "$got" = "$want" ] || fail "$name $in: got '$got' want '$want'"
        n=$((n + 1))
    done <"$KAT"
    [ $n -ge 20 ] || fail "only $n vectors checked"
    echo "$n vectors checked through tbrf rng"
    ;;
raw)
    for g in philox saru tea8 lcg64 lcg64-permuted; do
        hex=$("$TOOL" rng --gen $g --count 10 --hex | hexwords)
        raw=$("$TOOL" rng --gen $g --count 10 | od -An -v -tx4 --endian=little | hexwords)
        [ "$hex" = "$raw" ] || fail "$g: raw '$raw' != hex '$hex'"
        bytes=$("$TOOL" rng --gen $g --count 1000 | wc -c)
        [ "$bytes" = 4000 ] || fail "$g: --count 1000 gave $bytes bytes"
        # endless without --count: the pipe is closed after 1 MB
        bytes=$("$TOOL" rng --gen $g | head -c 1048576 | wc -c)
        [ "$bytes" = 1048576 ] || fail "$g: endless output gave $bytes bytes"
    done
    # counter carry: block after ffffffff,0,0,0 is counter 0,1,0,0
    a=$("$TOOL" rng --gen philox --counter 0xffffffff,0,0,0 --count 8 --hex | hexwords)
    b=$("$TOOL" rng --gen philox --counter 0,1,0,0 --count 4 --hex | hexwords)
    [ "${a#* * * * }" = "$b" ] || fail "philox counter carry: '$a' vs '$b'"
    ;;
layouts)
    for g in saru philox tea8; do
        a=$("$TOOL" rng --gen $g --layout pair --pair 7,3 --seed 5 --count 64 --hex | hexwords)
        b=$("$TOOL" rng --gen $g --layout pair --pair 3,7 --seed 5 --count 64 --hex | hexwords)
        [ "$a" = "$b" ] || fail "$g: pair (7,3) != (3,7)"
        c=$("$TOOL" rng --gen $g --layout pair --pair 3,8 --seed 5 --count 64 --hex | hexwords)
        [ "$a" != "$c" ] || fail "$g: pair (3,7) == (3,8)"
        # system layout with 3 particles: words of step 0 particle 2 are
        # the particle layout's step 0 for --id 2
        per=4
        [ $g = tea8 ] && per=2
        perarg="--per 4"
        [ $g = tea8 ] && perarg=""
        s=$("$TOOL" rng --gen $g --layout system --particles 3 $perarg --seed 9 --count $((6 * per)) --hex | tr ' ' '\n')
        p=$("$TOOL" rng --gen $g --layout particle --id 2 $perarg --seed 9 --count $((2 * per)) --hex | tr ' ' '\n')
        s02=$(echo "$s" | sed -n "$((2 * per + 1)),$((3 * per))p" | hexwords)
        s12=$(echo "$s" | sed -n "$((5 * per + 1)),$((6 * per))p" | hexwords)
        p0=$(echo "$p" | sed -n "1,${per}p" | hexwords)
        p1=$(echo "$p" | sed -n "$((per + 1)),$((2 * per))p" | hexwords)
        [ "$s02" = "$p0" ] && [ "$s12" = "$p1" ] || fail "$g: system and particle layouts disagree"
    done
    ;;
mc)
    for k in oscillatory productpeak cornerpeak gaussian continuous discontinuous nag; do
        d=5
        [ $k = nag ] && d=4
        j=$("$TOOL" mc --integrand $k --dim $d --n 300000 --seed 7 --json) || fail "$k: exit $?"
        for f in estimate stderr exact n seconds; do
            echo "$j" | grep -q "\"$f\": " || fail "$k: no $f in $j"
        done
        get() { echo "$j" | sed "s/.*\"$1\": \([^,}]*\).*/\1/"; }
        # |estimate - exact| < 4 stderr (a correct estimator fails with p = 6e-5)
        awk -v e="$(get estimate)" -v s="$(get stderr)" -v x="$(get exact)" \
            'BEGIN { z = (e - x) / s; exit !(s > 0 && z < 4 && z > -4) }' ||
            fail "$k: estimate $(get estimate) exact $(get exact) stderr $(get stderr)"
        e1=$(get estimate)
        j=$("$TOOL" mc --integrand $k --dim $d --n 300000 --seed 7 --json --algorithm sequential)
        [ "$(get estimate)" = "$e1" ] || fail "$k: sequential $(get estimate) != vectorized $e1"
    done
    "$TOOL" mc --integrand gaussian --dim 3 --n 1000 | grep -q '^estimate' || fail "text output"
    ;;
bad_args)
    expect_usage() {
        out=$("$TOOL" "$@" 2>"${TMPDIR:-/tmp}/rngerr.$$")
        rc=$?
        err=$(cat "${TMPDIR:-/tmp}/rngerr.$$")
        rm -f "${TMPDIR:-/tmp}/rngerr.$$"
        [ $rc = 2 ] || fail "'$*': exit $rc, want 2"
        [ -z "$out" ] || fail "'$*': stdout not empty"
        [ "$(echo "$err" | wc -l)" = 1 ] && [ "${err#tbrf: }" != "$err" ] ||
            fail "'$*': stderr '$err'"
    }
    expect_usage rng
    expect_usage rng --gen
    expect_usage rng --gen mt19937
    expect_usage rng --gen philox --counter 1,2,3
    expect_usage rng --gen philox --counter 1,2,3,4,5
    expect_usage rng --gen philox --counter 1,,3,4
    expect_usage rng --gen philox --key 0x1ffffffff,0
    expect_usage rng --gen philox --key zz,0
    expect_usage rng --gen philox --seeds 1
    expect_usage rng --gen saru --seeds 1,2,3,4
    expect_usage rng --gen saru --seeds -1
    expect_usage rng --gen saru --counter 0,0,0,0
    expect_usage rng --gen tea8 --input 1
    expect_usage rng --gen lcg64 --seed -5
    expect_usage rng --gen lcg64 --layout system
    expect_usage rng --gen saru --layout galaxy
    expect_usage rng --gen saru --layout system --seed 4294967296
    expect_usage rng --gen saru --layout pair --pair 1
    expect_usage rng --gen saru --count -1
    expect_usage rng --gen saru --count 1e9
    expect_usage rng --gen saru --hex=1
    expect_usage rng --gen saru --count
    expect_usage rng --gen saru --count 5 --count 6
    expect_usage rng --gen saru stray
    expect_usage mc
    expect_usage mc --integrand gaussian --dim 3
    expect_usage mc --integrand peaks --dim 3 --n 100
    expect_usage mc --integrand gaussian --dim 0 --n 100
    expect_usage mc --integrand gaussian --dim 3 --n 1
    expect_usage mc --integrand gaussian --dim 3 --n 100 --algorithm magic
    expect_usage mc --integrand gaussian --dim 3 --n 100 --algorithm sequential --block 4
    expect_usage mc --integrand gaussian --dim 3 --n 100 --backend fpga
    expect_usage mc --integrand nag --dim 3 --n 100
    expect_usage mc --integrand cornerpeak --dim 30 --n 100
    expect_usage mc --integrand discontinuous --dim 1 --n 100
    expect_usage mc --integrand gaussian --dim 3 --n 100 --seed nan
    "$TOOL" rng --help | grep -q 'usage: tbrf rng' || fail "rng --help"
    "$TOOL" mc --help | grep -q 'usage: tbrf mc' || fail "mc --help"
    ;;
dieharder)
    command -v dieharder >/dev/null 2>&1 || { echo "dieharder not installed: skipped"; exit 77; }
    # a few fast tests on each generator's keyed or plain output; any
    # FAILED verdict fails (WEAK is expected now and then at p < 0.005)
    for spec in "philox" "saru --layout system" "tea8 --layout system" "lcg64-permuted"; do
        out=$("$TOOL" rng --gen $spec | dieharder -g 200 -d 0 -p 30 2>&1; "$TOOL" rng --gen $spec | dieharder -g 200 -d 2 -p 30 2>&1)
        echo "$out" | grep -E 'PASSED|WEAK|FAILED'
        echo "$out" | grep -q FAILED && fail "dieharder on $spec"
    done
    ;;
*)
    echo "unknown case $CASE"
    exit 2
    ;;
esac
[ $failures = 0 ] && echo "$CASE: ok"
exit $((failures > 0))
