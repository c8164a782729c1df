/* test_model_band.c — tbrf_model_set_band: a band cut on any
 * model, checked against independent adaptive quadrature of the uncut
 * model's spectrum (tests/core/test_model_quad.h):
 *  - the cut model's variance is renormalised to sigma^2 over the band:
 *    its spectrum is the uncut one divided by the fraction of sigma^2 the
 *    band holds, and zero outside;
 *  - its covariance is the Hankel transform of the cut spectrum (Gaussian
 *    and Matern, 2D and 3D; with and without an upper cut, which take
 *    different paths in model.c);
 *  - the line spectrum integrates to pi sigma^2 ((1/pi)∫P1 = sigma^2);
 *  - tables and power laws are narrowed, callbacks too, and the
 *    description says so; bad bands are refused with a message;
 *  - a callback with a narrow peak has the variance of its
 *    spectrum (it was up to 35% off: one fixed rule per doubling piece
 *    missed the peak), so the plan's variance_resolved, a sum over the
 *    lines' modes, is sigma^2 to the lines' discretisation, not above it.
 * Tolerance 1e-9 relative to sigma^2: the reference quadrature targets
 * 1e-13, the library's ~1e-12 (test_model.c); 1e-9 still catches a wrong
 * normalisation, a missing piece or a band edge off by one bin. */
#define _DEFAULT_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/model.h"
#include "core/test_model_quad.h"
#include "support/check.h"
#include "tbrf.h"

static const double PI = 3.14159265358979323846;

typedef struct ctx {
    const tbrf_model *m;
    int dim;
    double r;
} ctx;

/* c k^(d-1) P(k) w(kr) of the (uncut) model; w = 1 for r = 0. */
static double integrand(double k, void *vc)
{
    const ctx *c = vc;
    double v = tbrf_model_spectrum(c->m, c->dim, k) * (c->dim == 3 ? k * k / (2 * PI * PI) : k / (2 * PI));
    if (c->r == 0.0)
        return v;
    double x = k * c->r;
    return v * (c->dim == 3 ? (x < 1e-6 ? 1.0 : sin(x) / x) : j0(x));
}

/* ∫_lo^hi of it; an infinite hi by the tail rules of test_model_quad.h
 * beyond K = max(lo, 8) (oscillating for r > 0). */
static double band_integral(const tbrf_model *m, int dim, double r, double lo, double hi)
{
    ctx c = {m, dim, r};
    double top = isfinite(hi) ? hi : (lo > 8.0 ? lo : 8.0), sum = 0.0;
    /* pieces one oscillation wide keep the Gauss-Kronrod rule honest */
    double step = r > 0 ? PI / r : top - lo;
    for (double a = lo; a < top; a += step)
        sum += quad(integrand, &c, a, a + step < top ? a + step : top, 1e-15, 1e-14);
    if (!isfinite(hi))
        sum += r > 0 ? quad_osc_tail(integrand, &c, top, PI / r, 1e-14)
                     : quad_tail(integrand, &c, top, 1e-15);
    return sum;
}

static void check_model(const char *name, tbrf_model *(*make)(void), int dim, double lo, double hi)
{
    tbrf_model *u = make(), *b = make();
    char what[160];
    REQUIRE(u && b, , "%s: made", name);
    /* the uncut model at unit amplitude: its band holds `frac` of sigma^2 */
    tbrf_model_set_amplitude(u, 1.0);
    double total = tbrf_model_variance(u, dim);
    double frac = band_integral(u, dim, 0.0, lo, hi) / total;
    int st = tbrf_model_set_band(b, lo, hi);
    REQUIRE(st == TBRF_OK, , "%s: set_band %s", name, tbrf_model_message(b));
    CHECK(!tbrfi_model_is_covariance(b), "%s: a cut model has no closed-form covariance", name);
    CHECK_NEAR(tbrf_model_variance(b, dim), 1.0, 0, "%s: variance stays sigma^2", name);
    for (double k = 0.05; k < 6; k *= 1.37) {
        double want = (k >= lo && k <= hi) ? tbrf_model_spectrum(u, dim, k) / frac : 0.0;
        snprintf(what, sizeof what, "%s %dD: P(%g)", name, dim, k);
        CHECK_NEAR(tbrf_model_spectrum(b, dim, k), want, 1e-12 * want, "%s", what);
    }
    static const double rs[] = {0.0, 0.3, 1.0, 2.5, 7.0};
    for (size_t i = 0; i < sizeof rs / sizeof rs[0]; i++) {
        double want = band_integral(u, dim, rs[i], lo, hi) / frac;
        snprintf(what, sizeof what, "%s %dD: C(%g)", name, dim, rs[i]);
        CHECK_NEAR(tbrf_model_covariance(b, dim, rs[i]), want, 1e-9, "%s", what);
    }
    double line = tbrfi_model_integrate_line_spectrum(b, dim, 0.0, 1e3);
    CHECK_NEAR(line / PI, 1.0, 1e-9, "%s %dD: (1/pi) integral of P1 = sigma^2", name, dim);
    CHECK(strstr(tbrf_model_describe(b), "band=[") != NULL, "%s: described: %s", name,
          tbrf_model_describe(b));
    tbrf_model_destroy(u);
    tbrf_model_destroy(b);
}

