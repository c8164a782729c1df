/* measure.c — one-point statistics and windowed, shell-averaged power
 * spectrum of a grid field (see measure.h). */
#include "analysis/measure.h"

#include <fftw3.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

void tbrf_measure_moments(const double *field, int64_t count, double *mean, double *variance)
{
    double m = 0.0, v = 0.0;
    if (field && count > 0) {
        /* two passes with Kahan-free pairwise-ish blocks: plain sums are
         * accurate enough in double for the sizes used (error ~ N eps). */
        long double s = 0.0L;
        for (int64_t i = 0; i < count; i++) s += field[i];
        m = (double)(s / (long double)count);
        long double q = 0.0L;
        for (int64_t i = 0; i < count; i++) {
            double d = field[i] - m;
            q += (long double)d * d;
        }
        v = (double)(q / (long double)count);
    } else {
        m = v = NAN;
    }
    if (mean) *mean = m;
    if (variance) *variance = v;
}

void tbrf_spectrum_free(tbrf_spectrum *s)
{
    if (!s) return;
    free(s->k);
    free(s->p);
    free(s->p2);
    free(s->modes);
    s->k = s->p = s->p2 = s->modes = NULL;
    s->nbins = 0;
}

static double *window_1d(int64_t n, int window)
{
    double *w = malloc((size_t)n * sizeof *w);
    if (!w) return NULL;
    for (int64_t i = 0; i < n; i++) {
        if (window == TBRF_WINDOW_HANN && n > 1) {
            double s = sin(M_PI * ((double)i + 0.5) / (double)n);
            w[i] = s * s;
        } else {
            w[i] = 1.0;
        }
    }
    return w;
}

/* signed frequency index of FFT bin i of length n */
static int64_t freq_index(int64_t i, int64_t n) { return (i <= n / 2) ? i : i - n; }

int tbrf_measure_spectrum(const double *field, const int64_t n_in[3], const double spacing[3],
                          int window, tbrf_spectrum *out)
{
    return tbrf_measure_spectrum_modes(field, n_in, spacing, window, NULL, NULL, out);
}

