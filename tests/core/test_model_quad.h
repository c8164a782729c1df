/* test_model_quad.h — independent quadrature for the model tests: globally
 * adaptive Gauss-Kronrod (G7/K15), semi-infinite tails by k = K/u, and
 * oscillatory tails by half-period intervals summed with repeated
 * averaging (Euler's transform of the alternating series). Deliberately
 * different from the library's fixed Gauss-Legendre pieces. */
#ifndef TEST_MODEL_QUAD_H
#define TEST_MODEL_QUAD_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

typedef double (*qf)(double x, void *ctx);

static const double gk_x[8] = {
    0.991455371120812639206854697526329, 0.949107912342758524526189684047851,
    0.864864423359769072789712788640926, 0.741531185599394439863864773280788,
    0.586087235467691130294144845693013, 0.405845151377397166906606412076961,
    0.207784955007898467600689403773245, 0.0};
static const double gk_wk[8] = {
    0.022935322010529224963732008058970, 0.063092092629978553290700663189204,
    0.104790010322250183839876322541518, 0.140653259715525918745189590510238,
    0.169004726639267902826583426598550, 0.190350578064785409913256402421014,
    0.204432940075298892414161999234649, 0.209482141084727828012999174891714};
static const double gk_wg[4] = { /* Gauss 7 on gk_x[1], [3], [5], [7] */
    0.129484966168869693270611432679082, 0.279705391489276667901467771423780,
    0.381830050505118944950369775488975, 0.417959183673469387755102040816327};

static void gk15(qf f, void *c, double a, double b, double *res, double *err)
{
    double m = 0.5 * (a + b), h = 0.5 * (b - a);
    double fc = f(m, c), k = gk_wk[7] * fc, g = gk_wg[3] * fc;
    for (int i = 0; i < 7; i++) {
        double s = f(m - h * gk_x[i], c) + f(m + h * gk_x[i], c);
        k += gk_wk[i] * s;
        if (i % 2 == 1)
            g += gk_wg[i / 2] * s;
    }
    *res = k * h;
    *err = fabs((k - g) * h);
}

#define QMAX 4000
/* ∫_a^b f, bisecting the interval with the largest error estimate until
 * the summed estimate is below max(abstol, reltol |I|). */
static double quad(qf f, void *c, double a, double b, double abstol, double reltol)
{
    if (!(b > a))
        return 0.0;
    /* heap, not static: quad is called from inside its own integrands */
    double *mem = malloc(4 * QMAX * sizeof *mem);
    if (!mem) {
        printf("test: out of memory\n");
        exit(2);
    }
    double *lo = mem, *hi = mem + QMAX, *val = mem + 2 * QMAX, *er = mem + 3 * QMAX;
    int n = 1;
    lo[0] = a;
    hi[0] = b;
    gk15(f, c, a, b, &val[0], &er[0]);
    for (;;) {
        double tot = 0.0, terr = 0.0;
        int w = 0;
        for (int i = 0; i < n; i++) {
            tot += val[i];
            terr += er[i];
            if (er[i] > er[w])
                w = i;
        }
        double m = 0.5 * (lo[w] + hi[w]);
        if (terr <= abstol || terr <= reltol * fabs(tot) || n + 1 >= QMAX ||
            !(m > lo[w] && m < hi[w])) {
            free(mem);
            return tot;
        }
        lo[n] = m;
        hi[n] = hi[w];
        hi[w] = m;
        gk15(f, c, lo[w], hi[w], &val[w], &er[w]);
        gk15(f, c, lo[n], hi[n], &val[n], &er[n]);
        n++;
    }
}

/* ∫_K^∞ f by k = K/u, u in (0, 1]. */
typedef struct tailctx { qf f; void *c; double K; } tailctx;
static double tail_fn(double u, void *vc)
{
    tailctx *t = vc;
    double k = t->K / u;
    return t->f(k, t->c) * t->K / (u * u);
}
static double quad_tail(qf f, void *c, double K, double abstol)
{
    tailctx t = {f, c, K};
    return quad(tail_fn, &t, 0.0, 1.0, abstol, 1e-14);
}

/* ∫_K^∞ f for f oscillating with half period hp (amplitude smooth and
 * decaying): 60 half-period pieces, partial sums averaged 30 times. */
static double quad_osc_tail(qf f, void *c, double K, double hp, double abstol)
{
    enum { N = 60, D = 30 };
    double S[N], s = 0.0;
    for (int j = 0; j < N; j++) {
        s += quad(f, c, K + j * hp, K + (j + 1) * hp, abstol * 1e-2, 1e-15);
        S[j] = s;
    }
    double t[D + 1];
    for (int i = 0; i <= D; i++)
        t[i] = S[N - 1 - D + i];
    for (int lev = 0; lev < D; lev++)
        for (int i = 0; i < D - lev; i++)
            t[i] = 0.5 * (t[i] + t[i + 1]);
    return t[0];
}

#endif
