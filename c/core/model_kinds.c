/* model_kinds.c — the table of model kinds (KINDS) and each kind's
 * mathematics: the power law, the covariance kinds (Gaussian, the Matern
 * family, Stable, Rational) and TurbGen's shells; their constructors.
 * Tables and user spectra are in model_table.c, the numerical defaults in
 * model_quad.c.
 *
 * Conventions (doc/design.md, "Conventions"; doc/method.md): x = r /
 * length; a covariance kind's P0 is the spectrum of its unit-variance
 * covariance C0, C(r) = ∫ d^dk/(2π)^d P(k) e^{ik·h}. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/model_kind.h"
#include "core/special.h"

#define PI TBRFI_PI
#define LN2 TBRFI_LN2

/* ------------------------------------------------------------ power law */

static double powerlaw_spectrum(const tbrf_model *m, int dim, double k)
{
    (void)dim;
    return (k >= m->kmin && k <= m->kmax) ? pow(k, m->par[PAR_INDEX]) : 0.0;
}

static double powerlaw_line_integral(const tbrf_model *m, int dim, double a, double b)
{
    const double lo = a < m->kmin ? m->kmin : a, hi = b > m->kmax ? m->kmax : b;
    return hi > lo ? tbrfi_power_integral(lo, hi, m->par[PAR_INDEX] + dim) : 0.0;
}

/* k^(index+d-1) directly: finite limits at 0 */
static double powerlaw_line_spectrum(const tbrf_model *m, int dim, double a, double k)
{
    if (!(k >= m->kmin && k <= m->kmax))
        return 0.0;
    double v = pow(k, m->par[PAR_INDEX] + dim - 1);
    return a * (dim == 3 ? v / (2.0 * PI) : 0.5 * v);
}

static double powerlaw_slope(const tbrf_model *m, int dim)
{
    (void)dim;
    return m->par[PAR_INDEX];
}

/* ------------------------------------------------------------- Gaussian */

static double gaussian_spectrum(const tbrf_model *m, int dim, double k)
{
    const double a = m->par[PAR_LENGTH];
    const double sa = sqrt(PI) * a, ka = k * a;
    return (dim == 3 ? sa * sa * sa : sa * sa) * exp(-0.25 * ka * ka);
}

static double gaussian_covariance(const tbrf_model *m, double r)
{
    const double x = r / m->par[PAR_LENGTH];
    return exp(-x * x);
}

static double gaussian_line_covariance(const tbrf_model *m, double a, double s)
{
    const double x = fabs(s) / m->par[PAR_LENGTH];
    return a * (1.0 - 2.0 * x * x) * exp(-x * x);
}

/* The covariance spectra in u = k a, without constant factors:
 * u^(d-1) e^(-u^2/4) (Gaussian) or u^(d-1) (1 + u^2)^-s2 (Matern family,
 * s2 = nu + d/2). */
typedef struct uctx { int gauss, dim; double s2; } uctx;

static double ufun(double u, const void *vctx)
{
    const uctx *c = vctx;
    const double p = c->dim == 3 ? u * u : u;
    return c->gauss ? p * exp(-0.25 * u * u) : p * exp(-c->s2 * log1p(u * u));
}

/* ∫_a^b k^(d-1) P0 dk by pieces 0.5 wide in u = k a (the spectrum is 0 in
 * double beyond u = 60); 8-point Gauss-Legendre on each, ~1e-13. */
static double gaussian_line_integral(const tbrf_model *m, int dim, double a, double b)
{
    const double len = m->par[PAR_LENGTH];
    double ua = a * len, ub = b * len, sum = 0.0;
    const uctx c = {1, dim, 0.0};
    if (ub > 60.0)
        ub = 60.0;
    for (double u = ua; u < ub;) {
        double v = u + 0.5;
        if (v >= ub || ub - v < 1e-9)
            v = ub;
        sum += tbrf_gl8(ufun, &c, u, v);
        u = v;
    }
    /* (sqrt(pi) a)^d a^-d */
    return (dim == 3 ? PI * sqrt(PI) : PI) * sum;
}

static double gaussian_scale(const tbrf_model *m) { return 3.0 * m->par[PAR_LENGTH]; }

