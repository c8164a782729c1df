/* bench_isotropy.c — measures where the shell power of a turning-bands
 * field stops scattering like a Gaussian field's, the
 * figures behind doc/method.md "How many lines" and the isotropy limit
 * that tbrf info and generate's warning use.
 *
 * For each grid size n and line count L: R realizations of a k^-3 power
 * law (kmin 2 kf, kmax the grid's Nyquist) on an n^3 (2D: n^2) grid of spacing 1,
 * by turning bands with L lines and, as the reference, by the FFT method
 * (an exactly isotropic Gaussian field with the same spectrum on the same
 * modes). Each is measured as the tool does (Hann window, shells one
 * fundamental wide): per shell b the pooled statistic T_b = mean_r p2_rb /
 * (mean_r p_rb)^2, which is 2 for an isotropic Gaussian field and
 * 2 (1 + c^2) when the power spikes along the lines with relative spread c.
 * Printed per shell: k / kf, T_tb, T_fft and the excess T_tb / T_fft - 1
 * with its standard error (jackknife over realizations of both); then the
 * first shell from which the excess stays above 5% (the 2% and 10%
 * limits of doc/statistics.md are read off the same table), and
 * k_limit / (kf sqrt(L)), the constant of k_iso = c kf sqrt(L).
 *
 * In 2D (dim 2: an n^2 grid) the same; the printed c is still
 * k_limit / (kf sqrt(L)), and the 2D constant is k_limit / (kf L)
 * (doc/statistics.md, "Isotropy limit").
 * Usage: bench_isotropy N L R [seed [dim]]   (one case per run; threads from
 * OMP_NUM_THREADS). Prints figures, asserts nothing. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif
#include <stdio.h>
#include <stdlib.h>

#include "analysis/measure.h"
#include "tbrf.h"

static double pooled(int R, int nb, int b, const double *p, const double *p2, int skip)
{
    double a = 0, c = 0;
    int cnt = 0;
    for (int r = 0; r < R; r++) {
        if (r == skip)
            continue;
        a += p[r * nb + b];
        c += p2[r * nb + b];
        cnt++;
    }
    return (c / cnt) / ((a / cnt) * (a / cnt));
}

/* R spectra of one method into p, p2 (R x nb); returns nb or -1. */
static int spectra(int dim, int method, int64_t nside, int L, int R, uint64_t seed, double **p,
                   double **p2, double **k)
{
    const double kf = 2 * M_PI / (double)nside;
    tbrf_model *m = NULL;
    if (tbrf_model_powerlaw(-3.0, 2 * kf, M_PI, &m) != TBRF_OK)
        return -1;
    tbrf_opts o;
    tbrf_default_opts(&o);
    o.lines = L;
    o.method = method;
    o.periodic = method == TBRF_METHOD_FFT;
    const double ext = (double)(nside - 1);
    const double lo[3] = {0, 0, 0}, hi[3] = {ext, ext, dim == 3 ? ext : 0}, h[3] = {1, 1, 1};
    const int64_t n[3] = {nside, nside, dim == 3 ? nside : 1};
    tbrf_plan *plan = NULL;
    if (tbrf_make_plan(m, dim, lo, hi, 1.0, seed, &o, &plan) != TBRF_OK ||
        tbrf_set_grid(plan, lo, h, n) != TBRF_OK) {
        fprintf(stderr, "plan: %s\n", plan ? tbrf_plan_message(plan) : "no memory");
        return -1;
    }
    double *z = malloc(sizeof *z * (size_t)(nside * nside * n[2]));
    int nb = -1;
    for (int r = 0; r < R && z; r++) {
        tbrf_spectrum s;
        if (tbrf_execute(plan, (uint64_t)r, z) != TBRF_OK ||
            tbrf_measure_spectrum(z, n, h, TBRF_WINDOW_HANN, &s) != 0) {
            nb = -1;
            break;
        }
        if (r == 0) {
            nb = s.nbins;
            *p = malloc(sizeof **p * (size_t)(R * nb));
            *p2 = malloc(sizeof **p2 * (size_t)(R * nb));
            *k = malloc(sizeof **k * (size_t)nb);
            for (int b = 0; b < nb; b++)
                (*k)[b] = s.k[b] / kf;
        }
        for (int b = 0; b < nb; b++) {
            (*p)[r * nb + b] = s.p[b];
            (*p2)[r * nb + b] = s.p2[b];
        }
        tbrf_spectrum_free(&s);
    }
    free(z);
    tbrf_destroy(plan);
    tbrf_model_destroy(m);
    return nb;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: bench_isotropy N L R [seed [dim]]\n");
        return 2;
    }
    const int64_t nside = atoll(argv[1]);
    const int L = atoi(argv[2]), R = atoi(argv[3]);
    const uint64_t seed = argc > 4 ? strtoull(argv[4], NULL, 10) : 20191;
    const int dim = argc > 5 ? atoi(argv[5]) : 3;
    double *pt = NULL, *pt2 = NULL, *kt = NULL, *pf = NULL, *pf2 = NULL, *kk = NULL;
    int nb = spectra(dim, TBRF_METHOD_TB, nside, L, R, seed, &pt, &pt2, &kt);
    int nbf = spectra(dim, TBRF_METHOD_FFT, nside, L, R, seed + 1, &pf, &pf2, &kk);
    if (nb < 0 || nbf != nb || R < 2)
        return 1;
    printf("# %dD, n %lld lines %d realizations %d; shells up to the Nyquist %lld kf\n", dim,
           (long long)nside, L, R, (long long)(nside / 2));
    printf("# k/kf    T_tb    T_fft   excess   se\n");
    int limit = -1;
    double excess[4096], se[4096];
    for (int b = 0; b < nb && b < 4096; b++) {
        if (kt[b] > (double)(nside / 2))
            break;
        const double tt = pooled(R, nb, b, pt, pt2, -1), tf = pooled(R, nb, b, pf, pf2, -1);
        double jm = 0, jv = 0, jk[256];
        for (int r = 0; r < R && r < 256; r++)
            jm += (jk[r] = pooled(R, nb, b, pt, pt2, r) / pooled(R, nb, b, pf, pf2, r)) / R;
        for (int r = 0; r < R && r < 256; r++)
            jv += (jk[r] - jm) * (jk[r] - jm);
        excess[b] = tt / tf - 1;
        se[b] = sqrt((R - 1.0) / R * jv);
        printf("%7.2f  %6.4f  %6.4f  %+7.4f  %6.4f\n", kt[b], tt, tf, excess[b], se[b]);
    }
    /* the limit: the first shell from which every later shell's excess is
     * above 5% */
    int last = 0;
    for (int b = 0; b < nb && b < 4096 && kt[b] <= (double)(nside / 2); b++)
        last = b;
    for (int b = last; b >= 0 && excess[b] > 0.05; b--)
        limit = b;
    if (limit < 0)
        printf("# limit: none up to the Nyquist (excess at the last shell %+.4f)\n", excess[last]);
    else
        printf("# limit: %.2f kf, c = k_limit / (kf sqrt(L)) = %.4f; excess at 2 sqrt(L/2pi) kf "
               "= %.2f kf: see its shell\n",
               kt[limit], kt[limit] / sqrt((double)L), 2 * sqrt(L / (2 * M_PI)));
    free(pt), free(pt2), free(kt), free(pf), free(pf2), free(kk);
    return 0;
}
