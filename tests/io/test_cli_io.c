/* test_cli_io.c — the HDF5 layer of the tool (io/tbrf_io.h):
 *  - grids pushed in arbitrary pieces (partial rows, row runs, whole
 *    planes) land at the right cells, 2D and 3D, float and double,
 *    with and without compression;
 *  - a grid streamed from the library into the writer reads back
 *    bitwise equal to tbrf_execute();
 *  - an incomplete grid or an abandoned writer leaves no file and no
 *    temporary; an unwritable directory fails cleanly;
 *  - points round-trip through /points and /value, and bad points files
 *    are refused with the file's name in the message.
 * Runs in a fresh temporary directory. */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support/check.h"
#include "tbrf.h"
#include "io/tbrf_io.h"

static char dir[256];

/* Number of entries in the test directory (besides . and ..). */
static int dir_entries(void)
{
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            n++;
    if (d)
        closedir(d);
    return n;
}

static uint64_t rng = 88172645463325252ULL;
static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* Writes an n-cell grid whose cell c holds the value c, in random pieces,
 * reads it back and checks every cell. */
static void piecewise(int dim, const int64_t n[3], int precision, int flags)
{
    char path[300];
    snprintf(path, sizeof path, "%s/piece.h5", dir);
    int64_t total = n[0] * n[1] * n[2];
    double *vd = malloc((size_t)total * sizeof *vd);
    float *vf = malloc((size_t)total * sizeof *vf);
    for (int64_t c = 0; c < total; c++) {
        vd[c] = (double)c + 0.25;
        vf[c] = (float)c;
    }
    char err[512] = "";
    tbrf_io_writer *w = tbrf_io_create(path, flags, err, sizeof err);
    CHECK(w != NULL, "create: %s", err);
    if (!w)
        return;
    CHECK(tbrf_io_grid_begin(w, dim, n, precision) == 0, "%s", tbrf_io_message(w));
    int64_t first = 0;
    int pieces = 0;
    while (first < total) {
        /* Sizes from 1 cell to a few planes. */
        int64_t span = 1 + (int64_t)(next() % (uint64_t)(3 * n[0] * n[1] + 1));
        if (next() % 4 == 0)
            span = 1 + (int64_t)(next() % (uint64_t)n[0]);
        if (span > total - first)
            span = total - first;
        const void *v = precision == TBRF_FLOAT ? (const void *)(vf + first) : (const void *)(vd + first);
        if (tbrf_io_grid_push(w, first, span, v)) {
            CHECK(0, "push %lld+%lld: %s", (long long)first, (long long)span, tbrf_io_message(w));
            break;
        }
        first += span;
        pieces++;
    }
    CHECK(tbrf_io_grid_push(w, total - 1, 2, vd) != 0, "a push past the end must fail");
    tbrf_io_meta meta;
    tbrf_io_meta_init(&meta);
    meta.dim = dim;
    CHECK(tbrf_io_write_meta(w, &meta) == 0, "%s", tbrf_io_message(w));
    CHECK(tbrf_io_commit(w) == 0, "commit: %s", tbrf_io_message(w));
    tbrf_io_close(w);

    int64_t m[3];
    double *back = NULL;
    CHECK(tbrf_io_read_field(path, m, &back, err, sizeof err) == 0, "read: %s", err);
    if (back) {
        CHECK(m[0] == n[0] && m[1] == n[1] && m[2] == n[2], "shape %lld %lld %lld", (long long)m[0],
              (long long)m[1], (long long)m[2]);
        int64_t bad = -1;
        for (int64_t c = 0; c < total && bad < 0; c++) {
            double want = precision == TBRF_FLOAT ? (double)vf[c] : vd[c];
            if (back[c] != want)
                bad = c;
        }
        CHECK(bad < 0, "dim %d precision %d flags %d: cell %lld reads %g (%d pieces)", dim,
              precision, flags, (long long)bad, bad >= 0 ? back[bad] : 0.0, pieces);
        free(back);
    }
    CHECK(dir_entries() == 1, "only the file should exist, found %d entries", dir_entries());
    unlink(path);
    free(vd);
    free(vf);
}

