"""tbrf.Driver and tbrf.Inflow."""
import numpy as np
import pytest

import tbrf


def make(**kw):
    return tbrf.Driver(tbrf.Model("parabola", kmin=2 * np.pi, kmax=3 * 2 * np.pi), seed=4,
                       **kw)


def test_driver_points_grid_steps():
    d = make(dim=3, tcorr=0.5)
    x = np.random.default_rng(1).random((64, 3))
    f = d.points(0.3, x)
    assert f.shape == (64, 3) and np.all(np.isfinite(f))
    g = d.grid(0.3, (0, 0, 0), 0.125, (8, 8, 8))
    assert g.shape == (8, 8, 8, 3)
    pts = np.stack(np.meshgrid(*[np.arange(8) * 0.125] * 3, indexing="ij")[::-1], -1)
    assert np.allclose(d.points(0.3, pts.reshape(-1, 3)).reshape(8, 8, 8, 3), g, atol=1e-10)
    # the box's lattice resolves every mode: Parseval's rms is the grid's
    assert d.rms(0.3) == pytest.approx(np.sqrt(np.mean(np.sum(g ** 2, -1))), rel=1e-10)
    ts = [(t, v.copy()) for t, v in d.steps(x, 0.05, 4, t0=0.1)]
    assert [t for t, _ in ts] == pytest.approx([0.1, 0.15, 0.2, 0.25])
    # arbitrary times: going back replays, a fresh driver agrees bit for bit
    for t, v in ts[::-1]:
        assert np.array_equal(d.points(t, x), v)
        assert np.array_equal(make(dim=3, tcorr=0.5).points(t, x), v)
    m, coef = d.modes(0.3)
    assert m.shape[1] == 3 and coef.shape == (m.shape[0], 3) and d.info["modes"] == m.shape[0]
    assert d.backend == "cpu" and d.info["eval"] in ("direct", "nufft")


def test_driver_state_and_errors():
    d = make(dim=2)
    x = np.random.default_rng(2).random((10, 2))
    with pytest.raises(tbrf.NoGeometryError):
        d.save()
    v = d.points(1.7, x)
    state = d.save()
    e = make(dim=2)
    e.load(state)
    assert e.info["update"] == d.info["update"]
    assert np.array_equal(e.points(1.7, x), v)
    with pytest.raises(tbrf.InvalidError) as err:
        make(dim=3).load(state)
    assert err.value.message
    with pytest.raises(tbrf.InvalidError) as err:
        d.points(-1.0, x)
    assert "t" in err.value.message
    with pytest.raises(tbrf.UnsupportedError) as err:
        tbrf.Driver(tbrf.Model("gaussian", length=0.1))   # unbounded spectrum
    assert err.value.message
    with pytest.raises(ValueError, match="normalization"):
        make(normalization="rms")
    nonper = make(dim=2, periodic=False)
    nonper.points(0.2, x)
    with pytest.raises(tbrf.UnsupportedError):
        nonper.rms(0.2)
    with pytest.raises(tbrf.OutOfDomainError):
        nonper.points(0.2, x + 5.0)


def test_inflow_is_the_field_shifted():
    v = (0.5, 0.0)
    dom = tbrf.inflow_tube(2, (0.0, 0.0), (0.2, 1.0), v, 1.0)
    assert np.allclose(dom, [[-0.5, 0.2], [0.0, 1.0]])
    kw = dict(length=0.2, seed=6, realization=2, lines=128)
    inflow = tbrf.Inflow("gaussian", 2, dom, 0.05, v, **kw)
    field = tbrf.Field("gaussian", 2, domain=dom, resolution=0.05, **kw)
    x = np.random.default_rng(3).random((100, 2)) * [0.2, 1.0]
    t = 0.6
    assert np.array_equal(inflow.fill(t, x), field(x - np.array(v) * t))
    g = inflow.fill_grid(t, (0.0, 0.0), 0.05, (4, 20))
    pts = np.stack(np.meshgrid(np.arange(4) * 0.05, np.arange(20) * 0.05), -1).reshape(-1, 2)
    assert g.shape == (20, 4) and np.array_equal(g.ravel(), inflow.fill(t, pts))
    assert 0 < inflow.line_bytes() <= inflow.line_bytes(full=True)
    inflow.set_density("lognormal", rho_w=2.0, sigma=0.5)
    ref = tbrf.ic.density(field(x - np.array(v) * t), "lognormal", rho_mean=2.0, sigma=0.5)
    assert np.allclose(inflow.fill(t, x), ref, rtol=1e-15)
    with pytest.raises(tbrf.OutOfDomainError) as e:
        inflow.fill(5.0, x)
    assert e.value.message
    with pytest.raises(tbrf.InvalidError):
        inflow.set_density("linear", rho_w=-1.0)
    with pytest.raises(tbrf.InvalidError) as e:
        tbrf.Inflow("gaussian", 2, dom, 0.05, (float("nan"), 0.0), length=0.2)
    assert e.value.message
    with pytest.raises(ValueError, match="precision"):
        tbrf.Inflow("gaussian", 2, dom, 0.05, v, length=0.2, line_precision="half")


def test_driver_backend_and_call():
    d = make(dim=2)
    x = np.random.default_rng(7).random((5, 2))
    assert np.array_equal(d(0.4, x), d.points(0.4, x))
    with pytest.raises(ValueError, match="backend"):
        d.set_backend("metal")
    try:
        d.set_backend("opencl")
        assert d.backend == "opencl"
        assert np.allclose(d.points(0.4, x), make(dim=2).points(0.4, x), rtol=0,
                           atol=1e-9 * np.max(np.abs(d.points(0.4, x))))
    except (tbrf.NotBuiltError, tbrf.NoDeviceError, tbrf.UnsupportedError) as e:
        assert e.message and d.backend == "cpu"


