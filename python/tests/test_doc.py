"""doc/python.md's quick start runs as written: its ```python blocks
under "## Quick start", in order, in one namespace, in a temporary
directory (the pictures they save must appear)."""
import os
import pathlib
import re

import pytest


def _doc():
    src = os.environ.get("TBRF_SOURCE_DIR") or str(pathlib.Path(__file__).resolve().parents[2])
    path = pathlib.Path(src) / "doc" / "python.md"
    if not path.exists():
        pytest.skip(f"no {path} (set TBRF_SOURCE_DIR)")
    return path.read_text()


def test_quick_start_runs(tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    os.environ.setdefault("MPLBACKEND", "Agg")
    text = _doc()
    section = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert len(blocks) >= 4, "the quick start lost its examples"
    monkeypatch.chdir(tmp_path)
    namespace = {"__name__": "__quickstart__"}
    for i, code in enumerate(blocks):
        exec(compile(code, f"doc/python.md quick start block {i + 1}", "exec"), namespace)
    for png in ("grid.png", "points.png", "vector.png"):
        assert (tmp_path / png).stat().st_size > 1000, png
    assert namespace["u"].shape == (100, 100, 2)
