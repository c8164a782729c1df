/* model_quad.c — the model layer's quadrature and its numerical
 * defaults: general quadrature of a spectrum (moments, line-spectrum
 * bins), the Hankel transform of a spectrum into its covariance, and of a
 * covariance into its spectrum, for the rows of the kinds table that give
 * no closed form. Exact power integrals. */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE /* j0 from math.h */
#endif
#include <float.h>
#include <math.h>

#include "core/model_kind.h"
#include "core/special.h"

#define PI TBRFI_PI

/* ----------------------------------------------- exact power integrals */

/* (expm1(e L)) / e, the limit L at e = 0. */
double tbrfi_expm1_over(double e, double L)
{
    return e == 0.0 ? L : expm1(e * L) / e;
}

/* ∫_a^b k^(e-1) dk for 0 <= a <= b; +inf where it diverges at 0. */
double tbrfi_power_integral(double a, double b, double e)
{
    if (!(b > a))
        return 0.0;
    if (a == 0.0)
        return e > 0.0 ? pow(b, e) / e : INFINITY;
    return pow(a, e) * tbrfi_expm1_over(e, log1p((b - a) / a));
}


/* --------------------------------------------- numerical integration */

/* Integrand k^q P0(k) w(k r) for the moments and the Hankel transforms:
 * the kind's spectrum without the band cut (the limits are inside the
 * support wherever it is used). */
typedef struct kctx {
    const tbrf_model *m;
    int dim, q;
    int weight; /* 0: none, 1: sin(kr)/(kr), 2: J0(kr), 3: cos(kr) */
    double r;
    double rtol; /* the adaptive pieces' tolerance (integrate_up) */
} kctx;

static double kfun(double k, const void *vctx)
{
    const kctx *c = vctx;
    const struct kind_row *row = tbrfi_kind_row(c->m->kind);
    double v;
    if (row->radial && c->q == c->dim - 1 && !c->m->band) { /* k^(d-1) P0 directly: finite at k = 0 */
        if (!(k >= c->m->kmin && k <= c->m->kmax))
            return 0.0;
        v = row->radial(c->m, k);
    } else {
        v = tbrfi_kind_spectrum(c->m, c->dim, k);
        if (v == 0.0)
            return 0.0;
        v *= c->q == 1 ? k : c->q == 2 ? k * k : pow(k, c->q);
    }
    switch (c->weight) {
    case 1: {
        const double x = k * c->r;
        return x < 1e-4 ? v * (1.0 - x * x / 6.0) : v * sin(x) / x;
    }
    case 2: return v * j0(k * c->r);
    case 3: return v * cos(k * c->r);
    default: return v;
    }
}


/* ∫_x^y f given whole = GL16 on [x, y]: bisected while the two halves'
 * GL16 differ from it by more than tol (the same tol at every level, so
 * that a kink, whose error shrinks only as the width, still converges;
 * at most `depth` levels). A
 * callback's spectrum may have features (a narrow peak, BAO-like wiggles)
 * much narrower than a piece: one fixed rule per piece then missed or
 * overweighted them, and the variance that sets the amplitude came out up
 * to 35% off the sum over the lines' modes (variance_resolved
 * 1.0049 sigma^2; 1.09 for a peak of width 0.03). */
static double adapt16(tbrf_qfun f, const void *ctx, double x, double y, double whole, double tol,
                      int depth)
{
    const double m = 0.5 * (x + y);
    const double l = tbrf_gl16(f, ctx, x, m), r = tbrf_gl16(f, ctx, m, y);
    if (depth == 0 || !(fabs(l + r - whole) > tol) || !(m > x && m < y))
        return l + r;
    return adapt16(f, ctx, x, m, l, tol, depth - 1) + adapt16(f, ctx, m, y, r, tol, depth - 1);
}

/* ∫_a^b f for 0 < a < b: pieces [x, min(x + min(x, wmax), b)] (ratio at
 * most 2, and no wider than wmax), 16-point Gauss-Legendre on each; for
 * the moments (wmax infinite: variances, line-spectrum bins) each piece is
 * bisected adaptively (adapt16, 16 levels at most) until it agrees with
 * its halves to rtol (1e-14; 1e-10 for the smooth spectra of covariance
 * kinds, whose numerical ones are not exact further) of the sum of
 * |pieces| (at least 1e-300); an interval narrow against a
 * (<= a/4 and <= wmax) takes one 8-point rule. */
