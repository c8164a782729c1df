/* drive_cuda.h — C interface of the CUDA kernel of a periodic driver's
 * direct sum (kernels/drive.cu) for backends/cuda/backend_cuda.c.
 * Arguments mirror the OpenCL kernel (kernels/drive.cl). Internal header. */
#ifndef TBRF_DRIVE_CUDA_H
#define TBRF_DRIVE_CUDA_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Enqueues the kernel on `stream` for count points (device pointers m,
 * coef, xyz, out); returns the cudaError_t of the launch (0 = cudaSuccess). */
int tbrf_cuda_launch_drive(int block, const int *m, const double *coef, long long nm, int dim,
                           const double origin[3], const double length[3], const double *xyz,
                           long long count, double *out, cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
