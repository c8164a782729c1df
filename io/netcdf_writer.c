/* netcdf_writer.c — the netCDF-4 format of the writer (io_netcdf_ops), following the CF-1.8 conventions (see
 * doc/cli.md for why 1.8).
 *
 * Why netCDF besides plain HDF5: xarray, CDO, NCO, Panoply and VisIt read
 * CF files without being told what the arrays mean. The layout:
 *  - grid:   float field(z, y, x) (or (y, x)) with coordinate variables
 *            x(x), y(y), z(z) carrying axis, units, long_name, bounds, and
 *            x_bnds(x, nv) etc.; chunked in slabs of whole rows (~1 MiB),
 *            optionally shuffle+deflate;
 *  - points: a discrete-sampling-geometry file (featureType = "point"):
 *            x(obs), y(obs), z(obs) and value(obs) with
 *            coordinates = "x y z";
 *  - global attributes: Conventions, title, history, source, and every
 *    generating parameter under the same names as the HDF5 writer's root
 *    attributes (but "geometry" is "tbrf_geometry", CF's "geometry"
 *    being a geometry container), so `tbrf regenerate` reads either
 *    format.
 * Its ids live in the writer's state (io_nc_state, made by ncw_create);
 * netcdf_reader.c reads the files back through netCDF.
 *
 * Coordinates are written in write_meta, because the grid's origin and
 * spacing arrive there; netCDF-4 lets us define everything up front and
 * fill the coordinate variables after the field. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <math.h>
#include <netcdf.h>
#include <stdlib.h>
#include <string.h>

#include "io/io_internal.h"
#include "io/nc_load.h"
#include "io/tbrf_io.h"
#ifdef TBRF_IO_MPI
#include <netcdf_par.h>
#endif

#define NC_CACHE_BYTES ((size_t)16 << 20)
#define NC_CACHE_SLOTS 1021
#define NC_DEFLATE_LEVEL 4

/* The writer's state (w->state): netCDF ids, -1 when unused. */
typedef struct io_nc_state {
    int ncid, field, dimids[3];
    int points_dim, dim;
    int value;                   /* the value variable, -1 when none */
    int comp[3], value_comp[3];  /* a vector's variables, one per component */
} io_nc_state;

#define NCS(w) ((io_nc_state *)(w)->state)

static const char *AXES[3] = {"x", "y", "z"};
static const char *AXES_UP[3] = {"X", "Y", "Z"};

/* netCDF reports a failed write underneath (a full disk, a file-size
 * limit) only as "NetCDF: HDF error"; the system's errno, cleared before
 * each call, still holds the cause, which is what the user can act on. */
static const char *nc_cause(int status)
{
    const int e = errno;
    if (status == NC_NOERR || !(e == ENOSPC || e == EFBIG || e == EDQUOT || e == EIO ||
                                e == EROFS || e == EACCES || e == EPERM))
        return NULL;
    return strerror(e);
}

static int nc_fail(tbrf_io_writer *w, const char *what, int status)
{
    const char *cause = nc_cause(status);
    if (cause)
        IO_FAIL(w, "cannot write %s: %s failed: %s (%s)", w->path, what, cause, nc_strerror(status));
    else
        IO_FAIL(w, "cannot write %s: %s failed: %s", w->path, what, nc_strerror(status));
    return -1;
}

#define NC_TRY(w, what, call)                         \
    do {                                              \
        errno = 0;                                    \
        int nc_st_ = (call);                          \
        if (nc_st_ != NC_NOERR)                       \
            return nc_fail((w), (what), nc_st_);      \
    } while (0)

static int put_text(int ncid, int var, const char *name, const char *s)
{
    return nc_put_att_text(ncid, var, name, strlen(s), s);
}

/* An MPI writer (tbrf_io_mpi.h): every rank makes every call, the data
 * calls collectively (what compressed variables need), each rank writing
 * its own rows and rank 0 alone what all ranks hold alike (coordinates,
 * the table). */
static int nc_mpi(const tbrf_io_writer *w)
{
    return io_is_parallel(w);
}

static int nc_follower(const tbrf_io_writer *w)
{
#ifdef TBRF_IO_MPI
    return nc_mpi(w) && w->mpi_rank != 0;
#else
    (void)w;
    return 0;
#endif
}

