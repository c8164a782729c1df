/* test_cli_io.c — the HDF5 layer of the tool (io/tbrf_io.h):
 *  - grids pushed in arbitrary pieces (partial rows, row runs, whole
 *    planes) land at the right cells, 2D and 3D, float and double,
 *    with and without compression;
 *  - a grid streamed from the library into the writer reads back
 *    bitwise equal to tbrf_execute();
 *  - an incomplete grid or an abandoned writer leaves no file and no
 *    temporary; an unwritable directory fails cleanly;
 *  - points round-trip through /points and /value, and bad points files
 *    are refused with the file's name in the message;
 *  - tbrf_io_read_meta is the inverse of tbrf_io_write_meta: every field
 *    recorded comes back equal, for grids and points, every model kind,
 *    a table, HDF5 and netCDF;
 *  - tbrf_model_table_data gives back the rows of a table read from text
 *    (what the tool records in /model_table), and refuses other models.
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

/* A meta with a distinct value in every recorded field. */
static void sample_meta(tbrf_io_meta *m, const char *kind, int dim, int is_grid, int by_variance)
{
    static const double K[3] = {0.01, 0.5, 7.25}, P[3] = {1.0, 0.125, 0.0};
    tbrf_io_meta_init(m);
    m->command = "tbrf generate --model whatever 'with spaces'";
    m->model = "a description";
    m->model_kind = kind;
    if (strcmp(kind, "powerlaw") == 0) {
        m->param[TBRF_IO_P_INDEX] = -3.25;
        m->param[TBRF_IO_P_KMIN] = 0.0625;
        m->param[TBRF_IO_P_KMAX] = 3.0 / 7.0;
    } else if (strcmp(kind, "table") == 0) {
        m->table_file = "spec.txt";
        m->table_n = 3;
        m->table_k = K;
        m->table_p = P;
    } else {
        m->param[TBRF_IO_P_LENGTH] = 1.0 / 3.0;
        if (strcmp(kind, "matern") == 0)
            m->param[TBRF_IO_P_NU] = 2.5;
        if (strcmp(kind, "stable") == 0)
            m->param[TBRF_IO_P_ALPHA] = 1.25;
    }
    m->by_variance = by_variance;
    if (by_variance)
        m->variance = 0.7;
    else
        m->amplitude = 1e-7;
    m->dim = dim;
    m->opts.lines = 77;
    m->opts.oversampling = 5;
    m->opts.line_method = TBRF_LINES_CIRCULANT;
    m->opts.max_padding = 6;
    m->opts.precision = TBRF_FLOAT;
    m->opts.periodic = 1;
    m->opts.method = m->method_used = TBRF_METHOD_FFT;
    m->opts.backend = TBRF_BACKEND_AUTO;
    m->info.backend = TBRF_BACKEND_CPU;
    m->seed = UINT64_MAX - 4;
    m->realization = (uint64_t)1 << 63;
    for (int c = 0; c < 3; c++) {
        int used = c < dim;
        m->lo[c] = used ? -1.5 + c : 0.0;
        m->hi[c] = used ? 10.0 / 3.0 + c : 0.0;
        /* What generate gives what a file does not record: zeros for
         * points, one cell of spacing 1 at 0 for the third axis of 2D. */
        m->origin[c] = used && is_grid ? -1.5 + c : 0.0;
        m->spacing[c] = !is_grid ? 0.0 : used ? 0.1 * (c + 1) : 1.0;
        m->n[c] = !is_grid ? 0 : used ? 3 + c : 1;
    }
    m->resolution = 0.1;
    m->is_grid = is_grid;
    if (!is_grid) {
        m->npoints = 4;
        m->points_file = "p.txt";
    }
    m->info.dim = dim;
    m->info.lines = 77;
    m->info.line_samples = 4096;
    m->info.line_spacing = 0.025;
    m->info.line_length = 102.4;
    m->info.variance = 0.7;
    m->info.variance_resolved = 0.69;
    m->info.amplitude = 1.25;
    m->info.padding = 2;
}

