#!/usr/bin/env bash
# run_sanitized.sh LIBTBRF SOURCE_DIR CC — ctest's python_reliability_sanitized
# in the sanitizer build: test_reliability.py (close() during a call from
# another thread, aliased outputs, Ctrl-C, ...) against the ASan+UBSan
# libtbrf, whose runtimes must be loaded before Python's own allocations,
# hence LD_PRELOAD of the compiler's libasan and libubsan. LeakSanitizer
# is off: CPython keeps its interned objects to the end. The package is
# used from the source tree (PYTHONPATH), nothing is installed. Exit 77
# (skipped) without pytest and numpy or the runtimes.
set -u
lib=$1 src=$2 cc=$3
py=${TBRF_TEST_PYTHON:-/usr/bin/python3}
skip() { echo "python_reliability_sanitized skipped: $*"; exit 77; }
for m in pytest numpy; do "$py" -c "import $m" 2>/dev/null || skip "no $m for $py"; done
asan=$("$cc" -print-file-name=libasan.so) ubsan=$("$cc" -print-file-name=libubsan.so)
[ -e "$asan" ] && [ -e "$ubsan" ] || skip "no libasan.so / libubsan.so beside $cc"
[ -e "$lib" ] || skip "no $lib"
cd "$(mktemp -d)" || exit 1
LD_PRELOAD="$asan $ubsan" ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 \
  TBRF_LIBRARY=$lib TBRF_SOURCE_DIR=$src PYTHONPATH=$src/python PYTHONDONTWRITEBYTECODE=1 \
  exec "$py" -m pytest -q -p no:cacheprovider "$src/python/tests/test_reliability.py"