/* Collective access to var on an MPI writer (called before its writes). */
static int par_access(tbrf_io_writer *w, int var)
{
#ifdef TBRF_IO_MPI
    if (nc_mpi(w))
        return nc_var_par_access(NCS(w)->ncid, var, NC_COLLECTIVE);
#endif
    (void)w;
    (void)var;
    return NC_NOERR;
}

/* netCDF switches HDF5's error printing off when it initialises (its
 * probes for optional attributes fail by design). Initialised inside an
 * io_quiet window, that setting would be undone by io_quiet_end and a
 * host program's own netCDF calls would then print HDF5 diagnostics, so
 * tbrf_io_create initialises it first: the host's HDF5 printing is then
 * off, as after its own first netCDF call (tbrf_io.h, "Errors"). */
static int ncw_initialize(char *err, size_t errlen)
{
    if (io_nc_load(err, errlen))
        return -1;
    nc_initialize();
    return 0;
}

static int ncw_load(char *err, size_t errlen)
{
    return io_nc_load(err, errlen);
}

static int ncw_create(tbrf_io_writer *w)
{
    io_nc_state *ns = malloc(sizeof *ns);
    if (!ns) {
        IO_FAIL(w, "cannot write %s: out of memory", w->path);
        return -1;
    }
    *ns = (io_nc_state){.ncid = -1, .field = -1, .dimids = {-1, -1, -1}, .points_dim = -1,
                        .dim = 0, .value = -1, .comp = {-1, -1, -1}, .value_comp = {-1, -1, -1}};
    w->state = ns;
    /* The temporary exists already (made by tbrf_io_create to learn why a
     * directory is unwritable); NC_CLOBBER reuses it. */
    int st;
#ifdef TBRF_IO_MPI
    if (nc_mpi(w))
        st = nc_create_par(w->tmp, NC_NETCDF4 | NC_CLOBBER, w->comm, MPI_INFO_NULL, &NCS(w)->ncid);
    else
#endif
        st = nc_create(w->tmp, NC_NETCDF4 | NC_CLOBBER, &NCS(w)->ncid);
    if (st != NC_NOERR) {
        NCS(w)->ncid = -1;
        IO_FAIL(w, "cannot create netCDF file %s: %s", w->path, nc_strerror(st));
        return -1;
    }
    return 0;
}

/* A coordinate variable v(v) with its bounds v_bnds(v, nv), CF style. */
static int def_axis(tbrf_io_writer *w, int c, int dimid, int nv)
{
    int ncid = NCS(w)->ncid, var, bvar;
    char bname[16];
    snprintf(bname, sizeof bname, "%s_bnds", AXES[c]);
    NC_TRY(w, "defining coordinates", nc_def_var(ncid, AXES[c], NC_DOUBLE, 1, &dimid, &var));
    int bd[2] = {dimid, nv};
    NC_TRY(w, "defining bounds", nc_def_var(ncid, bname, NC_DOUBLE, 2, bd, &bvar));
    char ln[64];
    snprintf(ln, sizeof ln, "%s coordinate of the cell centre", AXES[c]);
    /* tbrf works in the caller's length unit, whatever it is: "1" is
     * UDUNITS' dimensionless unit and says exactly that. */
    NC_TRY(w, "writing attributes", put_text(ncid, var, "axis", AXES_UP[c]));
    NC_TRY(w, "writing attributes", put_text(ncid, var, "units", "1"));
    NC_TRY(w, "writing attributes", put_text(ncid, var, "long_name", ln));
    NC_TRY(w, "writing attributes", put_text(ncid, var, "bounds", bname));
    snprintf(ln, sizeof ln, "%s extent of the cell", AXES[c]);
    NC_TRY(w, "writing attributes", put_text(ncid, bvar, "long_name", ln));
    return 0;
}

static int set_filters(tbrf_io_writer *w, int var)
{
    if (w->flags & TBRF_IO_COMPRESS)
        NC_TRY(w, "setting compression", nc_def_var_deflate(NCS(w)->ncid, var, 1, 1, NC_DEFLATE_LEVEL));
    return 0;
}

