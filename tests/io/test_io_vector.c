/* test_io_vector.c — vector values and periodic boxes through the io API
 * (the vector file layouts of doc/cli.md), with synthetic values:
 *  - HDF5 grids (3D: /field (nz, ny, nx, 3); 2D: (ny, nx, 2)) pushed in
 *    uneven pieces, points streamed (/value (N, 3)) and written whole, read
 *    back bitwise by tbrf_io_read_vector, float and double;
 *  - netCDF: one variable per component (field_x, ..., value_x, ...),
 *    interleaved back by tbrf_io_read_vector;
 *  - the meta: components, vector_kind, zeta, box origin/length/modes,
 *    NUFFT accuracy and the method's name round-trip; a scalar file has
 *    none of them and reads back as ncomp 1, no box;
 *  - the XDMF side file names a Vector attribute with the components as
 *    the last dimension; tbrf_io_info names the components' axis;
 *  - refusals: 0 or 4 components, components set after the values began;
 *  - what `tbrf preview`/`spectrum` read (tbrf_io_grid_layout,
 *    tbrf_io_read_grid_part): each component, the magnitude and all
 *    components of planes across every axis and of whole grids, HDF5,
 *    netCDF and 2D/3D `tbrf drive`-like series (their last frame, and
 *    /time), with the refusals of frames, components and planes.
 *
 *   test_io_vector DIR [keep]   (keep: leave the files for xdmf_vector.py)
 * Value of component c at position i: i + c/4 (exact in float). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/tbrf_io.h"
#include "support/check.h"

static double val(int64_t i, int c)
{
    return (double)i + 0.25 * c;
}

static void fill_meta(tbrf_io_meta *m, int dim, int is_grid, const int64_t n[3], int64_t np)
{
    tbrf_io_meta_init(m);
    m->model_kind = "gaussian";
    m->param[TBRF_IO_P_LENGTH] = 1.0;
    m->variance = 1.0;
    m->dim = dim;
    m->is_grid = is_grid;
    m->resolution = 1.0;
    for (int c = 0; c < 3; c++) {
        m->lo[c] = 0.0;
        m->hi[c] = c < dim ? 10.0 : 0.0;
        m->origin[c] = is_grid ? 0.0 : 0.0;
        m->spacing[c] = is_grid ? 1.0 : 0.0;
        m->n[c] = is_grid ? n[c] : 0;
        m->box_origin[c] = c < dim ? -1.0 : 0.0;
        m->box_length[c] = c < dim ? 16.0 + c : 0.0;
        m->box_n[c] = c < dim ? 32 + c : 0;
    }
    m->npoints = np;
    m->seed = 3;
    m->ncomp = dim;
    m->vector_kind = "mixed";
    m->zeta = 0.5;
    m->box = 1;
    m->accuracy = 1e-6;
    m->method_name = "nufft";
}

static void check_values(const char *path, int ncomp, int64_t npos)
{
    char err[512];
    int nc = 0;
    int64_t np = 0;
    double *v = NULL;
    if (!CHECK(tbrf_io_read_vector(path, &nc, &np, &v, err, sizeof err) == 0, "%s: %s", path, err))
        return;
    CHECK(nc == ncomp && np == npos, "%s: %d components x %lld positions, want %d x %lld", path, nc,
          (long long)np, ncomp, (long long)npos);
    int bad = 0;
    for (int64_t i = 0; nc == ncomp && np == npos && i < npos; i++)
        for (int c = 0; c < ncomp; c++)
            bad += v[i * ncomp + c] != val(i, c);
    CHECK(bad == 0, "%s: %d values differ", path, bad);
    free(v);
}

static void check_meta(const char *path, int dim)
{
    char err[512];
    tbrf_io_meta m;
    if (!CHECK(tbrf_io_read_meta(path, &m, err, sizeof err) == 0, "%s: %s", path, err))
        return;
    CHECK(m.ncomp == dim, "%s: ncomp %d", path, m.ncomp);
    CHECK(m.vector_kind && strcmp(m.vector_kind, "mixed") == 0, "%s: vector_kind", path);
    CHECK(m.zeta == 0.5 && m.accuracy == 1e-6, "%s: zeta %g accuracy %g", path, m.zeta, m.accuracy);
    CHECK(m.box == 1, "%s: box", path);
    for (int c = 0; c < dim; c++)
        CHECK(m.box_origin[c] == -1.0 && m.box_length[c] == 16.0 + c && m.box_n[c] == 32 + c,
              "%s: box axis %d", path, c);
    CHECK(m.method_name && strcmp(m.method_name, "nufft") == 0, "%s: method_ran", path);
    tbrf_io_meta_free(&m);
}

/* A grid of n cells, ncomp = dim, pushed in pieces of 7 cells. */
static void check_parts(const char *path, int dim, int split, int64_t nt);

