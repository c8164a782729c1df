/* hdf5_format.h — what the files of the HDF5 format share (hdf5_*.c):
 * the writer's state behind w->state and HDF5 helpers. Only these files
 * include HDF5 (test io_formats_confined); every other file of io/ reaches
 * HDF5 through the format table (io_internal.h) or the reader table
 * (io_reader.h). Not installed. */
#ifndef TBRF_IO_HDF5_FORMAT_H
#define TBRF_IO_HDF5_FORMAT_H

#include <hdf5.h>
#include <stdio.h>

#include "io/io_internal.h"

/* The HDF5 writer's own state (w->state, made by its create slot): the
 * file and the datasets being written, -1 when none. */
typedef struct io_h5_state {
    hid_t file;      /* -1 when closed */
    hid_t field;     /* /field, -1 if none */
    hid_t pts, val;  /* streamed /points and /value, -1 if none */
    double unsynced; /* bytes of /field written since writeback was last started */
} io_h5_state;

static inline io_h5_state *io_h5(const tbrf_io_writer *w)
{
    return (io_h5_state *)w->state;
}

/* The innermost description on HDF5's current error stack (often the
 * reason, e.g. "No space left on device"), shortened to fit; "" if none. */
void io_h5_reason(char *buf, size_t n);

/* Transfer properties for a data write: collective on an MPI writer
 * (every rank takes part in every write, an empty selection where it has
 * nothing; filtered datasets require it in parallel HDF5), -1 when they
 * cannot be made (the write then fails on that rank and the writer's
 * agreement fails every rank, rather than one rank writing
 * independently), H5P_DEFAULT otherwise. Closed by io_h5_xfer_close. */
hid_t io_h5_xfer_open(const tbrf_io_writer *w);
void io_h5_xfer_close(hid_t x);

/* A string attribute already open as a malloc'ed string in *out (see
 * tbrf_io_attr_str for what is accepted): 1, or -1 (*out NULL). */
int io_attr_string(hid_t a, char **out);

/* 0 when dataset d stores at least 1/IO_MAX_RATIO of the `declared` bytes
 * of its shape (io_declared_bytes), else -1 with err naming path and
 * dataset: a never-written dataset is refused before it is read. */
int io_check_storage(hid_t d, const char *path, const char *name, double declared, char *err,
                     size_t errlen);
double io_declared_bytes(hid_t d, hid_t space);

/* Writes yt's Grid Data Format layout of the grid *m describes into
 * w's HDF5 file (hdf5_gdf.c), pointing at /field: 0, or -1 (HDF5's reason
 * on its error stack). Points and 2D/3D checks: nothing for a non-grid. */
int io_gdf_write(tbrf_io_writer *w, const tbrf_io_meta *m);

/* The HDF5 format's slots that live in its other files (io_format_ops
 * says what each does): series (hdf5_series.c), AREPO members
 * (hdf5_arepo.c). */
int io_h5_series_begin(tbrf_io_writer *w, int dim, int nc, int64_t nt, const int64_t n[3],
                       int64_t npts, const double *xyz);
int io_h5_series_step(tbrf_io_writer *w, int64_t it, double t, int64_t first, int64_t count,
                      const double *values);
int io_h5_series_attr(tbrf_io_writer *w, const char *name, int kind, int count, const void *v);
int io_h5_arepo_write(tbrf_io_writer *w, const struct tbrf_arepo_header *h,
                      const struct tbrf_arepo_particles *totals,
                      const struct tbrf_arepo_particles *types, int f,
                      const struct tbrf_arepo_param *params, size_t nparams, uint64_t *digest,
                      char *err, size_t errlen);
int io_h5_arepo_record(tbrf_io_writer *w, int f, int nf, const char *digest, const char *format,
                       const uint64_t *rows);

/* tbrf info of an HDF5 file (hdf5_info.c; the HDF5 reader's info slot). */
int io_h5_info(const char *path, FILE *out, char *err, size_t errlen);

#endif
