/* ref_c.c — C side of the Fortran tests: reference values computed through
 * the C API directly, so the Fortran tests can compare bit for bit. (The
 * struct layouts come from layout_c.c, generated at build time.) */
#include <stddef.h>
#include <stdint.h>

#include "tbrf.h"

/* Model `which`: 0 = powerlaw(-3, 0.1, 2) with variance 0.5,
 * 1 = Matern(length 2, nu 1.5). Options: 256 lines, the given precision. */
static int make(int which, int dim, const double lo[3], const double hi[3], double res,
                uint64_t seed, int precision, tbrf_plan **plan)
{
    tbrf_model *m = NULL;
    int st = which == 0 ? tbrf_model_powerlaw(-3.0, 0.1, 2.0, &m) : tbrf_model_matern(2.0, 1.5, &m);
    if (st == TBRF_OK && which == 0)
        st = tbrf_model_set_variance(m, 0.5);
    tbrf_opts o;
    tbrf_default_opts(&o);
    o.lines = 256;
    o.precision = precision;
    if (st == TBRF_OK)
        st = tbrf_make_plan(m, dim, lo, hi, res, seed, &o, plan);
    tbrf_model_destroy(m);
    return st;
}

/* Grid: domain [origin, origin + spacing*(n-1)], resolution min spacing. */
int tbrf_ftest_grid(int which, int dim, const int64_t n[3], const double origin[3],
                    const double spacing[3], uint64_t seed, uint64_t realization, int precision,
                    void *out)
{
    double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0}, res = spacing[0];
    for (int c = 0; c < dim; c++) {
        lo[c] = origin[c];
        hi[c] = origin[c] + spacing[c] * (double)(n[c] - 1);
        res = spacing[c] < res ? spacing[c] : res;
    }
    tbrf_plan *p = NULL;
    int st = make(which, dim, lo, hi, res, seed, precision, &p);
    if (st == TBRF_OK)
        st = tbrf_set_grid(p, origin, spacing, n);
    if (st == TBRF_OK)
        st = tbrf_execute(p, realization, out);
    tbrf_destroy(p);
    return st;
}

int tbrf_ftest_points(int which, int dim, int64_t n, const double *xyz, const double lo[3],
                      const double hi[3], double res, uint64_t seed, uint64_t realization,
                      int precision, void *out)
{
    tbrf_plan *p = NULL;
    int st = make(which, dim, lo, hi, res, seed, precision, &p);
    if (st == TBRF_OK)
        st = tbrf_set_points(p, n, xyz);
    if (st == TBRF_OK)
        st = tbrf_execute(p, realization, out);
    tbrf_destroy(p);
    return st;
}

/* The default options as C fills them, to compare with tbrf_default_opts
 * called from Fortran through the bind(C) type. */
void tbrf_ftest_default_opts(tbrf_opts *o) { tbrf_default_opts(o); }
