#!/usr/bin/env python3
"""arepo_cosmo.py TBRF WORKDIR CASE — `tbrf arepo cosmo`: Zel'dovich
initial conditions read back as AREPO needs them, and their statistics
(doc/arepo.md, "Cosmological initial conditions").

The run is AREPO's cosmo_box_gravity_only_3d setting: 32^3 particles,
50 Mpc/h (kpc/h units), z = 127, Omega_m 0.3089, Omega_Lambda 0.6911,
h 0.6774, sigma8 0.831 (Omega_b 0.0486 for the transfer function).

Cases:
  file      Header (Time = 1/128, Redshift, BoxSize, Omega0/Lambda,
            HubbleParam, MassTable[1] = Omega_m rho_crit L^3 / N, no Masses
            dataset), float64 datasets, IDs 1..N unique, positions in
            [0, L); float32 with --precision float; `regenerate --check`
            remakes it (and a member of a 2-file gas set) bit for bit from
            the recorded command, fails on a changed file leaving no
            output, and refuses to overwrite its input
  velocity  the velocities are sqrt(a) f H(a) times the displacements
            x - q (minimal image), the factor from a direct integration of
            the growth equation here, to 1e-6
  pk        delta_k = -i k.Psi_k of the displacements on the lattice: the
            shell-averaged P(k) against P(k) D(127)^2 (tbrf arepo pk) up to
            half the particle Nyquist frequency; the particles themselves
            by cloud-in-cell on a 64^3 mesh, deconvolved (a displaced
            lattice has no shot noise), against the same; sigma8 of the
            realised linear field (top-hat 8 Mpc/h over the box's modes)
            against the same modes' expectation. Tolerances below.
  files     --files bounds memory (doc/arepo.md, "Memory and --files"):
            under a TBRF_MEMORY_BUDGET of 6.8 MB (one file of 32^3 takes
            7.1 MB: 1.57 MB of particles beside the plan's 0.28 MB
            transform and 5.2 MB of working set; in F files the stream
            holds the whole 0.79 MB field and 1.57/F MB of particles) one
            file is refused with a
            message naming the --files F that fits, and no file; F files
            are accepted, F - 1 refused; the F files concatenated equal the
            single file written under the default budget (Coordinates,
            Velocities, ParticleIDs bit for bit, IDs 1..N in order), with
            NumPart_ThisFile summing to NumPart_Total
  gas       --gas (N-GenIC's split): NumPart_Total [N, N], the MassTable
            entries in the ratio Omega_b : Omega_m - Omega_b summing to
            Omega_m rho_crit L^3 / N (so both types' masses sum to
            Omega_m rho_crit V), gas IDs N+1..2N after the dark matter's;
            gas - dark matter = -d/2 on every axis (minimal image, d = L/G)
            and the dark matter = the dark-matter-only run's particles +
            (Omega_b/Omega_m) d/2 (the same displacement), both types'
            velocities bit for bit the dark-matter-only run's;
            InternalEnergy = k_B T / ((gamma - 1) mu m_p) / (1e5 cm/s)^2
            at the default T = 2.7255 (1 + z), mu 1.22, and at --temperature
            1e4 --mu 0.6; --temperature without --gas refused, no file.
            Tolerances: 1e-12 relative (rounding of one expression), the
            positions 1e-9 L (sums of numbers of size L)
  units     --unit-velocity 1e3 (10 m/s): velocities 100 times the km/s
            run's (1e-12 relative), positions bit for bit, the gas u 1e4
            times; Header UnitLength_in_cm (kpc and Mpc with
            --length-unit mpc), UnitMass_in_g, UnitVelocity_in_cm_per_s
  glass     --glass: a jittered 8^3 "glass" made here (PartType1 in its own
            BoxSize 1000, and the same points over 1000 as HDF5 /points in
            the unit box) tiled 4 times per axis to 32^3: IDs 1..N, the
            particles' displacements from the tiled sites (row j + ng (a +
            T (b + T c)) = glass point j in tile (a, b, c)) equal the
            lattice run's field trigonometrically interpolated to those
            sites (the same modes: the periodic plan's NUFFT at 1e-12;
            tolerance 1e-7 kpc/h against displacements of order 100
            kpc/h, far above the 1e-11 rounding of positions of size L and
            far below any error of a wrong mode or site), velocities the
            same sqrt(a) f H times them; both glass formats give the same
            particles (1e-9 L); regenerate --check remakes it bit for bit;
            a point exactly at the glass's BoxSize is wrapped (the same
            particles, bit for bit, as with it at 0); a 256-point glass for
            16^3 (16 copies, not a cube), 20^3 for 512 (no whole number of
            copies) and a point clearly outside the glass box (1000.5 in
            1000) are refused with one message, no file
  lpt       --lpt 2 (2LPT) against --lpt 1 of the same seed: the difference
            of positions (minimal image) is Psi2, small beside Psi1, and the
            difference of velocities velocity_factor2 Psi2 (1e-9 of the
            velocities), with velocity_factor2 / velocity_factor = f2/f1 ~ 2
            at z = 127 (1e-4); --paired: x_a + x_b = 2 (q + Psi2) (1e-9 L)
            and u_a + u_b = 2 vf2 Psi2; --fixed-amplitude: |delta_k| of the
            lattice's displacement depends on |k| alone (modes of one |m|^2
            equal to 1e-9) and its phases are the Gaussian run's; the
            order, fixed and paired recorded in /tbrf (D2 ~ -(3/7) D^2);
            regenerate --check remakes a fixed paired 2LPT file bit for bit,
            a command without --lpt records "--lpt 2", and a file whose
            command has no --lpt (written before the option) is remade by
            the Zel'dovich approximation bit for bit; 1 and 3 threads write
            the same particles, 3 files the one file's particles; --lpt 4 refused
            (--lpt 3: arepo_cosmo_lpt3.py)
  transfer  --transfer with the stored real CAMB (header-less) and CLASS
            (tk, format = class) files (tests/data/transfer): every mode of
            the displacement is the Eisenstein & Hu run's (same seed, same
            phases) times sqrt(A k^n_s T^2 / P_EH(k)), A one constant over
            the modes (1e-6) equal to the sigma8 normalisation computed here
            from the file (1e-4); with --gas two fluids: every mode of the
            gas's and the dark matter's displacement is the total matter's
            times T_b/T_m and T_c/T_m, of their velocities sqrt(a) H T_v/T_m
            (CAMB's v_b, v_CDM; CLASS's Newtonian theta from t_b, h', eta'
            over a H k^2) (1e-6; seen 4e-11); a 9-column CAMB file (no
            velocities): u = sqrt(a) f H Psi of each species, a note on
            stderr and in the record; a v_b against its density's sign
            refused with --gas only; recorded
            (power_spectrum, gas_power_spectrum, velocities, two_fluids,
            the digest in the command),
            --files 3 the same particles bit for bit, regenerate --check
            bit for bit, refused (no output) once the
            file changed; --table with --transfer, --sigma8 table with
            --transfer, a two-column file: exit 2, one line, no file
  amplitude --sigma8 table keeps a --table's amplitude (a table written at
            sigma8 0.7: displacements 0.7/0.831 of the sigma8 0.831 run's,
            1e-9; sigma8 0.7 recorded, 1e-4); such a table need only reach
            pi G/L (rows to 2.5 h/Mpc for G = 32 in 50 Mpc/h: accepted);
            --omega-b 0: every mode the Eisenstein & Hu run's times the
            zero-baryon fit's T0 over the full fit (EH98 eq. 29, computed
            here; one constant to 1e-6); refused with --gas; --sigma8 table
            without --table refused
  volumes   --gas --glass --volumes voronoi: MassTable[0] 0 and a Masses
            dataset summing to the equal-mass run's N MassTable[0] (1e-12),
            each mass over its glass point's periodic Voronoi volume
            (computed by `tbrf arepo gas --points` on the glass) the same
            for every cell (1e-12); --volumes voronoi on the lattice refused
  bad       a negative box, Omega_m out of range, a table not covering the
            needed k, more particles than the memory budget: exit status,
            one message, no file
Exit 77 (skipped) without h5py/numpy.
"""
import os
import sys

