/* tbrf/model.h — covariance and spectral models, and the table of model kinds.
 * A feature header of the public API: <tbrf.h> includes every one;
 * each may also be included alone (conventions: tbrf.h). */
#ifndef TBRF_MODEL_PUBLIC_H
#define TBRF_MODEL_PUBLIC_H

#include "tbrf/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ----------------------------------------------------------------- models */

/* A covariance or spectral model of a stationary isotropic field. The model
 * holds the shape and the amplitude; the dimension (2 or 3) is given where
 * it matters (the plan, the query functions), because the same covariance
 * has a different spectrum, and the same spectrum a different variance, in
 * 2D and 3D. Models are immutable once handed to a plan (the plan copies). */
typedef struct tbrf_model tbrf_model;

/* User spectrum callback: returns the shape P0(k) >= 0 at wavenumber k for
 * the given dimension; the model's spectrum is A * P0(k) on [kmin, kmax].
 * Must be thread-safe and pure (same k, same answer). */
typedef double (*tbrf_spectrum_fn)(double k, int dim, void *user);

/* Power law P(k) = A k^index for kmin <= k <= kmax, zero outside.
 * Requires 0 <= kmin < kmax < inf and finite index; whether the variance
 * converges (kmin = 0 needs index > -dim) is checked when a dimension is
 * known. Statuses: TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_INVALID,
 * TBRF_ERR_NO_MEMORY. */
TBRF_API int tbrf_model_powerlaw(double index, double kmin, double kmax, tbrf_model **model);

/* Gaussian covariance C(r) = sigma^2 exp(-(r/length)^2), length > 0.
 * Statuses as tbrf_model_powerlaw. */
TBRF_API int tbrf_model_gaussian(double length, tbrf_model **model);

/* Exponential covariance C(r) = sigma^2 exp(-r/length), length > 0 (the
 * Matern model with nu = 1/2). Statuses as tbrf_model_powerlaw. */
TBRF_API int tbrf_model_exponential(double length, tbrf_model **model);

/* Matern covariance C(r) = sigma^2 2^(1-nu)/Gamma(nu) x^nu K_nu(x), x =
 * r/length, with length > 0 and 0 < nu <= 50. Its spectrum falls as
 * k^-(2 nu + dim). Statuses as tbrf_model_powerlaw. */
TBRF_API int tbrf_model_matern(double length, double nu, tbrf_model **model);

/* Von Karman covariance: the Matern model with nu = 1/3, whose spectrum
 * falls as k^-11/3 in 3D (Kolmogorov turbulence); length is the outer
 * scale parameter (the spectrum flattens below k ~ 1/length). Statuses as
 * tbrf_model_powerlaw. */
TBRF_API int tbrf_model_vonkarman(double length, tbrf_model **model);

/* Two covariance kinds are made by name and parameters only
 * (tbrf_model_make_params, the command's --model, Python's and Fortran's
 * alpha=), as GSTools defines them with x = r/length:
 * stable, C(r) = sigma^2 exp(-x^alpha), 0 < alpha <= 2 (1: exponential,
 * 2: Gaussian exp(-x^2)); its spectrum has no closed form and is the
 * numerical Hankel transform of the covariance (falling as k^-(dim +
 * alpha) far up);
 * rational, C(r) = sigma^2 (1 + x^2/alpha)^-alpha, 0 < alpha <= 50
 * (GSTools' Cauchy is alpha = 1); its spectrum is b^d (2 pi)^(d/2)
 * 2^(1-alpha)/Gamma(alpha) (kb)^(alpha-d/2) K_(d/2-alpha)(kb) with
 * b = length sqrt(alpha), infinite at k = 0 for alpha <= dim/2. */

/* Tabulated spectrum: n pairs (k[i], P[i]) with 0 < k strictly increasing,
 * P finite and >= 0; log-log interpolation between rows (linear where a P
 * is zero) and zero outside [k[0], k[n-1]]. The arrays are copied. P is the
 * shape; the amplitude A multiplies it (A = 1 unless set). n >= 2.
 * Statuses: TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_TABLE (with the row in the
 * message), TBRF_ERR_SIZE (n so large that n doubles overflow a size_t),
 * TBRF_ERR_NO_MEMORY. */
TBRF_API int tbrf_model_table(size_t n, const double *k, const double *p, tbrf_model **model);

/* Tabulated spectrum read from a text file of two whitespace-separated
 * columns "k P"; '#' starts a comment; blank lines are ignored. The message
 * of a malformed file names the file and the line. Bounded input: a line
 * (comment included) may be up to 1 MiB, the file up to 2^22 rows,
 * 2^26 lines and 256 MiB (a larger regular file is refused before it is
 * read, a pipe when its 256 MiB are passed), a folder is refused; a NUL byte is refused as binary data (so /dev/zero or a
 * runaway pipe fail at once, never grow memory). Statuses: those of
 * tbrf_model_table, TBRF_ERR_FILE and TBRF_ERR_SIZE (a limit passed). */
