/* test_inflow_periodic.c — the inflow sampler periodic across the flow
 * (tbrf_inflow_create_periodic, doc/streaming.md, "A wind periodic across
 * the flow"):
 *  1. values are bitwise those of the periodic plan the header describes,
 *     at x - v t, by fill and fill_grid, for 1 and 2 threads, 3D and 2D;
 *  2. the field is periodic in the transverse axes: a ghost block that
 *     reaches past the box (corner ghost cells included) holds at y and
 *     y + L_y, z and z + L_z the same values to rounding;
 *  3. the statistics of a transverse plane on the box's lattice, over
 *     realizations: its mean, its mean square and its power in shells of
 *     the transverse wavenumber against the model's lattice sums, within 4
 *     standard deviations of the estimators (derived below);
 *  4. the lognormal density; 5. bad input: clean statuses; 6. threads
 *     sharing one sampler get bitwise the serial fills (they take turns
 *     on its plan). */
#define _POSIX_C_SOURCE 200809L /* setenv */

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/check.h"
#include "tbrf.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

enum { NY = 24, NZ = 16, NG = 3 };
static const double V3[3] = {2.0, 0.0, 0.0}; /* the wind along x */
static const double T_END = 20.0;

static tbrf_model *powerlaw(void)
{
    tbrf_model *m = NULL;
    tbrf_model_powerlaw(-11.0 / 3.0, 0.1, 3.0, &m);
    return m;
}

/* The tube of ghost cells x in [-NG, -1], y in [-NG, NY + NG - 1], z in
 * [-NG, NZ + NG - 1] (corners included) until T_END. */
static void tube(int dim, double lo[3], double hi[3])
{
    const double glo[3] = {-NG, -NG, -NG}, ghi[3] = {-1, NY + NG - 1, NZ + NG - 1};
    tbrf_inflow_tube(dim, glo, ghi, V3, T_END, lo, hi);
}

static tbrf_inflow *sampler(const tbrf_model *m, int dim, uint64_t realization, int threads)
{
    double lo[3], hi[3];
    tube(dim, lo, hi);
    const double period[3] = {0, NY, NZ};
    tbrf_opts o;
    tbrf_default_opts(&o);
    o.threads = threads;
    tbrf_inflow *in = NULL;
    int st = tbrf_inflow_create_periodic(m, dim, lo, hi, period, 1.0, 11, realization, &o, V3, &in);
    if (!CHECK(st == TBRF_OK, "create_periodic %dD: %s", dim, tbrf_inflow_message(in))) {
        tbrf_inflow_destroy(in);
        return NULL;
    }
    return in;
}

/* The plan of the header's description: box (2 (hi - lo) + NY, NY, NZ). */
static tbrf_plan *reference_plan(const tbrf_model *m, int dim, double box[3], int64_t n[3])
{
    double lo[3], hi[3];
    tube(dim, lo, hi);
    box[0] = 2.0 * (hi[0] - lo[0]) + NY;
    box[1] = NY;
    box[2] = dim == 3 ? NZ : 1.0;
    for (int d = 0; d < 3; d++)
        n[d] = d < dim ? (int64_t)ceil(box[d]) : 1;
    tbrf_plan *p = NULL;
    tbrf_make_periodic_plan(m, dim, lo, box, n, 11, NULL, &p);
    return p;
}

/* The ghost block: (NG, NY + 2 NG, NZ + 2 NG) cells from (-NG, -NG, -NG). */
static const double ORIGIN[3] = {-NG, -NG, -NG}, SPACING[3] = {1, 1, 1};
static void block_counts(int dim, int64_t n[3])
{
    n[0] = NG;
    n[1] = NY + 2 * NG;
    n[2] = dim == 3 ? NZ + 2 * NG : 1;
}

static double *block_points(int dim, const int64_t n[3])
{
    const int64_t N = n[0] * n[1] * n[2];
    double *xyz = malloc(sizeof(double) * (size_t)dim * (size_t)N);
    for (int64_t q = 0; q < N; q++) {
        const int64_t idx[3] = {q % n[0], q / n[0] % n[1], q / (n[0] * n[1])};
        for (int d = 0; d < dim; d++)
            xyz[(size_t)dim * (size_t)q + (size_t)d] = ORIGIN[d] + SPACING[d] * (double)idx[d];
    }
    return xyz;
}

