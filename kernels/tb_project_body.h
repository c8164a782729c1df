/* tb_project_body.h — the turning-bands projection, one output value per
 * work-item, shared verbatim by OpenCL C (kernels/tb_project.cl) and CUDA
 * (kernels/tb_project.cu). Its qualifiers, integer types and double
 * operations are those of tbrf/rng/features.h (TBRF_DEVICE_FN,
 * TBRF_GLOBAL, TBRF_INT64, TBRF_FP64, TBRF_DADD, TBRF_DMUL, TBRF_DFMA):
 * with the last three the double kernels do the CPU backend's operations
 * in its order, fusing a multiply-add exactly where it does, so every
 * backend gives the same bits.
 *
 * Summation order over lines is 0..L-1 whatever the unroll factor U (the
 * unrolled loop only removes loop overhead), so a value never depends on
 * the work-group size, unroll factor or chunking.
 *
 * Float kernels keep lines and accumulators in float but compute the line
 * index exactly: grids in 32.32 fixed point (64-bit integers, no double
 * needed), points in double where the device has it. A float index alone
 * would lose ~M * 6e-8 samples of position (about 1e-4 in the value for
 * 8192-sample lines). */
#ifndef TBRF_TB_PROJECT_BODY_H
#define TBRF_TB_PROJECT_BODY_H

#ifndef TBRF_RNG_FEATURES_H /* skipped when the sources are concatenated */
#include "tbrf/rng/features.h"
#endif

#define TB_FIX_SCALE 2.3283064365386962890625e-10f /* 2^-32 */

/* ------------------------------------------------------------ float grid */
/* lc[4l..4l+3]: per-line 32.32 fixed-point constants (base + offset, then
 * the index steps per cell along x, y, z). */
TBRF_DEVICE_FN float tb_line_f(const TBRF_GLOBAL float *y, TBRF_INT64 t)
{
    TBRF_INT64 j = t >> 32;
    float f = (float)(uint32_t)(t & 0xffffffffL) * TB_FIX_SCALE;
    float a = y[j];
    return a + f * (y[j + 1] - a);
}

/* Line l's value at cell (i, j, k). */
TBRF_DEVICE_FN float tb_grid_line_f(const TBRF_GLOBAL float *lines, const TBRF_GLOBAL TBRF_INT64 *lc, int l,
                               TBRF_INT64 M, TBRF_INT64 i, TBRF_INT64 j, TBRF_INT64 k)
{
    const TBRF_GLOBAL TBRF_INT64 *c = lc + 4 * l;
    return tb_line_f(lines + (TBRF_INT64)l * M, c[0] + k * c[3] + j * c[2] + i * c[1]);
}

TBRF_DEVICE_FN float tb_grid_cell_f(const TBRF_GLOBAL float *lines, const TBRF_GLOBAL TBRF_INT64 *lc, int L,
                               TBRF_INT64 M, TBRF_INT64 i, TBRF_INT64 j, TBRF_INT64 k, const int U)
{
    float acc = 0.0f;
    int l = 0;
    for (; l + U <= L; l += U)
        for (int u = 0; u < U; u++)
            acc += tb_grid_line_f(lines, lc, l + u, M, i, j, k);
    for (; l < L; l++)
        acc += tb_grid_line_f(lines, lc, l, M, i, j, k);
    return acc;
}

#ifdef TBRF_FP64
/* ----------------------------------------------------------- double grid */
TBRF_DEVICE_FN double tb_line_d(const TBRF_GLOBAL double *y, double t)
{
    TBRF_INT64 j = (TBRF_INT64)t;
    double f = TBRF_DADD(t, -(double)j);
    double a = y[j];
    return TBRF_DFMA(f, TBRF_DADD(y[j + 1], -a), a);
}

/* Line l's value at cell (i, j, k); lc[4l..4l+3]: base + offset, step x,
 * step y, step z (as the CPU backend): t = fma(i, c1, (c0 + k c3) + j c2). */
