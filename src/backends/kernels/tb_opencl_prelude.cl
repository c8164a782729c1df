/* tb_opencl_prelude.cl — OpenCL C definitions of the qualifier macros that
 * tb_project_body.h expects. Embedded before the body (cmake/Embed.cmake),
 * then tb_project.cl with the kernels. */
#ifdef TB_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
/* No contraction into FMA: the double kernels round like the CPU backend,
 * which fuses exactly where TB_DFMA does (fma is correctly rounded in
 * OpenCL C). */
#pragma OPENCL FP_CONTRACT OFF
#define TB_GLOBAL __global
#define TB_DEVICE inline
#define TB_LONG long
#define TB_UINT uint
#define TB_DADD(a, b) ((a) + (b))
#define TB_DMUL(a, b) ((a) * (b))
#define TB_DFMA(a, b, c) fma((a), (b), (c))