/* ------------------------------------------- Matern, exponential, von Karman */

/* (2 sqrt(pi))^d Gamma(nu + d/2) / Gamma(nu) a^d: the Matern spectrum at
 * k = 0. tgamma (not lgamma, which writes the global signgam). */
static double matern_p0(const tbrf_model *m, int dim)
{
    const double nu = m->par[PAR_NU];
    const double twosqrtpi_a = 2.0 * sqrt(PI) * m->par[PAR_LENGTH];
    const double pre = dim == 3 ? twosqrtpi_a * twosqrtpi_a * twosqrtpi_a : twosqrtpi_a * twosqrtpi_a;
    return pre * (tgamma(nu + 0.5 * dim) / tgamma(nu));
}

static double matern_spectrum(const tbrf_model *m, int dim, double k)
{
    const double ka = k * m->par[PAR_LENGTH];
    return matern_p0(m, dim) * exp(-(m->par[PAR_NU] + 0.5 * dim) * log1p(ka * ka));
}

/* x^nu K_nu(x) 2^(1-nu) / Gamma(nu) for x > 0 (the Matern shape), and
 * with power x^(nu+1) and order nu - 1 for the line covariance. */
static double matern_term(double nu, double order, double power, double x)
{
    const double lnfac = (1.0 - nu) * LN2 - log(tgamma(nu)) + power * log(x);
    return tbrf_bessel_k_scaled(order, x, lnfac);
}

static double matern_covariance(const tbrf_model *m, double r)
{
    const double x = r / m->par[PAR_LENGTH], nu = m->par[PAR_NU];
    if (x == 0.0)
        return 1.0;
    return matern_term(nu, nu, nu, x);
}

static double exponential_covariance(const tbrf_model *m, double r)
{
    return exp(-(r / m->par[PAR_LENGTH]));
}

static double matern_line_covariance(const tbrf_model *m, double a, double s)
{
    const double x = fabs(s) / m->par[PAR_LENGTH], nu = m->par[PAR_NU];
    if (x == 0.0)
        return a;
    if (isinf(x))
        return 0.0;
    /* d/dx [x^nu K_nu] = -x^nu K_(nu-1) */
    return a * (matern_term(nu, nu, nu, x) - matern_term(nu, nu - 1.0, nu + 1.0, x));
}

static double exponential_line_covariance(const tbrf_model *m, double a, double s)
{
    const double x = fabs(s) / m->par[PAR_LENGTH];
    return a * (1.0 - x) * exp(-x);
}

/* ∫_a^b k^(d-1) P0 dk by pieces in u = k a: width at most `lin` below
 * u = 1; above 1, ratio at most e^dt. Each piece spans a few e-folds at
 * most, so 8-point Gauss-Legendre is accurate to ~1e-13. A narrow bin is
 * one piece: 8 evaluations. */
static double matern_line_integral(const tbrf_model *m, int dim, double a, double b)
{
    const double len = m->par[PAR_LENGTH];
    double ua = a * len, ub = b * len, sum = 0.0;
    const double s2 = m->par[PAR_NU] + 0.5 * dim; /* spectrum ~ (1 + u^2)^-s2 */
    const uctx c = {0, dim, s2};
    const double lin = 1.0 / ceil(2.0 * sqrt(s2));
    const double dt = 1.5 / s2 < LN2 ? 1.5 / s2 : LN2;
    const double grow = expm1(dt);
    if (ub > 1e200)
        ub = 1e200;
    for (double u = ua; u < ub;) {
        double w = u < 1.0 ? lin : u * grow;
        double v = u + w;
        if (u < 1.0 && v > 1.0)
            v = 1.0;
        if (v >= ub || ub - v < 1e-9 * w)
            v = ub;
        sum += tbrf_gl8(ufun, &c, u, v);
        u = v;
    }
    /* matern_p0 a^-d */
    return matern_p0(m, dim) / (dim == 3 ? len * len * len : len * len) * sum;
}

static double matern_scale(const tbrf_model *m)
{
    return m->par[PAR_LENGTH] * (8.0 + 2.0 * sqrt(2.0 * m->par[PAR_NU]));
}

