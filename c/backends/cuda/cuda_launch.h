/* cuda_launch.h — TBRF_LAUNCH(kernel, grid, block, stream)(args...), one
 * kernel launch. Under nvcc it is kernel<<<grid, block, 0, stream>>>; the
 * tests' CPU emulator of the CUDA runtime (tests/backends/cuda_emulator, whose
 * cuda_runtime.h defines TBRF_CUDA_EMULATOR) compiles the .cu files as
 * C++, which has no such syntax, and queues the kernel through
 * tbrf_emu::launch instead. Internal header; include after
 * <cuda_runtime.h>. */
#ifndef TBRF_CUDA_LAUNCH_H
#define TBRF_CUDA_LAUNCH_H

#ifdef TBRF_CUDA_EMULATOR
#define TBRF_LAUNCH(kernel, grid, block, stream)                                                     \
    tbrf_emu::launch((grid), (block), (stream), [](auto... a) { kernel(a...); })
#else
#define TBRF_LAUNCH(kernel, grid, block, stream) kernel<<<(grid), (block), 0, (stream)>>>
#endif

#endif
