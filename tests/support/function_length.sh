#!/usr/bin/env bash
# function_length.sh MAX FILE... — no function body in FILEs is longer than
# MAX lines (issue #11: the command's functions stay short enough to read
# whole). A body runs from a `{` in column 0 to the next `}` in column 0,
# the style every C file here follows.
set -euo pipefail
max=$1
shift
awk -v max="$max" '
    /^[A-Za-z_].*\)[ \t]*$/ { sigline = FNR }
    /^\{/ { start = FNR }
    /^\}/ && start {
        n = FNR - start - 1
        if (n > max) { printf "%s:%d: a function of %d lines (at most %d)\n", FILENAME, sigline, n, max; bad = 1 }
        if (n > longest) longest = n
        start = 0; count++
    }
    END { if (!bad) printf "%d functions, the longest %d lines (at most %d)\n", count, longest, max; exit bad }
' "$@"