static double exponential_scale(const tbrf_model *m) { return 8.0 * m->par[PAR_LENGTH]; }

static double matern_slope(const tbrf_model *m, int dim) { return -(2.0 * m->par[PAR_NU] + dim); }

static int matern_check(tbrf_model *m)
{
    const double nu = m->par[PAR_NU];
    if (!(nu > 0.0 && nu <= 50.0))
        return tbrfi_model_fail(m, TBRF_ERR_INVALID, "matern: nu=%s must satisfy 0 < nu <= 50",
                                NUM(nu));
    return TBRF_OK;
}

/* --------------------------------------------------------------- Stable */

/* GSTools' Stable: C0 = exp(-x^alpha), 0 < alpha <= 2 (alpha = 1 is the
 * exponential, 2 the Gaussian of the same length). Its spectrum has no
 * closed form: the numerical Hankel transform of the covariance
 * (spectrum NULL in the table). */
static double stable_covariance(const tbrf_model *m, double r)
{
    return exp(-pow(r / m->par[PAR_LENGTH], m->par[PAR_ALPHA]));
}

/* d/dx [x e^(-x^alpha)] = (1 - alpha x^alpha) e^(-x^alpha) */
static double stable_line_covariance(const tbrf_model *m, double a, double s)
{
    const double xa = pow(fabs(s) / m->par[PAR_LENGTH], m->par[PAR_ALPHA]);
    return a * (1.0 - m->par[PAR_ALPHA] * xa) * exp(-xa);
}

/* C0 = e^-8 at x = 8^(1/alpha), as the exponential's 8 lengths */
static double stable_scale(const tbrf_model *m)
{
    return m->par[PAR_LENGTH] * pow(8.0, 1.0 / m->par[PAR_ALPHA]);
}

/* C0 = 1 - x^alpha + ... at 0: P ~ k^-(d + alpha) far up (alpha < 2) */
static double stable_slope(const tbrf_model *m, int dim)
{
    return m->par[PAR_ALPHA] < 2.0 ? -(dim + m->par[PAR_ALPHA]) : NAN;
}

static int stable_check(tbrf_model *m)
{
    const double al = m->par[PAR_ALPHA];
    if (!(al > 0.0 && al <= 2.0))
        return tbrfi_model_fail(m, TBRF_ERR_INVALID,
                                "stable: alpha=%s must satisfy 0 < alpha <= 2", NUM(al));
    return TBRF_OK;
}

/* ------------------------------------------------------------- Rational */

/* GSTools' Rational: C0 = (1 + x^2/alpha)^-alpha, alpha > 0 (alpha = 1 is
 * GSTools' Cauchy; alpha -> inf the Gaussian exp(-x^2)). With b = length
 * sqrt(alpha), C0 = (1 + r^2/b^2)^-alpha, whose d-dimensional Fourier
 * transform is the Matern-like P0(k) = b^d (2 pi)^(d/2) 2^(1-alpha) /
 * Gamma(alpha) (kb)^(alpha-d/2) K_(d/2-alpha)(kb). */
static double rational_spectrum(const tbrf_model *m, int dim, double k)
{
    const double al = m->par[PAR_ALPHA], b = m->par[PAR_LENGTH] * sqrt(al), h = 0.5 * dim;
    const double bd = dim == 3 ? b * b * b : b * b;
    if (k == 0.0) /* finite only for alpha > d/2 */
        return al > h ? bd * pow(PI, h) * tgamma(al - h) / tgamma(al) : INFINITY;
    const double x = k * b;
    const double lnfac = h * log(2.0 * PI) + (1.0 - al) * LN2 - log(tgamma(al)) + (al - h) * log(x);
    return bd * tbrf_bessel_k_scaled(fabs(h - al), x, lnfac);
}

/* P0 is infinite at k = 0 for alpha <= d/2, but k^(d-1) P0 ~ k^(2 alpha - 1)
 * has a limit there: 0 above alpha = 1/2, b (2 pi)^(d/2) Gamma(d/2 - 1/2)
 * 2^(d/2-1) / Gamma(1/2) at 1/2, infinite below. */
