/* example_periodic.c — a periodic box evaluated anywhere: a solenoidal
 * vector field of a Gaussian covariance over the unit box with 64^3 modes,
 * at moving particles (NUFFT, positions wrapped into the box) and on one
 * rank's slab of the box lattice; the whole lattice would run the FFT
 * method. */
#include <stdio.h>
#include <stdlib.h>

#include "tbrf.h"

int main(void)
{
    tbrf_model *model = NULL;
    tbrf_model_gaussian(0.1, &model);
    tbrf_opts opts;
    tbrf_default_opts(&opts);
    opts.vector = TBRF_VECTOR_SOLENOIDAL; /* 3 values per point */
    opts.accuracy = 1e-9;                 /* NUFFT relative accuracy */
    const double origin[3] = {0, 0, 0}, length[3] = {1, 1, 1};
    const int64_t n[3] = {64, 64, 64};
    tbrf_plan *plan = NULL;
    int status = tbrf_make_periodic_plan(model, 3, origin, length, n, 2026, &opts, &plan);

    enum { NP = 1000 };
    double *xyz = malloc(sizeof(double) * 3 * NP), *v = malloc(sizeof(double) * 3 * NP);
    for (int step = 0; status == TBRF_OK && step < 3; step++) {
        for (int i = 0; i < 3 * NP; i++) /* particles drift out of the box: they wrap */
            xyz[i] = (double)((i * 7919) % 1000) / 1000.0 + 0.3 * step;
        status = tbrf_set_points(plan, NP, xyz);
        if (status == TBRF_OK) /* realization 0 stays cached: only the interpolation runs */
            status = tbrf_execute(plan, 0, v);
        if (status == TBRF_OK)
            printf("step %d: v(point 0) = (%.6f, %.6f, %.6f), method %d\n", step, v[0], v[1], v[2],
                   tbrf_plan_method(plan));
    }

    /* this rank's slab: z cells 16..31 of the box lattice */
    const double slab_origin[3] = {0, 0, 16.0 / 64}, h[3] = {1.0 / 64, 1.0 / 64, 1.0 / 64};
    const int64_t slab_n[3] = {64, 64, 16};
    double *slab = malloc(sizeof(double) * 3 * 64 * 64 * 16);
    if (status == TBRF_OK)
        status = tbrf_set_grid(plan, slab_origin, h, slab_n);
    if (status == TBRF_OK)
        status = tbrf_execute(plan, 0, slab); /* slab[3 * cell + component] */
    if (status == TBRF_OK)
        printf("slab: v(0, 0, 16) = (%.6f, %.6f, %.6f)\n", slab[0], slab[1], slab[2]);
    if (status != TBRF_OK)
        fprintf(stderr, "%s\n", tbrf_plan_message(plan));
    tbrf_destroy(plan);
    tbrf_model_destroy(model);
    free(xyz);
    free(v);
    free(slab);
    return status == TBRF_OK ? 0 : 1;
}
