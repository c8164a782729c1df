/* shell_model.h — the model spectrum a shell-averaged measurement sees
 * (used by `tbrf spectrum` and the statistical tests; not part of
 * libtbrf).
 *
 * An anisotropic model (tbrf_model_set_anisotropy) has
 * P(k) = det S P_iso(|S R^T k|); a shell of the measurement averages it
 * over the directions of k. Over a whole sphere (circle in 2D) the
 * rotation R drops out (the average over n of f(R^T n) is that of f(n)),
 * so the shell's model is det S <P_iso(k |S n|)>_n. The average is a
 * product Gauss-Legendre rule over one octant (quadrant), the integrand
 * being even in every component of n, doubled until two rules agree.
 *
 * A lognormal density rho/rho_mean = exp(g - v/2) of a Gaussian g of
 * covariance C_g has the covariance exp(C_g(r)) - 1 (times
 * exp(sigma_g^2 - v), 1 when v is g's variance), whose transform is
 * computed as P_g + F[exp(C_g) - 1 - C_g]: P_g is exact and the rest, of
 * second order in C_g, is short-ranged (the construction of
 * tbrf_model_lognormal, run the other way). */
#ifndef TBRF_ANALYSIS_SHELL_MODEL_H
#define TBRF_ANALYSIS_SHELL_MODEL_H

#include <stddef.h>

#include "tbrf.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An isotropic spectrum P_iso(k). */
typedef double (*tbrf_iso_spectrum)(void *ctx, double k);

/* The mean over the unit sphere (dim 3) or circle (dim 2) of
 * det S P_iso(k |S n|), S = diag(scale[0..dim-1]): Gauss-Legendre rules of
 * 8, 16, ... up to 512 nodes per angle until two successive ones agree
 * to rtol relative (or absolutely below 1e-300). *err (may be NULL) is
 * the last difference relative to the value (0 when both are 0): it
 * bounds the error of a smooth integrand, and of one cut by a band edge
 * (a kink across the directions) it is the convergence reached. Returns
 * 0, or -1 for bad arguments (dim, a scale not finite and > 0, k < 0) or
 * a non-finite value (*value then NaN). */
int tbrf_shell_average(tbrf_iso_spectrum f, void *ctx, int dim, const double scale[3], double k,
                       double rtol, double *value, double *err);

/* The isotropic spectrum of rho/rho_mean = exp(g - v/2) for the Gaussian
 * g of the isotropic model gauss in dimension dim (2 or 3):
 * p[i] = P_g(k[i]) + F[exp(C_g) - 1 - C_g](k[i]), the transform a
 * trapezoid sum over r with 8 points per period of kmax (>= every k[i])
 * and C_g tapered by cos^2 over [rmax/2, rmax] (exact when C_g has
 * decayed by rmax/2); the 2D sum corrected at r = 0 as tbrf_model_lognormal
 * does. In 3D the sum is spectrally accurate; in 2D its error falls as
 * dr^6, about 0.016 (dr/a)^6 of P(0) for a Gaussian covariance of length a
 * (6e-8 at dr = h/4, a = 2 cells of a grid's spacing h; test_shell_model).
 * Returns 0, or -1 for bad arguments, too many samples (more than
 * 2^22) or no memory. */
int tbrf_lognormal_density_spectrum(const tbrf_model *gauss, int dim, double kmax, double rmax,
                                    size_t n, const double *k, double *p);

#ifdef __cplusplus
}
#endif
#endif
