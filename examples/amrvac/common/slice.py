"""slice.py FILE.vtu VARIABLE OUT.png — a slice through the middle of an
MPI-AMRVAC .vtu (its `convert`, convert_type 'vtuBCCmpi': cell data),
normal to z in 3D (a 2D file is its own slice), coloured by VARIABLE
(e.g. rho), with ParaView's own Python; headless under Xvfb:

    xvfb-run -a -s "-screen 0 1024x768x24" pvpython slice.py ./box0004.vtu rho box.png
"""
import sys

from paraview.simple import (ColorBy, GetActiveViewOrCreate, OpenDataFile, ResetCamera,
                             SaveScreenshot, Show, Slice, UpdatePipeline)

if len(sys.argv) != 4:
    sys.exit(__doc__)
src = OpenDataFile(sys.argv[1])
if src is None:
    sys.exit(f"slice.py: ParaView cannot open {sys.argv[1]}")
UpdatePipeline(proxy=src)
b = src.GetDataInformation().GetBounds()
mid = [(b[0] + b[1]) / 2, (b[2] + b[3]) / 2, (b[4] + b[5]) / 2]
view = GetActiveViewOrCreate("RenderView")
shown = src
if b[5] > b[4]:
    shown = Slice(Input=src)
    shown.SliceType.Origin = mid
    shown.SliceType.Normal = [0, 0, 1]
d = Show(shown, view)
ColorBy(d, ("CELLS", sys.argv[2]))
d.RescaleTransferFunctionToDataRange(True)
d.SetScalarBarVisibility(view, True)
view.CameraPosition = [mid[0], mid[1], mid[2] + 3 * max(b[1] - b[0], b[3] - b[2])]
view.CameraFocalPoint = mid
view.CameraViewUp = [0, 1, 0]
ResetCamera(view)
SaveScreenshot(sys.argv[3], view, ImageResolution=[640, 480])
