/* cuda_device.h — the caller's current CUDA device, saved on entry to a
 * tbrf call and put back before it returns: a simulation may drive
 * another GPU from the same host thread, and tbrf must not switch it
 * silently. Used by the C host code (backend_cuda.c) and the Monte Carlo
 * launcher (mc_cuda.cu). Internal header; include after the CUDA runtime. */
#ifndef TBRF_CUDA_DEVICE_H
#define TBRF_CUDA_DEVICE_H

/* The current device, or -1 when there is none yet. */
static inline int tbrf_cuda_current_device(void)
{
    int dev = -1;
    if (cudaGetDevice(&dev) != cudaSuccess) {
        cudaGetLastError();
        dev = -1;
    }
    return dev;
}

static inline void tbrf_cuda_restore_device(int dev)
{
    if (dev >= 0)
        cudaSetDevice(dev);
}

#endif