TBRF_API int tbrf_model_table_file(const char *path, tbrf_model **model);

/* The rows of a tabulated model (tbrf_model_table or _table_file) exactly
 * as the library holds them, so that a program can record the table it
 * ran with instead of parsing the file a second time. On entry *n is the
 * room in k and p (rows); on return it is the number of rows, which are
 * copied into k and p only if they fit (n = 0 with NULL arrays asks for
 * the count; then call again with that room). Statuses: TBRF_OK,
 * TBRF_ERR_NULL (model or n NULL, or k or p NULL where the rows fit) and
 * TBRF_ERR_INVALID (not a usable tabulated model). */
TBRF_API int tbrf_model_table_data(const tbrf_model *model, TBRF_ARRAY size_t *n,
                                   TBRF_ARRAY double *k, TBRF_ARRAY double *p);

/* Spectrum given by a callback on [kmin, kmax] (0 <= kmin < kmax < inf).
 * The callback and user pointer must stay valid as long as any plan made
 * from this model. Statuses as tbrf_model_powerlaw. */
TBRF_API int tbrf_model_callback(tbrf_spectrum_fn fn, void *user, double kmin, double kmax,
                        tbrf_model **model);

/* The shell spectrum of TurbGen's "band": k^(dim-1) P(k) flat on
 * kmin <= k <= kmax (so P ~ k^(1-dim)), zero outside; 0 <= kmin < kmax
 * finite. A model like the others (variance 1 until set). Statuses:
 * TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_INVALID, TBRF_ERR_NO_MEMORY. */
TBRF_API int tbrf_model_band(double kmin, double kmax, tbrf_model **model);

/* TurbGen's "parabola": k^(dim-1) P(k) = 1 - u^2 with u = (2k - kmin -
 * kmax) / (kmax - kmin), which peaks mid-band and is zero at both ends.
 * Arguments and statuses as tbrf_model_band. */
TBRF_API int tbrf_model_parabola(double kmin, double kmax, tbrf_model **model);

/* Sets the amplitude through the variance sigma^2 > 0 (the default, with
 * sigma^2 = 1): the plan picks A so that C(0) = sigma^2 in its dimension.
 * Statuses: TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_INVALID. */
TBRF_API int tbrf_model_set_variance(tbrf_model *model, double variance);

/* Sets the amplitude A > 0 directly: P(k) = A P0(k). For the covariance
 * models (Gaussian, exponential, Matern, von Karman) P0 is the spectrum of
 * the unit-variance covariance, so A is the variance. Statuses as
 * tbrf_model_set_variance. */
TBRF_API int tbrf_model_set_amplitude(tbrf_model *model, double amplitude);

/* Cuts the model's spectrum to the band kmin <= k <= kmax: P(k) = 0
 * outside it, for any model (power law, covariance models, table,
 * callback; a power law's or callback's own range is narrowed, a cut
 * wider than it changes nothing). 0 <= kmin < kmax, kmax may be +INFINITY
 * (no upper cut). Everything follows the cut spectrum: the variance (so a
 * model set by variance is renormalised to sigma^2 over the band), the
 * covariance (computed from the cut spectrum; a covariance model loses its
 * closed form, so TBRF_LINES_CIRCULANT no longer applies to it) and the
 * lines. Cutting twice intersects the bands. Statuses: TBRF_OK,
 * TBRF_ERR_NULL, TBRF_ERR_INVALID (NaN, negative kmin, kmax <= kmin, or a
 * band that leaves no power: the message says which). */
TBRF_API int tbrf_model_set_band(tbrf_model *model, double kmin, double kmax);

/* Makes the model anisotropic and rotated (GSTools' anis and angles):
 * the covariance becomes C(x) = C_iso(|S^-1 R^T x|), equivalently the
 * spectrum P(k) = det S P_iso(|S R^T k|), where C_iso and P_iso are the
 * model's isotropic covariance and spectrum (what tbrf_model_covariance
 * and tbrf_model_spectrum keep returning, in the scaled coordinates
 * S^-1 R^T x), S = diag(scale) and R the rotation of the angles. The
 * correlation length along principal axis i is scale[i] times the model's
 * (a GSTools model of len_scale l and anis (a, b) is scale = (1, a, b)
 * with length l); a band cut or a power law's kmin/kmax bound |S R^T k|.
 * The variance is unchanged.
 * Angles (radians) follow GSTools' convention (matrix_rotate): 3D,
 * R = G_yz(angles[2]) G_xz(-angles[1]) G_xy(angles[0]), G_ij(t) the
 * rotation by t in the plane of axes i, j turning axis i towards j (the
 * Tait-Bryan yaw, pitch, roll of the principal axes, which are R's
 * columns); 2D: R = G_xy(angles[0]), and scale[2] must be 1 and
 * angles[1], angles[2] 0 (a 2D plan refuses the model otherwise).
 * scale = (1, 1, 1) with angles 0 is the isotropic model, bit for bit.
 * Every method (turning bands, FFT, NUFFT) and backend, scalar and
 * vector fields (projected at the physical wavevector, so solenoidal
 * fields stay divergence-free). Statuses: TBRF_OK, TBRF_ERR_NULL,
 * TBRF_ERR_INVALID (a factor not finite and > 0, an angle not finite:
 * the message names it). */
