"""gstools_conventions.py LIBTBRF — the parameter conventions of
doc/statistics.md ("Porting parameters from GSTools") checked against
GSTools itself: libtbrf's covariance (tbrf_model_covariance, through
ctypes) of Matern(a = l/sqrt(nu), nu), Gaussian(a = 2 l/sqrt(pi)) and
Exponential(a = l) equals GSTools' Matern, Gaussian and Exponential of
len_scale l (unit variance) to 1e-12 at 60 distances, for several l and
nu, and stable and rational (by name, length l, alpha) GSTools' Stable and
Rational; and the naive port a = l is shown to differ (so the test would fail
if the conventions were the same); GSTools' VectorField's per-component
variances are the drift projection's, not tbrf's solenoidal field's. Skipped (77) without gstools (pip:
`gstools`; not packaged in Debian)."""
import ctypes
import sys

try:
    import gstools as gs
    import numpy as np
except ImportError as e:
    print(f"gstools/numpy not importable ({e}): skipped")
    sys.exit(77)

try:
    lib = ctypes.CDLL(sys.argv[1])
except OSError as e:  # a static build: no shared library to load
    print(f"cannot load {sys.argv[1]} ({e}): skipped")
    sys.exit(77)
lib.tbrf_model_covariance.restype = ctypes.c_double
lib.tbrf_model_covariance.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_double]
lib.tbrf_model_matern.argtypes = [ctypes.c_double, ctypes.c_double, ctypes.POINTER(ctypes.c_void_p)]
lib.tbrf_model_gaussian.argtypes = [ctypes.c_double, ctypes.POINTER(ctypes.c_void_p)]
lib.tbrf_model_exponential.argtypes = [ctypes.c_double, ctypes.POINTER(ctypes.c_void_p)]
lib.tbrf_model_destroy.argtypes = [ctypes.c_void_p]


def tbrf_cov(make, *args, r):
    m = ctypes.c_void_p()
    assert make(*args, ctypes.byref(m)) == 0, "model refused"
    c = np.array([lib.tbrf_model_covariance(m, 3, float(x)) for x in r])
    lib.tbrf_model_destroy(m)
    return c


fails = []
r = np.linspace(0.0, 6.0, 60)
for ell in (0.5, 2.0):
    for nu in (0.5, 1.5, 3.0):
        ref = gs.Matern(dim=3, var=1.0, len_scale=ell, nu=nu).covariance(r)
        got = tbrf_cov(lib.tbrf_model_matern, ell / np.sqrt(nu), nu, r=r)
        naive = tbrf_cov(lib.tbrf_model_matern, ell, nu, r=r)
        d, dn = np.max(np.abs(got - ref)), np.max(np.abs(naive - ref))
        print(f"Matern l={ell} nu={nu}: |tbrf(a=l/sqrt(nu)) - gstools| = {d:.2e}, a=l: {dn:.2e}")
        if not (d < 1e-12) or (nu != 1.0 and not (dn > 1e-3)):
            fails.append(f"Matern l={ell} nu={nu}")
    ref = gs.Gaussian(dim=3, var=1.0, len_scale=ell).covariance(r)
    got = tbrf_cov(lib.tbrf_model_gaussian, 2 * ell / np.sqrt(np.pi), r=r)
    naive = tbrf_cov(lib.tbrf_model_gaussian, ell, r=r)
    d, dn = np.max(np.abs(got - ref)), np.max(np.abs(naive - ref))
    print(f"Gaussian l={ell}: |tbrf(a=2l/sqrt(pi)) - gstools| = {d:.2e}, a=l: {dn:.2e}")
    if not (d < 1e-12 and dn > 1e-3):
        fails.append(f"Gaussian l={ell}")
    ref = gs.Exponential(dim=3, var=1.0, len_scale=ell).covariance(r)
    d = np.max(np.abs(tbrf_cov(lib.tbrf_model_exponential, ell, r=r) - ref))
    print(f"Exponential l={ell}: |tbrf(a=l) - gstools| = {d:.2e}")
    if not d < 1e-12:
        fails.append(f"Exponential l={ell}")
