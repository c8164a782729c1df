/* test_cosmology.c — the cosmology functions (c/core/cosmology.c) against
 * independent references:
 *  - Einstein-de Sitter: D(z) = 1/(1+z) and f = 1 exactly;
 *  - LCDM, open and closed models: D and f against a direct RK4
 *    integration of the growth ODE in ln a (written here, sharing nothing
 *    with the library's integral form);
 *  - LCDM: D against the Carroll, Press & Turner (1992) approximation,
 *    whose own accuracy is ~1%, and f against Omega_m(z)^0.55 (Linder
 *    2005; better than 0.5% for these models, checked to 1%);
 *  - Eisenstein & Hu: T(0) = 1, the small-k limit, the no-wiggle form as
 *    the smooth asymptote of the full one;
 *  - sigma(R): normalisation to sigma8 to 1e-9, and the library's
 *    quadrature of the tabulated model against adaptive Gauss-Kronrod of
 *    the exact EH spectrum (the table's interpolation error, < 1e-4);
 *    a CLASS/CAMB-style table file read and normalised the same way;
 *  - bad input: statuses, NaN outputs, failed models with messages.
 *
 * Tolerances. RK4 with 20000 steps over ln a in [ln 1e-5, 0] has a global
 * error ~ (0.0006)^4 ~ 1e-13 per unit: 1e-8 leaves room for the start
 * (D = a at a = 1e-5 misses the Lambda and curvature corrections, relative
 * (a/1)^3 ~ 1e-15 and a ~ 1e-5 for curvature; the decaying mode dies as
 * a^{-5/2}), and the library's Gauss-Legendre integral is good to ~1e-14. */
#define _DEFAULT_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/test_model_quad.h"
#include "support/check.h"
#include "tbrf.h"

static const double PI = 3.14159265358979323846;

typedef struct ode_model {
    double om, ol;
} ode_model;

static double ode_e2(const ode_model *m, double a)
{
    return m->om / (a * a * a) + (1 - m->om - m->ol) / (a * a) + m->ol;
}

/* y = (D, dD/dln a); D'' + (2 + dlnE/dlna) D' - 1.5 Omega_m(a) D = 0. */
static void ode_rhs(const ode_model *m, double x, const double y[2], double dy[2])
{
    double a = exp(x), e2 = ode_e2(m, a);
    double dlne = -(3 * m->om / (a * a * a) + 2 * (1 - m->om - m->ol) / (a * a)) / (2 * e2);
    double omz = m->om / (a * a * a) / e2;
    dy[0] = y[1];
    dy[1] = -(2 + dlne) * y[1] + 1.5 * omz * y[0];
}

/* D(a) (unnormalised) and f(a) by RK4 from a = 1e-5 in growing mode. */
static void ode_growth(const ode_model *m, double a_end, double *d, double *f)
{
    const int steps = 20000;
    double x0 = log(1e-5), x1 = log(a_end), h = (x1 - x0) / steps;
    double y[2] = {1e-5, 1e-5};
    for (int i = 0; i < steps; i++) {
        double x = x0 + i * h, k1[2], k2[2], k3[2], k4[2], t[2];
        ode_rhs(m, x, y, k1);
        for (int j = 0; j < 2; j++)
            t[j] = y[j] + 0.5 * h * k1[j];
        ode_rhs(m, x + 0.5 * h, t, k2);
        for (int j = 0; j < 2; j++)
            t[j] = y[j] + 0.5 * h * k2[j];
        ode_rhs(m, x + 0.5 * h, t, k3);
        for (int j = 0; j < 2; j++)
            t[j] = y[j] + h * k3[j];
        ode_rhs(m, x + h, t, k4);
        for (int j = 0; j < 2; j++)
            y[j] += h / 6 * (k1[j] + 2 * k2[j] + 2 * k3[j] + k4[j]);
    }
    *d = y[0];
    *f = y[1] / y[0];
}

