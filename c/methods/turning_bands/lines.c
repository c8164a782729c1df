/* lines.c — sizing and synthesis of the turning-bands line processes.
 *
 * A line is a stationary periodic process sampled at M points delta apart
 * (length Lambda = M delta), written as the real FFT of Hermitian Gaussian
 * modes X_m, m = 0..M/2. Spectral method: E|X_m|^2 = P1(kappa_m)/Lambda
 * (doc/method.md, "Lines"). Circulant method: the
 * eigenvalues of the circulant embedding of C1 give the lattice covariance
 * exactly. Both then divide by the linear interpolation's mean gain, so the
 * variance averaged over sub-sample positions is not attenuated. */
#include "methods/turning_bands/lines.h"

#include <fftw3.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/model.h"
#include "core/parallel.h"
#include "tbrf/rng/philox.h"

static const double PI = 3.14159265358979323846;

/* FFTW's planner keeps global state and is not thread-safe; the library
 * itself keeps none, but must serialise its calls into FFTW's. */
static pthread_mutex_t fftw_planner_lock = PTHREAD_MUTEX_INITIALIZER;

/* The largest line length accepted: FFTW takes int sizes, and 2^30 samples
 * per line is already 8 GiB per line. */
#define LINES_MAX_SAMPLES ((int64_t)1 << 30)

static int is_smooth(int64_t n)
{
    static const int primes[] = {2, 3, 5, 7};
    for (int i = 0; i < 4; i++)
        while (n % primes[i] == 0)
            n /= primes[i];
    return n == 1;
}

static int64_t next_fft_size(int64_t n)
{
    if (n % 2)
        n++;
    while (!is_smooth(n))
        n += 2;
    return n;
}

double tbrfi_lines_interp_gain(double theta)
{
    return 2.0 / 3.0 + cos(theta) / 3.0;
}

void *tbrfi_lines_fft_plan(int64_t M)
{
    double *re = fftw_malloc(sizeof(double) * (size_t)M);
    fftw_complex *c = fftw_malloc(sizeof(fftw_complex) * (size_t)(M / 2 + 1));
    fftw_plan p = NULL;
    if (re && c) {
        pthread_mutex_lock(&fftw_planner_lock);
        p = fftw_plan_dft_c2r_1d((int)M, c, re, FFTW_ESTIMATE | FFTW_UNALIGNED | FFTW_DESTROY_INPUT);
        pthread_mutex_unlock(&fftw_planner_lock);
    }
    fftw_free(re);
    fftw_free(c);
    return p;
}

void tbrfi_lines_fftw_lock(void)
{
    pthread_mutex_lock(&fftw_planner_lock);
}

void tbrfi_lines_fftw_unlock(void)
{
    pthread_mutex_unlock(&fftw_planner_lock);
}

void tbrfi_lines_fft_destroy(void *plan)
{
    if (!plan)
        return;
    pthread_mutex_lock(&fftw_planner_lock);
    fftw_destroy_plan((fftw_plan)plan);
    pthread_mutex_unlock(&fftw_planner_lock);
}

/* Spectral method: E|X_m|^2 = P1(kappa_m) / Lambda (doc/method.md). By Poisson
 * summation the lattice covariance is then the periodised C1, sum_n C1(s +
 * n Lambda): right at every lag inside the domain once Lambda exceeds twice
 * the domain plus the correlation scale. Averaging P1 over every mode's bin
 * instead would taper the covariance by sinc(pi s / Lambda), up to 36% at
 * the largest lags, so bins are averaged only where the spectrum jumps (a
 * power law's or a table's cut-offs): there a point sample would put a
 * whole bin's power, or none, on one side of the edge — 2.5% of the
 * variance for a k^-3 spectrum on a 64^3 grid.
 * The kappa = 0 mode is left out: lines have zero mean, and P1(0) is 0 for
 * any finite P(0). */
