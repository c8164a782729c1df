"""Driver.from_turbgen: a power law's modes on TurbGen's sparse directions,
every mode with directions=0 (doc/driving.md, "A TurbGen user's cost")."""
import tbrf

# tests/data/turbgen/TurbGen.par's values with spect_form = 2, k_max = 16
POWERLAW = """
ndim = 3
L = 1.0
velocity = 1.0
ampl_factor = 1.0
ampl_auto_adjust = 0
k_driv = 2.0
k_min = 1.0
k_max = 16.0
sol_weight = 0.5
spect_form = 2
power_law_exp = -2.0
angles_exp = 1.0
random_seed = 140281
nsteps_per_t_turb = 10
"""


def test_powerlaw_modes_as_turbgen_samples_them():
    sparse = tbrf.Driver.from_turbgen(POWERLAW)
    every = tbrf.Driver.from_turbgen(POWERLAW, directions=0)
    # TurbGen's list for this file holds 1032 modes, the band 8538
    assert sparse.info["modes"] == 928 and every.info["modes"] == 8538
