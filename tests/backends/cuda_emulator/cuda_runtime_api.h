/* cuda_runtime_api.h — the part of the CUDA runtime API that tbrf calls,
 * declared for the CPU emulator in cuda_emulator.cpp (tests only).
 *
 * A build with -DTBRF_CUDA_EMULATOR=ON puts this directory before the CUDA
 * toolkit's, compiles the .cu files as C++ and links libtbrf_cuda_emulator
 * instead of libcudart, so the CUDA backend's host code and kernels run on
 * a machine without an NVIDIA GPU: with device memory that is not host
 * memory (checked at every copy and launch), streams that run as late as
 * the declared dependencies allow, and a device-memory limit. Names,
 * values and semantics follow the CUDA runtime documentation; only what
 * tbrf uses is here. It is not a CUDA implementation and never ships. */
#ifndef TBRF_CUDA_EMULATOR_RUNTIME_API_H
#define TBRF_CUDA_EMULATOR_RUNTIME_API_H

#include <stddef.h>

#define TBRF_CUDA_EMULATOR 1

#ifdef __cplusplus
extern "C" {
#endif

/* The values of the real enumeration, so messages and casts agree. */
typedef enum cudaError {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorInitializationError = 3,
    cudaErrorInvalidConfiguration = 9,
    cudaErrorInvalidMemcpyDirection = 21,
    cudaErrorNoDevice = 100,
    cudaErrorInvalidDevice = 101,
    cudaErrorNoKernelImageForDevice = 209,
    cudaErrorInvalidResourceHandle = 400,
    cudaErrorNotReady = 600,
    cudaErrorIllegalAddress = 700
} cudaError_t;

enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4
};

typedef struct tbrf_emu_stream *cudaStream_t;
typedef struct tbrf_emu_event *cudaEvent_t;

#define cudaStreamDefault 0x00u
#define cudaStreamNonBlocking 0x01u
#define cudaEventDefault 0x00u
#define cudaEventBlockingSync 0x01u
#define cudaEventDisableTiming 0x02u

struct cudaDeviceProp {
    char name[256];
    size_t totalGlobalMem;
    int maxThreadsPerBlock;
    int maxThreadsDim[3];
    int maxGridSize[3];
    int multiProcessorCount;
    int major, minor;
};

struct cudaFuncAttributes {
    int maxThreadsPerBlock;
    int numRegs;
    size_t sharedSizeBytes;
};

const char *cudaGetErrorString(cudaError_t error);
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);
cudaError_t cudaDriverGetVersion(int *version);

cudaError_t cudaGetDeviceCount(int *count);
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDevice(int *device);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func);

cudaError_t cudaMalloc(void **ptr, size_t bytes);
cudaError_t cudaFree(void *ptr);
cudaError_t cudaMallocHost(void **ptr, size_t bytes);
cudaError_t cudaFreeHost(void *ptr);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes, enum cudaMemcpyKind kind,
                            cudaStream_t stream);

cudaError_t cudaStreamCreate(cudaStream_t *stream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned int flags);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags);

cudaError_t cudaEventCreate(cudaEvent_t *event);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags);
cudaError_t cudaEventDestroy(cudaEvent_t event);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);

#ifdef __cplusplus
}
#endif
#endif