static double rational_line_spectrum(const tbrf_model *m, int dim, double a, double k)
{
    const double c = dim == 3 ? 1.0 / (2.0 * PI) : 0.5;
    if (k == 0.0) {
        const double al = m->par[PAR_ALPHA], h = 0.5 * dim, b = m->par[PAR_LENGTH] * sqrt(al);
        if (al != 0.5)
            return al > 0.5 ? 0.0 : INFINITY;
        return a * c * b * pow(2.0 * PI, h) * tgamma(h - 0.5) * pow(2.0, h - 1.0) / sqrt(PI);
    }
    const double p = rational_spectrum(m, dim, k);
    return a * (dim == 3 ? k * k * p / (2.0 * PI) : 0.5 * k * p);
}

static double rational_covariance(const tbrf_model *m, double r)
{
    const double al = m->par[PAR_ALPHA], x = r / m->par[PAR_LENGTH];
    return pow(1.0 + x * x / al, -al);
}

/* d/dx [x (1 + x^2/alpha)^-alpha] = (1 + x^2/alpha - 2 x^2)
 * (1 + x^2/alpha)^(-alpha-1) */
static double rational_line_covariance(const tbrf_model *m, double a, double s)
{
    const double al = m->par[PAR_ALPHA], x = fabs(s) / m->par[PAR_LENGTH];
    if (isinf(x))
        return 0.0;
    const double q = 1.0 + x * x / al;
    return a * (q - 2.0 * x * x) * pow(q, -al - 1.0);
}

/* C0 = e^-8 at x^2 = alpha (e^(8/alpha) - 1): a heavy tail for small alpha */
static double rational_scale(const tbrf_model *m)
{
    const double al = m->par[PAR_ALPHA];
    return m->par[PAR_LENGTH] * sqrt(al * expm1(8.0 / al));
}

/* Gamma(alpha) for the spectrum's constant: alpha <= 50 (beyond, the
 * model is the Gaussian to within 1/alpha) */
static int rational_check(tbrf_model *m)
{
    const double al = m->par[PAR_ALPHA];
    if (!(al > 0.0 && al <= 50.0))
        return tbrfi_model_fail(m, TBRF_ERR_INVALID,
                                "rational: alpha=%s must satisfy 0 < alpha <= 50", NUM(al));
    return TBRF_OK;
}

/* --------------------------------------------------------------- shells */

/* k^(d-1) P0 of the band (1) and parabola (1 - u^2) models inside
 * [kmin, kmax]. */
static double band_radial(const tbrf_model *m, double k)
{
    (void)m;
    (void)k;
    return 1.0;
}

static double parabola_radial(const tbrf_model *m, double k)
{
    const double u = (2.0 * k - m->kmin - m->kmax) / (m->kmax - m->kmin);
    const double v = 1.0 - u * u;
    return v > 0.0 ? v : 0.0;
}

static double radial_of(const tbrf_model *m, double k)
{
    return m->kind == MODEL_BAND ? band_radial(m, k) : parabola_radial(m, k);
}

static double shell_spectrum(const tbrf_model *m, int dim, double k)
{
    if (!(k >= m->kmin && k <= m->kmax))
        return 0.0;
    return radial_of(m, k) / (dim == 3 ? k * k : k);
}

/* finite at k = 0 */
static double shell_line_spectrum(const tbrf_model *m, int dim, double a, double k)
{
    if (!(k >= m->kmin && k <= m->kmax))
        return 0.0;
    return a * (dim == 3 ? 1.0 / (2.0 * PI) : 0.5) * radial_of(m, k);
}

/* ∫_a^b k^(d-1) P0: b - a (band), or (w/2) [u - u^3/3] in u = (2k - kmin
 * - kmax)/w (parabola), clipped to [kmin, kmax]. */
static double band_line_integral(const tbrf_model *m, int dim, double a, double b)
{
    (void)dim;
    const double lo = a < m->kmin ? m->kmin : a, hi = b > m->kmax ? m->kmax : b;
    return hi > lo ? hi - lo : 0.0;
}

