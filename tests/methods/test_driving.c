/* test_driving.c — turbulence driving (tbrf_driver_*, doc/driving.md).
 *
 * Statistics (fixed seeds; tolerances 4 sigma of the estimator, derived
 * below and in doc/statistics.md):
 *  - temporal autocorrelation rho(tau) = exp(-tau/T) at lags of 5, 10 and
 *    20 updates, from the modes by Parseval over 4000 updates;
 *  - solenoidal power fraction zeta^2 (d-1) / (zeta^2 (d-1) + (1-zeta)^2)
 *    for zeta = 0.25, 0.5, 0.75 (exactly 1 and 0 at zeta = 1, 0);
 *  - the spectrum: each shell's share of the power is its share of
 *    sum P(|k|) over the modes (parabola model);
 *  - the ensemble rms: the mean of rms^2 over updates is the target^2,
 *    also for the energy-injection amplitude, whose closed form equals
 *    the autocorrelation's integral summed term by term.
 * Exact properties:
 *  - divergence (zeta = 1) and curl (zeta = 0) zero to rounding in the
 *    Fourier transform of the force on the box lattice, by the direct sum
 *    and by the NUFFT;
 *  - the exact rms per update (Parseval) and the rms of the force summed
 *    over the box lattice agree; no mean force (no m = 0; the lattice mean
 *    is zero to rounding);
 *  - direct sum and NUFFT agree to the requested accuracy;
 *  - restart and variable dt: any sequence of times, a fresh driver, and a
 *    saved and loaded state give bitwise the same force (also with time
 *    interpolation); streaming equals points bitwise; threads 1 and 3 give
 *    the same bits (points, grids; direct and NUFFT);
 *  - the band and parabola models: closed-form variances;
 *  - bad input refused with a status and a message. */
#include <complex.h>
#include <fftw3.h>
#include <string.h>

#include "support/testutil.h"
#include "support/driving.h"

static const double PI = 3.14159265358979323846;

typedef struct series {
    int64_t nm, nt;
    int32_t *m;
    double *c; /* nt x nm x 6 */
} series;

/* Coefficients at updates 0, stride, 2 stride, ... (nt of them). */
static series record(tbrf_driver *d, int64_t nt, int64_t stride)
{
    tbrf_driver_info info;
    tbrf_driver_get_info(d, &info);
    series s = {info.modes, nt, NULL, NULL};
    s.m = tu_malloc(sizeof(int32_t) * 3 * (size_t)s.nm);
    s.c = tu_malloc(sizeof(double) * 6 * (size_t)(s.nm * nt));
    for (int64_t j = 0; j < nt; j++) {
        int64_t n = s.nm;
        int st = tbrf_driver_modes(d, (double)(j * stride) * info.dt_update + 1e-9, &n, s.m,
                                   s.c + 6 * s.nm * j);
        CHECK(st == TBRF_OK && n == s.nm, "modes: %s", tbrf_driver_message(d));
    }
    return s;
}

static double kk_of(const int32_t *m)
{
    return (2.0 * PI) * (2.0 * PI) * (double)(m[0] * m[0] + m[1] * m[1] + m[2] * m[2]);
}

/* Effective number of independent equal processes for weights w. */
static double keff(const double *w, int64_t n)
{
    double s1 = 0.0, s2 = 0.0;
    for (int64_t i = 0; i < n; i++) {
        s1 += w[i];
        s2 += w[i] * w[i];
    }
    return s1 * s1 / s2;
}

/* rho(tau) = sum_j sum_m Re(c(j) . conj c(j+L)) / sum |c(j)|^2 for a
 * band driver with zeta = 1: each mode carries 2 (d-1) = 4 real AR(1)
 * processes with coefficient phi = e^{-dt/T} and weight s_m^2 = P(|k|) ∝
 * |k|^-2 (the band model in 3D). Bartlett's formula for the sample
 * autocorrelation of an AR(1) at lag L over n samples:
 *   n var(r_L) = (1 + phi^2)(1 - phi^{2L}) / (1 - phi^2) - 2 L phi^{2L},
 * and the weighted mean of independent processes divides it by
 * K_eff = (sum w)^2 / sum w^2 over the processes. */
static void test_autocorrelation(void)
{
    tbrf_model *m = NULL;
    tbrf_model_band(2 * PI * 1.0, 2 * PI * 3.0, &m);
    tbrf_driver_params p;
    tbrf_driver_default_params(&p);
    p.tcorr = 2.0;
    tbrf_driver *d = drv_make(m, 11, &p);
    const int64_t nt = 4000;
    series s = record(d, nt, 1);
    double *w = tu_malloc(sizeof(double) * 4 * (size_t)s.nm);
    for (int64_t i = 0; i < s.nm; i++)
        for (int q = 0; q < 4; q++)
            w[4 * i + q] = 1.0 / kk_of(s.m + 3 * i);
    const double K = keff(w, 4 * s.nm);
    const double phi = exp(-0.1); /* dt_update = T / 10 */
    const int lags[3] = {5, 10, 20};
    for (int l = 0; l < 3; l++) {
        const int L = lags[l];
        double num = 0.0, den = 0.0;
        for (int64_t j = 0; j + L < nt; j++)
            for (int64_t x = 0; x < 6 * s.nm; x++) {
                num += s.c[6 * s.nm * j + x] * s.c[6 * s.nm * (j + L) + x];
                den += s.c[6 * s.nm * j + x] * s.c[6 * s.nm * j + x];
            }
        const double n = (double)(nt - L), p2L = pow(phi, 2.0 * L);
        const double var = ((1 + phi * phi) * (1 - p2L) / (1 - phi * phi) - 2.0 * L * p2L) / n / K;
        printf("autocorrelation tau = %.1f T: %.4f, target %.4f, tolerance %.4f\n", 0.1 * L, num / den,
               exp(-0.1 * L), 4.0 * sqrt(var));
        CHECK_NEAR(num / den, exp(-0.1 * L), 4.0 * sqrt(var),
                   "autocorrelation at tau = %d dt_update = %.1f T (K_eff %.0f)", L, 0.1 * L, K);
    }
    free(w);
    free(s.m);
    free(s.c);
    tbrf_driver_destroy(d);
    tbrf_model_destroy(m);
}

/* Solenoidal fraction from the modes: sum |c - khat (khat.c)|^2 / sum |c|^2
 * over 400 updates 10 apart (one T). With zeta in (0, 1) the solenoidal
 * power S is carried by 2 (d-1) = 4 real processes per mode of weight
 * zeta^2 s^2, the compressive Q by 2 of weight (1-zeta)^2 s^2; a square of a
 * unit real normal has relative variance 2, and samples 10 updates apart
 * are correlated by phi^20 = e^-2 in the square, which multiplies the
 * variance of the mean by (1 + e^-2) / (1 - e^-2). F = S / (S + Q) has
 * var F = F^2 (1-F)^2 (var S / S^2 + var Q / Q^2). */
