# AREPO build options for the turbulent gas box (copy to AREPO's folder as
# Config.sh): periodic 3D hydrodynamics without gravity, double precision
# input (tbrf writes float64 by default: Flag_DoublePrecision 1).
REGULARIZE_MESH_CM_DRIFT
REGULARIZE_MESH_CM_DRIFT_USE_SOUNDSPEED
REGULARIZE_MESH_FACE_ANGLE
DOUBLEPRECISION=1
INPUT_IN_DOUBLEPRECISION
HAVE_HDF5
