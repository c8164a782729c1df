"""tbrf.rng and tbrf.mc."""
import numpy as np
import pytest

import tbrf
from tbrf import mc, rng


def test_streams():
    assert rng.name(0) == "philox" and rng.name(4) == "lcg64-permuted"
    for gen in ("philox", "saru", "tea8", "lcg64", "lcg64-permuted"):
        w = rng.u32(20, gen, seed=7, stream=3)
        assert w.dtype == np.uint32 and np.array_equal(rng.u32(8, gen, 7, 3, offset=12), w[12:])
    # philox words are the documented blocks (include/tbrf/rng.h)
    seed, stream = (5 << 32) | 9, 11
    blk = rng.philox4x32([1, 0x08000000, stream, 0], [9, 5])
    assert np.array_equal(rng.u32(4, "philox", seed, stream, offset=4), blk)
    u = rng.uniform(1000, seed=2)
    assert np.all((u >= 0) & (u < 1)) and abs(u.mean() - 0.5) < 0.05
    s = rng.uniform(10, seed=2, dist="s11")
    assert np.all((s >= -1) & (s < 1))
    n64, n32 = rng.normal(100, seed=3), rng.normal(100, seed=3, dtype=np.float32)
    assert np.array_equal(n64.astype(np.float32), n32)
    with pytest.raises(tbrf.InvalidError):
        rng.u32(4, "saru", stream=2 ** 33)
    with pytest.raises(tbrf.SizeError):
        rng.u32(-1)
    with pytest.raises(ValueError, match="gen"):
        rng.u32(4, "mt19937")


def test_saru_tea_lcg():
    s = rng.Saru([1, 2, 3])
    ref = s.next(10)
    t = rng.Saru([1, 2, 3])
    t.jump(4)
    assert np.array_equal(t.next(6), ref[4:])
    a, b = rng.Saru.stream_pair(1, 2, 3, 4), rng.Saru.stream_pair(1, 2, 4, 3)
    assert np.array_equal(a.state, b.state)
    assert not np.array_equal(rng.Saru.stream_id(1, 2, 3).next(2), rng.Saru.stream_id(1, 2, 4).next(2))
    with pytest.raises(tbrf.InvalidError):
        rng.Saru([1, 2, 3, 4])
    gpu = [0xA341316C, 0xC8013EA4, 0xAD90777D, 0x7E95761E]
    assert np.array_equal(rng.tea8([1, 2]), rng.tea8([1, 2], gpu))
    x = 12345
    gs = (x * 0x12345677 + 0x12345) & 0xFFFFFFFF
    gs ^= gs >> 16
    assert rng.seed_prehash(x) == (gs * 0x45679) & 0xFFFFFFFF
    y, t = rng.lcg64_block(5)
    assert [int(v) for v in (t + np.uint64(x) * y)] == [rng.lcg64_jump(x, j + 1) for j in range(5)]
    with pytest.raises(tbrf.SizeError):
        rng.lcg64_block(0)


def test_monte_carlo():
    assert mc.integrand_name(0) == "oscillatory"
    ex = mc.exact("gaussian", 3)
    est, err = mc.integrate("gaussian", 3, 200000, seed=4)
    assert abs(est - ex) < 5 * err
    assert mc.integrate("gaussian", 3, 5000, seed=4, algorithm="sequential") == \
        mc.integrate("gaussian", 3, 5000, seed=4, algorithm="vectorized", block=7)
    est, err = mc.integrate_fn(lambda x: x[:, 0] * x[:, 1], 2, 20000, seed=2, lo=0, hi=2)
    assert abs(est - 4.0) < 5 * err
    with pytest.raises(KeyError):
        mc.integrate_fn(lambda x: {}["k"], 2, 100)
    with pytest.raises(tbrf.UnsupportedError):
        mc.exact("nag", 3)
    with pytest.raises(tbrf.SizeError):
        mc.integrate("gaussian", 3, 1)
    assert mc.block_size(10 ** 6, 4, 64.0) == round((64 * 10 ** 6 / 4) ** 0.5)
    assert mc.measure_beta() > 0
    try:
        est, err = mc.integrate_device("gaussian", 3, 10000, backend="opencl")
        assert abs(est - mc.integrate("gaussian", 3, 10000)[0]) < 1e-9
    except (tbrf.NotBuiltError, tbrf.NoDeviceError) as e:
        assert e.message


def test_unknown_ids():
    with pytest.raises(ValueError, match="99"):
        rng.name(99)
    with pytest.raises(ValueError, match="99"):
        mc.integrand_name(99)
    assert tbrf.ic.points_count("lattice", per_axis=0) == -1
