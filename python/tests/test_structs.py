"""The ctypes mirrors of the C structs (tbrf/_lib.py) against the
library's own defaults functions: each default lands in its field (a
shifted layout would move them), and nothing is written past the end of
the Python struct (a C struct larger than the mirror would be)."""
import ctypes

import pytest

from tbrf import _lib as L

CASES = [
    (L.Opts, L.lib.tbrf_default_opts,
     dict(lines=0, oversampling=4, max_padding=3, device=-1, line_length_factor=1,
          zeta=0.5, accuracy=0.0, chunk=0, vector=0)),
    (L.DriverParams, L.lib.tbrf_driver_default_params,
     dict(dim=3, periodic=1, length=(1.0, 1.0, 1.0), zeta=1.0, tcorr=1.0, rms=1.0,
          density=1.0, accuracy=0.0, threads=0)),
    (L.CosmoParams, L.lib.tbrf_ic_default_cosmo,
     dict(box=50000.0, particles=32, redshift=127.0, sigma8=0.831, wiggles=1, gas=0, seed=1,
          power=None, glass=None, glass_n=0, glass_box=1.0, gas_mu=1.22,
          gas_gamma=5.0 / 3.0, lpt=2, fixed_amplitude=0, paired=0, power_gas=None,
          keep_amplitude=0, gas_volumes=0, power_dm=None, velocity_dm=None,
          velocity_gas=None)),
    (L.ZoomParams, L.lib.tbrf_ic_default_zoom,
     dict(refinement=2, region=0, lo=(0.0, 0.0, 0.0), hi=(0.0, 0.0, 0.0), radius=0.0,
          ids=None, n_ids=0, pad=1, levels=0)),
    (L.PointsParams, L.lib.tbrf_ic_default_points,
     dict(kind=0, per_axis=2, n=8, box=1.0, jitter=0.25, seed=1, realization=0)),
    (L.DensityParams, L.lib.tbrf_ic_default_density,
     dict(kind=2, rho_mean=1.0, sigma=0.0, rho_floor=0.0)),
]


@pytest.mark.parametrize("struct,fill,expect", CASES, ids=[c[0].__name__ for c in CASES])
def test_struct_layout(struct, fill, expect):
    size = ctypes.sizeof(struct)
    buf = (ctypes.c_ubyte * (size + 64))(*([0xAB] * (size + 64)))
    fill(ctypes.cast(buf, ctypes.POINTER(struct)))
    assert bytes(buf[size:]) == b"\xab" * 64, "the C struct is larger than its mirror"
    s = struct.from_buffer_copy(bytes(buf[:size]))
    got = L.struct_dict(s)
    for k, v in expect.items():
        assert got[k] == pytest.approx(v) if v is not None else got[k] is None, k
