/* ou_tree.c — the OU coefficients by random access in time (ou_tree.h;
 * the construction and its exactness in doc/driving.md, "Time").
 *
 * For a stationary AR(1) sequence of unit variance and lag-one correlation
 * f = e^{-lambda}, X(l + h) given X(l) and X(l + 2h) is Gaussian (the
 * Markov property makes the two ends all that matters) with
 *   mean (X(l) + X(l + 2h)) / (2 cosh(h lambda)),  variance tanh(h lambda),
 * which is a f^h (X(l) + X(r)) / (1 + f^{2h}) and (1 - f^{2h}) / (1 + f^{2h})
 * written so that neither f -> 1 (tanh of a small argument keeps its
 * relative precision) nor f^h underflowing (cosh -> inf: the mean -> 0, the
 * variance -> 1) loses anything. Every real here has variance 1/2 (the
 * noise is scaled by 1/sqrt 2), so a complex pair has E|a|^2 = 1. */
#include "apps/driving/ou_tree.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/parallel.h"
#include "tbrf/rng/philox.h"

/* Fewer processes run on one thread (as the driver's other loops). */
#define PAR_PROCESSES 4096

double tbrfi_ou_bytes(int64_t n, int nc, int levels)
{
    return 8.0 * (double)n * (double)nc * (2.0 + (double)levels) + 8.0 * (double)levels;
}

/* The noise of process i at node j: nc standard normals times 1/sqrt 2. */
static void noise(const ou_tree *t, int64_t i, int64_t j, double *xi)
{
    uint32_t w0 = (uint32_t)i;
    if (t->m) {
        const int32_t *m = t->m + 3 * i;
        w0 = (uint32_t)(m[0] + 512) | ((uint32_t)(m[1] + 512) << 10) | ((uint32_t)(m[2] + 512) << 20);
    }
    double g[8];
    tbrf_philox_normal4(t->seed, (uint64_t)j, w0, t->w1, g);
    if (t->nc > 4)
        tbrf_philox_normal4(t->seed, (uint64_t)j, w0, t->w1 + 1u, g + 4);
    for (int c = 0; c < t->nc; c++)
        xi[c] = g[c] * 0.70710678118654752440;
}

/* X(mid) of every process from its interval's ends l, r, half-length 2^e. */
static void bridge(const ou_tree *t, int e, int64_t mid, const double *l, const double *r, double *out)
{
    const double mu = t->mu[e], sd = t->sd[e];
    const int nc = t->nc;
#pragma omp parallel for schedule(static) num_threads(tbrf_threads(t->threads)) if (t->n >= PAR_PROCESSES)
    for (int64_t i = 0; i < t->n; i++) {
        double xi[8];
        noise(t, i, mid, xi);
        for (int c = 0; c < nc; c++) {
            const int64_t k = i * nc + c;
            out[k] = mu * (l[k] + r[k]) + sd * xi[c];
        }
    }
}

int tbrfi_ou_init(ou_tree *t, uint64_t seed, int64_t n, int nc, const int32_t *m, uint32_t w1,
                  double lambda, int levels, int threads)
{
    memset(t, 0, sizeof *t);
    t->seed = seed;
    t->n = n;
    t->nc = nc;
    t->m = m;
    t->w1 = w1;
    t->threads = threads;
    t->levels = levels;
    t->blk = -1;
    for (int e = 0; e < TBRF_OU_DEPTH; e++) {
        const double x = ldexp(lambda, e); /* h lambda, h = 2^e: exact */
        t->mu[e] = 0.5 / cosh(x);
        t->sd[e] = sqrt(tanh(x));
    }
    const double xN = ldexp(lambda, TBRF_OU_DEPTH);
    t->rootf = exp(-xN);
    t->rootsd = sqrt(-expm1(-2.0 * xN));
    const size_t state = (size_t)n * (size_t)nc;
    t->pool[0] = malloc(sizeof(double) * state);
    t->pool[1] = malloc(sizeof(double) * state);
    t->lv = malloc(sizeof(double) * state * (size_t)levels);
    t->lidx = malloc(sizeof(int64_t) * (size_t)levels);
    if (!t->pool[0] || !t->pool[1] || !t->lv || !t->lidx)
        return -1;
    t->pool[2] = t->lv; /* the block's first level: free while a bracket is drawn */
    return 0;
}