static void test_eds(void)
{
    const double zs[] = {0, 0.5, 1, 3, 127, 1e4};
    for (size_t i = 0; i < sizeof zs / sizeof zs[0]; i++) {
        double d, f, e;
        CHECK(tbrf_cosmo_growth(1, 0, zs[i], &d) == TBRF_OK, "EdS growth z=%g", zs[i]);
        CHECK_NEAR(d, 1 / (1 + zs[i]), 1e-13 / (1 + zs[i]), "EdS D(z=%g) = a", zs[i]);
        CHECK(tbrf_cosmo_growth_rate(1, 0, zs[i], &f) == TBRF_OK, "EdS rate");
        CHECK_NEAR(f, 1, 1e-12, "EdS f(z=%g) = 1", zs[i]);
        CHECK(tbrf_cosmo_hubble(1, 0, 1 / (1 + zs[i]), &e) == TBRF_OK, "EdS E");
        CHECK_NEAR(e, pow(1 + zs[i], 1.5), 1e-14 * pow(1 + zs[i], 1.5), "EdS E(z=%g)", zs[i]);
    }
}

static void test_against_ode(double om, double ol)
{
    ode_model m = {om, ol};
    double d0, f0;
    ode_growth(&m, 1.0, &d0, &f0);
    const double zs[] = {0, 0.5, 1, 2, 10, 127};
    for (size_t i = 0; i < sizeof zs / sizeof zs[0]; i++) {
        double dr, fr, d, f;
        ode_growth(&m, 1 / (1 + zs[i]), &dr, &fr);
        CHECK(tbrf_cosmo_growth(om, ol, zs[i], &d) == TBRF_OK, "growth");
        CHECK(tbrf_cosmo_growth_rate(om, ol, zs[i], &f) == TBRF_OK, "rate");
        CHECK_NEAR(d, dr / d0, 1e-8 * dr / d0, "D(z=%g) om=%g ol=%g vs ODE", zs[i], om, ol);
        CHECK_NEAR(f, fr, 1e-8, "f(z=%g) om=%g ol=%g vs ODE", zs[i], om, ol);
    }
}

/* Carroll, Press & Turner (1992) eq. 29 for flat LCDM. */
static double cpt_g(double om, double ol, double z)
{
    double a3 = pow(1 + z, 3), e2 = om * a3 + ol; /* flat */
    double omz = om * a3 / e2, olz = ol / e2;
    return 2.5 * omz / (pow(omz, 4.0 / 7.0) - olz + (1 + omz / 2) * (1 + olz / 70));
}

static void test_flat_lcdm_approximations(void)
{
    const double om = 0.3089, ol = 0.6911;
    const double zs[] = {0, 0.5, 1, 2, 5, 127};
    for (size_t i = 0; i < sizeof zs / sizeof zs[0]; i++) {
        double d, f, z = zs[i];
        tbrf_cosmo_growth(om, ol, z, &d);
        tbrf_cosmo_growth_rate(om, ol, z, &f);
        double cpt = cpt_g(om, ol, z) / cpt_g(om, ol, 0) / (1 + z);
        CHECK_NEAR(d / cpt, 1, 0.01, "D(z=%g) = %.6f vs Carroll-Press-Turner %.6f", z, d, cpt);
        double omz = om * pow(1 + z, 3) / (om * pow(1 + z, 3) + ol);
        CHECK_NEAR(f / pow(omz, 0.55), 1, 0.01, "f(z=%g) = %.6f vs Omega_m(z)^0.55", z, f);
    }
}