/* 1 and 2: bitwise the plan, and periodic to rounding. */
static void test_plan_and_periodicity(int dim)
{
    tbrf_model *m = powerlaw();
    tbrf_inflow *one = sampler(m, dim, 3, 1), *two = sampler(m, dim, 3, 2);
    double box[3];
    int64_t pn[3], n[3];
    tbrf_plan *p = reference_plan(m, dim, box, pn);
    REQUIRE(one && two && p, , "samplers and plan");
    block_counts(dim, n);
    const int64_t N = n[0] * n[1] * n[2];
    double *xyz = block_points(dim, n), *shifted = malloc(sizeof(double) * (size_t)dim * (size_t)N);
    double *a = malloc(sizeof(double) * (size_t)N), *b = malloc(sizeof(double) * (size_t)N),
           *c = malloc(sizeof(double) * (size_t)N), *r = malloc(sizeof(double) * (size_t)N);
    int bitwise = 1, steps = 0;
    double worst = 0.0, rms = 0.0;
    int64_t rms_n = 0;
    for (double t = 0.0; t <= T_END; t += 2.5, steps++) {
        for (int64_t q = 0; q < N; q++)
            for (int d = 0; d < dim; d++)
                shifted[dim * q + d] = xyz[dim * q + d] - V3[d] * t;
        REQUIRE(tbrf_set_points(p, N, shifted) == TBRF_OK && tbrf_execute(p, 3, r) == TBRF_OK, ,
                "plan: %s", tbrf_plan_message(p));
        REQUIRE(tbrf_inflow_fill(one, t, N, xyz, a) == TBRF_OK, , "fill: %s", tbrf_inflow_message(one));
        REQUIRE(tbrf_inflow_fill(two, t, N, xyz, b) == TBRF_OK, , "fill 2: %s", tbrf_inflow_message(two));
        REQUIRE(tbrf_inflow_fill_grid(one, t, ORIGIN, SPACING, n, c) == TBRF_OK, , "fill_grid: %s",
                tbrf_inflow_message(one));
        bitwise &= !memcmp(a, r, sizeof(double) * (size_t)N) && !memcmp(b, r, sizeof(double) * (size_t)N) &&
                   !memcmp(c, r, sizeof(double) * (size_t)N);
        /* images: cell (i, j, k) and (i, j + NY, k), (i, j, k + NZ) of the block */
        for (int64_t q = 0; q < N; q++) {
            const int64_t i = q % n[0], j = q / n[0] % n[1], k = q / (n[0] * n[1]);
            rms += a[q] * a[q];
            rms_n++;
            if (j + NY < n[1])
                worst = fmax(worst, fabs(a[q] - a[q + NY * n[0]]));
            if (dim == 3 && k + NZ < n[2])
                worst = fmax(worst, fabs(a[q] - a[q + NZ * n[0] * n[1]]));
            (void)i;
        }
    }
    rms = sqrt(rms / (double)rms_n);
    CHECK(bitwise, "%dD: fill (1 and 2 threads) and fill_grid bitwise the periodic plan over %d steps",
          dim, steps);
    /* the NUFFT wraps t = (y - origin) / L into [0, 1): a position and its
     * image differ by an ulp of t, the values by that times the slope */
    CHECK(worst <= 1e-10 * rms, "%dD: values at y, y + L_y (and z, z + L_z) differ by %.3g, rms %.3g",
          dim, worst, rms);
    printf("%dD: %d steps bitwise the plan; images agree to %.2e of the rms (corner ghost cells "
           "included)\n", dim, steps, worst / rms);
    free(xyz);
    free(shifted);
    free(a);
    free(b);
    free(c);
    free(r);
    tbrf_destroy(p);
    tbrf_inflow_destroy(one);
    tbrf_inflow_destroy(two);
    tbrf_model_destroy(m);
}

static int64_t m_of(int64_t i, int64_t n) { return i <= n / 2 ? i : i - n; }

enum { SHELLS = 4, REALIZATIONS = 48 };

/* 3: a plane of the ghost layer on the box's transverse lattice (NY x NZ
 * cells at x = -1) has, in each realization, the transverse Fourier
 * coefficients g_q(x) = sum over m_x of the modes a_(m_x, q): for q != 0 a
 * circular complex Gaussian of E|g_q|^2 = s_q = sum_mx P(k) / V, g_0 real
 * of variance s_0 (modes with a Nyquist index or m = 0 are zero). So the
 * plane's mean is g_0 (variance s_0), its mean square sum_q |g_q|^2
 * (expectation sum_q s_q, variance 2 sum_q s_q^2: the pairs q, -q hold the
 * same |g_q|^2), and the power of a shell of |q| likewise. */
