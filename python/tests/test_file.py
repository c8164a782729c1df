"""Field.from_file: a file written by the `tbrf` command, remade bit for
bit from its recorded attributes (the brief's "Done when")."""
import h5py
import numpy as np
import pytest

import tbrf

CASES = {
    "matern2d": ["--model", "matern", "--length", "0.3", "--nu", "1.5", "--grid", "24x16",
                 "--spacing", "0.05", "--origin", "1,-2", "--seed", "12345678901234567890",
                 "--realization", "3"],
    "gauss3d_float": ["--model", "gaussian", "--length", "0.4", "--grid", "10x9x8",
                      "--spacing", "0.1,0.12,0.09", "--precision", "float", "--lines", "300",
                      "--variance", "2.5"],
    "powerlaw_fft": ["--model", "powerlaw", "--index", "-3", "--kmin", "1", "--kmax", "20",
                     "--grid", "16x16", "--spacing", "0.0625", "--method", "fft",
                     "--amplitude", "0.5"],
    "vector3d": ["--model", "vonkarman", "--length", "0.5", "--kmax", "15", "--grid", "6x5x4",
                 "--spacing", "0.1", "--vector", "mixed", "--zeta", "0.3",
                 "--domain", "-1,-1,-1:1,1,1", "--resolution", "0.08"],
    "box_nufft": ["--model", "exponential", "--length", "0.2", "--box", "1,2",
                  "--resolution", "0.125", "--grid", "10x12", "--spacing", "0.1"],
    # issue #33: anisotropic, rotated; vector on turning bands, scalar FFT
    "anis3d_vector": ["--model", "gaussian", "--length", "0.3", "--grid", "8x7x6",
                      "--spacing", "0.1", "--anis", "1,0.5,2", "--angles", "0.3,-0.2,1.1",
                      "--vector", "solenoidal", "--lines", "64"],
    "anis2d_fft": ["--model", "matern", "--length", "0.2", "--nu", "1.5", "--grid", "16x16",
                   "--spacing", "0.0625", "--method", "fft", "--anis", "1,0.25",
                   "--angles", "0.7"],
    "netcdf": ["--model", "band", "--kmin", "2", "--kmax", "9", "--grid", "12x12",
               "--spacing", "0.1", "--format", "netcdf"],
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_from_file_bitwise(tbrf_cli, tmp_path, case):
    path = tmp_path / ("f.nc" if case == "netcdf" else "f.h5")
    tbrf_cli("generate", *CASES[case], "--out", path)
    f = tbrf.Field.from_file(str(path))
    values = f.grid()
    with h5py.File(path, "r") as h:
        if case == "netcdf":
            ref = h["field"][()]
        else:
            ref = h["field"][()]
    assert values.dtype == ref.dtype and values.shape == ref.shape
    assert values.tobytes() == ref.tobytes(), f"{case}: not bitwise equal"
    assert f.file["geometry"] == "grid"
    # another realization of the same recorded field is not the file's
    assert not np.array_equal(f.grid(realization=f.realization + 1), ref)


def test_from_file_points(tbrf_cli, tmp_path):
    pts = np.random.default_rng(3).random((500, 3)) * [2.0, 1.0, 0.5]
    txt = tmp_path / "p.txt"
    np.savetxt(txt, pts, fmt="%.17g")
    out = tmp_path / "p.h5"
    tbrf_cli("generate", "--model", "gaussian", "--length", "0.2", "--points", txt,
             "--seed", "9", "--out", out)
    f = tbrf.Field.from_file(str(out))
    with h5py.File(out, "r") as h:
        xyz, ref = h["points"][()], h["value"][()]
    assert f(xyz).tobytes() == ref.tobytes()
    assert f.file["geometry"] == "points"
    with pytest.raises(TypeError, match="grid\\(\\) needs"):
        f.grid()


def test_from_file_of_sample(tbrf_cli, tmp_path):
    # `tbrf sample` evaluates a file's field on a new grid and records the
    # first file's parameters: both files give one Field
    a, b = tmp_path / "a.h5", tmp_path / "b.h5"
    tbrf_cli("generate", "--model", "matern", "--length", "0.5", "--nu", "2.5", "--grid",
             "20x20", "--spacing", "0.1", "--seed", "4", "--out", a)
    tbrf_cli("sample", a, "--grid", "7x9", "--origin", "0.3,0.25", "--spacing", "0.2",
             "--out", b)
    fa, fb = tbrf.Field.from_file(str(a)), tbrf.Field.from_file(str(b))
    with h5py.File(b, "r") as h:
        ref = h["field"][()]
    assert fb.grid().tobytes() == ref.tobytes()
    assert fa.grid((0.3, 0.25), 0.2, (7, 9)).tobytes() == ref.tobytes()


def test_from_file_errors(tmp_path):
    bad = tmp_path / "x.h5"
    with h5py.File(bad, "w") as h:
        h["field"] = np.zeros(3)
    with pytest.raises(ValueError, match="not written by tbrf generate"):
        tbrf.Field.from_file(str(bad))
    with pytest.raises(tbrf.FileError, match="cannot open"):
        tbrf.Field.from_file(str(tmp_path / "missing.h5"))


def test_from_file_other_version_warns(tbrf_cli, tmp_path):
    path = tmp_path / "old.h5"
    tbrf_cli("generate", "--model", "gaussian", "--length", "2", "--grid", "8x8", "--out", path)
    with h5py.File(path, "r+") as h:
        h.attrs["tbrf_version"] = np.bytes_("0.4.0")
    with pytest.warns(UserWarning, match="written by tbrf 0.4.0"):
        f = tbrf.Field.from_file(str(path))
    assert f.grid().shape == (8, 8)