static void test_solenoidal_fraction(void)
{
    tbrf_model *m = NULL;
    tbrf_model_band(2 * PI * 1.0, 2 * PI * 3.0, &m);
    const double zetas[5] = {0.0, 0.25, 0.5, 0.75, 1.0};
    for (int z = 0; z < 5; z++) {
        tbrf_driver_params p;
        tbrf_driver_default_params(&p);
        p.zeta = zetas[z];
        tbrf_driver *d = drv_make(m, 5 + (uint64_t)z, &p);
        const int64_t nt = 400;
        series s = record(d, nt, 10);
        double sol = 0.0, tot = 0.0;
        double *w = tu_malloc(sizeof(double) * (size_t)s.nm);
        for (int64_t i = 0; i < s.nm; i++) {
            const int32_t *mi = s.m + 3 * i;
            const double kk = sqrt(kk_of(mi)), h[3] = {2 * PI * mi[0] / kk, 2 * PI * mi[1] / kk,
                                                     2 * PI * mi[2] / kk};
            w[i] = 1.0 / (kk * kk);
            for (int64_t j = 0; j < nt; j++) {
                const double *c = s.c + 6 * (s.nm * j + i);
                for (int ri = 0; ri < 2; ri++) {
                    const double kc = h[0] * c[ri] + h[1] * c[2 + ri] + h[2] * c[4 + ri];
                    for (int q = 0; q < 3; q++) {
                        const double v = c[2 * q + ri], pe = v - h[q] * kc;
                        sol += pe * pe;
                        tot += v * v;
                    }
                }
            }
        }
        const double zt = zetas[z], F = 2 * zt * zt / (2 * zt * zt + (1 - zt) * (1 - zt));
        if (zt == 0.0 || zt == 1.0) {
            CHECK_NEAR(sol / tot, F, 1e-20, "solenoidal fraction at zeta = %g is exact", zt);
        } else {
            const double K = keff(w, s.nm) * (double)nt, tc = (1 + exp(-2.0)) / (1 - exp(-2.0));
            const double vS = 2.0 * tc / (4.0 * K), vQ = 2.0 * tc / (2.0 * K);
            printf("solenoidal fraction zeta = %.2f: %.4f, target %.4f, tolerance %.4f\n", zt, sol / tot,
                   F, 4.0 * F * (1 - F) * sqrt(vS + vQ));
            CHECK_NEAR(sol / tot, F, 4.0 * F * (1 - F) * sqrt(vS + vQ),
                       "solenoidal power fraction at zeta = %g", zt);
        }
        free(w);
        free(s.m);
        free(s.c);
        tbrf_driver_destroy(d);
    }
    tbrf_model_destroy(m);
}

/* Shell shares of the power (parabola model, 1 <= |m| <= 4: zero at both
 * ends) and the ensemble rms: the mean of sum 2|c|^2 over 400 updates one T
 * apart is rms^2 = 1; shares and mean scatter as means of weighted squares
 * (relative variance 2 (1 + e^-2)/(1 - e^-2) / (K_eff nt), with K_eff over
 * the 6 real processes per mode of weight P(|k|) in the shell). */
static void test_spectrum_and_rms(void)
{
    tbrf_model *m = NULL;
    tbrf_model_parabola(2 * PI * 1.0, 2 * PI * 4.0, &m);
    tbrf_driver_params p;
    tbrf_driver_default_params(&p);
    p.zeta = 0.5;
    p.rms = 3.0;
    tbrf_driver *d = drv_make(m, 21, &p);
    const int64_t nt = 400;
    series s = record(d, nt, 10);
    enum { NS = 3 };
    const double edge[NS + 1] = {1.0, 2.0, 3.0, 4.0};
    double pw[NS] = {0}, want[NS] = {0}, total = 0.0, wtot = 0.0;
    double *w[NS];
    int64_t cnt[NS] = {0};
    for (int b = 0; b < NS; b++)
        w[b] = tu_malloc(sizeof(double) * 6 * (size_t)s.nm);
    for (int64_t i = 0; i < s.nm; i++) {
        const double k = sqrt(kk_of(s.m + 3 * i)), P = tbrf_model_spectrum(m, 3, k);
        int b = 0;
        while (b < NS - 1 && k / (2 * PI) >= edge[b + 1])
            b++;
        want[b] += P;
        wtot += P;
        for (int q = 0; q < 6; q++)
            w[b][cnt[b]++] = P;
        for (int64_t j = 0; j < nt; j++)
            for (int x = 0; x < 6; x++) {
                const double v = s.c[6 * (s.nm * j + i) + x];
                pw[b] += v * v;
                total += v * v;
            }
    }
    const double tc = (1 + exp(-2.0)) / (1 - exp(-2.0));
    for (int b = 0; b < NS; b++) {
        const double share = want[b] / wtot, K = keff(w[b], cnt[b]) * (double)nt;
        printf("shell [%g, %g): share %.4f, target %.4f, tolerance %.4f\n", edge[b], edge[b + 1],
               pw[b] / total, share, 4.0 * share * sqrt(2.0 * tc / K));
        CHECK_NEAR(pw[b] / total, share, 4.0 * share * sqrt(2.0 * tc / K),
                   "power share of shell %g <= |m| < %g", edge[b], edge[b + 1]);
        free(w[b]);
    }
    double *wall = tu_malloc(sizeof(double) * 6 * (size_t)s.nm);
    for (int64_t i = 0; i < s.nm; i++)
        for (int q = 0; q < 6; q++)
            wall[6 * i + q] = tbrf_model_spectrum(m, 3, sqrt(kk_of(s.m + 3 * i)));
    const double K = keff(wall, 6 * s.nm) * (double)nt;
    printf("ensemble rms^2: %.4f, target 9, tolerance %.4f\n", 2.0 * total / (double)nt,
           9.0 * 4.0 * sqrt(2.0 * tc / K));
    CHECK_NEAR(2.0 * total / (double)nt, 9.0, 9.0 * 4.0 * sqrt(2.0 * tc / K),
               "ensemble rms^2 over updates = target^2");
    free(wall);
    free(s.m);
    free(s.c);
    tbrf_driver_destroy(d);
    tbrf_model_destroy(m);
}

/* The force on the n^3 box lattice, its forward DFT per component, and the
 * largest |k . F| (div) or |k x F| (curl) relative to max |k| |F|. */
