/* fft_method.h — the FFT method: a field periodic over a regular grid,
 * synthesised as one inverse real FFT of Hermitian random Fourier modes.
 *
 * The grid of n[0] x n[1] x n[2] cells with spacings h[d] is taken as one
 * period: box lengths L_d = n_d h_d, wavevectors k = 2 pi (m_x/L_x, m_y/L_y,
 * m_z/L_z) for integer m, and
 *     Z(x) = sum_m a_m exp(i k.x),   E|a_m|^2 = P(|k|) / V,   a_-m = conj(a_m),
 * so C(h) = (1/V) sum_k P(k) e^{ik.h}, the periodic version of the
 * cosmology convention. The mode m = 0 and the Nyquist modes (|m_d| = n_d/2
 * for even n_d) are zero. Each a_m is a pure function of (seed,
 * realization, m): Philox keyed by the seed with counter (m packed in 63
 * bits, stream bit, realization), so a mode has the same value whatever
 * the grid size, and grids of different sizes over the same box share their
 * common modes exactly. */
#ifndef TBRF_FFT_METHOD_H
#define TBRF_FFT_METHOD_H

#include <stddef.h>
#include <stdint.h>

#include <fftw3.h>

#include "core/cancel.h"
#include "core/geometry.h"
#include "tbrf.h"

/* An FFTW plan of the in-place real transform of the n^3 cube on array c
 * (n^2 (n/2 + 1) complex values, rows padded to n/2 + 1): r2c when
 * forward, else c2r, on nthreads threads, made under the library's FFTW
 * lock with FFTW's threads set up once. NULL when FFTW cannot plan. */
fftw_plan tbrfi_fft_plan_cube(int64_t n, fftw_complex *c, int forward, int nthreads);

/* The same real transform of the n^3 cube with the k-space layout
 * transposed (FFTW_MPI_TRANSPOSED_OUT's): forward takes the real
 * [z][y][x] (rows padded to 2 (n/2 + 1)) to modes [ky][kz][kx], backward
 * takes that layout back. Made of batched 2-d transforms of the z planes,
 * a blocked swap of the rows and 1-d transforms along the middle axis
 * (FFTW's serial 3-d plan is 2-3 times slower under FFTW_ESTIMATE;
 * bench/fftw_layout.c). The bits do not depend on nthreads. */
typedef struct {
    fftw_plan planes, lines;
    int64_t n;
    int nthreads, forward;
} tbrfi_fft_cube_t;

/* Plans t in place on array c (n^2 (n/2 + 1) complex values, FFTW
 * aligned) on nthreads threads, under the library's FFTW lock. 1 when
 * planned, 0 when FFTW cannot plan (t then holds no plan). */
int tbrfi_fft_cube_t_plan(tbrfi_fft_cube_t *t, int64_t n, fftw_complex *c, int forward,
                          int nthreads);

/* Runs t in place on c (any FFTW-aligned array of t's size). */
void tbrfi_fft_cube_t_execute(const tbrfi_fft_cube_t *t, fftw_complex *c);

/* Destroys t's plans (under the lock); t may be partly planned. */
void tbrfi_fft_cube_t_destroy(tbrfi_fft_cube_t *t);

/* Bytes of working memory the method needs for grid g (the half-complex
 * array; the output is the caller's). */
double tbrfi_fft_method_bytes(int dim, const grid_geom *g);

/* 1 when grid g of dimension dim fits the method: every |m| below 2^20 per
 * axis, FFTW's int sizes, and the working memory below `max_bytes`. */
int tbrfi_fft_method_fits(int dim, const grid_geom *g, double max_bytes);

/* The variance the generated field has: (1/V) sum of P over the modes
 * kept (all m != 0 without Nyquist components). */
double tbrfi_fft_method_variance(const tbrf_model *model, int dim, const grid_geom *g);

/* Writes realization r on grid g into out (double or float per
 * precision, x fastest; `dim` interleaved components per cell when vector
 * is non-zero, projected per mode by zeta P_perp + (1 - zeta) P_par). model
 * must have its amplitude frozen (the plan's copy). threads as
 * opts.threads; cancel: the plan's hook or NULL. Returns TBRF_OK, TBRF_ERR_NO_MEMORY,
 * TBRF_ERR_FFT or TBRF_ERR_CANCELLED; values
 * are bitwise the same for any thread count. */
int tbrfi_fft_method_generate(const tbrf_model *model, int dim, const grid_geom *g, uint64_t seed,
                        uint64_t realization, int threads, int precision, int vector, double zeta,
                        const tbrfi_cancel *cancel, void *out);

/* The scalar field of realization r on the whole grid g in `precision`,
 * as tbrfi_fft_method_generate makes it (the same bits), handed to
 * push(user, first, count, values) in pieces of `step` cells (a multiple
 * of n_x). Float: straight from the transform's own memory, the floats
 * rounded in place over the doubles, so no second grid-sized array is
 * allocated; double: from the out-of-place output. Returns TBRF_OK, TBRF_ERR_NO_MEMORY, TBRF_ERR_FFT, or
 * TBRF_ERR_CALLBACK with the piece's first cell in *failed_at and the
 * callback's value in *push_rc. */
int tbrfi_fft_method_generate_push(const tbrf_model *model, int dim, const grid_geom *g, uint64_t seed,
                                   uint64_t realization, int threads, int precision, int64_t step,
                                   int (*push)(void *, int64_t, int64_t, const void *), void *user,
                                   int64_t *failed_at, int *push_rc, const tbrfi_cancel *cancel);

/* Fills the half-complex array C (n_z x n_y x (n_x/2+1), FFTW's c2r input)
 * with the modes of realization r times e^{i k.origin}: the scalar field's
 * (comp < 0) or component comp of the vector field projected with zeta.
 * zeroed: C is known to hold zeros, and the zero modes are not written.
 * Returns TBRF_OK or TBRF_ERR_NO_MEMORY. */
int tbrfi_fft_method_modes(const tbrf_model *model, int dim, const grid_geom *g, uint64_t seed,
                           uint64_t realization, int threads, double zeta, int comp, int zeroed,
                           fftw_complex *C);

/* tbrfi_fft_method_modes for rows row0 .. row0 + nrows - 1 only (a row
 * is (i_z, i_y), numbered i_z n_y + i_y; in 2D i_y), written from C on:
 * the k slab of one rank of a distributed transform (tbrf_fft_modes,
 * c/mpi/fft_mpi.c). Every mode is a function of (seed, realization, m)
 * alone, so a slab's modes are bitwise those of the whole array's rows.
 * 0 <= row0, row0 + nrows <= n_y n_z is the caller's to check. */
int tbrfi_fft_method_modes_rows(const tbrf_model *model, int dim, const grid_geom *g, uint64_t seed,
                                uint64_t realization, int threads, double zeta, int comp, int zeroed,
                                int64_t row0, int64_t nrows, fftw_complex *C);

/* tbrfi_fft_method_modes_rows polling `cancel` (NULL: none) between
 * blocks of rows: TBRF_ERR_CANCELLED when it asks to stop (C then holds
 * some rows only). The generate calls above poll through it, and once
 * more after the transform. */
int tbrfi_fft_method_modes_polled(const tbrf_model *model, int dim, const grid_geom *g, uint64_t seed,
                                  uint64_t realization, int threads, double zeta, int comp, int zeroed,
                                  int64_t row0, int64_t nrows, const tbrfi_cancel *cancel,
                                  fftw_complex *C);

#endif
