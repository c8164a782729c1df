/* projection.c — the per-line grid constants every backend starts from.
 * One function for the CPU, OpenCL and CUDA backends, so all three index
 * the lines with the same doubles (the GPU kernels then reproduce the CPU
 * coordinate t = fma(i, c1, (c0 + k c3) + j c2) operation for operation).
 * The constants are those of the global grid's origin and (i, j, k) are
 * global indices, so a sub-box's cells get the whole grid's bits. */
#include <stdlib.h>

#include "backends/backend.h"

double *tbrfi_projection_grid_constants(const projection *p, const grid_geom *g)
{
    double *c = malloc(sizeof(double) * 4 * (size_t)p->L);
    if (!c)
        return NULL;
    for (int l = 0; l < p->L; l++) {
        const double *a = p->axis + 3 * l;
        double base = 0.0;
        for (int d = 0; d < p->dim; d++)
            base += (g->origin[d] - p->center[d]) * a[d];
        c[4 * l] = base + (p->offset + p->axis[3 * p->L + l]);
        c[4 * l + 1] = g->spacing[0] * a[0];
        c[4 * l + 2] = g->spacing[1] * a[1];
        c[4 * l + 3] = p->dim == 3 ? g->spacing[2] * a[2] : 0.0;
    }
    return c;
}
