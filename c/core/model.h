/* model.h — internal interface of the model layer (c/core/model*.c: the
 * model object model.c, the kinds model_kinds.c, tables and user spectra
 * model_table.c, quadrature model_quad.c) used by the methods and the
 * plan. Not installed. */
#ifndef TBRF_MODEL_H
#define TBRF_MODEL_H

#include <stddef.h>
#include "tbrf.h"
#include "core/message.h"

enum model_kind {
    MODEL_POWERLAW = 0,
    MODEL_GAUSSIAN = 1,
    MODEL_EXPONENTIAL = 2,
    MODEL_MATERN = 3,
    MODEL_VONKARMAN = 4,
    MODEL_TABLE = 5,
    MODEL_CALLBACK = 6,
    MODEL_BAND = 7,     /* P0 = k^(1-d): a flat shell spectrum k^(d-1) P0 on [kmin, kmax] */
    MODEL_PARABOLA = 8, /* P0 = (1 - u^2) k^(1-d), u = (2k - kmin - kmax)/(kmax - kmin) */
    MODEL_STABLE = 9,   /* C0 = exp(-x^alpha), 0 < alpha <= 2 */
    MODEL_RATIONAL = 10 /* C0 = (1 + x^2/alpha)^-alpha */
};

/* The parameters by number: parameter i is the bit 1 << i of the public
 * TBRF_PARAM_* and the name tbrf_model_param_name(i). A new shape
 * parameter is a number here, its bit and its name (model.c's PARAMS). */
enum model_param {
    PAR_INDEX = 0,
    PAR_KMIN = 1,
    PAR_KMAX = 2,
    PAR_LENGTH = 3,
    PAR_NU = 4,
    PAR_TABLE = 5,
    PAR_ALPHA = 6,
    NPARAM = 7
};

struct tbrf_model {
    int kind;
    int status;                       /* constructor's status */
    tbrfi_message msg;                /* last failure */
    char description[512];            /* tbrf_model_describe */
    /* The kind's parameters by number (PAR_*; 0 where the kind takes
     * none). par[PAR_KMIN], par[PAR_KMAX] and par[PAR_TABLE] are unused:
     * the range or band is kmin/kmax, the rows k/p. */
    double par[NPARAM];
    double kmin, kmax;                /* powerlaw, callback, band, parabola and table range; or a band */
    /* Constants the kind computes once at construction, so that the
     * per-mode calls stay cheap: a table's shape variances (2D, 3D), the
     * numerical spectrum's anchors of its tail (2D, 3D) and where they
     * lie. */
    double cache[4];
    size_t n;                         /* table rows */
    double *k, *p;                    /* table (owned copies) */
    tbrf_spectrum_fn fn;              /* callback */
    void *user;
    /* tbrf_model_set_band: P is zero outside [kmin, kmax] (kmax may be
     * +inf). For the covariance models (which otherwise leave kmin/kmax
     * at 0) the closed-form covariance no longer holds, so such a model
     * is no longer "covariance" (tbrfi_model_is_covariance) and its
     * variance, covariance and line integrals are computed on the cut
     * spectrum. */
    int band;
    double band_var[2];               /* the cut shape's variance: 2D, 3D */
    int by_variance;                  /* 1: amplitude from variance; 0: amplitude given */
    double variance, amplitude;
    /* tbrf_model_set_anisotropy: C(x) = C_iso(|S^-1 R^T x|). anis is 0
     * (and the factors 1, the angles 0) until a non-identity is set, so an
     * isotropic model takes exactly the code paths it always took. */
    int anis;
    double anis_scale[3], anis_angles[3];
};

/* The rotation R of the model's angles in dimension dim (row-major 3x3,
 * the identity beyond dim): GSTools' matrix_rotate, R = G_yz(a3)
 * G_xz(-a2) G_xy(a1) in 3D (G_ij(t) the Givens rotation by t in the plane
 * of axes i, j, +t turning axis i towards j), R = G_xy(a1) in 2D; the
 * columns of R are the principal axes. */
void tbrfi_model_anis_rotation(const tbrf_model *m, int dim, double R[9]);

