/* test_fft_modes_api.c — tbrf_fft_modes, the FFT method's modes of a
 * range of rows (the k slab a rank of the distributed FFT fills):
 *  - any split of the rows gives the whole array's bits (3D and 2D,
 *    scalar and every vector component, an origin off zero);
 *  - FFTW's in-place c2r of all the rows, rounded to float, is the plan's
 *    float field bit for bit (the method's own float transform is in
 *    place), and the double field within 2 log2(N) eps max|f|;
 *  - statuses: no grid, a turning-bands plan, a sub-grid, another n, a
 *    component the plan lacks, rows outside the array, NULL. */
#include <fftw3.h>
#include <math.h>
#include <string.h>

#include "support/testutil.h"

static tbrf_plan *make(const tbrf_model *m, int dim, int method, int vector, int precision)
{
    tbrf_opts o;
    tbrf_default_opts(&o);
    o.method = method;
    o.vector = vector;
    o.zeta = 0.3;
    o.precision = precision;
    const double lo[3] = {-10, -10, -10}, hi[3] = {300, 300, 300};
    tbrf_plan *p = NULL;
    CHECK(tbrf_make_plan(m, dim, lo, hi, 1.0, 7, &o, &p) == TBRF_OK, "make_plan: %s", tbrf_plan_message(p));
    return p;
}

/* Rows in three uneven slabs against one call for all of them. */
static void check_split(tbrf_plan *p, const int64_t n[3], int64_t rows, int64_t nh, int comp)
{
    const size_t row = 2 * (size_t)nh * sizeof(double);
    double *whole = tu_malloc(row * (size_t)rows), *parts = tu_malloc(row * (size_t)rows);
    CHECK(tbrf_fft_modes(p, n, 3, comp, 0, rows, whole) == TBRF_OK, "modes: %s", tbrf_plan_message(p));
    const int64_t cut[4] = {0, rows / 3, rows / 3 + 1, rows};
    for (int k = 0; k < 3; k++)
        CHECK(tbrf_fft_modes(p, n, 3, comp, cut[k], cut[k + 1] - cut[k],
                             (double *)((char *)parts + row * (size_t)cut[k])) == TBRF_OK,
              "slab %d: %s", k, tbrf_plan_message(p));
    CHECK(memcmp(whole, parts, row * (size_t)rows) == 0, "component %d: slabs = the whole array", comp);
    free(whole);
    free(parts);
}

/* The whole array transformed in place against the plan's own fields. */
static void check_transform(const tbrf_model *m, int dim, const int64_t n[3])
{
    const int64_t nh = n[0] / 2 + 1, rows = n[1] * (dim == 3 ? n[2] : 1), N = n[0] * rows;
    const double origin[3] = {1.5, -2.0, 0.25}, sp[3] = {1, 1, 1};
    tbrf_plan *pd = make(m, dim, TBRF_METHOD_FFT, TBRF_SCALAR, TBRF_DOUBLE);
    tbrf_plan *pf = make(m, dim, TBRF_METHOD_FFT, TBRF_SCALAR, TBRF_FLOAT);
    CHECK(tbrf_set_grid(pd, origin, sp, n) == TBRF_OK && tbrf_set_grid(pf, origin, sp, n) == TBRF_OK,
          "set_grid");
    fftw_complex *C = fftw_alloc_complex((size_t)(nh * rows));
    CHECK(tbrf_fft_modes(pd, n, 3, -1, 0, rows, (double *)C) == TBRF_OK, "modes: %s", tbrf_plan_message(pd));
    double *R = (double *)C;
    fftw_plan fp = dim == 3 ? fftw_plan_dft_c2r_3d((int)n[2], (int)n[1], (int)n[0], C, R, FFTW_ESTIMATE)
                            : fftw_plan_dft_c2r_2d((int)n[1], (int)n[0], C, R, FFTW_ESTIMATE);
    fftw_execute(fp);
    double *vd = tu_malloc(sizeof(double) * (size_t)N);
    float *vf = tu_malloc(sizeof(float) * (size_t)N);
    CHECK(tbrf_execute(pd, 3, vd) == TBRF_OK && tbrf_execute(pf, 3, vf) == TBRF_OK, "execute");
    int same = 1;
    double dmax = 0.0, amax = 0.0;
    for (int64_t r = 0; r < rows; r++)
        for (int64_t i = 0; i < n[0]; i++) {
            const double x = R[r * 2 * nh + i];
            same &= (float)x == vf[r * n[0] + i];
            dmax = fmax(dmax, fabs(x - vd[r * n[0] + i]));
            amax = fmax(amax, fabs(vd[r * n[0] + i]));
        }
    CHECK(same, "%dD: the in-place c2r of the modes, in float, is the plan's float field bitwise", dim);
    const double bound = 2.0 * log2((double)N) * 0x1p-52 * amax;
    CHECK(amax > 0 && dmax <= bound, "%dD: double within %.3g (max diff %.3g)", dim, bound, dmax);
    fftw_destroy_plan(fp);
    fftw_free(C);
    free(vd);
    free(vf);
    tbrf_destroy(pd);
    tbrf_destroy(pf);
}