static double integrate_up(tbrf_qfun f, const void *ctx, double a, double b, double wmax,
                           double rtol)
{
    if (!(b > a))
        return 0.0;
    if (b - a <= 0.25 * a && b - a <= wmax)
        return tbrf_gl8(f, ctx, a, b);
    if (isfinite(wmax)) { /* Hankel transforms: pieces a quarter period wide */
        double sum = 0.0, x = a;
        while (x < b) {
            double w = x < wmax ? x : wmax;
            double y = x + w;
            if (y >= b || b - y < 1e-9 * w)
                y = b;
            sum += tbrf_gl16(f, ctx, x, y);
            x = y;
        }
        return sum;
    }
    /* Ratio-2 pieces from a > 0 to b < DBL_MAX: fewer than 2100. */
    enum { MAXP = 4096 };
    double piece[MAXP], xs[MAXP + 1], scale = 0.0, sum = 0.0;
    int n = 0;
    for (double x = a; x < b && n < MAXP;) {
        double w = x < wmax ? x : wmax;
        double y = x + w;
        if (y >= b || b - y < 1e-9 * w || n == MAXP - 1)
            y = b;
        xs[n] = x;
        piece[n] = tbrf_gl16(f, ctx, x, y);
        scale += fabs(piece[n]);
        x = xs[++n] = y;
    }
    const double tol = rtol * (scale > 1e-300 ? scale : 1e-300);
    for (int i = 0; i < n; i++)
        sum += adapt16(f, ctx, xs[i], xs[i + 1], piece[i], tol, 16);
    return sum;
}

/* ∫_0^b f: pieces [x/2, x] going down from b (16-point Gauss-Legendre in
 * ln k, exact-ish for power laws) until three pieces in a row add less than
 * 1e-17 of the sum, then [0, x] by plain Gauss-Legendre. +inf if the pieces
 * still matter at k = b 2^-1000 (an integrable singularity so weak that
 * the integral is better called divergent). */
static double integrate_down0(tbrf_qfun f, const void *ctx, double b)
{
    double sum = 0.0, x = b, last = 0.0;
    int small = 0;
    for (int j = 0; j < 1000; j++) {
        double y = 0.5 * x;
        if (!(y > DBL_MIN * 1e6))
            break;
        last = tbrf_gl16_log(f, ctx, y, x);
        sum += last;
        x = y;
        if (fabs(last) <= 1e-17 * fabs(sum)) {
            if (++small >= 3)
                return sum + tbrf_gl16(f, ctx, 0.0, x);
        } else {
            small = 0;
        }
    }
    if (fabs(last) > 1e-8 * fabs(sum))
        return INFINITY;
    return sum + tbrf_gl16(f, ctx, 0.0, x);
}

/* ∫_a^b k^q P0 w(kr) dk for a general (callback) integrand on [a, b] within
 * the support: log-graded near 0, pieces no wider than wmax. */
static double integrate_general(const kctx *c, double a, double b, double wmax)
{
    if (!(b > a))
        return 0.0;
    if (a > 0.0)
        return integrate_up(kfun, c, a, b, wmax, c->rtol);
    double split = b < wmax ? b : wmax;
    return integrate_down0(kfun, c, split) + integrate_up(kfun, c, split, b, wmax, c->rtol);
}

double tbrfi_quad_line_integral(const tbrf_model *m, int dim, double a, double b)
{
    double lo = a, hi = b;
    if (tbrfi_kind_row(m->kind)->range) {
        if (lo < m->kmin)
            lo = m->kmin;
        if (hi > m->kmax)
            hi = m->kmax;
    }
    if (!(hi > lo))
        return 0.0;
    const int cov = tbrfi_kind_row(m->kind)->cov_kind;
    kctx k = {m, dim, dim - 1, 0, 0.0, cov ? 1e-10 : 1e-14};
    /* A covariance kind's spectrum lives near k = 1/length: pieces graded
     * down from far above it would see zeros first and stop early */
    const double mid = cov ? 1.0 / m->par[PAR_LENGTH] : lo;
    if (mid > lo && mid < hi)
        return integrate_general(&k, lo, mid, INFINITY) + integrate_general(&k, mid, hi, INFINITY);
    return integrate_general(&k, lo, hi, INFINITY);
}

/* ------------------------------------- spectrum -> covariance (Hankel) */

/* Hankel transform of the shape spectrum: c ∫ k^(d-1) P0(k) w(kr) dk, with
 * w = sin(kr)/(kr) (3D) or J0(kr) (2D). Pieces at most a quarter period
 * wide (capped at 2e5 pieces over the support), split at the knots of a
 * piecewise spectrum. */