static int ncw_grid_begin(tbrf_io_writer *w, int dim, const int64_t n[3], int precision)
{
    int ncid = NCS(w)->ncid, nv;
    NC_TRY(w, "defining dimensions", nc_def_dim(ncid, "nv", 2, &nv));
    for (int c = 0; c < dim; c++) {
        NC_TRY(w, "defining dimensions", nc_def_dim(ncid, AXES[c], (size_t)n[c], &NCS(w)->dimids[c]));
        if (def_axis(w, c, NCS(w)->dimids[c], nv))
            return -1;
    }
    int dimids[3];
    uint64_t dims[3], chunk[3];
    for (int i = 0; i < dim; i++) { /* slowest first: (z, y, x) */
        dimids[i] = NCS(w)->dimids[dim - 1 - i];
        dims[i] = (uint64_t)n[dim - 1 - i];
    }
    io_chunk_shape(dim, dims, precision == TBRF_FLOAT ? 4 : 8, chunk);
    size_t chunks[3];
    for (int i = 0; i < dim; i++)
        chunks[i] = (size_t)chunk[i];
    /* A vector is one variable per component (field_x, field_y[, field_z]):
     * CF has no vector type, and readers (xarray, ParaView) take them so. */
    const int nvar = w->ncomp > 1 ? w->ncomp : 1;
    for (int c = 0; c < nvar; c++) {
        char name[16], ln[96];
        snprintf(name, sizeof name, nvar > 1 ? "field_%s" : "field", AXES[c]);
        snprintf(ln, sizeof ln, nvar > 1 ? "%s component of the Gaussian random vector field"
                                         : "Gaussian random field%.0s", AXES[c]);
        int var;
        NC_TRY(w, "defining the field",
               nc_def_var(ncid, name, precision == TBRF_FLOAT ? NC_FLOAT : NC_DOUBLE, dim, dimids,
                          &var));
        NC_TRY(w, "defining the field", nc_def_var_chunking(ncid, var, NC_CHUNKED, chunks));
        /* Every cell is written: filling first would write the file twice. */
        NC_TRY(w, "defining the field", nc_def_var_fill(ncid, var, 1, NULL));
        if (set_filters(w, var))
            return -1;
        NC_TRY(w, "setting the chunk cache",
               nc_set_var_chunk_cache(ncid, var, NC_CACHE_BYTES, NC_CACHE_SLOTS, 1.0f));
        NC_TRY(w, "writing attributes", put_text(ncid, var, "long_name", ln));
        NC_TRY(w, "writing attributes", put_text(ncid, var, "units", "1"));
        NC_TRY(w, "writing attributes",
               put_text(ncid, var, "comment",
                        "zero-mean stationary Gaussian random field made by tbrf (the "
                        "global attribute method names how); "
                        "cell (i,j,k) is at grid_origin + grid_spacing*(i,j,k)"));
        NCS(w)->comp[c] = var;
    }
    NCS(w)->field = NCS(w)->comp[0];
    NCS(w)->dim = dim;
    return 0;
}

/* Component c of n interleaved values (ncomp per position) into out. */
static void component(const tbrf_io_writer *w, int precision, const void *values, size_t n, int c,
                      void *out)
{
    const size_t nc = (size_t)w->ncomp;
    if (precision == TBRF_FLOAT)
        for (size_t i = 0; i < n; i++)
            ((float *)out)[i] = ((const float *)values)[i * nc + (size_t)c];
    else
        for (size_t i = 0; i < n; i++)
            ((double *)out)[i] = ((const double *)values)[i * nc + (size_t)c];
}

/* One box of io_grid_boxes from the flat buffer ctx. */
static int put_box(tbrf_io_writer *w, void *ctx, int64_t offset, const int64_t start[3],
                   const int64_t count[3])
{
    const size_t elt = w->precision == TBRF_FLOAT ? sizeof(float) : sizeof(double);
    const int nvar = w->ncomp > 1 ? w->ncomp : 1;
    const char *values = (const char *)ctx + (size_t)offset * (size_t)nvar * elt;
    int r = w->rank, o = 3 - r; /* a 2D grid drops z */
    size_t st[3], cn[3], cells = 1;
    for (int i = 0; i < r; i++) {
        st[i] = (size_t)start[o + i];
        cn[i] = (size_t)count[o + i];
        cells *= cn[i];
    }
    void *col = nvar > 1 ? malloc(cells * elt) : NULL;
    if (nvar > 1 && !col) {
        IO_FAIL(w, "out of memory");
        return -1;
    }
    int e = NC_NOERR;
    for (int c = 0; c < nvar && e == NC_NOERR; c++) {
        const void *v = values;
        if (nvar > 1) {
            component(w, w->precision, values, cells, c, col);
            v = col;
        }
        errno = 0;
        e = par_access(w, NCS(w)->comp[c]);
        if (e == NC_NOERR)
            e = w->precision == TBRF_FLOAT
                    ? nc_put_vara_float(NCS(w)->ncid, NCS(w)->comp[c], st, cn, (const float *)v)
                    : nc_put_vara_double(NCS(w)->ncid, NCS(w)->comp[c], st, cn, (const double *)v);
    }
    free(col);
    return e == NC_NOERR ? 0 : nc_fail(w, "writing the field", e);
}

