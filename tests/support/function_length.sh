#!/usr/bin/env bash
# function_length.sh [-x EXCEPTIONS] [--list] MAX FILE... — no function body
# in FILEs is longer than MAX lines (the functions stay short enough to
# read whole). A body runs from a `{` in column 0 to the next `}` in column
# 0, the style every C file here follows; the function is named by the
# last line in column 0 before it that opens a parameter list.
#
# EXCEPTIONS (tests/support/long_functions.txt) lists the functions allowed
# to be longer, one "path:function reason" a line, path as given on the
# command line (run from the source root: io/reader.c); '#' starts a
# comment. An exception that no longer applies
# (the function is gone or short now) fails too, so the list stays true.
# --list prints the current long functions in that format (reason "TODO"),
# to regenerate the list:
#   tests/support/function_length.sh --list 80 $(cd SRC && find c io -name '*.c' | sort)
set -euo pipefail
exceptions=/dev/null list=0
while [ $# -gt 0 ]; do
    case $1 in
    -x) exceptions=$2; shift 2 ;;
    --list) list=1; shift ;;
    *) break ;;
    esac
done
max=$1
shift
awk -v max="$max" -v list="$list" -v exfile="$exceptions" '
    BEGIN {
        while ((getline line < exfile) > 0) {
            sub(/#.*/, "", line)
            if (split(line, w, /[ \t]+/) < 1 || w[1] == "") continue
            ex[w[1]] = 1; nex++
        }
    }
    /^[A-Za-z_][^;]*\(/ && !/^(typedef|struct|enum|union)[ \t]/ {
        name = $0; sub(/[ \t]*\(.*/, "", name); sub(/.*[ \t*]/, "", name)
        sigline = FNR
    }
    /^\{/ { start = FNR }
    /^\}/ && start {
        n = FNR - start - 1
        k = FILENAME ":" name
        if (n > max && list) printf "%s TODO: why it is longer than %d lines (%d)\n", k, max, n
        else if (n > max && (k in ex)) { used[k] = 1; allowed++ }
        else if (n > max) { printf "%s:%d: %s, a function of %d lines (at most %d)\n", FILENAME, sigline, name, n, max; bad = 1 }
        else if (n > longest) longest = n
        start = 0; count++
    }
    END {
        if (list) exit 0
        for (k in ex) if (!(k in used)) { printf "%s: listed as an exception but not longer than %d lines (or gone): remove it from %s\n", k, max, exfile; bad = 1 }
        if (!bad) printf "%d functions, the longest %d lines (at most %d) but %d listed exceptions\n", count, longest, max, allowed + 0
        exit bad
    }
' "$@"
