"""tbrf.Field and tbrf.Model: values, layouts, precisions, errors, threads."""
import math
import threading

import numpy as np
import pytest

import tbrf
from tbrf import _common


def test_library_and_kinds():
    assert tbrf.library_version().count(".") == 2
    assert tbrf.kinds()[:4] == ["powerlaw", "gaussian", "exponential", "matern"]
    takes, needs = tbrf.kind_params("matern")
    assert set(needs) == {"length", "nu"} and {"kmin", "kmax"} <= set(takes)
    with pytest.raises(tbrf.InvalidError, match="unknown model kind 'nope'"):
        tbrf.kind_params("nope")
    # the table by name: alpha= is a keyword like the others; a kind's
    # summary; an unknown keyword names the library's parameters
    assert {"stable", "rational"} <= set(tbrf.kinds())
    assert set(tbrf.kind_params("stable")[1]) == {"length", "alpha"}
    assert "exp" in tbrf.kind_summary("stable")
    m = tbrf.Model("rational", length=2.0, alpha=1.0)
    assert m.describe() == "rational length=2 alpha=1 variance=1"
    with pytest.raises(tbrf.InvalidError, match="0 < alpha <= 2"):
        tbrf.Model("stable", length=1.0, alpha=3.0)
    with pytest.raises(TypeError, match="unknown parameter"):
        tbrf.Model("stable", length=1.0, alpah=1.0)
    assert "domain" in tbrf.strerror(12)
    assert tbrf.memory_budget() >= 256 << 20
    assert tbrf.backend_available("cpu")
    assert not tbrf.backend_available("cuda") or tbrf.backend_available("cuda")


def test_model_queries():
    m = tbrf.Model("exponential", length=0.5, variance=2.0)
    r = np.array([0.0, 0.25, 1.0])
    assert np.allclose(m.covariance(r, 3), 2.0 * np.exp(-r / 0.5), rtol=1e-12)
    assert m.variance(3) == pytest.approx(2.0, rel=1e-12)
    assert m.tail_slope(3) == pytest.approx(-(2 * 0.5 + 3))
    assert "exponential" in m.describe() and "exponential" in repr(m)
    assert m.spectrum([0.5, 1.0], 2).shape == (2,) and np.all(m.spectrum([0.5], 2) > 0)
    m.set_amplitude(3.0)
    assert m.variance(3) == pytest.approx(3.0, rel=1e-12)
    m.set_band(0.5, 4.0)
    assert m.spectrum(0.25, 3) == 0.0 and m.spectrum(5.0, 3) == 0.0 and m.spectrum(1.0, 3) > 0


def test_model_table_and_callback(tmp_path):
    k = np.array([0.1, 1.0, 10.0])
    p = np.array([1.0, 0.1, 0.001])
    t = tbrf.Model("table", table=(k, p))
    kk, pp = t.table_data()
    assert np.array_equal(kk, k) and np.array_equal(pp, p)
    path = tmp_path / "p.txt"
    path.write_text("# k P\n0.1 1\n1 0.1\n10 0.001\n")
    t2 = tbrf.Model("table", table_file=str(path))
    assert np.array_equal(t2.table_data()[0], k)
    path.write_text("0.1 1\n0.05 2\n")
    with pytest.raises(tbrf.TableError) as e:
        tbrf.Model("table", table_file=str(path))
    assert "p.txt:2: k=0.05 is not greater" in str(e.value)
    c = tbrf.Model.callback(lambda kk, dim: kk ** -3.0, 0.5, 5.0)
    pl = tbrf.Model("powerlaw", index=-3, kmin=0.5, kmax=5)
    assert c.variance(3) == pytest.approx(pl.variance(3), rel=1e-12)
    f1 = tbrf.Field(c, 3, domain=[(0, 1)] * 3, resolution=0.1, lines=64)
    f2 = tbrf.Field(pl, 3, domain=[(0, 1)] * 3, resolution=0.1, lines=64)
    x = np.random.default_rng(1).random((50, 3))
    assert np.allclose(f1(x), f2(x), rtol=1e-10, atol=1e-12)