def test_driver_components_and_factors():
    # a 2D box with three force components (TurbGen's ndim = 2.5): the
    # arrays hold 3 values per position, equal to the grid's
    d = make(dim=2, components=3)
    x = np.random.default_rng(5).random((16, 2))
    f = d.points(0.4, x)
    assert f.shape == (16, 3) and np.all(np.isfinite(f)) and np.std(f[:, 2]) > 0
    g = d.grid(0.4, (0, 0), 0.25, (4, 4))
    assert g.shape == (4, 4, 3)
    pts = np.stack(np.meshgrid(*[np.arange(4) * 0.25] * 2, indexing="ij")[::-1], -1)
    assert np.allclose(d.points(0.4, pts.reshape(-1, 2)).reshape(4, 4, 3), g, atol=1e-10)
    m, coef = d.modes(0.4)
    assert coef.shape == (m.shape[0], 3)
    # a zero factor silences its component; the others keep the total
    z = make(dim=3, amplitude_factor=(1, 1, 0)).points(0.4, np.random.default_rng(6).random((8, 3)))
    assert np.all(z[:, 2] == 0) and np.any(z[:, 0] != 0)
    with pytest.raises(ValueError, match="amplitude_factor"):
        make(amplitude_factor=(1, 1))
    with pytest.raises(tbrf.InvalidError) as err:
        make(dim=3, components=2)
    assert err.value.message


def test_turbgen_and_directions():
    # TurbGen's example file (tests/data/turbgen): its t_decay, update
    # interval, sol_weight and seed; the rms is the C library's (checked
    # against TurbGen's own field in test_driving_turbgen)
    import os
    src = os.environ.get("TBRF_SOURCE_DIR") or os.path.join(os.path.dirname(__file__), "..", "..")
    par = os.path.join(src, "tests", "data", "turbgen", "TurbGen.par")
    d = tbrf.Driver.from_turbgen(par, threads=1)
    p = d.params
    assert p["tcorr"] == 0.5 and p["dt_update"] == 0.05 and p["zeta"] == 0.5
    assert abs(p["rms"] - 2.28474) < 1e-5 and d.info["modes"] == 43
    with open(par) as f:
        text = f.read()
    assert tbrf.Driver.from_turbgen(text, threads=1).params == p
    with pytest.raises(tbrf.UnsupportedError, match="'foo'"):
        tbrf.Driver.from_turbgen(text + "foo = 1\n")
    with pytest.raises(ValueError, match="zeta"):
        tbrf.Driver.from_turbgen(text, zeta=1.0)
    # sparse directions keep fewer modes of a wide band
    wide = tbrf.Model("powerlaw", index=-4, kmin=2 * np.pi, kmax=32 * np.pi)
    full = tbrf.Driver(wide, seed=3, zeta=0.5).info["modes"]
    sparse = tbrf.Driver(wide, seed=3, zeta=0.5, directions=8).info["modes"]
    assert full == 8538 and 900 < sparse < 1300


def test_amplitude_control_and_restart():
    """tbrf.amplitude_adjust is TurbGen's controller (the formula written
    out here), with its guards; Driver.from_state restarts a driver whose
    gains amplitude control changed, bit for bit, from its saved state."""
    g, m = np.array([1.0, 2.0, 0.5]), np.array([0.3, 0.0, 0.9])
    out = tbrf.amplitude_adjust(g, m, target=1.0, t=2.0, dt=0.1, timescale=1.0)
    want = g[0] * (1.0 / m[0] / np.sqrt(3)) ** 1.5
    damp = np.exp(-0.1 / (np.sqrt(want / g[0]) * 1.0))
    assert out[0] == pytest.approx(g[0] * damp + (1 - damp) * want, rel=1e-14)
    assert out[1] == g[1]                        # measured 0: held
    assert out[2] != g[2]
    early = tbrf.amplitude_adjust(g, m, 1.0, t=0.05, dt=0.1, timescale=1.0)
    assert np.array_equal(early, g)              # t <= 0.1 timescale: held
    with pytest.raises(tbrf.InvalidError, match="measured"):
        tbrf.amplitude_adjust(g, [0.3, -1.0, 0.9], 1.0, 2.0, 0.1, 1.0)
    with pytest.raises(tbrf.InvalidError, match="timescale"):
        tbrf.amplitude_adjust(g, m, 1.0, 2.0, 0.1, 0.0)
    with pytest.raises(ValueError, match="same 1 to 3"):
        tbrf.amplitude_adjust(g, m[:2], 1.0, 2.0, 0.1, 1.0)
    # a restart: the adjusted gains and the OU state come back from save()
    model = tbrf.Model("parabola", kmin=6.0, kmax=13.0)
    d = tbrf.Driver(model, seed=9, dim=3, length=1.0, amplitude_factor=out)
    x = np.random.default_rng(4).random((20, 3))
    d.points(1.3, x)
    state = d.save()
    params, seed = tbrf.Driver.state_params(state)
    assert seed == 9 and np.array_equal(params["amplitude_factor"], out)
    e = tbrf.Driver.from_state(model, state)
    assert e.info["update"] == d.info["update"]
    assert np.array_equal(e.points(1.7, x), d.points(1.7, x))
    assert not np.array_equal(tbrf.Driver(model, seed=9, dim=3, length=1.0).points(1.7, x),
                              d.points(1.7, x))   # the gains matter
    with pytest.raises(tbrf.InvalidError):
        tbrf.Driver.from_state(model, state[:-7] + b"garbage")
