/* model_kind.h — the table of model kinds and what the model's files share
 * (c/core/model.c, model_kinds.c, model_table.c, model_quad.c). Not
 * installed; nothing outside those files includes it.
 *
 * Each row of the table carries its kind's mathematics as functions. A
 * NULL function means the numerical default of model_quad.c (the Hankel
 * transform, general quadrature), or, where there is none, a refusal
 * with the reason: never another kind's formula. */
#ifndef TBRF_MODEL_KIND_H
#define TBRF_MODEL_KIND_H

#include <stddef.h>

#include "core/model.h"

#define TBRFI_PI 3.14159265358979323846
#define TBRFI_LN2 0.69314718055994530942

/* How a kind is made from its parameters by number (PAR_*; NaN: not
 * given; kmin already 0 where a kind with a range of its own was not
 * given one). */
typedef int (*tbrfi_make_fn)(int kind, const double par[NPARAM], tbrf_model **model);

struct kind_row {
    const char *name; /* the command's --model, the files' model_kind */
    const char *summary; /* one line for help texts (tbrf_model_kind_summary) */
    int takes, needs; /* TBRF_PARAM_* */
    int range;        /* kmin/kmax are the kind's own range, not a band */
    int cov_kind;     /* a covariance kind: unit C0(0) = 1, a length (and shape parameters) */
    int listed;       /* named to callers (tbrf_model_kind_name): all but the callback */
    tbrfi_make_fn make; /* NULL: not made by parameters (table, callback) */
    /* P0(k), k >= 0, on the kind's own range (the band cut is applied
     * by the caller). NULL: the Hankel transform of the covariance (a
     * covariance kind only). */
    double (*spectrum)(const tbrf_model *m, int dim, double k);
    /* C0(r), r >= 0, of a covariance kind (C0(0) = 1). NULL: the Hankel
     * transform of the spectrum (spectral kinds). */
    double (*covariance)(const tbrf_model *m, double r);
    /* The 3D line covariance a d/ds[s C0(s)] (a, the amplitude). NULL:
     * none, and circulant embedding refuses the model. */
    double (*line_covariance)(const tbrf_model *m, double a, double s);
    /* ∫_a^b k^(d-1) P0(k) dk, 0 <= a < b finite, clipped to the kind's
     * own range. NULL: general quadrature of the spectrum. */
    double (*line_integral)(const tbrf_model *m, int dim, double a, double b);
    /* The line spectrum amplitude included (a, the amplitude), where the
     * kind writes it without the k^(d-1) P0 product (finite at k = 0).
     * NULL: a k^(d-1) P0 / (2 pi) (3D), a k P0 / 2 (2D). */
    double (*line_spectrum)(const tbrf_model *m, int dim, double a, double k);
    /* k^(d-1) P0(k) on the range where P0 itself is singular at 0
     * (shells); NULL: the product. */
    double (*radial)(const tbrf_model *m, double k);
    /* The shape's variance of a spectral kind. NULL: c ∫ k^(d-1) P0 over
     * the kind's range (line_integral). Covariance kinds: 1. */
    double (*variance)(const tbrf_model *m, int dim);
    /* A length beyond which the covariance is negligible (about e^-8).
     * NULL: 0 (a spectral kind: the range's 2 pi / kmin is added by the
     * caller). */
    double (*correlation_scale)(const tbrf_model *m);
    /* The log-log slope of P far above the low wavenumbers. NULL: NaN. */
    double (*tail_slope)(const tbrf_model *m, int dim);
    /* Knots of a piecewise spectrum, where quadrature splits. NULL: none. */
    const double *(*knots)(const tbrf_model *m, size_t *n);
    /* u = k length above which P0 is 0 in double (0: none). */
    double zero_above;
    /* Checks the kind's own shape parameters (the constructor calls it
     * after the length): TBRF_OK or a failure recorded in m. NULL: none. */
    int (*check)(tbrf_model *m);
};

/* The row of a kind, or NULL for a kind out of the table. */
const struct kind_row *tbrfi_kind_row(int kind);

/* The number of rows (kinds 0 .. count-1). */
int tbrfi_kind_count(void);

/* ------------------------------------------- model.c: the model object */

/* A short-lived formatted number (the shortest "%.Ng" that reads back):
 * NUM(v) inside a printf argument list. */