static void spectral_check(tbrf_driver *d, int zeta_one, double tol, const char *what)
{
    const int n = 16;
    const double o[3] = {0, 0, 0}, h[3] = {1.0 / n, 1.0 / n, 1.0 / n};
    const int64_t nn[3] = {n, n, n};
    const size_t N = (size_t)n * n * n;
    double *f = tu_malloc(sizeof(double) * 3 * N);
    CHECK(tbrf_driver_grid(d, 0.37, o, h, nn, f) == TBRF_OK, "grid: %s", tbrf_driver_message(d));
    fftw_complex *F[3];
    double *in = fftw_malloc(sizeof(double) * N);
    for (int c = 0; c < 3; c++) {
        F[c] = fftw_malloc(sizeof(fftw_complex) * N);
        fftw_plan pl = fftw_plan_dft_r2c_3d(n, n, n, in, F[c], FFTW_ESTIMATE);
        for (size_t i = 0; i < N; i++)
            in[i] = f[3 * i + c];
        fftw_execute(pl);
        fftw_destroy_plan(pl);
    }
    double worst = 0.0, big = 0.0;
    const int nh = n / 2 + 1;
    for (int iz = 0; iz < n; iz++)
        for (int iy = 0; iy < n; iy++)
            for (int ix = 0; ix < nh; ix++) {
                const double k[3] = {ix, iy <= n / 2 ? iy : iy - n, iz <= n / 2 ? iz : iz - n};
                const size_t at = ((size_t)iz * n + iy) * nh + ix;
                double complex v[3];
                for (int c = 0; c < 3; c++)
                    v[c] = F[c][at]; /* double complex: complex.h comes first */
                const double kn = sqrt(k[0] * k[0] + k[1] * k[1] + k[2] * k[2]);
                const double vn = sqrt(cabs(v[0]) * cabs(v[0]) + cabs(v[1]) * cabs(v[1]) + cabs(v[2]) * cabs(v[2]));
                if (kn * vn > big)
                    big = kn * vn;
                double e;
                if (zeta_one) {
                    e = cabs(k[0] * v[0] + k[1] * v[1] + k[2] * v[2]);
                } else {
                    const double complex x = k[1] * v[2] - k[2] * v[1], y = k[2] * v[0] - k[0] * v[2],
                                         z = k[0] * v[1] - k[1] * v[0];
                    e = sqrt(cabs(x) * cabs(x) + cabs(y) * cabs(y) + cabs(z) * cabs(z));
                }
                if (e > worst)
                    worst = e;
            }
    printf("%s, zeta = %d: max %s / max |k||F| = %.2e (tolerance %.0e)\n", what, zeta_one,
           zeta_one ? "|k.F|" : "|k x F|", worst / big, tol);
    CHECK(big > 0.0 && worst <= tol * big, "%s: max %s %.3g of max |k||F| %.3g", what,
          zeta_one ? "|k.F|" : "|k x F|", worst, big);
    for (int c = 0; c < 3; c++)
        fftw_free(F[c]);
    fftw_free(in);
    free(f);
}

static void test_div_curl(void)
{
    tbrf_model *m = NULL;
    tbrf_model_band(2 * PI * 1.0, 2 * PI * 3.0, &m);
    for (int ev = TBRF_DRIVE_DIRECT; ev <= TBRF_DRIVE_NUFFT; ev++)
        for (int z = 0; z <= 1; z++) {
            tbrf_driver_params p;
            tbrf_driver_default_params(&p);
            p.zeta = z;
            p.eval = ev;
            tbrf_driver *d = drv_make(m, 3, &p);
            /* direct: rounding of ~100 terms (1e-14); NUFFT: its accuracy 1e-12 */
            spectral_check(d, z, ev == TBRF_DRIVE_DIRECT ? 1e-13 : 1e-10,
                           ev == TBRF_DRIVE_DIRECT ? "direct" : "nufft");
            tbrf_driver_destroy(d);
        }
    tbrf_model_destroy(m);
}

/* Exact rms, Parseval against the lattice, no mean, direct vs NUFFT. */
static void test_exact_rms_and_mean(void)
{
    tbrf_model *m = NULL;
    tbrf_model_parabola(2 * PI * 1.0, 2 * PI * 4.0, &m);
    tbrf_driver_params p;
    tbrf_driver_default_params(&p);
    p.zeta = 0.3;
    p.rms = 2.5;
    p.normalization = TBRF_DRIVE_RMS_EXACT;
    p.origin[0] = -0.3;
    tbrf_driver *d = drv_make(m, 9, &p);
    p.eval = TBRF_DRIVE_NUFFT;
    tbrf_driver *dn = drv_make(m, 9, &p);
    int64_t nm = 0;
    tbrf_driver_modes(d, 0.0, &nm, NULL, NULL);
    int32_t *mm = tu_malloc(sizeof(int32_t) * 3 * (size_t)nm);
    double *cf = tu_malloc(sizeof(double) * 6 * (size_t)nm);
    CHECK(tbrf_driver_modes(d, 0.0, &nm, mm, cf) == TBRF_OK, "modes");
    int zero = 0;
    for (int64_t i = 0; i < nm; i++)
        zero |= mm[3 * i] == 0 && mm[3 * i + 1] == 0 && mm[3 * i + 2] == 0;
    CHECK(!zero, "no k = 0 mode is driven");
    const int n = 12;
    const double o[3] = {-0.3, 0, 0}, h[3] = {1.0 / n, 1.0 / n, 1.0 / n};
    const int64_t nn[3] = {n, n, n};
    double *f = tu_malloc(sizeof(double) * 3 * n * n * n);
    for (int k = 0; k < 5; k++) {
        const double t = 0.1 * k + 0.05;
        double r = 0.0;
        CHECK(tbrf_driver_rms(d, t, &r) == TBRF_OK, "rms");
        CHECK_NEAR(r, 2.5, 2.5 * 1e-14, "exact rms at update %d", k);
        CHECK(tbrf_driver_grid(d, t, o, h, nn, f) == TBRF_OK, "grid");
        double s2 = 0.0, mean[3] = {0, 0, 0};
        for (int i = 0; i < n * n * n; i++)
            for (int c = 0; c < 3; c++) {
                s2 += f[3 * i + c] * f[3 * i + c];
                mean[c] += f[3 * i + c];
            }
        CHECK_NEAR(sqrt(s2 / (n * n * n)), 2.5, 2.5 * 1e-12, "rms over the box lattice (Parseval)");
        for (int c = 0; c < 3; c++)
            CHECK_NEAR(mean[c] / (n * n * n), 0.0, 1e-13 * 2.5, "no mean force, component %d", c);
    }
    /* the grid's axis-by-axis sum = the per-point sum at the cells */
    {
        double *xc = tu_malloc(sizeof(double) * 3 * n * n * n), *fp = tu_malloc(sizeof(double) * 3 * n * n * n);
        for (int i = 0; i < n * n * n; i++) {
            xc[3 * i] = o[0] + h[0] * (i % n);
            xc[3 * i + 1] = o[1] + h[1] * (i / n % n);
            xc[3 * i + 2] = o[2] + h[2] * (i / n / n);
        }
        tbrf_driver_grid(d, 0.3, o, h, nn, f);
        tbrf_driver_points(d, 0.3, n * n * n, xc, fp);
        double worst = 0.0;
        for (int i = 0; i < 3 * n * n * n; i++)
            worst = fmax(worst, fabs(f[i] - fp[i]));
        CHECK(worst <= 1e-13 * 2.5, "grid vs points at the cells: max difference %.3g", worst);
        free(xc);
        free(fp);
    }
    /* direct vs NUFFT at random points, inside and outside the box */
    const int np = 300;
    double *x = tu_malloc(sizeof(double) * 3 * np), *a = tu_malloc(sizeof(double) * 3 * np),
           *b = tu_malloc(sizeof(double) * 3 * np);
    uint64_t st = 12345;
    for (int i = 0; i < 3 * np; i++) {
        st = st * 6364136223846793005ULL + 1442695040888963407ULL;
        x[i] = -1.5 + 3.0 * (double)(st >> 11) / 9007199254740992.0;
    }
    CHECK(tbrf_driver_points(d, 0.77, np, x, a) == TBRF_OK, "points direct");
    CHECK(tbrf_driver_points(dn, 0.77, np, x, b) == TBRF_OK, "points nufft: %s", tbrf_driver_message(dn));
    double worst = 0.0;
    for (int i = 0; i < 3 * np; i++)
        worst = fmax(worst, fabs(a[i] - b[i]));
    /* 5 eps of the rms, as test_periodic (Barnett et al. 2019) */
    printf("direct vs NUFFT (accuracy 1e-12): max difference / rms %.2e\n", worst / 2.5);
    CHECK(worst <= 5e-12 * 2.5, "direct vs NUFFT: max difference %.3g", worst);
    tbrf_driver_info info;
    tbrf_driver_get_info(dn, &info);
    CHECK(info.eval == TBRF_DRIVE_NUFFT, "eval NUFFT reported");
    free(x);
    free(a);
    free(b);
    free(f);
    free(mm);
    free(cf);
    tbrf_driver_destroy(d);
    tbrf_driver_destroy(dn);
    tbrf_model_destroy(m);
}

