/* cuda_runtime.h — what a .cu file of tbrf needs beyond the runtime API
 * when it is compiled as C++ against the CPU emulator (tests only; see
 * cuda_runtime_api.h): the execution-space qualifiers, the built-in index
 * variables, the round-to-nearest intrinsics, the typed allocation
 * overloads, and tbrf_emu::launch, which c/backends/cuda/cuda_launch.h uses in place
 * of the <<<grid, block, 0, stream>>> syntax that only nvcc parses. */
#ifndef TBRF_CUDA_EMULATOR_RUNTIME_H
#define TBRF_CUDA_EMULATOR_RUNTIME_H

#include "cuda_runtime_api.h"

#ifdef __cplusplus
#include <cmath>
#include <functional>

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline

struct uint3 {
    unsigned int x, y, z;
};

struct dim3 {
    unsigned int x, y, z;
    constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
};

/* Set by the emulator before each thread of a kernel runs. */
extern thread_local uint3 threadIdx, blockIdx;
extern thread_local dim3 blockDim, gridDim;

/* IEEE double add and multiply, never contracted into an FMA (the .cu
 * files are compiled with -ffp-contract=off, as nvcc -fmad=false). */
inline double __dadd_rn(double a, double b) { return a + b; }
inline double __dmul_rn(double a, double b) { return a * b; }
inline double __fma_rn(double a, double b, double c) { return std::fma(a, b, c); }

template <class T> inline cudaError_t cudaMalloc(T **ptr, size_t bytes)
{
    return cudaMalloc(reinterpret_cast<void **>(ptr), bytes);
}

template <class T> inline cudaError_t cudaMallocHost(T **ptr, size_t bytes)
{
    return cudaMallocHost(reinterpret_cast<void **>(ptr), bytes);
}

template <class T> inline cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *attr, T *kernel)
{
    return cudaFuncGetAttributes(attr, reinterpret_cast<const void *>(kernel));
}

namespace tbrf_emu {
/* cudaSuccess, or why a launch with this shape is refused (the limits of
 * current NVIDIA GPUs). */
cudaError_t launch_config_error(dim3 grid, dim3 block);
/* Whether p points into a live cudaMalloc allocation. */
bool device_pointer(const void *p);
/* Queues body (one thread's work) on stream for every thread of the grid;
 * records err as the launch error instead when it is not cudaSuccess. */
void enqueue_kernel(cudaStream_t stream, dim3 grid, dim3 block, std::function<void()> body, cudaError_t err);

template <class T> inline bool argument_ok(T *p) { return p == nullptr || device_pointer(p); }
template <class A> inline bool argument_ok(const A &) { return true; }

/* What TBRF_LAUNCH(kernel, grid, block, stream) yields: called with the
 * kernel's arguments, it checks them like a GPU would (a host pointer
 * handed to a kernel faults there) and queues the kernel. */
template <class F> struct launcher {
    dim3 grid, block;
    cudaStream_t stream;
    F kernel;
    template <class... A> void operator()(A... args) const
    {
        cudaError_t err = launch_config_error(grid, block);
        if (err == cudaSuccess && !(argument_ok(args) && ...))
            err = cudaErrorIllegalAddress;
        F k = kernel;
        enqueue_kernel(stream, grid, block, [k, args...]() { k(args...); }, err);
    }
};

template <class F> inline launcher<F> launch(dim3 grid, dim3 block, cudaStream_t stream, F kernel)
{
    return launcher<F>{grid, block, stream, kernel};
}
} // namespace tbrf_emu
#endif
#endif