static void grid_file(const char *path, int flags, int dim, int precision, int xdmf)
{
    const int64_t n[3] = {5, 4, dim == 3 ? 3 : 1};
    const int64_t cells = n[0] * n[1] * n[2];
    char err[512];
    tbrf_io_meta m;
    fill_meta(&m, dim, 1, n, 0);
    m.opts.precision = precision;
    tbrf_io_writer *w = tbrf_io_create(path, flags, err, sizeof err);
    REQUIRE(w, , "%s: %s", path, err);
    CHECK(tbrf_io_set_components(w, dim) == 0, "%s: set_components", path);
    CHECK(tbrf_io_grid_begin(w, dim, n, precision) == 0, "%s: %s", path, tbrf_io_message(w));
    CHECK(tbrf_io_set_components(w, 1) == -1, "components after the grid began refused");
    for (int64_t first = 0; first < cells; first += 7) {
        int64_t count = cells - first < 7 ? cells - first : 7;
        double d[7 * 3];
        float f[7 * 3];
        for (int64_t i = 0; i < count; i++)
            for (int c = 0; c < dim; c++) {
                d[i * dim + c] = val(first + i, c);
                f[i * dim + c] = (float)val(first + i, c);
            }
        CHECK(tbrf_io_grid_push(w, first, count, precision == TBRF_FLOAT ? (void *)f : (void *)d) ==
                  0,
              "%s: push %s", path, tbrf_io_message(w));
    }
    CHECK(tbrf_io_write_meta(w, &m) == 0, "%s: meta %s", path, tbrf_io_message(w));
    if (xdmf)
        CHECK(tbrf_io_attach_xdmf(w, &m) == 0, "%s: xdmf %s", path, tbrf_io_message(w));
    CHECK(tbrf_io_commit(w) == 0, "%s: commit %s", path, tbrf_io_message(w));
    tbrf_io_close(w);
    check_values(path, dim, cells);
    check_meta(path, dim);
    check_parts(path, dim, (flags & TBRF_IO_NETCDF) != 0, 0);
}

/* The cell number of in-plane position (i, j) of plane `index` across
 * axis (-1: the whole grid, i the cell number). */
static int64_t plane_cell(const int64_t n[3], int axis, int64_t index, int64_t i, int64_t j)
{
    int64_t c[3];
    if (axis < 0)
        return i;
    int a = axis == 0 ? 1 : 0, b = axis == 2 ? 1 : 2;
    c[axis] = index, c[a] = i, c[b] = j;
    return (c[2] * n[1] + c[1]) * n[0] + c[0];
}

/* tbrf_io_grid_layout and tbrf_io_read_grid_part (what `tbrf preview`
 * and `tbrf spectrum` read) on a vector grid whose frame t holds
 * val(i, c) + 100 t: the layout, every component and the magnitude of
 * the planes across each axis and of the whole grid, and the refusals
 * of a frame, component or plane the file lacks. */
