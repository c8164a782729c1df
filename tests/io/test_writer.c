/* test_writer.c — the installed streaming writer (tbrf_writer_*),
 * through libtbrf_writer:
 *  1. a grid streamed with tbrf_execute_grid_stream(plan, r, tbrf_writer_push,
 *     w), in double and float, reads back bitwise equal to tbrf_execute, with
 *     its XDMF side file and the completeness mark; chunks pushed in any
 *     order and size give the same file contents;
 *  2. TBRF_WRITER_NETCDF: the same calls write a netCDF-4 CF file whose
 *     field, read back with the netCDF API, is tbrf_execute's bit for bit
 *     (double and float, 3D and 2D, pushed in order or backwards),
 *     on dimensions (z, y, x) with coordinates x, y, z = origin +
 *     spacing * i and bounds x_bnds..., Conventions = "CF-1.8",
 *     tbrf_complete = "yes", and no XDMF side file; an axis of 2^16 + 3
 *     cells (longer than the coordinate writer's block) keeps exact
 *     coordinates and bounds;
 *  3. failures leave no file, in HDF5 and netCDF: a missing chunk at
 *     commit, closing without commit, an unwritable directory; bad
 *     arguments get clean statuses and messages (NULLs, flags, dim,
 *     precision, spacing, counts, a second grid_begin, push before begin,
 *     commit twice);
 *  4. coverage: overlapping pushes refused naming the first
 *     cell written twice (and commit after them), a gap refused at commit
 *     naming its first cell, scrambled single-cell pushes commit and read
 *     back, the record beyond the memory budget refused; streamed points
 *     and a series' times likewise (tbrf_io_points_push,
 *     tbrf_io_series_step).
 * Usage: test_writer DIR (a scratch directory). The files of DIR/roundtrip
 * stay for writer_netcdf_xarray.py: nDP.nc (streamed) and bDP.nc (pushed
 * backwards, compressed) beside hDP.h5, the same values in HDF5 (D the
 * dimension, P the precision: 30, 31, 20). */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <netcdf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/tbrf_io.h"
#include "support/check.h"
#include "tbrf.h"
#include "tbrf_writer.h"

static int exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0;
}

static int dir_is_empty_but(const char *dir, const char *keep1, const char *keep2)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "test -z \"$(ls -A '%s' | grep -v -x -e '%s' -e '%s')\"", dir, keep1, keep2);
    return system(cmd) == 0;
}

static void roundtrip(const char *dir, int precision)
{
    const int64_t n[3] = {20, 9, 31};
    const int64_t cells = n[0] * n[1] * n[2];
    const double origin[3] = {1.5, -2, 0}, spacing[3] = {0.5, 0.5, 0.75};
    const double lo[3] = {1.5, -2, 0}, hi[3] = {1.5 + 0.5 * 19, -2 + 0.5 * 8, 0.75 * 30};
    tbrf_model *m = NULL;
    tbrf_model_powerlaw(-3.9, 0.05, 2.0, &m);
    tbrf_opts o;
    tbrf_default_opts(&o);
    o.lines = 64;
    o.precision = precision;
    o.chunk = 7 * n[0]; /* several pushes */
    tbrf_plan *plan = NULL;
    REQUIRE(tbrf_make_plan(m, 3, lo, hi, 0.5, 3, &o, &plan) == TBRF_OK, , "plan");
    REQUIRE(tbrf_set_grid(plan, origin, spacing, n) == TBRF_OK, , "grid");
    const size_t vs = precision == TBRF_FLOAT ? sizeof(float) : sizeof(double);
    char *ref = malloc(vs * (size_t)cells);
    REQUIRE(tbrf_execute(plan, 2, ref) == TBRF_OK, , "execute");
    char path[512], side[512];
    snprintf(path, sizeof path, "%s/f%d.h5", dir, precision);
    snprintf(side, sizeof side, "%s/f%d.xmf", dir, precision);
    tbrf_writer *w = NULL;
    REQUIRE(tbrf_writer_create(path, 0, &w) == TBRF_OK, , "create: %s", tbrf_writer_message(w));
    REQUIRE(tbrf_writer_grid_begin(w, 3, origin, spacing, n, precision) == TBRF_OK, , "begin: %s",
            tbrf_writer_message(w));
    CHECK(!exists(path), "nothing is published before commit");
    REQUIRE(tbrf_execute_grid_stream(plan, 2, tbrf_writer_push, w) == TBRF_OK, , "stream: %s",
            tbrf_writer_message(w));
    REQUIRE(tbrf_writer_commit(w) == TBRF_OK, , "commit: %s", tbrf_writer_message(w));
    tbrf_writer_close(w);
    CHECK(exists(path) && exists(side), "%s and its side file exist", path);
    int64_t nn[3];
    double *back = NULL;
    char err[512];
    REQUIRE(tbrf_io_read_field(path, nn, &back, err, sizeof err) == 0, , "read: %s", err);
    int same = nn[0] == n[0] && nn[1] == n[1] && nn[2] == n[2];
    for (int64_t i = 0; same && i < cells; i++)
        same = precision == TBRF_FLOAT ? (float)back[i] == ((float *)ref)[i] : back[i] == ((double *)ref)[i];
    CHECK(same, "precision %d: the file holds tbrf_execute's values bit for bit", precision);
    tbrf_io_file *f = tbrf_io_open(path, err, sizeof err);
    char mark[16] = "";
    CHECK(f && tbrf_io_attr_str(f, "tbrf_complete", mark, sizeof mark) == 1 && strcmp(mark, "yes") == 0,
          "tbrf_complete = yes");
    tbrf_io_file_close(f);
    /* chunks in reverse order and odd sizes: the same contents */
    snprintf(path, sizeof path, "%s/r%d.h5", dir, precision);
    REQUIRE(tbrf_writer_create(path, TBRF_WRITER_COMPRESS | TBRF_WRITER_NO_XDMF, &w) == TBRF_OK, , "create");
    REQUIRE(tbrf_writer_grid_begin(w, 3, origin, spacing, n, precision) == TBRF_OK, , "begin");
    for (int64_t end = cells; end > 0;) {
        const int64_t c = end >= 37 ? 37 : end;
        REQUIRE(tbrf_writer_push(w, end - c, c, ref + vs * (size_t)(end - c)) == TBRF_OK, , "push");
        end -= c;
    }
    REQUIRE(tbrf_writer_commit(w) == TBRF_OK, , "commit");
    tbrf_writer_close(w);
    double *back2 = NULL;
    REQUIRE(tbrf_io_read_field(path, nn, &back2, err, sizeof err) == 0, , "read: %s", err);
    CHECK(memcmp(back, back2, sizeof(double) * (size_t)cells) == 0,
          "reverse-order pushes give the same field");
    snprintf(side, sizeof side, "%s/r%d.xmf", dir, precision);
    CHECK(!exists(side), "TBRF_WRITER_NO_XDMF: no side file");
    free(back);
    free(back2);
    free(ref);
    tbrf_destroy(plan);
    tbrf_model_destroy(m);
}