int tbrf_measure_spectrum_modes(const double *field, const int64_t n_in[3],
                                const double spacing[3], int window, tbrf_mode_fn correct,
                                void *user, tbrf_spectrum *out)
{
    if (out) memset(out, 0, sizeof *out);
    if (!field || !n_in || !spacing || !out) return -1;
    if (window != TBRF_WINDOW_NONE && window != TBRF_WINDOW_HANN) return -1;
    int64_t n[3] = {n_in[0], n_in[1], n_in[2]};
    if (n[0] < 2 || n[1] < 2 || n[2] < 1) return -1;
    for (int c = 0; c < 3; c++) {
        if (n[c] > INT_MAX / 2) return -1;
        if (!(spacing[c] > 0.0) || !isfinite(spacing[c])) {
            if (c == 2 && n[2] == 1) continue; /* z spacing unused in 2D */
            return -1;
        }
    }
    int dim = (n[2] == 1) ? 2 : 3;
    if ((double)n[0] * (double)n[1] * (double)n[2] > 1e12) return -1;
    int64_t nxh = n[0] / 2 + 1;
    size_t padded = (size_t)(2 * nxh) * (size_t)n[1] * (size_t)n[2];

    double *buf = fftw_malloc(padded * sizeof(double));
    double *w[3] = {window_1d(n[0], window), window_1d(n[1], window),
                    window_1d(n[2], dim == 3 ? window : TBRF_WINDOW_NONE)};
    int status = -1;
    fftw_plan plan = NULL;
    double *ksum = NULL, *psum = NULL, *p2sum = NULL, *msum = NULL;
    if (!buf || !w[0] || !w[1] || !w[2]) goto done;

    if (dim == 3)
        plan = fftw_plan_dft_r2c_3d((int)n[2], (int)n[1], (int)n[0], buf, (fftw_complex *)buf,
                                    FFTW_ESTIMATE);
    else
        plan = fftw_plan_dft_r2c_2d((int)n[1], (int)n[0], buf, (fftw_complex *)buf,
                                    FFTW_ESTIMATE);
    if (!plan) goto done;

    /* window-weighted mean, subtracted before windowing */
    long double sw = 0.0L, swz = 0.0L, sw2 = 0.0L;
    for (int64_t k = 0; k < n[2]; k++)
        for (int64_t j = 0; j < n[1]; j++) {
            double wjk = w[1][j] * w[2][k];
            const double *row = field + (k * n[1] + j) * n[0];
            for (int64_t i = 0; i < n[0]; i++) {
                double ww = w[0][i] * wjk;
                sw += ww;
                swz += (long double)ww * row[i];
                sw2 += (long double)ww * ww;
            }
        }
    double wmean = (double)(swz / sw);
    for (int64_t k = 0; k < n[2]; k++)
        for (int64_t j = 0; j < n[1]; j++) {
            double wjk = w[1][j] * w[2][k];
            const double *row = field + (k * n[1] + j) * n[0];
            double *dst = buf + (k * n[1] + j) * 2 * nxh;
            for (int64_t i = 0; i < n[0]; i++) dst[i] = (row[i] - wmean) * w[0][i] * wjk;
            for (int64_t i = n[0]; i < 2 * nxh; i++) dst[i] = 0.0;
        }
    fftw_execute(plan);

    double kf[3], knyq = INFINITY, dk = 0.0, vcell = 1.0;
    for (int c = 0; c < dim; c++) {
        kf[c] = 2.0 * M_PI / ((double)n[c] * spacing[c]);
        if (kf[c] > dk) dk = kf[c];
        double ny = M_PI / spacing[c];
        if (ny < knyq) knyq = ny;
        vcell *= spacing[c];
    }
    if (dim == 2) kf[2] = 0.0;
    int nbins = (int)floor(knyq / dk - 0.5);
    if (nbins < 1) goto done;
    ksum = calloc((size_t)nbins, sizeof *ksum);
    psum = calloc((size_t)nbins, sizeof *psum);
    p2sum = calloc((size_t)nbins, sizeof *p2sum);
    msum = calloc((size_t)nbins, sizeof *msum);
    if (!ksum || !psum || !p2sum || !msum) goto done;

    double norm = vcell / (double)sw2;
    const fftw_complex *F = (const fftw_complex *)buf;
    for (int64_t k = 0; k < n[2]; k++) {
        double kz = kf[2] * (double)freq_index(k, n[2]);
        for (int64_t j = 0; j < n[1]; j++) {
            double ky = kf[1] * (double)freq_index(j, n[1]);
            const fftw_complex *row = F + (k * n[1] + j) * nxh;
            for (int64_t i = 0; i < nxh; i++) {
                double kx = kf[0] * (double)i;
                double kk = sqrt(kx * kx + ky * ky + kz * kz);
                int b = (int)floor(kk / dk + 0.5) - 1;
                if (b < 0 || b >= nbins) continue;
                /* the r2c half spectrum: columns other than kx = 0 and
                 * the x Nyquist stand for a +-k pair */
                double mult = (i == 0 || (n[0] % 2 == 0 && i == n[0] / 2)) ? 1.0 : 2.0;
                double re = row[i][0], im = row[i][1];
                double pk = (re * re + im * im) * norm;
                if (correct) {
                    const double kv[3] = {kx, ky, kz};
                    pk = correct(kv, pk, user);
                }
                ksum[b] += mult * kk;
                psum[b] += mult * pk;
                p2sum[b] += mult * pk * pk;
                msum[b] += mult;
            }
        }
    }
    out->nbins = nbins;
    out->dk = dk;
    out->k = ksum;
    out->p = psum;
    out->p2 = p2sum;
    out->modes = msum;
    for (int b = 0; b < nbins; b++) {
        if (msum[b] > 0) {
            ksum[b] /= msum[b];
            psum[b] /= msum[b];
            p2sum[b] /= msum[b];
        } else {
            ksum[b] = (b + 1) * dk;
            psum[b] = p2sum[b] = 0.0;
        }
    }
    ksum = psum = p2sum = msum = NULL;
    status = 0;

done:
    if (plan) fftw_destroy_plan(plan);
    fftw_free(buf);
    for (int c = 0; c < 3; c++) free(w[c]);
    free(ksum);
    free(psum);
    free(p2sum);
    free(msum);
    return status;
}

