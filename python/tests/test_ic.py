"""tbrf.ic: cosmological initial conditions, placements, densities,
Voronoi volumes, glass tiling and the background cosmology."""
import numpy as np
import pytest

import tbrf
from tbrf import ic


def test_cosmology():
    assert ic.hubble(1.0, 0.0, 1.0) == pytest.approx(1.0, rel=1e-14)
    assert ic.hubble(1.0, 0.0, 0.25) == pytest.approx(8.0, rel=1e-14)  # a^-3/2
    assert ic.growth(1.0, 0.0, 3.0) == pytest.approx(0.25, rel=1e-12)  # D = a (EdS)
    assert ic.growth_rate(1.0, 0.0, 3.0) == pytest.approx(1.0, rel=1e-10)
    assert ic.eh_transfer(0.3, 0.05, 0.7, 2.7255, 0.0) == pytest.approx(1.0, rel=1e-12)
    with pytest.raises(tbrf.InvalidError):
        ic.growth(-1.0, 0.0, 1.0)
    d2, f2 = ic.growth2(1.0, 0.0, 3.0)  # EdS: -(3/7) a^2, 2
    assert d2 == pytest.approx(-3 / 7 / 16, rel=1e-9) and f2 == pytest.approx(2.0, rel=1e-9)
    p = tbrf.Model.eisenstein_hu().normalize_sigma(8.0, 0.8)
    assert p.sigma_r(8.0) == pytest.approx(0.8, rel=1e-10)


def test_cosmo_ic():
    kw = dict(particles=8, box=100.0, length_per_mpc=1.0, seed=3)
    b, fewest = ic.CosmoIC.bytes(2, **kw)
    assert b > 0 and fewest >= 1
    c = ic.CosmoIC(**kw)
    info = c.info
    assert info["particles"] == 512 and 0 < info["growth"] < 1
    assert c.params["particles"] == 8 and c.params["box"] == 100.0
    psi = c.displacements()
    assert psi.shape == (512, 3) and np.std(psi) > 0
    got = {}

    def keep(chunk):
        got[chunk.chunk] = (chunk.first, chunk.pos.copy(), chunk.vel.copy())
    c.generate(keep, chunks=3)
    assert sorted(got) == [0, 1, 2] and got[1][0] == 512 // 3
    pos = np.concatenate([got[i][1] for i in range(3)])
    one = []
    c.generate(lambda ch: one.append(ch.pos.copy()))
    assert np.array_equal(one[0], pos)   # the same values for any chunks
    assert np.all((pos >= 0) & (pos < 100.0))
    with pytest.raises(ZeroDivisionError):
        c.generate(lambda ch: 1 / 0)
    with pytest.raises(tbrf.CallbackError):
        c.generate(lambda ch: False)
    # 2LPT (the default) and its paired partner: x = q + Psi1 + Psi2
    assert c.params["lpt"] == 2 and info["growth2"] < 0
    q = ic.CosmoIC(paired=True, **kw)
    assert np.array_equal(q.displacements(), -psi)
    assert np.array_equal(q.displacements2(), c.displacements2())
    assert np.abs(c.displacements2()).max() > 0
    assert not ic.CosmoIC(lpt=1, **kw).displacements2().any()
    with pytest.raises(tbrf.InvalidError) as e:
        ic.CosmoIC(particles=1)
    assert "particles" in e.value.message
    with pytest.raises(TypeError, match="unknown parameter"):
        ic.CosmoIC(particle=8)


def test_cosmo_omega_lambda_default():
    # Omega_Lambda = 1 - Omega_m unless given, as `tbrf arepo cosmo`: the
    # library resolves its NaN default, and the growth follows it
    kw = dict(particles=4, box=100.0, length_per_mpc=1.0)
    flat = ic.CosmoIC(omega_m=0.3, **kw)
    assert flat.params["omega_lambda"] == 1.0 - 0.3
    assert flat.info["growth"] == ic.growth(0.3, 1.0 - 0.3, flat.params["redshift"])
    assert ic.CosmoIC(**kw).params["omega_lambda"] == 1.0 - 0.3089
    assert ic.CosmoIC(omega_m=0.3, omega_lambda=0.6, **kw).params["omega_lambda"] == 0.6


