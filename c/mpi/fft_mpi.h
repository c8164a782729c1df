/* fft_mpi.h — the distributed FFT engine of libtbrf_mpi (internal): one
 * complex-to-real transform of an n_z x n_y x n_x grid (n_y x n_x in 2D)
 * over the ranks of a communicator with FFTW-MPI, slab-decomposed along
 * the slowest axis. Rank r holds planes z0 .. z0 + nz_local - 1 of the
 * half-complex array (its k slab: n_y x (n_x/2 + 1) complex values a
 * plane, rows of FFTW's c2r layout) and, after tbrfi_dfft_c2r, the same
 * planes of the real field, in place, rows padded to 2 (n_x/2 + 1)
 * doubles. The FFT method (tbrf_mpi_fft_stream) fills the slab with
 * tbrf_fft_modes; any code that has its own modes (initial conditions)
 * composes the same engine. FFTW_ESTIMATE, so a plan is the same on every
 * run with the same sizes and ranks: bitwise for a fixed number of ranks
 * (doc/mpi.md, "The FFT method"). */
#ifndef TBRF_MPI_FFT_MPI_H
#define TBRF_MPI_FFT_MPI_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include <fftw3-mpi.h>

typedef struct tbrfi_dfft {
    int dim;
    int64_t nx, nh, ny, nz;    /* nh = nx/2 + 1; nz = 1 in 2D */
    int64_t z0, nz_local;      /* this rank's planes (of z in 3D, of y in 2D) */
    int64_t rows_per_plane;    /* n_y in 3D, 1 in 2D */
    size_t alloc;              /* complex values allocated (FFTW-MPI's local size) */
    fftw_complex *C;           /* the slab, in place */
    fftw_plan c2r;
    fftw_plan r2c;             /* NULL until tbrfi_dfft_plan_r2c */
} tbrfi_dfft;

/* Collective: plans the transform of grid n (n[0] = n_x fastest; n[2] = 1
 * in 2D) over comm and allocates this rank's slab. 0, or -1 when memory or
 * FFTW-MPI's planner failed on this rank (the caller agrees across ranks
 * before any collective use). */
int tbrfi_dfft_make(tbrfi_dfft *f, MPI_Comm comm, int dim, const int64_t n[3]);

/* Collective: the inverse (c2r, unnormalised) transform in place. */
void tbrfi_dfft_c2r(tbrfi_dfft *f);

/* Collective (3D): plans the forward (r2c, unnormalised) transform of the
 * same slab, the real planes in, the same k planes out, for a code that
 * goes back to Fourier space on the grid (the 2LPT source). 0, or -1 when
 * FFTW-MPI's planner failed on this rank. */
int tbrfi_dfft_plan_r2c(tbrfi_dfft *f, MPI_Comm comm);

/* Collective: the forward transform in place (tbrfi_dfft_plan_r2c first). */
void tbrfi_dfft_r2c(tbrfi_dfft *f);

void tbrfi_dfft_free(tbrfi_dfft *f);

#endif