try:
    import h5py
    import numpy as np
except ImportError:
    print("h5py or numpy missing: skipped")
    sys.exit(77)

sys.dont_write_bytecode = True  # no __pycache__ beside the tests
import clitest  # noqa: E402 (beside this script)
from clitest import FAILS, check, run  # noqa: E402

TBRF, WORK, CASE = clitest.start(sys.argv, empty="files")
G, L, Z = 32, 50000.0, 127.0
OM, OL, OB, H, S8 = 0.3089, 0.6911, 0.0486, 0.6774, 0.831
BASE = ["arepo", "cosmo", "--box", str(L), "--particles", str(G), "--redshift", str(Z),
        "--omega-m", str(OM), "--omega-b", str(OB), "--hubble", str(H), "--sigma8", str(S8),
        "--seed", "3", "--lpt", "1"]


def lattice():
    i = np.arange(G ** 3)
    return np.stack([i % G, i // G % G, i // (G * G)], axis=1) * (L / G)


def displacements(x):
    d = x - lattice()
    return d - L * np.round(d / L)


def growth_and_rate(z):
    """D(z)/D(0) and f from D ∝ E ∫ da/(aE)^3 (trapezoid in a = t^2)."""
    def raw(a):
        t = np.linspace(0, np.sqrt(a), 200001)
        a_ = t * t
        f = 2 * t ** 4 / (OM + (1 - OM - OL) * a_ + OL * a_ ** 3) ** 1.5
        return np.sqrt(OM / a ** 3 + (1 - OM - OL) / a ** 2 + OL) * np.trapz(f, t)
    a = 1 / (1 + z)
    eps = 1e-4
    lnd = lambda lna: np.log(raw(np.exp(lna)))
    f = (lnd(np.log(a) + eps) - lnd(np.log(a) - eps)) / (2 * eps)
    return raw(a) / raw(1.0), f


def case_file():
    p = run(*BASE, "--out", "ics")
    check(p.stderr.startswith("wrote ics.hdf5: AREPO initial conditions, %d dark-matter "
                              "particles (PartType1), float64, " % G ** 3) and
          p.stderr.count("\n") == 1, "wrote line %r" % p.stderr)
    p = run(*BASE, "--out", "icf", "--precision", "float", "--long-ids", "--quiet")
    check(p.stderr == "", "--quiet: %r" % p.stderr)
    rho_crit = 27.7536627  # 10^10 M_sun/h per (Mpc/h)^3
    mass = OM * rho_crit * (L / 1000) ** 3 / G ** 3
    with h5py.File("ics.hdf5", "r") as f:
        h = f["Header"].attrs
        check(abs(h["Time"] - 1 / 128) < 1e-15 and h["Redshift"] == Z, "Time, Redshift")
        check(h["BoxSize"] == L and h["Omega0"] == OM and h["OmegaLambda"] == OL and
              h["HubbleParam"] == H, "box and cosmology")
        check(abs(h["MassTable"][1] / mass - 1) < 1e-12, "MassTable[1] %r vs %r" %
              (h["MassTable"][1], mass))
        check(list(h["NumPart_Total"]) == [0, G ** 3, 0, 0, 0, 0], "NumPart_Total")
        check(h["Flag_DoublePrecision"] == 1, "Flag_DoublePrecision")
        p = f["PartType1"]
        check("Masses" not in p, "no Masses dataset with a MassTable entry")
        x = p["Coordinates"][...]
        ids = p["ParticleIDs"][...]
        check(x.dtype == np.float64 and p["Velocities"].dtype == np.float64, "float64")
        check(np.all((x >= 0) & (x < L)), "positions in [0, L)")
        check(ids.dtype == np.uint32 and np.array_equal(np.sort(ids), np.arange(1, G ** 3 + 1)),
              "IDs 1..N")
    # regenerate from the recorded command: bit for bit, a changed file fails
    out = run("regenerate", "ics.hdf5", "--out", "again", "--check").stdout
    check("bitwise equal" in out, "regenerate --check: %r" % out)
    run("arepo", "gas", "--out", "gas", "--box", "1", "--jittered", "6", "--density",
        "lognormal", "--sigma", "0.4", "--model", "gaussian", "--length", "0.3",
        "--sound-speed", "1", "--velocity", "solenoidal", "--vrms", "1", "--files", "2")
    out = run("regenerate", "gas.1.hdf5", "--out", "gas2", "--check").stdout
    check("bitwise equal" in out, "regenerate --check of a set member: %r" % out)
    with h5py.File("again.hdf5", "r+") as f:
        f["PartType1/Coordinates"][0, 0] += 1.0
    p = run("regenerate", "again.hdf5", "--out", "third", "--check", want=1)
    check("Coordinates differs" in p.stderr and not os.path.exists("third.hdf5"),
          "a changed file fails --check and leaves no output: %r" % p.stderr)
    run("regenerate", "ics.hdf5", "--out", "ics", want=2)
    with h5py.File("icf.hdf5", "r") as f:
        check(f["Header"].attrs["Flag_DoublePrecision"] == 0, "float Flag_DoublePrecision 0")
        check(f["PartType1/Coordinates"].dtype == np.float32, "float32 coordinates")
        check(f["PartType1/ParticleIDs"].dtype == np.uint64, "uint64 IDs")


def case_velocity():
    run(*BASE, "--out", "ics")
    with h5py.File("ics.hdf5", "r") as f:
        psi = displacements(f["PartType1/Coordinates"][...])
        v = f["PartType1/Velocities"][...]
    a = 1 / (1 + Z)
    _, rate = growth_and_rate(Z)
    e = np.sqrt(OM / a ** 3 + (1 - OM - OL) / a ** 2 + OL)
    want = np.sqrt(a) * rate * 100 * e / 1000  # km/s per kpc/h
    ratio = np.sum(v * psi) / np.sum(psi * psi)
    resid = np.max(np.abs(v - ratio * psi)) / np.max(np.abs(v))
    print("velocity / displacement %.8f, expected %.8f; residual %.1e; rms Psi %.1f kpc/h "
          "(spacing %.0f)" % (ratio, want, resid, np.sqrt(np.mean(psi ** 2)), L / G))
    check(abs(ratio / want - 1) < 1e-6, "velocity factor %r vs %r" % (ratio, want))
    check(resid < 1e-9, "velocities proportional to displacements: %g" % resid)


def model_pk():
    run("arepo", "pk", "--out", "pk.txt", "--omega-m", str(OM), "--omega-b", str(OB), "--h",
        str(H), "--sigma8", str(S8), "--z", str(Z), "--kmin", "1e-4", "--kmax", "100")
    k, p = np.loadtxt("pk.txt", unpack=True)
    # to kpc/h units: k in h/kpc, P in (kpc/h)^3
    return lambda kk: np.exp(np.interp(np.log(kk * 1000), np.log(k), np.log(p))) * 1e9


def case_pk():
    run(*BASE, "--out", "ics")
    pk = model_pk()
    with h5py.File("ics.hdf5", "r") as f:
        x = f["PartType1/Coordinates"][...]
    psi = displacements(x).reshape(G, G, G, 3)
    V = L ** 3
    kf = 2 * np.pi / L
    m = np.fft.fftfreq(G, 1.0 / G) * kf
    kz, ky, kx = np.meshgrid(m, m, m, indexing="ij")
    # continuous-normalised delta_k = -i k.Psi_k (V / N per the FFT sum)
    pk_ = [np.fft.fftn(psi[..., c]) * (V / G ** 3) for c in range(3)]
    dk = -1j * (kx * pk_[0] + ky * pk_[1] + kz * pk_[2])
    p, counts, ksum = clitest.pk_shells(dk, G)
    clitest.pk_compare("displacement field", p / np.maximum(counts, 1) / V, counts, ksum, pk,
                       G // 4, L)
    # the particles by cloud-in-cell on a 64^3 mesh, deconvolved
    nm = 2 * G
    dkc = clitest.cic_delta_k(x, None, nm, L)
    p2, counts2, ksum2 = clitest.pk_shells(dkc, nm)
    clitest.pk_compare("cloud-in-cell particles", p2 / np.maximum(counts2, 1) / V, counts2, ksum2,
                       pk, G // 4, L)
    # sigma8 of the realised field over the box's modes against the same
    # modes' expectation; SE from the exponential scatter of each mode
    kk = np.sqrt(kx ** 2 + ky ** 2 + kz ** 2)
    r8 = 8000.0
    with np.errstate(invalid="ignore", divide="ignore"):
        xr = kk * r8
        w8 = np.where(kk > 0, 3 * (np.sin(xr) - xr * np.cos(xr)) / xr ** 3, 0)
        kcut = (kk > 0) & (kk <= np.pi * G / L)
        pexp = np.where(kcut, pk(np.where(kk > 0, kk, 1.0)), 0)
    s2 = np.sum(np.abs(dk) ** 2 * w8 ** 2) / V ** 2
    e2 = np.sum(pexp * w8 ** 2) / V
    se = np.sqrt(np.sum((pexp * w8 ** 2 / V) ** 2))  # half the modes, each twice
    print("sigma8 of the realised field %.5f, expected over the box's modes %.5f (z = %.2f)" %
          (np.sqrt(s2), np.sqrt(e2), (s2 - e2) / se))
    check(abs(s2 - e2) < 4 * se, "sigma8^2 %g vs %g (SE %g)" % (s2, e2, se))


def case_files():
    import re
    run(*BASE, "--out", "one")
    small = {"TBRF_MEMORY_BUDGET": "6800000"}
    p = run(*BASE, "--out", "set", env=small, want=1)
    m = re.search(r"--files (\d+) or more", p.stderr)
    check(m is not None and p.stderr.count("\n") == 1, "refusal names --files: %r" % p.stderr)
    check(sorted(os.listdir(".")) == ["one.hdf5"], "refused: no file left: %s" % os.listdir("."))
    nf = int(m.group(1)) if m else 4
    check(nf > 1, "a 6.8 MB budget needs more than one file (got %d)" % nf)
    if nf > 2:
        run(*BASE, "--out", "set", "--files", str(nf - 1), env=small, want=1)
        check(sorted(os.listdir(".")) == ["one.hdf5"], "F - 1 refused: no file left")
    run(*BASE, "--out", "set", "--files", str(nf), env=small)
    names = ["set.%d.hdf5" % i for i in range(nf)]
    check(sorted(os.listdir(".")) == sorted(["one.hdf5"] + names), "files: %s" % os.listdir("."))
    with h5py.File("one.hdf5", "r") as a:
        parts = [h5py.File(n, "r") for n in names]
        for key in ("Coordinates", "Velocities", "ParticleIDs"):
            c = np.concatenate([f["PartType1/" + key][...] for f in parts])
            check(c.dtype == a["PartType1/" + key].dtype and
                  np.array_equal(c, a["PartType1/" + key][...]), "%s differs" % key)
        ids = np.concatenate([f["PartType1/ParticleIDs"][...] for f in parts])
        check(np.array_equal(ids, np.arange(1, G ** 3 + 1)), "IDs not 1..N in order")
        this = [int(f["Header"].attrs["NumPart_ThisFile"][1]) for f in parts]
        check(sum(this) == G ** 3 and
              all(int(f["Header"].attrs["NumPart_Total"][1]) == G ** 3 and
                  int(f["Header"].attrs["NumFilesPerSnapshot"]) == nf for f in parts),
              "header counts %s" % this)
        for f in parts:
            f.close()
    print("files: %d files under a 6.8 MB budget equal the single file" % nf)


K_B, M_P = 1.380649e-16, 1.67262192369e-24  # CODATA 2018, cgs


def case_gas():
    run(*BASE, "--out", "dm")
    run(*BASE, "--out", "gas", "--gas")
    run(*BASE, "--out", "hot", "--gas", "--temperature", "1e4", "--mu", "0.6")
    N, d = G ** 3, L / G
    rho_crit = 27.7536627  # 10^10 M_sun/h per (Mpc/h)^3, as case_file
    total = OM * rho_crit * (L / 1000) ** 3
    with h5py.File("dm.hdf5", "r") as f:
        xd0, vd0 = f["PartType1/Coordinates"][...], f["PartType1/Velocities"][...]
    with h5py.File("gas.hdf5", "r") as f:
        h = f["Header"].attrs
        mt = h["MassTable"]
        check(list(h["NumPart_Total"]) == [N, N, 0, 0, 0, 0], "NumPart_Total %s" %
              list(h["NumPart_Total"]))
        check(abs((mt[0] + mt[1]) * N / total - 1) < 1e-12, "masses sum %r vs Omega_m rho_crit V "
              "%r" % ((mt[0] + mt[1]) * N, total))
        check(abs(mt[0] / mt[1] / (OB / (OM - OB)) - 1) < 1e-12, "MassTable ratio %r" %
              (mt[0] / mt[1]))
        g, dm = f["PartType0"], f["PartType1"]
        check("Masses" not in g and "Masses" not in dm, "no Masses datasets")
        ids = np.concatenate([dm["ParticleIDs"][...], g["ParticleIDs"][...]])
        check(np.array_equal(ids, np.arange(1, 2 * N + 1)), "IDs: dark matter 1..N, gas N+1..2N")
        xg, xd = g["Coordinates"][...], dm["Coordinates"][...]
        sep = xg - xd
        sep -= L * np.round(sep / L)
        check(np.max(np.abs(sep + d / 2)) < 1e-9 * L, "gas - dark matter != -d/2: %g" %
              np.max(np.abs(sep + d / 2)))
        sh = xd - xd0
        sh -= L * np.round(sh / L)
        want = 0.5 * OB / OM * d
        check(np.max(np.abs(sh - want)) < 1e-9 * L, "dark matter shift %g vs %g" %
              (np.max(np.abs(sh - want)), want))
        check(np.array_equal(g["Velocities"][...], vd0) and
              np.array_equal(dm["Velocities"][...], vd0), "velocities are the dark matter's")
        u = g["InternalEnergy"][...]
        want_u = K_B * 2.7255 * (1 + Z) / ((5 / 3 - 1) * 1.22 * M_P) / 1e10
        check(np.all(np.abs(u / want_u - 1) < 1e-12), "u %r vs %r" % (u[0], want_u))
    with h5py.File("hot.hdf5", "r") as f:
        u = f["PartType0/InternalEnergy"][...]
        want_u = K_B * 1e4 / ((5 / 3 - 1) * 0.6 * M_P) / 1e10
        check(np.all(np.abs(u / want_u - 1) < 1e-12), "hot u %r vs %r" % (u[0], want_u))
    print("gas: MassTable %r, u %.6g (km/s)^2 at T = %.1f K" % (list(mt[:2]), u[0], 2.7255 * 128))
    before = sorted(os.listdir("."))
    p = run(*BASE, "--out", "bad", "--temperature", "100", want=2)
    check("--gas" in p.stderr and sorted(os.listdir(".")) == before, "--temperature alone")


def case_units():
    run(*BASE, "--out", "kms", "--gas")
    run(*BASE, "--out", "slow", "--gas", "--unit-velocity", "1e3")
    mpc = list(BASE)
    mpc[mpc.index("--box") + 1] = str(L / 1000)
    run(*mpc, "--out", "mpc", "--length-unit", "mpc")
    with h5py.File("kms.hdf5", "r") as a, h5py.File("slow.hdf5", "r") as b:
        for t in ("PartType0", "PartType1"):
            check(np.array_equal(a[t + "/Coordinates"][...], b[t + "/Coordinates"][...]),
                  t + " positions change with the velocity unit")
            va, vb = a[t + "/Velocities"][...], b[t + "/Velocities"][...]
            check(np.max(np.abs(vb - 100 * va)) <= 1e-12 * np.max(np.abs(100 * va)),
                  t + " velocities not 100 times")
        ua, ub = a["PartType0/InternalEnergy"][...], b["PartType0/InternalEnergy"][...]
        check(np.all(np.abs(ub / (1e4 * ua) - 1) < 1e-12), "u not 1e4 times")
        ha, hb = a["Header"].attrs, b["Header"].attrs
        check(ha["UnitVelocity_in_cm_per_s"] == 1e5 and hb["UnitVelocity_in_cm_per_s"] == 1e3,
              "UnitVelocity_in_cm_per_s")
        check(abs(ha["UnitLength_in_cm"] / 3.0856775814913673e21 - 1) < 1e-15, "kpc in cm")
        check(abs(ha["UnitMass_in_g"] / 1.988409870698051e43 - 1) < 1e-15, "1e10 M_sun in g")
    with h5py.File("mpc.hdf5", "r") as f:
        check(abs(f["Header"].attrs["UnitLength_in_cm"] / 3.0856775814913673e24 - 1) < 1e-15,
              "Mpc in cm")
    print("units: ok")


def glass_points(g, box, seed):
    rng = np.random.default_rng(seed)
    i = np.arange(g ** 3)
    u = np.stack([i % g, i // g % g, i // (g * g)], axis=1) + 0.5 + 0.2 * rng.uniform(-1, 1, (g ** 3, 3))
    return u * (box / g)


def write_glass(name, x, box=None, points=False):
    with h5py.File(name, "w") as f:
        if points:
            f["points"] = x
        else:
            f.create_group("Header").attrs["BoxSize"] = box
            f["PartType1/Coordinates"] = x


def trig_interp(psi_lat, sites):
    """Psi(x) = sum_k Psi_k e^{i k x} from the lattice values (G^3, 3)."""
    pk = [np.fft.fftn(psi_lat[:, c].reshape(G, G, G)) / G ** 3 for c in range(3)]  # (z, y, x)
    m = np.fft.fftfreq(G, 1.0 / G) * (2 * np.pi / L)
    out = np.zeros((len(sites), 3))
    for s0 in range(0, len(sites), 64):
        x = sites[s0:s0 + 64]
        ex, ey, ez = (np.exp(1j * np.outer(x[:, c], m)) for c in range(3))
        for c in range(3):
            out[s0:s0 + 64, c] = np.einsum("zyx,nz,ny,nx->n", pk[c], ez, ey, ex,
                                           optimize=True).real
    return out


def case_glass():
    ng, T = 8, 4
    gx = glass_points(ng, 1000.0, 5)
    write_glass("glass.hdf5", gx, box=1000.0)
    write_glass("glass_unit.h5", gx / 1000.0, points=True)
    run(*BASE, "--out", "lat")
    run(*BASE, "--out", "gl", "--glass", "glass.hdf5")
    run(*BASE, "--out", "gu", "--glass", "glass_unit.h5")
    i = np.arange(G ** 3)
    j, t = i % ng ** 3, i // ng ** 3
    tiles = np.stack([t % T, t // T % T, t // (T * T)], axis=1)
    sites = (gx[j] / 1000.0 + tiles) * (L / T)
    with h5py.File("lat.hdf5", "r") as f:
        psi_lat = displacements(f["PartType1/Coordinates"][...])
    with h5py.File("gl.hdf5", "r") as f, h5py.File("gu.hdf5", "r") as u:
        x, v = f["PartType1/Coordinates"][...], f["PartType1/Velocities"][...]
        check(np.array_equal(f["PartType1/ParticleIDs"][...], np.arange(1, G ** 3 + 1)), "IDs")
        check(f["tbrf"].attrs["glass_tile"] == T, "glass_tile recorded")
        dxu = u["PartType1/Coordinates"][...] - x
        dxu -= L * np.round(dxu / L)
        check(np.max(np.abs(dxu)) < 1e-9 * L, "unit-box /points glass differs: %g" %
              np.max(np.abs(dxu)))
    psi = x - sites
    psi -= L * np.round(psi / L)
    pick = np.random.default_rng(0).choice(G ** 3, 1024, replace=False)
    want = trig_interp(psi_lat, sites[pick])
    err = np.max(np.abs(psi[pick] - want))
    print("glass: displacements vs the lattice field interpolated: max |diff| %.2e kpc/h "
          "(max |Psi| %.1f)" % (err, np.max(np.abs(want))))
    check(err < 1e-7, "glass displacements differ from the lattice field: %g" % err)
    ratio = np.sum(v * psi) / np.sum(psi * psi)
    check(np.max(np.abs(v - ratio * psi)) < 1e-9 * np.max(np.abs(v)), "velocities not ~ Psi")
    with h5py.File("lat.hdf5", "r") as f:
        vl, pl = f["PartType1/Velocities"][...], psi_lat
    check(abs(ratio / (np.sum(vl * pl) / np.sum(pl * pl)) - 1) < 1e-9, "velocity factor")
    out = run("regenerate", "gl.hdf5", "--out", "gl2", "--check").stdout
    check("bitwise equal" in out, "regenerate --check of a glass file: %r" % out)
    write_glass("g256.hdf5", glass_points(8, 1000.0, 6)[:256], box=1000.0)
    # a point exactly at BoxSize is wrapped to 0: the same
    # particles as the glass with that point at 0; one clearly outside is refused
    write_glass("edge.hdf5", np.vstack([gx[:-1], [[1000.0, 1, 1]]]), box=1000.0)
    write_glass("zero.hdf5", np.vstack([gx[:-1], [[0.0, 1, 1]]]), box=1000.0)
    run(*BASE, "--out", "edge_ic", "--glass", "edge.hdf5", "--quiet")
    run(*BASE, "--out", "zero_ic", "--glass", "zero.hdf5", "--quiet")
    with h5py.File("edge_ic.hdf5", "r") as a, h5py.File("zero_ic.hdf5", "r") as b:
        check(np.array_equal(a["PartType1/Coordinates"][...], b["PartType1/Coordinates"][...]),
              "a glass point at BoxSize is not wrapped to 0")
    write_glass("out.hdf5", np.vstack([gx[:-1], [[1000.5, 1, 1]]]), box=1000.0)
    before = sorted(os.listdir("."))
    small = list(BASE)
    for g, name, text in ((16, "g256.hdf5", "cubic"), (20, "glass.hdf5", "does not tile"),
                          (32, "out.hdf5", "outside")):
        small[small.index("--particles") + 1] = str(g)
        p = run(*small, "--out", "bad", "--glass", name, want=2)
        check(text in p.stderr and p.stderr.count("\n") == 1, "%s: %r" % (name, p.stderr))
    check(sorted(os.listdir(".")) == before, "refused glass: no file left")


DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "transfer")


def modes_ratio(psi_a, psi_b):
    """Per mode Re(Psi_a . conj Psi_b) / |Psi_b|^2 of two lattice
    displacement fields (G^3, 3), with |k| in fundamental units, for the
    modes inside the sphere, off the Nyquist planes."""
    fa = [np.fft.fftn(psi_a[:, c].reshape(G, G, G)) for c in range(3)]
    fb = [np.fft.fftn(psi_b[:, c].reshape(G, G, G)) for c in range(3)]
    m = np.fft.fftfreq(G, 1.0 / G)
    mz, my, mx = np.meshgrid(m, m, m, indexing="ij")
    r = np.sqrt(mx ** 2 + my ** 2 + mz ** 2)
    keep = (r > 0) & (r <= G / 2) & (np.abs(mx) < G / 2) & (np.abs(my) < G / 2) & \
        (np.abs(mz) < G / 2)
    num = sum((fa[c] * np.conj(fb[c])).real for c in range(3))
    den = sum(np.abs(fb[c]) ** 2 for c in range(3))
    return num[keep] / den[keep], r[keep]


def loglog(kt, pt):
    return lambda k: np.exp(np.interp(np.log(k), np.log(kt), np.log(pt)))


def sigma8_of(kt, pt):
    """sigma(8 Mpc/h) of the log-log interpolated rows."""
    lk = np.linspace(np.log(kt[0]), np.log(kt[-1]), 400001)
    k = np.exp(lk)
    x = 8 * k
    w = np.where(x < 1e-3, 1 - x * x / 10, 3 * (np.sin(x) - x * np.cos(x)) / x ** 3)
    f = k ** 3 * loglog(kt, pt)(k) * w * w
    return np.sqrt(np.trapz(f, lk) / (2 * np.pi ** 2))


def eh_table():
    run("arepo", "pk", "--out", "eh0.txt", "--omega-m", str(OM), "--omega-b", str(OB), "--hubble",
        str(H), "--sigma8", str(S8), "--kmin", "1e-5", "--kmax", "1e3", "--quiet")
    return np.loadtxt("eh0.txt", unpack=True)


def psi_of(name):
    with h5py.File(name, "r") as f:
        return displacements(f["PartType1/Coordinates"][...])


def transfer_rows(path, col, delta):
    rows = np.loadtxt(path)
    k, t = rows[:, 0], rows[:, col]
    if delta:
        t = t / k ** 2
    return k, k ** 0.9667 * t * t


def velocity_rows(path, delta, species, a):
    """k and k^n_s T_v^2 of a species' velocity (b or c): CAMB's v_b, v_CDM
    columns; from CLASS's h_prime, eta_prime, t_b (columns 10, 12, 14) the
    Newtonian theta over a H k^2, a H in 1/Mpc at the run's redshift."""
    rows = np.loadtxt(path)
    k = rows[:, 0]
    if not delta:
        t = rows[:, 11 if species == "b" else 10]
    else:
        hc = a * 100 * H * np.sqrt(OM / a ** 3 + OL) / 299792.458
        theta = (rows[:, 9] + 6 * rows[:, 11]) / 2 + (rows[:, 13] if species == "b" else 0)
        t = -theta / (hc * k ** 2)
    return k, k ** 0.9667 * t * t


def case_transfer():
    run(*BASE, "--out", "eh", "--quiet")
    ke, pe = eh_table()
    psi_eh = psi_of("eh.hdf5")
    kf = 2 * np.pi / (L / 1000)
    for name, col, bcol, ccol, delta in (("camb_transfer_99.dat", 6, 2, 1, 0),
                                         ("class_tk_99.dat", 5, 2, 3, 1)):
        path = os.path.join(DATA, name)
        run(*BASE, "--out", "t", "--transfer", path, "--quiet")
        kt, pt = transfer_rows(path, col, delta)
        ratio, r = modes_ratio(psi_of("t.hdf5"), psi_eh)
        k = r * kf
        a = ratio ** 2 * loglog(ke, pe)(k) / loglog(kt, pt)(k)
        want = (S8 / sigma8_of(kt, pt)) ** 2
        spread = np.max(np.abs(a / np.median(a) - 1))
        print("%s: %d modes, A spread %.1e, A / sigma8's %.2e - 1" %
              (name, len(a), spread, np.median(a) / want - 1))
        check(spread < 1e-6, "%s: the modes' A differ by %g" % (name, spread))
        check(abs(np.median(a) / want - 1) < 1e-4, "%s: A %r, sigma8 wants %r" %
              (name, np.median(a), want))
        run(*BASE, "--out", "tg", "--transfer", path, "--gas", "--quiet")
        with h5py.File("tg.hdf5", "r") as f:
            t = f["tbrf"].attrs
            check(("transfer, total matter" in t["power_spectrum"].decode() and
                   "baryons" in t["gas_power_spectrum"].decode() and
                   "from the velocity columns" in t["gas_power_spectrum"].decode() and
                   b"own velocity" in t["velocities"] and b"power_dm" in t["two_fluids"] and
                   t["normalisation"] == b"sigma8" and len(t["power_file_digest"]) == 16 and
                   b"--input-digest" in t["command"]), "%s: recorded %s" % (name, dict(t)))
            xg, xd = f["PartType0/Coordinates"][...], f["PartType1/Coordinates"][...]
            vg, vd = f["PartType0/Velocities"][...], f["PartType1/Velocities"][...]
        pg = displacements(xg + 0.5 * (1 - OB / OM) * L / G)
        pd = displacements(xd - 0.5 * OB / OM * L / G)
        psi_t = psi_of("t.hdf5")
        # two fluids: each species' displacement and velocity follow its
        # own column, mode by mode over the total matter's (same phases)
        a = 1 / (1 + Z)
        vown = np.sqrt(a) * 100 * np.sqrt(OM / a ** 3 + OL) / 1000  # sqrt(a) H, km/s per kpc/h
        for what, field, scale, kc, pc in (
                ("baryons", pg, 1.0) + transfer_rows(path, bcol, delta),
                ("CDM", pd, 1.0) + transfer_rows(path, ccol, delta),
                ("v_b", vg, vown) + velocity_rows(path, delta, "b", a),
                ("v_CDM", vd, vown) + velocity_rows(path, delta, "c", a)):
            rg, r = modes_ratio(field, psi_t)
            want = scale * np.sqrt(loglog(kc, pc)(r * kf) / loglog(kt, pt)(r * kf))
            err = np.max(np.abs(rg / want - 1))
            print("%s --gas: %s modes / total matter's modes: worst %.1e" % (name, what, err))
            check(err < 1e-6, "%s: %s modes / total matter modes != its column's: %g" %
                  (name, what, err))
    out = run("regenerate", "tg.hdf5", "--out", "tg2", "--check").stdout
    check("bitwise equal" in out, "regenerate --check of a --transfer file: %r" % out)
    # no velocity columns (CAMB's 9): the growing mode of each species'
    # own displacement, said on stderr and in the record
    camb = os.path.join(DATA, "camb_transfer_99.dat")
    np.savetxt("nine.dat", np.loadtxt(camb)[:, :9])
    p = run(*BASE, "--out", "t9", "--transfer", "nine.dat", "--gas", "--quiet")
    with h5py.File("t9.hdf5", "r") as f:
        t = f["tbrf"].attrs
        xg, xd = f["PartType0/Coordinates"][...], f["PartType1/Coordinates"][...]
        vg, vd = f["PartType0/Velocities"][...], f["PartType1/Velocities"][...]
        vfac = t["velocity_factor"]
        check(b"growing mode" in t["velocities"] and "no velocity columns" in
              t["gas_power_spectrum"].decode(), "9 columns: recorded %s" % dict(t))
    pg = displacements(xg + 0.5 * (1 - OB / OM) * L / G)
    pd = displacements(xd - 0.5 * OB / OM * L / G)
    err = max(np.max(np.abs(vg - vfac * pg)), np.max(np.abs(vd - vfac * pd))) / np.max(np.abs(vd))
    check("no velocity columns" in p.stderr and err < 1e-9,
          "9 columns: u = vfac Psi of each species (%g), the note %r" % (err, p.stderr))
    # a v_b against its density's sign: refused with --gas only
    rows = np.loadtxt(camb)
    rows[len(rows) // 2, 11] *= -1
    np.savetxt("flip.dat", rows)
    run(*BASE, "--out", "flip", "--transfer", "flip.dat", "--quiet")
    p = run(*BASE, "--out", "flipg", "--transfer", "flip.dat", "--gas", want=2)
    check("opposite sign" in p.stderr and not os.path.exists("flipg.hdf5"),
          "a flipped v_b: %r" % p.stderr)
    # the gas's own displacement is the same for any --files (one
    # non-uniform FFT per file)
    run(*BASE, "--out", "tf", "--transfer", path, "--gas", "--files", "3", "--quiet")
    with h5py.File("tg.hdf5", "r") as a:
        parts = [h5py.File("tf.%d.hdf5" % i, "r") for i in range(3)]
        for key in ("PartType0/Coordinates", "PartType0/Velocities", "PartType1/Coordinates"):
            c = np.concatenate([f[key][...] for f in parts])
            check(np.array_equal(c, a[key][...]), "--files 3: %s differs" % key)
        for f in parts:
            f.close()
    local = "mine_tk.dat"
    with open(os.path.join(DATA, "class_tk_99.dat")) as a, open(local, "w") as b:
        b.write(a.read())
    run(*BASE, "--out", "loc", "--transfer", local, "--quiet")
    with open(local, "a") as b:
        b.write("# changed\n")
    before = sorted(os.listdir("."))
    p = run("regenerate", "loc.hdf5", "--out", "loc2", want=2)
    check("not the one" in p.stderr and sorted(os.listdir(".")) == before,
          "a changed transfer file: %r" % p.stderr)
    with open("two.txt", "w") as f:
        f.write("0.001 1\n0.01 10\n0.1 100\n1 10\n10 1\n100 0.1\n")
    before = sorted(os.listdir("."))
    camb = os.path.join(DATA, "camb_transfer_99.dat")
    for extra, text in ((["--transfer", camb, "--table", "two.txt"], "one of --table"),
                        (["--transfer", "two.txt"], "expected a CAMB"),
                        (["--transfer", camb, "--sigma8", "table"], "--sigma8 table")):
        args = list(BASE)
        if "--sigma8" in extra:
            i = args.index("--sigma8")
            del args[i:i + 2]
        p = run(*args, *extra, "--out", "bad", want=2)
        check(text in p.stderr and p.stderr.count("\n") == 1 and
              sorted(os.listdir(".")) == before, "%s: %r" % (extra, p.stderr))


def t0_zero_baryon(k):
    """EH98 eq. 29: the zero-baryon transfer function, k in h/Mpc."""
    omhh, th = OM * H * H, 2.7255 / 2.7
    q = k * H / 13.41 / (0.0746 * omhh / th ** 2)
    l0 = np.log(2 * 2.718282 + 1.8 * q)
    c0 = 14.2 + 731 / (1 + 62.5 * q)
    return l0 / (l0 + c0 * q * q)


def case_amplitude():
    run(*BASE, "--out", "eh", "--quiet")
    psi_eh = psi_of("eh.hdf5")
    run("arepo", "pk", "--out", "pk07.txt", "--omega-m", str(OM), "--omega-b", str(OB),
        "--hubble", str(H), "--sigma8", "0.7", "--quiet")
    args = list(BASE)
    args[args.index("--sigma8") + 1] = "table"
    run(*args, "--out", "kept", "--table", "pk07.txt", "--quiet")
    psi = psi_of("kept.hdf5")
    err = np.max(np.abs(psi - 0.7 / S8 * psi_eh)) / np.max(np.abs(psi))
    check(err < 1e-9, "--sigma8 table: Psi != 0.7/0.831 Psi(sigma8 0.831): %g" % err)
    with h5py.File("kept.hdf5", "r") as f:
        t = f["tbrf"].attrs
        check(abs(t["sigma8"] / 0.7 - 1) < 1e-4 and b"own amplitude" in t["normalisation"],
              "recorded sigma8 %r, %r" % (t["sigma8"], t["normalisation"]))
    out = run("regenerate", "kept.hdf5", "--out", "kept2", "--check").stdout
    check("bitwise equal" in out, "regenerate --check of --sigma8 table: %r" % out)
    # a table reaching the sphere pi G/L = 2.01 h/Mpc, short of the corner 3.48
    run("arepo", "pk", "--out", "short.txt", "--omega-m", str(OM), "--omega-b", str(OB),
        "--hubble", str(H), "--sigma8", "0.7", "--kmax", "2.5", "--quiet")
    run(*args, "--out", "short", "--table", "short.txt", "--quiet")
    p = run(*args, "--out", "bad", want=2)
    check("--table" in p.stderr and not os.path.exists("bad.hdf5"), "--sigma8 table alone")
    # --omega-b 0: Eisenstein & Hu's zero-baryon form
    args = list(BASE)
    args[args.index("--omega-b") + 1] = "0"
    run(*args, "--out", "nob", "--quiet")
    ke, pe = eh_table()
    ratio, r = modes_ratio(psi_of("nob.hdf5"), psi_eh)
    k = r * 2 * np.pi / (L / 1000)
    a = ratio ** 2 * loglog(ke, pe)(k) / (k ** 0.9667 * t0_zero_baryon(k) ** 2)
    spread = np.max(np.abs(a / np.median(a) - 1))
    print("omega-b 0: %d modes, the zero-baryon shape's constant spread %.1e" % (len(a), spread))
    check(spread < 1e-5, "--omega-b 0: not the zero-baryon form (spread %g)" % spread)
    with h5py.File("nob.hdf5", "r") as f:
        check(f["Header"].attrs["OmegaBaryon"] == 0 if "OmegaBaryon" in f["Header"].attrs
              else True, "OmegaBaryon")
    p = run(*args, "--out", "bad", "--gas", want=2)
    check("omega-b" in p.stderr and not os.path.exists("bad.hdf5"), "--omega-b 0 --gas")


def case_volumes():
    ng = 8
    gx = glass_points(ng, 1000.0, 5)
    write_glass("glass.hdf5", gx, box=1000.0)
    np.savetxt("glass.txt", gx)
    run(*BASE, "--out", "eq", "--gas", "--glass", "glass.hdf5", "--quiet")
    run(*BASE, "--out", "vor", "--gas", "--glass", "glass.hdf5", "--volumes", "voronoi",
        "--quiet")
    run("arepo", "gas", "--out", "vol", "--box", "1000", "--points", "glass.txt",
        "--temperature", "100", "--quiet")
    with h5py.File("vol.hdf5", "r") as f:
        vol = f["PartType0/Masses"][...]  # rho 1: the masses are the volumes
    with h5py.File("eq.hdf5", "r") as a, h5py.File("vor.hdf5", "r") as b:
        m0 = a["Header"].attrs["MassTable"][0]
        check(b["Header"].attrs["MassTable"][0] == 0 and "Masses" in b["PartType0"],
              "Masses dataset, MassTable[0] 0")
        m = b["PartType0/Masses"][...]
        check(abs(m.sum() / (G ** 3 * m0) - 1) < 1e-12, "sum of masses %r vs %r" %
              (m.sum(), G ** 3 * m0))
        dens = m / vol[np.arange(G ** 3) % ng ** 3]
        check(np.max(np.abs(dens / dens.mean() - 1)) < 1e-12 and np.std(m) > 0.01 * m.mean(),
              "mass / Voronoi volume not uniform: %g" % np.max(np.abs(dens / dens.mean() - 1)))
        check(np.array_equal(a["PartType0/Coordinates"][...], b["PartType0/Coordinates"][...]),
              "positions change with --volumes")
    print("volumes: masses scatter %.1f%%, mass/volume uniform" % (100 * np.std(m) / m.mean()))
    p = run(*BASE, "--out", "bad", "--gas", "--volumes", "voronoi", want=2)
    check("--glass" in p.stderr and not os.path.exists("bad.hdf5"), "--volumes on the lattice")


def case_bad():
    with open("short.txt", "w") as f:
        f.write("0.01 1000\n0.1 2000\n1 100\n")
    for extra, want, text in (
            (["--box", "-5"], 2, "--box"),
            (["--omega-m", "12"], 2, "omega-m"),
            (["--table", "short.txt"], 2, "covers"),
    ):
        args = list(BASE)
        for i in range(0, len(extra), 2):
            if extra[i] in args:
                args[args.index(extra[i]) + 1] = extra[i + 1]
            else:
                args += extra[i:i + 2]
        p = run(*args, "--out", "bad", want=want)
        check(text in p.stderr and p.stderr.count("\n") == 1, "%s: message %r" % (extra, p.stderr))
    p = run(*BASE, "--out", "bad", env={"TBRF_MEMORY_BUDGET": "1M"}, want=1)
    check("budget" in p.stderr, "budget message: %r" % p.stderr)
    check(sorted(os.listdir(".")) == ["short.txt"], "no file left: %s" % os.listdir("."))


def lpt_args(*extra):
    args = list(BASE)
    args[args.index("--lpt") + 1] = "2"
    return args + list(extra)


def read_set(name):
    with h5py.File(name + ".hdf5", "r") as f:
        return (f["PartType1/Coordinates"][...], f["PartType1/Velocities"][...],
                dict(f["tbrf"].attrs))


def delta_modes(x):
    """delta_k = -i k.Psi_k of the lattice displacements, and |m|^2."""
    d = displacements(x).reshape(G, G, G, 3)  # z, y, x
    m = np.fft.fftfreq(G, 1.0 / G)
    mz, my, mx = np.meshgrid(m, m, m, indexing="ij")
    f = [np.fft.fftn(d[..., c]) for c in range(3)]
    delta = -1j * (mx * f[0] + my * f[1] + mz * f[2])
    return delta, (mx ** 2 + my ** 2 + mz ** 2), (np.abs(mx) == G // 2) | (np.abs(my) == G // 2) | (np.abs(mz) == G // 2)


def case_lpt():
    run(*BASE, "--out", "za", "--quiet")
    run(*lpt_args(), "--out", "l2", "--quiet")
    run(*lpt_args("--paired"), "--out", "pr", "--quiet")
    run(*BASE, "--fixed-amplitude", "--out", "fx", "--quiet")
    x1, u1, t1 = read_set("za")
    x2, u2, t2 = read_set("l2")
    xp, up, tp = read_set("pr")
    psi1 = displacements(x1)
    psi2 = x2 - x1
    psi2 -= L * np.round(psi2 / L)
    s1, s2 = np.abs(psi1).max(), np.abs(psi2).max()
    check(0 < s2 < 0.1 * s1, "Psi2 small beside Psi1: %g vs %g" % (s2, s1))
    vf1, vf2 = t2["velocity_factor"], t2["velocity_factor2"]
    err = np.abs(u2 - u1 - vf2 * psi2).max() / np.abs(u2).max()
    check(err < 1e-9, "2LPT velocities: u2 - u1 = vf2 Psi2 (%g)" % err)
    check(abs(vf2 / vf1 / 2 - 1) < 1e-4, "f2 / f1 = %g ~ 2 at z = 127" % (vf2 / vf1))
    D = t2["growth_factor"]
    check(abs(t2["growth_factor2"] / (-3 / 7 * D * D) - 1) < 1e-4, "D2 ~ -(3/7) D^2")
    check(t2["lpt_order"] == 2 and t1["lpt_order"] == 1 and tp["paired"] == 1 and
          t2["paired"] == 0 and t2["fixed_amplitude"] == 0, "order, paired, fixed recorded")
    cmd = t2["command"]
    cmd = cmd.decode() if isinstance(cmd, bytes) else str(cmd)
    check(" --lpt 2" in cmd, "the command records --lpt 2: %r" % cmd)
    s = xp + x2 - 2 * (lattice() + psi2)
    s -= L * np.round(s / L)
    check(np.abs(s).max() < 1e-9 * L, "a pair sums to 2 (q + Psi2): %g" % np.abs(s).max())
    err = np.abs(up + u2 - 2 * vf2 * psi2).max() / np.abs(u2).max()
    check(err < 1e-9, "paired velocities sum to 2 vf2 Psi2: %g" % err)
    # fixed amplitudes: |delta_k| a function of |k|, phases the Gaussian run's
    xf, _, tf = read_set("fx")
    check(tf["fixed_amplitude"] == 1, "fixed recorded")
    df, m2, nyq = delta_modes(xf)
    dg, _, _ = delta_modes(x1)
    use = (~nyq) & (m2 > 0) & (np.abs(df) > 1e-6 * np.abs(df).max())
    worst = 0.0
    for v in np.unique(m2[use]):
        a = np.abs(df[use & (m2 == v)])
        worst = max(worst, (a.max() - a.min()) / a.max())
    check(worst < 1e-9, "fixed: |delta_k| equal within each |k| shell (%g)" % worst)
    ph = np.abs(df[use] / np.abs(df[use]) - dg[use] / np.abs(dg[use])).max()
    check(ph < 1e-9, "fixed: the Gaussian run's phases (%g)" % ph)
    # regenerate honours the order, fixed and paired; an old command is Zel'dovich
    run(*lpt_args("--paired", "--fixed-amplitude"), "--out", "fp", "--quiet")
    out = run("regenerate", "fp.hdf5", "--out", "fp2", "--check").stdout
    check("bitwise equal" in out, "regenerate --check of a fixed paired 2LPT file: %r" % out)
    with h5py.File("za.hdf5", "r+") as f:
        cmd = f["tbrf"].attrs["command"]
        cmd = cmd.decode() if isinstance(cmd, bytes) else str(cmd)
        check(" --lpt 1 " in cmd, "za command %r" % cmd)
        f["tbrf"].attrs["command"] = cmd.replace(" --lpt 1", "")
    out = run("regenerate", "za.hdf5", "--out", "za2", "--check").stdout
    check("bitwise equal" in out, "a command without --lpt is remade by Zel'dovich: %r" % out)
    # threads and files change no bit of a 2LPT set
    run(*lpt_args("--paired"), "--out", "t1", "--quiet",
        env={"OMP_NUM_THREADS": "1"})
    run(*lpt_args("--paired"), "--out", "t3", "--quiet", env={"OMP_NUM_THREADS": "3"})
    xa, ua, _ = read_set("t1")
    xb, ub, _ = read_set("t3")
    check(np.array_equal(xa, xb) and np.array_equal(ua, ub) and np.array_equal(xa, xp) and
          np.array_equal(ua, up), "1 and 3 threads: the same particles, bit for bit")
    run(*lpt_args("--paired"), "--out", "f3", "--files", "3", "--quiet")
    parts = [h5py.File("f3.%d.hdf5" % i, "r") for i in range(3)]
    xs = np.concatenate([q["PartType1/Coordinates"][...] for q in parts])
    us = np.concatenate([q["PartType1/Velocities"][...] for q in parts])
    check(np.array_equal(xs, xp) and np.array_equal(us, up), "3 files: the one file's bits")
    p = run(*BASE[:-1], "4", "--out", "bad", want=2)
    check("--lpt" in p.stderr and not os.path.exists("bad.hdf5"), "--lpt 4: %r" % p.stderr)


{"file": case_file, "lpt": case_lpt, "velocity": case_velocity, "pk": case_pk, "bad": case_bad,
 "files": case_files, "gas": case_gas, "units": case_units, "glass": case_glass,
 "transfer": case_transfer, "amplitude": case_amplitude, "volumes": case_volumes}[CASE]()
if FAILS:
    sys.exit(1)
print(CASE + ": ok")
