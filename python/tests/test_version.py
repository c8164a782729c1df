"""One version number: the package's, the library's it loads, and the
project's (the top CMakeLists.txt, which the wheel's metadata takes)."""
import os
import pathlib
import re

import tbrf


def test_one_version():
    src = os.environ.get("TBRF_SOURCE_DIR") or str(pathlib.Path(__file__).resolve().parents[2])
    text = (pathlib.Path(src) / "CMakeLists.txt").read_text()
    want = re.search(r"project\(tbrf VERSION ([0-9.]+)", text)[1]
    assert tbrf.__version__ == want
    assert tbrf.library_version() == want