/* An MPI writer's push: io_grid_boxes gives each rank 0 to 5 boxes, but
 * collective writes need the same number of calls on every rank, so the
 * boxes are collected and padded with empty ones to exactly 5. */
typedef struct nc_boxes {
    int n;
    int64_t offset[5], start[5][3], count[5][3];
} nc_boxes;

static int collect_box(tbrf_io_writer *w, void *ctx, int64_t offset, const int64_t start[3],
                       const int64_t count[3])
{
    nc_boxes *b = ctx;
    (void)w;
    if (b->n >= 5)
        return -1;
    b->offset[b->n] = offset;
    memcpy(b->start[b->n], start, sizeof b->start[0]);
    memcpy(b->count[b->n], count, sizeof b->count[0]);
    b->n++;
    return 0;
}

static int grid_push_mpi(tbrf_io_writer *w, int64_t first, int64_t count, const void *values)
{
    nc_boxes b = {0};
    if (count > 0 && io_grid_boxes(w, first, count, collect_box, &b)) {
        IO_FAIL(w, "%s: selecting cells of the field failed", w->path);
        return -1;
    }
    static const double none = 0;
    for (int i = 0; i < 5; i++) {
        const int64_t zero[3] = {0, 0, 0};
        int rc = i < b.n ? put_box(w, (void *)values, b.offset[i], b.start[i], b.count[i])
                         : put_box(w, (void *)&none, 0, zero, zero);
        if (rc)
            return -1;
    }
    return 0;
}

/* The value variable(s) of points: value, or value_x, value_y[, value_z]
 * for a vector, into NCS(w)->value_comp (NCS(w)->value the first). */
static int def_point_values(tbrf_io_writer *w, int obs, int precision)
{
    const int nvar = w->ncomp > 1 ? w->ncomp : 1, ncid = NCS(w)->ncid;
    for (int c = 0; c < nvar; c++) {
        char name[16], ln[96];
        snprintf(name, sizeof name, nvar > 1 ? "value_%s" : "value", AXES[c]);
        snprintf(ln, sizeof ln, nvar > 1 ? "%s component of the Gaussian random vector field"
                                         : "Gaussian random field%.0s", AXES[c]);
        int v;
        NC_TRY(w, "defining the values",
               nc_def_var(ncid, name, precision == TBRF_FLOAT ? NC_FLOAT : NC_DOUBLE, 1, &obs, &v));
        if (set_filters(w, v))
            return -1;
        NC_TRY(w, "writing attributes", put_text(ncid, v, "long_name", ln));
        NC_TRY(w, "writing attributes", put_text(ncid, v, "units", "1"));
        NC_TRY(w, "writing attributes",
               put_text(ncid, v, "coordinates", NCS(w)->dim == 3 ? "x y z" : "x y"));
        NCS(w)->value_comp[c] = v;
    }
    NCS(w)->value = NCS(w)->value_comp[0];
    return 0;
}

/* Rows [first, first + count) of the value variable(s). */
static int put_point_values(tbrf_io_writer *w, int precision, int64_t first, int64_t count,
                            const void *values)
{
    const int nvar = w->ncomp > 1 ? w->ncomp : 1;
    const size_t elt = precision == TBRF_FLOAT ? sizeof(float) : sizeof(double);
    size_t st[1] = {(size_t)first}, cn[1] = {(size_t)count};
    void *col = nvar > 1 ? malloc((size_t)(count > 0 ? count : 1) * elt) : NULL;
    if (nvar > 1 && !col) {
        IO_FAIL(w, "out of memory");
        return -1;
    }
    static const double none = 0;
    int e = NC_NOERR;
    for (int c = 0; c < nvar && e == NC_NOERR; c++) {
        const void *v = count > 0 ? values : (const void *)&none;
        if (nvar > 1 && count > 0) {
            component(w, precision, values, (size_t)count, c, col);
            v = col;
        }
        errno = 0;
        e = par_access(w, NCS(w)->value_comp[c]);
        if (e == NC_NOERR)
            e = precision == TBRF_FLOAT
                ? nc_put_vara_float(NCS(w)->ncid, NCS(w)->value_comp[c], st, cn, (const float *)v)
                : nc_put_vara_double(NCS(w)->ncid, NCS(w)->value_comp[c], st, cn, (const double *)v);
    }
    free(col);
    return e == NC_NOERR ? 0 : nc_fail(w, "writing the values", e);
}