/* The grid stream of a real plan, written and read back, equals execute. */
static void streamed_equals_execute(int dim, int precision)
{
    char path[300];
    snprintf(path, sizeof path, "%s/stream.h5", dir);
    tbrf_model *model = NULL;
    CHECK(tbrf_model_gaussian(3.0, &model) == TBRF_OK, "model");
    int64_t n[3] = {23, 17, dim == 3 ? 9 : 1};
    double origin[3] = {-1, 2, 0.5}, spacing[3] = {0.7, 0.9, 1.1};
    double lo[3], hi[3];
    for (int c = 0; c < 3; c++) {
        lo[c] = origin[c];
        hi[c] = origin[c] + spacing[c] * (double)(n[c] - 1);
    }
    tbrf_opts o;
    tbrf_default_opts(&o);
    o.lines = 64;
    o.precision = precision;
    o.chunk = 50; /* many small pushes */
    tbrf_plan *plan = NULL;
    int st = tbrf_make_plan(model, dim, lo, hi, 0.7, 9, &o, &plan);
    CHECK(st == TBRF_OK, "plan: %s", tbrf_plan_message(plan));
    st = tbrf_set_grid(plan, origin, spacing, n);
    CHECK(st == TBRF_OK, "grid: %s", tbrf_plan_message(plan));
    int64_t total = n[0] * n[1] * n[2];
    size_t elt = precision == TBRF_FLOAT ? sizeof(float) : sizeof(double);
    void *direct = malloc((size_t)total * elt);
    CHECK(tbrf_execute(plan, 4, direct) == TBRF_OK, "execute: %s", tbrf_plan_message(plan));

    char err[512] = "";
    tbrf_io_writer *w = tbrf_io_create(path, 0, err, sizeof err);
    CHECK(w != NULL, "%s", err);
    if (w) {
        CHECK(tbrf_io_grid_begin(w, dim, n, precision) == 0, "%s", tbrf_io_message(w));
        st = tbrf_execute_grid_stream(plan, 4, tbrf_io_grid_push, w);
        CHECK(st == TBRF_OK, "stream: %s / %s", tbrf_plan_message(plan), tbrf_io_message(w));
        CHECK(tbrf_io_commit(w) == 0, "%s", tbrf_io_message(w));
        tbrf_io_close(w);
        double *back = NULL;
        int64_t m[3];
        CHECK(tbrf_io_read_field(path, m, &back, err, sizeof err) == 0, "%s", err);
        int64_t bad = -1;
        for (int64_t c = 0; back && c < total && bad < 0; c++) {
            double want = precision == TBRF_FLOAT ? (double)((float *)direct)[c] : ((double *)direct)[c];
            if (back[c] != want)
                bad = c;
        }
        CHECK(back && bad < 0, "dim %d precision %d: streamed file differs at cell %lld", dim,
              precision, (long long)bad);
        free(back);
        unlink(path);
    }
    free(direct);
    tbrf_destroy(plan);
    tbrf_model_destroy(model);
}

static void failures(void)
{
    char path[300], err[512];
    snprintf(path, sizeof path, "%s/fail.h5", dir);
    int64_t n[3] = {4, 4, 4};
    double v[64] = {0};

    /* Incomplete grid: commit refuses, nothing is left. */
    tbrf_io_writer *w = tbrf_io_create(path, 0, err, sizeof err);
    CHECK(w != NULL, "%s", err);
    CHECK(tbrf_io_temp_path(w) && strstr(tbrf_io_temp_path(w), "/.fail.h5.tmp-"), "temp name %s",
          tbrf_io_temp_path(w) ? tbrf_io_temp_path(w) : "(null)");
    CHECK(dir_entries() == 1, "the temporary exists while writing");
    CHECK(tbrf_io_grid_begin(w, 3, n, TBRF_DOUBLE) == 0, "%s", tbrf_io_message(w));
    CHECK(tbrf_io_grid_push(w, 0, 63, v) == 0, "%s", tbrf_io_message(w));
    CHECK(tbrf_io_commit(w) != 0, "an incomplete grid must not commit");
    CHECK(strstr(tbrf_io_message(w), "63 of 64") != NULL, "message: %s", tbrf_io_message(w));
    tbrf_io_close(w);
    CHECK(dir_entries() == 0, "incomplete grid left %d entries", dir_entries());

    /* Abandoned writer. */
    w = tbrf_io_create(path, 0, err, sizeof err);
    CHECK(w != NULL, "%s", err);
    tbrf_io_close(w);
    CHECK(dir_entries() == 0, "abandoned writer left %d entries", dir_entries());

    /* Unwritable places. */
    err[0] = '\0';
    CHECK(tbrf_io_create("/etc/passwd/x.h5", 0, err, sizeof err) == NULL, "under a file");
    CHECK(strstr(err, "/etc/passwd/x.h5") != NULL, "message names the file: %s", err);
    CHECK(tbrf_io_create(dir, 0, err, sizeof err) == NULL, "a directory");
    CHECK(tbrf_io_create("", 0, err, sizeof err) == NULL, "empty name");

    /* 2D needs nz = 1; bad sizes. */
    w = tbrf_io_create(path, 0, err, sizeof err);
    int64_t bad2[3] = {4, 4, 2}, neg[3] = {4, -1, 1};
    CHECK(tbrf_io_grid_begin(w, 2, bad2, TBRF_DOUBLE) != 0, "2D with nz=2");
    CHECK(tbrf_io_grid_begin(w, 3, neg, TBRF_DOUBLE) != 0, "negative count");
    tbrf_io_close(w);
    CHECK(dir_entries() == 0, "left %d entries", dir_entries());
}

