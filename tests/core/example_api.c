/* example_api.c — the complete example of doc/api.md, compiled and run by
 * ctest so the documentation cannot rot. A hydro-style caller: a power-law
 * field on a 64^3 grid, then at cells that move between two steps. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "tbrf.h"

int main(void)
{
    tbrf_model *model = NULL;
    if (tbrf_model_powerlaw(-11.0 / 3.0, 0.1, 2.0, &model) != TBRF_OK) {
        fprintf(stderr, "model: %s\n", tbrf_model_message(model));
        tbrf_model_destroy(model);
        return 1;
    }
    tbrf_model_set_variance(model, 0.25);

    /* The domain every position will lie in, and the resolution to resolve. */
    const double lo[3] = {0, 0, 0}, hi[3] = {63, 63, 63};
    tbrf_opts opts;
    tbrf_default_opts(&opts);
    opts.lines = 512;
    tbrf_plan *plan = NULL;
    int status = tbrf_make_plan(model, 3, lo, hi, 1.0, /*seed*/ 2026, &opts, &plan);
    tbrf_model_destroy(model); /* the plan keeps its own copy */
    if (status != TBRF_OK) {
        fprintf(stderr, "plan: %s (%s)\n", tbrf_strerror(status), tbrf_plan_message(plan));
        tbrf_destroy(plan);
        return 1;
    }

    /* A regular grid: x fastest, so field[k][j][i] in C, field(i,j,k) in Fortran. */
    const double origin[3] = {0, 0, 0}, spacing[3] = {1, 1, 1};
    const int64_t n[3] = {64, 64, 64};
    double *field = malloc(sizeof(double) * 64 * 64 * 64);
    status = tbrf_set_grid(plan, origin, spacing, n);
    if (status == TBRF_OK)
        status = tbrf_execute(plan, /*realization*/ 0, field);

    /* Irregular cells that move: set_points does not copy, so moving them and
     * calling it again costs only a bounds check; the lines of realization 0
     * are reused. */
    enum { NCELL = 1000 };
    double *xyz = malloc(sizeof(double) * 3 * NCELL), values[NCELL];
    for (int i = 0; i < 3 * NCELL; i++)
        xyz[i] = 10.0 + 40.0 * (double)((i * 7919) % 1000) / 1000.0;
    for (int step = 0; status == TBRF_OK && step < 2; step++) {
        status = tbrf_set_points(plan, NCELL, xyz);
        if (status == TBRF_OK)
            status = tbrf_execute(plan, 0, values);
        for (int i = 0; i < 3 * NCELL; i++)
            xyz[i] += 0.01; /* the mesh moves a little: values change a little */
    }
    if (status != TBRF_OK)
        fprintf(stderr, "tbrf: %s (%s)\n", tbrf_strerror(status), tbrf_plan_message(plan));
    else {
        double s2 = 0.0;
        for (int i = 0; i < 64 * 64 * 64; i++)
            s2 += field[i] * field[i];
        printf("grid mean square %.4f (target variance 0.25); last cell value %.4f\n",
               s2 / (64.0 * 64 * 64), values[NCELL - 1]);
    }
    free(field);
    free(xyz);
    tbrf_destroy(plan);
    return status == TBRF_OK ? 0 : 1;
}