/* Restart and variable-dt identity, bitwise. */
static void test_restart(void)
{
    tbrf_model *m = NULL;
    tbrf_model_band(2 * PI * 1.0, 2 * PI * 2.5, &m);
    for (int interp = 0; interp <= 1; interp++) {
        tbrf_driver_params p;
        tbrf_driver_default_params(&p);
        p.zeta = 0.7;
        p.tcorr = 0.5;
        p.interpolate = interp;
        enum { NP = 50, NT = 40 };
        double x[3 * NP];
        for (int i = 0; i < 3 * NP; i++)
            x[i] = 0.013 * i - 0.2;
        int64_t ssize = 0;
        void *state = drv_check_time_access("", m, 77, &p, interp, NP, x, NT, &ssize);
        /* another seed's state is refused */
        tbrf_driver *o = drv_make(m, 78, &p);
        CHECK(tbrf_driver_load(o, state, ssize) == TBRF_ERR_INVALID, "another driver's state refused");
        CHECK(strstr(tbrf_driver_message(o), "another driver") != NULL, "message: %s",
              tbrf_driver_message(o));
        tbrf_driver_destroy(o);
        free(state);
    }
    tbrf_model_destroy(m);
}

/* Linear interpolation: halfway between updates the force is the mean of
 * the two updates' forces; with interpolation off it is the earlier one. */
static void test_interpolation(void)
{
    tbrf_model *m = NULL;
    tbrf_model_band(2 * PI * 1.0, 2 * PI * 2.0, &m);
    tbrf_driver_params p;
    tbrf_driver_default_params(&p);
    p.interpolate = 1;
    tbrf_driver *d = drv_make(m, 4, &p);
    const double x[3] = {0.1, 0.2, 0.3};
    double f0[3], f1[3], fh[3];
    tbrf_driver_points(d, 0.3, 1, x, f0);
    tbrf_driver_points(d, 0.4, 1, x, f1);
    tbrf_driver_points(d, 0.35, 1, x, fh);
    for (int c = 0; c < 3; c++)
        CHECK_NEAR(fh[c], 0.5 * (f0[c] + f1[c]), 1e-12 * (fabs(f0[c]) + fabs(f1[c])),
                   "halfway value, component %d", c);
    tbrf_driver_destroy(d);
    tbrf_model_destroy(m);
}

/* 2D: a grid (axis by axis) equals points; the solenoidal force has no
 * divergence on the lattice (spectral, 1e-13 of max |k||F|). */
static void test_2d(void)
{
    tbrf_model *m = NULL;
    tbrf_model_band(2 * PI * 1.0, 2 * PI * 4.0, &m);
    tbrf_driver_params p;
    tbrf_driver_default_params(&p);
    p.dim = 2;
    p.length[0] = 2.0;
    p.length[1] = 1.5;
    p.eval = TBRF_DRIVE_DIRECT;
    tbrf_driver *d = drv_make(m, 8, &p);
    p.eval = TBRF_DRIVE_NUFFT;
    tbrf_driver *dn = drv_make(m, 8, &p);
    enum { NX = 20, NY = 15 };
    const double o[3] = {0, 0, 0}, h[3] = {2.0 / NX, 1.5 / NY, 1};
    const int64_t nn[3] = {NX, NY, 1};
    double f[2 * NX * NY], g[2 * NX * NY], x[2 * NX * NY];
    for (int i = 0; i < NX * NY; i++) {
        x[2 * i] = h[0] * (i % NX);
        x[2 * i + 1] = h[1] * (i / NX);
    }
    CHECK(tbrf_driver_grid(d, 0.2, o, h, nn, f) == TBRF_OK, "2D grid: %s", tbrf_driver_message(d));
    CHECK(tbrf_driver_points(d, 0.2, NX * NY, x, g) == TBRF_OK, "2D points");
    double worst = 0.0, big = 0.0;
    for (int i = 0; i < 2 * NX * NY; i++)
        worst = fmax(worst, fabs(f[i] - g[i])), big = fmax(big, fabs(f[i]));
    CHECK(big > 0 && worst <= 1e-13 * big, "2D grid vs points: %.3g of %.3g", worst, big);
    CHECK(tbrf_driver_points(dn, 0.2, NX * NY, x, g) == TBRF_OK, "2D NUFFT points");
    worst = 0.0;
    for (int i = 0; i < 2 * NX * NY; i++)
        worst = fmax(worst, fabs(f[i] - g[i]));
    CHECK(worst <= 5e-12 * big, "2D grid vs NUFFT points: %.3g of %.3g", worst, big);
    tbrf_driver_destroy(dn);
    /* divergence by the DFT: sum_x e^{-ik.x} (k . F(x)) = 0 for every k */
    double dmax = 0.0, fmaxk = 0.0;
    for (int kx = 0; kx < NX; kx++)
        for (int ky = 0; ky < NY; ky++) {
            const double k[2] = {2 * PI * (kx <= NX / 2 ? kx : kx - NX) / 2.0, 2 * PI * (ky <= NY / 2 ? ky : ky - NY) / 1.5};
            double dr = 0, di = 0, ar = 0, ai = 0;
            for (int i = 0; i < NX * NY; i++) {
                const double ph = -(k[0] * x[2 * i] + k[1] * x[2 * i + 1]), c = cos(ph), s = sin(ph);
                const double kf = k[0] * f[2 * i] + k[1] * f[2 * i + 1];
                const double kn = sqrt(k[0] * k[0] + k[1] * k[1]) * sqrt(f[2 * i] * f[2 * i] + f[2 * i + 1] * f[2 * i + 1]);
                dr += kf * c, di += kf * s, ar += kn * c, ai += kn * s;
            }
            dmax = fmax(dmax, hypot(dr, di));
            fmaxk = fmax(fmaxk, hypot(ar, ai));
        }
    CHECK(dmax <= 1e-12 * fmaxk, "2D solenoidal: max |k.F_k| %.3g of %.3g", dmax, fmaxk);
    tbrf_driver_destroy(d);
    tbrf_model_destroy(m);
}

