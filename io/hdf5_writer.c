/* hdf5_writer.c — the HDF5 format of the writer (io_hdf5_ops): /field,
 * /points and /value, the root attributes and /model_table, /connectivity
 * and yt's layout beside an XDMF side file. writer.c makes the checks
 * every format shares and calls these through the table; the HDF5 ids
 * live in the writer's state (io_h5_state, hdf5_format.h). */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "io/hdf5_format.h"
#include "io/tbrf_io.h"

/* Chunk cache for /field: the writer touches at most a couple of chunks
 * at a time (chunks are slabs of whole rows), but a partially written
 * chunk evicted from the cache costs a read-modify-write (and a second
 * compression), so keep enough room. */
#define CACHE_BYTES ((size_t)16 << 20)
#define CACHE_SLOTS 1021 /* prime, as HDF5 recommends */
#define DEFLATE_LEVEL 4
#define FAIL IO_FAIL

static int h5w_create(tbrf_io_writer *w)
{
    io_h5_state *st = malloc(sizeof *st);
    if (!st) {
        FAIL(w, "cannot write %s: out of memory", w->path);
        return -1;
    }
    st->file = st->field = st->pts = st->val = -1;
    st->unsynced = 0.0;
    w->state = st;
    /* Strong close: H5Fclose really closes even if an object leaked, so
     * the file is complete on disk before the rename. */
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
#ifdef TBRF_IO_MPI
    /* every rank opens the file through MPI-IO; parallel HDF5 closes it
     * with its own (semi) degree */
    if (fapl >= 0 && w->comm != MPI_COMM_NULL)
        H5Pset_fapl_mpio(fapl, w->comm, MPI_INFO_NULL);
    else
#endif
    if (fapl >= 0)
        H5Pset_fclose_degree(fapl, H5F_CLOSE_STRONG);
    /* Track attribute creation order so `tbrf info` lists them in the
     * order written (model, options, geometry, plan) rather than by name. */
    hid_t fcpl = H5Pcreate(H5P_FILE_CREATE);
    if (fcpl >= 0) {
        H5Pset_attr_creation_order(fcpl, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED);
        /* no time in the root group: the same content is the same file */
        H5Pset_obj_track_times(fcpl, 0);
    }
    io_h5(w)->file = H5Fcreate(w->tmp, H5F_ACC_TRUNC, fcpl >= 0 ? fcpl : H5P_DEFAULT,
                        fapl >= 0 ? fapl : H5P_DEFAULT);
    if (fapl >= 0)
        H5Pclose(fapl);
    if (fcpl >= 0)
        H5Pclose(fcpl);
    if (io_h5(w)->file < 0) {
        char why[256];
        io_h5_reason(why, sizeof why);
        FAIL(w, "cannot create HDF5 file %s%s%s", w->path, why[0] ? ": " : "", why);
        return -1;
    }
    return 0;
}

/* Dataset creation properties: chunk dims (NULL = contiguous), optional
 * shuffle+deflate, and no object timestamps so that the same run gives
 * the same bytes. */
static hid_t make_dcpl(const tbrf_io_writer *w, int rank, const hsize_t *chunk)
{
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    if (dcpl < 0)
        return -1;
    H5Pset_obj_track_times(dcpl, 0);
    if (chunk) {
        if (H5Pset_chunk(dcpl, rank, chunk) < 0)
            goto fail;
        /* Every cell is written, so filling chunks first is wasted work. */
        H5Pset_fill_time(dcpl, H5D_FILL_TIME_NEVER);
        if (w->flags & TBRF_IO_COMPRESS) {
            if (H5Zfilter_avail(H5Z_FILTER_DEFLATE) <= 0)
                goto fail;
            if (H5Pset_shuffle(dcpl) < 0 || H5Pset_deflate(dcpl, DEFLATE_LEVEL) < 0)
                goto fail;
        }
    }
    return dcpl;
fail:
    H5Pclose(dcpl);
    return -1;
}

/* 1 on the ranks but 0 of an MPI writer: data every rank holds alike
 * (tables, /connectivity) is written by rank 0 alone, the others taking
 * part in the collective write with an empty selection. */