static void test_statistics(void)
{
    tbrf_model *m = powerlaw();
    double box[3];
    int64_t pn[3];
    tbrf_plan *p = reference_plan(m, 3, box, pn);
    REQUIRE(p, , "plan");
    tbrf_plan_info info;
    tbrf_plan_get_info(p, &info);
    tbrf_destroy(p);
    const double V = box[0] * box[1] * box[2];
    double s[NZ][NY], ev = 0.0, var_ms = 0.0, shell_e[SHELLS] = {0}, shell_v[SHELLS] = {0};
    for (int64_t iz = 0; iz < NZ; iz++)
        for (int64_t iy = 0; iy < NY; iy++) {
            const int64_t my = m_of(iy, NY), mz = m_of(iz, NZ);
            s[iz][iy] = 0.0;
            if (my == NY / 2 || mz == NZ / 2)
                continue;
            for (int64_t ix = 0; ix < pn[0]; ix++) {
                const int64_t mx = m_of(ix, pn[0]);
                if ((2 * mx == pn[0]) || (!mx && !my && !mz))
                    continue;
                const double kx = 2 * M_PI * (double)mx / box[0], ky = 2 * M_PI * (double)my / NY,
                             kz = 2 * M_PI * (double)mz / NZ;
                s[iz][iy] += tbrf_model_spectrum(m, 3, sqrt(kx * kx + ky * ky + kz * kz)) / V;
            }
            ev += s[iz][iy];
            var_ms += 2.0 * s[iz][iy] * s[iz][iy];
            const int sh = (int)fmin(SHELLS - 1, floor(sqrt((double)(my * my + mz * mz)) / 3.0));
            shell_e[sh] += s[iz][iy];
            shell_v[sh] += 2.0 * s[iz][iy] * s[iz][iy];
        }
    CHECK(fabs(ev - info.variance_resolved) <= 1e-12 * ev, "the lattice sum %.15g, the plan's %.15g", ev,
          info.variance_resolved);
    const double s0 = s[0][0];
    double mean = 0.0, ms = 0.0, shell[SHELLS] = {0};
    const double origin[3] = {-1, 0, 0}, spacing[3] = {1, 1, 1};
    const int64_t n[3] = {1, NY, NZ};
    static double f[NZ][NY];
    for (uint64_t r = 0; r < REALIZATIONS; r++) {
        tbrf_inflow *in = sampler(m, 3, 100 + r, 0);
        REQUIRE(in, , "sampler");
        REQUIRE(tbrf_inflow_fill_grid(in, 7.0, origin, spacing, n, &f[0][0]) == TBRF_OK, , "fill: %s",
                tbrf_inflow_message(in));
        tbrf_inflow_destroy(in);
        double sum = 0.0, sq = 0.0;
        for (int iz = 0; iz < NZ; iz++)
            for (int iy = 0; iy < NY; iy++) {
                sum += f[iz][iy];
                sq += f[iz][iy] * f[iz][iy];
            }
        mean += sum / (NY * NZ);
        ms += sq / (NY * NZ);
        /* the transverse coefficients by a direct DFT */
        for (int64_t qz = 0; qz < NZ; qz++)
            for (int64_t qy = 0; qy < NY; qy++) {
                const int64_t my = m_of(qy, NY), mz = m_of(qz, NZ);
                if (my == NY / 2 || mz == NZ / 2)
                    continue;
                double re = 0.0, im = 0.0;
                for (int iz = 0; iz < NZ; iz++)
                    for (int iy = 0; iy < NY; iy++) {
                        const double ph = -2 * M_PI * ((double)(my * iy) / NY + (double)(mz * iz) / NZ);
                        re += f[iz][iy] * cos(ph);
                        im += f[iz][iy] * sin(ph);
                    }
                re /= NY * NZ;
                im /= NY * NZ;
                const int sh = (int)fmin(SHELLS - 1, floor(sqrt((double)(my * my + mz * mz)) / 3.0));
                shell[sh] += re * re + im * im;
            }
    }
    const double R = REALIZATIONS;
    mean /= R;
    ms /= R;
    const double sd_mean = sqrt(s0 / R), sd_ms = sqrt(var_ms / R);
    CHECK(fabs(mean) <= 4.0 * sd_mean, "plane mean %.4g, expected 0 +- %.3g", mean, sd_mean);
    CHECK(fabs(ms - ev) <= 4.0 * sd_ms, "plane mean square %.4f, expected %.4f +- %.3g", ms, ev, sd_ms);
    printf("plane over %d realizations: mean %.4f (0 +- %.4f), mean square %.4f (%.4f +- %.4f, the "
           "model's variance %.4f)\n", REALIZATIONS, mean, sd_mean, ms, ev, sd_ms, tbrf_model_variance(m, 3));
    for (int sh = 0; sh < SHELLS; sh++) {
        const double got = shell[sh] / R, sd = sqrt(shell_v[sh] / R);
        CHECK(fabs(got - shell_e[sh]) <= 4.0 * sd, "shell %d: power %.4g, expected %.4g +- %.3g", sh, got,
              shell_e[sh], sd);
        printf("  shell %d (|q| in [%d, %d) fundamentals): power %.4f, expected %.4f +- %.4f\n", sh, 3 * sh,
               sh == SHELLS - 1 ? 99 : 3 * sh + 3, got, shell_e[sh], sd);
    }
    tbrf_model_destroy(m);
}

