"""tbrf.Inflow(period=...): the wind periodic across the flow."""
import numpy as np
import pytest

import tbrf


def test_periodic_inflow_repeats_across_the_flow():
    v = (0.5, 0.0)
    dom = tbrf.inflow_tube(2, (-0.15, -0.15), (0.0, 1.15), v, 1.0)
    inflow = tbrf.Inflow("gaussian", 2, dom, 0.05, v, period=(0.0, 1.0), length=0.2, seed=6,
                         realization=2)
    # the corner ghost cells of a block reaching past the box hold the
    # values of their periodic images
    g = inflow.fill_grid(0.6, (-0.15, -0.15), 0.05, (4, 27))
    rms = np.sqrt(np.mean(g ** 2))
    assert rms > 0 and np.max(np.abs(g[:7] - g[20:])) <= 1e-10 * rms
    x = np.random.default_rng(3).random((50, 2)) * [0.15, 3.0] - [0.15, 1.0]
    assert inflow.line_bytes() == 0
    with pytest.raises(ValueError, match="line_precision"):
        tbrf.Inflow("gaussian", 2, dom, 0.05, v, period=(0.0, 1.0), length=0.2,
                    line_precision="float")
    with pytest.raises(tbrf.InvalidError) as e:
        tbrf.Inflow("gaussian", 2, dom, 0.05, v, period=(0.0, -1.0), length=0.2)
    assert "period" in e.value.message
    with pytest.raises(tbrf.OutOfDomainError):
        inflow.fill(5.0, x)
    # positions far across the flow are their images in the box
    y = x + [0.0, 7.0]
    assert np.max(np.abs(inflow.fill(0.6, x) - inflow.fill(0.6, y))) <= 1e-10 * rms