def test_transfer():
    """A CAMB transfer file (tests/data/transfer): the matter and baryon
    models, the gas's own displacement and velocities (issue #28)."""
    import os
    src = os.environ.get("TBRF_SOURCE_DIR") or os.path.join(os.path.dirname(__file__), "..", "..")
    path = os.path.join(src, "tests", "data", "transfer", "camb_transfer_99.dat")
    m, fmt = ic.transfer_power(path, "matter", 0.9667)
    b, _ = ic.transfer_power(path, "baryon", 0.9667)
    assert fmt == "camb"
    rows = np.loadtxt(path)
    k, t = rows[5, 0], rows[5, 6]
    assert m.set_amplitude(1.0).spectrum(k) == pytest.approx(k ** 0.9667 * t * t, rel=1e-13)
    c = ic.CosmoIC(particles=8, gas=1, power=m, power_gas=b, seed=3)
    got = []
    c.generate(lambda ch: got.append((ch.vel.copy(), ch.gas_vel.copy(), ch.gas_mass)))
    vel, gas_vel, mass = got[0]
    assert mass is None and not np.allclose(vel, gas_vel)
    with pytest.raises(tbrf.InvalidError):
        ic.CosmoIC(particles=8, power_gas=b)          # needs gas and power
    with pytest.raises(tbrf.TableError):
        ic.transfer_power(__file__)


def test_points_and_glass():
    lat = ic.points("lattice", per_axis=3, box=3.0)
    assert lat.shape == (27, 3) and set(np.unique(lat)) == {0.5, 1.5, 2.5}
    assert ic.points_count("random", n=11) == 11
    r = ic.points("random", n=50, box=2.0, seed=5)
    assert np.array_equal(ic.points("random", n=50, box=2.0, seed=5, first=10, count=5), r[10:15])
    j = ic.points("jittered", per_axis=4, jitter=0.3, seed=2)
    assert j.shape == (64, 3) and not np.array_equal(j, ic.points("lattice", per_axis=4))
    with pytest.raises(tbrf.InvalidError) as e:
        ic.points("jittered", per_axis=4, jitter=0.7)
    assert "jitter" in e.value.message
    glass = ic.points("random", n=8, box=1.0, seed=9)
    assert ic.glass_tile(glass, 1.0, 4) == 2
    sites = ic.glass_sites(glass, 1.0, 2, 10.0)
    assert sites.shape == (64, 3) and np.allclose(sites[:8], glass * 5.0)
    with pytest.raises(tbrf.InvalidError) as e:
        ic.glass_tile(glass, 1.0, 5)
    assert e.value.message


def test_densities_and_volumes():
    g = np.random.default_rng(1).standard_normal(200)
    assert np.allclose(ic.density(g, "lognormal", rho_mean=2.0, sigma=0.4),
                       2.0 * np.exp(0.4 * g - 0.08), rtol=1e-14)
    assert np.allclose(ic.density(g, "linear", sigma=0.5, rho_floor=0.1),
                       np.maximum(1 + 0.5 * g, 0.1), rtol=1e-15)
    xyz = ic.points("jittered", per_axis=4, box=1.0, jitter=0.2, seed=3)
    vol = ic.voronoi_volumes(xyz, 1.0) if _has_qhull() else np.full(64, 1 / 64)
    assert vol.sum() == pytest.approx(1.0, rel=1e-12)
    rho = ic.density_volumes(g[:64], vol, 1.0, "lognormal", rho_mean=3.0, sigma=0.5)
    assert np.sum(rho * vol) == pytest.approx(3.0, rel=1e-12)
    with pytest.raises(tbrf.InvalidError) as e:
        ic.density(g, "lognormal", rho_mean=-1.0)
    assert e.value.message


def _has_qhull():
    try:
        ic.voronoi_volumes(ic.points("lattice", per_axis=2), 1.0)
        return True
    except tbrf.NotBuiltError:
        return False