/* Threads 1 and 3 give the same bits (points and grids large enough to
 * run in parallel; NUFFT points too). */
static void test_threads(void)
{
    tbrf_model *m = NULL;
    tbrf_model_band(2 * PI * 1.0, 2 * PI * 3.0, &m);
    enum { NP = 4000, NG = 20 };
    double *x = tu_malloc(sizeof(double) * 3 * NP), *a = tu_malloc(sizeof(double) * 3 * NP),
           *b = tu_malloc(sizeof(double) * 3 * NP);
    double *ga = tu_malloc(sizeof(double) * 3 * NG * NG * NG), *gb = tu_malloc(sizeof(double) * 3 * NG * NG * NG);
    for (int i = 0; i < 3 * NP; i++)
        x[i] = fmod(0.7548776662 * i, 1.3) - 0.1;
    const double o[3] = {0.01, 0.02, 0.03}, h[3] = {0.05, 0.05, 0.05};
    const int64_t nn[3] = {NG, NG, NG};
    for (int ev = TBRF_DRIVE_DIRECT; ev <= TBRF_DRIVE_NUFFT; ev++) {
        tbrf_driver_params p;
        tbrf_driver_default_params(&p);
        p.eval = ev;
        p.threads = 1;
        tbrf_driver *d1 = drv_make(m, 2, &p);
        p.threads = 3;
        tbrf_driver *d3 = drv_make(m, 2, &p);
        tbrf_driver_points(d1, 0.42, NP, x, a);
        tbrf_driver_points(d3, 0.42, NP, x, b);
        CHECK(memcmp(a, b, sizeof(double) * 3 * NP) == 0, "points: threads 1 and 3 bitwise (eval %d)", ev);
        tbrf_driver_grid(d1, 0.42, o, h, nn, ga);
        tbrf_driver_grid(d3, 0.42, o, h, nn, gb);
        CHECK(memcmp(ga, gb, sizeof(double) * 3 * NG * NG * NG) == 0, "grid: threads 1 and 3 bitwise (eval %d)", ev);
        tbrf_driver_destroy(d1);
        tbrf_driver_destroy(d3);
    }
    free(x);
    free(a);
    free(b);
    free(ga);
    free(gb);
    tbrf_model_destroy(m);
}

/* Energy injection: eps = rms^2 T_eff with T_eff = dt (1/2 + sum_{j>=1}
 * phi^j), the integral of the piecewise-constant process's
 * autocorrelation (doc/driving.md; the autocorrelation itself is tested
 * above) — here summed term by term against the driver's closed form
 * (dt/2) coth(dt/2T), for dt = T/10 and dt = T. */
static void test_injection(void)
{
    tbrf_model *m = NULL;
    tbrf_model_band(2 * PI * 1.0, 2 * PI * 3.0, &m);
    const double dts[2] = {0.1, 1.0};
    for (int q = 0; q < 2; q++) {
        tbrf_driver_params p;
        tbrf_driver_default_params(&p);
        p.normalization = TBRF_DRIVE_INJECTION;
        p.tcorr = 0.7;
        p.dt_update = dts[q] * p.tcorr;
        p.injection = 3.0;
        p.density = 1.5;
        tbrf_driver *d = drv_make(m, 1, &p);
        tbrf_driver_info info;
        tbrf_driver_get_info(d, &info);
        const double phi = exp(-dts[q]);
        double sum = 0.5, term = 1.0;
        for (int j = 1; j < 2000; j++)
            sum += (term *= phi);
        const double want = sqrt(3.0 / 1.5 / (p.dt_update * sum));
        CHECK_NEAR(info.rms_ensemble, want, 1e-12 * want, "injection rms, dt = %g T", dts[q]);
        /* and the force has that ensemble rms: the mean of rms^2 over 400
         * updates 10 apart scatters by sqrt(2 (1 + r)/(1 - r) / (K_eff 400))
         * relative, r = phi^20 the correlation of successive squares, K_eff
         * over the 4 real processes per mode of weight 1/|k|^2 (band, 3D) */
        series sr = record(d, 1, 1);
        double *w = tu_malloc(sizeof(double) * 4 * (size_t)sr.nm);
        for (int64_t i = 0; i < 4 * sr.nm; i++)
            w[i] = 1.0 / kk_of(sr.m + 3 * (i / 4));
        const double K = keff(w, 4 * sr.nm), rr = pow(phi, 20.0);
        double r = 0.0, mean = 0.0;
        for (int j = 0; j < 400; j++) {
            tbrf_driver_rms(d, (10.0 * j + 0.5) * p.dt_update, &r);
            mean += r * r / 400.0;
        }
        const double tol = 4.0 * sqrt(2.0 * (1 + rr) / (1 - rr) / (K * 400.0));
        printf("injection dt = %g T: mean rms^2 / target %.4f, tolerance %.4f\n", dts[q], mean / (want * want), tol);
        CHECK_NEAR(mean / (want * want), 1.0, tol, "mean rms^2 of the injection driver, dt = %g T", dts[q]);
        free(w);
        free(sr.m);
        free(sr.c);
        tbrf_driver_destroy(d);
    }
    tbrf_model_destroy(m);
}

/* Per-component amplitude factors g = (1, 0.5, 0): each coefficient is g_c
 * times the default driver's (same seed) times A_g/A_1, the ensemble ratio
 * sqrt(sum P (zeta^2 2 + (1-zeta)^2) / sum P sum_c g_c^2 (zeta^2 (1 -
 * khat_c^2) + (1-zeta)^2 khat_c^2)) (1e-12); the third component is zero
 * on a grid; the exact rms holds with factors; a state of other factors is
 * refused naming them; over a non-periodic domain the force is g_c times
 * one constant times the default's; bad factors are refused. */