static double spectral_modes(const tbrf_model *model, int dim, int64_t M, double length,
                             double kband, double *v)
{
    const double dk = 2.0 * PI / length;
    const int64_t half = M / 2;
    double cut[2];
    int ncut = 0;
    if (!tbrfi_model_is_covariance(model)) {
        if (model->kmin > 0.0)
            cut[ncut++] = model->kmin;
        cut[ncut++] = model->kmax;
    }
    double total = 0.0;
    v[0] = 0.0;
    for (int64_t m = 1; m <= half; m++) {
        const double k = dk * (double)m;
        const double lo = k - 0.5 * dk;
        double hi = m == half ? k : k + 0.5 * dk;
        if (lo >= kband) { /* above the band of a line sampled twice as finely */
            v[m] = 0.0;
            continue;
        }
        int straddles = kband < hi;
        hi = kband < hi ? kband : hi;
        for (int c = 0; c < ncut; c++)
            straddles |= cut[c] > lo && cut[c] < hi;
        double var;
        if (!straddles)
            var = tbrfi_model_line_spectrum(model, dim, k) / length;
        else /* the Nyquist half-bin stands for both +-kappa_N */
            var = tbrfi_model_integrate_line_spectrum(model, dim, lo, hi) / (m == half ? PI : 2.0 * PI);
        if (!(var >= 0.0) || !isfinite(var))
            var = NAN;
        v[m] = var;
        total += m == half ? var : 2.0 * var;
    }
    return total;
}

/* Circulant embedding of the 3D line covariance on M points: eigenvalues
 * lambda_m; E|X_m|^2 = lambda_m / M. Returns the most negative
 * eigenvalue relative to the largest (0 if none is negative), or NAN if
 * FFTW failed. */
static double circulant_modes(const tbrf_model *model, int64_t M, double delta, double *v)
{
    double *c = fftw_malloc(sizeof(double) * (size_t)M);
    fftw_complex *out = fftw_malloc(sizeof(fftw_complex) * (size_t)(M / 2 + 1));
    double worst = NAN;
    if (c && out) {
        for (int64_t j = 0; j < M; j++) {
            int64_t lag = j <= M - j ? j : M - j;
            c[j] = tbrfi_model_line_covariance3(model, delta * (double)lag);
        }
        pthread_mutex_lock(&fftw_planner_lock);
        fftw_plan p = fftw_plan_dft_r2c_1d((int)M, c, out, FFTW_ESTIMATE);
        pthread_mutex_unlock(&fftw_planner_lock);
        if (p) {
            fftw_execute(p);
            tbrfi_lines_fft_destroy(p);
            double lmax = 0.0, lmin = 0.0;
            for (int64_t m = 0; m <= M / 2; m++) {
                double lam = out[m][0];
                if (lam > lmax)
                    lmax = lam;
                if (lam < lmin)
                    lmin = lam;
                v[m] = lam / (double)M;
            }
            worst = lmax > 0.0 ? lmin / lmax : -1.0;
        }
    }
    fftw_free(c);
    fftw_free(out);
    return worst;
}

static double upper_share(const line_spec *s, double kband);
static int spec_build_pass(line_spec *s, const tbrf_model *model, int dim, double extent,
                           double resolution, const tbrf_opts *opts, double kband, char *msg,
                           size_t msgsize);

/* Above this share of the variance in the band's upper half, lines are
 * sampled twice as finely (tbrfi_lines_spec_build). */
#define LINES_FINE_SHARE 0.01

int tbrfi_lines_spec_build(line_spec *s, const tbrf_model *model, int dim, double extent,
                     double resolution, const tbrf_opts *opts, char *msg, size_t msgsize)
{
    /* Pass 0 samples the lines at delta = resolution / oversampling, whose
     * Nyquist pi / delta is the band edge. Where the model puts more than
     * LINES_FINE_SHARE of the lines' variance in the band's upper half,
     * pass 1 samples them twice as finely and keeps the same band (modes
     * above it zero): linear interpolation of a mode at kappa delta = theta
     * near pi leaves only sinc^4(theta/2) / g(theta) of its (gain-corrected)
     * power at kappa and moves the rest above the band, which a grid then
     * folds back unevenly (+4% at mid k for a k^-1 spectrum to the band
     * edge; doc/method.md, "Interpolation"). With theta <= pi/2 that share
     * is below 1.4% and the excess below 0.1%. */
    const double kband = (double)opts->oversampling * PI / resolution;
    int rc = spec_build_pass(s, model, dim, extent, resolution, opts, INFINITY, msg, msgsize);
    if (rc != TBRF_OK || opts->line_method == TBRF_LINES_CIRCULANT ||
        !(upper_share(s, kband) > LINES_FINE_SHARE))
        return rc;
    tbrfi_lines_spec_free(s);
    rc = spec_build_pass(s, model, dim, extent, resolution, opts, kband, msg, msgsize);
    if (rc == TBRF_ERR_SIZE) { /* lines at the 2^30 limit: keep the coarser sampling */
        tbrfi_lines_spec_free(s);
        rc = spec_build_pass(s, model, dim, extent, resolution, opts, INFINITY, msg, msgsize);
    }
    return rc;
}