static void points(void)
{
    char path[300], in[300], err[512];
    snprintf(path, sizeof path, "%s/pts.h5", dir);
    snprintf(in, sizeof in, "%s/in.h5", dir);
    double xyz[3 * 5], val[5];
    for (int i = 0; i < 15; i++)
        xyz[i] = 0.5 * i;
    for (int i = 0; i < 5; i++)
        val[i] = -i;
    tbrf_io_writer *w = tbrf_io_create(path, TBRF_IO_COMPRESS, err, sizeof err);
    CHECK(w != NULL, "%s", err);
    CHECK(tbrf_io_write_points(w, 3, 5, xyz) == 0, "%s", tbrf_io_message(w));
    CHECK(tbrf_io_write_values(w, 5, TBRF_DOUBLE, val) == 0, "%s", tbrf_io_message(w));
    CHECK(tbrf_io_commit(w) == 0, "%s", tbrf_io_message(w));
    tbrf_io_close(w);

    int dim = 0;
    int64_t n = 0;
    double *p = NULL;
    CHECK(tbrf_io_read_points(path, &dim, &n, &p, err, sizeof err) == 0, "%s", err);
    CHECK(dim == 3 && n == 5, "dim %d n %lld", dim, (long long)n);
    for (int i = 0; p && i < 15; i++)
        CHECK(p[i] == xyz[i], "point coordinate %d", i);
    free(p);

    /* A file without /points, and a missing file: messages name them. */
    CHECK(tbrf_io_read_points(in, &dim, &n, &p, err, sizeof err) != 0, "missing file");
    CHECK(strstr(err, "in.h5") != NULL, "message: %s", err);
    int64_t g[3] = {2, 2, 1};
    double four[4] = {1, 2, 3, 4};
    w = tbrf_io_create(in, 0, err, sizeof err);
    CHECK(tbrf_io_grid_begin(w, 2, g, TBRF_DOUBLE) == 0 && tbrf_io_grid_push(w, 0, 4, four) == 0 &&
              tbrf_io_commit(w) == 0,
          "%s", tbrf_io_message(w));
    tbrf_io_close(w);
    CHECK(tbrf_io_read_points(in, &dim, &n, &p, err, sizeof err) != 0, "no /points");
    CHECK(strstr(err, "in.h5 has no dataset /points") != NULL, "message: %s", err);

    FILE *out = fopen("/dev/null", "w");
    CHECK(tbrf_io_info(path, out, err, sizeof err) == 0, "info: %s", err);
    CHECK(tbrf_io_info(dir, out, err, sizeof err) != 0, "info on a directory");
    if (out)
        fclose(out);
    unlink(path);
    unlink(in);
}

int main(void)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/tbrf-io.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    int64_t n3[3] = {7, 5, 6}, n2[3] = {11, 9, 1}, row[3] = {13, 1, 1}, col[3] = {1, 3, 4};
    for (int rep = 0; rep < 3; rep++) {
        piecewise(3, n3, TBRF_DOUBLE, 0);
        piecewise(3, n3, TBRF_FLOAT, TBRF_IO_COMPRESS);
        piecewise(2, n2, TBRF_DOUBLE, TBRF_IO_COMPRESS);
        piecewise(2, n2, TBRF_FLOAT, 0);
        piecewise(3, row, TBRF_DOUBLE, 0);
        piecewise(3, col, TBRF_DOUBLE, 0);
        /* The netCDF-4 writer takes the same arbitrary pieces. */
        piecewise(3, n3, TBRF_DOUBLE, TBRF_IO_NETCDF);
        piecewise(3, n3, TBRF_FLOAT, TBRF_IO_NETCDF | TBRF_IO_COMPRESS);
        piecewise(2, n2, TBRF_FLOAT, TBRF_IO_NETCDF);
        piecewise(3, col, TBRF_DOUBLE, TBRF_IO_NETCDF);
    }
    /* A grid of several 1 MiB chunks. */
    int64_t big[3] = {300, 70, 20};
    piecewise(3, big, TBRF_DOUBLE, 0);
    piecewise(3, big, TBRF_FLOAT, TBRF_IO_NETCDF);
    streamed_equals_execute(3, TBRF_DOUBLE);
    streamed_equals_execute(3, TBRF_FLOAT);
    streamed_equals_execute(2, TBRF_DOUBLE);
    failures();
    points();
    rmdir(dir);
    return check_report("test_cli_io");
}