/* T = R S^-1 (row-major 3x3): a line direction u of the isotropic field
 * becomes the physical axis T u, since u . (S^-1 R^T x) = (R S^-1 u) . x.
 * Returns m->anis (T is the identity when 0). */
int tbrfi_model_anis_axes(const tbrf_model *m, int dim, double T[9]);

/* K = S R^T (row-major 3x3) and *det = det S over the first dim axes: the
 * spectrum at a physical wavevector k is det S P_iso(|K k|). Returns
 * m->anis. */
int tbrfi_model_anis_waves(const tbrf_model *m, int dim, double K[9], double *det);

/* Whether the anisotropy can be used in dimension dim: in 2D the third
 * factor must be 1 and the second and third angles 0. TBRF_OK, or
 * TBRF_ERR_INVALID with a message in msg. */
int tbrfi_model_anis_check(const tbrf_model *m, int dim, char *msg, size_t msgsize);

/* 1 for the models of a covariance kind (the kinds table's covariance
 * rows: a closed-form covariance) without a band cut. */
int tbrfi_model_is_covariance(const tbrf_model *m);

/* 1 when tbrfi_model_line_covariance3 has a closed form for the model (a
 * covariance model whose kind gives its line covariance): what circulant
 * embedding needs. */
int tbrfi_model_has_line_covariance(const tbrf_model *m);

/* The names of the listed kinds that have a closed-form line covariance,
 * "gaussian, exponential, ...", into buf (for messages). */
void tbrfi_model_line_covariance_kinds(char *buf, size_t size);

/* Shape spectrum P0(k) in dimension dim (amplitude excluded). */
double tbrfi_model_shape_spectrum(const tbrf_model *m, int dim, double k);

/* The variance of the shape, (1/2pi^2)∫k^2 P0 dk (3D) or (1/2pi)∫k P0 dk
 * (2D); +inf or NaN where it diverges, 0 where it vanishes. */
double tbrfi_model_shape_variance(const tbrf_model *m, int dim);

/* The amplitude A in dimension dim: the given one, or sigma^2 divided by
 * the shape's variance. NaN when the shape's variance is not finite and
 * positive. */
double tbrfi_model_amplitude(const tbrf_model *m, int dim);

/* Line spectrum of the turning-bands line process (amplitude included):
 * P1(kappa) = kappa^2 P(kappa) / (2 pi) in 3D, |kappa| P(|kappa|) / 2 in 2D,
 * so that C1(s) = ∫ dkappa/(2pi) P1(kappa) e^{i kappa s}. */
double tbrfi_model_line_spectrum(const tbrf_model *m, int dim, double kappa);

/* ∫_a^b P1(kappa) dkappa for 0 <= a < b, accurately even when the
 * interval straddles a cut-off or table knots (splits there, Gauss-Legendre
 * on each piece). Amplitude included. */
double tbrfi_model_integrate_line_spectrum(const tbrf_model *m, int dim, double a, double b);

/* A length beyond which the covariance is negligible (used to size lines):
 * a few correlation lengths for covariance models, 2 pi / kmin for
 * spectral models with kmin > 0, 0 otherwise. */
double tbrfi_model_correlation_scale(const tbrf_model *m);

/* The model's frequency range: the wavenumbers [*kmin, *kmax] outside
 * which P is zero, for every kind (a table's knots or band, a power law's,
 * callback's or shell's range, a band cut); [0, inf] for a covariance
 * model without a band. *kmax may be inf (a band with no upper cut). The
 * one place that knows where each kind keeps its range. */
void tbrfi_model_support(const tbrf_model *m, double *kmin, double *kmax);

/* The 3D line covariance C1(s) = d/ds[s C(s)] of a covariance model,
 * amplitude included (the kind's closed form). NaN for other models and
 * for a kind without one (tbrfi_model_has_line_covariance). */
double tbrfi_model_line_covariance3(const tbrf_model *m, double s);

/* Deep copy (the table is copied, the callback's user pointer is shared).
 * NULL on allocation failure. */
tbrf_model *tbrfi_model_copy(const tbrf_model *m);

/* Modified Bessel function of the second kind K_nu(x) for real nu and
 * x > 0 (integral representation, about 1e-14 relative). */
double tbrf_bessel_k(double nu, double x);

#endif