/* The roots: X(0) ~ N(0, 1/2) into x0, X(N) | X(0) ~ N(f^N X(0), (1 -
 * f^{2N}) / 2) into xn (either may be NULL). Drawn again when needed: two
 * draws against the 48 bridges of a bracket. */
static void roots(const ou_tree *t, double *x0, double *xn)
{
    const int nc = t->nc;
    for (int64_t i = 0; i < t->n; i++) {
        double a[8], b[8];
        noise(t, i, 0, a);
        noise(t, i, TBRF_OU_UPDATES, b);
        for (int c = 0; c < nc; c++) {
            if (x0)
                x0[i * nc + c] = a[c];
            if (xn)
                xn[i * nc + c] = t->rootf * a[c] + t->rootsd * b[c];
        }
    }
}

/* Makes block b (indices b 2^levels .. (b + 1) 2^levels) the cached one:
 * its ends from the roots down, through the three pool buffers (the third
 * is the block's first level, whose node is drawn again afterwards). */
static void bracket(ou_tree *t, int64_t b)
{
    const int64_t target = b << t->levels;
    int64_t l = 0;
    roots(t, t->pool[0], t->pool[1]);
    double *vl = t->pool[0], *vr = t->pool[1];
    for (int e = TBRF_OU_DEPTH - 1; e >= t->levels; e--) {
        const int64_t mid = l + ((int64_t)1 << e);
        double *out = t->pool[0];
        for (int k = 0; k < 3; k++)
            if (t->pool[k] != vl && t->pool[k] != vr) {
                out = t->pool[k];
                break;
            }
        bridge(t, e, mid, vl, vr, out);
        if (target < mid) {
            vr = out;
        } else {
            l = mid;
            vl = out;
        }
    }
    /* the ends in pool[0], pool[1]: the first level is the cache's */
    double *spare = vl != t->pool[0] && vr != t->pool[0] ? t->pool[0] : t->pool[1];
    if (vl == t->lv) {
        memcpy(spare, vl, sizeof(double) * (size_t)t->nc * (size_t)t->n);
        vl = spare;
    } else if (vr == t->lv) {
        memcpy(spare, vr, sizeof(double) * (size_t)t->nc * (size_t)t->n);
        vr = spare;
    }
    t->bl = vl;
    t->br = vr;
    t->blk = b;
    for (int q = 0; q < t->levels; q++)
        t->lidx[q] = -1;
}

void tbrfi_ou_value(ou_tree *t, int64_t j, double *out)
{
    const size_t bytes = sizeof(double) * (size_t)t->nc * (size_t)t->n;
    if (j >= TBRF_OU_UPDATES) {
        roots(t, NULL, out);
        return;
    }
    const int C = t->levels;
    const int64_t b = j >> C;
    if (b != t->blk)
        bracket(t, b);
    int64_t l = b << C;
    const double *vl = t->bl, *vr = t->br;
    if (j == l) {
        memcpy(out, vl, bytes);
        return;
    }
    /* down the block: a node's value is unique to its index, so a cached
     * index is its value whatever path computed it */
    for (int q = 0;; q++) {
        const int e = C - 1 - q;
        const int64_t mid = l + ((int64_t)1 << e);
        double *vm = t->lv + (size_t)q * (size_t)t->nc * (size_t)t->n;
        if (t->lidx[q] != mid) {
            bridge(t, e, mid, vl, vr, vm);
            t->lidx[q] = mid;
        }
        if (mid == j) {
            memcpy(out, vm, bytes);
            return;
        }
        if (j < mid) {
            vr = vm;
        } else {
            l = mid;
            vl = vm;
        }
    }
}

void tbrfi_ou_free(ou_tree *t)
{
    free(t->pool[0]);
    free(t->pool[1]);
    free(t->lv);
    free(t->lidx);
    memset(t, 0, sizeof *t);
}
