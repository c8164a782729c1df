/* measure.h — measure the one-point statistics and the power spectrum of a
 * field on a regular grid (used by `tbrf measure`/the CLI's reports and by
 * the statistical tests). Not part of libtbrf: compiled into the tool and
 * the tests, links FFTW3.
 *
 * Conventions are those of tbrf.h: grids are x-fastest n[0]*n[1]*n[2]
 * values (n[2] == 1 means a 2D field), and the spectral density follows the
 * cosmology convention C(r) = ∫ d^dk/(2π)^d P(k) e^{ik·h}, so a measured P
 * is directly comparable with tbrf_model_spectrum().
 *
 * Estimator (doc/statistics.md has the derivation):
 *  - subtract the window-weighted mean, multiply by a separable window
 *    w(x,y,z) = w0(x) w1(y) w2(z), FFT (r2c);
 *  - P_hat(k) = |F(k)|^2 * V_cell / sum(w^2), V_cell = product of the
 *    spacings, which is unbiased for a spectrum that is smooth on the scale
 *    of the window's kernel;
 *  - shell average in bins of width dk = max over the axes of the
 *    fundamental mode 2π/(n_c h_c) (so every shell holds modes in every
 *    direction), bin b (b = 1, 2, ...) covering [(b - 1/2) dk, (b + 1/2) dk),
 *    up to the smallest Nyquist wavenumber min_c π/h_c (beyond it shells are
 *    incomplete). Each bin's k is the mean |k| of its modes.
 *
 * The default window is Hann (w0 = sin^2(π (i + 1/2)/n)): it is C^1 at the
 * edges, so its leakage falls as |Δk|^-6 in power, far steeper than any
 * spectrum tested (k^-3 in 3D); its kernel has a second moment of 1/3
 * fundamental mode^2 per axis, which biases a power law P ∝ k^n by a
 * relative n(n+1)/(6 (k/dk)^2) (1/(k/dk)^2 for n = -3), below 1% for
 * k > 10 dk. Without a window (TBRF_WINDOW_NONE) the estimator is exact for
 * periodic fields and leaks as k^-2 for non-periodic ones.
 */
#ifndef TBRF_CLI_MEASURE_H
#define TBRF_CLI_MEASURE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tbrf_measurement {
    double mean;         /* sample mean of all values */
    double variance;     /* sample variance about the mean, divided by N */
    double slope;        /* least-squares slope of log P vs log k over the fit range */
    double slope_stderr; /* its standard error from the fit residuals; the window correlates
                            neighbouring shells and large scales fluctuate together, so the
                            realization-to-realization scatter of the slope is 1.2-2x larger
                            (test_stats_measure prints both) */
    int bins_used;       /* shells in the fit */
} tbrf_measurement;

/* field x-fastest n[0]*n[1]*n[2]; n[2]==1 means 2D. Fits log P(k) vs log k
 * over kfit_lo <= k <= kfit_hi (shell averaged, Hann windowed), weighting
 * each shell by its number of modes. Shells with no power are left out.
 * Returns 0, or -1 for bad arguments (NULL, n < 1 or n[0], n[1] < 2, a
 * spacing not finite and positive, an empty or inverted fit range), fewer
 * than 3 usable shells in the range, an allocation or FFTW failure; *out is
 * then filled with NaN. */
int tbrf_measure_grid(const double *field, const int64_t n[3], const double spacing[3],
                      double kfit_lo, double kfit_hi, tbrf_measurement *out);

/* ------------------------------------------------------ lower level */

enum tbrf_window { TBRF_WINDOW_NONE = 0, TBRF_WINDOW_HANN = 1 };

/* A shell-averaged spectrum: bin b (0-based) covers |k| in
 * [(b + 1/2) dk, (b + 3/2) dk); k[b] is the mean |k| of its modes (the bin
 * centre (b + 1) dk when empty), p[b] the mean of P_hat over the bin's
 * modes counted over the full sphere, p2[b] the mean of P_hat^2 (for a
 * statistically isotropic Gaussian field p2/p^2 is 2, the exponential
 * law of |F|^2; power concentrated on a few directions, such as
 * turning-bands lines, raises it), modes[b] the number of modes of the
 * full sphere in the bin (so about modes/2 independent complex
 * amplitudes). */
typedef struct tbrf_spectrum {
    int nbins;
    double dk;
    double *k;
    double *p;
    double *p2;
    double *modes;
} tbrf_spectrum;

/* Measures the shell-averaged spectrum with the given window. On success
 * returns 0 and fills *out (free with tbrf_spectrum_free); -1 on bad
 * arguments or allocation/FFTW failure (*out then empty). */
int tbrf_measure_spectrum(const double *field, const int64_t n[3], const double spacing[3],
                          int window, tbrf_spectrum *out);

/* A mode's estimate P_hat corrected for what made the field (a mass
 * assignment's window, shot noise): k the wavevector (kx >= 0). */
typedef double (*tbrf_mode_fn)(const double k[3], double p, void *user);

/* tbrf_measure_spectrum with every mode's P_hat replaced by
 * correct(k, P_hat, user) before it is averaged into its shell (p2 the
 * mean of the corrected squares); correct NULL: tbrf_measure_spectrum.
 * Returns as tbrf_measure_spectrum. */
int tbrf_measure_spectrum_modes(const double *field, const int64_t n[3], const double spacing[3],
                                int window, tbrf_mode_fn correct, void *user, tbrf_spectrum *out);

void tbrf_spectrum_free(tbrf_spectrum *s);

/* Weighted (by modes) least-squares fit of log p = a + slope log k over the
 * bins with klo <= k <= khi and p > 0. Any of the outputs may be NULL.
 * Returns 0, or -1 if fewer than 3 bins qualify. */
int tbrf_spectrum_fit(const tbrf_spectrum *s, double klo, double khi, double *slope,
                      double *slope_stderr, double *intercept, int *bins_used);

/* The spectra of a vector field v of ncomp = dim components (or 3 on a
 * 2D grid, the third transverse to every in-plane k) interleaved
 * per cell (x fastest, n[2] == 1: 2D), each component windowed and
 * transformed like tbrf_measure_spectrum's field: *total is the mean
 * of the components' spectra (for an isotropic field with the model's
 * variance per component, the model's P(k)); *sol and *comp split it
 * into the solenoidal (transverse, |F - k(k.F)/k^2|^2) and compressive
 * (longitudinal, |k.F|^2/k^2) parts, sol->p + comp->p = total->p per
 * shell. The window mixes the parts near the fundamental (its gradient
 * is of order k_f/k of the field). p2 is left 0. Returns 0, or -1 on
 * bad arguments (another ncomp) or allocation/FFTW failure (all three
 * then empty); free each with tbrf_spectrum_free. */
int tbrf_measure_helmholtz(const double *v, int ncomp, const int64_t n[3], const double spacing[3],
                           int window, tbrf_spectrum *total, tbrf_spectrum *sol,
                           tbrf_spectrum *comp);

/* Sample mean and variance (about the mean, divided by count). */
void tbrf_measure_moments(const double *field, int64_t count, double *mean, double *variance);

#ifdef __cplusplus
}
#endif
#endif