/* 4: the lognormal density is rho_w exp(sigma delta - sigma^2/2) of the
 * field's values. */
static void test_density(void)
{
    tbrf_model *m = powerlaw();
    tbrf_inflow *in = sampler(m, 3, 5, 0);
    REQUIRE(in, , "sampler");
    int64_t n[3];
    block_counts(3, n);
    const int64_t N = n[0] * n[1] * n[2];
    double *d = malloc(sizeof(double) * (size_t)N), *r = malloc(sizeof(double) * (size_t)N);
    REQUIRE(tbrf_inflow_fill_grid(in, 4.0, ORIGIN, SPACING, n, d) == TBRF_OK, , "field");
    REQUIRE(tbrf_inflow_set_density(in, TBRF_DENSITY_LOGNORMAL, 2.5, 0.8, 0.0) == TBRF_OK, , "set");
    REQUIRE(tbrf_inflow_fill_grid(in, 4.0, ORIGIN, SPACING, n, r) == TBRF_OK, , "lognormal");
    int ok = 1;
    for (int64_t i = 0; i < N; i++)
        ok &= r[i] == 2.5 * exp(0.8 * d[i] - 0.5 * 0.8 * 0.8);
    CHECK(ok, "lognormal density = rho_w exp(sigma delta - sigma^2/2)");
    free(d);
    free(r);
    tbrf_inflow_destroy(in);
    tbrf_model_destroy(m);
}