static int follower(const tbrf_io_writer *w)
{
#ifdef TBRF_IO_MPI
    return w->comm != MPI_COMM_NULL && w->mpi_rank != 0;
#else
    (void)w;
    return 0;
#endif
}

/* Chunk shape for dims (slowest first): io_chunk_shape's slabs of whole
 * rows of about 1 MiB (large enough for efficient I/O and deflate, small
 * enough that the chunk cache holds the few chunks a row-ordered writer
 * has open at once), in HDF5's hsize_t. */
static void chunk_shape(int rank, const hsize_t *dims, size_t elt, hsize_t *chunk)
{
    uint64_t d[H5S_MAX_RANK] = {0}, c[H5S_MAX_RANK] = {0};
    for (int i = 0; i < rank; i++)
        d[i] = dims[i];
    io_chunk_shape(rank, d, elt, c);
    for (int i = 0; i < rank; i++)
        chunk[i] = c[i];
}

static hid_t file_type(int precision)
{
    return precision == TBRF_FLOAT ? H5T_IEEE_F32LE : H5T_IEEE_F64LE;
}

static hid_t mem_type(int precision)
{
    return precision == TBRF_FLOAT ? H5T_NATIVE_FLOAT : H5T_NATIVE_DOUBLE;
}

static void fail_h5(tbrf_io_writer *w, const char *what)
{
    char why[256];
    io_h5_reason(why, sizeof why);
    FAIL(w, "cannot write %s: %s failed%s%s", w->path, what, why[0] ? ": " : "", why);
}

static int h5w_grid_begin(tbrf_io_writer *w, int dim, const int64_t n[3], int precision)
{
    int rank = dim;
    hsize_t dims[4], chunk[4];
    if (rank == 3) {
        dims[0] = (hsize_t)n[2];
        dims[1] = (hsize_t)n[1];
        dims[2] = (hsize_t)n[0];
    } else {
        dims[0] = (hsize_t)n[1];
        dims[1] = (hsize_t)n[0];
    }
    if (w->ncomp > 1) /* a vector: (nz, ny, nx, 3) or (ny, nx, 2) */
        dims[rank++] = (hsize_t)w->ncomp;
    chunk_shape(rank, dims, precision == TBRF_FLOAT ? 4 : 8, chunk);

    int rc = -1;
    hid_t space = H5Screate_simple(rank, dims, NULL);
    hid_t dcpl = make_dcpl(w, rank, chunk);
    hid_t dapl = H5Pcreate(H5P_DATASET_ACCESS);
    if (space < 0 || dapl < 0) {
        fail_h5(w, "creating /field");
        goto done;
    }
    if (dcpl < 0) {
        FAIL(w, "cannot write %s: the deflate filter is not available in this HDF5", w->path);
        goto done;
    }
    /* Unfiltered chunks need no cache: HDF5 writes a chunk larger than the
     * cache straight from our buffer to its place in the file (fill time
     * is never), where a cached one is copied first (a tenth of a 256^3
     * FFT run's non-FFT time). Compressed chunks keep it (see above). */
    H5Pset_chunk_cache(dapl, CACHE_SLOTS, (w->flags & TBRF_IO_COMPRESS) ? CACHE_BYTES : 0, 1.0);
    io_h5(w)->field = H5Dcreate2(io_h5(w)->file, "field", file_type(precision), space, H5P_DEFAULT, dcpl, dapl);
    if (io_h5(w)->field < 0) {
        fail_h5(w, "creating /field");
        goto done;
    }
    rc = 0;
done:
    if (space >= 0)
        H5Sclose(space);
    if (dcpl >= 0)
        H5Pclose(dcpl);
    if (dapl >= 0)
        H5Pclose(dapl);
    return rc;
}

