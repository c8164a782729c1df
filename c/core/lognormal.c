/* lognormal.c — the Gaussian spectrum behind a lognormal density whose
 * contrast has a given spectrum (Coles & Jones 1991), and the variance of
 * ln rho of a turbulent cloud (Federrath et al. 2008, 2010).
 *
 * rho/rho_mean = exp(g - sigma_g^2/2) of a Gaussian g with covariance
 * xi_g has contrast delta = rho/rho_mean - 1 with covariance
 * xi_d = exp(xi_g) - 1, so the g that gives delta the model's covariance
 * has xi_g = ln(1 + xi_d). Its spectrum is computed as
 *   P_g = P_d + F[h],  h(r) = ln(1 + xi_d(r)) - xi_d(r),
 * because P_d is the model's own (exact) and h, of second order in xi_d,
 * decays much faster than xi_g itself, so the one numerical transform is
 * of a short-ranged function (doc/lognormal.md: the accuracy). xi_d comes
 * from the model (closed forms, or its tested Hankel quadrature); F[h] is
 * a trapezoid sum over r, 8 points per period of the table's highest k,
 * tapered by cos^2 over [rmax/2, rmax] so that the truncation rings
 * nowhere: xi_g is exact for r <= rmax/2. Everything is a pure function
 * of the arguments (threads only split independent samples), so a file
 * regenerates bitwise. */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE /* j0 from math.h */
#endif
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/model.h"
#include "core/radial.h"

static const double PI = 3.14159265358979323846;

/* Rows of the derived table per decade of k, and the most r samples. */
#define ROWS_PER_DECADE 128
#define MAX_R_SAMPLES ((size_t)1 << 20)

double tbrf_lognormal_sigma2_mach(double mach, double b)
{
    if (!(mach >= 0.0) || !(b > 0.0) || !isfinite(mach) || !isfinite(b))
        return NAN;
    return log1p(b * b * mach * mach);
}

/* A failed model that carries the message (the constructors' convention:
 * *out holds a failed model, for its message). */