def test_model_errors():
    with pytest.raises(TypeError, match="unknown parameter.*lenght"):
        tbrf.Model("gaussian", lenght=1.0)
    with pytest.raises(tbrf.InvalidError) as e:
        tbrf.Model("matern", length=1.0)  # nu missing
    assert "nu" in str(e.value) and e.value.status == 2
    with pytest.raises(tbrf.InvalidError) as e:
        tbrf.Model("gaussian", length=-1.0)
    assert "length" in str(e.value)
    with pytest.raises(ValueError):  # InvalidError is a ValueError
        tbrf.Model("gaussian", length=1.0, variance=math.nan)
    with pytest.raises(tbrf.InvalidError):
        tbrf.Model("gaussian", length=1.0).set_band(2.0, 1.0)


GRID = dict(origin=(0.0, 0.0, 0.0), spacing=(0.1, 0.2, 0.15), shape=(12, 7, 5))


def grid_points(origin, spacing, shape):
    axes = [o + h * np.arange(n) for o, h, n in zip(origin, spacing, shape)]
    z, y, x = np.meshgrid(axes[2], axes[1], axes[0], indexing="ij")
    return np.stack([x.ravel(), y.ravel(), z.ravel()], axis=1)


def test_default_lines_follow_the_grid():
    # lines left unset: the library's rule for the first geometry
    # (tbrf_default_lines), the lines whose isotropy limit 0.63 sqrt(L) kf
    # is the grid's Nyquist: (48 / 0.63)^2 on 96 cells of the longest side
    f = tbrf.Field("gaussian", 3, length=2.0)
    v = f.grid((0, 0, 0), 1.0, (96, 4, 4))
    assert f.info["lines"] == math.ceil((48 / 0.63) ** 2) == 5805
    assert np.array_equal(v, tbrf.Field("gaussian", 3, length=2.0, lines=5805)
                          .grid((0, 0, 0), 1.0, (96, 4, 4)))
    # small grids and points keep the minimum; given lines are kept
    g = tbrf.Field("gaussian", 3, length=2.0)
    g.grid((0, 0, 0), 1.0, (8, 8, 8))
    assert g.info["lines"] == 1024
    p = tbrf.Field("gaussian", 2, length=2.0)
    p(np.random.default_rng(1).uniform(0, 500, (50, 2)))
    assert p.info["lines"] == 1024
    h = tbrf.Field("gaussian", 3, length=2.0, lines=77)
    h.grid((0, 0, 0), 1.0, (96, 4, 4))
    assert h.info["lines"] == 77


def test_grid_matches_points_and_shapes():
    f = tbrf.Field("gaussian", 3, length=0.4, seed=7, domain=[(0, 2)] * 3, resolution=0.1)
    g = f.grid(**GRID)
    assert g.shape == (5, 7, 12) and g.dtype == np.float64
    v = f(grid_points(**GRID))
    assert v.shape == (5 * 7 * 12,)
    # the same positions by both routes: the same field to rounding
    assert np.allclose(g.ravel(), v, rtol=0, atol=1e-12)
    assert f.info["method"] == "tb" and f.info["lines"] == 1024
    # another realization differs; the default one is reproduced
    assert not np.allclose(f.grid(**GRID, realization=1), g)
    assert np.array_equal(f.grid(**GRID), g)


def test_layouts_and_types():
    f = tbrf.Field("exponential", 2, length=0.3, domain=[(0, 1), (0, 1)], resolution=0.05)
    x = np.random.default_rng(2).random((200, 2))
    ref = f(x)
    assert np.array_equal(f(np.asfortranarray(x)), ref)   # Fortran order
    assert np.array_equal(f(x.tolist()), ref)             # lists
    xs = np.empty((200, 4))
    xs[:, ::2] = x
    assert np.array_equal(f(xs[:, ::2]), ref)             # strided view
    x32 = x.astype(np.float32)
    assert np.array_equal(f(x32), f(x32.astype(np.float64)))
    # zero-copy: a C-ordered float64 array is handed to the library as it is
    assert _common.positions(x, 2) is x
    out = np.empty(200)
    assert f(x, out=out) is out and np.array_equal(out, ref)
    # memory: a call allocates its output array and nothing else of size
    import tracemalloc
    big = np.random.default_rng(3).random((20000, 2))
    f(big)
    tracemalloc.start()
    v = f(big)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert v.nbytes <= peak < v.nbytes + 32768, peak
    with pytest.raises(ValueError, match="out must be"):
        f(x, out=np.empty(200, dtype=np.float32))


