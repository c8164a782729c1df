/* particles_parts.h — what particles.c and hdf5_particles.c share: a
 * member's header, the walk's buffers, the positions' tidying, and the
 * HDF5 members' reading (the HDF5 calls stay in the hdf5_* files). Not
 * installed. */
#ifndef TBRF_IO_PARTICLES_PARTS_H
#define TBRF_IO_PARTICLES_PARTS_H

#include <stddef.h>
#include <stdint.h>

#include "io/particles.h"

/* NumFilesPerSnapshot beyond this is not a set anyone writes. */
#define PSNAP_MAX_FILES 65536

/* One member's header. */
typedef struct phdr {
    int64_t this_file[6], total[6];
    double mass[6], box, time, redshift, omega0, omega_lambda, hubble;
    int nfiles;
} phdr;

/* The chunk's buffers. */
typedef struct pbuf {
    double *xyz, *mass;
    unsigned char *raw;
    int64_t chunk;
} pbuf;

/* Positions of n type-t particles of member m wrapped into [0, box) and
 * checked finite, masses (NULL: none) finite and >= 0: 0, or -1 with err. */
int io_psnap_tidy(const io_psnap *s, const char *m, int t, double *xyz, double *mass, int64_t n,
                  char *err, size_t errlen);

/* An HDF5 member's /Header into *h: 0, 1 when path has no /Header group
 * (no AREPO file; nothing in err), -1 with err. */
int io_psnap_h5_header(const char *path, phdr *h, char *err, size_t errlen);

/* Whether HDF5 file path has attribute `name` in its /tbrf group. */
int io_psnap_h5_has_tbrf(const char *path, const char *name);

/* Every type's rows of HDF5 member m to fn in chunks of b->chunk: 0, fn's
 * status, or -1 with err. */
int io_psnap_h5_member(const io_psnap *s, const char *m, pbuf *b, io_psnap_fn fn, void *user,
                       char *err, size_t errlen);

#endif
