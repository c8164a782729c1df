/* opencl_prelude.cl — the compile settings of tbrf's own OpenCL kernels,
 * embedded (cmake/Embed.cmake) before tbrf/rng/features.h and the kernel
 * bodies: the projection (tb_project_body.h, tb_project.cl) and the Monte
 * Carlo chunks (mc_body.h).
 *
 * No contraction into FMA: the double kernels round like the CPU backend,
 * which fuses exactly where TBRF_DFMA does (fma is correctly rounded in
 * OpenCL C). The embedded kernels use no Philox, so they need no
 * Random123 headers (which the device compiler could not find). */
#pragma OPENCL FP_CONTRACT OFF
#define TBRF_NO_R123 1