def test_float32_precision():
    kw = dict(length=0.3, domain=[(0, 1)] * 3, resolution=0.05, seed=3)
    f64 = tbrf.Field("gaussian", 3, **kw)
    f32 = tbrf.Field("gaussian", 3, precision="float", **kw)
    f32b = tbrf.Field("gaussian", 3, precision=np.float32, **kw)
    g64 = f64.grid((0, 0, 0), 0.1, (8, 8, 8))
    g32 = f32.grid((0, 0, 0), 0.1, (8, 8, 8))
    assert g32.dtype == np.float32 and g64.dtype == np.float64
    assert np.array_equal(g32, f32b.grid((0, 0, 0), 0.1, (8, 8, 8)))
    assert np.max(np.abs(g32 - g64)) < 1e-5 * np.max(np.abs(g64))


def test_vector_field_and_fft():
    f = tbrf.Field("gaussian", 3, length=0.3, vector="solenoidal", domain=[(0, 1)] * 3,
                   resolution=0.1, lines=256)
    g = f.grid((0, 0, 0), 0.1, (6, 5, 4))
    assert g.shape == (4, 5, 6, 3)
    assert f(np.zeros((3, 3))).shape == (3, 3)
    fft = tbrf.Field("gaussian", 2, length=0.3, method="fft")
    g2 = fft.grid((0, 0), 0.05, (32, 16))
    assert g2.shape == (16, 32) and fft.info["method"] == "fft"


def test_periodic_box():
    f = tbrf.Field("gaussian", 2, length=0.2, box=1.0, resolution=1 / 32, seed=5)
    x = np.random.default_rng(4).random((100, 2))
    a = f(x)
    assert np.allclose(f(x + 1.0), a, atol=1e-9)    # positions wrap: periodic
    lattice = f.grid((0, 0), 1 / 32, (32, 32))       # the box lattice: FFT
    assert f.info["method"] == "fft"
    pts = grid_points((0, 0, 0), (1 / 32, 1 / 32, 1), (32, 32, 1))[:, :2]
    assert np.allclose(f(pts), lattice.ravel(), atol=1e-9)  # NUFFT agrees
    assert f.info["method"] == "nufft"


def test_lazy_domain_like_generate():
    # without a domain the first grid fixes it (tbrf generate's default)
    f = tbrf.Field("gaussian", 2, length=2.0)
    f.grid((0, 0), 1.0, (10, 10))
    assert np.array_equal(f.domain, [[0, 9], [0, 9]]) and f.resolution == 1.0
    with pytest.raises(tbrf.OutOfDomainError) as e:
        f(np.array([[20.0, 1.0]]))
    assert e.value.status == 12 and "20" in str(e.value)
    p = tbrf.Field("gaussian", 2, length=2.0)
    p(np.array([[0.0, 0.0], [4.0, 1.0]]))
    assert np.array_equal(p.domain, [[0, 4], [0, 1]])
    # the points' resolution is their mean spacing: sqrt(4 x 1 / 2)
    assert p.resolution == pytest.approx(math.sqrt(2.0), rel=1e-15)
    # a first call with no points fixes nothing; the next points do
    q = tbrf.Field("gaussian", 3, length=2.0)
    assert q(np.empty((0, 3))).shape == (0,) and q.domain is None
    q(np.array([[1.0, 2.0, 3.0], [2.0, 2.0, 5.0]]))
    assert np.array_equal(q.domain, [[1, 2], [2, 2], [3, 5]])
    assert q.resolution == pytest.approx(1.0, rel=1e-15)  # the two spanned axes: (1 x 2 / 2)^(1/2)
    # a NaN or infinite position is refused by its number, no plan made
    bad = tbrf.Field("gaussian", 2, length=2.0)
    with pytest.raises(tbrf.InvalidError, match="point 2 has a coordinate that is not finite"):
        bad(np.array([[0.0, 0.0], [1.0, 1.0], [np.inf, 0.5]]))
    assert bad.domain is None
    # a box's default modes: the lattice nearest the resolution or the grid's spacing
    b = tbrf.Field("gaussian", 2, length=0.2, box=(1.0, 0.5), resolution=0.3)
    assert list(b.box_modes) == [3, 2]
    g = tbrf.Field("gaussian", 2, length=0.2, box=1.0)
    g.grid((0, 0), (0.25, 0.1), (4, 10))
    assert list(g.box_modes) == [4, 10] and g.info["method"] == "fft"
    with pytest.raises(tbrf.SizeError, match=r"not 1 to 2\^20"):
        tbrf.Field("gaussian", 2, length=0.2, box=1.0, resolution=1e-7)