static int refuse(tbrf_model **out, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int refuse(tbrf_model **out, int status, const char *fmt, ...)
{
    const double k[2] = {1.0, 2.0}, p[2] = {0.0, 0.0};
    if (tbrf_model_table(2, k, p, out) != TBRF_OK || !*out)
        return status;
    va_list ap;
    va_start(ap, fmt);
    tbrfi_failv(&(*out)->msg, status, fmt, ap);
    va_end(ap);
    (*out)->status = status;
    snprintf((*out)->description, sizeof (*out)->description, "lognormal table (invalid)");
    return status;
}


/* The rows' wavenumbers: ROWS_PER_DECADE per decade over [kmin, kmax],
 * and the model's own range ends (each with a row just below and above,
 * so the table keeps a cut's jump instead of smearing it over a row).
 * Returns the count (<= cap) in k[], increasing. */
static size_t table_ks(const tbrf_model *d, double kmin, double kmax, double *k, size_t cap)
{
    size_t n = (size_t)ceil(ROWS_PER_DECADE * log10(kmax / kmin));
    n = n < 16 ? 16 : n;
    double ends[4] = {d->kmin * (1.0 - 1e-9), d->kmin * (1.0 + 1e-9), d->kmax * (1.0 - 1e-9),
                      d->kmax * (1.0 + 1e-9)};
    size_t m = 0, e = 0;
    for (size_t i = 0; i <= n && m < cap; i++) {
        const double x = i == n ? kmax : kmin * pow(kmax / kmin, (double)i / (double)n);
        for (; e < 4 && m < cap && ends[e] < x; e++)
            if (ends[e] > kmin && (m == 0 || ends[e] > k[m - 1]))
                k[m++] = ends[e];
        if (m < cap && (m == 0 || x > k[m - 1]))
            k[m++] = x;
    }
    return m;
}

/* The variance (1/2pi^2)∫k^2 |P| dk (3D) or (1/2pi)∫k |P| dk (2D) of the
 * negative rows of a log-log table (trapezoid in ln k). */
static double negative_variance(const double *k, const double *p, size_t n, int dim)
{
    double s = 0.0;
    for (size_t i = 0; i + 1 < n; i++) {
        const double a = p[i] < 0 ? -p[i] * pow(k[i], dim) : 0.0;
        const double b = p[i + 1] < 0 ? -p[i + 1] * pow(k[i + 1], dim) : 0.0;
        s += 0.5 * (a + b) * log(k[i + 1] / k[i]);
    }
    return s / (dim == 3 ? 2.0 * PI * PI : 2.0 * PI);
}

/* xi_d on the r grid (h = ln(1 + xi_d) - xi_d, tapered, into h[]); 0, or
 * the index + 1 of the first r where 1 + xi_d <= 0 (no lognormal there).
 * The samples are independent (threads change no value). */
static size_t fill_h(const tbrf_model *d, int dim, double dr, double rmax, double *h, size_t nr)
{
    const long long n = (long long)nr;
#pragma omp parallel for schedule(dynamic, 16)
    for (long long j = 0; j < n; j++)
        h[j] = tbrf_model_covariance(d, dim, (double)j * dr);
    for (size_t j = 0; j < nr; j++) {
        const double xi = h[j];
        if (!(1.0 + xi > 0.0))
            return j + 1;
        h[j] = (log1p(xi) - xi) * tbrfi_radial_taper((double)j * dr, rmax);
    }
    return 0;
}

int tbrf_model_lognormal(const tbrf_model *density, int dim, double kmin, double kmax, double rmax,
                         double max_lost, double *lost, tbrf_model **gaussian)
{
    if (!gaussian || !density || !lost)
        return TBRF_ERR_NULL;
    *gaussian = NULL;
    *lost = NAN;
    if (density->status != TBRF_OK)
        return refuse(gaussian, TBRF_ERR_INVALID, "lognormal: the density model is invalid (%s)",
                      tbrf_model_message(density));
    if ((dim != 2 && dim != 3) || !(kmin > 0.0) || !(kmax > kmin) || !isfinite(kmax) ||
        !(rmax > 0.0) || !isfinite(rmax) || !(max_lost >= 0.0))
        return refuse(gaussian, TBRF_ERR_INVALID,
                      "lognormal: needs dim 2 or 3, 0 < kmin < kmax finite, rmax > 0 finite and "
                      "max_lost >= 0 (dim %d, kmin %g, kmax %g, rmax %g, max_lost %g)",
                      dim, kmin, kmax, rmax, max_lost);
    const double var_d = tbrf_model_variance(density, dim);
    if (!(var_d > 0.0) || !isfinite(var_d))
        return refuse(gaussian, TBRF_ERR_INVALID,
                      "lognormal: the density contrast's variance %g is not finite and positive",
                      var_d);
    const double dr = PI / (4.0 * kmax);
    const double nrd = ceil(rmax / dr) + 1.0;
    uint64_t budget = 0;
    tbrf_memory_budget(&budget);
    if (nrd > (double)MAX_R_SAMPLES || nrd * sizeof(double) > (double)budget)
        return refuse(gaussian, TBRF_ERR_SIZE,
                      "lognormal: rmax kmax = %g asks for %.3g samples of the correlation, more "
                      "than %zu (or the memory budget)", rmax * kmax, nrd, MAX_R_SAMPLES);
    const size_t nr = (size_t)nrd, cap = (size_t)(ROWS_PER_DECADE * log10(kmax / kmin)) + 32;
    double *h = malloc(nr * sizeof *h), *k = malloc(cap * sizeof *k), *p = malloc(cap * sizeof *p);
    int st = TBRF_OK;
    size_t bad;
    if (!h || !k || !p) {
        st = TBRF_ERR_NO_MEMORY;
    } else if ((bad = fill_h(density, dim, dr, rmax, h, nr)) != 0) {
        st = refuse(gaussian, TBRF_ERR_INVALID,
                    "lognormal: the contrast's correlation reaches %g <= -1 at r = %g: no "
                    "lognormal density has it (rho would be negative)",
                    tbrf_model_covariance(density, dim, (double)(bad - 1) * dr),
                    (double)(bad - 1) * dr);
    } else {
        const size_t n = table_ks(density, kmin, kmax, k, cap);
        for (size_t i = 0; i < n; i++)
            p[i] = tbrf_model_spectrum(density, dim, k[i]) + tbrfi_radial_transform(h, nr, dr, dim, k[i]);
        const double var_g = log1p(var_d);
        *lost = negative_variance(k, p, n, dim) / var_g;
        if (!(*lost <= max_lost)) {
            st = refuse(gaussian, TBRF_ERR_INVALID,
                        "lognormal: no non-negative Gaussian spectrum gives this density "
                        "spectrum: clipping its negative part would lose %.3g%% of the "
                        "Gaussian's variance (at most %.3g%% allowed); lower the variance or "
                        "widen the spectrum", 100.0 * *lost, 100.0 * max_lost);
        } else {
            for (size_t i = 0; i < n; i++)
                p[i] = p[i] > 0.0 ? p[i] : 0.0;
            st = tbrf_model_table(n, k, p, gaussian);
            if (st == TBRF_OK)
                st = tbrf_model_set_variance(*gaussian, var_g);
            /* ln(1 + xi_d) of the scaled distance is xi_g of the same
             * distance: the density's anisotropy carries over unchanged */
            double sc[3], an[3];
            if (st == TBRF_OK && tbrf_model_anisotropy(density, sc, an) == TBRF_OK &&
                (sc[0] != 1.0 || sc[1] != 1.0 || sc[2] != 1.0 || an[0] != 0.0 || an[1] != 0.0 ||
                 an[2] != 0.0))
                st = tbrf_model_set_anisotropy(*gaussian, sc, an);
        }
    }
    free(h);
    free(k);
    free(p);
    return st;
}