/* The field of netCDF file `path` as doubles (float values widened,
 * exactly), after checking its CF layout against the grid; NULL when a
 * check that the rest depends on failed. */
static double *read_netcdf(const char *path, int dim, const int64_t n[3], const double origin[3],
                           const double spacing[3], int precision)
{
    int ncid, var, ndims, dimids[3], type;
    REQUIRE(nc_open(path, NC_NOWRITE, &ncid) == NC_NOERR, NULL, "nc_open %s", path);
    REQUIRE(nc_inq_varid(ncid, "field", &var) == NC_NOERR &&
            nc_inq_var(ncid, var, NULL, &type, &ndims, dimids, NULL) == NC_NOERR && ndims == dim,
            (nc_close(ncid), NULL), "%s: variable field of rank %d", path, dim);
    CHECK(type == (precision == TBRF_FLOAT ? NC_FLOAT : NC_DOUBLE), "field type %d", type);
    const char *names[3] = {"x", "y", "z"};
    size_t cells = 1;
    for (int i = 0; i < dim; i++) { /* slowest first: (z, y, x) */
        char name[NC_MAX_NAME + 1];
        size_t len;
        const int a = dim - 1 - i;
        nc_inq_dim(ncid, dimids[i], name, &len);
        CHECK(strcmp(name, names[a]) == 0 && len == (size_t)n[a], "dimension %d: %s of %zu", i, name, len);
        cells *= (size_t)n[a];
    }
    for (int a = 0; a < dim; a++) { /* coordinates and CF bounds */
        char bname[16], bounds[32] = "", axis[8] = "";
        snprintf(bname, sizeof bname, "%s_bnds", names[a]);
        int cv, bv;
        REQUIRE(nc_inq_varid(ncid, names[a], &cv) == NC_NOERR && nc_inq_varid(ncid, bname, &bv) == NC_NOERR,
                (nc_close(ncid), NULL), "coordinate %s and %s", names[a], bname);
        double *c = malloc(3 * sizeof *c * (size_t)n[a]), *b = c + n[a];
        nc_get_att_text(ncid, cv, "bounds", bounds);
        nc_get_att_text(ncid, cv, "axis", axis);
        CHECK(strcmp(bounds, bname) == 0 && axis[0] == 'X' + a, "%s: bounds %s, axis %s", names[a], bounds, axis);
        int ok = nc_get_var_double(ncid, cv, c) == NC_NOERR && nc_get_var_double(ncid, bv, b) == NC_NOERR;
        for (int64_t i = 0; ok && i < n[a]; i++)
            ok = c[i] == origin[a] + spacing[a] * (double)i && b[2 * i] == c[i] - 0.5 * spacing[a] &&
                 b[2 * i + 1] == c[i] + 0.5 * spacing[a];
        CHECK(ok, "%s = origin + spacing i, bounds at +- spacing / 2", names[a]);
        free(c);
    }
    char conv[16] = "", mark[8] = "";
    size_t len = 0;
    CHECK(nc_inq_attlen(ncid, NC_GLOBAL, "Conventions", &len) == NC_NOERR && len < sizeof conv &&
          nc_get_att_text(ncid, NC_GLOBAL, "Conventions", conv) == NC_NOERR && strcmp(conv, "CF-1.8") == 0,
          "Conventions = CF-1.8: %s", conv);
    CHECK(nc_inq_attlen(ncid, NC_GLOBAL, "tbrf_complete", &len) == NC_NOERR && len < sizeof mark &&
          nc_get_att_text(ncid, NC_GLOBAL, "tbrf_complete", mark) == NC_NOERR && strcmp(mark, "yes") == 0,
          "tbrf_complete = yes");
    double *v = malloc(cells * sizeof *v);
    float *f = malloc(cells * sizeof *f);
    int st = precision == TBRF_FLOAT ? nc_get_var_float(ncid, var, f) : nc_get_var_double(ncid, var, v);
    for (size_t i = 0; precision == TBRF_FLOAT && i < cells; i++)
        v[i] = f[i];
    free(f);
    nc_close(ncid);
    REQUIRE(st == NC_NOERR, (free(v), NULL), "reading field: %s", nc_strerror(st));
    return v;
}

