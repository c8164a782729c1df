/* tbrf/rng/features.h — the one per-language layer under all of tbrf's
 * device code, in the manner of Random123's features header: the other
 * generator headers of tbrf/rng/, the projection kernel body
 * (kernels/tb_project_body.h) and the Monte Carlo body
 * (kernels/mc_body.h) compile unchanged as C11, CUDA (nvcc, or
 * C++ against the tests' CPU emulator of the CUDA runtime) and OpenCL C.
 *
 *   TBRF_DEVICE_FN  qualifiers of every shared function:
 *                   C and C++: static inline;
 *                   CUDA: static __forceinline__ __host__ __device__;
 *                   OpenCL C: inline (OpenCL 1.x has no static functions).
 *   TBRF_GLOBAL     address space of device buffers: __global in OpenCL C,
 *                   empty elsewhere.
 *   TBRF_FP64       defined when double precision is available: always in
 *                   C and CUDA; in OpenCL C when the device has cl_khr_fp64
 *                   (the extension is then enabled here) or when the host
 *                   passes -DTBRF_FP64 for a device it knows has doubles.
 *   TBRF_INT64      a 64-bit signed integer type (long long; long in
 *                   OpenCL C).
 *   uint32_t, uint64_t  from <stdint.h> in C/CUDA; in OpenCL C from
 *                   Random123's feature header (typedefs of uint/ulong), or,
 *                   with TBRF_NO_R123 defined (kernels without Philox, e.g.
 *                   tbrf's embedded ones), the same typedefs made here.
 *   TBRF_DADD(a, b), TBRF_DMUL(a, b)  double add and multiply, never fused
 *                   into a multiply-add; TBRF_DFMA(a, b, c)  a*b + c rounded
 *                   once (IEEE fma). With these three a kernel does the CPU
 *                   backend's operations in its order and gets its bits
 *                   (doc/gpu.md). In CUDA device code they are __dadd_rn,
 *                   __dmul_rn, __fma_rn (nvcc contracts a*b + c by
 *                   default); elsewhere plain operators and fma, which
 *                   assume contraction is off: ISO C mode (-std=c11, where
 *                   GCC does not contract), -ffp-contract=off for the
 *                   emulator's C++, #pragma OPENCL FP_CONTRACT OFF in
 *                   tbrf's OpenCL kernels (kernels/opencl_prelude.cl).
 *   tbrf_sqrt/log/cos/sin/exp/pow/fabs  the double-precision math functions.
 *
 * Nothing here depends on a host-only construct; OpenCL users compile with
 * -I pointing at tbrf's include/ directory and Random123's include
 * directory (doc/rng.md). */
#ifndef TBRF_RNG_FEATURES_H
#define TBRF_RNG_FEATURES_H

#if defined(__OPENCL_VERSION__)
#ifdef TBRF_NO_R123 /* a kernel that needs no Philox: own typedefs */
typedef uint uint32_t;
typedef ulong uint64_t;
#else
#include <Random123/features/compilerfeatures.h>
#endif
#if defined(cl_khr_fp64) && !defined(TBRF_FP64)
#define TBRF_FP64 1
#endif
#ifdef TBRF_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#define TBRF_DEVICE_FN inline
#define TBRF_GLOBAL __global
#define TBRF_INT64 long
#define TBRF_DADD(a, b) ((a) + (b))
#define TBRF_DMUL(a, b) ((a) * (b))
#define TBRF_DFMA(a, b, c) fma((a), (b), (c))

#elif defined(__CUDACC__)
/* Random123's bodies become callable from host and device code alike. */
#ifndef R123_CUDA_DEVICE
#define R123_CUDA_DEVICE __host__ __device__
#endif
#include <stdint.h>
#include <math.h>
#define TBRF_DEVICE_FN static __forceinline__ __host__ __device__
#define TBRF_GLOBAL
#define TBRF_FP64 1
#define TBRF_INT64 long long
#ifdef __CUDA_ARCH__ /* device code: round-to-nearest intrinsics, never contracted */
#define TBRF_DADD(a, b) __dadd_rn((a), (b))
#define TBRF_DMUL(a, b) __dmul_rn((a), (b))
#define TBRF_DFMA(a, b, c) __fma_rn((a), (b), (c))
#else /* nvcc's host pass of __host__ __device__ functions */
#define TBRF_DADD(a, b) ((a) + (b))
#define TBRF_DMUL(a, b) ((a) * (b))
#define TBRF_DFMA(a, b, c) fma((a), (b), (c))
#endif

#else /* C, and C++ (the CUDA emulator's build of the .cu files) */
#include <math.h>
#include <stdint.h>
#define TBRF_DEVICE_FN static inline
#define TBRF_GLOBAL
#define TBRF_FP64 1
#define TBRF_INT64 long long
#define TBRF_DADD(a, b) ((a) + (b))
#define TBRF_DMUL(a, b) ((a) * (b))
#define TBRF_DFMA(a, b, c) fma((a), (b), (c))
#endif

#define tbrf_sqrt sqrt
#define tbrf_log log
#define tbrf_cos cos
#define tbrf_sin sin
#define tbrf_exp exp
#define tbrf_pow pow
#define tbrf_fabs fabs

/* The double whose IEEE-754 bits are u (exact reinterpretation). */
#ifdef TBRF_FP64
#if defined(__OPENCL_VERSION__)
#define tbrf_bits_to_double(u) as_double(u)
#else
TBRF_DEVICE_FN double tbrf_bits_to_double(uint64_t u)
{
    union {
        uint64_t u;
        double d;
    } b;
    b.u = u;
    return b.d;
}
#endif
#endif

/* Arithmetic right shift of v taken as a signed 32-bit integer, 0 < n < 32,
 * written without signed shifts (whose meaning C leaves to the compiler). */
TBRF_DEVICE_FN uint32_t tbrf_asr32(uint32_t v, int n)
{
    uint32_t sign = (uint32_t)0 - (v >> 31);
    return (v >> n) | (sign << (32 - n));
}

#endif
