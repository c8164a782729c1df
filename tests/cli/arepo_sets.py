#!/usr/bin/env python3
"""arepo_sets.py TBRF WORKDIR CASE — AREPO file sets all or nothing, inputs
never overwritten, values the file can hold, coincident points refused,
recorded commands escaped
(doc/guarantees-outputs.md, "AREPO sets").

Cases:
  commit   a 4-file `arepo cosmo` set (16^3) replaced by another seed's,
           with the test-only fault hook TBRF_TEST_AREPO_SET_FAULT
           (io/arepo.c): SIGTERM once 2 members are closed and synced
           ("term:2"), a rename failing after 2 renames ("fail:2"): the old
           set bit for bit and no temporary; SIGTERM after 2 renames
           ("hold:2", held back): the whole new set, equal to the same
           command run without fault, and no temporary; SIGKILL after 2
           renames ("kill:2"): the set on disk is mixed, and regenerate of
           member 0 (and --check), `info` (after the listing), `arepo gas
           --points` and `arepo cosmo --glass` of a member refuse it naming
           the member of the other run; the next
           run removes the dead run's temporaries and backups. A real
           SIGTERM while a 64^3 `arepo cosmo --gas --files 4` set is being
           written (sent once its temporaries exist) leaves no temporary
           and the old set
  inputs   an output that is an input is refused (exit 2, one line naming
           the input, the input unchanged, no new file): `arepo cosmo
           --glass ic.hdf5 --out ic`, through a symbolic link, a member of
           the output set as --glass; `arepo gas --points` (HDF5 and a
           set member) and --table; `drive --points p.txt --out p.txt`;
           `regenerate` of a gas file whose recorded --points file is the
           new output
  values   float32 coordinates strictly inside [0, BoxSize): points
           0.99999999 and 0.99999997 of a unit box (which round to 1.0f)
           are stored below 1; --unit-velocity 1e-300 --precision float
           (cosmo and gas), --vrms 1e39 and --rho 1e38 (in a box of 10,
           8 cells) --precision float refused naming the option, no file;
           cgs units (--box 3e24 --rho 1e-24 --mass-as-density, float)
           accepted
  dups     duplicate points refused naming the first pair (rows 3 and 10):
           a glass for `arepo cosmo --gas`, text --points for `arepo gas`;
           points distinct as doubles but equal as float32 refused with
           --precision float, accepted with double
  escape   a file whose /tbrf/command holds ESC: regenerate refuses it and
           prints the command with "\\x1b", `tbrf info` shows it escaped;
           a generate file whose model_kind holds ESC: regenerate's error
           line shows "\\x1b" (cli_errline escapes every control byte); no
           raw control byte on any stream
Exit 77 (skipped) without h5py/numpy.
"""
import glob
import hashlib
import os
import signal
import subprocess
import sys
import time

try:
    import h5py
    import numpy as np
except ImportError:
    print("h5py or numpy missing: skipped")
    sys.exit(77)

sys.dont_write_bytecode = True  # no __pycache__ beside the tests
import clitest  # noqa: E402 (beside this script)
from clitest import FAILS, check  # noqa: E402

TBRF, WORK, CASE = clitest.start(sys.argv, empty="all")
COSMO = ["arepo", "cosmo", "--box", "50000", "--particles", "16", "--redshift", "127",
         "--omega-m", "0.3089", "--omega-b", "0.0486", "--hubble", "0.6774", "--sigma8", "0.831",
         "--quiet"]


def run(*args, **kw):
    """clitest.run with the streams decoded byte for byte (the escape case
    reads control bytes)."""
    return clitest.run(*args, latin1=True, **kw)


def digests(names):
    out = {}
    for n in names:
        with open(n, "rb") as f:
            out[n] = hashlib.sha256(f.read()).hexdigest()
    return out


def temporaries():
    return sorted(f for f in os.listdir(".") if f.startswith("."))


def members(base, n=4):
    return ["%s.%d.hdf5" % (base, i) for i in range(n)]


def glass(name, x, box=1.0):
    with h5py.File(name, "w") as f:
        f.create_group("Header").attrs["BoxSize"] = box
        f["PartType1/Coordinates"] = x