/* Adds one box of io_grid_boxes to the file selection (ctx). */
static int h5_add_box(tbrf_io_writer *w, void *ctx, int64_t offset, const int64_t start[3],
                      const int64_t count[3])
{
    hid_t space = *(hid_t *)ctx;
    int r = w->rank, o = 3 - r; /* a 2D grid drops z */
    hsize_t st[4], cn[4];
    for (int i = 0; i < r; i++) {
        st[i] = (hsize_t)start[o + i];
        cn[i] = (hsize_t)count[o + i];
    }
    if (w->ncomp > 1) { /* every component of the cells */
        st[r] = 0;
        cn[r] = (hsize_t)w->ncomp;
    }
    herr_t e = H5Sselect_hyperslab(space, offset == 0 ? H5S_SELECT_SET : H5S_SELECT_OR, st, NULL,
                                   cn, NULL);
    return e < 0 ? -1 : 0;
}


/* Counts the boxes of a push and keeps the shape of the first. */
typedef struct box_shape {
    int nbox;
    int64_t count[3];
} box_shape;

static int h5_count_box(tbrf_io_writer *w, void *ctx, int64_t offset, const int64_t start[3],
                        const int64_t count[3])
{
    (void)w, (void)offset, (void)start;
    box_shape *b = ctx;
    if (b->nbox++ == 0)
        memcpy(b->count, count, sizeof b->count);
    return 0;
}

/* Cells [first, first + count) of /field; count 0 selects nothing (a
 * rank's empty part of a collective write). Collective on an MPI writer. */
static int h5w_grid_write(tbrf_io_writer *w, int64_t first, int64_t count, const void *values)
{
    int rc = -1;
    hid_t fspace = H5Dget_space(io_h5(w)->field), mspace = -1;
    hid_t dxpl = io_h5_xfer_open(w);
    /* One box (whole rows or planes: every push of the command and of the
     * FFT method) gets a memory space of the box's own shape: HDF5 then
     * maps memory to chunks by hyperslab, where a flat memory space of a
     * different rank is mapped element by element (three quarters of the
     * write's time for a 256^3 grid). Several boxes, or none: a flat space. */
    box_shape b = {0, {0, 0, 0}};
    if (count > 0)
        io_grid_boxes(w, first, count, h5_count_box, &b);
    if (b.nbox == 1) {
        hsize_t md[4];
        int r = w->rank, o = 3 - r;
        for (int i = 0; i < r; i++)
            md[i] = (hsize_t)b.count[o + i];
        if (w->ncomp > 1)
            md[r++] = (hsize_t)w->ncomp;
        mspace = H5Screate_simple(r, md, NULL);
    } else {
        hsize_t mdim = (hsize_t)(count > 0 ? count : 1) * (hsize_t)(w->ncomp > 1 ? w->ncomp : 1);
        mspace = H5Screate_simple(1, &mdim, NULL);
    }
    if (fspace < 0 || mspace < 0) {
        fail_h5(w, "selecting cells of /field");
        goto done;
    }
    /* HDF5 iterates a union of hyperslabs in the file's row-major order,
     * which is exactly our cell order, so one H5Dwrite from a flat buffer
     * fills them. */
    if (count == 0 ? (H5Sselect_none(fspace) < 0 || H5Sselect_none(mspace) < 0)
                   : io_grid_boxes(w, first, count, h5_add_box, &fspace) != 0) {
        fail_h5(w, "selecting cells of /field");
        goto done;
    }
    if (H5Dwrite(io_h5(w)->field, mem_type(w->precision), mspace, fspace, dxpl,
                 count > 0 ? values : (const void *)&rc) < 0) {
        fail_h5(w, "writing /field");
        goto done;
    }
    io_h5(w)->unsynced += (double)count * (double)(w->ncomp > 1 ? w->ncomp : 1) *
                   (w->precision == TBRF_FLOAT ? 4.0 : 8.0);
    if (!io_is_parallel(w) && !(w->flags & TBRF_IO_COMPRESS) && io_h5(w)->unsynced >= 8.0 * 1048576.0) {
        /* unfiltered chunks went straight to the file (no chunk cache):
         * let the disk start on them (the default sec2 driver's handle is
         * its file descriptor), every 8 MiB so that small pushes do not
         * send pages still being filled to disk over and over */
        void *h = NULL;
        if (H5Fget_vfd_handle(io_h5(w)->file, H5P_DEFAULT, &h) >= 0 && h)
            io_start_writeback(*(int *)h);
        io_h5(w)->unsynced = 0.0;
    }
    rc = 0;
done:
    io_h5_xfer_close(dxpl);
    if (fspace >= 0)
        H5Sclose(fspace);
    if (mspace >= 0)
        H5Sclose(mspace);
    return rc;
}

