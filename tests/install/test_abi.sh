#!/usr/bin/env bash
# test_abi.sh HEADER[,HEADER...] LIBTBRF INTERNAL_ARCHIVE — the library's
# ABI is what its headers document, nothing more:
#  1. `nm -D` of libtbrf lists exactly the functions tbrf.h declares with
#     TBRF_API (no internal function, no variable leaks out);
#  2. every TBRF_API declaration follows a comment (its documentation);
#  3. every global symbol of the library's objects (tbrf_internal, which a
#     static link would carry into a user's program) starts with tbrf, so
#     none can clash with the symbols of the simulation codes tbrf lives in.
set -euo pipefail
IFS=, read -ra headers <<<"$1"
lib=$2 archive=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
# an umbrella header: the feature headers it includes ("tbrf/NAME.h",
# found in its folder) declare the functions
given=("${headers[@]}")
headers=()
for h in "${given[@]}"; do
    headers+=("$h")
    for inc in $(sed -n 's/^[ \t]*#[ \t]*include[ \t]*"\(tbrf\/[A-Za-z0-9_]*\.h\)".*/\1/p' "$h"); do
        headers+=("$(dirname "$h")/$inc")
    done
done

# the declared names: a line `TBRF_API <type> name(...`
grep -h '^TBRF_API ' "${headers[@]}" | sed -E 's/^[^(]*[ *]([A-Za-z_0-9]+)\(.*/\1/' | sort -u >"$tmp/declared"
nm -D --defined-only "$lib" | awk '{print $NF}' | sort -u >"$tmp/exported"
test -s "$tmp/declared"
if ! diff -u "$tmp/declared" "$tmp/exported" >"$tmp/diff"; then
    echo "exported symbols differ from the TBRF_API functions of $1:"
    grep '^[-+][^-+]' "$tmp/diff" | sed 's/^-/  declared, not exported: /; s/^+/  exported, not declared: /'
    fail=1
fi

# the line before each TBRF_API declaration ends a comment
awk '/^TBRF_API / && prev !~ /\*\/[ \t]*$/ { print "  no comment before: " $0; bad = 1 }
     FNR == 1 { prev = "" } { prev = $0 } END { exit bad }' "${headers[@]}" || fail=1

# strong global symbols of the objects (T, D, B, R: weak ones are C++
# template and inline instantiations, merged by the linker): tbrf*, or
# what compilers and sanitizers generate
nm -g --defined-only "$archive" 2>/dev/null | awk 'NF == 3 && $2 ~ /^[TDBR]$/ {print $3}' | sort -u \
    | grep -Ev '^(tbrf|_Z[0-9]+tbrf|_Z[0-9]+__device_stub__Z[0-9]+tbrf|__odr_asan\.tbrf|DW\.ref\.__gxx_personality_v0$|__cudaRegisterLinkedBinary|__fatbinwrap|__nv_)' \
    >"$tmp/unprefixed" || true
if [ -s "$tmp/unprefixed" ]; then
    echo "global symbols without the tbrf prefix:"
    sed 's/^/  /' "$tmp/unprefixed"
    fail=1
fi
[ "$fail" -eq 0 ] || exit 1
echo "$(wc -l <"$tmp/exported") exported functions, all declared and documented in $1; every global symbol prefixed"