int tbrf_spectrum_fit(const tbrf_spectrum *s, double klo, double khi, double *slope,
                      double *slope_stderr, double *intercept, int *bins_used)
{
    if (slope) *slope = NAN;
    if (slope_stderr) *slope_stderr = NAN;
    if (intercept) *intercept = NAN;
    if (bins_used) *bins_used = 0;
    if (!s || !s->k || !s->p || !s->modes) return -1;
    if (!(klo <= khi) || !isfinite(klo) || !isfinite(khi)) return -1;
    double sw = 0, sx = 0, sy = 0;
    int used = 0;
    for (int b = 0; b < s->nbins; b++) {
        if (s->modes[b] <= 0 || !(s->p[b] > 0) || s->k[b] < klo || s->k[b] > khi) continue;
        double x = log(s->k[b]), y = log(s->p[b]), wt = s->modes[b];
        sw += wt;
        sx += wt * x;
        sy += wt * y;
        used++;
    }
    if (bins_used) *bins_used = used;
    if (used < 3) return -1;
    double xm = sx / sw, ym = sy / sw, sxx = 0, sxy = 0;
    for (int b = 0; b < s->nbins; b++) {
        if (s->modes[b] <= 0 || !(s->p[b] > 0) || s->k[b] < klo || s->k[b] > khi) continue;
        double dx = log(s->k[b]) - xm, dy = log(s->p[b]) - ym, wt = s->modes[b];
        sxx += wt * dx * dx;
        sxy += wt * dx * dy;
    }
    if (!(sxx > 0)) return -1;
    double b1 = sxy / sxx, a = ym - b1 * xm;
    /* residual variance for relative weights: chi2/(n-2) scaled so the
     * mean weight is 1 */
    double rss = 0;
    for (int b = 0; b < s->nbins; b++) {
        if (s->modes[b] <= 0 || !(s->p[b] > 0) || s->k[b] < klo || s->k[b] > khi) continue;
        double r = log(s->p[b]) - a - b1 * log(s->k[b]);
        rss += s->modes[b] * r * r;
    }
    double s2 = rss / (used - 2);
    if (slope) *slope = b1;
    if (slope_stderr) *slope_stderr = sqrt(s2 / sxx);
    if (intercept) *intercept = a;
    return 0;
}

int tbrf_measure_grid(const double *field, const int64_t n[3], const double spacing[3],
                      double kfit_lo, double kfit_hi, tbrf_measurement *out)
{
    if (!out) return -1;
    out->mean = out->variance = out->slope = out->slope_stderr = NAN;
    out->bins_used = 0;
    if (!field || !n || !spacing) return -1;
    if (!isfinite(kfit_lo) || !isfinite(kfit_hi) || !(kfit_lo >= 0) || !(kfit_lo < kfit_hi))
        return -1;
    tbrf_spectrum s;
    if (tbrf_measure_spectrum(field, n, spacing, TBRF_WINDOW_HANN, &s) != 0) return -1;
    tbrf_measure_moments(field, n[0] * n[1] * n[2], &out->mean, &out->variance);
    int rc = tbrf_spectrum_fit(&s, kfit_lo, kfit_hi, &out->slope, &out->slope_stderr, NULL,
                               &out->bins_used);
    tbrf_spectrum_free(&s);
    if (rc != 0) {
        out->mean = out->variance = out->slope = out->slope_stderr = NAN;
        return -1;
    }
    return 0;
}

/* ------------------------------------------------- vector fields */

/* Component c of the ncomp-interleaved v, its window-weighted mean
 * subtracted, times the window, into the padded r2c buffer dst (rows of
 * 2*nxh). Returns sum(w^2). */