typedef struct tbrfi_numstr { char s[40]; } tbrfi_numstr;
tbrfi_numstr tbrfi_num(double v);
#define NUM(v) (tbrfi_num(v).s)

/* A new model of the kind (variance 1, isotropic), NULL on no memory. */
tbrf_model *tbrfi_model_new(int kind);

/* Records a constructor failure (status, message, "(invalid)"
 * description); returns the status. */
int tbrfi_model_fail(tbrf_model *m, int status, const char *fmt, ...);

/* Hands the model out: its description, the kind's constants (the
 * numerical spectrum's tail), *out; returns its status. */
int tbrfi_model_finish(tbrf_model *m, tbrf_model **out, const char *table_file);

/* kmin finite >= 0, kmax finite > kmin; TBRF_OK or recorded failure. */
int tbrfi_model_check_range(tbrf_model *m, double kmin, double kmax);

/* 1/(2 pi^2) in 3D, 1/(2 pi) in 2D: sigma^2 = c ∫ k^(d-1) P dk. */
double tbrfi_variance_factor(int dim);

/* The kind's P0(k) without the band cut: the row's spectrum or the
 * numerical Hankel transform of its covariance. */
double tbrfi_kind_spectrum(const tbrf_model *m, int dim, double k);

/* ∫_a^b k^(d-1) P0 dk without the band cut: the row's line integral or
 * general quadrature (tbrfi_quad_line_integral). */
double tbrfi_kind_line_integral(const tbrf_model *m, int dim, double a, double b);

/* ----------------------------------------- model_quad.c: quadrature */

/* ∫_a^b k^q P0 dk (q = d - 1) of the kind's spectrum without the band
 * cut by general quadrature, clipped to a range of the kind's own:
 * log-graded near 0, adaptive on pieces of ratio 2 (16-point
 * Gauss-Legendre). */
double tbrfi_quad_line_integral(const tbrf_model *m, int dim, double a, double b);

/* The shape covariance c ∫ k^(d-1) P0(k) w(kr) dk of a model whose kind
 * has no closed form, or which a band cut, by the Hankel transform of the
 * spectrum over its support (w = sin(kr)/(kr) in 3D, J0(kr) in 2D). NaN
 * where the support is unbounded and the kind has no covariance. */
double tbrfi_quad_hankel_covariance(const tbrf_model *m, int dim, double r);

/* The spectrum P0(k) of a covariance kind without one of its own: the
 * Hankel transform of its covariance, 4 pi ∫ r^2 C0 sin(kr)/(kr) dr (3D),
 * 2 pi ∫ r C0 J0(kr) dr (2D), over [0, R] where |C0(R)| < 1e-17, in
 * pieces half a period wide. Above the wavenumber where that needs more
 * than 4096 pieces, the kind's tail slope continues it from the anchor
 * tbrfi_quad_prepare cached; NaN where the kind has none and the anchor
 * is not negligible, or where C0 does not fall below 1e-17 within 2^40
 * correlation scales. */
double tbrfi_quad_spectrum_from_covariance(const tbrf_model *m, int dim, double k);

/* Caches the anchors of tbrfi_quad_spectrum_from_covariance in m->cache
 * (called once by the constructor of such a kind). */
void tbrfi_quad_prepare(tbrf_model *m);

/* ∫_a^b k^(e-1) dk for 0 <= a <= b; +inf where it diverges at 0. */
double tbrfi_power_integral(double a, double b, double e);

/* (expm1(e L)) / e, the limit L at e = 0. */
double tbrfi_expm1_over(double e, double L);

/* --------------------------------- model_table.c: tables, user spectra */

/* The table kind's and the callback's row functions (model_kinds.c's
 * table refers to them). */
double tbrfi_table_spectrum(const tbrf_model *m, int dim, double k);
double tbrfi_table_line_integral(const tbrf_model *m, int dim, double a, double b);
double tbrfi_table_variance(const tbrf_model *m, int dim);
const double *tbrfi_table_knots(const tbrf_model *m, size_t *n);
double tbrfi_callback_spectrum(const tbrf_model *m, int dim, double k);

/* ∫_a^b k^q P0(k) dk over the whole table, clipped to its range. */
double tbrfi_table_integral(const tbrf_model *m, int q, double a, double b);

#endif