TBRF_DEVICE_FN double tb_grid_line_d(const TBRF_GLOBAL double *lines, const TBRF_GLOBAL double *lc, int l,
                                TBRF_INT64 M, double i, double j, double k)
{
    const TBRF_GLOBAL double *c = lc + 4 * l;
    double t = TBRF_DFMA(i, c[1], TBRF_DADD(TBRF_DADD(c[0], TBRF_DMUL(k, c[3])), TBRF_DMUL(j, c[2])));
    return tb_line_d(lines + (TBRF_INT64)l * M, t);
}

TBRF_DEVICE_FN double tb_grid_cell_d(const TBRF_GLOBAL double *lines, const TBRF_GLOBAL double *lc, int L,
                                TBRF_INT64 M, double i, double j, double k, const int U)
{
    double acc = 0.0;
    int l = 0;
    for (; l + U <= L; l += U)
        for (int u = 0; u < U; u++)
            acc = TBRF_DADD(acc, tb_grid_line_d(lines, lc, l + u, M, i, j, k));
    for (; l < L; l++)
        acc = TBRF_DADD(acc, tb_grid_line_d(lines, lc, l, M, i, j, k));
    return acc;
}

/* ---------------------------------------------------------------- points */
/* Index of a point on line l: fma(dz, az, fma(dy, ay, dx ax)) + offset (as
 * the CPU backend), in double for both precisions. The line's offset is
 * the plan's offset plus the line's sub-sample shift, axis[3L + l]
 * (backend.h): offset + axis[3L + l], one double add, as on the CPU. */
TBRF_DEVICE_FN double tb_point_t(const TBRF_GLOBAL double *a, double dx, double dy, double dz, double offset)
{
    return TBRF_DADD(TBRF_DFMA(dz, a[2], TBRF_DFMA(dy, a[1], TBRF_DMUL(dx, a[0]))), offset);
}

TBRF_DEVICE_FN double tb_point_d(const TBRF_GLOBAL double *lines, const TBRF_GLOBAL double *axis, int L,
                            TBRF_INT64 M, double dx, double dy, double dz, double offset, const int U)
{
    double acc = 0.0;
    int l = 0;
    for (; l + U <= L; l += U)
        for (int u = 0; u < U; u++)
            acc = TBRF_DADD(acc, tb_line_d(lines + (TBRF_INT64)(l + u) * M,
                                         tb_point_t(axis + 3 * (l + u), dx, dy, dz,
                                                    TBRF_DADD(offset, axis[3 * L + l + u]))));
    for (; l < L; l++)
        acc = TBRF_DADD(acc, tb_line_d(lines + (TBRF_INT64)l * M,
                                     tb_point_t(axis + 3 * l, dx, dy, dz, TBRF_DADD(offset, axis[3 * L + l]))));
    return acc;
}

TBRF_DEVICE_FN float tb_line_fd(const TBRF_GLOBAL float *y, double t)
{
    TBRF_INT64 j = (TBRF_INT64)t;
    float f = (float)(t - (double)j);
    float a = y[j];
    return a + f * (y[j + 1] - a);
}

TBRF_DEVICE_FN float tb_point_f(const TBRF_GLOBAL float *lines, const TBRF_GLOBAL double *axis, int L,
                           TBRF_INT64 M, double dx, double dy, double dz, double offset, const int U)
{
    float acc = 0.0f;
    int l = 0;
    for (; l + U <= L; l += U)
        for (int u = 0; u < U; u++)
            acc += tb_line_fd(lines + (TBRF_INT64)(l + u) * M,
                              tb_point_t(axis + 3 * (l + u), dx, dy, dz, TBRF_DADD(offset, axis[3 * L + l + u])));
    for (; l < L; l++)
        acc += tb_line_fd(lines + (TBRF_INT64)l * M,
                          tb_point_t(axis + 3 * l, dx, dy, dz, TBRF_DADD(offset, axis[3 * L + l])));
    return acc;
}
#endif
#endif