static double window_component(const double *v, int ncomp, int c, const int64_t n[3],
                               double *const w[3], int64_t nxh, double *dst)
{
    long double sw = 0.0L, swz = 0.0L, sw2 = 0.0L;
    for (int64_t k = 0; k < n[2]; k++)
        for (int64_t j = 0; j < n[1]; j++) {
            double wjk = w[1][j] * w[2][k];
            const double *row = v + (k * n[1] + j) * n[0] * ncomp + c;
            for (int64_t i = 0; i < n[0]; i++) {
                double ww = w[0][i] * wjk;
                sw += ww;
                swz += (long double)ww * row[i * ncomp];
                sw2 += (long double)ww * ww;
            }
        }
    double wmean = (double)(swz / sw);
    for (int64_t k = 0; k < n[2]; k++)
        for (int64_t j = 0; j < n[1]; j++) {
            double wjk = w[1][j] * w[2][k];
            const double *row = v + (k * n[1] + j) * n[0] * ncomp + c;
            double *d = dst + (k * n[1] + j) * 2 * nxh;
            for (int64_t i = 0; i < n[0]; i++) d[i] = (row[i * ncomp] - wmean) * w[0][i] * wjk;
            for (int64_t i = n[0]; i < 2 * nxh; i++) d[i] = 0.0;
        }
    return (double)sw2;
}

/* Shell sums of the Helmholtz parts: acc[0..3] per bin are sum |k|, the
 * total, the compressive (longitudinal) power and the mode count. */
static void helmholtz_shells(fftw_complex *const *F, int ncomp, const int64_t n[3],
                             const double kf[3], double dk, int nbins, double norm, double *ksum,
                             double *tsum, double *csum, double *msum)
{
    int64_t nxh = n[0] / 2 + 1;
    for (int64_t k = 0; k < n[2]; k++) {
        double kz = kf[2] * (double)freq_index(k, n[2]);
        for (int64_t j = 0; j < n[1]; j++) {
            double ky = kf[1] * (double)freq_index(j, n[1]);
            for (int64_t i = 0; i < nxh; i++) {
                double kv[3] = {kf[0] * (double)i, ky, kz};
                double kk = sqrt(kv[0] * kv[0] + kv[1] * kv[1] + kv[2] * kv[2]);
                int b = (int)floor(kk / dk + 0.5) - 1;
                if (b < 0 || b >= nbins) continue;
                double mult = (i == 0 || (n[0] % 2 == 0 && i == n[0] / 2)) ? 1.0 : 2.0;
                int64_t at = (k * n[1] + j) * nxh + i;
                double tot = 0, lre = 0, lim = 0;
                for (int c = 0; c < ncomp; c++) {
                    double re = F[c][at][0], im = F[c][at][1];
                    tot += re * re + im * im;
                    lre += kv[c] * re, lim += kv[c] * im;
                }
                double lon = (lre * lre + lim * lim) / (kk * kk);
                ksum[b] += mult * kk;
                tsum[b] += mult * tot * norm / ncomp;
                csum[b] += mult * lon * norm / ncomp;
                msum[b] += mult;
            }
        }
    }
}

/* An empty spectrum of nbins shells; 0 or -1 (memory). */
static int spectrum_alloc(tbrf_spectrum *s, int nbins, double dk)
{
    s->nbins = nbins;
    s->dk = dk;
    s->k = calloc((size_t)nbins, sizeof *s->k);
    s->p = calloc((size_t)nbins, sizeof *s->p);
    s->p2 = calloc((size_t)nbins, sizeof *s->p2);
    s->modes = calloc((size_t)nbins, sizeof *s->modes);
    return s->k && s->p && s->p2 && s->modes ? 0 : -1;
}

