# AREPO build options for the 32^3 dark-matter box (copy to AREPO's folder
# as Config.sh): self-gravity with a particle-mesh grid, double precision
# input (tbrf writes float64 by default: Flag_DoublePrecision 1).
SELFGRAVITY
PMGRID=64
TREE_BASED_TIMESTEPS
DOUBLEPRECISION=1
DOUBLEPRECISION_FFTW
INPUT_IN_DOUBLEPRECISION
HAVE_HDF5
