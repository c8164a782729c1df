"""paraview_slice.py FILE.xmf OUT.png [TIME] — a z slice through the middle
of a tbrf grid (or one frame of a `tbrf drive` series: TIME, default its
first), coloured by the field (a vector's magnitude), as a PNG, with
ParaView's own Python. Debian's ParaView 5.11 renders only with an X
server, so headless it runs under Xvfb (scripts/install-deps.sh installs
xvfb):

    xvfb-run -a -s "-screen 0 1024x768x24" pvpython scripts/paraview_slice.py ./f.xmf slice.png

Give the .xmf with a slash (./f.xmf): doc/cli.md, "Looking at the files",
says why."""
import sys

from paraview.simple import (ColorBy, GetActiveViewOrCreate, OpenDataFile, ResetCamera,
                             SaveScreenshot, Show, Slice, UpdatePipeline)

if len(sys.argv) not in (3, 4):
    sys.exit(__doc__)
src = OpenDataFile(sys.argv[1])
if src is None:
    sys.exit(f"paraview_slice.py: ParaView cannot open {sys.argv[1]}")
times = list(getattr(src, "TimestepValues", []) or [])
# a series has no data until a time is asked for: its first by default
t = float(sys.argv[3]) if len(sys.argv) == 4 else (times[0] if times else None)
view = GetActiveViewOrCreate("RenderView")
if t is not None:
    view.ViewTime = t
UpdatePipeline(time=t, proxy=src) if t is not None else UpdatePipeline(proxy=src)
b = src.GetDataInformation().GetBounds()  # known once the reader has run
mid = [(b[0] + b[1]) / 2, (b[2] + b[3]) / 2, (b[4] + b[5]) / 2]
s = Slice(Input=src)
s.SliceType.Origin = mid
s.SliceType.Normal = [0, 0, 1]
d = Show(s, view)
ColorBy(d, ("POINTS", "field" if "field" in src.PointData.keys() else src.PointData.keys()[0]))
d.RescaleTransferFunctionToDataRange(True)
view.CameraPosition = [mid[0], mid[1], mid[2] + 3 * max(b[1] - b[0], b[3] - b[2], 1e-30)]
view.CameraFocalPoint = mid
view.CameraViewUp = [0, 1, 0]
ResetCamera(view)
SaveScreenshot(sys.argv[2], view, ImageResolution=[480, 480])