TBRF_API int tbrf_model_set_anisotropy(tbrf_model *model, const double scale[3],
                                       const double angles[3]);

/* The model's anisotropy: scale (1, 1, 1) and angles 0 for an isotropic
 * model. Statuses: TBRF_OK, TBRF_ERR_NULL. */
TBRF_API int tbrf_model_anisotropy(const tbrf_model *model, TBRF_ARRAY double scale[3],
                                   TBRF_ARRAY double angles[3]);

/* The model's spectral density P(k) in dimension dim (2 or 3), amplitude
 * included; NaN for a bad dim or a model whose variance diverges. */
TBRF_API double tbrf_model_spectrum(const tbrf_model *model, int dim, double k);

/* The model's covariance C(r) in dimension dim, amplitude included;
 * closed form for covariance models, numerical Hankel transform of the
 * spectrum otherwise. NaN for a bad dim or a divergent model. */
TBRF_API double tbrf_model_covariance(const tbrf_model *model, int dim, double r);

/* The variance C(0) = sigma^2 in dimension dim (NaN if divergent). */
TBRF_API double tbrf_model_variance(const tbrf_model *model, int dim);

/* A one-line description of the model with all its parameters, e.g.
 * "powerlaw index=-3 kmin=0.05 kmax=3 variance=1". Never NULL. */
TBRF_API const char *tbrf_model_describe(const tbrf_model *model);

/* Detailed message of the last failure on this model ("" if none). */
TBRF_API const char *tbrf_model_message(const tbrf_model *model);

/* The status the model was left in by its constructor (TBRF_OK if usable). */
TBRF_API int tbrf_model_status(const tbrf_model *model);

/* Frees the model; NULL is ignored. Plans made from it stay valid. */
TBRF_API void tbrf_model_destroy(tbrf_model *model);

/* The parameters of the model kinds, as bits (tbrf_model_kind_params):
 * parameter i is the bit 1 << i and is named tbrf_model_param_name(i)
 * (the first five in the order of tbrf_model_make's arguments; the rows
 * of a table; alpha, the shape of the stable and rational kinds). */
enum tbrf_model_param {
    TBRF_PARAM_INDEX = 1,
    TBRF_PARAM_KMIN = 2,
    TBRF_PARAM_KMAX = 4,
    TBRF_PARAM_LENGTH = 8,
    TBRF_PARAM_NU = 16,
    TBRF_PARAM_TABLE = 32,
    TBRF_PARAM_ALPHA = 64
};

/* The name of the parameter whose bit is 1 << i ("index", "kmin",
 * "kmax", "length", "nu", "table", "alpha", ...), NULL past the last: the
 * names tbrf_model_make_params takes ("table" excepted: a table is made
 * from its rows) and the files record (model_<name>). */
TBRF_API const char *tbrf_model_param_name(int i);

/* The name of model kind i = 0, 1, ... ("powerlaw", "gaussian", ...,
 * "table", "band", "parabola", "stable", "rational": every kind but the
 * callback, in the order of the library's table of kinds), NULL past the
 * last: the names tbrf_model_make and tbrf_model_kind_params take. */
TBRF_API const char *tbrf_model_kind_name(int i);

/* A one-line description of the named kind for help texts ("C(r) = s2
 * exp(-r/length)"), NULL for a name that is not a listed kind. */
TBRF_API const char *tbrf_model_kind_summary(const char *kind);

/* The parameters the kind takes and those it needs (TBRF_PARAM_* bits).
 * kmin and kmax are taken by every kind: a power law's, band's or
 * parabola's own range, a band cut (tbrf_model_set_band) for the others.
 * Statuses: TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_INVALID (unknown kind). */
TBRF_API int tbrf_model_kind_params(const char *kind, TBRF_OUT int *takes, TBRF_OUT int *needs);

