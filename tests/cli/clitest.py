"""clitest.py — what the Python tests of the `tbrf` command beside it share
(arepo_cosmo.py, arepo_gas.py, arepo_sets.py, lognormal_cli.py,
periodic_cli.py): their arguments TBRF WORKDIR CASE and the work folder,
and the two ways they fail: check() and run() collect failures in FAILS
and the test reports them at its end; fail() and run_or_fail() stop at
the first. The scripts import it from their own folder with
sys.dont_write_bytecode set, so that no __pycache__ lands in the source
tree."""
import os
import shutil
import subprocess
import sys

TBRF = None
FAILS = []


def start(argv, empty=None):
    """TBRF, WORK, CASE from argv[1:4]; WORK made and entered, and emptied
    of its files (empty "files") or of everything (empty "all") that a
    previous run left."""
    global TBRF
    TBRF, work, case = argv[1], argv[2], argv[3]
    os.makedirs(work, exist_ok=True)
    os.chdir(work)
    for f in os.listdir(".") if empty else []:
        if empty == "all" and os.path.isdir(f) and not os.path.islink(f):
            shutil.rmtree(f)
        else:
            os.remove(f)
    return TBRF, work, case


def check(cond, msg):
    if not cond:
        FAILS.append(msg)
        print("FAIL:", msg)


def run(*args, env=None, want=0, cwd=None, latin1=False):
    """tbrf ARGS (env added to the environment), its exit status checked
    against want; stdout and stderr as text (latin1: decoded byte for
    byte, whatever they hold)."""
    e = dict(os.environ)
    e.update(env or {})
    if latin1:
        p = subprocess.run([TBRF] + list(args), capture_output=True, env=e, cwd=cwd)
        p.stdout, p.stderr = p.stdout.decode("latin-1"), p.stderr.decode("latin-1")
    else:
        p = subprocess.run([TBRF] + list(args), capture_output=True, text=True, env=e, cwd=cwd)
    check(p.returncode == want, "%s: exit %d, wanted %d; stderr: %s" %
          (" ".join(args), p.returncode, want, p.stderr.strip()))
    return p


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def run_or_fail(*args, ok=True, code=None):
    """tbrf ARGS: it must succeed (ok), or fail (with exit status code
    when given); the test stops at once when it does not."""
    p = subprocess.run([TBRF, *args], capture_output=True, text=True)
    if ok and p.returncode != 0:
        fail(f"{' '.join(args)}: exit {p.returncode}: {p.stderr}")
    if not ok and (p.returncode == 0 or (code is not None and p.returncode != code)):
        fail(f"{' '.join(args)}: exit {p.returncode}, want {code or 'failure'}: {p.stderr}")
    return p


def attr(f, name):
    """An HDF5 object's attribute, a string decoded."""
    v = f.attrs[name]
    return v.decode() if isinstance(v, bytes) else v


# ---------------------------------------------------- power spectra (numpy)
# For the tests of cosmological ICs (arepo_cosmo.py, arepo_zoom.py); numpy
# is imported here only when they are used.

def pk_shells(field_k, n):
    """Shell sums of |F_k|^2 over |m| bins (integer fundamental units), the
    mode counts and the sums of |m| of an n^3 transform."""
    import numpy as np
    m = np.fft.fftfreq(n, 1.0 / n)
    mz, my, mx = np.meshgrid(m, m, m, indexing="ij")
    r = np.sqrt(mx ** 2 + my ** 2 + mz ** 2)
    b = np.rint(r).astype(int)
    p = np.abs(field_k) ** 2
    nb = int(b.max()) + 1
    return (np.bincount(b.ravel(), p.ravel(), nb), np.bincount(b.ravel(), None, nb),
            np.bincount(b.ravel(), r.ravel(), nb))


def pk_compare(name, pk_est, counts, kmean, pk, kmax_m, box, first=1):
    """Every shell first..kmax_m within 4 standard errors (the shell power
    of a Gaussian field has relative SE 1/sqrt(independent modes), half
    the modes of a shell), and the pooled ratio sum(P_est)/sum(P) within 3
    pooled SE. pk(k) is the model, k in the box's inverse length units."""
    import numpy as np
    kf = 2 * np.pi / box
    num = den = var = 0.0
    worst = 0.0
    for s in range(first, kmax_m + 1):
        nind = counts[s] / 2
        want = np.mean(pk(kmean[s] / counts[s] * kf))
        z = (pk_est[s] - want) / (want / np.sqrt(nind))
        worst = max(worst, abs(z))
        check(abs(z) < 4, "%s shell %d: P %.4g vs %.4g (z = %.2f)" % (name, s, pk_est[s], want, z))
        num += pk_est[s] * counts[s]
        den += want * counts[s]
        var += (want * counts[s]) ** 2 / nind
    zp = (num - den) / np.sqrt(var)
    print("%s: shells %d..%d, worst |z| %.2f, pooled ratio %.4f (z = %.2f)" %
          (name, first, kmax_m, worst, num / den, zp))
    check(abs(zp) < 3, "%s pooled ratio %.4f (z = %.2f)" % (name, num / den, zp))


def cic_delta_k(x, mass, nm, box):
    """The density contrast of particles x (n, 3) with masses mass (n, or
    None: equal) by cloud-in-cell on an nm^3 mesh of the periodic box,
    transformed (continuous normalisation, box^3 / nm^3 per FFT sum) and
    divided by the cloud-in-cell window."""
    import numpy as np
    cell = box / nm
    u = x / cell
    i0 = np.floor(u).astype(int)
    w1 = u - i0
    m = np.ones(len(x)) if mass is None else mass
    rho = np.zeros((nm, nm, nm))
    for dx in (0, 1):
        for dy in (0, 1):
            for dz in (0, 1):
                w = ((w1[:, 0] if dx else 1 - w1[:, 0]) * (w1[:, 1] if dy else 1 - w1[:, 1]) *
                     (w1[:, 2] if dz else 1 - w1[:, 2]))
                np.add.at(rho, ((i0[:, 2] + dz) % nm, (i0[:, 1] + dy) % nm, (i0[:, 0] + dx) % nm),
                          w * m)
    delta = rho / rho.mean() - 1
    mm = np.fft.fftfreq(nm, 1.0 / nm)
    mz, my, mx = np.meshgrid(mm, mm, mm, indexing="ij")
    win = (np.sinc(mx / nm) * np.sinc(my / nm) * np.sinc(mz / nm)) ** 2
    return np.fft.fftn(delta) * (box ** 3 / nm ** 3) / win
