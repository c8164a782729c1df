/* cpu_isa.h — which SIMD instruction set the CPU code paths use: the
 * projection kernels (backends/cpu) and the FFT method's mode fill
 * (methods/fft). Detected at run time, so the library itself stays
 * portable; every path gives bitwise the same values. */
#ifndef TBRF_CPU_ISA_H
#define TBRF_CPU_ISA_H

/* AVX512_GATHER is AVX-512 with the projection's samples fetched by
 * vgatherqpd: faster where gathers are (Intel Sapphire Rapids and later,
 * recognised by AVX512-FP16; AMD Zen 4/5 lack FP16, and their gathers, like
 * those of the Intel cores whose microcode slows gathers since 2023
 * (GDS), are slower than the window and pair loads of AVX512). */
enum tbrfi_cpu_isa { CPU_ISA_PORTABLE = 0, CPU_ISA_AVX2 = 1, CPU_ISA_AVX512 = 2, CPU_ISA_AVX512_GATHER = 3 };

/* The best kernel set this CPU runs. The environment variable TBRF_CPU_ISA
 * (portable, avx2, avx512, avx512-gather) may lower it, for benchmarks (the AVX2 path
 * timed on an AVX-512 machine) and for the tests that check all versions
 * agree bitwise; it is read, never stored. */
int tbrfi_cpu_isa(void);
const char *tbrfi_cpu_isa_name(int isa);

#endif