static double parabola_line_integral(const tbrf_model *m, int dim, double a, double b)
{
    (void)dim;
    const double lo = a < m->kmin ? m->kmin : a, hi = b > m->kmax ? m->kmax : b;
    if (!(hi > lo))
        return 0.0;
    const double w = m->kmax - m->kmin;
    const double ua = (2.0 * lo - m->kmin - m->kmax) / w, ub = (2.0 * hi - m->kmin - m->kmax) / w;
    return 0.5 * w * ((ub - ua) - (ub * ub * ub - ua * ua * ua) / 3.0);
}

static double band_slope(const tbrf_model *m, int dim)
{
    (void)m;
    return 1.0 - dim;
}

/* ------------------------------------------------------- constructors */

int tbrf_model_powerlaw(double index, double kmin, double kmax, tbrf_model **model)
{
    if (!model)
        return TBRF_ERR_NULL;
    tbrf_model *m = tbrfi_model_new(MODEL_POWERLAW);
    if (!(*model = m))
        return TBRF_ERR_NO_MEMORY;
    m->par[PAR_INDEX] = index;
    m->kmin = kmin;
    m->kmax = kmax;
    if (!isfinite(index))
        tbrfi_model_fail(m, TBRF_ERR_INVALID, "powerlaw: index=%s must be finite", NUM(index));
    else
        tbrfi_model_check_range(m, kmin, kmax);
    return tbrfi_model_finish(m, model, NULL);
}

/* The shell spectra of turbulence driving (TurbGen's "band" and
 * "parabola", Federrath et al. 2010): k^(d-1) P0 is flat, or the parabola
 * 1 - u^2 that peaks mid-band and is zero at both ends. */
static int shell_model(int kind, double kmin, double kmax, tbrf_model **model)
{
    if (!model)
        return TBRF_ERR_NULL;
    tbrf_model *m = tbrfi_model_new(kind);
    if (!(*model = m))
        return TBRF_ERR_NO_MEMORY;
    m->kmin = kmin;
    m->kmax = kmax;
    tbrfi_model_check_range(m, kmin, kmax);
    return tbrfi_model_finish(m, model, NULL);
}

int tbrf_model_band(double kmin, double kmax, tbrf_model **model)
{
    return shell_model(MODEL_BAND, kmin, kmax, model);
}

int tbrf_model_parabola(double kmin, double kmax, tbrf_model **model)
{
    return shell_model(MODEL_PARABOLA, kmin, kmax, model);
}

/* A covariance kind from its parameters by number: the length, then the
 * kind's own checks of its shape parameters. */
static int covariance_model(int kind, const double par[NPARAM], tbrf_model **model)
{
    if (!model)
        return TBRF_ERR_NULL;
    tbrf_model *m = tbrfi_model_new(kind);
    if (!(*model = m))
        return TBRF_ERR_NO_MEMORY;
    const struct kind_row *row = tbrfi_kind_row(kind);
    for (int i = 0; i < NPARAM; i++)
        if (((row->takes & (1 << i)) || !isnan(par[i])) && i != PAR_KMIN && i != PAR_KMAX &&
            i != PAR_TABLE) /* a fixed shape (the Matern family's nu) too */
            m->par[i] = par[i];
    const double length = par[PAR_LENGTH];
    if (!(isfinite(length) && length > 0.0))
        tbrfi_model_fail(m, TBRF_ERR_INVALID, "%s: length=%s must be finite and > 0", row->name,
                         NUM(length));
    else if (row->check)
        row->check(m);
    return tbrfi_model_finish(m, model, NULL);
}

/* The fixed nu of the Matern family's named members */
static int fixed_nu(int kind, double length, double nu, tbrf_model **model)
{
    double par[NPARAM] = {0};
    par[PAR_LENGTH] = length;
    par[PAR_NU] = nu;
    return covariance_model(kind, par, model);
}

int tbrf_model_gaussian(double length, tbrf_model **model)
{
    return fixed_nu(MODEL_GAUSSIAN, length, 0.0, model);
}

int tbrf_model_exponential(double length, tbrf_model **model)
{
    return fixed_nu(MODEL_EXPONENTIAL, length, 0.5, model);
}

