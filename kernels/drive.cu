/* drive.cu — the CUDA kernel of a periodic driver's direct sum. The body
 * is that of the OpenCL kernel (drive_body.h, shared verbatim); this file
 * supplies the entry point (one thread per point) and its C launcher. */
#include <cuda_runtime.h>

#include "backends/cuda/cuda_launch.h"
#include "kernels/drive_cuda.h"
#include "kernels/drive_body.h"

/* static: the library exports no kernel symbol (abi_exports_documented) */
static __global__ void drive_points_d(const int *__restrict__ m, const double *__restrict__ coef, long long nm,
                               int dim, double ox, double oy, double oz, double lx, double ly, double lz,
                               const double *__restrict__ xyz, long long count, double *__restrict__ out)
{
    long long g = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (g >= count)
        return;
    const double *x = xyz + dim * g;
    double t2 = dim == 3 ? drive_frac(x[2], oz, lz) : 0.0;
    drive_point(m, coef, nm, dim, drive_frac(x[0], ox, lx), drive_frac(x[1], oy, ly), t2, out + dim * g);
}

extern "C" int tbrf_cuda_launch_drive(int block, const int *m, const double *coef, long long nm, int dim,
                                      const double origin[3], const double length[3], const double *xyz,
                                      long long count, double *out, cudaStream_t stream)
{
    if (count <= 0)
        return 0;
    cudaGetLastError(); /* this launch's error only (see tbrf_cuda_launch_grid) */
    const unsigned int blocks = (unsigned int)((count + block - 1) / block);
    TBRF_LAUNCH(drive_points_d, blocks, block, stream)(m, coef, nm, dim, origin[0], origin[1], origin[2],
                                                       length[0], length[1], length[2], xyz, count, out);
    return (int)cudaGetLastError();
}