/* The share of the lines' variance (before the interpolation correction)
 * in the band's upper half, kappa > kband / 2. */
static double upper_share(const line_spec *s, double kband)
{
    const double dk = 2.0 * PI / s->length, g0 = 2.0 * PI / (double)s->M;
    const int64_t half = s->M / 2;
    double up = 0.0;
    for (int64_t m = 1; m <= half; m++)
        if (dk * (double)m > 0.5 * kband) /* undo the gain correction */
            up += (m == half ? 1.0 : 2.0) * s->mode_var[m] * tbrfi_lines_interp_gain(g0 * (double)m);
    return s->variance_resolved > 0.0 ? up / s->variance_resolved : 0.0;
}

/* One sizing of the lines: kband infinite samples them at resolution /
 * oversampling; finite, at half that spacing with the modes above kband
 * zero. */
static int spec_build_pass(line_spec *s, const tbrf_model *model, int dim, double extent,
                           double resolution, const tbrf_opts *opts, double kband, char *msg,
                           size_t msgsize)
{
    memset(s, 0, sizeof *s);
    s->dim = dim;
    s->delta = resolution / (double)opts->oversampling / (isinf(kband) ? 1.0 : 2.0);
    double ell = tbrfi_model_correlation_scale(model);
    double need = (double)opts->line_length_factor * (2.0 * extent + ell) / s->delta;
    if (!isfinite(need) || need > (double)LINES_MAX_SAMPLES) {
        snprintf(msg, msgsize,
                 "lines would need %.3g samples each (domain diagonal %g, correlation scale %g, "
                 "sample spacing %g); the limit is 2^30: coarsen the resolution or shrink the domain",
                 need, extent, ell, s->delta);
        return TBRF_ERR_SIZE;
    }
    int64_t M = (int64_t)ceil(need);
    if (M < 16)
        M = 16;
    M = next_fft_size(M);
    const int circulant = opts->line_method == TBRF_LINES_CIRCULANT;
    const int tries = circulant ? opts->max_padding + 1 : 1;
    double worst = 0.0;
    for (int p = 0; p < tries; p++, M *= 2) {
        if (M > LINES_MAX_SAMPLES) {
            snprintf(msg, msgsize, "padded line length %lld exceeds 2^30 samples", (long long)M);
            return TBRF_ERR_SIZE;
        }
        free(s->mode_var);
        s->mode_var = malloc(sizeof(double) * (size_t)(M / 2 + 1));
        if (!s->mode_var) {
            snprintf(msg, msgsize, "no memory for %lld line modes", (long long)(M / 2 + 1));
            return TBRF_ERR_NO_MEMORY;
        }
        s->M = M;
        s->length = (double)M * s->delta;
        s->padding = p;
        if (!circulant) {
            s->variance_resolved = spectral_modes(model, dim, M, s->length, kband, s->mode_var);
            if (!isfinite(s->variance_resolved)) {
                snprintf(msg, msgsize, "the line spectrum is not finite and non-negative everywhere "
                                       "(check the model's parameters or callback)");
                return TBRF_ERR_INVALID;
            }
            break;
        }
        worst = circulant_modes(model, M, s->delta, s->mode_var);
        if (isnan(worst)) {
            snprintf(msg, msgsize, "FFTW could not plan a real FFT of size %lld", (long long)M);
            return TBRF_ERR_FFT;
        }
        /* Round-off makes exactly-zero eigenvalues slightly negative. */
        if (worst >= -1e-10)
            break;
        if (p + 1 == tries) {
            snprintf(msg, msgsize,
                     "circulant embedding of the line covariance has a negative eigenvalue "
                     "(min/max = %.3g) even after %d doublings (M = %lld, line length %g); "
                     "raise max_padding or use the spectral line method",
                     worst, p, (long long)M, s->length);
            return TBRF_ERR_EMBEDDING;
        }
    }
    const int64_t half = s->M / 2;
    if (circulant) {
        double total = 0.0;
        for (int64_t m = 0; m <= half; m++) {
            if (s->mode_var[m] < 0.0)
                s->mode_var[m] = 0.0;
            total += (m == 0 || m == half) ? s->mode_var[m] : 2.0 * s->mode_var[m];
        }
        s->variance_resolved = total;
    }
    const double dtheta = 2.0 * PI / (double)s->M;
    for (int64_t m = 0; m <= half; m++)
        s->mode_var[m] /= tbrfi_lines_interp_gain(dtheta * (double)m);
    /* t = s/delta + offset; s in [-extent/2, extent/2] maps into [2, M-4],
     * so the interpolation never reads past either end and never wraps. */
    s->offset = 0.5 * extent / s->delta + 2.0;
    return TBRF_OK;
}