static int ncw_grid_push(tbrf_io_writer *w, int64_t first, int64_t count, const void *values)
{
    if (NCS(w)->field < 0) {
        IO_FAIL(w, "%s: no grid started", w->path);
        return -1;
    }
    if (nc_mpi(w))
        return grid_push_mpi(w, first, count, values);
    return io_grid_boxes(w, first, count, put_box, (void *)values);
}

/* The points' dimension "obs" of n (into *obs) and their dim coordinate
 * variables (into var) with their CF attributes, once per file: 0, or -1
 * with the message set. */
static int def_point_coords(tbrf_io_writer *w, int dim, int64_t n, int *obs, int var[3])
{
    if (NCS(w)->points_dim >= 0) {
        IO_FAIL(w, "%s: points already written", w->path);
        return -1;
    }
    int ncid = NCS(w)->ncid;
    NC_TRY(w, "defining dimensions", nc_def_dim(ncid, "obs", (size_t)n, obs));
    for (int c = 0; c < dim; c++) {
        char ln[64];
        snprintf(ln, sizeof ln, "%s coordinate of the point", AXES[c]);
        NC_TRY(w, "defining coordinates", nc_def_var(ncid, AXES[c], NC_DOUBLE, 1, obs, &var[c]));
        if (set_filters(w, var[c]))
            return -1;
        NC_TRY(w, "writing attributes", put_text(ncid, var[c], "axis", AXES_UP[c]));
        NC_TRY(w, "writing attributes", put_text(ncid, var[c], "units", "1"));
        NC_TRY(w, "writing attributes", put_text(ncid, var[c], "long_name", ln));
    }
    NC_TRY(w, "writing attributes", put_text(ncid, NC_GLOBAL, "featureType", "point"));
    return 0;
}

static int ncw_write_points(tbrf_io_writer *w, int dim, int64_t n, const double *xyz)
{
    int ncid = NCS(w)->ncid, obs, var[3];
    if (def_point_coords(w, dim, n, &obs, var))
        return -1;
    double *col = malloc((size_t)n * sizeof *col);
    if (!col) {
        IO_FAIL(w, "out of memory");
        return -1;
    }
    for (int c = 0; c < dim; c++) {
        for (int64_t i = 0; i < n; i++)
            col[i] = xyz[(size_t)dim * (size_t)i + (size_t)c];
        errno = 0;
        int st = nc_put_var_double(ncid, var[c], col);
        if (st != NC_NOERR) {
            free(col);
            return nc_fail(w, "writing coordinates", st);
        }
    }
    free(col);
    NCS(w)->points_dim = obs;
    NCS(w)->dim = dim;
    return 0;
}

static int ncw_write_values(tbrf_io_writer *w, int64_t n, int precision, const void *values)
{
    if (NCS(w)->points_dim < 0) {
        IO_FAIL(w, "%s: write the points before their values (netCDF needs the obs dimension)",
                w->path);
        return -1;
    }
    size_t len = 0;
    nc_inq_dimlen(NCS(w)->ncid, NCS(w)->points_dim, &len);
    if ((int64_t)len != n) {
        IO_FAIL(w, "%s: %lld values for %zu points", w->path, (long long)n, len);
        return -1;
    }
    if (def_point_values(w, NCS(w)->points_dim, precision))
        return -1;
    return put_point_values(w, precision, 0, n, values);
}

/* ------------------------------------------------------------ attributes */

/* The root attribute "geometry" is "tbrf_geometry" here: CF (1.8 on)
 * gives "geometry" its own meaning (a geometry container). */
static int nc_str(void *ctx, const char *name, const char *s)
{
    if (strcmp(name, "geometry") == 0)
        name = "tbrf_geometry";
    return s ? put_text(*(int *)ctx, NC_GLOBAL, name, s) : 0;
}

static int nc_f64v(void *ctx, const char *name, const double *v, int count)
{
    return nc_put_att_double(*(int *)ctx, NC_GLOBAL, name, NC_DOUBLE, (size_t)count, v);
}

