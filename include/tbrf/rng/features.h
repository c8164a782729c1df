/* rng/common.h — the thin per-language layer under tbrf's generator
 * headers, in the manner of Random123: one body compiles unchanged as C11,
 * CUDA (nvcc -x cu) and OpenCL C.
 *
 *   TBRF_RNG_FN    qualifiers of every generator function:
 *                  C: static inline; CUDA: static inline __host__ __device__;
 *                  OpenCL C: inline (OpenCL 1.x has no static functions).
 *   TBRF_RNG_FP64  defined when double precision is available (always in C
 *                  and CUDA; OpenCL needs cl_khr_fp64, which the kernel
 *                  source enables with #pragma OPENCL EXTENSION before
 *                  including these headers).
 *   uint32_t, uint64_t  from <stdint.h> in C/CUDA; in OpenCL from
 *                  Random123's feature header (typedefs of uint/ulong), or,
 *                  with TBRF_RNG_NO_R123 defined (kernels without Philox,
 *                  e.g. embedded ones), the same typedefs made here.
 *   tbrf_sqrt/log/cos/sin  the double-precision math functions.
 *
 * Nothing here depends on a host-only construct; OpenCL users compile with
 * -I pointing at tbrf's c/ directory and Random123's include directory. */
#ifndef TBRF_RNG_COMMON_H
#define TBRF_RNG_COMMON_H

#if defined(__OPENCL_VERSION__)
#ifdef TBRF_RNG_NO_R123 /* a kernel that needs no Philox: own typedefs */
typedef uint uint32_t;
typedef ulong uint64_t;
#else
#include <Random123/features/compilerfeatures.h>
#endif
#define TBRF_RNG_FN inline
#if defined(cl_khr_fp64)
#define TBRF_RNG_FP64 1
#endif
#define tbrf_sqrt sqrt
#define tbrf_log log
#define tbrf_cos cos
#define tbrf_sin sin
#elif defined(__CUDACC__)
/* Random123's bodies become callable from host and device code alike. */
#ifndef R123_CUDA_DEVICE
#define R123_CUDA_DEVICE __host__ __device__
#endif
#include <stdint.h>
#include <math.h>
#define TBRF_RNG_FN static inline __host__ __device__
#define TBRF_RNG_FP64 1
#define tbrf_sqrt sqrt
#define tbrf_log log
#define tbrf_cos cos
#define tbrf_sin sin
#else
#include <math.h>
#include <stdint.h>
#define TBRF_RNG_FN static inline
#define TBRF_RNG_FP64 1
#define tbrf_sqrt sqrt
#define tbrf_log log
#define tbrf_cos cos
#define tbrf_sin sin
#endif

/* The double whose IEEE-754 bits are u (exact reinterpretation). */
#ifdef TBRF_RNG_FP64
#if defined(__OPENCL_VERSION__)
#define tbrf_bits_to_double(u) as_double(u)
#else
TBRF_RNG_FN double tbrf_bits_to_double(uint64_t u)
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
TBRF_RNG_FN uint32_t tbrf_asr32(uint32_t v, int n)
{
    uint32_t sign = (uint32_t)0 - (v >> 31);
    return (v >> n) | (sign << (32 - n));
}

#endif