/* Makes a model of the named kind from its parameters, NaN meaning "not
 * given" (tbrf_model_kind_params says which a kind takes; a kind with a
 * shape parameter not among these arguments, such as stable's alpha, is
 * made by tbrf_model_make_params): powerlaw (index, kmin = 0 if not
 * given, kmax), gaussian,
 * exponential and vonkarman (length), matern (length, nu), band and
 * parabola (kmin = 0 if not given, kmax); for the kinds without a range of
 * their own a kmin or kmax given cuts the spectrum to that band (the other
 * end open). The same model as the kind's own constructor (and
 * tbrf_model_set_band). A table is made from its rows or file
 * (tbrf_model_table, tbrf_model_table_file), not here. Statuses:
 * TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_INVALID (unknown kind, a parameter the
 * kind does not take or a needed one missing, the constructor's checks),
 * TBRF_ERR_NO_MEMORY. */
TBRF_API int tbrf_model_make(const char *kind, double index, double kmin, double kmax,
                             double length, double nu, tbrf_model **model);

/* Makes a model of the named kind from n parameters given by name
 * (names[i] = values[i]; the names of tbrf_model_param_name, "table"
 * excepted), the others not given; a NaN value counts as not given. The
 * same model as tbrf_model_make with those parameters, and the one way to
 * give a shape parameter that tbrf_model_make has no argument for, such
 * as the stable and rational kinds' alpha. Statuses: those of
 * tbrf_model_make, and TBRF_ERR_INVALID for an unknown name (the message
 * lists the names) or a name given twice; TBRF_ERR_NULL for NULL arrays
 * with n > 0. */
TBRF_API int tbrf_model_make_params(const char *kind, int n, TBRF_ARRAY const char *const *names,
                                    TBRF_ARRAY const double *values, tbrf_model **model);

/* The log-log slope of the model's spectrum far above its low wavenumbers
 * in dimension dim, ignoring a band cut: index (power law), -(2 nu + dim)
 * (Matern, exponential, von Karman), 1 - dim (band), -(dim + alpha)
 * (stable, alpha < 2); NaN where there is no single one (Gaussian,
 * rational, stable with alpha = 2, table, callback, parabola) or for a
 * bad model or dim. */
TBRF_API double tbrf_model_tail_slope(const tbrf_model *model, int dim);

/* ------------------------------------------------------ lognormal fields */

/* The Gaussian model behind a lognormal density whose contrast has the
 * given model's spectrum and variance (doc/lognormal.md). With rho/rho_mean
 * = exp(g - sigma_g^2/2), delta = rho/rho_mean - 1 has covariance
 * exp(xi_g) - 1, so g needs xi_g(r) = ln(1 + xi_d(r)), xi_d the density
 * model's covariance in dimension dim. *gaussian is a tabulated model
 * (tbrf_model_table: 128 rows per decade over [kmin, kmax], plus rows at
 * the density model's own range ends) of the spectrum of xi_g, computed by
 * Hankel transforms with xi_g exact for r <= rmax/2 (it is tapered to 0
 * over [rmax/2, rmax]: give rmax at least twice the largest separation the
 * field is used at) and about 1e-5 relative accuracy (doc/lognormal.md),
 * its variance set to sigma_g^2 = ln(1 + sigma_d^2). Where the spectrum
 * would be negative it is clipped to 0; *lost is the clipped part's
 * variance over sigma_g^2, and above max_lost the model is refused. An
 * anisotropic density model (tbrf_model_set_anisotropy) gives *gaussian
 * the same anisotropy; kmin, kmax and rmax are then in its scaled
 * coordinates (|S R^T k| and |S^-1 R^T x|).
 * Statuses: TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_INVALID (bad arguments or
 * density model, a correlation <= -1 that no lognormal density has, or
 * more lost than max_lost: the message says which and how much),
 * TBRF_ERR_SIZE (rmax kmax asks for more than 2^20 correlation samples or
 * the memory budget), TBRF_ERR_NO_MEMORY. On failure *gaussian may hold a
 * failed model, for its message (destroy it). */
TBRF_API int tbrf_model_lognormal(const tbrf_model *density, int dim, double kmin, double kmax,
                                  double rmax, double max_lost, TBRF_OUT double *lost,
                                  tbrf_model **gaussian);

/* The variance of ln rho in supersonic turbulence of rms Mach number mach
 * with forcing parameter b (1/3 solenoidal, 1 compressive; Federrath et
 * al. 2008, 2010): sigma^2 = ln(1 + b^2 mach^2). It is the Gaussian's
 * sigma_g^2 of a lognormal density; the contrast's variance is then
 * exp(sigma^2) - 1 = b^2 mach^2. NaN unless mach >= 0 and b > 0, finite. */
TBRF_API double tbrf_lognormal_sigma2_mach(double mach, double b);

#ifdef __cplusplus
}
#endif
#endif /* TBRF_MODEL_PUBLIC_H */