static void test_eh(void)
{
    const double om = 0.3089, ob = 0.0486, h = 0.6774, tc = 2.7255;
    double t, tn;
    CHECK(tbrf_cosmo_eh_transfer(om, ob, h, tc, 1, 0, &t) == TBRF_OK && t == 1, "T(0) = 1");
    CHECK(tbrf_cosmo_eh_transfer(om, ob, h, tc, 0, 0, &t) == TBRF_OK && t == 1, "T_nw(0) = 1");
    tbrf_cosmo_eh_transfer(om, ob, h, tc, 1, 1e-5, &t);
    CHECK_NEAR(t, 1, 1e-4, "T(1e-5 h/Mpc) -> 1");
    tbrf_cosmo_eh_transfer(om, ob, h, tc, 1, 1e-12, &t);
    CHECK_NEAR(t, 1, 1e-9, "T(1e-12 h/Mpc) finite and -> 1");
    /* The no-wiggle form is EH's smooth fit through the full one: within
     * 10% everywhere (the first wiggles are ~5%), the ratio averaging to 1
     * over the oscillations (0.02..0.5 h/Mpc, log-spaced), and falling. */
    double prev = 2, sum = 0;
    int n = 0;
    for (double lk = -4; lk <= 1; lk += 0.001) {
        double k = pow(10, lk);
        tbrf_cosmo_eh_transfer(om, ob, h, tc, 1, k, &t);
        tbrf_cosmo_eh_transfer(om, ob, h, tc, 0, k, &tn);
        if (!CHECK(fabs(t / tn - 1) < 0.1, "k=%g T=%g T_nw=%g", k, t, tn))
            break;
        CHECK(tn < prev, "no-wiggle T decreasing at k=%g", k);
        prev = tn;
        if (k >= 0.02 && k <= 0.5) {
            sum += t / tn;
            n++;
        }
    }
    CHECK_NEAR(sum / n, 1, 0.01, "mean T/T_nw over the wiggles");
    /* The first acoustic trough and peak are there: T/T_nw reaches below
     * 0.98 and above 1.02 between 0.03 and 0.3 h/Mpc (about 0.972 and
     * 1.033 for these parameters; the no-wiggle fit alone never leaves
     * 1 by more than its ~1% fitting error there). */
    double lo = 1, hi = 1;
    for (double k = 0.03; k < 0.3; k += 1e-4) {
        tbrf_cosmo_eh_transfer(om, ob, h, tc, 1, k, &t);
        tbrf_cosmo_eh_transfer(om, ob, h, tc, 0, k, &tn);
        lo = fmin(lo, t / tn);
        hi = fmax(hi, t / tn);
    }
    CHECK(lo < 0.98 && hi > 1.02, "wiggles present: T/T_nw in [%g, %g]", lo, hi);
}

typedef struct eh_ref {
    double om, ob, h, ns, tc, amp, r;
} eh_ref;

static double eh_sigma_integrand(double lk, void *vc)
{
    const eh_ref *c = vc;
    double k = exp(lk), t, x = k * c->r;
    tbrf_cosmo_eh_transfer(c->om, c->ob, c->h, c->tc, 1, k, &t);
    double w = x < 1e-3 ? 1 - x * x / 10 : 3 * (sin(x) - x * cos(x)) / (x * x * x);
    return c->amp * pow(k, 3 + c->ns) * t * t * w * w / (2 * PI * PI);
}

static void test_sigma8(void)
{
    tbrf_model *m = NULL;
    const double om = 0.3089, ob = 0.0486, h = 0.6774, ns = 0.9667, tc = 2.7255;
    REQUIRE(tbrf_model_eisenstein_hu(om, ob, h, ns, tc, 1, 1e-5, 1e3, &m) == TBRF_OK, ,
            "eisenstein_hu: %s", tbrf_model_message(m));
    CHECK(strstr(tbrf_model_describe(m), "eisenstein_hu") != NULL, "description %s",
          tbrf_model_describe(m));
    CHECK(tbrf_model_normalize_sigma(m, 8, 0.831) == TBRF_OK, "normalise");
    double s;
    CHECK(tbrf_cosmo_sigma_r(m, 8, &s) == TBRF_OK, "sigma_r");
    CHECK_NEAR(s, 0.831, 0.831e-9, "sigma8 after normalisation");
    /* The amplitude applied to the exact EH spectrum, integrated
     * adaptively in ln k: the table's log-log interpolation at 400 rows
     * per decade is good to ~1e-5 of P on the wiggles. */
    double amp = tbrf_model_spectrum(m, 3, 0.1) / (pow(0.1, ns) * 1);
    double t01;
    tbrf_cosmo_eh_transfer(om, ob, h, tc, 1, 0.1, &t01);
    amp /= t01 * t01;
    eh_ref c = {om, ob, h, ns, tc, amp, 8};
    double ref = sqrt(quad(eh_sigma_integrand, &c, log(1e-5), log(1e3), 1e-16, 1e-12));
    CHECK_NEAR(ref, 0.831, 0.831 * 1e-4, "sigma8 of the exact EH spectrum, same amplitude");
    /* sigma(R) falls with R, and 5 < sigma(1)/sigma(8) < 0 is absurd: */
    double s1, s20;
    tbrf_cosmo_sigma_r(m, 1, &s1);
    tbrf_cosmo_sigma_r(m, 20, &s20);
    CHECK(s1 > s && s > s20 && s20 > 0, "sigma(1)=%g > sigma(8)=%g > sigma(20)=%g", s1, s, s20);
    c.r = 1;
    ref = sqrt(quad(eh_sigma_integrand, &c, log(1e-5), log(1e3), 1e-16, 1e-12));
    CHECK_NEAR(s1, ref, ref * 1e-4, "sigma(1 Mpc/h) vs exact EH");

    /* A CLASS pk.dat-style file of the same spectrum, read by the table
     * model and normalised: the loader path of doc/arepo.md. */
    char path[] = "/tmp/tbrf_cosmo_pkXXXXXX";
    int fd = mkstemp(path);
    REQUIRE(fd >= 0, , "mkstemp");
    FILE *fp = fdopen(fd, "w");
    fprintf(fp, "# Table of k in h/Mpc and P in (Mpc/h)^3, z = 0\n"
                "#    k (h/Mpc)     P (Mpc/h)^3\n");
    for (double lk = -5; lk <= 3.0001; lk += 0.0025) {
        double k = pow(10, lk);
        fprintf(fp, "%.17g %.17g\n", k, tbrf_model_spectrum(m, 3, k));
    }
    fclose(fp);
    tbrf_model *t = NULL;
    CHECK(tbrf_model_table_file(path, &t) == TBRF_OK, "table file: %s", tbrf_model_message(t));
    CHECK(tbrf_model_normalize_sigma(t, 8, 0.8) == TBRF_OK, "normalise table");
    tbrf_cosmo_sigma_r(t, 8, &s);
    CHECK_NEAR(s, 0.8, 0.8e-9, "sigma8 of the normalised table file");
    unlink(path);
    tbrf_model_destroy(t);
    tbrf_model_destroy(m);
}