/* A plan's field streamed to netCDF (forward) and pushed backwards in
 * odd chunks (compressed): both files hold tbrf_execute's values. */
static void roundtrip_netcdf(const char *dir, int dim, int precision)
{
    const int64_t n[3] = {20, 9, dim == 3 ? 31 : 1};
    const int64_t cells = n[0] * n[1] * n[2];
    const double origin[3] = {1.5, -2, 0.25}, spacing[3] = {0.5, 0.25, 0.75};
    double lo[3], hi[3];
    for (int a = 0; a < 3; a++) {
        lo[a] = origin[a];
        hi[a] = origin[a] + spacing[a] * (double)(n[a] - 1);
    }
    tbrf_model *m = NULL;
    tbrf_model_powerlaw(-3.9, 0.05, 2.0, &m);
    tbrf_opts o;
    tbrf_default_opts(&o);
    o.lines = 64;
    o.precision = precision;
    o.chunk = 7 * n[0]; /* several pushes */
    tbrf_plan *plan = NULL;
    REQUIRE(tbrf_make_plan(m, dim, lo, hi, 0.25, 3, &o, &plan) == TBRF_OK, , "plan");
    REQUIRE(tbrf_set_grid(plan, origin, spacing, n) == TBRF_OK, , "grid");
    const size_t vs = precision == TBRF_FLOAT ? sizeof(float) : sizeof(double);
    char *ref = malloc(vs * (size_t)cells);
    REQUIRE(tbrf_execute(plan, 2, ref) == TBRF_OK, , "execute");
    for (int backwards = 0; backwards < 2; backwards++) {
        char path[512], side[512];
        snprintf(path, sizeof path, "%s/%s%d%d.nc", dir, backwards ? "b" : "n", dim, precision);
        snprintf(side, sizeof side, "%s/%s%d%d.xmf", dir, backwards ? "b" : "n", dim, precision);
        tbrf_writer *w = NULL;
        const int flags = TBRF_WRITER_NETCDF | (backwards ? TBRF_WRITER_COMPRESS : 0);
        REQUIRE(tbrf_writer_create(path, flags, &w) == TBRF_OK, , "create: %s", tbrf_writer_message(w));
        REQUIRE(tbrf_writer_grid_begin(w, dim, origin, spacing, n, precision) == TBRF_OK, , "begin: %s",
                tbrf_writer_message(w));
        int st = TBRF_OK;
        if (!backwards)
            st = tbrf_execute_grid_stream(plan, 2, tbrf_writer_push, w);
        for (int64_t end = cells; backwards && st == TBRF_OK && end > 0; end -= 37) {
            const int64_t c = end >= 37 ? 37 : end;
            st = tbrf_writer_push(w, end - c, c, ref + vs * (size_t)(end - c));
        }
        REQUIRE(st == TBRF_OK, , "push: %s", tbrf_writer_message(w));
        CHECK(!exists(path), "nothing is published before commit");
        REQUIRE(tbrf_writer_commit(w) == TBRF_OK, , "commit: %s", tbrf_writer_message(w));
        tbrf_writer_close(w);
        CHECK(exists(path) && !exists(side), "%s exists, with no XDMF side file", path);
        double *back = read_netcdf(path, dim, n, origin, spacing, precision);
        int same = back != NULL;
        for (int64_t i = 0; same && i < cells; i++)
            same = precision == TBRF_FLOAT ? (float)back[i] == ((float *)ref)[i]
                                           : back[i] == ((double *)ref)[i];
        CHECK(same, "netCDF dim %d precision %d%s: tbrf_execute's values bit for bit", dim, precision,
              backwards ? " (pushed backwards, compressed)" : "");
        free(back);
    }
    /* the same values to HDF5 (one push), for writer_netcdf_xarray.py */
    char path[512];
    snprintf(path, sizeof path, "%s/h%d%d.h5", dir, dim, precision);
    tbrf_writer *w = NULL;
    CHECK(tbrf_writer_create(path, TBRF_WRITER_NO_XDMF, &w) == TBRF_OK &&
          tbrf_writer_grid_begin(w, dim, origin, spacing, n, precision) == TBRF_OK &&
          tbrf_writer_push(w, 0, cells, ref) == TBRF_OK && tbrf_writer_commit(w) == TBRF_OK,
          "%s: %s", path, tbrf_writer_message(w));
    tbrf_writer_close(w);
    free(ref);
    tbrf_destroy(plan);
    tbrf_model_destroy(m);
}

