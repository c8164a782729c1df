/* test_stats_anisotropy.c — the measured covariance of anisotropic,
 * rotated Gaussian-covariance fields (tbrf_model_set_anisotropy) along
 * each principal axis and across them, against C_iso(|S^-1 R^T x|), for
 * turning bands, the FFT method and the NUFFT (a periodic plan off its
 * box lattice), in 2D and 3D.
 *
 * The rotations are chosen with rational matrices so that the principal
 * axes are grid directions: 2D angle atan2(3, 4), axes (4, 3)/5 and
 * (-3, 4)/5; 3D angles (-pi/4, -asin(1/3), -pi/4), which in GSTools'
 * convention (R = G_yz(a3) G_xz(-a2) G_xy(a1)) is the matrix whose
 * columns are (2, -1, 2)/3, (2, 2, -1)/3, (-1, 2, 2)/3. The target is
 * computed from those rational axes, not from the library's matrices, so
 * a wrong angle convention fails it; the library's rotation is also
 * checked against them to 1e-14.
 *
 * Estimator: for a lag vector l (integer cells), C_hat(l) = mean of
 * z(x) z(x + l) over the cells x with x + l in the grid (the field's mean
 * is zero and not subtracted). E[C_hat] = C(l) for turning bands; for the
 * periodic methods it is the periodic covariance, which differs from
 * C(l) by the missing k = 0 mode, det S P_iso(0) / V (below 2e-3 here,
 * a tenth of the standard error, printed). Tolerance: the standard error
 * of the mean of the R per-realization estimates, Student's t with R - 1
 * degrees of freedom at two-sided 1e-3 / (number of lags) (Bonferroni),
 * so a correct library fails a case with probability below 1e-3.
 */
#include "support/testutil.h"
#include "core/model.h"

#define NREAL 12
#define MAXLAG 16

enum { TB, FFT, NUFFT };
static const char *METHOD_NAME[] = {"turning bands", "FFT", "NUFFT"};

typedef struct {
    int dim;
    int64_t n;            /* cells per axis */
    double length;        /* the model's length */
    double scale[3];      /* per-axis factors */
    double angles[3];
    double axes[3][3];    /* the principal axes (rational), axes[i] = column i of R */
    int nlag;
    int lag[MAXLAG][3];   /* lag vectors in cells */
    const char *what[MAXLAG];
} acase;

/* sigma^2 = 1: C(l) = exp(-|S^-1 R^T l|^2 / length^2). */
static double target(const acase *c, const int l[3])
{
    double q2 = 0.0;
    for (int i = 0; i < c->dim; i++) {
        double y = 0.0;
        for (int d = 0; d < c->dim; d++)
            y += c->axes[i][d] * (double)l[d];
        y /= c->scale[i] * c->length;
        q2 += y * y;
    }
    return exp(-q2);
}

static double lag_estimate(const acase *c, int64_t n, const double *z, const int l[3])
{
    const int64_t nz = c->dim == 3 ? n : 1;
    double s = 0.0;
    int64_t cnt = 0;
    for (int64_t k = 0; k < nz; k++) {
        const int64_t k2 = k + l[2];
        if (k2 < 0 || k2 >= nz)
            continue;
        for (int64_t j = 0; j < n; j++) {
            const int64_t j2 = j + l[1];
            if (j2 < 0 || j2 >= n)
                continue;
            for (int64_t i = 0; i < n; i++) {
                const int64_t i2 = i + l[0];
                if (i2 < 0 || i2 >= n)
                    continue;
                s += z[(k * n + j) * n + i] * z[(k2 * n + j2) * n + i2];
                cnt++;
            }
        }
    }
    return s / (double)cnt;
}

/* The cells per axis of the grid the method evaluates. */
static int64_t grid_cells(const acase *c, int method)
{
    return method == NUFFT ? c->n - 1 : c->n;
}

static tbrf_plan *make(const acase *c, const tbrf_model *m, int method, uint64_t seed)
{
    tbrf_opts o;
    tbrf_default_opts(&o);
    const double lo[3] = {0, 0, 0}, box = (double)c->n;
    const double spacing[3] = {1, 1, 1};
    const int64_t box_n[3] = {c->n, c->n, c->dim == 3 ? c->n : 1}, g = grid_cells(c, method);
    const int64_t cnt[3] = {g, g, c->dim == 3 ? g : 1};
    /* NUFFT: the same box, evaluated at a grid of one cell fewer a
     * fraction of a cell off its lattice (a grid that is the lattice
     * would run the FFT method) */
    const double origin[3] = {method == NUFFT ? 0.37 : 0, method == NUFFT ? 0.61 : 0,
                              method == NUFFT ? 0.23 : 0};
    tbrf_plan *p = NULL;
    int st;
    if (method == NUFFT) {
        const double len[3] = {box, box, box};
        st = tbrf_make_periodic_plan(m, c->dim, lo, len, box_n, seed, &o, &p);
    } else {
        o.method = method == FFT ? TBRF_METHOD_FFT : TBRF_METHOD_TB;
        o.periodic = method == FFT;
        const double hi[3] = {method == FFT ? box : box - 1, method == FFT ? box : box - 1,
                              method == FFT ? box : box - 1};
        st = tbrf_make_plan(m, c->dim, lo, hi, 1.0, seed, &o, &p);
    }
    if (!CHECK(st == TBRF_OK, "%s: make plan: %s", METHOD_NAME[method], tbrf_plan_message(p)) ||
        !CHECK(tbrf_set_grid(p, origin, spacing, cnt) == TBRF_OK, "%s: set_grid: %s",
               METHOD_NAME[method], tbrf_plan_message(p)) ||
        !CHECK(tbrf_plan_method(p) == (method == TB ? TBRF_METHOD_TB
                                       : method == FFT ? TBRF_METHOD_FFT : TBRF_METHOD_NUFFT),
               "%s: the plan runs method %d", METHOD_NAME[method], tbrf_plan_method(p))) {
        tbrf_destroy(p);
        return NULL;
    }
    return p;
}

