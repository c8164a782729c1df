/* particles.h — what `preview` and `spectrum` say of a particle file
 * (not installed). */
#ifndef TBRF_CLI_PARTICLES_H
#define TBRF_CLI_PARTICLES_H

/* When file is a snapshot of particles (a member of a Gadget format 1 or
 * 2 set, its side file BASE.tbrf.h5, or an AREPO HDF5 file that tbrf
 * arepo wrote), prints one line that names the format and the command
 * that wrote it, and says what reads it (yt), and returns 1; 0 for any
 * other file (nothing printed). cmd names the refusing command. */
int cli_particles_refuse(const char *cmd, const char *file);

#endif
