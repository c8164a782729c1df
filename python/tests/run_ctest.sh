#!/usr/bin/env bash
# run_ctest.sh BUILD_DIR LIBTBRF TBRF_CLI SOURCE_DIR [LIBTBRF_WRITER] — ctest's python_package:
# the package's pytest suite, from a copy of python/ in a fresh virtual
# environment (offline: Debian's numpy, h5py and pytest come through
# --system-site-packages, nothing is downloaded), against this build
# tree's libtbrf (TBRF_LIBRARY) and tbrf command (TBRF_CLI). The install a
# user runs, `pip install ./python` (which builds libtbrf itself), is
# python_wheel's (wheel_ctest.sh). Exit 77 (skipped) without python3-venv
# or python3-pytest.
set -u
build=$1 lib=$2 cli=$3 src=$4 writer=${5:-}
# $TBRF_TEST_PYTHON overrides the Python (Debian's, whose packages the venv uses)
py=${TBRF_TEST_PYTHON:-/usr/bin/python3}
skip() { echo "python_package skipped: $*"; exit 77; }
[ -x "$py" ] || skip "no $py"
"$py" -c "import ensurepip, venv" 2>/dev/null || skip "no python3-venv"
for m in pytest numpy h5py; do
  "$py" -c "import $m" 2>/dev/null || skip "no $m for $py (scripts/install-deps.sh installs it)"
done
case "$lib" in
  *.so | *.so.*) [ -e "$lib" ] || skip "no $lib" ;;
  *) skip "libtbrf is not a shared library ($lib): a static build" ;;
esac
work=$build/python
rm -rf "$work"
mkdir -p "$work" || exit 1
"$py" -m venv --system-site-packages "$work/venv" || skip "python3 -m venv failed"
# a copy, so that no __pycache__ is left beside the sources
cp -r "$src/python" "$work/src" || exit 1
cd "$work" || exit 1
[ -n "$writer" ] && export TBRF_WRITER_LIBRARY=$writer
export TBRF_LIBRARY=$lib TBRF_CLI=$cli TBRF_SOURCE_DIR=$src MPLBACKEND=Agg PYTHONPATH=$work/src
"$work/venv/bin/python" -c "import tbrf, sys; print('tbrf', tbrf.__version__, 'from', tbrf.__file__, 'over', tbrf.LIBRARY_PATH)" \
  || exit 1
exec "$work/venv/bin/python" -m pytest -q -p no:cacheprovider "$work/src/tests"