static void test_amplitude_factors(void)
{
    tbrf_model *m = NULL;
    tbrf_model_band(2 * PI * 1.0, 2 * PI * 3.0, &m);
    tbrf_driver_params p;
    tbrf_driver_default_params(&p);
    p.zeta = 0.6;
    tbrf_driver *d1 = drv_make(m, 12, &p);
    const double g[3] = {1.0, 0.5, 0.0};
    memcpy(p.amplitude_factor, g, sizeof g);
    tbrf_driver *dg = drv_make(m, 12, &p);
    int64_t nm = 0;
    tbrf_driver_modes(d1, 0.0, &nm, NULL, NULL);
    int32_t *mm = tu_malloc(sizeof(int32_t) * 3 * (size_t)nm);
    double *c1 = tu_malloc(sizeof(double) * 6 * (size_t)nm), *cg = tu_malloc(sizeof(double) * 6 * (size_t)nm);
    CHECK(tbrf_driver_modes(d1, 0.73, &nm, mm, c1) == TBRF_OK && tbrf_driver_modes(dg, 0.73, &nm, mm, cg) == TBRF_OK,
          "modes");
    double num = 0.0, den = 0.0, big = 0.0;
    const double z = 0.6, zs = z * z, zc = (1 - z) * (1 - z);
    for (int64_t i = 0; i < nm; i++) {
        const double kk = sqrt(kk_of(mm + 3 * i)), P = tbrf_model_spectrum(m, 3, kk);
        double share = 0.0;
        for (int c = 0; c < 3; c++) {
            const double h = 2 * PI * mm[3 * i + c] / kk;
            share += g[c] * g[c] * (zs * (1 - h * h) + zc * h * h);
        }
        num += P * (2 * zs + zc);
        den += P * share;
        for (int x = 0; x < 6; x++)
            big = fmax(big, fabs(c1[6 * i + x]));
    }
    const double ratio = sqrt(num / den);
    double worst = 0.0;
    for (int64_t i = 0; i < nm; i++)
        for (int x = 0; x < 6; x++)
            worst = fmax(worst, fabs(cg[6 * i + x] - g[x / 2] * ratio * c1[6 * i + x]));
    printf("amplitude factors (1, 0.5, 0): A_g/A_1 = %.6f; max |c_g - g A_g/A_1 c_1| / max |c_1| = %.2e\n",
           ratio, worst / big);
    CHECK(worst <= 1e-12 * big, "factored coefficients = g_c A_g/A_1 x the default's: %.3g of %.3g", worst, big);
    enum { NG = 6 };
    const double o[3] = {0, 0, 0}, h[3] = {1.0 / NG, 1.0 / NG, 1.0 / NG};
    const int64_t nn[3] = {NG, NG, NG};
    double f[3 * NG * NG * NG];
    CHECK(tbrf_driver_grid(dg, 0.73, o, h, nn, f) == TBRF_OK, "grid: %s", tbrf_driver_message(dg));
    int zero = 1;
    for (int i = 0; i < NG * NG * NG; i++)
        zero &= f[3 * i + 2] == 0.0 && f[3 * i] != 0.0;
    CHECK(zero, "a factor 0 gives a zero component (and the others are not)");
    /* a state of other factors is refused naming them */
    void *st = tu_malloc((size_t)tbrf_driver_state_size(dg));
    CHECK(tbrf_driver_save(dg, st, tbrf_driver_state_size(dg)) == TBRF_OK, "save");
    CHECK(tbrf_driver_load(d1, st, tbrf_driver_state_size(dg)) == TBRF_ERR_INVALID &&
              strstr(tbrf_driver_message(d1), "amplitude_factor[1]") != NULL,
          "a state of other factors refused: %s", tbrf_driver_message(d1));
    free(st);
    /* the exact rms with factors */
    p.normalization = TBRF_DRIVE_RMS_EXACT;
    p.rms = 1.7;
    tbrf_driver *de = drv_make(m, 12, &p);
    double r = 0.0;
    CHECK(tbrf_driver_rms(de, 0.73, &r) == TBRF_OK, "rms");
    CHECK_NEAR(r, 1.7, 1.7e-14, "exact rms with factors");
    tbrf_driver_destroy(de);
    /* a non-periodic domain: f_g = g_c K f_1 with one K for every point */
    tbrf_driver_default_params(&p);
    p.periodic = 0;
    p.zeta = 0.6;
    tbrf_driver *t1 = drv_make(m, 4, &p);
    memcpy(p.amplitude_factor, g, sizeof g);
    tbrf_driver *tg = drv_make(m, 4, &p);
    double x[12], v1[12], vg[12];
    for (int i = 0; i < 12; i++)
        x[i] = 0.05 + 0.073 * i;
    CHECK(tbrf_driver_points(t1, 0.4, 4, x, v1) == TBRF_OK && tbrf_driver_points(tg, 0.4, 4, x, vg) == TBRF_OK,
          "domain points: %s", tbrf_driver_message(tg));
    const double K = vg[0] / v1[0];
    worst = 0.0;
    big = 0.0;
    for (int i = 0; i < 12; i++) {
        worst = fmax(worst, fabs(vg[i] - g[i % 3] * K * v1[i]));
        big = fmax(big, fabs(v1[i]));
    }
    CHECK(K > 1.0 && worst <= 1e-12 * big, "domain: f_g = g_c K f_1, K = %.4f: %.3g of %.3g", K, worst, big);
    tbrf_driver_destroy(t1);
    tbrf_driver_destroy(tg);
    /* refusals */
    const double bad[3][3] = {{NAN, 1, 1}, {1, -0.5, 1}, {0, 0, 0}};
    for (int b = 0; b < 3; b++) {
        tbrf_driver_default_params(&p);
        memcpy(p.amplitude_factor, bad[b], sizeof bad[b]);
        tbrf_driver *e = NULL;
        CHECK(tbrf_driver_make(m, 1, &p, &e) == TBRF_ERR_INVALID && strstr(tbrf_driver_message(e), "amplitude_factor"),
              "bad factors %d refused: %s", b, tbrf_driver_message(e));
        tbrf_driver_destroy(e);
    }
    free(mm);
    free(c1);
    free(cg);
    tbrf_driver_destroy(d1);
    tbrf_driver_destroy(dg);
    tbrf_model_destroy(m);
}

/* Three components in a 2D and a 1D box (components = 3, TurbGen's ndim =
 * 2.5, 1.5): the modes lie in the box's plane (line); zeta = 1 leaves
 * k.c = 0 and zeta = 0 only c parallel to k (so no third component in 2D,
 * none across k in 1D), to rounding; points with dim coordinates equal
 * the grid of n = (nx, ny, 1) and the stream; a band is flat per mode in
 * 1D (E|c_m|^2 equal for every m over 2000 seeds within 4 sigma); the
 * state of a two-component 2D driver is refused naming components; the
 * unsupported combinations are refused. */