/* 5: bad input. */
static void test_errors(void)
{
    tbrf_model *m = powerlaw();
    double lo[3], hi[3];
    tube(3, lo, hi);
    tbrf_inflow *in = NULL;
    const double bad[][3] = {{0, 0, 0}, {0, -1, 16}, {0, NAN, 16}, {0, INFINITY, 16}};
    for (int i = 0; i < 4; i++) {
        CHECK(tbrf_inflow_create_periodic(m, 3, lo, hi, bad[i], 1.0, 1, 0, NULL, V3, &in) ==
                  TBRF_ERR_INVALID && strstr(tbrf_inflow_message(in), "period"),
              "period (%g, %g, %g): %s", bad[i][0], bad[i][1], bad[i][2], tbrf_inflow_message(in));
        CHECK(tbrf_inflow_fill(in, 0.0, 0, NULL, NULL) == TBRF_ERR_BAD_PLAN, "a failed sampler refuses");
        tbrf_inflow_destroy(in);
    }
    const double period[3] = {0, NY, NZ};
    CHECK(tbrf_inflow_create_periodic(m, 3, lo, hi, NULL, 1.0, 1, 0, NULL, V3, &in) == TBRF_ERR_NULL,
          "NULL period");
    tbrf_inflow_destroy(in);
    CHECK(tbrf_inflow_create_periodic(m, 3, lo, hi, period, 1.0, 1, 0, NULL, V3, NULL) == TBRF_ERR_NULL,
          "NULL sampler");
    CHECK(tbrf_inflow_create_periodic(m, 3, hi, lo, period, 1.0, 1, 0, NULL, V3, &in) == TBRF_ERR_INVALID,
          "lo > hi: %s", tbrf_inflow_message(in));
    tbrf_inflow_destroy(in);
    CHECK(tbrf_inflow_create_periodic(m, 3, lo, hi, period, 0.0, 1, 0, NULL, V3, &in) == TBRF_ERR_INVALID,
          "resolution 0: %s", tbrf_inflow_message(in));
    tbrf_inflow_destroy(in);
    tbrf_opts o;
    tbrf_default_opts(&o);
    o.vector = TBRF_VECTOR_SOLENOIDAL;
    CHECK(tbrf_inflow_create_periodic(m, 3, lo, hi, period, 1.0, 1, 0, &o, V3, &in) == TBRF_ERR_UNSUPPORTED,
          "vector: %s", tbrf_inflow_message(in));
    tbrf_inflow_destroy(in);
    setenv("TBRF_MEMORY_BUDGET", "64K", 1);
    CHECK(tbrf_inflow_create_periodic(m, 3, lo, hi, period, 1.0, 1, 0, NULL, V3, &in) == TBRF_ERR_SIZE,
          "memory budget: %s", tbrf_inflow_message(in));
    tbrf_inflow_destroy(in);
    unsetenv("TBRF_MEMORY_BUDGET");
    /* past the tube's end along the flow: refused, nothing written; far
     * beyond the box across it: fine */
    REQUIRE(tbrf_inflow_create_periodic(m, 3, lo, hi, period, 1.0, 1, 0, NULL, V3, &in) == TBRF_OK, ,
            "create: %s", tbrf_inflow_message(in));
    double x[6] = {-3, 3, 3, -3, 3 + 1000 * NY, 3 - 7 * NZ}, v[2] = {42, 42};
    CHECK(tbrf_inflow_fill(in, T_END + 1.0, 2, x, v) == TBRF_ERR_OUT_OF_DOMAIN && v[0] == 42 && v[1] == 42,
          "past the tube's end: %s", tbrf_inflow_message(in));
    CHECK(tbrf_inflow_fill(in, T_END, 2, x, v) == TBRF_OK && fabs(v[0] - v[1]) <= 1e-9,
          "images far across the flow: %.17g %.17g (%s)", v[0], v[1], tbrf_inflow_message(in));
    CHECK(tbrf_inflow_line_bytes(in, 0) == 0 && tbrf_inflow_line_bytes(in, 1) == 0, "no lines");
    tbrf_inflow_destroy(in);
    tbrf_model_destroy(m);
}

/* 6: four threads fill their own times from one sampler at once. */
enum { THREADS = 4 };
typedef struct fill_job {
    tbrf_inflow *in;
    double t;
    const int64_t *n;
    double *out;
    int status;
} fill_job;

static void *fill_thread(void *arg)
{
    fill_job *j = arg;
    for (int rep = 0; rep < 5 && j->status == TBRF_OK; rep++)
        j->status = tbrf_inflow_fill_grid(j->in, j->t, ORIGIN, SPACING, j->n, j->out);
    return NULL;
}

static void test_threads(void)
{
    tbrf_model *m = powerlaw();
    tbrf_inflow *in = sampler(m, 3, 9, 1);
    REQUIRE(in, , "sampler");
    int64_t n[3];
    block_counts(3, n);
    const size_t N = (size_t)(n[0] * n[1] * n[2]);
    double *serial = malloc(sizeof(double) * N * THREADS), *par = malloc(sizeof(double) * N * THREADS);
    for (int k = 0; k < THREADS; k++)
        REQUIRE(tbrf_inflow_fill_grid(in, 1.5 * k, ORIGIN, SPACING, n, serial + N * k) == TBRF_OK, , "serial");
    pthread_t tid[THREADS];
    fill_job jobs[THREADS];
    int started = 0;
    for (int k = 0; k < THREADS; k++) {
        jobs[k] = (fill_job){in, 1.5 * k, n, par + N * k, TBRF_OK};
        started += pthread_create(&tid[k], NULL, fill_thread, &jobs[k]) == 0;
    }
    REQUIRE(started == THREADS, , "threads");
    int ok = 1;
    for (int k = 0; k < THREADS; k++) {
        pthread_join(tid[k], NULL);
        ok &= jobs[k].status == TBRF_OK;
    }
    CHECK(ok && !memcmp(serial, par, sizeof(double) * N * THREADS),
          "%d threads sharing one periodic sampler: bitwise the serial fills", THREADS);
    free(serial);
    free(par);
    tbrf_inflow_destroy(in);
    tbrf_model_destroy(m);
}

int main(void)
{
    test_plan_and_periodicity(3);
    test_plan_and_periodicity(2);
    test_statistics();
    test_density();
    test_errors();
    test_threads();
    return check_report("test_inflow_periodic");
}