def test_field_errors():
    f = tbrf.Field("gaussian", 3, length=0.3, domain=[(0, 1)] * 3, resolution=0.1)
    with pytest.raises(tbrf.OutOfDomainError) as e:
        f(np.array([[0.5, 0.5, math.nan]]))   # GSTools would return NaN
    assert e.value.message and "nan" in e.value.message.lower()
    with pytest.raises(ValueError, match=r"\(N, 3\)"):
        f(np.zeros((4, 2)))
    with pytest.raises(ValueError, match="dim"):
        tbrf.Field("gaussian", 4, length=1.0)
    with pytest.raises(ValueError, match="method"):
        tbrf.Field("gaussian", 3, length=1.0, method="spectral")
    with pytest.raises(TypeError, match="unknown parameter"):
        tbrf.Field("gaussian", 3, length=1.0, lenght=2.0)
    with pytest.raises(tbrf.InvalidError) as e:
        tbrf.Field("gaussian", 3, length=1.0, domain=[(0, 1)] * 3, resolution=0.1, lines=-1)
    assert "lines" in str(e.value)
    with pytest.raises(tbrf.UnsupportedError) as e:
        tbrf.Field("gaussian", 3, length=1.0, domain=[(0, 1)] * 3, resolution=0.1,
                   periodic=True, method="tb")
    assert e.value.message
    with pytest.raises(ValueError, match="seed"):
        tbrf.Field("gaussian", 3, length=1.0, seed=-1)
    with pytest.raises(tbrf.SizeError):
        f.grid((0, 0, 0), 0.1, (0, 1, 1))
    with pytest.raises(tbrf.NoGeometryError):
        tbrf.Field("gaussian", 3, length=1.0).info


def test_threads():
    kw = dict(length=0.3, domain=[(0, 1)] * 3, resolution=0.05, lines=256, threads=1)
    x = np.random.default_rng(5).random((3000, 3))
    shared = tbrf.Field("gaussian", 3, **kw)
    ref = {r: shared(x, realization=r) for r in range(4)}
    own = [tbrf.Field("gaussian", 3, **kw) for _ in range(4)]
    got, errors = {}, []

    def work(i):
        try:
            for _ in range(3):
                a = shared(x, realization=i)       # one Field shared: calls take turns
                b = own[i](x, realization=i)       # one Field each: in parallel
                assert np.array_equal(a, ref[i]) and np.array_equal(b, ref[i])
            got[i] = True
        except Exception as e:  # noqa: BLE001
            errors.append(e)

    ts = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not errors and len(got) == 4


class Matern:  # stand-ins with GSTools' attribute names (gstools is pip-only)
    def __init__(self, dim, var, len_scale, nu):
        self.dim, self.var, self.len_scale, self.nu = dim, var, len_scale, nu
        self.nugget, self.anis = 0.0, np.ones(dim - 1)


class Gaussian:
    def __init__(self, dim, var, len_scale):
        self.dim, self.var, self.len_scale, self.nugget, self.anis = dim, var, len_scale, 0.0, 1.0


class Exponential(Gaussian):
    pass


class Stable:
    def __init__(self, dim, var, len_scale, alpha):
        self.dim, self.var, self.len_scale, self.alpha = dim, var, len_scale, alpha
        self.nugget, self.anis = 0.0, 1.0


class Rational(Stable):
    pass