static int nc_i64v(void *ctx, const char *name, const int64_t *v, int count)
{
    long long tmp[3];
    if (count > 3)
        return -1;
    for (int i = 0; i < count; i++)
        tmp[i] = v[i];
    return nc_put_att_longlong(*(int *)ctx, NC_GLOBAL, name, NC_INT64, (size_t)count, tmp);
}

static int nc_u64(void *ctx, const char *name, uint64_t v)
{
    unsigned long long u = v;
    return nc_put_att_ulonglong(*(int *)ctx, NC_GLOBAL, name, NC_UINT64, 1, &u);
}

/* Fills x, x_bnds, ... from the grid's origin and spacing, with the
 * same expression the library uses for cell positions, in blocks of
 * NC_COORD_BLOCK cells, so that an axis of any length (a tube of 10^9
 * cells) costs a fixed 1.5 MiB. */
#define NC_COORD_BLOCK ((int64_t)1 << 16)
static int write_coords(tbrf_io_writer *w, const tbrf_io_meta *m)
{
    double *v = malloc((size_t)NC_COORD_BLOCK * 3 * sizeof *v);
    if (!v) {
        IO_FAIL(w, "out of memory");
        return -1;
    }
    double *bnd = v + NC_COORD_BLOCK;
    int st = NC_NOERR;
    for (int c = 0; st == NC_NOERR && c < NCS(w)->dim; c++) {
        int var, bvar;
        char bname[16];
        snprintf(bname, sizeof bname, "%s_bnds", AXES[c]);
        errno = 0;
        st = nc_inq_varid(NCS(w)->ncid, AXES[c], &var);
        if (st == NC_NOERR)
            st = nc_inq_varid(NCS(w)->ncid, bname, &bvar);
        if (st == NC_NOERR)
            st = par_access(w, var);
        if (st == NC_NOERR)
            st = par_access(w, bvar);
        /* every rank makes the same calls; rank 0 alone writes (the
         * others: empty collective writes) */
        for (int64_t i0 = 0; st == NC_NOERR && i0 < w->n[c]; i0 += NC_COORD_BLOCK) {
            const int64_t nb = w->n[c] - i0 < NC_COORD_BLOCK ? w->n[c] - i0 : NC_COORD_BLOCK;
            for (int64_t k = 0; k < nb; k++) {
                v[k] = m->origin[c] + m->spacing[c] * (double)(i0 + k);
                bnd[2 * k] = v[k] - 0.5 * m->spacing[c];
                bnd[2 * k + 1] = v[k] + 0.5 * m->spacing[c];
            }
            const size_t s0[2] = {(size_t)i0, 0}, c1[1] = {nc_follower(w) ? 0 : (size_t)nb},
                         c2[2] = {nc_follower(w) ? 0 : (size_t)nb, 2};
            errno = 0;
            st = nc_put_vara_double(NCS(w)->ncid, var, s0, c1, v);
            if (st == NC_NOERR)
                st = nc_put_vara_double(NCS(w)->ncid, bvar, s0, c2, bnd);
        }
    }
    free(v);
    if (st != NC_NOERR)
        return nc_fail(w, "writing coordinates", st);
    return 0;
}

/* The CF global attributes every tbrf netCDF file has. */
static int cf_globals(tbrf_io_writer *w, const char *title)
{
    char src[64];
    snprintf(src, sizeof src, "tbrf %s (turning bands)", tbrf_version());
    NC_TRY(w, "writing attributes", put_text(NCS(w)->ncid, NC_GLOBAL, "Conventions", "CF-1.8"));
    NC_TRY(w, "writing attributes", put_text(NCS(w)->ncid, NC_GLOBAL, "title", title));
    NC_TRY(w, "writing attributes", put_text(NCS(w)->ncid, NC_GLOBAL, "source", src));
    return 0;
}

