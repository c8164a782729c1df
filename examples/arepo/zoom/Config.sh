# AREPO build options for the zoom runs of examples/arepo/zoom (README.md
# there, "Zoom"): ../cosmo/Config.sh's TreePM box plus AREPO's zoom options
# as its own examples/cosmo_zoom_gravity_only_3d uses them. Copy to AREPO's
# folder as Config.sh (or give CONFIG=... to make).
SELFGRAVITY
# the periodic PM grid over the whole 50 Mpc/h box: twice the parent's 32
PMGRID=64
# a second, non-periodic PM grid on the box around the high-resolution
# particles, PartType1 (bit mask 2^1); it must not touch the box's faces
PLACEHIGHRESREGION=2
# that grid's box: the high-resolution particles' extent times 1.1, so that
# it is recomputed only rarely as the region moves and contracts
ENLARGEREGION=1.1
# the high-resolution grid has GRIDBOOST*PMGRID cells a side (zero padded)
GRIDBOOST=2
# the PM communication that copes with particles clustered in a small part
# of the box (AREPO's docs: for zoom simulations)
PM_ZOOM_OPTIMIZED
# tree nodes holding several particle types are softened per type
MULTIPLE_NODE_SOFTENING
# PartType2's softening type from each particle's mass (MUSIC writes its
# intermediate levels into PartType2 with their own masses): the softening
# type whose length is nearest (m / m1)^(1/3) times PartType1's
INDIVIDUAL_GRAVITY_SOFTENING=4
TREE_BASED_TIMESTEPS
DOUBLEPRECISION=1
DOUBLEPRECISION_FFTW
# tbrf writes float64 (Flag_DoublePrecision 1); so does MUSIC with
# arepo_doubleprec = yes
INPUT_IN_DOUBLEPRECISION
HAVE_HDF5
