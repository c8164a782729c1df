/* ic_cosmo.h — set-up shared by the cosmological initial-condition tests
 * (tests/apps/test_ic_physics.c, test_ic_lpt.c): the written-out 3-D DFT
 * the tests check the library's spectra against, making an IC as a
 * checked step, the reference P(k) made independently of the IC, and the
 * periodic difference. Header only; include after check.h. */
#ifndef TBRF_TEST_IC_COSMO_H
#define TBRF_TEST_IC_COSMO_H

#include <complex.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "support/check.h"
#include "tbrf.h"

/* The DFT of an n^3 array (x fastest) in place along each axis with
 * e^{sign i k x}, unnormalised (sign -1: f_k = sum_x f(x) e^{-i k x}). */
static inline void icx_dft3(int n, double complex *f, int sign)
{
    const double pi = 3.14159265358979323846;
    double complex *tw = malloc((size_t)n * sizeof *tw), *line = malloc((size_t)n * sizeof *line);
    for (int j = 0; j < n; j++)
        tw[j] = cexp(sign * 2.0 * pi * I * j / n);
    const int64_t nn = (int64_t)n * n, stride[3] = {1, n, nn};
    for (int ax = 0; ax < 3; ax++)
        for (int64_t b = 0; b < nn; b++) {
            /* the line's start: b runs over the two other axes */
            int64_t o1 = b % n, o2 = b / n;
            int64_t start = ax == 0 ? o1 * n + o2 * nn : ax == 1 ? o1 + o2 * nn : o1 + o2 * n;
            for (int k = 0; k < n; k++) {
                double complex s = 0;
                for (int x = 0; x < n; x++)
                    s += f[start + x * stride[ax]] * tw[(int64_t)k * x % n];
                line[k] = s;
            }
            for (int k = 0; k < n; k++)
                f[start + k * stride[ax]] = line[k];
        }
    free(tw);
    free(line);
}

/* tbrf_ic_cosmo_make as a check: the IC, or NULL (destroyed) after a
 * failed check naming the library's message. */
static inline tbrf_ic_cosmo *icx_make(const tbrf_ic_cosmo_params *p)
{
    tbrf_ic_cosmo *ic = NULL;
    int st = tbrf_ic_cosmo_make(p, &ic);
    CHECK(st == TBRF_OK, "make: %s", tbrf_ic_cosmo_message(ic));
    if (st != TBRF_OK) {
        tbrf_ic_cosmo_destroy(ic);
        return NULL;
    }
    return ic;
}

/* The z = 0 Eisenstein & Hu P(k) of p's cosmology (k in h/Mpc)
 * normalised to p's sigma8, made here independently of the IC. */
static inline tbrf_model *icx_reference_pk(const tbrf_ic_cosmo_params *p)
{
    tbrf_model *p0 = NULL;
    tbrf_model_eisenstein_hu(p->omega_m, p->omega_b, p->hubble, p->n_s, 2.7255, 1, 1e-5, 1e3,
                             &p0);
    tbrf_model_normalize_sigma(p0, 8.0, p->sigma8);
    return p0;
}

/* x - y folded into [-L/2, L/2) */
static inline double icx_dwrap(double d, double box)
{
    return d - box * floor(d / box + 0.5);
}

#endif