static int h5w_grid_push(tbrf_io_writer *w, int64_t first, int64_t count, const void *values)
{
    return h5w_grid_write(w, first, count, values);
}

/* Writes a whole dataset (contiguous, or chunked when compressing). */
static int write_whole(tbrf_io_writer *w, const char *name, int rank, const hsize_t *dims,
                       int precision, const void *data)
{
    io_quiet q;
    io_quiet_begin(&q);
    int rc = -1;
    char what[64];
    snprintf(what, sizeof what, "writing /%s", name);
    hsize_t chunk[2];
    int chunked = (w->flags & TBRF_IO_COMPRESS) != 0;
    if (chunked)
        chunk_shape(rank, dims, precision == TBRF_FLOAT ? 4 : 8, chunk);
    hid_t space = H5Screate_simple(rank, dims, NULL);
    hid_t dcpl = make_dcpl(w, rank, chunked ? chunk : NULL);
    hid_t dset = -1;
    if (space < 0 || dcpl < 0) {
        fail_h5(w, what);
        goto done;
    }
    dset = H5Dcreate2(io_h5(w)->file, name, file_type(precision), space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    if (dset < 0) {
        fail_h5(w, what);
        goto done;
    }
    hid_t x = io_h5_xfer_open(w);
    hid_t sel = follower(w) ? H5Scopy(space) : H5S_ALL;
    if (sel != H5S_ALL && sel >= 0)
        H5Sselect_none(sel);
    herr_t e = sel < 0 ? -1 : H5Dwrite(dset, mem_type(precision), sel, sel, x, data);
    if (sel != H5S_ALL && sel >= 0)
        H5Sclose(sel);
    io_h5_xfer_close(x);
    if (e < 0) {
        fail_h5(w, what);
        goto done;
    }
    rc = 0;
done:
    if (dset >= 0 && H5Dclose(dset) < 0 && rc == 0) {
        fail_h5(w, what);
        rc = -1;
    }
    if (space >= 0)
        H5Sclose(space);
    if (dcpl >= 0)
        H5Pclose(dcpl);
    io_quiet_end(&q);
    return rc;
}

static int h5w_write_points(tbrf_io_writer *w, int dim, int64_t n, const double *xyz)
{
    hsize_t dims[2] = {(hsize_t)n, (hsize_t)dim};
    return write_whole(w, "points", 2, dims, TBRF_DOUBLE, xyz);
}

static int h5w_write_values(tbrf_io_writer *w, int64_t n, int precision, const void *values)
{
    hsize_t dims[2] = {(hsize_t)n, (hsize_t)w->ncomp};
    return write_whole(w, "value", w->ncomp > 1 ? 2 : 1, dims, precision, values);
}

/* A dataset as write_whole makes it (contiguous, or chunked when
 * compressing), not yet written. */
static hid_t create_like_whole(tbrf_io_writer *w, const char *name, int rank, const hsize_t *dims,
                               int precision)
{
    hsize_t chunk[2];
    int chunked = (w->flags & TBRF_IO_COMPRESS) != 0;
    if (chunked)
        chunk_shape(rank, dims, precision == TBRF_FLOAT ? 4 : 8, chunk);
    hid_t space = H5Screate_simple(rank, dims, NULL);
    hid_t dcpl = make_dcpl(w, rank, chunked ? chunk : NULL);
    hid_t d = -1;
    if (space >= 0 && dcpl >= 0)
        d = H5Dcreate2(io_h5(w)->file, name, file_type(precision), space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    if (space >= 0)
        H5Sclose(space);
    if (dcpl >= 0)
        H5Pclose(dcpl);
    return d;
}

static int h5w_points_begin(tbrf_io_writer *w, int dim, int64_t n, int precision)
{
    hsize_t pd[2] = {(hsize_t)n, (hsize_t)dim}, vd[2] = {(hsize_t)n, (hsize_t)w->ncomp};
    io_h5(w)->pts = create_like_whole(w, "points", 2, pd, TBRF_DOUBLE);
    if (io_h5(w)->pts < 0) {
        fail_h5(w, "creating /points");
        return -1;
    }
    io_h5(w)->val = create_like_whole(w, "value", w->ncomp > 1 ? 2 : 1, vd, precision);
    if (io_h5(w)->val < 0) {
        fail_h5(w, "creating /value");
        return -1;
    }
    return 0;
}

/* Rows [first, first + count) of dataset d (rank 1 or 2, cols columns). */
static int write_rows(tbrf_io_writer *w, hid_t d, int rank, int64_t first, int64_t count, int cols,
                      hid_t mtype, const void *data, const char *what)
{
    int rc = -1;
    hid_t fspace = H5Dget_space(d);
    hsize_t start[2] = {(hsize_t)first, 0}, cnt[2] = {(hsize_t)count, (hsize_t)cols};
    hsize_t mdim = (hsize_t)(count > 0 ? count : 1) * (hsize_t)cols;
    hid_t mspace = H5Screate_simple(1, &mdim, NULL);
    hid_t x = io_h5_xfer_open(w);
    /* count 0: an MPI rank's empty part of a collective write */
    int sel = fspace >= 0 && mspace >= 0 &&
              (count == 0 ? H5Sselect_none(fspace) >= 0 && H5Sselect_none(mspace) >= 0
                          : H5Sselect_hyperslab(fspace, H5S_SELECT_SET, start, NULL, cnt, NULL) >= 0);
    if (sel && H5Dwrite(d, mtype, mspace, fspace, x, count > 0 ? data : (const void *)&rc) >= 0)
        rc = 0;
    io_h5_xfer_close(x);
    (void)rank;
    if (rc)
        fail_h5(w, what);
    if (fspace >= 0)
        H5Sclose(fspace);
    if (mspace >= 0)
        H5Sclose(mspace);
    return rc;
}

static int h5w_points_push(tbrf_io_writer *w, int64_t first, int64_t count, const double *xyz,
                           const void *values)
{
    if (write_rows(w, io_h5(w)->pts, 2, first, count, w->pts_dim, H5T_NATIVE_DOUBLE, xyz,
                   "writing /points"))
        return -1;
    return write_rows(w, io_h5(w)->val, 1, first, count, w->ncomp, mem_type(w->pts_precision),
                      values, "writing /value");
}

/* ------------------------------------------------------------ attributes */

static int attr_write(hid_t loc, const char *name, hid_t ftype, hid_t mtype, int count,
                      const void *data)
{
    hsize_t dims[1] = {(hsize_t)count};
    hid_t space = count == 1 ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, dims, NULL);
    if (space < 0)
        return -1;
    if (H5Aexists(loc, name) > 0)
        H5Adelete(loc, name);
    hid_t a = H5Acreate2(loc, name, ftype, space, H5P_DEFAULT, H5P_DEFAULT);
    int rc = -1;
    if (a >= 0 && H5Awrite(a, mtype, data) >= 0)
        rc = 0;
    if (a >= 0 && H5Aclose(a) < 0)
        rc = -1;
    H5Sclose(space);
    return rc;
}

static int attr_str(hid_t loc, const char *name, const char *s)
{
    if (!s)
        return 0;
    /* Fixed-length, NUL-terminated: every HDF5 reader handles it. */
    hid_t t = H5Tcopy(H5T_C_S1);
    if (t < 0)
        return -1;
    H5Tset_size(t, strlen(s) + 1);
    H5Tset_strpad(t, H5T_STR_NULLTERM);
    int rc = attr_write(loc, name, t, t, 1, s);
    H5Tclose(t);
    return rc;
}

static int attr_f64v(hid_t loc, const char *name, const double *v, int count)
{
    for (int i = 0; i < count; i++)
        if (isnan(v[i]))
            return 0; /* not applicable */
    return attr_write(loc, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, count, v);
}

static int attr_i64v(hid_t loc, const char *name, const int64_t *v, int count)
{
    return attr_write(loc, name, H5T_STD_I64LE, H5T_NATIVE_INT64, count, v);
}

static int attr_u64(hid_t loc, const char *name, uint64_t v)
{
    return attr_write(loc, name, H5T_STD_U64LE, H5T_NATIVE_UINT64, 1, &v);
}

static int h5_str(void *ctx, const char *name, const char *v)
{
    return attr_str(*(hid_t *)ctx, name, v);
}

static int h5_f64v(void *ctx, const char *name, const double *v, int count)
{
    return attr_f64v(*(hid_t *)ctx, name, v, count);
}

static int h5_i64v(void *ctx, const char *name, const int64_t *v, int count)
{
    return attr_i64v(*(hid_t *)ctx, name, v, count);
}

static int h5_u64(void *ctx, const char *name, uint64_t v)
{
    return attr_u64(*(hid_t *)ctx, name, v);
}

static int h5w_write_meta(tbrf_io_writer *w, const tbrf_io_meta *m)
{
    hid_t g = io_h5(w)->file;
    io_attr_sink sink = {&g, h5_str, h5_f64v, h5_i64v, h5_u64};
    if (io_meta_attrs(&sink, m)) {
        fail_h5(w, "writing attributes");
        return -1;
    }
    if (m->table_n > 0 && m->table_k && m->table_p) {
        double *t = io_table_rows(w, m);
        if (!t)
            return -1;
        hsize_t dims[2] = {(hsize_t)m->table_n, 2};
        int rc = write_whole(w, "model_table", 2, dims, TBRF_DOUBLE, t);
        free(t);
        if (rc)
            return -1;
    }
    return 0;
}

/* ------------------------------------------------------------ finishing */

/* Closes the HDF5 handles; returns -1 if closing (i.e. the final flush)
 * failed. */
static int h5w_close(tbrf_io_writer *w)
{
    if (!w->state)
        return 0;
    int rc = 0;
    hid_t *ds[2] = {&io_h5(w)->pts, &io_h5(w)->val};
    for (int i = 0; i < 2; i++) {
        if (*ds[i] >= 0 && H5Dclose(*ds[i]) < 0)
            rc = -1;
        *ds[i] = -1;
    }
    if (io_h5(w)->field >= 0) {
        if (H5Dclose(io_h5(w)->field) < 0)
            rc = -1;
        io_h5(w)->field = -1;
    }
    if (io_h5(w)->file >= 0) {
        if (H5Fclose(io_h5(w)->file) < 0)
            rc = -1;
        io_h5(w)->file = -1;
    }
    if (rc)
        fail_h5(w, "closing the file");
    return rc;
}

/* /connectivity, 0 .. n-1: the Polyvertex topology of a points file's
 * XDMF side file. ParaView's Xdmf3 reader draws no cells without it and
 * meshio refuses a Topology without its DataItem; XDMF's Function and
 * HyperSlab items would avoid the dataset but meshio reads neither.
 * Always shuffled and deflated (about 1/200 of the raw size): 32-bit
 * when n allows, written in chunks of 2^20. */
static int write_connectivity(tbrf_io_writer *w, int64_t n)
{
    enum { CHUNK = 1 << 20 };
    const int wide = n > INT32_MAX;
    /* (n, 1): the shape the XDMF DataItem gives it, which meshio keeps. */
    hsize_t dims[2] = {(hsize_t)n, 1}, chunk[2] = {(hsize_t)(n < CHUNK ? n : CHUNK), 1};
    hid_t space = H5Screate_simple(2, dims, NULL);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    hid_t d = -1;
    void *buf = malloc((size_t)chunk[0] * (wide ? 8 : 4));
    int rc = -1;
    if (space < 0 || dcpl < 0 || !buf)
        goto done;
    H5Pset_obj_track_times(dcpl, 0);
    if (H5Pset_chunk(dcpl, 2, chunk) < 0)
        goto done;
    H5Pset_fill_time(dcpl, H5D_FILL_TIME_NEVER);
    if (H5Zfilter_avail(H5Z_FILTER_DEFLATE) > 0 &&
        (H5Pset_shuffle(dcpl) < 0 || H5Pset_deflate(dcpl, DEFLATE_LEVEL) < 0))
        goto done;
    d = H5Dcreate2(io_h5(w)->file, "connectivity", wide ? H5T_STD_I64LE : H5T_STD_I32LE, space,
                   H5P_DEFAULT, dcpl, H5P_DEFAULT);
    if (d < 0)
        goto done;
    for (int64_t first = 0; first < n; first += CHUNK) {
        int64_t count = n - first < CHUNK ? n - first : CHUNK;
        for (int64_t i = 0; i < count; i++) {
            if (wide)
                ((int64_t *)buf)[i] = first + i;
            else
                ((int32_t *)buf)[i] = (int32_t)(first + i);
        }
        if (write_rows(w, d, 2, first, follower(w) ? 0 : count, 1,
                       wide ? H5T_NATIVE_INT64 : H5T_NATIVE_INT32, buf, "writing /connectivity"))
            goto done;
    }
    rc = 0;
done:
    if (d >= 0 && H5Dclose(d) < 0)
        rc = -1;
    if (space >= 0)
        H5Sclose(space);
    if (dcpl >= 0)
        H5Pclose(dcpl);
    free(buf);
    if (rc)
        fail_h5(w, "writing /connectivity");
    return rc;
}

static int h5w_mark_complete(tbrf_io_writer *w)
{
    if (w->has_xmf && !w->xmf_meta.is_grid && w->xmf_meta.npoints > 0 &&
        write_connectivity(w, w->xmf_meta.npoints))
        return -1;
    /* yt's layout beside the XDMF one (a grid, not a series; a serial
     * writer: its objects are made by one process). */
    int gdf = w->has_xmf && w->xmf_meta.is_grid && !w->series_times;
#ifdef TBRF_IO_MPI
    gdf = gdf && w->comm == MPI_COMM_NULL;
#endif
    if (gdf && io_gdf_write(w, &w->xmf_meta)) {
        fail_h5(w, "writing yt's grid layout (/gridded_data_format)");
        return -1;
    }
    const int64_t ranks = w->mpi_size;
    if (attr_i64v(io_h5(w)->file, "mpi_ranks", &ranks, 1) || attr_str(io_h5(w)->file, "tbrf_complete", "yes")) {
        fail_h5(w, "marking the file complete");
        return -1;
    }
    return 0;
}

static void h5w_release(tbrf_io_writer *w)
{
    free(w->state);
    w->state = NULL;
}

static int h5w_grid_record(tbrf_io_writer *w, const tbrf_io_meta *m)
{
    (void)w, (void)m;
    return 0; /* the XDMF side file holds the grid */
}

static void h5w_objects(int is_grid, int dim, int ncomp, char *values, size_t vlen,
                        char *positions, size_t plen)
{
    (void)dim, (void)ncomp; /* a vector is a last dimension of the same dataset */
    snprintf(values, vlen, "%s", is_grid ? "/field" : "/value");
    snprintf(positions, plen, "%s", is_grid ? "" : "/points");
}

const io_format_ops io_hdf5_ops = {
    .name = "hdf5",
    .title = "HDF5",
    .suffix = NULL,
    .xdmf = 1,
    .load = io_format_nothing_to_load,
    .initialize = io_format_nothing_to_load,
    .create = h5w_create,
    .grid_begin = h5w_grid_begin,
    .grid_push = h5w_grid_push,
    .write_points = h5w_write_points,
    .write_values = h5w_write_values,
    .write_meta = h5w_write_meta,
    .grid_record = h5w_grid_record,
    .close = h5w_close,
    .mark_complete = h5w_mark_complete,
    .points_begin = h5w_points_begin,
    .points_push = h5w_points_push,
    .series_begin = io_h5_series_begin,
    .series_step = io_h5_series_step,
    .series_attr = io_h5_series_attr,
    .arepo_write = io_h5_arepo_write,
    .arepo_record = io_h5_arepo_record,
    .objects = h5w_objects,
    .release = h5w_release,
};
