/* tb_project_cuda.h — C interface of the CUDA projection kernels
 * (kernels/tb_project.cu) for the host code in backends/cuda/backend_cuda.c.
 * Each launcher enqueues one kernel on `stream` and returns the
 * cudaError_t of the launch (0 = cudaSuccess). Arguments mirror the OpenCL
 * kernels (kernels/tb_project.cl); precision is TBRF_FLOAT (1) or
 * TBRF_DOUBLE (0); unroll is 1, 2, 4, 8 or 16. Internal header. */
#ifndef TBRF_TB_PROJECT_CUDA_H
#define TBRF_TB_PROJECT_CUDA_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* start: the global index of the box's cell 0 (grid_geom.start). */
int tbrf_cuda_launch_grid(int precision, int unroll, int block, const void *lines, const void *lc,
                          int L, long long M, long long nx, long long ny, const long long start[3],
                          long long first, long long count, double norm, void *out,
                          cudaStream_t stream);

int tbrf_cuda_launch_points(int precision, int unroll, int block, const void *lines,
                            const double *axis, int L, long long M, int dim, double cx, double cy,
                            double cz, double offset, const double *xyz, long long count,
                            double norm, void *out, cudaStream_t stream);

/* Whether this GPU can run the kernels: lowers *max_block to the smallest
 * per-kernel block limit (registers of the unroll-16 kernels); returns the
 * cudaError_t of the query, cudaErrorNoKernelImageForDevice when the
 * library holds no code for the device's architecture. */
int tbrf_cuda_kernel_limit(int *max_block);

#ifdef __cplusplus
}
#endif
#endif
