"""tbrf.ic: cosmological initial conditions, placements, densities,
Voronoi volumes, glass tiling, the background cosmology and the AREPO
writer."""
import os

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
    # two fluids: the CDM column for the dark matter, each species' velocity
    d, _ = ic.transfer_power(path, "cdm", 0.9667)
    vd = ic.transfer_velocity(path, "cdm", 0.01)
    vb = ic.transfer_velocity(path, "baryon", 0.01)
    t = ic.CosmoIC(particles=8, gas=1, power=m, power_gas=b, power_dm=d, velocity_dm=vd,
                   velocity_gas=vb, seed=3)
    two = []
    t.generate(lambda ch: two.append((ch.vel.copy(), ch.gas_vel.copy())))
    assert not np.allclose(two[0][0], vel) and not np.allclose(two[0][1], gas_vel)
    with pytest.raises(tbrf.InvalidError):
        ic.CosmoIC(particles=8, power_gas=b)          # needs gas and power
    with pytest.raises(tbrf.InvalidError):              # velocity_dm needs power_dm
        ic.CosmoIC(particles=8, gas=1, power=m, power_gas=b, velocity_dm=vd)
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


def _same_h5(a, b, path="/"):
    """The differences between two HDF5 groups, attributes and datasets
    compared bit for bit (dtype included)."""
    out = []
    for k in sorted(set(a.attrs) | set(b.attrs)):
        if k not in a.attrs or k not in b.attrs or \
                not np.array_equal(np.asarray(a.attrs[k]), np.asarray(b.attrs[k])):
            out.append(f"attribute {path}{k}")
    for k in sorted(set(a.keys()) | set(b.keys())):
        if k not in a or k not in b:
            out.append(f"object {path}{k}")
        elif hasattr(a[k], "keys"):
            out += _same_h5(a[k], b[k], path + k + "/")
        elif a[k].dtype != b[k].dtype or a[k][()].tobytes() != b[k][()].tobytes():
            out.append(f"dataset {path}{k}")
    return out


def _need_writer():
    """Skips the test without libtbrf_writer (unless the run names it)."""
    from tbrf import _writer
    try:
        _writer.writer()
    except tbrf.NotBuiltError:
        if os.environ.get("TBRF_WRITER_LIBRARY"):
            raise
        pytest.skip("no libtbrf_writer (set TBRF_WRITER_LIBRARY)")


def test_write_arepo(tbrf_cli, tmp_path):
    """tbrf.ic.write_arepo writes the command's files bit for bit (HDF5, a
    gas set of 3 files in float, gadget2), refuses what it cannot write and
    leaves nothing then."""
    h5py = pytest.importorskip("h5py")
    _need_writer()
    cosmo = ["--box", "20000", "--particles", "8", "--redshift", "31", "--omega-m", "0.3",
             "--omega-b", "0.04", "--hubble", "0.7", "--sigma8", "0.8", "--seed", "5"]
    kw = dict(box=20000, particles=8, redshift=31, omega_m=0.3, omega_lambda=0.7, omega_b=0.04,
              hubble=0.7, sigma8=0.8, seed=5)
    cases = [([], {}, {}, ["a.hdf5"]),
             (["--gas", "--files", "3", "--precision", "float", "--lpt", "1"],
              dict(gas=True, lpt=1), dict(num_files=3, precision="float"),
              [f"a.{i}.hdf5" for i in range(3)]),
             (["--format", "gadget2", "--long-ids"], {}, dict(format="gadget2", long_ids=True),
              ["a", "a.tbrf.h5"])]
    for n, (opts, more, fopts, names) in enumerate(cases):
        d = tmp_path / str(n)
        d.mkdir()
        tbrf_cli("arepo", "cosmo", "--out", "a", *cosmo, *opts, cwd=d)
        side = d / names[-1] if names[-1].endswith("h5") else d / names[0]
        with h5py.File(side, "r") as f:
            cmd = f["tbrf"].attrs["command"]
        cmd = cmd.decode() if isinstance(cmd, bytes) else str(cmd)
        c = ic.CosmoIC(**kw, **more)
        e = d / "py"
        e.mkdir()
        ic.write_arepo(c, str(e / "a"), command=cmd, **fopts)
        for name in names:
            if name.endswith("hdf5") or name.endswith("h5"):
                with h5py.File(d / name, "r") as x, h5py.File(e / name, "r") as y:
                    assert _same_h5(x, y) == [], (opts, name)
            else:
                assert (d / name).read_bytes() == (e / name).read_bytes(), (opts, name)
    # the default command is recorded by name, and regenerate refuses it
    c = ic.CosmoIC(**kw)
    ic.write_arepo(c, str(tmp_path / "p"))
    with h5py.File(tmp_path / "p.hdf5", "r") as f:
        cmd = f["tbrf"].attrs["command"]
    assert (cmd.decode() if isinstance(cmd, bytes) else cmd) == "python: tbrf.ic.write_arepo"
    # refusals: an unwritable folder (nothing left), bad options, a closed IC
    with pytest.raises(tbrf.FileError) as e:
        ic.write_arepo(c, str(tmp_path / "missing" / "a"))
    assert "missing" in e.value.message and not (tmp_path / "missing").exists()
    for bad in (dict(format="gadget3"), dict(precision="half"), dict(num_files=0),
                dict(num_files=True)):
        with pytest.raises(ValueError):
            ic.write_arepo(c, str(tmp_path / "q"), **bad)
    with pytest.raises(TypeError):
        ic.write_arepo(c, str(tmp_path / "q"), command="a\0b")
    with pytest.raises(TypeError):
        ic.write_arepo("not an IC", str(tmp_path / "q"))
    assert not list(tmp_path.glob("q*"))
    c.close()
    with pytest.raises(ValueError, match="closed"):
        ic.write_arepo(c, str(tmp_path / "q"))