/* An axis longer than the coordinate writer's block (2^16 cells): every
 * coordinate and bound is still origin + spacing i (+- spacing / 2), and
 * the values are those pushed. */
static void long_axis(const char *dir)
{
    const int64_t n[3] = {(1 << 16) + 3, 2, 1}, cells = n[0] * n[1];
    const double origin[3] = {-7, 3, 0}, spacing[3] = {0.1, 2, 1};
    double *v = malloc(sizeof *v * (size_t)cells);
    for (int64_t i = 0; i < cells; i++)
        v[i] = (double)i / 3.0;
    char path[600];
    snprintf(path, sizeof path, "%s/long.nc", dir);
    tbrf_writer *w = NULL;
    CHECK(tbrf_writer_create(path, TBRF_WRITER_NETCDF, &w) == TBRF_OK &&
          tbrf_writer_grid_begin(w, 2, origin, spacing, n, TBRF_DOUBLE) == TBRF_OK &&
          tbrf_writer_push(w, 0, cells, v) == TBRF_OK && tbrf_writer_commit(w) == TBRF_OK,
          "%s: %s", path, tbrf_writer_message(w));
    tbrf_writer_close(w);
    double *back = read_netcdf(path, 2, n, origin, spacing, TBRF_DOUBLE);
    CHECK(back && memcmp(back, v, sizeof *v * (size_t)cells) == 0, "long axis: the values pushed");
    free(back);
    free(v);
}