def test_from_gstools_conventions():
    r = np.linspace(0, 3, 31)
    ell = 0.7
    # GSTools' own formulas: Matern x = sqrt(nu) r / ell; Gaussian exp(-(pi/4)(r/ell)^2)
    for nu, ref in ((0.5, lambda x: np.exp(-x)), (1.5, lambda x: (1 + x) * np.exp(-x))):
        f = tbrf.Field.from_gstools(Matern(3, 2.0, ell, nu), seed=3)
        assert np.allclose(f.model.covariance(r, 3), 2.0 * ref(np.sqrt(nu) * r / ell),
                           atol=1e-12)
    f = tbrf.Field.from_gstools(Gaussian(2, 1.5, ell))
    assert f.dim == 2
    assert np.allclose(f.model.covariance(r, 2), 1.5 * np.exp(-np.pi / 4 * (r / ell) ** 2),
                       atol=1e-12)
    f = tbrf.Field.from_gstools(Exponential(3, 1.0, ell))
    assert np.allclose(f.model.covariance(r, 3), np.exp(-r / ell), atol=1e-12)
    # the kinds made by name: GSTools' Stable and Rational (same length and alpha)
    f = tbrf.Field.from_gstools(Stable(3, 1.2, ell, 1.5))
    assert f.model.describe() == "stable length=0.7 alpha=1.5 variance=1.2"
    assert np.allclose(f.model.covariance(r, 3), 1.2 * np.exp(-(r / ell) ** 1.5), atol=1e-12)
    f = tbrf.Field.from_gstools(Rational(2, 1.0, ell, 1.0))  # GSTools' Cauchy
    assert np.allclose(f.model.covariance(r, 2), 1 / (1 + (r / ell) ** 2), atol=1e-12)
    assert set(tbrf.GSTOOLS) >= {"Gaussian", "Exponential", "Matern", "Stable", "Rational"}
    with pytest.raises(ValueError, match="converts Gaussian, Exponential, Matern, Stable"):
        tbrf.Field.from_gstools(type("Spherical", (Gaussian,), {})(3, 1.0, 1.0))
    # GSTools' anis (ratios to len_scale) and angles map to the factors
    # (1, *anis) and the same angles (issue #33)
    m = Gaussian(3, 1.0, 1.0)
    m.anis, m.angles = np.array([1.0, 0.5]), np.array([0.1, 0.2, 0.3])
    s, a = tbrf.Field.from_gstools(m).model.anisotropy()
    assert list(s) == [1.0, 1.0, 0.5] and list(a) == [0.1, 0.2, 0.3]
    m = Gaussian(2, 1.0, 1.0)
    m.anis, m.angles = 0.25, 0.7
    s, a = tbrf.Field.from_gstools(m).model.anisotropy()
    assert list(s) == [1.0, 0.25, 1.0] and list(a) == [0.7, 0.0, 0.0]
    m = Gaussian(3, 1.0, 1.0)
    m.nugget = 0.1
    with pytest.raises(ValueError, match="nugget"):
        tbrf.Field.from_gstools(m)


def test_anisotropy_keywords():
    m = tbrf.Model("gaussian", length=2.0, anis=(1.0, 0.5), angles=0.3)
    assert "anis=[1, 0.5, 1] angles=[0.3, 0, 0]" in m.describe()
    iso = tbrf.Field("gaussian", 2, length=2.0, seed=4)
    one = tbrf.Field(tbrf.Model("gaussian", length=2.0, anis=(1, 1), angles=0), 2, seed=4)
    g = dict(origin=(0, 0), spacing=(0.5, 0.5), shape=(16, 12))
    # the identity is the isotropic field bit for bit; an anisotropy is not
    assert iso.grid(**g).tobytes() == one.grid(**g).tobytes()
    ani = tbrf.Field(m, 2, seed=4)
    assert not np.array_equal(iso.grid(**g), ani.grid(**g))
    with pytest.raises(tbrf.InvalidError, match=r"scale\[1\]=0"):
        tbrf.Model("gaussian", length=1.0, anis=(1, 0))
    with pytest.raises(tbrf.InvalidError, match=r"angles\[0\]=nan"):
        tbrf.Model("gaussian", length=1.0, angles=float("nan"))
    with pytest.raises(ValueError, match="angles"):
        tbrf.Model("gaussian", length=1.0, angles=(0.1, 0.2))


def test_from_real_gstools():
    gs = pytest.importorskip("gstools")
    r = np.linspace(0, 3, 31)
    for model in (gs.Matern(dim=3, var=1.3, len_scale=0.8, nu=2.5),
                  gs.Gaussian(dim=2, var=1.0, len_scale=0.8), gs.Exponential(dim=3),
                  gs.Stable(dim=3, len_scale=1.3, alpha=0.8),
                  gs.Rational(dim=2, len_scale=0.6, alpha=2.5)):
        f = tbrf.Field.from_gstools(model)
        assert np.allclose(f.model.covariance(r, model.dim), model.covariance(r), atol=1e-12)