static void run_case(const char *name, const acase *c, int method, uint64_t seed)
{
    tbrf_model *m = NULL;
    CHECK(tbrf_model_gaussian(c->length, &m) == TBRF_OK, "gaussian");
    CHECK(tbrf_model_set_anisotropy(m, c->scale, c->angles) == TBRF_OK, "set_anisotropy: %s",
          tbrf_model_message(m));
    /* the library's principal axes are the rational ones */
    double R[9];
    tbrfi_model_anis_rotation(m, c->dim, R);
    for (int i = 0; i < c->dim; i++)
        for (int d = 0; d < c->dim; d++)
            CHECK(fabs(R[3 * d + i] - c->axes[i][d]) < 1e-14, "%s: R[%d][%d] = %.17g, axis %d "
                  "component %d is %.17g", name, d, i, R[3 * d + i], i, d, c->axes[i][d]);
    tbrf_plan *p = make(c, m, method, seed);
    if (!p) {
        tbrf_model_destroy(m);
        return;
    }
    const int64_t N = tbrf_plan_count(p);
    double *z = tu_malloc(sizeof(double) * (size_t)N);
    static double est[MAXLAG][NREAL];
    for (int r = 0; r < NREAL; r++) {
        if (tu_execute(p, (uint64_t)r, z))
            break;
        for (int k = 0; k < c->nlag; k++)
            est[k][r] = lag_estimate(c, grid_cells(c, method), z, c->lag[k]);
    }
    double det = 1.0;
    for (int d = 0; d < c->dim; d++)
        det *= c->scale[d] * c->length * sqrt(M_PI);
    const double t = tu_t_quantile(1e-3 / c->nlag, NREAL - 1);
    printf("%s, %s: %lld^%d cells, length %g x (%g, %g, %g), %d realizations, critical t %.2f; "
           "the periodic methods' k = 0 bias %.1e\n", name, METHOD_NAME[method], (long long)c->n,
           c->dim, c->length, c->scale[0], c->scale[1], c->scale[2], NREAL, t,
           det / pow((double)c->n, c->dim));
    printf("  lag             where          C_hat     theory    SE      (C_hat-theory)/SE\n");
    for (int k = 0; k < c->nlag; k++) {
        double mean, sd;
        tu_mean_sd(est[k], NREAL, &mean, &sd);
        const double se = sd / sqrt((double)NREAL), th = target(c, c->lag[k]);
        printf("  (%3d,%3d,%3d)  %-14s %8.4f  %8.4f  %7.4f  %+6.2f\n", c->lag[k][0], c->lag[k][1],
               c->lag[k][2], c->what[k], mean, th, se, (mean - th) / se);
        CHECK(fabs(mean - th) < t * se, "%s, %s: lag (%d, %d, %d) (%s): C_hat %.4f, theory %.4f "
              "(%.2f SE, critical %.2f)", name, METHOD_NAME[method], c->lag[k][0], c->lag[k][1],
              c->lag[k][2], c->what[k], mean, th, (mean - th) / se, t);
    }
    free(z);
    tbrf_destroy(p);
    tbrf_model_destroy(m);
}

int main(void)
{
    /* 2D: lengths 10 and 5 cells along (4, 3)/5 and (-3, 4)/5 */
    acase c2 = {.dim = 2, .n = 256, .length = 10, .scale = {1, 0.5, 1},
                .angles = {atan2(3.0, 4.0), 0, 0},
                .axes = {{0.8, 0.6, 0}, {-0.6, 0.8, 0}},
                .nlag = 9,
                .lag = {{0, 0, 0}, {4, 3, 0}, {8, 6, 0}, {12, 9, 0}, {-3, 4, 0}, {-6, 8, 0},
                        {1, 7, 0}, {3, 0, 0}, {0, 3, 0}},
                .what = {"variance", "axis 1", "axis 1", "axis 1", "axis 2", "axis 2",
                         "across (1+2)", "across (x)", "across (y)"}};
    /* 3D: lengths 6, 4.5, 3 along (2,-1,2)/3, (2,2,-1)/3, (-1,2,2)/3 */
    acase c3 = {.dim = 3, .n = 64, .length = 6, .scale = {1, 0.75, 0.5},
                .angles = {-M_PI / 4, -asin(1.0 / 3.0), -M_PI / 4},
                .axes = {{2.0 / 3, -1.0 / 3, 2.0 / 3}, {2.0 / 3, 2.0 / 3, -1.0 / 3},
                         {-1.0 / 3, 2.0 / 3, 2.0 / 3}},
                .nlag = 10,
                .lag = {{0, 0, 0}, {2, -1, 2}, {4, -2, 4}, {2, 2, -1}, {4, 4, -2}, {-1, 2, 2},
                        {-2, 4, 4}, {4, 1, 1}, {2, 0, 0}, {0, 0, 2}},
                .what = {"variance", "axis 1", "axis 1", "axis 2", "axis 2", "axis 3",
                         "axis 3", "across (1+2)", "across (x)", "across (z)"}};
    for (int method = TB; method <= NUFFT; method++) {
        run_case("2D", &c2, method, 3301 + (uint64_t)method);
        run_case("3D", &c3, method, 3311 + (uint64_t)method);
    }
    return check_report("test_stats_anisotropy");
}
