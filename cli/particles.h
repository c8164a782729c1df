/* particles.h — `preview` and `spectrum` of a particle file (the ICs of
 * `tbrf arepo cosmo` and `arepo gas`, or another code's AREPO HDF5 and
 * Gadget 1/2 files): the particles' mass deposited by cloud-in-cell onto
 * a periodic grid over the box (particles.c). Not installed. */
#ifndef TBRF_CLI_PARTICLES_H
#define TBRF_CLI_PARTICLES_H

#include <stdint.h>

#include "io/particles.h"
#include "plot.h"

/* Opens file as a particle set (io_psnap_open) for command cmd: 1 with *s
 * open (release with io_psnap_free), 0 when file is no particle file
 * (nothing said: read it as a grid), -1 after one line naming the file
 * and what is wrong with it (truncated, inconsistent, missing members). */
int cli_particles_open(const char *cmd, const char *file, io_psnap *s);

/* The plane `*index` (< 0: the middle one) across `axis` of the mass
 * density over its mean, deposited by cloud-in-cell on grid^3 cells over
 * the box (grid 0: the particle lattice's side, the cube root of the most
 * numerous type's count), into malloc'ed *v (grid x grid, the first
 * in-plane axis fastest) with *in's geometry, title and label. Only the
 * particles whose cloud reaches the plane are deposited (memory: one
 * plane); stderr gets a line saying so unless quiet. 0, EXIT_USAGE (a plane or grid the box cannot have) or
 * EXIT_FAIL after one message. */
int particles_slice(const char *file, const io_psnap *s, int axis, int64_t *index, int64_t grid,
                    int quiet, plot_slice_in *in, double **v);

/* Shot noise of spectrum: by the file (none for a displaced lattice or
 * glass of tbrf's, Poisson otherwise), always Poisson, never. */
enum { PARTICLES_SHOT_AUTO = 0, PARTICLES_SHOT_POISSON, PARTICLES_SHOT_NONE };

/* `tbrf spectrum` of the set: the density contrast deposited by
 * cloud-in-cell on grid^3 cells (0: twice the lattice's side, at most
 * 512), the window divided out mode by mode, shot noise as `shot` says;
 * the table on stdout with the linear spectrum the file records at its
 * redshift beside it (none for a file that records none: said), and with
 * png the picture. 0 or EXIT_FAIL / EXIT_USAGE after one message. */
int particles_spectrum(const char *file, const io_psnap *s, int64_t grid, int shot,
                       const char *png, int quiet);

#endif