static void check_parts(const char *path, int dim, int split, int64_t nt)
{
    const int64_t n[3] = {5, 4, dim == 3 ? 3 : 1};
    char err[512];
    tbrf_io_layout L;
    REQUIRE(tbrf_io_grid_layout(path, &L, err, sizeof err) == 0, , "%s: layout %s", path, err);
    CHECK(L.dim == dim && L.ncomp == dim && L.split == split && L.nt == nt && L.n[0] == n[0] &&
              L.n[1] == n[1] && L.n[2] == n[2],
          "%s: layout dim %d ncomp %d split %d nt %lld n %lldx%lldx%lld", path, L.dim, L.ncomp,
          L.split, (long long)L.nt, (long long)L.n[0], (long long)L.n[1], (long long)L.n[2]);
    int64_t frame = nt > 0 ? nt - 1 : 0;
    for (int axis = -1; axis < dim; axis++) {
        int64_t index = axis < 0 ? 0 : n[axis] - 1;
        int64_t w = axis < 0 ? n[0] * n[1] * n[2] : axis == 0 ? n[1] : n[0];
        int64_t h = axis < 0 ? 1 : axis == 2 ? n[1] : n[2];
        for (int comp = TBRF_IO_MAGNITUDE; comp < dim; comp++) {
            double *v = NULL;
            if (!CHECK(tbrf_io_read_grid_part(path, &L, frame, axis, index, comp, &v, err,
                                              sizeof err) == 0,
                       "%s: axis %d comp %d: %s", path, axis, comp, err))
                continue;
            int bad = 0, per = comp == TBRF_IO_ALL_COMPONENTS ? dim : 1;
            for (int64_t j = 0; j < h; j++)
                for (int64_t i = 0; i < w; i++) {
                    int64_t cell = plane_cell(n, axis, index, i, j);
                    for (int c = 0; c < per; c++) {
                        double want = 0;
                        if (comp == TBRF_IO_MAGNITUDE) {
                            for (int q = 0; q < dim; q++)
                                want += pow(val(cell, q) + 100.0 * frame, 2);
                            want = sqrt(want);
                        } else {
                            want = val(cell, comp >= 0 ? comp : c) + 100.0 * frame;
                        }
                        double got = v[(j * w + i) * per + c];
                        bad += !(fabs(got - want) <= 1e-12 * fabs(want));
                    }
                }
            CHECK(bad == 0, "%s: axis %d comp %d: %d values differ", path, axis, comp, bad);
            free(v);
        }
    }
    double *v = NULL;
    CHECK(tbrf_io_read_grid_part(path, &L, nt > 0 ? nt : 1, -1, 0, 0, &v, err, sizeof err) ==
                  -1 &&
              strstr(err, "frame"),
          "%s: a frame past the last refused (%s)", path, err);
    CHECK(tbrf_io_read_grid_part(path, &L, frame, -1, 0, dim, &v, err, sizeof err) == -1,
          "%s: component %d refused", path, dim);
    CHECK(tbrf_io_read_grid_part(path, &L, frame, 0, n[0], 0, &v, err, sizeof err) == -1 &&
              strstr(err, "--index"),
          "%s: a plane past the last refused (%s)", path, err);
}

/* A `tbrf drive`-like series of nt frames on the 5 x 4 (x 3) grid, frame
 * t holding val(i, c) + 100 t, then check_parts on it. */
static void series_file(const char *path, int dim, int64_t nt)
{
    const int64_t n[3] = {5, 4, dim == 3 ? 3 : 1};
    const int64_t cells = n[0] * n[1] * n[2];
    char err[512];
    tbrf_io_writer *w = tbrf_io_create(path, 0, err, sizeof err);
    REQUIRE(w, , "%s: %s", path, err);
    CHECK(tbrf_io_series_begin(w, dim, dim, nt, n, 0, NULL) == 0, "%s: %s", path, tbrf_io_message(w));
    double v[5 * 4 * 3 * 3];
    for (int64_t t = 0; t < nt; t++) {
        for (int64_t i = 0; i < cells; i++)
            for (int c = 0; c < dim; c++)
                v[i * dim + c] = val(i, c) + 100.0 * t;
        CHECK(tbrf_io_series_step(w, t, 0.5 * t, v) == 0, "%s: step %s", path, tbrf_io_message(w));
    }
    CHECK(tbrf_io_commit(w) == 0, "%s: commit %s", path, tbrf_io_message(w));
    tbrf_io_close(w);
    check_parts(path, dim, 0, nt);
    int64_t m = 0;
    double *t = NULL;
    CHECK(tbrf_io_read_times(path, &m, &t, err, sizeof err) == 0 && m == nt && t[nt - 1] == 0.5 * (nt - 1),
          "%s: the times read back (%s)", path, err);
    free(t);
}