static int ncw_write_meta(tbrf_io_writer *w, const tbrf_io_meta *m)
{
    int ncid = NCS(w)->ncid;
    if (cf_globals(w, "Gaussian random field generated by tbrf"))
        return -1;
    if (m->command)
        NC_TRY(w, "writing attributes", put_text(ncid, NC_GLOBAL, "history", m->command));
    io_attr_sink sink = {&ncid, nc_str, nc_f64v, nc_i64v, nc_u64};
    if (io_meta_attrs(&sink, m)) {
        IO_FAIL(w, "cannot write %s: writing attributes failed", w->path);
        return -1;
    }
    if (m->is_grid && NCS(w)->field >= 0 && write_coords(w, m))
        return -1;
    if (m->table_n > 0 && m->table_k && m->table_p) {
        int d[2], var;
        NC_TRY(w, "writing the table", nc_def_dim(ncid, "table_row", m->table_n, &d[0]));
        NC_TRY(w, "writing the table", nc_def_dim(ncid, "table_col", 2, &d[1]));
        NC_TRY(w, "writing the table", nc_def_var(ncid, "model_table", NC_DOUBLE, 2, d, &var));
        NC_TRY(w, "writing attributes",
               put_text(ncid, var, "long_name", "tabulated spectrum: k, P(k) shape"));
        double *t = io_table_rows(w, m);
        if (!t)
            return -1;
        errno = 0;
        const size_t s0[2] = {0, 0}, cn[2] = {nc_follower(w) ? 0 : m->table_n, 2};
        int st = par_access(w, var);
        if (st == NC_NOERR)
            st = nc_put_vara_double(ncid, var, s0, cn, t);
        free(t);
        if (st != NC_NOERR)
            return nc_fail(w, "writing the table", st);
    }
    return 0;
}

/* The installed writer's files (tbrf_io_write_grid_record): its values
 * may be anything a program pushes (a simulation's density), so the
 * field's long_name and comment, which grid_begin wrote for a tbrf field,
 * are replaced by neutral ones, and only the grid is recorded. */
static int ncw_grid_record(tbrf_io_writer *w, const tbrf_io_meta *m)
{
    const int ncid = NCS(w)->ncid, d = m->dim;
    const char *comment = "values pushed through tbrf_writer, which records the grid, not how "
                          "they were made; cell (i,j,k) is at grid_origin + grid_spacing*(i,j,k)";
    if (cf_globals(w, "grid written by tbrf's streaming writer (tbrf_writer)"))
        return -1;
    NC_TRY(w, "writing attributes", put_text(ncid, NC_GLOBAL, "tbrf_version", tbrf_version()));
    NC_TRY(w, "writing attributes", put_text(ncid, NC_GLOBAL, "tbrf_geometry", "grid"));
    NC_TRY(w, "writing attributes",
           put_text(ncid, NC_GLOBAL, "precision", w->precision == TBRF_FLOAT ? "float" : "double"));
    NC_TRY(w, "writing attributes", nc_f64v((void *)&ncid, "grid_origin", m->origin, d));
    NC_TRY(w, "writing attributes", nc_f64v((void *)&ncid, "grid_spacing", m->spacing, d));
    NC_TRY(w, "writing attributes", nc_i64v((void *)&ncid, "grid_counts", m->n, d));
    const int nvar = w->ncomp > 1 ? w->ncomp : 1;
    for (int c = 0; c < nvar; c++) {
        NC_TRY(w, "writing attributes", put_text(ncid, NCS(w)->comp[c], "long_name", "values on the grid"));
        NC_TRY(w, "writing attributes", put_text(ncid, NCS(w)->comp[c], "comment", comment));
    }
    return write_coords(w, m);
}

static int ncw_close(tbrf_io_writer *w)
{
    if (!w->state || NCS(w)->ncid < 0)
        return 0;
    errno = 0;
    int st = nc_close(NCS(w)->ncid);
    NCS(w)->ncid = -1;
    NCS(w)->field = -1;
    if (st != NC_NOERR)
        return nc_fail(w, "closing the file", st);
    return 0;
}

static int ncw_points_begin(tbrf_io_writer *w, int dim, int64_t n, int precision)
{
    int obs, var[3];
    if (def_point_coords(w, dim, n, &obs, var))
        return -1;
    NCS(w)->points_dim = obs;
    NCS(w)->dim = dim;
    return def_point_values(w, obs, precision);
}

static int ncw_points_push(tbrf_io_writer *w, int64_t first, int64_t count, const double *xyz,
                           const void *values)
{
    int ncid = NCS(w)->ncid, dim = NCS(w)->dim;
    size_t st[1] = {(size_t)first}, cn[1] = {(size_t)count};
    double *col = malloc((size_t)(count > 0 ? count : 1) * sizeof *col);
    if (!col) {
        IO_FAIL(w, "out of memory");
        return -1;
    }
    for (int c = 0; c < dim; c++) {
        int var, e = nc_inq_varid(ncid, AXES[c], &var);
        for (int64_t i = 0; e == NC_NOERR && i < count; i++)
            col[i] = xyz[(size_t)dim * (size_t)i + (size_t)c];
        if (e == NC_NOERR)
            e = par_access(w, var);
        if (e == NC_NOERR) {
            errno = 0;
            e = nc_put_vara_double(ncid, var, st, cn, col);
        }
        if (e != NC_NOERR) {
            free(col);
            return nc_fail(w, "writing coordinates", e);
        }
    }
    free(col);
    return put_point_values(w, w->pts_precision, first, count, values);
}