def test_memory_budget(monkeypatch):
    f = tbrf.Field("gaussian", 2, length=1.0, domain=[(0, 100), (0, 100)], resolution=1.0)
    monkeypatch.setenv("TBRF_MEMORY_BUDGET", "1M")
    assert tbrf.memory_budget() == 1 << 20
    with pytest.raises(tbrf.SizeError) as e:
        f.grid((0, 0), 0.1, (1000, 1000))   # 8 MB of output
    assert "memory budget of 1048576 bytes" in e.value.message
    with pytest.raises(tbrf.SizeError):
        f(np.zeros((2, 200000), dtype=np.float32).T)   # its float64 copy: 3.2 MB
    assert f.grid((0, 0), 1.0, (100, 100)).shape == (100, 100)  # 80 kB: fine
    monkeypatch.setenv("TBRF_MEMORY_BUDGET", "lots")
    with pytest.raises(tbrf.InvalidError):
        tbrf.memory_budget()


def test_close_and_names():
    m = tbrf.Model("gaussian", length=1.0)
    f = tbrf.Field(m, 2, domain=[(0, 1), (0, 1)], resolution=0.1)
    f.close()
    m.close()
    with pytest.raises(ValueError, match="closed"):
        m.variance(2)
    with pytest.raises(TypeError, match="Model object"):
        tbrf.Field(tbrf.Model("gaussian", length=1.0), 2, length=2.0)
    with pytest.raises(ValueError, match="backend"):
        tbrf.Field("gaussian", 2, length=1.0, backend="metal")
    with pytest.raises(tbrf.InvalidError):
        tbrf.Model("powerlaw", index=-1)  # kmax needed


def test_gil_released_during_a_call():
    # while one thread is inside a long library call (~0.1 s or more), this
    # thread keeps running Python: it notes the time every millisecond, and
    # no gap between its notes spans half the call. Were the GIL held for
    # the foreign call, one gap would span all of it.
    import time
    f = tbrf.Field("gaussian", 3, length=0.1, domain=[(0, 1)] * 3, resolution=0.01, threads=1)
    x = np.random.default_rng(8).random((100000, 3))
    f(x[:10])  # the lines, synthesised once
    span = []

    def work():
        span.append(time.perf_counter())
        f(x)
        span.append(time.perf_counter())

    t = threading.Thread(target=work)
    notes = [time.perf_counter()]
    t.start()
    while t.is_alive():
        now = time.perf_counter()
        if now - notes[-1] > 1e-3:
            notes.append(now)
    t.join()
    notes.append(time.perf_counter())
    start, end = span
    assert end - start > 0.03, "the call was too short to tell"
    gap = max(b - max(a, start) for a, b in zip(notes, notes[1:]) if b > start and a < end)
    assert gap < 0.5 * (end - start), \
        f"this thread stood still {gap:.3f} s of a {end - start:.3f} s call: the GIL was held"


def test_lognormal_model():
    """Model.lognormal (tbrf_model_lognormal, doc/lognormal.md): the Gaussian
    behind a lognormal density has the correlation ln(1 + xi) of the
    contrast's (to the table's interpolation, 1e-4 of sigma_g^2) and the
    variance ln(1 + var); an unrealisable one is refused naming the loss."""
    d = tbrf.Model("matern", length=0.1, nu=1.5, variance=math.expm1(1.0))
    g, lost = d.lognormal(2, 0.05, 400.0, 4.0)  # kmin far below 1/length: no variance cut
    assert 0 <= lost < 1e-6
    assert g.variance(2) == pytest.approx(1.0, rel=1e-9)
    r = np.array([0.0, 0.01, 0.05, 0.1, 0.3])
    assert np.allclose(g.covariance(r, 2), np.log1p(d.covariance(r, 2)), rtol=0, atol=1e-4)
    with pytest.raises(tbrf.InvalidError, match="would lose"):
        tbrf.Model("gaussian", length=0.1, variance=8.5).lognormal(3, 0.5, 400.0, 6.0, 0.05)
    assert tbrf.lognormal_sigma2_mach(3, 0.5) == pytest.approx(math.log(3.25), rel=1e-15)
    with pytest.raises(ValueError):
        tbrf.lognormal_sigma2_mach(1, 0)