/* omega_lambda NaN is a flat universe, 1 - omega_m, in every function. */
static void test_flat_default(void)
{
    const double om = 0.3, ol = 1 - om, z = 2.5;
    double a = 0, b = 1, a2 = 0, b2 = 1;
    CHECK(tbrf_cosmo_hubble(om, NAN, 0.25, &a) == TBRF_OK &&
              tbrf_cosmo_hubble(om, ol, 0.25, &b) == TBRF_OK && a == b, "hubble: NaN is flat");
    CHECK(tbrf_cosmo_growth(om, NAN, z, &a) == TBRF_OK && tbrf_cosmo_growth(om, ol, z, &b) == TBRF_OK &&
              a == b, "growth: NaN is flat");
    CHECK(tbrf_cosmo_growth_rate(om, NAN, z, &a) == TBRF_OK &&
              tbrf_cosmo_growth_rate(om, ol, z, &b) == TBRF_OK && a == b, "growth rate: NaN is flat");
    CHECK(tbrf_cosmo_growth2(om, NAN, z, &a, &a2) == TBRF_OK &&
              tbrf_cosmo_growth2(om, ol, z, &b, &b2) == TBRF_OK && a == b && a2 == b2,
          "growth2: NaN is flat");
    /* and not the closed model a given 0.7 with omega_m 0.4 is */
    CHECK(tbrf_cosmo_growth(0.4, NAN, z, &a) == TBRF_OK && tbrf_cosmo_growth(0.4, 0.7, z, &b) == TBRF_OK &&
              a != b, "NaN is 1 - omega_m, not a fixed value");
}