static void check_statuses(const tbrf_model *m)
{
    const int64_t n[3] = {12, 10, 8}, other[3] = {12, 10, 9}, start[3] = {0, 0, 2}, cnt[3] = {12, 10, 4};
    const double o[3] = {0, 0, 0}, sp[3] = {1, 1, 1};
    double buf[2 * 7 * 80];
    tbrf_plan *p = make(m, 3, TBRF_METHOD_FFT, TBRF_SCALAR, TBRF_DOUBLE);
    CHECK(tbrf_fft_modes(p, n, 0, -1, 0, 1, buf) == TBRF_ERR_NO_GEOMETRY, "no grid: NO_GEOMETRY");
    CHECK(tbrf_set_grid(p, o, sp, n) == TBRF_OK, "set_grid");
    CHECK(tbrf_fft_modes(NULL, n, 0, -1, 0, 1, buf) == TBRF_ERR_NULL, "NULL plan");
    CHECK(tbrf_fft_modes(p, n, 0, -1, 0, 1, NULL) == TBRF_ERR_NULL, "NULL modes");
    CHECK(tbrf_fft_modes(p, other, 0, -1, 0, 1, buf) == TBRF_ERR_UNSUPPORTED, "another n: UNSUPPORTED");
    CHECK(tbrf_fft_modes(p, n, 0, 0, 0, 1, buf) == TBRF_ERR_INVALID, "component 0 of a scalar: INVALID");
    CHECK(tbrf_fft_modes(p, n, 0, -1, 75, 6, buf) == TBRF_ERR_INVALID, "rows past the end: INVALID");
    CHECK(tbrf_fft_modes(p, n, 0, -1, -1, 1, buf) == TBRF_ERR_INVALID, "a negative row: INVALID");
    CHECK(strlen(tbrf_plan_message(p)) > 0, "a message: %s", tbrf_plan_message(p));
    CHECK(tbrf_fft_modes(p, n, 0, -1, 74, 6, buf) == TBRF_OK, "the last rows: OK");
    CHECK(tbrf_set_subgrid(p, o, sp, n, start, cnt) == TBRF_OK, "set_subgrid");
    CHECK(tbrf_fft_modes(p, n, 0, -1, 0, 1, buf) == TBRF_ERR_UNSUPPORTED, "a sub-grid: UNSUPPORTED");
    tbrf_destroy(p);
    p = make(m, 3, TBRF_METHOD_TB, TBRF_SCALAR, TBRF_DOUBLE);
    CHECK(tbrf_set_grid(p, o, sp, n) == TBRF_OK, "set_grid (TB)");
    CHECK(tbrf_fft_modes(p, n, 0, -1, 0, 1, buf) == TBRF_ERR_UNSUPPORTED, "turning bands: UNSUPPORTED");
    tbrf_destroy(p);
    p = make(m, 3, TBRF_METHOD_FFT, TBRF_VECTOR_MIXED, TBRF_DOUBLE);
    CHECK(tbrf_set_grid(p, o, sp, n) == TBRF_OK, "set_grid (vector)");
    CHECK(tbrf_fft_modes(p, n, 0, -1, 0, 1, buf) == TBRF_ERR_INVALID, "scalar of a vector plan: INVALID");
    CHECK(tbrf_fft_modes(p, n, 0, 3, 0, 1, buf) == TBRF_ERR_INVALID, "component 3 in 3D: INVALID");
    CHECK(tbrf_fft_modes(p, n, (uint64_t)1 << 62, 0, 0, 1, buf) == TBRF_ERR_INVALID,
          "a vector realization of 2^62: INVALID");
    tbrf_destroy(p);
}

int main(void)
{
    tbrf_model *m = NULL;
    CHECK(tbrf_model_gaussian(3.0, &m) == TBRF_OK, "model");
    const int64_t n3[3] = {20, 18, 16}, n2[3] = {33, 25, 1};
    const double o[3] = {0.5, 0.0, -1.0}, sp[3] = {1, 1, 1};
    for (int vector = 0; vector <= 1; vector++)
        for (int dim = 2; dim <= 3; dim++) {
            const int64_t *n = dim == 3 ? n3 : n2;
            tbrf_plan *p = make(m, dim, TBRF_METHOD_FFT, vector ? TBRF_VECTOR_MIXED : TBRF_SCALAR, TBRF_DOUBLE);
            CHECK(tbrf_set_grid(p, o, sp, n) == TBRF_OK, "set_grid: %s", tbrf_plan_message(p));
            const int64_t rows = n[1] * (dim == 3 ? n[2] : 1);
            for (int c = vector ? 0 : -1; c < (vector ? dim : 0); c++)
                check_split(p, n, rows, n[0] / 2 + 1, c);
            tbrf_destroy(p);
        }
    check_transform(m, 3, n3);
    check_transform(m, 2, n2);
    const int64_t n256[3] = {256, 8, 8}; /* n_x = 256: out of place rounds differently */
    check_transform(m, 3, n256);
    check_statuses(m);
    tbrf_model_destroy(m);
    return check_report("test_fft_modes_api");
}