def test_zoom_ic(tbrf_cli, tmp_path):
    """tbrf.ic.ZoomIC: counts, masses and levels as `tbrf arepo zoom`
    says; write_arepo_zoom writes the command's file bit for bit; bad
    regions are refused."""
    h5py = pytest.importorskip("h5py")
    kw = dict(box=20000, particles=8, redshift=31, omega_m=0.3, omega_lambda=0.7, omega_b=0.04,
              hubble=0.7, sigma8=0.8, seed=5)
    z = ic.ZoomIC(refinement=4, levels=2, region="ids", ids=[1 + 3 + 8 * (3 + 8 * 3)], pad=1,
                  **kw)
    info = z.info
    # level 2: the site's cell padded by 1 (27 cells), level 1: 5^3 - 27 more
    assert info["region_cells"] == 27 and info["level_particles"] == (512 - 125, 98 * 8,
                                                                      27 * 64)
    assert z.level(3, 3, 3) == 2 and z.level(1, 3, 3) == 1 and z.level(0, 3, 3) == 0
    fine, coarse = z.particles(1), z.particles(2)
    assert fine["pos"].shape == (27 * 64, 3) and fine["mass"] is None
    total = len(fine["pos"]) * info["mass_fine"] + coarse["mass"].sum()
    assert total == pytest.approx(512 * info["mass_coarse"], rel=1e-12)
    with pytest.raises(ValueError):
        z.particles(3)
    with pytest.raises(tbrf.InvalidError):
        ic.ZoomIC(refinement=3, region="sphere", centre=(0, 0, 0), radius=3000, **kw)
    with pytest.raises(ValueError):
        ic.ZoomIC(region="cube", **kw)
    _need_writer()
    cosmo = ["--box", "20000", "--particles", "8", "--redshift", "31", "--omega-m", "0.3",
             "--omega-b", "0.04", "--hubble", "0.7", "--sigma8", "0.8", "--seed", "5"]
    tbrf_cli("arepo", "zoom", "--out", "a", *cosmo, "--refine", "2", "--region",
             "box:0,0,0,10000,10000,10000", "--pad", "0", cwd=tmp_path)
    zb = ic.ZoomIC(refinement=2, region="box", lo=(0, 0, 0), hi=(10000, 10000, 10000), pad=0,
                   **kw)
    with h5py.File(tmp_path / "a.hdf5", "r") as f:
        cmd = f["tbrf"].attrs["command"]
    cmd = cmd.decode() if isinstance(cmd, bytes) else str(cmd)
    ic.write_arepo_zoom(zb, str(tmp_path / "b"), command=cmd)
    with h5py.File(tmp_path / "a.hdf5", "r") as fa, h5py.File(tmp_path / "b.hdf5", "r") as fb:
        assert _same_h5(fa, fb) == []
    z.close()
    zb.close()
    with pytest.raises(ValueError):
        zb.info
