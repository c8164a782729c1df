/* netcdf_reader.c — the netCDF format's reader (io_netcdf_reader,
 * io_reader.h): files tbrf wrote as netCDF-4 (CF-1.8, netcdf_writer.c)
 * and netCDF files of other tools, read through netCDF itself (loaded on
 * first use, io/nc_load.h) rather than as HDF5, so that a classic file
 * reads as well as a netCDF-4 one and every message names netCDF's
 * objects: variables (field, field_x, value, x, y, z, model_table),
 * dimensions and global attributes. What a netCDF-4 file stores underneath
 * is HDF5's to check (io_h5_check_stored). */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <netcdf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "io/io_internal.h"
#include "io/io_reader.h"
#include "io/nc_load.h"
#include "io/tbrf_io.h"

/* netCDF loaded and initialised, outside any io_quiet window
 * (netcdf_writer.c says why). 0, or -1 with err set. */
static int ready(char *err, size_t errlen)
{
    if (io_nc_load(err, errlen))
        return -1;
    nc_initialize();
    return 0;
}

static int ncr_probe(const char *path, const unsigned char *magic, size_t got)
{
    static const unsigned char h5sig[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};
    if (got >= 4 && memcmp(magic, "CDF", 3) == 0 &&
        (magic[3] == 1 || magic[3] == 2 || magic[3] == 5))
        return 1;
    /* netCDF-4 is HDF5 underneath: the files netCDF made carry its mark */
    return got == 8 && memcmp(magic, h5sig, 8) == 0 && io_h5_is_netcdf4(path);
}