static tbrf_model *gauss(void)
{
    tbrf_model *m = NULL;
    tbrf_model_gaussian(1.5, &m);
    return m;
}

static tbrf_model *matern(void)
{
    tbrf_model *m = NULL;
    tbrf_model_matern(2.0, 1.5, &m);
    return m;
}

static void test_table(void)
{
    /* P = k^-2 on [0.01, 100] as a table: cut to [0.1, 2] it is a power
     * law, whose 3D shape variance is (1/2pi^2)(2 - 0.1). */
    const double k[] = {0.01, 0.1, 1, 10, 100}, p[] = {1e4, 100, 1, 0.01, 1e-4};
    tbrf_model *t = NULL;
    REQUIRE(tbrf_model_table(5, k, p, &t) == TBRF_OK, , "table");
    tbrf_model_set_amplitude(t, 1.0);
    REQUIRE(tbrf_model_set_band(t, 0.1, 2.0) == TBRF_OK, , "table band: %s", tbrf_model_message(t));
    CHECK_NEAR(tbrf_model_variance(t, 3), 1.9 / (2 * PI * PI), 1e-13, "table cut variance 3D");
    CHECK_NEAR(tbrf_model_variance(t, 2), log(20.0) / (2 * PI), 1e-13, "table cut variance 2D");
    CHECK(tbrf_model_spectrum(t, 3, 3.0) == 0.0 && tbrf_model_spectrum(t, 3, 0.05) == 0.0,
          "table outside the band");
    CHECK_NEAR(tbrf_model_spectrum(t, 3, 1.5), 1.0 / 2.25, 1e-14, "table inside the band");
    /* a second cut intersects; the table's rows are untouched */
    REQUIRE(tbrf_model_set_band(t, 0.0, 1.0) == TBRF_OK, , "second band");
    CHECK_NEAR(tbrf_model_variance(t, 3), 0.9 / (2 * PI * PI), 1e-13, "intersected band");
    size_t n = 0;
    CHECK(tbrf_model_table_data(t, &n, NULL, NULL) == TBRF_OK && n == 5, "rows kept");
    CHECK(strstr(tbrf_model_describe(t), "band=[0.1, 1]") != NULL, "described: %s",
          tbrf_model_describe(t));
    /* by variance: renormalised over the band */
    tbrf_model_set_variance(t, 2.0);
    double s = 0.0;
    ctx c = {t, 3, 0.0};
    s = quad(integrand, &c, 0.1, 1.0, 1e-15, 1e-14);
    CHECK_NEAR(s, 2.0, 1e-10, "table by variance: the cut spectrum integrates to sigma^2");
    /* a band beyond the table leaves nothing: refused, model unchanged */
    CHECK(tbrf_model_set_band(t, 200.0, 300.0) == TBRF_ERR_INVALID, "empty band refused");
    CHECK(strstr(tbrf_model_message(t), "no power") != NULL, "message: %s", tbrf_model_message(t));
    CHECK_NEAR(tbrf_model_variance(t, 3), 2.0, 0, "refused band left the model as it was");
    tbrf_model_destroy(t);
}

static double flat(double k, int dim, void *user)
{
    (void)k, (void)dim, (void)user;
    return 1.0;
}

