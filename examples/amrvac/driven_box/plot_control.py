"""plot_control.py WORKDIR TARGET OUT.png — the amplitude control run of
run.sh (TARGET_MACH=TARGET): the rms Mach number against time from
WORKDIR/mach_control.dat, and the three gains from gains_control.dat,
with matplotlib (headless: the Agg backend)."""
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

if len(sys.argv) != 4:
    sys.exit(__doc__)
work, target, out = sys.argv[1], float(sys.argv[2]), sys.argv[3]


def columns(path, *cols):
    rows = [line.split() for line in open(path) if line.strip()]
    return [[float(r[c]) for r in rows] for c in cols]


t, mach = columns(f"{work}/mach_control.dat", 1, 2)
tg, g1, g2, g3 = columns(f"{work}/gains_control.dat", 1, 2, 3, 4)
fig, (a, b) = plt.subplots(2, 1, sharex=True, figsize=(6.4, 5.2))
a.plot(t, mach, label="rms Mach")
a.axhline(target, color="k", ls="--", lw=0.8, label=f"target {target:g}")
a.set_ylabel("rms Mach number")
a.legend(loc="lower right")
for g, name in ((g1, "x"), (g2, "y"), (g3, "z")):
    b.plot(tg, g, label=f"gain {name}")
b.set_xlabel("t")
b.set_ylabel("gain")
b.legend(loc="upper right")
fig.tight_layout()
fig.savefig(out, dpi=100)
