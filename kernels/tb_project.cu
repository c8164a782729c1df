/* tb_project.cu — CUDA kernels of the projection. The bodies are those of
 * the OpenCL kernels (tb_project_body.h, shared verbatim); this file only
 * supplies the entry points (one thread per cell or point, unroll factor
 * as a template parameter) and C launchers. */
#include <cuda_runtime.h>

#include "backends/cuda/cuda_launch.h"
#include "kernels/tb_project_cuda.h"

/* The body's qualifiers and double operations come from
 * tbrf/rng/features.h: in device code TBRF_DADD, TBRF_DMUL and TBRF_DFMA are
 * __dadd_rn, __dmul_rn (round-to-nearest intrinsics, never fused into an
 * FMA, which nvcc does to a*b + c by default) and __fma_rn, fusing where
 * the CPU backend does, so the double kernels round like the CPU backend. */
#include "kernels/tb_project_body.h"

/* The precision-specific pieces, by overload, so one kernel template serves
 * both: float values scale by a plain multiply, double ones by TBRF_DMUL;
 * a float grid takes its cell indices as the integers of its 32.32 fixed
 * point, a double one converts them to double at the call. */
__device__ __forceinline__ float tb_scale(float norm, float v)
{
    return norm * v;
}

__device__ __forceinline__ double tb_scale(double norm, double v)
{
    return TBRF_DMUL(norm, v);
}

__device__ __forceinline__ float tb_grid_cell(const float *lines, const long long *lc, int L, long long M,
                                              long long i, long long j, long long k, const int U)
{
    return tb_grid_cell_f(lines, lc, L, M, i, j, k, U);
}

__device__ __forceinline__ double tb_grid_cell(const double *lines, const double *lc, int L, long long M,
                                               double i, double j, double k, const int U)
{
    return tb_grid_cell_d(lines, lc, L, M, i, j, k, U);
}

__device__ __forceinline__ float tb_point(const float *lines, const double *axis, int L, long long M,
                                          double dx, double dy, double dz, double offset, const int U)
{
    return tb_point_f(lines, axis, L, M, dx, dy, dz, offset, U);
}

__device__ __forceinline__ double tb_point(const double *lines, const double *axis, int L, long long M,
                                           double dx, double dy, double dz, double offset, const int U)
{
    return tb_point_d(lines, axis, L, M, dx, dy, dz, offset, U);
}

/* T: value type (float or double), C: type of the grid constants. */
template <int U, typename T, typename C>
__global__ void tb_grid(const T *__restrict__ lines, const C *__restrict__ lc, int L, long long M,
                        long long nx, long long ny, long long s0, long long s1, long long s2,
                        long long first, long long count, T norm, T *__restrict__ out)
{
    long long g = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (g >= count)
        return;
    long long cell = first + g, row = cell / nx;
    /* global indices (s0, s1, s2: the box's corner), as the CPU backend */
    out[g] = tb_scale(norm, tb_grid_cell(lines, lc, L, M, cell - row * nx + s0, row % ny + s1,
                                         row / ny + s2, U));
}

template <int U, typename T>
__global__ void tb_points(const T *__restrict__ lines, const double *__restrict__ axis, int L,
                          long long M, int dim, double cx, double cy, double cz, double offset,
                          const double *__restrict__ xyz, long long count, T norm,
                          T *__restrict__ out)
{
    long long g = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (g >= count)
        return;
    const double *x = xyz + dim * g;
    double dz = dim == 3 ? TBRF_DADD(x[2], -cz) : 0.0;
    out[g] = tb_scale(norm, tb_point(lines, axis, L, M, TBRF_DADD(x[0], -cx), TBRF_DADD(x[1], -cy), dz,
                                     offset, U));
}

static unsigned int blocks(long long count, int block)
{
    return (unsigned int)((count + block - 1) / block);
}

/* Lowers *limit to kernel's largest block; the cudaError_t of the query
 * (cudaErrorNoKernelImageForDevice when the library was not built for
 * this GPU's architecture). */
template <class K> static cudaError_t lower_to_limit(K kernel, int *limit)
{
    cudaFuncAttributes a;
    cudaError_t e = cudaFuncGetAttributes(&a, kernel);
    if (e == cudaSuccess && a.maxThreadsPerBlock < *limit)
        *limit = a.maxThreadsPerBlock;
    return e;
}

extern "C" int tbrf_cuda_kernel_limit(int *max_block)
{
    int limit = *max_block;
    cudaError_t e = lower_to_limit(tb_grid<16, float, long long>, &limit);
    if (e == cudaSuccess)
        e = lower_to_limit(tb_grid<16, double, double>, &limit);
    if (e == cudaSuccess)
        e = lower_to_limit(tb_points<16, float>, &limit);
    if (e == cudaSuccess)
        e = lower_to_limit(tb_points<16, double>, &limit);
    if (e == cudaSuccess)
        *max_block = limit;
    return (int)e;
}

#define TB_DISPATCH(unroll, KERNEL, ...)                                                          \
    switch (unroll) {                                                                             \
    case 16: TBRF_LAUNCH(KERNEL<16>, blocks(count, block), block, stream)(__VA_ARGS__); break;    \
    case 8: TBRF_LAUNCH(KERNEL<8>, blocks(count, block), block, stream)(__VA_ARGS__); break;      \
    case 4: TBRF_LAUNCH(KERNEL<4>, blocks(count, block), block, stream)(__VA_ARGS__); break;      \
    case 2: TBRF_LAUNCH(KERNEL<2>, blocks(count, block), block, stream)(__VA_ARGS__); break;      \
    default: TBRF_LAUNCH(KERNEL<1>, blocks(count, block), block, stream)(__VA_ARGS__); break;     \
    }

extern "C" int tbrf_cuda_launch_grid(int precision, int unroll, int block, const void *lines,
                                     const void *lc, int L, long long M, long long nx, long long ny,
                                     const long long start[3], long long first, long long count,
                                     double norm, void *out, cudaStream_t stream)
{
    if (count <= 0)
        return 0;
    /* cudaGetLastError below must see this launch's error, not one left by
     * an earlier call whose failure was already reported (a cudaMalloc
     * that ran out of memory, say) */
    cudaGetLastError();
    if (precision == 1) {
        TB_DISPATCH(unroll, tb_grid, (const float *)lines, (const long long *)lc, L, M, nx, ny,
                    start[0], start[1], start[2], first, count, (float)norm, (float *)out)
    } else {
        TB_DISPATCH(unroll, tb_grid, (const double *)lines, (const double *)lc, L, M, nx, ny,
                    start[0], start[1], start[2], first, count, norm, (double *)out)
    }
    return (int)cudaGetLastError();
}

extern "C" int tbrf_cuda_launch_points(int precision, int unroll, int block, const void *lines,
                                       const double *axis, int L, long long M, int dim, double cx,
                                       double cy, double cz, double offset, const double *xyz,
                                       long long count, double norm, void *out, cudaStream_t stream)
{
    if (count <= 0)
        return 0;
    cudaGetLastError(); /* as in tbrf_cuda_launch_grid */
    if (precision == 1) {
        TB_DISPATCH(unroll, tb_points, (const float *)lines, axis, L, M, dim, cx, cy, cz, offset, xyz,
                    count, (float)norm, (float *)out)
    } else {
        TB_DISPATCH(unroll, tb_points, (const double *)lines, axis, L, M, dim, cx, cy, cz, offset, xyz,
                    count, norm, (double *)out)
    }
    return (int)cudaGetLastError();
}
