/* mc_cuda.cu — the CUDA backend's mc_chunks slot (backends/backend.h): the
 * Monte Carlo chunks of tbrf_mc_integrate_device() on a CUDA device, one
 * thread per chunk of TBRF_MC_CHUNK points running
 * kernels/mc_body.h, the CPU's arithmetic in the CPU's order
 * (compiled with -fmad=false, or -ffp-contract=off in the emulator build,
 * so no multiply-add is fused). Built only with TBRF_HAVE_CUDA; returns
 * TBRF_ERR_NO_DEVICE when no device is usable. */
#include <cuda_runtime.h>
#include <stdlib.h>

#include "backends/cuda/cuda_device.h"
#include "backends/cuda/cuda_launch.h"
#include "kernels/mc_body.h"
#include "tbrf.h"

__global__ void tbrf_mc_chunks_cuda(int kind, int d, uint64_t n, uint64_t seed, const double *a,
                                    const double *u, double *K, double *S1, double *S2)
{
    tbrf_mc_chunk_store(kind, d, n, seed, a, u, (uint64_t)blockIdx.x * blockDim.x + threadIdx.x, K,
                        S1, S2);
}

/* declared for C in backends/backend.h */
extern "C" int tbrfi_mc_cuda_chunks(int device, int integrand, int dim, const double *a,
                                    const double *u, int64_t n, uint64_t seed, double *K,
                                    double *S1, double *S2);

extern "C" int tbrfi_mc_cuda_chunks(int device, int integrand, int dim, const double *a,
                                    const double *u, int64_t n, uint64_t seed, double *K,
                                    double *S1, double *S2)
{
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        cudaGetLastError();
        return TBRF_ERR_NO_DEVICE;
    }
    if (device >= count)
        return TBRF_ERR_NO_DEVICE;
    const int prev = tbrf_cuda_current_device();
    const size_t nchunks = (size_t)((n + TBRF_MC_CHUNK - 1) / TBRF_MC_CHUNK);
    const size_t dbytes = (size_t)dim * sizeof(double), cbytes = nchunks * sizeof(double);
    double *au = (double *)malloc(2 * dbytes);
    if (!au)
        return TBRF_ERR_NO_MEMORY;
    if (cudaSetDevice(device < 0 ? 0 : device) != cudaSuccess) {
        free(au);
        return TBRF_ERR_NO_DEVICE;
    }
    for (int i = 0; i < dim; i++) {
        au[i] = a ? a[i] : 1.0;
        au[dim + i] = u ? u[i] : 0.5;
    }
    double *dau = NULL, *dout = NULL;
    int st = TBRF_OK;
    if (cudaMalloc(&dau, 2 * dbytes) != cudaSuccess || cudaMalloc(&dout, 3 * cbytes) != cudaSuccess)
        st = TBRF_ERR_NO_MEMORY;
    if (!st && cudaMemcpy(dau, au, 2 * dbytes, cudaMemcpyHostToDevice) != cudaSuccess)
        st = TBRF_ERR_NO_DEVICE;
    if (!st) {
        const unsigned threads = 128;
        unsigned blocks = (unsigned)((nchunks + threads - 1) / threads);
        cudaGetLastError(); /* the check below is for this launch only */
        TBRF_LAUNCH(tbrf_mc_chunks_cuda, blocks, threads, 0)(integrand, dim, (uint64_t)n, seed, dau,
                                                             dau + dim, dout, dout + nchunks,
                                                             dout + 2 * nchunks);
        if (cudaGetLastError() != cudaSuccess || cudaDeviceSynchronize() != cudaSuccess)
            st = TBRF_ERR_NO_DEVICE;
    }
    if (!st && (cudaMemcpy(K, dout, cbytes, cudaMemcpyDeviceToHost) != cudaSuccess ||
                cudaMemcpy(S1, dout + nchunks, cbytes, cudaMemcpyDeviceToHost) != cudaSuccess ||
                cudaMemcpy(S2, dout + 2 * nchunks, cbytes, cudaMemcpyDeviceToHost) != cudaSuccess))
        st = TBRF_ERR_NO_DEVICE;
    cudaFree(dau);
    cudaFree(dout);
    free(au);
    tbrf_cuda_restore_device(prev);
    return st;
}
