/* cpu_kernels.h — the inner loops of the CPU projection, one portable
 * version and SIMD versions chosen at run time (backends/cpu/cpu_simd.c).
 *
 * Every version performs, per cell or point and per line, exactly the same
 * IEEE operations in the same order as the portable one: a fused
 * multiply-add exactly where the portable code calls fma() (the SIMD code
 * uses the fmadd intrinsics there and separate multiplies and adds
 * elsewhere; the library is built in ISO C mode, where GCC does not
 * contract a*b + c on its own), so all versions give bitwise the same
 * values. The summation order over lines is
 * fixed (0..L-1, blocked but never reordered), which is what makes results
 * independent of threads, chunking and the kernel the CPU picks. */
#ifndef TBRF_CPU_KERNELS_H
#define TBRF_CPU_KERNELS_H

#include <stdint.h>

#include "core/cpu_isa.h"

/* Adds lines 0..nl-1 to acc[0..n-1], the cells lo..lo+n-1 of one grid row:
 * acc[c] += interp(line_l, fma((double)(lo + c), sx[l], rb[l])) for each l
 * in order. lo is the global x index (the row start rb is the global row's
 * too), so a cell's coordinate is one fma of its own index whatever part
 * of the row is asked for. Line l starts at lines + l*M. */
typedef void (*cpu_grid_fn)(const double *lines, int64_t M, const double *rb, const double *sx,
                            int nl, int64_t lo, int64_t n, double *acc);

/* Adds lines 0..nl-1 to acc[0..n-1] at n points given relative to the
 * centre (dx, dy, dz; dz zero in 2D): acc[i] += interp(line_l, ((dx ax +
 * dy ay) + dz az) + (offset + shift[l])) with (ax, ay, az) = axis[3l..3l+2]
 * and shift[l] the line's sub-sample shift (backend.h). The
 * arrays dx, dy, dz and acc hold at least round_up(n, 8) entries; entries
 * past n must be valid positions (the caller repeats the last point). */
typedef void (*cpu_points_fn)(const double *lines, int64_t M, const double *axis, double offset,
                              const double *shift, int nl, int64_t n, const double *dx, const double *dy,
                              const double *dz, double *acc);

/* Kernels of a given ISA level (must be <= tbrfi_cpu_isa()). */
cpu_grid_fn tbrfi_cpu_grid_kernel(int isa);
cpu_points_fn tbrfi_cpu_points_kernel(int isa);

/* Portable versions (backends/cpu/backend_cpu.c). */
void tbrfi_cpu_grid_portable(const double *lines, int64_t M, const double *rb, const double *sx, int nl,
                       int64_t lo, int64_t n, double *acc);
void tbrfi_cpu_points_portable(const double *lines, int64_t M, const double *axis, double offset,
                         const double *shift, int nl,
                         int64_t n, const double *dx, const double *dy, const double *dz,
                         double *acc);

#endif