static int ncw_mark_complete(tbrf_io_writer *w)
{
    const long long ranks = w->mpi_size; /* ranks that wrote it (HDF5: the same attribute) */
    NC_TRY(w, "marking the file complete", nc_put_att_longlong(NCS(w)->ncid, NC_GLOBAL, "mpi_ranks", NC_INT64, 1, &ranks));
    NC_TRY(w, "marking the file complete", put_text(NCS(w)->ncid, NC_GLOBAL, "tbrf_complete", "yes"));
    return 0;
}

static void ncw_release(tbrf_io_writer *w)
{
    free(w->state);
    w->state = NULL;
}

static void ncw_objects(int is_grid, int dim, int ncomp, char *values, size_t vlen,
                        char *positions, size_t plen)
{
    /* one variable per component (CF has no vector variable) */
    const char *base = is_grid ? "field" : "value";
    if (ncomp > 1)
        snprintf(values, vlen, "%s_x, %s_y%s%s%s", base, base, ncomp == 3 ? ", " : "",
                 ncomp == 3 ? base : "", ncomp == 3 ? "_z" : "");
    else
        snprintf(values, vlen, "%s", base);
    snprintf(positions, plen, "%s", is_grid ? "" : dim == 3 ? "x, y, z" : "x, y");
}

static int ncw_series_begin(tbrf_io_writer *w, int dim, int nc, int64_t nt, const int64_t n[3],
                            int64_t npts, const double *xyz)
{
    (void)dim, (void)nc, (void)nt, (void)n, (void)npts, (void)xyz;
    return io_format_refuse(w, "a time series (write it as HDF5)");
}

static int ncw_series_step(tbrf_io_writer *w, int64_t it, double t, int64_t first, int64_t count,
                           const double *values)
{
    (void)it, (void)t, (void)first, (void)count, (void)values;
    return io_format_refuse(w, "a time series (write it as HDF5)");
}

static int ncw_series_attr(tbrf_io_writer *w, const char *name, int kind, int count,
                           const void *v)
{
    (void)name, (void)kind, (void)count, (void)v;
    return io_format_refuse(w, "a time series (write it as HDF5)");
}

static int ncw_arepo_write(tbrf_io_writer *w, const struct tbrf_arepo_header *h,
                           const struct tbrf_arepo_particles *totals,
                           const struct tbrf_arepo_particles *types, int f,
                           const struct tbrf_arepo_param *params, size_t nparams,
                           uint64_t *digest, char *err, size_t errlen)
{
    (void)h, (void)totals, (void)types, (void)f, (void)params, (void)nparams, (void)digest;
    io_format_refuse(w, "AREPO initial conditions (AREPO reads HDF5 or Gadget files)");
    io_setf(err, errlen, "%s", w->message);
    return -1;
}

static int ncw_arepo_record(tbrf_io_writer *w, int f, int nf, const char *digest,
                            const char *format, const uint64_t *rows)
{
    (void)f, (void)nf, (void)digest, (void)format, (void)rows;
    return io_format_refuse(w, "AREPO initial conditions (AREPO reads HDF5 or Gadget files)");
}

const io_format_ops io_netcdf_ops = {
    .name = "netcdf",
    .title = "netCDF-4",
    .suffix = ".nc",
    .xdmf = 0,
    .load = ncw_load,
    .initialize = ncw_initialize,
    .create = ncw_create,
    .grid_begin = ncw_grid_begin,
    .grid_push = ncw_grid_push,
    .write_points = ncw_write_points,
    .write_values = ncw_write_values,
    .write_meta = ncw_write_meta,
    .grid_record = ncw_grid_record,
    .close = ncw_close,
    .mark_complete = ncw_mark_complete,
    .points_begin = ncw_points_begin,
    .points_push = ncw_points_push,
    .series_begin = ncw_series_begin,
    .series_step = ncw_series_step,
    .series_attr = ncw_series_attr,
    .arepo_write = ncw_arepo_write,
    .arepo_record = ncw_arepo_record,
    .objects = ncw_objects,
    .release = ncw_release,
};
