/* tbrf/cosmology.h — background cosmology and linear power spectra.
 * A feature header of the public API: <tbrf.h> includes every one;
 * each may also be included alone (conventions: tbrf.h). */
#ifndef TBRF_COSMOLOGY_PUBLIC_H
#define TBRF_COSMOLOGY_PUBLIC_H

#include "tbrf/common.h"
#include "tbrf/model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* -------------------------------------------------------------- cosmology
 * Background and linear power spectra for cosmological initial conditions
 * (doc/arepo.md, "Cosmology"). Matter + cosmological constant + curvature
 * Omega_k = 1 - omega_m - omega_lambda, no radiation; k in h/Mpc and
 * lengths in Mpc/h where the Eisenstein & Hu fit is concerned. An
 * omega_lambda of NaN means a flat universe, omega_lambda = 1 - omega_m,
 * in every function here (as in tbrf_ic_cosmo_params). */

/* E(a) = H(a)/H0 = sqrt(omega_m a^-3 + Omega_k a^-2 + omega_lambda) into
 * *hubble. Requires 0 < omega_m <= 10, |omega_lambda| <= 10, a > 0 finite and
 * E^2(a) > 0. Statuses: TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_INVALID (*hubble NaN). */
TBRF_API int tbrf_cosmo_hubble(double omega_m, double omega_lambda, double a,
                               TBRF_OUT double *hubble);

/* The linear growth factor D(z) normalised to D(0) = 1 into *growth, from the
 * exact integral D ∝ E(a) ∫_0^a da'/(a' E(a'))^3 (Heath 1977), a = 1/(1+z);
 * D = a exactly when omega_m = 1, omega_lambda = 0. Requires the ranges of
 * tbrf_cosmo_hubble, -1 < z <= 1e7, and E^2 > 0 from a = 0 to max(a, 1).
 * Statuses: TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_INVALID (*growth NaN). */
TBRF_API int tbrf_cosmo_growth(double omega_m, double omega_lambda, double z,
                               TBRF_OUT double *growth);

/* The linear growth rate f = dln D/dln a at redshift z into *rate, exact for
 * the same model (close to Omega_m(z)^0.55 in flat LCDM). Arguments and
 * statuses as tbrf_cosmo_growth. */
TBRF_API int tbrf_cosmo_growth_rate(double omega_m, double omega_lambda, double z,
                                    TBRF_OUT double *rate);

/* The second-order growth factor D2(z) of Lagrangian perturbation theory
 * (2LPT: x = q + D1 Psi1 + D2 Psi2, Psi2 = grad phi2 with laplacian phi2
 * = sum_{i>j} [phi,ii phi,jj - phi,ij^2] of Psi1 = grad phi) into
 * *growth2, and its rate f2 = dln D2/dln a into *rate2. D2 solves
 * D2'' + (2 + dln E/dln a) D2' - (3/2) Omega_m(a) (D2 - D1^2) = 0 (' =
 * d/dln a) with the growing-mode start D2 = -(3/7) D1^2 deep in matter
 * domination, integrated numerically (RK4 in ln a, relative error below
 * 1e-9), in the normalisation D1(0) = 1 of tbrf_cosmo_growth: D2 is
 * negative, -(3/7) D1^2 and f2 = 2 exactly in Einstein-de Sitter, close
 * to -(3/7) D1^2 Omega_m(z)^(-1/143) and 2 Omega_m(z)^(6/11) in flat LCDM
 * (Bouchet et al. 1995). Arguments as tbrf_cosmo_growth. Statuses:
 * TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_INVALID (both outputs NaN). */
TBRF_API int tbrf_cosmo_growth2(double omega_m, double omega_lambda, double z,
                                TBRF_OUT double *growth2, TBRF_OUT double *rate2);

/* The Eisenstein & Hu (1998) matter transfer function T(k), k in h/Mpc,
 * into *transfer: wiggles = 1 the full fit with baryon acoustic oscillations
 * (their eq. 16-24), 0 the no-wiggle form (eq. 29-31); T(0) = 1. Requires
 * 0 <= omega_b < omega_m <= 10 (omega_b = 0: their zero-baryon form, eq.
 * 29, the no-wiggle form with Gamma = omega_m h, whatever wiggles says), 0.1 < h <= 2, 0 < t_cmb <= 100 (kelvin;
 * 2.7255 today), k >= 0 finite. Statuses: TBRF_OK, TBRF_ERR_NULL,
 * TBRF_ERR_INVALID (*transfer NaN). */
TBRF_API int tbrf_cosmo_eh_transfer(double omega_m, double omega_b, double h, double t_cmb,
                                    int wiggles, double k, TBRF_OUT double *transfer);

/* The rms sigma(R) of a 3D model smoothed with a top-hat sphere of radius
 * r (in the model's length unit: Mpc/h for tbrf_model_eisenstein_hu, so r
 * = 8 gives sigma8), amplitude included: sigma^2 = (1/2 pi^2) ∫ k^2 P(k)
 * W^2(kr) dk, integrated knot to knot (tables) in panels that resolve the
 * window's oscillations. Statuses: TBRF_OK, TBRF_ERR_NULL,
 * TBRF_ERR_INVALID (failed model, r not finite and > 0), TBRF_ERR_DIVERGENT. */
TBRF_API int tbrf_cosmo_sigma_r(const tbrf_model *model, double r, TBRF_OUT double *sigma);

/* Sets the model's amplitude so that tbrf_cosmo_sigma_r(model, r) = sigma
 * (sigma8 normalisation: r = 8 Mpc/h). Works for any model, e.g. a CAMB
 * matterpower.dat or CLASS pk.dat read by tbrf_model_table_file (both are
 * "k P" columns with '#' comments). Statuses: TBRF_OK, TBRF_ERR_NULL,
 * TBRF_ERR_INVALID, TBRF_ERR_DIVERGENT (message in tbrf_model_message). */
TBRF_API int tbrf_model_normalize_sigma(tbrf_model *model, double r, double sigma);

/* The linear matter power spectrum P(k) = A k^n_s T(k)^2 with the Eisenstein
 * & Hu transfer function (wiggles as in tbrf_cosmo_eh_transfer), k in
 * h/Mpc, as a tabulated model on [kmin, kmax] (400 rows per decade,
 * log-log interpolation, zero outside; kmax <= 1e12 kmin). The amplitude is
 * the variance 1 until set: normalise with tbrf_model_normalize_sigma(model,
 * 8, sigma8) and scale by D(z)^2 with tbrf_model_set_amplitude. Statuses:
 * TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_INVALID (a failed model with the message
 * is handed back), TBRF_ERR_NO_MEMORY. */
TBRF_API int tbrf_model_eisenstein_hu(double omega_m, double omega_b, double h, double n_s,
                                      double t_cmb, int wiggles, double kmin, double kmax,
                                      tbrf_model **model);

#ifdef __cplusplus
}
#endif
#endif /* TBRF_COSMOLOGY_PUBLIC_H */