static void failures(const char *dir)
{
    const int64_t n[3] = {4, 4, 4}, bad[3] = {4, 0, 4}, flat[3] = {4, 4, 2};
    const double o[3] = {0, 0, 0}, h[3] = {1, 1, 1}, h0[3] = {1, 0, 1};
    double v[64] = {0};
    char path[600];
    snprintf(path, sizeof path, "%s/fail.h5", dir);
    tbrf_writer *w = NULL;
    CHECK(tbrf_writer_create(path, 0, NULL) == TBRF_ERR_NULL, "NULL out");
    CHECK(tbrf_writer_create(NULL, 0, &w) == TBRF_ERR_NULL, "NULL path");
    tbrf_writer_close(w);
    CHECK(tbrf_writer_create(path, 64, &w) == TBRF_ERR_INVALID, "unknown flags");
    tbrf_writer_close(w);
    /* a directory that cannot exist: its parent is a regular file */
    char nodir[700];
    snprintf(nodir, sizeof nodir, "%s/plain", dir);
    FILE *pf = fopen(nodir, "w");
    if (pf)
        fclose(pf);
    snprintf(nodir, sizeof nodir, "%s/plain/x.h5", dir);
    CHECK(tbrf_writer_create(nodir, 0, &w) == TBRF_ERR_FILE && strstr(tbrf_writer_message(w), "plain/x.h5"),
          "unwritable: %s", tbrf_writer_message(w));
    CHECK(tbrf_writer_grid_begin(w, 3, o, h, n, TBRF_DOUBLE) == TBRF_ERR_INVALID, "begin on a failed writer");
    tbrf_writer_close(w);
    snprintf(nodir, sizeof nodir, "%s/plain/x.nc", dir);
    CHECK(tbrf_writer_create(nodir, TBRF_WRITER_NETCDF, &w) == TBRF_ERR_FILE &&
          strstr(tbrf_writer_message(w), "plain/x.nc"), "netCDF, unwritable: %s", tbrf_writer_message(w));
    tbrf_writer_close(w);
    snprintf(nodir, sizeof nodir, "%s/plain", dir);
    remove(nodir);
    CHECK(tbrf_writer_create(dir, 0, &w) == TBRF_ERR_FILE && strstr(tbrf_writer_message(w), "directory"),
          "a directory: %s", tbrf_writer_message(w));
    tbrf_writer_close(w);

    REQUIRE(tbrf_writer_create(path, 0, &w) == TBRF_OK, , "create");
    CHECK(tbrf_writer_push(w, 0, 4, v) == TBRF_ERR_INVALID, "push before begin");
    CHECK(tbrf_writer_commit(w) == TBRF_ERR_INVALID, "commit before begin");
    CHECK(tbrf_writer_grid_begin(w, 4, o, h, n, TBRF_DOUBLE) == TBRF_ERR_INVALID, "dim 4");
    CHECK(tbrf_writer_grid_begin(w, 3, o, h, n, 9) == TBRF_ERR_INVALID, "precision 9");
    CHECK(tbrf_writer_grid_begin(w, 3, o, h0, n, TBRF_DOUBLE) == TBRF_ERR_INVALID, "spacing 0");
    CHECK(tbrf_writer_grid_begin(w, 3, o, h, bad, TBRF_DOUBLE) == TBRF_ERR_SIZE, "n = 0");
    CHECK(tbrf_writer_grid_begin(w, 2, o, h, flat, TBRF_DOUBLE) == TBRF_ERR_SIZE, "2D with nz = 2");
    CHECK(tbrf_writer_grid_begin(w, 3, NULL, h, n, TBRF_DOUBLE) == TBRF_ERR_NULL, "NULL origin");
    REQUIRE(tbrf_writer_grid_begin(w, 3, o, h, n, TBRF_DOUBLE) == TBRF_OK, , "begin: %s", tbrf_writer_message(w));
    CHECK(tbrf_writer_grid_begin(w, 3, o, h, n, TBRF_DOUBLE) == TBRF_ERR_INVALID, "second begin");
    CHECK(tbrf_writer_push(w, 0, 32, v) == TBRF_OK, "half the grid");
    CHECK(tbrf_writer_push(w, 60, 8, v) != TBRF_OK && tbrf_writer_message(w)[0], "past the end: %s",
          tbrf_writer_message(w));
    CHECK(tbrf_writer_push(w, 32, 4, NULL) == TBRF_ERR_NULL, "NULL values");
    CHECK(tbrf_writer_commit(w) == TBRF_ERR_FILE && !exists(path), "commit of an incomplete grid: %s",
          tbrf_writer_message(w));
    tbrf_writer_close(w);
    CHECK(!exists(path), "nothing published");

    REQUIRE(tbrf_writer_create(path, 0, &w) == TBRF_OK, , "create");
    REQUIRE(tbrf_writer_grid_begin(w, 3, o, h, n, TBRF_DOUBLE) == TBRF_OK, , "begin");
    CHECK(tbrf_writer_push(w, 0, 64, v) == TBRF_OK, "whole grid");
    tbrf_writer_close(w); /* no commit */
    CHECK(!exists(path), "closing without commit publishes nothing");

    REQUIRE(tbrf_writer_create(path, 0, &w) == TBRF_OK, , "create");
    REQUIRE(tbrf_writer_grid_begin(w, 3, o, h, n, TBRF_DOUBLE) == TBRF_OK, , "begin");
    CHECK(tbrf_writer_push(w, 0, 64, v) == TBRF_OK && tbrf_writer_commit(w) == TBRF_OK, "commit");
    CHECK(tbrf_writer_commit(w) == TBRF_ERR_INVALID && tbrf_writer_push(w, 0, 1, v) == TBRF_ERR_INVALID,
          "commit twice, push after commit");
    tbrf_writer_close(w);
    CHECK(exists(path), "committed");
    /* netCDF: an incomplete grid, an uncommitted writer, bad arguments */
    char ncpath[600];
    snprintf(ncpath, sizeof ncpath, "%s/fail.nc", dir);
    REQUIRE(tbrf_writer_create(ncpath, TBRF_WRITER_NETCDF, &w) == TBRF_OK, , "create: %s", tbrf_writer_message(w));
    CHECK(tbrf_writer_push(w, 0, 4, v) == TBRF_ERR_INVALID, "netCDF: push before begin");
    CHECK(tbrf_writer_grid_begin(w, 3, o, h0, n, TBRF_DOUBLE) == TBRF_ERR_INVALID, "netCDF: spacing 0");
    CHECK(tbrf_writer_grid_begin(w, 3, o, h, bad, TBRF_DOUBLE) == TBRF_ERR_SIZE, "netCDF: n = 0");
    REQUIRE(tbrf_writer_grid_begin(w, 3, o, h, n, TBRF_FLOAT) == TBRF_OK, , "begin: %s", tbrf_writer_message(w));
    CHECK(tbrf_writer_push(w, 0, 32, v) == TBRF_OK, "netCDF: half the grid");
    CHECK(tbrf_writer_push(w, 60, 8, v) != TBRF_OK && tbrf_writer_message(w)[0], "netCDF: past the end: %s",
          tbrf_writer_message(w));
    CHECK(tbrf_writer_commit(w) == TBRF_ERR_FILE && strstr(tbrf_writer_message(w), "32 of 64"),
          "netCDF: commit of an incomplete grid: %s", tbrf_writer_message(w));
    tbrf_writer_close(w);
    CHECK(!exists(ncpath), "netCDF: nothing published");
    REQUIRE(tbrf_writer_create(ncpath, TBRF_WRITER_NETCDF, &w) == TBRF_OK, , "create");
    REQUIRE(tbrf_writer_grid_begin(w, 3, o, h, n, TBRF_DOUBLE) == TBRF_OK, , "begin");
    CHECK(tbrf_writer_push(w, 0, 64, v) == TBRF_OK, "netCDF: whole grid");
    tbrf_writer_close(w); /* no commit */
    CHECK(!exists(ncpath), "netCDF: closing without commit publishes nothing");

    CHECK(tbrf_writer_commit(NULL) == TBRF_ERR_NULL && tbrf_writer_push(NULL, 0, 0, v) == TBRF_ERR_NULL &&
          tbrf_writer_message(NULL)[0], "NULL writer");
    tbrf_writer_close(NULL);
    CHECK(dir_is_empty_but(dir, "fail.h5", "fail.xmf"), "no temporaries left behind in %s", dir);
}