/* An open file: ncid, -1 when none. 0, or -1 with err naming path. */
static int open_nc(const char *path, int *ncid, char *err, size_t errlen)
{
    *ncid = -1;
    if (ready(err, errlen))
        return -1;
    int st = nc_open(path, NC_NOWRITE, ncid);
    if (st != NC_NOERR) {
        *ncid = -1;
        io_setf(err, errlen, "cannot open netCDF file %s: %s", path, nc_strerror(st));
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------ metadata */

typedef struct ncr_file {
    int ncid;
} ncr_file;

static void *ncr_open(const char *path, char *err, size_t errlen)
{
    if (!path || !path[0]) {
        io_setf(err, errlen, "no input file name given");
        return NULL;
    }
    if (io_stat_input(path, "input", err, errlen))
        return NULL;
    int ncid;
    if (open_nc(path, &ncid, err, errlen))
        return NULL;
    ncr_file *f = malloc(sizeof *f);
    if (!f) {
        nc_close(ncid);
        io_setf(err, errlen, "out of memory");
        return NULL;
    }
    f->ncid = ncid;
    return f;
}

static void ncr_close(void *h)
{
    ncr_file *f = h;
    if (f)
        nc_close(f->ncid);
    free(f);
}

static int is_signed_int(nc_type t)
{
    return t == NC_BYTE || t == NC_SHORT || t == NC_INT || t == NC_INT64;
}

static int is_unsigned_int(nc_type t)
{
    return t == NC_UBYTE || t == NC_USHORT || t == NC_UINT || t == NC_UINT64;
}

/* As the HDF5 reader's: at most max (<= 16) numbers, floating-point ones
 * as doubles, integers in their own signedness, refused when they do not
 * fit the type asked for. */
static int ncr_attr_num(void *h, const char *name, int as, void *v, int max)
{
    const int ncid = ((ncr_file *)h)->ncid;
    nc_type t;
    size_t len;
    int st = nc_inq_att(ncid, NC_GLOBAL, name, &t, &len);
    if (st == NC_ENOTATT)
        return 0;
    if (st != NC_NOERR || len < 1 || (int64_t)len > max || max > 16)
        return -1;
    if (as == IO_AS_F64)
        return (t == NC_FLOAT || t == NC_DOUBLE) &&
                       nc_get_att_double(ncid, NC_GLOBAL, name, v) == NC_NOERR
                   ? (int)len : -1;
    if (is_unsigned_int(t)) {
        unsigned long long u[16];
        if (nc_get_att_ulonglong(ncid, NC_GLOBAL, name, u) != NC_NOERR)
            return -1;
        for (size_t i = 0; i < len; i++) {
            if (as == IO_AS_I64 && u[i] > (unsigned long long)INT64_MAX)
                return -1;
            ((uint64_t *)v)[i] = (uint64_t)u[i];
        }
        return (int)len;
    }
    if (!is_signed_int(t))
        return -1;
    long long s[16];
    if (nc_get_att_longlong(ncid, NC_GLOBAL, name, s) != NC_NOERR)
        return -1;
    for (size_t i = 0; i < len; i++) {
        if (as == IO_AS_U64 && s[i] < 0)
            return -1;
        ((int64_t *)v)[i] = (int64_t)s[i];
    }
    return (int)len;
}

/* A text attribute (NC_CHAR, as the writer makes them) or one string
 * (NC_STRING, as HDF5 tools rewriting a netCDF-4 file make them); an
 * array of strings is refused. */
static int att_string(int ncid, int var, const char *name, char **out)
{
    *out = NULL;
    nc_type t;
    size_t len;
    int st = nc_inq_att(ncid, var, name, &t, &len);
    if (st == NC_ENOTATT)
        return 0;
    if (st != NC_NOERR)
        return -1;
    if (t == NC_CHAR) {
        if (len > TBRF_IO_MAX_STRING || !(*out = calloc(len + 1, 1)))
            return -1;
        if (len > 0 && nc_get_att_text(ncid, var, name, *out) != NC_NOERR) {
            free(*out);
            *out = NULL;
            return -1;
        }
        return 1;
    }
    if (t != NC_STRING || len != 1)
        return -1;
    char *s = NULL;
    if (nc_get_att_string(ncid, var, name, &s) != NC_NOERR)
        return -1;
    size_t n = s ? strnlen(s, TBRF_IO_MAX_STRING + 1) : 0;
    if (n <= TBRF_IO_MAX_STRING && (*out = malloc(n + 1)) != NULL) {
        memcpy(*out, s ? s : "", n);
        (*out)[n] = '\0';
    }
    nc_free_string(1, &s);
    return *out ? 1 : -1;
}

static int ncr_attr_str(void *h, const char *name, char **out)
{
    return att_string(((ncr_file *)h)->ncid, NC_GLOBAL, name, out);
}

/* A variable's shape: rank (<= 4) and lengths, slowest first; 0 or -1. */
static int var_shape(int ncid, int var, int *nd, size_t len[4], nc_type *type)
{
    int dimids[NC_MAX_VAR_DIMS];
    if (nc_inq_varndims(ncid, var, nd) != NC_NOERR || *nd < 0 || *nd > 4 ||
        nc_inq_vardimid(ncid, var, dimids) != NC_NOERR || nc_inq_vartype(ncid, var, type) != NC_NOERR)
        return -1;
    for (int i = 0; i < *nd; i++)
        if (nc_inq_dimlen(ncid, dimids[i], &len[i]) != NC_NOERR)
            return -1;
    return 0;
}

static int ncr_table(void *h, size_t *n, double **k, double **p)
{
    const int ncid = ((ncr_file *)h)->ncid;
    int var, nd;
    size_t len[4];
    nc_type t;
    if (nc_inq_varid(ncid, "model_table", &var) != NC_NOERR || var_shape(ncid, var, &nd, len, &t) ||
        nd != 2 || len[1] != 2 || len[0] < 2 || len[0] > TBRF_IO_MAX_TABLE_ROWS ||
        (t != NC_FLOAT && t != NC_DOUBLE))
        return -1;
    double *v = malloc(len[0] * 2 * sizeof *v);
    *k = malloc(len[0] * sizeof **k);
    *p = malloc(len[0] * sizeof **p);
    int rc = -1;
    if (v && *k && *p && nc_get_var_double(ncid, var, v) == NC_NOERR) {
        for (size_t i = 0; i < len[0]; i++) {
            (*k)[i] = v[2 * i];
            (*p)[i] = v[2 * i + 1];
        }
        *n = len[0];
        rc = 0;
    }
    free(v);
    if (rc) {
        free(*k);
        free(*p);
        *k = *p = NULL;
    }
    return rc;
}

/* ---------------------------------------------------------------- grid */

/* The grid's variables: field, or field_x, field_y[, field_z] (one per
 * component, CF having no vector variable). */
static const char *part_name(const tbrf_io_layout *L, int c)
{
    static const char *const SPLIT[3] = {"field_x", "field_y", "field_z"};
    return L->split ? SPLIT[c] : "field";
}

/* Variable `name` of a grid: (z, y, x) or (y, x) of floating-point
 * numbers; its counts x fastest into n. 0, or -1 with err set. */
static int grid_var(int ncid, const char *path, const char *name, int *var, int *nd, int64_t n[3],
                    char *err, size_t errlen)
{
    size_t len[4];
    nc_type t;
    if (nc_inq_varid(ncid, name, var) != NC_NOERR) {
        io_setf(err, errlen, "%s has no variable %s", path, name);
        return -1;
    }
    if (var_shape(ncid, *var, nd, len, &t) || (*nd != 2 && *nd != 3)) {
        io_setf(err, errlen, "%s: variable %s must be (z, y, x) or (y, x)", path, name);
        return -1;
    }
    if (t != NC_FLOAT && t != NC_DOUBLE) {
        io_setf(err, errlen, "%s: variable %s must hold floating-point numbers (float or double)",
                path, name);
        return -1;
    }
    n[2] = 1;
    for (int i = 0; i < *nd; i++) {
        n[i] = (int64_t)len[*nd - 1 - i];
        if (n[i] < 1) {
            io_setf(err, errlen, "%s: variable %s has an empty dimension", path, name);
            return -1;
        }
    }
    return 0;
}

static int ncr_grid_layout(const char *path, tbrf_io_layout *L, char *err, size_t errlen)
{
    if (!L) {
        io_setf(err, errlen, "tbrf_io_grid_layout: NULL argument");
        return -1;
    }
    memset(L, 0, sizeof *L);
    int ncid, var, nd;
    if (open_nc(path, &ncid, err, errlen))
        return -1;
    int rc = -1;
    L->split = nc_inq_varid(ncid, "field", &var) != NC_NOERR &&
               nc_inq_varid(ncid, "field_x", &var) == NC_NOERR;
    if (grid_var(ncid, path, part_name(L, 0), &var, &nd, L->n, err, errlen))
        goto done;
    L->dim = nd;
    L->ncomp = 1;
    for (int c = 1; L->split && c < 3; c++) {
        int64_t m[3];
        int v2, nd2;
        if (c == 2 && nd == 2 && nc_inq_varid(ncid, "field_z", &v2) != NC_NOERR)
            break; /* a 2D vector: two components */
        if (grid_var(ncid, path, part_name(L, c), &v2, &nd2, m, err, errlen))
            goto done;
        if (nd2 != nd || memcmp(m, L->n, sizeof m) != 0) {
            io_setf(err, errlen, "%s: variable %s has another shape than field_x", path,
                    part_name(L, c));
            goto done;
        }
        L->ncomp++;
    }
    if (L->split && L->ncomp < 2) {
        io_setf(err, errlen, "%s: variable field_x without field_y", path);
        goto done;
    }
    const char *names[3] = {part_name(L, 0), part_name(L, 1), part_name(L, 2)};
    rc = io_h5_check_stored(path, names, L->ncomp, err, errlen);
done:
    nc_close(ncid);
    return rc;
}

/* Part of variable var: the whole grid (axis -1) or the plane `index`
 * across axis, x fastest, into v. NC_NOERR or netCDF's status. */
static int read_var_part(int ncid, int var, const tbrf_io_layout *L, int axis, int64_t index,
                         double *v)
{
    size_t start[3] = {0, 0, 0}, count[3];
    const int nd = L->dim;
    for (int i = 0; i < nd; i++)
        count[i] = (size_t)L->n[nd - 1 - i]; /* slowest first */
    if (axis >= 0 && axis < nd) {
        start[nd - 1 - axis] = (size_t)index;
        count[nd - 1 - axis] = 1;
    }
    return nc_get_vara_double(ncid, var, start, count, v);
}

/* The checks of a part (the HDF5 reader's, with its messages); the cells
 * read into *cells. 0, or -1 with err set. */
static int part_check(const char *path, const tbrf_io_layout *L, int64_t frame, int axis,
                      int64_t index, int comp, int64_t *cells, char *err, size_t errlen)
{
    if (!L || axis < -1 || axis > 2 || (axis >= L->dim) ||
        (comp != TBRF_IO_ALL_COMPONENTS && comp != TBRF_IO_MAGNITUDE &&
         (comp < 0 || comp >= L->ncomp))) {
        io_setf(err, errlen, "tbrf_io_read_grid_part: bad arguments");
        return -1;
    }
    if (frame != 0 || L->nt > 0) {
        io_setf(err, errlen, "%s: frame %lld is not one of the file's 1 (netCDF files hold no "
                "series)", path, (long long)frame);
        return -1;
    }
    if (axis >= 0 && (index < 0 || index >= L->n[axis])) {
        io_setf(err, errlen, "%s: --index %lld is outside 0..%lld along %c", path,
                (long long)index, (long long)(L->n[axis] - 1), 'x' + axis);
        return -1;
    }
    *cells = 1;
    for (int a = 0; a < 3; a++)
        *cells *= a == axis ? 1 : L->n[a];
    const int per = comp >= 0 ? 1 : L->ncomp;
    const double bytes = 8.0 * (double)*cells * per * (per > 1 ? 2 : 1);
    if ((double)*cells * per > (double)(SIZE_MAX / sizeof(double) / 2)) {
        io_setf(err, errlen, "%s: not enough memory to read the grid", path);
        return -1;
    }
    return tbrf_io_budget_check(path, "reading the grid", bytes, err, errlen);
}

static int ncr_grid_part(const char *path, const tbrf_io_layout *L, int64_t frame, int axis,
                         int64_t index, int comp, double **values, char *err, size_t errlen)
{
    int64_t cells;
    if (!values) {
        io_setf(err, errlen, "tbrf_io_read_grid_part: bad arguments");
        return -1;
    }
    *values = NULL;
    if (part_check(path, L, frame, axis, index, comp, &cells, err, errlen))
        return -1;
    const int all = comp == TBRF_IO_ALL_COMPONENTS || comp == TBRF_IO_MAGNITUDE;
    const int nc = all ? L->ncomp : 1;
    int ncid, rc = -1;
    if (open_nc(path, &ncid, err, errlen))
        return -1;
    double *out = malloc((size_t)cells * (size_t)nc * sizeof *out);
    double *col = nc > 1 ? malloc((size_t)cells * sizeof *col) : NULL;
    if (!out || (nc > 1 && !col)) {
        io_setf(err, errlen, "%s: out of memory for the field", path);
        goto done;
    }
    for (int c = 0; c < nc; c++) {
        const int which = all ? c : (L->ncomp > 1 ? comp : 0);
        int var, st = nc_inq_varid(ncid, part_name(L, L->split ? which : 0), &var);
        if (st == NC_NOERR)
            st = read_var_part(ncid, var, L, axis, index, nc > 1 ? col : out);
        if (st != NC_NOERR) {
            io_setf(err, errlen, "%s: cannot read variable %s: %s", path,
                    part_name(L, L->split ? which : 0), nc_strerror(st));
            goto done;
        }
        for (int64_t i = 0; nc > 1 && i < cells; i++)
            out[i * nc + c] = col[i];
    }
    if (comp == TBRF_IO_MAGNITUDE)
        for (int64_t i = 0; i < cells; i++) {
            double s = 0;
            for (int c = 0; c < nc; c++)
                s += out[i * nc + c] * out[i * nc + c];
            out[i] = sqrt(s);
        }
    *values = out;
    out = NULL;
    rc = 0;
done:
    free(out);
    free(col);
    nc_close(ncid);
    return rc;
}

static int ncr_times(const char *path, int64_t *nt, double **t, char *err, size_t errlen)
{
    (void)nt;
    *t = NULL;
    io_setf(err, errlen, "%s is a netCDF file: it holds no series (no variable time; tbrf drive "
            "writes HDF5)", path);
    return -1;
}

static int ncr_units(const char *path, const char *name, char *buf, size_t len)
{
    if (len > 0)
        buf[0] = '\0';
    char err[8];
    int ncid, var, got = 0;
    if (open_nc(path, &ncid, err, sizeof err))
        return 0;
    char *s = NULL;
    if (nc_inq_varid(ncid, name[0] == '/' ? name + 1 : name, &var) == NC_NOERR &&
        att_string(ncid, var, "units", &s) == 1) {
        snprintf(buf, len, "%s", s);
        got = 1;
    }
    free(s);
    nc_close(ncid);
    return got;
}

static int ncr_field_shape(const char *path, int64_t n[3], char *err, size_t errlen)
{
    return io_generic_field_shape(&io_netcdf_reader, path, n, err, errlen);
}

static int ncr_read_field(const char *path, int64_t n[3], double **values, char *err,
                          size_t errlen)
{
    return io_generic_read_field(&io_netcdf_reader, path, n, values, err, errlen);
}

static int ncr_read_slice(const char *path, int axis, int64_t index, int64_t *w, int64_t *h,
                          double **values, char *err, size_t errlen)
{
    return io_generic_read_slice(&io_netcdf_reader, path, axis, index, w, h, values, err, errlen);
}

/* -------------------------------------------------------------- values */

/* The values of a points file, value or value_x, value_y[, value_z] over
 * its points, interleaved per point. 0 or -1. */
static int point_values(const char *path, int *ncomp, int64_t *npos, double **values, char *err,
                        size_t errlen)
{
    static const char *const SPLIT[3] = {"value_x", "value_y", "value_z"};
    int ncid, var[3], nd, rc = -1, nc = 0;
    size_t len[4], n = 0;
    nc_type t;
    *values = NULL;
    if (open_nc(path, &ncid, err, errlen))
        return -1;
    if (nc_inq_varid(ncid, "value", &var[0]) == NC_NOERR)
        nc = 1;
    else
        while (nc < 3 && nc_inq_varid(ncid, SPLIT[nc], &var[nc]) == NC_NOERR)
            nc++;
    if (nc == 0 || (nc == 1 && nc_inq_varid(ncid, "value", &var[0]) != NC_NOERR)) {
        io_setf(err, errlen, "%s has no variable field or value (nor field_x, value_x)", path);
        goto done;
    }
    for (int c = 0; c < nc; c++) {
        const char *name = nc == 1 ? "value" : SPLIT[c];
        if (var_shape(ncid, var[c], &nd, len, &t) || nd != 1 || len[0] < 1 ||
            (t != NC_FLOAT && t != NC_DOUBLE) || (c > 0 && len[0] != n)) {
            io_setf(err, errlen, "%s: variable %s must be one-dimensional floating-point numbers, "
                    "one per point", path, name);
            goto done;
        }
        n = len[0];
    }
    const char *names[3] = {nc == 1 ? "value" : SPLIT[0], SPLIT[1], SPLIT[2]};
    if (io_h5_check_stored(path, names, nc, err, errlen) ||
        tbrf_io_budget_check(path, "the values", (double)n * nc * 16.0, err, errlen))
        goto done;
    double *out = malloc(n * (size_t)nc * sizeof *out), *col = malloc(n * sizeof *col);
    for (int c = 0; out && col && c < nc; c++) {
        if (nc_get_var_double(ncid, var[c], col) != NC_NOERR)
            break;
        for (size_t i = 0; i < n; i++)
            out[i * (size_t)nc + (size_t)c] = col[i];
        if (c == nc - 1)
            rc = 0;
    }
    free(col);
    if (rc) {
        free(out);
        io_setf(err, errlen, "%s: cannot read the values (variable %s)", path, names[0]);
        goto done;
    }
    *values = out;
    *ncomp = nc;
    *npos = (int64_t)n;
done:
    nc_close(ncid);
    return rc;
}

static int ncr_vector(const char *path, int *ncomp, int64_t *npos, double **values, char *err,
                      size_t errlen)
{
    if (!ncomp || !npos || !values) {
        io_setf(err, errlen, "tbrf_io_read_vector: NULL argument");
        return -1;
    }
    *values = NULL;
    int ncid, var;
    if (open_nc(path, &ncid, err, errlen))
        return -1;
    const int grid = nc_inq_varid(ncid, "field", &var) == NC_NOERR ||
                     nc_inq_varid(ncid, "field_x", &var) == NC_NOERR;
    nc_close(ncid);
    if (!grid)
        return point_values(path, ncomp, npos, values, err, errlen);
    tbrf_io_layout L;
    if (ncr_grid_layout(path, &L, err, errlen) ||
        ncr_grid_part(path, &L, 0, -1, 0, TBRF_IO_ALL_COMPONENTS, values, err, errlen))
        return -1;
    *ncomp = L.ncomp;
    *npos = L.n[0] * L.n[1] * L.n[2];
    return 0;
}

static int ncr_values(const char *path, int64_t *n, double **values, char *err, size_t errlen)
{
    int nc = 0;
    if (!n || !values) {
        io_setf(err, errlen, "tbrf_io_read_values: NULL argument");
        return -1;
    }
    if (point_values(path, &nc, n, values, err, errlen))
        return -1;
    if (nc != 1) {
        free(*values);
        *values = NULL;
        io_setf(err, errlen, "%s holds vector values (value_x, ...), not one value per point",
                path);
        return -1;
    }
    return 0;
}

/* --------------------------------------------------------------- points */


/* The value that marks an unwritten element of netCDF variable var (its
 * _FillValue, or netCDF's default fill for its type), as a double; NaN
 * when the variable has no fill (NC_NOFILL). */
static double nc_fill_of(int ncid, int var, nc_type type)
{
    int no_fill = 0;
    if (type == NC_FLOAT) {
        float fv = NC_FILL_FLOAT;
        if (nc_inq_var_fill(ncid, var, &no_fill, &fv) != NC_NOERR)
            fv = NC_FILL_FLOAT;
        return no_fill ? NAN : (double)fv;
    }
    double dv = NC_FILL_DOUBLE;
    if (nc_inq_var_fill(ncid, var, &no_fill, &dv) != NC_NOERR)
        dv = NC_FILL_DOUBLE;
    return no_fill ? NAN : dv;
}

/* What a points file stores against the len points of dm coordinates it
 * declares: a classic file holds every value it declares (at least one
 * byte each), so a small file declaring many points is refused before it
 * is read; netCDF-4 files get the HDF5 check of what is stored. 0, or -1
 * with the message in err. */
static int nc_points_stored(int ncid, const char *path, size_t len, int dm,
                            const char *const names[3], char *err, size_t errlen)
{
    int format = 0;
    if (nc_inq_format(ncid, &format) == NC_NOERR &&
        (format == NC_FORMAT_CLASSIC || format == NC_FORMAT_64BIT_OFFSET ||
         format == NC_FORMAT_CDF5)) {
        struct stat sb;
        if (stat(path, &sb) == 0 && (double)sb.st_size < (double)len * dm) {
            io_setf(err, errlen, "%s: declares %zu points but the file has only %lld bytes", path,
                    len, (long long)sb.st_size);
            return -1;
        }
        return 0;
    }
    return io_h5_check_stored(path, names, dm, err, errlen);
}

/* Reads coordinate c (variable var, called name, fill value fill) of the
 * len points through col into buf (dm numbers a point), refusing values
 * that are not finite or never written. 0, or -1 with the message in err. */
static int nc_points_column(int ncid, int var, const char *name, double fill, int c, int dm,
                            size_t len, double *col, double *buf, const char *path, char *err,
                            size_t errlen)
{
    int st = nc_get_var_double(ncid, var, col);
    if (st != NC_NOERR) {
        io_setf(err, errlen, "%s: cannot read variable %s: %s", path, name, nc_strerror(st));
        return -1;
    }
    for (size_t i = 0; i < len; i++) {
        if (!isfinite(col[i])) {
            io_setf(err, errlen, "%s: point %zu has a%s %s coordinate", path, i,
                    isnan(col[i]) ? " NaN" : "n infinite", name);
            return -1;
        }
        if (col[i] == fill) {
            io_setf(err, errlen, "%s: point %zu has the fill value %g as its %s coordinate "
                    "(never written)", path, i, fill, name);
            return -1;
        }
        buf[i * (size_t)dm + (size_t)c] = col[i];
    }
    return 0;
}

int io_nc_read_points(const char *path, int *dim, int64_t *n, double **xyz, char *err,
                          size_t errlen)
{
    if (io_nc_load(err, errlen))
        return -1;
    int ncid, st = nc_open(path, NC_NOWRITE, &ncid);
    if (st != NC_NOERR) {
        io_setf(err, errlen, "cannot open points file %s: %s", path, nc_strerror(st));
        return -1;
    }
    int rc = -1, var[3], dm = 0;
    size_t len = 0;
    double *col = NULL, *buf = NULL, fill[3];
    static const char *const names[3] = {"x", "y", "z"};
    for (int c = 0; c < 3; c++) {
        if (nc_inq_varid(ncid, names[c], &var[c]) != NC_NOERR)
            break;
        int nd = 0, dimid;
        size_t l = 0;
        nc_type type = NC_NAT;
        if ((st = nc_inq_varndims(ncid, var[c], &nd)) != NC_NOERR || nd != 1) {
            io_setf(err, errlen, "%s: variable %s must be one-dimensional%s%s", path, names[c],
                    st ? ": " : "", st ? nc_strerror(st) : "");
            goto done;
        }
        if ((st = nc_inq_vartype(ncid, var[c], &type)) != NC_NOERR ||
            (st = nc_inq_vardimid(ncid, var[c], &dimid)) != NC_NOERR ||
            (st = nc_inq_dimlen(ncid, dimid, &l)) != NC_NOERR) {
            io_setf(err, errlen, "%s: cannot read the shape of variable %s: %s", path, names[c],
                    nc_strerror(st));
            goto done;
        }
        /* As for HDF5 /points: coordinates are floating-point numbers. */
        if (type != NC_FLOAT && type != NC_DOUBLE) {
            io_setf(err, errlen, "%s: variable %s must hold floating-point numbers (float or "
                    "double), not %s", path, names[c], type == NC_CHAR || type == NC_STRING
                                                           ? "text" : "integers or other types");
            goto done;
        }
        if (c > 0 && l != len) {
            io_setf(err, errlen, "%s: variables x and %s have different lengths (%zu, %zu)", path,
                    names[c], len, l);
            goto done;
        }
        fill[c] = nc_fill_of(ncid, var[c], type);
        len = l;
        dm = c + 1;
    }
    if (dm < 2) {
        io_setf(err, errlen, "%s has no /points dataset and no x, y[, z] variables", path);
        goto done;
    }
    if (len == 0 || len > SIZE_MAX / sizeof(double) / 4) {
        io_setf(err, errlen, len ? "%s: too many points" : "%s: x, y, z hold no points", path);
        goto done;
    }
    char what[64];
    snprintf(what, sizeof what, "%zu points", len);
    if (tbrf_io_budget_check(path, what, 8.0 * (double)len * (dm + 1), err, errlen))
        goto done;
    if (nc_points_stored(ncid, path, len, dm, names, err, errlen))
        goto done;
    col = malloc(len * sizeof *col);
    buf = malloc(len * (size_t)dm * sizeof *buf);
    if (!col || !buf) {
        io_setf(err, errlen, "%s: not enough memory for %zu points", path, len);
        goto done;
    }
    for (int c = 0; c < dm; c++)
        if (nc_points_column(ncid, var[c], names[c], fill[c], c, dm, len, col, buf, path, err,
                             errlen))
            goto done;
    *dim = dm;
    *n = (int64_t)len;
    *xyz = buf;
    buf = NULL;
    rc = 0;
done:
    free(col);
    free(buf);
    nc_close(ncid);
    return rc;
}


static int ncr_points(const char *path, int *dim, int64_t *n, double **xyz, char *err,
                      size_t errlen)
{
    if (ready(err, errlen))
        return -1;
    return io_nc_read_points(path, dim, n, xyz, err, errlen);
}

/* ----------------------------------------------------------------- info */

#define INFO_SHOWN 16 /* array attributes: elements printed before "..." */

static const char *type_name(nc_type t)
{
    switch (t) {
    case NC_BYTE: return "int8";
    case NC_UBYTE: return "uint8";
    case NC_CHAR: return "char";
    case NC_SHORT: return "int16";
    case NC_USHORT: return "uint16";
    case NC_INT: return "int32";
    case NC_UINT: return "uint32";
    case NC_INT64: return "int64";
    case NC_UINT64: return "uint64";
    case NC_FLOAT: return "float32";
    case NC_DOUBLE: return "float64";
    case NC_STRING: return "string";
    default: return "other";
    }
}

/* One attribute of var: "name = value" (strings quoted and escaped,
 * arrays in brackets, at most INFO_SHOWN numbers). */
static void put_att(FILE *out, int ncid, int var, int i, const char *indent)
{
    char name[NC_MAX_NAME + 1];
    nc_type t;
    size_t len;
    if (nc_inq_attname(ncid, var, i, name) != NC_NOERR ||
        nc_inq_att(ncid, var, name, &t, &len) != NC_NOERR)
        return;
    fprintf(out, "%s", indent);
    io_put_escaped(out, name);
    fprintf(out, "%*s= ", (int)(strlen(name) < 19 ? 19 - strlen(name) : 1), "");
    char *s = NULL;
    if (t == NC_CHAR || t == NC_STRING) {
        if (att_string(ncid, var, name, &s) == 1) {
            fputc('"', out);
            io_put_escaped(out, s);
            fputc('"', out);
        } else {
            fprintf(out, "(%zu strings)", len);
        }
        free(s);
        fputc('\n', out);
        return;
    }
    double v[INFO_SHOWN];
    size_t shown = len < INFO_SHOWN ? len : INFO_SHOWN;
    double *all = len > 0 && len <= (1u << 16) ? malloc(len * sizeof *all) : NULL;
    if (all && nc_get_att_double(ncid, var, name, all) == NC_NOERR) {
        memcpy(v, all, shown * sizeof *v);
        fputs(len > 1 ? "[" : "", out);
        for (size_t k = 0; k < shown; k++) {
            fputs(k ? ", " : "", out);
            io_put_double(out, v[k]);
        }
        fputs(len > shown ? ", ...]" : len > 1 ? "]" : "", out);
        fprintf(out, "  (%s)", type_name(t));
    } else {
        fprintf(out, "(%zu values of %s)", len, type_name(t));
    }
    free(all);
    fputc('\n', out);
}

/* One variable: name, type, dimensions (name length), chunks and
 * filters, then its attributes. */
static void put_var(FILE *out, int ncid, int var)
{
    char name[NC_MAX_NAME + 1], dname[NC_MAX_NAME + 1];
    nc_type t;
    int nd, dimids[NC_MAX_VAR_DIMS], natts;
    if (nc_inq_var(ncid, var, name, &t, &nd, dimids, &natts) != NC_NOERR)
        return;
    fputs("  ", out);
    io_put_escaped(out, name);
    fprintf(out, "%*s%-8s (", (int)(strlen(name) < 16 ? 16 - strlen(name) : 1), "",
            type_name(t));
    for (int i = 0; i < nd; i++) {
        size_t len = 0;
        nc_inq_dim(ncid, dimids[i], dname, &len);
        fprintf(out, "%s", i ? ", " : "");
        io_put_escaped(out, dname);
        fprintf(out, " %zu", len);
    }
    fputc(')', out);
    int storage = 0, shuffle = 0, deflate = 0, level = 0;
    size_t chunks[NC_MAX_VAR_DIMS];
    if (nd > 0 && nd <= 8 && nc_inq_var_chunking(ncid, var, &storage, chunks) == NC_NOERR &&
        storage == NC_CHUNKED) {
        fputs("  chunks (", out);
        for (int i = 0; i < nd; i++)
            fprintf(out, "%s%zu", i ? ", " : "", chunks[i]);
        fputc(')', out);
    }
    if (nc_inq_var_deflate(ncid, var, &shuffle, &deflate, &level) == NC_NOERR && deflate)
        fprintf(out, "  %sdeflate(%d)", shuffle ? "shuffle+" : "", level);
    fputc('\n', out);
    for (int i = 0; i < natts && i < 64; i++)
        put_att(out, ncid, var, i, "      ");
}

static int ncr_info(const char *path, FILE *out, char *err, size_t errlen)
{
    int ncid, format = 0, ndims, nvars, natts, unlim;
    if (open_nc(path, &ncid, err, errlen))
        return -1;
    if (nc_inq(ncid, &ndims, &nvars, &natts, &unlim) != NC_NOERR) {
        io_setf(err, errlen, "cannot read netCDF file %s", path);
        nc_close(ncid);
        return -1;
    }
    nc_inq_format(ncid, &format);
    fputs("file: ", out);
    io_put_escaped(out, path);
    fprintf(out, " (netCDF%s)\n", format == NC_FORMAT_NETCDF4 ? "-4"
                                  : format == NC_FORMAT_NETCDF4_CLASSIC ? "-4 classic model"
                                                                        : " classic");
    fputs("dimensions:\n", out);
    for (int d = 0; d < ndims && d < 64; d++) {
        char name[NC_MAX_NAME + 1];
        size_t len = 0;
        if (nc_inq_dim(ncid, d, name, &len) != NC_NOERR)
            continue;
        fputs("  ", out);
        io_put_escaped(out, name);
        fprintf(out, " = %zu\n", len);
    }
    fputs("variables:\n", out);
    for (int v = 0; v < nvars && v < 256; v++)
        put_var(out, ncid, v);
    if (nvars > 256)
        fprintf(out, "  ... %d more variables\n", nvars - 256);
    fputs("attributes:\n", out);
    for (int i = 0; i < natts && i < 1024; i++)
        put_att(out, ncid, NC_GLOBAL, i, "  ");
    if (natts == 0)
        fputs("  none (not written by tbrf?)\n", out);
    nc_close(ncid);
    return 0;
}

const io_reader_ops io_netcdf_reader = {
    .name = "netcdf",
    .title = "netCDF",
    .field = "variable field",
    .field_split = "variables field_x, field_y[, field_z]",
    .probe = ncr_probe,
    .open = ncr_open,
    .close = ncr_close,
    .attr_num = ncr_attr_num,
    .attr_str = ncr_attr_str,
    .table = ncr_table,
    .info = ncr_info,
    .grid_layout = ncr_grid_layout,
    .grid_part = ncr_grid_part,
    .times = ncr_times,
    .units = ncr_units,
    .field_shape = ncr_field_shape,
    .read_field = ncr_read_field,
    .read_slice = ncr_read_slice,
    .points = ncr_points,
    .values = ncr_values,
    .vector = ncr_vector,
};
