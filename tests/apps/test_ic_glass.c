/* test_ic_glass.c — glass loads (tbrf_ic_glass_make, tbrf_ic_glass_power;
 * doc/ic.md "Making a glass") through the public API:
 *  - the random start measures Poisson: the power of its lowest shells is
 *    1 within 4 standard errors of the mode average;
 *  - the glass's P(k) / shot noise, measured on a mesh other than the
 *    force mesh, is far below 1 at low k and rises steeply there: the
 *    slope of log P on log k over the shells below a quarter of the
 *    particles' spacing wavenumber, weighted by their independent modes,
 *    averaged over seeds, lies above 2 (the k^2 of displacements
 *    uncorrelated from particle to particle, a jittered lattice's) and at
 *    most 4 (the k^4 that mass and momentum conservation allow a load
 *    made by local moves at least), each by 4 standard errors (the larger
 *    of the seeds' spread and the mode-count error, var log P_b = 2 /
 *    modes_b for exponential |delta_k|^2). On the default mesh 4n the
 *    slope is near 3 (doc/arepo.md has the figures: a finer mesh steepens
 *    it toward 4);
 *  - the same bits on 1, 2 and the default threads; a pure function of
 *    the parameters (two runs equal, another seed different);
 *  - refusals: NULL, sizes, the memory budget, a point outside the box,
 *    and the cancel hook. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/check.h"
#include "tbrf.h"

#define N1 16              /* particles a side */
#define NMEAS 48           /* the measuring mesh: not the force mesh (4 N1) */
#define NBINS (NMEAS / 2 - 1)
#define FIT_SHELLS (N1 / 4) /* shells |m| < N1/4 + 1/2 */
#define SEEDS 4

/* Weighted least-squares slope of log p on log k over the first nb shells
 * (weights modes/2) and its mode-count standard error. */
static double fit_slope(const double *k, const double *p, const double *modes, int nb,
                        double *stderr_out)
{
    double sw = 0, sx = 0, sy = 0;
    for (int b = 0; b < nb; b++) {
        const double w = modes[b] / 2;
        sw += w;
        sx += w * log(k[b]);
        sy += w * log(p[b]);
    }
    const double mx = sx / sw, my = sy / sw;
    double sxx = 0, sxy = 0;
    for (int b = 0; b < nb; b++) {
        const double w = modes[b] / 2, dx = log(k[b]) - mx;
        sxx += w * dx * dx;
        sxy += w * dx * (log(p[b]) - my);
    }
    *stderr_out = 1.0 / sqrt(sxx);
    return sxy / sxx;
}

static void test_spectrum(void)
{
    const int64_t n = (int64_t)N1 * N1 * N1;
    double *xyz = malloc(sizeof *xyz * 3 * (size_t)n);
    REQUIRE(xyz, , "out of memory");
    double slope[SEEDS], err_modes = 0, lowmax = 0;
    char msg[512];
    for (int s = 0; s < SEEDS; s++) {
        tbrf_ic_glass_params p;
        tbrf_ic_default_glass(&p);
        p.per_axis = N1;
        p.seed = 11 + (uint64_t)s;
        p.threads = 1; /* the bits of any count (test_threads); one keeps CI's cores free */
        tbrf_ic_glass_info info;
        int st = tbrf_ic_glass_make(&p, xyz, &info, NULL, NULL, msg, sizeof msg);
        REQUIRE(st == TBRF_OK, , "glass seed %d: %s", s, msg);
        /* Poisson start: the lowest shells' mean is 1 within 4 standard
         * errors (194 modes of the whole sphere, 97 independent) */
        CHECK_NEAR(info.power_start, 1.0, 4.0 / sqrt(97.0), "seed %d: start's low-k power", s);
        CHECK(info.steps >= 1 && info.steps <= p.steps && info.best_step <= info.steps &&
                  info.power_low < info.power_start,
              "seed %d: steps %d, best %d, power %g from %g", s, (int)info.steps,
              (int)info.best_step, info.power_low, info.power_start);
        int inside = 1;
        for (int64_t i = 0; i < 3 * n; i++)
            inside &= xyz[i] >= 0 && xyz[i] < 1.0;
        CHECK(inside, "seed %d: a particle outside the box", s);
        double k[NBINS], pk[NBINS], modes[NBINS];
        st = tbrf_ic_glass_power(n, xyz, 1.0, NMEAS, 0, NBINS, k, pk, modes, msg, sizeof msg);
        REQUIRE(st == TBRF_OK, , "power: %s", msg);
        double low = 0, cnt = 0;
        for (int b = 0; b < FIT_SHELLS; b++) {
            low += pk[b] * modes[b];
            cnt += modes[b];
        }
        low /= cnt;
        lowmax = low > lowmax ? low : lowmax;
        slope[s] = fit_slope(k, pk, modes, FIT_SHELLS, &err_modes);
        printf("seed %d: %d steps (best %d), low-k P/shot %.3g, slope %.3f +- %.3f\n", s,
               (int)info.steps, (int)info.best_step, low, slope[s], err_modes);
    }
    /* far below Poisson's 1 (whose scatter over these 194 modes is 0.1) */
    CHECK(lowmax < 0.01, "low-k power %g of Poisson, not far below 1", lowmax);
    double mean = 0, var = 0;
    for (int s = 0; s < SEEDS; s++)
        mean += slope[s] / SEEDS;
    for (int s = 0; s < SEEDS; s++)
        var += (slope[s] - mean) * (slope[s] - mean) / (SEEDS - 1);
    const double se_spread = sqrt(var / SEEDS), se_modes = err_modes / sqrt((double)SEEDS);
    const double se = se_spread > se_modes ? se_spread : se_modes;
    printf("slope %.3f, standard error %.3f (spread %.3f, modes %.3f)\n", mean, se, se_spread,
           se_modes);
    CHECK(mean > 2.0 + 4.0 * se && mean < 4.0 + 4.0 * se,
          "low-k slope %.3f +- %.3f of the glass's P(k): not between k^2 and k^4", mean, se);
    free(xyz);
}