/* Coverage: each cell pushed exactly once. The issue's
 * case, two overlapping pushes whose counts add up to the grid, is
 * refused at the second push naming its first cell written before, and
 * commit refuses too; a gap is refused at commit naming its first cell;
 * pushes in any order that cover the grid commit and read back; a record
 * beyond the memory budget is refused. */
static void coverage(const char *dir)
{
    const int64_t n[3] = {4, 4, 4};
    const double o[3] = {0, 0, 0}, h[3] = {1, 1, 1};
    double v[64];
    int back_ok = 1;
    for (int i = 0; i < 64; i++)
        v[i] = i + 0.5;
    char path[600], ncpath[600];
    snprintf(path, sizeof path, "%s/cover.h5", dir);
    snprintf(ncpath, sizeof ncpath, "%s/cover.nc", dir);
    for (int nc = 0; nc < 2; nc++) {
        const char *p = nc ? ncpath : path;
        tbrf_writer *w = NULL;
        REQUIRE(tbrf_writer_create(p, nc ? TBRF_WRITER_NETCDF : 0, &w) == TBRF_OK, , "create");
        REQUIRE(tbrf_writer_grid_begin(w, 3, o, h, n, TBRF_DOUBLE) == TBRF_OK, , "begin");
        CHECK(tbrf_writer_push(w, 0, 40, v) == TBRF_OK, "first push");
        /* 40 + 24 = 64 cells: a count would pass it, leaving 54..63 at 0 */
        CHECK(tbrf_writer_push(w, 30, 24, v + 30) == TBRF_ERR_FILE &&
                  strstr(tbrf_writer_message(w), "cell 30 (x 2, y 3, z 1) would be written twice"),
              "%s: overlap refused at the push: %s", nc ? "netCDF" : "HDF5", tbrf_writer_message(w));
        CHECK(tbrf_writer_push(w, 40, 24, v + 40) == TBRF_OK, "the rest");
        CHECK(tbrf_writer_commit(w) == TBRF_ERR_FILE &&
                  strstr(tbrf_writer_message(w), "cell 30 (x 2, y 3, z 1) was pushed twice"),
              "%s: commit after an overlap refused: %s", nc ? "netCDF" : "HDF5", tbrf_writer_message(w));
        tbrf_writer_close(w);
        CHECK(!exists(p), "overlap: nothing published");

        /* a gap: 64 cells pushed in all, cells 25..29 never */
        REQUIRE(tbrf_writer_create(p, nc ? TBRF_WRITER_NETCDF : 0, &w) == TBRF_OK, , "create");
        REQUIRE(tbrf_writer_grid_begin(w, 3, o, h, n, TBRF_DOUBLE) == TBRF_OK, , "begin");
        CHECK(tbrf_writer_push(w, 30, 34, v + 30) == TBRF_OK && tbrf_writer_push(w, 0, 20, v) == TBRF_OK &&
                  tbrf_writer_push(w, 20, 5, v + 20) == TBRF_OK, "pushes around a gap");
        CHECK(tbrf_writer_commit(w) == TBRF_ERR_FILE &&
                  strstr(tbrf_writer_message(w), "cell 25 (x 1, y 2, z 1) was never written (59 of 64"),
              "%s: a gap refused at commit: %s", nc ? "netCDF" : "HDF5", tbrf_writer_message(w));
        tbrf_writer_close(w);
        CHECK(!exists(p), "gap: nothing published");
    }
    /* single cells in a scrambled order (37 is prime to 64): the record
     * merges from both sides, and the file is complete and right */
    tbrf_writer *w = NULL;
    REQUIRE(tbrf_writer_create(path, 0, &w) == TBRF_OK, , "create");
    REQUIRE(tbrf_writer_grid_begin(w, 3, o, h, n, TBRF_DOUBLE) == TBRF_OK, , "begin");
    for (int i = 0; i < 64; i++) {
        const int c = (i * 37) % 64;
        CHECK(tbrf_writer_push(w, c, 1, v + c) == TBRF_OK, "cell %d: %s", c, tbrf_writer_message(w));
    }
    CHECK(tbrf_writer_commit(w) == TBRF_OK, "scrambled pushes commit: %s", tbrf_writer_message(w));
    tbrf_writer_close(w);
    int64_t nb[3];
    double *back = NULL;
    char err[512];
    REQUIRE(tbrf_io_read_field(path, nb, &back, err, sizeof err) == 0, , "read back: %s", err);
    for (int i = 0; i < 64; i++)
        back_ok = back_ok && back[i] == v[i];
    CHECK(back_ok, "scrambled pushes: every cell its own value");
    free(back);
    remove(path);
    char side[620];
    snprintf(side, sizeof side, "%s/cover.xmf", dir);
    remove(side);

    /* the record within the memory budget: every other cell of a long
     * row makes one interval each, and 1 KiB holds 64 of them */
    const int64_t nl[3] = {1000, 1, 1};
    double one = 1.0;
    setenv("TBRF_MEMORY_BUDGET", "1K", 1);
    REQUIRE(tbrf_writer_create(path, 0, &w) == TBRF_OK, , "create");
    REQUIRE(tbrf_writer_grid_begin(w, 2, o, h, nl, TBRF_DOUBLE) == TBRF_OK, , "begin");
    int st = TBRF_OK, k = 0;
    for (k = 0; k < 500 && st == TBRF_OK; k++)
        st = tbrf_writer_push(w, 2 * k, 1, &one);
    CHECK(st == TBRF_ERR_FILE && k == 65 && strstr(tbrf_writer_message(w), "memory budget"),
          "the record's growth refused at piece %d: %s", k, tbrf_writer_message(w));
    CHECK(tbrf_writer_commit(w) == TBRF_ERR_FILE && strstr(tbrf_writer_message(w), "cannot be known complete"),
          "commit refused: %s", tbrf_writer_message(w));
    tbrf_writer_close(w);
    unsetenv("TBRF_MEMORY_BUDGET");
    CHECK(!exists(path), "budget: nothing published");

    /* streamed points likewise: rows pushed twice, or never */
    tbrf_io_writer *pw = tbrf_io_create(path, 0, err, sizeof err);
    const double pxyz[12] = {0}, pval[4] = {1, 2, 3, 4};
    REQUIRE(pw && tbrf_io_points_begin(pw, 3, 4, TBRF_DOUBLE) == 0, , "points begin");
    CHECK(tbrf_io_points_push(pw, 0, 2, pxyz, pval) == 0, "points 0, 1");
    CHECK(tbrf_io_points_push(pw, 1, 3, pxyz, pval) != 0 &&
              strstr(tbrf_io_message(pw), "point 1 would be written twice"),
          "points overlapping refused: %s", tbrf_io_message(pw));
    CHECK(tbrf_io_points_push(pw, 3, 1, pxyz, pval) == 0, "point 3");
    CHECK(tbrf_io_commit(pw) != 0 && strstr(tbrf_io_message(pw), "point 1 was pushed twice"),
          "points commit after an overlap refused: %s", tbrf_io_message(pw));
    tbrf_io_close(pw);
    pw = tbrf_io_create(path, 0, err, sizeof err);
    REQUIRE(pw && tbrf_io_points_begin(pw, 3, 4, TBRF_DOUBLE) == 0, , "points begin");
    CHECK(tbrf_io_points_push(pw, 0, 2, pxyz, pval) == 0 && tbrf_io_points_push(pw, 3, 1, pxyz, pval) == 0,
          "points 0, 1, 3");
    CHECK(tbrf_io_commit(pw) != 0 && strstr(tbrf_io_message(pw), "point 2 was never written (3 of 4"),
          "points with a gap refused: %s", tbrf_io_message(pw));
    tbrf_io_close(pw);
    CHECK(!exists(path), "points: nothing published");

    /* a series' times (series.c) likewise: one written twice, one never */
    tbrf_io_writer *sw = tbrf_io_create(path, 0, err, sizeof err);
    const int64_t sn[3] = {2, 2, 1};
    double sv[8] = {0};
    REQUIRE(sw && tbrf_io_series_begin(sw, 2, 2, 3, sn, 0, NULL) == 0, , "series begin");
    CHECK(tbrf_io_series_step(sw, 0, 0.0, sv) == 0 && tbrf_io_series_step(sw, 2, 1.0, sv) == 0,
          "series steps");
    CHECK(tbrf_io_series_step(sw, 2, 1.0, sv) != 0 && strstr(tbrf_io_message(sw), "time 2 would be written twice"),
          "a time written twice refused: %s", tbrf_io_message(sw));
    CHECK(tbrf_io_commit(sw) != 0 && strstr(tbrf_io_message(sw), "time 2 was pushed twice"),
          "series commit after it refused: %s", tbrf_io_message(sw));
    tbrf_io_close(sw);
    sw = tbrf_io_create(path, 0, err, sizeof err);
    REQUIRE(sw && tbrf_io_series_begin(sw, 2, 2, 3, sn, 0, NULL) == 0, , "series begin");
    CHECK(tbrf_io_series_step(sw, 0, 0.0, sv) == 0 && tbrf_io_series_step(sw, 2, 1.0, sv) == 0,
          "series steps");
    CHECK(tbrf_io_commit(sw) != 0 && strstr(tbrf_io_message(sw), "time 1 was never written (2 of 3"),
          "a series with a time missing refused: %s", tbrf_io_message(sw));
    tbrf_io_close(sw);
    /* a format without series refuses through its table's stub, naming
     * itself, and leaves nothing; an unknown format name lists the
     * registry's */
    sw = tbrf_io_create_format(path, "netcdf", 0, err, sizeof err);
    REQUIRE(sw, , "netCDF writer: %s", err);
    CHECK(tbrf_io_series_begin(sw, 2, 2, 3, sn, 0, NULL) != 0 &&
              strstr(tbrf_io_message(sw), "netCDF-4 files cannot hold a time series"),
          "netCDF series refused: %s", tbrf_io_message(sw));
    CHECK(tbrf_io_series_attr_str(sw, "command", "x") != 0, "netCDF series attribute refused");
    tbrf_io_close(sw);
    CHECK(!exists(path), "netCDF series: nothing published");
    CHECK(!tbrf_io_create_format(path, "raw", 0, err, sizeof err) &&
              strstr(err, "unknown output format raw (available: hdf5, netcdf)"),
          "unknown format refused: %s", err);
    CHECK(!exists(path), "unknown format: nothing made");
    CHECK(strcmp(tbrf_io_format_of("a.nc", NULL), "netcdf") == 0 &&
              strcmp(tbrf_io_format_of("a.h5", NULL), "hdf5") == 0 &&
              strcmp(tbrf_io_format_of("a.nc", "hdf5"), "hdf5") == 0 && !tbrf_io_format_of("a", "raw"),
          "the suffix rule and the names");
    /* the shapes a series holds: nc = dim, or 3 in a 1D or 2D box */
    const int64_t s1[3] = {4, 1, 1};
    CHECK(isfinite(tbrf_io_series_bytes(1, 3, 2, s1, 0)) && isfinite(tbrf_io_series_bytes(2, 3, 2, sn, 0)) &&
          isnan(tbrf_io_series_bytes(1, 1, 2, s1, 0)) && isnan(tbrf_io_series_bytes(3, 2, 2, sn, 0)) &&
          isnan(tbrf_io_series_bytes(1, 3, 2, NULL, 4)), "series sizes: 1D/2D with 3 components only");
    sw = tbrf_io_create(path, 0, err, sizeof err);
    CHECK(sw && tbrf_io_series_begin(sw, 3, 2, 3, sn, 0, NULL) != 0 &&
          strstr(tbrf_io_message(sw), "or 3 in 1D and 2D"), "a 3D series of 2 components refused: %s",
          sw ? tbrf_io_message(sw) : err);
    tbrf_io_close(sw);
    CHECK(!exists(path) && dir_is_empty_but(dir, "-", "-"), "coverage: nothing left in %s", dir);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_writer DIR\n");
        return 2;
    }
    char rt[512], fl[512];
    snprintf(rt, sizeof rt, "%s/roundtrip", argv[1]);
    snprintf(fl, sizeof fl, "%s/failures", argv[1]);
    mkdir(argv[1], 0755);
    mkdir(rt, 0755);
    mkdir(fl, 0755);
    roundtrip(rt, TBRF_DOUBLE);
    roundtrip(rt, TBRF_FLOAT);
    roundtrip_netcdf(rt, 3, TBRF_DOUBLE);
    roundtrip_netcdf(rt, 3, TBRF_FLOAT);
    roundtrip_netcdf(rt, 2, TBRF_DOUBLE);
    long_axis(rt);
    failures(fl);
    char cv[512];
    snprintf(cv, sizeof cv, "%s/coverage", argv[1]);
    mkdir(cv, 0755);
    coverage(cv);
    return check_report("test_writer");
}