static void test_geometry(void)
{
    tbrf_model *m = NULL;
    tbrf_model_band(2 * PI * 1.0, 2 * PI * 3.0, &m);
    for (int pd = 1; pd <= 2; pd++)
        for (int z = 0; z <= 1; z++) {
            tbrf_driver_params p;
            tbrf_driver_default_params(&p);
            p.dim = pd;
            p.components = 3;
            p.zeta = z;
            tbrf_driver *d = drv_make(m, 3, &p);
            int64_t nm = 0;
            tbrf_driver_modes(d, 0.0, &nm, NULL, NULL);
            CHECK(nm == (pd == 1 ? 3 : 14), "%dD box: %lld modes", pd, (long long)nm);
            int32_t *mm = tu_malloc(sizeof(int32_t) * 3 * (size_t)nm);
            double *c = tu_malloc(sizeof(double) * 6 * (size_t)nm);
            CHECK(tbrf_driver_modes(d, 0.37, &nm, mm, c) == TBRF_OK, "modes: %s", tbrf_driver_message(d));
            double worst = 0.0, big = 0.0;
            int plane = 1;
            for (int64_t i = 0; i < nm; i++) {
                const int32_t *mi = mm + 3 * i;
                plane &= mi[2] == 0 && (pd == 2 || mi[1] == 0);
                const double kn = sqrt((double)(mi[0] * mi[0] + mi[1] * mi[1]));
                for (int ri = 0; ri < 2; ri++) {
                    const double *v = c + 6 * i + ri;
                    const double kc = (mi[0] * v[0] + mi[1] * v[2]) / kn; /* k.c / |k| */
                    double e = fabs(kc);  /* zeta = 1: no part along k */
                    if (z == 0) {         /* zeta = 0: no part across k */
                        const double px = v[0] - mi[0] / kn * kc, py = v[2] - mi[1] / kn * kc;
                        e = sqrt(px * px + py * py + v[4] * v[4]);
                    }
                    worst = fmax(worst, e);
                    big = fmax(big, sqrt(v[0] * v[0] + v[2] * v[2] + v[4] * v[4]));
                }
            }
            CHECK(plane, "%dD box: every mode in the box's axes", pd);
            CHECK(big > 0.0 && worst <= 1e-15 * big, "%dD box, zeta %d: %s %.3g of %.3g", pd, z,
                  z ? "k.c" : "c across k", worst, big);
            /* points (dim coordinates) = grid = stream */
            enum { NX = 5, NY = 4 };
            const int ny = pd == 2 ? NY : 1;
            const double o[3] = {0.1, 0.2, 0.0}, h[3] = {0.17, 0.23, 0.0};
            const int64_t nn[3] = {NX, ny, 1};
            double x[2 * NX * NY], fp[3 * NX * NY], fg[3 * NX * NY], fs[3 * NX * NY];
            for (int i = 0; i < NX * ny; i++) {
                x[pd * i] = o[0] + h[0] * (i % NX);
                if (pd == 2)
                    x[pd * i + 1] = o[1] + h[1] * (i / NX);
            }
            CHECK(tbrf_driver_points(d, 0.37, NX * ny, x, fp) == TBRF_OK, "points: %s", tbrf_driver_message(d));
            CHECK(tbrf_driver_grid(d, 0.37, o, h, nn, fg) == TBRF_OK, "grid: %s", tbrf_driver_message(d));
            worst = 0.0;
            big = 0.0;
            for (int i = 0; i < 3 * NX * ny; i++) {
                worst = fmax(worst, fabs(fp[i] - fg[i]));
                big = fmax(big, fabs(fp[i]));
            }
            CHECK(big > 0.0 && worst <= 1e-13 * big, "%dD box: grid = points, %.3g of %.3g", pd, worst, big);
            const int64_t bad[3] = {NX, pd == 1 ? 2 : ny, pd == 1 ? 1 : 2};
            CHECK(tbrf_driver_grid(d, 0.37, o, h, bad, fg) == TBRF_ERR_SIZE, "%dD grid with a count on a "
                  "missing axis refused: %s", pd, tbrf_driver_message(d));
            drv_pts pp = {x, NX * ny, fs, pd};
            CHECK(tbrf_driver_stream(d, 0.37, drv_pull, drv_push, &pp) == TBRF_OK && memcmp(fs, fp, sizeof(double) * 3 * NX * ny) == 0,
                  "%dD box: stream = points bitwise", pd);
            free(mm);
            free(c);
            tbrf_driver_destroy(d);
        }
    /* 1D: a band's modes have equal variance (the 3D shell spectrum k^2
     * P_3, flat for a band). |c_m|^2 / E over R seeds: each is a sum of 6
     * squares of normals of equal variance, relative scatter sqrt(2/6/R)
     * per mode (zeta = 1/2: P = I/2, the components independent) */
    enum { RS = 2000 };
    double e[3] = {0, 0, 0};
    for (int r = 0; r < RS; r++) {
        tbrf_driver_params p;
        tbrf_driver_default_params(&p);
        p.dim = 1;
        p.components = 3;
        p.zeta = 0.5;
        tbrf_driver *d = drv_make(m, 100 + (uint64_t)r, &p);
        int64_t nm = 3;
        int32_t mm[9];
        double c[18];
        tbrf_driver_modes(d, 0.0, &nm, mm, c);
        for (int i = 0; i < 3; i++)
            for (int x = 0; x < 6; x++)
                e[i] += c[6 * i + x] * c[6 * i + x] / RS;
        tbrf_driver_destroy(d);
    }
    const double mean = (e[0] + e[1] + e[2]) / 3.0, tol = 4.0 * sqrt(2.0 / 6.0 / RS);
    printf("1D box, band: E|c_m|^2 / mean = %.4f %.4f %.4f (tolerance %.4f; the 3D P = 1/k^2 per "
           "mode would give 2.20 0.55 0.24)\n", e[0] / mean, e[1] / mean, e[2] / mean, tol);
    for (int i = 0; i < 3; i++)
        CHECK_NEAR(e[i] / mean, 1.0, tol, "1D band: mode %d's variance", i + 1);
    CHECK_NEAR(2.0 * (e[0] + e[1] + e[2]), 1.0, 4.0 * sqrt(2.0 / 18.0 / RS), "1D: the ensemble rms^2");
    /* states and refusals */
    tbrf_driver_params p;
    tbrf_driver_default_params(&p);
    p.dim = 2;
    p.components = 3;
    tbrf_driver *a = drv_make(m, 3, &p);
    double f3[3], x2[2] = {0.3, 0.4};
    tbrf_driver_points(a, 0.1, 1, x2, f3);
    void *st = tu_malloc((size_t)tbrf_driver_state_size(a));
    CHECK(tbrf_driver_save(a, st, tbrf_driver_state_size(a)) == TBRF_OK, "save");
    p.components = 0;
    tbrf_driver *b = drv_make(m, 3, &p);
    CHECK(tbrf_driver_load(b, st, tbrf_driver_state_size(a)) == TBRF_ERR_INVALID &&
              strstr(tbrf_driver_message(b), "components") != NULL,
          "a 2.5D state refused by a 2D driver: %s", tbrf_driver_message(b));
    free(st);
    tbrf_driver_destroy(a);
    tbrf_driver_destroy(b);
    const struct { int dim, comp, periodic, eval, want; } bad[5] = {
        {1, 0, 1, 0, TBRF_ERR_INVALID}, {3, 2, 1, 0, TBRF_ERR_INVALID}, {2, 3, 0, 0, TBRF_ERR_UNSUPPORTED},
        {2, 3, 1, TBRF_DRIVE_NUFFT, TBRF_ERR_UNSUPPORTED}, {4, 0, 1, 0, TBRF_ERR_INVALID}};
    for (int k = 0; k < 5; k++) {
        tbrf_driver_default_params(&p);
        p.dim = bad[k].dim;
        p.components = bad[k].comp;
        p.periodic = bad[k].periodic;
        p.eval = bad[k].eval;
        tbrf_driver *e2 = NULL;
        const int got = tbrf_driver_make(m, 1, &p, &e2);
        CHECK(got == bad[k].want, "dim %d components %d periodic %d eval %d: status %d: %s", bad[k].dim,
              bad[k].comp, bad[k].periodic, bad[k].eval, got, tbrf_driver_message(e2));
        tbrf_driver_destroy(e2);
    }
    tbrf_model_destroy(m);
}