int tbrf_model_matern(double length, double nu, tbrf_model **model)
{
    return fixed_nu(MODEL_MATERN, length, nu, model);
}

int tbrf_model_vonkarman(double length, tbrf_model **model)
{
    return fixed_nu(MODEL_VONKARMAN, length, 1.0 / 3.0, model);
}

/* ------------------------------------------------- models by parameters */

static int make_powerlaw(int kind, const double par[NPARAM], tbrf_model **model)
{
    (void)kind;
    return tbrf_model_powerlaw(par[PAR_INDEX], par[PAR_KMIN], par[PAR_KMAX], model);
}

static int make_shell(int kind, const double par[NPARAM], tbrf_model **model)
{
    return shell_model(kind, par[PAR_KMIN], par[PAR_KMAX], model);
}

static int make_covariance(int kind, const double par[NPARAM], tbrf_model **model)
{
    return covariance_model(kind, par, model);
}

/* The Matern family's named members: their fixed nu is no parameter */
static int make_fixed_nu(int kind, const double par[NPARAM], tbrf_model **model)
{
    const double nu = kind == MODEL_EXPONENTIAL ? 0.5 : kind == MODEL_VONKARMAN ? 1.0 / 3.0 : 0.0;
    return fixed_nu(kind, par[PAR_LENGTH], nu, model);
}

/* ---------------------------------------------------------- the table */

#define PBAND (TBRF_PARAM_KMIN | TBRF_PARAM_KMAX)
#define PCOV (TBRF_PARAM_LENGTH | PBAND)

/* The one table of model kinds, indexed by enum model_kind: the name (the
 * command's --model, the files' model_kind), the parameters taken and
 * needed (TBRF_PARAM_*: the command's option checks, tbrf_model_make's),
 * whether kmin/kmax are the kind's own range or a band cut, whether it is
 * a covariance kind, the constructor by parameters, and the mathematics
 * (struct kind_row, model_kind.h). The command, the files, Python and
 * Fortran read it through tbrf_model_kind_name, tbrf_model_kind_params,
 * tbrf_model_param_name and tbrf_model_make_params. */