static int same_str(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* Equal doubles, NaN equal to NaN (not applicable both ways). */
static int same_f64(double a, double b)
{
    return (isnan(a) && isnan(b)) || memcmp(&a, &b, sizeof a) == 0;
}

static void compare_meta(const tbrf_io_meta *a, const tbrf_io_meta *b, const char *what)
{
    CHECK(same_str(a->command, b->command) && same_str(a->model, b->model) &&
              same_str(a->model_kind, b->model_kind) && same_str(a->table_file, b->table_file) &&
              same_str(a->points_file, b->points_file),
          "%s: strings", what);
    for (int i = 0; i < TBRF_IO_NPARAM; i++)
        CHECK(same_f64(a->param[i], b->param[i]), "%s: model parameter %d", what, i);
    CHECK(a->by_variance == b->by_variance && same_f64(a->variance, b->variance) &&
              same_f64(a->amplitude, b->amplitude),
          "%s: model", what);
    CHECK(a->table_n == b->table_n, "%s: table rows %zu, read %zu", what, a->table_n, b->table_n);
    for (size_t i = 0; i < a->table_n && i < b->table_n; i++)
        CHECK(same_f64(a->table_k[i], b->table_k[i]) && same_f64(a->table_p[i], b->table_p[i]),
              "%s: table row %zu", what, i);
    CHECK(memcmp(&a->opts, &b->opts, sizeof a->opts) == 0 && a->method_used == b->method_used,
          "%s: options", what);
    CHECK(a->dim == b->dim && a->seed == b->seed && a->realization == b->realization &&
              same_f64(a->resolution, b->resolution) && a->is_grid == b->is_grid &&
              a->npoints == b->npoints,
          "%s: plan", what);
    for (int c = 0; c < 3; c++)
        CHECK(same_f64(a->lo[c], b->lo[c]) && same_f64(a->hi[c], b->hi[c]) &&
                  same_f64(a->origin[c], b->origin[c]) &&
                  same_f64(a->spacing[c], b->spacing[c]) && a->n[c] == b->n[c],
              "%s: geometry axis %d", what, c);
    CHECK(memcmp(&a->info, &b->info, sizeof a->info) == 0, "%s: plan info", what);
}

/* write meta -> read meta -> every field equal. */
static void meta_round_trip(void)
{
    static const char *const KINDS[] = {"powerlaw", "gaussian", "exponential", "matern",
                                        "vonkarman", "table", "stable"};
    char path[300], err[1024], what[200];
    for (int flags = 0; flags <= TBRF_IO_NETCDF; flags += TBRF_IO_NETCDF)
        for (int k = 0; k < 7; k++)
            for (int geo = 0; geo < 3; geo++) {
                int dim = geo == 1 ? 2 : 3, is_grid = geo < 2;
                tbrf_io_meta m, r;
                sample_meta(&m, KINDS[k], dim, is_grid, k % 2);
                snprintf(what, sizeof what, "meta %s %dD %s %s", KINDS[k], dim,
                         is_grid ? "grid" : "points", flags ? "netCDF" : "HDF5");
                snprintf(path, sizeof path, "%s/meta.%s", dir, flags ? "nc" : "h5");
                tbrf_io_writer *w = tbrf_io_create(path, flags, err, sizeof err);
                CHECK(w != NULL, "%s: %s", what, err);
                if (!w)
                    continue;
                double xyz[12] = {0}, v[4] = {0};
                int ok = is_grid ? tbrf_io_grid_begin(w, dim, m.n, TBRF_FLOAT) == 0 &&
                                       tbrf_io_grid_push(w, 0, m.n[0] * m.n[1] * m.n[2],
                                                         (float[60]){0}) == 0
                                 : tbrf_io_write_points(w, dim, 4, xyz) == 0 &&
                                       tbrf_io_write_values(w, 4, TBRF_DOUBLE, v) == 0;
                ok = ok && tbrf_io_write_meta(w, &m) == 0 && tbrf_io_commit(w) == 0;
                CHECK(ok, "%s: %s", what, tbrf_io_message(w));
                tbrf_io_close(w);
                CHECK(tbrf_io_read_meta(path, &r, err, sizeof err) == 0, "%s: %s", what, err);
                compare_meta(&m, &r, what);
                tbrf_io_meta_free(&r);
                CHECK(r.storage == NULL && r.model_kind == NULL, "%s: freed", what);
                unlink(path);
            }
    CHECK(tbrf_io_read_meta(dir, &(tbrf_io_meta){0}, err, sizeof err) != 0, "read_meta of a dir");
}

/* The rows the library parsed from a text table, as the tool records. */
static void table_rows(void)
{
    char path[300];
    snprintf(path, sizeof path, "%s/spec.txt", dir);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL, "cannot write %s", path);
    if (!f)
        return;
    fprintf(f, "# k P\n0.01 1\n\n0.1   0.5 # mid\n1 1e-2\n");
    fclose(f);
    tbrf_model *m = NULL, *g = NULL;
    CHECK(tbrf_model_table_file(path, &m) == TBRF_OK, "table file");
    size_t n = 0;
    double k[3], p[3];
    CHECK(tbrf_model_table_data(m, &n, NULL, NULL) == TBRF_OK && n == 3, "count %zu", n);
    n = 2;
    CHECK(tbrf_model_table_data(m, &n, k, p) == TBRF_OK && n == 3, "too little room");
    n = 3;
    CHECK(tbrf_model_table_data(m, &n, k, p) == TBRF_OK && n == 3 && k[0] == 0.01 &&
              k[1] == 0.1 && k[2] == 1.0 && p[0] == 1.0 && p[1] == 0.5 && p[2] == 1e-2,
          "rows");
    CHECK(tbrf_model_table_data(m, &n, NULL, p) == TBRF_ERR_NULL, "NULL k with room");
    CHECK(tbrf_model_table_data(NULL, &n, k, p) == TBRF_ERR_NULL, "NULL model");
    CHECK(tbrf_model_gaussian(1.0, &g) == TBRF_OK, "gaussian");
    CHECK(tbrf_model_table_data(g, &n, k, p) == TBRF_ERR_INVALID, "not a table");
    tbrf_model_destroy(m);
    tbrf_model_destroy(g);
    unlink(path);
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
    meta_round_trip();
    table_rows();
    rmdir(dir);
    return check_report("test_cli_io");
}