static void test_models(void)
{
    tbrf_model *b = NULL, *q = NULL;
    CHECK(tbrf_model_band(1.0, 3.0, &b) == TBRF_OK, "band");
    CHECK(tbrf_model_parabola(1.0, 3.0, &q) == TBRF_OK, "parabola");
    tbrf_model_set_amplitude(b, 1.0);
    tbrf_model_set_amplitude(q, 1.0);
    CHECK_NEAR(tbrf_model_variance(b, 3), 2.0 / (2 * PI * PI), 1e-15, "band variance 3D");
    CHECK_NEAR(tbrf_model_variance(b, 2), 2.0 / (2 * PI), 1e-15, "band variance 2D");
    CHECK_NEAR(tbrf_model_variance(q, 3), (4.0 / 3.0) / (2 * PI * PI), 1e-15, "parabola variance 3D");
    CHECK_NEAR(tbrf_model_spectrum(q, 3, 2.0), 0.25, 1e-15, "parabola peak k^2 P = 1");
    CHECK_NEAR(tbrf_model_spectrum(q, 3, 1.0), 0.0, 1e-15, "parabola zero at kmin");
    CHECK_NEAR(tbrf_model_covariance(b, 3, 0.0), tbrf_model_variance(b, 3), 1e-15, "C(0)");
    CHECK(strcmp(tbrf_model_describe(q), "parabola kmin=1 kmax=3 amplitude=1") == 0, "describe: %s",
          tbrf_model_describe(q));
    tbrf_model *bad = NULL;
    CHECK(tbrf_model_band(3.0, 1.0, &bad) == TBRF_ERR_INVALID, "band kmax < kmin");
    tbrf_model_destroy(bad);
    tbrf_model_destroy(b);
    tbrf_model_destroy(q);
}

static void expect_make(const tbrf_model *m, const tbrf_driver_params *p, int want, const char *what)
{
    tbrf_driver *d = NULL;
    int st = tbrf_driver_make(m, 1, p, &d);
    CHECK(st == want && strlen(tbrf_driver_message(d)) > 0, "%s: status %d (want %d): %s", what, st,
          want, tbrf_driver_message(d));
    double f[3], x[3] = {0, 0, 0};
    CHECK(tbrf_driver_points(d, 0.0, 1, x, f) == TBRF_ERR_BAD_PLAN, "%s: failed driver refuses", what);
    tbrf_driver_destroy(d);
}

static void test_bad_input(void)
{
    tbrf_model *m = NULL, *g = NULL;
    tbrf_model_band(2 * PI, 4 * PI, &m);
    tbrf_model_gaussian(0.1, &g);
    tbrf_driver_params p;
    tbrf_driver_default_params(&p);
    p.zeta = NAN;
    expect_make(m, &p, TBRF_ERR_INVALID, "zeta NaN");
    tbrf_driver_default_params(&p);
    p.tcorr = 0.0;
    expect_make(m, &p, TBRF_ERR_INVALID, "tcorr 0");
    tbrf_driver_default_params(&p);
    p.periodic = 0; /* a non-periodic domain is test_driving_tb's; its exact rms is refused */
    p.normalization = TBRF_DRIVE_RMS_EXACT;
    expect_make(m, &p, TBRF_ERR_UNSUPPORTED, "non-periodic with the exact rms");
    tbrf_driver_default_params(&p);
    p.periodic = 2;
    expect_make(m, &p, TBRF_ERR_INVALID, "periodic = 2");
    tbrf_driver_default_params(&p);
    p.length[1] = -1.0;
    expect_make(m, &p, TBRF_ERR_INVALID, "negative length");
    tbrf_driver_default_params(&p);
    expect_make(g, &p, TBRF_ERR_UNSUPPORTED, "unbounded gaussian");
    p.length[0] = p.length[1] = p.length[2] = 1e4;
    expect_make(m, &p, TBRF_ERR_SIZE, "kmax beyond |m| = 511");
    tbrf_driver_default_params(&p);
    p.length[0] = p.length[1] = p.length[2] = 0.1;
    expect_make(m, &p, TBRF_ERR_SIZE, "band below the fundamental");
    tbrf_driver_default_params(&p);
    p.normalization = TBRF_DRIVE_INJECTION;
    expect_make(m, &p, TBRF_ERR_INVALID, "injection 0");
    tbrf_driver_default_params(&p);
    tbrf_driver *d = drv_make(m, 1, &p);
    double x[3] = {0, 0, 0}, f[3];
    CHECK(tbrf_driver_points(d, NAN, 1, x, f) == TBRF_ERR_INVALID, "t NaN");
    CHECK(tbrf_driver_points(d, -1.0, 1, x, f) == TBRF_ERR_INVALID, "t negative");
    CHECK(tbrf_driver_points(d, 1e300, 1, x, f) == TBRF_ERR_INVALID, "t beyond 2^31 updates");
    x[1] = NAN;
    CHECK(tbrf_driver_points(d, 0.0, 1, x, f) == TBRF_ERR_INVALID, "NaN position");
    CHECK(tbrf_driver_points(d, 0.0, -1, x, f) == TBRF_ERR_SIZE, "n < 0");
    char junk[64] = "not a state";
    CHECK(tbrf_driver_save(d, junk, 8) == TBRF_ERR_SIZE, "save into a small buffer");
    CHECK(tbrf_driver_load(d, junk, sizeof junk) == TBRF_ERR_INVALID, "load garbage");
    tbrf_driver_destroy(d);
    tbrf_driver_default_params(&p);
    tbrf_driver *e = drv_make(m, 1, &p);
    void *buf = tu_malloc((size_t)tbrf_driver_state_size(e));
    CHECK(tbrf_driver_save(e, buf, tbrf_driver_state_size(e)) == TBRF_ERR_NO_GEOMETRY, "save before any time");
    free(buf);
    tbrf_driver_destroy(e);
    tbrf_model_destroy(m);
    tbrf_model_destroy(g);
}

int main(void)
{
    test_models();
    test_autocorrelation();
    test_solenoidal_fraction();
    test_spectrum_and_rms();
    test_div_curl();
    test_exact_rms_and_mean();
    test_restart();
    test_interpolation();
    test_2d();
    test_threads();
    test_injection();
    test_amplitude_factors();
    test_geometry();
    test_bad_input();
    return check_report("test_driving");
}
