/* backend.h — the dispatch table through which the plan runs the
 * projection. The CPU backend is always built; OpenCL and CUDA add their
 * own entries when compiled in, and callers never change. */
#ifndef TBRF_BACKEND_H
#define TBRF_BACKEND_H

#include <stdint.h>

/* Everything a backend needs to project synthesised lines onto positions:
 * the value at x is norm * sum_l interp(line_l, t_l(x)) with
 * t_l(x) = (x - center) . axis_l + offset, axis_l = u_l / delta. */
typedef struct projection {
    int dim;
    int L;
    int64_t M;
    const double *lines;  /* L*M samples */
    const double *axis;   /* L*3 */
    double offset;
    double center[3];
    double norm;          /* 1/sqrt(L) */
    int precision;        /* TBRF_DOUBLE or TBRF_FLOAT */
    int threads;
} projection;

typedef struct grid_geom {
    double origin[3], spacing[3];
    int64_t n[3];
} grid_geom;

typedef struct backend_ops {
    int id;
    const char *name;
    /* TBRF_OK, or TBRF_ERR_NO_DEVICE. */
    int (*available)(void);
    /* Cells first..first+count-1 of the grid in x-fastest order into out
     * (out[0] is cell `first`). The value of a cell must not depend on
     * first/count, so streamed chunks equal one-shot evaluation. */
    int (*project_grid)(const projection *p, const grid_geom *g, int64_t first, int64_t count,
                        void *out);
    /* n points xyz[dim*i + c] into out. */
    int (*project_points)(const projection *p, int64_t n, const double *xyz, void *out);
} backend_ops;

extern const backend_ops tbrf_backend_cpu;

/* The table entry for a backend id; NULL with *status = TBRF_ERR_NOT_BUILT
 * (or TBRF_ERR_INVALID for an unknown id). AUTO resolves to the first
 * built backend with a device, GPUs first. */
const backend_ops *backend_lookup(int id, int *status);

#endif
