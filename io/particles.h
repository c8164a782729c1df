/* particles.h — reading the particles of an initial-condition or snapshot
 * set back (particles.c): AREPO / Gadget format-3 HDF5 (BASE.hdf5, or the
 * members BASE.I.hdf5), Gadget binary format 1 and 2 (BASE or BASE.I, and
 * tbrf's side file BASE.tbrf.h5), whoever wrote them: only the layout of
 * ../doc/arepo.md ("What AREPO reads", "Gadget binary files") is used.
 * The particles are streamed in bounded chunks, every size in a file
 * checked against the file and the memory budget before anything is
 * allocated. Not installed. */
#ifndef TBRF_IO_PARTICLES_H
#define TBRF_IO_PARTICLES_H

#include <stddef.h>
#include <stdint.h>

/* A set of particle files and what every member's header agrees on. */
typedef struct io_psnap {
    int format;    /* TBRF_AREPO_FORMAT_* of the members */
    int nfiles;    /* members (NumFilesPerSnapshot) */
    char **member; /* their names */
    char *record;  /* the HDF5 file whose /tbrf group records the run that wrote the set
                      (an HDF5 member, a Gadget set's side file), or NULL: none */
    double box, time, redshift, omega0, omega_lambda, hubble;
    double mass_table[6]; /* MassTable: 0 = per-particle masses */
    int64_t total[6];     /* every type's particles in the whole set */
    int64_t n;            /* their sum */
} io_psnap;

/* Opens the set that path belongs to: an HDF5 file with /Header and
 * /PartType<t> (any member of a set: the others are named from it and
 * NumFilesPerSnapshot), a Gadget member (little-endian; the others from
 * its header's NumFiles), or a Gadget set's side file. tbrf's own sets are
 * checked whole first (tbrf_arepo_check_set: a missing or foreign member
 * is named). Every member's header is read and checked (counts that sum to
 * the totals, the same BoxSize and NumFiles, a positive BoxSize).
 * Returns 0 (release with io_psnap_free), 1 when path is no particle file
 * of these layouts (no Gadget marker, no HDF5 /Header group; nothing in
 * err), -1 with one line in err (a particle
 * file that cannot be read as one: truncated, inconsistent, missing
 * members, the other byte order). */
int io_psnap_open(const char *path, io_psnap *s, char *err, size_t errlen);
void io_psnap_free(io_psnap *s);

/* Called with n particles of type `type`: positions xyz (3n, wrapped into
 * [0, box)) and masses (n; NULL when the type's MassTable entry holds
 * them all). Returns 0 to go on, else stops the walk (that status is
 * io_psnap_each's). */
typedef int (*io_psnap_fn)(void *user, int type, const double *xyz, const double *mass,
                           int64_t n);

/* Walks every particle of the set, member by member and type by type, in
 * chunks of at most `chunk` rows (the buffers checked against the memory
 * budget). Positions and masses must be finite (masses >= 0). Returns 0,
 * fn's nonzero status, or -1 with one line in err. */
int io_psnap_each(const io_psnap *s, int64_t chunk, io_psnap_fn fn, void *user, char *err,
                  size_t errlen);

/* A number or a string attribute of the set's /tbrf record: 0, or -1 when
 * there is no record or it has no such attribute of that kind (*text:
 * malloc'ed). */
int io_psnap_number(const io_psnap *s, const char *name, double *v);
int io_psnap_text(const io_psnap *s, const char *name, char **text);

#endif