static const struct kind_row KINDS[] = {
    [MODEL_POWERLAW] = {.name = "powerlaw",
                        .summary = "P(k) = A k^index on kmin <= k <= kmax (kmin default 0)",
                        .takes = TBRF_PARAM_INDEX | PBAND,
                        .needs = TBRF_PARAM_INDEX | TBRF_PARAM_KMAX, .range = 1, .listed = 1,
                        .make = make_powerlaw, .spectrum = powerlaw_spectrum,
                        .line_integral = powerlaw_line_integral,
                        .line_spectrum = powerlaw_line_spectrum, .tail_slope = powerlaw_slope},
    [MODEL_GAUSSIAN] = {.name = "gaussian",
                        .summary = "C(r) = s2 exp(-(r/length)^2)",
                        .takes = PCOV, .needs = TBRF_PARAM_LENGTH,
                        .cov_kind = 1, .listed = 1, .make = make_fixed_nu,
                        .spectrum = gaussian_spectrum, .covariance = gaussian_covariance,
                        .line_covariance = gaussian_line_covariance,
                        .line_integral = gaussian_line_integral,
                        .correlation_scale = gaussian_scale, .zero_above = 60.0},
    [MODEL_EXPONENTIAL] = {.name = "exponential",
                           .summary = "C(r) = s2 exp(-r/length)",
                           .takes = PCOV, .needs = TBRF_PARAM_LENGTH,
                           .listed = 1, .cov_kind = 1, .make = make_fixed_nu, .spectrum = matern_spectrum,
                           .covariance = exponential_covariance,
                           .line_covariance = exponential_line_covariance,
                           .line_integral = matern_line_integral,
                           .correlation_scale = exponential_scale, .tail_slope = matern_slope},
    [MODEL_MATERN] = {.name = "matern",
                      .summary = "Matern covariance, spectrum ~ k^-(2 nu + dim)",
                      .takes = PCOV | TBRF_PARAM_NU,
                      .needs = TBRF_PARAM_LENGTH | TBRF_PARAM_NU, .listed = 1, .cov_kind = 1,
                      .make = make_covariance, .spectrum = matern_spectrum,
                      .covariance = matern_covariance, .line_covariance = matern_line_covariance,
                      .line_integral = matern_line_integral, .correlation_scale = matern_scale,
                      .tail_slope = matern_slope, .check = matern_check},
    [MODEL_VONKARMAN] = {.name = "vonkarman",
                         .summary = "Matern with nu = 1/3 (k^-11/3 in 3D)",
                         .takes = PCOV, .needs = TBRF_PARAM_LENGTH,
                         .listed = 1, .cov_kind = 1, .make = make_fixed_nu, .spectrum = matern_spectrum,
                         .covariance = matern_covariance,
                         .line_covariance = matern_line_covariance,
                         .line_integral = matern_line_integral,
                         .correlation_scale = matern_scale, .tail_slope = matern_slope},
    [MODEL_TABLE] = {.name = "table",
                     .summary = "tabulated P(k), lines \"k P\", '#' comments",
                     .takes = TBRF_PARAM_TABLE | PBAND,
                     .needs = TBRF_PARAM_TABLE, .listed = 1, .spectrum = tbrfi_table_spectrum,
                     .line_integral = tbrfi_table_line_integral,
                     .variance = tbrfi_table_variance, .knots = tbrfi_table_knots},
    [MODEL_CALLBACK] = {.name = "callback",
                        .summary = "P(k) from a user function on [kmin, kmax]",
                        .takes = PBAND, .needs = PBAND, .range = 1,
                        .spectrum = tbrfi_callback_spectrum},
    [MODEL_BAND] = {.name = "band",
                    .summary = "flat shell spectrum k^(dim-1) P(k) on kmin <= k <= kmax (TurbGen's band)",
                    .takes = PBAND, .needs = TBRF_PARAM_KMAX, .range = 1,
                    .listed = 1, .make = make_shell, .spectrum = shell_spectrum,
                    .line_integral = band_line_integral, .line_spectrum = shell_line_spectrum,
                    .radial = band_radial, .tail_slope = band_slope},
    [MODEL_PARABOLA] = {.name = "parabola",
                        .summary = "shell spectrum k^(dim-1) P(k) ~ 1 - u^2, 0 at both ends (TurbGen's)",
                        .takes = PBAND, .needs = TBRF_PARAM_KMAX,
                        .range = 1, .listed = 1, .make = make_shell, .spectrum = shell_spectrum,
                        .line_integral = parabola_line_integral,
                        .line_spectrum = shell_line_spectrum, .radial = parabola_radial},
    [MODEL_STABLE] = {.name = "stable",
                      .summary = "C(r) = s2 exp(-(r/length)^alpha), 0 < alpha <= 2 (GSTools' Stable)",
                      .takes = PCOV | TBRF_PARAM_ALPHA,
                      .needs = TBRF_PARAM_LENGTH | TBRF_PARAM_ALPHA, .listed = 1, .cov_kind = 1,
                      .make = make_covariance, .covariance = stable_covariance,
                      .line_covariance = stable_line_covariance,
                      .correlation_scale = stable_scale, .tail_slope = stable_slope,
                      .check = stable_check},
    [MODEL_RATIONAL] = {.name = "rational",
                        .summary = "C(r) = s2 (1 + (r/length)^2/alpha)^-alpha (GSTools' Rational)",
                        .takes = PCOV | TBRF_PARAM_ALPHA,
                        .needs = TBRF_PARAM_LENGTH | TBRF_PARAM_ALPHA, .listed = 1, .cov_kind = 1,
                        .make = make_covariance, .spectrum = rational_spectrum,
                        .covariance = rational_covariance, .line_spectrum = rational_line_spectrum,
                        .line_covariance = rational_line_covariance,
                        .correlation_scale = rational_scale, .check = rational_check},
};
#define NKINDS ((int)(sizeof KINDS / sizeof KINDS[0]))

const struct kind_row *tbrfi_kind_row(int kind)
{
    return kind >= 0 && kind < NKINDS ? &KINDS[kind] : NULL;
}

int tbrfi_kind_count(void) { return NKINDS; }
