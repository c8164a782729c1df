/* vlog.h — the natural logarithms of the FFT method's Marsaglia step,
 * bitwise those of the C library's log on every ISA path, computed with
 * SIMD where the CPU allows (see vlog.c for how and why the bits agree). */
#ifndef TBRF_FFT_VLOG_H
#define TBRF_FFT_VLOG_H

/* out[i] = log(q[i]) (the C library's log, bitwise) where q[i] < 1, and
 * +0 where q[i] >= 1 or q[i] is a NaN, for 0 <= i < n. isa is a
 * tbrfi_cpu_isa level: the portable level calls log for every such
 * element; AVX2 (with FMA) and AVX-512 compute a double-double logarithm
 * four or eight at a time and call log only for the elements whose
 * rounding they cannot prove to be the library's. q and out may not
 * overlap. Returns the number of elements for which log was called. Thread
 * safe; the first call builds a small table (pthread_once). */
int tbrfi_fft_log(int isa, int n, const double *q, double *out);

#endif
