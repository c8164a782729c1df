/* tb_project.cl — OpenCL kernels of the projection: one work-item per grid
 * cell or point, any work-group size (the global size is rounded up and the
 * tail masked). Built per device with -DTBRF_FP64 when it has double
 * precision (tbrf/rng/features.h; the double kernels exist only then).
 * Names: tb_grid_{f,d}_u{U}, tb_points_{f,d}_u{U}, U = 1, 2, 4, 8, 16.
 *
 * Grid arguments: lines (L*M), lc (4 constants per line), L, M, nx, ny
 * (the box's cells per row and rows per plane), s0, s1, s2 (the global
 * index of the box's cell 0: indices passed to the body are global, so a
 * sub-box gives the whole grid's bits), first (cell number of out[0]),
 * count, norm, out.
 * Point arguments: lines, axis (3 per line, already divided by delta, then
 * the L sub-sample shifts), L, M,
 * dim, centre x/y/z, offset, xyz (dim per point), count, norm, out. */

/* T: value type, S: its suffix; C: type of the grid constants, I: type of
 * the cell indices i, j, k (float: 32.32 fixed point, see tb_project_body.h). */
#define TB_GRID(T, S, C, I, U)                                                                    \
    __kernel void tb_grid_##S##_u##U(__global const T *lines, __global const C *lc, int L, long M, \
                                     long nx, long ny, long s0, long s1, long s2, long first,     \
                                     long count, T norm, __global T *out)                         \
    {                                                                                             \
        long g = get_global_id(0);                                                                \
        if (g >= count)                                                                           \
            return;                                                                               \
        long cell = first + g, row = cell / nx;                                                   \
        out[g] = norm * tb_grid_cell_##S(lines, lc, L, M, (I)(cell - row * nx + s0),              \
                                         (I)(row % ny + s1), (I)(row / ny + s2), U);              \
    }
TB_GRID(float, f, long, long, 1) TB_GRID(float, f, long, long, 2) TB_GRID(float, f, long, long, 4)
TB_GRID(float, f, long, long, 8) TB_GRID(float, f, long, long, 16)

#ifdef TBRF_FP64
TB_GRID(double, d, double, double, 1) TB_GRID(double, d, double, double, 2)
TB_GRID(double, d, double, double, 4) TB_GRID(double, d, double, double, 8)
TB_GRID(double, d, double, double, 16)

#define TB_POINTS(T, S, U)                                                                        \
    __kernel void tb_points_##S##_u##U(__global const T *lines, __global const double *axis,       \
                                       int L, long M, int dim, double cx, double cy, double cz,    \
                                       double offset, __global const double *xyz, long count,      \
                                       T norm, __global T *out)                                   \
    {                                                                                             \
        long g = get_global_id(0);                                                                \
        if (g >= count)                                                                           \
            return;                                                                               \
        __global const double *x = xyz + dim * g;                                                 \
        double dz = dim == 3 ? x[2] - cz : 0.0;                                                   \
        out[g] = norm * tb_point_##S(lines, axis, L, M, x[0] - cx, x[1] - cy, dz, offset, U);     \
    }
TB_POINTS(float, f, 1) TB_POINTS(float, f, 2) TB_POINTS(float, f, 4) TB_POINTS(float, f, 8)
TB_POINTS(float, f, 16)
TB_POINTS(double, d, 1) TB_POINTS(double, d, 2) TB_POINTS(double, d, 4) TB_POINTS(double, d, 8)
TB_POINTS(double, d, 16)
#endif
