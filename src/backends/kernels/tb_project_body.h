/* tb_project_body.h — the turning-bands projection, one output value per
 * work-item, shared verbatim by OpenCL C (kernels/tb_project.cl) and CUDA
 * (kernels/tb_project.cu). The including file defines:
 *   TB_GLOBAL   address-space qualifier of device buffers (__global / empty)
 *   TB_DEVICE   qualifier of a device function (inline / __device__ inline)
 *   TB_LONG     a 64-bit signed integer type, TB_UINT a 32-bit unsigned one
 *   TB_DADD(a,b), TB_DMUL(a,b)  double add/multiply, never fused into an FMA
 *   TB_DFMA(a,b,c)  double a*b + c rounded once (IEEE fma)
 *               (with these three the double kernels do the CPU backend's
 *               operations in its order: the same bits on every backend)
 *   TB_FP64     defined when double is available on the device
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

#define TB_FIX_SCALE 2.3283064365386962890625e-10f /* 2^-32 */

/* ------------------------------------------------------------ float grid */
/* lc[4l..4l+3]: per-line 32.32 fixed-point constants (base + offset, then
 * the index steps per cell along x, y, z). */
TB_DEVICE float tb_line_f(const TB_GLOBAL float *y, TB_LONG t)
{
    TB_LONG j = t >> 32;
    float f = (float)(TB_UINT)(t & 0xffffffffL) * TB_FIX_SCALE;
    float a = y[j];
    return a + f * (y[j + 1] - a);
}

/* Line l's value at cell (i, j, k). */
TB_DEVICE float tb_grid_line_f(const TB_GLOBAL float *lines, const TB_GLOBAL TB_LONG *lc, int l,
                               TB_LONG M, TB_LONG i, TB_LONG j, TB_LONG k)
{
    const TB_GLOBAL TB_LONG *c = lc + 4 * l;
    return tb_line_f(lines + (TB_LONG)l * M, c[0] + k * c[3] + j * c[2] + i * c[1]);
}

TB_DEVICE float tb_grid_cell_f(const TB_GLOBAL float *lines, const TB_GLOBAL TB_LONG *lc, int L,
                               TB_LONG M, TB_LONG i, TB_LONG j, TB_LONG k, const int U)
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

#ifdef TB_FP64
/* ----------------------------------------------------------- double grid */
TB_DEVICE double tb_line_d(const TB_GLOBAL double *y, double t)
{
    TB_LONG j = (TB_LONG)t;
    double f = TB_DADD(t, -(double)j);
    double a = y[j];
    return TB_DFMA(f, TB_DADD(y[j + 1], -a), a);
}

/* Line l's value at cell (i, j, k); lc[4l..4l+3]: base + offset, step x,
 * step y, step z (as the CPU backend): t = fma(i, c1, (c0 + k c3) + j c2). */
TB_DEVICE double tb_grid_line_d(const TB_GLOBAL double *lines, const TB_GLOBAL double *lc, int l,
                                TB_LONG M, double i, double j, double k)
{
    const TB_GLOBAL double *c = lc + 4 * l;
    double t = TB_DFMA(i, c[1], TB_DADD(TB_DADD(c[0], TB_DMUL(k, c[3])), TB_DMUL(j, c[2])));
    return tb_line_d(lines + (TB_LONG)l * M, t);
}

TB_DEVICE double tb_grid_cell_d(const TB_GLOBAL double *lines, const TB_GLOBAL double *lc, int L,
                                TB_LONG M, double i, double j, double k, const int U)
{
    double acc = 0.0;
    int l = 0;
    for (; l + U <= L; l += U)
        for (int u = 0; u < U; u++)
            acc = TB_DADD(acc, tb_grid_line_d(lines, lc, l + u, M, i, j, k));
    for (; l < L; l++)
        acc = TB_DADD(acc, tb_grid_line_d(lines, lc, l, M, i, j, k));
    return acc;
}

/* ---------------------------------------------------------------- points */
/* Index of a point on line l: fma(dz, az, fma(dy, ay, dx ax)) + offset (as
 * the CPU backend), in double for both precisions. */
TB_DEVICE double tb_point_t(const TB_GLOBAL double *a, double dx, double dy, double dz, double offset)
{
    return TB_DADD(TB_DFMA(dz, a[2], TB_DFMA(dy, a[1], TB_DMUL(dx, a[0]))), offset);
}

TB_DEVICE double tb_point_d(const TB_GLOBAL double *lines, const TB_GLOBAL double *axis, int L,
                            TB_LONG M, double dx, double dy, double dz, double offset, const int U)
{
    double acc = 0.0;
    int l = 0;
    for (; l + U <= L; l += U)
        for (int u = 0; u < U; u++)
            acc = TB_DADD(acc, tb_line_d(lines + (TB_LONG)(l + u) * M,
                                         tb_point_t(axis + 3 * (l + u), dx, dy, dz, offset)));
    for (; l < L; l++)
        acc = TB_DADD(acc, tb_line_d(lines + (TB_LONG)l * M, tb_point_t(axis + 3 * l, dx, dy, dz, offset)));
    return acc;
}

TB_DEVICE float tb_line_fd(const TB_GLOBAL float *y, double t)
{
    TB_LONG j = (TB_LONG)t;
    float f = (float)(t - (double)j);
    float a = y[j];
    return a + f * (y[j + 1] - a);
}

TB_DEVICE float tb_point_f(const TB_GLOBAL float *lines, const TB_GLOBAL double *axis, int L,
                           TB_LONG M, double dx, double dy, double dz, double offset, const int U)
{
    float acc = 0.0f;
    int l = 0;
    for (; l + U <= L; l += U)
        for (int u = 0; u < U; u++)
            acc += tb_line_fd(lines + (TB_LONG)(l + u) * M, tb_point_t(axis + 3 * (l + u), dx, dy, dz, offset));
    for (; l < L; l++)
        acc += tb_line_fd(lines + (TB_LONG)l * M, tb_point_t(axis + 3 * l, dx, dy, dz, offset));
    return acc;
}
#endif
