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
