/* cpu_isa.h — which SIMD instruction set the CPU code paths use: the
 * projection kernels (backends/cpu) and the FFT method's mode fill
 * (methods/fft). Detected at run time, so the library itself stays
 * portable; every path gives bitwise the same values. */
#ifndef TBRF_CPU_ISA_H
#define TBRF_CPU_ISA_H

enum tbrfi_cpu_isa { CPU_ISA_PORTABLE = 0, CPU_ISA_AVX2 = 1, CPU_ISA_AVX512 = 2 };

/* The best kernel set this CPU runs. The environment variable TBRF_CPU_ISA
 * (portable, avx2, avx512) may lower it, for benchmarks (the AVX2 path
 * timed on an AVX-512 machine) and for the tests that check all versions
 * agree bitwise; it is read, never stored. */
int tbrfi_cpu_isa(void);
const char *tbrfi_cpu_isa_name(int isa);

#endif
