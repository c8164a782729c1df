"""Shared fixtures: the `tbrf` command (for files to compare with) and a
temporary directory. The library itself is found by the package
(TBRF_LIBRARY in ctest's run, doc/python.md)."""
import os
import shutil
import subprocess

import pytest


def _cli():
    path = os.environ.get("TBRF_CLI") or shutil.which("tbrf")
    return path if path and os.access(path, os.X_OK) else None


@pytest.fixture(scope="session")
def tbrf_cli():
    path = _cli()
    if not path:
        pytest.skip("no tbrf command (set TBRF_CLI)")

    def run(*args, cwd=None):
        p = subprocess.run([path, *map(str, args), "--quiet"], capture_output=True, text=True,
                           cwd=cwd)
        assert p.returncode == 0, p.stderr
        return p
    return run


def pytest_report_header(config):
    import tbrf
    return f"tbrf {tbrf.__version__} from {tbrf.__file__}, libtbrf {tbrf.library_version()} " \
           f"at {tbrf.LIBRARY_PATH}"