static void test_threads(void)
{
    const int64_t n = 8 * 8 * 8;
    double *a = malloc(sizeof *a * 3 * (size_t)n), *b = malloc(sizeof *b * 3 * (size_t)n);
    REQUIRE(a && b, , "out of memory");
    tbrf_ic_glass_params p;
    tbrf_ic_default_glass(&p);
    p.per_axis = 8;
    p.steps = 40;
    char msg[512];
    tbrf_ic_glass_info ia, ib;
    p.threads = 1;
    CHECK(tbrf_ic_glass_make(&p, a, &ia, NULL, NULL, msg, sizeof msg) == TBRF_OK, "%s", msg);
    for (int t = 0; t <= 2; t++) {
        p.threads = t == 1 ? 2 : t;
        CHECK(tbrf_ic_glass_make(&p, b, &ib, NULL, NULL, msg, sizeof msg) == TBRF_OK, "%s", msg);
        CHECK(memcmp(a, b, sizeof *a * 3 * (size_t)n) == 0 && ia.steps == ib.steps &&
                  ia.power_low == ib.power_low,
              "threads %d: other bits than on one thread", (int)p.threads);
    }
    p.seed = 2;
    CHECK(tbrf_ic_glass_make(&p, b, &ib, NULL, NULL, msg, sizeof msg) == TBRF_OK &&
              memcmp(a, b, sizeof *a * 3 * (size_t)n) != 0,
          "seed 2 gives seed 1's glass");
    free(a);
    free(b);
}

static int cancel_now(void *user)
{
    ++*(int *)user;
    return 1;
}

static void test_refusals(void)
{
    tbrf_ic_glass_params p;
    tbrf_ic_default_glass(&p);
    double xyz[3 * 8], bytes = 0, k[4], pk[4], md[4];
    char msg[512];
    CHECK(tbrf_ic_glass_make(NULL, xyz, NULL, NULL, NULL, msg, sizeof msg) == TBRF_ERR_NULL,
          "NULL params");
    CHECK(tbrf_ic_glass_make(&p, NULL, NULL, NULL, NULL, msg, sizeof msg) == TBRF_ERR_NULL,
          "NULL xyz");
    p.per_axis = 0;
    CHECK(tbrf_ic_glass_make(&p, xyz, NULL, NULL, NULL, msg, sizeof msg) == TBRF_ERR_INVALID &&
              strstr(msg, "per_axis"),
          "n = 0: %s", msg);
    CHECK(tbrf_ic_glass_bytes(&p, &bytes) == TBRF_ERR_INVALID, "bytes of n = 0");
    p.per_axis = 2;
    p.mesh = 5;
    CHECK(tbrf_ic_glass_make(&p, xyz, NULL, NULL, NULL, msg, sizeof msg) == TBRF_ERR_INVALID &&
              strstr(msg, "mesh"),
          "odd mesh: %s", msg);
    p.mesh = 0;
    p.steps = 0;
    CHECK(tbrf_ic_glass_make(&p, xyz, NULL, NULL, NULL, msg, sizeof msg) == TBRF_ERR_INVALID,
          "0 steps: %s", msg);
    p.steps = 10;
    int calls = 0;
    CHECK(tbrf_ic_glass_make(&p, xyz, NULL, cancel_now, &calls, msg, sizeof msg) ==
                  TBRF_ERR_CANCELLED &&
              calls == 1,
          "cancel: %s (%d calls)", msg, calls);
    /* 2048^3 particles: a mesh of 8192^3 is far over any budget */
    p.per_axis = 2048;
    CHECK(tbrf_ic_glass_bytes(&p, &bytes) == TBRF_OK && bytes > 1e12, "bytes %g", bytes);
    CHECK(tbrf_ic_glass_make(&p, xyz, NULL, NULL, NULL, msg, sizeof msg) == TBRF_ERR_SIZE &&
              strstr(msg, "budget"),
          "over the budget: %s", msg);
    xyz[0] = 1.0; /* at the box, outside [0, 1) */
    for (int i = 1; i < 24; i++)
        xyz[i] = 0.5;
    CHECK(tbrf_ic_glass_power(8, xyz, 1.0, 8, 0, 3, k, pk, md, msg, sizeof msg) ==
              TBRF_ERR_INVALID && strstr(msg, "outside"),
          "a point at the box: %s", msg);
    xyz[0] = 0.5;
    CHECK(tbrf_ic_glass_power(8, xyz, 1.0, 8, 0, 4, k, pk, md, msg, sizeof msg) ==
              TBRF_ERR_INVALID,
          "nbins over mesh/2 - 1: %s", msg);
    CHECK(tbrf_ic_glass_power(8, xyz, 1.0, 8, 0, 3, k, pk, md, msg, sizeof msg) == TBRF_OK,
          "%s", msg);
}

int main(void)
{
    test_refusals();
    test_threads();
    test_spectrum();
    return check_report("test_ic_glass");
}