# The kinds made by name: GSTools' Stable and Rational are tbrf's stable and
# rational of the same length and alpha (no rescaling), and the bridge maps
# them (Field.from_gstools goes through tbrf.gstools_params).
lib.tbrf_model_make_params.argtypes = [ctypes.c_char_p, ctypes.c_int,
                                       ctypes.POINTER(ctypes.c_char_p),
                                       ctypes.POINTER(ctypes.c_double),
                                       ctypes.POINTER(ctypes.c_void_p)]


def tbrf_named(kind, r, dim=3, **p):
    m = ctypes.c_void_p()
    names = (ctypes.c_char_p * len(p))(*[k.encode() for k in p])
    values = (ctypes.c_double * len(p))(*p.values())
    assert lib.tbrf_model_make_params(kind.encode(), len(p), names, values,
                                      ctypes.byref(m)) == 0, f"{kind} refused"
    c = np.array([lib.tbrf_model_covariance(m, dim, float(x)) for x in r])
    lib.tbrf_model_destroy(m)
    return c


for ell in (0.5, 2.0):
    for alpha in (0.5, 1.0, 1.5, 2.0):
        ref = gs.Stable(dim=3, var=1.0, len_scale=ell, alpha=alpha).covariance(r)
        d = np.max(np.abs(tbrf_named("stable", r, length=ell, alpha=alpha) - ref))
        print(f"Stable l={ell} alpha={alpha}: |tbrf - gstools| = {d:.2e}")
        if not d < 1e-12:
            fails.append(f"Stable l={ell} alpha={alpha}")
    for alpha in (0.5, 1.0, 3.0):
        ref = gs.Rational(dim=3, var=1.0, len_scale=ell, alpha=alpha).covariance(r)
        d = np.max(np.abs(tbrf_named("rational", r, length=ell, alpha=alpha) - ref))
        print(f"Rational l={ell} alpha={alpha}: |tbrf - gstools| = {d:.2e}")
        if not d < 1e-12:
            fails.append(f"Rational l={ell} alpha={alpha}")
# Vector fields: GSTools' generator="VectorField" is not tbrf's isotropic
# vector="solenoidal" (each component of variance sigma^2). It projects a
# mean drift along x, u_k = (e_x - k k_x / k^2) g_k, so its components have
# variances sigma^2 (E[(1 - c^2)^2], E[c^2 s^2] ...) with c the cosine of k
# with x: 3/8, 1/8 in 2D; 8/15, 1/15, 1/15 in 3D (doc/python.md, "From
# GSTools"). Measured over independent seeds, within 4 standard errors of
# their mean, plus the bias of a box variance (the box mean's variance, at
# most (2 l / n)^dim of sigma^2 for GSTools' Gaussian of len_scale l).
EXPECT = {2: (3 / 8, 1 / 8), 3: (8 / 15, 1 / 15, 1 / 15)}
for dim, n in ((2, 96), (3, 24)):
    ell, seeds = 2.0, 6
    model = gs.Gaussian(dim=dim, var=1.0, len_scale=ell)
    v = []
    for s in range(seeds):
        srf = gs.SRF(model, generator="VectorField", seed=1000 + s, mode_no=1000)
        f = srf.structured([np.arange(n, dtype=float)] * dim)
        v.append([f[c].var() for c in range(dim)])
    v = np.array(v)
    mean, se = v.mean(0), v.std(0, ddof=1) / np.sqrt(seeds)
    bias = (2 * ell / n) ** dim
    print(f"VectorField {dim}D: component variances {np.round(mean, 4)} +- {np.round(se, 4)}, "
          f"expected {np.round(EXPECT[dim], 4)} (tbrf's solenoidal: 1 each)")
    if not np.all(np.abs(mean - EXPECT[dim]) <= 4 * se + bias):
        fails.append(f"VectorField {dim}D")
if fails:
    print("FAIL: " + ", ".join(fails))
    sys.exit(1)
print(f"GSTools {gs.__version__}: the conventions hold")
