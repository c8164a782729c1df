#!/usr/bin/env bash
# paraview_screenshot.sh TBRF PYTHON — scripts/paraview_slice.py under
# pvpython on a virtual X server, as doc/cli.md gives it: a 3D grid and the
# first frame of a drive series become PNGs whose middle shows the field
# (many colours, not the empty view's one), read back with matplotlib.
# The test starts its own Xvfb, which names the display it took once it
# is ready (-displayfd): xvfb-run -a can hand two runs close together the
# same display, and ParaView then aborts on "bad X server connection".
# -noreset: by default an X server resets when its last client leaves,
# and a pvpython connecting during the reset is refused the same way.
# Exit 77 (skipped) without pvpython, Xvfb or matplotlib.
set -euo pipefail
tbrf=$1 py=$2
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
shot=$here/../../scripts/paraview_slice.py
for c in pvpython Xvfb; do
    command -v "$c" >/dev/null 2>&1 || { echo "$c not found: skipped"; exit 77; }
done
"$py" -c 'import matplotlib.image' 2>/dev/null || { echo "matplotlib not found: skipped"; exit 77; }
tmp=$(mktemp -d)
xpid=
trap '[ -n "$xpid" ] && kill "$xpid" 2>/dev/null; rm -rf "$tmp"' EXIT
cd "$tmp"
Xvfb -displayfd 3 -screen 0 1024x768x24 -nolisten tcp -noreset 3>"$tmp/display" 2>"$tmp/xvfb.log" &
xpid=$!
for _ in $(seq 100); do [ -s "$tmp/display" ] && break; sleep 0.2; done
[ -s "$tmp/display" ] || { cat "$tmp/xvfb.log"; echo "Xvfb did not start"; exit 1; }
export DISPLAY=:$(head -n1 "$tmp/display")
"$tbrf" generate --model matern --length 4 --nu 1.5 --grid 48x40x32 --spacing 0.5 --out g.h5 --quiet
"$tbrf" drive --box 1 --model band --kmin 6.283 --kmax 18.85 --zeta 1 --tcorr 1 --rms 1 \
    --times 1:2:0.25 --grid 16x16x16 --out s.h5 --quiet
for f in g s; do
    pvpython "$shot" "./$f.xmf" "$f.png" >"$f.log" 2>&1 || { cat "$f.log"; exit 1; }
    "$py" - "$f.png" <<'PY'
import sys
import matplotlib.image as mpimg
import numpy as np
im = mpimg.imread(sys.argv[1])[..., :3]
h, w = im.shape[:2]
mid = im[h // 3:2 * h // 3, w // 3:2 * w // 3].reshape(-1, 3)
colours = len(np.unique(np.round(mid * 255).astype(int), axis=0))
print(f"{sys.argv[1]}: {w}x{h}, {colours} colours in the middle third")
if colours < 50:
    sys.exit(f"{sys.argv[1]}: the middle shows no field ({colours} colours)")
PY
done
echo "paraview_slice.py: the grid and the series' first frame drawn"