static void test_bad_input(void)
{
    double v = 0;
    CHECK(tbrf_cosmo_growth(0, 0.7, 0, &v) == TBRF_ERR_INVALID && isnan(v), "omega_m 0");
    CHECK(tbrf_cosmo_growth(NAN, 0.7, 0, &v) == TBRF_ERR_INVALID, "omega_m NaN");
    CHECK(tbrf_cosmo_growth(0.3, 0.7, -1, &v) == TBRF_ERR_INVALID, "z = -1");
    CHECK(tbrf_cosmo_growth(0.3, 0.7, INFINITY, &v) == TBRF_ERR_INVALID, "z inf");
    CHECK(tbrf_cosmo_growth(0.3, 0.7, 0, NULL) == TBRF_ERR_NULL, "NULL out");
    /* Omega_m = 3, no Lambda recollapses at a = 1.5: z = -0.5 is never
     * reached. */
    CHECK(tbrf_cosmo_growth(3, 0, -0.5, &v) == TBRF_ERR_INVALID, "recollapsed");
    CHECK(tbrf_cosmo_hubble(3, 0, 2, &v) == TBRF_ERR_INVALID, "E^2 < 0");
    CHECK(tbrf_cosmo_hubble(0.3, 0.7, 0, &v) == TBRF_ERR_INVALID, "a = 0");
    CHECK(tbrf_cosmo_eh_transfer(0.3, 0.3, 0.7, 2.7, 1, 0.1, &v) == TBRF_ERR_INVALID, "ob = om");
    CHECK(tbrf_cosmo_eh_transfer(0.3, -0.01, 0.7, 2.7, 1, 0.1, &v) == TBRF_ERR_INVALID, "ob < 0");
    /* omega_b = 0: EH98's zero-baryon form, eq. 29 with
     * Gamma = omega_m h (q = k / (13.41 k_eq), k_eq = 0.0746 omega_m h^2 /
     * theta^2 in 1/Mpc), for either wiggles */
    for (int w = 0; w < 2; w++)
        for (double k = 1e-3; k < 20; k *= 7) {
            const double omhh = 0.3 * 0.49, th = 2.7255 / 2.7;
            const double q = k * 0.7 / 13.41 / (0.0746 * omhh / (th * th));
            const double l0 = log(2 * 2.718282 + 1.8 * q), c0 = 14.2 + 731 / (1 + 62.5 * q);
            CHECK(tbrf_cosmo_eh_transfer(0.3, 0, 0.7, 2.7255, w, k, &v) == TBRF_OK &&
                      fabs(v / (l0 / (l0 + c0 * q * q)) - 1) < 1e-13,
                  "omega_b 0, wiggles %d, k %g: T %.15g", w, k, v);
        }
    CHECK(tbrf_cosmo_eh_transfer(0.3, 0.05, 7, 2.7, 1, 0.1, &v) == TBRF_ERR_INVALID, "h = 7");
    CHECK(tbrf_cosmo_eh_transfer(0.3, 0.05, 0.7, 2.7, 2, 0.1, &v) == TBRF_ERR_INVALID, "wiggles 2");
    CHECK(tbrf_cosmo_eh_transfer(0.3, 0.05, 0.7, 2.7, 1, -1, &v) == TBRF_ERR_INVALID, "k < 0");
    tbrf_model *m = NULL;
    CHECK(tbrf_model_eisenstein_hu(-0.3, 0.05, 0.7, 1, 2.7, 1, 1e-4, 10, &m) == TBRF_ERR_INVALID,
          "EH model omega_m < 0");
    CHECK(m && tbrf_model_status(m) == TBRF_ERR_INVALID &&
          strstr(tbrf_model_message(m), "omega_m=-0.3"), "failed model's message: %s",
          m ? tbrf_model_message(m) : "(null)");
    CHECK(tbrf_cosmo_sigma_r(m, 8, &v) == TBRF_ERR_INVALID, "sigma of a failed model");
    tbrf_model_destroy(m);
    CHECK(tbrf_model_eisenstein_hu(0.3, 0.05, 0.7, 1, 2.7, 1, 1, 1, &m) == TBRF_ERR_INVALID,
          "kmin = kmax");
    tbrf_model_destroy(m);
    CHECK(tbrf_model_eisenstein_hu(0.3, 0.05, 0.7, 1, 2.7, 1, 1e-4, 10, &m) == TBRF_OK, "EH ok");
    CHECK(tbrf_model_normalize_sigma(m, -8, 0.8) == TBRF_ERR_INVALID, "R < 0");
    CHECK(tbrf_model_normalize_sigma(m, 8, NAN) == TBRF_ERR_INVALID, "sigma NaN");
    CHECK(tbrf_cosmo_sigma_r(m, 8, NULL) == TBRF_ERR_NULL, "NULL sigma");
    tbrf_model_destroy(m);
}

int main(void)
{
    (void)quad_tail; /* test_model_quad.h's tails serve other tests */
    (void)quad_osc_tail;
    test_eds();
    test_against_ode(0.3089, 0.6911); /* Planck 2015, AREPO's example */
    test_against_ode(0.3, 0.0);       /* open */
    test_against_ode(1.5, 0.2);       /* closed, still expanding today */
    test_against_ode(0.05, 0.95);     /* Lambda-dominated */
    test_flat_lcdm_approximations();
    test_eh();
    test_sigma8();
    test_flat_default();
    test_bad_input();
    return check_report("test_cosmology");
}