void tbrfi_lines_spec_free(line_spec *s)
{
    free(s->mode_var);
    s->mode_var = NULL;
}

void tbrfi_lines_shifts(uint64_t seed, uint64_t realization, int L, double *shift)
{
    for (int l = 0; l < L; l++) {
        philox4x32_ctr_t w = tbrf_philox(seed, realization, 0u, TBRF_STREAM_SHIFT | (uint32_t)l);
        shift[l] = tbrf_u01_open(w.v[0]);
    }
}

/* The modes of line l of (seed, realization) into X (M/2 + 1 values) and
 * their c2r transform into out (M samples): one line of
 * tbrfi_lines_synthesize, which both callers share so that a windowed line
 * holds bitwise the samples of the full one. */
static void synthesize_one(const line_spec *s, void *fft_plan, uint64_t seed, uint64_t realization,
                           int l, fftw_complex *X, double *out)
{
    const int64_t half = s->M / 2;
    /* Modes 2b and 2b+1 take the four normals of counter b. */
    for (int64_t b = 0; 2 * b <= half; b++) {
        double g[4];
        tbrf_philox_normal4(seed, realization, (uint32_t)b, (uint32_t)l, g);
        for (int h = 0; h < 2; h++) {
            int64_t m = 2 * b + h;
            if (m > half)
                break;
            double v = s->mode_var[m];
            if (m == 0 || m == half) { /* real modes */
                X[m][0] = sqrt(v) * g[2 * h];
                X[m][1] = 0.0;
            } else {
                double a = sqrt(0.5 * v);
                X[m][0] = a * g[2 * h];
                X[m][1] = a * g[2 * h + 1];
            }
        }
    }
    fftw_execute_dft_c2r((fftw_plan)fft_plan, X, out);
}

int tbrfi_lines_synthesize(const line_spec *s, void *fft_plan, uint64_t seed, uint64_t realization,
                     int L, int threads, double *lines)
{
    const int64_t M = s->M, half = M / 2;
    int failed = 0;
#pragma omp parallel num_threads(tbrf_threads(threads))
    {
        fftw_complex *X = fftw_malloc(sizeof(fftw_complex) * (size_t)(half + 1));
        if (!X) {
#pragma omp atomic write
            failed = 1;
        }
#pragma omp for schedule(static)
        for (int l = 0; l < L; l++) {
            if (!X)
                continue;
            synthesize_one(s, fft_plan, seed, realization, l, X, lines + (size_t)l * (size_t)M);
        }
        fftw_free(X);
    }
    return failed ? TBRF_ERR_NO_MEMORY : TBRF_OK;
}

int tbrfi_lines_synthesize_windows(const line_spec *s, void *fft_plan, uint64_t seed,
                                   uint64_t realization, int L, int threads, const int64_t *first,
                                   const int64_t *count, const int64_t *base, int precision,
                                   void *out)
{
    const int64_t M = s->M, half = M / 2;
    int failed = 0;
#pragma omp parallel num_threads(tbrf_threads(threads))
    {
        fftw_complex *X = fftw_malloc(sizeof(fftw_complex) * (size_t)(half + 1));
        double *y = fftw_malloc(sizeof(double) * (size_t)M);
        if (!X || !y) {
#pragma omp atomic write
            failed = 1;
        }
#pragma omp for schedule(dynamic, 4)
        for (int l = 0; l < L; l++) {
            if (!X || !y)
                continue;
            synthesize_one(s, fft_plan, seed, realization, l, X, y);
            if (precision == TBRF_FLOAT) {
                float *w = (float *)out + base[l];
                for (int64_t j = 0; j < count[l]; j++)
                    w[j] = (float)y[first[l] + j];
            } else {
                memcpy((double *)out + base[l], y + first[l], sizeof(double) * (size_t)count[l]);
            }
        }
        fftw_free(X);
        fftw_free(y);
    }
    return failed ? TBRF_ERR_NO_MEMORY : TBRF_OK;
}
