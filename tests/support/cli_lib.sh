# cli_lib.sh — what the command's test scripts (tests/cli/test_cli.sh,
# test_inputs.sh, test_outputs.sh) share; sourced, not run.
#
#   cli_workdir NAME   makes and enters an empty temporary directory W
#                      (removed on exit), so left-over files are easy to see
#   fail MSG           counts a failure (the script exits with the count)
#   run CMD...         runs CMD, setting rc, out (stdout) and err (stderr);
#                      at most RUN_TIMEOUT seconds when that is set
#   listing            W's entries, sorted (with modification times when
#                      LISTING_TIMES=1, so a rewritten file shows too)

failures=0

cli_workdir() {
    W=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX") || exit 1
    trap 'rm -rf "$W"' EXIT
    cd "$W" || exit 1
}

fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

run() {
    if [ -n "${RUN_TIMEOUT:-}" ]; then
        timeout "$RUN_TIMEOUT" "$@" >"$W/.stdout" 2>"$W/.stderr"
    else
        "$@" >"$W/.stdout" 2>"$W/.stderr"
    fi
    rc=$?
    out=$(cat "$W/.stdout")
    err=$(cat "$W/.stderr")
    rm -f "$W/.stdout" "$W/.stderr"
}

listing() {
    if [ "${LISTING_TIMES:-0}" = 1 ]; then
        ls -lA --time-style=+%s.%N "$W" | sort
    else
        ls -A "$W" | sort
    fi
}