static void test_others(void)
{
    tbrf_model *m = NULL;
    tbrf_model_powerlaw(-3.0, 0.0, 10.0, &m);
    /* kmin = 0 with index -3 diverges in 3D; a low cut makes it finite */
    CHECK(isnan(tbrf_model_variance(m, 3)), "divergent before the cut");
    REQUIRE(tbrf_model_set_band(m, 0.5, INFINITY) == TBRF_OK, , "powerlaw band");
    CHECK(m->kmin == 0.5 && m->kmax == 10.0, "powerlaw range narrowed to [%g, %g]", m->kmin, m->kmax);
    CHECK_NEAR(tbrf_model_variance(m, 3), 1.0, 0, "finite after the cut");
    CHECK(strstr(tbrf_model_describe(m), "kmin=0.5 kmax=10") != NULL, "%s", tbrf_model_describe(m));
    tbrf_model_destroy(m);
    tbrf_model_callback(flat, NULL, 0.0, 4.0, &m);
    REQUIRE(tbrf_model_set_band(m, 1.0, 2.0) == TBRF_OK, , "callback band");
    tbrf_model_set_amplitude(m, 1.0);
    CHECK_NEAR(tbrf_model_variance(m, 3), 7.0 / 3.0 / (2 * PI * PI), 1e-13, "callback cut variance");
    tbrf_model_destroy(m);
    /* refusals */
    tbrf_model_gaussian(1.0, &m);
    CHECK(tbrf_model_set_band(NULL, 0, 1) == TBRF_ERR_NULL, "NULL");
    CHECK(tbrf_model_set_band(m, NAN, 1) == TBRF_ERR_INVALID, "NaN kmin");
    CHECK(tbrf_model_set_band(m, 0, NAN) == TBRF_ERR_INVALID, "NaN kmax");
    CHECK(tbrf_model_set_band(m, -1, 1) == TBRF_ERR_INVALID, "negative kmin");
    CHECK(tbrf_model_set_band(m, 2, 1) == TBRF_ERR_INVALID, "inverted");
    CHECK(tbrf_model_set_band(m, 1, 1) == TBRF_ERR_INVALID, "empty");
    CHECK(strstr(tbrf_model_message(m), "kmin=1, kmax=1") != NULL, "%s", tbrf_model_message(m));
    CHECK(tbrfi_model_is_covariance(m), "refusals left the Gaussian uncut");
    tbrf_model_destroy(m);
}

static double peak(double k, int dim, void *user)
{
    (void)dim;
    double w = *(const double *)user, x = (k - 1.0) / w;
    return exp(-x * x);
}

typedef struct pctx { double w; int dim; } pctx;

static double peak_moment(double k, void *vc)
{
    const pctx *c = vc;
    double w = c->w;
    return pow(k, c->dim - 1) * peak(k, c->dim, &w) / (c->dim == 3 ? 2 * PI * PI : 2 * PI);
}

static void test_callback_variance(void)
{
    static const double widths[] = {0.1, 0.03, 0.01, 0.003};
    for (int dim = 2; dim <= 3; dim++)
        for (size_t i = 0; i < sizeof widths / sizeof widths[0]; i++) {
            double w = widths[i];
            tbrf_model *m = NULL;
            tbrf_model_callback(peak, &w, 0.01, 3.0, &m);
            tbrf_model_set_amplitude(m, 1.0);
            /* reference: adaptive Gauss-Kronrod with the peak's +-10 w as
             * its own interval (the rest is below 1e-43 of it) */
            pctx c = {w, dim};
            double ref = quad(peak_moment, &c, 0.01, 1 - 10 * w, 1e-300, 1e-14) +
                         quad(peak_moment, &c, 1 - 10 * w, 1 + 10 * w, 1e-300, 1e-14) +
                         quad(peak_moment, &c, 1 + 10 * w, 3.0, 1e-300, 1e-14);
            CHECK_NEAR(tbrf_model_variance(m, dim) / ref, 1.0, 1e-11,
                       "callback peak w=%g %dD: variance", w, dim);
            /* the plan's resolved variance: the lines' modes are 2 pi /
             * line length ~ 0.01 apart over a 63-wide domain, fine enough
             * for widths >= 0.03 (their midpoint sum is sigma^2 to 1e-4) */
            tbrf_model_set_variance(m, 1.0);
            const double lo[3] = {0, 0, 0}, hi[3] = {63, 63, 63};
            tbrf_opts o;
            tbrf_default_opts(&o);
            tbrf_plan *p = NULL;
            tbrf_plan_info in;
            if (w >= 0.03 && CHECK(tbrf_make_plan(m, dim, lo, hi, 1.0, 1, &o, &p) == TBRF_OK &&
                                       tbrf_plan_get_info(p, &in) == TBRF_OK,
                                   "plan"))
                CHECK_NEAR(in.variance_resolved / in.variance, 1.0, 1e-4,
                           "callback peak w=%g %dD: variance_resolved", w, dim);
            tbrf_destroy(p);
            tbrf_model_destroy(m);
        }
}

int main(void)
{
    test_callback_variance();
    check_model("gaussian [0.3, 1.2]", gauss, 3, 0.3, 1.2);
    check_model("gaussian [0.3, 1.2]", gauss, 2, 0.3, 1.2);
    check_model("gaussian [0.5, inf]", gauss, 3, 0.5, INFINITY);
    check_model("matern [0, 0.8]", matern, 3, 0.0, 0.8);
    check_model("matern [0.2, 1]", matern, 2, 0.2, 1.0);
    check_model("matern [0.3, inf]", matern, 3, 0.3, INFINITY);
    check_model("matern [0.3, inf]", matern, 2, 0.3, INFINITY);
    test_table();
    test_others();
    return check_report("test_model_band");
}
