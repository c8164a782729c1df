#!/usr/bin/env bash
# wheel_ctest.sh BUILD_DIR SOURCE_DIR — ctest's python_wheel: what
# doc/python.md gives a user, `pip install ./python` into a fresh virtual
# environment without Debian's packages (no --system-site-packages, no
# TBRF_LIBRARY, no pkg-config path), which builds libtbrf with CMake
# through scikit-build-core and bundles it; then tbrf imports from the
# wheel's own libtbrf, its version is the library's and the metadata's, and
# it makes a field. scikit-build-core and numpy come from PyPI: exit 77
# (skipped) where PyPI cannot be reached, or without python3-venv.
set -u
build=$1 src=$2
py=${TBRF_TEST_PYTHON:-/usr/bin/python3}
skip() { echo "python_wheel skipped: $*"; exit 77; }
[ -x "$py" ] || skip "no $py"
"$py" -c "import ensurepip, venv" 2>/dev/null || skip "no python3-venv"
work=$build/python_wheel
rm -rf "$work"
mkdir -p "$work" || exit 1
"$py" -m venv "$work/venv" || skip "python3 -m venv failed"
pip=("$work/venv/bin/python" -m pip --disable-pip-version-check)
"${pip[@]}" download --quiet --no-deps -d "$work/probe" scikit-build-core >/dev/null 2>&1 ||
    skip "PyPI not reachable (scikit-build-core)"
cd "$work" || exit 1
env -u TBRF_LIBRARY -u PKG_CONFIG_PATH -u LD_LIBRARY_PATH "${pip[@]}" install --quiet "$src/python" \
    >"$work/pip.log" 2>&1 || { tail -40 "$work/pip.log"; echo "pip install ./python failed"; exit 1; }
env -u TBRF_LIBRARY -u PKG_CONFIG_PATH -u LD_LIBRARY_PATH "$work/venv/bin/python" - "$src" <<'PY'
import importlib.metadata, os, re, sys
import tbrf
src = sys.argv[1]
want = re.search(r"project\(tbrf VERSION ([0-9.]+)", open(os.path.join(src, "CMakeLists.txt")).read())[1]
here = os.path.dirname(tbrf.__file__)
print("tbrf", tbrf.__version__, "library", tbrf.library_version(), "metadata",
      importlib.metadata.version("tbrf"), "from", tbrf.LIBRARY_PATH)
fail = []
if os.path.dirname(tbrf.LIBRARY_PATH) != here:
    fail.append(f"the library loaded is {tbrf.LIBRARY_PATH}, not the wheel's in {here}")
if not (tbrf.__version__ == tbrf.library_version() == importlib.metadata.version("tbrf") == want):
    fail.append(f"versions differ: package {tbrf.__version__}, library {tbrf.library_version()}, "
                f"metadata {importlib.metadata.version('tbrf')}, CMakeLists.txt {want}")
f = tbrf.Field('gaussian', 3, length=2).grid((0, 0, 0), 1, (16, 16, 16))
if f.shape != (16, 16, 16) or not 0.5 < f.std() < 1.5:
    fail.append(f"the field: shape {f.shape}, std {f.std()}")
if fail:
    sys.exit("\n".join(fail))
print("pip install ./python: tbrf imports from its own wheel and makes a field")
PY
