/* gadget.h — Gadget binary files (gadget.c): the members of a gadget1 /
 * gadget2 set (written through arepo.c's tbrf_arepo_set) and the glass
 * reader. Not installed. */
#ifndef TBRF_IO_GADGET_H
#define TBRF_IO_GADGET_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tbrf_arepo.h"

enum { IO_GADGET_FORMAT1 = TBRF_AREPO_FORMAT_GADGET1, IO_GADGET_FORMAT2 = TBRF_AREPO_FORMAT_GADGET2 };

/* The side file of a Gadget set BASE: BASE.tbrf.h5 holds what the binary
 * members cannot (the parameters, the command, the set's identity). */
#define IO_GADGET_SIDE_SUFFIX ".tbrf.h5"
/* Where a member's digest starts. */
#define IO_GADGET_DIGEST_SEED 0x243f6a8885a308d3ull

/* Member `index` of a set of num_files: BASE for one file, BASE.INDEX
 * for several (N-GenIC's and Gadget's naming). Malloc'ed, NULL if out
 * of memory. */
char *io_gadget_member_name(const char *base, int num_files, int index);
/* BASE.tbrf.h5 (malloc'ed, NULL if out of memory). */
char *io_gadget_side_name(const char *base);

/* Writes member f of the set (header: the set's; totals: every type's
 * count in the whole set; part: this file's rows) into the file tmp, in
 * format IO_GADGET_FORMAT1 or 2, synced; *digest and *bytes of what was
 * written (io_gadget_file_digest reads the same back). 0, or -1 with the
 * reason in err (a block too large for a record marker, a write
 * error). */
int io_gadget_write_member(const char *tmp, const tbrf_arepo_header *h,
                           const tbrf_arepo_particles totals[6],
                           const tbrf_arepo_particles part[6], int f, int format,
                           uint64_t *digest, uint64_t *bytes, char *err, size_t errlen);

/* The digest and size of file path as io_gadget_write_member computed
 * them: 0, or -1 when it cannot be read. */
int io_gadget_file_digest(const char *path, uint64_t *digest, uint64_t *bytes);

/* What the first bytes of path are: IO_GADGET_FORMAT1 (a record marker
 * 256), IO_GADGET_FORMAT2 (marker 8 and "HEAD"), -1 the same in the other
 * byte order, 0 anything else (or unreadable). */
int io_gadget_sniff(const char *path);

/* What the Gadget file path holds (`tbrf info`): the header's values,
 * each type's counts and masses, each record's label and length, into
 * out. 0, or -1 with the reason in err (not a Gadget file of this byte
 * order, a truncated header, a record its markers do not frame: the
 * listing up to it is written first). */
int io_gadget_info(const char *path, FILE *out, char *err, size_t errlen);

/* Reads the positions of a Gadget glass file (format 1 or 2, one file,
 * every type's particles, float32 or float64 told by the POS record's
 * length) into malloc'ed *xyz (3 *n) with the header's BoxSize in *box;
 * coordinates equal to BoxSize wrap to 0. Every size is checked against
 * the file and the memory budget before allocation. 0, or -1 with the
 * reason in err. */
int io_gadget_read_glass(const char *path, int64_t *n, double **xyz, double *box, char *err,
                         size_t errlen);

#endif