static double hankel_range(const tbrf_model *m, int dim, double r, double lo, double hi)
{
    kctx c = {m, dim, dim - 1, dim == 3 ? 1 : 2, r, 1e-14};
    double wmax = r > 0.0 ? 0.5 * PI / r : INFINITY;
    if (wmax < (hi - lo) / 2e5)
        wmax = (hi - lo) / 2e5;
    const struct kind_row *row = tbrfi_kind_row(m->kind);
    size_t n = 0;
    const double *knot = row->knots ? row->knots(m, &n) : NULL;
    double sum = 0.0;
    if (knot) {
        for (size_t i = 0; i + 1 < n; i++) {
            double a = knot[i] > lo ? knot[i] : lo, b = knot[i + 1] < hi ? knot[i + 1] : hi;
            sum += integrate_general(&c, a, b, wmax);
        }
    } else {
        sum = integrate_general(&c, lo, hi, wmax);
    }
    return tbrfi_variance_factor(dim) * sum;
}

/* Over the spectrum's support. A covariance model cut by a band: its
 * spectrum may be 0 in double above some k length (Gaussian: 60); the
 * Matern family's tail is not, so with no upper cut the transform is the
 * closed form less the part below kmin, where the interval is finite. */
double tbrfi_quad_hankel_covariance(const tbrf_model *m, int dim, double r)
{
    const struct kind_row *row = tbrfi_kind_row(m->kind);
    if (!row->cov_kind) /* a table's kmin/kmax: its range or band */
        return hankel_range(m, dim, r, m->kmin, m->kmax);
    double hi = m->kmax;
    const double top = row->zero_above / m->par[PAR_LENGTH];
    if (row->zero_above > 0.0 && hi > top)
        hi = top;
    if (isfinite(hi))
        return hankel_range(m, dim, r, m->kmin, hi);
    if (!row->covariance)
        return NAN;
    tbrf_model whole = *m; /* the spectrum below kmin, which the band zeroes */
    whole.band = 0;
    return row->covariance(m, r) - hankel_range(&whole, dim, r, 0.0, m->kmin);
}

/* ------------------------------------- covariance -> spectrum (Hankel) */

/* Integrand r^(d-1) C0(r) w(kr) of the spectrum of a covariance. */
typedef struct rctx {
    const tbrf_model *m;
    int dim;
    double k;
} rctx;

static double rfun(double r, const void *vctx)
{
    const rctx *c = vctx;
    const double v = tbrfi_kind_row(c->m->kind)->covariance(c->m, r);
    const double x = c->k * r;
    if (c->dim == 2)
        return r * v * j0(x);
    return r * r * v * (x < 1e-4 ? 1.0 - x * x / 6.0 : sin(x) / x);
}

/* Pieces at most half a period wide over [0, R]: above this many the
 * tail continues the spectrum */
enum { SPEC_PIECES = 4096 };

/* The R where |C0(R)| < 1e-17, from the kind's correlation scale by
 * doublings; NaN when 40 of them do not get there. */
static double covariance_reach(const tbrf_model *m)
{
    const struct kind_row *row = tbrfi_kind_row(m->kind);
    double R = row->correlation_scale ? row->correlation_scale(m) : m->par[PAR_LENGTH];
    for (int i = 0; i < 40 && isfinite(R); i++, R *= 2.0)
        if (fabs(row->covariance(m, R)) < 1e-17)
            return R;
    return NAN;
}

/* The transform at k with its pieces: [0, w] log-graded towards 0 (C0
 * may be singular there, as x^alpha), then pieces w wide. */
static double spectrum_direct(const tbrf_model *m, int dim, double k, double R)
{
    double w = R / 64.0;
    if (k > 0.0 && PI / k < w)
        w = PI / k;
    const rctx c = {m, dim, k};
    double sum = integrate_down0(rfun, &c, w) + integrate_up(rfun, &c, w, R, w, 1e-14);
    sum *= dim == 3 ? 4.0 * PI : 2.0 * PI;
    return sum > 0.0 ? sum : 0.0;
}

void tbrfi_quad_prepare(tbrf_model *m)
{
    const double R = covariance_reach(m);
    m->cache[2] = isfinite(R) ? SPEC_PIECES * PI / R : NAN;
    m->cache[3] = R;
    for (int dim = 2; dim <= 3; dim++)
        m->cache[dim - 2] = isfinite(R) ? spectrum_direct(m, dim, m->cache[2], R) : NAN;
}

double tbrfi_quad_spectrum_from_covariance(const tbrf_model *m, int dim, double k)
{
    const double kc = m->cache[2];
    if (isnan(kc))
        return NAN;
    if (k <= kc)
        return spectrum_direct(m, dim, k, m->cache[3]);
    const struct kind_row *row = tbrfi_kind_row(m->kind);
    const double anchor = m->cache[dim - 2];
    const double s = row->tail_slope ? row->tail_slope(m, dim) : NAN;
    if (isfinite(s))
        return anchor * pow(k / kc, s);
    /* no tail slope: only a spectrum already negligible goes on as 0 */
    return anchor <= 1e-15 * spectrum_direct(m, dim, 0.0, m->cache[3]) ? 0.0 : NAN;
}