/* 11 points in 3D: streamed in pieces of 4, or written whole. */
static void points_file(const char *path, int flags, int streamed, int xdmf)
{
    enum { N = 11 };
    double xyz[N * 3], v[N * 3];
    for (int i = 0; i < N; i++)
        for (int c = 0; c < 3; c++) {
            xyz[i * 3 + c] = 0.5 * i + c;
            v[i * 3 + c] = val(i, c);
        }
    char err[512];
    tbrf_io_meta m;
    const int64_t none[3] = {0, 0, 0};
    fill_meta(&m, 3, 0, none, N);
    tbrf_io_writer *w = tbrf_io_create(path, flags, err, sizeof err);
    REQUIRE(w, , "%s: %s", path, err);
    CHECK(tbrf_io_set_components(w, 3) == 0, "%s: set_components", path);
    if (streamed) {
        CHECK(tbrf_io_points_begin(w, 3, N, TBRF_DOUBLE) == 0, "%s: %s", path, tbrf_io_message(w));
        for (int first = 0; first < N; first += 4) {
            int count = N - first < 4 ? N - first : 4;
            CHECK(tbrf_io_points_push(w, first, count, xyz + 3 * first, v + 3 * first) == 0,
                  "%s: push %s", path, tbrf_io_message(w));
        }
    } else {
        CHECK(tbrf_io_write_points(w, 3, N, xyz) == 0 &&
                  tbrf_io_write_values(w, N, TBRF_DOUBLE, v) == 0,
              "%s: %s", path, tbrf_io_message(w));
    }
    CHECK(tbrf_io_write_meta(w, &m) == 0, "%s: meta %s", path, tbrf_io_message(w));
    if (xdmf)
        CHECK(tbrf_io_attach_xdmf(w, &m) == 0, "%s: xdmf %s", path, tbrf_io_message(w));
    CHECK(tbrf_io_commit(w) == 0, "%s: commit %s", path, tbrf_io_message(w));
    tbrf_io_close(w);
    check_values(path, 3, N);
    check_meta(path, 3);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_io_vector DIR [keep]\n");
        return 2;
    }
    char p[8][1024];
    const char *names[8] = {"g3.h5", "g2f.h5", "p3s.h5", "p3w.h5", "g3.nc", "p3s.nc", "s.h5", "g2.nc"};
    for (int i = 0; i < 8; i++)
        snprintf(p[i], sizeof p[i], "%s/%s", argv[1], names[i]);
    grid_file(p[0], 0, 3, TBRF_DOUBLE, 1);
    grid_file(p[1], TBRF_IO_COMPRESS, 2, TBRF_FLOAT, 1);
    points_file(p[2], 0, 1, 1);
    points_file(p[3], TBRF_IO_COMPRESS, 0, 0);
    grid_file(p[4], TBRF_IO_NETCDF, 3, TBRF_DOUBLE, 0);
    points_file(p[5], TBRF_IO_NETCDF, 1, 0);
    grid_file(p[7], TBRF_IO_NETCDF | TBRF_IO_COMPRESS, 2, TBRF_FLOAT, 0);
    {
        char sp[1100];
        snprintf(sp, sizeof sp, "%s/series3.h5", argv[1]);
        series_file(sp, 3, 4);
        snprintf(sp, sizeof sp, "%s/series2.h5", argv[1]);
        series_file(sp, 2, 3);
    }
    /* the XDMF of a vector grid and of vector points */
    char x[1100];
    snprintf(x, sizeof x, "%s/g3.xmf", argv[1]);
    const char *t = slurp(x);
    CHECK(t && strstr(t, "AttributeType=\"Vector\"") && strstr(t, "Dimensions=\"3 4 5 3\""),
          "g3.xmf: a Vector attribute of (3, 4, 5, 3)");
    snprintf(x, sizeof x, "%s/g2f.xmf", argv[1]);
    t = slurp(x);
    CHECK(t && strstr(t, "AttributeType=\"Vector\"") && strstr(t, "Dimensions=\"1 4 5 2\""),
          "g2f.xmf: a Vector attribute of (1, 4, 5, 2)");
    snprintf(x, sizeof x, "%s/p3s.xmf", argv[1]);
    t = slurp(x);
    CHECK(t && strstr(t, "AttributeType=\"Vector\"") && strstr(t, "Dimensions=\"11 3\""),
          "p3s.xmf: a Vector attribute of (11, 3)");
    /* tbrf info names the components' axis */
    {
        char err[512], buf[8192];
        FILE *t = tmpfile();
        if (CHECK(t && tbrf_io_info(p[0], t, err, sizeof err) == 0, "info: %s", err)) {
            rewind(t);
            size_t n = fread(buf, 1, sizeof buf - 1, t);
            buf[n] = 0;
            CHECK(strstr(buf, "(3, 4, 5, 3)") && strstr(buf, "[nz, ny, nx, component]") &&
                      strstr(buf, "vector_kind"),
                  "info shows the vector layout:\n%s", buf);
            /* yt's layout (hdf5_gdf.c), written with the side file, in one line */
            CHECK(strstr(buf, "yt's Grid Data Format layout") && !strstr(buf, "/grid_level") &&
                      !strstr(buf, "/data/grid_0000000000"),
                  "info folds yt's layout into one line:\n%s", buf);
        }
        if (t)
            fclose(t);
    }
    /* a scalar file: no vector attributes, read back as one component */
    {
        char err[512];
        tbrf_io_meta m;
        const int64_t n[3] = {3, 2, 1};
        fill_meta(&m, 2, 1, n, 0);
        m.ncomp = 1;
        m.box = 0;
        m.accuracy = NAN;
        m.method_name = NULL;
        tbrf_io_writer *w = tbrf_io_create(p[6], 0, err, sizeof err);
        REQUIRE(w, 1, "%s", err);
        CHECK(tbrf_io_set_components(w, 0) == -1 && tbrf_io_set_components(w, 4) == -1,
              "0 and 4 components refused");
        double v[6];
        for (int i = 0; i < 6; i++)
            v[i] = val(i, 0);
        CHECK(tbrf_io_grid_begin(w, 2, n, TBRF_DOUBLE) == 0 && tbrf_io_grid_push(w, 0, 6, v) == 0 &&
                  tbrf_io_write_meta(w, &m) == 0 && tbrf_io_commit(w) == 0,
              "scalar file: %s", tbrf_io_message(w));
        tbrf_io_close(w);
        check_values(p[6], 1, 6);
        tbrf_io_meta r;
        if (CHECK(tbrf_io_read_meta(p[6], &r, err, sizeof err) == 0, "%s", err)) {
            CHECK(r.ncomp == 1 && r.box == 0 && r.vector_kind == NULL && isnan(r.zeta) &&
                      isnan(r.accuracy) && r.method_name == NULL,
                  "a scalar file reads back as scalar, no box");
            tbrf_io_meta_free(&r);
        }
        tbrf_io_file *f = tbrf_io_open(p[6], err, sizeof err);
        int64_t k;
        CHECK(f && tbrf_io_attr_i64(f, "components", &k, 1) == 0, "no components attribute");
        tbrf_io_file_close(f);
    }
    if (argc < 3 || strcmp(argv[2], "keep") != 0)
        for (int i = 0; i < 8; i++) {
            remove(p[i]);
            char s[1100];
            snprintf(s, sizeof s, "%.*s.xmf", (int)(strlen(p[i]) - 3), p[i]);
            remove(s);
        }
    return check_report("test_io_vector");
}
