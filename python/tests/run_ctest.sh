#!/usr/bin/env bash
# run_ctest.sh BUILD_DIR LIBTBRF TBRF_CLI SOURCE_DIR — ctest's python_package:
# installs the package python/ into a fresh virtual environment the way
# doc/python.md says a user does (offline: Debian's numpy, h5py, pytest and
# setuptools come through --system-site-packages, nothing is downloaded)
# and runs its pytest suite against this build tree's libtbrf (TBRF_LIBRARY)
# and tbrf command (TBRF_CLI). Exit 77 (skipped) without python3-venv or
# python3-pytest.
set -u
build=$1 lib=$2 cli=$3 src=$4
# $TBRF_TEST_PYTHON overrides the Python (Debian's, whose packages the venv uses)
py=${TBRF_TEST_PYTHON:-/usr/bin/python3}
skip() { echo "python_package skipped: $*"; exit 77; }
[ -x "$py" ] || skip "no $py"
"$py" -c "import ensurepip, venv" 2>/dev/null || skip "no python3-venv"
for m in pytest numpy h5py setuptools; do
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
# install from a copy: setuptools writes build/ and *.egg-info beside the sources
cp -r "$src/python" "$work/src" || exit 1
"$work/venv/bin/python" -m pip install --quiet --no-index --no-build-isolation --no-deps \
  "$work/src" || { echo "pip install ./python failed"; exit 1; }
cd "$work" || exit 1
export TBRF_LIBRARY=$lib TBRF_CLI=$cli TBRF_SOURCE_DIR=$src MPLBACKEND=Agg
# the tests import the installed package, not the copy's sources
"$work/venv/bin/python" -c "import tbrf, sys; print('tbrf', tbrf.__version__, 'from', tbrf.__file__, 'over', tbrf.LIBRARY_PATH)" \
  || exit 1
exec "$work/venv/bin/python" -m pytest -q -p no:cacheprovider "$work/src/tests"