int tbrf_measure_helmholtz(const double *v, int ncomp, const int64_t n_in[3],
                           const double spacing[3], int window, tbrf_spectrum *total,
                           tbrf_spectrum *sol, tbrf_spectrum *comp)
{
    if (total) memset(total, 0, sizeof *total);
    if (sol) memset(sol, 0, sizeof *sol);
    if (comp) memset(comp, 0, sizeof *comp);
    if (!v || !n_in || !spacing || !total || !sol || !comp) return -1;
    if (window != TBRF_WINDOW_NONE && window != TBRF_WINDOW_HANN) return -1;
    int64_t n[3] = {n_in[0], n_in[1], n_in[2]};
    int dim = n[2] == 1 ? 2 : 3;
    /* three components on a plane: a 2D box driven with 3 (doc/driving.md,
     * "Geometry"); the third has no wavenumber along it, so it is transverse */
    if ((ncomp != dim && !(dim == 2 && ncomp == 3)) || n[0] < 2 || n[1] < 2 || n[2] < 1)
        return -1;
    for (int c = 0; c < dim; c++)
        if (n[c] > INT_MAX / 2 || !(spacing[c] > 0.0) || !isfinite(spacing[c])) return -1;
    if ((double)n[0] * (double)n[1] * (double)n[2] * ncomp > 1e12) return -1;
    int64_t nxh = n[0] / 2 + 1;
    size_t padded = (size_t)(2 * nxh) * (size_t)n[1] * (size_t)n[2];
    double *buf[3] = {NULL, NULL, NULL};
    double *w[3] = {window_1d(n[0], window), window_1d(n[1], window),
                    window_1d(n[2], dim == 3 ? window : TBRF_WINDOW_NONE)};
    int status = -1;
    fftw_plan plan = NULL;
    for (int c = 0; c < ncomp; c++)
        if (!(buf[c] = fftw_malloc(padded * sizeof(double)))) goto done;
    if (!w[0] || !w[1] || !w[2]) goto done;
    if (dim == 3)
        plan = fftw_plan_dft_r2c_3d((int)n[2], (int)n[1], (int)n[0], buf[0],
                                    (fftw_complex *)buf[0], FFTW_ESTIMATE);
    else
        plan = fftw_plan_dft_r2c_2d((int)n[1], (int)n[0], buf[0], (fftw_complex *)buf[0],
                                    FFTW_ESTIMATE);
    if (!plan) goto done;
    double sw2 = 0;
    for (int c = 0; c < ncomp; c++) {
        sw2 = window_component(v, ncomp, c, n, w, nxh, buf[c]);
        fftw_execute_dft_r2c(plan, buf[c], (fftw_complex *)buf[c]);
    }
    double kf[3] = {0, 0, 0}, knyq = INFINITY, dk = 0.0, vcell = 1.0;
    for (int c = 0; c < dim; c++) {
        kf[c] = 2.0 * M_PI / ((double)n[c] * spacing[c]);
        dk = fmax(dk, kf[c]);
        knyq = fmin(knyq, M_PI / spacing[c]);
        vcell *= spacing[c];
    }
    int nbins = (int)floor(knyq / dk - 0.5);
    if (nbins < 1 || spectrum_alloc(total, nbins, dk) || spectrum_alloc(sol, nbins, dk) ||
        spectrum_alloc(comp, nbins, dk))
        goto done;
    fftw_complex *F[3] = {(fftw_complex *)buf[0], (fftw_complex *)buf[1],
                          (fftw_complex *)buf[2]};
    helmholtz_shells(F, ncomp, n, kf, dk, nbins, vcell / sw2, total->k, total->p, comp->p,
                     total->modes);
    for (int b = 0; b < nbins; b++) {
        double m = total->modes[b];
        total->k[b] = m > 0 ? total->k[b] / m : (b + 1) * dk;
        total->p[b] = m > 0 ? total->p[b] / m : 0.0;
        comp->p[b] = m > 0 ? comp->p[b] / m : 0.0;
        /* the rest of the power is transverse; rounding may leave -0 */
        sol->p[b] = fmax(total->p[b] - comp->p[b], 0.0);
        sol->k[b] = comp->k[b] = total->k[b];
        sol->modes[b] = comp->modes[b] = m;
    }
    status = 0;
done:
    if (plan) fftw_destroy_plan(plan);
    for (int c = 0; c < 3; c++) {
        fftw_free(buf[c]);
        free(w[c]);
    }
    if (status) {
        tbrf_spectrum_free(total);
        tbrf_spectrum_free(sol);
        tbrf_spectrum_free(comp);
    }
    return status;
}