def glass_points(g=8, seed=1):
    rng = np.random.default_rng(seed)
    i = np.arange(g ** 3)
    u = np.stack([i % g, i // g % g, i // (g * g)], axis=1) + 0.5 + 0.2 * rng.uniform(-1, 1, (g ** 3, 3))
    return u / g


def case_commit():
    ic = COSMO + ["--files", "4", "--out", "ic"]
    os.mkdir("new")  # what the faulty runs write, written whole (the same command)
    run(*ic, "--seed", "5", cwd="new")
    run(*ic, "--seed", "3")
    old = digests(members("ic"))
    for fault, sig in (("term:2", -signal.SIGTERM), ("fail:2", 1)):
        p = run(*ic, "--seed", "5", env={"TBRF_TEST_AREPO_SET_FAULT": fault}, want=sig)
        check(digests(members("ic")) == old, "%s: the old set changed" % fault)
        check(temporaries() == [], "%s: temporaries left: %s" % (fault, temporaries()))
        if fault.startswith("fail"):
            check("ic.1.hdf5" in p.stderr and "left as it was" in p.stderr,
                  "fail: message %r" % p.stderr)
    # held back: the whole new set is published, then the signal ends the run
    run(*ic, "--seed", "5", env={"TBRF_TEST_AREPO_SET_FAULT": "hold:2"}, want=-signal.SIGTERM)
    for i in range(4):
        a, b = "ic.%d.hdf5" % i, "new/ic.%d.hdf5" % i
        with h5py.File(a, "r") as fa, h5py.File(b, "r") as fb:
            same = all(np.array_equal(fa["PartType1/" + k][...], fb["PartType1/" + k][...])
                       for k in ("Coordinates", "Velocities", "ParticleIDs"))
            check(same and fa["tbrf"].attrs["set_digest"] == fb["tbrf"].attrs["set_digest"],
                  "hold: %s is not the new set's member" % a)
        check(digests([a])[a] == digests([b])[b], "hold: %s differs from the same run's" % a)
    check(temporaries() == [], "hold: temporaries left: %s" % temporaries())
    run(*ic, "--seed", "3")
    # SIGKILL after two renames (members 3 and 2 new, 1 and 0 old): a mixture on disk,
    # which every reader of tbrf refuses, naming a member of the other run
    run(*ic, "--seed", "5", env={"TBRF_TEST_AREPO_SET_FAULT": "kill:2"}, want=-signal.SIGKILL)
    d = digests(members("ic"))
    check(d["ic.0.hdf5"] == old["ic.0.hdf5"] and d["ic.3.hdf5"] != old["ic.3.hdf5"],
          "kill:2 did not leave the expected mixture")
    p = run("regenerate", "ic.0.hdf5", "--out", "re", want=1)
    check("ic.2.hdf5 does not belong to the set of ic.0.hdf5" in p.stderr and
          p.stderr.count("\n") == 1, "regenerate of a mixed set: %r" % p.stderr)
    p = run("regenerate", "ic.3.hdf5", "--out", "re", "--check", want=1)
    check("ic.0.hdf5 does not belong" in p.stderr, "regenerate --check: %r" % p.stderr)
    p = run("info", "ic.0.hdf5", want=1)
    check("ic.2.hdf5 does not belong" in p.stderr and "set_digest" in p.stdout,
          "info of a mixed set: %r" % p.stderr)
    p = run("arepo", "gas", "--box", "50000", "--points", "ic.1.hdf5", "--out", "g",
            "--temperature", "100", "--volumes", "mean", want=1)
    check("does not belong" in p.stderr, "--points of a mixed set: %r" % p.stderr)
    small = list(COSMO)
    small[small.index("--particles") + 1] = "32"
    p = run(*small, "--glass", "ic.3.hdf5", "--out", "g", want=2)
    check("does not belong" in p.stderr, "--glass of a mixed set: %r" % p.stderr)
    check(not glob.glob("re*") and not glob.glob("g.*"), "refused: files written")
    check(temporaries() != [], "kill:2 should leave the dead run's temporaries")
    run(*ic, "--seed", "3")
    check(digests(members("ic")) == old and temporaries() == [],
          "the next run: set %s, temporaries %s" % (digests(members("ic")) == old, temporaries()))
    # a real SIGTERM while the members are written (the set's temporaries
    # exist from before the first particle is made to the last rename)
    big = list(COSMO)
    big[big.index("--particles") + 1] = "64"
    big += ["--files", "4", "--out", "big"]
    run(*big, "--seed", "3")
    old = digests(members("big"))
    p = subprocess.Popen([TBRF] + big + ["--seed", "4", "--gas"], stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE)
    t0 = time.time()
    while not temporaries() and p.poll() is None and time.time() - t0 < 60:
        time.sleep(0.002)
    seen = temporaries()
    p.send_signal(signal.SIGTERM)
    p.wait()
    check(len(seen) > 0 and p.returncode == -signal.SIGTERM,
          "SIGTERM while writing: temporaries seen %s, exit %s" % (seen, p.returncode))
    check(temporaries() == [] and digests(members("big")) == old,
          "SIGTERM while writing: temporaries %s, old set kept %s" %
          (temporaries(), digests(members("big")) == old))
    print("commit: term, fail, hold, kill and a real SIGTERM: ok")


def case_inputs():
    x = glass_points()
    glass("ic.hdf5", x)
    os.symlink("ic.hdf5", "lnk.hdf5")
    np.savetxt("p.txt", x)
    with h5py.File("ph.hdf5", "w") as f:
        f["points"] = x
    with open("pk.txt", "w") as f:
        f.write("0.01 1000\n0.1 2000\n1 100\n10 1\n100 0.001\n")
    small = list(COSMO)
    small[small.index("--particles") + 1] = "16"
    run(*small, "--glass", "ic.hdf5", "--out", "set", "--files", "2")
    gas = ["arepo", "gas", "--box", "1", "--temperature", "100", "--volumes", "mean", "--quiet"]
    drive = ["drive", "--box", "1", "--model", "band", "--kmin", "1", "--kmax", "4", "--zeta",
             "0.5", "--tcorr", "1", "--rms", "1", "--times", "0:1:0.5"]
    run(*gas, "--points", "ph.hdf5", "--out", "pg")
    before = digests(sorted(f for f in os.listdir(".") if not os.path.islink(f)))
    for args, text in (
            (small + ["--glass", "ic.hdf5", "--out", "ic"], "ic.hdf5 is the --glass input"),
            (small + ["--glass", "ic.hdf5", "--out", "lnk"], "lnk.hdf5 is the --glass input"),
            (small + ["--glass", "set.1.hdf5", "--out", "set", "--files", "2"],
             "set.1.hdf5 is the --glass input"),
            (gas + ["--points", "ph.hdf5", "--out", "ph"], "ph.hdf5 is the --points input"),
            (gas + ["--points", "set.0.hdf5", "--out", "set", "--files", "2"],
             "set.0.hdf5 is the --points input"),
            (gas + ["--lattice", "4", "--density", "linear", "--sigma", "0.1", "--model",
                    "table", "--table", "pk.hdf5", "--out", "pk"], "is the --table input"),
            (drive + ["--points", "p.txt", "--out", "p.txt"], "p.txt is the --points input"),
            (["regenerate", "pg.hdf5", "--out", "ph"], "ph.hdf5 is the --points input"),
    ):
        if "--table" in args and "pk.hdf5" in args:
            os.rename("pk.txt", "pk.hdf5")
        p = run(*args, want=2)
        check(text in p.stderr and p.stderr.count("\n") == 1, "%s: %r" % (args[-2:], p.stderr))
        if os.path.exists("pk.hdf5"):
            os.rename("pk.hdf5", "pk.txt")
        now = digests(sorted(f for f in os.listdir(".") if not os.path.islink(f)))
        check(now == before, "%s: files changed: %s" % (args[-2:], set(now) ^ set(before)))
    print("inputs: ok")


def case_values():
    with open("edge.txt", "w") as f:
        f.write("0.5 0.5 0.5\n0.99999999 0.2 0.3\n0.1 0.99999997 0.2\n0.25 0.25 0.75\n")
    run("arepo", "gas", "--box", "1", "--points", "edge.txt", "--out", "edge", "--temperature",
        "100", "--precision", "float", "--volumes", "mean", "--quiet")
    with h5py.File("edge.hdf5", "r") as f:
        x = f["PartType0/Coordinates"][...]
        check(x.dtype == np.float32 and np.all(x >= 0) and np.all(x < f["Header"].attrs["BoxSize"]),
              "float32 coordinates outside [0, 1): %s" % x.max())
    for args, opt in (
            (COSMO + ["--unit-velocity", "1e-300", "--precision", "float"], "--unit-velocity"),
            (COSMO + ["--unit-velocity", "1e-300", "--precision", "float", "--gas"],
             "--unit-velocity"),
            (["arepo", "gas", "--box", "1", "--lattice", "4", "--temperature", "100",
              "--unit-velocity", "1e-300", "--precision", "float"], "--unit-velocity"),
            (["arepo", "gas", "--box", "1", "--lattice", "4", "--temperature", "100",
              "--velocity", "solenoidal", "--model", "gaussian", "--length", "0.2", "--vrms",
              "1e39", "--precision", "float"], "--vrms"),
            (["arepo", "gas", "--box", "10", "--lattice", "2", "--temperature", "100",
              "--rho", "1e38", "--precision", "float", "--volumes", "mean"], "--rho"),
    ):
        p = run(*args, "--out", "bad", want=2)
        check(opt in p.stderr and p.stderr.count("\n") == 1, "%s: %r" % (opt, p.stderr))
        check(not glob.glob("bad*") and temporaries() == [], "refused: a file was left")
    # cgs units: rho L^3 is beyond float32, the cells' densities are not
    run("arepo", "gas", "--box", "3e24", "--lattice", "4", "--temperature", "100", "--rho",
        "1e-24", "--precision", "float", "--mass-as-density", "--volumes", "mean", "--quiet",
        "--out", "cgs")
    print("values: ok")


def case_dups():
    x = glass_points()
    x[10] = x[3]
    glass("dup.hdf5", x)
    np.savetxt("dup.txt", x, fmt="%.17g")
    small = list(COSMO)
    for args, opt in ((small + ["--gas", "--glass", "dup.hdf5"], "--glass dup.hdf5"),
                      (["arepo", "gas", "--box", "1", "--points", "dup.txt", "--temperature",
                        "100"], "--points dup.txt")):
        p = run(*args, "--out", "bad", want=2)
        check(opt in p.stderr and "points 3 and 10" in p.stderr and p.stderr.count("\n") == 1,
              "%s: %r" % (opt, p.stderr))
    x = glass_points()
    x[10] = x[3] + np.array([1e-12, 0, 0])  # one point as float32
    np.savetxt("near.txt", x, fmt="%.17g")
    gas = ["arepo", "gas", "--box", "1", "--points", "near.txt", "--temperature", "100",
           "--volumes", "mean", "--quiet"]
    p = run(*gas, "--precision", "float", "--out", "bad", want=2)
    check("points 3 and 10" in p.stderr and "float32" in p.stderr, "float32: %r" % p.stderr)
    check(not glob.glob("bad*"), "refused: a file was left")
    run(*gas, "--out", "ok")
    print("dups: ok")


def case_escape():
    run("arepo", "gas", "--box", "1", "--lattice", "4", "--temperature", "100", "--volumes",
        "mean", "--quiet", "--out", "g")
    with h5py.File("g.hdf5", "r+") as f:
        f["tbrf"].attrs["command"] = "tbrf arepo gas --box 1 --lattice \x1b[31m4 --out x"
    p = run("regenerate", "g.hdf5", "--out", "r", want=1)
    check("\x1b" not in p.stderr and "\\x1b[31m4" in p.stderr, "regenerate: %r" % p.stderr)
    check(not glob.glob("r*") and not glob.glob("x*"), "regenerate ran the crafted command")
    p = run("info", "g.hdf5")
    check("\x1b" not in p.stdout + p.stderr and "\\x1b[31m4" in p.stdout, "info: %r" % p.stdout)
    # any value quoted from a crafted file in an error line: a generate file's model name
    with open("p.txt", "w") as f:
        f.write("0.1 0.2 0.3\n0.5 0.5 0.5\n")
    run("generate", "--model", "gaussian", "--length", "4", "--lines", "32", "--quiet",
        "--points", "p.txt", "--out", "v.h5")
    with h5py.File("v.h5", "r+") as f:
        del f.attrs["model_kind"]
        f.attrs["model_kind"] = "gau\x1b[31mssian"
    p = run("regenerate", "v.h5", "--out", "w.h5", want=1)
    check("\x1b" not in p.stderr and "\\x1b[31m" in p.stderr, "regenerate: %r" % p.stderr)
    print("escape: ok")


{"commit": case_commit, "inputs": case_inputs, "values": case_values, "dups": case_dups,
 "escape": case_escape}[CASE]()
if FAILS:
    sys.exit(1)
print(CASE + ": ok")
