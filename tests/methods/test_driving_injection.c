/* test_driving_injection.c — the power the OU driver injects
 * (doc/driving.md, "The injection relation").
 *
 * A fluid element at a fixed point whose velocity the force drives and a
 * drag damps on the time tau (a stand-in for the turnover time t_turn),
 *   dv/dt = f(x, t) - v / tau,
 * receives the power eps = <f . v>. With the driver's force constant over
 * each update of length Delta (the default, TurbGen's pattern) the
 * equation integrates exactly over an update: with g = exp(-Delta / tau),
 *   v(t_j + Delta) = g v(t_j) + tau (1 - g) f_j,
 *   int f . v dt   = tau (1 - g) f_j . v(t_j) + tau (Delta - tau (1 - g)) |f_j|^2,
 * so the experiment below has no time-step error. For the stationary
 * sequence of updates (correlation rho^|i-j|, rho = exp(-Delta / T), of
 * mean square rms^2) eps = int_0^inf exp(-s / tau) R(s) ds with R the
 * piecewise-linear correlation of the stepped force, which sums to
 *   eps = rms^2 [tau (1 - g) + (rho - 1)(tau^2 (1 - g) / Delta - tau g)] / (1 - rho g)
 * (-> rms^2 T tau / (T + tau) for Delta << T, tau; -> the undamped
 * rms^2 (Delta / 2) coth(Delta / 2T) for tau -> inf, the relation
 * TBRF_DRIVE_INJECTION uses). The test measures eps for T / tau = 0.1,
 * 0.2, 0.5, 1, 2 at 16 points over 16 seeds and checks it against the
 * closed form within 4 standard errors of the seeds' spread (the seeds are
 * independent realisations, so the spread is the estimator's scatter). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "support/check.h"
#include "tbrf.h"

#define PI 3.14159265358979323846
enum { NPOINTS = 16, NSEEDS = 16 };
static const double TAU = 1.0, RMS = 2.0;
/* measured after a burn-in of 10 max(T, tau), over 50 tau */
static const double BURN = 10.0, SPAN = 50.0;

/* The closed form above. */
static double injection(double T, double tau, double delta)
{
    const double rho = exp(-delta / T), g = exp(-delta / tau), omg = -expm1(-delta / tau);
    return RMS * RMS * (tau * omg + (rho - 1.0) * (tau * tau * omg / delta - tau * g)) / (1.0 - rho * g);
}

/* One seed's <f.v> and <|f|^2> over the points and the span. */
static int run(const tbrf_model *m, double T, uint64_t seed, double *fv, double *ff)
{
    tbrf_driver_params p;
    tbrf_driver_default_params(&p);
    p.tcorr = T;
    p.rms = RMS;
    p.threads = 1;
    tbrf_driver *d = NULL;
    if (!CHECK(tbrf_driver_make(m, seed, &p, &d) == TBRF_OK, "driver: %s", tbrf_driver_message(d))) {
        tbrf_driver_destroy(d);
        return 0;
    }
    const double delta = T / 10.0; /* the default dt_update */
    double x[3 * NPOINTS], f[3 * NPOINTS], v[3 * NPOINTS] = {0};
    for (int i = 0; i < 3 * NPOINTS; i++) /* scattered, fixed */
        x[i] = fmod(0.6180339887 * (i + 1) + 0.1 * (i % 3), 1.0);
    const double g = exp(-delta / TAU), omg = -expm1(-delta / TAU);
    const int64_t j0 = (int64_t)ceil(BURN * fmax(T, TAU) / delta), nj = (int64_t)ceil(SPAN * TAU / delta);
    double sfv = 0.0, sff = 0.0;
    for (int64_t j = 0; j < j0 + nj; j++) {
        if (tbrf_driver_points(d, (double)j * delta, NPOINTS, x, f) != TBRF_OK) {
            CHECK_FAIL("points: %s", tbrf_driver_message(d));
            break;
        }
        for (int i = 0; i < 3 * NPOINTS; i++) {
            if (j >= j0) {
                sfv += TAU * omg * f[i] * v[i] + TAU * (delta - TAU * omg) * f[i] * f[i];
                sff += delta * f[i] * f[i];
            }
            v[i] = g * v[i] + TAU * omg * f[i];
        }
    }
    const double norm = 1.0 / ((double)NPOINTS * (double)nj * delta);
    *fv = sfv * norm;
    *ff = sff * norm;
    tbrf_driver_destroy(d);
    return 1;
}

int main(void)
{
    tbrf_model *m = NULL;
    tbrf_model_band(2 * PI * 1.0, 2 * PI * 3.0, &m);
    const double ratios[] = {0.1, 0.2, 0.5, 1.0, 2.0};
    /* the limits of the closed form */
    CHECK(fabs(injection(1e-3, 1.0, 1e-7) / (RMS * RMS) - 1e-3 / (1.0 + 1e-3)) < 1e-6,
          "Delta << T: T tau / (T + tau)");
    CHECK(fabs(injection(0.5, 1e9, 0.05) / (RMS * RMS) - 0.025 / tanh(0.05)) < 1e-6,
          "tau -> inf: (Delta / 2) coth(Delta / 2T)");
    printf("T/tau   <f.v> measured           closed form   rms^2 T tau/(T+tau)   rms^2 T_eff (undamped)   "
           "<|f|^2>\n");
    for (int r = 0; r < 5; r++) {
        const double T = ratios[r] * TAU, delta = T / 10.0;
        double fv[NSEEDS], ff[NSEEDS], mfv = 0.0, mff = 0.0;
        for (int s = 0; s < NSEEDS; s++) {
            if (!run(m, T, 100 + (uint64_t)s, &fv[s], &ff[s]))
                return check_report("test_driving_injection");
            mfv += fv[s] / NSEEDS;
            mff += ff[s] / NSEEDS;
        }
        double var = 0.0, varf = 0.0;
        for (int s = 0; s < NSEEDS; s++) {
            var += (fv[s] - mfv) * (fv[s] - mfv) / (NSEEDS - 1);
            varf += (ff[s] - mff) * (ff[s] - mff) / (NSEEDS - 1);
        }
        const double se = sqrt(var / NSEEDS), sef = sqrt(varf / NSEEDS), want = injection(T, TAU, delta);
        const double teff = 0.5 * delta / tanh(0.5 * delta / T);
        printf("%-6.1f  %.4f +- %.4f   %.4f        %.4f                %.4f                   "
               "%.3f +- %.3f\n", ratios[r], mfv, se, want, RMS * RMS * T * TAU / (T + TAU), RMS * RMS * teff,
               mff, sef);
        CHECK(fabs(mfv - want) <= 4.0 * se, "T/tau = %g: <f.v> = %.4f +- %.4f, closed form %.4f", ratios[r],
              mfv, se, want);
        CHECK(fabs(mff - RMS * RMS) <= 4.0 * sef, "T/tau = %g: <|f|^2> = %.4f +- %.4f, rms^2 %.4f", ratios[r],
              mff, sef, RMS * RMS);
        /* the undamped relation is not what a damped element receives */
        CHECK(RMS * RMS * teff - mfv > 4.0 * se, "T/tau = %g: <f.v> %.4f below rms^2 T_eff %.4f", ratios[r],
              mfv, RMS * RMS * teff);
    }
    tbrf_model_destroy(m);
    return check_report("test_driving_injection");
}
